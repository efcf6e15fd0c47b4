/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The event-loop executor: every module in one thread, most urgent first.
 *
 * Scheduling: the attached modules form one list sorted by priority. A step
 * serves the first module of the list with a message, so a more urgent module
 * always goes first. After being served, a module moves behind the modules of
 * its own priority, so equal priorities take turns one message each (round
 * robin) and a module that keeps re-posting to itself cannot starve its equals.
 *
 * Hand-off (TERN_CONF_LOOP_HANDOFF_DEPTH): a packet message a handler sends
 * while nothing is queued anywhere would be the loop's very next step. netapi
 * asks loop_hand_off_begin() and then runs it as a nested call instead, which
 * saves the queue, the list walk and the timer check of a step. The order
 * handlers see stays the queued order as far as it can be observed: the target
 * is never already on the call stack (no handler re-enters its own module),
 * it has nothing queued (its messages stay in order), and nothing else is
 * queued (no message overtakes an older one). What changes is that the rest of
 * the sending handler runs after the receiving one instead of before. The
 * packet is the receiver's from the hand-over on, so the sender cannot see the
 * difference through it; what else the receiver may touch of the sender is
 * what a synchronous GET/SET could touch before. The whole test suite also
 * runs with TERN_CONF_LOOP_HANDOFF_DEPTH 0 (scripts/test, stage trace-off).
 * Posts from outside any handler (the application, other threads,
 * interrupts) are always queued. With a platform bound, other threads and
 * interrupts post while handlers run, so the platform tells the contexts
 * apart (tern_loop_platform_t::context): only the context that runs the
 * handlers hands off, and without that hook nothing is handed off.
 *
 * Threads and interrupts: with a platform bound, its queue lock guards the
 * module queues, the module list and the current/stopped fields; posting is
 * then safe from anywhere. Everything else (handlers, timers, stack data) is
 * touched only by the loop's thread, which is why base.lock is a no-op: other
 * threads and interrupts post messages, they do not touch stack data.
 *
 * Portable: no OS calls.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/config.h"
#include "tern/port/loop.h"

/** The loop behind @p ex (base is its first member). */
static tern_loop_t *loop_of(tern_executor_t *ex)
{
    return (tern_loop_t *)(void *)ex;
}

/** Lock guarding the queues, or NULL when single-threaded. */
static const tern_lock_t *queue_lock(const tern_loop_t *loop)
{
    return (loop->platform != NULL) ? &loop->platform->queue_lock : NULL;
}

/**
 * Whether the caller runs in the context that runs the loop's handlers
 * (tern_loop_platform_t::context). Always true without a platform; false
 * with a platform that cannot tell contexts apart. Only the runner writes
 * runner, so a caller that finds its own context there is the runner.
 */
static bool in_runner(const tern_loop_t *loop)
{
    const tern_loop_platform_t *pf = loop->platform;
    if (pf == NULL) {
        return true;
    }
    return pf->context != NULL && __atomic_load_n(&loop->runner, __ATOMIC_RELAXED) == pf->context(pf->ctx);
}

/** Record the caller as the context that runs the handlers (see in_runner()). */
static void set_runner(tern_loop_t *loop)
{
    const tern_loop_platform_t *pf = loop->platform;
    if (pf != NULL && pf->context != NULL) {
        __atomic_store_n(&loop->runner, pf->context(pf->ctx), __ATOMIC_RELAXED);
    }
}

/** Wake a sleeping loop (the platform's wake(), if any): new work or new timers. */
static void loop_wake(const tern_loop_t *loop)
{
    const tern_loop_platform_t *pf = loop->platform;
    if (pf != NULL && pf->wake != NULL) {
        pf->wake(pf->ctx);
    }
}

static bool loop_is_stopped(tern_loop_t *loop)
{
    tern_lock_acquire(queue_lock(loop));
    bool stopped = loop->stopped;
    tern_lock_release(queue_lock(loop));
    return stopped;
}

static int loop_attach(tern_executor_t *ex, tern_module_t *m)
{
    tern_loop_t *loop = loop_of(ex);
    if (m == NULL) {
        return -EINVAL;
    }
    int rc = 0;
    tern_lock_acquire(queue_lock(loop));
    if (loop->stopped) {
        rc = -ECANCELED;
    } else if (m->exec != NULL) {
        rc = -EBUSY;
    } else {
        /* After every module of the same or a more urgent priority: stable. */
        tern_module_t **pp = &loop->modules;
        while (*pp != NULL && (*pp)->priority <= m->priority) {
            pp = &(*pp)->next;
        }
        m->next = *pp;
        *pp = m;
        m->exec = ex;
        m->exec_slot = NULL;
        /* A module from a stopped loop keeps its queue: pending counts every
         * message of every queue (tern_loop_step(), hand_off_now()). */
        loop->pending += m->queue.count;
    }
    tern_lock_release(queue_lock(loop));
    return rc;
}

static int loop_post(tern_executor_t *ex, tern_module_t *to, const tern_msg_t *msg)
{
    tern_loop_t *loop = loop_of(ex);
    if (to == NULL || msg == NULL) {
        return -EINVAL;
    }
    int rc;
    tern_lock_acquire(queue_lock(loop));
    if (loop->stopped) {
        rc = -ECANCELED;
    } else if (to->exec != ex) {
        rc = -EINVAL;
    } else {
        rc = tern_msgq_put(&to->queue, msg);
        if (rc < 0) {
            to->queue_full++;
        } else {
            loop->pending++;
        }
    }
    tern_lock_release(queue_lock(loop));
    if (rc == 0) {
        loop_wake(loop);
    }
    return rc;
}

/** Run @p m's handler, counted on the loop's stack (what hand_off_now() checks). */
static int run_handler(tern_loop_t *loop, tern_module_t *m, tern_msg_t *msg)
{
    m->running++;
    loop->depth++;
    int rc = m->handle(m, msg);
    loop->depth--;
    m->running--;
    return rc;
}

static int loop_call(tern_executor_t *ex, tern_module_t *to, tern_msg_t *msg)
{
    tern_loop_t *loop = loop_of(ex);
    if (to == NULL || msg == NULL) {
        return -EINVAL;
    }
    tern_lock_acquire(queue_lock(loop));
    int rc = 0;
    if (loop->stopped) {
        rc = -ECANCELED;
    } else if (to->exec != ex) {
        rc = -EINVAL;
    }
    /* Calls nest (a handler calls another module): restore the caller after. */
    tern_module_t *previous = loop->current;
    if (rc == 0) {
        if (previous == NULL) {
            set_runner(loop); /* call() runs on the loop's context (loop.h) */
        }
        loop->current = to;
    }
    tern_lock_release(queue_lock(loop));
    if (rc < 0) {
        return rc;
    }
    rc = run_handler(loop, to, msg);
    tern_lock_acquire(queue_lock(loop));
    loop->current = previous;
    tern_lock_release(queue_lock(loop));
    return rc;
}

#if TERN_CONF_LOOP_HANDOFF_DEPTH > 0
/**
 * The hand-off conditions besides the caller's context (see the file
 * comment). @p to is attached to the loop (tern_executor_ops_t::hand_off_begin).
 */
static bool hand_off_now(const tern_loop_t *loop, const tern_module_t *to)
{
    return loop->current != NULL && loop->depth < TERN_CONF_LOOP_HANDOFF_DEPTH && loop->pending == 0u &&
           !loop->stopped && to->running == 0u && to->queue.count == 0u;
}

/**
 * @p to runs from here on, nested in the caller's handler (counted as
 * run_handler() does). @return the module that ran (the sender).
 */
static tern_module_t *hand_off_enter(tern_loop_t *loop, tern_module_t *to)
{
    tern_module_t *sender = loop->current;
    loop->current = to;
    to->running++;
    loop->depth++;
    loop->handoffs++;
    return sender;
}

/**
 * loop_hand_off_begin() on a loop with a platform: only the context that
 * runs the handlers may hand off, as an application thread or an interrupt
 * posts even while a handler runs. The queue fields are read under the
 * queue lock (others post); current, depth and running belong to the
 * runner, which the caller then is. (Not inlined, so that the
 * single-threaded path stays short: no registers to save.)
 */
__attribute__((noinline)) static tern_module_t *shared_hand_off_begin(tern_loop_t *loop, tern_module_t *to)
{
    if (!in_runner(loop)) {
        return NULL;
    }
    tern_module_t *sender = NULL;
    tern_lock_acquire(queue_lock(loop));
    if (hand_off_now(loop, to)) {
        sender = hand_off_enter(loop, to);
    }
    tern_lock_release(queue_lock(loop));
    return sender;
}

static tern_module_t *loop_hand_off_begin(tern_executor_t *ex, tern_module_t *to)
{
    tern_loop_t *loop = loop_of(ex);
    if (loop->platform != NULL) {
        return shared_hand_off_begin(loop, to);
    }
    if (!hand_off_now(loop, to)) { /* one thread: everything is the loop's */
        return NULL;
    }
    return hand_off_enter(loop, to);
}

/** loop_hand_off_end() on a loop with a platform: current under the queue lock. */
__attribute__((noinline)) static void shared_hand_off_end(tern_loop_t *loop, tern_module_t *sender)
{
    tern_lock_acquire(queue_lock(loop));
    loop->current = sender;
    tern_lock_release(queue_lock(loop));
}

static void loop_hand_off_end(tern_executor_t *ex, tern_module_t *to, tern_module_t *sender)
{
    tern_loop_t *loop = loop_of(ex);
    loop->depth--;
    to->running--;
    if (loop->platform != NULL) {
        shared_hand_off_end(loop, sender);
        return;
    }
    loop->current = sender; /* one thread: everything is the loop's */
}

/**
 * tern_executor_ops_t::may_continue: a message @p m posted to itself now
 * would be the next step: @p m is the running handler (of the loop's
 * context), nothing is queued, and no timer is due (a step fires those first).
 */
static bool loop_may_continue(tern_executor_t *ex, const tern_module_t *m)
{
    tern_loop_t *loop = loop_of(ex);
    bool now;
    if (loop->platform == NULL) {
        /* One thread: everything is the loop's (as in loop_hand_off_begin()). */
        now = loop->current == m && loop->pending == 0u && !loop->stopped;
    } else {
        if (!in_runner(loop)) {
            return false;
        }
        tern_lock_acquire(queue_lock(loop));
        now = loop->current == m && loop->pending == 0u && !loop->stopped;
        tern_lock_release(queue_lock(loop));
    }
    /* (The timers are the runner's alone: no lock, see the file comment.) */
    return now && tern_timerq_next(&ex->timers) > tern_executor_now(ex);
}
#endif

static tern_module_t *loop_current(tern_executor_t *ex)
{
    tern_loop_t *loop = loop_of(ex);
    const tern_loop_platform_t *pf = loop->platform;
    if (pf == NULL) {
        return loop->current;
    }
    /* current is written by the runner only: the runner reads it without the
     * lock. Another thread or an interrupt is not running any handler, even
     * while the loop is (it posts as "no module"). A platform that cannot
     * tell contexts apart gets the running handler, as before. */
    if (pf->context != NULL) {
        return in_runner(loop) ? loop->current : NULL;
    }
    tern_lock_acquire(queue_lock(loop));
    tern_module_t *m = loop->current;
    tern_lock_release(queue_lock(loop));
    return m;
}

static void loop_timers_changed(tern_executor_t *ex)
{
    /* A sleeping loop (woken only by posts otherwise) must re-plan its wait. */
    loop_wake(loop_of(ex));
}

/**
 * Move the module at *@p pp behind the last module of its priority (round
 * robin among equals; the list stays sorted).
 */
static void loop_rotate(tern_module_t **pp)
{
    tern_module_t *m = *pp;
    if (m->next == NULL || m->next->priority != m->priority) {
        return;
    }
    *pp = m->next;
    tern_module_t **ins = pp;
    while (*ins != NULL && (*ins)->priority <= m->priority) {
        ins = &(*ins)->next;
    }
    m->next = *ins;
    *ins = m;
}

int tern_loop_step(tern_loop_t *loop)
{
    /* Most steps find no timer due: the earliest deadline (the list is
     * sorted) says so without the unlink-and-post loop. Only the loop's
     * thread arms timers (file comment; base.lock is a no-op). */
    uint64_t now = tern_executor_now(&loop->base);
    const tern_timer_t *first = loop->base.timers.head;
    if (first != NULL && first->deadline_us <= now) {
        (void)tern_executor_fire_timers(&loop->base, now);
    }

    tern_lock_acquire(queue_lock(loop));
    /* Nothing queued anywhere (pending counts the messages of every queue):
     * no module to look for. */
    if (loop->stopped || loop->pending == 0u) {
        tern_lock_release(queue_lock(loop));
        return 0;
    }
    tern_module_t **pp = &loop->modules;
    while (*pp != NULL && (*pp)->queue.count == 0u) {
        pp = &(*pp)->next;
    }
    tern_module_t *m = *pp;
    if (m == NULL) {
        tern_lock_release(queue_lock(loop));
        return 0;
    }
    tern_msg_t msg;
    (void)tern_msgq_get(&m->queue, &msg);
    loop->pending--;
    loop_rotate(pp);
    tern_module_t *previous = loop->current;
    loop->current = m;
    set_runner(loop);
    tern_lock_release(queue_lock(loop));

    loop->steps++;
    (void)run_handler(loop, m, &msg);

    tern_lock_acquire(queue_lock(loop));
    loop->current = previous;
    tern_lock_release(queue_lock(loop));
    return 1;
}

static int loop_run_until_idle(tern_executor_t *ex)
{
    tern_loop_t *loop = loop_of(ex);
    while (tern_loop_step(loop) != 0) {
    }
    return loop_is_stopped(loop) ? -ECANCELED : 0;
}

static int loop_run_until(tern_executor_t *ex, uint64_t deadline_us)
{
    tern_loop_t *loop = loop_of(ex);
    for (;;) {
        /* Read the time first: the pass below then fires every timer due by
         * it, so none due before the deadline is left behind when a slow
         * pass (or preemption) carries a real clock past the deadline. */
        uint64_t now = tern_executor_now(ex);
        /* Everything that can be done now, including timers due now. */
        while (tern_loop_step(loop) != 0) {
        }
        if (loop_is_stopped(loop)) {
            return -ECANCELED;
        }
        if (now >= deadline_us) {
            return 0;
        }
        now = tern_executor_now(ex);
        tern_lock_acquire(&ex->lock);
        uint64_t next = tern_timerq_next(&ex->timers);
        tern_lock_release(&ex->lock);
        if (next > deadline_us) {
            next = deadline_us;
        }
        if (next <= now) {
            continue; /* a timer became due meanwhile: the next step fires it */
        }
        if (ex->clock->is_virtual) {
            /* Nothing to do before @p next: jump there. The clock object is the
             * application's (mutable) tern_vclock_t; only the pointer is const. */
            tern_vclock_advance_to((tern_vclock_t *)(void *)(uintptr_t)ex->clock, next);
        } else if (loop->platform != NULL && loop->platform->wait != NULL) {
            loop->platform->wait(loop->platform->ctx, next);
        }
        /* else: real clock without a platform, poll the clock. */
    }
}

static void loop_stop(tern_executor_t *ex)
{
    tern_loop_t *loop = loop_of(ex);
    tern_lock_acquire(queue_lock(loop));
    tern_module_t *m = loop->modules;
    while (m != NULL) {
        tern_module_t *next = m->next;
        m->exec = NULL;
        m->exec_slot = NULL;
        m->next = NULL;
        m = next;
    }
    loop->modules = NULL;
    loop->stopped = true;
    tern_lock_release(queue_lock(loop));

    /* Disarm every timer: their targets are no longer served. */
    tern_executor_disarm_timers(ex);
    loop_wake(loop);
}

/** The loop's implementation of the executor interface. */
static const tern_executor_ops_t loop_ops = {
    .attach = loop_attach,
    .post = loop_post,
    .call = loop_call,
#if TERN_CONF_LOOP_HANDOFF_DEPTH > 0
    .hand_off_begin = loop_hand_off_begin,
    .hand_off_end = loop_hand_off_end,
    .may_continue = loop_may_continue,
#endif
    .current = loop_current,
    .timers_changed = loop_timers_changed,
    .run_until_idle = loop_run_until_idle,
    .run_until = loop_run_until,
    .stop = loop_stop,
};

void tern_loop_init(tern_loop_t *loop, const tern_clock_t *clock)
{
    memset(loop, 0, sizeof(*loop));
    loop->base.ops = &loop_ops;
    loop->base.clock = clock;
    loop->base.name = "loop";
    /* base.lock stays a no-op: stack data is touched only by the loop thread. */
}

void tern_loop_bind_platform(tern_loop_t *loop, const tern_loop_platform_t *platform)
{
    loop->platform = platform;
}
