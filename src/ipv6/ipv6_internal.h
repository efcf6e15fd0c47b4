/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Functions shared by the files of the IPv6 module (not public).
 */
#ifndef TERN_IPV6_INTERNAL_H
#define TERN_IPV6_INTERNAL_H

#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/wire/ipv6.h"

/** Hop limit of ND messages (RFC 4861 §6.1, §7.1). */
#define TERN_IPV6_ND_HOP_LIMIT 255u
/** Default hop limit for packets we originate (IANA/RFC 4861 §6.3.2 CurHopLimit default 64). */
#define TERN_IPV6_DEFAULT_HOP_LIMIT 64u

/** Count event @p c of @p ip. */
static inline void ipv6_count(tern_ipv6_t *ip, unsigned c)
{
    tern_count(&ip->counters[c]);
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

/** IPv6 state of the interface with @p if_index, or NULL. */
tern_ipv6_if_t *ipv6_find_if(tern_ipv6_t *ip, uint16_t if_index);

/**
 * Answer the received packet @p pkt (reception order, as the receive path
 * holds it: [payload..., IPV6_EXT?, IPV6, NETIF]) with an ICMPv6 error of
 * @p type / @p code and the 32-bit @p param (MTU or pointer), following
 * RFC 4443 §2.4 (suppression rules, size limit, rate limit). Consumes @p pkt.
 */
void ipv6_icmpv6_error(tern_ipv6_t *ip, tern_pkt_t *pkt, uint8_t type, uint8_t code, uint32_t param);

/** Neighbor-cache callback: send an NS for @p e (resolution or probe). */
void ipv6_ndp_send_ns(void *ctx, const tern_nc_entry_t *e, bool unicast);

/** Address-table callback: send a DAD NS for @p target. */
void ipv6_ndp_send_dad_ns(void *ctx, const tern_ipv6_addr_t *target);

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

#endif /* TERN_IPV6_INTERNAL_H */
