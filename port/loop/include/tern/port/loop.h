/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The event-loop executor: every module of one or more stacks in one thread.
 *
 * Portable (no OS calls). Messages are drained from the module queues most
 * urgent priority first (0 before 1; equal priorities take turns), one message
 * per step, so a module that re-queues work to itself (6LoWPAN sending one
 * fragment per turn) lets received frames in between. Timers are fired from the
 * loop; with a virtual clock, an idle loop jumps to the next timer.
 *
 * Posting from another thread or from an interrupt is allowed once a platform
 * has been bound (tern_loop_bind_platform): its queue lock guards the queues
 * and its wait/wake functions let an idle loop sleep until a post or a timer.
 * Without a platform the loop is single-threaded, and with a real clock an idle
 * run_until() busy-polls the clock.
 *
 * Only post() (and timers_changed) may come from other threads or interrupts:
 * call(), timers, stack data and the run functions belong to the loop's thread
 * (base.lock is a no-op). An interrupt or device thread posts an event; the
 * module reads the device from the loop.
 */
#ifndef TERN_PORT_LOOP_H
#define TERN_PORT_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/executor.h"

/** Platform hooks for a loop that other threads or interrupts post to. */
typedef struct {
    tern_lock_t queue_lock; /**< guards all module queues of the loop */
    /** Sleep until tern_loop_platform_t::wake is called or @p deadline_us (UINT64_MAX: none). */
    void (*wait)(void *ctx, uint64_t deadline_us);
    /** Wake a sleeping wait() (called after a post). */
    void (*wake)(void *ctx);
    /**
     * Identify the calling context: a value that differs between any two
     * threads, and between a thread and an interrupt handler, that may run at
     * the same time (POSIX: per thread; bare metal: thread mode vs. handler
     * mode). The loop hands packets off (TERN_CONF_LOOP_HANDOFF_DEPTH) only
     * to a caller whose context is the one running its handlers. NULL: never.
     */
    uintptr_t (*context)(void *ctx);
    void *ctx; /**< argument of wait/wake/context */
} tern_loop_platform_t;

/** The event loop. Allocate statically; initialise with tern_loop_init(). */
typedef struct {
    tern_executor_t base;               /**< the executor interface; pass &loop.base */
    tern_module_t *modules;             /**< attached modules, sorted by priority */
    tern_module_t *current;             /**< module whose handler runs now */
    const tern_loop_platform_t *platform; /**< NULL: single-threaded */
    uintptr_t runner;                   /**< platform context running the handlers (platform->context) */
    uint32_t steps;                     /**< messages taken from the queues */
    uint32_t handoffs;                  /**< packet messages handed off by direct call */
    uint32_t pending;                   /**< messages queued, all modules together */
    uint8_t depth;                      /**< handlers nested on the loop's stack now */
    bool stopped;                       /**< stop() was called */
} tern_loop_t;

/** Set up @p loop over @p clock (real or virtual). */
void tern_loop_init(tern_loop_t *loop, const tern_clock_t *clock);

/** Bind platform hooks (see tern_loop_platform_t); @p platform must outlive the loop. */
void tern_loop_bind_platform(tern_loop_t *loop, const tern_loop_platform_t *platform);

/**
 * Fire due timers, then handle at most one message.
 * @return 1 if a message was handled, 0 if there was none.
 */
int tern_loop_step(tern_loop_t *loop);

#endif /* TERN_PORT_LOOP_H */
