/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The interface module: owns a netdev, runs its events, converts link
 *        headers (thesis 3.3.5, 3.4; event flow of thesis Figure 2.2).
 */
#include <errno.h>
#include <string.h>

#include "tern/executor.h"
#include "tern/netapi.h"
#include "tern/netif.h"
#include "tern/timer.h"

/** Interfaces are more urgent than protocols: a frame left in a device is lost. */
#define NETIF_PRIORITY 2u

static const char *const netif_counter_names[TERN_NETIF_STAT_NUMOF] = {
    [TERN_NETIF_RX_PACKETS] = "rx_packets", [TERN_NETIF_RX_BYTES] = "rx_bytes",
    [TERN_NETIF_TX_PACKETS] = "tx_packets", [TERN_NETIF_TX_BYTES] = "tx_bytes",
    [TERN_NETIF_RX_NOMEM] = "rx_nomem",     [TERN_NETIF_RX_ERRORS] = "rx_errors",
    [TERN_NETIF_TX_ERRORS] = "tx_errors",   [TERN_NETIF_TX_INVALID] = "tx_invalid",
    [TERN_NETIF_TX_DOWN] = "tx_down",       [TERN_NETIF_TX_MERGED] = "tx_merged",
    [TERN_NETIF_EVENT_LOST] = "event_lost", [TERN_NETIF_RX_NOT_FOR_US] = "rx_not_for_us",
    [TERN_NETIF_RX_UNKNOWN_PROTO] = "rx_unknown_proto",
    [TERN_NETIF_TX_RETRIES] = "tx_retries", [TERN_NETIF_TX_NOACK] = "tx_noack",
    [TERN_NETIF_TX_CHANNEL_BUSY] = "tx_channel_busy", [TERN_NETIF_TX_QUEUE_FULL] = "tx_queue_full",
    [TERN_NETIF_RX_DUPLICATE] = "rx_duplicate",
};

/** States of the transmission over a confirming device (tern_netif_tx_policy_t). */
enum {
    NETIF_TX_IDLE = 0,  /**< no frame in progress */
    NETIF_TX_BACKOFF,   /**< CSMA-CA: waiting until tx_deadline_us to try the channel */
    NETIF_TX_IN_FLIGHT, /**< the device has the frame; waiting for its outcome */
};

/* ------------------------------------------------------------ raw link */

static int raw_recv(tern_netif_t *netif, tern_pkt_t **pkt, tern_nettype_t *type, uint32_t *demux)
{
    (*pkt)->type = (uint8_t)netif->proto;
    *type = (tern_nettype_t)netif->proto;
    *demux = TERN_NETREG_DEMUX_CTX_ALL;
    return 0;
}

static int raw_send(tern_netif_t *netif, tern_pkt_t **pkt)
{
    /* No link header: the interface header simply goes. */
    *pkt = tern_pktbuf_remove_snip(&netif->module.stack->pktbuf, *pkt, *pkt);
    return 0;
}

const tern_netif_link_t tern_netif_link_raw = {
    .name = "raw",
    .recv = raw_recv,
    .send = raw_send,
};

/* ------------------------------------------------------------ receive */

/* Read one pending frame from the device and hand it up. Not inlined into
 * netif_event_cb(): the device's other events (the interrupt's post, a sent
 * frame's outcome), as frequent, would pay for its registers. */
__attribute__((noinline)) static void netif_receive_frame(tern_netif_t *netif)
{
    tern_netdev_t *dev = netif->dev;
    tern_stack_t *stack = netif->module.stack;
    int len = dev->driver->recv(dev, NULL, 0, NULL);
    if (len <= 0) {
        if (len < 0) {
            tern_count(&netif->counters[TERN_NETIF_RX_ERRORS]);
        }
        return;
    }
    /* The frame in front of an interface header, in one allocation, neither
     * zeroed (tern_pktbuf_add_pair_to_fill()): the device writes the frame's
     * bytes next (a shorter frame is cut to what it wrote), and the header is
     * set whole below, before anyone else sees the packet. */
    tern_pkt_t *frame = tern_pktbuf_add_pair_to_fill(&stack->pktbuf, (size_t)len, TERN_NETTYPE_RAW,
                                                     sizeof(tern_netif_hdr_t), TERN_NETTYPE_NETIF);
    if (frame == NULL) {
        /* No room: the frame must still leave the device, or it blocks the next. */
        (void)dev->driver->recv(dev, NULL, (size_t)len, NULL);
        tern_count(&netif->counters[TERN_NETIF_RX_NOMEM]);
        return;
    }
    tern_netdev_rx_info_t info = { 0 };
    int got = dev->driver->recv(dev, frame->data, frame->size, &info);
    if (got < 0 || got > len) {
        tern_pktbuf_release(&stack->pktbuf, frame);
        tern_count(&netif->counters[TERN_NETIF_RX_ERRORS]);
        return;
    }
    if (got < len) {
        (void)tern_pktbuf_realloc_data(&stack->pktbuf, frame, (size_t)got);
    }
    /* Without addresses (the link layer fills them in): what
     * tern_netif_hdr_build() would give, and this frame's reception data. */
    tern_netif_hdr_t *nh = frame->next->data;
    *nh = (tern_netif_hdr_t){ .if_index = netif->index, .rssi = info.rssi, .lqi = info.lqi };

    if (TERN_CONF_NETIF_CAPTURE && netif->capture != NULL) {
        const tern_iolist_t iol = { .base = frame->data, .len = (size_t)got };
        netif->capture(netif->capture_ctx, &iol, 1, false);
    }

    tern_nettype_t type = TERN_NETTYPE_UNDEF;
    uint32_t demux = TERN_NETREG_DEMUX_CTX_ALL;
    int verdict = netif->link->recv(netif, &frame, &type, &demux);
    if (verdict < 0) {
        tern_pktbuf_release(&stack->pktbuf, frame);
        unsigned counter = (verdict == -EADDRNOTAVAIL)     ? TERN_NETIF_RX_NOT_FOR_US
                           : (verdict == -EPROTONOSUPPORT) ? TERN_NETIF_RX_UNKNOWN_PROTO
                           : (verdict == -ENOMEM)          ? TERN_NETIF_RX_NOMEM
                           : (verdict == -EALREADY)        ? TERN_NETIF_RX_DUPLICATE
                                                           : TERN_NETIF_RX_ERRORS;
        tern_count(&netif->counters[counter]);
        return;
    }
    tern_count(&netif->counters[TERN_NETIF_RX_PACKETS]);
    tern_count_add(&netif->counters[TERN_NETIF_RX_BYTES], (uint32_t)got);
    (void)tern_netapi_dispatch_receive(stack, type, demux, frame);
}

/* Device event callback. ISR may come from interrupt context or another
 * thread: only post (once). Other events come from inside isr(), on the
 * interface's own turn. */
static void netif_event_cb(tern_netdev_t *dev, tern_netdev_event_t event)
{
    tern_netif_t *netif = dev->context;
    switch (event) {
    case TERN_NETDEV_EVENT_ISR: {
        if (__atomic_exchange_n(&netif->event_pending, 1u, __ATOMIC_ACQ_REL) != 0) {
            return; /* one message is enough: isr() handles everything pending */
        }
        /* Straight to the executor, not through netapi: this may run in an
         * interrupt or on a driver thread, where the trace must not be
         * written. The handler records the hop instead. */
        tern_module_t *m = &netif->module;
        tern_msg_t msg = { .type = TERN_MSG_NETDEV, .sender = NULL, .content.ptr = dev };
        if (m->exec == NULL || m->exec->ops->post(m->exec, m, &msg) < 0) {
            __atomic_store_n(&netif->event_pending, 0u, __ATOMIC_RELEASE);
            tern_count(&netif->counters[TERN_NETIF_EVENT_LOST]);
        }
        break;
    }
    case TERN_NETDEV_EVENT_RX_COMPLETE:
        netif_receive_frame(netif);
        break;
    case TERN_NETDEV_EVENT_TX_COMPLETE:
    case TERN_NETDEV_EVENT_TX_NOACK:
    case TERN_NETDEV_EVENT_TX_MEDIUM_BUSY:
        if (!TERN_CONF_NETIF_UNCONFIRMED || netif->link->tx_policy != NULL) {
            /* Only noted: netif_tx_poll() acts on it once isr() has returned. An
             * outcome with no frame in flight (one given up after a timeout) is
             * stale and ignored. */
            if (netif->tx_state == NETIF_TX_IN_FLIGHT) {
                netif->tx_event = (uint8_t)event;
            }
        } else if (event != TERN_NETDEV_EVENT_TX_COMPLETE) {
            tern_count(&netif->counters[TERN_NETIF_TX_ERRORS]);
        }
        break;
    case TERN_NETDEV_EVENT_LINK_UP:
        netif->up = true;
        break;
    case TERN_NETDEV_EVENT_LINK_DOWN:
        netif->up = false;
        break;
    default:
        break;
    }
}

/* ------------------------------------------------------------ send */

/** Tell the TX status hook, if any, the final outcome of a frame. */
static void netif_report(tern_netif_t *netif, const tern_netif_hdr_t *hdr, int status, unsigned transmissions)
{
    if (TERN_CONF_NETIF_TX_STATUS && netif->tx_status != NULL) {
        netif->tx_status(netif->tx_status_ctx, netif, hdr, status, transmissions);
    }
}

/**
 * Make @p pkt ([NETIF, ...]) private and let the link replace the interface
 * header by its own; a copy of the interface header goes to @p hdr.
 * @return the frame; NULL when it was dropped (counted, released with the error).
 */
static tern_pkt_t *netif_prepare(tern_netif_t *netif, tern_pkt_t *pkt, tern_netif_hdr_t *hdr)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    /* The header is rewritten: the packet must be ours alone (a head held
     * once is: no one else can share it meanwhile, so no call is needed). */
    tern_pkt_t *own = (pkt->users == 1u) ? pkt : tern_pktbuf_start_write(pb, pkt);
    if (own == NULL) {
        tern_count(&netif->counters[TERN_NETIF_TX_ERRORS]);
        tern_pktbuf_release_error(pb, pkt, -ENOMEM);
        return NULL;
    }
    pkt = own;
    if (!TERN_CONF_NETIF_TX_STATUS) {
        /* No TX status hook in this build: nothing reads the copy. */
    } else if (pkt->type == TERN_NETTYPE_NETIF && pkt->data != NULL && pkt->size >= sizeof(*hdr)) {
        memcpy(hdr, pkt->data, sizeof(*hdr));
    } else {
        memset(hdr, 0, sizeof(*hdr));
    }
    int err = (pkt->type == TERN_NETTYPE_NETIF) ? netif->link->send(netif, &pkt) : -EINVAL;
    if (err < 0) {
        /* The link's reason goes to the sender's report (-EMSGSIZE: too long for a frame). */
        tern_count(&netif->counters[TERN_NETIF_TX_INVALID]);
        tern_pktbuf_release_error(pb, pkt, err);
        return NULL;
    }
    return pkt;
}

/**
 * Hand @p frame (link header on) to the device as a scatter list, and to the
 * capture hook once the device took it. The frame stays the caller's.
 * @return as the driver's send().
 */
static int netif_transmit(tern_netif_t *netif, const tern_pkt_t *frame)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    tern_iolist_t iol[TERN_CONF_NETIF_IOLIST_MAX];
    tern_pkt_t *flat = NULL;
    int n = tern_pkt_to_iolist(frame, iol, TERN_CONF_NETIF_IOLIST_MAX);
    if (n == -ENOBUFS) {
        /* Too many snips for one scatter list: send a flat copy (rare; counted).
         * The original stays held until the send is done, for its error report. */
        tern_count(&netif->counters[TERN_NETIF_TX_MERGED]);
        flat = tern_pktbuf_add(pb, NULL, NULL, tern_pkt_len(frame), TERN_NETTYPE_RAW);
        n = (flat != NULL && tern_pkt_copy_out(frame, flat->data, flat->size) >= 0)
                ? tern_pkt_to_iolist(flat, iol, TERN_CONF_NETIF_IOLIST_MAX)
                : -ENOMEM;
    }
    int res = (n < 0) ? n : netif->dev->driver->send(netif->dev, iol, (size_t)n);
    if (TERN_CONF_NETIF_CAPTURE && res >= 0 && netif->capture != NULL) {
        netif->capture(netif->capture_ctx, iol, (size_t)n, true);
    }
    if (flat != NULL) {
        tern_pktbuf_release(pb, flat);
    }
    return res;
}

/** Send over a device whose send() is the outcome (Ethernet, loopback, test devices). */
static void netif_send_now(tern_netif_t *netif, tern_pkt_t *pkt)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    tern_netif_hdr_t hdr;
    pkt = netif_prepare(netif, pkt, &hdr);
    if (pkt == NULL) {
        return;
    }
    int res = netif_transmit(netif, pkt);
    if (res < 0) {
        tern_count(&netif->counters[TERN_NETIF_TX_ERRORS]);
        netif_report(netif, &hdr, res, 0);
        tern_pktbuf_release_error(pb, pkt, res);
        return;
    }
    tern_count(&netif->counters[TERN_NETIF_TX_PACKETS]);
    tern_count_add(&netif->counters[TERN_NETIF_TX_BYTES], (uint32_t)res);
    netif_report(netif, &hdr, 0, 1);
    tern_pktbuf_release_error(pb, pkt, 0);
}

/* ------------------------------------------------------------ send: confirming devices */

/** True when the interface runs CSMA-CA and retries for its device (config.h, TERN_CONF_NETIF_SW_CSMA). */
static inline bool netif_sw_csma(const tern_netif_t *netif)
{
    return TERN_CONF_NETIF_SW_CSMA && !netif->tx_hw_csma;
}

/**
 * Next backoff draw (xorshift32). Seeded on first use from the link address
 * and the index (FNV-1a), so that stations with different addresses draw
 * different backoffs and a simulation with the same addresses repeats itself.
 */
#if TERN_CONF_NETIF_SW_CSMA
static uint32_t netif_random(tern_netif_t *netif)
{
    uint32_t x = netif->tx_rng;
    if (x == 0u) {
        x = 2166136261u;
        for (unsigned i = 0; i < netif->l2addr_len; i++) {
            x = (x ^ netif->l2addr[i]) * 16777619u;
        }
        x = (x ^ netif->index) * 16777619u;
        x = (x != 0u) ? x : 1u;
    }
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    netif->tx_rng = x;
    return x;
}
#endif

/** Enter @p state until @p delay_us from now; the timer wakes the interface then. */
static void netif_tx_wait(tern_netif_t *netif, uint8_t state, uint64_t delay_us)
{
    netif->tx_state = state;
    netif->tx_deadline_us = tern_executor_now(netif->module.exec) + delay_us;
    if (delay_us > 0u) {
        (void)tern_timer_set_absolute(&netif->tx_timer, netif->tx_deadline_us);
    } else {
        tern_timer_cancel(&netif->tx_timer);
    }
}

/** CSMA-CA delay: random(2^BE - 1) unit backoff periods (IEEE 802.15.4-2006 §7.5.1.4, step (2)). */
static void netif_csma_backoff(tern_netif_t *netif)
{
    const tern_netif_tx_policy_t *policy = netif->link->tx_policy;
#if TERN_CONF_NETIF_SW_CSMA
    uint32_t periods = netif_random(netif) & ((1u << netif->tx_be) - 1u);
    netif_tx_wait(netif, NETIF_TX_BACKOFF, (uint64_t)periods * policy->backoff_period_us);
#else
    /* Only a device still busy with an earlier frame comes here (send()
     * -ENOBUFS; the device does the channel access itself): ask again after
     * 2^BE periods, growing as BE does. */
    netif_tx_wait(netif, NETIF_TX_BACKOFF, (uint64_t)policy->backoff_period_us << netif->tx_be);
#endif
}

static void netif_tx_outcome(tern_netif_t *netif, tern_netdev_event_t event);

/**
 * A new channel access for the frame: NB = 0, BE = macMinBE (§7.5.1.4, step
 * (1)); a device that does CSMA-CA itself gets the frame at once.
 */
static void netif_csma_start(tern_netif_t *netif)
{
    netif->tx_nb = 0;
    netif->tx_be = netif->link->tx_policy->min_be;
    if (!netif_sw_csma(netif)) {
        netif->tx_state = NETIF_TX_BACKOFF;
        netif->tx_deadline_us = 0; /* over: netif_tx_poll() attempts on this turn */
        return;
    }
    netif_csma_backoff(netif);
}

/**
 * The frame is done: count it in @p counter (TERN_NETIF_TX_PACKETS, which adds
 * its bytes to TERN_NETIF_TX_BYTES, for @p status 0), tell the hook, release
 * it with @p status, become idle. One call for every outcome: each counts.
 */
static void netif_tx_finish(tern_netif_t *netif, int status, size_t counter)
{
    /* (With TERN_CONF_FAST_PATHS a sent frame's index is a constant: an add less per frame.) */
    tern_count(&netif->counters[(TERN_CONF_FAST_PATHS && status == 0) ? TERN_NETIF_TX_PACKETS : counter]);
    if (status == 0) {
        tern_count_add(&netif->counters[TERN_NETIF_TX_BYTES], netif->tx_len);
    }
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    tern_pkt_t *frame = netif->tx_frame;
    netif->tx_frame = NULL;
    netif->tx_state = NETIF_TX_IDLE;
    netif->tx_event = 0;
    /* The timer is only ever armed with a deadline (netif_tx_wait(): now +
     * a delay > 0); a frame that never waited (a device doing CSMA-CA that
     * reported from inside send()) left it at 0 and has nothing to cancel. */
    if (netif->tx_deadline_us != 0u) {
        tern_timer_cancel(&netif->tx_timer);
    }
    netif_report(netif, &netif->tx_hdr, status, netif->tx_transmissions);
    tern_pktbuf_release_error(pb, frame, status);
}

/**
 * The channel was busy (or the device still was): NB + 1, BE + 1 up to
 * macMaxBE; channel access failure once NB exceeds macMaxCSMABackoffs
 * (§7.5.1.4, steps (4) and (5)).
 */
static void netif_csma_busy(tern_netif_t *netif)
{
    const tern_netif_tx_policy_t *policy = netif->link->tx_policy;
    netif->tx_nb++;
    if (netif->tx_nb > policy->max_backoffs) {
        netif_tx_finish(netif, -EBUSY, TERN_NETIF_TX_CHANNEL_BUSY);
        return;
    }
    if (netif->tx_be < policy->max_be) {
        netif->tx_be++;
    }
    netif_csma_backoff(netif);
}

/** Backoff over: hand the frame to the device (its CCA is step (3) of §7.5.1.4). */
static void netif_tx_attempt(tern_netif_t *netif)
{
    /* In flight before send(): a device that reports from inside send() is noted too
     * (outcomes are noted only on the interface's turn, netif_event_cb()). */
    netif->tx_event = 0;
    netif->tx_state = NETIF_TX_IN_FLIGHT;
    int res = netif_transmit(netif, netif->tx_frame);
    if (res >= 0) {
        netif->tx_len = (uint16_t)res; /* for tx_bytes: the frame is not walked again */
        if (netif->tx_event == 0u) {
            /* No outcome yet: wait for it, TERN_CONF_NETIF_TX_TIMEOUT_MS at most. */
            netif_tx_wait(netif, NETIF_TX_IN_FLIGHT, (uint64_t)TERN_CONF_NETIF_TX_TIMEOUT_MS * 1000u);
            return;
        }
        /* Reported from inside send() (noted by netif_event_cb()): taken in
         * now, as netif_tx_poll() would on its next round. */
        tern_netdev_event_t event = (tern_netdev_event_t)netif->tx_event;
        netif->tx_event = 0;
        netif_tx_outcome(netif, event);
        return;
    }
    netif->tx_event = 0;
    if (res == -ENOBUFS) {
        /* The device still holds a frame (one given up after a timeout): as a busy channel. */
        netif_csma_busy(netif);
        return;
    }
    netif_tx_finish(netif, res, TERN_NETIF_TX_ERRORS);
}

/** The device reported the outcome of the frame in flight. */
static void netif_tx_outcome(tern_netif_t *netif, tern_netdev_event_t event)
{
    const tern_netif_tx_policy_t *policy = netif->link->tx_policy;
    switch (event) {
    case TERN_NETDEV_EVENT_TX_COMPLETE:
        netif->tx_transmissions++;
        netif_tx_finish(netif, 0, TERN_NETIF_TX_PACKETS);
        break;
    case TERN_NETDEV_EVENT_TX_NOACK:
        if (!netif_sw_csma(netif)) {
            /* The device retransmitted up to its macMaxFrameRetries already. */
            netif->tx_transmissions = (uint8_t)(policy->max_retries + 1u);
            netif_tx_finish(netif, -EHOSTUNREACH, TERN_NETIF_TX_NOACK);
            break;
        }
        /* IEEE 802.15.4-2006 §7.5.6.4.3: retransmit (same frame, same sequence
         * number) up to macMaxFrameRetries times, each after CSMA-CA. */
        netif->tx_transmissions++;
        if (netif->tx_transmissions > policy->max_retries || netif->tx_transmissions == UINT8_MAX) {
            netif_tx_finish(netif, -EHOSTUNREACH, TERN_NETIF_TX_NOACK);
        } else {
            tern_count(&netif->counters[TERN_NETIF_TX_RETRIES]);
            netif_csma_start(netif);
        }
        break;
    default: /* TERN_NETDEV_EVENT_TX_MEDIUM_BUSY */
        if (!netif_sw_csma(netif)) {
            /* Channel access failure after the device's own backoffs (§7.5.1.4 step (5)). */
            netif_tx_finish(netif, -EBUSY, TERN_NETIF_TX_CHANNEL_BUSY);
            break;
        }
        netif_csma_busy(netif);
        break;
    }
}

/** Make @p pkt the frame in progress and start its first channel access (the interface is idle). */
static void netif_tx_start(tern_netif_t *netif, tern_pkt_t *pkt)
{
    tern_pkt_t *frame = netif_prepare(netif, pkt, &netif->tx_hdr);
    if (frame == NULL) {
        return;
    }
    netif->tx_frame = frame;
    netif->tx_transmissions = 0;
    netif_csma_start(netif);
}

/** Take the next packet of the queue and start it. */
static void netif_tx_begin(tern_netif_t *netif)
{
    tern_pkt_t *pkt = netif->tx_queue[netif->tx_head];
    netif->tx_queue[netif->tx_head] = NULL;
    netif->tx_head = (uint8_t)((netif->tx_head + 1u) % TERN_CONF_NETIF_TX_QUEUE);
    netif->tx_count--;
    if (!netif->up) {
        tern_count(&netif->counters[TERN_NETIF_TX_DOWN]);
        tern_pktbuf_release_error(&netif->module.stack->pktbuf, pkt, -ENETDOWN);
        return;
    }
    netif_tx_start(netif, pkt);
}

/**
 * Drive the transmission until it has to wait (for the backoff timer, the
 * device's outcome or a packet). Runs at the end of every device, packet and
 * timer message the interface handles, so that an expiry lost to a full queue is made up for
 * by the messages that filled it.
 */
static void netif_tx_poll(tern_netif_t *netif)
{
    if (TERN_CONF_NETIF_UNCONFIRMED && netif->link->tx_policy == NULL) {
        return;
    }
    for (;;) {
        /* The clock is read only where a deadline decides (a backoff over at
         * once, tx_deadline_us 0, as with a radio doing CSMA-CA, needs none). */
        switch (netif->tx_state) {
        case NETIF_TX_IDLE:
            if (netif->tx_count == 0u) {
                return;
            }
            netif_tx_begin(netif);
            break;
        case NETIF_TX_BACKOFF:
            if (netif->tx_deadline_us != 0u && tern_executor_now(netif->module.exec) < netif->tx_deadline_us) {
                return;
            }
            netif_tx_attempt(netif);
            break;
        default: /* NETIF_TX_IN_FLIGHT */
            if (netif->tx_event != 0u) {
                tern_netdev_event_t event = (tern_netdev_event_t)netif->tx_event;
                netif->tx_event = 0;
                netif_tx_outcome(netif, event);
                break;
            }
            if (tern_executor_now(netif->module.exec) < netif->tx_deadline_us) {
                return;
            }
            /* No outcome in time: maybe its interrupt was lost. Ask once more. */
            netif->dev->driver->isr(netif->dev);
            if (netif->tx_event == 0u && netif->tx_state == NETIF_TX_IN_FLIGHT) {
                netif_tx_finish(netif, -ETIMEDOUT, TERN_NETIF_TX_ERRORS);
            }
            break;
        }
    }
}

static void netif_send_packet(tern_netif_t *netif, tern_pkt_t *pkt)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    if (!netif->up) {
        tern_count(&netif->counters[TERN_NETIF_TX_DOWN]);
        tern_pktbuf_release_error(pb, pkt, -ENETDOWN);
        return;
    }
    if (TERN_CONF_NETIF_UNCONFIRMED && netif->link->tx_policy == NULL) {
        netif_send_now(netif, pkt);
        return;
    }
    if (netif->tx_count >= TERN_CONF_NETIF_TX_QUEUE) {
        tern_count(&netif->counters[TERN_NETIF_TX_QUEUE_FULL]);
        tern_pktbuf_release_error(pb, pkt, -ENOBUFS);
        return;
    }
    if (netif->tx_state == NETIF_TX_IDLE && netif->tx_count == 0u) {
        /* Nothing before it: started at once, not queued for netif_tx_poll()
         * to take out again right after this message (it drives it on). */
        netif_tx_start(netif, pkt);
        return;
    }
    netif->tx_queue[(netif->tx_head + netif->tx_count) % TERN_CONF_NETIF_TX_QUEUE] = pkt;
    netif->tx_count++;
}

/* ------------------------------------------------------------ options */

static int netif_get(tern_netif_t *netif, tern_netapi_opt_t *opt)
{
    /* The link answers first: it may own an option the interface would answer
     * otherwise (IEEE 802.15.4: TERN_NETOPT_ADDRESS is the short address,
     * while netif->l2addr holds the extended one). */
    if (netif->link->get != NULL) {
        int res = netif->link->get(netif, opt);
        if (res != -ENOTSUP) {
            return res;
        }
    }
    switch (opt->opt) {
    case TERN_NETOPT_ADDRESS:
        if (opt->data_len < netif->l2addr_len) {
            return -EOVERFLOW;
        }
        memcpy(opt->data, netif->l2addr, netif->l2addr_len);
        return netif->l2addr_len;
    case TERN_NETOPT_ADDR_LEN:
        return tern_netopt_put_u16(opt->data, opt->data_len, netif->l2addr_len);
    case TERN_NETOPT_MAX_PDU_SIZE:
        return tern_netopt_put_u16(opt->data, opt->data_len, netif->mtu);
    case TERN_NETOPT_PROTO:
        return tern_netopt_put_u16(opt->data, opt->data_len, netif->proto);
    case TERN_NETOPT_STATE:
        if (opt->data_len < 1) {
            return -EOVERFLOW;
        }
        *(uint8_t *)opt->data = netif->up ? 1u : 0u;
        return 1;
#if TERN_CONF_NETIF_CAPTURE
    case TERN_NETOPT_CAPTURE: {
        if (opt->data_len < sizeof(tern_netif_capture_t)) {
            return -EOVERFLOW;
        }
        const tern_netif_capture_t cap = { .fn = netif->capture, .ctx = netif->capture_ctx };
        memcpy(opt->data, &cap, sizeof(cap));
        return (int)sizeof(cap);
    }
#endif
#if TERN_CONF_NETIF_TX_STATUS
    case TERN_NETOPT_TX_STATUS: {
        if (opt->data_len < sizeof(tern_netif_tx_status_t)) {
            return -EOVERFLOW;
        }
        const tern_netif_tx_status_t hook = { .fn = netif->tx_status, .ctx = netif->tx_status_ctx };
        memcpy(opt->data, &hook, sizeof(hook));
        return (int)sizeof(hook);
    }
#endif
    case TERN_NETOPT_STATS: {
        if (opt->data_len < sizeof(tern_netif_stats_t)) {
            return -EOVERFLOW;
        }
        tern_netif_stats_t stats;
        for (unsigned i = 0; i < TERN_NETIF_STAT_NUMOF; i++) {
            stats.counters[i] = tern_count_read(&netif->counters[i]);
        }
        memcpy(opt->data, &stats, sizeof(stats));
        return (int)sizeof(stats);
    }
    default:
        return netif->dev->driver->get(netif->dev, opt->opt, opt->data, opt->data_len);
    }
}

static int netif_set(tern_netif_t *netif, tern_netapi_opt_t *opt)
{
    /* The link first, as for GET. */
    if (netif->link->set != NULL) {
        int res = netif->link->set(netif, opt);
        if (res != -ENOTSUP) {
            return res;
        }
    }
    switch (opt->opt) {
    case TERN_NETOPT_PROTO: {
        uint16_t proto;
        if (tern_netopt_take_u16(opt->data, opt->data_len, &proto) < 0 ||
            proto >= TERN_NETTYPE_NUMOF) {
            return -EINVAL;
        }
        netif->proto = proto;
        return 2;
    }
    case TERN_NETOPT_STATE:
        if (opt->data_len != 1) {
            return -EINVAL;
        }
        netif->up = (*(const uint8_t *)opt->data != 0);
        return 1;
    case TERN_NETOPT_ADDRESS: {
        if (opt->data_len > TERN_CONF_L2ADDR_MAX) {
            return -EINVAL;
        }
        int res = netif->dev->driver->set(netif->dev, opt->opt, opt->data, opt->data_len);
        if (res >= 0) {
            memcpy(netif->l2addr, opt->data, opt->data_len);
            netif->l2addr_len = (uint8_t)opt->data_len;
        }
        return res;
    }
#if TERN_CONF_NETIF_CAPTURE
    case TERN_NETOPT_CAPTURE: {
        /* Set on the interface's own turn: no frame is being captured now, so
         * once the SET returns the old hook is never called again. */
        tern_netif_capture_t cap;
        if (opt->data_len != sizeof(cap)) {
            return -EINVAL;
        }
        memcpy(&cap, opt->data, sizeof(cap));
        netif->capture = cap.fn;
        netif->capture_ctx = cap.ctx;
        return (int)sizeof(cap);
    }
#endif
#if TERN_CONF_NETIF_TX_STATUS
    case TERN_NETOPT_TX_STATUS: {
        /* On the interface's turn, as the capture hook: no outcome is being reported now. */
        tern_netif_tx_status_t hook;
        if (opt->data_len != sizeof(hook)) {
            return -EINVAL;
        }
        memcpy(&hook, opt->data, sizeof(hook));
        netif->tx_status = hook.fn;
        netif->tx_status_ctx = hook.ctx;
        return (int)sizeof(hook);
    }
#endif
    case TERN_NETOPT_STATS:
    case TERN_NETOPT_ADDR_LEN:
        return -ENOTSUP; /* read-only here */
    default:
        return netif->dev->driver->set(netif->dev, opt->opt, opt->data, opt->data_len);
    }
}

/* ------------------------------------------------------------ module */

static int netif_handle(tern_module_t *self, tern_msg_t *msg)
{
    tern_netif_t *netif = self->context;
    switch (msg->type) {
    case TERN_MSG_NETDEV:
        tern_netapi_trace_hop(self, msg, 0);
        /* Clear first: an interrupt arriving during isr() posts again. */
        __atomic_store_n(&netif->event_pending, 0u, __ATOMIC_RELEASE);
        netif->dev->driver->isr(netif->dev);
        netif_tx_poll(netif);
        return 0;
    case TERN_MSG_SND:
        netif_send_packet(netif, msg->content.pkt);
        netif_tx_poll(netif);
        return 0;
    case TERN_MSG_TIMER:
        /* The backoff or the wait for an outcome ended (or a stale expiry:
         * the poll compares tx_deadline_us with the time). */
        netif_tx_poll(netif);
        return 0;
    case TERN_MSG_RCV:
        /* Nothing comes up into an interface from above: drop, counted. */
        tern_count(&netif->counters[TERN_NETIF_TX_INVALID]);
        tern_pktbuf_release(&self->stack->pktbuf, msg->content.pkt);
        return 0;
    case TERN_MSG_GET:
        return netif_get(netif, msg->content.opt);
    case TERN_MSG_SET:
        return netif_set(netif, msg->content.opt);
    default:
        return -ENOTSUP;
    }
}

int tern_netif_add(tern_stack_t *stack, tern_netif_t *netif, const char *name, tern_netdev_t *dev,
                   const tern_netif_link_t *link, tern_nettype_t proto)
{
    return tern_netif_add_ctx(stack, netif, name, dev, link, NULL, proto);
}

int tern_netif_add_ctx(tern_stack_t *stack, tern_netif_t *netif, const char *name, tern_netdev_t *dev,
                       const tern_netif_link_t *link, void *link_ctx, tern_nettype_t proto)
{
    if (stack == NULL || netif == NULL || name == NULL || dev == NULL || dev->driver == NULL ||
        link == NULL || (unsigned)proto >= TERN_NETTYPE_NUMOF) {
        return -EINVAL;
    }
    if (!TERN_CONF_NETIF_UNCONFIRMED && link->tx_policy == NULL) {
        return -ENOTSUP; /* no sending over a device without outcomes in this build (config.h) */
    }
    memset(netif, 0, sizeof(*netif));
    size_t name_len = strlen(name);
    if (name_len >= sizeof(netif->name)) {
        name_len = sizeof(netif->name) - 1u;
    }
    memcpy(netif->name, name, name_len);
    netif->dev = dev;
    netif->link = link;
    netif->link_ctx = link_ctx;
    netif->proto = (uint16_t)proto;
    netif->up = true;
    dev->event_cb = netif_event_cb;
    dev->context = netif;

    int res = tern_module_init(&netif->module, netif->name, NETIF_PRIORITY, netif_handle, netif,
                               netif->queue, TERN_CONF_MODULE_QUEUE_LEN);
    if (res < 0) {
        return res;
    }
    tern_timer_init(&netif->tx_timer, &netif->module, TERN_MSG_TIMER, 0);
    res = dev->driver->init(dev);
    if (res < 0) {
        return res;
    }
    uint16_t mtu = 0;
    if (dev->driver->get(dev, TERN_NETOPT_MAX_PDU_SIZE, &mtu, sizeof(mtu)) == (int)sizeof(mtu)) {
        netif->mtu = mtu;
    }
    res = dev->driver->get(dev, TERN_NETOPT_ADDRESS, netif->l2addr, sizeof(netif->l2addr));
    netif->l2addr_len = (res > 0) ? (uint8_t)res : 0u;
    uint8_t hw_csma = 0;
    netif->tx_hw_csma = dev->driver->get(dev, TERN_NETOPT_HW_CSMA_RETRIES, &hw_csma, sizeof(hw_csma)) ==
                            (int)sizeof(hw_csma) && hw_csma == 1u;
    if (link->tx_policy != NULL && !TERN_CONF_NETIF_SW_CSMA && !netif->tx_hw_csma) {
        return -ENOTSUP; /* no software CSMA-CA in this build (config.h) */
    }

    netif->index = (uint16_t)(stack->netif_count + 1u);
    res = tern_stack_add_module(stack, &netif->module);
    if (res < 0) {
        return res;
    }
    stack->netif_count++;
    tern_netif_t **link_ptr = &stack->netifs;
    while (*link_ptr != NULL) {
        link_ptr = &(*link_ptr)->next;
    }
    *link_ptr = netif;

    netif->stats_group.name = netif->name;
    netif->stats_group.names = TERN_STATS_NAMES(netif_counter_names);
    netif->stats_group.values = netif->counters;
    netif->stats_group.count = TERN_NETIF_STAT_NUMOF;
    tern_stack_add_stats(stack, &netif->stats_group);
    /* Poll the device once on the interface's first turn: an interrupt raised
     * before the module was attached was lost (counted), and a driver thread
     * may wait for this first isr() before raising any (tap.c), so that its
     * posts come strictly after the attach. */
    netif_event_cb(dev, TERN_NETDEV_EVENT_ISR);
    return 0;
}

tern_netif_t *tern_netif_by_index(tern_stack_t *stack, uint16_t index)
{
    for (tern_netif_t *n = stack->netifs; n != NULL; n = n->next) {
        if (n->index == index) {
            return n;
        }
    }
    return NULL;
}

tern_netif_t *tern_netif_by_name(tern_stack_t *stack, const char *name)
{
    for (tern_netif_t *n = stack->netifs; n != NULL; n = n->next) {
        if (strcmp(n->name, name) == 0) {
            return n;
        }
    }
    return NULL;
}

int tern_netif_send(tern_stack_t *stack, tern_pkt_t *pkt)
{
    if (stack == NULL || pkt == NULL) {
        return -EINVAL;
    }
    tern_netif_hdr_t *hdr = tern_netif_hdr_get(pkt);
    tern_netif_t *netif = (hdr != NULL) ? tern_netif_by_index(stack, hdr->if_index) : NULL;
    int res = -EINVAL;
    if (netif != NULL) {
        /* 6LoWPAN compresses and fragments, then sends to the interface itself. */
        tern_module_t *to = (netif->adaptation != NULL && pkt->type == TERN_NETTYPE_NETIF && pkt->next != NULL &&
                             pkt->next->type == TERN_NETTYPE_IPV6)
                                ? netif->adaptation
                                : &netif->module;
        res = tern_netapi_send(to, pkt);
    }
    if (res == -EINVAL) {
        /* No such interface, or its module not attached (netapi left the
         * packet here): the callers own nothing after this call, so it ends
         * here, reported. */
        tern_count(&stack->netapi_drops[TERN_NETAPI_DROP_INVALID]);
        tern_pktbuf_release_error(&stack->pktbuf, pkt, -ENODEV);
        return -ENODEV;
    }
    return res;
}
