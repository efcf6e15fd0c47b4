/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The event loop's hand-off (TERN_CONF_LOOP_HANDOFF_DEPTH): a packet a
 *        handler sends runs the next module's handler at once only when the
 *        loop would run it next anyway; otherwise it is queued. And
 *        may_continue(): a handler may go on with its own next piece of work
 *        only when a message to itself would run next.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/netapi.h"
#include "tern/port/loop.h"
#include "tern/port/posix.h"
#include "tern/stack.h"

#define MODULES 10
#define LOG_MAX 64

/** What a relay module does with a packet it gets. */
typedef struct {
    tern_module_t module;
    tern_msg_t slots[8];
    tern_module_t *send_to;   /**< hand the packet on to this module (else release it) */
    tern_module_t *note_to;   /**< first post a USER message to this module */
    unsigned passes;          /**< packets still to hand on (then release) */
    void (*during)(void);     /**< called inside the handler, before passing the packet on */
} relay_t;

/** One log line: which module, and whether it is the start or the end of its handler. */
typedef struct {
    char module;
    char edge;     /**< '(' handler starts, ')' handler returns */
    uint8_t depth; /**< loop.depth inside the handler */
} log_entry_t;

static tern_vclock_t vclock;
static tern_loop_t loop;
static tern_stack_t stack;
static relay_t relays[MODULES];
static const char *const names[MODULES] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j" };
static log_entry_t log_entries[LOG_MAX];
static size_t log_len;
/** The thread that runs the loop (every handler must run on it). */
static pthread_t loop_thread;
static tern_posix_loop_sync_t sync;
static bool sync_bound;

static void note(const tern_module_t *m, char edge)
{
    assert_true(log_len < LOG_MAX);
    log_entries[log_len++] = (log_entry_t){ .module = m->name[0], .edge = edge, .depth = loop.depth };
}

static int relay_handle(tern_module_t *self, tern_msg_t *msg)
{
    relay_t *r = self->context;
    note(self, '(');
    assert_true(pthread_equal(pthread_self(), loop_thread));
    if (r->during != NULL) {
        r->during();
    }
    if (msg->type == TERN_MSG_SND || msg->type == TERN_MSG_RCV) {
        if (r->note_to != NULL) {
            tern_msg_t user = { .type = TERN_MSG_USER };
            assert_int_equal(tern_netapi_post(r->note_to, &user), 0);
        }
        if (r->send_to != NULL && r->passes > 0) {
            r->passes--;
            assert_int_equal(tern_netapi_send(r->send_to, msg->content.pkt), 0);
        } else {
            tern_pktbuf_release(&stack.pktbuf, msg->content.pkt);
        }
    }
    note(self, ')');
    return 0;
}

static int setup(void **state)
{
    (void)state;
    tern_vclock_init(&vclock, 1000000);
    tern_loop_init(&loop, &vclock.base);
    assert_int_equal(tern_stack_init(&stack, "t", &loop.base), 0);
    memset(relays, 0, sizeof(relays));
    memset(log_entries, 0, sizeof(log_entries));
    log_len = 0;
    loop_thread = pthread_self();
    sync_bound = false;
    for (size_t i = 0; i < MODULES; i++) {
        relay_t *r = &relays[i];
        assert_int_equal(tern_module_init(&r->module, names[i], 5, relay_handle, r, r->slots, 8), 0);
        assert_int_equal(tern_stack_add_module(&stack, &r->module), 0);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    tern_executor_stop(&loop.base);
    if (sync_bound) {
        tern_posix_loop_sync_destroy(&sync);
    }
    harness_assert_pktbuf_clean(&stack.pktbuf);
    return 0;
}

/** Bind the POSIX platform (as tern-node does): other threads may post from now on. */
static void bind_platform(void)
{
    assert_int_equal(tern_posix_loop_bind(&loop, &sync), 0);
    sync_bound = true;
}

/** Send a packet from outside the loop to relays[0] and run until idle. */
static void send_from_outside(void)
{
    tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, "x", 1, TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    assert_int_equal(tern_netapi_send(&relays[0].module, pkt), 0);
    /* Posted from outside any handler: queued, nothing has run yet. */
    assert_int_equal(log_len, 0);
    assert_int_equal(loop.pending, 1);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
}

/** The log as a string "a(b(b)a)": module and edge per entry. */
static const char *log_string(void)
{
    static char text[2 * LOG_MAX + 1];
    for (size_t i = 0; i < log_len; i++) {
        text[2 * i] = log_entries[i].module;
        text[2 * i + 1] = log_entries[i].edge;
    }
    text[2 * log_len] = '\0';
    return text;
}

static void chain(size_t from, size_t to)
{
    relays[from].send_to = &relays[to].module;
    relays[from].passes = 1;
}

static void test_handoff__idle_loop_runs_the_next_handler_nested(void **state)
{
    (void)state;
    chain(0, 1);
    chain(1, 2);
    send_from_outside();
#if TERN_CONF_LOOP_HANDOFF_DEPTH >= 2
    assert_string_equal(log_string(), "a(b(c(c)b)a)");
    assert_int_equal(log_entries[2].depth, 3);
    assert_int_equal(loop.handoffs, 2);
    assert_int_equal(loop.steps, 1);
#else
    assert_string_equal(log_string(), "a(a)b(b)c(c)");
    assert_int_equal(loop.handoffs, 0);
    assert_int_equal(loop.steps, 3);
#endif
}

static void test_handoff__queued_when_another_message_waits(void **state)
{
    (void)state;
    /* a posts a USER message to d first: b's packet is then queued too, and
     * the loop serves both in its own order (equal priorities: list order). */
    chain(0, 1);
    relays[0].note_to = &relays[3].module;
    send_from_outside();
    assert_string_equal(log_string(), "a(a)b(b)d(d)");
    assert_int_equal(loop.handoffs, 0);
    assert_int_equal(loop.steps, 3);
}

static void test_handoff__a_module_on_the_stack_is_not_reentered(void **state)
{
    (void)state;
    /* a -> b -> a: a is still running when b sends back, so that one is queued. */
    chain(0, 1);
    chain(1, 0);
    relays[0].passes = 2;
    relays[1].passes = 2;
    send_from_outside();
#if TERN_CONF_LOOP_HANDOFF_DEPTH >= 2
    /* Second round: a hands to b again (idle), b's send to a is queued, a releases. */
    assert_string_equal(log_string(), "a(b(b)a)a(b(b)a)a(a)");
    assert_int_equal(loop.handoffs, 2);
#else
    assert_string_equal(log_string(), "a(a)b(b)a(a)b(b)a(a)");
#endif
    for (size_t i = 0; i < log_len; i++) {
        assert_true(log_entries[i].depth <= 2);
    }
}

static void test_handoff__nesting_is_bounded(void **state)
{
    (void)state;
    for (size_t i = 0; i + 1 < MODULES; i++) {
        chain(i, i + 1);
    }
    send_from_outside();
    unsigned deepest = 0;
    unsigned handled = 0;
    for (size_t i = 0; i < log_len; i++) {
        if (log_entries[i].depth > deepest) {
            deepest = log_entries[i].depth;
        }
        handled += (log_entries[i].edge == '(');
    }
    assert_int_equal(handled, MODULES);
    unsigned bound = (TERN_CONF_LOOP_HANDOFF_DEPTH < 1) ? 1 : TERN_CONF_LOOP_HANDOFF_DEPTH;
    assert_int_equal(deepest, (bound < MODULES) ? bound : MODULES);
    assert_int_equal(loop.handoffs + loop.steps, MODULES);
}

static void test_handoff__hops_are_traced_in_the_order_they_happen(void **state)
{
    (void)state;
    chain(0, 1);
    chain(1, 2);
    send_from_outside();
#if TERN_CONF_TRACE
    /* outside -> a, a -> b, b -> c: oldest first, whether queued or handed off. */
    assert_int_equal(tern_trace_count(&stack.trace), 3);
    const char *expect[3][2] = { { "-", "a" }, { "a", "b" }, { "b", "c" } };
    for (size_t i = 0; i < 3; i++) {
        tern_trace_entry_t e;
        assert_int_equal(tern_trace_get(&stack.trace, i, &e), 0);
        assert_string_equal(e.from, expect[i][0]);
        assert_string_equal(e.to, expect[i][1]);
        assert_int_equal(e.msg_type, TERN_MSG_SND);
        assert_int_equal(e.result, 0);
    }
#else
    skip();
#endif
}

/* The packet summary of a hop, recorded in place in the ring (the hand-off
 * writes its entry without a copy): every field written, so nothing of the
 * slot's old bytes shows through; metadata snips counted but not their bytes;
 * the first four types kept, the others zero. */
static void test_handoff__hop_entry_describes_the_packet(void **state)
{
    (void)state;
#if TERN_CONF_TRACE
    memset(stack.trace.ring, 0xAA, sizeof(stack.trace.ring));
    chain(0, 1);
    /* [NETIF, IPV6 40, UDP 8, payload 3, NETERR, UNDEF 2]: six snips, 53 bytes. */
    tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, "xy", 2, TERN_NETTYPE_UNDEF);
    pkt = tern_pktbuf_add(&stack.pktbuf, pkt, NULL, 16, TERN_NETTYPE_NETERR);
    pkt = tern_pktbuf_add(&stack.pktbuf, pkt, "abc", 3, TERN_NETTYPE_UNDEF);
    pkt = tern_pktbuf_add(&stack.pktbuf, pkt, NULL, 8, TERN_NETTYPE_UDP);
    pkt = tern_pktbuf_add(&stack.pktbuf, pkt, NULL, 40, TERN_NETTYPE_IPV6);
    pkt = tern_pktbuf_add(&stack.pktbuf, pkt, NULL, 12, TERN_NETTYPE_NETIF);
    assert_non_null(pkt);
    assert_int_equal(tern_netapi_send(&relays[0].module, pkt), 0);
    tern_vclock_advance_to(&vclock, 1000042);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    /* A two-snip packet next: its entry's last two types are zero. */
    chain(0, 1);
    tern_pkt_t *small = tern_pktbuf_add(&stack.pktbuf, NULL, "z", 1, TERN_NETTYPE_UNDEF);
    small = tern_pktbuf_add(&stack.pktbuf, small, NULL, 8, TERN_NETTYPE_UDP);
    assert_non_null(small);
    assert_int_equal(tern_netapi_send(&relays[0].module, small), 0);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);

    assert_int_equal(tern_trace_count(&stack.trace), 4);
    tern_trace_entry_t e;
    assert_int_equal(tern_trace_get(&stack.trace, 1, &e), 0); /* a -> b */
    assert_int_equal(e.time_us, 1000042);
    assert_string_equal(e.from, "a");
    assert_string_equal(e.to, "b");
    assert_int_equal(e.msg_type, TERN_MSG_SND);
    assert_int_equal(e.result, 0);
    assert_int_equal(e.nsnips, 6);
    assert_int_equal(e.pkt_len, 40 + 8 + 3 + 2);
    const uint8_t types[TERN_TRACE_TYPES] = { TERN_NETTYPE_NETIF, TERN_NETTYPE_IPV6, TERN_NETTYPE_UDP,
                                              TERN_NETTYPE_UNDEF };
    assert_memory_equal(e.types, types, sizeof(types));
    assert_int_equal(tern_trace_get(&stack.trace, 3, &e), 0); /* a -> b, the small one */
    assert_string_equal(e.from, "a");
    assert_int_equal(e.nsnips, 2);
    assert_int_equal(e.pkt_len, 9);
    const uint8_t small_types[TERN_TRACE_TYPES] = { TERN_NETTYPE_UDP, TERN_NETTYPE_UNDEF, 0, 0 };
    assert_memory_equal(e.types, small_types, sizeof(small_types));
    assert_int_equal(e.result, 0);
#else
    skip();
#endif
}

static void test_handoff__with_a_platform_the_loop_thread_hands_off(void **state)
{
    (void)state;
    bind_platform();
    chain(0, 1);
    chain(1, 2);
    send_from_outside();
#if TERN_CONF_LOOP_HANDOFF_DEPTH >= 2
    assert_string_equal(log_string(), "a(b(c(c)b)a)");
    assert_int_equal(loop.handoffs, 2);
#else
    assert_string_equal(log_string(), "a(a)b(b)c(c)");
    assert_int_equal(loop.handoffs, 0);
#endif
}

static void *send_to_b(void *arg)
{
    (void)arg;
    tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, "y", 1, TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    assert_int_equal(tern_netapi_send(&relays[1].module, pkt), 0);
    return NULL;
}

/* While a's handler runs (the loop's current module is set), another thread
 * sends to b: that must be queued and run by the loop, not handed off to run
 * b's handler on the sending thread. (a waits for the thread to finish, so
 * nothing else touches the stack meanwhile.) */
static void other_thread_sends(void)
{
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, send_to_b, NULL), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(relays[1].module.queue.count, 1);
}

static void test_handoff__with_a_platform_other_threads_post(void **state)
{
    (void)state;
    bind_platform();
    relays[0].during = other_thread_sends;
    send_from_outside();
    /* b's handler ran on the loop's thread (relay_handle checks), from the queue. */
    assert_string_equal(log_string(), "a(a)b(b)");
    assert_int_equal(loop.handoffs, 0);
    assert_int_equal(loop.steps, 2);
#if TERN_CONF_TRACE
    /* The other thread's send is its own, not the running handler's (a's). */
    assert_int_equal(tern_trace_count(&stack.trace), 2);
    tern_trace_entry_t e;
    assert_int_equal(tern_trace_get(&stack.trace, 1, &e), 0);
    assert_string_equal(e.from, "-");
    assert_string_equal(e.to, "b");
#endif
}

/* ------------------------------------------------------------ may_continue */

/** What may_continue() answered inside a's handler: for a, for b; -1 not asked. */
static int continue_self, continue_other;
static tern_timer_t due_timer;

static bool may_continue(const tern_module_t *m)
{
    const tern_executor_ops_t *ops = loop.base.ops;
#if TERN_CONF_LOOP_HANDOFF_DEPTH > 0
    assert_non_null(ops->may_continue);
#endif
    return ops->may_continue != NULL && ops->may_continue(&loop.base, m);
}

static void ask_may_continue(void)
{
    continue_self = may_continue(&relays[0].module);
    continue_other = may_continue(&relays[1].module);
}

static void post_then_ask(void)
{
    tern_msg_t user = { .type = TERN_MSG_USER };
    assert_int_equal(tern_netapi_post(&relays[3].module, &user), 0);
    ask_may_continue();
}

static void arm_due_timer_then_ask(void)
{
    tern_timer_init(&due_timer, &relays[3].module, TERN_MSG_TIMER, 0);
    assert_int_equal(tern_timer_set(&due_timer, 0), 0); /* due now: the next step fires it first */
    ask_may_continue();
}

static void test_may_continue__in_the_running_handler_of_an_idle_loop(void **state)
{
    (void)state;
    continue_self = continue_other = -1;
    relays[0].during = ask_may_continue;
    send_from_outside();
    /* A message a posted to itself would be the next step: a may go on at
     * once (not with hand-offs off: every message is queued then). */
    assert_int_equal(continue_self, TERN_CONF_LOOP_HANDOFF_DEPTH > 0);
    assert_int_equal(continue_other, 0); /* b is not running */
    assert_false(may_continue(&relays[0].module)); /* outside any handler */
}

static void test_may_continue__not_when_a_message_waits(void **state)
{
    (void)state;
    continue_self = continue_other = -1;
    relays[0].during = post_then_ask;
    send_from_outside();
    assert_int_equal(continue_self, 0);
    assert_string_equal(log_string(), "a(a)d(d)");
}

static void test_may_continue__not_when_a_timer_is_due(void **state)
{
    (void)state;
    continue_self = continue_other = -1;
    relays[0].during = arm_due_timer_then_ask;
    send_from_outside();
    assert_int_equal(continue_self, 0);
    assert_string_equal(log_string(), "a(a)d(d)"); /* the timer's message */
}

static void *ask_from_another_thread(void *arg)
{
    (void)arg;
    continue_other = may_continue(&relays[0].module);
    return NULL;
}

static void other_thread_asks(void)
{
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, ask_from_another_thread, NULL), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    continue_self = may_continue(&relays[0].module);
}

static void test_may_continue__with_a_platform_only_on_the_loop_thread(void **state)
{
    (void)state;
    bind_platform();
    continue_self = continue_other = -1;
    relays[0].during = other_thread_asks;
    send_from_outside();
    assert_int_equal(continue_self, TERN_CONF_LOOP_HANDOFF_DEPTH > 0);
    assert_int_equal(continue_other, 0); /* a runs, but not on that thread */
}

/* ------------------------------------------------------------ netapi asks only when configured */

static unsigned offered;
static tern_module_t *offering_hand_off_begin(tern_executor_t *ex, tern_module_t *to)
{
    (void)ex;
    (void)to;
    offered++;
    return NULL; /* post it after all */
}

/* netapi asks an executor's hand_off_begin() (here one offered on a copy of
 * the loop's operations, which posts every message) only when hand-offs are
 * configured: with TERN_CONF_LOOP_HANDOFF_DEPTH 0 the branch is left out and
 * the message is posted, as the hook would have it. */
static void test_handoff__netapi_asks_the_executor_only_when_configured(void **state)
{
    (void)state;
    tern_executor_ops_t ops = *loop.base.ops;
    ops.hand_off_begin = offering_hand_off_begin;
    const tern_executor_ops_t *own = loop.base.ops;
    loop.base.ops = &ops;
    offered = 0;
    chain(0, 1);
    send_from_outside();
    loop.base.ops = own;
    /* a's packet to b is posted either way: b runs after a returns. */
    assert_string_equal(log_string(), "a(a)b(b)");
    assert_int_equal(offered, (TERN_CONF_LOOP_HANDOFF_DEPTH > 0) ? 2u : 0u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_handoff__idle_loop_runs_the_next_handler_nested, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_handoff__queued_when_another_message_waits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_handoff__a_module_on_the_stack_is_not_reentered, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_handoff__nesting_is_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_handoff__hops_are_traced_in_the_order_they_happen, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_handoff__hop_entry_describes_the_packet, setup, teardown),
        cmocka_unit_test_setup_teardown(test_handoff__netapi_asks_the_executor_only_when_configured, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_handoff__with_a_platform_the_loop_thread_hands_off, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_handoff__with_a_platform_other_threads_post, setup, teardown),
        cmocka_unit_test_setup_teardown(test_may_continue__in_the_running_handler_of_an_idle_loop, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_may_continue__not_when_a_message_waits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_may_continue__not_when_a_timer_is_due, setup, teardown),
        cmocka_unit_test_setup_teardown(test_may_continue__with_a_platform_only_on_the_loop_thread, setup,
                                        teardown),
    };
    cmocka_set_message_output(CM_OUTPUT_STDOUT);
    return cmocka_run_group_tests_name("loop hand-off", tests, NULL, NULL);
}
