/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Randomised test of the packet buffer against a model of its holders.
 *
 * A small arena (exhaustion is frequent) sees thousands of random operations.
 * The model keeps the holders (each owns one reference to every snip of the
 * list it points to) and a shadow copy of every live snip's bytes. After each
 * operation the whole state is verified:
 *
 * - tern_pktbuf_check() == 0;
 * - every live snip's users == the number of holders that reach it;
 * - every live snip's bytes equal its shadow (no aliasing, nothing lost);
 * - no two chunks overlap, and together they cover the arena: descriptors
 *   and data ranges of live snips (their lead included, rounded out to whole
 *   units: the ownership rule) and the free chunks (walked through their
 *   headers);
 * - stats.used == the sum of those live chunks.
 *
 * The seed is printed first; set TERN_SEED to replay a run.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tern/pkt.h"
#include "tern/pktbuf.h"

#include "harness.h"

#define ARENA_SIZE 2048
#define OPERATIONS 20000
#define MAX_HOLDERS 40
#define SLOTS (ARENA_SIZE / TERN_PKTBUF_ALIGN) /* one per unit: snips are found by descriptor unit */
#define MAX_LIST 64
#define UNIT TERN_PKTBUF_ALIGN
#define DESC ((sizeof(tern_pkt_t) + UNIT - 1u) / UNIT * UNIT)

typedef struct {
    const tern_pkt_t *snip; /* NULL for an unused slot */
    uint8_t *bytes;         /* malloc'd, NULL when len is 0 */
    size_t len;
} shadow_t;

typedef struct {
    TERN_PKTBUF_STORAGE(storage, ARENA_SIZE);
    tern_pktbuf_t pb;
    uint64_t seed;
    uint64_t rng;
    int op;              /* index of the operation under way */
    const char *op_name; /* its name, for failure messages */
    tern_pkt_t *holders[MAX_HOLDERS];
    size_t holder_count;
    shadow_t shadows[SLOTS]; /* indexed by the unit of the snip's descriptor */
    size_t shadow_count;
    size_t failures; /* exhaustion events seen */
    struct {
        size_t mark_in_place, mark_copy, cow_copies, merges, moves, removes, replaces, trims_kept, trims_freed;
    } done; /* how often the interesting paths ran */
} model_t;

/** Fail with the seed and the operation, so that the run can be replayed. */
#define CHECK(m, cond)                                                                     \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fail_msg("seed %" PRIu64 " op %d (%s): %s", (m)->seed, (m)->op, (m)->op_name, \
                     #cond);                                                               \
        }                                                                                  \
    } while (0)

/* ------------------------------------------------------------ PRNG (xorshift64*) */

static uint64_t rnd(model_t *m)
{
    m->rng ^= m->rng >> 12;
    m->rng ^= m->rng << 25;
    m->rng ^= m->rng >> 27;
    return m->rng * 0x2545F4914F6CDD1Dull;
}

/** Uniform-enough value in [0, n). */
static size_t rnd_below(model_t *m, size_t n)
{
    return (size_t)(rnd(m) >> 33) % n;
}

static size_t rnd_size(model_t *m)
{
    size_t roll = rnd_below(m, 100);
    if (roll < 10) {
        return 0;
    }
    if (roll < 75) {
        return 1 + rnd_below(m, 64);
    }
    if (roll < 95) {
        return 65 + rnd_below(m, 300);
    }
    return 365 + rnd_below(m, 1200);
}

static void rnd_bytes(model_t *m, uint8_t *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        buf[i] = (uint8_t)rnd(m);
    }
}

static tern_nettype_t rnd_type(model_t *m)
{
    /* NETERR is left out: its bytes would be taken for a hook by release_error */
    static const tern_nettype_t types[] = { TERN_NETTYPE_UNDEF, TERN_NETTYPE_NETIF,
                                            TERN_NETTYPE_IPV6,  TERN_NETTYPE_UDP,
                                            TERN_NETTYPE_TCP,   TERN_NETTYPE_SIXLOWPAN };
    return types[rnd_below(m, sizeof(types) / sizeof(types[0]))];
}

/* ------------------------------------------------------------ model: shadows */

static size_t slot_of(const model_t *m, const tern_pkt_t *snip)
{
    return (size_t)((const uint8_t *)snip - m->pb.arena) / UNIT;
}

static shadow_t *shadow_find(model_t *m, const tern_pkt_t *snip)
{
    shadow_t *sh = &m->shadows[slot_of(m, snip)];
    return sh->snip == snip ? sh : NULL;
}

/** Record (or replace) the expected bytes of @p snip. */
static void shadow_set(model_t *m, const tern_pkt_t *snip, const uint8_t *bytes, size_t len)
{
    CHECK(m, tern_pktbuf_contains(&m->pb, snip));
    shadow_t *sh = &m->shadows[slot_of(m, snip)];
    CHECK(m, sh->snip == NULL || sh->snip == snip);
    if (sh->snip == NULL) {
        sh->snip = snip;
        m->shadow_count++;
    }
    uint8_t *copy = NULL;
    if (len != 0) {
        copy = malloc(len);
        CHECK(m, copy != NULL);
        memcpy(copy, bytes, len);
    }
    free(sh->bytes);
    sh->bytes = copy;
    sh->len = len;
}

static void shadow_drop(model_t *m, size_t slot)
{
    free(m->shadows[slot].bytes);
    m->shadows[slot] = (shadow_t){ NULL, NULL, 0 };
    m->shadow_count--;
}

/* ------------------------------------------------------------ model: holders */

static void holder_add(model_t *m, tern_pkt_t *pkt)
{
    CHECK(m, m->holder_count < MAX_HOLDERS);
    m->holders[m->holder_count++] = pkt;
}

static void holder_drop(model_t *m, size_t index)
{
    m->holders[index] = m->holders[--m->holder_count];
}

/** The snips of a list, in order. @return their number. */
static size_t list_snips(model_t *m, tern_pkt_t *pkt, tern_pkt_t **out)
{
    size_t n = 0;
    for (; pkt != NULL; pkt = pkt->next) {
        CHECK(m, n < MAX_LIST);
        out[n++] = pkt;
    }
    return n;
}

static bool list_private(const tern_pkt_t *pkt)
{
    for (; pkt != NULL; pkt = pkt->next) {
        if (pkt->users != 1) {
            return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------ verification */

static uint32_t offset_in(const model_t *m, const void *ptr)
{
    return (uint32_t)((const uint8_t *)ptr - m->pb.arena);
}

/** Claim the units of [@p start, @p end) in @p owner; fail on a unit claimed twice. */
static void claim(model_t *m, uint8_t *owner, uint32_t start, uint32_t end)
{
    CHECK(m, start % UNIT == 0 && end % UNIT == 0 && start < end && end <= m->pb.size);
    for (uint32_t unit = start / UNIT; unit < end / UNIT; unit++) {
        CHECK(m, owner[unit] == 0);
        owner[unit] = 1;
    }
}

/** Check every invariant listed in the file comment; drop shadows of freed snips. */
static void verify(model_t *m)
{
    CHECK(m, tern_pktbuf_check(&m->pb) == 0);

    /* live snips, and how many holders reach each (by descriptor slot) */
    const tern_pkt_t *live[SLOTS];
    unsigned reach[SLOTS] = { 0 };
    size_t live_count = 0;
    for (size_t h = 0; h < m->holder_count; h++) {
        size_t length = 0;
        for (const tern_pkt_t *s = m->holders[h]; s != NULL; s = s->next) {
            CHECK(m, ++length <= MAX_LIST); /* no cycles */
            CHECK(m, tern_pktbuf_contains(&m->pb, s) && offset_in(m, s) % UNIT == 0);
            if (reach[slot_of(m, s)]++ == 0) {
                live[live_count++] = s;
            }
        }
    }

    /* shadows of snips nobody reaches any more belong to freed snips */
    for (size_t slot = 0; slot < SLOTS; slot++) {
        if (m->shadows[slot].snip != NULL && reach[slot] == 0) {
            shadow_drop(m, slot);
        }
    }
    CHECK(m, m->shadow_count == live_count);

    uint8_t owner[SLOTS] = { 0 };
    size_t live_bytes = 0;
    for (size_t i = 0; i < live_count; i++) {
        const tern_pkt_t *s = live[i];
        CHECK(m, s->users == reach[slot_of(m, s)]);
        shadow_t *sh = shadow_find(m, s);
        CHECK(m, sh != NULL);
        CHECK(m, sh->len == s->size);
        CHECK(m, (s->size == 0) == (s->data == NULL));
        if (s->size != 0) {
            CHECK(m, memcmp(s->data, sh->bytes, s->size) == 0);
        }

        uint32_t desc = offset_in(m, s);
        claim(m, owner, desc, desc + (uint32_t)DESC);
        live_bytes += DESC;
        if (s->size != 0) {
            CHECK(m, tern_pktbuf_contains(&m->pb, s->data));
            CHECK(m, s->lead == 0 || offset_in(m, s->data) - s->lead == desc + (uint32_t)DESC);
            uint32_t start = (offset_in(m, s->data) - s->lead) / UNIT * UNIT;
            uint32_t end = (offset_in(m, s->data) + s->size + UNIT - 1u) / UNIT * UNIT;
            claim(m, owner, start, end);
            live_bytes += end - start;
        }
    }
    CHECK(m, live_bytes == tern_pktbuf_stats(&m->pb).used);

    for (uint32_t off = m->pb.free_head; off != m->pb.size;) {
        uint32_t next;
        uint32_t size;
        memcpy(&next, m->pb.arena + off, sizeof(next));
        memcpy(&size, m->pb.arena + off + 4, sizeof(size));
        claim(m, owner, off, off + size);
        off = next;
    }
    for (size_t unit = 0; unit < SLOTS; unit++) {
        CHECK(m, owner[unit] == 1); /* nothing leaked: every unit is live or free */
    }
}

/* ------------------------------------------------------------ operations */

/** Expect an allocation failure to have been counted since @p before. */
static void expect_alloc_fail(model_t *m, uint32_t before)
{
    CHECK(m, tern_pktbuf_stats(&m->pb).alloc_fail > before);
    m->failures++;
}

static uint32_t alloc_fail_now(model_t *m)
{
    return tern_pktbuf_stats(&m->pb).alloc_fail;
}

/** Write random bytes into a private snip (and its shadow): catches aliasing. */
static void scribble(model_t *m, tern_pkt_t *snip)
{
    CHECK(m, snip->users == 1);
    if (snip->size == 0) {
        return;
    }
    rnd_bytes(m, snip->data, snip->size);
    shadow_set(m, snip, snip->data, snip->size);
}

static void op_add(model_t *m, bool with_next)
{
    m->op_name = with_next ? "add_next" : "add";
    size_t h = 0;
    if (with_next) {
        if (m->holder_count == 0) {
            return;
        }
        h = rnd_below(m, m->holder_count);
    } else if (m->holder_count == MAX_HOLDERS) {
        return;
    }
    tern_pkt_t *next = with_next ? m->holders[h] : NULL;
    uint8_t bytes[1600];
    size_t size = rnd_size(m);
    bool zeroed = rnd_below(m, 4) == 0;
    if (zeroed) {
        memset(bytes, 0, size);
    } else {
        rnd_bytes(m, bytes, size);
    }
    uint32_t before = alloc_fail_now(m);
    tern_pkt_t *pkt =
        tern_pktbuf_add(&m->pb, next, zeroed ? NULL : bytes, size, rnd_type(m));
    if (pkt == NULL) {
        expect_alloc_fail(m, before);
        return;
    }
    CHECK(m, pkt->next == next && pkt->users == 1);
    shadow_set(m, pkt, bytes, size);
    if (with_next) {
        m->holders[h] = pkt; /* the holder's reference passed into the new packet */
    } else {
        holder_add(m, pkt);
    }
}

static void op_hold(model_t *m)
{
    m->op_name = "hold";
    if (m->holder_count == 0 || m->holder_count == MAX_HOLDERS) {
        return;
    }
    size_t h = rnd_below(m, m->holder_count);
    unsigned num = 1 + (unsigned)rnd_below(m, 3);
    if (m->holder_count + num > MAX_HOLDERS) {
        num = (unsigned)(MAX_HOLDERS - m->holder_count);
    }
    tern_pkt_t *pkt = m->holders[h];
    CHECK(m, tern_pktbuf_hold(&m->pb, pkt, num) == 0);
    for (unsigned i = 0; i < num; i++) {
        holder_add(m, pkt);
    }
}

static void op_release(model_t *m)
{
    m->op_name = "release";
    if (m->holder_count == 0) {
        return;
    }
    size_t h = rnd_below(m, m->holder_count);
    tern_pkt_t *pkt = m->holders[h];
    holder_drop(m, h);
    if (rnd_below(m, 4) == 0) {
        m->op_name = "release_error";
        tern_pktbuf_release_error(&m->pb, pkt, -EIO);
    } else {
        tern_pktbuf_release(&m->pb, pkt);
    }
}

/* A holder's snip to take a front part of @p *size bytes off (1 .. size - 1), or NULL. */
static tern_pkt_t *pick_front(model_t *m, size_t *size)
{
    if (m->holder_count == 0) {
        return NULL;
    }
    tern_pkt_t *pkt = m->holders[rnd_below(m, m->holder_count)];
    if (pkt->size < 2) {
        return NULL;
    }
    *size = 1 + rnd_below(m, pkt->size - 1u);
    return pkt;
}

/* @p pkt lost the first @p size of its @p old_size bytes: its shadow keeps the rest. */
static void shadow_drop_front(model_t *m, const tern_pkt_t *pkt, size_t size, size_t old_size)
{
    shadow_t *sh = shadow_find(m, pkt);
    CHECK(m, sh != NULL);
    uint8_t rest[1600];
    CHECK(m, old_size - size <= sizeof(rest));
    memcpy(rest, sh->bytes + size, old_size - size);
    shadow_set(m, pkt, rest, old_size - size);
}

static void op_mark(model_t *m)
{
    m->op_name = "mark";
    size_t size;
    tern_pkt_t *pkt = pick_front(m, &size);
    if (pkt == NULL) {
        return;
    }
    if (pkt->size > UNIT && rnd_below(m, 3) == 0) {
        size = UNIT * (1 + rnd_below(m, (pkt->size - 1u) / UNIT)); /* header of whole units */
    }
    uint8_t *data = pkt->data;
    size_t old_size = pkt->size;
    tern_pkt_t *old_next = pkt->next;
    bool shared = pkt->users != 1;
    uint32_t before = alloc_fail_now(m);
    tern_pkt_t *hdr = tern_pktbuf_mark(&m->pb, pkt, size, TERN_NETTYPE_IPV6_EXT);
    if (hdr == NULL) {
        if (shared) {
            CHECK(m, alloc_fail_now(m) == before);
        } else {
            expect_alloc_fail(m, before);
        }
        CHECK(m, pkt->data == data && pkt->size == old_size && pkt->next == old_next);
        return;
    }
    CHECK(m, !shared);
    CHECK(m, pkt->data == data + size); /* no payload byte moved */
    if (hdr->data == data) {
        m->done.mark_in_place++;
    } else {
        m->done.mark_copy++;
    }
    CHECK(m, pkt->next == hdr && hdr->next == old_next && hdr->users == 1);
    shadow_t *sh = shadow_find(m, pkt);
    CHECK(m, sh != NULL);
    shadow_set(m, hdr, sh->bytes, size); /* appends: sh stays valid */
    shadow_drop_front(m, pkt, size, old_size);
}

static void op_trim_front(model_t *m)
{
    m->op_name = "trim_front";
    size_t size;
    tern_pkt_t *pkt = pick_front(m, &size);
    if (pkt == NULL) {
        return;
    }
    uint8_t *data = pkt->data;
    size_t old_size = pkt->size;
    uint16_t old_lead = pkt->lead;
    size_t before = tern_pktbuf_stats(&m->pb).used;
    int rc = tern_pktbuf_trim_front(&m->pb, pkt, size);
    if (pkt->users != 1) {
        CHECK(m, rc == -EINVAL && pkt->data == data && pkt->size == old_size);
        return;
    }
    CHECK(m, rc == 0 && pkt->data == data + size && pkt->size == old_size - size);
    if (pkt->lead != 0) {
        CHECK(m, pkt->lead == old_lead + size && tern_pktbuf_stats(&m->pb).used == before);
        m->done.trims_kept++;
    } else {
        m->done.trims_freed++;
    }
    shadow_drop_front(m, pkt, size, old_size);
}

static void op_start_write(model_t *m)
{
    m->op_name = "start_write";
    if (m->holder_count == 0) {
        return;
    }
    size_t h = rnd_below(m, m->holder_count);
    tern_pkt_t *pkt = m->holders[h];
    unsigned users = pkt->users;
    uint32_t before = alloc_fail_now(m);
    tern_pkt_t *head = tern_pktbuf_start_write(&m->pb, pkt);
    if (head == NULL) {
        CHECK(m, users > 1);
        expect_alloc_fail(m, before);
        CHECK(m, pkt->users == users);
        return;
    }
    if (users == 1) {
        CHECK(m, head == pkt);
    } else {
        CHECK(m, head != pkt && head->next == pkt->next && pkt->users == users - 1u);
        shadow_t *sh = shadow_find(m, pkt);
        CHECK(m, sh != NULL);
        shadow_set(m, head, sh->bytes, sh->len);
        m->holders[h] = head;
        m->done.cow_copies++;
    }
    scribble(m, head);
}

static void op_start_write_upto(model_t *m)
{
    m->op_name = "start_write_upto";
    if (m->holder_count == 0) {
        return;
    }
    size_t h = rnd_below(m, m->holder_count);
    tern_pkt_t *old[MAX_LIST];
    unsigned users[MAX_LIST];
    size_t n = list_snips(m, m->holders[h], old);
    for (size_t i = 0; i < n; i++) {
        users[i] = old[i]->users;
    }
    tern_nettype_t type = (tern_nettype_t)old[rnd_below(m, n)]->type;
    size_t target = 0;
    while (old[target]->type != type) {
        target++;
    }
    uint32_t before = alloc_fail_now(m);
    tern_pkt_t *head = tern_pktbuf_start_write_upto(&m->pb, old[0], type);
    if (head == NULL) {
        expect_alloc_fail(m, before);
        for (size_t i = 0; i < n; i++) {
            CHECK(m, old[i]->users == users[i]);
            CHECK(m, old[i]->next == (i + 1 < n ? old[i + 1] : NULL));
        }
        return;
    }
    tern_pkt_t *now[MAX_LIST];
    CHECK(m, list_snips(m, head, now) == n);
    for (size_t i = 0; i < n; i++) {
        if (i > target || users[i] == 1) {
            CHECK(m, now[i] == old[i]);
            continue;
        }
        CHECK(m, now[i] != old[i] && now[i]->users == 1 && old[i]->users == users[i] - 1u);
        shadow_t *sh = shadow_find(m, old[i]);
        CHECK(m, sh != NULL);
        shadow_set(m, now[i], sh->bytes, sh->len);
        m->done.cow_copies++;
    }
    m->holders[h] = head;
    for (size_t i = 0; i <= target; i++) {
        scribble(m, now[i]);
    }
}

static void op_realloc(model_t *m)
{
    m->op_name = "realloc";
    if (m->holder_count == 0) {
        return;
    }
    tern_pkt_t *pkt = m->holders[rnd_below(m, m->holder_count)];
    size_t size = rnd_size(m);
    void *data = pkt->data;
    size_t old_size = pkt->size;
    uint32_t before = alloc_fail_now(m);
    int ret = tern_pktbuf_realloc_data(&m->pb, pkt, size);
    if (pkt->users != 1) {
        CHECK(m, ret == -EINVAL && pkt->data == data && pkt->size == old_size);
        return;
    }
    if (ret == -ENOMEM) {
        CHECK(m, size > old_size);
        expect_alloc_fail(m, before);
        CHECK(m, pkt->data == data && pkt->size == old_size);
        return;
    }
    CHECK(m, ret == 0 && pkt->size == size);
    if (size <= old_size && size != 0) {
        CHECK(m, pkt->data == data); /* shrinking never moves */
    }
    if (old_size != 0 && size > old_size && pkt->data != data) {
        m->done.moves++;
    }
    shadow_t *sh = shadow_find(m, pkt);
    CHECK(m, sh != NULL);
    uint8_t bytes[1600] = { 0 };
    size_t kept = size < old_size ? size : old_size;
    if (kept != 0) {
        memcpy(bytes, sh->bytes, kept);
    }
    shadow_set(m, pkt, bytes, size);
}

static void op_merge(model_t *m)
{
    m->op_name = "merge";
    if (m->holder_count == 0) {
        return;
    }
    tern_pkt_t *pkt = m->holders[rnd_below(m, m->holder_count)];
    tern_pkt_t *old[MAX_LIST];
    size_t n = list_snips(m, pkt, old);
    bool all_private = list_private(pkt);
    uint32_t before = alloc_fail_now(m);
    int ret = tern_pktbuf_merge(&m->pb, pkt);
    if (!all_private) {
        CHECK(m, ret == -EINVAL);
        return;
    }
    if (ret == -ENOMEM) {
        expect_alloc_fail(m, before);
        tern_pkt_t *now[MAX_LIST];
        CHECK(m, list_snips(m, pkt, now) == n && memcmp(now, old, n * sizeof(now[0])) == 0);
        return;
    }
    CHECK(m, ret == 0 && pkt->next == NULL);
    m->done.merges += n > 1;
    uint8_t bytes[ARENA_SIZE];
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        shadow_t *sh = shadow_find(m, old[i]);
        CHECK(m, sh != NULL && len + sh->len <= sizeof(bytes));
        if (sh->len != 0) {
            memcpy(bytes + len, sh->bytes, sh->len);
        }
        len += sh->len;
    }
    shadow_set(m, pkt, bytes, len);
}

/** A snip of holder @p h that can be unlinked: the head, or one after a private snip. */
static bool pick_unlinkable(model_t *m, size_t h, tern_pkt_t **list, size_t *n, size_t *index)
{
    *n = list_snips(m, m->holders[h], list);
    *index = rnd_below(m, *n);
    return *index == 0 || list[*index - 1]->users == 1;
}

static void op_remove_snip(model_t *m)
{
    m->op_name = "remove_snip";
    if (m->holder_count == 0) {
        return;
    }
    size_t h = rnd_below(m, m->holder_count);
    tern_pkt_t *list[MAX_LIST];
    size_t n;
    size_t i;
    if (!pick_unlinkable(m, h, list, &n, &i)) {
        return;
    }
    tern_pkt_t *head = tern_pktbuf_remove_snip(&m->pb, list[0], list[i]);
    if (i == 0) {
        CHECK(m, head == (n > 1 ? list[1] : NULL));
    } else {
        CHECK(m, list[i - 1]->next == (i + 1 < n ? list[i + 1] : NULL));
    }
    m->done.removes++;
    if (head == NULL) {
        holder_drop(m, h);
    } else {
        m->holders[h] = head;
    }
}

static void op_replace_snip(model_t *m)
{
    m->op_name = "replace_snip";
    if (m->holder_count == 0) {
        return;
    }
    size_t h = rnd_below(m, m->holder_count);
    tern_pkt_t *list[MAX_LIST];
    size_t n;
    size_t i;
    if (!pick_unlinkable(m, h, list, &n, &i)) {
        return;
    }
    uint8_t bytes[64];
    size_t size = rnd_below(m, sizeof(bytes));
    rnd_bytes(m, bytes, size);
    uint32_t before = alloc_fail_now(m);
    tern_pkt_t *add = tern_pktbuf_add(&m->pb, NULL, bytes, size, rnd_type(m));
    if (add == NULL) {
        expect_alloc_fail(m, before);
        return;
    }
    shadow_set(m, add, bytes, size);
    tern_pkt_t *head = tern_pktbuf_replace_snip(&m->pb, list[0], list[i], add);
    CHECK(m, head == (i == 0 ? add : list[0]));
    CHECK(m, add->next == (i + 1 < n ? list[i + 1] : NULL));
    m->holders[h] = head;
    m->done.replaces++;
}

static void run(model_t *m, int operations)
{
    for (m->op = 0; m->op < operations; m->op++) {
        size_t roll = rnd_below(m, 100);
        if (roll < 14) {
            op_add(m, false);
        } else if (roll < 22) {
            op_add(m, true);
        } else if (roll < 32) {
            op_hold(m);
        } else if (roll < 50) {
            op_release(m);
        } else if (roll < 56) {
            op_mark(m);
        } else if (roll < 61) {
            op_trim_front(m);
        } else if (roll < 68) {
            op_start_write(m);
        } else if (roll < 74) {
            op_start_write_upto(m);
        } else if (roll < 82) {
            op_realloc(m);
        } else if (roll < 88) {
            op_merge(m);
        } else if (roll < 94) {
            op_remove_snip(m);
        } else {
            op_replace_snip(m);
        }
        verify(m);
    }
    m->op_name = "final release";
    while (m->holder_count > 0) {
        tern_pkt_t *pkt = m->holders[m->holder_count - 1];
        holder_drop(m, m->holder_count - 1);
        tern_pktbuf_release(&m->pb, pkt);
        verify(m);
    }
    CHECK(m, m->shadow_count == 0);
    CHECK(m, tern_pktbuf_is_empty(&m->pb));
    CHECK(m, tern_pktbuf_stats(&m->pb).used == 0);
}

/* ------------------------------------------------------------ test */

static uint64_t seed_from_env(void)
{
    const char *env = getenv("TERN_SEED");
    if (env != NULL && *env != '\0') {
        return strtoull(env, NULL, 0);
    }
    return (uint64_t)time(NULL);
}

static int setup(void **state)
{
    model_t *m = calloc(1, sizeof(*m));
    assert_non_null(m);
    m->seed = seed_from_env();
    m->rng = m->seed * 0x9E3779B97F4A7C15ull + 1u; /* never 0 */
    if (m->rng == 0) {
        m->rng = 1;
    }
    printf("test_pktbuf_random: TERN_SEED=%" PRIu64 "\n", m->seed);
    fflush(stdout);
    assert_int_equal(tern_pktbuf_init(&m->pb, m->storage, sizeof(m->storage), NULL), 0);
    *state = m;
    return 0;
}

static int teardown(void **state)
{
    model_t *m = *state;
    harness_assert_pktbuf_clean(&m->pb);
    for (size_t slot = 0; slot < SLOTS; slot++) {
        free(m->shadows[slot].bytes);
    }
    free(m);
    return 0;
}

static void test_pktbuf_random__operations_keep_invariants(void **state)
{
    model_t *m = *state;
    run(m, OPERATIONS);
    tern_pktbuf_stats_t stats = tern_pktbuf_stats(&m->pb);
    printf("test_pktbuf_random: %d operations, %zu exhaustion events, high water %zu of %zu\n",
           OPERATIONS, m->failures, stats.high_water, stats.size);
    printf("test_pktbuf_random: marks %zu in place + %zu copied, %zu copy-on-write copies, "
           "%zu merges, %zu realloc moves, %zu removes, %zu replaces, trims %zu kept + %zu freed\n",
           m->done.mark_in_place, m->done.mark_copy, m->done.cow_copies, m->done.merges,
           m->done.moves, m->done.removes, m->done.replaces, m->done.trims_kept, m->done.trims_freed);
    /* the arena is small on purpose: exhaustion must really have been exercised */
    assert_true(m->failures > 0);
    assert_int_equal(stats.alloc_fail, m->failures);
    /* both ways of trimming ran */
    assert_true(m->done.trims_kept > 0 && m->done.trims_freed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pktbuf_random__operations_keep_invariants, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
