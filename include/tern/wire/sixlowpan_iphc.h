/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 6LoWPAN header compression: LOWPAN_IPHC and LOWPAN_NHC (RFC 6282).
 *
 * Read first: RFC 6282 §3.1 (the IPHC base header, every TF/NH/HLIM/SAM/DAM
 * mode), §3.2 (order of the in-line fields, IIDs from the encapsulating
 * header, multicast compression), §4.1-§4.3 (NHC: extension headers, the
 * IPv6-in-IPv6 header, UDP); RFC 4944 §6 (IIDs from 802.15.4 addresses);
 * RFC 3306 §4 (unicast-prefix-based multicast addresses).
 *
 * A pure codec: no state, no allocation. Both directions take a
 * tern_iphc_link_t: the link-layer source and destination of the frame
 * (from which fully elided IIDs are derived) and the caller's context table.
 *
 * Send path (the 6LoWPAN module):
 * @code
 * size_t consumed;
 * int need = tern_iphc_compressed_len(&link, hdrs, hdrs_len, &consumed);  // plan, or skip
 * int n = tern_iphc_compress(&link, hdrs, hdrs_len, frame, room, &consumed);
 * if (n < 0) drop;  // frame[0, n) is the compressed header; then append the
 *                   // datagram from byte `consumed` on, uncompressed
 * @endcode
 * Receive path:
 * @code
 * size_t consumed;
 * int n = tern_iphc_decompress(&link, frame, frame_len, datagram_size, hdrs, sizeof(hdrs), &consumed);
 * if (n < 0) count a drop by -n;  // hdrs[0, n) are the uncompressed headers; the
 *                                 // payload is frame[consumed, frame_len)
 * @endcode
 *
 * Compression is lossless: decompressing what tern_iphc_compress() wrote,
 * with the same link addresses, contexts and the datagram's length, gives back
 * the original bytes. A header that cannot be encoded exactly (an odd UDP
 * Length, a non-zero reserved byte in a Fragment header, a too long option
 * header, ...) ends the compressed chain: its type is carried in-line and it
 * stays in the uncompressed remainder.
 */
#ifndef TERN_WIRE_SIXLOWPAN_IPHC_H
#define TERN_WIRE_SIXLOWPAN_IPHC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"

/** @name LOWPAN_IPHC dispatch: the first byte is 011xxxxx (RFC 6282 §3.1)
 * @{ */
#define TERN_IPHC_DISPATCH 0x60u
#define TERN_IPHC_DISPATCH_MASK 0xE0u
/** @} */

/** Size of a context table: 4-bit context identifiers (RFC 6282 §3.1.2). */
#define TERN_IPHC_CONTEXT_MAX 16

/**
 * Most LOWPAN_NHC headers in one compressed datagram, inner IPv6 headers
 * included. The decompressor rejects longer chains (-EPROTO); the compressor
 * leaves the rest of a longer chain uncompressed. Real packets carry 1-3.
 */
#define TERN_IPHC_NHC_MAX 8

/**
 * Bytes that always suffice for the uncompressed headers
 * tern_iphc_decompress() writes: every NHC header expands to at most 264
 * bytes (255 bytes of data, 2 of header, 7 of padding), every IPv6 header to 40.
 */
#define TERN_IPHC_DECOMPRESSED_MAX (40u + TERN_IPHC_NHC_MAX * 264u)

/** @name Context flags (RFC 6775 §4.2: the C flag and the valid lifetime)
 * @{ */
/** The compressor may use the context. */
#define TERN_IPHC_CONTEXT_COMPRESS 0x01u
/** The decompressor accepts the context (a context stays valid for
 * decompression for a while after it stopped being used for compression). */
#define TERN_IPHC_CONTEXT_DECOMPRESS 0x02u
/** @} */

/** One compression context: an IPv6 prefix shared by the nodes of a 6LoWPAN. */
typedef struct {
    tern_ipv6_addr_t prefix;  /**< bits past @ref prefix_len are ignored */
    uint8_t prefix_len;       /**< in bits, 0..128 */
    uint8_t flags;            /**< TERN_IPHC_CONTEXT_*; 0 = unused entry */
    uint8_t id;               /**< its context identifier (CID), 0..15 */
} tern_iphc_context_t;

/**
 * A link-layer address, the same layout as the 802.15.4 link address: none,
 * a short address (2 bytes, value big-endian: 0x1234 is {0x12, 0x34}) or an
 * extended address (EUI-64, 8 bytes in canonical order).
 */
typedef struct {
    uint8_t len;    /**< 0 (unknown: nothing is derived from it), 2 or 8 */
    uint8_t u8[8];  /**< the address; bytes from @ref len on are unused */
} tern_iphc_l2addr_t;

/**
 * What the link knows: the frame's addresses and the context table. The table
 * need not have an entry per identifier: each entry names its own (@ref
 * tern_iphc_context_t.id), in any order, so that a node that keeps few
 * contexts keeps them in a short table whatever identifiers the network gave
 * them. Two entries in use must not name the same identifier.
 */
typedef struct {
    tern_iphc_l2addr_t src;                /**< link-layer source of the frame */
    tern_iphc_l2addr_t dst;                /**< link-layer destination of the frame */
    const tern_iphc_context_t *contexts;   /**< the contexts (entries with flags 0 unused); NULL if none */
    uint8_t context_count;                 /**< entries in @ref contexts, 0..16 */
} tern_iphc_link_t;

/** True when @p byte starts a LOWPAN_IPHC header (011xxxxx). */
static inline bool tern_iphc_is_dispatch(uint8_t byte)
{
    return (byte & TERN_IPHC_DISPATCH_MASK) == TERN_IPHC_DISPATCH;
}

/**
 * Length of the compressed form of the headers at the start of @p pkt.
 *
 * Runs the same choices as tern_iphc_compress() without writing anything.
 * @param[in]  link      link addresses and contexts
 * @param[in]  pkt       an IPv6 datagram: the fixed header, then whatever
 *                       follows (extension headers, UDP, payload) as far as
 *                       the caller has it contiguous
 * @param[in]  pkt_len   bytes at @p pkt (only headers entirely within the first
 *                       min(@p pkt_len, 40 + Payload Length) bytes are compressed)
 * @param[out] consumed  bytes of @p pkt the compressed form stands for
 * @return the compressed length (>= 2); -EBADMSG when @p pkt is not an IPv6
 *         header (shorter than 40 bytes or version not 6); -EINVAL for a NULL
 *         pointer or an invalid @p link (address length not 0/2/8, more than 16
 *         contexts, a prefix length above 128, an identifier above 15 or one
 *         named by two entries in use).
 */
int tern_iphc_compressed_len(const tern_iphc_link_t *link, const uint8_t *pkt, size_t pkt_len,
                             size_t *consumed);

/**
 * Compress the IPv6 header at @p pkt and the headers after it that LOWPAN_NHC
 * encodes (RFC 6282 §3, §4).
 *
 * Choices, each the shortest exact encoding:
 * - TF: elide the traffic class (rotated to ECN|DSCP, §3.2.1) and flow label
 *   when zero, carry ECN alone when DSCP is zero;
 * - HLIM: 1, 64 and 255 are elided;
 * - addresses: link-local fe80::/64 addresses statelessly (IID elided when it
 *   is the one the link-layer address gives, 16 bits when it is
 *   0000:00ff:fe00:XXXX, else 64), other unicast addresses against every
 *   context valid for compression, multicast as ff02::XX, ffXX::XX:XXXX,
 *   ffXX::XX:XXXX:XXXX, or as a unicast-prefix-based address (RFC 3306)
 *   against a context of prefix length <= 64; the unspecified source address
 *   as SAC=1/SAM=00. The pair (source, destination) with the fewest bytes is
 *   taken, counting the context identifier byte when a context other than 0 is used;
 * - NH: LOWPAN_NHC for UDP (ports 0xF0Bx in 4 bits, 0xF0xx in 8; the
 *   checksum always in-line: C=0, §4.3.2), Hop-by-Hop (only right after an
 *   IPv6 header), Routing, Fragment, Destination Options and Mobility headers
 *   (a single trailing Pad1/PadN is elided when the decompressor re-creates it
 *   identically, §4.2), and an encapsulated IPv6 header (EID 7), chained while
 *   the next header is encodable. After a Fragment header of a non-first or
 *   non-last fragment the chain ends (no UDP Length to infer).
 *
 * Size @p out first with tern_iphc_compressed_len() (the same choices,
 * nothing written): when the header does not fit in @p out_len, the bytes
 * of @p out up to @p out_len may have been written and -ENOBUFS is returned.
 * @param[in]  link      link addresses and contexts
 * @param[in]  pkt       see tern_iphc_compressed_len()
 * @param[in]  pkt_len   see tern_iphc_compressed_len()
 * @param[out] out       the compressed header, starting with the IPHC dispatch
 * @param[in]  out_len   room at @p out
 * @param[out] consumed  bytes of @p pkt encoded; the caller sends
 *                       pkt[consumed, 40 + Payload Length) after the compressed bytes
 * @return bytes written (>= 2); -ENOBUFS if they do not fit in @p out_len;
 *         -EBADMSG and -EINVAL as tern_iphc_compressed_len().
 * @see RFC 6282 §3.1, §3.2, §4.2, §4.3
 */
int tern_iphc_compress(const tern_iphc_link_t *link, const uint8_t *pkt, size_t pkt_len,
                       uint8_t *out, size_t out_len, size_t *consumed);

/**
 * Decompress the LOWPAN_IPHC header at @p in and the LOWPAN_NHC headers that
 * follow it into uncompressed IPv6 (and extension, UDP) headers.
 *
 * The IPv6 Payload Length (of each IPv6 header) and the UDP Length are
 * restored from the datagram's size: @p datagram_size when the frame carried
 * a FRAG1 header (its datagram_size: the uncompressed datagram), else 0, and
 * then the datagram is the uncompressed headers plus the rest of @p in.
 * Trailing Hop-by-Hop/Destination Options padding is re-created (Pad1 or PadN
 * with zero data). The TF reserved bits are ignored.
 *
 * Every read is bounds-checked against @p in_len and every write against
 * @p out_len; on error @p out may hold partial headers.
 * @param[in]  link           link addresses and contexts
 * @param[in]  in             the compressed bytes, starting at the IPHC dispatch
 * @param[in]  in_len         bytes at @p in (headers and payload of this frame)
 * @param[in]  datagram_size  size of the uncompressed datagram, or 0 (see above)
 * @param[out] out            the uncompressed headers
 * @param[in]  out_len        room at @p out (TERN_IPHC_DECOMPRESSED_MAX always suffices)
 * @param[out] consumed       bytes of @p in that were compressed headers; the
 *                            payload is in[consumed, in_len)
 * @return bytes written to @p out (>= 40);
 *         -EBADMSG when @p in ends inside a compressed header;
 *         -EPROTO for a reserved or invalid encoding: M=0/DAC=1/DAM=00,
 *         M=1/DAC=1/DAM!=00, EID 5 or 6, EID 7 with NH=1 or not followed by
 *         an IPHC header, a Fragment header not 6 bytes long, a Routing or
 *         Mobility header whose length is not a multiple of 8, a Hop-by-Hop
 *         header not right after an IPv6 header, NH=1 after the Fragment header
 *         of a non-first or non-last fragment, more than TERN_IPHC_NHC_MAX NHC
 *         headers, a unicast-prefix-based multicast context longer than 64 bits;
 *         -ENOTSUP for an unknown LOWPAN_NHC identifier or an elided UDP
 *         checksum (C=1: recomputing it needs the whole datagram, §4.3.2);
 *         -ENOENT when a context the header names is missing or not valid for
 *         decompression (RFC 6282 §3.1.1: the packet must be dropped);
 *         -EADDRNOTAVAIL when an IID is to be derived from a link-layer
 *         address the caller did not give (len 0);
 *         -EMSGSIZE when @p datagram_size is smaller than the headers plus this
 *         frame's payload, or a Payload Length or UDP Length would exceed 65535;
 *         -ENOBUFS when the headers do not fit in @p out_len;
 *         -EINVAL for a NULL pointer, an invalid @p link, or @p in not
 *         starting with an IPHC dispatch.
 * @see RFC 6282 §3.1, §3.2, §4.2, §4.3
 */
int tern_iphc_decompress(const tern_iphc_link_t *link, const uint8_t *in, size_t in_len,
                         size_t datagram_size, uint8_t *out, size_t out_len, size_t *consumed);

#endif /* TERN_WIRE_SIXLOWPAN_IPHC_H */
