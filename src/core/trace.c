/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief netapi hop trace in a ring buffer.
 */
#include <errno.h>
#include <string.h>

#include "tern/trace.h"

void tern_trace_init(tern_trace_t *trace)
{
    memset(trace, 0, sizeof(*trace));
    trace->enabled = (TERN_CONF_TRACE != 0);
}

/* Metadata snips (interface header, error report hook) are no bytes of the
 * packet: NETIF and NETERR are the types 1 and 2, one unsigned compare. */
_Static_assert(TERN_NETTYPE_NETERR == TERN_NETTYPE_NETIF + 1, "metadata types adjacent");
#define IS_METADATA(type) ((unsigned)(type) - (unsigned)TERN_NETTYPE_NETIF <= 1u)

/** Bytes of snip @p s that belong to the packet (none for metadata). */
static inline size_t snip_bytes(const tern_pkt_t *s)
{
    return IS_METADATA(s->type) ? 0u : s->size;
}

_Static_assert(TERN_TRACE_TYPES == 4, "describe() keeps the first four snip types");

/**
 * tern_trace_describe(), inlined into tern_trace_record() (one call per hop,
 * not two), with the result. The summary walks the packet once; the first
 * four snips are unrolled, each type stored as it is read (no index check
 * per snip, nothing kept in registers), the rest only counted. Every field is
 * written (no memset first): the ring slot of tern_trace_record() is
 * described in place.
 */
__attribute__((always_inline)) static inline void describe(tern_trace_entry_t *entry, uint64_t now_us,
                                                          const tern_module_t *from, const tern_module_t *to,
                                                          const tern_msg_t *msg, int8_t result)
{
    uint16_t type = msg->type;
    entry->time_us = now_us;
    /* A device event has no sending module: name its origin. */
    entry->from = (from != NULL) ? from->name : (type == TERN_MSG_NETDEV) ? "device" : "-";
    entry->to = (to != NULL) ? to->name : "-";
    entry->msg_type = type;
    entry->result = result;
    memset(entry->types, 0, sizeof(entry->types));
    const tern_pkt_t *s = (type == TERN_MSG_SND || type == TERN_MSG_RCV) ? msg->content.pkt : NULL;
    size_t len = 0;
    unsigned n = 0;
    if (s != NULL) {
        entry->types[0] = s->type;
        len = snip_bytes(s);
        n = 1;
        s = s->next;
        if (s != NULL) {
            entry->types[1] = s->type;
            len += snip_bytes(s);
            n = 2;
            s = s->next;
            if (s != NULL) {
                entry->types[2] = s->type;
                len += snip_bytes(s);
                n = 3;
                s = s->next;
                if (s != NULL) {
                    entry->types[3] = s->type;
                    len += snip_bytes(s);
                    n = 4;
                    for (s = s->next; s != NULL; s = s->next) {
                        len += snip_bytes(s);
                        n++;
                    }
                }
            }
        }
    }
    entry->pkt_len = (uint16_t)((len > 0xFFFFu) ? 0xFFFFu : len);
    entry->nsnips = (uint8_t)((n > 255u) ? 255u : n);
}

void tern_trace_describe(tern_trace_entry_t *entry, uint64_t now_us, const tern_module_t *from,
                         const tern_module_t *to, const tern_msg_t *msg)
{
    describe(entry, now_us, from, to, msg, 0);
}

#if TERN_CONF_TRACE
/** The slot the next entry goes to (the oldest is overwritten), counted. */
static tern_trace_entry_t *next_slot(tern_trace_t *trace)
{
    tern_trace_entry_t *slot = &trace->ring[trace->next];
    trace->next = (uint16_t)((trace->next + 1u) % TERN_CONF_TRACE_LEN);
    trace->total++;
    return slot;
}

/** A result as an entry keeps it: 0, or the negative errno clamped to -128. */
static int8_t entry_result(int result)
{
    return (int8_t)((result < -128) ? -128 : (result > 0 ? 0 : result));
}
#endif

void tern_trace_push(tern_trace_t *trace, const tern_trace_entry_t *entry, int result)
{
#if TERN_CONF_TRACE
    if (!trace->enabled) {
        return;
    }
    tern_trace_entry_t *slot = next_slot(trace);
    *slot = *entry;
    slot->result = entry_result(result);
#else
    (void)trace;
    (void)entry;
    (void)result;
#endif
}

void tern_trace_record(tern_trace_t *trace, uint64_t now_us, const tern_module_t *from, const tern_module_t *to,
                       const tern_msg_t *msg, int result)
{
#if TERN_CONF_TRACE
    if (!trace->enabled) {
        return;
    }
    tern_trace_entry_t *slot = next_slot(trace);
    describe(slot, now_us, from, to, msg, entry_result(result));
#else
    (void)trace;
    (void)now_us;
    (void)from;
    (void)to;
    (void)msg;
    (void)result;
#endif
}

size_t tern_trace_count(const tern_trace_t *trace)
{
#if TERN_CONF_TRACE
    return (trace->total < TERN_CONF_TRACE_LEN) ? trace->total : TERN_CONF_TRACE_LEN;
#else
    (void)trace;
    return 0;
#endif
}

int tern_trace_get(const tern_trace_t *trace, size_t i, tern_trace_entry_t *out)
{
#if TERN_CONF_TRACE
    size_t count = tern_trace_count(trace);
    if (i >= count || out == NULL) {
        return -ENOENT;
    }
    size_t first = (trace->next + TERN_CONF_TRACE_LEN - count) % TERN_CONF_TRACE_LEN;
    *out = trace->ring[(first + i) % TERN_CONF_TRACE_LEN];
    return 0;
#else
    (void)trace;
    (void)i;
    (void)out;
    return -ENOENT;
#endif
}

void tern_trace_clear(tern_trace_t *trace)
{
    trace->total = 0;
    trace->next = 0;
}

const char *tern_msg_type_name(uint16_t type)
{
    switch (type) {
    case TERN_MSG_SND:
        return "SND";
    case TERN_MSG_RCV:
        return "RCV";
    case TERN_MSG_GET:
        return "GET";
    case TERN_MSG_SET:
        return "SET";
    case TERN_MSG_ACK:
        return "ACK";
    case TERN_MSG_TIMER:
        return "TIMER";
    case TERN_MSG_NETDEV:
        return "NETDEV";
    default:
        return (type >= TERN_MSG_USER) ? "USER" : "?";
    }
}
