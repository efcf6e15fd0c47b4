/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 6LoWPAN reassembly (RFC 4944 §5.3): order, duplicates, overlap, size
 *        mismatch, invalid fragments, tag reuse, several senders, table full,
 *        timeout, pktbuf exhaustion; the pktbuf is clean after every test.
 *
 * Fragments are slices of a known datagram (dgram_a / dgram_b), so every
 * datagram that comes out is compared byte for byte with what was sent.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/nettype.h"
#include "tern/pktbuf.h"
#include "tern/sixlowpan/reass.h"

#define SEC 1000000ull
#define TIMEOUT_US ((uint64_t)TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS * 1000u)
#define ARENA 8192u

static TERN_PKTBUF_STORAGE(arena, ARENA);
static tern_pktbuf_t pb;
static tern_sixlowpan_reass_t r;
static uint8_t dgram_a[TERN_SIXLOWPAN_REASS_SIZE_MAX];
static uint8_t dgram_b[TERN_SIXLOWPAN_REASS_SIZE_MAX];

static const uint8_t EUI_A[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x0a };
static const uint8_t EUI_B[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x0b };
static const uint8_t EUI_ME[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t SHORT_A[2] = { 0x00, 0x0a };

static int setup(void **state)
{
    (void)state;
    assert_int_equal(tern_pktbuf_init(&pb, arena, sizeof(arena), NULL), 0);
    assert_int_equal(tern_sixlowpan_reass_init(&r, &pb), 0);
    for (size_t i = 0; i < sizeof(dgram_a); i++) {
        dgram_a[i] = (uint8_t)(i * 7u + 3u);
        dgram_b[i] = (uint8_t)(0xffu - i * 13u);
    }
    return 0;
}

/* Whatever a test left in progress goes; anything else still allocated leaked. */
static int teardown(void **state)
{
    (void)state;
    (void)tern_sixlowpan_reass_flush(&r);
    harness_assert_pktbuf_clean(&pb);
    return 0;
}

static tern_sixlowpan_reass_key_t key_of(const uint8_t *src, size_t src_len, uint16_t tag)
{
    tern_sixlowpan_reass_key_t k;
    assert_int_equal(tern_sixlowpan_reass_key_set(&k, src, src_len, EUI_ME, sizeof(EUI_ME), tag), 0);
    return k;
}

static tern_pkt_t *add(const tern_sixlowpan_reass_key_t *k, const uint8_t *dgram, size_t size, size_t off,
                       size_t len, uint64_t now)
{
    return tern_sixlowpan_reass_add(&r, k, size, off, dgram + off, len, now);
}

/* The datagram @p pkt is the first @p size bytes of @p dgram; released. */
static void assert_datagram(tern_pkt_t *pkt, const uint8_t *dgram, size_t size)
{
    assert_non_null(pkt);
    assert_null(pkt->next);
    assert_int_equal(pkt->type, TERN_NETTYPE_IPV6);
    assert_int_equal(pkt->users, 1);
    assert_int_equal(pkt->size, size);
    assert_memory_equal(pkt->data, dgram, size);
    tern_pktbuf_release(&pb, pkt);
}

static uint32_t ctr(tern_sixlowpan_reass_stat_t which)
{
    return r.counters[which];
}

/* ---- Order ------------------------------------------------------------------------ */

static void test_tern_sixlowpan_reass_add__in_order(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 7);
    /* 300 octets in 96 + 96 + 96 + 12. */
    assert_null(add(&k, dgram_a, 300, 0, 96, 0));
    assert_int_equal(tern_sixlowpan_reass_count(&r), 1);
    assert_null(add(&k, dgram_a, 300, 96, 96, 1));
    assert_null(add(&k, dgram_a, 300, 192, 96, 2));
    assert_datagram(add(&k, dgram_a, 300, 288, 12, 3), dgram_a, 300);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 0);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_COMPLETE), 1);
    assert_int_equal(tern_sixlowpan_reass_next_deadline(&r), UINT64_MAX);
}

static void test_tern_sixlowpan_reass_add__reverse_order(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 7);
    /* 1280 octets in 160 pieces of 8, the last piece first. */
    for (size_t off = 1272; off > 0; off -= 8) {
        assert_null(add(&k, dgram_a, 1280, off, 8, 0));
    }
    assert_datagram(add(&k, dgram_a, 1280, 0, 8, 0), dgram_a, 1280);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_COMPLETE), 1);
}

static void test_tern_sixlowpan_reass_add__reverse_order_uneven_pieces(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 9);
    /* 1000 octets: 1000 = 7 x 136 + 48; last piece first. */
    assert_null(add(&k, dgram_b, 1000, 952, 48, 0));
    for (size_t i = 7; i > 1; i--) {
        assert_null(add(&k, dgram_b, 1000, (i - 1) * 136, 136, 0));
    }
    assert_datagram(add(&k, dgram_b, 1000, 0, 136, 0), dgram_b, 1000);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_DUPLICATE), 0);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 0);
}

static uint32_t rng_state;

static uint32_t rng(void)
{
    /* xorshift32 (Marsaglia 2003): deterministic per seed. */
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rng_state = x;
    return x;
}

static void test_tern_sixlowpan_reass_add__random_order_seeded(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 200; seed++) {
        rng_state = seed * 2654435761u;
        size_t size = 1u + rng() % TERN_SIXLOWPAN_REASS_SIZE_MAX;
        /* Cut into fragments of random multiples of 8 (8..128). */
        size_t off[260];
        size_t len[260];
        size_t n = 0;
        for (size_t pos = 0; pos < size; n++) {
            size_t l = 8u * (1u + rng() % 16u);
            len[n] = (pos + l > size) ? size - pos : l;
            off[n] = pos;
            pos += len[n];
        }
        for (size_t i = n; i > 1; i--) { /* Fisher-Yates */
            size_t j = rng() % i;
            size_t o = off[i - 1], l = len[i - 1];
            off[i - 1] = off[j];
            len[i - 1] = len[j];
            off[j] = o;
            len[j] = l;
        }
        tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, (uint16_t)seed);
        uint32_t dups = 0;
        for (size_t i = 0; i + 1 < n; i++) {
            assert_null(add(&k, dgram_a, size, off[i], len[i], i));
            if (rng() % 4 == 0) { /* and now and then a piece again */
                assert_null(add(&k, dgram_a, size, off[i], len[i], i));
                dups++;
            }
        }
        uint32_t before = ctr(TERN_SIXLOWPAN_REASS_DUPLICATE);
        assert_datagram(add(&k, dgram_a, size, off[n - 1], len[n - 1], n), dgram_a, size);
        assert_int_equal(before, ctr(TERN_SIXLOWPAN_REASS_DUPLICATE));
        assert_int_equal(tern_sixlowpan_reass_count(&r), 0);
        harness_assert_pktbuf_clean(&pb);
        (void)dups;
    }
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_COMPLETE), 200);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 0);
}

static void test_tern_sixlowpan_reass_add__single_fragment_is_whole(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 1);
    assert_datagram(add(&k, dgram_a, 77, 0, 77, 0), dgram_a, 77);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_COMPLETE), 1);
}

/* ---- Duplicates and overlaps ------------------------------------------------------ */

static void test_tern_sixlowpan_reass_add__duplicates_ignored(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 2);
    assert_null(add(&k, dgram_a, 100, 0, 48, 0));
    assert_null(add(&k, dgram_a, 100, 0, 48, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_DUPLICATE), 1);
    /* The same extent with other bytes is a duplicate too (RFC 4944 §5.3 tells
     * pieces apart by offset and size): the first copy stays. */
    uint8_t junk[48];
    memset(junk, 0xee, sizeof(junk));
    assert_null(tern_sixlowpan_reass_add(&r, &k, 100, 0, junk, 48, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_DUPLICATE), 2);
    /* The last piece ends inside a unit; repeating it is a duplicate as well. */
    assert_null(add(&k, dgram_a, 100, 96, 4, 0));
    assert_null(add(&k, dgram_a, 100, 96, 4, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_DUPLICATE), 3);
    assert_datagram(add(&k, dgram_a, 100, 48, 48, 0), dgram_a, 100);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 0);
}

static void test_tern_sixlowpan_reass_add__duplicate_of_each_adjacent_piece(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 3);
    assert_null(add(&k, dgram_a, 200, 0, 48, 0));
    assert_null(add(&k, dgram_a, 200, 48, 48, 0));
    assert_null(add(&k, dgram_a, 200, 48, 48, 0));
    assert_null(add(&k, dgram_a, 200, 0, 48, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_DUPLICATE), 2);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 0);
    /* Both pieces at once are not a piece that was received: overlap. */
    assert_null(add(&k, dgram_a, 200, 0, 96, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 1);
}

static void test_tern_sixlowpan_reass_add__overlap_discards_and_restarts(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 4);
    assert_null(add(&k, dgram_a, 300, 0, 96, 0));
    assert_null(add(&k, dgram_a, 300, 96, 96, 0));
    /* [48, 144) straddles both: discard, and a fresh reassembly starts with it
     * (RFC 4944 §5.3). */
    assert_null(add(&k, dgram_a, 300, 48, 96, 5 * SEC));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 1);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 1);
    /* The restarted datagram's timer starts with the fragment that restarted it. */
    assert_int_equal(tern_sixlowpan_reass_next_deadline(&r), 5 * SEC + TIMEOUT_US);
    /* [0, 96) now overlaps [48, 144) again. */
    assert_null(add(&k, dgram_a, 300, 0, 96, 6 * SEC));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 2);
    /* Now only [0, 96) is held: the rest completes it. */
    assert_null(add(&k, dgram_a, 300, 96, 200, 7 * SEC));
    assert_datagram(add(&k, dgram_a, 300, 296, 4, 7 * SEC), dgram_a, 300);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_COMPLETE), 1);
}

static void test_tern_sixlowpan_reass_add__overlap_same_start_other_length(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 5);
    assert_null(add(&k, dgram_a, 300, 96, 96, 0));
    assert_null(add(&k, dgram_a, 300, 96, 104, 0)); /* longer */
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 1);
    assert_null(add(&k, dgram_a, 300, 96, 8, 0)); /* shorter, inside [96, 200) */
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 2);
    assert_null(add(&k, dgram_a, 300, 104, 8, 0)); /* inside, other start */
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 2); /* [96,104) then [104,112): adjacent, fine */
    assert_null(add(&k, dgram_a, 300, 88, 16, 0)); /* over the start of [96, 104) */
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 3);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_DUPLICATE), 0);
}

/* Pieces after the furthest one received meet nothing; an earlier piece
 * arriving later must not make the table forget how far the others reach. */
static void test_tern_sixlowpan_reass_add__overlap_after_a_later_earlier_piece(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 6);
    assert_null(add(&k, dgram_a, 300, 192, 96, 0));
    assert_null(add(&k, dgram_a, 300, 0, 96, 0));
    /* [200, 288) lies inside [192, 288): an overlap, though it starts after
     * the end of the piece received last. */
    assert_null(add(&k, dgram_a, 300, 200, 88, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 1);
    /* The restarted datagram holds [200, 288) alone: a piece past it is new,
     * and its repetition a duplicate. */
    assert_null(add(&k, dgram_a, 300, 288, 12, 0));
    assert_null(add(&k, dgram_a, 300, 288, 12, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_DUPLICATE), 1);
    assert_datagram(add(&k, dgram_a, 300, 0, 200, 0), dgram_a, 300);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 1);
}

/* ---- Inconsistent fragments ------------------------------------------------------- */

static void test_tern_sixlowpan_reass_add__size_mismatch_discards_and_restarts(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 6);
    assert_null(add(&k, dgram_a, 300, 0, 96, 0));
    assert_null(add(&k, dgram_a, 300, 96, 96, 0));
    /* Same source, destination and tag, another datagram_size. */
    assert_null(add(&k, dgram_b, 400, 192, 96, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_SIZE_MISMATCH), 1);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 1);
    /* The 400-octet datagram completes from its own pieces only. */
    assert_null(add(&k, dgram_b, 400, 0, 192, 0));
    assert_datagram(add(&k, dgram_b, 400, 288, 112, 0), dgram_b, 400);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_COMPLETE), 1);
}

static void test_tern_sixlowpan_reass_add__beyond_datagram_size(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 7);
    assert_null(add(&k, dgram_a, 100, 0, 48, 0));
    /* [96, 104) of a 100-octet datagram: the datagram goes with it. */
    assert_null(add(&k, dgram_a, 100, 96, 8, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_INVALID), 1);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 0);
    /* Starting beyond it, or at it, with nothing held: dropped alone. */
    assert_null(add(&k, dgram_a, 100, 104, 8, 0));
    assert_null(add(&k, dgram_a, 100, 100, 0, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_INVALID), 3);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 0);
}

static void test_tern_sixlowpan_reass_add__invalid_fragments(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 8);
    /* Each is dropped and discards the datagram in progress. */
    struct { size_t size, off, len; } bad[] = {
        { 100, 0, 50 },   /* ends at 50 < 100, not on a unit: RFC 4944 §5.3 multiples of 8 */
        { 100, 4, 8 },    /* offset not a multiple of 8 */
        { 100, 8, 0 },    /* empty */
        { 0, 0, 8 },      /* datagram_size 0 */
        { TERN_SIXLOWPAN_REASS_SIZE_MAX + 1u, 0, 8 }, /* above the largest accepted (2047: needs 12 bits) */
        { 100, 96, 5 },   /* beyond */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_null(add(&k, dgram_a, 300, 0, 96, 0)); /* something to lose */
        assert_int_equal(tern_sixlowpan_reass_count(&r), 1);
        assert_null(tern_sixlowpan_reass_add(&r, &k, bad[i].size, bad[i].off, dgram_a, bad[i].len, 0));
        assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_INVALID), i + 1);
        assert_int_equal(tern_sixlowpan_reass_count(&r), 0);
    }
    /* The largest datagram is fine (2047; 1280 when so configured: the 6LoWPAN MTU), its last piece too. */
    size_t max = TERN_SIXLOWPAN_REASS_SIZE_MAX, first = (max - 1u) / 8u * 8u;
    assert_null(add(&k, dgram_a, max, 0, first, 0));
    assert_datagram(add(&k, dgram_a, max, first, max - first, 0), dgram_a, max);
}

static void test_tern_sixlowpan_reass_add__bad_arguments(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 8);
    assert_null(tern_sixlowpan_reass_add(NULL, &k, 100, 0, dgram_a, 8, 0));
    assert_null(tern_sixlowpan_reass_add(&r, NULL, 100, 0, dgram_a, 8, 0));
    assert_null(tern_sixlowpan_reass_add(&r, &k, 100, 0, NULL, 8, 0));
    tern_sixlowpan_reass_key_t wide = k;
    wide.src_len = TERN_CONF_L2ADDR_MAX + 1;
    assert_null(tern_sixlowpan_reass_add(&r, &wide, 100, 0, dgram_a, 8, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_INVALID), 3);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 0);
    uint8_t long_addr[TERN_CONF_L2ADDR_MAX + 1] = { 0 };
    assert_int_equal(tern_sixlowpan_reass_key_set(&k, long_addr, sizeof(long_addr), EUI_ME, 8, 1), -EINVAL);
    assert_int_equal(tern_sixlowpan_reass_key_set(&k, NULL, 2, EUI_ME, 8, 1), -EINVAL);
    assert_int_equal(tern_sixlowpan_reass_key_set(NULL, EUI_A, 8, EUI_ME, 8, 1), -EINVAL);
    assert_int_equal(tern_sixlowpan_reass_init(NULL, &pb), -EINVAL);
    assert_int_equal(tern_sixlowpan_reass_init(&r, NULL), -EINVAL);
}

/* ---- Keys ------------------------------------------------------------------------- */

/* key_set() gives the same bytes for every address length (the compare is
 * over the whole key, reass.h), and lengths tell keys apart. */
static void test_tern_sixlowpan_reass_key_set__every_length(void **state)
{
    (void)state;
    const size_t lens[] = { 0, 1, 2, 6, 8, TERN_CONF_L2ADDR_MAX };
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        tern_sixlowpan_reass_key_t k;
        memset(&k, 0xee, sizeof(k));
        uint8_t addr[TERN_CONF_L2ADDR_MAX];
        for (size_t b = 0; b < sizeof(addr); b++) {
            addr[b] = (uint8_t)(0x10 + b);
        }
        assert_int_equal(tern_sixlowpan_reass_key_set(&k, addr, lens[i], EUI_ME, 2, 0x1234), 0);
        tern_sixlowpan_reass_key_t expected;
        memset(&expected, 0, sizeof(expected));
        memcpy(expected.src, addr, lens[i]);
        memcpy(expected.dst, EUI_ME, 2);
        expected.src_len = (uint8_t)lens[i];
        expected.dst_len = 2;
        expected.tag = 0x1234;
        assert_memory_equal(&k, &expected, sizeof(k));
    }
    /* a short address and an extended one that starts with its bytes */
    const uint8_t ext[8] = { 0xab, 0xcd, 0, 0, 0, 0, 0, 0 };
    tern_sixlowpan_reass_key_t k2 = key_of(ext, 2, 5);
    tern_sixlowpan_reass_key_t k8 = key_of(ext, 8, 5);
    assert_null(add(&k2, dgram_a, 16, 0, 8, 0));
    assert_null(add(&k8, dgram_b, 16, 0, 8, 0));
    assert_int_equal(tern_sixlowpan_reass_count(&r), 2);
    assert_datagram(add(&k2, dgram_a, 16, 8, 8, 0), dgram_a, 16);
    assert_datagram(add(&k8, dgram_b, 16, 8, 8, 0), dgram_b, 16);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP), 0);
}

static void test_tern_sixlowpan_reass_add__tag_reuse_after_completion(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 0xffff);
    assert_null(add(&k, dgram_a, 200, 0, 96, 0));
    assert_datagram(add(&k, dgram_a, 200, 96, 104, 0), dgram_a, 200);
    /* The same tag again (the sender wrapped, RFC 4944 §5.3): a new datagram,
     * nothing of the old one left, even the same pieces are no duplicates. */
    assert_null(add(&k, dgram_b, 200, 96, 104, 1));
    assert_datagram(add(&k, dgram_b, 200, 0, 96, 1), dgram_b, 200);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_COMPLETE), 2);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_DUPLICATE), 0);
}

static void test_tern_sixlowpan_reass_add__interleaved_sources_same_tag(void **state)
{
    (void)state;
    if (TERN_CONF_SIXLOWPAN_REASS_SLOTS < 3) {
        skip(); /* three datagrams at once */
    }
    /* Two senders use tag 42 for datagrams of the same size at the same time. */
    tern_sixlowpan_reass_key_t ka = key_of(EUI_A, 8, 42);
    tern_sixlowpan_reass_key_t kb = key_of(EUI_B, 8, 42);
    /* A third with a short address whose bytes begin like nothing else. */
    tern_sixlowpan_reass_key_t ks = key_of(SHORT_A, 2, 42);
    for (size_t off = 0; off < 480; off += 96) {
        assert_null(add(&ka, dgram_a, 500, off, 96, 0));
        assert_null(add(&kb, dgram_b, 500, 480 - off, off == 0 ? 20 : 96, 0));
        assert_null(add(&ks, dgram_b, 500, off, 96, 0));
    }
    assert_int_equal(tern_sixlowpan_reass_count(&r), 3);
    assert_datagram(add(&ka, dgram_a, 500, 480, 20, 0), dgram_a, 500);
    assert_datagram(add(&kb, dgram_b, 500, 0, 96, 0), dgram_b, 500);
    assert_datagram(add(&ks, dgram_b, 500, 480, 20, 0), dgram_b, 500);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_COMPLETE), 3);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_OVERLAP) + ctr(TERN_SIXLOWPAN_REASS_DUPLICATE), 0);
}

static void test_tern_sixlowpan_reass_add__destination_is_part_of_the_key(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k1;
    tern_sixlowpan_reass_key_t k2;
    const uint8_t bcast[2] = { 0xff, 0xff };
    assert_int_equal(tern_sixlowpan_reass_key_set(&k1, EUI_A, 8, EUI_ME, 8, 5), 0);
    assert_int_equal(tern_sixlowpan_reass_key_set(&k2, EUI_A, 8, bcast, 2, 5), 0);
    assert_null(tern_sixlowpan_reass_add(&r, &k1, 100, 0, dgram_a, 96, 0));
    assert_null(tern_sixlowpan_reass_add(&r, &k2, 100, 0, dgram_b, 96, 0));
    assert_int_equal(tern_sixlowpan_reass_count(&r), 2);
    assert_datagram(tern_sixlowpan_reass_add(&r, &k2, 100, 96, dgram_b + 96, 4, 0), dgram_b, 100);
    assert_datagram(tern_sixlowpan_reass_add(&r, &k1, 100, 96, dgram_a + 96, 4, 0), dgram_a, 100);
}

/* ---- Table full ------------------------------------------------------------------- */

static void test_tern_sixlowpan_reass_add__table_full_evicts_oldest(void **state)
{
    (void)state;
    if (TERN_CONF_SIXLOWPAN_REASS_SLOTS < 3) {
        skip(); /* the checks below follow three datagrams through two evictions */
    }
    tern_sixlowpan_reass_key_t k[TERN_CONF_SIXLOWPAN_REASS_SLOTS + 1];
    for (uint16_t i = 0; i <= TERN_CONF_SIXLOWPAN_REASS_SLOTS; i++) {
        k[i] = key_of(EUI_A, 8, (uint16_t)(100 + i));
    }
    /* Fill the table, one datagram a second; the first is the oldest. */
    for (uint16_t i = 0; i < TERN_CONF_SIXLOWPAN_REASS_SLOTS; i++) {
        assert_null(add(&k[i], dgram_a, 200, 0, 96, i * SEC));
    }
    assert_int_equal(tern_sixlowpan_reass_count(&r), TERN_CONF_SIXLOWPAN_REASS_SLOTS);
    /* A later fragment of an old datagram does not make it younger. */
    assert_null(add(&k[0], dgram_a, 200, 96, 96, 30 * SEC));
    /* One more datagram: the oldest (k[0]) makes room. */
    assert_null(add(&k[TERN_CONF_SIXLOWPAN_REASS_SLOTS], dgram_b, 200, 0, 96, 31 * SEC));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_EVICTED), 1);
    assert_int_equal(tern_sixlowpan_reass_count(&r), TERN_CONF_SIXLOWPAN_REASS_SLOTS);
    /* Its last piece now starts a new datagram (evicting the next oldest)
     * instead of completing the old one. */
    assert_null(add(&k[0], dgram_a, 200, 192, 8, 32 * SEC));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_EVICTED), 2);
    /* The others are intact: k[2] still completes. */
    assert_datagram(add(&k[2], dgram_a, 200, 96, 104, 33 * SEC), dgram_a, 200);
    assert_datagram(add(&k[TERN_CONF_SIXLOWPAN_REASS_SLOTS], dgram_b, 200, 96, 104, 33 * SEC), dgram_b, 200);
}

/* ---- Time ------------------------------------------------------------------------- */

static void test_tern_sixlowpan_reass_expire__timeout_from_first_fragment(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 11);
    uint64_t t0 = 1000 * SEC;
    assert_int_equal(tern_sixlowpan_reass_expire(&r, t0), UINT64_MAX);
    assert_null(add(&k, dgram_a, 300, 0, 96, t0));
    assert_int_equal(tern_sixlowpan_reass_next_deadline(&r), t0 + TIMEOUT_US);
    /* More fragments later do not move the deadline (RFC 4944 §5.3). */
    assert_null(add(&k, dgram_a, 300, 96, 96, t0 + TIMEOUT_US / 2));
    assert_int_equal(tern_sixlowpan_reass_expire(&r, t0 + TIMEOUT_US - 1), t0 + TIMEOUT_US);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 1);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_TIMEOUT), 0);
    assert_int_equal(tern_sixlowpan_reass_expire(&r, t0 + TIMEOUT_US), UINT64_MAX);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 0);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_TIMEOUT), 1);
    harness_assert_pktbuf_clean(&pb);
    /* The missing piece arrives late: a new, incomplete datagram. */
    assert_null(add(&k, dgram_a, 300, 192, 108, t0 + TIMEOUT_US + 1));
    assert_int_equal(tern_sixlowpan_reass_count(&r), 1);
}

static void test_tern_sixlowpan_reass_expire__earliest_of_several(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k1 = key_of(EUI_A, 8, 1);
    tern_sixlowpan_reass_key_t k2 = key_of(EUI_B, 8, 1);
    assert_null(add(&k1, dgram_a, 300, 0, 96, 10 * SEC));
    assert_null(add(&k2, dgram_b, 300, 0, 96, 20 * SEC));
    assert_int_equal(tern_sixlowpan_reass_next_deadline(&r), 10 * SEC + TIMEOUT_US);
    assert_int_equal(tern_sixlowpan_reass_expire(&r, 10 * SEC + TIMEOUT_US), 20 * SEC + TIMEOUT_US);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 1);
    /* k2 is untouched and completes. */
    assert_datagram(add(&k2, dgram_b, 300, 96, 204, 21 * SEC), dgram_b, 300);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_TIMEOUT), 1);
}

/* ---- pktbuf ----------------------------------------------------------------------- */

static void test_tern_sixlowpan_reass_add__pktbuf_exhausted(void **state)
{
    (void)state;
    /* Leave less room than a 1280-octet datagram needs. */
    tern_pkt_t *hog = tern_pktbuf_add(&pb, NULL, NULL, ARENA - 1024, TERN_NETTYPE_TEST);
    assert_non_null(hog);
    uint32_t fails = tern_pktbuf_stats(&pb).alloc_fail;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 12);
    assert_null(add(&k, dgram_a, 1280, 0, 96, 0));
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_NOMEM), 1);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 0);
    assert_int_equal(tern_pktbuf_stats(&pb).alloc_fail, fails + 1);
    /* A small datagram still fits. */
    tern_sixlowpan_reass_key_t k2 = key_of(EUI_B, 8, 12);
    assert_datagram(add(&k2, dgram_b, 200, 0, 200, 0), dgram_b, 200);
    tern_pktbuf_release(&pb, hog);
    /* With the room back, the big one reassembles. */
    assert_null(add(&k, dgram_a, 1280, 0, 640, 0));
    assert_datagram(add(&k, dgram_a, 1280, 640, 640, 0), dgram_a, 1280);
}

static void test_tern_sixlowpan_reass_flush__frees_everything(void **state)
{
    (void)state;
    for (uint16_t i = 0; i < TERN_CONF_SIXLOWPAN_REASS_SLOTS; i++) {
        tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, i);
        assert_null(add(&k, dgram_a, 1000, 0, 96, 0));
    }
    assert_false(tern_pktbuf_is_empty(&pb));
    assert_int_equal(tern_sixlowpan_reass_flush(&r), TERN_CONF_SIXLOWPAN_REASS_SLOTS);
    assert_int_equal(ctr(TERN_SIXLOWPAN_REASS_FLUSHED), TERN_CONF_SIXLOWPAN_REASS_SLOTS);
    assert_int_equal(tern_sixlowpan_reass_count(&r), 0);
    harness_assert_pktbuf_clean(&pb);
    assert_int_equal(tern_sixlowpan_reass_flush(&r), 0);
}

static void test_tern_sixlowpan_reass_init__stats_group(void **state)
{
    (void)state;
    assert_string_equal(r.stats.name, "6lo_reass");
    assert_int_equal(r.stats.count, TERN_SIXLOWPAN_REASS_STAT_NUMOF);
    assert_ptr_equal(r.stats.values, r.counters);
    assert_string_equal(r.stats.names[TERN_SIXLOWPAN_REASS_COMPLETE], "complete");
    assert_string_equal(r.stats.names[TERN_SIXLOWPAN_REASS_SIZE_MISMATCH], "size_mismatch");
    assert_string_equal(r.stats.names[TERN_SIXLOWPAN_REASS_FLUSHED], "flushed");
    for (unsigned i = 0; i < TERN_SIXLOWPAN_REASS_STAT_NUMOF; i++) {
        assert_non_null(r.stats.names[i]);
    }
}

/* Random fragments of a few keys, sizes and offsets, valid or not: whatever
 * happens, every slot's buffer is the only memory held, and after the
 * timeout nothing is. */
static void test_tern_sixlowpan_reass_add__random_soak_never_leaks(void **state)
{
    (void)state;
    rng_state = 0x6c6f7766u;
    uint64_t now = 0;
    static const size_t sizes[] = { 1, 8, 100, 300, 1280, TERN_SIXLOWPAN_REASS_SIZE_MAX };
    for (unsigned i = 0; i < 20000; i++) {
        tern_sixlowpan_reass_key_t k = key_of((rng() & 1) ? EUI_A : EUI_B, 8, (uint16_t)(rng() % 3));
        size_t size = sizes[rng() % 6];
        size_t off = 8u * (rng() % 40u);
        size_t len = (rng() % 8 == 0) ? rng() % 20u : 8u * (1u + rng() % 12u);
        if (rng() % 4 == 0 && off < size) {
            len = size - off; /* a last piece */
        }
        now += rng() % (2 * SEC);
        tern_pkt_t *p = add(&k, dgram_a, size, off, len, now);
        if (p != NULL) {
            assert_int_equal(p->size, size);
            assert_memory_equal(p->data, dgram_a, size); /* all pieces came from dgram_a */
            tern_pktbuf_release(&pb, p);
        }
        if (rng() % 64 == 0) {
            (void)tern_sixlowpan_reass_expire(&r, now);
        }
        assert_int_equal(tern_pktbuf_check(&pb), 0);
        assert_true(tern_sixlowpan_reass_count(&r) <= TERN_CONF_SIXLOWPAN_REASS_SLOTS);
    }
    assert_int_equal(tern_sixlowpan_reass_expire(&r, now + TIMEOUT_US), UINT64_MAX);
    harness_assert_pktbuf_clean(&pb);
    assert_true(ctr(TERN_SIXLOWPAN_REASS_COMPLETE) > 0);
    assert_true(ctr(TERN_SIXLOWPAN_REASS_OVERLAP) > 0);
    assert_true(ctr(TERN_SIXLOWPAN_REASS_SIZE_MISMATCH) > 0);
    assert_true(ctr(TERN_SIXLOWPAN_REASS_INVALID) > 0);
}

/* deadline_gen moves exactly when a datagram (and its deadline) enters or leaves the table. */
static void test_tern_sixlowpan_reass_add__deadline_gen(void **state)
{
    (void)state;
    tern_sixlowpan_reass_key_t k = key_of(EUI_A, 8, 21);
    uint32_t gen = r.deadline_gen;
    assert_null(add(&k, dgram_a, 64, 0, 16, 0)); /* starts */
    assert_int_equal(r.deadline_gen, gen + 1u);
    assert_null(add(&k, dgram_a, 64, 16, 16, 0)); /* goes on */
    assert_null(add(&k, dgram_a, 64, 16, 16, 0)); /* a duplicate */
    assert_int_equal(r.deadline_gen, gen + 1u);
    assert_datagram(add(&k, dgram_a, 64, 32, 32, 0), dgram_a, 64); /* ends */
    assert_int_equal(r.deadline_gen, gen + 2u);
    assert_null(add(&k, dgram_a, 64, 0, 16, 0));
    assert_int_equal(tern_sixlowpan_reass_expire(&r, (uint64_t)TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS * 1000u),
                     UINT64_MAX); /* discarded at its deadline */
    assert_int_equal(r.deadline_gen, gen + 4u);
    assert_null(add(&k, dgram_a, 64, 0, 16, 0));
    assert_int_equal(tern_sixlowpan_reass_flush(&r), 1);
    assert_int_equal(r.deadline_gen, gen + 6u);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_tern_sixlowpan_reass_add__in_order),
        T(test_tern_sixlowpan_reass_add__reverse_order),
        T(test_tern_sixlowpan_reass_add__reverse_order_uneven_pieces),
        T(test_tern_sixlowpan_reass_add__random_order_seeded),
        T(test_tern_sixlowpan_reass_add__single_fragment_is_whole),
        T(test_tern_sixlowpan_reass_add__duplicates_ignored),
        T(test_tern_sixlowpan_reass_add__duplicate_of_each_adjacent_piece),
        T(test_tern_sixlowpan_reass_add__overlap_discards_and_restarts),
        T(test_tern_sixlowpan_reass_add__overlap_same_start_other_length),
        T(test_tern_sixlowpan_reass_add__overlap_after_a_later_earlier_piece),
        T(test_tern_sixlowpan_reass_add__size_mismatch_discards_and_restarts),
        T(test_tern_sixlowpan_reass_add__beyond_datagram_size),
        T(test_tern_sixlowpan_reass_add__invalid_fragments),
        T(test_tern_sixlowpan_reass_add__bad_arguments),
        T(test_tern_sixlowpan_reass_key_set__every_length),
        T(test_tern_sixlowpan_reass_add__tag_reuse_after_completion),
        T(test_tern_sixlowpan_reass_add__interleaved_sources_same_tag),
        T(test_tern_sixlowpan_reass_add__destination_is_part_of_the_key),
        T(test_tern_sixlowpan_reass_add__table_full_evicts_oldest),
        T(test_tern_sixlowpan_reass_add__deadline_gen),
        T(test_tern_sixlowpan_reass_expire__timeout_from_first_fragment),
        T(test_tern_sixlowpan_reass_expire__earliest_of_several),
        T(test_tern_sixlowpan_reass_add__pktbuf_exhausted),
        T(test_tern_sixlowpan_reass_flush__frees_everything),
        T(test_tern_sixlowpan_reass_init__stats_group),
        T(test_tern_sixlowpan_reass_add__random_soak_never_leaks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
