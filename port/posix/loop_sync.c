/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Sleep/wake for the event loop on POSIX: a mutex and a condition variable.
 *
 * The mutex is the loop's queue lock. wake() sets a pending flag before
 * signalling, and wait() returns at once when the flag is set, so a post that
 * arrives between the loop finding nothing to do and going to sleep is never
 * lost. Deadlines are in the microseconds of tern_posix_clock() (the clock the
 * condition variable is set to), which is the clock a sleeping loop must use.
 * Threads are told apart (the loop's hand-off) by a thread-local address.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "tern/port/posix.h"

static void sync_lock(void *ctx)
{
    (void)pthread_mutex_lock(ctx);
}

static void sync_unlock(void *ctx)
{
    (void)pthread_mutex_unlock(ctx);
}

/**
 * Absolute CLOCK_MONOTONIC time of @p deadline_us (tern_posix_clock() µs).
 * @return false when the deadline is too far to represent (wait forever).
 */
static bool deadline_to_timespec(uint64_t deadline_us, struct timespec *ts)
{
    uint64_t sec = deadline_us / 1000000u;
    if (sec > (uint64_t)INT32_MAX) { /* ~68 years: representable in any time_t */
        return false;
    }
    ts->tv_sec = (time_t)sec;
    ts->tv_nsec = (long)((deadline_us % 1000000u) * 1000u);
    return true;
}

static void sync_wait(void *ctx, uint64_t deadline_us)
{
    tern_posix_loop_sync_t *sync = ctx;
    struct timespec ts;
    bool timed = deadline_to_timespec(deadline_us, &ts);
    (void)pthread_mutex_lock(&sync->mutex);
    while (!sync->pending) {
        if (!timed) {
            (void)pthread_cond_wait(&sync->cond, &sync->mutex);
        } else if (pthread_cond_timedwait(&sync->cond, &sync->mutex, &ts) == ETIMEDOUT) {
            break;
        }
    }
    sync->pending = false;
    (void)pthread_mutex_unlock(&sync->mutex);
}

static void sync_wake(void *ctx)
{
    tern_posix_loop_sync_t *sync = ctx;
    (void)pthread_mutex_lock(&sync->mutex);
    sync->pending = true;
    (void)pthread_cond_signal(&sync->cond);
    (void)pthread_mutex_unlock(&sync->mutex);
}

/*
 * The calling thread, as the address of a thread-local object: distinct for
 * any two threads alive at once (C11 _Thread_local; no OS call). The object is
 * never written.
 */
static uintptr_t sync_context(void *ctx)
{
    (void)ctx;
    static _Thread_local const char marker;
    return (uintptr_t)&marker;
}

int tern_posix_loop_bind(tern_loop_t *loop, tern_posix_loop_sync_t *sync)
{
    if (loop == NULL || sync == NULL) {
        return -EINVAL;
    }
    memset(sync, 0, sizeof(*sync));
    int rc = pthread_mutex_init(&sync->mutex, NULL);
    if (rc != 0) {
        return -rc;
    }
    rc = tern_posix_cond_init_monotonic(&sync->cond);
    if (rc != 0) {
        (void)pthread_mutex_destroy(&sync->mutex);
        return -rc;
    }
    sync->pending = false;
    sync->platform.queue_lock.acquire = sync_lock;
    sync->platform.queue_lock.release = sync_unlock;
    sync->platform.queue_lock.ctx = &sync->mutex;
    sync->platform.wait = sync_wait;
    sync->platform.wake = sync_wake;
    sync->platform.context = sync_context;
    sync->platform.ctx = sync;
    tern_loop_bind_platform(loop, &sync->platform);
    return 0;
}

void tern_posix_loop_sync_destroy(tern_posix_loop_sync_t *sync)
{
    if (sync == NULL) {
        return;
    }
    (void)pthread_cond_destroy(&sync->cond);
    (void)pthread_mutex_destroy(&sync->mutex);
}
