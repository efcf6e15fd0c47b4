/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Stress: many modules passing packets at once, small queues, a small
 *        packet buffer; no leak, no deadlock, every reference accounted for.
 *
 * Producers (modules that re-post to themselves) make packets and dispatch
 * each to two relay chains, so every packet starts shared and the relays'
 * start_write copies the head (copy-on-write under concurrency). Relays add a
 * header snip and pass the packet on; the last relay of each chain dispatches
 * to two sinks. Meanwhile the test thread reads options with GET from every
 * relay. Under the threaded executor each module is a thread.
 *
 * Conservation law checked at the end: every reference handed to netapi was
 * either handled by its receiver or counted as a drop; pktbuf is empty.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "tern/netapi.h"
#include "tern/netdev.h"
#include "tern/stack.h"

#define PRODUCERS 3
#define CHAINS 2
#define CHAIN_LEN 3
#define SINKS 2
#define PACKETS_PER_PRODUCER 3000

#define MSG_PRODUCE (TERN_MSG_USER + 7)

typedef struct {
    tern_module_t module;
    tern_msg_t queue[4];
    tern_netreg_entry_t entry;
    tern_module_t *next;      /* relay: next hop, or NULL to dispatch to sinks */
    uint32_t made;            /* producer: packets made */
    uint32_t nomem;           /* producer/relay: allocations refused */
    uint32_t handed;          /* references handed to netapi (posts attempted) */
    uint32_t handled;         /* packets received */
    uint32_t cow_copies;      /* relay: start_write returned a copy */
} node_t;

static tern_stack_t stack;
static node_t producers[PRODUCERS];
static node_t relays[CHAINS][CHAIN_LEN];
static node_t sinks[SINKS];

static void add(uint32_t *c, uint32_t n)
{
    __atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static int producer_handle(tern_module_t *self, tern_msg_t *msg)
{
    node_t *n = self->context;
    if (msg->type != MSG_PRODUCE) {
        return -ENOTSUP;
    }
    uint8_t data[64];
    memset(data, (int)(n->made & 0xFF), sizeof(data));
    size_t len = 1 + (n->made * 7u) % sizeof(data);
    tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, data, len, TERN_NETTYPE_UNDEF);
    n->made++;
    if (pkt == NULL) {
        add(&n->nomem, 1);
    } else {
        /* Every chain head is registered for (TEST, 1): the packet is shared. */
        add(&n->handed, CHAINS);
        int delivered = tern_netapi_dispatch_send(&stack, TERN_NETTYPE_TEST, 1, pkt);
#if HARNESS_THREADED
        /* Back off when the chains are full, so that most packets travel the
         * whole way instead of the test only measuring drops. */
        for (int k = 0; delivered < CHAINS && k < 20; k++) {
            sched_yield();
        }
#else
        (void)delivered;
#endif
    }
    if (n->made < PACKETS_PER_PRODUCER) {
        tern_msg_t again = { .type = MSG_PRODUCE };
        /* Our own queue has room: we just took this message out of it. */
        assert_int_equal(tern_netapi_post(self, &again), 0);
    }
    return 0;
}

static int relay_handle(tern_module_t *self, tern_msg_t *msg)
{
    node_t *n = self->context;
    if (msg->type == TERN_MSG_GET) {
        return tern_netopt_put_u16(msg->content.opt->data, msg->content.opt->data_len,
                                   (uint16_t)n->handled);
    }
    if (msg->type != TERN_MSG_SND) {
        return -ENOTSUP;
    }
    add(&n->handled, 1);
    tern_pkt_t *pkt = msg->content.pkt;
    tern_pkt_t *own = tern_pktbuf_start_write(&stack.pktbuf, pkt);
    if (own == NULL) {
        add(&n->nomem, 1);
        tern_pktbuf_release(&stack.pktbuf, pkt);
        return 0;
    }
    if (own != pkt) {
        add(&n->cow_copies, 1);
    }
    /* Write into our private head, then put a header in front. */
    ((uint8_t *)own->data)[0] ^= 0x5A;
    tern_pkt_t *hdr = tern_pktbuf_add(&stack.pktbuf, own, NULL, 8, TERN_NETTYPE_TEST);
    if (hdr == NULL) {
        add(&n->nomem, 1);
        tern_pktbuf_release(&stack.pktbuf, own);
        return 0;
    }
    if (n->next != NULL) {
        add(&n->handed, 1);
        (void)tern_netapi_send(n->next, hdr);
    } else {
        add(&n->handed, SINKS);
        (void)tern_netapi_dispatch_receive(&stack, TERN_NETTYPE_TEST, 2, hdr);
    }
    return 0;
}

static int sink_handle(tern_module_t *self, tern_msg_t *msg)
{
    node_t *n = self->context;
    if (msg->type == TERN_MSG_RCV) {
        add(&n->handled, 1);
        tern_pktbuf_release(&stack.pktbuf, msg->content.pkt);
    }
    return 0;
}

static void add_node(node_t *n, const char *name, uint8_t prio, tern_module_handler_t fn)
{
    memset(n, 0, sizeof(*n));
    assert_int_equal(tern_module_init(&n->module, name, prio, fn, n, n->queue, 4), 0);
    assert_int_equal(tern_stack_add_module(&stack, &n->module), 0);
}

static void test_stress__concurrent_modules_account_for_every_packet(void **state)
{
    (void)state;
    assert_int_equal(tern_stack_init(&stack, "stress", harness_exec_start()), 0);
    /* A small packet buffer, so that exhaustion happens too. */
    assert_int_equal(tern_pktbuf_init(&stack.pktbuf, stack.pktbuf_arena, 2048, tern_stack_lock(&stack)), 0);

    for (int s = 0; s < SINKS; s++) {
        add_node(&sinks[s], "sink", 7, sink_handle);
        tern_netreg_entry_init(&sinks[s].entry, 2, &sinks[s].module);
        assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_TEST, &sinks[s].entry), 0);
    }
    for (int c = 0; c < CHAINS; c++) {
        for (int i = CHAIN_LEN - 1; i >= 0; i--) {
            add_node(&relays[c][i], "relay", (uint8_t)(4 + i % 2), relay_handle);
            relays[c][i].next = (i + 1 < CHAIN_LEN) ? &relays[c][i + 1].module : NULL;
        }
        tern_netreg_entry_init(&relays[c][0].entry, 1, &relays[c][0].module);
        assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_TEST, &relays[c][0].entry), 0);
    }
    for (int p = 0; p < PRODUCERS; p++) {
        add_node(&producers[p], "producer", 6, producer_handle);
    }
    for (int p = 0; p < PRODUCERS; p++) {
        tern_msg_t go = { .type = MSG_PRODUCE };
        assert_int_equal(tern_netapi_post(&producers[p].module, &go), 0);
    }
#if HARNESS_THREADED
    /* Synchronous calls from outside while everything runs. */
    for (int round = 0; round < 200; round++) {
        for (int c = 0; c < CHAINS; c++) {
            uint16_t v;
            int res = tern_netapi_get(&relays[c][round % CHAIN_LEN].module, TERN_NETOPT_STATS, 0, &v,
                                      sizeof(v));
            assert_true(res == 2 || res == -ENOBUFS);
        }
    }
#endif
    harness_run_until_idle();

    uint32_t handed = 0, handled = 0, made = 0, nomem = 0, copies = 0;
    for (int p = 0; p < PRODUCERS; p++) {
        handed += producers[p].handed;
        made += producers[p].made;
        nomem += producers[p].nomem;
    }
    for (int c = 0; c < CHAINS; c++) {
        for (int i = 0; i < CHAIN_LEN; i++) {
            handed += relays[c][i].handed;
            handled += relays[c][i].handled;
            copies += relays[c][i].cow_copies;
        }
    }
    for (int s = 0; s < SINKS; s++) {
        handled += sinks[s].handled;
    }
    uint32_t dropped = stack.netapi_drops[TERN_NETAPI_DROP_QUEUE_FULL];
    printf("# %s: made %u (nomem %u), handed %u, handled %u, queue-full drops %u, "
           "copy-on-write %u, pktbuf high-water %zu B\n",
           harness_executor_name(), made, nomem, handed, handled, dropped, copies,
           tern_pktbuf_stats(&stack.pktbuf).high_water);
    assert_int_equal(made, PRODUCERS * PACKETS_PER_PRODUCER);
    assert_int_equal(handed, handled + dropped);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_NO_RECEIVER], 0);
    assert_true(handled > 0);
    assert_true(copies > 0);

    harness_exec_stop();
    harness_assert_pktbuf_clean(&stack.pktbuf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress__concurrent_modules_account_for_every_packet),
    };
    cmocka_set_message_output(CM_OUTPUT_STDOUT);
    return cmocka_run_group_tests_name(harness_executor_name(), tests, NULL, NULL);
}
