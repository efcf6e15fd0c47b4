/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief A simulated IEEE 802.15.4 radio on a radio medium (radio_medium.h):
 *        a netdev driver that behaves like a transceiver with hardware
 *        address filtering, automatic acknowledgments and CRC.
 *
 * Read first: IEEE 802.15.4-2006 §7.5.6.2 (the third filtering level),
 * §7.5.6.4 (acknowledgment), §7.2.1.1 (frame control). The frame format is
 * the wire module's (tern/wire/ieee802154.h); this radio only looks at the
 * MAC header to filter and acknowledge.
 *
 * Frames are MAC frames WITHOUT the FCS, in both directions, as on a radio
 * with hardware CRC: send() takes the MAC header and payload (at most
 * TERN_RADIO_MAX_FRAME = 125 bytes) and the radio appends the CRC-16; recv()
 * delivers frames without it (a frame lost on the air is simply not
 * delivered, so every delivered frame has a valid FCS).
 *
 * Transmit: one frame at a time, one attempt. send() copies the frame and
 * puts it on the air at once (after CCA, when the medium models collisions).
 * Its outcome is reported exactly once through isr(): TX_COMPLETE (no ACK
 * requested, or the ACK arrived), TX_NOACK (ACK requested, none within
 * macAckWaitDuration) or TX_MEDIUM_BUSY (CCA failed). Until that event has
 * been reported, send() refuses further frames with -ENOBUFS; retries and
 * CSMA-CA backoff are the MAC layer's job. send() returns the frame length,
 * or: -EMSGSIZE above 125 bytes; -EINVAL for an empty frame (recv() could
 * not tell it from none); -ENETDOWN while switched off; -ENOBUFS while busy;
 * -EIO once the medium's executor has stopped. A frame the wire module cannot
 * parse is sent, but waits for no acknowledgment (no filter would accept it).
 *
 * Receive: a bounded queue of TERN_CONF_SIM_RADIO_RX_QUEUE frames. A frame
 * that passes the address filter (or every frame, when promiscuous) is queued
 * and an interrupt raised; isr() reports RX_COMPLETE while frames are queued.
 * A full queue drops the frame (counted) and does not acknowledge it.
 *
 * Options (get/set): TERN_NETOPT_ADDRESS (short address, uint8_t[2] in
 * canonical order, default ff:ff = none), TERN_NETOPT_ADDRESS_LONG
 * (uint8_t[8], canonical order), TERN_NETOPT_NID (PAN ID, uint16_t, default
 * 0xffff), TERN_NETOPT_CHANNEL (uint16_t, 11..26, default 26),
 * TERN_NETOPT_PROMISCUOUS (uint8_t), TERN_NETOPT_STATE (uint8_t: 0 switches
 * the radio off: it neither sends nor receives); get only:
 * TERN_NETOPT_ADDR_LEN (2), TERN_NETOPT_MAX_PDU_SIZE (125),
 * TERN_NETOPT_DEVICE_TYPE (TERN_NETDEV_TYPE_IEEE802154).
 */
#ifndef TERN_NETDEV_SIM_RADIO_H
#define TERN_NETDEV_SIM_RADIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/netdev.h"
#include "tern/netdev/ieee802154_pib.h"
#include "tern/netdev/radio_medium.h"
#include "tern/stats.h"

/** Channel a radio starts on (the last 2.4 GHz channel, as many stacks default to). */
#define TERN_SIM_RADIO_DEFAULT_CHANNEL 26u

/** Counters of a radio (stats group "radio": register it with the node's stack). */
typedef enum {
    TERN_SIM_RADIO_TX_FRAMES = 0,  /**< frames put on the air */
    TERN_SIM_RADIO_TX_REFUSED,     /**< send()s refused: busy, switched off, too long */
    TERN_SIM_RADIO_TX_MEDIUM_BUSY, /**< frames not sent: CCA found the channel busy */
    TERN_SIM_RADIO_TX_NOACK,       /**< frames whose acknowledgment did not arrive */
    TERN_SIM_RADIO_ACKS_RECEIVED,  /**< acknowledgments matched to the frame sent */
    TERN_SIM_RADIO_ACKS_SENT,      /**< acknowledgments put on the air */
    TERN_SIM_RADIO_ACKS_SKIPPED,   /**< acknowledgments not sent: the radio was transmitting */
    TERN_SIM_RADIO_RX_FRAMES,      /**< frames queued for the driver's user */
    TERN_SIM_RADIO_RX_FILTERED,    /**< frames dropped by the address filter */
    TERN_SIM_RADIO_RX_QUEUE_FULL,  /**< frames dropped: receive queue full */
    TERN_SIM_RADIO_RX_BUF_SHORT,   /**< frames dropped by recv() into a too-short buffer */
    TERN_SIM_RADIO_STAT_NUMOF
} tern_sim_radio_stat_t;

/** One received frame in the queue. */
typedef struct {
    uint8_t frame[TERN_RADIO_MAX_FRAME]; /**< MAC frame without FCS */
    uint8_t len;                         /**< its length */
    uint8_t lqi;                         /**< link quality */
    int16_t rssi;                        /**< dBm */
} tern_sim_radio_frame_t;

/** Which air record of a radio. */
enum {
    TERN_SIM_RADIO_AIR_DATA = 0, /**< the frame given to send() */
    TERN_SIM_RADIO_AIR_ACK,      /**< an acknowledgment the radio generated */
    TERN_SIM_RADIO_AIR_NUMOF
};

/** A simulated radio. Allocate statically; set up with tern_sim_radio_init(). Fields are private. */
typedef struct tern_sim_radio {
    tern_netdev_t netdev;                 /**< the device; pass &radio.netdev */
    tern_radio_medium_t *medium;          /**< the medium it is attached to */
    uint16_t index;                       /**< its index in the medium */
    tern_ieee802154_pib_t pib;            /**< addresses, PAN ID, channel, promiscuous, on */
    /* transmission */
    tern_radio_air_t air[TERN_SIM_RADIO_AIR_NUMOF]; /**< the data frame and an acknowledgment */
    uint8_t tx_psdu[TERN_RADIO_MAX_PSDU]; /**< the frame being sent, FCS appended */
    uint8_t ack_psdu[TERN_RADIO_ACK_PSDU_LEN]; /**< the acknowledgment being sent */
    bool tx_ack_request;                  /**< the frame sent asks for an acknowledgment */
    bool ack_waiting;                     /**< waiting for the acknowledgment of tx_seq */
    uint8_t tx_seq;                       /**< sequence number of the frame sent */
    uint64_t ack_deadline_us;             /**< end of the wait (valid while ack_waiting) */
    bool tx_result_pending;               /**< an outcome waits to be reported by isr() */
    uint8_t tx_result;                    /**< that outcome (tern_netdev_event_t) */
    bool irq;                             /**< raise an interrupt after the medium's step */
    /* reception */
    tern_sim_radio_frame_t rx[TERN_CONF_SIM_RADIO_RX_QUEUE]; /**< received frames */
    uint8_t rx_head;                      /**< oldest frame */
    uint8_t rx_count;                     /**< frames queued */
    tern_counter_t counters[TERN_SIM_RADIO_STAT_NUMOF]; /**< tern_sim_radio_stat_t */
    tern_stats_group_t stats_group;       /**< names the counters ("radio") */
} tern_sim_radio_t;

/**
 * Set up @p radio (switched on, channel 26, PAN 0xffff, no short address,
 * extended address @p long_addr, not promiscuous) and attach it to @p medium.
 * @param[out] radio      the radio
 * @param[in]  medium     the medium, set up
 * @param[in]  long_addr  extended address (EUI-64), canonical order
 * @return its index in the medium (>= 0, the index links and positions use);
 *         -EINVAL for NULL; -ENOSPC when the medium is full.
 */
int tern_sim_radio_init(tern_sim_radio_t *radio, tern_radio_medium_t *medium, const uint8_t long_addr[8]);

/** Read counter @p stat. */
static inline uint32_t tern_sim_radio_stat(const tern_sim_radio_t *radio, tern_sim_radio_stat_t stat)
{
    return tern_count_read(&radio->counters[stat]);
}

/*
 * Medium side (radio_medium.c, not for users).
 */

/** Result flags of tern_sim_radio_medium_receive(). */
enum {
    TERN_SIM_RADIO_RX_QUEUED = 1u << 0,    /**< queued: raise an interrupt */
    TERN_SIM_RADIO_RX_SEND_ACK = 1u << 1,  /**< acknowledge it: ack_psdu is ready */
    TERN_SIM_RADIO_RX_ACK_MATCH = 1u << 2, /**< it was the acknowledgment awaited: the send succeeded */
};

/**
 * A frame arrived intact at @p radio (which is on and on the frame's
 * channel): filter it, queue it, decide on an acknowledgment.
 * @param[in] psdu  the frame with FCS
 * @param[in] len   PSDU length (>= TERN_RADIO_FCS_LEN)
 * @return TERN_SIM_RADIO_RX_* flags (0: dropped, counted).
 */
unsigned tern_sim_radio_medium_receive(tern_sim_radio_t *radio, const uint8_t *psdu, size_t len, int16_t rssi,
                                       uint8_t lqi);

/** Settle the outcome of the frame sent (a TERN_NETDEV_EVENT_TX_* value) and count it. */
void tern_sim_radio_medium_tx_done(tern_sim_radio_t *radio, tern_netdev_event_t result);

#endif /* TERN_NETDEV_SIM_RADIO_H */
