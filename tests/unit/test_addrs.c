/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Interface addresses: DAD (RFC 4862 §5.4), lifetimes (§5.5.4), SLAAC (§5.5.3).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/ipv6/addrs.h"

#define SEC 1000000ull
#define RETRANS (1u * 1000000u)

static tern_ipv6_addrs_t t;
static unsigned dad_ns, joins, leaves, duplicates, readies;
static tern_ipv6_addr_t last_dup;

static void on_dad_ns(void *ctx, const tern_ipv6_addr_t *target)
{
    (void)ctx;
    (void)target;
    dad_ns++;
}

static void on_group(void *ctx, const tern_ipv6_addr_t *addr, bool join)
{
    (void)ctx;
    (void)addr;
    if (join) {
        joins++;
    } else {
        leaves++;
    }
}

static void on_dup(void *ctx, const tern_ipv6_addr_t *addr)
{
    (void)ctx;
    duplicates++;
    last_dup = *addr;
}

static void on_ready(void *ctx, const tern_ipv6_addr_t *addr)
{
    (void)ctx;
    (void)addr;
    readies++;
}

static const tern_ipv6_addrs_ops_t ops = { on_dad_ns, on_group, on_dup, on_ready };

static tern_ipv6_addr_t A(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

static int setup(void **state)
{
    (void)state;
    tern_ipv6_addrs_init(&t, &ops, NULL, 1, RETRANS);
    dad_ns = joins = leaves = duplicates = readies = 0;
    return 0;
}

static tern_ipv6_addr_state_t state_of(const char *text)
{
    tern_ipv6_addr_t a = A(text);
    tern_ipv6_if_addr_t *e = tern_ipv6_addrs_find(&t, &a);
    assert_non_null(e);
    return (tern_ipv6_addr_state_t)e->state;
}

static void test_tern_ipv6_addrs_add__dad_then_preferred(void **state)
{
    (void)state;
    tern_ipv6_addr_t ll = A("fe80::1");
    assert_int_equal(tern_ipv6_addrs_add(&t, &ll, 64, 0, TERN_IPV6_LIFETIME_INFINITE,
                                         TERN_IPV6_LIFETIME_INFINITE, 200, 0), 0);
    assert_int_equal(joins, 1);
    assert_int_equal(state_of("fe80::1"), TERN_IPV6_ADDR_TENTATIVE);
    assert_int_equal(tern_ipv6_addrs_next_deadline(&t), 200);
    tern_ipv6_addrs_tick(&t, 199);
    assert_int_equal(dad_ns, 0);
    tern_ipv6_addrs_tick(&t, 200);
    assert_int_equal(dad_ns, 1);
    assert_int_equal(state_of("fe80::1"), TERN_IPV6_ADDR_TENTATIVE);
    tern_ipv6_addrs_tick(&t, 200 + RETRANS);
    assert_int_equal(state_of("fe80::1"), TERN_IPV6_ADDR_PREFERRED);
    assert_int_equal(readies, 1);
    assert_int_equal(dad_ns, 1);
    assert_int_equal(tern_ipv6_addrs_next_deadline(&t), UINT64_MAX);
}

static void test_tern_ipv6_addrs_ns_received__dad_from_another_node(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = A("2001:db8::1"), unspec = A("::"), other = A("fe80::9");
    assert_int_equal(tern_ipv6_addrs_add(&t, &a, 64, 0, 100, 200, 0, 0), 0);
    tern_ipv6_addrs_tick(&t, 0);
    /* Address resolution from a unicast source: not a duplicate, not answered. */
    assert_true(tern_ipv6_addrs_ns_received(&t, &a, &other));
    assert_int_equal(state_of("2001:db8::1"), TERN_IPV6_ADDR_TENTATIVE);
    /* DAD by another node: duplicate. */
    assert_true(tern_ipv6_addrs_ns_received(&t, &a, &unspec));
    assert_int_equal(state_of("2001:db8::1"), TERN_IPV6_ADDR_DUPLICATE);
    assert_int_equal(duplicates, 1);
    assert_true(tern_ipv6_addr_equal(&last_dup, &a));
    /* A duplicate never becomes preferred. */
    tern_ipv6_addrs_tick(&t, 10 * SEC);
    assert_int_equal(state_of("2001:db8::1"), TERN_IPV6_ADDR_DUPLICATE);
    assert_int_equal(readies, 0);
    /* Not tentative: not ours to judge. */
    assert_false(tern_ipv6_addrs_ns_received(&t, &a, &unspec));
}

static void test_tern_ipv6_addrs_na_received__tentative_is_duplicate(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = A("fe80::2");
    assert_int_equal(tern_ipv6_addrs_add(&t, &a, 64, 0, TERN_IPV6_LIFETIME_INFINITE,
                                         TERN_IPV6_LIFETIME_INFINITE, 0, 0), 0);
    assert_true(tern_ipv6_addrs_na_received(&t, &a));
    assert_int_equal(state_of("fe80::2"), TERN_IPV6_ADDR_DUPLICATE);
    tern_ipv6_addr_t b = A("fe80::3");
    assert_false(tern_ipv6_addrs_na_received(&t, &b));
}

/* An address's valid lifetime ends at the tick of 2^20 us at or after it (tern/expiry.h). */
static uint64_t valid_end(const tern_ipv6_addr_t *a)
{
    return tern_expiry_to_us(tern_ipv6_addrs_find(&t, a)->valid);
}

/* @p us rounded up to a tick. */
static uint64_t tick_up(uint64_t us)
{
    uint64_t tick = 1ull << TERN_EXPIRY_SHIFT;
    return (us + tick - 1u) / tick * tick;
}

/* Lifetimes end at the tick of 2^20 us at or after them (tern/expiry.h): never early. */
static void test_tern_ipv6_addrs_tick__lifetimes_deprecate_then_remove(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = A("2001:db8::5");
    assert_int_equal(tern_ipv6_addrs_add(&t, &a, 64, 0, 10, 20, 0, 0), 0);
    tern_ipv6_addrs_tick(&t, 0);
    tern_ipv6_addrs_tick(&t, RETRANS);
    assert_int_equal(state_of("2001:db8::5"), TERN_IPV6_ADDR_PREFERRED);
    assert_int_equal(tern_ipv6_addrs_next_deadline(&t), tick_up(10 * SEC));
    tern_ipv6_addrs_tick(&t, tick_up(10 * SEC) - 1u);
    assert_int_equal(state_of("2001:db8::5"), TERN_IPV6_ADDR_PREFERRED);
    tern_ipv6_addrs_tick(&t, tick_up(10 * SEC));
    assert_int_equal(state_of("2001:db8::5"), TERN_IPV6_ADDR_DEPRECATED);
    assert_int_equal(tern_ipv6_addrs_next_deadline(&t), tick_up(20 * SEC));
    tern_ipv6_addrs_tick(&t, tick_up(20 * SEC) - 1u);
    assert_non_null(tern_ipv6_addrs_find(&t, &a));
    tern_ipv6_addrs_tick(&t, tick_up(20 * SEC));
    assert_null(tern_ipv6_addrs_find(&t, &a));
    assert_int_equal(leaves, 1);
}

static void test_tern_ipv6_addrs_add__shared_solicited_node_group(void **state)
{
    (void)state;
    /* Link-local and global with the same IID share ff02::1:ffxx:xxxx. */
    tern_ipv6_addr_t ll = A("fe80::2:3:4:5"), g = A("2001:db8::2:3:4:5");
    assert_int_equal(tern_ipv6_addrs_add(&t, &ll, 64, 0, TERN_IPV6_LIFETIME_INFINITE,
                                         TERN_IPV6_LIFETIME_INFINITE, 0, 0), 0);
    assert_int_equal(tern_ipv6_addrs_add(&t, &g, 64, 0, TERN_IPV6_LIFETIME_INFINITE,
                                         TERN_IPV6_LIFETIME_INFINITE, 0, 0), 0);
    assert_int_equal(joins, 1);
    assert_int_equal(tern_ipv6_addrs_remove(&t, &g), 0);
    assert_int_equal(leaves, 0); /* the link-local still needs the group */
    assert_int_equal(tern_ipv6_addrs_remove(&t, &ll), 0);
    assert_int_equal(leaves, 1);
    assert_int_equal(tern_ipv6_addrs_remove(&t, &ll), -ENOENT);
}

static void test_tern_ipv6_addrs_add__invalid_duplicate_full(void **state)
{
    (void)state;
    tern_ipv6_addr_t mc = A("ff02::1"), un = A("::"), lo = A("::1"), a = A("2001:db8::1");
    assert_int_equal(tern_ipv6_addrs_add(&t, &mc, 64, 0, 1, 1, 0, 0), -EINVAL);
    assert_int_equal(tern_ipv6_addrs_add(&t, &un, 64, 0, 1, 1, 0, 0), -EINVAL);
    assert_int_equal(tern_ipv6_addrs_add(&t, &lo, 128, 0, 1, 1, 0, 0), -EINVAL);
    assert_int_equal(tern_ipv6_addrs_add(&t, &a, 129, 0, 1, 1, 0, 0), -EINVAL);
    assert_int_equal(tern_ipv6_addrs_add(&t, &a, 64, 0, 1, 1, 0, 0), 0);
    assert_int_equal(tern_ipv6_addrs_add(&t, &a, 64, 0, 1, 1, 0, 0), -EEXIST);
    for (unsigned i = 1; i < TERN_CONF_IPV6_ADDRS; i++) {
        tern_ipv6_addr_t b = a;
        b.u8[15] = (uint8_t)(10 + i);
        assert_int_equal(tern_ipv6_addrs_add(&t, &b, 64, 0, 1, 1, 0, 0), 0);
    }
    tern_ipv6_addr_t c = A("2001:db8::ff");
    assert_int_equal(tern_ipv6_addrs_add(&t, &c, 64, 0, 1, 1, 0, 0), -ENOSPC);
}

static void test_tern_ipv6_addrs_slaac__forms_address(void **state)
{
    (void)state;
    tern_ipv6_addr_t prefix = A("2001:db8:1::"), iid = A("::200:ff:fe00:1");
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 600, 3600, &iid, 0), 0);
    assert_int_equal(state_of("2001:db8:1::200:ff:fe00:1"), TERN_IPV6_ADDR_TENTATIVE);
    tern_ipv6_addr_t a = A("2001:db8:1::200:ff:fe00:1");
    assert_true(tern_ipv6_addrs_find(&t, &a)->flags & TERN_IPV6_ADDR_FLAG_AUTOCONF);
    /* Ignored options: link-local prefix, preferred > valid, /48, valid 0 for a new prefix. */
    tern_ipv6_addr_t ll = A("fe80::"), p48 = A("2001:db8:2::"), p2 = A("2001:db8:3::");
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &ll, 64, 1, 2, &iid, 0), -EINVAL);
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &p2, 64, 20, 10, &iid, 0), -EINVAL);
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &p48, 48, 1, 2, &iid, 0), -EINVAL);
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &p2, 64, 0, 0, &iid, 0), 0);
    tern_ipv6_addr_t a2 = A("2001:db8:3::200:ff:fe00:1");
    assert_null(tern_ipv6_addrs_find(&t, &a2));
}

static void test_tern_ipv6_addrs_slaac__two_hour_rule(void **state)
{
    (void)state;
    tern_ipv6_addr_t prefix = A("2001:db8:1::"), iid = A("::1");
    tern_ipv6_addr_t a = A("2001:db8:1::1");
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 3600, 86400, &iid, 0), 0);
    /* 1: a valid lifetime above two hours is taken. */
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 3600, 10000, &iid, 0), 0);
    assert_int_equal(valid_end(&a), tick_up(10000 * SEC));
    /* 3: remaining > 2 h, advertised short: reset to two hours. */
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 60, 60, &iid, 0), 0);
    assert_int_equal(valid_end(&a), tick_up(7200 * SEC));
    /* 2: remaining <= 2 h, advertised shorter: ignored. */
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 0, 30, &iid, 100 * SEC), 0);
    assert_int_equal(valid_end(&a), tick_up(7200 * SEC));
    /* ... but the preferred lifetime is always reset (0: deprecated from now). */
    assert_true(tern_expiry_passed(tern_ipv6_addrs_find(&t, &a)->preferred, tern_expiry_now(100 * SEC)));
    /* 1 again: longer than the remaining lifetime is taken. */
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 100, 7000, &iid, 200 * SEC), 0);
    assert_int_equal(valid_end(&a), tick_up(7200 * SEC));
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 100, 7100, &iid, 200 * SEC), 0);
    assert_int_equal(valid_end(&a), tick_up(7300 * SEC));
}

static void test_tern_ipv6_addrs_slaac__preferred_again(void **state)
{
    (void)state;
    tern_ipv6_addr_t prefix = A("2001:db8:1::"), iid = A("::7");
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 10, 86400, &iid, 0), 0);
    tern_ipv6_addrs_tick(&t, 0);
    tern_ipv6_addrs_tick(&t, RETRANS);
    tern_ipv6_addrs_tick(&t, tick_up(10 * SEC));
    assert_int_equal(state_of("2001:db8:1::7"), TERN_IPV6_ADDR_DEPRECATED);
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 100, 86400, &iid, 11 * SEC), 0);
    assert_int_equal(state_of("2001:db8:1::7"), TERN_IPV6_ADDR_PREFERRED);
}

/* RFC 4862 §5.5.3 (e): a preferred lifetime of 0 deprecates the address at once, not at the
 * next tick of the lifetimes' ends (tern/expiry.h). */
static void test_tern_ipv6_addrs_slaac__preferred_lifetime_zero_deprecates_at_once(void **state)
{
    (void)state;
    tern_ipv6_addr_t prefix = A("2001:db8:1::"), iid = A("::7");
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 10, 86400, &iid, 0), 0);
    tern_ipv6_addrs_tick(&t, 0);
    tern_ipv6_addrs_tick(&t, RETRANS);
    assert_int_equal(state_of("2001:db8:1::7"), TERN_IPV6_ADDR_PREFERRED);
    uint64_t now = 5 * SEC + 7u; /* between two ticks */
    assert_int_equal(tern_ipv6_addrs_slaac(&t, &prefix, 64, 0, 86400, &iid, now), 0);
    assert_true(tern_ipv6_addrs_next_deadline(&t) <= now);
    tern_ipv6_addrs_tick(&t, now);
    assert_int_equal(state_of("2001:db8:1::7"), TERN_IPV6_ADDR_DEPRECATED);
}

static void test_tern_ipv6_addrs_init__no_dad(void **state)
{
    (void)state;
    tern_ipv6_addrs_init(&t, &ops, NULL, 0, RETRANS);
    tern_ipv6_addr_t a = A("fe80::8");
    assert_int_equal(tern_ipv6_addrs_add(&t, &a, 64, 0, TERN_IPV6_LIFETIME_INFINITE,
                                         TERN_IPV6_LIFETIME_INFINITE, 0, 0), 0);
    tern_ipv6_addrs_tick(&t, 0);
    assert_int_equal(dad_ns, 0);
    assert_int_equal(state_of("fe80::8"), TERN_IPV6_ADDR_PREFERRED);
    assert_string_equal(tern_ipv6_addr_state_name(TERN_IPV6_ADDR_DUPLICATE), "duplicate");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup(fn, setup)
        T(test_tern_ipv6_addrs_add__dad_then_preferred),
        T(test_tern_ipv6_addrs_ns_received__dad_from_another_node),
        T(test_tern_ipv6_addrs_na_received__tentative_is_duplicate),
        T(test_tern_ipv6_addrs_tick__lifetimes_deprecate_then_remove),
        T(test_tern_ipv6_addrs_add__shared_solicited_node_group),
        T(test_tern_ipv6_addrs_add__invalid_duplicate_full),
        T(test_tern_ipv6_addrs_slaac__forms_address),
        T(test_tern_ipv6_addrs_slaac__two_hour_rule),
        T(test_tern_ipv6_addrs_slaac__preferred_again),
        T(test_tern_ipv6_addrs_slaac__preferred_lifetime_zero_deprecates_at_once),
        T(test_tern_ipv6_addrs_init__no_dad),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
