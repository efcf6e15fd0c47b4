/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Unit tests of the pure snip-list helpers of pkt.h.
 *
 * Packets are built in a real pktbuf so that teardown can assert, as every
 * test's teardown does, that the pktbuf is consistent and empty.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tern/pkt.h"
#include "tern/pktbuf.h"

#include "harness.h"

#define ARENA_SIZE 1024

typedef struct {
    TERN_PKTBUF_STORAGE(storage, ARENA_SIZE);
    tern_pktbuf_t pb;
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    assert_int_equal(tern_pktbuf_init(&f->pb, f->storage, sizeof(f->storage), NULL), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    harness_assert_pktbuf_clean(&f->pb);
    free(f);
    return 0;
}

/** [A(3 bytes "abc"), empty UDP, B(2 bytes "de"), empty NETIF, C(1 byte "f")], transmission order. */
static tern_pkt_t *build_mixed(tern_pktbuf_t *pb)
{
    tern_pkt_t *pkt = tern_pktbuf_add(pb, NULL, "f", 1, TERN_NETTYPE_UNDEF);
    pkt = tern_pktbuf_add(pb, pkt, NULL, 0, TERN_NETTYPE_NETIF);
    pkt = tern_pktbuf_add(pb, pkt, "de", 2, TERN_NETTYPE_IPV6);
    pkt = tern_pktbuf_add(pb, pkt, NULL, 0, TERN_NETTYPE_UDP);
    pkt = tern_pktbuf_add(pb, pkt, "abc", 3, TERN_NETTYPE_IPV6);
    assert_non_null(pkt);
    return pkt;
}

/* ------------------------------------------------------------ len, count */

static void test_pkt_len__NULL(void **state)
{
    (void)state;
    assert_int_equal(tern_pkt_len(NULL), 0);
}

static void test_pkt_len__sums_all_snips(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    assert_int_equal(tern_pkt_len(pkt), 6);
    assert_int_equal(tern_pkt_len(pkt->next->next), 3);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_count__NULL(void **state)
{
    (void)state;
    assert_int_equal(tern_pkt_count(NULL), 0);
}

static void test_pkt_count__counts_empty_snips_too(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    assert_int_equal(tern_pkt_count(pkt), 5);
    tern_pktbuf_release(&f->pb, pkt);
}

/* ------------------------------------------------------------ search_type */

static void test_pkt_search_type__returns_first_match(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    assert_ptr_equal(tern_pkt_search_type(pkt, TERN_NETTYPE_IPV6), pkt);
    assert_ptr_equal(tern_pkt_search_type(pkt->next, TERN_NETTYPE_IPV6), pkt->next->next);
    assert_ptr_equal(tern_pkt_search_type(pkt, TERN_NETTYPE_NETIF), pkt->next->next->next);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_search_type__not_found(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    assert_null(tern_pkt_search_type(pkt, TERN_NETTYPE_TCP));
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_search_type__NULL(void **state)
{
    (void)state;
    assert_null(tern_pkt_search_type(NULL, TERN_NETTYPE_UNDEF));
}

/* ------------------------------------------------------------ to_iolist */

static void test_pkt_to_iolist__NULL_pkt(void **state)
{
    (void)state;
    tern_iolist_t vec[1];
    assert_int_equal(tern_pkt_to_iolist(NULL, vec, 1), 0);
    assert_int_equal(tern_pkt_to_iolist(NULL, NULL, 0), 0);
}

static void test_pkt_to_iolist__skips_empty_snips(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    tern_iolist_t vec[8];
    assert_int_equal(tern_pkt_to_iolist(pkt, vec, 8), 3);
    assert_ptr_equal(vec[0].base, pkt->data);
    assert_int_equal(vec[0].len, 3);
    assert_ptr_equal(vec[1].base, pkt->next->next->data);
    assert_int_equal(vec[1].len, 2);
    assert_ptr_equal(vec[2].base, pkt->next->next->next->next->data);
    assert_int_equal(vec[2].len, 1);
    assert_memory_equal(vec[0].base, "abc", 3);
    assert_memory_equal(vec[1].base, "de", 2);
    assert_memory_equal(vec[2].base, "f", 1);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_to_iolist__exact_capacity(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    tern_iolist_t vec[3];
    assert_int_equal(tern_pkt_to_iolist(pkt, vec, 3), 3);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_to_iolist__capacity_too_small(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    tern_iolist_t vec[3];
    memset(vec, 0xa5, sizeof(vec));
    tern_iolist_t before[3];
    memcpy(before, vec, sizeof(vec));
    assert_int_equal(tern_pkt_to_iolist(pkt, vec, 0), -ENOBUFS);
    assert_memory_equal(vec, before, sizeof(vec)); /* room for none: none written */
    assert_int_equal(tern_pkt_to_iolist(pkt, vec, 2), -ENOBUFS);
    assert_memory_equal(&vec[2], &before[2], sizeof(vec[2])); /* nothing past max */
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_to_iolist__vec_NULL(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    assert_int_equal(tern_pkt_to_iolist(pkt, NULL, 8), -EINVAL);
    assert_int_equal(tern_pkt_to_iolist(pkt, NULL, 0), -EINVAL);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_to_iolist__vec_NULL_only_empty_snips(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_NETIF);
    assert_non_null(pkt);
    assert_int_equal(tern_pkt_to_iolist(pkt, NULL, 0), 0);
    tern_pktbuf_release(&f->pb, pkt);
}

/* ------------------------------------------------------------ copy_out */

static void test_pkt_copy_out__list_order(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    char buf[16];
    memset(buf, 'x', sizeof(buf));
    assert_int_equal(tern_pkt_copy_out(pkt, buf, sizeof(buf)), 6);
    assert_memory_equal(buf, "abcdefxx", 8);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_copy_out__exact_length(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    char buf[6];
    assert_int_equal(tern_pkt_copy_out(pkt, buf, sizeof(buf)), 6);
    assert_memory_equal(buf, "abcdef", 6);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_copy_out__short_buffer(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    char buf[5];
    memset(buf, 'x', sizeof(buf));
    assert_int_equal(tern_pkt_copy_out(pkt, buf, sizeof(buf)), -ENOBUFS);
    assert_memory_equal(buf, "xxxxx", 5); /* nothing written on error */
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_copy_out__empty_packet(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, NULL, 0, TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    assert_int_equal(tern_pkt_copy_out(pkt, NULL, 0), 0);
    assert_int_equal(tern_pkt_copy_out(NULL, NULL, 0), 0);
    tern_pktbuf_release(&f->pb, pkt);
}

static void test_pkt_copy_out__buf_NULL(void **state)
{
    fixture_t *f = *state;
    tern_pkt_t *pkt = build_mixed(&f->pb);
    assert_int_equal(tern_pkt_copy_out(pkt, NULL, 100), -EINVAL);
    tern_pktbuf_release(&f->pb, pkt);
}

/* ------------------------------------------------------------ NETERR */

static void dummy_report(void *ctx, int err)
{
    (void)ctx;
    (void)err;
}

static void test_pkt_helpers__neterr_snips_never_reach_the_wire(void **state)
{
    fixture_t *f = *state;
    tern_neterr_report_t hook = { dummy_report, NULL };
    tern_pkt_t *pkt = tern_pktbuf_add(&f->pb, NULL, &hook, sizeof(hook), TERN_NETTYPE_NETERR);
    pkt = tern_pktbuf_add(&f->pb, pkt, "xy", 2, TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    assert_int_equal(tern_pkt_len(pkt), 2);
    assert_int_equal(tern_pkt_count(pkt), 2);
    tern_iolist_t vec[1];
    assert_int_equal(tern_pkt_to_iolist(pkt, vec, 1), 1);
    assert_int_equal(vec[0].len, 2);
    char buf[2];
    assert_int_equal(tern_pkt_copy_out(pkt, buf, sizeof(buf)), 2);
    assert_memory_equal(buf, "xy", 2);
    tern_pktbuf_release(&f->pb, pkt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_pkt_len__NULL),
        T(test_pkt_len__sums_all_snips),
        T(test_pkt_count__NULL),
        T(test_pkt_count__counts_empty_snips_too),
        T(test_pkt_search_type__returns_first_match),
        T(test_pkt_search_type__not_found),
        T(test_pkt_search_type__NULL),
        T(test_pkt_to_iolist__NULL_pkt),
        T(test_pkt_to_iolist__skips_empty_snips),
        T(test_pkt_to_iolist__exact_capacity),
        T(test_pkt_to_iolist__capacity_too_small),
        T(test_pkt_to_iolist__vec_NULL),
        T(test_pkt_to_iolist__vec_NULL_only_empty_snips),
        T(test_pkt_copy_out__list_order),
        T(test_pkt_copy_out__exact_length),
        T(test_pkt_copy_out__short_buffer),
        T(test_pkt_copy_out__empty_packet),
        T(test_pkt_copy_out__buf_NULL),
        T(test_pkt_helpers__neterr_snips_never_reach_the_wire),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
