/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IPv6-in-IPv6 (RFC 2473) in the IPv6 module: the tunnel exit every
 *        node is (decapsulation of next header 41 addressed to us), and the
 *        tunnel entry a source-routing root is for the packets it forwards
 *        (RFC 6554 §4.1, RFC 9008).
 *
 * Read first: RFC 2473 §3 (entry and exit), §4 (recursive encapsulation), §6.7 and
 * §7.1 (tunnel MTU), §8.2 (errors for the original packet);
 * RFC 8200 §4 (no header is inserted into a packet on its way), RFC 6554
 * §4.1 ("the RPL border router MUST use IPv6-in-IPv6 tunnelling" to add a
 * Source Routing Header to a packet it did not originate); RFC 9008 §7
 * (the root encapsulates to the RPL-aware destination itself, which
 * decapsulates).
 *
 * **Exit** (ipv6_tunnel_decap()). A packet for one of our addresses whose
 * last next header is 41 (after the extension headers the receive path
 * walks: a Source Routing Header with Segments Left 0 is one) loses its
 * outer headers; the inner packet goes through the receive path as if it
 * had arrived on the same interface: delivered when it is for us,
 * otherwise by the forwarding rules (a router), or dropped as not for us
 * (a host). The exit does not touch the inner hop limit (RFC 2473 §3.3;
 * the entry decremented it when it forwarded the packet into the tunnel,
 * §3.1). Nesting (RFC 2473 §4): Tern decapsulates
 * once per received packet (TERN_IPV6_TUNNEL_DEPTH_MAX); an inner packet
 * that is again IPv6-in-IPv6 for us is dropped (tun_nested). Reason: RFC
 * 9008 needs one level, and a packet that tunnels to us inside a tunnel to
 * us only costs work (RFC 6169 lists such tunnel abuse). An inner packet whose header does not
 * parse or whose Payload Length exceeds what the outer packet carries is
 * dropped (tun_malformed); the rest of its checks are the receive path's.
 * No ICMPv6 error answers a decapsulation drop (Tern's choice: the outer
 * source is a tunnel entry that could not act on it).
 *
 * **Entry** (ipv6_tunnel_forward(), from forward.c). A router with a source
 * route provider (RPL's non-storing root) asks it, before its forwarding
 * table, for a route to the destination of each packet it forwards. Routes
 * of one hop go to the neighbor as they are (no header to add). Longer
 * routes: the original packet, its hop limit decremented by the
 * forwarding rules (RFC 2473 §3.1: the entry forwards it into the tunnel),
 * goes inside an outer header (source: our address by RFC 6724 selection
 * for the destination; destination: the final destination, the RPL-aware
 * node that decapsulates, RFC 9008 §7; hop limit: the interface's
 * default; traffic class copied from the inner header, flow label 0) with
 * the Source Routing Header of the route (ipv6_srh_prepend()), the outer
 * destination then the first hop (RFC 6554 §4.1). In a DODAG the RPL Option
 * (RFC 6553, a Hop-by-Hop header, rpi.c) goes between the outer header and
 * the Source Routing Header. A packet that came up from the mesh has its
 * RPL Option checked and updated by the root first (RFC 6550 §11.2.2,
 * ipv6_rpi_forward(): the inner option becomes the root's, going down).
 * A *storing* root is a tunnel entry too (storing_root_route(), RFC 9008
 * §7.2.2): packets from outside the RPL domain for a DAO target get the
 * outer header and the RPI, no Source Routing Header, and go to the DAO
 * route's next hop; the routers route the outer packet hop by hop.
 * Tunnel MTU (RFC 2473 §6.7, §7.1): the path MTU to the first hop minus the
 * encapsulating headers (outer header, RPI, SRH). An original packet above
 * it:
 * - of 1280 bytes or less (RFC 2473 §7.1 (a)) is encapsulated and the
 *   tunnel packet fragmented (RFC 8200 §4.5, ipv6_frag_split() in frag.c;
 *   counted as tun_frag, and frag_ok / frag_sent): the tunnel entry is the
 *   tunnel packet's source, and the source of the original packet need not
 *   go below 1280 (RFC 8201 §4: it ignores a smaller Packet Too Big). The
 *   outer header, the RPI and the SRH are the unfragmentable part that
 *   every fragment carries, so the routers on the way source-route each
 *   fragment (srh.c looks at the headers before the Fragment header only);
 *   the Fragment header names 41. The exit reassembles (reass.c) before its
 *   receive path reaches next header 41, then decapsulates (ipv6.c).
 * - above 1280 (§7.1 (b)) is answered with Packet Too Big carrying
 *   max(tunnel MTU, 1280) to its source (§8.2; RFC 8201; RFC 4443 §3.2),
 *   counted as tun_too_big.
 * Built without IPv6 fragmentation (TERN_CONF_IPV6_FRAG 0), every packet
 * above the tunnel MTU gets Packet Too Big with the tunnel MTU itself, even
 * below 1280 (which hosts ignore: keep packets into the mesh within it).
 *
 * **Errors** (ipv6_tunnel_error_receive(), RFC 2473 §8.2): an ICMPv6 error
 * about a tunnel packet we sent becomes Destination Unreachable code 3 to
 * the inner packet's source, quoting the inner packet; Packet Too Big only
 * lowers the path MTU, hence the tunnel MTU.
 *
 * Not done: the Tunnel Encapsulation Limit option (RFC 2473 §6.6), neither
 * sent nor honoured; tunnelling from a 6LR up to the root (RFC 9008 §7:
 * packets of RPL-unaware leaves).
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/netif_hdr.h"
#include "tern/wire/icmpv6.h"

/* ------------------------------------------------------------ exit */

tern_pkt_t *ipv6_tunnel_decap(tern_ipv6_t *ip, tern_pkt_t *pkt, unsigned depth)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    if (depth >= TERN_IPV6_TUNNEL_DEPTH_MAX) {
        ipv6_count(ip, TERN_IPV6_TUN_NESTED); /* RFC 2473 §4, see the file comment */
        tern_pktbuf_release(pb, pkt);
        return NULL;
    }
    tern_ipv6_repr_t inner;
    if (tern_ipv6_parse(&inner, pkt->data, pkt->size) < 0 || tern_ipv6_check_len(&inner, pkt->size) < 0) {
        ipv6_count(ip, TERN_IPV6_TUN_MALFORMED);
        tern_pktbuf_release(pb, pkt);
        return NULL;
    }
    tern_pkt_t *netif = pkt->next;
    while (netif != NULL && netif->type != TERN_NETTYPE_NETIF) {
        netif = netif->next;
    }
    if (netif == NULL) {
        ipv6_count(ip, TERN_IPV6_RX_NO_IF);
        tern_pktbuf_release(pb, pkt);
        return NULL;
    }
    /* [inner, IPV6_EXT?, IPV6, NETIF] -> [inner, NETIF]; the receive path
     * made the snips before NETIF its own (start_write, mark). */
    while (pkt->next != netif) {
        pkt = tern_pktbuf_remove_snip(pb, pkt, pkt->next);
    }
    pkt->type = TERN_NETTYPE_IPV6;
    ipv6_count(ip, TERN_IPV6_TUN_DECAP);
    return pkt;
}

/* ------------------------------------------------------------ entry */

/* Drop the forwarded @p pkt (reception order) counted as @p counter, with Packet Too Big carrying @p mtu if not 0. */
static void tunnel_refuse(tern_ipv6_t *ip, tern_pkt_t *pkt, unsigned counter, uint32_t mtu)
{
    ipv6_count(ip, counter);
    if (mtu != 0) {
        ipv6_icmpv6_error(ip, pkt, TERN_ICMPV6_PACKET_TOO_BIG, 0, mtu);
    } else {
        tern_pktbuf_release(ipv6_pktbuf(ip), pkt);
    }
}

/* What every packet of one tunnel packet shares (one whole, or each of its fragments). */
typedef struct {
    tern_ipv6_if_t *ipif;
    tern_ipv6_addr_t first_hop; /* the neighbor to send to */
    tern_ipv6_repr_t outer;     /* source, final destination, traffic class, hop limit */
    size_t rpi_len;             /* 0: no RPL Option */
    size_t srh_len;             /* the Source Routing Header the fragments were sized with (0: none) */
    bool source_routed;         /* the provider's route (non-storing); else a storing root's DAO route */
} tunnel_t;

/*
 * Put the outer header, the RPL Option's Hop-by-Hop header and the Source
 * Routing Header before @p payload (the inner packet, @p nh 41; or one
 * fragment of the tunnel packet, @p nh 44: RFC 8200 §4.5, these headers are
 * every fragment's unfragmentable part) and send it to the first hop.
 * Consumes @p payload. @return 0; -ENOMEM (counted tx_nomem).
 */
static int tunnel_send(tern_ipv6_t *ip, const tunnel_t *t, tern_pkt_t *payload, uint8_t nh)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tern_ipv6_addr_t wire_dst = t->outer.dst;
    /* A storing root's tunnel has no Source Routing Header: the routers
     * route the outer packet hop by hop along their DAO routes (RFC 9008 §7.1). */
    tern_pkt_t *srh = (t->srh_len > 0) ? ipv6_srh_prepend(ip, payload, nh, &wire_dst) : payload;
    uint8_t srh_nh = (t->srh_len > 0) ? TERN_IPV6_NH_ROUTING : nh;
    /* RPI: the RPL Option's Hop-by-Hop header (RFC 6553, RFC 9008 §7) in the
     * outer packet, before the Source Routing Header (rpi.c; 0 outside a DODAG). */
    size_t rpi_len = t->rpi_len;
    if (srh != NULL && rpi_len > 0) {
        tern_pkt_t *hbh = ipv6_rpi_prepend(ip, srh, srh_nh, &t->first_hop, true);
        srh = (hbh != NULL) ? hbh : srh;
        rpi_len = (hbh != NULL) ? rpi_len : 0u; /* no buffer for it: the tunnel packet goes without */
    }
    tern_pkt_t *outer = (srh != NULL) ? tern_pktbuf_add(pb, srh, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6) : NULL;
    tern_netif_t *netif = t->ipif->netif;
    tern_pkt_t *frame = (outer != NULL) ? tern_netif_hdr_build(pb, outer, netif->l2addr, netif->l2addr_len, NULL, 0)
                                        : NULL;
    if (frame == NULL) {
        ipv6_count(ip, TERN_IPV6_TX_NOMEM);
        tern_pktbuf_release(pb, (outer != NULL) ? outer : (srh != NULL) ? srh : payload);
        return -ENOMEM;
    }
    tern_ipv6_repr_t repr = t->outer;
    repr.payload_len = (uint16_t)tern_pkt_len(srh);
    repr.next_header = (rpi_len > 0) ? TERN_IPV6_NH_HOP_BY_HOP : srh_nh;
    repr.dst = wire_dst;
    (void)tern_ipv6_emit(&repr, outer->data, outer->size);
    tern_netif_hdr_t *nhdr = frame->data;
    nhdr->if_index = netif->index;
    if (netif->l2addr_len == 0) {
        ipv6_transmit(ip, frame); /* no link addresses (loopback): nothing to resolve */
        return 0;
    }
    ipv6_resolve_send(ip, t->ipif, &t->first_hop, frame);
    return 0;
}

/* ipv6_frag_split()'s sender: one fragment of the tunnel packet. */
static int tunnel_send_fragment(tern_ipv6_t *ip, void *ctx, tern_pkt_t *frag)
{
    const tunnel_t *t = ctx;
    if (!t->source_routed) {
        return tunnel_send(ip, t, frag, TERN_IPV6_NH_FRAGMENT); /* a DAO route: the first hop stays */
    }
    /* The route again (ipv6_srh_prepend() takes the last one asked for):
     * sending the fragment before may have asked the provider about another
     * destination (a unicast NS through ipv6_output()). */
    tern_ipv6_if_t *ipif = t->ipif;
    tern_ipv6_addr_t first_hop;
    if (ipv6_srh_route(ip, &t->outer.dst, &ipif, &first_hop) != 1 || ipv6_srh_len(ip) != t->srh_len ||
        !tern_ipv6_addr_equal(&first_hop, &t->first_hop)) {
        ipv6_count(ip, TERN_IPV6_TX_NO_ROUTE);
        tern_pktbuf_release(ipv6_pktbuf(ip), frag);
        return -ENETUNREACH;
    }
    return tunnel_send(ip, t, frag, TERN_IPV6_NH_FRAGMENT);
}

/*
 * A storing root's tunnel (RFC 9008 §7.2.2, "Internet to RAL"): a packet
 * that entered from outside the RPL domain (it arrived on an interface that
 * is not RPL's) for a target of the DODAG goes down inside an outer header
 * with the RPI, addressed to the target itself, which decapsulates; the
 * routers route it hop by hop along their DAO routes and check the RPI
 * (RFC 6550 §11.2.2). A target: a /128 route from the routing protocol
 * (TERN_FIB_ROUTING) out of an RPL interface, i.e. an address a node
 * announced in its own DAO, hence an RPL-aware node that decapsulates.
 * Anything else goes as it is, without an RPI, as before:
 * - a neighbor (the next hop has the destination's interface identifier,
 *   RFC 4862 §5.3, RFC 6775 §5.7): no router on the way to check an RPI,
 *   as for the non-storing root's one-hop routes;
 * - a destination reached by a shorter prefix (an on-link /64, a DAO
 *   prefix) is not known to be RPL-aware: RFC 9008 §7.2.4 ("Internet to
 *   RUL") wants the tunnel to end at the 6LR that serves such a leaf, which a
 *   storing root does not know (Tern has no RUL registrations, RFC 9010),
 *   and a tunnel to a node that does not decapsulate would lose the
 *   packet. RPL routers forward packets without an RPI (RFC 6550 §11.2
 *   loop detection then does not apply to them).
 * @return true with the interface and first hop of the tunnel set.
 */
static bool storing_root_route(tern_ipv6_t *ip, const tern_ipv6_repr_t *hdr, const tern_pkt_t *pkt,
                               tern_ipv6_if_t **ipif, tern_ipv6_addr_t *first_hop)
{
    const tern_ipv6_rpl_state_t *st = &ip->rpl;
    /* Two IPv6 interfaces at least: the packet's (not RPL's) and the route's
     * (RPL's, found by ipv6_find_if() below). A node with one
     * (TERN_CONF_IPV6_IFS 1) has no outside of the RPL domain to tunnel from. */
    if (TERN_CONF_IPV6_IFS < 2 || !st->running || !st->joined || !st->root || !st->storing) {
        return false;
    }
    const tern_netif_hdr_t *in = (pkt->next != NULL) ? tern_netif_hdr_get(pkt->next) : NULL;
    if (in == NULL || ipv6_rpi_is_rpl_if(ip, in->if_index)) {
        return false; /* from the mesh: it carries its own RPI (or is not ours to change) */
    }
    const tern_fib_route_t *r = tern_fib_lookup(&ip->fib, &hdr->dst, ipv6_now(ip));
    if (r == NULL || r->origin != TERN_FIB_ROUTING || r->len != 128u || !ipv6_rpi_is_rpl_if(ip, r->if_index) ||
        tern_ipv6_addr_is_unspecified(&r->next_hop) || memcmp(&r->next_hop.u8[8], &hdr->dst.u8[8], 8) == 0) {
        return false;
    }
    *ipif = ipv6_find_if(ip, r->if_index);
    *first_hop = r->next_hop;
    return *ipif != NULL;
}

int ipv6_tunnel_forward(tern_ipv6_t *ip, const tern_ipv6_repr_t *hdr, size_t payload_len, tern_pkt_t *pkt,
                        tern_ipv6_if_t **out, tern_ipv6_addr_t *next_hop)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tunnel_t t = { .ipif = NULL };
    size_t srh_len = 0;
    if (ipv6_srh_route(ip, &hdr->dst, &t.ipif, &t.first_hop) == 1) {
        srh_len = ipv6_srh_len(ip);
        if (srh_len == 0) {
            /* One hop: a neighbor, reached without any header added. */
            *out = t.ipif;
            *next_hop = t.first_hop;
            return 0;
        }
        t.source_routed = true;
    } else if (!storing_root_route(ip, hdr, pkt, &t.ipif, &t.first_hop)) {
        return 0; /* the forwarding table decides */
    }
    tern_ipv6_if_t *ipif = t.ipif;
    t.srh_len = srh_len;
    /* RFC 6550 §11.2.2: the root checks the RPL Option of a packet that
     * came up from the mesh (instance, rank; O and SenderRank become the
     * root's, down) before it goes down inside the tunnel; the inner packet
     * keeps it (rpi.c; nothing for packets from outside the RPL domain). */
    tern_ipv6_repr_t checked = *hdr;
    size_t checked_len = payload_len;
    tern_ipv6_if_t *rpi_out = ipif;
    tern_ipv6_addr_t rpi_hop = t.first_hop;
    if (ipv6_rpi_forward(ip, pkt, &checked, &checked_len, &rpi_out, &rpi_hop, true) < 0) {
        return 1; /* dropped and counted */
    }
    /* The RPI slot (rpi.c): its length counts in the tunnel MTU. */
    t.rpi_len = ipv6_rpi_len(ip, ipif, &hdr->dst);
    size_t overhead = TERN_IPV6_HDR_LEN + t.rpi_len + srh_len;
    /* The inner packet as the RPI check left it: without the RPI when the
     * tunnel leaves the RPL domain (rpi.c strips it, RFC 6553 §5). */
    size_t inner_len = TERN_IPV6_HDR_LEN + checked_len;
#if IPV6_SOURCE_ROUTES
    uint16_t mtu = ipv6_path_mtu(ip, ipif, t.source_routed ? &ip->source_route.hops[0] : &t.first_hop);
#else
    uint16_t mtu = ipv6_path_mtu(ip, ipif, &t.first_hop); /* a storing root's DAO route: no provider in the build */
#endif
    /* RFC 2473 §7.1 (a): an original packet of at most 1280 bytes that does
     * not fit the tunnel MTU is encapsulated and the tunnel packet
     * fragmented (frag.c), since its source need not go below 1280 (RFC
     * 8201 §4). Without IPv6 fragmentation (TERN_CONF_IPV6_FRAG 0) it gets
     * Packet Too Big with the tunnel MTU instead, as larger packets do. */
    bool fragment = inner_len + overhead > mtu;
    if (fragment && (!TERN_CONF_IPV6_FRAG || inner_len > TERN_IPV6_MIN_MTU)) {
        /* RFC 2473 §6.7, §7.1 (b), §8.2: the tunnel MTU is the path MTU less
         * the encapsulating headers; the original source learns it (RFC
         * 8201), raised to 1280 when fragmentation carries packets up to that. */
        uint32_t tunnel_mtu = (mtu > overhead) ? (uint32_t)(mtu - overhead) : 1u;
        if (TERN_CONF_IPV6_FRAG && tunnel_mtu < TERN_IPV6_MIN_MTU) {
            tunnel_mtu = TERN_IPV6_MIN_MTU;
        }
        tunnel_refuse(ip, pkt, TERN_IPV6_TUN_TOO_BIG, tunnel_mtu);
        return 1;
    }
    if (ipv6_choose_source(ipif, &hdr->dst, &t.outer.src) < 0) {
        tunnel_refuse(ip, pkt, TERN_IPV6_TX_NO_ROUTE, 0);
        return 1;
    }
    /* The original packet, without link padding, hop limit decremented
     * (RFC 8200 §3; forward.c checked it is above 1). */
    if (pkt->size > inner_len && tern_pktbuf_realloc_data(pb, pkt, inner_len) < 0) {
        tunnel_refuse(ip, pkt, TERN_IPV6_RX_NOMEM, 0);
        return 1;
    }
    tern_ipv6_repr_t inner = checked;
    inner.hop_limit = (uint8_t)(hdr->hop_limit - 1u);
    (void)tern_ipv6_emit(&inner, pkt->data, pkt->size);
    /* [inner, NETIF (in)] -> [inner] -> [NETIF (out), IPV6, HBH?, SRH, inner or Fragment + slice]. */
    pkt = tern_pktbuf_remove_snip(pb, pkt, pkt->next);
    t.outer.traffic_class = hdr->traffic_class; /* RFC 2473 §6.4 (a configured value), RFC 6040 §4.1 (ECN copied) */
    t.outer.flow_label = 0;
    t.outer.hop_limit = ipif->cur_hop_limit;
    t.outer.dst = hdr->dst;
    int res;
    if (fragment) {
        /* Every fragment carries the outer header, the RPI and the SRH
         * (RFC 8200 §4.5), so the routers on the way source-route each; the
         * exit reassembles, then decapsulates (ipv6.c, reass.c). */
        res = ipv6_frag_split(ip, mtu, overhead, TERN_IPV6_NH_IPV6, pkt, tunnel_send_fragment, &t);
        if (res == 0) {
            ipv6_count(ip, TERN_IPV6_TUN_FRAG);
        }
    } else {
        res = tunnel_send(ip, &t, pkt, TERN_IPV6_NH_IPV6);
    }
    if (res == 0) {
        ipv6_count(ip, TERN_IPV6_TUN_ENCAP);
        ipv6_count(ip, TERN_IPV6_FWD_PACKETS);
    }
    return 1;
}

/* ------------------------------------------------------------ errors (RFC 2473 §8.2) */

void ipv6_tunnel_error_receive(tern_ipv6_t *ip, const uint8_t *b, size_t len)
{
    tern_icmpv6_error_repr_t err;
    tern_ipv6_repr_t outer;
    if (!ipv6_is_router(ip) || tern_icmpv6_error_parse(&err, b, len) < 0 || err.type == TERN_ICMPV6_PACKET_TOO_BIG ||
        tern_ipv6_parse(&outer, err.invoking, err.invoking_len) < 0 || !ipv6_is_own_address(ip, &outer.src)) {
        return;
    }
    /* The headers a tunnel packet of ours has before the inner one: the RPI's
     * Hop-by-Hop header, the Source Routing Header, the Fragment header of
     * the first fragment (the inner header is only in that one). */
    const uint8_t *q = err.invoking + TERN_IPV6_HDR_LEN;
    size_t left = err.invoking_len - TERN_IPV6_HDR_LEN;
    uint8_t nh = outer.next_header;
    for (unsigned i = 0; i < 3u && nh != TERN_IPV6_NH_IPV6; i++) {
        tern_ipv6_ext_t ext;
        if ((nh != TERN_IPV6_NH_HOP_BY_HOP && nh != TERN_IPV6_NH_ROUTING && nh != TERN_IPV6_NH_FRAGMENT) ||
            tern_ipv6_ext_parse(&ext, nh, q, left) < 0 ||
            (nh == TERN_IPV6_NH_FRAGMENT && ((q[2] << 8 | q[3]) & 0xfff8) != 0)) {
            return;
        }
        nh = ext.next_header;
        q += ext.len;
        left -= ext.len;
    }
    tern_ipv6_repr_t inner;
    if (nh != TERN_IPV6_NH_IPV6 || tern_ipv6_parse(&inner, q, left) < 0 || ipv6_is_own_address(ip, &inner.src)) {
        return; /* not a tunnel packet, the inner header cut off, or our own packet */
    }
    /* §8.2: Hop Limit Exceeded, Unreachable Node and Parameter Problem (Tern
     * sends no Tunnel Encapsulation Limit that one could point at) in the
     * tunnel become "unreachable node" for the original packet: Destination
     * Unreachable code 3, RFC 4443 §3.1. */
    ipv6_count(ip, TERN_IPV6_TUN_ERROR_RELAYED);
    ipv6_icmpv6_error_about(ip, q, left, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_ADDR, 0);
}
