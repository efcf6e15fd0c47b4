/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Parts of the execution model shared by every executor: firing timers.
 */
#include <stddef.h>
#include <stdint.h>

#include "tern/executor.h"

unsigned tern_executor_fire_timers(tern_executor_t *ex, uint64_t now)
{
    unsigned fired = 0;
    for (;;) {
        /* Unlink one timer under the lock, and copy what posting needs: once
         * the lock is released the owner may re-arm or reuse the timer. */
        tern_lock_acquire(&ex->lock);
        tern_timer_t *t = tern_timerq_pop_expired(&ex->timers, now);
        tern_module_t *target = NULL;
        tern_msg_t msg = { 0 }; /* sender NULL: a timer's */
        if (t != NULL) {
            target = t->target;
            msg.type = t->msg_type;
            msg.content.value = t->value;
        }
        tern_lock_release(&ex->lock);
        if (t == NULL) {
            break;
        }
        fired++;
        /* Posting takes the executor's queue lock: never nested in ex->lock. */
        if (ex->ops->post(ex, target, &msg) < 0) {
            tern_lock_acquire(&ex->lock);
            ex->timers.lost++;
            tern_lock_release(&ex->lock);
        }
    }
    return fired;
}

void tern_executor_disarm_timers(tern_executor_t *ex)
{
    tern_lock_acquire(&ex->lock);
    while (tern_timerq_pop_expired(&ex->timers, UINT64_MAX) != NULL) {
    }
    tern_lock_release(&ex->lock);
}
