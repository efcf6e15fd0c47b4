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
 * byte count of trailing bytes after the UDP Length. Bit 3 sends the rest
 * as an ICMPv6 message instead (valid checksum; with bit 1 the quoted packet's
 * source is the node's address and its first upper-layer port 5683), the
 * path of errors about our datagrams to the socket (RFC 4443 §2.4 (e)).
 * The node must never crash; afterwards its packet buffer must be
 * consistent and empty.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_node.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/sock_udp.h"
#include "tern/udp.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/udp.h"

static uint8_t frame[1500];
static tern_udp_t udp_module;
static tern_sock_udp_t sock;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzz_node_t n;
    if (size < 1 || size - 1 > sizeof(frame) - TERN_IPV6_HDR_LEN - 255) {
        return 0;
    }
    uint8_t flags = data[0];
    const uint8_t *dgram = data + 1;
    size_t len = size - 1;
    memset(&sock, 0, sizeof(sock));
    fuzz_node_start(&n);
    fuzz_require(tern_udp_init(&udp_module, &n.stack, &n.ip) == 0);
    tern_sock_udp_ep_t local = { .netif = 0, .port = 5683 };
    memset(&local.addr, 0, sizeof(local.addr));
    fuzz_require(tern_sock_udp_create(&sock, &n.stack, &n.ip, &udp_module, &local, NULL, 0) == 0);

    /* The IPv6 packet around the datagram. */
    uint8_t *udp = frame + TERN_IPV6_HDR_LEN;
    memcpy(udp, dgram, len);
    size_t extra = ((flags & 0x04u) != 0 && len > 0) ? dgram[len - 1] : 0u;
    memset(udp + len, 0xA5, extra);
    bool icmp = (flags & 0x08u) != 0;
    if ((flags & 0x02u) != 0 && icmp && len >= 8 + TERN_IPV6_HDR_LEN + 2) {
        /* The quote: from our address, from the bound port (no extension headers). */
        tern_ipv6_addr_t own;
        fuzz_require(tern_ipv6_addr_from_str(&own, "fe80::5eff:fe00:5301", 20) == 0);
        memcpy(&udp[16], own.u8, 16);
        udp[8 + TERN_IPV6_HDR_LEN] = 0x16;
        udp[8 + TERN_IPV6_HDR_LEN + 1] = 0x33;
    } else if ((flags & 0x02u) != 0 && len >= 4) {
        udp[2] = 0x16; /* 5683 */
        udp[3] = 0x33;
    }
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)(len + extra),
                           .next_header = icmp ? TERN_ICMPV6_NEXT_HEADER : TERN_IPV6_NH_UDP, .hop_limit = 64 };
    fuzz_require(tern_ipv6_addr_from_str(&h.src, "fe80::1", 7) == 0);
    fuzz_require(tern_ipv6_addr_from_str(&h.dst, "fe80::5eff:fe00:5301", 20) == 0);
    fuzz_require(tern_ipv6_emit(&h, frame, TERN_IPV6_HDR_LEN) == TERN_IPV6_HDR_LEN);
    if (icmp && len >= 4) {
        fuzz_require(tern_icmpv6_checksum_fill(udp, len + extra, &h.src, &h.dst) == 0);
    } else if ((flags & 0x01u) != 0 && len >= TERN_UDP_HDR_LEN) {
        /* A valid checksum over what the Length field claims (if it fits). */
        size_t ulen = ((size_t)udp[4] << 8) | udp[5];
        if (ulen >= TERN_UDP_HDR_LEN && ulen <= len) {
            udp[6] = 0;
            udp[7] = 0;
            const tern_checksum_span_t span = { .data = udp, .len = ulen };
            fuzz_require(tern_udp_set_checksum(udp, len, tern_udp_checksum(&h.src, &h.dst, &span, 1)) == 0);
        }
    }
    fuzz_require(tern_netdev_test_inject(&n.dev, frame, TERN_IPV6_HDR_LEN + len + extra) == 0);
    fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 10000u) == 0);
    uint8_t buf[64];
    tern_sock_udp_ep_t from;
    while (tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, &from) != -EAGAIN) {
    }
    tern_sock_udp_close(&sock);
    fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 10000000u) == 0);
    fuzz_node_finish(&n);
    return 0;
}
