/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Source address selection: RFC 6724 §10.1 examples and each rule.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/ipv6/srcsel.h"

static tern_ipv6_addr_t A(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

static tern_srcsel_candidate_t C(const char *text, uint16_t ifx, uint8_t len, tern_ipv6_addr_state_t st)
{
    tern_srcsel_candidate_t c = { A(text), ifx, len, (uint8_t)st };
    return c;
}

#define P TERN_IPV6_ADDR_PREFERRED
#define D TERN_IPV6_ADDR_DEPRECATED

static int choose(const tern_srcsel_candidate_t *c, size_t n, const char *dst, uint16_t out_if)
{
    tern_ipv6_addr_t d = A(dst);
    return tern_srcsel_choose(c, n, &d, out_if);
}

/* RFC 6724 §10.1, the examples that do not need rules 4 and 7. */
static void test_tern_srcsel_choose__rfc6724_examples(void **state)
{
    (void)state;
    /* Destination 2001:db8:1::1, candidates 2001:db8:3::1 or fe80::1: the former (rule 2). */
    tern_srcsel_candidate_t a[] = { C("fe80::1", 1, 64, P), C("2001:db8:3::1", 1, 64, P) };
    assert_int_equal(choose(a, 2, "2001:db8:1::1", 1), 1);
    /* Destination ff05::1, candidates 2001:db8:3::1 or fe80::1: the former (rule 2). */
    assert_int_equal(choose(a, 2, "ff05::1", 1), 1);
    /* Destination fe80::1, candidates fe80::2 or 2001:db8:1::1: fe80::2 (rule 2). */
    tern_srcsel_candidate_t b[] = { C("2001:db8:1::1", 1, 64, P), C("fe80::2", 1, 64, P) };
    assert_int_equal(choose(b, 2, "fe80::1", 1), 1);
    /* Destination 2001:db8:1::1, candidates 2001:db8:1::1 or 2001:db8:2::1: itself (rule 1). */
    tern_srcsel_candidate_t c[] = { C("2001:db8:2::1", 1, 64, P), C("2001:db8:1::1", 1, 64, P) };
    assert_int_equal(choose(c, 2, "2001:db8:1::1", 1), 1);
    /* Destination 2001:db8:1::1, candidates 2001:db8:1::2 (deprecated) or 2001:db8:2::2 (rule 3). */
    tern_srcsel_candidate_t d[] = { C("2001:db8:1::2", 1, 64, D), C("2001:db8:2::2", 1, 64, P) };
    assert_int_equal(choose(d, 2, "2001:db8:1::1", 1), 1);
    /* Destination 2001:db8:1::1, candidates 2001:db8:1::2 or 2001:db8:3::2: longest match (rule 8). */
    tern_srcsel_candidate_t e[] = { C("2001:db8:3::2", 1, 48, P), C("2001:db8:1::2", 1, 48, P) };
    assert_int_equal(choose(e, 2, "2001:db8:1::1", 1), 1);
    /* Destination 2002:c633:6401::1, candidates 2002:c633:6401::d5e3:7953:13eb:22e8 or
     * 2001:db8:1::2: the 6to4 one (rule 6, matching label). */
    tern_srcsel_candidate_t f[] = { C("2001:db8:1::2", 1, 64, P), C("2002:c633:6401::d5e3:7953:13eb:22e8", 1, 64, P) };
    assert_int_equal(choose(f, 2, "2002:c633:6401::1", 1), 1);
}

static void test_tern_srcsel_choose__tentative_and_duplicate_never(void **state)
{
    (void)state;
    tern_srcsel_candidate_t a[] = {
        C("2001:db8::1", 1, 64, TERN_IPV6_ADDR_TENTATIVE),
        C("2001:db8::2", 1, 64, TERN_IPV6_ADDR_DUPLICATE),
    };
    assert_int_equal(choose(a, 2, "2001:db8::99", 1), -EADDRNOTAVAIL);
    assert_int_equal(choose(a, 0, "2001:db8::99", 1), -EADDRNOTAVAIL);
}

static void test_tern_srcsel_choose__link_scope_stays_on_the_link(void **state)
{
    (void)state;
    tern_srcsel_candidate_t a[] = { C("fe80::1", 2, 64, P), C("fe80::2", 1, 64, P) };
    assert_int_equal(choose(a, 2, "fe80::99", 1), 1);
    assert_int_equal(choose(a, 1, "ff02::1", 1), -EADDRNOTAVAIL);
}

static void test_tern_srcsel_choose__prefers_outgoing_interface(void **state)
{
    (void)state;
    tern_srcsel_candidate_t a[] = { C("2001:db8:1::1", 2, 64, P), C("2001:db8:2::1", 1, 64, P) };
    assert_int_equal(choose(a, 2, "2001:db8:1::99", 1), 1); /* rule 5 before rule 8 */
}

static void test_tern_srcsel_label__default_policy(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = A("::1");
    assert_int_equal(tern_srcsel_label(&a), 0);
    a = A("2001:0:4136:e378::1"); /* Teredo, 2001::/32 */
    assert_int_equal(tern_srcsel_label(&a), 5);
    a = A("2001:db8::1"); /* not in 2001::/32: the default label */
    assert_int_equal(tern_srcsel_label(&a), 1);
    a = A("fd00::1");
    assert_int_equal(tern_srcsel_label(&a), 13);
    a = A("::ffff:10.0.0.1");
    assert_int_equal(tern_srcsel_label(&a), 4);
    a = A("2a00::1");
    assert_int_equal(tern_srcsel_label(&a), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_srcsel_choose__rfc6724_examples),
        cmocka_unit_test(test_tern_srcsel_choose__tentative_and_duplicate_never),
        cmocka_unit_test(test_tern_srcsel_choose__link_scope_stays_on_the_link),
        cmocka_unit_test(test_tern_srcsel_choose__prefers_outgoing_interface),
        cmocka_unit_test(test_tern_srcsel_label__default_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
