/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The simulated IEEE 802.15.4 radio: a netdev driver on a radio medium.
 *
 * Read first: IEEE 802.15.4-2006 §7.5.6.2 (third-level filtering), §7.5.6.4
 * (acknowledgment: only frames with the Acknowledgment Request subfield set
 * that pass the filter, never broadcast ones), §7.2.2.3 (the Imm-Ack frame).
 * The medium (radio_medium.c) owns the timing; this file is what the
 * transceiver chip does: CRC, filter, receive queue, auto-acknowledgment,
 * and the outcome of each send().
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/netdev/sim_radio.h"
#include "tern/wire/ieee802154.h"

static const char *const radio_counter_names[TERN_SIM_RADIO_STAT_NUMOF] = {
    [TERN_SIM_RADIO_TX_FRAMES] = "tx_frames",
    [TERN_SIM_RADIO_TX_REFUSED] = "tx_refused",
    [TERN_SIM_RADIO_TX_MEDIUM_BUSY] = "tx_medium_busy",
    [TERN_SIM_RADIO_TX_NOACK] = "tx_noack",
    [TERN_SIM_RADIO_ACKS_RECEIVED] = "acks_received",
    [TERN_SIM_RADIO_ACKS_SENT] = "acks_sent",
    [TERN_SIM_RADIO_ACKS_SKIPPED] = "acks_skipped",
    [TERN_SIM_RADIO_RX_FRAMES] = "rx_frames",
    [TERN_SIM_RADIO_RX_FILTERED] = "rx_filtered",
    [TERN_SIM_RADIO_RX_QUEUE_FULL] = "rx_queue_full",
    [TERN_SIM_RADIO_RX_BUF_SHORT] = "rx_buf_short",
};

/** The radio behind @p netdev (its first member). Through void: the radio's
 *  64-bit members make it more aligned than a bare tern_netdev_t. */
static tern_sim_radio_t *radio_of(tern_netdev_t *netdev)
{
    return (tern_sim_radio_t *)(void *)netdev;
}

/* ------------------------------------------------------------ transmit */

/**
 * Append the FCS to the frame in tx_psdu and note whether it asks for an
 * acknowledgment (and its sequence number), as a transceiver in its
 * "transmit with automatic acknowledgment" mode reads the frame control. A
 * frame the wire module cannot parse waits for no acknowledgment: no radio's
 * filter would accept it, so none would come.
 */
static void radio_prepare_tx(tern_sim_radio_t *radio, size_t len)
{
    tern_ieee802154_repr_t repr;
    radio->tx_ack_request = false;
    if (tern_ieee802154_parse(&repr, radio->tx_psdu, len) >= 0 && repr.frame_type != TERN_IEEE802154_FRAME_TYPE_ACK) {
        radio->tx_ack_request = repr.ack_request;
        radio->tx_seq = repr.seq;
    }
    /* Cannot fail: len <= TERN_RADIO_MAX_FRAME, checked by the caller. */
    (void)tern_ieee802154_fcs_append(radio->tx_psdu, len, sizeof(radio->tx_psdu));
}

/** Can a new frame be sent: nothing on the air, awaited or unreported? */
static bool radio_tx_idle(const tern_sim_radio_t *radio)
{
    /* An acknowledgment owed (scheduled aTurnaroundTime after the frame, or
     * on the air) keeps the transceiver busy too, as in a radio's auto-ACK
     * mode (IEEE 802.15.4-2006 §7.5.6.4.2): the MAC's CSMA-CA backs off and
     * tries again, instead of the frame cancelling the acknowledgment. */
    return radio->air[TERN_SIM_RADIO_AIR_DATA].state == TERN_RADIO_AIR_IDLE &&
           radio->air[TERN_SIM_RADIO_AIR_ACK].state == TERN_RADIO_AIR_IDLE && !radio->ack_waiting &&
           !radio->tx_result_pending;
}

static int radio_send(tern_netdev_t *netdev, const tern_iolist_t *iolist, size_t count)
{
    tern_sim_radio_t *radio = radio_of(netdev);
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iolist[i].len;
    }
    if (len > TERN_RADIO_MAX_FRAME) {
        tern_count(&radio->counters[TERN_SIM_RADIO_TX_REFUSED]);
        return -EMSGSIZE;
    }
    if (len == 0u) {
        /* A receiver's recv(NULL, 0) could not tell it from "no frame". */
        tern_count(&radio->counters[TERN_SIM_RADIO_TX_REFUSED]);
        return -EINVAL;
    }
    if (!radio->pib.on) {
        tern_count(&radio->counters[TERN_SIM_RADIO_TX_REFUSED]);
        return -ENETDOWN;
    }
    if (!radio_tx_idle(radio)) {
        tern_count(&radio->counters[TERN_SIM_RADIO_TX_REFUSED]);
        return -ENOBUFS;
    }
    size_t off = 0;
    for (size_t i = 0; i < count; i++) {
        if (iolist[i].len > 0u) {
            memcpy(&radio->tx_psdu[off], iolist[i].base, iolist[i].len);
            off += iolist[i].len;
        }
    }
    radio_prepare_tx(radio, len);
    int res = tern_radio_medium_transmit(radio->medium, radio, len + TERN_RADIO_FCS_LEN);
    if (res == -EBUSY) {
        /* CCA failed: accepted, and the outcome is reported like any other. */
        tern_sim_radio_medium_tx_done(radio, TERN_NETDEV_EVENT_TX_MEDIUM_BUSY);
        radio->irq = false;
        tern_netdev_report(netdev, TERN_NETDEV_EVENT_ISR);
        return (int)len;
    }
    if (res < 0) {
        tern_count(&radio->counters[TERN_SIM_RADIO_TX_REFUSED]);
        return -EIO;
    }
    tern_count(&radio->counters[TERN_SIM_RADIO_TX_FRAMES]);
    return (int)len;
}

void tern_sim_radio_medium_tx_done(tern_sim_radio_t *radio, tern_netdev_event_t result)
{
    switch (result) {
    case TERN_NETDEV_EVENT_TX_NOACK:
        tern_count(&radio->counters[TERN_SIM_RADIO_TX_NOACK]);
        break;
    case TERN_NETDEV_EVENT_TX_MEDIUM_BUSY:
        tern_count(&radio->counters[TERN_SIM_RADIO_TX_MEDIUM_BUSY]);
        break;
    default:
        break;
    }
    radio->tx_result = (uint8_t)result;
    radio->tx_result_pending = true;
    radio->irq = true;
}

/* ------------------------------------------------------------ receive */

/** Queue @p len bytes of frame (no FCS). @return false when the queue is full (counted). */
static bool radio_queue(tern_sim_radio_t *radio, const uint8_t *frame, size_t len, int16_t rssi, uint8_t lqi)
{
    if (radio->rx_count >= TERN_CONF_SIM_RADIO_RX_QUEUE) {
        tern_count(&radio->counters[TERN_SIM_RADIO_RX_QUEUE_FULL]);
        return false;
    }
    tern_sim_radio_frame_t *slot = &radio->rx[(radio->rx_head + radio->rx_count) % TERN_CONF_SIM_RADIO_RX_QUEUE];
    memcpy(slot->frame, frame, len);
    slot->len = (uint8_t)len;
    slot->rssi = rssi;
    slot->lqi = lqi;
    radio->rx_count++;
    tern_count(&radio->counters[TERN_SIM_RADIO_RX_FRAMES]);
    radio->irq = true;
    return true;
}

unsigned tern_sim_radio_medium_receive(tern_sim_radio_t *radio, const uint8_t *psdu, size_t len, int16_t rssi,
                                       uint8_t lqi)
{
    /* The medium delivers intact frames only: the FCS is right, strip it. */
    size_t frame_len = len - TERN_RADIO_FCS_LEN;
    tern_ieee802154_repr_t repr;
    bool parsed = tern_ieee802154_parse(&repr, psdu, frame_len) >= 0;
    if (parsed && repr.frame_type == TERN_IEEE802154_FRAME_TYPE_ACK) {
        if (radio->ack_waiting && repr.seq == radio->tx_seq) {
            /* The acknowledgment awaited (an ACK names no address: the sequence number is all). */
            radio->ack_waiting = false;
            tern_count(&radio->counters[TERN_SIM_RADIO_ACKS_RECEIVED]);
            tern_sim_radio_medium_tx_done(radio, TERN_NETDEV_EVENT_TX_COMPLETE);
            return TERN_SIM_RADIO_RX_ACK_MATCH;
        }
        parsed = false; /* any other ACK: only a promiscuous radio keeps it */
    }
    tern_ieee802154_rx_verdict_t verdict =
        parsed ? tern_ieee802154_pib_filter(&radio->pib, &repr)
               : TERN_IEEE802154_RX_REJECT;
    bool accepted = verdict != TERN_IEEE802154_RX_REJECT;
    bool unicast = verdict == TERN_IEEE802154_RX_UNICAST;
    if (!accepted && !radio->pib.promiscuous) {
        tern_count(&radio->counters[TERN_SIM_RADIO_RX_FILTERED]);
        return 0;
    }
    if (!radio_queue(radio, psdu, frame_len, rssi, lqi)) {
        return 0; /* no room: not received, so not acknowledged */
    }
    unsigned flags = TERN_SIM_RADIO_RX_QUEUED;
    if (accepted && unicast && repr.ack_request) {
        if (radio->air[TERN_SIM_RADIO_AIR_ACK].state != TERN_RADIO_AIR_IDLE) {
            /* Still sending the previous one (two frames ended together on an
             * ideal medium): its bytes must stay as they are. */
            tern_count(&radio->counters[TERN_SIM_RADIO_ACKS_SKIPPED]);
        } else {
            (void)tern_ieee802154_ack_emit(repr.seq, false, radio->ack_psdu, sizeof(radio->ack_psdu));
            flags |= TERN_SIM_RADIO_RX_SEND_ACK;
        }
    }
    return flags;
}

static int radio_recv(tern_netdev_t *netdev, void *buf, size_t len, tern_netdev_rx_info_t *info)
{
    tern_sim_radio_t *radio = radio_of(netdev);
    if (radio->rx_count == 0u) {
        return 0;
    }
    const tern_sim_radio_frame_t *slot = &radio->rx[radio->rx_head];
    if (buf == NULL && len == 0u) {
        return slot->len;
    }
    int res = slot->len;
    if (buf != NULL) {
        if (len < slot->len) {
            tern_count(&radio->counters[TERN_SIM_RADIO_RX_BUF_SHORT]);
            res = -ENOBUFS;
        } else {
            memcpy(buf, slot->frame, slot->len);
            if (info != NULL) {
                info->rssi = slot->rssi;
                info->lqi = slot->lqi;
            }
        }
    }
    radio->rx_head = (uint8_t)((radio->rx_head + 1u) % TERN_CONF_SIM_RADIO_RX_QUEUE);
    radio->rx_count--;
    return res;
}

/* ------------------------------------------------------------ device */

static int radio_init(tern_netdev_t *netdev)
{
    (void)netdev;
    return 0;
}

static void radio_isr(tern_netdev_t *netdev)
{
    tern_sim_radio_t *radio = radio_of(netdev);
    if (radio->tx_result_pending) {
        /* Cleared first: the user may send the next frame from the callback. */
        radio->tx_result_pending = false;
        tern_netdev_report(netdev, (tern_netdev_event_t)radio->tx_result);
    }
    /* Each RX_COMPLETE is answered by one recv(); a user that does not read
     * leaves the frame queued, and the loop stops rather than spin. */
    while (radio->rx_count > 0u) {
        uint8_t before = radio->rx_count;
        tern_netdev_report(netdev, TERN_NETDEV_EVENT_RX_COMPLETE);
        if (radio->rx_count >= before) {
            break;
        }
    }
}

static int radio_get(tern_netdev_t *netdev, tern_netopt_t opt, void *value, size_t max_len)
{
    return tern_ieee802154_pib_get(&radio_of(netdev)->pib, opt, value, max_len);
}

static int radio_set(tern_netdev_t *netdev, tern_netopt_t opt, const void *value, size_t len)
{
    return tern_ieee802154_pib_set(&radio_of(netdev)->pib, opt, value, len);
}

static const tern_netdev_driver_t sim_radio_driver = {
    .send = radio_send,
    .recv = radio_recv,
    .init = radio_init,
    .isr = radio_isr,
    .get = radio_get,
    .set = radio_set,
};

int tern_sim_radio_init(tern_sim_radio_t *radio, tern_radio_medium_t *medium, const uint8_t long_addr[8])
{
    if (radio == NULL || medium == NULL || long_addr == NULL) {
        return -EINVAL;
    }
    memset(radio, 0, sizeof(*radio));
    radio->netdev.driver = &sim_radio_driver;
    radio->medium = medium;
    tern_ieee802154_pib_init(&radio->pib, long_addr, TERN_IEEE802154_PAN_ID_BROADCAST, TERN_SIM_RADIO_DEFAULT_CHANNEL);
    radio->stats_group.name = "radio";
    radio->stats_group.names = radio_counter_names;
    radio->stats_group.values = radio->counters;
    radio->stats_group.count = TERN_SIM_RADIO_STAT_NUMOF;
    int index = tern_radio_medium_attach(medium, radio);
    if (index < 0) {
        return index;
    }
    radio->index = (uint16_t)index;
    return index;
}
