/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Timers: a deadline-sorted intrusive list per executor.
 *
 * The list is sorted on insertion (O(n) for n armed timers) so that the next
 * deadline and expiry are O(1): the loop asks for both on every step, while
 * timers are armed far less often. Equal deadlines keep insertion order, so
 * timers armed for the same instant fire in the order they were set.
 *
 * Module-side functions take the target's executor lock around list changes
 * and tell the executor afterwards (outside the lock) that the earliest
 * deadline may have moved.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/executor.h"
#include "tern/timer.h"

void tern_timer_init(tern_timer_t *t, tern_module_t *target, uint16_t msg_type, uintptr_t value)
{
    memset(t, 0, sizeof(*t));
    t->target = target;
    t->msg_type = msg_type;
    t->value = value;
}

/** Executor serving @p t's target, or NULL. */
static tern_executor_t *timer_executor(const tern_timer_t *t)
{
    if (t == NULL || t->target == NULL) {
        return NULL;
    }
    return t->target->exec;
}

int tern_timer_set(tern_timer_t *t, uint64_t delay_us)
{
    tern_executor_t *ex = timer_executor(t);
    if (ex == NULL) {
        return -EINVAL;
    }
    uint64_t now = tern_executor_now(ex);
    /* Saturate: a huge delay means "never", not a deadline in the past. */
    uint64_t deadline = (delay_us > UINT64_MAX - now) ? UINT64_MAX : now + delay_us;
    return tern_timer_set_absolute(t, deadline);
}

int tern_timer_set_absolute(tern_timer_t *t, uint64_t deadline_us)
{
    tern_executor_t *ex = timer_executor(t);
    if (ex == NULL) {
        return -EINVAL;
    }
    tern_lock_acquire(&ex->lock);
    if (t->armed) {
        tern_timerq_remove(&ex->timers, t);
    }
    t->deadline_us = deadline_us;
    tern_timerq_insert(&ex->timers, t);
    tern_lock_release(&ex->lock);
    if (ex->ops != NULL && ex->ops->timers_changed != NULL) {
        ex->ops->timers_changed(ex);
    }
    return 0;
}

void tern_timer_cancel(tern_timer_t *t)
{
    tern_executor_t *ex = timer_executor(t);
    if (ex == NULL) {
        /* Not attached: it cannot be in any list (stop() disarms all timers). */
        if (t != NULL) {
            t->armed = false;
        }
        return;
    }
    tern_lock_acquire(&ex->lock);
    bool was_armed = t->armed;
    if (was_armed) {
        tern_timerq_remove(&ex->timers, t);
    }
    tern_lock_release(&ex->lock);
    if (was_armed && ex->ops != NULL && ex->ops->timers_changed != NULL) {
        ex->ops->timers_changed(ex);
    }
}

bool tern_timer_is_armed(const tern_timer_t *t)
{
    if (t == NULL) {
        return false;
    }
    tern_executor_t *ex = timer_executor(t);
    if (ex == NULL) {
        return t->armed;
    }
    tern_lock_acquire(&ex->lock);
    bool armed = t->armed;
    tern_lock_release(&ex->lock);
    return armed;
}

void tern_timerq_insert(tern_timerq_t *q, tern_timer_t *t)
{
    if (t->armed) {
        tern_timerq_remove(q, t);
    }
    tern_timer_t **pp = &q->head;
    while (*pp != NULL && (*pp)->deadline_us <= t->deadline_us) {
        pp = &(*pp)->next;
    }
    t->next = *pp;
    *pp = t;
    t->armed = true;
}

void tern_timerq_remove(tern_timerq_t *q, tern_timer_t *t)
{
    for (tern_timer_t **pp = &q->head; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == t) {
            *pp = t->next;
            break;
        }
    }
    t->next = NULL;
    t->armed = false;
}

uint64_t tern_timerq_next(const tern_timerq_t *q)
{
    return (q->head != NULL) ? q->head->deadline_us : UINT64_MAX;
}

tern_timer_t *tern_timerq_pop_expired(tern_timerq_t *q, uint64_t now)
{
    tern_timer_t *t = q->head;
    if (t == NULL || t->deadline_us > now) {
        return NULL;
    }
    q->head = t->next;
    t->next = NULL;
    t->armed = false;
    return t;
}
