/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IPv6 module of a router built without a source route provider
 *        (TERN_CONF_RPL_NS_LINKS 0: no RPL non-storing root, as in the router
 *        footprint image): no Source Routing Header insertion (RFC 6554 §4.1),
 *        forwarding by the table; the vrouter fixture (two test interfaces)
 *        over the library built again with that switch (tests/unit/CMakeLists.txt).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vrouter.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"

_Static_assert(TERN_CONF_RPL_NS_LINKS == 0, "built with the switch at 0 (tests/unit/CMakeLists.txt)");

static int provider_calls;

static int provider(void *ctx, const tern_ipv6_addr_t *dst, tern_ipv6_source_route_t *route)
{
    (void)ctx;
    (void)dst;
    (void)route;
    provider_calls++;
    return 0;
}

static int setup(void **state)
{
    (void)state;
    vrouter_init();
    vrouter_start();
    solicit_from(1, "2001:db8:2::d"); /* a neighbor on if2, cached STALE */
    provider_calls = 0;
    clear_sent();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    vrouter_teardown();
    return 0;
}

/* Only RPL's non-storing root provides source routes; none is in this build. */
static void test_ipv6_source_router__refused_without_a_provider_in_the_build(void **state)
{
    (void)state;
    tern_ipv6_source_router_t cfg = { .fn = provider, .ctx = NULL };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_SOURCE_ROUTER, 0, &cfg, sizeof(cfg)), -ENOTSUP);
}

/* RFC 8200 §3: a forwarded packet goes by the table, as it came (hop limit
 * less one), with no header added and no tunnel. */
static void test_ipv6_forward__by_the_table_without_source_routes(void **state)
{
    (void)state;
    uint8_t pkt[256];
    size_t len = build_echo(pkt, "2001:db8:1::100", "2001:db8:2::d", 64, 16);
    uint8_t orig[256];
    memcpy(orig, pkt, len);
    receive(0, pkt, len);
    assert_int_equal(links[1].nsent, 1);
    assert_int_equal(links[1].sent_len[0], len);
    orig[7] = 63;
    assert_memory_equal(links[1].sent[0], orig, len);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 1);
    assert_int_equal(ip.counters[TERN_IPV6_SRH_INSERTED], 0);
    assert_int_equal(ip.counters[TERN_IPV6_TUN_ENCAP], 0);
    assert_int_equal(provider_calls, 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_ipv6_source_router__refused_without_a_provider_in_the_build),
        T(test_ipv6_forward__by_the_table_without_source_routes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
