/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief What sixlowpan_iphc.c (IPHC, the driving loops) and sixlowpan_nhc.c
 *        (LOWPAN_NHC headers) share: the compressor's writer and the
 *        decompressor's reader/writer. Private to src/wire/.
 */
#ifndef TERN_WIRE_SIXLOWPAN_IPHC_INTERNAL_H
#define TERN_WIRE_SIXLOWPAN_IPHC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/sixlowpan_iphc.h"

/** @name LOWPAN_NHC identifiers (RFC 6282 §4.2, §4.3.3)
 * @{ */
#define NHC_EXT_MASK 0xF0u      /* 1110 EID NH */
#define NHC_EXT_ID 0xE0u
#define NHC_UDP_MASK 0xF8u      /* 11110 C P */
#define NHC_UDP_ID 0xF0u
#define NHC_EID_HOP_BY_HOP 0u
#define NHC_EID_ROUTING 1u
#define NHC_EID_FRAGMENT 2u
#define NHC_EID_DEST_OPTS 3u
#define NHC_EID_MOBILITY 4u
#define NHC_EID_IPV6 7u
/** IPv6 encapsulated in IPv6: the Next Header value (IANA, RFC 2473). */
#define NHC_NH_IPV6 41u
/** @} */

/**
 * The compressor's state. It runs twice over the same input: first with
 * @ref out NULL, only counting (tern_iphc_compressed_len()), then writing;
 * both runs make the same choices, so the first gives the exact length the
 * second writes.
 */
typedef struct {
    const tern_iphc_link_t *link;
    const uint8_t *pkt;   /**< the uncompressed datagram */
    size_t end;           /**< headers must end here: min(pkt_len, datagram) */
    size_t datagram;      /**< 40 + the outer Payload Length */
    uint8_t *out;         /**< NULL while counting */
    size_t out_len;       /**< room at @ref out; bytes past it are counted, not written */
    size_t pos;           /**< compressed bytes so far */
    unsigned nhc;         /**< NHC headers emitted so far */
} iphc_writer_t;

/** Append @p n bytes (only counted while w->out is NULL, or past w->out_len). */
static inline void iphc_put(iphc_writer_t *w, const uint8_t *src, size_t n)
{
    if (w->out != NULL && n > 0 && w->pos + n <= w->out_len) {
        memcpy(&w->out[w->pos], src, n);
    }
    w->pos += n;
}

/**
 * Where the next at most @p max bytes go: straight into @ref out when they
 * fit there, else into the caller's @p tmp (then iphc_commit() appends what
 * fits).
 */
static inline uint8_t *iphc_begin(iphc_writer_t *w, uint8_t *tmp, size_t max)
{
    return (w->out != NULL && w->pos <= w->out_len && w->out_len - w->pos >= max) ? &w->out[w->pos] : tmp;
}

/** Append the bytes [@p start, @p end) written at what iphc_begin() gave. */
static inline void iphc_commit(iphc_writer_t *w, const uint8_t *tmp, const uint8_t *start, const uint8_t *end)
{
    size_t n = (size_t)(end - start);
    if (start == tmp) {
        iphc_put(w, tmp, n);
    } else {
        w->pos += n;
    }
}

/** Append one byte. */
static inline void iphc_put8(iphc_writer_t *w, uint8_t byte)
{
    iphc_put(w, &byte, 1);
}

/** The decompressor's state: a bounded reader over the input, a bounded writer into the output. */
typedef struct {
    const tern_iphc_link_t *link;
    const uint8_t *in;
    size_t in_len;
    size_t in_pos;
    uint8_t *out;
    size_t out_len;
    size_t out_pos;
    unsigned nhc;                          /**< NHC headers decoded so far */
    unsigned ip_count;                     /**< IPv6 headers written */
    size_t ip_off[TERN_IPHC_NHC_MAX + 1];  /**< where each starts in @ref out */
    bool udp;                              /**< a UDP header was written ... */
    size_t udp_off;                        /**< ... at this offset */
} iphc_reader_t;

/** The next @p n input bytes, or NULL when the input ends before them. */
static inline const uint8_t *iphc_take(iphc_reader_t *r, size_t n)
{
    if (r->in_len - r->in_pos < n) {
        return NULL;
    }
    const uint8_t *p = &r->in[r->in_pos];
    r->in_pos += n;
    return p;
}

/** Room for @p n output bytes, or NULL when @p out is too small. */
static inline uint8_t *iphc_reserve(iphc_reader_t *r, size_t n)
{
    if (r->out_len - r->out_pos < n) {
        return NULL;
    }
    uint8_t *p = &r->out[r->out_pos];
    r->out_pos += n;
    return p;
}

/* --- LOWPAN_NHC (sixlowpan_nhc.c) ---------------------------------------- */

/**
 * Whether the header of type @p type at @p off of the datagram is encoded
 * with LOWPAN_NHC: a supported type, entirely within w->end, exactly
 * representable (see tern_iphc_compress()), Hop-by-Hop only when
 * @p after_ip, and fewer than TERN_IPHC_NHC_MAX NHC headers so far.
 */
bool tern_nhc_encodable(const iphc_writer_t *w, uint8_t type, size_t off, bool after_ip);

/**
 * True when a Fragment header whose Fragment Offset/Res/M field (its bytes
 * 2-3) is @p offset_flags is not an atomic fragment (offset != 0 or M = 1):
 * what follows it is not the rest of the datagram (no UDP Length or Payload
 * Length can be inferred), so the NHC chain ends there.
 */
bool tern_nhc_fragment_ends_chain(uint16_t offset_flags);

/** Emit the NHC UDP header for the UDP header at @p off. @pre tern_nhc_encodable() */
void tern_nhc_udp_emit(iphc_writer_t *w, size_t off);

/**
 * Emit the NHC form of the extension header of type @p type at @p off, with
 * its Next Header elided when @p next_compressed.
 * @pre tern_nhc_encodable()
 * @return the uncompressed length of the header
 */
size_t tern_nhc_ext_emit(iphc_writer_t *w, uint8_t type, size_t off, bool next_compressed);

/** Decode the NHC UDP header whose identifier byte @p id was just read. @return 0 or negative errno */
int tern_nhc_udp_decode(iphc_reader_t *r, uint8_t id);

/**
 * Decode the NHC extension header whose identifier byte @p id (EID 0-4) was just read.
 * @param[out] type        its IPv6 Next Header value
 * @param[out] next_nhc    its NH bit: the following header is NHC-encoded ...
 * @param[out] next_pos    ... and its type goes to out[next_pos]
 * @return 0 or negative errno (see tern_iphc_decompress())
 */
int tern_nhc_ext_decode(iphc_reader_t *r, uint8_t id, bool after_ip, uint8_t *type,
                        bool *next_nhc, size_t *next_pos);

#endif /* TERN_WIRE_SIXLOWPAN_IPHC_INTERNAL_H */
