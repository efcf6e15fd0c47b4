/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Trace internals shared by trace.c and netapi.c: an entry described
 *        in place in its ring slot, inlined where a hop is recorded.
 */
#ifndef TERN_TRACE_INTERNAL_H
#define TERN_TRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/pkt.h"
#include "tern/trace.h"

/* Metadata snips (interface header, error report hook) are no bytes of the
 * packet: NETIF and NETERR are the types 1 and 2, one unsigned compare. */
_Static_assert(TERN_NETTYPE_NETERR == TERN_NETTYPE_NETIF + 1, "metadata types adjacent");
#define TERN_TRACE_IS_METADATA(type) ((unsigned)(type) - (unsigned)TERN_NETTYPE_NETIF <= 1u)

/** Bytes of snip @p s that belong to the packet (none for metadata). */
static inline size_t tern_trace_snip_bytes(const tern_pkt_t *s)
{
    return TERN_TRACE_IS_METADATA(s->type) ? 0u : s->size;
}

_Static_assert(TERN_TRACE_TYPES == 4, "tern_trace_describe_in_place() keeps four snip types");

/** The packet of @p msg for its summary: SND and RCV carry one; NULL for the others. */
static inline const tern_pkt_t *tern_trace_msg_pkt(const tern_msg_t *msg)
{
    return (msg->type == TERN_MSG_SND || msg->type == TERN_MSG_RCV) ? msg->content.pkt : NULL;
}

/**
 * tern_trace_describe() with the result, inlined where a hop is recorded
 * (tern_trace_record(), netapi: no call per hop), of a message of type
 * @p type carrying @p pkt (tern_trace_msg_pkt(); netapi's packet hops pass
 * theirs directly). The summary walks the packet once; the first four snips
 * are unrolled, each type stored as it is read (no index check per snip,
 * nothing kept in registers), the rest only counted. Every field is written
 * (no memset first): a ring slot is described in place.
 */
__attribute__((always_inline)) static inline void tern_trace_describe_in_place(tern_trace_entry_t *entry, uint64_t now_us,
                                                                              const tern_module_t *from,
                                                                              const tern_module_t *to, uint16_t type,
                                                                              const tern_pkt_t *pkt, int8_t result)
{
    entry->time_us = now_us;
    /* A device event has no sending module: name its origin. */
    entry->from = (from != NULL) ? from->name : (type == TERN_MSG_NETDEV) ? "device" : "-";
    entry->to = (to != NULL) ? to->name : "-";
    entry->msg_type = type;
    entry->result = result;
    memset(entry->types, 0, sizeof(entry->types));
    const tern_pkt_t *s = pkt;
    size_t len = 0;
    unsigned n = 0;
    if (s != NULL) {
        entry->types[0] = s->type;
        len = tern_trace_snip_bytes(s);
        n = 1;
        s = s->next;
        if (s != NULL) {
            entry->types[1] = s->type;
            len += tern_trace_snip_bytes(s);
            n = 2;
            s = s->next;
            if (s != NULL) {
                entry->types[2] = s->type;
                len += tern_trace_snip_bytes(s);
                n = 3;
                s = s->next;
                if (s != NULL) {
                    entry->types[3] = s->type;
                    len += tern_trace_snip_bytes(s);
                    n = 4;
                    for (s = s->next; s != NULL; s = s->next) {
                        len += tern_trace_snip_bytes(s);
                        n++;
                    }
                }
            }
        }
    }
    entry->pkt_len = (uint16_t)((len > 0xFFFFu) ? 0xFFFFu : len);
    entry->nsnips = (uint8_t)((n > 255u) ? 255u : n);
}

#if TERN_CONF_TRACE
/** The slot the next entry goes to (the oldest is overwritten), counted. Caller holds the stack lock. */
static inline tern_trace_entry_t *tern_trace_next_slot(tern_trace_t *trace)
{
    tern_trace_entry_t *slot = &trace->ring[trace->next];
    trace->next = (uint16_t)((trace->next + 1u) % TERN_CONF_TRACE_LEN);
    trace->total++;
    return slot;
}

/** A result as an entry keeps it: 0, or the negative errno clamped to -128. */
static inline int8_t tern_trace_result(int result)
{
    return (int8_t)((result < -128) ? -128 : (result > 0 ? 0 : result));
}

/**
 * Set the result of the entry numbered @p number (tern_trace_t::total just
 * after it was recorded) to @p result, clamped as tern_trace_result(); nothing
 * if @p number is 0 (nothing recorded) or the entry is no longer in the ring
 * (overwritten or cleared meanwhile). Caller holds the stack lock.
 */
static inline void tern_trace_set_result(tern_trace_t *trace, uint64_t number, int result)
{
    /* How many entries came after it: it is held while fewer than count. */
    uint64_t after = trace->total - number;
    if (number == 0 || after >= tern_trace_count(trace)) {
        return;
    }
    size_t i = ((size_t)trace->next + TERN_CONF_TRACE_LEN - 1u - after) % TERN_CONF_TRACE_LEN;
    trace->ring[i].result = tern_trace_result(result);
}
#endif

#endif /* TERN_TRACE_INTERNAL_H */
