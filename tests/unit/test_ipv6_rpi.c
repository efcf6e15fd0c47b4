/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL Packet Information in the IPv6 module (RFC 6553, RFC 6550
 *        §11.2), driven by a data-plane state set by hand
 *        (TERN_NETOPT_IPV6_RPL_STATE), on one test interface under virtual time.
 *
 * The node (2001:db8::1, rank 512 = DAGRank 2 with MinHopRankIncrease 256,
 * instance 1, storing mode) is a router with a default route via the peer
 * fe80::...99 and a route to 2001:db8:2::/64 via the same peer. Whether a
 * next hop is "up" depends only on the parent named in the state, so each
 * test names the peer as parent (up) or another address (down).
 *
 * Golden bytes: the Hop-by-Hop header of an originated packet is
 *   3a 00 | 63 04 | 00 01 02 00
 * Next Header ICMPv6, Hdr Ext Len 0 (8 octets, RFC 8200 §4.3); option type
 * 0x63, Opt Data Len 4 (RFC 6553 §3); flags O=0 R=0 F=0; RPLInstanceID 1;
 * SenderRank 0x0200 (512).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/rpl_hbh.h"
#include "vnode.h"

static const char *const NODE = "2001:db8::1";
static const char *const FAR = "2001:db8:ff::5";  /* by the default route */
static const char *const DOWN = "2001:db8:2::5";  /* by the /64 route */
static const char *const OTHER_PARENT = "fe80::1:1";

static unsigned rank_errors;
static unsigned routes_failed;
static tern_ipv6_addr_t failed_target;

static void on_event(void *ctx, tern_ipv6_rpi_event_t event, const tern_ipv6_addr_t *target)
{
    assert_ptr_equal(ctx, &ip);
    if (event == TERN_IPV6_RPI_EVENT_RANK_ERROR) {
        rank_errors++;
    } else {
        assert_non_null(target);
        failed_target = *target;
        routes_failed++;
    }
}

static int set_state(const char *parent, uint8_t instance, bool joined)
{
    tern_ipv6_rpl_state_t st;
    memset(&st, 0, sizeof(st));
    st.parent = A(parent);
    st.parent_if = netif.index;
    st.event = on_event;
    st.ctx = &ip;
    st.if_index[0] = netif.index;
    st.rank = 512;
    st.min_hop_rank_increase = 256;
    st.instance_id = instance;
    st.option_type = TERN_RPL_HBH_OPT_TYPE;
    st.running = true;
    st.joined = joined;
    st.storing = true;
    return tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st));
}

static void add_route(const char *prefix, uint8_t len, uint8_t origin)
{
    tern_ipv6_route_config_t r = { .prefix = A(prefix), .next_hop = A(PEER_LL), .prefix_len = len,
                                   .origin = origin, .lifetime_s = (origin == TERN_FIB_ROUTING) ? 300u : 0u };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, netif.index, &r, sizeof(r)),
                     (int)sizeof(r));
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
    assert_int_equal(tern_ipv6_set_router(&ip, true), 0);
    add_route("::", 0, TERN_FIB_STATIC);
    add_route("2001:db8:2::", 64, TERN_FIB_STATIC);
    /* The peer's link address, from its NS: the node can send to it at once. */
    uint8_t pkt[128];
    receive(pkt, build_ns(pkt, PEER_LL, NODE_LL, NODE_LL, 255));
    rank_errors = 0;
    routes_failed = 0;
    nsent = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    vnode_teardown();
    return 0;
}

/* An echo request from @p src to @p dst with a Hop-by-Hop header holding the RPL Option @p o. */
static size_t build_rpi_echo(uint8_t *out, const char *src, const char *dst, const tern_rpl_hbh_opt_t *o)
{
    uint8_t plain[128];
    size_t n = build_echo(plain, src, dst, 7);
    tern_ipv6_repr_t h;
    assert_true(tern_ipv6_parse(&h, plain, n) >= 0);
    h.next_header = TERN_IPV6_NH_HOP_BY_HOP;
    h.payload_len = (uint16_t)(h.payload_len + TERN_RPL_HBH_HDR_LEN);
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    assert_int_equal(tern_rpl_hbh_emit(o, TERN_ICMPV6_NEXT_HEADER, out + 40, TERN_RPL_HBH_HDR_LEN),
                     (int)TERN_RPL_HBH_HDR_LEN);
    memcpy(out + 48, plain + 40, n - 40); /* the ICMPv6 checksum does not cover the header */
    return n + TERN_RPL_HBH_HDR_LEN;
}

static tern_rpl_hbh_opt_t opt(bool down, bool r, bool f, uint8_t instance, uint16_t rank)
{
    tern_rpl_hbh_opt_t o = { .type = TERN_RPL_HBH_OPT_TYPE, .down = down, .rank_error = r,
                             .forwarding_error = f, .instance_id = instance, .sender_rank = rank };
    return o;
}

/* The last frame sent to @p dst: its RPL Option (asserted present), or -1 if none was sent. */
static int sent_to(const char *dst, tern_rpl_hbh_opt_t *o)
{
    tern_ipv6_addr_t d = A(dst);
    for (unsigned i = nsent; i-- > 0;) {
        tern_ipv6_repr_t h;
        if (tern_ipv6_parse(&h, sent[i], sent_len[i]) < 0 || !tern_ipv6_addr_equal(&h.dst, &d)) {
            continue;
        }
        if (o != NULL) {
            assert_int_equal(h.next_header, TERN_IPV6_NH_HOP_BY_HOP);
            assert_int_equal(tern_rpl_hbh_find(o, NULL, sent[i] + 40, TERN_RPL_HBH_HDR_LEN), 1);
        }
        return (int)i;
    }
    return -1;
}

/* ------------------------------------------------------------ tests */

static void test_rpi_state__bad_values_refused(void **state)
{
    (void)state;
    tern_ipv6_rpl_state_t st;
    memset(&st, 0, sizeof(st));
    st.option_type = 0x64;
    st.min_hop_rank_increase = 256;
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st)), -EINVAL);
    st.option_type = TERN_RPL_HBH_OPT_TYPE;
    st.min_hop_rank_increase = 0;
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st)), -EINVAL);
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, 3), -EINVAL);
}

/* GET returns the bytes last SET, all zero before (RPL compares its state with them, rpi_state.c),
 * and keeps them when a bad value is refused. */
static void test_rpi_state__get_returns_the_bytes_set(void **state)
{
    (void)state;
    tern_ipv6_rpl_state_t got, zero;
    memset(&zero, 0, sizeof(zero));
    memset(&got, 0xA5, sizeof(got));
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &got, sizeof(got)), (int)sizeof(got));
    assert_memory_equal(&got, &zero, sizeof(got));
    assert_int_equal(set_state(PEER_LL, 7, true), (int)sizeof(got));
    tern_ipv6_rpl_state_t st;
    memset(&st, 0, sizeof(st));
    st.parent = A(PEER_LL);
    st.parent_if = netif.index;
    st.event = on_event;
    st.ctx = &ip;
    st.if_index[0] = netif.index;
    st.rank = 512;
    st.min_hop_rank_increase = 256;
    st.instance_id = 7;
    st.option_type = TERN_RPL_HBH_OPT_TYPE;
    st.running = true;
    st.joined = true;
    st.storing = true;
    memset(&got, 0xA5, sizeof(got));
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &got, sizeof(got)), (int)sizeof(got));
    assert_memory_equal(&got, &st, sizeof(st));
    st.min_hop_rank_increase = 0;
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st)), -EINVAL);
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &got, sizeof(got)), (int)sizeof(got));
    assert_int_equal(got.min_hop_rank_increase, 256);
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &got, 3), -EOVERFLOW);
}

static void test_originate__echo_reply_carries_golden_rpi(void **state)
{
    (void)state;
    assert_int_equal(set_state(PEER_LL, 1, true), (int)sizeof(tern_ipv6_rpl_state_t));
    uint8_t pkt[160];
    /* The request itself carries an RPL Option: a known option now (RFC 6553 §3, type 0x63 would be discarded as unknown). */
    tern_rpl_hbh_opt_t in = opt(true, false, false, 1, 256);
    receive(pkt, build_rpi_echo(pkt, FAR, NODE, &in));
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 1);
    int i = sent_to(FAR, NULL);
    assert_true(i >= 0);
    static const uint8_t golden[8] = { 0x3a, 0x00, 0x63, 0x04, 0x00, 0x01, 0x02, 0x00 };
    tern_ipv6_repr_t h;
    assert_true(tern_ipv6_parse(&h, sent[i], sent_len[i]) >= 0);
    assert_int_equal(h.next_header, TERN_IPV6_NH_HOP_BY_HOP);
    assert_memory_equal(sent[i] + 40, golden, sizeof(golden));
    assert_int_equal(sent[i][48], TERN_ICMPV6_ECHO_REPLY);
    assert_int_equal(h.payload_len, sent_len[i] - 40);
    assert_int_equal(counter(TERN_IPV6_RPI_ADDED), 1);
    /* Down (the next hop is not the parent): O set. */
    assert_int_equal(set_state(OTHER_PARENT, 1, true), (int)sizeof(tern_ipv6_rpl_state_t));
    nsent = 0;
    receive(pkt, build_rpi_echo(pkt, FAR, NODE, &in));
    tern_rpl_hbh_opt_t o;
    assert_true(sent_to(FAR, &o) >= 0);
    assert_true(o.down);
    /* Not in a DODAG: no option; link-local destinations never get one. */
    assert_int_equal(set_state(PEER_LL, 1, false), (int)sizeof(tern_ipv6_rpl_state_t));
    nsent = 0;
    receive(pkt, build_echo(pkt, FAR, NODE, 8));
    i = sent_to(FAR, NULL);
    assert_true(i >= 0);
    assert_int_equal(sent[i][6], TERN_ICMPV6_NEXT_HEADER);
    assert_int_equal(set_state(PEER_LL, 1, true), (int)sizeof(tern_ipv6_rpl_state_t));
    nsent = 0;
    receive(pkt, build_echo(pkt, PEER_LL, NODE_LL, 9));
    i = sent_to(PEER_LL, NULL);
    assert_true(i >= 0);
    assert_int_equal(sent[i][6], TERN_ICMPV6_NEXT_HEADER);
    assert_int_equal(counter(TERN_IPV6_RPI_ADDED), 2);
}

static void test_forward__sender_rank_and_direction_updated(void **state)
{
    (void)state;
    uint8_t pkt[160];
    tern_rpl_hbh_opt_t o;
    /* Up: O=0 from a child (768), towards the parent: O stays 0, SenderRank ours. */
    assert_int_equal(set_state(PEER_LL, 1, true), (int)sizeof(tern_ipv6_rpl_state_t));
    tern_rpl_hbh_opt_t in = opt(false, false, false, 1, 768);
    receive(pkt, build_rpi_echo(pkt, "2001:db8:3::9", FAR, &in));
    assert_true(sent_to(FAR, &o) >= 0);
    assert_false(o.down);
    assert_false(o.rank_error);
    assert_int_equal(o.sender_rank, 512);
    assert_int_equal(o.instance_id, 1);
    /* Down: O=0 from a child turning down at us (storing mode, §9.8): O set. */
    assert_int_equal(set_state(OTHER_PARENT, 1, true), (int)sizeof(tern_ipv6_rpl_state_t));
    nsent = 0;
    receive(pkt, build_rpi_echo(pkt, "2001:db8:3::9", DOWN, &in));
    assert_true(sent_to(DOWN, &o) >= 0);
    assert_true(o.down);
    assert_false(o.rank_error);
    assert_int_equal(o.sender_rank, 512);
    assert_int_equal(counter(TERN_IPV6_RPI_FORWARDED), 2);
    assert_int_equal(counter(TERN_IPV6_RPI_RANK_ERROR), 0);
    assert_int_equal(rank_errors, 0);
}

static void test_forward__rank_error_sets_r_then_drops(void **state)
{
    (void)state;
    uint8_t pkt[160];
    tern_rpl_hbh_opt_t o;
    assert_int_equal(set_state(OTHER_PARENT, 1, true), (int)sizeof(tern_ipv6_rpl_state_t));
    /* §11.2.2.2: O set (down) from a node of higher rank (DAGRank 3 > 2). */
    tern_rpl_hbh_opt_t in = opt(true, false, false, 1, 768);
    receive(pkt, build_rpi_echo(pkt, "2001:db8:3::9", DOWN, &in));
    assert_true(sent_to(DOWN, &o) >= 0);
    assert_true(o.rank_error);
    assert_true(o.down);
    assert_int_equal(counter(TERN_IPV6_RPI_RANK_ERROR), 1);
    assert_int_equal(rank_errors, 1);
    /* Same rank by DAGRank (512..767): consistent. */
    nsent = 0;
    in = opt(true, false, false, 1, 700);
    receive(pkt, build_rpi_echo(pkt, "2001:db8:3::9", DOWN, &in));
    assert_true(sent_to(DOWN, &o) >= 0);
    assert_false(o.rank_error);
    /* The second inconsistency on the path: dropped, counted, Trickle reset asked. */
    nsent = 0;
    in = opt(true, true, false, 1, 768);
    receive(pkt, build_rpi_echo(pkt, "2001:db8:3::9", DOWN, &in));
    assert_int_equal(sent_to(DOWN, NULL), -1);
    assert_int_equal(counter(TERN_IPV6_RPI_DROPPED_RANK), 1);
    assert_int_equal(rank_errors, 2);
    /* Up (O=0) from a node of lower rank (DAGRank 1): inconsistent too. */
    assert_int_equal(set_state(PEER_LL, 1, true), (int)sizeof(tern_ipv6_rpl_state_t));
    nsent = 0;
    in = opt(false, false, false, 1, 256);
    receive(pkt, build_rpi_echo(pkt, "2001:db8:3::9", FAR, &in));
    assert_true(sent_to(FAR, &o) >= 0);
    assert_true(o.rank_error);
    assert_int_equal(counter(TERN_IPV6_RPI_RANK_ERROR), 2);
}

static void test_forward__unknown_instance_dropped(void **state)
{
    (void)state;
    uint8_t pkt[160];
    assert_int_equal(set_state(PEER_LL, 1, true), (int)sizeof(tern_ipv6_rpl_state_t));
    tern_rpl_hbh_opt_t in = opt(false, false, false, 9, 768);
    receive(pkt, build_rpi_echo(pkt, "2001:db8:3::9", FAR, &in));
    assert_int_equal(sent_to(FAR, NULL), -1);
    assert_int_equal(counter(TERN_IPV6_RPI_UNKNOWN_INSTANCE), 1);
    /* Not in a DODAG (RPL runs, detached): no instance to forward along either. */
    assert_int_equal(set_state(PEER_LL, 1, false), (int)sizeof(tern_ipv6_rpl_state_t));
    in = opt(false, false, false, 1, 768);
    receive(pkt, build_rpi_echo(pkt, "2001:db8:3::9", FAR, &in));
    assert_int_equal(sent_to(FAR, NULL), -1);
    assert_int_equal(counter(TERN_IPV6_RPI_UNKNOWN_INSTANCE), 2);
    assert_int_equal(counter(TERN_IPV6_FWD_PACKETS), 0);
}

static void test_forward__forwarding_error_sets_f_and_parent_removes_route(void **state)
{
    (void)state;
    uint8_t pkt[160];
    tern_rpl_hbh_opt_t o;
    assert_int_equal(set_state(PEER_LL, 1, true), (int)sizeof(tern_ipv6_rpl_state_t));
    /* §11.2.2.3: marked down, and only the default route (to the parent): F set, back up. */
    tern_rpl_hbh_opt_t in = opt(true, false, false, 1, 256);
    receive(pkt, build_rpi_echo(pkt, "2001:db8:3::9", FAR, &in));
    assert_true(sent_to(FAR, &o) >= 0);
    assert_true(o.forwarding_error);
    assert_true(o.down);
    assert_int_equal(counter(TERN_IPV6_RPI_FORWARDING_ERROR), 1);
    /* The parent's side: a DAO route (origin routing) to the target, a packet comes back with F. */
    const char *target = "2001:db8:4::7";
    add_route(target, 128, TERN_FIB_ROUTING);
    nsent = 0;
    in = opt(true, false, true, 1, 768);
    receive(pkt, build_rpi_echo(pkt, "2001:db8:3::9", target, &in));
    assert_int_equal(counter(TERN_IPV6_RPI_ROUTE_REMOVED), 1);
    assert_int_equal(routes_failed, 1);
    tern_ipv6_addr_t t = A(target);
    assert_true(tern_ipv6_addr_equal(&failed_target, &t));
    const tern_fib_route_t *left = tern_fib_lookup(&ip.fib, &t, clock_v.now);
    assert_true(left == NULL || left->len == 0); /* the /128 is gone */
    /* Tried again: only the default route (up) is left, and a packet going
     * down never goes up again (§11.2.2.3): dropped, counted. */
    assert_int_equal(sent_to(target, NULL), -1);
    assert_int_equal(counter(TERN_IPV6_RPI_DROPPED_FWD_ERROR), 1);
    assert_int_equal(counter(TERN_IPV6_RPI_FORWARDING_ERROR), 1);
}

static void test_receive__rpi_of_either_type_is_known(void **state)
{
    (void)state;
    uint8_t pkt[160];
    /* No RPL at all (no state set): a destination still accepts the RPL Option. */
    tern_rpl_hbh_opt_t in = opt(false, false, false, 1, 768);
    receive(pkt, build_rpi_echo(pkt, PEER_LL, NODE, &in));
    in.type = TERN_RPL_HBH_OPT_TYPE_RFC9008;
    receive(pkt, build_rpi_echo(pkt, PEER_LL, NODE, &in));
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 2);
    assert_int_equal(counter(TERN_IPV6_RX_EXT_DROPPED), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_rpi_state__bad_values_refused),
        T(test_rpi_state__get_returns_the_bytes_set),
        T(test_originate__echo_reply_carries_golden_rpi),
        T(test_forward__sender_rank_and_direction_updated),
        T(test_forward__rank_error_sets_r_then_drops),
        T(test_forward__unknown_instance_dropped),
        T(test_forward__forwarding_error_sets_f_and_parent_removes_route),
        T(test_receive__rpi_of_either_type_is_known),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
