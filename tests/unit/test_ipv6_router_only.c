/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IPv6 module built router-only (TERN_CONF_IPV6_ROUTER 2) for a
 *        root-only RPL (TERN_CONF_RPL_OF0 and _MRHOF 0), as in the router
 *        footprint image: a router from the start that cannot become a host,
 *        that ignores Router Advertisements (RFC 4861 §6.2.7), and whose RPL
 *        state names no parent; the vnode fixture over the library built
 *        again with those switches (tests/unit/CMakeLists.txt).
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
#include "tern/netapi.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ndp.h"
#include "tern/wire/rpl_hbh.h"

_Static_assert(TERN_CONF_IPV6_ROUTER == 2 && !TERN_CONF_RPL_OF0 && !TERN_CONF_RPL_MRHOF,
               "built router-only, without objective functions (tests/unit/CMakeLists.txt)");

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

static unsigned sent_count(uint8_t type)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nsent; i++) {
        tern_ipv6_repr_t h;
        n += (sent_icmp(i, &h) == type) ? 1u : 0u;
    }
    return n;
}

static bool is_router(void)
{
    tern_ipv6_link_params_t p;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_LINK_PARAMS, netif.index, &p, sizeof(p)),
                     (int)sizeof(p));
    return p.router;
}

/* RFC 4861 §6.2.4: a router from tern_ipv6_init() on advertises, and never solicits (§6.3.7 is a host's). */
static void test_router_only__advertises_from_the_start_and_stays_a_router(void **state)
{
    (void)state;
    assert_true(is_router());
    run_for(2100 * MS); /* the link-local address first (the RA's source) */
    assert_true(sent_count(TERN_ICMPV6_ROUTER_ADVERT) >= 1);
    assert_int_equal(sent_count(TERN_ICMPV6_ROUTER_SOLICIT), 0);
    assert_int_equal(tern_ipv6_set_router(&ip, false), -ENOTSUP);
    uint8_t host = 0;
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTER, 0, &host, sizeof(host)), -ENOTSUP);
    assert_int_equal(tern_ipv6_set_router(&ip, true), 0);
    assert_true(is_router());
}

/* §6.2.7: a router does not configure itself from the RAs it hears. */
static void test_router_only__ignores_router_advertisements(void **state)
{
    (void)state;
    run_for(2100 * MS);
    tern_ndp_ra_repr_t ra = { .cur_hop_limit = 42, .router_lifetime = 1800, .options = NULL, .options_len = 0 };
    uint8_t msg[64];
    int len = tern_ndp_ra_emit(&ra, msg, sizeof(msg));
    assert_true(len > 0);
    uint8_t pkt[128];
    receive(pkt, build_icmp(pkt, PEER_LL, "ff02::1", 255, msg, (size_t)len));
    assert_int_equal(counter(TERN_IPV6_RD_IGNORED), 1);
    assert_int_equal(counter(TERN_IPV6_RA_RECEIVED), 0);
    tern_ipv6_link_params_t p;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_LINK_PARAMS, netif.index, &p, sizeof(p)),
                     (int)sizeof(p));
    assert_int_equal(p.cur_hop_limit, 64);
}

/* RFC 6550 §8.2.2.2: a root has no parent, and without an objective function
 * (RFC 6550 §14) the node can only be a root: a state naming one is refused. */
static void test_router_only__rpl_state_without_parent_only(void **state)
{
    (void)state;
    tern_ipv6_rpl_state_t st;
    memset(&st, 0, sizeof(st));
    st.if_index[0] = netif.index;
    st.rank = 256;
    st.min_hop_rank_increase = 256;
    st.option_type = TERN_RPL_HBH_OPT_TYPE;
    st.running = true;
    st.joined = true;
    st.root = true;
    st.storing = true;
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st)), (int)sizeof(st));
    st.root = false;
    st.parent = A(PEER_LL);
    st.parent_if = netif.index;
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st)), -EINVAL);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_router_only__advertises_from_the_start_and_stays_a_router),
        T(test_router_only__ignores_router_advertisements),
        T(test_router_only__rpl_state_without_parent_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
