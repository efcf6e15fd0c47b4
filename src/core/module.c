/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Modules and their bounded message queues.
 *
 * The queue is a ring over caller storage whose capacity is a power of two, so
 * that an index wraps with a mask instead of a division (cheap on cores without
 * a divider). Nothing here locks: the executor guards a queue with its own lock.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/module.h"

/** Largest queue capacity: head and count are 16-bit and count must reach it. */
#define MSGQ_CAPACITY_MAX 32768u

int tern_module_init(tern_module_t *m, const char *name, uint8_t priority,
                     tern_module_handler_t handle, void *context,
                     tern_msg_t *slots, size_t capacity)
{
    if (m == NULL || name == NULL || handle == NULL || slots == NULL) {
        return -EINVAL;
    }
    if (capacity < 2u || capacity > MSGQ_CAPACITY_MAX || (capacity & (capacity - 1u)) != 0u) {
        return -EINVAL;
    }
    memset(m, 0, sizeof(*m));
    m->name = name;
    m->handle = handle;
    m->context = context;
    m->priority = priority;
    m->queue.slots = slots;
    m->queue.capacity = (uint16_t)capacity;
    return 0;
}

int tern_msgq_put(tern_msgq_t *q, const tern_msg_t *msg)
{
    if (q->count >= q->capacity) {
        return -ENOBUFS;
    }
    unsigned idx = ((unsigned)q->head + q->count) & ((unsigned)q->capacity - 1u);
    q->slots[idx] = *msg;
    q->count++;
    if (q->count > q->high_water) {
        q->high_water = q->count;
    }
    return 0;
}

bool tern_msgq_get(tern_msgq_t *q, tern_msg_t *msg)
{
    if (q->count == 0u) {
        return false;
    }
    *msg = q->slots[q->head];
    q->head = (uint16_t)(((unsigned)q->head + 1u) & ((unsigned)q->capacity - 1u));
    q->count--;
    return true;
}
