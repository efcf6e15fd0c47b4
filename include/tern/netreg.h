/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The module registry: who wants packets of (nettype, demux context).
 *
 * Read first: thesis 3.3.3. Entries are caller-allocated and linked into one
 * list per nettype. A module registered with TERN_NETREG_DEMUX_CTX_ALL receives
 * every packet of that type; otherwise only packets whose context (a UDP port,
 * an Ethertype...) matches. Changes and lookups take the stack's lock.
 */
#ifndef TERN_NETREG_H
#define TERN_NETREG_H

#include <stdint.h>

#include "tern/lock.h"
#include "tern/module.h"
#include "tern/nettype.h"

/** The demux context that matches every context of a type. */
#define TERN_NETREG_DEMUX_CTX_ALL UINT32_MAX

/** One registration. Initialise with TERN_NETREG_ENTRY_INIT or tern_netreg_entry_init(). */
typedef struct tern_netreg_entry {
    struct tern_netreg_entry *next; /**< next entry of the same type */
    tern_module_t *module;          /**< receiver */
    uint32_t demux_ctx;             /**< context, or TERN_NETREG_DEMUX_CTX_ALL */
    uint8_t type;                   /**< tern_nettype_t it is registered under */
} tern_netreg_entry_t;

/** Static initialiser of an entry for @p mod and @p ctx. */
#define TERN_NETREG_ENTRY_INIT(ctx, mod) { NULL, (mod), (ctx), 0 }

/** The registry of one stack instance. */
typedef struct {
    tern_netreg_entry_t *lists[TERN_NETTYPE_NUMOF]; /**< one list per type */
    const tern_lock_t *lock;                        /**< may be NULL */
} tern_netreg_t;

/** Set up an empty registry using @p lock (may be NULL): every list NULL
 *  and the lock; a zeroed tern_netreg_t needs only its lock set. */
void tern_netreg_init(tern_netreg_t *reg, const tern_lock_t *lock);

/** Set up @p entry for @p module and @p demux_ctx. */
void tern_netreg_entry_init(tern_netreg_entry_t *entry, uint32_t demux_ctx, tern_module_t *module);

/**
 * Add @p entry under @p type.
 * @return 0; -EINVAL for NULL arguments, a NULL module or a type out of range;
 *         -EALREADY if @p entry is already registered.
 */
int tern_netreg_register(tern_netreg_t *reg, tern_nettype_t type, tern_netreg_entry_t *entry);

/** Remove @p entry from @p type's list. @return 0; -ENOENT if it was not there; -EINVAL. */
int tern_netreg_unregister(tern_netreg_t *reg, tern_nettype_t type, tern_netreg_entry_t *entry);

/**
 * Iterate the entries matching (@p type, @p demux_ctx): pass NULL as @p prev for
 * the first, the previous result for the next. An entry matches when its
 * context equals @p demux_ctx or is ALL (looking up ALL finds ALL entries only).
 *
 * Lookups are not locked: iterate under tern_netreg_lock() when other threads
 * may register, or use tern_netreg_collect().
 * @return the next matching entry, or NULL.
 */
tern_netreg_entry_t *tern_netreg_lookup(tern_netreg_t *reg, tern_nettype_t type,
                                        uint32_t demux_ctx, tern_netreg_entry_t *prev);

/**
 * Copy the receivers matching (@p type, @p demux_ctx) into @p out, under the lock.
 * @return number of matching entries (may exceed @p max: only @p max are copied).
 */
unsigned tern_netreg_collect(tern_netreg_t *reg, tern_nettype_t type, uint32_t demux_ctx,
                             tern_module_t **out, unsigned max);

/**
 * tern_netreg_collect() without the ALL entries: only those registered for
 * exactly @p demux_ctx (a transport demultiplexing by port, whose ALL
 * entries had the packet already). Looking up ALL finds the ALL entries.
 * @return number of such entries (may exceed @p max: only @p max are copied).
 */
unsigned tern_netreg_collect_exact(tern_netreg_t *reg, tern_nettype_t type, uint32_t demux_ctx,
                                   tern_module_t **out, unsigned max);

/**
 * The receiver of (@p type, @p demux_ctx) when it is the only entry of
 * @p type's list and the registry's lock takes nothing (tern_lock_is_noop()):
 * a lookup without a call or a copy, for the usual hop of a packet (one
 * module per layer). Matches as tern_netreg_collect() does.
 *
 * @pre @p type < TERN_NETTYPE_NUMOF
 * @return that module; NULL when the list is empty, holds more than one
 *         entry or one that does not match, or the lock has functions (then
 *         ask tern_netreg_collect()).
 */
static inline tern_module_t *tern_netreg_sole(const tern_netreg_t *reg, tern_nettype_t type, uint32_t demux_ctx)
{
    if (!tern_lock_is_noop(reg->lock)) {
        return NULL;
    }
    const tern_netreg_entry_t *e = reg->lists[type];
    if (e == NULL || e->next != NULL ||
        (e->demux_ctx != demux_ctx && e->demux_ctx != TERN_NETREG_DEMUX_CTX_ALL)) {
        return NULL;
    }
    return e->module;
}

/** Number of entries matching (@p type, @p demux_ctx). */
unsigned tern_netreg_num(tern_netreg_t *reg, tern_nettype_t type, uint32_t demux_ctx);

/** Take / give back the registry's lock, for iterating with tern_netreg_lookup(). */
void tern_netreg_lock(tern_netreg_t *reg);
void tern_netreg_unlock(tern_netreg_t *reg);

#endif /* TERN_NETREG_H */
