/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief A lock the platform provides and portable code takes around shared state.
 *
 * Portable code never names a mutex type: it takes a tern_lock_t whose functions
 * the executor (or the application) fills in. A lock with NULL functions is a
 * no-op, which is what single-threaded configurations (the event loop) use.
 * Locks are never held across a call into another module or a callback.
 */
#ifndef TERN_LOCK_H
#define TERN_LOCK_H

#include <stdbool.h>
#include <stddef.h>

/** A lock given as two functions and their context. */
typedef struct {
    void (*acquire)(void *ctx); /**< take the lock; NULL for none */
    void (*release)(void *ctx); /**< give it back; NULL for none */
    void *ctx;                  /**< argument for both */
} tern_lock_t;

/** Take @p lock; does nothing for NULL or a no-op lock. */
static inline void tern_lock_acquire(const tern_lock_t *lock)
{
    if (lock != NULL && lock->acquire != NULL) {
        lock->acquire(lock->ctx);
    }
}

/** Give back @p lock; does nothing for NULL or a no-op lock. */
static inline void tern_lock_release(const tern_lock_t *lock)
{
    if (lock != NULL && lock->release != NULL) {
        lock->release(lock->ctx);
    }
}

/** True when taking @p lock does nothing (NULL, or neither function set):
 *  a caller may then skip tern_lock_acquire()/_release() altogether. */
static inline bool tern_lock_is_noop(const tern_lock_t *lock)
{
    return lock == NULL || (lock->acquire == NULL && lock->release == NULL);
}

#endif /* TERN_LOCK_H */
