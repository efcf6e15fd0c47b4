/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The 6LoWPAN module: set-up, IPHC contexts, and the receive path
 *        (dispatch, decompression, reassembly) (RFC 4944 §5, RFC 6282 §2-§4).
 *
 * Read first: RFC 4944 §5.1 (dispatch), §5.3 (fragments); RFC 6282 §2
 * (datagram_size and offsets count the uncompressed datagram), §3.1.1
 * (unknown context: drop). The send path is in frag.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sixlowpan_internal.h"
#include "tern/netapi.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/sixlowpan.h"

static const char *const sixlowpan_counter_names[TERN_SIXLOWPAN_STAT_NUMOF] = {
    [TERN_SIXLOWPAN_RX_FRAMES] = "rx_frames",
    [TERN_SIXLOWPAN_RX_DATAGRAMS] = "rx_datagrams",
    [TERN_SIXLOWPAN_RX_FRAGMENTS] = "rx_fragments",
    [TERN_SIXLOWPAN_RX_NOT_ATTACHED] = "rx_not_attached",
    [TERN_SIXLOWPAN_RX_INVALID] = "rx_invalid",
    [TERN_SIXLOWPAN_RX_NALP] = "rx_nalp",
    [TERN_SIXLOWPAN_RX_MALFORMED] = "rx_malformed",
    [TERN_SIXLOWPAN_RX_MESH] = "rx_mesh",
    [TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH] = "rx_unknown_dispatch",
    [TERN_SIXLOWPAN_RX_IPHC_TRUNCATED] = "rx_iphc_truncated",
    [TERN_SIXLOWPAN_RX_IPHC_INVALID] = "rx_iphc_invalid",
    [TERN_SIXLOWPAN_RX_IPHC_UNSUPPORTED] = "rx_iphc_unsupported",
    [TERN_SIXLOWPAN_RX_IPHC_CONTEXT] = "rx_iphc_context",
    [TERN_SIXLOWPAN_RX_IPHC_NO_L2ADDR] = "rx_iphc_no_l2addr",
    [TERN_SIXLOWPAN_RX_IPHC_SIZE] = "rx_iphc_size",
    [TERN_SIXLOWPAN_RX_HEADERS_TOO_LONG] = "rx_headers_too_long",
    [TERN_SIXLOWPAN_RX_NOMEM] = "rx_nomem",
    [TERN_SIXLOWPAN_TX_DATAGRAMS] = "tx_datagrams",
    [TERN_SIXLOWPAN_TX_FRAMES] = "tx_frames",
    [TERN_SIXLOWPAN_TX_FRAGMENTED] = "tx_fragmented",
    [TERN_SIXLOWPAN_TX_UNCOMPRESSED] = "tx_uncompressed",
    [TERN_SIXLOWPAN_TX_INVALID] = "tx_invalid",
    [TERN_SIXLOWPAN_TX_TOO_BIG] = "tx_too_big",
    [TERN_SIXLOWPAN_TX_BUSY] = "tx_busy",
    [TERN_SIXLOWPAN_TX_WAITED] = "tx_waited",
    [TERN_SIXLOWPAN_TX_NOMEM] = "tx_nomem",
    [TERN_SIXLOWPAN_TX_LINK_REFUSED] = "tx_link_refused",
    [TERN_SIXLOWPAN_TX_FRAG_ABORTED] = "tx_frag_aborted",
};

/** RFC 4944 §4: the MTU IPv6 sees on a 6LoWPAN interface. */
#define SIXLOWPAN_IPV6_MTU 1280u

/* ------------------------------------------------------------ interfaces and contexts */

tern_sixlowpan_if_t *sixlowpan_if_find(tern_sixlowpan_t *lowpan, uint16_t if_index)
{
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_NETIFS; i++) {
        tern_sixlowpan_if_t *lif = &lowpan->ifs[i];
        if (lif->netif != NULL && lif->netif->index == if_index) {
            return lif;
        }
    }
    return NULL;
}

/**
 * An address of a length the IPHC codec knows (2 or 8), or "unknown" (the
 * codec reads no byte past the length, tern_iphc_l2addr_t).
 */
static void iphc_l2addr(tern_iphc_l2addr_t *out, const uint8_t *addr, uint8_t len)
{
    out->len = 0;
#if TERN_CONF_L2ADDR_MAX >= 8
    if (len == 8u) {
        out->len = len;
        memcpy(out->u8, addr, 8);
        return;
    }
#endif
    if (len == 2u || len == 8u) {
        out->len = len;
        memcpy(out->u8, addr, len);
    }
}

/*
 * Contexts end with their lifetime (RFC 6775 §4.2 Valid Lifetime): remove the
 * expired ones, note the next expiry and how many entries the codec needs to
 * look at (entries past the last one in use are unused: the codec skips them
 * either way).
 */
static void context_sweep(tern_sixlowpan_if_t *lif, uint64_t now_us)
{
    uint64_t next = UINT64_MAX;
    uint8_t count = 0;
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_CONTEXTS; i++) {
        if (lif->contexts[i].flags == 0) {
            continue;
        }
        if (lif->context_expiry_us[i] <= now_us) {
            memset(&lif->contexts[i], 0, sizeof(lif->contexts[i]));
            continue;
        }
        next = (lif->context_expiry_us[i] < next) ? lif->context_expiry_us[i] : next;
        count = (uint8_t)(i + 1u);
    }
    lif->context_next_expiry_us = next;
    lif->context_count = count;
}

void sixlowpan_iphc_link(tern_sixlowpan_if_t *lif, uint64_t now_us, const uint8_t *src, uint8_t src_len,
                         const uint8_t *dst, uint8_t dst_len, tern_iphc_link_t *link)
{
    if (now_us >= lif->context_next_expiry_us) {
        context_sweep(lif, now_us);
    }
    iphc_l2addr(&link->src, src, src_len);
    iphc_l2addr(&link->dst, dst, dst_len);
    link->contexts = lif->contexts;
    link->context_count = lif->context_count;
}

/* The entry holding context @p cid, else a free one; NULL: the table is full. */
static tern_iphc_context_t *context_entry(tern_sixlowpan_if_t *lif, uint8_t cid)
{
    tern_iphc_context_t *free_entry = NULL;
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_CONTEXTS; i++) {
        tern_iphc_context_t *c = &lif->contexts[i];
        if (c->flags != 0 && c->id == cid) {
            return c;
        }
        free_entry = (free_entry == NULL && c->flags == 0) ? c : free_entry;
    }
    return free_entry;
}

int tern_sixlowpan_context_set(tern_sixlowpan_t *lowpan, uint16_t if_index, uint8_t cid,
                               const tern_ipv6_addr_t *prefix, uint8_t prefix_len, bool compress,
                               uint32_t lifetime_s)
{
    if (lowpan == NULL || cid >= TERN_IPHC_CONTEXT_MAX || prefix_len > 128u ||
        (prefix == NULL && lifetime_s != 0)) {
        return -EINVAL;
    }
    tern_sixlowpan_if_t *lif = sixlowpan_if_find(lowpan, if_index);
    if (lif == NULL) {
        return -ENODEV;
    }
    uint64_t now = tern_stack_now(lowpan->module.stack);
    tern_iphc_context_t *ctx = context_entry(lif, cid);
    if (ctx == NULL) {
        context_sweep(lif, now); /* expired contexts free their entries */
        ctx = context_entry(lif, cid);
    }
    if (ctx == NULL) {
        return (lifetime_s == 0) ? 0 : -ENOSPC;
    }
    size_t slot = (size_t)(ctx - lif->contexts);
    memset(ctx, 0, sizeof(*ctx));
    lif->context_next_expiry_us = 0; /* sixlowpan_iphc_link() recounts */
    if (lifetime_s == 0) {
        return 0; /* RFC 6775 §4.2: a Valid Lifetime of 0 removes the context */
    }
    /* Bits past the prefix length are kept zero, whatever the caller gave. */
    ctx->prefix = *prefix;
    tern_ipv6_addr_mask(&ctx->prefix, prefix_len);
    ctx->prefix_len = prefix_len;
    /* RFC 6775 §7.2: without the C flag a context is still used to decompress. */
    ctx->flags = (uint8_t)(TERN_IPHC_CONTEXT_DECOMPRESS | (compress ? TERN_IPHC_CONTEXT_COMPRESS : 0u));
    ctx->id = cid;
    lif->context_expiry_us[slot] = (lifetime_s == UINT32_MAX) ? UINT64_MAX : now + (uint64_t)lifetime_s * 1000000u;
    return 0;
}

/* ------------------------------------------------------------ receive */

/* Arm the reassembly timer for the table's earliest deadline (or stop it),
 * noting the generation it was computed for (reass_timer_update()). An armed
 * timer with that deadline is left alone. */
static void reass_timer_rearm(tern_sixlowpan_t *lowpan)
{
    lowpan->reass_timer_gen = (uint8_t)lowpan->reass.deadline_gen;
    uint64_t deadline = tern_sixlowpan_reass_next_deadline(&lowpan->reass);
    bool armed = tern_timer_is_armed(&lowpan->reass_timer);
    if (deadline == UINT64_MAX) {
        if (armed) {
            tern_timer_cancel(&lowpan->reass_timer);
        }
    } else if (!armed || lowpan->reass_timer.deadline_us != deadline) {
        (void)tern_timer_set_absolute(&lowpan->reass_timer, deadline);
    }
}

/**
 * Arm the reassembly timer for the table's earliest deadline (or stop it).
 * Every fragment comes here, and most leave the deadline as it was: it only
 * moves when a datagram starts or ends, which bumps the table's deadline_gen,
 * so an unchanged generation needs nothing (@p fired: the timer went off, and
 * is set again whatever the generation); the test is inline in every caller,
 * the setting a call. Only this module sets the timer, so its
 * deadline is ours to read. The generation is compared in its low byte: one
 * tern_sixlowpan_reass_add() bumps it at most four times, and every call is
 * followed by this one.
 */
static inline void reass_timer_update(tern_sixlowpan_t *lowpan, bool fired)
{
    if (!TERN_CONF_FAST_PATHS || fired || (uint8_t)lowpan->reass.deadline_gen != lowpan->reass_timer_gen) {
        reass_timer_rearm(lowpan);
    }
}

/** The counter for a decompression error. */
static tern_sixlowpan_stat_t iphc_error_counter(int err)
{
    switch (err) {
    case -EBADMSG:
        return TERN_SIXLOWPAN_RX_IPHC_TRUNCATED;
    case -EPROTO:
        return TERN_SIXLOWPAN_RX_IPHC_INVALID;
    case -ENOTSUP:
        return TERN_SIXLOWPAN_RX_IPHC_UNSUPPORTED;
    case -ENOENT:
        return TERN_SIXLOWPAN_RX_IPHC_CONTEXT;
    case -EADDRNOTAVAIL:
        return TERN_SIXLOWPAN_RX_IPHC_NO_L2ADDR;
    case -EMSGSIZE:
        return TERN_SIXLOWPAN_RX_IPHC_SIZE;
    case -ENOBUFS:
        return TERN_SIXLOWPAN_RX_HEADERS_TOO_LONG;
    default:
        return TERN_SIXLOWPAN_RX_MALFORMED;
    }
}

/**
 * Hand the whole datagram @p dgram (one IPV6 snip, next NULL) up to IPv6 as
 * [IPV6, NETIF], the NETIF header being the one of the frame @p frame (the
 * frame's payload snip is released).
 */
static void deliver(tern_sixlowpan_t *lowpan, tern_pkt_t *dgram, tern_pkt_t *frame)
{
    tern_stack_t *stack = lowpan->module.stack;
    dgram->next = tern_pktbuf_remove_snip(&stack->pktbuf, frame, frame);
    dgram->type = TERN_NETTYPE_IPV6;
    sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_DATAGRAMS);
    (void)tern_netapi_dispatch_receive(stack, TERN_NETTYPE_IPV6, TERN_NETREG_DEMUX_CTX_ALL, dgram);
}

/** A fragment for reassembly; delivers the datagram it completes. Releases @p frame. */
static void receive_fragment(tern_sixlowpan_t *lowpan, tern_pkt_t *frame, const tern_netif_hdr_t *nh,
                             const tern_sixlowpan_frag_repr_t *frag, size_t offset, const uint8_t *data,
                             size_t len)
{
    tern_pktbuf_t *pb = &lowpan->module.stack->pktbuf;
    tern_sixlowpan_reass_key_t key;
    /* RFC 4944 §5.3: sender, destination, datagram_size and tag name the datagram. */
    if (tern_sixlowpan_reass_key_set(&key, nh->src, nh->src_len, nh->dst, nh->dst_len, frag->datagram_tag) < 0) {
        sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_INVALID);
        tern_pktbuf_release(pb, frame);
        return;
    }
    sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_FRAGMENTS);
    tern_pkt_t *dgram = tern_sixlowpan_reass_add(&lowpan->reass, &key, frag->datagram_size, offset, data, len,
                                                 tern_stack_now(lowpan->module.stack));
    reass_timer_update(lowpan, false);
    if (dgram == NULL) {
        tern_pktbuf_release(pb, frame); /* kept (copied) or dropped: counted in "6lo_reass" */
        return;
    }
    deliver(lowpan, dgram, frame);
}

/**
 * A LOWPAN_IPHC payload (@p in, @p in_len) of a whole datagram
 * (@p frag NULL) or of a FRAG1.
 */
static void receive_iphc(tern_sixlowpan_t *lowpan, tern_sixlowpan_if_t *lif, tern_pkt_t *frame,
                         const tern_netif_hdr_t *nh, const tern_sixlowpan_frag_repr_t *frag, const uint8_t *in,
                         size_t in_len)
{
    tern_pktbuf_t *pb = &lowpan->module.stack->pktbuf;
    tern_iphc_link_t link;
    sixlowpan_iphc_link(lif, tern_stack_now(lowpan->module.stack), nh->src, nh->src_len, nh->dst, nh->dst_len,
                        &link);
    size_t consumed = 0;
    /* RFC 6282 §2: a FRAG1's datagram_size gives the elided lengths. */
    int n = tern_iphc_decompress(&link, in, in_len, (frag != NULL) ? frag->datagram_size : 0u, lowpan->scratch,
                                 sizeof(lowpan->scratch), &consumed);
    if (n < 0) {
        sixlowpan_count(lowpan, iphc_error_counter(n));
        tern_pktbuf_release(pb, frame);
        return;
    }
    const uint8_t *rest = in + consumed;
    size_t rest_len = in_len - consumed;
    bool in_scratch = (size_t)n + rest_len <= sizeof(lowpan->scratch);
    if (in_scratch) {
        /* The usual case: headers and payload fit the scratch, and go on from
         * there in one piece (reassembly or pktbuf copies them). */
        memcpy(lowpan->scratch + n, rest, rest_len);
    }
    if (frag != NULL && in_scratch) {
        receive_fragment(lowpan, frame, nh, frag, 0, lowpan->scratch, (size_t)n + rest_len);
        return;
    }
    tern_pkt_t *dgram = tern_pktbuf_add(pb, NULL, in_scratch ? lowpan->scratch : NULL, (size_t)n + rest_len,
                                        TERN_NETTYPE_IPV6);
    if (dgram == NULL) {
        sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_NOMEM);
        tern_pktbuf_release(pb, frame);
        return;
    }
    if (!in_scratch) {
        memcpy(dgram->data, lowpan->scratch, (size_t)n);
        memcpy((uint8_t *)dgram->data + n, rest, rest_len);
    }
    if (frag != NULL) {
        receive_fragment(lowpan, frame, nh, frag, 0, dgram->data, dgram->size);
        tern_pktbuf_release(pb, dgram);
        return;
    }
    deliver(lowpan, dgram, frame);
}

/** An uncompressed IPv6 datagram (dispatch 0x41) filling the frame from @p skip on: no copy. */
static void receive_uncompressed(tern_sixlowpan_t *lowpan, tern_pkt_t *frame, size_t skip)
{
    tern_stack_t *stack = lowpan->module.stack;
    tern_pktbuf_t *pb = &stack->pktbuf;
    if (skip >= frame->size) {
        sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_MALFORMED); /* a dispatch and no IPv6 header */
        tern_pktbuf_release(pb, frame);
        return;
    }
    /* The frame may be shared with another receiver of (SIXLOWPAN, ALL). */
    tern_pkt_t *own = tern_pktbuf_start_write(pb, frame);
    tern_pkt_t *hdr = (own != NULL) ? tern_pktbuf_mark(pb, own, skip, TERN_NETTYPE_SIXLOWPAN) : NULL;
    if (hdr == NULL) {
        sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_NOMEM);
        tern_pktbuf_release(pb, (own != NULL) ? own : frame);
        return;
    }
    own = tern_pktbuf_remove_snip(pb, own, hdr);
    own->type = TERN_NETTYPE_IPV6;
    sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_DATAGRAMS);
    (void)tern_netapi_dispatch_receive(stack, TERN_NETTYPE_IPV6, TERN_NETREG_DEMUX_CTX_ALL, own);
}

/** A frame from a link: [payload, NETIF]. */
static void sixlowpan_receive(tern_sixlowpan_t *lowpan, tern_pkt_t *frame)
{
    tern_pktbuf_t *pb = &lowpan->module.stack->pktbuf;
    sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_FRAMES);
    tern_netif_hdr_t *nh = tern_netif_hdr_received(frame);
    if (nh == NULL || frame->type == TERN_NETTYPE_NETIF || frame->size == 0) {
        sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_INVALID);
        tern_pktbuf_release(pb, frame);
        return;
    }
    tern_sixlowpan_if_t *lif = sixlowpan_if_find(lowpan, nh->if_index);
    if (lif == NULL) {
        sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_NOT_ATTACHED);
        tern_pktbuf_release(pb, frame);
        return;
    }
    const uint8_t *bytes = frame->data;
    size_t len = frame->size;
    const uint8_t *payload = bytes;
    size_t payload_len = len;
    const tern_sixlowpan_frag_repr_t *frag1 = NULL;
    tern_sixlowpan_hdrs_t hdrs;
    /* A whole datagram in one frame, the usual case, starts with its IPHC
     * dispatch: no mesh, broadcast or fragment header before it (RFC 4944
     * §5.1), nothing for the header walk to find. */
    if (!TERN_CONF_FAST_PATHS || !tern_iphc_is_dispatch(bytes[0])) {
        if (tern_sixlowpan_hdrs_parse(&hdrs, bytes, len) < 0) {
            /* The parser refuses a NALP first octet too (RFC 4944 §5.1: not a
             * LoWPAN frame, not ours): counted apart from malformed ones. */
            sixlowpan_count(lowpan, (tern_sixlowpan_dispatch_classify(bytes[0]) == TERN_SIXLOWPAN_DISPATCH_NALP)
                                        ? TERN_SIXLOWPAN_RX_NALP
                                        : TERN_SIXLOWPAN_RX_MALFORMED);
            tern_pktbuf_release(pb, frame);
            return;
        }
        if (hdrs.has_mesh) {
            /* Route-over only: mesh-under forwarding (RFC 4944 §11) is not done. */
            sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_MESH);
            tern_pktbuf_release(pb, frame);
            return;
        }
        /* A BC0 header (RFC 4944 §11.1) only matters to mesh-under forwarding: skipped. */
        payload = bytes + hdrs.payload;
        payload_len = len - hdrs.payload;
        if (hdrs.has_frag && !hdrs.frag.first) {
            /* FRAGN: datagram bytes at datagram_offset * 8 (RFC 4944 §5.3). */
            receive_fragment(lowpan, frame, nh, &hdrs.frag,
                             (size_t)hdrs.frag.datagram_offset * TERN_SIXLOWPAN_FRAG_UNIT, payload, payload_len);
            return;
        }
        frag1 = hdrs.has_frag ? &hdrs.frag : NULL;
        switch (tern_sixlowpan_dispatch_classify(payload[0])) {
        case TERN_SIXLOWPAN_DISPATCH_IPHC:
            break; /* below */
        case TERN_SIXLOWPAN_DISPATCH_IPV6:
            if (frag1 != NULL) {
                receive_fragment(lowpan, frame, nh, frag1, 0, payload + TERN_SIXLOWPAN_IPV6_DISPATCH_LEN,
                                 payload_len - TERN_SIXLOWPAN_IPV6_DISPATCH_LEN);
            } else {
                receive_uncompressed(lowpan, frame, hdrs.payload + TERN_SIXLOWPAN_IPV6_DISPATCH_LEN);
            }
            return;
        default:
            /* ESC (no extension implemented, RFC 8066 §3.1), HC1 (RFC 6282 §2),
             * RFRAG (RFC 8931), a page switch (RFC 8025), reserved values. */
            sixlowpan_count(lowpan, TERN_SIXLOWPAN_RX_UNKNOWN_DISPATCH);
            tern_pktbuf_release(pb, frame);
            return;
        }
    }
    receive_iphc(lowpan, lif, frame, nh, frag1, payload, payload_len);
}

/* ------------------------------------------------------------ module */

/** netapi SET: TERN_NETOPT_SIXLOWPAN_CONTEXT (from 6LoWPAN-ND in the IPv6 module). */
static int sixlowpan_set(tern_sixlowpan_t *lowpan, const tern_netapi_opt_t *opt)
{
    if (opt->opt != TERN_NETOPT_SIXLOWPAN_CONTEXT) {
        return -ENOTSUP;
    }
    if (opt->data_len != sizeof(tern_sixlowpan_context_config_t)) {
        return -EINVAL;
    }
    tern_sixlowpan_context_config_t cfg;
    memcpy(&cfg, opt->data, sizeof(cfg));
    int res = tern_sixlowpan_context_set(lowpan, opt->context, cfg.cid, &cfg.prefix, cfg.prefix_len, cfg.compress,
                                         cfg.lifetime_s);
    return (res < 0) ? res : (int)sizeof(cfg);
}

static int sixlowpan_handle(tern_module_t *self, tern_msg_t *msg)
{
    tern_sixlowpan_t *lowpan = self->context;
    int res = 0;
    bool next_fragment = false;
    switch (msg->type) {
    case TERN_MSG_RCV:
        sixlowpan_receive(lowpan, msg->content.pkt);
        break;
    case TERN_MSG_SND:
        sixlowpan_send(lowpan, msg->content.pkt);
        break;
    case TERN_MSG_TIMER:
        /* A stale expiry (timer re-armed since) finds nothing due: harmless. */
        (void)tern_sixlowpan_reass_expire(&lowpan->reass, tern_stack_now(self->stack));
        reass_timer_update(lowpan, true);
        break;
    case SIXLOWPAN_MSG_NEXT_FRAGMENT:
        __atomic_store_n(&lowpan->frag_kick_pending, false, __ATOMIC_RELAXED);
        next_fragment = true; /* below */
        break;
    case TERN_MSG_SET:
        res = sixlowpan_set(lowpan, msg->content.opt);
        break;
    default:
        res = -ENOTSUP; /* GET: no options of its own */
        break;
    }
    /* After every message: the datagrams still in fragments go on (this
     * also retries a wake-up a full queue refused). */
    sixlowpan_end_turn(lowpan, next_fragment);
    return res;
}

int tern_sixlowpan_init(tern_sixlowpan_t *lowpan, tern_stack_t *stack)
{
    if (lowpan == NULL || stack == NULL) {
        return -EINVAL;
    }
    memset(lowpan, 0, sizeof(*lowpan));
    int res = tern_module_init(&lowpan->module, "6lowpan", TERN_CONF_SIXLOWPAN_PRIORITY, sixlowpan_handle, lowpan,
                               lowpan->queue, TERN_CONF_SIXLOWPAN_QUEUE_LEN);
    if (res < 0) {
        return res;
    }
    res = tern_sixlowpan_reass_init(&lowpan->reass, &stack->pktbuf);
    if (res < 0) {
        return res;
    }
    res = tern_stack_add_module(stack, &lowpan->module);
    if (res < 0) {
        return res;
    }
    tern_timer_init(&lowpan->reass_timer, &lowpan->module, TERN_MSG_TIMER, 0);
    tern_netreg_entry_init(&lowpan->entry, TERN_NETREG_DEMUX_CTX_ALL, &lowpan->module);
    res = tern_netreg_register(&stack->netreg, TERN_NETTYPE_SIXLOWPAN, &lowpan->entry);
    if (res < 0) {
        return res;
    }
    lowpan->stats.name = "sixlowpan";
    lowpan->stats.names = TERN_STATS_NAMES(sixlowpan_counter_names);
    lowpan->stats.values = lowpan->counters;
    lowpan->stats.count = TERN_SIXLOWPAN_STAT_NUMOF;
    tern_stack_add_stats(stack, &lowpan->stats);
    tern_stack_add_stats(stack, &lowpan->reass.stats);
    return 0;
}

int tern_sixlowpan_netif_attach(tern_sixlowpan_t *lowpan, tern_netif_t *netif)
{
    if (lowpan == NULL || netif == NULL || netif->module.stack != lowpan->module.stack) {
        return -EINVAL;
    }
    if (sixlowpan_if_find(lowpan, netif->index) != NULL) {
        return 0;
    }
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_NETIFS; i++) {
        tern_sixlowpan_if_t *lif = &lowpan->ifs[i];
        if (lif->netif != NULL) {
            continue;
        }
        memset(lif, 0, sizeof(*lif));
        lif->netif = netif;
        /* A tag that differs between interfaces and nodes (RFC 4944 §5.3 only
         * asks that it change per datagram): the last address bytes. */
        uint16_t seed = (uint16_t)(netif->index * 0x9E37u);
        for (size_t k = 0; k < netif->l2addr_len; k++) {
            seed = (uint16_t)((seed << 5) ^ (seed >> 11) ^ netif->l2addr[k]);
        }
        lif->next_tag = seed;
        netif->mtu = SIXLOWPAN_IPV6_MTU; /* RFC 4944 §4 */
        netif->adaptation = &lowpan->module;
        return 0;
    }
    return -ENOSPC;
}
