/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Golden-byte tests of the MLD codec (RFC 3810 §5, RFC 2710 §3).
 *
 * Vectors, checksums derived independently with scapy 2.8 (ICMPv6ML* layers,
 * in6_chksum) from the addresses given with each:
 * - the MLDv2 report Linux sends when an interface comes up: one
 *   CHANGE_TO_EXCLUDE record for the solicited-node group ff02::1:ff12:3456;
 * - a report with two records, one with a source and auxiliary data (scapy
 *   writes the Aux Data Len in octets; RFC 3810 §5.2.5 counts 32-bit words,
 *   so that octet was fixed to 1 by hand and the checksum recomputed);
 * - an MLDv2 general query (10 s, QRV 2, QQIC 125) and a
 *   group-and-source-specific query with float-encoded codes;
 * - MLDv1 query, report and done;
 * - an MLDv1 multicast-address-specific query (RFC 2710 §3.6: sent to the
 *   group it names) with a Maximum Response Delay of 1000 ms.
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
#include "tern/wire/mld.h"

static tern_ipv6_addr_t addr(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

static void assert_checksum_ok(const uint8_t *msg, size_t len, const char *src, const char *dst)
{
    tern_ipv6_addr_t s = addr(src);
    tern_ipv6_addr_t d = addr(dst);
    tern_checksum_span_t span = { msg, len };
    assert_true(tern_icmpv6_checksum_verify(&s, &d, &span, 1));
}

static void fill_checksum(uint8_t *msg, size_t len, const char *src, const char *dst)
{
    tern_ipv6_addr_t s = addr(src);
    tern_ipv6_addr_t d = addr(dst);
    assert_int_equal(tern_icmpv6_checksum_fill(msg, len, &s, &d), 0);
}

#define HOST "fe80::5054:ff:fe12:3456"

/* HOST -> ff02::16, checksum 0xb8e4. */
static const uint8_t linux_join_report[] = {
    0x8f, 0x00, 0xb8, 0xe4, 0x00, 0x00, 0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0xff, 0x02,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0x12, 0x34, 0x56,
};

/* HOST -> ff02::16, checksum 0x315a. */
static const uint8_t two_record_report[] = {
    0x8f, 0x00, 0x31, 0x5a, 0x00, 0x00, 0x00, 0x02,
    /* MODE_IS_EXCLUDE ff02::fb */
    0x02, 0x00, 0x00, 0x00, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xfb,
    /* ALLOW_NEW_SOURCES ff3e::1234 from 2001:db8::9, 1 word of aux data */
    0x05, 0x01, 0x00, 0x01, 0xff, 0x3e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x12, 0x34, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0xaa, 0xbb, 0xcc, 0xdd,
};

/* fe80::1 -> ff02::1, checksum 0x5696. */
static const uint8_t general_query_v2[] = {
    0x82, 0x00, 0x56, 0x96, 0x27, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x7d, 0x00, 0x00,
};

/* fe80::1 -> ff3e::1234, S, QRV 7, codes 0x8123 and 0x9a, checksum 0x9db0. */
static const uint8_t source_query_v2[] = {
    0x82, 0x00, 0x9d, 0xb0, 0x81, 0x23, 0x00, 0x00, 0xff, 0x3e, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x0f, 0x9a, 0x00, 0x01, 0x20, 0x01,
    0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09,
};

/* fe80::1 -> ff02::1, checksum 0x5917. */
static const uint8_t general_query_v1[] = {
    0x82, 0x00, 0x59, 0x17, 0x27, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* fe80::1 -> ff02::1:ff12:3456, Maximum Response Delay 1000 ms, checksum 0x1669. */
static const uint8_t group_query_v1[] = {
    0x82, 0x00, 0x16, 0x69, 0x03, 0xe8, 0x00, 0x00, 0xff, 0x02, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0x12, 0x34, 0x56,
};

/* HOST -> ff02::1:ff12:3456, checksum 0x9595. */
static const uint8_t report_v1[] = {
    0x83, 0x00, 0x95, 0x95, 0x00, 0x00, 0x00, 0x00, 0xff, 0x02, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0x12, 0x34, 0x56,
};

/* HOST -> ff02::2, checksum 0xc7fd. */
static const uint8_t done_v1[] = {
    0x84, 0x00, 0xc7, 0xfd, 0x00, 0x00, 0x00, 0x00, 0xff, 0x02, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0x12, 0x34, 0x56,
};

/* ---- Float codes ---------------------------------------------------------------- */

static void test_tern_mld_max_resp_code_decode__linear_and_float(void **state)
{
    (void)state;
    assert_int_equal(tern_mld_max_resp_code_decode(0), 0);
    assert_int_equal(tern_mld_max_resp_code_decode(10000), 10000);
    assert_int_equal(tern_mld_max_resp_code_decode(0x7fff), 32767);
    assert_int_equal(tern_mld_max_resp_code_decode(0x8000), 32768);
    assert_int_equal(tern_mld_max_resp_code_decode(0x8123), 0x1123u << 3);
    assert_int_equal(tern_mld_max_resp_code_decode(0xffff), 0x1fffu << 10);
}

static void test_tern_mld_max_resp_code_encode__round_trip_every_code(void **state)
{
    (void)state;
    for (uint32_t code = 0; code <= 0xffffu; code++) {
        uint32_t ms = tern_mld_max_resp_code_decode((uint16_t)code);
        assert_int_equal(tern_mld_max_resp_code_encode(ms), code);
    }
    /* Rounds down between representable values, saturates above them. */
    assert_int_equal(tern_mld_max_resp_code_encode(32775), 0x8000);
    assert_int_equal(tern_mld_max_resp_code_encode(UINT32_MAX), 0xffff);
}

static void test_tern_mld_qqic_decode__linear_and_float(void **state)
{
    (void)state;
    assert_int_equal(tern_mld_qqic_decode(125), 125);
    assert_int_equal(tern_mld_qqic_decode(0x7f), 127);
    assert_int_equal(tern_mld_qqic_decode(0x80), 128);
    assert_int_equal(tern_mld_qqic_decode(0x9a), 0x1au << 4);
    assert_int_equal(tern_mld_qqic_decode(0xff), 0x1fu << 10);
}

static void test_tern_mld_qqic_encode__round_trip_every_code(void **state)
{
    (void)state;
    for (uint32_t code = 0; code <= 0xffu; code++) {
        assert_int_equal(tern_mld_qqic_encode(tern_mld_qqic_decode((uint8_t)code)), code);
    }
    assert_int_equal(tern_mld_qqic_encode(129), 0x80);
    assert_int_equal(tern_mld_qqic_encode(1000000), 0xff);
}

/* ---- Queries ------------------------------------------------------------------ */

static void test_tern_mld_query_parse__v2_general(void **state)
{
    (void)state;
    assert_checksum_ok(general_query_v2, sizeof(general_query_v2), "fe80::1", "ff02::1");
    tern_mld_query_repr_t q;
    assert_int_equal(tern_mld_query_parse(&q, general_query_v2, sizeof(general_query_v2)), 28);
    assert_int_equal(q.version, 2);
    assert_int_equal(q.max_resp_code, 10000);
    assert_int_equal(q.max_resp_delay_ms, 10000);
    assert_true(tern_ipv6_addr_is_unspecified(&q.group));
    assert_false(q.suppress);
    assert_int_equal(q.qrv, 2);
    assert_int_equal(q.qqic, 125);
    assert_int_equal(q.qqi_s, 125);
    assert_int_equal(q.source_count, 0);
}

static void test_tern_mld_query_parse__v2_source_specific(void **state)
{
    (void)state;
    assert_checksum_ok(source_query_v2, sizeof(source_query_v2), "fe80::1", "ff3e::1234");
    tern_mld_query_repr_t q;
    assert_int_equal(tern_mld_query_parse(&q, source_query_v2, sizeof(source_query_v2)), 44);
    assert_int_equal(q.version, 2);
    assert_int_equal(q.max_resp_delay_ms, 35096);
    assert_true(q.suppress);
    assert_int_equal(q.qrv, 7);
    assert_int_equal(q.qqi_s, 416);
    assert_int_equal(q.source_count, 1);
    assert_ptr_equal(q.sources, source_query_v2 + 28);
    tern_ipv6_addr_t group = addr("ff3e::1234");
    assert_memory_equal(q.group.u8, group.u8, 16);
}

static void test_tern_mld_query_parse__v1_by_length(void **state)
{
    (void)state;
    assert_checksum_ok(general_query_v1, sizeof(general_query_v1), "fe80::1", "ff02::1");
    tern_mld_query_repr_t q;
    assert_int_equal(tern_mld_query_parse(&q, general_query_v1, sizeof(general_query_v1)), 24);
    assert_int_equal(q.version, 1);
    assert_int_equal(q.max_resp_delay_ms, 10000);
    assert_int_equal(q.source_count, 0);
    assert_null(q.sources);
}

static void test_tern_mld_query_parse__v1_group_specific(void **state)
{
    (void)state;
    assert_checksum_ok(group_query_v1, sizeof(group_query_v1), "fe80::1", "ff02::1:ff12:3456");
    tern_mld_query_repr_t q;
    assert_int_equal(tern_mld_query_parse(&q, group_query_v1, sizeof(group_query_v1)), 24);
    assert_int_equal(q.version, 1);
    assert_int_equal(q.max_resp_code, 1000);
    assert_int_equal(q.max_resp_delay_ms, 1000);
    tern_ipv6_addr_t group = addr("ff02::1:ff12:3456");
    assert_memory_equal(q.group.u8, group.u8, 16);
    assert_false(q.suppress);
    assert_int_equal(q.qrv, 0);
    assert_int_equal(q.qqi_s, 0);
    /* RFC 2710 §3.4: the delay is linear in MLDv1, never the §5.1.3 float. */
    uint8_t msg[24];
    memcpy(msg, group_query_v1, sizeof(msg));
    msg[4] = 0x80;
    msg[5] = 0x00;
    assert_int_equal(tern_mld_query_parse(&q, msg, sizeof(msg)), 24);
    assert_int_equal(q.max_resp_delay_ms, 32768);
    msg[4] = 0xff;
    msg[5] = 0xff;
    assert_int_equal(tern_mld_query_parse(&q, msg, sizeof(msg)), 24);
    assert_int_equal(q.max_resp_delay_ms, 65535);
    /* Code and reserved octets are ignored (RFC 2710 §3.2, §3.5). */
    msg[1] = 7;
    msg[6] = 0xaa;
    msg[7] = 0xbb;
    assert_int_equal(tern_mld_query_parse(&q, msg, sizeof(msg)), 24);
    assert_int_equal(q.version, 1);
}

static void test_tern_mld_query_emit__v1_group_specific_golden(void **state)
{
    (void)state;
    tern_mld_query_repr_t q = { .version = 1, .max_resp_code = 1000, .group = addr("ff02::1:ff12:3456") };
    uint8_t buf[24];
    assert_int_equal(tern_mld_query_len(&q), 24);
    assert_int_equal(tern_mld_query_emit(&q, buf, 23), -ENOBUFS);
    assert_int_equal(tern_mld_query_emit(&q, buf, sizeof(buf)), 24);
    fill_checksum(buf, 24, "fe80::1", "ff02::1:ff12:3456");
    assert_memory_equal(buf, group_query_v1, sizeof(group_query_v1));
    /* Round trip. */
    tern_mld_query_repr_t back;
    assert_int_equal(tern_mld_query_parse(&back, buf, sizeof(buf)), 24);
    assert_int_equal(back.version, 1);
    assert_int_equal(back.max_resp_code, 1000);
    assert_memory_equal(back.group.u8, q.group.u8, 16);
}

static void test_tern_mld_query_parse__lengths_25_to_27_ignored(void **state)
{
    (void)state;
    uint8_t msg[28];
    memcpy(msg, general_query_v2, sizeof(msg));
    tern_mld_query_repr_t q;
    for (size_t len = 25; len < 28; len++) {
        assert_int_equal(tern_mld_query_parse(&q, msg, len), -EBADMSG);
    }
    assert_int_equal(tern_mld_query_parse(&q, msg, 23), -EBADMSG);
}

static void test_tern_mld_query_parse__sources_past_end(void **state)
{
    (void)state;
    tern_mld_query_repr_t q;
    assert_int_equal(tern_mld_query_parse(&q, source_query_v2, sizeof(source_query_v2) - 1),
                     -EBADMSG);
    uint8_t msg[sizeof(source_query_v2)];
    memcpy(msg, source_query_v2, sizeof(msg));
    msg[27] = 2;
    assert_int_equal(tern_mld_query_parse(&q, msg, sizeof(msg)), -EBADMSG);
}

static void test_tern_mld_query_parse__additional_data_and_wrong_type(void **state)
{
    (void)state;
    uint8_t msg[32];
    memcpy(msg, general_query_v2, 28);
    memset(msg + 28, 0xee, 4);
    tern_mld_query_repr_t q;
    /* §5.1.12: additional data is ignored. */
    assert_int_equal(tern_mld_query_parse(&q, msg, sizeof(msg)), 28);
    msg[0] = TERN_ICMPV6_MLD_REPORT;
    assert_int_equal(tern_mld_query_parse(&q, msg, sizeof(msg)), -EBADMSG);
}

static void test_tern_mld_query_emit__v2_golden(void **state)
{
    (void)state;
    tern_mld_query_repr_t q;
    assert_int_equal(tern_mld_query_parse(&q, source_query_v2, sizeof(source_query_v2)), 44);
    uint8_t buf[64];
    assert_int_equal(tern_mld_query_len(&q), 44);
    assert_int_equal(tern_mld_query_emit(&q, buf, 43), -ENOBUFS);
    assert_int_equal(tern_mld_query_emit(&q, buf, sizeof(buf)), 44);
    fill_checksum(buf, 44, "fe80::1", "ff3e::1234");
    assert_memory_equal(buf, source_query_v2, sizeof(source_query_v2));

    tern_mld_query_repr_t general = {
        .version = 2, .max_resp_code = tern_mld_max_resp_code_encode(10000),
        .qrv = 2, .qqic = tern_mld_qqic_encode(125),
    };
    assert_int_equal(tern_mld_query_emit(&general, buf, sizeof(buf)), 28);
    fill_checksum(buf, 28, "fe80::1", "ff02::1");
    assert_memory_equal(buf, general_query_v2, sizeof(general_query_v2));
}

static void test_tern_mld_query_emit__v1_golden(void **state)
{
    (void)state;
    tern_mld_query_repr_t q = { .version = 1, .max_resp_code = 10000 };
    uint8_t buf[24];
    assert_int_equal(tern_mld_query_emit(&q, buf, sizeof(buf)), 24);
    fill_checksum(buf, 24, "fe80::1", "ff02::1");
    assert_memory_equal(buf, general_query_v1, sizeof(general_query_v1));
}

static void test_tern_mld_query_emit__errors(void **state)
{
    (void)state;
    uint8_t buf[64];
    tern_mld_query_repr_t q = { .version = 3 };
    assert_int_equal(tern_mld_query_len(&q), 0);
    assert_int_equal(tern_mld_query_emit(&q, buf, sizeof(buf)), -EINVAL);
    q.version = 2;
    q.qrv = 8;
    assert_int_equal(tern_mld_query_emit(&q, buf, sizeof(buf)), -EINVAL);
    q.qrv = 2;
    q.source_count = 1;
    assert_int_equal(tern_mld_query_emit(&q, buf, sizeof(buf)), -EINVAL);
}

/* ---- MLDv1 report / done ----------------------------------------------------------- */

static void test_tern_mld_v1_parse__report_and_done(void **state)
{
    (void)state;
    assert_checksum_ok(report_v1, sizeof(report_v1), HOST, "ff02::1:ff12:3456");
    assert_checksum_ok(done_v1, sizeof(done_v1), HOST, "ff02::2");
    tern_ipv6_addr_t group = addr("ff02::1:ff12:3456");
    tern_mld_v1_repr_t v1;
    assert_int_equal(tern_mld_v1_parse(&v1, report_v1, sizeof(report_v1)), 24);
    assert_int_equal(v1.type, TERN_ICMPV6_MLD_REPORT);
    assert_memory_equal(v1.group.u8, group.u8, 16);
    assert_int_equal(tern_mld_v1_parse(&v1, done_v1, sizeof(done_v1)), 24);
    assert_int_equal(v1.type, TERN_ICMPV6_MLD_DONE);
    assert_int_equal(tern_mld_v1_parse(&v1, done_v1, 23), -EBADMSG);
    assert_int_equal(tern_mld_v1_parse(&v1, general_query_v1, 24), -EBADMSG);
}

static void test_tern_mld_v1_parse__wrong_type_and_ignored_fields(void **state)
{
    (void)state;
    tern_mld_v1_repr_t v1;
    uint8_t msg[28];
    memcpy(msg, report_v1, sizeof(report_v1));
    memset(msg + 24, 0xee, 4);
    /* Longer messages: the first 24 octets are the report (RFC 2710 §3). */
    assert_int_equal(tern_mld_v1_parse(&v1, msg, sizeof(msg)), 24);
    /* A Maximum Response Delay in a report is read as found (§3.4: 0 when sent). */
    msg[4] = 0x12;
    msg[5] = 0x34;
    assert_int_equal(tern_mld_v1_parse(&v1, msg, 24), 24);
    assert_int_equal(v1.max_resp_delay, 0x1234);
    assert_int_equal(tern_mld_v1_parse(&v1, msg, 0), -EBADMSG);
    msg[0] = TERN_ICMPV6_MLDV2_REPORT;
    assert_int_equal(tern_mld_v1_parse(&v1, msg, 24), -EBADMSG);
    msg[0] = TERN_ICMPV6_MLD_QUERY;
    assert_int_equal(tern_mld_v1_parse(&v1, msg, 24), -EBADMSG);
}

static void test_tern_mld_v1_emit__done_golden(void **state)
{
    (void)state;
    tern_mld_v1_repr_t v1 = { .type = TERN_ICMPV6_MLD_DONE, .group = addr("ff02::1:ff12:3456") };
    uint8_t buf[24];
    memset(buf, 0xee, sizeof(buf));
    assert_int_equal(tern_mld_v1_emit(&v1, buf, sizeof(buf)), 24);
    fill_checksum(buf, 24, HOST, "ff02::2");
    assert_memory_equal(buf, done_v1, sizeof(done_v1));
    /* Round trip. */
    tern_mld_v1_repr_t back;
    assert_int_equal(tern_mld_v1_parse(&back, buf, sizeof(buf)), 24);
    assert_int_equal(back.type, TERN_ICMPV6_MLD_DONE);
    assert_int_equal(back.max_resp_delay, 0);
    assert_memory_equal(back.group.u8, v1.group.u8, 16);
    v1.type = TERN_ICMPV6_MLDV2_REPORT;
    assert_int_equal(tern_mld_v1_emit(&v1, buf, sizeof(buf)), -EINVAL);
}

static void test_tern_mld_v1_emit__report_golden(void **state)
{
    (void)state;
    tern_mld_v1_repr_t v1 = { .type = TERN_ICMPV6_MLD_REPORT, .group = addr("ff02::1:ff12:3456") };
    uint8_t buf[24];
    assert_int_equal(tern_mld_v1_emit(&v1, buf, 23), -ENOBUFS);
    assert_int_equal(tern_mld_v1_emit(&v1, buf, sizeof(buf)), 24);
    fill_checksum(buf, 24, HOST, "ff02::1:ff12:3456");
    assert_memory_equal(buf, report_v1, sizeof(report_v1));
    v1.type = TERN_ICMPV6_MLD_QUERY;
    assert_int_equal(tern_mld_v1_emit(&v1, buf, sizeof(buf)), -EINVAL);
}

/* ---- Version 2 reports --------------------------------------------------------------- */

static void test_tern_mld_report_parse__linux_join(void **state)
{
    (void)state;
    assert_checksum_ok(linux_join_report, sizeof(linux_join_report), HOST, "ff02::16");
    tern_mld_report_repr_t report;
    assert_int_equal(tern_mld_report_parse(&report, linux_join_report, sizeof(linux_join_report)),
                     28);
    assert_int_equal(report.record_count, 1);
    tern_mld_record_iter_t it;
    tern_mld_record_t rec;
    tern_mld_record_iter_init(&it, &report);
    assert_int_equal(tern_mld_record_next(&it, &rec), 1);
    assert_int_equal(rec.type, TERN_MLD_RECORD_CHANGE_TO_EXCLUDE);
    tern_ipv6_addr_t group = addr("ff02::1:ff12:3456");
    assert_memory_equal(rec.group.u8, group.u8, 16);
    assert_int_equal(rec.source_count, 0);
    assert_int_equal(rec.aux_len, 0);
    assert_int_equal(tern_mld_record_next(&it, &rec), 0);
}

static void test_tern_mld_report_parse__sources_and_aux(void **state)
{
    (void)state;
    assert_checksum_ok(two_record_report, sizeof(two_record_report), HOST, "ff02::16");
    tern_mld_report_repr_t report;
    assert_int_equal(tern_mld_report_parse(&report, two_record_report, sizeof(two_record_report)),
                     68);
    tern_mld_record_iter_t it;
    tern_mld_record_t rec;
    tern_mld_record_iter_init(&it, &report);
    assert_int_equal(tern_mld_record_next(&it, &rec), 1);
    assert_int_equal(rec.type, TERN_MLD_RECORD_MODE_IS_EXCLUDE);
    assert_int_equal(tern_mld_record_len(&rec), 20);
    assert_int_equal(tern_mld_record_next(&it, &rec), 1);
    assert_int_equal(rec.type, TERN_MLD_RECORD_ALLOW_NEW_SOURCES);
    assert_int_equal(rec.source_count, 1);
    assert_ptr_equal(rec.sources, two_record_report + 48);
    assert_int_equal(rec.aux_len, 4);
    assert_ptr_equal(rec.aux, two_record_report + 64);
    assert_int_equal(tern_mld_record_len(&rec), 40);
    assert_int_equal(tern_mld_record_next(&it, &rec), 0);
}

static void test_tern_mld_report_parse__record_past_end(void **state)
{
    (void)state;
    tern_mld_report_repr_t report;
    /* Aux data cut off. */
    assert_int_equal(tern_mld_report_parse(&report, two_record_report, 67), -EBADMSG);
    /* A record header cut off. */
    assert_int_equal(tern_mld_report_parse(&report, two_record_report, 30), -EBADMSG);
    /* More records announced than present. */
    uint8_t msg[sizeof(linux_join_report)];
    memcpy(msg, linux_join_report, sizeof(msg));
    msg[7] = 2;
    assert_int_equal(tern_mld_report_parse(&report, msg, sizeof(msg)), -EBADMSG);
    /* Sources announced, none present. */
    msg[7] = 1;
    msg[11] = 1;
    assert_int_equal(tern_mld_report_parse(&report, msg, sizeof(msg)), -EBADMSG);
}

static void test_tern_mld_report_parse__truncated_and_wrong_type(void **state)
{
    (void)state;
    tern_mld_report_repr_t report;
    assert_int_equal(tern_mld_report_parse(&report, linux_join_report, 7), -EBADMSG);
    assert_int_equal(tern_mld_report_parse(&report, report_v1, sizeof(report_v1)), -EBADMSG);
    /* Zero records: just the header. */
    const uint8_t empty[] = { 0x8f, 0, 0, 0, 0, 0, 0, 0 };
    assert_int_equal(tern_mld_report_parse(&report, empty, sizeof(empty)), 8);
    assert_int_equal(report.record_count, 0);
}

static void test_tern_mld_report_emit__linux_join(void **state)
{
    (void)state;
    tern_ipv6_addr_t group = addr("ff02::1:ff12:3456");
    uint8_t buf[64];
    assert_int_equal(tern_mld_report_len(1), 28);
    assert_int_equal(tern_mld_report_emit(TERN_MLD_RECORD_CHANGE_TO_EXCLUDE, &group, 1, buf, 27),
                     -ENOBUFS);
    assert_int_equal(
        tern_mld_report_emit(TERN_MLD_RECORD_CHANGE_TO_EXCLUDE, &group, 1, buf, sizeof(buf)), 28);
    fill_checksum(buf, 28, HOST, "ff02::16");
    assert_memory_equal(buf, linux_join_report, sizeof(linux_join_report));
}

static void test_tern_mld_report_emit__several_groups_round_trip(void **state)
{
    (void)state;
    tern_ipv6_addr_t groups[3] = { addr("ff02::1:ff12:3456"), addr("ff02::fb"), addr("ff05::1:3") };
    uint8_t buf[8 + 3 * 20];
    assert_int_equal(
        tern_mld_report_emit(TERN_MLD_RECORD_MODE_IS_EXCLUDE, groups, 3, buf, sizeof(buf)), 68);
    tern_mld_report_repr_t report;
    assert_int_equal(tern_mld_report_parse(&report, buf, sizeof(buf)), 68);
    assert_int_equal(report.record_count, 3);
    tern_mld_record_iter_t it;
    tern_mld_record_t rec;
    tern_mld_record_iter_init(&it, &report);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(tern_mld_record_next(&it, &rec), 1);
        assert_int_equal(rec.type, TERN_MLD_RECORD_MODE_IS_EXCLUDE);
        assert_memory_equal(rec.group.u8, groups[i].u8, 16);
    }
    assert_int_equal(tern_mld_record_next(&it, &rec), 0);
}

static void test_tern_mld_report_emit__errors(void **state)
{
    (void)state;
    tern_ipv6_addr_t group = addr("ff02::fb");
    uint8_t buf[64];
    assert_int_equal(tern_mld_report_emit(0, &group, 1, buf, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_mld_report_emit(7, &group, 1, buf, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_mld_report_emit(1, NULL, 1, buf, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_mld_report_emit(1, &group, 0x10000, buf, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_mld_report_emit(1, NULL, 0, buf, sizeof(buf)), 8);
}

static void test_tern_mld_record_emit__sources_and_aux_golden(void **state)
{
    (void)state;
    tern_mld_report_repr_t report;
    assert_int_equal(tern_mld_report_parse(&report, two_record_report, sizeof(two_record_report)),
                     68);
    uint8_t buf[80];
    size_t off = 0;
    int rc = tern_mld_report_hdr_emit(report.record_count, buf, sizeof(buf));
    assert_int_equal(rc, 8);
    off += (size_t)rc;
    tern_mld_record_iter_t it;
    tern_mld_record_t rec;
    tern_mld_record_iter_init(&it, &report);
    while (tern_mld_record_next(&it, &rec) == 1) {
        rc = tern_mld_record_emit(&rec, buf + off, sizeof(buf) - off);
        assert_true(rc > 0);
        off += (size_t)rc;
    }
    assert_int_equal(off, 68);
    fill_checksum(buf, off, HOST, "ff02::16");
    assert_memory_equal(buf, two_record_report, sizeof(two_record_report));
}

static void test_tern_mld_record_emit__errors(void **state)
{
    (void)state;
    uint8_t buf[64];
    tern_mld_record_t rec = { .type = 1, .source_count = 1, .sources = NULL };
    assert_int_equal(tern_mld_record_emit(&rec, buf, sizeof(buf)), -EINVAL);
    const uint8_t aux[4] = { 1, 2, 3, 4 };
    rec = (tern_mld_record_t){ .type = 1, .aux = aux, .aux_len = 3 };
    assert_int_equal(tern_mld_record_emit(&rec, buf, sizeof(buf)), -EINVAL);
    rec.aux_len = 1024;
    assert_int_equal(tern_mld_record_emit(&rec, buf, sizeof(buf)), -EINVAL);
    rec.aux_len = 4;
    assert_int_equal(tern_mld_record_emit(&rec, buf, 23), -ENOBUFS);
    assert_int_equal(tern_mld_record_emit(&rec, buf, 24), 24);
    assert_int_equal(tern_mld_report_hdr_emit(1, buf, 7), -ENOBUFS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_mld_max_resp_code_decode__linear_and_float),
        cmocka_unit_test(test_tern_mld_max_resp_code_encode__round_trip_every_code),
        cmocka_unit_test(test_tern_mld_qqic_decode__linear_and_float),
        cmocka_unit_test(test_tern_mld_qqic_encode__round_trip_every_code),
        cmocka_unit_test(test_tern_mld_query_parse__v2_general),
        cmocka_unit_test(test_tern_mld_query_parse__v2_source_specific),
        cmocka_unit_test(test_tern_mld_query_parse__v1_by_length),
        cmocka_unit_test(test_tern_mld_query_parse__v1_group_specific),
        cmocka_unit_test(test_tern_mld_query_emit__v1_group_specific_golden),
        cmocka_unit_test(test_tern_mld_query_parse__lengths_25_to_27_ignored),
        cmocka_unit_test(test_tern_mld_query_parse__sources_past_end),
        cmocka_unit_test(test_tern_mld_query_parse__additional_data_and_wrong_type),
        cmocka_unit_test(test_tern_mld_query_emit__v2_golden),
        cmocka_unit_test(test_tern_mld_query_emit__v1_golden),
        cmocka_unit_test(test_tern_mld_query_emit__errors),
        cmocka_unit_test(test_tern_mld_v1_parse__report_and_done),
        cmocka_unit_test(test_tern_mld_v1_parse__wrong_type_and_ignored_fields),
        cmocka_unit_test(test_tern_mld_v1_emit__done_golden),
        cmocka_unit_test(test_tern_mld_v1_emit__report_golden),
        cmocka_unit_test(test_tern_mld_report_parse__linux_join),
        cmocka_unit_test(test_tern_mld_report_parse__sources_and_aux),
        cmocka_unit_test(test_tern_mld_report_parse__record_past_end),
        cmocka_unit_test(test_tern_mld_report_parse__truncated_and_wrong_type),
        cmocka_unit_test(test_tern_mld_report_emit__linux_join),
        cmocka_unit_test(test_tern_mld_report_emit__several_groups_round_trip),
        cmocka_unit_test(test_tern_mld_report_emit__errors),
        cmocka_unit_test(test_tern_mld_record_emit__sources_and_aux_golden),
        cmocka_unit_test(test_tern_mld_record_emit__errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
