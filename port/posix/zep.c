/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief An IEEE 802.15.4 radio over ZEP v2 in UDP (see zep.h for the model).
 *
 * Read first: IEEE 802.15.4-2006 §7.5.6.2 (third-level filtering), §7.5.6.4
 * (acknowledgment: only frames with the Acknowledgment Request subfield that
 * pass the filter, never broadcast ones), §7.2.2.3 (Imm-Ack), §7.2.1.9 (FCS).
 * The reader thread is the transceiver chip (FCS, filter, receive FIFO,
 * auto-ACK, ACK wait); the driver functions run on the interface's turn.
 */
#define _DEFAULT_SOURCE 1 /* if_nametoindex, MSG_DONTWAIT */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tern/port/posix.h"
#include "tern/port/zep.h"
#include "tern/wire/ieee802154.h"
#include "tern/wire/zep.h"

/** Seconds from the NTP era (1900-01-01) to the Unix epoch (RFC 5905 §6). */
#define NTP_UNIX_OFFSET 2208988800u

/** Datagrams the reader takes per wake-up before it looks at the clock again. */
#define READER_BATCH 16

/** Byte 2 (last) of CC24xx metadata that replaces the FCS in LQI mode: bit 7 is "CRC OK". */
#define CC24XX_CRC_OK 0x80u

static const char *const zep_counter_names[TERN_NETDEV_ZEP_STAT_NUMOF] = {
    [TERN_NETDEV_ZEP_TX_FRAMES] = "tx_frames",
    [TERN_NETDEV_ZEP_TX_REFUSED] = "tx_refused",
    [TERN_NETDEV_ZEP_TX_ERRORS] = "tx_errors",
    [TERN_NETDEV_ZEP_TX_NOACK] = "tx_noack",
    [TERN_NETDEV_ZEP_ACKS_RECEIVED] = "acks_received",
    [TERN_NETDEV_ZEP_ACKS_SENT] = "acks_sent",
    [TERN_NETDEV_ZEP_RX_FRAMES] = "rx_frames",
    [TERN_NETDEV_ZEP_RX_TOO_LONG] = "rx_too_long",
    [TERN_NETDEV_ZEP_RX_MALFORMED] = "rx_malformed",
    [TERN_NETDEV_ZEP_RX_NOT_DATA] = "rx_not_data",
    [TERN_NETDEV_ZEP_RX_OTHER_CHANNEL] = "rx_other_channel",
    [TERN_NETDEV_ZEP_RX_RADIO_OFF] = "rx_radio_off",
    [TERN_NETDEV_ZEP_RX_BAD_FCS] = "rx_bad_fcs",
    [TERN_NETDEV_ZEP_RX_FILTERED] = "rx_filtered",
    [TERN_NETDEV_ZEP_RX_QUEUE_FULL] = "rx_queue_full",
    [TERN_NETDEV_ZEP_RX_BUF_SHORT] = "rx_buf_short",
};

static tern_netdev_zep_t *zep_of(tern_netdev_t *dev)
{
    return (tern_netdev_zep_t *)(void *)dev;
}

static void count(tern_netdev_zep_t *zep, tern_netdev_zep_stat_t stat)
{
    tern_count(&zep->counters[stat]);
}

/** CLOCK_MONOTONIC in milliseconds. */
static uint64_t now_ms(void)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/** The wall clock as an NTP timestamp: seconds since 1900 << 32 | binary fraction. */
static uint64_t ntp_now(void)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t seconds = (uint64_t)ts.tv_sec + NTP_UNIX_OFFSET;
    uint64_t fraction = ((uint64_t)ts.tv_nsec << 32) / 1000000000u;
    return (seconds << 32) | (fraction & 0xFFFFFFFFu);
}

/**
 * Fill the ZEP v2 data header of a PSDU of @p psdu_len bytes into @p out.
 * @pre the mutex is held (the sequence number advances)
 */
static void zep_header(tern_netdev_zep_t *zep, size_t psdu_len, uint8_t out[TERN_ZEP_V2_HDR_LEN])
{
    tern_zep_repr_t repr = {
        .version = 2,
        .type = TERN_ZEP_TYPE_DATA,
        .channel = (uint8_t)zep->pib.channel,
        .device_id = (uint16_t)(((unsigned)zep->pib.long_addr[6] << 8) | zep->pib.long_addr[7]),
        .crc_mode = true, /* the frame ends with its FCS */
        .lqi = 0xFF,      /* the best link: a sender knows no link quality */
        .timestamp = ntp_now(),
        .seq = zep->zep_seq++,
        .frame_len = (uint8_t)psdu_len,
    };
    /* Cannot fail: version 2 data, psdu_len <= 127, the buffer is a header long. */
    (void)tern_zep_emit(&repr, out, TERN_ZEP_V2_HDR_LEN);
}

/** Send @p len bytes to @p to. @return 0; -ENOBUFS (socket buffer full); -EIO. */
static int send_datagram(int fd, const uint8_t *buf, size_t len, const struct sockaddr_storage *to, socklen_t to_len)
{
    ssize_t n;
    do {
        n = sendto(fd, buf, len, MSG_DONTWAIT, (const struct sockaddr *)to, to_len);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        return (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) ? -ENOBUFS : -EIO;
    }
    return 0;
}

/** Wake the reader (it re-reads the ACK deadline, or sees stopping). */
static void wake_reader(tern_netdev_zep_t *zep)
{
    if (zep->wake_pipe[1] < 0) {
        return;
    }
    const char byte = 0;
    ssize_t n;
    do {
        n = write(zep->wake_pipe[1], &byte, 1);
    } while (n < 0 && errno == EINTR);
    /* EAGAIN: the pipe is full of wake-ups already. */
}

/* ------------------------------------------------------------ transmit */

static int zep_send(tern_netdev_t *dev, const tern_iolist_t *iolist, size_t count_)
{
    tern_netdev_zep_t *zep = zep_of(dev);
    size_t len = 0;
    for (size_t i = 0; i < count_; i++) {
        len += iolist[i].len;
    }
    if (len > TERN_IEEE802154_MAX_FRAME_LEN) {
        count(zep, TERN_NETDEV_ZEP_TX_REFUSED);
        return -EMSGSIZE;
    }
    if (len == 0u) {
        /* A receiver's recv(NULL, 0) could not tell it from "no frame". */
        count(zep, TERN_NETDEV_ZEP_TX_REFUSED);
        return -EINVAL;
    }
    uint8_t pkt[TERN_ZEP_MAX_LEN];
    uint8_t *frame = &pkt[TERN_ZEP_V2_HDR_LEN];
    size_t off = 0;
    for (size_t i = 0; i < count_; i++) {
        if (iolist[i].len > 0u) {
            memcpy(&frame[off], iolist[i].base, iolist[i].len);
            off += iolist[i].len;
        }
    }
    /* As a transceiver in "transmit with automatic acknowledgment" mode reads
     * the frame control: whether to wait, and for which sequence number. A
     * frame the wire module cannot parse waits for nothing (no filter would
     * accept it, so no acknowledgment would come). */
    tern_ieee802154_repr_t repr;
    memset(&repr, 0, sizeof(repr));
    bool ack_request = tern_ieee802154_parse(&repr, frame, len) >= 0 &&
                       repr.frame_type != TERN_IEEE802154_FRAME_TYPE_ACK && repr.ack_request;
    /* Cannot fail: len <= 125 and pkt has room for the FCS. */
    int psdu_len = tern_ieee802154_fcs_append(frame, len, sizeof(pkt) - TERN_ZEP_V2_HDR_LEN);

    (void)pthread_mutex_lock(&zep->mutex);
    int res = 0;
    if (!zep->pib.on || zep->fd < 0 || zep->remote_len == 0) {
        res = -ENETDOWN;
    } else if (zep->ack_waiting || zep->tx_result_pending) {
        res = -ENOBUFS; /* the previous outcome is not reported yet */
    }
    if (res < 0) {
        (void)pthread_mutex_unlock(&zep->mutex);
        count(zep, TERN_NETDEV_ZEP_TX_REFUSED);
        return res;
    }
    zep_header(zep, (size_t)psdu_len, pkt);
    bool wait_ack = ack_request && zep->ack_timeout_ms > 0u;
    if (wait_ack) {
        /* Armed before the datagram leaves: the ACK may beat sendto()'s return. */
        zep->ack_waiting = true;
        zep->tx_seq = repr.seq;
        zep->ack_deadline_ms = now_ms() + zep->ack_timeout_ms;
    }
    struct sockaddr_storage to = zep->remote;
    socklen_t to_len = zep->remote_len;
    int fd = zep->fd;
    (void)pthread_mutex_unlock(&zep->mutex);

    res = send_datagram(fd, pkt, TERN_ZEP_V2_HDR_LEN + (size_t)psdu_len, &to, to_len);
    if (res < 0) {
        (void)pthread_mutex_lock(&zep->mutex);
        zep->ack_waiting = false;
        (void)pthread_mutex_unlock(&zep->mutex);
        count(zep, TERN_NETDEV_ZEP_TX_ERRORS);
        return res;
    }
    count(zep, TERN_NETDEV_ZEP_TX_FRAMES);
    if (wait_ack) {
        wake_reader(zep); /* it now has a deadline to keep */
    } else {
        (void)pthread_mutex_lock(&zep->mutex);
        zep->tx_result = (uint8_t)TERN_NETDEV_EVENT_TX_COMPLETE;
        zep->tx_result_pending = true;
        (void)pthread_mutex_unlock(&zep->mutex);
        tern_netdev_report(dev, TERN_NETDEV_EVENT_ISR);
    }
    return (int)len;
}

/* ------------------------------------------------------------ receive (reader thread) */

/** What the reader does after handling one datagram. */
typedef struct {
    bool raise;          /**< something for the interface: raise the interrupt */
    bool send_ack;       /**< answer with @ref ack */
    uint8_t ack[TERN_ZEP_V2_HDR_LEN + TERN_IEEE802154_ACK_PSDU_LEN]; /**< ZEP packet of an Imm-Ack */
    struct sockaddr_storage to; /**< where it goes */
    socklen_t to_len;
} rx_outcome_t;

/**
 * The part of reception that looks at the radio's state.
 * @pre the mutex is held; @p psdu is a frame with its last two bytes (FCS or
 *      CC24xx metadata), @p psdu_len >= 2
 */
static void zep_receive_locked(tern_netdev_zep_t *zep, const tern_zep_repr_t *hdr, const uint8_t *psdu,
                               size_t psdu_len, rx_outcome_t *out)
{
    if (hdr->channel != zep->pib.channel) {
        count(zep, TERN_NETDEV_ZEP_RX_OTHER_CHANNEL);
        return;
    }
    if (!zep->pib.on) {
        count(zep, TERN_NETDEV_ZEP_RX_RADIO_OFF);
        return;
    }
    int16_t rssi = 0;
    if (hdr->crc_mode) {
        if (tern_ieee802154_fcs_check(psdu, psdu_len) < 0) {
            count(zep, TERN_NETDEV_ZEP_RX_BAD_FCS);
            return;
        }
    } else {
        /* LQI mode: RSSI (signed) and CRC-OK + correlation, as a CC24xx
         * transceiver appends them in place of the FCS. */
        if ((psdu[psdu_len - 1u] & CC24XX_CRC_OK) == 0u) {
            count(zep, TERN_NETDEV_ZEP_RX_BAD_FCS);
            return;
        }
        rssi = (int8_t)psdu[psdu_len - 2u];
    }
    size_t frame_len = psdu_len - TERN_IEEE802154_FCS_LEN;
    tern_ieee802154_repr_t repr;
    bool parsed = tern_ieee802154_parse(&repr, psdu, frame_len) >= 0;
    if (parsed && repr.frame_type == TERN_IEEE802154_FRAME_TYPE_ACK) {
        if (zep->ack_waiting && repr.seq == zep->tx_seq) {
            /* The acknowledgment awaited: an Imm-Ack names no address, the
             * sequence number is all there is to match (§7.5.6.4.2). */
            zep->ack_waiting = false;
            zep->tx_result = (uint8_t)TERN_NETDEV_EVENT_TX_COMPLETE;
            zep->tx_result_pending = true;
            count(zep, TERN_NETDEV_ZEP_ACKS_RECEIVED);
            out->raise = true;
            return;
        }
        parsed = false; /* any other ACK: only a promiscuous radio keeps it */
    }
    tern_ieee802154_rx_verdict_t verdict =
        parsed ? tern_ieee802154_pib_filter(&zep->pib, &repr)
               : TERN_IEEE802154_RX_REJECT;
    bool accepted = verdict != TERN_IEEE802154_RX_REJECT;
    bool unicast = verdict == TERN_IEEE802154_RX_UNICAST;
    if (!accepted && !zep->pib.promiscuous) {
        count(zep, TERN_NETDEV_ZEP_RX_FILTERED);
        return;
    }
    if (zep->rx_count >= TERN_NETDEV_ZEP_RX_QUEUE) {
        count(zep, TERN_NETDEV_ZEP_RX_QUEUE_FULL); /* not received, so not acknowledged */
        return;
    }
    tern_netdev_zep_frame_t *slot = &zep->rx[(zep->rx_head + zep->rx_count) % TERN_NETDEV_ZEP_RX_QUEUE];
    memcpy(slot->frame, psdu, frame_len);
    slot->len = (uint8_t)frame_len;
    slot->lqi = hdr->lqi;
    slot->rssi = rssi;
    zep->rx_count++;
    count(zep, TERN_NETDEV_ZEP_RX_FRAMES);
    out->raise = true;
    if (accepted && unicast && repr.ack_request && zep->remote_len != 0) {
        /* Auto-ACK (§7.5.6.4): an Imm-Ack with the frame's sequence number. */
        zep_header(zep, TERN_IEEE802154_ACK_PSDU_LEN, out->ack);
        (void)tern_ieee802154_ack_emit(repr.seq, false, &out->ack[TERN_ZEP_V2_HDR_LEN], TERN_IEEE802154_ACK_PSDU_LEN);
        out->to = zep->remote;
        out->to_len = zep->remote_len;
        out->send_ack = true;
    }
}

/** Handle one datagram of @p len bytes (its true length) in zep->datagram. */
static void zep_receive(tern_netdev_zep_t *zep, size_t len, rx_outcome_t *out)
{
    if (len > TERN_ZEP_MAX_LEN) {
        count(zep, TERN_NETDEV_ZEP_RX_TOO_LONG);
        return;
    }
    tern_zep_repr_t hdr;
    int hdr_len = tern_zep_parse(&hdr, zep->datagram, len);
    if (hdr_len == -EPROTONOSUPPORT || hdr_len == -ENOMSG) {
        count(zep, TERN_NETDEV_ZEP_RX_NOT_DATA); /* another version, a "hello" */
        return;
    }
    if (hdr_len < 0) {
        count(zep, TERN_NETDEV_ZEP_RX_MALFORMED);
        return;
    }
    if (hdr.version != 2 || hdr.type != TERN_ZEP_TYPE_DATA) {
        count(zep, TERN_NETDEV_ZEP_RX_NOT_DATA);
        return;
    }
    if (hdr.frame_len <= TERN_IEEE802154_FCS_LEN) {
        count(zep, TERN_NETDEV_ZEP_RX_MALFORMED); /* no frame before the FCS */
        return;
    }
    (void)pthread_mutex_lock(&zep->mutex);
    zep_receive_locked(zep, &hdr, &zep->datagram[hdr_len], hdr.frame_len, out);
    (void)pthread_mutex_unlock(&zep->mutex);
}

/** Milliseconds the reader may sleep in poll(): -1 for as long as it takes. @pre mutex held */
static int reader_timeout(const tern_netdev_zep_t *zep, uint64_t now)
{
    int64_t wait = -1;
    if (zep->ack_waiting) {
        wait = zep->ack_deadline_ms > now ? (int64_t)(zep->ack_deadline_ms - now) : 0;
    }
    if (zep->rx_count > 0u || zep->tx_result_pending) {
        uint64_t due = zep->irq_raised_ms + TERN_NETDEV_ZEP_REARM_MS;
        int64_t rearm = due > now ? (int64_t)(due - now) : 0;
        if (wait < 0 || rearm < wait) {
            wait = rearm;
        }
    }
    return (int)wait;
}

static void drain_pipe(int fd)
{
    char buf[64];
    while (read(fd, buf, sizeof(buf)) > 0) {
    }
}

/*
 * The transceiver: read and judge datagrams, keep the ACK deadline, raise the
 * interrupt when the interface has something to do.
 */
static void *zep_reader(void *arg)
{
    tern_netdev_zep_t *zep = arg;
    /* Raise nothing before the interface's first isr(): only then is it
     * attached to its executor (the mutex orders that before our posts). */
    (void)pthread_mutex_lock(&zep->mutex);
    while (!zep->started && !zep->stopping) {
        (void)pthread_cond_wait(&zep->cond, &zep->mutex);
    }
    bool stop = zep->stopping;
    (void)pthread_mutex_unlock(&zep->mutex);
    while (!stop) {
        (void)pthread_mutex_lock(&zep->mutex);
        int timeout = reader_timeout(zep, now_ms());
        (void)pthread_mutex_unlock(&zep->mutex);
        struct pollfd fds[2] = {
            { .fd = zep->fd, .events = POLLIN, .revents = 0 },
            { .fd = zep->wake_pipe[0], .events = POLLIN, .revents = 0 },
        };
        if (poll(fds, 2, timeout) < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        if (fds[1].revents != 0) {
            drain_pipe(zep->wake_pipe[0]);
            (void)pthread_mutex_lock(&zep->mutex);
            stop = zep->stopping;
            (void)pthread_mutex_unlock(&zep->mutex);
            if (stop) {
                break;
            }
        }
        if ((fds[0].revents & POLLNVAL) != 0) {
            break;
        }
        bool raise = false;
        if ((fds[0].revents & (POLLIN | POLLERR)) != 0) {
            for (int i = 0; i < READER_BATCH; i++) {
                /* MSG_TRUNC: the datagram's true length, to count long ones. */
                ssize_t n = recv(zep->fd, zep->datagram, sizeof(zep->datagram), MSG_DONTWAIT | MSG_TRUNC);
                if (n < 0) {
                    break; /* EAGAIN: drained; an ICMP error: nothing to read */
                }
                rx_outcome_t out;
                out.raise = false;
                out.send_ack = false;
                zep_receive(zep, (size_t)n, &out);
                raise = raise || out.raise;
                if (out.send_ack) {
                    if (send_datagram(zep->fd, out.ack, sizeof(out.ack), &out.to, out.to_len) == 0) {
                        count(zep, TERN_NETDEV_ZEP_ACKS_SENT);
                    } else {
                        count(zep, TERN_NETDEV_ZEP_TX_ERRORS);
                    }
                }
            }
        }
        (void)pthread_mutex_lock(&zep->mutex);
        uint64_t now = now_ms();
        if (zep->ack_waiting && now >= zep->ack_deadline_ms) {
            zep->ack_waiting = false;
            zep->tx_result = (uint8_t)TERN_NETDEV_EVENT_TX_NOACK;
            zep->tx_result_pending = true;
            count(zep, TERN_NETDEV_ZEP_TX_NOACK);
            raise = true;
        }
        if (!raise && (zep->rx_count > 0u || zep->tx_result_pending) &&
            now >= zep->irq_raised_ms + TERN_NETDEV_ZEP_REARM_MS) {
            raise = true; /* not served: the message may have been lost */
        }
        if (raise) {
            zep->irq_raised_ms = now;
        }
        (void)pthread_mutex_unlock(&zep->mutex);
        if (raise) {
            tern_netdev_report(&zep->netdev, TERN_NETDEV_EVENT_ISR);
        }
    }
    return NULL;
}

/* ------------------------------------------------------------ driver */

static int zep_recv(tern_netdev_t *dev, void *buf, size_t len, tern_netdev_rx_info_t *info)
{
    tern_netdev_zep_t *zep = zep_of(dev);
    (void)pthread_mutex_lock(&zep->mutex);
    if (zep->rx_count == 0u) {
        (void)pthread_mutex_unlock(&zep->mutex);
        return 0;
    }
    const tern_netdev_zep_frame_t *slot = &zep->rx[zep->rx_head];
    int res = slot->len;
    if (buf == NULL && len == 0u) {
        (void)pthread_mutex_unlock(&zep->mutex);
        return res;
    }
    if (buf != NULL) {
        if (len < slot->len) {
            count(zep, TERN_NETDEV_ZEP_RX_BUF_SHORT);
            res = -ENOBUFS;
        } else {
            memcpy(buf, slot->frame, slot->len);
            if (info != NULL) {
                info->rssi = slot->rssi;
                info->lqi = slot->lqi;
            }
        }
    }
    zep->rx_head = (uint8_t)((zep->rx_head + 1u) % TERN_NETDEV_ZEP_RX_QUEUE);
    zep->rx_count--;
    zep->rx_taken++;
    (void)pthread_mutex_unlock(&zep->mutex);
    return res;
}

static void zep_isr(tern_netdev_t *dev)
{
    tern_netdev_zep_t *zep = zep_of(dev);
    (void)pthread_mutex_lock(&zep->mutex);
    if (!zep->started) {
        zep->started = true; /* the interface is attached: the reader may start */
        (void)pthread_cond_broadcast(&zep->cond);
    }
    bool have_result = zep->tx_result_pending;
    tern_netdev_event_t result = (tern_netdev_event_t)zep->tx_result;
    /* Cleared first: the user may send the next frame from the callback. */
    zep->tx_result_pending = false;
    (void)pthread_mutex_unlock(&zep->mutex);
    if (have_result) {
        tern_netdev_report(dev, result);
    }
    for (int i = 0; i < TERN_NETDEV_ZEP_RX_BATCH; i++) {
        (void)pthread_mutex_lock(&zep->mutex);
        uint8_t queued = zep->rx_count;
        uint32_t taken = zep->rx_taken;
        (void)pthread_mutex_unlock(&zep->mutex);
        if (queued == 0u) {
            return;
        }
        tern_netdev_report(dev, TERN_NETDEV_EVENT_RX_COMPLETE);
        (void)pthread_mutex_lock(&zep->mutex);
        bool ignored = zep->rx_taken == taken;
        (void)pthread_mutex_unlock(&zep->mutex);
        if (ignored) {
            (void)zep_recv(dev, NULL, 1u, NULL); /* nobody read it (no owner): drop it */
        }
    }
    (void)pthread_mutex_lock(&zep->mutex);
    bool more = zep->rx_count > 0u;
    (void)pthread_mutex_unlock(&zep->mutex);
    if (more) {
        /* Come back on a later turn; other modules go first. */
        tern_netdev_report(dev, TERN_NETDEV_EVENT_ISR);
    }
}

static int zep_get(tern_netdev_t *dev, tern_netopt_t opt, void *value, size_t max_len)
{
    tern_netdev_zep_t *zep = zep_of(dev);
    (void)pthread_mutex_lock(&zep->mutex);
    int res = tern_ieee802154_pib_get(&zep->pib, opt, value, max_len);
    (void)pthread_mutex_unlock(&zep->mutex);
    return res;
}

static int zep_set(tern_netdev_t *dev, tern_netopt_t opt, const void *value, size_t len)
{
    tern_netdev_zep_t *zep = zep_of(dev);
    (void)pthread_mutex_lock(&zep->mutex);
    int res = tern_ieee802154_pib_set(&zep->pib, opt, value, len);
    (void)pthread_mutex_unlock(&zep->mutex);
    return res;
}

/** Close the wake pipe. */
static void close_pipe(tern_netdev_zep_t *zep)
{
    for (int i = 0; i < 2; i++) {
        if (zep->wake_pipe[i] >= 0) {
            (void)close(zep->wake_pipe[i]);
            zep->wake_pipe[i] = -1;
        }
    }
}

static int zep_init(tern_netdev_t *dev)
{
    tern_netdev_zep_t *zep = zep_of(dev);
    if (zep->reader_running) {
        return -EBUSY;
    }
    if (zep->fd < 0) {
        return -EBADF; /* stopped, or never set up */
    }
    if (pipe(zep->wake_pipe) < 0) {
        return -errno;
    }
    for (int i = 0; i < 2; i++) {
        int fl = fcntl(zep->wake_pipe[i], F_GETFL);
        int fdfl = fcntl(zep->wake_pipe[i], F_GETFD);
        if (fl < 0 || fdfl < 0 || fcntl(zep->wake_pipe[i], F_SETFL, fl | O_NONBLOCK) < 0 ||
            fcntl(zep->wake_pipe[i], F_SETFD, fdfl | FD_CLOEXEC) < 0) {
            int res = -errno;
            close_pipe(zep);
            return res;
        }
    }
    zep->started = false;
    zep->stopping = false;
    int res = -pthread_create(&zep->reader, NULL, zep_reader, zep);
    zep->reader_running = (res == 0);
    if (res < 0) {
        close_pipe(zep);
    }
    return res;
}

static const tern_netdev_driver_t zep_driver = {
    .send = zep_send,
    .recv = zep_recv,
    .init = zep_init,
    .isr = zep_isr,
    .get = zep_get,
    .set = zep_set,
};

/* ------------------------------------------------------------ setup */

/** Parse a decimal port 0..65535 that ends the text. */
static int parse_port(const char *text, uint16_t *port)
{
    if (*text == '\0') {
        return -EINVAL;
    }
    unsigned long v = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p < '0' || *p > '9') {
            return -EINVAL;
        }
        v = v * 10u + (unsigned long)(*p - '0');
        if (v > 65535u) {
            return -EINVAL;
        }
    }
    *port = (uint16_t)v;
    return 0;
}

int tern_netdev_zep_parse_endpoint(const char *text, struct sockaddr_storage *addr, socklen_t *len)
{
    if (text == NULL || addr == NULL || len == NULL) {
        return -EINVAL;
    }
    size_t n = strlen(text);
    if (n >= TERN_NETDEV_ZEP_ENDPOINT_LEN) {
        return -EINVAL;
    }
    char host[TERN_NETDEV_ZEP_ENDPOINT_LEN];
    uint16_t port;
    memset(addr, 0, sizeof(*addr));
    if (text[0] == '[') {
        const char *close_br = strchr(text, ']');
        if (close_br == NULL || close_br[1] != ':' || parse_port(&close_br[2], &port) < 0) {
            return -EINVAL;
        }
        size_t host_len = (size_t)(close_br - &text[1]);
        memcpy(host, &text[1], host_len);
        host[host_len] = '\0';
        uint32_t scope = 0;
        char *percent = strchr(host, '%');
        if (percent != NULL) {
            *percent = '\0';
            const char *zone = percent + 1;
            uint16_t numeric;
            if (parse_port(zone, &numeric) == 0) {
                scope = numeric;
            } else if ((scope = if_nametoindex(zone)) == 0) {
                return -EINVAL;
            }
        }
        struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)(void *)addr;
        if (inet_pton(AF_INET6, host, &sin6->sin6_addr) != 1) {
            return -EINVAL;
        }
        sin6->sin6_family = AF_INET6;
        sin6->sin6_port = htons(port);
        sin6->sin6_scope_id = scope;
        *len = sizeof(*sin6);
        return 0;
    }
    const char *colon = strrchr(text, ':');
    if (colon == NULL || memchr(text, ':', (size_t)(colon - text)) != NULL ||
        parse_port(&colon[1], &port) < 0) {
        return -EINVAL; /* no port, or an IPv6 address without brackets */
    }
    size_t host_len = (size_t)(colon - text);
    memcpy(host, text, host_len);
    host[host_len] = '\0';
    struct sockaddr_in *sin = (struct sockaddr_in *)(void *)addr;
    if (inet_pton(AF_INET, host, &sin->sin_addr) != 1) {
        return -EINVAL;
    }
    sin->sin_family = AF_INET;
    sin->sin_port = htons(port);
    *len = sizeof(*sin);
    return 0;
}

void tern_netdev_zep_default_eui64(const char *seed, uint8_t eui64[8])
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a, 64 bit */
    for (const char *p = "tern-zep:"; *p != '\0'; p++) {
        h = (h ^ (uint8_t)*p) * 0x100000001b3u;
    }
    for (const char *p = seed != NULL ? seed : ""; *p != '\0'; p++) {
        h = (h ^ (uint8_t)*p) * 0x100000001b3u;
    }
    for (int i = 0; i < 8; i++) {
        eui64[i] = (uint8_t)(h >> (8 * (7 - i)));
    }
    /* Locally administered (U/L bit set), unicast (I/G bit clear). */
    eui64[0] = (uint8_t)((eui64[0] & ~0x01u) | 0x02u);
}

int tern_netdev_zep_set_remote(tern_netdev_zep_t *zep, const char *remote)
{
    struct sockaddr_storage addr;
    socklen_t len;
    if (zep == NULL || tern_netdev_zep_parse_endpoint(remote, &addr, &len) < 0) {
        return -EINVAL;
    }
    (void)pthread_mutex_lock(&zep->mutex);
    int res = -EINVAL;
    struct sockaddr_storage local;
    socklen_t local_len = sizeof(local);
    if (zep->fd >= 0 && getsockname(zep->fd, (struct sockaddr *)&local, &local_len) == 0 &&
        local.ss_family == addr.ss_family) {
        zep->remote = addr;
        zep->remote_len = len;
        res = 0;
    }
    (void)pthread_mutex_unlock(&zep->mutex);
    return res;
}

int tern_netdev_zep_local_port(const tern_netdev_zep_t *zep)
{
    struct sockaddr_storage local;
    socklen_t local_len = sizeof(local);
    if (zep == NULL || zep->fd < 0 || getsockname(zep->fd, (struct sockaddr *)&local, &local_len) < 0) {
        return -EBADF;
    }
    if (local.ss_family == AF_INET6) {
        return ntohs(((const struct sockaddr_in6 *)(const void *)&local)->sin6_port);
    }
    return ntohs(((const struct sockaddr_in *)(const void *)&local)->sin_port);
}

void tern_netdev_zep_set_ack_timeout(tern_netdev_zep_t *zep, uint32_t ms)
{
    (void)pthread_mutex_lock(&zep->mutex);
    zep->ack_timeout_ms = ms;
    (void)pthread_mutex_unlock(&zep->mutex);
}

int tern_netdev_zep_setup(tern_netdev_zep_t *zep, const char *local, const char *remote, const uint8_t eui64[8])
{
    if (zep == NULL) {
        return -EINVAL;
    }
    /* Stoppable from here on, whatever fails below. */
    memset(zep, 0, sizeof(*zep));
    zep->netdev.driver = &zep_driver;
    zep->fd = -1;
    zep->wake_pipe[0] = -1;
    zep->wake_pipe[1] = -1;
    static const uint8_t unset[8] = { 0 }; /* the EUI-64 is checked and set below */
    tern_ieee802154_pib_init(&zep->pib, unset, TERN_NETDEV_ZEP_DEFAULT_PAN_ID, TERN_NETDEV_ZEP_DEFAULT_CHANNEL);
    zep->ack_timeout_ms = TERN_NETDEV_ZEP_ACK_TIMEOUT_MS;
    zep->stats_group.name = "zep";
    zep->stats_group.names = zep_counter_names;
    zep->stats_group.values = zep->counters;
    zep->stats_group.count = TERN_NETDEV_ZEP_STAT_NUMOF;
    int rc = pthread_mutex_init(&zep->mutex, NULL);
    if (rc != 0) {
        return -rc;
    }
    rc = tern_posix_cond_init_monotonic(&zep->cond);
    if (rc != 0) {
        (void)pthread_mutex_destroy(&zep->mutex);
        return -rc;
    }
    struct sockaddr_storage local_addr;
    socklen_t local_len;
    if (eui64 == NULL || tern_netdev_zep_parse_endpoint(local, &local_addr, &local_len) < 0) {
        return -EINVAL;
    }
    memcpy(zep->pib.long_addr, eui64, sizeof(zep->pib.long_addr));
    int fd = socket(local_addr.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -errno;
    }
    if (local_addr.ss_family == AF_INET6) {
        int on = 1; /* [::]:port receives IPv6 only: IPv4 peers need an IPv4 endpoint */
        (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
    }
    if (bind(fd, (const struct sockaddr *)&local_addr, local_len) < 0) {
        int res = -errno;
        (void)close(fd);
        return res;
    }
    zep->fd = fd;
    if (remote != NULL && tern_netdev_zep_set_remote(zep, remote) < 0) {
        (void)close(fd);
        zep->fd = -1;
        return -EINVAL;
    }
    return 0;
}

void tern_netdev_zep_stop(tern_netdev_zep_t *zep)
{
    if (zep == NULL) {
        return;
    }
    if (zep->reader_running) {
        (void)pthread_mutex_lock(&zep->mutex);
        zep->stopping = true;
        (void)pthread_cond_broadcast(&zep->cond);
        (void)pthread_mutex_unlock(&zep->mutex);
        wake_reader(zep);
        (void)pthread_join(zep->reader, NULL);
        zep->reader_running = false;
    }
    close_pipe(zep);
    (void)pthread_mutex_lock(&zep->mutex);
    if (zep->fd >= 0) {
        (void)close(zep->fd);
        zep->fd = -1;
    }
    (void)pthread_mutex_unlock(&zep->mutex);
}
