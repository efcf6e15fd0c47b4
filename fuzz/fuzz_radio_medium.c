/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the simulated radio medium: random topology changes, frames,
 *        options and time, on four radios under virtual time.
 *
 * Input: 8 bytes of PRNG seed, then operations of 4 bytes (opcode, three
 * arguments); a send takes its frame from the input that follows. Whatever
 * the sequence, once every radio is on and read and time has passed:
 *  - the air is quiet and the medium's timer disarmed;
 *  - every send() accepted had exactly one outcome event, and the radio's
 *    counters agree with it;
 *  - every frame copy that reached a radio is accounted for exactly once
 *    (queued, filtered, queue full, or the awaited acknowledgment);
 *  - every transmission was captured once, with a valid FCS;
 *  - every frame read is at most 125 bytes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/netdev/radio_medium.h"
#include "tern/netdev/sim_radio.h"
#include "tern/port/loop.h"
#include "tern/wire/ieee802154.h"

#define RADIOS 4

typedef struct {
    tern_sim_radio_t radio;
    tern_module_t user;
    tern_msg_t queue[8];
    bool pending;
    bool no_read;
    uint32_t accepted;  /**< send() returned >= 0 */
    uint32_t outcomes;  /**< TX_* events */
    uint32_t read;      /**< frames read */
} fuzz_radio_t;

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_radio_medium_t medium;
static fuzz_radio_t radios[RADIOS];
static uint32_t captured;

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static void event_cb(tern_netdev_t *dev, tern_netdev_event_t event)
{
    fuzz_radio_t *r = dev->context;
    switch (event) {
    case TERN_NETDEV_EVENT_ISR:
        if (!r->pending) {
            r->pending = true;
            tern_msg_t msg = { .type = TERN_MSG_NETDEV };
            require(loop.base.ops->post(&loop.base, &r->user, &msg) == 0);
        }
        break;
    case TERN_NETDEV_EVENT_RX_COMPLETE: {
        if (r->no_read) {
            break;
        }
        uint8_t buf[TERN_RADIO_MAX_PSDU];
        int len = dev->driver->recv(dev, NULL, 0, NULL);
        require(len > 0 && len <= (int)TERN_RADIO_MAX_FRAME);
        tern_netdev_rx_info_t info;
        require(dev->driver->recv(dev, buf, sizeof(buf), &info) == len);
        require(info.rssi <= 0 && info.rssi >= -128);
        r->read++;
        break;
    }
    case TERN_NETDEV_EVENT_TX_COMPLETE:
    case TERN_NETDEV_EVENT_TX_NOACK:
    case TERN_NETDEV_EVENT_TX_MEDIUM_BUSY:
        r->outcomes++;
        require(r->outcomes <= r->accepted);
        break;
    default:
        abort();
    }
}

static int user_handle(tern_module_t *self, tern_msg_t *msg)
{
    fuzz_radio_t *r = self->context;
    if (msg->type == TERN_MSG_NETDEV) {
        r->pending = false;
        r->radio.netdev.driver->isr(&r->radio.netdev);
    }
    return 0;
}

static void capture(void *ctx, const tern_radio_medium_tx_t *tx)
{
    (void)ctx;
    require(tx->len >= TERN_RADIO_FCS_LEN && tx->len <= TERN_RADIO_MAX_PSDU);
    require(tx->sender < RADIOS && tx->end_us > tx->start_us);
    require(tern_ieee802154_fcs_check(tx->psdu, tx->len) == 0);
    captured++;
}

static void start(uint64_t seed)
{
    memset(radios, 0, sizeof(radios));
    captured = 0;
    tern_vclock_init(&clock_v, 0);
    tern_loop_init(&loop, &clock_v.base);
    require(tern_radio_medium_init(&medium, &loop.base, seed) == 0);
    tern_radio_medium_set_capture(&medium, capture, NULL);
    for (unsigned i = 0; i < RADIOS; i++) {
        fuzz_radio_t *r = &radios[i];
        const uint8_t addr[8] = { 2, 0, 0, 0, 0, 0, 0, (uint8_t)(i + 1u) };
        require(tern_sim_radio_init(&r->radio, &medium, addr) == (int)i);
        const uint8_t short_addr[2] = { 0, (uint8_t)(i + 1u) };
        require(r->radio.netdev.driver->set(&r->radio.netdev, TERN_NETOPT_ADDRESS, short_addr, 2) == 2);
        const uint16_t pan = 0xabcd;
        require(r->radio.netdev.driver->set(&r->radio.netdev, TERN_NETOPT_NID, &pan, 2) == 2);
        require(tern_module_init(&r->user, "user", 2, user_handle, r, r->queue, 8) == 0);
        require(tern_executor_attach(&loop.base, &r->user) == 0);
        r->radio.netdev.event_cb = event_cb;
        r->radio.netdev.context = r;
    }
}

static void run_for(uint64_t us)
{
    require(tern_executor_run_until(&loop.base, clock_v.now + us) == 0);
}

/* A frame from the input: data with short addresses to radio @p dst (0xffff
 * broadcast), optionally asking for an ACK, or raw bytes. */
static size_t build_frame(uint8_t *out, uint8_t kind, uint8_t arg, const uint8_t **data, size_t *left)
{
    size_t len = 0;
    if ((kind & 1u) != 0u) {
        uint16_t dst = ((arg & 7u) >= RADIOS) ? 0xFFFFu : (uint16_t)((arg & 7u) + 1u);
        uint16_t fcf = 0x8841u | (((kind & 2u) != 0u) ? 0x0020u : 0u);
        out[0] = (uint8_t)fcf;
        out[1] = (uint8_t)(fcf >> 8);
        out[2] = arg;
        out[3] = 0xcd;
        out[4] = ((kind & 4u) != 0u) ? 0x12 : 0xab; /* sometimes another PAN */
        out[5] = (uint8_t)dst;
        out[6] = (uint8_t)(dst >> 8);
        out[7] = 0x01;
        out[8] = 0x00;
        len = 9;
    }
    size_t take = (size_t)(kind >> 3) * 5u; /* 0..155: some too long */
    if (take > *left) {
        take = *left;
    }
    if (len + take > 160u) {
        take = 160u - len;
    }
    memcpy(&out[len], *data, take);
    *data += take;
    *left -= take;
    return len + take;
}

static void finish(void)
{
    tern_radio_medium_set_collisions(&medium, false);
    for (unsigned i = 0; i < RADIOS; i++) {
        fuzz_radio_t *r = &radios[i];
        const uint8_t on = 1;
        require(r->radio.netdev.driver->set(&r->radio.netdev, TERN_NETOPT_STATE, &on, 1) == 1);
        r->no_read = false;
        /* Frames left while the user did not read: an interrupt reads them now. */
        tern_netdev_report(&r->radio.netdev, TERN_NETDEV_EVENT_ISR);
    }
    run_for(100000);
    require(tern_radio_medium_next_event(&medium) == UINT64_MAX);
    require(!tern_timer_is_armed(&medium.timer));
    uint32_t arrived = 0;
    uint32_t tx_frames = 0;
    uint32_t acks_sent = 0;
    for (unsigned i = 0; i < RADIOS; i++) {
        fuzz_radio_t *r = &radios[i];
        const tern_sim_radio_t *sr = &r->radio;
        require(sr->rx_count == 0 && !sr->tx_result_pending && !sr->ack_waiting && !r->pending);
        require(r->outcomes == r->accepted);
        require(tern_sim_radio_stat(sr, TERN_SIM_RADIO_TX_FRAMES) +
                    tern_sim_radio_stat(sr, TERN_SIM_RADIO_TX_MEDIUM_BUSY) ==
                r->accepted);
        require(tern_sim_radio_stat(sr, TERN_SIM_RADIO_TX_NOACK) + tern_sim_radio_stat(sr, TERN_SIM_RADIO_ACKS_RECEIVED) <=
                tern_sim_radio_stat(sr, TERN_SIM_RADIO_TX_FRAMES));
        require(r->read <= tern_sim_radio_stat(sr, TERN_SIM_RADIO_RX_FRAMES));
        arrived += tern_sim_radio_stat(sr, TERN_SIM_RADIO_RX_FRAMES) + tern_sim_radio_stat(sr, TERN_SIM_RADIO_RX_FILTERED) +
                   tern_sim_radio_stat(sr, TERN_SIM_RADIO_RX_QUEUE_FULL) +
                   tern_sim_radio_stat(sr, TERN_SIM_RADIO_ACKS_RECEIVED);
        tx_frames += tern_sim_radio_stat(sr, TERN_SIM_RADIO_TX_FRAMES);
        acks_sent += tern_sim_radio_stat(sr, TERN_SIM_RADIO_ACKS_SENT);
    }
    require(arrived == tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_RX_ARRIVED));
    require(tx_frames == tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_TX_FRAMES));
    require(acks_sent == tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_TX_ACKS));
    require(captured == tx_frames + acks_sent);
    tern_executor_stop(&loop.base);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t seed = 0;
    for (unsigned i = 0; i < 8 && size > 0; i++, data++, size--) {
        seed = (seed << 8) | *data;
    }
    start(seed);
    unsigned ops = 0;
    while (size >= 4 && ops++ < 256) {
        uint8_t op = data[0];
        uint8_t a = data[1];
        uint8_t b = data[2];
        uint8_t c = data[3];
        data += 4;
        size -= 4;
        fuzz_radio_t *r = &radios[a % RADIOS];
        tern_netdev_t *dev = &r->radio.netdev;
        switch (op % 12u) {
        case 0: { /* link, one direction; c = 0 removes it */
            uint32_t prr = (uint32_t)((uint64_t)c * TERN_RADIO_PRR_ONE / 255u);
            int res = tern_radio_medium_link_set(&medium, a % RADIOS, b % RADIOS, prr, (int16_t)-(int)(b >> 1));
            require(res == ((a % RADIOS == b % RADIOS) ? -EINVAL : 0));
            break;
        }
        case 1: { /* send */
            uint8_t frame[160];
            size_t len = build_frame(frame, b, c, &data, &size);
            const tern_iolist_t iol[2] = { { .base = frame, .len = len / 2u },
                                           { .base = frame + len / 2u, .len = len - len / 2u } };
            int res = dev->driver->send(dev, iol, 2);
            if (res >= 0) {
                require((size_t)res == len);
                r->accepted++;
            } else {
                require(res == -EMSGSIZE || res == -ENOBUFS || res == -ENETDOWN || res == -EINVAL);
                require(res != -EMSGSIZE || len > TERN_RADIO_MAX_FRAME);
                require(res != -EINVAL || len == 0u);
            }
            break;
        }
        case 2: /* time passes */
            run_for((uint64_t)b * 37u + (uint64_t)c * 4096u);
            break;
        case 3:
            tern_radio_medium_set_collisions(&medium, (b & 1u) != 0u);
            break;
        case 4: { /* channel (some invalid) */
            uint16_t ch = (uint16_t)(9u + b % 20u);
            int res = dev->driver->set(dev, TERN_NETOPT_CHANNEL, &ch, sizeof(ch));
            require(res == ((ch >= 11u && ch <= 26u) ? 2 : -EINVAL));
            break;
        }
        case 5: {
            uint8_t on = b & 1u;
            require(dev->driver->set(dev, TERN_NETOPT_PROMISCUOUS, &on, 1) == 1);
            break;
        }
        case 6: {
            uint8_t on = (b % 4u) != 0u;
            require(dev->driver->set(dev, TERN_NETOPT_STATE, &on, 1) == 1);
            break;
        }
        case 7:
            require(tern_radio_medium_isolate(&medium, a % RADIOS) == 0);
            break;
        case 8: {
            const tern_radio_range_t range = { .full_range = b, .max_range = (uint32_t)b + c + 1u };
            require(tern_radio_medium_set_range(&medium, (op & 0x10u) ? NULL : &range) == 0);
            break;
        }
        case 9:
            require(tern_radio_medium_set_position(&medium, a % RADIOS, (int32_t)b - 128, (int32_t)c - 128) == 0);
            break;
        case 10:
            r->no_read = (b & 1u) != 0u;
            break;
        case 11: { /* a short read drops the frame; a NULL read with a length drops it too */
            uint8_t small[8];
            int pending = dev->driver->recv(dev, NULL, 0, NULL);
            int res = (b & 1u) ? dev->driver->recv(dev, small, c % sizeof(small), NULL)
                               : dev->driver->recv(dev, NULL, 1u + c, NULL);
            if (pending == 0) {
                require(res == 0);
            } else if ((b & 1u) != 0u && (size_t)pending > c % sizeof(small)) {
                require(res == -ENOBUFS);
            } else {
                require(res == pending);
            }
            break;
        }
        default:
            break;
        }
    }
    finish();
    return 0;
}
