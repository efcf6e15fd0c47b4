/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Golden-byte tests of the 6LoWPAN-ND options and messages (RFC 6775 §4,
 *        RFC 8505 §4).
 *
 * Vectors are laid out by hand from the RFC figures (the derivation is next
 * to each). Checksums were computed independently with scapy 2.8's
 * in6_chksum for the addresses given. tshark 4.0 dissects the ARO, 6CO,
 * ABRO and DAR vectors to the same fields (it predates RFC 8505, so the
 * EARO and EDAC vectors rest on the RFC 8505 §4.1 and §4.4 figures alone).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ndp.h"
#include "tern/wire/ndp_6lo.h"

static tern_ipv6_addr_t addr(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

static tern_ndp_opt_t opt_of(const uint8_t *bytes, size_t len)
{
    tern_ndp_opt_t o = { .type = bytes[0], .data = bytes, .len = len };
    return o;
}

/* ARO (RFC 6775 §4.1): Type 33, Length 2, Status 0, Reserved (8 + 16 bits),
 * Registration Lifetime 60 (x 60 s = 1 h) = 0x003C, EUI-64 00:11:22:33:44:55:66:77. */
static const uint8_t aro[] = { 0x21, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3c,
                               0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77 };

/* EARO request (RFC 8505 §4.1): Length 3 (a 128-bit ROVR), Status 0, Opaque 0,
 * Rsvd 0000 I 00 R 1 T 1 = 0x03, TID 0x2A, Lifetime 120 = 0x0078, ROVR 01..10. */
static const uint8_t earo_req[] = { 0x21, 0x03, 0x00, 0x00, 0x03, 0x2a, 0x00, 0x78,
                                    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                                    0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10 };

/* EARO reply: Length 5 (256-bit ROVR), Status 1 (Duplicate Address), Opaque 5,
 * flags T only = 0x01, TID 0x2A, Lifetime 0x0078, ROVR a0..bf. */
static const uint8_t earo_dup[] = { 0x21, 0x05, 0x01, 0x05, 0x01, 0x2a, 0x00, 0x78,
                                    0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
                                    0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
                                    0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
                                    0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf };

/* 6CO (RFC 6775 §4.2): Length 2, Context Length 64 = 0x40, Res 000 C 1 CID 0011 = 0x13,
 * Reserved 0x0000, Valid Lifetime 3600 = 0x0E10, prefix 2001:db8:1:2::/64. */
static const uint8_t co_short[] = { 0x22, 0x02, 0x40, 0x13, 0x00, 0x00, 0x0e, 0x10,
                                    0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x02 };

/* 6CO: Length 3, Context Length 96 = 0x60, C 0 CID 15 = 0x0F, Lifetime 60 = 0x003C,
 * prefix 2001:db8:1:2:3:4::/96 in 16 octets. */
static const uint8_t co_long[] = { 0x22, 0x03, 0x60, 0x0f, 0x00, 0x00, 0x00, 0x3c,
                                   0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x02,
                                   0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00 };

/* ABRO (RFC 6775 §4.3): Length 3, version 0x00010002 as Version Low 0x0002
 * then Version High 0x0001, Valid Lifetime 0 (= the default 10000), 6LBR 2001:db8::1. */
static const uint8_t abro[] = { 0x23, 0x03, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00,
                                0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
                                0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01 };

/* DAR (RFC 6775 §4.4) 2001:db8::2 -> 2001:db8::1: Type 157, Code 0, checksum
 * 0xF9F5, Status 0, Reserved 0, Lifetime 60, EUI-64 00:11:..:77, Registered
 * Address 2001:db8::1234. */
static const uint8_t dar[] = { 0x9d, 0x00, 0xf9, 0xf5, 0x00, 0x00, 0x00, 0x3c,
                               0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                               0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
                               0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34 };

/* EDAC (RFC 8505 §4.4) 2001:db8::1 -> 2001:db8::2: Type 158, Code Prefix 0
 * Code Suffix 2 (a 128-bit ROVR) = 0x02, checksum 0x844E, Status 1, TID 0x2A,
 * Lifetime 120, ROVR 01..10, Registered Address 2001:db8::1234. */
static const uint8_t edac[] = { 0x9e, 0x02, 0x84, 0x4e, 0x01, 0x2a, 0x00, 0x78,
                                0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                                0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
                                0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
                                0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34 };

/* A registration NS(EARO) (RFC 8505 §5.6): fe80::212:4b00:102:304 -> fe80::1,
 * target = source, SLLA 00:12:4b:00:01:02:03:04 (RFC 4944 §8: 2 units,
 * zero-padded), then earo_req. Checksum 0x25C9. */
static const uint8_t ns_earo[] = {
    0x87, 0x00, 0x25, 0xc9, 0x00, 0x00, 0x00, 0x00, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x12, 0x4b, 0x00, 0x01, 0x02, 0x03, 0x04, 0x01, 0x02, 0x00, 0x12, 0x4b, 0x00, 0x01, 0x02,
    0x03, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21, 0x03, 0x00, 0x00, 0x03, 0x2a, 0x00, 0x78,
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
};

/* ---- ARO / EARO ---------------------------------------------------------------- */

static void test_tern_ndp_6lo_aro_parse__rfc6775_aro(void **state)
{
    (void)state;
    tern_ndp_opt_t o = opt_of(aro, sizeof(aro));
    tern_ndp_6lo_aro_t r;
    assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), 0);
    assert_false(r.extended);
    assert_int_equal(r.status, TERN_NDP_6LO_STATUS_SUCCESS);
    assert_int_equal(r.lifetime, 60);
    assert_int_equal(r.rovr_len, 8);
    assert_memory_equal(r.rovr, aro + 8, 8);
    assert_false(r.r);
    assert_int_equal(r.tid, 0);
}

static void test_tern_ndp_6lo_aro_parse__earo_request_and_reply(void **state)
{
    (void)state;
    tern_ndp_opt_t o = opt_of(earo_req, sizeof(earo_req));
    tern_ndp_6lo_aro_t r;
    assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), 0);
    assert_true(r.extended);
    assert_true(r.r);
    assert_int_equal(r.i, 0);
    assert_int_equal(r.opaque, 0);
    assert_int_equal(r.tid, 0x2a);
    assert_int_equal(r.lifetime, 120);
    assert_int_equal(r.rovr_len, 16);
    assert_memory_equal(r.rovr, earo_req + 8, 16);

    o = opt_of(earo_dup, sizeof(earo_dup));
    assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), 0);
    assert_true(r.extended);
    assert_false(r.r);
    assert_int_equal(r.status, TERN_NDP_6LO_STATUS_DUPLICATE);
    assert_int_equal(r.opaque, 5);
    assert_int_equal(r.rovr_len, 32);
    assert_memory_equal(r.rovr, earo_dup + 8, 32);
}

static void test_tern_ndp_6lo_aro_parse__reserved_bits_ignored(void **state)
{
    (void)state;
    tern_ndp_6lo_aro_t r;
    /* An ARO (T 0) with its Reserved octets set: ignored (RFC 6775 §4.1). */
    uint8_t a[sizeof(aro)];
    memcpy(a, aro, sizeof(a));
    a[3] = 0xff;
    a[4] = 0xfe; /* every bit but T, I included: all reserved without T */
    a[5] = 0x77;
    tern_ndp_opt_t o = opt_of(a, sizeof(a));
    assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), 0);
    assert_false(r.extended);
    assert_false(r.r);
    assert_int_equal(r.opaque, 0);
    assert_int_equal(r.tid, 0);
    /* An EARO with its 4 Rsvd bits set (RFC 9010 gives two of them a meaning). */
    uint8_t e[sizeof(earo_req)];
    memcpy(e, earo_req, sizeof(e));
    e[4] = 0xf3;
    o = opt_of(e, sizeof(e));
    assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), 0);
    assert_true(r.extended && r.r);
}

static void test_tern_ndp_6lo_aro_parse__reserved_values_rejected(void **state)
{
    (void)state;
    tern_ndp_6lo_aro_t r = { .lifetime = 7 };
    /* I = 1, 2, 3 are reserved (RFC 8505 §4.1). */
    for (uint8_t i = 1; i <= 3; i++) {
        uint8_t e[sizeof(earo_req)];
        memcpy(e, earo_req, sizeof(e));
        e[4] = (uint8_t)(0x03 | (i << 2));
        tern_ndp_opt_t o = opt_of(e, sizeof(e));
        assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), -EBADMSG);
    }
    /* An ARO (no T) longer than 2 units (RFC 6775 §6.5). */
    uint8_t a3[24];
    memcpy(a3, earo_req, sizeof(a3));
    a3[4] = 0x00;
    tern_ndp_opt_t o = opt_of(a3, sizeof(a3));
    assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), -EBADMSG);
    /* Length 1 and Length 6 (a 320-bit ROVR does not exist). */
    uint8_t l1[8] = { 0x21, 0x01, 0, 0, 0x01, 0, 0, 0 };
    o = opt_of(l1, sizeof(l1));
    assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), -EBADMSG);
    uint8_t l6[48];
    memset(l6, 0, sizeof(l6));
    l6[0] = 0x21;
    l6[1] = 6;
    l6[4] = 0x01;
    o = opt_of(l6, sizeof(l6));
    assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), -EBADMSG);
    /* Another option type. */
    o = opt_of(abro, sizeof(abro));
    assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), -EBADMSG);
    assert_int_equal(r.lifetime, 7); /* untouched on error */
    assert_int_equal(tern_ndp_6lo_aro_parse(NULL, &o), -EINVAL);
}

static void test_tern_ndp_6lo_aro_emit__golden(void **state)
{
    (void)state;
    uint8_t out[48];
    tern_ndp_6lo_aro_t a = { .lifetime = 60, .rovr_len = 8 };
    memcpy(a.rovr, aro + 8, 8);
    assert_int_equal(tern_ndp_6lo_aro_len(&a), 16);
    assert_int_equal(tern_ndp_6lo_aro_emit(&a, out, sizeof(out)), 16);
    assert_memory_equal(out, aro, 16);

    tern_ndp_6lo_aro_t e = { .extended = true, .r = true, .tid = 0x2a, .lifetime = 120, .rovr_len = 16 };
    memcpy(e.rovr, earo_req + 8, 16);
    assert_int_equal(tern_ndp_6lo_aro_emit(&e, out, sizeof(out)), 24);
    assert_memory_equal(out, earo_req, 24);

    tern_ndp_6lo_aro_t d = { .status = TERN_NDP_6LO_STATUS_DUPLICATE, .extended = true, .opaque = 5,
                             .tid = 0x2a, .lifetime = 120, .rovr_len = 32 };
    memcpy(d.rovr, earo_dup + 8, 32);
    assert_int_equal(tern_ndp_6lo_aro_emit(&d, out, sizeof(out)), 40);
    assert_memory_equal(out, earo_dup, 40);
}

static void test_tern_ndp_6lo_aro_emit__invalid_and_short(void **state)
{
    (void)state;
    uint8_t out[48];
    tern_ndp_6lo_aro_t e = { .extended = true, .rovr_len = 12 };
    assert_int_equal(tern_ndp_6lo_aro_len(&e), 0);
    assert_int_equal(tern_ndp_6lo_aro_emit(&e, out, sizeof(out)), -EINVAL);
    e.rovr_len = 40;
    assert_int_equal(tern_ndp_6lo_aro_emit(&e, out, sizeof(out)), -EINVAL);
    e.rovr_len = 16;
    e.i = 1; /* reserved */
    assert_int_equal(tern_ndp_6lo_aro_emit(&e, out, sizeof(out)), -EINVAL);
    e.i = 0;
    assert_int_equal(tern_ndp_6lo_aro_emit(&e, out, 23), -ENOBUFS);
    /* An ARO has the EUI-64 and nothing of the EARO. */
    tern_ndp_6lo_aro_t a = { .rovr_len = 16 };
    assert_int_equal(tern_ndp_6lo_aro_emit(&a, out, sizeof(out)), -EINVAL);
    a.rovr_len = 8;
    a.tid = 1;
    assert_int_equal(tern_ndp_6lo_aro_emit(&a, out, sizeof(out)), -EINVAL);
    a.tid = 0;
    a.r = true;
    assert_int_equal(tern_ndp_6lo_aro_emit(&a, out, sizeof(out)), -EINVAL);
    a.r = false;
    a.opaque = 3;
    assert_int_equal(tern_ndp_6lo_aro_emit(&a, out, sizeof(out)), -EINVAL);
}

static void test_tern_ndp_6lo_aro__round_trip_rovr_sizes(void **state)
{
    (void)state;
    for (uint8_t n = 8; n <= 32; n = (uint8_t)(n + 8)) {
        tern_ndp_6lo_aro_t e;
        memset(&e, 0, sizeof(e)); /* padding too: compared whole below */
        e.status = 9;
        e.extended = true;
        e.r = (n % 16) == 0;
        e.opaque = n;
        e.tid = (uint8_t)(n * 3);
        e.lifetime = (uint16_t)(n * 100);
        e.rovr_len = n;
        for (uint8_t k = 0; k < n; k++) {
            e.rovr[k] = (uint8_t)(k * 7 + n);
        }
        uint8_t out[40];
        int len = tern_ndp_6lo_aro_emit(&e, out, sizeof(out));
        assert_int_equal(len, 8 + n);
        assert_int_equal(out[1], 1 + n / 8);
        tern_ndp_opt_t o = opt_of(out, (size_t)len);
        tern_ndp_6lo_aro_t back;
        assert_int_equal(tern_ndp_6lo_aro_parse(&back, &o), 0);
        assert_memory_equal(&back, &e, sizeof(e));
    }
}

static void test_tern_ndp_6lo_aro__inside_a_registration_ns(void **state)
{
    (void)state;
    tern_ndp_ns_repr_t ns;
    assert_int_equal(tern_ndp_ns_parse(&ns, ns_earo, sizeof(ns_earo)), TERN_NDP_NS_LEN);
    tern_ndp_opt_t o;
    assert_int_equal(tern_ndp_opt_find(ns.options, ns.options_len, TERN_NDP_OPT_ARO, &o), 1);
    tern_ndp_6lo_aro_t r;
    assert_int_equal(tern_ndp_6lo_aro_parse(&r, &o), 0);
    assert_true(r.extended && r.r);
    assert_int_equal(r.tid, 0x2a);

    /* Build it again: NS fixed part, SLLA, EARO, checksum last. */
    uint8_t opts[40];
    const uint8_t eui[] = { 0x00, 0x12, 0x4b, 0x00, 0x01, 0x02, 0x03, 0x04 };
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = eui, .addr_len = 8 };
    int n1 = tern_ndp_opt_lladdr_emit(&ll, opts, sizeof(opts));
    assert_int_equal(n1, 16);
    int n2 = tern_ndp_6lo_aro_emit(&r, opts + n1, sizeof(opts) - (size_t)n1);
    assert_int_equal(n2, 24);
    tern_ndp_ns_repr_t out_ns = { .target = addr("fe80::212:4b00:102:304"), .options = opts,
                                  .options_len = (size_t)(n1 + n2) };
    uint8_t msg[64];
    assert_int_equal(tern_ndp_ns_emit(&out_ns, msg, sizeof(msg)), 64);
    tern_ipv6_addr_t src = addr("fe80::212:4b00:102:304");
    tern_ipv6_addr_t dst = addr("fe80::1");
    assert_int_equal(tern_icmpv6_checksum_fill(msg, sizeof(msg), &src, &dst), 0);
    assert_memory_equal(msg, ns_earo, sizeof(ns_earo));
}

/* ---- 6CO ----------------------------------------------------------------------- */

static void test_tern_ndp_6lo_6co_parse__golden(void **state)
{
    (void)state;
    tern_ndp_6lo_6co_t c;
    tern_ndp_opt_t o = opt_of(co_short, sizeof(co_short));
    assert_int_equal(tern_ndp_6lo_6co_parse(&c, &o), 0);
    assert_int_equal(c.context_len, 64);
    assert_true(c.compression);
    assert_int_equal(c.cid, 3);
    assert_int_equal(c.lifetime, 3600);
    tern_ipv6_addr_t p = addr("2001:db8:1:2::");
    assert_memory_equal(c.prefix.u8, p.u8, 16);

    o = opt_of(co_long, sizeof(co_long));
    assert_int_equal(tern_ndp_6lo_6co_parse(&c, &o), 0);
    assert_int_equal(c.context_len, 96);
    assert_false(c.compression);
    assert_int_equal(c.cid, 15);
    assert_int_equal(c.lifetime, 60);
    p = addr("2001:db8:1:2:3:4::");
    assert_memory_equal(c.prefix.u8, p.u8, 16);
}

static void test_tern_ndp_6lo_6co_parse__reserved_and_bad_values(void **state)
{
    (void)state;
    tern_ndp_6lo_6co_t c;
    /* Reserved bits set: ignored. */
    uint8_t r[sizeof(co_short)];
    memcpy(r, co_short, sizeof(r));
    r[3] = 0xe3;
    r[4] = 0xff;
    r[5] = 0xff;
    tern_ndp_opt_t o = opt_of(r, sizeof(r));
    assert_int_equal(tern_ndp_6lo_6co_parse(&c, &o), 0);
    assert_false(c.compression);
    assert_int_equal(c.cid, 3);
    /* Context Length 65 in 2 units: "the Length MUST be 3" (§4.2). */
    uint8_t l65[sizeof(co_short)];
    memcpy(l65, co_short, sizeof(l65));
    l65[2] = 65;
    o = opt_of(l65, sizeof(l65));
    assert_int_equal(tern_ndp_6lo_6co_parse(&c, &o), -EBADMSG);
    /* Context Length 129 in 3 units. */
    uint8_t l129[sizeof(co_long)];
    memcpy(l129, co_long, sizeof(l129));
    l129[2] = 129;
    o = opt_of(l129, sizeof(l129));
    assert_int_equal(tern_ndp_6lo_6co_parse(&c, &o), -EBADMSG);
    l129[2] = 128;
    assert_int_equal(tern_ndp_6lo_6co_parse(&c, &o), 0);
    /* Length 1 and 4. */
    o = opt_of(co_short, 8);
    assert_int_equal(tern_ndp_6lo_6co_parse(&c, &o), -EBADMSG);
    uint8_t l4[32];
    memset(l4, 0, sizeof(l4));
    l4[0] = 0x22;
    l4[1] = 4;
    o = opt_of(l4, sizeof(l4));
    assert_int_equal(tern_ndp_6lo_6co_parse(&c, &o), -EBADMSG);
    o = opt_of(aro, sizeof(aro));
    assert_int_equal(tern_ndp_6lo_6co_parse(&c, &o), -EBADMSG);
}

static void test_tern_ndp_6lo_6co_emit__golden_and_errors(void **state)
{
    (void)state;
    uint8_t out[24];
    tern_ndp_6lo_6co_t c = { .context_len = 64, .compression = true, .cid = 3, .lifetime = 3600,
                             .prefix = addr("2001:db8:1:2::") };
    assert_int_equal(tern_ndp_6lo_6co_len(&c), 16);
    assert_int_equal(tern_ndp_6lo_6co_emit(&c, out, sizeof(out)), 16);
    assert_memory_equal(out, co_short, 16);
    tern_ndp_6lo_6co_t l = { .context_len = 96, .cid = 15, .lifetime = 60, .prefix = addr("2001:db8:1:2:3:4::") };
    assert_int_equal(tern_ndp_6lo_6co_emit(&l, out, sizeof(out)), 24);
    assert_memory_equal(out, co_long, 24);
    /* 65 bits need Length 3. */
    l.context_len = 65;
    assert_int_equal(tern_ndp_6lo_6co_len(&l), 24);
    l.context_len = 129;
    assert_int_equal(tern_ndp_6lo_6co_emit(&l, out, sizeof(out)), -EINVAL);
    l.context_len = 96;
    l.cid = 16;
    assert_int_equal(tern_ndp_6lo_6co_emit(&l, out, sizeof(out)), -EINVAL);
    l.cid = 15;
    assert_int_equal(tern_ndp_6lo_6co_emit(&l, out, 23), -ENOBUFS);
    /* Round trip. */
    tern_ndp_opt_t o = opt_of(co_long, sizeof(co_long));
    tern_ndp_6lo_6co_t back;
    assert_int_equal(tern_ndp_6lo_6co_parse(&back, &o), 0);
    assert_int_equal(tern_ndp_6lo_6co_emit(&back, out, sizeof(out)), 24);
    assert_memory_equal(out, co_long, 24);
}

/* ---- ABRO ---------------------------------------------------------------------- */

static void test_tern_ndp_6lo_abro__golden_and_errors(void **state)
{
    (void)state;
    tern_ndp_6lo_abro_t a;
    tern_ndp_opt_t o = opt_of(abro, sizeof(abro));
    assert_int_equal(tern_ndp_6lo_abro_parse(&a, &o), 0);
    assert_int_equal(a.version, 0x00010002u);
    assert_int_equal(a.lifetime, 0);
    tern_ipv6_addr_t br = addr("2001:db8::1");
    assert_memory_equal(a.border_router.u8, br.u8, 16);
    uint8_t out[24];
    assert_int_equal(tern_ndp_6lo_abro_emit(&a, out, sizeof(out)), 24);
    assert_memory_equal(out, abro, 24);
    assert_int_equal(tern_ndp_6lo_abro_emit(&a, out, 23), -ENOBUFS);
    /* Length must be 3. */
    o = opt_of(abro, 16);
    assert_int_equal(tern_ndp_6lo_abro_parse(&a, &o), -EBADMSG);
    o = opt_of(co_long, sizeof(co_long));
    assert_int_equal(tern_ndp_6lo_abro_parse(&a, &o), -EBADMSG);
    /* A high version round-trips through both halves. */
    tern_ndp_6lo_abro_t v = { .version = 0xdeadbeefu, .lifetime = 0xffff, .border_router = br };
    assert_int_equal(tern_ndp_6lo_abro_emit(&v, out, sizeof(out)), 24);
    assert_int_equal(out[2], 0xbe);
    assert_int_equal(out[3], 0xef);
    assert_int_equal(out[4], 0xde);
    assert_int_equal(out[5], 0xad);
    o = opt_of(out, sizeof(out));
    assert_int_equal(tern_ndp_6lo_abro_parse(&a, &o), 0);
    assert_int_equal(a.version, 0xdeadbeefu);
    assert_int_equal(a.lifetime, 0xffff);
}

/* ---- DAR / DAC ----------------------------------------------------------------- */

static void test_tern_ndp_6lo_dar_parse__rfc6775_dar(void **state)
{
    (void)state;
    tern_ndp_6lo_dar_repr_t d;
    assert_int_equal(tern_ndp_6lo_dar_parse(&d, dar, sizeof(dar)), 32);
    assert_int_equal(d.type, TERN_NDP_6LO_DAR);
    assert_false(d.extended);
    assert_int_equal(d.status, 0);
    assert_int_equal(d.tid, 0);
    assert_int_equal(d.lifetime, 60);
    assert_int_equal(d.rovr_len, 8);
    assert_memory_equal(d.rovr, dar + 8, 8);
    tern_ipv6_addr_t reg = addr("2001:db8::1234");
    assert_memory_equal(d.registered.u8, reg.u8, 16);
    /* Octets after the message are not part of it (§8.2.1: 32 or more). */
    uint8_t longer[sizeof(dar) + 8];
    memcpy(longer, dar, sizeof(dar));
    memset(longer + sizeof(dar), 0x55, 8);
    assert_int_equal(tern_ndp_6lo_dar_parse(&d, longer, sizeof(longer)), 32);
}

static void test_tern_ndp_6lo_dar_parse__edac(void **state)
{
    (void)state;
    tern_ndp_6lo_dar_repr_t d;
    assert_int_equal(tern_ndp_6lo_dar_parse(&d, edac, sizeof(edac)), 40);
    assert_int_equal(d.type, TERN_NDP_6LO_DAC);
    assert_true(d.extended);
    assert_int_equal(d.status, TERN_NDP_6LO_STATUS_DUPLICATE);
    assert_int_equal(d.tid, 0x2a);
    assert_int_equal(d.lifetime, 120);
    assert_int_equal(d.rovr_len, 16);
    assert_memory_equal(d.rovr, edac + 8, 16);
    tern_ipv6_addr_t reg = addr("2001:db8::1234");
    assert_memory_equal(d.registered.u8, reg.u8, 16);
}

static void test_tern_ndp_6lo_dar_parse__truncation_and_reserved_codes(void **state)
{
    (void)state;
    tern_ndp_6lo_dar_repr_t d = { .lifetime = 9 };
    for (size_t len = 0; len < sizeof(dar); len++) {
        assert_int_equal(tern_ndp_6lo_dar_parse(&d, dar, len), -EBADMSG);
    }
    for (size_t len = 0; len < sizeof(edac); len++) {
        assert_int_equal(tern_ndp_6lo_dar_parse(&d, edac, len), -EBADMSG);
    }
    uint8_t m[64];
    memset(m, 0, sizeof(m));
    memcpy(m, edac, sizeof(edac));
    /* Code Suffix 5..15 (no ROVR of that size) and any Code Prefix are reserved. */
    for (unsigned code = 5; code <= 0xff; code++) {
        if ((code >> 4) == 0 && (code & 0x0f) <= 4) {
            continue;
        }
        m[1] = (uint8_t)code;
        assert_int_equal(tern_ndp_6lo_dar_parse(&d, m, sizeof(m)), -EBADMSG);
    }
    /* Other ICMPv6 types. */
    m[1] = 0;
    m[0] = TERN_ICMPV6_NEIGHBOR_SOLICIT;
    assert_int_equal(tern_ndp_6lo_dar_parse(&d, m, sizeof(m)), -EBADMSG);
    m[0] = 159;
    assert_int_equal(tern_ndp_6lo_dar_parse(&d, m, sizeof(m)), -EBADMSG);
    assert_int_equal(d.lifetime, 9); /* untouched on error */
    assert_int_equal(tern_ndp_6lo_dar_parse(NULL, dar, sizeof(dar)), -EINVAL);
}

static void test_tern_ndp_6lo_dar_emit__golden_with_checksum(void **state)
{
    (void)state;
    uint8_t out[48];
    tern_ndp_6lo_dar_repr_t d = { .type = TERN_NDP_6LO_DAR, .lifetime = 60, .rovr_len = 8,
                                  .registered = addr("2001:db8::1234") };
    memcpy(d.rovr, dar + 8, 8);
    assert_int_equal(tern_ndp_6lo_dar_len(&d), 32);
    assert_int_equal(tern_ndp_6lo_dar_emit(&d, out, sizeof(out)), 32);
    assert_int_equal(out[2], 0);
    assert_int_equal(out[3], 0);
    tern_ipv6_addr_t s = addr("2001:db8::2");
    tern_ipv6_addr_t t = addr("2001:db8::1");
    assert_int_equal(tern_icmpv6_checksum_fill(out, 32, &s, &t), 0);
    assert_memory_equal(out, dar, 32);

    tern_ndp_6lo_dar_repr_t e = { .type = TERN_NDP_6LO_DAC, .status = 1, .extended = true, .tid = 0x2a,
                                  .lifetime = 120, .rovr_len = 16, .registered = addr("2001:db8::1234") };
    memcpy(e.rovr, edac + 8, 16);
    assert_int_equal(tern_ndp_6lo_dar_emit(&e, out, sizeof(out)), 40);
    assert_int_equal(tern_icmpv6_checksum_fill(out, 40, &t, &s), 0);
    assert_memory_equal(out, edac, 40);
}

static void test_tern_ndp_6lo_dar_emit__invalid_and_short(void **state)
{
    (void)state;
    uint8_t out[48];
    tern_ndp_6lo_dar_repr_t d = { .type = TERN_NDP_6LO_DAR, .status = 1, .rovr_len = 8 };
    assert_int_equal(tern_ndp_6lo_dar_emit(&d, out, sizeof(out)), -EINVAL); /* status in a DAR */
    d.status = 0;
    d.type = 135;
    assert_int_equal(tern_ndp_6lo_dar_emit(&d, out, sizeof(out)), -EINVAL);
    d.type = TERN_NDP_6LO_DAR;
    d.rovr_len = 16; /* not extended: an EUI-64 */
    assert_int_equal(tern_ndp_6lo_dar_emit(&d, out, sizeof(out)), -EINVAL);
    d.rovr_len = 8;
    d.tid = 3;
    assert_int_equal(tern_ndp_6lo_dar_emit(&d, out, sizeof(out)), -EINVAL);
    d.tid = 0;
    d.extended = true;
    d.rovr_len = 20;
    assert_int_equal(tern_ndp_6lo_dar_len(&d), 0);
    assert_int_equal(tern_ndp_6lo_dar_emit(&d, out, sizeof(out)), -EINVAL);
    d.rovr_len = 32;
    assert_int_equal(tern_ndp_6lo_dar_emit(&d, out, 55), -ENOBUFS);
    assert_int_equal(tern_ndp_6lo_dar_emit(&d, out, 48), -ENOBUFS);
}

static void test_tern_ndp_6lo_dar__round_trip_rovr_sizes(void **state)
{
    (void)state;
    for (uint8_t n = 8; n <= 32; n = (uint8_t)(n + 8)) {
        tern_ndp_6lo_dar_repr_t e;
        memset(&e, 0, sizeof(e)); /* padding too: compared whole below */
        e.type = TERN_NDP_6LO_DAC;
        e.status = 10;
        e.extended = true;
        e.tid = n;
        e.lifetime = 0xfffe;
        e.rovr_len = n;
        e.registered = addr("2001:db8::abcd");
        for (uint8_t k = 0; k < n; k++) {
            e.rovr[k] = (uint8_t)(0xf0 - k);
        }
        uint8_t out[56];
        int len = tern_ndp_6lo_dar_emit(&e, out, sizeof(out));
        assert_int_equal(len, 24 + n);
        assert_int_equal(out[1], n / 8); /* Code Suffix: ROVR in units of 64 bits */
        tern_ndp_6lo_dar_repr_t back;
        assert_int_equal(tern_ndp_6lo_dar_parse(&back, out, (size_t)len), len);
        assert_memory_equal(&back, &e, sizeof(e));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_ndp_6lo_aro_parse__rfc6775_aro),
        cmocka_unit_test(test_tern_ndp_6lo_aro_parse__earo_request_and_reply),
        cmocka_unit_test(test_tern_ndp_6lo_aro_parse__reserved_bits_ignored),
        cmocka_unit_test(test_tern_ndp_6lo_aro_parse__reserved_values_rejected),
        cmocka_unit_test(test_tern_ndp_6lo_aro_emit__golden),
        cmocka_unit_test(test_tern_ndp_6lo_aro_emit__invalid_and_short),
        cmocka_unit_test(test_tern_ndp_6lo_aro__round_trip_rovr_sizes),
        cmocka_unit_test(test_tern_ndp_6lo_aro__inside_a_registration_ns),
        cmocka_unit_test(test_tern_ndp_6lo_6co_parse__golden),
        cmocka_unit_test(test_tern_ndp_6lo_6co_parse__reserved_and_bad_values),
        cmocka_unit_test(test_tern_ndp_6lo_6co_emit__golden_and_errors),
        cmocka_unit_test(test_tern_ndp_6lo_abro__golden_and_errors),
        cmocka_unit_test(test_tern_ndp_6lo_dar_parse__rfc6775_dar),
        cmocka_unit_test(test_tern_ndp_6lo_dar_parse__edac),
        cmocka_unit_test(test_tern_ndp_6lo_dar_parse__truncation_and_reserved_codes),
        cmocka_unit_test(test_tern_ndp_6lo_dar_emit__golden_with_checksum),
        cmocka_unit_test(test_tern_ndp_6lo_dar_emit__invalid_and_short),
        cmocka_unit_test(test_tern_ndp_6lo_dar__round_trip_rovr_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
