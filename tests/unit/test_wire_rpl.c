/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Golden-byte tests of the RPL control messages and options (RFC 6550
 *        §6) and of the RPL Option of the Hop-by-Hop header (RFC 6553 §3).
 *
 * Vectors are laid out by hand from the RFC figures; the derivation is next
 * to each. Wireshark 4.0 (tests/integration/test_tshark_rpl.py) dissects the
 * same messages, sent between the addresses given, to the same fields and
 * reports their checksums correct, without expert errors.
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
#include "tern/wire/ipv6.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ndp.h"
#include "tern/wire/rpl.h"
#include "tern/wire/rpl_hbh.h"

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

static tern_rpl_opt_t opt_of(const uint8_t *bytes, size_t len)
{
    tern_rpl_opt_t o = { .type = bytes[0], .data = bytes, .len = len };
    return o;
}

/* Fill the checksum of @p msg sent @p src -> @p dst. */
static void checksum(uint8_t *msg, size_t len, const char *src, const char *dst)
{
    tern_ipv6_addr_t s = addr(src);
    tern_ipv6_addr_t d = addr(dst);
    assert_int_equal(tern_icmpv6_checksum_fill(msg, len, &s, &d), 0);
}

/* DIS fe80::2 -> ff02::1a (§6.2.1): Type 155, Code 0x00, checksum 0x235C,
 * Flags 0, Reserved 0; Solicited Information (§6.7.9): Type 0x07, Opt Length
 * 19 = 0x13, RPLInstanceID 30 = 0x1E, V I D set = 0xE0, DODAGID 2001:db8::1,
 * Version Number 240 = 0xF0. */
static const uint8_t dis[] = {
    0x9b, 0x00, 0x23, 0x5c, 0x00, 0x00,
    0x07, 0x13, 0x1e, 0xe0, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0xf0,
};

/* DIO fe80::1 -> ff02::1a (§6.3.1): Code 0x01, checksum 0xEF3F,
 * RPLInstanceID 30, Version 240, Rank 256 = 0x0100,
 * G 1 | 0 | MOP 3 (storing with multicast) = 011 | Prf 5 = 101 -> 1001 1101 = 0x9D,
 * DTSN 0x42, Flags 0, Reserved 0, DODAGID 2001:db8::1; then the options:
 * - DODAG Configuration (§6.7.6): 0x04, 14 = 0x0E, Flags 0000 A 0 PCS 011 = 0x03,
 *   DIOIntervalDoublings 20 = 0x14, DIOIntervalMin 3, DIORedundancyConstant 10 = 0x0A,
 *   MaxRankIncrease 1792 = 0x0700, MinHopRankIncrease 256 = 0x0100, OCP 1 (MRHOF),
 *   Reserved 0, Default Lifetime 0xFF, Lifetime Unit 0xFFFF;
 * - Prefix Information (§6.7.10): 0x08, 30 = 0x1E, Prefix Length 64 = 0x40,
 *   L 0 A 1 R 1 = 0x60, Valid Lifetime 86400 = 0x00015180, Preferred 14400 =
 *   0x00003840, Reserved2 0, Prefix 2001:db8::1 (R: the router's address);
 * - Route Information (§6.7.5): 0x03, Option Length 6 + 8 = 14 = 0x0E, Prefix
 *   Length 48 = 0x30, Resvd 000 Prf 01 (high) Resvd 000 = 0x08, Route Lifetime
 *   3600 = 0x00000E10, prefix 2001:db8:1:: in 8 octets (RFC 4191's size);
 * - DAG Metric Container (§6.7.4): 0x02, 6, an RFC 6551 ETX object (type 7,
 *   flags 0, length 2, ETX 128);
 * - PadN (§6.7.3) of 4 octets: 0x01, Option Length 2, 0, 0. */
static const uint8_t dio[] = {
    0x9b, 0x01, 0xef, 0x3f, 0x1e, 0xf0, 0x01, 0x00, 0x9d, 0x42, 0x00, 0x00,
    0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    /* DODAG Configuration */
    0x04, 0x0e, 0x03, 0x14, 0x03, 0x0a, 0x07, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0xff, 0xff, 0xff,
    /* Prefix Information */
    0x08, 0x1e, 0x40, 0x60, 0x00, 0x01, 0x51, 0x80, 0x00, 0x00, 0x38, 0x40, 0x00, 0x00, 0x00, 0x00,
    0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    /* Route Information */
    0x03, 0x0e, 0x30, 0x08, 0x00, 0x00, 0x0e, 0x10, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00,
    /* DAG Metric Container, PadN */
    0x02, 0x06, 0x07, 0x00, 0x00, 0x02, 0x00, 0x80, 0x01, 0x02, 0x00, 0x00,
};
#define DIO_OPTIONS_LEN (sizeof(dio) - TERN_RPL_DIO_LEN)

/* Non-storing DAO 2001:db8::2:a -> 2001:db8::1 (§6.4.1): Code 0x02, checksum
 * 0x262F, RPLInstanceID 30, K 1 D 1 Flags 000000 = 0xC0, Reserved 0,
 * DAOSequence 7, DODAGID 2001:db8::1; then
 * - RPL Target (§6.7.7): 0x05, 2 + 16 = 18 = 0x12, Flags 0, Prefix Length 128 = 0x80,
 *   2001:db8::2:a;
 * - Transit Information (§6.7.8): 0x06, 20 = 0x14 (with Parent Address), E 1 = 0x80,
 *   Path Control 0x80, Path Sequence 7, Path Lifetime 0xFF, Parent 2001:db8::1:5;
 * - RPL Target Descriptor (§6.7.11): 0x09, 4, 0xDEADBEEF. */
static const uint8_t dao[] = {
    0x9b, 0x02, 0x26, 0x2f, 0x1e, 0xc0, 0x00, 0x07,
    0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x05, 0x12, 0x00, 0x80,
    0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x0a,
    0x06, 0x14, 0x80, 0x80, 0x07, 0xff,
    0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x05,
    0x09, 0x04, 0xde, 0xad, 0xbe, 0xef,
};

/* Storing-mode No-Path DAO fe80::2 -> fe80::1: checksum 0x2690, RPLInstanceID 0,
 * K 0 D 0 = 0x00, Reserved 0, DAOSequence 8; RPL Target 2001:db8:0:5::/64 in
 * ceil(64 / 8) = 8 octets: 0x05, 2 + 8 = 0x0A, 0, 0x40; Transit Information
 * without parent: 0x06, 4, E 0, Path Control 0, Path Sequence 8, Path Lifetime 0. */
static const uint8_t dao_nopath[] = {
    0x9b, 0x02, 0x26, 0x90, 0x00, 0x00, 0x00, 0x08,
    0x05, 0x0a, 0x00, 0x40, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x05,
    0x06, 0x04, 0x00, 0x00, 0x08, 0x00,
};

/* DAO-ACK 2001:db8::1 -> 2001:db8::2:a (§6.5.1): Code 0x03, checksum 0xB5F0,
 * RPLInstanceID 30, D 1 Reserved 0000000 = 0x80, DAOSequence 7, Status 0,
 * DODAGID 2001:db8::1. */
static const uint8_t dao_ack[] = {
    0x9b, 0x03, 0xb5, 0xf0, 0x1e, 0x80, 0x07, 0x00,
    0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
};

/* DAO-ACK fe80::1 -> fe80::2 without DODAGID: checksum 0x5F35, RPLInstanceID 0,
 * D 0, DAOSequence 8, Status 128 (a rejection). */
static const uint8_t dao_ack_reject[] = { 0x9b, 0x03, 0x5f, 0x35, 0x00, 0x00, 0x08, 0x80 };

/* ---- tern_rpl_code ------------------------------------------------------------------ */

static void test_tern_rpl_code__base_secure_unknown(void **state)
{
    (void)state;
    assert_int_equal(tern_rpl_code(dis, sizeof(dis)), TERN_RPL_CODE_DIS);
    assert_int_equal(tern_rpl_code(dio, sizeof(dio)), TERN_RPL_CODE_DIO);
    assert_int_equal(tern_rpl_code(dao, sizeof(dao)), TERN_RPL_CODE_DAO);
    assert_int_equal(tern_rpl_code(dao_ack, sizeof(dao_ack)), TERN_RPL_CODE_DAO_ACK);
    uint8_t m[8] = { 0x9b, 0, 0, 0, 0, 0, 0, 0 };
    /* §6: the secured variants and the Consistency Check. */
    static const uint8_t secure[] = { 0x80, 0x81, 0x82, 0x83, 0x8a, 0xff };
    for (size_t i = 0; i < sizeof(secure); i++) {
        m[1] = secure[i];
        assert_int_equal(tern_rpl_code(m, sizeof(m)), -ENOTSUP);
    }
    /* Unknown codes (0x04, 0x05: RFC 6997's P2P-DRO and DRO-ACK, not supported). */
    static const uint8_t unknown[] = { 0x04, 0x05, 0x7f };
    for (size_t i = 0; i < sizeof(unknown); i++) {
        m[1] = unknown[i];
        assert_int_equal(tern_rpl_code(m, sizeof(m)), -EPROTONOSUPPORT);
    }
    m[0] = 154;
    m[1] = 0;
    assert_int_equal(tern_rpl_code(m, sizeof(m)), -EBADMSG);
    assert_int_equal(tern_rpl_code(dis, 3), -EBADMSG);
}

/* ---- DIS ------------------------------------------------------------------------------ */

static void test_tern_rpl_dis_parse__golden(void **state)
{
    (void)state;
    tern_rpl_dis_repr_t r;
    assert_int_equal(tern_rpl_dis_parse(&r, dis, sizeof(dis)), TERN_RPL_DIS_LEN);
    assert_ptr_equal(r.options, dis + TERN_RPL_DIS_LEN);
    assert_int_equal(r.options_len, 21);
    tern_rpl_opt_t o;
    assert_int_equal(tern_rpl_opt_find(r.options, r.options_len, TERN_RPL_OPT_SOLICITED, &o), 1);
    assert_true(tern_rpl_opt_allowed(TERN_RPL_CODE_DIS, o.type));
    tern_rpl_opt_solicited_t s;
    assert_int_equal(tern_rpl_opt_solicited_parse(&s, &o), 0);
    assert_int_equal(s.instance_id, 30);
    assert_true(s.match_version && s.match_instance && s.match_dodag_id);
    assert_addr(&s.dodag_id, "2001:db8::1");
    assert_int_equal(s.version, 240);
    /* Flags and Reserved set: ignored (§6.2.1); a DIS without options. */
    uint8_t m[TERN_RPL_DIS_LEN] = { 0x9b, 0x00, 0, 0, 0xff, 0xff };
    assert_int_equal(tern_rpl_dis_parse(&r, m, sizeof(m)), TERN_RPL_DIS_LEN);
    assert_int_equal(r.options_len, 0);
}

static void test_tern_rpl_dis_emit__golden(void **state)
{
    (void)state;
    uint8_t opts[32];
    tern_rpl_opt_solicited_t s = { .instance_id = 30, .match_version = true, .match_instance = true,
                                   .match_dodag_id = true, .dodag_id = addr("2001:db8::1"), .version = 240 };
    assert_int_equal(tern_rpl_opt_solicited_emit(&s, opts, TERN_RPL_OPT_SOLICITED_LEN - 1), -ENOBUFS);
    assert_int_equal(tern_rpl_opt_solicited_emit(&s, opts, sizeof(opts)), TERN_RPL_OPT_SOLICITED_LEN);
    tern_rpl_dis_repr_t r = { .options = opts, .options_len = TERN_RPL_OPT_SOLICITED_LEN };
    uint8_t out[64];
    assert_int_equal(tern_rpl_dis_len(&r), sizeof(dis));
    assert_int_equal(tern_rpl_dis_emit(&r, out, sizeof(dis) - 1), -ENOBUFS);
    assert_int_equal(tern_rpl_dis_emit(&r, out, sizeof(out)), sizeof(dis));
    assert_int_equal(out[2] | out[3], 0); /* the checksum is the caller's */
    checksum(out, sizeof(dis), "fe80::2", "ff02::1a");
    assert_memory_equal(out, dis, sizeof(dis));
    r.options = NULL;
    assert_int_equal(tern_rpl_dis_emit(&r, out, sizeof(out)), -EINVAL);
    r.options_len = 0;
    assert_int_equal(tern_rpl_dis_emit(&r, out, sizeof(out)), TERN_RPL_DIS_LEN);
}

/* Options built where they go (out + the fixed part) and emitted in place. */
static void test_tern_rpl_dis_emit__options_in_place(void **state)
{
    (void)state;
    uint8_t out[64];
    memset(out, 0xa5, sizeof(out));
    tern_rpl_opt_solicited_t s = { .instance_id = 30, .match_version = true, .match_instance = true,
                                   .match_dodag_id = true, .dodag_id = addr("2001:db8::1"), .version = 240 };
    assert_int_equal(tern_rpl_opt_solicited_emit(&s, out + TERN_RPL_DIS_LEN, sizeof(out) - TERN_RPL_DIS_LEN),
                     TERN_RPL_OPT_SOLICITED_LEN);
    tern_rpl_dis_repr_t r = { .options = out + TERN_RPL_DIS_LEN, .options_len = TERN_RPL_OPT_SOLICITED_LEN };
    assert_int_equal(tern_rpl_dis_emit(&r, out, sizeof(out)), sizeof(dis));
    checksum(out, sizeof(dis), "fe80::2", "ff02::1a");
    assert_memory_equal(out, dis, sizeof(dis));
}

/* ---- DIO ------------------------------------------------------------------------------ */

static void test_tern_rpl_dio_parse__golden(void **state)
{
    (void)state;
    tern_rpl_dio_repr_t r;
    assert_int_equal(tern_rpl_dio_parse(&r, dio, sizeof(dio)), TERN_RPL_DIO_LEN);
    assert_int_equal(r.instance_id, 30);
    assert_int_equal(r.version, 240);
    assert_int_equal(r.rank, 256);
    assert_true(r.grounded);
    assert_int_equal(r.mop, TERN_RPL_MOP_STORING_MULTICAST);
    assert_int_equal(r.preference, 5);
    assert_int_equal(r.dtsn, 0x42);
    assert_addr(&r.dodag_id, "2001:db8::1");
    assert_int_equal(r.options_len, DIO_OPTIONS_LEN);
    /* Four options; the PadN is skipped. */
    assert_int_equal(tern_rpl_options_check(r.options, r.options_len), 4);

    tern_rpl_opt_iter_t it;
    tern_rpl_opt_t o;
    tern_rpl_opt_iter_init(&it, r.options, r.options_len);
    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    assert_int_equal(o.type, TERN_RPL_OPT_DODAG_CONF);
    assert_int_equal(o.len, TERN_RPL_OPT_DODAG_CONF_LEN);
    tern_rpl_opt_dodag_conf_t c;
    assert_int_equal(tern_rpl_opt_dodag_conf_parse(&c, &o), 0);
    assert_false(c.authentication);
    assert_int_equal(c.path_control_size, 3);
    assert_int_equal(c.dio_int_doublings, 20);
    assert_int_equal(c.dio_int_min, 3);
    assert_int_equal(c.dio_redundancy, 10);
    assert_int_equal(c.max_rank_increase, 1792);
    assert_int_equal(c.min_hop_rank_increase, 256);
    assert_int_equal(c.ocp, 1);
    assert_int_equal(c.default_lifetime, 0xff);
    assert_int_equal(c.lifetime_unit, 0xffff);

    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    tern_ndp_opt_prefix_info_t p;
    assert_int_equal(tern_rpl_opt_prefix_info_parse(&p, &o), 0);
    assert_int_equal(p.prefix_len, 64);
    assert_int_equal(p.flags, TERN_NDP_PIO_FLAG_AUTONOMOUS | TERN_NDP_PIO_FLAG_ROUTER_ADDR);
    assert_int_equal(p.valid_lifetime, 86400);
    assert_int_equal(p.preferred_lifetime, 14400);
    assert_addr(&p.prefix, "2001:db8::1");

    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    tern_rpl_opt_route_info_t ri;
    assert_int_equal(tern_rpl_opt_route_info_parse(&ri, &o), 0);
    assert_int_equal(ri.prefix_len, 48);
    assert_int_equal(ri.preference, 1);
    assert_int_equal(ri.lifetime, 3600);
    assert_addr(&ri.prefix, "2001:db8:1::");

    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    tern_rpl_opt_metric_t m;
    assert_int_equal(tern_rpl_opt_metric_parse(&m, &o), 0);
    assert_int_equal(m.len, 6);
    assert_ptr_equal(m.data, o.data + 2);
    assert_int_equal(m.data[0], 7); /* ETX */

    assert_int_equal(tern_rpl_opt_next(&it, &o), 0);
    assert_int_equal(tern_rpl_opt_next(&it, &o), 0);
}

static void test_tern_rpl_dio_parse__reserved_ignored(void **state)
{
    (void)state;
    uint8_t m[TERN_RPL_DIO_LEN];
    memcpy(m, dio, sizeof(m));
    m[8] |= 0x40; /* the bit after G */
    m[10] = 0xff; /* Flags */
    m[11] = 0xff; /* Reserved */
    tern_rpl_dio_repr_t r;
    assert_int_equal(tern_rpl_dio_parse(&r, m, sizeof(m)), TERN_RPL_DIO_LEN);
    assert_true(r.grounded);
    assert_int_equal(r.mop, 3);
    assert_int_equal(r.preference, 5);
    assert_int_equal(r.options_len, 0);
    /* G 0, MOP 0, Prf 0. */
    m[8] = 0x00;
    assert_int_equal(tern_rpl_dio_parse(&r, m, sizeof(m)), TERN_RPL_DIO_LEN);
    assert_false(r.grounded);
    assert_int_equal(r.mop, 0);
    assert_int_equal(r.preference, 0);
}

/* The option area built with the option emit functions, as dio[] carries it. */
static int build_dio_options(uint8_t *buf, size_t len)
{
    tern_rpl_opt_dodag_conf_t c = { .path_control_size = 3, .dio_int_doublings = 20, .dio_int_min = 3,
                                    .dio_redundancy = 10, .max_rank_increase = 1792,
                                    .min_hop_rank_increase = 256, .ocp = 1, .default_lifetime = 0xff,
                                    .lifetime_unit = 0xffff };
    tern_ndp_opt_prefix_info_t p = { .prefix_len = 64,
                                     .flags = TERN_NDP_PIO_FLAG_AUTONOMOUS | TERN_NDP_PIO_FLAG_ROUTER_ADDR,
                                     .valid_lifetime = 86400, .preferred_lifetime = 14400,
                                     .prefix = addr("2001:db8::1") };
    /* Bits past the /48 set: written as 0. */
    tern_rpl_opt_route_info_t ri = { .prefix_len = 48, .preference = 1, .lifetime = 3600,
                                     .prefix = addr("2001:db8:1:ffff::1") };
    static const uint8_t etx[] = { 0x07, 0x00, 0x00, 0x02, 0x00, 0x80 };
    tern_rpl_opt_metric_t m = { .data = etx, .len = sizeof(etx) };
    size_t n = 0;
    int rc = tern_rpl_opt_dodag_conf_emit(&c, buf, len);
    assert_int_equal(rc, TERN_RPL_OPT_DODAG_CONF_LEN);
    n += (size_t)rc;
    rc = tern_rpl_opt_prefix_info_emit(&p, buf + n, len - n);
    assert_int_equal(rc, TERN_RPL_OPT_PREFIX_INFO_LEN);
    n += (size_t)rc;
    assert_int_equal(tern_rpl_opt_route_info_len(&ri), 16);
    rc = tern_rpl_opt_route_info_emit(&ri, buf + n, len - n);
    assert_int_equal(rc, 16);
    n += (size_t)rc;
    assert_int_equal(tern_rpl_opt_metric_len(&m), 8);
    rc = tern_rpl_opt_metric_emit(&m, buf + n, len - n);
    assert_int_equal(rc, 8);
    n += (size_t)rc;
    rc = tern_rpl_opt_pad_emit(buf + n, len - n, 4);
    assert_int_equal(rc, 4);
    return (int)(n + (size_t)rc);
}

static void test_tern_rpl_dio_emit__golden(void **state)
{
    (void)state;
    uint8_t opts[128];
    int n = build_dio_options(opts, sizeof(opts));
    assert_int_equal(n, DIO_OPTIONS_LEN);
    assert_memory_equal(opts, dio + TERN_RPL_DIO_LEN, DIO_OPTIONS_LEN);
    tern_rpl_dio_repr_t r = { .instance_id = 30, .version = 240, .rank = 256, .grounded = true,
                              .mop = TERN_RPL_MOP_STORING_MULTICAST, .preference = 5, .dtsn = 0x42,
                              .dodag_id = addr("2001:db8::1"), .options = opts, .options_len = (size_t)n };
    uint8_t out[128];
    memset(out, 0xaa, sizeof(out));
    assert_int_equal(tern_rpl_dio_len(&r), sizeof(dio));
    assert_int_equal(tern_rpl_dio_emit(&r, out, sizeof(dio) - 1), -ENOBUFS);
    assert_int_equal(out[0], 0xaa); /* nothing written */
    assert_int_equal(tern_rpl_dio_emit(&r, out, sizeof(out)), sizeof(dio));
    checksum(out, sizeof(dio), "fe80::1", "ff02::1a");
    assert_memory_equal(out, dio, sizeof(dio));

    /* The option area may already sit where the emit puts it. */
    memset(out, 0, sizeof(out));
    n = build_dio_options(out + TERN_RPL_DIO_LEN, sizeof(out) - TERN_RPL_DIO_LEN);
    r.options = out + TERN_RPL_DIO_LEN;
    assert_int_equal(tern_rpl_dio_emit(&r, out, sizeof(out)), sizeof(dio));
    checksum(out, sizeof(dio), "fe80::1", "ff02::1a");
    assert_memory_equal(out, dio, sizeof(dio));

    r.options = opts;
    r.mop = 8;
    assert_int_equal(tern_rpl_dio_emit(&r, out, sizeof(out)), -EINVAL);
    r.mop = 7;
    r.preference = 8;
    assert_int_equal(tern_rpl_dio_emit(&r, out, sizeof(out)), -EINVAL);
}

/* ---- DAO ------------------------------------------------------------------------------ */

static void test_tern_rpl_dao_parse__golden(void **state)
{
    (void)state;
    tern_rpl_dao_repr_t r;
    assert_int_equal(tern_rpl_dao_parse(&r, dao, sizeof(dao)), TERN_RPL_DAO_LEN + 16);
    assert_int_equal(r.instance_id, 30);
    assert_true(r.ack_requested);
    assert_true(r.has_dodag_id);
    assert_int_equal(r.sequence, 7);
    assert_addr(&r.dodag_id, "2001:db8::1");
    assert_int_equal(r.options_len, sizeof(dao) - 24);

    tern_rpl_opt_iter_t it;
    tern_rpl_opt_t o;
    tern_rpl_opt_iter_init(&it, r.options, r.options_len);
    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    assert_true(tern_rpl_opt_allowed(TERN_RPL_CODE_DAO, o.type));
    tern_rpl_opt_target_t t;
    assert_int_equal(tern_rpl_opt_target_parse(&t, &o), 0);
    assert_int_equal(t.prefix_len, 128);
    assert_addr(&t.prefix, "2001:db8::2:a");
    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    tern_rpl_opt_transit_t tr;
    assert_int_equal(tern_rpl_opt_transit_parse(&tr, &o), 0);
    assert_true(tr.external);
    assert_int_equal(tr.path_control, 0x80);
    assert_int_equal(tr.path_sequence, 7);
    assert_int_equal(tr.path_lifetime, 0xff);
    assert_true(tr.has_parent);
    assert_addr(&tr.parent, "2001:db8::1:5");
    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    uint32_t d = 0;
    assert_int_equal(tern_rpl_opt_target_desc_parse(&d, &o), 0);
    assert_int_equal(d, 0xdeadbeefu);
    assert_int_equal(tern_rpl_opt_next(&it, &o), 0);

    assert_int_equal(tern_rpl_dao_parse(&r, dao_nopath, sizeof(dao_nopath)), TERN_RPL_DAO_LEN);
    assert_int_equal(r.instance_id, 0);
    assert_false(r.ack_requested);
    assert_false(r.has_dodag_id);
    assert_int_equal(r.sequence, 8);
    assert_addr(&r.dodag_id, "::");
    assert_int_equal(tern_rpl_opt_find(r.options, r.options_len, TERN_RPL_OPT_TARGET, &o), 1);
    assert_int_equal(tern_rpl_opt_target_parse(&t, &o), 0);
    assert_int_equal(t.prefix_len, 64);
    assert_addr(&t.prefix, "2001:db8:0:5::");
    assert_int_equal(tern_rpl_opt_find(r.options, r.options_len, TERN_RPL_OPT_TRANSIT, &o), 1);
    assert_int_equal(tern_rpl_opt_transit_parse(&tr, &o), 0);
    assert_false(tr.external);
    assert_false(tr.has_parent);
    assert_int_equal(tr.path_lifetime, 0);
    assert_int_equal(tern_rpl_opt_find(r.options, r.options_len, TERN_RPL_OPT_TARGET_DESC, &o), 0);
}

static void test_tern_rpl_dao_emit__golden(void **state)
{
    (void)state;
    uint8_t opts[64];
    tern_rpl_opt_target_t t = { .prefix_len = 128, .prefix = addr("2001:db8::2:a") };
    tern_rpl_opt_transit_t tr = { .external = true, .path_control = 0x80, .path_sequence = 7,
                                  .path_lifetime = 0xff, .has_parent = true, .parent = addr("2001:db8::1:5") };
    size_t n = 0;
    assert_int_equal(tern_rpl_opt_target_len(&t), 20);
    n += (size_t)tern_rpl_opt_target_emit(&t, opts, sizeof(opts));
    assert_int_equal(tern_rpl_opt_transit_len(&tr), TERN_RPL_OPT_TRANSIT_PARENT_LEN);
    n += (size_t)tern_rpl_opt_transit_emit(&tr, opts + n, sizeof(opts) - n);
    assert_int_equal(tern_rpl_opt_target_desc_emit(0xdeadbeefu, opts + n, 5), -ENOBUFS);
    n += (size_t)tern_rpl_opt_target_desc_emit(0xdeadbeefu, opts + n, sizeof(opts) - n);
    assert_int_equal(n, sizeof(dao) - 24);
    tern_rpl_dao_repr_t r = { .instance_id = 30, .ack_requested = true, .has_dodag_id = true, .sequence = 7,
                              .dodag_id = addr("2001:db8::1"), .options = opts, .options_len = n };
    uint8_t out[128];
    assert_int_equal(tern_rpl_dao_len(&r), sizeof(dao));
    assert_int_equal(tern_rpl_dao_emit(&r, out, sizeof(dao) - 1), -ENOBUFS);
    assert_int_equal(tern_rpl_dao_emit(&r, out, sizeof(out)), sizeof(dao));
    checksum(out, sizeof(dao), "2001:db8::2:a", "2001:db8::1");
    assert_memory_equal(out, dao, sizeof(dao));

    /* No-Path DAO: the /64 target in 8 octets, the bits past it cleared. */
    tern_rpl_opt_target_t t64 = { .prefix_len = 64, .prefix = addr("2001:db8:0:5:1:2:3:4") };
    tern_rpl_opt_transit_t np = { .path_sequence = 8 };
    n = (size_t)tern_rpl_opt_target_emit(&t64, opts, sizeof(opts));
    assert_int_equal(n, 12);
    assert_int_equal(tern_rpl_opt_transit_len(&np), TERN_RPL_OPT_TRANSIT_LEN);
    n += (size_t)tern_rpl_opt_transit_emit(&np, opts + n, sizeof(opts) - n);
    tern_rpl_dao_repr_t p = { .instance_id = 0, .sequence = 8, .options = opts, .options_len = n };
    assert_int_equal(tern_rpl_dao_len(&p), sizeof(dao_nopath));
    assert_int_equal(tern_rpl_dao_emit(&p, out, sizeof(out)), sizeof(dao_nopath));
    checksum(out, sizeof(dao_nopath), "fe80::2", "fe80::1");
    assert_memory_equal(out, dao_nopath, sizeof(dao_nopath));
}

static void test_tern_rpl_dao__local_instance_needs_dodagid(void **state)
{
    (void)state;
    /* §6.4.1: D "MUST be set when a local RPLInstanceID is used". */
    uint8_t m[sizeof(dao_nopath)];
    memcpy(m, dao_nopath, sizeof(m));
    m[4] = TERN_RPL_INSTANCE_LOCAL | 0x01;
    tern_rpl_dao_repr_t r;
    assert_int_equal(tern_rpl_dao_parse(&r, m, sizeof(m)), -EBADMSG);
    tern_rpl_dao_repr_t e = { .instance_id = 0x81, .sequence = 1 };
    uint8_t out[64];
    assert_int_equal(tern_rpl_dao_emit(&e, out, sizeof(out)), -EINVAL);
    e.has_dodag_id = true;
    e.dodag_id = addr("fd00::1");
    assert_int_equal(tern_rpl_dao_emit(&e, out, sizeof(out)), 24);
    assert_int_equal(tern_rpl_dao_parse(&r, out, 24), 24);
    assert_int_equal(r.instance_id, 0x81);
    assert_addr(&r.dodag_id, "fd00::1");
    /* The same for DAO-ACK (§6.5.1). */
    uint8_t a[sizeof(dao_ack_reject)];
    memcpy(a, dao_ack_reject, sizeof(a));
    a[4] = 0x80;
    tern_rpl_dao_ack_repr_t ar;
    assert_int_equal(tern_rpl_dao_ack_parse(&ar, a, sizeof(a)), -EBADMSG);
    tern_rpl_dao_ack_repr_t ae = { .instance_id = 0xc0 };
    assert_int_equal(tern_rpl_dao_ack_emit(&ae, out, sizeof(out)), -EINVAL);
}

static void test_tern_rpl_dao_parse__code_and_length_judged_before_the_d_flag(void **state)
{
    (void)state;
    /* A local RPLInstanceID without D is malformed (§6.4.1), but a secured
     * Code (§6, §10) or an unknown one is reported as such first, and a
     * message too short to hold its base object (or the DODAGID D
     * announces) is malformed whatever its flags. */
    uint8_t m[sizeof(dao_nopath)];
    memcpy(m, dao_nopath, sizeof(m));
    m[4] = TERN_RPL_INSTANCE_LOCAL | 0x01;
    tern_rpl_dao_repr_t r;
    m[1] = TERN_RPL_CODE_SECURE_BIT | TERN_RPL_CODE_DAO;
    assert_int_equal(tern_rpl_dao_parse(&r, m, sizeof(m)), -ENOTSUP);
    m[1] = 0x7f;
    assert_int_equal(tern_rpl_dao_parse(&r, m, sizeof(m)), -EPROTONOSUPPORT);
    m[1] = TERN_RPL_CODE_DIO;
    assert_int_equal(tern_rpl_dao_parse(&r, m, sizeof(m)), -EBADMSG);
    m[1] = TERN_RPL_CODE_DAO;
    assert_int_equal(tern_rpl_dao_parse(&r, m, TERN_RPL_DAO_LEN - 1u), -EBADMSG);
    m[5] |= TERN_RPL_DAO_FLAG_D; /* announces a DODAGID the message does not hold */
    assert_int_equal(tern_rpl_dao_parse(&r, m, TERN_RPL_DAO_LEN + TERN_RPL_DODAGID_LEN - 1u), -EBADMSG);
    tern_rpl_dao_ack_repr_t ar;
    uint8_t a[sizeof(dao_ack_reject)];
    memcpy(a, dao_ack_reject, sizeof(a));
    a[4] = TERN_RPL_INSTANCE_LOCAL;
    a[1] = TERN_RPL_CODE_SECURE_BIT | TERN_RPL_CODE_DAO_ACK;
    assert_int_equal(tern_rpl_dao_ack_parse(&ar, a, sizeof(a)), -ENOTSUP);
    a[1] = TERN_RPL_CODE_DAO_ACK;
    assert_int_equal(tern_rpl_dao_ack_parse(&ar, a, TERN_RPL_DAO_ACK_LEN - 1u), -EBADMSG);
}

static void test_tern_rpl_dao_parse__reserved_ignored_and_truncated(void **state)
{
    (void)state;
    uint8_t m[sizeof(dao_nopath)];
    memcpy(m, dao_nopath, sizeof(m));
    m[5] = 0x3f; /* the 6 reserved flags */
    m[6] = 0xff; /* Reserved */
    tern_rpl_dao_repr_t r;
    assert_int_equal(tern_rpl_dao_parse(&r, m, sizeof(m)), TERN_RPL_DAO_LEN);
    assert_false(r.ack_requested || r.has_dodag_id);
    /* D set, but the message ends before the DODAGID does. */
    assert_int_equal(tern_rpl_dao_parse(&r, dao, 23), -EBADMSG);
    assert_int_equal(tern_rpl_dao_parse(&r, dao, 7), -EBADMSG);
    /* Options cut in the middle. */
    assert_int_equal(tern_rpl_dao_parse(&r, dao, sizeof(dao) - 1), -EBADMSG);
}

/* ---- DAO-ACK ---------------------------------------------------------------------------- */

static void test_tern_rpl_dao_ack__golden(void **state)
{
    (void)state;
    tern_rpl_dao_ack_repr_t r;
    assert_int_equal(tern_rpl_dao_ack_parse(&r, dao_ack, sizeof(dao_ack)), 24);
    assert_int_equal(r.instance_id, 30);
    assert_true(r.has_dodag_id);
    assert_int_equal(r.sequence, 7);
    assert_int_equal(r.status, TERN_RPL_DAO_ACK_ACCEPT);
    assert_addr(&r.dodag_id, "2001:db8::1");
    assert_int_equal(r.options_len, 0);
    uint8_t out[32];
    assert_int_equal(tern_rpl_dao_ack_len(&r), sizeof(dao_ack));
    assert_int_equal(tern_rpl_dao_ack_emit(&r, out, sizeof(dao_ack) - 1), -ENOBUFS);
    assert_int_equal(tern_rpl_dao_ack_emit(&r, out, sizeof(out)), sizeof(dao_ack));
    checksum(out, sizeof(dao_ack), "2001:db8::1", "2001:db8::2:a");
    assert_memory_equal(out, dao_ack, sizeof(dao_ack));

    assert_int_equal(tern_rpl_dao_ack_parse(&r, dao_ack_reject, sizeof(dao_ack_reject)), 8);
    assert_false(r.has_dodag_id);
    assert_int_equal(r.sequence, 8);
    assert_true(r.status >= TERN_RPL_DAO_ACK_REJECT_MIN);
    assert_int_equal(tern_rpl_dao_ack_emit(&r, out, sizeof(out)), 8);
    checksum(out, 8, "fe80::1", "fe80::2");
    assert_memory_equal(out, dao_ack_reject, 8);
    /* The 7 reserved bits: ignored. */
    uint8_t m[sizeof(dao_ack_reject)];
    memcpy(m, dao_ack_reject, sizeof(m));
    m[5] = 0x7f;
    assert_int_equal(tern_rpl_dao_ack_parse(&r, m, sizeof(m)), 8);
    assert_false(r.has_dodag_id);
    assert_int_equal(tern_rpl_dao_ack_parse(&r, dao_ack, 23), -EBADMSG);
    assert_int_equal(tern_rpl_dao_ack_parse(&r, dao_ack, 7), -EBADMSG);
}

/* ---- every parser refuses what is not its message ------------------------------------- */

static void test_tern_rpl_parse__wrong_secure_unknown_code(void **state)
{
    (void)state;
    tern_rpl_dis_repr_t dr;
    tern_rpl_dio_repr_t ir;
    tern_rpl_dao_repr_t ar;
    tern_rpl_dao_ack_repr_t kr;
    /* Another RPL message. */
    assert_int_equal(tern_rpl_dis_parse(&dr, dio, sizeof(dio)), -EBADMSG);
    assert_int_equal(tern_rpl_dio_parse(&ir, dis, sizeof(dis)), -EBADMSG);
    assert_int_equal(tern_rpl_dao_parse(&ar, dao_ack, sizeof(dao_ack)), -EBADMSG);
    assert_int_equal(tern_rpl_dao_ack_parse(&kr, dao, sizeof(dao)), -EBADMSG);
    /* Truncated base objects. */
    assert_int_equal(tern_rpl_dis_parse(&dr, dis, TERN_RPL_DIS_LEN - 1), -EBADMSG);
    assert_int_equal(tern_rpl_dio_parse(&ir, dio, TERN_RPL_DIO_LEN - 1), -EBADMSG);
    /* A secured DIO (Code 0x81) and an unknown Code. */
    uint8_t m[sizeof(dio)];
    memcpy(m, dio, sizeof(m));
    m[1] = TERN_RPL_CODE_SECURE_DIO;
    assert_int_equal(tern_rpl_dio_parse(&ir, m, sizeof(m)), -ENOTSUP);
    m[1] = TERN_RPL_CODE_SECURE_DIS;
    assert_int_equal(tern_rpl_dis_parse(&dr, m, sizeof(m)), -ENOTSUP);
    m[1] = TERN_RPL_CODE_SECURE_DAO;
    assert_int_equal(tern_rpl_dao_parse(&ar, m, sizeof(m)), -ENOTSUP);
    m[1] = TERN_RPL_CODE_SECURE_DAO_ACK;
    assert_int_equal(tern_rpl_dao_ack_parse(&kr, m, sizeof(m)), -ENOTSUP);
    m[1] = 0x06;
    assert_int_equal(tern_rpl_dio_parse(&ir, m, sizeof(m)), -EPROTONOSUPPORT);
    /* Not RPL at all. */
    m[0] = TERN_ICMPV6_ECHO_REQUEST;
    m[1] = TERN_RPL_CODE_DIO;
    assert_int_equal(tern_rpl_dio_parse(&ir, m, sizeof(m)), -EBADMSG);
    /* A malformed option makes the message malformed. */
    memcpy(m, dio, sizeof(m));
    m[TERN_RPL_DIO_LEN + 1] = 13; /* DODAG Configuration of Option Length 13 */
    assert_int_equal(tern_rpl_dio_parse(&ir, m, sizeof(m)), -EBADMSG);
}

/* ---- options ----------------------------------------------------------------------------- */

/* Each row: one option area that breaks a rule of §6.7. */
static void test_tern_rpl_opt_next__length_rules(void **state)
{
    (void)state;
    static const struct {
        const char *why;
        uint8_t bytes[40];
        size_t len;
    } bad[] = {
        { "PadN of 8 octets (Option Length 6)", { 0x01, 0x06 }, 8 },
        { "DODAG Configuration, Option Length 13", { 0x04, 0x0d }, 15 },
        { "DODAG Configuration, Option Length 15", { 0x04, 0x0f }, 17 },
        { "Transit Information, Option Length 5", { 0x06, 0x05 }, 7 },
        { "Transit Information, Option Length 19", { 0x06, 0x13 }, 21 },
        { "Solicited Information, Option Length 18", { 0x07, 0x12 }, 20 },
        { "Prefix Information, Option Length 29", { 0x08, 0x1d }, 31 },
        { "Prefix Information, Prefix Length 129", { 0x08, 0x1e, 0x81 }, 32 },
        { "Target Descriptor, Option Length 3", { 0x09, 0x03 }, 5 },
        { "Route Information, /64 in 4 octets", { 0x03, 0x0a, 0x40 }, 12 },
        { "Route Information, 17 prefix octets", { 0x03, 0x17, 0x80 }, 25 },
        { "Route Information, Prefix Length 129", { 0x03, 0x16, 0x81 }, 24 },
        { "Route Information, Option Length 5", { 0x03, 0x05 }, 7 },
        { "RPL Target, /128 in 15 octets", { 0x05, 0x11, 0x00, 0x80 }, 19 },
        { "RPL Target, 17 prefix octets", { 0x05, 0x13, 0x00, 0x80 }, 21 },
        { "RPL Target, Prefix Length 129", { 0x05, 0x12, 0x00, 0x81 }, 20 },
        { "RPL Target, Option Length 1", { 0x05, 0x01, 0x00 }, 3 },
        { "an option running past the area (10 octets in 9)", { 0x02, 0x08, 0x07 }, 9 },
        { "a lone Type octet at the end", { 0x00, 0x02 }, 2 },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        size_t len = bad[i].len;
        tern_rpl_opt_iter_t it;
        tern_rpl_opt_t o;
        tern_rpl_opt_iter_init(&it, bad[i].bytes, len);
        int rc = tern_rpl_opt_next(&it, &o);
        if (rc != -EBADMSG) {
            fail_msg("%s: %d", bad[i].why, rc);
        }
        assert_int_equal(tern_rpl_opt_next(&it, &o), -EBADMSG); /* stays failing */
        assert_int_equal(tern_rpl_options_check(bad[i].bytes, len), -EBADMSG);
    }
}

static void test_tern_rpl_opt_next__padding_unknown_and_limits(void **state)
{
    (void)state;
    /* Pad1, PadN of 7 (the largest), an unknown option 0x0A of 3 octets of
     * data, an empty DAG Metric Container, a /0 Route Information without
     * prefix octets, a /0 Target, Pad1. */
    static const uint8_t area[] = {
        0x00, 0x01, 0x05, 0, 0, 0, 0, 0, 0x0a, 0x03, 1, 2, 3, 0x02, 0x00,
        0x03, 0x06, 0x00, 0x18, 0xff, 0xff, 0xff, 0xff, 0x05, 0x02, 0x00, 0x00, 0x00,
    };
    tern_rpl_opt_iter_t it;
    tern_rpl_opt_t o;
    tern_rpl_opt_iter_init(&it, area, sizeof(area));
    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    assert_int_equal(o.type, 0x0a);
    assert_int_equal(o.len, 5);
    assert_ptr_equal(o.data, area + 8);
    assert_false(tern_rpl_opt_allowed(TERN_RPL_CODE_DIO, o.type));
    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    tern_rpl_opt_metric_t m;
    assert_int_equal(tern_rpl_opt_metric_parse(&m, &o), 0);
    assert_int_equal(m.len, 0);
    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    tern_rpl_opt_route_info_t ri;
    assert_int_equal(tern_rpl_opt_route_info_parse(&ri, &o), 0);
    assert_int_equal(ri.prefix_len, 0);
    assert_int_equal(ri.preference, 3); /* 11: low */
    assert_int_equal(ri.lifetime, 0xffffffffu);
    assert_addr(&ri.prefix, "::");
    assert_int_equal(tern_rpl_opt_next(&it, &o), 1);
    tern_rpl_opt_target_t t;
    assert_int_equal(tern_rpl_opt_target_parse(&t, &o), 0);
    assert_int_equal(t.prefix_len, 0);
    assert_int_equal(tern_rpl_opt_next(&it, &o), 0);
    assert_int_equal(tern_rpl_options_check(area, sizeof(area)), 4);
    assert_int_equal(tern_rpl_options_check(NULL, 5), 0);
    assert_int_equal(tern_rpl_opt_find(area, sizeof(area), TERN_RPL_OPT_PADN, &o), 0);
}

static void test_tern_rpl_opt_parse__prefix_octets_and_ignored_bits(void **state)
{
    (void)state;
    /* Route Information /44 with the minimal 6 octets, the bits past 44 set:
     * cleared (§6.7.5: "ignored by the receiver"). */
    static const uint8_t rio[] = { 0x03, 0x0c, 0x2c, 0xe7, 0x00, 0x00, 0x00, 0x3c,
                                   0x20, 0x01, 0x0d, 0xb8, 0x00, 0x1f };
    tern_rpl_opt_t o = opt_of(rio, sizeof(rio));
    tern_rpl_opt_route_info_t ri;
    assert_int_equal(tern_rpl_opt_route_info_parse(&ri, &o), 0);
    assert_int_equal(ri.prefix_len, 44);
    assert_int_equal(ri.preference, 0); /* 0xE7: every reserved bit set, Prf 00 */
    assert_int_equal(ri.lifetime, 60);
    assert_addr(&ri.prefix, "2001:db8:10::");
    /* A /127 target in 16 octets with the last bit set. */
    static const uint8_t tgt[] = { 0x05, 0x12, 0xff, 0x7f, 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
                                   0, 0, 0, 0, 0, 0, 0, 0x03 };
    o = opt_of(tgt, sizeof(tgt));
    tern_rpl_opt_target_t t;
    assert_int_equal(tern_rpl_opt_target_parse(&t, &o), 0);
    assert_int_equal(t.prefix_len, 127);
    assert_addr(&t.prefix, "2001:db8::2");
    /* Parsers refuse other types and broken lengths given directly. */
    o = opt_of(tgt, sizeof(tgt));
    assert_int_equal(tern_rpl_opt_route_info_parse(&ri, &o), -EBADMSG);
    o = opt_of(rio, sizeof(rio));
    assert_int_equal(tern_rpl_opt_target_parse(&t, &o), -EBADMSG);
    o = opt_of(rio, 10);
    assert_int_equal(tern_rpl_opt_route_info_parse(&ri, &o), -EBADMSG);
    tern_rpl_opt_dodag_conf_t c;
    tern_rpl_opt_transit_t tr;
    tern_rpl_opt_solicited_t s;
    tern_ndp_opt_prefix_info_t p;
    tern_rpl_opt_metric_t m;
    uint32_t d;
    assert_int_equal(tern_rpl_opt_dodag_conf_parse(&c, &o), -EBADMSG);
    assert_int_equal(tern_rpl_opt_transit_parse(&tr, &o), -EBADMSG);
    assert_int_equal(tern_rpl_opt_solicited_parse(&s, &o), -EBADMSG);
    assert_int_equal(tern_rpl_opt_prefix_info_parse(&p, &o), -EBADMSG);
    assert_int_equal(tern_rpl_opt_metric_parse(&m, &o), -EBADMSG);
    assert_int_equal(tern_rpl_opt_target_desc_parse(&d, &o), -EBADMSG);
}

static void test_tern_rpl_opt_emit__fields_and_errors(void **state)
{
    (void)state;
    uint8_t out[300];
    /* DODAG Configuration with A set and the RFC 6550 §17 defaults. */
    tern_rpl_opt_dodag_conf_t c = { .authentication = true, .path_control_size = TERN_RPL_DEFAULT_PATH_CONTROL_SIZE,
                                    .dio_int_doublings = TERN_RPL_DEFAULT_DIO_INTERVAL_DOUBLINGS,
                                    .dio_int_min = TERN_RPL_DEFAULT_DIO_INTERVAL_MIN,
                                    .dio_redundancy = TERN_RPL_DEFAULT_DIO_REDUNDANCY_CONSTANT,
                                    .max_rank_increase = 0,
                                    .min_hop_rank_increase = TERN_RPL_DEFAULT_MIN_HOP_RANK_INCREASE, .ocp = 0,
                                    .default_lifetime = 30, .lifetime_unit = 60 };
    static const uint8_t conf[] = { 0x04, 0x0e, 0x08, 0x14, 0x03, 0x0a, 0x00, 0x00,
                                    0x01, 0x00, 0x00, 0x00, 0x00, 0x1e, 0x00, 0x3c };
    assert_int_equal(tern_rpl_opt_dodag_conf_emit(&c, out, 15), -ENOBUFS);
    assert_int_equal(tern_rpl_opt_dodag_conf_emit(&c, out, sizeof(out)), 16);
    assert_memory_equal(out, conf, sizeof(conf));
    tern_rpl_opt_t o = opt_of(out, 16);
    tern_rpl_opt_dodag_conf_t back;
    out[2] |= 0xf0; /* the 4 reserved flags, and Reserved: ignored */
    out[12] = 0xff;
    assert_int_equal(tern_rpl_opt_dodag_conf_parse(&back, &o), 0);
    assert_true(back.authentication);
    assert_int_equal(back.path_control_size, 0);
    assert_int_equal(back.dio_int_doublings, 20);
    assert_int_equal(back.dio_int_min, 3);
    assert_int_equal(back.dio_redundancy, 10);
    assert_int_equal(back.max_rank_increase, 0);
    assert_int_equal(back.min_hop_rank_increase, 256);
    assert_int_equal(back.ocp, 0);
    assert_int_equal(back.default_lifetime, 30);
    assert_int_equal(back.lifetime_unit, 60);
    c.path_control_size = 8;
    assert_int_equal(tern_rpl_opt_dodag_conf_emit(&c, out, sizeof(out)), -EINVAL);

    /* Route Information sizes: /0 none, /64 8 octets, /65 16 octets. */
    tern_rpl_opt_route_info_t ri = { .prefix_len = 0, .preference = 3, .lifetime = 1 };
    assert_int_equal(tern_rpl_opt_route_info_emit(&ri, out, sizeof(out)), 8);
    assert_int_equal(out[1], 6);
    assert_int_equal(out[3], 0x18);
    ri.prefix_len = 64;
    assert_int_equal(tern_rpl_opt_route_info_len(&ri), 16);
    ri.prefix_len = 65;
    assert_int_equal(tern_rpl_opt_route_info_len(&ri), 24);
    assert_int_equal(tern_rpl_opt_route_info_emit(&ri, out, 23), -ENOBUFS);
    ri.prefix_len = 129;
    assert_int_equal(tern_rpl_opt_route_info_len(&ri), 0);
    assert_int_equal(tern_rpl_opt_route_info_emit(&ri, out, sizeof(out)), -EINVAL);
    ri.prefix_len = 64;
    ri.preference = 4;
    assert_int_equal(tern_rpl_opt_route_info_emit(&ri, out, sizeof(out)), -EINVAL);

    /* Target sizes: ceil(prefix_len / 8) octets. */
    tern_rpl_opt_target_t t = { .prefix_len = 0 };
    assert_int_equal(tern_rpl_opt_target_emit(&t, out, sizeof(out)), 4);
    t.prefix_len = 57;
    t.prefix = addr("2001:db8:1:ff80::");
    assert_int_equal(tern_rpl_opt_target_emit(&t, out, sizeof(out)), 12);
    static const uint8_t t57[] = { 0x05, 0x0a, 0x00, 0x39, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0xff, 0x80 };
    assert_memory_equal(out, t57, sizeof(t57));
    t.prefix = addr("2001:db8:1:ffff:ffff::"); /* bits past the /57 set: written as 0 (§6.7.7) */
    assert_int_equal(tern_rpl_opt_target_emit(&t, out, sizeof(out)), 12);
    assert_memory_equal(out, t57, sizeof(t57));
    /* The same in a Route Information /44 (§6.7.5): its 8 octets, 44 bits of prefix. */
    tern_rpl_opt_route_info_t r44 = { .prefix_len = 44, .preference = 0, .lifetime = 0x01020304,
                                      .prefix = addr("2001:db8:1fff:ffff::") };
    static const uint8_t ri44[] = { 0x03, 0x0e, 0x2c, 0x00, 0x01, 0x02, 0x03, 0x04,
                                    0x20, 0x01, 0x0d, 0xb8, 0x1f, 0xf0, 0x00, 0x00 };
    assert_int_equal(tern_rpl_opt_route_info_emit(&r44, out, sizeof(out)), sizeof(ri44));
    assert_memory_equal(out, ri44, sizeof(ri44));
    t.prefix_len = 129;
    assert_int_equal(tern_rpl_opt_target_len(&t), 0);
    assert_int_equal(tern_rpl_opt_target_emit(&t, out, sizeof(out)), -EINVAL);

    /* Transit without parent, Prefix Information limits, metric limits. */
    tern_rpl_opt_transit_t tr = { .path_lifetime = 3 };
    assert_int_equal(tern_rpl_opt_transit_emit(&tr, out, 5), -ENOBUFS);
    tern_ndp_opt_prefix_info_t p = { .prefix_len = 129 };
    assert_int_equal(tern_rpl_opt_prefix_info_emit(&p, out, sizeof(out)), -EINVAL);
    p.prefix_len = 128;
    assert_int_equal(tern_rpl_opt_prefix_info_emit(&p, out, 31), -ENOBUFS);
    static const uint8_t big[256] = { 0 };
    tern_rpl_opt_metric_t m = { .data = big, .len = 256 };
    assert_int_equal(tern_rpl_opt_metric_emit(&m, out, sizeof(out)), -EINVAL);
    m.len = 255;
    assert_int_equal(tern_rpl_opt_metric_emit(&m, out, 256), -ENOBUFS);
    assert_int_equal(tern_rpl_opt_metric_emit(&m, out, sizeof(out)), 257);
    assert_int_equal(out[1], 255);
    m.data = NULL;
    assert_int_equal(tern_rpl_opt_metric_emit(&m, out, sizeof(out)), -EINVAL);
}

static void test_tern_rpl_opt_pad_emit__sizes(void **state)
{
    (void)state;
    uint8_t out[16];
    memset(out, 0xaa, sizeof(out));
    assert_int_equal(tern_rpl_opt_pad_emit(out, sizeof(out), 0), 0);
    assert_int_equal(out[0], 0xaa);
    assert_int_equal(tern_rpl_opt_pad_emit(out, sizeof(out), 1), 1);
    assert_int_equal(out[0], 0x00);
    assert_int_equal(tern_rpl_opt_pad_emit(out, sizeof(out), 2), 2);
    static const uint8_t two[] = { 0x01, 0x00 };
    assert_memory_equal(out, two, 2);
    /* 9 = PadN of 7 (the largest, §6.7.3) + PadN of 2. */
    memset(out, 0xaa, sizeof(out));
    assert_int_equal(tern_rpl_opt_pad_emit(out, sizeof(out), 9), 9);
    static const uint8_t nine[] = { 0x01, 0x05, 0, 0, 0, 0, 0, 0x01, 0x00, 0xaa };
    assert_memory_equal(out, nine, sizeof(nine));
    /* 8 = PadN of 7 + Pad1; the iterator skips it all. */
    assert_int_equal(tern_rpl_opt_pad_emit(out, sizeof(out), 8), 8);
    assert_int_equal(out[7], 0x00);
    assert_int_equal(tern_rpl_options_check(out, 8), 0);
    assert_int_equal(tern_rpl_opt_pad_emit(out, 3, 4), -ENOBUFS);
}

static void test_tern_rpl_opt_allowed__rfc6550_lists(void **state)
{
    (void)state;
    for (uint8_t code = 0; code <= TERN_RPL_CODE_DAO_ACK; code++) {
        assert_true(tern_rpl_opt_allowed(code, TERN_RPL_OPT_PAD1));
        assert_true(tern_rpl_opt_allowed(code, TERN_RPL_OPT_PADN));
    }
    static const struct {
        uint8_t code;
        uint8_t types[4];
        size_t count;
    } lists[] = {
        { TERN_RPL_CODE_DIS, { TERN_RPL_OPT_SOLICITED }, 1 },
        { TERN_RPL_CODE_DIO,
          { TERN_RPL_OPT_DAG_METRIC, TERN_RPL_OPT_ROUTE_INFO, TERN_RPL_OPT_DODAG_CONF, TERN_RPL_OPT_PREFIX_INFO },
          4 },
        { TERN_RPL_CODE_DAO, { TERN_RPL_OPT_TARGET, TERN_RPL_OPT_TRANSIT, TERN_RPL_OPT_TARGET_DESC }, 3 },
        { TERN_RPL_CODE_DAO_ACK, { 0 }, 0 },
    };
    for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
        for (unsigned type = TERN_RPL_OPT_DAG_METRIC; type <= 0x0a; type++) {
            bool listed = false;
            for (size_t k = 0; k < lists[l].count; k++) {
                listed = listed || lists[l].types[k] == type;
            }
            assert_int_equal(tern_rpl_opt_allowed(lists[l].code, (uint8_t)type), listed);
        }
    }
    assert_false(tern_rpl_opt_allowed(TERN_RPL_CODE_SECURE_DIO, TERN_RPL_OPT_PADN));
    assert_false(tern_rpl_opt_allowed(0x04, TERN_RPL_OPT_DODAG_CONF));
}

/* ---- RFC 6553 RPL Option -------------------------------------------------------------- */

/* Hop-by-Hop header (RFC 8200 §4.3): Next Header 59, Hdr Ext Len 0; RPL Option
 * (RFC 6553 §3): Type 0x63, Opt Data Len 4, O 1 R 0 F 1 = 0xA0, RPLInstanceID
 * 30, SenderRank 0x0200. */
static const uint8_t hbh[] = { 0x3b, 0x00, 0x63, 0x04, 0xa0, 0x1e, 0x02, 0x00 };

static void test_tern_rpl_hbh__golden(void **state)
{
    (void)state;
    tern_rpl_hbh_opt_t r;
    size_t offset = 0;
    assert_int_equal(tern_rpl_hbh_find(&r, &offset, hbh, sizeof(hbh)), 1);
    assert_int_equal(offset, 2);
    assert_int_equal(r.type, TERN_RPL_HBH_OPT_TYPE);
    assert_true(r.down);
    assert_false(r.rank_error);
    assert_true(r.forwarding_error);
    assert_int_equal(r.instance_id, 30);
    assert_int_equal(r.sender_rank, 0x0200);
    uint8_t out[16];
    assert_int_equal(tern_rpl_hbh_emit(&r, TERN_IPV6_NH_NONE, out, 7), -ENOBUFS);
    assert_int_equal(tern_rpl_hbh_emit(&r, TERN_IPV6_NH_NONE, out, sizeof(out)), TERN_RPL_HBH_HDR_LEN);
    assert_memory_equal(out, hbh, sizeof(hbh));
    /* The header is well-formed for the IPv6 walk too. */
    tern_ipv6_ext_t ext;
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_HOP_BY_HOP, out, sizeof(out)), 8);

    /* A router updates it in place: R set, its own rank. */
    r.rank_error = true;
    r.sender_rank = 0x0300;
    assert_int_equal(tern_rpl_hbh_opt_update(&r, out, 8, offset), 0);
    static const uint8_t updated[] = { 0x3b, 0x00, 0x63, 0x04, 0xe0, 0x1e, 0x03, 0x00 };
    assert_memory_equal(out, updated, sizeof(updated));
    assert_int_equal(tern_rpl_hbh_opt_update(&r, out, 8, 3), -EBADMSG); /* not at an option */
    assert_int_equal(tern_rpl_hbh_opt_update(&r, out, 7, 2), -EBADMSG);
    assert_int_equal(tern_rpl_hbh_opt_update(&r, out, 8, 9), -EBADMSG);

    /* RFC 9008 §4.3's type, after a PadN, sub-TLV octets and reserved flags. */
    static const uint8_t other[] = { 0x3a, 0x01, 0x01, 0x00, 0x23, 0x06, 0x1f, 0x05,
                                     0xff, 0xfe, 0xaa, 0xbb, 0x00, 0x00, 0x00, 0x00 };
    assert_int_equal(tern_rpl_hbh_find(&r, &offset, other, sizeof(other)), 1);
    assert_int_equal(offset, 4);
    assert_int_equal(r.type, TERN_RPL_HBH_OPT_TYPE_RFC9008);
    assert_false(r.down || r.rank_error || r.forwarding_error);
    assert_int_equal(r.instance_id, 5);
    assert_int_equal(r.sender_rank, 0xfffe);
    assert_int_equal(tern_rpl_hbh_opt_emit(&r, out, 5), -ENOBUFS);
    assert_int_equal(tern_rpl_hbh_opt_emit(&r, out, sizeof(out)), TERN_RPL_HBH_OPT_LEN);
    static const uint8_t opt23[] = { 0x23, 0x04, 0x00, 0x05, 0xff, 0xfe };
    assert_memory_equal(out, opt23, sizeof(opt23));
}

static void test_tern_rpl_hbh__errors(void **state)
{
    (void)state;
    tern_rpl_hbh_opt_t r;
    /* No RPL Option: Router Alert only. */
    static const uint8_t ra[] = { 0x3a, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00 };
    assert_int_equal(tern_rpl_hbh_find(&r, NULL, ra, sizeof(ra)), 0);
    /* Opt Data Len 3. */
    static const uint8_t short_opt[] = { 0x3a, 0x00, 0x63, 0x03, 0x00, 0x1e, 0x02, 0x00 };
    assert_int_equal(tern_rpl_hbh_find(&r, NULL, short_opt, sizeof(short_opt)), -EBADMSG);
    /* An option running past the header. */
    static const uint8_t past[] = { 0x3a, 0x00, 0x63, 0x08, 0x00, 0x1e, 0x02, 0x00 };
    assert_int_equal(tern_rpl_hbh_find(&r, NULL, past, sizeof(past)), -EBADMSG);
    tern_ipv6_opt_t o = { .type = 0x05, .data_len = 4, .data = hbh + 4, .offset = 2 };
    assert_int_equal(tern_rpl_hbh_opt_parse(&r, &o), -EBADMSG);
    o.type = 0x63;
    o.data_len = 3;
    assert_int_equal(tern_rpl_hbh_opt_parse(&r, &o), -EBADMSG);
    o.data_len = 4;
    assert_int_equal(tern_rpl_hbh_opt_parse(&r, &o), 0);
    /* A type that is neither RPL Option type. */
    uint8_t out[8];
    r.type = 0;
    assert_int_equal(tern_rpl_hbh_opt_emit(&r, out, sizeof(out)), -EINVAL);
    assert_int_equal(tern_rpl_hbh_emit(&r, 59, out, sizeof(out)), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_rpl_code__base_secure_unknown),
        cmocka_unit_test(test_tern_rpl_dis_parse__golden),
        cmocka_unit_test(test_tern_rpl_dis_emit__golden),
        cmocka_unit_test(test_tern_rpl_dis_emit__options_in_place),
        cmocka_unit_test(test_tern_rpl_dio_parse__golden),
        cmocka_unit_test(test_tern_rpl_dio_parse__reserved_ignored),
        cmocka_unit_test(test_tern_rpl_dio_emit__golden),
        cmocka_unit_test(test_tern_rpl_dao_parse__golden),
        cmocka_unit_test(test_tern_rpl_dao_emit__golden),
        cmocka_unit_test(test_tern_rpl_dao__local_instance_needs_dodagid),
        cmocka_unit_test(test_tern_rpl_dao_parse__code_and_length_judged_before_the_d_flag),
        cmocka_unit_test(test_tern_rpl_dao_parse__reserved_ignored_and_truncated),
        cmocka_unit_test(test_tern_rpl_dao_ack__golden),
        cmocka_unit_test(test_tern_rpl_parse__wrong_secure_unknown_code),
        cmocka_unit_test(test_tern_rpl_opt_next__length_rules),
        cmocka_unit_test(test_tern_rpl_opt_next__padding_unknown_and_limits),
        cmocka_unit_test(test_tern_rpl_opt_parse__prefix_octets_and_ignored_bits),
        cmocka_unit_test(test_tern_rpl_opt_emit__fields_and_errors),
        cmocka_unit_test(test_tern_rpl_opt_pad_emit__sizes),
        cmocka_unit_test(test_tern_rpl_opt_allowed__rfc6550_lists),
        cmocka_unit_test(test_tern_rpl_hbh__golden),
        cmocka_unit_test(test_tern_rpl_hbh__errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
