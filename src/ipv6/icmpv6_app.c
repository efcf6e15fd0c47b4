/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief ICMPv6 messages for applications: echo replies (RFC 4443 §4.2) and
 *        errors about echo requests we sent (RFC 4443 §3, §2.4 (b)), handed
 *        through netreg as (ICMPV6, echo identifier) — what `ping` listens to.
 *
 * The receive path keeps only the message snip for ICMPv6; here the
 * receiver gets the layout every upper layer gets, rebuilt from the parsed
 * header: [ICMPV6 message, IPV6 (the fixed header as received: source,
 * destination, hop limit; extension headers are not kept), NETIF (the
 * interface it arrived on)].
 *
 * Also errors about other packets we sent, by the quoted upper-layer
 * protocol (UDP; RFC 4443 §2.4 (e)), ipv6_icmpv6_deliver_error().
 */
#include <errno.h>

#include "ipv6_internal.h"
#include "tern/netif_hdr.h"
#include "tern/wire/icmpv6.h"

/*
 * The identifier that names the receiver of @p msg: an echo reply's own;
 * for an error, the one of the echo request it quotes (RFC 4443 §2.4 (b):
 * errors go to the process that sent the packet). @return it, or -ENOENT.
 */
static int receiver_identifier(const tern_pkt_t *msg)
{
    const uint8_t *b = msg->data;
    tern_icmpv6_echo_repr_t echo;
    if (b[0] == TERN_ICMPV6_ECHO_REPLY) {
        return (tern_icmpv6_echo_parse(&echo, b, msg->size) < 0) ? -ENOENT : (int)echo.identifier;
    }
    tern_icmpv6_error_repr_t err;
    tern_ipv6_repr_t inner;
    if (!tern_icmpv6_is_error(b[0]) || tern_icmpv6_error_parse(&err, b, msg->size) < 0 ||
        tern_ipv6_parse(&inner, err.invoking, err.invoking_len) < 0 ||
        inner.next_header != TERN_ICMPV6_NEXT_HEADER || err.invoking_len < TERN_IPV6_HDR_LEN + TERN_ICMPV6_FIXED_LEN ||
        err.invoking[TERN_IPV6_HDR_LEN] != TERN_ICMPV6_ECHO_REQUEST) {
        return -ENOENT; /* only errors about an echo request (no extension headers) */
    }
    const uint8_t *q = err.invoking + TERN_IPV6_HDR_LEN;
    return (int)(((unsigned)q[4] << 8) | q[5]);
}

/* Hand @p msg, as [ICMPV6, IPV6, NETIF] rebuilt from @p hdr and @p ipif, to the
 * receivers of (ICMPV6, @p demux). Consumes @p msg. */
static void deliver(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, tern_pkt_t *msg,
                    uint32_t demux)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tern_pkt_t *netif = tern_netif_hdr_build(pb, NULL, NULL, 0, NULL, 0);
    tern_pkt_t *ip_snip = (netif != NULL) ? tern_pktbuf_add(pb, netif, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6)
                                          : NULL;
    if (ip_snip == NULL) {
        ipv6_count(ip, TERN_IPV6_RX_NOMEM);
        tern_pktbuf_release(pb, netif);
        tern_pktbuf_release(pb, msg);
        return;
    }
    tern_netif_hdr_get(netif)->if_index = ipif->netif->index;
    tern_ipv6_repr_t copy = *hdr;
    copy.payload_len = (uint16_t)msg->size;
    (void)tern_ipv6_emit(&copy, ip_snip->data, ip_snip->size);
    msg->type = TERN_NETTYPE_ICMPV6;
    msg->next = ip_snip;
    (void)tern_netapi_dispatch_receive(ip->module.stack, TERN_NETTYPE_ICMPV6, demux, msg);
}

bool ipv6_icmpv6_deliver(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, tern_pkt_t *msg)
{
    if (!TERN_CONF_ICMPV6_DELIVER) {
        return false; /* no ICMPv6 for applications (config.h): the caller counts it unhandled */
    }
    int id = receiver_identifier(msg);
    if (id < 0) {
        return false;
    }
    if (tern_netreg_num(&ip->module.stack->netreg, TERN_NETTYPE_ICMPV6, (uint32_t)id) == 0) {
        ipv6_count(ip, TERN_IPV6_ICMP_NO_LISTENER);
        tern_pktbuf_release(ipv6_pktbuf(ip), msg);
        return true;
    }
    deliver(ip, ipif, hdr, msg, (uint32_t)id);
    return true;
}

bool ipv6_icmpv6_deliver_type(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, tern_pkt_t *msg)
{
    if (!TERN_CONF_ICMPV6_DELIVER) {
        return false;
    }
    const uint8_t *b = msg->data;
    uint32_t demux = TERN_IPV6_ICMPV6_TYPE_DEMUX(b[0]);
    if (tern_icmpv6_is_error(b[0]) || tern_netreg_num(&ip->module.stack->netreg, TERN_NETTYPE_ICMPV6, demux) == 0) {
        return false;
    }
    deliver(ip, ipif, hdr, msg, demux);
    return true;
}

bool ipv6_icmpv6_deliver_error(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, tern_pkt_t *msg)
{
    /* Not under TERN_CONF_ICMPV6_DELIVER: RFC 4443 §2.4 (e) requires it. */
    tern_icmpv6_error_repr_t err;
    tern_ipv6_repr_t inner;
    size_t off;
    int nh = tern_icmpv6_error_quote(msg->data, msg->size, &err, &inner, &off);
    if (nh < 0 || tern_netreg_num(&ip->module.stack->netreg, TERN_NETTYPE_ICMPV6,
                                  TERN_IPV6_ICMPV6_ERROR_DEMUX(nh)) == 0) {
        return false;
    }
    if (!ipv6_is_own_address(ip, &inner.src)) {
        ipv6_count(ip, TERN_IPV6_ICMP_ERR_NOT_OURS); /* not a packet we sent: nobody to tell */
        tern_pktbuf_release(ipv6_pktbuf(ip), msg);
        return true;
    }
    deliver(ip, ipif, hdr, msg, TERN_IPV6_ICMPV6_ERROR_DEMUX(nh));
    return true;
}
