/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief What the parts of the 6LoWPAN module share (sixlowpan.c: module,
 *        receive, contexts; frag.c: send and fragmentation).
 */
#ifndef TERN_SIXLOWPAN_INTERNAL_H
#define TERN_SIXLOWPAN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tern/sixlowpan/sixlowpan.h"

/** Message the module posts to itself: send the next fragment of a datagram. */
#define SIXLOWPAN_MSG_NEXT_FRAGMENT (TERN_MSG_USER + 0x61u)

/** Short address the broadcast goes to (IEEE 802.15.4 §7.2.1.1.6: 0xffff). */
#define SIXLOWPAN_BROADCAST_LEN 2u

/** Count event @p c of @p lowpan. */
static inline void sixlowpan_count(tern_sixlowpan_t *lowpan, tern_sixlowpan_stat_t c)
{
    tern_count(&lowpan->counters[c]);
}

/** The attached interface with index @p if_index, or NULL. */
tern_sixlowpan_if_t *sixlowpan_if_find(tern_sixlowpan_t *lowpan, uint16_t if_index);

/**
 * Fill @p link for a frame of interface @p lif with link addresses @p src,
 * @p dst (lengths other than 2 and 8 give "unknown"), after dropping the
 * contexts whose lifetime ended by @p now_us.
 */
void sixlowpan_iphc_link(tern_sixlowpan_if_t *lif, uint64_t now_us, const uint8_t *src, uint8_t src_len,
                         const uint8_t *dst, uint8_t dst_len, tern_iphc_link_t *link);

/** Handle a datagram to send (SND, [NETIF, IPV6, ...]): frag.c. */
void sixlowpan_send(tern_sixlowpan_t *lowpan, tern_pkt_t *pkt);

/** Send the next fragment of the next datagram in fragmentation (one per turn): frag.c. */
void sixlowpan_send_next_fragment(tern_sixlowpan_t *lowpan);

/** True while a datagram is being fragmented: frag.c. */
bool sixlowpan_fragmenting(const tern_sixlowpan_t *lowpan);

#endif /* TERN_SIXLOWPAN_INTERNAL_H */
