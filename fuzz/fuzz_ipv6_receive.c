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

#include "fuzz_node.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"

static uint8_t frame[2048];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzz_node_t n;
    if (size == 0 || size > sizeof(frame)) {
        return 0;
    }
    fuzz_node_start(&n);

    memcpy(frame, data, size);
    fuzz_require(tern_netdev_test_inject(&n.dev, frame, size) == 0);
    /* Past every timer a packet can start: reassembly gives up after 60 s. */
    fuzz_require(tern_executor_run_until(&n.loop.base, n.clock.now + 70000000u) == 0);
    fuzz_node_finish(&n);
    return 0;
}
