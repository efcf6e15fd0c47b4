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
 * The node of fuzz_node.h, made a router with 2001:db8::1/64, and a second
 * test interface "rpl0" (2001:db8:2::1/64). The input's last byte picks
 * the setting (modulo 3):
 * 0. the stub provider routes 2001:db8::c via 2001:db8::a and ::b (three
 *    hops) and 2001:db8::d directly, on test0; the packet arrives on test0;
 * 1. the same routes on rpl0, the node a non-storing RPL root on rpl0
 *    (rpi.c checks the RPL Option of what it tunnels); it arrives on rpl0;
 * 2. a storing RPL root on rpl0 with a DAO route (/128) to 2001:db8::c via
 *    fe80::a: a packet arriving on test0 for it is tunnelled with an RPI
 *    (RFC 9008 §7.2.2).
 * It must never crash, and afterwards its packet buffer must be consistent
 * and, once the neighbor caches let go of what they queued, empty.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_node.h"
#include "tern/ipv6/fib.h"
#include "tern/ipv6/ipv6.h"
#include "tern/ipv6/rpi.h"
#include "tern/ipv6/srh.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/wire/rpl_hbh.h"

static uint8_t frame[2048];
static tern_netdev_test_t rpl_dev;
static tern_netif_t rpl_netif;

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
    unsigned mode = data[size - 1u] % 3u;
    fuzz_node_start(&n);
    static const uint8_t mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x02 };
    memset(&rpl_netif, 0, sizeof(rpl_netif));
    tern_netdev_test_init(&rpl_dev);
    memcpy(rpl_dev.addr, mac, sizeof(mac));
    rpl_dev.addr_len = sizeof(mac);
    rpl_dev.mtu = 1280;
    rpl_dev.send_cb = fuzz_discard;
    fuzz_require(tern_netif_add(&n.stack, &rpl_netif, "rpl0", &rpl_dev.netdev, &tern_netif_link_raw,
                                TERN_NETTYPE_IPV6) == 0);
    fuzz_require(tern_ipv6_netif_enable(&n.ip, &rpl_netif) == 0);
    fuzz_require(tern_ipv6_set_router(&n.ip, true) == 0);
    fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 1u) == 0); /* rpl0 enabled */
    tern_ipv6_addr_config_t cfg = { .addr = addr(1), .prefix_len = 64 };
    fuzz_require(tern_netapi_set(&n.ip.module, TERN_NETOPT_IPV6_ADDR_ADD, n.netif.index, &cfg, sizeof(cfg)) ==
                 (int)sizeof(cfg));
    cfg.addr.u8[5] = 2; /* 2001:db8:2::1 */
    fuzz_require(tern_netapi_set(&n.ip.module, TERN_NETOPT_IPV6_ADDR_ADD, rpl_netif.index, &cfg, sizeof(cfg)) ==
                 (int)sizeof(cfg));
    if (mode != 2u) {
        tern_ipv6_source_router_t sr = { .fn = provider, .ctx = (mode == 0u) ? &n.netif : &rpl_netif };
        fuzz_require(tern_netapi_set(&n.ip.module, TERN_NETOPT_IPV6_SOURCE_ROUTER, 0, &sr, sizeof(sr)) ==
                     (int)sizeof(sr));
    } else {
        tern_ipv6_route_config_t r = { .prefix = addr(0x0c), .prefix_len = 128, .origin = TERN_FIB_ROUTING,
                                       .lifetime_s = 300 };
        r.next_hop.u8[0] = 0xfe;
        r.next_hop.u8[1] = 0x80;
        r.next_hop.u8[15] = 0x0a;
        fuzz_require(tern_netapi_set(&n.ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, rpl_netif.index, &r, sizeof(r)) ==
                     (int)sizeof(r));
    }
    if (mode != 0u) {
        tern_ipv6_rpl_state_t st;
        memset(&st, 0, sizeof(st));
        st.if_index[0] = rpl_netif.index;
        st.rank = 256;
        st.min_hop_rank_increase = 256;
        st.instance_id = 1;
        st.option_type = TERN_RPL_HBH_OPT_TYPE;
        st.running = true;
        st.joined = true;
        st.root = true;
        st.storing = (mode == 2u);
        fuzz_require(tern_netapi_set(&n.ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st)) ==
                     (int)sizeof(st));
    }
    /* DAD of the global addresses. */
    fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 3000000u) == 0);

    memcpy(frame, data, size);
    fuzz_require(tern_netdev_test_inject((mode == 1u) ? &rpl_dev : &n.dev, frame, size) == 0);
    /* Past every timer a packet can start: reassembly gives up after 60 s. */
    fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 70000000u) == 0);
    /* What rpl0's neighbor cache queued (fuzz_node_finish() empties test0's). */
    for (size_t i = 1; i < TERN_CONF_IPV6_IFS; i++) {
        for (size_t k = 0; k < TERN_CONF_NC_SIZE && n.ip.ifs[i].netif != NULL; k++) {
            tern_nc_entry_t *e = &n.ip.ifs[i].nc.entries[k];
            for (size_t q = 0; q < e->queued; q++) {
                tern_pktbuf_release(&n.stack.pktbuf, e->queue[q]);
            }
            e->queued = 0;
        }
    }
    fuzz_node_finish(&n);
    return 0;
}
