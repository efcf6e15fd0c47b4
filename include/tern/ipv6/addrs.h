/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Addresses of one interface: Duplicate Address Detection and address
 *        lifetimes (RFC 4862 §5.4, §5.5.4), and stateless autoconfiguration
 *        from Prefix Information (RFC 4862 §5.5.3).
 *
 * Read first: RFC 4862 §5.4 (DAD), §5.5.3 (router advertisement processing,
 * including the two-hour rule), §5.5.4 (address lifetime expiry).
 *
 * Protocol logic without I/O, like the neighbor cache: sending the DAD
 * Neighbor Solicitation, joining and leaving the solicited-node group, and
 * reporting a duplicate are asked of the owner through callbacks; time is
 * passed in; tern_ipv6_addrs_next_deadline() says when to tick.
 */
#ifndef TERN_IPV6_ADDRS_H
#define TERN_IPV6_ADDRS_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/expiry.h"
#include "tern/ipv6/srcsel.h"
#include "tern/wire/ipv6_addr.h"

/** Lifetime value meaning "infinity" (RFC 4861 §4.6.2: all ones), in seconds. */
#define TERN_IPV6_LIFETIME_INFINITE 0xFFFFFFFFu

/** Flags of an interface address. */
#define TERN_IPV6_ADDR_FLAG_AUTOCONF 0x01u /**< formed by SLAAC (lifetimes from RAs) */
#define TERN_IPV6_ADDR_FLAG_MANUAL 0x02u   /**< configured by hand */

/** One address of the interface. */
typedef struct {
    tern_ipv6_addr_t addr;    /**< the address */
    uint64_t deadline_us;     /**< next DAD step (TENTATIVE), else UINT64_MAX */
    tern_expiry_t preferred;  /**< end of the preferred lifetime (whole seconds: tern/expiry.h), or TERN_EXPIRY_NEVER */
    tern_expiry_t valid;      /**< end of the valid lifetime (whole seconds: tern/expiry.h), or TERN_EXPIRY_NEVER */
    uint8_t prefix_len;       /**< on-link prefix length */
    uint8_t state;            /**< tern_ipv6_addr_state_t; FREE slots have used == false */
    uint8_t flags;            /**< TERN_IPV6_ADDR_FLAG_... */
    uint8_t dad_sent;         /**< DAD solicitations sent so far */
    bool used;                /**< slot in use */
} tern_ipv6_if_addr_t;

/** What the address table asks of its owner. */
typedef struct {
    /** Send a DAD Neighbor Solicitation for @p target (unspecified source, §5.4.2). */
    void (*send_dad_ns)(void *ctx, const tern_ipv6_addr_t *target);
    /** Join (true) or leave (false) the solicited-node group of @p addr (§5.4.2). */
    void (*solicited_node)(void *ctx, const tern_ipv6_addr_t *addr, bool join);
    /** @p addr is a duplicate (§5.4.5): report it. It stays DUPLICATE, unused. */
    void (*duplicate)(void *ctx, const tern_ipv6_addr_t *addr);
    /** @p addr became usable (PREFERRED after DAD): announce (MLD, routes). May be NULL. */
    void (*ready)(void *ctx, const tern_ipv6_addr_t *addr);
} tern_ipv6_addrs_ops_t;

/** The address table of one interface. */
typedef struct {
    tern_ipv6_if_addr_t addrs[TERN_CONF_IPV6_ADDRS]; /**< slots */
    const tern_ipv6_addrs_ops_t *ops;               /**< callbacks */
    void *ctx;                                      /**< their argument */
    uint32_t retrans_timer_us;                      /**< RetransTimer between DAD probes */
    uint8_t dad_transmits;                          /**< DupAddrDetectTransmits (§5.1; 0: no DAD) */
    /** 6LoWPAN host (RFC 6775 §5.5, RFC 8505 §5.1): addresses other than
     *  link-local ones stay TENTATIVE after DAD until tern_ipv6_addrs_registered(). */
    bool register_first;
    /** Bumped whenever an address gets a timer or lifetime: while it is
     *  unchanged, none is earlier than tern_ipv6_addrs_next_deadline() was. */
    uint32_t deadline_gen;
} tern_ipv6_addrs_t;

/** Set up an empty table; DupAddrDetectTransmits @p dad_transmits (default 1). */
void tern_ipv6_addrs_init(tern_ipv6_addrs_t *t, const tern_ipv6_addrs_ops_t *ops, void *ctx,
                          uint8_t dad_transmits, uint32_t retrans_timer_us);

/**
 * Add @p addr/@p prefix_len as TENTATIVE and start DAD: the first
 * solicitation goes out after @p dad_delay_us (§5.4.2: a random delay of up
 * to MAX_RTR_SOLICITATION_DELAY when the interface starts; 0 otherwise).
 * Lifetimes in seconds (TERN_IPV6_LIFETIME_INFINITE for none). Anycast and
 * multicast addresses are refused.
 * @return 0; -EEXIST if present; -ENOSPC when full; -EINVAL.
 */
int tern_ipv6_addrs_add(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *addr, uint8_t prefix_len,
                        uint8_t flags, uint32_t preferred_s, uint32_t valid_s, uint64_t dad_delay_us,
                        uint64_t now_us);

/** Remove @p addr (leaves its solicited-node group). @return 0 or -ENOENT. */
int tern_ipv6_addrs_remove(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *addr);

/** The entry of @p addr, or NULL. */
tern_ipv6_if_addr_t *tern_ipv6_addrs_find(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *addr);

/**
 * A Neighbor Solicitation for @p target arrived with source @p source
 * (§5.4.3). If @p target is tentative here and the source is unspecified,
 * another node is doing DAD for it: the address is a duplicate.
 * @return true if the NS concerned a tentative address of ours (the caller
 *         must then not answer it, §5.4.3).
 */
bool tern_ipv6_addrs_ns_received(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *target,
                                 const tern_ipv6_addr_t *source);

/**
 * A Neighbor Advertisement for @p target arrived (§5.4.4): a tentative
 * address is a duplicate.
 * @return true if @p target was one of our tentative addresses.
 */
bool tern_ipv6_addrs_na_received(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *target);

/**
 * Prefix Information with the A flag (RFC 4862 §5.5.3 (b)-(e)): form or
 * update an address from @p prefix (which must be /64 here: the IID is 64
 * bits) and @p iid (its last 8 bytes are used).
 * @return 0 when processed (address formed, updated, or left alone by the
 *         two-hour rule); -EINVAL when the option must be ignored
 *         (link-local prefix, preferred > valid, length not 64); -ENOSPC.
 */
int tern_ipv6_addrs_slaac(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *prefix, uint8_t prefix_len,
                          uint32_t preferred_s, uint32_t valid_s, const tern_ipv6_addr_t *iid,
                          uint64_t now_us);

/**
 * Require registration before non-link-local addresses become usable
 * (@p on, RFC 6775 §5.5: a 6LoWPAN host) or not. Turning it off lets the
 * addresses waiting for a registration finish at the next tick.
 */
void tern_ipv6_addrs_set_register_first(tern_ipv6_addrs_t *t, bool on, uint64_t now_us);

/**
 * A router answered the registration of @p addr (RFC 8505 §5.1): a
 * TENTATIVE address becomes PREFERRED (DEPRECATED if its preferred lifetime
 * is over) and ready() is called; other states stay. With @p duplicate the
 * address (in any state) becomes DUPLICATE and duplicate() is called.
 * @return 0; -ENOENT if @p addr is not in the table.
 */
int tern_ipv6_addrs_registered(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *addr, bool duplicate,
                               uint64_t now_us);

/** Earliest DAD step or lifetime end, or UINT64_MAX. */
uint64_t tern_ipv6_addrs_next_deadline(const tern_ipv6_addrs_t *t);

/** Run DAD steps and lifetime changes due at @p now_us. */
void tern_ipv6_addrs_tick(tern_ipv6_addrs_t *t, uint64_t now_us);

/** Name of an address state ("tentative", ...). */
const char *tern_ipv6_addr_state_name(tern_ipv6_addr_state_t state);

#endif /* TERN_IPV6_ADDRS_H */
