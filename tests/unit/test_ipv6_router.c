/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Router discovery of the IPv6 module through the test device, under
 *        virtual time: host Router Solicitations (RFC 4861 §6.3.7), Router
 *        Advertisement processing with SLAAC (§6.3.4, RFC 4862 §5.5.3), and a
 *        router's unsolicited and solicited advertisements (§6.2.4-§6.2.6).
 *
 * The test device carries bare IPv6 packets (raw link) and has a 48-bit
 * address, so the module behaves as on Ethernet (RFC 2464 identifiers and
 * multicast mapping). Frames the node sends are captured and parsed back
 * with the wire functions; frames it receives are built with them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "vnode.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ndp.h"

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


/* ------------------------------------------------------------ helpers */

/* Indices of the sent frames of ICMPv6 @p type, into @p idx. @return how many. */
static unsigned sent_of_type(uint8_t type, unsigned *idx, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nsent; i++) {
        tern_ipv6_repr_t h;
        if (sent_icmp(i, &h) == type && n < max) {
            idx[n++] = i;
        }
    }
    return n;
}

/* An RA from @p src to ff02::1 with hop limit @p hop, router lifetime @p lifetime_s,
 * SLLA, MTU 1400 and a PIO for 2001:db8:2::/64 (L, A) with @p valid_s / @p preferred_s. */
static size_t build_ra(uint8_t *out, const char *src, uint8_t hop, uint16_t lifetime_s, uint32_t valid_s,
                       uint32_t preferred_s)
{
    uint8_t opts[64];
    size_t n = 0;
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = PEER_MAC, .addr_len = 6 };
    n += (size_t)tern_ndp_opt_lladdr_emit(&ll, opts + n, sizeof(opts) - n);
    n += (size_t)tern_ndp_opt_mtu_emit(1400, opts + n, sizeof(opts) - n);
    tern_ndp_opt_prefix_info_t pio = { .prefix_len = 64,
                                       .flags = TERN_NDP_PIO_FLAG_ONLINK | TERN_NDP_PIO_FLAG_AUTONOMOUS,
                                       .valid_lifetime = valid_s, .preferred_lifetime = preferred_s,
                                       .prefix = A("2001:db8:2::") };
    n += (size_t)tern_ndp_opt_prefix_info_emit(&pio, opts + n, sizeof(opts) - n);
    tern_ndp_ra_repr_t ra = { .cur_hop_limit = 42, .router_lifetime = lifetime_s, .reachable_time = 20000,
                              .retrans_timer = 2000, .options = opts, .options_len = n };
    uint8_t msg[128];
    int len = tern_ndp_ra_emit(&ra, msg, sizeof(msg));
    assert_true(len > 0);
    return build_icmp(out, src, "ff02::1", hop, msg, (size_t)len);
}

static size_t build_rs(uint8_t *out, const char *src)
{
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = PEER_MAC, .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_rs_repr_t rs = { .options = opt, .options_len = (size_t)olen };
    uint8_t msg[32];
    int n = tern_ndp_rs_emit(&rs, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, src, "ff02::2", 255, msg, (size_t)n);
}

/* The route @p prefix/@p len via @p next_hop (NULL: on-link), or NULL. */
static const tern_fib_route_t *find_route(tern_ipv6_route_list_t *list, const char *prefix, uint8_t len,
                                          const char *next_hop)
{
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_ROUTES, 0, list, sizeof(*list)),
                     (int)sizeof(*list));
    tern_ipv6_addr_t p = A(prefix);
    tern_ipv6_addr_t nh = (next_hop != NULL) ? A(next_hop) : A("::");
    for (size_t i = 0; i < TERN_CONF_FIB_SIZE; i++) {
        const tern_fib_route_t *r = &list->routes[i];
        if (r->used && r->len == len && tern_ipv6_addr_equal(&r->prefix, &p) &&
            tern_ipv6_addr_equal(&r->next_hop, &nh)) {
            return r;
        }
    }
    return NULL;
}

static bool has_addr(const char *text)
{
    tern_ipv6_addr_list_t list;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_ADDRS, netif.index, &list, sizeof(list)),
                     (int)sizeof(list));
    tern_ipv6_addr_t a = A(text);
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        if (list.addrs[i].used && tern_ipv6_addr_equal(&list.addrs[i].addr, &a)) {
            return true;
        }
    }
    return false;
}

static tern_ipv6_link_params_t link_params(void)
{
    tern_ipv6_link_params_t p;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_LINK_PARAMS, netif.index, &p, sizeof(p)),
                     (int)sizeof(p));
    return p;
}

static const char *SLAAC_ADDR = "2001:db8:2::5eff:fe00:5301";

/* ------------------------------------------------------------ host */

static void test_rs__three_solicitations_4s_apart_from_unspecified_then_link_local(void **state)
{
    (void)state;
    run_for(20 * SEC);
    unsigned rs[4];
    assert_int_equal(sent_of_type(TERN_ICMPV6_ROUTER_SOLICIT, rs, 4), 3); /* MAX_RTR_SOLICITATIONS */
    assert_int_equal(counter(TERN_IPV6_RS_SENT), 3);
    /* §6.3.7: the first after a random delay of at most MAX_RTR_SOLICITATION_DELAY (1 s),
     * then every RTR_SOLICITATION_INTERVAL (4 s). */
    assert_true(sent_at[rs[0]] <= 1 * SEC + 1);
    assert_int_equal(sent_at[rs[1]] - sent_at[rs[0]], 4 * SEC);
    assert_int_equal(sent_at[rs[2]] - sent_at[rs[1]], 4 * SEC);
    tern_ipv6_addr_t all_routers = A("ff02::2"), ll = A(NODE_LL);
    for (unsigned i = 0; i < 3; i++) {
        tern_ipv6_repr_t h;
        (void)sent_icmp(rs[i], &h);
        assert_true(tern_ipv6_addr_equal(&h.dst, &all_routers));
        assert_int_equal(h.hop_limit, 255);
        tern_ndp_rs_repr_t r;
        assert_int_equal(tern_ndp_rs_parse(&r, sent[rs[i]] + 40, sent_len[rs[i]] - 40), TERN_NDP_RS_LEN);
        if (tern_ipv6_addr_is_unspecified(&h.src)) {
            assert_int_equal(r.options_len, 0); /* §4.1: no SLLA from the unspecified address */
        } else {
            assert_true(tern_ipv6_addr_equal(&h.src, &ll));
            tern_ndp_opt_t opt;
            assert_int_equal(tern_ndp_opt_find(r.options, r.options_len, TERN_NDP_OPT_SLLA, &opt), 1);
            assert_memory_equal(opt.data + 2, NODE_MAC, 6);
        }
    }
    /* The link-local address is tentative during the first (DAD takes 1-2 s): from ::. */
    tern_ipv6_repr_t h;
    (void)sent_icmp(rs[0], &h);
    assert_true(tern_ipv6_addr_is_unspecified(&h.src));
    (void)sent_icmp(rs[2], &h);
    assert_true(tern_ipv6_addr_equal(&h.src, &ll));
}

static void test_ra__default_route_prefix_slaac_and_parameters(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[256];
    receive(pkt, build_ra(pkt, PEER_LL, 255, 1800, 7200, 3600));
    assert_int_equal(counter(TERN_IPV6_RA_RECEIVED), 1);
    assert_int_equal(counter(TERN_IPV6_RA_OPT_IGNORED), 0);
    tern_ipv6_route_list_t list;
    const tern_fib_route_t *def = find_route(&list, "::", 0, PEER_LL);
    assert_non_null(def);
    assert_int_equal(def->origin, TERN_FIB_RA);
    assert_int_equal(def->if_index, netif.index);
    /* The FIB keeps a lifetime's end rounded up to a tick of 2^20 us (tern/expiry.h). */
    uint64_t tick = 1ull << TERN_EXPIRY_SHIFT;
    uint64_t end = tern_fib_route_expires_us(def);
    assert_true(end + MS >= list.now_us + 1800ull * SEC && end < list.now_us + 1800ull * SEC + tick);
    const tern_fib_route_t *onlink = find_route(&list, "2001:db8:2::", 64, NULL);
    assert_non_null(onlink);
    assert_int_equal(onlink->origin, TERN_FIB_RA);
    end = tern_fib_route_expires_us(onlink);
    assert_true(end + MS >= list.now_us + 7200ull * SEC && end < list.now_us + 7200ull * SEC + tick);
    /* RFC 4862 §5.5.3: an address from the prefix and the modified EUI-64, through DAD. */
    assert_int_equal(addr_state(SLAAC_ADDR), TERN_IPV6_ADDR_TENTATIVE);
    run_for(1100 * MS); /* the RA's Retrans Timer (2 s) paces DAD now */
    assert_int_equal(addr_state(SLAAC_ADDR), TERN_IPV6_ADDR_TENTATIVE);
    run_for(1000 * MS);
    assert_int_equal(addr_state(SLAAC_ADDR), TERN_IPV6_ADDR_PREFERRED);
    /* §6.3.4: hop limit, timers and MTU taken over. */
    tern_ipv6_link_params_t p = link_params();
    assert_int_equal(p.cur_hop_limit, 42);
    assert_int_equal(p.link_mtu, 1400);
    assert_true(p.mtu_from_ra);
    assert_int_equal(p.retrans_timer_us, 2000u * MS);
    assert_int_equal(p.base_reachable_ms, 20000);
    assert_true(p.reachable_time_us >= 10000u * MS && p.reachable_time_us <= 30000u * MS);
    /* The router is in the cache from its SLLA, marked a router. */
    tern_ipv6_neighbor_list_t nl;
    assert_true(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_NEIGHBORS, netif.index, &nl, sizeof(nl)) > 0);
    tern_ipv6_addr_t peer = A(PEER_LL);
    bool found = false;
    for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        if (nl.entries[i].state != TERN_NC_FREE && tern_ipv6_addr_equal(&nl.entries[i].addr, &peer)) {
            found = true;
            assert_true(nl.entries[i].is_router);
            assert_memory_equal(nl.entries[i].l2addr, PEER_MAC, 6);
        }
    }
    assert_true(found);
    /* §6.3.7: no more solicitations once an RA with a router lifetime came. */
    uint32_t rs = counter(TERN_IPV6_RS_SENT);
    run_for(20 * SEC);
    assert_int_equal(counter(TERN_IPV6_RS_SENT), rs);
    /* A packet to a global destination goes to the router, from the SLAAC address. */
    nsent = 0;
    receive(pkt, build_na(pkt, PEER_LL, NODE_LL, PEER_LL, TERN_NDP_NA_FLAG_ROUTER | TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE));
    receive(pkt, build_echo(pkt, "2001:db8:99::1", SLAAC_ADDR, 3)); /* arrives via the router */
    unsigned idx[2];
    assert_int_equal(sent_of_type(TERN_ICMPV6_ECHO_REPLY, idx, 2), 1);
    tern_ipv6_repr_t h;
    (void)sent_icmp(idx[0], &h);
    tern_ipv6_addr_t slaac = A(SLAAC_ADDR);
    assert_true(tern_ipv6_addr_equal(&h.src, &slaac));
    assert_int_equal(h.hop_limit, 42);
}

static void test_ra__lifetimes_expire(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[256];
    receive(pkt, build_ra(pkt, PEER_LL, 255, 600, 7200, 3600));
    run_for(2100 * MS);
    tern_ipv6_route_list_t list;
    assert_non_null(find_route(&list, "::", 0, PEER_LL));
    /* The default route goes with the router lifetime (600 s). */
    run_for(599 * SEC);
    assert_null(find_route(&list, "::", 0, PEER_LL));
    assert_non_null(find_route(&list, "2001:db8:2::", 64, NULL));
    assert_int_equal(addr_state(SLAAC_ADDR), TERN_IPV6_ADDR_PREFERRED);
    /* Preferred lifetime (3600 s): deprecated; valid lifetime (7200 s): address and prefix gone. */
    run_for(3000 * SEC);
    assert_int_equal(addr_state(SLAAC_ADDR), TERN_IPV6_ADDR_DEPRECATED);
    run_for(3601 * SEC);
    assert_false(has_addr(SLAAC_ADDR));
    assert_null(find_route(&list, "2001:db8:2::", 64, NULL));
}

static void test_ra__zero_lifetimes_remove_router_and_prefix(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[256];
    receive(pkt, build_ra(pkt, PEER_LL, 255, 1800, 7200, 3600));
    tern_ipv6_route_list_t list;
    assert_non_null(find_route(&list, "::", 0, PEER_LL));
    /* §6.3.4: router lifetime 0 and valid lifetime 0 time both out at once. */
    receive(pkt, build_ra(pkt, PEER_LL, 255, 0, 0, 0));
    assert_null(find_route(&list, "::", 0, PEER_LL));
    assert_null(find_route(&list, "2001:db8:2::", 64, NULL));
    assert_int_equal(counter(TERN_IPV6_RA_RECEIVED), 2);
}

/* §6.2.1: a Reachable Time above an hour is taken as an hour; ReachableTime is then
 * uniformly in [0.5, 1.5] x 3 600 000 ms (§6.3.2), which ends at UINT32_MAX microseconds. */
static void test_ra__reachable_time_above_an_hour_capped(void **state)
{
    (void)state;
    settle();
    tern_ndp_ra_repr_t ra = { .router_lifetime = 0, .reachable_time = UINT32_MAX };
    uint8_t msg[32];
    int n = tern_ndp_ra_emit(&ra, msg, sizeof(msg));
    assert_true(n > 0);
    uint8_t pkt[128];
    receive(pkt, build_icmp(pkt, PEER_LL, "ff02::1", 255, msg, (size_t)n));
    tern_ipv6_link_params_t p = link_params();
    assert_int_equal(p.base_reachable_ms, 3600000u);
    assert_true(p.reachable_time_us >= 1800000u * MS);
}

static void test_ra__invalid_dropped_and_counted(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[256];
    /* §6.1.2: hop limit other than 255 (could come from off link). */
    receive(pkt, build_ra(pkt, PEER_LL, 64, 1800, 7200, 3600));
    /* §6.1.2: source not link-local. */
    receive(pkt, build_ra(pkt, "2001:db8::1", 255, 1800, 7200, 3600));
    assert_int_equal(counter(TERN_IPV6_NDP_INVALID), 2);
    assert_int_equal(counter(TERN_IPV6_RA_RECEIVED), 0);
    tern_ipv6_route_list_t list;
    assert_null(find_route(&list, "::", 0, PEER_LL));
    assert_null(find_route(&list, "::", 0, "2001:db8::1"));
    assert_false(has_addr(SLAAC_ADDR));
    /* A host is not in ff02::2 (RFC 4291 §2.7.1): solicitations to it are not for us. */
    uint32_t not_for_us = counter(TERN_IPV6_RX_NOT_FOR_US);
    receive(pkt, build_rs(pkt, PEER_LL));
    assert_int_equal(counter(TERN_IPV6_RX_NOT_FOR_US), not_for_us + 1);
}

/* ------------------------------------------------------------ router */

/* Make the node a router with 2001:db8:1::1/64 and let its addresses become preferred. */
static void become_router(void)
{
    assert_int_equal(tern_ipv6_set_router(&ip, true), 0);
    tern_ipv6_addr_config_t cfg = { .addr = A("2001:db8:1::1"), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_ADD, netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
    run_for(2100 * MS);
    assert_int_equal(addr_state(NODE_LL), TERN_IPV6_ADDR_PREFERRED);
    assert_int_equal(addr_state("2001:db8:1::1"), TERN_IPV6_ADDR_PREFERRED);
}

/* Check sent frame @p i is our RA with router lifetime @p lifetime and the 2001:db8:1::/64 prefix. */
static void check_ra(unsigned i, uint16_t lifetime)
{
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(i, &h), TERN_ICMPV6_ROUTER_ADVERT);
    tern_ipv6_addr_t ll = A(NODE_LL), all_nodes = A("ff02::1");
    assert_true(tern_ipv6_addr_equal(&h.src, &ll));
    assert_true(tern_ipv6_addr_equal(&h.dst, &all_nodes));
    assert_int_equal(h.hop_limit, 255);
    assert_int_equal(tern_ndp_check_ip(sent[i] + 40, sent_len[i] - 40, &h.src, &h.dst, h.hop_limit), 0);
    tern_ndp_ra_repr_t ra;
    assert_int_equal(tern_ndp_ra_parse(&ra, sent[i] + 40, sent_len[i] - 40), TERN_NDP_RA_LEN);
    assert_int_equal(ra.cur_hop_limit, 64);
    assert_int_equal(ra.flags, 0);
    assert_int_equal(ra.router_lifetime, lifetime);
    assert_int_equal(ra.reachable_time, 0);
    assert_int_equal(ra.retrans_timer, 0);
    tern_ndp_opt_t opt;
    assert_int_equal(tern_ndp_opt_find(ra.options, ra.options_len, TERN_NDP_OPT_SLLA, &opt), 1);
    assert_memory_equal(opt.data + 2, NODE_MAC, 6);
    assert_int_equal(tern_ndp_opt_find(ra.options, ra.options_len, TERN_NDP_OPT_MTU, &opt), 1);
    uint32_t mtu;
    assert_int_equal(tern_ndp_opt_mtu_parse(&mtu, &opt), 0);
    assert_int_equal(mtu, netif.mtu);
    assert_int_equal(tern_ndp_opt_find(ra.options, ra.options_len, TERN_NDP_OPT_PREFIX_INFO, &opt), 1);
    tern_ndp_opt_prefix_info_t pio;
    assert_int_equal(tern_ndp_opt_prefix_info_parse(&pio, &opt), 0);
    tern_ipv6_addr_t prefix = A("2001:db8:1::");
    assert_true(tern_ipv6_addr_equal(&pio.prefix, &prefix));
    assert_int_equal(pio.prefix_len, 64);
    assert_int_equal(pio.flags, TERN_NDP_PIO_FLAG_ONLINK | TERN_NDP_PIO_FLAG_AUTONOMOUS);
    assert_int_equal(pio.valid_lifetime, 86400);
    assert_int_equal(pio.preferred_lifetime, 14400);
    /* Exactly one PIO: the link-local prefix is never advertised. */
    assert_int_equal(ra.options_len, 8 + 8 + 32);
}

static void test_router__unsolicited_advertisements_with_prefix(void **state)
{
    (void)state;
    become_router();
    unsigned ra[8];
    assert_int_equal(sent_of_type(TERN_ICMPV6_ROUTER_ADVERT, ra, 8), 1);
    check_ra(ra[0], 1800); /* 3 x MaxRtrAdvInterval */
    assert_int_equal(sent_of_type(TERN_ICMPV6_ROUTER_SOLICIT, ra, 8), 0); /* routers don't solicit */
    /* §6.2.4: the first MAX_INITIAL_RTR_ADVERTISEMENTS (3) at most 16 s apart, then
     * between MinRtrAdvInterval (200 s) and MaxRtrAdvInterval (600 s). */
    run_for(1300 * SEC);
    unsigned n = sent_of_type(TERN_ICMPV6_ROUTER_ADVERT, ra, 8);
    assert_true(n >= 4);
    assert_true(sent_at[ra[1]] - sent_at[ra[0]] <= 16ull * SEC);
    assert_true(sent_at[ra[2]] - sent_at[ra[1]] <= 16ull * SEC);
    for (unsigned i = 3; i < n; i++) {
        uint64_t gap = sent_at[ra[i]] - sent_at[ra[i - 1]];
        assert_true(gap >= 200ull * SEC && gap <= 600ull * SEC);
    }
    for (unsigned i = 0; i < n; i++) {
        check_ra(ra[i], 1800);
    }
    assert_int_equal(counter(TERN_IPV6_RA_SENT), n);
}

static void test_router__answers_rs_within_half_second_rate_limited(void **state)
{
    (void)state;
    become_router();
    run_for(60 * SEC); /* past the initial advertisements */
    nsent = 0;
    uint8_t pkt[128];
    receive(pkt, build_rs(pkt, PEER_LL));
    run_for(500 * MS);
    unsigned ra[4];
    assert_int_equal(sent_of_type(TERN_ICMPV6_ROUTER_ADVERT, ra, 4), 1); /* §6.2.6: within MAX_RA_DELAY_TIME */
    check_ra(ra[0], 1800);
    uint64_t first = sent_at[ra[0]];
    /* §6.2.6: the solicitor's SLLA went into the cache. */
    tern_ipv6_neighbor_list_t nl;
    assert_true(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_NEIGHBORS, netif.index, &nl, sizeof(nl)) > 0);
    tern_ipv6_addr_t peer = A(PEER_LL);
    bool found = false;
    for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        found |= nl.entries[i].state == TERN_NC_STALE && tern_ipv6_addr_equal(&nl.entries[i].addr, &peer);
    }
    assert_true(found);
    /* A second RS right away: not before MIN_DELAY_BETWEEN_RAS (3 s) after the first RA. */
    receive(pkt, build_rs(pkt, PEER_LL));
    receive(pkt, build_rs(pkt, PEER_LL));
    run_for(first + 3 * SEC - clock_v.now - 1);
    assert_int_equal(sent_of_type(TERN_ICMPV6_ROUTER_ADVERT, ra, 4), 1);
    run_for(501 * MS);
    assert_int_equal(sent_of_type(TERN_ICMPV6_ROUTER_ADVERT, ra, 4), 2); /* the two RSs share one RA */
    assert_true(sent_at[ra[1]] - first >= 3 * SEC && sent_at[ra[1]] - first <= 3500 * MS);
}

static void test_router__ignores_ra_and_leaving_sends_final_ra(void **state)
{
    (void)state;
    become_router();
    uint8_t pkt[256];
    receive(pkt, build_ra(pkt, PEER_LL, 255, 1800, 7200, 3600));
    assert_int_equal(counter(TERN_IPV6_RD_IGNORED), 1); /* §6.2.7 */
    tern_ipv6_route_list_t list;
    assert_null(find_route(&list, "::", 0, PEER_LL));
    assert_int_equal(link_params().cur_hop_limit, 64);
    assert_true(link_params().router);
    /* §6.2.5: back to host: one RA with router lifetime 0, then solicitations. */
    nsent = 0;
    assert_int_equal(tern_ipv6_set_router(&ip, false), 0);
    run_for(1);
    unsigned ra[2];
    assert_int_equal(sent_of_type(TERN_ICMPV6_ROUTER_ADVERT, ra, 2), 1);
    check_ra(ra[0], 0);
    run_for(1100 * MS);
    assert_int_equal(sent_of_type(TERN_ICMPV6_ROUTER_SOLICIT, ra, 2), 1);
    assert_false(link_params().router);
    /* NAs of a router carry R (§7.2.4); of a host not. */
    nsent = 0;
    receive(pkt, build_ns(pkt, PEER_LL, "ff02::1:ff00:5301", NODE_LL, 255));
    assert_int_equal(sent_of_type(TERN_ICMPV6_NEIGHBOR_ADVERT, ra, 2), 1);
    assert_int_equal(sent[ra[0]][44] & TERN_NDP_NA_FLAG_ROUTER, 0);
    assert_int_equal(tern_ipv6_set_router(&ip, true), 0);
    nsent = 0;
    receive(pkt, build_ns(pkt, PEER_LL, "ff02::1:ff00:5301", NODE_LL, 255));
    assert_int_equal(sent_of_type(TERN_ICMPV6_NEIGHBOR_ADVERT, ra, 2), 1);
    assert_int_equal(sent[ra[0]][44] & TERN_NDP_NA_FLAG_ROUTER, TERN_NDP_NA_FLAG_ROUTER);
}

/* The Route Information options of sent RA @p i, into @p out. @return how many. */
static unsigned ra_route_infos(unsigned i, tern_ndp_opt_route_info_t *out, unsigned max)
{
    tern_ndp_ra_repr_t ra;
    assert_int_equal(tern_ndp_ra_parse(&ra, sent[i] + 40, sent_len[i] - 40), TERN_NDP_RA_LEN);
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t opt;
    unsigned n = 0;
    tern_ndp_opt_iter_init(&it, ra.options, ra.options_len);
    while (tern_ndp_opt_next(&it, &opt) == 1) {
        if (opt.type == TERN_NDP_OPT_ROUTE_INFO && n < max) {
            assert_int_equal(tern_ndp_opt_route_info_parse(&out[n++], &opt), 0);
        }
    }
    return n;
}

static int route_info_set(tern_netopt_t op, const char *prefix, uint8_t len, int8_t preference, uint32_t lifetime_s)
{
    tern_ipv6_route_info_t cfg = { .prefix = A(prefix), .prefix_len = len, .preference = preference,
                                   .lifetime_s = lifetime_s };
    return tern_netapi_set(&ip.module, op, netif.index, &cfg, sizeof(cfg));
}

/* RFC 4191 §2.3: configured routes go out in Route Information options; a change is advertised soon. */
static void test_router__route_information_options(void **state)
{
    (void)state;
    become_router();
    run_for(60 * SEC); /* past the initial advertisements */
    nsent = 0;
    assert_int_equal(route_info_set(TERN_NETOPT_IPV6_ROUTE_INFO_ADD, "2001:db8:7::1", 48, 1, 0),
                     (int)sizeof(tern_ipv6_route_info_t));
    assert_int_equal(route_info_set(TERN_NETOPT_IPV6_ROUTE_INFO_ADD, "2001:db8:8::9", 128, -1, 0xffffffffu),
                     (int)sizeof(tern_ipv6_route_info_t));
    /* The same prefix again replaces its entry; a full table, bad values refused. */
    assert_int_equal(route_info_set(TERN_NETOPT_IPV6_ROUTE_INFO_ADD, "2001:db8:7::", 48, 0, 600),
                     (int)sizeof(tern_ipv6_route_info_t));
    if (TERN_CONF_IPV6_ROUTE_INFO == 2) {
        assert_int_equal(route_info_set(TERN_NETOPT_IPV6_ROUTE_INFO_ADD, "2001:db8:9::", 64, 0, 0), -ENOSPC);
    }
    assert_int_equal(route_info_set(TERN_NETOPT_IPV6_ROUTE_INFO_ADD, "2001:db8:9::", 129, 0, 0), -EINVAL);
    assert_int_equal(route_info_set(TERN_NETOPT_IPV6_ROUTE_INFO_ADD, "2001:db8:9::", 64, 2, 0), -EINVAL);
    tern_ipv6_route_info_list_t list;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_ROUTE_INFO, netif.index, &list, sizeof(list)),
                     (int)sizeof(list));
    tern_ipv6_addr_t p48 = A("2001:db8:7::");
    assert_true(list.entries[0].used && list.entries[0].prefix_len == 48);
    assert_true(tern_ipv6_addr_equal(&list.entries[0].prefix, &p48)); /* masked */
    /* RFC 4861 §6.2.4: the information changed: an RA soon (within MAX_RA_DELAY_TIME here). */
    run_for(1 * SEC);
    unsigned ra[4];
    assert_int_equal(sent_of_type(TERN_ICMPV6_ROUTER_ADVERT, ra, 4), 1);
    tern_ndp_opt_route_info_t rio[4];
    assert_int_equal(ra_route_infos(ra[0], rio, 4), 2);
    assert_int_equal(rio[0].prefix_len, 48);
    assert_int_equal(rio[0].preference, 0);
    assert_int_equal(rio[0].lifetime, 600);
    assert_true(tern_ipv6_addr_equal(&rio[0].prefix, &p48));
    tern_ipv6_addr_t host = A("2001:db8:8::9");
    assert_int_equal(rio[1].prefix_len, 128);
    assert_int_equal(rio[1].preference, -1);
    assert_int_equal(rio[1].lifetime, TERN_NDP_LIFETIME_INFINITE);
    assert_true(tern_ipv6_addr_equal(&rio[1].prefix, &host));
    /* Lifetime 0 configured: the Router Lifetime we advertise (1800 s). */
    assert_int_equal(route_info_set(TERN_NETOPT_IPV6_ROUTE_INFO_ADD, "2001:db8:7::", 48, 1, 0),
                     (int)sizeof(tern_ipv6_route_info_t));
    assert_int_equal(route_info_set(TERN_NETOPT_IPV6_ROUTE_INFO_DEL, "2001:db8:8::9", 128, 0, 0),
                     (int)sizeof(tern_ipv6_route_info_t));
    assert_int_equal(route_info_set(TERN_NETOPT_IPV6_ROUTE_INFO_DEL, "2001:db8:8::9", 128, 0, 0), -ENOENT);
    run_for(4 * SEC); /* MIN_DELAY_BETWEEN_RAS after the previous one */
    assert_int_equal(sent_of_type(TERN_ICMPV6_ROUTER_ADVERT, ra, 4), 2);
    assert_int_equal(ra_route_infos(ra[1], rio, 4), 1);
    assert_int_equal(rio[0].preference, 1);
    assert_int_equal(rio[0].lifetime, 1800);
    /* The PIO is still there; the RIO follows it. */
    tern_ndp_ra_repr_t parsed;
    tern_ndp_opt_t opt;
    assert_int_equal(tern_ndp_ra_parse(&parsed, sent[ra[1]] + 40, sent_len[ra[1]] - 40), TERN_NDP_RA_LEN);
    assert_int_equal(tern_ndp_opt_find(parsed.options, parsed.options_len, TERN_NDP_OPT_PREFIX_INFO, &opt), 1);
    assert_int_equal(parsed.options_len, 8 + 8 + 32 + 16);
}

/* A host takes no route from a Route Information option (RFC 4191 §3: a type A host). */
static void test_ra__host_ignores_route_information(void **state)
{
    (void)state;
    uint8_t opts[64];
    size_t n = 0;
    tern_ndp_opt_route_info_t rio = { .prefix_len = 64, .preference = 1, .lifetime = 1800,
                                      .prefix = A("2001:db8:5::") };
    n += (size_t)tern_ndp_opt_route_info_emit(&rio, opts + n, sizeof(opts) - n);
    tern_ndp_ra_repr_t ra = { .cur_hop_limit = 64, .router_lifetime = 1800, .options = opts, .options_len = n };
    uint8_t msg[96];
    int len = tern_ndp_ra_emit(&ra, msg, sizeof(msg));
    assert_true(len > 0);
    uint8_t pkt[256];
    receive(pkt, build_icmp(pkt, PEER_LL, "ff02::1", 255, msg, (size_t)len));
    tern_ipv6_route_list_t list;
    assert_non_null(find_route(&list, "::", 0, PEER_LL)); /* the RA was taken */
    assert_null(find_route(&list, "2001:db8:5::", 64, PEER_LL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_rs__three_solicitations_4s_apart_from_unspecified_then_link_local),
        T(test_ra__default_route_prefix_slaac_and_parameters),
        T(test_ra__lifetimes_expire),
        T(test_ra__zero_lifetimes_remove_router_and_prefix),
        T(test_ra__reachable_time_above_an_hour_capped),
        T(test_ra__invalid_dropped_and_counted),
        T(test_router__unsolicited_advertisements_with_prefix),
        T(test_router__answers_rs_within_half_second_rate_limited),
        T(test_router__ignores_ra_and_leaving_sends_final_ra),
        T(test_router__route_information_options),
        T(test_ra__host_ignores_route_information),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
