/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IEEE 802.15.4 link layer and the interface's confirmed
 *        transmission (ACK, retries, CSMA-CA, TX queue, status reports) over
 *        the simulated radio medium, under virtual time.
 *
 * Three nodes (a stack, a simulated radio, an 802.15.4 interface, a module
 * that records what comes up as 6LoWPAN) and one bare radio driven directly
 * (to inject hand-made frames and to jam the channel) share one medium on
 * one event loop. The radio medium belongs to a single-threaded executor, so
 * this test runs under the event loop only.
 *
 * Expected frames are written out byte by byte from IEEE 802.15.4-2006
 * §7.2.1 (little-endian fields on the air), independently of the wire module.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/link/ieee802154.h"
#include "tern/netapi.h"
#include "tern/netdev/ieee802154_pib.h"
#include "tern/netdev/radio_medium.h"
#include "tern/netdev/sim_radio.h"
#include "tern/netdev/test.h"
#include "tern/netif.h"
#include "tern/netif_hdr.h"
#include "tern/port/loop.h"
#include "tern/stack.h"

#define SEC 1000000u
#define MS 1000u
#define SEED 0x802154u
#define PAN 0xabcdu
#define NODES 3
#define RAW_INDEX NODES /* the bare radio's index in the medium */
#define RX_LOG 40
#define STATUS_LOG 40
#define CAPTURE_LOG 8

/** What came up to the upper module of a node. */
typedef struct {
    uint8_t payload[TERN_RADIO_MAX_FRAME];
    size_t len;
    tern_netif_hdr_t hdr;
    uint8_t type;
} rx_log_t;

/** One report of the TX status hook, and the NETERR report of the same packet. */
typedef struct {
    int status;
    unsigned transmissions;
    tern_netif_hdr_t hdr;
} status_log_t;

typedef struct {
    tern_stack_t stack;
    tern_sim_radio_t radio;
    tern_netif_t netif;
    tern_ieee802154_link_t mac;
    tern_module_t upper;
    tern_msg_t upper_queue[8];
    tern_netreg_entry_t upper_entry;
    rx_log_t rx[RX_LOG];
    unsigned nrx;
    status_log_t st[STATUS_LOG];
    unsigned nst;
    int neterr[STATUS_LOG]; /**< errors reported through NETERR snips, in order */
    unsigned nneterr;
    uint8_t cap[CAPTURE_LOG][TERN_RADIO_MAX_FRAME]; /**< frames the capture hook saw sent */
    size_t cap_len[CAPTURE_LOG];
    unsigned ncap;
} node_t;

/** The bare radio and its driver user. */
typedef struct {
    tern_sim_radio_t radio;
    tern_module_t user;
    tern_msg_t queue[8];
    bool pending;
    unsigned outcomes[8];  /**< events seen, by tern_netdev_event_t */
    unsigned resend;       /**< send the frame again this often after TX_COMPLETE */
    uint8_t frame[TERN_RADIO_MAX_FRAME];
    size_t len;
} raw_t;

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_radio_medium_t medium;
static node_t nodes[NODES];
static raw_t raw;

static void eui64(unsigned i, uint8_t out[8])
{
    const uint8_t base[8] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x70 };
    memcpy(out, base, 8);
    out[7] = (uint8_t)(0x70u + i);
}

static void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

/* ------------------------------------------------------------ upper layer, hooks */

static int upper_handle(tern_module_t *self, tern_msg_t *msg)
{
    node_t *n = self->context;
    if (msg->type == TERN_MSG_RCV) {
        tern_pkt_t *pkt = msg->content.pkt;
        assert_true(n->nrx < RX_LOG);
        rx_log_t *r = &n->rx[n->nrx++];
        memset(r, 0, sizeof(*r));
        r->type = pkt->type;
        r->len = pkt->size;
        assert_true(pkt->size <= sizeof(r->payload));
        memcpy(r->payload, pkt->data, pkt->size);
        const tern_netif_hdr_t *nh = tern_netif_hdr_get(pkt);
        assert_non_null(nh);
        assert_ptr_equal(pkt->next->data, nh); /* [payload, NETIF]: nothing else */
        assert_null(pkt->next->next);
        r->hdr = *nh;
        tern_pktbuf_release(&self->stack->pktbuf, pkt);
        return 0;
    }
    if (msg->type == TERN_MSG_SND) {
        tern_pktbuf_release(&self->stack->pktbuf, msg->content.pkt);
    }
    return 0;
}

/** An interface outside the nodes whose hook logs into a node (the last test's). */
static const tern_netif_t *other_netif;

static void status_hook(void *ctx, const tern_netif_t *netif, const tern_netif_hdr_t *hdr, int status,
                        unsigned transmissions)
{
    node_t *n = ctx;
    assert_true(netif == &n->netif || netif == other_netif);
    assert_true(n->nst < STATUS_LOG);
    status_log_t *s = &n->st[n->nst++];
    s->status = status;
    s->transmissions = transmissions;
    s->hdr = *hdr;
}

static void neterr_report(void *ctx, int err)
{
    node_t *n = ctx;
    assert_true(n->nneterr < STATUS_LOG);
    n->neterr[n->nneterr++] = err;
}

static void capture_hook(void *ctx, const tern_iolist_t *iol, size_t count, bool tx)
{
    node_t *n = ctx;
    if (!tx || n->ncap >= CAPTURE_LOG) {
        return;
    }
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        memcpy(&n->cap[n->ncap][len], iol[i].base, iol[i].len);
        len += iol[i].len;
    }
    n->cap_len[n->ncap++] = len;
}

/* ------------------------------------------------------------ the bare radio */

static void raw_event_cb(tern_netdev_t *dev, tern_netdev_event_t event)
{
    raw_t *r = dev->context;
    switch (event) {
    case TERN_NETDEV_EVENT_ISR:
        if (!r->pending) {
            r->pending = true;
            tern_msg_t msg = { .type = TERN_MSG_NETDEV, .content.ptr = dev };
            assert_int_equal(loop.base.ops->post(&loop.base, &r->user, &msg), 0);
        }
        break;
    case TERN_NETDEV_EVENT_RX_COMPLETE:
        (void)dev->driver->recv(dev, NULL, 1, NULL); /* not interested */
        break;
    default:
        r->outcomes[event]++;
        if (event == TERN_NETDEV_EVENT_TX_COMPLETE && r->resend > 0u) {
            r->resend--;
            const tern_iolist_t iol = { .base = r->frame, .len = r->len };
            assert_int_equal(dev->driver->send(dev, &iol, 1), (int)r->len);
        }
        break;
    }
}

static int raw_handle(tern_module_t *self, tern_msg_t *msg)
{
    raw_t *r = self->context;
    if (msg->type == TERN_MSG_NETDEV) {
        r->pending = false;
        r->radio.netdev.driver->isr(&r->radio.netdev);
    }
    return 0;
}

/** Put @p frame on the air from the bare radio (and @p resend more times back to back). */
static void raw_send(const uint8_t *frame, size_t len, unsigned resend)
{
    memcpy(raw.frame, frame, len);
    raw.len = len;
    raw.resend = resend;
    const tern_iolist_t iol = { .base = raw.frame, .len = len };
    assert_int_equal(raw.radio.netdev.driver->send(&raw.radio.netdev, &iol, 1), (int)len);
}

/* ------------------------------------------------------------ set-up */

static void set_u16(node_t *n, tern_netopt_t opt, uint16_t v)
{
    assert_int_equal(tern_netapi_set(&n->netif.module, opt, 0, &v, sizeof(v)), 2);
}

static int setup(void **state)
{
    (void)state;
    memset(nodes, 0, sizeof(nodes));
    memset(&raw, 0, sizeof(raw));
    tern_vclock_init(&clock_v, SEC);
    tern_loop_init(&loop, &clock_v.base);
    assert_int_equal(tern_radio_medium_init(&medium, &loop.base, SEED), 0);
    static const char *const names[NODES] = { "n0", "n1", "n2" };
    for (unsigned i = 0; i < NODES; i++) {
        node_t *n = &nodes[i];
        uint8_t addr[8];
        eui64(i, addr);
        assert_int_equal(tern_stack_init(&n->stack, names[i], &loop.base), 0);
        assert_int_equal(tern_sim_radio_init(&n->radio, &medium, addr), (int)i);
        assert_int_equal(tern_ieee802154_netif_add(&n->stack, &n->netif, &n->mac, "wpan0", &n->radio.netdev), 0);
        assert_int_equal(tern_module_init(&n->upper, "upper", 4, upper_handle, n, n->upper_queue, 8), 0);
        assert_int_equal(tern_stack_add_module(&n->stack, &n->upper), 0);
        tern_netreg_entry_init(&n->upper_entry, TERN_NETREG_DEMUX_CTX_ALL, &n->upper);
        assert_int_equal(tern_netreg_register(&n->stack.netreg, TERN_NETTYPE_SIXLOWPAN, &n->upper_entry), 0);
        set_u16(n, TERN_NETOPT_NID, PAN);
        const tern_netif_tx_status_t hook = { .fn = status_hook, .ctx = n };
        assert_int_equal(tern_netapi_set(&n->netif.module, TERN_NETOPT_TX_STATUS, 0, &hook, sizeof(hook)),
                         (int)sizeof(hook));
        const tern_netif_capture_t cap = { .fn = capture_hook, .ctx = n };
        assert_int_equal(tern_netapi_set(&n->netif.module, TERN_NETOPT_CAPTURE, 0, &cap, sizeof(cap)),
                         (int)sizeof(cap));
    }
    uint8_t raw_addr[8];
    eui64(0xf, raw_addr);
    assert_int_equal(tern_sim_radio_init(&raw.radio, &medium, raw_addr), RAW_INDEX);
    uint16_t pan = PAN;
    assert_int_equal(raw.radio.netdev.driver->set(&raw.radio.netdev, TERN_NETOPT_NID, &pan, 2), 2);
    assert_int_equal(tern_module_init(&raw.user, "raw", 2, raw_handle, &raw, raw.queue, 8), 0);
    assert_int_equal(tern_executor_attach(&loop.base, &raw.user), 0);
    raw.radio.netdev.event_cb = raw_event_cb;
    raw.radio.netdev.context = &raw;
    for (uint16_t a = 0; a <= RAW_INDEX; a++) {
        for (uint16_t b = (uint16_t)(a + 1u); b <= RAW_INDEX; b++) {
            assert_int_equal(tern_radio_medium_link_set_both(&medium, a, b, TERN_RADIO_PRR_ONE, -60), 0);
        }
    }
    run_for(1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    run_for(3 * SEC);
    assert_int_equal(tern_radio_medium_next_event(&medium), UINT64_MAX);
    for (unsigned i = 0; i < NODES; i++) {
        node_t *n = &nodes[i];
        assert_null(n->netif.tx_frame);
        assert_int_equal(n->netif.tx_count, 0);
        assert_false(tern_timer_is_armed(&n->netif.tx_timer));
        assert_false(n->radio.tx_result_pending);
        harness_assert_pktbuf_clean(&n->stack.pktbuf);
    }
    tern_executor_stop(&loop.base);
    return 0;
}

/**
 * Send @p len payload bytes (0xa1, 0xa2, ...; the first byte @p tag) from
 * node @p from with interface header @p dst / @p dst_len / @p flags and a
 * source length @p src_len; the packet carries a NETERR hook.
 * @return tern_netapi_send()'s result.
 */
static int send_from(unsigned from, const uint8_t *dst, size_t dst_len, uint8_t flags, size_t src_len,
                     uint8_t tag, size_t len)
{
    node_t *n = &nodes[from];
    tern_pktbuf_t *pb = &n->stack.pktbuf;
    const tern_neterr_report_t report = { .report = neterr_report, .ctx = n };
    tern_pkt_t *err = tern_pktbuf_add(pb, NULL, &report, sizeof(report), TERN_NETTYPE_NETERR);
    assert_non_null(err);
    uint8_t payload[TERN_RADIO_MAX_FRAME + 8];
    assert_true(len <= sizeof(payload));
    for (size_t i = 0; i < len; i++) {
        payload[i] = (uint8_t)(0xa1u + i);
    }
    if (len > 0u) {
        payload[0] = tag;
    }
    tern_pkt_t *pkt = tern_pktbuf_add(pb, err, payload, len, TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(pkt);
    uint8_t src[8] = { 0 };
    pkt = tern_netif_hdr_build(pb, pkt, src, src_len, dst, dst_len);
    assert_non_null(pkt);
    tern_netif_hdr_t *nh = pkt->data;
    nh->flags = flags;
    nh->if_index = n->netif.index;
    return tern_netapi_send(&n->netif.module, pkt);
}

/** Send to node @p to's extended address. */
static void send_ext(unsigned from, unsigned to, uint8_t tag, size_t len)
{
    uint8_t dst[8];
    eui64(to, dst);
    assert_int_equal(send_from(from, dst, 8, 0, 8, tag, len), 0);
}

static uint32_t radio_stat(unsigned i, tern_sim_radio_stat_t stat)
{
    return tern_sim_radio_stat(&nodes[i].radio, stat);
}

static uint32_t netif_stat(unsigned i, unsigned counter)
{
    return tern_count_read(&nodes[i].netif.counters[counter]);
}

/* ------------------------------------------------------------ unicast, broadcast, golden bytes */

static void test_send__unicast_extended__acked_delivered_reported(void **state)
{
    (void)state;
    uint8_t seq = nodes[0].mac.seq;
    send_ext(0, 1, 0x5a, 3);
    run_for(50 * MS);

    /* Golden bytes (IEEE 802.15.4-2006 §7.2.1): frame control 0xdc61 = data
     * (bits 0-2: 001), ACK request (bit 5), PAN ID compression (bit 6),
     * destination mode extended (bits 10-11: 11), version 2006 (bits 12-13:
     * 01), source mode extended (bits 14-15: 11), sent low byte first; the
     * sequence number; the PAN ID 0xabcd little-endian; both EUI-64s with
     * their last octet first; the payload. No FCS: the radio adds it. */
    const uint8_t expected[] = { 0x61, 0xdc, seq,  0xcd, 0xab, 0x71, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
                                 0x02, 0x70, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x02, 0x5a, 0xa2, 0xa3 };
    assert_int_equal(nodes[0].ncap, 1);
    assert_int_equal(nodes[0].cap_len[0], sizeof(expected));
    assert_memory_equal(nodes[0].cap[0], expected, sizeof(expected));
    assert_int_equal(nodes[0].mac.seq, (uint8_t)(seq + 1u));

    /* Node 1 got the payload once, as 6LoWPAN, with both link addresses. */
    assert_int_equal(nodes[1].nrx, 1);
    const rx_log_t *r = &nodes[1].rx[0];
    assert_int_equal(r->type, TERN_NETTYPE_SIXLOWPAN);
    assert_int_equal(r->len, 3);
    const uint8_t payload[] = { 0x5a, 0xa2, 0xa3 };
    assert_memory_equal(r->payload, payload, 3);
    uint8_t a0[8];
    uint8_t a1[8];
    eui64(0, a0);
    eui64(1, a1);
    assert_int_equal(r->hdr.src_len, 8);
    assert_memory_equal(r->hdr.src, a0, 8);
    assert_int_equal(r->hdr.dst_len, 8);
    assert_memory_equal(r->hdr.dst, a1, 8);
    assert_int_equal(r->hdr.flags & TERN_NETIF_HDR_FLAG_BROADCAST, 0);
    assert_int_equal(r->hdr.if_index, nodes[1].netif.index);
    assert_int_equal(r->hdr.rssi, -60);
    assert_int_equal(r->hdr.lqi, 255);
    assert_int_equal(nodes[2].nrx, 0);

    /* Acknowledged at the first attempt, reported once each way. */
    assert_int_equal(radio_stat(0, TERN_SIM_RADIO_TX_FRAMES), 1);
    assert_int_equal(radio_stat(0, TERN_SIM_RADIO_ACKS_RECEIVED), 1);
    assert_int_equal(radio_stat(1, TERN_SIM_RADIO_ACKS_SENT), 1);
    assert_int_equal(nodes[0].nst, 1);
    assert_int_equal(nodes[0].st[0].status, 0);
    assert_int_equal(nodes[0].st[0].transmissions, 1);
    assert_int_equal(nodes[0].st[0].hdr.dst_len, 8);
    assert_memory_equal(nodes[0].st[0].hdr.dst, a1, 8);
    assert_int_equal(nodes[0].nneterr, 1);
    assert_int_equal(nodes[0].neterr[0], 0);
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_PACKETS), 1);
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_BYTES), sizeof(expected));
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_RETRIES), 0);
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_PACKETS), 1);
    /* The wait for the outcome ended with it: its timer cancelled then, not
     * left to expire (TERN_CONF_NETIF_TX_TIMEOUT_MS is still to come). */
    assert_true(50u * MS < TERN_CONF_NETIF_TX_TIMEOUT_MS * 1000u);
    assert_false(tern_timer_is_armed(&nodes[0].netif.tx_timer));
}

/* The link turns the interface header's snip into the MHR in place: the
 * frame keeps its snips ([MHR, payload]), no snip is allocated, and a
 * shorter MHR gives its whole spare units back. */
static void test_send__mhr_written_into_interface_header_snip(void **state)
{
    (void)state;
    node_t *n = &nodes[0];
    tern_pktbuf_t *pb = &n->stack.pktbuf;
    const uint8_t bytes[] = { 0x5a, 0xa2, 0xa3 };
    tern_pkt_t *payload = tern_pktbuf_add(pb, NULL, bytes, sizeof(bytes), TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(payload);
    uint8_t src[8];
    uint8_t dst[8];
    eui64(0, src);
    eui64(1, dst);
    tern_pkt_t *pkt = tern_netif_hdr_build(pb, payload, src, 8, dst, 8);
    assert_non_null(pkt);
    ((tern_netif_hdr_t *)pkt->data)->if_index = n->netif.index;
    tern_pkt_t *head = pkt;
    size_t used = tern_pktbuf_stats(pb).used;
    uint8_t seq = n->mac.seq;
    assert_int_equal(tern_netif_link_ieee802154.send(&n->netif, &pkt), 0);
    /* The MHR of test_send__unicast_extended__acked_delivered_reported. */
    const uint8_t mhr[] = { 0x61, 0xdc, seq,  0xcd, 0xab, 0x71, 0x66, 0x55, 0x44, 0x33, 0x22,
                            0x11, 0x02, 0x70, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x02 };
    assert_ptr_equal(pkt, head);
    assert_int_equal(pkt->type, TERN_NETTYPE_IEEE802154);
    assert_int_equal(pkt->size, sizeof(mhr));
    assert_memory_equal(pkt->data, mhr, sizeof(mhr));
    assert_ptr_equal(pkt->next, payload);
    assert_int_equal(tern_pktbuf_stats(pb).used, used); /* 24 -> 21 bytes: the same three units */
    assert_int_equal(n->mac.seq, (uint8_t)(seq + 1u));
    tern_pktbuf_release(pb, pkt);

    /* Short addresses: a 9-byte MHR keeps two of the three units. */
    const uint8_t s0[2] = { 0x00, 0x01 };
    const uint8_t s1[2] = { 0x00, 0x02 };
    assert_int_equal(tern_netapi_set(&n->netif.module, TERN_NETOPT_ADDRESS, 0, s0, 2), 2);
    payload = tern_pktbuf_add(pb, NULL, bytes, sizeof(bytes), TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(payload);
    pkt = tern_netif_hdr_build(pb, payload, s0, 2, s1, 2);
    assert_non_null(pkt);
    used = tern_pktbuf_stats(pb).used;
    seq = n->mac.seq;
    assert_int_equal(tern_netif_link_ieee802154.send(&n->netif, &pkt), 0);
    const uint8_t short_mhr[] = { 0x61, 0x98, seq, 0xcd, 0xab, 0x02, 0x00, 0x01, 0x00 };
    assert_int_equal(pkt->type, TERN_NETTYPE_IEEE802154);
    assert_int_equal(pkt->size, sizeof(short_mhr));
    assert_memory_equal(pkt->data, short_mhr, sizeof(short_mhr));
    assert_ptr_equal(pkt->next, payload);
    assert_int_equal(tern_pktbuf_stats(pb).used, used - TERN_PKTBUF_ALIGN);
    assert_int_equal(tern_pktbuf_check(pb), 0);
    tern_pktbuf_release(pb, pkt);
}

/* Frames to the same destination reuse the MAC header built for the first
 * (only the sequence number changes); a new PAN ID or address is in the very
 * next frame, to the same destination too. */
static void test_send__same_destination__header_reused_settings_changes_seen(void **state)
{
    (void)state;
    uint8_t seq = nodes[0].mac.seq;
    send_ext(0, 1, 0x11, 3);
    run_for(50 * MS);
    send_ext(0, 1, 0x12, 3);
    run_for(50 * MS);
    assert_int_equal(nodes[0].ncap, 2);
    assert_int_equal(nodes[0].cap_len[1], nodes[0].cap_len[0]);
    assert_int_equal(nodes[0].cap[0][2], seq);
    assert_int_equal(nodes[0].cap[1][2], (uint8_t)(seq + 1u));
    assert_memory_equal(nodes[0].cap[1], nodes[0].cap[0], 2);
    assert_memory_equal(&nodes[0].cap[1][3], &nodes[0].cap[0][3], 21 - 3); /* the rest of the MHR */
    assert_int_equal(nodes[1].nrx, 2);

    /* A new PAN ID (both nodes, so that node 1 still takes the frame). */
    set_u16(&nodes[0], TERN_NETOPT_NID, 0x1234);
    set_u16(&nodes[1], TERN_NETOPT_NID, 0x1234);
    send_ext(0, 1, 0x13, 3);
    run_for(50 * MS);
    assert_int_equal(nodes[0].ncap, 3);
    assert_int_equal(nodes[0].cap[2][3], 0x34);
    assert_int_equal(nodes[0].cap[2][4], 0x12);
    assert_int_equal(nodes[1].nrx, 3);

    /* A new extended address: the next frame's source. */
    uint8_t addr[8] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x99 };
    assert_int_equal(tern_netapi_set(&nodes[0].netif.module, TERN_NETOPT_ADDRESS_LONG, 0, addr, 8), 8);
    send_ext(0, 1, 0x14, 3);
    run_for(50 * MS);
    assert_int_equal(nodes[0].ncap, 4);
    assert_int_equal(nodes[0].cap[3][13], 0x99); /* source, last octet first */
    assert_int_equal(nodes[1].nrx, 4);
    assert_int_equal(nodes[1].rx[3].hdr.src[7], 0x99);
    set_u16(&nodes[0], TERN_NETOPT_NID, PAN);
    set_u16(&nodes[1], TERN_NETOPT_NID, PAN);
}

static void test_send__short_addresses__short_header_golden_bytes(void **state)
{
    (void)state;
    const uint8_t s0[2] = { 0x00, 0x01 };
    const uint8_t s1[2] = { 0x00, 0x02 };
    assert_int_equal(tern_netapi_set(&nodes[0].netif.module, TERN_NETOPT_ADDRESS, 0, s0, 2), 2);
    assert_int_equal(tern_netapi_set(&nodes[1].netif.module, TERN_NETOPT_ADDRESS, 0, s1, 2), 2);
    uint8_t seq = nodes[0].mac.seq;
    assert_int_equal(send_from(0, s1, 2, 0, 2, 0x77, 2), 0);
    run_for(50 * MS);
    /* Frame control 0x9861: data, ACK request, PAN ID compression, short
     * destination (10), version 2006, short source (10). */
    const uint8_t expected[] = { 0x61, 0x98, seq, 0xcd, 0xab, 0x02, 0x00, 0x01, 0x00, 0x77, 0xa2 };
    assert_int_equal(nodes[0].ncap, 1);
    assert_int_equal(nodes[0].cap_len[0], sizeof(expected));
    assert_memory_equal(nodes[0].cap[0], expected, sizeof(expected));
    assert_int_equal(nodes[1].nrx, 1);
    assert_int_equal(nodes[1].rx[0].hdr.src_len, 2);
    assert_memory_equal(nodes[1].rx[0].hdr.src, s0, 2);
    assert_int_equal(nodes[1].rx[0].hdr.dst_len, 2);
    assert_memory_equal(nodes[1].rx[0].hdr.dst, s1, 2);
    assert_int_equal(nodes[0].st[0].status, 0);
    assert_int_equal(radio_stat(0, TERN_SIM_RADIO_ACKS_RECEIVED), 1);

    /* Without a short address of its own the source stays extended. */
    const uint8_t none[2] = { 0xff, 0xfe };
    assert_int_equal(tern_netapi_set(&nodes[0].netif.module, TERN_NETOPT_ADDRESS, 0, none, 2), 2);
    assert_int_equal(send_from(0, s1, 2, 0, 2, 0x78, 1), 0);
    run_for(50 * MS);
    assert_int_equal(nodes[0].ncap, 2);
    assert_int_equal(nodes[0].cap[1][1], 0xd8); /* short destination, extended source */
    assert_int_equal(nodes[1].nrx, 2);
    assert_int_equal(nodes[1].rx[1].hdr.src_len, 8);
}

/* The receiver keeps the last MAC header with what it made of it: frames
 * with the same header (but the sequence number) are flagged as the first
 * one was, a frame with another header as its own says. */
static void test_receive__broadcast_flag_follows_each_header(void **state)
{
    (void)state;
    uint8_t a1[8];
    eui64(1, a1);
    assert_int_equal(send_from(0, NULL, 0, 0, 8, 0x11, 2), 0);
    run_for(50 * MS);
    assert_int_equal(send_from(0, NULL, 0, 0, 8, 0x12, 2), 0);
    run_for(50 * MS);
    assert_int_equal(send_from(0, a1, 8, 0, 8, 0x13, 2), 0);
    run_for(50 * MS);
    assert_int_equal(send_from(0, a1, 8, 0, 8, 0x14, 2), 0);
    run_for(50 * MS);
    assert_int_equal(send_from(0, NULL, 0, 0, 8, 0x15, 2), 0);
    run_for(50 * MS);
    static const bool broadcast[] = { true, true, false, false, true };
    assert_int_equal(nodes[1].nrx, 5);
    for (unsigned i = 0; i < 5; i++) {
        const rx_log_t *r = &nodes[1].rx[i];
        assert_int_equal(r->payload[0], 0x11 + i);
        assert_int_equal((r->hdr.flags & TERN_NETIF_HDR_FLAG_BROADCAST) != 0, broadcast[i]);
        assert_int_equal(r->hdr.dst_len, broadcast[i] ? 2 : 8);
    }
}

static void test_send__broadcast_and_multicast__to_0xffff_without_ack(void **state)
{
    (void)state;
    uint8_t seq = nodes[0].mac.seq;
    assert_int_equal(send_from(0, NULL, 0, 0, 8, 0x11, 2), 0);
    run_for(50 * MS);
    /* Frame control 0xd841: data, PAN ID compression, no ACK request, short
     * destination 0xffff, version 2006, extended source. */
    const uint8_t expected[] = { 0x41, 0xd8, seq,  0xcd, 0xab, 0xff, 0xff, 0x70, 0x66,
                                 0x55, 0x44, 0x33, 0x22, 0x11, 0x02, 0x11, 0xa2 };
    assert_int_equal(nodes[0].ncap, 1);
    assert_int_equal(nodes[0].cap_len[0], sizeof(expected));
    assert_memory_equal(nodes[0].cap[0], expected, sizeof(expected));
    for (unsigned i = 1; i < NODES; i++) {
        assert_int_equal(nodes[i].nrx, 1);
        const rx_log_t *r = &nodes[i].rx[0];
        assert_int_not_equal(r->hdr.flags & TERN_NETIF_HDR_FLAG_BROADCAST, 0);
        assert_int_equal(r->hdr.dst_len, 2);
        assert_int_equal(r->hdr.dst[0], 0xff);
        assert_int_equal(r->hdr.dst[1], 0xff);
        assert_int_equal(radio_stat(i, TERN_SIM_RADIO_ACKS_SENT), 0);
    }
    assert_int_equal(nodes[0].st[0].status, 0);
    assert_int_equal(nodes[0].st[0].transmissions, 1);

    /* A multicast destination (6LoWPAN maps every IPv6 group there) and the
     * BROADCAST flag with a unicast address go to 0xffff as well. */
    const uint8_t group[2] = { 0x80, 0x01 };
    assert_int_equal(send_from(0, group, 2, TERN_NETIF_HDR_FLAG_MULTICAST, 8, 0x12, 1), 0);
    uint8_t a1[8];
    eui64(1, a1);
    assert_int_equal(send_from(0, a1, 8, TERN_NETIF_HDR_FLAG_BROADCAST, 8, 0x13, 1), 0);
    run_for(50 * MS);
    assert_int_equal(nodes[0].ncap, 3);
    for (unsigned k = 1; k < 3; k++) {
        assert_int_equal(nodes[0].cap[k][0], 0x41);
        assert_int_equal(nodes[0].cap[k][5], 0xff);
        assert_int_equal(nodes[0].cap[k][6], 0xff);
    }
    assert_int_equal(nodes[2].nrx, 3);
    assert_int_equal(nodes[0].cap[2][2], (uint8_t)(seq + 2u)); /* one counter, +1 per frame */
}

/* ------------------------------------------------------------ acknowledgments and retries */

static void test_send__prr_zero__ehostunreach_after_four_transmissions(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, 0, -60), 0);
    send_ext(0, 1, 0x21, 4);
    run_for(SEC);
    /* One transmission and macMaxFrameRetries = 3 retransmissions (2006 §7.5.6.4.3). */
    assert_int_equal(radio_stat(0, TERN_SIM_RADIO_TX_FRAMES), 4);
    assert_int_equal(radio_stat(0, TERN_SIM_RADIO_TX_NOACK), 4);
    assert_int_equal(radio_stat(1, TERN_SIM_RADIO_RX_FRAMES), 0);
    assert_int_equal(nodes[1].nrx, 0);
    assert_int_equal(nodes[0].nst, 1);
    assert_int_equal(nodes[0].st[0].status, -EHOSTUNREACH);
    assert_int_equal(nodes[0].st[0].transmissions, 4);
    assert_int_equal(nodes[0].nneterr, 1);
    assert_int_equal(nodes[0].neterr[0], -EHOSTUNREACH);
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_RETRIES), 3);
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_NOACK), 1);
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_PACKETS), 0);
    /* Every retransmission is the same frame: same bytes, same sequence number. */
    assert_int_equal(nodes[0].ncap, 4);
    for (unsigned k = 1; k < 4; k++) {
        assert_int_equal(nodes[0].cap_len[k], nodes[0].cap_len[0]);
        assert_memory_equal(nodes[0].cap[k], nodes[0].cap[0], nodes[0].cap_len[0]);
    }
}

static void test_send__lossy_data_link__retries_deliver(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE / 2u, -80), 0);
    const unsigned frames = 12;
    for (unsigned k = 0; k < frames; k++) {
        send_ext(0, 1, (uint8_t)k, 5);
        if (k % 4u == 3u) {
            assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
        }
    }
    run_for(2 * SEC);
    assert_int_equal(nodes[0].nst, frames);
    unsigned delivered = 0;
    unsigned retried_ok = 0;
    unsigned transmissions = 0;
    for (unsigned k = 0; k < frames; k++) {
        const status_log_t *s = &nodes[0].st[k];
        assert_true(s->status == 0 || s->status == -EHOSTUNREACH);
        assert_true(s->transmissions >= 1 && s->transmissions <= 4);
        delivered += (s->status == 0) ? 1u : 0u;
        retried_ok += (s->status == 0 && s->transmissions > 1) ? 1u : 0u;
        transmissions += s->transmissions;
        assert_int_equal(nodes[0].neterr[k], s->status);
    }
    /* The ACK link is perfect: a frame arrived exactly when it was acknowledged. */
    assert_int_equal(nodes[1].nrx, delivered);
    assert_true(retried_ok > 0);
    assert_int_equal(transmissions, radio_stat(0, TERN_SIM_RADIO_TX_FRAMES));
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_RETRIES), transmissions - frames);
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_DUPLICATE), 0);
    /* In order: one frame in flight at a time, the queue is a FIFO. */
    for (unsigned k = 1; k < nodes[1].nrx; k++) {
        assert_true(nodes[1].rx[k].payload[0] > nodes[1].rx[k - 1].payload[0]);
    }
}

static void test_send__lossy_ack_link__duplicates_suppressed(void **state)
{
    (void)state;
    /* Every frame arrives; acknowledgments get lost: the sender retransmits
     * frames the receiver already has. */
    assert_int_equal(tern_radio_medium_link_set(&medium, 1, 0, TERN_RADIO_PRR_ONE * 4u / 10u, -80), 0);
    const unsigned frames = 12;
    for (unsigned k = 0; k < frames; k++) {
        send_ext(0, 1, (uint8_t)k, 5);
        if (k % 4u == 3u) {
            assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
        }
    }
    run_for(2 * SEC);
    uint32_t sent = radio_stat(0, TERN_SIM_RADIO_TX_FRAMES);
    assert_true(sent > frames);
    assert_int_equal(radio_stat(1, TERN_SIM_RADIO_RX_FRAMES), sent);
    /* Each payload came up once, in order; every retransmission was dropped. */
    assert_int_equal(nodes[1].nrx, frames);
    for (unsigned k = 0; k < frames; k++) {
        assert_int_equal(nodes[1].rx[k].payload[0], k);
    }
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_DUPLICATE), sent - frames);
    /* Every transmission after a frame's first was a retry. */
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_RETRIES), sent - frames);
    assert_int_equal(nodes[0].nst, frames);
}

/* ------------------------------------------------------------ channel access */

/* A 100-byte broadcast data frame from the bare radio to another PAN (the
 * nodes' radios filter it): 3456 us on the air. */
static size_t jam_frame(uint8_t *f)
{
    memset(f, 0, 100);
    f[0] = 0x41; /* data, PAN ID compression */
    f[1] = 0xd8; /* short destination, 2006, extended source */
    f[2] = 0;
    f[3] = 0xad; /* PAN 0x0bad */
    f[4] = 0x0b;
    f[5] = 0xff;
    f[6] = 0xff;
    for (unsigned i = 0; i < 8; i++) {
        f[7 + i] = (uint8_t)(0x10u + i);
    }
    return 100;
}

static void test_send__channel_busy_throughout__ebusy_after_five_assessments(void **state)
{
    (void)state;
    tern_radio_medium_set_collisions(&medium, true);
    uint8_t f[100];
    size_t len = jam_frame(f);
    /* Back-to-back frames for about 100 ms: longer than any CSMA-CA run
     * (at most 7 + 15 + 31 + 31 + 31 backoff periods = 37 ms). Node 0 starts
     * 1016 us in: its attempts (multiples of 320 us later) never fall on the
     * instant where one jamming frame ends and the next begins (multiples of
     * 3456 us: the offsets differ modulo 64 us). */
    raw_send(f, len, 29);
    run_for(1016);
    send_ext(0, 1, 0x31, 3);
    run_for(200 * MS);
    assert_int_equal(raw.outcomes[TERN_NETDEV_EVENT_TX_COMPLETE], 30);
    /* NB 0..4 busy: macMaxCSMABackoffs = 4 exceeded at the fifth (2006 §7.5.1.4). */
    assert_int_equal(radio_stat(0, TERN_SIM_RADIO_TX_MEDIUM_BUSY), 5);
    assert_int_equal(radio_stat(0, TERN_SIM_RADIO_TX_FRAMES), 0);
    assert_int_equal(nodes[0].nst, 1);
    assert_int_equal(nodes[0].st[0].status, -EBUSY);
    assert_int_equal(nodes[0].st[0].transmissions, 0);
    assert_int_equal(nodes[0].neterr[0], -EBUSY);
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_CHANNEL_BUSY), 1);
    assert_int_equal(nodes[1].nrx, 0);
}

static void test_send__channel_busy_once__backs_off_then_delivers(void **state)
{
    (void)state;
    tern_radio_medium_set_collisions(&medium, true);
    uint8_t f[100];
    size_t len = jam_frame(f);
    raw_send(f, len, 0);
    run_for(1016);
    /* The first assessment comes at most 7 periods (2240 us) later: still on the air. */
    send_ext(0, 1, 0x32, 3);
    run_for(200 * MS);
    assert_true(radio_stat(0, TERN_SIM_RADIO_TX_MEDIUM_BUSY) >= 1);
    assert_int_equal(radio_stat(0, TERN_SIM_RADIO_TX_FRAMES), 1);
    assert_int_equal(nodes[0].nst, 1);
    assert_int_equal(nodes[0].st[0].status, 0);
    assert_int_equal(nodes[0].st[0].transmissions, 1);
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_CHANNEL_BUSY), 0);
    assert_int_equal(nodes[1].nrx, 1);
    assert_int_equal(nodes[1].rx[0].payload[0], 0x32);
}

/* ------------------------------------------------------------ the queue */

static void test_send__queue_full__dropped_counted_reported_rest_in_order(void **state)
{
    (void)state;
    /* One frame in flight, TERN_CONF_NETIF_TX_QUEUE waiting, one too many.
     * Posted in batches: the interface's message queue holds 8. */
    const unsigned total = TERN_CONF_NETIF_TX_QUEUE + 2u;
    for (unsigned k = 0; k < total; k++) {
        send_ext(0, 1, (uint8_t)k, 2);
        if (k % 4u == 3u || k + 1u == total) {
            assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
        }
    }
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_QUEUE_FULL), 1);
    assert_int_equal(nodes[0].nneterr, 1);
    assert_int_equal(nodes[0].neterr[0], -ENOBUFS);
    assert_int_equal(nodes[0].nst, 0); /* never reached the device: no TX status */
    run_for(2 * SEC);
    assert_int_equal(nodes[1].nrx, total - 1u);
    for (unsigned k = 0; k < total - 1u; k++) {
        assert_int_equal(nodes[1].rx[k].payload[0], k);
    }
    assert_int_equal(nodes[0].nst, total - 1u);
    assert_int_equal(radio_stat(0, TERN_SIM_RADIO_TX_REFUSED), 0); /* never sent while busy */
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_PACKETS), total - 1u);
}

/* ------------------------------------------------------------ receive filter */

/** A data frame from the bare radio to @p dst (extended, canonical) in @p pan. */
static size_t data_frame(uint8_t *f, uint8_t fc_low, uint8_t seq, uint16_t pan, const uint8_t dst[8], size_t payload)
{
    size_t n = 0;
    f[n++] = fc_low; /* 0x41: no ACK request; 0x61: ACK request */
    f[n++] = 0xdc;   /* extended destination, 2006, extended source */
    f[n++] = seq;
    f[n++] = (uint8_t)pan;
    f[n++] = (uint8_t)(pan >> 8);
    for (unsigned i = 0; i < 8; i++) {
        f[n++] = dst[7 - i];
    }
    uint8_t src[8];
    eui64(0xf, src);
    for (unsigned i = 0; i < 8; i++) {
        f[n++] = src[7 - i];
    }
    for (size_t i = 0; i < payload; i++) {
        f[n++] = (uint8_t)(0xc0u + i);
    }
    return n;
}

static void inject(const uint8_t *f, size_t len)
{
    uint32_t before = raw.outcomes[TERN_NETDEV_EVENT_TX_COMPLETE] + raw.outcomes[TERN_NETDEV_EVENT_TX_NOACK];
    raw_send(f, len, 0);
    run_for(20 * MS);
    assert_int_equal(raw.outcomes[TERN_NETDEV_EVENT_TX_COMPLETE] + raw.outcomes[TERN_NETDEV_EVENT_TX_NOACK],
                     before + 1u);
}

static void test_recv__not_for_us_malformed_and_other_kinds__dropped_and_counted(void **state)
{
    (void)state;
    /* The radio hands everything up; the link's own filter must decide. */
    const uint8_t on = 1;
    assert_int_equal(nodes[1].radio.netdev.driver->set(&nodes[1].radio.netdev, TERN_NETOPT_PROMISCUOUS, &on, 1), 1);
    uint8_t a1[8];
    uint8_t a2[8];
    eui64(1, a1);
    eui64(2, a2);
    uint8_t f[64];

    inject(f, data_frame(f, 0x41, 1, 0x1234, a1, 3)); /* other PAN */
    inject(f, data_frame(f, 0x41, 2, PAN, a2, 3));    /* another station */
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_NOT_FOR_US), 2);

    const uint8_t beacon[] = { 0x00, 0xd0, 3, 0xcd, 0xab, 0x7f, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x02, 0xff, 0xcf };
    inject(beacon, sizeof(beacon));
    const uint8_t command[] = { 0x43, 0xd8, 4, 0xcd, 0xab, 0xff, 0xff, 0x7f, 0x66,
                                0x55, 0x44, 0x33, 0x22, 0x11, 0x02, 0x07 };
    inject(command, sizeof(command));
    const uint8_t ack[] = { 0x02, 0x00, 5 };
    inject(ack, sizeof(ack));
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_UNKNOWN_PROTO), 3);

    size_t n = data_frame(f, 0x41, 6, PAN, a1, 3);
    inject(f, 9); /* truncated inside the source address */
    f[0] = 0x49;  /* security enabled */
    inject(f, n);
    const uint8_t no_source[] = { 0x01, 0x18, 7, 0xcd, 0xab, 0xff, 0xff, 0xc0 };
    inject(no_source, sizeof(no_source));
    inject(f, data_frame(f, 0x41, 8, PAN, a1, 0)); /* no payload */
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_ERRORS), 4);
    assert_int_equal(nodes[1].nrx, 0);

    /* What is for us does come up: 2006, 2003 and 2015 data frames. */
    inject(f, data_frame(f, 0x41, 9, PAN, a1, 2));
    n = data_frame(f, 0x41, 10, PAN, a1, 2);
    f[1] = 0xcc; /* frame version 0 (2003) */
    inject(f, n);
    n = data_frame(f, 0x01, 11, PAN, a1, 2);
    f[1] = 0xec; /* frame version 2 (2015): ext/ext, PAN ID compression 0 = destination PAN only */
    inject(f, n);
    assert_int_equal(nodes[1].nrx, 3);
    uint8_t src[8];
    eui64(0xf, src);
    for (unsigned k = 0; k < 3; k++) {
        assert_int_equal(nodes[1].rx[k].len, 2);
        assert_int_equal(nodes[1].rx[k].payload[0], 0xc0);
        assert_memory_equal(nodes[1].rx[k].hdr.src, src, 8);
    }

    /* Promiscuous through the interface: frames for others come up too. */
    assert_int_equal(tern_netapi_set(&nodes[1].netif.module, TERN_NETOPT_PROMISCUOUS, 0, &on, 1), 1);
    uint8_t v = 0;
    assert_int_equal(tern_netapi_get(&nodes[1].netif.module, TERN_NETOPT_PROMISCUOUS, 0, &v, 1), 1);
    assert_int_equal(v, 1);
    inject(f, data_frame(f, 0x41, 12, PAN, a2, 2));
    assert_int_equal(nodes[1].nrx, 4);
    assert_memory_equal(nodes[1].rx[3].hdr.dst, a2, 8);
}

static void test_recv__same_source_same_seq__duplicate_dropped(void **state)
{
    (void)state;
    uint8_t a1[8];
    eui64(1, a1);
    uint8_t f[64];
    size_t n = data_frame(f, 0x61, 42, PAN, a1, 2);
    inject(f, n);
    inject(f, n); /* a retransmission whose ACK was lost */
    assert_int_equal(nodes[1].nrx, 1);
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_DUPLICATE), 1);
    assert_int_equal(raw.outcomes[TERN_NETDEV_EVENT_TX_COMPLETE], 2); /* both acknowledged */

    inject(f, data_frame(f, 0x61, 43, PAN, a1, 2)); /* the next number */
    assert_int_equal(nodes[1].nrx, 2);
    /* Without an ACK request a frame is never retransmitted: not checked. */
    n = data_frame(f, 0x41, 43, PAN, a1, 2);
    inject(f, n);
    assert_int_equal(nodes[1].nrx, 3);
    /* The same number much later is a new frame (TERN_IEEE802154_DUP_WINDOW_US). */
    run_for(TERN_IEEE802154_DUP_WINDOW_US);
    inject(f, data_frame(f, 0x61, 43, PAN, a1, 2));
    assert_int_equal(nodes[1].nrx, 4);
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_DUPLICATE), 1);
}

/* The link keeps what it made of the last header it took up for the frames
 * that repeat it but for the sequence number (every fragment of a datagram):
 * such a frame still needs a payload, and what the filter said must follow
 * the settings it depends on. */
static void test_recv__repeated_header__taken_up_until_settings_change(void **state)
{
    (void)state;
    const uint8_t on = 1;
    const uint8_t off = 0;
    tern_netdev_t *dev = &nodes[1].radio.netdev;
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_PROMISCUOUS, &on, 1), 1); /* the link's filter decides */
    uint8_t a1[8];
    uint8_t a2[8];
    eui64(1, a1);
    eui64(2, a2);
    uint8_t f[64];

    inject(f, data_frame(f, 0x41, 1, PAN, a1, 2));
    inject(f, data_frame(f, 0x41, 2, PAN, a1, 3)); /* the same header, the next number */
    assert_int_equal(nodes[1].nrx, 2);
    assert_int_equal(nodes[1].rx[1].len, 3);
    assert_int_equal(nodes[1].rx[1].payload[2], 0xc2);
    assert_memory_equal(nodes[1].rx[1].hdr.dst, a1, 8);

    /* Another PAN ID: the same header is for another PAN now. */
    set_u16(&nodes[1], TERN_NETOPT_NID, 0x1234);
    inject(f, data_frame(f, 0x41, 3, PAN, a1, 2));
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_NOT_FOR_US), 1);
    set_u16(&nodes[1], TERN_NETOPT_NID, PAN);
    inject(f, data_frame(f, 0x41, 4, PAN, a1, 2));
    assert_int_equal(nodes[1].nrx, 3);
    inject(f, data_frame(f, 0x41, 5, PAN, a1, 0)); /* the same header and nothing after it */
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_ERRORS), 1);

    /* Promiscuous: a frame for another station comes up, then no longer. */
    assert_int_equal(tern_netapi_set(&nodes[1].netif.module, TERN_NETOPT_PROMISCUOUS, 0, &on, 1), 1);
    inject(f, data_frame(f, 0x41, 6, PAN, a2, 2));
    assert_int_equal(nodes[1].nrx, 4);
    assert_int_equal(tern_netapi_set(&nodes[1].netif.module, TERN_NETOPT_PROMISCUOUS, 0, &off, 1), 1);
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_PROMISCUOUS, &on, 1), 1);
    inject(f, data_frame(f, 0x41, 7, PAN, a2, 2));
    assert_int_equal(nodes[1].nrx, 4);
    assert_int_equal(netif_stat(1, TERN_NETIF_RX_NOT_FOR_US), 2);
}

/* ------------------------------------------------------------ options */

static void test_options__through_to_device_copies_consistent(void **state)
{
    (void)state;
    tern_module_t *m = &nodes[0].netif.module;
    uint16_t v = 0;
    /* Channel. */
    v = 15;
    assert_int_equal(tern_netapi_set(m, TERN_NETOPT_CHANNEL, 0, &v, 2), 2);
    assert_int_equal(nodes[0].radio.pib.channel, 15);
    v = 5; /* not a 2.4 GHz channel: the device refuses, the copy stays */
    assert_int_equal(tern_netapi_set(m, TERN_NETOPT_CHANNEL, 0, &v, 2), -EINVAL);
    v = 0;
    assert_int_equal(tern_netapi_get(m, TERN_NETOPT_CHANNEL, 0, &v, 2), 2);
    assert_int_equal(v, 15);
    /* PAN ID. */
    v = 0x1234;
    assert_int_equal(tern_netapi_set(m, TERN_NETOPT_NID, 0, &v, 2), 2);
    assert_int_equal(nodes[0].radio.pib.pan_id, 0x1234);
    v = 0;
    assert_int_equal(tern_netapi_get(m, TERN_NETOPT_NID, 0, &v, 2), 2);
    assert_int_equal(v, 0x1234);
    assert_int_equal(nodes[0].mac.pan_id, 0x1234);
    /* Short address. */
    const uint8_t s[2] = { 0x12, 0x34 };
    uint8_t got[8] = { 0 };
    assert_int_equal(tern_netapi_set(m, TERN_NETOPT_ADDRESS, 0, s, 2), 2);
    assert_memory_equal(nodes[0].radio.pib.short_addr, s, 2);
    assert_int_equal(tern_netapi_get(m, TERN_NETOPT_ADDRESS, 0, got, sizeof(got)), 2);
    assert_memory_equal(got, s, 2);
    assert_int_equal(tern_netapi_set(m, TERN_NETOPT_ADDRESS, 0, s, 1), -EINVAL);
    /* Long address: also the interface's l2addr, from which IPv6 derives its IIDs. */
    uint8_t l[8];
    eui64(0, l);
    assert_int_equal(nodes[0].netif.l2addr_len, 8);
    assert_memory_equal(nodes[0].netif.l2addr, l, 8);
    l[7] = 0x99;
    assert_int_equal(tern_netapi_set(m, TERN_NETOPT_ADDRESS_LONG, 0, l, 8), 8);
    assert_memory_equal(nodes[0].radio.pib.long_addr, l, 8);
    assert_memory_equal(nodes[0].netif.l2addr, l, 8);
    assert_int_equal(tern_netapi_get(m, TERN_NETOPT_ADDRESS_LONG, 0, got, sizeof(got)), 8);
    assert_memory_equal(got, l, 8);
    v = 0;
    assert_int_equal(tern_netapi_get(m, TERN_NETOPT_ADDR_LEN, 0, &v, 2), 2);
    assert_int_equal(v, 8);
    /* Max frame size: the device's (125, the FCS is the radio's); it has no SET. */
    v = 0;
    assert_int_equal(tern_netapi_get(m, TERN_NETOPT_MAX_PDU_SIZE, 0, &v, 2), 2);
    assert_int_equal(v, 125);
    v = 100;
    assert_int_equal(tern_netapi_set(m, TERN_NETOPT_MAX_PDU_SIZE, 0, &v, 2), -ENOTSUP);
    assert_int_equal(nodes[0].mac.max_frame, 125);
    /* Device type comes from the device (IPv6 looks at it). */
    v = 0;
    assert_int_equal(tern_netapi_get(m, TERN_NETOPT_DEVICE_TYPE, 0, &v, 2), 2);
    assert_int_equal(v, TERN_NETDEV_TYPE_IEEE802154);
    /* The TX status hook reads back. */
    tern_netif_tx_status_t hook = { 0 };
    assert_int_equal(tern_netapi_get(m, TERN_NETOPT_TX_STATUS, 0, &hook, sizeof(hook)), (int)sizeof(hook));
    assert_ptr_equal(hook.fn, status_hook);
    assert_ptr_equal(hook.ctx, &nodes[0]);
}

static void test_payload_max__per_header__frame_minus_mhr(void **state)
{
    (void)state;
    const tern_netif_t *netif = &nodes[0].netif;
    tern_netif_hdr_t h = { 0 };
    /* Broadcast from the extended address: MHR 3 + 2 + 2 + 8 = 15. */
    assert_int_equal(tern_netif_link_ieee802154.payload_max(netif, &h), 125 - 15);
    /* Extended to extended: 3 + 2 + 8 + 8 = 21. */
    h.dst_len = 8;
    assert_int_equal(tern_netif_link_ieee802154.payload_max(netif, &h), 125 - 21);
    /* The broadcast flag makes an extended destination 0xffff: 15 again. */
    h.flags = TERN_NETIF_HDR_FLAG_BROADCAST;
    assert_int_equal(tern_netif_link_ieee802154.payload_max(netif, &h), 125 - 15);
    h.flags = 0;
    /* A short source asked for without a short address: extended, 3 + 2 + 2 + 8. */
    h.dst_len = 2;
    h.src_len = 2;
    assert_int_equal(tern_netif_link_ieee802154.payload_max(netif, &h), 125 - 15);
    /* Short to short, once a short address is set: 3 + 2 + 2 + 2 = 9. */
    const uint8_t s[2] = { 0x00, 0x01 };
    assert_int_equal(tern_netapi_set(&nodes[0].netif.module, TERN_NETOPT_ADDRESS, 0, s, 2), 2);
    assert_int_equal(tern_netif_link_ieee802154.payload_max(netif, &h), 125 - 9);
    /* ... and extended again once it is "none" (0xfffe). */
    const uint8_t none[2] = { 0xff, 0xfe };
    assert_int_equal(tern_netapi_set(&nodes[0].netif.module, TERN_NETOPT_ADDRESS, 0, none, 2), 2);
    assert_int_equal(tern_netif_link_ieee802154.payload_max(netif, &h), 125 - 15);
    assert_int_equal(tern_netapi_set(&nodes[0].netif.module, TERN_NETOPT_ADDRESS, 0, s, 2), 2);
    h.dst_len = 3;
    assert_int_equal(tern_netif_link_ieee802154.payload_max(netif, &h), -EINVAL);

    /* Exactly payload_max fits; one byte more is refused (tx_invalid). */
    uint8_t a1[8];
    eui64(1, a1);
    assert_int_equal(send_from(0, a1, 8, 0, 8, 0x41, 104), 0);
    assert_int_equal(send_from(0, a1, 8, 0, 8, 0x42, 105), 0);
    run_for(100 * MS);
    assert_int_equal(nodes[1].nrx, 1);
    assert_int_equal(nodes[1].rx[0].len, 104);
    assert_int_equal(netif_stat(0, TERN_NETIF_TX_INVALID), 1);
    assert_int_equal(nodes[0].nneterr, 2);
    assert_int_equal(nodes[0].neterr[0], 0);
    assert_int_equal(nodes[0].neterr[1], -EMSGSIZE); /* refused when its turn came, with the link's reason */
}

/* ------------------------------------------------------------ a device that completes in send() */

static int refuse_send(tern_netdev_test_t *dev, const tern_iolist_t *iol, size_t count)
{
    (void)dev;
    (void)iol;
    (void)count;
    return -EIO;
}

static void test_tx_status__synchronous_device__sent_at_once_hook_sees_outcome(void **state)
{
    (void)state;
    /* A test device over the raw link: no tx_policy, send() is the outcome,
     * nothing queued, no timer; the hook still sees each outcome. */
    static tern_stack_t stack;
    static tern_netdev_test_t dev;
    static tern_netif_t netif;
    node_t *n = &nodes[0];
    n->nst = 0;
    n->nneterr = 0;
    assert_int_equal(tern_stack_init(&stack, "sync", &loop.base), 0);
    tern_netdev_test_init(&dev);
    assert_int_equal(tern_netif_add(&stack, &netif, "test0", &dev.netdev, &tern_netif_link_raw, TERN_NETTYPE_TEST), 0);
    other_netif = &netif;
    const tern_netif_tx_status_t hook = { .fn = status_hook, .ctx = n };
    assert_int_equal(tern_netapi_set(&netif.module, TERN_NETOPT_TX_STATUS, 0, &hook, sizeof(hook)), (int)sizeof(hook));
    for (unsigned k = 0; k < 2; k++) {
        const tern_neterr_report_t report = { .report = neterr_report, .ctx = n };
        tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, &report, sizeof(report), TERN_NETTYPE_NETERR);
        assert_non_null(pkt);
        pkt = tern_pktbuf_add(&stack.pktbuf, pkt, "abc", 3, TERN_NETTYPE_UNDEF);
        assert_non_null(pkt);
        pkt = tern_netif_hdr_build(&stack.pktbuf, pkt, NULL, 0, NULL, 0);
        assert_non_null(pkt);
        assert_int_equal(tern_netapi_send(&netif.module, pkt), 0);
        assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
        dev.send_cb = refuse_send;
    }
    assert_int_equal(dev.frames_sent, 1);
    assert_int_equal(n->nst, 2);
    assert_int_equal(n->st[0].status, 0);
    assert_int_equal(n->st[0].transmissions, 1);
    assert_int_equal(n->st[1].status, -EIO);
    assert_int_equal(n->st[1].transmissions, 0);
    assert_int_equal(n->nneterr, 2);
    assert_int_equal(n->neterr[0], 0);
    assert_int_equal(n->neterr[1], -EIO);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_PACKETS]), 1);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_ERRORS]), 1);
    assert_null(netif.tx_frame);
    assert_false(tern_timer_is_armed(&netif.tx_timer));
    harness_assert_pktbuf_clean(&stack.pktbuf);
}

/* ------------------------------------------------------------ CSMA-CA and retries in the device */

/** A radio on the test device whose every frame has a scripted outcome, reported from inside send(). */
typedef struct {
    tern_ieee802154_pib_t pib;
    bool hw_csma;                 /**< answers TERN_NETOPT_HW_CSMA_RETRIES with 1 */
    tern_netdev_event_t outcome;  /**< reported for every frame */
    unsigned sends;
} scripted_radio_t;

static int scripted_get(tern_netdev_test_t *dev, tern_netopt_t opt, void *value, size_t max_len)
{
    scripted_radio_t *r = dev->state;
    if (opt == TERN_NETOPT_HW_CSMA_RETRIES && r->hw_csma && max_len >= 1u) {
        *(uint8_t *)value = 1;
        return 1;
    }
    return tern_ieee802154_pib_get(&r->pib, opt, value, max_len);
}

static int scripted_set(tern_netdev_test_t *dev, tern_netopt_t opt, const void *value, size_t len)
{
    scripted_radio_t *r = dev->state;
    return tern_ieee802154_pib_set(&r->pib, opt, value, len);
}

static int scripted_send(tern_netdev_test_t *dev, const tern_iolist_t *iol, size_t count)
{
    scripted_radio_t *r = dev->state;
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iol[i].len;
    }
    r->sends++;
    tern_netdev_report(&dev->netdev, r->outcome);
    return (int)len;
}

/**
 * An 802.15.4 interface over a scripted radio (@p hw_csma: it declares CSMA-CA
 * and retries in hardware) on its own stack; node 0 records the TX status.
 */
static void scripted_setup(tern_stack_t *stack, tern_netdev_test_t *dev, scripted_radio_t *r, tern_netif_t *netif,
                           tern_ieee802154_link_t *mac, bool hw_csma)
{
    uint8_t addr[8];
    eui64(9, addr);
    memset(r, 0, sizeof(*r));
    tern_ieee802154_pib_init(&r->pib, addr, PAN, 26);
    r->hw_csma = hw_csma;
    assert_int_equal(tern_stack_init(stack, hw_csma ? "hw" : "sw", &loop.base), 0);
    tern_netdev_test_init(dev);
    dev->state = r;
    dev->get_cb = scripted_get;
    dev->set_cb = scripted_set;
    dev->send_cb = scripted_send;
    dev->device_type = TERN_NETDEV_TYPE_IEEE802154;
    assert_int_equal(tern_ieee802154_netif_add(stack, netif, mac, "wpan9", &dev->netdev), 0);
    other_netif = netif;
    node_t *n = &nodes[0];
    n->nst = 0;
    const tern_netif_tx_status_t hook = { .fn = status_hook, .ctx = n };
    assert_int_equal(tern_netapi_set(&netif->module, TERN_NETOPT_TX_STATUS, 0, &hook, sizeof(hook)), (int)sizeof(hook));
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
}

/** Send one unicast frame (extended destination, an ACK asked) through @p netif. */
static void scripted_send_one(tern_stack_t *stack, tern_netif_t *netif)
{
    uint8_t dst[8];
    eui64(1, dst);
    tern_pkt_t *pkt = tern_pktbuf_add(&stack->pktbuf, NULL, "abc", 3, TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(pkt);
    pkt = tern_netif_hdr_build(&stack->pktbuf, pkt, NULL, 0, dst, 8);
    assert_non_null(pkt);
    assert_int_equal(tern_netapi_send(&netif->module, pkt), 0);
}

static void test_send__hw_csma_device__no_backoff_timer_outcome_final(void **state)
{
    (void)state;
    static tern_stack_t stack;
    static tern_netdev_test_t dev;
    static scripted_radio_t r;
    static tern_netif_t netif;
    static tern_ieee802154_link_t mac;
    scripted_setup(&stack, &dev, &r, &netif, &mac, true);
    assert_true(netif.tx_hw_csma);
    node_t *n = &nodes[0];
    const uint64_t start = clock_v.now;
    static const tern_netdev_event_t outcomes[3] = { TERN_NETDEV_EVENT_TX_COMPLETE, TERN_NETDEV_EVENT_TX_NOACK,
                                                     TERN_NETDEV_EVENT_TX_MEDIUM_BUSY };
    for (unsigned k = 0; k < 3; k++) {
        r.outcome = outcomes[k];
        scripted_send_one(&stack, &netif);
        /* Handed over on the interface's turn: no backoff timer, no time passes. */
        assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
        assert_int_equal(r.sends, k + 1u);
        assert_int_equal(n->nst, k + 1u);
        assert_false(tern_timer_is_armed(&netif.tx_timer));
        assert_null(netif.tx_frame);
    }
    assert_int_equal(clock_v.now, start);
    /* The device's outcome is final: no retransmission, no further channel access. */
    assert_int_equal(n->st[0].status, 0);
    assert_int_equal(n->st[0].transmissions, 1);
    assert_int_equal(n->st[1].status, -EHOSTUNREACH);
    assert_int_equal(n->st[1].transmissions, TERN_IEEE802154_MAX_FRAME_RETRIES_DEFAULT + 1);
    assert_int_equal(n->st[2].status, -EBUSY);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_PACKETS]), 1);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_NOACK]), 1);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_CHANNEL_BUSY]), 1);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_RETRIES]), 0);
    harness_assert_pktbuf_clean(&stack.pktbuf);
}

static void test_send__device_without_hw_csma__software_backoff_and_retries(void **state)
{
    (void)state;
    static tern_stack_t stack;
    static tern_netdev_test_t dev;
    static scripted_radio_t r;
    static tern_netif_t netif;
    static tern_ieee802154_link_t mac;
    scripted_setup(&stack, &dev, &r, &netif, &mac, false);
    assert_false(netif.tx_hw_csma);
    node_t *n = &nodes[0];
    /* NOACK every time: the interface retransmits macMaxFrameRetries times, each after CSMA-CA. */
    r.outcome = TERN_NETDEV_EVENT_TX_NOACK;
    scripted_send_one(&stack, &netif);
    run_for(1 * SEC);
    assert_int_equal(r.sends, TERN_IEEE802154_MAX_FRAME_RETRIES_DEFAULT + 1);
    assert_int_equal(n->nst, 1);
    assert_int_equal(n->st[0].status, -EHOSTUNREACH);
    assert_int_equal(n->st[0].transmissions, TERN_IEEE802154_MAX_FRAME_RETRIES_DEFAULT + 1);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_RETRIES]), TERN_IEEE802154_MAX_FRAME_RETRIES_DEFAULT);
    /* Busy every time: macMaxCSMABackoffs + 1 channel accesses, with growing backoffs. */
    r.sends = 0;
    r.outcome = TERN_NETDEV_EVENT_TX_MEDIUM_BUSY;
    scripted_send_one(&stack, &netif);
    run_for(1 * SEC);
    assert_int_equal(r.sends, TERN_IEEE802154_MAX_CSMA_BACKOFFS + 1);
    assert_int_equal(n->nst, 2);
    assert_int_equal(n->st[1].status, -EBUSY);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_CHANNEL_BUSY]), 1);
    assert_false(tern_timer_is_armed(&netif.tx_timer));
    harness_assert_pktbuf_clean(&stack.pktbuf);
}

static const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    T(test_send__unicast_extended__acked_delivered_reported),
    T(test_send__mhr_written_into_interface_header_snip),
    T(test_send__same_destination__header_reused_settings_changes_seen),
    T(test_send__short_addresses__short_header_golden_bytes),
    T(test_send__broadcast_and_multicast__to_0xffff_without_ack),
    T(test_receive__broadcast_flag_follows_each_header),
    T(test_send__prr_zero__ehostunreach_after_four_transmissions),
    T(test_send__lossy_data_link__retries_deliver),
    T(test_send__lossy_ack_link__duplicates_suppressed),
    T(test_send__channel_busy_throughout__ebusy_after_five_assessments),
    T(test_send__channel_busy_once__backs_off_then_delivers),
    T(test_send__queue_full__dropped_counted_reported_rest_in_order),
    T(test_recv__not_for_us_malformed_and_other_kinds__dropped_and_counted),
    T(test_recv__same_source_same_seq__duplicate_dropped),
    T(test_recv__repeated_header__taken_up_until_settings_change),
    T(test_options__through_to_device_copies_consistent),
    T(test_payload_max__per_header__frame_minus_mhr),
    T(test_tx_status__synchronous_device__sent_at_once_hook_sees_outcome),
    T(test_send__hw_csma_device__no_backoff_timer_outcome_final),
    T(test_send__device_without_hw_csma__software_backoff_and_retries),
#undef T
};

int main(void)
{
    return cmocka_run_group_tests(tests, NULL, NULL);
}
