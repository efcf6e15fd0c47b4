/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IPv6 fixed header and extension headers (RFC 8200 §3, §4).
 *
 * Read first: RFC 8200 §3 (fixed header), §4 (extension header order and
 * processing), §4.2 (options and their action bits), §4.4 (Routing), §4.5
 * (Fragment), §4.8 (generic format of future extension headers); RFC 7045
 * (which next-header values are extension headers).
 *
 * Pure functions over byte spans, no state. Every function checks lengths
 * before reading: once a parse function returned a length n >= 0, the header
 * lies within the first n bytes of the buffer given to it.
 *
 * Receive-path use:
 * @code
 * tern_ipv6_repr_t ip;
 * if (tern_ipv6_parse(&ip, buf, len) < 0 || tern_ipv6_check_len(&ip, len) < 0) drop;
 * tern_ipv6_ext_walk_t walk;
 * tern_ipv6_ext_walk_init(&walk, buf + TERN_IPV6_HDR_LEN, ip.payload_len, ip.next_header);
 * tern_ipv6_ext_t ext;
 * while ((res = tern_ipv6_ext_walk_next(&walk, &ext)) == 1) { handle ext (or reject its type) }
 * if (res < 0) drop;  // else the upper layer walk.next_header starts at walk.offset
 * @endcode
 */
#ifndef TERN_WIRE_IPV6_H
#define TERN_WIRE_IPV6_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"

/** Length of the fixed header (RFC 8200 §3). */
#define TERN_IPV6_HDR_LEN 40
/** Minimum link MTU (RFC 8200 §5). */
#define TERN_IPV6_MIN_MTU 1280
/** Largest flow label value (20 bits). */
#define TERN_IPV6_FLOW_LABEL_MAX 0xFFFFFu

/** @name Next Header values (IANA "Assigned Internet Protocol Numbers")
 * @{ */
#define TERN_IPV6_NH_HOP_BY_HOP 0u
#define TERN_IPV6_NH_TCP 6u
#define TERN_IPV6_NH_UDP 17u
#define TERN_IPV6_NH_IPV6 41u /**< IPv6-in-IPv6 (RFC 2473) */
#define TERN_IPV6_NH_ROUTING 43u
#define TERN_IPV6_NH_FRAGMENT 44u
#define TERN_IPV6_NH_ESP 50u
#define TERN_IPV6_NH_AH 51u
#define TERN_IPV6_NH_ICMPV6 58u
#define TERN_IPV6_NH_NONE 59u
#define TERN_IPV6_NH_DEST_OPTS 60u
#define TERN_IPV6_NH_MOBILITY 135u
#define TERN_IPV6_NH_HIP 139u
#define TERN_IPV6_NH_SHIM6 140u
#define TERN_IPV6_NH_EXPERIMENT1 253u
#define TERN_IPV6_NH_EXPERIMENT2 254u
/** @} */

/* --- fixed header -------------------------------------------------------- */

/** The fixed header, fields in host order. */
typedef struct {
    uint8_t traffic_class;  /**< DSCP (6 bits) + ECN (2 bits) */
    uint32_t flow_label;    /**< 20 bits */
    uint16_t payload_len;   /**< bytes after the fixed header, extension headers included */
    uint8_t next_header;    /**< type of the header that follows */
    uint8_t hop_limit;
    tern_ipv6_addr_t src;
    tern_ipv6_addr_t dst;
} tern_ipv6_repr_t;

/**
 * Parse the fixed header at the start of @p buf.
 *
 * Does not compare the Payload Length with @p len: call tern_ipv6_check_len().
 * @param[out] repr  the header; unchanged on error
 * @param[in]  buf   packet
 * @param[in]  len   bytes available at @p buf
 * @return TERN_IPV6_HDR_LEN; -EBADMSG if @p len < 40 or the version is not 6;
 *         -EINVAL for a NULL pointer.
 * @see RFC 8200 §3
 */
int tern_ipv6_parse(tern_ipv6_repr_t *repr, const uint8_t *buf, size_t len);

/**
 * Check that a packet of @p len bytes holds the payload @p repr announces.
 *
 * Bytes beyond 40 + payload_len (link-layer padding) are allowed; the caller
 * trims them. A Payload Length of 0 is an empty payload: jumbograms
 * (RFC 2675) are not supported.
 * @return the payload length; -EBADMSG if @p len < 40 + payload_len;
 *         -EINVAL for a NULL pointer.
 */
int tern_ipv6_check_len(const tern_ipv6_repr_t *repr, size_t len);

/**
 * Copy the source and destination addresses out of the fixed header at
 * @p buf, reading no other field: for a header the IPv6 module checked
 * already (the IPV6 snip of a received packet), where a full
 * tern_ipv6_parse() would only read the rest again.
 * @pre @p buf holds at least TERN_IPV6_HDR_LEN bytes; @p src, @p dst non-NULL
 * @see RFC 8200 §3
 */
void tern_ipv6_addrs_get(const uint8_t *buf, tern_ipv6_addr_t *src, tern_ipv6_addr_t *dst);

/**
 * The checksum sum of a received upper-layer packet (RFC 8200 §8.1): its
 * pseudo-header, read straight from the fixed header at @p buf (source and
 * destination, the 32 bytes from offset 8 on, one span; @p upper_len;
 * @p next_header), and the @p upper_len bytes at @p upper, added in one
 * accumulation. For the receive path, where the header is in a buffer
 * already and a repr would copy the addresses only to sum them.
 * @param[in]  upper  the upper-layer header and payload, with its checksum
 *                    field as received; may be NULL when @p upper_len is 0
 * @param[out] sum    the running sum (tern_checksum_finish() gives 0 when the
 *                    checksum is correct); unchanged on error
 * @return 0; -EBADMSG if @p len < 40; -EINVAL for a NULL pointer.
 * @see RFC 8200 §8.1
 */
int tern_ipv6_upper_sum(const uint8_t *buf, size_t len, const void *upper, size_t upper_len, uint8_t next_header,
                        uint32_t *sum);

/** Bytes tern_ipv6_emit() writes: always TERN_IPV6_HDR_LEN. */
size_t tern_ipv6_len(const tern_ipv6_repr_t *repr);

/**
 * Write the fixed header (version 6) into @p buf.
 * @return TERN_IPV6_HDR_LEN; -ENOBUFS if @p len < 40 (nothing written);
 *         -EINVAL for a flow label above 20 bits or a NULL pointer.
 * @see RFC 8200 §3
 */
int tern_ipv6_emit(const tern_ipv6_repr_t *repr, uint8_t *buf, size_t len);

/* --- extension headers: generic view and chain walk ---------------------- */

/**
 * True when @p next_header names an IPv6 extension header rather than an
 * upper-layer protocol: Hop-by-Hop, Routing, Fragment, ESP, AH, Destination
 * Options, Mobility, HIP, Shim6 and the experimental 253/254.
 * @see RFC 8200 §4, RFC 7045 §2, IANA "IPv6 Extension Header Types"
 */
bool tern_ipv6_is_ext_header(uint8_t next_header);

/** One extension header, as tern_ipv6_ext_parse() and the walk see it. */
typedef struct {
    uint8_t type;         /**< the Next Header value that announced it */
    uint8_t next_header;  /**< its own Next Header field: the type of what follows */
    uint16_t len;         /**< total length in bytes (8..2048) */
    size_t offset;        /**< from the start of the walked buffer (0 from tern_ipv6_ext_parse()) */
} tern_ipv6_ext_t;

/**
 * Delimit the extension header of type @p type at the start of @p buf.
 *
 * Lengths: Hdr Ext Len in 8-octet units not counting the first 8 for
 * Hop-by-Hop, Routing, Destination Options and the RFC 8200 §4.8 generic
 * format (Mobility, HIP, Shim6, 253, 254); 8 for Fragment (§4.5); Payload Len
 * in 4-octet units minus 2 for AH (RFC 4302 §2.2). ESP (its length is not in
 * the clear) and upper-layer types are not extension headers here.
 * @param[out] ext   the header (offset set to 0); unchanged on error
 * @return its length; -EBADMSG if @p len is shorter than 2 bytes or than the
 *         header; -EINVAL if @p type cannot be delimited (see above) or a NULL pointer.
 */
int tern_ipv6_ext_parse(tern_ipv6_ext_t *ext, uint8_t type, const uint8_t *buf, size_t len);

/**
 * Write the first two bytes (Next Header, Hdr Ext Len) of a generic-format
 * extension header of @p ext->len bytes of type @p ext->type; the caller
 * fills the rest (e.g. options with tern_ipv6_opt_emit()).
 * @return @p ext->len; -ENOBUFS if @p len < @p ext->len (nothing written);
 *         -EINVAL if @p ext->type is Fragment, AH, ESP or not an extension
 *         header, if @p ext->len is not a multiple of 8 in 8..2048, or a NULL pointer.
 * @see RFC 8200 §4.3, §4.6, §4.8
 */
int tern_ipv6_ext_emit(const tern_ipv6_ext_t *ext, uint8_t *buf, size_t len);

/** State of a walk along the extension header chain. */
typedef struct {
    const uint8_t *buf;   /**< bytes after the fixed header */
    size_t len;           /**< their number (normally the Payload Length) */
    size_t offset;        /**< where the header of type @ref next_header starts */
    uint8_t next_header;  /**< type of the header at @ref offset */
    bool done;            /**< the walk has ended */
} tern_ipv6_ext_walk_t;

/**
 * Start a walk over @p buf (what follows the fixed header) whose first header
 * is of type @p next_header (the fixed header's Next Header).
 */
void tern_ipv6_ext_walk_init(tern_ipv6_ext_walk_t *walk, const uint8_t *buf, size_t len,
                             uint8_t next_header);

/**
 * Step over the next extension header.
 *
 * The walk ends at the first header that tern_ipv6_ext_parse() cannot
 * delimit (an upper-layer protocol, No Next Header (59), ESP (50), or an
 * unknown value), and after the Fragment header of a non-first fragment
 * (offset != 0: what follows is fragment data, RFC 8200 §4.5). It does not
 * judge order (Hop-by-Hop only first, RFC 8200 §4.1): the caller checks
 * @p ext->type and @p ext->offset, and must handle or reject every type
 * reported.
 *
 * @param[in,out] walk  the walk
 * @param[out]    ext   the header stepped over, when 1 is returned
 * @return 1 when a header was stepped over; 0 at the end of the chain:
 *         walk->next_header is the type of the data at walk->offset (which
 *         may equal walk->len); -EBADMSG when a header runs past the end
 *         (the walk stays at that header); -EINVAL for a NULL pointer.
 */
int tern_ipv6_ext_walk_next(tern_ipv6_ext_walk_t *walk, tern_ipv6_ext_t *ext);

/* --- Hop-by-Hop and Destination options (RFC 8200 §4.2) ------------------ */

/** @name Option types
 * @{ */
#define TERN_IPV6_OPT_PAD1 0x00u
#define TERN_IPV6_OPT_PADN 0x01u
/** Router Alert (RFC 2711), used by MLD: 2 bytes of data, value 0. */
#define TERN_IPV6_OPT_ROUTER_ALERT 0x05u
/** @} */

/** What to do with an unrecognized option: its type's two high-order bits (RFC 8200 §4.2). */
typedef enum {
    /** 00: skip over this option and continue processing the header. */
    TERN_IPV6_OPT_ACTION_SKIP = 0,
    /** 01: discard the packet. */
    TERN_IPV6_OPT_ACTION_DISCARD = 1,
    /** 10: discard and send ICMP Parameter Problem code 2, whatever the destination. */
    TERN_IPV6_OPT_ACTION_DISCARD_ICMP = 2,
    /** 11: discard and send ICMP Parameter Problem code 2 if the destination is not multicast. */
    TERN_IPV6_OPT_ACTION_DISCARD_ICMP_UNICAST = 3,
} tern_ipv6_opt_action_t;

/** The action an unrecognized option of type @p type asks for (RFC 8200 §4.2). */
tern_ipv6_opt_action_t tern_ipv6_opt_action(uint8_t type);

/** True when option data of type @p type may change en route (third-highest bit, RFC 8200 §4.2). */
bool tern_ipv6_opt_may_change(uint8_t type);

/** One option (never Pad1 or PadN: the iterator skips them). */
typedef struct {
    uint8_t type;
    uint8_t data_len;
    const uint8_t *data;  /**< @p data_len bytes inside the header */
    size_t offset;        /**< of the type byte, from the start of the extension header
                               (for the Parameter Problem pointer) */
} tern_ipv6_opt_t;

/** Iterator over the options of one Hop-by-Hop or Destination Options header. */
typedef struct {
    const uint8_t *hdr;
    size_t len;
    size_t offset;
} tern_ipv6_opt_iter_t;

/**
 * Start iterating over the options of the header @p hdr of @p len bytes
 * (the whole extension header, its first two bytes included, as delimited
 * by tern_ipv6_ext_parse() or the walk).
 */
void tern_ipv6_opt_iter_init(tern_ipv6_opt_iter_t *it, const uint8_t *hdr, size_t len);

/**
 * Next option other than padding.
 * @return 1 and @p opt filled; 0 after the last option; -EBADMSG when an
 *         option (padding included) runs past the end of the header (the
 *         iterator then stays failing); -EINVAL for a NULL pointer.
 */
int tern_ipv6_opt_next(tern_ipv6_opt_iter_t *it, tern_ipv6_opt_t *opt);

/**
 * Write one option (type, length, @p data_len bytes of @p data).
 * @param[in] data  may be NULL when @p data_len is 0
 * @return 2 + @p data_len; -ENOBUFS if @p len is shorter; -EINVAL for Pad1
 *         (use tern_ipv6_opt_emit_padding()) or a NULL pointer.
 */
int tern_ipv6_opt_emit(uint8_t *buf, size_t len, uint8_t type, const uint8_t *data,
                       uint8_t data_len);

/**
 * Fill @p n bytes with padding: nothing for 0, Pad1 for 1, one PadN
 * otherwise (zero data; RFC 8200 §4.2).
 * @return @p n; -ENOBUFS if @p len < @p n; -EINVAL if @p n > 257 (a
 *         PadN holds at most 255 bytes of data) or a NULL pointer.
 */
int tern_ipv6_opt_emit_padding(uint8_t *buf, size_t len, size_t n);

/* --- Fragment header (RFC 8200 §4.5) ------------------------------------- */

/** Length of the Fragment header. */
#define TERN_IPV6_FRAG_HDR_LEN 8
/** Largest fragment offset, in 8-octet units (13 bits). */
#define TERN_IPV6_FRAG_OFFSET_MAX 0x1FFFu

/** The Fragment header. */
typedef struct {
    uint8_t next_header;
    uint16_t offset;          /**< in 8-octet units (13 bits) */
    bool more;                /**< M flag: more fragments follow */
    uint32_t identification;
} tern_ipv6_frag_repr_t;

/**
 * Parse a Fragment header. The two reserved fields are ignored (§4.5).
 * @return TERN_IPV6_FRAG_HDR_LEN; -EBADMSG if @p len < 8; -EINVAL for a NULL pointer.
 */
int tern_ipv6_frag_parse(tern_ipv6_frag_repr_t *repr, const uint8_t *buf, size_t len);

/**
 * Write a Fragment header (reserved fields zero).
 * @return TERN_IPV6_FRAG_HDR_LEN; -ENOBUFS if @p len < 8; -EINVAL for an
 *         offset above 13 bits or a NULL pointer.
 */
int tern_ipv6_frag_emit(const tern_ipv6_frag_repr_t *repr, uint8_t *buf, size_t len);

/* --- Routing header (RFC 8200 §4.4) -------------------------------------- */

/** The fixed part of a Routing header plus its type-specific data. */
typedef struct {
    uint8_t next_header;
    uint8_t hdr_ext_len;    /**< from the wire; emit derives it from @ref data_len */
    uint8_t routing_type;
    uint8_t segments_left;
    const uint8_t *data;    /**< type-specific data (after the first 4 bytes) */
    size_t data_len;        /**< (hdr_ext_len + 1) * 8 - 4 */
} tern_ipv6_routing_repr_t;

/**
 * Parse a Routing header; @p repr->data points into @p buf.
 * @return its total length; -EBADMSG if @p len is shorter than 8 or than the
 *         length announced; -EINVAL for a NULL pointer.
 */
int tern_ipv6_routing_parse(tern_ipv6_routing_repr_t *repr, const uint8_t *buf, size_t len);

/** Bytes tern_ipv6_routing_emit() writes: 4 + data_len. */
size_t tern_ipv6_routing_len(const tern_ipv6_routing_repr_t *repr);

/**
 * Write a Routing header: the fixed part, Hdr Ext Len from @p repr->data_len,
 * then @p repr->data (copied unless NULL, in which case the caller fills it).
 * @return tern_ipv6_routing_len(); -ENOBUFS if @p len is shorter (nothing
 *         written); -EINVAL if 4 + data_len is not a multiple of 8 in 8..2048
 *         or a NULL pointer.
 */
int tern_ipv6_routing_emit(const tern_ipv6_routing_repr_t *repr, uint8_t *buf, size_t len);

#endif /* TERN_WIRE_IPV6_H */
