/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The 6LoWPAN adaptation module (RFC 4944, RFC 6282): dispatch,
 *        LOWPAN_IPHC/NHC, reassembly and fragmentation between IPv6 and an
 *        IEEE 802.15.4 (or any small-frame) interface.
 *
 * Read first: RFC 4944 §4 (IPv6 MTU 1280), §5.1 (dispatch), §5.3 (fragment
 * headers, datagram_size and datagram_offset, reassembly); RFC 6282 §2
 * (sizes and offsets count the datagram before compression; a header that
 * does not fit in the first fragment is not compressed), §3 and §4 (IPHC,
 * NHC). docs/SIXLOWPAN.md, "The 6LoWPAN module", gives the policies.
 *
 * One module per stack serves every 6LoWPAN interface of the stack.
 *
 * Receive (RCV from the link, registered for (SIXLOWPAN, ALL)):
 * [frame payload, NETIF], the NETIF header carrying the frame's link
 * addresses (2 bytes: short, big-endian; 8 bytes: EUI-64). The module walks
 * the encapsulation headers (tern_sixlowpan_hdrs_parse()), decompresses
 * LOWPAN_IPHC/NHC with those addresses and the interface's contexts, takes
 * uncompressed IPv6 (0x41), puts FRAG1/FRAGN into reassembly (one table per
 * stack, keyed by the link addresses and the tag, tern/sixlowpan/reass.h),
 * and hands each whole datagram to (IPV6, ALL) as [IPV6, NETIF]: one snip
 * holding the datagram, as the Ethernet link does. Everything else is
 * dropped and counted (tern_sixlowpan_stat_t).
 *
 * Send (SND from tern_netif_send() when netif->adaptation is set):
 * [NETIF, IPV6, ...]. The headers are compressed (IPHC/NHC, the UDP checksum
 * carried); a datagram that fits one frame (tern_netif_link_t::payload_max)
 * goes in one frame, a larger one in FRAG1/FRAGN fragments, ONE fragment per
 * turn of the module: the rest is re-queued as a message to the module
 * itself, so that frames received meanwhile are served between fragments.
 * Multicast IPv6 destinations and NETIF headers without a destination go to
 * the link broadcast address (short 0xffff).
 */
#ifndef TERN_SIXLOWPAN_SIXLOWPAN_H
#define TERN_SIXLOWPAN_SIXLOWPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/module.h"
#include "tern/netif.h"
#include "tern/netreg.h"
#include "tern/sixlowpan/context.h"
#include "tern/sixlowpan/reass.h"
#include "tern/stack.h"
#include "tern/stats.h"
#include "tern/timer.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/sixlowpan_iphc.h"

/** Counters of the module (tern_sixlowpan_t::counters), group "sixlowpan". */
typedef enum {
    TERN_SIXLOWPAN_RX_FRAMES,           /**< frames received from a link */
    TERN_SIXLOWPAN_RX_DATAGRAMS,        /**< datagrams handed up to IPv6 */
    TERN_SIXLOWPAN_RX_FRAGMENTS,        /**< fragments handed to reassembly (its own drops: group "6lo_reass") */
    TERN_SIXLOWPAN_RX_NOT_ATTACHED,     /**< dropped: interface not attached to the module */
    TERN_SIXLOWPAN_RX_INVALID,          /**< dropped: no NETIF header or no payload */
    TERN_SIXLOWPAN_RX_NALP,             /**< dropped: not a LoWPAN frame (00xxxxxx, RFC 4944 §5.1) */
    TERN_SIXLOWPAN_RX_MALFORMED,        /**< dropped: encapsulation headers malformed or out of order */
    TERN_SIXLOWPAN_RX_MESH,             /**< dropped: mesh header (mesh-under forwarding not implemented) */
    TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH, /**< dropped: ESC, HC1, RFRAG, paging, reserved dispatch */
    TERN_SIXLOWPAN_RX_IPHC_TRUNCATED,   /**< dropped: frame ends inside a compressed header (-EBADMSG) */
    TERN_SIXLOWPAN_RX_IPHC_INVALID,     /**< dropped: reserved or invalid IPHC/NHC encoding (-EPROTO) */
    TERN_SIXLOWPAN_RX_IPHC_UNSUPPORTED, /**< dropped: unknown NHC, elided UDP checksum (-ENOTSUP) */
    TERN_SIXLOWPAN_RX_IPHC_CONTEXT,     /**< dropped: unknown or expired context (-ENOENT, RFC 6282 §3.1.1) */
    TERN_SIXLOWPAN_RX_IPHC_NO_L2ADDR,   /**< dropped: elided IID without a link address (-EADDRNOTAVAIL) */
    TERN_SIXLOWPAN_RX_IPHC_SIZE,        /**< dropped: datagram_size smaller than the frame says (-EMSGSIZE) */
    TERN_SIXLOWPAN_RX_HEADERS_TOO_LONG, /**< dropped: headers above TERN_CONF_SIXLOWPAN_HEADERS_MAX (-ENOBUFS) */
    TERN_SIXLOWPAN_RX_NOMEM,            /**< dropped: no pktbuf for the datagram */
    TERN_SIXLOWPAN_TX_DATAGRAMS,        /**< datagrams taken for sending */
    TERN_SIXLOWPAN_TX_FRAMES,           /**< frames handed to an interface (whole datagrams and fragments) */
    TERN_SIXLOWPAN_TX_FRAGMENTED,       /**< datagrams sent in fragments */
    TERN_SIXLOWPAN_TX_UNCOMPRESSED,     /**< datagrams sent as 0x41: compressed headers did not fit in FRAG1 */
    TERN_SIXLOWPAN_TX_INVALID,          /**< dropped: not [NETIF, IPV6, ...], not IPv6, not attached */
    TERN_SIXLOWPAN_TX_TOO_BIG,          /**< dropped: above 2047 bytes, or the link's frames are too small */
    TERN_SIXLOWPAN_TX_BUSY,             /**< dropped: every fragmentation slot busy and TERN_CONF_SIXLOWPAN_FRAG_WAIT datagrams waiting */
    TERN_SIXLOWPAN_TX_WAITED,           /**< datagrams that waited for a fragmentation slot */
    TERN_SIXLOWPAN_TX_NOMEM,            /**< dropped: no pktbuf for a frame (the rest of the datagram too) */
    TERN_SIXLOWPAN_TX_LINK_REFUSED,     /**< dropped: the interface refused a frame (queue full; rest of the datagram too) */
    TERN_SIXLOWPAN_TX_FRAG_ABORTED,     /**< datagrams given up: a fragment never went out (no memory, queue full, channel busy) */
    TERN_SIXLOWPAN_STAT_NUMOF
} tern_sixlowpan_stat_t;

/** One interface the module serves. Private to the module. */
typedef struct {
    tern_netif_t *netif;                                   /**< NULL: entry free */
    uint16_t next_tag;                                     /**< datagram_tag of the next fragmented datagram */
    uint8_t context_count;                                 /**< entries up to the last one in use */
    tern_iphc_context_t contexts[TERN_CONF_SIXLOWPAN_CONTEXTS]; /**< IPHC contexts, each naming its CID; flags 0: free */
    uint64_t context_expiry_us[TERN_CONF_SIXLOWPAN_CONTEXTS];   /**< end of validity; UINT64_MAX: never */
    uint64_t context_next_expiry_us;                       /**< the earliest of those in use; 0: recount */
} tern_sixlowpan_if_t;

/** One datagram being sent in fragments. Private to the module. */
typedef struct tern_sixlowpan_frag {
    struct tern_sixlowpan *owner; /**< the module (the fragment outcome report posts to it) */
    tern_pkt_t *pkt;          /**< [NETIF, IPV6, ...] as it came; NULL: slot free */
    tern_pkt_t *report;       /**< NETERR snip every fragment carries (one reference the slot's, see report_refs) */
    uint8_t state;            /**< SIXLOWPAN_FRAG_* (sixlowpan_internal.h); written by the report (atomic) */
    uint8_t report_refs;      /**< references to @ref report held for frames not sent yet */
    int outcome;              /**< the last fragment's outcome (0 or negative errno), once reported */
    tern_sixlowpan_if_t *lif; /**< interface it goes out of */
    tern_netif_hdr_t hdr;     /**< interface header of every fragment */
    uint16_t size;            /**< datagram_size: uncompressed bytes */
    uint16_t offset;          /**< uncompressed bytes sent so far (a multiple of 8) */
    uint16_t tag;             /**< datagram_tag */
    uint16_t per_fragment;    /**< datagram bytes per FRAGN (a multiple of 8) */
} tern_sixlowpan_frag_t;

/** The module. Caller allocated, one per stack; set up with tern_sixlowpan_init(). Fields are private but @ref counters. */
typedef struct tern_sixlowpan {
    tern_module_t module;                                      /**< the module ("6lowpan") */
    tern_msg_t queue[TERN_CONF_SIXLOWPAN_QUEUE_LEN];           /**< its queue storage */
    tern_netreg_entry_t entry;                                 /**< (SIXLOWPAN, ALL) */
    tern_timer_t reass_timer;                                  /**< expires reassemblies */
    tern_sixlowpan_reass_t reass;                              /**< datagrams being reassembled */
    tern_sixlowpan_if_t ifs[TERN_CONF_SIXLOWPAN_NETIFS];       /**< attached interfaces */
    tern_sixlowpan_frag_t frags[TERN_CONF_SIXLOWPAN_FRAG_SLOTS]; /**< datagrams being fragmented */
    tern_pkt_t *frag_wait[TERN_CONF_SIXLOWPAN_FRAG_WAIT + 1];  /**< datagrams waiting for a slot (ring, one spare) */
    uint8_t frag_next;                                         /**< slot served next (round robin) */
    uint8_t frag_wait_head;                                    /**< oldest waiting datagram */
    uint8_t frag_wait_count;                                   /**< datagrams waiting */
    bool frag_kick_pending;                                    /**< a "send the next fragment" message is queued (atomic) */
    bool frag_in_turn;                                         /**< a fragment went to the interface on this turn: the handler looks for its outcome before it returns (atomic) */
    uint8_t reass_timer_gen;                                   /**< reass.deadline_gen (low byte) the timer was last set for */
    uint8_t scratch[TERN_CONF_SIXLOWPAN_HEADERS_MAX];          /**< (de)compressed headers of the frame at hand */
    tern_counter_t counters[TERN_SIXLOWPAN_STAT_NUMOF];              /**< indexed by tern_sixlowpan_stat_t */
    tern_stats_group_t stats;                                  /**< "sixlowpan" */
} tern_sixlowpan_t;

/**
 * Set up the module, add it to @p stack and register it for
 * (TERN_NETTYPE_SIXLOWPAN, ALL). Registers the counter groups "sixlowpan"
 * and "6lo_reass".
 * @param[out] lowpan  the module (one per stack)
 * @param[in]  stack   the node
 * @return 0; -EINVAL for a NULL pointer; the negative errno of module setup,
 *         attach or registration.
 */
int tern_sixlowpan_init(tern_sixlowpan_t *lowpan, tern_stack_t *stack);

/**
 * Make @p netif a 6LoWPAN interface: IPv6 packets sent through it
 * (tern_netif_send()) come to this module, and its MTU becomes 1280
 * (RFC 4944 §4: the link MTU IPv6 sees; fragmentation is below it).
 * @pre called before tern_ipv6_netif_enable() for @p netif (which reads the
 *      MTU), on the thread that set the stack up, before traffic flows
 * @return 0 (also when already attached); -EINVAL for a NULL pointer or an
 *         interface of another stack; -ENOSPC when
 *         TERN_CONF_SIXLOWPAN_NETIFS interfaces are attached.
 */
int tern_sixlowpan_netif_attach(tern_sixlowpan_t *lowpan, tern_netif_t *netif);

/**
 * Set, change or remove IPHC context @p cid of interface @p if_index
 * (RFC 6282 §3.1.2; RFC 6775 §4.2 carries these fields in the 6CO).
 *
 * A context is valid for decompression while its lifetime runs, and for
 * compression too when @p compress is set (RFC 6775 §7.2: a context that is
 * no longer used for compression stays valid for decompression). At the end
 * of its lifetime it is removed.
 * @param[in] lowpan      the module
 * @param[in] if_index    an attached interface
 * @param[in] cid         context identifier, 0..15
 * @param[in] prefix      the prefix (bits beyond @p prefix_len ignored); may be NULL when @p lifetime_s is 0
 * @param[in] prefix_len  bits, 0..128
 * @param[in] compress    the C flag: use the context when compressing
 * @param[in] lifetime_s  seconds from now; 0 removes the context; UINT32_MAX never expires
 * @pre called on the module's thread, or while no traffic flows (the
 *      table is read by the module's handler without a lock); from other
 *      modules use netapi SET TERN_NETOPT_SIXLOWPAN_CONTEXT on the module
 *      (context: @p if_index), which runs this on the module's turn
 * @return 0; -EINVAL for a NULL @p lowpan, @p cid above 15, a prefix length
 *         above 128 or a NULL @p prefix with a lifetime; -ENODEV when
 *         @p if_index is not attached; -ENOSPC when the interface holds
 *         TERN_CONF_SIXLOWPAN_CONTEXTS other contexts already.
 * @see RFC 6282 §3.1.2, RFC 6775 §4.2 and §7.2
 */
int tern_sixlowpan_context_set(tern_sixlowpan_t *lowpan, uint16_t if_index, uint8_t cid,
                               const tern_ipv6_addr_t *prefix, uint8_t prefix_len, bool compress,
                               uint32_t lifetime_s);

#endif /* TERN_SIXLOWPAN_SIXLOWPAN_H */
