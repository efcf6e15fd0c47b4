/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief State of IPv6 fragmentation and reassembly (RFC 8200 §4.5), part of
 *        the IPv6 module (tern_ipv6_t::frag); the logic is in src/ipv6/frag.c
 *        and src/ipv6/reass.c.
 *
 * Read first: RFC 8200 §4.5, RFC 5722 (overlapping fragments), RFC 6946
 * (atomic fragments), RFC 7112 (first fragment holds the header chain).
 *
 * Each reassembly slot keeps, in the stack's pktbuf: the unfragmentable
 * part of the first fragment (IPv6 header and the headers before the
 * Fragment header) and the fragmentable part received so far (one snip,
 * grown with tern_pktbuf_realloc_data() as higher offsets arrive). Which
 * bytes arrived is a short list of received ranges in the slot (adjacent
 * ones merged: in-order or reverse-order delivery keeps one range); a
 * datagram whose fragments would need more than TERN_CONF_IPV6_REASS_RANGES
 * disjoint ranges is dropped (reass_nomem). Nothing else is allocated.
 */
#ifndef TERN_IPV6_FRAG_H
#define TERN_IPV6_FRAG_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/pkt.h"
#include "tern/wire/ipv6_addr.h"

/** One datagram being reassembled (RFC 8200 §4.5), keyed by (src, dst, identification). */
typedef struct {
    tern_pkt_t *unfrag;       /**< IPv6 header + headers before the Fragment header, from the first fragment; NULL until it came */
    tern_pkt_t *data;         /**< fragmentable part so far: size = highest fragment end seen; NULL: none */
    tern_ipv6_addr_t src;     /**< key: source */
    tern_ipv6_addr_t dst;     /**< key: destination */
    uint64_t deadline_us;     /**< first fragment's arrival + TERN_CONF_IPV6_REASS_TIMEOUT_S */
    uint32_t identification;  /**< key: Identification */
    uint32_t total;           /**< length of the fragmentable part (known from the M=0 fragment); 0: unknown */
    uint16_t range_start[TERN_CONF_IPV6_REASS_RANGES]; /**< received ranges of @ref data: first byte... */
    uint16_t range_end[TERN_CONF_IPV6_REASS_RANGES];   /**< ... and byte after the last; start == end: unused */
    uint16_t first_len;       /**< data bytes of the offset-0 fragment (quoted in Time Exceeded) */
    uint16_t nh_field;        /**< offset, from the IPv6 header, of the field naming the Fragment header */
    uint16_t if_index;        /**< interface the fragments arrive on */
    uint8_t next_header;      /**< the Fragment header's Next Header (from the first fragment) */
    bool used;                /**< slot in use */
    bool have_first;          /**< the offset-0 fragment arrived */
    bool dead;                /**< discarded (overlap, RFC 5722): later fragments are dropped until the deadline */
} tern_ipv6_reass_slot_t;

/** Fragmentation and reassembly state of one IPv6 module. */
typedef struct {
    tern_ipv6_reass_slot_t slots[TERN_CONF_IPV6_REASS_SLOTS]; /**< datagrams being reassembled */
#if TERN_CONF_IPV6_FRAG /* the sender's (frag.c); reassembly (reass.c) is always built */
    uint32_t next_identification;                             /**< next Identification of fragments we send */
    bool identification_seeded;                               /**< @ref next_identification got its random start */
#endif
} tern_ipv6_frag_t;

#endif /* TERN_IPV6_FRAG_H */
