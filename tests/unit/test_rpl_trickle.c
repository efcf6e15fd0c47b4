/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Trickle (RFC 6206 §4.2): interval sequence, transmission points,
 *        suppression, resets, a late owner, parameters.
 *
 * The random source is scripted, so every transmission point is known.
 * Trickle uses no packet buffer; there is nothing to check in teardown.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/rpl/trickle.h"

#define MS 1000u

/* A scripted random source: the listed values, then @ref after forever. */
typedef struct {
    const uint32_t *values;
    size_t count;
    size_t next;
    uint32_t after;
    unsigned calls;
} script_t;

static uint32_t scripted(void *ctx)
{
    script_t *s = ctx;
    s->calls++;
    return (s->next < s->count) ? s->values[s->next++] : s->after;
}

static script_t zeros;
static tern_trickle_t trickle;

static int setup(void **state)
{
    (void)state;
    memset(&zeros, 0, sizeof(zeros));
    memset(&trickle, 0, sizeof(trickle));
    return 0;
}

static void init(uint32_t imin_us, uint8_t doublings, uint8_t k, script_t *random)
{
    tern_trickle_config_t config = { .imin_us = imin_us, .doublings = doublings, .k = k };
    assert_int_equal(tern_trickle_init(&trickle, &config, scripted, random), 0);
}

static void test_tern_trickle_run__interval_doubles_up_to_imax(void **state)
{
    (void)state;
    /* Imin 100 ms, Imax = 8 x Imin; random 0 puts t at I/2 (§4.2 rule 2). */
    init(100 * MS, 3, 1, &zeros);
    assert_int_equal(tern_trickle_next_deadline(&trickle), UINT64_MAX);
    tern_trickle_start(&trickle, 0);
    static const struct {
        uint64_t t, end, interval;
    } expect[] = {
        { 50 * MS, 100 * MS, 100 * MS },     { 200 * MS, 300 * MS, 200 * MS },
        { 500 * MS, 700 * MS, 400 * MS },    { 1100 * MS, 1500 * MS, 800 * MS },
        { 1900 * MS, 2300 * MS, 800 * MS }, /* rule 5: I stays at Imax */
        { 2700 * MS, 3100 * MS, 800 * MS },
    };
    for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
        assert_int_equal(trickle.interval_us, expect[i].interval);
        assert_int_equal(tern_trickle_next_deadline(&trickle), expect[i].t);
        assert_false(tern_trickle_run(&trickle, expect[i].t - 1));
        assert_true(tern_trickle_run(&trickle, expect[i].t));
        assert_int_equal(tern_trickle_next_deadline(&trickle), expect[i].end);
        assert_false(tern_trickle_run(&trickle, expect[i].end - 1));
        assert_false(tern_trickle_run(&trickle, expect[i].end)); /* the next interval begins */
        assert_int_equal(trickle.start_us, expect[i].end);
    }
    assert_int_equal(trickle.counters[TERN_TRICKLE_TRANSMITTED], 6);
    assert_int_equal(trickle.counters[TERN_TRICKLE_SUPPRESSED], 0);
}

static void test_tern_trickle_run__before_deadline__changes_nothing(void **state)
{
    (void)state;
    script_t random = { .after = 7u };
    init(100 * MS, 3, 1, &random);
    tern_trickle_t before = trickle;
    assert_false(tern_trickle_run(&trickle, 1)); /* stopped */
    assert_memory_equal(&trickle, &before, sizeof(trickle));
    tern_trickle_start(&trickle, 0);
    for (int passed = 0; passed < 2; passed++) {
        uint64_t deadline = tern_trickle_next_deadline(&trickle); /* t, then the end of the interval */
        before = trickle;
        unsigned calls = random.calls;
        assert_false(tern_trickle_run(&trickle, deadline - 1));
        assert_memory_equal(&trickle, &before, sizeof(trickle));
        assert_int_equal(random.calls, calls);
        (void)tern_trickle_run(&trickle, deadline);
        assert_true(tern_trickle_next_deadline(&trickle) > deadline);
    }
}

static void test_tern_trickle_start__t_within_half_open_interval(void **state)
{
    (void)state;
    /* An odd Imin: I/2 = 49999, the span [I/2, I) has 50000 points. */
    static const uint32_t values[] = { 0, 1, 49999, 50000, 123456, UINT32_MAX };
    static const uint64_t offsets[] = { 49999, 50000, 99998, 49999, 49999 + 23456, 49999 + (UINT32_MAX % 50000u) };
    script_t s = { values, 6, 0, 0, 0 };
    init(99999, 4, 1, &s);
    for (size_t i = 0; i < 6; i++) {
        uint64_t start = 1000000u * (i + 1);
        tern_trickle_start(&trickle, start);
        assert_int_equal(trickle.t_us - start, offsets[i]);
        assert_true(trickle.t_us >= start + 99999 / 2 && trickle.t_us < start + 99999);
    }

    /* I = 1 us: [0, 1) holds only 0. */
    script_t big = { NULL, 0, 0, UINT32_MAX, 0 };
    init(1, 0, 1, &big);
    tern_trickle_start(&trickle, 77);
    assert_int_equal(tern_trickle_next_deadline(&trickle), 77);
    assert_true(tern_trickle_run(&trickle, 77));
    assert_int_equal(tern_trickle_next_deadline(&trickle), 78);
}

static void test_tern_trickle_start__long_interval_draws_64_bits(void **state)
{
    (void)state;
    /* Imin 2^31 us, 3 doublings: intervals of 2^31 and 2^32 us draw once
     * (spans 2^30, 2^31), those of 2^33 and 2^34 twice (spans 2^32, 2^33):
     * (hi << 32 | lo) mod 2^33 = (hi & 1) << 32 | lo. */
    static const uint32_t values[] = { 0, 0, 0, 0, 3, 5 };
    script_t s = { values, 6, 0, 0, 0 };
    init(0x80000000u, 3, 1, &s);
    tern_trickle_start(&trickle, 0);
    uint64_t now = 0;
    for (int i = 0; i < 3; i++) {
        now = trickle.start_us + trickle.interval_us;
        (void)tern_trickle_run(&trickle, now);
    }
    assert_int_equal(trickle.interval_us, UINT64_C(1) << 34);
    assert_int_equal(s.calls, 6);
    assert_int_equal(trickle.t_us - trickle.start_us, (UINT64_C(1) << 33) + (UINT64_C(1) << 32) + 5);
}

static void test_tern_trickle_run__suppressed_when_c_reaches_k(void **state)
{
    (void)state;
    init(100 * MS, 3, 2, &zeros);
    tern_trickle_start(&trickle, 0);
    tern_trickle_consistent(&trickle);
    tern_trickle_consistent(&trickle);
    assert_int_equal(trickle.counter, 2);
    assert_false(tern_trickle_run(&trickle, 50 * MS)); /* rule 4: c = k */
    assert_int_equal(trickle.counters[TERN_TRICKLE_SUPPRESSED], 1);
    /* Heard after t: still counted, but the next interval starts from c = 0 (rule 2). */
    tern_trickle_consistent(&trickle);
    assert_false(tern_trickle_run(&trickle, 100 * MS));
    assert_int_equal(trickle.counter, 0);
    tern_trickle_consistent(&trickle); /* c = 1 < k */
    assert_true(tern_trickle_run(&trickle, 200 * MS));
    assert_int_equal(trickle.counters[TERN_TRICKLE_TRANSMITTED], 1);
    /* Suppression does not stop the doubling (rule 5). */
    assert_false(tern_trickle_run(&trickle, 300 * MS));
    assert_int_equal(trickle.interval_us, 400 * MS);
}

static void test_tern_trickle_run__infinite_k_never_suppresses(void **state)
{
    (void)state;
    init(100 * MS, 3, TERN_TRICKLE_K_INFINITE, &zeros);
    tern_trickle_start(&trickle, 0);
    for (int i = 0; i < 1000; i++) {
        tern_trickle_consistent(&trickle);
    }
    assert_true(tern_trickle_run(&trickle, 50 * MS));

    /* 0xFF is a finite k. */
    init(100 * MS, 3, 0xFF, &zeros);
    tern_trickle_start(&trickle, 0);
    for (int i = 0; i < 255; i++) {
        tern_trickle_consistent(&trickle);
    }
    assert_false(tern_trickle_run(&trickle, 50 * MS));
}

static void test_tern_trickle_inconsistent__resets_only_above_imin(void **state)
{
    (void)state;
    init(100 * MS, 3, 1, &zeros);
    tern_trickle_start(&trickle, 0);
    (void)tern_trickle_run(&trickle, 100 * MS);
    (void)tern_trickle_run(&trickle, 300 * MS);
    assert_int_equal(trickle.interval_us, 400 * MS);
    tern_trickle_consistent(&trickle);

    /* I > Imin: I = Imin, a new interval begins now, c = 0 (rule 6). */
    assert_true(tern_trickle_inconsistent(&trickle, 350 * MS));
    assert_int_equal(trickle.interval_us, 100 * MS);
    assert_int_equal(trickle.start_us, 350 * MS);
    assert_int_equal(trickle.counter, 0);
    assert_int_equal(tern_trickle_next_deadline(&trickle), 400 * MS);
    assert_int_equal(trickle.counters[TERN_TRICKLE_RESETS], 1);

    /* I == Imin: nothing happens, not even to c. */
    tern_trickle_consistent(&trickle);
    assert_false(tern_trickle_inconsistent(&trickle, 380 * MS));
    assert_int_equal(trickle.start_us, 350 * MS);
    assert_int_equal(trickle.counter, 1);
    assert_int_equal(tern_trickle_next_deadline(&trickle), 400 * MS);
    assert_int_equal(trickle.counters[TERN_TRICKLE_RESETS], 1);
}

static void test_tern_trickle_reset__restarts_even_at_imin(void **state)
{
    (void)state;
    init(100 * MS, 3, 1, &zeros);
    tern_trickle_start(&trickle, 0);
    tern_trickle_consistent(&trickle);
    tern_trickle_reset(&trickle, 30 * MS);
    assert_int_equal(trickle.interval_us, 100 * MS);
    assert_int_equal(trickle.start_us, 30 * MS);
    assert_int_equal(trickle.counter, 0);
    assert_int_equal(tern_trickle_next_deadline(&trickle), 80 * MS);
    assert_false(tern_trickle_run(&trickle, 50 * MS)); /* the old point is gone */
    assert_true(tern_trickle_run(&trickle, 80 * MS));
}

static void test_tern_trickle_stop__no_deadline_until_restarted(void **state)
{
    (void)state;
    init(100 * MS, 3, 1, &zeros);
    tern_trickle_start(&trickle, 0);
    tern_trickle_stop(&trickle);
    assert_int_equal(tern_trickle_next_deadline(&trickle), UINT64_MAX);
    assert_false(tern_trickle_run(&trickle, 10000 * MS));
    tern_trickle_consistent(&trickle);
    assert_int_equal(trickle.counter, 0);
    /* An inconsistency starts a stopped timer. */
    assert_true(tern_trickle_inconsistent(&trickle, 20000 * MS));
    assert_int_equal(tern_trickle_next_deadline(&trickle), 20050 * MS);
}

static void test_tern_trickle_run__late_owner_skips_missed_intervals(void **state)
{
    (void)state;
    init(100 * MS, 2, 1, &zeros); /* Imax 400 ms */
    tern_trickle_start(&trickle, 0);
    /* 10 s late: the points at 50 and 200 ms pass (one transmission); the
     * intervals [300, 700) ... [9500, 9900) ms are skipped. */
    assert_true(tern_trickle_run(&trickle, 10000 * MS));
    assert_int_equal(trickle.counters[TERN_TRICKLE_TRANSMITTED], 1);
    assert_int_equal(trickle.counters[TERN_TRICKLE_SKIPPED], 24);
    assert_int_equal(trickle.interval_us, 400 * MS);
    assert_int_equal(trickle.start_us, 9900 * MS);
    assert_int_equal(tern_trickle_next_deadline(&trickle), 10100 * MS);
    assert_false(tern_trickle_run(&trickle, 10000 * MS));
}

static void test_tern_trickle_run__end_of_time_terminates(void **state)
{
    (void)state;
    init(100, 1, 1, &zeros);
    tern_trickle_start(&trickle, UINT64_MAX - 60);
    assert_int_equal(tern_trickle_next_deadline(&trickle), UINT64_MAX - 10);
    assert_true(tern_trickle_run(&trickle, UINT64_MAX));
    assert_int_equal(tern_trickle_next_deadline(&trickle), UINT64_MAX);
    assert_false(tern_trickle_run(&trickle, UINT64_MAX));
}

static void test_tern_trickle_init__invalid_parameters(void **state)
{
    (void)state;
    tern_trickle_config_t config = { .imin_us = 0, .doublings = 1, .k = 1 };
    assert_int_equal(tern_trickle_init(&trickle, &config, scripted, &zeros), -EINVAL);
    config.imin_us = 1;
    config.doublings = TERN_TRICKLE_DOUBLINGS_MAX + 1;
    assert_int_equal(tern_trickle_init(&trickle, &config, scripted, &zeros), -EINVAL);
    config.doublings = TERN_TRICKLE_DOUBLINGS_MAX;
    assert_int_equal(tern_trickle_init(&trickle, &config, NULL, NULL), -EINVAL);
    config.imin_us = UINT32_MAX;
    assert_int_equal(tern_trickle_init(&trickle, &config, scripted, &zeros), 0);
    assert_int_equal(tern_trickle_imax_us(&config), (uint64_t)UINT32_MAX << 32);
}

static void test_tern_trickle_config_from_dio__rfc6550_values(void **state)
{
    (void)state;
    tern_trickle_config_t config;
    /* RFC 6550 §17 defaults: 2^3 ms, 20 doublings (Imax 2.3 h), k 10. */
    assert_int_equal(tern_trickle_config_from_dio(&config, 3, 20, 10), 0);
    assert_int_equal(config.imin_us, 8000);
    assert_int_equal(config.doublings, 20);
    assert_int_equal(config.k, 10);
    assert_int_equal(tern_trickle_imax_us(&config), UINT64_C(8388608000));
    assert_int_equal(tern_trickle_config_from_dio(&config, 22, 40, 0), 0);
    assert_int_equal(config.imin_us, UINT32_C(4194304000));
    assert_int_equal(config.doublings, TERN_TRICKLE_DOUBLINGS_MAX);
    assert_int_equal(config.k, TERN_TRICKLE_K_INFINITE);
    assert_int_equal(tern_trickle_config_from_dio(&config, 23, 20, 10), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_tern_trickle_run__interval_doubles_up_to_imax, setup),
        cmocka_unit_test_setup(test_tern_trickle_run__before_deadline__changes_nothing, setup),
        cmocka_unit_test_setup(test_tern_trickle_start__t_within_half_open_interval, setup),
        cmocka_unit_test_setup(test_tern_trickle_start__long_interval_draws_64_bits, setup),
        cmocka_unit_test_setup(test_tern_trickle_run__suppressed_when_c_reaches_k, setup),
        cmocka_unit_test_setup(test_tern_trickle_run__infinite_k_never_suppresses, setup),
        cmocka_unit_test_setup(test_tern_trickle_inconsistent__resets_only_above_imin, setup),
        cmocka_unit_test_setup(test_tern_trickle_reset__restarts_even_at_imin, setup),
        cmocka_unit_test_setup(test_tern_trickle_stop__no_deadline_until_restarted, setup),
        cmocka_unit_test_setup(test_tern_trickle_run__late_owner_skips_missed_intervals, setup),
        cmocka_unit_test_setup(test_tern_trickle_run__end_of_time_terminates, setup),
        cmocka_unit_test_setup(test_tern_trickle_init__invalid_parameters, setup),
        cmocka_unit_test_setup(test_tern_trickle_config_from_dio__rfc6550_values, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
