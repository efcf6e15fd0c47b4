/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test module that records what it receives.
 *
 * A sink counts messages per type and either keeps the packets it receives
 * (up to SINK_KEEP, for inspection; the test releases them) or releases them
 * at once. It answers GET with a fixed value and SET with the length given.
 * Counters are updated atomically: safe to read after run_until_idle under
 * either executor.
 */
#ifndef SINK_H
#define SINK_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/stack.h"

#define SINK_KEEP 16

typedef struct {
    tern_module_t module;
    tern_msg_t queue[8];
    uint32_t snd;
    uint32_t rcv;
    uint32_t get;
    uint32_t set;
    uint32_t timer;
    uint32_t other;
    bool keep;                     /**< keep packets instead of releasing */
    tern_pkt_t *kept[SINK_KEEP];   /**< kept packets, in arrival order */
    uint32_t nkept;
    uint32_t last_value;           /**< content.value of the last TIMER/user msg */
    uint32_t stalled;              /**< a SINK_MSG_STALL is being handled */
    uint32_t gate_open;            /**< set to let a stalled handler return */
} sink_t;

/**
 * Message that makes the sink's handler wait until sink_open_gate(): used under
 * the threaded executor to hold a module busy while its queue is filled.
 * Never post it under the event loop (its one thread would wait forever).
 */
#define SINK_MSG_STALL (TERN_MSG_USER + 1)

/** Post SINK_MSG_STALL to @p sink and wait until its handler is stalled (threaded only). */
void sink_stall(sink_t *sink);

/** Let a stalled sink go on. */
void sink_open_gate(sink_t *sink);

/** Set up and add @p sink to @p stack (priority @p prio, queue of @p qlen <= 8). */
void sink_add(tern_stack_t *stack, sink_t *sink, const char *name, uint8_t prio, unsigned qlen,
              bool keep);

/** Release every kept packet. */
void sink_release_kept(tern_stack_t *stack, sink_t *sink);

/** Value answered to GET. */
#define SINK_GET_VALUE 0x5A

#endif /* SINK_H */
