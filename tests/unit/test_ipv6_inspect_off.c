/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IPv6 module built without inspection (TERN_CONF_IPV6_INSPECT 0),
 *        as the footprint images have it: the GETs that copy its tables out
 *        answer -ENOTSUP, those other modules read (ADDRS, RPL_STATE) still
 *        answer; the vnode fixture over the library built again with the
 *        switch (tests/unit/CMakeLists.txt).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vnode.h"
#include "tern/ipv6/ipv6.h"
#include "tern/ipv6/rpi.h"
#include "tern/netapi.h"

_Static_assert(!TERN_CONF_IPV6_INSPECT, "built without inspection (tests/unit/CMakeLists.txt)");

static int setup(void **state)
{
    (void)state;
    vnode_setup(1500);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    vnode_teardown();
    return 0;
}

/* A buffer larger than any of the options' values. */
static union {
    tern_ipv6_addr_list_t addrs;
    tern_ipv6_neighbor_list_t neighbors;
    tern_ipv6_route_list_t routes;
    tern_ipv6_dest_list_t destinations;
    tern_ipv6_6lo_state_t lowpan;
    tern_ipv6_link_params_t link;
    tern_ipv6_route_info_list_t route_info;
    tern_ipv6_rpl_state_t rpl;
} buf;

static void test_inspect_off__table_gets_answer_enotsup(void **state)
{
    (void)state;
    settle();
    static const tern_netopt_t table_gets[] = {
        TERN_NETOPT_IPV6_NEIGHBORS, TERN_NETOPT_IPV6_ROUTES,      TERN_NETOPT_IPV6_DESTINATIONS,
        TERN_NETOPT_IPV6_6LO,       TERN_NETOPT_IPV6_LINK_PARAMS, TERN_NETOPT_IPV6_ROUTE_INFO,
    };
    for (size_t i = 0; i < sizeof(table_gets) / sizeof(table_gets[0]); i++) {
        assert_int_equal(tern_netapi_get(&ip.module, table_gets[i], netif.index, &buf, sizeof(buf)), -ENOTSUP);
    }
}

/* Sockets (their local address) and RPL (its DODAG's address, its data-plane state) read these. */
static void test_inspect_off__addrs_and_rpl_state_still_answer(void **state)
{
    (void)state;
    settle();
    memset(&buf, 0, sizeof(buf));
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_ADDRS, netif.index, &buf, sizeof(buf.addrs)),
                     (int)sizeof(buf.addrs));
    tern_ipv6_addr_t ll = A(NODE_LL);
    bool found = false;
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        found = found || (buf.addrs.addrs[i].used && tern_ipv6_addr_equal(&buf.addrs.addrs[i].addr, &ll));
    }
    assert_true(found);
    assert_int_equal(addr_state(NODE_LL), TERN_IPV6_ADDR_PREFERRED);
    int rpl = tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &buf, sizeof(buf.rpl));
    assert_int_equal(rpl, TERN_CONF_RPL ? (int)sizeof(buf.rpl) : -ENOTSUP); /* rpi.c; no RPL: rpi_none */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_inspect_off__table_gets_answer_enotsup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inspect_off__addrs_and_rpl_state_still_answer, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
