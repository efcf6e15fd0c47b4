/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Condition variables whose timed waits run on CLOCK_MONOTONIC.
 */
#include <pthread.h>
#include <time.h>

#include "tern/port/posix.h"

int tern_posix_cond_init_monotonic(pthread_cond_t *cond)
{
    pthread_condattr_t attr;
    int rc = pthread_condattr_init(&attr);
    if (rc != 0) {
        return rc;
    }
    rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (rc == 0) {
        rc = pthread_cond_init(cond, &attr);
    }
    (void)pthread_condattr_destroy(&attr);
    return rc;
}
