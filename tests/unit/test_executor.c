/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The executor interface, under the event loop and the threaded executor.
 *
 * Built twice (test_executor_loop, test_executor_threaded). Only the harness
 * and the executor interface are used, so both executors must pass the same
 * tests. Timing assertions are one-sided ("not before the deadline") or
 * generous ("within a few seconds") so that a slow machine never fails them.
 *
 * Cross-thread state: a record written by a handler is read by the test
 * thread only after run_until_idle() (which orders the two); state read while
 * handlers may run is atomic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "harness.h"

#define NMOD 4
#define LOG_MAX 2048

/** Per-module record and behaviour. */
typedef struct {
    uintptr_t values[LOG_MAX];   /**< content.value of each message handled */
    size_t count;                /**< messages handled */
    bool current_wrong;          /**< current() was not the module in a handler */
    tern_module_t *chain_next;   /**< pass a token on to this module */
    tern_module_t *call_target;  /**< on a USER message, call() this module */
    int call_result;             /**< what that call() returned */
    bool call_self;              /**< on a USER message, call() yourself */
    atomic_bool *gate;           /**< wait for this to open before handling */
    atomic_int started;          /**< handlers entered (visible while running) */
    atomic_int timer_fired;      /**< TIMER messages seen */
    atomic_ullong timer_at;      /**< clock at the first TIMER */
} rec_t;

static tern_executor_t *ex;
static tern_module_t mods[NMOD];
static tern_msg_t slots[NMOD][128];
static rec_t recs[NMOD];
static atomic_bool gate;
static const char *const names[NMOD] = { "a", "b", "c", "d" };

static void sleep_ms(long ms)
{
    struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static int handler(tern_module_t *self, tern_msg_t *msg)
{
    rec_t *r = self->context;
    tern_executor_t *e = self->exec;
    atomic_fetch_add(&r->started, 1);
    if (r->gate != NULL) {
        while (!atomic_load(r->gate)) {
            sleep_ms(1);
        }
    }
    if (e->ops->current(e) != self) {
        r->current_wrong = true;
    }
    if (r->count < LOG_MAX) {
        r->values[r->count] = msg->content.value;
    }
    r->count++;
    switch (msg->type) {
    case TERN_MSG_GET:
        return (int)msg->content.value + 1;
    case TERN_MSG_TIMER:
        if (atomic_fetch_add(&r->timer_fired, 1) == 0) {
            atomic_store(&r->timer_at, tern_executor_now(e));
        }
        return 0;
    default:
        break;
    }
    if (r->chain_next != NULL && msg->content.value > 0) {
        tern_msg_t next = *msg;
        next.sender = self;
        next.content.value--;
        assert_int_equal(e->ops->post(e, r->chain_next, &next), 0);
    }
    if (r->call_target != NULL || r->call_self) {
        tern_msg_t get = { .type = TERN_MSG_GET, .sender = self };
        get.content.value = 41;
        r->call_result = e->ops->call(e, r->call_self ? self : r->call_target, &get);
        if (e->ops->current(e) != self) {
            r->current_wrong = true;
        }
    }
    return 0;
}

static int setup(void **state)
{
    (void)state;
    ex = harness_exec_start();
    memset(recs, 0, sizeof(recs));
    atomic_store(&gate, false);
    for (size_t i = 0; i < NMOD; i++) {
        assert_int_equal(tern_module_init(&mods[i], names[i], (uint8_t)(i + 1), handler, &recs[i],
                                          slots[i], 128), 0);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    atomic_store(&gate, true); /* never leave a handler blocked */
    harness_exec_stop();
    for (size_t i = 0; i < NMOD; i++) {
        assert_null(mods[i].exec);
    }
    return 0;
}

static void attach_all(void)
{
    for (size_t i = 0; i < NMOD; i++) {
        assert_int_equal(tern_executor_attach(ex, &mods[i]), 0);
    }
}

static int post_value(tern_module_t *to, uint16_t type, uintptr_t value)
{
    tern_msg_t msg = { .type = type, .sender = NULL };
    msg.content.value = value;
    return ex->ops->post(ex, to, &msg);
}

static void test_attach__twice_is_busy(void **state)
{
    (void)state;
    attach_all();
    assert_int_equal(tern_executor_attach(ex, &mods[0]), -EBUSY);
    assert_int_equal(tern_executor_attach(ex, NULL), -EINVAL);
    assert_ptr_equal(mods[0].exec, ex);
}

static void test_post__fifo_per_module(void **state)
{
    (void)state;
    attach_all();
    for (uintptr_t i = 0; i < 100; i++) {
        assert_int_equal(post_value(&mods[i % 2], TERN_MSG_USER, i), 0);
        if (i % 3 == 0) {
            assert_int_equal(post_value(&mods[2], TERN_MSG_USER, i), 0);
        }
    }
    harness_run_until_idle();
    assert_int_equal(recs[0].count, 50);
    assert_int_equal(recs[1].count, 50);
    assert_int_equal(recs[2].count, 34);
    for (size_t i = 0; i < 50; i++) {
        assert_int_equal(recs[0].values[i], 2 * i);
        assert_int_equal(recs[1].values[i], 2 * i + 1);
    }
    for (size_t i = 0; i < 34; i++) {
        assert_int_equal(recs[2].values[i], 3 * i);
    }
    for (size_t i = 0; i < NMOD; i++) {
        assert_false(recs[i].current_wrong);
        assert_int_equal(mods[i].queue.count, 0);
    }
}

static void test_post__not_attached(void **state)
{
    (void)state;
    assert_int_equal(post_value(&mods[0], TERN_MSG_USER, 0), -EINVAL);
    assert_int_equal(ex->ops->post(ex, NULL, NULL), -EINVAL);
}

static void test_post__queue_full_counted(void **state)
{
    (void)state;
    tern_msg_t small[4];
    assert_int_equal(tern_module_init(&mods[0], "a", 1, handler, &recs[0], small, 4), 0);
    recs[0].gate = &gate; /* the first message handled blocks until the gate opens */
    attach_all();
    /* A thread may take one message off the queue, so up to 5 may fit. */
    int accepted = 0;
    int rc = 0;
    for (int i = 0; i < 6; i++) {
        rc = post_value(&mods[0], TERN_MSG_USER, (uintptr_t)i);
        if (rc < 0) {
            break;
        }
        accepted++;
    }
    assert_int_equal(rc, -ENOBUFS);
    assert_true(accepted == 4 || accepted == 5);
    assert_int_equal(mods[0].queue_full, 1);
    atomic_store(&gate, true);
    harness_run_until_idle();
    assert_int_equal(recs[0].count, (size_t)accepted);
    for (size_t i = 0; i < recs[0].count; i++) {
        assert_int_equal(recs[0].values[i], i);
    }
}

static void test_call__returns_handler_value_from_outside(void **state)
{
    (void)state;
    attach_all();
    tern_msg_t get = { .type = TERN_MSG_GET };
    get.content.value = 41;
    assert_int_equal(ex->ops->call(ex, &mods[1], &get), 42);
    get.content.value = 99;
    assert_int_equal(ex->ops->call(ex, &mods[3], &get), 100);
    harness_run_until_idle();
    assert_int_equal(recs[1].count, 1);
    assert_int_equal(recs[3].count, 1);
    assert_false(recs[1].current_wrong);
    assert_false(recs[3].current_wrong);
    assert_null(ex->ops->current(ex));
}

static void test_call__nested_from_another_handler(void **state)
{
    (void)state;
    recs[0].call_target = &mods[1];
    recs[2].call_self = true;
    attach_all();
    assert_int_equal(post_value(&mods[0], TERN_MSG_USER, 0), 0);
    assert_int_equal(post_value(&mods[2], TERN_MSG_USER, 0), 0);
    harness_run_until_idle();
    assert_int_equal(recs[0].call_result, 42);
    assert_int_equal(recs[2].call_result, 42); /* a module calling itself runs directly */
    assert_int_equal(recs[1].count, 1);
    assert_int_equal(recs[2].count, 2);
    for (size_t i = 0; i < NMOD; i++) {
        assert_false(recs[i].current_wrong);
    }
}

static void test_call__not_attached(void **state)
{
    (void)state;
    tern_msg_t get = { .type = TERN_MSG_GET };
    assert_int_equal(ex->ops->call(ex, &mods[0], &get), -EINVAL);
}

static void test_current__outside_handlers_is_null(void **state)
{
    (void)state;
    attach_all();
    assert_null(ex->ops->current(ex));
    for (size_t i = 0; i < NMOD; i++) {
        assert_int_equal(post_value(&mods[i], TERN_MSG_USER, i), 0);
    }
    harness_run_until_idle();
    for (size_t i = 0; i < NMOD; i++) {
        assert_int_equal(recs[i].count, 1);
        assert_false(recs[i].current_wrong);
    }
    assert_null(ex->ops->current(ex));
}

static void test_run_until_idle__waits_for_a_chain(void **state)
{
    (void)state;
    /* a -> b -> c -> a ... a token makes 600 hops through three modules. */
    recs[0].chain_next = &mods[1];
    recs[1].chain_next = &mods[2];
    recs[2].chain_next = &mods[0];
    attach_all();
    assert_int_equal(post_value(&mods[0], TERN_MSG_USER, 600), 0);
    harness_run_until_idle();
    assert_int_equal(recs[0].count + recs[1].count + recs[2].count, 601);
    assert_int_equal(recs[0].count, 201);
    assert_int_equal(recs[0].values[200], 0); /* values 600, 597 .. 0 at a: the chain ends at a */
    assert_int_equal(recs[2].values[199], 1);
    for (size_t i = 0; i < NMOD; i++) {
        assert_int_equal(mods[i].queue.count, 0);
    }
}

static void test_run_until_idle__with_nothing_to_do(void **state)
{
    (void)state;
    harness_run_until_idle();
    attach_all();
    harness_run_until_idle();
    harness_run_until_idle();
}

/** Poll until @p r saw a timer, or about @p max_ms passed. */
static void run_until_timer(rec_t *r, long max_ms)
{
    for (long waited = 0; waited < max_ms && atomic_load(&r->timer_fired) == 0; waited += 5) {
        assert_int_equal(tern_executor_run_for(ex, 5000), 0);
    }
    harness_run_until_idle();
}

static void test_timer__delivers_after_delay(void **state)
{
    (void)state;
    attach_all();
    static tern_timer_t t; /* static: stays valid for teardown if an assertion fails */
    tern_timer_init(&t, &mods[1], TERN_MSG_TIMER, 0xBEEF);
    uint64_t set_at = tern_executor_now(ex);
    assert_int_equal(tern_timer_set(&t, 30000), 0);
    assert_true(tern_timer_is_armed(&t));
    run_until_timer(&recs[1], 5000);
    assert_int_equal(atomic_load(&recs[1].timer_fired), 1);
    assert_true(atomic_load(&recs[1].timer_at) >= set_at + 30000); /* never early */
    assert_int_equal(recs[1].values[0], 0xBEEF);
    assert_false(tern_timer_is_armed(&t));
    assert_int_equal(ex->timers.lost, 0);
}

static void test_timer__rearm_from_another_timer_order(void **state)
{
    (void)state;
    attach_all();
    /* Two timers for one module: the later-set but earlier one fires first. */
    static tern_timer_t late; /* static: stays valid for teardown if an assertion fails */
    static tern_timer_t early; /* static: stays valid for teardown if an assertion fails */
    tern_timer_init(&late, &mods[0], TERN_MSG_TIMER, 2);
    tern_timer_init(&early, &mods[0], TERN_MSG_TIMER, 1);
    assert_int_equal(tern_timer_set(&late, 40000), 0);
    assert_int_equal(tern_timer_set(&early, 10000), 0);
    for (long waited = 0; waited < 5000 && atomic_load(&recs[0].timer_fired) < 2; waited += 5) {
        assert_int_equal(tern_executor_run_for(ex, 5000), 0);
    }
    harness_run_until_idle();
    assert_int_equal(recs[0].count, 2);
    assert_int_equal(recs[0].values[0], 1);
    assert_int_equal(recs[0].values[1], 2);
}

static void test_timer__cancelled_is_not_delivered(void **state)
{
    (void)state;
    attach_all();
    static tern_timer_t t; /* static: stays valid for teardown if an assertion fails */
    tern_timer_init(&t, &mods[0], TERN_MSG_TIMER, 1);
    assert_int_equal(tern_timer_set(&t, 20000), 0);
    tern_timer_cancel(&t);
    assert_false(tern_timer_is_armed(&t));
    assert_int_equal(tern_executor_run_for(ex, 60000), 0);
    harness_run_until_idle();
    assert_int_equal(atomic_load(&recs[0].timer_fired), 0);
}

static void test_run_until_idle__does_not_wait_for_future_timers(void **state)
{
    (void)state;
    attach_all();
    static tern_timer_t t; /* static: stays valid for teardown if an assertion fails */
    tern_timer_init(&t, &mods[0], TERN_MSG_TIMER, 1);
    assert_int_equal(tern_timer_set(&t, 3600ull * 1000000u), 0);
    assert_int_equal(post_value(&mods[0], TERN_MSG_USER, 5), 0);
    harness_run_until_idle(); /* returns without an hour's wait */
    assert_int_equal(recs[0].count, 1);
    assert_true(tern_timer_is_armed(&t));
    tern_timer_cancel(&t); /* leave nothing armed */
}

/** Sender threads for the concurrent post test. */
#define POSTERS 4
#define POSTS_EACH 400
static atomic_int posters_done;

static void *poster(void *arg)
{
    uintptr_t id = (uintptr_t)arg;
    for (uintptr_t seq = 0; seq < POSTS_EACH; seq++) {
        tern_module_t *to = &mods[(id + seq) % 2];
        while (post_value(to, TERN_MSG_USER, (id << 16) | seq) == -ENOBUFS) {
            sleep_ms(1);
        }
    }
    atomic_fetch_add(&posters_done, 1);
    return NULL;
}

static void test_post__from_other_threads(void **state)
{
    (void)state;
    attach_all();
    atomic_store(&posters_done, 0);
    pthread_t threads[POSTERS];
    for (uintptr_t i = 0; i < POSTERS; i++) {
        assert_int_equal(pthread_create(&threads[i], NULL, poster, (void *)i), 0);
    }
    while (atomic_load(&posters_done) < POSTERS) {
        assert_int_equal(tern_executor_run_for(ex, 1000), 0);
    }
    for (size_t i = 0; i < POSTERS; i++) {
        assert_int_equal(pthread_join(threads[i], NULL), 0);
    }
    harness_run_until_idle();
    assert_int_equal(recs[0].count + recs[1].count, POSTERS * POSTS_EACH);
    /* FIFO per sender within each module. */
    for (size_t m = 0; m < 2; m++) {
        long last[POSTERS];
        for (size_t i = 0; i < POSTERS; i++) {
            last[i] = -1;
        }
        for (size_t i = 0; i < recs[m].count; i++) {
            uintptr_t id = recs[m].values[i] >> 16;
            long seq = (long)(recs[m].values[i] & 0xFFFFu);
            assert_true(id < POSTERS);
            assert_true(seq > last[id]);
            last[id] = seq;
        }
    }
}

static void test_stop__detaches_all(void **state)
{
    (void)state;
    attach_all();
    assert_int_equal(post_value(&mods[0], TERN_MSG_USER, 1), 0);
    harness_run_until_idle();
    harness_exec_stop();
    for (size_t i = 0; i < NMOD; i++) {
        assert_null(mods[i].exec);
    }
}

#if HARNESS_THREADED

static atomic_int caller_rc;
static atomic_bool caller_done;

static void *caller_thread(void *arg)
{
    tern_module_t *to = arg;
    tern_msg_t get = { .type = TERN_MSG_GET };
    get.content.value = 41;
    atomic_store(&caller_rc, ex->ops->call(ex, to, &get));
    atomic_store(&caller_done, true);
    return NULL;
}

static void *gate_opener(void *arg)
{
    (void)arg;
    sleep_ms(50);
    atomic_store(&gate, true);
    return NULL;
}

/** A call still queued when the executor stops is cancelled, not lost. */
static void test_call__queued_when_stopping_is_cancelled(void **state)
{
    (void)state;
    recs[0].gate = &gate;
    attach_all();
    assert_int_equal(post_value(&mods[0], TERN_MSG_USER, 0), 0);
    while (atomic_load(&recs[0].started) == 0) {
        sleep_ms(1); /* a's thread is now blocked in its first handler */
    }
    atomic_store(&caller_done, false);
    pthread_t caller;
    pthread_t opener;
    assert_int_equal(pthread_create(&caller, NULL, caller_thread, &mods[0]), 0);
    sleep_ms(20);
    assert_int_equal(pthread_create(&opener, NULL, gate_opener, NULL), 0);
    harness_exec_stop();
    assert_int_equal(pthread_join(caller, NULL), 0);
    assert_int_equal(pthread_join(opener, NULL), 0);
    assert_true(atomic_load(&caller_done));
    assert_int_equal(atomic_load(&caller_rc), -ECANCELED);
    assert_int_equal(recs[0].count, 1); /* the GET never ran */
    assert_int_equal(mods[0].queue.count, 0); /* and its request left the queue */
}

/** A call already running when the executor stops gets its real answer. */
static void test_call__running_when_stopping_completes(void **state)
{
    (void)state;
    recs[0].gate = &gate;
    attach_all();
    atomic_store(&caller_done, false);
    pthread_t caller;
    pthread_t opener;
    assert_int_equal(pthread_create(&caller, NULL, caller_thread, &mods[0]), 0);
    while (atomic_load(&recs[0].started) == 0) {
        sleep_ms(1); /* the GET is being handled (blocked on the gate) */
    }
    assert_int_equal(pthread_create(&opener, NULL, gate_opener, NULL), 0);
    harness_exec_stop();
    assert_int_equal(pthread_join(caller, NULL), 0);
    assert_int_equal(pthread_join(opener, NULL), 0);
    assert_int_equal(atomic_load(&caller_rc), 42);
}

/** run_until_idle from a handler would wait for itself. */
static int idle_from_handler(tern_module_t *self, tern_msg_t *msg)
{
    (void)msg;
    rec_t *r = self->context;
    r->call_result = tern_executor_run_until_idle(self->exec);
    r->count++;
    return 0;
}

static void test_run_until_idle__from_a_handler_refused(void **state)
{
    (void)state;
    mods[0].handle = idle_from_handler;
    attach_all();
    assert_int_equal(post_value(&mods[0], TERN_MSG_USER, 0), 0);
    harness_run_until_idle();
    assert_int_equal(recs[0].count, 1);
    assert_int_equal(recs[0].call_result, -EDEADLK);
}

#endif /* HARNESS_THREADED */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_attach__twice_is_busy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_post__fifo_per_module, setup, teardown),
        cmocka_unit_test_setup_teardown(test_post__not_attached, setup, teardown),
        cmocka_unit_test_setup_teardown(test_post__queue_full_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_post__from_other_threads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_call__returns_handler_value_from_outside, setup, teardown),
        cmocka_unit_test_setup_teardown(test_call__nested_from_another_handler, setup, teardown),
        cmocka_unit_test_setup_teardown(test_call__not_attached, setup, teardown),
        cmocka_unit_test_setup_teardown(test_current__outside_handlers_is_null, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_until_idle__waits_for_a_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_until_idle__with_nothing_to_do, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_until_idle__does_not_wait_for_future_timers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timer__delivers_after_delay, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timer__rearm_from_another_timer_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timer__cancelled_is_not_delivered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop__detaches_all, setup, teardown),
#if HARNESS_THREADED
        cmocka_unit_test_setup_teardown(test_call__queued_when_stopping_is_cancelled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_call__running_when_stopping_completes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_until_idle__from_a_handler_refused, setup, teardown),
#endif
    };
    return cmocka_run_group_tests_name(harness_executor_name(), tests, NULL, NULL);
}
