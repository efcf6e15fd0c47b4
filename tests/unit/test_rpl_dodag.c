/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL module in storing mode over the simulated radio medium:
 *        N nodes with the whole stack (RPL, IPv6, UDP, 6LoWPAN, the 802.15.4
 *        MAC) under virtual time.
 *
 * A line of 5 nodes (node 1 the root, node 5 a leaf) joins within a bounded
 * virtual time: every node's rank is larger than its preferred parent's, every
 * node has a global address from the root's prefix (the DIO's PIO, SLAAC), the root
 * has a downward route to each node (DAOs), and UDP from the root reaches
 * node 5 and back through the routers' FIB routes. Also: a 3x3 grid, a
 * middle node removed (its sub-DODAG rejoins through other parents), global
 * repair, and hostile messages dropped and counted.
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
    assert_int_equal(tern_rpl_set_root(&nodes[0].rpl, INSTANCE, &dodag_id), 0);
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

/* The root has a /128 route to every node's global address. */
static bool root_routes_all(void)
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

static void test_line5__joins_routes_and_reaches_node5(void **state)
{
    (void)state;
    uint64_t t = wait_for(all_joined, 120 * SEC);
    print_message("line of 5: joined after %llu s\n", (unsigned long long)(t / SEC));
    assert_true(t != UINT64_MAX);
    assert_loop_free();
    /* In a line, node i's parent is node i-1: ranks grow along it. */
    for (unsigned i = 1; i < 5; i++) {
        assert_true(nodes[i].rpl.rank > nodes[i - 1].rpl.rank);
    }
    t = wait_for(root_routes_all, 60 * SEC);
    assert_true(t != UINT64_MAX);
    /* Node 5, four hops away, through the routers' FIB routes, and back through their default routes. */
    assert_true(reach(4, 30));
    assert_true(udp_round_trip(2));
    assert_true(nodes[2].ip.counters[TERN_IPV6_FWD_PACKETS] >= 2u);
    for (unsigned i = 0; i < 5; i++) {
        assert_int_equal(nodes[i].rpl.counters[TERN_RPL_MALFORMED], 0);
        assert_int_equal(nodes[i].rpl.counters[TERN_RPL_BAD_RANK], 0);
    }
    assert_true(nodes[4].rpl.counters[TERN_RPL_DAO_ACK_IN] >= 1u);
    /* The leaf never advertises the DODAG (§8.5); its parent has no child route but its own target's. */
    assert_int_equal(nodes[4].rpl.counters[TERN_RPL_DIO_OUT], 0);
    assert_int_equal(nodes[4].rpl.role, TERN_RPL_ROLE_LEAF);
    assert_true(nodes[1].rpl.counters[TERN_RPL_DAO_FORWARDED] >= 3u);
}

/* Global repair: the root's new version reaches every node, which rejoins under it. */
static void test_line5__global_repair(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    uint8_t old = nodes[0].rpl.version;
    assert_int_equal(tern_rpl_global_repair(&nodes[0].rpl), 0);
    assert_int_equal(tern_rpl_global_repair(&nodes[1].rpl), -EPERM);
    assert_int_equal(nodes[0].rpl.version, (uint8_t)(old + 1u));
    run_for(60 * SEC);
    assert_true(all_joined());
    assert_loop_free();
    for (unsigned i = 1; i < 5; i++) {
        assert_int_equal(nodes[i].rpl.version, (uint8_t)(old + 1u));
    }
    assert_true(wait_for(root_routes_all, 60 * SEC) != UINT64_MAX);
    assert_true(reach(4, 30));
}

/* Hostile input: an RPL message is injected as if node 2 had sent it to node 3. */
static void inject(unsigned to, const uint8_t *msg, size_t len)
{
    tern_pktbuf_t *pb = &nodes[to].stack.pktbuf;
    tern_ipv6_addr_t src = { { 0xfe, 0x80 } };
    assert_int_equal(tern_ipv6_iid_from_l2addr(&src, nodes[1].eui, 8), 0);
    const tern_ipv6_addr_t dst = { { 0xff, 0x02, [15] = 0x1a } };
    tern_pkt_t *payload = tern_pktbuf_add(pb, NULL, msg, len, TERN_NETTYPE_UNDEF);
    assert_non_null(payload);
    if (len >= 4) {
        assert_int_equal(tern_icmpv6_checksum_fill(payload->data, len, &src, &dst), 0);
    }
    tern_pkt_t *ip = tern_pktbuf_add(pb, payload, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6);
    assert_non_null(ip);
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)len, .next_header = TERN_ICMPV6_NEXT_HEADER, .hop_limit = 255,
                           .src = src, .dst = dst };
    assert_int_equal(tern_ipv6_emit(&h, ip->data, ip->size), (int)TERN_IPV6_HDR_LEN);
    /* Reception order: [IPv6 packet, NETIF]. */
    tern_pkt_t *netif = tern_netif_hdr_build(pb, NULL, nodes[1].eui, 8, NULL, 0);
    assert_non_null(netif);
    tern_netif_hdr_get(netif)->if_index = nodes[to].netif.index;
    assert_int_equal(tern_pktbuf_merge(pb, ip), 0);
    ip->next = netif;
    assert_int_equal(tern_netapi_receive(&nodes[to].ip.module, ip), 0);
    run_for(10 * MS);
}

static void test_hostile_messages__dropped_and_counted(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    tern_rpl_t *r = &nodes[2].rpl;
    uint16_t rank = r->rank;
    int8_t preferred = r->preferred;
    /* A DIO cut short in its base object. */
    const uint8_t short_dio[10] = { 155, TERN_RPL_CODE_DIO, 0, 0, INSTANCE, 240, 1, 0 };
    uint32_t before = r->counters[TERN_RPL_MALFORMED];
    inject(2, short_dio, sizeof(short_dio));
    assert_int_equal(r->counters[TERN_RPL_MALFORMED], before + 1u);
    /* A DIO of our DODAG with rank 0 (below ROOT_RANK): impossible, dropped. */
    uint8_t dio[TERN_RPL_DIO_LEN];
    tern_rpl_dio_repr_t d = { .instance_id = INSTANCE, .version = nodes[0].rpl.version, .rank = 0, .grounded = true,
                              .mop = TERN_RPL_MOP_STORING, .dtsn = 240, .dodag_id = prefix_addr(1) };
    assert_int_equal(tern_rpl_dio_emit(&d, dio, sizeof(dio)), (int)sizeof(dio));
    before = r->counters[TERN_RPL_BAD_RANK];
    inject(2, dio, sizeof(dio));
    assert_int_equal(r->counters[TERN_RPL_BAD_RANK], before + 1u);
    /* Another instance while joined: counted, ignored. */
    d.rank = 256;
    d.instance_id = INSTANCE + 5u;
    assert_int_equal(tern_rpl_dio_emit(&d, dio, sizeof(dio)), (int)sizeof(dio));
    before = r->counters[TERN_RPL_UNKNOWN_INSTANCE];
    inject(2, dio, sizeof(dio));
    assert_int_equal(r->counters[TERN_RPL_UNKNOWN_INSTANCE], before + 1u);
    /* A DAO from our own preferred parent (node 2 is node 3's parent): not a child. */
    uint8_t dao[TERN_RPL_DAO_LEN];
    tern_rpl_dao_repr_t o = { .instance_id = INSTANCE, .ack_requested = true, .sequence = 9 };
    assert_int_equal(tern_rpl_dao_emit(&o, dao, sizeof(dao)), (int)sizeof(dao));
    before = r->counters[TERN_RPL_DAO_NOT_CHILD];
    inject(2, dao, sizeof(dao));
    assert_int_equal(r->counters[TERN_RPL_DAO_NOT_CHILD], before + 1u);
    /* A secured DIO (no RPL security here) and an unknown code. */
    const uint8_t secure[8] = { 155, TERN_RPL_CODE_SECURE_DIO, 0, 0, 0, 0, 0, 0 };
    const uint8_t unknown[8] = { 155, 0x42, 0, 0, 0, 0, 0, 0 };
    before = r->counters[TERN_RPL_UNKNOWN_CODE];
    inject(2, secure, sizeof(secure));
    inject(2, unknown, sizeof(unknown));
    assert_int_equal(r->counters[TERN_RPL_UNKNOWN_CODE], before + 2u);
    /* An unexpected DAO-ACK. */
    uint8_t ack[TERN_RPL_DAO_ACK_LEN];
    tern_rpl_dao_ack_repr_t a = { .instance_id = INSTANCE, .sequence = (uint8_t)(r->dao_sequence + 77u) };
    assert_int_equal(tern_rpl_dao_ack_emit(&a, ack, sizeof(ack)), (int)sizeof(ack));
    before = r->counters[TERN_RPL_DAO_ACK_UNEXPECTED];
    inject(2, ack, sizeof(ack));
    assert_int_equal(r->counters[TERN_RPL_DAO_ACK_UNEXPECTED], before + 1u);
    /* Nothing of it changed the DODAG. */
    assert_int_equal(r->rank, rank);
    assert_int_equal(r->preferred, preferred);
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

static void test_grid3x3__joins_and_survives_middle_removal(void **state)
{
    (void)state;
    uint64_t t = wait_for(all_joined, 180 * SEC);
    print_message("3x3 grid: joined after %llu s\n", (unsigned long long)(t / SEC));
    assert_true(t != UINT64_MAX);
    assert_loop_free();
    assert_true(wait_for(root_routes_all, 60 * SEC) != UINT64_MAX);
    assert_true(reach(8, 30));
    /* The middle node disappears from the air. */
    assert_int_equal(tern_radio_medium_isolate(&medium, 4), 0);
    t = wait_for(all_but_middle_joined, 300 * SEC);
    print_message("3x3 grid: rejoined without the middle after %llu s\n", (unsigned long long)(t / SEC));
    assert_true(t != UINT64_MAX);
    /* The far corner is reachable again (its routes refreshed by DAOs along the new path). */
    assert_true(reach(8, 60));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_line5__joins_routes_and_reaches_node5, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_line5__global_repair, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_messages__dropped_and_counted, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_grid3x3__joins_and_survives_middle_removal, setup_grid, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
