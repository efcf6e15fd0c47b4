/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Forwarding between two interfaces of a router, under virtual time
 *        (RFC 8200 §3, §5; RFC 4443 §3.1-§3.3; RFC 4291 §2.5.6).
 *
 * The fixture of vrouter.h: two test devices carry bare IPv6 packets (raw
 * link, 48-bit addresses): if1 on 2001:db8:1::/64 (MTU 1500), if2 on
 * 2001:db8:2::/64 (MTU 1280). The peer on if1 (2001:db8:1::100, fe80::1) is
 * in the neighbor cache from its Neighbor Solicitations, so ICMPv6 errors go
 * out at once; hosts on if2 are resolved in the tests.
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
#include "tern/wire/ndp.h"

/* A solicited NA from @p target (the peer on link @p k) to @p dst. */
static size_t build_na(uint8_t *out, unsigned k, const char *target, const char *dst)
{
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_TLLA, .addr = PEER_MAC[k], .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_na_repr_t na = { .flags = TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE,
                              .target = A(target), .options = opt, .options_len = (size_t)olen };
    uint8_t msg[64];
    int n = tern_ndp_na_emit(&na, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, target, dst, 255, msg, (size_t)n);
}

static int setup(void **state)
{
    (void)state;
    vrouter_init();
    vrouter_start();
    /* The peer on if1 announces itself (global and link-local): cached STALE. */
    solicit_from(0, "fe80::1");
    clear_sent();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    vrouter_teardown();
    return 0;
}

/* The only frame sent on link @p k is an ICMPv6 error of @p type/@p code to @p dst; return its parameter. */
static uint32_t expect_error(unsigned k, uint8_t type, uint8_t code, const char *dst)
{
    assert_int_equal(links[k].nsent, 1);
    assert_int_equal(links[1u - k].nsent, 0);
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(k, 0, &h), type);
    assert_int_equal(links[k].sent[0][41], code);
    tern_ipv6_addr_t d = A(dst);
    assert_true(tern_ipv6_addr_equal(&h.dst, &d));
    const uint8_t *p = &links[k].sent[0][44];
    /* The invoking packet follows, from its IPv6 header (RFC 4443 §2.4 (c)). */
    assert_int_equal(links[k].sent[0][48] >> 4, 6);
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void test_ipv6_forward__resolves_next_hop_then_forwards_with_hop_limit_minus_one(void **state)
{
    (void)state;
    uint8_t pkt[256];
    size_t len = build_echo(pkt, "2001:db8:1::100", "2001:db8:2::100", 64, 16);
    uint8_t orig[256];
    memcpy(orig, pkt, len);
    receive(0, pkt, len);
    /* Resolution on if2 first (RFC 4861 §7.2.2): an NS for the destination. */
    assert_int_equal(links[0].nsent, 0);
    assert_int_equal(links[1].nsent, 1);
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(1, 0, &h), TERN_ICMPV6_NEIGHBOR_SOLICIT);
    tern_ndp_ns_repr_t ns;
    assert_int_equal(tern_ndp_ns_parse(&ns, links[1].sent[0] + 40, links[1].sent_len[0] - 40), TERN_NDP_NS_LEN);
    tern_ipv6_addr_t target = A("2001:db8:2::100");
    assert_true(tern_ipv6_addr_equal(&ns.target, &target));
    clear_sent();
    receive(1, pkt, build_na(pkt, 1, "2001:db8:2::100", "2001:db8:2::1"));
    /* RFC 8200 §3: the same packet, hop limit decremented. */
    assert_int_equal(links[1].nsent, 1);
    assert_int_equal(links[1].sent_len[0], len);
    assert_int_equal(sent_icmp(1, 0, &h), TERN_ICMPV6_ECHO_REQUEST);
    assert_int_equal(h.hop_limit, 63);
    orig[7] = 63;
    assert_memory_equal(links[1].sent[0], orig, len);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 1);
    /* The next one goes at once; the way back too (the source is cached). */
    clear_sent();
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:2::100", 2, 16));
    assert_int_equal(links[1].nsent, 1);
    assert_int_equal(sent_icmp(1, 0, &h), TERN_ICMPV6_ECHO_REQUEST);
    assert_int_equal(h.hop_limit, 1);
    receive(1, pkt, build_echo(pkt, "2001:db8:2::100", "2001:db8:1::100", 64, 16));
    assert_int_equal(links[0].nsent, 1);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 3);
}

static void test_ipv6_forward__hop_limit_1_time_exceeded(void **state)
{
    (void)state;
    uint8_t pkt[256];
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:2::100", 1, 16));
    (void)expect_error(0, TERN_ICMPV6_TIME_EXCEEDED, TERN_ICMPV6_TIME_EXCEEDED_HOP_LIMIT, "2001:db8:1::100");
    tern_ipv6_repr_t h;
    (void)sent_icmp(0, 0, &h);
    tern_ipv6_addr_t own = A("2001:db8:1::1");
    assert_true(tern_ipv6_addr_equal(&h.src, &own)); /* source selection on the incoming link */
    assert_int_equal(ip.counters[TERN_IPV6_FWD_HOP_LIMIT], 1);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 0);
    /* Hop limit 0 likewise. */
    clear_sent();
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:2::100", 0, 16));
    (void)expect_error(0, TERN_ICMPV6_TIME_EXCEEDED, TERN_ICMPV6_TIME_EXCEEDED_HOP_LIMIT, "2001:db8:1::100");
    assert_int_equal(ip.counters[TERN_IPV6_FWD_HOP_LIMIT], 2);
}

static void test_ipv6_forward__no_route_destination_unreachable(void **state)
{
    (void)state;
    uint8_t pkt[256];
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:3::1", 64, 16));
    (void)expect_error(0, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_NO_ROUTE, "2001:db8:1::100");
    assert_int_equal(ip.counters[TERN_IPV6_FWD_NO_ROUTE], 1);
}

static void test_ipv6_forward__too_big_packet_too_big_with_mtu(void **state)
{
    (void)state;
    static uint8_t pkt[1600];
    size_t len = build_echo(pkt, "2001:db8:1::100", "2001:db8:2::100", 64, 1300);
    assert_true(len > 1280);
    receive(0, pkt, len);
    assert_int_equal(expect_error(0, TERN_ICMPV6_PACKET_TOO_BIG, 0, "2001:db8:1::100"), 1280);
    assert_true(links[0].sent_len[0] <= 1280); /* RFC 4443 §2.4 (c) */
    assert_int_equal(ip.counters[TERN_IPV6_FWD_TOO_BIG], 1);
    /* Exactly the MTU is fine (no resolution answer: it waits in the cache). */
    clear_sent();
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:2::100", 64, 1280 - 48));
    assert_int_equal(links[0].nsent, 0);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 1);
}

static void test_ipv6_forward__link_local_never_leaves_the_link(void **state)
{
    (void)state;
    uint8_t pkt[256];
    /* RFC 4291 §2.5.6, RFC 4443 §3.1 code 2: beyond the scope of the source. */
    receive(0, pkt, build_echo(pkt, "fe80::1", "2001:db8:2::100", 64, 16));
    (void)expect_error(0, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_BEYOND_SCOPE, "fe80::1");
    assert_int_equal(ip.counters[TERN_IPV6_FWD_SCOPE], 1);
    /* A link-local destination that is not ours: dropped silently. */
    clear_sent();
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "fe80::2", 64, 16));
    assert_int_equal(links[0].nsent + links[1].nsent, 0);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_SCOPE], 2);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 0);
}

static void test_ipv6_forward__multicast_and_host_mode_not_forwarded(void **state)
{
    (void)state;
    uint8_t pkt[256];
    uint32_t not_for_us = ip.counters[TERN_IPV6_RX_NOT_FOR_US];
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "ff05::1:3", 64, 16));
    assert_int_equal(links[1].nsent, 0);
    assert_int_equal(ip.counters[TERN_IPV6_RX_NOT_FOR_US], not_for_us + 1);
    assert_int_equal(tern_ipv6_set_router(&ip, false), 0);
    run_for(1);
    clear_sent();
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:2::100", 64, 16));
    assert_int_equal(links[1].nsent, 0);
    assert_int_equal(ip.counters[TERN_IPV6_RX_NOT_FOR_US], not_for_us + 2);
    assert_int_equal(ip.counters[TERN_IPV6_FWD_PACKETS], 0);
}

static void test_ipv6_forward__static_route_via_router(void **state)
{
    (void)state;
    tern_ipv6_route_config_t cfg = { .prefix = A("2001:db8:3::"), .next_hop = A("fe80::2"), .prefix_len = 48 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, 99, &cfg, sizeof(cfg)), -ENODEV);
    cfg.prefix_len = 129;
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, links[1].netif.index, &cfg,
                                     sizeof(cfg)), -EINVAL);
    cfg.prefix_len = 48;
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, links[1].netif.index, &cfg,
                                     sizeof(cfg)), (int)sizeof(cfg));
    tern_ipv6_route_list_t list;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_ROUTES, 0, &list, sizeof(list)),
                     (int)sizeof(list));
    bool found = false;
    for (size_t i = 0; i < TERN_CONF_FIB_SIZE; i++) {
        found = found || (list.routes[i].used && list.routes[i].origin == TERN_FIB_STATIC &&
                          list.routes[i].len == 48 && list.routes[i].if_index == links[1].netif.index);
    }
    assert_true(found);
    uint8_t pkt[256];
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:3::7", 64, 16));
    /* The next hop, not the destination, is resolved. */
    assert_int_equal(links[1].nsent, 1);
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(1, 0, &h), TERN_ICMPV6_NEIGHBOR_SOLICIT);
    tern_ndp_ns_repr_t ns;
    assert_int_equal(tern_ndp_ns_parse(&ns, links[1].sent[0] + 40, links[1].sent_len[0] - 40), TERN_NDP_NS_LEN);
    tern_ipv6_addr_t router = A("fe80::2");
    assert_true(tern_ipv6_addr_equal(&ns.target, &router));
    clear_sent();
    receive(1, pkt, build_na(pkt, 1, "fe80::2", "fe80::5eff:fe00:5302"));
    assert_int_equal(links[1].nsent, 1);
    assert_int_equal(sent_icmp(1, 0, &h), TERN_ICMPV6_ECHO_REQUEST);
    assert_int_equal(h.hop_limit, 63);
    /* Deleted: no route any more. */
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_DEL, 0, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_DEL, 0, &cfg, sizeof(cfg)), -ENOENT);
    clear_sent();
    receive(0, pkt, build_echo(pkt, "2001:db8:1::100", "2001:db8:3::7", 64, 16));
    (void)expect_error(0, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_NO_ROUTE, "2001:db8:1::100");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_ipv6_forward__resolves_next_hop_then_forwards_with_hop_limit_minus_one),
        T(test_ipv6_forward__hop_limit_1_time_exceeded),
        T(test_ipv6_forward__no_route_destination_unreachable),
        T(test_ipv6_forward__too_big_packet_too_big_with_mtu),
        T(test_ipv6_forward__link_local_never_leaves_the_link),
        T(test_ipv6_forward__multicast_and_host_mode_not_forwarded),
        T(test_ipv6_forward__static_route_via_router),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
