/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The 6LoWPAN module (RFC 4944, RFC 6282) between two nodes, under
 *        virtual time.
 *
 * Each node runs IPv6, UDP and 6LoWPAN over a test device. A small test-only
 * link ("tlink", below) stands in for IEEE 802.15.4 so that these tests do
 * not depend on the MAC: its header is one octet (destination length << 4 |
 * source length) then the destination and source addresses (8 bytes, or the
 * short broadcast 0xffff), and its payload_max() leaves the room an 802.15.4
 * frame would (104 bytes unicast, 110 broadcast). The devices hand frames to
 * each other through a queue per device (a radio's receive buffer), with
 * optional loss, holding, and a log of every frame sent.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/sixlowpan/sixlowpan.h"
#include "tern/sock_udp.h"
#include "tern/udp.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/sixlowpan.h"

#define MS 1000u
#define SEC 1000000u
#define FRAME_MAX 125u /* 127 - 2-byte FCS */
#define RXQ_LEN 64u
#define LOG_LEN 64u
#define PORT0 1000u
#define PORT1 2000u

/* ------------------------------------------------------------ the test link */

typedef struct node node_t;

struct node {
    tern_stack_t stack;
    tern_ipv6_t ip;
    tern_udp_t udp;
    tern_sixlowpan_t lowpan;
    tern_netdev_test_t dev;
    tern_netif_t netif;
    tern_sock_udp_t sock;
    node_t *peer;
    uint8_t eui[8];
    /* receive queue of the device */
    uint8_t rxq[RXQ_LEN][FRAME_MAX];
    size_t rxq_len[RXQ_LEN];
    unsigned rxq_head;
    unsigned rxq_count;
    /* frames sent (link payload only, after the tlink header) */
    uint8_t log[LOG_LEN][FRAME_MAX];
    size_t log_len[LOG_LEN];
    unsigned nlog;
    /* link behaviour */
    bool hold;                 /* keep sent frames in held[] instead of delivering them */
    uint8_t held[LOG_LEN][FRAME_MAX];
    size_t held_len[LOG_LEN];
    unsigned nheld;
    unsigned loss_percent;     /* frames lost on the way to the peer */
    unsigned refuse_frame;     /* the device refuses this frame (1: the next one sent; 0: none) */
    void (*on_send)(node_t *n, const uint8_t *payload, size_t len); /* called for every frame sent */
    /* the NETERR snip of every frame the link converted, and its users then */
    const tern_pkt_t *report[LOG_LEN];
    uint8_t report_users[LOG_LEN];
    const tern_pkt_t *frame_head[LOG_LEN]; /* the interface header snip of each of those frames */
    const tern_pkt_t *frame_next[LOG_LEN]; /* the snip after it */
    unsigned nreport;
};

static tern_vclock_t clock_v;
static tern_loop_t loop;
static node_t nodes[2];
static uint32_t rng_state = 1;

static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static const uint8_t BROADCAST[2] = { 0xff, 0xff };

static int tlink_recv(tern_netif_t *netif, tern_pkt_t **pkt, tern_nettype_t *type, uint32_t *demux)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    tern_pkt_t *frame = *pkt;
    const uint8_t *b = frame->data;
    if (frame->size < 1) {
        return -EBADMSG;
    }
    size_t dst_len = b[0] >> 4, src_len = b[0] & 0x0fu;
    size_t hdr_len = 1u + dst_len + src_len;
    if ((dst_len != 2 && dst_len != 8) || src_len != 8 || frame->size <= hdr_len) {
        return -EBADMSG;
    }
    tern_netif_hdr_t *nh = tern_netif_hdr_get(frame);
    bool bcast = dst_len == 2 && memcmp(b + 1, BROADCAST, 2) == 0;
    if (!bcast && (dst_len != netif->l2addr_len || memcmp(b + 1, netif->l2addr, dst_len) != 0)) {
        return -EADDRNOTAVAIL;
    }
    memcpy(nh->dst, b + 1, dst_len);
    nh->dst_len = (uint8_t)dst_len;
    memcpy(nh->src, b + 1 + dst_len, src_len);
    nh->src_len = (uint8_t)src_len;
    nh->flags = bcast ? TERN_NETIF_HDR_FLAG_BROADCAST : 0u;
    tern_pkt_t *hdr = tern_pktbuf_mark(pb, frame, hdr_len, TERN_NETTYPE_UNDEF);
    if (hdr == NULL) {
        return -ENOMEM;
    }
    frame = tern_pktbuf_remove_snip(pb, frame, hdr);
    frame->type = TERN_NETTYPE_SIXLOWPAN;
    *pkt = frame;
    *type = TERN_NETTYPE_SIXLOWPAN;
    *demux = TERN_NETREG_DEMUX_CTX_ALL;
    return 0;
}

static int tlink_send(tern_netif_t *netif, tern_pkt_t **pkt)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    const tern_netif_hdr_t *nh = (*pkt)->data;
    node_t *n = (netif == &nodes[0].netif) ? &nodes[0] : &nodes[1];
    const tern_pkt_t *report = tern_pkt_search_type(*pkt, TERN_NETTYPE_NETERR);
    if (n->nreport < LOG_LEN) {
        n->frame_head[n->nreport] = *pkt;
        n->frame_next[n->nreport] = (*pkt)->next;
        n->report[n->nreport] = report;
        n->report_users[n->nreport++] = (report != NULL) ? report->users : 0u;
    }
    bool bcast = (nh->flags & (TERN_NETIF_HDR_FLAG_BROADCAST | TERN_NETIF_HDR_FLAG_MULTICAST)) != 0 ||
                 nh->dst_len == 0;
    size_t dst_len = bcast ? 2u : nh->dst_len;
    if (!bcast && dst_len != 8) {
        return -EINVAL;
    }
    tern_pkt_t *hdr = tern_pktbuf_add(pb, NULL, NULL, 1u + dst_len + 8u, TERN_NETTYPE_UNDEF);
    if (hdr == NULL) {
        return -ENOMEM;
    }
    uint8_t *b = hdr->data;
    b[0] = (uint8_t)((dst_len << 4) | 8u);
    memcpy(b + 1, bcast ? BROADCAST : nh->dst, dst_len);
    memcpy(b + 1 + dst_len, netif->l2addr, 8);
    *pkt = tern_pktbuf_replace_snip(pb, *pkt, *pkt, hdr);
    return 0;
}

/* As IEEE 802.15.4 (127 - FCS - frame control, sequence, PAN ID - addresses),
 * with the link header above standing in for the addresses. */
static int tlink_payload_max(const tern_netif_t *netif, const tern_netif_hdr_t *hdr)
{
    (void)netif;
    bool bcast = (hdr->flags & (TERN_NETIF_HDR_FLAG_BROADCAST | TERN_NETIF_HDR_FLAG_MULTICAST)) != 0 ||
                 hdr->dst_len == 0;
    return (int)(127u - 2u - 5u - (bcast ? 2u : 8u) - 8u);
}

static const tern_netif_link_t tlink = {
    .name = "tlink",
    .recv = tlink_recv,
    .send = tlink_send,
    .payload_max = tlink_payload_max,
};

static node_t *node_of(tern_netdev_test_t *dev)
{
    return (dev == &nodes[0].dev) ? &nodes[0] : &nodes[1];
}

/** Put a whole link frame in @p n's receive queue and raise its interrupt. */
static void deliver_frame(node_t *n, const uint8_t *frame, size_t len)
{
    assert_true(len <= FRAME_MAX);
    if (n->rxq_count == RXQ_LEN) {
        return; /* a full radio buffer loses the frame */
    }
    unsigned slot = (n->rxq_head + n->rxq_count) % RXQ_LEN;
    memcpy(n->rxq[slot], frame, len);
    n->rxq_len[slot] = len;
    n->rxq_count++;
    tern_netdev_test_interrupt(&n->dev);
}

/** Hand @p n a frame from its peer carrying @p payload (tlink header added). */
static void inject(node_t *n, const uint8_t *payload, size_t len, bool bcast)
{
    uint8_t frame[FRAME_MAX];
    size_t dst_len = bcast ? 2u : 8u;
    frame[0] = (uint8_t)((dst_len << 4) | 8u);
    memcpy(frame + 1, bcast ? BROADCAST : n->eui, dst_len);
    memcpy(frame + 1 + dst_len, n->peer->eui, 8);
    assert_true(1u + dst_len + 8u + len <= FRAME_MAX);
    memcpy(frame + 1 + dst_len + 8, payload, len);
    deliver_frame(n, frame, 1u + dst_len + 8u + len);
}

static int dev_send(tern_netdev_test_t *dev, const tern_iolist_t *iol, size_t count)
{
    node_t *n = node_of(dev);
    if (n->refuse_frame != 0u && --n->refuse_frame == 0u) {
        return -EIO;
    }
    uint8_t frame[FRAME_MAX];
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        assert_true(len + iol[i].len <= FRAME_MAX); /* every frame fits an 802.15.4 frame */
        memcpy(frame + len, iol[i].base, iol[i].len);
        len += iol[i].len;
    }
    size_t hdr_len = 1u + (frame[0] >> 4) + (frame[0] & 0x0fu);
    assert_true(len > hdr_len);
    if (n->nlog < LOG_LEN) {
        memcpy(n->log[n->nlog], frame + hdr_len, len - hdr_len);
        n->log_len[n->nlog++] = len - hdr_len;
    }
    if (n->on_send != NULL) {
        n->on_send(n, frame + hdr_len, len - hdr_len);
    }
    if (n->hold) {
        if (n->nheld < LOG_LEN) {
            memcpy(n->held[n->nheld], frame, len);
            n->held_len[n->nheld++] = len;
        }
    } else if (n->loss_percent == 0 || rng() % 100u >= n->loss_percent) {
        deliver_frame(n->peer, frame, len);
    }
    return (int)len;
}

static void dev_isr(tern_netdev_test_t *dev)
{
    node_t *n = node_of(dev);
    while (n->rxq_count > 0) {
        unsigned before = n->rxq_count;
        tern_netdev_report(&dev->netdev, TERN_NETDEV_EVENT_RX_COMPLETE);
        assert_true(n->rxq_count < before);
    }
}

static int dev_recv(tern_netdev_test_t *dev, void *buf, size_t len, tern_netdev_rx_info_t *info)
{
    node_t *n = node_of(dev);
    if (n->rxq_count == 0) {
        return 0;
    }
    size_t have = n->rxq_len[n->rxq_head];
    if (buf == NULL && len == 0) {
        return (int)have;
    }
    int res = (int)have;
    if (buf != NULL) {
        if (len < have) {
            res = -ENOBUFS;
        } else {
            memcpy(buf, n->rxq[n->rxq_head], have);
            if (info != NULL) {
                info->lqi = 0xff;
                info->rssi = -60;
            }
        }
    }
    n->rxq_head = (n->rxq_head + 1u) % RXQ_LEN;
    n->rxq_count--;
    return res;
}

/* ------------------------------------------------------------ IPv6 sniffer on node 1 */

typedef struct {
    tern_module_t module;
    tern_msg_t queue[8];
    tern_netreg_entry_t entry;
    uint8_t last[1500];
    size_t last_len;
    unsigned count;
} sniffer_t;

static sniffer_t sniffer;

static int sniffer_handle(tern_module_t *self, tern_msg_t *msg)
{
    sniffer_t *s = self->context;
    if (msg->type == TERN_MSG_RCV) {
        tern_pkt_t *pkt = msg->content.pkt;
        /* The shape the Ethernet link hands up: [IPV6 (the datagram), NETIF]. */
        assert_int_equal(pkt->type, TERN_NETTYPE_IPV6);
        assert_non_null(pkt->next);
        assert_int_equal(pkt->next->type, TERN_NETTYPE_NETIF);
        assert_null(pkt->next->next);
        assert_true(pkt->size <= sizeof(s->last));
        memcpy(s->last, pkt->data, pkt->size);
        s->last_len = pkt->size;
        s->count++;
        tern_pktbuf_release(&self->stack->pktbuf, pkt);
    }
    return 0;
}

static void sniffer_add(node_t *n)
{
    memset(&sniffer, 0, sizeof(sniffer));
    assert_int_equal(tern_module_init(&sniffer.module, "sniff", 7, sniffer_handle, &sniffer, sniffer.queue, 8), 0);
    assert_int_equal(tern_stack_add_module(&n->stack, &sniffer.module), 0);
    tern_netreg_entry_init(&sniffer.entry, TERN_NETREG_DEMUX_CTX_ALL, &sniffer.module);
    assert_int_equal(tern_netreg_register(&n->stack.netreg, TERN_NETTYPE_IPV6, &sniffer.entry), 0);
}

/* ------------------------------------------------------------ sockets */

static uint8_t got[1500];
static size_t got_len;
static unsigned got_count;
static bool echo;
/* the lossy test: what was sent per sequence number, and what arrived */
#define LOSSY_MAX 256u
static uint16_t lossy_len[LOSSY_MAX];
static unsigned lossy_ok, lossy_bad;

static void fill_pattern(uint8_t *buf, size_t len, unsigned seed)
{
    for (size_t i = 0; i < len; i++) {
        buf[i] = (uint8_t)(i * 31u + seed * 7u + (i >> 8));
    }
    if (len >= 2) {
        buf[0] = (uint8_t)(seed >> 8);
        buf[1] = (uint8_t)seed;
    }
}

static void sock0_cb(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                     void *arg)
{
    (void)sock;
    (void)remote;
    (void)arg;
    assert_true(len <= sizeof(got));
    memcpy(got, data, len);
    got_len = len;
    got_count++;
}

static void sock1_cb(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                     void *arg)
{
    (void)arg;
    if (echo) {
        assert_int_equal(tern_sock_udp_send(sock, data, len, remote), (int)len);
        return;
    }
    /* lossy test: byte-exact or counted as bad */
    uint8_t want[1500];
    unsigned seq = (len >= 2) ? ((unsigned)data[0] << 8 | data[1]) : LOSSY_MAX;
    if (seq < LOSSY_MAX && lossy_len[seq] == len) {
        fill_pattern(want, len, seq);
        if (memcmp(want, data, len) == 0) {
            lossy_ok++;
            return;
        }
    }
    lossy_bad++;
}

/* ------------------------------------------------------------ fixture */

static void send_udp(node_t *from, const uint8_t *data, size_t len);

static void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

static tern_ipv6_addr_t link_local(const node_t *n)
{
    tern_ipv6_addr_t a = { { 0xfe, 0x80 } };
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, n->eui, 8), 0);
    return a;
}

static void node_setup(node_t *n, node_t *peer, uint8_t last)
{
    memset(n, 0, sizeof(*n));
    n->peer = peer;
    static const uint8_t eui_base[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x00 };
    memcpy(n->eui, eui_base, 8);
    n->eui[7] = last;
    assert_int_equal(tern_stack_init(&n->stack, last == 1 ? "n0" : "n1", &loop.base), 0);
    assert_int_equal(tern_ipv6_init(&n->ip, &n->stack), 0);
    assert_int_equal(tern_udp_init(&n->udp, &n->stack, &n->ip), 0);
    assert_int_equal(tern_sixlowpan_init(&n->lowpan, &n->stack), 0);
    tern_netdev_test_init(&n->dev);
    memcpy(n->dev.addr, n->eui, 8);
    n->dev.addr_len = 8;
    n->dev.mtu = FRAME_MAX;
    n->dev.send_cb = dev_send;
    n->dev.recv_cb = dev_recv;
    n->dev.isr_cb = dev_isr;
    assert_int_equal(tern_netif_add(&n->stack, &n->netif, "wpan0", &n->dev.netdev, &tlink, TERN_NETTYPE_SIXLOWPAN),
                     0);
    assert_int_equal(tern_sixlowpan_netif_attach(&n->lowpan, &n->netif), 0);
    assert_int_equal(n->netif.mtu, 1280); /* RFC 4944 §4 */
    assert_ptr_equal(n->netif.adaptation, &n->lowpan.module);
    assert_int_equal(tern_ipv6_netif_enable(&n->ip, &n->netif), 0);
}

static void forget_log(void)
{
    for (unsigned i = 0; i < 2; i++) {
        nodes[i].nlog = 0;
        nodes[i].nreport = 0;
    }
}

static int setup(void **state)
{
    (void)state;
    rng_state = 0x12345678u;
    tern_vclock_init(&clock_v, 0);
    tern_loop_init(&loop, &clock_v.base);
    node_setup(&nodes[0], &nodes[1], 1);
    node_setup(&nodes[1], &nodes[0], 2);
    tern_sock_udp_ep_t l0 = { .port = PORT0 }, l1 = { .port = PORT1 };
    assert_int_equal(tern_sock_udp_create(&nodes[0].sock, &nodes[0].stack, NULL, &nodes[0].udp, &l0, NULL, 0), 0);
    assert_int_equal(tern_sock_udp_create(&nodes[1].sock, &nodes[1].stack, NULL, &nodes[1].udp, &l1, NULL, 0), 0);
    assert_int_equal(tern_sock_udp_set_cb(&nodes[0].sock, sock0_cb, NULL), 0);
    assert_int_equal(tern_sock_udp_set_cb(&nodes[1].sock, sock1_cb, NULL), 0);
    got_len = 0;
    got_count = 0;
    echo = true;
    /* DAD, router solicitations and MLD reports of both nodes are over by then. */
    run_for(15 * SEC);
    /* Each node resolves the other (RFC 4861 §7.2), so that no test meets a
     * neighbor solicitation in its frames. */
    uint8_t hello[4] = { 1, 2, 3, 4 };
    send_udp(&nodes[0], hello, sizeof(hello));
    run_for(100 * MS);
    assert_int_equal(got_count, 1);
    got_count = 0;
    got_len = 0;
    forget_log();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 2; i++) {
        nodes[i].hold = false;
        nodes[i].loss_percent = 0;
        nodes[i].on_send = NULL;
        tern_sock_udp_close(&nodes[i].sock);
    }
    /* Past every reassembly timeout: nothing may stay in either pktbuf. */
    run_for((uint64_t)TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS * MS + 5 * SEC);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    tern_executor_stop(&loop.base);
    for (unsigned i = 0; i < 2; i++) {
        assert_int_equal(tern_sixlowpan_reass_count(&nodes[i].lowpan.reass), 0);
        for (size_t k = 0; k < TERN_CONF_NC_SIZE; k++) {
            tern_nc_entry_t *e = &nodes[i].ip.ifs[0].nc.entries[k];
            for (size_t q = 0; q < e->queued; q++) {
                tern_pktbuf_release(&nodes[i].stack.pktbuf, e->queue[q]);
            }
            e->queued = 0;
        }
        harness_assert_pktbuf_clean(&nodes[i].stack.pktbuf);
    }
    return 0;
}

static uint32_t lowpan_counter(const node_t *n, tern_sixlowpan_stat_t c)
{
    return n->lowpan.counters[c];
}

static uint32_t reass_counter(const node_t *n, tern_sixlowpan_reass_stat_t c)
{
    return n->lowpan.reass.counters[c];
}

static void send_udp(node_t *from, const uint8_t *data, size_t len)
{
    node_t *to = from->peer;
    tern_sock_udp_ep_t remote = { .addr = link_local(to), .netif = to->netif.index,
                                  .port = (from == &nodes[0]) ? PORT1 : PORT0 };
    assert_int_equal(tern_sock_udp_send(&from->sock, data, len, &remote), (int)len);
}

/* ------------------------------------------------------------ UDP round trips */

/* Every UDP payload size 0..1232 (1280-byte IPv6 datagrams at the top), node 0
 * to node 1 and echoed back, byte-exact: one frame up to about 90 bytes, then
 * FRAG1 + FRAGNs (up to 13 fragments each way). */
static void test_udp_round_trip__every_size(void **state)
{
    (void)state;
    static uint8_t data[1232];
    uint32_t frag_before = lowpan_counter(&nodes[0], TERN_SIXLOWPAN_TX_FRAGMENTED);
    for (size_t len = 0; len <= sizeof(data); len++) {
        fill_pattern(data, len, (unsigned)len);
        got_count = 0;
        send_udp(&nodes[0], data, len);
        run_for(50 * MS);
        assert_int_equal(got_count, 1);
        assert_int_equal(got_len, len);
        assert_memory_equal(got, data, len);
    }
    print_message("round trips: node 0 sent %u frames, %u datagrams in fragments\n",
                  (unsigned)lowpan_counter(&nodes[0], TERN_SIXLOWPAN_TX_FRAMES),
                  (unsigned)lowpan_counter(&nodes[0], TERN_SIXLOWPAN_TX_FRAGMENTED));
    /* Both directions fragmented the large ones, and nothing was dropped. */
    assert_true(lowpan_counter(&nodes[0], TERN_SIXLOWPAN_TX_FRAGMENTED) - frag_before > 1000u);
    assert_true(lowpan_counter(&nodes[1], TERN_SIXLOWPAN_TX_FRAGMENTED) > 1000u);
    for (unsigned i = 0; i < 2; i++) {
        for (unsigned c = TERN_SIXLOWPAN_RX_NOT_ATTACHED; c <= TERN_SIXLOWPAN_RX_NOMEM; c++) {
            assert_int_equal(lowpan_counter(&nodes[i], (tern_sixlowpan_stat_t)c), 0);
        }
        for (unsigned c = TERN_SIXLOWPAN_TX_INVALID; c < TERN_SIXLOWPAN_STAT_NUMOF; c++) {
            assert_int_equal(lowpan_counter(&nodes[i], (tern_sixlowpan_stat_t)c), 0);
        }
        assert_int_equal(nodes[i].lowpan.reass.counters[TERN_SIXLOWPAN_REASS_COMPLETE],
                         lowpan_counter(&nodes[i ^ 1u], TERN_SIXLOWPAN_TX_FRAGMENTED));
    }
}

/* ------------------------------------------------------------ golden bytes */

/* The datagram node 0 sends in the golden tests: fe80::12:4b00:0:1 ->
 * fe80::12:4b00:0:2, hop limit 64, UDP 0xF0B1 -> 0xF0B2, @p len bytes. */
static size_t golden_datagram(uint8_t *out, const uint8_t *payload, size_t len, uint16_t checksum,
                              const char *src, const char *dst)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)(8u + len), .next_header = 17, .hop_limit = 64 };
    assert_int_equal(tern_ipv6_addr_from_str(&h.src, src, strlen(src)), 0);
    assert_int_equal(tern_ipv6_addr_from_str(&h.dst, dst, strlen(dst)), 0);
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    const uint8_t udp[8] = { 0xF0, 0xB1, 0xF0, 0xB2, (uint8_t)((8u + len) >> 8), (uint8_t)(8u + len),
                             (uint8_t)(checksum >> 8), (uint8_t)checksum };
    memcpy(out + 40, udp, 8);
    memcpy(out + 48, payload, len);
    return 48u + len;
}

/** Send @p datagram out of node 0 as IPv6 does: [NETIF (unicast to node 1), IPV6]. */
static void send_datagram(const uint8_t *datagram, size_t len)
{
    node_t *n = &nodes[0];
    tern_pkt_t *ip = tern_pktbuf_add(&n->stack.pktbuf, NULL, datagram, len, TERN_NETTYPE_IPV6);
    assert_non_null(ip);
    tern_pkt_t *pkt = tern_netif_hdr_build(&n->stack.pktbuf, ip, n->eui, 8, nodes[1].eui, 8);
    assert_non_null(pkt);
    ((tern_netif_hdr_t *)pkt->data)->if_index = n->netif.index;
    assert_int_equal(tern_netif_send(&n->stack, pkt), 0);
}

/*
 * One compressed frame, derived from RFC 6282:
 *   7E  011 TF=11 (ECN, DSCP, flow label elided) NH=1 (LOWPAN_NHC) HLIM=10 (64)  §3.1.1
 *   33  CID=0 SAC=0 SAM=11 (source IID from the link source EUI-64, U/L flipped)
 *       M=0 DAC=0 DAM=11 (destination IID from the link destination)            §3.1.1, RFC 4944 §6
 *   F3  LOWPAN_NHC UDP 11110 C=0 (checksum in-line) P=11 (both ports 0xF0Bx)   §4.3.3
 *   12  source port 0xF0B1 -> 1, destination port 0xF0B2 -> 2
 *   A4 74  the UDP checksum (computed over the uncompressed datagram)
 *   74 65 72 6E  "tern"; the UDP Length and IPv6 Payload Length are elided   §4.3.3, §3.1.1
 */
static void test_golden__compressed_frame(void **state)
{
    (void)state;
    sniffer_add(&nodes[1]);
    uint8_t datagram[64];
    size_t len = golden_datagram(datagram, (const uint8_t *)"tern", 4, 0xA474, "fe80::12:4b00:0:1",
                                 "fe80::12:4b00:0:2");
    static const uint8_t golden[] = { 0x7E, 0x33, 0xF3, 0x12, 0xA4, 0x74, 0x74, 0x65, 0x72, 0x6E };
    send_datagram(datagram, len);
    run_for(10 * MS);
    assert_true(nodes[0].nlog >= 1);
    assert_int_equal(nodes[0].log_len[0], sizeof(golden));
    assert_memory_equal(nodes[0].log[0], golden, sizeof(golden));
    /* Node 1 decompresses it back to the very datagram. */
    assert_int_equal(sniffer.count, 1);
    assert_int_equal(sniffer.last_len, len);
    assert_memory_equal(sniffer.last, datagram, len);

    /* The same frame handed to node 1 directly also decompresses to it. */
    inject(&nodes[1], golden, sizeof(golden), false);
    run_for(10 * MS);
    assert_int_equal(sniffer.count, 2);
    assert_memory_equal(sniffer.last, datagram, len);
}

/* The golden frame whatever the snips the datagram comes in: the IPv6
 * header alone and the UDP header with the payload (the layout the socket
 * gives, headers copied for the compressor as two fixed-size pieces), and
 * layouts whose headers are cut elsewhere (copied snip by snip). */
static void test_golden__compressed_frame_from_any_snip_layout(void **state)
{
    (void)state;
    node_t *n = &nodes[0];
    tern_pktbuf_t *pb = &n->stack.pktbuf;
    uint8_t datagram[64];
    size_t len = golden_datagram(datagram, (const uint8_t *)"tern", 4, 0xA474, "fe80::12:4b00:0:1",
                                 "fe80::12:4b00:0:2");
    static const uint8_t golden[] = { 0x7E, 0x33, 0xF3, 0x12, 0xA4, 0x74, 0x74, 0x65, 0x72, 0x6E };
    /* Snip boundaries (0-terminated) of each layout. */
    static const size_t layouts[][4] = { { 40, 48, 0 }, { 40, 0 }, { 40, 44, 0 }, { 20, 0 }, { 24, 40, 48, 0 } };
    for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++) {
        size_t cuts[5] = { 0 };
        size_t ncuts = 0;
        for (size_t c = 0; layouts[k][c] != 0; c++) {
            cuts[ncuts++] = layouts[k][c];
        }
        cuts[ncuts] = len;
        tern_pkt_t *pkt = NULL;
        for (size_t c = ncuts + 1u; c-- > 0;) {
            size_t from = (c == 0) ? 0u : cuts[c - 1u];
            pkt = tern_pktbuf_add(pb, pkt, datagram + from, cuts[c] - from,
                                  (c == 0) ? TERN_NETTYPE_IPV6 : TERN_NETTYPE_UNDEF);
            assert_non_null(pkt);
        }
        pkt = tern_netif_hdr_build(pb, pkt, n->eui, 8, nodes[1].eui, 8);
        assert_non_null(pkt);
        ((tern_netif_hdr_t *)pkt->data)->if_index = n->netif.index;
        unsigned before = n->nlog;
        assert_int_equal(tern_netif_send(&n->stack, pkt), 0);
        run_for(10 * MS);
        assert_int_equal(n->nlog, before + 1u);
        assert_int_equal(n->log_len[before], sizeof(golden));
        assert_memory_equal(n->log[before], golden, sizeof(golden));
    }
}

/* A frame's interface header snip comes with its payload, from one pktbuf
 * allocation (tern_pktbuf_add_pair_to_fill(): the payload's descriptor right after
 * the header's bytes); the datagram's own header snip is not written, so a
 * holder sees it as it was. The frame is the golden one either way. */
static void test_send__one_frame__header_snip_allocated_with_the_payload(void **state)
{
    (void)state;
    node_t *n = &nodes[0];
    tern_pktbuf_t *pb = &n->stack.pktbuf;
    uint8_t datagram[64];
    size_t len = golden_datagram(datagram, (const uint8_t *)"tern", 4, 0xA474, "fe80::12:4b00:0:1",
                                 "fe80::12:4b00:0:2");
    static const uint8_t golden[] = { 0x7E, 0x33, 0xF3, 0x12, 0xA4, 0x74, 0x74, 0x65, 0x72, 0x6E };
    tern_pkt_t *pkts[2];
    for (unsigned k = 0; k < 2; k++) {
        tern_pkt_t *ip = tern_pktbuf_add(pb, NULL, datagram, len, TERN_NETTYPE_IPV6);
        assert_non_null(ip);
        pkts[k] = tern_netif_hdr_build(pb, ip, n->eui, 8, nodes[1].eui, 8);
        assert_non_null(pkts[k]);
        ((tern_netif_hdr_t *)pkts[k]->data)->if_index = n->netif.index;
    }
    assert_int_equal(tern_pktbuf_hold(pb, pkts[1], 1), 0); /* the second one shared */
    for (unsigned k = 0; k < 2; k++) {
        assert_int_equal(tern_netif_send(&n->stack, pkts[k]), 0);
        run_for(10 * MS);
    }
    assert_int_equal(n->nreport, 2);
    assert_int_equal(n->nlog, 2);
    for (unsigned k = 0; k < 2; k++) {
        assert_int_equal(n->log_len[k], sizeof(golden));
        assert_memory_equal(n->log[k], golden, sizeof(golden));
    }
    for (unsigned k = 0; k < 2; k++) {
        assert_ptr_not_equal(n->frame_head[k], pkts[k]);
        size_t unit = TERN_PKTBUF_ALIGN;
        size_t desc = (sizeof(tern_pkt_t) + unit - 1u) / unit * unit;
        size_t hdr = (sizeof(tern_netif_hdr_t) + unit - 1u) / unit * unit;
        assert_ptr_equal((const void *)n->frame_next[k], (const uint8_t *)n->frame_head[k] + desc + hdr);
    }
    /* The holder's packet is as it was. */
    assert_int_equal(pkts[1]->users, 1);
    assert_int_equal(pkts[1]->type, TERN_NETTYPE_NETIF);
    const tern_netif_hdr_t *nh = pkts[1]->data;
    assert_int_equal(nh->if_index, n->netif.index);
    assert_int_equal(nh->dst_len, 8);
    assert_memory_equal(nh->dst, nodes[1].eui, 8);
    assert_int_equal(nh->src_len, 8);
    assert_non_null(pkts[1]->next);
    assert_int_equal(pkts[1]->next->type, TERN_NETTYPE_IPV6);
    assert_memory_equal(pkts[1]->next->data, datagram, len);
    tern_pktbuf_release(pb, pkts[1]);
}

/*
 * One FRAG1/FRAGN pair, derived from RFC 4944 §5.3 and RFC 6282 §2: the same
 * UDP datagram with 100 payload bytes 00 01 .. 63 (148 bytes uncompressed,
 * 106 compressed: more than the 104-byte link payload).
 *   FRAG1: C0 94 TT TT   11000, datagram_size 148 (0x094), datagram_tag
 *          7E 33 F3 12 EE BA   the compressed IPv6 + UDP headers (48 bytes uncompressed)
 *          00 .. 57     88 payload bytes: the fragment ends at 48 + 88 = 136 of the
 *                        uncompressed datagram, the largest multiple of 8 that fits
 *                        4 + 6 + n <= 104
 *   FRAGN: E0 94 TT TT 11   11100, size 148, the same tag, datagram_offset 136 / 8 = 17
 *          58 .. 63     the last 12 bytes
 */
static void test_golden__frag1_fragn(void **state)
{
    (void)state;
    sniffer_add(&nodes[1]);
    uint8_t payload[100];
    for (unsigned i = 0; i < sizeof(payload); i++) {
        payload[i] = (uint8_t)i;
    }
    uint8_t datagram[160];
    size_t len = golden_datagram(datagram, payload, sizeof(payload), 0xEEBA, "fe80::12:4b00:0:1",
                                 "fe80::12:4b00:0:2");
    assert_int_equal(len, 148);
    uint16_t tag = nodes[0].lowpan.ifs[0].next_tag;
    uint8_t frag1[98] = { 0xC0, 0x94, (uint8_t)(tag >> 8), (uint8_t)tag, 0x7E, 0x33, 0xF3, 0x12, 0xEE, 0xBA };
    for (unsigned i = 0; i < 88; i++) {
        frag1[10 + i] = (uint8_t)i;
    }
    uint8_t fragn[17] = { 0xE0, 0x94, (uint8_t)(tag >> 8), (uint8_t)tag, 0x11 };
    for (unsigned i = 0; i < 12; i++) {
        fragn[5 + i] = (uint8_t)(88u + i);
    }
    send_datagram(datagram, len);
    run_for(10 * MS);
    assert_true(nodes[0].nlog >= 2);
    assert_int_equal(nodes[0].log_len[0], sizeof(frag1));
    assert_memory_equal(nodes[0].log[0], frag1, sizeof(frag1));
    assert_int_equal(nodes[0].log_len[1], sizeof(fragn));
    assert_memory_equal(nodes[0].log[1], fragn, sizeof(fragn));
    assert_int_equal(sniffer.count, 1);
    assert_int_equal(sniffer.last_len, len);
    assert_memory_equal(sniffer.last, datagram, len);

    /* The pair handed to node 1 the other way round reassembles too. */
    inject(&nodes[1], fragn, sizeof(fragn), false);
    inject(&nodes[1], frag1, sizeof(frag1), false);
    run_for(10 * MS);
    assert_int_equal(sniffer.count, 2);
    assert_memory_equal(sniffer.last, datagram, len);
}

/* IPHC against a context (RFC 6282 §3.1.1 SAC=1/DAC=1), valid for compression
 * on node 0 and decompression on node 1; without it node 1 drops (§3.1.1). */
static void test_context__compress_and_decompress(void **state)
{
    (void)state;
    sniffer_add(&nodes[1]);
    tern_ipv6_addr_t prefix;
    assert_int_equal(tern_ipv6_addr_from_str(&prefix, "2001:db8::", 10), 0);
    for (unsigned i = 0; i < 2; i++) {
        assert_int_equal(tern_sixlowpan_context_set(&nodes[i].lowpan, nodes[i].netif.index, 0, &prefix, 64,
                                                    true, 60), 0);
    }
    assert_int_equal(tern_sixlowpan_context_set(&nodes[0].lowpan, 9, 0, &prefix, 64, true, 60), -ENODEV);
    assert_int_equal(tern_sixlowpan_context_set(&nodes[0].lowpan, 1, 16, &prefix, 64, true, 60), -EINVAL);
    uint8_t datagram[64];
    size_t len = golden_datagram(datagram, (const uint8_t *)"tern", 4, 0x4604, "2001:db8::12:4b00:0:1",
                                 "2001:db8::12:4b00:0:2");
    /* 7E, then CID=0 SAC=1 SAM=11 M=0 DAC=1 DAM=11: both addresses elided. */
    static const uint8_t golden[] = { 0x7E, 0x77, 0xF3, 0x12, 0x46, 0x04, 0x74, 0x65, 0x72, 0x6E };
    send_datagram(datagram, len);
    run_for(10 * MS);
    assert_int_equal(nodes[0].log_len[0], sizeof(golden));
    assert_memory_equal(nodes[0].log[0], golden, sizeof(golden));
    assert_int_equal(sniffer.count, 1);
    assert_memory_equal(sniffer.last, datagram, len);

    /* Removed on node 1 (lifetime 0): the frame names an unknown context. */
    assert_int_equal(tern_sixlowpan_context_set(&nodes[1].lowpan, nodes[1].netif.index, 0, NULL, 0, false, 0), 0);
    inject(&nodes[1], golden, sizeof(golden), false);
    run_for(10 * MS);
    assert_int_equal(sniffer.count, 1);
    assert_int_equal(lowpan_counter(&nodes[1], TERN_SIXLOWPAN_RX_IPHC_CONTEXT), 1);

    /* Not for compression any more (C flag clear) on node 0: addresses go in-line. */
    assert_int_equal(tern_sixlowpan_context_set(&nodes[0].lowpan, nodes[0].netif.index, 0, &prefix, 64, false, 60),
                     0);
    forget_log();
    send_datagram(datagram, len);
    run_for(10 * MS);
    assert_int_equal(nodes[0].log[0][1], 0x00); /* SAM=00 DAM=00: 128 bits each */
    assert_int_equal(nodes[0].log_len[0], sizeof(golden) + 32u);

    /* The lifetime ends: node 0 forgets the context too. */
    assert_int_equal(tern_sixlowpan_context_set(&nodes[0].lowpan, nodes[0].netif.index, 0, &prefix, 64, true, 2),
                     0);
    run_for(3 * SEC);
    forget_log();
    send_datagram(datagram, len);
    run_for(10 * MS);
    assert_int_equal(nodes[0].log[0][1], 0x00);
}

/* ------------------------------------------------------------ reassembly through the module */

/* Node 0's frames for one datagram of @p len UDP bytes, held back (not delivered). */
static unsigned hold_datagram(size_t len, unsigned seed)
{
    static uint8_t data[1232];
    fill_pattern(data, len, seed);
    nodes[0].hold = true;
    nodes[0].nheld = 0;
    send_udp(&nodes[0], data, len);
    run_for(20 * MS);
    nodes[0].hold = false;
    return nodes[0].nheld;
}

/* Fragments in a shuffled order with duplicates: one datagram, byte-exact. */
static void test_reassembly__shuffled_and_duplicated(void **state)
{
    (void)state;
    echo = false;
    lossy_ok = lossy_bad = 0;
    for (unsigned round = 0; round < 20; round++) {
        size_t len = 300u + round * 45u;
        lossy_len[round] = (uint16_t)len;
        unsigned n = hold_datagram(len, round);
        assert_true(n >= 4);
        unsigned order[2 * LOG_LEN];
        unsigned count = 0;
        for (unsigned i = 0; i < n; i++) {
            order[count++] = i;
            if (rng() % 3u == 0) {
                order[count++] = i; /* a duplicate */
            }
        }
        for (unsigned i = count - 1; i > 0; i--) {
            unsigned j = rng() % (i + 1u);
            unsigned t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (unsigned i = 0; i < count; i++) {
            deliver_frame(&nodes[1], nodes[0].held[order[i]], nodes[0].held_len[order[i]]);
            run_for(1 * MS);
        }
        assert_int_equal(lossy_ok, round + 1u);
    }
    assert_int_equal(lossy_bad, 0);
    assert_true(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_DUPLICATE) > 0);
    assert_int_equal(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_OVERLAP), 0);
}

/* A FRAGN from the peer: @p size, @p tag, offset in octets, @p len bytes of @p fill. */
static void inject_fragn(uint16_t size, uint16_t tag, size_t offset, size_t len, uint8_t fill)
{
    uint8_t b[FRAME_MAX];
    tern_sixlowpan_frag_repr_t f = { .first = false, .datagram_size = size, .datagram_tag = tag,
                                     .datagram_offset = (uint8_t)(offset / 8u) };
    assert_int_equal(tern_sixlowpan_frag_emit(&f, b, sizeof(b)), 5);
    memset(b + 5, fill, len);
    inject(&nodes[1], b, 5u + len, false);
}

/* Overlapping fragments of other extents, or another datagram_size under the
 * same tag, discard the datagram (RFC 4944 §5.3); nothing comes out. */
static void test_reassembly__overlap_and_inconsistent_discard(void **state)
{
    (void)state;
    sniffer_add(&nodes[1]);
    inject_fragn(400, 7, 96, 64, 0xAA);
    inject_fragn(400, 7, 128, 64, 0xBB); /* overlaps [128, 160) with another extent */
    run_for(10 * MS);
    assert_int_equal(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_OVERLAP), 1);
    inject_fragn(408, 7, 256, 64, 0xCC); /* same source, destination, tag: another size */
    run_for(10 * MS);
    assert_int_equal(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_SIZE_MISMATCH), 1);
    inject_fragn(408, 7, 256, 64, 0xCC); /* a duplicate: ignored */
    run_for(10 * MS);
    assert_int_equal(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_DUPLICATE), 1);
    inject_fragn(408, 7, 400, 16, 0xDD); /* beyond datagram_size: cannot be a fragment */
    run_for(10 * MS);
    assert_int_equal(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_OVERLAP) +
                         reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_INVALID),
                     2);
    assert_int_equal(sniffer.count, 0);

    /* A real datagram whose FRAG1 overlaps a forged FRAGN under its tag is
     * discarded, and a later clean copy of it still gets through. */
    echo = false;
    lossy_ok = lossy_bad = 0;
    lossy_len[3] = 500;
    unsigned n = hold_datagram(500, 3);
    tern_sixlowpan_frag_repr_t f;
    assert_true(n >= 4);
    assert_int_equal(tern_sixlowpan_frag_parse(&f, nodes[0].held[0] + 17, nodes[0].held_len[0] - 17), 4);
    for (unsigned i = 0; i < n; i++) {
        deliver_frame(&nodes[1], nodes[0].held[i], nodes[0].held_len[i]);
        run_for(1 * MS);
        if (i == 1) {
            inject_fragn(f.datagram_size, f.datagram_tag, 8, 16, 0xEE); /* inside the FRAG1's extent */
            run_for(1 * MS);
        }
    }
    assert_int_equal(lossy_ok + lossy_bad, 0);
    assert_int_equal(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_OVERLAP), 2);
    /* Again: the FRAG1 now overlaps the forged piece kept from the first pass
     * (a third discard), and starts the datagram afresh. */
    for (unsigned i = 0; i < n; i++) {
        deliver_frame(&nodes[1], nodes[0].held[i], nodes[0].held_len[i]);
        run_for(1 * MS);
    }
    assert_int_equal(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_OVERLAP), 3);
    assert_int_equal(lossy_ok, 1);
    assert_int_equal(lossy_bad, 0);
}

/* An incomplete datagram is freed at the reassembly timeout (RFC 4944 §5.3). */
static void test_reassembly__timeout_frees(void **state)
{
    (void)state;
    unsigned n = hold_datagram(700, 1);
    assert_true(n > 2);
    size_t used_before = tern_pktbuf_stats(&nodes[1].stack.pktbuf).used;
    for (unsigned i = 0; i + 1 < n; i++) { /* all but the last */
        deliver_frame(&nodes[1], nodes[0].held[i], nodes[0].held_len[i]);
    }
    run_for(10 * MS);
    assert_int_equal(tern_sixlowpan_reass_count(&nodes[1].lowpan.reass), 1);
    assert_true(tern_pktbuf_stats(&nodes[1].stack.pktbuf).used >= used_before + 748u);
    run_for((uint64_t)TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS * MS - 1 * SEC);
    assert_int_equal(tern_sixlowpan_reass_count(&nodes[1].lowpan.reass), 1);
    run_for(2 * SEC);
    assert_int_equal(tern_sixlowpan_reass_count(&nodes[1].lowpan.reass), 0);
    assert_int_equal(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_TIMEOUT), 1);
    assert_int_equal(got_count, 0);
    assert_true(tern_pktbuf_stats(&nodes[1].stack.pktbuf).used <= used_before);
}

/* The reassembly timer runs from a datagram's first fragment (RFC 4944 §5.3):
 * later fragments leave it where it is, and once it fired it is armed again
 * for the next datagram. */
static void test_reassembly__timer_from_the_first_fragment(void **state)
{
    (void)state;
    const uint64_t timeout = (uint64_t)TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS * MS;
    for (unsigned round = 1; round <= 2; round++) {
        unsigned n = hold_datagram(700, round);
        assert_true(n > 3);
        deliver_frame(&nodes[1], nodes[0].held[0], nodes[0].held_len[0]);
        run_for(1 * MS);
        const tern_timer_t *timer = &nodes[1].lowpan.reass_timer;
        assert_true(tern_timer_is_armed(timer));
        uint64_t deadline = timer->deadline_us;
        assert_true(deadline <= clock_v.now + timeout);
        for (unsigned i = 1; i + 1 < n; i++) { /* all but the last, a second apart */
            run_for(1 * SEC);
            deliver_frame(&nodes[1], nodes[0].held[i], nodes[0].held_len[i]);
        }
        run_for(1 * MS);
        assert_true(tern_timer_is_armed(timer));
        assert_true(timer->deadline_us == deadline);
        assert_int_equal(tern_sixlowpan_reass_count(&nodes[1].lowpan.reass), 1);
        run_for(deadline - clock_v.now + 1 * MS);
        assert_int_equal(tern_sixlowpan_reass_count(&nodes[1].lowpan.reass), 0);
        assert_int_equal(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_TIMEOUT), round);
        assert_false(tern_timer_is_armed(timer));
    }
    assert_int_equal(got_count, 0);
}

/* The timer follows the earliest deadline of the table: when the oldest of
 * two datagrams completes it moves to the other one's, and it stops when
 * none is left. */
static void test_reassembly__timer_follows_the_earliest_datagram(void **state)
{
    (void)state;
    static uint8_t first[LOG_LEN][FRAME_MAX];
    static size_t first_len[LOG_LEN];
    unsigned n1 = hold_datagram(700, 1);
    assert_true(n1 > 2);
    memcpy(first, nodes[0].held, sizeof(first));
    memcpy(first_len, nodes[0].held_len, sizeof(first_len));
    unsigned n2 = hold_datagram(700, 2);
    assert_true(n2 > 2);
    const tern_timer_t *timer = &nodes[1].lowpan.reass_timer;
    deliver_frame(&nodes[1], first[0], first_len[0]); /* the first datagram starts */
    run_for(1 * MS);
    uint64_t deadline1 = timer->deadline_us;
    run_for(1 * SEC);
    deliver_frame(&nodes[1], nodes[0].held[0], nodes[0].held_len[0]); /* the second, a second later */
    run_for(1 * MS);
    assert_true(tern_timer_is_armed(timer));
    assert_true(timer->deadline_us == deadline1);
    for (unsigned i = 1; i < n1; i++) { /* the first completes */
        deliver_frame(&nodes[1], first[i], first_len[i]);
        run_for(1 * MS);
    }
    assert_int_equal(got_count, 1);
    assert_true(tern_timer_is_armed(timer));
    assert_true(timer->deadline_us > deadline1);
    for (unsigned i = 1; i < n2; i++) { /* the second completes */
        deliver_frame(&nodes[1], nodes[0].held[i], nodes[0].held_len[i]);
        run_for(1 * MS);
    }
    assert_int_equal(got_count, 2);
    assert_false(tern_timer_is_armed(timer));
    assert_int_equal(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_COMPLETE), 2);
}

/* ------------------------------------------------------------ dispatch */

/* Every dispatch the module does not take is dropped and counted by reason. */
static void test_receive__unknown_dispatch_counted(void **state)
{
    (void)state;
    sniffer_add(&nodes[1]);
    static const struct {
        uint8_t bytes[8];
        size_t len;
        tern_sixlowpan_stat_t counter;
    } cases[] = {
        { { 0x40, 0x01, 0x02 }, 3, TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH },       /* ESC (RFC 8066) */
        { { 0x42, 0x00, 0x00 }, 3, TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH },       /* HC1 */
        { { 0x43, 0x00 }, 2, TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH },             /* reserved */
        { { 0x5F, 0x00 }, 2, TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH },             /* reserved */
        { { 0xE8, 0x00, 0x00, 0x00 }, 4, TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH }, /* RFRAG */
        { { 0xF1, 0x60, 0x00 }, 3, TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH },       /* page 1 */
        { { 0x50, 0x07, 0x43 }, 3, TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH },       /* BC0, then reserved */
        { { 0x00, 0x60 }, 2, TERN_SIXLOWPAN_RX_NALP },                          /* not a LoWPAN frame */
        { { 0xC0, 0x94 }, 2, TERN_SIXLOWPAN_RX_MALFORMED },                     /* truncated FRAG1 */
        { { 0x50, 0x50, 0x41 }, 3, TERN_SIXLOWPAN_RX_MALFORMED },              /* BC0 twice */
        { { 0x41 }, 1, TERN_SIXLOWPAN_RX_MALFORMED },                           /* 0x41, no IPv6 header */
        { { 0xBE, 0x00, 0x01, 0x00, 0x02, 0x41 }, 6, TERN_SIXLOWPAN_RX_MESH },  /* mesh header */
        { { 0x7E, 0x33, 0xF3 }, 3, TERN_SIXLOWPAN_RX_IPHC_TRUNCATED },
        { { 0x7E, 0x73, 0xF3, 0x12, 0, 0 }, 6, TERN_SIXLOWPAN_RX_IPHC_CONTEXT }, /* SAC=1 SAM=11, no context 0 */
        { { 0x7E, 0x04, 0xFF }, 3, TERN_SIXLOWPAN_RX_IPHC_INVALID },            /* M=0 DAC=1 DAM=00 */
        { { 0x7E, 0x33, 0xF7, 0x12, 0x00 }, 5, TERN_SIXLOWPAN_RX_IPHC_UNSUPPORTED }, /* C=1 */
    };
    uint32_t datagrams_before = lowpan_counter(&nodes[1], TERN_SIXLOWPAN_RX_DATAGRAMS);
    uint32_t frames_before = lowpan_counter(&nodes[1], TERN_SIXLOWPAN_RX_FRAMES);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint32_t before = lowpan_counter(&nodes[1], cases[i].counter);
        inject(&nodes[1], cases[i].bytes, cases[i].len, false);
        run_for(1 * MS);
        if (lowpan_counter(&nodes[1], cases[i].counter) != before + 1u) {
            fail_msg("case %zu (first byte 0x%02x) not counted", i, cases[i].bytes[0]);
        }
    }
    assert_int_equal(sniffer.count, 0);
    assert_int_equal(lowpan_counter(&nodes[1], TERN_SIXLOWPAN_RX_DATAGRAMS), datagrams_before);
    assert_int_equal(lowpan_counter(&nodes[1], TERN_SIXLOWPAN_RX_FRAMES) - frames_before,
                     sizeof(cases) / sizeof(cases[0]));
}

/* An uncompressed IPv6 datagram (0x41) is handed up as it is. */
static void test_receive__uncompressed_ipv6(void **state)
{
    (void)state;
    sniffer_add(&nodes[1]);
    uint8_t frame[1 + 64];
    frame[0] = 0x41;
    size_t len = golden_datagram(frame + 1, (const uint8_t *)"tern", 4, 0xA474, "fe80::12:4b00:0:1",
                                 "fe80::12:4b00:0:2");
    inject(&nodes[1], frame, 1u + len, false);
    run_for(1 * MS);
    assert_int_equal(sniffer.count, 1);
    assert_int_equal(sniffer.last_len, len);
    assert_memory_equal(sniffer.last, frame + 1, len);
}

/* Hand node 1's 6LoWPAN module @p payload as a frame [payload, @p rest]. */
static void receive_shaped(const uint8_t *payload, size_t len, tern_pkt_t *rest)
{
    tern_pkt_t *pkt = tern_pktbuf_add(&nodes[1].stack.pktbuf, rest, payload, len, TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(pkt);
    assert_int_equal(tern_netapi_receive(&nodes[1].lowpan.module, pkt), 0);
    run_for(1 * MS);
}

/* A link hands a frame up as [payload, NETIF]; a frame with another snip
 * before its interface header still finds it (here: a reserved dispatch,
 * counted once the interface is known), one without is refused. */
static void test_receive__interface_header_after_another_snip(void **state)
{
    (void)state;
    tern_pktbuf_t *pb = &nodes[1].stack.pktbuf;
    static const uint8_t reserved[] = { 0x43, 0x00 };
    tern_pkt_t *nh_snip = tern_netif_hdr_build(pb, NULL, nodes[0].eui, 8, nodes[1].eui, 8);
    assert_non_null(nh_snip);
    ((tern_netif_hdr_t *)nh_snip->data)->if_index = nodes[1].netif.index;
    tern_pkt_t *other = tern_pktbuf_add(pb, nh_snip, NULL, 4, TERN_NETTYPE_UNDEF);
    assert_non_null(other);
    uint32_t unknown = lowpan_counter(&nodes[1], TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH);
    receive_shaped(reserved, sizeof(reserved), other);
    assert_int_equal(lowpan_counter(&nodes[1], TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH), unknown + 1u);

    uint32_t invalid = lowpan_counter(&nodes[1], TERN_SIXLOWPAN_RX_INVALID);
    other = tern_pktbuf_add(pb, NULL, NULL, 4, TERN_NETTYPE_UNDEF);
    assert_non_null(other);
    receive_shaped(reserved, sizeof(reserved), other);
    receive_shaped(reserved, sizeof(reserved), NULL);
    assert_int_equal(lowpan_counter(&nodes[1], TERN_SIXLOWPAN_RX_INVALID), invalid + 2u);
    assert_int_equal(lowpan_counter(&nodes[1], TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH), unknown + 1u);
}

/* ------------------------------------------------------------ one fragment per turn */

static unsigned turn_injected;
static unsigned turn_seen[LOG_LEN];

/* Whenever node 0 sends a frame, a frame from node 1 arrives at node 0 (a
 * reserved dispatch, 0x43: counted as rx_unknown_dispatch when handled).
 * turn_seen[k] is how many of them node 0 had handled when frame k left. */
static void on_send_inject(node_t *n, const uint8_t *payload, size_t len)
{
    (void)payload;
    (void)len;
    unsigned k = n->nlog - 1u;
    turn_seen[k] = lowpan_counter(n, TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH);
    static const uint8_t reserved[] = { 0x43, 0x00 };
    /* A frame arrives at the sender while it sends its fragments. */
    uint8_t frame[1 + 8 + 8 + 2];
    frame[0] = 0x88;
    memcpy(frame + 1, n->eui, 8);
    memcpy(frame + 9, n->peer->eui, 8);
    memcpy(frame + 17, reserved, 2);
    deliver_frame(n, frame, sizeof(frame));
    turn_injected++;
}

/* Fragments go one per turn of the module: a frame that arrives while a
 * datagram is being fragmented is handled before the datagram's last
 * fragment leaves (thesis 5.3.4), not after all of them. */
static void test_send__one_fragment_per_turn(void **state)
{
    (void)state;
    static uint8_t data[1000];
    fill_pattern(data, sizeof(data), 9);
    echo = false;
    lossy_ok = lossy_bad = 0;
    lossy_len[9] = sizeof(data);
    nodes[0].on_send = on_send_inject;
    turn_injected = 0;
    send_udp(&nodes[0], data, sizeof(data));
    run_for(50 * MS);
    nodes[0].on_send = NULL;
    unsigned n = nodes[0].nlog;
    assert_true(n >= 10); /* 1048 bytes: FRAG1 + 10 FRAGNs */
    assert_int_equal(lossy_ok, 1);
    /* The frame injected while fragment k went out was handled before fragment
     * k + 2: received frames are served between fragments. */
    for (unsigned k = 2; k < n; k++) {
        assert_true(turn_seen[k] >= k - 1u);
    }
    assert_int_equal(turn_seen[0], 0);
    assert_int_equal(lowpan_counter(&nodes[0], TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH), turn_injected);
}

static uint64_t turn_step[LOG_LEN];

static void on_send_note_step(node_t *n, const uint8_t *payload, size_t len)
{
    (void)payload;
    (void)len;
    turn_step[n->nlog - 1u] = loop.steps;
}

/* With nothing else queued (the frames are kept, so none arrives at the peer
 * and posts its interrupt), the next fragment goes as soon as the outcome of
 * the one before is in, on the same turn: the "next fragment" message would
 * have been the loop's next step. Still one frame at a time, each after the
 * last one's outcome. With hand-offs off every message is queued: one turn
 * per fragment. */
static void test_send__fragments_go_on_at_once_when_nothing_waits(void **state)
{
    (void)state;
    static uint8_t data[1000];
    fill_pattern(data, sizeof(data), 2);
    nodes[0].hold = true;
    nodes[0].on_send = on_send_note_step;
    send_udp(&nodes[0], data, sizeof(data));
    run_for(50 * MS);
    nodes[0].on_send = NULL;
    unsigned n = nodes[0].nlog;
    assert_int_equal(n, 11); /* 1048 bytes: FRAG1 + 10 FRAGNs */
    assert_int_equal(nodes[0].nheld, n);
    for (unsigned k = 1; k < n; k++) {
#if TERN_CONF_LOOP_HANDOFF_DEPTH > 0
        assert_true(turn_step[k] == turn_step[0]);
#else
        assert_true(turn_step[k] > turn_step[k - 1u]);
#endif
    }
    assert_int_equal(nodes[0].lowpan.frag_kick_pending, false);
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_FRAG_SLOTS; i++) {
        assert_null(nodes[0].lowpan.frags[i].pkt);
    }
    /* Delivered, the held frames make the datagram. */
    lossy_ok = lossy_bad = 0;
    lossy_len[2] = sizeof(data);
    echo = false;
    for (unsigned k = 0; k < nodes[0].nheld; k++) {
        deliver_frame(&nodes[1], nodes[0].held[k], nodes[0].held_len[k]);
    }
    run_for(10 * MS);
    assert_int_equal(lossy_ok, 1);
}

/* The fragments of one datagram carry one NETERR snip, the slot's, each
 * frame one more reference to it (no report snip allocated per fragment;
 * the FRAG1 takes the references of all frames at once, so frame k of n
 * meets the slot's, its own and those of the n - 1 - k still to go); every
 * fragment's outcome still reaches the slot, and the slot's references go
 * with the datagram (teardown: the pktbuf is empty). */
static void test_send__fragments_share_the_slot_report_snip(void **state)
{
    (void)state;
    static uint8_t data[500];
    fill_pattern(data, sizeof(data), 3);
    echo = false;
    lossy_ok = lossy_bad = 0;
    lossy_len[3] = sizeof(data);
    uint32_t frames_before = lowpan_counter(&nodes[0], TERN_SIXLOWPAN_TX_FRAMES);
    send_udp(&nodes[0], data, sizeof(data));
    run_for(50 * MS);
    assert_int_equal(lossy_ok, 1);
    unsigned n = nodes[0].nreport;
    assert_int_equal(n, lowpan_counter(&nodes[0], TERN_SIXLOWPAN_TX_FRAMES) - frames_before);
    assert_true(n >= 5); /* 548 bytes: FRAG1 + 5 FRAGNs */
    for (unsigned k = 0; k < n; k++) {
        assert_non_null(nodes[0].report[k]);
        assert_ptr_equal(nodes[0].report[k], nodes[0].report[0]);
        assert_int_equal(nodes[0].report_users[k], n + 1u - k);
    }
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_FRAG_SLOTS; i++) {
        assert_null(nodes[0].lowpan.frags[i].pkt);
        assert_null(nodes[0].lowpan.frags[i].report);
        assert_int_equal(nodes[0].lowpan.frags[i].report_refs, 0);
    }
    /* A datagram in one frame carries no report of 6LoWPAN's. */
    forget_log();
    lossy_len[4] = 8;
    fill_pattern(data, 8, 4);
    send_udp(&nodes[0], data, 8);
    run_for(50 * MS);
    assert_int_equal(lossy_ok, 2);
    assert_int_equal(lossy_bad, 0);
    assert_int_equal(nodes[0].nreport, 1);
    assert_null(nodes[0].report[0]);
    assert_int_equal(tern_pktbuf_stats(&nodes[0].stack.pktbuf).used, 0);
}

/* A fragment the device refuses ends its datagram (RFC 4944 §5.3 has no
 * retransmission): counted, the sender's report gets the error, and the
 * references the FRAG1 took for the fragments never sent go with the slot. */
static void test_send__fragment_refused__datagram_aborted_references_released(void **state)
{
    (void)state;
    static uint8_t data[500];
    fill_pattern(data, sizeof(data), 5);
    echo = false;
    lossy_ok = lossy_bad = 0;
    lossy_len[5] = sizeof(data);
    nodes[0].refuse_frame = 3; /* FRAG1, FRAGN, then this one: 3 of 6 frames unsent */
    send_udp(&nodes[0], data, sizeof(data));
    run_for(50 * MS);
    assert_int_equal(nodes[0].refuse_frame, 0);
    assert_int_equal(nodes[0].nlog, 2);
    assert_int_equal(lowpan_counter(&nodes[0], TERN_SIXLOWPAN_TX_FRAG_ABORTED), 1);
    assert_int_equal(lossy_ok, 0);
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_FRAG_SLOTS; i++) {
        assert_null(nodes[0].lowpan.frags[i].pkt);
        assert_int_equal(nodes[0].lowpan.frags[i].report_refs, 0);
    }
    assert_int_equal(tern_pktbuf_stats(&nodes[0].stack.pktbuf).used, 0);
    /* The next datagram goes whole. */
    send_udp(&nodes[0], data, sizeof(data));
    run_for(50 * MS);
    assert_int_equal(lossy_ok, 1);
    assert_int_equal(lowpan_counter(&nodes[0], TERN_SIXLOWPAN_TX_FRAG_ABORTED), 1);
}

/* ------------------------------------------------------------ send edge cases */
/* ------------------------------------------------------------ send edge cases */

/* Multicast IPv6 destinations go to the link broadcast (0xffff); the
 * fragments of a broadcast datagram use its larger payload. */
static void test_send__multicast_to_broadcast(void **state)
{
    (void)state;
    sniffer_add(&nodes[1]);
    uint8_t datagram[400];
    uint8_t payload[300];
    memset(payload, 0x5a, sizeof(payload));
    size_t len = golden_datagram(datagram, payload, sizeof(payload), 0x1234, "fe80::12:4b00:0:1", "ff02::1");
    node_t *n = &nodes[0];
    tern_pkt_t *ip = tern_pktbuf_add(&n->stack.pktbuf, NULL, datagram, len, TERN_NETTYPE_IPV6);
    assert_non_null(ip);
    tern_pkt_t *pkt = tern_netif_hdr_build(&n->stack.pktbuf, ip, n->eui, 8, NULL, 0);
    assert_non_null(pkt);
    tern_netif_hdr_t *nh = pkt->data;
    nh->if_index = n->netif.index;
    nh->flags = TERN_NETIF_HDR_FLAG_MULTICAST;
    assert_int_equal(tern_netif_send(&n->stack, pkt), 0);
    run_for(10 * MS);
    /* 348 bytes: FRAG1 (7 compressed bytes for 48, then 96) + FRAGNs of
     * floor8(110 - 5) = 104 bytes: 104 + 100. */
    assert_int_equal(nodes[0].nlog, 3);
    assert_int_equal(nodes[0].log_len[0], 4u + 7u + 96u);
    assert_int_equal(nodes[0].log_len[1], 5u + 104u);
    assert_int_equal(sniffer.count, 1);
    assert_memory_equal(sniffer.last, datagram, len);
}

/* Headers that compress to more than a frame holds, in a datagram short
 * enough that the one compressor run goes into the scratch (frag.c: the run
 * stops at -ENOBUFS there): uncompressed in the FRAG1 (0x41), delivered whole. */
static void test_send__headers_compressed_longer_than_a_frame_go_uncompressed(void **state)
{
    (void)state;
    sniffer_add(&nodes[1]);
    node_t *n = &nodes[0];
    /* IPv6 + a Destination Options header of 200 bytes (one unknown option
     * to skip), UDP, 20 bytes: 268 bytes, 116 left in the scratch. */
    uint8_t datagram[268];
    memset(datagram, 0, sizeof(datagram));
    tern_ipv6_repr_t h = { .payload_len = 200u + 8u + 20u, .next_header = 60, .hop_limit = 64 };
    assert_int_equal(tern_ipv6_addr_from_str(&h.src, "fe80::12:4b00:0:1", 17), 0);
    assert_int_equal(tern_ipv6_addr_from_str(&h.dst, "fe80::12:4b00:0:2", 17), 0);
    assert_int_equal(tern_ipv6_emit(&h, datagram, 40), 40);
    datagram[40] = 17; /* next header UDP */
    datagram[41] = 24; /* (24 + 1) * 8 = 200 bytes */
    datagram[42] = 0x1E;
    datagram[43] = 196;
    memset(datagram + 44, 0x33, 196);
    datagram[240] = 0xF0; /* UDP 0xF0B1 -> 0xF0B2, length 28, checksum left 0 */
    datagram[241] = 0xB1;
    datagram[242] = 0xF0;
    datagram[243] = 0xB2;
    datagram[245] = 28;
    memset(datagram + 248, 0x77, 20);
    send_datagram(datagram, sizeof(datagram));
    run_for(10 * MS);
    assert_int_equal(lowpan_counter(n, TERN_SIXLOWPAN_TX_UNCOMPRESSED), 1);
    assert_int_equal(n->log[0][4], 0x41); /* after the FRAG1 header */
    assert_int_equal(sniffer.count, 1);
    assert_int_equal(sniffer.last_len, sizeof(datagram));
    assert_memory_equal(sniffer.last, datagram, sizeof(datagram));
}

/* A datagram longer than the scratch whose first header is an extension
 * header (a Hop-by-Hop header as RPL's): the headers the compressor may take
 * fill the scratch but for a frame's payload, so they are compressed once,
 * into the scratch (frag.c), Hop-by-Hop and UDP by NHC, and the datagram
 * arrives whole. */
static void test_send__long_datagram_with_extension_header_compressed(void **state)
{
    (void)state;
    sniffer_add(&nodes[1]);
    node_t *n = &nodes[0];
    enum { PAYLOAD = 900 };
    static uint8_t datagram[40 + 8 + 8 + PAYLOAD];
    memset(datagram, 0, sizeof(datagram));
    tern_ipv6_repr_t h = { .payload_len = 8u + 8u + PAYLOAD, .next_header = 0, .hop_limit = 64 };
    assert_int_equal(tern_ipv6_addr_from_str(&h.src, "fe80::12:4b00:0:1", 17), 0);
    assert_int_equal(tern_ipv6_addr_from_str(&h.dst, "fe80::12:4b00:0:2", 17), 0);
    assert_int_equal(tern_ipv6_emit(&h, datagram, 40), 40);
    datagram[40] = 17; /* next header UDP, 8 bytes: an unknown option to skip (4 bytes of data) */
    datagram[42] = 0x1E;
    datagram[43] = 4;
    memset(datagram + 44, 0x33, 4);
    datagram[48] = 0xF0; /* UDP 0xF0B1 -> 0xF0B2, checksum left 0 */
    datagram[49] = 0xB1;
    datagram[50] = 0xF0;
    datagram[51] = 0xB2;
    datagram[52] = (uint8_t)((8u + PAYLOAD) >> 8);
    datagram[53] = (uint8_t)(8u + PAYLOAD);
    memset(datagram + 56, 0x77, PAYLOAD);
    assert_true(sizeof(datagram) > sizeof(n->lowpan.scratch));
    send_datagram(datagram, sizeof(datagram));
    run_for(50 * MS);
    assert_int_equal(lowpan_counter(n, TERN_SIXLOWPAN_TX_UNCOMPRESSED), 0);
    assert_int_equal(n->log[0][4] & 0xE0u, 0x60u); /* IPHC after the FRAG1 header */
    assert_true(n->log[0][4] & 0x04u);           /* NH = 1: the next header (Hop-by-Hop) by NHC */
    assert_int_equal(sniffer.count, 1);
    assert_int_equal(sniffer.last_len, sizeof(datagram));
    assert_memory_equal(sniffer.last, datagram, sizeof(datagram));
}

/* A datagram whose compressed headers do not fit in the first fragment goes
 * uncompressed (0x41 in the FRAG1), and a datagram above 2047 bytes, one
 * that is not IPv6, and one too many in fragmentation are dropped, counted. */
static void test_send__fallbacks_and_drops(void **state)
{
    (void)state;
    sniffer_add(&nodes[1]);
    node_t *n = &nodes[0];
    /* IPv6 + a Destination Options header of 96 bytes (PadN), then UDP:
     * compressed the option header alone takes 2 + 94 bytes, which with the
     * alignment of the uncompressed offset leaves no room in the FRAG1. */
    uint8_t datagram[600];
    memset(datagram, 0, sizeof(datagram));
    tern_ipv6_repr_t h = { .payload_len = 96u + 8u + 300u, .next_header = 60, .hop_limit = 64 };
    assert_int_equal(tern_ipv6_addr_from_str(&h.src, "fe80::12:4b00:0:1", 17), 0);
    assert_int_equal(tern_ipv6_addr_from_str(&h.dst, "fe80::12:4b00:0:2", 17), 0);
    assert_int_equal(tern_ipv6_emit(&h, datagram, 40), 40);
    datagram[40] = 17;                 /* next header UDP */
    datagram[41] = 11;                 /* (11 + 1) * 8 = 96 bytes */
    datagram[42] = 0x1E;               /* an unknown option to skip, 92 bytes of data */
    datagram[43] = 92;
    memset(datagram + 44, 0x33, 92);
    datagram[136] = 0xF0;              /* UDP 0xF0B1 -> 0xF0B2, length 308, checksum left 0 */
    datagram[137] = 0xB1;
    datagram[138] = 0xF0;
    datagram[139] = 0xB2;
    datagram[140] = 308 >> 8;
    datagram[141] = 308 & 0xff;
    memset(datagram + 144, 0x77, 300);
    size_t len = 40u + 96u + 8u + 300u;
    send_datagram(datagram, len);
    run_for(10 * MS);
    assert_int_equal(lowpan_counter(n, TERN_SIXLOWPAN_TX_UNCOMPRESSED), 1);
    assert_int_equal(n->log[0][4], 0x41); /* after the FRAG1 header */
    assert_int_equal(sniffer.count, 1);
    assert_int_equal(sniffer.last_len, len);
    assert_memory_equal(sniffer.last, datagram, len);

    /* Above 2047 bytes: datagram_size has 11 bits. */
    static uint8_t big[2100];
    memcpy(big, datagram, 40);
    big[4] = (uint8_t)((2100 - 40) >> 8);
    big[5] = (uint8_t)(2100 - 40);
    send_datagram(big, sizeof(big));
    run_for(10 * MS);
    assert_int_equal(lowpan_counter(n, TERN_SIXLOWPAN_TX_TOO_BIG), 1);

    /* Not IPv6 (version 4). */
    uint8_t v4[48] = { 0x45 };
    send_datagram(v4, sizeof(v4));
    run_for(10 * MS);
    assert_int_equal(lowpan_counter(n, TERN_SIXLOWPAN_TX_INVALID), 1);

    /* More large datagrams at once than there are fragmentation slots: the
     * next TERN_CONF_SIXLOWPAN_FRAG_WAIT wait for a slot and all of those
     * arrive, in order; one more is dropped (tx_busy). */
    const unsigned burst = TERN_CONF_SIXLOWPAN_FRAG_SLOTS + TERN_CONF_SIXLOWPAN_FRAG_WAIT + 1u;
    for (unsigned i = 0; i < burst; i++) {
        send_datagram(datagram, len);
    }
    run_for(200 * MS);
    assert_int_equal(lowpan_counter(n, TERN_SIXLOWPAN_TX_WAITED), TERN_CONF_SIXLOWPAN_FRAG_WAIT);
    assert_int_equal(lowpan_counter(n, TERN_SIXLOWPAN_TX_BUSY), 1);
    assert_int_equal(sniffer.count, 1u + burst - 1u);
    assert_int_equal(n->lowpan.frag_wait_count, 0);
}

/* ------------------------------------------------------------ loss */

/* 30 % of the frames lost both ways, many datagrams at once: whatever arrives
 * whole is byte-exact, every incomplete datagram is freed (teardown asserts
 * both pktbufs empty after the timeout). */
static void test_lossy__many_concurrent_datagrams(void **state)
{
    (void)state;
    echo = false;
    lossy_ok = lossy_bad = 0;
    static uint8_t data[1232];
    /* Let the neighbours know each other before the loss starts. */
    lossy_len[0] = 10;
    fill_pattern(data, 10, 0);
    send_udp(&nodes[0], data, 10);
    run_for(50 * MS);
    assert_int_equal(lossy_ok, 1);
    nodes[0].loss_percent = 30;
    nodes[1].loss_percent = 30;
    for (unsigned seq = 1; seq < LOSSY_MAX; seq++) {
        size_t len = 2u + rng() % 1230u;
        lossy_len[seq] = (uint16_t)len;
        fill_pattern(data, len, seq);
        tern_sock_udp_ep_t remote = { .addr = link_local(&nodes[1]), .netif = 1, .port = PORT1 };
        int res = tern_sock_udp_send(&nodes[0].sock, data, len, &remote);
        assert_true(res == (int)len || res == -ENOMEM || res == -ENOBUFS);
        if (seq % 3u == 0) {
            run_for((rng() % 50u) * MS);
        }
        if (seq % 64u == 0) {
            /* Some datagrams from several senders at once: node 1 sends too. */
            remote.addr = link_local(&nodes[0]);
            remote.port = PORT0;
            res = tern_sock_udp_send(&nodes[1].sock, data, len, &remote);
            assert_true(res == (int)len || res == -ENOMEM || res == -ENOBUFS);
        }
    }
    run_for(2 * SEC);
    print_message("lossy: %u of %u datagrams whole; node 1 reassembly: %u complete, %u evicted, %u in progress\n",
                  lossy_ok, LOSSY_MAX, (unsigned)reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_COMPLETE),
                  (unsigned)reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_EVICTED),
                  (unsigned)tern_sixlowpan_reass_count(&nodes[1].lowpan.reass));
    assert_int_equal(lossy_bad, 0);
    assert_true(lossy_ok > 2u); /* short ones get through in one frame */
    assert_true(lossy_ok < LOSSY_MAX);
    assert_true(reass_counter(&nodes[1], TERN_SIXLOWPAN_REASS_COMPLETE) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_golden__compressed_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_golden__compressed_frame_from_any_snip_layout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_golden__frag1_fragn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_send__one_frame__header_snip_allocated_with_the_payload, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_context__compress_and_decompress, setup, teardown),
        cmocka_unit_test_setup_teardown(test_receive__unknown_dispatch_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_receive__uncompressed_ipv6, setup, teardown),
        cmocka_unit_test_setup_teardown(test_receive__interface_header_after_another_snip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_send__headers_compressed_longer_than_a_frame_go_uncompressed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_send__long_datagram_with_extension_header_compressed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_reassembly__shuffled_and_duplicated, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reassembly__overlap_and_inconsistent_discard, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reassembly__timeout_frees, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reassembly__timer_from_the_first_fragment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reassembly__timer_follows_the_earliest_datagram, setup, teardown),
        cmocka_unit_test_setup_teardown(test_send__one_fragment_per_turn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_send__fragments_go_on_at_once_when_nothing_waits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_send__fragments_share_the_slot_report_snip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_send__fragment_refused__datagram_aborted_references_released, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_send__multicast_to_broadcast, setup, teardown),
        cmocka_unit_test_setup_teardown(test_send__fallbacks_and_drops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_udp_round_trip__every_size, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lossy__many_concurrent_datagrams, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
