/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL module in non-storing mode (MOP 1, RFC 6550 §9.7) with
 *        source routing (RFC 6554) over the simulated radio medium: the
 *        mesh fixture of rpl_mesh.c, the root started in non-storing mode.
 *
 * A line of 5 joins; the root's table holds each node's link to its parent
 * (DAOs end to end with the Parent Address), routers keep no downward
 * routes, and UDP from the root reaches node 5 and back: down by a Source
 * Routing Header the root inserts and the routers process (RFC 6554 §4.2),
 * up by default routes. SRHs with a loop, a multicast address or a bad
 * Segments Left are dropped and counted at a router. A 3x3 grid joins and
 * its far corner is reached by source routing, also after the middle node
 * is removed. A border router (the root with a test device as its Ethernet
 * side) tunnels a host's packets to node 4, also 1280-byte ones in a
 * fragmented tunnel packet (RFC 2473 §7.1); the same border router rooting
 * in storing mode tunnels them with an RPI and no SRH (RFC 9008 §7.2.2).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/ipv6/ipv6.h"
#include "tern/link/ieee802154.h"
#include "tern/netapi.h"
#include "tern/netdev/radio_medium.h"
#include "tern/netdev/sim_radio.h"
#include "tern/port/loop.h"
#include "tern/rpl/rpl.h"
#include "tern/sixlowpan/sixlowpan.h"
#include "tern/sock_udp.h"
#include "tern/udp.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ipv6_srh.h"
#include "tern/wire/udp.h"
#include "tern/netdev/test.h"
#include "tern/wire/ndp.h"

#include "rpl_mesh.h"

/* The mesh fixture (rpl_mesh.c): node 0 roots the DODAG in non-storing mode, the others are
 * routers but node @p leaf (0: none), a leaf. */
static void start_rpl(unsigned leaf)
{
    start_rpl_mop(leaf, TERN_RPL_MOP_NON_STORING);
}

/* The global address with the interface identifier of node @p i (SLAAC from the root's /64). */
static tern_ipv6_addr_t global_of(unsigned i)
{
    tern_ipv6_addr_t a = prefix_addr(0);
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, nodes[i].eui, 8), 0);
    return a;
}

/* ------------------------------------------------------------ tests */

static int setup_line(void **state)
{
    (void)state;
    network_line(5);
    start_rpl(4); /* node 5, at the end of the line, is a leaf (RFC 6550 §8.5) */
    return 0;
}

static void test_line5__nonstoring_joins_and_source_routes(void **state)
{
    (void)state;
    uint64_t t = wait_for(all_joined, 120 * SEC);
    print_message("line of 5, non-storing: joined after %llu s\n", (unsigned long long)(t / SEC));
    assert_true(t != UINT64_MAX);
    assert_loop_free();
    for (unsigned i = 1; i < 5; i++) {
        assert_true(nodes[i].rpl.rank > nodes[i - 1].rpl.rank);
        assert_int_equal(nodes[i].rpl.mop, TERN_RPL_MOP_NON_STORING);
    }
    assert_true(wait_for(root_links_all, 60 * SEC) != UINT64_MAX);
    /* §9.7: node i announced node i-1 as its parent (the root by its interface identifier). */
    assert_int_equal(tern_rpl_get_state(&nodes[0].rpl, &st), 0);
    for (unsigned i = 1; i < 5; i++) {
        tern_ipv6_addr_t g = global_of(i);
        tern_ipv6_addr_t p = global_of(i - 1u);
        bool found = false;
        for (size_t k = 0; k < TERN_CONF_RPL_NS_LINKS; k++) {
            const tern_rpl_ns_link_t *l = &st.ns_links[k];
            if (l->used && tern_ipv6_addr_equal(&l->target, &g)) {
                assert_true(tern_ipv6_addr_equal(&l->parent, &p));
                assert_true(tern_expiry_to_us(l->expires) > st.now_us);
                found = true;
            }
        }
        assert_true(found);
    }
    /* Routers store nothing (§9.7): no downward routes, no DAO passed on hop by hop. */
    for (unsigned i = 0; i < 5; i++) {
        for (size_t k = 0; k < TERN_CONF_RPL_ROUTES; k++) {
            assert_false(nodes[i].rpl.routes[k].used);
        }
        assert_int_equal(nodes[i].rpl.counters[TERN_RPL_DAO_FORWARDED], 0);
    }
    /* The source route to node 5: nodes 2, 3, 4, 5. */
    tern_ipv6_source_route_t route;
    tern_ipv6_addr_t g5 = global_of(4);
    assert_int_equal(tern_rpl_source_route(&nodes[0].rpl, &g5, &route), 1);
    assert_int_equal(route.count, 4);
    for (unsigned k = 0; k < 4; k++) {
        tern_ipv6_addr_t h = global_of(k + 1u);
        assert_true(tern_ipv6_addr_equal(&route.hops[k], &h));
    }
    assert_int_equal(route.if_index, nodes[0].netif.index);
    /* Not in the DODAG: no source route; a router is no source route provider. */
    tern_ipv6_addr_t other = prefix_addr(0x77);
    assert_int_equal(tern_rpl_source_route(&nodes[0].rpl, &other, &route), 0);
    assert_int_equal(tern_rpl_source_route(&nodes[1].rpl, &g5, &route), 0);
    /* UDP down by source routing (RFC 6554), back up by default routes. */
    uint32_t inserted = nodes[0].ip.counters[TERN_IPV6_SRH_INSERTED];
    assert_true(reach(4, 30));
    assert_true(nodes[0].ip.counters[TERN_IPV6_SRH_INSERTED] > inserted);
    for (unsigned i = 1; i < 4; i++) {
        assert_true(nodes[i].ip.counters[TERN_IPV6_SRH_FORWARDED] >= 1u);
    }
    assert_true(udp_round_trip(2));
    /* The root's DAO-ACKs reached node 5 the same way. */
    assert_true(nodes[4].rpl.counters[TERN_RPL_DAO_ACK_IN] >= 1u);
    for (unsigned i = 0; i < 5; i++) {
        assert_int_equal(nodes[i].rpl.counters[TERN_RPL_MALFORMED], 0);
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_SRH_LOOP], 0);
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_SRH_MALFORMED], 0);
    }
    assert_int_equal(nodes[0].rpl.counters[TERN_RPL_NS_LOOP], 0);
}

/*
 * A packet from the root to node @p to's global address with a Source
 * Routing Header of @p count full addresses (CmprI = CmprE = 0), Segments
 * Left @p segments_left, No Next Header after it; handed to node @p to's
 * IPv6 module as if it came from the root's radio.
 */
/* An 8-byte Hop-by-Hop header (a PadN option, RFC 8200 §4.2) at @p r, followed by @p next_header. */
static void put_hop_by_hop(uint8_t *r, uint8_t next_header)
{
    r[0] = next_header;
    r[1] = 0;    /* 8 bytes */
    r[2] = 0x01; /* PadN ... */
    r[3] = 4;    /* ... of 4 bytes */
    memset(&r[4], 0, 4);
}

static void inject_srh_after(unsigned to, bool hop_by_hop, const tern_ipv6_addr_t *addrs, size_t count,
                             uint8_t segments_left, uint8_t pad)
{
    uint8_t b[TERN_IPV6_HDR_LEN + 8 + 8 + 4 * 16];
    assert_true(count <= 4);
    size_t srh_len = 8u + count * 16u + pad;
    srh_len = (srh_len + 7u) & ~(size_t)7u;
    size_t hbh_len = hop_by_hop ? 8u : 0u;
    memset(b, 0, sizeof(b));
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)(hbh_len + srh_len),
                           .next_header = hop_by_hop ? TERN_IPV6_NH_HOP_BY_HOP : TERN_IPV6_NH_ROUTING,
                           .hop_limit = 64,
                           .src = prefix_addr(1),
                           .dst = global_of(to) };
    assert_int_equal(tern_ipv6_emit(&h, b, TERN_IPV6_HDR_LEN), (int)TERN_IPV6_HDR_LEN);
    if (hop_by_hop) {
        put_hop_by_hop(b + TERN_IPV6_HDR_LEN, TERN_IPV6_NH_ROUTING);
    }
    uint8_t *r = b + TERN_IPV6_HDR_LEN + hbh_len;
    r[0] = TERN_IPV6_NH_NONE;
    r[1] = (uint8_t)(srh_len / 8u - 1u);
    r[2] = TERN_SRH_ROUTING_TYPE;
    r[3] = segments_left;
    r[4] = 0x00; /* CmprI 0, CmprE 0 */
    r[5] = (uint8_t)(pad << 4);
    for (size_t k = 0; k < count; k++) {
        memcpy(r + 8 + 16 * k, addrs[k].u8, 16);
    }
    tern_pktbuf_t *pb = &nodes[to].stack.pktbuf;
    tern_pkt_t *pkt = tern_pktbuf_add(pb, NULL, b, TERN_IPV6_HDR_LEN + hbh_len + srh_len, TERN_NETTYPE_IPV6);
    assert_non_null(pkt);
    tern_pkt_t *netif = tern_netif_hdr_build(pb, NULL, nodes[0].eui, 8, NULL, 0);
    assert_non_null(netif);
    tern_netif_hdr_get(netif)->if_index = nodes[to].netif.index;
    pkt->next = netif;
    assert_int_equal(tern_netapi_receive(&nodes[to].ip.module, pkt), 0);
    run_for(10 * MS);
}

static void inject_srh(unsigned to, const tern_ipv6_addr_t *addrs, size_t count, uint8_t segments_left, uint8_t pad)
{
    inject_srh_after(to, false, addrs, count, segments_left, pad);
}

/* A Hop-by-Hop header before the Source Routing Header (RFC 8200 §4.1) does
 * not hide it; one before an upper-layer header is no route to follow. */
static void test_srh_processing__after_hop_by_hop_header_forwarded(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    tern_ipv6_t *ip = &nodes[1].ip; /* node 2, a router */
    tern_ipv6_addr_t to3[1] = { global_of(2) };
    uint32_t before = ip->counters[TERN_IPV6_SRH_FORWARDED];
    inject_srh_after(1, true, to3, 1, 1, 0);
    assert_int_equal(ip->counters[TERN_IPV6_SRH_FORWARDED], before + 1u);
    /* Hop-by-Hop, then UDP: delivered as any datagram (no listener: port unreachable), not routed. */
    uint8_t b[TERN_IPV6_HDR_LEN + 8 + TERN_UDP_HDR_LEN];
    memset(b, 0, sizeof(b));
    tern_ipv6_repr_t h = { .payload_len = 8 + TERN_UDP_HDR_LEN, .next_header = TERN_IPV6_NH_HOP_BY_HOP,
                           .hop_limit = 64, .src = prefix_addr(1), .dst = global_of(1) };
    assert_int_equal(tern_ipv6_emit(&h, b, TERN_IPV6_HDR_LEN), (int)TERN_IPV6_HDR_LEN);
    put_hop_by_hop(b + TERN_IPV6_HDR_LEN, TERN_IPV6_NH_UDP);
    tern_pktbuf_t *pb = &nodes[1].stack.pktbuf;
    tern_pkt_t *pkt = tern_pktbuf_add(pb, NULL, b, sizeof(b), TERN_NETTYPE_IPV6);
    assert_non_null(pkt);
    tern_pkt_t *netif = tern_netif_hdr_build(pb, NULL, nodes[0].eui, 8, NULL, 0);
    assert_non_null(netif);
    tern_netif_hdr_get(netif)->if_index = nodes[1].netif.index;
    pkt->next = netif;
    uint32_t delivered = ip->counters[TERN_IPV6_RX_DELIVERED];
    assert_int_equal(tern_netapi_receive(&nodes[1].ip.module, pkt), 0);
    run_for(10 * MS);
    assert_int_equal(ip->counters[TERN_IPV6_RX_DELIVERED], delivered + 1u);
    assert_int_equal(ip->counters[TERN_IPV6_SRH_FORWARDED], before + 1u);
}

static void test_srh_processing__loop_multicast_and_bad_segments_left_dropped(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    tern_ipv6_t *ip = &nodes[1].ip; /* node 2, a router */
    tern_ipv6_addr_t ll2 = { { 0xfe, 0x80 } };
    assert_int_equal(tern_ipv6_iid_from_l2addr(&ll2, nodes[1].eui, 8), 0);
    /* A well-formed route through node 2 to node 3 is forwarded (the control). */
    tern_ipv6_addr_t to3[1] = { global_of(2) };
    uint32_t before = ip->counters[TERN_IPV6_SRH_FORWARDED];
    inject_srh(1, to3, 1, 1, 0);
    assert_int_equal(ip->counters[TERN_IPV6_SRH_FORWARDED], before + 1u);
    /* §4.2: two of node 2's addresses with another between them: a loop. */
    tern_ipv6_addr_t looping[3] = { ll2, global_of(2), global_of(1) };
    before = ip->counters[TERN_IPV6_SRH_LOOP];
    uint32_t errors = ip->counters[TERN_IPV6_ICMP_ERRORS_OUT] + ip->counters[TERN_IPV6_ICMP_RATE_LIMITED];
    uint32_t forwarded = ip->counters[TERN_IPV6_SRH_FORWARDED];
    inject_srh(1, looping, 3, 3, 0);
    assert_int_equal(ip->counters[TERN_IPV6_SRH_LOOP], before + 1u);
    assert_int_equal(ip->counters[TERN_IPV6_ICMP_ERRORS_OUT] + ip->counters[TERN_IPV6_ICMP_RATE_LIMITED],
                     errors + 1u); /* Parameter Problem to the source */
    /* §4.2: the next address multicast. */
    tern_ipv6_addr_t mcast[2] = { { { 0xff, 0x02, [15] = 0x01 } }, global_of(2) };
    before = ip->counters[TERN_IPV6_SRH_MULTICAST];
    inject_srh(1, mcast, 2, 2, 0);
    assert_int_equal(ip->counters[TERN_IPV6_SRH_MULTICAST], before + 1u);
    /* §4.2: Segments Left above the number of addresses. */
    before = ip->counters[TERN_IPV6_SRH_BAD_SEGMENTS_LEFT];
    inject_srh(1, to3, 1, 2, 0);
    assert_int_equal(ip->counters[TERN_IPV6_SRH_BAD_SEGMENTS_LEFT], before + 1u);
    /* RFC 6554 §3: Pad leaves no whole address. */
    before = ip->counters[TERN_IPV6_SRH_MALFORMED];
    inject_srh(1, to3, 1, 1, 3);
    assert_int_equal(ip->counters[TERN_IPV6_SRH_MALFORMED], before + 1u);
    /* None of them went on. */
    assert_int_equal(ip->counters[TERN_IPV6_SRH_FORWARDED], forwarded);
    /* A host (node 5, the leaf) does not process the header: discarded as before. */
    tern_ipv6_t *leaf = &nodes[4].ip;
    before = leaf->counters[TERN_IPV6_RX_EXT_DROPPED];
    tern_ipv6_addr_t on[1] = { global_of(3) };
    inject_srh(4, on, 1, 1, 0);
    assert_int_equal(leaf->counters[TERN_IPV6_RX_EXT_DROPPED], before + 1u);
    assert_int_equal(leaf->counters[TERN_IPV6_SRH_FORWARDED], 0);
}

/* A 3x3 grid, root in a corner; then the middle node goes away. */
static int setup_grid(void **state)
{
    (void)state;
    network_grid3x3();
    start_rpl(0);
    return 0;
}

static void test_grid3x3__nonstoring_joins_and_survives_middle_removal(void **state)
{
    (void)state;
    uint64_t t = wait_for(all_joined, 180 * SEC);
    print_message("3x3 grid, non-storing: joined after %llu s\n", (unsigned long long)(t / SEC));
    assert_true(t != UINT64_MAX);
    assert_loop_free();
    assert_true(wait_for(root_links_all, 60 * SEC) != UINT64_MAX);
    assert_true(reach(8, 30));
    assert_int_equal(tern_radio_medium_isolate(&medium, 4), 0);
    t = wait_for(all_but_middle_joined, 300 * SEC);
    print_message("3x3 grid, non-storing: rejoined without the middle after %llu s\n",
                  (unsigned long long)(t / SEC));
    assert_true(t != UINT64_MAX);
    /* The far corner again: new parents announced to the root by DAO, new source routes. */
    assert_true(reach(8, 60));
    assert_int_equal(nodes[0].ip.counters[TERN_IPV6_SRH_LOOP], 0);
}

/* ------------------------------------------------------------ border router */

/*
 * The root of a line of 4 gets a second interface, "eth0": a test device
 * carrying bare IPv6 on 2001:db8:e::/64 with a host at 2001:db8:e::100. The
 * host reaches node 4 (three hops, a leaf): the root forwards its packets
 * inside an IPv6-in-IPv6 tunnel with a Source Routing Header (RFC 6554
 * §4.1, RFC 9008), the routers source-route the outer packet, node 4
 * decapsulates (RFC 2473). Node 4's answer comes back up by default routes.
 */
#define ETH_SENT 32
static tern_netdev_test_t eth_dev;
static tern_netif_t eth_netif;
static uint8_t eth_sent[ETH_SENT][1600];
static size_t eth_sent_len[ETH_SENT];
static unsigned eth_nsent;
static uint8_t eth_rx[1600];
static const uint8_t ETH_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 };
static const uint8_t HOST_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x91 };

static tern_ipv6_addr_t eth_addr(uint8_t last)
{
    tern_ipv6_addr_t a = { { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x0e } };
    a.u8[15] = last;
    return a;
}

static int eth_capture(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        if (eth_nsent < ETH_SENT && len + iol[i].len <= sizeof(eth_sent[0])) {
            memcpy(&eth_sent[eth_nsent][len], iol[i].base, iol[i].len);
        }
        len += iol[i].len;
    }
    if (eth_nsent < ETH_SENT) {
        eth_sent_len[eth_nsent++] = len;
    }
    return (int)len;
}

static void eth_inject(const uint8_t *pkt, size_t len)
{
    memcpy(eth_rx, pkt, len);
    assert_int_equal(tern_netdev_test_inject(&eth_dev, eth_rx, len), 0);
    run_for(MS);
}

/* An IPv6 packet from the host to @p dst: @p nh, @p body of @p len bytes, its checksum filled at @p csum. */
static size_t eth_build(uint8_t *out, const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst, uint8_t nh,
                        const uint8_t *body, size_t len, size_t csum)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)len, .next_header = nh, .hop_limit = 64, .src = *src,
                           .dst = *dst };
    assert_int_equal(tern_ipv6_emit(&h, out, TERN_IPV6_HDR_LEN), (int)TERN_IPV6_HDR_LEN);
    uint8_t *b = out + TERN_IPV6_HDR_LEN;
    memcpy(b, body, len);
    b[csum] = 0;
    b[csum + 1u] = 0;
    tern_checksum_span_t span = { .data = b, .len = len };
    uint16_t sum = tern_checksum_finish(
        tern_checksum_add_spans(tern_checksum_ipv6_pseudo(0, src, dst, (uint32_t)len, nh), &span, 1));
    b[csum] = (uint8_t)(sum >> 8);
    b[csum + 1u] = (uint8_t)sum;
    return TERN_IPV6_HDR_LEN + len;
}

static int setup_line4_br_mop(uint8_t mop)
{
    network_line(4);
    memset(&eth_netif, 0, sizeof(eth_netif));
    tern_netdev_test_init(&eth_dev);
    memcpy(eth_dev.addr, ETH_MAC, 6);
    eth_dev.addr_len = 6;
    eth_dev.mtu = 1500;
    eth_dev.send_cb = eth_capture;
    eth_nsent = 0;
    assert_int_equal(tern_netif_add(&nodes[0].stack, &eth_netif, "eth0", &eth_dev.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_IPV6),
                     0);
    assert_int_equal(tern_ipv6_netif_enable(&nodes[0].ip, &eth_netif), 0);
    start_rpl_mop(3, mop); /* node 4, at the end of the line, is a leaf */
    tern_ipv6_addr_config_t cfg = { .addr = eth_addr(1), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&nodes[0].ip.module, TERN_NETOPT_IPV6_ADDR_ADD, eth_netif.index, &cfg,
                                     sizeof(cfg)),
                     (int)sizeof(cfg));
    return 0;
}

static int setup_line4_br(void **state)
{
    (void)state;
    return setup_line4_br_mop(TERN_RPL_MOP_NON_STORING);
}

static int setup_line4_br_storing(void **state)
{
    (void)state;
    return setup_line4_br_mop(TERN_RPL_MOP_STORING);
}

/* The UDP datagram with @p data that eth0 sent from @p src to the host, if any. */
static bool eth_sent_udp(const tern_ipv6_addr_t *src, const uint8_t *data, size_t len, uint8_t *hop_limit)
{
    tern_ipv6_addr_t host = eth_addr(0x64);
    for (unsigned k = 0; k < eth_nsent; k++) {
        tern_ipv6_repr_t h;
        if (tern_ipv6_parse(&h, eth_sent[k], eth_sent_len[k]) < 0 || h.next_header != TERN_IPV6_NH_UDP ||
            !tern_ipv6_addr_equal(&h.src, src) || !tern_ipv6_addr_equal(&h.dst, &host) ||
            eth_sent_len[k] != TERN_IPV6_HDR_LEN + 8u + len) {
            continue;
        }
        if (memcmp(&eth_sent[k][TERN_IPV6_HDR_LEN + 8u], data, len) == 0) {
            *hop_limit = h.hop_limit;
            return true;
        }
    }
    return false;
}

/* The host on the Ethernet side announces itself to the root: an NS with its link-layer address, cached. */
static void host_announce(void)
{
    tern_ipv6_addr_t host = eth_addr(0x64);
    tern_ipv6_addr_t root_eth = eth_addr(1);
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = HOST_MAC, .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_ns_repr_t ns = { .target = root_eth, .options = opt, .options_len = (size_t)olen };
    uint8_t msg[64];
    int n = tern_ndp_ns_emit(&ns, msg, sizeof(msg));
    assert_true(n > 0);
    uint8_t pkt[256];
    tern_ipv6_addr_t solicited;
    tern_ipv6_addr_solicited_node(&solicited, &root_eth);
    size_t len = eth_build(pkt, &host, &solicited, TERN_ICMPV6_NEXT_HEADER, msg, (size_t)n, 2);
    pkt[7] = 255; /* RFC 4861 §7.1.1 */
    eth_inject(pkt, len);
}

/*
 * The host announces itself, then sends UDP with @p data to node 4, which
 * echoes it; retried (the 6LoWPAN context of the prefix reaches the mesh
 * with the routers' RAs, see reach()). @return whether the echo reached the
 * host, with its hop limit in *@p hop.
 */
static bool host_udp_round_trip_to_node4(const uint8_t *data, size_t data_len, uint8_t *hop)
{
    host_announce();
    tern_ipv6_addr_t host = eth_addr(0x64);
    uint8_t pkt[256];
    uint8_t udp[8 + 64];
    assert_true(data_len <= sizeof(udp) - 8u);
    udp[0] = 0xc3;
    udp[1] = 0x50;
    udp[2] = (uint8_t)(PORT >> 8);
    udp[3] = (uint8_t)PORT;
    udp[4] = 0;
    udp[5] = (uint8_t)(8u + data_len);
    udp[6] = 0;
    udp[7] = 0;
    memcpy(&udp[8], data, data_len);
    tern_ipv6_addr_t g4 = global_of(3);
    bool back = false;
    for (unsigned tries = 0; tries < 30 && !back; tries++) {
        eth_nsent = 0;
        eth_inject(pkt, eth_build(pkt, &host, &g4, TERN_IPV6_NH_UDP, udp, 8u + data_len, 6));
        for (unsigned k = 0; k < 50 && !back; k++) {
            run_for(100 * MS);
            back = eth_sent_udp(&g4, data, data_len, hop);
        }
    }
    return back;
}

static void test_border_router__line4_nonstoring_host_reaches_the_last_node_by_tunnel(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_true(wait_for(root_links_all, 60 * SEC) != UINT64_MAX);
    static const uint8_t data[] = "from the other side of the border router";
    uint8_t hop = 0;
    assert_true(host_udp_round_trip_to_node4(data, sizeof(data), &hop));
    /* Up by default routes: nodes 3 and 2 and the root decrement (RFC 8200 §3). */
    assert_int_equal(hop, 64 - 3);
    /* Down: tunnelled at the root, source-routed by nodes 2 and 3, decapsulated by node 4. */
    assert_true(nodes[0].ip.counters[TERN_IPV6_TUN_ENCAP] >= 1u);
    assert_true(nodes[1].ip.counters[TERN_IPV6_SRH_FORWARDED] >= 1u);
    assert_true(nodes[2].ip.counters[TERN_IPV6_SRH_FORWARDED] >= 1u);
    assert_true(nodes[3].ip.counters[TERN_IPV6_TUN_DECAP] >= 1u);
    assert_int_equal(nodes[0].ip.counters[TERN_IPV6_FWD_NO_ROUTE], 0);
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_TUN_MALFORMED], 0);
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_SRH_MALFORMED], 0);
    }
    /* The root's mesh address answers a ping from the host (RFC 1122 §3.3.4.2). */
    tern_ipv6_addr_t host = eth_addr(0x64);
    uint8_t pkt[256];
    tern_ipv6_addr_t root_mesh = prefix_addr(1);
    static const uint8_t echo[12] = { TERN_ICMPV6_ECHO_REQUEST, 0, 0, 0, 0x12, 0x34, 0, 1, 't', 'u', 'n', '!' };
    eth_nsent = 0;
    eth_inject(pkt, eth_build(pkt, &host, &root_mesh, TERN_ICMPV6_NEXT_HEADER, echo, sizeof(echo), 2));
    run_for(100 * MS);
    bool replied = false;
    for (unsigned k = 0; k < eth_nsent; k++) {
        tern_ipv6_repr_t h;
        if (tern_ipv6_parse(&h, eth_sent[k], eth_sent_len[k]) == (int)TERN_IPV6_HDR_LEN &&
            h.next_header == TERN_ICMPV6_NEXT_HEADER && eth_sent[k][TERN_IPV6_HDR_LEN] == TERN_ICMPV6_ECHO_REPLY &&
            tern_ipv6_addr_equal(&h.src, &root_mesh) && tern_ipv6_addr_equal(&h.dst, &host)) {
            replied = true;
        }
    }
    assert_true(replied);
    assert_int_equal(nodes[0].ip.counters[TERN_IPV6_RX_OTHER_IF], 1);
}

/* The storing root has a DAO route (a /128 from RPL) to node 4's global address. */
static bool root_routes_node4(void)
{
    tern_ipv6_addr_t g4 = global_of(3);
    const tern_fib_route_t *r = tern_fib_lookup(&nodes[0].ip.fib, &g4, clock_v.now);
    return r != NULL && r->len == 128u && r->origin == TERN_FIB_ROUTING;
}

/*
 * Storing mode (RFC 9008 §7.2.2): the root encapsulates the host's packet
 * for node 4 with an RPI (outer header to node 4, no Source Routing
 * Header); nodes 2 and 3 route the outer packet by their DAO routes and
 * check the RPI; node 4 decapsulates. Its answer goes up with its own RPI,
 * checked by nodes 3 and 2, and the root removes it on the Ethernet side.
 */
static void test_border_router__line4_storing_host_reaches_the_last_node_by_tunnel_with_rpi(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_true(wait_for(root_routes_node4, 60 * SEC) != UINT64_MAX);
    static const uint8_t data[] = "storing mode, with an RPI";
    uint8_t hop = 0;
    assert_true(host_udp_round_trip_to_node4(data, sizeof(data), &hop));
    assert_int_equal(hop, 64 - 3);
    /* Down: encapsulated with the RPI at the root, no SRH; checked by nodes 2 and 3; decapsulated by node 4. */
    assert_true(nodes[0].ip.counters[TERN_IPV6_TUN_ENCAP] >= 1u);
    assert_true(nodes[0].ip.counters[TERN_IPV6_RPI_ADDED] >= 1u);
    assert_int_equal(nodes[0].ip.counters[TERN_IPV6_SRH_INSERTED], 0);
    assert_true(nodes[3].ip.counters[TERN_IPV6_TUN_DECAP] >= 1u);
    /* Each router checked the option down (the tunnel) and up (the answer). */
    assert_true(nodes[1].ip.counters[TERN_IPV6_RPI_FORWARDED] >= 2u);
    assert_true(nodes[2].ip.counters[TERN_IPV6_RPI_FORWARDED] >= 2u);
    /* Out of the RPL domain without it (RFC 9008 §7). */
    assert_true(nodes[0].ip.counters[TERN_IPV6_RPI_REMOVED] >= 1u);
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_TUN_MALFORMED], 0);
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_RPI_RANK_ERROR], 0);
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_RPI_FORWARDING_ERROR], 0);
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_RPI_UNKNOWN_INSTANCE], 0);
    }
    assert_int_equal(nodes[0].ip.counters[TERN_IPV6_FWD_NO_ROUTE], 0);
}

#if TERN_CONF_IPV6_FRAG /* without IPv6 fragmentation such a packet gets Packet Too Big (tunnel.c) */
/*
 * RFC 2473 §7.1 (a): a 1280-byte packet from the host to node 4 does not
 * fit the tunnel MTU (1280 less the outer header, the RPI and the SRH) but
 * is not above 1280: the root fragments the tunnel packet, every fragment
 * carrying the outer header, RPI and SRH, so nodes 2 and 3 source-route each
 * fragment; node 4 reassembles, then decapsulates. Its echo (1288 bytes with
 * the RPI) goes up in fragments of its own, which the test reassembles.
 */
static void test_border_router__line4_nonstoring_1280_bytes_reach_the_last_node_in_fragments(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_true(wait_for(root_links_all, 60 * SEC) != UINT64_MAX);
    host_announce();
    tern_ipv6_addr_t host = eth_addr(0x64);
    static uint8_t pkt[1600];
    size_t len;
    /* UDP with 1232 bytes of data (a 1280-byte packet) to node 4's echo socket. */
    static uint8_t udp[1280 - 40];
    for (size_t k = 8; k < sizeof(udp); k++) {
        udp[k] = (uint8_t)(k * 7u);
    }
    udp[0] = 0xc3;
    udp[1] = 0x50;
    udp[2] = (uint8_t)(PORT >> 8);
    udp[3] = (uint8_t)PORT;
    udp[4] = (uint8_t)(sizeof(udp) >> 8);
    udp[5] = (uint8_t)sizeof(udp);
    tern_ipv6_addr_t g4 = global_of(3);
    /* The echo as the host would reassemble it: the fragments from node 4 on eth0. */
    static uint8_t echo[sizeof(udp)];
    size_t echo_len = 0;
    /* Retried: the 6LoWPAN context of the prefix reaches the mesh with the routers' RAs (see reach()). */
    for (unsigned tries = 0; tries < 30 && echo_len != sizeof(udp); tries++) {
        eth_nsent = 0;
        len = eth_build(pkt, &host, &g4, TERN_IPV6_NH_UDP, udp, sizeof(udp), 6);
        assert_int_equal(len, 1280);
        eth_inject(pkt, len);
        for (unsigned k = 0; k < 50 && echo_len != sizeof(udp); k++) {
            run_for(100 * MS);
            echo_len = 0;
            for (unsigned f = 0; f < eth_nsent; f++) {
                tern_ipv6_repr_t h;
                tern_ipv6_frag_repr_t fr;
                const uint8_t *b = eth_sent[f];
                if (tern_ipv6_parse(&h, b, eth_sent_len[f]) != (int)TERN_IPV6_HDR_LEN ||
                    h.next_header != TERN_IPV6_NH_FRAGMENT || !tern_ipv6_addr_equal(&h.src, &g4) ||
                    !tern_ipv6_addr_equal(&h.dst, &host) ||
                    tern_ipv6_frag_parse(&fr, b + 40, eth_sent_len[f] - 40u) < 0) {
                    continue;
                }
                size_t off = (size_t)fr.offset * 8u;
                size_t part = eth_sent_len[f] - 48u;
                assert_true(fr.next_header == TERN_IPV6_NH_UDP && off + part <= sizeof(echo));
                memcpy(echo + off, b + 48, part);
                echo_len += part;
            }
        }
    }
    /* Node 4 got the datagram whole (its UDP checked the checksum) and echoed it. */
    assert_int_equal(echo_len, sizeof(udp));
    assert_memory_equal(echo + 8, udp + 8, sizeof(udp) - 8u);
    assert_true(nodes[0].ip.counters[TERN_IPV6_TUN_FRAG] >= 1u);
    assert_true(nodes[0].ip.counters[TERN_IPV6_FRAG_SENT] >= 2u);
    assert_int_equal(nodes[0].ip.counters[TERN_IPV6_TUN_TOO_BIG], 0);
    /* Every fragment source-routed by nodes 2 and 3. */
    assert_true(nodes[1].ip.counters[TERN_IPV6_SRH_FORWARDED] >= 2u);
    assert_true(nodes[2].ip.counters[TERN_IPV6_SRH_FORWARDED] >= 2u);
    assert_true(nodes[3].ip.counters[TERN_IPV6_REASS_OK] >= 1u);
    assert_true(nodes[3].ip.counters[TERN_IPV6_TUN_DECAP] >= 1u);
    assert_true(nodes[3].ip.counters[TERN_IPV6_FRAG_OK] >= 1u); /* the echo */
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_TUN_MALFORMED], 0);
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_SRH_MALFORMED], 0);
        assert_int_equal(nodes[i].ip.counters[TERN_IPV6_REASS_INVALID], 0);
    }
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_border_router__line4_nonstoring_host_reaches_the_last_node_by_tunnel,
                                        setup_line4_br, teardown),
        cmocka_unit_test_setup_teardown(
            test_border_router__line4_storing_host_reaches_the_last_node_by_tunnel_with_rpi, setup_line4_br_storing,
            teardown),
#if TERN_CONF_IPV6_FRAG
        cmocka_unit_test_setup_teardown(
            test_border_router__line4_nonstoring_1280_bytes_reach_the_last_node_in_fragments, setup_line4_br,
            teardown),
#endif
        cmocka_unit_test_setup_teardown(test_line5__nonstoring_joins_and_source_routes, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_srh_processing__after_hop_by_hop_header_forwarded, setup_line,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_srh_processing__loop_multicast_and_bad_segments_left_dropped, setup_line,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_grid3x3__nonstoring_joins_and_survives_middle_removal, setup_grid,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
