/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Functions shared by the files of the IPv6 module (not public).
 */
#ifndef TERN_IPV6_INTERNAL_H
#define TERN_IPV6_INTERNAL_H

#include <errno.h>

#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/pktbuf.h"
#include "tern/wire/ipv6.h"

/** Hop limit of ND messages (RFC 4861 §6.1, §7.1). */
#define TERN_IPV6_ND_HOP_LIMIT 255u
/** Default hop limit for packets we originate (IANA/RFC 4861 §6.3.2 CurHopLimit default 64). */
#define TERN_IPV6_DEFAULT_HOP_LIMIT 64u

/** ff02::1, ff02::2 and :: (RFC 4291 §2.7.1, §2.5.2): one constant each for
 *  the module (ipv6.c), not one per function that names them. */
extern const tern_ipv6_addr_t ipv6_all_nodes;
extern const tern_ipv6_addr_t ipv6_all_routers;
extern const tern_ipv6_addr_t ipv6_unspecified;

/** Count event @p c of @p ip. */
static inline void ipv6_count(tern_ipv6_t *ip, unsigned c)
{
    tern_count(&ip->counters[c]);
}

/**
 * Is the node a router (RFC 4861 §6.2, tern_ipv6_set_router())? Constant
 * false in a host image (TERN_CONF_IPV6_ROUTER 0) and true in a router-only
 * one (2), so that the compiler leaves the branches of the other role out of
 * the files that mix host and router code.
 */
static inline bool ipv6_is_router(const tern_ipv6_t *ip)
{
    return TERN_CONF_IPV6_ROUTER == 2 || (TERN_CONF_IPV6_ROUTER == 1 && ip->router);
}

/** The time now, on the stack's clock. */
uint64_t ipv6_now(const tern_ipv6_t *ip);

/** The pktbuf of the module's stack. */
tern_pktbuf_t *ipv6_pktbuf(tern_ipv6_t *ip);

/**
 * Send @p payload (an upper-layer message: snips in transmission order) from
 * @p src to @p dst with next header @p nh out of @p ipif (required for
 * link-local and multicast destinations; NULL: chosen by the forwarding
 * table). Fills the ICMPv6 checksum when @p nh is ICMPv6. Ownership of
 * @p payload passes.
 * @return 0; -ENETUNREACH (no route); -ENOMEM. The payload is released on error.
 */
int ipv6_output(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *src,
                const tern_ipv6_addr_t *dst, uint8_t nh, uint8_t hop_limit, tern_pkt_t *payload);

/**
 * An ICMPv6 message arrived: @p msg is its snip (users 1, contiguous,
 * trimmed), the rest of the received packet was released.
 */
void ipv6_icmpv6_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr,
                         tern_pkt_t *msg);

/**
 * Hand an echo reply, or an error about an echo request we sent, to the
 * application registered for (ICMPV6, identifier) as [ICMPV6, IPV6, NETIF]
 * (icmpv6_app.c). @return true if @p msg was taken (delivered, or released
 * and counted without a receiver); false: not such a message, still ours.
 */
bool ipv6_icmpv6_deliver(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, tern_pkt_t *msg);

/**
 * Hand a message of a type the module does not handle to the receivers
 * registered for (ICMPV6, TERN_IPV6_ICMPV6_TYPE_DEMUX(type)) as [ICMPV6,
 * IPV6, NETIF] (icmpv6_app.c; RPL control messages, RFC 6550 §6).
 * @return true if @p msg was taken (delivered, or released and counted);
 *         false: an error type or nobody registered, still ours.
 */
bool ipv6_icmpv6_deliver_type(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, tern_pkt_t *msg);

/**
 * Hand an error message about a packet we sent to the receivers registered
 * for (ICMPV6, TERN_IPV6_ICMPV6_ERROR_DEMUX(quoted upper-layer protocol)) as
 * [ICMPV6, IPV6, NETIF] (icmpv6_app.c; RFC 4443 §2.4 (e)).
 * @return true if @p msg was taken (delivered, or released and counted
 *         icmp_err_not_ours); false: not an error, unparsable, or nobody
 *         registered for the quoted protocol, still ours.
 */
bool ipv6_icmpv6_deliver_error(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, tern_pkt_t *msg);

/** Does @p ipif listen to the multicast @p group (joined through MLD, mld.c)? */
bool ipv6_mld_listening(const tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *group);

/**
 * SET TERN_NETOPT_IPV6_PREFIX, TERN_NETOPT_IPV6_GROUP_JOIN / _LEAVE
 * (prefix.c). @return as set; -ENOTSUP for other options.
 */
int ipv6_prefix_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt);

/**
 * An on-link prefix (an RA's or a routing protocol's L flag, RFC 4861
 * §6.3.4): a route of origin RA for @p valid_s seconds (all ones: infinite);
 * 0 removes it at once (prefix.c).
 * @return 0; as tern_fib_add() when the table has no room.
 */
int ipv6_prefix_onlink(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *prefix, uint8_t len,
                       uint32_t valid_s, uint64_t now);

/**
 * An autonomous prefix (A flag): the SLAAC address of @p prefix and our
 * interface identifier (RFC 4862 §5.5.3; prefix.c).
 * @return as tern_ipv6_addrs_slaac(); -EINVAL when the link gives no identifier.
 */
int ipv6_prefix_slaac(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *prefix, uint8_t len, uint32_t preferred_s,
                      uint32_t valid_s, uint64_t now);

/* MLDv2 listener with MLDv1 compatibility (RFC 3810, RFC 2710), mld.c. */

/** @p ipif joined (or left) @p group: owe State Change Reports (§6.1). */
void ipv6_mld_change(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *group, bool join);

/** Next MLD deadline of @p ipif, or UINT64_MAX. */
uint64_t ipv6_mld_next_deadline(const tern_ipv6_if_t *ipif);

/** Send the MLD reports due at @p now_us on @p ipif. */
void ipv6_mld_tick(tern_ipv6_if_t *ipif, uint64_t now_us);

/** A Multicast Listener Query @p b of @p len bytes arrived (RFC 3810 §5.1, §6.2, §8.2.1). */
void ipv6_mld_query_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                            size_t len);

/** Another listener's MLDv1 Report @p b of @p len bytes arrived (RFC 2710 §4: suppresses ours). */
void ipv6_mld_report_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                             size_t len);

/** IPv6 state of the interface with @p if_index, or NULL. */
tern_ipv6_if_t *ipv6_find_if(tern_ipv6_t *ip, uint16_t if_index);

/** Is @p addr an address (in any state) of one of our interfaces? */
bool ipv6_is_own_address(tern_ipv6_t *ip, const tern_ipv6_addr_t *addr);

/**
 * Next-hop determination (RFC 4861 §5.2) for the unicast, not link-local
 * @p dst: a Redirect's next hop from the destination cache (hosts only,
 * §8.2/§8.3), else the longest match of the forwarding table. With @p ipif
 * set, only a route out of @p ipif counts; without one, @p dst is taken as
 * on-link on @p ipif.
 * @param[out] next_hop the neighbor to resolve: a router, or @p dst itself
 * @return the outgoing interface; NULL: no route (only when @p ipif is NULL).
 */
tern_ipv6_if_t *ipv6_route(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst,
                           tern_ipv6_addr_t *next_hop);

/**
 * Check the options of a Hop-by-Hop or Destination Options header @p hdr of
 * @p len bytes (RFC 8200 §4.2): padding and Router Alert are known and
 * skipped, an unknown option acts on its two high bits.
 * @param[out] offset offset in @p hdr of the option that asks for an error
 * @return 0 to go on; -EBADMSG to discard silently (malformed, or action
 *         01, or 11 with a multicast destination); -EPROTO to discard and
 *         answer with Parameter Problem code 2 pointing at *@p offset.
 */
int ipv6_options_check(const uint8_t *hdr, size_t len, bool dst_multicast, size_t *offset);

/**
 * Answer the received packet @p pkt (reception order, as the receive path
 * holds it: [payload..., IPV6_EXT?, IPV6, NETIF]) with an ICMPv6 error of
 * @p type / @p code and the 32-bit @p param (MTU or pointer), following
 * RFC 4443 §2.4 (suppression rules, size limit, rate limit). Consumes @p pkt.
 */
void ipv6_icmpv6_error(tern_ipv6_t *ip, tern_pkt_t *pkt, uint8_t type, uint8_t code, uint32_t param);

/**
 * A packet queued for address resolution that failed (RFC 4861 §7.2.2):
 * @p pkt in transmission order ([NETIF, IPV6 or the whole forwarded packet,
 * ...]). Forwarded (the source is not ours): answered with Destination
 * Unreachable code 3 (RFC 4443 §3.1) under the §2.4 rules, counted as
 * fwd_addr_unreach; our own: counted as tx_unresolved. Consumes @p pkt.
 */
void ipv6_icmpv6_error_unresolved(tern_ipv6_t *ip, tern_pkt_t *pkt);

/**
 * A Packet Too Big @p b of @p len bytes (checksum verified) arrived on
 * @p ipif: lower the Path MTU estimate of the destination of the packet it
 * quotes (RFC 8201 §4, §5.2; RFC 4443 §3.2) when that packet is ours.
 */
void ipv6_ptb_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const uint8_t *b, size_t len);

/** Neighbor-cache callback: send an NS for @p e (resolution or probe). */
void ipv6_ndp_send_ns(void *ctx, const tern_nc_entry_t *e, bool unicast);

/** Address-table callback: send a DAD NS for @p target. */
void ipv6_ndp_send_dad_ns(void *ctx, const tern_ipv6_addr_t *target);

/* Shared by the ND senders and receivers (icmpv6_ndp.c, ndp_router.c, ndp_6lo.c), in icmpv6_ndp.c. */

/** Room for one link-layer address option of ours: type, length and the address, padded to 8
 *  octets (RFC 4861 §4.6.1; an EUI-64: 16 bytes, RFC 4944 §8). */
#define TERN_IPV6_NDP_LLADDR_OPT_MAX ((2u + TERN_CONF_L2ADDR_MAX + 7u) / 8u * 8u)

/** Our preferred link-local address on @p ipif, or NULL (RFC 4861 §6.2.2, §6.3.7; RFC 6775 §6.5.2). */
const tern_ipv6_addr_t *ipv6_ndp_link_local(const tern_ipv6_if_t *ipif);

/**
 * Our Source or Target Link-Layer Address option (@p type) into @p buf of
 * TERN_IPV6_NDP_LLADDR_OPT_MAX bytes (RFC 4861 §4.6.1).
 * @return its length; 0 when the link has no addresses.
 */
size_t ipv6_ndp_own_lladdr(const tern_ipv6_if_t *ipif, uint8_t type, uint8_t *buf);

/**
 * The link address carried by the first option of @p type (SLLA or TLLA) in
 * the checked option area @p options, cut to the interface's address length.
 * @param[out] addr  the address, valid while @p options is
 * @return its length; 0 when the option is absent, too short, or the link
 *         has no addresses.
 */
size_t ipv6_ndp_find_lladdr(const tern_ipv6_if_t *ipif, const uint8_t *options, size_t len, uint8_t type,
                            const uint8_t **addr);

/**
 * A new ND message of @p len bytes for the emit functions of wire/ndp.h.
 * @return the snip; NULL when the packet buffer is full (counted as tx_nomem).
 */
tern_pkt_t *ipv6_ndp_alloc(tern_ipv6_t *ip, size_t len);

/**
 * Send a Neighbor Solicitation or Advertisement (@p type; the two share their
 * fixed part, RFC 4861 §4.3, §4.4) for @p target with @p options, from @p src
 * (NULL: source selection) to @p dst with hop limit 255, to the link address
 * @p l2 of @p l2_len bytes without routing or resolution (RFC 6775 §6.5.2),
 * or resolved as usual (@p l2 NULL).
 * @param na_flags  TERN_NDP_NA_FLAG_* of an NA; ignored for an NS
 * @return 0 when the message went to ipv6_output(); -ENOMEM when it could not
 *         be allocated (counted as tx_nomem).
 */
int ipv6_ndp_send_nsna(tern_ipv6_if_t *ipif, uint8_t type, uint8_t na_flags, const tern_ipv6_addr_t *target,
                       const uint8_t *options, size_t options_len, const tern_ipv6_addr_t *src,
                       const tern_ipv6_addr_t *dst, const uint8_t *l2, size_t l2_len);

/** Protocol randomness (xorshift, not cryptographic). */
uint32_t ipv6_random(tern_ipv6_t *ip);

/* Router discovery (RFC 4861 §6), ndp_router.c. */

/** @p ipif was just enabled (link-local added): start soliciting (host) or advertising (router). */
void ipv6_rd_enable(tern_ipv6_if_t *ipif);

/** Next router-discovery deadline of @p ipif, or UINT64_MAX. */
uint64_t ipv6_rd_next_deadline(const tern_ipv6_if_t *ipif);

/** Send the RS or RA due at @p now_us on @p ipif. */
void ipv6_rd_tick(tern_ipv6_if_t *ipif, uint64_t now_us);

/** Address-table callback: @p addr became preferred (a router advertises it). */
void ipv6_rd_addr_ready(void *ctx, const tern_ipv6_addr_t *addr);

/** Router: does address slot @p i of @p ipif carry a prefix it advertises (the first slot with that prefix)? */
bool ipv6_rd_advertised_prefix(const tern_ipv6_if_t *ipif, size_t i);

/** Is @p dst the all-routers group and the node a router (RFC 4291 §2.7.1)? */
bool ipv6_rd_all_routers(const tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst);

/** A Router Solicitation @p b of @p len bytes arrived (RFC 4861 §6.1.1, §6.2.6). */
void ipv6_ndp_rs_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr,
                         const uint8_t *b, size_t len);

/** A Router Advertisement @p b of @p len bytes arrived (RFC 4861 §6.1.2, §6.3.4). */
void ipv6_ndp_ra_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr,
                         const uint8_t *b, size_t len);

/** GET options of router discovery (ROUTES, LINK_PARAMS). @p ipif may be NULL. @return as get. */
int ipv6_rd_get_option(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, tern_netapi_opt_t *opt);

/** SET options of router discovery (ROUTER). @return as set; -ENOTSUP for others. */
int ipv6_rd_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt);

/*
 * Source routes for the packets we originate or forward (RFC 6554 §4.1:
 * the Source Routing Header, in a tunnel for forwarded ones, tunnel.c) come
 * from a source route provider (TERN_NETOPT_IPV6_SOURCE_ROUTER), and the
 * only one is RPL's non-storing root (src/rpl/nonstoring.c, RFC 6550 §9.7).
 * A build without it (a host, no RPL, or TERN_CONF_RPL_NS_LINKS 0: config.h)
 * has none: the option answers -ENOTSUP and srh.c keeps only the processing
 * of received headers (RFC 6554 §4.2), which every RPL router needs.
 */
#define IPV6_SOURCE_ROUTES (TERN_CONF_IPV6_ROUTER && TERN_CONF_RPL && TERN_CONF_RPL_NS_LINKS > 0)
/* tern_ipv6_t keeps the provider and its answer only then (tern/ipv6/ipv6.h: the same condition). */

#if TERN_CONF_IPV6_ROUTER

/* Forwarding (RFC 8200 §3, §5), forward.c. */

/**
 * Forward the received unicast packet @p pkt, not for the interface it
 * arrived on, as a router: scope checks (RFC 4291 §2.5.6), hop limit,
 * route, link MTU, each failure counted and answered with its ICMPv6 error.
 * @pre @p ip->router; @p pkt is [the whole packet (header first, head snip
 *      writable), NETIF] with header @p hdr parsed and @p payload_len checked.
 * Consumes @p pkt.
 */
void ipv6_forward(tern_ipv6_t *ip, const tern_ipv6_repr_t *hdr, size_t payload_len, tern_pkt_t *pkt);

/**
 * ipv6_forward() with the outgoing interface @p out and the neighbor
 * @p next_hop given (both NULL: by the forwarding table, as ipv6_forward()).
 * The source-routing receive path uses it (srh.c, RFC 6554 §4.2).
 */
void ipv6_forward_via(tern_ipv6_t *ip, const tern_ipv6_repr_t *hdr, size_t payload_len, tern_pkt_t *pkt,
                      tern_ipv6_if_t *out, const tern_ipv6_addr_t *next_hop);

/** SET TERN_NETOPT_IPV6_ROUTE_ADD / _DEL (static routes). @return as set. */
int ipv6_forward_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt);

/* Source routing (RFC 6554, tern/ipv6/srh.h), srh.c. */

#if IPV6_SOURCE_ROUTES
/** SET TERN_NETOPT_IPV6_SOURCE_ROUTER. @return as set. */
int ipv6_srh_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt);

/**
 * Ask the source route provider, if any, for a route to the unicast
 * global @p dst of a packet we originate or forward (tunnel.c); the answer stays in
 * ip->source_route for ipv6_srh_len() and ipv6_srh_prepend().
 * @param[in,out] ipif     the interface asked for (NULL: any); the route's on 1
 * @param[out]    next_hop the neighbor to send to (the first hop), on 1
 * @return 1: source-routed; 0: no route from the provider, route as usual.
 */
int ipv6_srh_route(tern_ipv6_t *ip, const tern_ipv6_addr_t *dst, tern_ipv6_if_t **ipif, tern_ipv6_addr_t *next_hop);

/** Length of the Source Routing Header of the last route (0: one hop, no header). */
size_t ipv6_srh_len(const tern_ipv6_t *ip);

/**
 * Put the Source Routing Header of the last route (more than one hop)
 * before @p payload, announcing @p nh; *@p wire_dst becomes the first hop.
 * @return the new head (an IPV6_EXT snip); NULL: no packet buffer (@p payload untouched).
 */
tern_pkt_t *ipv6_srh_prepend(tern_ipv6_t *ip, tern_pkt_t *payload, uint8_t nh, tern_ipv6_addr_t *wire_dst);
#endif

/**
 * A router received @p pkt ([the whole packet, header @p hdr first and
 * private, NETIF]) for one of its addresses: if a Source Routing Header
 * with Segments Left above 0 is in it, process it (RFC 6554 §4.2): drop
 * and count, or advance and forward (with @p hdr's destination set to the
 * next address: the caller's copy, no second one on the receive path's stack).
 * @return true when @p pkt was consumed; false: no such header, go on
 *         (@p hdr unchanged).
 */
bool ipv6_srh_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, tern_ipv6_repr_t *hdr, size_t payload_len,
                      tern_pkt_t *pkt);

#else /* !TERN_CONF_IPV6_ROUTER: a host image, forward.c and srh.c not built (config.h) */

/* A host forwards nothing (RFC 8200 §3: only routers forward); ip->router
 * stays false (tern_ipv6_set_router() answers -ENOTSUP), so the receive path
 * never calls these: they drop and count as a host would. */
static inline void ipv6_forward(tern_ipv6_t *ip, const tern_ipv6_repr_t *hdr, size_t payload_len, tern_pkt_t *pkt)
{
    (void)hdr;
    (void)payload_len;
    ipv6_count(ip, TERN_IPV6_RX_NOT_FOR_US);
    tern_pktbuf_release(ipv6_pktbuf(ip), pkt);
}

static inline void ipv6_forward_via(tern_ipv6_t *ip, const tern_ipv6_repr_t *hdr, size_t payload_len, tern_pkt_t *pkt,
                                    tern_ipv6_if_t *out, const tern_ipv6_addr_t *next_hop)
{
    (void)out;
    (void)next_hop;
    ipv6_forward(ip, hdr, payload_len, pkt);
}

static inline int ipv6_forward_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    (void)ip;
    (void)opt;
    return -ENOTSUP;
}

/* RFC 6554 §4.2 processing is a router's: a host's receive path applies
 * RFC 8200 §4.4 to a Routing header with Segments Left above 0. */
static inline bool ipv6_srh_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, tern_ipv6_repr_t *hdr,
                                    size_t payload_len, tern_pkt_t *pkt)
{
    (void)ip;
    (void)ipif;
    (void)hdr;
    (void)payload_len;
    (void)pkt;
    return false;
}

#endif /* TERN_CONF_IPV6_ROUTER */

#if !IPV6_SOURCE_ROUTES
/* No source route provider in the build (a host, or a router without RPL's
 * non-storing root: IPV6_SOURCE_ROUTES): SET TERN_NETOPT_IPV6_SOURCE_ROUTER
 * answers -ENOTSUP and every packet is routed as usual. */
static inline int ipv6_srh_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    (void)ip;
    (void)opt;
    return -ENOTSUP;
}

static inline int ipv6_srh_route(tern_ipv6_t *ip, const tern_ipv6_addr_t *dst, tern_ipv6_if_t **ipif,
                                 tern_ipv6_addr_t *next_hop)
{
    (void)ip;
    (void)dst;
    (void)ipif;
    (void)next_hop;
    return 0;
}

static inline size_t ipv6_srh_len(const tern_ipv6_t *ip)
{
    (void)ip;
    return 0;
}

static inline tern_pkt_t *ipv6_srh_prepend(tern_ipv6_t *ip, tern_pkt_t *payload, uint8_t nh, tern_ipv6_addr_t *wire_dst)
{
    (void)ip;
    (void)nh;
    (void)wire_dst;
    return payload;
}
#endif

/* IPv6-in-IPv6 (RFC 2473) for source routing (RFC 6554 §4.1, RFC 9008), tunnel.c. */

/** Decapsulations one received packet may go through (tunnel.c: a second one is dropped, tun_nested). */
#define TERN_IPV6_TUNNEL_DEPTH_MAX 1u

/**
 * Tunnel exit (RFC 2473 §3.3): @p pkt, received for us, is [inner packet
 * (next header 41 named it), IPV6_EXT?, IPV6, NETIF] at nesting @p depth
 * (0: the packet as it arrived). The inner header is checked (parse, its
 * Payload Length fits), the outer headers go, the inner hop limit stays.
 * @return [inner packet (header first, head private), NETIF (the interface
 *         it arrived on)] for the receive path; NULL: dropped and counted
 *         (tun_malformed, tun_nested, rx_nomem). Consumes @p pkt either way.
 */
tern_pkt_t *ipv6_tunnel_decap(tern_ipv6_t *ip, tern_pkt_t *pkt, unsigned depth);

/**
 * Forwarding at a node with a source route provider (RPL's non-storing
 * root): @p pkt ([the whole packet, head private, NETIF], header @p hdr,
 * hop limit and scope already checked by forward.c) to a destination the
 * provider has a route for. More than one hop: the packet, its hop limit
 * decremented, its RPL Option checked and updated (rpi.c), is encapsulated
 * (outer header from us to the destination, RPL Option in a DODAG, Source
 * Routing Header) and sent to the first hop; too big for the path:
 * Packet Too Big to its source (RFC 2473 §7.1, §8.2). A storing root
 * tunnels a packet from a non-RPL interface to a DAO target (a /128 RPL
 * route, not a neighbor) the same way without the Source Routing Header
 * (RFC 9008 §7.2.2).
 * @param[out] out      one hop: the interface to the neighbor (else untouched)
 * @param[out] next_hop one hop: the neighbor
 * @return 1: consumed (sent, or dropped and counted); 0: not tunnelled,
 *         forward as usual (*@p out set when the provider's route is one hop).
 */
int ipv6_tunnel_forward(tern_ipv6_t *ip, const tern_ipv6_repr_t *hdr, size_t payload_len, tern_pkt_t *pkt,
                        tern_ipv6_if_t **out, tern_ipv6_addr_t *next_hop);

/**
 * RFC 2473 §8.2 at the tunnel entry: the ICMPv6 error message @p b
 * (@p len bytes, checksum checked) about a tunnel packet we sent (the
 * quoted outer source is ours, its headers lead to next header 41 and the
 * inner header is quoted) makes us send Destination Unreachable code 3
 * (address unreachable) to the inner packet's source, quoting the inner
 * packet (counted tun_error_relayed). Packet Too Big is not relayed (it
 * lowers the path MTU, hence the tunnel MTU, pmtu.c). Anything else: no-op.
 */
void ipv6_tunnel_error_receive(tern_ipv6_t *ip, const uint8_t *b, size_t len);

/**
 * Send ICMPv6 @p type / @p code / @p param about the packet whose first
 * @p len bytes are @p invoking (an IPv6 header first) to its source, out of
 * the interface that routes there, under the RFC 4443 §2.4 rules
 * (icmpv6_error.c; tunnel.c relays errors with it).
 */
void ipv6_icmpv6_error_about(tern_ipv6_t *ip, const uint8_t *invoking, size_t len, uint8_t type, uint8_t code,
                             uint32_t param);

/** RFC 6724 source address for @p dst out of @p ipif (ipv6.c). @return 0 or -EADDRNOTAVAIL. */
int ipv6_choose_source(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst, tern_ipv6_addr_t *out);

/* RPL Packet Information (RFC 6553, RFC 6550 §11.2; tern/ipv6/rpi.h), rpi.c. */
#if TERN_CONF_RPL

/*
 * Can RPL's state name a preferred parent? Only a node that joins a DODAG
 * has one, and joining needs an objective function (TERN_CONF_RPL_OF0 or
 * _MRHOF; RPL_JOINS in src/rpl/rpl_internal.h). A build with neither is a
 * root only: SET TERN_NETOPT_IPV6_RPL_STATE refuses a parent there, and the
 * RPI's parent rules (O clear towards it, a loop through it) fold away.
 */
#define IPV6_RPL_PARENT (TERN_CONF_RPL_OF0 || TERN_CONF_RPL_MRHOF)

/** SET TERN_NETOPT_IPV6_RPL_STATE. @return as set; -EINVAL for a bad value. */
int ipv6_rpi_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt);

/** GET TERN_NETOPT_IPV6_RPL_STATE: the bytes last SET (all zero before). @return its size; -EOVERFLOW. */
int ipv6_rpi_get_option(const tern_ipv6_t *ip, tern_netapi_opt_t *opt);

/** Is @p if_index one of RPL's interfaces (the last state RPL set)? */
bool ipv6_rpi_is_rpl_if(const tern_ipv6_t *ip, uint16_t if_index);

/**
 * Octets of the Hop-by-Hop header with the RPL Option that a packet we
 * originate to @p dst out of @p ipif gets: TERN_RPL_HBH_HDR_LEN (8) in a
 * DODAG, on an RPL interface, to a unicast not link-local @p dst; else 0.
 */
size_t ipv6_rpi_len(const tern_ipv6_t *ip, const tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst);

/**
 * Put the Hop-by-Hop header with the RPL Option before @p payload,
 * announcing @p nh: our instance and rank, O set unless @p next_hop is
 * the preferred parent (and not @p source_routed). Counted as rpi_added.
 * @return the new head (an IPV6_EXT snip); NULL: no packet buffer (@p payload untouched).
 */
tern_pkt_t *ipv6_rpi_prepend(tern_ipv6_t *ip, tern_pkt_t *payload, uint8_t nh, const tern_ipv6_addr_t *next_hop,
                             bool source_routed);

/**
 * Forwarding (forward.c), after the route: the RPL Option of @p pkt
 * ([the whole packet, private, header @p hdr; NETIF (in)]) when it came
 * from an RPL interface. Out of an RPL interface: instance check, rank
 * check (R, or drop), forwarding error (F, storing mode), SenderRank and O
 * updated in place; out of another interface: the header removed when it
 * holds only the option (@p hdr and @p payload_len updated). A packet with
 * F coming back makes us remove our route and may change @p out and
 * @p next_hop. @p source_routed: the route came from a Source Routing
 * Header (down).
 * @return 0 to go on; -EPROTO when @p pkt was dropped (counted, released).
 * @see RFC 6550 §11.2.2, RFC 6553 §4, RFC 9008 §7
 */
int ipv6_rpi_forward(tern_ipv6_t *ip, tern_pkt_t *pkt, tern_ipv6_repr_t *hdr, size_t *payload_len,
                     tern_ipv6_if_t **out, tern_ipv6_addr_t *next_hop, bool source_routed);
#else
/* TERN_CONF_RPL 0 (config.h): no RPL, rpi.c left out. A RPL-Unaware Leaf
 * (RFC 9008 §2) adds no RPL Option; forwarded packets keep what they carry. */
static inline int ipv6_rpi_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    (void)ip;
    (void)opt;
    return -ENOTSUP;
}

static inline int ipv6_rpi_get_option(const tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    (void)ip;
    (void)opt;
    return -ENOTSUP;
}

static inline bool ipv6_rpi_is_rpl_if(const tern_ipv6_t *ip, uint16_t if_index)
{
    (void)ip;
    (void)if_index;
    return false;
}

static inline size_t ipv6_rpi_len(const tern_ipv6_t *ip, const tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst)
{
    (void)ip;
    (void)ipif;
    (void)dst;
    return 0;
}

static inline tern_pkt_t *ipv6_rpi_prepend(tern_ipv6_t *ip, tern_pkt_t *payload, uint8_t nh,
                                           const tern_ipv6_addr_t *next_hop, bool source_routed)
{
    (void)ip;
    (void)payload;
    (void)nh;
    (void)next_hop;
    (void)source_routed;
    return NULL; /* never called: ipv6_rpi_len() is 0 */
}

static inline int ipv6_rpi_forward(tern_ipv6_t *ip, tern_pkt_t *pkt, tern_ipv6_repr_t *hdr, size_t *payload_len,
                                   tern_ipv6_if_t **out, tern_ipv6_addr_t *next_hop, bool source_routed)
{
    (void)ip;
    (void)pkt;
    (void)hdr;
    (void)payload_len;
    (void)out;
    (void)next_hop;
    (void)source_routed;
    return 0;
}
#endif

/* Fragmentation and reassembly (RFC 8200 §4.5), frag.c and reass.c. */

/** Link MTU of @p ipif: the RA-learnt one (RFC 4861 §6.3.4) if any, else the interface's (65535 if unknown). */
uint16_t ipv6_link_mtu(const tern_ipv6_if_t *ipif);

/**
 * Path MTU towards @p dst out of @p ipif for packets we originate: the
 * destination cache's estimate from a Packet Too Big (RFC 8201 §4) when it
 * is below the link MTU, else the link MTU.
 */
uint16_t ipv6_path_mtu(tern_ipv6_t *ip, const tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst);

/**
 * Where ipv6_frag_split() hands each fragment: @p frag is [Fragment header,
 * slice] (transmission order), to be sent behind the unfragmentable part.
 * Consumes @p frag. @return 0 or a negative errno.
 */
typedef int (*ipv6_frag_send_t)(tern_ipv6_t *ip, void *ctx, tern_pkt_t *frag);

#if TERN_CONF_IPV6_FRAG
/**
 * Cut @p payload (the fragmentable part, snips in transmission order) into
 * fragments of one datagram (one Identification, RFC 8200 §4.5) whose
 * packets, each behind an unfragmentable part of @p unfrag_len bytes (IPv6
 * header and the extension headers every fragment carries), fit @p mtu;
 * the Fragment headers name @p nh; each goes to @p send with @p ctx, last
 * first. Counted (frag_ok, frag_sent, frag_fail). Ownership of @p payload passes.
 * @return 0; -EMSGSIZE (MTU too small to fragment); -ENOMEM; else the first error of @p send.
 */
int ipv6_frag_split(tern_ipv6_t *ip, size_t mtu, size_t unfrag_len, uint8_t nh, tern_pkt_t *payload,
                    ipv6_frag_send_t send, void *ctx);

/**
 * Send @p payload (checksum filled, 40 + its length > the path MTU to
 * @p dst, ipv6_path_mtu()) from @p src to @p dst in fragments (RFC 8200
 * §4.5), each through ipv6_output(). Ownership of @p payload passes.
 * @return 0; -EMSGSIZE (MTU too small to fragment); -ENOMEM. Counted.
 */
int ipv6_frag_output(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *src,
                     const tern_ipv6_addr_t *dst, uint8_t nh, uint8_t hop_limit, tern_pkt_t *payload);
#else /* frag.c not built (config.h): a packet above the path MTU is not sent (RFC 8200 §5 asks a node
       * to send 1280-byte packets, not larger ones) */
static inline int ipv6_frag_split(tern_ipv6_t *ip, size_t mtu, size_t unfrag_len, uint8_t nh, tern_pkt_t *payload,
                                  ipv6_frag_send_t send, void *ctx)
{
    (void)mtu;
    (void)unfrag_len;
    (void)nh;
    (void)send;
    (void)ctx;
    ipv6_count(ip, TERN_IPV6_FRAG_FAIL);
    tern_pktbuf_release(ipv6_pktbuf(ip), payload);
    return -EMSGSIZE;
}

static inline int ipv6_frag_output(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *src,
                                   const tern_ipv6_addr_t *dst, uint8_t nh, uint8_t hop_limit, tern_pkt_t *payload)
{
    (void)ipif;
    (void)src;
    (void)dst;
    (void)nh;
    (void)hop_limit;
    ipv6_count(ip, TERN_IPV6_FRAG_FAIL);
    tern_pktbuf_release(ipv6_pktbuf(ip), payload);
    return -EMSGSIZE;
}
#endif

/**
 * A received packet has a Fragment header: @p pkt is [payload (starting
 * after the fixed header, trimmed to the Payload Length, users 1), IPV6
 * (users 1), NETIF]; the header is at @p frag_offset in the payload, the
 * field naming it at @p nh_field from the IPv6 header. Consumes @p pkt.
 * @return NULL (kept for reassembly, or dropped and counted); or a whole
 *         datagram to go on with: [fragmentable part, IPV6_EXT?, IPV6, NETIF],
 *         @p hdr updated (next_header: the first header of that part).
 * @see RFC 8200 §4.5, RFC 5722, RFC 6946
 */
tern_pkt_t *ipv6_reass_receive(tern_ipv6_t *ip, tern_pkt_t *pkt, tern_ipv6_repr_t *hdr, size_t frag_offset,
                               uint16_t nh_field, bool tentative);

/** Earliest reassembly deadline, or UINT64_MAX. */
uint64_t ipv6_reass_next_deadline(const tern_ipv6_t *ip);

/** Expire datagrams whose deadline passed at @p now_us (Time Exceeded code 1). */
void ipv6_reass_tick(tern_ipv6_t *ip, uint64_t now_us);

/** Hand the frame @p pkt ([NETIF with the link destination set, IPV6, ...]) to its interface, counted. */
void ipv6_transmit(tern_ipv6_t *ip, tern_pkt_t *pkt);

/**
 * Send the frame @p pkt ([NETIF, IPV6, ...]) to the neighbor @p next_hop on
 * @p ipif: through the neighbor cache (RFC 4861 §7.2), or on a 6LoWPAN link
 * by the rules of RFC 6775 (ipv6_6lo_send()). Consumes @p pkt.
 */
void ipv6_resolve_send(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *next_hop, tern_pkt_t *pkt);

/**
 * ipv6_output() to the link address @p l2dst (@p l2len bytes) without
 * routing or resolution, out of @p ipif (required): the NA answering a
 * registration goes to the registering node's SLLAO (RFC 6775 §6.5.2).
 * @return as ipv6_output(); -EINVAL for a missing interface or address.
 */
int ipv6_output_l2(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                   uint8_t nh, uint8_t hop_limit, tern_pkt_t *payload, const uint8_t *l2dst, size_t l2len);

/* 6LoWPAN Neighbor Discovery (RFC 6775, RFC 8505), ndp_6lo.c. */

/** @p ipif is a 6LoWPAN link (contract: device type IEEE 802.15.4): set up its state. */
void ipv6_6lo_enable(tern_ipv6_if_t *ipif);

/** The node became a router or a host: the rules of the new role apply on @p ipif. */
void ipv6_6lo_mode_changed(tern_ipv6_if_t *ipif);

/**
 * A Neighbor Solicitation @p b of @p len bytes arrived on a 6LoWPAN link.
 * @return true when it carried an ARO and was handled (registration, or a
 *         counted drop); false: an ordinary NS for ns_receive().
 */
bool ipv6_6lo_ns_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                         size_t len);

/** The same for a Neighbor Advertisement (the router's answer to a registration). */
bool ipv6_6lo_na_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                         size_t len);

/**
 * A host on a 6LoWPAN link got a valid RA with @p options: the ABRO
 * (RFC 6775 §4.3) and the 6COs (§4.2, §5.4.3).
 * @return false when the RA must be ignored (malformed ABRO, older version), counted.
 */
bool ipv6_6lo_ra_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const uint8_t *options, size_t len);

/**
 * Router: the 6CO of each advertised prefix and the ABRO for an RA on
 * @p ipif (RFC 6775 §4.2, §4.3), written to @p buf when it
 * is not NULL. @return their length (0 on other links).
 */
size_t ipv6_6lo_ra_options(tern_ipv6_if_t *ipif, uint8_t *buf, size_t len);

/** Next-hop and link-address rules of a 6LoWPAN link (RFC 6775 §5.6, §6.5.2; RFC 4944 §6). Consumes @p pkt. */
void ipv6_6lo_send(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *next_hop, tern_pkt_t *pkt);

/** Host: start or drop registrations so they follow the addresses and default routers of @p ipif. */
void ipv6_6lo_sync(tern_ipv6_if_t *ipif);

/** Next 6LoWPAN-ND deadline of @p ipif, or UINT64_MAX. */
uint64_t ipv6_6lo_next_deadline(const tern_ipv6_if_t *ipif);

/** Registrations (host and router) and contexts due at @p now_us on @p ipif. */
void ipv6_6lo_tick(tern_ipv6_if_t *ipif, uint64_t now_us);

/** GET TERN_NETOPT_IPV6_6LO. @p ipif may be NULL. @return as get. */
int ipv6_6lo_get_option(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, tern_netapi_opt_t *opt);

#endif /* TERN_IPV6_INTERNAL_H */
