/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Reassembly of 6LoWPAN link fragments (RFC 4944 §5.3): a bounded
 *        table of datagrams in progress, each one pktbuf snip.
 *
 * Read first: RFC 4944 §5.3 (fragment headers, reassembly key, overlap rule,
 * timeout), RFC 6282 §2 (datagram_size and datagram_offset count the
 * datagram before compression). docs/SIXLOWPAN.md, "Reassembly", gives the
 * reasoning; src/ipv6/reass.c is the IPv6 sibling.
 *
 * The module knows nothing of frames or compression. Its owner (the 6LoWPAN
 * layer) parses the fragment header, decompresses the headers a FRAG1
 * carries, and hands each fragment over as (key, datagram_size, offset in
 * the uncompressed datagram, bytes): a FRAG1 at offset 0 with its
 * uncompressed headers and payload, a FRAGN at datagram_offset * 8. When the
 * last missing piece arrives, the module returns the whole datagram.
 *
 * Rules (each drop counted, see tern_sixlowpan_reass_stat_t):
 * - A datagram is identified by (link source, link destination,
 *   datagram_tag) and must keep its datagram_size (RFC 4944 §5.3: sender,
 *   destination, size and tag; the originator and final addresses of a mesh
 *   header replace the link ones). A fragment that names the same (source,
 *   destination, tag) with another size discards the datagram, and a fresh
 *   reassembly starts with that fragment (§5.3: "A fresh reassembly may be
 *   commenced with the most recently received link fragment").
 * - A fragment is the same piece again (a duplicate) when it covers exactly
 *   the extent of one received fragment: it is ignored. Any other overlap
 *   discards the datagram and restarts it with the new fragment (§5.3).
 * - A fragment that cannot be part of a datagram (empty, datagram_size 0 or
 *   above 2047, offset not a multiple of 8, extending beyond datagram_size,
 *   or ending before it at an offset that is not a multiple of 8, which §5.3
 *   rules out: "all link fragments for a datagram except the last one MUST
 *   be multiples of eight bytes") is dropped, and the datagram its (source,
 *   destination, tag) names, if any, is discarded with it.
 * - The buffer, datagram_size bytes of pktbuf, is taken when the first
 *   fragment of a datagram arrives; if the pktbuf has no room the fragment
 *   is dropped (nothing is evicted for it).
 * - The timer starts with the first fragment (§5.3); at the deadline an
 *   incomplete datagram is discarded.
 * - Table full: the new datagram evicts the oldest one (earliest start).
 *
 * Not thread-safe: the owning module calls every function from its handler.
 * The pktbuf takes its own lock.
 */
#ifndef TERN_SIXLOWPAN_REASS_H
#define TERN_SIXLOWPAN_REASS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/config.h"
#include "tern/pkt.h"
#include "tern/pktbuf.h"
#include "tern/stats.h"

/** Largest datagram_size accepted (11 bits, RFC 4944 §5.3; TERN_CONF_SIXLOWPAN_REASS_SIZE_MAX). */
#define TERN_SIXLOWPAN_REASS_SIZE_MAX TERN_CONF_SIXLOWPAN_REASS_SIZE_MAX
/** 8-octet units of the largest datagram, rounded up to whole bytes of bitmap: one bit each in a slot's bitmaps. */
#define TERN_SIXLOWPAN_REASS_UNITS ((TERN_SIXLOWPAN_REASS_SIZE_MAX + 63u) / 64u * 8u)

/** Counters of a reassembly table (tern_sixlowpan_reass_t::counters). */
typedef enum {
    TERN_SIXLOWPAN_REASS_COMPLETE,      /**< datagrams reassembled and returned */
    TERN_SIXLOWPAN_REASS_DUPLICATE,     /**< fragments ignored: same extent as a received one */
    TERN_SIXLOWPAN_REASS_OVERLAP,       /**< datagrams discarded: a fragment overlapped with another extent */
    TERN_SIXLOWPAN_REASS_SIZE_MISMATCH, /**< datagrams discarded: same source, destination, tag, other datagram_size */
    TERN_SIXLOWPAN_REASS_INVALID,       /**< fragments dropped: empty, bad size/offset, past the end, misaligned */
    TERN_SIXLOWPAN_REASS_NOMEM,         /**< fragments dropped: no pktbuf for a new datagram */
    TERN_SIXLOWPAN_REASS_EVICTED,       /**< datagrams discarded: table full, the oldest made room */
    TERN_SIXLOWPAN_REASS_TIMEOUT,       /**< datagrams discarded: not complete at their deadline */
    TERN_SIXLOWPAN_REASS_FLUSHED,       /**< datagrams discarded by tern_sixlowpan_reass_flush() */
    TERN_SIXLOWPAN_REASS_STAT_NUMOF
} tern_sixlowpan_reass_stat_t;

/**
 * What identifies a datagram besides its size: the link (or mesh originator
 * and final) addresses and the tag (RFC 4944 §5.3). Keys are compared byte
 * for byte, the address bytes past their lengths too, so that the addresses
 * compare as byte strings of their length: fill the struct with
 * tern_sixlowpan_reass_key_set() (or zero it first).
 */
typedef struct {
    uint8_t src[TERN_CONF_L2ADDR_MAX]; /**< sender's link address (or mesh originator) */
    uint8_t dst[TERN_CONF_L2ADDR_MAX]; /**< destination's link address (or mesh final destination) */
    uint8_t src_len;                   /**< bytes of @ref src used */
    uint8_t dst_len;                   /**< bytes of @ref dst used */
    uint16_t tag;                      /**< datagram_tag */
} tern_sixlowpan_reass_key_t;

/** One datagram in progress. Private to reass.c. */
typedef struct {
    tern_pkt_t *data;                /**< the datagram, datagram_size bytes; NULL: slot free */
    /* size and received fill what a 32-bit target pads before the deadline,
     * units_end the pair of bytes the bitmaps leave of the last 8. */
    uint16_t size;                   /**< datagram_size */
    uint16_t received;               /**< bytes received (fragments never overlap) */
    uint64_t deadline_us;            /**< first fragment + TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS */
    tern_sixlowpan_reass_key_t key;
    /** The end of the furthest fragment received, in units: every received
     *  unit lies below, so a fragment from here on meets none. */
    uint16_t units_end;
    uint8_t have[TERN_SIXLOWPAN_REASS_UNITS / 8u];  /**< 8-octet units received */
    uint8_t start[TERN_SIXLOWPAN_REASS_UNITS / 8u]; /**< units where a received fragment starts */
} tern_sixlowpan_reass_slot_t;

/** A reassembly table. Set up with tern_sixlowpan_reass_init(); fields are private but @ref counters. */
typedef struct {
    tern_pktbuf_t *pktbuf;                                           /**< where datagrams live */
    /** Bumped whenever a datagram starts or ends (its deadline enters or
     *  leaves the table): while it is unchanged, so is
     *  tern_sixlowpan_reass_next_deadline(). (Here, where a 32-bit target
     *  has padding before the slots' 64-bit deadlines.) */
    uint32_t deadline_gen;
    tern_sixlowpan_reass_slot_t slots[TERN_CONF_SIXLOWPAN_REASS_SLOTS];
    tern_counter_t counters[TERN_SIXLOWPAN_REASS_STAT_NUMOF];              /**< indexed by tern_sixlowpan_reass_stat_t */
    tern_stats_group_t stats;                                        /**< "6lo_reass", for tern_stack_add_stats() */
} tern_sixlowpan_reass_t;

/**
 * Set up an empty table whose datagrams live in @p pktbuf. Also fills
 * @ref tern_sixlowpan_reass_t::stats (group "6lo_reass") for the owner to register.
 * @return 0; -EINVAL for a NULL pointer.
 */
int tern_sixlowpan_reass_init(tern_sixlowpan_reass_t *reass, tern_pktbuf_t *pktbuf);

/*
 * @p len bytes of an address into a key. The lengths of 802.15.4 (8, 2) as
 * copies of a constant size, which the compiler turns into a move or two.
 */
static inline void tern_sixlowpan_reass_key_addr_(uint8_t *to, const uint8_t *from, size_t len)
{
    switch (len) {
    case 0:
        break;
#if TERN_CONF_L2ADDR_MAX >= 8
    case 8:
        memcpy(to, from, 8);
        break;
#endif
    case 2:
        memcpy(to, from, 2);
        break;
    default:
        memcpy(to, from, len);
        break;
    }
}

/**
 * Fill @p key (zeroing it first). Inline: the 6LoWPAN layer builds a key
 * for every fragment it receives.
 * @return 0; -EINVAL for a NULL key, an address longer than
 *         TERN_CONF_L2ADDR_MAX, or a NULL address with a nonzero length.
 */
static inline int tern_sixlowpan_reass_key_set(tern_sixlowpan_reass_key_t *key, const uint8_t *src, size_t src_len,
                                               const uint8_t *dst, size_t dst_len, uint16_t tag)
{
    if (key == NULL || src_len > TERN_CONF_L2ADDR_MAX || dst_len > TERN_CONF_L2ADDR_MAX ||
        (src == NULL && src_len != 0) || (dst == NULL && dst_len != 0)) {
        return -EINVAL;
    }
    memset(key, 0, sizeof(*key));
    tern_sixlowpan_reass_key_addr_(key->src, src, src_len);
    tern_sixlowpan_reass_key_addr_(key->dst, dst, dst_len);
    key->src_len = (uint8_t)src_len;
    key->dst_len = (uint8_t)dst_len;
    key->tag = tag;
    return 0;
}

/**
 * Add one fragment, following the rules in the file comment.
 *
 * @param[in,out] reass          the table
 * @param[in]     key            source, destination, tag of the fragment
 * @param[in]     datagram_size  the fragment header's datagram_size (uncompressed octets)
 * @param[in]     offset         where @p data goes in the uncompressed datagram,
 *                               in octets: 0 for a FRAG1, datagram_offset * 8 for a FRAGN
 * @param[in]     data           the fragment's bytes (a FRAG1: after decompression); copied
 * @param[in]     len            their number
 * @param[in]     now_us         the current time (microseconds, the stack's clock)
 * @return the whole datagram when this fragment completed it: one snip of
 *         type TERN_NETTYPE_IPV6, datagram_size bytes, next NULL, owned by the
 *         caller (ready for a NETIF snip behind it and for marking its
 *         headers); NULL otherwise (kept, or dropped and counted; also for a
 *         NULL @p reass, @p key or @p data with a nonzero @p len, counted as invalid
 *         when @p reass is not NULL).
 * @see RFC 4944 §5.3
 */
tern_pkt_t *tern_sixlowpan_reass_add(tern_sixlowpan_reass_t *reass, const tern_sixlowpan_reass_key_t *key,
                                     size_t datagram_size, size_t offset, const uint8_t *data, size_t len,
                                     uint64_t now_us);

/**
 * Discard every datagram whose deadline is at or before @p now_us (counted
 * as timeout). Call it when the owner's timer fires, then arm the timer for
 * the returned deadline.
 * @return the earliest remaining deadline, UINT64_MAX when the table is empty.
 */
uint64_t tern_sixlowpan_reass_expire(tern_sixlowpan_reass_t *reass, uint64_t now_us);

/** The earliest deadline in the table; UINT64_MAX when it is empty. */
uint64_t tern_sixlowpan_reass_next_deadline(const tern_sixlowpan_reass_t *reass);

/** Datagrams in progress. */
size_t tern_sixlowpan_reass_count(const tern_sixlowpan_reass_t *reass);

/**
 * Discard every datagram in progress (counted as flushed), e.g. when the
 * interface goes down or the owner stops.
 * @return the number discarded.
 */
size_t tern_sixlowpan_reass_flush(tern_sixlowpan_reass_t *reass);

#endif /* TERN_SIXLOWPAN_REASS_H */
