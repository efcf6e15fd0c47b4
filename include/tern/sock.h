/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief What every socket type shares (sock_udp.h, sock_ip.h): RIOT's sock
 *        in Tern's shape (seed 001, §3.2.3).
 *
 * A socket is a caller-allocated struct of its type (tern_sock_udp_t,
 * tern_sock_ip_t) that embeds a tern_sock_t first. The tern_sock_t is a
 * module of its own, with its own bounded queue, registered in netreg for
 * the type's (nettype, context): (UDP, local port) or (UNDEF, protocol
 * number). Whatever reaches the queue is checked by the type's filters (bound
 * address and interface, connected remote) and then either handed to the
 * receive callback or kept in a small ring that recv takes from. A full
 * queue is counted by netapi (queue_full); a full ring, a filtered packet and
 * one that arrives after close in the socket's drop counters
 * (TERN_SOCK_DROP_...).
 *
 * Blocking receive. Portable code has no condition variable, so a recv with
 * a timeout polls the ring and, between polls, lets the executor run for a
 * slice (TERN_CONF_SOCK_RECV_SLICE_US) with tern_executor_run_for(): under
 * the event loop that runs the stack itself (so a waiting application still
 * gets its packet); under the threaded executor the module threads do the
 * work and the caller sleeps for the slice. Either way it must be called
 * from outside module handlers (a handler gets -EDEADLK; use the callback
 * there), and from one thread at a time per socket. The latency of a
 * wake-up is at most one slice.
 *
 * No heap, no globals: everything lives in the socket and the stack.
 *
 * Limits: modules cannot be detached from an executor yet, so a closed
 * socket's module stays attached (under the threaded executor: its thread
 * stays, idle). Create the same struct again to reuse it; it must outlive
 * the executor.
 */
#ifndef TERN_SOCK_H
#define TERN_SOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/module.h"
#include "tern/netreg.h"
#include "tern/pkt.h"
#include "tern/stats.h"

/**
 * Slice a blocking recv lets the executor run between two looks at the
 * ring, in microseconds: the worst added latency under the threaded
 * executor. Default 1000 (1 ms). 1..1000000.
 */
#ifndef TERN_CONF_SOCK_RECV_SLICE_US
#define TERN_CONF_SOCK_RECV_SLICE_US 1000u
#endif
_Static_assert(TERN_CONF_SOCK_RECV_SLICE_US >= 1 && TERN_CONF_SOCK_RECV_SLICE_US <= 1000000,
               "TERN_CONF_SOCK_RECV_SLICE_US must be in [1, 1000000]");

/** True when @p n is a power of two in [@p lo, @p hi]: the rule for socket ring and queue sizes. */
#define TERN_SOCK_POW2_IN(n, lo, hi) ((n) >= (lo) && (n) <= (hi) && ((n) & ((n) - 1)) == 0)

/** Wait forever in a recv. */
#define TERN_SOCK_NO_TIMEOUT UINT32_MAX

/** Drop counters every socket type has, indices into its drops[] (the type's names alias them). */
enum {
    TERN_SOCK_DROP_RING_FULL = 0, /**< the receive ring was full */
    TERN_SOCK_DROP_FILTERED,      /**< not for the bound address/interface or the connected remote */
    TERN_SOCK_DROP_CLOSED,        /**< arrived after close (or for an earlier binding of the struct) */
    TERN_SOCK_DROP_NUMOF
};

/** A receive callback of any socket type, stored as this and called as the type's own. */
typedef void (*tern_sock_cb_fn_t)(void);

struct tern_sock_ops;

/**
 * The part of a socket every type shares. Embedded first in each socket
 * type; its fields belong to src/sock/ (read them through the type's
 * functions).
 */
typedef struct tern_sock {
    tern_module_t module;             /**< receives what netreg gives the socket */
    tern_netreg_entry_t entry;        /**< the socket's registration */
    const struct tern_sock_ops *ops;  /**< the type's part (src/sock/sock_internal.h) */
    tern_pkt_t **ring;                /**< received packets for recv: the type's storage */
    tern_counter_t *drops;            /**< the type's drop counters, TERN_SOCK_DROP_... first */
    tern_sock_cb_fn_t cb;             /**< receive callback (the type's signature), or NULL */
    void *cb_arg;                     /**< its argument */
    uint8_t ring_len;                 /**< entries of @ref ring, a power of two */
    uint8_t ring_head;                /**< oldest entry */
    uint8_t ring_count;               /**< entries in use */
    bool open;                        /**< created and not closed */
    int16_t error;                    /**< pending error (negative errno, like SO_ERROR) for recv, or 0 */
} tern_sock_t;

#endif /* TERN_SOCK_H */
