/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the RPL Packet Information in the IPv6 module (RFC 6553,
 *        RFC 6550 §11.2; src/ipv6/rpi.c): any bytes as a packet received by
 *        a router in a DODAG, so that the option checks (instance, rank,
 *        forwarding error, route removal) and updates, and the option on the
 *        node's own answers, all run.
 *
 * Input: byte 0 chooses the data-plane state (bit 0 root, bit 1 non-storing,
 * bit 2 not joined, bit 3 the parent is the default router fe80::1 or not),
 * the rest is the packet. The node of fuzz_node.h, made a router with
 * 2001:db8::1/64, a default route via fe80::1 and a DAO route
 * 2001:db8:2::/64 via fe80::2; rank 512, instance 1. It must never crash,
 * and afterwards its packet buffer must be consistent and, once the neighbor
 * cache lets go of what it queued, empty.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_node.h"
#include "tern/ipv6/ipv6.h"
#include "tern/ipv6/rpi.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/wire/rpl_hbh.h"

static uint8_t frame[2048];
static unsigned events;

static void on_event(void *ctx, tern_ipv6_rpi_event_t event, const tern_ipv6_addr_t *target)
{
    (void)ctx;
    fuzz_require(event == TERN_IPV6_RPI_EVENT_RANK_ERROR || target != NULL);
    events++;
}

static void route(fuzz_node_t *n, uint8_t first, uint8_t len, uint8_t via, uint8_t origin)
{
    tern_ipv6_route_config_t r = { .prefix = { { 0x20, 0x01, 0x0d, 0xb8, 0x00, first } },
                                   .next_hop = { { 0xfe, 0x80 } }, .prefix_len = len, .origin = origin,
                                   .lifetime_s = 600 };
    r.next_hop.u8[15] = via;
    if (len == 0) {
        memset(&r.prefix, 0, sizeof(r.prefix));
    }
    fuzz_require(tern_netapi_set(&n->ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, n->netif.index, &r, sizeof(r)) ==
                 (int)sizeof(r));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzz_node_t n;
    if (size < 2 || size - 1u > sizeof(frame)) {
        return 0;
    }
    uint8_t sel = data[0];
    fuzz_node_start(&n);
    fuzz_require(tern_ipv6_set_router(&n.ip, true) == 0);
    tern_ipv6_addr_config_t cfg = { .addr = { { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } }, .prefix_len = 64 };
    fuzz_require(tern_netapi_set(&n.ip.module, TERN_NETOPT_IPV6_ADDR_ADD, n.netif.index, &cfg, sizeof(cfg)) ==
                 (int)sizeof(cfg));
    route(&n, 0, 0, 1, TERN_FIB_ROUTING);
    route(&n, 2, 64, 2, TERN_FIB_ROUTING);
    tern_ipv6_rpl_state_t st;
    memset(&st, 0, sizeof(st));
    st.parent.u8[0] = 0xfe;
    st.parent.u8[1] = 0x80;
    st.parent.u8[15] = (sel & 8u) ? 1u : 3u;
    st.parent_if = n.netif.index;
    st.event = on_event;
    st.if_index[0] = n.netif.index;
    st.rank = (sel & 1u) ? 256u : 512u;
    st.min_hop_rank_increase = 256;
    st.instance_id = 1;
    st.option_type = TERN_RPL_HBH_OPT_TYPE;
    st.running = true;
    st.joined = (sel & 4u) == 0;
    st.root = (sel & 1u) != 0;
    st.storing = (sel & 2u) == 0;
    fuzz_require(tern_netapi_set(&n.ip.module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st)) == (int)sizeof(st));
    /* DAD of the global address. */
    fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 3000000u) == 0);

    memcpy(frame, data + 1, size - 1u);
    fuzz_require(tern_netdev_test_inject(&n.dev, frame, size - 1u) == 0);
    /* Past every timer a packet can start: reassembly gives up after 60 s. */
    fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 70000000u) == 0);
    fuzz_node_finish(&n);
    return 0;
}
