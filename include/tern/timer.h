/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Timers that deliver a message to a module when they expire.
 *
 * A timer is a caller-allocated struct. When armed it sits in its target
 * module's executor's timer list (sorted by deadline); on expiry the executor
 * posts the timer's message (type and value chosen at init) to the module.
 *
 * A message already posted is not taken back by tern_timer_cancel() or a new
 * tern_timer_set(): a module that re-arms timers must tolerate one stale
 * expiry message (compare the time or keep a state flag).
 */
#ifndef TERN_TIMER_H
#define TERN_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/module.h"

/** A timer. Set up with tern_timer_init(). */
typedef struct tern_timer {
    uint64_t deadline_us;    /**< absolute expiry time (valid while armed); first: no padding before it
                                  on a 32-bit target */
    struct tern_timer *next; /**< timer list of the executor */
    tern_module_t *target;   /**< module that receives the message */
    uintptr_t value;         /**< content.value of the message posted on expiry */
    uint16_t msg_type;       /**< type of that message (its sender is NULL); the message is built when
                                  posted: 24 B on a 32-bit target, not 32 with a whole tern_msg_t */
    bool armed;              /**< in the list */
} tern_timer_t;

/** Sorted list of armed timers; lives in an executor. */
typedef struct {
    tern_timer_t *head;  /**< earliest first */
    uint32_t lost;       /**< expiries dropped because the target's queue was full */
} tern_timerq_t;

/**
 * Set up @p t to post a message of @p msg_type with content.value @p value to
 * @p target (which must be attached to an executor before the timer is set).
 */
void tern_timer_init(tern_timer_t *t, tern_module_t *target, uint16_t msg_type, uintptr_t value);

/**
 * Arm @p t to expire @p delay_us from now (re-arming moves it).
 * @return 0; -EINVAL if @p t is NULL or its target has no executor.
 */
int tern_timer_set(tern_timer_t *t, uint64_t delay_us);

/** Arm @p t to expire at absolute time @p deadline_us. @return as tern_timer_set(). */
int tern_timer_set_absolute(tern_timer_t *t, uint64_t deadline_us);

/** Disarm @p t; nothing happens if it is not armed. */
void tern_timer_cancel(tern_timer_t *t);

/** True while @p t is armed. */
bool tern_timer_is_armed(const tern_timer_t *t);

/*
 * Executor side (not for modules): the list operations, called with the
 * executor's lock held.
 */

/** Insert @p t sorted by deadline (after equal deadlines: FIFO). */
void tern_timerq_insert(tern_timerq_t *q, tern_timer_t *t);

/** Remove @p t if present. */
void tern_timerq_remove(tern_timerq_t *q, tern_timer_t *t);

/** Earliest deadline, or UINT64_MAX when the list is empty. */
uint64_t tern_timerq_next(const tern_timerq_t *q);

/** Unlink and return the first timer whose deadline is <= @p now, or NULL. */
tern_timer_t *tern_timerq_pop_expired(tern_timerq_t *q, uint64_t now);

#endif /* TERN_TIMER_H */
