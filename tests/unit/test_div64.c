/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Unit tests of tern_udiv64() (tern/div64.h): the same quotient and
 *        remainder as C's 64-bit `/` and `%` (no packets involved).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tern/div64.h"

static void check(uint64_t n, uint64_t d)
{
    uint64_t rem = 0xdeadbeefu;
    assert_int_equal(tern_udiv64(n, d, &rem), n / d);
    assert_int_equal(rem, n % d);
    assert_int_equal(tern_udiv64(n, d, NULL), n / d);
    assert_int_equal(tern_umod64(n, d), n % d);
}

static void test_tern_udiv64__matches_c_division(void **state)
{
    (void)state;
    /* The stack's divisors (10, 1 s and 1 min in microseconds, a random range) and edge values. */
    static const uint64_t divisors[] = { 1u, 2u, 3u, 10u, 1000000u, 60000000u, 3600000001u, 0xFFFFFFFFu,
                                         0x100000000u, 0x123456789ABCDEFu, 0x8000000000000000u,
                                         0x8000000000000001u, UINT64_MAX };
    static const uint64_t dividends[] = { 0u, 1u, 9u, 10u, 999999u, 1000000u, 0xFFFFFFFFu, 0x100000000u,
                                          86400000000u, 0x7FFFFFFFFFFFFFFFu, 0x8000000000000000u, UINT64_MAX };
    for (size_t i = 0; i < sizeof(divisors) / sizeof(divisors[0]); i++) {
        for (size_t j = 0; j < sizeof(dividends) / sizeof(dividends[0]); j++) {
            check(dividends[j], divisors[i]);
        }
    }
    /* A pseudo-random sweep (xorshift64). */
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (unsigned k = 0; k < 20000; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t d = x >> (k % 64u);
        check(x * 2654435761u, d == 0 ? 1u : d);
    }
}

static void test_tern_udiv64__zero_divisor_defined(void **state)
{
    (void)state;
    uint64_t rem = 0;
    assert_int_equal(tern_udiv64(42u, 0u, &rem), UINT64_MAX);
    assert_int_equal(rem, 42u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_udiv64__matches_c_division),
        cmocka_unit_test(test_tern_udiv64__zero_divisor_defined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
