/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The central packet buffer: one static arena of variable-size chunks.
 *
 * Read first: thesis 3.3.2 (seed 000). Every packet of a stack instance lives in
 * its pktbuf: snip descriptors (tern_pkt_t) and snip data are both carved from
 * one caller-provided arena, in units of TERN_PKTBUF_ALIGN bytes, first fit,
 * with free neighbours coalesced on free. Nothing is ever taken from the heap.
 *
 * Ownership: a holder owns one reference to every snip of the list it holds.
 * tern_pktbuf_hold() adds references to every snip of a list,
 * tern_pktbuf_release() drops one from every snip and frees each snip whose
 * count reaches 0. A snip reached from several packets (after copy-on-write)
 * has a count equal to the sum of its holders.
 *
 * Thread safety: every function takes the lock given to tern_pktbuf_init()
 * around its changes to the arena and to reference counts (not where it only
 * looks at or changes snips of count 1, which are their caller's alone: see
 * src/core/pktbuf.c). Writing a snip's bytes is only allowed on snips the
 * caller holds alone (see start_write).
 *
 * Exhaustion is a normal event: allocating functions return NULL (or -ENOMEM),
 * leave their inputs unchanged, and count the failure in the statistics.
 */
#ifndef TERN_PKTBUF_H
#define TERN_PKTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/lock.h"
#include "tern/pkt.h"

/** Allocation unit and alignment of everything in the arena, in bytes. */
#define TERN_PKTBUF_ALIGN 8u

/** Declares storage for an arena of @p size bytes, suitably aligned. */
#define TERN_PKTBUF_STORAGE(name, size) \
    _Alignas(TERN_PKTBUF_ALIGN) uint8_t name[(((size) + TERN_PKTBUF_ALIGN - 1u) / TERN_PKTBUF_ALIGN) * TERN_PKTBUF_ALIGN]

/** Statistics of one pktbuf. */
typedef struct {
    size_t size;           /**< arena size in bytes (after alignment) */
    size_t used;           /**< bytes allocated now (descriptors + data, in units) */
    size_t high_water;     /**< largest @ref used ever seen */
    uint32_t alloc_fail;   /**< allocations refused because no free chunk fits */
    uint32_t released_err; /**< packets released with an error (release_error) */
} tern_pktbuf_stats_t;

/** A packet buffer. Treat all fields as private; use the functions below. */
typedef struct {
    uint8_t *arena;            /**< start of the arena (aligned) */
    uint32_t size;             /**< arena size in bytes, a multiple of TERN_PKTBUF_ALIGN */
    uint32_t free_head;        /**< offset of the first free chunk, or size when none */
    tern_pktbuf_stats_t stats; /**< counters */
    const tern_lock_t *lock;   /**< lock around every change, may be NULL */
} tern_pktbuf_t;

/**
 * Error report hook carried by a snip of type TERN_NETTYPE_NETERR.
 * tern_pktbuf_release_error() calls @ref report once for every such snip of the
 * packet, before dropping the references. The hook runs without the pktbuf lock
 * and must not touch the packet.
 */
typedef struct {
    void (*report)(void *ctx, int err); /**< called with the error (negative errno or 0) */
    void *ctx;                          /**< argument for @ref report */
} tern_neterr_report_t;

/**
 * Set up @p pb over @p storage.
 *
 * @param[out] pb      the packet buffer
 * @param[in]  storage arena, aligned to TERN_PKTBUF_ALIGN (see TERN_PKTBUF_STORAGE)
 * @param[in]  size    bytes of @p storage; rounded down to TERN_PKTBUF_ALIGN
 * @param[in]  lock    lock taken around changes; NULL when single-threaded
 * @return 0; -EINVAL if an argument is NULL, @p storage is misaligned, or the
 *         arena is smaller than 64 bytes or larger than 2^31 - 8.
 */
int tern_pktbuf_init(tern_pktbuf_t *pb, void *storage, size_t size, const tern_lock_t *lock);

/**
 * Allocate a snip of @p size bytes and put it in front of @p next.
 *
 * @param[in] next  snip list the new snip points to (ownership of the caller's
 *                  reference to it passes into the new packet); may be NULL
 * @param[in] data  bytes to copy in; NULL leaves the bytes zeroed
 * @param[in] size  bytes; 0 gives a snip with data NULL
 * @param[in] type  the snip's type
 * @return the new snip, users == 1; NULL if @p pb is NULL, @p size > 65535, or
 *         the arena has no room (counted in alloc_fail). On NULL, @p next is
 *         untouched and still owned by the caller.
 */
tern_pkt_t *tern_pktbuf_add(tern_pktbuf_t *pb, tern_pkt_t *next, const void *data, size_t size,
                            tern_nettype_t type);

/**
 * Allocate two snips, a header of @p hdr_size bytes of @p hdr_type in front
 * of @p size bytes of @p type that points to @p next ([header, data,
 * next...]), all bytes zeroed: what tern_pktbuf_add() twice does, with one
 * walk of the free list when one free chunk holds both (a frame's header
 * and payload).
 *
 * @return the header snip (its next the data snip), both users 1; NULL if
 *         @p pb is NULL, a size is 0 or > 65535, or the arena has no room
 *         (counted in alloc_fail); on NULL nothing stays allocated and
 *         @p next is untouched and still owned by the caller.
 */
tern_pkt_t *tern_pktbuf_add_pair(tern_pktbuf_t *pb, tern_pkt_t *next, size_t hdr_size, tern_nettype_t hdr_type,
                                 size_t size, tern_nettype_t type);

/**
 * tern_pktbuf_add_pair() for a packet its caller fills whole before anyone
 * else sees it (a frame built by 6LoWPAN): the bytes of both snips are NOT
 * initialised (they hold whatever the arena held: not zeroing them saves a
 * pass over bytes that are written next), and the data snip's next is NULL.
 *
 * @pre The caller writes all @p hdr_size bytes of the header snip and all
 *      @p size bytes of the data snip before it hands the packet, or any
 *      snip of it, to another module, a device or the application; a packet
 *      given up before that is released unread (tern_pktbuf_release()).
 * @return as tern_pktbuf_add_pair().
 */
tern_pkt_t *tern_pktbuf_add_pair_to_fill(tern_pktbuf_t *pb, size_t hdr_size, tern_nettype_t hdr_type, size_t size,
                                         tern_nettype_t type);

/**
 * Add @p num references to every snip of @p pkt.
 * @return 0; -EINVAL for NULL arguments; -EOVERFLOW if a count would pass 255
 *         (then nothing changed).
 */
int tern_pktbuf_hold(tern_pktbuf_t *pb, tern_pkt_t *pkt, unsigned num);

/** Drop one reference from every snip of @p pkt, freeing snips that reach 0. NULL is ignored. */
void tern_pktbuf_release(tern_pktbuf_t *pb, tern_pkt_t *pkt);

/**
 * Like tern_pktbuf_release(), after reporting @p err to every NETERR snip of the
 * packet (see tern_neterr_report_t). A non-zero @p err is counted.
 */
void tern_pktbuf_release_error(tern_pktbuf_t *pb, tern_pkt_t *pkt, int err);

/**
 * Split the first @p size bytes of snip @p pkt off into a new snip of @p type,
 * inserted right after @p pkt (reception order: payload stays the head).
 *
 * No payload byte moves. When the split point (pkt->data + @p size) is not on a
 * TERN_PKTBUF_ALIGN boundary the @p size header bytes are copied into a chunk of
 * their own, so that the two snips never share an allocation unit. (After an
 * unaligned mark the payload starts inside a unit, so a @p size that is a
 * multiple of the unit does not guarantee an aligned split point.)
 *
 * @pre @p pkt->users == 1 (call tern_pktbuf_start_write() first)
 * @return the new header snip; NULL if an argument is NULL, @p size is 0 or
 *         not smaller than pkt->size, @p pkt is shared, or memory ran out
 *         (then @p pkt is unchanged).
 */
tern_pkt_t *tern_pktbuf_mark(tern_pktbuf_t *pb, tern_pkt_t *pkt, size_t size,
                             tern_nettype_t type);

/**
 * Drop the first @p size bytes of snip @p pkt: what tern_pktbuf_mark() and
 * tern_pktbuf_remove_snip() of the header snip do together, without the
 * header snip (no allocation, no byte copied). The whole allocation units
 * before the new start are freed at once, or, while the snip's data still
 * starts right after its descriptor (as allocated), kept with the snip
 * (pkt->lead) and freed with it in one go: the usual receive path trims a
 * link header off a frame that is released soon after.
 *
 * @pre @p pkt->users == 1 (call tern_pktbuf_start_write() first)
 * @return 0; -EINVAL if an argument is NULL, @p size is 0 or not smaller
 *         than pkt->size, or @p pkt is shared (then @p pkt is unchanged).
 */
int tern_pktbuf_trim_front(tern_pktbuf_t *pb, tern_pkt_t *pkt, size_t size);

/**
 * Get write access to the head snip of @p pkt.
 *
 * If the head has users == 1 it is returned as is. Otherwise the head snip (and
 * only it: the rest of the list stays shared, thesis 3.3.2) is duplicated with
 * its data, the duplicate points to the same next snip, the original head loses
 * the caller's reference, and the duplicate is returned.
 *
 * @return the writable head; NULL for NULL arguments or when memory ran out
 *         (then the caller still holds @p pkt unchanged).
 */
tern_pkt_t *tern_pktbuf_start_write(tern_pktbuf_t *pb, tern_pkt_t *pkt);

/**
 * Make every snip from the head up to and including the first snip of @p type
 * writable, duplicating exactly those that are shared (and the ones before
 * them, so that the path to the snip is private). Snips after it stay shared.
 *
 * @return the new head; NULL for NULL arguments, no snip of @p type, or memory
 *         exhaustion (then the caller still holds @p pkt unchanged).
 */
tern_pkt_t *tern_pktbuf_start_write_upto(tern_pktbuf_t *pb, tern_pkt_t *pkt, tern_nettype_t type);

/**
 * Change the size of snip @p pkt's data, keeping the first min(old, new) bytes.
 * Shrinking frees the tail in place; growing extends in place when the next
 * chunk is free, otherwise moves the data. New bytes are zeroed.
 *
 * @pre @p pkt->users == 1
 * @return 0; -EINVAL for NULL @p pb/@p pkt, @p size > 65535 or a shared snip;
 *         -ENOMEM if there is no room (then the snip is unchanged).
 */
int tern_pktbuf_realloc_data(tern_pktbuf_t *pb, tern_pkt_t *pkt, size_t size);

/**
 * Merge all snips of @p pkt into its head snip: afterwards @p pkt has no next,
 * its data holds every byte of the packet in list order and its type is kept.
 *
 * @pre every snip of @p pkt has users == 1
 * @return 0; -EINVAL for NULL or shared snips; -EMSGSIZE if the packet is
 *         longer than 65535 bytes; -ENOMEM if there is no room (on both
 *         errors the packet is unchanged).
 */
int tern_pktbuf_merge(tern_pktbuf_t *pb, tern_pkt_t *pkt);

/**
 * Unlink @p snip from @p pkt and release it (that snip alone).
 * @pre the snip before @p snip (if any) has users == 1: its next changes, and
 *      other holders of a shared snip would see the change
 * @return the new head (differs from @p pkt when @p snip was the head); the
 *         unchanged @p pkt if @p snip is not in it or is NULL.
 */
tern_pkt_t *tern_pktbuf_remove_snip(tern_pktbuf_t *pb, tern_pkt_t *pkt, tern_pkt_t *snip);

/**
 * Put the single snip @p add in place of @p old in @p pkt and release @p old
 * (that snip alone). @p add must not be in any list (its next is overwritten).
 * @pre the snip before @p old (if any) has users == 1 (see remove_snip)
 * @return the new head; the unchanged @p pkt if @p old is not in it or an
 *         argument is NULL.
 */
tern_pkt_t *tern_pktbuf_replace_snip(tern_pktbuf_t *pb, tern_pkt_t *pkt, tern_pkt_t *old,
                                     tern_pkt_t *add);

/** Copy of the statistics (taken under the lock). */
tern_pktbuf_stats_t tern_pktbuf_stats(tern_pktbuf_t *pb);

/** True when nothing is allocated (the whole arena is one free chunk). */
bool tern_pktbuf_is_empty(tern_pktbuf_t *pb);

/**
 * Consistency check of the arena: free chunks are in bounds, aligned, sorted,
 * non-overlapping and coalesced (no two adjacent), and free + used == size.
 * @return 0 when consistent; -EFAULT at the first inconsistency.
 */
int tern_pktbuf_check(tern_pktbuf_t *pb);

/** True when @p ptr points inside the arena of @p pb. */
bool tern_pktbuf_contains(const tern_pktbuf_t *pb, const void *ptr);

#endif /* TERN_PKTBUF_H */
