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

/* Trace helpers. A hop is recorded before its message is handed over: the
 * packet is summarised while it is still the sender's (afterwards it belongs
 * to the receiver, on another thread perhaps), and the ring keeps the order
 * in which hops happen. The entry is described in place in its ring slot
 * (tern_trace_describe_in_place(), inlined: no call, no entry copied). */
#if TERN_CONF_TRACE
/* Record the hop of a message of type @p type carrying @p pkt (or NULL) from
 * @p from to @p to (either may be NULL) with @p result, in the trace of
 * @p owner's stack at its executor's time.
 * @return the entry's number for trace_correct(); 0 when nothing was recorded. */
__attribute__((always_inline)) static inline uint64_t trace_record(tern_module_t *owner, const tern_module_t *from,
                                                                  const tern_module_t *to, uint16_t type,
                                                                  const tern_pkt_t *pkt, int8_t result)
{
    tern_stack_t *stack = owner->stack;
    uint64_t number = 0;
    if (stack->trace.enabled) {
        uint64_t now = tern_executor_now(owner->exec);
        tern_lock_acquire(tern_stack_lock(stack));
        tern_trace_describe_in_place(tern_trace_next_slot(&stack->trace), now, from, to, type, pkt, result);
        number = stack->trace.total;
        tern_lock_release(tern_stack_lock(stack));
    }
    return number;
}
/* The hop recorded as entry @p number (trace_record()) failed with @p result. */
static void trace_correct(tern_module_t *owner, uint64_t number, int result)
{
    tern_stack_t *stack = owner->stack;
    tern_lock_acquire(tern_stack_lock(stack));
    tern_trace_set_result(&stack->trace, number, result);
    tern_lock_release(tern_stack_lock(stack));
}
#else
#define trace_record(owner, from, to, type, pkt, result) \
    ((void)(owner), (void)(from), (void)(to), (void)(type), (void)(pkt), (void)(result), 0u)
#define trace_correct(owner, number, result) ((void)(owner), (void)(number), (void)(result))
#endif

void tern_netapi_trace_hop(tern_module_t *to, const tern_msg_t *msg, int result)
{
#if TERN_CONF_TRACE
    if (to == NULL || to->stack == NULL || to->exec == NULL || msg == NULL) {
        return;
    }
    (void)trace_record(to, msg->sender, to, msg->type, tern_trace_msg_pkt(msg), tern_trace_result(result));
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
    /* As queued; corrected if not. */
    uint64_t number = trace_record(to, msg->sender, to, msg->type, tern_trace_msg_pkt(msg), 0);
    int res = to->exec->ops->post(to->exec, to, msg);
    if (res < 0) {
        trace_correct(to, number, res);
    }
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
    /* Only the event loop hands off, and not with TERN_CONF_LOOP_HANDOFF_DEPTH 0
     * (tern_executor_ops_t::hand_off_begin): then the branch is left out. */
    tern_module_t *sender = (TERN_CONF_LOOP_HANDOFF_DEPTH > 0 && ex != NULL && ex->ops->hand_off_begin != NULL)
                                ? ex->ops->hand_off_begin(ex, to)
                                : NULL;
    if (sender != NULL) {
        /* The executor would run @p to next anyway: run it now (see
         * tern_executor_ops_t::hand_off_begin). */
        msg.sender = sender;
        (void)trace_record(to, sender, to, type, pkt, 0);
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
        /* The packet is gone: -EINVAL of tern_netapi_send()/_receive() means
         * "left to the caller", so an executor's -EINVAL (the module was
         * detached since the check above) is answered as -ENOTCONN. */
        if (res == -EINVAL) {
            res = -ENOTCONN;
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
    uint64_t number = trace_record(to, msg.sender, to, type, NULL, 0); /* corrected if it fails */
    int res = to->exec->ops->call(to->exec, to, &msg);
    if (res < 0) {
        trace_correct(to, number, res);
    }
#if TERN_CONF_TRACE
    /* The reply, as GNRC's ACK message: from the option's owner back to the caller. */
    tern_msg_t ack = { .type = TERN_MSG_ACK, .sender = to, .content.value = 0 };
    (void)trace_record(to, to, msg.sender, ack.type, NULL, tern_trace_result(res));
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
 * TERN_CONF_NETAPI_MAX_RECEIVERS are counted as too many and get nothing). Kept
 * apart: tern_netapi_deliver()'s usual one receiver saves no registers for it. */
__attribute__((noinline)) static int deliver(tern_stack_t *stack, tern_module_t *const *to, unsigned n,
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
    if (n == 1) {
        /* The usual one receiver (IPv6 to UDP, UDP to its socket): no
         * reference to add, no array to walk; what deliver() does for it. */
        return (pass_packet(stack, to[0], msg_type, pkt) == 0) ? 1 : 0;
    }
    return deliver(stack, to, n, msg_type, pkt);
}
