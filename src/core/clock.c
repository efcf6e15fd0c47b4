/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The virtual clock: time that moves only when an executor moves it.
 *
 * The virtual clock is not locked: it is read by handlers and written by the
 * executor's run_until() only while no handler runs (the loop is one thread;
 * the threaded executor advances it once every module thread is idle, and the
 * hand-over of the next message orders the write before later reads).
 */
#include <stddef.h>
#include <stdint.h>

#include "tern/clock.h"

/** now_us of a virtual clock: @p clock is the base of a tern_vclock_t. */
static uint64_t vclock_now_us(const tern_clock_t *clock)
{
    /* base is the first member; the cast through void avoids a cast-align
     * warning on strict-alignment targets (the object really is a vclock). */
    const tern_vclock_t *vclock = (const tern_vclock_t *)(const void *)clock;
    return vclock->now;
}

void tern_vclock_init(tern_vclock_t *clock, uint64_t start_us)
{
    clock->base.now_us = vclock_now_us;
    clock->base.is_virtual = 1;
    clock->now = start_us;
}

void tern_vclock_advance_to(tern_vclock_t *clock, uint64_t t_us)
{
    if (t_us > clock->now) {
        clock->now = t_us;
    }
}
