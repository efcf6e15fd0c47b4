/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief POSIX port: real clock, the threaded executor, and sleeping for the loop.
 */
#ifndef TERN_PORT_POSIX_H
#define TERN_PORT_POSIX_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "tern/executor.h"
#include "tern/port/loop.h"

/** Most modules one threaded executor can serve (one thread each). */
#ifndef TERN_CONF_THREADED_MAX_MODULES
#define TERN_CONF_THREADED_MAX_MODULES 32
#endif

/**
 * 1: module threads of the threaded executor ask for SCHED_FIFO, at a
 * real-time priority mapped from the module's (0 = highest); without the right
 * (EPERM, no CAP_SYS_NICE) the request is ignored and ordering is the kernel's.
 * 0 (default): threads keep the default policy. Off by default because with
 * the right (e.g. as root) any handler that busy-waits starves every ordinary
 * thread of the process, the application's included, until the kernel's RT
 * throttling steps in (about a second per second on Linux).
 */
#ifndef TERN_CONF_THREADED_SCHED_FIFO
#define TERN_CONF_THREADED_SCHED_FIFO 0
#endif

/**
 * Initialise @p cond so that pthread_cond_timedwait() takes CLOCK_MONOTONIC
 * deadlines (waits must not jump with wall-clock changes).
 * @return 0 or a positive pthread error number.
 */
int tern_posix_cond_init_monotonic(pthread_cond_t *cond);

/** The real monotonic clock (CLOCK_MONOTONIC), shared and immutable. */
const tern_clock_t *tern_posix_clock(void);

/** Sleep/wake support that makes an event loop thread-safe to post to. */
typedef struct {
    tern_loop_platform_t platform; /**< hooks handed to the loop */
    pthread_mutex_t mutex;         /**< the queue lock */
    pthread_cond_t cond;           /**< signalled by wake */
    bool pending;                  /**< a wake came since the last wait */
} tern_posix_loop_sync_t;

/** Set up @p sync and bind it to @p loop. @return 0 or a negative errno. */
int tern_posix_loop_bind(tern_loop_t *loop, tern_posix_loop_sync_t *sync);

/** Release what tern_posix_loop_bind() created. */
void tern_posix_loop_sync_destroy(tern_posix_loop_sync_t *sync);

/** Per-module thread of the threaded executor (private). */
typedef struct {
    pthread_t thread;      /**< the module's thread */
    pthread_cond_t cond;   /**< signalled when its queue gets a message */
    tern_module_t *module; /**< module served, NULL when free */
    bool running;          /**< thread created and not joined */
} tern_thread_slot_t;

/** The threaded executor: one thread per module. Allocate statically. */
typedef struct {
    tern_executor_t base;        /**< the executor interface; pass &threaded.base */
    pthread_mutex_t data_mutex;  /**< behind base.lock: pktbuf, netreg, timers, trace */
    pthread_mutex_t queue_mutex; /**< guards all queues and the fields below */
    pthread_cond_t idle_cond;    /**< signalled when a handler finishes */
    pthread_cond_t reply_cond;   /**< signalled when a queued call() is answered */
    pthread_cond_t timer_cond;   /**< wakes the timer thread */
    pthread_t timer_thread;      /**< fires timers (real clock only) */
    tern_thread_slot_t slots[TERN_CONF_THREADED_MAX_MODULES]; /**< module threads */
    unsigned busy;               /**< handlers running now */
    unsigned calls_waiting;      /**< callers blocked in call(); stop() waits for them */
    bool stopping;               /**< stop() in progress */
    bool timer_running;          /**< timer thread created */
    bool timers_dirty;           /**< timers changed since the timer thread planned its wait */
} tern_threaded_t;

/**
 * Set up @p ex over @p clock (a real clock; a virtual clock is advanced by
 * run_until like in the loop, once all threads are idle).
 *
 * With a real clock a timer thread fires timers; with a virtual clock timers
 * fire only inside run_until()/run_until_idle(). After stop() the executor may
 * be initialised again (its pthread objects are re-initialised, not destroyed:
 * they hold no resources on the supported platforms).
 * @return 0 or a negative errno.
 */
int tern_threaded_init(tern_threaded_t *ex, const tern_clock_t *clock);

#endif /* TERN_PORT_POSIX_H */
