/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IEEE 802.15.4 link layer (MAC behaviour, no PHY): data frames
 *        <-> the interface header, acknowledged transmission with retries and
 *        CSMA-CA, duplicate rejection, the MAC's options.
 *
 * Read first: IEEE 802.15.4-2006 §7.2.1 (MAC frame format), §7.2.1.2
 * (sequence number), §7.5.1.4 (unslotted CSMA-CA), §7.5.6.2 (reception and
 * rejection: third-level filtering), §7.5.6.4 (acknowledgments and
 * retransmissions); RFC 4944 §3 (6LoWPAN over 802.15.4: addressing,
 * broadcast), §6 (interface identifiers from the link addresses).
 * docs/IEEE802154.md, section "The 802.15.4 interface (MAC)", states every
 * choice.
 *
 * Every byte goes through the wire module (tern/wire/ieee802154.h). The
 * device (a radio: sim_radio.h, the ZEP device) takes and delivers MAC frames
 * WITHOUT the FCS (its CRC hardware adds and checks it), filters addresses,
 * acknowledges frames addressed to it, and reports the outcome of every frame
 * once through isr(); the link declares that (tern_netif_link_t::tx_policy)
 * and the interface does the rest: one frame in flight, a queue behind it,
 * CSMA-CA backoff on a busy channel (macMinBE 3, macMaxBE 5,
 * macMaxCSMABackoffs 4, 320 us backoff period) and up to macMaxFrameRetries
 * (3) retransmissions when the acknowledgment does not come. The final
 * outcome reaches the sender through tern_pktbuf_release_error() and the
 * interface's TX status hook (netif.h): 0, -EHOSTUNREACH (no ACK), -EBUSY
 * (channel access failure).
 *
 * Receive: the frame is parsed; the interface drops and counts frames that
 * are malformed or secured (rx_errors), not data frames (rx_unknown_proto),
 * not for this interface unless promiscuous (rx_not_for_us: no destination,
 * another PAN, another address), without a source address or without payload
 * (rx_errors), and retransmissions of an acknowledged frame already received
 * (rx_duplicate: same source, same sequence number within
 * TERN_IEEE802154_DUP_WINDOW_US). The MAC header is marked off and dropped;
 * the payload goes to netreg as TERN_NETTYPE_SIXLOWPAN (demux
 * TERN_NETREG_DEMUX_CTX_ALL), [payload, NETIF]. The interface header carries
 * the source and destination as 2 (short) or 8 (extended) bytes in canonical
 * order (tern_ieee802154_addr_t: the bytes RFC 4944 §6 derives IIDs from),
 * TERN_NETIF_HDR_FLAG_BROADCAST when the destination was 0xffff, LQI and RSSI.
 *
 * Send: [NETIF, payload...]. NETIF dst_len 0 or the BROADCAST or MULTICAST
 * flag: destination short 0xffff, no acknowledgment request; dst_len 2 or 8:
 * that short or extended address, acknowledgment requested. Source: the
 * extended address, or the short one when the NETIF src_len is 2 and a short
 * address is set. Frame version 1 (2006), PAN ID compression (both addresses
 * in this PAN), one sequence number counter per interface.
 *
 * netif->l2addr holds the extended address (8 bytes): IPv6 derives its
 * interface identifiers from it. Options (netapi GET/SET, passed to the
 * device; the link keeps copies): TERN_NETOPT_ADDRESS (short address,
 * uint8_t[2] canonical; ff:ff or ff:fe is "none"), TERN_NETOPT_ADDRESS_LONG
 * (uint8_t[8] canonical, also netif->l2addr), TERN_NETOPT_NID (PAN ID,
 * uint16_t), TERN_NETOPT_CHANNEL (uint16_t), TERN_NETOPT_MAX_PDU_SIZE (the
 * longest MAC frame without FCS the device sends, uint16_t; netif->mtu is the
 * MTU IPv6 sees, which 6LoWPAN sets), TERN_NETOPT_PROMISCUOUS (uint8_t).
 */
#ifndef TERN_LINK_IEEE802154_H
#define TERN_LINK_IEEE802154_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/netif.h"
#include "tern/wire/ieee802154.h"

/** @name MAC constants (IEEE 802.15.4-2006 Table 86 defaults; §7.4.1 for the backoff period)
 * @{ */
/** macMinBE: first CSMA-CA backoff exponent. */
#define TERN_IEEE802154_MIN_BE 3u
/** macMaxBE: largest CSMA-CA backoff exponent. */
#define TERN_IEEE802154_MAX_BE 5u
/** macMaxCSMABackoffs: channel assessments after the first before a channel access failure. */
#define TERN_IEEE802154_MAX_CSMA_BACKOFFS 4u
/** aUnitBackoffPeriod (20 symbols) at 62.5 ksymbol/s (2450 MHz O-QPSK), us. */
#define TERN_IEEE802154_UNIT_BACKOFF_US 320u
/** @} */

/**
 * How long a (source, sequence number) pair marks a frame with the same pair
 * as a retransmission, us. A sender's retransmissions of one frame end
 * within about 200 ms even in the worst case (4 transmissions, each after at
 * most 4 busy channels and 7 + 15 + 31 + 31 + 31 backoff periods, a 4.3 ms
 * frame and the 864 us ACK wait); typically within a few ms. A new frame is
 * taken for a duplicate only if its source used up exactly a multiple of 256
 * sequence numbers since its last frame to us, within this window: rare,
 * and it costs one frame the layers above recover. (Contiki-NG keeps such
 * entries 20 s.)
 */
#define TERN_IEEE802154_DUP_WINDOW_US 1000000u

/** One remembered source for duplicate rejection. */
typedef struct {
    uint64_t heard_us;  /**< when its last frame arrived */
    uint8_t addr[8];    /**< source address, canonical order */
    uint8_t len;        /**< its length: 2 or 8; 0: entry free */
    uint8_t seq;        /**< its last sequence number */
} tern_ieee802154_dup_t;

/**
 * Per-interface MAC state. Allocate it with the interface (statically);
 * tern_ieee802154_netif_add() fills it. Treat as private: change settings
 * through netapi SET so that the device and the copies here agree.
 */
typedef struct {
    uint8_t long_addr[TERN_IEEE802154_EXT_ADDR_LEN];    /**< extended address, canonical order */
    uint8_t short_addr[TERN_IEEE802154_SHORT_ADDR_LEN]; /**< short address, canonical order */
    uint16_t pan_id;                                    /**< macPANId */
    uint16_t channel;                                   /**< phyCurrentChannel */
    uint16_t max_frame;                                 /**< longest MAC frame (no FCS) the device sends */
    uint8_t seq;                                        /**< macDSN: next sequence number */
    bool promiscuous;                                   /**< hand up every data frame */
    /* The MAC header of the last data frame taken up, and what parsing and
     * filtering made of it: a frame whose header has the same bytes but
     * for the sequence number (every fragment of a datagram) needs neither
     * again. Cleared by every SET (an address, the PAN ID and promiscuous
     * mode are the filter's inputs). Ahead of the larger fields, where
     * Thumb's short loads reach. */
    uint8_t rx_mhr_len;                                 /**< its length; 0: none */
    bool rx_unicast;                                    /**< the filter found it addressed to us alone */
    uint8_t rx_nh_flags;                                /**< interface header flags it gives (BROADCAST) */
#if TERN_CONF_FAST_PATHS /* the cache (config.h); without, rx_repr is the parse of the frame at hand */
    uint8_t rx_mhr[TERN_IEEE802154_MHR_MAX_LEN];        /**< that header */
#endif
    tern_ieee802154_repr_t rx_repr;                     /**< its parse (rx_repr.seq: that frame's) */
    /* The MAC header of the last frame built, reused (with the next sequence
     * number) by the next frame with the same addressing: every fragment of
     * a datagram, every datagram to the same neighbour. Cleared when an
     * address or the PAN ID changes. */
    uint8_t tx_mhr[TERN_IEEE802154_MHR_MAX_LEN];        /**< that header */
    uint8_t tx_mhr_len;                                 /**< its length; 0: none */
#if TERN_CONF_FAST_PATHS /* the cache's key (config.h); without, tx_mhr is built for every frame */
    uint8_t tx_key_dst[TERN_IEEE802154_EXT_ADDR_LEN];   /**< the interface header's destination it is for */
    uint8_t tx_key_dst_len;                             /**< its length */
    uint8_t tx_key_src_len;                             /**< the interface header's source length */
    uint8_t tx_key_flags;                               /**< its BROADCAST and MULTICAST flags */
#endif
    /** MHR length per destination (short or broadcast / extended) and
     *  interface header source length (2 / other), for payload_max(). */
    uint8_t mhr_lens[2][2];
    /* Last: its 8-byte alignment takes one hole after all the byte fields above. */
    tern_ieee802154_dup_t dup[TERN_CONF_IEEE802154_DUP_SOURCES]; /**< recent sources */
} tern_ieee802154_link_t;

/** The IEEE 802.15.4 link layer (netif->link_ctx: a tern_ieee802154_link_t). */
extern const tern_netif_link_t tern_netif_link_ieee802154;

/**
 * Add an IEEE 802.15.4 interface over radio @p dev, with @p mac as its MAC
 * state: the link's copies are read from the device (extended and short
 * address, PAN ID, channel, maximum frame), netif->l2addr becomes the
 * extended address, and received frames go to TERN_NETTYPE_SIXLOWPAN.
 * The first sequence number is derived from the extended address
 * (macDSN starts at a random value, 2006 Table 86; this one is reproducible).
 *
 * @pre @p dev answers GET TERN_NETOPT_ADDRESS_LONG before its init() (the
 *      simulated radio and the ZEP device take their configuration in their
 *      own set-up functions)
 * @return 0; -EINVAL for NULL arguments or a device without an 8-byte
 *         extended address; otherwise as tern_netif_add().
 */
int tern_ieee802154_netif_add(tern_stack_t *stack, tern_netif_t *netif, tern_ieee802154_link_t *mac,
                              const char *name, tern_netdev_t *dev);

#endif /* TERN_LINK_IEEE802154_H */
