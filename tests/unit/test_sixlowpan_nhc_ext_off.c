/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IPHC compressor without LOWPAN_NHC for extension headers and
 *        IPv6-in-IPv6 (TERN_CONF_SIXLOWPAN_NHC_EXT 0), as the 6LoWPAN host
 *        footprint image has it: src/wire/sixlowpan_iphc.c and
 *        sixlowpan_nhc.c built again with the switch into this test
 *        (tests/unit/CMakeLists.txt). UDP right after the IPv6 header is
 *        still compressed (RFC 6282 §4.3); anything else goes with the Next
 *        Header in line (NH=0, §3.1.1) and uncompressed after the IPHC
 *        header; the decompressor still takes the NHC encodings (§4.2).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/wire/ipv6.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/sixlowpan_iphc.h"

_Static_assert(!TERN_CONF_SIXLOWPAN_NHC_EXT, "built without NHC for extension headers (tests/unit/CMakeLists.txt)");

typedef struct {
    uint8_t b[256];
    size_t len;
} pkt_t;

static void put(pkt_t *p, const void *data, size_t n)
{
    assert_true(p->len + n <= sizeof(p->b));
    memcpy(&p->b[p->len], data, n);
    p->len += n;
}

/* An IPv6 header, traffic class and flow label 0, Payload Length @p plen. */
static void ip6(pkt_t *p, uint8_t nh, uint8_t hlim, const char *src, const char *dst, uint16_t plen)
{
    uint8_t h[40] = { 0x60, 0, 0, 0, (uint8_t)(plen >> 8), (uint8_t)plen, nh, hlim };
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, src, strlen(src)), 0);
    memcpy(&h[8], a.u8, 16);
    assert_int_equal(tern_ipv6_addr_from_str(&a, dst, strlen(dst)), 0);
    memcpy(&h[24], a.u8, 16);
    put(p, h, sizeof(h));
}

/* A UDP header of Length @p ulen. */
static void udp(pkt_t *p, uint16_t ulen, uint16_t checksum)
{
    const uint8_t h[8] = { 0xf0, 0xb1, 0xf0, 0xb2, (uint8_t)(ulen >> 8), (uint8_t)ulen,
                           (uint8_t)(checksum >> 8), (uint8_t)checksum };
    put(p, h, sizeof(h));
}

static const uint8_t eui_a[8] = { 0x00, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t eui_b[8] = { 0x00, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x02 };

static tern_iphc_link_t link_eui(void)
{
    tern_iphc_link_t link;
    memset(&link, 0, sizeof(link));
    link.src.len = 8;
    link.dst.len = 8;
    memcpy(link.src.u8, eui_a, 8);
    memcpy(link.dst.u8, eui_b, 8);
    return link;
}

/* compress(p) gives @p expected, having consumed @p consumed bytes (sized the
 * same); decompress(expected + the rest of p) gives p back. */
static void check(const pkt_t *p, const uint8_t *expected, size_t expected_len, size_t consumed)
{
    tern_iphc_link_t link = link_eui();
    uint8_t frame[512];
    size_t used = 0;
    assert_int_equal(tern_iphc_compressed_len(&link, p->b, p->len, &used), (int)expected_len);
    assert_int_equal(used, consumed);
    used = 0;
    assert_int_equal(tern_iphc_compress(&link, p->b, p->len, frame, sizeof(frame), &used), (int)expected_len);
    assert_int_equal(used, consumed);
    assert_memory_equal(frame, expected, expected_len);
    memcpy(&frame[expected_len], &p->b[consumed], p->len - consumed);
    size_t frame_len = expected_len + p->len - consumed;
    uint8_t out[TERN_IPHC_DECOMPRESSED_MAX + 512];
    size_t in_used = 0;
    int n = tern_iphc_decompress(&link, frame, frame_len, 0, out, sizeof(out), &in_used);
    assert_int_equal(n, (int)consumed);
    assert_int_equal(in_used, expected_len);
    memcpy(&out[n], &frame[in_used], frame_len - in_used);
    assert_memory_equal(out, p->b, p->len);
}

/* UDP right after the IPv6 header: NHC UDP as with the switch on (the same
 * bytes as test_wire_sixlowpan_iphc's benchmark case). */
static void test_nhc_ext_off__udp_still_compressed(void **state)
{
    (void)state;
    pkt_t p = { 0 };
    ip6(&p, TERN_IPV6_NH_UDP, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2", 12);
    udp(&p, 12, 0x1234);
    put(&p, "abcd", 4);
    static const uint8_t expected[] = { 0x7e, 0x33, 0xf3, 0x12, 0x12, 0x34 };
    check(&p, expected, sizeof(expected), 48);
}

/* Hop-by-Hop + UDP: NH=0 with Next Header 0 in line; the Hop-by-Hop header
 * and the UDP header follow uncompressed (with the switch on: EID 0, then
 * NHC UDP, test_wire_sixlowpan_iphc's hop_by_hop_then_udp). */
static void test_nhc_ext_off__hop_by_hop_goes_in_line(void **state)
{
    (void)state;
    pkt_t p = { 0 };
    ip6(&p, TERN_IPV6_NH_HOP_BY_HOP, 1, "fe80::212:4b00:0:1", "ff02::16", 16);
    static const uint8_t hbh[8] = { 0x11, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00 };
    put(&p, hbh, sizeof(hbh));
    udp(&p, 8, 0xaaaa);
    static const uint8_t expected[] = {
        0x79, /* 011 TF=11 NH=0 HLIM=01 */
        0x3b, /* SAM=11, M=1 DAM=11 */
        0x00, /* Next Header in line: Hop-by-Hop */
        0x16, /* ff02::16 */
    };
    check(&p, expected, sizeof(expected), 40);
}

/* IPv6-in-IPv6: the outer header with Next Header 41 in line, the inner
 * packet as it is (with the switch on: EID 7 and the inner header as IPHC). */
static void test_nhc_ext_off__ipv6_in_ipv6_goes_in_line(void **state)
{
    (void)state;
    pkt_t p = { 0 };
    ip6(&p, 41, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2", 50);
    ip6(&p, TERN_IPV6_NH_UDP, 63, "2001:db8::212:4b00:0:1", "2001:db8::2", 10);
    udp(&p, 10, 0x7777);
    put(&p, "hi", 2);
    static const uint8_t expected[] = {
        0x7a,       /* 011 TF=11 NH=0 HLIM=10 */
        0x33,       /* SAM=11 DAM=11 */
        41,         /* Next Header in line: IPv6 */
    };
    check(&p, expected, sizeof(expected), 40);
}

/* What other nodes send is decoded as before: a Hop-by-Hop header as NHC
 * (EID 0, NH=1) then NHC UDP, the bytes of the hop_by_hop_then_udp vector. */
static void test_nhc_ext_off__nhc_extension_headers_still_decompressed(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    static const uint8_t frame[] = { 0x7d, 0x3b, 0x16, 0xe1, 0x04, 0x05, 0x02, 0x00, 0x00, 0xf3, 0x12, 0xaa, 0xaa };
    pkt_t p = { 0 };
    ip6(&p, TERN_IPV6_NH_HOP_BY_HOP, 1, "fe80::212:4b00:0:1", "ff02::16", 16);
    static const uint8_t hbh[8] = { 0x11, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00 };
    put(&p, hbh, sizeof(hbh));
    udp(&p, 8, 0xaaaa);
    uint8_t out[TERN_IPHC_DECOMPRESSED_MAX];
    size_t used = 0;
    assert_int_equal(tern_iphc_decompress(&link, frame, sizeof(frame), 0, out, sizeof(out), &used), 56);
    assert_int_equal(used, sizeof(frame));
    assert_memory_equal(out, p.b, p.len);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nhc_ext_off__udp_still_compressed),
        cmocka_unit_test(test_nhc_ext_off__hop_by_hop_goes_in_line),
        cmocka_unit_test(test_nhc_ext_off__ipv6_in_ipv6_goes_in_line),
        cmocka_unit_test(test_nhc_ext_off__nhc_extension_headers_still_decompressed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
