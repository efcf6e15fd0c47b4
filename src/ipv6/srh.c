/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Source routing in the IPv6 module (tern/ipv6/srh.h): the Source
 *        Routing Header put in packets we originate for a source route
 *        provider (RFC 6554 §4.1), and processed on receipt by a router
 *        (§4.2).
 *
 * Read first: RFC 6554 §4.1, §4.2; RFC 8200 §4.4, §8.1 (the upper-layer
 * checksum uses the final destination); RFC 6775 §5.7 (6LoWPAN link-local
 * addresses from the interface identifier).
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6_srh.h"

/* The link-local address with the interface identifier of @p addr (RFC 4291 §2.5.6, RFC 6775 §5.7). */
static void link_local_of(tern_ipv6_addr_t *out, const tern_ipv6_addr_t *addr)
{
    memset(out, 0, sizeof(*out));
    out->u8[0] = 0xfe;
    out->u8[1] = 0x80;
    memcpy(&out->u8[8], &addr->u8[8], 8);
}

#if IPV6_SOURCE_ROUTES /* else inline no-ops (ipv6_internal.h): no source route provider in the build */
int ipv6_srh_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    tern_ipv6_source_router_t cfg;
    if (opt->data_len != sizeof(cfg)) {
        return -EINVAL;
    }
    memcpy(&cfg, opt->data, sizeof(cfg));
    ip->source_router = cfg;
    return (int)sizeof(cfg);
}

int ipv6_srh_route(tern_ipv6_t *ip, const tern_ipv6_addr_t *dst, tern_ipv6_if_t **ipif, tern_ipv6_addr_t *next_hop)
{
    tern_ipv6_source_route_t *r = &ip->source_route;
    if (ip->source_router.fn == NULL || tern_ipv6_addr_is_multicast(dst) || tern_ipv6_addr_is_link_local(dst)) {
        return 0;
    }
    memset(r, 0, sizeof(*r));
    if (ip->source_router.fn(ip->source_router.ctx, dst, r) != 1 || r->count == 0 ||
        r->count > TERN_CONF_IPV6_SRH_HOPS || !tern_ipv6_addr_equal(&r->hops[r->count - 1u], dst)) {
        return 0;
    }
    tern_ipv6_if_t *out = ipv6_find_if(ip, r->if_index);
    if (out == NULL || (*ipif != NULL && *ipif != out)) {
        return 0;
    }
    *ipif = out;
    /* The first hop is a neighbor: on a 6LoWPAN link by its interface
     * identifier (RFC 6775 §5.7), elsewhere by its own address (on-link). */
    if (out->lowpan.enabled) {
        link_local_of(next_hop, &r->hops[0]);
    } else {
        *next_hop = r->hops[0];
    }
    return 1;
}

size_t ipv6_srh_len(const tern_ipv6_t *ip)
{
    const tern_ipv6_source_route_t *r = &ip->source_route;
    if (r->count < 2u) {
        return 0;
    }
    tern_srh_path_t path = { .next_header = 0, .dst = &r->hops[0], .hops = &r->hops[1], .count = r->count - 1u };
    return tern_srh_path_len(&path);
}

tern_pkt_t *ipv6_srh_prepend(tern_ipv6_t *ip, tern_pkt_t *payload, uint8_t nh, tern_ipv6_addr_t *wire_dst)
{
    const tern_ipv6_source_route_t *r = &ip->source_route;
    tern_srh_path_t path = { .next_header = nh, .dst = &r->hops[0], .hops = &r->hops[1], .count = r->count - 1u };
    size_t len = tern_srh_path_len(&path);
    if (len == 0) {
        return NULL;
    }
    tern_pkt_t *srh = tern_pktbuf_add(ipv6_pktbuf(ip), payload, NULL, len, TERN_NETTYPE_IPV6_EXT);
    if (srh == NULL) {
        return NULL;
    }
    (void)tern_srh_path_emit(&path, srh->data, srh->size);
    *wire_dst = r->hops[0]; /* RFC 6554 §4.1: the first hop is the IPv6 destination */
    ipv6_count(ip, TERN_IPV6_SRH_INSERTED);
    return srh;
}

#endif /* IPV6_SOURCE_ROUTES */

/* ------------------------------------------------------------ receive */

static bool is_own(void *ctx, const tern_ipv6_addr_t *addr)
{
    return ipv6_is_own_address(ctx, addr);
}

/* Drop @p pkt counted as @p counter, with Parameter Problem code 0 at @p pointer when @p icmp. */
static void srh_drop(tern_ipv6_t *ip, tern_pkt_t *pkt, unsigned counter, bool icmp, uint32_t pointer)
{
    ipv6_count(ip, counter);
    if (icmp) {
        ipv6_icmpv6_error(ip, pkt, TERN_ICMPV6_PARAM_PROBLEM, TERN_ICMPV6_PARAM_PROBLEM_HEADER_FIELD, pointer);
    } else {
        tern_pktbuf_release(ipv6_pktbuf(ip), pkt);
    }
}

/* A header the walk below goes on through: a Routing header may follow it. */
static bool may_lead_to_routing(uint8_t next_header)
{
    return next_header == TERN_IPV6_NH_HOP_BY_HOP || next_header == TERN_IPV6_NH_DEST_OPTS ||
           next_header == TERN_IPV6_NH_ROUTING;
}

bool ipv6_srh_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, tern_ipv6_repr_t *hdr, size_t payload_len,
                      tern_pkt_t *pkt)
{
    if (!ip->router || pkt->size < TERN_IPV6_HDR_LEN + payload_len) {
        return false;
    }
    /* The Routing header comes after the Hop-by-Hop and Destination Options
     * headers, if any (RFC 8200 §4.1); the receive path checks those. */
    uint8_t *buf = (uint8_t *)pkt->data + TERN_IPV6_HDR_LEN;
    if (hdr->next_header == TERN_IPV6_NH_HOP_BY_HOP && payload_len > 0 && !may_lead_to_routing(buf[0])) {
        /* The usual one, a Hop-by-Hop header (the RPL Option, RFC 6553)
         * before the upper-layer header: its Next Header (§4.3, first byte)
         * ends the walk below after that header whatever it holds. */
        return false;
    }
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    tern_ipv6_ext_walk_init(&walk, buf, payload_len, hdr->next_header);
    while (may_lead_to_routing(walk.next_header)) {
        if (tern_ipv6_ext_walk_next(&walk, &ext) != 1) {
            return false; /* malformed: the receive path drops it */
        }
        if (ext.type != TERN_IPV6_NH_ROUTING) {
            continue;
        }
        uint8_t *h = buf + ext.offset;
        size_t base = TERN_IPV6_HDR_LEN + ext.offset;
        if (ext.len < 4u || h[2] != TERN_SRH_ROUTING_TYPE || h[3] == 0) {
            return false; /* another type, or nothing left to visit: the receive path's rules */
        }
        tern_srh_repr_t srh;
        if (tern_srh_parse(&srh, h, ext.len) < 0) {
            srh_drop(ip, pkt, TERN_IPV6_SRH_MALFORMED, false, 0);
            return true;
        }
        tern_ipv6_addr_t dst = hdr->dst;
        switch (tern_srh_check(&srh, &dst, is_own, ip)) {
        case TERN_SRH_FORWARD:
            break;
        case TERN_SRH_BAD_SEGMENTS_LEFT:
            /* §4.2: Parameter Problem code 0 pointing to Segments Left. */
            srh_drop(ip, pkt, TERN_IPV6_SRH_BAD_SEGMENTS_LEFT, true, (uint32_t)(base + 3u));
            return true;
        case TERN_SRH_MULTICAST:
            srh_drop(ip, pkt, TERN_IPV6_SRH_MULTICAST, false, 0); /* §4.2: discard */
            return true;
        case TERN_SRH_LOOP:
            /* §4.2: Parameter Problem code 0; it names no field, Tern points at Address[1]. */
            srh_drop(ip, pkt, TERN_IPV6_SRH_LOOP, true, (uint32_t)(base + TERN_SRH_FIXED_LEN));
            return true;
        default:
            return false; /* Segments Left 0: cannot happen here (checked above) */
        }
        if (tern_srh_advance(h, ext.len, &dst) < 0) {
            srh_drop(ip, pkt, TERN_IPV6_SRH_MALFORMED, false, 0);
            return true;
        }
        /* The new destination goes into the header; hop limit and the
         * rest are forwarding's (forward.c). */
        hdr->dst = dst;
        (void)tern_ipv6_emit(hdr, pkt->data, TERN_IPV6_HDR_LEN);
        ipv6_count(ip, TERN_IPV6_SRH_FORWARDED);
        if (ipif->lowpan.enabled) {
            /* Address[i] is a neighbor on the link the packet came from (RFC 6550 §9.7). */
            link_local_of(&dst, &hdr->dst);
            ipv6_forward_via(ip, hdr, payload_len, pkt, ipif, &dst);
        } else {
            ipv6_forward_via(ip, hdr, payload_len, pkt, NULL, NULL);
        }
        return true;
    }
    return false;
}
