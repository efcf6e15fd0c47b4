/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Reassembly of received IPv6 fragments (RFC 8200 §4.5).
 *
 * Read first: RFC 8200 §4.5 (reassembly rules, errors, 60 s timeout),
 * RFC 5722 (overlapping fragments: discard the whole datagram), RFC 6946
 * (atomic fragments are processed alone), RFC 7112 (the first fragment
 * carries the whole header chain). State: tern/ipv6/frag.h.
 *
 * A datagram is a slot keyed by (source, destination, Identification). The
 * fragmentable part is one pktbuf snip as long as the highest fragment end
 * seen so far, grown in place with tern_pktbuf_realloc_data() as fragments
 * arrive in order (it is allocated after the unfragmentable part, so that
 * free space follows it); a few merged byte ranges record what arrived. A
 * fragment inside a received range whose bytes equal those received is an
 * exact duplicate and is dropped alone (§4.5 allows it); any other overlap
 * discards the datagram, and the slot stays "dead" until its deadline so
 * that later fragments of it are dropped too (RFC 5722 §4).
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/wire/icmpv6.h"

static void slot_free(tern_ipv6_t *ip, tern_ipv6_reass_slot_t *s)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tern_pktbuf_release(pb, s->unfrag);
    tern_pktbuf_release(pb, s->data);
    memset(s, 0, sizeof(*s));
}

/* Discard the datagram but keep the key until the deadline (RFC 5722 §4). */
static void slot_kill(tern_ipv6_t *ip, tern_ipv6_reass_slot_t *s)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tern_pktbuf_release(pb, s->unfrag);
    tern_pktbuf_release(pb, s->data);
    s->unfrag = s->data = NULL;
    s->dead = true;
}

/* The slot of (src, dst, id), or a new one (a free or dead slot, else the oldest, evicted). */
static tern_ipv6_reass_slot_t *slot_find(tern_ipv6_t *ip, const tern_ipv6_repr_t *hdr, uint32_t id,
                                         uint16_t if_index)
{
    tern_ipv6_reass_slot_t *pick = NULL;
    for (size_t i = 0; i < TERN_CONF_IPV6_REASS_SLOTS; i++) {
        tern_ipv6_reass_slot_t *s = &ip->frag.slots[i];
        if (s->used && s->identification == id && tern_ipv6_addr_equal(&s->src, &hdr->src) &&
            tern_ipv6_addr_equal(&s->dst, &hdr->dst)) {
            return s;
        }
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_REASS_SLOTS; i++) {
        tern_ipv6_reass_slot_t *s = &ip->frag.slots[i];
        if (!s->used) {
            pick = s;
            break;
        }
        /* Dead slots first (nothing is lost), then the earliest deadline (the oldest). */
        if (pick == NULL || (s->dead && !pick->dead) ||
            (s->dead == pick->dead && s->deadline_us < pick->deadline_us)) {
            pick = s;
        }
    }
    if (pick->used) {
        if (!pick->dead) {
            ipv6_count(ip, TERN_IPV6_REASS_EVICTED); /* config.h: the new datagram wins */
        }
        slot_free(ip, pick);
    }
    pick->used = true;
    pick->src = hdr->src;
    pick->dst = hdr->dst;
    pick->identification = id;
    pick->if_index = if_index;
    pick->deadline_us = ipv6_now(ip) + (uint64_t)TERN_CONF_IPV6_REASS_TIMEOUT_S * 1000000u;
    return pick;
}

/* Make room for @p end bytes of data. @return 0 or -ENOMEM. */
static int slot_grow(tern_pktbuf_t *pb, tern_ipv6_reass_slot_t *s, size_t end)
{
    if (s->data == NULL) {
        s->data = tern_pktbuf_add(pb, NULL, NULL, end, TERN_NETTYPE_UNDEF);
        return (s->data != NULL) ? 0 : -ENOMEM;
    }
    if (end > s->data->size && tern_pktbuf_realloc_data(pb, s->data, end) < 0) {
        return -ENOMEM;
    }
    return 0;
}

/* How [start, end) meets the received ranges: 0 nowhere; 1 inside one; -1 partly. */
static int range_meets(const tern_ipv6_reass_slot_t *s, size_t start, size_t end)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_REASS_RANGES; i++) {
        size_t a = s->range_start[i], b = s->range_end[i];
        if (a < b && start < b && a < end) {
            return (a <= start && end <= b) ? 1 : -1;
        }
    }
    return 0;
}

/* Record [start, end) (meeting no range), merged with adjacent ones. @return 0 or -ENOMEM (no entry). */
static int range_add(tern_ipv6_reass_slot_t *s, size_t start, size_t end)
{
    size_t freed = TERN_CONF_IPV6_REASS_RANGES;
    for (size_t i = 0; i < TERN_CONF_IPV6_REASS_RANGES; i++) {
        size_t a = s->range_start[i], b = s->range_end[i];
        if (a < b && (b == start || a == end)) {
            start = (a < start) ? a : start;
            end = (b > end) ? b : end;
            s->range_start[i] = s->range_end[i] = 0; /* absorbed */
        }
        if (s->range_start[i] == s->range_end[i] && freed == TERN_CONF_IPV6_REASS_RANGES) {
            freed = i;
        }
    }
    if (freed == TERN_CONF_IPV6_REASS_RANGES) {
        return -ENOMEM;
    }
    s->range_start[freed] = (uint16_t)start;
    s->range_end[freed] = (uint16_t)end;
    return 0;
}

/* Drop a fragment, counting @p counter. @return NULL. */
static tern_pkt_t *drop(tern_ipv6_t *ip, tern_pkt_t *pkt, unsigned counter)
{
    ipv6_count(ip, counter);
    tern_pktbuf_release(ipv6_pktbuf(ip), pkt);
    return NULL;
}

/*
 * Turn [payload, IPV6, NETIF] where the payload starts with the
 * unfragmentable extension headers (@p ext_len bytes) and the Fragment
 * header into [data, IPV6_EXT?, IPV6, NETIF] without the Fragment header:
 * the field at @p nh_field names @p next_header, the Payload Length shrinks
 * by 8. Used for atomic fragments. @return the data snip, or NULL (released).
 */
static tern_pkt_t *strip_fragment_header(tern_ipv6_t *ip, tern_pkt_t *pkt, tern_ipv6_repr_t *hdr,
                                         size_t ext_len, uint16_t nh_field, uint8_t next_header)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tern_pkt_t *ext = tern_pktbuf_mark(pb, pkt, ext_len + TERN_IPV6_FRAG_HDR_LEN, TERN_NETTYPE_IPV6_EXT);
    if (ext == NULL) {
        return drop(ip, pkt, TERN_IPV6_REASS_NOMEM);
    }
    tern_pkt_t *ip_snip = ext->next;
    if (ext_len == 0) {
        pkt = tern_pktbuf_remove_snip(pb, pkt, ext);
    } else {
        (void)tern_pktbuf_realloc_data(pb, ext, ext_len); /* shrinking: cannot fail */
        uint8_t *e = ext->data;
        e[nh_field - TERN_IPV6_HDR_LEN] = next_header; /* generic format: Next Header first (§4) */
    }
    hdr->payload_len = (uint16_t)(hdr->payload_len - TERN_IPV6_FRAG_HDR_LEN);
    if (ext_len == 0) {
        hdr->next_header = next_header;
    }
    (void)tern_ipv6_emit(hdr, ip_snip->data, ip_snip->size);
    hdr->next_header = next_header; /* where the caller's walk starts */
    return pkt;
}

/* Time Exceeded code 1 about @p s's first fragment, rebuilt from the slot (RFC 8200 §4.5). */
static void time_exceeded(tern_ipv6_t *ip, tern_ipv6_reass_slot_t *s)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    /* Only what RFC 4443 §2.4 (c) can quote is rebuilt (1280 - IPv6 - ICMPv6 headers). */
    size_t room = TERN_IPV6_MIN_MTU - TERN_IPV6_HDR_LEN - TERN_ICMPV6_FIXED_LEN;
    size_t before = s->unfrag->size + TERN_IPV6_FRAG_HDR_LEN;
    room = (room > before) ? room - before : 0u;
    size_t quote = (s->first_len < room) ? s->first_len : room;
    tern_pkt_t *body = tern_pktbuf_add(pb, NULL, NULL, TERN_IPV6_FRAG_HDR_LEN + quote, TERN_NETTYPE_IPV6_EXT);
    tern_pkt_t *nif = tern_netif_hdr_build(pb, NULL, NULL, 0, NULL, 0);
    if (body == NULL || nif == NULL) {
        ipv6_count(ip, TERN_IPV6_TX_NOMEM);
        tern_pktbuf_release(pb, body);
        tern_pktbuf_release(pb, nif);
        return;
    }
    tern_ipv6_frag_repr_t f = { .next_header = s->next_header, .offset = 0, .more = true,
                                .identification = s->identification };
    uint8_t *b = body->data;
    (void)tern_ipv6_frag_emit(&f, b, TERN_IPV6_FRAG_HDR_LEN);
    memcpy(b + TERN_IPV6_FRAG_HDR_LEN, s->data->data, quote);
    ((tern_netif_hdr_t *)nif->data)->if_index = s->if_index;
    /* The datagram goes before the error message is built (pktbuf room). */
    tern_pktbuf_release(pb, s->data);
    s->data = NULL;
    /* The unfragmentable part, as it came, is one snip (IPV6): ICMPv6 quotes it in wire order. */
    body->next = s->unfrag;
    s->unfrag->next = nif;
    s->unfrag = NULL;
    ipv6_icmpv6_error(ip, body, TERN_ICMPV6_TIME_EXCEEDED, TERN_ICMPV6_TIME_EXCEEDED_REASSEMBLY, 0);
}

/* All of [0, total) received? (Then the ranges have merged into one.) */
static bool complete(const tern_ipv6_reass_slot_t *s)
{
    return s->total != 0 && s->have_first && range_meets(s, 0, s->total) == 1;
}

/* The datagram of @p s is whole: build [data, IPV6_EXT?, IPV6, @p netif]. */
static tern_pkt_t *deliver(tern_ipv6_t *ip, tern_ipv6_reass_slot_t *s, tern_pkt_t *netif,
                           tern_ipv6_repr_t *hdr)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tern_pkt_t *unfrag = s->unfrag;
    size_t ext_len = unfrag->size - TERN_IPV6_HDR_LEN;
    tern_ipv6_repr_t h;
    (void)tern_ipv6_parse(&h, unfrag->data, unfrag->size); /* parsed when the first fragment came */
    /* §4.5: Payload Length of the reassembled packet, without the Fragment
     * header; the header that named it now names what followed it. */
    h.payload_len = (uint16_t)(ext_len + s->total);
    uint8_t *u = unfrag->data;
    if (s->nh_field == 6u) {
        h.next_header = s->next_header;
    } else {
        u[s->nh_field] = s->next_header;
    }
    (void)tern_ipv6_emit(&h, unfrag->data, TERN_IPV6_HDR_LEN);
    if (ext_len > 0) {
        if (tern_pktbuf_mark(pb, unfrag, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6) == NULL) {
            ipv6_count(ip, TERN_IPV6_REASS_NOMEM);
            slot_free(ip, s);
            return NULL;
        }
        unfrag->type = TERN_NETTYPE_IPV6_EXT;
        unfrag->next->next = netif;
    } else {
        unfrag->next = netif;
    }
    (void)tern_pktbuf_hold(pb, netif, 1);
    tern_pkt_t *data = s->data;
    data->next = unfrag;
    s->unfrag = s->data = NULL;
    slot_free(ip, s);
    *hdr = h; /* the caller sets next_header to the first fragmentable header */
    return data;
}

tern_pkt_t *ipv6_reass_receive(tern_ipv6_t *ip, tern_pkt_t *pkt, tern_ipv6_repr_t *hdr, size_t frag_offset,
                               uint16_t nh_field, bool tentative)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tern_ipv6_frag_repr_t f;
    const uint8_t *p = pkt->data;
    if (tentative || tern_ipv6_frag_parse(&f, p + frag_offset, pkt->size - frag_offset) < 0) {
        /* RFC 4862 §5.4: a tentative address takes NS and NA only. */
        return drop(ip, pkt, TERN_IPV6_REASS_INVALID);
    }
    size_t data_off = frag_offset + TERN_IPV6_FRAG_HDR_LEN;
    size_t len = pkt->size - data_off;
    size_t start = (size_t)f.offset * 8u;
    size_t end = start + len;
    if (f.offset == 0 && !f.more) {
        /* RFC 6946 §4: an atomic fragment is a whole packet; no reassembly state. */
        if (len == 0) {
            return drop(ip, pkt, TERN_IPV6_REASS_INVALID);
        }
        ipv6_count(ip, TERN_IPV6_REASS_ATOMIC);
        return strip_fragment_header(ip, pkt, hdr, frag_offset, nh_field, f.next_header);
    }
    if (f.more && len % 8u != 0) {
        /* §4.5: not a multiple of 8 and M = 1: Parameter Problem code 0 at Payload Length. */
        ipv6_count(ip, TERN_IPV6_REASS_INVALID);
        ipv6_icmpv6_error(ip, pkt, TERN_ICMPV6_PARAM_PROBLEM, TERN_ICMPV6_PARAM_PROBLEM_HEADER_FIELD, 4);
        return NULL;
    }
    if (frag_offset + end > 0xFFFFu) {
        /* §4.5: the reassembled Payload Length would pass 65535: code 0 at Fragment Offset. */
        ipv6_count(ip, TERN_IPV6_REASS_INVALID);
        ipv6_icmpv6_error(ip, pkt, TERN_ICMPV6_PARAM_PROBLEM, TERN_ICMPV6_PARAM_PROBLEM_HEADER_FIELD,
                          (uint32_t)(TERN_IPV6_HDR_LEN + frag_offset + 2u));
        return NULL;
    }
    if (len == 0) {
        return drop(ip, pkt, TERN_IPV6_REASS_INVALID); /* carries nothing */
    }
    if (f.offset == 0) {
        /* RFC 7112 §5, RFC 8200 §4.5: the first fragment holds the whole
         * header chain up to the upper-layer header, else code 3. */
        tern_ipv6_ext_walk_t walk;
        tern_ipv6_ext_t ext;
        int r;
        tern_ipv6_ext_walk_init(&walk, p + data_off, len, f.next_header);
        while ((r = tern_ipv6_ext_walk_next(&walk, &ext)) > 0) {
        }
        if (r < 0) {
            ipv6_count(ip, TERN_IPV6_REASS_INVALID);
            ipv6_icmpv6_error(ip, pkt, TERN_ICMPV6_PARAM_PROBLEM, 3u, 0);
            return NULL;
        }
    }
    tern_netif_hdr_t *nhdr = tern_netif_hdr_get(pkt);
    tern_ipv6_reass_slot_t *s = slot_find(ip, hdr, f.identification, nhdr->if_index);
    if (s->dead) {
        return drop(ip, pkt, TERN_IPV6_REASS_OVERLAP); /* RFC 5722 §4: and those not yet received */
    }
    /* The last fragment fixes the length; nothing may lie beyond it, and it must not change. */
    if ((!f.more && ((s->total != 0 && s->total != end) || (s->data != NULL && s->data->size > end))) ||
        (f.more && s->total != 0 && end > s->total)) {
        ipv6_count(ip, TERN_IPV6_REASS_INVALID);
        slot_kill(ip, s);
        return drop(ip, pkt, TERN_IPV6_REASS_INVALID);
    }
    /* Overlap (RFC 5722) or exact duplicate (RFC 8200 §4.5)? */
    int meets = range_meets(s, start, end);
    if (meets != 0) {
        if (meets > 0 && memcmp((uint8_t *)s->data->data + start, p + data_off, len) == 0) {
            return drop(ip, pkt, TERN_IPV6_REASS_DUPLICATE);
        }
        slot_kill(ip, s);
        return drop(ip, pkt, TERN_IPV6_REASS_OVERLAP);
    }
    if (range_add(s, start, end) < 0) {
        slot_free(ip, s);
        return drop(ip, pkt, TERN_IPV6_REASS_NOMEM);
    }
    /* The unfragmentable part first: allocated before the data, it does not
     * stand in the way of the data growing in place. */
    if (f.offset == 0) {
        /* §4.5: the unfragmentable part of the reassembled packet is the first fragment's. */
        tern_pkt_t *ip_snip = pkt->next;
        tern_pkt_t *unfrag = tern_pktbuf_add(pb, NULL, NULL, TERN_IPV6_HDR_LEN + frag_offset, TERN_NETTYPE_IPV6);
        if (unfrag == NULL) {
            slot_free(ip, s);
            return drop(ip, pkt, TERN_IPV6_REASS_NOMEM);
        }
        uint8_t *u = unfrag->data;
        memcpy(u, ip_snip->data, TERN_IPV6_HDR_LEN);
        memcpy(u + TERN_IPV6_HDR_LEN, p, frag_offset);
        s->unfrag = unfrag;
        s->have_first = true;
        s->first_len = (uint16_t)len;
        s->next_header = f.next_header;
        s->nh_field = nh_field;
    }
    if (slot_grow(pb, s, end) < 0) {
        slot_free(ip, s);
        return drop(ip, pkt, TERN_IPV6_REASS_NOMEM);
    }
    if (!f.more) {
        s->total = (uint32_t)end;
    }
    memcpy((uint8_t *)s->data->data + start, p + data_off, len);
    if (!complete(s)) {
        tern_pktbuf_release(pb, pkt);
        return NULL;
    }
    tern_pkt_t *netif = pkt;
    while (netif != NULL && netif->type != TERN_NETTYPE_NETIF) {
        netif = netif->next;
    }
    uint8_t next_header = s->next_header;
    tern_pkt_t *whole = (netif != NULL) ? deliver(ip, s, netif, hdr) : NULL;
    tern_pktbuf_release(pb, pkt);
    if (whole == NULL) {
        if (netif == NULL) {
            slot_free(ip, s);
            ipv6_count(ip, TERN_IPV6_REASS_INVALID);
        }
        return NULL;
    }
    hdr->next_header = next_header;
    ipv6_count(ip, TERN_IPV6_REASS_OK);
    return whole;
}

uint64_t ipv6_reass_next_deadline(const tern_ipv6_t *ip)
{
    uint64_t next = UINT64_MAX;
    for (size_t i = 0; i < TERN_CONF_IPV6_REASS_SLOTS; i++) {
        const tern_ipv6_reass_slot_t *s = &ip->frag.slots[i];
        if (s->used && s->deadline_us < next) {
            next = s->deadline_us;
        }
    }
    return next;
}

void ipv6_reass_tick(tern_ipv6_t *ip, uint64_t now_us)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_REASS_SLOTS; i++) {
        tern_ipv6_reass_slot_t *s = &ip->frag.slots[i];
        if (!s->used || s->deadline_us > now_us) {
            continue;
        }
        if (!s->dead) {
            /* §4.5: Time Exceeded code 1 only if the first fragment arrived. */
            ipv6_count(ip, TERN_IPV6_REASS_TIMEOUT);
            if (s->have_first && s->data != NULL && s->unfrag != NULL) {
                time_exceeded(ip, s);
            }
        }
        slot_free(ip, s);
    }
}
