/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The saturating update of 16-bit counters (TERN_CONF_STATS_COUNTER_BITS 16).
 */
#include <stdbool.h>
#include <stdint.h>

#include "tern/stats.h"

#if TERN_CONF_STATS_COUNTER_BITS == 16
void tern_count_add(tern_counter_t *c, uint32_t n)
{
    tern_counter_t old = __atomic_load_n(c, __ATOMIC_RELAXED);
    tern_counter_t sum;
    do {
        /* Stop at the maximum: a wrapped 16-bit counter would read as "a few". */
        sum = (n >= (uint32_t)(TERN_COUNTER_MAX - old)) ? TERN_COUNTER_MAX : (tern_counter_t)(old + n);
    } while (sum != old && !__atomic_compare_exchange_n(c, &old, sum, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}
#else
/* 32-bit counters are updated inline (tern/stats.h); ISO C wants a declaration here. */
typedef int tern_stats_c_is_empty_t;
#endif
