/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Unit tests of the packet buffer (pktbuf.h): every function, every
 *        documented error path, and the copy-on-write trees of thesis fig. 3.3.
 *
 * White box where it matters: some tests read the free list (offset/size
 * headers in the first unit of each free chunk) to check coalescing and to
 * corrupt it for tern_pktbuf_check(). The fixture's lock asserts that it is
 * never taken recursively.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tern/pkt.h"
#include "tern/pktbuf.h"

#include "harness.h"

#define ARENA_SIZE 2048
#define UNIT TERN_PKTBUF_ALIGN
#define DESC ((sizeof(tern_pkt_t) + UNIT - 1u) / UNIT * UNIT)

/** A lock that fails the test when taken twice (the pktbuf lock is not recursive). */
typedef struct {
    int depth;
    unsigned acquired;
} lock_probe_t;

typedef struct {
    TERN_PKTBUF_STORAGE(storage, ARENA_SIZE);
    tern_pktbuf_t pb;
    lock_probe_t probe;
    tern_lock_t lock;
} fixture_t;

static void probe_acquire(void *ctx)
{
    lock_probe_t *probe = ctx;
    assert_int_equal(probe->depth, 0);
    probe->depth = 1;
    probe->acquired++;
}

static void probe_release(void *ctx)
{
    lock_probe_t *probe = ctx;
    assert_int_equal(probe->depth, 1);
    probe->depth = 0;
}

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->lock.acquire = probe_acquire;
    f->lock.release = probe_release;
    f->lock.ctx = &f->probe;
    assert_int_equal(tern_pktbuf_init(&f->pb, f->storage, sizeof(f->storage), &f->lock), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(f->probe.depth, 0);
    harness_assert_pktbuf_clean(&f->pb);
    free(f);
    return 0;
}

/* ------------------------------------------------------------ helpers */

static size_t units(size_t bytes)
{
    return (bytes + UNIT - 1u) / UNIT * UNIT;
}

static size_t used(fixture_t *f)
{
    return tern_pktbuf_stats(&f->pb).used;
}

static uint32_t alloc_fail(fixture_t *f)
{
    return tern_pktbuf_stats(&f->pb).alloc_fail;
}

static void pattern(uint8_t *buf, size_t len, uint8_t seed)
{
    for (size_t i = 0; i < len; i++) {
        buf[i] = (uint8_t)(seed + i * 7u);
    }
}

static tern_pkt_t *add_pattern(fixture_t *f, tern_pkt_t *next, size_t size, uint8_t seed,
                               tern_nettype_t type)
{
    uint8_t buf[512];
    assert_true(size <= sizeof(buf));
    pattern(buf, size, seed);
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, next, buf, size, type);
    assert_non_null(pkt);
    return pkt;
}

static void assert_pattern(const void *data, size_t len, uint8_t seed)
{
    uint8_t buf[512];
    assert_true(len <= sizeof(buf));
    pattern(buf, len, seed);
    assert_memory_equal(data, buf, len);
}

/* After a failed allocation with @p next as its next snip: nothing taken (the arena's use is still
 * @p before), @p next (16 bytes of pattern 5) untouched; then it is released. */
static void release_untouched_next(fixture_t *f, tern_pkt_t *next, size_t before)
{
    assert_int_equal(used(f), before);
    assert_int_equal(next->users, 1);
    assert_null(next->next);
    assert_pattern(next->data, 16, 5);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, next);
}

static uint32_t chunk_next(fixture_t *f, uint32_t offset)
{
    uint32_t v;
    memcpy(&v, f->pb.arena + offset, sizeof(v));
    return v;
}

static uint32_t chunk_size(fixture_t *f, uint32_t offset)
{
    uint32_t v;
    memcpy(&v, f->pb.arena + offset + 4, sizeof(v));
    return v;
}

static void chunk_set(fixture_t *f, uint32_t offset, uint32_t next, uint32_t size)
{
    memcpy(f->pb.arena + offset, &next, sizeof(next));
    memcpy(f->pb.arena + offset + 4, &size, sizeof(size));
}

static size_t free_chunk_count(fixture_t *f)
{
    size_t n = 0;
    for (uint32_t off = f->pb.free_head; off != f->pb.size; off = chunk_next(f, off)) {
        n++;
    }
    return n;
}

/**
 * Allocate everything that is left (the free chunks must each hold at least a
 * descriptor). @return the list of filler snips, to release at the end.
 */
static tern_pkt_t *fill_arena(fixture_t *f)
{
    tern_pkt_t *fill = NULL;
    while (f->pb.free_head != f->pb.size) {
        uint32_t size = chunk_size(f, f->pb.free_head);
        assert_true(size >= DESC);
        tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, fill, NULL, size - DESC, TERN_NETTYPE_TEST);
        assert_non_null(pkt);
        fill = pkt;
    }
    assert_int_equal(used(f), ARENA_SIZE);
    return fill;
}

/**
 * A received UDP packet, thesis fig. 3.3b: [payload(20), UDP(8), IPV6(40), NETIF(16)]
 * marked from one 68-byte frame.
 */
static tern_pkt_t *build_received(fixture_t *f)
{
    tern_pkt_t *netif = tern_pktbuf_add(&f->pb, NULL, NULL, 16, TERN_NETTYPE_NETIF);
    assert_non_null(netif);
    tern_pkt_t *pkt = add_pattern(f, netif, 68, 1, TERN_NETTYPE_UNDEF);
    tern_pkt_t *ipv6 = tern_pktbuf_mark(&f->pb, pkt, 40, TERN_NETTYPE_IPV6);
    assert_non_null(ipv6);
    tern_pkt_t *udp = tern_pktbuf_mark(&f->pb, pkt, 8, TERN_NETTYPE_UDP);
    assert_non_null(udp);
    assert_ptr_equal(pkt->next, udp);
    assert_ptr_equal(udp->next, ipv6);
    assert_ptr_equal(ipv6->next, netif);
    assert_int_equal(pkt->size, 20);
    return pkt;
}

static void assert_users(const tern_pkt_t *pkt, unsigned users)
{
    for (; pkt != NULL; pkt = pkt->next) {
        assert_int_equal(pkt->users, users);
    }
}

/* ------------------------------------------------------------ init */

static void test_pktbuf_init__NULL_arguments(void **state)
{
    fixture_t *f = *state;
    tern_pktbuf_t pb;
    assert_int_equal(tern_pktbuf_init(NULL, f->storage, 128, NULL), -EINVAL);
    assert_int_equal(tern_pktbuf_init(&pb, NULL, 128, NULL), -EINVAL);
}

static void test_pktbuf_init__misaligned_storage(void **state)
{
    (void)state;
    TERN_PKTBUF_STORAGE(storage, 256);
    tern_pktbuf_t pb;
    assert_int_equal(tern_pktbuf_init(&pb, storage + 4, 128, NULL), -EINVAL);
}

static void test_pktbuf_init__size_limits(void **state)
{
    (void)state;
    TERN_PKTBUF_STORAGE(storage, 128);
    tern_pktbuf_t pb;
    assert_int_equal(tern_pktbuf_init(&pb, storage, 63, NULL), -EINVAL);
    assert_int_equal(tern_pktbuf_init(&pb, storage, 0, NULL), -EINVAL);
    assert_int_equal(tern_pktbuf_init(&pb, storage, (size_t)0x80000000u, NULL), -EINVAL);
    assert_int_equal(tern_pktbuf_init(&pb, storage, 64, NULL), 0);
    harness_assert_pktbuf_clean(&pb);
}

static void test_pktbuf_init__rounds_size_down(void **state)
{
    (void)state;
    TERN_PKTBUF_STORAGE(storage, 128);
    tern_pktbuf_t pb;
    assert_int_equal(tern_pktbuf_init(&pb, storage, 127, NULL), 0);
    tern_pktbuf_stats_t stats = tern_pktbuf_stats(&pb);
    assert_int_equal(stats.size, 120);
    assert_int_equal(stats.used, 0);
    assert_int_equal(stats.high_water, 0);
    assert_int_equal(stats.alloc_fail, 0);
    assert_int_equal(stats.released_err, 0);
    harness_assert_pktbuf_clean(&pb);
}

/* ------------------------------------------------------------ add */

static void test_pktbuf_add__copies_data(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 37, 3, TERN_NETTYPE_UDP);
    assert_int_equal(pkt->size, 37);
    assert_int_equal(pkt->users, 1);
    assert_int_equal(pkt->type, TERN_NETTYPE_UDP);
    assert_null(pkt->next);
    assert_true(tern_pktbuf_contains(&f->pb, pkt));
    assert_true(tern_pktbuf_contains(&f->pb, pkt->data));
    assert_int_equal((uintptr_t)pkt % UNIT, 0);
    assert_int_equal((uintptr_t)pkt->data % UNIT, 0);
    assert_pattern(pkt->data, 37, 3);
    assert_int_equal(used(f), DESC + units(37));
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_add__data_NULL(void **state)
{
    fixture_t *f = *state;
    /* dirty the arena first, so that zeroing is really tested */
    tern_pkt_t *dirty = add_pattern(f, NULL, 100, 0xf0, TERN_NETTYPE_TEST);
    memset(dirty->data, 0xff, 100);
    void *dirty_data = dirty->data;
    tern_pktbuf_release(&f->pb, dirty);
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, NULL, 100, TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    assert_ptr_equal(pkt->data, dirty_data); /* same place: first fit */
    static const uint8_t zero[100];
    assert_memory_equal(pkt->data, zero, sizeof(zero));
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_add__size_0(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, "ignored", 0, TERN_NETTYPE_NETIF);
    assert_non_null(pkt);
    assert_null(pkt->data);
    assert_int_equal(pkt->size, 0);
    assert_int_equal(pkt->users, 1);
    assert_int_equal(used(f), DESC);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_add__links_next(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *tail = add_pattern(f, NULL, 10, 1, TERN_NETTYPE_UNDEF);
    tern_pkt_t *head = add_pattern(f, tail, 8, 2, TERN_NETTYPE_UDP);
    assert_ptr_equal(head->next, tail);
    assert_int_equal(tail->users, 1); /* the reference passed, none added */
    tern_pktbuf_release(&f->pb, head);
}

static void test_pktbuf_add__too_big(void **state)
{
    fixture_t *f = *state;
    assert_null(tern_pktbuf_add(&f->pb, NULL, NULL, 65536, TERN_NETTYPE_UNDEF));
    assert_int_equal(alloc_fail(f), 0); /* an argument error, not exhaustion */
}

static void test_pktbuf_add__pb_NULL(void **state)
{
    (void)state;
    assert_null(tern_pktbuf_add(NULL, NULL, NULL, 4, TERN_NETTYPE_UNDEF));
}

static void test_pktbuf_add__exhaustion_leaves_next_owned(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *next = add_pattern(f, NULL, 16, 5, TERN_NETTYPE_UNDEF);
    size_t before = used(f);
    /* the descriptor fits, the data does not: the descriptor must be given back */
    assert_null(tern_pktbuf_add(&f->pb, next, NULL, ARENA_SIZE, TERN_NETTYPE_UDP));
    assert_int_equal(alloc_fail(f), 1);
    release_untouched_next(f, next, before);
}

static void test_pktbuf_add__exhaustion_no_descriptor(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *fill = fill_arena(f);
    assert_null(tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_add(&f->pb, NULL, NULL, 1, TERN_NETTYPE_UNDEF));
    assert_int_equal(alloc_fail(f), 2);
    tern_pktbuf_release(&f->pb, fill);
}

/* ------------------------------------------------------------ add_pair */

#define PAIR_HDR 24u
#define PAIR_DATA 100u

static bool all_zero(const void *data, size_t len)
{
    const uint8_t *b = data;
    for (size_t i = 0; i < len; i++) {
        if (b[i] != 0) {
            return false;
        }
    }
    return true;
}

/* Header and data from one chunk: [descriptor, header bytes, descriptor,
 * data], both zeroed, linked in front of next; each snip is then freed on
 * its own (the header alone first), leaving the arena consistent. */
static void test_pktbuf_add_pair__one_chunk_each_freed_alone(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *next = add_pattern(f, NULL, 16, 3, TERN_NETTYPE_NETERR);
    size_t before = used(f);
    memset(f->pb.arena + f->pb.free_head + UNIT, 0xA5, 256); /* old bytes must not show */
    unsigned locks = f->probe.acquired;
    tern_pkt_t *hdr = tern_pktbuf_add_pair(&f->pb, next, PAIR_HDR, TERN_NETTYPE_NETIF, PAIR_DATA,
                                           TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(hdr);
    assert_int_equal(f->probe.acquired, locks + 1u); /* the lock once */
    tern_pkt_t *data = hdr->next;
    assert_non_null(data);
    assert_int_equal(hdr->size, PAIR_HDR);
    assert_int_equal(hdr->type, TERN_NETTYPE_NETIF);
    assert_int_equal(hdr->users, 1);
    assert_ptr_equal(hdr->data, (uint8_t *)hdr + DESC);
    assert_ptr_equal((uint8_t *)data, (uint8_t *)hdr + DESC + units(PAIR_HDR));
    assert_ptr_equal(data->data, (uint8_t *)data + DESC);
    assert_int_equal(data->size, PAIR_DATA);
    assert_int_equal(data->type, TERN_NETTYPE_SIXLOWPAN);
    assert_int_equal(data->users, 1);
    assert_ptr_equal(data->next, next);
    assert_true(all_zero(hdr->data, PAIR_HDR));
    assert_true(all_zero(data->data, PAIR_DATA));
    assert_int_equal(used(f), before + 2u * DESC + units(PAIR_HDR) + units(PAIR_DATA));
    hdr->next = NULL;
    tern_pktbuf_release(&f->pb, hdr);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    assert_int_equal(used(f), before + DESC + units(PAIR_DATA));
    tern_pktbuf_release(&f->pb, data);
    assert_int_equal(used(f), 0);
}

/* No free chunk holds the pair with its first descriptor: the header's
 * descriptor goes to a hole of its own, its bytes and the data snip where
 * they fit, and each snip is still freed on its own. */
static void test_pktbuf_add_pair__split_when_no_chunk_holds_both(void **state)
{
    fixture_t *f = *state;
    size_t rest = units(PAIR_HDR) + DESC + units(PAIR_DATA);
    tern_pkt_t *hole_desc = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_TEST);
    tern_pkt_t *keep = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_TEST);
    tern_pkt_t *hole_rest = tern_pktbuf_add(&f->pb, NULL, NULL, rest - DESC, TERN_NETTYPE_TEST);
    assert_non_null(hole_desc);
    assert_non_null(keep);
    assert_non_null(hole_rest);
    tern_pkt_t *fill = fill_arena(f);
    uint8_t *desc_at = (uint8_t *)hole_desc;
    uint8_t *rest_at = (uint8_t *)hole_rest;
    tern_pktbuf_release(&f->pb, hole_desc); /* a hole of one descriptor */
    tern_pktbuf_release(&f->pb, hole_rest); /* a hole of exactly the rest, not with a descriptor more */
    tern_pkt_t *hdr = tern_pktbuf_add_pair(&f->pb, NULL, PAIR_HDR, TERN_NETTYPE_NETIF, PAIR_DATA,
                                           TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(hdr);
    assert_ptr_equal((uint8_t *)hdr, desc_at);
    assert_ptr_equal(hdr->data, rest_at);
    tern_pkt_t *data = hdr->next;
    assert_ptr_equal((uint8_t *)data, rest_at + units(PAIR_HDR));
    assert_ptr_equal(data->data, (uint8_t *)data + DESC);
    assert_int_equal(used(f), ARENA_SIZE);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    hdr->next = NULL;
    tern_pktbuf_release(&f->pb, data);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, hdr);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, keep);
    tern_pktbuf_release(&f->pb, fill);
}

/* A pair released as one list (as a received frame with its interface
 * header): both go back in one piece, the first one's trimmed front with it,
 * between two live snips; the arena stays consistent. */
static void test_pktbuf_release__pair_in_one_piece(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *before_it = add_pattern(f, NULL, 16, 1, TERN_NETTYPE_TEST);
    size_t before = used(f);
    tern_pkt_t *frame = tern_pktbuf_add_pair(&f->pb, NULL, PAIR_DATA, TERN_NETTYPE_SIXLOWPAN, PAIR_HDR,
                                             TERN_NETTYPE_NETIF);
    assert_non_null(frame);
    tern_pkt_t *after_it = add_pattern(f, NULL, 16, 2, TERN_NETTYPE_TEST);
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, frame, 11), 0);
    tern_pktbuf_release(&f->pb, frame);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    assert_int_equal(used(f), before + DESC + units(16));
    assert_pattern(before_it->data, 16, 1);
    assert_pattern(after_it->data, 16, 2);
    /* The hole is whole again: a pair of the same sizes takes the same place. */
    tern_pkt_t *again = tern_pktbuf_add_pair(&f->pb, NULL, PAIR_DATA, TERN_NETTYPE_SIXLOWPAN, PAIR_HDR,
                                             TERN_NETTYPE_NETIF);
    assert_ptr_equal(again, frame);
    tern_pktbuf_release(&f->pb, again);
    tern_pktbuf_release(&f->pb, after_it);
    tern_pktbuf_release(&f->pb, before_it);
    assert_int_equal(used(f), 0);
}

/* The second snip of a pair still held elsewhere: the first goes alone, the
 * second when its last holder lets go; a pair whose second snip is not the
 * one laid out after the first is freed snip by snip. */
static void test_pktbuf_release__pair_with_shared_or_other_next(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *frame = tern_pktbuf_add_pair(&f->pb, NULL, PAIR_DATA, TERN_NETTYPE_SIXLOWPAN, PAIR_HDR,
                                             TERN_NETTYPE_NETIF);
    assert_non_null(frame);
    tern_pkt_t *hdr = frame->next;
    assert_int_equal(tern_pktbuf_hold(&f->pb, hdr, 1), 0);
    tern_pktbuf_release(&f->pb, frame);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    assert_int_equal(used(f), DESC + units(PAIR_HDR));
    assert_int_equal(hdr->users, 1);
    tern_pktbuf_release(&f->pb, hdr);
    assert_int_equal(used(f), 0);

    frame = tern_pktbuf_add_pair(&f->pb, NULL, PAIR_DATA, TERN_NETTYPE_SIXLOWPAN, PAIR_HDR, TERN_NETTYPE_NETIF);
    assert_non_null(frame);
    tern_pkt_t *other = add_pattern(f, NULL, 16, 3, TERN_NETTYPE_TEST);
    tern_pkt_t *own_hdr = frame->next;
    frame->next = other;
    tern_pktbuf_release(&f->pb, frame);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    assert_int_equal(used(f), DESC + units(PAIR_HDR));
    tern_pktbuf_release(&f->pb, own_hdr);
    assert_int_equal(used(f), 0);
}

/* The variant for a packet filled at once: the same layout, the bytes as
 * the arena held them (not zeroed), no next; the lock once; freed like a
 * pair. */
static void test_pktbuf_add_pair_to_fill__bytes_left_as_they_were(void **state)
{
    fixture_t *f = *state;
    memset(f->pb.arena + UNIT, 0xA5, 256); /* old bytes, left in place */
    unsigned locks = f->probe.acquired;
    tern_pkt_t *hdr = tern_pktbuf_add_pair_to_fill(&f->pb, PAIR_HDR, TERN_NETTYPE_NETIF, PAIR_DATA,
                                                   TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(hdr);
    assert_int_equal(f->probe.acquired, locks + 1u);
    tern_pkt_t *data = hdr->next;
    assert_non_null(data);
    assert_ptr_equal(hdr->data, (uint8_t *)hdr + DESC);
    assert_ptr_equal((uint8_t *)data, (uint8_t *)hdr + DESC + units(PAIR_HDR));
    assert_ptr_equal(data->data, (uint8_t *)data + DESC);
    assert_int_equal(hdr->size, PAIR_HDR);
    assert_int_equal(hdr->type, TERN_NETTYPE_NETIF);
    assert_int_equal(hdr->users, 1);
    assert_int_equal(data->size, PAIR_DATA);
    assert_int_equal(data->type, TERN_NETTYPE_SIXLOWPAN);
    assert_int_equal(data->users, 1);
    assert_null(data->next);
    assert_int_equal(((const uint8_t *)hdr->data)[0], 0xA5);
    assert_int_equal(((const uint8_t *)hdr->data)[PAIR_HDR - 1u], 0xA5);
    assert_int_equal(((const uint8_t *)data->data)[0], 0xA5);
    assert_int_equal(((const uint8_t *)data->data)[PAIR_DATA - 1u], 0xA5);
    assert_int_equal(used(f), 2u * DESC + units(PAIR_HDR) + units(PAIR_DATA));
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, hdr);

    /* The arguments add_pair() refuses; exhaustion. */
    assert_null(tern_pktbuf_add_pair_to_fill(NULL, 4, TERN_NETTYPE_NETIF, 4, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_add_pair_to_fill(&f->pb, 0, TERN_NETTYPE_NETIF, 4, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_add_pair_to_fill(&f->pb, 4, TERN_NETTYPE_NETIF, 0, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_add_pair_to_fill(&f->pb, 65536, TERN_NETTYPE_NETIF, 4, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_add_pair_to_fill(&f->pb, 4, TERN_NETTYPE_NETIF, 65536, TERN_NETTYPE_UNDEF));
    assert_int_equal(alloc_fail(f), 0);
    assert_null(tern_pktbuf_add_pair_to_fill(&f->pb, 4, TERN_NETTYPE_NETIF, ARENA_SIZE, TERN_NETTYPE_UNDEF));
    assert_int_not_equal(alloc_fail(f), 0);
    assert_int_equal(used(f), 0);
}

static void test_pktbuf_add_pair__arguments_and_exhaustion(void **state)
{
    fixture_t *f = *state;
    assert_null(tern_pktbuf_add_pair(NULL, NULL, 4, TERN_NETTYPE_NETIF, 4, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_add_pair(&f->pb, NULL, 0, TERN_NETTYPE_NETIF, 4, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_add_pair(&f->pb, NULL, 4, TERN_NETTYPE_NETIF, 0, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_add_pair(&f->pb, NULL, 65536, TERN_NETTYPE_NETIF, 4, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_add_pair(&f->pb, NULL, 4, TERN_NETTYPE_NETIF, 65536, TERN_NETTYPE_UNDEF));
    assert_int_equal(alloc_fail(f), 0); /* argument errors, not exhaustion */
    tern_pkt_t *next = add_pattern(f, NULL, 16, 5, TERN_NETTYPE_UNDEF);
    size_t before = used(f);
    assert_null(tern_pktbuf_add_pair(&f->pb, next, 4, TERN_NETTYPE_NETIF, ARENA_SIZE, TERN_NETTYPE_UNDEF));
    assert_true(alloc_fail(f) >= 1);
    release_untouched_next(f, next, before);
}

/* ------------------------------------------------------------ hold, release */

static void test_pktbuf_hold__every_snip(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, add_pattern(f, NULL, 4, 1, TERN_NETTYPE_UNDEF), 4, 2,
                                  TERN_NETTYPE_UDP);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 3), 0);
    assert_users(pkt, 4);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 0), 0);
    assert_users(pkt, 4);
    for (int i = 0; i < 4; i++) {
        tern_pktbuf_release(&f->pb, pkt);
    }
}

static void test_pktbuf_hold__NULL(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 4, 1, TERN_NETTYPE_UNDEF);
    assert_int_equal(tern_pktbuf_hold(&f->pb, NULL, 1), -EINVAL);
    assert_int_equal(tern_pktbuf_hold(NULL, pkt, 1), -EINVAL);
    assert_int_equal(pkt->users, 1);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_hold__up_to_255(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 4, 1, TERN_NETTYPE_UNDEF);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 254), 0);
    assert_int_equal(pkt->users, 255);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), -EOVERFLOW);
    assert_int_equal(pkt->users, 255);
    for (int i = 0; i < 255; i++) {
        tern_pktbuf_release(&f->pb, pkt);
    }
}

static void test_pktbuf_hold__overflow_changes_nothing(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *tail = add_pattern(f, NULL, 4, 1, TERN_NETTYPE_UNDEF);
    tern_pkt_t *mid = add_pattern(f, tail, 4, 2, TERN_NETTYPE_UDP);
    tern_pkt_t *head = add_pattern(f, mid, 4, 3, TERN_NETTYPE_IPV6);
    assert_int_equal(tern_pktbuf_hold(&f->pb, mid, 200), 0); /* mid, tail: 201 */
    assert_int_equal(tern_pktbuf_hold(&f->pb, head, 55), -EOVERFLOW);
    assert_int_equal(head->users, 1);
    assert_int_equal(mid->users, 201);
    assert_int_equal(tail->users, 201);
    assert_int_equal(tern_pktbuf_hold(&f->pb, head, 1000), -EOVERFLOW);
    assert_int_equal(head->users, 1);
    assert_int_equal(tern_pktbuf_hold(&f->pb, head, 54), 0);
    assert_int_equal(head->users, 55);
    assert_int_equal(mid->users, 255);
    for (int i = 0; i < 55; i++) {
        tern_pktbuf_release(&f->pb, head);
    }
    for (int i = 0; i < 200; i++) {
        tern_pktbuf_release(&f->pb, mid);
    }
}

static void test_pktbuf_release__NULL_ignored(void **state)
{
    fixture_t *f = *state;
    tern_pktbuf_release(&f->pb, NULL);
    tern_pkt_t *pkt = add_pattern(f, NULL, 4, 1, TERN_NETTYPE_UNDEF);
    tern_pktbuf_release(NULL, pkt);
    assert_int_equal(pkt->users, 1);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_release__frees_whole_list(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_received(f);
    assert_false(tern_pktbuf_is_empty(&f->pb));
    tern_pktbuf_release(&f->pb, pkt);
    assert_int_equal(used(f), 0);
}

static void test_pktbuf_release__held_snips_stay(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_received(f);
    size_t before = used(f);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    tern_pktbuf_release(&f->pb, pkt);
    assert_int_equal(used(f), before);
    assert_users(pkt, 1);
    assert_pattern(pkt->data, 20, (uint8_t)(1 + 48 * 7));
    tern_pktbuf_release(&f->pb, pkt);
}

/** Thesis fig. 3.3b: a received packet handed to two receivers, one writes. */
static void received_tree(fixture_t *f, bool copy_released_first)
{
    tern_pkt_t *pkt = build_received(f);
    size_t one = used(f);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0); /* dispatched twice */
    assert_users(pkt, 2);

    tern_pkt_t *copy = tern_pktbuf_start_write(&f->pb, pkt); /* receiver A */
    assert_non_null(copy);
    assert_ptr_not_equal(copy, pkt);
    assert_ptr_not_equal(copy->data, pkt->data);
    assert_ptr_equal(copy->next, pkt->next); /* only the head duplicated */
    assert_int_equal(copy->size, pkt->size);
    assert_int_equal(copy->type, pkt->type);
    assert_memory_equal(copy->data, pkt->data, pkt->size);
    assert_int_equal(copy->users, 1);
    assert_int_equal(pkt->users, 1);
    assert_users(pkt->next, 2); /* = sum of the two heads' counts */
    assert_int_equal(used(f), one + DESC + units(20));

    memset(copy->data, 0xee, copy->size); /* A writes; B's bytes stay */
    assert_pattern(pkt->data, 20, (uint8_t)(1 + 48 * 7));

    tern_pkt_t *first = copy_released_first ? copy : pkt;
    tern_pkt_t *second = copy_released_first ? pkt : copy;
    tern_pktbuf_release(&f->pb, first);
    assert_int_equal(used(f), one);
    assert_users(second, 1);
    assert_int_equal(tern_pkt_count(second), 4);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, second);
}

static void test_pktbuf_release__figure_3_3b_copy_released_first(void **state)
{
    received_tree(*state, true);
}

static void test_pktbuf_release__figure_3_3b_original_released_first(void **state)
{
    received_tree(*state, false);
}

/** Thesis fig. 3.3a: an ICMPv6 packet sent over two interfaces, each with its own header. */
static void test_pktbuf_release__figure_3_3a_multicast(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *icmp = add_pattern(f, NULL, 8, 1, TERN_NETTYPE_ICMPV6);
    tern_pkt_t *ipv6 = add_pattern(f, icmp, 40, 2, TERN_NETTYPE_IPV6);
    assert_int_equal(tern_pktbuf_hold(&f->pb, ipv6, 1), 0); /* one per interface */
    tern_pkt_t *if_a = tern_pktbuf_add(&f->pb, ipv6, NULL, 16, TERN_NETTYPE_NETIF);
    tern_pkt_t *if_b = tern_pktbuf_add(&f->pb, ipv6, NULL, 16, TERN_NETTYPE_NETIF);
    assert_non_null(if_a);
    assert_non_null(if_b);
    assert_int_equal(ipv6->users, 2);
    assert_int_equal(icmp->users, 2);

    /* interface A rewrites the hop limit: its own NETIF is relinked, IPV6 copied */
    tern_pkt_t *head = tern_pktbuf_start_write_upto(&f->pb, if_a, TERN_NETTYPE_IPV6);
    assert_ptr_equal(head, if_a);
    tern_pkt_t *ipv6_a = if_a->next;
    assert_ptr_not_equal(ipv6_a, ipv6);
    assert_ptr_equal(ipv6_a->next, icmp);
    assert_int_equal(ipv6_a->users, 1);
    assert_int_equal(ipv6->users, 1);
    assert_int_equal(icmp->users, 2);
    ((uint8_t *)ipv6_a->data)[7] = 0;
    assert_pattern(ipv6->data, 40, 2);

    tern_pktbuf_release(&f->pb, if_b);
    assert_int_equal(icmp->users, 1);
    assert_pattern(ipv6_a->data, 7, 2);
    tern_pktbuf_release(&f->pb, if_a);
}

/* ------------------------------------------------------------ release_error */

typedef struct {
    fixture_t *f;
    int calls;
    int last_err;
} report_log_t;

static void report_hook(void *ctx, int err)
{
    report_log_t *log = ctx;
    assert_int_equal(log->f->probe.depth, 0); /* called without the lock */
    log->calls++;
    log->last_err = err;
}

static tern_pkt_t *add_neterr(fixture_t *f, tern_pkt_t *next, report_log_t *log)
{
    tern_neterr_report_t hook = { .report = report_hook, .ctx = log };
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, next, &hook, sizeof(hook), TERN_NETTYPE_NETERR);
    assert_non_null(pkt);
    return pkt;
}

static void test_pktbuf_release_error__calls_every_hook(void **state)
{
    fixture_t *f = *state;
    report_log_t log_a = { .f = f };
    report_log_t log_b = { .f = f };
    tern_pkt_t *pkt = add_pattern(f, NULL, 30, 1, TERN_NETTYPE_UNDEF);
    pkt = add_neterr(f, pkt, &log_a);
    pkt = add_pattern(f, pkt, 40, 2, TERN_NETTYPE_IPV6);
    pkt = add_neterr(f, pkt, &log_b);
    tern_pktbuf_release_error(&f->pb, pkt, -EHOSTUNREACH);
    assert_int_equal(log_a.calls, 1);
    assert_int_equal(log_b.calls, 1);
    assert_int_equal(log_a.last_err, -EHOSTUNREACH);
    assert_int_equal(log_b.last_err, -EHOSTUNREACH);
    assert_int_equal(tern_pktbuf_stats(&f->pb).released_err, 1);
}

static void test_pktbuf_release_error__err_0_not_counted(void **state)
{
    fixture_t *f = *state;
    report_log_t log = { .f = f, .last_err = 99 };
    tern_pkt_t *pkt = add_neterr(f, add_pattern(f, NULL, 30, 1, TERN_NETTYPE_UNDEF), &log);
    tern_pktbuf_release_error(&f->pb, pkt, 0);
    assert_int_equal(log.calls, 1);
    assert_int_equal(log.last_err, 0);
    assert_int_equal(tern_pktbuf_stats(&f->pb).released_err, 0);
}

static void test_pktbuf_release_error__shared_snips_stay(void **state)
{
    fixture_t *f = *state;
    report_log_t log = { .f = f };
    tern_pkt_t *pkt = add_neterr(f, add_pattern(f, NULL, 30, 1, TERN_NETTYPE_UNDEF), &log);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    tern_pktbuf_release_error(&f->pb, pkt, -EIO);
    assert_users(pkt, 1);
    tern_pktbuf_release_error(&f->pb, pkt, -EIO);
    assert_int_equal(log.calls, 2);
    assert_int_equal(tern_pktbuf_stats(&f->pb).released_err, 2);
}

static void test_pktbuf_release_error__short_or_empty_neterr_ignored(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_NETERR);
    assert_non_null(pkt);
    pkt = tern_pktbuf_add(&f->pb, pkt, NULL, sizeof(tern_neterr_report_t) - 1, TERN_NETTYPE_NETERR);
    assert_non_null(pkt);
    pkt = tern_pktbuf_add(&f->pb, pkt, NULL, sizeof(tern_neterr_report_t), TERN_NETTYPE_NETERR);
    assert_non_null(pkt); /* zeroed: report == NULL */
    tern_pktbuf_release_error(&f->pb, pkt, -EIO);
    assert_int_equal(tern_pktbuf_stats(&f->pb).released_err, 1);
}

static void test_pktbuf_release_error__NULL(void **state)
{
    fixture_t *f = *state;
    tern_pktbuf_release_error(&f->pb, NULL, -EIO);
    assert_int_equal(tern_pktbuf_stats(&f->pb).released_err, 0);
}

/* ------------------------------------------------------------ mark */

static void test_pktbuf_mark__aligned_split_in_place(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *tail = tern_pktbuf_add(&f->pb, NULL, NULL, 16, TERN_NETTYPE_NETIF);
    tern_pkt_t *pkt = add_pattern(f, tail, 100, 9, TERN_NETTYPE_UNDEF);
    uint8_t *data = pkt->data;
    size_t before = used(f);
    tern_pkt_t *hdr = tern_pktbuf_mark(&f->pb, pkt, 40, TERN_NETTYPE_IPV6);
    assert_non_null(hdr);
    assert_ptr_equal(hdr->data, data); /* no copy */
    assert_ptr_equal(pkt->data, data + 40);
    assert_int_equal(hdr->size, 40);
    assert_int_equal(pkt->size, 60);
    assert_int_equal(hdr->type, TERN_NETTYPE_IPV6);
    assert_int_equal(pkt->type, TERN_NETTYPE_UNDEF);
    assert_int_equal(hdr->users, 1);
    assert_ptr_equal(pkt->next, hdr); /* reception order: payload stays head */
    assert_ptr_equal(hdr->next, tail);
    assert_pattern(data, 100, 9); /* bytes unchanged */
    assert_int_equal(used(f), before + DESC);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_mark__unaligned_copies_header(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 100, 9, TERN_NETTYPE_UNDEF);
    uint8_t *data = pkt->data;
    size_t before = used(f);
    tern_pkt_t *hdr = tern_pktbuf_mark(&f->pb, pkt, 5, TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(hdr);
    assert_ptr_not_equal(hdr->data, data);
    assert_int_equal(hdr->size, 5);
    assert_pattern(hdr->data, 5, 9);
    assert_ptr_equal(pkt->data, data + 5); /* no payload byte moved */
    assert_int_equal(pkt->size, 95);
    assert_pattern(data, 100, 9);
    /* the old header lies inside the payload's first unit: nothing freed */
    assert_int_equal(used(f), before + DESC + UNIT);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_mark__unaligned_frees_whole_units_before_payload(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 100, 9, TERN_NETTYPE_UNDEF);
    uint8_t *data = pkt->data;
    size_t before = used(f);
    tern_pkt_t *hdr = tern_pktbuf_mark(&f->pb, pkt, 21, TERN_NETTYPE_IPV6_EXT);
    assert_non_null(hdr);
    assert_pattern(hdr->data, 21, 9);
    assert_ptr_equal(pkt->data, data + 21);
    assert_pattern(pkt->data, 79, (uint8_t)(9 + 21 * 7));
    /* header copy: 24 bytes; old [0, 16) freed; payload keeps [16, 104) */
    assert_int_equal(used(f), before + DESC + 24 - 16);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, pkt); /* the whole list */
    assert_int_equal(used(f), 0);
}

static void test_pktbuf_mark__after_unaligned_mark(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 100, 9, TERN_NETTYPE_UNDEF);
    uint8_t *data = pkt->data;
    tern_pkt_t *h1 = tern_pktbuf_mark(&f->pb, pkt, 5, TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(h1);
    /* size 8 is a multiple of the unit, but the split point 13 is not aligned */
    tern_pkt_t *h2 = tern_pktbuf_mark(&f->pb, pkt, 8, TERN_NETTYPE_IPV6);
    assert_non_null(h2);
    assert_ptr_not_equal(h2->data, data + 5);
    assert_pattern(h2->data, 8, (uint8_t)(9 + 5 * 7));
    /* size 3 from 13: split point 16 is aligned, so split in place */
    size_t before = used(f);
    tern_pkt_t *h3 = tern_pktbuf_mark(&f->pb, pkt, 3, TERN_NETTYPE_UDP);
    assert_non_null(h3);
    assert_ptr_equal(h3->data, data + 13);
    assert_ptr_equal(pkt->data, data + 16);
    assert_int_equal(used(f), before + DESC);
    assert_pattern(data + 8, 92, (uint8_t)(9 + 8 * 7)); /* [data, data + 8) was freed */
    assert_ptr_equal(pkt->next, h3);
    assert_ptr_equal(h3->next, h2);
    assert_ptr_equal(h2->next, h1);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    /* free the snips one by one: the unit-sharing rule must hold for each */
    pkt = tern_pktbuf_remove_snip(&f->pb, pkt, h3);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    pkt = tern_pktbuf_remove_snip(&f->pb, pkt, pkt);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    assert_pattern(h2->data, 8, (uint8_t)(9 + 5 * 7));
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_mark__invalid_size(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 20, 1, TERN_NETTYPE_UNDEF);
    assert_null(tern_pktbuf_mark(&f->pb, pkt, 0, TERN_NETTYPE_UDP));
    assert_null(tern_pktbuf_mark(&f->pb, pkt, 20, TERN_NETTYPE_UDP));
    assert_null(tern_pktbuf_mark(&f->pb, pkt, 21, TERN_NETTYPE_UDP));
    assert_int_equal(pkt->size, 20);
    assert_null(pkt->next);
    assert_int_equal(alloc_fail(f), 0);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_mark__NULL(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 20, 1, TERN_NETTYPE_UNDEF);
    assert_null(tern_pktbuf_mark(NULL, pkt, 8, TERN_NETTYPE_UDP));
    assert_null(tern_pktbuf_mark(&f->pb, NULL, 8, TERN_NETTYPE_UDP));
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_mark__shared(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 20, 1, TERN_NETTYPE_UNDEF);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    assert_null(tern_pktbuf_mark(&f->pb, pkt, 8, TERN_NETTYPE_UDP));
    assert_int_equal(pkt->size, 20);
    assert_int_equal(alloc_fail(f), 0);
    tern_pktbuf_release(&f->pb, pkt);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_trim_front__keeps_the_bytes_until_release(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 100, 9, TERN_NETTYPE_UNDEF);
    uint8_t *data = pkt->data;
    size_t before = used(f);
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, pkt, 21), 0);
    assert_ptr_equal(pkt->data, data + 21);
    assert_int_equal(pkt->size, 79);
    assert_int_equal(pkt->lead, 21);
    assert_null(pkt->next);
    assert_pattern(pkt->data, 79, (uint8_t)(9 + 21 * 7));
    /* Its data still follows its descriptor: the trimmed bytes stay the
     * snip's, given back with it in one go. */
    assert_int_equal(used(f), before);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, pkt, 11), 0);
    assert_ptr_equal(pkt->data, data + 32);
    assert_int_equal(pkt->lead, 32);
    assert_pattern(pkt->data, 68, (uint8_t)(9 + 32 * 7));
    assert_int_equal(used(f), before);
    /* The other operations see 68 bytes; those that move or split the data give the lead back first. */
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 60), 0); /* in place, from the end */
    assert_int_equal(pkt->lead, 32);
    assert_int_equal(used(f), before - 8);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, pkt);
    assert_int_equal(used(f), 0);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
}

static void test_pktbuf_trim_front__lead_given_back_by_mark_and_move(void **state)
{
    fixture_t *f = *state;
    /* mark: the payload's data no longer follows its descriptor. */
    tern_pkt_t *pkt = add_pattern(f, NULL, 100, 5, TERN_NETTYPE_UNDEF);
    size_t before = used(f);
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, pkt, 20), 0);
    tern_pkt_t *hdr = tern_pktbuf_mark(&f->pb, pkt, 4, TERN_NETTYPE_IPV6); /* split at 24: a unit boundary */
    assert_non_null(hdr);
    assert_int_equal(pkt->lead, 0);
    assert_int_equal(hdr->lead, 0);
    assert_pattern(hdr->data, 4, (uint8_t)(5 + 20 * 7));
    assert_pattern(pkt->data, 76, (uint8_t)(5 + 24 * 7));
    /* [0, 16) given back; the header keeps [16, 24) (its bytes 20..23), the payload [24, 104). */
    assert_int_equal(used(f), before - 16 + DESC /* the header's descriptor */);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, pkt);
    assert_int_equal(used(f), 0);
    /* realloc that moves the data: the lead goes with the old place. */
    tern_pkt_t *a = add_pattern(f, NULL, 40, 7, TERN_NETTYPE_UNDEF);
    tern_pkt_t *wall = add_pattern(f, NULL, 8, 1, TERN_NETTYPE_UNDEF); /* right after a: a cannot grow in place */
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, a, 17), 0);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, a, 200), 0);
    assert_int_equal(a->lead, 0);
    assert_pattern(a->data, 23, (uint8_t)(7 + 17 * 7));
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, a);
    tern_pktbuf_release(&f->pb, wall);
    assert_int_equal(used(f), 0);
}

static void test_pktbuf_trim_front__unaligned_frees_whole_units_before_payload(void **state)
{
    fixture_t *f = *state;
    /* A payload whose data does not follow its descriptor (split off by mark)
     * gives back the whole units before its new start at once. */
    tern_pkt_t *pkt = add_pattern(f, NULL, 116, 9, TERN_NETTYPE_UNDEF);
    tern_pkt_t *hdr = tern_pktbuf_mark(&f->pb, pkt, 16, TERN_NETTYPE_IPV6); /* in place: [0, 16) is the header's */
    assert_non_null(hdr);
    uint8_t *data = pkt->data;
    size_t before = used(f);
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, pkt, 21), 0);
    assert_ptr_equal(pkt->data, data + 21);
    assert_int_equal(pkt->size, 79);
    assert_int_equal(pkt->lead, 0);
    assert_pattern(pkt->data, 79, (uint8_t)(9 + 37 * 7));
    /* [16, 32) freed; the payload keeps [32, 120) */
    assert_int_equal(used(f), before - 16);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    /* again, from an unaligned start to an aligned split point (48): [32, 48) freed */
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, pkt, 11), 0);
    assert_ptr_equal(pkt->data, data + 32);
    assert_int_equal(used(f), before - 32);
    assert_pattern(pkt->data, 68, (uint8_t)(9 + 48 * 7));
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, pkt);
    assert_int_equal(used(f), 0);
}

static void test_pktbuf_trim_front__same_bytes_as_mark_then_remove(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *a = add_pattern(f, NULL, 60, 3, TERN_NETTYPE_UNDEF);
    tern_pkt_t *hdr = tern_pktbuf_mark(&f->pb, a, 13, TERN_NETTYPE_IEEE802154);
    assert_non_null(hdr);
    a = tern_pktbuf_remove_snip(&f->pb, a, hdr);
    size_t marked = used(f);
    tern_pktbuf_release(&f->pb, a);
    tern_pkt_t *b = add_pattern(f, NULL, 60, 3, TERN_NETTYPE_UNDEF);
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, b, 13), 0);
    /* mark gave back the unit [0, 8) at once; trim keeps it until b goes. */
    assert_int_equal(used(f), marked + 8);
    assert_int_equal(b->size, 47);
    assert_pattern(b->data, 47, (uint8_t)(3 + 13 * 7));
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, b);
    assert_int_equal(used(f), 0);
}

static void test_pktbuf_trim_front__invalid_NULL_shared(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 20, 1, TERN_NETTYPE_UNDEF);
    assert_int_equal(tern_pktbuf_trim_front(NULL, pkt, 8), -EINVAL);
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, NULL, 8), -EINVAL);
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, pkt, 0), -EINVAL);
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, pkt, 20), -EINVAL);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    assert_int_equal(tern_pktbuf_trim_front(&f->pb, pkt, 8), -EINVAL);
    assert_int_equal(pkt->size, 20);
    tern_pktbuf_release(&f->pb, pkt);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_mark__exhaustion(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 20, 1, TERN_NETTYPE_UNDEF);
    void *data = pkt->data;
    tern_pkt_t *fill = fill_arena(f);
    assert_null(tern_pktbuf_mark(&f->pb, pkt, 8, TERN_NETTYPE_UDP));
    assert_null(tern_pktbuf_mark(&f->pb, pkt, 5, TERN_NETTYPE_UDP));
    assert_int_equal(alloc_fail(f), 2);
    assert_ptr_equal(pkt->data, data);
    assert_int_equal(pkt->size, 20);
    assert_null(pkt->next);
    tern_pktbuf_release(&f->pb, fill);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_mark__exhaustion_after_descriptor(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 20, 1, TERN_NETTYPE_UNDEF);
    tern_pkt_t *gap = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_TEST);
    tern_pkt_t *fill = fill_arena(f);
    tern_pktbuf_release(&f->pb, gap); /* room for exactly one descriptor */
    size_t before = used(f);
    assert_null(tern_pktbuf_mark(&f->pb, pkt, 5, TERN_NETTYPE_UDP)); /* needs a copy too */
    assert_int_equal(alloc_fail(f), 1);
    assert_int_equal(used(f), before);
    assert_int_equal(pkt->size, 20);
    tern_pkt_t *hdr = tern_pktbuf_mark(&f->pb, pkt, 8, TERN_NETTYPE_UDP); /* in place: fits */
    assert_non_null(hdr);
    tern_pktbuf_release(&f->pb, fill);
    tern_pktbuf_release(&f->pb, pkt);
}

/* ------------------------------------------------------------ start_write */

static void test_pktbuf_start_write__single_user_same_pointer(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_received(f);
    size_t before = used(f);
    assert_ptr_equal(tern_pktbuf_start_write(&f->pb, pkt), pkt);
    assert_int_equal(used(f), before);
    assert_users(pkt, 1);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_start_write__private_head_shared_tail(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_received(f);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt->next, 1), 0);
    assert_ptr_equal(tern_pktbuf_start_write(&f->pb, pkt), pkt); /* the head only */
    tern_pkt_t *tail = pkt->next;
    tern_pktbuf_release(&f->pb, pkt);
    assert_users(tail, 1);
    tern_pktbuf_release(&f->pb, tail);
}

static void test_pktbuf_start_write__empty_shared_snip(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_NETIF);
    assert_non_null(pkt);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    tern_pkt_t *copy = tern_pktbuf_start_write(&f->pb, pkt);
    assert_non_null(copy);
    assert_ptr_not_equal(copy, pkt);
    assert_null(copy->data);
    assert_int_equal(copy->type, TERN_NETTYPE_NETIF);
    assert_int_equal(used(f), 2 * DESC);
    tern_pktbuf_release(&f->pb, copy);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_start_write__exhaustion(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_received(f);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    tern_pkt_t *fill = fill_arena(f);
    assert_null(tern_pktbuf_start_write(&f->pb, pkt));
    assert_int_equal(alloc_fail(f), 1);
    assert_users(pkt, 2);
    tern_pktbuf_release(&f->pb, fill);
    tern_pktbuf_release(&f->pb, pkt);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_start_write__NULL(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 4, 1, TERN_NETTYPE_UNDEF);
    assert_null(tern_pktbuf_start_write(&f->pb, NULL));
    assert_null(tern_pktbuf_start_write(NULL, pkt));
    tern_pktbuf_release(&f->pb, pkt);
}

/* ------------------------------------------------------------ start_write_upto */

/** [A(UDP, 8), B(IPV6, 40), C(NETIF, 16)], transmission order. */
static tern_pkt_t *build_three(fixture_t *f)
{
    tern_pkt_t *c = add_pattern(f, NULL, 16, 3, TERN_NETTYPE_NETIF);
    tern_pkt_t *b = add_pattern(f, c, 40, 2, TERN_NETTYPE_IPV6);
    return add_pattern(f, b, 8, 1, TERN_NETTYPE_UDP);
}

static void test_pktbuf_start_write_upto__type_missing(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    size_t before = used(f);
    assert_null(tern_pktbuf_start_write_upto(&f->pb, pkt, TERN_NETTYPE_TCP));
    assert_int_equal(used(f), before);
    assert_int_equal(alloc_fail(f), 0);
    assert_users(pkt, 2);
    tern_pktbuf_release(&f->pb, pkt);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_start_write_upto__all_private(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    size_t before = used(f);
    assert_ptr_equal(tern_pktbuf_start_write_upto(&f->pb, pkt, TERN_NETTYPE_NETIF), pkt);
    assert_int_equal(used(f), before);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_start_write_upto__duplicates_shared_path(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *b = pkt->next;
    tern_pkt_t *c = b->next;
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    size_t before = used(f);
    tern_pkt_t *head = tern_pktbuf_start_write_upto(&f->pb, pkt, TERN_NETTYPE_IPV6);
    assert_non_null(head);
    assert_ptr_not_equal(head, pkt);
    assert_ptr_not_equal(head->next, b);
    assert_ptr_equal(head->next->next, c); /* after the target: still shared */
    assert_int_equal(head->users, 1);
    assert_int_equal(head->next->users, 1);
    assert_int_equal(pkt->users, 1);
    assert_int_equal(b->users, 1);
    assert_int_equal(c->users, 2);
    assert_ptr_equal(pkt->next, b); /* the other holder's list is untouched */
    assert_ptr_equal(b->next, c);
    assert_int_equal(head->type, TERN_NETTYPE_UDP);
    assert_int_equal(head->next->type, TERN_NETTYPE_IPV6);
    assert_pattern(head->data, 8, 1);
    assert_pattern(head->next->data, 40, 2);
    assert_int_equal(used(f), before + 2 * DESC + 8 + 40);
    tern_pktbuf_release(&f->pb, pkt);
    assert_int_equal(c->users, 1);
    tern_pktbuf_release(&f->pb, head);
}

static void test_pktbuf_start_write_upto__target_is_head(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    tern_pkt_t *head = tern_pktbuf_start_write_upto(&f->pb, pkt, TERN_NETTYPE_UDP);
    assert_non_null(head);
    assert_ptr_not_equal(head, pkt);
    assert_ptr_equal(head->next, pkt->next);
    assert_users(pkt->next, 2);
    tern_pktbuf_release(&f->pb, head);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_start_write_upto__exhaustion_changes_nothing(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    /* room to copy A (UDP, 8 bytes) but not B: the first copy must be undone */
    tern_pkt_t *gap = tern_pktbuf_add(&f->pb, NULL, NULL, 8, TERN_NETTYPE_TEST);
    tern_pkt_t *fill = fill_arena(f);
    tern_pktbuf_release(&f->pb, gap);
    size_t before = used(f);
    tern_pkt_t *b = pkt->next;
    assert_null(tern_pktbuf_start_write_upto(&f->pb, pkt, TERN_NETTYPE_IPV6));
    assert_int_equal(alloc_fail(f), 1);
    assert_int_equal(used(f), before);
    assert_users(pkt, 2);
    assert_ptr_equal(pkt->next, b);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    /* with the target at the head, the one copy fits */
    tern_pkt_t *head = tern_pktbuf_start_write_upto(&f->pb, pkt, TERN_NETTYPE_UDP);
    assert_non_null(head);
    tern_pktbuf_release(&f->pb, fill);
    tern_pktbuf_release(&f->pb, head);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_start_write_upto__NULL(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 4, 1, TERN_NETTYPE_UNDEF);
    assert_null(tern_pktbuf_start_write_upto(&f->pb, NULL, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_start_write_upto(NULL, pkt, TERN_NETTYPE_UNDEF));
    tern_pktbuf_release(&f->pb, pkt);
}

/* ------------------------------------------------------------ realloc_data */

static void test_pktbuf_realloc_data__shrink(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 100, 4, TERN_NETTYPE_UNDEF);
    void *data = pkt->data;
    size_t before = used(f);
    unsigned locks = f->probe.acquired;
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 20), 0);
    assert_int_equal(f->probe.acquired, locks + 1u); /* units given back: under the lock */
    assert_ptr_equal(pkt->data, data);
    assert_int_equal(pkt->size, 20);
    assert_pattern(pkt->data, 20, 4);
    assert_int_equal(used(f), before - (104 - 24));
    locks = f->probe.acquired;
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 17), 0); /* same unit count */
    assert_int_equal(f->probe.acquired, locks); /* only the size of a private snip: no lock */
    assert_int_equal(pkt->size, 17);
    assert_int_equal(used(f), before - (104 - 24));
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_realloc_data__shrink_to_0(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 100, 4, TERN_NETTYPE_UNDEF);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 0), 0);
    assert_null(pkt->data);
    assert_int_equal(pkt->size, 0);
    assert_int_equal(used(f), DESC);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_realloc_data__grow_from_0(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 30), 0);
    assert_non_null(pkt->data);
    assert_int_equal(pkt->size, 30);
    static const uint8_t zero[30];
    assert_memory_equal(pkt->data, zero, 30);
    assert_int_equal(used(f), DESC + 32);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_realloc_data__grow_within_unit_zeroes(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 24, 4, TERN_NETTYPE_UNDEF);
    memset(pkt->data, 0xff, 24);
    void *data = pkt->data;
    size_t before = used(f);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 17), 0);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 24), 0);
    assert_ptr_equal(pkt->data, data);
    assert_int_equal(used(f), before);
    static const uint8_t zero[7];
    assert_memory_equal((uint8_t *)pkt->data + 17, zero, 7);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_realloc_data__grow_in_place(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 16, 4, TERN_NETTYPE_UNDEF); /* free space follows */
    void *data = pkt->data;
    size_t before = used(f);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 100), 0);
    assert_ptr_equal(pkt->data, data);
    assert_int_equal(pkt->size, 100);
    assert_pattern(pkt->data, 16, 4);
    static const uint8_t zero[84];
    assert_memory_equal((uint8_t *)pkt->data + 16, zero, 84);
    assert_int_equal(used(f), before + 104 - 16);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_realloc_data__grow_in_place_exact_fit(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 16, 4, TERN_NETTYPE_UNDEF);
    tern_pkt_t *gap = add_pattern(f, NULL, 8, 5, TERN_NETTYPE_UNDEF);
    tern_pkt_t *after = add_pattern(f, NULL, 8, 6, TERN_NETTYPE_UNDEF);
    tern_pktbuf_release(&f->pb, gap); /* DESC + 8 free right after pkt's data */
    void *data = pkt->data;
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 16 + DESC + 8), 0);
    assert_ptr_equal(pkt->data, data);
    assert_int_equal(free_chunk_count(f), 1);
    assert_pattern(pkt->data, 16, 4);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, after);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_realloc_data__grow_by_moving(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 16, 4, TERN_NETTYPE_UNDEF);
    tern_pkt_t *gap = add_pattern(f, NULL, 8, 5, TERN_NETTYPE_UNDEF);
    tern_pkt_t *after = add_pattern(f, NULL, 8, 6, TERN_NETTYPE_UNDEF);
    tern_pktbuf_release(&f->pb, gap); /* too small a free neighbour */
    void *data = pkt->data;
    size_t before = used(f);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 16 + DESC + 16), 0);
    assert_ptr_not_equal(pkt->data, data);
    assert_pattern(pkt->data, 16, 4);
    static const uint8_t zero[DESC + 16];
    assert_memory_equal((uint8_t *)pkt->data + 16, zero, DESC + 16);
    assert_int_equal(used(f), before + DESC + 16);
    assert_pattern(after->data, 8, 6);
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    tern_pktbuf_release(&f->pb, after);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_realloc_data__enomem_unchanged(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 16, 4, TERN_NETTYPE_UNDEF);
    tern_pkt_t *empty = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_UNDEF);
    assert_non_null(empty);
    tern_pkt_t *fill = fill_arena(f);
    void *data = pkt->data;
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 200), -ENOMEM);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, empty, 1), -ENOMEM);
    assert_int_equal(alloc_fail(f), 2);
    assert_ptr_equal(pkt->data, data);
    assert_int_equal(pkt->size, 16);
    assert_pattern(pkt->data, 16, 4);
    assert_null(empty->data);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 10), 0); /* shrinking always works */
    tern_pktbuf_release(&f->pb, fill);
    tern_pktbuf_release(&f->pb, empty);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_realloc_data__invalid(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 16, 4, TERN_NETTYPE_UNDEF);
    assert_int_equal(tern_pktbuf_realloc_data(NULL, pkt, 8), -EINVAL);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, NULL, 8), -EINVAL);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 65536), -EINVAL);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 8), -EINVAL); /* shared */
    assert_int_equal(pkt->size, 16);
    assert_int_equal(alloc_fail(f), 0);
    tern_pktbuf_release(&f->pb, pkt);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_realloc_data__unaligned_data(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 100, 4, TERN_NETTYPE_UNDEF);
    tern_pkt_t *hdr = tern_pktbuf_mark(&f->pb, pkt, 5, TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(hdr);
    size_t before = used(f);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 50), 0); /* [0,104) -> [0,56) */
    assert_int_equal(used(f), before - 48);
    assert_pattern(pkt->data, 50, (uint8_t)(4 + 5 * 7));
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 300), 0);
    assert_pattern(pkt->data, 50, (uint8_t)(4 + 5 * 7));
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    assert_pattern(hdr->data, 5, 4);
    tern_pktbuf_release(&f->pb, pkt);
}

/* ------------------------------------------------------------ merge */

static void test_pktbuf_merge__concatenates_in_order(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, "!", 1, TERN_NETTYPE_UNDEF);
    pkt = tern_pktbuf_add(&f->pb, pkt, " world", 6, TERN_NETTYPE_UDP);
    pkt = tern_pktbuf_add(&f->pb, pkt, NULL, 0, TERN_NETTYPE_NETIF);
    pkt = tern_pktbuf_add(&f->pb, pkt, "hello", 5, TERN_NETTYPE_IPV6);
    assert_non_null(pkt);
    assert_int_equal(tern_pktbuf_merge(&f->pb, pkt), 0);
    assert_null(pkt->next);
    assert_int_equal(pkt->size, 12);
    assert_int_equal(pkt->type, TERN_NETTYPE_IPV6);
    assert_memory_equal(pkt->data, "hello world!", 12);
    assert_int_equal(used(f), DESC + 16);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_merge__in_place(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, "cdefghijkl", 10, TERN_NETTYPE_UNDEF);
    pkt = tern_pktbuf_add(&f->pb, pkt, "ab", 2, TERN_NETTYPE_UDP); /* its data ends the used part */
    assert_non_null(pkt);
    void *data = pkt->data;
    size_t before = used(f);
    assert_int_equal(tern_pktbuf_merge(&f->pb, pkt), 0);
    assert_ptr_equal(pkt->data, data);
    assert_memory_equal(pkt->data, "abcdefghijkl", 12);
    assert_int_equal(used(f), before + 8 - DESC - 16);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_merge__moves_head_data(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *head = add_pattern(f, NULL, 30, 1, TERN_NETTYPE_IPV6);
    tern_pkt_t *tail = add_pattern(f, NULL, 30, (uint8_t)(1 + 30 * 7), TERN_NETTYPE_UNDEF);
    head->next = tail; /* the caller owns both */
    void *data = head->data;
    assert_int_equal(tern_pktbuf_merge(&f->pb, head), 0);
    assert_ptr_not_equal(head->data, data);
    assert_pattern(head->data, 60, 1);
    assert_int_equal(used(f), DESC + 64);
    tern_pktbuf_release(&f->pb, head);
}

static void test_pktbuf_merge__single_snip(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 30, 1, TERN_NETTYPE_IPV6);
    void *data = pkt->data;
    assert_int_equal(tern_pktbuf_merge(&f->pb, pkt), 0);
    assert_ptr_equal(pkt->data, data);
    assert_int_equal(pkt->size, 30);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_merge__empty_snips(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_UNDEF);
    pkt = tern_pktbuf_add(&f->pb, pkt, NULL, 0, TERN_NETTYPE_NETIF);
    assert_non_null(pkt);
    assert_int_equal(tern_pktbuf_merge(&f->pb, pkt), 0);
    assert_null(pkt->next);
    assert_null(pkt->data);
    assert_int_equal(pkt->size, 0);
    assert_int_equal(used(f), DESC);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_merge__empty_head(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, "xyz", 3, TERN_NETTYPE_UNDEF);
    pkt = tern_pktbuf_add(&f->pb, pkt, NULL, 0, TERN_NETTYPE_NETIF);
    assert_non_null(pkt);
    assert_int_equal(tern_pktbuf_merge(&f->pb, pkt), 0);
    assert_int_equal(pkt->size, 3);
    assert_int_equal(pkt->type, TERN_NETTYPE_NETIF);
    assert_memory_equal(pkt->data, "xyz", 3);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_merge__shared(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt->next->next, 1), 0);
    size_t before = used(f);
    assert_int_equal(tern_pktbuf_merge(&f->pb, pkt), -EINVAL);
    assert_int_equal(used(f), before);
    assert_int_equal(tern_pkt_count(pkt), 3);
    tern_pkt_t *tail = pkt->next->next;
    tern_pktbuf_release(&f->pb, pkt);
    tern_pktbuf_release(&f->pb, tail);
}

static void test_pktbuf_merge__enomem_unchanged(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *fill = fill_arena(f);
    tern_pkt_t *b = pkt->next;
    assert_int_equal(tern_pktbuf_merge(&f->pb, pkt), -ENOMEM);
    assert_int_equal(alloc_fail(f), 1);
    assert_ptr_equal(pkt->next, b);
    assert_int_equal(pkt->size, 8);
    assert_pattern(pkt->data, 8, 1);
    assert_pattern(b->data, 40, 2);
    tern_pktbuf_release(&f->pb, fill);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_merge__longer_than_65535(void **state)
{
    (void)state;
    const size_t size = 140000;
    uint8_t *storage = malloc(size); /* malloc's alignment is enough */
    assert_non_null(storage);
    tern_pktbuf_t pb;
    assert_int_equal(tern_pktbuf_init(&pb, storage, size, NULL), 0);
    tern_pkt_t *pkt = tern_pktbuf_add(&pb, NULL, NULL, 40000, TERN_NETTYPE_UNDEF);
    pkt = tern_pktbuf_add(&pb, pkt, NULL, 40000, TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    assert_int_equal(tern_pktbuf_merge(&pb, pkt), -EMSGSIZE);
    assert_int_equal(tern_pkt_count(pkt), 2);
    assert_int_equal(tern_pktbuf_stats(&pb).alloc_fail, 0);
    tern_pktbuf_release(&pb, pkt);
    harness_assert_pktbuf_clean(&pb);
    free(storage);
}

static void test_pktbuf_merge__NULL(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 4, 1, TERN_NETTYPE_UNDEF);
    assert_int_equal(tern_pktbuf_merge(&f->pb, NULL), -EINVAL);
    assert_int_equal(tern_pktbuf_merge(NULL, pkt), -EINVAL);
    tern_pktbuf_release(&f->pb, pkt);
}

/* ------------------------------------------------------------ remove_snip, replace_snip */

static void test_pktbuf_remove_snip__head(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *b = pkt->next;
    size_t before = used(f);
    assert_ptr_equal(tern_pktbuf_remove_snip(&f->pb, pkt, pkt), b);
    assert_int_equal(used(f), before - DESC - 8);
    assert_int_equal(tern_pkt_count(b), 2);
    tern_pktbuf_release(&f->pb, b);
}

static void test_pktbuf_remove_snip__middle(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *c = pkt->next->next;
    size_t before = used(f);
    assert_ptr_equal(tern_pktbuf_remove_snip(&f->pb, pkt, pkt->next), pkt);
    assert_ptr_equal(pkt->next, c);
    assert_int_equal(used(f), before - DESC - 40);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_remove_snip__tail_and_only_snip(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    assert_ptr_equal(tern_pktbuf_remove_snip(&f->pb, pkt, pkt->next->next), pkt);
    assert_null(pkt->next->next);
    pkt = tern_pktbuf_remove_snip(&f->pb, pkt, pkt->next);
    assert_null(tern_pktbuf_remove_snip(&f->pb, pkt, pkt));
}

static void test_pktbuf_remove_snip__not_present(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *other = add_pattern(f, NULL, 4, 9, TERN_NETTYPE_UNDEF);
    size_t before = used(f);
    assert_ptr_equal(tern_pktbuf_remove_snip(&f->pb, pkt, other), pkt);
    assert_ptr_equal(tern_pktbuf_remove_snip(&f->pb, pkt, NULL), pkt);
    assert_ptr_equal(tern_pktbuf_remove_snip(NULL, pkt, pkt), pkt);
    assert_null(tern_pktbuf_remove_snip(&f->pb, NULL, other));
    assert_int_equal(used(f), before);
    assert_int_equal(other->users, 1);
    assert_int_equal(tern_pkt_count(pkt), 3);
    tern_pktbuf_release(&f->pb, other);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_remove_snip__shared_snip_after_private(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *b = pkt->next;
    tern_pkt_t *c = b->next;
    assert_int_equal(tern_pktbuf_hold(&f->pb, b, 1), 0); /* someone else holds [b, c] */
    assert_ptr_equal(tern_pktbuf_remove_snip(&f->pb, pkt, b), pkt);
    assert_ptr_equal(pkt->next, c);
    assert_ptr_equal(b->next, c); /* the other holder's list is intact */
    assert_int_equal(b->users, 1);
    assert_int_equal(c->users, 2);
    tern_pktbuf_release(&f->pb, pkt);
    tern_pktbuf_release(&f->pb, b);
}

static void test_pktbuf_remove_snip__shared_head(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *b = pkt->next;
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    assert_ptr_equal(tern_pktbuf_remove_snip(&f->pb, pkt, pkt), b);
    assert_int_equal(pkt->users, 1);
    assert_ptr_equal(pkt->next, b); /* the other holder's list is intact */
    assert_users(b, 2);
    tern_pktbuf_release(&f->pb, b);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_replace_snip__shared_snip_after_private(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *b = pkt->next;
    tern_pkt_t *c = b->next;
    assert_int_equal(tern_pktbuf_hold(&f->pb, b, 1), 0);
    tern_pkt_t *add = add_pattern(f, NULL, 12, 7, TERN_NETTYPE_IPV6);
    assert_ptr_equal(tern_pktbuf_replace_snip(&f->pb, pkt, b, add), pkt);
    assert_ptr_equal(pkt->next, add);
    assert_ptr_equal(add->next, c);
    assert_ptr_equal(b->next, c);
    assert_int_equal(b->users, 1);
    assert_int_equal(c->users, 2);
    tern_pktbuf_release(&f->pb, b);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_replace_snip__middle(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *c = pkt->next->next;
    tern_pkt_t *add = add_pattern(f, NULL, 60, 7, TERN_NETTYPE_IPV6_EXT);
    size_t before = used(f);
    assert_ptr_equal(tern_pktbuf_replace_snip(&f->pb, pkt, pkt->next, add), pkt);
    assert_ptr_equal(pkt->next, add);
    assert_ptr_equal(add->next, c);
    assert_int_equal(used(f), before - DESC - 40);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_replace_snip__head(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *b = pkt->next;
    tern_pkt_t *add = add_pattern(f, NULL, 60, 7, TERN_NETTYPE_IPV6_EXT);
    assert_ptr_equal(tern_pktbuf_replace_snip(&f->pb, pkt, pkt, add), add);
    assert_ptr_equal(add->next, b);
    assert_int_equal(tern_pkt_count(add), 3);
    tern_pktbuf_release(&f->pb, add);
}

static void test_pktbuf_replace_snip__not_present_or_invalid(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_three(f);
    tern_pkt_t *other = add_pattern(f, NULL, 4, 9, TERN_NETTYPE_UNDEF);
    tern_pkt_t *add = add_pattern(f, NULL, 4, 8, TERN_NETTYPE_UNDEF);
    size_t before = used(f);
    assert_ptr_equal(tern_pktbuf_replace_snip(&f->pb, pkt, other, add), pkt);
    assert_ptr_equal(tern_pktbuf_replace_snip(&f->pb, pkt, NULL, add), pkt);
    assert_ptr_equal(tern_pktbuf_replace_snip(&f->pb, pkt, pkt->next, NULL), pkt);
    assert_ptr_equal(tern_pktbuf_replace_snip(&f->pb, pkt, pkt->next, pkt->next), pkt);
    assert_ptr_equal(tern_pktbuf_replace_snip(NULL, pkt, pkt->next, add), pkt);
    assert_null(tern_pktbuf_replace_snip(&f->pb, NULL, other, add));
    assert_int_equal(used(f), before);
    assert_int_equal(tern_pkt_count(pkt), 3);
    assert_null(add->next);
    tern_pktbuf_release(&f->pb, add);
    tern_pktbuf_release(&f->pb, other);
    tern_pktbuf_release(&f->pb, pkt);
}

/* ------------------------------------------------------------ stats, is_empty, contains */

static void test_pktbuf_stats__used_and_high_water(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *a = add_pattern(f, NULL, 10, 1, TERN_NETTYPE_UNDEF);
    tern_pktbuf_stats_t stats = tern_pktbuf_stats(&f->pb);
    assert_int_equal(stats.size, ARENA_SIZE);
    assert_int_equal(stats.used, DESC + 16);
    assert_int_equal(stats.high_water, DESC + 16);
    tern_pkt_t *b = add_pattern(f, NULL, 1, 1, TERN_NETTYPE_UNDEF);
    assert_int_equal(used(f), 2 * DESC + 24);
    tern_pktbuf_release(&f->pb, a);
    stats = tern_pktbuf_stats(&f->pb);
    assert_int_equal(stats.used, DESC + 8);
    assert_int_equal(stats.high_water, 2 * DESC + 24);
    tern_pktbuf_release(&f->pb, b);
    stats = tern_pktbuf_stats(&f->pb);
    assert_int_equal(stats.used, 0);
    assert_int_equal(stats.high_water, 2 * DESC + 24);
}

static void test_pktbuf_stats__alloc_fail_counts_every_refusal(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 20, 1, TERN_NETTYPE_UNDEF);
    tern_pkt_t *second = add_pattern(f, NULL, 20, 2, TERN_NETTYPE_UNDEF);
    pkt->next = second;
    assert_int_equal(tern_pktbuf_hold(&f->pb, pkt, 1), 0);
    tern_pkt_t *fill = fill_arena(f);
    assert_null(tern_pktbuf_add(&f->pb, NULL, NULL, 1, TERN_NETTYPE_UNDEF));
    assert_null(tern_pktbuf_start_write(&f->pb, pkt));
    assert_null(tern_pktbuf_start_write_upto(&f->pb, pkt, TERN_NETTYPE_UNDEF));
    tern_pktbuf_release(&f->pb, pkt);
    assert_null(tern_pktbuf_mark(&f->pb, pkt, 8, TERN_NETTYPE_UDP));
    assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 200), -ENOMEM);
    assert_int_equal(tern_pktbuf_merge(&f->pb, pkt), -ENOMEM);
    assert_int_equal(alloc_fail(f), 6);
    tern_pktbuf_release(&f->pb, fill);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pktbuf_stats__NULL(void **state)
{
    (void)state;
    tern_pktbuf_stats_t stats = tern_pktbuf_stats(NULL);
    assert_int_equal(stats.size, 0);
    assert_int_equal(stats.used, 0);
}

static void test_pktbuf_is_empty__states(void **state)
{
    fixture_t *f = *state;
    assert_true(tern_pktbuf_is_empty(&f->pb));
    assert_false(tern_pktbuf_is_empty(NULL));
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_UNDEF);
    assert_false(tern_pktbuf_is_empty(&f->pb));
    tern_pkt_t *fill = fill_arena(f);
    assert_false(tern_pktbuf_is_empty(&f->pb)); /* no free chunk at all */
    tern_pktbuf_release(&f->pb, pkt);
    assert_false(tern_pktbuf_is_empty(&f->pb)); /* one free chunk, not the whole arena */
    tern_pktbuf_release(&f->pb, fill);
    assert_true(tern_pktbuf_is_empty(&f->pb));
}

static void test_pktbuf_contains__bounds(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = add_pattern(f, NULL, 10, 1, TERN_NETTYPE_UNDEF);
    uint8_t outside[4];
    assert_true(tern_pktbuf_contains(&f->pb, pkt));
    assert_true(tern_pktbuf_contains(&f->pb, pkt->data));
    assert_true(tern_pktbuf_contains(&f->pb, f->storage));
    assert_true(tern_pktbuf_contains(&f->pb, f->storage + ARENA_SIZE - 1));
    assert_false(tern_pktbuf_contains(&f->pb, f->storage + ARENA_SIZE));
    assert_false(tern_pktbuf_contains(&f->pb, outside));
    assert_false(tern_pktbuf_contains(&f->pb, NULL));
    assert_false(tern_pktbuf_contains(NULL, pkt));
    tern_pktbuf_release(&f->pb, pkt);
}

/* ------------------------------------------------------------ coalescing */

static void test_pktbuf_free__coalesces_both_neighbours(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *a = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_UNDEF);
    tern_pkt_t *b = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_UNDEF);
    tern_pkt_t *c = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_UNDEF);
    assert_int_equal(free_chunk_count(f), 1);
    tern_pktbuf_release(&f->pb, a); /* [free a][b][c][free] */
    assert_int_equal(free_chunk_count(f), 2);
    tern_pktbuf_release(&f->pb, c); /* c joins the tail */
    assert_int_equal(free_chunk_count(f), 2);
    assert_int_equal(chunk_size(f, 0), DESC);
    tern_pktbuf_release(&f->pb, b); /* joins both */
    assert_int_equal(free_chunk_count(f), 1);
}

static void test_pktbuf_free__coalesces_in_every_order(void **state)
{
    fixture_t *f = *state;
    enum { N = 5 };
    int perm[N] = { 0, 1, 2, 3, 4 };
    int c[N] = { 0 };
    int permutations = 0;
    /* Heap's algorithm: every order of freeing five snips */
    for (int i = 0;;) {
        tern_pkt_t *snips[N];
        for (int k = 0; k < N; k++) {
            snips[k] = add_pattern(f, NULL, (size_t)(k * 9 + 1), (uint8_t)k, TERN_NETTYPE_UNDEF);
        }
        for (int k = 0; k < N; k++) {
            tern_pktbuf_release(&f->pb, snips[perm[k]]);
            assert_int_equal(tern_pktbuf_check(&f->pb), 0);
        }
        assert_true(tern_pktbuf_is_empty(&f->pb));
        permutations++;
        while (i < N && c[i] >= i) {
            c[i] = 0;
            i++;
        }
        if (i >= N) {
            break;
        }
        int j = (i % 2 == 0) ? 0 : c[i];
        int tmp = perm[j];
        perm[j] = perm[i];
        perm[i] = tmp;
        c[i]++;
        i = 1;
    }
    assert_int_equal(permutations, 120);
}

/* ------------------------------------------------------------ check */

static void test_pktbuf_check__detects_corrupted_free_list(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *a = add_pattern(f, NULL, 8, 1, TERN_NETTYPE_UNDEF);
    tern_pkt_t *b = add_pattern(f, NULL, 8, 1, TERN_NETTYPE_UNDEF);
    tern_pkt_t *c = add_pattern(f, NULL, 8, 1, TERN_NETTYPE_UNDEF);
    tern_pktbuf_release(&f->pb, b); /* free list: [b] -> [tail] */
    assert_int_equal(free_chunk_count(f), 2);
    const uint32_t first = f->pb.free_head;
    const uint32_t tail = chunk_next(f, first);
    const uint32_t first_size = chunk_size(f, first);
    const uint32_t tail_size = chunk_size(f, tail);
    const uint32_t size = f->pb.size;
    const tern_pktbuf_t saved = f->pb;
    assert_int_equal(tern_pktbuf_check(&f->pb), 0);

    struct {
        uint32_t first_next, first_size, tail_next, tail_size;
        uint32_t free_head;
        size_t used_delta;
    } cases[] = {
        { tail, 0, size, tail_size, first, 0 },                      /* size 0 */
        { tail, first_size + 4, size, tail_size, first, 0 },         /* unaligned size */
        { tail + 4, first_size, size, tail_size, first, 0 },         /* unaligned offset */
        { size + 8, first_size, size, tail_size, first, 0 },         /* out of bounds */
        { tail, first_size, size, tail_size + 8, first, 0 },         /* chunk past the end */
        { tail, tail - first + 8, size, tail_size, first, 0 },       /* overlap */
        { tail, tail - first, size, tail_size, first, 0 },           /* adjacent: not coalesced */
        { tail, first_size, first, tail_size, first, 0 },            /* cycle */
        { size, first_size, first, tail_size, tail, 0 },             /* unsorted */
        { tail, first_size, size, tail_size, first + 4, 0 },         /* unaligned head */
        { tail, first_size, size, tail_size, first, UNIT },          /* used does not add up */
        { size, first_size, size, tail_size, first, 0 },             /* lost chunk */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        chunk_set(f, first, cases[i].first_next, cases[i].first_size);
        chunk_set(f, tail, cases[i].tail_next, cases[i].tail_size);
        f->pb.free_head = cases[i].free_head;
        f->pb.stats.used += cases[i].used_delta;
        assert_int_equal(tern_pktbuf_check(&f->pb), -EFAULT);
        /* restore */
        f->pb = saved;
        chunk_set(f, first, tail, first_size);
        chunk_set(f, tail, size, tail_size);
        assert_int_equal(tern_pktbuf_check(&f->pb), 0);
    }
    assert_int_equal(tern_pktbuf_check(NULL), -EFAULT);
    tern_pktbuf_release(&f->pb, a);
    tern_pktbuf_release(&f->pb, c);
}

/* ------------------------------------------------------------ lock */

static void test_pktbuf_lock__taken_once_per_call(void **state)
{
    fixture_t *f = *state;
    unsigned n = f->probe.acquired;
#define ONCE(call)                                    \
    do {                                              \
        call;                                         \
        assert_int_equal(f->probe.acquired, n + 1u); \
        assert_int_equal(f->probe.depth, 0);          \
        n = f->probe.acquired;                        \
    } while (0)
/* Only snips of count 1 looked at or changed (src/core/pktbuf.c, Locking). */
#define NONE(call)                                \
    do {                                          \
        call;                                     \
        assert_int_equal(f->probe.acquired, n);  \
        assert_int_equal(f->probe.depth, 0);      \
    } while (0)
    tern_pkt_t *orig = NULL;
    tern_pkt_t *pkt = NULL;
    tern_pkt_t *hdr = NULL;
    tern_pkt_t *same = NULL;
    ONCE(orig = tern_pktbuf_add(&f->pb, NULL, NULL, 64, TERN_NETTYPE_UNDEF));
    ONCE(assert_int_equal(tern_pktbuf_hold(&f->pb, orig, 1), 0));
    ONCE(pkt = tern_pktbuf_start_write(&f->pb, orig)); /* shared: copied */
    ONCE(tern_pktbuf_release(&f->pb, orig));
    NONE(same = tern_pktbuf_start_write(&f->pb, pkt)); /* private already */
    assert_ptr_equal(same, pkt);
    NONE(assert_int_equal(tern_pktbuf_trim_front(&f->pb, pkt, 8), 0)); /* kept as lead */
    ONCE(hdr = tern_pktbuf_mark(&f->pb, pkt, 8, TERN_NETTYPE_UDP));
    ONCE(assert_int_equal(tern_pktbuf_trim_front(&f->pb, pkt, 8), 0)); /* a unit given back */
    NONE(same = tern_pktbuf_start_write_upto(&f->pb, pkt, TERN_NETTYPE_UDP)); /* all private */
    assert_ptr_equal(same, pkt);
    ONCE(assert_int_equal(tern_pktbuf_hold(&f->pb, hdr, 1), 0));
    ONCE(pkt = tern_pktbuf_start_write_upto(&f->pb, pkt, TERN_NETTYPE_UDP)); /* hdr shared: copied */
    ONCE(tern_pktbuf_release(&f->pb, hdr)); /* the other holder's reference */
    ONCE(assert_int_equal(tern_pktbuf_realloc_data(&f->pb, pkt, 100), 0));
    ONCE(assert_int_equal(tern_pktbuf_merge(&f->pb, pkt), 0));
    ONCE(hdr = tern_pktbuf_add(&f->pb, NULL, NULL, 4, TERN_NETTYPE_UDP));
    ONCE(pkt = tern_pktbuf_replace_snip(&f->pb, pkt, pkt, hdr));
    ONCE(hdr = tern_pktbuf_add(&f->pb, pkt, NULL, 4, TERN_NETTYPE_IPV6));
    ONCE(pkt = tern_pktbuf_remove_snip(&f->pb, hdr, hdr));
    ONCE((void)tern_pktbuf_stats(&f->pb));
    ONCE((void)tern_pktbuf_is_empty(&f->pb));
    ONCE((void)tern_pktbuf_check(&f->pb));
    ONCE(tern_pktbuf_release_error(&f->pb, pkt, -EIO));
    pkt = tern_pktbuf_add(&f->pb, NULL, NULL, 4, TERN_NETTYPE_UDP);
    n = f->probe.acquired;
    ONCE(tern_pktbuf_release(&f->pb, pkt));
#undef ONCE
#undef NONE
    (void)tern_pktbuf_contains(&f->pb, pkt); /* reads constant fields: no lock */
    assert_int_equal(f->probe.acquired, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_pktbuf_init__NULL_arguments),
        T(test_pktbuf_init__misaligned_storage),
        T(test_pktbuf_init__size_limits),
        T(test_pktbuf_init__rounds_size_down),
        T(test_pktbuf_add__copies_data),
        T(test_pktbuf_add__data_NULL),
        T(test_pktbuf_add__size_0),
        T(test_pktbuf_add__links_next),
        T(test_pktbuf_add__too_big),
        T(test_pktbuf_add__pb_NULL),
        T(test_pktbuf_add__exhaustion_leaves_next_owned),
        T(test_pktbuf_add__exhaustion_no_descriptor),
        T(test_pktbuf_add_pair__one_chunk_each_freed_alone),
        T(test_pktbuf_add_pair__split_when_no_chunk_holds_both),
        T(test_pktbuf_release__pair_in_one_piece),
        T(test_pktbuf_release__pair_with_shared_or_other_next),
        T(test_pktbuf_add_pair__arguments_and_exhaustion),
        T(test_pktbuf_add_pair_to_fill__bytes_left_as_they_were),
        T(test_pktbuf_hold__every_snip),
        T(test_pktbuf_hold__NULL),
        T(test_pktbuf_hold__up_to_255),
        T(test_pktbuf_hold__overflow_changes_nothing),
        T(test_pktbuf_release__NULL_ignored),
        T(test_pktbuf_release__frees_whole_list),
        T(test_pktbuf_release__held_snips_stay),
        T(test_pktbuf_release__figure_3_3b_copy_released_first),
        T(test_pktbuf_release__figure_3_3b_original_released_first),
        T(test_pktbuf_release__figure_3_3a_multicast),
        T(test_pktbuf_release_error__calls_every_hook),
        T(test_pktbuf_release_error__err_0_not_counted),
        T(test_pktbuf_release_error__shared_snips_stay),
        T(test_pktbuf_release_error__short_or_empty_neterr_ignored),
        T(test_pktbuf_release_error__NULL),
        T(test_pktbuf_mark__aligned_split_in_place),
        T(test_pktbuf_mark__unaligned_copies_header),
        T(test_pktbuf_mark__unaligned_frees_whole_units_before_payload),
        T(test_pktbuf_mark__after_unaligned_mark),
        T(test_pktbuf_mark__invalid_size),
        T(test_pktbuf_mark__NULL),
        T(test_pktbuf_mark__shared),
        T(test_pktbuf_mark__exhaustion),
        T(test_pktbuf_mark__exhaustion_after_descriptor),
        T(test_pktbuf_trim_front__keeps_the_bytes_until_release),
        T(test_pktbuf_trim_front__lead_given_back_by_mark_and_move),
        T(test_pktbuf_trim_front__unaligned_frees_whole_units_before_payload),
        T(test_pktbuf_trim_front__same_bytes_as_mark_then_remove),
        T(test_pktbuf_trim_front__invalid_NULL_shared),
        T(test_pktbuf_start_write__single_user_same_pointer),
        T(test_pktbuf_start_write__private_head_shared_tail),
        T(test_pktbuf_start_write__empty_shared_snip),
        T(test_pktbuf_start_write__exhaustion),
        T(test_pktbuf_start_write__NULL),
        T(test_pktbuf_start_write_upto__type_missing),
        T(test_pktbuf_start_write_upto__all_private),
        T(test_pktbuf_start_write_upto__duplicates_shared_path),
        T(test_pktbuf_start_write_upto__target_is_head),
        T(test_pktbuf_start_write_upto__exhaustion_changes_nothing),
        T(test_pktbuf_start_write_upto__NULL),
        T(test_pktbuf_realloc_data__shrink),
        T(test_pktbuf_realloc_data__shrink_to_0),
        T(test_pktbuf_realloc_data__grow_from_0),
        T(test_pktbuf_realloc_data__grow_within_unit_zeroes),
        T(test_pktbuf_realloc_data__grow_in_place),
        T(test_pktbuf_realloc_data__grow_in_place_exact_fit),
        T(test_pktbuf_realloc_data__grow_by_moving),
        T(test_pktbuf_realloc_data__enomem_unchanged),
        T(test_pktbuf_realloc_data__invalid),
        T(test_pktbuf_realloc_data__unaligned_data),
        T(test_pktbuf_merge__concatenates_in_order),
        T(test_pktbuf_merge__in_place),
        T(test_pktbuf_merge__moves_head_data),
        T(test_pktbuf_merge__single_snip),
        T(test_pktbuf_merge__empty_snips),
        T(test_pktbuf_merge__empty_head),
        T(test_pktbuf_merge__shared),
        T(test_pktbuf_merge__enomem_unchanged),
        T(test_pktbuf_merge__longer_than_65535),
        T(test_pktbuf_merge__NULL),
        T(test_pktbuf_remove_snip__head),
        T(test_pktbuf_remove_snip__middle),
        T(test_pktbuf_remove_snip__tail_and_only_snip),
        T(test_pktbuf_remove_snip__not_present),
        T(test_pktbuf_remove_snip__shared_snip_after_private),
        T(test_pktbuf_remove_snip__shared_head),
        T(test_pktbuf_replace_snip__shared_snip_after_private),
        T(test_pktbuf_replace_snip__middle),
        T(test_pktbuf_replace_snip__head),
        T(test_pktbuf_replace_snip__not_present_or_invalid),
        T(test_pktbuf_stats__used_and_high_water),
        T(test_pktbuf_stats__alloc_fail_counts_every_refusal),
        T(test_pktbuf_stats__NULL),
        T(test_pktbuf_is_empty__states),
        T(test_pktbuf_contains__bounds),
        T(test_pktbuf_free__coalesces_both_neighbours),
        T(test_pktbuf_free__coalesces_in_every_order),
        T(test_pktbuf_check__detects_corrupted_free_list),
        T(test_pktbuf_lock__taken_once_per_call),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
