/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Functions shared by the files of the IPv6 module (not public).
 */
#ifndef TERN_IPV6_INTERNAL_H
#define TERN_IPV6_INTERNAL_H

#include "tern/ipv6/ipv6.h"
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

/** Neighbor-cache callback: send an NS for @p e (resolution or probe). */
void ipv6_ndp_send_ns(void *ctx, const tern_nc_entry_t *e, bool unicast);

/** Address-table callback: send a DAD NS for @p target. */
void ipv6_ndp_send_dad_ns(void *ctx, const tern_ipv6_addr_t *target);

#endif /* TERN_IPV6_INTERNAL_H */
