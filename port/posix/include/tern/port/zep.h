/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief An IEEE 802.15.4 radio over ZEP v2 in UDP datagrams: separate
 *        processes (Tern nodes, other stacks' host builds, Wireshark) share
 *        one medium on a host or a network.
 *
 * Read first: tern/wire/zep.h (the encapsulation), tern/netdev/sim_radio.h
 * (the radio this device behaves like toward its interface), IEEE
 * 802.15.4-2006 §7.5.6.2 (third-level filtering) and §7.5.6.4 (acknowledgment),
 * docs/IEEE802154.md "ZEP device".
 *
 * Toward the interface the device is the simulated radio's twin: the same
 * options, MAC frames WITHOUT the FCS through send()/recv(), and exactly one
 * outcome per accepted send() reported through isr(). On the wire each frame
 * leaves as one UDP datagram to the remote endpoint: a ZEP v2 data header
 * (channel, device id = the last two bytes of the extended address, CRC mode,
 * LQI 0xff, NTP timestamp of the send, a sequence number counting the
 * datagrams this device sent from 0, length = frame + 2) followed by the frame
 * and its FCS (CRC-16/KERMIT, IEEE 802.15.4-2006 §7.2.1.9). Datagrams are
 * received on the local endpoint from anyone (the socket is not connected), so
 * a ZEP dispatcher that fans frames out works as well as a single peer.
 *
 * Receive, in order (each drop counted in the stats group "zep"): a datagram
 * longer than a ZEP v2 data packet with a 127-byte frame (rx_too_long); one
 * the ZEP parser rejects (rx_malformed); ZEP version 1, v2 acks and other
 * types (rx_not_data); another channel (rx_other_channel); the radio off
 * (rx_radio_off); a frame whose FCS is wrong, or in LQI mode whose CC24xx
 * "CRC OK" bit is clear (rx_bad_fcs); the address filter (rx_filtered: a frame
 * that does not parse, a destination PAN other than ours or 0xffff, a short
 * destination other than ours or 0xffff, an extended destination other than
 * ours, no destination; promiscuous mode accepts every frame); a full receive
 * queue (rx_queue_full). Accepted frames are queued without the FCS, with the
 * ZEP header's LQI.
 *
 * Acknowledgments (the decision, see docs/IEEE802154.md): the device does
 * what an auto-ACK transceiver does, over ZEP, as RIOT's socket_zep does:
 * - a data or command frame with the Acknowledgment Request bit that the
 *   filter accepts as addressed to this radio (not broadcast) and that fits
 *   into the queue is answered at once with an Imm-Ack frame (frame control,
 *   sequence number, FCS) in a ZEP v2 data packet to the remote endpoint;
 * - a frame sent with the Acknowledgment Request bit waits up to
 *   ack_timeout_ms for an Imm-Ack with its sequence number (TX_COMPLETE),
 *   else reports TX_NOACK; the MAC retries. A frame without the bit, or any
 *   frame when ack_timeout_ms is 0 (peers that never acknowledge), reports
 *   TX_COMPLETE once sendto() succeeded.
 * The wait is longer than macAckWaitDuration (864 µs): the peer is another
 * process, scheduled by the host, not a transceiver.
 *
 * Threads: tern_netdev_zep_setup() opens and binds the socket (so a port 0
 * local endpoint has its port at once); the interface's init starts a reader
 * thread that does what the transceiver chip does: it waits (poll) until the
 * interface has called isr() once, then reads datagrams, filters them, queues
 * accepted frames, answers ACK requests, matches acknowledgments, expires the
 * ACK wait, and raises TERN_NETDEV_EVENT_ISR when something is pending. isr()
 * and recv() run on the interface's turn: isr() reports the send outcome first,
 * then RX_COMPLETE for each queued frame (at most TERN_NETDEV_ZEP_RX_BATCH per
 * turn, then it raises the interrupt again). An interrupt not served within
 * TERN_NETDEV_ZEP_REARM_MS (lost on a full message queue) is raised again.
 * One mutex guards the device state; counters are atomic.
 * tern_netdev_zep_stop() joins the thread and closes the socket.
 *
 * Options (get/set), as the simulated radio: TERN_NETOPT_ADDRESS (short
 * address, uint8_t[2] canonical order, default ff:ff = none),
 * TERN_NETOPT_ADDRESS_LONG (uint8_t[8], canonical order),
 * TERN_NETOPT_NID (PAN ID, uint16_t, default 0x0023), TERN_NETOPT_CHANNEL
 * (uint16_t, 11..26, default 26), TERN_NETOPT_PROMISCUOUS (uint8_t),
 * TERN_NETOPT_STATE (uint8_t, 0 = off: neither sends nor receives); get only:
 * TERN_NETOPT_ADDR_LEN (2), TERN_NETOPT_MAX_PDU_SIZE (125),
 * TERN_NETOPT_DEVICE_TYPE (TERN_NETDEV_TYPE_IEEE802154).
 */
#ifndef TERN_PORT_ZEP_H
#define TERN_PORT_ZEP_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "tern/netdev.h"
#include "tern/netdev/ieee802154_pib.h"
#include "tern/stats.h"
#include "tern/wire/ieee802154.h"
#include "tern/wire/zep.h"

/** Channel a ZEP radio starts on (what other stacks' host builds use). */
#define TERN_NETDEV_ZEP_DEFAULT_CHANNEL 26u
/** PAN ID a ZEP radio starts with (what other stacks' host builds use). */
#define TERN_NETDEV_ZEP_DEFAULT_PAN_ID 0x0023u

/** Frames the receive queue holds (a radio's RX FIFO; 16 x 130 bytes). */
#ifndef TERN_NETDEV_ZEP_RX_QUEUE
#define TERN_NETDEV_ZEP_RX_QUEUE 16
#endif
_Static_assert(TERN_NETDEV_ZEP_RX_QUEUE >= 1 && TERN_NETDEV_ZEP_RX_QUEUE <= 255,
               "TERN_NETDEV_ZEP_RX_QUEUE out of range [1, 255]");

/**
 * Default wait for an acknowledgment, milliseconds: the round trip through
 * two processes on a loaded host, not the 864 µs of a transceiver.
 */
#ifndef TERN_NETDEV_ZEP_ACK_TIMEOUT_MS
#define TERN_NETDEV_ZEP_ACK_TIMEOUT_MS 20u
#endif
_Static_assert(TERN_NETDEV_ZEP_ACK_TIMEOUT_MS <= 10000u, "TERN_NETDEV_ZEP_ACK_TIMEOUT_MS out of range [0, 10000]");

/** Frames reported per interface turn before letting other modules run. */
#define TERN_NETDEV_ZEP_RX_BATCH 8
/** Milliseconds after which an unanswered interrupt is raised again. */
#define TERN_NETDEV_ZEP_REARM_MS 200
/** Longest endpoint text: "[" IPv6 "]:" port. */
#define TERN_NETDEV_ZEP_ENDPOINT_LEN 64

/** Counters of a ZEP radio (stats group "zep": register it with the node's stack). */
typedef enum {
    TERN_NETDEV_ZEP_TX_FRAMES = 0,   /**< data frames sent */
    TERN_NETDEV_ZEP_TX_REFUSED,      /**< send()s refused: busy, off, too long, empty */
    TERN_NETDEV_ZEP_TX_ERRORS,       /**< sendto() failed */
    TERN_NETDEV_ZEP_TX_NOACK,        /**< frames whose acknowledgment did not arrive */
    TERN_NETDEV_ZEP_ACKS_RECEIVED,   /**< acknowledgments matched to the frame sent */
    TERN_NETDEV_ZEP_ACKS_SENT,       /**< acknowledgments sent */
    TERN_NETDEV_ZEP_RX_FRAMES,       /**< frames queued for the interface */
    TERN_NETDEV_ZEP_RX_TOO_LONG,     /**< datagrams longer than a ZEP v2 packet of 127-byte frame */
    TERN_NETDEV_ZEP_RX_MALFORMED,    /**< datagrams the ZEP parser rejects */
    TERN_NETDEV_ZEP_RX_NOT_DATA,     /**< ZEP v1, v2 acks, other types */
    TERN_NETDEV_ZEP_RX_OTHER_CHANNEL, /**< frames sent on another channel */
    TERN_NETDEV_ZEP_RX_RADIO_OFF,    /**< frames arriving while switched off */
    TERN_NETDEV_ZEP_RX_BAD_FCS,      /**< frames with a wrong FCS (or CRC-OK bit clear) */
    TERN_NETDEV_ZEP_RX_FILTERED,     /**< frames the address filter rejects */
    TERN_NETDEV_ZEP_RX_QUEUE_FULL,   /**< frames dropped: receive queue full */
    TERN_NETDEV_ZEP_RX_BUF_SHORT,    /**< frames dropped by recv() into a too-short buffer */
    TERN_NETDEV_ZEP_STAT_NUMOF
} tern_netdev_zep_stat_t;

/** One received frame in the queue. */
typedef struct {
    uint8_t frame[TERN_IEEE802154_MAX_FRAME_LEN]; /**< MAC frame without FCS */
    uint8_t len;                                  /**< its length */
    uint8_t lqi;                                  /**< the ZEP header's LQI */
    int16_t rssi;                                 /**< dBm (LQI mode only; 0 unknown) */
} tern_netdev_zep_frame_t;

/** A ZEP radio. Set up with tern_netdev_zep_setup(); allocate statically. Fields are private. */
typedef struct {
    tern_netdev_t netdev;                 /**< the device; pass &zep.netdev */
    /* endpoints */
    struct sockaddr_storage remote;       /**< where frames go */
    socklen_t remote_len;                 /**< its length, 0: not set (send() -> -ENETDOWN) */
    int fd;                               /**< the UDP socket, -1 when closed */
    int wake_pipe[2];                     /**< wakes the reader: a send waits for an ACK, or stop() */
    pthread_t reader;                     /**< the reader thread */
    bool reader_running;                  /**< reader created, not joined */
    pthread_mutex_t mutex;                /**< guards everything below but the counters */
    pthread_cond_t cond;                  /**< signalled when @ref started or @ref stopping changes */
    bool started;                         /**< the interface called isr() once */
    bool stopping;                        /**< stop() in progress */
    /* configuration */
    tern_ieee802154_pib_t pib;            /**< addresses, PAN ID, channel, promiscuous, on */
    uint32_t ack_timeout_ms;              /**< ACK wait; 0: never wait (see the file comment) */
    /* transmission */
    uint32_t zep_seq;                     /**< ZEP sequence number of the next datagram */
    bool ack_waiting;                     /**< waiting for the acknowledgment of @ref tx_seq */
    uint8_t tx_seq;                       /**< 802.15.4 sequence number of the frame sent */
    uint64_t ack_deadline_ms;             /**< end of the wait, CLOCK_MONOTONIC ms */
    bool tx_result_pending;               /**< an outcome waits to be reported by isr() */
    uint8_t tx_result;                    /**< that outcome (tern_netdev_event_t) */
    /* reception */
    tern_netdev_zep_frame_t rx[TERN_NETDEV_ZEP_RX_QUEUE]; /**< received frames */
    uint8_t rx_head;                      /**< oldest frame */
    uint8_t rx_count;                     /**< frames queued */
    uint32_t rx_taken;                    /**< frames removed by recv() (isr() sees progress) */
    uint64_t irq_raised_ms;               /**< when the interrupt was last raised */
    uint8_t datagram[TERN_ZEP_MAX_LEN + 1]; /**< the reader's buffer (+1 detects longer datagrams) */
    tern_counter_t counters[TERN_NETDEV_ZEP_STAT_NUMOF]; /**< tern_netdev_zep_stat_t */
    tern_stats_group_t stats_group;       /**< names the counters ("zep") */
} tern_netdev_zep_t;

/**
 * Parse an endpoint "A.B.C.D:PORT" or "[IPv6]:PORT" (numeric addresses; an
 * IPv6 scope may follow as "%IF" inside the brackets).
 * @param[out] addr, len  the socket address
 * @return 0; -EINVAL for anything else (a missing port, a port above 65535,
 *         an IPv6 address without brackets, a name).
 */
int tern_netdev_zep_parse_endpoint(const char *text, struct sockaddr_storage *addr, socklen_t *len);

/**
 * The extended address a node gets without --eui64: the FNV-1a hash of
 * "tern-zep:" + @p seed, with the universal/local bit set and the group bit
 * clear (a locally administered unicast EUI-64, IEEE 802 §8.2), so the same
 * seed gives the same address (and IPv6 link-local address) across restarts.
 */
void tern_netdev_zep_default_eui64(const char *seed, uint8_t eui64[8]);

/**
 * Prepare @p zep: open a UDP socket of the family of @p local, bind it there,
 * and set the radio up (on, channel 26, PAN 0x0023, no short address, extended
 * address @p eui64, not promiscuous, ACK wait TERN_NETDEV_ZEP_ACK_TIMEOUT_MS).
 * The reader starts when the interface initialises the device.
 * @param[in] local   "ADDR:PORT" to receive on (port 0: an ephemeral one)
 * @param[in] remote  "ADDR:PORT" to send to, or NULL to set it later with
 *                    tern_netdev_zep_set_remote() (same family as @p local)
 * @param[in] eui64   extended address, canonical order
 * @return 0; -EINVAL for a NULL argument, a bad endpoint or endpoints of two
 *         families; a negative errno from socket() or bind() (-EADDRINUSE ...).
 */
int tern_netdev_zep_setup(tern_netdev_zep_t *zep, const char *local, const char *remote, const uint8_t eui64[8]);

/**
 * Set the remote endpoint (before the interface starts, or between sends).
 * @return 0; -EINVAL for a bad endpoint or one of the other family.
 */
int tern_netdev_zep_set_remote(tern_netdev_zep_t *zep, const char *remote);

/** The local port the socket is bound to (the ephemeral one for port 0). @return it, or -EBADF. */
int tern_netdev_zep_local_port(const tern_netdev_zep_t *zep);

/** Set the ACK wait (milliseconds, 0: report TX_COMPLETE without waiting). */
void tern_netdev_zep_set_ack_timeout(tern_netdev_zep_t *zep, uint32_t ms);

/** Stop the reader thread (joined) and close the socket. Safe to call twice. */
void tern_netdev_zep_stop(tern_netdev_zep_t *zep);

/** Read counter @p stat. */
static inline uint32_t tern_netdev_zep_stat(const tern_netdev_zep_t *zep, tern_netdev_zep_stat_t stat)
{
    return tern_count_read(&zep->counters[stat]);
}

#endif /* TERN_PORT_ZEP_H */
