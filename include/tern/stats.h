/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Named drop counters that modules register with their stack.
 *
 * Every drop in Tern increments a named counter. A module keeps its counters in
 * a uint32_t array indexed by its own enum, and registers a caller-allocated
 * group naming them; the shell's `stats` command prints every group.
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

/** A group of counters of one module. */
typedef struct tern_stats_group {
    struct tern_stats_group *next;  /**< stack's list */
    const char *name;               /**< group name, e.g. "netapi" or an interface name */
    const char *const *names;       /**< @ref count counter names; NULL: compiled out (TERN_STATS_NAMES()) */
    const uint32_t *values;         /**< @ref count counter values */
    uint8_t count;                  /**< number of counters */
} tern_stats_group_t;

/** Increment counter @p c, safely against concurrent increments on other threads. */
static inline void tern_count(uint32_t *c)
{
    __atomic_fetch_add(c, 1u, __ATOMIC_RELAXED);
}

/** Read counter @p c (atomically). */
static inline uint32_t tern_count_read(const uint32_t *c)
{
    return __atomic_load_n(c, __ATOMIC_RELAXED);
}

#endif /* TERN_STATS_H */
