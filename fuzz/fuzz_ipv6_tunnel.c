/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz IPv6-in-IPv6 (RFC 2473, src/ipv6/tunnel.c) in the IPv6
 *        module: any bytes as a packet received by a router with a source
 *        route provider, so that the tunnel exit (next header 41 for us,
 *        nesting, malformed inner headers) and the tunnel entry (forwarded
 *        packets to a source-routed destination: encapsulation, tunnel MTU)
 *        both run.
 *
 * The node of fuzz_node.h, made a router with 2001:db8::1/64; the stub
 * provider routes 2001:db8::c via 2001:db8::a and ::b (three hops) and
 * 2001:db8::d directly. It must never crash, and afterwards its packet
 * buffer must be consistent and, once the neighbor cache lets go of what it
 * queued, empty.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_node.h"
#include "tern/ipv6/ipv6.h"
#include "tern/ipv6/srh.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"

static uint8_t frame[2048];

static tern_ipv6_addr_t addr(uint8_t last)
{
    tern_ipv6_addr_t a = { { 0x20, 0x01, 0x0d, 0xb8 } };
    a.u8[15] = last;
    return a;
}

static int provider(void *ctx, const tern_ipv6_addr_t *dst, tern_ipv6_source_route_t *route)
{
    const tern_netif_t *netif = ctx;
    tern_ipv6_addr_t c = addr(0x0c);
    tern_ipv6_addr_t d = addr(0x0d);
    route->if_index = netif->index;
    if (tern_ipv6_addr_equal(dst, &c)) {
        route->hops[0] = addr(0x0a);
        route->hops[1] = addr(0x0b);
        route->hops[2] = c;
        route->count = 3;
        return 1;
    }
    if (tern_ipv6_addr_equal(dst, &d)) {
        route->hops[0] = d;
        route->count = 1;
        return 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzz_node_t n;
    if (size == 0 || size > sizeof(frame)) {
        return 0;
    }
    fuzz_node_start(&n);
    fuzz_require(tern_ipv6_set_router(&n.ip, true) == 0);
    tern_ipv6_addr_config_t cfg = { .addr = addr(1), .prefix_len = 64 };
    fuzz_require(tern_netapi_set(&n.ip.module, TERN_NETOPT_IPV6_ADDR_ADD, n.netif.index, &cfg, sizeof(cfg)) ==
                 (int)sizeof(cfg));
    tern_ipv6_source_router_t sr = { .fn = provider, .ctx = &n.netif };
    fuzz_require(tern_netapi_set(&n.ip.module, TERN_NETOPT_IPV6_SOURCE_ROUTER, 0, &sr, sizeof(sr)) ==
                 (int)sizeof(sr));
    /* DAD of the global address. */
    fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 3000000u) == 0);

    memcpy(frame, data, size);
    fuzz_require(tern_netdev_test_inject(&n.dev, frame, size) == 0);
    /* Past every timer a packet can start: reassembly gives up after 60 s. */
    fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 70000000u) == 0);
    fuzz_node_finish(&n);
    return 0;
}
