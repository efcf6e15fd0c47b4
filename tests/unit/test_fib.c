/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Forwarding table: longest prefix match, metrics, lifetimes, limits.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/ipv6/fib.h"

#define SEC 1000000ull
/* A route's end is kept in ticks of 2^20 us (tern/expiry.h). */
#define TICK (1ull << TERN_EXPIRY_SHIFT)

static tern_fib_t fib;

static tern_ipv6_addr_t A(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

static int setup(void **state)
{
    (void)state;
    tern_fib_init(&fib);
    return 0;
}

/* tern_ipv6_init() relies on it: a zeroed table is what tern_fib_init() makes. */
static void test_tern_fib_init__is_all_zero(void **state)
{
    (void)state;
    tern_fib_t zero;
    memset(&zero, 0, sizeof(zero));
    memset(&fib, 0xa5, sizeof(fib));
    tern_fib_init(&fib);
    assert_memory_equal(&fib, &zero, sizeof(fib));
    tern_ipv6_addr_t d = A("2001:db8::1");
    assert_null(tern_fib_lookup(&zero, &d, 0));
    assert_int_equal(tern_fib_next_deadline(&zero), TERN_FIB_INFINITE);
}

static void test_tern_fib_lookup__longest_prefix_wins(void **state)
{
    (void)state;
    tern_ipv6_addr_t any = A("::"), r1 = A("fe80::1"), r2 = A("fe80::2");
    tern_ipv6_addr_t p48 = A("2001:db8:1::"), p64 = A("2001:db8:1:2::");
    assert_int_equal(tern_fib_add(&fib, &any, 0, &r1, 1, TERN_FIB_INFINITE, TERN_FIB_RA, 0), 0);
    assert_int_equal(tern_fib_add(&fib, &p48, 48, &r2, 2, TERN_FIB_INFINITE, TERN_FIB_STATIC, 0), 0);
    assert_int_equal(tern_fib_add(&fib, &p64, 64, NULL, 1, TERN_FIB_INFINITE, TERN_FIB_CONNECTED, 0), 0);

    tern_ipv6_addr_t d = A("2001:db8:1:2::99");
    const tern_fib_route_t *r = tern_fib_lookup(&fib, &d, 0);
    assert_non_null(r);
    assert_int_equal(r->len, 64);
    assert_true(tern_ipv6_addr_is_unspecified(&r->next_hop)); /* on-link */
    d = A("2001:db8:1:3::1");
    r = tern_fib_lookup(&fib, &d, 0);
    assert_int_equal(r->len, 48);
    assert_true(tern_ipv6_addr_equal(&r->next_hop, &r2));
    assert_int_equal(r->if_index, 2);
    d = A("2001:db9::1");
    r = tern_fib_lookup(&fib, &d, 0);
    assert_int_equal(r->len, 0);
    assert_true(tern_ipv6_addr_equal(&r->next_hop, &r1));
}

static void test_tern_fib_lookup__no_route(void **state)
{
    (void)state;
    tern_ipv6_addr_t p = A("2001:db8::");
    assert_int_equal(tern_fib_add(&fib, &p, 32, NULL, 1, TERN_FIB_INFINITE, TERN_FIB_STATIC, 0), 0);
    tern_ipv6_addr_t d = A("2001:db9::1");
    assert_null(tern_fib_lookup(&fib, &d, 0));
}

static void test_tern_fib_add__prefix_is_masked_and_updates(void **state)
{
    (void)state;
    tern_ipv6_addr_t p = A("2001:db8:1:2:3:4:5:6");
    assert_int_equal(tern_fib_add(&fib, &p, 64, NULL, 1, 100, TERN_FIB_RA, 0), 0);
    tern_ipv6_addr_t expect = A("2001:db8:1:2::");
    assert_true(tern_ipv6_addr_equal(&fib.routes[0].prefix, &expect));
    /* Same route again: updated in place (RA refreshing a lifetime). */
    assert_int_equal(tern_fib_add(&fib, &expect, 64, NULL, 1, 5 * TICK, TERN_FIB_RA, 0), 0);
    unsigned used = 0;
    for (size_t i = 0; i < TERN_CONF_FIB_SIZE; i++) {
        used += fib.routes[i].used ? 1u : 0u;
    }
    assert_int_equal(used, 1);
    assert_int_equal(tern_fib_route_expires_us(&fib.routes[0]), 5 * TICK);
}

static void test_tern_fib_lookup__lower_metric_among_equals(void **state)
{
    (void)state;
    tern_ipv6_addr_t any = A("::"), r1 = A("fe80::1"), r2 = A("fe80::2");
    assert_int_equal(tern_fib_add(&fib, &any, 0, &r1, 1, TERN_FIB_INFINITE, TERN_FIB_RA, 5), 0);
    assert_int_equal(tern_fib_add(&fib, &any, 0, &r2, 1, TERN_FIB_INFINITE, TERN_FIB_RA, 1), 0);
    tern_ipv6_addr_t d = A("2001:db8::1");
    assert_true(tern_ipv6_addr_equal(&tern_fib_lookup(&fib, &d, 0)->next_hop, &r2));
}

static void test_tern_fib_expire__lifetimes(void **state)
{
    (void)state;
    tern_ipv6_addr_t p = A("2001:db8::"), q = A("2001:db9::");
    assert_int_equal(tern_fib_add(&fib, &p, 32, NULL, 1, 1000 * TICK, TERN_FIB_RA, 0), 0);
    assert_int_equal(tern_fib_add(&fib, &q, 32, NULL, 1, 3000 * TICK, TERN_FIB_RA, 0), 0);
    assert_int_equal(tern_fib_next_deadline(&fib), 1000 * TICK);
    tern_ipv6_addr_t d = A("2001:db8::1");
    assert_non_null(tern_fib_lookup(&fib, &d, 1000 * TICK - 1));
    assert_null(tern_fib_lookup(&fib, &d, 1000 * TICK)); /* expired routes never match */
    assert_int_equal(tern_fib_expire(&fib, 1000 * TICK - 1), 0);
    assert_int_equal(tern_fib_expire(&fib, 1000 * TICK), 1);
    assert_int_equal(tern_fib_next_deadline(&fib), 3000 * TICK);
    assert_int_equal(tern_fib_expire(&fib, 5000 * TICK), 1);
    assert_int_equal(tern_fib_next_deadline(&fib), TERN_FIB_INFINITE);
}

/* An end between two ticks is kept as the later one: the route never goes early. */
static void test_tern_fib_expire__end_rounded_up_to_a_tick(void **state)
{
    (void)state;
    tern_ipv6_addr_t p = A("2001:db8::");
    tern_ipv6_addr_t d = A("2001:db8::1");
    uint64_t end = 7 * SEC + 1; /* 6.68 ticks */
    assert_int_equal(tern_fib_add(&fib, &p, 32, NULL, 1, end, TERN_FIB_RA, 0), 0);
    assert_int_equal(tern_fib_next_deadline(&fib), 7 * TICK);
    assert_non_null(tern_fib_lookup(&fib, &d, end)); /* its lifetime's end: still there */
    assert_int_equal(tern_fib_expire(&fib, 7 * TICK - 1), 0);
    assert_non_null(tern_fib_lookup(&fib, &d, 7 * TICK - 1));
    assert_null(tern_fib_lookup(&fib, &d, 7 * TICK));
    assert_int_equal(tern_fib_expire(&fib, 7 * TICK), 1);
}

/* At the end of the 32-bit tick range (2^52 us, 142.7 years of the clock): a
 * finite lifetime past it ends at the last tick instead, never mistaken for an
 * infinite one; an infinite route outlives every clock value. */
static void test_tern_fib_expire__end_of_the_tick_range(void **state)
{
    (void)state;
    tern_ipv6_addr_t p = A("2001:db8::"), q = A("2001:db9::"), r = A("2001:dba::");
    uint64_t last_us = (uint64_t)TERN_EXPIRY_LAST << TERN_EXPIRY_SHIFT;
    assert_int_equal(tern_expiry_from_us(last_us - TICK), TERN_EXPIRY_LAST - 1u);
    assert_int_equal(tern_expiry_from_us(last_us - TICK + 1), TERN_EXPIRY_LAST);
    assert_int_equal(tern_expiry_from_us(last_us + 1), TERN_EXPIRY_LAST); /* clamped: stays finite */
    assert_int_equal(tern_expiry_from_us(UINT64_MAX - 1), TERN_EXPIRY_LAST);
    assert_int_equal(tern_expiry_from_us(UINT64_MAX), TERN_EXPIRY_NEVER);
    assert_int_equal(tern_expiry_now(UINT64_MAX), TERN_EXPIRY_LAST);
    assert_int_equal(tern_fib_add(&fib, &p, 32, NULL, 1, last_us - TICK, TERN_FIB_RA, 0), 0);
    assert_int_equal(tern_fib_add(&fib, &q, 32, NULL, 1, UINT64_MAX - 1, TERN_FIB_RA, 0), 0);
    assert_int_equal(tern_fib_add(&fib, &r, 32, NULL, 1, TERN_FIB_INFINITE, TERN_FIB_RA, 0), 0);
    tern_ipv6_addr_t dq = A("2001:db9::1"), dr = A("2001:dba::1");
    assert_int_equal(tern_fib_expire(&fib, last_us - TICK - 1), 0);
    assert_int_equal(tern_fib_expire(&fib, last_us - TICK), 1);
    assert_int_equal(tern_fib_next_deadline(&fib), last_us);
    assert_non_null(tern_fib_lookup(&fib, &dq, last_us - 1));
    assert_null(tern_fib_lookup(&fib, &dq, UINT64_MAX));
    assert_non_null(tern_fib_lookup(&fib, &dr, UINT64_MAX));
    assert_int_equal(tern_fib_expire(&fib, UINT64_MAX), 1);
    assert_int_equal(tern_fib_next_deadline(&fib), TERN_FIB_INFINITE);
}

static void test_tern_fib_remove__and_flush(void **state)
{
    (void)state;
    tern_ipv6_addr_t any = A("::"), r1 = A("fe80::1"), r2 = A("fe80::2"), p = A("2001:db8::");
    assert_int_equal(tern_fib_add(&fib, &any, 0, &r1, 1, TERN_FIB_INFINITE, TERN_FIB_RA, 0), 0);
    assert_int_equal(tern_fib_add(&fib, &any, 0, &r2, 1, TERN_FIB_INFINITE, TERN_FIB_RA, 0), 0);
    assert_int_equal(tern_fib_add(&fib, &p, 32, NULL, 2, TERN_FIB_INFINITE, TERN_FIB_STATIC, 0), 0);
    assert_int_equal(tern_fib_remove(&fib, &any, 0, 0, &r1), 1);
    assert_int_equal(tern_fib_remove(&fib, &any, 0, 0, &r1), 0);
    assert_int_equal(tern_fib_flush(&fib, 1, TERN_FIB_RA), 1);
    assert_int_equal(tern_fib_flush(&fib, 2, TERN_FIB_RA), 0);
    assert_int_equal(tern_fib_remove(&fib, &p, 32, 0, NULL), 1);
}

static void test_tern_fib_add__invalid_and_full(void **state)
{
    (void)state;
    tern_ipv6_addr_t p = A("2001:db8::"), mc = A("ff02::1");
    assert_int_equal(tern_fib_add(&fib, &p, 129, NULL, 1, TERN_FIB_INFINITE, TERN_FIB_STATIC, 0), -EINVAL);
    assert_int_equal(tern_fib_add(&fib, &p, 32, NULL, 0, TERN_FIB_INFINITE, TERN_FIB_STATIC, 0), -EINVAL);
    assert_int_equal(tern_fib_add(&fib, &p, 32, &mc, 1, TERN_FIB_INFINITE, TERN_FIB_STATIC, 0), -EINVAL);
    for (unsigned i = 0; i < TERN_CONF_FIB_SIZE; i++) {
        tern_ipv6_addr_t q = p;
        q.u8[4] = (uint8_t)i;
        assert_int_equal(tern_fib_add(&fib, &q, 40, NULL, 1, TERN_FIB_INFINITE, TERN_FIB_STATIC, 0), 0);
    }
    tern_ipv6_addr_t extra = A("2001:dead::");
    assert_int_equal(tern_fib_add(&fib, &extra, 32, NULL, 1, TERN_FIB_INFINITE, TERN_FIB_STATIC, 0), -ENOSPC);
    assert_int_equal(fib.full, 1);
}

/* The reference: the best route over every slot, as the lookup chooses. */
static const tern_fib_route_t *lookup_all_slots(const tern_ipv6_addr_t *dst, uint64_t now_us)
{
    const tern_fib_route_t *best = NULL;
    for (size_t i = 0; i < TERN_CONF_FIB_SIZE; i++) {
        const tern_fib_route_t *r = &fib.routes[i];
        if (!r->used || tern_fib_route_expires_us(r) <= now_us || !tern_ipv6_addr_match_prefix(dst, &r->prefix, r->len)) {
            continue;
        }
        if (best == NULL || r->len > best->len || (r->len == best->len && r->metric < best->metric)) {
            best = r;
        }
    }
    return best;
}

/* Lookups and sweeps scan up to one past the highest slot in use (top):
 * through random adds, removes, flushes and expiries they find what a scan of
 * every slot finds, and top is exactly one past the highest used slot. */
static void test_tern_fib_top__bounds_every_scan(void **state)
{
    (void)state;
    uint32_t x = 0x1234567u;
    uint64_t now = 0;
    for (unsigned step = 0; step < 20000; step++) {
        x = x * 1103515245u + 12345u;
        unsigned op = (x >> 16) % 8u;
        tern_ipv6_addr_t p = A("2001:db8::");
        p.u8[5] = (uint8_t)((x >> 8) % 5u);
        p.u8[7] = (uint8_t)((x >> 4) % 3u);
        uint8_t len = (uint8_t)(((x >> 20) % 3u) * 16u + 32u);
        uint16_t ifx = (uint16_t)(1u + (x >> 24) % 2u);
        if (op < 4) {
            uint64_t end = (op == 0) ? TERN_FIB_INFINITE : now + ((x >> 12) % 8u + 1u) * SEC;
            (void)tern_fib_add(&fib, &p, len, NULL, ifx, end, (tern_fib_origin_t)(op % 2u), (uint8_t)(x % 4u));
        } else if (op == 4) {
            (void)tern_fib_remove(&fib, &p, len, ifx, NULL);
        } else if (op == 5 && (x % 16u) == 0) {
            (void)tern_fib_flush(&fib, ifx, TERN_FIB_STATIC);
        } else if (op == 6) {
            now += SEC;
            (void)tern_fib_expire(&fib, now);
        }
        unsigned top = 0;
        for (unsigned i = 0; i < TERN_CONF_FIB_SIZE; i++) {
            top = fib.routes[i].used ? i + 1u : top;
        }
        assert_int_equal(fib.top, top);
        tern_ipv6_addr_t d = p;
        d.u8[15] = 1;
        assert_ptr_equal(tern_fib_lookup(&fib, &d, now), lookup_all_slots(&d, now));
    }
    tern_fib_init(&fib);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_fib_init__is_all_zero),
        cmocka_unit_test_setup(test_tern_fib_lookup__longest_prefix_wins, setup),
        cmocka_unit_test_setup(test_tern_fib_top__bounds_every_scan, setup),
        cmocka_unit_test_setup(test_tern_fib_lookup__no_route, setup),
        cmocka_unit_test_setup(test_tern_fib_add__prefix_is_masked_and_updates, setup),
        cmocka_unit_test_setup(test_tern_fib_lookup__lower_metric_among_equals, setup),
        cmocka_unit_test_setup(test_tern_fib_expire__lifetimes, setup),
        cmocka_unit_test_setup(test_tern_fib_expire__end_rounded_up_to_a_tick, setup),
        cmocka_unit_test_setup(test_tern_fib_expire__end_of_the_tick_range, setup),
        cmocka_unit_test_setup(test_tern_fib_remove__and_flush, setup),
        cmocka_unit_test_setup(test_tern_fib_add__invalid_and_full, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
