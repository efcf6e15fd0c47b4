/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Shared by the harnesses that fuzz a whole node: one node with IPv6 on
 *        the test device (48-bit address, raw IPv6 link) under virtual time.
 *
 * Header-only: each harness is one translation unit.
 */
#ifndef FUZZ_NODE_H
#define FUZZ_NODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/ipv6/ipv6.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"

/** A node: its link-local address is fe80::5eff:fe00:5301 once DAD is done. */
typedef struct {
    tern_vclock_t clock;
    tern_loop_t loop;
    tern_stack_t stack;
    tern_ipv6_t ip;
    tern_netdev_test_t dev;
    tern_netif_t netif;
} fuzz_node_t;

/** Abort (libFuzzer keeps the input) unless @p cond holds. */
static void fuzz_require(int cond)
{
    if (!cond) {
        abort();
    }
}

/* What the node sends goes nowhere. */
static int fuzz_discard(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iol[i].len;
    }
    return (int)len;
}

/** Set up @p n afresh and run it until its link-local address is preferred. */
static void fuzz_node_start(fuzz_node_t *n)
{
    static const uint8_t mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 };
    tern_vclock_init(&n->clock, 0);
    tern_loop_init(&n->loop, &n->clock.base);
    fuzz_require(tern_stack_init(&n->stack, "fuzz", &n->loop.base) == 0);
    fuzz_require(tern_ipv6_init(&n->ip, &n->stack) == 0);
    tern_netdev_test_init(&n->dev);
    memcpy(n->dev.addr, mac, sizeof(mac));
    n->dev.addr_len = sizeof(mac);
    n->dev.send_cb = fuzz_discard;
    fuzz_require(tern_netif_add(&n->stack, &n->netif, "test0", &n->dev.netdev, &tern_netif_link_raw,
                                TERN_NETTYPE_IPV6) == 0);
    fuzz_require(tern_ipv6_netif_enable(&n->ip, &n->netif) == 0);
    /* DAD done: the link-local address fe80::5eff:fe00:5301 is preferred. */
    fuzz_require(tern_executor_run_until(&n->loop.base, 3000000u) == 0);
}

/**
 * Stop @p n; its packet buffer must be consistent and, once the neighbor
 * cache lets go of what it queued, empty.
 */
static void fuzz_node_finish(fuzz_node_t *n)
{
    tern_executor_stop(&n->loop.base);
    fuzz_require(tern_pktbuf_check(&n->stack.pktbuf) == 0);
    for (size_t k = 0; k < TERN_CONF_NC_SIZE; k++) {
        tern_nc_entry_t *e = &n->ip.ifs[0].nc.entries[k];
        for (size_t q = 0; q < e->queued; q++) {
            tern_pktbuf_release(&n->stack.pktbuf, e->queue[q]);
        }
    }
    fuzz_require(tern_pktbuf_is_empty(&n->stack.pktbuf));
}

#endif /* FUZZ_NODE_H */
