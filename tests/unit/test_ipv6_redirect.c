/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Redirect reception of a host (RFC 4861 §8.1, §8.3) through the test
 *        device, under virtual time: the destination cache and the neighbor
 *        cache after a valid Redirect, where the next packets go, and every
 *        validity check as its own counted drop.
 *
 * The node is a host with 2001:db8:1::5/64 and a default router fe80::1
 * (PEER_LL) learnt from a Router Advertisement. Destination D =
 * 2001:db8:9::9 is off-link. Packets to D are the node's echo replies to
 * requests from D. The raw link shows no link addresses, so where a reply
 * goes is read from the neighbor cache: a STALE next hop moves to DELAY
 * when a packet is sent to it (§7.3.3), an unknown one is solicited first.
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

static const char *const NODE = "2001:db8:1::5";
static const char *const D = "2001:db8:9::9";
static const uint8_t TARGET_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x22 };

/* ------------------------------------------------------------ helpers */

/* An RA from the peer (fe80::1) with router lifetime 1800 s and its SLLA. */
static size_t build_ra(uint8_t *out)
{
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = PEER_MAC, .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_ra_repr_t ra = { .router_lifetime = 1800, .options = opt, .options_len = (size_t)olen };
    uint8_t msg[64];
    int n = tern_ndp_ra_emit(&ra, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, PEER_LL, "ff02::1", 255, msg, (size_t)n);
}

/* The Redirect message (no IPv6 header) for @p dest to @p target, with a TLLA of @p mac unless NULL. */
static size_t redirect_msg(uint8_t *msg, size_t max, const char *target, const char *dest, const uint8_t *mac)
{
    uint8_t opt[8];
    size_t olen = 0;
    if (mac != NULL) {
        tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_TLLA, .addr = mac, .addr_len = 6 };
        olen = (size_t)tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    }
    tern_ndp_redirect_repr_t rd = { .target = A(target), .destination = A(dest), .options = opt,
                                    .options_len = olen };
    int n = tern_ndp_redirect_emit(&rd, msg, max);
    assert_true(n > 0);
    return (size_t)n;
}

/* A Redirect from @p src with hop limit 255 to the node. */
static size_t build_redirect(uint8_t *out, const char *src, const char *target, const char *dest,
                             const uint8_t *mac)
{
    uint8_t msg[128];
    size_t n = redirect_msg(msg, sizeof(msg), target, dest, mac);
    return build_icmp(out, src, NODE, 255, msg, n);
}

/* The node's neighbor entry for @p text, or NULL (copied into @p list). */
static const tern_nc_entry_t *neighbor(tern_ipv6_neighbor_list_t *list, const char *text)
{
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_NEIGHBORS, netif.index, list, sizeof(*list)),
                     (int)sizeof(*list));
    tern_ipv6_addr_t a = A(text);
    for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        if (list->entries[i].state != TERN_NC_FREE && tern_ipv6_addr_equal(&list->entries[i].addr, &a)) {
            return &list->entries[i];
        }
    }
    return NULL;
}

static tern_nc_state_t neighbor_state(const char *text)
{
    tern_ipv6_neighbor_list_t list;
    const tern_nc_entry_t *e = neighbor(&list, text);
    return (e != NULL) ? (tern_nc_state_t)e->state : TERN_NC_FREE;
}

/* The destination cache entry for @p text, or NULL (copied into @p list). */
static const tern_dcache_entry_t *destination(tern_ipv6_dest_list_t *list, const char *text)
{
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_DESTINATIONS, 0, list, sizeof(*list)),
                     (int)sizeof(*list));
    tern_ipv6_addr_t a = A(text);
    for (size_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        if (list->entries[i].used && tern_ipv6_addr_equal(&list->entries[i].dst, &a)) {
            return &list->entries[i];
        }
    }
    return NULL;
}

static unsigned dest_entries(void)
{
    tern_ipv6_dest_list_t list;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_DESTINATIONS, 0, &list, sizeof(list)),
                     (int)sizeof(list));
    unsigned n = 0;
    for (size_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        n += list.entries[i].used ? 1u : 0u;
    }
    return n;
}

/* Frames of ICMPv6 @p type sent since the last reset. */
static unsigned sent_count(uint8_t type)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nsent; i++) {
        tern_ipv6_repr_t h;
        n += (sent_icmp(i, &h) == type) ? 1u : 0u;
    }
    return n;
}

/* Was a Neighbor Solicitation for @p target sent? */
static bool solicited(const char *target)
{
    tern_ipv6_addr_t t = A(target);
    for (unsigned i = 0; i < nsent; i++) {
        tern_ipv6_repr_t h;
        tern_ndp_ns_repr_t ns;
        if (sent_icmp(i, &h) == TERN_ICMPV6_NEIGHBOR_SOLICIT &&
            tern_ndp_ns_parse(&ns, sent[i] + 40, sent_len[i] - 40) > 0 && tern_ipv6_addr_equal(&ns.target, &t)) {
            return true;
        }
    }
    return false;
}

/* D pings the node: the reply goes towards D. */
static void ping_from(const char *src, uint16_t seq)
{
    uint8_t pkt[128];
    receive(pkt, build_echo(pkt, src, NODE, seq));
}

static int setup(void **state)
{
    (void)state;
    vnode_setup(1500);
    settle();
    tern_ipv6_addr_config_t cfg = { .addr = A(NODE), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_ADD, netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
    run_for(1100 * MS); /* DAD */
    assert_int_equal(addr_state(NODE), TERN_IPV6_ADDR_PREFERRED);
    uint8_t pkt[128];
    receive(pkt, build_ra(pkt)); /* default router fe80::1, STALE in the cache; solicitations stop */
    assert_int_equal(counter(TERN_IPV6_RA_RECEIVED), 1);
    assert_int_equal(neighbor_state(PEER_LL), TERN_NC_STALE);
    nsent = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    vnode_teardown();
    return 0;
}

/* ------------------------------------------------------------ valid redirects */

static void test_redirect__to_router_with_tlla_sets_next_hop_and_neighbor(void **state)
{
    (void)state;
    /* Before: replies to D go to the default router. */
    ping_from(D, 1);
    assert_int_equal(sent_count(TERN_ICMPV6_ECHO_REPLY), 1);
    assert_int_equal(neighbor_state(PEER_LL), TERN_NC_DELAY);
    nsent = 0;
    uint8_t pkt[160];
    receive(pkt, build_redirect(pkt, PEER_LL, "fe80::2", D, TARGET_MAC));
    assert_int_equal(counter(TERN_IPV6_REDIRECT_ACCEPTED), 1);
    /* §8.3: the destination cache names the target... */
    tern_ipv6_dest_list_t dl;
    const tern_dcache_entry_t *d = destination(&dl, D);
    assert_non_null(d);
    assert_true(d->redirected);
    tern_ipv6_addr_t target = A("fe80::2");
    assert_true(tern_ipv6_addr_equal(&d->next_hop, &target));
    assert_int_equal(d->if_index, netif.index);
    assert_int_equal(d->pmtu, 0);
    assert_true(d->updated_us <= dl.now_us);
    assert_true(d->redirect_expires_us == d->updated_us + (uint64_t)TERN_CONF_IPV6_REDIRECT_TIMEOUT_S * SEC);
    /* ... and the neighbor cache has it STALE, a router, with the TLLA's address. */
    tern_ipv6_neighbor_list_t nl;
    const tern_nc_entry_t *e = neighbor(&nl, "fe80::2");
    assert_non_null(e);
    assert_int_equal(e->state, TERN_NC_STALE);
    assert_true(e->is_router);
    assert_int_equal(e->l2addr_len, 6);
    assert_memory_equal(e->l2addr, TARGET_MAC, 6);
    assert_int_equal(nsent, 0); /* nothing to say back */
    /* The next reply to D goes to the target (STALE -> DELAY), not through fe80::1. */
    ping_from(D, 2);
    assert_int_equal(sent_count(TERN_ICMPV6_ECHO_REPLY), 1);
    assert_int_equal(neighbor_state("fe80::2"), TERN_NC_DELAY);
    /* Another destination still goes by the table. */
    nsent = 0;
    ping_from("2001:db8:7::7", 3);
    assert_int_equal(sent_count(TERN_ICMPV6_ECHO_REPLY), 1);
    assert_false(solicited("2001:db8:7::7"));
}

static void test_redirect__without_tlla_target_is_resolved_first(void **state)
{
    (void)state;
    uint8_t pkt[160];
    receive(pkt, build_redirect(pkt, PEER_LL, "fe80::2", D, NULL));
    assert_int_equal(counter(TERN_IPV6_REDIRECT_ACCEPTED), 1);
    assert_int_equal(neighbor_state("fe80::2"), TERN_NC_FREE); /* no option: no entry */
    ping_from(D, 1);
    /* §7.2.2: the reply waits while the target is solicited. */
    assert_int_equal(sent_count(TERN_ICMPV6_ECHO_REPLY), 0);
    assert_true(solicited("fe80::2"));
    assert_int_equal(neighbor_state("fe80::2"), TERN_NC_INCOMPLETE);
    nsent = 0;
    receive(pkt, build_na(pkt, "fe80::2", NODE_LL, "fe80::2",
                          TERN_NDP_NA_FLAG_ROUTER | TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE));
    assert_int_equal(sent_count(TERN_ICMPV6_ECHO_REPLY), 1);
    tern_ipv6_repr_t h;
    for (unsigned i = 0; i < nsent; i++) {
        if (sent_icmp(i, &h) == TERN_ICMPV6_ECHO_REPLY) {
            tern_ipv6_addr_t d = A(D);
            assert_true(tern_ipv6_addr_equal(&h.dst, &d)); /* the destination stays D: only the next hop changed */
        }
    }
    assert_int_equal(neighbor_state("fe80::2"), TERN_NC_REACHABLE);
}

static void test_redirect__target_equal_to_destination_is_on_link(void **state)
{
    (void)state;
    uint8_t pkt[160];
    receive(pkt, build_redirect(pkt, PEER_LL, D, D, TARGET_MAC));
    assert_int_equal(counter(TERN_IPV6_REDIRECT_ACCEPTED), 1);
    tern_ipv6_dest_list_t dl;
    const tern_dcache_entry_t *d = destination(&dl, D);
    assert_non_null(d);
    tern_ipv6_addr_t dst = A(D);
    assert_true(tern_ipv6_addr_equal(&d->next_hop, &dst));
    /* §8.3: a new entry for an on-link target is not a router. */
    tern_ipv6_neighbor_list_t nl;
    const tern_nc_entry_t *e = neighbor(&nl, D);
    assert_non_null(e);
    assert_int_equal(e->state, TERN_NC_STALE);
    assert_false(e->is_router);
    ping_from(D, 1);
    assert_int_equal(sent_count(TERN_ICMPV6_ECHO_REPLY), 1);
    assert_int_equal(neighbor_state(D), TERN_NC_DELAY); /* sent to D itself */
    assert_int_equal(neighbor_state(PEER_LL), TERN_NC_STALE);
}

static void test_redirect__same_link_address_keeps_neighbor_state(void **state)
{
    (void)state;
    uint8_t pkt[160];
    /* fe80::2 known and confirmed: REACHABLE with PEER_MAC. */
    receive(pkt, build_ns(pkt, "fe80::2", "ff02::1:ff00:5301", NODE_LL, 255));
    receive(pkt, build_na(pkt, "fe80::2", NODE_LL, "fe80::2", TERN_NDP_NA_FLAG_SOLICITED));
    assert_int_equal(neighbor_state("fe80::2"), TERN_NC_REACHABLE);
    /* §8.3: the same link-layer address leaves the state alone; IsRouter is set. */
    receive(pkt, build_redirect(pkt, PEER_LL, "fe80::2", D, PEER_MAC));
    tern_ipv6_neighbor_list_t nl;
    const tern_nc_entry_t *e = neighbor(&nl, "fe80::2");
    assert_int_equal(e->state, TERN_NC_REACHABLE);
    assert_true(e->is_router);
    /* A different one makes it STALE with the new address. */
    receive(pkt, build_redirect(pkt, "fe80::2", "fe80::2", "2001:db8:9::a", TARGET_MAC));
    assert_int_equal(counter(TERN_IPV6_REDIRECT_NOT_FIRST_HOP), 1); /* fe80::2 is not the first hop for ::a */
    receive(pkt, build_redirect(pkt, PEER_LL, "fe80::2", "2001:db8:9::a", TARGET_MAC));
    e = neighbor(&nl, "fe80::2");
    assert_int_equal(e->state, TERN_NC_STALE);
    assert_memory_equal(e->l2addr, TARGET_MAC, 6);
    assert_int_equal(counter(TERN_IPV6_REDIRECT_ACCEPTED), 2);
}

static void test_redirect__from_redirected_first_hop_accepted_old_router_not(void **state)
{
    (void)state;
    uint8_t pkt[160];
    receive(pkt, build_redirect(pkt, PEER_LL, "fe80::2", D, TARGET_MAC));
    assert_int_equal(counter(TERN_IPV6_REDIRECT_ACCEPTED), 1);
    /* §8.1: fe80::1 is no longer the first hop for D; fe80::2 is. */
    receive(pkt, build_redirect(pkt, PEER_LL, "fe80::3", D, NULL));
    assert_int_equal(counter(TERN_IPV6_REDIRECT_NOT_FIRST_HOP), 1);
    receive(pkt, build_redirect(pkt, "fe80::2", "fe80::3", D, NULL));
    assert_int_equal(counter(TERN_IPV6_REDIRECT_ACCEPTED), 2);
    tern_ipv6_dest_list_t dl;
    const tern_dcache_entry_t *d = destination(&dl, D);
    tern_ipv6_addr_t r3 = A("fe80::3");
    assert_true(tern_ipv6_addr_equal(&d->next_hop, &r3));
    assert_int_equal(dest_entries(), 1);
}

static void test_redirect__expires_then_table_again(void **state)
{
    (void)state;
    uint8_t pkt[160];
    receive(pkt, build_redirect(pkt, PEER_LL, "fe80::2", D, TARGET_MAC));
    run_for((uint64_t)TERN_CONF_IPV6_REDIRECT_TIMEOUT_S * SEC - 2);
    assert_int_equal(dest_entries(), 1);
    run_for(2);
    assert_int_equal(dest_entries(), 0); /* TERN_CONF_IPV6_REDIRECT_TIMEOUT_S */
    nsent = 0;
    ping_from(D, 1);
    assert_int_equal(sent_count(TERN_ICMPV6_ECHO_REPLY), 1);
    assert_int_equal(neighbor_state(PEER_LL), TERN_NC_DELAY); /* through the default router again */
    assert_int_equal(neighbor_state("fe80::2"), TERN_NC_STALE);
}

static void test_redirect__unreachable_target_forgotten(void **state)
{
    (void)state;
    uint8_t pkt[160];
    receive(pkt, build_redirect(pkt, PEER_LL, "fe80::2", D, NULL));
    ping_from(D, 1);
    assert_true(solicited("fe80::2"));
    /* §7.2.2: three solicitations, RetransTimer apart, no answer. */
    run_for(3 * SEC);
    assert_int_equal(neighbor_state("fe80::2"), TERN_NC_FREE);
    assert_int_equal(counter(TERN_IPV6_TX_UNRESOLVED), 1); /* our reply: counted, no error to ourselves */
    assert_int_equal(sent_count(TERN_ICMPV6_DST_UNREACH), 0);
    /* §7.3.3: the redirect through it is gone; the next reply takes the default router. */
    assert_int_equal(dest_entries(), 0);
    nsent = 0;
    ping_from(D, 2);
    assert_int_equal(sent_count(TERN_ICMPV6_ECHO_REPLY), 1);
    assert_int_equal(neighbor_state(PEER_LL), TERN_NC_DELAY);
}

/* ------------------------------------------------------------ invalid redirects (§8.1) */

/* Hand @p len bytes to the node and check that exactly counter @p c moved, and nothing was learnt. */
static void expect_rejected(const uint8_t *pkt, size_t len, unsigned c)
{
    tern_counter_t before[TERN_IPV6_STAT_NUMOF];
    memcpy(before, ip.counters, sizeof(before));
    receive(pkt, len);
    assert_int_equal(counter(c), before[c] + 1u);
    static const unsigned reasons[] = {
        TERN_IPV6_REDIRECT_ACCEPTED,      TERN_IPV6_REDIRECT_ON_ROUTER,     TERN_IPV6_REDIRECT_BAD_SOURCE,
        TERN_IPV6_REDIRECT_BAD_HOP_LIMIT, TERN_IPV6_REDIRECT_BAD_CODE,      TERN_IPV6_REDIRECT_TOO_SHORT,
        TERN_IPV6_REDIRECT_NOT_FIRST_HOP, TERN_IPV6_REDIRECT_MULTICAST_DST, TERN_IPV6_REDIRECT_BAD_TARGET,
        TERN_IPV6_REDIRECT_BAD_OPTIONS,   TERN_IPV6_ICMP_BAD_CHECKSUM,
    };
    for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
        if (reasons[i] != c) {
            assert_int_equal(counter(reasons[i]), before[reasons[i]]);
        }
    }
    assert_int_equal(dest_entries(), 0);
    assert_int_equal(neighbor_state("fe80::2"), TERN_NC_FREE);
    assert_int_equal(nsent, 0);
}

static void test_redirect__each_invalid_one_dropped_and_counted(void **state)
{
    (void)state;
    uint8_t pkt[200];
    uint8_t msg[128];
    size_t n;
    /* IP source not link-local (a global address of the router). */
    expect_rejected(pkt, build_redirect(pkt, "2001:db8:1::1", "fe80::2", D, TARGET_MAC),
                    TERN_IPV6_REDIRECT_BAD_SOURCE);
    /* IP hop limit 254: it may have been forwarded. */
    n = redirect_msg(msg, sizeof(msg), "fe80::2", D, TARGET_MAC);
    expect_rejected(pkt, build_icmp(pkt, PEER_LL, NODE, 254, msg, n), TERN_IPV6_REDIRECT_BAD_HOP_LIMIT);
    /* ICMP code 1. */
    n = redirect_msg(msg, sizeof(msg), "fe80::2", D, TARGET_MAC);
    msg[1] = 1;
    expect_rejected(pkt, build_icmp(pkt, PEER_LL, NODE, 255, msg, n), TERN_IPV6_REDIRECT_BAD_CODE);
    /* ICMP length 39: the Destination Address is cut. */
    n = redirect_msg(msg, sizeof(msg), "fe80::2", D, NULL);
    expect_rejected(pkt, build_icmp(pkt, PEER_LL, NODE, 255, msg, 39), TERN_IPV6_REDIRECT_TOO_SHORT);
    /* An option of length 0 after a valid TLLA. */
    n = redirect_msg(msg, sizeof(msg), "fe80::2", D, TARGET_MAC);
    static const uint8_t zero_len_option[8] = { 31, 0, 0, 0, 0, 0, 0, 0 };
    memcpy(msg + n, zero_len_option, sizeof(zero_len_option));
    expect_rejected(pkt, build_icmp(pkt, PEER_LL, NODE, 255, msg, n + 8), TERN_IPV6_REDIRECT_BAD_OPTIONS);
    /* An option running past the end (length 2 units, 8 bytes there). */
    n = redirect_msg(msg, sizeof(msg), "fe80::2", D, NULL);
    static const uint8_t overrun_option[8] = { 2, 2, 0x02, 0, 0x5e, 0, 0x53, 0x22 };
    memcpy(msg + n, overrun_option, sizeof(overrun_option));
    expect_rejected(pkt, build_icmp(pkt, PEER_LL, NODE, 255, msg, n + 8), TERN_IPV6_REDIRECT_BAD_OPTIONS);
    /* Multicast Destination Address (routed by the default route: the first-hop check alone would pass). */
    expect_rejected(pkt, build_redirect(pkt, PEER_LL, "fe80::2", "ff0e::1", TARGET_MAC),
                    TERN_IPV6_REDIRECT_MULTICAST_DST);
    /* Target neither link-local nor the destination. */
    expect_rejected(pkt, build_redirect(pkt, PEER_LL, "2001:db8:1::2", D, TARGET_MAC),
                    TERN_IPV6_REDIRECT_BAD_TARGET);
    /* Not from the current first hop for D (fe80::1 is). */
    expect_rejected(pkt, build_redirect(pkt, "fe80::3", "fe80::2", D, TARGET_MAC),
                    TERN_IPV6_REDIRECT_NOT_FIRST_HOP);
    /* An on-link destination has no first-hop router at all. */
    expect_rejected(pkt, build_redirect(pkt, PEER_LL, "fe80::2", "2001:db8:1::77", TARGET_MAC),
                    TERN_IPV6_REDIRECT_NOT_FIRST_HOP);
    /* Bad ICMP checksum: dropped before anything else looks at it. */
    n = build_redirect(pkt, PEER_LL, "fe80::2", D, TARGET_MAC);
    pkt[42] ^= 0x01;
    expect_rejected(pkt, n, TERN_IPV6_ICMP_BAD_CHECKSUM);
    assert_int_equal(counter(TERN_IPV6_REDIRECT_ACCEPTED), 0);
    /* Replies to D still go to the default router. */
    ping_from(D, 1);
    assert_int_equal(neighbor_state(PEER_LL), TERN_NC_DELAY);
}

static void test_redirect__ignored_by_router(void **state)
{
    (void)state;
    if (!TERN_CONF_IPV6_ROUTER) {
        skip(); /* a host image (config.h): no router mode */
    }
    assert_int_equal(tern_ipv6_set_router(&ip, true), 0);
    run_for(1);
    tern_ipv6_route_config_t route = { .prefix = A("::"), .next_hop = A(PEER_LL), .prefix_len = 0 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, netif.index, &route, sizeof(route)),
                     (int)sizeof(route));
    nsent = 0;
    uint8_t pkt[160];
    receive(pkt, build_redirect(pkt, PEER_LL, "fe80::2", D, TARGET_MAC));
    /* RFC 4861 §8.2: "A router MUST NOT update its routing tables upon receipt of a Redirect." */
    assert_int_equal(counter(TERN_IPV6_REDIRECT_ON_ROUTER), 1);
    assert_int_equal(counter(TERN_IPV6_REDIRECT_ACCEPTED), 0);
    assert_int_equal(dest_entries(), 0);
    assert_int_equal(neighbor_state("fe80::2"), TERN_NC_FREE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_redirect__to_router_with_tlla_sets_next_hop_and_neighbor),
        T(test_redirect__without_tlla_target_is_resolved_first),
        T(test_redirect__target_equal_to_destination_is_on_link),
        T(test_redirect__same_link_address_keeps_neighbor_state),
        T(test_redirect__from_redirected_first_hop_accepted_old_router_not),
        T(test_redirect__expires_then_table_again),
        T(test_redirect__unreachable_target_forgotten),
        T(test_redirect__each_invalid_one_dropped_and_counted),
        T(test_redirect__ignored_by_router),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
