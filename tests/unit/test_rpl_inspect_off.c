/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL module built without inspection (TERN_CONF_RPL_INSPECT 0),
 *        as the router footprint image has it: RPL works as before (a line
 *        of three nodes joins the root's DODAG), and GET
 *        TERN_NETOPT_RPL_STATE (tern_rpl_get_state()) answers -ENOTSUP; the
 *        library's sources built again with the switch, under their own
 *        copy of the mesh fixture (tests/unit/CMakeLists.txt).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/netapi.h"
#include "tern/rpl/rpl.h"

#include "rpl_mesh.h"

_Static_assert(!TERN_CONF_RPL_INSPECT, "built without inspection (tests/unit/CMakeLists.txt)");

static int setup_line(void **state)
{
    (void)state;
    network_line(3);
    start_rpl_mop(0, TERN_RPL_MOP_STORING); /* node 0 the root, nodes 1 and 2 routers */
    return 0;
}

static void test_rpl_inspect_off__joins_and_answers_no_state(void **state)
{
    (void)state;
    assert_true(wait_for(all_joined, 120 * SEC) != UINT64_MAX);
    assert_true(root_routes_all());
    for (unsigned i = 0; i < node_count; i++) {
        assert_int_equal(tern_rpl_get_state(&nodes[i].rpl, &st), -ENOTSUP);
        assert_int_equal(tern_netapi_get(&nodes[i].rpl.module, TERN_NETOPT_RPL_STATE, 0, &st, sizeof(st)), -ENOTSUP);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_rpl_inspect_off__joins_and_answers_no_state, setup_line, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
