/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief netapi: SND/RCV/GET/SET and dispatch, under both executors.
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

static int setup(void **state)
{
    (void)state;
    tern_executor_t *ex = harness_exec_start();
    assert_int_equal(tern_stack_init(&stack, "t", ex), 0);
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

static tern_pkt_t *make_pkt(const char *text)
{
    tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, text, strlen(text), TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    return pkt;
}

static void test_tern_netapi_send__delivers_snd(void **state)
{
    (void)state;
    static sink_t sink;
    sink_add(&stack, &sink, "sink", 5, 8, false);
    assert_int_equal(tern_netapi_send(&sink.module, make_pkt("abc")), 0);
    harness_run_until_idle();
    assert_int_equal(sink.snd, 1);
    assert_int_equal(sink.rcv, 0);
}

static void test_tern_netapi_receive__delivers_rcv_with_packet(void **state)
{
    (void)state;
    static sink_t sink;
    sink_add(&stack, &sink, "sink", 5, 8, true);
    assert_int_equal(tern_netapi_receive(&sink.module, make_pkt("hello")), 0);
    harness_run_until_idle();
    assert_int_equal(sink.rcv, 1);
    assert_int_equal(sink.nkept, 1);
    assert_int_equal(sink.kept[0]->size, 5);
    assert_memory_equal(sink.kept[0]->data, "hello", 5);
    sink_release_kept(&stack, &sink);
}

static void test_tern_netapi_send__invalid_arguments(void **state)
{
    (void)state;
    static sink_t sink;
    static tern_module_t detached;
    static tern_msg_t slots[2];
    sink_add(&stack, &sink, "sink", 5, 8, false);
    assert_int_equal(tern_netapi_send(&sink.module, NULL), -EINVAL);
    tern_pkt_t *pkt = make_pkt("x");
    assert_int_equal(tern_netapi_send(NULL, pkt), -EINVAL);
    assert_int_equal(tern_module_init(&detached, "detached", 1, sink.module.handle, &sink, slots, 2), 0);
    /* Not attached to any stack: the packet stays with the caller. */
    assert_int_equal(tern_netapi_receive(&detached, pkt), -EINVAL);
    tern_pktbuf_release(&stack.pktbuf, pkt);
}

/* A post the executor refuses with -EINVAL (in the threaded executor: the
 * module was detached after netapi looked): netapi has released the packet
 * then, so it answers -ENOTCONN; -EINVAL stays "the packet is still yours". */
static int refusing_post(tern_executor_t *ex, tern_module_t *to, const tern_msg_t *msg)
{
    (void)ex;
    (void)to;
    (void)msg;
    return -EINVAL;
}

static tern_module_t *no_current(tern_executor_t *ex)
{
    (void)ex;
    return NULL;
}

static void test_tern_netapi_send__refused_post_is_not_einval(void **state)
{
    (void)state;
    static const tern_executor_ops_t refusing_ops = { .post = refusing_post, .current = no_current };
    /* A module of the stack served by that executor (not one of the test
     * executor's: its thread must not see another executor meanwhile). */
    tern_executor_t refusing = { .ops = &refusing_ops, .clock = stack.exec->clock, .name = "refusing" };
    tern_module_t m = { .name = "refused", .stack = &stack, .exec = &refusing };
    uint32_t before = stack.netapi_drops[TERN_NETAPI_DROP_INVALID];
    assert_int_equal(tern_netapi_send(&m, make_pkt("down")), -ENOTCONN);
    assert_int_equal(tern_netapi_receive(&m, make_pkt("up")), -ENOTCONN);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_INVALID], before + 2);
    /* (teardown: the packet buffer is empty, both packets were released once) */
}

static void test_tern_netapi_send__queue_full_releases_and_counts(void **state)
{
    (void)state;
    static sink_t sink;
    sink_add(&stack, &sink, "sink", 5, 2, false);
#if HARNESS_THREADED
    sink_stall(&sink); /* hold the sink's thread so its queue fills */
#endif
    assert_int_equal(tern_netapi_send(&sink.module, make_pkt("1")), 0);
    assert_int_equal(tern_netapi_send(&sink.module, make_pkt("2")), 0);
    assert_int_equal(tern_netapi_send(&sink.module, make_pkt("3")), -ENOBUFS);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_QUEUE_FULL], 1);
    assert_int_equal(sink.module.queue_full, 1);
#if HARNESS_THREADED
    sink_open_gate(&sink);
#endif
    harness_run_until_idle();
    assert_int_equal(sink.snd, 2);
}

static void test_tern_netapi_get__returns_handler_value(void **state)
{
    (void)state;
    static sink_t sink;
    sink_add(&stack, &sink, "sink", 5, 8, false);
    uint8_t value = 0;
    assert_int_equal(tern_netapi_get(&sink.module, TERN_NETOPT_STATE, 0, &value, 1), 1);
    assert_int_equal(value, SINK_GET_VALUE);
    assert_int_equal(tern_netapi_get(&sink.module, TERN_NETOPT_STATE, 0, &value, 0), -EOVERFLOW);
    assert_int_equal(tern_netapi_get(&sink.module, TERN_NETOPT_CHANNEL, 0, &value, 1), -ENOTSUP);
    assert_int_equal(sink.get, 3);
}

static void test_tern_netapi_set__returns_handler_value(void **state)
{
    (void)state;
    static sink_t sink;
    sink_add(&stack, &sink, "sink", 5, 8, false);
    const uint8_t value[3] = { 1, 2, 3 };
    assert_int_equal(tern_netapi_set(&sink.module, TERN_NETOPT_ADDRESS, 0, value, 3), 3);
    assert_int_equal(sink.set, 1);
    assert_int_equal(tern_netapi_set(NULL, TERN_NETOPT_ADDRESS, 0, value, 3), -EINVAL);
}

/* A module that, on a user message, asks another module for an option from
 * inside its own handler (a nested synchronous call). */
typedef struct {
    tern_module_t module;
    tern_msg_t queue[4];
    tern_module_t *ask;
    int result;
    uint8_t value;
} asker_t;

static int asker_handle(tern_module_t *self, tern_msg_t *msg)
{
    asker_t *a = self->context;
    if (msg->type == TERN_MSG_USER) {
        a->result = tern_netapi_get(a->ask, TERN_NETOPT_STATE, 0, &a->value, 1);
    }
    return 0;
}

static void test_tern_netapi_get__from_another_module(void **state)
{
    (void)state;
    static sink_t sink;
    static asker_t asker;
    sink_add(&stack, &sink, "sink", 5, 8, false);
    memset(&asker, 0, sizeof(asker));
    asker.ask = &sink.module;
    assert_int_equal(tern_module_init(&asker.module, "asker", 6, asker_handle, &asker, asker.queue, 4), 0);
    assert_int_equal(tern_stack_add_module(&stack, &asker.module), 0);
    tern_msg_t msg = { .type = TERN_MSG_USER };
    assert_int_equal(tern_netapi_post(&asker.module, &msg), 0);
    harness_run_until_idle();
    assert_int_equal(asker.result, 1);
    assert_int_equal(asker.value, SINK_GET_VALUE);
}

static void test_tern_netapi_dispatch__holds_once_per_extra_receiver(void **state)
{
    (void)state;
    static sink_t a, b, all;
    static tern_netreg_entry_t ea, eb, eall;
    sink_add(&stack, &a, "a", 5, 8, true);
    sink_add(&stack, &b, "b", 5, 8, true);
    sink_add(&stack, &all, "all", 5, 8, true);
    tern_netreg_entry_init(&ea, 5683, &a.module);
    tern_netreg_entry_init(&eb, 5683, &b.module);
    tern_netreg_entry_init(&eall, TERN_NETREG_DEMUX_CTX_ALL, &all.module);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &ea), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &eb), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &eall), 0);

    tern_pkt_t *pkt = make_pkt("payload");
    assert_int_equal(tern_netapi_dispatch_receive(&stack, TERN_NETTYPE_UDP, 5683, pkt), 3);
    harness_run_until_idle();
    assert_int_equal(a.rcv + b.rcv + all.rcv, 3);
    assert_ptr_equal(a.kept[0], pkt);
    assert_ptr_equal(b.kept[0], pkt);
    assert_int_equal(pkt->users, 3);

    /* Another context reaches only the ALL entry. */
    assert_int_equal(tern_netapi_dispatch_send(&stack, TERN_NETTYPE_UDP, 1, make_pkt("x")), 1);
    harness_run_until_idle();
    assert_int_equal(all.snd, 1);
    assert_int_equal(a.snd + b.snd, 0);

    sink_release_kept(&stack, &a);
    sink_release_kept(&stack, &b);
    sink_release_kept(&stack, &all);
}

/* Without a lock to take, a type with one entry goes the registry's sole
 * path (tern_netreg_sole()): the same outcome as through the collected list. */
static void test_tern_netapi_dispatch__sole_receiver_without_a_lock(void **state)
{
    (void)state;
    static sink_t ip, port;
    static tern_netreg_entry_t eip, eport;
    sink_add(&stack, &ip, "ip", 5, 8, true);
    sink_add(&stack, &port, "port", 5, 8, false);
    tern_netreg_entry_init(&eip, TERN_NETREG_DEMUX_CTX_ALL, &ip.module);
    tern_netreg_entry_init(&eport, 5683, &port.module);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_IPV6, &eip), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &eport), 0);
    stack.netreg.lock = NULL; /* the harness's executors have a real lock */
    assert_non_null(tern_netreg_sole(&stack.netreg, TERN_NETTYPE_IPV6, 7));

    tern_pkt_t *pkt = make_pkt("payload");
    assert_int_equal(tern_netapi_dispatch_receive(&stack, TERN_NETTYPE_IPV6, 7, pkt), 1);
    harness_run_until_idle();
    assert_int_equal(ip.rcv, 1);
    assert_ptr_equal(ip.kept[0], pkt);
    assert_int_equal(pkt->users, 1); /* one receiver: no reference added */

    /* The only entry does not match: no receiver, released and counted. */
    assert_null(tern_netreg_sole(&stack.netreg, TERN_NETTYPE_UDP, 443));
    assert_int_equal(tern_netapi_dispatch_send(&stack, TERN_NETTYPE_UDP, 443, make_pkt("x")), 0);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_NO_RECEIVER], 1);
    assert_int_equal(tern_netapi_dispatch_send(&stack, TERN_NETTYPE_UDP, 5683, make_pkt("y")), 1);
    harness_run_until_idle();
    assert_int_equal(port.snd, 1);

    stack.netreg.lock = tern_stack_lock(&stack);
    sink_release_kept(&stack, &ip);
}

static void test_tern_netapi_dispatch__no_receiver_releases_and_counts(void **state)
{
    (void)state;
    assert_int_equal(tern_netapi_dispatch_receive(&stack, TERN_NETTYPE_IPV6, 0, make_pkt("lost")), 0);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_NO_RECEIVER], 1);
}

static void test_tern_netapi_dispatch__invalid_message_type(void **state)
{
    (void)state;
    assert_int_equal(tern_netapi_dispatch(&stack, TERN_NETTYPE_IPV6, 0, TERN_MSG_GET, make_pkt("a")),
                     -EINVAL);
    assert_int_equal(tern_netapi_dispatch(&stack, TERN_NETTYPE_NUMOF, 0, TERN_MSG_SND, make_pkt("b")),
                     -EINVAL);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_INVALID], 2);
    assert_int_equal(tern_netapi_dispatch(NULL, TERN_NETTYPE_IPV6, 0, TERN_MSG_SND, NULL), -EINVAL);
}

static void test_tern_netapi_deliver__one_reference_per_given_module(void **state)
{
    (void)state;
    static sink_t a, b;
    sink_add(&stack, &a, "a", 5, 8, true);
    sink_add(&stack, &b, "b", 5, 8, true);
    /* No netreg entry: the caller names the receivers. */
    tern_module_t *to[2] = { &a.module, &b.module };
    tern_pkt_t *pkt = make_pkt("payload");
    assert_int_equal(tern_netapi_deliver(&stack, to, 2, TERN_MSG_RCV, pkt), 2);
    harness_run_until_idle();
    assert_int_equal(a.rcv + b.rcv, 2);
    assert_ptr_equal(a.kept[0], pkt);
    assert_ptr_equal(b.kept[0], pkt);
    assert_int_equal(pkt->users, 2);
    sink_release_kept(&stack, &a);
    sink_release_kept(&stack, &b);
    /* Nobody: released and counted; a bad message type: released and counted. */
    assert_int_equal(tern_netapi_deliver(&stack, to, 0, TERN_MSG_RCV, make_pkt("lost")), 0);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_NO_RECEIVER], 1);
    assert_int_equal(tern_netapi_deliver(&stack, to, 1, TERN_MSG_GET, make_pkt("bad")), -EINVAL);
    assert_int_equal(tern_netapi_deliver(&stack, NULL, 1, TERN_MSG_SND, make_pkt("bad")), -EINVAL);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_INVALID], 2);
    assert_int_equal(tern_netapi_deliver(NULL, to, 1, TERN_MSG_SND, NULL), -EINVAL);
}

static void test_tern_netapi_dispatch__full_receiver_loses_only_its_copy(void **state)
{
    (void)state;
    static sink_t small, big;
    static tern_netreg_entry_t es, eb;
    sink_add(&stack, &small, "small", 5, 2, false);
    sink_add(&stack, &big, "big", 5, 8, false);
    tern_netreg_entry_init(&es, 1, &small.module);
    tern_netreg_entry_init(&eb, 1, &big.module);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_TEST, &es), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_TEST, &eb), 0);
#if HARNESS_THREADED
    sink_stall(&small);
    sink_stall(&big);
#endif
    assert_int_equal(tern_netapi_dispatch_send(&stack, TERN_NETTYPE_TEST, 1, make_pkt("1")), 2);
    assert_int_equal(tern_netapi_dispatch_send(&stack, TERN_NETTYPE_TEST, 1, make_pkt("2")), 2);
    assert_int_equal(tern_netapi_dispatch_send(&stack, TERN_NETTYPE_TEST, 1, make_pkt("3")), 1);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_QUEUE_FULL], 1);
#if HARNESS_THREADED
    sink_open_gate(&small);
    sink_open_gate(&big);
#endif
    harness_run_until_idle();
    assert_int_equal(small.snd, 2);
    assert_int_equal(big.snd, 3);
}

static void test_tern_netapi_dispatch__too_many_receivers_counted(void **state)
{
    (void)state;
    static sink_t sinks[TERN_CONF_NETAPI_MAX_RECEIVERS + 1];
    static tern_netreg_entry_t entries[TERN_CONF_NETAPI_MAX_RECEIVERS + 1];
    for (unsigned i = 0; i < TERN_CONF_NETAPI_MAX_RECEIVERS + 1; i++) {
        sink_add(&stack, &sinks[i], "s", 5, 8, false);
        tern_netreg_entry_init(&entries[i], TERN_NETREG_DEMUX_CTX_ALL, &sinks[i].module);
        assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_TEST, &entries[i]), 0);
    }
    assert_int_equal(tern_netapi_dispatch_send(&stack, TERN_NETTYPE_TEST, 9, make_pkt("many")),
                     TERN_CONF_NETAPI_MAX_RECEIVERS);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_TOO_MANY], 1);
    harness_run_until_idle();
    uint32_t total = 0;
    for (unsigned i = 0; i < TERN_CONF_NETAPI_MAX_RECEIVERS + 1; i++) {
        total += sinks[i].snd;
    }
    assert_int_equal(total, TERN_CONF_NETAPI_MAX_RECEIVERS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tern_netapi_send__delivers_snd, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_receive__delivers_rcv_with_packet, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_send__invalid_arguments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_send__refused_post_is_not_einval, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_send__queue_full_releases_and_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_get__returns_handler_value, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_set__returns_handler_value, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_get__from_another_module, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_dispatch__holds_once_per_extra_receiver, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_dispatch__sole_receiver_without_a_lock, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_dispatch__no_receiver_releases_and_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_dispatch__invalid_message_type, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_deliver__one_reference_per_given_module, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_dispatch__full_receiver_loses_only_its_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netapi_dispatch__too_many_receivers_counted, setup, teardown),
    };
    cmocka_set_message_output(CM_OUTPUT_STDOUT);
    return cmocka_run_group_tests_name(harness_executor_name(), tests, NULL, NULL);
}
