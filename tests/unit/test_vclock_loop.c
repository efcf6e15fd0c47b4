/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The event loop: priorities, round robin, virtual time, stop.
 *
 * Most tests run the loop on a virtual clock, where every run is exact and
 * repeatable; the last ones use the real clock (with and without POSIX wake-up).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tern/port/loop.h"
#include "tern/port/posix.h"

#define LOG_MAX 4096

/** One handled message. */
typedef struct {
    char module;      /**< the module's name[0] */
    uint16_t type;
    uintptr_t value;
    uint64_t now;     /**< clock when handled */
    tern_module_t *current;
} log_entry_t;

/** What a test module does with a message. */
typedef struct {
    unsigned repost_self;        /**< re-post to itself this many more times */
    tern_module_t *forward_to;   /**< post each message on to this module too */
    unsigned forwards;           /**< how many to forward */
    tern_timer_t *periodic;      /**< re-arm this timer on TIMER... */
    unsigned periodic_left;      /**< ...this many more times */
    uint64_t period_us;
} behaviour_t;

static tern_vclock_t vclock;
static tern_loop_t loop;
static log_entry_t log_entries[LOG_MAX];
static size_t log_len;

#define MODULES 4
static tern_module_t mods[MODULES];
static tern_msg_t slots[MODULES][64];
static behaviour_t behave[MODULES];
static const char *const names[MODULES] = { "a", "b", "c", "d" };

static int handler(tern_module_t *self, tern_msg_t *msg)
{
    behaviour_t *b = self->context;
    tern_executor_t *ex = self->exec;
    assert_true(log_len < LOG_MAX);
    log_entries[log_len++] = (log_entry_t){
        .module = self->name[0],
        .type = msg->type,
        .value = msg->content.value,
        .now = tern_executor_now(ex),
        .current = ex->ops->current(ex),
    };
    if (msg->type == TERN_MSG_GET) {
        return (int)msg->content.value + 1;
    }
    if (b->repost_self > 0) {
        b->repost_self--;
        tern_msg_t again = *msg;
        again.content.value++;
        assert_int_equal(ex->ops->post(ex, self, &again), 0);
    }
    if (b->forward_to != NULL && b->forwards > 0) {
        b->forwards--;
        assert_int_equal(ex->ops->post(ex, b->forward_to, msg), 0);
    }
    if (msg->type == TERN_MSG_TIMER && b->periodic != NULL && b->periodic_left > 0) {
        b->periodic_left--;
        assert_int_equal(tern_timer_set(b->periodic, b->period_us), 0);
    }
    return 0;
}

/** Set up the loop on the virtual clock at t = 1 s, and the modules (not attached). */
static int setup(void **state)
{
    (void)state;
    tern_vclock_init(&vclock, 1000000);
    tern_loop_init(&loop, &vclock.base);
    memset(behave, 0, sizeof(behave));
    memset(log_entries, 0, sizeof(log_entries));
    log_len = 0;
    for (size_t i = 0; i < MODULES; i++) {
        assert_int_equal(tern_module_init(&mods[i], names[i], 5, handler, &behave[i], slots[i], 64), 0);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tern_executor_stop(&loop.base);
    return 0;
}

static void attach(size_t i, uint8_t priority)
{
    mods[i].priority = priority;
    assert_int_equal(tern_executor_attach(&loop.base, &mods[i]), 0);
}

static void post(size_t i, uintptr_t value)
{
    tern_msg_t msg = { .type = TERN_MSG_USER, .sender = NULL };
    msg.content.value = value;
    assert_int_equal(loop.base.ops->post(&loop.base, &mods[i], &msg), 0);
}

/** The modules of the log as a string, e.g. "abab". */
static const char *log_modules(void)
{
    static char s[LOG_MAX + 1];
    for (size_t i = 0; i < log_len; i++) {
        s[i] = log_entries[i].module;
    }
    s[log_len] = '\0';
    return s;
}

static void test_tern_loop_attach__sorted_stable_busy(void **state)
{
    (void)state;
    attach(0, 5);
    attach(1, 1);
    attach(2, 5);
    attach(3, 0);
    assert_int_equal(tern_executor_attach(&loop.base, &mods[2]), -EBUSY);
    assert_int_equal(tern_executor_attach(&loop.base, NULL), -EINVAL);
    const char *expect = "dbac";
    size_t n = 0;
    for (tern_module_t *m = loop.modules; m != NULL; m = m->next) {
        assert_true(n < 4);
        assert_int_equal(m->name[0], expect[n]);
        assert_ptr_equal(m->exec, &loop.base);
        n++;
    }
    assert_int_equal(n, 4);
}

static void test_tern_loop_step__urgent_priority_first(void **state)
{
    (void)state;
    attach(0, 7); /* a: background */
    attach(1, 1); /* b: urgent */
    for (uintptr_t i = 0; i < 3; i++) {
        post(0, i);
    }
    for (uintptr_t i = 0; i < 3; i++) {
        post(1, i);
    }
    /* a's first message posts to b: b's message must come before a's next. */
    behave[0].forward_to = &mods[1];
    behave[0].forwards = 1;
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_string_equal(log_modules(), "bbbabaa");
    assert_int_equal(loop.steps, 7);
    assert_int_equal(tern_loop_step(&loop), 0);
}

static void test_tern_loop_step__equal_priority_round_robin(void **state)
{
    (void)state;
    attach(0, 3);
    attach(1, 3);
    attach(2, 3);
    attach(3, 9);
    for (uintptr_t i = 0; i < 3; i++) {
        post(3, i);
    }
    for (uintptr_t i = 0; i < 3; i++) {
        post(0, i);
    }
    for (uintptr_t i = 0; i < 2; i++) {
        post(1, i);
    }
    for (uintptr_t i = 0; i < 4; i++) {
        post(2, i);
    }
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_string_equal(log_modules(), "abcabcaccddd");
    /* FIFO per module. */
    uintptr_t next[MODULES] = { 0 };
    for (size_t i = 0; i < log_len; i++) {
        size_t m = (size_t)(log_entries[i].module - 'a');
        assert_int_equal(log_entries[i].value, next[m]++);
    }
}

static void test_tern_loop_step__self_reposting_module_lets_others_in(void **state)
{
    (void)state;
    attach(0, 4); /* a: a long job, one piece per turn */
    attach(1, 4); /* b: receives frames meanwhile */
    behave[0].repost_self = 5;
    post(0, 0);
    post(1, 100);
    post(1, 101);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_string_equal(log_modules(), "ababaaaa");
    /* a's pieces in order. */
    uintptr_t piece = 0;
    for (size_t i = 0; i < log_len; i++) {
        if (log_entries[i].module == 'a') {
            assert_int_equal(log_entries[i].value, piece++);
        }
    }
    assert_int_equal(piece, 6);
}

static void test_tern_loop_step__current_is_the_module(void **state)
{
    (void)state;
    attach(0, 1);
    attach(1, 2);
    post(0, 0);
    post(1, 0);
    assert_null(loop.base.ops->current(&loop.base));
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_int_equal(log_len, 2);
    assert_ptr_equal(log_entries[0].current, &mods[0]);
    assert_ptr_equal(log_entries[1].current, &mods[1]);
    assert_null(loop.base.ops->current(&loop.base));
}

/** Handler of module a for the nesting test: calls b, records the result. */
static int caller_handler(tern_module_t *self, tern_msg_t *msg)
{
    (void)msg;
    tern_executor_t *ex = self->exec;
    tern_msg_t get = { .type = TERN_MSG_GET, .sender = self };
    get.content.value = 41;
    int rc = ex->ops->call(ex, &mods[1], &get);
    assert_ptr_equal(ex->ops->current(ex), self); /* restored after the nested call */
    log_entries[log_len++] = (log_entry_t){ .module = 'A', .value = (uintptr_t)rc };
    return 0;
}

static void test_tern_loop_call__nested_restores_current(void **state)
{
    (void)state;
    mods[0].handle = caller_handler;
    attach(0, 1);
    attach(1, 1);
    post(0, 0);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_string_equal(log_modules(), "bA");
    assert_ptr_equal(log_entries[0].current, &mods[1]);
    assert_int_equal(log_entries[1].value, 42);
    /* From outside any handler too. */
    tern_msg_t get = { .type = TERN_MSG_GET };
    get.content.value = 9;
    assert_int_equal(loop.base.ops->call(&loop.base, &mods[1], &get), 10);
    assert_null(loop.base.ops->current(&loop.base));
    /* Not attached. */
    assert_int_equal(loop.base.ops->call(&loop.base, &mods[2], &get), -EINVAL);
}

static void test_tern_loop_post__full_queue(void **state)
{
    (void)state;
    tern_msg_t small[2];
    assert_int_equal(tern_module_init(&mods[0], "a", 0, handler, &behave[0], small, 2), 0);
    attach(0, 0);
    post(0, 0);
    post(0, 1);
    tern_msg_t msg = { .type = TERN_MSG_USER };
    assert_int_equal(loop.base.ops->post(&loop.base, &mods[0], &msg), -ENOBUFS);
    assert_int_equal(mods[0].queue_full, 1);
    assert_int_equal(loop.base.ops->post(&loop.base, &mods[1], &msg), -EINVAL); /* not attached */
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_int_equal(log_len, 2);
}

/** Small deterministic generator for the timer test. */
static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_tern_loop_run_until__virtual_time_jumps_to_timers(void **state)
{
    (void)state;
    enum { N = 1000 };
    static tern_timer_t timers[N];
    static uint64_t deadline[N];
    const uint64_t start = vclock.now;
    const uint64_t ten_hours = 10ull * 3600u * 1000000u;
    attach(0, 2);
    attach(1, 3);
    uint32_t seed = 12345;
    for (size_t i = 0; i < N; i++) {
        tern_timer_init(&timers[i], &mods[i % 2], TERN_MSG_TIMER, i);
        uint64_t delay = ((uint64_t)lcg(&seed) * 1000u) % ten_hours;
        if (i % 10 == 0 && i > 0) {
            delay = deadline[i - 1] - start; /* some equal deadlines */
        }
        deadline[i] = start + delay;
        assert_int_equal(tern_timer_set(&timers[i], delay), 0);
    }
    double t0 = wall_seconds();
    assert_int_equal(tern_executor_run_until(&loop.base, start + ten_hours), 0);
    double elapsed = wall_seconds() - t0;
    print_message("1000 timers over 10 virtual hours: %.3f ms of wall time\n", elapsed * 1e3);
    assert_true(elapsed < 5.0);
    assert_int_equal(vclock.now, start + ten_hours);
    assert_int_equal(log_len, N);
    for (size_t i = 0; i < log_len; i++) {
        size_t idx = (size_t)log_entries[i].value;
        assert_int_equal(log_entries[i].type, TERN_MSG_TIMER);
        assert_int_equal(log_entries[i].now, deadline[idx]); /* exactly at its time */
        if (i > 0) {
            assert_true(log_entries[i].now >= log_entries[i - 1].now);
        }
        assert_false(tern_timer_is_armed(&timers[idx]));
    }
    assert_int_equal(loop.base.timers.lost, 0);
}

static void test_tern_loop_run_until__stops_at_deadline(void **state)
{
    (void)state;
    const uint64_t start = vclock.now;
    static tern_timer_t t; /* static: stays valid for teardown if an assertion fails */
    attach(0, 0);
    tern_timer_init(&t, &mods[0], TERN_MSG_TIMER, 7);
    assert_int_equal(tern_timer_set(&t, 5000), 0);
    assert_int_equal(tern_executor_run_until(&loop.base, start + 3000), 0);
    assert_int_equal(vclock.now, start + 3000);
    assert_int_equal(log_len, 0);
    assert_true(tern_timer_is_armed(&t));
    assert_int_equal(tern_executor_run_for(&loop.base, 3000), 0);
    assert_int_equal(vclock.now, start + 6000);
    assert_int_equal(log_len, 1);
    assert_int_equal(log_entries[0].now, start + 5000);
    assert_int_equal(log_entries[0].value, 7);
    /* A deadline already passed: returns at once, time stays. */
    assert_int_equal(tern_executor_run_until(&loop.base, start), 0);
    assert_int_equal(vclock.now, start + 6000);
}

static void test_tern_loop_run_until__timer_at_deadline_fires(void **state)
{
    (void)state;
    const uint64_t start = vclock.now;
    static tern_timer_t t; /* static: stays valid for teardown if an assertion fails */
    attach(0, 0);
    tern_timer_init(&t, &mods[0], TERN_MSG_TIMER, 1);
    assert_int_equal(tern_timer_set(&t, 1000), 0);
    assert_int_equal(tern_executor_run_until(&loop.base, start + 1000), 0);
    assert_int_equal(log_len, 1);
}

static void test_tern_loop_run_until__periodic_timer(void **state)
{
    (void)state;
    const uint64_t start = vclock.now;
    static tern_timer_t t; /* static: stays valid for teardown if an assertion fails */
    attach(0, 0);
    tern_timer_init(&t, &mods[0], TERN_MSG_TIMER, 3);
    behave[0].periodic = &t;
    behave[0].periodic_left = 3599;
    behave[0].period_us = 1000000;
    assert_int_equal(tern_timer_set(&t, 1000000), 0);
    assert_int_equal(tern_executor_run_for(&loop.base, 3600ull * 1000000u), 0);
    assert_int_equal(log_len, 3600);
    for (size_t i = 0; i < log_len; i++) {
        assert_int_equal(log_entries[i].now, start + (i + 1u) * 1000000u);
    }
    assert_false(tern_timer_is_armed(&t));
}

static void test_tern_loop_run_until_idle__does_not_wait_for_future_timers(void **state)
{
    (void)state;
    const uint64_t start = vclock.now;
    static tern_timer_t later; /* static: stays valid for teardown if an assertion fails */
    static tern_timer_t now; /* static: stays valid for teardown if an assertion fails */
    attach(0, 0);
    tern_timer_init(&later, &mods[0], TERN_MSG_TIMER, 1);
    tern_timer_init(&now, &mods[0], TERN_MSG_TIMER, 2);
    assert_int_equal(tern_timer_set(&later, 3600ull * 1000000u), 0);
    assert_int_equal(tern_timer_set(&now, 0), 0);
    post(0, 0);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_int_equal(vclock.now, start);
    assert_int_equal(log_len, 2); /* the message and the timer due now */
    assert_true(tern_timer_is_armed(&later));
    tern_timer_cancel(&later); /* leave nothing armed */
}

/* Regression: a module that left a stopped loop with a message queued came
 * to another loop whose count of queued messages did not include it: a step
 * that trusts that count (nothing pending, nothing to look for) and the
 * hand-off (nothing queued anywhere) would skip it. */
static void test_tern_loop_attach__counts_queued_messages(void **state)
{
    (void)state;
    attach(1, 1);
    post(1, 7);
    post(1, 8);
    tern_executor_stop(&loop.base);
    tern_loop_t other;
    tern_loop_init(&other, &vclock.base);
    assert_int_equal(tern_executor_attach(&other.base, &mods[1]), 0);
    assert_int_equal(other.pending, 2);
    assert_int_equal(tern_loop_step(&other), 1);
    assert_int_equal(tern_loop_step(&other), 1);
    assert_int_equal(tern_loop_step(&other), 0);
    assert_int_equal(other.pending, 0);
    assert_int_equal(log_len, 2);
    assert_int_equal(log_entries[0].value, 7);
    assert_int_equal(log_entries[1].value, 8);
    tern_executor_stop(&other.base);
}

static void test_tern_loop_stop__detaches(void **state)
{
    (void)state;
    attach(0, 0);
    attach(1, 1);
    static tern_timer_t t; /* static: stays valid for teardown if an assertion fails */
    tern_timer_init(&t, &mods[0], TERN_MSG_TIMER, 0);
    assert_int_equal(tern_timer_set(&t, 10), 0);
    post(1, 0);
    tern_executor_stop(&loop.base);
    assert_true(loop.stopped);
    assert_null(loop.modules);
    assert_null(mods[0].exec);
    assert_null(mods[1].exec);
    assert_null(mods[0].next);
    assert_false(tern_timer_is_armed(&t));
    assert_null(loop.base.timers.head);
    assert_int_equal(mods[1].queue.count, 1); /* queued messages are left alone */
    tern_msg_t msg = { .type = TERN_MSG_USER };
    assert_int_equal(loop.base.ops->post(&loop.base, &mods[0], &msg), -ECANCELED);
    assert_int_equal(tern_executor_attach(&loop.base, &mods[2]), -ECANCELED);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), -ECANCELED);
    assert_int_equal(tern_executor_run_until(&loop.base, vclock.now + 10), -ECANCELED);
    assert_int_equal(tern_timer_set(&t, 10), -EINVAL);
    /* A stopped loop's modules can serve another loop. */
    tern_loop_t other;
    tern_loop_init(&other, &vclock.base);
    assert_int_equal(tern_executor_attach(&other.base, &mods[1]), 0);
    assert_int_equal(tern_executor_run_until_idle(&other.base), 0);
    assert_int_equal(log_len, 1);
    tern_executor_stop(&other.base);
}

/** Two stack-like groups of modules sharing one loop keep their own priorities. */
static void test_tern_loop_step__modules_of_two_stacks(void **state)
{
    (void)state;
    int stack_one;
    int stack_two;
    mods[0].stack = (struct tern_stack *)(void *)&stack_one;
    mods[1].stack = (struct tern_stack *)(void *)&stack_one;
    mods[2].stack = (struct tern_stack *)(void *)&stack_two;
    mods[3].stack = (struct tern_stack *)(void *)&stack_two;
    attach(0, 2);
    attach(2, 2);
    attach(1, 6);
    attach(3, 6);
    post(1, 0);
    post(3, 0);
    post(0, 0);
    post(2, 0);
    post(0, 1);
    post(2, 1);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    assert_string_equal(log_modules(), "acacbd");
}

static void *late_poster(void *arg)
{
    (void)arg;
    struct timespec ts = { .tv_sec = 0, .tv_nsec = 20 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    tern_msg_t msg = { .type = TERN_MSG_USER };
    msg.content.value = 77;
    assert_int_equal(loop.base.ops->post(&loop.base, &mods[0], &msg), 0);
    return NULL;
}

static int stopping_handler(tern_module_t *self, tern_msg_t *msg)
{
    log_entries[log_len++] = (log_entry_t){ .module = 's', .value = msg->content.value };
    tern_executor_stop(self->exec);
    return 0;
}

static void test_tern_loop_run_until__woken_by_post_from_another_thread(void **state)
{
    (void)state;
    tern_posix_loop_sync_t sync;
    tern_loop_init(&loop, tern_posix_clock());
    assert_int_equal(tern_posix_loop_bind(&loop, &sync), 0);
    mods[0].handle = stopping_handler;
    attach(0, 0);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, late_poster, NULL), 0);
    double t0 = wall_seconds();
    /* Would sleep 60 s; the post wakes it, the handler stops the loop. */
    assert_int_equal(tern_executor_run_for(&loop.base, 60ull * 1000000u), -ECANCELED);
    double elapsed = wall_seconds() - t0;
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_int_equal(log_len, 1);
    assert_int_equal(log_entries[0].value, 77);
    assert_true(elapsed < 30.0);
    assert_null(mods[0].exec);
    tern_posix_loop_sync_destroy(&sync);
    tern_loop_init(&loop, &vclock.base); /* unbind the sync object before it goes */
}

static void test_tern_loop_run_until__real_clock_without_platform_polls(void **state)
{
    (void)state;
    tern_loop_init(&loop, tern_posix_clock());
    attach(0, 0);
    static tern_timer_t t; /* static: stays valid for teardown if an assertion fails */
    tern_timer_init(&t, &mods[0], TERN_MSG_TIMER, 5);
    uint64_t set_at = tern_executor_now(&loop.base);
    assert_int_equal(tern_timer_set(&t, 2000), 0);
    assert_int_equal(tern_executor_run_for(&loop.base, 5000), 0);
    assert_int_equal(log_len, 1);
    assert_true(log_entries[0].now >= set_at + 2000);
    assert_true(tern_executor_now(&loop.base) >= set_at + 5000);
}

/* ------------------------------------------------------------------------
 * The threaded executor on the same virtual clock: run_until() waits until
 * every module thread is idle, then jumps to the next timer.
 */

#define TH_LOG_MAX 512

/** Per-module log (each written by its own module thread only). */
typedef struct {
    uintptr_t value[TH_LOG_MAX];
    uint64_t at[TH_LOG_MAX];
    size_t count;
    tern_timer_t *periodic;
    unsigned periodic_left;
} th_log_t;

static tern_threaded_t threaded;
static th_log_t th_logs[2];

static int th_handler(tern_module_t *self, tern_msg_t *msg)
{
    th_log_t *l = self->context;
    assert_true(l->count < TH_LOG_MAX);
    l->value[l->count] = msg->content.value;
    l->at[l->count] = tern_executor_now(self->exec);
    l->count++;
    if (l->periodic != NULL && l->periodic_left > 0) {
        l->periodic_left--;
        assert_int_equal(tern_timer_set(l->periodic, 250000), 0);
    }
    return 0;
}

static int setup_threaded(void **state)
{
    (void)state;
    tern_vclock_init(&vclock, 1000000);
    memset(th_logs, 0, sizeof(th_logs));
    assert_int_equal(tern_threaded_init(&threaded, &vclock.base), 0);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(tern_module_init(&mods[i], names[i], (uint8_t)i, th_handler, &th_logs[i],
                                          slots[i], 64), 0);
        assert_int_equal(tern_executor_attach(&threaded.base, &mods[i]), 0);
    }
    return 0;
}

static int teardown_threaded(void **state)
{
    (void)state;
    tern_executor_stop(&threaded.base);
    assert_null(mods[0].exec);
    return 0;
}

static void test_tern_threaded_run_until__virtual_time_jumps_to_timers(void **state)
{
    (void)state;
    enum { N = 400 };
    static tern_timer_t timers[N];
    static uint64_t deadline[N];
    const uint64_t start = vclock.now;
    const uint64_t hour = 3600ull * 1000000u;
    uint32_t seed = 777;
    for (size_t i = 0; i < N; i++) {
        tern_timer_init(&timers[i], &mods[i % 2], TERN_MSG_TIMER, i);
        uint64_t delay = ((uint64_t)lcg(&seed) * 997u) % hour;
        deadline[i] = start + delay;
        assert_int_equal(tern_timer_set(&timers[i], delay), 0);
    }
    double t0 = wall_seconds();
    assert_int_equal(tern_executor_run_until(&threaded.base, start + hour), 0);
    double elapsed = wall_seconds() - t0;
    print_message("threaded: 400 timers over 1 virtual hour: %.3f ms of wall time\n", elapsed * 1e3);
    assert_true(elapsed < 30.0);
    assert_int_equal(vclock.now, start + hour);
    assert_int_equal(th_logs[0].count + th_logs[1].count, N);
    for (size_t m = 0; m < 2; m++) {
        for (size_t i = 0; i < th_logs[m].count; i++) {
            size_t idx = (size_t)th_logs[m].value[i];
            assert_int_equal(idx % 2, m);
            assert_int_equal(th_logs[m].at[i], deadline[idx]); /* exactly on time */
            if (i > 0) {
                assert_true(th_logs[m].at[i] >= th_logs[m].at[i - 1]);
            }
        }
    }
    assert_null(threaded.base.timers.head);
}

static void test_tern_threaded_run_until__periodic_timer_and_idle(void **state)
{
    (void)state;
    static tern_timer_t t;
    const uint64_t start = vclock.now;
    tern_timer_init(&t, &mods[1], TERN_MSG_TIMER, 9);
    th_logs[1].periodic = &t;
    th_logs[1].periodic_left = 39;
    assert_int_equal(tern_timer_set(&t, 250000), 0);
    /* run_until_idle neither waits for nor fires a future timer. */
    assert_int_equal(tern_executor_run_until_idle(&threaded.base), 0);
    assert_int_equal(th_logs[1].count, 0);
    assert_int_equal(vclock.now, start);
    assert_int_equal(tern_executor_run_for(&threaded.base, 60ull * 1000000u), 0);
    assert_int_equal(th_logs[1].count, 40);
    for (size_t i = 0; i < 40; i++) {
        assert_int_equal(th_logs[1].at[i], start + (i + 1u) * 250000u);
    }
    assert_false(tern_timer_is_armed(&t));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tern_loop_attach__sorted_stable_busy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_step__urgent_priority_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_step__equal_priority_round_robin, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_step__self_reposting_module_lets_others_in, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_step__current_is_the_module, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_step__modules_of_two_stacks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_call__nested_restores_current, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_post__full_queue, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_run_until__virtual_time_jumps_to_timers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_run_until__stops_at_deadline, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_run_until__timer_at_deadline_fires, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_run_until__periodic_timer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_run_until_idle__does_not_wait_for_future_timers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_attach__counts_queued_messages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_stop__detaches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_run_until__woken_by_post_from_another_thread, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_loop_run_until__real_clock_without_platform_polls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_threaded_run_until__virtual_time_jumps_to_timers,
                                        setup_threaded, teardown_threaded),
        cmocka_unit_test_setup_teardown(test_tern_threaded_run_until__periodic_timer_and_idle,
                                        setup_threaded, teardown_threaded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
