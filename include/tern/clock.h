/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Monotonic microsecond clock interface, and the virtual clock.
 *
 * The stack reads time only through a tern_clock_t. On POSIX a real clock reads
 * CLOCK_MONOTONIC (port/posix/clock.h); in simulation a tern_vclock_t holds the
 * time, and the event loop moves it to the next timer when nothing else is to
 * be done, so hours of protocol time pass in milliseconds and runs repeat.
 */
#ifndef TERN_CLOCK_H
#define TERN_CLOCK_H

#include <stdint.h>

/** A clock: one function returning monotonic microseconds. */
typedef struct tern_clock {
    /** Current time in microseconds since an arbitrary, fixed origin. Never decreases. */
    uint64_t (*now_us)(const struct tern_clock *clock);
    /** True for a virtual clock: executors advance it instead of waiting. */
    int is_virtual;
} tern_clock_t;

/** A virtual clock: time moves only when tern_vclock_advance_to() is called. */
typedef struct {
    tern_clock_t base; /**< the clock interface; pass &vclock.base */
    uint64_t now;      /**< current virtual time, microseconds */
} tern_vclock_t;

/** Set up a virtual clock starting at @p start_us. */
void tern_vclock_init(tern_vclock_t *clock, uint64_t start_us);

/** Move virtual time forward to @p t_us; earlier times are ignored (time never goes back). */
void tern_vclock_advance_to(tern_vclock_t *clock, uint64_t t_us);

/** Read a clock (convenience). */
static inline uint64_t tern_clock_now(const tern_clock_t *clock)
{
    return clock->now_us(clock);
}

#endif /* TERN_CLOCK_H */
