/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL Packet Information in the IPv6 module (tern/ipv6/rpi.h):
 *        the RPL Option added to packets we originate, checked and updated
 *        in packets we forward (loop detection), removed from packets that
 *        leave the RPL domain.
 *
 * Read first: RFC 6550 §11.2 (11.2.1: the RPI's fields; 11.2.2.1 instance;
 * 11.2.2.2 rank error; 11.2.2.3 forwarding error), RFC 6553 §3-§5,
 * RFC 9008 §4.3 and §7 (the RPI at the edge of the RPL domain), RFC 8200
 * §4.2-§4.3.
 *
 * Choices (docs/RPL.md, "Loop detection"):
 * - SenderRank carries the sender's rank (not DAGRank(rank)) and is
 *   compared as DAGRank on both sides (RFC 6550 §3.5.1: ranks are compared
 *   by their integer part). The source writes its own rank too: RFC 6553
 *   §3's "zero by the source" would make every upward packet a rank error
 *   at its first router under §11.2.2.2's rule.
 * - Direction: a packet goes up when its next hop is the preferred parent,
 *   down otherwise (a DAO route, a source route; the root sends everything
 *   down).
 * - Only packets that arrive on an RPL interface are judged; packets from
 *   outside keep whatever they carry (RFC 8200 forbids inserting a header
 *   on the way; encapsulation is tunnel.c's business).
 * - A packet leaving through a non-RPL interface loses its Hop-by-Hop header
 *   when the header holds only the RPL Option and padding (RFC 9008 §7: the
 *   RPI must not leave the RPL domain), so that hosts such as Linux, which
 *   discard option 0x63 ("01" action bits, RFC 8200 §4.2), accept it.
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/netapi.h"
#include "tern/netif_hdr.h"
#include "tern/wire/rpl_hbh.h"

_Static_assert(TERN_CONF_RPL, "rpi.c is left out of the build when TERN_CONF_RPL is 0 (set it through CMake)");

int ipv6_rpi_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    tern_ipv6_rpl_state_t st;
    if (opt->data_len != sizeof(st)) {
        return -EINVAL;
    }
    memcpy(&st, opt->data, sizeof(st));
    if (st.option_type != TERN_RPL_HBH_OPT_TYPE && st.option_type != TERN_RPL_HBH_OPT_TYPE_RFC9008) {
        return -EINVAL;
    }
    if (st.min_hop_rank_increase == 0) {
        return -EINVAL; /* DAGRank() divides by it */
    }
    if (!IPV6_RPL_PARENT && !tern_ipv6_addr_is_unspecified(&st.parent)) {
        return -EINVAL; /* a root-only build (no objective function) has no parent */
    }
    memcpy(&ip->rpl, &st, sizeof(st)); /* byte for byte, padding too: GET returns the bytes SET */
    return (int)sizeof(st);
}

int ipv6_rpi_get_option(const tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    if (opt->data_len < sizeof(ip->rpl)) {
        return -EOVERFLOW;
    }
    memcpy(opt->data, &ip->rpl, sizeof(ip->rpl));
    return (int)sizeof(ip->rpl);
}

bool ipv6_rpi_is_rpl_if(const tern_ipv6_t *ip, uint16_t if_index)
{
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        if (if_index != 0 && ip->rpl.if_index[i] == if_index) {
            return true;
        }
    }
    return false;
}

size_t ipv6_rpi_len(const tern_ipv6_t *ip, const tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst)
{
    /* RFC 6550 §11.2, RFC 6553 §4: datagrams a node of the DODAG sends
     * through the RPL domain; never to link-local or multicast destinations
     * (RFC 9008 §4.1: not for packets that stay on the link). */
    if (!ip->rpl.running || !ip->rpl.joined || ipif == NULL || !ipv6_rpi_is_rpl_if(ip, ipif->netif->index) ||
        tern_ipv6_addr_is_multicast(dst) || tern_ipv6_addr_is_link_local(dst)) {
        return 0;
    }
    return TERN_RPL_HBH_HDR_LEN;
}

/* Up: towards the preferred parent (RFC 6550 §11.2: O "the packet is expected to progress Up"). */
static bool goes_up(const tern_ipv6_t *ip, const tern_ipv6_addr_t *next_hop, bool source_routed)
{
    return IPV6_RPL_PARENT && !source_routed && !ip->rpl.root && tern_ipv6_addr_equal(next_hop, &ip->rpl.parent);
}

tern_pkt_t *ipv6_rpi_prepend(tern_ipv6_t *ip, tern_pkt_t *payload, uint8_t nh, const tern_ipv6_addr_t *next_hop,
                             bool source_routed)
{
    tern_pkt_t *h = tern_pktbuf_add(ipv6_pktbuf(ip), payload, NULL, TERN_RPL_HBH_HDR_LEN, TERN_NETTYPE_IPV6_EXT);
    if (h == NULL) {
        return NULL;
    }
    tern_rpl_hbh_opt_t o = {
        .type = ip->rpl.option_type,
        .down = !goes_up(ip, next_hop, source_routed),
        .rank_error = false,
        .forwarding_error = false,
        .instance_id = ip->rpl.instance_id,
        .sender_rank = ip->rpl.rank,
    };
    (void)tern_rpl_hbh_emit(&o, nh, h->data, h->size);
    ipv6_count(ip, TERN_IPV6_RPI_ADDED);
    return h;
}

/* ------------------------------------------------------------ forwarding */

static void report(tern_ipv6_t *ip, tern_ipv6_rpi_event_t ev, const tern_ipv6_addr_t *target)
{
    if (ip->rpl.event != NULL) {
        ip->rpl.event(ip->rpl.ctx, ev, target);
    }
}

static int drop(tern_ipv6_t *ip, tern_pkt_t *pkt, unsigned counter)
{
    ipv6_count(ip, counter);
    tern_pktbuf_release(ipv6_pktbuf(ip), pkt);
    return -EPROTO;
}

/* Does the Hop-by-Hop header @p h of @p len octets hold nothing but RPL Options and padding? */
static bool only_rpi(const uint8_t *h, size_t len)
{
    tern_ipv6_opt_iter_t it;
    tern_ipv6_opt_t opt;
    int r;
    tern_ipv6_opt_iter_init(&it, h, len);
    while ((r = tern_ipv6_opt_next(&it, &opt)) > 0) {
        if (opt.type != TERN_RPL_HBH_OPT_TYPE && opt.type != TERN_RPL_HBH_OPT_TYPE_RFC9008) {
            return false;
        }
    }
    return r == 0;
}

/* Remove the Hop-by-Hop header (@p hlen octets after the fixed header) of the packet in @p pkt, in place. */
static void strip(tern_ipv6_t *ip, tern_pkt_t *pkt, tern_ipv6_repr_t *hdr, size_t *payload_len, size_t hlen)
{
    uint8_t *b = pkt->data;
    hdr->next_header = b[TERN_IPV6_HDR_LEN];
    memmove(b + TERN_IPV6_HDR_LEN, b + TERN_IPV6_HDR_LEN + hlen, *payload_len - hlen);
    *payload_len -= hlen;
    hdr->payload_len = (uint16_t)*payload_len;
    (void)tern_pktbuf_realloc_data(ipv6_pktbuf(ip), pkt, TERN_IPV6_HDR_LEN + *payload_len); /* shrinking: in place */
    (void)tern_ipv6_emit(hdr, b, TERN_IPV6_HDR_LEN); /* an ICMPv6 error quoting it sees the packet as it is */
    ipv6_count(ip, TERN_IPV6_RPI_REMOVED);
}

/*
 * The neighbor that sent us the packet: the link-local address with the
 * interface identifier of the frame's source (RFC 4862 §5.3, RFC 4944 §6,
 * RFC 6775 §5.7: how RPL nodes form it). @return false if unknown.
 */
static bool previous_hop(const tern_netif_hdr_t *in, tern_ipv6_addr_t *out)
{
    memset(out, 0, sizeof(*out));
    out->u8[0] = 0xfe;
    out->u8[1] = 0x80;
    return in->src_len != 0 && tern_ipv6_iid_from_l2addr(out, in->src, in->src_len) == 0;
}

/*
 * §11.2.2.3: a packet came back from the child @p from (NULL: unknown) with
 * F set. Remove the downward route that sent it there (the FIB's now; RPL's
 * own table through the event), clear F and try again: down by another
 * route if there is one. A packet going down never goes up again (§11.2.2.3),
 * so without one it is dropped; RPL asks its sub-DODAG for fresh DAOs
 * (a DTSN increment, §9.6), which brings the route back if the target is
 * still below us. @return false: drop it.
 */
static bool forwarding_error_back(tern_ipv6_t *ip, const tern_ipv6_addr_t *dst, const tern_ipv6_addr_t *from,
                                  tern_ipv6_if_t **out, tern_ipv6_addr_t *next_hop)
{
    const tern_fib_route_t *r = tern_fib_lookup(&ip->fib, dst, ipv6_now(ip));
    if (r != NULL && r->origin == TERN_FIB_ROUTING && r->len > 0 &&
        (from == NULL || tern_ipv6_addr_equal(&r->next_hop, from))) {
        tern_ipv6_addr_t prefix = r->prefix;
        tern_ipv6_addr_t via = r->next_hop;
        (void)tern_fib_remove(&ip->fib, &prefix, r->len, r->if_index, &via);
        ipv6_count(ip, TERN_IPV6_RPI_ROUTE_REMOVED);
        report(ip, TERN_IPV6_RPI_EVENT_ROUTE_FAILED, dst);
    }
    /* Another route learnt from DAOs (not the default route, not an on-link prefix). */
    r = tern_fib_lookup(&ip->fib, dst, ipv6_now(ip));
    tern_ipv6_if_t *ipif = (r != NULL && r->origin == TERN_FIB_ROUTING && r->len > 0) ? ipv6_find_if(ip, r->if_index)
                                                                                     : NULL;
    if (ipif == NULL) {
        return false;
    }
    *out = ipif;
    *next_hop = *(tern_ipv6_addr_is_unspecified(&r->next_hop) ? dst : &r->next_hop); /* one copy, not two */
    return ipv6_rpi_is_rpl_if(ip, ipif->netif->index) && !goes_up(ip, next_hop, false) &&
           (from == NULL || !tern_ipv6_addr_equal(next_hop, from));
}

/* noinline: inlined into ipv6_forward_via() with LTO, its locals stayed on the stack under
 * the ICMPv6 error that forwarding may send after it (router image: 208 -> 120 B there). */
__attribute__((noinline)) int ipv6_rpi_forward(tern_ipv6_t *ip, tern_pkt_t *pkt, tern_ipv6_repr_t *hdr,
                                               size_t *payload_len, tern_ipv6_if_t **out, tern_ipv6_addr_t *next_hop,
                                               bool source_routed)
{
    const tern_ipv6_rpl_state_t *st = &ip->rpl;
    if (!st->running || hdr->next_header != TERN_IPV6_NH_HOP_BY_HOP) {
        return 0;
    }
    uint8_t *h = (uint8_t *)pkt->data + TERN_IPV6_HDR_LEN;
    tern_ipv6_ext_t ext;
    tern_rpl_hbh_opt_t o;
    size_t offset = 0;
    if (tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_HOP_BY_HOP, h, *payload_len) < 0) {
        return 0; /* the option check before us drops what is malformed */
    }
    int found = tern_rpl_hbh_find(&o, &offset, h, ext.len);
    if (found == 0) {
        return 0;
    }
    if (found < 0) {
        return drop(ip, pkt, TERN_IPV6_RPI_MALFORMED);
    }
    const tern_netif_hdr_t *in = (pkt->next != NULL) ? tern_netif_hdr_get(pkt->next) : NULL;
    if (in == NULL || !ipv6_rpi_is_rpl_if(ip, in->if_index)) {
        return 0; /* not from our RPL domain: not ours to judge */
    }
    /* One IPv6 interface (TERN_CONF_IPV6_IFS 1): *out is the RPL interface the packet came from. */
    if (TERN_CONF_IPV6_IFS > 1 && !ipv6_rpi_is_rpl_if(ip, (*out)->netif->index)) {
        /* RFC 6553 §5, RFC 9008 §7: the RPI stays in the RPL domain. */
        if (only_rpi(h, ext.len)) {
            strip(ip, pkt, hdr, payload_len, ext.len);
        }
        return 0;
    }
    /* §11.2.2.1: only along the DODAG of the packet's instance. */
    if (!st->joined || o.instance_id != st->instance_id) {
        return drop(ip, pkt, TERN_IPV6_RPI_UNKNOWN_INSTANCE);
    }
    tern_ipv6_addr_t from;
    bool from_known = previous_hop(in, &from);
    if (o.forwarding_error && o.down && st->storing) {
        if (!forwarding_error_back(ip, &hdr->dst, from_known ? &from : NULL, out, next_hop)) {
            return drop(ip, pkt, TERN_IPV6_RPI_DROPPED_FWD_ERROR);
        }
        o.forwarding_error = false;
    } else if (!o.forwarding_error) {
        /* A packet going up from our own preferred parent: it routes up
         * through us, a loop for sure (§8.2.1: it is in our sub-DODAG). RPL
         * drops that parent (rpi_state.c); the packet is dropped, it would
         * only come back. */
        if (IPV6_RPL_PARENT && !o.down && from_known && tern_ipv6_addr_equal(&from, &st->parent)) {
            report(ip, TERN_IPV6_RPI_EVENT_PARENT_LOOP, &from);
            report(ip, TERN_IPV6_RPI_EVENT_RANK_ERROR, NULL);
            return drop(ip, pkt, TERN_IPV6_RPI_DROPPED_LOOP);
        }
        /* §11.2.2.2: down from a node of higher rank, or up from one of
         * lower rank, is an inconsistency. A packet sent back with F goes
         * up on purpose and is not judged. */
        uint16_t sender = (uint16_t)(o.sender_rank / st->min_hop_rank_increase);
        uint16_t mine = (uint16_t)(st->rank / st->min_hop_rank_increase);
        if ((o.down && sender > mine) || (!o.down && sender < mine)) {
            report(ip, TERN_IPV6_RPI_EVENT_RANK_ERROR, NULL); /* Trickle reset */
            if (o.rank_error) {
                return drop(ip, pkt, TERN_IPV6_RPI_DROPPED_RANK); /* the second one on the path */
            }
            o.rank_error = true;
            ipv6_count(ip, TERN_IPV6_RPI_RANK_ERROR);
        }
    }
    bool up = goes_up(ip, next_hop, source_routed);
    if (o.down && up && st->storing) {
        /* §11.2.2.3: marked down, and we have no downward route: F set, "sent
         * back to the parent that passed it" (the frame's source; our
         * preferred parent if that is unknown). */
        o.forwarding_error = true;
        ipv6_count(ip, TERN_IPV6_RPI_FORWARDING_ERROR);
        tern_ipv6_if_t *back = ipv6_find_if(ip, in->if_index);
        if (from_known && back != NULL) {
            *out = back;
            *next_hop = from;
        }
    } else {
        o.down = !up;
    }
    o.sender_rank = st->rank;
    (void)tern_rpl_hbh_opt_update(&o, h, ext.len, offset);
    ipv6_count(ip, TERN_IPV6_RPI_FORWARDED);
    return 0;
}
