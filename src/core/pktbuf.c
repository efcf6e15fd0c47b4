/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The central packet buffer: a first-fit allocator over one static arena.
 *
 * Read first: thesis 3.3.2 (seed 000) and the contract in tern/pktbuf.h.
 *
 * Arena. Everything is counted in units of TERN_PKTBUF_ALIGN (8) bytes. Free
 * chunks form a singly linked list sorted by address; a free chunk keeps
 * {uint32_t next; uint32_t size} (byte offsets from the arena start) in its
 * first unit, so the header fits one unit on 32- and 64-bit targets alike. The
 * last free chunk's next, and free_head of a full arena, is pb->size. Headers
 * are accessed through memcpy, never through a cast of the arena bytes.
 * Allocation is first fit and takes the front of the chunk; freeing inserts in
 * address order and coalesces with both neighbours.
 *
 * Allocated chunks carry no header. A snip is two chunks: its descriptor
 * (sizeof(tern_pkt_t) rounded up to units) and its data (size rounded up to
 * units; none when size is 0, data NULL), taken together from one free chunk
 * (descriptor first) when one holds both, and then given back together. The
 * allocator knows a chunk's extent only from the snip that owns it, by this rule:
 *
 *   Range ownership: a snip whose data is [a, a + size) owns the units
 *   [floor(a - lead), ceil(a + size)), and freeing the snip frees exactly
 *   those.
 *
 * lead is 0 but for a snip whose data still starts in the chunk it was
 * allocated with, right after its descriptor (a - lead == descriptor +
 * DESC_BYTES): trimming its front (trim_front()) only moves a and lead, and
 * the snip is still freed in one go with its descriptor. Every operation that
 * moves the data elsewhere or splits it gives the lead's units back first
 * (lead_free()).
 *
 * For the rule to hold, no two snips may ever touch the same unit. mark()
 * is the only operation that makes one data range into two, see mark_locked().
 *
 * Locking: every public function that reads or changes the arena, a reference
 * count or a list takes pb->lock exactly once; the *_locked helpers below
 * assume it is held and never call a locking public function (the lock is not
 * recursive). Report hooks (release_error) run without it. The exception are
 * the usual paths that touch only snips whose count is 1: such a snip is its
 * caller's alone, and no one else can come to share it (that takes a
 * reference the caller would have to give), so reading its count, its next,
 * or changing its own data range without giving units back takes no lock:
 * start_write() of a private head, start_write_upto() through private snips,
 * trim_front() keeping the bytes as lead, realloc_data() within the last
 * unit. Their other paths take the lock once, in a function of their own (the
 * usual path then saves no registers for it).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/pkt.h"
#include "tern/pktbuf.h"

/** Allocation unit, in bytes. */
#define UNIT ((uint32_t)TERN_PKTBUF_ALIGN)

/** Smallest and largest arena accepted by tern_pktbuf_init() (bytes). */
#define ARENA_MIN 64u
#define ARENA_MAX 0x7FFFFFF8u

/** Largest snip data (tern_pkt_t.size is 16 bits). */
#define SNIP_SIZE_MAX 65535u

/** Largest reference count (tern_pkt_t.users is 8 bits). */
#define USERS_MAX 255u

/** Bytes of a snip descriptor chunk. */
#define DESC_BYTES ((uint32_t)((sizeof(tern_pkt_t) + UNIT - 1u) / UNIT * UNIT))

/** "No chunk": returned by failed allocations, and the prev of the first free chunk. */
#define NO_CHUNK UINT32_MAX

_Static_assert((TERN_PKTBUF_ALIGN & (TERN_PKTBUF_ALIGN - 1u)) == 0, "unit must be a power of two");

/** Header of a free chunk, stored in its first unit. */
typedef struct {
    uint32_t next; /**< offset of the next free chunk, or the arena size for none */
    uint32_t size; /**< bytes of this chunk, a non-zero multiple of UNIT */
} free_chunk_t;

_Static_assert(sizeof(free_chunk_t) == TERN_PKTBUF_ALIGN, "a free chunk header is one unit");

/* ------------------------------------------------------------ unit arithmetic */

static uint32_t unit_floor(uint32_t offset)
{
    return offset & ~(UNIT - 1u);
}

/* Callers pass at most ARENA_MAX + SNIP_SIZE_MAX, so this never wraps. */
static uint32_t unit_ceil(uint32_t offset)
{
    return (offset + UNIT - 1u) & ~(UNIT - 1u);
}

static uint32_t offset_of(const tern_pktbuf_t *pb, const void *ptr)
{
    return (uint32_t)((const uint8_t *)ptr - pb->arena);
}

/* ------------------------------------------------------------ free list */

static free_chunk_t chunk_load(const tern_pktbuf_t *pb, uint32_t offset)
{
    free_chunk_t chunk;
    memcpy(&chunk, pb->arena + offset, sizeof(chunk));
    return chunk;
}

static void chunk_store(tern_pktbuf_t *pb, uint32_t offset, uint32_t next, uint32_t size)
{
    free_chunk_t chunk = { .next = next, .size = size };
    memcpy(pb->arena + offset, &chunk, sizeof(chunk));
}

/** Make the free chunk @p prev (or the list head for NO_CHUNK) point to @p next. */
static void free_list_link(tern_pktbuf_t *pb, uint32_t prev, uint32_t next)
{
    if (prev == NO_CHUNK) {
        pb->free_head = next;
        return;
    }
    free_chunk_t chunk = chunk_load(pb, prev);
    chunk_store(pb, prev, next, chunk.size);
}

static void account_alloc(tern_pktbuf_t *pb, uint32_t bytes)
{
    pb->stats.used += bytes;
    if (pb->stats.used > pb->stats.high_water) {
        pb->stats.high_water = pb->stats.used;
    }
}

/** Take the first @p bytes of free chunk @p chunk at @p offset (whose predecessor is @p prev). */
__attribute__((always_inline)) static inline void chunk_take_front(tern_pktbuf_t *pb, uint32_t prev, uint32_t offset, free_chunk_t chunk,
                             uint32_t bytes)
{
    if (chunk.size == bytes) {
        free_list_link(pb, prev, chunk.next);
    } else {
        chunk_store(pb, offset + bytes, chunk.next, chunk.size - bytes);
        free_list_link(pb, prev, offset + bytes);
    }
    account_alloc(pb, bytes);
}

/**
 * First fit: allocate @p bytes (a non-zero multiple of UNIT).
 * @return the chunk's offset; NO_CHUNK when nothing fits (not counted).
 */
static uint32_t arena_try_alloc(tern_pktbuf_t *pb, uint32_t bytes)
{
    uint32_t prev = NO_CHUNK;
    uint32_t offset = pb->free_head;
    while (offset != pb->size) {
        free_chunk_t chunk = chunk_load(pb, offset);
        if (chunk.size >= bytes) {
            chunk_take_front(pb, prev, offset, chunk, bytes);
            return offset;
        }
        prev = offset;
        offset = chunk.next;
    }
    return NO_CHUNK;
}

/** arena_try_alloc(), a failure counted in alloc_fail. */
static uint32_t arena_alloc(tern_pktbuf_t *pb, uint32_t bytes)
{
    uint32_t offset = arena_try_alloc(pb, bytes);
    if (offset == NO_CHUNK) {
        pb->stats.alloc_fail++;
    }
    return offset;
}

/**
 * Grow the allocation that ends at @p end by @p bytes, if the free chunk
 * starting exactly at @p end is large enough. Not an allocation failure if not.
 */
static bool arena_extend(tern_pktbuf_t *pb, uint32_t end, uint32_t bytes)
{
    uint32_t prev = NO_CHUNK;
    uint32_t offset = pb->free_head;
    while (offset != pb->size && offset <= end) {
        free_chunk_t chunk = chunk_load(pb, offset);
        if (offset == end) {
            if (chunk.size < bytes) {
                return false;
            }
            chunk_take_front(pb, prev, offset, chunk, bytes);
            return true;
        }
        prev = offset;
        offset = chunk.next;
    }
    return false;
}

/** Give back [@p offset, @p offset + @p bytes) (whole units), coalescing with both neighbours. */
static void arena_free(tern_pktbuf_t *pb, uint32_t offset, uint32_t bytes)
{
    uint32_t prev = NO_CHUNK;
    uint32_t next = pb->free_head;
    while (next != pb->size && next < offset) {
        prev = next;
        next = chunk_load(pb, next).next;
    }

    uint32_t size = bytes;
    if (next != pb->size && offset + bytes == next) {
        free_chunk_t following = chunk_load(pb, next);
        size += following.size;
        next = following.next;
    }
    pb->stats.used -= bytes;

    if (prev != NO_CHUNK) {
        free_chunk_t preceding = chunk_load(pb, prev);
        if (prev + preceding.size == offset) {
            chunk_store(pb, prev, next, preceding.size + size);
            return;
        }
    }
    chunk_store(pb, offset, next, size);
    free_list_link(pb, prev, offset);
}

/* ------------------------------------------------------------ snips */

/** Free the units a snip's data owns (see "Range ownership" above); its lead becomes 0. */
static void data_free(tern_pktbuf_t *pb, tern_pkt_t *snip)
{
    if (snip->data == NULL || snip->size == 0) {
        return;
    }
    uint32_t offset = offset_of(pb, snip->data);
    uint32_t start = unit_floor(offset - snip->lead);
    uint32_t end = unit_ceil(offset + (uint32_t)snip->size);
    arena_free(pb, start, end - start);
    snip->lead = 0;
}

/** Does @p snip's data start (lead included) right after its descriptor? */
static bool data_adjacent(const tern_pktbuf_t *pb, const tern_pkt_t *snip)
{
    return snip->data != NULL && snip->size != 0 &&
           offset_of(pb, snip->data) - snip->lead == offset_of(pb, snip) + DESC_BYTES;
}

/** Give back the whole units of @p snip's lead (those before its data's first unit); lead becomes 0. */
static void lead_free(tern_pktbuf_t *pb, tern_pkt_t *snip)
{
    if (snip->lead == 0) {
        return;
    }
    uint32_t offset = offset_of(pb, snip->data);
    uint32_t start = unit_floor(offset - snip->lead);
    uint32_t end = unit_floor(offset);
    if (end > start) {
        arena_free(pb, start, end - start);
    }
    snip->lead = 0;
}

/** Free a snip's data and its descriptor (in one go when they are adjacent, see snip_alloc()). */
static void snip_free(tern_pktbuf_t *pb, tern_pkt_t *snip)
{
    uint32_t desc = offset_of(pb, snip);
    if (data_adjacent(pb, snip)) {
        uint32_t end = unit_ceil(offset_of(pb, snip->data) + (uint32_t)snip->size);
        arena_free(pb, desc, end - desc);
        return;
    }
    data_free(pb, snip);
    arena_free(pb, desc, DESC_BYTES);
}

/**
 * Free @p snip (users 0) and @p next (its next, whose last reference goes
 * too) in one go when their ranges (each with its descriptor, data_adjacent())
 * meet, @p next's right after @p snip's: a snip and its next as
 * tern_pktbuf_add_pair() lays them out (a received frame and its interface
 * header). One walk of the free list instead of two.
 * @return true when both are freed; false (nothing done) otherwise.
 */
static bool pair_free(tern_pktbuf_t *pb, tern_pkt_t *snip, tern_pkt_t *next)
{
    if (!data_adjacent(pb, snip) || !data_adjacent(pb, next) ||
        unit_ceil(offset_of(pb, snip->data) + (uint32_t)snip->size) != offset_of(pb, next)) {
        return false;
    }
    uint32_t start = offset_of(pb, snip);
    uint32_t end = unit_ceil(offset_of(pb, next->data) + (uint32_t)next->size);
    arena_free(pb, start, end - start);
    return true;
}

/** The descriptor at @p desc for @p size bytes at @p data: users 1, next NULL, type UNDEF. */
static tern_pkt_t *snip_init(tern_pktbuf_t *pb, uint32_t desc, void *data, size_t size)
{
    /* The descriptor chunk is UNIT-aligned, which satisfies tern_pkt_t. */
    tern_pkt_t *snip = (tern_pkt_t *)(void *)(pb->arena + desc);
    snip->next = NULL;
    snip->data = data;
    snip->size = (uint16_t)size;
    snip->users = 1;
    snip->type = TERN_NETTYPE_UNDEF;
    snip->lead = 0;
    return snip;
}

/** snip_alloc() when no free chunk holds both: the descriptor and the data each where it fits. */
__attribute__((noinline)) static tern_pkt_t *snip_alloc_apart(tern_pktbuf_t *pb, size_t size)
{
    uint32_t desc = arena_alloc(pb, DESC_BYTES);
    if (desc == NO_CHUNK) {
        return NULL;
    }
    void *data = NULL;
    if (size != 0) {
        uint32_t offset = arena_alloc(pb, unit_ceil((uint32_t)size));
        if (offset == NO_CHUNK) {
            arena_free(pb, desc, DESC_BYTES);
            return NULL;
        }
        data = pb->arena + offset;
    }
    return snip_init(pb, desc, data, size);
}

/**
 * Allocate a descriptor and @p size bytes of (uninitialised) data: from one
 * chunk when one holds both (one walk of the free list, not two; still two
 * ranges, each freed on its own: range ownership), else apart. Inline: its
 * usual case is one call of arena_try_alloc().
 * @return the snip with users 1, next NULL, type UNDEF; NULL if out of memory
 *         (nothing stays allocated then).
 */
static inline tern_pkt_t *snip_alloc(tern_pktbuf_t *pb, size_t size)
{
    if (size != 0) {
        uint32_t desc = arena_try_alloc(pb, DESC_BYTES + unit_ceil((uint32_t)size));
        if (desc != NO_CHUNK) {
            return snip_init(pb, desc, pb->arena + desc + DESC_BYTES, size);
        }
    }
    return snip_alloc_apart(pb, size);
}

/** A private copy of @p orig (data, type and next), users 1; NULL if out of memory. */
static tern_pkt_t *snip_duplicate(tern_pktbuf_t *pb, const tern_pkt_t *orig)
{
    tern_pkt_t *dup = snip_alloc(pb, orig->size);
    if (dup == NULL) {
        return NULL;
    }
    if (orig->size != 0) {
        memcpy(dup->data, orig->data, orig->size);
    }
    dup->type = orig->type;
    dup->next = orig->next;
    return dup;
}

/**
 * Drop one reference from every snip of @p pkt. Snips that stay alive are
 * walked through as well: in a copy-on-write tree each holder reaches the
 * shared tail through its own head, and a shared snip's count is the sum of
 * its holders (thesis 3.3.2), so the holder's reference goes from every snip.
 */
static void release_locked(tern_pktbuf_t *pb, tern_pkt_t *pkt)
{
    while (pkt != NULL) {
        tern_pkt_t *next = pkt->next; /* read first: freeing overwrites the descriptor */
        if (pkt->users > 0) {
            pkt->users--;
            if (pkt->users == 0) {
                if (next != NULL && next->users == 1) {
                    tern_pkt_t *after = next->next;
                    if (pair_free(pb, pkt, next)) {
                        pkt = after; /* next's reference went with it */
                        continue;
                    }
                }
                snip_free(pb, pkt);
            }
        }
        pkt = next;
    }
}

/**
 * Drop one reference from @p snip alone (remove_snip, replace_snip). Its next
 * is not touched: if the snip stays alive, another holder still reaches the
 * rest of the list through it, and the caller still reaches that rest through
 * the list the snip was unlinked from, so no count beyond it changes.
 */
static void release_snip_locked(tern_pktbuf_t *pb, tern_pkt_t *snip)
{
    if (snip->users > 0) {
        snip->users--;
        if (snip->users == 0) {
            snip_free(pb, snip);
        }
    }
}

/**
 * Resize @p snip's data to @p size, keeping min(old, new) bytes and zeroing
 * new ones. Shrinking frees whole trailing units only; growing first uses the
 * slack of the last unit, then the adjacent free chunk, and only then moves.
 * @return 0, or -ENOMEM with @p snip unchanged.
 */
static int data_resize_locked(tern_pktbuf_t *pb, tern_pkt_t *snip, size_t size)
{
    size_t old = snip->size;
    if (size == old) {
        return 0;
    }
    if (size == 0) {
        data_free(pb, snip);
        snip->data = NULL;
        snip->size = 0;
        return 0;
    }
    if (old == 0) {
        uint32_t offset = arena_alloc(pb, unit_ceil((uint32_t)size));
        if (offset == NO_CHUNK) {
            return -ENOMEM;
        }
        snip->data = pb->arena + offset;
        memset(snip->data, 0, size);
        snip->size = (uint16_t)size;
        return 0;
    }

    uint32_t offset = offset_of(pb, snip->data);
    uint32_t old_end = unit_ceil(offset + (uint32_t)old);
    uint32_t new_end = unit_ceil(offset + (uint32_t)size);
    if (new_end < old_end) {
        arena_free(pb, new_end, old_end - new_end);
    } else if (new_end > old_end && !arena_extend(pb, old_end, new_end - old_end)) {
        uint32_t moved = arena_alloc(pb, unit_ceil((uint32_t)size));
        if (moved == NO_CHUNK) {
            return -ENOMEM;
        }
        memcpy(pb->arena + moved, snip->data, old);
        data_free(pb, snip); /* the lead too: the data no longer follows the descriptor */
        snip->data = pb->arena + moved;
    }
    if (size > old) {
        memset((uint8_t *)snip->data + old, 0, size - old);
    }
    snip->size = (uint16_t)size;
    return 0;
}

/* ------------------------------------------------------------ public API */

int tern_pktbuf_init(tern_pktbuf_t *pb, void *storage, size_t size, const tern_lock_t *lock)
{
    if (pb == NULL || storage == NULL || ((uintptr_t)storage % UNIT) != 0) {
        return -EINVAL;
    }
    size_t aligned = size & ~(size_t)(UNIT - 1u);
    if (aligned < ARENA_MIN || aligned > ARENA_MAX) {
        return -EINVAL;
    }
    memset(pb, 0, sizeof(*pb));
    pb->arena = storage;
    pb->size = (uint32_t)aligned;
    pb->free_head = 0;
    pb->stats.size = aligned;
    pb->lock = lock;
    chunk_store(pb, 0, pb->size, pb->size);
    return 0;
}

tern_pkt_t *tern_pktbuf_add(tern_pktbuf_t *pb, tern_pkt_t *next, const void *data, size_t size,
                            tern_nettype_t type)
{
    if (pb == NULL || size > SNIP_SIZE_MAX) {
        return NULL;
    }
    tern_lock_acquire(pb->lock);
    tern_pkt_t *snip = snip_alloc(pb, size);
    if (snip != NULL) {
        if (size != 0) {
            if (data != NULL) {
                memcpy(snip->data, data, size);
            } else {
                memset(snip->data, 0, size);
            }
        }
        snip->next = next;
        snip->type = (uint8_t)type;
    }
    tern_lock_release(pb->lock);
    return snip;
}

/**
 * One snip_alloc() for the header snip with room for the data snip behind
 * its bytes: [descriptor, header bytes (whole units), descriptor, data].
 * The data snip's bytes follow its descriptor, and the header snip's range
 * (range ownership) ends where that descriptor starts, so each is freed on
 * its own as if allocated alone, wherever snip_alloc() found room. With
 * @p zero every byte is zeroed, else the bytes are left as they were.
 */
__attribute__((always_inline)) static inline tern_pkt_t *pair_alloc_locked(tern_pktbuf_t *pb, tern_pkt_t *next, size_t hdr_size,
                                     tern_nettype_t hdr_type, size_t size, tern_nettype_t type, bool zero)
{
    uint32_t hdr_units = unit_ceil((uint32_t)hdr_size);
    tern_pkt_t *hdr = snip_alloc(pb, hdr_units + DESC_BYTES + size);
    if (hdr != NULL) {
        uint8_t *at = (uint8_t *)hdr->data + hdr_units;
        if (zero) {
            memset(hdr->data, 0, hdr_units + DESC_BYTES + size); /* then the descriptor in between */
        }
        tern_pkt_t *data = snip_init(pb, offset_of(pb, at), at + DESC_BYTES, size);
        hdr->size = (uint16_t)hdr_size;
        hdr->type = (uint8_t)hdr_type;
        hdr->next = data;
        data->type = (uint8_t)type;
        data->next = next;
    }
    return hdr;
}

tern_pkt_t *tern_pktbuf_add_pair(tern_pktbuf_t *pb, tern_pkt_t *next, size_t hdr_size, tern_nettype_t hdr_type,
                                 size_t size, tern_nettype_t type)
{
    if (pb == NULL || hdr_size == 0 || size == 0 || hdr_size > SNIP_SIZE_MAX || size > SNIP_SIZE_MAX) {
        return NULL;
    }
    tern_lock_acquire(pb->lock);
    tern_pkt_t *hdr = pair_alloc_locked(pb, next, hdr_size, hdr_type, size, type, true);
    tern_lock_release(pb->lock);
    return hdr;
}

tern_pkt_t *tern_pktbuf_add_pair_to_fill(tern_pktbuf_t *pb, size_t hdr_size, tern_nettype_t hdr_type, size_t size,
                                         tern_nettype_t type)
{
    if (pb == NULL || hdr_size == 0 || size == 0 || hdr_size > SNIP_SIZE_MAX || size > SNIP_SIZE_MAX) {
        return NULL;
    }
    tern_lock_acquire(pb->lock);
    tern_pkt_t *hdr = pair_alloc_locked(pb, NULL, hdr_size, hdr_type, size, type, false);
    tern_lock_release(pb->lock);
    return hdr;
}

int tern_pktbuf_hold(tern_pktbuf_t *pb, tern_pkt_t *pkt, unsigned num)
{
    if (pb == NULL || pkt == NULL) {
        return -EINVAL;
    }
    int ret = 0;
    tern_lock_acquire(pb->lock);
    for (tern_pkt_t *snip = pkt; snip != NULL; snip = snip->next) {
        if (num > USERS_MAX - snip->users) {
            ret = -EOVERFLOW;
            break;
        }
    }
    if (ret == 0) {
        for (tern_pkt_t *snip = pkt; snip != NULL; snip = snip->next) {
            snip->users = (uint8_t)(snip->users + num);
        }
    }
    tern_lock_release(pb->lock);
    return ret;
}

void tern_pktbuf_release(tern_pktbuf_t *pb, tern_pkt_t *pkt)
{
    if (pb == NULL || pkt == NULL) {
        return;
    }
    tern_lock_acquire(pb->lock);
    release_locked(pb, pkt);
    tern_lock_release(pb->lock);
}

/**
 * The hooks are read with memcpy (a NETERR snip's data need not be aligned)
 * and are only called when the snip is large enough to hold one.
 */
void tern_pktbuf_release_error(tern_pktbuf_t *pb, tern_pkt_t *pkt, int err)
{
    if (pb == NULL || pkt == NULL) {
        return;
    }
    for (const tern_pkt_t *snip = pkt; snip != NULL; snip = snip->next) {
        if (snip->type != TERN_NETTYPE_NETERR || snip->data == NULL ||
            snip->size < sizeof(tern_neterr_report_t)) {
            continue;
        }
        tern_neterr_report_t hook;
        memcpy(&hook, snip->data, sizeof(hook));
        if (hook.report != NULL) {
            hook.report(hook.ctx, err);
        }
    }
    tern_lock_acquire(pb->lock);
    if (err != 0) {
        pb->stats.released_err++;
    }
    release_locked(pb, pkt);
    tern_lock_release(pb->lock);
}

/**
 * Split the header off @p pkt without moving a payload byte, keeping the
 * range ownership rule (file comment):
 *
 * - If the split point (pkt->data + size) lies on a unit boundary, the split
 *   is done in place: the header keeps [floor(a), split), the payload
 *   [split, ceil(end)). Only a descriptor is allocated.
 * - Otherwise both snips would touch the unit holding the split point. The
 *   header bytes are then copied into a chunk of their own, and the units of
 *   the old header region that lie entirely before the payload's first unit,
 *   [floor(a), floor(split)), are freed. The payload keeps the partial unit.
 *
 * Note the test is on the split point, not on @p size: after an unaligned
 * mark the payload starts inside a unit, and a size that is a multiple of
 * UNIT would then put the split point inside a unit too.
 */
static tern_pkt_t *mark_locked(tern_pktbuf_t *pb, tern_pkt_t *pkt, size_t size,
                               tern_nettype_t type)
{
    if (pkt->users != 1 || size == 0 || size >= pkt->size) {
        return NULL;
    }
    uint32_t start = offset_of(pb, pkt->data);
    uint32_t split = start + (uint32_t)size;
    /* The split moves pkt's data away from its descriptor: no lead after it.
     * (Given back first, so that an allocation failure below leaves pkt as
     * it was but for that: its bytes, size and ownership rule are the same.) */
    lead_free(pb, pkt);
    tern_pkt_t *hdr;
    if (split % UNIT == 0) {
        /* A descriptor alone, filled below (snip_alloc() would set every field first). */
        uint32_t desc = arena_alloc(pb, DESC_BYTES);
        if (desc == NO_CHUNK) {
            return NULL;
        }
        hdr = (tern_pkt_t *)(void *)(pb->arena + desc); /* UNIT-aligned, as in snip_init() */
        hdr->data = pkt->data;
        hdr->lead = 0;
    } else {
        hdr = snip_alloc(pb, size);
        if (hdr == NULL) {
            return NULL;
        }
        memcpy(hdr->data, pkt->data, size);
        uint32_t freed_end = unit_floor(split);
        if (freed_end > unit_floor(start)) {
            arena_free(pb, unit_floor(start), freed_end - unit_floor(start));
        }
    }
    hdr->size = (uint16_t)size;
    hdr->type = (uint8_t)type;
    hdr->users = pkt->users;
    hdr->next = pkt->next;
    pkt->next = hdr;
    pkt->data = (uint8_t *)pkt->data + size;
    pkt->size = (uint16_t)(pkt->size - size);
    return hdr;
}

tern_pkt_t *tern_pktbuf_mark(tern_pktbuf_t *pb, tern_pkt_t *pkt, size_t size,
                             tern_nettype_t type)
{
    if (pb == NULL || pkt == NULL) {
        return NULL;
    }
    tern_lock_acquire(pb->lock);
    tern_pkt_t *hdr = mark_locked(pb, pkt, size, type);
    tern_lock_release(pb->lock);
    return hdr;
}

/** arena_free() under the lock (kept apart: the callers' other paths take no lock and save no registers). */
__attribute__((noinline)) static void arena_free_locking(tern_pktbuf_t *pb, uint32_t offset, uint32_t bytes)
{
    tern_lock_acquire(pb->lock);
    arena_free(pb, offset, bytes);
    tern_lock_release(pb->lock);
}

int tern_pktbuf_trim_front(tern_pktbuf_t *pb, tern_pkt_t *pkt, size_t size)
{
    if (pb == NULL || pkt == NULL || pkt->users != 1 || size == 0 || size >= pkt->size) {
        return -EINVAL;
    }
    /* users 1: the caller holds the snip alone, and no one else can come to
     * share it meanwhile; only the arena needs the lock. */
    if (data_adjacent(pb, pkt)) {
        /* The bytes stay the snip's (lead) and are freed with it and its
         * descriptor, in one go: no free-list walk now, none more later, and
         * no unit changes owner (no lock, as realloc_data()'s shrink). */
        pkt->lead = (uint16_t)(pkt->lead + size);
    } else {
        /* A snip owns the units from unit_floor(data) to unit_ceil(data +
         * size) (see mark_locked()): give back those wholly before the new start. */
        uint32_t start = unit_floor(offset_of(pb, pkt->data));
        uint32_t freed_end = unit_floor(offset_of(pb, pkt->data) + (uint32_t)size);
        if (freed_end > start) {
            arena_free_locking(pb, start, freed_end - start);
        }
    }
    pkt->data = (uint8_t *)pkt->data + size;
    pkt->size = (uint16_t)(pkt->size - size);
    return 0;
}

/** tern_pktbuf_start_write() of a shared head (kept apart: the usual call takes no lock and saves no registers). */
__attribute__((noinline)) static tern_pkt_t *start_write_locking(tern_pktbuf_t *pb, tern_pkt_t *pkt)
{
    tern_lock_acquire(pb->lock);
    tern_pkt_t *head = pkt;
    if (pkt->users > 1) {
        head = snip_duplicate(pb, pkt); /* next stays shared: no count changes there */
        if (head != NULL) {
            pkt->users--;
        }
    }
    tern_lock_release(pb->lock);
    return head;
}

tern_pkt_t *tern_pktbuf_start_write(tern_pktbuf_t *pb, tern_pkt_t *pkt)
{
    if (pb == NULL || pkt == NULL) {
        return NULL;
    }
    /* users 1: the caller holds the head alone, and no one else can come to
     * share it meanwhile (as the interface's own check before it calls here):
     * nothing to copy, no lock. Anything else is decided under the lock. */
    if (pkt->users == 1) {
        return pkt;
    }
    return start_write_locking(pb, pkt);
}

/**
 * Two passes under one lock, so that exhaustion changes nothing: first every
 * duplicate is allocated (chained through their own next fields), then they
 * are linked in. A private snip (users 1) on the path is not copied, only
 * relinked: its only holder is the caller. In a consistent tree counts never
 * decrease along a list, so "the shared ones" are exactly a run from the first
 * shared snip up to the target.
 */
static tern_pkt_t *start_write_upto_locked(tern_pktbuf_t *pb, tern_pkt_t *pkt, tern_nettype_t type)
{
    tern_pkt_t *target = tern_pkt_search_type(pkt, type);
    if (target == NULL) {
        return NULL;
    }

    tern_pkt_t *dups = NULL;
    tern_pkt_t **tail = &dups;
    for (tern_pkt_t *snip = pkt;; snip = snip->next) {
        if (snip->users > 1) {
            tern_pkt_t *dup = snip_duplicate(pb, snip);
            if (dup == NULL) {
                while (dups != NULL) {
                    tern_pkt_t *next = dups->next;
                    snip_free(pb, dups);
                    dups = next;
                }
                return NULL;
            }
            dup->next = NULL;
            *tail = dup;
            tail = &dup->next;
        }
        if (snip == target) {
            break;
        }
    }

    tern_pkt_t *head = pkt;
    tern_pkt_t *prev = NULL;
    for (tern_pkt_t *snip = pkt;;) {
        tern_pkt_t *next = snip->next;
        tern_pkt_t *now = snip;
        if (snip->users > 1) {
            now = dups;
            dups = dups->next;
            now->next = next;
            snip->users--;
            if (prev == NULL) {
                head = now;
            } else {
                prev->next = now;
            }
        }
        if (snip == target) {
            break;
        }
        prev = now;
        snip = next;
    }
    return head;
}

/** start_write_upto_locked() under the lock (kept apart, as start_write_locking()). */
__attribute__((noinline)) static tern_pkt_t *start_write_upto_locking(tern_pktbuf_t *pb, tern_pkt_t *pkt,
                                                                       tern_nettype_t type)
{
    tern_lock_acquire(pb->lock);
    tern_pkt_t *head = start_write_upto_locked(pb, pkt, type);
    tern_lock_release(pb->lock);
    return head;
}

tern_pkt_t *tern_pktbuf_start_write_upto(tern_pktbuf_t *pb, tern_pkt_t *pkt, tern_nettype_t type)
{
    if (pb == NULL || pkt == NULL) {
        return NULL;
    }
    /* The usual case, in one walk without the lock: every snip up to the
     * target has users 1, so each is the caller's alone (no one else can
     * come to share it, or change its next), and nothing is copied or
     * relinked. A shared snip on the way is dealt with under the lock. */
    for (const tern_pkt_t *snip = pkt; snip != NULL && snip->users == 1; snip = snip->next) {
        if (snip->type == type) {
            return pkt;
        }
    }
    return start_write_upto_locking(pb, pkt, type);
}

/** tern_pktbuf_realloc_data() beyond its shrink within the last unit (kept apart: that one saves no registers). */
__attribute__((noinline)) static int realloc_data_locking(tern_pktbuf_t *pb, tern_pkt_t *pkt, size_t size)
{
    tern_lock_acquire(pb->lock);
    int ret = data_resize_locked(pb, pkt, size);
    tern_lock_release(pb->lock);
    return ret;
}

int tern_pktbuf_realloc_data(tern_pktbuf_t *pb, tern_pkt_t *pkt, size_t size)
{
    if (pb == NULL || pkt == NULL || size > SNIP_SIZE_MAX || pkt->users != 1) {
        return -EINVAL;
    }
    /* A shrink within the snip's last unit changes no unit's owner and no
     * count, only the size of a snip the caller holds alone (users 1: no one
     * else can come to share it meanwhile): no lock needed. */
    if (size != 0 && size <= pkt->size &&
        unit_ceil(offset_of(pb, pkt->data) + (uint32_t)size) ==
            unit_ceil(offset_of(pb, pkt->data) + (uint32_t)pkt->size)) {
        pkt->size = (uint16_t)size;
        return 0;
    }
    return realloc_data_locking(pb, pkt, size);
}

/**
 * The head's data is resized (in place when the following units are free),
 * then the other snips' bytes are appended and the snips freed.
 */
static int merge_locked(tern_pktbuf_t *pb, tern_pkt_t *pkt)
{
    size_t total = 0;
    for (const tern_pkt_t *snip = pkt; snip != NULL; snip = snip->next) {
        if (snip->users != 1) {
            return -EINVAL;
        }
        total += snip->size;
    }
    if (pkt->next == NULL) {
        return 0;
    }
    if (total > SNIP_SIZE_MAX) {
        return -EMSGSIZE;
    }
    size_t head_size = pkt->size;
    if (data_resize_locked(pb, pkt, total) != 0) {
        return -ENOMEM;
    }
    size_t filled = head_size;
    tern_pkt_t *snip = pkt->next;
    while (snip != NULL) {
        tern_pkt_t *next = snip->next;
        if (snip->size != 0) {
            memcpy((uint8_t *)pkt->data + filled, snip->data, snip->size);
            filled += snip->size;
        }
        snip_free(pb, snip);
        snip = next;
    }
    pkt->next = NULL;
    return 0;
}

int tern_pktbuf_merge(tern_pktbuf_t *pb, tern_pkt_t *pkt)
{
    if (pb == NULL || pkt == NULL) {
        return -EINVAL;
    }
    tern_lock_acquire(pb->lock);
    int ret = merge_locked(pb, pkt);
    tern_lock_release(pb->lock);
    return ret;
}

/** The link (head pointer or some snip's next) that points to @p snip, or NULL. */
static tern_pkt_t **find_link(tern_pkt_t **head, const tern_pkt_t *snip)
{
    for (tern_pkt_t **link = head; *link != NULL; link = &(*link)->next) {
        if (*link == snip) {
            return link;
        }
    }
    return NULL;
}

tern_pkt_t *tern_pktbuf_remove_snip(tern_pktbuf_t *pb, tern_pkt_t *pkt, tern_pkt_t *snip)
{
    if (pb == NULL || pkt == NULL || snip == NULL) {
        return pkt;
    }
    tern_pkt_t *head = pkt;
    tern_lock_acquire(pb->lock);
    tern_pkt_t **link = find_link(&head, snip);
    if (link != NULL) {
        *link = snip->next;
        release_snip_locked(pb, snip);
    }
    tern_lock_release(pb->lock);
    return head;
}

tern_pkt_t *tern_pktbuf_replace_snip(tern_pktbuf_t *pb, tern_pkt_t *pkt, tern_pkt_t *old,
                                     tern_pkt_t *add)
{
    if (pb == NULL || pkt == NULL || old == NULL || add == NULL || add == old) {
        return pkt;
    }
    tern_pkt_t *head = pkt;
    tern_lock_acquire(pb->lock);
    tern_pkt_t **link = find_link(&head, old);
    if (link != NULL) {
        add->next = old->next;
        *link = add;
        release_snip_locked(pb, old);
    }
    tern_lock_release(pb->lock);
    return head;
}

tern_pktbuf_stats_t tern_pktbuf_stats(tern_pktbuf_t *pb)
{
    tern_pktbuf_stats_t stats = { 0 };
    if (pb == NULL) {
        return stats;
    }
    tern_lock_acquire(pb->lock);
    stats = pb->stats;
    tern_lock_release(pb->lock);
    return stats;
}

bool tern_pktbuf_is_empty(tern_pktbuf_t *pb)
{
    if (pb == NULL || pb->arena == NULL) {
        return false;
    }
    tern_lock_acquire(pb->lock);
    bool empty = pb->free_head == 0 && chunk_load(pb, 0).size == pb->size;
    tern_lock_release(pb->lock);
    return empty;
}

/**
 * Offsets must increase strictly and every chunk must start after the
 * previous one's end (equal would be two uncoalesced neighbours), so the walk
 * ends even on a corrupted (cyclic) list.
 */
static int check_locked(const tern_pktbuf_t *pb)
{
    if (pb->arena == NULL || pb->size % UNIT != 0 || pb->stats.used % UNIT != 0 ||
        pb->stats.used > pb->size) {
        return -EFAULT;
    }
    uint32_t free_bytes = 0;
    uint32_t prev_end = 0;
    bool first = true;
    uint32_t offset = pb->free_head;
    while (offset != pb->size) {
        if (offset > pb->size || offset % UNIT != 0 || (!first && offset <= prev_end)) {
            return -EFAULT;
        }
        free_chunk_t chunk = chunk_load(pb, offset);
        if (chunk.size == 0 || chunk.size % UNIT != 0 || chunk.size > pb->size - offset) {
            return -EFAULT;
        }
        free_bytes += chunk.size;
        prev_end = offset + chunk.size;
        first = false;
        offset = chunk.next;
    }
    if ((size_t)free_bytes + pb->stats.used != pb->size) {
        return -EFAULT;
    }
    return 0;
}

int tern_pktbuf_check(tern_pktbuf_t *pb)
{
    if (pb == NULL) {
        return -EFAULT;
    }
    tern_lock_acquire(pb->lock);
    int ret = check_locked(pb);
    tern_lock_release(pb->lock);
    return ret;
}

bool tern_pktbuf_contains(const tern_pktbuf_t *pb, const void *ptr)
{
    if (pb == NULL || ptr == NULL || pb->arena == NULL) {
        return false;
    }
    uintptr_t p = (uintptr_t)ptr;
    uintptr_t start = (uintptr_t)pb->arena;
    return p >= start && p - start < pb->size;
}
