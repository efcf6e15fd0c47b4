/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief netapi: the one message API between all modules.
 *
 * Read first: thesis 3.3.4. SND passes a packet down, RCV up; both are
 * asynchronous and hand the caller's reference to the receiver. GET and SET
 * read or write an option synchronously; the reply (an ACK carrying the value
 * length or a negative errno) is the function's return value.
 *
 * A packet whose receiver's queue is full is released and counted, never kept
 * (GNRC's weakness: silently dropped messages). Every hop is recorded in the
 * stack's trace when TERN_CONF_TRACE is on.
 */
#ifndef TERN_NETAPI_H
#define TERN_NETAPI_H

#include <stddef.h>
#include <stdint.h>

#include "tern/module.h"
#include "tern/netopt.h"
#include "tern/nettype.h"

struct tern_stack;

/** Content of a GET/SET message. */
typedef struct tern_netapi_opt {
    tern_netopt_t opt; /**< which option */
    uint16_t context;  /**< option-specific context (e.g. an index), usually 0 */
    void *data;        /**< value buffer: read (SET) or written (GET) */
    size_t data_len;   /**< SET: length of the value; GET: capacity of @ref data */
} tern_netapi_opt_t;

/** Drop counters of netapi, indices into tern_stack_t::netapi_drops. */
enum {
    TERN_NETAPI_DROP_QUEUE_FULL = 0, /**< packets released because a receiver's queue was full */
    TERN_NETAPI_DROP_NO_RECEIVER,    /**< packets released because nobody was registered */
    TERN_NETAPI_DROP_TOO_MANY,       /**< receivers skipped beyond TERN_CONF_NETAPI_MAX_RECEIVERS */
    TERN_NETAPI_DROP_INVALID,        /**< packets released because of invalid arguments */
    TERN_NETAPI_DROP_NUMOF
};

/**
 * Send @p pkt down to @p to (SND).
 * @return 0; -EINVAL if @p pkt is NULL or @p to is NULL or not attached
 *         to a stack: then, and only then, @p pkt is left to the caller (no
 *         pktbuf is known). Any other error, and @p pkt was released (with
 *         the error, for its sender's report) and counted: -ENOBUFS if
 *         @p to's queue was full, -ENOTCONN if @p to was detached meanwhile,
 *         -ECANCELED if its executor was stopped.
 */
int tern_netapi_send(tern_module_t *to, tern_pkt_t *pkt);

/** Pass @p pkt up to @p to (RCV). Return values as tern_netapi_send(). */
int tern_netapi_receive(tern_module_t *to, tern_pkt_t *pkt);

/**
 * Read option @p opt of module @p to into @p data (capacity @p max_len).
 * @return length of the value (>= 0) or the module's negative errno
 *         (-ENOTSUP: unknown option; -EOVERFLOW: @p max_len too short).
 */
int tern_netapi_get(tern_module_t *to, tern_netopt_t opt, uint16_t context, void *data,
                    size_t max_len);

/**
 * Write option @p opt of module @p to from @p data (@p len bytes).
 * @return bytes used (>= 0) or the module's negative errno.
 */
int tern_netapi_set(tern_module_t *to, tern_netopt_t opt, uint16_t context, const void *data,
                    size_t len);

/**
 * Hand @p pkt to every module registered in @p stack's netreg for (@p type,
 * @p demux_ctx) with message @p msg_type (TERN_MSG_SND or TERN_MSG_RCV): the
 * packet is held once per receiver beyond the first, so each gets a reference.
 *
 * @return number of receivers the packet was queued to (0..); with no
 *         receiver, @p pkt is released and counted as no_receiver. A receiver
 *         with a full queue gets nothing; its reference is released and counted.
 *         -EINVAL for bad arguments (then @p pkt, if any, is released).
 */
int tern_netapi_dispatch(struct tern_stack *stack, tern_nettype_t type, uint32_t demux_ctx,
                         uint16_t msg_type, tern_pkt_t *pkt);

/**
 * Hand @p pkt to the @p n modules of @p to (collected from netreg by the
 * caller into an array of TERN_CONF_NETAPI_MAX_RECEIVERS; @p n as
 * tern_netreg_collect() counts them, those beyond the array counted as
 * too_many and given nothing) with message @p msg_type
 * (TERN_MSG_SND or TERN_MSG_RCV): the second half of tern_netapi_dispatch(),
 * for a caller that must know its receivers before the packet goes (to
 * answer "nobody" itself, or to find them in its own way).
 *
 * @return as tern_netapi_dispatch(); with @p n 0, @p pkt is released and
 *         counted as no_receiver; -EOVERFLOW when the references could not
 *         be added (counted as too_many, @p pkt released).
 */
int tern_netapi_deliver(struct tern_stack *stack, tern_module_t *const *to, unsigned n, uint16_t msg_type,
                        tern_pkt_t *pkt);

/** tern_netapi_dispatch() with TERN_MSG_SND. */
static inline int tern_netapi_dispatch_send(struct tern_stack *stack, tern_nettype_t type,
                                            uint32_t demux_ctx, tern_pkt_t *pkt)
{
    return tern_netapi_dispatch(stack, type, demux_ctx, TERN_MSG_SND, pkt);
}

/** tern_netapi_dispatch() with TERN_MSG_RCV. */
static inline int tern_netapi_dispatch_receive(struct tern_stack *stack, tern_nettype_t type,
                                               uint32_t demux_ctx, tern_pkt_t *pkt)
{
    return tern_netapi_dispatch(stack, type, demux_ctx, TERN_MSG_RCV, pkt);
}

/**
 * Post any message @p msg to @p to through its executor, tracing it.
 * @return 0; -ENOBUFS when @p to's queue is full (counted in to->queue_full;
 *         any packet in @p msg still belongs to the caller); -EINVAL.
 */
int tern_netapi_post(tern_module_t *to, tern_msg_t *msg);

/**
 * Record in the trace a message @p to is handling that did not come through
 * tern_netapi_post(): a device interrupt, posted from interrupt context or a
 * driver thread, where the trace (stack data) must not be touched. Call it
 * from @p to's handler. No-op when tracing is off.
 */
void tern_netapi_trace_hop(tern_module_t *to, const tern_msg_t *msg, int result);

#endif /* TERN_NETAPI_H */
