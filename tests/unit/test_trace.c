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
#include "tern/stack.h"

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
        cmocka_unit_test_setup_teardown(test_tern_trace_push__disabled_and_cleared, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_msg_type_name__known_and_unknown, setup, teardown),
    };
    cmocka_set_message_output(CM_OUTPUT_STDOUT);
    return cmocka_run_group_tests_name(harness_executor_name(), tests, NULL, NULL);
}
