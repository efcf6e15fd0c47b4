/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Forwarding table: routes by longest prefix match (RFC 4861 §5.2 next-hop
 *        determination, RFC 4191 default routes as ::/0).
 *
 * A route says: destinations matching PREFIX/LEN go out of interface IF, to
 * NEXT_HOP (a router) or, when the next hop is unspecified, directly
 * (on-link). Routes may expire (lifetimes from Router Advertisements) or
 * live for ever (static routes). Pure data structure: no I/O; time is
 * passed in by the caller.
 */
#ifndef TERN_IPV6_FIB_H
#define TERN_IPV6_FIB_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/expiry.h"
#include "tern/wire/ipv6_addr.h"

/** The route never expires. */
#define TERN_FIB_INFINITE UINT64_MAX

/** Where a route came from (shown by `nib route`; removing by origin). */
typedef enum {
    TERN_FIB_STATIC = 0,  /**< configured (shell, application) */
    TERN_FIB_CONNECTED,   /**< on-link prefix of an interface address */
    TERN_FIB_RA,          /**< from a Router Advertisement (prefix or default) */
    TERN_FIB_ROUTING,     /**< from a routing protocol (RPL) */
} tern_fib_origin_t;

/** One route. */
typedef struct {
    tern_ipv6_addr_t prefix;   /**< destination prefix (bits past @ref len are zero) */
    tern_ipv6_addr_t next_hop; /**< router; unspecified: on-link */
    tern_expiry_t expires;     /**< absolute expiry (lifetimes are whole seconds: tern/expiry.h), or TERN_EXPIRY_NEVER */
    uint16_t if_index;         /**< outgoing interface (1-based) */
    uint8_t len;               /**< prefix length 0..128 (0: default route) */
    uint8_t origin;            /**< tern_fib_origin_t */
    uint8_t metric;            /**< among equal prefixes the lower wins */
    bool used;                 /**< slot in use */
} tern_fib_route_t;

/** The table of one stack. */
typedef struct {
    tern_fib_route_t routes[TERN_CONF_FIB_SIZE]; /**< slots */
    uint32_t full;                               /**< routes refused: table full */
    /** Bumped whenever a route gets an expiry (tern_fib_add()): while it is
     *  unchanged, no expiry is earlier than tern_fib_next_deadline() was. */
    uint32_t deadline_gen;
    /** One past the highest slot in use: lookups and sweeps scan no further
     *  (a table is sized for the busiest node and mostly empty). */
    uint16_t top;
} tern_fib_t;

/** The end of @p route's lifetime in clock microseconds, or TERN_FIB_INFINITE. */
static inline uint64_t tern_fib_route_expires_us(const tern_fib_route_t *route)
{
    return tern_expiry_to_us(route->expires);
}

/** Set up an empty table: all zero (a zeroed tern_fib_t is one already). */
void tern_fib_init(tern_fib_t *fib);

/**
 * Add a route, or update the one with the same prefix, length, interface and
 * next hop (its lifetime, origin and metric are replaced).
 * @param next_hop router to forward to; NULL or unspecified: on-link
 * @param expires_us absolute expiry or TERN_FIB_INFINITE; kept in ticks of
 *        1.05 s, rounded up (tern/expiry.h): the route lives to at most one
 *        tick past it, never less
 * @return 0; -EINVAL for @p len > 128, interface 0 or a multicast prefix
 *         next hop; -ENOSPC when the table is full (counted).
 */
int tern_fib_add(tern_fib_t *fib, const tern_ipv6_addr_t *prefix, uint8_t len,
                 const tern_ipv6_addr_t *next_hop, uint16_t if_index, uint64_t expires_us,
                 tern_fib_origin_t origin, uint8_t metric);

/**
 * Remove routes matching exactly @p prefix/@p len; @p if_index 0 and
 * @p next_hop NULL match any. @return number removed.
 */
unsigned tern_fib_remove(tern_fib_t *fib, const tern_ipv6_addr_t *prefix, uint8_t len,
                         uint16_t if_index, const tern_ipv6_addr_t *next_hop);

/** Remove every route of interface @p if_index with origin @p origin. @return number removed. */
unsigned tern_fib_flush(tern_fib_t *fib, uint16_t if_index, tern_fib_origin_t origin);

/**
 * The route for @p dst: the longest matching prefix that has not expired at
 * @p now_us; among equal lengths the lowest metric, then the oldest slot.
 * @return the route, or NULL (no route to host).
 */
const tern_fib_route_t *tern_fib_lookup(const tern_fib_t *fib, const tern_ipv6_addr_t *dst,
                                        uint64_t now_us);

/** Drop routes that expired by @p now_us. @return number dropped. */
unsigned tern_fib_expire(tern_fib_t *fib, uint64_t now_us);

/** Earliest expiry of any route (microseconds, a tick boundary), or TERN_FIB_INFINITE. */
uint64_t tern_fib_next_deadline(const tern_fib_t *fib);

#endif /* TERN_IPV6_FIB_H */
