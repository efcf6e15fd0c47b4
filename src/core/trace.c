/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief netapi hop trace in a ring buffer.
 */
#include <errno.h>
#include <string.h>

#include "tern/trace.h"
#include "trace_internal.h"

void tern_trace_init(tern_trace_t *trace)
{
    memset(trace, 0, sizeof(*trace));
    trace->enabled = (TERN_CONF_TRACE != 0);
}

void tern_trace_describe(tern_trace_entry_t *entry, uint64_t now_us, const tern_module_t *from,
                         const tern_module_t *to, const tern_msg_t *msg)
{
    tern_trace_describe_in_place(entry, now_us, from, to, msg->type, tern_trace_msg_pkt(msg), 0);
}

void tern_trace_push(tern_trace_t *trace, const tern_trace_entry_t *entry, int result)
{
#if TERN_CONF_TRACE
    if (!trace->enabled) {
        return;
    }
    tern_trace_entry_t *slot = tern_trace_next_slot(trace);
    *slot = *entry;
    slot->result = tern_trace_result(result);
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
    tern_trace_describe_in_place(tern_trace_next_slot(trace), now_us, from, to, msg->type, tern_trace_msg_pkt(msg),
                                 tern_trace_result(result));
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
