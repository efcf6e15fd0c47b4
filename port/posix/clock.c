/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The real clock of the POSIX port: CLOCK_MONOTONIC in microseconds.
 */
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "tern/port/posix.h"

static uint64_t posix_now_us(const tern_clock_t *clock)
{
    (void)clock;
    struct timespec ts;
    /* Cannot fail for CLOCK_MONOTONIC with a valid pointer. */
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/** Immutable and stateless, so one instance serves every executor. */
static const tern_clock_t posix_clock = {
    .now_us = posix_now_us,
    .is_virtual = 0,
};

const tern_clock_t *tern_posix_clock(void)
{
    return &posix_clock;
}
