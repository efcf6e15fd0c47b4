/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <sched.h>
#include <string.h>
#include <cmocka.h>

#include "sink.h"
#include "tern/netapi.h"

static int sink_handle(tern_module_t *self, tern_msg_t *msg)
{
    sink_t *sink = self->context;
    switch (msg->type) {
    case TERN_MSG_SND:
    case TERN_MSG_RCV: {
        uint32_t *counter = (msg->type == TERN_MSG_SND) ? &sink->snd : &sink->rcv;
        if (sink->keep && sink->nkept < SINK_KEEP) {
            sink->kept[sink->nkept] = msg->content.pkt;
            __atomic_fetch_add(&sink->nkept, 1u, __ATOMIC_RELEASE);
        } else {
            tern_pktbuf_release(&self->stack->pktbuf, msg->content.pkt);
        }
        __atomic_fetch_add(counter, 1u, __ATOMIC_RELEASE);
        return 0;
    }
    case TERN_MSG_GET: {
        __atomic_fetch_add(&sink->get, 1u, __ATOMIC_RELEASE);
        tern_netapi_opt_t *opt = msg->content.opt;
        if (opt->opt != TERN_NETOPT_STATE) {
            return -ENOTSUP;
        }
        if (opt->data_len < 1) {
            return -EOVERFLOW;
        }
        *(uint8_t *)opt->data = SINK_GET_VALUE;
        return 1;
    }
    case TERN_MSG_SET:
        __atomic_fetch_add(&sink->set, 1u, __ATOMIC_RELEASE);
        return (int)msg->content.opt->data_len;
    case TERN_MSG_TIMER:
        sink->last_value = (uint32_t)msg->content.value;
        __atomic_fetch_add(&sink->timer, 1u, __ATOMIC_RELEASE);
        return 0;
    case SINK_MSG_STALL:
        __atomic_store_n(&sink->stalled, 1u, __ATOMIC_RELEASE);
        while (__atomic_load_n(&sink->gate_open, __ATOMIC_ACQUIRE) == 0) {
            sched_yield();
        }
        __atomic_store_n(&sink->stalled, 0u, __ATOMIC_RELEASE);
        return 0;
    default:
        sink->last_value = (uint32_t)msg->content.value;
        __atomic_fetch_add(&sink->other, 1u, __ATOMIC_RELEASE);
        return 0;
    }
}

void sink_add(tern_stack_t *stack, sink_t *sink, const char *name, uint8_t prio, unsigned qlen,
              bool keep)
{
    memset(sink, 0, sizeof(*sink));
    sink->keep = keep;
    assert_int_equal(tern_module_init(&sink->module, name, prio, sink_handle, sink, sink->queue, qlen), 0);
    assert_int_equal(tern_stack_add_module(stack, &sink->module), 0);
}

void sink_release_kept(tern_stack_t *stack, sink_t *sink)
{
    uint32_t n = __atomic_load_n(&sink->nkept, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < n; i++) {
        tern_pktbuf_release(&stack->pktbuf, sink->kept[i]);
        sink->kept[i] = NULL;
    }
    sink->nkept = 0;
}

void sink_stall(sink_t *sink)
{
    __atomic_store_n(&sink->gate_open, 0u, __ATOMIC_RELEASE);
    tern_msg_t msg = { .type = SINK_MSG_STALL };
    assert_int_equal(tern_netapi_post(&sink->module, &msg), 0);
    while (__atomic_load_n(&sink->stalled, __ATOMIC_ACQUIRE) == 0) {
        sched_yield();
    }
}

void sink_open_gate(sink_t *sink)
{
    __atomic_store_n(&sink->gate_open, 1u, __ATOMIC_RELEASE);
}
