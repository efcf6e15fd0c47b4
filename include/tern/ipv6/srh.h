/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Source routing in the IPv6 module: the RPL Source Routing Header
 *        (RFC 6554) inserted in packets the node originates, for a source
 *        route provider, and processed by routers on receipt.
 *
 * Read first: RFC 6554 §4.1 (generating: only by the RPL root, to nodes of
 * its RPL domain), §4.2 (processing), RFC 8200 §4.4; RFC 6550 §9.7.
 *
 * **Sending.** A provider (RPL's non-storing root) installs itself with SET
 * TERN_NETOPT_IPV6_SOURCE_ROUTER on the IPv6 module. For every unicast,
 * not link-local packet the node originates, the IPv6 module asks it for a
 * route to the destination before its own next-hop determination. A route
 * of one hop (a neighbor) sends the packet as it is to that neighbor; a
 * longer one puts the first hop in the IPv6 destination and the rest in a
 * Source Routing Header (tern_srh_path_emit()) before the payload, whose
 * checksum is computed for the final destination (RFC 8200 §8.1). On a
 * 6LoWPAN link the first hop's link-local address is the one with its
 * interface identifier (RFC 6775 §5.7): no route and no resolution needed.
 * A packet that would need IPv6 fragmentation with the header is dropped
 * (srh_too_big): the header would have to sit in the unfragmentable part.
 *
 * Packets the node forwards are not given a header: RFC 8200 forbids
 * inserting one on the way, and RFC 6554 §4.1 requires IPv6-in-IPv6
 * tunnelling for that: a router asks the provider before its forwarding
 * table and sends the packet inside an outer header with the Source Routing
 * Header to the destination, which decapsulates (src/ipv6/tunnel.c,
 * RFC 2473, RFC 9008; see docs/RPL.md).
 *
 * **Receiving** (a router that is the packet's destination, Segments Left
 * above 0): the checks of tern_srh_check() (RFC 6554 §4.2), each failure
 * dropped and counted in the ipv6 group (srh_malformed, srh_bad_segments_left
 * with Parameter Problem code 0 pointing at Segments Left, srh_multicast,
 * srh_loop with Parameter Problem code 0 pointing at the header's first
 * address); then the destination is swapped with the next address
 * (tern_srh_advance()) and the packet forwarded like any other (hop limit,
 * Time Exceeded, MTU): on a 6LoWPAN link straight to the link-local address
 * of the new destination's interface identifier on the link it arrived on,
 * elsewhere by the forwarding table. A host does not process the header
 * (RFC 8200 §4.4: it is discarded as an unrecognized Routing Type would be).
 */
#ifndef TERN_IPV6_SRH_H
#define TERN_IPV6_SRH_H

#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/wire/ipv6_addr.h"

/** A source route from this node: a provider's answer. */
typedef struct {
    /** hops[0] the first hop (a neighbor), hops[count - 1] the destination. */
    tern_ipv6_addr_t hops[TERN_CONF_IPV6_SRH_HOPS];
    size_t count;      /**< 1..TERN_CONF_IPV6_SRH_HOPS */
    uint16_t if_index; /**< interface towards hops[0] */
} tern_ipv6_source_route_t;

/**
 * A source route provider: fill @p route for @p dst.
 * Called on the IPv6 module's turn (its thread under the threaded executor):
 * the provider synchronises with its own module itself.
 * @return 1: @p route filled; 0: no source route for @p dst (the IPv6
 *         module routes the packet by its forwarding table).
 */
typedef int (*tern_ipv6_source_route_fn)(void *ctx, const tern_ipv6_addr_t *dst, tern_ipv6_source_route_t *route);

/** Value of TERN_NETOPT_IPV6_SOURCE_ROUTER (SET on the IPv6 module). */
typedef struct {
    tern_ipv6_source_route_fn fn; /**< NULL: remove the provider */
    void *ctx;                    /**< its argument */
} tern_ipv6_source_router_t;

#endif /* TERN_IPV6_SRH_H */
