/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test fixture shared by test_rpl_dodag.c and test_rpl_nonstoring.c:
 *        a mesh of whole nodes (see rpl_mesh.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "rpl_mesh.h"
#include "tern/netapi.h"
#include "tern/netif_hdr.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"

tern_vclock_t clock_v;
tern_loop_t loop;
tern_radio_medium_t medium;
node_t nodes[NODES_MAX];
unsigned node_count;
unsigned echoes;
tern_rpl_state_t st;

void run_for(uint64_t us)
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

tern_ipv6_addr_t prefix_addr(uint8_t last)
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

void network_setup(unsigned count)
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

void network_line(unsigned count)
{
    network_setup(count);
    for (unsigned i = 0; i + 1 < count; i++) {
        assert_int_equal(tern_radio_medium_link_set_both(&medium, (uint16_t)i, (uint16_t)(i + 1), TERN_RADIO_PRR_ONE,
                                                         -60),
                         0);
    }
}

void network_grid3x3(void)
{
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
}

/* The node's preferred parent; none in a build without parents (the root-only library, TERN_RPL_HAS_PARENTS). */
static const tern_rpl_parent_t *preferred_of(const tern_rpl_t *r)
{
#if TERN_RPL_HAS_PARENTS
    return r->preferred;
#else
    (void)r;
    return NULL;
#endif
}

/* Is the node repairing locally (poisoning)? Never in a build without parents. */
static bool poisoning(const tern_rpl_t *r)
{
#if TERN_RPL_HAS_PARENTS
    return r->poison_until_us != 0;
#else
    (void)r;
    return false;
#endif
}

bool all_but_middle_joined(void)
{
    tern_ipv6_addr_t mid = ll_of(4);
    for (unsigned i = 1; i < node_count; i++) {
        const tern_rpl_t *r = &nodes[i].rpl;
        if (i == 4) {
            continue;
        }
        if (!r->joined || preferred_of(r) == NULL || poisoning(r)) {
            return false;
        }
        if (tern_ipv6_addr_equal(&preferred_of(r)->addr, &mid)) {
            return false;
        }
    }
    return true;
}

void start_rpl_mop(unsigned leaf, uint8_t mop)
{
    run_for(100 * MS); /* interfaces enabled */
    tern_ipv6_addr_config_t cfg = { .addr = prefix_addr(1), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&nodes[0].ip.module, TERN_NETOPT_IPV6_ADDR_ADD, nodes[0].netif.index, &cfg,
                                     sizeof(cfg)),
                     (int)sizeof(cfg));
    tern_ipv6_addr_t dodag_id = prefix_addr(1);
    assert_int_equal(tern_rpl_set_root_mop(&nodes[0].rpl, INSTANCE, &dodag_id, mop), 0);
    for (unsigned i = 1; i < node_count; i++) {
        assert_int_equal((i == leaf) ? tern_rpl_set_leaf(&nodes[i].rpl) : tern_rpl_set_router(&nodes[i].rpl), 0);
    }
}

int teardown(void **state)
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

bool has_global(unsigned i, tern_ipv6_addr_t *out)
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

uint16_t rank_of(const tern_ipv6_addr_t *ll)
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

bool all_joined(void)
{
    for (unsigned i = 1; i < node_count; i++) {
        const tern_rpl_t *r = &nodes[i].rpl;
        if (!r->joined || preferred_of(r) == NULL || poisoning(r) || !has_global(i, NULL)) {
            return false;
        }
    }
    return true;
}

void assert_loop_free(void)
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

uint64_t wait_for(bool (*cond)(void), uint64_t limit_us)
{
    for (uint64_t t = 0; t <= limit_us; t += SEC) {
        if (cond()) {
            return t;
        }
        run_for(SEC);
    }
    return UINT64_MAX;
}

bool udp_round_trip(unsigned i)
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

bool reach(unsigned i, unsigned tries)
{
    for (unsigned k = 0; k < tries; k++) {
        if (udp_round_trip(i)) {
            return true;
        }
    }
    return false;
}

tern_ipv6_addr_t ll_of(unsigned i)
{
    tern_ipv6_addr_t a = { { 0xfe, 0x80 } };
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, nodes[i].eui, 8), 0);
    return a;
}

void mesh_inject_icmpv6(unsigned from, unsigned to, const tern_ipv6_addr_t *dst, const uint8_t *msg, size_t len)
{
    tern_pktbuf_t *pb = &nodes[to].stack.pktbuf;
    tern_ipv6_addr_t src = ll_of(from);
    tern_ipv6_addr_t to_addr = (dst != NULL) ? *dst : ll_of(to);
    tern_pkt_t *payload = tern_pktbuf_add(pb, NULL, msg, len, TERN_NETTYPE_UNDEF);
    assert_non_null(payload);
    if (len >= 4) {
        assert_int_equal(tern_icmpv6_checksum_fill(payload->data, len, &src, &to_addr), 0);
    }
    tern_pkt_t *ip = tern_pktbuf_add(pb, payload, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6);
    assert_non_null(ip);
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)len, .next_header = TERN_ICMPV6_NEXT_HEADER, .hop_limit = 255,
                           .src = src, .dst = to_addr };
    assert_int_equal(tern_ipv6_emit(&h, ip->data, ip->size), (int)TERN_IPV6_HDR_LEN);
    /* Reception order: [IPv6 packet, NETIF]. */
    tern_pkt_t *netif = tern_netif_hdr_build(pb, NULL, nodes[from].eui, 8, NULL, 0);
    assert_non_null(netif);
    tern_netif_hdr_get(netif)->if_index = nodes[to].netif.index;
    assert_int_equal(tern_pktbuf_merge(pb, ip), 0);
    ip->next = netif;
    assert_int_equal(tern_netapi_receive(&nodes[to].ip.module, ip), 0);
    run_for(10 * MS);
}

bool parent_is(unsigned i, unsigned parent)
{
    const tern_rpl_t *r = &nodes[i].rpl;
    tern_ipv6_addr_t ll = ll_of(parent);
    return r->joined && preferred_of(r) != NULL && tern_ipv6_addr_equal(&preferred_of(r)->addr, &ll);
}

bool root_routes_all(void)
{
    for (unsigned i = 1; i < node_count; i++) {
        tern_ipv6_addr_t g;
        if (!has_global(i, &g)) {
            return false;
        }
        bool found = false;
        for (size_t k = 0; k < TERN_CONF_RPL_ROUTES && !found; k++) {
            const tern_rpl_route_t *r = &nodes[0].rpl.routes[k];
            found = r->used && r->prefix_len == 128 && tern_ipv6_addr_equal(&r->target, &g);
        }
        if (!found) {
            return false;
        }
    }
    return true;
}

#if TERN_CONF_RPL_NS_LINKS > 0
bool root_links_all(void)
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
#endif
