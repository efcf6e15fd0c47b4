/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Network interfaces: the module that owns a netdev.
 *
 * Read first: thesis 3.3.5 and 3.4. An interface is a module (so it runs under
 * any executor) that owns one device. It handles the device's events outside
 * the event callback: the callback only posts a message to the interface
 * (at most one outstanding), and the interface calls the driver's isr() and
 * recv() from its own turn. A link layer (tern_netif_link_t) converts frames
 * to and from the generic interface header; the interface then dispatches a
 * received packet through netreg to the protocol the link names, and sends
 * packets it gets (SND, [NETIF, ...]) to the device as a scatter list.
 *
 * A stack has any number of interfaces, numbered from 1 in the order added.
 */
#ifndef TERN_NETIF_H
#define TERN_NETIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/netdev.h"
#include "tern/netif_hdr.h"
#include "tern/stack.h"
#include "tern/stats.h"
#include "tern/timer.h"

typedef struct tern_netif tern_netif_t;

/** Counters of an interface, indices into tern_netif_t::counters. */
enum {
    TERN_NETIF_RX_PACKETS = 0, /**< frames received and handed up */
    TERN_NETIF_RX_BYTES,       /**< bytes of those frames */
    TERN_NETIF_TX_PACKETS,     /**< frames the device accepted */
    TERN_NETIF_TX_BYTES,       /**< bytes of those frames */
    TERN_NETIF_RX_NOMEM,       /**< frames dropped: no room in pktbuf */
    TERN_NETIF_RX_ERRORS,      /**< frames dropped: device read error or bad link header */
    TERN_NETIF_TX_ERRORS,      /**< frames dropped: device refused them */
    TERN_NETIF_TX_INVALID,     /**< packets dropped: no interface header, bad link header */
    TERN_NETIF_TX_DOWN,        /**< packets dropped: interface down */
    TERN_NETIF_TX_MERGED,      /**< frames merged because they had too many snips */
    TERN_NETIF_EVENT_LOST,     /**< device interrupts not delivered: queue full */
    TERN_NETIF_RX_NOT_FOR_US,  /**< frames dropped: addressed to another station or group */
    TERN_NETIF_RX_UNKNOWN_PROTO, /**< frames dropped: protocol (EtherType) not handled */
    TERN_NETIF_TX_RETRIES,     /**< retransmissions after a missing acknowledgment */
    TERN_NETIF_TX_NOACK,       /**< frames given up: no acknowledgment after every retry */
    TERN_NETIF_TX_CHANNEL_BUSY, /**< frames given up: channel access failure (CSMA-CA) */
    TERN_NETIF_TX_QUEUE_FULL,  /**< packets dropped: transmit queue full */
    TERN_NETIF_RX_DUPLICATE,   /**< frames dropped: a retransmission already received */
    TERN_NETIF_STAT_NUMOF
};

/** Value of TERN_NETOPT_STATS: a snapshot of an interface's counters. */
typedef struct {
    tern_counter_t counters[TERN_NETIF_STAT_NUMOF]; /**< indexed by TERN_NETIF_... */
} tern_netif_stats_t;

/**
 * Transmission over a device that confirms every frame (an IEEE 802.15.4
 * radio: one frame at a time, the outcome reported once through isr() as
 * TX_COMPLETE, TX_NOACK or TX_MEDIUM_BUSY; send() answers -ENOBUFS until
 * then). A link that names one in tern_netif_link_t::tx_policy gets from the
 * interface: one frame in flight and a FIFO of TERN_CONF_NETIF_TX_QUEUE
 * packets behind it; unslotted CSMA-CA before every transmission (IEEE
 * 802.15.4-2006 §7.5.1.4: wait random(2^BE - 1) unit backoff periods, send;
 * on TX_MEDIUM_BUSY NB + 1, BE + 1 up to max_be, give up when NB exceeds
 * max_backoffs); up to max_retries retransmissions on TX_NOACK (§7.5.6.4.3),
 * each with its own CSMA-CA. Each packet's final outcome goes to
 * tern_pktbuf_release_error() and the TX status hook: 0 (sent, acknowledged
 * if asked), -EHOSTUNREACH (no acknowledgment after every retry), -EBUSY
 * (channel access failure), -ETIMEDOUT (the device reported nothing within
 * TERN_CONF_NETIF_TX_TIMEOUT_MS), or the device's send() error.
 *
 * A device that does CSMA-CA and retransmissions itself (TERN_NETOPT_HW_CSMA_RETRIES,
 * e.g. the extended operating mode of AT86RF2xx radios) keeps the FIFO and the
 * one frame in flight, but the interface hands it each frame at once and takes
 * its outcome as final: TX_NOACK is -EHOSTUNREACH (counted as max_retries + 1
 * transmissions), TX_MEDIUM_BUSY is -EBUSY. Devices that do not answer the
 * option get the software CSMA-CA and retries above; a build with
 * TERN_CONF_NETIF_SW_CSMA 0 has none and refuses them (tern_netif_add()).
 */
typedef struct {
    uint8_t max_retries;        /**< retransmissions after TX_NOACK (macMaxFrameRetries, 0..7) */
    uint8_t max_backoffs;       /**< channel access attempts after the first (macMaxCSMABackoffs, 0..5) */
    uint8_t min_be;             /**< first backoff exponent (macMinBE, 0..max_be) */
    uint8_t max_be;             /**< largest backoff exponent (macMaxBE, 3..8) */
    uint16_t backoff_period_us; /**< one backoff period (aUnitBackoffPeriod: 20 symbols), us */
} tern_netif_tx_policy_t;

/** A link layer: converts between link frames and the interface header. */
typedef struct {
    const char *name; /**< "raw", "ethernet", "ieee802154" */

    /**
     * A frame arrived: @p *pkt is one snip (type RAW) holding it, with the
     * interface header snip already after it ([RAW, NETIF]). Parse and strip
     * the link header, fill the interface header, and set the protocol and
     * demux context to dispatch to.
     * @return 0 to dispatch; negative errno to drop (the interface releases
     *         @p *pkt and counts it): -EADDRNOTAVAIL (not addressed to this
     *         interface: rx_not_for_us), -EPROTONOSUPPORT (protocol not
     *         handled: rx_unknown_proto), -ENOMEM (rx_nomem), -EALREADY
     *         (a duplicate of a frame received before: rx_duplicate),
     *         anything else (rx_errors).
     */
    int (*recv)(tern_netif_t *netif, tern_pkt_t **pkt, tern_nettype_t *type, uint32_t *demux);

    /**
     * A packet [NETIF, ...] is to be sent: replace the interface header by the
     * link header. The interface header's snip is private here (users 1), so
     * the link may turn it into its header in place (IEEE 802.15.4 does).
     * @return 0; negative errno to drop (counted as TX invalid; the interface
     * releases @p *pkt with that errno for its error report).
     */
    int (*send)(tern_netif_t *netif, tern_pkt_t **pkt);

    /**
     * Optional (NULL: none). Answer a netapi GET the interface itself does not
     * know, before the device is asked. Runs on the interface's turn.
     * @return as a GET handler; -ENOTSUP to let the device answer.
     */
    int (*get)(tern_netif_t *netif, tern_netapi_opt_t *opt);

    /** Optional (NULL: none). The same for SET. @return as a SET handler; -ENOTSUP: ask the device. */
    int (*set)(tern_netif_t *netif, tern_netapi_opt_t *opt);

    /**
     * Optional (NULL: the device's send() is the outcome of a frame, as on
     * Ethernet, loopback and test devices). The device confirms every frame:
     * see tern_netif_tx_policy_t.
     */
    const tern_netif_tx_policy_t *tx_policy;

    /**
     * Optional (NULL: netif->mtu). The largest link payload one frame with
     * interface header @p hdr can carry (IEEE 802.15.4: 127 - MAC header -
     * 2-byte FCS). 6LoWPAN sizes its fragments with it.
     * @return bytes (> 0); negative errno if @p hdr cannot be sent.
     */
    int (*payload_max)(const tern_netif_t *netif, const tern_netif_hdr_t *hdr);
} tern_netif_link_t;

/**
 * Capture hook: sees every complete link frame of an interface. Called with
 * @p tx false for a received frame before its link header is parsed (frames
 * the link then drops included), and with @p tx true for a sent frame (the
 * scatter list the device accepted). Runs on the interface's turn; must not
 * keep @p iol.
 */
typedef void (*tern_netif_capture_fn_t)(void *ctx, const tern_iolist_t *iol, size_t count, bool tx);

/** Value of TERN_NETOPT_CAPTURE: a capture hook and its argument (fn NULL: none). Not in a
 * build with TERN_CONF_NETIF_CAPTURE 0 (config.h): the option goes to the device then. */
typedef struct {
    tern_netif_capture_fn_t fn; /**< the hook, or NULL */
    void *ctx;                  /**< its first argument */
} tern_netif_capture_t;

/**
 * TX status hook: sees the final outcome of every frame an interface handed
 * to its device (not of packets dropped before: interface down, queue full,
 * bad header). Runs on the interface's turn, before the packet is released
 * with the same @p status; must not block or keep @p hdr.
 * @param[in] ctx            the hook's argument
 * @param[in] netif          the interface
 * @param[in] hdr            the packet's interface header (destination, flags)
 * @param[in] status         0 sent (acknowledged, if it asked for it);
 *                           -EHOSTUNREACH no acknowledgment after every retry;
 *                           -EBUSY channel access failure; another negative
 *                           errno: the device refused the frame or timed out
 * @param[in] transmissions  times the frame went on the air (attempts that
 *                           found the channel busy do not count)
 */
typedef void (*tern_netif_tx_status_fn_t)(void *ctx, const tern_netif_t *netif, const tern_netif_hdr_t *hdr,
                                          int status, unsigned transmissions);

/** Value of TERN_NETOPT_TX_STATUS: a TX status hook and its argument (fn NULL: none). Not in a
 * build with TERN_CONF_NETIF_TX_STATUS 0 (config.h): the option goes to the device then. */
typedef struct {
    tern_netif_tx_status_fn_t fn; /**< the hook, or NULL */
    void *ctx;                    /**< its first argument */
} tern_netif_tx_status_t;

/** The raw link: no link header at all (loopback, test devices). */
extern const tern_netif_link_t tern_netif_link_raw;

/** An interface. Allocate statically; add with tern_netif_add(). */
struct tern_netif {
    tern_module_t module;                  /**< the interface's module */
    tern_msg_t queue[TERN_CONF_MODULE_QUEUE_LEN]; /**< its queue storage */
    tern_netdev_t *dev;                    /**< the device */
    const tern_netif_link_t *link;         /**< the link layer */
    tern_netif_t *next;                    /**< stack's interface list */
    char name[TERN_CONF_NETIF_NAME_LEN];   /**< "lo", "test0", ... */
    uint16_t index;                        /**< 1-based, unique in the stack */
    uint16_t mtu;                          /**< link MTU (device's max PDU) */
    uint16_t proto;                        /**< tern_nettype_t received frames go to */
    uint8_t l2addr[TERN_CONF_L2ADDR_MAX];  /**< link address */
    uint8_t l2addr_len;                    /**< its length, 0: none */
    bool up;                               /**< administratively up */
    tern_counter_t counters[TERN_NETIF_STAT_NUMOF]; /**< see TERN_NETIF_... */
    tern_stats_group_t stats_group;        /**< counters, for `stats` */
    void *link_ctx;                        /**< link layer state (tern_netif_add_ctx), or NULL */
    /** Capture hook, or NULL. Change it with TERN_NETOPT_CAPTURE while the interface runs. */
    tern_netif_capture_fn_t capture;
    void *capture_ctx;                     /**< argument of @ref capture */
    /** TX status hook, or NULL. Change it with TERN_NETOPT_TX_STATUS while the interface runs. */
    tern_netif_tx_status_fn_t tx_status;
    void *tx_status_ctx;                   /**< argument of @ref tx_status */
    /* Transmission over a confirming device (link->tx_policy); private to netif.c. */
    tern_pkt_t *tx_queue[TERN_CONF_NETIF_TX_QUEUE]; /**< packets waiting ([NETIF, ...]), FIFO */
    uint8_t tx_head;                       /**< oldest entry of @ref tx_queue */
    uint8_t tx_count;                      /**< entries in @ref tx_queue */
    uint8_t tx_state;                      /**< idle, backing off, in flight */
    uint8_t tx_transmissions;              /**< times tx_frame went on the air */
    uint8_t tx_nb;                         /**< CSMA-CA NB: busy channels of this attempt */
    uint8_t tx_be;                         /**< CSMA-CA BE: backoff exponent */
    uint8_t tx_event;                      /**< outcome the device reported, not yet handled (0: none) */
    bool tx_hw_csma;                       /**< the device does CSMA-CA and retries (TERN_NETOPT_HW_CSMA_RETRIES) */
    uint16_t tx_len;                       /**< bytes of tx_frame, as the device took them (its send()'s count) */
    uint8_t event_pending;                 /**< an ISR message is queued (atomic) */
    tern_pkt_t *tx_frame;                  /**< the frame in progress (link header on), or NULL */
    tern_netif_hdr_t tx_hdr;               /**< its interface header, for the status hook */
    uint32_t tx_rng;                       /**< backoff PRNG state (xorshift32), 0: not seeded */
    /**
     * Adaptation layer between IPv6 and this interface (6LoWPAN), or NULL
     * (default). When set, tern_netif_send() hands [NETIF, IPV6, ...] packets
     * to it (SND) instead of the interface; it sends the frames it makes to
     * the interface module itself. Set by tern_sixlowpan_netif_attach().
     */
    tern_module_t *adaptation;
    uint64_t tx_deadline_us;               /**< end of the backoff, or of the wait for the outcome */
    tern_timer_t tx_timer;                 /**< wakes the interface at tx_deadline_us */
};

/**
 * Add an interface over @p dev to @p stack: initialise the device, read its
 * address and MTU, number the interface, and attach its module. The
 * interface calls the device's isr() once on its first turn (interrupts
 * raised before the attach are lost; a driver thread may wait for that call).
 *
 * @param[out] netif  interface storage
 * @param[in]  name   interface name (truncated to TERN_CONF_NETIF_NAME_LEN - 1)
 * @param[in]  dev    the device (its event callback and context are taken over)
 * @param[in]  link   link layer (e.g. &tern_netif_link_raw)
 * @param[in]  proto  protocol received frames are handed to, when the link
 *                    does not say (raw link)
 * @return 0; -EINVAL for NULL arguments; the device's init error; the
 *         executor's attach error; -ENOTSUP for a link with a tx_policy
 *         over a device that does not do CSMA-CA itself, in a build without
 *         the interface's (TERN_CONF_NETIF_SW_CSMA 0); -ENOTSUP for a link
 *         without a tx_policy in a build with TERN_CONF_NETIF_UNCONFIRMED 0.
 */
int tern_netif_add(tern_stack_t *stack, tern_netif_t *netif, const char *name, tern_netdev_t *dev,
                   const tern_netif_link_t *link, tern_nettype_t proto);

/**
 * tern_netif_add() for a link layer with per-interface state: @p link_ctx is
 * stored as netif->link_ctx before the device starts, so the link never sees
 * a frame without it (e.g. tern_ethernet_link_t for tern_netif_link_ethernet).
 * @return as tern_netif_add().
 */
int tern_netif_add_ctx(tern_stack_t *stack, tern_netif_t *netif, const char *name, tern_netdev_t *dev,
                       const tern_netif_link_t *link, void *link_ctx, tern_nettype_t proto);

/** Interface with @p index in @p stack, or NULL. */
tern_netif_t *tern_netif_by_index(tern_stack_t *stack, uint16_t index);

/** Interface named @p name in @p stack, or NULL. */
tern_netif_t *tern_netif_by_name(tern_stack_t *stack, const char *name);

/**
 * Send @p pkt ([NETIF, ...]) out of the interface its header names. An
 * IPv6 packet ([NETIF, IPV6, ...]) goes to the interface's adaptation module
 * (tern_netif_t::adaptation) when it has one, else straight to the interface.
 * @return as tern_netapi_send(), except that @p pkt is always taken (released
 *         on every error but -EINVAL for NULL arguments): -ENODEV (@p pkt
 *         released with that error, counted) if the header is missing, names
 *         no interface, or the interface's module is not attached.
 */
int tern_netif_send(tern_stack_t *stack, tern_pkt_t *pkt);

#endif /* TERN_NETIF_H */
