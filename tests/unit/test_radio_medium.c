/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The simulated radio medium and its radios, under virtual time
 *        (IEEE 802.15.4-2006 §6.5.3 timing, §7.5.6.2 filtering, §7.5.6.4 ACKs).
 *
 * Three radios share one medium on one event loop. Each radio has a tiny
 * driver user (a module, as an interface would be): the event callback posts
 * it one message on ISR; on its turn it calls isr() and logs every event with
 * the virtual time, reading frames on RX_COMPLETE. The last test puts the
 * radios under real interfaces of two stacks.
 *
 * Frames are built here byte by byte (golden bytes, little-endian fields as
 * on the air), independently of the wire module the radio uses.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "sink.h"
#include "tern/netapi.h"
#include "tern/netdev/radio_medium.h"
#include "tern/netdev/sim_radio.h"
#include "tern/netif.h"
#include "tern/netif_hdr.h"
#include "tern/port/loop.h"
#include "tern/stack.h"

#define SEC 1000000u
#define MS 1000u
#define SEED 0x7e57u
#define PAN 0xabcdu
#define NODES 3
#define LOG_MAX 64
#define CAPTURE_MAX 16
/* Frames of 1000 that cross a PRR-0.5 link with SEED and with SEED + 1: fixed by the PRNG. */
#define PRR_HALF_COUNT_SEED 507u
#define PRR_HALF_COUNT_SEED_PLUS_1 514u

/** One event a driver user saw. */
typedef struct {
    uint64_t time;
    tern_netdev_event_t event;
    uint8_t frame[TERN_RADIO_MAX_FRAME];
    size_t len;
    int16_t rssi;
    uint8_t lqi;
} event_log_t;

/** A radio and its driver user. */
typedef struct {
    tern_sim_radio_t radio;
    tern_module_t user;
    tern_msg_t queue[8];
    bool pending;           /**< one NETDEV message outstanding */
    bool no_read;           /**< leave received frames in the radio */
    unsigned resend;        /**< send resend_frame again this often from TX_COMPLETE */
    uint8_t resend_frame[32];
    size_t resend_len;
    event_log_t log[LOG_MAX];
    unsigned nlog;
} node_t;

/** One transmission the capture hook saw. */
typedef struct {
    tern_radio_medium_tx_t tx;
    uint8_t psdu[TERN_RADIO_MAX_PSDU];
} capture_t;

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_radio_medium_t medium;
static node_t nodes[NODES];
static capture_t captured[CAPTURE_MAX];
static unsigned ncaptured;

/* ------------------------------------------------------------ the driver user */

static int send_frame(node_t *n, const uint8_t *frame, size_t len);

static void log_event(node_t *n, tern_netdev_event_t event)
{
    assert_true(n->nlog < LOG_MAX);
    event_log_t *e = &n->log[n->nlog++];
    memset(e, 0, sizeof(*e));
    e->time = clock_v.now;
    e->event = event;
}

static void user_event_cb(tern_netdev_t *dev, tern_netdev_event_t event)
{
    node_t *n = dev->context;
    switch (event) {
    case TERN_NETDEV_EVENT_ISR:
        if (!n->pending) {
            n->pending = true;
            tern_msg_t msg = { .type = TERN_MSG_NETDEV, .content.ptr = dev };
            assert_int_equal(loop.base.ops->post(&loop.base, &n->user, &msg), 0);
        }
        break;
    case TERN_NETDEV_EVENT_RX_COMPLETE: {
        if (n->no_read) {
            break;
        }
        int len = dev->driver->recv(dev, NULL, 0, NULL);
        assert_true(len > 0);
        log_event(n, event);
        event_log_t *e = &n->log[n->nlog - 1];
        tern_netdev_rx_info_t info = { 0 };
        assert_int_equal(dev->driver->recv(dev, e->frame, sizeof(e->frame), &info), len);
        e->len = (size_t)len;
        e->rssi = info.rssi;
        e->lqi = info.lqi;
        break;
    }
    default:
        log_event(n, event);
        if (event == TERN_NETDEV_EVENT_TX_COMPLETE && n->resend > 0) {
            n->resend--;
            assert_int_equal(send_frame(n, n->resend_frame, n->resend_len), (int)n->resend_len);
        }
        break;
    }
}

static int user_handle(tern_module_t *self, tern_msg_t *msg)
{
    node_t *n = self->context;
    if (msg->type == TERN_MSG_NETDEV) {
        n->pending = false;
        n->radio.netdev.driver->isr(&n->radio.netdev);
    }
    return 0;
}

/* Send @p frame as a scatter list of two parts (header, rest), as an interface does. */
static int send_frame(node_t *n, const uint8_t *frame, size_t len)
{
    size_t first = (len < 3u) ? len : 3u;
    const tern_iolist_t iol[2] = { { .base = frame, .len = first }, { .base = frame + first, .len = len - first } };
    return n->radio.netdev.driver->send(&n->radio.netdev, iol, 2);
}

static unsigned count_events(const node_t *n, tern_netdev_event_t event)
{
    unsigned c = 0;
    for (unsigned i = 0; i < n->nlog; i++) {
        c += (n->log[i].event == event) ? 1u : 0u;
    }
    return c;
}

/* The @p k-th logged event of kind @p event (asserted to exist). */
static const event_log_t *nth_event(const node_t *n, tern_netdev_event_t event, unsigned k)
{
    for (unsigned i = 0; i < n->nlog; i++) {
        if (n->log[i].event == event && k-- == 0u) {
            return &n->log[i];
        }
    }
    fail_msg("event %d #%u not logged", (int)event, k);
    return NULL;
}

static void capture_hook(void *ctx, const tern_radio_medium_tx_t *tx)
{
    assert_ptr_equal(ctx, &ncaptured);
    assert_true(ncaptured < CAPTURE_MAX);
    capture_t *c = &captured[ncaptured++];
    c->tx = *tx;
    memcpy(c->psdu, tx->psdu, tx->len);
    c->tx.psdu = c->psdu;
}

/* ------------------------------------------------------------ frames (golden bytes) */

#define FCF_DATA 0x0001u
#define FCF_ACK_REQUEST 0x0020u
#define FCF_PAN_COMPRESS 0x0040u
#define FCF_DST_SHORT 0x0800u
#define FCF_DST_LONG 0x0C00u
#define FCF_SRC_SHORT 0x8000u
#define FCF_SRC_LONG 0xC000u

static void put16le(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* Data frame (2003 version), PAN ID compression, short destination and source. */
static size_t frame_short(uint8_t *out, bool ack_request, uint8_t seq, uint16_t pan, uint16_t dst, uint16_t src,
                          size_t payload_len)
{
    uint16_t fcf = FCF_DATA | FCF_PAN_COMPRESS | FCF_DST_SHORT | FCF_SRC_SHORT | (ack_request ? FCF_ACK_REQUEST : 0u);
    put16le(&out[0], fcf);
    out[2] = seq;
    put16le(&out[3], pan);
    put16le(&out[5], dst);
    put16le(&out[7], src);
    for (size_t i = 0; i < payload_len; i++) {
        out[9 + i] = (uint8_t)(0xA0u + i);
    }
    return 9 + payload_len;
}

/* Data frame, PAN ID compression, extended destination (canonical order given) and short source. */
static size_t frame_long_dst(uint8_t *out, bool ack_request, uint8_t seq, uint16_t pan, const uint8_t dst[8],
                             uint16_t src)
{
    uint16_t fcf = FCF_DATA | FCF_PAN_COMPRESS | FCF_DST_LONG | FCF_SRC_SHORT | (ack_request ? FCF_ACK_REQUEST : 0u);
    put16le(&out[0], fcf);
    out[2] = seq;
    put16le(&out[3], pan);
    for (unsigned i = 0; i < 8; i++) {
        out[5 + i] = dst[7 - i]; /* little-endian on the air */
    }
    put16le(&out[13], src);
    out[15] = 0x42;
    return 16;
}

/* Reference CRC-16/KERMIT (poly 0x1021 reflected, init 0), bit by bit: the test's oracle. */
static uint16_t crc16_kermit(const uint8_t *p, size_t len)
{
    uint16_t crc = 0;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        for (unsigned b = 0; b < 8; b++) {
            crc = (crc & 1u) ? (uint16_t)((crc >> 1) ^ 0x8408u) : (uint16_t)(crc >> 1);
        }
    }
    return crc;
}

/* ------------------------------------------------------------ fixture */

static uint8_t eui64(unsigned i, uint8_t out[8])
{
    const uint8_t base[8] = { 0x02, 0x00, 0x5e, 0xff, 0xfe, 0x00, 0x53, 0x00 };
    memcpy(out, base, 8);
    out[7] = (uint8_t)(i + 1u);
    return out[7];
}

static void set_u16(node_t *n, tern_netopt_t opt, uint16_t v)
{
    assert_int_equal(n->radio.netdev.driver->set(&n->radio.netdev, opt, &v, sizeof(v)), 2);
}

static void set_u8(node_t *n, tern_netopt_t opt, uint8_t v)
{
    assert_int_equal(n->radio.netdev.driver->set(&n->radio.netdev, opt, &v, 1), 1);
}

static void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

static void setup_medium(uint64_t seed)
{
    memset(nodes, 0, sizeof(nodes));
    memset(captured, 0, sizeof(captured));
    ncaptured = 0;
    tern_vclock_init(&clock_v, SEC);
    tern_loop_init(&loop, &clock_v.base);
    assert_int_equal(tern_radio_medium_init(&medium, &loop.base, seed), 0);
    for (unsigned i = 0; i < NODES; i++) {
        node_t *n = &nodes[i];
        uint8_t addr[8];
        eui64(i, addr);
        assert_int_equal(tern_sim_radio_init(&n->radio, &medium, addr), (int)i);
        const uint8_t short_addr[2] = { 0x00, (uint8_t)(i + 1u) };
        assert_int_equal(n->radio.netdev.driver->set(&n->radio.netdev, TERN_NETOPT_ADDRESS, short_addr, 2), 2);
        set_u16(n, TERN_NETOPT_NID, PAN);
        assert_int_equal(tern_module_init(&n->user, "user", 2, user_handle, n, n->queue, 8), 0);
        assert_int_equal(tern_executor_attach(&loop.base, &n->user), 0);
        n->radio.netdev.event_cb = user_event_cb;
        n->radio.netdev.context = n;
    }
}

static int setup(void **state)
{
    (void)state;
    setup_medium(SEED);
    return 0;
}

/* Nothing left anywhere: no air event, no timer, every frame read, every outcome reported. */
static void assert_quiet(void)
{
    run_for(100 * MS);
    assert_int_equal(tern_radio_medium_next_event(&medium), UINT64_MAX);
    assert_false(tern_timer_is_armed(&medium.timer));
    for (unsigned i = 0; i < NODES; i++) {
        const tern_sim_radio_t *r = &nodes[i].radio;
        assert_int_equal(r->rx_count, 0);
        assert_false(r->tx_result_pending);
        assert_false(r->ack_waiting);
        assert_int_equal(r->air[TERN_SIM_RADIO_AIR_DATA].state, TERN_RADIO_AIR_IDLE);
        assert_int_equal(r->air[TERN_SIM_RADIO_AIR_ACK].state, TERN_RADIO_AIR_IDLE);
        assert_false(nodes[i].pending);
    }
}

static int teardown(void **state)
{
    (void)state;
    assert_quiet();
    tern_executor_stop(&loop.base);
    return 0;
}

/** Airtime of a MAC frame of @p len bytes (FCS added). */
static uint64_t airtime(size_t len)
{
    return (len + TERN_RADIO_FCS_LEN + TERN_RADIO_PHY_OVERHEAD) * TERN_RADIO_OCTET_US;
}

/* ------------------------------------------------------------ delivery and timing */

static void test_send__prr_one__neighbour_receives_frame_at_its_end(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -55), 0);
    uint8_t f[32];
    size_t len = frame_short(f, false, 7, PAN, 0x0002, 0x0001, 4);
    uint64_t t0 = clock_v.now;
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(10 * MS);

    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 1);
    const event_log_t *rx = nth_event(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE, 0);
    assert_int_equal(rx->time, t0 + airtime(len)); /* (13 + 2 + 6) * 32 = 672 us */
    assert_int_equal(airtime(len), 672);
    assert_int_equal(rx->len, len); /* no FCS delivered */
    assert_memory_equal(rx->frame, f, len);
    assert_int_equal(rx->rssi, -55);
    assert_int_equal(rx->lqi, 255);
    /* No ACK requested: complete at the end of the frame. */
    assert_int_equal(nodes[0].nlog, 1);
    assert_int_equal(nth_event(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE, 0)->time, t0 + airtime(len));
    /* One-way link: radio 2 and the sender itself heard nothing. */
    assert_int_equal(nodes[2].nlog, 0);
    assert_int_equal(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_TX_FRAMES), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_RX_FRAMES), 1);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_TX_FRAMES), 1);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_RX_ARRIVED), 1);
}

static void test_send__prr_zero__nothing_arrives(void **state)
{
    (void)state;
    /* Set, then removed with PRR 0: no link at all. */
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -55), 0);
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, 0, -55), 0);
    uint8_t f[32];
    size_t len = frame_short(f, false, 1, PAN, 0xFFFF, 0x0001, 4);
    for (unsigned i = 0; i < 20; i++) {
        assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
        run_for(2 * MS);
    }
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE), 20);
    assert_int_equal(nodes[1].nlog, 0);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_RX_ARRIVED), 0);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_LOST_PRR), 0); /* not a link: no draw */
}


/* Broadcast @p frames frames from radio 0 to radio 1 over a PRR-0.5 link; return how many arrived. */
static unsigned broadcast_over_half_link(unsigned frames)
{
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE / 2u, -80), 0);
    uint8_t f[32];
    size_t len = frame_short(f, false, 0, PAN, 0xFFFF, 0x0001, 2);
    unsigned completed = 0;
    for (unsigned i = 0; i < frames; i++) {
        f[2] = (uint8_t)i;
        assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
        run_for(2 * MS);
        completed += count_events(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE);
        for (unsigned k = 0; k < nodes[1].nlog; k++) {
            assert_int_equal(nodes[1].log[k].lqi, 128); /* 0.5 * 255, rounded */
            assert_int_equal(nodes[1].log[k].rssi, -80);
        }
        nodes[0].nlog = 0; /* the logs hold LOG_MAX events: count and forget */
        nodes[1].nlog = 0;
    }
    assert_int_equal(completed, frames);
    unsigned got = tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_RX_FRAMES);
    assert_int_equal(got + tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_LOST_PRR), frames);
    return got;
}

/* Binomial(1000, 0.5): sigma = sqrt(250) = 15.8; 4 sigma around the mean. */
static void assert_plausible_half(unsigned got)
{
    assert_in_range(got, 500 - 63, 500 + 63);
}

static void test_send__prr_half__exact_count_for_seed_other_seed_differs(void **state)
{
    (void)state;
    unsigned a = broadcast_over_half_link(1000);
    assert_int_equal(a, PRR_HALF_COUNT_SEED);
    assert_plausible_half(a);

    /* The same seed again: the same run. */
    tern_executor_stop(&loop.base);
    setup_medium(SEED);
    assert_int_equal(broadcast_over_half_link(1000), a);

    /* Another seed: another count, as plausible. */
    tern_executor_stop(&loop.base);
    setup_medium(SEED + 1u);
    unsigned b = broadcast_over_half_link(1000);
    assert_int_equal(b, PRR_HALF_COUNT_SEED_PLUS_1);
    assert_int_not_equal(b, a);
    assert_plausible_half(b);
}

static void test_send__broadcast__every_neighbour_receives(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -50), 0);
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 2, TERN_RADIO_PRR_ONE, -90), 0);
    uint8_t f[32];
    size_t len = frame_short(f, false, 3, 0xFFFF, 0xFFFF, 0x0001, 6); /* broadcast PAN too */
    uint64_t t0 = clock_v.now;
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(10 * MS);
    for (unsigned i = 1; i < NODES; i++) {
        assert_int_equal(nodes[i].nlog, 1);
        const event_log_t *rx = nth_event(&nodes[i], TERN_NETDEV_EVENT_RX_COMPLETE, 0);
        assert_int_equal(rx->time, t0 + airtime(len));
        assert_int_equal(rx->len, len);
        assert_memory_equal(rx->frame, f, len);
    }
    assert_int_equal(nth_event(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE, 0)->rssi, -50);
    assert_int_equal(nth_event(&nodes[2], TERN_NETDEV_EVENT_RX_COMPLETE, 0)->rssi, -90);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_RX_ARRIVED), 2);
}

/* ------------------------------------------------------------ acknowledgments */

static void test_send__unicast_ack_request__acked_then_tx_complete(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 2, TERN_RADIO_PRR_ONE, -60), 0);
    assert_int_equal(tern_radio_medium_link_set(&medium, 1, 2, TERN_RADIO_PRR_ONE, -60), 0);
    tern_radio_medium_set_capture(&medium, capture_hook, &ncaptured);
    uint8_t f[32];
    size_t len = frame_short(f, true, 0x5a, PAN, 0x0002, 0x0001, 4);
    uint64_t t0 = clock_v.now;
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(10 * MS);

    const uint64_t data_end = t0 + airtime(len);
    assert_int_equal(nth_event(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE, 0)->time, data_end);
    /* ACK: starts aTurnaroundTime (192 us) after the frame, lasts (5 + 6) * 32 = 352 us. */
    assert_int_equal(nodes[0].nlog, 1);
    assert_int_equal(nth_event(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE, 0)->time, data_end + 192 + 352);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_ACKS_SENT), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_ACKS_RECEIVED), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_TX_NOACK), 0);
    /* Radio 2 overheard both and its filter took neither (not for it; an ACK it did not wait for). */
    assert_int_equal(nodes[2].nlog, 0);
    assert_int_equal(tern_sim_radio_stat(&nodes[2].radio, TERN_SIM_RADIO_RX_FILTERED), 2);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_TX_ACKS), 1);

    /* The capture saw both transmissions, FCS appended (CRC-16/KERMIT, little-endian). */
    assert_int_equal(ncaptured, 2);
    const capture_t *data = &captured[0];
    assert_int_equal(data->tx.sender, 0);
    assert_false(data->tx.ack);
    assert_int_equal(data->tx.start_us, t0);
    assert_int_equal(data->tx.end_us, data_end);
    assert_int_equal(data->tx.channel, 26);
    assert_int_equal(data->tx.len, len + 2);
    assert_memory_equal(data->psdu, f, len);
    uint16_t crc = crc16_kermit(f, len);
    assert_int_equal(data->psdu[len], crc & 0xFF);
    assert_int_equal(data->psdu[len + 1], crc >> 8);
    const capture_t *ack = &captured[1];
    assert_int_equal(ack->tx.sender, 1);
    assert_true(ack->tx.ack);
    assert_int_equal(ack->tx.start_us, data_end + 192);
    assert_int_equal(ack->tx.end_us, data_end + 192 + 352);
    assert_int_equal(ack->tx.len, 5);
    const uint8_t ack_mhr[3] = { 0x02, 0x00, 0x5a }; /* Imm-Ack, version 0, same sequence number */
    assert_memory_equal(ack->psdu, ack_mhr, 3);
    crc = crc16_kermit(ack_mhr, 3);
    assert_int_equal(ack->psdu[3], crc & 0xFF);
    assert_int_equal(ack->psdu[4], crc >> 8);
}

static void test_send__reverse_link_missing__tx_noack_after_ack_wait(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    assert_int_equal(tern_radio_medium_link_set(&medium, 1, 0, 0, -60), 0); /* reverse PRR 0 */
    uint8_t f[32];
    size_t len = frame_short(f, true, 9, PAN, 0x0002, 0x0001, 4);
    uint64_t t0 = clock_v.now;
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(10 * MS);

    /* Radio 1 received it and acknowledged into the void. */
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_ACKS_SENT), 1);
    /* macAckWaitDuration: 54 symbols = 864 us after the end of the frame. */
    assert_int_equal(nodes[0].nlog, 1);
    assert_int_equal(nth_event(&nodes[0], TERN_NETDEV_EVENT_TX_NOACK, 0)->time, t0 + airtime(len) + 864);
    assert_int_equal(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_TX_NOACK), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_ACKS_RECEIVED), 0);
}

static void test_send__ack_request_to_broadcast__nobody_acks(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    uint8_t f[32];
    size_t len = frame_short(f, true, 1, PAN, 0xFFFF, 0x0001, 0);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(10 * MS);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_ACKS_SENT), 0);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_TX_NOACK), 1);
}

/* Regression: a second frame needing an ACK while the first ACK was pending rewrote its bytes. */
static void test_send__two_frames_end_together__first_acked_second_not(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 2, 1, TERN_RADIO_PRR_ONE, -60), 0);
    uint8_t f[32];
    size_t len = frame_short(f, true, 0x10, PAN, 0x0002, 0x0001, 4);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    len = frame_short(f, true, 0x20, PAN, 0x0002, 0x0003, 4); /* same length: ends at the same instant */
    assert_int_equal(send_frame(&nodes[2], f, len), (int)len);
    run_for(10 * MS);
    /* Ideal medium: both arrive; radio 0's ends first in index order and is acknowledged. */
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 2);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_ACKS_SENT), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_ACKS_SKIPPED), 1);
    assert_int_equal(nodes[0].nlog, 1);
    assert_int_equal(nodes[0].log[0].event, TERN_NETDEV_EVENT_TX_COMPLETE);
    assert_int_equal(nodes[2].nlog, 1);
    assert_int_equal(nodes[2].log[0].event, TERN_NETDEV_EVENT_TX_NOACK);
}

/* ------------------------------------------------------------ transmit rules */

static void test_send__while_busy__refused_until_outcome_reported(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    uint8_t f[32];
    size_t len = frame_short(f, false, 1, PAN, 0x0002, 0x0001, 4);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    assert_int_equal(send_frame(&nodes[0], f, len), -ENOBUFS);
    run_for(airtime(len) - 1);
    assert_int_equal(send_frame(&nodes[0], f, len), -ENOBUFS);
    assert_int_equal(nodes[0].nlog, 0);
    run_for(1);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE), 1);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(10 * MS);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE), 2);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 2);
    assert_int_equal(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_TX_REFUSED), 2);
    assert_int_equal(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_TX_FRAMES), 2);
}

static void test_send__from_tx_complete_callback__frames_back_to_back(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    node_t *n = &nodes[0];
    n->resend_len = frame_short(n->resend_frame, false, 1, PAN, 0x0002, 0x0001, 4);
    n->resend = 3;
    uint64_t t0 = clock_v.now;
    assert_int_equal(send_frame(n, n->resend_frame, n->resend_len), (int)n->resend_len);
    run_for(20 * MS);
    assert_int_equal(count_events(n, TERN_NETDEV_EVENT_TX_COMPLETE), 4);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 4);
    for (unsigned k = 0; k < 4; k++) {
        uint64_t end = t0 + (k + 1u) * airtime(n->resend_len);
        assert_int_equal(nth_event(n, TERN_NETDEV_EVENT_TX_COMPLETE, k)->time, end);
        assert_int_equal(nth_event(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE, k)->time, end);
    }
}

static void test_send__longest_frame__airtime_longer_and_empty_refused(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    static uint8_t f[TERN_RADIO_MAX_FRAME + 1];
    size_t len = frame_short(f, false, 1, PAN, 0x0002, 0x0001, TERN_RADIO_MAX_FRAME - 9);
    assert_int_equal(len, 125);
    uint64_t t0 = clock_v.now;
    assert_int_equal(send_frame(&nodes[0], f, len), 125);
    run_for(10 * MS);
    /* (125 + 2 + 6) * 32 us: the longest PSDU (127 bytes) takes 4.256 ms. */
    assert_int_equal(nth_event(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE, 0)->time, t0 + 4256);
    const event_log_t *rx = nth_event(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE, 0);
    assert_int_equal(rx->len, 125);
    assert_memory_equal(rx->frame, f, 125);

    f[125] = 0xEE;
    assert_int_equal(send_frame(&nodes[0], f, 126), -EMSGSIZE);
    assert_int_equal(send_frame(&nodes[0], f, 0), -EINVAL); /* empty: no receiver could tell it from none */
    assert_int_equal(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_TX_REFUSED), 2);
}

/* ------------------------------------------------------------ address filter */

static void test_filter__pan_id_and_short_address(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    static const struct {
        uint16_t pan;
        uint16_t dst;
        bool accepted;
    } cases[] = {
        { 0x1234, 0x0002, false }, /* another PAN */
        { 0xFFFF, 0x0002, true },  /* broadcast PAN */
        { PAN, 0x0003, false },    /* another radio */
        { PAN, 0xFFFF, true },     /* broadcast address */
        { PAN, 0x0002, true },     /* this radio */
        { PAN, 0x0200, false },    /* byte order matters */
    };
    unsigned accepted = 0;
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t f[32];
        size_t len = frame_short(f, false, (uint8_t)i, cases[i].pan, cases[i].dst, 0x0001, 1);
        assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
        run_for(2 * MS);
        if (cases[i].accepted) {
            const event_log_t *rx = nth_event(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE, accepted++);
            assert_int_equal(rx->frame[2], i);
        }
        assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), accepted);
    }
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_RX_FILTERED), 3);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_RX_FRAMES), 3);
}

static void test_filter__extended_address__own_accepted_and_acked(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    uint8_t own[8];
    uint8_t other[8];
    eui64(1, own);
    eui64(2, other);
    uint8_t f[32];
    size_t len = frame_long_dst(f, true, 1, PAN, own, 0x0001);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(5 * MS);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 1);
    assert_memory_equal(nth_event(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE, 0)->frame, f, len);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE), 1);

    len = frame_long_dst(f, true, 2, PAN, other, 0x0001);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(5 * MS);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 1);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_TX_NOACK), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_RX_FILTERED), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_ACKS_SENT), 1);
}

static void test_filter__no_destination_or_unparseable__dropped(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    /* Data frame with a source only (destination mode 0): for a PAN coordinator, which this radio is not. */
    const uint8_t no_dst[] = { 0x01, 0x80, 0x07, 0xcd, 0xab, 0x01, 0x00, 0x42 };
    assert_int_equal(send_frame(&nodes[0], no_dst, sizeof(no_dst)), (int)sizeof(no_dst));
    run_for(2 * MS);
    /* A truncated header: short destination announced, one byte of it present. */
    const uint8_t truncated[] = { 0x41, 0x88, 0x07, 0xcd, 0xab, 0x02 };
    assert_int_equal(send_frame(&nodes[0], truncated, sizeof(truncated)), (int)sizeof(truncated));
    run_for(2 * MS);
    assert_int_equal(nodes[1].nlog, 0);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_RX_FILTERED), 2);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE), 2);
}

static void test_filter__promiscuous__takes_everything_acks_only_own(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    set_u8(&nodes[1], TERN_NETOPT_PROMISCUOUS, 1);
    uint8_t on = 0;
    assert_int_equal(nodes[1].radio.netdev.driver->get(&nodes[1].radio.netdev, TERN_NETOPT_PROMISCUOUS, &on, 1), 1);
    assert_int_equal(on, 1);

    uint8_t f[32];
    size_t len = frame_short(f, true, 1, 0x1234, 0x0002, 0x0001, 2); /* another PAN, asks for an ACK */
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(5 * MS);
    const uint8_t garbage[] = { 0xFF };
    assert_int_equal(send_frame(&nodes[0], garbage, 1), 1);
    run_for(5 * MS);
    len = frame_short(f, true, 3, PAN, 0x0002, 0x0001, 2); /* its own: acknowledged */
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(5 * MS);

    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 3);
    assert_int_equal(nth_event(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE, 1)->len, 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_RX_FILTERED), 0);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_ACKS_SENT), 1);
    /* Outcomes in order: the foreign frame was not acknowledged, the garbage asked for nothing, its own was. */
    assert_int_equal(nodes[0].nlog, 3);
    assert_int_equal(nodes[0].log[0].event, TERN_NETDEV_EVENT_TX_NOACK);
    assert_int_equal(nodes[0].log[1].event, TERN_NETDEV_EVENT_TX_COMPLETE);
    assert_int_equal(nodes[0].log[2].event, TERN_NETDEV_EVENT_TX_COMPLETE);
    assert_int_equal(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_ACKS_RECEIVED), 1);
}

/* ------------------------------------------------------------ channels, state, queue */

static void test_channel__mismatch__not_heard(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    set_u16(&nodes[1], TERN_NETOPT_CHANNEL, 11);
    uint8_t f[32];
    size_t len = frame_short(f, false, 1, PAN, 0xFFFF, 0x0001, 2);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(2 * MS);
    assert_int_equal(nodes[1].nlog, 0);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_LOST_CHANNEL), 1);

    set_u16(&nodes[0], TERN_NETOPT_CHANNEL, 11);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(2 * MS);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 1);

    uint16_t ch = 0;
    assert_int_equal(nodes[1].radio.netdev.driver->get(&nodes[1].radio.netdev, TERN_NETOPT_CHANNEL, &ch, 2), 2);
    assert_int_equal(ch, 11);
    tern_netdev_t *dev = &nodes[1].radio.netdev;
    ch = 10;
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_CHANNEL, &ch, 2), -EINVAL);
    ch = 27;
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_CHANNEL, &ch, 2), -EINVAL);
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_CHANNEL, &ch, 1), -EINVAL);
}

static void test_state__off__neither_sends_nor_hears(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    set_u8(&nodes[1], TERN_NETOPT_STATE, 0);
    uint8_t f[32];
    size_t len = frame_short(f, false, 1, PAN, 0xFFFF, 0x0001, 2);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(2 * MS);
    assert_int_equal(nodes[1].nlog, 0);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_LOST_RADIO_OFF), 1);
    assert_int_equal(send_frame(&nodes[1], f, len), -ENETDOWN);
    uint8_t v = 1;
    assert_int_equal(nodes[1].radio.netdev.driver->get(&nodes[1].radio.netdev, TERN_NETOPT_STATE, &v, 1), 1);
    assert_int_equal(v, 0);

    set_u8(&nodes[1], TERN_NETOPT_STATE, 1);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(2 * MS);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 1);
}

static void test_rx_queue__full__dropped_counted_and_not_acked(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    nodes[1].no_read = true;
    uint8_t f[32];
    for (unsigned i = 0; i < TERN_CONF_SIM_RADIO_RX_QUEUE + 1u; i++) {
        size_t len = frame_short(f, true, (uint8_t)i, PAN, 0x0002, 0x0001, 2);
        assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
        run_for(5 * MS);
    }
    /* The queue took TERN_CONF_SIM_RADIO_RX_QUEUE frames, acknowledged; the next was lost, unacknowledged. */
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE), TERN_CONF_SIM_RADIO_RX_QUEUE);
    assert_int_equal(nodes[0].log[TERN_CONF_SIM_RADIO_RX_QUEUE].event, TERN_NETDEV_EVENT_TX_NOACK);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_RX_QUEUE_FULL), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_ACKS_SENT), TERN_CONF_SIM_RADIO_RX_QUEUE);

    /* Read now: the queued frames come out in order. */
    nodes[1].no_read = false;
    tern_netdev_report(&nodes[1].radio.netdev, TERN_NETDEV_EVENT_ISR);
    run_for(1);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), TERN_CONF_SIM_RADIO_RX_QUEUE);
    for (unsigned i = 0; i < TERN_CONF_SIM_RADIO_RX_QUEUE; i++) {
        assert_int_equal(nth_event(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE, i)->frame[2], i);
    }
}

static void test_recv__length_short_buffer_and_drop(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -70), 0);
    nodes[1].no_read = true;
    uint8_t f[3][32];
    size_t len[3];
    for (unsigned i = 0; i < 3; i++) {
        len[i] = frame_short(f[i], false, (uint8_t)i, PAN, 0x0002, 0x0001, 1u + i);
        assert_int_equal(send_frame(&nodes[0], f[i], len[i]), (int)len[i]);
        run_for(2 * MS);
    }
    tern_netdev_t *dev = &nodes[1].radio.netdev;
    uint8_t buf[TERN_RADIO_MAX_FRAME];
    tern_netdev_rx_info_t info = { 0 };
    assert_int_equal(dev->driver->recv(dev, NULL, 0, NULL), (int)len[0]);
    assert_int_equal(dev->driver->recv(dev, NULL, 0, NULL), (int)len[0]); /* asking keeps it */
    assert_int_equal(dev->driver->recv(dev, buf, 3, &info), -ENOBUFS);    /* too short: dropped */
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_RX_BUF_SHORT), 1);
    assert_int_equal(dev->driver->recv(dev, NULL, 1, NULL), (int)len[1]); /* dropped on purpose */
    assert_int_equal(dev->driver->recv(dev, buf, sizeof(buf), &info), (int)len[2]);
    assert_memory_equal(buf, f[2], len[2]);
    assert_int_equal(info.rssi, -70);
    assert_int_equal(info.lqi, 255);
    assert_int_equal(dev->driver->recv(dev, NULL, 0, NULL), 0);
    assert_int_equal(dev->driver->recv(dev, buf, sizeof(buf), NULL), 0);
}

/* ------------------------------------------------------------ collisions */

/* Line 0 - 1 - 2: 0 and 2 do not hear each other (hidden terminals). */
static void make_line(void)
{
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 1, 2, TERN_RADIO_PRR_ONE, -60), 0);
}

/* 0 and 2 broadcast, 2 starting @p offset us after 0. */
static void send_two(uint64_t offset)
{
    uint8_t f[32];
    size_t len = frame_short(f, false, 1, PAN, 0xFFFF, 0x0001, 10);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    if (offset > 0) {
        run_for(offset);
    }
    len = frame_short(f, false, 2, PAN, 0xFFFF, 0x0003, 10);
    assert_int_equal(send_frame(&nodes[2], f, len), (int)len);
    run_for(10 * MS);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_TX_COMPLETE), 1);
    assert_int_equal(count_events(&nodes[2], TERN_NETDEV_EVENT_TX_COMPLETE), 1);
}

static void test_collisions__hidden_terminals__both_lost_in_the_middle(void **state)
{
    (void)state;
    make_line();
    tern_radio_medium_set_collisions(&medium, true);
    send_two(100);
    assert_int_equal(nodes[1].nlog, 0);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_LOST_COLLISION), 2);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_CCA_BUSY), 0);

    /* One after the other (the second starts exactly when the first ends): both arrive. */
    nodes[0].nlog = 0;
    nodes[2].nlog = 0;
    send_two(airtime(19));
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 2);
}

static void test_collisions__off__overlapping_frames_both_arrive(void **state)
{
    (void)state;
    make_line();
    send_two(100);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 2);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_LOST_COLLISION), 0);
}

static void test_collisions__cca__busy_channel_reports_medium_busy(void **state)
{
    (void)state;
    for (uint16_t a = 0; a < NODES; a++) {
        for (uint16_t b = (uint16_t)(a + 1u); b < NODES; b++) {
            assert_int_equal(tern_radio_medium_link_set_both(&medium, a, b, TERN_RADIO_PRR_ONE, -60), 0);
        }
    }
    tern_radio_medium_set_collisions(&medium, true);
    uint8_t f[32];
    size_t len = frame_short(f, false, 1, PAN, 0xFFFF, 0x0001, 10);
    uint64_t t0 = clock_v.now;
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(100);
    assert_int_equal(send_frame(&nodes[1], f, len), (int)len); /* accepted; the outcome says busy */
    run_for(1);
    assert_int_equal(nodes[1].nlog, 1);
    assert_int_equal(nth_event(&nodes[1], TERN_NETDEV_EVENT_TX_MEDIUM_BUSY, 0)->time, t0 + 100);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_TX_MEDIUM_BUSY), 1);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_CCA_BUSY), 1);
    run_for(10 * MS);
    /* Only radio 0's frame was on the air. */
    assert_int_equal(count_events(&nodes[2], TERN_NETDEV_EVENT_RX_COMPLETE), 1);
    assert_int_equal(nth_event(&nodes[2], TERN_NETDEV_EVENT_RX_COMPLETE, 0)->frame[7], 0x01);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_TX_FRAMES), 1);
    /* Once the channel is clear, it goes. */
    assert_int_equal(send_frame(&nodes[1], f, len), (int)len);
    run_for(10 * MS);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_TX_COMPLETE), 1);
    assert_int_equal(count_events(&nodes[2], TERN_NETDEV_EVENT_RX_COMPLETE), 2);
}

static void test_collisions__same_instant__half_duplex_loses_both(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    tern_radio_medium_set_collisions(&medium, true);
    uint8_t f[32];
    size_t len = frame_short(f, false, 1, PAN, 0xFFFF, 0x0001, 10);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len); /* both CCAs find a clear channel */
    assert_int_equal(send_frame(&nodes[1], f, len), (int)len);
    run_for(10 * MS);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_RX_COMPLETE), 0);
    assert_int_equal(count_events(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE), 0);
    assert_int_equal(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_LOST_COLLISION), 2);
}

/* ------------------------------------------------------------ topology */

static void test_link__removed_at_run_time__no_longer_heard(void **state)
{
    (void)state;
    make_line();
    uint8_t f[32];
    size_t len = frame_short(f, false, 1, PAN, 0xFFFF, 0x0002, 2);
    assert_int_equal(send_frame(&nodes[1], f, len), (int)len);
    run_for(2 * MS);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_RX_COMPLETE), 1);
    assert_int_equal(count_events(&nodes[2], TERN_NETDEV_EVENT_RX_COMPLETE), 1);

    /* Radio 2 leaves the mesh. */
    assert_int_equal(tern_radio_medium_isolate(&medium, 2), 0);
    tern_radio_link_t link;
    assert_int_equal(tern_radio_medium_link_get(&medium, 1, 2, &link), 0);
    assert_int_equal(link.prr_ppm, 0);
    assert_int_equal(tern_radio_medium_link_get(&medium, 2, 1, &link), 0);
    assert_int_equal(link.prr_ppm, 0);
    assert_int_equal(send_frame(&nodes[1], f, len), (int)len);
    run_for(2 * MS);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_RX_COMPLETE), 2);
    assert_int_equal(count_events(&nodes[2], TERN_NETDEV_EVENT_RX_COMPLETE), 1);

    /* A link removed while a frame is on the air: the frame ends after, and is lost. */
    assert_int_equal(send_frame(&nodes[1], f, len), (int)len);
    run_for(100);
    assert_int_equal(tern_radio_medium_link_set(&medium, 1, 0, 0, -60), 0);
    run_for(2 * MS);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_RX_COMPLETE), 2);

    /* Back. */
    assert_int_equal(tern_radio_medium_link_set(&medium, 1, 0, TERN_RADIO_PRR_ONE, -61), 0);
    assert_int_equal(send_frame(&nodes[1], f, len), (int)len);
    run_for(2 * MS);
    assert_int_equal(count_events(&nodes[0], TERN_NETDEV_EVENT_RX_COMPLETE), 3);
    assert_int_equal(nth_event(&nodes[0], TERN_NETDEV_EVENT_RX_COMPLETE, 2)->rssi, -61);
}

static void assert_link(uint16_t from, uint16_t to, uint32_t prr, int16_t rssi)
{
    tern_radio_link_t link;
    assert_int_equal(tern_radio_medium_link_get(&medium, from, to, &link), 0);
    assert_int_equal(link.prr_ppm, prr);
    if (prr > 0) {
        assert_int_equal(link.rssi_dbm, rssi);
    }
}

static void test_range_model__prr_and_rssi_fall_with_distance(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_set_position(&medium, 1, 10, 0), 0);
    assert_int_equal(tern_radio_medium_set_position(&medium, 2, 25, 0), 0);
    const tern_radio_range_t range = { .full_range = 10, .max_range = 30 };
    assert_int_equal(tern_radio_medium_set_range(&medium, &range), 0);
    assert_link(0, 1, TERN_RADIO_PRR_ONE, -60);   /* d 10: full; RSSI -40 - 60 * 10/30 */
    assert_link(1, 0, TERN_RADIO_PRR_ONE, -60);
    assert_link(0, 2, 250000, -90);               /* d 25: (30 - 25) / 20 */
    assert_link(1, 2, 750000, -70);               /* d 15 */

    assert_int_equal(tern_radio_medium_set_position(&medium, 2, 40, 0), 0);
    assert_link(0, 2, 0, 0);                      /* d 40: beyond max_range */
    assert_link(1, 2, 0, 0);                      /* d 30: at max_range, PRR 0 */
    assert_int_equal(tern_radio_medium_set_position(&medium, 2, 3, -4), 0);
    assert_link(2, 0, TERN_RADIO_PRR_ONE, -50);   /* d 5 (3-4-5) */

    /* The unit disk: full up to and including the range. */
    const tern_radio_range_t disk = { .full_range = 20, .max_range = 20 };
    assert_int_equal(tern_radio_range_link(&disk, 20).prr_ppm, TERN_RADIO_PRR_ONE);
    assert_int_equal(tern_radio_range_link(&disk, 20).rssi_dbm, -100);
    assert_int_equal(tern_radio_range_link(&disk, 21).prr_ppm, 0);

    /* Frames follow the model. */
    uint8_t f[32];
    size_t len = frame_short(f, false, 1, PAN, 0xFFFF, 0x0001, 2);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    run_for(2 * MS);
    assert_int_equal(nth_event(&nodes[1], TERN_NETDEV_EVENT_RX_COMPLETE, 0)->rssi, -60);
    assert_int_equal(nth_event(&nodes[2], TERN_NETDEV_EVENT_RX_COMPLETE, 0)->rssi, -50);

    /* Off: links stay as they are and positions no longer change them. */
    assert_int_equal(tern_radio_medium_set_range(&medium, NULL), 0);
    assert_int_equal(tern_radio_medium_set_position(&medium, 2, 1000, 0), 0);
    assert_link(2, 0, TERN_RADIO_PRR_ONE, -50);

    const tern_radio_range_t bad_zero = { 0, 0 };
    const tern_radio_range_t bad_order = { 5, 4 };
    assert_int_equal(tern_radio_medium_set_range(&medium, &bad_zero), -EINVAL);
    assert_int_equal(tern_radio_medium_set_range(&medium, &bad_order), -EINVAL);
    assert_int_equal(tern_radio_medium_set_position(&medium, 0, (int32_t)TERN_RADIO_POSITION_MAX + 1, 0), -EINVAL);
    assert_int_equal(tern_radio_medium_set_position(&medium, 0, 0, -(int32_t)TERN_RADIO_POSITION_MAX - 1), -EINVAL);
    assert_int_equal(tern_radio_medium_set_position(&medium, 3, 0, 0), -ENOENT);
}

static void test_medium__bad_arguments_and_full(void **state)
{
    (void)state;
    tern_radio_link_t link;
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 0, TERN_RADIO_PRR_ONE, -60), -EINVAL);
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 3, TERN_RADIO_PRR_ONE, -60), -ENOENT);
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE + 1u, -60), -EINVAL);
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, 1), -EINVAL);
    assert_int_equal(tern_radio_medium_link_set(&medium, 0, 1, TERN_RADIO_PRR_ONE, -129), -EINVAL);
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 1, 7, TERN_RADIO_PRR_ONE, -60), -ENOENT);
    assert_int_equal(tern_radio_medium_link_get(&medium, 0, 1, NULL), -EINVAL);
    assert_int_equal(tern_radio_medium_link_get(&medium, 1, 1, &link), -EINVAL);
    assert_int_equal(tern_radio_medium_link_get(&medium, 9, 1, &link), -ENOENT);
    assert_int_equal(tern_radio_medium_isolate(&medium, 3), -ENOENT);
    assert_ptr_equal(tern_radio_medium_radio(&medium, 2), &nodes[2].radio);
    assert_null(tern_radio_medium_radio(&medium, 3));
    assert_int_equal(tern_radio_medium_init(NULL, &loop.base, 1), -EINVAL);

    static tern_sim_radio_t extra[TERN_CONF_RADIO_MEDIUM_MAX_RADIOS];
    const uint8_t addr[8] = { 0 };
    for (unsigned i = NODES; i < TERN_CONF_RADIO_MEDIUM_MAX_RADIOS; i++) {
        assert_int_equal(tern_sim_radio_init(&extra[i], &medium, addr), (int)i);
    }
    assert_int_equal(tern_sim_radio_init(&extra[0], &medium, addr), -ENOSPC);
    assert_int_equal(tern_sim_radio_init(NULL, &medium, addr), -EINVAL);
    assert_int_equal(tern_sim_radio_init(&extra[0], NULL, addr), -EINVAL);
}

static void test_options__get_set_and_errors(void **state)
{
    (void)state;
    tern_netdev_t *dev = &nodes[1].radio.netdev;
    uint8_t buf[8];
    uint16_t v16 = 0;
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDRESS, buf, sizeof(buf)), 2);
    assert_int_equal(buf[0], 0x00);
    assert_int_equal(buf[1], 0x02);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDRESS, buf, 1), -EOVERFLOW);
    uint8_t eui[8];
    eui64(1, eui);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDRESS_LONG, buf, sizeof(buf)), 8);
    assert_memory_equal(buf, eui, 8);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDRESS_LONG, buf, 7), -EOVERFLOW);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDR_LEN, &v16, 2), 2);
    assert_int_equal(v16, 2);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_MAX_PDU_SIZE, &v16, 2), 2);
    assert_int_equal(v16, 125);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_DEVICE_TYPE, &v16, 2), 2);
    assert_int_equal(v16, TERN_NETDEV_TYPE_IEEE802154);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_NID, &v16, 2), 2);
    assert_int_equal(v16, PAN);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_CHANNEL, &v16, 2), 2);
    assert_int_equal(v16, TERN_SIM_RADIO_DEFAULT_CHANNEL);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_STATE, buf, 0), -EOVERFLOW);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_STATS, buf, sizeof(buf)), -ENOTSUP);

    const uint8_t new_long[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_ADDRESS_LONG, new_long, 8), 8);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDRESS_LONG, buf, sizeof(buf)), 8);
    assert_memory_equal(buf, new_long, 8);
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_ADDRESS_LONG, new_long, 7), -EINVAL);
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_ADDRESS, new_long, 3), -EINVAL);
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_NID, new_long, 1), -EINVAL);
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_PROMISCUOUS, new_long, 2), -EINVAL);
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_STATE, NULL, 1), -EINVAL);
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_MAX_PDU_SIZE, &v16, 2), -ENOTSUP);
    assert_int_equal(dev->driver->init(dev), 0);
}

/* ------------------------------------------------------------ determinism */

static uint64_t digest_add(uint64_t h, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xFFu;
        h *= 0x100000001B3ull; /* FNV-1a */
    }
    return h;
}

/* A busy lossy mesh with ACKs and collisions; a digest of every event and counter. */
static uint64_t run_lossy_mesh(void)
{
    for (uint16_t a = 0; a < NODES; a++) {
        for (uint16_t b = (uint16_t)(a + 1u); b < NODES; b++) {
            assert_int_equal(tern_radio_medium_link_set_both(&medium, a, b, 700000, -75), 0);
        }
    }
    tern_radio_medium_set_collisions(&medium, true);
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned round = 0; round < 200; round++) {
        for (unsigned i = 0; i < NODES; i++) {
            uint8_t f[32];
            uint16_t dst = (round % 3u == 0u) ? 0xFFFFu : (uint16_t)((i + 1u) % NODES + 1u);
            size_t len = frame_short(f, dst != 0xFFFFu, (uint8_t)round, PAN, dst, (uint16_t)(i + 1u), round % 20u);
            int res = send_frame(&nodes[i], f, len);
            h = digest_add(h, (uint64_t)(int64_t)res);
            run_for((round * 7u + i * 53u) % 400u); /* staggered: some overlap, some are sensed */
        }
        run_for(300u + (round * 97u) % 2000u);
        for (unsigned i = 0; i < NODES; i++) {
            for (unsigned k = 0; k < nodes[i].nlog; k++) {
                h = digest_add(h, nodes[i].log[k].time);
                h = digest_add(h, (uint64_t)nodes[i].log[k].event);
                h = digest_add(h, nodes[i].log[k].len);
            }
            nodes[i].nlog = 0;
        }
    }
    run_for(10 * MS);
    for (unsigned i = 0; i < NODES; i++) {
        for (unsigned k = 0; k < nodes[i].nlog; k++) {
            h = digest_add(h, nodes[i].log[k].time);
        }
        nodes[i].nlog = 0;
        for (unsigned c = 0; c < TERN_SIM_RADIO_STAT_NUMOF; c++) {
            h = digest_add(h, nodes[i].radio.counters[c]);
        }
    }
    for (unsigned c = 0; c < TERN_RADIO_MEDIUM_STAT_NUMOF; c++) {
        h = digest_add(h, medium.counters[c]);
    }
    /* Every kind of loss happened: the run exercised what it claims to. */
    assert_true(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_LOST_PRR) > 0);
    assert_true(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_LOST_COLLISION) > 0);
    assert_true(tern_radio_medium_stat(&medium, TERN_RADIO_MEDIUM_CCA_BUSY) > 0);
    assert_true(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_TX_NOACK) > 0);
    assert_true(tern_sim_radio_stat(&nodes[0].radio, TERN_SIM_RADIO_ACKS_RECEIVED) > 0);
    return h;
}

static void test_determinism__same_seed_same_run_other_seed_other_run(void **state)
{
    (void)state;
    uint64_t first = run_lossy_mesh();
    tern_executor_stop(&loop.base);
    setup_medium(SEED);
    assert_true(run_lossy_mesh() == first);
    tern_executor_stop(&loop.base);
    setup_medium(SEED + 1u);
    assert_true(run_lossy_mesh() != first);
}

/* ------------------------------------------------------------ under interfaces */

static tern_stack_t stacks[2];
static tern_netif_t netifs[2];
static sink_t sinks[2];
static tern_netreg_entry_t sink_entries[2];

static void test_netif__two_stacks_on_one_loop_exchange_frames(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -61), 0);
    static const char *const names[2] = { "a", "b" };
    for (unsigned i = 0; i < 2; i++) {
        assert_int_equal(tern_stack_init(&stacks[i], names[i], &loop.base), 0);
        /* The interface takes the device over (event callback and context). */
        assert_int_equal(tern_netif_add(&stacks[i], &netifs[i], "wpan0", &nodes[i].radio.netdev,
                                        &tern_netif_link_raw, TERN_NETTYPE_TEST), 0);
        assert_int_equal(netifs[i].mtu, 125);
        assert_int_equal(netifs[i].l2addr_len, 2);
        sink_add(&stacks[i], &sinks[i], "sink", 5, 8, true);
        tern_netreg_entry_init(&sink_entries[i], TERN_NETREG_DEMUX_CTX_ALL, &sinks[i].module);
        assert_int_equal(tern_netreg_register(&stacks[i].netreg, TERN_NETTYPE_TEST, &sink_entries[i]), 0);
    }
    run_for(1);
    uint8_t f[32];
    size_t len = frame_short(f, false, 4, PAN, 0x0002, 0x0001, 8);
    tern_pkt_t *pkt = tern_pktbuf_add(&stacks[0].pktbuf, NULL, f, len, TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    pkt = tern_netif_hdr_build(&stacks[0].pktbuf, pkt, NULL, 0, NULL, 0);
    assert_non_null(pkt);
    assert_int_equal(tern_netapi_send(&netifs[0].module, pkt), 0);
    run_for(10 * MS);

    assert_int_equal(sinks[1].rcv, 1);
    tern_pkt_t *got = sinks[1].kept[0];
    assert_int_equal(got->size, len);
    assert_memory_equal(got->data, f, len);
    const tern_netif_hdr_t *nh = tern_netif_hdr_get(got);
    assert_non_null(nh);
    assert_int_equal(nh->rssi, -61);
    assert_int_equal(nh->lqi, 255);
    assert_int_equal(nh->if_index, netifs[1].index);
    assert_int_equal(sinks[0].rcv, 0);
    assert_int_equal(netifs[0].counters[TERN_NETIF_TX_PACKETS], 1);
    assert_int_equal(netifs[1].counters[TERN_NETIF_RX_PACKETS], 1);

    for (unsigned i = 0; i < 2; i++) {
        sink_release_kept(&stacks[i], &sinks[i]);
        harness_assert_pktbuf_clean(&stacks[i].pktbuf);
    }
}

/* A radio that owes an acknowledgment is busy until it has sent it
 * (auto-ACK, IEEE 802.15.4-2006 §7.5.6.4.2): a frame of its own offered in
 * between is refused, not sent instead of the acknowledgment. */
static void test_send__while_an_ack_is_owed__refused_until_it_is_sent(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    uint8_t f[32];
    size_t len = frame_short(f, true, 0x31, PAN, 0x0002, 0x0001, 4);
    assert_int_equal(send_frame(&nodes[0], f, len), (int)len);
    /* The frame is in at radio 1; its acknowledgment is due aTurnaroundTime later. */
    run_for(tern_radio_airtime_us(len + TERN_RADIO_FCS_LEN) + TERN_RADIO_TURNAROUND_US / 2u);
    uint8_t g[32];
    size_t glen = frame_short(g, false, 0x41, PAN, 0xffff, 0x0002, 4);
    assert_int_equal(send_frame(&nodes[1], g, glen), -ENOBUFS);
    run_for(10 * MS);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_ACKS_SENT), 1);
    assert_int_equal(tern_sim_radio_stat(&nodes[1].radio, TERN_SIM_RADIO_ACKS_SKIPPED), 0);
    assert_int_equal(nodes[0].nlog, 1);
    assert_int_equal(nodes[0].log[0].event, TERN_NETDEV_EVENT_TX_COMPLETE);
    /* Afterwards the radio sends again. */
    assert_int_equal(send_frame(&nodes[1], g, glen), (int)glen);
}

static const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    T(test_send__prr_one__neighbour_receives_frame_at_its_end),
    T(test_send__prr_zero__nothing_arrives),
    T(test_send__prr_half__exact_count_for_seed_other_seed_differs),
    T(test_send__broadcast__every_neighbour_receives),
    T(test_send__unicast_ack_request__acked_then_tx_complete),
    T(test_send__reverse_link_missing__tx_noack_after_ack_wait),
    T(test_send__ack_request_to_broadcast__nobody_acks),
    T(test_send__two_frames_end_together__first_acked_second_not),
    T(test_send__while_busy__refused_until_outcome_reported),
    T(test_send__while_an_ack_is_owed__refused_until_it_is_sent),
    T(test_send__from_tx_complete_callback__frames_back_to_back),
    T(test_send__longest_frame__airtime_longer_and_empty_refused),
    T(test_filter__pan_id_and_short_address),
    T(test_filter__extended_address__own_accepted_and_acked),
    T(test_filter__no_destination_or_unparseable__dropped),
    T(test_filter__promiscuous__takes_everything_acks_only_own),
    T(test_channel__mismatch__not_heard),
    T(test_state__off__neither_sends_nor_hears),
    T(test_rx_queue__full__dropped_counted_and_not_acked),
    T(test_recv__length_short_buffer_and_drop),
    T(test_collisions__hidden_terminals__both_lost_in_the_middle),
    T(test_collisions__off__overlapping_frames_both_arrive),
    T(test_collisions__cca__busy_channel_reports_medium_busy),
    T(test_collisions__same_instant__half_duplex_loses_both),
    T(test_link__removed_at_run_time__no_longer_heard),
    T(test_range_model__prr_and_rssi_fall_with_distance),
    T(test_medium__bad_arguments_and_full),
    T(test_options__get_set_and_errors),
    T(test_determinism__same_seed_same_run_other_seed_other_run),
    T(test_netif__two_stacks_on_one_loop_exchange_frames),
#undef T
};

int main(void)
{
    return cmocka_run_group_tests(tests, NULL, NULL);
}
