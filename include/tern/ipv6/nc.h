/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Neighbor cache of one interface: the reachability state machine of
 *        RFC 4861 §7.3 (Appendix C) with address-resolution queues (§7.2.2).
 *
 * Read first: RFC 4861 §7.2 (address resolution), §7.3 (neighbor
 * unreachability detection) and Appendix C (the state machine table).
 *
 * This is protocol logic without I/O: it never sends or frees anything
 * itself. What must happen outside (send a Neighbor Solicitation, transmit a
 * packet to a now-known link address, return packets that can never be
 * delivered so that ICMPv6 errors can be sent, drop a packet that overflowed
 * a queue) is asked of the owner through tern_nc_ops_t callbacks. Time is
 * passed in by the caller (microseconds); tern_nc_next_deadline() says when
 * tern_nc_tick() must run next. That makes the machine testable under any
 * clock, and one instance serves one interface.
 */
#ifndef TERN_IPV6_NC_H
#define TERN_IPV6_NC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/pkt.h"
#include "tern/stats.h"
#include "tern/wire/ipv6_addr.h"

/** RFC 4861 §10 protocol constants. */
#define TERN_NC_MAX_MULTICAST_SOLICIT 3u
#define TERN_NC_MAX_UNICAST_SOLICIT 3u
#define TERN_NC_DELAY_FIRST_PROBE_TIME_US 5000000u

/** Reachability states (RFC 4861 §7.3.2). FREE: the slot is unused. */
typedef enum {
    TERN_NC_FREE = 0,
    TERN_NC_INCOMPLETE,
    TERN_NC_REACHABLE,
    TERN_NC_STALE,
    TERN_NC_DELAY,
    TERN_NC_PROBE,
} tern_nc_state_t;

/** One neighbor. Read-only for the owner. */
typedef struct {
    tern_ipv6_addr_t addr;                     /**< the neighbor's IPv6 address */
    uint8_t l2addr[TERN_CONF_L2ADDR_MAX];      /**< its link address (valid unless INCOMPLETE) */
    uint8_t l2addr_len;                        /**< length of @ref l2addr */
    uint8_t state;                             /**< tern_nc_state_t */
    bool is_router;                            /**< IsRouter flag (§7.2.5) */
    uint8_t probes;                            /**< solicitations sent in INCOMPLETE/PROBE */
    uint8_t queued;                            /**< packets in @ref queue */
    uint64_t deadline_us;                      /**< next timer of this entry; UINT64_MAX: none */
    uint32_t last_use;                         /**< tern_nc_t::uses at its last use: least recently used goes first */
    tern_pkt_t *queue[TERN_CONF_NC_QUEUE_LEN]; /**< packets awaiting resolution, oldest first */
} tern_nc_entry_t;

/** What the cache asks of its owner. */
typedef struct {
    /** Send a Neighbor Solicitation for @p e->addr: to its solicited-node
     *  group when @p unicast is false (resolution), to @p e's link address
     *  when true (unreachability probe, §7.3.3). */
    void (*send_ns)(void *ctx, const tern_nc_entry_t *e, bool unicast);
    /** Transmit @p pkt (ownership passes) to @p e's link address. */
    void (*transmit)(void *ctx, const tern_nc_entry_t *e, tern_pkt_t *pkt);
    /** @p pkt (ownership passes) cannot be delivered: resolution of @p addr
     *  failed. The owner sends ICMPv6 address unreachable (§7.2.2) and frees it. */
    void (*unreachable)(void *ctx, const tern_ipv6_addr_t *addr, tern_pkt_t *pkt);
    /** @p pkt (ownership passes) was pushed out of a full queue: free it, count it. */
    void (*dropped)(void *ctx, tern_pkt_t *pkt);
} tern_nc_ops_t;

/** Counters of a cache, indices into tern_nc_t::counters. */
enum {
    TERN_NC_RESOLVE_FAILED = 0, /**< resolutions given up after MAX_MULTICAST_SOLICIT */
    TERN_NC_PROBE_FAILED,       /**< reachable neighbors lost after MAX_UNICAST_SOLICIT */
    TERN_NC_QUEUE_OVERFLOW,     /**< packets pushed out of a full resolution queue */
    TERN_NC_EVICTED,            /**< entries reused for another neighbor (table full) */
    TERN_NC_STAT_NUMOF
};

/** The cache of one interface. */
typedef struct {
    tern_nc_entry_t entries[TERN_CONF_NC_SIZE]; /**< the table */
    const tern_nc_ops_t *ops;                   /**< callbacks */
    void *ctx;                                  /**< their argument */
    uint32_t reachable_time_us;                 /**< ReachableTime (§6.3.2), set by the owner */
    uint32_t retrans_timer_us;                  /**< RetransTimer (§6.3.2), set by the owner */
    tern_counter_t counters[TERN_NC_STAT_NUMOF];      /**< see TERN_NC_... */
    /** Bumped whenever an entry gets a timer: while it is unchanged, no timer
     *  is earlier than tern_nc_next_deadline() was. */
    uint32_t deadline_gen;
    /** Uses of the table's entries (sends, new entries), modulo 2^32: an
     *  entry's age for eviction is uses - last_use (4 bytes per entry instead
     *  of an 8-byte time; an entry idle for 2^32 uses looks young again, which
     *  only changes which entry a full table gives up). */
    uint32_t uses;
#if TERN_CONF_FAST_PATHS /* without (config.h), lookups scan every slot */
    /** One past the highest slot in use: the slots from here on are FREE, and
     *  tern_nc_lookup() scans only the ones before (the cache of a 6LoWPAN
     *  host holds few neighbors, often none: link-local peers need no entry). */
    uint8_t top;
#endif
} tern_nc_t;

/**
 * Set up an empty cache.
 * @param reachable_time_us ReachableTime: the owner randomises BaseReachableTime
 *                          (0.5..1.5, §6.3.2) and may change it later
 * @param retrans_timer_us  RetransTimer (default 1 s, §10)
 */
void tern_nc_init(tern_nc_t *nc, const tern_nc_ops_t *ops, void *ctx, uint32_t reachable_time_us,
                  uint32_t retrans_timer_us);

/** Entry for @p addr, or NULL. */
tern_nc_entry_t *tern_nc_lookup(tern_nc_t *nc, const tern_ipv6_addr_t *addr);

/**
 * Send @p pkt to neighbor @p addr (§7.2.2, §7.3.3): transmits at once when the
 * link address is known (STALE moves to DELAY), otherwise queues it and starts
 * or continues resolution. Ownership of @p pkt passes to the cache (it comes
 * back through a callback).
 * When the table is full the least recently used entry is reused (routers
 * and entries being resolved last); its queued packets go to unreachable().
 * @return 0.
 */
int tern_nc_send(tern_nc_t *nc, const tern_ipv6_addr_t *addr, tern_pkt_t *pkt, uint64_t now_us);

/** Flags of a received Neighbor Advertisement. */
typedef struct {
    bool router;    /**< R */
    bool solicited; /**< S */
    bool override;  /**< O */
} tern_nc_na_flags_t;

/**
 * A Neighbor Advertisement for @p target arrived (§7.2.5), with a Target
 * Link-Layer Address option (@p l2addr, @p l2_len) or without (@p l2_len 0).
 * @return true if the neighbor was a router and the R flag now says it is not
 *         (the owner removes it from the default router list, §7.2.5).
 */
bool tern_nc_na_received(tern_nc_t *nc, const tern_ipv6_addr_t *target, const uint8_t *l2addr,
                         size_t l2_len, tern_nc_na_flags_t flags, uint64_t now_us);

/**
 * A message carrying a Source Link-Layer Address option arrived from
 * @p source: NS (§7.2.3), RS, RA (§6.3.4) or Redirect (§8.3). Creates or
 * updates the entry (STALE when new or changed). @p is_router: the message
 * was an RA (sets IsRouter) or NS/RS (leaves it).
 * @return 0; -EINVAL for an empty or too long link address.
 */
int tern_nc_lladdr_seen(tern_nc_t *nc, const tern_ipv6_addr_t *source, const uint8_t *l2addr,
                        size_t l2_len, bool from_router, uint64_t now_us);

/**
 * A valid Redirect names @p target as the better first hop (§8.3), with a
 * Target Link-Layer Address option (@p l2addr, @p l2_len) or without one
 * (@p l2_len 0). With the option the entry is created STALE, or updated as
 * tern_nc_lladdr_seen() does: STALE when the address changed, unchanged
 * when it is the same, an INCOMPLETE entry's queue sent. @p router (the
 * target is not the redirected destination) sets IsRouter; otherwise a new
 * entry gets IsRouter false and an existing one keeps its flag. Without the
 * option no entry is created; @p router still marks an existing one.
 * @return 0; -EINVAL for a link address longer than TERN_CONF_L2ADDR_MAX.
 */
int tern_nc_redirect_received(tern_nc_t *nc, const tern_ipv6_addr_t *target, const uint8_t *l2addr,
                              size_t l2_len, bool router, uint64_t now_us);

/** An upper layer confirmed forward progress to @p addr (§7.3.1): REACHABLE. */
void tern_nc_confirm(tern_nc_t *nc, const tern_ipv6_addr_t *addr, uint64_t now_us);

/** Remove the entry of @p addr; queued packets go to unreachable(). */
void tern_nc_remove(tern_nc_t *nc, const tern_ipv6_addr_t *addr);

/** Earliest deadline of any entry, or UINT64_MAX. */
uint64_t tern_nc_next_deadline(const tern_nc_t *nc);

/** Run every timer due at @p now_us (retransmissions, state changes, expiry). */
void tern_nc_tick(tern_nc_t *nc, uint64_t now_us);

/** Name of a state ("REACHABLE", ...). */
const char *tern_nc_state_name(tern_nc_state_t state);

#endif /* TERN_IPV6_NC_H */
