/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief What the parts of the 6LoWPAN module share (sixlowpan.c: module,
 *        receive, contexts; frag.c: send and fragmentation).
 */
#ifndef TERN_SIXLOWPAN_INTERNAL_H
#define TERN_SIXLOWPAN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/netapi.h"
#include "tern/sixlowpan/sixlowpan.h"

/** Message the module posts to itself: send the next fragment of a datagram. */
#define SIXLOWPAN_MSG_NEXT_FRAGMENT (TERN_MSG_USER + 0x61u)

/**
 * States of a datagram in fragments (tern_sixlowpan_frag_t::state). The
 * next fragment goes only once the interface has reported the outcome of the
 * one before (its NETERR report: acknowledged, or given up after the MAC's
 * retries), so a datagram never floods the interface's queue, and one lost
 * fragment ends the datagram instead of spending air time on the rest.
 */
enum {
    SIXLOWPAN_FRAG_READY = 0,   /**< the next fragment may go */
    SIXLOWPAN_FRAG_IN_FLIGHT,   /**< a fragment is with the interface */
    SIXLOWPAN_FRAG_REPORTED,    /**< its outcome is in tern_sixlowpan_frag_t::outcome */
};

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

/**
 * Queue one "next fragment" message to the module, unless one is queued
 * already; from any thread (the fragment reports come from the interface's).
 * A full queue means the handler runs again soon, and it looks again then.
 */
static inline void sixlowpan_kick(tern_sixlowpan_t *lowpan)
{
    if (__atomic_exchange_n(&lowpan->frag_kick_pending, true, __ATOMIC_ACQ_REL)) {
        return;
    }
    tern_msg_t msg = { .type = SIXLOWPAN_MSG_NEXT_FRAGMENT, .sender = NULL, .content.value = 0 };
    if (tern_netapi_post(&lowpan->module, &msg) < 0) {
        __atomic_store_n(&lowpan->frag_kick_pending, false, __ATOMIC_RELEASE);
    }
}

/**
 * End of every turn of the module's handler (@p now: the turn of a "next
 * fragment" message, which first sends the next fragment): the datagrams in
 * fragments go on, at once while the executor would run the module's "next
 * fragment" message next anyway (tern_executor_ops_t::may_continue), else by
 * that message (also retried here when a full queue refused it): frag.c.
 */
void sixlowpan_continue(tern_sixlowpan_t *lowpan, bool now);

/** True when a datagram in fragments has something to do now (an outcome to take in, a fragment to send): frag.c. */
bool sixlowpan_fragmenting(const tern_sixlowpan_t *lowpan);

/** sixlowpan_continue() when there is something to go on with: the usual turn has not. */
static inline void sixlowpan_end_turn(tern_sixlowpan_t *lowpan, bool now)
{
    if (now || __atomic_load_n(&lowpan->frag_in_turn, __ATOMIC_RELAXED) || sixlowpan_fragmenting(lowpan)) {
        sixlowpan_continue(lowpan, now);
    }
}

#endif /* TERN_SIXLOWPAN_INTERNAL_H */
