/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the UDP module's receive path and sock_udp delivery.
 *
 * A node with one interface (test device, raw IPv6 link), a preferred
 * link-local address, the UDP module and a socket bound to port 5683 gets
 * each input as the UDP datagram of a valid IPv6 packet from fe80::1 to the
 * node. The first input byte is a flag: bit 0 set computes a valid checksum
 * over the rest (so the fuzzer gets past the checksum half of the time),
 * bit 1 points the datagram at the bound port, bit 2 adds the input's last
 * byte count of trailing bytes after the UDP Length. The node must never
 * crash; afterwards its packet buffer must be consistent and empty.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/ipv6/ipv6.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/sock_udp.h"
#include "tern/udp.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/udp.h"

typedef struct {
    tern_vclock_t clock;
    tern_loop_t loop;
    tern_stack_t stack;
    tern_ipv6_t ip;
    tern_udp_t udp;
    tern_sock_udp_t sock;
    tern_netdev_test_t dev;
    tern_netif_t netif;
    uint8_t frame[1500];
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
    if (size < 1 || size - 1 > sizeof(n.frame) - TERN_IPV6_HDR_LEN - 255) {
        return 0;
    }
    uint8_t flags = data[0];
    const uint8_t *dgram = data + 1;
    size_t len = size - 1;
    memset(&n.sock, 0, sizeof(n.sock));
    tern_vclock_init(&n.clock, 0);
    tern_loop_init(&n.loop, &n.clock.base);
    require(tern_stack_init(&n.stack, "fuzz", &n.loop.base) == 0);
    require(tern_ipv6_init(&n.ip, &n.stack) == 0);
    require(tern_udp_init(&n.udp, &n.stack, &n.ip) == 0);
    tern_netdev_test_init(&n.dev);
    memcpy(n.dev.addr, mac, sizeof(mac));
    n.dev.addr_len = sizeof(mac);
    n.dev.send_cb = discard;
    require(tern_netif_add(&n.stack, &n.netif, "test0", &n.dev.netdev, &tern_netif_link_raw,
                           TERN_NETTYPE_IPV6) == 0);
    require(tern_ipv6_netif_enable(&n.ip, &n.netif) == 0);
    require(tern_executor_run_until(&n.loop.base, 3000000u) == 0);
    tern_sock_udp_ep_t local = { .netif = 0, .port = 5683 };
    memset(&local.addr, 0, sizeof(local.addr));
    require(tern_sock_udp_create(&n.sock, &n.stack, &n.ip, &n.udp, &local, NULL, 0) == 0);

    /* The IPv6 packet around the datagram. */
    uint8_t *udp = n.frame + TERN_IPV6_HDR_LEN;
    memcpy(udp, dgram, len);
    size_t extra = ((flags & 0x04u) != 0 && len > 0) ? dgram[len - 1] : 0u;
    memset(udp + len, 0xA5, extra);
    if ((flags & 0x02u) != 0 && len >= 4) {
        udp[2] = 0x16; /* 5683 */
        udp[3] = 0x33;
    }
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)(len + extra), .next_header = TERN_IPV6_NH_UDP,
                           .hop_limit = 64 };
    require(tern_ipv6_addr_from_str(&h.src, "fe80::1", 7) == 0);
    require(tern_ipv6_addr_from_str(&h.dst, "fe80::5eff:fe00:5301", 20) == 0);
    require(tern_ipv6_emit(&h, n.frame, TERN_IPV6_HDR_LEN) == TERN_IPV6_HDR_LEN);
    if ((flags & 0x01u) != 0 && len >= TERN_UDP_HDR_LEN) {
        /* A valid checksum over what the Length field claims (if it fits). */
        size_t ulen = ((size_t)udp[4] << 8) | udp[5];
        if (ulen >= TERN_UDP_HDR_LEN && ulen <= len) {
            udp[6] = 0;
            udp[7] = 0;
            const tern_checksum_span_t span = { .data = udp, .len = ulen };
            require(tern_udp_set_checksum(udp, len, tern_udp_checksum(&h.src, &h.dst, &span, 1)) == 0);
        }
    }
    require(tern_netdev_test_inject(&n.dev, n.frame, TERN_IPV6_HDR_LEN + len + extra) == 0);
    require(tern_executor_run_until(&n.loop.base, n.clock.now + 10000u) == 0);
    uint8_t buf[64];
    tern_sock_udp_ep_t from;
    while (tern_sock_udp_recv(&n.sock, buf, sizeof(buf), 0, &from) != -EAGAIN) {
    }
    tern_sock_udp_close(&n.sock);
    require(tern_executor_run_until(&n.loop.base, n.clock.now + 10000000u) == 0);
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
