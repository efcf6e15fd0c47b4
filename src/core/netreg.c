/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Module registry (thesis 3.3.3): one intrusive list per nettype.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "tern/netreg.h"

void tern_netreg_init(tern_netreg_t *reg, const tern_lock_t *lock)
{
    for (size_t i = 0; i < TERN_NETTYPE_NUMOF; i++) {
        reg->lists[i] = NULL;
    }
    reg->lock = lock;
}

void tern_netreg_entry_init(tern_netreg_entry_t *entry, uint32_t demux_ctx, tern_module_t *module)
{
    entry->next = NULL;
    entry->module = module;
    entry->demux_ctx = demux_ctx;
    entry->type = 0;
}

static bool type_valid(tern_nettype_t type)
{
    return (unsigned)type < TERN_NETTYPE_NUMOF;
}

int tern_netreg_register(tern_netreg_t *reg, tern_nettype_t type, tern_netreg_entry_t *entry)
{
    if (reg == NULL || entry == NULL || entry->module == NULL || !type_valid(type)) {
        return -EINVAL;
    }
    int res = 0;
    tern_lock_acquire(reg->lock);
    /* An entry is in at most one list: look for it in all of them. */
    for (size_t t = 0; t < TERN_NETTYPE_NUMOF && res == 0; t++) {
        for (const tern_netreg_entry_t *e = reg->lists[t]; e != NULL; e = e->next) {
            if (e == entry) {
                res = -EALREADY;
                break;
            }
        }
    }
    if (res == 0) {
        /* Append, so that receivers are served in registration order. */
        tern_netreg_entry_t **link = &reg->lists[type];
        while (*link != NULL) {
            link = &(*link)->next;
        }
        entry->next = NULL;
        entry->type = (uint8_t)type;
        *link = entry;
    }
    tern_lock_release(reg->lock);
    return res;
}

int tern_netreg_unregister(tern_netreg_t *reg, tern_nettype_t type, tern_netreg_entry_t *entry)
{
    if (reg == NULL || entry == NULL || !type_valid(type)) {
        return -EINVAL;
    }
    int res = -ENOENT;
    tern_lock_acquire(reg->lock);
    for (tern_netreg_entry_t **link = &reg->lists[type]; *link != NULL; link = &(*link)->next) {
        if (*link == entry) {
            *link = entry->next;
            entry->next = NULL;
            res = 0;
            break;
        }
    }
    tern_lock_release(reg->lock);
    return res;
}

static bool matches(const tern_netreg_entry_t *e, uint32_t demux_ctx)
{
    return e->demux_ctx == demux_ctx || e->demux_ctx == TERN_NETREG_DEMUX_CTX_ALL;
}

tern_netreg_entry_t *tern_netreg_lookup(tern_netreg_t *reg, tern_nettype_t type,
                                        uint32_t demux_ctx, tern_netreg_entry_t *prev)
{
    if (reg == NULL || !type_valid(type)) {
        return NULL;
    }
    tern_netreg_entry_t *e = (prev == NULL) ? reg->lists[type] : prev->next;
    while (e != NULL && !matches(e, demux_ctx)) {
        e = e->next;
    }
    return e;
}

/* The entries of @p e's list matching @p demux_ctx into @p out (at most
 * @p max): those of that context only (@p exact), or those of ALL too.
 * @return how many match. */
static inline unsigned walk(const tern_netreg_entry_t *e, uint32_t demux_ctx, tern_module_t **out, unsigned max,
                            bool exact)
{
    unsigned n = 0;
    for (; e != NULL; e = e->next) {
        if (exact ? e->demux_ctx == demux_ctx : matches(e, demux_ctx)) {
            if (n < max) {
                out[n] = e->module;
            }
            n++;
        }
    }
    return n;
}

/* walk() under a lock that has functions to call (kept apart, so that
 * collect() makes no call without one and saves no registers). */
__attribute__((noinline)) static unsigned walk_locked(const tern_lock_t *lock, const tern_netreg_entry_t *e,
                                                      uint32_t demux_ctx, tern_module_t **out, unsigned max,
                                                      bool exact)
{
    tern_lock_acquire(lock);
    unsigned n = walk(e, demux_ctx, out, max, exact);
    tern_lock_release(lock);
    return n;
}

/* walk() of @p type's list, under the lock. A packet's every hop comes here:
 * without a lock to take (the event loop's), it makes no call. */
static inline unsigned collect(tern_netreg_t *reg, tern_nettype_t type, uint32_t demux_ctx, tern_module_t **out,
                               unsigned max, bool exact)
{
    if (reg == NULL || !type_valid(type)) {
        return 0;
    }
    if (out == NULL) {
        max = 0;
    }
    if (tern_lock_is_noop(reg->lock)) {
        return walk(reg->lists[type], demux_ctx, out, max, exact);
    }
    return walk_locked(reg->lock, reg->lists[type], demux_ctx, out, max, exact);
}

unsigned tern_netreg_collect(tern_netreg_t *reg, tern_nettype_t type, uint32_t demux_ctx,
                             tern_module_t **out, unsigned max)
{
    return collect(reg, type, demux_ctx, out, max, false);
}

unsigned tern_netreg_collect_exact(tern_netreg_t *reg, tern_nettype_t type, uint32_t demux_ctx,
                                   tern_module_t **out, unsigned max)
{
    return collect(reg, type, demux_ctx, out, max, true);
}

unsigned tern_netreg_num(tern_netreg_t *reg, tern_nettype_t type, uint32_t demux_ctx)
{
    return tern_netreg_collect(reg, type, demux_ctx, NULL, 0);
}

void tern_netreg_lock(tern_netreg_t *reg)
{
    tern_lock_acquire(reg->lock);
}

void tern_netreg_unlock(tern_netreg_t *reg)
{
    tern_lock_release(reg->lock);
}
