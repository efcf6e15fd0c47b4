/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Golden-byte tests of the Neighbor Discovery codec (RFC 4861 §4, RFC 8106).
 *
 * Vectors, laid out from the RFC formats as Linux and radvd send them; their
 * checksums were derived independently with scapy 2.8 (ICMPv6ND_* layers)
 * from the addresses given with each:
 * - the DAD probe Linux sends for fe80::5054:ff:fe12:3456 (unspecified source,
 *   solicited-node destination, Nonce option of RFC 7527 / RFC 3971 §5.3.2);
 * - an RA as radvd sends it: Prefix Information, MTU, Source Link-Layer Address;
 * - an RA with M, O, low preference and an RDNSS option with two servers;
 * - a solicited NA with Target Link-Layer Address, an RS with SLLA, and a
 *   Redirect with TLLA and Redirected Header.
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

#define MAC_HOST "fe80::5054:ff:fe12:3456"
#define MAC_ROUTER "fe80::5054:ff:feab:cdef"
#define SOLICITED "ff02::1:ff12:3456"

/* :: -> ff02::1:ff12:3456, checksum 0x0112. */
static const uint8_t dad_ns[] = {
    0x87, 0x00, 0x01, 0x12, 0x00, 0x00, 0x00, 0x00, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x50, 0x54, 0x00, 0xff, 0xfe, 0x12, 0x34, 0x56, 0x0e, 0x01, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f,
};

/* fe80::5054:ff:feab:cdef -> ff02::1, checksum 0xeefb. */
static const uint8_t radvd_ra[] = {
    0x86, 0x00, 0xee, 0xfb, 0x40, 0x00, 0x07, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    /* Prefix Information: 2001:db8:1::/64, L A, valid 86400, preferred 14400 */
    0x03, 0x04, 0x40, 0xc0, 0x00, 0x01, 0x51, 0x80, 0x00, 0x00, 0x38, 0x40, 0x00, 0x00, 0x00, 0x00,
    0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    /* MTU 1500 */
    0x05, 0x01, 0x00, 0x00, 0x00, 0x00, 0x05, 0xdc,
    /* SLLA 52:54:00:ab:cd:ef */
    0x01, 0x01, 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef,
};

/* fe80::5054:ff:feab:cdef -> ff02::1, checksum 0x2cd1. */
static const uint8_t rdnss_ra[] = {
    0x86, 0x00, 0x2c, 0xd1, 0x40, 0xd8, 0x00, 0x00, 0x00, 0x00, 0x75, 0x30, 0x00, 0x00, 0x03, 0xe8,
    /* RDNSS lifetime 600: 2001:db8::53, 2001:db8::35 */
    0x19, 0x05, 0x00, 0x00, 0x00, 0x00, 0x02, 0x58, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x53, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x35,
};

/* fe80::5054:ff:fe12:3456 -> fe80::5054:ff:feab:cdef, S O, checksum 0x6dfc. */
static const uint8_t solicited_na[] = {
    0x88, 0x00, 0x6d, 0xfc, 0x60, 0x00, 0x00, 0x00, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x50, 0x54, 0x00, 0xff, 0xfe, 0x12, 0x34, 0x56, 0x02, 0x01, 0x52, 0x54, 0x00, 0x12, 0x34, 0x56,
};

/* fe80::5054:ff:fe12:3456 -> ff02::2, checksum 0x71b5. */
static const uint8_t rs_slla[] = {
    0x85, 0x00, 0x71, 0xb5, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x52, 0x54, 0x00, 0x12, 0x34, 0x56,
};

/* fe80::1 -> fe80::5054:ff:fe12:3456: target fe80::2 for 2001:db8:2::1, checksum 0x7a4e. */
static const uint8_t redirect[] = {
    0x89, 0x00, 0x7a, 0x4e, 0x00, 0x00, 0x00, 0x00, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x02, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    /* TLLA 52:54:00:00:00:02 */
    0x02, 0x01, 0x52, 0x54, 0x00, 0x00, 0x00, 0x02,
    /* Redirected Header: an IPv6 header 2001:db8::5 -> 2001:db8:2::1, no next header */
    0x04, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3b, 0x40,
    0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,
    0x20, 0x01, 0x0d, 0xb8, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
};

/* ---- Options ------------------------------------------------------------------ */

static void test_tern_ndp_opt_next__radvd_options(void **state)
{
    (void)state;
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t opt;
    const uint8_t *area = radvd_ra + TERN_NDP_RA_LEN;
    tern_ndp_opt_iter_init(&it, area, sizeof(radvd_ra) - TERN_NDP_RA_LEN);
    assert_int_equal(tern_ndp_opt_next(&it, &opt), 1);
    assert_int_equal(opt.type, TERN_NDP_OPT_PREFIX_INFO);
    assert_ptr_equal(opt.data, area);
    assert_int_equal(opt.len, 32);
    assert_int_equal(tern_ndp_opt_next(&it, &opt), 1);
    assert_int_equal(opt.type, TERN_NDP_OPT_MTU);
    assert_int_equal(opt.len, 8);
    assert_int_equal(tern_ndp_opt_next(&it, &opt), 1);
    assert_int_equal(opt.type, TERN_NDP_OPT_SLLA);
    assert_int_equal(tern_ndp_opt_next(&it, &opt), 0);
    assert_int_equal(tern_ndp_opt_next(&it, &opt), 0);
}

static void test_tern_ndp_opt_next__zero_length(void **state)
{
    (void)state;
    const uint8_t area[] = { 0x01, 0x01, 1, 2, 3, 4, 5, 6, 0x05, 0x00, 0, 0, 0, 0, 0, 0 };
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t opt;
    tern_ndp_opt_iter_init(&it, area, sizeof(area));
    assert_int_equal(tern_ndp_opt_next(&it, &opt), 1);
    assert_int_equal(tern_ndp_opt_next(&it, &opt), -EBADMSG);
    assert_int_equal(tern_ndp_options_check(area, sizeof(area)), -EBADMSG);
}

static void test_tern_ndp_opt_next__past_end(void **state)
{
    (void)state;
    /* Length 2 (16 octets) in a 10-octet area. */
    const uint8_t area[] = { 0x01, 0x02, 1, 2, 3, 4, 5, 6, 7, 8 };
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t opt;
    tern_ndp_opt_iter_init(&it, area, sizeof(area));
    assert_int_equal(tern_ndp_opt_next(&it, &opt), -EBADMSG);
    assert_int_equal(tern_ndp_options_check(area, sizeof(area)), -EBADMSG);
}

static void test_tern_ndp_opt_next__one_trailing_octet(void **state)
{
    (void)state;
    const uint8_t area[] = { 0x05, 0x01, 0, 0, 0, 0, 0x05, 0xdc, 0x01 };
    assert_int_equal(tern_ndp_options_check(area, sizeof(area)), -EBADMSG);
    assert_int_equal(tern_ndp_options_check(area, 8), 1);
}

static void test_tern_ndp_options_check__empty(void **state)
{
    (void)state;
    assert_int_equal(tern_ndp_options_check(NULL, 0), 0);
    assert_int_equal(tern_ndp_options_check(radvd_ra + 16, sizeof(radvd_ra) - 16), 3);
}

static void test_tern_ndp_opt_find__present_absent_malformed(void **state)
{
    (void)state;
    tern_ndp_opt_t opt;
    const uint8_t *area = radvd_ra + TERN_NDP_RA_LEN;
    size_t len = sizeof(radvd_ra) - TERN_NDP_RA_LEN;
    assert_int_equal(tern_ndp_opt_find(area, len, TERN_NDP_OPT_SLLA, &opt), 1);
    assert_ptr_equal(opt.data, area + 40);
    assert_int_equal(tern_ndp_opt_find(area, len, TERN_NDP_OPT_TLLA, &opt), 0);
    const uint8_t bad[] = { 0x03, 0x00 };
    assert_int_equal(tern_ndp_opt_find(bad, sizeof(bad), TERN_NDP_OPT_SLLA, &opt), -EBADMSG);
}

static void test_tern_ndp_opt_lladdr_parse__ethernet(void **state)
{
    (void)state;
    tern_ndp_opt_t opt = { .type = 1, .data = rs_slla + 8, .len = 8 };
    tern_ndp_opt_lladdr_t ll;
    assert_int_equal(tern_ndp_opt_lladdr_parse(&ll, &opt), 0);
    assert_int_equal(ll.type, TERN_NDP_OPT_SLLA);
    assert_int_equal(ll.addr_len, 6);
    const uint8_t mac[] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    assert_memory_equal(ll.addr, mac, 6);
    opt.type = TERN_NDP_OPT_MTU;
    assert_int_equal(tern_ndp_opt_lladdr_parse(&ll, &opt), -EBADMSG);
}

static void test_tern_ndp_opt_lladdr_emit__ieee802154_padding(void **state)
{
    (void)state;
    /* RFC 4944 §8: EUI-64 in a 2-unit option, a 16-bit short address in 1 unit. */
    const uint8_t eui64[] = { 0x02, 0x12, 0x4b, 0x00, 0x01, 0x02, 0x03, 0x04 };
    const uint8_t expect_long[] = { 0x01, 0x02, 0x02, 0x12, 0x4b, 0x00, 0x01, 0x02,
                                    0x03, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };
    uint8_t buf[16];
    memset(buf, 0xaa, sizeof(buf));
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = eui64, .addr_len = 8 };
    assert_int_equal(tern_ndp_opt_lladdr_len(8), 16);
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf, sizeof(buf)), 16);
    assert_memory_equal(buf, expect_long, sizeof(expect_long));

    const uint8_t short_addr[] = { 0xbe, 0xef };
    const uint8_t expect_short[] = { 0x02, 0x01, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x00 };
    memset(buf, 0xaa, sizeof(buf));
    ll = (tern_ndp_opt_lladdr_t){ .type = TERN_NDP_OPT_TLLA, .addr = short_addr, .addr_len = 2 };
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf, sizeof(buf)), 8);
    assert_memory_equal(buf, expect_short, sizeof(expect_short));
}

static void test_tern_ndp_opt_lladdr_emit__errors(void **state)
{
    (void)state;
    const uint8_t mac[6] = { 0 };
    uint8_t buf[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = mac, .addr_len = 6 };
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf, 7), -ENOBUFS);
    ll.type = TERN_NDP_OPT_MTU;
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf, sizeof(buf)), -EINVAL);
    ll.type = TERN_NDP_OPT_TLLA;
    ll.addr_len = 0;
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf, sizeof(buf)), -EINVAL);
    ll.addr_len = TERN_NDP_OPT_MAX_LEN;
    assert_int_equal(tern_ndp_opt_lladdr_len(TERN_NDP_OPT_MAX_LEN), 0);
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf, sizeof(buf)), -EINVAL);
    ll.addr = NULL;
    ll.addr_len = 6;
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf, sizeof(buf)), -EINVAL);
}

static void test_tern_ndp_opt_prefix_info_parse__radvd(void **state)
{
    (void)state;
    tern_ndp_opt_t opt = { .type = 3, .data = radvd_ra + 16, .len = 32 };
    tern_ndp_opt_prefix_info_t pio;
    assert_int_equal(tern_ndp_opt_prefix_info_parse(&pio, &opt), 0);
    assert_int_equal(pio.prefix_len, 64);
    assert_int_equal(pio.flags, TERN_NDP_PIO_FLAG_ONLINK | TERN_NDP_PIO_FLAG_AUTONOMOUS);
    assert_int_equal(pio.valid_lifetime, 86400);
    assert_int_equal(pio.preferred_lifetime, 14400);
    tern_ipv6_addr_t prefix = addr("2001:db8:1::");
    assert_memory_equal(pio.prefix.u8, prefix.u8, 16);
}

static void test_tern_ndp_opt_prefix_info_parse__wrong_length(void **state)
{
    (void)state;
    uint8_t area[40] = { 0x03, 0x05, 64 };
    tern_ndp_opt_t opt = { .type = 3, .data = area, .len = 40 };
    tern_ndp_opt_prefix_info_t pio;
    assert_int_equal(tern_ndp_opt_prefix_info_parse(&pio, &opt), -EBADMSG);
    opt.len = 24;
    area[1] = 3;
    assert_int_equal(tern_ndp_opt_prefix_info_parse(&pio, &opt), -EBADMSG);
}

static void test_tern_ndp_opt_prefix_info_parse__prefix_len_above_128(void **state)
{
    (void)state;
    uint8_t area[32];
    memcpy(area, radvd_ra + 16, 32);
    area[2] = 129;
    tern_ndp_opt_t opt = { .type = 3, .data = area, .len = 32 };
    tern_ndp_opt_prefix_info_t pio;
    assert_int_equal(tern_ndp_opt_prefix_info_parse(&pio, &opt), -EBADMSG);
    area[2] = 128;
    assert_int_equal(tern_ndp_opt_prefix_info_parse(&pio, &opt), 0);
}

static void test_tern_ndp_opt_prefix_info_emit__errors(void **state)
{
    (void)state;
    uint8_t buf[32];
    tern_ndp_opt_prefix_info_t pio = { .prefix_len = 129 };
    assert_int_equal(tern_ndp_opt_prefix_info_emit(&pio, buf, sizeof(buf)), -EINVAL);
    pio.prefix_len = 64;
    assert_int_equal(tern_ndp_opt_prefix_info_emit(&pio, buf, 31), -ENOBUFS);
}

static void test_tern_ndp_opt_mtu_parse__wrong_length(void **state)
{
    (void)state;
    const uint8_t area[] = { 0x05, 0x02, 0, 0, 0, 0, 0x05, 0xdc, 0, 0, 0, 0, 0, 0, 0, 0 };
    tern_ndp_opt_t opt = { .type = 5, .data = area, .len = 16 };
    uint32_t mtu = 0;
    assert_int_equal(tern_ndp_opt_mtu_parse(&mtu, &opt), -EBADMSG);
    opt.len = 8;
    assert_int_equal(tern_ndp_opt_mtu_parse(&mtu, &opt), 0);
    assert_int_equal(mtu, 1500);
    opt.type = 1;
    assert_int_equal(tern_ndp_opt_mtu_parse(&mtu, &opt), -EBADMSG);
    uint8_t buf[8];
    assert_int_equal(tern_ndp_opt_mtu_emit(1500, buf, 7), -ENOBUFS);
}

static void test_tern_ndp_opt_rdnss_parse__two_servers(void **state)
{
    (void)state;
    tern_ndp_opt_t opt;
    assert_int_equal(tern_ndp_opt_find(rdnss_ra + 16, sizeof(rdnss_ra) - 16, TERN_NDP_OPT_RDNSS,
                                       &opt),
                     1);
    tern_ndp_opt_rdnss_t rdnss;
    assert_int_equal(tern_ndp_opt_rdnss_parse(&rdnss, &opt), 0);
    assert_int_equal(rdnss.lifetime, 600);
    assert_int_equal(rdnss.count, 2);
    tern_ipv6_addr_t a;
    tern_ipv6_addr_t expect0 = addr("2001:db8::53");
    tern_ipv6_addr_t expect1 = addr("2001:db8::35");
    assert_int_equal(tern_ndp_opt_rdnss_addr(&rdnss, 0, &a), 0);
    assert_memory_equal(a.u8, expect0.u8, 16);
    assert_int_equal(tern_ndp_opt_rdnss_addr(&rdnss, 1, &a), 0);
    assert_memory_equal(a.u8, expect1.u8, 16);
    assert_int_equal(tern_ndp_opt_rdnss_addr(&rdnss, 2, &a), -EINVAL);
}

static void test_tern_ndp_opt_rdnss_parse__bad_length(void **state)
{
    (void)state;
    uint8_t area[32] = { 0x19, 0x01 };
    tern_ndp_opt_t opt = { .type = 25, .data = area, .len = 8 };
    tern_ndp_opt_rdnss_t rdnss;
    /* RFC 8106 §5.1: at least 3 units. */
    assert_int_equal(tern_ndp_opt_rdnss_parse(&rdnss, &opt), -EBADMSG);
    area[1] = 2;
    opt.len = 16;
    assert_int_equal(tern_ndp_opt_rdnss_parse(&rdnss, &opt), -EBADMSG);
    /* Even length: half an address. */
    area[1] = 4;
    opt.len = 32;
    assert_int_equal(tern_ndp_opt_rdnss_parse(&rdnss, &opt), -EBADMSG);
    area[1] = 3;
    opt.len = 24;
    assert_int_equal(tern_ndp_opt_rdnss_parse(&rdnss, &opt), 0);
    assert_int_equal(rdnss.count, 1);
}

static void test_tern_ndp_opt_rdnss_emit__golden_and_errors(void **state)
{
    (void)state;
    tern_ipv6_addr_t servers[2] = { addr("2001:db8::53"), addr("2001:db8::35") };
    tern_ndp_opt_rdnss_t rdnss = { .lifetime = 600, .addrs = servers[0].u8, .count = 2 };
    uint8_t buf[40];
    assert_int_equal(tern_ndp_opt_rdnss_len(2), 40);
    assert_int_equal(tern_ndp_opt_rdnss_emit(&rdnss, buf, 39), -ENOBUFS);
    assert_int_equal(tern_ndp_opt_rdnss_emit(&rdnss, buf, sizeof(buf)), 40);
    assert_memory_equal(buf, rdnss_ra + 16, 40);
    rdnss.count = 0;
    assert_int_equal(tern_ndp_opt_rdnss_emit(&rdnss, buf, sizeof(buf)), -EINVAL);
    rdnss.count = TERN_NDP_OPT_RDNSS_MAX_ADDRS + 1;
    assert_int_equal(tern_ndp_opt_rdnss_emit(&rdnss, buf, sizeof(buf)), -EINVAL);
    rdnss.count = 1;
    rdnss.addrs = NULL;
    assert_int_equal(tern_ndp_opt_rdnss_emit(&rdnss, buf, sizeof(buf)), -EINVAL);
}

/* Route Information options (RFC 4191 §2.3), as radvd's `route` sections send them. */
static const uint8_t rio_64_high[16] = { 0x18, 0x02, 0x40, 0x08, 0x00, 0x00, 0x07, 0x08,
                                         0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00 };
static const uint8_t rio_0_low[8] = { 0x18, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00, 0x3c };
static const uint8_t rio_128_infinite[24] = { 0x18, 0x03, 0x80, 0x00, 0xff, 0xff, 0xff, 0xff,
                                              0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00,
                                              0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07 };

static int rio_parse(tern_ndp_opt_route_info_t *rio, const uint8_t *b, size_t len)
{
    tern_ndp_opt_t opt;
    assert_int_equal(tern_ndp_opt_find(b, len, TERN_NDP_OPT_ROUTE_INFO, &opt), 1);
    return tern_ndp_opt_route_info_parse(rio, &opt);
}

static void test_tern_ndp_opt_route_info_parse__golden(void **state)
{
    (void)state;
    tern_ndp_opt_route_info_t rio;
    assert_int_equal(rio_parse(&rio, rio_64_high, sizeof(rio_64_high)), 0);
    tern_ipv6_addr_t mesh = addr("2001:db8:1::");
    assert_int_equal(rio.prefix_len, 64);
    assert_int_equal(rio.preference, 1);
    assert_int_equal(rio.lifetime, 1800);
    assert_memory_equal(rio.prefix.u8, mesh.u8, 16);
    assert_int_equal(rio_parse(&rio, rio_0_low, sizeof(rio_0_low)), 0);
    tern_ipv6_addr_t any = addr("::");
    assert_int_equal(rio.prefix_len, 0);
    assert_int_equal(rio.preference, -1);
    assert_int_equal(rio.lifetime, 60);
    assert_memory_equal(rio.prefix.u8, any.u8, 16);
    assert_int_equal(rio_parse(&rio, rio_128_infinite, sizeof(rio_128_infinite)), 0);
    tern_ipv6_addr_t host = addr("2001:db8:1::7");
    assert_int_equal(rio.prefix_len, 128);
    assert_int_equal(rio.preference, 0);
    assert_int_equal(rio.lifetime, TERN_NDP_LIFETIME_INFINITE);
    assert_memory_equal(rio.prefix.u8, host.u8, 16);
}

static void test_tern_ndp_opt_route_info_parse__lengths_preference_and_reserved_bits(void **state)
{
    (void)state;
    uint8_t b[24];
    tern_ndp_opt_route_info_t rio;
    /* §2.3: Length 3 may carry a short prefix; the bits past it are ignored. */
    memcpy(b, rio_128_infinite, sizeof(b));
    b[2] = 60;
    assert_int_equal(rio_parse(&rio, b, 24), 0);
    tern_ipv6_addr_t p60 = addr("2001:db8:1::");
    assert_int_equal(rio.prefix_len, 60);
    assert_memory_equal(rio.prefix.u8, p60.u8, 16);
    b[15] = 0x0f; /* bits 60..63: reserved */
    assert_int_equal(rio_parse(&rio, b, 24), 0);
    assert_memory_equal(rio.prefix.u8, p60.u8, 16);
    /* Prefix longer than the option carries. */
    memcpy(b, rio_64_high, 16);
    b[2] = 65;
    assert_int_equal(rio_parse(&rio, b, 16), -EBADMSG);
    memcpy(b, rio_0_low, 8);
    b[2] = 1;
    assert_int_equal(rio_parse(&rio, b, 8), -EBADMSG);
    memcpy(b, rio_128_infinite, 24);
    b[2] = 129;
    assert_int_equal(rio_parse(&rio, b, 24), -EBADMSG);
    /* Length 4: no such option. */
    uint8_t four[32] = { 0x18, 0x04, 0x40, 0x00 };
    assert_int_equal(rio_parse(&rio, four, sizeof(four)), -EBADMSG);
    /* §2.3: the reserved preference (10) makes the option ignored. */
    memcpy(b, rio_64_high, 16);
    b[3] = 0x10;
    assert_int_equal(rio_parse(&rio, b, 16), -EBADMSG);
    /* Reserved flag bits around Prf are ignored. */
    b[3] = 0xe7 | 0x18; /* Prf 11: low */
    assert_int_equal(rio_parse(&rio, b, 16), 0);
    assert_int_equal(rio.preference, -1);
    /* Another type. */
    tern_ndp_opt_t opt = { .type = TERN_NDP_OPT_PREFIX_INFO, .data = rio_64_high, .len = 16 };
    assert_int_equal(tern_ndp_opt_route_info_parse(&rio, &opt), -EBADMSG);
}

static void test_tern_ndp_opt_route_info_emit__golden_and_errors(void **state)
{
    (void)state;
    uint8_t buf[24];
    tern_ndp_opt_route_info_t rio = { .prefix_len = 64, .preference = 1, .lifetime = 1800,
                                      .prefix = addr("2001:db8:1::") };
    assert_int_equal(tern_ndp_opt_route_info_len(64), 16);
    assert_int_equal(tern_ndp_opt_route_info_emit(&rio, buf, 15), -ENOBUFS);
    assert_int_equal(tern_ndp_opt_route_info_emit(&rio, buf, sizeof(buf)), 16);
    assert_memory_equal(buf, rio_64_high, 16);
    /* Bits past the prefix length are sent as 0 (§2.3). */
    rio.prefix = addr("2001:db8:1:0:ffff::1");
    assert_int_equal(tern_ndp_opt_route_info_emit(&rio, buf, sizeof(buf)), 16);
    assert_memory_equal(buf, rio_64_high, 16);
    tern_ndp_opt_route_info_t low = { .prefix_len = 0, .preference = -1, .lifetime = 60, .prefix = addr("2001::") };
    assert_int_equal(tern_ndp_opt_route_info_emit(&low, buf, sizeof(buf)), 8);
    assert_memory_equal(buf, rio_0_low, 8);
    tern_ndp_opt_route_info_t host = { .prefix_len = 128, .preference = 0, .lifetime = TERN_NDP_LIFETIME_INFINITE,
                                       .prefix = addr("2001:db8:1::7") };
    assert_int_equal(tern_ndp_opt_route_info_emit(&host, buf, sizeof(buf)), 24);
    assert_memory_equal(buf, rio_128_infinite, 24);
    /* Round trip of a /65: Length 3. */
    tern_ndp_opt_route_info_t r65 = { .prefix_len = 65, .preference = 0, .lifetime = 5, .prefix = addr("2001:db8::8000:0:0:0") };
    assert_int_equal(tern_ndp_opt_route_info_emit(&r65, buf, sizeof(buf)), 24);
    tern_ndp_opt_route_info_t back;
    assert_int_equal(rio_parse(&back, buf, 24), 0);
    assert_int_equal(back.prefix_len, 65);
    assert_memory_equal(back.prefix.u8, r65.prefix.u8, 16);
    host.prefix_len = 129;
    assert_int_equal(tern_ndp_opt_route_info_len(129), 0);
    assert_int_equal(tern_ndp_opt_route_info_emit(&host, buf, sizeof(buf)), -EINVAL);
    host.prefix_len = 128;
    host.preference = 2;
    assert_int_equal(tern_ndp_opt_route_info_emit(&host, buf, sizeof(buf)), -EINVAL);
}

static void test_tern_ndp_opt_redirected_hdr_parse__golden(void **state)
{
    (void)state;
    tern_ndp_opt_t opt = { .type = 4, .data = redirect + 48, .len = 48 };
    tern_ndp_opt_redirected_hdr_t rh;
    assert_int_equal(tern_ndp_opt_redirected_hdr_parse(&rh, &opt), 0);
    assert_ptr_equal(rh.packet, redirect + 56);
    assert_int_equal(rh.packet_len, 40);
    opt.type = 5;
    assert_int_equal(tern_ndp_opt_redirected_hdr_parse(&rh, &opt), -EBADMSG);
}

static void test_tern_ndp_opt_redirected_hdr_emit__truncates_and_pads(void **state)
{
    (void)state;
    static uint8_t packet[1500];
    for (size_t i = 0; i < sizeof(packet); i++) {
        packet[i] = (uint8_t)(i + 1);
    }
    static uint8_t buf[2200];
    tern_ndp_opt_redirected_hdr_t rh = { .packet = packet, .packet_len = sizeof(packet) };
    /* Room for 100 octets: 8 + 88 (a multiple of 8). */
    assert_int_equal(tern_ndp_opt_redirected_hdr_emit(&rh, buf, 100), 96);
    assert_int_equal(buf[0], 4);
    assert_int_equal(buf[1], 12);
    assert_memory_equal(buf + 8, packet, 88);
    /* 13 octets: padded with zeros to 16. */
    memset(buf, 0xaa, 64);
    rh.packet_len = 13;
    assert_int_equal(tern_ndp_opt_redirected_hdr_emit(&rh, buf, 64), 24);
    assert_int_equal(buf[1], 3);
    assert_memory_equal(buf + 8, packet, 13);
    assert_int_equal(buf[21], 0);
    assert_int_equal(buf[23], 0);
    /* Never more than one option holds: 255 units. */
    rh.packet_len = sizeof(packet);
    static uint8_t big[3000];
    memset(big, 0, sizeof(big));
    static uint8_t big_packet[3000];
    rh.packet = big_packet;
    rh.packet_len = sizeof(big_packet);
    assert_int_equal(tern_ndp_opt_redirected_hdr_emit(&rh, big, sizeof(big)), 2040);
    assert_int_equal(big[1], 255);
    /* Only the fixed part fits. */
    rh.packet = packet;
    assert_int_equal(tern_ndp_opt_redirected_hdr_emit(&rh, buf, 15), 8);
    assert_int_equal(buf[1], 1);
    assert_int_equal(tern_ndp_opt_redirected_hdr_emit(&rh, buf, 7), -ENOBUFS);
    rh.packet = NULL;
    assert_int_equal(tern_ndp_opt_redirected_hdr_emit(&rh, buf, 64), -EINVAL);
}

/* Regression (fuzz_wire_ndp): an RS carrying a Redirected Header option of
 * one unit, i.e. no packet at all, must parse and re-emit as 8 octets; with
 * less than 8 octets of room the emit reports -ENOBUFS. */
static void test_tern_ndp_opt_redirected_hdr_emit__empty_option_from_fuzz_rs(void **state)
{
    (void)state;
    const uint8_t msg[] = { 0x85, 0x00, 0x86, 0x00, 0xb5, 0x71, 0x00, 0x00,
                            0x04, 0x01, 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    tern_ndp_rs_repr_t rs;
    assert_int_equal(tern_ndp_rs_parse(&rs, msg, sizeof(msg)), 8);
    tern_ndp_opt_t opt;
    assert_int_equal(tern_ndp_opt_find(rs.options, rs.options_len, TERN_NDP_OPT_REDIRECTED_HDR,
                                       &opt),
                     1);
    tern_ndp_opt_redirected_hdr_t rh;
    assert_int_equal(tern_ndp_opt_redirected_hdr_parse(&rh, &opt), 0);
    assert_int_equal(rh.packet_len, 0);
    uint8_t buf[8];
    assert_int_equal(tern_ndp_opt_redirected_hdr_emit(&rh, buf, 7), -ENOBUFS);
    assert_int_equal(tern_ndp_opt_redirected_hdr_emit(&rh, buf, sizeof(buf)), 8);
    const uint8_t expect[] = { 0x04, 0x01, 0, 0, 0, 0, 0, 0 };
    assert_memory_equal(buf, expect, sizeof(expect));
}

/* ---- Messages ---------------------------------------------------------------- */

static void test_tern_ndp_ns_parse__linux_dad_probe(void **state)
{
    (void)state;
    assert_checksum_ok(dad_ns, sizeof(dad_ns), "::", SOLICITED);
    tern_ndp_ns_repr_t ns;
    assert_int_equal(tern_ndp_ns_parse(&ns, dad_ns, sizeof(dad_ns)), TERN_NDP_NS_LEN);
    tern_ipv6_addr_t target = addr(MAC_HOST);
    assert_memory_equal(ns.target.u8, target.u8, 16);
    assert_ptr_equal(ns.options, dad_ns + 24);
    assert_int_equal(ns.options_len, 8);
    /* The nonce is not parsed here: reported as an unknown option to skip. */
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t opt;
    tern_ndp_opt_iter_init(&it, ns.options, ns.options_len);
    assert_int_equal(tern_ndp_opt_next(&it, &opt), 1);
    assert_int_equal(opt.type, TERN_NDP_OPT_NONCE);
    assert_int_equal(opt.len, 8);
    assert_int_equal(tern_ndp_opt_next(&it, &opt), 0);
}

static void test_tern_ndp_ns_emit__linux_dad_probe(void **state)
{
    (void)state;
    tern_ndp_ns_repr_t ns = { .target = addr(MAC_HOST), .options = dad_ns + 24, .options_len = 8 };
    uint8_t buf[40];
    assert_int_equal(tern_ndp_ns_len(&ns), 32);
    assert_int_equal(tern_ndp_ns_emit(&ns, buf, 31), -ENOBUFS);
    assert_int_equal(tern_ndp_ns_emit(&ns, buf, sizeof(buf)), 32);
    fill_checksum(buf, 32, "::", SOLICITED);
    assert_memory_equal(buf, dad_ns, sizeof(dad_ns));
}

static void test_tern_ndp_ns_parse__truncated_wrong_code_wrong_type(void **state)
{
    (void)state;
    uint8_t msg[sizeof(dad_ns)];
    memcpy(msg, dad_ns, sizeof(msg));
    tern_ndp_ns_repr_t ns;
    assert_int_equal(tern_ndp_ns_parse(&ns, msg, 23), -EBADMSG);
    assert_int_equal(tern_ndp_ns_parse(&ns, msg, 24), 24);
    assert_int_equal(ns.options_len, 0);
    msg[1] = 1;
    assert_int_equal(tern_ndp_ns_parse(&ns, msg, sizeof(msg)), -EBADMSG);
    msg[1] = 0;
    msg[0] = TERN_ICMPV6_NEIGHBOR_ADVERT;
    assert_int_equal(tern_ndp_ns_parse(&ns, msg, sizeof(msg)), -EBADMSG);
}

static void test_tern_ndp_ns_parse__zero_length_option(void **state)
{
    (void)state;
    uint8_t msg[sizeof(dad_ns)];
    memcpy(msg, dad_ns, sizeof(msg));
    msg[25] = 0;
    tern_ndp_ns_repr_t ns;
    assert_int_equal(tern_ndp_ns_parse(&ns, msg, sizeof(msg)), -EBADMSG);
}

static void test_tern_ndp_ns_parse__option_past_end(void **state)
{
    (void)state;
    tern_ndp_ns_repr_t ns;
    /* The last octet of the nonce option missing. */
    assert_int_equal(tern_ndp_ns_parse(&ns, dad_ns, sizeof(dad_ns) - 1), -EBADMSG);
    /* Only the type octet of an option. */
    assert_int_equal(tern_ndp_ns_parse(&ns, dad_ns, 25), -EBADMSG);
}

static void test_tern_ndp_ra_parse__radvd(void **state)
{
    (void)state;
    assert_checksum_ok(radvd_ra, sizeof(radvd_ra), MAC_ROUTER, "ff02::1");
    tern_ndp_ra_repr_t ra;
    assert_int_equal(tern_ndp_ra_parse(&ra, radvd_ra, sizeof(radvd_ra)), TERN_NDP_RA_LEN);
    assert_int_equal(ra.cur_hop_limit, 64);
    assert_int_equal(ra.flags, 0);
    assert_int_equal(tern_ndp_ra_preference(ra.flags), 0);
    assert_int_equal(ra.router_lifetime, 1800);
    assert_int_equal(ra.reachable_time, 0);
    assert_int_equal(ra.retrans_timer, 0);
    assert_int_equal(ra.options_len, 48);

    /* Every option through its parser. */
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t opt;
    tern_ndp_opt_prefix_info_t pio;
    tern_ndp_opt_lladdr_t ll;
    uint32_t mtu = 0;
    int seen = 0;
    tern_ndp_opt_iter_init(&it, ra.options, ra.options_len);
    while (tern_ndp_opt_next(&it, &opt) == 1) {
        switch (opt.type) {
        case TERN_NDP_OPT_PREFIX_INFO:
            assert_int_equal(tern_ndp_opt_prefix_info_parse(&pio, &opt), 0);
            seen |= 1;
            break;
        case TERN_NDP_OPT_MTU:
            assert_int_equal(tern_ndp_opt_mtu_parse(&mtu, &opt), 0);
            seen |= 2;
            break;
        case TERN_NDP_OPT_SLLA:
            assert_int_equal(tern_ndp_opt_lladdr_parse(&ll, &opt), 0);
            seen |= 4;
            break;
        default:
            fail();
        }
    }
    assert_int_equal(seen, 7);
    assert_int_equal(mtu, 1500);
    assert_int_equal(pio.prefix_len, 64);
    assert_int_equal(ll.addr[5], 0xef);
}

static void test_tern_ndp_ra_emit__radvd_from_option_emitters(void **state)
{
    (void)state;
    uint8_t options[64];
    size_t off = 0;
    tern_ndp_opt_prefix_info_t pio = {
        .prefix_len = 64,
        .flags = TERN_NDP_PIO_FLAG_ONLINK | TERN_NDP_PIO_FLAG_AUTONOMOUS,
        .valid_lifetime = 86400,
        .preferred_lifetime = 14400,
        .prefix = addr("2001:db8:1::"),
    };
    const uint8_t mac[] = { 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef };
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = mac, .addr_len = 6 };
    int rc = tern_ndp_opt_prefix_info_emit(&pio, options + off, sizeof(options) - off);
    assert_int_equal(rc, 32);
    off += (size_t)rc;
    rc = tern_ndp_opt_mtu_emit(1500, options + off, sizeof(options) - off);
    assert_int_equal(rc, 8);
    off += (size_t)rc;
    rc = tern_ndp_opt_lladdr_emit(&ll, options + off, sizeof(options) - off);
    assert_int_equal(rc, 8);
    off += (size_t)rc;

    tern_ndp_ra_repr_t ra = {
        .cur_hop_limit = 64, .flags = 0, .router_lifetime = 1800,
        .options = options, .options_len = off,
    };
    uint8_t buf[80];
    assert_int_equal(tern_ndp_ra_len(&ra), sizeof(radvd_ra));
    assert_int_equal(tern_ndp_ra_emit(&ra, buf, sizeof(radvd_ra) - 1), -ENOBUFS);
    assert_int_equal(tern_ndp_ra_emit(&ra, buf, sizeof(buf)), (int)sizeof(radvd_ra));
    fill_checksum(buf, sizeof(radvd_ra), MAC_ROUTER, "ff02::1");
    assert_memory_equal(buf, radvd_ra, sizeof(radvd_ra));
}

static void test_tern_ndp_ra_parse__rdnss_and_flags(void **state)
{
    (void)state;
    assert_checksum_ok(rdnss_ra, sizeof(rdnss_ra), MAC_ROUTER, "ff02::1");
    tern_ndp_ra_repr_t ra;
    assert_int_equal(tern_ndp_ra_parse(&ra, rdnss_ra, sizeof(rdnss_ra)), 16);
    assert_true(ra.flags & TERN_NDP_RA_FLAG_MANAGED);
    assert_true(ra.flags & TERN_NDP_RA_FLAG_OTHER);
    assert_int_equal(tern_ndp_ra_preference(ra.flags), -1);
    assert_int_equal(ra.router_lifetime, 0);
    assert_int_equal(ra.reachable_time, 30000);
    assert_int_equal(ra.retrans_timer, 1000);
    /* Round trip: emit the repr in a fresh buffer. */
    uint8_t buf[sizeof(rdnss_ra)];
    assert_int_equal(tern_ndp_ra_emit(&ra, buf, sizeof(buf)), (int)sizeof(buf));
    fill_checksum(buf, sizeof(buf), MAC_ROUTER, "ff02::1");
    assert_memory_equal(buf, rdnss_ra, sizeof(rdnss_ra));
}

static void test_tern_ndp_ra_parse__truncated_and_wrong_code(void **state)
{
    (void)state;
    uint8_t msg[sizeof(radvd_ra)];
    memcpy(msg, radvd_ra, sizeof(msg));
    tern_ndp_ra_repr_t ra;
    assert_int_equal(tern_ndp_ra_parse(&ra, msg, 15), -EBADMSG);
    assert_int_equal(tern_ndp_ra_parse(&ra, msg, 16), 16);
    /* Cut inside the prefix option. */
    assert_int_equal(tern_ndp_ra_parse(&ra, msg, 40), -EBADMSG);
    msg[1] = 0xff;
    assert_int_equal(tern_ndp_ra_parse(&ra, msg, sizeof(msg)), -EBADMSG);
}

static void test_tern_ndp_ra_parse__zero_length_option_anywhere(void **state)
{
    (void)state;
    uint8_t msg[sizeof(radvd_ra)];
    memcpy(msg, radvd_ra, sizeof(msg));
    msg[16 + 32 + 8 + 1] = 0; /* the SLLA, last */
    tern_ndp_ra_repr_t ra;
    assert_int_equal(tern_ndp_ra_parse(&ra, msg, sizeof(msg)), -EBADMSG);
}

static void test_tern_ndp_ra_preference__all_values(void **state)
{
    (void)state;
    assert_int_equal(tern_ndp_ra_preference(0x00), 0);
    assert_int_equal(tern_ndp_ra_preference(0x08), 1);
    assert_int_equal(tern_ndp_ra_preference(0x10), 0); /* reserved: as medium */
    assert_int_equal(tern_ndp_ra_preference(0x18), -1);
    assert_int_equal(tern_ndp_ra_preference(0xe7), 0);
}

static void test_tern_ndp_na_parse__solicited(void **state)
{
    (void)state;
    assert_checksum_ok(solicited_na, sizeof(solicited_na), MAC_HOST, MAC_ROUTER);
    tern_ndp_na_repr_t na;
    assert_int_equal(tern_ndp_na_parse(&na, solicited_na, sizeof(solicited_na)), 24);
    assert_int_equal(na.flags, TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE);
    tern_ipv6_addr_t target = addr(MAC_HOST);
    assert_memory_equal(na.target.u8, target.u8, 16);
    tern_ndp_opt_t opt;
    tern_ndp_opt_lladdr_t ll;
    assert_int_equal(tern_ndp_opt_find(na.options, na.options_len, TERN_NDP_OPT_TLLA, &opt), 1);
    assert_int_equal(tern_ndp_opt_lladdr_parse(&ll, &opt), 0);
    assert_int_equal(ll.type, TERN_NDP_OPT_TLLA);
}

static void test_tern_ndp_na_parse__reserved_bits_ignored(void **state)
{
    (void)state;
    uint8_t msg[24];
    memcpy(msg, solicited_na, 24);
    msg[4] = 0x9f;
    msg[7] = 0xff;
    tern_ndp_na_repr_t na;
    assert_int_equal(tern_ndp_na_parse(&na, msg, sizeof(msg)), 24);
    assert_int_equal(na.flags, TERN_NDP_NA_FLAG_ROUTER);
}

static void test_tern_ndp_na_emit__solicited(void **state)
{
    (void)state;
    const uint8_t mac[] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    uint8_t buf[32];
    tern_ndp_na_repr_t na = {
        .flags = TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE,
        .target = addr(MAC_HOST),
    };
    assert_int_equal(tern_ndp_na_emit(&na, buf, sizeof(buf)), 24);
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_TLLA, .addr = mac, .addr_len = 6 };
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf + 24, sizeof(buf) - 24), 8);
    fill_checksum(buf, sizeof(buf), MAC_HOST, MAC_ROUTER);
    assert_memory_equal(buf, solicited_na, sizeof(solicited_na));
}

static void test_tern_ndp_na_parse__truncated_and_wrong_code(void **state)
{
    (void)state;
    uint8_t msg[sizeof(solicited_na)];
    memcpy(msg, solicited_na, sizeof(msg));
    tern_ndp_na_repr_t na;
    assert_int_equal(tern_ndp_na_parse(&na, msg, 23), -EBADMSG);
    msg[1] = 2;
    assert_int_equal(tern_ndp_na_parse(&na, msg, sizeof(msg)), -EBADMSG);
}

static void test_tern_ndp_rs_parse__with_slla(void **state)
{
    (void)state;
    assert_checksum_ok(rs_slla, sizeof(rs_slla), MAC_HOST, "ff02::2");
    tern_ndp_rs_repr_t rs;
    assert_int_equal(tern_ndp_rs_parse(&rs, rs_slla, sizeof(rs_slla)), 8);
    assert_int_equal(rs.options_len, 8);
    assert_int_equal(tern_ndp_rs_parse(&rs, rs_slla, 7), -EBADMSG);
    uint8_t msg[sizeof(rs_slla)];
    memcpy(msg, rs_slla, sizeof(msg));
    msg[1] = 1;
    assert_int_equal(tern_ndp_rs_parse(&rs, msg, sizeof(msg)), -EBADMSG);
}

static void test_tern_ndp_rs_emit__with_slla(void **state)
{
    (void)state;
    uint8_t buf[16];
    const uint8_t mac[] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    tern_ndp_rs_repr_t rs = { .options = NULL, .options_len = 0 };
    assert_int_equal(tern_ndp_rs_emit(&rs, buf, 7), -ENOBUFS);
    assert_int_equal(tern_ndp_rs_emit(&rs, buf, sizeof(buf)), 8);
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = mac, .addr_len = 6 };
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf + 8, 8), 8);
    fill_checksum(buf, sizeof(buf), MAC_HOST, "ff02::2");
    assert_memory_equal(buf, rs_slla, sizeof(rs_slla));
    rs.options_len = 8;
    assert_int_equal(tern_ndp_rs_emit(&rs, buf, sizeof(buf)), -EINVAL);
}

/* Options built where they go (buf + fixed part) and emitted in place. */
static void test_tern_ndp_rs_emit__options_in_place(void **state)
{
    (void)state;
    uint8_t buf[16];
    memset(buf, 0xa5, 8);
    const uint8_t mac[] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = mac, .addr_len = 6 };
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf + 8, 8), 8);
    tern_ndp_rs_repr_t rs = { .options = buf + 8, .options_len = 8 };
    assert_int_equal(tern_ndp_rs_emit(&rs, buf, sizeof(buf)), 16);
    fill_checksum(buf, sizeof(buf), MAC_HOST, "ff02::2");
    assert_memory_equal(buf, rs_slla, sizeof(rs_slla));
}

static void test_tern_ndp_redirect_parse__golden(void **state)
{
    (void)state;
    assert_checksum_ok(redirect, sizeof(redirect), "fe80::1", MAC_HOST);
    tern_ndp_redirect_repr_t rd;
    assert_int_equal(tern_ndp_redirect_parse(&rd, redirect, sizeof(redirect)), 40);
    tern_ipv6_addr_t target = addr("fe80::2");
    tern_ipv6_addr_t dest = addr("2001:db8:2::1");
    assert_memory_equal(rd.target.u8, target.u8, 16);
    assert_memory_equal(rd.destination.u8, dest.u8, 16);
    assert_int_equal(tern_ndp_options_check(rd.options, rd.options_len), 2);
    assert_int_equal(tern_ndp_redirect_parse(&rd, redirect, 39), -EBADMSG);
}

static void test_tern_ndp_redirect_emit__golden(void **state)
{
    (void)state;
    uint8_t buf[sizeof(redirect)];
    const uint8_t mac[] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x02 };
    tern_ndp_redirect_repr_t rd = { .target = addr("fe80::2"), .destination = addr("2001:db8:2::1") };
    assert_int_equal(tern_ndp_redirect_len(&rd), 40);
    assert_int_equal(tern_ndp_redirect_emit(&rd, buf, sizeof(buf)), 40);
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_TLLA, .addr = mac, .addr_len = 6 };
    assert_int_equal(tern_ndp_opt_lladdr_emit(&ll, buf + 40, sizeof(buf) - 40), 8);
    tern_ndp_opt_redirected_hdr_t rh = { .packet = redirect + 56, .packet_len = 40 };
    assert_int_equal(tern_ndp_opt_redirected_hdr_emit(&rh, buf + 48, sizeof(buf) - 48), 48);
    fill_checksum(buf, sizeof(buf), "fe80::1", MAC_HOST);
    assert_memory_equal(buf, redirect, sizeof(redirect));
}

static void test_tern_ndp_check_ip__dad_probe(void **state)
{
    (void)state;
    tern_ipv6_addr_t unspec = addr("::");
    tern_ipv6_addr_t sol = addr(SOLICITED);
    tern_ipv6_addr_t all = addr("ff02::1");
    assert_int_equal(tern_ndp_check_ip(dad_ns, sizeof(dad_ns), &unspec, &sol, 255), 0);
    assert_int_equal(tern_ndp_check_ip(dad_ns, sizeof(dad_ns), &unspec, &sol, 254), -EBADMSG);
    /* A DAD probe must go to a solicited-node address (§7.1.1). */
    assert_int_equal(tern_ndp_check_ip(dad_ns, sizeof(dad_ns), &unspec, &all, 255), -EBADMSG);
    /* ... and carry no SLLA. */
    uint8_t msg[sizeof(dad_ns)];
    memcpy(msg, dad_ns, sizeof(msg));
    msg[24] = TERN_NDP_OPT_SLLA;
    assert_int_equal(tern_ndp_check_ip(msg, sizeof(msg), &unspec, &sol, 255), -EBADMSG);
    /* A multicast target is invalid. */
    memcpy(msg, dad_ns, sizeof(msg));
    msg[8] = 0xff;
    assert_int_equal(tern_ndp_check_ip(msg, sizeof(msg), &unspec, &sol, 255), -EBADMSG);
}

static void test_tern_ndp_check_ip__ra_rs_na_redirect(void **state)
{
    (void)state;
    tern_ipv6_addr_t router = addr(MAC_ROUTER);
    tern_ipv6_addr_t host = addr(MAC_HOST);
    tern_ipv6_addr_t global = addr("2001:db8::1");
    tern_ipv6_addr_t all = addr("ff02::1");
    tern_ipv6_addr_t all_routers = addr("ff02::2");
    tern_ipv6_addr_t unspec = addr("::");
    assert_int_equal(tern_ndp_check_ip(radvd_ra, sizeof(radvd_ra), &router, &all, 255), 0);
    assert_int_equal(tern_ndp_check_ip(radvd_ra, sizeof(radvd_ra), &global, &all, 255), -EBADMSG);
    assert_int_equal(tern_ndp_check_ip(rs_slla, sizeof(rs_slla), &host, &all_routers, 255), 0);
    assert_int_equal(tern_ndp_check_ip(rs_slla, sizeof(rs_slla), &unspec, &all_routers, 255),
                     -EBADMSG);
    assert_int_equal(tern_ndp_check_ip(rs_slla, 8, &unspec, &all_routers, 255), 0);
    assert_int_equal(tern_ndp_check_ip(solicited_na, sizeof(solicited_na), &host, &router, 255), 0);
    /* Solicited flag to a multicast destination (§7.1.2). */
    assert_int_equal(tern_ndp_check_ip(solicited_na, sizeof(solicited_na), &host, &all, 255),
                     -EBADMSG);
    tern_ipv6_addr_t gw = addr("fe80::1");
    assert_int_equal(tern_ndp_check_ip(redirect, sizeof(redirect), &gw, &host, 255), 0);
    assert_int_equal(tern_ndp_check_ip(redirect, sizeof(redirect), &global, &host, 255), -EBADMSG);
    uint8_t msg[sizeof(redirect)];
    memcpy(msg, redirect, sizeof(msg));
    msg[8] = 0x20; /* target 2001::2: neither link-local nor the destination */
    msg[9] = 0x01;
    assert_int_equal(tern_ndp_check_ip(msg, sizeof(msg), &gw, &host, 255), -EBADMSG);
    memcpy(msg + 8, msg + 24, 16); /* target == destination: on-link */
    assert_int_equal(tern_ndp_check_ip(msg, sizeof(msg), &gw, &host, 255), 0);
    msg[24] = 0xff; /* multicast destination */
    assert_int_equal(tern_ndp_check_ip(msg, sizeof(msg), &gw, &host, 255), -EBADMSG);
    /* Not ND at all, or malformed. */
    const uint8_t echo[8] = { 0x80 };
    assert_int_equal(tern_ndp_check_ip(echo, sizeof(echo), &host, &router, 255), -EBADMSG);
    assert_int_equal(tern_ndp_check_ip(radvd_ra, 15, &router, &all, 255), -EBADMSG);
    assert_int_equal(tern_ndp_check_ip(radvd_ra, 3, &router, &all, 255), -EBADMSG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_ndp_opt_next__radvd_options),
        cmocka_unit_test(test_tern_ndp_opt_next__zero_length),
        cmocka_unit_test(test_tern_ndp_opt_next__past_end),
        cmocka_unit_test(test_tern_ndp_opt_next__one_trailing_octet),
        cmocka_unit_test(test_tern_ndp_options_check__empty),
        cmocka_unit_test(test_tern_ndp_opt_find__present_absent_malformed),
        cmocka_unit_test(test_tern_ndp_opt_lladdr_parse__ethernet),
        cmocka_unit_test(test_tern_ndp_opt_lladdr_emit__ieee802154_padding),
        cmocka_unit_test(test_tern_ndp_opt_lladdr_emit__errors),
        cmocka_unit_test(test_tern_ndp_opt_prefix_info_parse__radvd),
        cmocka_unit_test(test_tern_ndp_opt_prefix_info_parse__wrong_length),
        cmocka_unit_test(test_tern_ndp_opt_prefix_info_parse__prefix_len_above_128),
        cmocka_unit_test(test_tern_ndp_opt_prefix_info_emit__errors),
        cmocka_unit_test(test_tern_ndp_opt_mtu_parse__wrong_length),
        cmocka_unit_test(test_tern_ndp_opt_rdnss_parse__two_servers),
        cmocka_unit_test(test_tern_ndp_opt_rdnss_parse__bad_length),
        cmocka_unit_test(test_tern_ndp_opt_rdnss_emit__golden_and_errors),
        cmocka_unit_test(test_tern_ndp_opt_route_info_parse__golden),
        cmocka_unit_test(test_tern_ndp_opt_route_info_parse__lengths_preference_and_reserved_bits),
        cmocka_unit_test(test_tern_ndp_opt_route_info_emit__golden_and_errors),
        cmocka_unit_test(test_tern_ndp_opt_redirected_hdr_parse__golden),
        cmocka_unit_test(test_tern_ndp_opt_redirected_hdr_emit__truncates_and_pads),
        cmocka_unit_test(test_tern_ndp_opt_redirected_hdr_emit__empty_option_from_fuzz_rs),
        cmocka_unit_test(test_tern_ndp_ns_parse__linux_dad_probe),
        cmocka_unit_test(test_tern_ndp_ns_emit__linux_dad_probe),
        cmocka_unit_test(test_tern_ndp_ns_parse__truncated_wrong_code_wrong_type),
        cmocka_unit_test(test_tern_ndp_ns_parse__zero_length_option),
        cmocka_unit_test(test_tern_ndp_ns_parse__option_past_end),
        cmocka_unit_test(test_tern_ndp_ra_parse__radvd),
        cmocka_unit_test(test_tern_ndp_ra_emit__radvd_from_option_emitters),
        cmocka_unit_test(test_tern_ndp_ra_parse__rdnss_and_flags),
        cmocka_unit_test(test_tern_ndp_ra_parse__truncated_and_wrong_code),
        cmocka_unit_test(test_tern_ndp_ra_parse__zero_length_option_anywhere),
        cmocka_unit_test(test_tern_ndp_ra_preference__all_values),
        cmocka_unit_test(test_tern_ndp_na_parse__solicited),
        cmocka_unit_test(test_tern_ndp_na_parse__reserved_bits_ignored),
        cmocka_unit_test(test_tern_ndp_na_emit__solicited),
        cmocka_unit_test(test_tern_ndp_na_parse__truncated_and_wrong_code),
        cmocka_unit_test(test_tern_ndp_rs_parse__with_slla),
        cmocka_unit_test(test_tern_ndp_rs_emit__with_slla),
        cmocka_unit_test(test_tern_ndp_rs_emit__options_in_place),
        cmocka_unit_test(test_tern_ndp_redirect_parse__golden),
        cmocka_unit_test(test_tern_ndp_redirect_emit__golden),
        cmocka_unit_test(test_tern_ndp_check_ip__dad_probe),
        cmocka_unit_test(test_tern_ndp_check_ip__ra_rs_na_redirect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
