/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The 6LoWPAN send path: IPHC/NHC compression and fragmentation, one
 *        fragment per turn of the module, or at once when nothing else waits
 *        (RFC 4944 §5.3, RFC 6282 §2).
 *
 * Read first: RFC 4944 §5.3 (FRAG1/FRAGN, datagram_size, datagram_offset in
 * units of 8 octets, datagram_tag); RFC 6282 §2 ("datagram_size and
 * datagram_offset values ... MUST be computed on the uncompressed IPv6
 * datagram"; a header that does not fit in the first fragment MUST NOT be
 * compressed); thesis 5.3.4 (a long send must not starve reception).
 *
 * Fragment layout, for a link payload of M bytes (payload_max):
 * - FRAG1: 4-byte header, the compressed headers (C bytes, standing for U
 *   uncompressed bytes), then datagram bytes from U up to the largest
 *   multiple of 8 of the uncompressed datagram that fits: the next fragment's
 *   offset must be a multiple of 8 in the UNCOMPRESSED datagram, so
 *   U + payload bytes is rounded down to 8, not C + payload bytes.
 * - FRAGN: 5-byte header, then floor((M - 5) / 8) * 8 datagram bytes; the
 *   last one what is left.
 * When the compressed headers and that alignment do not fit in the first
 * fragment, the datagram goes uncompressed (dispatch 0x41, RFC 4944 §5.1)
 * rather than with headers compressed outside the first fragment.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sixlowpan_internal.h"
#include "tern/netapi.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/sixlowpan.h"
#include "tern/wire/udp.h"

/** Largest datagram FRAG1/FRAGN can describe (11-bit datagram_size). */
#define DATAGRAM_MAX TERN_SIXLOWPAN_FRAG_SIZE_MAX
/** IPv6 fixed header (RFC 8200 §3). */
#define IPV6_HDR_LEN 40u

static const uint8_t broadcast_short[SIXLOWPAN_BROADCAST_LEN] = { 0xff, 0xff };

static void send_datagram(tern_sixlowpan_t *lowpan, tern_pkt_t *pkt);

/** Round @p n down to a multiple of 8 (a fragment unit). */
static size_t floor8(size_t n)
{
    return n & ~(size_t)(TERN_SIXLOWPAN_FRAG_UNIT - 1u);
}

/**
 * Copy bytes [@p offset, @p offset + @p len) of the packet @p pkt (snips in
 * order, NETERR snips skipped) to @p out.
 * @return 0; -EMSGSIZE when the packet is shorter.
 */
static int copy_range(const tern_pkt_t *pkt, size_t offset, uint8_t *out, size_t len)
{
    for (const tern_pkt_t *s = pkt; s != NULL && len > 0; s = s->next) {
        if (s->type == TERN_NETTYPE_NETERR) {
            continue;
        }
        if (offset >= s->size) {
            offset -= s->size;
            continue;
        }
        size_t take = (size_t)s->size - offset;
        if (take > len) {
            take = len;
        }
        memcpy(out, (const uint8_t *)s->data + offset, take);
        out += take;
        len -= take;
        offset = 0;
    }
    return (len == 0) ? 0 : -EMSGSIZE;
}

/**
 * The first @p len bytes of the datagram @p ip (its IPv6 snip first) to @p out,
 * as copy_range() copies them. The usual layout, a 40-byte IPv6 header snip
 * followed by one holding at least the UDP header, goes as two copies of
 * fixed sizes. @return 0; -EMSGSIZE when the datagram is shorter.
 */
static int copy_headers(const tern_pkt_t *ip, uint8_t *out, size_t len)
{
    const tern_pkt_t *next = ip->next;
    if (TERN_CONF_FAST_PATHS && len == IPV6_HDR_LEN + TERN_UDP_HDR_LEN && ip->size == IPV6_HDR_LEN && next != NULL &&
        next->type != TERN_NETTYPE_NETERR && next->size >= TERN_UDP_HDR_LEN) {
        memcpy(out, ip->data, IPV6_HDR_LEN);
        memcpy(out + IPV6_HDR_LEN, next->data, TERN_UDP_HDR_LEN);
        return 0;
    }
    return copy_range(ip, 0, out, len);
}

/**
 * The interface's report on a fragment (its NETERR snip): runs where the
 * frame is released, on the interface's turn (another thread under the
 * threaded executor), so it only records the outcome and wakes the module,
 * unless the module's handler runs (a device that reports from inside its
 * send(), the interface's turn nested in the module's): the handler looks
 * for outcomes before it returns (sixlowpan_continue()). A wake-up lost to a
 * full queue is made up by the messages that filled it (the handler looks
 * after every message).
 */
static void fragment_reported(void *ctx, int err)
{
    tern_sixlowpan_frag_t *slot = ctx;
    __atomic_store_n(&slot->outcome, err, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->state, (uint8_t)SIXLOWPAN_FRAG_REPORTED, __ATOMIC_RELEASE);
    /* Against sixlowpan_continue(): either it sees this state, or this sees its flag cleared. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&slot->owner->frag_in_turn, __ATOMIC_RELAXED)) {
        sixlowpan_kick(slot->owner);
    }
}

/**
 * A frame's payload snip of @p size bytes and, in the same allocation, the
 * snip for its interface header, a copy of @p hdr (*@p netif_snip, unlinked:
 * send_frame() links them). The payload's bytes are not initialised: the
 * caller writes every one of them before send_frame(), or releases the
 * snips unsent (tern_pktbuf_add_pair_to_fill()). @return the payload; NULL
 * when no memory was left.
 */
static tern_pkt_t *frame_alloc(tern_pktbuf_t *pb, const tern_netif_hdr_t *hdr, size_t size, tern_pkt_t **netif_snip)
{
    tern_pkt_t *head = tern_pktbuf_add_pair_to_fill(pb, sizeof(*hdr), TERN_NETTYPE_NETIF, size, TERN_NETTYPE_SIXLOWPAN);
    if (head == NULL) {
        return NULL;
    }
    memcpy(head->data, hdr, sizeof(*hdr));
    tern_pkt_t *payload = head->next;
    head->next = NULL;
    *netif_snip = head;
    return payload;
}

/**
 * Hand the frame, the interface header @p netif_snip (from frame_alloc(),
 * with @p payload) in front of @p payload, to the interface. With @p slot,
 * the frame carries the slot's NETERR report: one reference to the snip the
 * slot holds for all its fragments (one of those the FRAG1 took for every
 * frame, else a new one; release_error() calls the hook whoever else holds
 * the snip), which tells the slot the frame's outcome, exactly once, also
 * when the frame never reaches the interface (the slot is IN_FLIGHT from here).
 * @return 0; -ENOMEM (no pktbuf, @p payload released); -ENOBUFS (the
 *         interface's queue was full, the frame released). Counted.
 */
static int send_frame(tern_sixlowpan_t *lowpan, tern_sixlowpan_if_t *lif, tern_pkt_t *payload,
                      tern_sixlowpan_frag_t *slot, tern_pkt_t *netif_snip)
{
    tern_pktbuf_t *pb = &lowpan->module.stack->pktbuf;
    if (slot != NULL) {
        if (slot->report_refs > 0u) {
            slot->report_refs--;
        } else if (tern_pktbuf_hold(pb, slot->report, 1) < 0) {
            sixlowpan_count(lowpan, TERN_SIXLOWPAN_TX_NOMEM); /* 255 holders: cannot happen */
            tern_pktbuf_release(pb, payload);
            tern_pktbuf_release(pb, netif_snip);
            return -ENOMEM;
        }
        payload->next = slot->report;
        __atomic_store_n(&slot->state, (uint8_t)SIXLOWPAN_FRAG_IN_FLIGHT, __ATOMIC_RELAXED);
        /* Its outcome is looked for at the end of this turn (sixlowpan_continue()). */
        __atomic_store_n(&lowpan->frag_in_turn, true, __ATOMIC_RELAXED);
    }
    tern_pkt_t *frame = netif_snip;
    frame->next = payload;
    int res = tern_netapi_send(&lif->netif->module, frame);
    if (res < 0) {
        if (res == -EINVAL) {
            tern_pktbuf_release_error(pb, frame, res); /* not attached: still ours */
        }
        /* (Any other error: netapi released it with the error, the report has it.) */
        sixlowpan_count(lowpan, TERN_SIXLOWPAN_TX_LINK_REFUSED);
        return -ENOBUFS;
    }
    sixlowpan_count(lowpan, TERN_SIXLOWPAN_TX_FRAMES);
    return 0;
}

/** The largest link payload of one frame with @p hdr (contract: NULL payload_max means the MTU). */
static int link_payload_max(const tern_netif_t *netif, const tern_netif_hdr_t *hdr)
{
    if (netif->link->payload_max != NULL) {
        return netif->link->payload_max(netif, hdr);
    }
    return netif->mtu;
}

/** Drop @p pkt (a datagram to send): counted, released with @p err for its error report. */
static void drop(tern_sixlowpan_t *lowpan, tern_pkt_t *pkt, tern_sixlowpan_stat_t counter, int err)
{
    sixlowpan_count(lowpan, counter);
    tern_pktbuf_release_error(&lowpan->module.stack->pktbuf, pkt, err);
}

bool sixlowpan_fragmenting(const tern_sixlowpan_t *lowpan)
{
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_FRAG_SLOTS; i++) {
        const tern_sixlowpan_frag_t *slot = &lowpan->frags[i];
        if (slot->pkt != NULL && __atomic_load_n(&slot->state, __ATOMIC_ACQUIRE) != SIXLOWPAN_FRAG_IN_FLIGHT) {
            return true;
        }
    }
    return false;
}

static tern_sixlowpan_frag_t *free_slot(tern_sixlowpan_t *lowpan)
{
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_FRAG_SLOTS; i++) {
        if (lowpan->frags[i].pkt == NULL) {
            return &lowpan->frags[i];
        }
    }
    return NULL;
}

/**
 * The interface header every frame of the datagram carries: @p nh with the
 * source set to the interface's address when it names none, and a multicast
 * IPv6 destination or a missing link destination turned into the broadcast
 * address (short 0xffff; IEEE 802.15.4 has no link multicast).
 */
static void frame_header(const tern_netif_t *netif, const tern_netif_hdr_t *nh, bool ipv6_multicast,
                         tern_netif_hdr_t *out)
{
    *out = *nh;
    if (out->src_len != 2u && out->src_len != 8u && (netif->l2addr_len == 2u || netif->l2addr_len == 8u)) {
        memcpy(out->src, netif->l2addr, netif->l2addr_len);
        out->src_len = netif->l2addr_len;
    }
    bool broadcast = ipv6_multicast ||
                     (out->flags & (TERN_NETIF_HDR_FLAG_BROADCAST | TERN_NETIF_HDR_FLAG_MULTICAST)) != 0 ||
                     (out->dst_len != 2u && out->dst_len != 8u);
    if (broadcast) {
        out->flags = (uint8_t)((out->flags & ~TERN_NETIF_HDR_FLAG_MULTICAST) | TERN_NETIF_HDR_FLAG_BROADCAST);
        memcpy(out->dst, broadcast_short, SIXLOWPAN_BROADCAST_LEN);
        out->dst_len = SIXLOWPAN_BROADCAST_LEN;
    }
    out->flags = (uint8_t)(out->flags & ~TERN_NETIF_HDR_FLAG_MORE_DATA);
    out->if_index = netif->index;
}

/*
 * The datagram's headers compressed (RFC 6282): @ref len bytes standing for
 * the first @ref consumed bytes of the datagram. @ref bytes: where they are
 * (in the scratch after the headers), or NULL when they were only sized and
 * are compressed into the frame (put_compressed()).
 */
typedef struct {
    const tern_iphc_link_t *link; /* the compressor's view of the link */
    size_t hdrs_len;              /* bytes of the datagram in the scratch */
    const uint8_t *bytes;         /* the compressed headers, or NULL */
    size_t len;                   /* their length */
    size_t consumed;              /* datagram bytes they stand for */
} compressed_t;

/** Write the compressed headers of @p c to @p out (c->len bytes). @return 0; -EINVAL (cannot happen). */
static int put_compressed(tern_sixlowpan_t *lowpan, const compressed_t *c, uint8_t *out)
{
    if (TERN_CONF_FAST_PATHS && c->bytes != NULL) {
        memcpy(out, c->bytes, c->len);
        return 0;
    }
    size_t again = 0;
    int n = tern_iphc_compress(c->link, lowpan->scratch, c->hdrs_len, out, c->len, &again);
    return (n == (int)c->len && again == c->consumed) ? 0 : -EINVAL;
}

/** Send the datagram whole in one frame: the compressed headers @p c, then the rest. */
static void send_whole(tern_sixlowpan_t *lowpan, tern_sixlowpan_if_t *lif, const tern_netif_hdr_t *hdr,
                       const compressed_t *c, tern_pkt_t *pkt, size_t size)
{
    tern_pktbuf_t *pb = &lowpan->module.stack->pktbuf;
    size_t comp_len = c->len, consumed = c->consumed;
    tern_pkt_t *netif_snip = NULL;
    tern_pkt_t *payload = frame_alloc(pb, hdr, comp_len + (size - consumed), &netif_snip);
    if (payload == NULL) {
        drop(lowpan, pkt, TERN_SIXLOWPAN_TX_NOMEM, -ENOMEM);
        return;
    }
    uint8_t *out = payload->data;
    /* Neither can fail: the same input, sized before. */
    (void)put_compressed(lowpan, c, out);
    (void)copy_range(pkt->next, consumed, out + comp_len, size - consumed);
    int res = send_frame(lowpan, lif, payload, NULL, netif_snip);
    tern_pktbuf_release_error(pb, pkt, res);
}

/**
 * Free @p slot, its datagram released with @p err for its sender's report,
 * and start the oldest datagram waiting for a slot, if any.
 */
static void slot_free(tern_sixlowpan_t *lowpan, tern_sixlowpan_frag_t *slot, int err)
{
    /* Its own reference and those of the frames not sent (none reported: no frame). */
    for (unsigned i = 0; i <= slot->report_refs; i++) {
        tern_pktbuf_release(&lowpan->module.stack->pktbuf, slot->report);
    }
    tern_pktbuf_release_error(&lowpan->module.stack->pktbuf, slot->pkt, err);
    memset(slot, 0, sizeof(*slot));
    if (lowpan->frag_wait_count > 0u) {
        tern_pkt_t *next = lowpan->frag_wait[lowpan->frag_wait_head];
        lowpan->frag_wait_head = (uint8_t)((lowpan->frag_wait_head + 1u) % (TERN_CONF_SIXLOWPAN_FRAG_WAIT + 1u));
        lowpan->frag_wait_count--;
        send_datagram(lowpan, next);
    }
}

/** Give up the datagram of @p slot (counted), report @p err to its sender and free the slot. */
static void fragment_failed(tern_sixlowpan_t *lowpan, tern_sixlowpan_frag_t *slot, int err)
{
    sixlowpan_count(lowpan, TERN_SIXLOWPAN_TX_FRAG_ABORTED);
    slot_free(lowpan, slot, err);
}

/**
 * Start sending @p pkt in fragments: the FRAG1 now, the FRAGNs on later turns.
 * @p c as in send_whole(); @p room the link payload.
 */
static void send_first_fragment(tern_sixlowpan_t *lowpan, tern_sixlowpan_if_t *lif, const tern_netif_hdr_t *hdr,
                                const compressed_t *c, tern_pkt_t *pkt, size_t size, size_t room)
{
    tern_pktbuf_t *pb = &lowpan->module.stack->pktbuf;
    size_t comp_len = c->len, consumed = c->consumed;
    tern_sixlowpan_frag_t *slot = free_slot(lowpan);
    size_t per_fragment = (room > TERN_SIXLOWPAN_FRAGN_LEN) ? floor8(room - TERN_SIXLOWPAN_FRAGN_LEN) : 0u;
    if (per_fragment == 0) {
        drop(lowpan, pkt, TERN_SIXLOWPAN_TX_TOO_BIG, -EMSGSIZE); /* frames too small for 8 bytes of data */
        return;
    }
    if (slot == NULL) {
        if (lowpan->frag_wait_count >= TERN_CONF_SIXLOWPAN_FRAG_WAIT) {
            drop(lowpan, pkt, TERN_SIXLOWPAN_TX_BUSY, -ENOBUFS);
            return;
        }
        /* Every slot busy: wait, in order, for one (slot_free() starts it). */
        size_t tail = (lowpan->frag_wait_head + lowpan->frag_wait_count) % (TERN_CONF_SIXLOWPAN_FRAG_WAIT + 1u);
        lowpan->frag_wait[tail] = pkt;
        lowpan->frag_wait_count++;
        sixlowpan_count(lowpan, TERN_SIXLOWPAN_TX_WAITED);
        return;
    }
    /* The first fragment ends at a multiple of 8 of the uncompressed datagram
     * (the next offset counts uncompressed octets, RFC 6282 §2). */
    size_t after_hdr = room - TERN_SIXLOWPAN_FRAG1_LEN; /* room > FRAGN_LEN > FRAG1_LEN */
    bool compressed = comp_len <= after_hdr && floor8(consumed + (after_hdr - comp_len)) >= consumed;
    size_t head_len;  /* bytes of the FRAG1 payload before the datagram bytes */
    size_t data_from; /* uncompressed offset those datagram bytes start at */
    size_t data_end;  /* uncompressed offset the FRAG1 ends at */
    if (compressed) {
        head_len = comp_len;
        data_from = consumed;
        data_end = floor8(consumed + (after_hdr - comp_len));
    } else {
        /* RFC 6282 §2: headers that do not fit in the first fragment are not
         * compressed: the whole datagram goes as uncompressed IPv6. */
        head_len = TERN_SIXLOWPAN_IPV6_DISPATCH_LEN;
        data_from = 0;
        data_end = floor8(after_hdr - TERN_SIXLOWPAN_IPV6_DISPATCH_LEN);
        if (data_end == 0) {
            drop(lowpan, pkt, TERN_SIXLOWPAN_TX_TOO_BIG, -EMSGSIZE);
            return;
        }
    }
    if (data_end >= size) {
        /* Cannot happen: the datagram would have fitted one frame (IPHC never
         * takes more than the headers plus the 0x41 octet). */
        drop(lowpan, pkt, TERN_SIXLOWPAN_TX_INVALID, -EINVAL);
        return;
    }
    /* The outcome report every fragment carries (send_frame()). */
    const tern_neterr_report_t hook = { .report = fragment_reported, .ctx = slot };
    tern_pkt_t *report = tern_pktbuf_add(pb, NULL, &hook, sizeof(hook), TERN_NETTYPE_NETERR);
    tern_netif_hdr_t first = *hdr;
    first.flags |= TERN_NETIF_HDR_FLAG_MORE_DATA;
    tern_pkt_t *netif_snip = NULL;
    tern_pkt_t *payload =
        (report != NULL)
            ? frame_alloc(pb, &first, TERN_SIXLOWPAN_FRAG1_LEN + head_len + (data_end - data_from), &netif_snip)
            : NULL;
    if (payload == NULL) {
        tern_pktbuf_release(pb, report);
        drop(lowpan, pkt, TERN_SIXLOWPAN_TX_NOMEM, -ENOMEM);
        return;
    }
    uint8_t *out = payload->data;
    tern_sixlowpan_frag_repr_t frag = { .first = true, .datagram_size = (uint16_t)size,
                                        .datagram_tag = lif->next_tag, .datagram_offset = 0 };
    /* None of these can fail: the frame is sized for them (sizes checked above). */
    (void)tern_sixlowpan_frag_emit(&frag, out, TERN_SIXLOWPAN_FRAG1_LEN);
    if (compressed) {
        (void)put_compressed(lowpan, c, out + TERN_SIXLOWPAN_FRAG1_LEN);
    } else {
        (void)tern_sixlowpan_ipv6_dispatch_emit(out + TERN_SIXLOWPAN_FRAG1_LEN, TERN_SIXLOWPAN_IPV6_DISPATCH_LEN);
        sixlowpan_count(lowpan, TERN_SIXLOWPAN_TX_UNCOMPRESSED);
    }
    (void)copy_range(pkt->next, data_from, out + TERN_SIXLOWPAN_FRAG1_LEN + head_len, data_end - data_from);
    lif->next_tag++;
    sixlowpan_count(lowpan, TERN_SIXLOWPAN_TX_FRAGMENTED);
    slot->owner = lowpan;
    slot->pkt = pkt;
    slot->report = report;
    slot->lif = lif;
    slot->hdr = *hdr;
    slot->size = (uint16_t)size;
    slot->offset = (uint16_t)data_end;
    slot->tag = frag.datagram_tag;
    slot->per_fragment = (uint16_t)per_fragment;
    /* A reference for every frame at once (one pktbuf call, not one per
     * frame); beyond what a count holds, send_frame() takes them one by one. */
    size_t frames = 1u + (size - data_end + per_fragment - 1u) / per_fragment;
    if (frames < UINT8_MAX && tern_pktbuf_hold(pb, report, (unsigned)frames) == 0) {
        slot->report_refs = (uint8_t)frames;
    }
    /* (The datagram keeps its NETIF snip: freed after the FRAG1, it would
     * leave a hole in front of the arena that every later fragment's
     * allocation walks past; measured, that costs more than it saves.
     * The FRAG1 gets a header snip with its payload, as every FRAGN.) */
    if (send_frame(lowpan, lif, payload, slot, netif_snip) == -ENOMEM &&
        slot->state != SIXLOWPAN_FRAG_IN_FLIGHT) {
        fragment_failed(lowpan, slot, -ENOMEM); /* no report was attached: nothing will come */
    }
    /* Otherwise the FRAGNs follow once its outcome is in (sixlowpan_send_next_fragment). */
}

void sixlowpan_send(tern_sixlowpan_t *lowpan, tern_pkt_t *pkt)
{
    sixlowpan_count(lowpan, TERN_SIXLOWPAN_TX_DATAGRAMS);
    send_datagram(lowpan, pkt);
}

/** Compress @p pkt ([NETIF, IPV6, ...]) and send it whole, or start its fragments. */
static void send_datagram(tern_sixlowpan_t *lowpan, tern_pkt_t *pkt)
{
    const tern_netif_hdr_t *nh = (pkt->type == TERN_NETTYPE_NETIF && pkt->size >= sizeof(tern_netif_hdr_t))
                                     ? (const tern_netif_hdr_t *)pkt->data
                                     : NULL;
    tern_sixlowpan_if_t *lif = (nh != NULL) ? sixlowpan_if_find(lowpan, nh->if_index) : NULL;
    if (lif == NULL || pkt->next == NULL || pkt->next->type != TERN_NETTYPE_IPV6) {
        drop(lowpan, pkt, TERN_SIXLOWPAN_TX_INVALID, -EINVAL);
        return;
    }
    size_t size = tern_pkt_len(pkt->next);
    if (size > DATAGRAM_MAX) {
        drop(lowpan, pkt, TERN_SIXLOWPAN_TX_TOO_BIG, -EMSGSIZE); /* RFC 4944 §5.3: 11 bits */
        return;
    }
    /* The headers, contiguous, for the compressor (only headers entirely
     * within these bytes are compressed; the rest is sent as it is). */
    size_t hdrs_len = (size < IPV6_HDR_LEN + TERN_UDP_HDR_LEN) ? size : IPV6_HDR_LEN + TERN_UDP_HDR_LEN;
    if (size < IPV6_HDR_LEN || copy_headers(pkt->next, lowpan->scratch, hdrs_len) < 0 ||
        (lowpan->scratch[0] >> 4) != 6u) {
        drop(lowpan, pkt, TERN_SIXLOWPAN_TX_INVALID, -EINVAL);
        return;
    }
    tern_netif_t *netif = lif->netif;
    tern_netif_hdr_t hdr;
    frame_header(netif, nh, lowpan->scratch[24] == 0xffu /* destination ff00::/8 */, &hdr);
    int room = link_payload_max(netif, &hdr);
    /* After UDP (RFC 6282 §4.3) or ICMPv6 (not compressed) the compressor
     * reads nothing more; extension headers and encapsulated IPv6 (§4.2) it
     * may compress get what the scratch holds beyond a frame's payload, the
     * most compressed output that is of use (below): so the compressor runs
     * once, into the scratch (headers beyond go as they are). A scratch too
     * small to leave that much gets all it holds, and sizes first. */
    uint8_t next_header = lowpan->scratch[6];
    if (TERN_CONF_SIXLOWPAN_NHC_EXT && next_header != TERN_IPV6_NH_UDP && next_header != TERN_IPV6_NH_ICMPV6 &&
        size > hdrs_len) {
        size_t window = sizeof(lowpan->scratch);
        if (room > 0 && (size_t)room <= window - hdrs_len) {
            window -= (size_t)room;
        }
        size_t more = ((size < window) ? size : window) - hdrs_len;
        if (copy_range(pkt->next, hdrs_len, lowpan->scratch + hdrs_len, more) < 0) {
            drop(lowpan, pkt, TERN_SIXLOWPAN_TX_INVALID, -EINVAL);
            return;
        }
        hdrs_len += more;
    }
    tern_iphc_link_t link;
    sixlowpan_iphc_link(lif, tern_stack_now(lowpan->module.stack), hdr.src, hdr.src_len, hdr.dst, hdr.dst_len,
                        &link);
    compressed_t c = { .link = &link, .hdrs_len = hdrs_len };
    size_t spare = sizeof(lowpan->scratch) - hdrs_len;
    int comp;
    if (TERN_CONF_FAST_PATHS && room > 0 && spare >= (size_t)room) {
        /* One compressor run, into the scratch after the headers; the frame
         * gets a copy. Compressed headers longer than a frame's payload are
         * never used (sent uncompressed in the FRAG1, RFC 6282 §2): the run
         * needs no more room than that, and "too long" says enough. */
        c.bytes = lowpan->scratch + hdrs_len;
        comp = tern_iphc_compress(&link, lowpan->scratch, hdrs_len, lowpan->scratch + hdrs_len, spare, &c.consumed);
        if (comp == -ENOBUFS) {
            comp = (int)spare + 1; /* > room */
        }
    } else {
        /* No room left there (a long datagram fills the scratch): size them
         * now, compress them into the frame. */
        comp = tern_iphc_compressed_len(&link, lowpan->scratch, hdrs_len, &c.consumed);
    }
    if (comp < 0) {
        drop(lowpan, pkt, TERN_SIXLOWPAN_TX_INVALID, -EINVAL);
        return;
    }
    if (room <= 0) {
        drop(lowpan, pkt, TERN_SIXLOWPAN_TX_TOO_BIG, -EMSGSIZE);
        return;
    }
    c.len = (size_t)comp;
    if (c.len + (size - c.consumed) <= (size_t)room) {
        send_whole(lowpan, lif, &hdr, &c, pkt, size);
        return;
    }
    send_first_fragment(lowpan, lif, &hdr, &c, pkt, size, (size_t)room);
}

/** Send the next FRAGN of @p slot (its outcome decides what follows). */
static void send_fragment(tern_sixlowpan_t *lowpan, tern_sixlowpan_frag_t *slot)
{
    tern_pktbuf_t *pb = &lowpan->module.stack->pktbuf;
    size_t left = (size_t)slot->size - slot->offset;
    size_t chunk = (left > slot->per_fragment) ? slot->per_fragment : left;
    tern_netif_hdr_t hdr = slot->hdr;
    if (chunk < left) {
        hdr.flags |= TERN_NETIF_HDR_FLAG_MORE_DATA;
    }
    tern_pkt_t *netif_snip = NULL;
    tern_pkt_t *payload = frame_alloc(pb, &hdr, TERN_SIXLOWPAN_FRAGN_LEN + chunk, &netif_snip);
    int res = (payload != NULL) ? 0 : -ENOMEM;
    if (res == 0) {
        uint8_t *out = payload->data;
        /* RFC 4944 §5.3: datagram_offset in units of 8 octets of the uncompressed datagram. */
        tern_sixlowpan_frag_repr_t frag = { .first = false, .datagram_size = slot->size, .datagram_tag = slot->tag,
                                            .datagram_offset = (uint8_t)(slot->offset / TERN_SIXLOWPAN_FRAG_UNIT) };
        /* Neither can fail: the frame is sized for both, the datagram was checked when it started. */
        (void)tern_sixlowpan_frag_emit(&frag, out, TERN_SIXLOWPAN_FRAGN_LEN);
        (void)copy_range(slot->pkt->next, slot->offset, out + TERN_SIXLOWPAN_FRAGN_LEN, chunk);
    } else {
        sixlowpan_count(lowpan, TERN_SIXLOWPAN_TX_NOMEM);
    }
    if (res == 0) {
        slot->offset = (uint16_t)(slot->offset + chunk);
        res = send_frame(lowpan, slot->lif, payload, slot, netif_snip);
    }
    if (res < 0 && slot->state != SIXLOWPAN_FRAG_IN_FLIGHT && slot->state != SIXLOWPAN_FRAG_REPORTED) {
        fragment_failed(lowpan, slot, res); /* no report was attached: nothing will come */
    }
}

/**
 * Take in the outcome the interface reported for @p slot's last fragment.
 * A fragment that never went out (no memory, a full queue, the channel
 * never free, a device error) ends the datagram: RFC 4944 §5.3 has no
 * retransmission, so the rest would be of no use. One that went out but
 * whose acknowledgment never came (-EHOSTUNREACH after the MAC's retries)
 * may well have arrived (only the ACKs lost), so the datagram goes on.
 * After the last fragment the datagram is done; otherwise the next may go.
 */
static void fragment_outcome(tern_sixlowpan_t *lowpan, tern_sixlowpan_frag_t *slot)
{
    int err = __atomic_load_n(&slot->outcome, __ATOMIC_RELAXED);
    slot->state = SIXLOWPAN_FRAG_READY;
    if (err < 0 && err != -EHOSTUNREACH) {
        fragment_failed(lowpan, slot, err);
    } else if (slot->offset >= slot->size) {
        slot_free(lowpan, slot, 0);
    }
}

/**
 * Take in the fragment outcomes reported since the last look (finishing or
 * giving up datagrams), then send the next fragment of the next datagram
 * that may go on (one at a time, round robin).
 */
static void sixlowpan_send_next_fragment(tern_sixlowpan_t *lowpan)
{
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_FRAG_SLOTS; i++) {
        tern_sixlowpan_frag_t *slot = &lowpan->frags[i];
        if (slot->pkt != NULL && __atomic_load_n(&slot->state, __ATOMIC_ACQUIRE) == SIXLOWPAN_FRAG_REPORTED) {
            fragment_outcome(lowpan, slot);
        }
    }
    /* Round robin: each datagram in fragmentation gets one fragment in turn. */
    for (size_t k = 0; k < TERN_CONF_SIXLOWPAN_FRAG_SLOTS; k++) {
        size_t i = (lowpan->frag_next + k) % TERN_CONF_SIXLOWPAN_FRAG_SLOTS;
        if (lowpan->frags[i].pkt != NULL && lowpan->frags[i].state == SIXLOWPAN_FRAG_READY) {
            lowpan->frag_next = (uint8_t)((i + 1u) % TERN_CONF_SIXLOWPAN_FRAG_SLOTS);
            send_fragment(lowpan, &lowpan->frags[i]);
            return;
        }
    }
}

void sixlowpan_continue(tern_sixlowpan_t *lowpan, bool now)
{
    tern_executor_t *ex = lowpan->module.exec;
    for (;;) {
        if (now) {
            sixlowpan_send_next_fragment(lowpan);
        }
        if (__atomic_load_n(&lowpan->frag_in_turn, __ATOMIC_RELAXED)) {
            /* A fragment went on this turn: its report may have come without a wake-up. */
            __atomic_store_n(&lowpan->frag_in_turn, false, __ATOMIC_RELAXED);
            __atomic_thread_fence(__ATOMIC_SEQ_CST); /* against fragment_reported() */
        }
        if (!sixlowpan_fragmenting(lowpan)) {
            return;
        }
        /* With TERN_CONF_LOOP_HANDOFF_DEPTH 0 no executor has may_continue()
         * (executor.h): every next fragment goes by the message. */
        if (TERN_CONF_LOOP_HANDOFF_DEPTH == 0 || ex->ops->may_continue == NULL ||
            !ex->ops->may_continue(ex, &lowpan->module)) {
            sixlowpan_kick(lowpan); /* one fragment per turn: the rest after what is queued */
            return;
        }
        /* The "next fragment" message would be the executor's next step:
         * its work now, without the message (thesis 5.3.4 still holds: a
         * message or timer that comes meanwhile goes first). */
        now = true;
    }
}
