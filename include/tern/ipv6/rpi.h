/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL Packet Information (RPI, RFC 6553) in the IPv6 module:
 *        the data-plane state RPL hands to IPv6, and the events IPv6 reports
 *        back (loop detection, RFC 6550 §11.2).
 *
 * Read first: RFC 6550 §11.2 (O/R/F flags, SenderRank, rank error,
 * forwarding error), RFC 6553 §3-§5, RFC 9008 §4.3 (option type 0x23).
 *
 * **Split.** RPL owns the DODAG; the IPv6 module does the per-packet work.
 * RPL pushes a small copy of what the data plane needs (instance, rank,
 * mode, root or not, preferred parent, option type, RPL interfaces) with a
 * netapi SET of TERN_NETOPT_IPV6_RPL_STATE whenever it changes; IPv6 reads
 * it on its own turn only. IPv6 never waits on RPL (a synchronous SET the
 * other way could deadlock under the threaded executor): it reports rank
 * errors and forwarding errors through @ref tern_ipv6_rpl_state_t::event,
 * a callback called on the IPv6 module's turn that must not block (RPL's
 * records the event under the stack's lock and posts itself a message).
 *
 * **Originating** (ipv6.c): a packet the node sources to a unicast, not
 * link-local destination out of an RPL interface, while the node is in a
 * DODAG, gets an 8-octet Hop-by-Hop header with the RPL Option
 * (tern_rpl_hbh_emit()): RPLInstanceID, SenderRank = the node's rank, O
 * set when the next hop is not the preferred parent (down), R = F = 0.
 * **Forwarding** (forward.c, rpi.c): see ipv6_rpi_forward() and docs/RPL.md
 * "Loop detection".
 */
#ifndef TERN_IPV6_RPI_H
#define TERN_IPV6_RPI_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/wire/ipv6_addr.h"

/** What the IPv6 module reports to RPL. */
typedef enum {
    /** A rank inconsistency was seen (RFC 6550 §11.2.2.2): reset the DIO Trickle timer. */
    TERN_IPV6_RPI_EVENT_RANK_ERROR = 1,
    /** A packet for @p target came back with F set (§11.2.2.3): the downward route to it failed. */
    TERN_IPV6_RPI_EVENT_ROUTE_FAILED,
    /**
     * A packet going up came from our preferred parent @p target (its
     * link-local address): it routes up through us, so it is in our
     * sub-DODAG and must not be our parent (§8.2.1): a loop.
     */
    TERN_IPV6_RPI_EVENT_PARENT_LOOP,
} tern_ipv6_rpi_event_t;

/**
 * Event callback: called on the IPv6 module's turn (its thread under the
 * threaded executor); must not block nor call into the IPv6 module.
 * @p target is the destination concerned (ROUTE_FAILED), else NULL.
 */
typedef void (*tern_ipv6_rpi_event_fn)(void *ctx, tern_ipv6_rpi_event_t event, const tern_ipv6_addr_t *target);

/** Value of TERN_NETOPT_IPV6_RPL_STATE (SET and GET on the IPv6 module, context ignored). */
typedef struct {
    tern_ipv6_addr_t parent;                 /**< preferred parent's link-local address (unspecified: none;
                                                  always none without an objective function, config.h) */
    tern_ipv6_rpi_event_fn event;            /**< where to report events (may be NULL) */
    void *ctx;                               /**< its argument */
    uint16_t if_index[TERN_CONF_RPL_IFS];    /**< RPL interfaces (0: slot unused) */
    uint16_t rank;                           /**< our rank (SenderRank we write) */
    uint16_t min_hop_rank_increase;          /**< for DAGRank() in rank comparisons (RFC 6550 §3.5.1) */
    uint16_t parent_if;                      /**< the parent's interface */
    uint8_t instance_id;                     /**< RPLInstanceID */
    uint8_t option_type;                     /**< 0x63 (RFC 6553) or 0x23 (RFC 9008 §4.3) */
    bool running;                            /**< RPL runs (a role is set): packets on RPL interfaces are checked */
    bool joined;                             /**< a member of the DODAG: RPI added and forwarded */
    bool root;                               /**< the DODAG root (every packet it sends goes down) */
    bool storing;                            /**< storing mode (forwarding errors, §11.2.2.3) */
} tern_ipv6_rpl_state_t;

#endif /* TERN_IPV6_RPI_H */
