/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz IPv6 reassembly (RFC 8200 §4.5): the input, cut in slices,
 *        arrives as fragments of a few datagrams from one peer.
 *
 * Input: records of [flags, offset high, offset low, length/8, data...]:
 * flags bit 0 is M, bits 1-2 pick one of four Identifications, bits 3-5 add
 * 0-7 bytes to the length (lengths that are not multiples of 8), bit 6
 * advances the clock by 20 s before the fragment (timeouts between
 * fragments), bit 7 sends the data as an upper-layer header chain start
 * (next header UDP instead of ICMPv6). The data is taken from the input
 * (zeros when it runs out). The node must never crash; after the
 * reassembly timeout has passed, its packet buffer must be consistent and
 * empty (once the neighbor cache lets go of what it queued).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_node.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/wire/ipv6.h"

#define MTU 1280u

static uint8_t frame[MTU];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzz_node_t n;
    static const tern_ipv6_addr_t peer = { { 0xfe, 0x80, [15] = 1 } };
    static const tern_ipv6_addr_t node = { { 0xfe, 0x80, [8] = 0x00, 0x00, 0x5e, 0xff, 0xfe, 0x00, 0x53, 0x01 } };
    if (size == 0 || size > 16384) {
        return 0;
    }
    fuzz_node_start(&n);

    size_t pos = 0;
    while (pos + 4u <= size) {
        uint8_t flags = data[pos];
        uint16_t offset = (uint16_t)(((data[pos + 1] << 8) | data[pos + 2]) & TERN_IPV6_FRAG_OFFSET_MAX);
        size_t len = (size_t)data[pos + 3] * 8u + ((flags >> 3) & 7u);
        pos += 4u;
        if (len > MTU - TERN_IPV6_HDR_LEN - TERN_IPV6_FRAG_HDR_LEN) {
            len = MTU - TERN_IPV6_HDR_LEN - TERN_IPV6_FRAG_HDR_LEN;
        }
        tern_ipv6_repr_t h = { .payload_len = (uint16_t)(TERN_IPV6_FRAG_HDR_LEN + len),
                               .next_header = TERN_IPV6_NH_FRAGMENT, .hop_limit = 64, .src = peer, .dst = node };
        fuzz_require(tern_ipv6_emit(&h, frame, TERN_IPV6_HDR_LEN) == TERN_IPV6_HDR_LEN);
        tern_ipv6_frag_repr_t f = { .next_header = (flags & 0x80u) ? TERN_IPV6_NH_UDP : TERN_IPV6_NH_ICMPV6,
                                    .offset = offset, .more = (flags & 1u) != 0,
                                    .identification = 0x1000u + ((flags >> 1) & 3u) };
        fuzz_require(tern_ipv6_frag_emit(&f, frame + TERN_IPV6_HDR_LEN, TERN_IPV6_FRAG_HDR_LEN) ==
                TERN_IPV6_FRAG_HDR_LEN);
        uint8_t *body = frame + TERN_IPV6_HDR_LEN + TERN_IPV6_FRAG_HDR_LEN;
        size_t take = (size - pos < len) ? size - pos : len;
        memcpy(body, data + pos, take);
        memset(body + take, 0, len - take);
        pos += take;
        if (flags & 0x40u) {
            fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 20000000u) == 0);
        }
        fuzz_require(tern_netdev_test_inject(&n.dev, frame, TERN_IPV6_HDR_LEN + TERN_IPV6_FRAG_HDR_LEN + len) == 0);
        fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 1000u) == 0);
        fuzz_require(tern_pktbuf_check(&n.stack.pktbuf) == 0);
    }
    /* Past the reassembly timeout every datagram is gone. */
    fuzz_require(tern_executor_run_until(&n.loop.base,
                                    n.clock.now + (TERN_CONF_IPV6_REASS_TIMEOUT_S + 1u) * 1000000u) == 0);
    for (size_t i = 0; i < TERN_CONF_IPV6_REASS_SLOTS; i++) {
        fuzz_require(!n.ip.frag.slots[i].used);
    }
    fuzz_node_finish(&n);
    return 0;
}
