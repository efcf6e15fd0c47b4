/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL module (RFC 6550): one RPL instance with one grounded DODAG
 *        in storing (MOP 2) or non-storing mode (MOP 1, source routing by the
 *        root, RFC 6554), as root, router or leaf.
 *
 * Read first: RFC 6550 §3 (topology, rank), §8 (upward routes: DIO, DODAG
 * join, parent selection, rank rules, repair), §9 (DAO; §9.7 non-storing mode), §6
 * (messages), §18.2 (what is configured); RFC 6206 (Trickle); RFC 6552 (OF0)
 * and RFC 6719 (MRHOF).
 *
 * One module per stack. It receives RPL control messages (ICMPv6 type 155)
 * from the IPv6 module through netreg (ICMPV6, TERN_IPV6_ICMPV6_TYPE_DEMUX(155))
 * and sends through it like any upper layer: DIO and DIS from the
 * interface's link-local address with hop limit 255 (§6), to all-RPL-nodes
 * ff02::1a (joined on each RPL interface) or unicast; DAOs to the preferred
 * parent's link-local address. The module sets the IPv6 module's state only
 * by netapi SET: the preferred parent is the default route, DAO targets are
 * /128 routes via the child (origin TERN_FIB_ROUTING, with their lifetime),
 * the root's Prefix Information option becomes a SLAAC address
 * (TERN_NETOPT_IPV6_PREFIX), and a root or router is an IPv6 router (it
 * forwards). On each RPL interface the module owns the TX status hook
 * (TERN_NETOPT_TX_STATUS): link ETX and repeated failures towards the
 * preferred parent come from it. For the RPL Packet Information (RFC 6553)
 * the module keeps the IPv6 module's data-plane state up to date
 * (TERN_NETOPT_IPV6_RPL_STATE, tern/ipv6/rpi.h, rpi_state.c) and takes its
 * reports: a rank error resets Trickle (§11.2.2.2), a forwarding error
 * removes the downward route and raises the DTSN (§11.2.2.3, §9.6).
 *
 * Trickle (tern/rpl/trickle.h), the objective functions (tern/rpl/of.h) and
 * link ETX (tern/rpl/etx.h) are pure logic the module drives; the message
 * formats are in tern/wire/rpl.h. See docs/RPL.md, "The RPL module".
 */
#ifndef TERN_RPL_RPL_H
#define TERN_RPL_RPL_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/expiry.h"
#include "tern/ipv6/ipv6.h"
#include "tern/module.h"
#include "tern/netif.h"
#include "tern/netreg.h"
#include "tern/stack.h"
#include "tern/stats.h"
#include "tern/timer.h"
#include "tern/rpl/etx.h"
#include "tern/rpl/of.h"
#include "tern/rpl/trickle.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/rpl.h"

/**
 * Whether this image can join a DODAG below a root: an objective function is
 * built (TERN_CONF_RPL_OF0, TERN_CONF_RPL_MRHOF; config.h). A root-only image
 * (neither) has no parents (RFC 6550 §8.2.2.2) and leaves out the parent set,
 * the link ETX table and the TX status ring of tern_rpl_t.
 */
#define TERN_RPL_HAS_PARENTS (TERN_CONF_RPL_OF0 || TERN_CONF_RPL_MRHOF)

/** The node's part in the DODAG. */
typedef enum {
    TERN_RPL_ROLE_NONE = 0, /**< RPL not started */
    TERN_RPL_ROLE_ROUTER,   /**< joins DODAGs, advertises them, forwards (§8) */
    TERN_RPL_ROLE_LEAF,     /**< joins, sends DAOs, never advertises a rank (§8.5) */
    TERN_RPL_ROLE_ROOT,     /**< the grounded DODAG root (§8.2.2.2) */
} tern_rpl_role_t;

/** Counters of the RPL module, indices into tern_rpl_t::counters (stats group "rpl"). */
enum {
    TERN_RPL_DIO_IN = 0,         /**< valid DIOs received */
    TERN_RPL_DIO_OUT,            /**< DIOs sent (multicast and unicast) */
    TERN_RPL_DIS_IN,             /**< valid DISs received */
    TERN_RPL_DIS_OUT,            /**< DISs sent */
    TERN_RPL_DAO_IN,             /**< valid DAOs received */
    TERN_RPL_DAO_OUT,            /**< DAOs sent (own, retries, forwarded) */
    TERN_RPL_DAO_FORWARDED,      /**< DAOs passed on to our parent (storing mode, §9.2) */
    TERN_RPL_DAO_ACK_IN,         /**< DAO-ACKs received that matched our pending DAO */
    TERN_RPL_DAO_ACK_OUT,        /**< DAO-ACKs sent */
    TERN_RPL_DAO_RETRIES,        /**< DAOs sent again: no DAO-ACK in time */
    TERN_RPL_DAO_GAVE_UP,        /**< DAOs given up after TERN_CONF_RPL_DAO_RETRIES retries */
    TERN_RPL_MALFORMED,          /**< dropped: malformed message or option, bad length */
    TERN_RPL_UNKNOWN_CODE,       /**< dropped: RPL code not handled (secure messages, CC, P2P) */
    TERN_RPL_UNKNOWN_INSTANCE,   /**< dropped: not our instance (DAO, DAO-ACK, DIO while another is joined) */
    TERN_RPL_BAD_RANK,           /**< dropped: rank below ROOT_RANK (e.g. 0), or INFINITE_RANK when it can not be a poison (not joined, new version) */
    TERN_RPL_BAD_SOURCE,         /**< dropped: source not link-local (§6: link-local for DIO, DIS, DAO in storing mode) */
    TERN_RPL_MOP_UNSUPPORTED,    /**< DIOs ignored: mode of operation not supported (§8.2.2.3 leaf rule not used) */
    TERN_RPL_OCP_UNSUPPORTED,    /**< DIOs ignored: objective function unknown (§18.5) */
    TERN_RPL_NOT_GROUNDED,       /**< DIOs ignored: floating DODAG (we join grounded ones only) */
    TERN_RPL_DIO_OLD_VERSION,    /**< DIOs ignored: older DODAG version than ours */
    TERN_RPL_DIO_RANK_RULE,      /**< DIOs whose sender can not be a parent (rank rules §8.2.2.4) */
    TERN_RPL_DAO_NOT_CHILD,      /**< DAOs dropped: sender is our preferred parent, or we are not in a DODAG (or poisoning) */
    TERN_RPL_DAO_BAD_TARGET,     /**< DAO targets ignored: no Transit Information, link-local or multicast target */
    TERN_RPL_ROUTE_TABLE_FULL,   /**< DAO targets not installed: TERN_CONF_RPL_ROUTES full, or the FIB refused */
    TERN_RPL_DAO_ACK_UNEXPECTED, /**< DAO-ACKs dropped: no pending DAO with that sequence */
    TERN_RPL_DAO_ACK_REJECTED,   /**< DAO-ACKs with a rejection status (>= 128) */
    TERN_RPL_ROUTES_EXPIRED,     /**< downward routes whose lifetime ran out */
    TERN_RPL_GLOBAL_REPAIRS,     /**< DODAG versions followed or started (§8.2.2.1) */
    TERN_RPL_JOINS,              /**< DODAGs joined */
    TERN_RPL_TX_NOMEM,           /**< messages not sent: no packet buffer */
    TERN_RPL_TX_FAILED,          /**< messages the IPv6 module refused */
    TERN_RPL_NO_IF,              /**< dropped: arrived on an interface RPL does not run on */
    TERN_RPL_DAO_NO_PATH_OUT,    /**< No-Path DAOs sent to a former preferred parent (storing mode, §9.8) */
    TERN_RPL_DAO_NOT_FORWARDED,  /**< DAO targets not passed up: not installed (table full), or a No-Path for a target we still reach via another child */
    TERN_RPL_DAO_STALE_TARGET,   /**< DAO targets ignored: their Path Sequence is not newer than the route's via another child (§7.2, §9.2.2) */
    TERN_RPL_RPI_TRICKLE_RESETS, /**< Trickle resets: the IPv6 module saw a rank inconsistency in an RPL Option (§11.2.2.2) */
    TERN_RPL_RPI_ROUTES_FAILED,  /**< downward routes removed: a packet came back with the Forwarding-Error bit (§11.2.2.3) */
    TERN_RPL_RPI_PARENT_LOOPS,   /**< preferred parents dropped: they sent us packets going up (§8.2.1, §11.2) */
    TERN_RPL_RPI_EVENTS_LOST,    /**< forwarding-error reports lost: TERN_CONF_RPL_RPI_EVENTS full */
#if TERN_RPL_HAS_PARENTS /* the parent set's (a root-only image has none) */
    TERN_RPL_PARENT_TABLE_FULL,  /**< candidate parents not kept: TERN_CONF_RPL_PARENTS full */
    TERN_RPL_PARENT_LOST,        /**< parents removed: link failures or ETX too high, or infinite rank */
    TERN_RPL_LOCAL_REPAIRS,      /**< local repairs: preferred parent lost, no other (§8.2.2.5) */
    TERN_RPL_ETX_RESET,          /**< link estimates reset: a neighbor's DIOs arrive while we have no parent and its ETX is past MAX_LINK_METRIC */
    TERN_RPL_PARENT_SWITCHES,    /**< preferred parent changed */
    TERN_RPL_PARENT_BECAME_CHILD, /**< parent candidates dropped: they sent us a DAO, so they are in our sub-DODAG (§8.2.1, §9.8) */
#endif
#if TERN_CONF_RPL_NS_LINKS > 0 /* the non-storing root's (nonstoring.c) */
    TERN_RPL_NS_NO_ROUTE,        /**< non-storing root: a target's chain of parents does not reach the root, or is too long */
    TERN_RPL_NS_LOOP,            /**< non-storing root: a target's chain of parents loops (no source route) */
#endif
    TERN_RPL_STAT_NUMOF
};

/** A neighbor we heard a DIO of the joined DODAG from: a parent candidate (§8.2.1). */
typedef struct {
    tern_ipv6_addr_t addr;  /**< its link-local address (the DIO's source) */
    uint64_t heard_us;      /**< last DIO */
    uint16_t rank;          /**< rank it advertised */
    uint16_t etx;           /**< link ETX x 128 when last selected (copy of the etx table's, for display) */
    uint16_t if_index;      /**< interface it was heard on */
    uint8_t l2addr[TERN_CONF_L2ADDR_MAX]; /**< its link address (the DIO frame's source), for ETX */
    uint8_t l2addr_len;     /**< length of @ref l2addr */
    uint8_t failures;       /**< consecutive unacknowledged frames to it */
    uint8_t version;        /**< DODAG version of its last DIO */
    bool used;              /**< slot in use */
} tern_rpl_parent_t;

/** A downward route learnt from a DAO (storing mode, §9.8). */
typedef struct {
    tern_ipv6_addr_t target;   /**< target prefix (RPL Target option) */
    tern_ipv6_addr_t next_hop; /**< the child's link-local address */
    tern_expiry_t expires;     /**< absolute end of its lifetime (whole seconds: tern/expiry.h), or TERN_EXPIRY_NEVER */
    uint16_t if_index;         /**< interface of the child */
    uint8_t prefix_len;        /**< target prefix length (128: a host) */
    uint8_t path_sequence;     /**< Path Sequence of the Transit Information (§7.2) */
    bool used;                 /**< slot in use */
} tern_rpl_route_t;

/** Non-storing mode, at the root: one link of the DODAG from a DAO (RFC 6550 §9.7). */
typedef struct {
    tern_ipv6_addr_t target;   /**< a node's address (RPL Target, /128) */
    tern_ipv6_addr_t parent;   /**< its parent's global address (Transit Information, Parent Address) */
    tern_expiry_t expires;     /**< absolute end of its lifetime (whole seconds: tern/expiry.h), or TERN_EXPIRY_NEVER */
    uint16_t if_index;         /**< interface the DAO came in on (towards the root's children) */
    uint8_t path_sequence;     /**< Path Sequence of the Transit Information (§7.2) */
    bool used;                 /**< slot in use */
} tern_rpl_ns_link_t;

/** The outcome of one unicast frame, from an interface's TX status hook. */
typedef struct {
    uint8_t l2addr[TERN_CONF_L2ADDR_MAX]; /**< destination of the frame */
    uint8_t l2addr_len;                   /**< its length */
    uint8_t transmissions;                /**< attempts */
    int16_t status;                       /**< final outcome: 0 acknowledged, -EHOSTUNREACH not, ... */
} tern_rpl_tx_report_t;

/** The RPL module of one stack. Allocate statically; set up with tern_rpl_init(). */
typedef struct tern_rpl {
    /* The instance and its DODAG. The fields read most come first: a 16-bit
     * Thumb load or store reaches a byte field only in the first 32 bytes of
     * the struct, a halfword in the first 64, a word in the first 128; further
     * on, each access takes a 32-bit instruction. */
    uint8_t role;                                 /**< tern_rpl_role_t */
    bool joined;                                  /**< a member of a DODAG (root: always) */
    uint8_t instance_id;                          /**< RPLInstanceID */
    uint8_t version;                              /**< DODAGVersionNumber */
    uint8_t mop;                                  /**< mode of operation (2: storing, 1: non-storing) */
    uint8_t dtsn;                                 /**< our DTSN (§9.6) */
    uint8_t dao_sequence;                         /**< DAOSequence of our last DAO */
    uint8_t dao_ack_sequence;                     /**< DAOSequence of the DAO awaiting its DAO-ACK (dao_pending) */
    uint8_t path_sequence;                        /**< Path Sequence of our targets (§7.2) */
    uint8_t preference;                           /**< DODAG preference (Prf, root) */
    uint8_t dio_interval_min;                     /**< DIOIntervalMin (log2 ms) */
    uint8_t dio_interval_doublings;               /**< DIOIntervalDoublings */
    uint8_t dio_redundancy;                       /**< DIORedundancyConstant k (0: no suppression) */
    uint8_t default_lifetime;                     /**< Default Lifetime, in lifetime units */
    uint8_t dao_retries;                          /**< retries of the pending DAO so far */
    bool dao_pending;                             /**< a DAO waits for its DAO-ACK */
    uint8_t prefix_len;                           /**< length of @ref prefix */
    uint16_t rank;                                /**< our rank (INFINITE_RANK: none) */
    uint16_t lowest_rank;                         /**< L: lowest rank advertised in this version (§8.2.2.4) */
    uint16_t ocp;                                 /**< objective code point (0: OF0, 1: MRHOF) */
    uint16_t min_hop_rank_increase;               /**< MinHopRankIncrease (§6.7.6) */
    uint16_t max_rank_increase;                   /**< DAGMaxRankIncrease */
    uint16_t lifetime_unit;                       /**< Lifetime Unit, seconds */
    tern_ipv6_t *ip;                              /**< the IPv6 module it works with */
    tern_netif_t *ifs[TERN_CONF_RPL_IFS];         /**< interfaces RPL runs on */
    tern_module_t module;                         /**< the module */
    tern_msg_t queue[TERN_CONF_MODULE_QUEUE_LEN]; /**< its queue storage */
    tern_netreg_entry_t entry;                    /**< (ICMPV6, type 155) registration */
    uint32_t rng;                                 /**< xorshift state (Trickle, DIS jitter) */
    tern_timer_t timer;                           /**< one timer for every deadline */
    uint64_t timer_at;                            /**< when it is armed for; UINT64_MAX: not */
    uint64_t tables_at_us;                        /**< rpl_dao_next_deadline() as last computed: a lower bound
                                                       of the route tables' next expiry (rpl.c, reschedule()) */
    tern_ipv6_addr_t dodag_id;                    /**< DODAGID */
    /* The prefix the root disseminates (Prefix Information option, §6.7.10). */
    tern_ipv6_addr_t prefix;                      /**< prefix (unspecified: none) */
    uint32_t prefix_valid_s;                      /**< Valid Lifetime */
    uint32_t prefix_preferred_s;                  /**< Preferred Lifetime */
    /* Parents and routes. */
#if TERN_RPL_HAS_PARENTS /* a root-only image has no parents (RFC 6550 §8.2.2.2), nor the default route through one */
    tern_rpl_parent_t parents[TERN_CONF_RPL_PARENTS]; /**< parent set and candidates (preferred: at the top) */
    tern_rpl_parent_t *preferred;                 /**< the preferred parent (one of @ref parents), NULL: none */
    tern_ipv6_addr_t default_route;               /**< next hop of the default route installed; unspecified: none */
    uint16_t default_route_if;                    /**< interface of @ref default_route */
    uint8_t parent_dtsn;                          /**< the preferred parent's last DTSN */
#endif
    tern_rpl_route_t routes[TERN_CONF_RPL_ROUTES]; /**< downward routes */
    /* Non-storing mode at the root (nonstoring.c): the parent graph, and our link-local addresses. */
#if TERN_CONF_RPL_NS_LINKS > 0 /* nonstoring.c's, left out with the table (C11 has no empty arrays) */
    tern_rpl_ns_link_t ns_links[TERN_CONF_RPL_NS_LINKS]; /**< (target -> parent), under the stack's lock */
    tern_ipv6_addr_t ns_root_ll[TERN_CONF_RPL_IFS];      /**< link-local address per RPL interface (their IIDs name the root) */
#endif
    /* Timers. */
    tern_trickle_t trickle;                       /**< DIO Trickle timer (RFC 6206, RFC 6550 §8.3) */
    uint64_t dis_at_us;                           /**< next DIS (not joined); UINT64_MAX: none */
#if TERN_RPL_HAS_PARENTS /* own DAOs and local repair are a joined node's (RFC 6550 §9, §8.2.2.5): rpl_dao_at() */
    uint64_t dao_at_us;                           /**< next DAO (first, retry or refresh); UINT64_MAX: none */
    uint64_t poison_until_us;                     /**< local repair: advertising INFINITE_RANK until then */
    uint64_t probe_at_us;                         /**< next unicast DIS probing the preferred parent; UINT64_MAX: none */
    /* TX status reports from the interfaces, handed to the module's own turn
     * (only for parents: a root-only image installs no hook, rpl.c). */
    tern_rpl_etx_t etx;                           /**< link ETX per neighbor (RFC 6719 §3.1.1) */
    tern_rpl_tx_report_t tx_reports[TERN_CONF_RPL_TX_REPORTS]; /**< ring */
    uint32_t tx_lost;                             /**< reports lost: ring full */
    uint8_t tx_head;                              /**< oldest report */
    uint8_t tx_count;                             /**< reports waiting */
#endif
    /* The RPL Option (RFC 6553): the data-plane state pushed to IPv6 and its reports (rpi_state.c). */
    tern_ipv6_addr_t rpi_failed[TERN_CONF_RPL_RPI_EVENTS]; /**< targets whose route failed, under the stack's lock */
    uint8_t rpi_failed_count;                     /**< entries in rpi_failed (lock) */
    bool rpi_rank_error;                          /**< a rank error waits for the module's turn (lock) */
    bool rpi_posted;                              /**< a message for them is queued (lock) */
#if TERN_RPL_HAS_PARENTS /* the IPv6 module reports a loop only through a parent */
    bool rpi_parent_loop;                         /**< rpi_loop_parent routes up through us (lock) */
    tern_ipv6_addr_t rpi_loop_parent;             /**< the parent of a PARENT_LOOP report (lock) */
#endif
#if TERN_CONF_RPL_NS_LINKS
    bool ns_provider;                             /**< installed as the IPv6 module's source route provider (nonstoring.c) */
#endif
    uint8_t rpi_option_type;                      /**< the DODAG's RPL Option type: 0x63, or 0x23 (RFC 9008 §4.3) */
    tern_counter_t counters[TERN_RPL_STAT_NUMOF];       /**< see TERN_RPL_... */
    tern_stats_group_t stats;                     /**< counters, for `stats rpl` */
} tern_rpl_t;

/**
 * Set up the module and add it to @p stack, registered for RPL control
 * messages. RPL does nothing until a role is chosen (tern_rpl_set_router(),
 * tern_rpl_set_leaf(), tern_rpl_set_root()).
 * @param[in] ip the stack's IPv6 module (tern_ipv6_init() done)
 * @return 0; -EINVAL for NULL arguments; the negative errno of module setup.
 */
int tern_rpl_init(tern_rpl_t *rpl, tern_stack_t *stack, tern_ipv6_t *ip);

/**
 * Seed the module's pseudo-random numbers (Trickle, DIS jitter); a simulator
 * seeds each node from its run's seed so that the same seed gives the same run.
 * @pre after tern_rpl_init(), before the stack runs
 */
void tern_rpl_seed(tern_rpl_t *rpl, uint32_t seed);

/**
 * Run RPL on @p netif (IPv6 enabled on it): join ff02::1a, own its TX status
 * hook. Done on the module's own turn (safe from any thread).
 * @return 0; -EINVAL; -ENOBUFS if the module's queue is full.
 */
int tern_rpl_netif_enable(tern_rpl_t *rpl, tern_netif_t *netif);

/**
 * Become a router (§8): join the best DODAG heard (soliciting with DIS
 * while there is none), advertise it, forward. The IPv6 module becomes a
 * router. Synchronous (netapi SET on the module).
 * @return 0; -EINVAL.
 */
int tern_rpl_set_router(tern_rpl_t *rpl);

/**
 * Become a leaf (§8.5): join a DODAG and send DAOs, never advertise it (a
 * leaf's DIOs, if any, would carry INFINITE_RANK; this one sends none).
 * The IPv6 module becomes a host. Synchronous.
 * @return 0; -EINVAL.
 */
int tern_rpl_set_leaf(tern_rpl_t *rpl);

/**
 * Become the root of a grounded DODAG (§8.2.2.2) of @p instance_id, named
 * @p dodag_id, which must be a global address of one of the node's RPL
 * interfaces: rank ROOT_RANK (MinHopRankIncrease), version 240 (§7.2 initial
 * lollipop value), mode of operation TERN_CONF_RPL_MOP (storing by default,
 * tern_rpl_set_root_mop()), the DODAGID's /64 advertised with the A flag.
 * Synchronous.
 * @return 0; -EINVAL (NULL, instance above 127: global instances only, §5.1);
 *         -EADDRNOTAVAIL (@p dodag_id not an address of an RPL interface).
 */
int tern_rpl_set_root(tern_rpl_t *rpl, uint8_t instance_id, const tern_ipv6_addr_t *dodag_id);

/**
 * tern_rpl_set_root() with the mode of operation @p mop:
 * TERN_RPL_MOP_STORING (2) or TERN_RPL_MOP_NON_STORING (1). In non-storing
 * mode (RFC 6550 §9.7) nodes send their DAOs, with their preferred parent's
 * global address in the Transit Information, end to end to the DODAGID;
 * routers install no downward routes; the root keeps the (target -> parent)
 * links (TERN_CONF_RPL_NS_LINKS, with their lifetimes), answers with
 * DAO-ACKs, and installs itself as the IPv6 module's source route provider
 * (TERN_NETOPT_IPV6_SOURCE_ROUTER, tern_rpl_source_route()).
 * @return as tern_rpl_set_root(); -EINVAL for another @p mop.
 */
int tern_rpl_set_root_mop(tern_rpl_t *rpl, uint8_t instance_id, const tern_ipv6_addr_t *dodag_id, uint8_t mop);

/**
 * The source route from the non-storing root to @p dst (RFC 6550 §9.7,
 * RFC 6554 §4.1): @p dst's chain of parents in the root's links, followed
 * until a parent is the root (its DODAGID, or an address with the interface
 * identifier of one of its RPL interfaces), reversed. Loop-safe: a chain
 * that names an address twice is refused (ns_loop), as is one longer than
 * TERN_CONF_IPV6_SRH_HOPS or broken (ns_no_route). This is the provider the
 * root installs on the IPv6 module; it reads the links under the stack's
 * lock and may be called from any thread.
 * @return 1: @p route filled (hops[0] the root's child, hops[count-1] @p dst);
 *         0: @p dst has no route (not a target, not the root, or refused).
 */
#if TERN_CONF_RPL_NS_LINKS > 0
int tern_rpl_source_route(tern_rpl_t *rpl, const tern_ipv6_addr_t *dst, tern_ipv6_source_route_t *route);
#else /* no non-storing root (TERN_CONF_RPL_NS_LINKS 0, config.h): never a route */
static inline int tern_rpl_source_route(tern_rpl_t *rpl, const tern_ipv6_addr_t *dst, tern_ipv6_source_route_t *route)
{
    (void)rpl;
    (void)dst;
    (void)route;
    return 0;
}
#endif

/**
 * Stop RPL: leave the DODAG (default route and downward routes removed from
 * the FIB), no more DIO, DIS or DAO. The IPv6 module keeps its mode and
 * addresses. Synchronous.
 * @return 0; -EINVAL.
 */
int tern_rpl_stop(tern_rpl_t *rpl);

/**
 * Global repair (§8.2.2.1), root only: increment the DODAG version and
 * reset Trickle; nodes rejoin under the new version. Synchronous.
 * @return 0; -EPERM when not the root; -EINVAL.
 */
int tern_rpl_global_repair(tern_rpl_t *rpl);

/** Copy of the module's state for the shell (tern_rpl_get_state()). */
typedef struct {
    tern_rpl_parent_t parents[TERN_CONF_RPL_PARENTS]; /**< parent set */
    tern_rpl_route_t routes[TERN_CONF_RPL_ROUTES];    /**< downward routes */
#if TERN_CONF_RPL_NS_LINKS > 0
    tern_rpl_ns_link_t ns_links[TERN_CONF_RPL_NS_LINKS]; /**< non-storing root: the parent graph */
#endif
    tern_trickle_t trickle;                           /**< Trickle (its random source not to be used) */
    tern_ipv6_addr_t dodag_id;                        /**< DODAGID */
    uint64_t now_us;                                  /**< the stack's time */
    uint64_t dao_at_us;                               /**< next DAO */
    int8_t preferred;                                 /**< preferred parent index, -1 none */
    uint8_t role;                                     /**< tern_rpl_role_t */
    bool joined;                                      /**< in a DODAG */
    bool dao_pending;                                 /**< DAO awaiting its ACK */
    uint8_t dao_retries;                              /**< its retries */
    uint8_t dao_sequence;                             /**< last DAOSequence */
    uint8_t instance_id;                              /**< RPLInstanceID */
    uint8_t version;                                  /**< DODAG version */
    uint8_t mop;                                      /**< mode of operation */
    uint8_t dtsn;                                     /**< DTSN */
    uint16_t rank;                                    /**< our rank */
    uint16_t ocp;                                     /**< objective function */
} tern_rpl_state_t;

/**
 * Snapshot of the module's state (synchronous GET on the module's turn).
 * @return 0; -EINVAL; -ENOTSUP in a build without inspection
 *         (TERN_CONF_RPL_INSPECT 0).
 */
int tern_rpl_get_state(tern_rpl_t *rpl, tern_rpl_state_t *out);

/** Name of a role ("none", "router", "leaf", "root"). */
const char *tern_rpl_role_name(uint8_t role);

#endif /* TERN_RPL_RPL_H */
