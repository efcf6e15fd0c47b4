/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Neighbor cache: the RFC 4861 Appendix C state machine, step by step.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/ipv6/nc.h"
#include "tern/pktbuf.h"

#define SEC 1000000u
#define REACHABLE_TIME (30u * SEC)
#define RETRANS (1u * SEC)

static TERN_PKTBUF_STORAGE(arena, 4096);
static tern_pktbuf_t pb;
static tern_nc_t nc;

/* What the cache asked for. */
static unsigned ns_mcast, ns_ucast, transmitted, unreachable_count, dropped_count;
static tern_pkt_t *last_transmitted, *last_unreachable, *last_dropped;
static uint8_t last_l2[TERN_CONF_L2ADDR_MAX];
static tern_ipv6_addr_t reentrant_target; /* unreachable() sends here when set */
static bool reenter;

static void on_send_ns(void *ctx, const tern_nc_entry_t *e, bool unicast)
{
    (void)ctx;
    (void)e;
    if (unicast) {
        ns_ucast++;
    } else {
        ns_mcast++;
    }
}

static void on_transmit(void *ctx, const tern_nc_entry_t *e, tern_pkt_t *pkt)
{
    (void)ctx;
    transmitted++;
    last_transmitted = pkt;
    memcpy(last_l2, e->l2addr, e->l2addr_len);
    tern_pktbuf_release(&pb, pkt);
}

static void on_unreachable(void *ctx, const tern_ipv6_addr_t *addr, tern_pkt_t *pkt)
{
    (void)ctx;
    (void)addr;
    unreachable_count++;
    last_unreachable = pkt;
    if (reenter) {
        /* As an owner would: an ICMPv6 error goes back through the cache. */
        tern_pkt_t *err = tern_pktbuf_add(&pb, NULL, "icmp", 4, TERN_NETTYPE_ICMPV6);
        assert_non_null(err);
        assert_int_equal(tern_nc_send(&nc, &reentrant_target, err, 0), 0);
    }
    tern_pktbuf_release(&pb, pkt);
}

static void on_dropped(void *ctx, tern_pkt_t *pkt)
{
    (void)ctx;
    dropped_count++;
    last_dropped = pkt;
    tern_pktbuf_release(&pb, pkt);
}

static const tern_nc_ops_t ops = { on_send_ns, on_transmit, on_unreachable, on_dropped };

static tern_ipv6_addr_t addr(uint8_t last)
{
    tern_ipv6_addr_t a = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, last } };
    return a;
}

static const uint8_t mac_a[6] = { 0x02, 0, 0, 0, 0, 0xaa };
static const uint8_t mac_b[6] = { 0x02, 0, 0, 0, 0, 0xbb };

static tern_pkt_t *packet(void)
{
    tern_pkt_t *p = tern_pktbuf_add(&pb, NULL, "data", 4, TERN_NETTYPE_IPV6);
    assert_non_null(p);
    return p;
}

static int setup(void **state)
{
    (void)state;
    assert_int_equal(tern_pktbuf_init(&pb, arena, sizeof(arena), NULL), 0);
    tern_nc_init(&nc, &ops, NULL, REACHABLE_TIME, RETRANS);
    ns_mcast = ns_ucast = transmitted = unreachable_count = dropped_count = 0;
    last_transmitted = last_unreachable = last_dropped = NULL;
    reenter = false;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    /* Whatever is still queued comes back through unreachable(). */
    for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        if (nc.entries[i].state != TERN_NC_FREE) {
            tern_ipv6_addr_t a = nc.entries[i].addr;
            tern_nc_remove(&nc, &a);
        }
    }
    harness_assert_pktbuf_clean(&pb);
    return 0;
}

static tern_nc_state_t state_of(uint8_t last)
{
    tern_ipv6_addr_t a = addr(last);
    tern_nc_entry_t *e = tern_nc_lookup(&nc, &a);
    return (e == NULL) ? TERN_NC_FREE : (tern_nc_state_t)e->state;
}

static const tern_nc_na_flags_t SOLICITED = { false, true, true };
static const tern_nc_na_flags_t UNSOLICITED_OVERRIDE = { false, false, true };
static const tern_nc_na_flags_t UNSOLICITED_NO_OVERRIDE = { false, false, false };

/* Bring neighbor @p last to REACHABLE with mac_a at time @p now. */
static void make_reachable(uint8_t last, uint64_t now)
{
    tern_ipv6_addr_t a = addr(last);
    assert_int_equal(tern_nc_send(&nc, &a, packet(), now), 0);
    (void)tern_nc_na_received(&nc, &a, mac_a, 6, SOLICITED, now);
    assert_int_equal(state_of(last), TERN_NC_REACHABLE);
}

static void test_tern_nc_send__unknown_neighbor_is_resolved(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr(1);
    tern_pkt_t *p = packet();
    assert_int_equal(tern_nc_send(&nc, &a, p, 0), 0);
    assert_int_equal(state_of(1), TERN_NC_INCOMPLETE);
    assert_int_equal(ns_mcast, 1);
    assert_int_equal(transmitted, 0);
    assert_int_equal(tern_nc_next_deadline(&nc), RETRANS);

    assert_false(tern_nc_na_received(&nc, &a, mac_a, 6, SOLICITED, 500));
    assert_int_equal(state_of(1), TERN_NC_REACHABLE);
    assert_int_equal(transmitted, 1);
    assert_ptr_equal(last_transmitted, p);
    assert_memory_equal(last_l2, mac_a, 6);
    assert_int_equal(tern_nc_next_deadline(&nc), 500 + REACHABLE_TIME);
}

static void test_tern_nc_tick__resolution_gives_up_after_three_solicitations(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr(2);
    tern_pkt_t *p = packet();
    assert_int_equal(tern_nc_send(&nc, &a, p, 0), 0);
    tern_nc_tick(&nc, RETRANS - 1);
    assert_int_equal(ns_mcast, 1);
    tern_nc_tick(&nc, RETRANS);
    assert_int_equal(ns_mcast, 2);
    tern_nc_tick(&nc, 2 * RETRANS);
    assert_int_equal(ns_mcast, 3);
    assert_int_equal(unreachable_count, 0);
    tern_nc_tick(&nc, 3 * RETRANS);
    assert_int_equal(ns_mcast, 3);
    assert_int_equal(unreachable_count, 1);
    assert_ptr_equal(last_unreachable, p);
    assert_int_equal(state_of(2), TERN_NC_FREE);
    assert_int_equal(nc.counters[TERN_NC_RESOLVE_FAILED], 1);
    assert_int_equal(tern_nc_next_deadline(&nc), UINT64_MAX);
}

static void test_tern_nc_send__full_queue_replaces_oldest(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr(3);
    tern_pkt_t *first = packet();
    assert_int_equal(tern_nc_send(&nc, &a, first, 0), 0);
    for (unsigned i = 1; i < TERN_CONF_NC_QUEUE_LEN; i++) {
        assert_int_equal(tern_nc_send(&nc, &a, packet(), 0), 0);
    }
    assert_int_equal(dropped_count, 0);
    tern_pkt_t *newest = packet();
    assert_int_equal(tern_nc_send(&nc, &a, newest, 0), 0);
    assert_int_equal(dropped_count, 1);
    assert_ptr_equal(last_dropped, first);
    assert_int_equal(nc.counters[TERN_NC_QUEUE_OVERFLOW], 1);
    assert_int_equal(ns_mcast, 1); /* no extra solicitation per packet */
    (void)tern_nc_na_received(&nc, &a, mac_a, 6, SOLICITED, 1);
    assert_int_equal(transmitted, TERN_CONF_NC_QUEUE_LEN);
    assert_ptr_equal(last_transmitted, newest);
}

static void test_tern_nc_tick__reachable_stale_delay_probe_gone(void **state)
{
    (void)state;
    make_reachable(4, 0);
    tern_nc_tick(&nc, REACHABLE_TIME);
    assert_int_equal(state_of(4), TERN_NC_STALE);
    assert_int_equal(tern_nc_next_deadline(&nc), UINT64_MAX); /* STALE has no timer */

    uint64_t t = REACHABLE_TIME + 10 * SEC;
    tern_ipv6_addr_t a = addr(4);
    assert_int_equal(tern_nc_send(&nc, &a, packet(), t), 0);
    assert_int_equal(state_of(4), TERN_NC_DELAY);
    assert_int_equal(transmitted, 2);
    tern_nc_tick(&nc, t + TERN_NC_DELAY_FIRST_PROBE_TIME_US);
    assert_int_equal(state_of(4), TERN_NC_PROBE);
    assert_int_equal(ns_ucast, 1);
    t += TERN_NC_DELAY_FIRST_PROBE_TIME_US;
    tern_nc_tick(&nc, t + RETRANS);
    tern_nc_tick(&nc, t + 2 * RETRANS);
    assert_int_equal(ns_ucast, 3);
    assert_int_equal(state_of(4), TERN_NC_PROBE);
    tern_nc_tick(&nc, t + 3 * RETRANS);
    assert_int_equal(state_of(4), TERN_NC_FREE);
    assert_int_equal(nc.counters[TERN_NC_PROBE_FAILED], 1);
}

static void test_tern_nc_na_received__probe_answered(void **state)
{
    (void)state;
    make_reachable(5, 0);
    tern_nc_tick(&nc, REACHABLE_TIME);
    tern_ipv6_addr_t a = addr(5);
    assert_int_equal(tern_nc_send(&nc, &a, packet(), REACHABLE_TIME), 0);
    tern_nc_tick(&nc, REACHABLE_TIME + TERN_NC_DELAY_FIRST_PROBE_TIME_US);
    assert_int_equal(state_of(5), TERN_NC_PROBE);
    (void)tern_nc_na_received(&nc, &a, NULL, 0, SOLICITED, REACHABLE_TIME + 6 * SEC);
    assert_int_equal(state_of(5), TERN_NC_REACHABLE);
}

static void test_tern_nc_confirm__delay_becomes_reachable(void **state)
{
    (void)state;
    make_reachable(6, 0);
    tern_nc_tick(&nc, REACHABLE_TIME);
    tern_ipv6_addr_t a = addr(6);
    assert_int_equal(tern_nc_send(&nc, &a, packet(), REACHABLE_TIME), 0);
    assert_int_equal(state_of(6), TERN_NC_DELAY);
    tern_nc_confirm(&nc, &a, REACHABLE_TIME + 1);
    assert_int_equal(state_of(6), TERN_NC_REACHABLE);
    /* Confirming an unresolved neighbor does nothing. */
    tern_ipv6_addr_t b = addr(7);
    assert_int_equal(tern_nc_send(&nc, &b, packet(), 0), 0);
    tern_nc_confirm(&nc, &b, 1);
    assert_int_equal(state_of(7), TERN_NC_INCOMPLETE);
}

static void test_tern_nc_na_received__no_override_with_other_address(void **state)
{
    (void)state;
    make_reachable(8, 0);
    tern_ipv6_addr_t a = addr(8);
    /* §7.2.5 (a): REACHABLE becomes STALE, the address is kept. */
    (void)tern_nc_na_received(&nc, &a, mac_b, 6, UNSOLICITED_NO_OVERRIDE, 1);
    assert_int_equal(state_of(8), TERN_NC_STALE);
    assert_memory_equal(tern_nc_lookup(&nc, &a)->l2addr, mac_a, 6);
    /* (b): otherwise ignored. */
    (void)tern_nc_na_received(&nc, &a, mac_b, 6, UNSOLICITED_NO_OVERRIDE, 2);
    assert_int_equal(state_of(8), TERN_NC_STALE);
    assert_memory_equal(tern_nc_lookup(&nc, &a)->l2addr, mac_a, 6);
}

static void test_tern_nc_na_received__override_updates_address(void **state)
{
    (void)state;
    make_reachable(9, 0);
    tern_ipv6_addr_t a = addr(9);
    (void)tern_nc_na_received(&nc, &a, mac_b, 6, UNSOLICITED_OVERRIDE, 1);
    assert_int_equal(state_of(9), TERN_NC_STALE);
    assert_memory_equal(tern_nc_lookup(&nc, &a)->l2addr, mac_b, 6);
    /* Same address, unsolicited: no change of state. */
    (void)tern_nc_na_received(&nc, &a, mac_b, 6, UNSOLICITED_OVERRIDE, 2);
    assert_int_equal(state_of(9), TERN_NC_STALE);
}

static void test_tern_nc_na_received__incomplete_needs_target_address(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr(10);
    assert_int_equal(tern_nc_send(&nc, &a, packet(), 0), 0);
    (void)tern_nc_na_received(&nc, &a, NULL, 0, SOLICITED, 1);
    assert_int_equal(state_of(10), TERN_NC_INCOMPLETE);
    /* Unsolicited with an address: STALE, and the queue goes out. */
    (void)tern_nc_na_received(&nc, &a, mac_a, 6, UNSOLICITED_OVERRIDE, 2);
    assert_int_equal(state_of(10), TERN_NC_STALE);
    assert_int_equal(transmitted, 1);
    /* Unknown targets are ignored. */
    tern_ipv6_addr_t b = addr(11);
    assert_false(tern_nc_na_received(&nc, &b, mac_a, 6, SOLICITED, 3));
    assert_int_equal(state_of(11), TERN_NC_FREE);
}

static void test_tern_nc_na_received__router_flag_cleared(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr(12);
    assert_int_equal(tern_nc_lladdr_seen(&nc, &a, mac_a, 6, true, 0), 0);
    assert_true(tern_nc_lookup(&nc, &a)->is_router);
    tern_nc_na_flags_t host = { false, true, false };
    assert_true(tern_nc_na_received(&nc, &a, mac_a, 6, host, 1));
    assert_false(tern_nc_lookup(&nc, &a)->is_router);
}

static void test_tern_nc_lladdr_seen__creates_and_updates(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr(13);
    assert_int_equal(tern_nc_lladdr_seen(&nc, &a, mac_a, 6, false, 0), 0);
    assert_int_equal(state_of(13), TERN_NC_STALE);
    assert_false(tern_nc_lookup(&nc, &a)->is_router);
    make_reachable(14, 0);
    tern_ipv6_addr_t b = addr(14);
    /* Same address: REACHABLE stays. */
    assert_int_equal(tern_nc_lladdr_seen(&nc, &b, mac_a, 6, false, 1), 0);
    assert_int_equal(state_of(14), TERN_NC_REACHABLE);
    /* Another address: STALE with the new one. */
    assert_int_equal(tern_nc_lladdr_seen(&nc, &b, mac_b, 6, false, 2), 0);
    assert_int_equal(state_of(14), TERN_NC_STALE);
    assert_memory_equal(tern_nc_lookup(&nc, &b)->l2addr, mac_b, 6);
    assert_int_equal(tern_nc_lladdr_seen(&nc, &b, mac_b, 0, false, 3), -EINVAL);
}

static void test_tern_nc_lladdr_seen__incomplete_sends_queue(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr(15);
    assert_int_equal(tern_nc_send(&nc, &a, packet(), 0), 0);
    assert_int_equal(tern_nc_lladdr_seen(&nc, &a, mac_b, 6, false, 10), 0);
    assert_int_equal(transmitted, 1);
    assert_memory_equal(last_l2, mac_b, 6);
    /* Packets went out to a not yet confirmed neighbor: DELAY (§7.3.3). */
    assert_int_equal(state_of(15), TERN_NC_DELAY);
}

static void test_tern_nc_send__full_table_evicts_least_recently_used(void **state)
{
    (void)state;
    /* A router, then hosts used at increasing times. */
    tern_ipv6_addr_t router = addr(100);
    assert_int_equal(tern_nc_lladdr_seen(&nc, &router, mac_a, 6, true, 0), 0);
    for (uint8_t i = 1; i < TERN_CONF_NC_SIZE; i++) {
        tern_ipv6_addr_t h = addr((uint8_t)(100 + i));
        assert_int_equal(tern_nc_lladdr_seen(&nc, &h, mac_b, 6, false, i), 0);
    }
    tern_ipv6_addr_t newcomer = addr(200);
    assert_int_equal(tern_nc_send(&nc, &newcomer, packet(), 50), 0);
    assert_int_equal(nc.counters[TERN_NC_EVICTED], 1);
    assert_int_equal(state_of(101), TERN_NC_FREE); /* oldest host */
    assert_int_equal(state_of(100), TERN_NC_STALE); /* the router stays */
    assert_int_equal(state_of(200), TERN_NC_INCOMPLETE);
}

/*
 * Least recently used by use, not by creation: a send refreshes an entry. The
 * entries' use stamps count modulo 2^32 (4 bytes each instead of an 8-byte
 * time); the ages compare across the wrap of the count.
 */
static void test_tern_nc_send__evicts_least_recently_used_across_use_count_wrap(void **state)
{
    (void)state;
    nc.uses = UINT32_MAX - 2u; /* the stamps below run through 0 after the second entry */
    for (uint8_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        tern_ipv6_addr_t h = addr((uint8_t)(100 + i));
        assert_int_equal(tern_nc_lladdr_seen(&nc, &h, mac_b, 6, false, 0), 0);
    }
    /* The first entry, the oldest, is used again: the second is the least recent now. */
    tern_ipv6_addr_t first = addr(100);
    assert_int_equal(tern_nc_send(&nc, &first, packet(), 0), 0);
    tern_ipv6_addr_t newcomer = addr(200);
    assert_int_equal(tern_nc_lladdr_seen(&nc, &newcomer, mac_a, 6, false, 0), 0);
    assert_int_equal(nc.counters[TERN_NC_EVICTED], 1);
    assert_int_equal(state_of(101), TERN_NC_FREE);
    assert_int_not_equal(state_of(100), TERN_NC_FREE);
    assert_int_equal(state_of(200), TERN_NC_STALE);
}

static void test_tern_nc_send__evicted_incomplete_reports_its_packets(void **state)
{
    (void)state;
    for (uint8_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        tern_ipv6_addr_t a = addr((uint8_t)(20 + i));
        assert_int_equal(tern_nc_send(&nc, &a, packet(), i), 0);
    }
    tern_ipv6_addr_t a = addr(99);
    assert_int_equal(tern_nc_send(&nc, &a, packet(), 100), 0);
    assert_int_equal(unreachable_count, 1);
    assert_int_equal(state_of(20), TERN_NC_FREE);
}

static void test_tern_nc_tick__reentrant_send_from_unreachable(void **state)
{
    (void)state;
    /* Fill the table with INCOMPLETE entries that all fail at once; each
     * failure makes the owner send through the cache again. */
    for (uint8_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        tern_ipv6_addr_t a = addr((uint8_t)(40 + i));
        assert_int_equal(tern_nc_send(&nc, &a, packet(), 0), 0);
    }
    reenter = true;
    reentrant_target = addr(60);
    tern_nc_tick(&nc, RETRANS);
    tern_nc_tick(&nc, 2 * RETRANS);
    tern_nc_tick(&nc, 3 * RETRANS);
    reenter = false;
    assert_int_equal(unreachable_count, TERN_CONF_NC_SIZE);
    assert_int_equal(state_of(60), TERN_NC_INCOMPLETE);
}

static void test_tern_nc_remove__returns_queued_packets(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr(70);
    assert_int_equal(tern_nc_send(&nc, &a, packet(), 0), 0);
    tern_nc_remove(&nc, &a);
    assert_int_equal(unreachable_count, 1);
    assert_int_equal(state_of(70), TERN_NC_FREE);
    tern_nc_remove(&nc, &a); /* absent: nothing happens */
    assert_int_equal(unreachable_count, 1);
}

static void test_tern_nc_redirect_received__router_target_with_tlla(void **state)
{
    (void)state;
    /* §8.3: a new entry is STALE with the option's address; a router target gets IsRouter. */
    tern_ipv6_addr_t a = addr(20);
    assert_int_equal(tern_nc_redirect_received(&nc, &a, mac_a, 6, true, 0), 0);
    assert_int_equal(state_of(20), TERN_NC_STALE);
    assert_true(tern_nc_lookup(&nc, &a)->is_router);
    assert_memory_equal(tern_nc_lookup(&nc, &a)->l2addr, mac_a, 6);
    /* Same address again: the state stays (here REACHABLE). */
    make_reachable(21, 1);
    tern_ipv6_addr_t b = addr(21);
    assert_false(tern_nc_lookup(&nc, &b)->is_router);
    assert_int_equal(tern_nc_redirect_received(&nc, &b, mac_a, 6, true, 2), 0);
    assert_int_equal(state_of(21), TERN_NC_REACHABLE);
    assert_true(tern_nc_lookup(&nc, &b)->is_router);
    /* A different address: STALE with it. */
    assert_int_equal(tern_nc_redirect_received(&nc, &b, mac_b, 6, true, 3), 0);
    assert_int_equal(state_of(21), TERN_NC_STALE);
    assert_memory_equal(tern_nc_lookup(&nc, &b)->l2addr, mac_b, 6);
    assert_int_equal(tern_nc_redirect_received(&nc, &b, mac_b, TERN_CONF_L2ADDR_MAX + 1u, true, 4), -EINVAL);
}

static void test_tern_nc_redirect_received__on_link_target_and_no_option(void **state)
{
    (void)state;
    /* §8.3: target == destination: a new entry is not a router, an existing one keeps its flag. */
    tern_ipv6_addr_t a = addr(22);
    assert_int_equal(tern_nc_redirect_received(&nc, &a, mac_a, 6, false, 0), 0);
    assert_false(tern_nc_lookup(&nc, &a)->is_router);
    tern_ipv6_addr_t r = addr(23);
    assert_int_equal(tern_nc_lladdr_seen(&nc, &r, mac_b, 6, true, 0), 0); /* known as a router from an RA */
    assert_int_equal(tern_nc_redirect_received(&nc, &r, mac_b, 6, false, 1), 0);
    assert_true(tern_nc_lookup(&nc, &r)->is_router);
    /* Without the option: no entry is made, an existing one is marked a router. */
    tern_ipv6_addr_t c = addr(24);
    assert_int_equal(tern_nc_redirect_received(&nc, &c, NULL, 0, true, 2), 0);
    assert_null(tern_nc_lookup(&nc, &c));
    assert_false(tern_nc_lookup(&nc, &a)->is_router);
    assert_int_equal(tern_nc_redirect_received(&nc, &a, NULL, 0, true, 3), 0);
    assert_true(tern_nc_lookup(&nc, &a)->is_router);
    assert_int_equal(state_of(22), TERN_NC_STALE);
}

static void test_tern_nc_redirect_received__incomplete_target_sends_queue(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr(25);
    assert_int_equal(tern_nc_send(&nc, &a, packet(), 0), 0);
    assert_int_equal(tern_nc_redirect_received(&nc, &a, mac_b, 6, true, 10), 0);
    assert_int_equal(transmitted, 1);
    assert_memory_equal(last_l2, mac_b, 6);
    assert_int_equal(state_of(25), TERN_NC_DELAY); /* STALE, then a packet went (§7.3.3) */
    assert_true(tern_nc_lookup(&nc, &a)->is_router);
}

/* The entry for @p a found by a scan of every slot, and the earliest timer. */
static tern_nc_entry_t *lookup_all_slots(const tern_ipv6_addr_t *a)
{
    for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        if (nc.entries[i].state != TERN_NC_FREE && tern_ipv6_addr_equal(&nc.entries[i].addr, a)) {
            return &nc.entries[i];
        }
    }
    return NULL;
}

static uint64_t next_deadline_all_slots(void)
{
    uint64_t next = UINT64_MAX;
    for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        if (nc.entries[i].state != TERN_NC_FREE && nc.entries[i].deadline_us < next) {
            next = nc.entries[i].deadline_us;
        }
    }
    return next;
}

/* Lookups scan up to one past the highest slot in use (top, a fast path):
 * through random sends, advertisements, removals, failed resolutions and
 * evictions (with sends from unreachable() among them) they find what a scan
 * of every slot finds, and top is exactly one past the highest used slot. */
static void test_tern_nc_top__bounds_every_scan(void **state)
{
    (void)state;
    uint32_t x = 0x2468aceu;
    uint64_t now = 0;
    unsigned max_top = 0;
    for (unsigned step = 0; step < 20000; step++) {
        x = x * 1103515245u + 12345u;
        unsigned op = (x >> 16) % 8u;
        tern_ipv6_addr_t a = addr((uint8_t)((x >> 4) % (TERN_CONF_NC_SIZE + 4u))); /* more than fit */
        reenter = ((x >> 24) % 4u) == 0;
        reentrant_target = addr((uint8_t)((x >> 8) % (TERN_CONF_NC_SIZE + 4u)));
        if (op < 2) {
            tern_pkt_t *p = tern_pktbuf_add(&pb, NULL, "data", 4, TERN_NETTYPE_IPV6);
            if (p != NULL) {
                assert_int_equal(tern_nc_send(&nc, &a, p, now), 0);
            }
        } else if (op == 2) {
            tern_nc_na_flags_t f = { (x & 1u) != 0, (x & 2u) != 0, (x & 4u) != 0 };
            (void)tern_nc_na_received(&nc, &a, mac_b, 6, f, now);
        } else if (op == 3) {
            assert_int_equal(tern_nc_lladdr_seen(&nc, &a, (x & 1u) ? mac_a : mac_b, 6, (x & 2u) != 0, now), 0);
        } else if (op == 4) {
            tern_nc_confirm(&nc, &a, now);
        } else if (op == 5) {
            tern_nc_remove(&nc, &a);
        } else {
            now += ((x >> 12) % 4u) * SEC;
            tern_nc_tick(&nc, now);
        }
        unsigned top = 0;
        for (unsigned i = 0; i < TERN_CONF_NC_SIZE; i++) {
            top = (nc.entries[i].state != TERN_NC_FREE) ? i + 1u : top;
        }
#if TERN_CONF_FAST_PATHS
        assert_int_equal(nc.top, top);
#endif
        max_top = (top > max_top) ? top : max_top;
        for (uint8_t n = 0; n < TERN_CONF_NC_SIZE + 4u; n++) {
            tern_ipv6_addr_t b = addr(n);
            assert_ptr_equal(tern_nc_lookup(&nc, &b), lookup_all_slots(&b));
        }
        assert_true(tern_nc_next_deadline(&nc) == next_deadline_all_slots());
    }
    reenter = false;
    assert_int_equal(max_top, TERN_CONF_NC_SIZE); /* the table was full at times */
    assert_true(unreachable_count > 0 && ns_ucast > 0);  /* resolutions and probes failed */
}

static void test_tern_nc_state_name__all(void **state)
{
    (void)state;
    assert_string_equal(tern_nc_state_name(TERN_NC_INCOMPLETE), "INCOMPLETE");
    assert_string_equal(tern_nc_state_name(TERN_NC_REACHABLE), "REACHABLE");
    assert_string_equal(tern_nc_state_name(TERN_NC_STALE), "STALE");
    assert_string_equal(tern_nc_state_name(TERN_NC_DELAY), "DELAY");
    assert_string_equal(tern_nc_state_name(TERN_NC_PROBE), "PROBE");
    assert_string_equal(tern_nc_state_name(TERN_NC_FREE), "FREE");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_tern_nc_send__unknown_neighbor_is_resolved),
        T(test_tern_nc_tick__resolution_gives_up_after_three_solicitations),
        T(test_tern_nc_send__full_queue_replaces_oldest),
        T(test_tern_nc_tick__reachable_stale_delay_probe_gone),
        T(test_tern_nc_na_received__probe_answered),
        T(test_tern_nc_confirm__delay_becomes_reachable),
        T(test_tern_nc_na_received__no_override_with_other_address),
        T(test_tern_nc_na_received__override_updates_address),
        T(test_tern_nc_na_received__incomplete_needs_target_address),
        T(test_tern_nc_na_received__router_flag_cleared),
        T(test_tern_nc_lladdr_seen__creates_and_updates),
        T(test_tern_nc_lladdr_seen__incomplete_sends_queue),
        T(test_tern_nc_send__full_table_evicts_least_recently_used),
        T(test_tern_nc_send__evicts_least_recently_used_across_use_count_wrap),
        T(test_tern_nc_send__evicted_incomplete_reports_its_packets),
        T(test_tern_nc_tick__reentrant_send_from_unreachable),
        T(test_tern_nc_remove__returns_queued_packets),
        T(test_tern_nc_redirect_received__router_target_with_tlla),
        T(test_tern_nc_redirect_received__on_link_target_and_no_option),
        T(test_tern_nc_redirect_received__incomplete_target_sends_queue),
        T(test_tern_nc_top__bounds_every_scan),
        T(test_tern_nc_state_name__all),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
