/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IPv6-in-IPv6 (RFC 2473) at a router with two interfaces, under
 *        virtual time: the tunnel exit (decapsulation, nesting, malformed
 *        inner packets), the tunnel entry of a source-routing node for the
 *        packets it forwards (RFC 6554 §4.1, RFC 9008; golden bytes, tunnel
 *        MTU: the tunnel packet of an original packet of up to 1280 bytes
 *        fragmented, Packet Too Big above, RFC 2473 §7.1), and delivery of
 *        packets for an address of another interface
 *        (RFC 1122 §3.3.4.2).
 *
 * The fixture of vrouter.h, as in test_ipv6_forward.c: two test devices
 * carrying bare IPv6 (raw link, 48-bit addresses): if1 on 2001:db8:1::/64
 * (MTU 1500), if2 on 2001:db8:2::/64 (MTU 1280). The peer on if1
 * (2001:db8:1::100) and the first hop on if2 (2001:db8:2::a) are in the
 * neighbor cache from their solicitations, so packets go out at once. The
 * source route provider is a stub: 2001:db8:2::c is three hops away (via ::a
 * and ::b), 2001:db8:2::d one hop.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vrouter.h"
#include "sink.h"
#include "tern/ipv6/fib.h"
#include "tern/ipv6/ipv6.h"
#include "tern/ipv6/rpi.h"
#include "tern/ipv6/srh.h"
#include "tern/netapi.h"
#include "tern/netreg.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/rpl_hbh.h"

static sink_t udp_sink;
static tern_netreg_entry_t udp_entry;

/* An IPv6 header from @p src to @p dst at @p out, next header @p nh, @p plen bytes follow. */
static void header(uint8_t *out, const char *src, const char *dst, uint8_t nh, uint8_t hop, size_t plen)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)plen, .next_header = nh, .hop_limit = hop,
                           .src = A(src), .dst = A(dst) };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
}

/* A UDP datagram (port 7 to 5000, "tunnelled") from @p src to @p dst, checksum filled. */
static size_t build_udp(uint8_t *out, const char *src, const char *dst, uint8_t hop)
{
    static const char text[] = "tunnelled";
    size_t ulen = 8 + sizeof(text) - 1;
    header(out, src, dst, TERN_IPV6_NH_UDP, hop, ulen);
    uint8_t *u = out + 40;
    u[0] = 0;
    u[1] = 7;
    u[2] = 0x13;
    u[3] = 0x88;
    u[4] = 0;
    u[5] = (uint8_t)ulen;
    u[6] = 0;
    u[7] = 0;
    memcpy(u + 8, text, sizeof(text) - 1);
    tern_ipv6_addr_t s = A(src);
    tern_ipv6_addr_t d = A(dst);
    tern_checksum_span_t span = { .data = u, .len = ulen };
    uint16_t sum = tern_checksum_finish(
        tern_checksum_add_spans(tern_checksum_ipv6_pseudo(0, &s, &d, (uint32_t)ulen, TERN_IPV6_NH_UDP), &span, 1));
    u[6] = (uint8_t)(sum >> 8);
    u[7] = (uint8_t)sum;
    return 40 + ulen;
}

/* @p inner (@p len bytes) inside an outer header from @p src to @p dst (next header 41). */
static size_t encapsulate(uint8_t *out, const char *src, const char *dst, const uint8_t *inner, size_t len)
{
    memmove(out + 40, inner, len);
    header(out, src, dst, TERN_IPV6_NH_IPV6, 64, len);
    return 40 + len;
}

/* The stub provider: ::c by ::a and ::b (three hops), ::d a neighbor; nothing else. */
static unsigned provider_calls;
static int provider(void *ctx, const tern_ipv6_addr_t *dst, tern_ipv6_source_route_t *route)
{
    (void)ctx;
    provider_calls++;
    tern_ipv6_addr_t c = A("2001:db8:2::c");
    tern_ipv6_addr_t d = A("2001:db8:2::d");
    route->if_index = links[1].netif.index;
    if (tern_ipv6_addr_equal(dst, &c)) {
        route->hops[0] = A("2001:db8:2::a");
        route->hops[1] = A("2001:db8:2::b");
        route->hops[2] = c;
        route->count = 3;
        return 1;
    }
    if (tern_ipv6_addr_equal(dst, &d)) {
        route->hops[0] = d;
        route->count = 1;
        return 1;
    }
    return 0;
}

static void set_provider(bool on)
{
    tern_ipv6_source_router_t cfg = { .fn = on ? provider : NULL, .ctx = NULL };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_SOURCE_ROUTER, 0, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
}

static int setup(void **state)
{
    (void)state;
    vrouter_init();
    sink_add(&stack, &udp_sink, "udp", 6, 8, true);
    tern_netreg_entry_init(&udp_entry, TERN_NETREG_DEMUX_CTX_ALL, &udp_sink.module);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &udp_entry), 0);
    vrouter_start();
    solicit_from(1, "2001:db8:2::a");
    solicit_from(1, "2001:db8:2::d");
    provider_calls = 0;
    clear_sent();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    sink_release_kept(&stack, &udp_sink); /* before vrouter_teardown() checks the pktbuf */
    vrouter_teardown();
    return 0;
}

/* ------------------------------------------------------------ exit */

static void test_tunnel_decap__inner_udp_delivered(void **state)
{
    (void)state;
    uint8_t inner[128];
    uint8_t pkt[256];
    size_t ilen = build_udp(inner, "2001:db8:9::5", "2001:db8:1::1", 17);
    receive(0, pkt, encapsulate(pkt, "2001:db8:1::100", "2001:db8:1::1", inner, ilen));
    assert_int_equal(ip.counters[TERN_IPV6_TUN_DECAP], 1);
    assert_int_equal(udp_sink.nkept, 1);
    /* [UDP..., IPV6 (the inner header), NETIF]: the outer headers are gone. */
    tern_pkt_t *got = udp_sink.kept[0];
    assert_int_equal(got->type, TERN_NETTYPE_UDP);
    assert_int_equal(got->size, ilen - 40);
    assert_memory_equal(got->data, inner + 40, ilen - 40);
    tern_pkt_t *h = got->next;
    assert_non_null(h);
    assert_int_equal(h->type, TERN_NETTYPE_IPV6);
    assert_int_equal(h->size, 40);
    assert_memory_equal(h->data, inner, 40); /* hop limit 17 untouched by the exit (RFC 2473 §3.3) */
    assert_non_null(h->next);
    assert_int_equal(h->next->type, TERN_NETTYPE_NETIF);
    assert_null(h->next->next);
    const tern_netif_hdr_t *nh = h->next->data;
    assert_int_equal(nh->if_index, links[0].netif.index); /* as if it arrived on the same interface */
    assert_int_equal(ip.counters[TERN_IPV6_RX_PACKETS], 4); /* the NSs of setup and this one, once */
    assert_int_equal(links[0].nsent + links[1].nsent, 0);
}

static void test_tunnel_decap__inner_for_another_node_forwarded(void **state)
{
    (void)state;
    uint8_t inner[256];
    uint8_t pkt[320];
    size_t ilen = build_echo(inner, "2001:db8:1::100", "2001:db8:2::a", 9, 16);
    receive(0, pkt, encapsulate(pkt, "2001:db8:1::100", "2001:db8:1::1", inner, ilen));
    assert_int_equal(ip.counters[TERN_IPV6_TUN_DECAP], 1);
    /* The inner packet goes by the forwarding rules: its hop limit 9 becomes 8. */
    assert_int_equal(links[1].nsent, 1);
    assert_int_equal(links[1].sent_len[0], ilen);
    inner[7] = 8;
    assert_memory_equal(links[1].sent[0], inner, ilen);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 1);
}

static void test_tunnel_decap__after_a_routing_header_with_segments_left_0(void **state)
{
    (void)state;
    uint8_t inner[256];
    uint8_t pkt[320];
    size_t ilen = build_udp(inner, "2001:db8:9::5", "2001:db8:1::1", 64);
    /* Outer, then a Source Routing Header already used up (Segments Left 0, one
     * address of 16 octets: Hdr Ext Len 2), then the inner packet. */
    size_t srh = 24;
    memcpy(pkt + 40 + srh, inner, ilen);
    memset(pkt + 40, 0, srh);
    pkt[40] = TERN_IPV6_NH_IPV6;
    pkt[41] = 2;
    pkt[42] = 3;
    pkt[43] = 0;
    tern_ipv6_addr_t a = A("2001:db8:1::7");
    memcpy(pkt + 48, a.u8, 16);
    header(pkt, "2001:db8:1::100", "2001:db8:1::1", TERN_IPV6_NH_ROUTING, 64, srh + ilen);
    receive(0, pkt, 40 + srh + ilen);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_DECAP], 1);
    assert_int_equal(udp_sink.nkept, 1);
}

static void test_tunnel_decap__nested_dropped_and_counted(void **state)
{
    (void)state;
    uint8_t inner[128];
    uint8_t mid[256];
    uint8_t pkt[320];
    size_t ilen = build_udp(inner, "2001:db8:9::5", "2001:db8:1::1", 64);
    size_t mlen = encapsulate(mid, "2001:db8:1::100", "2001:db8:1::1", inner, ilen);
    receive(0, pkt, encapsulate(pkt, "2001:db8:1::100", "2001:db8:1::1", mid, mlen));
    /* One decapsulation per packet (TERN_IPV6_TUNNEL_DEPTH_MAX): the second is refused. */
    assert_int_equal(ip.counters[TERN_IPV6_TUN_DECAP], 1);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_NESTED], 1);
    assert_int_equal(udp_sink.nkept, 0);
    assert_int_equal(links[0].nsent + links[1].nsent, 0);
}

static void test_tunnel_decap__malformed_inner_dropped_and_counted(void **state)
{
    (void)state;
    uint8_t inner[128];
    uint8_t pkt[320];
    size_t ilen = build_udp(inner, "2001:db8:9::5", "2001:db8:1::1", 64);
    /* Shorter than an IPv6 header. */
    receive(0, pkt, encapsulate(pkt, "2001:db8:1::100", "2001:db8:1::1", inner, 39));
    /* Not version 6. */
    inner[0] = 0x45;
    receive(0, pkt, encapsulate(pkt, "2001:db8:1::100", "2001:db8:1::1", inner, ilen));
    inner[0] = 0x60;
    /* Its Payload Length runs past what the outer packet carries. */
    inner[5] = (uint8_t)(inner[5] + 1u);
    receive(0, pkt, encapsulate(pkt, "2001:db8:1::100", "2001:db8:1::1", inner, ilen));
    assert_int_equal(ip.counters[TERN_IPV6_TUN_MALFORMED], 3);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_DECAP], 0);
    /* A multicast inner source: decapsulated, then refused by the receive path's checks. */
    inner[5] = (uint8_t)(inner[5] - 1u);
    tern_ipv6_addr_t m = A("ff02::1");
    memcpy(inner + 8, m.u8, 16);
    uint32_t hdr_errors = ip.counters[TERN_IPV6_RX_HDR_ERRORS];
    receive(0, pkt, encapsulate(pkt, "2001:db8:1::100", "2001:db8:1::1", inner, ilen));
    assert_int_equal(ip.counters[TERN_IPV6_TUN_DECAP], 1);
    assert_int_equal(ip.counters[TERN_IPV6_RX_HDR_ERRORS], hdr_errors + 1);
    assert_int_equal(udp_sink.nkept, 0);
    assert_int_equal(links[0].nsent + links[1].nsent, 0);
}

/* ------------------------------------------------------------ entry */

static void test_tunnel_forward__encapsulated_golden_bytes(void **state)
{
    (void)state;
    set_provider(true);
    uint8_t inner[256];
    uint8_t pkt[256];
    size_t ilen = build_echo(inner, "2001:db8:1::100", "2001:db8:2::c", 64, 8);
    memcpy(pkt, inner, ilen);
    receive(0, pkt, ilen);
    assert_int_equal(links[0].nsent, 0);
    assert_int_equal(links[1].nsent, 1);
    /* Outer header: payload 16 (SRH) + 56 (inner), next header Routing, hop
     * limit 64 (the default), from our if2 address to the first hop. */
    static const uint8_t outer[40 + 16] = {
        0x60, 0x00, 0x00, 0x00, 0x00, 0x48, 0x2b, 0x40,
        0x20, 0x01, 0x0d, 0xb8, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
        0x20, 0x01, 0x0d, 0xb8, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a,
        /* SRH (RFC 6554 §3): next header 41, Hdr Ext Len 1, type 3, Segments
         * Left 2, CmprI 15 / CmprE 15, Pad 6, then ::b and ::c by their last
         * octet, and 6 octets of padding. */
        0x29, 0x01, 0x03, 0x02, 0xff, 0x60, 0x00, 0x00,
        0x0b, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    };
    assert_int_equal(links[1].sent_len[0], sizeof(outer) + ilen);
    assert_memory_equal(links[1].sent[0], outer, sizeof(outer));
    /* The original packet, hop limit 63 (RFC 8200 §3), otherwise untouched. */
    inner[7] = 63;
    assert_memory_equal(links[1].sent[0] + sizeof(outer), inner, ilen);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 1);
    assert_int_equal(ip.counters[TERN_IPV6_SRH_INSERTED], 1);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 1);
    set_provider(false);
}

/* The Packet Too Big that link 0 sent for a packet from the peer: its MTU field; the quoted hop limit at @p hop. */
static uint32_t sent_ptb_mtu(uint8_t *hop)
{
    assert_int_equal(links[0].nsent, 1);
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(0, 0, &h), TERN_ICMPV6_PACKET_TOO_BIG);
    tern_ipv6_addr_t src = A("2001:db8:1::100");
    assert_true(tern_ipv6_addr_equal(&h.dst, &src));
    const uint8_t *mtu = &links[0].sent[0][44];
    *hop = links[0].sent[0][48 + 7];
    return (uint32_t)mtu[0] << 24 | (uint32_t)mtu[1] << 16 | (uint32_t)mtu[2] << 8 | mtu[3];
}

static void test_tunnel_forward__above_1280_packet_too_big(void **state)
{
    (void)state;
    set_provider(true);
    static uint8_t pkt[1600];
    /* RFC 2473 §7.1 (b): larger than 1280, Packet Too Big with max(tunnel
     * MTU, 1280) = max(1280 - 40 - 16, 1280); without fragmentation the
     * tunnel MTU itself. */
    size_t len = build_echo(pkt, "2001:db8:1::100", "2001:db8:2::c", 64, 1281 - 48);
    assert_int_equal(len, 1281);
    receive(0, pkt, len);
    assert_int_equal(links[1].nsent, 0);
    uint8_t hop = 0;
    assert_int_equal(sent_ptb_mtu(&hop), TERN_CONF_IPV6_FRAG ? 1280 : 1224);
    assert_int_equal(hop, 64); /* the packet quoted as it arrived */
    assert_int_equal(ip.counters[TERN_IPV6_TUN_TOO_BIG], 1);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 0);
    /* 1280 - 40 - 16 = 1224 fits whole. */
    clear_sent();
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:2::c", 64, 1224 - 48));
    assert_int_equal(links[1].nsent, 1);
    assert_int_equal(links[1].sent_len[0], 1280);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 1);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_FRAG], 0);
    set_provider(false);
}

#if TERN_CONF_IPV6_FRAG
/* Outer header (payload @p plen, next header Routing) and SRH (next header Fragment) of a tunnel fragment. */
static void assert_fragment_headers(const uint8_t *b, uint16_t plen)
{
    static const uint8_t outer[40 + 16] = {
        0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2b, 0x40,
        0x20, 0x01, 0x0d, 0xb8, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
        0x20, 0x01, 0x0d, 0xb8, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a,
        /* SRH as in the golden bytes above, but naming the Fragment header (44). */
        0x2c, 0x01, 0x03, 0x02, 0xff, 0x60, 0x00, 0x00,
        0x0b, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    };
    uint8_t want[sizeof(outer)];
    memcpy(want, outer, sizeof(outer));
    want[4] = (uint8_t)(plen >> 8);
    want[5] = (uint8_t)plen;
    assert_memory_equal(b, want, sizeof(want));
}

static void test_tunnel_forward__up_to_1280_tunnel_packet_fragmented(void **state)
{
    (void)state;
    set_provider(true);
    static uint8_t inner[1600];
    static uint8_t pkt[1600];
    /* 1225 bytes: one above the tunnel MTU (1280 - 40 - 16), at most 1280:
     * RFC 2473 §7.1 (a), encapsulated, then the tunnel packet fragmented. */
    size_t ilen = build_echo(inner, "2001:db8:1::100", "2001:db8:2::c", 64, 1225 - 48);
    memcpy(pkt, inner, ilen);
    receive(0, pkt, ilen);
    assert_int_equal(links[0].nsent, 0);
    assert_int_equal(links[1].nsent, 2);
    /* (1280 - 40 - 16 - 8) & ~7 = 1216 bytes in the first fragment, 9 in
     * the last; the last is sent first (frag.c). */
    const uint8_t *last = links[1].sent[0];
    const uint8_t *first = links[1].sent[1];
    assert_int_equal(links[1].sent_len[1], 40 + 16 + 8 + 1216);
    assert_int_equal(links[1].sent_len[0], 40 + 16 + 8 + 9);
    assert_fragment_headers(first, 16 + 8 + 1216);
    assert_fragment_headers(last, 16 + 8 + 9);
    /* Fragment headers (RFC 8200 §4.5): next header 41, offsets 0 (M) and
     * 1216 / 8 = 152, the same Identification. */
    static const uint8_t frag_first[4] = { 0x29, 0x00, 0x00, 0x01 };
    static const uint8_t frag_last[4] = { 0x29, 0x00, 0x04, 0xc0 };
    assert_memory_equal(first + 56, frag_first, 4);
    assert_memory_equal(last + 56, frag_last, 4);
    assert_memory_equal(first + 60, last + 60, 4);
    /* The slices are the original packet, hop limit 63 (RFC 8200 §3). */
    inner[7] = 63;
    assert_memory_equal(first + 64, inner, 1216);
    assert_memory_equal(last + 64, inner + 1216, 9);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_FRAG], 1);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 1);
    assert_int_equal(ip.counters[TERN_IPV6_FRAG_OK], 1);
    assert_int_equal(ip.counters[TERN_IPV6_FRAG_SENT], 2);
    assert_int_equal(ip.counters[TERN_IPV6_SRH_INSERTED], 2);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 1);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_TOO_BIG], 0);
    /* 1280 bytes, the most that is fragmented: 1216 + 24. */
    clear_sent();
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:2::c", 64, 1280 - 48));
    assert_int_equal(links[1].nsent, 2);
    assert_int_equal(links[1].sent_len[0], 40 + 16 + 8 + 64);
    assert_int_equal(links[1].sent_len[1], 1280);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_FRAG], 2);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_TOO_BIG], 0);
    set_provider(false);
}
#else
static void test_tunnel_forward__up_to_1280_tunnel_packet_fragmented(void **state)
{
    (void)state;
    set_provider(true);
    static uint8_t pkt[1600];
    /* Without IPv6 fragmentation: Packet Too Big with the tunnel MTU, as before. */
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:2::c", 64, 1225 - 48));
    assert_int_equal(links[1].nsent, 0);
    uint8_t hop = 0;
    assert_int_equal(sent_ptb_mtu(&hop), 1224);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_TOO_BIG], 1);
    set_provider(false);
}
#endif

static void test_tunnel_forward__one_hop_route_and_unknown_destination_not_tunnelled(void **state)
{
    (void)state;
    set_provider(true);
    uint8_t pkt[256];
    /* A neighbor: the packet as it is, hop limit decremented. */
    size_t len = build_echo(pkt, "2001:db8:1::100", "2001:db8:2::d", 64, 8);
    receive(0, pkt, len);
    assert_int_equal(links[1].nsent, 1);
    assert_int_equal(links[1].sent_len[0], len);
    assert_int_equal(links[1].sent[0][7], 63);
    /* Not the provider's: by the forwarding table, as before. */
    receive(1, pkt, build_echo(pkt, "2001:db8:2::a", "2001:db8:1::100", 64, 8));
    assert_int_equal(links[0].nsent, 1);
    assert_int_equal(links[0].sent[0][6], TERN_IPV6_NH_ICMPV6);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 0);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 2);
    assert_int_equal(provider_calls, 2);
    set_provider(false);
}

/* ------------------------------------------------------------ RPL root (rpi.c) */

/* The RPL data-plane state of a root of rank 256 with RPL on links[@p link] (instance 1, option
 * 0x63), in @p storing mode or not. */
static void set_root_state_on(unsigned link, bool storing)
{
    tern_ipv6_rpl_state_t st;
    memset(&st, 0, sizeof(st));
    st.if_index[0] = links[link].netif.index;
    st.rank = 256;
    st.min_hop_rank_increase = 256;
    st.instance_id = 1;
    st.option_type = TERN_RPL_HBH_OPT_TYPE;
    st.running = true;
    st.joined = true;
    st.root = true;
    st.storing = storing;
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st)), (int)sizeof(st));
}

/* The root's state with RPL on if2 (the mesh side). */
static void set_root_state(bool storing)
{
    set_root_state_on(1, storing);
}

/* A route on if2 to @p prefix / @p len via @p via, learnt from RPL (origin TERN_FIB_ROUTING) or static. */
static void add_route(const char *prefix, uint8_t len, const char *via, uint8_t origin)
{
    tern_ipv6_route_config_t r = { .prefix = A(prefix), .next_hop = A(via), .prefix_len = len, .origin = origin,
                                   .lifetime_s = (origin == TERN_FIB_ROUTING) ? 300u : 0u };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, links[1].netif.index, &r, sizeof(r)),
                     (int)sizeof(r));
}

/*
 * RFC 9008 §7.2.2: a storing root encapsulates a packet from outside the RPL
 * domain (if1) for a DAO target (a /128 route from RPL on if2): outer header
 * to the target with the RPI, no Source Routing Header, sent to the DAO
 * route's next hop; the inner packet's hop limit decremented.
 */
static void test_tunnel_forward__storing_root_encapsulates_with_rpi_golden_bytes(void **state)
{
    (void)state;
    set_root_state(true);
    add_route("2001:db8:2::c", 128, "2001:db8:2::a", TERN_FIB_ROUTING);
    uint8_t inner[256];
    uint8_t pkt[256];
    size_t ilen = build_echo(inner, "2001:db8:1::100", "2001:db8:2::c", 64, 8);
    memcpy(pkt, inner, ilen);
    receive(0, pkt, ilen);
    assert_int_equal(links[0].nsent, 0);
    assert_int_equal(links[1].nsent, 1);
    /* Outer header: payload 8 (RPI) + 56 (inner), next header Hop-by-Hop,
     * hop limit 64, from our if2 address to the target itself. */
    static const uint8_t outer[40 + 8] = {
        0x60, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x40,
        0x20, 0x01, 0x0d, 0xb8, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
        0x20, 0x01, 0x0d, 0xb8, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c,
        /* Hop-by-Hop (RFC 6553 §3): next header 41, length 0, option 0x63 of
         * 4 octets: O (down), instance 1, SenderRank 256. */
        0x29, 0x00, 0x63, 0x04, 0x80, 0x01, 0x01, 0x00,
    };
    assert_int_equal(links[1].sent_len[0], sizeof(outer) + ilen);
    assert_memory_equal(links[1].sent[0], outer, sizeof(outer));
    inner[7] = 63;
    assert_memory_equal(links[1].sent[0] + sizeof(outer), inner, ilen);
    /* To the DAO route's next hop (its link address, from its NS in setup). */
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 1);
    assert_int_equal(ip.counters[TERN_IPV6_RPI_ADDED], 1);
    assert_int_equal(ip.counters[TERN_IPV6_SRH_INSERTED], 0);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 1);
}

/*
 * What a storing root does not tunnel: a target that is the next hop itself
 * (a neighbor), a destination reached by a prefix route (not known to be
 * RPL-aware, RFC 9008 §7.2.4), and packets from the mesh (they carry their
 * own RPI): forwarded as they are.
 */
static void test_tunnel_forward__storing_root_neighbor_prefix_and_mesh_not_tunnelled(void **state)
{
    (void)state;
    set_root_state(true);
    add_route("2001:db8:2::a", 128, "2001:db8:2::a", TERN_FIB_ROUTING);
    add_route("2001:db8:7::", 64, "2001:db8:2::a", TERN_FIB_ROUTING);
    add_route("2001:db8:2::c", 128, "2001:db8:2::a", TERN_FIB_ROUTING);
    uint8_t pkt[256];
    size_t len = build_echo(pkt, "2001:db8:1::100", "2001:db8:2::a", 64, 8);
    receive(0, pkt, len);
    len = build_echo(pkt, "2001:db8:1::100", "2001:db8:7::5", 64, 8);
    receive(0, pkt, len);
    len = build_echo(pkt, "2001:db8:2::d", "2001:db8:2::c", 64, 8);
    receive(1, pkt, len);
    assert_int_equal(links[1].nsent, 3);
    for (unsigned k = 0; k < 3; k++) {
        assert_int_equal(links[1].sent_len[k], len);
        assert_int_equal(links[1].sent[k][6], TERN_IPV6_NH_ICMPV6);
        assert_int_equal(links[1].sent[k][7], 63);
    }
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 0);
    assert_int_equal(ip.counters[TERN_IPV6_RPI_ADDED], 0);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 3);
}

/* A packet from the mesh (if2) for ::c with an RPI of @p flags, instance @p instance and SenderRank @p rank. */
static size_t build_mesh_echo(uint8_t *out, uint8_t flags, uint8_t instance, uint16_t rank)
{
    uint8_t tmp[256];
    size_t len = build_echo(tmp, "2001:db8:2::e", "2001:db8:2::c", 64, 8);
    memcpy(out, tmp, 40);
    const uint8_t hbh[8] = { TERN_IPV6_NH_ICMPV6, 0, 0x63, 4, flags, instance, (uint8_t)(rank >> 8), (uint8_t)rank };
    memcpy(out + 40, hbh, 8);
    memcpy(out + 48, tmp + 40, len - 40);
    out[4] = 0;
    out[5] = (uint8_t)(len - 40 + 8);
    out[6] = TERN_IPV6_NH_HOP_BY_HOP;
    return len + 8;
}

/*
 * Non-storing: a packet from one mesh node to another goes up to the root,
 * then down in the root's tunnel. The root checks the RPI the packet came
 * with (RFC 6550 §11.2.2) before it tunnels it: consistent, it becomes the
 * root's (O set, SenderRank 256) in the inner packet; the outer packet gets
 * its own; a rank inconsistency sets R, a second one drops the packet, an
 * unknown instance is dropped.
 */
static void test_tunnel_forward__nonstoring_root_checks_the_rpi_of_mesh_packets(void **state)
{
    (void)state;
    set_root_state(false);
    set_provider(true);
    static uint8_t pkt[256];
    static uint8_t want[256];
    /* Up from a node of rank 512 (O clear): consistent. */
    size_t len = build_mesh_echo(pkt, 0x00, 1, 512);
    memcpy(want, pkt, len);
    receive(1, pkt, len);
    assert_int_equal(links[1].nsent, 1);
    const uint8_t *b = links[1].sent[0];
    /* Outer header, outer RPI (O, rank 256, naming the SRH), SRH (16), inner packet. */
    assert_int_equal(links[1].sent_len[0], 40 + 8 + 16 + len);
    assert_int_equal(b[6], TERN_IPV6_NH_HOP_BY_HOP);
    static const uint8_t outer_rpi[8] = { TERN_IPV6_NH_ROUTING, 0x00, 0x63, 0x04, 0x80, 0x01, 0x01, 0x00 };
    assert_memory_equal(b + 40, outer_rpi, 8);
    assert_int_equal(b[48], TERN_IPV6_NH_IPV6);
    /* Inner: hop limit 63, RPI with O set and SenderRank 256. */
    want[7] = 63;
    want[44] = 0x80;
    want[46] = 0x01;
    want[47] = 0x00;
    assert_memory_equal(b + 64, want, len);
    assert_int_equal(ip.counters[TERN_IPV6_RPI_FORWARDED], 1);
    assert_int_equal(ip.counters[TERN_IPV6_RPI_RANK_ERROR], 0);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 1);
    /* Up from a sender of lower rank than the root's (DAGRank 0 < 1): R set, still tunnelled. */
    clear_sent();
    len = build_mesh_echo(pkt, 0x00, 1, 128);
    receive(1, pkt, len);
    assert_int_equal(links[1].nsent, 1);
    assert_int_equal(links[1].sent[0][64 + 44], 0xc0);
    assert_int_equal(ip.counters[TERN_IPV6_RPI_RANK_ERROR], 1);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 2);
    /* With R already set: the second inconsistency, dropped. */
    clear_sent();
    receive(1, pkt, build_mesh_echo(pkt, 0x40, 1, 128));
    assert_int_equal(ip.counters[TERN_IPV6_RPI_DROPPED_RANK], 1);
    /* Another instance: dropped. */
    receive(1, pkt, build_mesh_echo(pkt, 0x00, 2, 512));
    assert_int_equal(ip.counters[TERN_IPV6_RPI_UNKNOWN_INSTANCE], 1);
    assert_int_equal(links[0].nsent + links[1].nsent, 0);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 2);
    set_provider(false);
}

/*
 * A tunnel out of the RPL domain (a source route over an interface RPL does
 * not run on): the RPI the packet came with is removed (RFC 6553 §5, RFC
 * 9008 §7) before encapsulation, and the inner header says so (next header,
 * payload length), no outer RPI is added.
 */
static void test_tunnel_forward__rpi_removed_when_the_tunnel_leaves_the_rpl_domain(void **state)
{
    (void)state;
    set_root_state_on(0, false); /* RPL on if1 only: the source route over if2 leaves the domain */
    set_provider(true);
    static uint8_t pkt[256];
    size_t len = build_mesh_echo(pkt, 0x00, 1, 512);
    const tern_ipv6_addr_t src = A("2001:db8:1::e"); /* from the RPL domain, on if1 */
    memcpy(pkt + 8, src.u8, 16);
    receive(0, pkt, len);
    assert_int_equal(links[1].nsent, 1);
    const uint8_t *b = links[1].sent[0];
    size_t inner_len = len - 8;
    assert_int_equal(links[1].sent_len[0], 40 + 16 + inner_len);
    assert_int_equal(b[6], TERN_IPV6_NH_ROUTING);
    const uint8_t *inner = b + 56;
    assert_int_equal(inner[6], TERN_IPV6_NH_ICMPV6);
    assert_int_equal((inner[4] << 8) | inner[5], inner_len - 40);
    assert_int_equal(inner[7], 63);
    assert_memory_equal(inner + 8, pkt + 8, 32);
    assert_memory_equal(inner + 40, pkt + 48, inner_len - 40);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 1);
    set_provider(false);
}

/* ------------------------------------------------------------ errors (RFC 2473 §8.2) */

/* An ICMPv6 error of @p type / @p code from 2001:db8:2::a to us quoting @p invoking (@p len bytes, at most 1232). */
static size_t build_error(uint8_t *out, uint8_t type, uint8_t code, const uint8_t *invoking, size_t len)
{
    static uint8_t msg[1280];
    memset(msg, 0, 8);
    msg[0] = type;
    msg[1] = code;
    memcpy(msg + 8, invoking, len);
    return build_icmp(out, "2001:db8:2::a", "2001:db8:2::1", 64, msg, 8 + len);
}

/*
 * A router in the tunnel answers the tunnel packet with Time Exceeded: the
 * root sends Destination Unreachable code 3 to the original source, quoting
 * the original packet (as it went into the tunnel, hop limit 63). Errors
 * about packets that are not our tunnel packets are not relayed.
 */
static void test_tunnel_error__time_exceeded_in_the_tunnel_relayed_to_the_inner_source(void **state)
{
    (void)state;
    set_root_state(false);
    set_provider(true);
    static uint8_t inner[256];
    static uint8_t tunnel[512];
    static uint8_t pkt[1600];
    size_t ilen = build_echo(inner, "2001:db8:1::100", "2001:db8:2::c", 64, 8);
    memcpy(pkt, inner, ilen);
    receive(0, pkt, ilen);
    assert_int_equal(links[1].nsent, 1);
    size_t tlen = links[1].sent_len[0];
    memcpy(tunnel, links[1].sent[0], tlen);
    clear_sent();
    receive(1, pkt, build_error(pkt, TERN_ICMPV6_TIME_EXCEEDED, 0, tunnel, tlen));
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ERROR_RELAYED], 1);
    assert_int_equal(links[1].nsent, 0);
    assert_int_equal(links[0].nsent, 1);
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(0, 0, &h), TERN_ICMPV6_DST_UNREACH);
    assert_int_equal(links[0].sent[0][41], TERN_ICMPV6_DST_UNREACH_ADDR);
    tern_ipv6_addr_t src = A("2001:db8:1::100");
    assert_true(tern_ipv6_addr_equal(&h.dst, &src));
    assert_int_equal(links[0].sent_len[0], 40 + 8 + ilen);
    inner[7] = 63;
    assert_memory_equal(links[0].sent[0] + 48, inner, ilen);
    /* The same error quoting the original packet (not a tunnel packet of ours): not relayed. */
    clear_sent();
    receive(1, pkt, build_error(pkt, TERN_ICMPV6_TIME_EXCEEDED, 0, inner, ilen));
    /* Quoting our tunnel packet cut short inside the inner header: not relayed. */
    receive(1, pkt, build_error(pkt, TERN_ICMPV6_DST_UNREACH, 3, tunnel, tlen - ilen + 20));
    /* Packet Too Big: lowers the path MTU, not relayed. */
    receive(1, pkt, build_error(pkt, TERN_ICMPV6_PACKET_TOO_BIG, 0, tunnel, tlen));
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ERROR_RELAYED], 1);
    assert_int_equal(links[0].nsent + links[1].nsent, 0);
    set_provider(false);
}

/* ------------------------------------------------------------ other interface */

static void test_router__delivers_for_an_address_of_another_interface(void **state)
{
    (void)state;
    uint8_t pkt[256];
    /* The peer on if1 pings our if2 address: answered on if1, from that address. */
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:2::1", 64, 8));
    assert_int_equal(links[1].nsent, 0);
    assert_int_equal(links[0].nsent, 1);
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(0, 0, &h), TERN_ICMPV6_ECHO_REPLY);
    tern_ipv6_addr_t own = A("2001:db8:2::1");
    tern_ipv6_addr_t peer = A("2001:db8:1::100");
    assert_true(tern_ipv6_addr_equal(&h.src, &own));
    assert_true(tern_ipv6_addr_equal(&h.dst, &peer));
    assert_int_equal(ip.counters[TERN_IPV6_RX_OTHER_IF], 1);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 0);
    /* if2's link-local address stays on its link (RFC 4291 §2.5.6). */
    clear_sent();
    char ll[64];
    tern_ipv6_addr_t lla = { { 0xfe, 0x80 } };
    assert_int_equal(tern_ipv6_iid_from_l2addr(&lla, NODE_MAC[1], 6), 0);
    assert_true(tern_ipv6_addr_to_str(&lla, ll, sizeof(ll)) > 0);
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", ll, 64, 8));
    assert_int_equal(links[0].nsent + links[1].nsent, 0);
    assert_int_equal(ip.counters[TERN_IPV6_RX_OTHER_IF], 1);
    /* A host does not (RFC 1122 §3.3.4.2 leaves it to the node; Tern: routers only). */
    assert_int_equal(tern_ipv6_set_router(&ip, false), 0);
    run_for(1);
    clear_sent();
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:2::1", 64, 8));
    assert_int_equal(links[0].nsent + links[1].nsent, 0);
    assert_int_equal(ip.counters[TERN_IPV6_RX_OTHER_IF], 1);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_tunnel_decap__inner_udp_delivered),
        T(test_tunnel_decap__inner_for_another_node_forwarded),
        T(test_tunnel_decap__after_a_routing_header_with_segments_left_0),
        T(test_tunnel_decap__nested_dropped_and_counted),
        T(test_tunnel_decap__malformed_inner_dropped_and_counted),
        T(test_tunnel_forward__encapsulated_golden_bytes),
        T(test_tunnel_forward__above_1280_packet_too_big),
        T(test_tunnel_forward__up_to_1280_tunnel_packet_fragmented),
        T(test_tunnel_forward__one_hop_route_and_unknown_destination_not_tunnelled),
        T(test_tunnel_forward__storing_root_encapsulates_with_rpi_golden_bytes),
        T(test_tunnel_forward__storing_root_neighbor_prefix_and_mesh_not_tunnelled),
        T(test_tunnel_forward__nonstoring_root_checks_the_rpi_of_mesh_packets),
        T(test_tunnel_forward__rpi_removed_when_the_tunnel_leaves_the_rpl_domain),
        T(test_tunnel_error__time_exceeded_in_the_tunnel_relayed_to_the_inner_source),
        T(test_router__delivers_for_an_address_of_another_interface),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
