/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Forwarding between interfaces for a node that is a router
 *        (RFC 8200 §3, §5), its ICMPv6 errors (RFC 4443 §3.1-§3.3), and
 *        the static routes configured with TERN_NETOPT_IPV6_ROUTE_ADD / _DEL.
 *
 * Read first: RFC 8200 §3 (Hop Limit "decremented by 1 by each node that
 * forwards the packet"), §5 (routers never fragment), RFC 4291 §2.5.6
 * (link-local addresses never leave the link), RFC 4443 §3.1-§3.3.
 *
 * The receive path hands over unicast packets that are not for the
 * interface they arrived on. The packet is forwarded in place: the header
 * snip (already private to the module) gets the decremented hop limit, the
 * received NETIF snip is replaced by one for the outgoing interface, and
 * the packet goes through that interface's neighbor cache.
 *
 * Hop-by-Hop options (RFC 8200 §4.3): "may be examined or processed by any
 * node along a packet's delivery path"; RFC 8200 expects a node to do so
 * only when configured to. Tern's choice: a router processes them, with
 * the rules a destination applies (ipv6_options_check(), §4.2): padding,
 * Router Alert and the RPL Option (RFC 6553; checked and updated after the
 * route is chosen, rpi.c) are known, an unknown option acts on its two
 * high bits (skip; discard; discard with Parameter Problem code 2). Reason:
 * on the links Tern is for, options are meant for the routers on the path
 * and choose their type bits for them (e.g. RFC 6553's RPL Option, type
 * 0x63, "01": a router that does not know it discards the packet); a
 * malformed header is discarded too. Only a Hop-by-Hop header right after
 * the fixed header is looked at (§4.1); the other extension headers are for
 * the destination (§4). The options are checked on arrival, before the hop
 * limit and the route. Drops count as fwd_hbh_dropped.
 *
 * A packet that waited in the outgoing neighbor cache for a resolution that
 * failed is answered with Destination Unreachable code 3 (RFC 4861 §7.2.2,
 * ipv6_icmpv6_error_unresolved()).
 *
 * A packet for a (not link-local) address of another of our interfaces is
 * not forwarded: the receive path delivers it (RFC 1122 §3.3.4.2, counted
 * as rx_other_if). A packet reaching this function for one of our
 * addresses anyway (a duplicate or tentative one, or after a Source
 * Routing Header named it) is counted as not for us.
 *
 * A node with a source route provider (RPL's non-storing root) tunnels the
 * packets it forwards along the provider's routes (tunnel.c, RFC 6554 §4.1).
 *
 * Not done: sending Redirects (RFC 4861 §8.2), multicast routing.
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/wire/icmpv6.h"

/* LinkMTU of @p ipif: from a Router Advertisement (RFC 4861 §6.3.4), else the link's. */
static uint16_t link_mtu(const tern_ipv6_if_t *ipif)
{
    return (ipif->rd.link_mtu != 0) ? ipif->rd.link_mtu : ipif->netif->mtu;
}

/* Drop @p pkt counted under @p counter; answer with ICMPv6 @p type / @p code / @p param if @p type != 0. */
static void refuse(tern_ipv6_t *ip, tern_pkt_t *pkt, unsigned counter, uint8_t type, uint8_t code, uint32_t param)
{
    ipv6_count(ip, counter);
    if (type != 0) {
        ipv6_icmpv6_error(ip, pkt, type, code, param);
    } else {
        tern_pktbuf_release(ipv6_pktbuf(ip), pkt);
    }
}

void ipv6_forward(tern_ipv6_t *ip, const tern_ipv6_repr_t *hdr, size_t payload_len, tern_pkt_t *pkt)
{
    ipv6_forward_via(ip, hdr, payload_len, pkt, NULL, NULL);
}

void ipv6_forward_via(tern_ipv6_t *ip, const tern_ipv6_repr_t *hdr, size_t payload_len, tern_pkt_t *pkt,
                      tern_ipv6_if_t *out, const tern_ipv6_addr_t *via)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    pkt->type = TERN_NETTYPE_IPV6; /* the whole packet, header first: what ICMPv6 errors quote */
    if (ipv6_is_own_address(ip, &hdr->dst)) {
        refuse(ip, pkt, TERN_IPV6_RX_NOT_FOR_US, 0, 0, 0);
        return;
    }
    /* RFC 4291 §2.5.2: never forward from the unspecified address; §2.5.6:
     * nor anything with a link-local source or destination. RFC 4443 §3.1:
     * code 2 when the destination is beyond the scope of the source. */
    bool src_ll = tern_ipv6_addr_is_link_local(&hdr->src);
    bool dst_ll = tern_ipv6_addr_is_link_local(&hdr->dst);
    if (tern_ipv6_addr_is_unspecified(&hdr->src) || dst_ll) {
        refuse(ip, pkt, TERN_IPV6_FWD_SCOPE, 0, 0, 0);
        return;
    }
    if (src_ll) {
        refuse(ip, pkt, TERN_IPV6_FWD_SCOPE, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_BEYOND_SCOPE, 0);
        return;
    }
    /* RFC 8200 §4.3, §4.2: the Hop-by-Hop options (see the file comment). */
    if (hdr->next_header == TERN_IPV6_NH_HOP_BY_HOP) {
        const uint8_t *hbh = (const uint8_t *)pkt->data + TERN_IPV6_HDR_LEN;
        tern_ipv6_ext_t ext;
        size_t offset = 0;
        int res = (tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_HOP_BY_HOP, hbh, payload_len) < 0)
                      ? -EBADMSG
                      : ipv6_options_check(hbh, ext.len, false, &offset);
        if (res == -EPROTO) {
            refuse(ip, pkt, TERN_IPV6_FWD_HBH_DROPPED, TERN_ICMPV6_PARAM_PROBLEM, TERN_ICMPV6_PARAM_PROBLEM_OPTION,
                   (uint32_t)(TERN_IPV6_HDR_LEN + offset));
            return;
        }
        if (res < 0) {
            refuse(ip, pkt, TERN_IPV6_FWD_HBH_DROPPED, 0, 0, 0);
            return;
        }
    }
    /* RFC 8200 §3, RFC 4443 §3.3: a packet that would leave with hop limit 0
     * is discarded with Time Exceeded code 0. */
    if (hdr->hop_limit <= 1u) {
        refuse(ip, pkt, TERN_IPV6_FWD_HOP_LIMIT, TERN_ICMPV6_TIME_EXCEEDED, TERN_ICMPV6_TIME_EXCEEDED_HOP_LIMIT,
               0);
        return;
    }
    /* RFC 6554 §4.1, RFC 9008 §7: a source route provider's route first;
     * longer than one hop, the packet goes on inside a tunnel (tunnel.c). */
    tern_ipv6_addr_t tunnel_hop;
    if (out == NULL) {
        if (ipv6_tunnel_forward(ip, hdr, payload_len, pkt, &out, &tunnel_hop) == 1) {
            return;
        }
        if (out != NULL) {
            via = &tunnel_hop; /* the provider's one-hop route: the neighbor */
        }
    }
    /* RFC 4861 §5.2: longest prefix match; RFC 4443 §3.1 code 0 without a route. */
    const tern_fib_route_t *r = (out == NULL) ? tern_fib_lookup(&ip->fib, &hdr->dst, ipv6_now(ip)) : NULL;
    if (out == NULL && r != NULL) {
        out = ipv6_find_if(ip, r->if_index);
    }
    if (out == NULL) {
        refuse(ip, pkt, TERN_IPV6_FWD_NO_ROUTE, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_NO_ROUTE, 0);
        return;
    }
    tern_ipv6_addr_t next_hop = (via != NULL)                                            ? *via
                                : (r == NULL || tern_ipv6_addr_is_unspecified(&r->next_hop)) ? hdr->dst
                                                                                             : r->next_hop;
    /* RFC 6550 §11.2, RFC 6553 §4: the RPL Option, checked and updated in
     * place, or removed leaving the RPL domain (rpi.c). */
    tern_ipv6_repr_t fwd = *hdr;
    if (ipv6_rpi_forward(ip, pkt, &fwd, &payload_len, &out, &next_hop, via != NULL) < 0) {
        return;
    }
    /* RFC 8200 §5, RFC 4443 §3.2: routers do not fragment; Packet Too Big
     * carries the MTU of the next-hop link. */
    size_t len = TERN_IPV6_HDR_LEN + payload_len;
    uint16_t mtu = link_mtu(out);
    if (len > mtu) {
        refuse(ip, pkt, TERN_IPV6_FWD_TOO_BIG, TERN_ICMPV6_PACKET_TOO_BIG, 0, mtu);
        return;
    }
    /* Link padding goes; the head snip is private (the receive path made it so). */
    if (pkt->size > len && tern_pktbuf_realloc_data(pb, pkt, len) < 0) {
        refuse(ip, pkt, TERN_IPV6_RX_NOMEM, 0, 0, 0);
        return;
    }
    fwd.hop_limit = (uint8_t)(hdr->hop_limit - 1u);
    (void)tern_ipv6_emit(&fwd, pkt->data, pkt->size);
    /* [IPV6, NETIF (in)] becomes [NETIF (out), IPV6]. */
    tern_pkt_t *in_netif = pkt->next;
    pkt = tern_pktbuf_remove_snip(pb, pkt, in_netif);
    tern_netif_t *netif = out->netif;
    tern_pkt_t *frame = tern_netif_hdr_build(pb, pkt, netif->l2addr, netif->l2addr_len, NULL, 0);
    if (frame == NULL) {
        refuse(ip, pkt, TERN_IPV6_TX_NOMEM, 0, 0, 0);
        return;
    }
    tern_netif_hdr_t *nhdr = frame->data;
    nhdr->if_index = netif->index;
    ipv6_count(ip, TERN_IPV6_FWD_PACKETS);
    if (netif->l2addr_len == 0) {
        /* No link addresses (loopback): nothing to resolve. */
        if (tern_netif_send(ip->module.stack, frame) == 0) {
            ipv6_count(ip, TERN_IPV6_TX_PACKETS);
        }
        return;
    }
    ipv6_resolve_send(ip, out, &next_hop, frame); /* neighbor cache, or 6LoWPAN rules */
}

int ipv6_forward_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    tern_ipv6_route_config_t cfg;
    if (opt->data_len != sizeof(cfg)) {
        return -EINVAL;
    }
    memcpy(&cfg, opt->data, sizeof(cfg));
    if (cfg.prefix_len > 128u) {
        return -EINVAL;
    }
    tern_ipv6_if_t *ipif = ipv6_find_if(ip, opt->context);
    if (opt->opt == TERN_NETOPT_IPV6_ROUTE_DEL) {
        if (opt->context != 0 && ipif == NULL) {
            return -ENODEV;
        }
        unsigned n = tern_fib_remove(&ip->fib, &cfg.prefix, cfg.prefix_len, opt->context,
                                     tern_ipv6_addr_is_unspecified(&cfg.next_hop) ? NULL : &cfg.next_hop);
        return (n == 0) ? -ENOENT : (int)sizeof(cfg);
    }
    if (ipif == NULL) {
        return -ENODEV;
    }
    if (tern_ipv6_addr_is_multicast(&cfg.prefix) || tern_ipv6_addr_is_multicast(&cfg.next_hop)) {
        return -EINVAL; /* no multicast routing */
    }
    if (cfg.origin > TERN_FIB_ROUTING) {
        return -EINVAL;
    }
    /* A routing protocol's routes (RPL, RFC 6550 §9.8) carry their lifetime. */
    uint64_t expires = (cfg.lifetime_s == 0) ? TERN_FIB_INFINITE
                                             : ipv6_now(ip) + (uint64_t)cfg.lifetime_s * 1000000u;
    int res = tern_fib_add(&ip->fib, &cfg.prefix, cfg.prefix_len, &cfg.next_hop, ipif->netif->index,
                           expires, (tern_fib_origin_t)cfg.origin, 0);
    return (res < 0) ? res : (int)sizeof(cfg);
}
