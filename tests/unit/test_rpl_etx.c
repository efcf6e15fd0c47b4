/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Link ETX estimator: initial value, bootstrap and convergence,
 *        penalties, ignored outcomes, bounds, table replacement.
 *
 * Values are worked out by hand from the defaults (initial 256, smoothing
 * 10, penalty 12). The estimator uses no packet buffer; there is nothing to
 * check in teardown.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/rpl/etx.h"

_Static_assert(TERN_CONF_RPL_ETX_INITIAL == 256 && TERN_CONF_RPL_ETX_SMOOTHING == 10 &&
                   TERN_CONF_RPL_ETX_NOACK_PENALTY == 12 && TERN_CONF_RPL_ETX_NEIGHBORS == 16,
               "the expected values below assume the default configuration");

static tern_rpl_etx_t etx;

static int setup(void **state)
{
    (void)state;
    memset(&etx, 0xA5, sizeof(etx));
    tern_rpl_etx_init(&etx);
    return 0;
}

static const uint8_t A[8] = { 2, 0, 0, 0, 0, 0, 0, 0xA };
static const uint8_t B[2] = { 0, 0xB };

static void test_tern_rpl_etx_get__unknown_neighbor_has_initial_value(void **state)
{
    (void)state;
    assert_int_equal(tern_rpl_etx_get(&etx, A, sizeof(A)), 256);
    assert_null(tern_rpl_etx_lookup(&etx, A, sizeof(A)));
    /* The same bytes with another length are another neighbor. */
    assert_int_equal(tern_rpl_etx_update(&etx, A, 2, 0, 3), 320);
    assert_null(tern_rpl_etx_lookup(&etx, A, sizeof(A)));
    assert_non_null(tern_rpl_etx_lookup(&etx, A, 2));
}

static void test_tern_rpl_etx_update__bootstrap_then_converges_exactly(void **state)
{
    (void)state;
    /* First samples average with the initial guess: weights 1/2, 1/3, 1/4. */
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), 0, 1), 192); /* 256 - 128/2 */
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), 0, 1), 170); /* 192 - ceil(64/3) */
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), 0, 1), 159); /* 170 - ceil(42/4) */
    int value = 0;
    for (int i = 0; i < 40; i++) {
        value = tern_rpl_etx_update(&etx, A, sizeof(A), 0, 1);
    }
    assert_int_equal(value, 128); /* exactly ETX 1, no integer stall */
    const tern_rpl_etx_entry_t *e = tern_rpl_etx_lookup(&etx, A, sizeof(A));
    assert_non_null(e);
    assert_int_equal(e->samples, 43);
    assert_int_equal(e->etx, 128);

    /* A link needing 3 transmissions per frame converges to ETX 3. */
    for (int i = 0; i < 80; i++) {
        value = tern_rpl_etx_update(&etx, B, sizeof(B), 0, 3);
        assert_true(value >= 256 && value <= 384);
    }
    assert_int_equal(value, 384);
    assert_int_equal(etx.counters[TERN_RPL_ETX_SAMPLES], 123);
}

static void test_tern_rpl_etx_update__noack_penalty(void **state)
{
    (void)state;
    for (int i = 0; i < 40; i++) {
        (void)tern_rpl_etx_update(&etx, A, sizeof(A), 0, 1);
    }
    /* A lost frame counts as 12 transmissions (1536): +ceil(1408/10) ... */
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), -EHOSTUNREACH, 4), 269);
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), -EHOSTUNREACH, 4), 396);
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), -EHOSTUNREACH, 4), 510);
    /* ... and the fourth takes a perfect link above MAX_LINK_METRIC (512). */
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), -EHOSTUNREACH, 4), 613);
    assert_int_equal(etx.counters[TERN_RPL_ETX_NOACK], 4);
    /* More transmissions than the penalty count as they are: 20 x 128. */
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), -EHOSTUNREACH, 20), 613 + 195);
    /* Success again brings it back down. */
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), 0, 1), 808 - 68);
}

static void test_tern_rpl_etx_update__outcomes_without_link_information_ignored(void **state)
{
    (void)state;
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), -EBUSY, 0), 0);
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), -EIO, 1), 0);
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), -ETIMEDOUT, 1), 0);
    assert_null(tern_rpl_etx_lookup(&etx, A, sizeof(A)));
    assert_int_equal(etx.counters[TERN_RPL_ETX_IGNORED], 3);
    assert_int_equal(etx.counters[TERN_RPL_ETX_SAMPLES], 0);

    /* Through the interface header: only unicast frames with a destination count. */
    tern_netif_hdr_t hdr;
    memset(&hdr, 0, sizeof(hdr));
    memcpy(hdr.dst, A, sizeof(A));
    hdr.dst_len = sizeof(A);
    hdr.flags = TERN_NETIF_HDR_FLAG_BROADCAST;
    assert_int_equal(tern_rpl_etx_report(&etx, &hdr, 0, 1), 0);
    hdr.flags = TERN_NETIF_HDR_FLAG_MULTICAST;
    assert_int_equal(tern_rpl_etx_report(&etx, &hdr, 0, 1), 0);
    hdr.flags = 0;
    hdr.dst_len = 0;
    assert_int_equal(tern_rpl_etx_report(&etx, &hdr, 0, 1), 0);
    assert_int_equal(etx.counters[TERN_RPL_ETX_IGNORED], 6);
    assert_null(tern_rpl_etx_lookup(&etx, A, sizeof(A)));
    hdr.dst_len = sizeof(A);
    hdr.flags = TERN_NETIF_HDR_FLAG_MORE_DATA;
    assert_int_equal(tern_rpl_etx_report(&etx, &hdr, 0, 2), 256);
    assert_int_equal(tern_rpl_etx_report(&etx, &hdr, -EHOSTUNREACH, 4), 256 + 427);
    assert_int_equal(tern_rpl_etx_get(&etx, A, sizeof(A)), 683);
}

static void test_tern_rpl_etx_update__estimate_stays_in_bounds(void **state)
{
    (void)state;
    /* 0 transmissions on success counts as 1: never below ETX 1. */
    for (int i = 0; i < 60; i++) {
        int value = tern_rpl_etx_update(&etx, A, sizeof(A), 0, 0);
        assert_true(value >= (int)TERN_RPL_ETX_MIN && value <= 256);
    }
    assert_int_equal(tern_rpl_etx_get(&etx, A, sizeof(A)), TERN_RPL_ETX_MIN);
    /* Absurd transmission counts are capped at 255. */
    for (int i = 0; i < 200; i++) {
        int value = tern_rpl_etx_update(&etx, A, sizeof(A), -EHOSTUNREACH, UINT32_MAX);
        assert_true(value > 0 && value <= (int)TERN_RPL_ETX_MAX);
    }
    assert_int_equal(tern_rpl_etx_get(&etx, A, sizeof(A)), TERN_RPL_ETX_MAX);
    /* samples saturates */
    assert_int_equal(tern_rpl_etx_lookup(&etx, A, sizeof(A))->samples, 255);
}

static void test_tern_rpl_etx_update__full_table_replaces_least_recently_updated(void **state)
{
    (void)state;
    etx.stamp = UINT32_MAX - 5; /* the LRU order survives the stamp's wrap-around */
    uint8_t addr[2] = { 0, 0 };
    for (uint8_t i = 1; i <= TERN_CONF_RPL_ETX_NEIGHBORS; i++) {
        addr[1] = i;
        assert_int_equal(tern_rpl_etx_update(&etx, addr, 2, 0, 1), 192);
    }
    addr[1] = 1;
    assert_int_equal(tern_rpl_etx_update(&etx, addr, 2, 0, 1), 170); /* 1 is fresh again */
    assert_int_equal(etx.counters[TERN_RPL_ETX_EVICTED], 0);

    addr[1] = 100;
    assert_int_equal(tern_rpl_etx_update(&etx, addr, 2, 0, 1), 192); /* starts from the initial guess */
    assert_int_equal(etx.counters[TERN_RPL_ETX_EVICTED], 1);
    addr[1] = 2; /* the least recently updated went */
    assert_null(tern_rpl_etx_lookup(&etx, addr, 2));
    assert_int_equal(tern_rpl_etx_get(&etx, addr, 2), 256);
    addr[1] = 1;
    assert_int_equal(tern_rpl_etx_get(&etx, addr, 2), 170);
    addr[1] = 3;
    assert_int_equal(tern_rpl_etx_get(&etx, addr, 2), 192);

    /* Next to go: 3, then 4. */
    addr[1] = 101;
    (void)tern_rpl_etx_update(&etx, addr, 2, 0, 1);
    addr[1] = 3;
    assert_null(tern_rpl_etx_lookup(&etx, addr, 2));
    addr[1] = 4;
    assert_non_null(tern_rpl_etx_lookup(&etx, addr, 2));
    assert_int_equal(etx.counters[TERN_RPL_ETX_EVICTED], 2);
}

static void test_tern_rpl_etx_remove__back_to_initial(void **state)
{
    (void)state;
    (void)tern_rpl_etx_update(&etx, A, sizeof(A), 0, 1);
    (void)tern_rpl_etx_update(&etx, B, sizeof(B), 0, 1);
    tern_rpl_etx_remove(&etx, A, sizeof(A));
    assert_null(tern_rpl_etx_lookup(&etx, A, sizeof(A)));
    assert_int_equal(tern_rpl_etx_get(&etx, A, sizeof(A)), 256);
    assert_int_equal(tern_rpl_etx_get(&etx, B, sizeof(B)), 192);
    tern_rpl_etx_remove(&etx, A, sizeof(A)); /* absent: nothing happens */
    assert_int_equal(tern_rpl_etx_update(&etx, A, sizeof(A), 0, 1), 192);
}

static void test_tern_rpl_etx_update__invalid_address(void **state)
{
    (void)state;
    uint8_t long_addr[TERN_CONF_L2ADDR_MAX + 1] = { 0 };
    assert_int_equal(tern_rpl_etx_update(&etx, A, 0, 0, 1), -EINVAL);
    assert_int_equal(tern_rpl_etx_update(&etx, long_addr, sizeof(long_addr), 0, 1), -EINVAL);
    assert_int_equal(tern_rpl_etx_update(&etx, NULL, 2, 0, 1), -EINVAL);
    assert_int_equal(tern_rpl_etx_get(&etx, long_addr, sizeof(long_addr)), 256);
    assert_null(tern_rpl_etx_lookup(&etx, A, 0));
    tern_rpl_etx_remove(&etx, NULL, 0);
    assert_int_equal(etx.counters[TERN_RPL_ETX_SAMPLES], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_tern_rpl_etx_get__unknown_neighbor_has_initial_value, setup),
        cmocka_unit_test_setup(test_tern_rpl_etx_update__bootstrap_then_converges_exactly, setup),
        cmocka_unit_test_setup(test_tern_rpl_etx_update__noack_penalty, setup),
        cmocka_unit_test_setup(test_tern_rpl_etx_update__outcomes_without_link_information_ignored, setup),
        cmocka_unit_test_setup(test_tern_rpl_etx_update__estimate_stays_in_bounds, setup),
        cmocka_unit_test_setup(test_tern_rpl_etx_update__full_table_replaces_least_recently_updated, setup),
        cmocka_unit_test_setup(test_tern_rpl_etx_remove__back_to_initial, setup),
        cmocka_unit_test_setup(test_tern_rpl_etx_update__invalid_address, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
