/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Unit tests of the 32-bit lifetime ends (tern/expiry.h): rounding up
 *        to a tick, the end of the range, lifetimes left to announce (no
 *        packets involved).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tern/expiry.h"

#define SEC 1000000ull
#define MIN (60ull * SEC)
#define TICK (1ull << TERN_EXPIRY_SHIFT)

/* An end is kept as the first tick at or after it: never early, at most a tick late. */
static void test_tern_expiry_from_us__rounds_up_to_a_tick(void **state)
{
    (void)state;
    assert_int_equal(tern_expiry_from_us(0), 0);
    assert_int_equal(tern_expiry_from_us(1), 1);
    assert_int_equal(tern_expiry_from_us(TICK), 1);
    assert_int_equal(tern_expiry_from_us(TICK + 1), 2);
    assert_int_equal(tern_expiry_from_us(900 * SEC), 859); /* 858.3 ticks */
    for (uint64_t end = 0; end < 50 * SEC; end += 77777u) {
        tern_expiry_t e = tern_expiry_from_us(end);
        assert_true(tern_expiry_to_us(e) >= end);
        assert_true(tern_expiry_to_us(e) < end + TICK);
        /* Passed exactly from its tick on, so never before the end. */
        if (e > 0) {
            assert_false(tern_expiry_passed(e, tern_expiry_now(tern_expiry_to_us(e) - 1)));
        }
        assert_true(tern_expiry_passed(e, tern_expiry_now(tern_expiry_to_us(e))));
    }
}

/* 2^32 - 1 ticks (2^52 us, 142.7 years) end the range: no wrap-around; a finite end past it
 * stays finite (the last tick), an infinite one never passes. */
static void test_tern_expiry__end_of_the_range(void **state)
{
    (void)state;
    uint64_t last_us = (uint64_t)TERN_EXPIRY_LAST << TERN_EXPIRY_SHIFT;
    assert_int_equal(tern_expiry_from_us(last_us), TERN_EXPIRY_LAST);
    assert_int_equal(tern_expiry_from_us(last_us + 1), TERN_EXPIRY_LAST);
    assert_int_equal(tern_expiry_from_us(UINT64_MAX - 1), TERN_EXPIRY_LAST);
    assert_int_equal(tern_expiry_from_us(UINT64_MAX), TERN_EXPIRY_NEVER);
    assert_int_equal(tern_expiry_now(last_us - 1), TERN_EXPIRY_LAST - 1u);
    assert_int_equal(tern_expiry_now(last_us), TERN_EXPIRY_LAST);
    assert_int_equal(tern_expiry_now(UINT64_MAX), TERN_EXPIRY_LAST);
    assert_false(tern_expiry_passed(TERN_EXPIRY_LAST, tern_expiry_now(last_us - 1)));
    assert_true(tern_expiry_passed(TERN_EXPIRY_LAST, tern_expiry_now(last_us)));
    assert_false(tern_expiry_passed(TERN_EXPIRY_NEVER, tern_expiry_now(UINT64_MAX)));
    assert_int_equal(tern_expiry_to_us(TERN_EXPIRY_NEVER), UINT64_MAX);
    assert_int_equal(tern_expiry_to_us(TERN_EXPIRY_LAST), last_us);
}

/* What a node announces of a lifetime it was given: counted from the tick before the rounded
 * end, so never more than given, rounded up to units, at least 1 while not passed. */
static void test_tern_expiry_units_left__never_more_than_given(void **state)
{
    (void)state;
    for (uint64_t now = 0; now < 3 * MIN; now += 1234567u) {
        for (uint64_t given = 1; given <= 30; given++) {
            tern_expiry_t e = tern_expiry_from_us(now + given * MIN);
            assert_int_equal(tern_expiry_units_left(e, now, MIN), given);
            assert_int_equal(tern_expiry_units_left(e, now + 1, MIN), given); /* rounded up */
            assert_int_equal(tern_expiry_units_left(e, now + MIN, MIN), given - 1u > 0 ? given - 1u : 1u);
            assert_int_equal(tern_expiry_units_left(e, now + given * MIN - 1, MIN), 1);
        }
    }
    /* Units of seconds (RPL's Lifetime Unit 1): at most the seconds given. */
    tern_expiry_t e = tern_expiry_from_us(7 * SEC + 1);
    assert_int_equal(tern_expiry_units_left(e, 1, SEC), 7);
    assert_int_equal(tern_expiry_units_left(e, 6 * SEC, SEC), 1);
    assert_int_equal(tern_expiry_units_left(e, tern_expiry_to_us(e) - 1, SEC), 1); /* not passed: at least 1 */
    assert_int_equal(tern_expiry_units_left(0, 0, SEC), 1);
    assert_int_equal(tern_expiry_units_left(TERN_EXPIRY_NEVER, 0, SEC), UINT64_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_expiry_from_us__rounds_up_to_a_tick),
        cmocka_unit_test(test_tern_expiry__end_of_the_range),
        cmocka_unit_test(test_tern_expiry_units_left__never_more_than_given),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
