/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL module in non-storing mode (MOP 1, RFC 6550 §9.7) with
 *        source routing (RFC 6554) over the simulated radio medium: the
 *        fixture of test_rpl_dodag.c, the root started in non-storing mode.
 *
 * A line of 5 joins; the root's table holds each node's link to its parent
 * (DAOs end to end with the Parent Address), routers keep no downward
 * routes, and UDP from the root reaches node 5 and back: down by a Source
 * Routing Header the root inserts and the routers process (RFC 6554 §4.2),
 * up by default routes. SRHs with a loop, a multicast address or a bad
 * Segments Left are dropped and counted at a router. A 3x3 grid joins and
 * its far corner is reached by source routing, also after the middle node
 * is removed.
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

#define MS 1000u
#define SEC 1000000u
#define PAN 0xabcdu
#define PORT 7000u
#define NODES_MAX 9u
#define INSTANCE 1u

typedef struct {
    tern_stack_t stack;
    tern_ipv6_t ip;
    tern_udp_t udp;
    tern_sixlowpan_t lowpan;
    tern_rpl_t rpl;
    tern_sim_radio_t radio;
    tern_ieee802154_link_t mac;
    tern_netif_t netif;
    tern_sock_udp_t sock;
    uint8_t eui[8];
    char name[8];
} node_t;

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_radio_medium_t medium;
static node_t nodes[NODES_MAX];
static unsigned node_count;

static unsigned echoes;

static void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

/* Every node but the root echoes; the root counts what comes back. */
static void sock_cb(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                    void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    if (i == 0) {
        echoes++;
        return;
    }
    assert_int_equal(tern_sock_udp_send(sock, data, len, remote), (int)len);
}

static tern_ipv6_addr_t prefix_addr(uint8_t last)
{
    tern_ipv6_addr_t a = { { 0x20, 0x01, 0x0d, 0xb8 } };
    a.u8[15] = last;
    return a;
}

static void node_setup(unsigned i)
{
    node_t *n = &nodes[i];
    memset(n, 0, sizeof(*n));
    static const uint8_t base[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x00 };
    memcpy(n->eui, base, 8);
    n->eui[7] = (uint8_t)(i + 1u);
    n->name[0] = 'n';
    n->name[1] = (char)('1' + i);
    assert_int_equal(tern_stack_init(&n->stack, n->name, &loop.base), 0);
    assert_int_equal(tern_ipv6_init(&n->ip, &n->stack), 0);
    tern_ipv6_seed(&n->ip, 100u + i);
    assert_int_equal(tern_udp_init(&n->udp, &n->stack, &n->ip), 0);
    assert_int_equal(tern_sixlowpan_init(&n->lowpan, &n->stack), 0);
    assert_int_equal(tern_rpl_init(&n->rpl, &n->stack, &n->ip), 0);
    tern_rpl_seed(&n->rpl, 200u + i);
    assert_int_equal(tern_sim_radio_init(&n->radio, &medium, n->eui), (int)i);
    uint16_t pan = PAN;
    assert_int_equal(n->radio.netdev.driver->set(&n->radio.netdev, TERN_NETOPT_NID, &pan, 2), 2);
    assert_int_equal(tern_ieee802154_netif_add(&n->stack, &n->netif, &n->mac, "wpan0", &n->radio.netdev), 0);
    assert_int_equal(tern_sixlowpan_netif_attach(&n->lowpan, &n->netif), 0);
    assert_int_equal(tern_ipv6_netif_enable(&n->ip, &n->netif), 0);
    assert_int_equal(tern_rpl_netif_enable(&n->rpl, &n->netif), 0);
    tern_sock_udp_ep_t local = { .port = PORT };
    assert_int_equal(tern_sock_udp_create(&n->sock, &n->stack, NULL, &n->udp, &local, NULL, 0), 0);
    assert_int_equal(tern_sock_udp_set_cb(&n->sock, sock_cb, (void *)(uintptr_t)i), 0);
}

/* @p count nodes; links are set by the test. Node 0 becomes the root with 2001:db8::1. */
static void network_setup(unsigned count)
{
    tern_vclock_init(&clock_v, SEC);
    tern_loop_init(&loop, &clock_v.base);
    assert_int_equal(tern_radio_medium_init(&medium, &loop.base, 7), 0);
    node_count = count;
    for (unsigned i = 0; i < count; i++) {
        node_setup(i);
    }
    echoes = 0;
}

/* Node 0 roots the DODAG, the others are routers but node @p leaf (0: none), a leaf. */
static void start_rpl(unsigned leaf)
{
    run_for(100 * MS); /* interfaces enabled */
    tern_ipv6_addr_config_t cfg = { .addr = prefix_addr(1), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&nodes[0].ip.module, TERN_NETOPT_IPV6_ADDR_ADD, nodes[0].netif.index, &cfg,
                                     sizeof(cfg)),
                     (int)sizeof(cfg));
    tern_ipv6_addr_t dodag_id = prefix_addr(1);
    assert_int_equal(tern_rpl_set_root_mop(&nodes[0].rpl, INSTANCE, &dodag_id, TERN_RPL_MOP_NON_STORING), 0);
    for (unsigned i = 1; i < node_count; i++) {
        assert_int_equal((i == leaf) ? tern_rpl_set_leaf(&nodes[i].rpl) : tern_rpl_set_router(&nodes[i].rpl), 0);
    }
}

static int teardown(void **state)
{
    (void)state;
    for (unsigned i = 0; i < node_count; i++) {
        assert_int_equal(tern_rpl_stop(&nodes[i].rpl), 0);
        tern_sock_udp_close(&nodes[i].sock);
    }
    /* Past every timeout: reassembly, MAC retries, neighbor cache, registrations. */
    run_for(70 * SEC);
    tern_executor_stop(&loop.base);
    for (unsigned i = 0; i < node_count; i++) {
        assert_int_equal(tern_sixlowpan_reass_count(&nodes[i].lowpan.reass), 0);
        for (size_t k = 0; k < TERN_CONF_NC_SIZE; k++) {
            tern_nc_entry_t *e = &nodes[i].ip.ifs[0].nc.entries[k];
            for (size_t q = 0; q < e->queued; q++) {
                tern_pktbuf_release(&nodes[i].stack.pktbuf, e->queue[q]);
            }
            e->queued = 0;
        }
        harness_assert_pktbuf_clean(&nodes[i].stack.pktbuf);
    }
    return 0;
}

/* ------------------------------------------------------------ checks */

static tern_rpl_state_t st;

static bool has_global(unsigned i, tern_ipv6_addr_t *out)
{
    tern_ipv6_addr_list_t list;
    if (tern_netapi_get(&nodes[i].ip.module, TERN_NETOPT_IPV6_ADDRS, nodes[i].netif.index, &list, sizeof(list)) < 0) {
        return false;
    }
    tern_ipv6_addr_t prefix = prefix_addr(0);
    for (size_t k = 0; k < TERN_CONF_IPV6_ADDRS; k++) {
        const tern_ipv6_if_addr_t *a = &list.addrs[k];
        if (a->used && a->state == TERN_IPV6_ADDR_PREFERRED && tern_ipv6_addr_match_prefix(&a->addr, &prefix, 64)) {
            if (out != NULL) {
                *out = a->addr;
            }
            return true;
        }
    }
    return false;
}

/* Rank of the node whose link-local address is @p ll, or 0. */
static uint16_t rank_of(const tern_ipv6_addr_t *ll)
{
    for (unsigned i = 0; i < node_count; i++) {
        tern_ipv6_addr_t a = { { 0xfe, 0x80 } };
        assert_int_equal(tern_ipv6_iid_from_l2addr(&a, nodes[i].eui, 8), 0);
        if (tern_ipv6_addr_equal(&a, ll)) {
            return nodes[i].rpl.rank;
        }
    }
    return 0;
}

/* Every node joined with a parent of lower rank, and has a global address. */
static bool all_joined(void)
{
    for (unsigned i = 1; i < node_count; i++) {
        const tern_rpl_t *r = &nodes[i].rpl;
        if (!r->joined || r->preferred < 0 || r->poison_until_us != 0 || !has_global(i, NULL)) {
            return false;
        }
    }
    return true;
}

static void assert_loop_free(void)
{
    for (unsigned i = 1; i < node_count; i++) {
        assert_int_equal(tern_rpl_get_state(&nodes[i].rpl, &st), 0);
        assert_true(st.joined);
        assert_true(st.preferred >= 0);
        uint16_t parent_rank = rank_of(&st.parents[st.preferred].addr);
        assert_true(parent_rank != 0);
        /* §8.2.1: strictly greater than the preferred parent's rank. */
        assert_true(st.rank > parent_rank);
        assert_int_equal(st.version, nodes[0].rpl.version);
    }
}

/* The root's non-storing table has a link for every node's global address. */
static bool root_links_all(void)
{
    for (unsigned i = 1; i < node_count; i++) {
        tern_ipv6_addr_t g;
        if (!has_global(i, &g)) {
            return false;
        }
        bool found = false;
        for (size_t k = 0; k < TERN_CONF_RPL_NS_LINKS && !found; k++) {
            const tern_rpl_ns_link_t *l = &nodes[0].rpl.ns_links[k];
            found = l->used && tern_ipv6_addr_equal(&l->target, &g);
        }
        if (!found) {
            return false;
        }
    }
    return true;
}

/* The global address with the interface identifier of node @p i (SLAAC from the root's /64). */
static tern_ipv6_addr_t global_of(unsigned i)
{
    tern_ipv6_addr_t a = prefix_addr(0);
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, nodes[i].eui, 8), 0);
    return a;
}

/* Wait up to @p limit_us for @p cond, in steps of 1 s. @return the time it took, or UINT64_MAX. */
static uint64_t wait_for(bool (*cond)(void), uint64_t limit_us)
{
    for (uint64_t t = 0; t <= limit_us; t += SEC) {
        if (cond()) {
            return t;
        }
        run_for(SEC);
    }
    return UINT64_MAX;
}

/* UDP from the root to node @p i and its echo back, within 5 s. */
static bool udp_round_trip(unsigned i)
{
    tern_ipv6_addr_t g;
    if (!has_global(i, &g)) {
        return false;
    }
    static const uint8_t data[40] = "rpl round trip over the mesh";
    unsigned before = echoes;
    tern_sock_udp_ep_t remote = { .addr = g, .port = PORT };
    assert_int_equal(tern_sock_udp_send(&nodes[0].sock, data, sizeof(data), &remote), (int)sizeof(data));
    for (unsigned k = 0; k < 50 && echoes == before; k++) {
        run_for(100 * MS);
    }
    return echoes > before;
}

/* udp_round_trip() until it succeeds, at most @p tries times (the 6LoWPAN
 * contexts of the root's prefix reach the mesh with the routers' RAs,
 * RFC 6775 §8.1; until then compressed packets can not be read). */
static bool reach(unsigned i, unsigned tries)
{
    for (unsigned k = 0; k < tries; k++) {
        if (udp_round_trip(i)) {
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------ tests */

static int setup_line(void **state)
{
    (void)state;
    network_setup(5);
    for (unsigned i = 0; i + 1 < 5; i++) {
        assert_int_equal(tern_radio_medium_link_set_both(&medium, (uint16_t)i, (uint16_t)(i + 1), TERN_RADIO_PRR_ONE,
                                                         -60),
                         0);
    }
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
                assert_true(l->expires_us > st.now_us);
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
static void inject_srh(unsigned to, const tern_ipv6_addr_t *addrs, size_t count, uint8_t segments_left, uint8_t pad)
{
    uint8_t b[TERN_IPV6_HDR_LEN + 8 + 4 * 16];
    assert_true(count <= 4);
    size_t srh_len = 8u + count * 16u + pad;
    srh_len = (srh_len + 7u) & ~(size_t)7u;
    memset(b, 0, sizeof(b));
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)srh_len, .next_header = TERN_IPV6_NH_ROUTING, .hop_limit = 64,
                           .src = prefix_addr(1), .dst = global_of(to) };
    assert_int_equal(tern_ipv6_emit(&h, b, TERN_IPV6_HDR_LEN), (int)TERN_IPV6_HDR_LEN);
    uint8_t *r = b + TERN_IPV6_HDR_LEN;
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
    tern_pkt_t *pkt = tern_pktbuf_add(pb, NULL, b, TERN_IPV6_HDR_LEN + srh_len, TERN_NETTYPE_IPV6);
    assert_non_null(pkt);
    tern_pkt_t *netif = tern_netif_hdr_build(pb, NULL, nodes[0].eui, 8, NULL, 0);
    assert_non_null(netif);
    tern_netif_hdr_get(netif)->if_index = nodes[to].netif.index;
    pkt->next = netif;
    assert_int_equal(tern_netapi_receive(&nodes[to].ip.module, pkt), 0);
    run_for(10 * MS);
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
    network_setup(9);
    for (unsigned y = 0; y < 3; y++) {
        for (unsigned x = 0; x < 3; x++) {
            unsigned i = y * 3u + x;
            if (x + 1 < 3) {
                assert_int_equal(tern_radio_medium_link_set_both(&medium, (uint16_t)i, (uint16_t)(i + 1),
                                                                 TERN_RADIO_PRR_ONE, -60),
                                 0);
            }
            if (y + 1 < 3) {
                assert_int_equal(tern_radio_medium_link_set_both(&medium, (uint16_t)i, (uint16_t)(i + 3),
                                                                 TERN_RADIO_PRR_ONE, -60),
                                 0);
            }
        }
    }
    start_rpl(0);
    return 0;
}

static bool all_but_middle_joined(void)
{
    for (unsigned i = 1; i < node_count; i++) {
        const tern_rpl_t *r = &nodes[i].rpl;
        if (i == 4) {
            continue;
        }
        if (!r->joined || r->preferred < 0 || r->poison_until_us != 0) {
            return false;
        }
        tern_ipv6_addr_t mid = { { 0xfe, 0x80 } };
        assert_int_equal(tern_ipv6_iid_from_l2addr(&mid, nodes[4].eui, 8), 0);
        if (tern_ipv6_addr_equal(&r->parents[r->preferred].addr, &mid)) {
            return false;
        }
    }
    return true;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_line5__nonstoring_joins_and_source_routes, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_srh_processing__loop_multicast_and_bad_segments_left_dropped, setup_line,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_grid3x3__nonstoring_joins_and_survives_middle_removal, setup_grid,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
