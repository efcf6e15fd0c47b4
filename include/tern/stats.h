/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Named drop counters that modules register with their stack.
 *
 * Every drop in Tern increments a named counter. A module keeps its counters in
 * a tern_counter_t array indexed by its own enum, and registers a
 * caller-allocated group naming them; the shell's `stats` command prints every
 * group.
 */
#ifndef TERN_STATS_H
#define TERN_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"

/**
 * The counter name table @p table of a group, or NULL when the names are
 * compiled out (TERN_CONF_STATS_NAMES 0, config.h): then the table is
 * unreferenced and the linker's --gc-sections drops it. Use it where a
 * module sets tern_stats_group_t::names.
 */
#define TERN_STATS_NAMES(table) (TERN_CONF_STATS_NAMES ? (table) : NULL)

#if TERN_CONF_STATS_COUNTER_BITS == 16
typedef uint16_t tern_counter_t; /**< one counter (TERN_CONF_STATS_COUNTER_BITS) */
#define TERN_COUNTER_MAX UINT16_MAX
#else
typedef uint32_t tern_counter_t; /**< one counter (TERN_CONF_STATS_COUNTER_BITS) */
#define TERN_COUNTER_MAX UINT32_MAX
#endif

/** A group of counters of one module. */
typedef struct tern_stats_group {
    struct tern_stats_group *next;  /**< stack's list */
    const char *name;               /**< group name, e.g. "netapi" or an interface name */
    const char *const *names;       /**< @ref count counter names; NULL: compiled out (TERN_STATS_NAMES()) */
    const tern_counter_t *values;   /**< @ref count counter values */
    uint8_t count;                  /**< number of counters */
} tern_stats_group_t;

/**
 * Add @p n to counter @p c, safely against concurrent updates on other
 * threads. 32-bit counters wrap (after 2^32 events); 16-bit ones stop at
 * TERN_COUNTER_MAX (TERN_CONF_STATS_COUNTER_BITS). The saturating update is a
 * compare-and-swap loop, so it is a function (src/core/stats.c) rather than
 * repeated inline at every counter of a small image.
 */
#if TERN_CONF_STATS_COUNTER_BITS == 16
void tern_count_add(tern_counter_t *c, uint32_t n);
#else
static inline void tern_count_add(tern_counter_t *c, uint32_t n)
{
    __atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}
#endif

/** Increment counter @p c (tern_count_add() by 1). */
static inline void tern_count(tern_counter_t *c)
{
    tern_count_add(c, 1u);
}

/** Read counter @p c (atomically). */
static inline uint32_t tern_count_read(const tern_counter_t *c)
{
    return __atomic_load_n(c, __ATOMIC_RELAXED);
}

#endif /* TERN_STATS_H */
