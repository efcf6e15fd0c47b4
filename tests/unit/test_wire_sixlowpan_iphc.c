/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 6LoWPAN IPHC/NHC codec (RFC 6282): golden vectors derived by hand
 *        from the RFC, every rejection path, truncation at every offset,
 *        and a round trip over a generated set of every mode.
 *
 * Each golden vector is given as the uncompressed packet (built field by
 * field) and the compressed bytes, with the derivation of every byte. Both
 * directions are checked: compress(packet) == bytes and
 * decompress(bytes + payload) == packet.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tern/wire/ipv6.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/sixlowpan_iphc.h"

/* --- building packets ----------------------------------------------------- */

typedef struct {
    uint8_t b[1024];
    size_t len;
    size_t ip_off[4];
    size_t ip_count;
    size_t udp_off;  /* 0: none */
} pkt_t;

static void addr(uint8_t *out, const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    memcpy(out, a.u8, 16);
}

static void put(pkt_t *p, const void *data, size_t n)
{
    assert_true(p->len + n <= sizeof(p->b));
    memcpy(&p->b[p->len], data, n);
    p->len += n;
}

/* An IPv6 header (Payload Length set by done()). */
static void ip6(pkt_t *p, uint8_t tc, uint32_t flow, uint8_t nh, uint8_t hlim, const char *src,
                const char *dst)
{
    uint8_t h[40] = { 0 };
    uint32_t word = (UINT32_C(6) << 28) | ((uint32_t)tc << 20) | flow;
    h[0] = (uint8_t)(word >> 24);
    h[1] = (uint8_t)(word >> 16);
    h[2] = (uint8_t)(word >> 8);
    h[3] = (uint8_t)word;
    h[6] = nh;
    h[7] = hlim;
    addr(&h[8], src);
    addr(&h[24], dst);
    p->ip_off[p->ip_count++] = p->len;
    put(p, h, sizeof(h));
}

/* A UDP header (Length set by done()). */
static void udp(pkt_t *p, uint16_t sport, uint16_t dport, uint16_t checksum)
{
    uint8_t h[8] = { (uint8_t)(sport >> 8), (uint8_t)sport, (uint8_t)(dport >> 8), (uint8_t)dport,
                     0, 0, (uint8_t)(checksum >> 8), (uint8_t)checksum };
    p->udp_off = p->len;
    put(p, h, sizeof(h));
}

/* Fill in every Payload Length and the UDP Length from the packet's length. */
static void done(pkt_t *p)
{
    for (size_t i = 0; i < p->ip_count; i++) {
        size_t plen = p->len - p->ip_off[i] - 40;
        p->b[p->ip_off[i] + 4] = (uint8_t)(plen >> 8);
        p->b[p->ip_off[i] + 5] = (uint8_t)plen;
    }
    if (p->udp_off != 0) {
        size_t ulen = p->len - p->udp_off;
        p->b[p->udp_off + 4] = (uint8_t)(ulen >> 8);
        p->b[p->udp_off + 5] = (uint8_t)ulen;
    }
}

/* --- links and contexts --------------------------------------------------- */

/* EUI-64s 00:12:4b:00:00:00:00:01 and ...:02: IIDs 0212:4b00:0000:0001 and
 * ...:0002 (U/L bit inverted, RFC 4944 §6). */
static const uint8_t eui_a[8] = { 0x00, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t eui_b[8] = { 0x00, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x02 };

static tern_iphc_context_t contexts[TERN_IPHC_CONTEXT_MAX];

static void set_context(unsigned id, const char *prefix, uint8_t len, uint8_t flags)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, prefix, strlen(prefix)), 0);
    contexts[id].prefix = a;
    contexts[id].prefix_len = len;
    contexts[id].flags = flags;
    contexts[id].id = (uint8_t)id;
}

#define CTX_BOTH (TERN_IPHC_CONTEXT_COMPRESS | TERN_IPHC_CONTEXT_DECOMPRESS)

static tern_iphc_link_t link_of(const uint8_t *src, size_t src_len, const uint8_t *dst, size_t dst_len)
{
    tern_iphc_link_t link;
    memset(&link, 0, sizeof(link));
    link.src.len = (uint8_t)src_len;
    link.dst.len = (uint8_t)dst_len;
    if (src_len > 0) {
        memcpy(link.src.u8, src, src_len);
    }
    if (dst_len > 0) {
        memcpy(link.dst.u8, dst, dst_len);
    }
    link.contexts = contexts;
    link.context_count = TERN_IPHC_CONTEXT_MAX;
    return link;
}

static tern_iphc_link_t link_eui(void)
{
    return link_of(eui_a, 8, eui_b, 8);
}

/* A table with an entry per identifier, entry i naming identifier i (the
 * codec takes the entries in any order: see the sparse-table test). */
static void dense_ids(tern_iphc_context_t *table)
{
    for (size_t i = 0; i < TERN_IPHC_CONTEXT_MAX; i++) {
        table[i].id = (uint8_t)i;
    }
}

static int setup(void **state)
{
    (void)state;
    memset(contexts, 0, sizeof(contexts));
    dense_ids(contexts);
    return 0;
}

/* --- checking ------------------------------------------------------------- */

/*
 * compress(p) must give exactly @p expected (the compressed headers) having
 * consumed @p consumed bytes; decompress(expected + rest of p) must give p
 * back, with the whole frame, and as a FRAG1 with only the headers present.
 */
static void check_golden(const tern_iphc_link_t *link, const pkt_t *p, const uint8_t *expected,
                         size_t expected_len, size_t consumed)
{
    uint8_t frame[1200];
    size_t used = 0;
    assert_int_equal(tern_iphc_compressed_len(link, p->b, p->len, &used), (int)expected_len);
    assert_int_equal(used, consumed);
    used = 0;
    assert_int_equal(tern_iphc_compress(link, p->b, p->len, frame, sizeof(frame), &used), (int)expected_len);
    assert_int_equal(used, consumed);
    assert_memory_equal(frame, expected, expected_len);

    /* The frame: compressed headers, then the rest of the datagram. */
    memcpy(&frame[expected_len], &p->b[consumed], p->len - consumed);
    size_t frame_len = expected_len + p->len - consumed;
    uint8_t out[TERN_IPHC_DECOMPRESSED_MAX + 1200];
    size_t in_used = 0;
    assert_int_equal(tern_iphc_decompress(link, frame, frame_len, 0, out, sizeof(out), &in_used),
                     (int)consumed);
    assert_int_equal(in_used, expected_len);
    memcpy(&out[consumed], &frame[in_used], frame_len - in_used);
    assert_memory_equal(out, p->b, p->len);

    /* FRAG1: only the headers in this frame, the datagram size from the fragment header. */
    in_used = 0;
    assert_int_equal(tern_iphc_decompress(link, frame, expected_len, p->len, out, sizeof(out), &in_used),
                     (int)consumed);
    assert_int_equal(in_used, expected_len);
    assert_memory_equal(out, p->b, consumed);
}

/* decompress(@p in) as a whole frame: its result. */
static int decompress_err(const tern_iphc_link_t *link, const uint8_t *in, size_t len)
{
    uint8_t out[TERN_IPHC_DECOMPRESSED_MAX];
    size_t used = 0;
    return tern_iphc_decompress(link, in, len, 0, out, sizeof(out), &used);
}

/* ======================================================================== */
/* Golden vectors                                                            */
/* ======================================================================== */

/* The benchmark case: link-local UDP between two EUI-64 nodes, every field
 * elided that RFC 6282 allows. */
static void test_tern_iphc_compress__link_local_eui64_udp_fully_elided(void **state)
{
    (void)state;
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_UDP, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    udp(&p, 0xf0b1, 0xf0b2, 0x1234);
    put(&p, "abcd", 4);
    done(&p);
    tern_iphc_link_t link = link_eui();
    static const uint8_t expected[] = {
        /* 011 TF=11 (TC, FL elided) NH=1 (NHC) HLIM=10 (64): 0111 1110 */
        0x7e,
        /* CID=0 SAC=0 SAM=11 (IID from the EUI-64) M=0 DAC=0 DAM=11: 0011 0011 */
        0x33,
        /* NHC UDP 11110 C=0 P=11 (both ports 0xF0Bx) */
        0xf3,
        /* source port 0xF0B1 -> 1, destination 0xF0B2 -> 2 */
        0x12,
        /* checksum in-line */
        0x12, 0x34,
    };
    check_golden(&link, &p, expected, sizeof(expected), 48);
}

/* Link-local ICMPv6 between short addresses 0x0001 and 0x0002: the IIDs
 * 0000:00ff:fe00:0001/2 are derived from the 802.15.4 header (§3.2.2). */
static void test_tern_iphc_compress__link_local_short_addresses(void **state)
{
    (void)state;
    static const uint8_t s1[2] = { 0x00, 0x01 };
    static const uint8_t s2[2] = { 0x00, 0x02 };
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_ICMPV6, 255, "fe80::ff:fe00:1", "fe80::ff:fe00:2");
    static const uint8_t echo[] = { 0x80, 0x00, 0x12, 0x34, 0x00, 0x01, 0x00, 0x01 };
    put(&p, echo, sizeof(echo));
    done(&p);
    tern_iphc_link_t link = link_of(s1, 2, s2, 2);
    static const uint8_t expected[] = {
        /* 011 TF=11 NH=0 (in-line) HLIM=11 (255): 0111 1011 */
        0x7b,
        /* SAM=11 DAM=11: 0011 0011 */
        0x33,
        /* Next Header in-line: ICMPv6 */
        0x3a,
    };
    check_golden(&link, &p, expected, sizeof(expected), 40);
}

/* IIDs of the 16-bit form that the link-layer addresses do not give:
 * SAM=10/DAM=10, 16 bits each in-line. */
static void test_tern_iphc_compress__link_local_16_bit_inline(void **state)
{
    (void)state;
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_ICMPV6, 64, "fe80::ff:fe00:1234", "fe80::ff:fe00:5678");
    put(&p, "\x80\x00\x00\x00", 4);
    done(&p);
    tern_iphc_link_t link = link_eui();
    static const uint8_t expected[] = {
        0x7a,       /* 011 TF=11 NH=0 HLIM=10 */
        0x22,       /* SAC=0 SAM=10, M=0 DAC=0 DAM=10: 0010 0010 */
        0x3a,       /* Next Header */
        0x12, 0x34, /* source: last 16 bits */
        0x56, 0x78, /* destination: last 16 bits */
    };
    check_golden(&link, &p, expected, sizeof(expected), 40);
}

/* Link-local with IIDs that match neither the link layer nor the 16-bit
 * form: SAM=01/DAM=01, 64 bits in-line. Link-layer addresses unknown. */
static void test_tern_iphc_compress__link_local_64_bit_inline(void **state)
{
    (void)state;
    pkt_t p = { 0 };
    ip6(&p, 0, 0, 59, 64, "fe80::1", "fe80::a:b:c:d");
    done(&p);
    tern_iphc_link_t link = link_of(NULL, 0, NULL, 0);
    static const uint8_t expected[] = {
        0x7a,                                           /* TF=11 NH=0 HLIM=10 */
        0x11,                                           /* SAM=01 DAM=01 */
        0x3b,                                           /* Next Header: No Next Header (59) */
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, /* source IID */
        0x00, 0x0a, 0x00, 0x0b, 0x00, 0x0c, 0x00, 0x0d, /* destination IID */
    };
    check_golden(&link, &p, expected, sizeof(expected), 40);
}

/* A global pair and no context: SAM=00/DAM=00, 128 bits each. */
static void test_tern_iphc_compress__global_no_context_inline(void **state)
{
    (void)state;
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_ICMPV6, 128, "2001:db8::1", "2001:db8::2");
    put(&p, "\x80\x00\x00\x00", 4);
    done(&p);
    tern_iphc_link_t link = link_eui();
    static const uint8_t expected[] = {
        0x78, /* TF=11 NH=0 HLIM=00 (in-line) */
        0x00, /* SAM=00 DAM=00 */
        0x3a, /* Next Header */
        0x80, /* Hop Limit 128 */
        0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
        0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02,
    };
    check_golden(&link, &p, expected, sizeof(expected), 40);
}

/* Stateful with context 0 (2001:db8::/64, no CID byte): the source's IID is
 * the EUI-64's (SAC=1 SAM=11), the destination's is of the 16-bit form
 * (DAC=1 DAM=10). */
static void test_tern_iphc_compress__context_0_stateful(void **state)
{
    (void)state;
    set_context(0, "2001:db8::", 64, CTX_BOTH);
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_UDP, 64, "2001:db8::212:4b00:0:1", "2001:db8::ff:fe00:9");
    udp(&p, 5683, 5683, 0xbeef);
    put(&p, "x", 1);
    done(&p);
    tern_iphc_link_t link = link_eui();
    static const uint8_t expected[] = {
        0x7e,       /* TF=11 NH=1 HLIM=10 */
        0x76,       /* CID=0 SAC=1 SAM=11 M=0 DAC=1 DAM=10: 0111 0110 */
        0x00, 0x09, /* destination: 16 bits */
        0xf0,       /* NHC UDP C=0 P=00 */
        0x16, 0x33, 0x16, 0x33, /* ports 5683 -> 5683 */
        0xbe, 0xef, /* checksum */
    };
    check_golden(&link, &p, expected, sizeof(expected), 48);
}

/* A context other than 0 needs the CID byte: source with context 2
 * (64 bits in-line), destination with context 0 (16 bits). */
static void test_tern_iphc_compress__context_identifier_extension(void **state)
{
    (void)state;
    set_context(0, "2001:db8::", 64, CTX_BOTH);
    set_context(2, "2001:db8:1::", 64, CTX_BOTH);
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_ICMPV6, 64, "2001:db8:1::5", "2001:db8::ff:fe00:9");
    put(&p, "\x80\x00\x00\x00", 4);
    done(&p);
    tern_iphc_link_t link = link_eui();
    static const uint8_t expected[] = {
        0x7a,                                           /* TF=11 NH=0 HLIM=10 */
        0xd6,                                           /* CID=1 SAC=1 SAM=01 M=0 DAC=1 DAM=10 */
        0x20,                                           /* SCI=2 DCI=0 */
        0x3a,                                           /* Next Header */
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, /* source IID */
        0x00, 0x09,                                     /* destination: 16 bits */
    };
    check_golden(&link, &p, expected, sizeof(expected), 40);
}

/* Every SAM and DAM of the stateful modes, and SAC=1 SAM=00 (the
 * unspecified source address), against context 1 with the CID byte. */
static void test_tern_iphc_compress__every_stateful_mode(void **state)
{
    (void)state;
    set_context(1, "2001:db8:aa::", 64, CTX_BOTH);
    tern_iphc_link_t link = link_eui();
    static const struct {
        const char *src;
        const char *dst;
        uint8_t byte1;  /* CID SAC SAM M DAC DAM */
        uint8_t cid;
        uint8_t inl[18];
        size_t inl_len;
    } cases[] = {
        /* SAM=11/DAM=11: both IIDs from the EUI-64s. */
        { "2001:db8:aa::212:4b00:0:1", "2001:db8:aa::212:4b00:0:2", 0xf7, 0x11, { 0 }, 0 },
        /* SAM=10/DAM=10: 16 bits each. */
        { "2001:db8:aa::ff:fe00:77", "2001:db8:aa::ff:fe00:88", 0xe6, 0x11, { 0, 0x77, 0, 0x88 }, 4 },
        /* SAM=01/DAM=01: 64 bits each. */
        { "2001:db8:aa::1:2:3:4", "2001:db8:aa::5:6:7:8", 0xd5, 0x11,
          { 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8 }, 16 },
        /* SAC=1 SAM=00: ::, no context used for it (DCI only). */
        { "::", "2001:db8:aa::212:4b00:0:2", 0xc7, 0x01, { 0 }, 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pkt_t p = { 0 };
        ip6(&p, 0, 0, 59, 64, cases[i].src, cases[i].dst);
        done(&p);
        uint8_t expected[24] = { 0x7a, cases[i].byte1, cases[i].cid, 59 };
        memcpy(&expected[4], cases[i].inl, cases[i].inl_len);
        check_golden(&link, &p, expected, 4 + cases[i].inl_len, 40);
    }
}

/* The unspecified source without any context (DAD's Neighbor Solicitation):
 * SAC=1 SAM=00 needs no context at all. */
static void test_tern_iphc_compress__unspecified_source_without_contexts(void **state)
{
    (void)state;
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_ICMPV6, 255, "::", "ff02::1:ff00:1");
    put(&p, "\x87\x00\x00\x00", 4);
    done(&p);
    tern_iphc_link_t link = link_eui();
    link.context_count = 0;
    link.contexts = NULL;
    static const uint8_t expected[] = {
        0x7b,                               /* TF=11 NH=0 HLIM=11 */
        0x49,                               /* SAC=1 SAM=00, M=1 DAC=0 DAM=01: 0100 1001 */
        0x3a,                               /* Next Header */
        0x02, 0x01, 0xff, 0x00, 0x00, 0x01, /* ff02::1:ff00:1 -> scope 02, then 01:ff00:0001 */
    };
    check_golden(&link, &p, expected, sizeof(expected), 40);
}

/* Every stateless multicast mode and the RFC 3306 unicast-prefix-based one. */
static void test_tern_iphc_compress__every_multicast_mode(void **state)
{
    (void)state;
    set_context(0, "2001:db8:abcd::", 48, CTX_BOTH);
    tern_iphc_link_t link = link_eui();
    static const struct {
        const char *dst;
        uint8_t byte1;
        uint8_t inl[16];
        size_t inl_len;
    } cases[] = {
        /* DAM=11: ff02::00XX, 8 bits. SAM=11 M=1 DAC=0 DAM=11: 0011 1011 */
        { "ff02::1", 0x3b, { 0x01 }, 1 },
        /* DAM=10: ffXX::00XX:XXXX, flags/scope then 24 bits */
        { "ff05::1:3", 0x3a, { 0x05, 0x01, 0x00, 0x03 }, 4 },
        /* DAM=01: ffXX::00XX:XXXX:XXXX, flags/scope then 40 bits */
        { "ff02::1:ff00:1234", 0x39, { 0x02, 0x01, 0xff, 0x00, 0x12, 0x34 }, 6 },
        /* DAM=00: the whole address (M=1 DAC=0) */
        { "ff0e:1234::1", 0x38,
          { 0xff, 0x0e, 0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01 }, 16 },
        /* M=1 DAC=1 DAM=00: ff3e:0030:2001:0db8:abcd:0000:0000:1234 is
         * ffXX:XXLL:PPPP:PPPP:PPPP:PPPP:XXXX:XXXX with LL = 0x30 = 48 and the
         * prefix of context 0: in-line flags/scope 3e, reserved 00, group 00001234.
         * SAM=11 M=1 DAC=1 DAM=00: 0011 1100 */
        { "ff3e:30:2001:db8:abcd::1234", 0x3c, { 0x3e, 0x00, 0x00, 0x00, 0x12, 0x34 }, 6 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pkt_t p = { 0 };
        ip6(&p, 0, 0, 59, 64, "fe80::212:4b00:0:1", cases[i].dst);
        done(&p);
        uint8_t expected[24] = { 0x7a, cases[i].byte1, 59 };
        memcpy(&expected[3], cases[i].inl, cases[i].inl_len);
        check_golden(&link, &p, expected, 3 + cases[i].inl_len, 40);
    }
}

/* TF: all four modes, with ECN/DSCP/flow label values that need them. The
 * traffic class is DSCP|ECN on the wire of IPv6 and ECN|DSCP in IPHC (§3.2.1). */
static void test_tern_iphc_compress__traffic_class_and_flow_label_modes(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    static const struct {
        uint8_t tc;
        uint32_t flow;
        uint8_t tf;  /* the TF bits */
        uint8_t inl[4];
        size_t inl_len;
    } cases[] = {
        /* TF=00: DSCP 46 (EF) ECN 01 -> TC 0xb9 -> ECN|DSCP = 01 101110 = 0x6e;
         * 4 bits of padding, then flow label 0x12345 */
        { 0xb9, 0x12345, 0, { 0x6e, 0x01, 0x23, 0x45 }, 4 },
        /* TF=01: DSCP 0 ECN 10 (TC 0x02), flow label 0xabcde:
         * ECN(10) rsv(00) 0xa -> 0x8a, then 0xbc 0xde */
        { 0x02, 0xabcde, 1, { 0x8a, 0xbc, 0xde }, 3 },
        /* TF=10: TC 0xb9, flow label 0: one byte ECN|DSCP */
        { 0xb9, 0, 2, { 0x6e }, 1 },
        /* TF=10: ECN 11 alone (TC 0x03): 11 000000 */
        { 0x03, 0, 2, { 0xc0 }, 1 },
        /* TF=10: DSCP 0x3f alone (TC 0xfc): 00 111111 */
        { 0xfc, 0, 2, { 0x3f }, 1 },
        /* TF=00 with DSCP but no ECN: TC 0x04 -> 00 000001, flow 1 */
        { 0x04, 1, 0, { 0x01, 0x00, 0x00, 0x01 }, 4 },
        /* TF=11: nothing */
        { 0x00, 0, 3, { 0 }, 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pkt_t p = { 0 };
        ip6(&p, cases[i].tc, cases[i].flow, 59, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
        done(&p);
        /* 011 TF NH=0 HLIM=10 */
        uint8_t expected[8] = { (uint8_t)(0x62 | (cases[i].tf << 3)), 0x33 };
        memcpy(&expected[2], cases[i].inl, cases[i].inl_len);
        expected[2 + cases[i].inl_len] = 59;
        check_golden(&link, &p, expected, 3 + cases[i].inl_len, 40);
    }
}

/* HLIM: 1, 64 and 255 elided, anything else in-line. */
static void test_tern_iphc_compress__hop_limit_modes(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    static const struct {
        uint8_t hlim;
        uint8_t bits;
    } cases[] = { { 1, 1 }, { 64, 2 }, { 255, 3 }, { 0, 0 }, { 2, 0 }, { 63, 0 }, { 254, 0 } };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pkt_t p = { 0 };
        ip6(&p, 0, 0, 59, cases[i].hlim, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
        done(&p);
        uint8_t expected[4] = { (uint8_t)(0x78 | cases[i].bits), 0x33, 59, cases[i].hlim };
        check_golden(&link, &p, expected, cases[i].bits == 0 ? 4 : 3, 40);
    }
}

/* UDP ports in each NHC mode (§4.3.3); the checksum is always carried. */
static void test_tern_iphc_compress__udp_port_modes(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    static const struct {
        uint16_t sport;
        uint16_t dport;
        uint8_t nhc[5];
        size_t nhc_len;
    } cases[] = {
        /* P=00: both in-line */
        { 5683, 5684, { 0xf0, 0x16, 0x33, 0x16, 0x34 }, 5 },
        /* P=01: destination 0xF00A -> 8 bits */
        { 5683, 0xf00a, { 0xf1, 0x16, 0x33, 0x0a }, 4 },
        /* P=10: source 0xF0AB -> 8 bits */
        { 0xf0ab, 5683, { 0xf2, 0xab, 0x16, 0x33 }, 4 },
        /* P=11: both 0xF0Bx -> 4 bits each */
        { 0xf0bf, 0xf0b0, { 0xf3, 0xf0 }, 2 },
        /* only one port 0xF0Bx: P=01 with the destination's 8 bits */
        { 0xf0b1, 0xf0c2, { 0xf1, 0xf0, 0xb1, 0xc2 }, 4 },
        /* 0xF0xx on both sides, not 0xF0Bx: the destination's 8 bits */
        { 0xf001, 0xf002, { 0xf1, 0xf0, 0x01, 0x02 }, 4 },
        /* almost 0xF0xx */
        { 0xf100, 0xef00, { 0xf0, 0xf1, 0x00, 0xef, 0x00 }, 5 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pkt_t p = { 0 };
        ip6(&p, 0, 0, TERN_IPV6_NH_UDP, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
        udp(&p, cases[i].sport, cases[i].dport, 0x0102);
        put(&p, "payload", 7);
        done(&p);
        uint8_t expected[16] = { 0x7e, 0x33 };
        memcpy(&expected[2], cases[i].nhc, cases[i].nhc_len);
        expected[2 + cases[i].nhc_len] = 0x01;
        expected[3 + cases[i].nhc_len] = 0x02;
        check_golden(&link, &p, expected, 4 + cases[i].nhc_len, 48);
    }
}

/* A UDP Length that is not the rest of the datagram cannot be elided: the
 * Next Header goes in-line and UDP stays uncompressed. */
static void test_tern_iphc_compress__udp_length_mismatch_stays_inline(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_UDP, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    udp(&p, 1, 2, 0x0102);
    put(&p, "abc", 3);
    done(&p);
    p.b[40 + 5] = 10; /* UDP Length 10, datagram has 11 UDP bytes */
    static const uint8_t expected[] = { 0x7a, 0x33, 0x11 };
    check_golden(&link, &p, expected, sizeof(expected), 40);
}

/* Hop-by-Hop (Router Alert, then a PadN of 2) + UDP: EID 0 with NH=1; the
 * trailing PadN is elided (§4.2) and re-created by the decompressor. */
static void test_tern_iphc_compress__hop_by_hop_then_udp(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_HOP_BY_HOP, 1, "fe80::212:4b00:0:1", "ff02::16");
    static const uint8_t hbh[8] = { 0x11, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00 };
    put(&p, hbh, sizeof(hbh));
    udp(&p, 0xf0b1, 0xf0b2, 0xaaaa);
    done(&p);
    static const uint8_t expected[] = {
        0x7d,                   /* TF=11 NH=1 HLIM=01 */
        0x3b,                   /* SAM=11, M=1 DAM=11 */
        0x16,                   /* ff02::16 */
        0xe1,                   /* NHC 1110 EID=000 NH=1 */
        0x04,                   /* Length: 4 octets follow (the PadN is elided) */
        0x05, 0x02, 0x00, 0x00, /* Router Alert, value 0 */
        0xf3, 0x12, 0xaa, 0xaa, /* NHC UDP P=11, ports, checksum */
    };
    check_golden(&link, &p, expected, sizeof(expected), 56);
}

/* A Hop-by-Hop header holding only the RPL Option (RFC 6553 §3: type 0x63,
 * O set, instance 1, SenderRank 0x0200; 2 + 6 octets, no padding) + UDP, as
 * an RPL node sends it: EID 0 with NH=1, Length 6, the option inline. */
static void test_tern_iphc_compress__rpl_option_then_udp(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_HOP_BY_HOP, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    static const uint8_t hbh[8] = { 0x11, 0x00, 0x63, 0x04, 0x80, 0x01, 0x02, 0x00 };
    put(&p, hbh, sizeof(hbh));
    udp(&p, 0xf0b1, 0xf0b2, 0x5555);
    done(&p);
    static const uint8_t expected[] = {
        0x7e, 0x33,                         /* TF=11 NH=1 HLIM=10; SAM=11 DAM=11 */
        0xe1,                               /* NHC 1110 EID=000 NH=1 */
        0x06,                               /* Length: the 6 octets of the option */
        0x63, 0x04, 0x80, 0x01, 0x02, 0x00, /* RPL Option */
        0xf3, 0x12, 0x55, 0x55,             /* NHC UDP P=11, ports, checksum */
    };
    check_golden(&link, &p, expected, sizeof(expected), 56);
}

/* An atomic Fragment header (offset 0, M=0) + UDP: EID 2 with NH=1, Length 6. */
static void test_tern_iphc_compress__atomic_fragment_then_udp(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_FRAGMENT, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    static const uint8_t frag[8] = { 0x11, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04 };
    put(&p, frag, sizeof(frag));
    udp(&p, 0xf0b1, 0xf0b2, 0x5555);
    put(&p, "z", 1);
    done(&p);
    static const uint8_t expected[] = {
        0x7e, 0x33,
        0xe5,                               /* NHC 1110 EID=010 NH=1 */
        0x06,                               /* Length */
        0x00, 0x00, 0x01, 0x02, 0x03, 0x04, /* offset/flags, identification */
        0xf3, 0x12, 0x55, 0x55,
    };
    check_golden(&link, &p, expected, sizeof(expected), 56);
}

/* The first fragment of an IPv6-fragmented datagram (M=1): the Fragment
 * header is compressed with its Next Header in-line, and the chain ends. */
static void test_tern_iphc_compress__first_fragment_ends_chain(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_FRAGMENT, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    static const uint8_t frag[8] = { 0x11, 0x00, 0x00, 0x01, 0xde, 0xad, 0xbe, 0xef };
    put(&p, frag, sizeof(frag));
    static const uint8_t udp_hdr[8] = { 0xf0, 0xb1, 0xf0, 0xb2, 0x01, 0x00, 0x12, 0x34 };
    put(&p, udp_hdr, sizeof(udp_hdr));
    done(&p);
    static const uint8_t expected[] = {
        0x7e, 0x33,
        0xe4,                               /* NHC EID=010 NH=0 */
        0x11,                               /* Next Header in-line: UDP */
        0x06,
        0x00, 0x01, 0xde, 0xad, 0xbe, 0xef,
    };
    check_golden(&link, &p, expected, sizeof(expected), 48);
}

/* IPv6-in-IPv6 (EID 7): the inner header as LOWPAN_IPHC, its source IID
 * copied from the outer (encapsulating) source address (§3.2.2). */
static void test_tern_iphc_compress__ipv6_in_ipv6(void **state)
{
    (void)state;
    set_context(0, "2001:db8::", 64, CTX_BOTH);
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, 41, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    ip6(&p, 0, 0, TERN_IPV6_NH_UDP, 63, "2001:db8::212:4b00:0:1", "2001:db8::2");
    udp(&p, 0xf0b1, 0xf0b2, 0x7777);
    put(&p, "hi", 2);
    done(&p);
    static const uint8_t expected[] = {
        0x7e, 0x33,                                     /* outer: TF=11 NH=1 HLIM=10, SAM=DAM=11 */
        0xee,                                           /* NHC 1110 EID=111 NH=0 */
        0x7c,                                           /* inner: TF=11 NH=1 HLIM=00 */
        0x75,                                           /* SAC=1 SAM=11 (IID of the outer source), DAC=1 DAM=01 */
        0x3f,                                           /* Hop Limit 63 */
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, /* inner destination IID */
        0xf3, 0x12, 0x77, 0x77,
    };
    check_golden(&link, &p, expected, sizeof(expected), 88);
}

/* Destination Options + Routing + UDP: EIDs 3 and 1 chained. The Routing
 * header is carried whole (no padding to elide). */
static void test_tern_iphc_compress__dest_opts_then_routing_then_udp(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_DEST_OPTS, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    /* Destination Options: next Routing, one Pad1 and a PadN of 5 -> the
     * trailing PadN (5 bytes) is elided, the Pad1 stays. */
    static const uint8_t dopt[8] = { 43, 0x00, 0x00, 0x01, 0x03, 0x00, 0x00, 0x00 };
    put(&p, dopt, sizeof(dopt));
    /* Routing type 3 (RPL source route), 16 bytes */
    static const uint8_t rh[16] = { 17, 1, 3, 1, 0x88, 0x00, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8 };
    put(&p, rh, sizeof(rh));
    udp(&p, 0xf0b1, 0xf0b2, 0x9999);
    done(&p);
    static const uint8_t expected[] = {
        0x7e, 0x33,
        0xe7, 0x01, 0x00,                   /* EID=011 NH=1, Length 1, the Pad1 */
        0xe3, 0x0e,                         /* EID=001 NH=1, Length 14 */
        3, 1, 0x88, 0x00, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8,
        0xf3, 0x12, 0x99, 0x99,
    };
    check_golden(&link, &p, expected, sizeof(expected), 72);
}

/* A Mobility header (EID 4) with No Next Header. */
static void test_tern_iphc_compress__mobility_header(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_MOBILITY, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    static const uint8_t mh[8] = { 59, 0, 5, 0, 0x12, 0x34, 0, 0 };
    put(&p, mh, sizeof(mh));
    done(&p);
    static const uint8_t expected[] = {
        0x7e, 0x33,
        0xe8, 59, 0x06, 5, 0, 0x12, 0x34, 0, 0, /* EID=100 NH=0, Next Header, Length 6 */
    };
    check_golden(&link, &p, expected, sizeof(expected), 48);
}

/* Padding that cannot be re-created identically (PadN with non-zero data,
 * or more than one trailing option to drop) is carried. */
static void test_tern_iphc_compress__padding_kept_when_not_recreatable(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    static const uint8_t hbh_nonzero_pad[8] = { 59, 0, 0x01, 0x04, 0x00, 0x00, 0x00, 0x01 };
    static const uint8_t hbh_two_pads[8] = { 59, 0, 0x01, 0x02, 0x00, 0x00, 0x01, 0x00 };
    const uint8_t *hdrs[2] = { hbh_nonzero_pad, hbh_two_pads };
    /* elided bytes: none; the last PadN (2 bytes) only */
    const uint8_t lengths[2] = { 6, 4 };
    for (size_t i = 0; i < 2; i++) {
        pkt_t p = { 0 };
        ip6(&p, 0, 0, TERN_IPV6_NH_HOP_BY_HOP, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
        put(&p, hdrs[i], 8);
        done(&p);
        uint8_t expected[16] = { 0x7e, 0x33, 0xe0, 59, lengths[i] };
        memcpy(&expected[5], &hdrs[i][2], lengths[i]);
        check_golden(&link, &p, expected, 5u + lengths[i], 48);
    }
}

/* Decompression of a context longer than 64 bits: the context's bits win
 * over the in-line IID bits (§3.1.1 "Bits covered by context information
 * are always used"). */
static void test_tern_iphc_decompress__context_covers_iid_bits(void **state)
{
    (void)state;
    set_context(0, "2001:db8::1111:0:0:0", 80, CTX_BOTH);
    tern_iphc_link_t link = link_eui();
    static const uint8_t in[] = {
        0x7a, 0x62, /* TF=11 NH=0 HLIM=10; SAC=1 SAM=10, DAM=10 (link-local 16 bits) */
        59,
        0x00, 0x42, /* source: 0000:00ff:fe00:0042 under 2001:db8:0:0:1111::/80 */
        0x00, 0x01,
    };
    uint8_t out[64];
    size_t used = 0;
    assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 0, out, sizeof(out), &used), 40);
    uint8_t want[16];
    addr(want, "2001:db8::1111:ff:fe00:42");
    assert_memory_equal(&out[8], want, 16);
    addr(want, "fe80::ff:fe00:1");
    assert_memory_equal(&out[24], want, 16);
    assert_int_equal(used, sizeof(in));
    assert_int_equal(out[4], 0);
    assert_int_equal(out[5], 0);
}

/* A context shorter than 64 bits: the bits between it and the IID are zero
 * (§3.1.1 "Any remaining bits are zero"), so an address with other bits
 * there is not compressed against it. */
static void test_tern_iphc_compress__short_context_needs_zero_gap(void **state)
{
    (void)state;
    set_context(0, "2001:db8::", 32, CTX_BOTH);
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, 59, 64, "2001:db8::212:4b00:0:1", "2001:db8:0:1::5");
    done(&p);
    static const uint8_t expected[] = {
        0x7a, 0x70, 59, /* SAC=1 SAM=11 against /32; destination in full */
        0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x05,
    };
    check_golden(&link, &p, expected, sizeof(expected), 40);
}

/* The choice counts the CID byte: context 1 saves nothing over context 0
 * when both cover the address; a context valid only for decompression is
 * never used to compress. */
static void test_tern_iphc_compress__context_choice(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, 59, 64, "2001:db8::212:4b00:0:1", "2001:db8::ff:fe00:2");
    done(&p);
    uint8_t out[64];
    size_t used;

    /* Equal contexts 0 and 1: context 0, no CID byte. */
    set_context(0, "2001:db8::", 64, CTX_BOTH);
    set_context(1, "2001:db8::", 64, CTX_BOTH);
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used), 5);
    assert_int_equal(out[1], 0x76); /* CID=0 SAC=1 SAM=11 DAC=1 DAM=10 */

    /* Context 0 gives 16 bits for the destination, context 3 (a /128 of it)
     * 0 bits: 1 CID byte < 2 bytes. */
    set_context(3, "2001:db8::ff:fe00:2", 128, CTX_BOTH);
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used), 4);
    assert_int_equal(out[1], 0xf7); /* CID=1 SAM=11, DAC=1 DAM=11 */
    assert_int_equal(out[2], 0x03); /* SCI=0 DCI=3 */

    /* Only valid for decompression: not used. */
    contexts[0].flags = TERN_IPHC_CONTEXT_DECOMPRESS;
    contexts[1].flags = TERN_IPHC_CONTEXT_DECOMPRESS;
    contexts[3].flags = TERN_IPHC_CONTEXT_DECOMPRESS;
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used), 35);
    assert_int_equal(out[1], 0x00);
}

/* A /64 context and the IID from the link address are matched on every
 * bit: a source that differs from the prefix in any one bit of its first 8
 * bytes takes no context (SAC=0 SAM=00, in-line in full), one that differs
 * from the link-derived IID in any one bit of its last 8 bytes takes the
 * context with the IID in-line (SAC=1 SAM=01). */
static void test_tern_iphc_compress__context_and_iid_matched_on_every_bit(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    set_context(0, "2001:db8::", 64, CTX_BOTH);
    uint8_t out[64];
    size_t used;
    for (unsigned k = 0; k < 16; k++) {
        for (unsigned bit = 0; bit < 8; bit++) {
            pkt_t p = { 0 };
            ip6(&p, 0, 0, 59, 64, "2001:db8::212:4b00:0:1", "2001:db8::ff:fe00:2");
            done(&p);
            assert_true(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used) > 0);
            assert_int_equal(out[1], 0x76); /* unchanged: SAC=1 SAM=11, DAC=1 DAM=10 */
            p.b[8 + k] ^= (uint8_t)(1u << bit);
            assert_true(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used) > 0);
            assert_int_equal(out[1] >> 4, (k < 8) ? 0x0 : 0x5);
            assert_int_equal(out[1] & 0x0f, 0x6);
        }
    }
}

/* ======================================================================== */
/* Rejections                                                                */
/* ======================================================================== */

static void test_tern_iphc_decompress__reserved_address_modes(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    set_context(0, "2001:db8::", 64, CTX_BOTH);
    uint8_t in[40] = { 0x7a, 0x00, 59 };
    /* M=0 DAC=1 DAM=00: reserved */
    in[1] = 0x34;
    assert_int_equal(decompress_err(&link, in, sizeof(in)), -EPROTO);
    /* M=1 DAC=1 DAM=01, 10, 11: reserved */
    for (uint8_t dam = 1; dam <= 3; dam++) {
        in[1] = (uint8_t)(0x3c | dam);
        assert_int_equal(decompress_err(&link, in, sizeof(in)), -EPROTO);
    }
    /* SAC=1 SAM=00 is the unspecified address: legal, needs no context */
    link.context_count = 0;
    link.contexts = NULL;
    in[1] = 0x43; /* SAC=1 SAM=00, DAM=11 */
    uint8_t out[64];
    size_t used;
    assert_int_equal(tern_iphc_decompress(&link, in, 3, 0, out, sizeof(out), &used), 40);
    static const uint8_t zero[16] = { 0 };
    assert_memory_equal(&out[8], zero, 16);
}

/* A table need not have an entry per identifier: entries name their own, in
 * any order; the compressor still prefers the lower identifier on a tie. */
static void test_tern_iphc_compress__sparse_context_table(void **state)
{
    (void)state;
    tern_iphc_context_t table[3];
    memset(table, 0, sizeof(table));
    assert_int_equal(tern_ipv6_addr_from_str(&table[0].prefix, "2001:db8::", 10), 0);
    table[0].prefix_len = 64;
    table[0].flags = CTX_BOTH;
    table[0].id = 9;
    table[2] = table[0];
    table[2].id = 5; /* the same prefix under a lower identifier: chosen */
    tern_iphc_link_t link = link_eui();
    link.contexts = table;
    link.context_count = 3;
    pkt_t p = { 0 };
    ip6(&p, 0, 0, 59, 64, "2001:db8::212:4b00:0:1", "2001:db8::212:4b00:0:2");
    done(&p);
    uint8_t out[64];
    size_t used;
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used), 4);
    assert_int_equal(out[1], 0xf7); /* CID=1 SAC=1 SAM=11 DAC=1 DAM=11 */
    assert_int_equal(out[2], 0x55); /* SCI=5 DCI=5 */
    uint8_t back[64];
    assert_int_equal(tern_iphc_decompress(&link, out, 4, 0, back, sizeof(back), &used), 40);
    assert_memory_equal(back, p.b, 40);
    /* Identifier 5 gone: 9 is used; a packet naming 5 is dropped (§3.1.1). */
    table[2].flags = 0;
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used), 4);
    assert_int_equal(out[2], 0x99);
    static const uint8_t sci5[] = { 0x7a, 0xf7, 0x55, 59 };
    assert_int_equal(decompress_err(&link, sci5, sizeof(sci5)), -ENOENT);
    /* Invalid tables: an identifier above 15, or two entries in use naming one. */
    table[1] = table[0];
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used), -EINVAL);
    table[1].id = 16;
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used), -EINVAL);
    table[1].flags = 0; /* unused entries are not looked at */
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used), 4);
}

static void test_tern_iphc_decompress__unknown_or_invalid_context(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    /* SAC=1 SAM=11 with context 0 missing from an empty table */
    static const uint8_t ctx0[] = { 0x7a, 0x73, 59 };
    link.context_count = 0;
    link.contexts = NULL;
    assert_int_equal(decompress_err(&link, ctx0, sizeof(ctx0)), -ENOENT);
    /* context 0 only valid for compression */
    link = link_eui();
    set_context(0, "2001:db8::", 64, TERN_IPHC_CONTEXT_COMPRESS);
    assert_int_equal(decompress_err(&link, ctx0, sizeof(ctx0)), -ENOENT);
    /* CID names 5 for the destination: beyond a table of 4 */
    set_context(0, "2001:db8::", 64, CTX_BOTH);
    static const uint8_t dci5[] = { 0x7a, 0xb7, 0x05, 59 };
    link.context_count = 4;
    assert_int_equal(decompress_err(&link, dci5, sizeof(dci5)), -ENOENT);
    /* ... and present but unused */
    link.context_count = 16;
    assert_int_equal(decompress_err(&link, dci5, sizeof(dci5)), -ENOENT);
    set_context(5, "2001:db8:5::", 64, TERN_IPHC_CONTEXT_DECOMPRESS);
    uint8_t out[64];
    size_t used;
    assert_int_equal(tern_iphc_decompress(&link, dci5, sizeof(dci5), 0, out, sizeof(out), &used), 40);
    uint8_t want[16];
    addr(want, "2001:db8:5::212:4b00:0:2");
    assert_memory_equal(&out[24], want, 16);
    /* RFC 3306 form against a context longer than 64 bits */
    set_context(0, "2001:db8::", 96, CTX_BOTH);
    static const uint8_t mc[] = { 0x7a, 0x3c, 59, 0x3e, 0, 0, 0, 0, 1 };
    assert_int_equal(decompress_err(&link, mc, sizeof(mc)), -EPROTO);
}

static void test_tern_iphc_decompress__link_address_needed(void **state)
{
    (void)state;
    static const uint8_t in[] = { 0x7a, 0x33, 59 };
    tern_iphc_link_t link = link_of(NULL, 0, eui_b, 8);
    assert_int_equal(decompress_err(&link, in, sizeof(in)), -EADDRNOTAVAIL);
    link = link_of(eui_a, 8, NULL, 0);
    assert_int_equal(decompress_err(&link, in, sizeof(in)), -EADDRNOTAVAIL);
}

/*
 * The encoding of nearly every datagram within one link (TF=11, NH=1, both
 * addresses link-local with their IIDs from the link-layer addresses),
 * which the decompressor writes directly: every hop limit mode, EUI-64 and
 * short link-layer addresses in both directions, an NHC UDP header after
 * it; a link-layer address unknown, the input cut short, or too little room
 * fail as for any other encoding.
 */
static void test_tern_iphc_decompress__link_local_elided_every_hop_limit_and_link_address(void **state)
{
    (void)state;
    static const uint8_t short_a[2] = { 0x00, 0x01 };
    static const uint8_t short_b[2] = { 0x00, 0x02 };
    static const struct {
        const uint8_t *src;
        uint8_t src_len;
        const uint8_t *dst;
        uint8_t dst_len;
        const char *src_text;
        const char *dst_text;
    } links[] = {
        { eui_a, 8, eui_b, 8, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2" },
        { short_a, 2, short_b, 2, "fe80::ff:fe00:1", "fe80::ff:fe00:2" },
        { eui_a, 8, short_b, 2, "fe80::212:4b00:0:1", "fe80::ff:fe00:2" },
        { short_a, 2, eui_b, 8, "fe80::ff:fe00:1", "fe80::212:4b00:0:2" },
    };
    static const uint8_t hop_limits[] = { 7, 1, 64, 255 }; /* HLIM 00 (in-line), 01, 10, 11 */
    for (size_t l = 0; l < sizeof(links) / sizeof(links[0]); l++) {
        tern_iphc_link_t link = link_of(links[l].src, links[l].src_len, links[l].dst, links[l].dst_len);
        for (unsigned hlim = 0; hlim < 4; hlim++) {
            pkt_t p = { 0 };
            ip6(&p, 0, 0, TERN_IPV6_NH_UDP, hop_limits[hlim], links[l].src_text, links[l].dst_text);
            udp(&p, 0xf0b1, 0xf0b2, 0xbeef);
            put(&p, "xyz", 3);
            done(&p);
            uint8_t in[16];
            size_t n = 0;
            in[n++] = (uint8_t)(0x7c | hlim);
            in[n++] = 0x33;
            if (hlim == 0) {
                in[n++] = hop_limits[0];
            }
            size_t headers = n + 4;
            memcpy(&in[n], "\xf3\x12\xbe\xefxyz", 7);
            n += 7;
            uint8_t out[TERN_IPHC_DECOMPRESSED_MAX];
            size_t used = 0;
            assert_int_equal(tern_iphc_decompress(&link, in, n, 0, out, sizeof(out), &used), 48);
            assert_int_equal(used, headers);
            memcpy(&out[48], &in[used], n - used);
            assert_memory_equal(out, p.b, p.len);
            /* As a FRAG1 holding the headers only. */
            assert_int_equal(tern_iphc_decompress(&link, in, headers, p.len, out, sizeof(out), &used), 48);
            assert_memory_equal(out, p.b, 48);
            /* Cut short anywhere in the headers; too little room for the IPv6 header. */
            for (size_t cut = 0; cut < headers; cut++) {
                assert_int_equal(decompress_err(&link, in, cut), -EBADMSG);
            }
            assert_int_equal(tern_iphc_decompress(&link, in, n, 0, out, TERN_IPV6_HDR_LEN - 1, &used), -ENOBUFS);
        }
        static const uint8_t elided[] = { 0x7e, 0x33, 0xf3, 0x12, 0xbe, 0xef };
        tern_iphc_link_t no_src = link_of(NULL, 0, links[l].dst, links[l].dst_len);
        assert_int_equal(decompress_err(&no_src, elided, sizeof(elided)), -EADDRNOTAVAIL);
        tern_iphc_link_t no_dst = link_of(links[l].src, links[l].src_len, NULL, 0);
        assert_int_equal(decompress_err(&no_dst, elided, sizeof(elided)), -EADDRNOTAVAIL);
    }
}

/*
 * The same encoding with SAC=1 and/or DAC=1 (context 0, CID=0): the
 * context's prefix over the IID derived from the link-layer address, for
 * contexts of 64, more (covering IID bits) and fewer bits (zero between);
 * context 0 unknown or not for decompression: -ENOENT, as for any other
 * encoding (§3.1.1).
 */
static void test_tern_iphc_decompress__iids_elided_under_context_0(void **state)
{
    (void)state;
    static const struct {
        const char *prefix;
        uint8_t len;
        const char *src;
        const char *dst;
    } cases[] = {
        { "2001:db8::", 64, "2001:db8::212:4b00:0:1", "2001:db8::212:4b00:0:2" },
        { "2001:db8:0:0:1111::", 80, "2001:db8::1111:4b00:0:1", "2001:db8::1111:4b00:0:2" },
        { "2001:db8:abcd::", 48, "2001:db8:abcd:0:212:4b00:0:1", "2001:db8:abcd:0:212:4b00:0:2" },
    };
    static const uint8_t fixed[8] = { 0x60, 0, 0, 0, 0x00, 0x08, TERN_IPV6_NH_UDP, 64 };
    tern_iphc_link_t link = link_eui();
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        set_context(0, cases[c].prefix, cases[c].len, CTX_BOTH);
        for (unsigned sac = 0; sac < 2; sac++) {
            for (unsigned dac = 0; dac < 2; dac++) {
                const uint8_t in[] = { 0x7e, (uint8_t)(0x33u | (sac << 6) | (dac << 2)), 0xf3, 0x12, 0xbe, 0xef };
                uint8_t out[TERN_IPHC_DECOMPRESSED_MAX];
                size_t used = 0;
                assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 0, out, sizeof(out), &used), 48);
                assert_int_equal(used, sizeof(in));
                assert_memory_equal(out, fixed, sizeof(fixed));
                uint8_t want[16];
                addr(want, sac ? cases[c].src : "fe80::212:4b00:0:1");
                assert_memory_equal(&out[8], want, 16);
                addr(want, dac ? cases[c].dst : "fe80::212:4b00:0:2");
                assert_memory_equal(&out[24], want, 16);
            }
        }
    }
    static const uint8_t sac_in[] = { 0x7e, 0x73, 0xf3, 0x12, 0xbe, 0xef };
    static const uint8_t dac_in[] = { 0x7e, 0x37, 0xf3, 0x12, 0xbe, 0xef };
    set_context(0, "2001:db8::", 64, TERN_IPHC_CONTEXT_COMPRESS);
    assert_int_equal(decompress_err(&link, sac_in, sizeof(sac_in)), -ENOENT);
    assert_int_equal(decompress_err(&link, dac_in, sizeof(dac_in)), -ENOENT);
    memset(&contexts[0], 0, sizeof(contexts[0]));
    assert_int_equal(decompress_err(&link, sac_in, sizeof(sac_in)), -ENOENT);
    assert_int_equal(decompress_err(&link, dac_in, sizeof(dac_in)), -ENOENT);
}

static void test_tern_iphc_decompress__invalid_nhc(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    static const struct {
        uint8_t nhc[12];
        size_t len;
        int err;
    } cases[] = {
        /* EID 5 and 6: reserved */
        { { 0xea, 59, 0 }, 3, -EPROTO },
        { { 0xec, 59, 0 }, 3, -EPROTO },
        /* EID 7 with NH=1 */
        { { 0xef, 0x7a, 0x33, 59 }, 4, -EPROTO },
        /* EID 7 not followed by an IPHC header */
        { { 0xee, 0x41, 0x33, 59 }, 4, -EPROTO },
        /* unknown NHC identifiers */
        { { 0x00 }, 1, -ENOTSUP },
        { { 0xf8, 0, 0, 0, 0, 0, 0 }, 7, -ENOTSUP },
        { { 0xd0 }, 1, -ENOTSUP },
        /* UDP with the checksum elided (C=1) */
        { { 0xf7, 0x12 }, 2, -ENOTSUP },
        /* Fragment header not 6 bytes */
        { { 0xe4, 59, 5, 0, 0, 0, 0, 0 }, 8, -EPROTO },
        { { 0xe4, 59, 7, 0, 0, 0, 0, 0, 0, 0 }, 10, -EPROTO },
        /* Routing / Mobility header whose length is not a multiple of 8 */
        { { 0xe2, 59, 5, 0, 0, 0, 0, 0 }, 8, -EPROTO },
        { { 0xe8, 59, 7, 0, 0, 0, 0, 0, 0, 0 }, 10, -EPROTO },
        /* Hop-by-Hop after another extension header */
        { { 0xe7, 0, 0xe0, 59, 0 }, 5, -EPROTO },
        /* NH=1 after a fragment that is not atomic (offset 1) */
        { { 0xe5, 6, 0x00, 0x08, 0, 0, 0, 1, 0xf3, 0x12, 0, 0 }, 12, -EPROTO },
        /* ... (M=1) */
        { { 0xe5, 6, 0x00, 0x01, 0, 0, 0, 1, 0xf3, 0x12, 0, 0 }, 12, -EPROTO },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t in[32] = { 0x7e, 0x33 };
        memcpy(&in[2], cases[i].nhc, cases[i].len);
        assert_int_equal(decompress_err(&link, in, 2 + cases[i].len), cases[i].err);
    }
}

/* Hop-by-Hop right after an inner IPv6 header is fine; a chain longer than
 * TERN_IPHC_NHC_MAX is not. */
static void test_tern_iphc_decompress__chain_length_limit(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    uint8_t in[64] = { 0x7e, 0x33 };
    size_t len = 2;
    for (unsigned i = 0; i < TERN_IPHC_NHC_MAX - 1; i++) {
        in[len++] = 0xe7; /* Destination Options, NH=1 */
        in[len++] = 0;
    }
    in[len++] = 0xe6; /* the 8th: NH=0 */
    in[len++] = 59;
    in[len++] = 0;
    uint8_t out[TERN_IPHC_DECOMPRESSED_MAX];
    size_t used;
    assert_int_equal(tern_iphc_decompress(&link, in, len, 0, out, sizeof(out), &used), 40 + 8 * 8);
    /* The 8th with NH=1 and a 9th */
    in[len - 3] = 0xe7;
    in[len - 2] = 0;
    in[len - 1] = 0xe6;
    in[len++] = 59;
    in[len++] = 0;
    assert_int_equal(decompress_err(&link, in, len), -EPROTO);
}

static void test_tern_iphc_decompress__datagram_size(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    /* IPHC + NHC UDP (6 bytes), 4 bytes of payload */
    static const uint8_t in[] = { 0x7e, 0x33, 0xf3, 0x12, 0x12, 0x34, 'a', 'b', 'c', 'd' };
    uint8_t out[128];
    size_t used;
    /* 0: the frame is the datagram: 48 + 4 */
    assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 0, out, sizeof(out), &used), 48);
    assert_int_equal(out[4] << 8 | out[5], 12);
    assert_int_equal(out[44] << 8 | out[45], 12);
    /* FRAG1 of a 100-byte datagram */
    assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 100, out, sizeof(out), &used), 48);
    assert_int_equal(out[4] << 8 | out[5], 60);
    assert_int_equal(out[44] << 8 | out[45], 60);
    /* exactly headers + this payload */
    assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 52, out, sizeof(out), &used), 48);
    assert_int_equal(out[5], 12);
    /* smaller than what this frame already holds */
    assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 51, out, sizeof(out), &used), -EMSGSIZE);
    assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 10, out, sizeof(out), &used), -EMSGSIZE);
    /* a Payload Length above 65535 */
    assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 40 + 65535, out, sizeof(out), &used), 48);
    assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 40 + 65536, out, sizeof(out), &used),
                     -EMSGSIZE);
}

static void test_tern_iphc_decompress__arguments(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    static const uint8_t in[] = { 0x7a, 0x33, 59 };
    uint8_t out[64];
    size_t used;
    assert_int_equal(tern_iphc_decompress(NULL, in, 3, 0, out, sizeof(out), &used), -EINVAL);
    assert_int_equal(tern_iphc_decompress(&link, NULL, 3, 0, out, sizeof(out), &used), -EINVAL);
    assert_int_equal(tern_iphc_decompress(&link, in, 3, 0, NULL, sizeof(out), &used), -EINVAL);
    assert_int_equal(tern_iphc_decompress(&link, in, 3, 0, out, sizeof(out), NULL), -EINVAL);
    assert_int_equal(tern_iphc_decompress(&link, in, 0, 0, out, sizeof(out), &used), -EBADMSG);
    /* not an IPHC dispatch */
    static const uint8_t not_iphc[] = { 0x41, 0x33, 59 };
    assert_int_equal(tern_iphc_decompress(&link, not_iphc, 3, 0, out, sizeof(out), &used), -EINVAL);
    static const uint8_t frag1[] = { 0xc0, 0x33, 59 };
    assert_int_equal(tern_iphc_decompress(&link, frag1, 3, 0, out, sizeof(out), &used), -EINVAL);
    /* invalid links */
    tern_iphc_link_t bad = link;
    bad.src.len = 6;
    assert_int_equal(tern_iphc_decompress(&bad, in, 3, 0, out, sizeof(out), &used), -EINVAL);
    bad = link;
    bad.context_count = 17;
    assert_int_equal(tern_iphc_decompress(&bad, in, 3, 0, out, sizeof(out), &used), -EINVAL);
    bad = link;
    bad.contexts = NULL;
    assert_int_equal(tern_iphc_decompress(&bad, in, 3, 0, out, sizeof(out), &used), -EINVAL);
    set_context(7, "::", 129, CTX_BOTH);
    assert_int_equal(tern_iphc_decompress(&link, in, 3, 0, out, sizeof(out), &used), -EINVAL);
    assert_int_equal(tern_iphc_compressed_len(&link, in, 3, &used), -EINVAL);
}

/* Every output size short of the headers: -ENOBUFS, never a write past it. */
static void test_tern_iphc_decompress__output_too_small(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    static const uint8_t in[] = { 0x7e, 0x33, 0xe1, 0x04, 0x05, 0x02, 0x00, 0x00, 0xf3, 0x12, 0xaa, 0xaa };
    for (size_t room = 0; room < 56; room++) {
        uint8_t *out = malloc(room + 1);
        assert_non_null(out);
        size_t used;
        assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 0, out, room, &used), -ENOBUFS);
        free(out);
    }
    uint8_t out[56];
    size_t used;
    assert_int_equal(tern_iphc_decompress(&link, in, sizeof(in), 0, out, sizeof(out), &used), 56);
}

static void test_tern_iphc_compress__errors(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_UDP, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    udp(&p, 0xf0b1, 0xf0b2, 0x1234);
    done(&p);
    uint8_t out[64];
    size_t used;
    for (size_t len = 0; len < 40; len++) {
        assert_int_equal(tern_iphc_compress(&link, p.b, len, out, sizeof(out), &used), -EBADMSG);
    }
    p.b[0] = 0x40;
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used), -EBADMSG);
    assert_int_equal(tern_iphc_compressed_len(&link, p.b, p.len, &used), -EBADMSG);
    p.b[0] = 0x60;
    assert_int_equal(tern_iphc_compress(NULL, p.b, p.len, out, sizeof(out), &used), -EINVAL);
    assert_int_equal(tern_iphc_compress(&link, NULL, p.len, out, sizeof(out), &used), -EINVAL);
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, NULL, sizeof(out), &used), -EINVAL);
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), NULL), -EINVAL);
    assert_int_equal(tern_iphc_compressed_len(&link, p.b, p.len, NULL), -EINVAL);
    tern_iphc_link_t bad = link;
    bad.dst.len = 3;
    assert_int_equal(tern_iphc_compress(&bad, p.b, p.len, out, sizeof(out), &used), -EINVAL);

    /* Output too small: -ENOBUFS and not one byte written past the room
     * (within it a partial header may stand: callers size it first). */
    assert_int_equal(tern_iphc_compressed_len(&link, p.b, p.len, &used), 6);
    for (size_t room = 0; room < 6; room++) {
        memset(out, 0xa5, sizeof(out));
        assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, room, &used), -ENOBUFS);
        for (size_t i = room; i < sizeof(out); i++) {
            assert_int_equal(out[i], 0xa5);
        }
    }
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, 6, &used), 6);
}

/* Headers beyond the bytes given (or beyond the Payload Length) are left
 * to the caller, uncompressed. */
static void test_tern_iphc_compress__headers_past_the_input_stay_uncompressed(void **state)
{
    (void)state;
    tern_iphc_link_t link = link_eui();
    pkt_t p = { 0 };
    ip6(&p, 0, 0, TERN_IPV6_NH_UDP, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    udp(&p, 0xf0b1, 0xf0b2, 0x1234);
    done(&p);
    uint8_t out[64];
    size_t used;
    /* only 47 of the 48 bytes: UDP stays outside */
    assert_int_equal(tern_iphc_compress(&link, p.b, 47, out, sizeof(out), &used), 3);
    assert_int_equal(used, 40);
    assert_int_equal(out[2], 0x11);
    /* Payload Length 7: the UDP header is not within the datagram */
    p.b[5] = 7;
    assert_int_equal(tern_iphc_compress(&link, p.b, p.len, out, sizeof(out), &used), 3);
    assert_int_equal(used, 40);
}

/* ======================================================================== */
/* Truncation at every offset                                                */
/* ======================================================================== */

/* Every prefix of the compressed headers is -EBADMSG (read from a heap copy
 * of exactly that length, so ASan sees any read past it). */
static void truncate_everywhere(const tern_iphc_link_t *link, const pkt_t *p)
{
    uint8_t frame[1200];
    size_t used;
    int n = tern_iphc_compress(link, p->b, p->len, frame, sizeof(frame), &used);
    assert_true(n > 0);
    for (size_t len = 0; len < (size_t)n; len++) {
        uint8_t *copy = malloc(len + 1);
        assert_non_null(copy);
        memcpy(copy, frame, len);
        uint8_t out[TERN_IPHC_DECOMPRESSED_MAX];
        size_t in_used;
        assert_int_equal(tern_iphc_decompress(link, copy, len, 0, out, sizeof(out), &in_used), -EBADMSG);
        free(copy);
    }
}

static void test_tern_iphc_decompress__truncated_at_every_offset(void **state)
{
    (void)state;
    set_context(0, "2001:db8::", 64, CTX_BOTH);
    set_context(4, "2001:db8:4::", 64, CTX_BOTH);
    tern_iphc_link_t link = link_eui();
    pkt_t p;

    /* full addresses, TF=00, hop limit in-line, UDP P=00 */
    memset(&p, 0, sizeof(p));
    ip6(&p, 0xb9, 0x12345, TERN_IPV6_NH_UDP, 7, "2001:db9::1", "2001:db9::2");
    udp(&p, 1000, 2000, 0xabcd);
    done(&p);
    truncate_everywhere(&link, &p);

    /* CID byte, contexts, multicast 48 */
    memset(&p, 0, sizeof(p));
    ip6(&p, 0x02, 0x1, 59, 64, "2001:db8:4::1:2:3:4", "ff02::1:ff00:1234");
    done(&p);
    truncate_everywhere(&link, &p);

    /* extension headers and UDP */
    memset(&p, 0, sizeof(p));
    ip6(&p, 0, 0, TERN_IPV6_NH_HOP_BY_HOP, 1, "fe80::212:4b00:0:1", "ff02::16");
    static const uint8_t hbh[8] = { 60, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00 };
    put(&p, hbh, sizeof(hbh));
    static const uint8_t dopt[8] = { 44, 0x00, 0x1e, 0x04, 1, 2, 3, 4 };
    put(&p, dopt, sizeof(dopt));
    static const uint8_t frag[8] = { 17, 0, 0, 0, 9, 9, 9, 9 };
    put(&p, frag, sizeof(frag));
    udp(&p, 0xf0b3, 0x1234, 0x1111);
    done(&p);
    truncate_everywhere(&link, &p);

    /* IPv6 in IPv6 */
    memset(&p, 0, sizeof(p));
    ip6(&p, 0, 0, 41, 64, "fe80::212:4b00:0:1", "fe80::212:4b00:0:2");
    ip6(&p, 0xb9, 0, TERN_IPV6_NH_UDP, 9, "2001:db8::212:4b00:0:1", "ff05::1:3");
    udp(&p, 0xf0b1, 0xf0b2, 0x7777);
    done(&p);
    truncate_everywhere(&link, &p);
}

/* ======================================================================== */
/* Round trip over a generated set                                           */
/* ======================================================================== */

/* Sources: link-local (EUI-64 / short-form / 64-bit IID / link address),
 * contexts 0 and 4 in every mode, no context, unspecified. */
static const char *const sources[] = {
    "fe80::212:4b00:0:1", "fe80::ff:fe00:abcd", "fe80::1:2:3:4", "fe80::212:4b00:0:2",
    "2001:db8::212:4b00:0:1", "2001:db8::ff:fe00:1", "2001:db8::8:9:a:b",
    "2001:db8:4::212:4b00:0:1", "2001:db8:4::ff:fe00:1", "2001:db8:4::c",
    "2001:db9::1", "::", "fe80:1::1", "2001:db8:0:0:0:0:0:0",
};

static const char *const destinations[] = {
    "fe80::212:4b00:0:2", "fe80::ff:fe00:2", "fe80::9", "2001:db8::212:4b00:0:2",
    "2001:db8:4::ff:fe00:2", "2001:db8:4::1234:5678:9abc:def0", "2001:db9::2",
    "ff02::1", "ff02::1a", "ff05::1:3", "ff02::1:ff00:1234", "ff0e:1234::1",
    "ff3e:30:2001:db8:abcd::1234", "ff32:40:2001:db8:4::1",
    "ff02::100", "ff02:0:0:0:0:1:0:1",
};

static const struct {
    uint8_t tc;
    uint32_t flow;
} traffic[] = { { 0, 0 }, { 0xb9, 0 }, { 0x02, 0xabcde }, { 0xb9, 0x12345 }, { 0xff, 0xfffff } };

static const uint8_t hop_limits[] = { 1, 64, 255, 128 };

enum { UPPER_UDP_P00, UPPER_UDP_P01, UPPER_UDP_P10, UPPER_UDP_P11, UPPER_ICMP, UPPER_HBH_UDP,
       UPPER_DOPT_RH_UDP, UPPER_FRAG_UDP, UPPER_FIRST_FRAG, UPPER_TUNNEL, UPPER_UDP_BAD_LEN,
       UPPER_BIG_HBH, UPPER_COUNT };

static void build_upper(pkt_t *p, int upper)
{
    switch (upper) {
    case UPPER_UDP_P00:
        udp(p, 5683, 5684, 0x0001);
        put(p, "coap", 4);
        break;
    case UPPER_UDP_P01:
        udp(p, 5683, 0xf011, 0x0002);
        break;
    case UPPER_UDP_P10:
        udp(p, 0xf022, 80, 0xfffe);
        put(p, "x", 1);
        break;
    case UPPER_UDP_P11:
        udp(p, 0xf0ba, 0xf0bb, 0xffff);
        put(p, "0123456789", 10);
        break;
    case UPPER_ICMP:
        put(p, "\x80\x00\xde\xad\x00\x01\x00\x02", 8);
        break;
    case UPPER_HBH_UDP: {
        static const uint8_t hbh[8] = { 17, 0, 0x63, 0x04, 0x00, 0x1e, 0x01, 0x00 };
        put(p, hbh, sizeof(hbh));
        udp(p, 1, 2, 3);
        break;
    }
    case UPPER_DOPT_RH_UDP: {
        static const uint8_t dopt[16] = { 43, 1, 0x1e, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0 };
        static const uint8_t rh[8] = { 17, 0, 3, 0, 0, 0, 0, 0 };
        put(p, dopt, sizeof(dopt));
        put(p, rh, sizeof(rh));
        udp(p, 0xf0b0, 0xf0bf, 0x4242);
        put(p, "abc", 3);
        break;
    }
    case UPPER_FRAG_UDP: {
        static const uint8_t frag[8] = { 17, 0, 0, 0, 0xca, 0xfe, 0xba, 0xbe };
        put(p, frag, sizeof(frag));
        udp(p, 7, 0xf0b7, 0x0707);
        break;
    }
    case UPPER_FIRST_FRAG: {
        static const uint8_t frag[8] = { 17, 0, 0, 1, 0xca, 0xfe, 0xba, 0xbe };
        static const uint8_t data[12] = { 0xf0, 0xb1, 0xf0, 0xb2, 0x04, 0x00, 0x12, 0x34, 1, 2, 3, 4 };
        put(p, frag, sizeof(frag));
        put(p, data, sizeof(data));
        break;
    }
    case UPPER_TUNNEL:
        ip6(p, 0x04, 0x54321, TERN_IPV6_NH_UDP, 17, "2001:db8::212:4b00:0:1", "2001:db8:4::1");
        udp(p, 0xf0b1, 0xf0b2, 0x1234);
        put(p, "in", 2);
        break;
    case UPPER_UDP_BAD_LEN:
        udp(p, 1, 2, 3);
        put(p, "abc", 3);
        break;
    case UPPER_BIG_HBH: {
        /* 264 bytes: 262 bytes of options -> does not fit the Length byte */
        uint8_t hbh[264] = { 17, 32 };
        hbh[2] = 0x1e;
        hbh[3] = 255;
        hbh[260] = 0x01;
        hbh[261] = 2;
        put(p, hbh, sizeof(hbh));
        udp(p, 1, 2, 3);
        break;
    }
    default:
        break;
    }
}

static uint8_t upper_next_header(int upper)
{
    switch (upper) {
    case UPPER_ICMP:
        return TERN_IPV6_NH_ICMPV6;
    case UPPER_HBH_UDP:
    case UPPER_BIG_HBH:
        return TERN_IPV6_NH_HOP_BY_HOP;
    case UPPER_DOPT_RH_UDP:
        return TERN_IPV6_NH_DEST_OPTS;
    case UPPER_FRAG_UDP:
    case UPPER_FIRST_FRAG:
        return TERN_IPV6_NH_FRAGMENT;
    case UPPER_TUNNEL:
        return 41;
    default:
        return TERN_IPV6_NH_UDP;
    }
}

static void test_tern_iphc_round_trip__every_mode(void **state)
{
    (void)state;
    set_context(0, "2001:db8::", 64, CTX_BOTH);
    set_context(4, "2001:db8:4::", 64, CTX_BOTH);
    set_context(9, "2001:db8:abcd::", 48, CTX_BOTH);
    static const uint8_t s1[2] = { 0xab, 0xcd };
    static const uint8_t s2[2] = { 0x00, 0x02 };
    const tern_iphc_link_t links[3] = {
        link_of(eui_a, 8, eui_b, 8), link_of(s1, 2, s2, 2), link_of(NULL, 0, NULL, 0)
    };
    size_t count = 0;
    size_t original = 0;
    size_t compressed = 0;
    for (size_t l = 0; l < 3; l++) {
        for (size_t s = 0; s < sizeof(sources) / sizeof(sources[0]); s++) {
            for (size_t d = 0; d < sizeof(destinations) / sizeof(destinations[0]); d++) {
                for (size_t t = 0; t < sizeof(traffic) / sizeof(traffic[0]); t++) {
                    for (size_t h = 0; h < sizeof(hop_limits); h++) {
                        for (int u = 0; u < UPPER_COUNT; u++) {
                            pkt_t p;
                            memset(&p, 0, sizeof(p));
                            ip6(&p, traffic[t].tc, traffic[t].flow, upper_next_header(u), hop_limits[h],
                                sources[s], destinations[d]);
                            build_upper(&p, u);
                            done(&p);
                            if (u == UPPER_UDP_BAD_LEN) {
                                p.b[p.udp_off + 5]++;
                            }
                            uint8_t frame[1200];
                            size_t used = 0;
                            int len_first = tern_iphc_compressed_len(&links[l], p.b, p.len, &used);
                            int n = tern_iphc_compress(&links[l], p.b, p.len, frame, sizeof(frame), &used);
                            assert_true(n >= 2);
                            assert_int_equal(n, len_first);
                            memcpy(&frame[n], &p.b[used], p.len - used);
                            size_t frame_len = (size_t)n + p.len - used;
                            uint8_t out[TERN_IPHC_DECOMPRESSED_MAX + 1200];
                            size_t in_used = 0;
                            int m = tern_iphc_decompress(&links[l], frame, frame_len, 0, out, sizeof(out),
                                                         &in_used);
                            if (m < 0 || (size_t)m != used || in_used != (size_t)n ||
                                memcmp(out, p.b, used) != 0 ||
                                memcmp(&frame[in_used], &p.b[used], p.len - used) != 0) {
                                print_error("round trip failed: link %zu src %s dst %s tc %u upper %d: %d\n",
                                            l, sources[s], destinations[d], traffic[t].tc, u, m);
                                fail();
                            }
                            count++;
                            original += used;
                            compressed += (size_t)n;
                        }
                    }
                }
            }
        }
    }
    assert_true(count > 10000);
    /* A sanity bound on the compression as a whole. */
    print_message("round trip: %zu packets, %zu header bytes -> %zu\n", count, original, compressed);
    assert_true(compressed * 10 < original * 6);
}

/* ======================================================================== */
/* The direct choice of address modes against an exhaustive search          */
/* ======================================================================== */

/* xorshift32: a fixed sequence, so a failure reproduces. */
static uint32_t rnd(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* One address mode as the test sees it (RFC 6282 §3.1.1, independent of the
 * codec's tables): the X/AC bit, the 2-bit mode and which address bytes are
 * carried in-line; @c ctx: the mode uses a context. */
typedef struct {
    uint8_t ac;
    uint8_t mode;
    uint8_t n;
    uint8_t pos[16];
    bool ctx;
} test_mode_t;

static const test_mode_t src_modes[] = {
    { 0, 0, 16, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 }, false },
    { 0, 1, 8, { 8, 9, 10, 11, 12, 13, 14, 15 }, false },
    { 0, 2, 2, { 14, 15 }, false },
    { 0, 3, 0, { 0 }, false },
    { 1, 0, 0, { 0 }, false }, /* :: */
    { 1, 1, 8, { 8, 9, 10, 11, 12, 13, 14, 15 }, true },
    { 1, 2, 2, { 14, 15 }, true },
    { 1, 3, 0, { 0 }, true },
};

static const test_mode_t dst_unicast_modes[] = {
    { 0, 0, 16, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 }, false },
    { 0, 1, 8, { 8, 9, 10, 11, 12, 13, 14, 15 }, false },
    { 0, 2, 2, { 14, 15 }, false },
    { 0, 3, 0, { 0 }, false },
    { 1, 1, 8, { 8, 9, 10, 11, 12, 13, 14, 15 }, true },
    { 1, 2, 2, { 14, 15 }, true },
    { 1, 3, 0, { 0 }, true },
};

/* M = 1 (every multicast destination, the codec's documented policy). */
static const test_mode_t dst_multicast_modes[] = {
    { 0, 0, 16, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 }, false },
    { 0, 1, 6, { 1, 11, 12, 13, 14, 15 }, false },
    { 0, 2, 4, { 1, 13, 14, 15 }, false },
    { 0, 3, 1, { 15 }, false },
    { 1, 0, 6, { 1, 2, 12, 13, 14, 15 }, true },
};

/* An IPHC header with these modes (TF = 11, next header in-line, HLIM = 10). */
static size_t exhaustive_header(uint8_t *out, const uint8_t *ip, const test_mode_t *sm, unsigned sci,
                                const test_mode_t *dm, unsigned dci, bool multicast)
{
    bool cid = sci != 0 || dci != 0;
    size_t n = 0;
    out[n++] = (uint8_t)(0x60 | (3u << 3) | 2u);
    out[n++] = (uint8_t)(((cid ? 1u : 0u) << 7) | (sm->ac << 6) | (sm->mode << 4) | ((multicast ? 1u : 0u) << 3) |
                         (dm->ac << 2) | dm->mode);
    if (cid) {
        out[n++] = (uint8_t)((sci << 4) | dci);
    }
    out[n++] = ip[6];
    for (size_t i = 0; i < sm->n; i++) {
        out[n++] = ip[8 + sm->pos[i]];
    }
    for (size_t i = 0; i < dm->n; i++) {
        out[n++] = ip[24 + dm->pos[i]];
    }
    return n;
}

/* Does @p hdr decode (by the decompressor) to the IPv6 header @p ip? */
static bool exhaustive_decodes(const tern_iphc_link_t *link, const uint8_t *hdr, size_t len, const uint8_t *ip)
{
    uint8_t out[TERN_IPHC_DECOMPRESSED_MAX];
    size_t used = 0;
    int n = tern_iphc_decompress(link, hdr, len, 0, out, sizeof(out), &used);
    return n == 40 && used == len && memcmp(out, ip, 40) == 0;
}

/*
 * The reference: every (source mode, context) x (destination mode, context)
 * the compressor may use (contexts with the COMPRESS flag), each checked by
 * decompressing it; the shortest wins, ties to the lowest (source slot,
 * destination slot) with slot 0 = no context, 1 + c = context c (the
 * codec's documented order). Returns the header's length.
 */
static size_t exhaustive_best(const tern_iphc_link_t *link, const uint8_t *ip, uint8_t *best)
{
    bool multicast = ip[24] == 0xff;
    const test_mode_t *dmodes = multicast ? dst_multicast_modes : dst_unicast_modes;
    size_t dcount = multicast ? sizeof(dst_multicast_modes) / sizeof(dst_multicast_modes[0])
                              : sizeof(dst_unicast_modes) / sizeof(dst_unicast_modes[0]);
    size_t best_len = SIZE_MAX;
    uint8_t hdr[48];
    for (unsigned ss = 0; ss <= TERN_IPHC_CONTEXT_MAX; ss++) {
        for (unsigned ds = 0; ds <= TERN_IPHC_CONTEXT_MAX; ds++) {
            if ((ss > 0 && (ss > link->context_count ||
                            (link->contexts[ss - 1].flags & TERN_IPHC_CONTEXT_COMPRESS) == 0)) ||
                (ds > 0 && (ds > link->context_count ||
                            (link->contexts[ds - 1].flags & TERN_IPHC_CONTEXT_COMPRESS) == 0))) {
                continue;
            }
            for (size_t i = 0; i < sizeof(src_modes) / sizeof(src_modes[0]); i++) {
                if (src_modes[i].ctx != (ss > 0)) {
                    continue;
                }
                for (size_t j = 0; j < dcount; j++) {
                    if (dmodes[j].ctx != (ds > 0)) {
                        continue;
                    }
                    size_t len = exhaustive_header(hdr, ip, &src_modes[i], ss > 0 ? ss - 1 : 0, &dmodes[j],
                                                   ds > 0 ? ds - 1 : 0, multicast);
                    if (len < best_len && exhaustive_decodes(link, hdr, len, ip)) {
                        best_len = len;
                        memcpy(best, hdr, len);
                    }
                }
            }
        }
    }
    return best_len;
}

/* Random bits over a random number of bytes of @p a. */
static void perturb(uint8_t *a, uint32_t *x)
{
    unsigned flips = rnd(x) % 3;
    for (unsigned i = 0; i < flips; i++) {
        unsigned bit = rnd(x) % 128;
        a[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
    }
}

/* An address shaped to be compressible in some mode (or none). */
static void random_address(uint8_t *a, uint32_t *x, const uint8_t iid[2][8], const tern_iphc_context_t *ctx)
{
    for (size_t i = 0; i < 16; i++) {
        a[i] = (uint8_t)rnd(x);
    }
    unsigned shape = rnd(x) % 11;
    const tern_iphc_context_t *c = &ctx[rnd(x) % TERN_IPHC_CONTEXT_MAX];
    switch (shape) {
    case 0: /* link-local, IID of either link address */
        memset(a, 0, 8);
        a[0] = 0xfe;
        a[1] = 0x80;
        memcpy(&a[8], iid[rnd(x) % 2], 8);
        break;
    case 1: /* link-local, 16-bit IID */
        memset(a, 0, 14);
        a[0] = 0xfe;
        a[1] = 0x80;
        a[11] = 0xff;
        a[12] = 0xfe;
        break;
    case 2: /* link-local, any IID */
        memset(a, 0, 8);
        a[0] = 0xfe;
        a[1] = 0x80;
        break;
    case 3: /* a context's prefix, zero gap, IID of a link address, the 16-bit form or any */
    case 4: {
        unsigned form = rnd(x) % 3;
        memset(a, 0, 8);
        if (form == 0) {
            memcpy(&a[8], iid[rnd(x) % 2], 8);
        } else if (form == 1) {
            memset(&a[8], 0, 6);
            a[11] = 0xff;
            a[12] = 0xfe;
        }
        unsigned full = c->prefix_len / 8;
        memcpy(a, c->prefix.u8, full);
        if (c->prefix_len % 8 != 0) {
            uint8_t mask = (uint8_t)(0xFFu << (8 - c->prefix_len % 8));
            a[full] = (uint8_t)((c->prefix.u8[full] & mask) | (a[full] & (uint8_t)~mask));
        }
        break;
    }
    case 5: /* ::, or one bit from it */
        memset(a, 0, 16);
        break;
    case 6: /* ff02::XX */
        memset(a, 0, 16);
        a[0] = 0xff;
        a[1] = 0x02;
        a[15] = (uint8_t)rnd(x);
        break;
    case 7: /* ffXX::XX:XXXX or ffXX::XX:XXXX:XXXX */
        memset(&a[2], 0, 9 + (rnd(x) % 2) * 2);
        a[0] = 0xff;
        break;
    case 8: { /* RFC 3306 unicast-prefix-based multicast on a context's prefix (plen > 64: none) */
        unsigned plen = c->prefix_len <= 64 ? c->prefix_len : 64;
        a[0] = 0xff;
        a[3] = c->prefix_len;
        memset(&a[4], 0, 8);
        memcpy(&a[4], c->prefix.u8, (plen + 7) / 8);
        if (plen % 8 != 0) {
            a[4 + plen / 8] &= (uint8_t)(0xFFu << (8 - plen % 8));
        }
        break;
    }
    case 9: /* multicast, any */
        a[0] = 0xff;
        break;
    default: /* any */
        break;
    }
    if (rnd(x) % 4 == 0) {
        perturb(a, x);
    }
}

static void random_contexts(tern_iphc_context_t *ctx, uint32_t *x)
{
    static const uint8_t lens[] = { 0, 1, 7, 8, 28, 48, 60, 63, 64, 65, 72, 80, 111, 112, 113, 120, 127, 128 };
    memset(ctx, 0, sizeof(tern_iphc_context_t) * TERN_IPHC_CONTEXT_MAX);
    unsigned count = rnd(x) % 5;
    for (unsigned i = 0; i < count; i++) {
        tern_iphc_context_t *c = &ctx[rnd(x) % TERN_IPHC_CONTEXT_MAX];
        for (size_t b = 0; b < 16; b++) {
            c->prefix.u8[b] = (uint8_t)rnd(x);
        }
        if (rnd(x) % 3 == 0) {
            /* an ff prefix: unicast-looking multicast, and contexts that look alike */
            c->prefix.u8[0] = 0xff;
        }
        if (rnd(x) % 3 == 0 && i > 0) {
            *c = ctx[rnd(x) % TERN_IPHC_CONTEXT_MAX];
        }
        c->prefix_len = lens[rnd(x) % sizeof(lens)];
        c->flags = (uint8_t)(rnd(x) % 4 == 0 ? TERN_IPHC_CONTEXT_DECOMPRESS : CTX_BOTH);
    }
    dense_ids(ctx);
}

static void test_tern_iphc_compress__direct_choice_matches_exhaustive_search(void **state)
{
    (void)state;
    static const uint8_t short_a[2] = { 0x12, 0x34 };
    static const uint8_t short_b[2] = { 0x00, 0x02 };
    uint32_t x = 0x7e4a11cdu;
    size_t checked = 0;
    size_t with_context = 0;
    for (unsigned round = 0; round < 20000; round++) {
        tern_iphc_context_t ctx[TERN_IPHC_CONTEXT_MAX];
        random_contexts(ctx, &x);
        tern_iphc_link_t link;
        switch (rnd(&x) % 4) {
        case 0:
            link = link_of(eui_a, 8, eui_b, 8);
            break;
        case 1:
            link = link_of(short_a, 2, short_b, 2);
            break;
        case 2:
            link = link_of(eui_a, 8, short_b, 2);
            break;
        default:
            link = link_of(NULL, 0, NULL, 0);
            break;
        }
        link.contexts = ctx;
        /* The IIDs the link addresses give (RFC 4944 §6, RFC 6282 §3.2.2). */
        uint8_t iid[2][8] = { { 0 }, { 0 } };
        const tern_iphc_l2addr_t *l2[2] = { &link.src, &link.dst };
        for (size_t i = 0; i < 2; i++) {
            tern_ipv6_addr_t tmp;
            if (l2[i]->len != 0 && tern_ipv6_iid_from_l2addr(&tmp, l2[i]->u8, l2[i]->len) == 0) {
                memcpy(iid[i], &tmp.u8[8], 8);
            }
        }
        uint8_t ip[40] = { 0x60, 0, 0, 0, 0, 0, 59, 64 };
        random_address(&ip[8], &x, (const uint8_t(*)[8])iid, ctx); /* C11: no implicit const for arrays of arrays */
        random_address(&ip[24], &x, (const uint8_t(*)[8])iid, ctx);

        uint8_t expected[48];
        size_t expected_len = exhaustive_best(&link, ip, expected);
        uint8_t got[64];
        size_t used = 0;
        int n = tern_iphc_compress(&link, ip, sizeof(ip), got, sizeof(got), &used);
        if (n < 0 || (size_t)n != expected_len || memcmp(got, expected, expected_len) != 0) {
            char text[2][TERN_IPV6_ADDR_STRLEN];
            tern_ipv6_addr_t a;
            memcpy(a.u8, &ip[8], 16);
            tern_ipv6_addr_to_str(&a, text[0], sizeof(text[0]));
            memcpy(a.u8, &ip[24], 16);
            tern_ipv6_addr_to_str(&a, text[1], sizeof(text[1]));
            print_error("round %u: src %s dst %s: compressor %d bytes (%02x %02x), search %zu (%02x %02x)\n",
                        round, text[0], text[1], n, got[0], got[1], expected_len, expected[0], expected[1]);
            fail();
        }
        assert_int_equal(tern_iphc_compressed_len(&link, ip, sizeof(ip), &used), n);
        checked++;
        /* SAC = 1 with SAM != 00, or DAC = 1 */
        if (((expected[1] & 0x40u) != 0 && (expected[1] & 0x30u) != 0) || (expected[1] & 0x04u) != 0) {
            with_context++;
        }
    }
    print_message("direct choice = exhaustive search: %zu headers, %zu with a context\n", checked, with_context);
    assert_true(with_context > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_tern_iphc_compress__link_local_eui64_udp_fully_elided, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__link_local_short_addresses, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__link_local_16_bit_inline, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__link_local_64_bit_inline, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__global_no_context_inline, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__context_0_stateful, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__context_identifier_extension, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__every_stateful_mode, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__unspecified_source_without_contexts, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__every_multicast_mode, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__traffic_class_and_flow_label_modes, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__hop_limit_modes, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__udp_port_modes, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__udp_length_mismatch_stays_inline, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__hop_by_hop_then_udp, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__rpl_option_then_udp, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__atomic_fragment_then_udp, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__first_fragment_ends_chain, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__ipv6_in_ipv6, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__dest_opts_then_routing_then_udp, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__mobility_header, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__padding_kept_when_not_recreatable, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__context_covers_iid_bits, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__short_context_needs_zero_gap, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__context_choice, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__context_and_iid_matched_on_every_bit, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__reserved_address_modes, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__sparse_context_table, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__unknown_or_invalid_context, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__link_address_needed, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__link_local_elided_every_hop_limit_and_link_address,
                               setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__iids_elided_under_context_0, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__invalid_nhc, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__chain_length_limit, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__datagram_size, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__arguments, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__output_too_small, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__errors, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__direct_choice_matches_exhaustive_search, setup),
        cmocka_unit_test_setup(test_tern_iphc_compress__headers_past_the_input_stay_uncompressed, setup),
        cmocka_unit_test_setup(test_tern_iphc_decompress__truncated_at_every_offset, setup),
        cmocka_unit_test_setup(test_tern_iphc_round_trip__every_mode, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
