/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Neighbor Discovery for 6LoWPAN (RFC 6775, RFC 8505) in the IPv6
 *        module: three nodes under virtual time, a router and two hosts.
 *
 * The nodes' test devices answer TERN_NETOPT_DEVICE_TYPE with IEEE 802.15.4
 * (contract item 5) and have 8-byte EUI-64 addresses; they carry
 * uncompressed IPv6 behind a small test link header (destination length and
 * address, source address), so that link unicast and broadcast are visible
 * without the 802.15.4 MAC or 6LoWPAN. The medium copies every frame to the
 * other nodes' receive rings; frames a node sends are also logged for
 * golden-field checks. Frames from nodes that do not exist (bogus senders,
 * more registrants) are injected with inject().
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/shell.h"
#include "tern/sixlowpan/context.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ndp.h"
#include "tern/wire/ndp_6lo.h"

#define MS 1000ull
#define SEC 1000000ull
#define MIN (60ull * SEC)

/* ------------------------------------------------------------ the test link */

/** Test link header: destination length (0: broadcast), destination (8), source (8). */
#define LINK_HDR 17u
#define FRAME_MAX 1400u
#define RING 16u
#define LOG 96u
#define NODES 3u

/** One sent frame as logged. */
typedef struct {
    uint8_t l2dst[8];
    uint8_t l2dst_len;
    uint8_t ip[FRAME_MAX]; /**< the IPv6 packet */
    size_t len;
    uint64_t at;
} logged_t;

typedef struct {
    tern_stack_t stack;
    tern_ipv6_t ip;
    tern_netdev_test_t dev;
    tern_netif_t netif;
    uint8_t ring[RING][FRAME_MAX];
    size_t ring_len[RING];
    unsigned head, count, ring_full;
    logged_t log[LOG];
    unsigned nlog;
    tern_module_t adapt;     /**< stands in for the 6LoWPAN module (netif.adaptation) */
    tern_msg_t adapt_queue[8];
    unsigned hook_calls;     /**< TERN_NETOPT_SIXLOWPAN_CONTEXT SETs the adaptation module got */
    uint8_t hook_cid;
    uint8_t hook_len;
    bool hook_compress;
    uint32_t hook_lifetime;
    tern_ipv6_addr_t hook_prefix;
} node_t;

static tern_vclock_t clock_v;
static tern_loop_t loop;
static node_t nodes[NODES];
static unsigned nnodes;
/** The router's link broadcasts reach nobody (its periodic RAs stop refreshing the hosts). */
static bool router_broadcast_muted;
#define R (&nodes[0])
#define H1 (&nodes[1])
#define H2 (&nodes[2])

static const uint8_t EUI[NODES][8] = {
    { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x01 },
    { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x02 },
    { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x03 },
};
/* Link-local and SLAAC addresses: the EUI-64 with the U/L bit inverted (RFC 4944 §6). */
static const char *const LL[NODES] = { "fe80::12:4b00:0:1", "fe80::12:4b00:0:2", "fe80::12:4b00:0:3" };
static const char *const GLOBAL[NODES] = { "2001:db8::1", "2001:db8::12:4b00:0:2", "2001:db8::12:4b00:0:3" };
/** A node that does not exist, for injected frames. */
static const uint8_t FAKE_EUI[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x99 };
static const char *const FAKE_LL = "fe80::12:4b00:0:99";

static tern_ipv6_addr_t A(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

static void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

static int link_recv(tern_netif_t *netif, tern_pkt_t **pkt, tern_nettype_t *type, uint32_t *demux)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    tern_pkt_t *frame = *pkt;
    const uint8_t *b = frame->data;
    if (frame->size <= LINK_HDR || (b[0] != 0 && b[0] != 8)) {
        return -EBADMSG;
    }
    if (b[0] == 8 && memcmp(&b[1], netif->l2addr, 8) != 0) {
        return -EADDRNOTAVAIL;
    }
    tern_netif_hdr_t *nh = tern_netif_hdr_get(frame);
    assert_non_null(nh);
    nh->dst_len = b[0];
    memcpy(nh->dst, &b[1], b[0]);
    nh->src_len = 8;
    memcpy(nh->src, &b[9], 8);
    nh->flags |= (b[0] == 0) ? TERN_NETIF_HDR_FLAG_BROADCAST : 0u;
    tern_pkt_t *hdr = tern_pktbuf_mark(pb, frame, LINK_HDR, TERN_NETTYPE_UNDEF);
    if (hdr == NULL) {
        return -ENOMEM;
    }
    frame = tern_pktbuf_remove_snip(pb, frame, hdr);
    frame->type = TERN_NETTYPE_IPV6;
    *pkt = frame;
    *type = TERN_NETTYPE_IPV6;
    *demux = TERN_NETREG_DEMUX_CTX_ALL;
    return 0;
}

static int link_send(tern_netif_t *netif, tern_pkt_t **pkt)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    const tern_netif_hdr_t *nh = tern_netif_hdr_get(*pkt);
    assert_non_null(nh);
    uint8_t h[LINK_HDR] = { 0 };
    bool group = (nh->flags & (TERN_NETIF_HDR_FLAG_BROADCAST | TERN_NETIF_HDR_FLAG_MULTICAST)) != 0;
    /* Contract item 1: only 8-byte unicast destinations here (no short addresses in these tests). */
    if (!group && nh->dst_len != 0) {
        assert_int_equal(nh->dst_len, 8);
        h[0] = 8;
        memcpy(&h[1], nh->dst, 8);
    }
    memcpy(&h[9], netif->l2addr, 8);
    tern_pkt_t *rest = tern_pktbuf_remove_snip(pb, *pkt, *pkt);
    tern_pkt_t *hdr = tern_pktbuf_add(pb, rest, h, sizeof(h), TERN_NETTYPE_UNDEF);
    if (hdr == NULL) {
        *pkt = rest;
        return -ENOMEM;
    }
    *pkt = hdr;
    return 0;
}

static const tern_netif_link_t test_link = { .name = "6lotest", .recv = link_recv, .send = link_send };

/* Put @p len bytes of frame into @p n's receive ring and raise its interrupt. */
static void deliver(node_t *n, const uint8_t *frame, size_t len)
{
    if (n->count == RING) {
        n->ring_full++;
        return;
    }
    unsigned slot = (n->head + n->count) % RING;
    memcpy(n->ring[slot], frame, len);
    n->ring_len[slot] = len;
    n->count++;
    tern_netdev_test_interrupt(&n->dev);
}

static int medium_send(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    node_t *self = d->state;
    uint8_t frame[FRAME_MAX + LINK_HDR];
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        assert_true(len + iol[i].len <= sizeof(frame));
        memcpy(&frame[len], iol[i].base, iol[i].len);
        len += iol[i].len;
    }
    assert_true(len > LINK_HDR);
    if (self->nlog < LOG) {
        logged_t *l = &self->log[self->nlog++];
        l->l2dst_len = frame[0];
        memcpy(l->l2dst, &frame[1], 8);
        l->len = len - LINK_HDR;
        memcpy(l->ip, &frame[LINK_HDR], l->len);
        l->at = clock_v.now;
    }
    if (self == &nodes[0] && frame[0] == 0 && router_broadcast_muted) {
        return (int)len;
    }
    for (unsigned i = 0; i < nnodes; i++) {
        if (&nodes[i] != self) {
            deliver(&nodes[i], frame, len);
        }
    }
    return (int)len;
}

static int medium_recv(tern_netdev_test_t *d, void *buf, size_t len, tern_netdev_rx_info_t *info)
{
    node_t *n = d->state;
    if (n->count == 0) {
        return 0;
    }
    size_t pending = n->ring_len[n->head];
    if (buf == NULL && len == 0) {
        return (int)pending;
    }
    int res = (int)pending;
    if (buf != NULL) {
        if (len < pending) {
            res = -ENOBUFS;
        } else {
            memcpy(buf, n->ring[n->head], pending);
            if (info != NULL) {
                info->rssi = 0;
                info->lqi = 0xFF;
            }
        }
    }
    n->head = (n->head + 1u) % RING;
    n->count--;
    return res;
}

static void medium_isr(tern_netdev_test_t *d)
{
    node_t *n = d->state;
    while (n->count > 0) {
        tern_netdev_report(&d->netdev, TERN_NETDEV_EVENT_RX_COMPLETE);
    }
}

/* The interface's adaptation module (what 6LoWPAN is on a real node): it
 * passes packets on to the interface unchanged and records the contexts
 * the IPv6 module sets on it (docs/6LO-ND.md, "Contexts"). */
static int adapt_handle(tern_module_t *self, tern_msg_t *msg)
{
    node_t *n = self->context;
    if (msg->type == TERN_MSG_SND) {
        return tern_netapi_send(&n->netif.module, msg->content.pkt);
    }
    if (msg->type != TERN_MSG_SET || msg->content.opt->opt != TERN_NETOPT_SIXLOWPAN_CONTEXT) {
        return -ENOTSUP;
    }
    const tern_netapi_opt_t *opt = msg->content.opt;
    assert_int_equal(opt->context, n->netif.index);
    assert_int_equal(opt->data_len, sizeof(tern_sixlowpan_context_config_t));
    const tern_sixlowpan_context_config_t *cfg = opt->data;
    n->hook_calls++;
    n->hook_cid = cfg->cid;
    n->hook_prefix = cfg->prefix;
    n->hook_len = cfg->prefix_len;
    n->hook_compress = cfg->compress;
    n->hook_lifetime = cfg->lifetime_s;
    return (int)opt->data_len;
}

/* ------------------------------------------------------------ fixture */

static void node_init(unsigned i)
{
    node_t *n = &nodes[i];
    static const char *const names[NODES] = { "r", "h1", "h2" };
    memset(n, 0, sizeof(*n));
    assert_int_equal(tern_stack_init(&n->stack, names[i], &loop.base), 0);
    assert_int_equal(tern_ipv6_init(&n->ip, &n->stack), 0);
    tern_netdev_test_init(&n->dev);
    memcpy(n->dev.addr, EUI[i], 8);
    n->dev.addr_len = 8;
    n->dev.device_type = TERN_NETDEV_TYPE_IEEE802154; /* contract item 5: a 6LoWPAN link */
    n->dev.state = n;
    n->dev.send_cb = medium_send;
    n->dev.recv_cb = medium_recv;
    n->dev.isr_cb = medium_isr;
    assert_int_equal(tern_netif_add(&n->stack, &n->netif, "wpan0", &n->dev.netdev, &test_link, TERN_NETTYPE_IPV6),
                     0);
    assert_int_equal(tern_module_init(&n->adapt, "adapt", 3, adapt_handle, n, n->adapt_queue, 8), 0);
    assert_int_equal(tern_stack_add_module(&n->stack, &n->adapt), 0);
    n->netif.adaptation = &n->adapt;
    assert_int_equal(tern_ipv6_netif_enable(&n->ip, &n->netif), 0);
}

static void add_addr(node_t *n, const char *addr, uint8_t len)
{
    tern_ipv6_addr_config_t cfg = { .addr = A(addr), .prefix_len = len };
    assert_int_equal(tern_netapi_set(&n->ip.module, TERN_NETOPT_IPV6_ADDR_ADD, n->netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
}

/* @p count nodes, all hosts so far. */
static void setup_hosts(unsigned count)
{
    tern_vclock_init(&clock_v, 0);
    tern_loop_init(&loop, &clock_v.base);
    nnodes = count;
    router_broadcast_muted = false;
    for (unsigned i = 0; i < count; i++) {
        node_init(i);
    }
    run_for(1);
}

/* Router and @p count - 1 hosts; the router advertises 2001:db8::/64 (contract item 7 order). */
static void setup_nodes(unsigned count)
{
    setup_hosts(count);
    assert_int_equal(tern_ipv6_set_router(&R->ip, true), 0);
    add_addr(R, GLOBAL[0], 64);
    run_for(1);
}

static int setup2(void **state)
{
    (void)state;
    setup_nodes(2);
    return 0;
}

static int setup2_hosts(void **state)
{
    (void)state;
    setup_hosts(2);
    return 0;
}

static int setup3(void **state)
{
    (void)state;
    setup_nodes(3);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    tern_executor_stop(&loop.base);
    for (unsigned i = 0; i < nnodes; i++) {
        assert_int_equal(nodes[i].ring_full, 0);
        for (size_t k = 0; k < TERN_CONF_IPV6_IFS; k++) {
            for (size_t e = 0; e < TERN_CONF_NC_SIZE && nodes[i].ip.ifs[k].netif != NULL; e++) {
                tern_nc_entry_t *en = &nodes[i].ip.ifs[k].nc.entries[e];
                assert_int_equal(en->queued, 0); /* nothing waits for resolution on a 6LoWPAN link */
            }
        }
        harness_assert_pktbuf_clean(&nodes[i].stack.pktbuf);
    }
    return 0;
}

/* ------------------------------------------------------------ helpers */

static uint32_t counter(node_t *n, unsigned c)
{
    return n->ip.counters[c];
}

static tern_ipv6_addr_state_t addr_state(node_t *n, const char *text)
{
    tern_ipv6_addr_list_t list;
    assert_int_equal(tern_netapi_get(&n->ip.module, TERN_NETOPT_IPV6_ADDRS, n->netif.index, &list, sizeof(list)),
                     (int)sizeof(list));
    tern_ipv6_addr_t a = A(text);
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        if (list.addrs[i].used && tern_ipv6_addr_equal(&list.addrs[i].addr, &a)) {
            return (tern_ipv6_addr_state_t)list.addrs[i].state;
        }
    }
    fail_msg("%s is not an address of %s", text, n->stack.name);
    return TERN_IPV6_ADDR_DUPLICATE;
}

static tern_ipv6_6lo_state_t lowpan_state(node_t *n)
{
    tern_ipv6_6lo_state_t s;
    assert_int_equal(tern_netapi_get(&n->ip.module, TERN_NETOPT_IPV6_6LO, n->netif.index, &s, sizeof(s)),
                     (int)sizeof(s));
    return s;
}

/* The router's registration of @p addr, or NULL. */
static const tern_ipv6_6lo_reg_t *reg_of(const tern_ipv6_6lo_state_t *s, const char *addr)
{
    tern_ipv6_addr_t a = A(addr);
    for (size_t i = 0; i < TERN_CONF_IPV6_6LO_REG_TABLE_SIZE; i++) {
        if (s->state.regs[i].used && tern_ipv6_addr_equal(&s->state.regs[i].addr, &a)) {
            return &s->state.regs[i];
        }
    }
    return NULL;
}

static unsigned reg_count(const tern_ipv6_6lo_state_t *s)
{
    unsigned n = 0;
    for (size_t i = 0; i < TERN_CONF_IPV6_6LO_REG_TABLE_SIZE; i++) {
        n += s->state.regs[i].used ? 1u : 0u;
    }
    return n;
}

/* ICMPv6 type of logged frame @p l (header in @p h, checksum checked), 0 if not ICMPv6. */
static uint8_t logged_icmp(const logged_t *l, tern_ipv6_repr_t *h)
{
    assert_int_equal(tern_ipv6_parse(h, l->ip, l->len), 40);
    if (h->next_header != 58) {
        return 0;
    }
    const tern_checksum_span_t span = { .data = l->ip + 40, .len = l->len - 40 };
    assert_true(tern_icmpv6_checksum_verify(&h->src, &h->dst, &span, 1));
    return l->ip[40];
}

/* The @p k-th (from 0) logged frame of @p n with ICMPv6 type @p type, or NULL. */
static const logged_t *find_logged(const node_t *n, uint8_t type, unsigned k)
{
    for (unsigned i = 0; i < n->nlog; i++) {
        tern_ipv6_repr_t h;
        if (logged_icmp(&n->log[i], &h) == type && k-- == 0) {
            return &n->log[i];
        }
    }
    return NULL;
}

/* The EARO of the NS/NA in @p l. */
static tern_ndp_6lo_aro_t earo_of(const logged_t *l)
{
    const uint8_t *opts = l->ip + 40 + 24;
    size_t len = l->len - 40 - 24;
    tern_ndp_opt_t opt;
    assert_int_equal(tern_ndp_opt_find(opts, len, TERN_NDP_OPT_ARO, &opt), 1);
    tern_ndp_6lo_aro_t aro;
    assert_int_equal(tern_ndp_6lo_aro_parse(&aro, &opt), 0);
    return aro;
}

/* Inject an IPv6 packet into @p n as if from FAKE_EUI (unicast to @p n, or broadcast). */
static void inject(node_t *n, const uint8_t *pkt, size_t len, bool broadcast)
{
    uint8_t frame[FRAME_MAX + LINK_HDR] = { 0 };
    frame[0] = broadcast ? 0 : 8;
    memcpy(&frame[1], n->netif.l2addr, 8);
    memcpy(&frame[9], FAKE_EUI, 8);
    memcpy(&frame[LINK_HDR], pkt, len);
    deliver(n, frame, LINK_HDR + len);
    run_for(1);
}

static size_t build_icmp(uint8_t *out, const char *src, const char *dst, uint8_t hop, const uint8_t *msg,
                         size_t msg_len)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)msg_len, .next_header = 58, .hop_limit = hop,
                           .src = A(src), .dst = A(dst) };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    memcpy(out + 40, msg, msg_len);
    assert_int_equal(tern_icmpv6_checksum_fill(out + 40, msg_len, &h.src, &h.dst), 0);
    return 40 + msg_len;
}

/** What build_ns_aro() puts in. */
typedef struct {
    const char *src, *dst, *target;
    uint8_t hop;
    uint8_t rovr_last; /* ROVR: FAKE_EUI with this last octet */
    uint8_t tid;
    uint16_t lifetime;
    bool sllao;
    bool bad_aro_len; /* an option of type ARO with Length 1 */
} ns_spec_t;

static size_t build_ns_aro(uint8_t *out, const ns_spec_t *s)
{
    uint8_t opts[64];
    size_t n = 0;
    if (s->sllao) {
        tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = FAKE_EUI, .addr_len = 8 };
        n += (size_t)tern_ndp_opt_lladdr_emit(&ll, opts + n, sizeof(opts) - n);
    }
    if (s->bad_aro_len) {
        memset(opts + n, 0, 8);
        opts[n] = TERN_NDP_OPT_ARO;
        opts[n + 1] = 1;
        n += 8;
    } else {
        tern_ndp_6lo_aro_t aro = { .extended = true, .tid = s->tid, .lifetime = s->lifetime, .rovr_len = 8 };
        memcpy(aro.rovr, FAKE_EUI, 8);
        aro.rovr[7] = s->rovr_last;
        int r = tern_ndp_6lo_aro_emit(&aro, opts + n, sizeof(opts) - n);
        assert_true(r > 0);
        n += (size_t)r;
    }
    tern_ndp_ns_repr_t ns = { .target = A(s->target), .options = opts, .options_len = n };
    uint8_t msg[128];
    int len = tern_ndp_ns_emit(&ns, msg, sizeof(msg));
    assert_true(len > 0);
    return build_icmp(out, s->src, s->dst, s->hop, msg, (size_t)len);
}

/* The NA (EARO) @p r sent most recently for target @p target, or NULL. */
static const logged_t *last_na_for(const node_t *r, const char *target)
{
    tern_ipv6_addr_t t = A(target);
    const logged_t *found = NULL;
    for (unsigned i = 0; i < r->nlog; i++) {
        tern_ipv6_repr_t h;
        if (logged_icmp(&r->log[i], &h) == TERN_ICMPV6_NEIGHBOR_ADVERT &&
            memcmp(r->log[i].ip + 48, t.u8, 16) == 0) {
            found = &r->log[i];
        }
    }
    return found;
}

/* Let the router advertise and the hosts solicit, form and register their addresses. */
static void settle(void)
{
    run_for(5 * SEC);
    for (unsigned i = 1; i < nnodes; i++) {
        assert_int_equal(addr_state(&nodes[i], GLOBAL[i]), TERN_IPV6_ADDR_PREFERRED);
    }
}

/* Send an echo request from @p n to @p dst through its IPv6 module. */
static void send_echo(node_t *n, const char *dst)
{
    tern_pktbuf_t *pb = &n->stack.pktbuf;
    uint8_t msg[16];
    tern_icmpv6_echo_repr_t e = { .type = TERN_ICMPV6_ECHO_REQUEST, .identifier = 7, .sequence = 1,
                                  .data = (const uint8_t *)"6lo!", .data_len = 4 };
    int len = tern_icmpv6_echo_emit(&e, msg, sizeof(msg));
    assert_true(len > 0);
    tern_pkt_t *payload = tern_pktbuf_add(pb, NULL, msg, (size_t)len, TERN_NETTYPE_ICMPV6);
    assert_non_null(payload);
    tern_ipv6_repr_t h = { .next_header = 58, .hop_limit = 0, .dst = A(dst) };
    tern_pkt_t *hdr = tern_pktbuf_add(pb, payload, NULL, 40, TERN_NETTYPE_IPV6);
    assert_non_null(hdr);
    assert_int_equal(tern_ipv6_emit(&h, hdr->data, hdr->size), 40);
    tern_pkt_t *pkt = tern_netif_hdr_build(pb, hdr, NULL, 0, NULL, 0); /* names the interface */
    assert_non_null(pkt);
    ((tern_netif_hdr_t *)pkt->data)->if_index = n->netif.index;
    assert_int_equal(tern_netapi_send(&n->ip.module, pkt), 0);
    run_for(10 * MS);
}

/* ------------------------------------------------------------ tests */

static void test_tid__lollipop_compare_and_increment(void **state)
{
    (void)state;
    assert_int_equal(tern_ipv6_6lo_tid_compare(241, 240), 1);
    assert_int_equal(tern_ipv6_6lo_tid_compare(240, 241), -1);
    assert_int_equal(tern_ipv6_6lo_tid_compare(7, 7), 0);
    assert_int_equal(tern_ipv6_6lo_tid_compare(0, 255), 1);   /* RFC 6550 §7.2: 256 + 0 - 255 <= 16 */
    assert_int_equal(tern_ipv6_6lo_tid_compare(5, 250), 1);
    assert_int_equal(tern_ipv6_6lo_tid_compare(250, 5), -1);
    assert_int_equal(tern_ipv6_6lo_tid_compare(5, 200), -1);  /* 256 + 5 - 200 > 16: the linear one is newer */
    assert_int_equal(tern_ipv6_6lo_tid_compare(2, 126), 1);   /* circular: 2 follows 126 */
    assert_int_equal(tern_ipv6_6lo_tid_compare(126, 2), -1);
    assert_int_equal(tern_ipv6_6lo_tid_compare(100, 10), 1);  /* desynchronised: taken as fresher */
    assert_int_equal(tern_ipv6_6lo_tid_next(240), 241);
    assert_int_equal(tern_ipv6_6lo_tid_next(255), 0);
    assert_int_equal(tern_ipv6_6lo_tid_next(127), 0);
}

static void test_register__host_ns_earo_na_status0_preferred_table_and_refresh(void **state)
{
    (void)state;
    /* RFC 8505 §5.1: tentative until the router confirmed it. */
    settle();
    const tern_ipv6_addr_t global = A(GLOBAL[1]), router_ll = A(LL[0]);
    /* The registration NS (RFC 6775 §5.5.1, RFC 8505 §5.5): unicast to the router's
     * link-local address and EUI-64, Target and source the Registered Address,
     * SLLAO and an EARO (T, TID 240, lifetime 15 min, ROVR = EUI-64). */
    const logged_t *ns = find_logged(H1, TERN_ICMPV6_NEIGHBOR_SOLICIT, 0);
    assert_non_null(ns);
    tern_ipv6_repr_t h;
    (void)logged_icmp(ns, &h);
    assert_true(tern_ipv6_addr_equal(&h.src, &global));
    assert_true(tern_ipv6_addr_equal(&h.dst, &router_ll));
    assert_int_equal(h.hop_limit, 255);
    assert_int_equal(ns->l2dst_len, 8);
    assert_memory_equal(ns->l2dst, EUI[0], 8);
    tern_ndp_ns_repr_t nsr;
    assert_int_equal(tern_ndp_ns_parse(&nsr, ns->ip + 40, ns->len - 40), TERN_NDP_NS_LEN);
    assert_true(tern_ipv6_addr_equal(&nsr.target, &global));
    tern_ndp_opt_t opt;
    assert_int_equal(tern_ndp_opt_find(nsr.options, nsr.options_len, TERN_NDP_OPT_SLLA, &opt), 1);
    assert_memory_equal(opt.data + 2, EUI[1], 8);
    tern_ndp_6lo_aro_t aro = earo_of(ns);
    assert_true(aro.extended);
    assert_int_equal(aro.status, 0);
    assert_int_equal(aro.tid, 240);
    assert_int_equal(aro.lifetime, TERN_CONF_IPV6_6LO_REG_LIFETIME_MIN);
    assert_int_equal(aro.rovr_len, 8);
    assert_memory_equal(aro.rovr, EUI[1], 8);
    /* The router's NA: status 0, same TID, to the host's EUI-64. */
    const logged_t *na = last_na_for(R, GLOBAL[1]);
    assert_non_null(na);
    (void)logged_icmp(na, &h);
    assert_true(tern_ipv6_addr_equal(&h.dst, &global));
    assert_true(tern_ipv6_addr_equal(&h.src, &router_ll));
    assert_memory_equal(na->l2dst, EUI[1], 8);
    aro = earo_of(na);
    assert_int_equal(aro.status, TERN_NDP_6LO_STATUS_SUCCESS);
    assert_int_equal(aro.tid, 240);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_REG_OK), 1);
    assert_int_equal(counter(R, TERN_IPV6_6LO_REG_ACCEPTED), 1);
    /* The router's table: address, owner, link address, TID, lifetime. */
    tern_ipv6_6lo_state_t rs = lowpan_state(R);
    assert_true(rs.router);
    const tern_ipv6_6lo_reg_t *e = reg_of(&rs, GLOBAL[1]);
    assert_non_null(e);
    assert_memory_equal(e->l2addr, EUI[1], 8);
    assert_memory_equal(e->rovr, EUI[1], 8);
    assert_int_equal(e->tid, 240);
    /* Kept to the tick of 2^20 us after the lifetime's end (tern/expiry.h). */
    uint64_t first_expiry = tern_expiry_to_us(e->expires);
    assert_true(first_expiry < rs.now_us + 15 * MIN + (1u << TERN_EXPIRY_SHIFT) &&
                first_expiry + 6 * SEC >= rs.now_us + 15 * MIN);
    tern_ipv6_6lo_state_t hs = lowpan_state(H1);
    assert_int_equal(hs.state.bindings[0].state, TERN_IPV6_6LO_BIND_REGISTERED);
    assert_true(tern_ipv6_addr_equal(&hs.state.bindings[0].router, &router_ll));
    /* No multicast DAD on a 6LoWPAN link (RFC 6775 §5.1): every NS of the host was the registration. */
    for (unsigned i = 0; i < H1->nlog; i++) {
        if (logged_icmp(&H1->log[i], &h) == TERN_ICMPV6_NEIGHBOR_SOLICIT) {
            assert_false(tern_ipv6_addr_is_multicast(&h.dst));
            assert_false(tern_ipv6_addr_is_unspecified(&h.src));
        }
    }
    /* Refreshed at 90 % of 15 minutes with the next TID; the entry lives on. */
    unsigned before = counter(H1, TERN_IPV6_6LO_REG_SENT);
    H1->nlog = 0;
    run_for(13 * MIN);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_REG_SENT), before);
    run_for(40 * SEC);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_REG_SENT), before + 1);
    ns = find_logged(H1, TERN_ICMPV6_NEIGHBOR_SOLICIT, 0);
    assert_non_null(ns);
    assert_int_equal(earo_of(ns).tid, 241);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_REG_OK), 2);
    rs = lowpan_state(R);
    e = reg_of(&rs, GLOBAL[1]);
    assert_non_null(e);
    assert_int_equal(e->tid, 241);
    assert_true(tern_expiry_to_us(e->expires) > first_expiry + 10 * MIN);
    run_for(10 * MIN); /* past the first lifetime: still registered */
    rs = lowpan_state(R);
    assert_non_null(reg_of(&rs, GLOBAL[1]));
    assert_int_equal(counter(R, TERN_IPV6_6LO_REG_EXPIRED), 0);
    assert_int_equal(addr_state(H1, GLOBAL[1]), TERN_IPV6_ADDR_PREFERRED);
}

static void test_register__no_router_answer_stays_tentative_retries_bounded(void **state)
{
    (void)state;
    settle();
    /* The router goes silent: later registrations (a new address) are retried
     * every RetransTimer, at most MAX_UNICAST_SOLICIT times, then counted. */
    nnodes = 1; /* the medium now reaches only the router: H1 is cut off */
    R->nlog = 0;
    add_addr(H1, "2001:db8::77", 64);
    unsigned sent = counter(H1, TERN_IPV6_6LO_REG_SENT);
    run_for(5 * SEC);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_REG_SENT), sent + 3);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_REG_TIMEOUT), 1);
    assert_int_equal(addr_state(H1, "2001:db8::77"), TERN_IPV6_ADDR_TENTATIVE);
    nnodes = 2;
    /* After TERN_CONF_IPV6_6LO_RETRY_S it tries again and succeeds. */
    run_for((uint64_t)TERN_CONF_IPV6_6LO_RETRY_S * SEC);
    assert_int_equal(addr_state(H1, "2001:db8::77"), TERN_IPV6_ADDR_PREFERRED);
}

static void test_duplicate__second_host_same_address_other_eui_refused_status1(void **state)
{
    (void)state;
    settle();
    assert_int_equal(counter(R, TERN_IPV6_6LO_REG_ACCEPTED), 2);
    /* H2 takes H1's address by hand: its registration is refused (RFC 6775 §6.5.2). */
    add_addr(H2, GLOBAL[1], 64);
    run_for(1 * SEC);
    assert_int_equal(addr_state(H2, GLOBAL[1]), TERN_IPV6_ADDR_DUPLICATE);
    assert_int_equal(counter(H2, TERN_IPV6_6LO_REG_DUPLICATE), 1);
    assert_int_equal(counter(H2, TERN_IPV6_DAD_DUPLICATES), 1);
    assert_int_equal(counter(R, TERN_IPV6_6LO_REG_REFUSED_DUP), 1);
    /* The NA: status 1, to the link-local address of H2's EUI-64 at its link address. */
    const logged_t *na = last_na_for(R, GLOBAL[1]);
    assert_non_null(na);
    tern_ipv6_repr_t h;
    (void)logged_icmp(na, &h);
    const tern_ipv6_addr_t h2_ll = A(LL[2]);
    assert_true(tern_ipv6_addr_equal(&h.dst, &h2_ll));
    assert_memory_equal(na->l2dst, EUI[2], 8);
    assert_int_equal(earo_of(na).status, TERN_NDP_6LO_STATUS_DUPLICATE);
    /* Nothing changed for the owner. */
    tern_ipv6_6lo_state_t rs = lowpan_state(R);
    const tern_ipv6_6lo_reg_t *e = reg_of(&rs, GLOBAL[1]);
    assert_non_null(e);
    assert_memory_equal(e->l2addr, EUI[1], 8);
    assert_int_equal(addr_state(H1, GLOBAL[1]), TERN_IPV6_ADDR_PREFERRED);
    assert_int_equal(addr_state(H2, GLOBAL[2]), TERN_IPV6_ADDR_PREFERRED);
    /* H2 keeps no registration of it and does not try again. */
    unsigned sent = counter(H2, TERN_IPV6_6LO_REG_SENT);
    run_for(30 * SEC);
    assert_int_equal(counter(H2, TERN_IPV6_6LO_REG_SENT), sent);
}

static void test_deregister__lifetime_zero_removes_entry(void **state)
{
    (void)state;
    settle();
    tern_ipv6_6lo_state_t rs = lowpan_state(R);
    assert_non_null(reg_of(&rs, GLOBAL[1]));
    H1->nlog = 0;
    tern_ipv6_addr_config_t cfg = { .addr = A(GLOBAL[1]), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&H1->ip.module, TERN_NETOPT_IPV6_ADDR_DEL, H1->netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
    run_for(10 * MS);
    const logged_t *ns = find_logged(H1, TERN_ICMPV6_NEIGHBOR_SOLICIT, 0);
    assert_non_null(ns);
    assert_int_equal(earo_of(ns).lifetime, 0);
    rs = lowpan_state(R);
    assert_null(reg_of(&rs, GLOBAL[1]));
    assert_int_equal(counter(R, TERN_IPV6_6LO_REG_REMOVED), 1);
    assert_int_equal(earo_of(last_na_for(R, GLOBAL[1])).status, 0);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_NA_UNEXPECTED), 0); /* the answer was expected */
    /* Someone else may register it now. */
    uint8_t pkt[256];
    ns_spec_t s = { .src = GLOBAL[1], .dst = LL[0], .target = GLOBAL[1], .hop = 255, .rovr_last = 0x42,
                    .tid = 1, .lifetime = 5, .sllao = true };
    inject(R, pkt, build_ns_aro(pkt, &s), false);
    assert_int_equal(earo_of(last_na_for(R, GLOBAL[1])).status, 0);
    /* And its registration runs out after 5 minutes. */
    run_for(5 * MIN + SEC);
    rs = lowpan_state(R);
    assert_null(reg_of(&rs, GLOBAL[1]));
    assert_int_equal(counter(R, TERN_IPV6_6LO_REG_EXPIRED), 1);
}

static void test_table_full__status2_others_kept(void **state)
{
    (void)state;
    settle(); /* H1's registration is one entry */
    uint8_t pkt[256];
    char target[48];
    for (unsigned i = 1; i < TERN_CONF_IPV6_6LO_REG_TABLE_SIZE; i++) {
        (void)snprintf(target, sizeof(target), "2001:db8::a:%x", i);
        ns_spec_t s = { .src = target, .dst = LL[0], .target = target, .hop = 255, .rovr_last = (uint8_t)i,
                        .tid = 1, .lifetime = 10, .sllao = true };
        inject(R, pkt, build_ns_aro(pkt, &s), false);
        assert_int_equal(earo_of(last_na_for(R, target)).status, 0);
    }
    tern_ipv6_6lo_state_t rs = lowpan_state(R);
    assert_int_equal(reg_count(&rs), TERN_CONF_IPV6_6LO_REG_TABLE_SIZE);
    ns_spec_t s = { .src = "2001:db8::b:1", .dst = LL[0], .target = "2001:db8::b:1", .hop = 255, .rovr_last = 0x80,
                    .tid = 1, .lifetime = 10, .sllao = true };
    inject(R, pkt, build_ns_aro(pkt, &s), false);
    const logged_t *na = last_na_for(R, "2001:db8::b:1");
    assert_non_null(na);
    assert_int_equal(earo_of(na).status, TERN_NDP_6LO_STATUS_NC_FULL);
    assert_memory_equal(na->l2dst, FAKE_EUI, 8);
    assert_int_equal(counter(R, TERN_IPV6_6LO_REG_REFUSED_FULL), 1);
    rs = lowpan_state(R);
    assert_int_equal(reg_count(&rs), TERN_CONF_IPV6_6LO_REG_TABLE_SIZE);
    assert_null(reg_of(&rs, "2001:db8::b:1"));
    assert_non_null(reg_of(&rs, GLOBAL[1]));
}

static void test_tid__older_tid_of_same_owner_refused_newer_accepted(void **state)
{
    (void)state;
    settle();
    uint8_t pkt[256];
    ns_spec_t s = { .src = "2001:db8::c", .dst = LL[0], .target = "2001:db8::c", .hop = 255, .rovr_last = 0x33,
                    .tid = 10, .lifetime = 10, .sllao = true };
    inject(R, pkt, build_ns_aro(pkt, &s), false);
    assert_int_equal(earo_of(last_na_for(R, "2001:db8::c")).status, 0);
    s.tid = 5;
    inject(R, pkt, build_ns_aro(pkt, &s), false);
    assert_int_equal(earo_of(last_na_for(R, "2001:db8::c")).status, TERN_NDP_6LO_STATUS_MOVED);
    assert_int_equal(counter(R, TERN_IPV6_6LO_REG_REFUSED_STALE), 1);
    tern_ipv6_6lo_state_t rs = lowpan_state(R);
    assert_int_equal(reg_of(&rs, "2001:db8::c")->tid, 10);
    s.tid = 10; /* a retransmission: same answer */
    inject(R, pkt, build_ns_aro(pkt, &s), false);
    assert_int_equal(earo_of(last_na_for(R, "2001:db8::c")).status, 0);
    s.tid = 11;
    inject(R, pkt, build_ns_aro(pkt, &s), false);
    assert_int_equal(earo_of(last_na_for(R, "2001:db8::c")).status, 0);
    rs = lowpan_state(R);
    assert_int_equal(reg_of(&rs, "2001:db8::c")->tid, 11);
}

static void test_ra__6co_and_abro_sent_host_learns_context_and_border(void **state)
{
    (void)state;
    settle();
    /* The router's RAs: PIO with L = 0, a 6CO for 2001:db8::/64 (CID 0, C), an ABRO. */
    const logged_t *ra = find_logged(R, TERN_ICMPV6_ROUTER_ADVERT, 0);
    assert_non_null(ra);
    tern_ndp_ra_repr_t rar;
    assert_int_equal(tern_ndp_ra_parse(&rar, ra->ip + 40, ra->len - 40), TERN_NDP_RA_LEN);
    tern_ndp_opt_t opt;
    assert_int_equal(tern_ndp_opt_find(rar.options, rar.options_len, TERN_NDP_OPT_PREFIX_INFO, &opt), 1);
    tern_ndp_opt_prefix_info_t pio;
    assert_int_equal(tern_ndp_opt_prefix_info_parse(&pio, &opt), 0);
    assert_int_equal(pio.flags & TERN_NDP_PIO_FLAG_ONLINK, 0);
    assert_int_equal(tern_ndp_opt_find(rar.options, rar.options_len, TERN_NDP_OPT_6CO, &opt), 1);
    tern_ndp_6lo_6co_t co;
    assert_int_equal(tern_ndp_6lo_6co_parse(&co, &opt), 0);
    const tern_ipv6_addr_t prefix = A("2001:db8::"), router_global = A(GLOBAL[0]);
    assert_int_equal(co.cid, 0);
    assert_true(co.compression);
    assert_int_equal(co.context_len, 64);
    assert_int_equal(co.lifetime, TERN_CONF_IPV6_6LO_CONTEXT_LIFETIME_MIN);
    assert_true(tern_ipv6_addr_equal(&co.prefix, &prefix));
    assert_int_equal(tern_ndp_opt_find(rar.options, rar.options_len, TERN_NDP_OPT_ABRO, &opt), 1);
    tern_ndp_6lo_abro_t abro;
    assert_int_equal(tern_ndp_6lo_abro_parse(&abro, &opt), 0);
    assert_int_equal(abro.version, 1);
    assert_int_equal(abro.lifetime, TERN_CONF_IPV6_6LO_ABRO_LIFETIME_MIN);
    assert_true(tern_ipv6_addr_equal(&abro.border_router, &router_global));
    /* An RS is answered at once by a unicast RA (RFC 6775 §6.3) to the
     * solicitor's link address (from its SLLAO). */
    uint8_t rs_opt[16];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = FAKE_EUI, .addr_len = 8 };
    int rs_olen = tern_ndp_opt_lladdr_emit(&ll, rs_opt, sizeof(rs_opt));
    tern_ndp_rs_repr_t rsr = { .options = rs_opt, .options_len = (size_t)rs_olen };
    uint8_t rs_msg[32], rs_pkt[128];
    int rs_len = tern_ndp_rs_emit(&rsr, rs_msg, sizeof(rs_msg));
    R->nlog = 0;
    inject(R, rs_pkt, build_icmp(rs_pkt, FAKE_LL, "ff02::2", 255, rs_msg, (size_t)rs_len), true);
    assert_int_equal(counter(R, TERN_IPV6_6LO_RA_UNICAST), 1);
    ra = find_logged(R, TERN_ICMPV6_ROUTER_ADVERT, 0);
    assert_non_null(ra);
    tern_ipv6_repr_t rh;
    (void)logged_icmp(ra, &rh);
    const tern_ipv6_addr_t fake_ll = A(FAKE_LL);
    assert_true(tern_ipv6_addr_equal(&rh.dst, &fake_ll));
    assert_int_equal(ra->l2dst_len, 8);
    assert_memory_equal(ra->l2dst, FAKE_EUI, 8);
    /* The host keeps the context and the border router, and hands the context on. */
    tern_ipv6_6lo_state_t hs = lowpan_state(H1);
    assert_false(hs.router);
    assert_true(hs.state.contexts[0].used);
    assert_int_equal(hs.state.contexts[0].cid, 0);
    assert_int_equal(hs.state.contexts[0].prefix_len, 64);
    assert_true(hs.state.contexts[0].compress);
    assert_true(tern_ipv6_addr_equal(&hs.state.contexts[0].prefix, &prefix));
    assert_true(hs.state.border.valid);
    assert_int_equal(hs.state.border.version, 1);
    assert_true(tern_ipv6_addr_equal(&hs.state.border.border_router, &router_global));
    assert_true(H1->hook_calls >= 1);
    assert_int_equal(H1->hook_cid, 0);
    assert_int_equal(H1->hook_len, 64);
    assert_true(H1->hook_compress);
    assert_int_equal(H1->hook_lifetime, TERN_CONF_IPV6_6LO_CONTEXT_LIFETIME_MIN * 60u);
    assert_true(tern_ipv6_addr_equal(&H1->hook_prefix, &prefix));
    /* The router uses the context itself too. */
    assert_true(R->hook_calls >= 1);
    /* A prefix is never on-link for the host (RFC 6775 §5.6). */
    tern_ipv6_route_list_t routes;
    assert_int_equal(tern_netapi_get(&H1->ip.module, TERN_NETOPT_IPV6_ROUTES, 0, &routes, sizeof(routes)),
                     (int)sizeof(routes));
    for (size_t i = 0; i < TERN_CONF_FIB_SIZE; i++) {
        assert_false(routes.routes[i].used && routes.routes[i].len == 64);
    }
    /* An RA with an older ABRO version of the same border router is ignored; lifetime 0 removes a context. */
    uint8_t opts[64];
    size_t n = 0;
    tern_ndp_6lo_abro_t old = { .version = 0, .lifetime = 100, .border_router = router_global };
    n += (size_t)tern_ndp_6lo_abro_emit(&old, opts + n, sizeof(opts) - n);
    tern_ndp_6lo_6co_t gone = { .context_len = 64, .compression = true, .cid = 0, .lifetime = 0, .prefix = prefix };
    n += (size_t)tern_ndp_6lo_6co_emit(&gone, opts + n, sizeof(opts) - n);
    tern_ndp_ra_repr_t fake = { .cur_hop_limit = 64, .router_lifetime = 1800, .options = opts, .options_len = n };
    uint8_t msg[128], pkt[256];
    int len = tern_ndp_ra_emit(&fake, msg, sizeof(msg));
    inject(H1, pkt, build_icmp(pkt, LL[0], "ff02::1", 255, msg, (size_t)len), true);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_ABRO_OLD), 1);
    hs = lowpan_state(H1);
    assert_true(hs.state.contexts[0].used);
    old.version = 2;
    n = (size_t)tern_ndp_6lo_abro_emit(&old, opts, sizeof(opts));
    n += (size_t)tern_ndp_6lo_6co_emit(&gone, opts + n, sizeof(opts) - n);
    fake.options_len = n;
    len = tern_ndp_ra_emit(&fake, msg, sizeof(msg));
    inject(H1, pkt, build_icmp(pkt, LL[0], "ff02::1", 255, msg, (size_t)len), true);
    hs = lowpan_state(H1);
    assert_false(hs.state.contexts[0].used);
    assert_int_equal(hs.state.border.version, 2);
    assert_int_equal(H1->hook_lifetime, 0);
}

/* The 6CO and ABRO of the RA @p n sent last after an RS of FAKE_EUI (unicast, RFC 6775 §6.3). */
static void solicited_6co_abro(node_t *n, tern_ndp_6lo_6co_t *co, tern_ndp_6lo_abro_t *abro)
{
    uint8_t rs_opt[16];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = FAKE_EUI, .addr_len = 8 };
    int rs_olen = tern_ndp_opt_lladdr_emit(&ll, rs_opt, sizeof(rs_opt));
    tern_ndp_rs_repr_t rsr = { .options = rs_opt, .options_len = (size_t)rs_olen };
    uint8_t rs_msg[32], rs_pkt[128];
    int rs_len = tern_ndp_rs_emit(&rsr, rs_msg, sizeof(rs_msg));
    n->nlog = 0;
    inject(n, rs_pkt, build_icmp(rs_pkt, FAKE_LL, "ff02::2", 255, rs_msg, (size_t)rs_len), true);
    const logged_t *ra = find_logged(n, TERN_ICMPV6_ROUTER_ADVERT, 0);
    assert_non_null(ra);
    tern_ndp_ra_repr_t rar;
    assert_int_equal(tern_ndp_ra_parse(&rar, ra->ip + 40, ra->len - 40), TERN_NDP_RA_LEN);
    tern_ndp_opt_t opt;
    assert_int_equal(tern_ndp_opt_find(rar.options, rar.options_len, TERN_NDP_OPT_6CO, &opt), 1);
    assert_int_equal(tern_ndp_6lo_6co_parse(co, &opt), 0);
    assert_int_equal(tern_ndp_opt_find(rar.options, rar.options_len, TERN_NDP_OPT_ABRO, &opt), 1);
    assert_int_equal(tern_ndp_6lo_abro_parse(abro, &opt), 0);
}

/*
 * RFC 6775 §8.1: a 6LR without prefixes of its own relays the 6LBR's context
 * and ABRO with their remaining lifetimes. The ends are kept to the next tick
 * of 2^20 us (tern/expiry.h); the minutes relayed are never more than those
 * received, and run down with time.
 */
static void test_ra__6lr_relays_6co_and_abro_remaining_minutes_never_more(void **state)
{
    (void)state;
    settle();
    router_broadcast_muted = true; /* only the RA below reaches H1 */
    assert_int_equal(tern_ipv6_set_router(&H1->ip, true), 0);
    run_for(1234567); /* an end off the tick grid */
    const tern_ipv6_addr_t prefix = A("2001:db8::"), border = A(GLOBAL[0]);
    uint8_t opts[64];
    size_t n = 0;
    tern_ndp_6lo_abro_t abro = { .version = 7, .lifetime = 10, .border_router = border };
    n += (size_t)tern_ndp_6lo_abro_emit(&abro, opts + n, sizeof(opts) - n);
    tern_ndp_6lo_6co_t co = { .context_len = 64, .compression = true, .cid = 0, .lifetime = 20, .prefix = prefix };
    n += (size_t)tern_ndp_6lo_6co_emit(&co, opts + n, sizeof(opts) - n);
    tern_ndp_ra_repr_t ra = { .cur_hop_limit = 64, .router_lifetime = 1800, .options = opts, .options_len = n };
    uint8_t msg[128], pkt[256];
    int len = tern_ndp_ra_emit(&ra, msg, sizeof(msg));
    inject(H1, pkt, build_icmp(pkt, LL[0], "ff02::1", 255, msg, (size_t)len), true);
    tern_ipv6_6lo_state_t hs = lowpan_state(H1);
    assert_int_equal(hs.state.border.version, 7);
    assert_true(tern_expiry_to_us(hs.state.border.expires) > hs.now_us + 10 * MIN); /* rounded up */
    tern_ndp_6lo_6co_t rco;
    tern_ndp_6lo_abro_t rabro;
    solicited_6co_abro(H1, &rco, &rabro);
    assert_int_equal(rabro.version, 7);
    assert_int_equal(rabro.lifetime, 10);
    assert_int_equal(rco.lifetime, 20);
    run_for(5 * MIN);
    solicited_6co_abro(H1, &rco, &rabro);
    assert_int_equal(rabro.lifetime, 5); /* 5 min less 2 us: 5, rounded up */
    assert_int_equal(rco.lifetime, 15);
    run_for(5 * MIN - 10 * MS);
    solicited_6co_abro(H1, &rco, &rabro);
    assert_int_equal(rabro.lifetime, 1); /* 10 ms left: at least a minute while valid */
    assert_int_equal(rco.lifetime, 10);
}

static void test_send__no_multicast_ns_host_via_router_router_via_table(void **state)
{
    (void)state;
    settle();
    H1->nlog = 0;
    R->nlog = 0;
    /* To the router's global address: off-link for a 6LN (RFC 6775 §5.6), so
     * to the default router's EUI-64 at once; the reply comes back through
     * the registration table. */
    send_echo(H1, GLOBAL[0]);
    assert_int_equal(H1->nlog, 1);
    assert_int_equal(H1->log[0].l2dst_len, 8);
    assert_memory_equal(H1->log[0].l2dst, EUI[0], 8);
    assert_int_equal(counter(R, TERN_IPV6_ICMP_ECHO_IN), 1);
    assert_int_equal(counter(H1, TERN_IPV6_ICMP_NO_LISTENER), 1); /* the reply arrived (no ping app) */
    const logged_t *reply = find_logged(R, TERN_ICMPV6_ECHO_REPLY, 0);
    assert_non_null(reply);
    assert_memory_equal(reply->l2dst, EUI[1], 8);
    /* Host to host: through the router, which forwards by its table. */
    send_echo(H1, GLOBAL[2]);
    assert_int_equal(counter(R, TERN_IPV6_FWD_PACKETS), 2); /* request and reply */
    assert_int_equal(counter(H2, TERN_IPV6_ICMP_ECHO_IN), 1);
    assert_int_equal(counter(H1, TERN_IPV6_ICMP_NO_LISTENER), 2);
    /* To a neighbor's link-local address: straight to the EUI-64 of its IID. */
    H1->nlog = 0;
    send_echo(H1, LL[2]);
    assert_int_equal(H1->log[0].l2dst_len, 8);
    assert_memory_equal(H1->log[0].l2dst, EUI[2], 8);
    assert_int_equal(counter(H2, TERN_IPV6_ICMP_ECHO_IN), 2);
    /* To an address nobody registered: the router neither resolves nor queues
     * (RFC 6775 §6): Destination Unreachable, address unreachable. */
    send_echo(H1, "2001:db8::dead");
    assert_int_equal(counter(R, TERN_IPV6_6LO_TX_UNRESOLVED), 1);
    assert_int_equal(counter(R, TERN_IPV6_FWD_ADDR_UNREACH), 1);
    /* Nobody sent a multicast NS, ever. */
    for (unsigned i = 0; i < nnodes; i++) {
        for (unsigned k = 0; k < nodes[i].nlog; k++) {
            tern_ipv6_repr_t h;
            if (logged_icmp(&nodes[i].log[k], &h) == TERN_ICMPV6_NEIGHBOR_SOLICIT) {
                assert_false(tern_ipv6_addr_is_multicast(&h.dst));
            }
        }
        for (size_t e = 0; e < TERN_CONF_NC_SIZE; e++) {
            assert_int_not_equal(nodes[i].ip.ifs[0].nc.entries[e].state, TERN_NC_INCOMPLETE);
        }
    }
}

static void test_bogus__dropped_counted_no_state_change(void **state)
{
    (void)state;
    settle();
    tern_ipv6_6lo_state_t before = lowpan_state(R);
    unsigned na_before = 0;
    while (find_logged(R, TERN_ICMPV6_NEIGHBOR_ADVERT, na_before) != NULL) {
        na_before++;
    }
    uint8_t pkt[256];
    /* Hop limit not 255 (RFC 4861 §7.1.1). */
    ns_spec_t s = { .src = "2001:db8::e", .dst = LL[0], .target = "2001:db8::e", .hop = 64, .rovr_last = 1,
                    .tid = 1, .lifetime = 10, .sllao = true };
    inject(R, pkt, build_ns_aro(pkt, &s), false);
    assert_int_equal(counter(R, TERN_IPV6_6LO_BAD_HOP_LIMIT), 1);
    /* An ARO with Length 1 (RFC 6775 §4.1: 2). */
    s.hop = 255;
    s.bad_aro_len = true;
    inject(R, pkt, build_ns_aro(pkt, &s), false);
    assert_int_equal(counter(R, TERN_IPV6_6LO_BAD_ARO), 1);
    s.bad_aro_len = false;
    /* An option of length 0 after the ARO: malformed (RFC 4861 §4.6). */
    size_t len = build_ns_aro(pkt, &s);
    memset(pkt + len, 0, 8);
    pkt[len] = 99; /* type 99, length 0 */
    pkt[5] = (uint8_t)(pkt[5] + 8); /* payload length */
    len += 8;
    {
        tern_ipv6_repr_t h;
        assert_int_equal(tern_ipv6_parse(&h, pkt, len), 40);
        pkt[42] = 0;
        pkt[43] = 0;
        assert_int_equal(tern_icmpv6_checksum_fill(pkt + 40, len - 40, &h.src, &h.dst), 0);
    }
    inject(R, pkt, len, false);
    assert_int_equal(counter(R, TERN_IPV6_6LO_MALFORMED), 1);
    /* EARO from the unspecified address (DAD form: to the solicited-node group, no SLLAO). */
    ns_spec_t u = { .src = "::", .dst = "ff02::1:ff00:1", .target = "2001:db8::5:0:0:1", .hop = 255,
                    .rovr_last = 2, .tid = 1, .lifetime = 10, .sllao = false };
    inject(R, pkt, build_ns_aro(pkt, &u), true);
    assert_int_equal(counter(R, TERN_IPV6_6LO_BAD_SOURCE), 1);
    /* No SLLAO. */
    s.sllao = false;
    inject(R, pkt, build_ns_aro(pkt, &s), false);
    assert_int_equal(counter(R, TERN_IPV6_6LO_NO_SLLAO), 1);
    s.sllao = true;
    /* To a multicast group. */
    s.dst = "ff02::1";
    inject(R, pkt, build_ns_aro(pkt, &s), true);
    assert_int_equal(counter(R, TERN_IPV6_6LO_MULTICAST_DST), 1);
    /* An NS with an EARO at a host; an NA with an EARO nobody waits for. */
    s.dst = LL[1];
    inject(H1, pkt, build_ns_aro(pkt, &s), false);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_ARO_ON_HOST), 1);
    uint8_t opts[32];
    tern_ndp_6lo_aro_t aro = { .extended = true, .tid = 9, .lifetime = 10, .rovr_len = 8 };
    memcpy(aro.rovr, EUI[1], 8);
    int olen = tern_ndp_6lo_aro_emit(&aro, opts, sizeof(opts));
    tern_ndp_na_repr_t na = { .flags = TERN_NDP_NA_FLAG_SOLICITED, .target = A(GLOBAL[1]), .options = opts,
                              .options_len = (size_t)olen };
    uint8_t msg[64];
    int mlen = tern_ndp_na_emit(&na, msg, sizeof(msg));
    inject(H1, pkt, build_icmp(pkt, FAKE_LL, GLOBAL[1], 255, msg, (size_t)mlen), false);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_NA_UNEXPECTED), 1);
    assert_int_equal(addr_state(H1, GLOBAL[1]), TERN_IPV6_ADDR_PREFERRED);
    /* A malformed 6CO (Length 1) in an RA: the option is ignored, counted. */
    uint8_t ropts[16] = { TERN_NDP_OPT_6CO, 1, 64, 0x10, 0, 0, 0, 10 };
    tern_ndp_ra_repr_t ra = { .cur_hop_limit = 64, .router_lifetime = 1800, .options = ropts, .options_len = 8 };
    mlen = tern_ndp_ra_emit(&ra, msg, sizeof(msg));
    inject(H1, pkt, build_icmp(pkt, FAKE_LL, "ff02::1", 255, msg, (size_t)mlen), true);
    assert_int_equal(counter(H1, TERN_IPV6_6LO_BAD_6CO), 1);
    /* Nothing changed at the router, and it answered none of them. */
    tern_ipv6_6lo_state_t after = lowpan_state(R);
    assert_memory_equal(before.state.regs, after.state.regs, sizeof(before.state.regs));
    assert_null(find_logged(R, TERN_ICMPV6_NEIGHBOR_ADVERT, na_before));
    assert_int_equal(counter(R, TERN_IPV6_6LO_REG_ACCEPTED), 1);
    /* The ordinary NDP counter is not where these went. */
    assert_int_equal(counter(R, TERN_IPV6_NDP_INVALID), 0);
}

static void test_router_mode__addresses_need_no_registration_and_ethernet_default_unchanged(void **state)
{
    (void)state;
    /* The router's own address is preferred without registration or DAD. */
    run_for(100 * MS);
    assert_int_equal(addr_state(R, GLOBAL[0]), TERN_IPV6_ADDR_PREFERRED);
    assert_int_equal(addr_state(R, LL[0]), TERN_IPV6_ADDR_PREFERRED);
    /* The test device's default is unchanged (contract item 5). */
    tern_netdev_test_t plain;
    tern_netdev_test_init(&plain);
    uint16_t type = 0;
    assert_int_equal(plain.netdev.driver->get(&plain.netdev, TERN_NETOPT_DEVICE_TYPE, &type, sizeof(type)), 2);
    assert_int_equal(type, TERN_NETDEV_TYPE_TEST);
    tern_ipv6_6lo_state_t hs = lowpan_state(H1);
    assert_true(hs.state.enabled);
}

static void test_rs__backoff_to_60s_until_ra_then_unicast_refresh(void **state)
{
    (void)state;
    /* No router yet: RFC 6775 §5.3 / §9: RTR_SOLICITATION_INTERVAL 10 s for the
     * first three, then doubling up to MAX_RTR_SOLICITATION_INTERVAL 60 s. */
    run_for(4 * MIN);
    uint64_t at[12];
    unsigned n = 0;
    const tern_ipv6_addr_t all_routers = A("ff02::2");
    for (const logged_t *l; n < 12 && (l = find_logged(H1, TERN_ICMPV6_ROUTER_SOLICIT, n)) != NULL; n++) {
        tern_ipv6_repr_t h;
        (void)logged_icmp(l, &h);
        assert_true(tern_ipv6_addr_equal(&h.dst, &all_routers));
        assert_int_equal(l->l2dst_len, 0); /* link broadcast */
        at[n] = l->at;
    }
    assert_int_equal(n, 7);
    assert_true(at[0] <= 1 * SEC);
    static const uint64_t gaps[6] = { 10, 10, 20, 40, 60, 60 };
    for (unsigned i = 0; i < 6; i++) {
        assert_int_equal(at[i + 1] - at[i], gaps[i] * SEC);
    }
    /* A router appears: its RA ends the solicitations; the host refreshes by
     * unicast RS at 90 % of the Router Lifetime, answered by a unicast RA. */
    assert_int_equal(tern_ipv6_set_router(&R->ip, true), 0);
    add_addr(R, GLOBAL[0], 64);
    run_for(5 * SEC);
    assert_int_equal(addr_state(H1, GLOBAL[1]), TERN_IPV6_ADDR_PREFERRED);
    H1->nlog = 0;
    uint32_t unicast_ras = counter(R, TERN_IPV6_6LO_RA_UNICAST);
    router_broadcast_muted = true; /* periodic RAs would postpone the refresh, rightly */
    run_for(25 * MIN); /* Router Lifetime 1800 s (contexts: 3600 s): refresh due after 1620 s */
    assert_null(find_logged(H1, TERN_ICMPV6_ROUTER_SOLICIT, 0));
    run_for(3 * MIN);
    const logged_t *rs = find_logged(H1, TERN_ICMPV6_ROUTER_SOLICIT, 0);
    assert_non_null(rs);
    tern_ipv6_repr_t h;
    (void)logged_icmp(rs, &h);
    const tern_ipv6_addr_t router_ll = A(LL[0]);
    assert_true(tern_ipv6_addr_equal(&h.dst, &router_ll));
    assert_int_equal(rs->l2dst_len, 8);
    assert_memory_equal(rs->l2dst, EUI[0], 8);
    assert_int_equal(counter(R, TERN_IPV6_6LO_RA_UNICAST), unicast_ras + 1);
    assert_null(find_logged(H1, TERN_ICMPV6_ROUTER_SOLICIT, 1)); /* answered: no retry */
}

/* ------------------------------------------------------------ shell */

/* ------------------------------------------------------------ timer */

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return (a < b) ? a : b;
}

/* The earliest expiry in the tables, scanned from their entries. */
static uint64_t tables_exact(const tern_ipv6_t *ip)
{
    uint64_t next = min_u64(tern_fib_next_deadline(&ip->fib), tern_dcache_next_deadline(&ip->dcache));
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        const tern_ipv6_if_t *ipif = &ip->ifs[i];
        if (ipif->netif == NULL) {
            continue;
        }
        next = min_u64(next, min_u64(tern_nc_next_deadline(&ipif->nc), tern_ipv6_addrs_next_deadline(&ipif->addrs)));
        const tern_ipv6_6lo_t *lp = &ipif->lowpan;
        if (!lp->enabled) {
            continue;
        }
        for (size_t k = 0; k < TERN_CONF_IPV6_6LO_BINDINGS; k++) {
            if (lp->bindings[k].state != TERN_IPV6_6LO_BIND_FREE) {
                next = min_u64(next, lp->bindings[k].deadline_us);
            }
        }
        for (size_t k = 0; k < TERN_CONF_IPV6_6LO_REG_TABLE_SIZE; k++) {
            if (lp->regs[k].used) {
                next = min_u64(next, tern_expiry_to_us(lp->regs[k].expires));
            }
        }
        for (size_t k = 0; k < TERN_CONF_IPV6_6LO_CONTEXTS; k++) {
            if (lp->contexts[k].used) {
                next = min_u64(next, tern_expiry_to_us(lp->contexts[k].expires));
            }
        }
        if (lp->border.valid) {
            next = min_u64(next, tern_expiry_to_us(lp->border.expires));
        }
    }
    return next;
}

/* The IPv6 module scans its tables only when one of them changed (ipv6.c
 * reschedule()): its timer must still never be armed after an expiry. */
static void assert_timer_before_table_expiry(void)
{
    for (unsigned i = 0; i < nnodes; i++) {
        const tern_ipv6_t *ip = &nodes[i].ip;
        assert_true(ip->timer_at <= ip->tables_at_us);
        assert_true(ip->tables_at_us <= tables_exact(ip));
    }
}

/* run_for(), checking after every message handled (before a timer due at the
 * same time can rescan). */
static void step_for(uint64_t us)
{
    uint64_t end = clock_v.now + us;
    for (;;) {
        while (tern_loop_step(&loop) != 0) {
            assert_timer_before_table_expiry();
        }
        if (clock_v.now >= end) {
            return;
        }
        uint64_t next = tern_timerq_next(&loop.base.timers);
        tern_vclock_advance_to(&clock_v, (next < end) ? next : end);
    }
}

static void test_timer__armed_before_every_table_expiry(void **state)
{
    (void)state;
    /* While RS/RA, DAD, registrations, contexts and the ABRO settle. */
    step_for(5 * SEC);
    assert_int_equal(addr_state(H1, GLOBAL[1]), TERN_IPV6_ADDR_PREFERRED);
    assert_int_equal(addr_state(H2, GLOBAL[2]), TERN_IPV6_ADDR_PREFERRED);
    /* Traffic: packets sent and received leave the scan to the tables' counters. */
    for (unsigned k = 0; k < 5; k++) {
        send_echo(H1, GLOBAL[2]);
        step_for(10 * MS);
        send_echo(H2, LL[0]);
        step_for(10 * MS);
    }
    /* Past the registrations' refresh (90 % of 15 min) and the contexts' and ABRO's lifetimes. */
    step_for(40 * 60 * SEC);
    assert_int_equal(addr_state(H1, GLOBAL[1]), TERN_IPV6_ADDR_PREFERRED);
}

static char out[4096];
static size_t out_len;

static void capture_out(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    assert_true(out_len + len < sizeof(out));
    memcpy(&out[out_len], text, len);
    out_len += len;
    out[out_len] = '\0';
}

static void shell(node_t *n, const char *command)
{
    static tern_shell_t sh;
    static tern_shell_ipv6_t cmds;
    tern_shell_init(&sh, &n->stack, capture_out, NULL);
    tern_shell_add_ipv6(&sh, &cmds, &n->ip);
    char line[TERN_CONF_SHELL_LINE_MAX];
    (void)snprintf(line, sizeof(line), "%s", command);
    out_len = 0;
    out[0] = '\0';
    assert_int_equal(tern_shell_run(&sh, line), 0);
}

static void test_shell__nib_reg_and_nib_ctx_on_router_and_host(void **state)
{
    (void)state;
    settle();
    run_for(10 * SEC);
    shell(R, "nib reg");
    assert_non_null(strstr(out, "2001:db8::12:4b00:0:2        dev wpan0   lladdr 02:12:4b:00:00:00:00:02 tid 240 "
                                "expires 885s\n")); /* 900 s, to the tick of 2^20 us after (tern/expiry.h) */
    shell(H1, "nib reg");
    assert_non_null(strstr(out, "2001:db8::12:4b00:0:2        via fe80::12:4b00:0:1          dev wpan0   registered  "
                                "tid 240 status 0  next 794s\n"));
    shell(H1, "nib ctx");
    assert_non_null(strstr(out, "cid 0  2001:db8::/64                dev wpan0   compress   valid 3585s\n"));
    assert_non_null(strstr(out, "abro   2001:db8::1                  dev wpan0   version 1 valid 599985s\n")); /* ends kept to the next tick */
    shell(R, "nib ctx");
    assert_non_null(strstr(out, "cid 0  2001:db8::/64"));
}

int main(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tid__lollipop_compare_and_increment),
        cmocka_unit_test_setup_teardown(test_register__host_ns_earo_na_status0_preferred_table_and_refresh, setup2,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_register__no_router_answer_stays_tentative_retries_bounded, setup2,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_duplicate__second_host_same_address_other_eui_refused_status1, setup3,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_deregister__lifetime_zero_removes_entry, setup2, teardown),
        cmocka_unit_test_setup_teardown(test_table_full__status2_others_kept, setup2, teardown),
        cmocka_unit_test_setup_teardown(test_tid__older_tid_of_same_owner_refused_newer_accepted, setup2, teardown),
        cmocka_unit_test_setup_teardown(test_ra__6co_and_abro_sent_host_learns_context_and_border, setup2, teardown),
        cmocka_unit_test_setup_teardown(test_ra__6lr_relays_6co_and_abro_remaining_minutes_never_more, setup2,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_send__no_multicast_ns_host_via_router_router_via_table, setup3,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_bogus__dropped_counted_no_state_change, setup2, teardown),
        cmocka_unit_test_setup_teardown(test_router_mode__addresses_need_no_registration_and_ethernet_default_unchanged,
                                        setup2, teardown),
        cmocka_unit_test_setup_teardown(test_shell__nib_reg_and_nib_ctx_on_router_and_host, setup2, teardown),
        cmocka_unit_test_setup_teardown(test_rs__backoff_to_60s_until_ra_then_unicast_refresh, setup2_hosts,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_timer__armed_before_every_table_expiry, setup3, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
