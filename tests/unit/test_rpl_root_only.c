/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL module built without objective functions
 *        (TERN_CONF_RPL_OF0 and TERN_CONF_RPL_MRHOF 0, as in the router
 *        footprint image), over the simulated radio medium: tern_rpl_root_only
 *        (tests/unit/CMakeLists.txt) under the mesh fixture of rpl_mesh.c.
 *
 * Without an objective function a node joins no DODAG it hears (RFC 6550
 * §18.5: ocp_unsupported), so only a root is ever joined; the parent set,
 * parent selection and a node's own DAOs are left out of such a build
 * (RPL_JOINS, src/rpl/rpl_internal.h), and so is the link feedback that
 * only serves them (ETX, parent loss), with their state (TERN_RPL_HAS_PARENTS).
 * The root still runs its DODAG: its DIOs go out on the Trickle timer, it
 * answers the routers' DISs, and it takes the DAOs of children (which, in a
 * real mesh, run a full build).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/rpl/rpl.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/rpl.h"

#include "rpl_mesh.h"

static int setup_line(void **state)
{
    (void)state;
    network_line(3);
    start_rpl_mop(0, TERN_RPL_MOP_STORING); /* node 0 the root, nodes 1 and 2 routers */
    return 0;
}

static void test_root_only__root_advertises_routers_never_join(void **state)
{
    (void)state;
    run_for(60 * SEC);
    assert_int_equal(tern_rpl_get_state(&nodes[0].rpl, &st), 0);
    assert_int_equal(st.role, TERN_RPL_ROLE_ROOT);
    assert_true(st.joined);
    assert_int_equal(st.preferred, -1);
    assert_true(nodes[0].rpl.counters[TERN_RPL_DIO_OUT] >= 2u);
    assert_true(nodes[0].rpl.counters[TERN_RPL_DIS_IN] >= 1u); /* answered with a DIO */
    /* Node 1 hears the root's DIOs and refuses every one; node 2 hears none (only node 1 is its neighbour). */
    assert_true(nodes[1].rpl.counters[TERN_RPL_OCP_UNSUPPORTED] >= 2u);
    for (unsigned i = 1; i < 3; i++) {
        assert_int_equal(tern_rpl_get_state(&nodes[i].rpl, &st), 0);
        assert_int_equal(st.role, TERN_RPL_ROLE_ROUTER);
        assert_false(st.joined);
        assert_int_equal(st.preferred, -1);
        assert_int_equal(nodes[i].rpl.counters[TERN_RPL_JOINS], 0);
        assert_int_equal(nodes[i].rpl.counters[TERN_RPL_DIO_OUT], 0);
        assert_true(nodes[i].rpl.counters[TERN_RPL_DIS_OUT] >= 1u);
        assert_int_equal(nodes[i].rpl.counters[TERN_RPL_DAO_OUT], 0);
    }
    assert_int_equal(nodes[2].rpl.counters[TERN_RPL_DIO_IN], 0);
    assert_int_equal(nodes[0].rpl.counters[TERN_RPL_DAO_IN], 0);
    /* ETX and parent-loss detection are for parents: no frame outcome is taken from the links
     * (the unicast frames of 6LoWPAN-ND and the answers to DISs went out all the same), and
     * the build keeps no ETX table nor report ring (TERN_RPL_HAS_PARENTS). */
    assert_false(TERN_RPL_HAS_PARENTS);
    for (unsigned i = 0; i < 3; i++) {
        assert_null(nodes[i].netif.tx_status);
    }
}

/* RFC 6550 §9.8: the root installs the route of a child's storing-mode DAO and acknowledges it. */
static void test_root_only__root_takes_a_childs_dao(void **state)
{
    (void)state;
    run_for(10 * SEC);
    uint8_t options[64];
    tern_rpl_opt_target_t target = { .prefix_len = 128, .prefix = prefix_addr(2) };
    int n = tern_rpl_opt_target_emit(&target, options, sizeof(options));
    assert_true(n > 0);
    tern_rpl_opt_transit_t transit = { .path_sequence = 240, .path_lifetime = 30 };
    int m = tern_rpl_opt_transit_emit(&transit, options + n, sizeof(options) - (size_t)n);
    assert_true(m > 0);
    uint8_t dao[TERN_RPL_DAO_LEN + sizeof(options)];
    tern_rpl_dao_repr_t d = { .instance_id = nodes[0].rpl.instance_id, .ack_requested = true, .sequence = 7,
                              .options = options, .options_len = (size_t)(n + m) };
    int len = tern_rpl_dao_emit(&d, dao, sizeof(dao));
    assert_true(len > 0);
    mesh_inject_icmpv6(1, 0, NULL, dao, (size_t)len);
    run_for(1 * SEC);
    assert_int_equal(nodes[0].rpl.counters[TERN_RPL_DAO_IN], 1);
    assert_int_equal(nodes[0].rpl.counters[TERN_RPL_DAO_NOT_CHILD], 0);
    assert_int_equal(nodes[0].rpl.counters[TERN_RPL_DAO_ACK_OUT], 1);
    tern_ipv6_addr_t node2 = prefix_addr(2);
    tern_ipv6_addr_t ll1 = ll_of(1);
    bool found = false;
    for (size_t i = 0; i < TERN_CONF_RPL_ROUTES; i++) {
        const tern_rpl_route_t *r = &nodes[0].rpl.routes[i];
        found |= r->used && r->prefix_len == 128 && tern_ipv6_addr_equal(&r->target, &node2) &&
                 tern_ipv6_addr_equal(&r->next_hop, &ll1);
    }
    assert_true(found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_root_only__root_advertises_routers_never_join, setup_line, teardown),
        cmocka_unit_test_setup_teardown(test_root_only__root_takes_a_childs_dao, setup_line, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
