/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The ZEP radio (port/posix/zep.c) over real UDP sockets on loopback:
 *        ZEP header golden bytes, FCS appended and checked, exchange both ways
 *        over IPv4 and IPv6, the address filter, auto-ACK and the ACK wait, the
 *        receive queue, options, endpoint parsing, and two interfaces over it.
 *
 * The test drives each device as its interface would: it takes the ISR event
 * (from the reader thread), then calls isr() on its own thread, which reports
 * TX outcomes and RX_COMPLETE. Every wait is bounded (WAIT_MS); a missing
 * event fails the test instead of hanging it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"
#include "sink.h"
#include "tern/netapi.h"
#include "tern/netif.h"
#include "tern/port/posix.h"
#include "tern/port/zep.h"
#include "tern/stack.h"
#include "tern/wire/bytes.h"
#include "tern/wire/ieee802154.h"
#include "tern/wire/zep.h"

/** Longest wait for anything expected. */
#define WAIT_MS 3000

/** A device and what its "interface" (this test) saw. */
typedef struct {
    tern_netdev_zep_t zep;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned isr_raised;  /**< ISR events (any thread) */
    unsigned isr_served;  /**< ISR events answered with isr() */
    unsigned tx_complete; /**< TX_COMPLETE reported */
    unsigned tx_noack;    /**< TX_NOACK reported */
    unsigned rx_n;        /**< frames read */
    uint8_t rx[24][TERN_IEEE802154_MAX_FRAME_LEN];
    int rx_len[24];
    tern_netdev_rx_info_t rx_info[24];
} node_t;

static node_t a, b;
static int peer = -1; /* a plain UDP socket: sniffer and injector */
static tern_stack_t stack_a, stack_b;

static const uint8_t eui_a[8] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77 };
static const uint8_t eui_b[8] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01 };
static const uint8_t eui_other[8] = { 0x02, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99 };

/* ------------------------------------------------------------ helpers */

static uint64_t mono_ms(void)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void event_cb(tern_netdev_t *dev, tern_netdev_event_t event)
{
    node_t *n = dev->context;
    switch (event) {
    case TERN_NETDEV_EVENT_ISR:
        (void)pthread_mutex_lock(&n->mutex);
        n->isr_raised++;
        (void)pthread_cond_broadcast(&n->cond);
        (void)pthread_mutex_unlock(&n->mutex);
        break;
    case TERN_NETDEV_EVENT_RX_COMPLETE: {
        int len = dev->driver->recv(dev, NULL, 0, NULL);
        assert_true(len > 0);
        assert_true(n->rx_n < 24);
        n->rx_len[n->rx_n] = dev->driver->recv(dev, n->rx[n->rx_n], sizeof(n->rx[0]), &n->rx_info[n->rx_n]);
        assert_int_equal(n->rx_len[n->rx_n], len);
        n->rx_n++;
        break;
    }
    case TERN_NETDEV_EVENT_TX_COMPLETE:
        n->tx_complete++;
        break;
    case TERN_NETDEV_EVENT_TX_NOACK:
        n->tx_noack++;
        break;
    default:
        fail_msg("unexpected event %d", (int)event);
    }
}

/** Set @p n up on @p local ("ADDR:0") and start it as an interface would (init, first isr()). */
static void start(node_t *n, const char *local, const uint8_t eui[8])
{
    assert_int_equal(tern_netdev_zep_setup(&n->zep, local, NULL, eui), 0);
    n->zep.netdev.event_cb = event_cb;
    n->zep.netdev.context = n;
    assert_int_equal(n->zep.netdev.driver->init(&n->zep.netdev), 0);
    n->zep.netdev.driver->isr(&n->zep.netdev);
}

/** Point @p n at @p port on @p host ("127.0.0.1" or "[::1]"). */
static void aim(node_t *n, const char *host, int port)
{
    char text[64];
    (void)snprintf(text, sizeof(text), "%s:%d", host, port);
    assert_int_equal(tern_netdev_zep_set_remote(&n->zep, text), 0);
}

/**
 * Serve @p n as its interface: wait for each ISR, answer with isr(), until it
 * has read @p rx_n frames and seen @p tx_events outcomes. @return true if so
 * within WAIT_MS.
 */
static bool serve_until(node_t *n, unsigned rx_n, unsigned tx_events)
{
    uint64_t deadline = mono_ms() + WAIT_MS;
    for (;;) {
        if (n->rx_n >= rx_n && n->tx_complete + n->tx_noack >= tx_events) {
            return true;
        }
        (void)pthread_mutex_lock(&n->mutex);
        while (n->isr_raised == n->isr_served) {
            uint64_t now = mono_ms();
            if (now >= deadline) {
                (void)pthread_mutex_unlock(&n->mutex);
                return false;
            }
            struct timespec ts;
            (void)clock_gettime(CLOCK_MONOTONIC, &ts);
            ts.tv_nsec += 10 * 1000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            (void)pthread_cond_timedwait(&n->cond, &n->mutex, &ts);
        }
        n->isr_served = n->isr_raised;
        (void)pthread_mutex_unlock(&n->mutex);
        n->zep.netdev.driver->isr(&n->zep.netdev);
    }
}

/** Wait until counter @p stat of @p n reaches @p value (the reader counts). */
static void wait_counter(node_t *n, tern_netdev_zep_stat_t stat, uint32_t value)
{
    uint64_t deadline = mono_ms() + WAIT_MS;
    while (tern_netdev_zep_stat(&n->zep, stat) < value) {
        assert_true(mono_ms() < deadline);
        struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000L };
        (void)nanosleep(&ms, NULL);
    }
    assert_int_equal(tern_netdev_zep_stat(&n->zep, stat), value);
}

/** Open the plain UDP peer socket on @p family loopback; @return its port. */
static int peer_open(int family)
{
    peer = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    assert_true(peer >= 0);
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof(ss));
    socklen_t len;
    if (family == AF_INET6) {
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)(void *)&ss;
        s6->sin6_family = AF_INET6;
        s6->sin6_addr = in6addr_loopback;
        len = sizeof(*s6);
    } else {
        struct sockaddr_in *s4 = (struct sockaddr_in *)(void *)&ss;
        s4->sin_family = AF_INET;
        s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        len = sizeof(*s4);
    }
    assert_int_equal(bind(peer, (struct sockaddr *)&ss, len), 0);
    len = sizeof(ss);
    assert_int_equal(getsockname(peer, (struct sockaddr *)&ss, &len), 0);
    struct timeval tv = { .tv_sec = WAIT_MS / 1000, .tv_usec = 0 };
    assert_int_equal(setsockopt(peer, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
    return family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)(void *)&ss)->sin6_port)
                              : ntohs(((struct sockaddr_in *)(void *)&ss)->sin_port);
}

/** Receive one datagram on the peer socket (bounded by SO_RCVTIMEO). */
static size_t peer_recv(uint8_t *buf, size_t size)
{
    ssize_t got = recv(peer, buf, size, 0);
    assert_true(got > 0);
    return (size_t)got;
}

/** Send @p len bytes from the peer socket to @p n (IPv4 loopback). */
static void peer_inject(node_t *n, const uint8_t *buf, size_t len)
{
    struct sockaddr_in to;
    memset(&to, 0, sizeof(to));
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    to.sin_port = htons((uint16_t)tern_netdev_zep_local_port(&n->zep));
    assert_int_equal(sendto(peer, buf, len, 0, (struct sockaddr *)&to, sizeof(to)), (ssize_t)len);
}

/**
 * A data frame (2006, PAN ID compression, source @p src extended) to @p dst
 * (2 or 8 bytes, canonical) in PAN @p pan, payload @p payload.
 * @return its length (no FCS).
 */
static size_t make_frame(uint8_t *buf, uint16_t pan, const uint8_t *dst, uint8_t dst_len, const uint8_t src[8],
                         bool ack_request, uint8_t seq, const char *payload)
{
    tern_ieee802154_repr_t r;
    memset(&r, 0, sizeof(r));
    r.frame_type = TERN_IEEE802154_FRAME_TYPE_DATA;
    r.frame_version = TERN_IEEE802154_FRAME_VERSION_2006;
    r.ack_request = ack_request;
    r.pan_id_compression = true;
    r.seq = seq;
    r.dst_pan = pan;
    r.src_pan = pan;
    r.dst.len = dst_len;
    memcpy(r.dst.u8, dst, dst_len);
    tern_ieee802154_addr_set_ext(&r.src, src);
    size_t plen = strlen(payload);
    int hdr = tern_ieee802154_emit(&r, plen, buf, TERN_IEEE802154_MAX_FRAME_LEN);
    assert_true(hdr > 0);
    memcpy(&buf[hdr], payload, plen);
    return (size_t)hdr + plen;
}

/** A ZEP v2 data datagram on @p channel carrying @p frame + its FCS (@p bad_fcs: flipped). */
static size_t make_zep(uint8_t *buf, uint8_t channel, const uint8_t *frame, size_t len, bool bad_fcs)
{
    tern_zep_repr_t z;
    memset(&z, 0, sizeof(z));
    z.version = 2;
    z.type = TERN_ZEP_TYPE_DATA;
    z.channel = channel;
    z.device_id = 0x4242;
    z.crc_mode = true;
    z.lqi = 0x80;
    z.seq = 7;
    z.frame_len = (uint8_t)(len + 2u);
    assert_int_equal(tern_zep_emit(&z, buf, TERN_ZEP_MAX_LEN), TERN_ZEP_V2_HDR_LEN);
    memcpy(&buf[TERN_ZEP_V2_HDR_LEN], frame, len);
    assert_int_equal(tern_ieee802154_fcs_append(&buf[TERN_ZEP_V2_HDR_LEN], len, TERN_ZEP_MAX_FRAME_LEN),
                     (int)len + 2);
    if (bad_fcs) {
        buf[TERN_ZEP_V2_HDR_LEN + len] ^= 0x01u;
    }
    return TERN_ZEP_V2_HDR_LEN + len + 2u;
}

static int dev_send(node_t *n, const uint8_t *frame, size_t len)
{
    tern_iolist_t iol[2] = { { frame, 3 }, { frame + 3, len - 3 } }; /* a scatter list, as the interface hands it */
    return n->zep.netdev.driver->send(&n->zep.netdev, iol, 2);
}

static int setup(void **state)
{
    (void)state;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    node_t *nodes[2] = { &a, &b };
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pthread_mutex_init(&nodes[i]->mutex, NULL), 0);
        assert_int_equal(tern_posix_cond_init_monotonic(&nodes[i]->cond), 0);
        nodes[i]->zep.fd = -1;
    }
    peer = -1;
    tern_executor_t *ex = harness_exec_start();
    assert_int_equal(tern_stack_init(&stack_a, "a", ex), 0);
    assert_int_equal(tern_stack_init(&stack_b, "b", ex), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    /* Devices first: no reader posts into a stopped executor. */
    tern_netdev_zep_stop(&a.zep);
    tern_netdev_zep_stop(&b.zep);
    if (peer >= 0) {
        (void)close(peer);
        peer = -1;
    }
    harness_run_until_idle();
    harness_exec_stop();
    harness_assert_pktbuf_clean(&stack_a.pktbuf);
    harness_assert_pktbuf_clean(&stack_b.pktbuf);
    return 0;
}

/* ------------------------------------------------------------ tests */

static void test_tern_netdev_zep_send__header_golden_fcs_appended(void **state)
{
    (void)state;
    int port = peer_open(AF_INET);
    start(&a, "127.0.0.1:0", eui_a);
    aim(&a, "127.0.0.1", port);

    static const uint8_t bcast[2] = { 0xff, 0xff };
    uint8_t frame[TERN_IEEE802154_MAX_FRAME_LEN];
    size_t len = make_frame(frame, 0x0023, bcast, 2, eui_a, false, 0x42, "hi");
    /* The frame, derived by hand (802.15.4-2006 §7.2.1): frame control
     * 0xd841 = data | PAN ID compression | dst short | version 2006 | src
     * extended; seq; PAN 0x0023; dst 0xffff; src EUI-64 reversed; "hi". */
    static const uint8_t golden_frame[17] = { 0x41, 0xd8, 0x42, 0x23, 0x00, 0xff, 0xff, 0x77, 0x66,
                                              0x55, 0x44, 0x33, 0x22, 0x11, 0x02, 0x68, 0x69 };
    assert_int_equal(len, sizeof(golden_frame));
    assert_memory_equal(frame, golden_frame, len);

    struct timespec before, after;
    (void)clock_gettime(CLOCK_REALTIME, &before);
    assert_int_equal(dev_send(&a, frame, len), (int)len);
    (void)clock_gettime(CLOCK_REALTIME, &after);
    uint8_t dgram[256];
    size_t got = peer_recv(dgram, sizeof(dgram));
    assert_int_equal(got, 32u + 17u + 2u);
    static const uint8_t golden_hdr_start[9] = {
        'E', 'X', 0x02, 0x01, /* preamble, version 2, type data */
        26,                   /* channel 26 (default) */
        0x66, 0x77,           /* device id: last two bytes of the EUI-64 */
        0x01,                 /* CRC mode: the frame ends with its FCS */
        0xff,                 /* LQI */
    };
    assert_memory_equal(dgram, golden_hdr_start, sizeof(golden_hdr_start));
    /* NTP timestamp: seconds since 1900 within the send. */
    uint32_t ntp_s = tern_load32(&dgram[9]);
    assert_true(ntp_s >= (uint32_t)((uint64_t)before.tv_sec + 2208988800u));
    assert_true(ntp_s <= (uint32_t)((uint64_t)after.tv_sec + 2208988800u));
    assert_int_equal(tern_load32(&dgram[17]), 0); /* first datagram: sequence number 0 */
    static const uint8_t zeros[10] = { 0 };
    assert_memory_equal(&dgram[21], zeros, sizeof(zeros));
    assert_int_equal(dgram[31], 19); /* length: 17-byte frame + 2-byte FCS */
    assert_memory_equal(&dgram[32], golden_frame, sizeof(golden_frame));
    /* FCS: CRC-16/KERMIT of the frame, low byte first, computed independently. */
    assert_int_equal(dgram[49], 0x66);
    assert_int_equal(dgram[50], 0x1f);

    /* The outcome through isr(): TX_COMPLETE, once (no ACK requested). */
    assert_true(serve_until(&a, 0, 1));
    assert_int_equal(a.tx_complete, 1);
    assert_int_equal(a.tx_noack, 0);

    /* The next datagram has the next sequence number, the other channel its channel. */
    uint16_t ch = 15;
    assert_int_equal(a.zep.netdev.driver->set(&a.zep.netdev, TERN_NETOPT_CHANNEL, &ch, sizeof(ch)), 2);
    assert_int_equal(dev_send(&a, frame, len), (int)len);
    got = peer_recv(dgram, sizeof(dgram));
    assert_int_equal(got, 51u);
    assert_int_equal(dgram[4], 15);
    assert_int_equal(tern_load32(&dgram[17]), 1);
    assert_true(serve_until(&a, 0, 2));
    assert_int_equal(tern_netdev_zep_stat(&a.zep, TERN_NETDEV_ZEP_TX_FRAMES), 2);
}

/* Two devices on [::1] with ephemeral ports: frames both ways, FCS stripped, LQI from ZEP. */
static void test_tern_netdev_zep__ipv6_two_devices_exchange_both_ways(void **state)
{
    (void)state;
    start(&a, "[::1]:0", eui_a);
    start(&b, "[::1]:0", eui_b);
    aim(&a, "[::1]", tern_netdev_zep_local_port(&b.zep));
    aim(&b, "[::1]", tern_netdev_zep_local_port(&a.zep));

    static const uint8_t bcast[2] = { 0xff, 0xff };
    uint8_t f1[TERN_IEEE802154_MAX_FRAME_LEN], f2[TERN_IEEE802154_MAX_FRAME_LEN];
    size_t l1 = make_frame(f1, 0x0023, bcast, 2, eui_a, false, 1, "from a, broadcast");
    size_t l2 = make_frame(f2, 0x0023, eui_a, 8, eui_b, false, 2, "from b, to a");
    assert_int_equal(dev_send(&a, f1, l1), (int)l1);
    assert_true(serve_until(&b, 1, 0));
    assert_int_equal(b.rx_len[0], (int)l1);
    assert_memory_equal(b.rx[0], f1, l1);
    assert_int_equal(b.rx_info[0].lqi, 0xff);

    assert_int_equal(dev_send(&b, f2, l2), (int)l2);
    assert_true(serve_until(&a, 1, 1));
    assert_int_equal(a.rx_len[0], (int)l2);
    assert_memory_equal(a.rx[0], f2, l2);
    assert_int_equal(a.tx_complete, 1);
    assert_true(serve_until(&b, 1, 1));
    assert_int_equal(b.tx_complete, 1);

    /* A full-size frame: 125 bytes (127 with the FCS). */
    uint8_t big[TERN_IEEE802154_MAX_FRAME_LEN];
    char payload[128];
    memset(payload, 'x', sizeof(payload));
    payload[TERN_IEEE802154_MAX_FRAME_LEN - 15] = '\0'; /* 15-byte MHR (short dst, ext src) */
    size_t lb = make_frame(big, 0x0023, bcast, 2, eui_a, false, 3, payload);
    assert_int_equal(lb, TERN_IEEE802154_MAX_FRAME_LEN);
    assert_int_equal(dev_send(&a, big, lb), (int)lb);
    assert_true(serve_until(&b, 2, 1));
    assert_int_equal(b.rx_len[1], (int)lb);
    assert_memory_equal(b.rx[1], big, lb);
    /* One byte more is refused. */
    uint8_t too_long[TERN_IEEE802154_MAX_FRAME_LEN + 1] = { 0 };
    tern_iolist_t iol = { too_long, sizeof(too_long) };
    assert_true(serve_until(&a, 1, 2));
    assert_int_equal(a.zep.netdev.driver->send(&a.zep.netdev, &iol, 1), -EMSGSIZE);
    assert_int_equal(tern_netdev_zep_stat(&a.zep, TERN_NETDEV_ZEP_TX_REFUSED), 1);
}

/* A datagram with a corrupted FCS, injected with a plain socket, is dropped and counted. */
static void test_tern_netdev_zep_recv__bad_fcs_dropped_and_counted(void **state)
{
    (void)state;
    (void)peer_open(AF_INET);
    start(&b, "127.0.0.1:0", eui_b);
    static const uint8_t bcast[2] = { 0xff, 0xff };
    uint8_t frame[TERN_IEEE802154_MAX_FRAME_LEN], dgram[TERN_ZEP_MAX_LEN];
    size_t len = make_frame(frame, 0x0023, bcast, 2, eui_a, false, 9, "corrupt");
    peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, true));
    wait_counter(&b, TERN_NETDEV_ZEP_RX_BAD_FCS, 1);
    /* The same datagram with a good FCS passes (and says the path works). */
    peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, false));
    assert_true(serve_until(&b, 1, 0));
    assert_int_equal(b.rx_n, 1);
    assert_memory_equal(b.rx[0], frame, len);
    assert_int_equal(b.rx_info[0].lqi, 0x80);
    assert_int_equal(tern_netdev_zep_stat(&b.zep, TERN_NETDEV_ZEP_RX_BAD_FCS), 1);
    assert_int_equal(tern_netdev_zep_stat(&b.zep, TERN_NETDEV_ZEP_RX_FRAMES), 1);

    /* LQI mode (CC24xx metadata in place of the FCS): CRC-OK clear dropped, set accepted. */
    size_t dlen = make_zep(dgram, 26, frame, len, false);
    dgram[7] = 0; /* LQI mode */
    dgram[dlen - 2] = (uint8_t)-60;
    dgram[dlen - 1] = 0x00;
    peer_inject(&b, dgram, dlen);
    wait_counter(&b, TERN_NETDEV_ZEP_RX_BAD_FCS, 2);
    dgram[dlen - 1] = 0x80 | 0x6c;
    peer_inject(&b, dgram, dlen);
    assert_true(serve_until(&b, 2, 0));
    assert_memory_equal(b.rx[1], frame, len);
    assert_int_equal(b.rx_info[1].rssi, -60);
}

/* Channel, PAN and destination filtering (2006 §7.5.6.2), promiscuous mode, bad datagrams. */
static void test_tern_netdev_zep_recv__filter_and_bad_datagrams(void **state)
{
    (void)state;
    (void)peer_open(AF_INET);
    start(&b, "127.0.0.1:0", eui_b);
    static const uint8_t bcast[2] = { 0xff, 0xff };
    static const uint8_t short_b[2] = { 0x12, 0x34 };
    uint8_t frame[TERN_IEEE802154_MAX_FRAME_LEN], dgram[TERN_ZEP_MAX_LEN + 64];
    size_t len;

    /* Another channel. */
    len = make_frame(frame, 0x0023, bcast, 2, eui_a, false, 1, "ch25");
    peer_inject(&b, dgram, make_zep(dgram, 25, frame, len, false));
    wait_counter(&b, TERN_NETDEV_ZEP_RX_OTHER_CHANNEL, 1);
    /* Another PAN. */
    len = make_frame(frame, 0x0024, bcast, 2, eui_a, false, 2, "pan24");
    peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, false));
    wait_counter(&b, TERN_NETDEV_ZEP_RX_FILTERED, 1);
    /* Another extended destination. */
    len = make_frame(frame, 0x0023, eui_other, 8, eui_a, false, 3, "other");
    peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, false));
    wait_counter(&b, TERN_NETDEV_ZEP_RX_FILTERED, 2);
    /* A short destination that is not ours (we have none yet). */
    len = make_frame(frame, 0x0023, short_b, 2, eui_a, false, 4, "short");
    peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, false));
    wait_counter(&b, TERN_NETDEV_ZEP_RX_FILTERED, 3);

    /* Not ZEP v2 data: version 1, a v2 ack, a "hello" type; malformed; too long. */
    static const uint8_t v1[16 + 5] = { 'E', 'X', 1, 26, 0, 1, 1, 0xff, 0, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 0 };
    peer_inject(&b, v1, sizeof(v1));
    static const uint8_t v2ack[8] = { 'E', 'X', 2, 2, 0, 0, 0, 1 };
    peer_inject(&b, v2ack, sizeof(v2ack));
    uint8_t hello[32] = { 'E', 'X', 2, 0xff };
    peer_inject(&b, hello, sizeof(hello));
    wait_counter(&b, TERN_NETDEV_ZEP_RX_NOT_DATA, 3);
    len = make_frame(frame, 0x0023, bcast, 2, eui_a, false, 5, "cut");
    size_t dlen = make_zep(dgram, 26, frame, len, false);
    peer_inject(&b, dgram, dlen - 1); /* length field disagrees */
    static const uint8_t junk[4] = { 'X', 'E', 2, 1 };
    peer_inject(&b, junk, sizeof(junk));
    wait_counter(&b, TERN_NETDEV_ZEP_RX_MALFORMED, 2);
    memset(dgram, 0, sizeof(dgram));
    peer_inject(&b, dgram, TERN_ZEP_MAX_LEN + 1u);
    wait_counter(&b, TERN_NETDEV_ZEP_RX_TOO_LONG, 1);
    assert_int_equal(b.rx_n, 0);

    /* Accepted: our short address once set, our PAN with broadcast, our EUI-64. */
    assert_int_equal(b.zep.netdev.driver->set(&b.zep.netdev, TERN_NETOPT_ADDRESS, short_b, 2), 2);
    len = make_frame(frame, 0x0023, short_b, 2, eui_a, false, 6, "to short b");
    peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, false));
    len = make_frame(frame, 0xffff, bcast, 2, eui_a, false, 7, "broadcast PAN");
    peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, false));
    len = make_frame(frame, 0x0023, eui_b, 8, eui_a, false, 8, "to eui b");
    peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, false));
    assert_true(serve_until(&b, 3, 0));
    assert_int_equal(b.rx[0][2], 6);
    assert_int_equal(b.rx[1][2], 7);
    assert_int_equal(b.rx[2][2], 8);

    /* Promiscuous: what the filter rejected is delivered; another channel still is not. */
    uint8_t on = 1;
    assert_int_equal(b.zep.netdev.driver->set(&b.zep.netdev, TERN_NETOPT_PROMISCUOUS, &on, 1), 1);
    len = make_frame(frame, 0x0023, eui_other, 8, eui_a, false, 9, "other, promiscuous");
    peer_inject(&b, dgram, make_zep(dgram, 25, frame, len, false));
    peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, false));
    assert_true(serve_until(&b, 4, 0));
    assert_int_equal(b.rx[3][2], 9);
    assert_int_equal(tern_netdev_zep_stat(&b.zep, TERN_NETDEV_ZEP_RX_OTHER_CHANNEL), 2);
    assert_int_equal(tern_netdev_zep_stat(&b.zep, TERN_NETDEV_ZEP_RX_FILTERED), 3);
}

/* A unicast frame with ACK request: the receiver acknowledges over ZEP, the sender completes. */
static void test_tern_netdev_zep__ack_request_acknowledged(void **state)
{
    (void)state;
    start(&a, "127.0.0.1:0", eui_a);
    start(&b, "127.0.0.1:0", eui_b);
    aim(&a, "127.0.0.1", tern_netdev_zep_local_port(&b.zep));
    aim(&b, "127.0.0.1", tern_netdev_zep_local_port(&a.zep));
    tern_netdev_zep_set_ack_timeout(&a.zep, 2000); /* generous: a loaded host must not fail it */
    uint8_t frame[TERN_IEEE802154_MAX_FRAME_LEN];
    size_t len = make_frame(frame, 0x0023, eui_b, 8, eui_a, true, 0x42, "ack me");
    assert_int_equal(dev_send(&a, frame, len), (int)len);
    /* Busy until the outcome is reported. */
    assert_int_equal(dev_send(&a, frame, len), -ENOBUFS);
    assert_true(serve_until(&b, 1, 0));
    assert_true(serve_until(&a, 0, 1));
    assert_int_equal(a.tx_complete, 1);
    assert_int_equal(a.tx_noack, 0);
    assert_int_equal(tern_netdev_zep_stat(&b.zep, TERN_NETDEV_ZEP_ACKS_SENT), 1);
    assert_int_equal(tern_netdev_zep_stat(&a.zep, TERN_NETDEV_ZEP_ACKS_RECEIVED), 1);
    /* The acknowledgment is not handed to the interface. */
    assert_int_equal(a.rx_n, 0);
    /* A broadcast frame (no ACK request, 2006 §7.5.6.4) is not acknowledged. */
    static const uint8_t bcast[2] = { 0xff, 0xff };
    len = make_frame(frame, 0x0023, bcast, 2, eui_a, false, 0x43, "bcast");
    assert_int_equal(dev_send(&a, frame, len), (int)len);
    assert_true(serve_until(&a, 0, 2));
    assert_true(serve_until(&b, 2, 0));
    assert_int_equal(tern_netdev_zep_stat(&b.zep, TERN_NETDEV_ZEP_ACKS_SENT), 1);
}

/* The ACK datagram's bytes, and a silent peer: TX_NOACK after the wait; wait 0: TX_COMPLETE. */
static void test_tern_netdev_zep__ack_golden_and_noack(void **state)
{
    (void)state;
    int port = peer_open(AF_INET);
    start(&a, "127.0.0.1:0", eui_a);
    aim(&a, "127.0.0.1", port);
    /* The peer asks a for an ACK: an Imm-Ack of its sequence number comes back. */
    uint8_t frame[TERN_IEEE802154_MAX_FRAME_LEN], dgram[TERN_ZEP_MAX_LEN];
    size_t len = make_frame(frame, 0x0023, eui_a, 8, eui_other, true, 0x42, "ack?");
    peer_inject(&a, dgram, make_zep(dgram, 26, frame, len, false));
    size_t got = peer_recv(dgram, sizeof(dgram));
    assert_int_equal(got, 32u + 5u);
    assert_int_equal(dgram[4], 26);
    assert_int_equal(dgram[7], 1);
    assert_int_equal(dgram[31], 5);
    /* Imm-Ack (2006 §7.2.2.3): frame control 0x0002, seq 0x42, FCS 0xd4ae low byte first. */
    static const uint8_t golden_ack[5] = { 0x02, 0x00, 0x42, 0xae, 0xd4 };
    assert_memory_equal(&dgram[32], golden_ack, sizeof(golden_ack));
    assert_true(serve_until(&a, 1, 0));

    /* a asks the silent peer: TX_NOACK after the wait, counted. */
    tern_netdev_zep_set_ack_timeout(&a.zep, 30);
    len = make_frame(frame, 0x0023, eui_other, 8, eui_a, true, 0x50, "hello?");
    uint64_t t0 = mono_ms();
    assert_int_equal(dev_send(&a, frame, len), (int)len);
    assert_true(serve_until(&a, 1, 1));
    assert_true(mono_ms() - t0 >= 30u);
    assert_int_equal(a.tx_noack, 1);
    assert_int_equal(a.tx_complete, 0);
    assert_int_equal(tern_netdev_zep_stat(&a.zep, TERN_NETDEV_ZEP_TX_NOACK), 1);
    (void)peer_recv(dgram, sizeof(dgram)); /* the frame did leave */
    /* An ACK for another sequence number does not complete the next one. */
    assert_int_equal(dev_send(&a, frame, len), (int)len);
    static const uint8_t stray_ack[3] = { 0x02, 0x00, 0x51 };
    peer_inject(&a, dgram, make_zep(dgram, 26, stray_ack, sizeof(stray_ack), false));
    assert_true(serve_until(&a, 1, 2));
    assert_int_equal(a.tx_noack, 2);
    assert_int_equal(tern_netdev_zep_stat(&a.zep, TERN_NETDEV_ZEP_RX_FILTERED), 1);
    (void)peer_recv(dgram, sizeof(dgram));

    /* Wait 0 (peers that never acknowledge): TX_COMPLETE once sent. */
    tern_netdev_zep_set_ack_timeout(&a.zep, 0);
    assert_int_equal(dev_send(&a, frame, len), (int)len);
    assert_true(serve_until(&a, 1, 3));
    assert_int_equal(a.tx_complete, 1);
    assert_int_equal(tern_netdev_zep_stat(&a.zep, TERN_NETDEV_ZEP_TX_NOACK), 2);
}

/* An unserved device fills its queue; more frames are dropped, counted and not acknowledged. */
static void test_tern_netdev_zep_recv__queue_full(void **state)
{
    (void)state;
    int port = peer_open(AF_INET);
    start(&b, "127.0.0.1:0", eui_b);
    aim(&b, "127.0.0.1", port);
    uint8_t frame[TERN_IEEE802154_MAX_FRAME_LEN], dgram[TERN_ZEP_MAX_LEN];
    static const uint8_t bcast[2] = { 0xff, 0xff };
    for (unsigned i = 0; i < TERN_NETDEV_ZEP_RX_QUEUE + 2u; i++) {
        size_t len = make_frame(frame, 0x0023, bcast, 2, eui_a, false, (uint8_t)i, "fill");
        peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, false));
    }
    wait_counter(&b, TERN_NETDEV_ZEP_RX_QUEUE_FULL, 2);
    size_t len = make_frame(frame, 0x0023, eui_b, 8, eui_a, true, 0x77, "no room, no ack");
    peer_inject(&b, dgram, make_zep(dgram, 26, frame, len, false));
    wait_counter(&b, TERN_NETDEV_ZEP_RX_QUEUE_FULL, 3);
    assert_int_equal(tern_netdev_zep_stat(&b.zep, TERN_NETDEV_ZEP_ACKS_SENT), 0);
    assert_true(serve_until(&b, TERN_NETDEV_ZEP_RX_QUEUE, 0));
    assert_int_equal(b.rx_n, TERN_NETDEV_ZEP_RX_QUEUE);
    for (unsigned i = 0; i < TERN_NETDEV_ZEP_RX_QUEUE; i++) {
        assert_int_equal(b.rx[i][2], i); /* in order */
    }
    assert_int_equal(tern_netdev_zep_stat(&b.zep, TERN_NETDEV_ZEP_RX_FRAMES), TERN_NETDEV_ZEP_RX_QUEUE);
}

/* The options of the simulated radio, and the radio switched off. */
static void test_tern_netdev_zep_options(void **state)
{
    (void)state;
    (void)peer_open(AF_INET);
    start(&a, "127.0.0.1:0", eui_a);
    tern_netdev_t *dev = &a.zep.netdev;
    uint16_t v16 = 0;
    uint8_t buf[8];
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDR_LEN, &v16, sizeof(v16)), 2);
    assert_int_equal(v16, 2);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_MAX_PDU_SIZE, &v16, sizeof(v16)), 2);
    assert_int_equal(v16, 125);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_DEVICE_TYPE, &v16, sizeof(v16)), 2);
    assert_int_equal(v16, TERN_NETDEV_TYPE_IEEE802154);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_CHANNEL, &v16, sizeof(v16)), 2);
    assert_int_equal(v16, 26);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_NID, &v16, sizeof(v16)), 2);
    assert_int_equal(v16, 0x0023);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDRESS_LONG, buf, sizeof(buf)), 8);
    assert_memory_equal(buf, eui_a, 8);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDRESS_LONG, buf, 7), -EOVERFLOW);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDRESS, buf, sizeof(buf)), 2);
    assert_int_equal(buf[0], 0xff);
    assert_int_equal(buf[1], 0xff);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_STATE, buf, 1), 1);
    assert_int_equal(buf[0], 1);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_MCAST_GROUPS, buf, sizeof(buf)), -ENOTSUP);
    v16 = 27;
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_CHANNEL, &v16, sizeof(v16)), -EINVAL);
    v16 = 10;
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_CHANNEL, &v16, sizeof(v16)), -EINVAL);
    v16 = 0xbeef;
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_NID, &v16, sizeof(v16)), 2);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_NID, &v16, sizeof(v16)), 2);
    assert_int_equal(v16, 0xbeef);
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_ADDRESS_LONG, eui_b, 7), -EINVAL);
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_ADDRESS_LONG, eui_b, 8), 8);
    assert_int_equal(dev->driver->get(dev, TERN_NETOPT_ADDRESS_LONG, buf, sizeof(buf)), 8);
    assert_memory_equal(buf, eui_b, 8);

    /* No remote yet: nothing can be sent. */
    uint8_t frame[TERN_IEEE802154_MAX_FRAME_LEN];
    static const uint8_t bcast[2] = { 0xff, 0xff };
    size_t len = make_frame(frame, 0xbeef, bcast, 2, eui_b, false, 1, "x");
    assert_int_equal(dev_send(&a, frame, len), -ENETDOWN);
    /* Switched off: neither sends nor receives. */
    int port = tern_netdev_zep_local_port(&a.zep);
    aim(&a, "127.0.0.1", port); /* to itself */
    uint8_t off = 0;
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_STATE, &off, 1), 1);
    assert_int_equal(dev_send(&a, frame, len), -ENETDOWN);
    uint8_t dgram[TERN_ZEP_MAX_LEN];
    peer_inject(&a, dgram, make_zep(dgram, 26, frame, len, false));
    wait_counter(&a, TERN_NETDEV_ZEP_RX_RADIO_OFF, 1);
    assert_int_equal(tern_netdev_zep_stat(&a.zep, TERN_NETDEV_ZEP_TX_REFUSED), 2);
    /* An empty frame is refused. */
    uint8_t on = 1;
    assert_int_equal(dev->driver->set(dev, TERN_NETOPT_STATE, &on, 1), 1);
    assert_int_equal(dev->driver->send(dev, NULL, 0), -EINVAL);
    /* Stopped: init again is refused without a socket; stop twice is harmless. */
    tern_netdev_zep_stop(&a.zep);
    tern_netdev_zep_stop(&a.zep);
    assert_int_equal(dev->driver->init(dev), -EBADF);
    assert_int_equal(tern_netdev_zep_local_port(&a.zep), -EBADF);
}

static void test_tern_netdev_zep_parse_endpoint(void **state)
{
    (void)state;
    struct sockaddr_storage ss;
    socklen_t len;
    assert_int_equal(tern_netdev_zep_parse_endpoint("127.0.0.1:17754", &ss, &len), 0);
    assert_int_equal(ss.ss_family, AF_INET);
    assert_int_equal(len, sizeof(struct sockaddr_in));
    assert_int_equal(ntohs(((struct sockaddr_in *)(void *)&ss)->sin_port), 17754);
    assert_int_equal(tern_netdev_zep_parse_endpoint("[::1]:17755", &ss, &len), 0);
    assert_int_equal(ss.ss_family, AF_INET6);
    assert_int_equal(len, sizeof(struct sockaddr_in6));
    assert_int_equal(ntohs(((struct sockaddr_in6 *)(void *)&ss)->sin6_port), 17755);
    assert_int_equal(tern_netdev_zep_parse_endpoint("[fe80::1%1]:0", &ss, &len), 0);
    assert_int_equal(((struct sockaddr_in6 *)(void *)&ss)->sin6_scope_id, 1);
    assert_int_equal(tern_netdev_zep_parse_endpoint("0.0.0.0:65535", &ss, &len), 0);
    static const char *const bad[] = {
        "::1:17754", "[::1]", "[::1]17754", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536",
        "127.0.0.1:-1", "127.0.0.1:1x", "localhost:17754", "[::1:17754", "[127.0.0.1]:1", "",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (tern_netdev_zep_parse_endpoint(bad[i], &ss, &len) != -EINVAL) {
            fail_msg("'%s' accepted", bad[i]);
        }
    }
    /* Families must agree. */
    assert_int_equal(tern_netdev_zep_setup(&a.zep, "127.0.0.1:0", "[::1]:1", eui_a), -EINVAL);
    assert_int_equal(tern_netdev_zep_setup(&a.zep, "127.0.0.1:0", "127.0.0.1:1", eui_a), 0);
    assert_int_equal(tern_netdev_zep_set_remote(&a.zep, "[::1]:1"), -EINVAL);
    /* The default EUI-64: stable, locally administered, unicast, seed-dependent. */
    uint8_t e1[8], e2[8], e3[8];
    tern_netdev_zep_default_eui64("tern:17754", e1);
    tern_netdev_zep_default_eui64("tern:17754", e2);
    tern_netdev_zep_default_eui64("tern:17755", e3);
    assert_memory_equal(e1, e2, 8);
    assert_memory_not_equal(e1, e3, 8);
    assert_int_equal(e1[0] & 0x03u, 0x02u);
    assert_int_equal(e3[0] & 0x03u, 0x02u);
}

/* Two stacks' interfaces over ZEP devices: a frame sent through one arrives at the other. */
static void test_tern_netdev_zep__through_interfaces(void **state)
{
    (void)state;
    static tern_netif_t if_a, if_b;
    static sink_t upper;
    static tern_netreg_entry_t upper_entry;
    assert_int_equal(tern_netdev_zep_setup(&a.zep, "127.0.0.1:0", NULL, eui_a), 0);
    assert_int_equal(tern_netdev_zep_setup(&b.zep, "127.0.0.1:0", NULL, eui_b), 0);
    aim(&a, "127.0.0.1", tern_netdev_zep_local_port(&b.zep));
    aim(&b, "127.0.0.1", tern_netdev_zep_local_port(&a.zep));
    assert_int_equal(tern_netif_add(&stack_a, &if_a, "zep0", &a.zep.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_SIXLOWPAN), 0);
    assert_int_equal(tern_netif_add(&stack_b, &if_b, "zep0", &b.zep.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_SIXLOWPAN), 0);
    tern_stack_add_stats(&stack_b, &b.zep.stats_group);
    sink_add(&stack_b, &upper, "upper", 5, 8, true);
    tern_netreg_entry_init(&upper_entry, TERN_NETREG_DEMUX_CTX_ALL, &upper.module);
    assert_int_equal(tern_netreg_register(&stack_b.netreg, TERN_NETTYPE_SIXLOWPAN, &upper_entry), 0);
    harness_run_until_idle(); /* the interfaces' first turn starts the readers */

    uint8_t frame[TERN_IEEE802154_MAX_FRAME_LEN];
    size_t len = make_frame(frame, 0x0023, eui_b, 8, eui_a, false, 0x10, "through the stack");
    tern_pkt_t *pkt = tern_pktbuf_add(&stack_a.pktbuf, NULL, frame, len, TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    pkt = tern_netif_hdr_build(&stack_a.pktbuf, pkt, NULL, 0, NULL, 0);
    assert_non_null(pkt);
    assert_int_equal(tern_netapi_send(&if_a.module, pkt), 0);
    uint64_t deadline = mono_ms() + WAIT_MS;
    while (__atomic_load_n(&upper.nkept, __ATOMIC_ACQUIRE) == 0 && mono_ms() < deadline) {
        assert_int_equal(tern_executor_run_for(stack_a.exec, 10000), 0);
    }
    harness_run_until_idle();
    assert_int_equal(upper.nkept, 1);
    tern_pkt_t *got = upper.kept[0];
    assert_int_equal(got->size, len);
    assert_memory_equal(got->data, frame, len);
    tern_netif_hdr_t *hdr = tern_netif_hdr_get(got);
    assert_non_null(hdr);
    assert_int_equal(hdr->lqi, 0xff);
    assert_int_equal(tern_count_read(&if_a.counters[TERN_NETIF_TX_PACKETS]), 1);
    assert_int_equal(tern_count_read(&if_b.counters[TERN_NETIF_RX_PACKETS]), 1);
    assert_int_equal(tern_netdev_zep_stat(&a.zep, TERN_NETDEV_ZEP_TX_FRAMES), 1);
    tern_netdev_zep_stop(&a.zep);
    tern_netdev_zep_stop(&b.zep);
    harness_run_until_idle();
    sink_release_kept(&stack_b, &upper);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tern_netdev_zep_send__header_golden_fcs_appended, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netdev_zep__ipv6_two_devices_exchange_both_ways, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netdev_zep_recv__bad_fcs_dropped_and_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netdev_zep_recv__filter_and_bad_datagrams, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netdev_zep__ack_request_acknowledged, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netdev_zep__ack_golden_and_noack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netdev_zep_recv__queue_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netdev_zep_options, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netdev_zep_parse_endpoint, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netdev_zep__through_interfaces, setup, teardown),
    };
    return cmocka_run_group_tests_name(harness_executor_name(), tests, NULL, NULL);
}
