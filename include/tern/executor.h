/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The execution model, as an interface: who runs a module's handler, when.
 *
 * Two executors implement it:
 *  - the event loop (port/loop): all modules of one or many stack instances in
 *    one thread; queues drained most-urgent-priority first; run until idle or
 *    until a time. Portable (bare metal, simulation).
 *  - the threaded executor (port/posix): one POSIX thread per module, each
 *    blocking on its own bounded queue (the GNRC shape).
 * Module code never knows which one runs it. The executor also owns the timer
 * list and the clock, and provides the lock protecting stack-shared data
 * (pktbuf, netreg, trace, timers): a real mutex when threaded, none in the loop.
 */
#ifndef TERN_EXECUTOR_H
#define TERN_EXECUTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/clock.h"
#include "tern/lock.h"
#include "tern/module.h"
#include "tern/timer.h"

typedef struct tern_executor tern_executor_t;

/** Operations every executor implements. All return negative errno on failure. */
typedef struct {
    /**
     * Start serving @p m (create its thread, or add it to the loop's list).
     * Sets m->exec. @return 0; -EBUSY if already attached; -ENOSPC if the
     * executor has no room for another module; -EINVAL for NULL; -ECANCELED
     * after stop() (initialise the executor again to reuse it).
     */
    int (*attach)(tern_executor_t *ex, tern_module_t *m);

    /**
     * Queue @p msg for @p to; callable from any thread and from a device's
     * event callback. @return 0; -ENOBUFS when the queue is full (the message
     * is not queued, to->queue_full is incremented; the caller owns any packet);
     * -EINVAL if @p to is not attached to @p ex; -ECANCELED after stop().
     */
    int (*post)(tern_executor_t *ex, tern_module_t *to, const tern_msg_t *msg);

    /**
     * Deliver @p msg (GET/SET) to @p to synchronously and return the handler's
     * reply. Runs the handler directly when the caller is already on @p to's
     * thread (or in the loop); otherwise queues the message and blocks until
     * the ACK. @return the handler's result; -ENOBUFS if it could not be
     * queued; -ECANCELED if the executor stopped before the handler started;
     * -EINVAL if @p to is not attached to @p ex.
     * @warning Two modules calling each other synchronously deadlock under the
     *          threaded executor (as in GNRC); the loop only allows calls from
     *          its own thread.
     */
    int (*call)(tern_executor_t *ex, tern_module_t *to, tern_msg_t *msg);

    /**
     * Optional (NULL: never; then also hand_off_end). Begin a hand-off: may
     * a packet message for @p to run now, as a direct call of its handler
     * from the caller, instead of being queued? Yes only when the order of
     * handling stays the one queuing would give: the caller is a handler on
     * the executor's own thread, nothing is queued anywhere, @p to is not on
     * the call stack already and the nesting bound
     * (TERN_CONF_LOOP_HANDOFF_DEPTH) is not reached. If so, @p to is the
     * running module from here on; the caller must then run to->handle() at
     * once and call hand_off_end() with the returned sender when it returns
     * (netapi does). Only the event loop implements it, and with
     * TERN_CONF_LOOP_HANDOFF_DEPTH 0 neither it nor netapi has one: an
     * executor's hand_off_begin() is then never called (a hand-off only
     * saves time: the message is posted instead).
     * @pre @p to is attached to @p ex (to->exec == ex; netapi takes @p ex from
     *      there), so an implementation need not check it.
     * @return the module that was running (the message's sender, never NULL:
     *         only a handler hands off) when the hand-off begins; NULL when
     *         the message must be posted instead.
     */
    tern_module_t *(*hand_off_begin)(tern_executor_t *ex, tern_module_t *to);
    /** End the hand-off begun by hand_off_begin(): @p sender runs again. */
    void (*hand_off_end)(tern_executor_t *ex, tern_module_t *to, tern_module_t *sender);
    /**
     * Optional (NULL: never). May the running handler of @p m go on at once
     * with work it would otherwise post to itself (a long job's next piece)?
     * True only when that message would be the executor's very next step:
     * the caller is @p m's handler on the executor's own thread, nothing is
     * queued anywhere and no timer is due. So a long job still yields to
     * every message and timer that comes meanwhile. Only the event loop
     * implements it (not with TERN_CONF_LOOP_HANDOFF_DEPTH 0; the stack
     * then never calls an executor's may_continue(): 6LoWPAN fragmentation
     * posts its "next fragment" message every time).
     */
    bool (*may_continue)(tern_executor_t *ex, const tern_module_t *m);
    /** Module whose handler runs on the calling thread now, or NULL. */
    tern_module_t *(*current)(tern_executor_t *ex);

    /** The timer list's earliest deadline may have changed: re-plan waiting. */
    void (*timers_changed)(tern_executor_t *ex);

    /**
     * Let the stack work until nothing is left to do now: every queue empty
     * and no handler running. Timers due later are not waited for.
     * @return 0; -ECANCELED once stopped; -EDEADLK from a handler of the
     *         threaded executor (it would wait for itself).
     */
    int (*run_until_idle)(tern_executor_t *ex);

    /**
     * Let the stack work until the clock reads @p deadline_us, firing timers
     * on the way (a virtual clock jumps from event to event).
     * @return 0; -ECANCELED once stopped (also when stop() is called from a
     *         handler meanwhile); -EDEADLK as run_until_idle.
     */
    int (*run_until)(tern_executor_t *ex, uint64_t deadline_us);

    /**
     * Stop serving all modules (join threads); attached modules are detached
     * and every timer is disarmed. Messages still queued stay in the modules'
     * queues (they may hold packets: run until idle before stopping). Called
     * from a handler, it marks the executor stopped so the run returns
     * -ECANCELED; the threaded executor then needs stop() again from outside
     * to join its threads.
     */
    void (*stop)(tern_executor_t *ex);
} tern_executor_ops_t;

/** Common part of every executor; implementations embed it first. */
struct tern_executor {
    const tern_executor_ops_t *ops; /**< the implementation */
    const tern_clock_t *clock;      /**< time source */
    tern_lock_t lock;               /**< protects stack-shared data; no-op in the loop */
    tern_timerq_t timers;           /**< armed timers of all attached modules */
    const char *name;               /**< "loop" or "threaded" */
};

/** Current time of @p ex's clock, in microseconds. */
static inline uint64_t tern_executor_now(const tern_executor_t *ex)
{
    return ex->clock->now_us(ex->clock);
}

/** See tern_executor_ops_t::attach. */
static inline int tern_executor_attach(tern_executor_t *ex, tern_module_t *m)
{
    return ex->ops->attach(ex, m);
}

/** See tern_executor_ops_t::run_until_idle. */
static inline int tern_executor_run_until_idle(tern_executor_t *ex)
{
    return ex->ops->run_until_idle(ex);
}

/** See tern_executor_ops_t::run_until. */
static inline int tern_executor_run_until(tern_executor_t *ex, uint64_t deadline_us)
{
    return ex->ops->run_until(ex, deadline_us);
}

/** Let the stack run for @p duration_us from now. */
static inline int tern_executor_run_for(tern_executor_t *ex, uint64_t duration_us)
{
    return ex->ops->run_until(ex, tern_executor_now(ex) + duration_us);
}

/** See tern_executor_ops_t::stop. */
static inline void tern_executor_stop(tern_executor_t *ex)
{
    ex->ops->stop(ex);
}

/**
 * Fire every timer of @p ex due at @p now: unlink it and post its message
 * (a full queue counts in ex->timers.lost). For executor implementations.
 * Takes ex->lock around list changes, not around posting.
 * @return number of timers fired.
 */
unsigned tern_executor_fire_timers(tern_executor_t *ex, uint64_t now);

/**
 * Disarm every timer of @p ex (when it stops serving their modules).
 * For executor implementations; takes ex->lock.
 */
void tern_executor_disarm_timers(tern_executor_t *ex);

#endif /* TERN_EXECUTOR_H */
