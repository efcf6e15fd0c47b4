/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Neighbor Discovery optimised for 6LoWPAN links (RFC 6775, updated by
 *        RFC 8505) in the IPv6 module: address registration of hosts, the
 *        registration table of routers, contexts (6CO) and the authoritative
 *        border router (ABRO) carried in Router Advertisements.
 *
 * Read first: RFC 6775 §3.2 (what changes against RFC 4861), §5 (host:
 * §5.3 router discovery, §5.5 registration, §5.6 next hop), §6 (router:
 * §6.3 RS answers, §6.5 registration processing and next hops), §4.1-§4.3 (ARO, 6CO,
 * ABRO); RFC 8505 §4.1 (EARO, Table 1 status values), §5.1-§5.2 (TID,
 * comparison), §5.5 (the Registered Address is the NS Target).
 *
 * The IPv6 module treats an interface as a 6LoWPAN link when the interface
 * answers GET TERN_NETOPT_DEVICE_TYPE with TERN_NETDEV_TYPE_IEEE802154 at
 * tern_ipv6_netif_enable(). On such a link:
 * - nobody runs multicast DAD or multicast address resolution: a link-local
 *   address maps to the link address its IID was formed from (RFC 4944 §6),
 *   a host sends everything else to a default router (RFC 6775 §5.6), a
 *   router uses its registration table (§6.5.2, §3.2);
 * - a host's non-link-local addresses stay TENTATIVE until a router
 *   confirmed their registration (NS with EARO + SLLAO, NA with EARO status
 *   0; RFC 8505 §5.1), DUPLICATE on status 1;
 * - a router answers registrations from a bounded table, puts 6CO and ABRO
 *   in its RAs and answers RSs with unicast RAs.
 *
 * This header holds the state the module keeps per interface (in
 * tern_ipv6_if_t) and the value of GET TERN_NETOPT_IPV6_6LO (the `nib reg`
 * and `nib ctx` shell commands).
 */
#ifndef TERN_IPV6_NDP_6LO_H
#define TERN_IPV6_NDP_6LO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/expiry.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ndp_6lo.h"

/** State of a host's registration of one address with one router. */
typedef enum {
    TERN_IPV6_6LO_BIND_FREE = 0,   /**< slot unused */
    TERN_IPV6_6LO_BIND_REGISTERING, /**< NS(EARO) sent, waiting for the NA (retried every RetransTimer) */
    TERN_IPV6_6LO_BIND_REGISTERED, /**< the router answered status 0; refreshed before @ref tern_ipv6_6lo_binding_t::expires */
    TERN_IPV6_6LO_BIND_FAILED,     /**< refused or unanswered; tried again at the deadline (if any) */
} tern_ipv6_6lo_bind_state_t;

/** A host's registration of @ref addr with @ref router (RFC 6775 §5.5, RFC 8505 §5.1). */
typedef struct {
    tern_ipv6_addr_t addr;   /**< the Registered Address (NS Target) */
    tern_ipv6_addr_t router; /**< the default router it is registered with */
    uint64_t deadline_us;    /**< next NS: retry, refresh or retry after failure; UINT64_MAX: none */
    tern_expiry_t expires;   /**< REGISTERED: end of the lifetime the router granted (minutes: tern/expiry.h) */
    uint8_t state;           /**< tern_ipv6_6lo_bind_state_t */
    uint8_t tid;             /**< Transaction ID of the current registration (RFC 8505 §5.2) */
    uint8_t tries;           /**< NSs sent with this TID */
    uint8_t status;          /**< last status received (TERN_NDP_6LO_STATUS_*) */
} tern_ipv6_6lo_binding_t;

/** An entry of a router's registration table (RFC 6775 §6.5.2, RFC 8505 §5.2). */
typedef struct {
    tern_ipv6_addr_t addr;                   /**< Registered Address */
    tern_expiry_t expires;                   /**< end of the Registration Lifetime (minutes: tern/expiry.h) */
    uint8_t rovr[TERN_NDP_6LO_ROVR_MAX];     /**< owner: ROVR (EARO) or EUI-64 (ARO) */
    uint8_t l2addr[TERN_CONF_L2ADDR_MAX];    /**< link address of the registering node (its SLLAO) */
    uint8_t rovr_len;                        /**< 8..32 */
    uint8_t l2addr_len;                      /**< length of @ref l2addr */
    uint8_t tid;                             /**< TID of the last accepted registration */
    bool extended;                           /**< registered with an EARO (@ref tid valid) */
    bool used;                               /**< slot in use */
} tern_ipv6_6lo_reg_t;

/** A 6LoWPAN compression context (RFC 6775 §4.2, RFC 6282 §3.1.2). */
typedef struct {
    tern_ipv6_addr_t prefix; /**< context prefix (bits past @ref prefix_len zero) */
    tern_expiry_t expires;   /**< end of its Valid Lifetime (minutes: tern/expiry.h) */
    uint8_t prefix_len;      /**< 0..128 */
    uint8_t cid;             /**< Context Identifier 0..15 */
    bool compress;           /**< C flag: usable for compression (always for decompression) */
    bool used;               /**< slot in use */
} tern_ipv6_6lo_context_t;

/** The authoritative border router a host follows (RFC 6775 §4.3, §8.1). */
typedef struct {
    tern_ipv6_addr_t border_router; /**< 6LBR address */
    tern_expiry_t expires;          /**< end of the ABRO's Valid Lifetime (minutes: tern/expiry.h) */
    uint32_t version;               /**< Version High << 16 | Version Low */
    bool valid;                     /**< an ABRO was received (or, on a router: is sent) */
} tern_ipv6_6lo_border_t;

/** 6LoWPAN-ND state of one IPv6 interface (part of tern_ipv6_if_t). */
typedef struct {
#if TERN_CONF_IPV6_ROUTER != 2 /* a router-only build is never a host: see tern_ipv6_6lo_binding() */
    tern_ipv6_6lo_binding_t bindings[TERN_CONF_IPV6_6LO_BINDINGS]; /**< host: own registrations */
#endif
    tern_ipv6_6lo_reg_t regs[TERN_CONF_IPV6_6LO_REG_TABLE_SIZE];  /**< router: registration table */
    tern_ipv6_6lo_context_t contexts[TERN_CONF_IPV6_6LO_CONTEXTS]; /**< contexts in use on the link */
    tern_ipv6_6lo_border_t border;                                 /**< ABRO learnt (host) or sent (router) */
    uint8_t next_tid;                                              /**< host: TID of the next registration */
    bool enabled;                                                  /**< the interface is a 6LoWPAN link */
    /** Bumped whenever a binding, registration, context or the ABRO gets a
     *  timer: while it is unchanged, none is earlier than the last scan. */
    uint32_t deadline_gen;
} tern_ipv6_6lo_t;

/**
 * Host registration @p i (< TERN_CONF_IPV6_6LO_BINDINGS) of @p lp. A
 * router-only build (TERN_CONF_IPV6_ROUTER 2) registers none of its own
 * addresses (RFC 6775 §6: it is the registrar) and keeps no room for them:
 * NULL there, where callers loop while TERN_CONF_IPV6_ROUTER != 2.
 */
static inline tern_ipv6_6lo_binding_t *tern_ipv6_6lo_binding(tern_ipv6_6lo_t *lp, size_t i)
{
#if TERN_CONF_IPV6_ROUTER != 2
    return &lp->bindings[i];
#else
    (void)lp;
    (void)i;
    return NULL;
#endif
}

/** tern_ipv6_6lo_binding() of a read-only state (a copy in tern_ipv6_6lo_state_t). */
static inline const tern_ipv6_6lo_binding_t *tern_ipv6_6lo_binding_const(const tern_ipv6_6lo_t *lp, size_t i)
{
#if TERN_CONF_IPV6_ROUTER != 2
    return &lp->bindings[i];
#else
    (void)lp;
    (void)i;
    return NULL;
#endif
}

/** Value of TERN_NETOPT_IPV6_6LO (GET on the IPv6 module, context = interface index). */
typedef struct {
    tern_ipv6_6lo_t state; /**< a copy of the interface's 6LoWPAN-ND state */
    uint64_t now_us;       /**< the stack's time, for remaining lifetimes */
    bool router;           /**< the node is a router (registration table in use) */
} tern_ipv6_6lo_state_t;

/** Name of a binding state ("registering", ...). */
const char *tern_ipv6_6lo_bind_state_name(tern_ipv6_6lo_bind_state_t state);

/**
 * Compare two Transaction IDs as RFC 8505 §5.2 asks: the lollipop counter
 * of RFC 6550 §7.2 (linear part 128..255, circular part 0..127,
 * SEQUENCE_WINDOW 16).
 * @return 1 if @p a is fresher than @p b, 0 if equal, -1 if older. Values
 *         that are not comparable (desynchronised, farther apart than the
 *         window) count as fresher: the owner restarted.
 */
int tern_ipv6_6lo_tid_compare(uint8_t a, uint8_t b);

/** The TID after @p tid (RFC 6550 §7.2 lollipop increment: 127 and 255 wrap to 0). */
uint8_t tern_ipv6_6lo_tid_next(uint8_t tid);

#endif /* TERN_IPV6_NDP_6LO_H */
