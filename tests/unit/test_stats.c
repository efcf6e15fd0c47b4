/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Counters (tern/stats.h): 32-bit ones wrap, 16-bit ones
 *        (TERN_CONF_STATS_COUNTER_BITS 16) stop at their maximum; increments
 *        from several threads are never lost.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>

#include <cmocka.h>

#include "tern/stats.h"

static void test_tern_counter_t__width_is_the_configured_one(void **state)
{
    (void)state;
    assert_int_equal(sizeof(tern_counter_t) * 8u, TERN_CONF_STATS_COUNTER_BITS);
    assert_true((uint64_t)TERN_COUNTER_MAX == (UINT64_C(1) << TERN_CONF_STATS_COUNTER_BITS) - 1u);
}

static void test_tern_count__counts_and_adds(void **state)
{
    (void)state;
    tern_counter_t c = 0;
    tern_count(&c);
    tern_count(&c);
    assert_int_equal(tern_count_read(&c), 2);
    tern_count_add(&c, 40);
    assert_int_equal(tern_count_read(&c), 42);
    tern_count_add(&c, 0);
    assert_int_equal(tern_count_read(&c), 42);
}

static void test_tern_count__at_the_maximum(void **state)
{
    (void)state;
    tern_counter_t c = (tern_counter_t)(TERN_COUNTER_MAX - 1u);
    tern_count(&c);
    assert_true(tern_count_read(&c) == TERN_COUNTER_MAX);
    tern_count(&c);
#if TERN_CONF_STATS_COUNTER_BITS == 16
    /* Saturated: a wrapped 16-bit counter would soon read as "a few". */
    assert_true(tern_count_read(&c) == TERN_COUNTER_MAX);
    c = (tern_counter_t)(TERN_COUNTER_MAX - 5u);
    tern_count_add(&c, 5);
    assert_true(tern_count_read(&c) == TERN_COUNTER_MAX);
    c = 10;
    tern_count_add(&c, UINT32_MAX);
    assert_true(tern_count_read(&c) == TERN_COUNTER_MAX);
#else
    /* 32 bits wrap, after 2^32 events. */
    assert_int_equal(tern_count_read(&c), 0);
    tern_count_add(&c, 3);
    assert_int_equal(tern_count_read(&c), 3);
#endif
}

#define THREADS 4
#define PER_THREAD 10000u

static void *hammer(void *arg)
{
    tern_counter_t *c = arg;
    for (unsigned i = 0; i < PER_THREAD; i++) {
        tern_count(c);
    }
    return NULL;
}

static void test_tern_count__no_increment_lost_across_threads(void **state)
{
    (void)state;
    tern_counter_t c = 0;
    pthread_t t[THREADS];
    for (size_t i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_create(&t[i], NULL, hammer, &c), 0);
    }
    for (size_t i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
    }
    assert_int_equal(tern_count_read(&c), THREADS * PER_THREAD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_counter_t__width_is_the_configured_one),
        cmocka_unit_test(test_tern_count__counts_and_adds),
        cmocka_unit_test(test_tern_count__at_the_maximum),
        cmocka_unit_test(test_tern_count__no_increment_lost_across_threads),
    };
    cmocka_set_message_output(CM_OUTPUT_STDOUT);
    return cmocka_run_group_tests_name("stats counters", tests, NULL, NULL);
}
