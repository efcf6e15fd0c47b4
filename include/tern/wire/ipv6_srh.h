/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL Source Routing Header, IPv6 Routing header type 3 (RFC 6554).
 *
 * Read first: RFC 6554 §3 (format, CmprI/CmprE/Pad, the formula for n),
 * §4.1 (generating the header), §4.2 (processing it: Segments Left, the
 * multicast and loop checks, the swap); RFC 8200 §4.4 (Routing header).
 *
 * Layout: Next Header, Hdr Ext Len, Routing Type 3, Segments Left,
 * CmprI (4) | CmprE (4) | Pad (4) | Reserved (20), Address[1..n]. Address[i]
 * for i < n carries 16 - CmprI octets, Address[n] 16 - CmprE octets; the
 * elided leading octets are those of the IPv6 Destination Address (§3), and
 * n = ((Hdr Ext Len * 8 - Pad - (16 - CmprE)) / (16 - CmprI)) + 1.
 *
 * Which destination address: the one the packet carries when the address is
 * expanded. The destinations before the last (the first hop and the
 * expanded Address[1..n-1]) all share the CmprI leading octets, so
 * Address[1..n-1] expand the same at every hop that processes the header.
 * For Address[n], a reading that takes the prefix from the destination just
 * before it (Address[n-1]) and one that takes it from the current
 * destination (Wireshark's) differ when the route's destinations disagree
 * within CmprE octets; tern_srh_layout() therefore picks CmprE no larger
 * than the prefix Address[n] shares with every destination of the route, so
 * both readings agree on headers Tern builds. tern_srh_addr() expands with
 * the destination it is given. Once Segments Left is 0 the vector holds the
 * hops visited; Address[1..n-1] then expand right with the final destination
 * only within the octets it shares with them (CmprE may be below CmprI):
 * §4.2 reads nothing there, and Tern prefers the shorter header.
 *
 * Receive path (a router, RFC 6554 §4.2):
 * @code
 * if (tern_srh_parse(&srh, hdr, len) < 0) drop;           // malformed
 * switch (tern_srh_check(&srh, &ip.dst, is_own, ctx)) {
 * case TERN_SRH_DONE: continue with srh.next_header;
 * case TERN_SRH_BAD_SEGMENTS_LEFT: ICMPv6 Parameter Problem code 0 at offset 3; drop;
 * case TERN_SRH_MULTICAST: drop;
 * case TERN_SRH_LOOP: ICMPv6 Parameter Problem code 0; drop;
 * case TERN_SRH_FORWARD: tern_srh_advance(hdr, len, &ip.dst); hop limit; forward;
 * }
 * @endcode
 *
 * Errors are negative errno values: -EBADMSG malformed input, -ERANGE
 * Segments Left outside 1..n where a hop to visit is needed, -ENOBUFS output
 * buffer too small, -EINVAL bad argument.
 */
#ifndef TERN_WIRE_IPV6_SRH_H
#define TERN_WIRE_IPV6_SRH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"

/** Routing Type of the Source Routing Header (RFC 6554 §3, IANA). */
#define TERN_SRH_ROUTING_TYPE 3u
/** Octets before Address[1]. */
#define TERN_SRH_FIXED_LEN 8u
/** Largest CmprI, CmprE and Pad (4-bit fields). */
#define TERN_SRH_FIELD4_MAX 15u
/** Longest Routing header: Hdr Ext Len 255 (RFC 8200 §4.4). */
#define TERN_SRH_MAX_LEN 2048u
/** Most addresses tern_srh_path_emit() writes: Segments Left (8 bits) starts at n. */
#define TERN_SRH_MAX_HOPS 255u

/** A parsed Source Routing Header; @ref addrs points into the parsed buffer. */
typedef struct {
    uint8_t next_header;
    uint8_t segments_left;
    uint8_t cmpr_i;          /**< octets elided from Address[1..n-1] */
    uint8_t cmpr_e;          /**< octets elided from Address[n] */
    uint8_t pad;             /**< octets of padding after Address[n] */
    size_t count;            /**< n, at least 1 */
    const uint8_t *addrs;    /**< Address[1] .. Address[n] as on the wire */
    size_t len;              /**< the whole header: (Hdr Ext Len + 1) * 8 */
} tern_srh_repr_t;

/** The route tern_srh_path_emit() compresses. */
typedef struct {
    uint8_t next_header;
    const tern_ipv6_addr_t *dst;  /**< the IPv6 Destination Address the packet leaves with: the first hop */
    const tern_ipv6_addr_t *hops; /**< Address[1..n]: the hops after @ref dst, the last the final destination */
    size_t count;                 /**< n */
} tern_srh_path_t;

/** How tern_srh_path_emit() lays out a path: the compression it chose. */
typedef struct {
    uint8_t cmpr_i;
    uint8_t cmpr_e;
    uint8_t pad;
    size_t len; /**< octets of the whole header, a multiple of 8 */
} tern_srh_layout_t;

/** What RFC 6554 §4.2 tells a node to do with a received header (tern_srh_check()). */
typedef enum {
    /** Segments Left is 1..n and Address[i] passed the checks: advance and forward. */
    TERN_SRH_FORWARD = 0,
    /** Segments Left is 0: process the next header. */
    TERN_SRH_DONE,
    /** Segments Left > n: ICMPv6 Parameter Problem code 0 pointing to Segments Left; discard. */
    TERN_SRH_BAD_SEGMENTS_LEFT,
    /** Address[i] or the IPv6 Destination Address is multicast: discard. */
    TERN_SRH_MULTICAST,
    /** Two of our addresses with another address between them: ICMPv6 Parameter Problem code 0; discard. */
    TERN_SRH_LOOP,
} tern_srh_verdict_t;

/** Whether @p addr is assigned to one of the node's interfaces. */
typedef bool (*tern_srh_is_own_fn)(void *ctx, const tern_ipv6_addr_t *addr);

/**
 * Parse a Source Routing Header at the start of @p buf. Reserved is ignored;
 * Segments Left is reported, not judged (tern_srh_check() does, §4.2).
 * @return the header length; -EBADMSG if @p len is shorter than 8 octets or
 *         than the header, the Routing Type is not 3, or Hdr Ext Len,
 *         CmprI, CmprE and Pad give no whole number n >= 1 of addresses
 *         (RFC 6554 §3's formula leaves a remainder or a negative count).
 */
int tern_srh_parse(tern_srh_repr_t *repr, const uint8_t *buf, size_t len);

/**
 * Address[@p i] in full: its octets after the elided prefix, which comes
 * from @p dst (RFC 6554 §3).
 * @param[in] i    1..n, as RFC 6554 numbers them
 * @param[in] dst  the IPv6 Destination Address to expand with (normally the packet's)
 * @return 0; -EINVAL if @p i is not in 1..n.
 */
int tern_srh_addr(const tern_srh_repr_t *repr, size_t i, const tern_ipv6_addr_t *dst, tern_ipv6_addr_t *out);

/**
 * The checks of RFC 6554 §4.2 for a node that received the header as the
 * packet's destination, before it advances the route:
 * 1. Segments Left 0: TERN_SRH_DONE (nothing else is looked at).
 * 2. Segments Left > n: TERN_SRH_BAD_SEGMENTS_LEFT.
 * 3. i = n - (Segments Left - 1), the address to visit next; Address[i] or
 *    @p dst multicast: TERN_SRH_MULTICAST.
 * 4. Every Address[1..n], expanded with @p dst, is asked to @p is_own; if
 *    two addresses for which it answers true have at least one address for
 *    which it answers false between them: TERN_SRH_LOOP. Only the vector is
 *    examined (not @p dst), and adjacent own addresses are no loop, as §4.2
 *    words it.
 * 5. Otherwise TERN_SRH_FORWARD.
 * Pure: the header is not changed.
 * @param[in] repr    a header parsed by tern_srh_parse()
 * @param[in] dst     the packet's IPv6 Destination Address (one of ours)
 * @param[in] is_own  our addresses (may be NULL: no address is ours, no loop check)
 */
tern_srh_verdict_t tern_srh_check(const tern_srh_repr_t *repr, const tern_ipv6_addr_t *dst,
                                  tern_srh_is_own_fn is_own, void *ctx);

/**
 * The step of RFC 6554 §4.2 after the checks: decrement Segments Left,
 * compute i = n - Segments Left, swap @p dst and Address[i] (the old
 * destination is stored compressed as Address[i] was; it shares the elided
 * octets with the new one by construction).
 * @param[in,out] buf  the header, changed in place
 * @param[in,out] dst  the packet's IPv6 Destination Address; the caller
 *                     writes the new value into the IPv6 header
 * @return i (1..n); -EBADMSG if the header does not parse; -ERANGE if
 *         Segments Left is 0 or above n (nothing is changed then).
 */
int tern_srh_advance(uint8_t *buf, size_t len, tern_ipv6_addr_t *dst);

/**
 * Choose the compression of @p path (RFC 6554 §3, §4.1): CmprI the octets
 * every Address[1..n-1] shares with @p path->dst; CmprE the octets
 * Address[n] shares with every destination of the route (@p path->dst and
 * Address[1..n-1]); both at most 15; Pad the octets up to a multiple of 8.
 * With n = 1 CmprI has no address to describe and is set to CmprE.
 * @return 0; -EINVAL for no hops or more than TERN_SRH_MAX_HOPS, NULL
 *         pointers, a multicast address among
 *         @p path->dst and the hops (§4.2 would discard the packet), an
 *         address named twice (the route would visit a node twice), or a
 *         header longer than TERN_SRH_MAX_LEN.
 */
int tern_srh_layout(tern_srh_layout_t *layout, const tern_srh_path_t *path);

/** Header length for @p path (tern_srh_layout()'s len); 0 if the path is invalid. */
size_t tern_srh_path_len(const tern_srh_path_t *path);

/**
 * Write the Source Routing Header of @p path: Segments Left n, the layout
 * of tern_srh_layout(), Reserved and padding 0.
 * @return bytes written; -EINVAL as tern_srh_layout(); -ENOBUFS if @p len is
 *         too small (nothing written).
 */
int tern_srh_path_emit(const tern_srh_path_t *path, uint8_t *buf, size_t len);

#endif /* TERN_WIRE_IPV6_SRH_H */
