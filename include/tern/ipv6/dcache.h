/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Destination cache (RFC 4861 §5.1): what a node learnt about single
 *        destinations, on top of the forwarding table: the next hop a
 *        Redirect named (RFC 4861 §8.3) and the Path MTU a Packet Too Big
 *        reported (RFC 8201 §4, §5.2).
 *
 * Read first: RFC 4861 §5.1 (conceptual data structures), §5.2 (next-hop
 * determination), §8.3 (Redirect, host side); RFC 8201 §4 (Path MTU
 * estimate, never below 1280, aging), §5.2 (storing it per destination).
 *
 * RFC 4861 §5.2 describes a cache entry for every destination a node sends
 * to. Here only destinations with learnt state have an entry: every other
 * packet goes through the forwarding table (fib.h), which gives the same
 * next hop without holding a slot per peer. Each entry has two parts with
 * their own lifetime: a redirect (next hop and interface) and a Path MTU.
 * A part that expired counts as absent; an entry without parts is free.
 *
 * Bounded: TERN_CONF_IPV6_DCACHE_SIZE entries. When every slot is used, a
 * new destination takes the slot of the least recently used one (the one
 * whose last lookup or update is oldest; ties: the lowest slot). Losing
 * an entry is harmless: the next packet to that destination goes to the
 * router the forwarding table names, which redirects again, or a new
 * Packet Too Big arrives.
 *
 * Pure data structure: no I/O, no policy about which values to accept (the
 * IPv6 module decides, e.g. that a Packet Too Big never raises an
 * estimate); time is passed in by the caller.
 */
#ifndef TERN_IPV6_DCACHE_H
#define TERN_IPV6_DCACHE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/config.h"
#include "tern/wire/ipv6_addr.h"

/** IPv6 minimum link MTU (RFC 8200 §5): no Path MTU estimate is ever below it (RFC 8201 §4). */
#define TERN_DCACHE_MIN_PMTU 1280u

/** One destination. Read-only for the owner. */
typedef struct {
    tern_ipv6_addr_t dst;         /**< the destination */
    tern_ipv6_addr_t next_hop;    /**< redirect: better first hop; equal to @ref dst: on-link (§8.3) */
    uint64_t redirect_expires_us; /**< redirect part: absolute expiry (valid while @ref redirected) */
    uint64_t pmtu_expires_us;     /**< Path MTU part: absolute expiry (valid while @ref pmtu != 0) */
    uint64_t updated_us;          /**< last time a Redirect or Packet Too Big changed the entry */
    uint64_t last_used_us;        /**< last lookup or update: the least recent is evicted first */
    uint16_t if_index;            /**< redirect: interface of @ref next_hop (the Redirect's) */
    uint16_t pmtu;                /**< Path MTU estimate (>= 1280); 0: none, use the link MTU */
    bool redirected;              /**< the redirect part is present */
    bool used;                    /**< slot in use */
} tern_dcache_entry_t;

/** The destination cache of one stack. */
typedef struct {
#if TERN_CONF_IPV6_DCACHE
    tern_dcache_entry_t entries[TERN_CONF_IPV6_DCACHE_SIZE]; /**< the table (none without dcache.c: nothing is learnt) */
#endif
    /** Bumped whenever an entry gets an expiry: while it is unchanged, no
     *  expiry is earlier than tern_dcache_next_deadline() was. */
    uint32_t deadline_gen;
#if TERN_CONF_IPV6_DCACHE
    /** Entries in use: a lookup in an empty cache (the common case: no
     *  redirect, no Packet Too Big) returns without scanning the table. */
    uint16_t in_use;
#endif
} tern_dcache_t;

#if TERN_CONF_IPV6_DCACHE

/** Set up an empty cache. */
void tern_dcache_init(tern_dcache_t *dc);

/**
 * The entry for @p dst, its parts that expired by @p now_us removed first
 * (an entry left without parts is freed). Counts as a use (least recently
 * used eviction).
 * @return the entry, or NULL (nothing learnt about @p dst).
 */
tern_dcache_entry_t *tern_dcache_lookup(tern_dcache_t *dc, const tern_ipv6_addr_t *dst, uint64_t now_us);

/**
 * Record that a Redirect named @p next_hop (on interface @p if_index) as the
 * first hop for @p dst until @p expires_us (RFC 4861 §8.3); @p next_hop
 * equal to @p dst means the destination is on-link. Replaces an earlier
 * redirect for @p dst, keeps its Path MTU.
 * @return 0; 1 when the cache was full and another destination's entry was
 *         evicted for it; -EINVAL for a NULL argument, a multicast or
 *         unspecified @p dst, a multicast or unspecified @p next_hop, or
 *         interface 0.
 * @see RFC 4861 §5.2, §8.3
 */
int tern_dcache_set_redirect(tern_dcache_t *dc, const tern_ipv6_addr_t *dst, const tern_ipv6_addr_t *next_hop,
                             uint16_t if_index, uint64_t now_us, uint64_t expires_us);

/**
 * Record the Path MTU @p pmtu for @p dst until @p expires_us (RFC 8201 §4:
 * after the timeout the estimate goes back to the first-hop link MTU).
 * Replaces an earlier estimate (raising it too: whether a value is to be
 * believed is the caller's decision), keeps the redirect part.
 * @return 0; 1 when another destination's entry was evicted for it;
 *         -EINVAL for a NULL argument, an unspecified @p dst, or @p pmtu
 *         below TERN_DCACHE_MIN_PMTU (RFC 8201 §4).
 * @see RFC 8201 §4, §5.2
 */
int tern_dcache_set_pmtu(tern_dcache_t *dc, const tern_ipv6_addr_t *dst, uint16_t pmtu, uint64_t now_us,
                         uint64_t expires_us);

/**
 * Drop the redirect part of every entry that sends through @p next_hop on
 * interface @p if_index (the neighbor could not be reached: RFC 4861
 * §7.3.3, the next packets go through the forwarding table again).
 * @return number of redirects dropped.
 */
unsigned tern_dcache_forget_next_hop(tern_dcache_t *dc, uint16_t if_index, const tern_ipv6_addr_t *next_hop);

/** Drop every part of every entry that expired by @p now_us. @return number of entries freed. */
unsigned tern_dcache_expire(tern_dcache_t *dc, uint64_t now_us);

/** Earliest expiry of any part of any entry, or UINT64_MAX. */
uint64_t tern_dcache_next_deadline(const tern_dcache_t *dc);

/** Copy the table (TERN_CONF_IPV6_DCACHE_SIZE entries) to @p out. */
static inline void tern_dcache_copy(const tern_dcache_t *dc, tern_dcache_entry_t *out)
{
    memcpy(out, dc->entries, sizeof(dc->entries));
}

#else /* TERN_CONF_IPV6_DCACHE 0 (config.h): dcache.c not built, nothing is ever learnt */

/** Copy the table to @p out: TERN_CONF_IPV6_DCACHE_SIZE empty entries (there is no table). */
static inline void tern_dcache_copy(const tern_dcache_t *dc, tern_dcache_entry_t *out)
{
    (void)dc;
    memset(out, 0, sizeof(tern_dcache_entry_t) * TERN_CONF_IPV6_DCACHE_SIZE);
}

static inline void tern_dcache_init(tern_dcache_t *dc)
{
    memset(dc, 0, sizeof(*dc));
}

static inline tern_dcache_entry_t *tern_dcache_lookup(tern_dcache_t *dc, const tern_ipv6_addr_t *dst, uint64_t now_us)
{
    (void)dc;
    (void)dst;
    (void)now_us;
    return NULL;
}

static inline int tern_dcache_set_redirect(tern_dcache_t *dc, const tern_ipv6_addr_t *dst,
                                           const tern_ipv6_addr_t *next_hop, uint16_t if_index, uint64_t now_us,
                                           uint64_t expires_us)
{
    (void)dc;
    (void)dst;
    (void)next_hop;
    (void)if_index;
    (void)now_us;
    (void)expires_us;
    return -ENOTSUP;
}

static inline int tern_dcache_set_pmtu(tern_dcache_t *dc, const tern_ipv6_addr_t *dst, uint16_t pmtu, uint64_t now_us,
                                       uint64_t expires_us)
{
    (void)dc;
    (void)dst;
    (void)pmtu;
    (void)now_us;
    (void)expires_us;
    return -ENOTSUP;
}

static inline unsigned tern_dcache_forget_next_hop(tern_dcache_t *dc, uint16_t if_index,
                                                   const tern_ipv6_addr_t *next_hop)
{
    (void)dc;
    (void)if_index;
    (void)next_hop;
    return 0;
}

static inline unsigned tern_dcache_expire(tern_dcache_t *dc, uint64_t now_us)
{
    (void)dc;
    (void)now_us;
    return 0;
}

static inline uint64_t tern_dcache_next_deadline(const tern_dcache_t *dc)
{
    (void)dc;
    return UINT64_MAX;
}

#endif /* TERN_CONF_IPV6_DCACHE */

#endif /* TERN_IPV6_DCACHE_H */
