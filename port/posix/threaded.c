/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The threaded executor: one POSIX thread per module (the GNRC shape).
 *
 * Locks (never nested, never held while a handler runs or a message is posted):
 *  - queue_mutex guards every module queue, the slots, busy, calls_waiting,
 *    stopping and timers_dirty. Module threads wait on their slot's cond,
 *    run_until_idle() on idle_cond, blocked callers on reply_cond and the timer
 *    thread on timer_cond, all with this mutex.
 *  - data_mutex is base.lock: stack-shared data (pktbuf, netreg, trace, the
 *    timer list). It is not recursive.
 *
 * Synchronous calls: call() from another thread queues an internal message
 * whose content points to a reply record on the caller's stack; the module's
 * thread unwraps it, runs the handler with the caller's message, stores the
 * result, sets done and broadcasts reply_cond. The record is marked taken when
 * the module thread dequeues it, so a caller woken by stop() knows whether it
 * must remove its record from the queue itself (not taken: -ECANCELED at once)
 * or wait for the running handler to finish (taken). stop() waits until no
 * caller is blocked, so no record outlives its caller's frame.
 *
 * Idle: a thread increments busy when it takes a message and decrements it
 * after the handler; a handler posts before it finishes, so "all queues empty
 * and busy == 0", checked under queue_mutex, means no work is left now.
 *
 * Timers: with a real clock a timer thread sleeps until the earliest deadline
 * (or until timers_changed()) and fires due timers; it is the only one firing
 * them, so expiries reach a module in deadline order. With a virtual clock
 * there is no timer thread: run_until()/run_until_idle() fire timers and
 * advance the clock once every module thread is idle, like the event loop.
 *
 * Priorities: with TERN_CONF_THREADED_SCHED_FIFO, each module thread asks for
 * SCHED_FIFO at a priority mapped from the module's (0 = most urgent =
 * highest). Without the right to do so (EPERM, the usual case on Linux without
 * CAP_SYS_NICE) the request is silently ignored. By default, and whenever the
 * request fails, the ordering between module threads is the kernel's.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "tern/port/posix.h"

/**
 * Internal message type carrying a blocking call (content.ptr: threaded_call_t).
 * Types below TERN_MSG_USER are Tern's; this one never reaches a handler and
 * post() refuses it.
 */
#define THREADED_MSG_CALL ((uint16_t)(TERN_MSG_USER - 1))

/** Reply record of a call() made from another thread; lives on the caller's stack. */
typedef struct {
    tern_msg_t *msg; /**< the caller's message, handed to the handler */
    int result;      /**< the handler's return value, valid when done */
    bool taken;      /**< a module thread dequeued it */
    bool done;       /**< result is set */
} threaded_call_t;

/**
 * Module whose thread this is (NULL on other threads). A thread-local is the
 * one piece of mutable static state in the port: it answers "which module
 * runs here" (current(), and whether call() may run a handler directly)
 * without a lock or a scan, and it holds no stack data, so many stack
 * instances still coexist in one process.
 */
static _Thread_local tern_module_t *threaded_current;

static tern_threaded_t *threaded_of(tern_executor_t *ex)
{
    return (tern_threaded_t *)(void *)ex;
}

static void data_lock(void *ctx)
{
    (void)pthread_mutex_lock(ctx);
}

static void data_unlock(void *ctx)
{
    (void)pthread_mutex_unlock(ctx);
}

/** True when the calling thread is one of @p ex's module threads. */
static bool on_module_thread(const tern_threaded_t *ex)
{
    return threaded_current != NULL && threaded_current->exec == &ex->base;
}

/**
 * Absolute CLOCK_MONOTONIC time @p delay_us from now into @p ts.
 * @return false when the delay is too long to represent (wait without timeout).
 */
static bool timespec_after(uint64_t delay_us, struct timespec *ts)
{
    if (delay_us / 1000000u > (uint64_t)INT32_MAX / 2u) {
        return false;
    }
    (void)clock_gettime(CLOCK_MONOTONIC, ts);
    uint64_t nsec = (uint64_t)ts->tv_nsec + (delay_us % 1000000u) * 1000u;
    ts->tv_sec += (time_t)(delay_us / 1000000u + nsec / 1000000000u);
    ts->tv_nsec = (long)(nsec % 1000000000u);
    return true;
}

/** Wait on @p cond (with queue_mutex held) at most @p delay_us. */
static void wait_at_most(tern_threaded_t *ex, pthread_cond_t *cond, uint64_t delay_us)
{
    struct timespec ts;
    if (timespec_after(delay_us, &ts)) {
        (void)pthread_cond_timedwait(cond, &ex->queue_mutex, &ts);
    } else {
        (void)pthread_cond_wait(cond, &ex->queue_mutex);
    }
}

/** Remove the queued call message of @p call from @p q, keeping the order of the rest. */
static void msgq_remove_call(tern_msgq_t *q, const threaded_call_t *call)
{
    unsigned mask = (unsigned)q->capacity - 1u;
    unsigned kept = 0;
    for (unsigned i = 0; i < q->count; i++) {
        const tern_msg_t *m = &q->slots[(q->head + i) & mask];
        if (m->type == THREADED_MSG_CALL && m->content.ptr == call) {
            continue;
        }
        q->slots[(q->head + kept) & mask] = *m;
        kept++;
    }
    q->count = (uint16_t)kept;
}

/** Thread of one module: take a message, run the handler, repeat until stopping. */
static void *module_thread(void *arg)
{
    tern_module_t *m = arg;
    /* Set by attach() before this thread was created, cleared by stop() only
     * after joining it: stable for the thread's whole life. */
    tern_threaded_t *ex = threaded_of(m->exec);
    tern_thread_slot_t *slot = m->exec_slot;
    threaded_current = m;

    (void)pthread_mutex_lock(&ex->queue_mutex);
    for (;;) {
        while (!ex->stopping && m->queue.count == 0u) {
            (void)pthread_cond_wait(&slot->cond, &ex->queue_mutex);
        }
        if (ex->stopping) {
            break;
        }
        tern_msg_t msg;
        (void)tern_msgq_get(&m->queue, &msg);
        ex->busy++;
        threaded_call_t *call = NULL;
        if (msg.type == THREADED_MSG_CALL) {
            call = msg.content.ptr;
            call->taken = true;
        }
        (void)pthread_mutex_unlock(&ex->queue_mutex);

        int result = m->handle(m, (call != NULL) ? call->msg : &msg);

        (void)pthread_mutex_lock(&ex->queue_mutex);
        if (call != NULL) {
            call->result = result;
            call->done = true;
            (void)pthread_cond_broadcast(&ex->reply_cond);
        }
        ex->busy--;
        if (ex->busy == 0u) {
            (void)pthread_cond_broadcast(&ex->idle_cond);
        }
    }
    (void)pthread_mutex_unlock(&ex->queue_mutex);
    threaded_current = NULL;
    return NULL;
}

/** Timer thread (real clock): sleep until the next deadline, fire, repeat. */
static void *timer_thread(void *arg)
{
    tern_threaded_t *ex = arg;
    tern_executor_t *base = &ex->base;

    (void)pthread_mutex_lock(&ex->queue_mutex);
    while (!ex->stopping) {
        ex->timers_dirty = false;
        (void)pthread_mutex_unlock(&ex->queue_mutex);

        (void)tern_executor_fire_timers(base, tern_executor_now(base));
        tern_lock_acquire(&base->lock);
        uint64_t next = tern_timerq_next(&base->timers);
        tern_lock_release(&base->lock);
        uint64_t now = tern_executor_now(base);

        (void)pthread_mutex_lock(&ex->queue_mutex);
        /* timers_dirty: a change since `next` was read must not be slept through. */
        if (ex->stopping || ex->timers_dirty || next <= now) {
            continue;
        }
        wait_at_most(ex, &ex->timer_cond, (next == UINT64_MAX) ? UINT64_MAX : next - now);
    }
    (void)pthread_mutex_unlock(&ex->queue_mutex);
    return NULL;
}

/**
 * Ask for a real-time priority mapped from @p priority into the lower half of
 * the SCHED_FIFO range (the upper half stays for the system). Failure (EPERM
 * without rights) is ignored on purpose: the thread keeps the default policy.
 */
static void set_thread_priority(pthread_t thread, uint8_t priority)
{
#if !TERN_CONF_THREADED_SCHED_FIFO
    (void)thread;
    (void)priority;
#else
    int lo = sched_get_priority_min(SCHED_FIFO);
    int hi = sched_get_priority_max(SCHED_FIFO);
    if (lo < 0 || hi < lo) {
        return;
    }
    int top = lo + (hi - lo) / 2;
    struct sched_param param;
    memset(&param, 0, sizeof(param));
    param.sched_priority = top - ((int)priority * (top - lo)) / 255;
    (void)pthread_setschedparam(thread, SCHED_FIFO, &param);
#endif
}

static int threaded_attach(tern_executor_t *base, tern_module_t *m)
{
    tern_threaded_t *ex = threaded_of(base);
    if (m == NULL) {
        return -EINVAL;
    }
    int rc = 0;
    (void)pthread_mutex_lock(&ex->queue_mutex);
    tern_thread_slot_t *slot = NULL;
    if (ex->stopping) {
        rc = -ECANCELED;
    } else if (m->exec != NULL) {
        rc = -EBUSY;
    } else {
        for (size_t i = 0; i < TERN_CONF_THREADED_MAX_MODULES; i++) {
            if (ex->slots[i].module == NULL && !ex->slots[i].running) {
                slot = &ex->slots[i];
                break;
            }
        }
        if (slot == NULL) {
            rc = -ENOSPC;
        }
    }
    if (rc == 0) {
        slot->module = m;
        m->exec = base;
        m->exec_slot = slot;
        m->next = NULL;
        int err = pthread_create(&slot->thread, NULL, module_thread, m);
        if (err != 0) {
            slot->module = NULL;
            m->exec = NULL;
            m->exec_slot = NULL;
            rc = -err;
        } else {
            slot->running = true;
            set_thread_priority(slot->thread, m->priority);
        }
    }
    (void)pthread_mutex_unlock(&ex->queue_mutex);
    return rc;
}

static int threaded_post(tern_executor_t *base, tern_module_t *to, const tern_msg_t *msg)
{
    tern_threaded_t *ex = threaded_of(base);
    if (to == NULL || msg == NULL || msg->type == THREADED_MSG_CALL) {
        return -EINVAL;
    }
    int rc;
    (void)pthread_mutex_lock(&ex->queue_mutex);
    if (ex->stopping) {
        rc = -ECANCELED;
    } else if (to->exec != base) {
        rc = -EINVAL;
    } else {
        rc = tern_msgq_put(&to->queue, msg);
        if (rc < 0) {
            to->queue_full++;
        } else {
            (void)pthread_cond_signal(&((tern_thread_slot_t *)to->exec_slot)->cond);
        }
    }
    (void)pthread_mutex_unlock(&ex->queue_mutex);
    return rc;
}

static int threaded_call(tern_executor_t *base, tern_module_t *to, tern_msg_t *msg)
{
    tern_threaded_t *ex = threaded_of(base);
    if (to == NULL || msg == NULL || msg->type == THREADED_MSG_CALL) {
        return -EINVAL;
    }
    if (threaded_current == to) {
        /* Already on the target's thread: queueing would wait for ourselves. */
        return to->handle(to, msg);
    }
    threaded_call_t call = { .msg = msg, .result = 0, .taken = false, .done = false };
    tern_msg_t request = { .type = THREADED_MSG_CALL, .sender = msg->sender };
    request.content.ptr = &call;

    int rc;
    (void)pthread_mutex_lock(&ex->queue_mutex);
    if (ex->stopping) {
        rc = -ECANCELED;
    } else if (to->exec != base) {
        rc = -EINVAL;
    } else if (tern_msgq_put(&to->queue, &request) < 0) {
        to->queue_full++;
        rc = -ENOBUFS;
    } else {
        (void)pthread_cond_signal(&((tern_thread_slot_t *)to->exec_slot)->cond);
        ex->calls_waiting++;
        rc = -ECANCELED;
        for (;;) {
            if (call.done) {
                rc = call.result;
                break;
            }
            if (ex->stopping && !call.taken) {
                msgq_remove_call(&to->queue, &call);
                break;
            }
            (void)pthread_cond_wait(&ex->reply_cond, &ex->queue_mutex);
        }
        ex->calls_waiting--;
        if (ex->calls_waiting == 0u && ex->stopping) {
            (void)pthread_cond_broadcast(&ex->reply_cond);
        }
    }
    (void)pthread_mutex_unlock(&ex->queue_mutex);
    return rc;
}

static tern_module_t *threaded_current_module(tern_executor_t *base)
{
    tern_module_t *m = threaded_current;
    return (m != NULL && m->exec == base) ? m : NULL;
}

static void threaded_timers_changed(tern_executor_t *base)
{
    tern_threaded_t *ex = threaded_of(base);
    (void)pthread_mutex_lock(&ex->queue_mutex);
    ex->timers_dirty = true;
    (void)pthread_cond_signal(&ex->timer_cond);
    (void)pthread_mutex_unlock(&ex->queue_mutex);
}

/** No handler running and every queue empty; queue_mutex held. */
static bool all_idle(const tern_threaded_t *ex)
{
    if (ex->busy != 0u) {
        return false;
    }
    for (size_t i = 0; i < TERN_CONF_THREADED_MAX_MODULES; i++) {
        const tern_module_t *m = ex->slots[i].module;
        if (m != NULL && m->queue.count != 0u) {
            return false;
        }
    }
    return true;
}

/** Block until idle. @return 0; -ECANCELED when stopping. */
static int wait_idle(tern_threaded_t *ex)
{
    (void)pthread_mutex_lock(&ex->queue_mutex);
    while (!ex->stopping && !all_idle(ex)) {
        (void)pthread_cond_wait(&ex->idle_cond, &ex->queue_mutex);
    }
    int rc = ex->stopping ? -ECANCELED : 0;
    (void)pthread_mutex_unlock(&ex->queue_mutex);
    return rc;
}

static int threaded_run_until_idle(tern_executor_t *base)
{
    tern_threaded_t *ex = threaded_of(base);
    if (on_module_thread(ex)) {
        return -EDEADLK; /* would wait for its own handler to finish */
    }
    for (;;) {
        int rc = wait_idle(ex);
        if (rc < 0) {
            return rc;
        }
        /* Real clock: the timer thread fires timers (the only firer, to keep
         * deadline order). Virtual clock: fire what is due now, here. */
        if (!base->clock->is_virtual ||
            tern_executor_fire_timers(base, tern_executor_now(base)) == 0u) {
            return 0;
        }
    }
}

static int threaded_run_until(tern_executor_t *base, uint64_t deadline_us)
{
    tern_threaded_t *ex = threaded_of(base);
    if (on_module_thread(ex)) {
        return -EDEADLK;
    }
    if (!base->clock->is_virtual) {
        /* Module and timer threads do the work; just sleep, waking for stop(). */
        (void)pthread_mutex_lock(&ex->queue_mutex);
        for (;;) {
            uint64_t now = tern_executor_now(base);
            if (ex->stopping || now >= deadline_us) {
                break;
            }
            wait_at_most(ex, &ex->idle_cond, deadline_us - now);
        }
        int rc = ex->stopping ? -ECANCELED : 0;
        (void)pthread_mutex_unlock(&ex->queue_mutex);
        return rc;
    }
    for (;;) {
        int rc = threaded_run_until_idle(base);
        if (rc < 0) {
            return rc;
        }
        uint64_t now = tern_executor_now(base);
        if (now >= deadline_us) {
            return 0;
        }
        tern_lock_acquire(&base->lock);
        uint64_t next = tern_timerq_next(&base->timers);
        tern_lock_release(&base->lock);
        if (next > deadline_us) {
            next = deadline_us;
        }
        /* Every module thread is idle: nobody reads the clock while it moves
         * (the next post, under queue_mutex, orders the write before them). */
        tern_vclock_advance_to((tern_vclock_t *)(void *)(uintptr_t)base->clock, next);
    }
}

static void threaded_stop(tern_executor_t *base)
{
    tern_threaded_t *ex = threaded_of(base);

    (void)pthread_mutex_lock(&ex->queue_mutex);
    ex->stopping = true;
    for (size_t i = 0; i < TERN_CONF_THREADED_MAX_MODULES; i++) {
        if (ex->slots[i].running) {
            (void)pthread_cond_broadcast(&ex->slots[i].cond);
        }
    }
    (void)pthread_cond_broadcast(&ex->idle_cond);
    (void)pthread_cond_broadcast(&ex->reply_cond);
    (void)pthread_cond_broadcast(&ex->timer_cond);
    if (on_module_thread(ex)) {
        /* From a handler: this thread cannot join itself, and a caller may be
         * waiting for this very handler. Mark stopping only; run_until() and
         * run_until_idle() now return -ECANCELED, and stop() called again
         * from outside joins the threads. */
        (void)pthread_mutex_unlock(&ex->queue_mutex);
        return;
    }
    while (ex->calls_waiting != 0u) {
        (void)pthread_cond_wait(&ex->reply_cond, &ex->queue_mutex);
    }
    (void)pthread_mutex_unlock(&ex->queue_mutex);

    /* With stopping set nothing creates threads or changes the slots any more. */
    for (size_t i = 0; i < TERN_CONF_THREADED_MAX_MODULES; i++) {
        if (ex->slots[i].running) {
            (void)pthread_join(ex->slots[i].thread, NULL);
        }
    }
    if (ex->timer_running) {
        (void)pthread_join(ex->timer_thread, NULL);
    }

    (void)pthread_mutex_lock(&ex->queue_mutex);
    for (size_t i = 0; i < TERN_CONF_THREADED_MAX_MODULES; i++) {
        tern_thread_slot_t *slot = &ex->slots[i];
        if (slot->module != NULL) {
            /* Messages still queued stay in the module's queue: they may hold
             * packets, which only the stack can release. */
            slot->module->exec = NULL;
            slot->module->exec_slot = NULL;
            slot->module->next = NULL;
            slot->module = NULL;
        }
        slot->running = false;
    }
    ex->timer_running = false;
    (void)pthread_mutex_unlock(&ex->queue_mutex);

    /* Disarm every timer: their targets are no longer served. */
    tern_executor_disarm_timers(base);
}

/** The threaded executor's implementation of the executor interface. */
static const tern_executor_ops_t threaded_ops = {
    .attach = threaded_attach,
    .post = threaded_post,
    .call = threaded_call,
    .current = threaded_current_module,
    .timers_changed = threaded_timers_changed,
    .run_until_idle = threaded_run_until_idle,
    .run_until = threaded_run_until,
    .stop = threaded_stop,
};

int tern_threaded_init(tern_threaded_t *ex, const tern_clock_t *clock)
{
    if (ex == NULL || clock == NULL) {
        return -EINVAL;
    }
    memset(ex, 0, sizeof(*ex));
    ex->base.ops = &threaded_ops;
    ex->base.clock = clock;
    ex->base.name = "threaded";
    ex->base.lock.acquire = data_lock;
    ex->base.lock.release = data_unlock;
    ex->base.lock.ctx = &ex->data_mutex;

    /* Every object below is initialised in this order; on failure the ones
     * done so far are destroyed in reverse. */
    pthread_cond_t *conds[3 + TERN_CONF_THREADED_MAX_MODULES];
    size_t nconds = 0;
    conds[nconds++] = &ex->idle_cond;
    conds[nconds++] = &ex->reply_cond;
    conds[nconds++] = &ex->timer_cond;
    for (size_t i = 0; i < TERN_CONF_THREADED_MAX_MODULES; i++) {
        conds[nconds++] = &ex->slots[i].cond;
    }

    int rc = pthread_mutex_init(&ex->data_mutex, NULL);
    if (rc != 0) {
        return -rc;
    }
    rc = pthread_mutex_init(&ex->queue_mutex, NULL);
    if (rc != 0) {
        (void)pthread_mutex_destroy(&ex->data_mutex);
        return -rc;
    }
    size_t done = 0;
    while (done < nconds && (rc = tern_posix_cond_init_monotonic(conds[done])) == 0) {
        done++;
    }
    if (rc == 0 && !clock->is_virtual) {
        /* Written before the thread exists: it reads neighbouring fields. */
        ex->timer_running = true;
        rc = pthread_create(&ex->timer_thread, NULL, timer_thread, ex);
        if (rc != 0) {
            ex->timer_running = false;
        }
    }
    if (rc != 0) {
        while (done > 0) {
            (void)pthread_cond_destroy(conds[--done]);
        }
        (void)pthread_mutex_destroy(&ex->queue_mutex);
        (void)pthread_mutex_destroy(&ex->data_mutex);
        return -rc;
    }
    return 0;
}
