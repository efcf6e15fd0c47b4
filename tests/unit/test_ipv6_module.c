/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IPv6 module end to end through the test device, under virtual
 *        time: DAD, echo, neighbor solicitation and advertisement, address
 *        resolution, and the drops RFC 8200 / RFC 4861 ask for.
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
#include "tern/wire/rpl_hbh.h"

static int setup(void **state)
{
    (void)state;
    vnode_setup(1280);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    vnode_teardown();
    return 0;
}

static void test_ipv6_enable__dad_probe_then_preferred(void **state)
{
    (void)state;
    assert_int_equal(addr_state(NODE_LL), TERN_IPV6_ADDR_TENTATIVE);
    run_for(1000 * MS); /* the first probe goes out within MAX_RTR_SOLICITATION_DELAY */
    /* So does the first Router Solicitation (RFC 4861 §6.3.7, test_ipv6_router.c): skip it. */
    tern_ipv6_repr_t h;
    unsigned probe = (nsent == 2 && sent_icmp(0, &h) == TERN_ICMPV6_ROUTER_SOLICIT) ? 1u : 0u;
    assert_true(nsent == 1 || nsent == 2);
    assert_int_equal(sent_icmp(probe, &h), TERN_ICMPV6_NEIGHBOR_SOLICIT);
    assert_true(tern_ipv6_addr_is_unspecified(&h.src));
    tern_ipv6_addr_t snm = A("ff02::1:ff00:5301");
    assert_true(tern_ipv6_addr_equal(&h.dst, &snm));
    assert_int_equal(h.hop_limit, 255);
    tern_ndp_ns_repr_t ns;
    assert_int_equal(tern_ndp_ns_parse(&ns, sent[probe] + 40, sent_len[probe] - 40), TERN_NDP_NS_LEN);
    tern_ipv6_addr_t ll = A(NODE_LL);
    assert_true(tern_ipv6_addr_equal(&ns.target, &ll));
    assert_int_equal(ns.options_len, 0); /* no SLLA from the unspecified address */
    run_for(1100 * MS);
    assert_int_equal(addr_state(NODE_LL), TERN_IPV6_ADDR_PREFERRED);
    unsigned probes = 0;
    for (unsigned i = 0; i < nsent; i++) {
        probes += (sent_icmp(i, &h) == TERN_ICMPV6_NEIGHBOR_SOLICIT) ? 1u : 0u;
    }
    assert_int_equal(probes, 1); /* DupAddrDetectTransmits = 1 */
}

static void test_ipv6_dad__ns_from_another_node_makes_duplicate(void **state)
{
    (void)state;
    uint8_t pkt[128];
    receive(pkt, build_ns(pkt, "::", "ff02::1:ff00:5301", NODE_LL, 255));
    assert_int_equal(addr_state(NODE_LL), TERN_IPV6_ADDR_DUPLICATE);
    assert_int_equal(counter(TERN_IPV6_DAD_DUPLICATES), 1);
    /* A duplicate is not ours: echo requests to it are not answered. */
    run_for(3 * SEC);
    nsent = 0;
    receive(pkt, build_echo(pkt, PEER_LL, NODE_LL, 1));
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 0);
    assert_int_equal(counter(TERN_IPV6_RX_NOT_FOR_US), 1);
}

static void test_ipv6_dad__tentative_address_takes_only_nd(void **state)
{
    (void)state;
    uint8_t pkt[128];
    receive(pkt, build_echo(pkt, PEER_LL, NODE_LL, 1));
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 0);
    assert_int_equal(counter(TERN_IPV6_RX_NOT_FOR_US), 1);
    /* NS from a unicast source for a tentative address: not answered, not a duplicate. */
    receive(pkt, build_ns(pkt, PEER_LL, "ff02::1:ff00:5301", NODE_LL, 255));
    assert_int_equal(addr_state(NODE_LL), TERN_IPV6_ADDR_TENTATIVE);
}

static void test_ipv6_ns__answered_with_solicited_na(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[128];
    receive(pkt, build_ns(pkt, PEER_LL, "ff02::1:ff00:5301", NODE_LL, 255));
    assert_int_equal(nsent, 1);
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(0, &h), TERN_ICMPV6_NEIGHBOR_ADVERT);
    tern_ipv6_addr_t peer = A(PEER_LL), node = A(NODE_LL);
    assert_true(tern_ipv6_addr_equal(&h.dst, &peer));
    assert_true(tern_ipv6_addr_equal(&h.src, &node));
    assert_int_equal(h.hop_limit, 255);
    tern_ndp_na_repr_t na;
    assert_int_equal(tern_ndp_na_parse(&na, sent[0] + 40, sent_len[0] - 40), TERN_NDP_NA_LEN);
    assert_int_equal(na.flags, TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE);
    tern_ndp_opt_t opt;
    assert_int_equal(tern_ndp_opt_find(na.options, na.options_len, TERN_NDP_OPT_TLLA, &opt), 1);
    assert_memory_equal(opt.data + 2, NODE_MAC, 6);
    /* The peer is now in the cache, from its SLLA (RFC 4861 §7.2.3: STALE, then DELAY on use). */
    tern_ipv6_neighbor_list_t list;
    assert_true(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_NEIGHBORS, netif.index, &list, sizeof(list)) > 0);
    bool found = false;
    for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        if (list.entries[i].state != TERN_NC_FREE && tern_ipv6_addr_equal(&list.entries[i].addr, &peer)) {
            found = true;
            assert_memory_equal(list.entries[i].l2addr, PEER_MAC, 6);
            assert_int_equal(list.entries[i].state, TERN_NC_DELAY);
        }
    }
    assert_true(found);
}

static void test_ipv6_ns__invalid_hop_limit_dropped(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[128];
    receive(pkt, build_ns(pkt, PEER_LL, "ff02::1:ff00:5301", NODE_LL, 64));
    assert_int_equal(nsent, 0);
    assert_int_equal(counter(TERN_IPV6_NDP_INVALID), 1);
}

static void test_ipv6_echo__resolves_peer_then_replies(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[128];
    size_t len = build_echo(pkt, PEER_LL, NODE_LL, 7);
    receive(pkt, len);
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 1);
    /* The peer is unknown: a multicast NS first, the reply waits. */
    assert_int_equal(nsent, 1);
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(0, &h), TERN_ICMPV6_NEIGHBOR_SOLICIT);
    tern_ipv6_addr_t snm = A("ff02::1:ff00:1");
    assert_true(tern_ipv6_addr_equal(&h.dst, &snm));
    receive(pkt, build_na(pkt, PEER_LL, NODE_LL, PEER_LL, TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE));
    assert_int_equal(nsent, 2);
    assert_int_equal(sent_icmp(1, &h), TERN_ICMPV6_ECHO_REPLY);
    tern_ipv6_addr_t peer = A(PEER_LL);
    assert_true(tern_ipv6_addr_equal(&h.dst, &peer));
    tern_icmpv6_echo_repr_t e;
    assert_true(tern_icmpv6_echo_parse(&e, sent[1] + 40, sent_len[1] - 40) > 0);
    assert_int_equal(e.identifier, 0x1234);
    assert_int_equal(e.sequence, 7);
    assert_int_equal(e.data_len, 12);
    assert_memory_equal(e.data, "tern-echo-12", 12);
    /* Now known: the next reply goes at once. */
    receive(pkt, build_echo(pkt, PEER_LL, NODE_LL, 8));
    assert_int_equal(nsent, 3);
    assert_int_equal(sent_icmp(2, &h), TERN_ICMPV6_ECHO_REPLY);
}

static void test_ipv6_receive__bad_packets_dropped_and_counted(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[160];
    size_t len = build_echo(pkt, PEER_LL, NODE_LL, 1);
    /* Bad checksum. */
    pkt[len - 1] ^= 0xFF;
    receive(pkt, len);
    assert_int_equal(counter(TERN_IPV6_ICMP_BAD_CHECKSUM), 1);
    /* Truncated: payload length says more than there is. */
    len = build_echo(pkt, PEER_LL, NODE_LL, 1);
    receive(pkt, len - 4);
    /* Not version 6. */
    len = build_echo(pkt, PEER_LL, NODE_LL, 1);
    pkt[0] = 0x40;
    receive(pkt, len);
    /* Multicast source. */
    len = build_echo(pkt, "ff02::1", NODE_LL, 1);
    receive(pkt, len);
    assert_int_equal(counter(TERN_IPV6_RX_HDR_ERRORS), 3);
    /* Someone else's address. */
    len = build_echo(pkt, PEER_LL, "fe80::77", 1);
    receive(pkt, len);
    assert_int_equal(counter(TERN_IPV6_RX_NOT_FOR_US), 1);
    assert_int_equal(nsent, 0);
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 0);
}

/* An echo request behind a Hop-by-Hop header holding one option of @p opt_type. */
static size_t build_echo_with_hbh(uint8_t *out, uint8_t opt_type)
{
    uint8_t inner[128];
    size_t ilen = build_echo(inner, PEER_LL, NODE_LL, 1);
    memcpy(out, inner, 40);
    /* HBH: next header 58, length 0 (8 bytes): option type, len 4, 4 data bytes. */
    const uint8_t hbh[8] = { 58, 0, opt_type, 4, 0, 0, 0, 0 };
    memcpy(out + 40, hbh, 8);
    memcpy(out + 48, inner + 40, ilen - 40);
    out[6] = 0; /* next header: Hop-by-Hop */
    uint16_t plen = (uint16_t)(ilen - 40 + 8);
    out[4] = (uint8_t)(plen >> 8);
    out[5] = (uint8_t)plen;
    return ilen + 8;
}

static void test_ipv6_receive__hop_by_hop_option_actions(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[200];
    /* Unknown option 0x1e (action 00: skip): the echo is answered. */
    receive(pkt, build_echo_with_hbh(pkt, 0x1e));
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 1);
    /* Unknown option 0x5e (action 01: discard). */
    receive(pkt, build_echo_with_hbh(pkt, 0x5e));
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 1);
    assert_int_equal(counter(TERN_IPV6_RX_EXT_DROPPED), 1);
    /* An atomic fragment is a whole packet (RFC 6946; more in test_ipv6_frag.c): answered. */
    uint8_t inner[128];
    size_t ilen = build_echo(inner, PEER_LL, NODE_LL, 2);
    memcpy(pkt, inner, 40);
    const uint8_t frag[8] = { 58, 0, 0, 0, 0, 0, 0, 1 }; /* offset 0, M 0: an atomic fragment */
    memcpy(pkt + 40, frag, 8);
    memcpy(pkt + 48, inner + 40, ilen - 40);
    pkt[6] = 44;
    pkt[5] = (uint8_t)(pkt[5] + 8);
    receive(pkt, ilen + 8);
    assert_int_equal(counter(TERN_IPV6_RX_EXT_DROPPED), 1);
    assert_int_equal(counter(TERN_IPV6_REASS_ATOMIC), 1);
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 2);
}

static void test_ipv6_set__address_added_runs_dad(void **state)
{
    (void)state;
    settle();
    tern_ipv6_addr_config_t cfg = { .addr = A("2001:db8::6"), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_ADD, netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_ADD, netif.index, &cfg, sizeof(cfg)),
                     -EEXIST);
    assert_int_equal(addr_state("2001:db8::6"), TERN_IPV6_ADDR_TENTATIVE);
    run_for(1100 * MS);
    assert_int_equal(addr_state("2001:db8::6"), TERN_IPV6_ADDR_PREFERRED);
    /* Global peers on the prefix are on-link: resolved like link-local ones. */
    nsent = 0;
    uint8_t pkt[128];
    receive(pkt, build_echo(pkt, "2001:db8::7", "2001:db8::6", 1));
    assert_int_equal(nsent, 1);
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(0, &h), TERN_ICMPV6_NEIGHBOR_SOLICIT);
    tern_ipv6_addr_t src = A("2001:db8::6");
    /* RFC 4861 §7.2.2: from the source of the packet that prompted it (the reply). */
    assert_true(tern_ipv6_addr_equal(&h.src, &src));
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_DEL, netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_DEL, netif.index, &cfg, sizeof(cfg)),
                     -ENOENT);
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_ADD, 9, &cfg, sizeof(cfg)), -ENODEV);
}

/* RFC 6553, RFC 6550 §11.2: RPL's data-plane state is taken when RPL is built;
 * without it (TERN_CONF_RPL 0, a RPL-Unaware Leaf, RFC 9008 §2) it is refused. */
static void test_ipv6_set__rpl_state_only_with_rpl(void **state)
{
    (void)state;
    settle();
    tern_ipv6_rpl_state_t st;
    memset(&st, 0, sizeof(st));
    st.if_index[0] = netif.index;
    st.rank = 256;
    st.min_hop_rank_increase = 256;
    st.option_type = TERN_RPL_HBH_OPT_TYPE;
    st.running = true;
    int res = tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st));
    assert_int_equal(res, TERN_CONF_RPL ? (int)sizeof(st) : -ENOTSUP);
}

/* RFC 6550 §6.7.10: a DIO's Prefix Information reaches IPv6 as
 * TERN_NETOPT_IPV6_PREFIX; a node without RPL has no such source and refuses it. */
static void test_ipv6_set__prefix_only_with_rpl(void **state)
{
    (void)state;
    settle();
    tern_ipv6_prefix_config_t cfg = { .prefix = A("2001:db8:5::"), .prefix_len = 64, .valid_lifetime = 600,
                                      .preferred_lifetime = 300, .onlink = true, .autonomous = true };
    int res = tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_PREFIX, netif.index, &cfg, sizeof(cfg));
    assert_int_equal(res, TERN_CONF_RPL ? (int)sizeof(cfg) : -ENOTSUP);
    tern_ipv6_addr_list_t list;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_ADDRS, netif.index, &list, sizeof(list)),
                     (int)sizeof(list));
    bool slaac = false;
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        slaac = slaac || (list.addrs[i].used && list.addrs[i].addr.u8[5] == 0x05);
    }
    assert_int_equal(slaac, TERN_CONF_RPL != 0);
}

/* RFC 4191 §2.3: only a router's RAs carry Route Information; a host image
 * (TERN_CONF_IPV6_ROUTER 0) has no table of advertised routes. */
static void test_ipv6_set__route_info_only_with_router_functions(void **state)
{
    (void)state;
    settle();
    tern_ipv6_route_info_t cfg = { .prefix = A("2001:db8:7::"), .prefix_len = 48 };
    tern_ipv6_route_info_list_t list;
    int added = tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_INFO_ADD, netif.index, &cfg, sizeof(cfg));
    int got = tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_ROUTE_INFO, netif.index, &list, sizeof(list));
    int deleted = tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_INFO_DEL, netif.index, &cfg, sizeof(cfg));
    if (TERN_CONF_IPV6_ROUTER) {
        assert_int_equal(added, (int)sizeof(cfg));
        assert_int_equal(got, (int)sizeof(list));
        assert_true(list.entries[0].used);
        assert_int_equal(deleted, (int)sizeof(cfg));
    } else {
        assert_int_equal(added, -ENOTSUP);
        assert_int_equal(got, -ENOTSUP);
        assert_int_equal(deleted, -ENOTSUP);
    }
}

/* [NETIF(test0), IPV6 template to the peer, UDP header, "hello"] as a
 * transport would send it (UDP checksum 0xABCD, to be replaced). */
static tern_pkt_t *upper_layer_packet(void)
{
    uint8_t udp[8] = { 0x16, 0x33, 0x16, 0x34, 0x00, 13, 0xAB, 0xCD };
    tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, "hello", 5, TERN_NETTYPE_UNDEF);
    pkt = tern_pktbuf_add(&stack.pktbuf, pkt, udp, sizeof(udp), TERN_NETTYPE_UDP);
    tern_ipv6_repr_t tmpl = { .next_header = 17, .dst = A(PEER_LL) };
    pkt = tern_pktbuf_add(&stack.pktbuf, pkt, NULL, 40, TERN_NETTYPE_IPV6);
    assert_non_null(pkt);
    assert_int_equal(tern_ipv6_emit(&tmpl, pkt->data, pkt->size), 40);
    pkt = tern_netif_hdr_build(&stack.pktbuf, pkt, NULL, 0, NULL, 0);
    assert_non_null(pkt);
    ((tern_netif_hdr_t *)pkt->data)->if_index = netif.index;
    return pkt;
}

static void test_ipv6_send__upper_layer_packet_gets_header_and_udp_checksum(void **state)
{
    (void)state;
    settle();
    tern_pkt_t *pkt = upper_layer_packet();
    assert_int_equal(tern_netapi_dispatch_send(&stack, TERN_NETTYPE_IPV6, TERN_NETREG_DEMUX_CTX_ALL, pkt), 1);
    run_for(1);
    uint8_t frame[128];
    receive(frame, build_na(frame, PEER_LL, NODE_LL, PEER_LL, TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE));
    assert_int_equal(nsent, 2); /* the NS, then the datagram */
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[1], sent_len[1]), 40);
    assert_int_equal(h.next_header, 17);
    assert_int_equal(h.hop_limit, 64);
    assert_int_equal(h.payload_len, 13);
    tern_ipv6_addr_t node = A(NODE_LL);
    assert_true(tern_ipv6_addr_equal(&h.src, &node)); /* chosen by source selection */
    assert_memory_equal(sent[1] + 48, "hello", 5);
    const tern_checksum_span_t span = { .data = sent[1] + 40, .len = 13 };
    uint32_t sum = tern_checksum_add_spans(tern_checksum_ipv6_pseudo(0, &h.src, &h.dst, 13, 17), &span, 1);
    assert_int_equal(tern_checksum_finish(sum), 0); /* the checksum verifies */
    /* No header template: invalid, counted. */
    tern_pkt_t *bad = tern_pktbuf_add(&stack.pktbuf, NULL, "x", 1, TERN_NETTYPE_UNDEF);
    assert_int_equal(tern_netapi_send(&ip.module, bad), 0);
    run_for(1);
    assert_int_equal(counter(TERN_IPV6_TX_INVALID), 1);
}

/* RFC 6724 §4: a tentative address is no candidate; while the only
 * address is tentative there is no source, the packet is not sent. */
static void test_ipv6_send__only_a_tentative_address_gives_no_source(void **state)
{
    (void)state;
    assert_int_equal(addr_state(NODE_LL), TERN_IPV6_ADDR_TENTATIVE);
    nsent = 0;
    assert_int_equal(tern_netapi_dispatch_send(&stack, TERN_NETTYPE_IPV6, TERN_NETREG_DEMUX_CTX_ALL,
                                               upper_layer_packet()),
                     1);
    run_for(1);
    assert_int_equal(counter(TERN_IPV6_TX_NO_ROUTE), 1);
    for (unsigned i = 0; i < nsent; i++) {
        tern_ipv6_repr_t h;
        assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
        assert_int_not_equal(h.next_header, 17);
    }
    /* Once preferred, it is the source (test_ipv6_send__upper_layer_packet_gets_header_and_udp_checksum). */
}

/* An IPv6 packet with next header @p nh and @p payload (no checksum work). */
static size_t build_raw(uint8_t *out, const char *src, const char *dst, uint8_t nh, const uint8_t *payload,
                        size_t len)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)len, .next_header = nh, .hop_limit = 64,
                           .src = A(src), .dst = A(dst) };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    memcpy(out + 40, payload, len);
    return 40 + len;
}

/* A UDP datagram from the peer to port 9 of the node (valid checksum). */
static size_t build_udp(uint8_t *out, const char *dst)
{
    uint8_t udp[12] = { 0x30, 0x39, 0x00, 0x09, 0x00, 12, 0, 0, 'p', 'i', 'n', 'g' };
    size_t len = build_raw(out, PEER_LL, dst, 17, udp, sizeof(udp));
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, out, len), 40);
    const tern_checksum_span_t span = { .data = out + 40, .len = 12 };
    uint16_t sum = tern_checksum_finish(
        tern_checksum_add_spans(tern_checksum_ipv6_pseudo(0, &h.src, &h.dst, 12, 17), &span, 1));
    out[46] = (uint8_t)(sum >> 8);
    out[47] = (uint8_t)sum;
    return len;
}

/* Make the peer known (so that answers go out at once). */
static void know_peer(void)
{
    uint8_t pkt[128];
    receive(pkt, build_ns(pkt, PEER_LL, "ff02::1:ff00:5301", NODE_LL, 255));
    nsent = 0;
}

/* The IPv6 module reuses an upper layer's template and interface header snips
 * for the outgoing headers only when they are its alone: a packet somebody
 * else holds too keeps them as they were. */
static void test_ipv6_send__shared_template_left_intact(void **state)
{
    (void)state;
    settle();
    know_peer();
    tern_pkt_t *pkt = upper_layer_packet();
    uint8_t template_bytes[40];
    memcpy(template_bytes, pkt->next->data, sizeof(template_bytes));
    assert_int_equal(tern_pktbuf_hold(&stack.pktbuf, pkt, 1), 0);
    assert_int_equal(tern_netapi_send(&ip.module, pkt), 0);
    run_for(1);
    assert_int_equal(nsent, 1);
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[0], sent_len[0]), 40);
    assert_int_equal(h.hop_limit, 64);
    assert_memory_equal(sent[0] + 48, "hello", 5);
    /* Our reference still sees the template and its interface header. */
    assert_int_equal(pkt->type, TERN_NETTYPE_NETIF);
    assert_int_equal(((tern_netif_hdr_t *)pkt->data)->if_index, netif.index);
    assert_non_null(pkt->next);
    assert_memory_equal(pkt->next->data, template_bytes, sizeof(template_bytes));
    tern_pktbuf_release(&stack.pktbuf, pkt);
}

/* Check sent frame @p i is an ICMPv6 error @p type/@p code/@p param quoting @p invoking. */
static void expect_error(unsigned i, uint8_t type, uint8_t code, uint32_t param, const uint8_t *invoking,
                         size_t invoking_len)
{
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(i, &h), type);
    tern_icmpv6_error_repr_t e;
    assert_true(tern_icmpv6_error_parse(&e, sent[i] + 40, sent_len[i] - 40) > 0);
    assert_int_equal(e.code, code);
    assert_int_equal(e.param, param);
    assert_int_equal(e.invoking_len, invoking_len);
    assert_memory_equal(e.invoking, invoking, invoking_len);
    tern_ipv6_addr_t peer = A(PEER_LL), node = A(NODE_LL);
    assert_true(tern_ipv6_addr_equal(&h.dst, &peer));
    assert_true(tern_ipv6_addr_equal(&h.src, &node));
}

static void test_ipv6_icmp_error__port_unreachable_without_udp(void **state)
{
    (void)state;
    settle();
    know_peer();
    uint8_t pkt[128];
    size_t len = build_udp(pkt, NODE_LL);
    receive(pkt, len);
    assert_int_equal(nsent, 1);
    expect_error(0, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0, pkt, len);
    assert_int_equal(counter(TERN_IPV6_ICMP_ERRORS_OUT), 1);
}

static void test_ipv6_icmp_error__unrecognized_next_header(void **state)
{
    (void)state;
    settle();
    know_peer();
    uint8_t pkt[128];
    const uint8_t data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    size_t len = build_raw(pkt, PEER_LL, NODE_LL, 200, data, sizeof(data)); /* unassigned */
    receive(pkt, len);
    assert_int_equal(nsent, 1);
    expect_error(0, TERN_ICMPV6_PARAM_PROBLEM, TERN_ICMPV6_PARAM_PROBLEM_NEXT_HEADER, 6, pkt, len);
}

static void test_ipv6_icmp_error__option_actions_and_multicast(void **state)
{
    (void)state;
    settle();
    know_peer();
    uint8_t pkt[200];
    /* Action 10: Parameter Problem code 2 pointing at the option (40 + 2). */
    size_t len = build_echo_with_hbh(pkt, 0x9e);
    receive(pkt, len);
    assert_int_equal(nsent, 1);
    expect_error(0, TERN_ICMPV6_PARAM_PROBLEM, TERN_ICMPV6_PARAM_PROBLEM_OPTION, 42, pkt, len);
    /* Action 11 to a multicast destination: discarded without an error. */
    len = build_echo_with_hbh(pkt, 0xde);
    tern_ipv6_addr_t all = A("ff02::1");
    memcpy(pkt + 24, all.u8, 16);
    receive(pkt, len);
    assert_int_equal(nsent, 1);
    /* Action 10 to a multicast destination: the error is still sent (§2.4 (e.2)). */
    len = build_echo_with_hbh(pkt, 0x9e);
    memcpy(pkt + 24, all.u8, 16);
    receive(pkt, len);
    assert_int_equal(nsent, 2);
    assert_int_equal(counter(TERN_IPV6_RX_EXT_DROPPED), 3);
}

static void test_ipv6_icmp_error__never_about_an_error_nor_multicast(void **state)
{
    (void)state;
    settle();
    know_peer();
    uint8_t pkt[200];
    /* A UDP datagram to all-nodes with nobody listening: no error (§2.4 (e.2)). */
    size_t len = build_udp(pkt, "ff02::1");
    receive(pkt, len);
    /* An ICMPv6 error message behind an option asking for an error: none (§2.4 (e.1)). */
    uint8_t inner[64];
    const uint8_t err_msg[8] = { 1, 4, 0, 0, 0, 0, 0, 0 };
    size_t ilen = build_icmp(inner, PEER_LL, NODE_LL, 64, err_msg, sizeof(err_msg));
    memcpy(pkt, inner, 40);
    const uint8_t hbh[8] = { 58, 0, 0x9e, 4, 0, 0, 0, 0 };
    memcpy(pkt + 40, hbh, 8);
    memcpy(pkt + 48, inner + 40, ilen - 40);
    pkt[6] = 0;
    pkt[5] = (uint8_t)(pkt[5] + 8);
    receive(pkt, ilen + 8);
    assert_int_equal(nsent, 0);
    assert_int_equal(counter(TERN_IPV6_ICMP_ERRORS_SUPPRESSED), 2);
}

static void test_ipv6_icmp_error__rate_limited(void **state)
{
    (void)state;
    settle();
    know_peer();
    uint8_t pkt[128];
    size_t len = build_udp(pkt, NODE_LL);
    for (unsigned i = 0; i < TERN_CONF_ICMPV6_ERROR_BURST + 5; i++) {
        memcpy(rx, pkt, len);
        assert_int_equal(tern_netdev_test_inject(&dev, rx, len), 0);
        assert_int_equal(tern_executor_run_until_idle(&loop.base), 0); /* no time passes */
    }
    assert_int_equal(counter(TERN_IPV6_ICMP_ERRORS_OUT), TERN_CONF_ICMPV6_ERROR_BURST);
    assert_int_equal(counter(TERN_IPV6_ICMP_RATE_LIMITED), 5);
    /* A second later the bucket holds TERN_CONF_ICMPV6_ERROR_RATE tokens again. */
    run_for(SEC);
    receive(pkt, len);
    assert_int_equal(counter(TERN_IPV6_ICMP_ERRORS_OUT), TERN_CONF_ICMPV6_ERROR_BURST + 1);
}

/* ------------------------------------------------------------ the node as a router on its one link */

static const char *const ROUTER_ADDR = "2001:db8:1::1";
static const char *const HOST = "2001:db8:1::100";
static const char *const FAR = "2001:db8:9::5";

/* Router mode, 2001:db8:1::1/64, 2001:db8:9::/64 via fe80::2 (on the same link),
 * HOST known from its solicitation; fe80::2 known too when @p next_hop_known. */
static void router_on_one_link(bool next_hop_known)
{
    if (!TERN_CONF_IPV6_ROUTER) {
        skip(); /* a host image (config.h): no router mode */
    }
    settle();
    assert_int_equal(tern_ipv6_set_router(&ip, true), 0);
    tern_ipv6_addr_config_t cfg = { .addr = A(ROUTER_ADDR), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_ADD, netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
    tern_ipv6_route_config_t route = { .prefix = A("2001:db8:9::"), .next_hop = A("fe80::2"), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, netif.index, &route, sizeof(route)),
                     (int)sizeof(route));
    run_for(1100 * MS); /* DAD */
    uint8_t pkt[128];
    receive(pkt, build_ns(pkt, HOST, "ff02::1:ff00:1", ROUTER_ADDR, 255));
    if (next_hop_known) {
        receive(pkt, build_ns(pkt, "fe80::2", "ff02::1:ff00:5301", NODE_LL, 255));
    }
    nsent = 0;
}

/* Indices of the frames of ICMPv6 @p type sent, into @p idx (at most @p max). @return how many. */
static unsigned frames_of_type(uint8_t type, unsigned *idx, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nsent; i++) {
        tern_ipv6_repr_t h;
        if (tern_ipv6_parse(&h, sent[i], sent_len[i]) == 40 && h.next_header == 58 && sent[i][40] == type &&
            n < max) {
            (void)sent_icmp(i, &h); /* checksum */
            idx[n++] = i;
        }
    }
    return n;
}

/* Frame @p i is an ICMPv6 error @p type/@p code/@p param from the router to HOST quoting @p quoted. */
static void expect_error_to_host(unsigned i, uint8_t type, uint8_t code, uint32_t param, const uint8_t *quoted,
                                 size_t quoted_len)
{
    tern_ipv6_repr_t h;
    assert_int_equal(sent_icmp(i, &h), type);
    tern_ipv6_addr_t host = A(HOST), router = A(ROUTER_ADDR);
    assert_true(tern_ipv6_addr_equal(&h.dst, &host));
    assert_true(tern_ipv6_addr_equal(&h.src, &router));
    tern_icmpv6_error_repr_t e;
    assert_true(tern_icmpv6_error_parse(&e, sent[i] + 40, sent_len[i] - 40) > 0);
    assert_int_equal(e.code, code);
    assert_int_equal(e.param, param);
    assert_int_equal(e.invoking_len, quoted_len);
    assert_memory_equal(e.invoking, quoted, quoted_len);
}

static void test_ipv6_unreachable__forwarded_packets_answered_with_code_3(void **state)
{
    (void)state;
    router_on_one_link(false);
    uint8_t pkt[2][128];
    size_t len[2];
    for (unsigned k = 0; k < 2; k++) {
        len[k] = build_echo(pkt[k], HOST, FAR, (uint16_t)(k + 1u));
        receive(pkt[k], len[k]);
        pkt[k][7] = 63; /* what waits in the neighbor cache: hop limit already decremented */
    }
    assert_int_equal(counter(TERN_IPV6_FWD_PACKETS), 2);
    unsigned idx[8];
    assert_int_equal(frames_of_type(TERN_ICMPV6_DST_UNREACH, idx, 8), 0);
    /* RFC 4861 §7.2.2: three solicitations for fe80::2, then each queued packet gets
     * Destination Unreachable code 3 (RFC 4443 §3.1), quoting it. */
    run_for(3 * SEC);
    assert_int_equal(frames_of_type(TERN_ICMPV6_NEIGHBOR_SOLICIT, idx, 8), 3);
    assert_int_equal(frames_of_type(TERN_ICMPV6_DST_UNREACH, idx, 8), 2);
    expect_error_to_host(idx[0], TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_ADDR, 0, pkt[0], len[0]);
    expect_error_to_host(idx[1], TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_ADDR, 0, pkt[1], len[1]);
    assert_int_equal(counter(TERN_IPV6_FWD_ADDR_UNREACH), 2);
    assert_int_equal(counter(TERN_IPV6_TX_UNRESOLVED), 0);
    assert_int_equal(counter(TERN_IPV6_ICMP_ERRORS_OUT), 2);
}

static void test_ipv6_unreachable__errors_rate_limited(void **state)
{
    (void)state;
    router_on_one_link(false);
    uint8_t pkt[128];
    receive(pkt, build_echo(pkt, HOST, FAR, 1));
    receive(pkt, build_echo(pkt, HOST, FAR, 2));
    run_for(3 * SEC - 2 * MS);
    /* The error token bucket (RFC 4443 §2.4 (f)) is empty when resolution fails 2 ms later
     * (set by hand: less than one token refills in 2 ms at TERN_CONF_ICMPV6_ERROR_RATE). */
    ip.icmp_error_tokens = 0;
    ip.icmp_error_refill_us = clock_v.now;
    nsent = 0;
    run_for(4 * MS);
    unsigned idx[8];
    assert_int_equal(counter(TERN_IPV6_FWD_ADDR_UNREACH), 2);
    assert_int_equal(counter(TERN_IPV6_ICMP_RATE_LIMITED), 2);
    assert_int_equal(frames_of_type(TERN_ICMPV6_DST_UNREACH, idx, 8), 0);
    /* Once tokens are back, the next failure is answered. */
    run_for(SEC);
    receive(pkt, build_echo(pkt, HOST, FAR, 3));
    run_for(3 * SEC);
    assert_int_equal(frames_of_type(TERN_ICMPV6_DST_UNREACH, idx, 8), 1);
    assert_int_equal(counter(TERN_IPV6_FWD_ADDR_UNREACH), 3);
}

static void test_ipv6_unreachable__own_packet_counted_without_error(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[128];
    /* An echo from a neighbor we never heard from otherwise: the reply waits for resolution. */
    receive(pkt, build_echo(pkt, "fe80::99", NODE_LL, 1));
    run_for(3 * SEC);
    unsigned idx[8];
    assert_int_equal(frames_of_type(TERN_ICMPV6_NEIGHBOR_SOLICIT, idx, 8), 3);
    assert_int_equal(frames_of_type(TERN_ICMPV6_ECHO_REPLY, idx, 8), 0);
    /* Our own packet: counted, no ICMPv6 error to ourselves (ping sees a timeout). */
    assert_int_equal(counter(TERN_IPV6_TX_UNRESOLVED), 1);
    assert_int_equal(frames_of_type(TERN_ICMPV6_DST_UNREACH, idx, 8), 0);
    assert_int_equal(counter(TERN_IPV6_ICMP_ERRORS_OUT), 0);
    assert_int_equal(counter(TERN_IPV6_FWD_ADDR_UNREACH), 0);
}

/* A host image forwards nothing (RFC 8200 §3): a packet left unresolved is
 * its own even when its source is not (any longer) one of its addresses; no
 * Destination Unreachable goes to that source. */
static void test_ipv6_unreachable__host_image_never_answers_unresolved(void **state)
{
    (void)state;
    if (TERN_CONF_IPV6_ROUTER) {
        skip(); /* a router image answers a forwarded packet (..._forwarded_packets_answered_with_code_3) */
    }
    settle();
    tern_pkt_t *pkt = upper_layer_packet();
    tern_ipv6_repr_t tmpl = { .next_header = 17, .src = A("fe80::77"), .dst = A("fe80::99") };
    assert_int_equal(tern_ipv6_emit(&tmpl, pkt->next->data, pkt->next->size), 40);
    assert_int_equal(tern_netapi_dispatch_send(&stack, TERN_NETTYPE_IPV6, TERN_NETREG_DEMUX_CTX_ALL, pkt), 1);
    run_for(3 * SEC);
    unsigned idx[8];
    assert_int_equal(frames_of_type(TERN_ICMPV6_NEIGHBOR_SOLICIT, idx, 8), 3);
    assert_int_equal(counter(TERN_IPV6_TX_UNRESOLVED), 1);
    assert_int_equal(frames_of_type(TERN_ICMPV6_DST_UNREACH, idx, 8), 0);
    assert_int_equal(counter(TERN_IPV6_FWD_ADDR_UNREACH), 0);
}

static tern_ipv6_link_params_t link_params(void)
{
    tern_ipv6_link_params_t p;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_LINK_PARAMS, netif.index, &p, sizeof(p)),
                     (int)sizeof(p));
    return p;
}

static void test_ipv6_reachable_time__rerandomised_every_renew_period(void **state)
{
    (void)state;
    const uint64_t period = (uint64_t)TERN_CONF_IPV6_REACHABLE_RENEW_S * SEC;
    uint32_t seen[5];
    seen[0] = link_params().reachable_time_us;
    /* The interface was enabled at time 0: the first renewal is due at one period. */
    run_for(period - clock_v.now - 1u);
    assert_int_equal(counter(TERN_IPV6_REACHABLE_RENEWED), 0);
    assert_int_equal(link_params().reachable_time_us, seen[0]);
    run_for(1);
    assert_int_equal(counter(TERN_IPV6_REACHABLE_RENEWED), 1);
    /* RFC 4861 §6.3.2: uniformly in [0.5, 1.5] x BaseReachableTime (30 s). */
    for (unsigned k = 1; k < 5; k++) {
        seen[k] = link_params().reachable_time_us;
        assert_true(seen[k] >= 15u * SEC && seen[k] <= 45u * SEC);
        assert_int_equal(counter(TERN_IPV6_REACHABLE_RENEWED), k);
        run_for(period);
    }
    bool changed = false;
    for (unsigned k = 1; k < 5; k++) {
        changed = changed || seen[k] != seen[0];
    }
    assert_true(changed);
    /* A Router Advertisement's BaseReachableTime (10 s) is used from then on. */
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = PEER_MAC, .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_ra_repr_t ra = { .router_lifetime = 0, .reachable_time = 10000, .options = opt,
                              .options_len = (size_t)olen };
    uint8_t msg[64];
    int n = tern_ndp_ra_emit(&ra, msg, sizeof(msg));
    uint8_t pkt[128];
    receive(pkt, build_icmp(pkt, PEER_LL, "ff02::1", 255, msg, (size_t)n));
    assert_int_equal(link_params().base_reachable_ms, 10000);
    run_for(period);
    assert_int_equal(counter(TERN_IPV6_REACHABLE_RENEWED), 6);
    uint32_t r = link_params().reachable_time_us;
    assert_true(r >= 5u * SEC && r <= 15u * SEC);
}

/* An echo request from HOST to FAR behind a Hop-by-Hop header of 8 bytes @p hbh. */
static size_t build_forwarded_with_hbh(uint8_t *out, const uint8_t hbh[8])
{
    uint8_t inner[128];
    size_t ilen = build_echo(inner, HOST, FAR, 1);
    memcpy(out, inner, 40);
    memcpy(out + 40, hbh, 8);
    memcpy(out + 48, inner + 40, ilen - 40);
    out[6] = 0; /* next header: Hop-by-Hop */
    uint16_t plen = (uint16_t)(ilen - 40 + 8);
    out[4] = (uint8_t)(plen >> 8);
    out[5] = (uint8_t)plen;
    return ilen + 8;
}

static void test_ipv6_forward__hop_by_hop_options_processed(void **state)
{
    (void)state;
    router_on_one_link(true);
    uint8_t pkt[200];
    unsigned idx[8];
    /* Router Alert and an unknown option of action 00 (skip): forwarded as they are. */
    static const uint8_t skip[8] = { 58, 0, 0x05, 2, 0, 0, 0x1e, 0 };
    size_t len = build_forwarded_with_hbh(pkt, skip);
    receive(pkt, len);
    assert_int_equal(counter(TERN_IPV6_FWD_PACKETS), 1);
    assert_int_equal(frames_of_type(TERN_ICMPV6_ECHO_REQUEST, idx, 8), 0); /* next header is HBH, not 58 */
    assert_int_equal(nsent, 1);
    assert_int_equal(sent_len[0], len);
    pkt[7] = 63;
    assert_memory_equal(sent[0], pkt, len);
    /* Action 01: discarded silently. */
    nsent = 0;
    static const uint8_t discard[8] = { 58, 0, 0x5e, 4, 0, 0, 0, 0 };
    receive(pkt, build_forwarded_with_hbh(pkt, discard));
    assert_int_equal(nsent, 0);
    assert_int_equal(counter(TERN_IPV6_FWD_HBH_DROPPED), 1);
    /* Action 10 and 11 (unicast destination): Parameter Problem code 2 at the option (40 + 2). */
    static const uint8_t icmp10[8] = { 58, 0, 0x9e, 4, 0, 0, 0, 0 };
    static const uint8_t icmp11[8] = { 58, 0, 0xde, 4, 0, 0, 0, 0 };
    const uint8_t *const asks[2] = { icmp10, icmp11 };
    for (unsigned k = 0; k < 2; k++) {
        nsent = 0;
        len = build_forwarded_with_hbh(pkt, asks[k]);
        receive(pkt, len);
        assert_int_equal(nsent, 1);
        expect_error_to_host(0, TERN_ICMPV6_PARAM_PROBLEM, TERN_ICMPV6_PARAM_PROBLEM_OPTION, 42, pkt, len);
    }
    assert_int_equal(counter(TERN_IPV6_FWD_HBH_DROPPED), 3);
    /* A malformed header (an option running past its end): discarded silently. */
    nsent = 0;
    static const uint8_t overrun[8] = { 58, 0, 0x1e, 9, 0, 0, 0, 0 };
    receive(pkt, build_forwarded_with_hbh(pkt, overrun));
    assert_int_equal(nsent, 0);
    assert_int_equal(counter(TERN_IPV6_FWD_HBH_DROPPED), 4);
    assert_int_equal(counter(TERN_IPV6_FWD_PACKETS), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_ipv6_enable__dad_probe_then_preferred),
        T(test_ipv6_dad__ns_from_another_node_makes_duplicate),
        T(test_ipv6_dad__tentative_address_takes_only_nd),
        T(test_ipv6_ns__answered_with_solicited_na),
        T(test_ipv6_ns__invalid_hop_limit_dropped),
        T(test_ipv6_echo__resolves_peer_then_replies),
        T(test_ipv6_receive__bad_packets_dropped_and_counted),
        T(test_ipv6_receive__hop_by_hop_option_actions),
        T(test_ipv6_set__address_added_runs_dad),
        T(test_ipv6_set__route_info_only_with_router_functions),
        T(test_ipv6_set__rpl_state_only_with_rpl),
        T(test_ipv6_set__prefix_only_with_rpl),
        T(test_ipv6_send__upper_layer_packet_gets_header_and_udp_checksum),
        T(test_ipv6_send__only_a_tentative_address_gives_no_source),
        T(test_ipv6_send__shared_template_left_intact),
        T(test_ipv6_icmp_error__port_unreachable_without_udp),
        T(test_ipv6_icmp_error__unrecognized_next_header),
        T(test_ipv6_icmp_error__option_actions_and_multicast),
        T(test_ipv6_icmp_error__never_about_an_error_nor_multicast),
        T(test_ipv6_icmp_error__rate_limited),
        T(test_ipv6_unreachable__forwarded_packets_answered_with_code_3),
        T(test_ipv6_unreachable__errors_rate_limited),
        T(test_ipv6_unreachable__own_packet_counted_without_error),
        T(test_ipv6_unreachable__host_image_never_answers_unresolved),
        T(test_ipv6_reachable_time__rerandomised_every_renew_period),
        T(test_ipv6_forward__hop_by_hop_options_processed),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
