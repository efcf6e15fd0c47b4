/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Loop detection with the RPL Packet Information (RFC 6553, RFC 6550
 *        §11.2) in whole meshes over the simulated radio medium, under
 *        virtual time (the fixture of test_rpl_dodag.c).
 *
 * - A line of 5 still carries UDP end to end with the RPL Option in every
 *   data packet, in storing and in non-storing mode; no rank error on a
 *   consistent DODAG.
 * - A loop made by hand (two routers with routes to one destination via
 *   each other) is detected by the rank rule and the packet dropped at its
 *   second inconsistency instead of circulating until its hop limit.
 * - Storing mode: a router without a downward route for a packet marked
 *   down sends it back with F; its parent removes the route (FIB and RPL's
 *   table) and passes it up; the root drops it.
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
#include "rpl_mesh.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/rpl/rpl.h"

/* ------------------------------------------------------------ helpers */

/* A static route on node @p at: @p dst/128 via node @p via's link-local address. */
static void route_via(unsigned at, const tern_ipv6_addr_t *dst, unsigned via)
{
    tern_ipv6_route_config_t r = { .prefix = *dst, .next_hop = ll_of(via), .prefix_len = 128 };
    assert_int_equal(tern_netapi_set(&nodes[at].ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, nodes[at].netif.index, &r,
                                     sizeof(r)),
                     (int)sizeof(r));
}

static uint32_t ipc(unsigned i, unsigned c)
{
    return nodes[i].ip.counters[c];
}

static uint32_t sum_ipc(unsigned c)
{
    uint32_t n = 0;
    for (unsigned i = 0; i < node_count; i++) {
        n += ipc(i, c);
    }
    return n;
}

static void send_udp(const tern_ipv6_addr_t *dst)
{
    static const uint8_t data[16] = "loop detection";
    tern_sock_udp_ep_t remote = { .addr = *dst, .port = PORT };
    assert_int_equal(tern_sock_udp_send(&nodes[0].sock, data, sizeof(data), &remote), (int)sizeof(data));
}

/* ------------------------------------------------------------ tests */

static int setup_line_storing(void **state)
{
    (void)state;
    network_line(5);
    start_rpl_mop(4, TERN_RPL_MOP_STORING);
    return 0;
}

static int setup_line_non_storing(void **state)
{
    (void)state;
    network_line(5);
    start_rpl_mop(4, TERN_RPL_MOP_NON_STORING);
    return 0;
}

/* The RPL Option in every data packet, end to end, and nothing judged wrong on a consistent DODAG. */
static void line5_with_rpi(bool storing)
{
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_loop_free();
    assert_true(wait_for(storing ? root_routes_all : root_links_all, 60 * SEC) != UINT64_MAX);
    assert_true(reach(4, 30));
    assert_true(udp_round_trip(2));
    /* The root's packets and node 5's answers carried the option (and, non-storing, DAOs and DAO-ACKs). */
    assert_true(ipc(0, TERN_IPV6_RPI_ADDED) >= 2u);
    assert_true(ipc(4, TERN_IPV6_RPI_ADDED) >= 1u);
    /* Routers 2..4 checked and updated it on the way, both ways. */
    for (unsigned i = 1; i < 4; i++) {
        assert_true(ipc(i, TERN_IPV6_RPI_FORWARDED) >= 2u);
    }
    assert_int_equal(sum_ipc(TERN_IPV6_RPI_RANK_ERROR), 0);
    assert_int_equal(sum_ipc(TERN_IPV6_RPI_DROPPED_RANK), 0);
    assert_int_equal(sum_ipc(TERN_IPV6_RPI_UNKNOWN_INSTANCE), 0);
    assert_int_equal(sum_ipc(TERN_IPV6_RPI_FORWARDING_ERROR), 0);
    assert_int_equal(sum_ipc(TERN_IPV6_RX_EXT_DROPPED), 0);
    assert_int_equal(sum_ipc(TERN_IPV6_FWD_HBH_DROPPED), 0);
}

static void test_line5_storing__udp_end_to_end_with_rpi(void **state)
{
    (void)state;
    line5_with_rpi(true);
}

static void test_line5_non_storing__udp_end_to_end_with_rpi(void **state)
{
    (void)state;
    line5_with_rpi(false);
}

/* A diamond: root 0; 1 and 2 below it; 3 hears both. */
static int setup_diamond(void **state)
{
    (void)state;
    network_setup(4);
    static const uint8_t links[][2] = { { 0, 1 }, { 0, 2 }, { 1, 3 }, { 2, 3 } };
    for (size_t k = 0; k < sizeof(links) / sizeof(links[0]); k++) {
        assert_int_equal(tern_radio_medium_link_set_both(&medium, links[k][0], links[k][1], TERN_RADIO_PRR_ONE, -60),
                         0);
    }
    start_rpl_mop(0, TERN_RPL_MOP_STORING);
    return 0;
}

/*
 * A loop made by hand: node q (1 or 2, the one that is not node 3's parent)
 * routes 2001:db8::77 via node 3, node 3 routes it via q (not its parent, so
 * "down"), the root via q. Without the RPI the packet would bounce between q
 * and 3 until its hop limit; with it, q sees a packet marked down from node 3,
 * of higher rank: the first time R is set, the second time it is dropped
 * (RFC 6550 §11.2.2.2), and q's RPL resets its Trickle timer.
 */
static void test_diamond__hand_made_loop_detected_and_dropped(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_loop_free();
    assert_true(wait_for(root_routes_all, 60 * SEC) != UINT64_MAX);
    assert_true(reach(3, 30)); /* contexts and neighbors in place */
    assert_true(parent_is(3, 1) || parent_is(3, 2));
    unsigned q = parent_is(3, 1) ? 2u : 1u;
    assert_true(nodes[3].rpl.rank / nodes[3].rpl.min_hop_rank_increase >
                nodes[q].rpl.rank / nodes[q].rpl.min_hop_rank_increase);
    tern_ipv6_addr_t x = prefix_addr(0x77);
    route_via(0, &x, q);
    route_via(q, &x, 3);
    route_via(3, &x, q);
    uint32_t resets = nodes[q].rpl.counters[TERN_RPL_RPI_TRICKLE_RESETS];
    uint32_t hop_limit = sum_ipc(TERN_IPV6_FWD_HOP_LIMIT);
    uint32_t forwarded_q = ipc(q, TERN_IPV6_FWD_PACKETS);
    send_udp(&x);
    run_for(3 * SEC);
    assert_int_equal(ipc(q, TERN_IPV6_RPI_RANK_ERROR), 1);
    assert_int_equal(ipc(q, TERN_IPV6_RPI_DROPPED_RANK), 1);
    assert_int_equal(sum_ipc(TERN_IPV6_FWD_HOP_LIMIT), hop_limit); /* did not circulate */
    assert_true(ipc(q, TERN_IPV6_FWD_PACKETS) - forwarded_q <= 3u);
    assert_true(nodes[q].rpl.counters[TERN_RPL_RPI_TRICKLE_RESETS] > resets);
}

static int setup_line3(void **state)
{
    (void)state;
    network_line(3);
    start_rpl_mop(0, TERN_RPL_MOP_STORING);
    return 0;
}

static bool rpl_route_to(unsigned at, const tern_ipv6_addr_t *target)
{
    for (size_t k = 0; k < TERN_CONF_RPL_ROUTES; k++) {
        const tern_rpl_route_t *r = &nodes[at].rpl.routes[k];
        if (r->used && tern_ipv6_addr_equal(&r->target, target)) {
            return true;
        }
    }
    return false;
}

/*
 * Storing mode, RFC 6550 §11.2.2.3: node 3 (the end of a line root - 2 - 3)
 * gives up its global address; the routes above still point at it. The
 * root's packet for that address reaches node 3 marked down, node 3 has no
 * downward route for it: F set, back to node 2 (the frame's source), which
 * removes its route (FIB and RPL's table), has no other downward route and
 * drops the packet (it never goes up again); its DTSN goes up (§9.6). The
 * next packet finds no route at node 2: F back to the root, which removes
 * its route too.
 */
static void test_line3__forwarding_error_removes_stale_routes(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_true(wait_for(root_routes_all, 60 * SEC) != UINT64_MAX);
    assert_true(reach(2, 30));
    tern_ipv6_addr_t g;
    assert_true(has_global(2, &g));
    assert_true(rpl_route_to(0, &g) && rpl_route_to(1, &g));
    tern_ipv6_addr_config_t cfg = { .addr = g, .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&nodes[2].ip.module, TERN_NETOPT_IPV6_ADDR_DEL, nodes[2].netif.index, &cfg,
                                     sizeof(cfg)),
                     (int)sizeof(cfg));
    uint8_t dtsn = nodes[1].rpl.dtsn;
    send_udp(&g);
    run_for(300 * MS);
    assert_int_equal(ipc(2, TERN_IPV6_RPI_FORWARDING_ERROR), 1);
    assert_int_equal(ipc(1, TERN_IPV6_RPI_ROUTE_REMOVED), 1);
    assert_int_equal(ipc(1, TERN_IPV6_RPI_DROPPED_FWD_ERROR), 1);
    assert_int_equal(nodes[1].rpl.counters[TERN_RPL_RPI_ROUTES_FAILED], 1);
    assert_false(rpl_route_to(1, &g));
    assert_true(rpl_route_to(0, &g));
    assert_int_equal((uint8_t)(nodes[1].rpl.dtsn - dtsn), 1);
    send_udp(&g);
    run_for(300 * MS);
    assert_int_equal(ipc(1, TERN_IPV6_RPI_FORWARDING_ERROR), 1);
    assert_int_equal(ipc(0, TERN_IPV6_RPI_ROUTE_REMOVED), 1);
    assert_int_equal(ipc(0, TERN_IPV6_RPI_DROPPED_FWD_ERROR), 1);
    assert_int_equal(nodes[0].rpl.counters[TERN_RPL_RPI_ROUTES_FAILED], 1);
    assert_false(rpl_route_to(0, &g));
    assert_int_equal(sum_ipc(TERN_IPV6_FWD_HOP_LIMIT), 0);
}

/*
 * A loop of two preferred parents (the count-to-infinity case, RFC 6550
 * §8.2.2.4): node 1 is node 2's preferred parent and, here by hand, believes
 * node 2 to be its own (its data-plane state says so) and routes
 * 2001:db8::77 through it. Node 1 sends a packet for it to node 2 marked
 * up. Node 2 gets a packet going up from its own preferred
 * parent: node 1 routes up through node 2, so it is in node 2's sub-DODAG
 * (§8.2.1). Node 2 drops the packet (rpi_dropped_loop) and its RPL drops
 * node 1 from the parent set (rpi_parent_loops), which leaves it without a
 * parent on this line: local repair, until node 1's next DIO.
 */
static void test_line3__packet_up_from_the_preferred_parent_drops_that_parent(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_true(wait_for(root_routes_all, 60 * SEC) != UINT64_MAX);
    assert_true(reach(2, 30));
    assert_true(parent_is(2, 1));
    tern_ipv6_addr_t x = prefix_addr(0x77);
    route_via(1, &x, 2);
    nodes[1].ip.rpl.parent = ll_of(2); /* until node 1's RPL pushes its state again */
    uint32_t lost = nodes[2].rpl.counters[TERN_RPL_PARENT_LOST];
    static const uint8_t data[4] = "loop";
    tern_sock_udp_ep_t remote = { .addr = x, .port = PORT };
    assert_int_equal(tern_sock_udp_send(&nodes[1].sock, data, sizeof(data), &remote), (int)sizeof(data));
    run_for(300 * MS);
    assert_int_equal(ipc(2, TERN_IPV6_RPI_DROPPED_LOOP), 1);
    assert_int_equal(ipc(2, TERN_IPV6_FWD_PACKETS), 0);
    assert_int_equal(nodes[2].rpl.counters[TERN_RPL_RPI_PARENT_LOOPS], 1);
    assert_int_equal(nodes[2].rpl.counters[TERN_RPL_PARENT_LOST], lost + 1u);
    assert_false(parent_is(2, 1));
    assert_int_equal(sum_ipc(TERN_IPV6_FWD_HOP_LIMIT), 0);
    /* Node 1's next DIO brings it back as node 2's parent. */
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_true(parent_is(2, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_line5_storing__udp_end_to_end_with_rpi, setup_line_storing, teardown),
        cmocka_unit_test_setup_teardown(test_line5_non_storing__udp_end_to_end_with_rpi, setup_line_non_storing,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_diamond__hand_made_loop_detected_and_dropped, setup_diamond, teardown),
        cmocka_unit_test_setup_teardown(test_line3__packet_up_from_the_preferred_parent_drops_that_parent, setup_line3,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_line3__forwarding_error_removes_stale_routes, setup_line3, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
