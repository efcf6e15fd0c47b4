/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The interface built with the footprint images' options off
 *        (include/tern/config.h): without its software CSMA-CA
 *        (TERN_CONF_NETIF_SW_CSMA 0; IEEE 802.15.4-2006 §7.5.1.4, §7.5.6.4.3),
 *        the capture hook (TERN_CONF_NETIF_CAPTURE 0) and the TX status hook
 *        (TERN_CONF_NETIF_TX_STATUS 0): outcomes reach the sender through its
 *        NETERR report; and without links whose device's send() is the
 *        outcome (TERN_CONF_NETIF_UNCONFIRMED 0: tern_netif_add() refuses
 *        them). src/core/netif.c is compiled into this test with all at 0
 *        (tests/unit/CMakeLists.txt), the rest of the stack as usual.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/link/ieee802154.h"
#include "tern/netapi.h"
#include "tern/netdev/ieee802154_pib.h"
#include "tern/netdev/test.h"
#include "tern/netif.h"
#include "tern/netif_hdr.h"
#include "tern/port/loop.h"
#include "tern/stack.h"

_Static_assert(TERN_CONF_NETIF_SW_CSMA == 0 && TERN_CONF_NETIF_CAPTURE == 0 && TERN_CONF_NETIF_TX_STATUS == 0,
               "built with netif.c's options off");

#define SEC 1000000u
#define PAN 0xabcdu

/** A radio on the test device whose every frame has a scripted outcome. */
typedef struct {
    tern_ieee802154_pib_t pib;
    bool hw_csma;                /**< answers TERN_NETOPT_HW_CSMA_RETRIES with 1 */
    bool busy;                   /**< send() answers -ENOBUFS (an earlier frame still in it) */
    tern_netdev_event_t outcome; /**< otherwise reported from inside send() */
    unsigned sends;
} scripted_radio_t;

/** Outcomes of the packets sent, from their NETERR reports. */
typedef struct {
    int status[4];
    unsigned n;
} status_log_t;

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_stack_t stack;
static tern_netdev_test_t dev;
static scripted_radio_t radio;
static tern_netif_t netif;
static tern_ieee802154_link_t mac;
static status_log_t log_st;

static int scripted_get(tern_netdev_test_t *d, tern_netopt_t opt, void *value, size_t max_len)
{
    scripted_radio_t *r = d->state;
    if (opt == TERN_NETOPT_HW_CSMA_RETRIES && r->hw_csma && max_len >= 1u) {
        *(uint8_t *)value = 1;
        return 1;
    }
    return tern_ieee802154_pib_get(&r->pib, opt, value, max_len);
}

static int scripted_set(tern_netdev_test_t *d, tern_netopt_t opt, const void *value, size_t len)
{
    scripted_radio_t *r = d->state;
    return tern_ieee802154_pib_set(&r->pib, opt, value, len);
}

static int scripted_send(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    scripted_radio_t *r = d->state;
    r->sends++;
    if (r->busy) {
        return -ENOBUFS;
    }
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iol[i].len;
    }
    tern_netdev_report(&d->netdev, r->outcome);
    return (int)len;
}

static void neterr_report(void *ctx, int err)
{
    status_log_t *l = ctx;
    assert_true(l->n < 4u);
    l->status[l->n++] = err;
}

/** The scripted radio (@p hw_csma: it declares CSMA-CA and retries) on the test device. */
static void radio_setup(bool hw_csma)
{
    static const uint8_t addr[8] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x79 };
    memset(&radio, 0, sizeof(radio));
    tern_ieee802154_pib_init(&radio.pib, addr, PAN, 26);
    radio.hw_csma = hw_csma;
    tern_netdev_test_init(&dev);
    dev.state = &radio;
    dev.get_cb = scripted_get;
    dev.set_cb = scripted_set;
    dev.send_cb = scripted_send;
    dev.device_type = TERN_NETDEV_TYPE_IEEE802154;
}

/** An 802.15.4 interface over a radio doing CSMA-CA. */
static void netif_setup(void)
{
    radio_setup(true);
    assert_int_equal(tern_ieee802154_netif_add(&stack, &netif, &mac, "wpan0", &dev.netdev), 0);
    assert_true(netif.tx_hw_csma);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
}

/** Send one unicast frame (extended destination, an ACK asked), its outcome reported into log_st. */
static void send_one(void)
{
    static const uint8_t dst[8] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x71 };
    const tern_neterr_report_t report = { .report = neterr_report, .ctx = &log_st };
    tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, &report, sizeof(report), TERN_NETTYPE_NETERR);
    assert_non_null(pkt);
    pkt = tern_pktbuf_add(&stack.pktbuf, pkt, "abc", 3, TERN_NETTYPE_SIXLOWPAN);
    assert_non_null(pkt);
    pkt = tern_netif_hdr_build(&stack.pktbuf, pkt, NULL, 0, dst, 8);
    assert_non_null(pkt);
    assert_int_equal(tern_netapi_send(&netif.module, pkt), 0);
}

static void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

static int setup(void **state)
{
    (void)state;
    memset(&log_st, 0, sizeof(log_st));
    memset(&netif, 0, sizeof(netif));
    tern_vclock_init(&clock_v, SEC);
    tern_loop_init(&loop, &clock_v.base);
    assert_int_equal(tern_stack_init(&stack, "hw", &loop.base), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    run_for(3 * SEC);
    assert_null(netif.tx_frame);
    assert_int_equal(netif.tx_count, 0);
    assert_false(tern_timer_is_armed(&netif.tx_timer));
    harness_assert_pktbuf_clean(&stack.pktbuf);
    tern_executor_stop(&loop.base);
    return 0;
}

static void test_netif_add__device_without_hw_csma__enotsup(void **state)
{
    (void)state;
    /* Nothing in this build would do the channel access the standard asks for. */
    radio_setup(false);
    assert_int_equal(tern_ieee802154_netif_add(&stack, &netif, &mac, "wpan0", &dev.netdev), -ENOTSUP);
    assert_null(stack.netifs);
}

/* No link without a transmission policy (TERN_CONF_NETIF_UNCONFIRMED 0): the
 * raw link is refused over any device, one doing CSMA-CA too, and the device
 * is left as it was. */
static void test_netif_add__link_without_tx_policy__not_built__enotsup(void **state)
{
    (void)state;
    for (int hw_csma = 0; hw_csma <= 1; hw_csma++) {
        radio_setup(hw_csma != 0);
        assert_int_equal(tern_netif_add(&stack, &netif, "raw0", &dev.netdev, &tern_netif_link_raw, TERN_NETTYPE_TEST),
                         -ENOTSUP);
        assert_null(stack.netifs);
        assert_null(dev.netdev.event_cb);
    }
    /* The same device under the IEEE 802.15.4 link is taken. */
    netif_setup();
    assert_ptr_equal(stack.netifs, &netif);
}

static void test_send__hw_csma_device__outcome_final(void **state)
{
    (void)state;
    netif_setup();
    const uint64_t start = clock_v.now;
    static const tern_netdev_event_t outcomes[3] = { TERN_NETDEV_EVENT_TX_COMPLETE, TERN_NETDEV_EVENT_TX_NOACK,
                                                     TERN_NETDEV_EVENT_TX_MEDIUM_BUSY };
    for (unsigned k = 0; k < 3; k++) {
        radio.outcome = outcomes[k];
        send_one();
        /* Handed over on the interface's turn: no backoff, no time passes. */
        assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
        assert_int_equal(radio.sends, k + 1u);
        assert_int_equal(log_st.n, k + 1u);
        assert_false(tern_timer_is_armed(&netif.tx_timer));
    }
    assert_int_equal(clock_v.now, start);
    assert_int_equal(log_st.status[0], 0);
    assert_int_equal(log_st.status[1], -EHOSTUNREACH);
    assert_int_equal(log_st.status[2], -EBUSY);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_PACKETS]), 1);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_NOACK]), 1);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_CHANNEL_BUSY]), 1);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_RETRIES]), 0);
}

static void test_send__device_still_busy__asked_again_after_2_be_periods_then_ebusy(void **state)
{
    (void)state;
    netif_setup();
    radio.busy = true;
    send_one();
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_int_equal(radio.sends, 1);
    assert_true(tern_timer_is_armed(&netif.tx_timer));
    /* BE went from macMinBE to macMinBE + 1: asked again after 2^BE periods, not before. */
    const uint64_t wait = (uint64_t)TERN_IEEE802154_UNIT_BACKOFF_US << (TERN_IEEE802154_MIN_BE + 1u);
    run_for(wait - 1u);
    assert_int_equal(radio.sends, 1);
    run_for(1u);
    assert_int_equal(radio.sends, 2);
    /* Then as a busy channel: macMaxCSMABackoffs + 1 attempts, then -EBUSY. */
    run_for(1 * SEC);
    assert_int_equal(radio.sends, TERN_IEEE802154_MAX_CSMA_BACKOFFS + 1u);
    assert_int_equal(log_st.n, 1);
    assert_int_equal(log_st.status[0], -EBUSY);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_CHANNEL_BUSY]), 1);
    assert_int_equal(tern_count_read(&netif.counters[TERN_NETIF_TX_PACKETS]), 0);
}

static void capture(void *ctx, const tern_iolist_t *iol, size_t count, bool tx)
{
    (void)iol;
    (void)count;
    (void)tx;
    (*(unsigned *)ctx)++;
}

static void status_hook(void *ctx, const tern_netif_t *n, const tern_netif_hdr_t *hdr, int status, unsigned transmissions)
{
    (void)n;
    (void)hdr;
    (void)status;
    (void)transmissions;
    (*(unsigned *)ctx)++;
}

static void test_tx_status__not_built__option_enotsup_outcome_to_neterr(void **state)
{
    (void)state;
    netif_setup();
    static unsigned hooked;
    hooked = 0;
    const tern_netif_tx_status_t hook = { .fn = status_hook, .ctx = &hooked };
    assert_int_equal(tern_netapi_set(&netif.module, TERN_NETOPT_TX_STATUS, 0, &hook, sizeof(hook)), -ENOTSUP);
    tern_netif_tx_status_t got;
    assert_int_equal(tern_netapi_get(&netif.module, TERN_NETOPT_TX_STATUS, 0, &got, sizeof(got)), -ENOTSUP);
    assert_null(netif.tx_status);
    radio.outcome = TERN_NETDEV_EVENT_TX_NOACK;
    send_one();
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_int_equal(radio.sends, 1);
    assert_int_equal(log_st.n, 1);
    assert_int_equal(log_st.status[0], -EHOSTUNREACH);
    assert_int_equal(hooked, 0);
}

static void test_capture__not_built__option_enotsup_frames_go_out(void **state)
{
    (void)state;
    netif_setup();
    static unsigned captured;
    captured = 0;
    const tern_netif_capture_t cap = { .fn = capture, .ctx = &captured };
    assert_int_equal(tern_netapi_set(&netif.module, TERN_NETOPT_CAPTURE, 0, &cap, sizeof(cap)), -ENOTSUP);
    tern_netif_capture_t got;
    assert_int_equal(tern_netapi_get(&netif.module, TERN_NETOPT_CAPTURE, 0, &got, sizeof(got)), -ENOTSUP);
    assert_null(netif.capture);
    radio.outcome = TERN_NETDEV_EVENT_TX_COMPLETE;
    send_one();
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_int_equal(radio.sends, 1);
    assert_int_equal(log_st.n, 1);
    assert_int_equal(log_st.status[0], 0);
    assert_int_equal(captured, 0);
}

static const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    T(test_netif_add__device_without_hw_csma__enotsup),
    T(test_netif_add__link_without_tx_policy__not_built__enotsup),
    T(test_send__hw_csma_device__outcome_final),
    T(test_send__device_still_busy__asked_again_after_2_be_periods_then_ebusy),
    T(test_capture__not_built__option_enotsup_frames_go_out),
    T(test_tx_status__not_built__option_enotsup_outcome_to_neterr),
#undef T
};

int main(void)
{
    return cmocka_run_group_tests(tests, NULL, NULL);
}
