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
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"

#include "rpl_mesh.h"

/* The mesh fixture (rpl_mesh.c): node 0 roots the DODAG in storing mode, the others are
 * routers but node @p leaf (0: none), a leaf. */
static void start_rpl(unsigned leaf)
{
    start_rpl_mop(leaf, TERN_RPL_MOP_STORING);
}

/* ------------------------------------------------------------ tests */

static int setup_line(void **state)
{
    (void)state;
    network_line(5);
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
    /* Link outcomes feed only the nodes that have parents: a root's frames report to no one. */
    for (unsigned i = 0; i < 5; i++) {
        tern_netif_tx_status_t hook = { 0 };
        assert_int_equal(tern_netapi_get(&nodes[i].netif.module, TERN_NETOPT_TX_STATUS, 0, &hook, sizeof(hook)),
                         (int)sizeof(hook));
        assert_true((hook.fn != NULL) == (i != 0));
    }
    assert_int_equal(nodes[0].rpl.etx.counters[TERN_RPL_ETX_SAMPLES], 0);
    assert_true(nodes[1].rpl.etx.counters[TERN_RPL_ETX_SAMPLES] > 0u);
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

/* All RPL nodes (RFC 6550 §20.19): where the injected DIOs and DAOs go. */
static const tern_ipv6_addr_t all_rpl_nodes = { { 0xff, 0x02, [15] = 0x1a } };

/* Hostile input: an RPL message is injected as if node 2 had sent it to node 3. */
static void inject(unsigned to, const uint8_t *msg, size_t len)
{
    mesh_inject_icmpv6(1, to, &all_rpl_nodes, msg, len);
}

/*
 * The preferred parent's DIO brings a DODAG Configuration with other Trickle
 * parameters (RFC 6550 §6.7.6): the DIO timer takes them and keeps running
 * (it used to be left stopped by the re-initialisation: the node went silent
 * until some later reset). Leaving the DODAG takes the defaults back, the
 * timer's too.
 */
static void test_dio_conf__new_trickle_parameters_keep_dios_going(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    tern_rpl_t *r = &nodes[2].rpl;
    const tern_rpl_t *parent = &nodes[1].rpl;
    assert_true(parent_is(2, 1));
    assert_true(r->trickle.running);
    uint8_t conf[TERN_RPL_OPT_DODAG_CONF_LEN];
    tern_rpl_opt_dodag_conf_t c = { .dio_int_doublings = (uint8_t)(r->dio_interval_doublings + 1u),
                                    .dio_int_min = (uint8_t)(r->dio_interval_min - 1u),
                                    .dio_redundancy = r->dio_redundancy,
                                    .max_rank_increase = r->max_rank_increase,
                                    .min_hop_rank_increase = r->min_hop_rank_increase,
                                    .ocp = r->ocp,
                                    .default_lifetime = r->default_lifetime,
                                    .lifetime_unit = r->lifetime_unit };
    assert_int_equal(tern_rpl_opt_dodag_conf_emit(&c, conf, sizeof(conf)), (int)sizeof(conf));
    tern_rpl_dio_repr_t d = { .instance_id = INSTANCE, .version = parent->version, .rank = parent->rank,
                              .grounded = true, .mop = TERN_RPL_MOP_STORING, .dtsn = parent->dtsn,
                              .dodag_id = prefix_addr(1), .options = conf, .options_len = sizeof(conf) };
    uint8_t dio[TERN_RPL_DIO_LEN + sizeof(conf)];
    assert_int_equal(tern_rpl_dio_emit(&d, dio, sizeof(dio)), (int)sizeof(dio));
    mesh_inject_icmpv6(1, 2, &all_rpl_nodes, dio, sizeof(dio));
    assert_int_equal(r->dio_interval_min, c.dio_int_min);
    assert_int_equal(r->dio_interval_doublings, c.dio_int_doublings);
    assert_int_equal(r->trickle.config.imin_us, 1000u << c.dio_int_min);
    assert_true(r->trickle.running);
    /* It keeps advertising: at least one DIO within Imax of the new parameters. */
    uint32_t before = r->counters[TERN_RPL_DIO_OUT];
    run_for(((uint64_t)1u << (c.dio_int_min + c.dio_int_doublings)) * MS + SEC);
    assert_true(r->counters[TERN_RPL_DIO_OUT] > before);
    /* (The parent's own DIOs have brought the defaults back meanwhile.) Once
     * more, and then a new role leaves the DODAG: the defaults come back, in
     * the timer too (the next DODAG's DIO, with the default configuration,
     * would change nothing it could notice). */
    assert_int_equal(r->trickle.config.imin_us, 1000u << TERN_CONF_RPL_DIO_INTERVAL_MIN);
    d.version = parent->version;
    d.rank = parent->rank;
    d.dtsn = parent->dtsn;
    assert_int_equal(tern_rpl_dio_emit(&d, dio, sizeof(dio)), (int)sizeof(dio));
    mesh_inject_icmpv6(1, 2, &all_rpl_nodes, dio, sizeof(dio));
    assert_int_equal(r->trickle.config.imin_us, 1000u << c.dio_int_min);
    assert_int_equal(tern_rpl_set_leaf(r), 0);
    assert_int_equal(r->dio_interval_min, TERN_CONF_RPL_DIO_INTERVAL_MIN);
    assert_int_equal(r->trickle.config.imin_us, 1000u << TERN_CONF_RPL_DIO_INTERVAL_MIN);
    assert_int_equal(r->trickle.config.doublings, TERN_CONF_RPL_DIO_INTERVAL_DOUBLINGS);
}

static void test_hostile_messages__dropped_and_counted(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    tern_rpl_t *r = &nodes[2].rpl;
    uint16_t rank = r->rank;
    const tern_rpl_parent_t *preferred = r->preferred;
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
    /* A DIO whose DODAG Configuration has Lifetime Unit 0 (no route lifetime
     * could be expressed, §6.7.6): malformed, nothing of it taken. */
    uint8_t conf[TERN_RPL_OPT_DODAG_CONF_LEN];
    uint8_t dio_conf[TERN_RPL_DIO_LEN + sizeof(conf)];
    tern_rpl_opt_dodag_conf_t zero_unit = { .dio_int_doublings = 8, .dio_int_min = 12, .dio_redundancy = 10,
                                            .max_rank_increase = 7 * 256, .min_hop_rank_increase = 256,
                                            .ocp = TERN_RPL_OCP_MRHOF, .default_lifetime = 30, .lifetime_unit = 0 };
    assert_int_equal(tern_rpl_opt_dodag_conf_emit(&zero_unit, conf, sizeof(conf)), (int)sizeof(conf));
    tern_rpl_dio_repr_t dc = d;
    dc.rank = 256;
    dc.options = conf;
    dc.options_len = sizeof(conf);
    assert_int_equal(tern_rpl_dio_emit(&dc, dio_conf, sizeof(dio_conf)), (int)sizeof(dio_conf));
    uint16_t unit = r->lifetime_unit;
    before = r->counters[TERN_RPL_MALFORMED];
    inject(2, dio_conf, sizeof(dio_conf));
    assert_int_equal(r->counters[TERN_RPL_MALFORMED], before + 1u);
    assert_int_equal(r->lifetime_unit, unit);
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
    assert_ptr_equal(r->preferred, preferred);
}

/* A 3x3 grid, root in a corner; then the middle node goes away. */
static int setup_grid(void **state)
{
    (void)state;
    network_grid3x3();
    start_rpl(0);
    return 0;
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

/* ------------------------------------------------------------ storing-mode repair (RFC 6550 §9.2.2, §9.6, §9.8) */

/* Node @p at's downward route to node @p target's global address, or NULL. */
static const tern_rpl_route_t *route_to(unsigned at, unsigned target)
{
    tern_ipv6_addr_t g;
    if (!has_global(target, &g)) {
        return NULL;
    }
    for (size_t k = 0; k < TERN_CONF_RPL_ROUTES; k++) {
        const tern_rpl_route_t *r = &nodes[at].rpl.routes[k];
        if (r->used && r->prefix_len == 128 && tern_ipv6_addr_equal(&r->target, &g)) {
            return r;
        }
    }
    return NULL;
}

/* A diamond with a tail: root 0; 1 and 2 below it; 3 hears both; 4 below 3; 5 below 4. */
static int setup_diamond(void **state)
{
    (void)state;
    network_setup(6);
    static const uint8_t links[][2] = { { 0, 1 }, { 0, 2 }, { 1, 3 }, { 2, 3 }, { 3, 4 }, { 4, 5 } };
    for (size_t k = 0; k < sizeof(links) / sizeof(links[0]); k++) {
        assert_int_equal(tern_radio_medium_link_set_both(&medium, links[k][0], links[k][1], TERN_RADIO_PRR_ONE, -60),
                         0);
    }
    start_rpl(0);
    return 0;
}

static unsigned diamond_new_parent; /* the branch node 3 moves to */

/* The root reaches node 5, two levels below node 3, through the new branch. */
static bool root_routes_grandchild_via_new_branch(void)
{
    const tern_rpl_route_t *r = route_to(0, 5);
    tern_ipv6_addr_t ll = ll_of(diamond_new_parent);
    return r != NULL && tern_ipv6_addr_equal(&r->next_hop, &ll);
}

/*
 * Regression (tests/integration/test_sim_rpl.py, grid repair): node 3's
 * parent disappears and it moves to the other branch. Its DAO to the new
 * parent carries its sub-DODAG (nodes 4 and 5), so the root's route to node
 * 5, two levels below the node that switched, follows within a few seconds
 * instead of staying on the dead branch for the route lifetime (30 min).
 */
static void test_diamond__parent_switch_moves_the_grandchild_route(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_loop_free();
    assert_true(wait_for(root_routes_all, 60 * SEC) != UINT64_MAX);
    assert_true(parent_is(3, 1) || parent_is(3, 2));
    unsigned old_parent = parent_is(3, 1) ? 1u : 2u;
    diamond_new_parent = 3u - old_parent;
    assert_true(parent_is(4, 3) && parent_is(5, 4));
    tern_ipv6_addr_t old_ll = ll_of(old_parent);
    assert_true(tern_ipv6_addr_equal(&route_to(0, 5)->next_hop, &old_ll));
    uint32_t switches = nodes[3].rpl.counters[TERN_RPL_PARENT_SWITCHES];
    assert_int_equal(tern_radio_medium_isolate(&medium, (uint16_t)old_parent), 0);
    /* Node 3 notices the silent parent (probes, link failures) and switches; then the DAOs. */
    uint64_t t = wait_for(root_routes_grandchild_via_new_branch, 120 * SEC);
    print_message("diamond: root's route to the grandchild moved after %llu s\n", (unsigned long long)(t / SEC));
    assert_true(t != UINT64_MAX);
    assert_true(parent_is(3, diamond_new_parent));
    assert_true(nodes[3].rpl.counters[TERN_RPL_PARENT_SWITCHES] > switches);
    tern_ipv6_addr_t new_ll = ll_of(diamond_new_parent);
    for (unsigned target = 3; target <= 5; target++) {
        assert_true(tern_ipv6_addr_equal(&route_to(0, target)->next_hop, &new_ll));
    }
    assert_true(reach(5, 10));
}

/*
 * A parent candidate that sends us a DAO has chosen us as its parent: its
 * DAO is taken (storing mode, §9.8) and it leaves our parent set (§8.2.1: a
 * node of our sub-DODAG is no parent). Only our preferred parent's DAO is
 * refused. Before, every parent candidate's DAO was dropped, and a sub-DODAG
 * below a node that had moved under a former candidate stayed without
 * downward routes (bench/rpl, storing mode).
 */
static void test_diamond__dao_from_a_parent_candidate_makes_it_a_child(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    tern_rpl_t *r = &nodes[3].rpl;
    assert_true(parent_is(3, 1) || parent_is(3, 2));
    unsigned candidate = parent_is(3, 1) ? 2u : 1u;
    tern_ipv6_addr_t cand_ll = ll_of(candidate);
    bool in_set = false;
    for (size_t i = 0; i < TERN_CONF_RPL_PARENTS; i++) {
        in_set |= r->parents[i].used && tern_ipv6_addr_equal(&r->parents[i].addr, &cand_ll);
    }
    assert_true(in_set); /* node 3 heard both branches */
    uint8_t dao[TERN_RPL_DAO_LEN];
    tern_rpl_dao_repr_t o = { .instance_id = INSTANCE, .sequence = 9 };
    assert_int_equal(tern_rpl_dao_emit(&o, dao, sizeof(dao)), (int)sizeof(dao));
    uint32_t dao_in = r->counters[TERN_RPL_DAO_IN];
    uint32_t not_child = r->counters[TERN_RPL_DAO_NOT_CHILD];
    mesh_inject_icmpv6(candidate, 3, &all_rpl_nodes, dao, sizeof(dao));
    assert_int_equal(r->counters[TERN_RPL_DAO_IN], dao_in + 1u);
    assert_int_equal(r->counters[TERN_RPL_DAO_NOT_CHILD], not_child);
    assert_int_equal(r->counters[TERN_RPL_PARENT_BECAME_CHILD], 1);
    for (size_t i = 0; i < TERN_CONF_RPL_PARENTS; i++) {
        assert_false(r->parents[i].used && tern_ipv6_addr_equal(&r->parents[i].addr, &cand_ll));
    }
    /* The preferred parent's DAO still is refused, and the parent stays. */
    unsigned preferred = 3u - candidate;
    mesh_inject_icmpv6(preferred, 3, &all_rpl_nodes, dao, sizeof(dao));
    assert_int_equal(r->counters[TERN_RPL_DAO_NOT_CHILD], not_child + 1u);
    assert_true(parent_is(3, preferred));
}

/*
 * §8.2.1: a node never takes a node of its own sub-DODAG as parent. Node 3
 * (a child of node 2 in the line) gets into node 2's parent set with a rank
 * below node 2's (an injected DIO, as when node 3 was still closer to the
 * root), then its next DIO brings the entry up to its real rank, above node
 * 2's (injected too, so that no DAO of node 3 removes the entry first). When
 * node 2's parent goes away, node 2 must not move under node 3 (a two-node
 * loop, seen in bench/rpl's grid): no candidate ranks below it, so it does
 * local repair instead and poisons its sub-DODAG.
 */
static void test_line5__never_moves_under_its_own_child(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_true(wait_for(root_routes_all, 60 * SEC) != UINT64_MAX);
    assert_true(parent_is(2, 1) && parent_is(3, 2));
    tern_rpl_t *r = &nodes[2].rpl;
    uint8_t dio[TERN_RPL_DIO_LEN];
    tern_rpl_dio_repr_t d = { .instance_id = INSTANCE, .version = nodes[0].rpl.version, .rank = nodes[1].rpl.rank,
                              .grounded = true, .mop = TERN_RPL_MOP_STORING, .dtsn = nodes[3].rpl.dtsn,
                              .dodag_id = nodes[0].rpl.dodag_id };
    assert_int_equal(tern_rpl_dio_emit(&d, dio, sizeof(dio)), (int)sizeof(dio));
    mesh_inject_icmpv6(3, 2, &all_rpl_nodes, dio, sizeof(dio));
    d.rank = nodes[3].rpl.rank;
    assert_int_equal(tern_rpl_dio_emit(&d, dio, sizeof(dio)), (int)sizeof(dio));
    mesh_inject_icmpv6(3, 2, &all_rpl_nodes, dio, sizeof(dio));
    tern_ipv6_addr_t ll3 = ll_of(3);
    const tern_rpl_parent_t *entry = NULL;
    for (size_t i = 0; i < TERN_CONF_RPL_PARENTS; i++) {
        if (r->parents[i].used && tern_ipv6_addr_equal(&r->parents[i].addr, &ll3)) {
            entry = &r->parents[i];
        }
    }
    assert_non_null(entry);
    assert_true(entry->rank > r->rank);
    assert_true(parent_is(2, 1));
    uint32_t repairs = r->counters[TERN_RPL_LOCAL_REPAIRS];
    assert_int_equal(tern_radio_medium_isolate(&medium, 1), 0);
    bool candidate_there = false;
    uint64_t waited = 0;
    for (; waited < 300 * SEC && r->counters[TERN_RPL_LOCAL_REPAIRS] == repairs; waited += 100 * MS) {
        candidate_there = entry->used && tern_ipv6_addr_equal(&entry->addr, &ll3);
        run_for(100 * MS);
        assert_false(parent_is(2, 3));
    }
    print_message("line of 5: node 2 did local repair %llu s after its parent went away\n",
                  (unsigned long long)(waited / SEC));
    assert_true(r->counters[TERN_RPL_LOCAL_REPAIRS] > repairs);
    assert_true(candidate_there); /* node 3 was still a candidate when node 2 chose */
    assert_int_equal(r->counters[TERN_RPL_RPI_PARENT_LOOPS], 0);
}

/* A line 0-1-2-3-4; later a link from the root to node 3 appears. */
static int setup_shortcut(void **state)
{
    (void)state;
    network_line(5);
    start_rpl(0);
    return 0;
}

static bool node3_below_root(void)
{
    return parent_is(3, 0);
}

/* Nodes 1 and 2 have no route left to nodes 3 and 4; the root reaches both via node 3. */
static bool old_path_withdrawn(void)
{
    tern_ipv6_addr_t ll3 = ll_of(3);
    for (unsigned target = 3; target <= 4; target++) {
        const tern_rpl_route_t *r = route_to(0, target);
        if (route_to(1, target) != NULL || route_to(2, target) != NULL || r == NULL ||
            !tern_ipv6_addr_equal(&r->next_hop, &ll3)) {
            return false;
        }
    }
    return true;
}

/*
 * Node 3 moves from node 2 (still its neighbor) to the root: the No-Path DAO
 * to node 2 withdraws the routes to node 3 and its child node 4 along the
 * old path (nodes 2 and 1) at once, instead of when their lifetimes end.
 */
static void test_shortcut__no_path_dao_withdraws_the_old_path(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_true(wait_for(root_routes_all, 60 * SEC) != UINT64_MAX);
    assert_true(parent_is(3, 2) && route_to(1, 3) != NULL && route_to(1, 4) != NULL);
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 3, TERN_RADIO_PRR_ONE, -60), 0);
    /* The root's next DIO (its Trickle interval may be long by now) makes node 3 switch. */
    assert_true(wait_for(node3_below_root, 1200 * SEC) != UINT64_MAX);
    uint64_t t = wait_for(old_path_withdrawn, 10 * SEC);
    print_message("shortcut: old path withdrawn %llu s after the switch\n", (unsigned long long)(t / SEC));
    assert_true(t != UINT64_MAX);
    assert_true(nodes[3].rpl.counters[TERN_RPL_DAO_NO_PATH_OUT] >= 1u);
    assert_true(parent_is(4, 3));
    assert_true(reach(4, 10));
}

/*
 * Regression (rpl.c reschedule(): the route tables are rescanned only on
 * messages that can add routes, not on the TX status report of every frame):
 * while unicast traffic flows, every node's cached table deadline stays at
 * or before the earliest expiry of its downward routes and non-storing links,
 * and its timer at or before that.
 */
static void assert_timer_before_route_expiry(void)
{
    for (unsigned i = 0; i < node_count; i++) {
        const tern_rpl_t *rpl = &nodes[i].rpl;
        assert_true(rpl->timer_at <= rpl->tables_at_us);
        for (size_t k = 0; k < TERN_CONF_RPL_ROUTES; k++) {
            if (rpl->routes[k].used) {
                assert_true(rpl->tables_at_us <= tern_expiry_to_us(rpl->routes[k].expires));
            }
        }
#if TERN_CONF_RPL_NS_LINKS > 0
        for (size_t k = 0; k < TERN_CONF_RPL_NS_LINKS; k++) {
            if (rpl->ns_links[k].used) {
                assert_true(rpl->tables_at_us <= tern_expiry_to_us(rpl->ns_links[k].expires));
            }
        }
#endif
    }
}

static void test_line5__timer_armed_before_every_route_expiry(void **state)
{
    (void)state;
    /* Checked every millisecond while the DODAG forms and the DAOs install the routes. */
    uint64_t t = 0;
    for (; t < 180 * SEC && !(all_joined() && root_routes_all()); t += MS) {
        run_for(MS);
        assert_timer_before_route_expiry();
    }
    assert_true(t < 180 * SEC);
    /* Then with unicast traffic: a TX status report for every frame. */
    for (unsigned k = 0; k < 5; k++) {
        assert_true(reach(4, 30));
        assert_timer_before_route_expiry();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_line5__joins_routes_and_reaches_node5, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_line5__global_repair, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_line5__timer_armed_before_every_route_expiry, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_messages__dropped_and_counted, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_dio_conf__new_trickle_parameters_keep_dios_going, setup_line,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_grid3x3__joins_and_survives_middle_removal, setup_grid, teardown),
        cmocka_unit_test_setup_teardown(test_diamond__parent_switch_moves_the_grandchild_route, setup_diamond,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_diamond__dao_from_a_parent_candidate_makes_it_a_child, setup_diamond,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_line5__never_moves_under_its_own_child, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_shortcut__no_path_dao_withdraws_the_old_path, setup_shortcut, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
