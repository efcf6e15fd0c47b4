/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Golden-byte tests of the RPL Source Routing Header (RFC 6554).
 *
 * Vectors are laid out by hand from RFC 6554 §3; the derivation is next to
 * each. Wireshark 4.0 (tests/integration/test_tshark_rpl.py) reads the
 * emitted ones to the same CmprI, CmprE, Pad and full addresses.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/wire/ipv6.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ipv6_srh.h"

static tern_ipv6_addr_t addr(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

static void assert_addr(const tern_ipv6_addr_t *a, const char *text)
{
    tern_ipv6_addr_t b = addr(text);
    assert_memory_equal(a->u8, b.u8, 16);
}

/* The root 2001:db8::1 sends to 2001:db8::2 (the IPv6 destination, first
 * hop), then 2001:db8::1:3, then 2001:db8:0:1::4 (the final destination).
 *   2001:db8::2      = 2001 0db8 0000 0000 0000 0000 0000 0002
 *   2001:db8::1:3    = 2001 0db8 0000 0000 0000 0000 0001 0003: shares 13
 *                      octets with the destination -> CmprI 13, 3 octets 01 00 03
 *   2001:db8:0:1::4  = 2001 0db8 0000 0001 0000 0000 0000 0004: shares 7 octets
 *                      with the destination and with Address[1] -> CmprE 7,
 *                      9 octets 01 00 00 00 00 00 00 00 04
 * 3 + 9 = 12 octets of addresses, Pad 4 to reach 16; Hdr Ext Len 2 (24 octets).
 * Next Header 59, Routing Type 3, Segments Left 2, CmprI|CmprE = 0xD7,
 * Pad|Reserved = 0x40 0x00 0x00. Check of §3's formula: (2 * 8 - 4 - (16 - 7))
 * / (16 - 13) + 1 = 3 / 3 + 1 = 2 addresses. */
static const uint8_t srh[] = {
    0x3b, 0x02, 0x03, 0x02, 0xd7, 0x40, 0x00, 0x00,
    0x01, 0x00, 0x03,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
    0x00, 0x00, 0x00, 0x00,
};

/* After 2001:db8::2 processed it (§4.2): Segments Left 1, i = 2 - 1 = 1, the
 * destination becomes 2001:db8::1:3 and Address[1] holds the old one's last
 * 3 octets 00 00 02. */
static const uint8_t srh_hop1[] = {
    0x3b, 0x02, 0x03, 0x01, 0xd7, 0x40, 0x00, 0x00,
    0x00, 0x00, 0x02,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
    0x00, 0x00, 0x00, 0x00,
};

/* After 2001:db8::1:3: Segments Left 0, i = 2, the destination becomes
 * 2001:db8:0:1::4 and Address[2] holds 2001:db8::1:3's last 9 octets. */
static const uint8_t srh_hop2[] = {
    0x3b, 0x02, 0x03, 0x00, 0xd7, 0x40, 0x00, 0x00,
    0x00, 0x00, 0x02,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x03,
    0x00, 0x00, 0x00, 0x00,
};

/* 2001:db8::2 then ::3, ::4, ::5, all sharing 15 octets: CmprI = CmprE = 15,
 * 3 octets 03 04 05, Pad 5, Hdr Ext Len 1, Segments Left 3. */
static const uint8_t srh_near[] = { 0x3b, 0x01, 0x03, 0x03, 0xff, 0x50, 0x00, 0x00,
                                    0x03, 0x04, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00 };

static void test_tern_srh_parse__golden(void **state)
{
    (void)state;
    tern_srh_repr_t r;
    assert_int_equal(tern_srh_parse(&r, srh, sizeof(srh)), sizeof(srh));
    assert_int_equal(r.next_header, TERN_IPV6_NH_NONE);
    assert_int_equal(r.segments_left, 2);
    assert_int_equal(r.cmpr_i, 13);
    assert_int_equal(r.cmpr_e, 7);
    assert_int_equal(r.pad, 4);
    assert_int_equal(r.count, 2);
    assert_int_equal(r.len, 24);
    assert_ptr_equal(r.addrs, srh + 8);
    tern_ipv6_addr_t dst = addr("2001:db8::2");
    tern_ipv6_addr_t a;
    assert_int_equal(tern_srh_addr(&r, 1, &dst, &a), 0);
    assert_addr(&a, "2001:db8::1:3");
    assert_int_equal(tern_srh_addr(&r, 2, &dst, &a), 0);
    assert_addr(&a, "2001:db8:0:1::4");
    assert_int_equal(tern_srh_addr(&r, 0, &dst, &a), -EINVAL);
    assert_int_equal(tern_srh_addr(&r, 3, &dst, &a), -EINVAL);
    /* out may be the destination itself. */
    a = dst;
    assert_int_equal(tern_srh_addr(&r, 1, &a, &a), 0);
    assert_addr(&a, "2001:db8::1:3");
    /* Trailing bytes after the header are not its own; Reserved ignored. */
    uint8_t longer[sizeof(srh) + 8];
    memcpy(longer, srh, sizeof(srh));
    memset(longer + sizeof(srh), 0xee, 8);
    longer[5] = 0x4f;
    longer[6] = 0xff;
    longer[7] = 0xff;
    assert_int_equal(tern_srh_parse(&r, longer, sizeof(longer)), sizeof(srh));
    assert_int_equal(r.pad, 4);

    assert_int_equal(tern_srh_parse(&r, srh_near, sizeof(srh_near)), 16);
    assert_int_equal(r.count, 3);
    for (size_t i = 1; i <= 3; i++) {
        assert_int_equal(tern_srh_addr(&r, i, &dst, &a), 0);
        assert_int_equal(a.u8[15], 2 + i);
        assert_memory_equal(a.u8, dst.u8, 15);
    }
}

static void test_tern_srh_parse__inconsistent(void **state)
{
    (void)state;
    tern_srh_repr_t r;
    uint8_t m[sizeof(srh)];
    assert_int_equal(tern_srh_parse(&r, srh, 7), -EBADMSG);
    assert_int_equal(tern_srh_parse(&r, srh, sizeof(srh) - 1), -EBADMSG); /* shorter than Hdr Ext Len says */
    memcpy(m, srh, sizeof(m));
    m[2] = 2; /* another Routing Type */
    assert_int_equal(tern_srh_parse(&r, m, sizeof(m)), -EBADMSG);
    /* Pad 3: 16 - 3 - 9 = 4 octets, not a whole number of 3-octet addresses. */
    memcpy(m, srh, sizeof(m));
    m[5] = 0x30;
    assert_int_equal(tern_srh_parse(&r, m, sizeof(m)), -EBADMSG);
    /* CmprE 0: Address[n] alone needs 16 octets, more than 16 - Pad. */
    m[4] = 0xd0;
    m[5] = 0x40;
    assert_int_equal(tern_srh_parse(&r, m, sizeof(m)), -EBADMSG);
    /* Hdr Ext Len 0: no room for any address. */
    static const uint8_t empty[] = { 0x3b, 0x00, 0x03, 0x00, 0xff, 0x00, 0x00, 0x00 };
    assert_int_equal(tern_srh_parse(&r, empty, sizeof(empty)), -EBADMSG);
    /* Hdr Ext Len 1, CmprE 8, Pad 0: exactly Address[1]; CmprI plays no part. */
    static const uint8_t one[] = { 0x3b, 0x01, 0x03, 0x01, 0x38, 0x00, 0x00, 0x00,
                                   0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09 };
    assert_int_equal(tern_srh_parse(&r, one, sizeof(one)), 16);
    assert_int_equal(r.count, 1);
    /* A Pad above 7 that fits §3's formula is taken as the formula says:
     * Hdr Ext Len 2, CmprI = CmprE = 15, Pad 9: (16 - 9 - 1) / 1 + 1 = 7. */
    static const uint8_t pad9[] = { 0x3b, 0x02, 0x03, 0x01, 0xff, 0x90, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 7,
                                    0, 0, 0, 0, 0, 0, 0, 0, 0 };
    assert_int_equal(tern_srh_parse(&r, pad9, sizeof(pad9)), 24);
    assert_int_equal(r.count, 7);
    assert_int_equal(r.pad, 9);
}

static void test_tern_srh_path_emit__golden(void **state)
{
    (void)state;
    tern_ipv6_addr_t dst = addr("2001:db8::2");
    tern_ipv6_addr_t hops[2] = { addr("2001:db8::1:3"), addr("2001:db8:0:1::4") };
    tern_srh_path_t p = { .next_header = TERN_IPV6_NH_NONE, .dst = &dst, .hops = hops, .count = 2 };
    tern_srh_layout_t l;
    assert_int_equal(tern_srh_layout(&l, &p), 0);
    assert_int_equal(l.cmpr_i, 13);
    assert_int_equal(l.cmpr_e, 7);
    assert_int_equal(l.pad, 4);
    assert_int_equal(l.len, 24);
    assert_int_equal(tern_srh_path_len(&p), sizeof(srh));
    uint8_t out[64];
    memset(out, 0xaa, sizeof(out));
    assert_int_equal(tern_srh_path_emit(&p, out, sizeof(srh) - 1), -ENOBUFS);
    assert_int_equal(out[0], 0xaa);
    assert_int_equal(tern_srh_path_emit(&p, out, sizeof(out)), sizeof(srh));
    assert_memory_equal(out, srh, sizeof(srh));

    tern_ipv6_addr_t near[3] = { addr("2001:db8::3"), addr("2001:db8::4"), addr("2001:db8::5") };
    p.hops = near;
    p.count = 3;
    assert_int_equal(tern_srh_path_emit(&p, out, sizeof(out)), sizeof(srh_near));
    assert_memory_equal(out, srh_near, sizeof(srh_near));

    /* One hop, 2001:db8::1:4: CmprE 13, CmprI set to it, 3 octets, Pad 5. */
    tern_ipv6_addr_t one = addr("2001:db8::1:4");
    p.hops = &one;
    p.count = 1;
    static const uint8_t srh_one[] = { 0x3b, 0x01, 0x03, 0x01, 0xdd, 0x50, 0x00, 0x00,
                                       0x01, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00 };
    assert_int_equal(tern_srh_path_emit(&p, out, sizeof(out)), sizeof(srh_one));
    assert_memory_equal(out, srh_one, sizeof(srh_one));

    /* Nothing shared: full addresses, CmprI = CmprE = 0, no padding. */
    tern_ipv6_addr_t far[2] = { addr("fd00::7"), addr("2001:db8::9") };
    p.hops = far;
    p.count = 2;
    assert_int_equal(tern_srh_layout(&l, &p), 0);
    assert_int_equal(l.cmpr_i, 0);
    assert_int_equal(l.cmpr_e, 0); /* ::9 shares 15 octets with ::2 but none with fd00::7 */
    assert_int_equal(l.pad, 0);
    assert_int_equal(tern_srh_path_emit(&p, out, sizeof(out)), 40);
    assert_int_equal(out[1], 4);
    assert_memory_equal(out + 8, far[0].u8, 16);
    assert_memory_equal(out + 24, far[1].u8, 16);
}

/* The §4.2 processing along the whole route, header bytes after each hop. */
static void test_tern_srh_advance__route(void **state)
{
    (void)state;
    uint8_t h[sizeof(srh)];
    memcpy(h, srh, sizeof(h));
    tern_ipv6_addr_t dst = addr("2001:db8::2");
    tern_srh_repr_t r;
    assert_int_equal(tern_srh_parse(&r, h, sizeof(h)), sizeof(h));
    assert_int_equal(tern_srh_check(&r, &dst, NULL, NULL), TERN_SRH_FORWARD);
    assert_int_equal(tern_srh_advance(h, sizeof(h), &dst), 1);
    assert_memory_equal(h, srh_hop1, sizeof(h));
    assert_addr(&dst, "2001:db8::1:3");

    assert_int_equal(tern_srh_parse(&r, h, sizeof(h)), sizeof(h));
    assert_int_equal(tern_srh_check(&r, &dst, NULL, NULL), TERN_SRH_FORWARD);
    assert_int_equal(tern_srh_advance(h, sizeof(h), &dst), 2);
    assert_memory_equal(h, srh_hop2, sizeof(h));
    assert_addr(&dst, "2001:db8:0:1::4");

    /* At the final destination: done, and nothing more to advance. */
    assert_int_equal(tern_srh_parse(&r, h, sizeof(h)), sizeof(h));
    assert_int_equal(tern_srh_check(&r, &dst, NULL, NULL), TERN_SRH_DONE);
    assert_int_equal(tern_srh_advance(h, sizeof(h), &dst), -ERANGE);
    assert_memory_equal(h, srh_hop2, sizeof(h));
    /* Address[n] holds the previous destination, readable with CmprE. */
    tern_ipv6_addr_t a;
    assert_int_equal(tern_srh_addr(&r, 2, &dst, &a), 0);
    assert_addr(&a, "2001:db8::1:3");

    /* Segments Left above n, and a malformed header. */
    memcpy(h, srh, sizeof(h));
    h[3] = 3;
    dst = addr("2001:db8::2");
    assert_int_equal(tern_srh_advance(h, sizeof(h), &dst), -ERANGE);
    assert_int_equal(h[3], 3);
    assert_addr(&dst, "2001:db8::2");
    assert_int_equal(tern_srh_advance(h, 16, &dst), -EBADMSG);
}

static bool own_set(void *ctx, const tern_ipv6_addr_t *a)
{
    const tern_ipv6_addr_t *mine = ctx;
    for (size_t i = 0; i < 2; i++) {
        if (tern_ipv6_addr_equal(a, &mine[i])) {
            return true;
        }
    }
    return false;
}

static void test_tern_srh_check__rfc6554_4_2(void **state)
{
    (void)state;
    tern_srh_repr_t r;
    tern_ipv6_addr_t dst = addr("2001:db8::2");
    /* Hand-built vectors (emit refuses repeated addresses): CmprI = CmprE =
     * 15, Segments Left 3, addresses ::3 ::4 ::3, Pad 5. */
    uint8_t h[] = { 0x3b, 0x01, 0x03, 0x03, 0xff, 0x50, 0x00, 0x00, 0x03, 0x04, 0x03, 0, 0, 0, 0, 0 };
    tern_ipv6_addr_t mine[2] = { addr("2001:db8::3"), addr("2001:db8::3") };
    assert_int_equal(tern_srh_parse(&r, h, sizeof(h)), 16);
    /* ::3 (ours) ::4 (not) ::3 (ours): a loop. */
    assert_int_equal(tern_srh_check(&r, &dst, own_set, mine), TERN_SRH_LOOP);
    /* ::4 ours as well: own addresses adjacent, no address between them. */
    mine[1] = addr("2001:db8::4");
    assert_int_equal(tern_srh_check(&r, &dst, own_set, mine), TERN_SRH_FORWARD);
    /* ::3 ::3 ::4 with ::3 ours: adjacent. */
    h[9] = 0x03;
    h[10] = 0x04;
    mine[1] = mine[0];
    assert_int_equal(tern_srh_parse(&r, h, sizeof(h)), 16);
    assert_int_equal(tern_srh_check(&r, &dst, own_set, mine), TERN_SRH_FORWARD);
    /* No callback: no loop check. */
    h[10] = 0x03;
    h[9] = 0x04;
    assert_int_equal(tern_srh_parse(&r, h, sizeof(h)), 16);
    assert_int_equal(tern_srh_check(&r, &dst, NULL, NULL), TERN_SRH_FORWARD);
    assert_int_equal(tern_srh_check(&r, &dst, own_set, mine), TERN_SRH_LOOP);
    /* Segments Left above n; 0. */
    h[3] = 4;
    assert_int_equal(tern_srh_parse(&r, h, sizeof(h)), 16);
    assert_int_equal(tern_srh_check(&r, &dst, own_set, mine), TERN_SRH_BAD_SEGMENTS_LEFT);
    h[3] = 0;
    assert_int_equal(tern_srh_parse(&r, h, sizeof(h)), 16);
    assert_int_equal(tern_srh_check(&r, &dst, own_set, mine), TERN_SRH_DONE);
    /* A multicast destination. */
    h[3] = 1;
    tern_ipv6_addr_t mcast = addr("ff02::2");
    assert_int_equal(tern_srh_parse(&r, h, sizeof(h)), 16);
    assert_int_equal(tern_srh_check(&r, &mcast, NULL, NULL), TERN_SRH_MULTICAST);
    /* A multicast Address[i] (full addresses: CmprI = CmprE = 0), i = 2 with
     * Segments Left 1: only the next address counts. */
    uint8_t full[40] = { 0x3b, 0x04, 0x03, 0x02, 0x00, 0x00, 0x00, 0x00 };
    tern_ipv6_addr_t a1 = addr("ff05::1");
    tern_ipv6_addr_t a2 = addr("2001:db8::9");
    memcpy(full + 8, a1.u8, 16);
    memcpy(full + 24, a2.u8, 16);
    assert_int_equal(tern_srh_parse(&r, full, sizeof(full)), 40);
    assert_int_equal(r.count, 2);
    assert_int_equal(tern_srh_check(&r, &dst, NULL, NULL), TERN_SRH_MULTICAST);
    full[3] = 1;
    assert_int_equal(tern_srh_parse(&r, full, sizeof(full)), 40);
    assert_int_equal(tern_srh_check(&r, &dst, NULL, NULL), TERN_SRH_FORWARD);
}

static void test_tern_srh_layout__invalid_paths(void **state)
{
    (void)state;
    tern_srh_layout_t l;
    tern_ipv6_addr_t dst = addr("2001:db8::2");
    tern_ipv6_addr_t hops[3] = { addr("2001:db8::3"), addr("2001:db8::4"), addr("2001:db8::3") };
    tern_srh_path_t p = { .next_header = 59, .dst = &dst, .hops = hops, .count = 0 };
    assert_int_equal(tern_srh_layout(&l, &p), -EINVAL); /* no hop */
    assert_int_equal(tern_srh_path_len(&p), 0);
    p.count = 3;
    assert_int_equal(tern_srh_layout(&l, &p), -EINVAL); /* ::3 twice */
    hops[2] = dst;
    assert_int_equal(tern_srh_layout(&l, &p), -EINVAL); /* back to the first hop */
    hops[2] = addr("ff02::1");
    assert_int_equal(tern_srh_layout(&l, &p), -EINVAL); /* multicast hop */
    hops[2] = addr("2001:db8::5");
    assert_int_equal(tern_srh_layout(&l, &p), 0);
    tern_ipv6_addr_t mdst = addr("ff02::1a");
    p.dst = &mdst;
    assert_int_equal(tern_srh_layout(&l, &p), -EINVAL); /* multicast destination */
    p.dst = NULL;
    assert_int_equal(tern_srh_layout(&l, &p), -EINVAL);
    p.dst = &dst;
    p.hops = NULL;
    assert_int_equal(tern_srh_layout(&l, &p), -EINVAL);
    uint8_t out[16];
    p.hops = hops;
    p.count = TERN_SRH_MAX_HOPS + 1;
    assert_int_equal(tern_srh_path_emit(&p, out, sizeof(out)), -EINVAL);
}

/* Many hops: every address round-trips through emit, parse and expansion,
 * and the route advances to its end. */
static void test_tern_srh__round_trip_long_route(void **state)
{
    (void)state;
    enum { N = 40 };
    tern_ipv6_addr_t hops[N];
    tern_ipv6_addr_t dst = addr("2001:db8::100");
    for (size_t i = 0; i < N; i++) {
        hops[i] = addr("2001:db8::");
        hops[i].u8[13] = (uint8_t)(i % 3); /* CmprI 13 */
        hops[i].u8[15] = (uint8_t)(i + 1);
    }
    tern_srh_path_t p = { .next_header = 17, .dst = &dst, .hops = hops, .count = N };
    uint8_t out[TERN_SRH_MAX_LEN];
    int n = tern_srh_path_emit(&p, out, sizeof(out));
    assert_true(n > 0);
    assert_int_equal(n % 8, 0);
    tern_srh_repr_t r;
    assert_int_equal(tern_srh_parse(&r, out, (size_t)n), n);
    assert_int_equal(r.count, N);
    assert_int_equal(r.segments_left, N);
    assert_int_equal(r.cmpr_i, 13);
    tern_ipv6_addr_t cur = dst;
    for (size_t i = 1; i <= N; i++) {
        tern_ipv6_addr_t a;
        assert_int_equal(tern_srh_addr(&r, i, &cur, &a), 0);
        assert_memory_equal(a.u8, hops[i - 1].u8, 16);
    }
    for (size_t i = 1; i <= N; i++) {
        assert_int_equal(tern_srh_parse(&r, out, (size_t)n), n);
        assert_int_equal(tern_srh_check(&r, &cur, NULL, NULL), TERN_SRH_FORWARD);
        assert_int_equal(tern_srh_advance(out, (size_t)n, &cur), (int)i);
        assert_memory_equal(cur.u8, hops[i - 1].u8, 16);
    }
    assert_int_equal(tern_srh_parse(&r, out, (size_t)n), n);
    assert_int_equal(tern_srh_check(&r, &cur, NULL, NULL), TERN_SRH_DONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_srh_parse__golden),
        cmocka_unit_test(test_tern_srh_parse__inconsistent),
        cmocka_unit_test(test_tern_srh_path_emit__golden),
        cmocka_unit_test(test_tern_srh_advance__route),
        cmocka_unit_test(test_tern_srh_check__rfc6554_4_2),
        cmocka_unit_test(test_tern_srh_layout__invalid_paths),
        cmocka_unit_test(test_tern_srh__round_trip_long_route),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
