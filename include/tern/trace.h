/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Trace of netapi hops in a ring buffer (compile-time switch TERN_CONF_TRACE).
 *
 * Answer to "IPC is hard to debug": every message netapi posts or calls is
 * recorded with time, sender, receiver, message type and a packet summary
 * (snip types in list order and total length). Disabled, the recording
 * compiles to nothing and the ring takes no RAM.
 */
#ifndef TERN_TRACE_H
#define TERN_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/lock.h"
#include "tern/module.h"

/** Snip types kept per entry (the first ones of the packet). */
#define TERN_TRACE_TYPES 4

/** One recorded hop. */
typedef struct {
    uint64_t time_us;                    /**< clock at posting */
    const char *from;                    /**< sender module name, or "-" */
    const char *to;                      /**< receiver module name */
    uint16_t msg_type;                   /**< TERN_MSG_... */
    uint16_t pkt_len;                    /**< packet bytes without NETIF/NETERR metadata (saturated) */
    uint8_t nsnips;                      /**< snips in the packet (saturated at 255) */
    uint8_t types[TERN_TRACE_TYPES];     /**< first snip types */
    int8_t result;                       /**< 0 delivered/queued, or the negative errno (clamped) */
} tern_trace_entry_t;

/** The ring of one stack instance. */
typedef struct {
#if TERN_CONF_TRACE
    tern_trace_entry_t ring[TERN_CONF_TRACE_LEN]; /**< entries */
#endif
    uint64_t total;         /**< entries ever recorded (64 bits: never wraps, so the
                                 ring's fill level and the entries' numbers stay right) */
    uint16_t next;          /**< ring index the next entry goes to */
    bool enabled;           /**< recording on */
} tern_trace_t;

/** Set up an empty, enabled trace. */
void tern_trace_init(tern_trace_t *trace);

/**
 * Describe one hop in @p entry: time, modules, message type and, for SND/RCV,
 * the packet summary. Call it before handing the message over (afterwards the
 * packet belongs to the receiver). @p result is set to 0.
 */
void tern_trace_describe(tern_trace_entry_t *entry, uint64_t now_us, const tern_module_t *from,
                         const tern_module_t *to, const tern_msg_t *msg);

/**
 * Append @p entry with result @p result to the ring (the oldest entry is
 * overwritten). No-op when compiled out or disabled. Caller holds the stack lock.
 */
void tern_trace_push(tern_trace_t *trace, const tern_trace_entry_t *entry, int result);

/**
 * tern_trace_describe() and tern_trace_push() in one step, written in place
 * into the ring (no entry copied): for a hop whose result is known before
 * the message is handed over (a hand-off: the receiver runs after the
 * record). No-op when compiled out or disabled. Caller holds the stack lock.
 */
void tern_trace_record(tern_trace_t *trace, uint64_t now_us, const tern_module_t *from, const tern_module_t *to,
                       const tern_msg_t *msg, int result);

/** Number of entries currently held (<= TERN_CONF_TRACE_LEN). */
size_t tern_trace_count(const tern_trace_t *trace);

/**
 * Entry @p i, oldest first (0 .. count-1), copied to @p out.
 * @return 0; -ENOENT if @p i is out of range or tracing is compiled out.
 */
int tern_trace_get(const tern_trace_t *trace, size_t i, tern_trace_entry_t *out);

/** Forget all entries. */
void tern_trace_clear(tern_trace_t *trace);

/** Short name of a message type ("SND", "RCV", ... "USER+n" as "usr"). */
const char *tern_msg_type_name(uint16_t type);

#endif /* TERN_TRACE_H */
