/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Trace: every netapi hop recorded with a packet summary; the ring wraps.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "sink.h"
#include "tern/netapi.h"
#include "tern/netif_hdr.h"
#include "tern/stack.h"
#include "tern/trace.h"

static tern_stack_t stack;
static sink_t sink;

static int setup(void **state)
{
    (void)state;
    assert_int_equal(tern_stack_init(&stack, "t", harness_exec_start()), 0);
    sink_add(&stack, &sink, "sink", 5, 8, false);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    harness_run_until_idle();
    harness_exec_stop();
    harness_assert_pktbuf_clean(&stack.pktbuf);
    return 0;
}

static void test_tern_trace_get__records_send_with_summary(void **state)
{
    (void)state;
    if (!TERN_CONF_TRACE) {
        skip();
    }
    tern_pkt_t *payload = tern_pktbuf_add(&stack.pktbuf, NULL, "0123456789", 10, TERN_NETTYPE_UNDEF);
    tern_pkt_t *udp = tern_pktbuf_add(&stack.pktbuf, payload, NULL, 8, TERN_NETTYPE_UDP);
    tern_pkt_t *ip = tern_pktbuf_add(&stack.pktbuf, udp, NULL, 40, TERN_NETTYPE_IPV6);
    assert_non_null(ip);
    assert_int_equal(tern_netapi_send(&sink.module, ip), 0);
    harness_run_until_idle();
    assert_int_equal(tern_trace_count(&stack.trace), 1);
    tern_trace_entry_t e;
    assert_int_equal(tern_trace_get(&stack.trace, 0, &e), 0);
    assert_string_equal(e.from, "-");
    assert_string_equal(e.to, "sink");
    assert_int_equal(e.msg_type, TERN_MSG_SND);
    assert_int_equal(e.pkt_len, 58);
    assert_int_equal(e.nsnips, 3);
    assert_int_equal(e.types[0], TERN_NETTYPE_IPV6);
    assert_int_equal(e.types[1], TERN_NETTYPE_UDP);
    assert_int_equal(e.types[2], TERN_NETTYPE_UNDEF);
    assert_int_equal(e.result, 0);
    assert_int_equal(tern_trace_get(&stack.trace, 1, &e), -ENOENT);
}

static void test_tern_trace_get__get_and_ack_recorded(void **state)
{
    (void)state;
    if (!TERN_CONF_TRACE) {
        skip();
    }
    uint8_t v;
    assert_int_equal(tern_netapi_get(&sink.module, TERN_NETOPT_CHANNEL, 0, &v, 1), -ENOTSUP);
    assert_int_equal(tern_trace_count(&stack.trace), 2);
    tern_trace_entry_t get, ack;
    assert_int_equal(tern_trace_get(&stack.trace, 0, &get), 0);
    assert_int_equal(tern_trace_get(&stack.trace, 1, &ack), 0);
    assert_int_equal(get.msg_type, TERN_MSG_GET);
    assert_int_equal(get.result, -ENOTSUP);
    assert_int_equal(ack.msg_type, TERN_MSG_ACK);
    assert_string_equal(ack.from, "sink");
    assert_string_equal(ack.to, "-");
}

static void test_tern_trace_push__ring_keeps_newest(void **state)
{
    (void)state;
    if (!TERN_CONF_TRACE) {
        skip();
    }
    const unsigned n = TERN_CONF_TRACE_LEN + 5;
    for (unsigned i = 0; i < n; i++) {
        tern_msg_t msg = { .type = (uint16_t)(TERN_MSG_USER + 100 + i) };
        assert_int_equal(tern_netapi_post(&sink.module, &msg), 0);
        harness_run_until_idle();
    }
    assert_int_equal(stack.trace.total, n);
    assert_int_equal(tern_trace_count(&stack.trace), TERN_CONF_TRACE_LEN);
    tern_trace_entry_t first, last;
    assert_int_equal(tern_trace_get(&stack.trace, 0, &first), 0);
    assert_int_equal(tern_trace_get(&stack.trace, TERN_CONF_TRACE_LEN - 1, &last), 0);
    assert_int_equal(first.msg_type, TERN_MSG_USER + 100 + 5);
    assert_int_equal(last.msg_type, TERN_MSG_USER + 100 + n - 1);
    assert_true(first.time_us <= last.time_us);
}

/* The number of entries ever recorded does not wrap at 2^32: past it the ring
 * still shows all it holds, and a refused post's error still finds its entry. */
static void test_tern_trace_count__full_ring_past_2_pow_32_records(void **state)
{
    (void)state;
    if (!TERN_CONF_TRACE) {
        skip();
    }
    for (unsigned i = 0; i < TERN_CONF_TRACE_LEN; i++) {
        tern_msg_t msg = { .type = TERN_MSG_USER };
        assert_int_equal(tern_netapi_post(&sink.module, &msg), 0);
        harness_run_until_idle();
    }
    stack.trace.total = UINT32_MAX - 1u; /* as after four billion hops */
    for (unsigned i = 0; i < 3; i++) {
        tern_msg_t msg = { .type = (uint16_t)(TERN_MSG_USER + 7 + i) };
        assert_int_equal(tern_netapi_post(&sink.module, &msg), 0);
        harness_run_until_idle();
    }
    assert_true(stack.trace.total == (uint64_t)UINT32_MAX + 2u);
    assert_int_equal(tern_trace_count(&stack.trace), TERN_CONF_TRACE_LEN);
    tern_trace_entry_t last;
    assert_int_equal(tern_trace_get(&stack.trace, TERN_CONF_TRACE_LEN - 1, &last), 0);
    assert_int_equal(last.msg_type, TERN_MSG_USER + 9);
}

static void test_tern_trace_push__disabled_and_cleared(void **state)
{
    (void)state;
    if (!TERN_CONF_TRACE) {
        skip();
    }
    tern_msg_t msg = { .type = TERN_MSG_USER };
    assert_int_equal(tern_netapi_post(&sink.module, &msg), 0);
    tern_trace_clear(&stack.trace);
    assert_int_equal(tern_trace_count(&stack.trace), 0);
    stack.trace.enabled = false;
    msg.sender = NULL;
    assert_int_equal(tern_netapi_post(&sink.module, &msg), 0);
    assert_int_equal(tern_trace_count(&stack.trace), 0);
    harness_run_until_idle();
}

/* tern_trace_record() describes the hop in place in the ring, every field
 * written (the slot's old bytes do not show through), with the result
 * clamped as tern_trace_push() does; nothing when disabled. */
static void test_tern_trace_record__in_place_every_field_written(void **state)
{
    (void)state;
#if TERN_CONF_TRACE
    tern_trace_t trace;
    tern_trace_init(&trace);
    memset(trace.ring, 0xAA, sizeof(trace.ring));
    tern_pkt_t *payload = tern_pktbuf_add(&stack.pktbuf, NULL, "abcdef", 6, TERN_NETTYPE_UNDEF);
    tern_pkt_t *hdr = tern_pktbuf_add(&stack.pktbuf, payload, NULL, sizeof(tern_netif_hdr_t), TERN_NETTYPE_NETIF);
    assert_non_null(hdr);
    tern_msg_t msg = { .type = TERN_MSG_SND, .content.pkt = hdr };
    tern_trace_record(&trace, 42, NULL, &sink.module, &msg, 0);
    tern_msg_t user = { .type = TERN_MSG_USER };
    tern_trace_record(&trace, 43, &sink.module, &sink.module, &user, -300);
    assert_int_equal(tern_trace_count(&trace), 2);
    tern_trace_entry_t e;
    assert_int_equal(tern_trace_get(&trace, 0, &e), 0);
    assert_int_equal(e.time_us, 42);
    assert_string_equal(e.from, "-");
    assert_string_equal(e.to, "sink");
    assert_int_equal(e.msg_type, TERN_MSG_SND);
    assert_int_equal(e.pkt_len, 6); /* the interface header is metadata */
    assert_int_equal(e.nsnips, 2);
    assert_int_equal(e.types[0], TERN_NETTYPE_NETIF);
    assert_int_equal(e.types[1], TERN_NETTYPE_UNDEF);
    assert_int_equal(e.types[2], 0);
    assert_int_equal(e.types[3], 0);
    assert_int_equal(e.result, 0);
    assert_int_equal(tern_trace_get(&trace, 1, &e), 0);
    assert_string_equal(e.from, "sink");
    assert_int_equal(e.msg_type, TERN_MSG_USER);
    assert_int_equal(e.nsnips, 0);
    assert_int_equal(e.pkt_len, 0);
    assert_int_equal(e.types[0], 0);
    assert_int_equal(e.result, -128);
    trace.enabled = false;
    tern_trace_record(&trace, 44, NULL, &sink.module, &msg, 0);
    assert_int_equal(tern_trace_count(&trace), 2);
    tern_pktbuf_release(&stack.pktbuf, hdr);
#else
    skip();
#endif
}

/* A packet of more snips than an entry keeps types of: the first types,
 * every snip counted, every byte but the metadata's. */
static void test_tern_trace_describe__long_packet_summary(void **state)
{
    (void)state;
    tern_pkt_t *pkt = NULL;
    for (unsigned i = 0; i < 6; i++) {
        pkt = tern_pktbuf_add(&stack.pktbuf, pkt, NULL, 10u + i, (i == 0) ? TERN_NETTYPE_NETERR : TERN_NETTYPE_UDP);
        assert_non_null(pkt);
    }
    tern_msg_t msg = { .type = TERN_MSG_RCV, .content.pkt = pkt };
    tern_trace_entry_t e;
    memset(&e, 0x55, sizeof(e));
    tern_trace_describe(&e, 7, &sink.module, NULL, &msg);
    assert_int_equal(e.nsnips, 6);
    assert_int_equal(e.pkt_len, 11 + 12 + 13 + 14 + 15); /* not the NETERR snip's 10 */
    for (unsigned i = 0; i < TERN_TRACE_TYPES; i++) {
        assert_int_equal(e.types[i], TERN_NETTYPE_UDP);
    }
    assert_string_equal(e.to, "-");
    assert_int_equal(e.result, 0);
    tern_pktbuf_release(&stack.pktbuf, pkt);
}

/* A post is recorded as it is tried, before the receiver can run; one the
 * executor refuses (queue full) keeps its error in the entry. */
static void test_tern_trace_get__refused_post_keeps_its_error(void **state)
{
    (void)state;
    if (!TERN_CONF_TRACE) {
        skip();
    }
    static sink_t small;
    sink_add(&stack, &small, "small", 5, 2, false);
#if HARNESS_THREADED
    sink_stall(&small); /* hold its thread so its queue fills */
#endif
    tern_trace_clear(&stack.trace);
    for (unsigned i = 0; i < 3; i++) {
        tern_msg_t msg = { .type = TERN_MSG_USER };
        assert_int_equal(tern_netapi_post(&small.module, &msg), (i < 2) ? 0 : -ENOBUFS);
    }
    assert_int_equal(tern_trace_count(&stack.trace), 3);
    for (unsigned i = 0; i < 3; i++) {
        tern_trace_entry_t e;
        assert_int_equal(tern_trace_get(&stack.trace, i, &e), 0);
        assert_string_equal(e.to, "small");
        assert_int_equal(e.result, (i < 2) ? 0 : -ENOBUFS);
    }
#if HARNESS_THREADED
    sink_open_gate(&small);
#endif
    harness_run_until_idle();
}

/* A module whose GET handler posts more messages to itself than the ring
 * holds, then fails: the GET's entry is gone by then. */
static tern_module_t chatty;
static tern_msg_t chatty_queue[128];

static int chatty_handle(tern_module_t *self, tern_msg_t *msg)
{
    if (msg->type != TERN_MSG_GET) {
        return 0;
    }
    for (unsigned i = 0; i < TERN_CONF_TRACE_LEN; i++) {
        tern_msg_t note = { .type = TERN_MSG_USER };
        assert_int_equal(tern_netapi_post(self, &note), 0);
    }
    return -ENOTSUP;
}

/* The error of a hop whose entry was overwritten meanwhile is not written
 * into the slot's new entry. */
static void test_tern_trace_get__error_of_an_overwritten_entry_is_dropped(void **state)
{
    (void)state;
    if (!TERN_CONF_TRACE) {
        skip();
    }
    _Static_assert(TERN_CONF_TRACE_LEN < 128, "chatty's queue holds a ring's worth of posts");
    assert_int_equal(tern_module_init(&chatty, "chatty", 5, chatty_handle, NULL, chatty_queue, 128), 0);
    assert_int_equal(tern_stack_add_module(&stack, &chatty), 0);
    tern_trace_clear(&stack.trace);
    uint8_t v;
    assert_int_equal(tern_netapi_get(&chatty, TERN_NETOPT_CHANNEL, 0, &v, 1), -ENOTSUP);
    /* GET, the posts, ACK: the GET and the first post have been overwritten. */
    assert_int_equal(stack.trace.total, TERN_CONF_TRACE_LEN + 2);
    for (unsigned i = 0; i + 1 < TERN_CONF_TRACE_LEN; i++) {
        tern_trace_entry_t e;
        assert_int_equal(tern_trace_get(&stack.trace, i, &e), 0);
        assert_int_equal(e.msg_type, TERN_MSG_USER);
        assert_int_equal(e.result, 0);
    }
    tern_trace_entry_t ack;
    assert_int_equal(tern_trace_get(&stack.trace, TERN_CONF_TRACE_LEN - 1, &ack), 0);
    assert_int_equal(ack.msg_type, TERN_MSG_ACK);
    assert_int_equal(ack.result, -ENOTSUP);
    harness_run_until_idle();
}

static void test_tern_msg_type_name__known_and_unknown(void **state)
{
    (void)state;
    assert_string_equal(tern_msg_type_name(TERN_MSG_SND), "SND");
    assert_string_equal(tern_msg_type_name(TERN_MSG_ACK), "ACK");
    assert_string_equal(tern_msg_type_name(TERN_MSG_USER + 3), "USER");
    assert_string_equal(tern_msg_type_name(0), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tern_trace_get__records_send_with_summary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_trace_get__get_and_ack_recorded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_trace_push__ring_keeps_newest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_trace_record__in_place_every_field_written, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_trace_describe__long_packet_summary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_trace_count__full_ring_past_2_pow_32_records, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_trace_push__disabled_and_cleared, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_trace_get__refused_post_keeps_its_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_trace_get__error_of_an_overwritten_entry_is_dropped, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_tern_msg_type_name__known_and_unknown, setup, teardown),
    };
    cmocka_set_message_output(CM_OUTPUT_STDOUT);
    return cmocka_run_group_tests_name(harness_executor_name(), tests, NULL, NULL);
}
