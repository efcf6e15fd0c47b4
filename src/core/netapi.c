/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief netapi (thesis 3.3.4): SND/RCV/GET/SET between modules, with tracing
 *        and counted drops.
 */
#include <errno.h>
#include <stddef.h>

#include "tern/netapi.h"
#include "tern/stack.h"
#include "trace_internal.h"

/* Trace helpers: the packet is summarised before it is handed over, because
 * afterwards it belongs to the receiver (on another thread, perhaps). */
#if TERN_CONF_TRACE
#define TRACE_DESCRIBE(entry, to, msg)                                                   \
    do {                                                                                 \
        if ((to)->stack->trace.enabled) {                                                \
            tern_trace_describe(&(entry), tern_executor_now((to)->exec), (msg)->sender,  \
                                (to), (msg));                                            \
        }                                                                                \
    } while (0)
static void trace_push(tern_module_t *to, const tern_trace_entry_t *entry, int result)
{
    tern_stack_t *stack = to->stack;
    if (stack->trace.enabled) {
        tern_lock_acquire(tern_stack_lock(stack));
        tern_trace_push(&stack->trace, entry, result);
        tern_lock_release(tern_stack_lock(stack));
    }
}
/* Describe and push in one step, in place in the ring (a hop whose result is known). */
__attribute__((always_inline)) static inline void trace_record(tern_module_t *to, const tern_msg_t *msg, int result)
{
    tern_stack_t *stack = to->stack;
    if (stack->trace.enabled) {
        uint64_t now = tern_executor_now(to->exec);
        tern_lock_acquire(tern_stack_lock(stack));
        tern_trace_record(&stack->trace, now, msg->sender, to, msg, result);
        tern_lock_release(tern_stack_lock(stack));
    }
}
/* trace_record() of a hand-off, inlined: the sender is known (never NULL)
 * and the result is 0, so the entry is written without a call and without
 * the checks tern_trace_record() makes for any caller. */
__attribute__((always_inline)) static inline void trace_hand_off(tern_module_t *to, tern_module_t *sender,
                                                                const tern_msg_t *msg)
{
    tern_stack_t *stack = to->stack;
    if (stack->trace.enabled) {
        uint64_t now = tern_executor_now(to->exec);
        tern_lock_acquire(tern_stack_lock(stack));
        tern_trace_describe_in_place(tern_trace_next_slot(&stack->trace), now, sender, to, msg, 0);
        tern_lock_release(tern_stack_lock(stack));
    }
}
#else
#define TRACE_DESCRIBE(entry, to, msg) ((void)(entry))
#define trace_hand_off(to, sender, msg) ((void)(to), (void)(sender), (void)(msg))
#define trace_push(to, entry, result) ((void)(to), (void)(entry), (void)(result))
#define trace_record(to, msg, result) ((void)(to), (void)(msg), (void)(result))
#endif

void tern_netapi_trace_hop(tern_module_t *to, const tern_msg_t *msg, int result)
{
#if TERN_CONF_TRACE
    if (to == NULL || to->stack == NULL || to->exec == NULL || msg == NULL) {
        return;
    }
    /* The result is known: described in place in the ring, no entry copied. */
    trace_record(to, msg, result);
#else
    (void)to;
    (void)msg;
    (void)result;
#endif
}

static bool attached(const tern_module_t *m)
{
    return m != NULL && m->exec != NULL && m->stack != NULL;
}

int tern_netapi_post(tern_module_t *to, tern_msg_t *msg)
{
    if (!attached(to) || msg == NULL) {
        return -EINVAL;
    }
    if (msg->sender == NULL) {
        msg->sender = to->exec->ops->current(to->exec);
    }
    tern_trace_entry_t entry;
    TRACE_DESCRIBE(entry, to, msg);
    int res = to->exec->ops->post(to->exec, to, msg);
    trace_push(to, &entry, res);
    return res;
}

/* Hand one reference of pkt (of @p stack) to @p to; on failure release it and
 * count. A packet going down (SND) is released with the error, so that its
 * sender's NETERR report learns of the drop: every packet sent down is
 * reported exactly once, by whoever releases it last. */
static int pass_packet(tern_stack_t *stack, tern_module_t *to, uint16_t type, tern_pkt_t *pkt)
{
    tern_msg_t msg = { .type = type, .sender = NULL, .content.pkt = pkt };
    tern_executor_t *ex = attached(to) ? to->exec : NULL;
    tern_module_t *sender = (ex != NULL && ex->ops->hand_off_begin != NULL) ? ex->ops->hand_off_begin(ex, to) : NULL;
    if (sender != NULL) {
        /* The executor would run @p to next anyway: run it now (see
         * tern_executor_ops_t::hand_off_begin). The hop is traced before the
         * handler runs, so the ring keeps the order in which hops happen. */
        msg.sender = sender;
        trace_hand_off(to, sender, &msg);
        (void)to->handle(to, &msg);
        ex->ops->hand_off_end(ex, to, sender);
        return 0;
    }
    int res = tern_netapi_post(to, &msg);
    if (res < 0) {
        unsigned counter = (res == -ENOBUFS) ? TERN_NETAPI_DROP_QUEUE_FULL
                                              : TERN_NETAPI_DROP_INVALID;
        tern_count(&stack->netapi_drops[counter]);
        if (type == TERN_MSG_SND) {
            tern_pktbuf_release_error(&stack->pktbuf, pkt, res);
        } else {
            tern_pktbuf_release(&stack->pktbuf, pkt);
        }
    }
    return res;
}

int tern_netapi_send(tern_module_t *to, tern_pkt_t *pkt)
{
    if (!attached(to) || pkt == NULL) {
        return -EINVAL;
    }
    return pass_packet(to->stack, to, TERN_MSG_SND, pkt);
}

int tern_netapi_receive(tern_module_t *to, tern_pkt_t *pkt)
{
    if (!attached(to) || pkt == NULL) {
        return -EINVAL;
    }
    return pass_packet(to->stack, to, TERN_MSG_RCV, pkt);
}

static int call_option(tern_module_t *to, uint16_t type, tern_netapi_opt_t *opt)
{
    if (!attached(to)) {
        return -EINVAL;
    }
    tern_msg_t msg = { .type = type, .sender = NULL, .content.opt = opt };
    msg.sender = to->exec->ops->current(to->exec);
    tern_trace_entry_t entry;
    TRACE_DESCRIBE(entry, to, &msg);
    int res = to->exec->ops->call(to->exec, to, &msg);
    trace_push(to, &entry, res);
#if TERN_CONF_TRACE
    /* The reply, as GNRC's ACK message: from the option's owner back to the caller. */
    if (to->stack->trace.enabled) {
        tern_msg_t ack = { .type = TERN_MSG_ACK, .sender = to, .content.value = 0 };
        tern_trace_describe(&entry, tern_executor_now(to->exec), to, msg.sender, &ack);
        trace_push(to, &entry, res);
    }
#endif
    return res;
}

int tern_netapi_get(tern_module_t *to, tern_netopt_t opt, uint16_t context, void *data,
                    size_t max_len)
{
    tern_netapi_opt_t o = { .opt = opt, .context = context, .data = data, .data_len = max_len };
    return call_option(to, TERN_MSG_GET, &o);
}

int tern_netapi_set(tern_module_t *to, tern_netopt_t opt, uint16_t context, const void *data,
                    size_t len)
{
    /* The option struct is shared by GET and SET; a SET handler only reads data. */
    tern_netapi_opt_t o = { .opt = opt, .context = context, .data = (void *)(uintptr_t)data,
                            .data_len = len };
    return call_option(to, TERN_MSG_SET, &o);
}

/* One reference of @p pkt to each of the @p n modules of @p to (arguments checked; @p n
 * as tern_netreg_collect() counts them: those beyond the array's
 * TERN_CONF_NETAPI_MAX_RECEIVERS are counted as too many and get nothing). Inlined:
 * dispatch runs on every hop of a received frame and must not pay a call more. */
__attribute__((always_inline)) static inline int deliver(tern_stack_t *stack, tern_module_t *const *to, unsigned n,
                                                        uint16_t msg_type, tern_pkt_t *pkt)
{
    if (n > TERN_CONF_NETAPI_MAX_RECEIVERS) {
        for (unsigned i = TERN_CONF_NETAPI_MAX_RECEIVERS; i < n; i++) {
            tern_count(&stack->netapi_drops[TERN_NETAPI_DROP_TOO_MANY]);
        }
        n = TERN_CONF_NETAPI_MAX_RECEIVERS;
    }
    if (n == 0) {
        tern_count(&stack->netapi_drops[TERN_NETAPI_DROP_NO_RECEIVER]);
        tern_pktbuf_release(&stack->pktbuf, pkt);
        return 0;
    }
    /* One reference per receiver: the caller's, plus n - 1 more (thesis 3.4.1). */
    if (n > 1 && tern_pktbuf_hold(&stack->pktbuf, pkt, n - 1) < 0) {
        tern_count(&stack->netapi_drops[TERN_NETAPI_DROP_TOO_MANY]);
        tern_pktbuf_release(&stack->pktbuf, pkt);
        return -EOVERFLOW;
    }
    int delivered = 0;
    for (unsigned i = 0; i < n; i++) {
        if (pass_packet(stack, to[i], msg_type, pkt) == 0) {
            delivered++;
        }
    }
    return delivered;
}

/* tern_netapi_dispatch() to the receivers tern_netreg_collect() finds (kept
 * apart: its array and the registers it saves are not the usual hop's). */
__attribute__((noinline)) static int dispatch_collected(tern_stack_t *stack, tern_nettype_t type, uint32_t demux_ctx,
                                                        uint16_t msg_type, tern_pkt_t *pkt)
{
    tern_module_t *receivers[TERN_CONF_NETAPI_MAX_RECEIVERS];
    unsigned n = tern_netreg_collect(&stack->netreg, type, demux_ctx, receivers,
                                     TERN_CONF_NETAPI_MAX_RECEIVERS);
    return tern_netapi_deliver(stack, receivers, n, msg_type, pkt);
}

int tern_netapi_dispatch(tern_stack_t *stack, tern_nettype_t type, uint32_t demux_ctx,
                         uint16_t msg_type, tern_pkt_t *pkt)
{
    if (stack == NULL || pkt == NULL) {
        return -EINVAL;
    }
    if ((unsigned)type >= TERN_NETTYPE_NUMOF ||
        (msg_type != TERN_MSG_SND && msg_type != TERN_MSG_RCV)) {
        tern_count(&stack->netapi_drops[TERN_NETAPI_DROP_INVALID]);
        tern_pktbuf_release(&stack->pktbuf, pkt);
        return -EINVAL;
    }
    /* The usual hop: one module registered for the type, nothing to hold. */
    tern_module_t *sole = tern_netreg_sole(&stack->netreg, type, demux_ctx);
    if (sole != NULL) {
        return (pass_packet(stack, sole, msg_type, pkt) == 0) ? 1 : 0;
    }
    return dispatch_collected(stack, type, demux_ctx, msg_type, pkt);
}

int tern_netapi_deliver(tern_stack_t *stack, tern_module_t *const *to, unsigned n, uint16_t msg_type,
                        tern_pkt_t *pkt)
{
    if (stack == NULL || pkt == NULL) {
        return -EINVAL;
    }
    if ((to == NULL && n != 0) || (msg_type != TERN_MSG_SND && msg_type != TERN_MSG_RCV)) {
        tern_count(&stack->netapi_drops[TERN_NETAPI_DROP_INVALID]);
        tern_pktbuf_release(&stack->pktbuf, pkt);
        return -EINVAL;
    }
    return deliver(stack, to, n, msg_type, pkt);
}
