/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The value of TERN_NETOPT_SIXLOWPAN_CONTEXT: one IPHC compression
 *        context (RFC 6282 §3.1.2) as 6LoWPAN Neighbor Discovery learns it
 *        from a 6LoWPAN Context Option (RFC 6775 §4.2).
 *
 * The IPv6 module sends it with netapi SET to the adaptation module of a
 * 6LoWPAN interface (tern_netif_t::adaptation), context = the interface
 * index, so the contexts reach the module that compresses without a call
 * between modules outside netapi (DESIGN.md principle 1) and on the
 * adaptation module's own turn under either executor.
 */
#ifndef TERN_SIXLOWPAN_CONTEXT_H
#define TERN_SIXLOWPAN_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"

/** One context, set (lifetime > 0) or removed (lifetime 0). */
typedef struct {
    tern_ipv6_addr_t prefix; /**< the prefix (bits beyond @ref prefix_len ignored) */
    uint32_t lifetime_s;     /**< seconds from now; 0 removes the context; UINT32_MAX never expires */
    uint8_t cid;             /**< context identifier, 0..15 */
    uint8_t prefix_len;      /**< bits, 0..128 */
    bool compress;           /**< the C flag: also use it to compress (RFC 6775 §4.2) */
} tern_sixlowpan_context_config_t;

#endif /* TERN_SIXLOWPAN_CONTEXT_H */
