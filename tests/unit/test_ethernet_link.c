/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Ethernet link layer over the test device, under both executors:
 *        address filter, multicast table, EtherType demux, header building,
 *        padding, capture hook.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "sink.h"
#include "tern/link/ethernet.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/netif.h"
#include "tern/stack.h"

static tern_stack_t stack;
static tern_netdev_test_t dev;
static tern_ethernet_link_t eth;
static tern_netif_t eth_if;
static sink_t upper; /* registered for IPV6, keeps packets */
static tern_netreg_entry_t upper_entry;

static const uint8_t our_mac[6] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 };
static const uint8_t peer_mac[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
static const uint8_t other_mac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t bcast_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t all_nodes_mac[6] = { 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 };

/* What the send callback saw. */
static uint8_t sent[2048];
static size_t sent_len;
static unsigned sent_frames;

/* What the capture hook saw. */
static uint8_t captured[2048];
static size_t captured_len;
static unsigned captured_rx;
static unsigned captured_tx;

static int record_send(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    sent_len = 0;
    for (size_t i = 0; i < count; i++) {
        assert_true(sent_len + iol[i].len <= sizeof(sent));
        memcpy(&sent[sent_len], iol[i].base, iol[i].len);
        sent_len += iol[i].len;
    }
    sent_frames++;
    return (int)sent_len;
}

static void record_capture(void *ctx, const tern_iolist_t *iol, size_t count, bool tx)
{
    assert_ptr_equal(ctx, &captured);
    captured_len = 0;
    for (size_t i = 0; i < count; i++) {
        memcpy(&captured[captured_len], iol[i].base, iol[i].len);
        captured_len += iol[i].len;
    }
    if (tx) {
        captured_tx++;
    } else {
        captured_rx++;
    }
}

static int setup(void **state)
{
    (void)state;
    assert_int_equal(tern_stack_init(&stack, "t", harness_exec_start()), 0);
    tern_netdev_test_init(&dev);
    memcpy(dev.addr, our_mac, 6);
    dev.addr_len = 6;
    dev.mtu = 1500;
    dev.send_cb = record_send;
    assert_int_equal(tern_ethernet_netif_add(&stack, &eth_if, &eth, "eth0", &dev.netdev), 0);
    sink_add(&stack, &upper, "upper", 5, 8, true);
    tern_netreg_entry_init(&upper_entry, TERN_NETREG_DEMUX_CTX_ALL, &upper.module);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_IPV6, &upper_entry), 0);
    sent_len = 0;
    sent_frames = 0;
    captured_len = 0;
    captured_rx = 0;
    captured_tx = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    harness_run_until_idle();
    sink_release_kept(&stack, &upper);
    harness_exec_stop();
    harness_assert_pktbuf_clean(&stack.pktbuf);
    return 0;
}

static uint32_t counter(unsigned which)
{
    return tern_count_read(&eth_if.counters[which]);
}

/* Build dst | src | type | payload into @p buf. @return its length. */
static size_t make_frame(uint8_t *buf, const uint8_t dst[6], const uint8_t src[6], uint16_t type,
                         const char *payload)
{
    memcpy(&buf[0], dst, 6);
    memcpy(&buf[6], src, 6);
    buf[12] = (uint8_t)(type >> 8);
    buf[13] = (uint8_t)type;
    size_t n = strlen(payload);
    memcpy(&buf[14], payload, n);
    return 14u + n;
}

/* Inject @p frame and let the stack settle. */
static void receive(const uint8_t *frame, size_t len)
{
    assert_int_equal(tern_netdev_test_inject(&dev, frame, len), 0);
    harness_run_until_idle();
}

/* [NETIF(dst, flags), payload of @p type] for eth0. */
static tern_pkt_t *make_outgoing(const uint8_t *dst, size_t dst_len, uint8_t flags, tern_nettype_t type,
                                 const char *payload)
{
    tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, payload, strlen(payload), type);
    assert_non_null(pkt);
    pkt = tern_netif_hdr_build(&stack.pktbuf, pkt, NULL, 0, dst, dst_len);
    assert_non_null(pkt);
    tern_netif_hdr_t *hdr = pkt->data;
    hdr->if_index = eth_if.index;
    hdr->flags = flags;
    return pkt;
}

static int set_opt(tern_netopt_t opt, const void *value, size_t len)
{
    return tern_netapi_set(&eth_if.module, opt, 0, value, len);
}

/* ------------------------------------------------------------ receive */

static void test_ethernet_recv__unicast_to_us_goes_up_without_header(void **state)
{
    (void)state;
    static uint8_t frame[64];
    size_t len = make_frame(frame, our_mac, peer_mac, TERN_ETHERTYPE_IPV6, "IPV6PACKET");
    receive(frame, len);
    assert_int_equal(upper.rcv, 1);
    tern_pkt_t *pkt = upper.kept[0];
    assert_int_equal(pkt->type, TERN_NETTYPE_IPV6);
    assert_int_equal(pkt->size, 10);
    assert_memory_equal(pkt->data, "IPV6PACKET", 10);
    /* The link header is gone: [IPV6, NETIF]. */
    assert_non_null(pkt->next);
    assert_int_equal(pkt->next->type, TERN_NETTYPE_NETIF);
    assert_null(pkt->next->next);
    tern_netif_hdr_t *hdr = tern_netif_hdr_get(pkt);
    assert_int_equal(hdr->if_index, eth_if.index);
    assert_int_equal(hdr->src_len, 6);
    assert_memory_equal(hdr->src, peer_mac, 6);
    assert_int_equal(hdr->dst_len, 6);
    assert_memory_equal(hdr->dst, our_mac, 6);
    assert_int_equal(hdr->flags & (TERN_NETIF_HDR_FLAG_BROADCAST | TERN_NETIF_HDR_FLAG_MULTICAST), 0);
    assert_int_equal(counter(TERN_NETIF_RX_PACKETS), 1);
    assert_int_equal(counter(TERN_NETIF_RX_BYTES), len);
}

static void test_ethernet_recv__unicast_to_another_station_dropped(void **state)
{
    (void)state;
    static uint8_t frame[64];
    receive(frame, make_frame(frame, other_mac, peer_mac, TERN_ETHERTYPE_IPV6, "x"));
    assert_int_equal(upper.rcv, 0);
    assert_int_equal(counter(TERN_NETIF_RX_NOT_FOR_US), 1);
    assert_int_equal(counter(TERN_NETIF_RX_PACKETS), 0);
    assert_int_equal(counter(TERN_NETIF_RX_ERRORS), 0);
}

static void test_ethernet_recv__broadcast_flagged(void **state)
{
    (void)state;
    static uint8_t frame[64];
    receive(frame, make_frame(frame, bcast_mac, peer_mac, TERN_ETHERTYPE_IPV6, "b"));
    assert_int_equal(upper.rcv, 1);
    tern_netif_hdr_t *hdr = tern_netif_hdr_get(upper.kept[0]);
    assert_int_equal(hdr->flags & TERN_NETIF_HDR_FLAG_BROADCAST, TERN_NETIF_HDR_FLAG_BROADCAST);
    assert_int_equal(hdr->flags & TERN_NETIF_HDR_FLAG_MULTICAST, 0);
}

static void test_ethernet_recv__multicast_only_when_joined(void **state)
{
    (void)state;
    static uint8_t frame[64];
    size_t len = make_frame(frame, all_nodes_mac, peer_mac, TERN_ETHERTYPE_IPV6, "m");
    receive(frame, len);
    assert_int_equal(upper.rcv, 0);
    assert_int_equal(counter(TERN_NETIF_RX_NOT_FOR_US), 1);

    assert_int_equal(set_opt(TERN_NETOPT_MCAST_JOIN, all_nodes_mac, 6), 6);
    receive(frame, len);
    assert_int_equal(upper.rcv, 1);
    tern_netif_hdr_t *hdr = tern_netif_hdr_get(upper.kept[0]);
    assert_int_equal(hdr->flags & TERN_NETIF_HDR_FLAG_MULTICAST, TERN_NETIF_HDR_FLAG_MULTICAST);
    assert_memory_equal(hdr->dst, all_nodes_mac, 6);

    assert_int_equal(set_opt(TERN_NETOPT_MCAST_LEAVE, all_nodes_mac, 6), 6);
    receive(frame, len);
    assert_int_equal(upper.rcv, 1);
    assert_int_equal(counter(TERN_NETIF_RX_NOT_FOR_US), 2);
}

static void test_ethernet_recv__ipv6_group_join_maps_to_33_33(void **state)
{
    (void)state;
    /* Solicited-node group ff02::1:ff12:3456 -> 33:33:ff:12:34:56 (RFC 2464 §7). */
    static const uint8_t group[16] = { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xff, 0x12, 0x34, 0x56 };
    static const uint8_t group_mac[6] = { 0x33, 0x33, 0xff, 0x12, 0x34, 0x56 };
    assert_int_equal(set_opt(TERN_NETOPT_MCAST_JOIN, group, sizeof(group)), 16);
    static uint8_t frame[64];
    receive(frame, make_frame(frame, group_mac, peer_mac, TERN_ETHERTYPE_IPV6, "ns"));
    assert_int_equal(upper.rcv, 1);
    uint8_t groups[6 * 4];
    assert_int_equal(tern_netapi_get(&eth_if.module, TERN_NETOPT_MCAST_GROUPS, 0, groups, sizeof(groups)), 6);
    assert_memory_equal(groups, group_mac, 6);
    assert_int_equal(set_opt(TERN_NETOPT_MCAST_LEAVE, group, sizeof(group)), 16);
    assert_int_equal(tern_netapi_get(&eth_if.module, TERN_NETOPT_MCAST_GROUPS, 0, groups, sizeof(groups)), 0);
}

static void test_ethernet_recv__promiscuous_takes_everything(void **state)
{
    (void)state;
    uint8_t on = 1;
    assert_int_equal(set_opt(TERN_NETOPT_PROMISCUOUS, &on, 1), 1);
    uint8_t value = 0;
    assert_int_equal(tern_netapi_get(&eth_if.module, TERN_NETOPT_PROMISCUOUS, 0, &value, 1), 1);
    assert_int_equal(value, 1);
    static uint8_t frame[64];
    receive(frame, make_frame(frame, other_mac, peer_mac, TERN_ETHERTYPE_IPV6, "u"));
    receive(frame, make_frame(frame, all_nodes_mac, peer_mac, TERN_ETHERTYPE_IPV6, "m"));
    assert_int_equal(upper.rcv, 2);
    assert_int_equal(counter(TERN_NETIF_RX_NOT_FOR_US), 0);
}

static void test_ethernet_recv__short_and_malformed_frames_counted(void **state)
{
    (void)state;
    static uint8_t frame[64];
    size_t len = make_frame(frame, our_mac, peer_mac, TERN_ETHERTYPE_IPV6, "");
    receive(frame, 10);  /* shorter than a header */
    receive(frame, len); /* a header and nothing else */
    make_frame(frame, our_mac, peer_mac, 0x0040, "802.3 length");
    receive(frame, 26); /* IEEE 802.3 length field, not an EtherType */
    make_frame(frame, our_mac, all_nodes_mac, TERN_ETHERTYPE_IPV6, "group source");
    receive(frame, 26);
    assert_int_equal(upper.rcv, 0);
    assert_int_equal(counter(TERN_NETIF_RX_ERRORS), 4);
    assert_int_equal(counter(TERN_NETIF_RX_PACKETS), 0);
}

static void test_ethernet_recv__other_ethertypes_counted_unknown(void **state)
{
    (void)state;
    static uint8_t frame[64];
    receive(frame, make_frame(frame, our_mac, peer_mac, 0x0800, "IPv4"));
    receive(frame, make_frame(frame, bcast_mac, peer_mac, 0x0806, "ARP"));
    receive(frame, make_frame(frame, our_mac, peer_mac, TERN_ETHERTYPE_LOCAL_EXPERIMENTAL, "txt"));
    assert_int_equal(upper.rcv, 0);
    assert_int_equal(counter(TERN_NETIF_RX_UNKNOWN_PROTO), 3);
    assert_int_equal(counter(TERN_NETIF_RX_ERRORS), 0);
}

static void test_ethernet_recv__long_frame_intact(void **state)
{
    (void)state;
    static uint8_t frame[1514];
    memcpy(&frame[0], our_mac, 6);
    memcpy(&frame[6], peer_mac, 6);
    frame[12] = 0x86;
    frame[13] = 0xdd;
    for (size_t i = 14; i < sizeof(frame); i++) {
        frame[i] = (uint8_t)i;
    }
    receive(frame, sizeof(frame));
    assert_int_equal(upper.rcv, 1);
    assert_int_equal(upper.kept[0]->size, 1500);
    assert_memory_equal(upper.kept[0]->data, &frame[14], 1500);
}

/* ------------------------------------------------------------ send */

static void test_ethernet_send__unicast_header_built_and_padded(void **state)
{
    (void)state;
    assert_int_equal(tern_netif_send(&stack, make_outgoing(peer_mac, 6, 0, TERN_NETTYPE_IPV6, "hello")), 0);
    harness_run_until_idle();
    assert_int_equal(sent_frames, 1);
    assert_int_equal(sent_len, TERN_ETHERNET_MIN_FRAME);
    assert_memory_equal(&sent[0], peer_mac, 6);
    assert_memory_equal(&sent[6], our_mac, 6);
    assert_int_equal(sent[12], 0x86);
    assert_int_equal(sent[13], 0xdd);
    assert_memory_equal(&sent[14], "hello", 5);
    for (size_t i = 19; i < TERN_ETHERNET_MIN_FRAME; i++) {
        assert_int_equal(sent[i], 0);
    }
    assert_int_equal(counter(TERN_NETIF_TX_PACKETS), 1);
    assert_int_equal(counter(TERN_NETIF_TX_BYTES), 60);
}

static void test_ethernet_send__broadcast_flag_and_raw_payload_ethertype(void **state)
{
    (void)state;
    assert_int_equal(tern_netif_send(&stack, make_outgoing(NULL, 0, TERN_NETIF_HDR_FLAG_BROADCAST,
                                                           TERN_NETTYPE_UNDEF, "text")),
                     0);
    harness_run_until_idle();
    assert_int_equal(sent_frames, 1);
    assert_memory_equal(&sent[0], bcast_mac, 6);
    assert_int_equal(sent[12], 0x88);
    assert_int_equal(sent[13], 0xb5);
    assert_int_equal(sent_len, 60);
}

static void test_ethernet_send__multicast_destination(void **state)
{
    (void)state;
    assert_int_equal(tern_netif_send(&stack, make_outgoing(all_nodes_mac, 6, TERN_NETIF_HDR_FLAG_MULTICAST,
                                                           TERN_NETTYPE_IPV6, "m")),
                     0);
    harness_run_until_idle();
    assert_int_equal(sent_frames, 1);
    assert_memory_equal(&sent[0], all_nodes_mac, 6);
}

static void test_ethernet_send__long_frame_not_padded(void **state)
{
    (void)state;
    static char payload[101];
    memset(payload, 'p', 100);
    assert_int_equal(tern_netif_send(&stack, make_outgoing(peer_mac, 6, 0, TERN_NETTYPE_IPV6, payload)), 0);
    harness_run_until_idle();
    assert_int_equal(sent_len, 114);
    assert_int_equal(sent[113], 'p');
}

static void test_ethernet_send__exactly_minimum_not_padded(void **state)
{
    (void)state;
    static char payload[47];
    memset(payload, 'q', 46);
    assert_int_equal(tern_netif_send(&stack, make_outgoing(peer_mac, 6, 0, TERN_NETTYPE_IPV6, payload)), 0);
    harness_run_until_idle();
    assert_int_equal(sent_len, 60);
    assert_int_equal(sent[59], 'q');
}

static void test_ethernet_send__shared_payload_padded_on_a_private_copy(void **state)
{
    (void)state;
    tern_pkt_t *pkt = make_outgoing(peer_mac, 6, 0, TERN_NETTYPE_IPV6, "shared");
    tern_pkt_t *payload = pkt->next;
    /* Another holder of the payload (as a multicast sent on two interfaces). */
    assert_int_equal(tern_pktbuf_hold(&stack.pktbuf, payload, 1), 0);
    assert_int_equal(tern_netif_send(&stack, pkt), 0);
    harness_run_until_idle();
    assert_int_equal(sent_len, 60);
    assert_memory_equal(&sent[14], "shared", 6);
    /* The other holder's packet is untouched: no padding linked to it. */
    assert_null(payload->next);
    assert_int_equal(payload->users, 1);
    tern_pktbuf_release(&stack.pktbuf, payload);
}

static void test_ethernet_send__no_destination_is_invalid(void **state)
{
    (void)state;
    assert_int_equal(tern_netif_send(&stack, make_outgoing(NULL, 0, 0, TERN_NETTYPE_IPV6, "x")), 0);
    /* The multicast flag with a unicast address is a contradiction too. */
    assert_int_equal(tern_netif_send(&stack, make_outgoing(peer_mac, 6, TERN_NETIF_HDR_FLAG_MULTICAST,
                                                           TERN_NETTYPE_IPV6, "x")),
                     0);
    harness_run_until_idle();
    assert_int_equal(sent_frames, 0);
    assert_int_equal(counter(TERN_NETIF_TX_INVALID), 2);
}

/* ------------------------------------------------------------ table, options */

static void test_ethernet_link_join__table_rules(void **state)
{
    (void)state;
    tern_ethernet_link_t t;
    tern_ethernet_link_init(&t);
    uint8_t group[6] = { 0x33, 0x33, 0, 0, 0, 0 };
    for (int i = 0; i < TERN_CONF_ETHERNET_MCAST_MAX; i++) {
        group[5] = (uint8_t)i;
        assert_int_equal(tern_ethernet_link_join(&t, group), 0);
    }
    group[5] = 0xee;
    assert_int_equal(tern_ethernet_link_join(&t, group), -ENOSPC);
    group[5] = 0;
    assert_int_equal(tern_ethernet_link_join(&t, group), 0); /* counted join */
    assert_int_equal(tern_ethernet_link_leave(&t, group), 0);
    assert_true(tern_ethernet_link_is_joined(&t, group));
    assert_int_equal(tern_ethernet_link_leave(&t, group), 0);
    assert_false(tern_ethernet_link_is_joined(&t, group));
    assert_int_equal(tern_ethernet_link_leave(&t, group), -ENOENT);
    assert_int_equal(tern_ethernet_link_join(&t, peer_mac), -EINVAL);  /* unicast */
    assert_int_equal(tern_ethernet_link_join(&t, bcast_mac), -EINVAL); /* always received */
    tern_ipv6_addr_t unicast = { { 0xfe, 0x80 } };
    assert_int_equal(tern_ethernet_link_join_ipv6(&t, &unicast), -EINVAL);
}

static void test_ethernet_set__option_values_checked(void **state)
{
    (void)state;
    assert_int_equal(set_opt(TERN_NETOPT_MCAST_JOIN, all_nodes_mac, 5), -EINVAL);
    assert_int_equal(set_opt(TERN_NETOPT_MCAST_JOIN, peer_mac, 6), -EINVAL);
    assert_int_equal(set_opt(TERN_NETOPT_MCAST_LEAVE, all_nodes_mac, 6), -ENOENT);
    uint8_t groups[6];
    assert_int_equal(set_opt(TERN_NETOPT_MCAST_JOIN, all_nodes_mac, 6), 6);
    assert_int_equal(tern_netapi_get(&eth_if.module, TERN_NETOPT_MCAST_GROUPS, 0, groups, 5), -EOVERFLOW);
    /* Options the link does not know still reach the device. */
    uint16_t mtu = 0;
    assert_int_equal(tern_netapi_get(&eth_if.module, TERN_NETOPT_MAX_PDU_SIZE, 0, &mtu, 2), 2);
    assert_int_equal(mtu, 1500);
    assert_int_equal(tern_netapi_get(&eth_if.module, TERN_NETOPT_CHANNEL, 0, &mtu, 2), -ENOTSUP);
}

/* ------------------------------------------------------------ capture */

static void test_netif_capture__sees_whole_frames_both_ways(void **state)
{
    (void)state;
    const tern_netif_capture_t cap = { .fn = record_capture, .ctx = &captured };
    assert_int_equal(set_opt(TERN_NETOPT_CAPTURE, &cap, sizeof(cap)), (int)sizeof(cap));
    tern_netif_capture_t got = { 0 };
    assert_int_equal(tern_netapi_get(&eth_if.module, TERN_NETOPT_CAPTURE, 0, &got, sizeof(got)),
                     (int)sizeof(got));
    assert_ptr_equal(got.fn, record_capture);

    /* Received, even when the link then drops it. */
    static uint8_t frame[64];
    size_t len = make_frame(frame, other_mac, peer_mac, TERN_ETHERTYPE_IPV6, "notours");
    receive(frame, len);
    assert_int_equal(captured_rx, 1);
    assert_int_equal(captured_len, len);
    assert_memory_equal(captured, frame, len);

    /* Sent: the frame as the device got it, header and padding included. */
    assert_int_equal(tern_netif_send(&stack, make_outgoing(peer_mac, 6, 0, TERN_NETTYPE_IPV6, "out")), 0);
    harness_run_until_idle();
    assert_int_equal(captured_tx, 1);
    assert_int_equal(captured_len, 60);
    assert_memory_equal(captured, sent, 60);

    /* Not when the device refuses it. */
    dev.send_cb = NULL;
    dev.mtu = 10;
    assert_int_equal(tern_netif_send(&stack, make_outgoing(peer_mac, 6, 0, TERN_NETTYPE_IPV6, "out")), 0);
    harness_run_until_idle();
    assert_int_equal(captured_tx, 1);

    const tern_netif_capture_t none = { 0 };
    assert_int_equal(set_opt(TERN_NETOPT_CAPTURE, &none, sizeof(none)), (int)sizeof(none));
    receive(frame, len);
    assert_int_equal(captured_rx, 1);
    assert_int_equal(set_opt(TERN_NETOPT_CAPTURE, &none, 3), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ethernet_recv__unicast_to_us_goes_up_without_header, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_recv__unicast_to_another_station_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_recv__broadcast_flagged, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_recv__multicast_only_when_joined, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_recv__ipv6_group_join_maps_to_33_33, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_recv__promiscuous_takes_everything, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_recv__short_and_malformed_frames_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_recv__other_ethertypes_counted_unknown, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_recv__long_frame_intact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_send__unicast_header_built_and_padded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_send__broadcast_flag_and_raw_payload_ethertype, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_send__multicast_destination, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_send__long_frame_not_padded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_send__exactly_minimum_not_padded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_send__shared_payload_padded_on_a_private_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_send__no_destination_is_invalid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_link_join__table_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ethernet_set__option_values_checked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_netif_capture__sees_whole_frames_both_ways, setup, teardown),
    };
    return cmocka_run_group_tests_name(HARNESS_THREADED ? "ethernet_link_threaded" : "ethernet_link_loop",
                                       tests, NULL, NULL);
}
