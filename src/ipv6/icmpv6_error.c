/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief ICMPv6 error messages about received packets and about packets
 *        whose next hop could not be resolved (RFC 4443 §2.4, §3; RFC 4861
 *        §7.2.2), and the Packet Too Big messages we receive (RFC 8201).
 *
 * Read first: RFC 4443 §2.4 (message processing rules: what never gets an
 * error, how much of the invoking packet to include, rate limiting), §3.2
 * (Packet Too Big); RFC 8201 §4 (what a host does with one).
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/div64.h"
#include "tern/wire/icmpv6.h"

/** Snips an invoking packet may consist of (payload, headers, ext headers). */
#define INVOKING_SNIPS 8

/*
 * RFC 4443 §2.4 (f): a token bucket, TERN_CONF_ICMPV6_ERROR_RATE tokens a
 * second up to TERN_CONF_ICMPV6_ERROR_BURST. @return true if one was taken.
 */
static bool take_token(tern_ipv6_t *ip, uint64_t now)
{
    uint64_t elapsed = now - ip->icmp_error_refill_us;
    uint64_t fresh = tern_udiv64(elapsed * TERN_CONF_ICMPV6_ERROR_RATE, 1000000u, NULL); /* tern/div64.h */
    if (fresh > 0) {
        uint64_t tokens = ip->icmp_error_tokens + fresh;
        ip->icmp_error_tokens = (uint32_t)((tokens > TERN_CONF_ICMPV6_ERROR_BURST) ? TERN_CONF_ICMPV6_ERROR_BURST
                                                                                : tokens);
        /* Keep the remainder of a partial token for the next refill. */
        ip->icmp_error_refill_us = now - (elapsed - tern_udiv64(fresh * 1000000u, TERN_CONF_ICMPV6_ERROR_RATE, NULL));
    }
    if (ip->icmp_error_tokens == 0) {
        return false;
    }
    ip->icmp_error_tokens--;
    return true;
}

/* Is the packet's upper layer an ICMPv6 error message? (§2.4 (e.1)) */
static bool is_icmpv6_error(const tern_ipv6_repr_t *hdr, const uint8_t *after_hdr, size_t len)
{
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    tern_ipv6_ext_walk_init(&walk, after_hdr, len, hdr->next_header);
    while (tern_ipv6_ext_walk_next(&walk, &ext) > 0) {
        tern_ipv6_frag_repr_t f;
        if (ext.type == TERN_IPV6_NH_FRAGMENT && tern_ipv6_frag_parse(&f, after_hdr + ext.offset, ext.len) > 0 &&
            f.offset != 0) {
            return false; /* RFC 8200 §4.5: a non-first fragment holds data, not an ICMPv6 header */
        }
    }
    return walk.next_header == TERN_ICMPV6_NEXT_HEADER && walk.offset < len &&
           tern_icmpv6_is_error(after_hdr[walk.offset]);
}

/* The first bytes of the snips @p wire[0..n), up to @p limit, into @p out. @return their count. */
static size_t gather(const tern_pkt_t *const *wire, size_t n, uint8_t *out, size_t limit)
{
    size_t copied = 0;
    for (size_t i = 0; i < n && copied < limit; i++) {
        size_t take = wire[i]->size;
        if (take > limit - copied) {
            take = limit - copied;
        }
        memcpy(&out[copied], wire[i]->data, take);
        copied += take;
    }
    return copied;
}

/*
 * Is the invoking packet (@p wire[0..n), @p hdr its parsed IPv6 header) an
 * ICMPv6 error? Its first bytes are gathered into a buffer of this frame,
 * apart from send_error()'s (noinline): the buffer is dead before
 * send_error() sends, so it is not on the stack below ipv6_output().
 */
__attribute__((noinline)) static bool invoking_is_icmpv6_error(const tern_ipv6_repr_t *hdr,
                                                                const tern_pkt_t *const *wire, size_t n)
{
    uint8_t first[TERN_IPV6_HDR_LEN + 64];
    size_t peek = gather(wire, n, first, sizeof(first));
    return is_icmpv6_error(hdr, &first[TERN_IPV6_HDR_LEN], peek - TERN_IPV6_HDR_LEN);
}

/*
 * Answer the invoking packet, whose snips (interface header left out) are
 * @p wire[0..n) in wire order, with ICMPv6 @p type / @p code / @p param out
 * of @p ipif: the §2.4 rules, then the message. @p link_multicast: it came
 * as a link-layer multicast or broadcast. Releases @p pkt (the invoking
 * packet's list) in every case.
 */
static void send_error(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_pkt_t *const *wire, size_t n,
                       bool link_multicast, uint8_t type, uint8_t code, uint32_t param, tern_pkt_t *pkt)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tern_ipv6_repr_t hdr;
    if (ipif == NULL || n == 0 || wire[0]->type != TERN_NETTYPE_IPV6 ||
        tern_ipv6_parse(&hdr, wire[0]->data, wire[0]->size) < 0) {
        ipv6_count(ip, TERN_IPV6_ICMP_ERRORS_SUPPRESSED);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    /* §2.4 (e): never about an error message; about a multicast destination
     * or a link-layer multicast/broadcast only for Packet Too Big and for
     * Parameter Problem code 2 (an option whose type asks for it); never to
     * a source that does not identify a single node. */
    bool exception = type == TERN_ICMPV6_PACKET_TOO_BIG ||
                     (type == TERN_ICMPV6_PARAM_PROBLEM && code == TERN_ICMPV6_PARAM_PROBLEM_OPTION);
    bool multicast = tern_ipv6_addr_is_multicast(&hdr.dst) || link_multicast;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += wire[i]->size;
    }
    if ((multicast && !exception) || tern_ipv6_addr_is_unspecified(&hdr.src) ||
        tern_ipv6_addr_is_multicast(&hdr.src) || invoking_is_icmpv6_error(&hdr, wire, n)) {
        ipv6_count(ip, TERN_IPV6_ICMP_ERRORS_SUPPRESSED);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    if (!take_token(ip, ipv6_now(ip))) {
        ipv6_count(ip, TERN_IPV6_ICMP_RATE_LIMITED);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    /* §2.4 (c): as much of the invoking packet as fits the minimum MTU. */
    size_t fit = tern_icmpv6_error_invoking_fit(total, TERN_IPV6_HDR_LEN);
    tern_pkt_t *msg = tern_pktbuf_add(pb, NULL, NULL, TERN_ICMPV6_FIXED_LEN + fit, TERN_NETTYPE_ICMPV6);
    if (msg == NULL) {
        ipv6_count(ip, TERN_IPV6_TX_NOMEM);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    uint8_t *out = (uint8_t *)msg->data + TERN_ICMPV6_FIXED_LEN;
    (void)gather(wire, n, out, fit);
    tern_icmpv6_error_repr_t err = { .type = type, .code = code, .param = param, .invoking = out,
                                     .invoking_len = fit };
    (void)tern_icmpv6_error_emit(&err, msg->data, msg->size);
    /* Answer from the address the packet was sent to when it is one of ours
     * (unicast); otherwise let source selection choose. */
    const tern_ipv6_if_addr_t *own = tern_ipv6_addrs_find(&ipif->addrs, &hdr.dst);
    bool own_usable = own != NULL && (own->state == TERN_IPV6_ADDR_PREFERRED ||
                                      own->state == TERN_IPV6_ADDR_DEPRECATED);
    tern_pktbuf_release(pb, pkt); /* hdr is a copy: its addresses stay */
    ipv6_count(ip, TERN_IPV6_ICMP_ERRORS_OUT);
    (void)ipv6_output(ip, ipif, own_usable ? &hdr.dst : NULL, &hdr.src, TERN_ICMPV6_NEXT_HEADER,
                      ipif->cur_hop_limit, msg);
}

/* The snips of @p pkt other than NETIF, in list order, into @p wire.
 * @return their count; 0 when there are more than INVOKING_SNIPS (not a
 * packet shape IPv6 produced: no error is quoted from it). */
static size_t invoking_snips(const tern_pkt_t *pkt, const tern_pkt_t *wire[INVOKING_SNIPS])
{
    size_t n = 0;
    for (const tern_pkt_t *s = pkt; s != NULL; s = s->next) {
        if (s->type == TERN_NETTYPE_NETIF) {
            continue;
        }
        if (n == INVOKING_SNIPS) {
            return 0;
        }
        wire[n++] = s;
    }
    return n;
}

void ipv6_icmpv6_error(tern_ipv6_t *ip, tern_pkt_t *pkt, uint8_t type, uint8_t code, uint32_t param)
{
    const tern_netif_hdr_t *nhdr = tern_netif_hdr_get(pkt);
    tern_ipv6_if_t *ipif = (nhdr != NULL) ? ipv6_find_if(ip, nhdr->if_index) : NULL;
    /* The invoking packet in wire order: the snips after IPV6 in the list
     * (reception order) come before it on the wire. */
    const tern_pkt_t *wire[INVOKING_SNIPS];
    size_t n = invoking_snips(pkt, wire);
    for (size_t i = 0; i < n / 2; i++) {
        const tern_pkt_t *t = wire[i];
        wire[i] = wire[n - 1u - i];
        wire[n - 1u - i] = t;
    }
    bool link_multicast = nhdr != NULL &&
                          (nhdr->flags & (TERN_NETIF_HDR_FLAG_MULTICAST | TERN_NETIF_HDR_FLAG_BROADCAST)) != 0;
    send_error(ip, ipif, wire, n, link_multicast, type, code, param, pkt);
}

void ipv6_icmpv6_error_about(tern_ipv6_t *ip, const uint8_t *invoking, size_t len, uint8_t type, uint8_t code,
                             uint32_t param)
{
    tern_ipv6_repr_t hdr;
    if (tern_ipv6_parse(&hdr, invoking, len) < 0 || tern_ipv6_addr_is_link_local(&hdr.src)) {
        ipv6_count(ip, TERN_IPV6_ICMP_ERRORS_SUPPRESSED);
        return;
    }
    tern_pkt_t *copy = tern_pktbuf_add(ipv6_pktbuf(ip), NULL, invoking, len, TERN_NETTYPE_IPV6);
    if (copy == NULL) {
        ipv6_count(ip, TERN_IPV6_TX_NOMEM);
        return;
    }
    tern_ipv6_addr_t next_hop;
    tern_ipv6_if_t *back = ipv6_route(ip, NULL, &hdr.src, &next_hop);
    const tern_pkt_t *wire[1] = { copy };
    send_error(ip, back, wire, 1, false, type, code, param, copy);
}

/*
 * Is the packet whose IPv6 header snip is @p first a forwarded one (not
 * ours, readable)? Then *@p back: the interface that leads to its source.
 * noinline: its header and next hop are dead before send_error() runs, so
 * they are not on the stack below it.
 */
__attribute__((noinline)) static bool unresolved_forwarded(tern_ipv6_t *ip, const tern_pkt_t *first,
                                                            tern_ipv6_if_t **back)
{
    tern_ipv6_repr_t hdr;
    if (!TERN_CONF_IPV6_ROUTER || tern_ipv6_parse(&hdr, first->data, first->size) < 0 ||
        ipv6_is_own_address(ip, &hdr.src)) {
        return false;
    }
    tern_ipv6_addr_t next_hop;
    *back = tern_ipv6_addr_is_link_local(&hdr.src) ? NULL : ipv6_route(ip, NULL, &hdr.src, &next_hop);
    return true;
}

void ipv6_icmpv6_error_unresolved(tern_ipv6_t *ip, tern_pkt_t *pkt)
{
    /* Transmission order: [NETIF (outgoing), IPV6, ...] is already wire order. */
    const tern_pkt_t *wire[INVOKING_SNIPS];
    size_t n = invoking_snips(pkt, wire);
    tern_ipv6_if_t *back = NULL;
    if (n == 0 || !unresolved_forwarded(ip, wire[0], &back)) {
        /* Our own packet (a host image forwards none, RFC 8200 §3: every packet it
         * queued is its own), or none we can read: nobody to tell but the
         * counters; the application sees no answer (ping: a timeout). */
        ipv6_count(ip, TERN_IPV6_TX_UNRESOLVED);
        tern_pktbuf_release(ipv6_pktbuf(ip), pkt);
        return;
    }
    /* A forwarded packet: RFC 4861 §7.2.2, RFC 4443 §3.1 code 3 to its
     * source, out of the interface that leads there. */
    ipv6_count(ip, TERN_IPV6_FWD_ADDR_UNREACH);
    send_error(ip, back, wire, n, false, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_ADDR, 0, pkt);
}

void ipv6_ptb_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const uint8_t *b, size_t len)
{
#if !TERN_CONF_IPV6_DCACHE
    /* No Path MTU Discovery (config.h): our packets never exceed 1280 bytes (pmtu.c, RFC 8201 §1). */
    (void)ipif;
    (void)b;
    (void)len;
    ipv6_count(ip, TERN_IPV6_ICMP_UNHANDLED);
#else
    /* RFC 4443 §3.2: the MTU of the next-hop link and as much of our packet
     * as fits; the code is ignored. RFC 8201 §5.2: the estimate is kept for
     * the quoted packet's destination, and only for a packet we sent. */
    tern_icmpv6_error_repr_t err;
    tern_ipv6_repr_t quoted;
    if (tern_icmpv6_error_parse(&err, b, len) < 0 || err.type != TERN_ICMPV6_PACKET_TOO_BIG ||
        tern_ipv6_parse(&quoted, err.invoking, err.invoking_len) < 0 || !ipv6_is_own_address(ip, &quoted.src)) {
        ipv6_count(ip, TERN_IPV6_PTB_INVALID);
        return;
    }
    /* RFC 8201 §4: a reported MTU below the IPv6 minimum is discarded, the
     * estimate never goes below 1280 (RFC 8200 §5; RFC 8021: no atomic
     * fragments instead). */
    if (err.param < TERN_DCACHE_MIN_PMTU) {
        ipv6_count(ip, TERN_IPV6_PTB_BELOW_MIN);
        return;
    }
    /* RFC 8201 §4: "MUST NOT increase its estimate" because of a Packet Too Big. */
    if (err.param >= ipv6_path_mtu(ip, ipif, &quoted.dst)) {
        ipv6_count(ip, TERN_IPV6_PTB_NOT_LOWER);
        return;
    }
    /* RFC 8201 §4: try a larger MTU again after the timeout (10 minutes recommended). */
    uint64_t now = ipv6_now(ip);
    int r = tern_dcache_set_pmtu(&ip->dcache, &quoted.dst, (uint16_t)err.param, now,
                                 now + (uint64_t)TERN_CONF_IPV6_PMTU_TIMEOUT_S * 1000000u);
    if (r < 0) {
        ipv6_count(ip, TERN_IPV6_PTB_INVALID); /* the unspecified destination */
        return;
    }
    ipv6_count(ip, TERN_IPV6_PMTU_LOWERED);
    if (r == 1) {
        ipv6_count(ip, TERN_IPV6_DCACHE_EVICTED);
    }
#endif
}
