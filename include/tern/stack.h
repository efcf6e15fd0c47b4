/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The stack instance: all state of one network node.
 *
 * Tern has no mutable globals. A node is one tern_stack_t that the application
 * allocates (statically) and passes to every call; many nodes can live in one
 * process (the simulator does). The instance owns the packet buffer, the
 * registry, the interface list, the drop counters and the trace; it is served
 * by an executor that may serve other instances too.
 */
#ifndef TERN_STACK_H
#define TERN_STACK_H

#include <stdint.h>

#include "tern/config.h"
#include "tern/executor.h"
#include "tern/netapi.h"
#include "tern/netreg.h"
#include "tern/pktbuf.h"
#include "tern/stats.h"
#include "tern/trace.h"

struct tern_netif;

/** One network node. Fields are private except where functions say otherwise. */
typedef struct tern_stack {
    const char *name;                   /**< node name (shell, trace, simulator) */
    uint64_t start_us;                  /**< clock when the stack was set up */
    tern_executor_t *exec;              /**< executor serving this stack's modules */
    tern_pktbuf_t pktbuf;               /**< the packet buffer */
    tern_netreg_t netreg;               /**< the module registry */
    struct tern_netif *netifs;          /**< interfaces, in index order */
    uint16_t netif_count;               /**< number of interfaces added */
    tern_counter_t netapi_drops[TERN_NETAPI_DROP_NUMOF]; /**< netapi drop counters */
    tern_stats_group_t netapi_group;    /**< group of @ref netapi_drops */
    tern_stats_group_t *stats_groups;   /**< all registered counter groups */
    tern_trace_t trace;                 /**< netapi hop trace */
    TERN_PKTBUF_STORAGE(pktbuf_arena, TERN_CONF_PKTBUF_SIZE); /**< pktbuf arena */
} tern_stack_t;

/**
 * Set up @p stack, served by @p exec.
 * @return 0; -EINVAL for NULL arguments.
 */
int tern_stack_init(tern_stack_t *stack, const char *name, tern_executor_t *exec);

/**
 * Make @p m a module of @p stack and attach it to the stack's executor.
 * @return 0, or the executor's negative errno (see tern_executor_ops_t::attach).
 */
int tern_stack_add_module(tern_stack_t *stack, tern_module_t *m);

/** Register a counter group (shown by the `stats` shell command). */
void tern_stack_add_stats(tern_stack_t *stack, tern_stats_group_t *group);

/** The stack's lock (the executor's), for data shared between module threads. */
static inline const tern_lock_t *tern_stack_lock(const tern_stack_t *stack)
{
    return &stack->exec->lock;
}

/** Current time of the stack's clock, microseconds. */
static inline uint64_t tern_stack_now(const tern_stack_t *stack)
{
    return tern_executor_now(stack->exec);
}

#endif /* TERN_STACK_H */
