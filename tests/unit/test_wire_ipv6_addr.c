/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IPv6 addresses: classification, prefixes, IIDs, text form
 *        (RFC 4291 §2.2 input, RFC 5952 examples for output).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tern/wire/ipv6_addr.h"

static tern_ipv6_addr_t addr(const char *text)
{
    tern_ipv6_addr_t a;
    int res = tern_ipv6_addr_from_str(&a, text, strlen(text));
    if (res != 0) {
        fail_msg("cannot parse \"%s\": %d", text, res);
    }
    return a;
}

static void assert_addr_bytes(const tern_ipv6_addr_t *a, const uint8_t expected[16])
{
    assert_memory_equal(a->u8, expected, 16);
}

/* --- text input ----------------------------------------------------------- */

static void test_tern_ipv6_addr_from_str__all_forms(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        uint8_t bytes[16];
    } cases[] = {
        /* RFC 4291 §2.2 form 1 and 2 examples */
        { "ABCD:EF01:2345:6789:ABCD:EF01:2345:6789",
          { 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45,
            0x67, 0x89 } },
        { "2001:DB8:0:0:8:800:200C:417A",
          { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0x08, 0x08, 0, 0x20, 0x0c, 0x41, 0x7a } },
        { "2001:DB8::8:800:200C:417A",
          { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0x08, 0x08, 0, 0x20, 0x0c, 0x41, 0x7a } },
        { "FF01::101", { 0xff, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x01 } },
        { "::1", { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } },
        { "::", { 0 } },
        { "1::", { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 } },
        { "1:2:3:4:5:6:7::", { 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0 } },
        { "::2:3:4:5:6:7:8", { 0, 0, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8 } },
        { "1:2:3::6:7:8", { 0, 1, 0, 2, 0, 3, 0, 0, 0, 0, 0, 6, 0, 7, 0, 8 } },
        { "0000:0000:0000:0000:0000:0000:0000:0001", { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } },
        /* form 3: embedded IPv4 */
        { "0:0:0:0:0:0:13.1.68.3", { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13, 1, 68, 3 } },
        { "::FFFF:129.144.52.38",
          { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 129, 144, 52, 38 } },
        { "::13.1.68.3", { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13, 1, 68, 3 } },
        { "1:2:3:4:5:6:0.0.0.0", { 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 0, 0, 0 } },
        { "1::255.255.255.255",
          { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff } },
        { "fe80::1:2.3.4.5", { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5 } },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tern_ipv6_addr_t a;
        int res = tern_ipv6_addr_from_str(&a, cases[i].text, strlen(cases[i].text));
        if (res != 0) {
            fail_msg("\"%s\" rejected: %d", cases[i].text, res);
        }
        assert_addr_bytes(&a, cases[i].bytes);
    }
}

static void test_tern_ipv6_addr_from_str__malformed(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        ":",
        ":::",
        "::::",
        ":1::",
        "1::2:",
        "1:",
        ":1:2:3:4:5:6:7:8",
        "1:2:3:4:5:6:7:8:",
        "1::2::3",
        "::1::",
        "1:::2",
        "12345::",
        "1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4::5:6:7:8",
        "::1:2:3:4:5:6:7:8",
        "1:2:3:4:5:6:7:8::",
        "g::",
        "1:2:3:4:5:6:7:8 ",
        " ::1",
        "::1%eth0",
        "2001:db8::/32",
        "1.2.3.4",
        "::1.2.3",
        "::1.2.3.4.5",
        "::1.2.3.",
        "::.1.2.3",
        "::256.1.2.3",
        "::01.2.3.4",
        "::1.2.3.04",
        "::1.2.3.1000",
        "::1.2.3.4:5",
        "::1.2.3.4::",
        "1.2.3.4::",
        "1:2:3:4:5:6:7:1.2.3.4",
        "::ffff:1.2.3.4x",
        "::ffff:1..3.4",
        "::a.b.c.d",
        "::12345.1.1.1",
        "0x1::",
        "-1::",
        "::-1",
        "1:2:3:4:5:6:7:8:1.2.3.4",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        tern_ipv6_addr_t a = TERN_IPV6_ADDR_LOOPBACK;
        int res = tern_ipv6_addr_from_str(&a, bad[i], strlen(bad[i]));
        if (res != -EINVAL) {
            fail_msg("\"%s\" accepted or wrong error: %d", bad[i], res);
        }
        const tern_ipv6_addr_t loopback = TERN_IPV6_ADDR_LOOPBACK;
        assert_true(tern_ipv6_addr_equal(&a, &loopback)); /* unchanged on error */
    }
}

static void test_tern_ipv6_addr_from_str__uses_exactly_len_chars(void **state)
{
    (void)state;
    tern_ipv6_addr_t a;
    /* "::1" followed by garbage beyond len; no NUL needed. */
    assert_int_equal(tern_ipv6_addr_from_str(&a, "::1zzz", 3), 0);
    const tern_ipv6_addr_t loopback = TERN_IPV6_ADDR_LOOPBACK;
    assert_true(tern_ipv6_addr_equal(&a, &loopback));
    /* An embedded NUL is a stray character. */
    assert_int_equal(tern_ipv6_addr_from_str(&a, "::1\0", 4), -EINVAL);
}

static void test_tern_ipv6_addr_from_str__null(void **state)
{
    (void)state;
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(NULL, "::", 2), -EINVAL);
    assert_int_equal(tern_ipv6_addr_from_str(&a, NULL, 2), -EINVAL);
}

/* --- text output ---------------------------------------------------------- */

static void check_format(const char *in, const char *expected)
{
    tern_ipv6_addr_t a = addr(in);
    char buf[TERN_IPV6_ADDR_STRLEN];
    int res = tern_ipv6_addr_to_str(&a, buf, sizeof(buf));
    if (res < 0 || strcmp(buf, expected) != 0) {
        fail_msg("\"%s\" formatted as \"%s\" (%d), expected \"%s\"", in, buf, res, expected);
    }
    assert_int_equal(res, (int)strlen(expected));
}

static void test_tern_ipv6_addr_to_str__rfc5952_examples(void **state)
{
    (void)state;
    /* §2.1: all of these are 2001:db8::1:0:0:1 */
    check_format("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1");
    check_format("2001:0db8:0:0:1:0:0:1", "2001:db8::1:0:0:1");
    check_format("2001:db8::1:0:0:1", "2001:db8::1:0:0:1");
    check_format("2001:db8::0:1:0:0:1", "2001:db8::1:0:0:1");
    check_format("2001:0db8::1:0:0:1", "2001:db8::1:0:0:1");
    check_format("2001:db8:0:0:1::1", "2001:db8::1:0:0:1");
    check_format("2001:db8:0000:0:1::1", "2001:db8::1:0:0:1");
    check_format("2001:DB8:0:0:1::1", "2001:db8::1:0:0:1");
    /* §2.2 / §4.1: leading zeros */
    check_format("2001:db8:aaaa:bbbb:cccc:dddd:eeee:0001", "2001:db8:aaaa:bbbb:cccc:dddd:eeee:1");
    check_format("2001:db8::0001", "2001:db8::1");
    check_format("2001:db8:aaaa:bbbb:cccc:dddd::1", "2001:db8:aaaa:bbbb:cccc:dddd:0:1");
    /* §4.2.1: shorten as much as possible */
    check_format("2001:db8:0:0:0:0:2:1", "2001:db8::2:1");
    /* §4.2.2: not one 16-bit 0 field */
    check_format("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1");
    /* §4.2.3: longest run; first on a tie */
    check_format("2001:0:0:1:0:0:0:1", "2001:0:0:1::1");
    check_format("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1");
    /* §4.3: lower case */
    check_format("2001:DB8::ABCD:EF", "2001:db8::abcd:ef");
    /* §5: IPv4-mapped */
    check_format("::ffff:192.0.2.1", "::ffff:192.0.2.1");
    check_format("::ffff:c000:0201", "::ffff:192.0.2.1");
    check_format("::ffff:0:0", "::ffff:0.0.0.0");
    /* edges */
    check_format("::", "::");
    check_format("::1", "::1");
    check_format("1::", "1::");
    check_format("0:0:0:0:0:0:0:0", "::");
    check_format("1:0:0:0:0:0:0:0", "1::");
    check_format("0:1:0:0:0:0:0:0", "0:1::");
    check_format("1:0:1:0:1:0:1:0", "1:0:1:0:1:0:1:0");
    check_format("0:0:1:0:0:1:0:0", "::1:0:0:1:0:0");
    check_format("1:0:0:2:0:0:0:3", "1:0:0:2::3");
    check_format("fe80::1", "fe80::1");
    check_format("ff02::1:ff00:1", "ff02::1:ff00:1");
    /* IPv4-compatible (deprecated) is not mapped: hex (RFC 5952 §5 only names mapped) */
    check_format("::1.2.3.4", "::102:304");
    check_format("::ffff:1:0", "::ffff:0.1.0.0");
    check_format("0:0:0:0:1:ffff:1:2", "::1:ffff:1:2");
    check_format("0:0:0:0:0:fffe:1:2", "::fffe:1:2");
}

static void test_tern_ipv6_addr_to_str__longest_forms(void **state)
{
    (void)state;
    char buf[TERN_IPV6_ADDR_STRLEN];
    tern_ipv6_addr_t a = addr("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
    assert_int_equal(tern_ipv6_addr_to_str(&a, buf, sizeof(buf)), 39);
    a = addr("::ffff:255.255.255.255");
    assert_int_equal(tern_ipv6_addr_to_str(&a, buf, sizeof(buf)), 22);
    assert_string_equal(buf, "::ffff:255.255.255.255");
}

static void test_tern_ipv6_addr_to_str__buffer_too_small(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr("2001:db8::1");
    char buf[12];
    memset(buf, 'x', sizeof(buf));
    /* 11 characters need 12 bytes */
    assert_int_equal(tern_ipv6_addr_to_str(&a, buf, 11), -ENOBUFS);
    assert_int_equal(buf[0], 'x');
    assert_int_equal(tern_ipv6_addr_to_str(&a, buf, 0), -ENOBUFS);
    assert_int_equal(tern_ipv6_addr_to_str(&a, buf, 12), 11);
    assert_string_equal(buf, "2001:db8::1");
    assert_int_equal(tern_ipv6_addr_to_str(NULL, buf, 12), -EINVAL);
    assert_int_equal(tern_ipv6_addr_to_str(&a, NULL, 12), -EINVAL);
}

/* --- classification ------------------------------------------------------- */

static void test_tern_ipv6_addr_is__classes(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr("::");
    assert_true(tern_ipv6_addr_is_unspecified(&a));
    assert_false(tern_ipv6_addr_is_loopback(&a));
    a = addr("::1");
    assert_true(tern_ipv6_addr_is_loopback(&a));
    assert_false(tern_ipv6_addr_is_unspecified(&a));
    a = addr("1::1");
    assert_false(tern_ipv6_addr_is_loopback(&a));
    a = addr("ff02::1");
    assert_true(tern_ipv6_addr_is_multicast(&a));
    assert_false(tern_ipv6_addr_is_solicited_node(&a));
    a = addr("fe80::1");
    assert_true(tern_ipv6_addr_is_link_local(&a));
    assert_false(tern_ipv6_addr_is_multicast(&a));
    a = addr("febf:ffff::1");
    assert_true(tern_ipv6_addr_is_link_local(&a));
    a = addr("fec0::1");
    assert_false(tern_ipv6_addr_is_link_local(&a));
    a = addr("ff02::1:ff12:3456");
    assert_true(tern_ipv6_addr_is_solicited_node(&a));
    a = addr("ff02::1:fe12:3456");
    assert_false(tern_ipv6_addr_is_solicited_node(&a));
    a = addr("ff02::2:ff12:3456");
    assert_false(tern_ipv6_addr_is_solicited_node(&a));
    a = addr("::ffff:1.2.3.4");
    assert_true(tern_ipv6_addr_is_ipv4_mapped(&a));
    a = addr("::fffe:1.2.3.4");
    assert_false(tern_ipv6_addr_is_ipv4_mapped(&a));
    tern_ipv6_addr_t b = addr("::ffff:1.2.3.4");
    assert_true(tern_ipv6_addr_equal(&a, &a));
    assert_false(tern_ipv6_addr_equal(&a, &b));
}

static void test_tern_ipv6_addr_is__initialisers(void **state)
{
    (void)state;
    const tern_ipv6_addr_t unspec = TERN_IPV6_ADDR_UNSPECIFIED;
    const tern_ipv6_addr_t loop = TERN_IPV6_ADDR_LOOPBACK;
    const tern_ipv6_addr_t nodes = TERN_IPV6_ADDR_ALL_NODES_LINK;
    const tern_ipv6_addr_t routers = TERN_IPV6_ADDR_ALL_ROUTERS_LINK;
    const tern_ipv6_addr_t mldv2 = TERN_IPV6_ADDR_ALL_MLDV2_ROUTERS;
    tern_ipv6_addr_t a = addr("::");
    assert_true(tern_ipv6_addr_equal(&unspec, &a));
    a = addr("::1");
    assert_true(tern_ipv6_addr_equal(&loop, &a));
    a = addr("ff02::1");
    assert_true(tern_ipv6_addr_equal(&nodes, &a));
    a = addr("ff02::2");
    assert_true(tern_ipv6_addr_equal(&routers, &a));
    a = addr("ff02::16");
    assert_true(tern_ipv6_addr_equal(&mldv2, &a));
}

static void test_tern_ipv6_addr_scope__rfc6724(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr("ff01::1");
    assert_int_equal(tern_ipv6_addr_scope(&a), TERN_IPV6_SCOPE_INTERFACE);
    a = addr("ff02::1");
    assert_int_equal(tern_ipv6_addr_scope(&a), TERN_IPV6_SCOPE_LINK);
    a = addr("ff15::1");
    assert_int_equal(tern_ipv6_addr_scope(&a), TERN_IPV6_SCOPE_SITE);
    a = addr("ff0e::1");
    assert_int_equal(tern_ipv6_addr_scope(&a), TERN_IPV6_SCOPE_GLOBAL);
    a = addr("ff0f::1");
    assert_int_equal(tern_ipv6_addr_scope(&a), 0xf);
    a = addr("fe80::1");
    assert_int_equal(tern_ipv6_addr_scope(&a), TERN_IPV6_SCOPE_LINK);
    a = addr("::1");
    assert_int_equal(tern_ipv6_addr_scope(&a), TERN_IPV6_SCOPE_LINK);
    a = addr("2001:db8::1");
    assert_int_equal(tern_ipv6_addr_scope(&a), TERN_IPV6_SCOPE_GLOBAL);
    a = addr("fd00::1");
    assert_int_equal(tern_ipv6_addr_scope(&a), TERN_IPV6_SCOPE_GLOBAL);
}

/* --- prefixes ------------------------------------------------------------- */

static void test_tern_ipv6_addr_common_prefix__bits(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr("2001:db8::1");
    tern_ipv6_addr_t b = addr("2001:db8::1");
    assert_int_equal(tern_ipv6_addr_common_prefix(&a, &b), 128);
    b = addr("2001:db8::");
    assert_int_equal(tern_ipv6_addr_common_prefix(&a, &b), 127);
    b = addr("2001:db8:8000::");
    assert_int_equal(tern_ipv6_addr_common_prefix(&a, &b), 32);
    b = addr("2001:db9::1");
    assert_int_equal(tern_ipv6_addr_common_prefix(&a, &b), 31);
    b = addr("a001::");
    assert_int_equal(tern_ipv6_addr_common_prefix(&a, &b), 0);
}

static void test_tern_ipv6_addr_match_prefix__lengths(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr("2001:db8:1:2::5");
    tern_ipv6_addr_t p = addr("2001:db8:1::");
    assert_true(tern_ipv6_addr_match_prefix(&a, &p, 0));
    assert_true(tern_ipv6_addr_match_prefix(&a, &p, 48));
    assert_true(tern_ipv6_addr_match_prefix(&a, &p, 62));
    assert_false(tern_ipv6_addr_match_prefix(&a, &p, 63));
    assert_false(tern_ipv6_addr_match_prefix(&a, &p, 64));
    assert_true(tern_ipv6_addr_match_prefix(&a, &a, 128));
    assert_false(tern_ipv6_addr_match_prefix(&a, &a, 129));
    /* Every length against the common prefix, for addresses differing in one bit each. */
    for (unsigned bit = 0; bit < 128; bit++) {
        tern_ipv6_addr_t b = a;
        b.u8[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
        assert_int_equal(tern_ipv6_addr_common_prefix(&a, &b), bit);
        for (unsigned len = 0; len <= 129; len++) {
            assert_true(tern_ipv6_addr_match_prefix(&a, &b, len) == (len <= bit));
        }
    }
}

static void test_tern_ipv6_addr_mask__lengths(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff");
    tern_ipv6_addr_mask(&a, 128);
    tern_ipv6_addr_t e = addr("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff");
    assert_true(tern_ipv6_addr_equal(&a, &e));
    tern_ipv6_addr_mask(&a, 200);
    assert_true(tern_ipv6_addr_equal(&a, &e));
    tern_ipv6_addr_mask(&a, 63);
    e = addr("2001:db8:ffff:fffe::");
    assert_true(tern_ipv6_addr_equal(&a, &e));
    tern_ipv6_addr_mask(&a, 32);
    e = addr("2001:db8::");
    assert_true(tern_ipv6_addr_equal(&a, &e));
    tern_ipv6_addr_mask(&a, 0);
    e = addr("::");
    assert_true(tern_ipv6_addr_equal(&a, &e));
}

/* --- derived addresses ---------------------------------------------------- */

static void test_tern_ipv6_addr_solicited_node__rfc4291_2_7_1(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr("4037::01:800:200e:8c6c");
    tern_ipv6_addr_t out;
    tern_ipv6_addr_solicited_node(&out, &a);
    tern_ipv6_addr_t e = addr("ff02::1:ff0e:8c6c");
    assert_true(tern_ipv6_addr_equal(&out, &e));
    /* in place */
    tern_ipv6_addr_solicited_node(&a, &a);
    assert_true(tern_ipv6_addr_equal(&a, &e));
}

static void test_tern_ipv6_iid_from_l2addr__mac48(void **state)
{
    (void)state;
    /* RFC 2464 §4 example: 34-56-78-9A-BC-DE -> 3656:78FF:FE9A:BCDE */
    const uint8_t mac[6] = { 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde };
    tern_ipv6_addr_t a = addr("fe80::");
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, mac, sizeof(mac)), 0);
    tern_ipv6_addr_t e = addr("fe80::3656:78ff:fe9a:bcde");
    assert_true(tern_ipv6_addr_equal(&a, &e));
}

static void test_tern_ipv6_iid_from_l2addr__eui64(void **state)
{
    (void)state;
    const uint8_t eui64[8] = { 0x02, 0x12, 0x4b, 0x00, 0x01, 0x02, 0x03, 0x04 };
    tern_ipv6_addr_t a = addr("2001:db8::");
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, eui64, sizeof(eui64)), 0);
    tern_ipv6_addr_t e = addr("2001:db8::12:4b00:102:304");
    assert_true(tern_ipv6_addr_equal(&a, &e));
}

static void test_tern_ipv6_iid_from_l2addr__short16(void **state)
{
    (void)state;
    const uint8_t short_addr[2] = { 0xab, 0xcd };
    tern_ipv6_addr_t a = addr("fe80::");
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, short_addr, 2), 0);
    tern_ipv6_addr_t e = addr("fe80::ff:fe00:abcd");
    assert_true(tern_ipv6_addr_equal(&a, &e));
}

static void test_tern_ipv6_l2addr_from_iid__short_and_eui64(void **state)
{
    (void)state;
    uint8_t out[8];
    /* RFC 4944 §6 / RFC 6282 §3.2.2: 0000:00ff:fe00:XXXX is the short address XXXX. */
    tern_ipv6_addr_t a = addr("fe80::ff:fe00:abcd");
    assert_int_equal(tern_ipv6_l2addr_from_iid(&a, out), 2);
    const uint8_t short_addr[2] = { 0xab, 0xcd };
    assert_memory_equal(out, short_addr, 2);
    /* Anything else is an EUI-64 with the U/L bit inverted back, the inverse of
     * tern_ipv6_iid_from_l2addr() (also for an IID that only looks like a short
     * one in part: 0000:01ff:fe00:XXXX). */
    a = addr("2001:db8::12:4b00:102:304");
    assert_int_equal(tern_ipv6_l2addr_from_iid(&a, out), 8);
    const uint8_t eui64[8] = { 0x02, 0x12, 0x4b, 0x00, 0x01, 0x02, 0x03, 0x04 };
    assert_memory_equal(out, eui64, 8);
    a = addr("fe80::1ff:fe00:abcd");
    assert_int_equal(tern_ipv6_l2addr_from_iid(&a, out), 8);
    const uint8_t almost[8] = { 0x02, 0x00, 0x01, 0xff, 0xfe, 0x00, 0xab, 0xcd };
    assert_memory_equal(out, almost, 8);
}

static void test_tern_ipv6_iid_from_l2addr__bad_length(void **state)
{
    (void)state;
    const uint8_t l2[8] = { 0 };
    tern_ipv6_addr_t a = addr("fe80::1");
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, l2, 0), -EINVAL);
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, l2, 4), -EINVAL);
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, l2, 7), -EINVAL);
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, NULL, 6), -EINVAL);
    assert_int_equal(tern_ipv6_iid_from_l2addr(NULL, l2, 6), -EINVAL);
    tern_ipv6_addr_t e = addr("fe80::1");
    assert_true(tern_ipv6_addr_equal(&a, &e));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_ipv6_addr_from_str__all_forms),
        cmocka_unit_test(test_tern_ipv6_addr_from_str__malformed),
        cmocka_unit_test(test_tern_ipv6_addr_from_str__uses_exactly_len_chars),
        cmocka_unit_test(test_tern_ipv6_addr_from_str__null),
        cmocka_unit_test(test_tern_ipv6_addr_to_str__rfc5952_examples),
        cmocka_unit_test(test_tern_ipv6_addr_to_str__longest_forms),
        cmocka_unit_test(test_tern_ipv6_addr_to_str__buffer_too_small),
        cmocka_unit_test(test_tern_ipv6_addr_is__classes),
        cmocka_unit_test(test_tern_ipv6_addr_is__initialisers),
        cmocka_unit_test(test_tern_ipv6_addr_scope__rfc6724),
        cmocka_unit_test(test_tern_ipv6_addr_common_prefix__bits),
        cmocka_unit_test(test_tern_ipv6_addr_match_prefix__lengths),
        cmocka_unit_test(test_tern_ipv6_addr_mask__lengths),
        cmocka_unit_test(test_tern_ipv6_addr_solicited_node__rfc4291_2_7_1),
        cmocka_unit_test(test_tern_ipv6_iid_from_l2addr__mac48),
        cmocka_unit_test(test_tern_ipv6_iid_from_l2addr__eui64),
        cmocka_unit_test(test_tern_ipv6_iid_from_l2addr__short16),
        cmocka_unit_test(test_tern_ipv6_iid_from_l2addr__bad_length),
        cmocka_unit_test(test_tern_ipv6_l2addr_from_iid__short_and_eui64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
