/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Reassembly of 6LoWPAN link fragments (RFC 4944 §5.3).
 *
 * Read first: RFC 4944 §5.3; the rules are listed in tern/sixlowpan/reass.h.
 *
 * Each slot holds its datagram in one pktbuf snip of datagram_size bytes,
 * taken when the first fragment arrives (the size is in every fragment
 * header, so the buffer never grows, unlike the IPv6 sibling's). What
 * arrived is kept as two bitmaps over the datagram's 8-octet units: the
 * units received, and the units where a received fragment starts. Every
 * fragment but the last starts and ends on a unit boundary (offsets count
 * units; §5.3 makes every other fragment a multiple of 8 long), and the last
 * one is the only one to end inside a unit, so the accepted fragments are
 * exactly the runs of received units that begin at a start mark. That tells
 * a duplicate (the same run again) from an overlap of another extent, which
 * RFC 4944 §5.3 treats differently, in 64 bytes per slot whatever the
 * number of fragments. Accepted fragments never overlap, so the datagram is
 * complete when the bytes received add up to datagram_size.
 *
 * Sharing with src/ipv6/reass.c: its byte-range list is private to it and
 * merges adjacent ranges, which cannot tell a duplicate from a different
 * extent; the rest of it is IPv6 (unfragmentable part, ICMPv6 errors).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/nettype.h"
#include "tern/pktbuf.h"
#include "tern/sixlowpan/reass.h"
#include "tern/stats.h"

#define UNIT 8u
#define TIMEOUT_US ((uint64_t)TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS * 1000u)

static const char *const reass_counter_names[TERN_SIXLOWPAN_REASS_STAT_NUMOF] = {
    [TERN_SIXLOWPAN_REASS_COMPLETE] = "complete",
    [TERN_SIXLOWPAN_REASS_DUPLICATE] = "duplicate",
    [TERN_SIXLOWPAN_REASS_OVERLAP] = "overlap",
    [TERN_SIXLOWPAN_REASS_SIZE_MISMATCH] = "size_mismatch",
    [TERN_SIXLOWPAN_REASS_INVALID] = "invalid",
    [TERN_SIXLOWPAN_REASS_NOMEM] = "nomem",
    [TERN_SIXLOWPAN_REASS_EVICTED] = "evicted",
    [TERN_SIXLOWPAN_REASS_TIMEOUT] = "timeout",
    [TERN_SIXLOWPAN_REASS_FLUSHED] = "flushed",
};

_Static_assert(TERN_SIXLOWPAN_REASS_UNITS % 8u == 0, "unit bitmaps are whole bytes");

static void count(tern_sixlowpan_reass_t *r, tern_sixlowpan_reass_stat_t which)
{
    tern_count(&r->counters[which]);
}

static bool bit(const uint8_t *map, size_t i)
{
    return ((map[i / 8u] >> (i % 8u)) & 1u) != 0;
}

/*
 * Units [@p first, @p last] of a bitmap (unit i: bit i % 8 of byte i / 8):
 * the bytes first / 8 to last / 8, the first one from bit first % 8 up
 * (from_mask()), the last one up to bit last % 8 (upto_mask()); a range
 * within one byte takes both masks. Each function goes over the bytes
 * once, the first one's mask widened to the whole byte after it.
 */
static unsigned from_mask(size_t first)
{
    return (0xFFu << (first % 8u)) & 0xFFu;
}

static unsigned upto_mask(size_t last)
{
    return 0xFFu >> (7u - last % 8u);
}

/* Is any unit of [@p first, @p last] set? (false for an empty range) */
static bool range_any(const uint8_t *map, size_t first, size_t last)
{
    if (first > last) {
        return false;
    }
    size_t end = last / 8u;
    unsigned mask = from_mask(first);
    for (size_t b = first / 8u; b < end; b++) {
        if ((map[b] & mask) != 0u) {
            return true;
        }
        mask = 0xFFu;
    }
    return (map[end] & mask & upto_mask(last)) != 0u;
}

/* Is every unit of [@p first, @p last] set? */
static bool range_all(const uint8_t *map, size_t first, size_t last)
{
    size_t end = last / 8u;
    unsigned mask = from_mask(first);
    for (size_t b = first / 8u; b < end; b++) {
        if ((map[b] & mask) != mask) {
            return false;
        }
        mask = 0xFFu;
    }
    mask &= upto_mask(last);
    return (map[end] & mask) == mask;
}

static void bit_set(uint8_t *map, size_t i)
{
    map[i / 8u] = (uint8_t)(map[i / 8u] | (1u << (i % 8u)));
}

static void range_set(uint8_t *map, size_t first, size_t last)
{
    size_t end = last / 8u;
    unsigned mask = from_mask(first);
    for (size_t b = first / 8u; b < end; b++) {
        map[b] = (uint8_t)(map[b] | mask);
        mask = 0xFFu;
    }
    map[end] = (uint8_t)(map[end] | (mask & upto_mask(last)));
}

/* Keys come from tern_sixlowpan_reass_key_set() (zero past the address
 * lengths; reass.h), so comparing every byte of the struct compares the
 * addresses as byte strings of their length. */
_Static_assert(sizeof(tern_sixlowpan_reass_key_t) == 2u * TERN_CONF_L2ADDR_MAX + 4u, "a key has no padding");

static bool key_equal(const tern_sixlowpan_reass_key_t *a, const tern_sixlowpan_reass_key_t *b)
{
    return memcmp(a, b, sizeof(*a)) == 0;
}

static void slot_free(tern_sixlowpan_reass_t *r, tern_sixlowpan_reass_slot_t *s)
{
    tern_pktbuf_release(r->pktbuf, s->data);
    memset(s, 0, sizeof(*s));
    r->deadline_gen++;
}

static tern_sixlowpan_reass_slot_t *slot_find(tern_sixlowpan_reass_t *r, const tern_sixlowpan_reass_key_t *key)
{
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_REASS_SLOTS; i++) {
        tern_sixlowpan_reass_slot_t *s = &r->slots[i];
        if (s->data != NULL && key_equal(&s->key, key)) {
            return s;
        }
    }
    return NULL;
}

/* A free slot, or the oldest one emptied (counted as evicted). */
static tern_sixlowpan_reass_slot_t *slot_take(tern_sixlowpan_reass_t *r)
{
    tern_sixlowpan_reass_slot_t *oldest = NULL;
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_REASS_SLOTS; i++) {
        tern_sixlowpan_reass_slot_t *s = &r->slots[i];
        if (s->data == NULL) {
            return s;
        }
        /* Every deadline is start + the same timeout: earliest deadline = oldest. */
        if (oldest == NULL || s->deadline_us < oldest->deadline_us) {
            oldest = s;
        }
    }
    /* config.h: new traffic wins over a datagram that may never complete. */
    count(r, TERN_SIXLOWPAN_REASS_EVICTED);
    slot_free(r, oldest);
    return oldest;
}

/* A fragment the header fields alone rule out (see reass.h). */
static bool fragment_valid(size_t size, size_t offset, size_t len)
{
    if (size == 0 || size > TERN_SIXLOWPAN_REASS_SIZE_MAX || len == 0 || offset % UNIT != 0 ||
        offset >= size || len > size - offset) {
        return false;
    }
    size_t end = offset + len;
    return end == size || end % UNIT == 0;
}

enum meets { MEETS_NONE, MEETS_DUPLICATE, MEETS_OVERLAP };

/* How the fragment [offset, offset + len) meets what @p s received. */
static enum meets fragment_meets(const tern_sixlowpan_reass_slot_t *s, size_t offset, size_t len)
{
    size_t first = offset / UNIT;
    size_t last = (offset + len - 1u) / UNIT;
    size_t units = ((size_t)s->size + UNIT - 1u) / UNIT;
    /* Fragments in order (the usual case) start where the received ones end. */
    if ((TERN_CONF_FAST_PATHS && first >= s->units_end) || !range_any(s->have, first, last)) {
        return MEETS_NONE;
    }
    bool all = range_all(s->have, first, last);
    bool inner_start = range_any(s->start, first + 1u, last);
    /* The same extent as one received fragment: a run of received units that
     * starts at a start mark, has none inside, and ends where the next
     * fragment starts, a gap begins, or the datagram ends. The end octet
     * needs no check: only a fragment ending at datagram_size ends inside a unit. */
    bool ends_there = last + 1u >= units || !bit(s->have, last + 1u) || bit(s->start, last + 1u);
    if (all && bit(s->start, first) && !inner_start && ends_there) {
        return MEETS_DUPLICATE;
    }
    return MEETS_OVERLAP;
}

int tern_sixlowpan_reass_init(tern_sixlowpan_reass_t *reass, tern_pktbuf_t *pktbuf)
{
    if (reass == NULL || pktbuf == NULL) {
        return -EINVAL;
    }
    memset(reass, 0, sizeof(*reass));
    reass->pktbuf = pktbuf;
    reass->stats.name = "6lo_reass";
    reass->stats.names = TERN_STATS_NAMES(reass_counter_names);
    reass->stats.values = reass->counters;
    reass->stats.count = TERN_SIXLOWPAN_REASS_STAT_NUMOF;
    return 0;
}

tern_pkt_t *tern_sixlowpan_reass_add(tern_sixlowpan_reass_t *reass, const tern_sixlowpan_reass_key_t *key,
                                     size_t datagram_size, size_t offset, const uint8_t *data, size_t len,
                                     uint64_t now_us)
{
    if (reass == NULL) {
        return NULL;
    }
    if (key == NULL || (data == NULL && len != 0) || key->src_len > TERN_CONF_L2ADDR_MAX ||
        key->dst_len > TERN_CONF_L2ADDR_MAX) {
        count(reass, TERN_SIXLOWPAN_REASS_INVALID);
        return NULL;
    }
    tern_sixlowpan_reass_slot_t *s = slot_find(reass, key);
    if (!fragment_valid(datagram_size, offset, len)) {
        /* Inconsistent with any datagram: the one it names goes too (reass.h). */
        count(reass, TERN_SIXLOWPAN_REASS_INVALID);
        if (s != NULL) {
            slot_free(reass, s);
        }
        return NULL;
    }
    if (s != NULL && s->size != datagram_size) {
        /* §5.3: another size under the same key: discard, start afresh with this fragment. */
        count(reass, TERN_SIXLOWPAN_REASS_SIZE_MISMATCH);
        slot_free(reass, s);
        s = NULL;
    }
    if (s != NULL) {
        switch (fragment_meets(s, offset, len)) {
        case MEETS_DUPLICATE:
            count(reass, TERN_SIXLOWPAN_REASS_DUPLICATE);
            return NULL;
        case MEETS_OVERLAP:
            /* §5.3: overlap with another size or offset: discard what was
             * accumulated; "a fresh reassembly may be commenced" with this one. */
            count(reass, TERN_SIXLOWPAN_REASS_OVERLAP);
            slot_free(reass, s);
            s = NULL;
            break;
        case MEETS_NONE:
            break;
        }
    }
    if (s == NULL) {
        s = slot_take(reass);
        s->data = tern_pktbuf_add(reass->pktbuf, NULL, NULL, datagram_size, TERN_NETTYPE_IPV6);
        if (s->data == NULL) {
            count(reass, TERN_SIXLOWPAN_REASS_NOMEM);
            memset(s, 0, sizeof(*s));
            return NULL;
        }
        s->key = *key;
        s->size = (uint16_t)datagram_size;
        /* §5.3: the reassembly timer starts with the first fragment. */
        s->deadline_us = (now_us > UINT64_MAX - TIMEOUT_US) ? UINT64_MAX : now_us + TIMEOUT_US;
        reass->deadline_gen++;
    }
    memcpy((uint8_t *)s->data->data + offset, data, len);
    size_t first = offset / UNIT;
    size_t last = (offset + len - 1u) / UNIT;
    bit_set(s->start, first);
    range_set(s->have, first, last);
    if (TERN_CONF_FAST_PATHS && last >= s->units_end) {
        s->units_end = (uint16_t)(last + 1u);
    }
    s->received = (uint16_t)(s->received + len);
    if (s->received != s->size) {
        return NULL;
    }
    tern_pkt_t *whole = s->data;
    s->data = NULL;
    memset(s, 0, sizeof(*s));
    reass->deadline_gen++;
    count(reass, TERN_SIXLOWPAN_REASS_COMPLETE);
    return whole;
}

uint64_t tern_sixlowpan_reass_next_deadline(const tern_sixlowpan_reass_t *reass)
{
    uint64_t next = UINT64_MAX;
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_REASS_SLOTS; i++) {
        const tern_sixlowpan_reass_slot_t *s = &reass->slots[i];
        if (s->data != NULL && s->deadline_us < next) {
            next = s->deadline_us;
        }
    }
    return next;
}

uint64_t tern_sixlowpan_reass_expire(tern_sixlowpan_reass_t *reass, uint64_t now_us)
{
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_REASS_SLOTS; i++) {
        tern_sixlowpan_reass_slot_t *s = &reass->slots[i];
        if (s->data != NULL && s->deadline_us <= now_us) {
            /* §5.3: "the existing fragments MUST be discarded and the
             * reassembly state MUST be flushed". */
            count(reass, TERN_SIXLOWPAN_REASS_TIMEOUT);
            slot_free(reass, s);
        }
    }
    return tern_sixlowpan_reass_next_deadline(reass);
}

size_t tern_sixlowpan_reass_count(const tern_sixlowpan_reass_t *reass)
{
    size_t n = 0;
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_REASS_SLOTS; i++) {
        n += (reass->slots[i].data != NULL) ? 1u : 0u;
    }
    return n;
}

size_t tern_sixlowpan_reass_flush(tern_sixlowpan_reass_t *reass)
{
    size_t n = 0;
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_REASS_SLOTS; i++) {
        tern_sixlowpan_reass_slot_t *s = &reass->slots[i];
        if (s->data != NULL) {
            count(reass, TERN_SIXLOWPAN_REASS_FLUSHED);
            slot_free(reass, s);
            n++;
        }
    }
    return n;
}
