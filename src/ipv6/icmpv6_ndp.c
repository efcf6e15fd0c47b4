/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief ICMPv6 in the IPv6 module: echo (RFC 4443 §4), Neighbor
 *        Solicitation / Advertisement (RFC 4861 §7.1, §7.2) feeding the
 *        neighbor cache and DAD (RFC 4862 §5.4), and Redirect (RFC 4861 §8)
 *        feeding the destination cache; the dispatch of received ICMPv6;
 *        the pieces every ND sender and receiver shares (our link-local
 *        address, link-layer address options, NS/NA output), also used by
 *        ndp_router.c and ndp_6lo.c.
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ndp.h"

const tern_ipv6_addr_t *ipv6_ndp_link_local(const tern_ipv6_if_t *ipif)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        const tern_ipv6_if_addr_t *a = &ipif->addrs.addrs[i];
        if (a->used && a->state == TERN_IPV6_ADDR_PREFERRED && tern_ipv6_addr_is_link_local(&a->addr)) {
            return &a->addr;
        }
    }
    return NULL;
}

size_t ipv6_ndp_find_lladdr(const tern_ipv6_if_t *ipif, const uint8_t *options, size_t len, uint8_t type,
                            const uint8_t **addr)
{
    tern_ndp_opt_t opt;
    tern_ndp_opt_lladdr_t ll;
    size_t want = ipif->netif->l2addr_len;
    if (want == 0 || tern_ndp_opt_find(options, len, type, &opt) != 1 ||
        tern_ndp_opt_lladdr_parse(&ll, &opt) < 0 || ll.addr_len < want) {
        return 0;
    }
    *addr = ll.addr;
    return want;
}

size_t ipv6_ndp_own_lladdr(const tern_ipv6_if_t *ipif, uint8_t type, uint8_t *buf)
{
    const tern_netif_t *netif = ipif->netif;
    if (netif->l2addr_len == 0) {
        return 0;
    }
    tern_ndp_opt_lladdr_t ll = { .type = type, .addr = netif->l2addr, .addr_len = netif->l2addr_len };
    int n = tern_ndp_opt_lladdr_emit(&ll, buf, TERN_IPV6_NDP_LLADDR_OPT_MAX);
    return (n > 0) ? (size_t)n : 0u;
}

tern_pkt_t *ipv6_ndp_alloc(tern_ipv6_t *ip, size_t len)
{
    tern_pkt_t *msg = tern_pktbuf_add(ipv6_pktbuf(ip), NULL, NULL, len, TERN_NETTYPE_ICMPV6);
    if (msg == NULL) {
        ipv6_count(ip, TERN_IPV6_TX_NOMEM);
    }
    return msg;
}

int ipv6_ndp_send_nsna(tern_ipv6_if_t *ipif, uint8_t type, uint8_t na_flags, const tern_ipv6_addr_t *target,
                       const uint8_t *options, size_t options_len, const tern_ipv6_addr_t *src,
                       const tern_ipv6_addr_t *dst, const uint8_t *l2, size_t l2_len)
{
    tern_ipv6_t *ip = ipif->ip;
    /* TERN_NDP_NS_LEN == TERN_NDP_NA_LEN: the same fixed part. */
    tern_pkt_t *msg = ipv6_ndp_alloc(ip, TERN_NDP_NA_LEN + options_len);
    if (msg == NULL) {
        return -ENOMEM;
    }
    if (type == TERN_ICMPV6_NEIGHBOR_SOLICIT) {
        const tern_ndp_ns_repr_t ns = { .target = *target, .options = options, .options_len = options_len };
        (void)tern_ndp_ns_emit(&ns, msg->data, msg->size);
    } else {
        const tern_ndp_na_repr_t na = { .flags = na_flags, .target = *target, .options = options,
                                        .options_len = options_len };
        (void)tern_ndp_na_emit(&na, msg->data, msg->size);
    }
    if (l2 != NULL) {
        (void)ipv6_output_l2(ip, ipif, src, dst, TERN_ICMPV6_NEXT_HEADER, TERN_IPV6_ND_HOP_LIMIT, msg, l2, l2_len);
    } else {
        (void)ipv6_output(ip, ipif, src, dst, TERN_ICMPV6_NEXT_HEADER, TERN_IPV6_ND_HOP_LIMIT, msg);
    }
    return 0;
}

/* ------------------------------------------------------------ echo */

static void echo_request(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr,
                         tern_pkt_t *msg)
{
    tern_icmpv6_echo_repr_t echo;
    if (tern_icmpv6_echo_parse(&echo, msg->data, msg->size) < 0) {
        ipv6_count(ip, TERN_IPV6_ICMP_UNHANDLED);
        tern_pktbuf_release(ipv6_pktbuf(ip), msg);
        return;
    }
    ipv6_count(ip, TERN_IPV6_ICMP_ECHO_IN);
    /* RFC 4443 §4.2: the reply carries the request's identifier, sequence and
     * data; built in place. To a multicast request we answer from a unicast
     * address of ours (source selection), else from the address asked. */
    uint8_t *b = msg->data;
    b[0] = TERN_ICMPV6_ECHO_REPLY;
    b[1] = 0;
    const tern_ipv6_addr_t *src = tern_ipv6_addr_is_multicast(&hdr->dst) ? NULL : &hdr->dst;
    (void)ipv6_output(ip, ipif, src, &hdr->src, TERN_ICMPV6_NEXT_HEADER, ipif->cur_hop_limit, msg);
}

/* ------------------------------------------------------------ neighbor discovery */

/* Send an NA for @p target to @p dst with @p flags (RFC 4861 §7.2.4). */
static void send_na(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *target,
                    const tern_ipv6_addr_t *dst, uint8_t flags)
{
    uint8_t opt[TERN_IPV6_NDP_LLADDR_OPT_MAX];
    size_t opt_len = ipv6_ndp_own_lladdr(ipif, TERN_NDP_OPT_TLLA, opt);
    /* §7.2.4: a router sets the Router flag (else hosts drop it as a default router, §7.2.5). */
    uint8_t all = (uint8_t)(flags | (ipv6_is_router(ip) ? TERN_NDP_NA_FLAG_ROUTER : 0u));
    (void)ipv6_ndp_send_nsna(ipif, TERN_ICMPV6_NEIGHBOR_ADVERT, all, target, opt, opt_len, target, dst, NULL, 0);
}

static void ns_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr,
                       const uint8_t *b, size_t len)
{
    if (ipif->lowpan.enabled && ipv6_6lo_ns_receive(ip, ipif, hdr, b, len)) {
        return; /* an address registration (RFC 6775 §6.5, ndp_6lo.c) */
    }
    tern_ndp_ns_repr_t ns;
    if (tern_ndp_check_ip(b, len, &hdr->src, &hdr->dst, hdr->hop_limit) < 0 ||
        tern_ndp_ns_parse(&ns, b, len) < 0) {
        ipv6_count(ip, TERN_IPV6_NDP_INVALID);
        return;
    }
    tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(&ipif->addrs, &ns.target);
    if (a == NULL || a->state == TERN_IPV6_ADDR_DUPLICATE) {
        return; /* §7.2.3: not one of our addresses: silently discard */
    }
    if (a->state == TERN_IPV6_ADDR_TENTATIVE) {
        /* RFC 4862 §5.4.3: never answered; from :: it makes ours a duplicate. */
        (void)tern_ipv6_addrs_ns_received(&ipif->addrs, &ns.target, &hdr->src);
        return;
    }
    if (tern_ipv6_addr_is_unspecified(&hdr->src)) {
        /* §7.2.4: DAD for an address of ours: tell all nodes, unsolicited. */
        send_na(ip, ipif, &ns.target, &ipv6_all_nodes, TERN_NDP_NA_FLAG_OVERRIDE);
        return;
    }
    const uint8_t *slla = NULL;
    size_t slla_len = ipv6_ndp_find_lladdr(ipif, ns.options, ns.options_len, TERN_NDP_OPT_SLLA, &slla);
    if (slla_len > 0) {
        (void)tern_nc_lladdr_seen(&ipif->nc, &hdr->src, slla, slla_len, false, ipv6_now(ip));
    }
    /* §7.2.4: solicited, override (we are not an anycast responder); R if a router. */
    send_na(ip, ipif, &ns.target, &hdr->src, TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE);
}

static void na_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr,
                       const uint8_t *b, size_t len)
{
    if (ipif->lowpan.enabled && ipv6_6lo_na_receive(ip, ipif, hdr, b, len)) {
        return; /* the answer to a registration (RFC 6775 §5.5.2, ndp_6lo.c) */
    }
    tern_ndp_na_repr_t na;
    if (tern_ndp_check_ip(b, len, &hdr->src, &hdr->dst, hdr->hop_limit) < 0 ||
        tern_ndp_na_parse(&na, b, len) < 0) {
        ipv6_count(ip, TERN_IPV6_NDP_INVALID);
        return;
    }
    /* RFC 4862 §5.4.4: an NA for a tentative address of ours: duplicate. On a
     * 6LoWPAN link there is no multicast DAD: registration decides (RFC 6775 §5.1, §5.5). */
    if (!ipif->lowpan.enabled && tern_ipv6_addrs_na_received(&ipif->addrs, &na.target)) {
        return;
    }
    const uint8_t *tlla = NULL;
    size_t tlla_len = ipv6_ndp_find_lladdr(ipif, na.options, na.options_len, TERN_NDP_OPT_TLLA, &tlla);
    tern_nc_na_flags_t flags = {
        .router = (na.flags & TERN_NDP_NA_FLAG_ROUTER) != 0,
        .solicited = (na.flags & TERN_NDP_NA_FLAG_SOLICITED) != 0,
        .override = (na.flags & TERN_NDP_NA_FLAG_OVERRIDE) != 0,
    };
    (void)tern_nc_na_received(&ipif->nc, &na.target, tlla, tlla_len, flags, ipv6_now(ip));
}

/* ------------------------------------------------------------ redirect */

#if TERN_CONF_IPV6_DCACHE
/* Is @p router the current first hop for @p dst, out of @p ipif (§8.1)? The
 * destination cache's next hop (an earlier Redirect), else the table's. */
static bool is_first_hop(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst,
                         const tern_ipv6_addr_t *router)
{
    tern_ipv6_addr_t next_hop;
    tern_ipv6_if_t *out = ipv6_route(ip, NULL, dst, &next_hop);
    return out == ipif && !tern_ipv6_addr_equal(&next_hop, dst) && tern_ipv6_addr_equal(&next_hop, router);
}
#endif

/*
 * A Redirect (RFC 4861 §8): every validity check of §8.1 is a drop counted
 * on its own (the checksum was verified for every ICMPv6 message); a valid
 * one points the destination at the target in the destination cache and
 * feeds the target's link-layer address to the neighbor cache (§8.3).
 */
static void redirect_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr,
                             const uint8_t *b, size_t len)
{
#if !TERN_CONF_IPV6_DCACHE
    /* No destination cache to keep it in (config.h): a host SHOULD act on it (§8.3), need not. */
    (void)ipif, (void)hdr, (void)b, (void)len;
    ipv6_count(ip, TERN_IPV6_ICMP_UNHANDLED);
#else
    if (ipv6_is_router(ip)) {
        /* §8: Redirects inform hosts; §8.2: "A router MUST NOT update its
         * routing tables upon receipt of a Redirect." */
        ipv6_count(ip, TERN_IPV6_REDIRECT_ON_ROUTER);
        return;
    }
    unsigned reject = TERN_IPV6_STAT_NUMOF;
    tern_ndp_redirect_repr_t rd;
    if (!tern_ipv6_addr_is_link_local(&hdr->src)) {
        reject = TERN_IPV6_REDIRECT_BAD_SOURCE; /* routers redirect from their link-local address */
    } else if (hdr->hop_limit != TERN_IPV6_ND_HOP_LIMIT) {
        reject = TERN_IPV6_REDIRECT_BAD_HOP_LIMIT; /* it may have been forwarded */
    } else if (b[1] != 0) {
        reject = TERN_IPV6_REDIRECT_BAD_CODE;
    } else if (len < TERN_NDP_REDIRECT_LEN) {
        reject = TERN_IPV6_REDIRECT_TOO_SHORT;
    } else if (tern_ndp_redirect_parse(&rd, b, len) < 0) {
        reject = TERN_IPV6_REDIRECT_BAD_OPTIONS; /* type, code and length passed: an option of length 0 or overrunning */
    } else if (tern_ipv6_addr_is_multicast(&rd.destination) || tern_ipv6_addr_is_unspecified(&rd.destination)) {
        reject = TERN_IPV6_REDIRECT_MULTICAST_DST;
    } else if (!tern_ipv6_addr_is_link_local(&rd.target) && !tern_ipv6_addr_equal(&rd.target, &rd.destination)) {
        reject = TERN_IPV6_REDIRECT_BAD_TARGET; /* a router is named by its link-local address, else on-link */
    } else if (!is_first_hop(ip, ipif, &rd.destination, &hdr->src)) {
        reject = TERN_IPV6_REDIRECT_NOT_FIRST_HOP; /* only the router we use may redirect us */
    }
    if (reject != TERN_IPV6_STAT_NUMOF) {
        ipv6_count(ip, reject);
        return;
    }
    /* §8.3: the destination cache sends later packets to the target (to the
     * destination itself, on-link, when they are equal). */
    uint64_t now = ipv6_now(ip);
    int r = tern_dcache_set_redirect(&ip->dcache, &rd.destination, &rd.target, ipif->netif->index, now,
                                     now + (uint64_t)TERN_CONF_IPV6_REDIRECT_TIMEOUT_S * 1000000u);
    if (r < 0) {
        ipv6_count(ip, TERN_IPV6_REDIRECT_BAD_TARGET); /* unreachable: the checks above exclude it */
        return;
    }
    ipv6_count(ip, TERN_IPV6_REDIRECT_ACCEPTED);
    if (r == 1) {
        ipv6_count(ip, TERN_IPV6_DCACHE_EVICTED);
    }
    /* §8.3: the Target Link-Layer Address creates or updates the target's
     * entry (STALE); IsRouter TRUE unless the target is the destination. */
    const uint8_t *tlla = NULL;
    size_t tlla_len = ipv6_ndp_find_lladdr(ipif, rd.options, rd.options_len, TERN_NDP_OPT_TLLA, &tlla);
    (void)tern_nc_redirect_received(&ipif->nc, &rd.target, tlla, tlla_len,
                                    !tern_ipv6_addr_equal(&rd.target, &rd.destination), now);
#endif
}

/* Send an NS for @p target to @p dst from @p src (NULL: source selection; the
 * unspecified address for DAD, then without a source link-layer option). */
static void send_ns(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *target, const tern_ipv6_addr_t *dst,
                    const tern_ipv6_addr_t *src)
{
    uint8_t opt[TERN_IPV6_NDP_LLADDR_OPT_MAX];
    /* §7.1.1 / RFC 4862 §5.4.2: no SLLA option from the unspecified address. */
    size_t opt_len = (src != NULL && tern_ipv6_addr_is_unspecified(src))
                         ? 0u
                         : ipv6_ndp_own_lladdr(ipif, TERN_NDP_OPT_SLLA, opt);
    (void)ipv6_ndp_send_nsna(ipif, TERN_ICMPV6_NEIGHBOR_SOLICIT, 0, target, opt, opt_len, src, dst, NULL, 0);
}

/*
 * §7.2.2: "If the source address of the packet prompting the solicitation is
 * the same as one of the addresses assigned to the outgoing interface, that
 * address SHOULD be placed in the IP Source Address of the outgoing
 * solicitation." The prompting packet is the oldest queued one:
 * [NETIF, IPV6, ...]. @return true with *@p out set when that applies.
 */
static bool prompting_source(tern_ipv6_if_t *ipif, const tern_nc_entry_t *e, tern_ipv6_addr_t *out)
{
    if (e->queued == 0) {
        return false;
    }
    const tern_pkt_t *hdr = e->queue[0]->next;
    tern_ipv6_repr_t repr;
    if (hdr == NULL || hdr->type != TERN_NETTYPE_IPV6 || tern_ipv6_parse(&repr, hdr->data, hdr->size) < 0) {
        return false;
    }
    const tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(&ipif->addrs, &repr.src);
    if (a == NULL || (a->state != TERN_IPV6_ADDR_PREFERRED && a->state != TERN_IPV6_ADDR_DEPRECATED)) {
        return false;
    }
    *out = repr.src;
    return true;
}

void ipv6_ndp_send_ns(void *ctx, const tern_nc_entry_t *e, bool unicast)
{
    tern_ipv6_if_t *ipif = ctx;
    tern_ipv6_addr_t dst = e->addr;
    if (!unicast) {
        tern_ipv6_addr_solicited_node(&dst, &e->addr); /* §7.2.2 */
    }
    tern_ipv6_addr_t src;
    send_ns(ipif, &e->addr, &dst, prompting_source(ipif, e, &src) ? &src : NULL);
}

void ipv6_ndp_send_dad_ns(void *ctx, const tern_ipv6_addr_t *target)
{
    tern_ipv6_if_t *ipif = ctx;
    tern_ipv6_addr_t dst;
    tern_ipv6_addr_solicited_node(&dst, target);
    send_ns(ipif, target, &dst, &ipv6_unspecified);
}

/* ------------------------------------------------------------ dispatch */

void ipv6_icmpv6_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr,
                         tern_pkt_t *msg)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    const tern_checksum_span_t span = { .data = msg->data, .len = msg->size };
    if (msg->size < TERN_ICMPV6_HDR_LEN || !tern_icmpv6_checksum_verify(&hdr->src, &hdr->dst, &span, 1)) {
        ipv6_count(ip, TERN_IPV6_ICMP_BAD_CHECKSUM);
        tern_pktbuf_release(pb, msg);
        return;
    }
    const uint8_t *b = msg->data;
    switch (b[0]) {
    case TERN_ICMPV6_ECHO_REQUEST:
        echo_request(ip, ipif, hdr, msg);
        return; /* the message became the reply */
    case TERN_ICMPV6_NEIGHBOR_SOLICIT:
        ns_receive(ip, ipif, hdr, b, msg->size);
        break;
    case TERN_ICMPV6_NEIGHBOR_ADVERT:
        na_receive(ip, ipif, hdr, b, msg->size);
        break;
    case TERN_ICMPV6_ROUTER_SOLICIT:
        ipv6_ndp_rs_receive(ip, ipif, hdr, b, msg->size);
        break;
    case TERN_ICMPV6_ROUTER_ADVERT:
        ipv6_ndp_ra_receive(ip, ipif, hdr, b, msg->size);
        break;
    case TERN_ICMPV6_MLD_QUERY:
        ipv6_mld_query_receive(ip, ipif, hdr, b, msg->size);
        break;
    case TERN_ICMPV6_MLD_REPORT:
        ipv6_mld_report_receive(ip, ipif, hdr, b, msg->size); /* MLDv1, mld.c */
        break;
    case TERN_ICMPV6_REDIRECT:
        redirect_receive(ip, ipif, hdr, b, msg->size);
        break;
    case TERN_ICMPV6_PACKET_TOO_BIG:
        ipv6_ptb_receive(ip, ipif, b, msg->size); /* RFC 8201 §4, icmpv6_error.c */
        if (ipv6_icmpv6_deliver(ip, ipif, hdr, msg)) {
            return; /* about an echo request: ping reports it too */
        }
        if (ipv6_icmpv6_deliver_error(ip, ipif, hdr, msg)) {
            return; /* about a UDP datagram: to its socket (RFC 4443 §2.4 (e), icmpv6_app.c) */
        }
        break;
    case TERN_ICMPV6_ECHO_REPLY:
        if (ipv6_icmpv6_deliver(ip, ipif, hdr, msg)) {
            return; /* to the application (ping), see icmpv6_app.c */
        }
        ipv6_count(ip, TERN_IPV6_ICMP_UNHANDLED);
        break;
    default:
        if (tern_icmpv6_is_error(b[0])) {
            ipv6_tunnel_error_receive(ip, b, msg->size); /* about our tunnel packet? RFC 2473 §8.2, tunnel.c */
        }
        /* Errors about our echo requests go to ping; MLD Done, MLDv2 reports, other errors: not handled. */
        if (tern_icmpv6_is_error(b[0]) && ipv6_icmpv6_deliver(ip, ipif, hdr, msg)) {
            return;
        }
        /* Errors about our UDP datagrams to their socket (RFC 4443 §2.4 (e), icmpv6_app.c). */
        if (tern_icmpv6_is_error(b[0]) && ipv6_icmpv6_deliver_error(ip, ipif, hdr, msg)) {
            return;
        }
        /* Other types to whoever registered for them (RPL, type 155; icmpv6_app.c). */
        if (ipv6_icmpv6_deliver_type(ip, ipif, hdr, msg)) {
            return;
        }
        ipv6_count(ip, TERN_IPV6_ICMP_UNHANDLED);
        break;
    }
    tern_pktbuf_release(pb, msg);
}
