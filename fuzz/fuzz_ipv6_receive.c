/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the IPv6 module's receive path: any bytes as a received packet.
 *
 * A node with one interface (test device, 48-bit address, raw IPv6 link) and
 * a preferred link-local address gets each input as a frame. It must never
 * crash, and afterwards its packet buffer must be consistent and, once the
 * neighbor cache lets go of what it queued, empty.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/ipv6/ipv6.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"

typedef struct {
    tern_vclock_t clock;
    tern_loop_t loop;
    tern_stack_t stack;
    tern_ipv6_t ip;
    tern_netdev_test_t dev;
    tern_netif_t netif;
    uint8_t frame[2048];
} node_t;

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static int discard(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iol[i].len;
    }
    return (int)len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static node_t n;
    static const uint8_t mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 };
    if (size == 0 || size > sizeof(n.frame)) {
        return 0;
    }
    tern_vclock_init(&n.clock, 0);
    tern_loop_init(&n.loop, &n.clock.base);
    require(tern_stack_init(&n.stack, "fuzz", &n.loop.base) == 0);
    require(tern_ipv6_init(&n.ip, &n.stack) == 0);
    tern_netdev_test_init(&n.dev);
    memcpy(n.dev.addr, mac, sizeof(mac));
    n.dev.addr_len = sizeof(mac);
    n.dev.send_cb = discard;
    require(tern_netif_add(&n.stack, &n.netif, "test0", &n.dev.netdev, &tern_netif_link_raw,
                           TERN_NETTYPE_IPV6) == 0);
    require(tern_ipv6_netif_enable(&n.ip, &n.netif) == 0);
    /* DAD done: the link-local address fe80::5eff:fe00:5301 is preferred. */
    require(tern_executor_run_until(&n.loop.base, 3000000u) == 0);

    memcpy(n.frame, data, size);
    require(tern_netdev_test_inject(&n.dev, n.frame, size) == 0);
    /* Past every timer a packet can start: reassembly gives up after 60 s. */
    require(tern_executor_run_until(&n.loop.base, n.clock.now + 70000000u) == 0);
    tern_executor_stop(&n.loop.base);
    require(tern_pktbuf_check(&n.stack.pktbuf) == 0);
    for (size_t k = 0; k < TERN_CONF_NC_SIZE; k++) {
        tern_nc_entry_t *e = &n.ip.ifs[0].nc.entries[k];
        for (size_t q = 0; q < e->queued; q++) {
            tern_pktbuf_release(&n.stack.pktbuf, e->queue[q]);
        }
    }
    require(tern_pktbuf_is_empty(&n.stack.pktbuf));
    return 0;
}
