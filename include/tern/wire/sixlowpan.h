/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 6LoWPAN dispatch and encapsulation headers: dispatch classification,
 *        Mesh Addressing, Broadcast (BC0), Fragmentation (FRAG1, FRAGN) and the
 *        uncompressed IPv6 dispatch (RFC 4944 §5, RFC 6282 §2, RFC 8025 §3, RFC 8066 §3).
 *
 * Read first: RFC 4944 §5 (header stacking order), §5.1 (dispatch table),
 * §5.2 (mesh header), §5.3 (fragment headers and reassembly), §11.1 (BC0);
 * RFC 6282 §2 and §5 (LOWPAN_IPHC takes 011xxxxx, the old ESC value 0x7F among
 * them); RFC 8066 §3 (ESC is 0x40); RFC 8025 §3-§4 (paging dispatch).
 * docs/SIXLOWPAN.md, "Fragment headers", says what is accepted and why.
 *
 * Every frame starts in page 0 (RFC 8025 §3). tern_sixlowpan_dispatch_classify()
 * is the page-0 table: it recognises the Paging Dispatch (11 11xxxx) itself
 * but does not decode the dispatch values of other pages; a caller that meets
 * a switch to a page it does not implement drops the frame.
 *
 * The encapsulation headers are stacked in the order Mesh, Broadcast,
 * Fragmentation, then the payload dispatch (RFC 4944 §5).
 * tern_sixlowpan_hdrs_parse() walks that stack and rejects any other order;
 * the single-header parse functions are also available on their own.
 *
 * Byte order: every multi-octet field is big-endian (network order), and the
 * mesh header's link addresses are kept in the order they appear in the
 * header (no reversal: unlike the IEEE 802.15.4 MAC header, the mesh header
 * is not little-endian).
 *
 * Errors are negative errno values: -EBADMSG malformed input, -ENOBUFS output
 * buffer too small, -EINVAL bad argument.
 */
#ifndef TERN_WIRE_SIXLOWPAN_H
#define TERN_WIRE_SIXLOWPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** @name Dispatch values and masks (RFC 4944 §5.1, RFC 6282 §3.1, RFC 8066 §3, RFC 8025 §3)
 * @{ */
#define TERN_SIXLOWPAN_DISPATCH_NALP_MASK 0xC0u /**< 00xxxxxx: not a LoWPAN frame */
#define TERN_SIXLOWPAN_DISPATCH_ESC_VALUE 0x40u /**< 01000000: ESC; an extension type octet follows (RFC 8066 §3) */
#define TERN_SIXLOWPAN_DISPATCH_IPV6_VALUE 0x41u /**< 01000001: uncompressed IPv6 header follows */
#define TERN_SIXLOWPAN_DISPATCH_HC1_VALUE 0x42u /**< 01000010: LOWPAN_HC1 (RFC 4944 §10, superseded by RFC 6282 §2) */
#define TERN_SIXLOWPAN_DISPATCH_BC0_VALUE 0x50u /**< 01010000: LOWPAN_BC0 broadcast header */
#define TERN_SIXLOWPAN_DISPATCH_IPHC_MASK 0xE0u /**< LOWPAN_IPHC: 011xxxxx (RFC 6282 §3.1) */
#define TERN_SIXLOWPAN_DISPATCH_IPHC_VALUE 0x60u
#define TERN_SIXLOWPAN_DISPATCH_MESH_MASK 0xC0u /**< Mesh Addressing: 10xxxxxx */
#define TERN_SIXLOWPAN_DISPATCH_MESH_VALUE 0x80u
#define TERN_SIXLOWPAN_DISPATCH_FRAG_MASK 0xF8u /**< FRAG1 11000xxx, FRAGN 11100xxx */
#define TERN_SIXLOWPAN_DISPATCH_FRAG1_VALUE 0xC0u
#define TERN_SIXLOWPAN_DISPATCH_FRAGN_VALUE 0xE0u
#define TERN_SIXLOWPAN_DISPATCH_RFRAG_MASK 0xFCu /**< RFC 8931 §5: RFRAG 1110100x, RFRAG-ACK 1110101x */
#define TERN_SIXLOWPAN_DISPATCH_RFRAG_VALUE 0xE8u
#define TERN_SIXLOWPAN_DISPATCH_PAGE_MASK 0xF0u /**< Paging Dispatch 1111xxxx, xxxx the page (RFC 8025 §3) */
#define TERN_SIXLOWPAN_DISPATCH_PAGE_VALUE 0xF0u
/** @} */

/** @name Header lengths
 * @{ */
#define TERN_SIXLOWPAN_IPV6_DISPATCH_LEN 1u /**< the 0x41 octet before an uncompressed IPv6 header */
#define TERN_SIXLOWPAN_BC0_LEN 2u           /**< dispatch + sequence number (RFC 4944 §11.1) */
#define TERN_SIXLOWPAN_FRAG1_LEN 4u         /**< RFC 4944 §5.3, first fragment */
#define TERN_SIXLOWPAN_FRAGN_LEN 5u         /**< RFC 4944 §5.3, subsequent fragments */
#define TERN_SIXLOWPAN_MESH_MIN_LEN 5u      /**< dispatch + two 16-bit addresses */
#define TERN_SIXLOWPAN_MESH_MAX_LEN 18u     /**< dispatch + Deep Hops Left + two EUI-64 */
/** @} */

/** Largest datagram_size: the field has 11 bits (RFC 4944 §5.3). */
#define TERN_SIXLOWPAN_FRAG_SIZE_MAX 2047u
/** datagram_offset counts units of this many octets (RFC 4944 §5.3). */
#define TERN_SIXLOWPAN_FRAG_UNIT 8u

/** Hops Left value that announces the 8-bit Deep Hops Left field (RFC 4944 §5.2). */
#define TERN_SIXLOWPAN_MESH_DEEP_HOPS 0x0Fu
/** Mesh header link addresses: 16-bit short or 64-bit extended (RFC 4944 §5.2). */
#define TERN_SIXLOWPAN_MESH_SHORT_LEN 2u
#define TERN_SIXLOWPAN_MESH_EXT_LEN 8u

/** What the first octet of a header is, in page 0 (RFC 4944 §5.1 as updated). */
typedef enum {
    TERN_SIXLOWPAN_DISPATCH_NALP,     /**< 00xxxxxx: not a LoWPAN frame (RFC 4944 §5.1) */
    TERN_SIXLOWPAN_DISPATCH_ESC,      /**< 0x40: ESC, extension octet follows (RFC 8066 §3); none is implemented */
    TERN_SIXLOWPAN_DISPATCH_IPV6,     /**< 0x41: uncompressed IPv6 (RFC 4944 §5.1) */
    TERN_SIXLOWPAN_DISPATCH_HC1,      /**< 0x42: LOWPAN_HC1, NOT RECOMMENDED by RFC 6282 §2; not decoded */
    TERN_SIXLOWPAN_DISPATCH_BC0,      /**< 0x50: broadcast header (RFC 4944 §11.1) */
    TERN_SIXLOWPAN_DISPATCH_IPHC,     /**< 011xxxxx: LOWPAN_IPHC (RFC 6282 §3.1), includes 0x7F (RFC 6282 §5) */
    TERN_SIXLOWPAN_DISPATCH_MESH,     /**< 10xxxxxx: mesh addressing header (RFC 4944 §5.2) */
    TERN_SIXLOWPAN_DISPATCH_FRAG1,    /**< 11000xxx: first fragment (RFC 4944 §5.3) */
    TERN_SIXLOWPAN_DISPATCH_FRAGN,    /**< 11100xxx: subsequent fragment (RFC 4944 §5.3) */
    TERN_SIXLOWPAN_DISPATCH_RFRAG,    /**< 111010xx: recoverable fragment / ACK (RFC 8931 §5); not decoded */
    TERN_SIXLOWPAN_DISPATCH_PAGE,     /**< 1111xxxx: paging dispatch (RFC 8025 §3) */
    TERN_SIXLOWPAN_DISPATCH_RESERVED, /**< any other value: reserved (0x43-0x4F, 0x51-0x5F, 0xC8-0xDF, 0xEC-0xEF) */
} tern_sixlowpan_dispatch_t;

/**
 * Classify the dispatch octet @p dispatch in page 0.
 * @return its class; every octet has one (reserved values are
 *         TERN_SIXLOWPAN_DISPATCH_RESERVED, which a receiver drops).
 * @see RFC 4944 §5.1, RFC 6282 §3.1 and §5, RFC 8066 §3, RFC 8025 §3, RFC 8931 §5
 */
tern_sixlowpan_dispatch_t tern_sixlowpan_dispatch_classify(uint8_t dispatch);

/** Page number (0..15) of a Paging Dispatch octet (class TERN_SIXLOWPAN_DISPATCH_PAGE). */
static inline uint8_t tern_sixlowpan_page_number(uint8_t dispatch)
{
    return (uint8_t)(dispatch & 0x0Fu);
}

/** First (FRAG1) or subsequent (FRAGN) fragment header (RFC 4944 §5.3). */
typedef struct {
    bool first;             /**< FRAG1 (true) or FRAGN */
    uint16_t datagram_size; /**< octets of the whole datagram before compression, 1..2047 */
    uint16_t datagram_tag;  /**< the sender's tag for this datagram */
    uint8_t datagram_offset; /**< FRAGN: offset in units of 8 octets; FRAG1: 0 */
} tern_sixlowpan_frag_repr_t;

/**
 * Parse a FRAG1 or FRAGN header at the start of @p buf. The fragment's
 * payload follows it (at the returned offset).
 * @param[out] repr  the header; unchanged on error
 * @return TERN_SIXLOWPAN_FRAG1_LEN or TERN_SIXLOWPAN_FRAGN_LEN; -EBADMSG if
 *         the dispatch is neither, the header is truncated, datagram_size is
 *         0, or a FRAGN starts at or beyond datagram_size (offset * 8 >=
 *         datagram_size); -EINVAL for a NULL pointer.
 * @see RFC 4944 §5.3
 */
int tern_sixlowpan_frag_parse(tern_sixlowpan_frag_repr_t *repr, const uint8_t *buf, size_t len);

/** Bytes tern_sixlowpan_frag_emit() writes: 4 (FRAG1) or 5 (FRAGN). */
size_t tern_sixlowpan_frag_len(const tern_sixlowpan_frag_repr_t *repr);

/**
 * Write a FRAG1 or FRAGN header.
 * @return the header length; -EINVAL for a datagram_size of 0 or above 2047,
 *         a FRAG1 with a nonzero offset, a FRAGN starting at or beyond
 *         datagram_size, or a NULL pointer; -ENOBUFS if @p len is too small
 *         (nothing written).
 */
int tern_sixlowpan_frag_emit(const tern_sixlowpan_frag_repr_t *repr, uint8_t *buf, size_t len);

/** Mesh Addressing header (RFC 4944 §5.2). */
typedef struct {
    uint8_t hops_left;          /**< 0..255; above 14 the Deep Hops Left octet carries it */
    uint8_t originator_len;     /**< 2 (V = 1, short) or 8 (V = 0, EUI-64) */
    uint8_t final_len;          /**< 2 (F = 1, short) or 8 (F = 0, EUI-64) */
    uint8_t originator[TERN_SIXLOWPAN_MESH_EXT_LEN]; /**< as in the header */
    uint8_t final[TERN_SIXLOWPAN_MESH_EXT_LEN];      /**< as in the header */
} tern_sixlowpan_mesh_repr_t;

/**
 * Parse a mesh header at the start of @p buf. A Hops Left of 0xF reads the
 * Deep Hops Left octet that follows (RFC 4944 §5.2).
 * @return the header length (5..18); -EBADMSG if the dispatch is not 10xxxxxx
 *         or the header is truncated; -EINVAL for a NULL pointer.
 * @see RFC 4944 §5.2
 */
int tern_sixlowpan_mesh_parse(tern_sixlowpan_mesh_repr_t *repr, const uint8_t *buf, size_t len);

/** Bytes tern_sixlowpan_mesh_emit() writes (0 for invalid address lengths). */
size_t tern_sixlowpan_mesh_len(const tern_sixlowpan_mesh_repr_t *repr);

/**
 * Write a mesh header. Hops Left up to 14 goes in the 4-bit field, larger
 * values in a Deep Hops Left octet after 0xF.
 * @return the header length; -EINVAL for an address length other than 2 or
 *         8 or a NULL pointer; -ENOBUFS if @p len is too small.
 */
int tern_sixlowpan_mesh_emit(const tern_sixlowpan_mesh_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a BC0 broadcast header (dispatch 0x50, sequence number).
 * @param[out] sequence  the sequence number
 * @return TERN_SIXLOWPAN_BC0_LEN; -EBADMSG for another dispatch or fewer than
 *         2 octets; -EINVAL for a NULL pointer.
 * @see RFC 4944 §11.1
 */
int tern_sixlowpan_bc0_parse(uint8_t *sequence, const uint8_t *buf, size_t len);

/** Write a BC0 header. @return TERN_SIXLOWPAN_BC0_LEN; -ENOBUFS if @p len < 2; -EINVAL for NULL. */
int tern_sixlowpan_bc0_emit(uint8_t sequence, uint8_t *buf, size_t len);

/**
 * Check the uncompressed-IPv6 dispatch at the start of @p buf; the IPv6
 * header follows it (the IPv6 module validates the header itself).
 * @return TERN_SIXLOWPAN_IPV6_DISPATCH_LEN; -EBADMSG for another dispatch or an
 *         empty buffer; -EINVAL for a NULL pointer with a nonzero length.
 * @see RFC 4944 §5.1
 */
int tern_sixlowpan_ipv6_dispatch_parse(const uint8_t *buf, size_t len);

/** Write the uncompressed-IPv6 dispatch. @return 1; -ENOBUFS if @p len is 0; -EINVAL for NULL. */
int tern_sixlowpan_ipv6_dispatch_emit(uint8_t *buf, size_t len);

/** The encapsulation headers in front of a 6LoWPAN payload (RFC 4944 §5). */
typedef struct {
    bool has_mesh;                   /**< a mesh header came first */
    bool has_bc0;                    /**< a BC0 header */
    bool has_frag;                   /**< a FRAG1 or FRAGN header (see @ref frag) */
    uint8_t bc0_sequence;            /**< BC0 sequence number */
    tern_sixlowpan_mesh_repr_t mesh; /**< when @ref has_mesh */
    tern_sixlowpan_frag_repr_t frag; /**< when @ref has_frag */
    size_t payload;                  /**< offset of what follows the headers: a dispatch
                                          (IPHC, IPv6, ...) or, after a FRAGN, fragment data */
} tern_sixlowpan_hdrs_t;

/**
 * Walk the encapsulation headers of a frame payload: an optional mesh header,
 * an optional BC0, an optional FRAG1/FRAGN, in that order (RFC 4944 §5), up
 * to the payload. After a FRAGN the payload is data of the datagram (no
 * dispatch); otherwise it starts with the payload dispatch, which the caller
 * classifies with tern_sixlowpan_dispatch_classify().
 * @param[out] hdrs  what was found; unchanged on error
 * @return 0; -EBADMSG for a NALP at any place (it is only defined for the
 *         first octet and then says "not ours": RFC 8025 §4), a malformed
 *         header, headers out of order or repeated (a mesh, BC0 or fragment
 *         header after the fragment header or in a later place), or nothing
 *         after the headers; -EINVAL for a NULL pointer.
 * @see RFC 4944 §5, §5.1
 */
int tern_sixlowpan_hdrs_parse(tern_sixlowpan_hdrs_t *hdrs, const uint8_t *buf, size_t len);

#endif /* TERN_WIRE_SIXLOWPAN_H */
