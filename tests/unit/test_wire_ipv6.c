/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IPv6 fixed header and extension headers: golden bytes, parse, emit,
 *        round trip, chain walk, options, every error path.
 *
 * Golden packets were built with scapy 2.8 and checked field by field against
 * RFC 8200 §3, §4.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tern/wire/checksum.h"
#include "tern/wire/ipv6.h"

/* IPv6/UDP fe80::1 -> fe80::2, flow label 0x12345, hop limit 64, 17 bytes of UDP. */
static const uint8_t udp_packet[] = {
    0x60, 0x01, 0x23, 0x45, 0x00, 0x11, 0x11, 0x40,
    0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
    0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02,
    0xc0, 0x00, 0x16, 0x33, 0x00, 0x11, 0x4c, 0x76,
    0x40, 0x01, 0x12, 0x34, 0xb4, 't', 'e', 's', 't',
};

/* fe80::1 -> ff02::16: Hop-by-Hop (Router Alert, PadN) -> Destination
 * Options (PadN 4) -> Fragment (offset 0, M, id 0xdeadbeef) -> UDP 1 -> 2 "x". */
static const uint8_t chain_packet[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x21, 0x00, 0x40,
    0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
    0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x16,
    /* Hop-by-Hop @0 */ 0x3c, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00,
    /* Dest Opts @8 */ 0x2c, 0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00,
    /* Fragment @16 */ 0x11, 0x00, 0x00, 0x01, 0xde, 0xad, 0xbe, 0xef,
    /* UDP @24 */ 0x00, 0x01, 0x00, 0x02, 0x00, 0x09, 0x8a, 0x3e, 'x',
};

/* Type 2 Routing header (RFC 6275 §6.4): next ICMPv6, home address 2001:db8::99. */
static const uint8_t routing_type2[] = {
    0x3a, 0x02, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x99,
};

/* --- fixed header --------------------------------------------------------- */

static void test_tern_ipv6_parse__golden(void **state)
{
    (void)state;
    tern_ipv6_repr_t ip;
    assert_int_equal(tern_ipv6_parse(&ip, udp_packet, sizeof(udp_packet)), TERN_IPV6_HDR_LEN);
    assert_int_equal(ip.traffic_class, 0);
    assert_int_equal(ip.flow_label, 0x12345);
    assert_int_equal(ip.payload_len, 17);
    assert_int_equal(ip.next_header, TERN_IPV6_NH_UDP);
    assert_int_equal(ip.hop_limit, 64);
    assert_memory_equal(ip.src.u8, &udp_packet[8], 16);
    assert_memory_equal(ip.dst.u8, &udp_packet[24], 16);
    assert_int_equal(tern_ipv6_check_len(&ip, sizeof(udp_packet)), 17);
}

static void test_tern_ipv6_addrs_get__golden_as_parse(void **state)
{
    (void)state;
    tern_ipv6_repr_t ip;
    assert_int_equal(tern_ipv6_parse(&ip, chain_packet, sizeof(chain_packet)), TERN_IPV6_HDR_LEN);
    tern_ipv6_addr_t src;
    tern_ipv6_addr_t dst;
    memset(&src, 0xaa, sizeof(src));
    memset(&dst, 0xaa, sizeof(dst));
    tern_ipv6_addrs_get(chain_packet, &src, &dst);
    assert_true(tern_ipv6_addr_equal(&src, &ip.src));
    assert_true(tern_ipv6_addr_equal(&dst, &ip.dst));
    assert_int_equal(dst.u8[0], 0xff); /* ff02::16 */
    assert_int_equal(dst.u8[15], 0x16);
}

static void test_tern_ipv6_parse__traffic_class_and_flow_label_bits(void **state)
{
    (void)state;
    uint8_t buf[40];
    memcpy(buf, udp_packet, 40);
    /* version 6, traffic class 0xb8 (DSCP EF), flow label 0xabcde */
    buf[0] = 0x6b;
    buf[1] = 0x8a;
    buf[2] = 0xbc;
    buf[3] = 0xde;
    tern_ipv6_repr_t ip;
    assert_int_equal(tern_ipv6_parse(&ip, buf, sizeof(buf)), 40);
    assert_int_equal(ip.traffic_class, 0xb8);
    assert_int_equal(ip.flow_label, 0xabcde);
}

static void test_tern_ipv6_parse__too_short(void **state)
{
    (void)state;
    tern_ipv6_repr_t ip;
    for (size_t len = 0; len < TERN_IPV6_HDR_LEN; len++) {
        assert_int_equal(tern_ipv6_parse(&ip, udp_packet, len), -EBADMSG);
    }
}

static void test_tern_ipv6_parse__wrong_version(void **state)
{
    (void)state;
    uint8_t buf[40];
    memcpy(buf, udp_packet, 40);
    tern_ipv6_repr_t ip;
    const uint8_t versions[] = { 0x00, 0x40, 0x50, 0x70, 0xf0 };
    for (size_t i = 0; i < sizeof(versions); i++) {
        buf[0] = versions[i];
        assert_int_equal(tern_ipv6_parse(&ip, buf, sizeof(buf)), -EBADMSG);
    }
}

static void test_tern_ipv6_parse__null(void **state)
{
    (void)state;
    tern_ipv6_repr_t ip;
    assert_int_equal(tern_ipv6_parse(NULL, udp_packet, sizeof(udp_packet)), -EINVAL);
    assert_int_equal(tern_ipv6_parse(&ip, NULL, 40), -EINVAL);
}

static void test_tern_ipv6_check_len__payload_vs_buffer(void **state)
{
    (void)state;
    tern_ipv6_repr_t ip;
    assert_int_equal(tern_ipv6_parse(&ip, udp_packet, sizeof(udp_packet)), 40);
    /* link-layer padding beyond the payload is fine */
    assert_int_equal(tern_ipv6_check_len(&ip, sizeof(udp_packet) + 9), 17);
    /* truncated payload */
    assert_int_equal(tern_ipv6_check_len(&ip, sizeof(udp_packet) - 1), -EBADMSG);
    assert_int_equal(tern_ipv6_check_len(&ip, 39), -EBADMSG);
    assert_int_equal(tern_ipv6_check_len(&ip, 0), -EBADMSG);
    ip.payload_len = 0;
    assert_int_equal(tern_ipv6_check_len(&ip, 40), 0);
    ip.payload_len = 0xffff;
    assert_int_equal(tern_ipv6_check_len(&ip, 40 + 0xfffe), -EBADMSG);
    assert_int_equal(tern_ipv6_check_len(&ip, 40 + 0xffff), 0xffff);
    assert_int_equal(tern_ipv6_check_len(NULL, 40), -EINVAL);
}

static void test_tern_ipv6_emit__golden(void **state)
{
    (void)state;
    tern_ipv6_repr_t ip = {
        .traffic_class = 0,
        .flow_label = 0x12345,
        .payload_len = 17,
        .next_header = TERN_IPV6_NH_UDP,
        .hop_limit = 64,
        .src = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } },
        .dst = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } },
    };
    assert_int_equal(tern_ipv6_len(&ip), 40);
    uint8_t buf[41];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_ipv6_emit(&ip, buf, sizeof(buf)), 40);
    assert_memory_equal(buf, udp_packet, 40);
    assert_int_equal(buf[40], 0xaa);
}

static void test_tern_ipv6_emit__errors(void **state)
{
    (void)state;
    tern_ipv6_repr_t ip = { .flow_label = 0xfffff, .hop_limit = 1 };
    uint8_t buf[40];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_ipv6_emit(&ip, buf, 39), -ENOBUFS);
    assert_int_equal(buf[0], 0xaa);
    ip.flow_label = 0x100000;
    assert_int_equal(tern_ipv6_emit(&ip, buf, 40), -EINVAL);
    assert_int_equal(buf[0], 0xaa);
    assert_int_equal(tern_ipv6_emit(NULL, buf, 40), -EINVAL);
    ip.flow_label = 0;
    assert_int_equal(tern_ipv6_emit(&ip, NULL, 40), -EINVAL);
}

static void test_tern_ipv6_emit__round_trip(void **state)
{
    (void)state;
    tern_ipv6_repr_t in = {
        .traffic_class = 0xff,
        .flow_label = 0xfffff,
        .payload_len = 0xffff,
        .next_header = 0xff,
        .hop_limit = 0xff,
    };
    memset(in.src.u8, 0x11, 16);
    memset(in.dst.u8, 0xee, 16);
    uint8_t buf[40];
    assert_int_equal(tern_ipv6_emit(&in, buf, sizeof(buf)), 40);
    assert_int_equal(buf[0], 0x6f);
    tern_ipv6_repr_t out;
    assert_int_equal(tern_ipv6_parse(&out, buf, sizeof(buf)), 40);
    assert_int_equal(out.traffic_class, in.traffic_class);
    assert_int_equal(out.flow_label, in.flow_label);
    assert_int_equal(out.payload_len, in.payload_len);
    assert_int_equal(out.next_header, in.next_header);
    assert_int_equal(out.hop_limit, in.hop_limit);
    assert_true(tern_ipv6_addr_equal(&out.src, &in.src));
    assert_true(tern_ipv6_addr_equal(&out.dst, &in.dst));
}

/* --- extension headers ---------------------------------------------------- */

static void test_tern_ipv6_is_ext_header__iana_registry(void **state)
{
    (void)state;
    for (unsigned v = 0; v < 256; v++) {
        bool expected = v == 0 || v == 43 || v == 44 || v == 50 || v == 51 || v == 60 ||
                        v == 135 || v == 139 || v == 140 || v == 253 || v == 254;
        assert_int_equal(tern_ipv6_is_ext_header((uint8_t)v), expected);
    }
}

static void test_tern_ipv6_ext_parse__each_format(void **state)
{
    (void)state;
    const uint8_t *ext_bytes = &chain_packet[40];
    tern_ipv6_ext_t ext;
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_HOP_BY_HOP, ext_bytes, 33), 8);
    assert_int_equal(ext.type, TERN_IPV6_NH_HOP_BY_HOP);
    assert_int_equal(ext.next_header, TERN_IPV6_NH_DEST_OPTS);
    assert_int_equal(ext.len, 8);
    assert_int_equal(ext.offset, 0);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_FRAGMENT, ext_bytes + 16, 17), 8);
    assert_int_equal(ext.next_header, TERN_IPV6_NH_UDP);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_ROUTING, routing_type2,
                                         sizeof(routing_type2)),
                     24);
    assert_int_equal(ext.next_header, TERN_IPV6_NH_ICMPV6);
    /* AH: Payload Len 4 -> (4 + 2) * 4 = 24 bytes (RFC 4302 §2.2) */
    uint8_t ah[24] = { 0x11, 0x04 };
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_AH, ah, sizeof(ah)), 24);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_AH, ah, 23), -EBADMSG);
    /* largest generic header: 255 -> 2048 bytes */
    static uint8_t big[2048] = { 0x3b, 0xff };
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_DEST_OPTS, big, sizeof(big)), 2048);
    assert_int_equal(ext.len, 2048);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_DEST_OPTS, big, 2047), -EBADMSG);
}

static void test_tern_ipv6_ext_parse__truncated(void **state)
{
    (void)state;
    tern_ipv6_ext_t ext = { .type = 0xaa };
    const uint8_t hbh[8] = { 0x3a, 0x00, 0x01, 0x04, 0, 0, 0, 0 };
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_HOP_BY_HOP, hbh, 0), -EBADMSG);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_HOP_BY_HOP, hbh, 1), -EBADMSG);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_HOP_BY_HOP, hbh, 7), -EBADMSG);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_FRAGMENT, hbh, 7), -EBADMSG);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_AH, hbh, 1), -EBADMSG);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_ROUTING, routing_type2, 23), -EBADMSG);
    assert_int_equal(ext.type, 0xaa); /* unchanged */
}

static void test_tern_ipv6_ext_parse__not_delimitable(void **state)
{
    (void)state;
    tern_ipv6_ext_t ext;
    const uint8_t bytes[8] = { 0 };
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_ESP, bytes, 8), -EINVAL);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_UDP, bytes, 8), -EINVAL);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_NONE, bytes, 8), -EINVAL);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_ICMPV6, bytes, 8), -EINVAL);
    assert_int_equal(tern_ipv6_ext_parse(NULL, TERN_IPV6_NH_DEST_OPTS, bytes, 8), -EINVAL);
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_DEST_OPTS, NULL, 8), -EINVAL);
}

static void test_tern_ipv6_ext_emit__hop_by_hop_with_router_alert(void **state)
{
    (void)state;
    /* The Hop-by-Hop header an MLD report carries (RFC 3810 §5, RFC 2711). */
    uint8_t buf[8];
    memset(buf, 0xaa, sizeof(buf));
    tern_ipv6_ext_t ext = { .type = TERN_IPV6_NH_HOP_BY_HOP, .next_header = TERN_IPV6_NH_ICMPV6,
                            .len = 8 };
    assert_int_equal(tern_ipv6_ext_emit(&ext, buf, sizeof(buf)), 8);
    const uint8_t router_alert[2] = { 0, 0 };
    assert_int_equal(tern_ipv6_opt_emit(buf + 2, 6, TERN_IPV6_OPT_ROUTER_ALERT, router_alert, 2), 4);
    assert_int_equal(tern_ipv6_opt_emit_padding(buf + 6, 2, 2), 2);
    const uint8_t expected[8] = { 0x3a, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00 };
    assert_memory_equal(buf, expected, 8);
}

static void test_tern_ipv6_ext_emit__errors(void **state)
{
    (void)state;
    uint8_t buf[16];
    memset(buf, 0xaa, sizeof(buf));
    tern_ipv6_ext_t ext = { .type = TERN_IPV6_NH_DEST_OPTS, .next_header = 59, .len = 16 };
    assert_int_equal(tern_ipv6_ext_emit(&ext, buf, 15), -ENOBUFS);
    assert_int_equal(buf[0], 0xaa);
    assert_int_equal(tern_ipv6_ext_emit(&ext, buf, 16), 16);
    assert_int_equal(buf[1], 1);
    ext.len = 12;
    assert_int_equal(tern_ipv6_ext_emit(&ext, buf, 16), -EINVAL);
    ext.len = 0;
    assert_int_equal(tern_ipv6_ext_emit(&ext, buf, 16), -EINVAL);
    ext.len = 2056;
    assert_int_equal(tern_ipv6_ext_emit(&ext, buf, 16), -EINVAL);
    ext.len = 8;
    ext.type = TERN_IPV6_NH_FRAGMENT;
    assert_int_equal(tern_ipv6_ext_emit(&ext, buf, 16), -EINVAL);
    ext.type = TERN_IPV6_NH_AH;
    assert_int_equal(tern_ipv6_ext_emit(&ext, buf, 16), -EINVAL);
    ext.type = TERN_IPV6_NH_UDP;
    assert_int_equal(tern_ipv6_ext_emit(&ext, buf, 16), -EINVAL);
    ext.type = TERN_IPV6_NH_ROUTING;
    assert_int_equal(tern_ipv6_ext_emit(NULL, buf, 16), -EINVAL);
    assert_int_equal(tern_ipv6_ext_emit(&ext, NULL, 16), -EINVAL);
}

/* --- chain walk ----------------------------------------------------------- */

static void test_tern_ipv6_ext_walk_next__golden_chain(void **state)
{
    (void)state;
    tern_ipv6_repr_t ip;
    assert_int_equal(tern_ipv6_parse(&ip, chain_packet, sizeof(chain_packet)), 40);
    assert_int_equal(tern_ipv6_check_len(&ip, sizeof(chain_packet)), 33);
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_walk_init(&walk, chain_packet + 40, ip.payload_len, ip.next_header);
    tern_ipv6_ext_t ext;
    static const struct {
        uint8_t type, next;
        size_t offset;
    } expected[] = {
        { TERN_IPV6_NH_HOP_BY_HOP, TERN_IPV6_NH_DEST_OPTS, 0 },
        { TERN_IPV6_NH_DEST_OPTS, TERN_IPV6_NH_FRAGMENT, 8 },
        { TERN_IPV6_NH_FRAGMENT, TERN_IPV6_NH_UDP, 16 },
    };
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 1);
        assert_int_equal(ext.type, expected[i].type);
        assert_int_equal(ext.next_header, expected[i].next);
        assert_int_equal(ext.offset, expected[i].offset);
        assert_int_equal(ext.len, 8);
    }
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 0);
    assert_int_equal(walk.next_header, TERN_IPV6_NH_UDP);
    assert_int_equal(walk.offset, 24);
    /* stays ended */
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 0);
    assert_int_equal(walk.offset, 24);
}

static void test_tern_ipv6_ext_walk_next__no_ext_headers(void **state)
{
    (void)state;
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    tern_ipv6_ext_walk_init(&walk, udp_packet + 40, 17, TERN_IPV6_NH_UDP);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 0);
    assert_int_equal(walk.next_header, TERN_IPV6_NH_UDP);
    assert_int_equal(walk.offset, 0);
    /* No Next Header with an empty payload */
    tern_ipv6_ext_walk_init(&walk, udp_packet + 40, 0, TERN_IPV6_NH_NONE);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 0);
    assert_int_equal(walk.next_header, TERN_IPV6_NH_NONE);
    /* ESP cannot be stepped over */
    tern_ipv6_ext_walk_init(&walk, udp_packet + 40, 17, TERN_IPV6_NH_ESP);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 0);
    assert_int_equal(walk.next_header, TERN_IPV6_NH_ESP);
}

static void test_tern_ipv6_ext_walk_next__truncated_chain(void **state)
{
    (void)state;
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    /* the Fragment header is cut at 7 of its 8 bytes */
    tern_ipv6_ext_walk_init(&walk, chain_packet + 40, 23, TERN_IPV6_NH_HOP_BY_HOP);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 1);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 1);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), -EBADMSG);
    assert_int_equal(walk.offset, 16);
    assert_int_equal(walk.next_header, TERN_IPV6_NH_FRAGMENT);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), -EBADMSG);
    /* an extension header announced but no byte left */
    tern_ipv6_ext_walk_init(&walk, chain_packet + 40, 0, TERN_IPV6_NH_DEST_OPTS);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), -EBADMSG);
    /* Hdr Ext Len past the end */
    const uint8_t long_hbh[8] = { 0x11, 0x01, 0x01, 0x04, 0, 0, 0, 0 };
    tern_ipv6_ext_walk_init(&walk, long_hbh, sizeof(long_hbh), TERN_IPV6_NH_HOP_BY_HOP);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), -EBADMSG);
}

static void test_tern_ipv6_ext_walk_next__stops_after_non_first_fragment(void **state)
{
    (void)state;
    /* Fragment offset 185 (1480 bytes), M = 1, next header Dest Opts: what
     * follows is fragment data, not a header (RFC 8200 §4.5). */
    const uint8_t frag[16] = { 0x3c, 0x00, 0x05, 0xc9, 0x00, 0x00, 0x00, 0x2a,
                               0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    tern_ipv6_ext_walk_init(&walk, frag, sizeof(frag), TERN_IPV6_NH_FRAGMENT);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 1);
    assert_int_equal(ext.type, TERN_IPV6_NH_FRAGMENT);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 0);
    assert_int_equal(walk.next_header, TERN_IPV6_NH_DEST_OPTS);
    assert_int_equal(walk.offset, 8);
}

static void test_tern_ipv6_ext_walk_next__hop_by_hop_not_first_is_reported(void **state)
{
    (void)state;
    /* Dest Opts -> Hop-by-Hop: the walk reports it; the caller rejects it (RFC 8200 §4.1). */
    const uint8_t bytes[16] = { 0x00, 0x00, 0x01, 0x04, 0, 0, 0, 0,
                                0x3b, 0x00, 0x01, 0x04, 0, 0, 0, 0 };
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    tern_ipv6_ext_walk_init(&walk, bytes, sizeof(bytes), TERN_IPV6_NH_DEST_OPTS);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 1);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 1);
    assert_int_equal(ext.type, TERN_IPV6_NH_HOP_BY_HOP);
    assert_int_equal(ext.offset, 8);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), 0);
    assert_int_equal(walk.next_header, TERN_IPV6_NH_NONE);
    assert_int_equal(walk.offset, 16);
}

static void test_tern_ipv6_ext_walk_next__null(void **state)
{
    (void)state;
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    tern_ipv6_ext_walk_init(&walk, chain_packet + 40, 33, 0);
    assert_int_equal(tern_ipv6_ext_walk_next(NULL, &ext), -EINVAL);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, NULL), -EINVAL);
    /* a NULL buffer is an empty one */
    tern_ipv6_ext_walk_init(&walk, NULL, 33, TERN_IPV6_NH_HOP_BY_HOP);
    assert_int_equal(tern_ipv6_ext_walk_next(&walk, &ext), -EBADMSG);
}

/* --- options -------------------------------------------------------------- */

static void test_tern_ipv6_opt_next__golden_hop_by_hop(void **state)
{
    (void)state;
    tern_ipv6_opt_iter_t it;
    tern_ipv6_opt_t opt;
    tern_ipv6_opt_iter_init(&it, chain_packet + 40, 8);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 1);
    assert_int_equal(opt.type, TERN_IPV6_OPT_ROUTER_ALERT);
    assert_int_equal(opt.data_len, 2);
    assert_ptr_equal(opt.data, chain_packet + 44);
    assert_int_equal(opt.offset, 2);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0); /* PadN skipped */
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0);
    /* Destination Options with only PadN */
    tern_ipv6_opt_iter_init(&it, chain_packet + 48, 8);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0);
}

static void test_tern_ipv6_opt_next__pad1_and_unknown_options(void **state)
{
    (void)state;
    const uint8_t hdr[24] = {
        0x3b, 0x02,
        0x00,                   /* Pad1 @2 */
        0x3e, 0x00,             /* skip-type unknown, empty @3 */
        0x00, 0x00,             /* Pad1 Pad1 */
        0x7e, 0x01, 0xaa,       /* 01 @7 */
        0xbe, 0x02, 0xbb, 0xcc, /* 10 @10 */
        0xfe, 0x03, 1, 2, 3,    /* 11 @14 */
        0x01, 0x01, 0x00,       /* PadN 1 */
        0x00, 0x00,             /* Pad1 Pad1 */
    };
    const struct {
        uint8_t type, data_len;
        size_t offset;
        tern_ipv6_opt_action_t action;
    } expected[] = {
        { 0x3e, 0, 3, TERN_IPV6_OPT_ACTION_SKIP },
        { 0x7e, 1, 7, TERN_IPV6_OPT_ACTION_DISCARD },
        { 0xbe, 2, 10, TERN_IPV6_OPT_ACTION_DISCARD_ICMP },
        { 0xfe, 3, 14, TERN_IPV6_OPT_ACTION_DISCARD_ICMP_UNICAST },
    };
    tern_ipv6_opt_iter_t it;
    tern_ipv6_opt_t opt;
    tern_ipv6_opt_iter_init(&it, hdr, sizeof(hdr));
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(tern_ipv6_opt_next(&it, &opt), 1);
        assert_int_equal(opt.type, expected[i].type);
        assert_int_equal(opt.data_len, expected[i].data_len);
        assert_int_equal(opt.offset, expected[i].offset);
        assert_ptr_equal(opt.data, hdr + expected[i].offset + 2);
        assert_int_equal(tern_ipv6_opt_action(opt.type), expected[i].action);
        assert_true(tern_ipv6_opt_may_change(opt.type));
    }
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0);
    assert_false(tern_ipv6_opt_may_change(TERN_IPV6_OPT_ROUTER_ALERT));
    assert_int_equal(tern_ipv6_opt_action(TERN_IPV6_OPT_ROUTER_ALERT), TERN_IPV6_OPT_ACTION_SKIP);
}

static void test_tern_ipv6_opt_next__option_past_end(void **state)
{
    (void)state;
    tern_ipv6_opt_iter_t it;
    tern_ipv6_opt_t opt;
    /* data length 5 with 4 bytes left */
    const uint8_t over[8] = { 0x3a, 0x00, 0x05, 0x05, 0, 0, 0, 0 };
    tern_ipv6_opt_iter_init(&it, over, sizeof(over));
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), -EBADMSG);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), -EBADMSG);
    /* exactly fitting is fine */
    const uint8_t fit[8] = { 0x3a, 0x00, 0x05, 0x04, 0, 0, 0, 0 };
    tern_ipv6_opt_iter_init(&it, fit, sizeof(fit));
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 1);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0);
    /* a type byte in the last position has no length byte */
    const uint8_t no_len[8] = { 0x3a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05 };
    tern_ipv6_opt_iter_init(&it, no_len, sizeof(no_len));
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), -EBADMSG);
    /* padding that overruns is just as malformed */
    const uint8_t padn_over[8] = { 0x3a, 0x00, 0x01, 0x05, 0, 0, 0, 0 };
    tern_ipv6_opt_iter_init(&it, padn_over, sizeof(padn_over));
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), -EBADMSG);
    const uint8_t padn_no_len[8] = { 0x3a, 0x00, 0x01, 0x03, 0, 0, 0, 0x01 };
    tern_ipv6_opt_iter_init(&it, padn_no_len, 7);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0);
    tern_ipv6_opt_iter_init(&it, padn_no_len, 8);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), -EBADMSG);
}

static void test_tern_ipv6_opt_next__empty_or_null(void **state)
{
    (void)state;
    tern_ipv6_opt_iter_t it;
    tern_ipv6_opt_t opt;
    const uint8_t two[2] = { 0x3b, 0x00 };
    tern_ipv6_opt_iter_init(&it, two, 0);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0);
    tern_ipv6_opt_iter_init(&it, two, 2);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0);
    tern_ipv6_opt_iter_init(&it, NULL, 8);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0);
    assert_int_equal(tern_ipv6_opt_next(NULL, &opt), -EINVAL);
    assert_int_equal(tern_ipv6_opt_next(&it, NULL), -EINVAL);
}

static void test_tern_ipv6_opt_emit__errors(void **state)
{
    (void)state;
    uint8_t buf[8];
    const uint8_t data[4] = { 1, 2, 3, 4 };
    assert_int_equal(tern_ipv6_opt_emit(buf, 5, 0x3e, data, 4), -ENOBUFS);
    assert_int_equal(tern_ipv6_opt_emit(buf, 6, 0x3e, data, 4), 6);
    assert_int_equal(tern_ipv6_opt_emit(buf, 2, 0x3e, NULL, 0), 2);
    assert_int_equal(tern_ipv6_opt_emit(buf, 8, TERN_IPV6_OPT_PAD1, NULL, 0), -EINVAL);
    assert_int_equal(tern_ipv6_opt_emit(buf, 8, 0x3e, NULL, 1), -EINVAL);
    assert_int_equal(tern_ipv6_opt_emit(NULL, 8, 0x3e, data, 1), -EINVAL);
}

static void test_tern_ipv6_opt_emit_padding__sizes(void **state)
{
    (void)state;
    uint8_t buf[260];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_ipv6_opt_emit_padding(buf, sizeof(buf), 0), 0);
    assert_int_equal(buf[0], 0xaa);
    assert_int_equal(tern_ipv6_opt_emit_padding(buf, sizeof(buf), 1), 1);
    assert_int_equal(buf[0], 0x00);
    assert_int_equal(buf[1], 0xaa);
    assert_int_equal(tern_ipv6_opt_emit_padding(buf, sizeof(buf), 6), 6);
    const uint8_t padn4[6] = { 0x01, 0x04, 0, 0, 0, 0 };
    assert_memory_equal(buf, padn4, 6);
    assert_int_equal(buf[6], 0xaa);
    assert_int_equal(tern_ipv6_opt_emit_padding(buf, sizeof(buf), 257), 257);
    assert_int_equal(buf[1], 255);
    assert_int_equal(tern_ipv6_opt_emit_padding(buf, sizeof(buf), 258), -EINVAL);
    assert_int_equal(tern_ipv6_opt_emit_padding(buf, 5, 6), -ENOBUFS);
    assert_int_equal(tern_ipv6_opt_emit_padding(NULL, 8, 6), -EINVAL);
    /* padding the iterator skips entirely */
    uint8_t hdr[16] = { 0x3b, 0x01 };
    assert_int_equal(tern_ipv6_opt_emit_padding(hdr + 2, 14, 14), 14);
    tern_ipv6_opt_iter_t it;
    tern_ipv6_opt_t opt;
    tern_ipv6_opt_iter_init(&it, hdr, sizeof(hdr));
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0);
}

/* --- Fragment header ------------------------------------------------------ */

static void test_tern_ipv6_frag_parse__golden(void **state)
{
    (void)state;
    tern_ipv6_frag_repr_t frag;
    assert_int_equal(tern_ipv6_frag_parse(&frag, chain_packet + 56, 8), 8);
    assert_int_equal(frag.next_header, TERN_IPV6_NH_UDP);
    assert_int_equal(frag.offset, 0);
    assert_true(frag.more);
    assert_int_equal(frag.identification, 0xdeadbeef);
    /* offset 185, M = 0, reserved bits set: ignored (RFC 8200 §4.5) */
    const uint8_t last[8] = { 0x3a, 0xff, 0x05, 0xce, 0x00, 0x00, 0x00, 0x2a };
    assert_int_equal(tern_ipv6_frag_parse(&frag, last, 8), 8);
    assert_int_equal(frag.next_header, TERN_IPV6_NH_ICMPV6);
    assert_int_equal(frag.offset, 185);
    assert_false(frag.more);
    assert_int_equal(frag.identification, 42);
}

static void test_tern_ipv6_frag_parse__too_short(void **state)
{
    (void)state;
    tern_ipv6_frag_repr_t frag;
    for (size_t len = 0; len < 8; len++) {
        assert_int_equal(tern_ipv6_frag_parse(&frag, chain_packet + 56, len), -EBADMSG);
    }
    assert_int_equal(tern_ipv6_frag_parse(NULL, chain_packet + 56, 8), -EINVAL);
    assert_int_equal(tern_ipv6_frag_parse(&frag, NULL, 8), -EINVAL);
}

static void test_tern_ipv6_frag_emit__golden_and_round_trip(void **state)
{
    (void)state;
    tern_ipv6_frag_repr_t in = { .next_header = TERN_IPV6_NH_UDP, .offset = 0, .more = true,
                                 .identification = 0xdeadbeef };
    uint8_t buf[8];
    assert_int_equal(tern_ipv6_frag_emit(&in, buf, sizeof(buf)), 8);
    assert_memory_equal(buf, chain_packet + 56, 8);
    in.offset = TERN_IPV6_FRAG_OFFSET_MAX;
    in.more = false;
    assert_int_equal(tern_ipv6_frag_emit(&in, buf, sizeof(buf)), 8);
    assert_int_equal(buf[2], 0xff);
    assert_int_equal(buf[3], 0xf8);
    tern_ipv6_frag_repr_t out;
    assert_int_equal(tern_ipv6_frag_parse(&out, buf, sizeof(buf)), 8);
    assert_int_equal(out.offset, TERN_IPV6_FRAG_OFFSET_MAX);
    assert_false(out.more);
    assert_int_equal(out.identification, 0xdeadbeef);
}

static void test_tern_ipv6_frag_emit__errors(void **state)
{
    (void)state;
    tern_ipv6_frag_repr_t in = { .offset = 0x2000 };
    uint8_t buf[8];
    assert_int_equal(tern_ipv6_frag_emit(&in, buf, 8), -EINVAL);
    in.offset = 1;
    assert_int_equal(tern_ipv6_frag_emit(&in, buf, 7), -ENOBUFS);
    assert_int_equal(tern_ipv6_frag_emit(NULL, buf, 8), -EINVAL);
    assert_int_equal(tern_ipv6_frag_emit(&in, NULL, 8), -EINVAL);
}

/* --- Routing header ------------------------------------------------------- */

static void test_tern_ipv6_routing_parse__type2(void **state)
{
    (void)state;
    tern_ipv6_routing_repr_t rh;
    assert_int_equal(tern_ipv6_routing_parse(&rh, routing_type2, sizeof(routing_type2)), 24);
    assert_int_equal(rh.next_header, TERN_IPV6_NH_ICMPV6);
    assert_int_equal(rh.hdr_ext_len, 2);
    assert_int_equal(rh.routing_type, 2);
    assert_int_equal(rh.segments_left, 1);
    assert_ptr_equal(rh.data, routing_type2 + 4);
    assert_int_equal(rh.data_len, 20);
    assert_int_equal(tern_ipv6_routing_len(&rh), 24);
}

static void test_tern_ipv6_routing_parse__truncated(void **state)
{
    (void)state;
    tern_ipv6_routing_repr_t rh = { .routing_type = 0xaa };
    for (size_t len = 0; len < sizeof(routing_type2); len++) {
        assert_int_equal(tern_ipv6_routing_parse(&rh, routing_type2, len), -EBADMSG);
    }
    assert_int_equal(rh.routing_type, 0xaa);
    assert_int_equal(tern_ipv6_routing_parse(NULL, routing_type2, 24), -EINVAL);
    assert_int_equal(tern_ipv6_routing_parse(&rh, NULL, 24), -EINVAL);
}

static void test_tern_ipv6_routing_emit__round_trip(void **state)
{
    (void)state;
    tern_ipv6_routing_repr_t rh;
    assert_int_equal(tern_ipv6_routing_parse(&rh, routing_type2, sizeof(routing_type2)), 24);
    rh.hdr_ext_len = 77; /* ignored: derived from data_len */
    uint8_t buf[24];
    assert_int_equal(tern_ipv6_routing_emit(&rh, buf, sizeof(buf)), 24);
    assert_memory_equal(buf, routing_type2, 24);
    /* in place */
    memcpy(buf, routing_type2, 24);
    assert_int_equal(tern_ipv6_routing_parse(&rh, buf, sizeof(buf)), 24);
    assert_int_equal(tern_ipv6_routing_emit(&rh, buf, sizeof(buf)), 24);
    assert_memory_equal(buf, routing_type2, 24);
    /* NULL data: the caller fills it */
    memset(buf, 0xaa, sizeof(buf));
    rh.data = NULL;
    rh.data_len = 4;
    assert_int_equal(tern_ipv6_routing_emit(&rh, buf, sizeof(buf)), 8);
    const uint8_t expected[8] = { 0x3a, 0x00, 0x02, 0x01, 0xaa, 0xaa, 0xaa, 0xaa };
    assert_memory_equal(buf, expected, 8);
}

static void test_tern_ipv6_routing_emit__errors(void **state)
{
    (void)state;
    tern_ipv6_routing_repr_t rh = { .data = NULL, .data_len = 20 };
    uint8_t buf[24];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_ipv6_routing_emit(&rh, buf, 23), -ENOBUFS);
    assert_int_equal(buf[0], 0xaa);
    rh.data_len = 0;
    assert_int_equal(tern_ipv6_routing_emit(&rh, buf, 24), -EINVAL);
    rh.data_len = 8;
    assert_int_equal(tern_ipv6_routing_emit(&rh, buf, 24), -EINVAL);
    rh.data_len = 2052;
    assert_int_equal(tern_ipv6_routing_emit(&rh, buf, 24), -EINVAL);
    rh.data_len = 4;
    assert_int_equal(tern_ipv6_routing_emit(NULL, buf, 24), -EINVAL);
    assert_int_equal(tern_ipv6_routing_emit(&rh, NULL, 24), -EINVAL);
    rh.data_len = 2044;
    static uint8_t big[2048];
    assert_int_equal(tern_ipv6_routing_emit(&rh, big, sizeof(big)), 2048);
    assert_int_equal(big[1], 255);
}

static void test_tern_ipv6_upper_sum__as_from_the_addresses(void **state)
{
    (void)state;
    const tern_ipv6_repr_t ip = {
        .traffic_class = 0xb8, .flow_label = 0x12345, .payload_len = 17, .next_header = TERN_IPV6_NH_UDP,
        .hop_limit = 255,
        .src = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x12, 0x4b, 0, 0, 0, 0, 0x01 } },
        .dst = { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xfe, 0xab, 0xcd } },
    };
    uint8_t hdr[TERN_IPV6_HDR_LEN + 3];
    memset(hdr, 0xee, sizeof(hdr));
    assert_int_equal(tern_ipv6_emit(&ip, hdr, sizeof(hdr)), TERN_IPV6_HDR_LEN);
    static uint8_t upper[0x12345];
    for (size_t i = 0; i < sizeof(upper); i++) {
        upper[i] = (uint8_t)(i * 37u + 11u);
    }
    /* lengths above 16 bits too: the pseudo-header's length field has 32 */
    const uint32_t lengths[] = { 0, 17, 0xffff, 0x12345 };
    for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
        uint32_t sum = 0xdead;
        assert_int_equal(tern_ipv6_upper_sum(hdr, sizeof(hdr), upper, lengths[i], 58, &sum), 0);
        uint32_t expected = tern_checksum_ipv6_pseudo(0, &ip.src, &ip.dst, lengths[i], 58);
        expected = tern_checksum_add(expected, upper, lengths[i]);
        assert_int_equal(tern_checksum_finish(sum), tern_checksum_finish(expected));
    }
}

static void test_tern_ipv6_upper_sum__errors(void **state)
{
    (void)state;
    uint8_t hdr[TERN_IPV6_HDR_LEN] = { 0x60 };
    uint8_t upper[8] = { 0 };
    uint32_t sum = 7;
    assert_int_equal(tern_ipv6_upper_sum(hdr, TERN_IPV6_HDR_LEN - 1, upper, 8, 17, &sum), -EBADMSG);
    assert_int_equal(tern_ipv6_upper_sum(NULL, TERN_IPV6_HDR_LEN, upper, 8, 17, &sum), -EINVAL);
    assert_int_equal(tern_ipv6_upper_sum(hdr, TERN_IPV6_HDR_LEN, upper, 8, 17, NULL), -EINVAL);
    assert_int_equal(tern_ipv6_upper_sum(hdr, TERN_IPV6_HDR_LEN, NULL, 8, 17, &sum), -EINVAL);
    assert_int_equal(sum, 7); /* unchanged */
    assert_int_equal(tern_ipv6_upper_sum(hdr, TERN_IPV6_HDR_LEN, NULL, 0, 17, &sum), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_ipv6_parse__golden),
        cmocka_unit_test(test_tern_ipv6_addrs_get__golden_as_parse),
        cmocka_unit_test(test_tern_ipv6_parse__traffic_class_and_flow_label_bits),
        cmocka_unit_test(test_tern_ipv6_parse__too_short),
        cmocka_unit_test(test_tern_ipv6_parse__wrong_version),
        cmocka_unit_test(test_tern_ipv6_parse__null),
        cmocka_unit_test(test_tern_ipv6_check_len__payload_vs_buffer),
        cmocka_unit_test(test_tern_ipv6_upper_sum__as_from_the_addresses),
        cmocka_unit_test(test_tern_ipv6_upper_sum__errors),
        cmocka_unit_test(test_tern_ipv6_emit__golden),
        cmocka_unit_test(test_tern_ipv6_emit__errors),
        cmocka_unit_test(test_tern_ipv6_emit__round_trip),
        cmocka_unit_test(test_tern_ipv6_is_ext_header__iana_registry),
        cmocka_unit_test(test_tern_ipv6_ext_parse__each_format),
        cmocka_unit_test(test_tern_ipv6_ext_parse__truncated),
        cmocka_unit_test(test_tern_ipv6_ext_parse__not_delimitable),
        cmocka_unit_test(test_tern_ipv6_ext_emit__hop_by_hop_with_router_alert),
        cmocka_unit_test(test_tern_ipv6_ext_emit__errors),
        cmocka_unit_test(test_tern_ipv6_ext_walk_next__golden_chain),
        cmocka_unit_test(test_tern_ipv6_ext_walk_next__no_ext_headers),
        cmocka_unit_test(test_tern_ipv6_ext_walk_next__truncated_chain),
        cmocka_unit_test(test_tern_ipv6_ext_walk_next__stops_after_non_first_fragment),
        cmocka_unit_test(test_tern_ipv6_ext_walk_next__hop_by_hop_not_first_is_reported),
        cmocka_unit_test(test_tern_ipv6_ext_walk_next__null),
        cmocka_unit_test(test_tern_ipv6_opt_next__golden_hop_by_hop),
        cmocka_unit_test(test_tern_ipv6_opt_next__pad1_and_unknown_options),
        cmocka_unit_test(test_tern_ipv6_opt_next__option_past_end),
        cmocka_unit_test(test_tern_ipv6_opt_next__empty_or_null),
        cmocka_unit_test(test_tern_ipv6_opt_emit__errors),
        cmocka_unit_test(test_tern_ipv6_opt_emit_padding__sizes),
        cmocka_unit_test(test_tern_ipv6_frag_parse__golden),
        cmocka_unit_test(test_tern_ipv6_frag_parse__too_short),
        cmocka_unit_test(test_tern_ipv6_frag_emit__golden_and_round_trip),
        cmocka_unit_test(test_tern_ipv6_frag_emit__errors),
        cmocka_unit_test(test_tern_ipv6_routing_parse__type2),
        cmocka_unit_test(test_tern_ipv6_routing_parse__truncated),
        cmocka_unit_test(test_tern_ipv6_routing_emit__round_trip),
        cmocka_unit_test(test_tern_ipv6_routing_emit__errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
