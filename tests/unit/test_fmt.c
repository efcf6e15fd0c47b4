/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The freestanding formatter, checked against the C library's snprintf.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tern/fmt.h"

#define CHECK(...)                                                           \
    do {                                                                     \
        char ours[128], theirs[128];                                         \
        int a = tern_snprintf(ours, sizeof(ours), __VA_ARGS__);              \
        int b = snprintf(theirs, sizeof(theirs), __VA_ARGS__);               \
        assert_string_equal(ours, theirs);                                   \
        assert_int_equal(a, b);                                              \
    } while (0)

static void test_tern_snprintf__matches_libc(void **state)
{
    (void)state;
    CHECK("plain");
    CHECK("%d %d %d", 0, -1, 2147483647);
    CHECK("%i|%5d|%-5d|%05d|%05d", -42, -42, 42, 42, -7);
    CHECK("%u %x %X %08x", 4294967295u, 0xbeefu, 0xbeefu, 0x1234u);
    CHECK("%lu %ld %llu %lld", 123456789ul, -5l, 18446744073709551615ull, -9223372036854775807ll);
    CHECK("%zu", (size_t)99);
    CHECK("[%s] [%10s] [%-10s] [%.2s] [%*s] [%-*s]", "abc", "abc", "abc", "abc", 6, "ab", 6, "ab");
    CHECK("%c%c%%", 'o', 'k');
    CHECK("%02x:%02x", 0, 255);
    CHECK("%.*s", 3, "abcdef");
}

static void test_tern_snprintf__truncates_and_reports_full_length(void **state)
{
    (void)state;
    char buf[5];
    assert_int_equal(tern_snprintf(buf, sizeof(buf), "%s", "hello world"), 11);
    assert_string_equal(buf, "hell");
    assert_int_equal(tern_snprintf(NULL, 0, "%d", 12345), 5);
    char one[1];
    assert_int_equal(tern_snprintf(one, 1, "x"), 1);
    assert_string_equal(one, "");
}

/* Calls the formatter without the compiler's format checking, for inputs the
 * compiler would (rightly) refuse at a call site. */
static int format_unchecked(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int res = tern_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return res;
}

static void test_tern_snprintf__null_string_and_unknown_conversion(void **state)
{
    (void)state;
    char buf[32];
    const char *nothing = NULL;
    format_unchecked(buf, sizeof(buf), "%s", nothing);
    assert_string_equal(buf, "(null)");
    /* Not supported conversions are printed as written. */
    const char *fmt = "a%qb";
    format_unchecked(buf, sizeof(buf), fmt);
    assert_string_equal(buf, "a%qb");
    const char *trailing = "end%";
    format_unchecked(buf, sizeof(buf), trailing);
    assert_string_equal(buf, "end%");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_snprintf__matches_libc),
        cmocka_unit_test(test_tern_snprintf__truncates_and_reports_full_length),
        cmocka_unit_test(test_tern_snprintf__null_string_and_unknown_conversion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
