/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The UDP module: validate, demultiplex by port, and pass datagrams down.
 *
 * Read first: RFC 768; RFC 8200 §8.1; RFC 6335 §6; RFC 4443 §3.1.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/udp.h"
#include "tern/wire/bytes.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/udp.h"

static const char *const udp_counter_names[TERN_UDP_STAT_NUMOF] = {
    [TERN_UDP_RX_DATAGRAMS] = "rx_datagrams",
    [TERN_UDP_RX_BAD_LENGTH] = "rx_bad_length",
    [TERN_UDP_RX_BAD_CHECKSUM] = "rx_bad_checksum",
    [TERN_UDP_RX_NO_PORT] = "rx_no_port",
    [TERN_UDP_RX_NO_PORT_LOST] = "rx_no_port_lost",
    [TERN_UDP_RX_NOMEM] = "rx_nomem",
    [TERN_UDP_RX_INVALID] = "rx_invalid",
    [TERN_UDP_TX_DATAGRAMS] = "tx_datagrams",
    [TERN_UDP_TX_ERRORS] = "tx_errors",
    [TERN_UDP_RX_ICMP_ERRORS] = "rx_icmp_errors",
    [TERN_UDP_RX_ICMP_NO_SOCKET] = "rx_icmp_no_socket",
    [TERN_UDP_RX_ICMP_TRUNCATED] = "rx_icmp_truncated",
};

static void udp_count(tern_udp_t *udp, unsigned c)
{
    tern_count(&udp->counters[c]);
}

static tern_pktbuf_t *udp_pktbuf(tern_udp_t *udp)
{
    return &udp->module.stack->pktbuf;
}

/* ------------------------------------------------------------ ports */

/*
 * Copy the modules registered for exactly (UDP, @p port) into @p out (at most
 * @p max). @return how many match (may exceed @p max).
 */
static unsigned collect_port(tern_stack_t *stack, uint16_t port, tern_module_t **out, unsigned max)
{
    /* Not the ALL entries: they had the datagram from IPv6. */
    return tern_netreg_collect_exact(&stack->netreg, TERN_NETTYPE_UDP, port, out, max);
}

unsigned tern_udp_port_users(tern_stack_t *stack, uint16_t port)
{
    return (stack != NULL) ? collect_port(stack, port, NULL, 0) : 0u;
}

int tern_udp_ephemeral_port(tern_udp_t *udp)
{
    if (udp == NULL || udp->module.stack == NULL) {
        return -EINVAL;
    }
    tern_stack_t *stack = udp->module.stack;
    const uint32_t range = TERN_UDP_EPHEMERAL_MAX - TERN_UDP_EPHEMERAL_MIN + 1u;
    uint32_t start = 0;
    /* RFC 6335 §6 / RFC 6056: random choice, then the next free one. */
    for (unsigned attempt = 0; attempt < 64u; attempt++) {
        tern_lock_acquire(tern_stack_lock(stack));
        uint32_t x = udp->rng;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        udp->rng = x;
        tern_lock_release(tern_stack_lock(stack));
        start = x % range;
        uint16_t port = (uint16_t)(TERN_UDP_EPHEMERAL_MIN + start);
        if (collect_port(stack, port, NULL, 0) == 0) {
            return port;
        }
    }
    for (uint32_t i = 1; i < range; i++) {
        uint16_t port = (uint16_t)(TERN_UDP_EPHEMERAL_MIN + (start + i) % range);
        if (collect_port(stack, port, NULL, 0) == 0) {
            return port;
        }
    }
    return -EADDRINUSE;
}

/* ------------------------------------------------------------ receive */

/* Hand @p pkt (the caller's reference, not yet split) to IPv6 for port unreachable. */
static void report_no_port(tern_udp_t *udp, tern_pkt_t *pkt)
{
    udp_count(udp, TERN_UDP_RX_NO_PORT);
    if (udp->ipv6 != NULL) {
        tern_msg_t msg = { .type = TERN_IPV6_MSG_PORT_UNREACHABLE, .sender = &udp->module, .content.pkt = pkt };
        if (tern_netapi_post(&udp->ipv6->module, &msg) == 0) {
            return;
        }
    }
    udp_count(udp, TERN_UDP_RX_NO_PORT_LOST);
    tern_pktbuf_release(udp_pktbuf(udp), pkt);
}

static void receive(tern_udp_t *udp, tern_pkt_t *pkt)
{
    tern_pktbuf_t *pb = udp_pktbuf(udp);
    /* [UDP, IPV6_EXT?, IPV6, NETIF] as IPv6 hands a datagram up (the
     * header looked at in place); else searched for. */
    tern_pkt_t *ip_snip = pkt->next;
    if (ip_snip == NULL || ip_snip->type != TERN_NETTYPE_IPV6) {
        ip_snip = (ip_snip != NULL && ip_snip->type == TERN_NETTYPE_IPV6_EXT && ip_snip->next != NULL &&
                   ip_snip->next->type == TERN_NETTYPE_IPV6)
                      ? ip_snip->next
                      : tern_pkt_search_type(pkt, TERN_NETTYPE_IPV6);
    }
    if (pkt->type != TERN_NETTYPE_UDP || ip_snip == NULL || ip_snip->size < TERN_IPV6_HDR_LEN) {
        udp_count(udp, TERN_UDP_RX_INVALID);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    tern_udp_repr_t repr;
    if (tern_udp_parse(&repr, pkt->data, pkt->size) < 0) {
        udp_count(udp, TERN_UDP_RX_BAD_LENGTH);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    if (pkt->size > repr.length) {
        /* Bytes beyond the Length field are not UDP's (RFC 768): trimmed, in
         * a private copy when a receiver of (UDP, ALL) shares the snip.
         * Nothing else here writes the datagram. Shrinking never fails. */
        tern_pkt_t *own = tern_pktbuf_start_write(pb, pkt);
        if (own == NULL) {
            udp_count(udp, TERN_UDP_RX_NOMEM);
            tern_pktbuf_release(pb, pkt);
            return;
        }
        pkt = own;
        (void)tern_pktbuf_realloc_data(pb, pkt, repr.length);
    }
    /* The pseudo-header's addresses straight from the IPv6 header, summed
     * with the datagram in one accumulation (RFC 8200 §8.1). */
    if (tern_udp_checksum_verify_bytes(&repr, ip_snip->data, ip_snip->size, pkt->data, pkt->size) < 0) {
        udp_count(udp, TERN_UDP_RX_BAD_CHECKSUM);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    tern_module_t *to[TERN_CONF_NETAPI_MAX_RECEIVERS];
    unsigned n = collect_port(udp->module.stack, repr.dst_port, to, TERN_CONF_NETAPI_MAX_RECEIVERS);
    if (n == 0) {
        report_no_port(udp, pkt);
        return;
    }
    /* Delivered as checked, [datagram (UDP), ...]: the receivers read the
     * header in place and the payload after it (udp.h), no snip is split off.
     * Receivers beyond the array are counted as too_many by deliver; a
     * full socket queue releases its copy and counts netapi.queue_full. */
    if (tern_netapi_deliver(udp->module.stack, to, n, TERN_MSG_RCV, pkt) >= 0) {
        udp_count(udp, TERN_UDP_RX_DATAGRAMS);
    }
}

/* ------------------------------------------------------------ ICMPv6 errors */

/* RFC 4443 §3.1-§3.4: the errno an error about our datagram means (udp.h). */
static int icmp_errno(uint8_t type, uint8_t code)
{
    switch (type) {
    case TERN_ICMPV6_DST_UNREACH:
        return (code == TERN_ICMPV6_DST_UNREACH_PORT) ? -ECONNREFUSED : -EHOSTUNREACH; /* §3.1: 4 is "port unreachable" */
    case TERN_ICMPV6_PACKET_TOO_BIG:
        return -EMSGSIZE;
    case TERN_ICMPV6_TIME_EXCEEDED:
        return -EHOSTUNREACH;
    default:
        return -EPROTO; /* Parameter Problem; types without a meaning here (§2.4 (d): still passed up) */
    }
}

int tern_udp_icmp_error_parse(const uint8_t *buf, size_t len, tern_udp_icmp_error_t *out)
{
    tern_icmpv6_error_repr_t err;
    tern_ipv6_repr_t inner;
    size_t off;
    if (buf == NULL || out == NULL ||
        tern_icmpv6_error_quote(buf, len, &err, &inner, &off) != (int)TERN_IPV6_NH_UDP ||
        err.invoking_len - off < TERN_UDP_HDR_LEN) {
        return -EBADMSG;
    }
    out->error = icmp_errno(err.type, err.code);
    out->local_addr = inner.src;
    out->remote_addr = inner.dst;
    tern_udp_ports_get(err.invoking + off, &out->local_port, &out->remote_port);
    return 0;
}

/* An error about a datagram we sent ([ICMPV6, IPV6, NETIF] from IPv6, udp.h): to the sockets of its source port. */
static void icmp_error_receive(tern_udp_t *udp, tern_pkt_t *pkt)
{
    udp_count(udp, TERN_UDP_RX_ICMP_ERRORS);
    tern_udp_icmp_error_t e;
    if (tern_udp_icmp_error_parse(pkt->data, pkt->size, &e) < 0) {
        udp_count(udp, TERN_UDP_RX_ICMP_TRUNCATED);
        tern_pktbuf_release(udp_pktbuf(udp), pkt);
        return;
    }
    tern_module_t *to[TERN_CONF_NETAPI_MAX_RECEIVERS];
    unsigned n = collect_port(udp->module.stack, e.local_port, to, TERN_CONF_NETAPI_MAX_RECEIVERS);
    if (n == 0) {
        udp_count(udp, TERN_UDP_RX_ICMP_NO_SOCKET);
        tern_pktbuf_release(udp_pktbuf(udp), pkt);
        return;
    }
    (void)tern_netapi_deliver(udp->module.stack, to, n, TERN_MSG_RCV, pkt);
}

/* ------------------------------------------------------------ send */

static void send_down(tern_udp_t *udp, tern_pkt_t *pkt)
{
    tern_pktbuf_t *pb = udp_pktbuf(udp);
    tern_pkt_t *head = tern_pktbuf_start_write_upto(pb, pkt, TERN_NETTYPE_UDP);
    if (head == NULL) {
        udp_count(udp, TERN_UDP_TX_ERRORS);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    pkt = head;
    /* The UDP header (the first UDP snip) and whether an IPv6 header comes
     * before it, then the datagram's length from there (tern_pkt_len():
     * NETERR snips are no bytes of it). */
    tern_pkt_t *hdr = pkt;
    bool ipv6 = false;
    for (; hdr != NULL && hdr->type != TERN_NETTYPE_UDP; hdr = hdr->next) {
        ipv6 = ipv6 || hdr->type == TERN_NETTYPE_IPV6;
    }
    size_t len = tern_pkt_len(hdr);
    if (hdr == NULL || hdr->size != TERN_UDP_HDR_LEN || len > 0xFFFFu || !ipv6) {
        udp_count(udp, TERN_UDP_TX_ERRORS);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    uint8_t *b = hdr->data;
    tern_store16(&b[4], (uint16_t)len);
    tern_store16(&b[6], 0); /* the checksum: filled by IPv6 once the source address is known */
    if (tern_netapi_dispatch_send(udp->module.stack, TERN_NETTYPE_IPV6, TERN_NETREG_DEMUX_CTX_ALL, pkt) > 0) {
        udp_count(udp, TERN_UDP_TX_DATAGRAMS);
    } else {
        udp_count(udp, TERN_UDP_TX_ERRORS); /* no IPv6 or its queue full (also counted by netapi) */
    }
}

/* ------------------------------------------------------------ module */

static int handle(tern_module_t *self, tern_msg_t *msg)
{
    tern_udp_t *udp = self->context;
    switch (msg->type) {
    case TERN_MSG_RCV:
        if (msg->content.pkt->type == TERN_NETTYPE_ICMPV6) {
            icmp_error_receive(udp, msg->content.pkt); /* from (ICMPV6, ERROR_DEMUX(UDP)) */
            return 0;
        }
        receive(udp, msg->content.pkt);
        return 0;
    case TERN_MSG_SND:
        send_down(udp, msg->content.pkt);
        return 0;
    default:
        return -ENOTSUP;
    }
}

void tern_udp_seed(tern_udp_t *udp, uint32_t seed)
{
    udp->rng = (seed != 0) ? seed : 1u; /* xorshift32 stays at 0 forever */
}

int tern_udp_init(tern_udp_t *udp, tern_stack_t *stack, struct tern_ipv6 *ipv6)
{
    if (udp == NULL || stack == NULL) {
        return -EINVAL;
    }
    memset(udp, 0, sizeof(*udp));
    udp->ipv6 = ipv6;
    tern_udp_seed(udp, 0x2545F491u ^ (uint32_t)(uintptr_t)udp);
    int res = tern_module_init(&udp->module, "udp", TERN_CONF_UDP_PRIORITY, handle, udp, udp->queue,
                               TERN_CONF_MODULE_QUEUE_LEN);
    if (res < 0) {
        return res;
    }
    res = tern_stack_add_module(stack, &udp->module);
    if (res < 0) {
        return res;
    }
    tern_netreg_entry_init(&udp->entry, TERN_NETREG_DEMUX_CTX_ALL, &udp->module);
    res = tern_netreg_register(&stack->netreg, TERN_NETTYPE_UDP, &udp->entry);
    if (res < 0) {
        return res;
    }
    tern_netreg_entry_init(&udp->icmp_entry, TERN_IPV6_ICMPV6_ERROR_DEMUX(TERN_IPV6_NH_UDP), &udp->module);
    res = tern_netreg_register(&stack->netreg, TERN_NETTYPE_ICMPV6, &udp->icmp_entry);
    if (res < 0) {
        return res;
    }
    udp->stats.name = "udp";
    udp->stats.names = TERN_STATS_NAMES(udp_counter_names);
    udp->stats.values = udp->counters;
    udp->stats.count = TERN_UDP_STAT_NUMOF;
    tern_stack_add_stats(stack, &udp->stats);
    return 0;
}
