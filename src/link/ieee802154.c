/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IEEE 802.15.4 link layer (IEEE 802.15.4-2006 §7.2.1, §7.5.1.4,
 *        §7.5.6.2, §7.5.6.4; RFC 4944 §3, §6).
 *
 * This file converts frames and keeps the MAC's settings; the transmission
 * itself (one frame in flight, CSMA-CA, retries, outcome reports) is the
 * interface's, driven by the policy below (netif.c, tern_netif_tx_policy_t).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/executor.h"
#include "tern/link/ieee802154.h"
#include "tern/netapi.h"

/* Interface headers and an interface's own address carry extended (8-byte)
 * addresses, copied in whole: a build whose link addresses are shorter (an
 * Ethernet-only image might set 6) cannot carry IEEE 802.15.4. */
_Static_assert(TERN_CONF_L2ADDR_MAX >= TERN_IEEE802154_EXT_ADDR_LEN,
               "IEEE 802.15.4 needs TERN_CONF_L2ADDR_MAX >= 8 (extended addresses)");

/** The MAC attributes' defaults (IEEE 802.15.4-2006 Table 86, §7.4.1). */
static const tern_netif_tx_policy_t ieee802154_tx_policy = {
    .max_retries = TERN_IEEE802154_MAX_FRAME_RETRIES_DEFAULT,
    .max_backoffs = TERN_IEEE802154_MAX_CSMA_BACKOFFS,
    .min_be = TERN_IEEE802154_MIN_BE,
    .max_be = TERN_IEEE802154_MAX_BE,
    .backoff_period_us = TERN_IEEE802154_UNIT_BACKOFF_US,
};

/** True when @p mac has a short address (not 0xffff "none", not 0xfffe "use the extended one"). */
static bool has_short_addr(const tern_ieee802154_link_t *mac)
{
    uint16_t a = (uint16_t)(((unsigned)mac->short_addr[0] << 8) | mac->short_addr[1]);
    return a != TERN_IEEE802154_SHORT_ADDR_BROADCAST && a != TERN_IEEE802154_SHORT_ADDR_NONE;
}

/* ------------------------------------------------------------ receive */

/**
 * Duplicate rejection: a sender that missed our acknowledgment retransmits
 * the frame with the same sequence number (§7.2.1.2, §7.5.6.4.3), and its
 * payload must go up once. Remember the last number per recent source; the
 * least recently heard source makes room for a new one.
 * @return true if the frame repeats the last one heard from its source.
 */
static bool frame_is_duplicate(tern_ieee802154_link_t *mac, const tern_ieee802154_repr_t *repr, uint8_t seq,
                               uint64_t now)
{
    tern_ieee802154_dup_t *slot = &mac->dup[0];
    /* Addresses are kept with all 8 bytes (zero past a short one's 2, as the
     * parser gives them), so one fixed-size compare does. */
    _Static_assert(sizeof(mac->dup[0].addr) == sizeof(repr->src.u8), "whole addresses");
    for (unsigned i = 0; i < TERN_CONF_IEEE802154_DUP_SOURCES; i++) {
        tern_ieee802154_dup_t *e = &mac->dup[i];
        if (e->len == repr->src.len && memcmp(e->addr, repr->src.u8, sizeof(e->addr)) == 0) {
            bool duplicate = e->seq == seq && now - e->heard_us < TERN_IEEE802154_DUP_WINDOW_US;
            e->seq = seq;
            e->heard_us = now;
            return duplicate;
        }
        if (slot->len != 0u && (e->len == 0u || e->heard_us < slot->heard_us)) {
            slot = e; /* a free entry, else the least recently heard */
        }
    }
    memcpy(slot->addr, repr->src.u8, sizeof(slot->addr));
    slot->len = repr->src.len;
    slot->seq = seq;
    slot->heard_us = now;
    return false;
}

/**
 * A parsed address into an interface header field: where the field holds an
 * extended address, all 8 bytes of u8 in one fixed-size copy (those past a
 * short address's 2 are zero, see tern_ieee802154_parse()).
 */
static void put_l2addr(uint8_t *field, uint8_t *field_len, const tern_ieee802154_addr_t *addr)
{
#if TERN_CONF_L2ADDR_MAX >= TERN_IEEE802154_EXT_ADDR_LEN
    memcpy(field, addr->u8, sizeof(addr->u8));
#else
    memcpy(field, addr->u8, addr->len);
#endif
    *field_len = addr->len;
}

/**
 * True when the frame @p data (@p len bytes) has the MAC header of the last
 * frame taken up (mac->rx_mhr) but for the sequence number: then it parses
 * as that one (the frame control fixes the layout, the rest is the
 * addressing fields) and passes the filter as it did, and it has a payload.
 */
#if TERN_CONF_FAST_PATHS
static bool rx_mhr_seen(tern_ieee802154_link_t *mac, const uint8_t *data, size_t len)
{
    size_t n = mac->rx_mhr_len;
    if (n == 0u || len <= n || len > TERN_IEEE802154_MAX_FRAME_LEN) {
        return false;
    }
    /* The kept header takes this frame's sequence number: one compare. */
    (void)tern_ieee802154_seq_set(mac->rx_mhr, n, data[2]);
    return memcmp(data, mac->rx_mhr, n) == 0;
}

/** Keep the MAC header (@p len bytes at @p data) of the frame taken up for rx_mhr_seen(). */
static inline void rx_mhr_keep(tern_ieee802154_link_t *mac, const uint8_t *data, size_t len)
{
    memcpy(mac->rx_mhr, data, len);
}
#else
/* Without the speed-only shortcuts (config.h) no header is kept: every
 * frame is parsed and filtered, and the link has no room for a copy. */
static inline bool rx_mhr_seen(tern_ieee802154_link_t *mac, const uint8_t *data, size_t len)
{
    (void)mac;
    (void)data;
    (void)len;
    return false;
}

static inline void rx_mhr_keep(tern_ieee802154_link_t *mac, const uint8_t *data, size_t len)
{
    (void)mac;
    (void)data;
    (void)len;
}
#endif

/**
 * Parse and filter the MAC header of @p frame into mac->rx_repr (and
 * mac->rx_unicast, mac->rx_nh_flags), and keep it for the next frame
 * (rx_mhr_seen()).
 * @return the header length; a negative errno for ieee802154_recv() (the
 *         cache is empty then).
 */
static int rx_mhr_take(tern_ieee802154_link_t *mac, const tern_pkt_t *frame)
{
    tern_ieee802154_repr_t *repr = &mac->rx_repr;
    mac->rx_mhr_len = 0;
    int hdr_len = tern_ieee802154_parse(repr, frame->data, frame->size);
    if (hdr_len < 0) {
        /* Reserved or 2015-only frame kinds are well formed but not ours to
         * decode; everything else (truncated, secured, too long) is an error. */
        return (hdr_len == -EPROTONOSUPPORT) ? -EPROTONOSUPPORT : -EBADMSG;
    }
    if (repr->frame_type != TERN_IEEE802154_FRAME_TYPE_DATA) {
        return -EPROTONOSUPPORT; /* beacons, MAC commands, stray acknowledgments */
    }
    /* The radio filtered already (IEEE 802.15.4-2006 §7.5.6.2); filtering again
     * keeps the link right over a device that does not (or is promiscuous). */
    tern_ieee802154_rx_verdict_t verdict = tern_ieee802154_rx_filter(repr, mac->pan_id, mac->short_addr, mac->long_addr);
    if (verdict == TERN_IEEE802154_RX_REJECT && !mac->promiscuous) {
        return -EADDRNOTAVAIL;
    }
    if (repr->src.len == 0u || (size_t)hdr_len >= frame->size) {
        /* 6LoWPAN needs the source (RFC 4944 §6) and something to decode. */
        return -EBADMSG;
    }
    mac->rx_unicast = verdict == TERN_IEEE802154_RX_UNICAST;
    mac->rx_nh_flags = tern_ieee802154_addr_is_broadcast(&repr->dst) ? TERN_NETIF_HDR_FLAG_BROADCAST : 0u;
    rx_mhr_keep(mac, frame->data, (size_t)hdr_len);
    mac->rx_mhr_len = (uint8_t)hdr_len;
    return hdr_len;
}

static int ieee802154_recv(tern_netif_t *netif, tern_pkt_t **pkt, tern_nettype_t *type, uint32_t *demux)
{
    tern_ieee802154_link_t *mac = netif->link_ctx;
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    tern_pkt_t *frame = *pkt;
    const uint8_t *data = frame->data;
    int hdr_len = mac->rx_mhr_len;
    if (!TERN_CONF_FAST_PATHS || !rx_mhr_seen(mac, data, frame->size)) {
        hdr_len = rx_mhr_take(mac, frame);
        if (hdr_len < 0) {
            return hdr_len;
        }
    }
    const tern_ieee802154_repr_t *repr = &mac->rx_repr;
    uint8_t seq = data[2]; /* the only MHR field not compared (tern_ieee802154_seq_set()) */
    if (mac->rx_unicast && repr->ack_request &&
        frame_is_duplicate(mac, repr, seq, tern_executor_now(netif->module.exec))) {
        return -EALREADY;
    }
    /* The interface reads the frame as [RAW, NETIF]: the header is next
     * (looked at in place, not searched for). */
    const tern_pkt_t *hdr = frame->next;
    if (hdr == NULL || hdr->type != TERN_NETTYPE_NETIF || hdr->size != sizeof(tern_netif_hdr_t)) {
        return -EINVAL;
    }
    tern_netif_hdr_t *nh = hdr->data;
    /* Drop the MAC header (no snip of its own): everything the layers above
     * need from it is in the interface header. */
    if (tern_pktbuf_trim_front(pb, frame, (size_t)hdr_len) < 0) {
        return -EINVAL; /* a shared frame: not as the interface reads it */
    }

    put_l2addr(nh->src, &nh->src_len, &repr->src);
    put_l2addr(nh->dst, &nh->dst_len, &repr->dst);
    nh->flags |= mac->rx_nh_flags;
    frame->type = TERN_NETTYPE_SIXLOWPAN;
    *pkt = frame;
    *type = TERN_NETTYPE_SIXLOWPAN;
    *demux = TERN_NETREG_DEMUX_CTX_ALL;
    return 0;
}

/* ------------------------------------------------------------ send */

/**
 * The MAC header a packet with interface header @p nh gets (sequence number
 * 0: the caller sets it).
 * @return 0; -EINVAL for a destination length other than 0, 2 and 8.
 */
static int header_for(const tern_ieee802154_link_t *mac, const tern_netif_hdr_t *nh, tern_ieee802154_repr_t *repr)
{
    memset(repr, 0, sizeof(*repr));
    repr->frame_type = TERN_IEEE802154_FRAME_TYPE_DATA;
    repr->frame_version = TERN_IEEE802154_FRAME_VERSION_2006;
    if (nh->dst_len == 0u || (nh->flags & (TERN_NETIF_HDR_FLAG_BROADCAST | TERN_NETIF_HDR_FLAG_MULTICAST)) != 0u) {
        /* RFC 4944 §3: 0xffff is the broadcast address; multicast goes there
         * too. Broadcast frames are never acknowledged (2006 §7.5.6.4). */
        tern_ieee802154_addr_set_short(&repr->dst, TERN_IEEE802154_SHORT_ADDR_BROADCAST);
    } else if (nh->dst_len == TERN_IEEE802154_SHORT_ADDR_LEN) {
        repr->dst.len = TERN_IEEE802154_SHORT_ADDR_LEN;
        memcpy(repr->dst.u8, nh->dst, TERN_IEEE802154_SHORT_ADDR_LEN);
        repr->ack_request = !tern_ieee802154_addr_is_broadcast(&repr->dst);
    } else if (nh->dst_len == TERN_IEEE802154_EXT_ADDR_LEN) {
        tern_ieee802154_addr_set_ext(&repr->dst, nh->dst);
        repr->ack_request = true;
    } else {
        return -EINVAL;
    }
    if (nh->src_len == TERN_IEEE802154_SHORT_ADDR_LEN && has_short_addr(mac)) {
        repr->src.len = TERN_IEEE802154_SHORT_ADDR_LEN;
        memcpy(repr->src.u8, mac->short_addr, TERN_IEEE802154_SHORT_ADDR_LEN);
    } else {
        tern_ieee802154_addr_set_ext(&repr->src, mac->long_addr);
    }
    /* Both addresses in our PAN: one PAN ID field (§7.2.1.1.5). */
    repr->pan_id_compression = true;
    repr->dst_pan = mac->pan_id;
    repr->src_pan = mac->pan_id;
    return 0;
}

/** Longest frame (no FCS) this interface sends: the device's, within aMaxPHYPacketSize. */
static size_t frame_max(const tern_ieee802154_link_t *mac)
{
    return (mac->max_frame != 0u && mac->max_frame < TERN_IEEE802154_MAX_FRAME_LEN) ? mac->max_frame
                                                                                   : TERN_IEEE802154_MAX_FRAME_LEN;
}

/** The interface header flags header_for() reads. */
#define KEY_FLAGS (TERN_NETIF_HDR_FLAG_BROADCAST | TERN_NETIF_HDR_FLAG_MULTICAST)

/**
 * True when the cached MHR was built for an interface header addressed as
 * @p nh: header_for() reads only the destination, the source length and the
 * broadcast/multicast flags of it (and the MAC's own settings, whose changes
 * clear the cache).
 */
#if TERN_CONF_FAST_PATHS
static bool mhr_cached(const tern_ieee802154_link_t *mac, const tern_netif_hdr_t *nh)
{
    if (mac->tx_mhr_len == 0u || nh->dst_len != mac->tx_key_dst_len || nh->src_len != mac->tx_key_src_len ||
        (nh->flags & KEY_FLAGS) != mac->tx_key_flags) {
        return false;
    }
    /* A cached destination length is 0, 2 or 8 (header_for() refuses others). */
    return nh->dst_len == TERN_IEEE802154_EXT_ADDR_LEN
               ? memcmp(nh->dst, mac->tx_key_dst, TERN_IEEE802154_EXT_ADDR_LEN) == 0
               : memcmp(nh->dst, mac->tx_key_dst, nh->dst_len) == 0;
}

/** Key the MHR just built (mhr_build()) by the addressing of @p nh, for mhr_cached(). */
static inline void mhr_key(tern_ieee802154_link_t *mac, const tern_netif_hdr_t *nh)
{
    memcpy(mac->tx_key_dst, nh->dst, nh->dst_len); /* 0, 2 or 8: header_for() took it */
    mac->tx_key_dst_len = nh->dst_len;
    mac->tx_key_src_len = nh->src_len;
    mac->tx_key_flags = (uint8_t)(nh->flags & KEY_FLAGS);
}
#else
/* Without the speed-only shortcuts (config.h) the MHR is built for every
 * frame: no key kept, and no room for one. */
static inline bool mhr_cached(const tern_ieee802154_link_t *mac, const tern_netif_hdr_t *nh)
{
    (void)mac;
    (void)nh;
    return false;
}

static inline void mhr_key(tern_ieee802154_link_t *mac, const tern_netif_hdr_t *nh)
{
    (void)mac;
    (void)nh;
}
#endif

/**
 * Build the MHR for frames with interface header @p nh into the cache (its
 * sequence number is set per frame).
 * @return 0; -EINVAL as header_for(); -EMSGSIZE (cannot happen: every
 *         header_for() result can be emitted). The cache is empty on error.
 */
static int mhr_build(tern_ieee802154_link_t *mac, const tern_netif_hdr_t *nh)
{
    mac->tx_mhr_len = 0;
    tern_ieee802154_repr_t repr;
    int res = header_for(mac, nh, &repr);
    if (res < 0) {
        return res;
    }
    int hdr_len = tern_ieee802154_emit(&repr, 0, mac->tx_mhr, sizeof(mac->tx_mhr));
    if (hdr_len < 0) {
        return -EMSGSIZE;
    }
    mhr_key(mac, nh);
    mac->tx_mhr_len = (uint8_t)hdr_len;
    return 0;
}

static int ieee802154_send(tern_netif_t *netif, tern_pkt_t **pkt)
{
    tern_ieee802154_link_t *mac = netif->link_ctx;
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    tern_pkt_t *netif_snip = *pkt;
    const tern_netif_hdr_t *nh = netif_snip->data;
    if (nh == NULL || netif_snip->size < sizeof(*nh)) {
        return -EINVAL;
    }
    /* The MHR is laid out once per addressing (mhr_build()), then copied into
     * the interface header's snip, which becomes the MHR: no snip allocated
     * per frame (the interface made it private; with TERN_CONF_L2ADDR_MAX 8
     * its 24 bytes hold the 23 of the longest MHR, so it only shrinks). */
    if (!TERN_CONF_FAST_PATHS || !mhr_cached(mac, nh)) {
        int res = mhr_build(mac, nh);
        if (res < 0) {
            return res;
        }
    }
    size_t hdr_len = mac->tx_mhr_len;
    if (hdr_len + tern_pkt_len(netif_snip->next) > frame_max(mac)) {
        return -EMSGSIZE;
    }
    if (tern_pktbuf_realloc_data(pb, netif_snip, hdr_len) < 0) {
        return -ENOMEM;
    }
    memcpy(netif_snip->data, mac->tx_mhr, hdr_len);
    (void)tern_ieee802154_seq_set(netif_snip->data, hdr_len, mac->seq);
    netif_snip->type = TERN_NETTYPE_IEEE802154;
    mac->seq++; /* macDSN: one counter per interface, incremented per frame (§7.2.1.2) */
    return 0;
}

/**
 * Fill mac->mhr_lens: the MHR length of each addressing header_for() can
 * give (destination short or broadcast / extended, times source as the
 * interface header asks: short / other), from the wire codec. Called when
 * the short address (which decides the source) is set.
 */
static void mhr_lens_update(tern_ieee802154_link_t *mac)
{
    for (unsigned d = 0; d < 2u; d++) {
        for (unsigned s = 0; s < 2u; s++) {
            tern_netif_hdr_t nh = { 0 };
            nh.dst_len = (d == 0u) ? TERN_IEEE802154_SHORT_ADDR_LEN : TERN_IEEE802154_EXT_ADDR_LEN;
            nh.src_len = (s == 0u) ? TERN_IEEE802154_SHORT_ADDR_LEN : TERN_IEEE802154_EXT_ADDR_LEN;
            tern_ieee802154_repr_t repr;
            int len = (header_for(mac, &nh, &repr) == 0) ? tern_ieee802154_hdr_len(&repr) : -EINVAL;
            mac->mhr_lens[d][s] = (len > 0) ? (uint8_t)len : TERN_IEEE802154_MHR_MAX_LEN;
        }
    }
}

static int ieee802154_payload_max(const tern_netif_t *netif, const tern_netif_hdr_t *hdr)
{
    /* From the table of MHR lengths, not from the cached MHR: this runs on
     * the adaptation module's turn (another thread under the threaded
     * executor), the cache changes on the interface's. */
    const tern_ieee802154_link_t *mac = netif->link_ctx;
    if (mac == NULL || hdr == NULL) {
        return -EINVAL;
    }
    unsigned d; /* as in header_for(): broadcast and short destinations are short */
    if (hdr->dst_len == 0u || (hdr->flags & KEY_FLAGS) != 0u || hdr->dst_len == TERN_IEEE802154_SHORT_ADDR_LEN) {
        d = 0;
    } else if (hdr->dst_len == TERN_IEEE802154_EXT_ADDR_LEN) {
        d = 1;
    } else {
        return -EINVAL;
    }
    unsigned s = (hdr->src_len == TERN_IEEE802154_SHORT_ADDR_LEN) ? 0u : 1u;
    return (int)(frame_max(mac) - mac->mhr_lens[d][s]);
}

/* ------------------------------------------------------------ options */

static int ieee802154_get(tern_netif_t *netif, tern_netapi_opt_t *opt)
{
    const tern_ieee802154_link_t *mac = netif->link_ctx;
    switch (opt->opt) {
    case TERN_NETOPT_ADDRESS:
        if (opt->data_len < sizeof(mac->short_addr)) {
            return -EOVERFLOW;
        }
        memcpy(opt->data, mac->short_addr, sizeof(mac->short_addr));
        return (int)sizeof(mac->short_addr);
    case TERN_NETOPT_ADDRESS_LONG:
        if (opt->data_len < sizeof(mac->long_addr)) {
            return -EOVERFLOW;
        }
        memcpy(opt->data, mac->long_addr, sizeof(mac->long_addr));
        return (int)sizeof(mac->long_addr);
    case TERN_NETOPT_NID:
        return tern_netopt_put_u16(opt->data, opt->data_len, mac->pan_id);
    case TERN_NETOPT_CHANNEL:
        return tern_netopt_put_u16(opt->data, opt->data_len, mac->channel);
    case TERN_NETOPT_MAX_PDU_SIZE:
        return tern_netopt_put_u16(opt->data, opt->data_len, (uint16_t)frame_max(mac));
    case TERN_NETOPT_PROMISCUOUS:
        if (opt->data_len < 1u) {
            return -EOVERFLOW;
        }
        *(uint8_t *)opt->data = mac->promiscuous ? 1u : 0u;
        return 1;
    default:
        return -ENOTSUP;
    }
}

/** Read a uint16_t option of @p dev into @p out. @return 0; negative errno (then @p out is unchanged). */
static int device_get_u16(tern_netdev_t *dev, tern_netopt_t opt, uint16_t *out)
{
    uint16_t v = 0;
    int res = dev->driver->get(dev, opt, &v, sizeof(v));
    if (res < 0) {
        return res;
    }
    if (res != (int)sizeof(v)) {
        return -EINVAL;
    }
    *out = v;
    return 0;
}

static int ieee802154_set(tern_netif_t *netif, tern_netapi_opt_t *opt)
{
    tern_ieee802154_link_t *mac = netif->link_ctx;
    tern_netdev_t *dev = netif->dev;
    uint16_t v16 = 0;
    /* An address, the PAN ID or promiscuous mode may change what the filter
     * says of the last header taken up: the next frame is parsed afresh. */
    mac->rx_mhr_len = 0;
    switch (opt->opt) {
    case TERN_NETOPT_ADDRESS:
    case TERN_NETOPT_ADDRESS_LONG: {
        bool is_long = opt->opt == TERN_NETOPT_ADDRESS_LONG;
        size_t len = is_long ? sizeof(mac->long_addr) : sizeof(mac->short_addr);
        if (opt->data == NULL || opt->data_len != len) {
            return -EINVAL;
        }
        /* The device first: its filter decides what reaches us. */
        int res = dev->driver->set(dev, opt->opt, opt->data, opt->data_len);
        if (res < 0) {
            return res;
        }
        memcpy(is_long ? mac->long_addr : mac->short_addr, opt->data, len);
        mac->tx_mhr_len = 0; /* the cached MHR has the old source */
        mhr_lens_update(mac); /* a short address or none: the source's length */
        if (is_long) {
            memcpy(netif->l2addr, mac->long_addr, sizeof(mac->long_addr));
            netif->l2addr_len = (uint8_t)sizeof(mac->long_addr);
        }
        return (int)len;
    }
    case TERN_NETOPT_NID:
    case TERN_NETOPT_CHANNEL:
    case TERN_NETOPT_MAX_PDU_SIZE: {
        if (tern_netopt_take_u16(opt->data, opt->data_len, &v16) < 0) {
            return -EINVAL;
        }
        int res = dev->driver->set(dev, opt->opt, opt->data, opt->data_len);
        if (res < 0) {
            return res;
        }
        if (opt->opt == TERN_NETOPT_NID) {
            mac->pan_id = v16;
            mac->tx_mhr_len = 0; /* the cached MHR has the old PAN ID */
        } else if (opt->opt == TERN_NETOPT_CHANNEL) {
            mac->channel = v16;
        } else {
            /* The device may round or clamp: keep what it says now. */
            (void)device_get_u16(dev, TERN_NETOPT_MAX_PDU_SIZE, &mac->max_frame);
        }
        return res;
    }
    case TERN_NETOPT_PROMISCUOUS: {
        if (opt->data == NULL || opt->data_len != 1u) {
            return -EINVAL;
        }
        /* Our filter is ours; a device that filters too is told as well. */
        int res = dev->driver->set(dev, opt->opt, opt->data, opt->data_len);
        if (res < 0 && res != -ENOTSUP) {
            return res;
        }
        mac->promiscuous = (*(const uint8_t *)opt->data != 0u);
        return 1;
    }
    default:
        return -ENOTSUP;
    }
}

const tern_netif_link_t tern_netif_link_ieee802154 = {
    .name = "ieee802154",
    .recv = ieee802154_recv,
    .send = ieee802154_send,
    .get = ieee802154_get,
    .set = ieee802154_set,
    .tx_policy = &ieee802154_tx_policy,
    .payload_max = ieee802154_payload_max,
};

/* ------------------------------------------------------------ set-up */

int tern_ieee802154_netif_add(tern_stack_t *stack, tern_netif_t *netif, tern_ieee802154_link_t *mac,
                              const char *name, tern_netdev_t *dev)
{
    if (stack == NULL || netif == NULL || mac == NULL || name == NULL || dev == NULL || dev->driver == NULL) {
        return -EINVAL;
    }
    memset(mac, 0, sizeof(*mac));
    /* The copies are complete before the interface's first turn: no frame is
     * ever filtered or built with settings the device does not have. */
    if (dev->driver->get(dev, TERN_NETOPT_ADDRESS_LONG, mac->long_addr, sizeof(mac->long_addr)) !=
        (int)sizeof(mac->long_addr)) {
        return -EINVAL;
    }
    if (dev->driver->get(dev, TERN_NETOPT_ADDRESS, mac->short_addr, sizeof(mac->short_addr)) !=
        (int)sizeof(mac->short_addr)) {
        mac->short_addr[0] = 0xffu; /* none */
        mac->short_addr[1] = 0xffu;
    }
    mac->pan_id = TERN_IEEE802154_PAN_ID_BROADCAST;
    (void)device_get_u16(dev, TERN_NETOPT_NID, &mac->pan_id);
    (void)device_get_u16(dev, TERN_NETOPT_CHANNEL, &mac->channel);
    mac->max_frame = TERN_IEEE802154_MAX_FRAME_LEN;
    (void)device_get_u16(dev, TERN_NETOPT_MAX_PDU_SIZE, &mac->max_frame);
    /* macDSN starts at a random value (2006 Table 86); a hash of the extended
     * address (FNV-1a) differs between stations and repeats between runs. */
    uint32_t h = 2166136261u;
    for (unsigned i = 0; i < sizeof(mac->long_addr); i++) {
        h = (h ^ mac->long_addr[i]) * 16777619u;
    }
    mac->seq = (uint8_t)(h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24));
    mhr_lens_update(mac);

    int res = tern_netif_add_ctx(stack, netif, name, dev, &tern_netif_link_ieee802154, mac, TERN_NETTYPE_SIXLOWPAN);
    if (res < 0) {
        return res;
    }
    /* IPv6 derives its interface identifiers from the EUI-64 (RFC 4944 §6). */
    memcpy(netif->l2addr, mac->long_addr, sizeof(mac->long_addr));
    netif->l2addr_len = (uint8_t)sizeof(mac->long_addr);
    return 0;
}
