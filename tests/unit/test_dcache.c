/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Destination cache (RFC 4861 §5.1, §8.3; RFC 8201 §4): insert,
 *        lookup, the two parts' lifetimes, eviction when full.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/ipv6/dcache.h"

#define SEC 1000000u

static tern_dcache_t dc;

static tern_ipv6_addr_t A(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

/* Destination number @p n: 2001:db8:9::n. */
static tern_ipv6_addr_t dest(uint8_t n)
{
    tern_ipv6_addr_t a = A("2001:db8:9::");
    a.u8[15] = n;
    return a;
}

/* Entries in use, and the cache's own count of them agrees. */
static unsigned used_slots(void)
{
    unsigned n = 0;
    for (size_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        n += dc.entries[i].used ? 1u : 0u;
    }
    assert_int_equal(dc.in_use, n);
    return n;
}

static int setup(void **state)
{
    (void)state;
    memset(&dc, 0xa5, sizeof(dc)); /* init must clear everything */
    tern_dcache_init(&dc);
    return 0;
}

static void test_tern_dcache_lookup__empty_cache_knows_nothing(void **state)
{
    (void)state;
    tern_ipv6_addr_t d = dest(1);
    assert_null(tern_dcache_lookup(&dc, &d, 0));
    assert_null(tern_dcache_lookup(NULL, &d, 0));
    assert_int_equal(used_slots(), 0);
    assert_true(tern_dcache_next_deadline(&dc) == UINT64_MAX);
}

static void test_tern_dcache_set_redirect__lookup_returns_next_hop(void **state)
{
    (void)state;
    tern_ipv6_addr_t d = dest(1);
    tern_ipv6_addr_t router = A("fe80::2");
    assert_int_equal(tern_dcache_set_redirect(&dc, &d, &router, 3, 5 * SEC, 65 * SEC), 0);
    tern_dcache_entry_t *e = tern_dcache_lookup(&dc, &d, 7 * SEC);
    assert_non_null(e);
    assert_true(e->used);
    assert_true(e->redirected);
    assert_true(tern_ipv6_addr_equal(&e->dst, &d));
    assert_true(tern_ipv6_addr_equal(&e->next_hop, &router));
    assert_int_equal(e->if_index, 3);
    assert_int_equal(e->pmtu, 0);
    assert_true(e->updated_us == 5 * SEC);
    assert_true(e->last_used_us == 7 * SEC); /* the lookup counts as a use */
    assert_true(tern_dcache_next_deadline(&dc) == 65 * SEC);
    /* Another destination is unknown; a second redirect replaces the first. */
    tern_ipv6_addr_t other = dest(2);
    assert_null(tern_dcache_lookup(&dc, &other, 7 * SEC));
    assert_int_equal(tern_dcache_set_redirect(&dc, &d, &d, 4, 8 * SEC, 68 * SEC), 0); /* on-link (§8.3) */
    e = tern_dcache_lookup(&dc, &d, 8 * SEC);
    assert_non_null(e);
    assert_true(tern_ipv6_addr_equal(&e->next_hop, &d));
    assert_int_equal(e->if_index, 4);
    assert_int_equal(used_slots(), 1);
}

/* The count of entries in use follows every way in and out: new entries,
 * updates, eviction of a full table, expiry, forgetting a next hop. */
static void test_tern_dcache_in_use__follows_set_evict_expire_forget(void **state)
{
    (void)state;
    tern_ipv6_addr_t router = A("fe80::2");
    for (uint8_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        tern_ipv6_addr_t d = dest((uint8_t)(i + 1u));
        assert_int_equal(tern_dcache_set_redirect(&dc, &d, &router, 1, SEC, 10 * SEC), 0);
        assert_int_equal(used_slots(), i + 1u);
    }
    tern_ipv6_addr_t first = dest(1);
    assert_int_equal(tern_dcache_set_pmtu(&dc, &first, 1280, 2 * SEC, 20 * SEC), 0); /* an update */
    assert_int_equal(used_slots(), TERN_CONF_IPV6_DCACHE_SIZE);
    tern_ipv6_addr_t extra = dest(200);
    assert_int_equal(tern_dcache_set_redirect(&dc, &extra, &router, 1, 3 * SEC, 10 * SEC), 1); /* evicts */
    assert_int_equal(used_slots(), TERN_CONF_IPV6_DCACHE_SIZE);
    /* dest(1), used last at 2 s, was not the least recently used: kept. At
     * 10 s every redirect expires; its PMTU part lives on. */
    assert_non_null(tern_dcache_lookup(&dc, &first, 4 * SEC));
    (void)tern_dcache_expire(&dc, 10 * SEC);
    assert_int_equal(used_slots(), 1);
    assert_int_equal(tern_dcache_set_redirect(&dc, &extra, &router, 1, 11 * SEC, 30 * SEC), 0);
    assert_int_equal(used_slots(), 2);
    assert_int_equal(tern_dcache_forget_next_hop(&dc, 1, &router), 1);
    assert_int_equal(used_slots(), 1);
    (void)tern_dcache_expire(&dc, 20 * SEC);
    assert_int_equal(used_slots(), 0);
    assert_null(tern_dcache_lookup(&dc, &first, 21 * SEC));
}

static void test_tern_dcache_set_redirect__invalid_arguments_refused(void **state)
{
    (void)state;
    tern_ipv6_addr_t d = dest(1);
    tern_ipv6_addr_t router = A("fe80::2");
    tern_ipv6_addr_t group = A("ff05::1");
    tern_ipv6_addr_t none = A("::");
    assert_int_equal(tern_dcache_set_redirect(&dc, &group, &router, 1, 0, SEC), -EINVAL);
    assert_int_equal(tern_dcache_set_redirect(&dc, &none, &router, 1, 0, SEC), -EINVAL);
    assert_int_equal(tern_dcache_set_redirect(&dc, &d, &group, 1, 0, SEC), -EINVAL);
    assert_int_equal(tern_dcache_set_redirect(&dc, &d, &none, 1, 0, SEC), -EINVAL);
    assert_int_equal(tern_dcache_set_redirect(&dc, &d, &router, 0, 0, SEC), -EINVAL);
    assert_int_equal(tern_dcache_set_redirect(NULL, &d, &router, 1, 0, SEC), -EINVAL);
    assert_int_equal(tern_dcache_set_redirect(&dc, NULL, &router, 1, 0, SEC), -EINVAL);
    assert_int_equal(tern_dcache_set_redirect(&dc, &d, NULL, 1, 0, SEC), -EINVAL);
    assert_int_equal(used_slots(), 0);
}

static void test_tern_dcache_set_pmtu__never_below_1280(void **state)
{
    (void)state;
    tern_ipv6_addr_t d = dest(1);
    tern_ipv6_addr_t none = A("::");
    assert_int_equal(tern_dcache_set_pmtu(&dc, &d, 1279, 0, 600 * SEC), -EINVAL); /* RFC 8201 §4 */
    assert_int_equal(tern_dcache_set_pmtu(&dc, &d, 0, 0, 600 * SEC), -EINVAL);
    assert_int_equal(tern_dcache_set_pmtu(&dc, &none, 1400, 0, 600 * SEC), -EINVAL);
    assert_int_equal(tern_dcache_set_pmtu(NULL, &d, 1400, 0, 600 * SEC), -EINVAL);
    assert_int_equal(used_slots(), 0);
    assert_int_equal(tern_dcache_set_pmtu(&dc, &d, 1280, 0, 600 * SEC), 0);
    tern_dcache_entry_t *e = tern_dcache_lookup(&dc, &d, SEC);
    assert_non_null(e);
    assert_int_equal(e->pmtu, 1280);
    assert_false(e->redirected);
    /* The cache does not judge: a later value replaces it, higher or not. */
    assert_int_equal(tern_dcache_set_pmtu(&dc, &d, 1400, 2 * SEC, 602 * SEC), 0);
    assert_int_equal(tern_dcache_lookup(&dc, &d, 2 * SEC)->pmtu, 1400);
    /* A multicast destination may have a Path MTU (RFC 8201 §5.1: the smallest of its paths). */
    tern_ipv6_addr_t group = A("ff05::1");
    assert_int_equal(tern_dcache_set_pmtu(&dc, &group, 1300, 2 * SEC, 602 * SEC), 0);
}

static void test_tern_dcache_lookup__parts_expire_separately(void **state)
{
    (void)state;
    tern_ipv6_addr_t d = dest(1);
    tern_ipv6_addr_t router = A("fe80::2");
    assert_int_equal(tern_dcache_set_redirect(&dc, &d, &router, 1, 0, 100 * SEC), 0);
    assert_int_equal(tern_dcache_set_pmtu(&dc, &d, 1300, 10 * SEC, 610 * SEC), 0);
    assert_int_equal(used_slots(), 1); /* one entry, two parts */
    assert_true(tern_dcache_next_deadline(&dc) == 100 * SEC);
    tern_dcache_entry_t *e = tern_dcache_lookup(&dc, &d, 100 * SEC - 1);
    assert_true(e->redirected);
    assert_int_equal(e->pmtu, 1300);
    /* At its expiry the redirect goes, the Path MTU stays. */
    e = tern_dcache_lookup(&dc, &d, 100 * SEC);
    assert_non_null(e);
    assert_false(e->redirected);
    assert_int_equal(e->if_index, 0);
    assert_int_equal(e->pmtu, 1300);
    assert_true(tern_dcache_next_deadline(&dc) == 610 * SEC);
    /* RFC 8201 §4: after the timeout the estimate is gone (the link MTU again), and the entry with it. */
    assert_null(tern_dcache_lookup(&dc, &d, 610 * SEC));
    assert_int_equal(used_slots(), 0);
    assert_true(tern_dcache_next_deadline(&dc) == UINT64_MAX);
}

static void test_tern_dcache_expire__frees_entries_left_empty(void **state)
{
    (void)state;
    tern_ipv6_addr_t router = A("fe80::2");
    tern_ipv6_addr_t d1 = dest(1), d2 = dest(2), d3 = dest(3);
    assert_int_equal(tern_dcache_set_redirect(&dc, &d1, &router, 1, 0, 10 * SEC), 0);
    assert_int_equal(tern_dcache_set_pmtu(&dc, &d2, 1400, 0, 20 * SEC), 0);
    assert_int_equal(tern_dcache_set_redirect(&dc, &d3, &router, 1, 0, 10 * SEC), 0);
    assert_int_equal(tern_dcache_set_pmtu(&dc, &d3, 1400, 0, 30 * SEC), 0);
    assert_int_equal(tern_dcache_expire(&dc, 10 * SEC - 1), 0);
    assert_int_equal(used_slots(), 3);
    assert_int_equal(tern_dcache_expire(&dc, 10 * SEC), 1); /* d1; d3 keeps its Path MTU */
    assert_int_equal(used_slots(), 2);
    assert_true(tern_dcache_next_deadline(&dc) == 20 * SEC);
    assert_int_equal(tern_dcache_expire(&dc, 30 * SEC), 2);
    assert_int_equal(used_slots(), 0);
}

static void test_tern_dcache_set__full_table_evicts_least_recently_used(void **state)
{
    (void)state;
    tern_ipv6_addr_t router = A("fe80::2");
    for (uint8_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        tern_ipv6_addr_t d = dest((uint8_t)(i + 1u));
        assert_int_equal(tern_dcache_set_redirect(&dc, &d, &router, 1, i * SEC, 1000 * SEC), 0);
    }
    assert_int_equal(used_slots(), TERN_CONF_IPV6_DCACHE_SIZE);
    /* Destination 1 is used again: destination 2 is now the least recently used. */
    tern_ipv6_addr_t d1 = dest(1);
    assert_non_null(tern_dcache_lookup(&dc, &d1, 100 * SEC));
    tern_ipv6_addr_t fresh = dest(200);
    assert_int_equal(tern_dcache_set_pmtu(&dc, &fresh, 1300, 101 * SEC, 701 * SEC), 1);
    assert_int_equal(used_slots(), TERN_CONF_IPV6_DCACHE_SIZE);
    tern_ipv6_addr_t d2 = dest(2);
    assert_null(tern_dcache_lookup(&dc, &d2, 101 * SEC));
    assert_non_null(tern_dcache_lookup(&dc, &d1, 101 * SEC));
    assert_int_equal(tern_dcache_lookup(&dc, &fresh, 101 * SEC)->pmtu, 1300);
    /* Updating a destination already there evicts nobody. */
    assert_int_equal(tern_dcache_set_redirect(&dc, &fresh, &router, 1, 102 * SEC, 1000 * SEC), 0);
}

static void test_tern_dcache_set__expired_entry_reused_before_eviction(void **state)
{
    (void)state;
    tern_ipv6_addr_t router = A("fe80::2");
    for (uint8_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        tern_ipv6_addr_t d = dest((uint8_t)(i + 1u));
        /* The last one expires early but was used most recently. */
        uint64_t end = (i + 1u == TERN_CONF_IPV6_DCACHE_SIZE) ? 50 * SEC : 1000 * SEC;
        assert_int_equal(tern_dcache_set_redirect(&dc, &d, &router, 1, i * SEC, end), 0);
    }
    tern_ipv6_addr_t fresh = dest(200);
    assert_int_equal(tern_dcache_set_redirect(&dc, &fresh, &router, 1, 60 * SEC, 1000 * SEC), 0);
    tern_ipv6_addr_t d1 = dest(1);
    assert_non_null(tern_dcache_lookup(&dc, &d1, 60 * SEC)); /* the least recently used survived */
    tern_ipv6_addr_t last = dest(TERN_CONF_IPV6_DCACHE_SIZE);
    assert_null(tern_dcache_lookup(&dc, &last, 60 * SEC));
}

static void test_tern_dcache_forget_next_hop__drops_its_redirects_only(void **state)
{
    (void)state;
    tern_ipv6_addr_t r2 = A("fe80::2"), r3 = A("fe80::3");
    tern_ipv6_addr_t d1 = dest(1), d2 = dest(2), d3 = dest(3);
    assert_int_equal(tern_dcache_set_redirect(&dc, &d1, &r2, 1, 0, 100 * SEC), 0);
    assert_int_equal(tern_dcache_set_redirect(&dc, &d2, &r2, 1, 0, 100 * SEC), 0);
    assert_int_equal(tern_dcache_set_pmtu(&dc, &d2, 1300, 0, 600 * SEC), 0);
    assert_int_equal(tern_dcache_set_redirect(&dc, &d3, &r3, 1, 0, 100 * SEC), 0);
    assert_int_equal(tern_dcache_forget_next_hop(&dc, 2, &r2), 0); /* another interface */
    assert_int_equal(tern_dcache_forget_next_hop(&dc, 1, &r2), 2);
    assert_null(tern_dcache_lookup(&dc, &d1, SEC));
    tern_dcache_entry_t *e = tern_dcache_lookup(&dc, &d2, SEC);
    assert_non_null(e);
    assert_false(e->redirected);
    assert_int_equal(e->pmtu, 1300);
    e = tern_dcache_lookup(&dc, &d3, SEC);
    assert_non_null(e);
    assert_true(e->redirected);
    assert_int_equal(used_slots(), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup(fn, setup)
        T(test_tern_dcache_lookup__empty_cache_knows_nothing),
        T(test_tern_dcache_set_redirect__lookup_returns_next_hop),
        T(test_tern_dcache_in_use__follows_set_evict_expire_forget),
    T(test_tern_dcache_set_redirect__invalid_arguments_refused),
        T(test_tern_dcache_set_pmtu__never_below_1280),
        T(test_tern_dcache_lookup__parts_expire_separately),
        T(test_tern_dcache_expire__frees_entries_left_empty),
        T(test_tern_dcache_set__full_table_evicts_least_recently_used),
        T(test_tern_dcache_set__expired_entry_reused_before_eviction),
        T(test_tern_dcache_forget_next_hop__drops_its_redirects_only),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
