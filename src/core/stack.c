/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The stack instance.
 */
#include <errno.h>
#include <string.h>

#include "tern/stack.h"

static const char *const netapi_drop_names[TERN_NETAPI_DROP_NUMOF] = {
    [TERN_NETAPI_DROP_QUEUE_FULL] = "queue_full",
    [TERN_NETAPI_DROP_NO_RECEIVER] = "no_receiver",
    [TERN_NETAPI_DROP_TOO_MANY] = "too_many_receivers",
    [TERN_NETAPI_DROP_INVALID] = "invalid",
};

int tern_stack_init(tern_stack_t *stack, const char *name, tern_executor_t *exec)
{
    if (stack == NULL || exec == NULL) {
        return -EINVAL;
    }
    memset(stack, 0, sizeof(*stack));
    stack->name = (name != NULL) ? name : "node";
    stack->exec = exec;
    stack->start_us = tern_executor_now(exec);
    int res = tern_pktbuf_init(&stack->pktbuf, stack->pktbuf_arena, sizeof(stack->pktbuf_arena),
                               &exec->lock);
    if (res < 0) {
        return res;
    }
    /* Zeroed with *stack above: every list is already empty (NULL); only the
     * lock is left of tern_netreg_init() (tern/netreg.h). */
    stack->netreg.lock = &exec->lock;
    tern_trace_init(&stack->trace);
    stack->netapi_group.name = "netapi";
    stack->netapi_group.names = TERN_STATS_NAMES(netapi_drop_names);
    stack->netapi_group.values = stack->netapi_drops;
    stack->netapi_group.count = TERN_NETAPI_DROP_NUMOF;
    tern_stack_add_stats(stack, &stack->netapi_group);
    return 0;
}

int tern_stack_add_module(tern_stack_t *stack, tern_module_t *m)
{
    if (stack == NULL || m == NULL) {
        return -EINVAL;
    }
    if (m->exec != NULL) {
        return -EBUSY;
    }
    m->stack = stack;
    int res = tern_executor_attach(stack->exec, m);
    if (res < 0) {
        m->stack = NULL;
    }
    return res;
}

void tern_stack_add_stats(tern_stack_t *stack, tern_stats_group_t *group)
{
    /* Append: groups print in registration order. */
    tern_stats_group_t **link = &stack->stats_groups;
    while (*link != NULL) {
        if (*link == group) {
            return;
        }
        link = &(*link)->next;
    }
    group->next = NULL;
    *link = group;
}
