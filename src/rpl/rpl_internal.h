/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Functions shared by the files of the RPL module (not public):
 *        rpl.c (module, I/O, timer), dodag.c (parents, rank, repair, routes
 *        up), dio.c (DIO/DIS), dao.c (DAO/DAO-ACK, routes down).
 */
#ifndef TERN_RPL_INTERNAL_H
#define TERN_RPL_INTERNAL_H

#include "tern/netif_hdr.h"
#include "tern/pkt.h"
#include "tern/rpl/rpl.h"
#include "tern/wire/ipv6.h"

/** No deadline. */
#define RPL_NEVER UINT64_MAX
#define RPL_US_PER_MS 1000u
#define RPL_US_PER_S 1000000u

/** RFC 6550 §6: DIO and DIS carry hop limit 255 (§6, "link-local scope"). */
#define RPL_HOP_LIMIT 255u

/** ROOT_RANK (§17: MinHopRankIncrease). */
static inline uint16_t rpl_root_rank(const tern_rpl_t *rpl)
{
    return rpl->min_hop_rank_increase;
}

/** DAGRank(rank) (§3.5.1): floor(rank / MinHopRankIncrease). */
static inline uint16_t rpl_dag_rank(const tern_rpl_t *rpl, uint16_t rank)
{
    return (uint16_t)(rank / rpl->min_hop_rank_increase);
}

/**
 * Count event @p c. A function, not inline: the module counts at some 60
 * places, and each inline increment costs more than this call (a call to the
 * saturating tern_count_add() with 16-bit counters, an LDREX/STREX loop with
 * 32-bit ones on Cortex-M3). Marked noinline so that link-time optimisation
 * keeps it so: it would inline it (44 B more in the router image, 164 B in
 * the full one).
 */
__attribute__((noinline)) void rpl_count(tern_rpl_t *rpl, unsigned c);

/**
 * RFC 6550 §7.2: is lollipop counter @p a newer than @p b? The linear part
 * (128..255) precedes the circular one (0..127); a window of 16 decides
 * across the two and within the circle. (DODAG versions, Path Sequences.)
 */
bool rpl_seq_newer(uint8_t a, uint8_t b);

/** RFC 6550 §7.2: the lollipop counter after @p a: up through the linear part 128..255, then round 0..127. */
static inline uint8_t rpl_seq_next(uint8_t a)
{
    return (a == 127u) ? 0u : (uint8_t)(a + 1u);
}

/** The stack's time. */
uint64_t rpl_now(const tern_rpl_t *rpl);

/** Pseudo-random number (xorshift32). */
uint32_t rpl_random(tern_rpl_t *rpl);

/** Is @p if_index an RPL interface? */
bool rpl_has_if(const tern_rpl_t *rpl, uint16_t if_index);

/**
 * Send the ICMPv6 message @p msg (one snip, checksum left to IPv6) to
 * @p dst through the IPv6 module out of @p if_index (0: routed), from the
 * interface's link-local address when @p link_local_src, else chosen by
 * IPv6; hop limit @p hop_limit (0: default). Consumes @p msg. Counted.
 * @return 0 or a negative errno.
 */
int rpl_send(tern_rpl_t *rpl, tern_pkt_t *msg, uint16_t if_index, const tern_ipv6_addr_t *dst,
             bool link_local_src, uint8_t hop_limit);

/** A new ICMPv6 snip of @p len bytes, or NULL (counted). */
tern_pkt_t *rpl_msg_alloc(tern_rpl_t *rpl, size_t len);

/** The link-local address of interface @p if_index. @return 0 or -EADDRNOTAVAIL. */
int rpl_link_local(tern_rpl_t *rpl, uint16_t if_index, tern_ipv6_addr_t *out);

/* rpi_state.c: the RPL Packet Information's data-plane state in the IPv6 module (RFC 6553). */

/** Message to the module: the IPv6 module reported rank or forwarding errors (rpi_state.c). */
#define RPL_MSG_RPI_EVENT (TERN_MSG_USER + 3)

/** Push the data-plane state (instance, rank, parent, mode, interfaces) to the IPv6 module if it changed. */
void rpl_rpi_sync(tern_rpl_t *rpl);

/** Handle the reports of the IPv6 module: Trickle reset (§11.2.2.2), failed routes (§11.2.2.3). */
void rpl_rpi_drain(tern_rpl_t *rpl);

/** Storing mode: the downward route to @p target failed (a packet came back with F, §11.2.2.3): remove it. */
void rpl_dao_route_failed(tern_rpl_t *rpl, const tern_ipv6_addr_t *target);

/* dodag.c */

/** Forget the DODAG (parents, default route, routes down kept until they expire). */
void rpl_dodag_leave(tern_rpl_t *rpl);

/**
 * A DIO of the joined (or a joinable) DODAG from @p src on @p if_index,
 * advertising @p rank in @p version: update the candidate set, pick the
 * preferred parent, compute the rank (§8.2). @return true when the DIO
 * was "consistent" for Trickle (RFC 6550 §8.3).
 */
bool rpl_dodag_dio_from(tern_rpl_t *rpl, const tern_ipv6_addr_t *src, const tern_netif_hdr_t *nhdr, uint16_t rank,
                        uint8_t dtsn);

/** Choose the preferred parent and the rank again; install the default route. */
void rpl_dodag_select(tern_rpl_t *rpl);

/** Remove parent @p p (link failure, §8.2.2.5); repair locally if it was the only one. */
void rpl_dodag_parent_lost(tern_rpl_t *rpl, tern_rpl_parent_t *p);
/**
 * A DAO from @p src (storing mode, §9.8): false when it is our preferred
 * parent (taking it would make a loop); else true, and a parent candidate
 * that sent it leaves the parent set, since a node that chose us as its
 * parent is in our sub-DODAG (§8.2.1; counted as parent_became_child).
 */
bool rpl_dodag_dao_from(tern_rpl_t *rpl, const tern_ipv6_addr_t *src, uint16_t if_index);

/** The outcome @p status (0 acknowledged, as tern_rpl_etx_update()) of a frame to @p l2addr. */
void rpl_dodag_tx_status(tern_rpl_t *rpl, const uint8_t *l2addr, size_t l2len, int status, unsigned transmissions);

/** Next deadline of the DODAG state (end of poisoning), or RPL_NEVER. */
uint64_t rpl_dodag_next_deadline(const tern_rpl_t *rpl);

/** Handle what is due at @p now. */
void rpl_dodag_tick(tern_rpl_t *rpl, uint64_t now);

/** The rank we advertise: INFINITE_RANK while poisoning (§8.2.2.5) or as a leaf. */
uint16_t rpl_dodag_advertised_rank(const tern_rpl_t *rpl);

/**
 * Does this image join DODAGs it hears: is an objective function built
 * (TERN_CONF_RPL_OF0, TERN_CONF_RPL_MRHOF; config.h)? Without one every DIO
 * is refused (ocp_unsupported, RFC 6550 §18.5; join() in dio.c), so a node
 * is only ever joined as a root and nobody becomes its parent: the parent
 * set stays empty, there is no preferred parent and no DAO of its own. The
 * code of those tests this constant, so that the compiler leaves it out of
 * such an image (a root-only one, like the router footprint image); the
 * state only they use is left out of tern_rpl_t (TERN_RPL_HAS_PARENTS).
 */
#define RPL_JOINS TERN_RPL_HAS_PARENTS

/*
 * The time of the node's next own DAO (RFC 6550 §9.5; RPL_NEVER: none) and
 * the end of its local repair (§8.2.2.5; 0: none). Only a node with parents
 * sends DAOs of its own or repairs: without RPL_JOINS there is no room for
 * either in tern_rpl_t, none is ever due, and setting one does nothing.
 */
static inline uint64_t rpl_dao_at(const tern_rpl_t *rpl)
{
#if RPL_JOINS
    return rpl->dao_at_us;
#else
    (void)rpl;
    return RPL_NEVER;
#endif
}

static inline void rpl_dao_at_set(tern_rpl_t *rpl, uint64_t at_us)
{
#if RPL_JOINS
    rpl->dao_at_us = at_us;
#else
    (void)rpl;
    (void)at_us;
#endif
}

static inline uint64_t rpl_poison_until(const tern_rpl_t *rpl)
{
#if RPL_JOINS
    return rpl->poison_until_us;
#else
    (void)rpl;
    return 0;
#endif
}

static inline void rpl_poison_until_set(tern_rpl_t *rpl, uint64_t until_us)
{
#if RPL_JOINS
    rpl->poison_until_us = until_us;
#else
    (void)rpl;
    (void)until_us;
#endif
}

/**
 * Is the node poisoning its sub-DODAG after a local repair (RFC 6550
 * §8.2.2.5: poison_until_us set)? Only a node that had parents does
 * (local_repair(), dodag.c): never without RPL_JOINS.
 */
static inline bool rpl_poisoning(const tern_rpl_t *rpl)
{
    return RPL_JOINS && rpl_poison_until(rpl) != 0;
}

/** The preferred parent, or NULL (always, without RPL_JOINS). */
tern_rpl_parent_t *rpl_dodag_preferred(tern_rpl_t *rpl);

/* dio.c */

/** A DIO @p b of @p len bytes arrived from @p hdr->src, in a frame described by @p nhdr. */
void rpl_dio_receive(tern_rpl_t *rpl, const tern_ipv6_repr_t *hdr, const tern_netif_hdr_t *nhdr, const uint8_t *b,
                     size_t len);

/** A DIS arrived. */
void rpl_dis_receive(tern_rpl_t *rpl, const tern_ipv6_repr_t *hdr, uint16_t if_index, const uint8_t *b, size_t len);

/** Send a DIO to @p dst (multicast ff02::1a or a unicast answer) on every RPL interface (@p if_index 0) or one. */
void rpl_dio_send(tern_rpl_t *rpl, uint16_t if_index, const tern_ipv6_addr_t *dst);

/** Send a multicast DIS on every RPL interface. */
void rpl_dis_send(tern_rpl_t *rpl);

/** Send a unicast DIS to @p dst on @p if_index (probing a parent, §8.3). */
void rpl_dis_send_to(tern_rpl_t *rpl, uint16_t if_index, const tern_ipv6_addr_t *dst);

/** (Re)start Trickle at Imin (RFC 6206 §4.2 reset). */
void rpl_trickle_reset(tern_rpl_t *rpl);

/** Stop Trickle (no DODAG, leaf). */
void rpl_trickle_stop(tern_rpl_t *rpl);

/** The DIO timer takes rpl's DIO parameters (dio_interval_min, ...); a running timer starts over with them. */
void rpl_trickle_configure(tern_rpl_t *rpl);

/** Trickle: a consistent transmission was heard (RFC 6206 §4.2 step 3). */
void rpl_trickle_consistent(tern_rpl_t *rpl);

/** Next DIO/DIS deadline, or RPL_NEVER. */
uint64_t rpl_dio_next_deadline(const tern_rpl_t *rpl);

/** Send the DIO or DIS due at @p now. */
void rpl_dio_tick(tern_rpl_t *rpl, uint64_t now);

/* dao.c */

/** A DAO arrived. */
void rpl_dao_receive(tern_rpl_t *rpl, const tern_ipv6_repr_t *hdr, uint16_t if_index, const uint8_t *b, size_t len);

/** A DAO-ACK arrived. */
void rpl_dao_ack_receive(tern_rpl_t *rpl, const tern_ipv6_repr_t *hdr, uint16_t if_index, const uint8_t *b,
                         size_t len);

/** Schedule our DAO (new parent, DTSN increment, refresh) after a short delay (§9.5 DelayDAO). */
void rpl_dao_schedule(tern_rpl_t *rpl);

/**
 * Storing mode: @p old stopped being our preferred parent while still in the
 * parent set: send it No-Path DAOs for us and our sub-DODAG (§9.8).
 */
void rpl_dao_no_path(tern_rpl_t *rpl, const tern_rpl_parent_t *old);

/** Next DAO or route deadline, or RPL_NEVER. */
uint64_t rpl_dao_next_deadline(const tern_rpl_t *rpl);

/** Send the DAO due at @p now, expire routes. */
void rpl_dao_tick(tern_rpl_t *rpl, uint64_t now);

/** Remove every downward route (and its FIB entry). */
void rpl_dao_flush_routes(tern_rpl_t *rpl);

/** Lifetime in seconds of a DAO-advertised route (Default Lifetime x Lifetime Unit). */
uint32_t rpl_dao_lifetime_s(const tern_rpl_t *rpl);

/* nonstoring.c */

/** Is the DODAG in non-storing mode (MOP 1, RFC 6550 §9.7)? */
static inline bool rpl_non_storing(const tern_rpl_t *rpl)
{
    return rpl->mop == TERN_RPL_MOP_NON_STORING;
}

#if TERN_CONF_RPL_NS_LINKS > 0

/**
 * Root: @p target is reachable via @p parent for @p lifetime_s (0 and not
 * @p infinite: No-Path, the link goes), learnt on @p if_index (§9.7).
 */
void rpl_ns_update(tern_rpl_t *rpl, const tern_ipv6_addr_t *target, const tern_ipv6_addr_t *parent,
                   uint16_t if_index, uint32_t lifetime_s, bool infinite, uint8_t seq);

/** Root: forget every link. */
void rpl_ns_flush(tern_rpl_t *rpl);

/** Root: install (true) or remove the source route provider on the IPv6 module; remember our link-local addresses. */
void rpl_ns_provider(tern_rpl_t *rpl, bool install);

/** Next link expiry, or RPL_NEVER. */
uint64_t rpl_ns_next_deadline(const tern_rpl_t *rpl);

/** Expire the links whose lifetime ended at @p now. */
void rpl_ns_tick(tern_rpl_t *rpl, uint64_t now);

#else /* TERN_CONF_RPL_NS_LINKS 0 (config.h): nonstoring.c not built, no links kept */

/* A root of a non-storing DODAG (only by tern_rpl_set_root_mop()) keeps no
 * link: each DAO target is counted as not installed, as with a full table. */
static inline void rpl_ns_update(tern_rpl_t *rpl, const tern_ipv6_addr_t *target, const tern_ipv6_addr_t *parent,
                                 uint16_t if_index, uint32_t lifetime_s, bool infinite, uint8_t seq)
{
    (void)target;
    (void)parent;
    (void)if_index;
    (void)infinite;
    (void)seq;
    if (lifetime_s != 0) {
        rpl_count(rpl, TERN_RPL_ROUTE_TABLE_FULL);
    }
}

static inline void rpl_ns_flush(tern_rpl_t *rpl)
{
    (void)rpl;
}

static inline void rpl_ns_provider(tern_rpl_t *rpl, bool install)
{
    (void)rpl;
    (void)install;
}

static inline uint64_t rpl_ns_next_deadline(const tern_rpl_t *rpl)
{
    (void)rpl;
    return RPL_NEVER;
}

static inline void rpl_ns_tick(tern_rpl_t *rpl, uint64_t now)
{
    (void)rpl;
    (void)now;
}

#endif /* TERN_CONF_RPL_NS_LINKS */

/**
 * Node: the preferred parent's global address for the Transit Information
 * (§9.7): the DODAG's prefix (the PIO) with the interface identifier of the
 * parent's link-local address (SLAAC, RFC 4862 §5.5.3, gives it that
 * address). @return 0; -ENETUNREACH (no parent or no prefix yet).
 */
int rpl_ns_parent_address(tern_rpl_t *rpl, tern_ipv6_addr_t *out);

#endif /* TERN_RPL_INTERNAL_H */
