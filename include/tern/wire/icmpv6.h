/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief ICMPv6 messages (RFC 4443): common header, echo, error messages, checksum.
 *
 * Read first: RFC 4443 §2.1 (message format), §2.3 (checksum), §2.4 (processing
 * rules, in particular (c): an error message never exceeds the minimum IPv6 MTU,
 * and (e): no error message about an error message), §3 (errors), §4 (echo).
 *
 * Pure functions over byte spans: no state, no I/O. Every parse checks lengths
 * before it reads; every emit computes the length it needs before it writes.
 * Emitted messages carry a zero checksum: fill it last with
 * tern_icmpv6_checksum_fill() (contiguous message) or
 * tern_icmpv6_checksum_compute() (message scattered over spans).
 *
 * Errors are negative errno values: -EBADMSG malformed input, -ENOBUFS output
 * buffer too small, -EINVAL bad argument.
 */
#ifndef TERN_WIRE_ICMPV6_H
#define TERN_WIRE_ICMPV6_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/checksum.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ipv6_addr.h"

/** IPv6 Next Header value of ICMPv6 (RFC 4443 §1). */
#define TERN_ICMPV6_NEXT_HEADER 58u
/** Length of the common header: type, code, checksum (RFC 4443 §2.1). */
#define TERN_ICMPV6_HDR_LEN 4u
/** Length of an echo or error message without its data: header + 4 octets. */
#define TERN_ICMPV6_FIXED_LEN 8u
/** IPv6 minimum link MTU (RFC 8200 §5), the size limit of an error message (RFC 4443 §2.4(c)). */
#define TERN_ICMPV6_IPV6_MIN_MTU 1280u
/** Length of the fixed IPv6 header (RFC 8200 §3). */
#define TERN_ICMPV6_IPV6_HDR_LEN 40u

/** @name Message types (RFC 4443 §2.1, RFC 4861 §4, RFC 2710 §3, RFC 3810 §5) */
/** @{ */
#define TERN_ICMPV6_DST_UNREACH 1u
#define TERN_ICMPV6_PACKET_TOO_BIG 2u
#define TERN_ICMPV6_TIME_EXCEEDED 3u
#define TERN_ICMPV6_PARAM_PROBLEM 4u
#define TERN_ICMPV6_ECHO_REQUEST 128u
#define TERN_ICMPV6_ECHO_REPLY 129u
#define TERN_ICMPV6_MLD_QUERY 130u
#define TERN_ICMPV6_MLD_REPORT 131u
#define TERN_ICMPV6_MLD_DONE 132u
#define TERN_ICMPV6_ROUTER_SOLICIT 133u
#define TERN_ICMPV6_ROUTER_ADVERT 134u
#define TERN_ICMPV6_NEIGHBOR_SOLICIT 135u
#define TERN_ICMPV6_NEIGHBOR_ADVERT 136u
#define TERN_ICMPV6_REDIRECT 137u
#define TERN_ICMPV6_MLDV2_REPORT 143u
/** @} */

/** @name Destination Unreachable codes (RFC 4443 §3.1) */
/** @{ */
#define TERN_ICMPV6_DST_UNREACH_NO_ROUTE 0u
#define TERN_ICMPV6_DST_UNREACH_ADMIN 1u
#define TERN_ICMPV6_DST_UNREACH_BEYOND_SCOPE 2u
#define TERN_ICMPV6_DST_UNREACH_ADDR 3u
#define TERN_ICMPV6_DST_UNREACH_PORT 4u
#define TERN_ICMPV6_DST_UNREACH_POLICY 5u
#define TERN_ICMPV6_DST_UNREACH_REJECT_ROUTE 6u
/** @} */

/** @name Time Exceeded codes (RFC 4443 §3.3) */
/** @{ */
#define TERN_ICMPV6_TIME_EXCEEDED_HOP_LIMIT 0u
#define TERN_ICMPV6_TIME_EXCEEDED_REASSEMBLY 1u
/** @} */

/** @name Parameter Problem codes (RFC 4443 §3.4) */
/** @{ */
#define TERN_ICMPV6_PARAM_PROBLEM_HEADER_FIELD 0u
#define TERN_ICMPV6_PARAM_PROBLEM_NEXT_HEADER 1u
#define TERN_ICMPV6_PARAM_PROBLEM_OPTION 2u
/** @} */

/** The common header (RFC 4443 §2.1). */
typedef struct {
    uint8_t type;
    uint8_t code;
    uint16_t checksum; /**< host order, as on the wire */
} tern_icmpv6_hdr_t;

/** Echo Request / Echo Reply (RFC 4443 §4.1, §4.2). */
typedef struct {
    uint8_t type;        /**< TERN_ICMPV6_ECHO_REQUEST or TERN_ICMPV6_ECHO_REPLY */
    uint16_t identifier;
    uint16_t sequence;
    const uint8_t *data; /**< parse: points into the message; emit: copied (may be NULL if data_len is 0) */
    size_t data_len;
} tern_icmpv6_echo_repr_t;

/**
 * An error message (RFC 4443 §3): any type below 128.
 *
 * The second 32-bit word is `param`: the MTU of Packet Too Big (§3.2), the
 * pointer of Parameter Problem (§3.4), unused (0 on emit, ignored on receive)
 * for Destination Unreachable (§3.1) and Time Exceeded (§3.3). Unknown error
 * types parse too, so that the caller can hand them to the upper layer (§2.4(b)).
 */
typedef struct {
    uint8_t type;
    uint8_t code;
    uint32_t param;
    const uint8_t *invoking; /**< as much of the invoking packet as the message carries */
    size_t invoking_len;
} tern_icmpv6_error_repr_t;

/**
 * True for error messages (type < 128, RFC 4443 §2.1). An error message is
 * never sent in response to one of these (§2.4(e.1)).
 */
bool tern_icmpv6_is_error(uint8_t type);

/**
 * Parse the common header at the start of @p buf.
 * @param[out] hdr  parsed header
 * @param[in] buf   the ICMPv6 message
 * @param[in] len   its length
 * @return TERN_ICMPV6_HDR_LEN; -EBADMSG if @p len is shorter.
 * @see RFC 4443 §2.1
 */
int tern_icmpv6_hdr_parse(tern_icmpv6_hdr_t *hdr, const uint8_t *buf, size_t len);

/**
 * Write the common header.
 * @return TERN_ICMPV6_HDR_LEN; -ENOBUFS if @p len is shorter.
 */
int tern_icmpv6_hdr_emit(const tern_icmpv6_hdr_t *hdr, uint8_t *buf, size_t len);

/**
 * Parse an Echo Request or Echo Reply. The code is not checked: §4.1 defines
 * only code 0 but no rule asks to discard others (Linux answers them too).
 * @param[out] repr  parsed message, data pointing into @p buf
 * @return the message length (@p len); -EBADMSG if shorter than
 *         TERN_ICMPV6_FIXED_LEN or the type is not an echo type.
 * @see RFC 4443 §4.1, §4.2
 */
int tern_icmpv6_echo_parse(tern_icmpv6_echo_repr_t *repr, const uint8_t *buf, size_t len);

/** Length tern_icmpv6_echo_emit() writes: 8 + data_len. */
size_t tern_icmpv6_echo_len(const tern_icmpv6_echo_repr_t *repr);

/**
 * Write an echo message (code 0, checksum 0) followed by its data. The data
 * may overlap @p buf (e.g. a reply built in place over the request).
 * @return bytes written; -EINVAL for a type other than the echo types or
 *         NULL data with a nonzero data_len; -ENOBUFS if @p len is too small.
 */
int tern_icmpv6_echo_emit(const tern_icmpv6_echo_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse an error message (any type < 128).
 * @return the message length (@p len); -EBADMSG if shorter than
 *         TERN_ICMPV6_FIXED_LEN or the type is >= 128.
 * @see RFC 4443 §3
 */
int tern_icmpv6_error_parse(tern_icmpv6_error_repr_t *repr, const uint8_t *buf, size_t len);

/** Most extension headers of a quoted packet tern_icmpv6_error_quote() skips. */
#define TERN_ICMPV6_QUOTE_EXT_MAX 8u

/**
 * Parse an error message and find the upper-layer header of the packet it
 * quotes (RFC 4443 §2.4 (e): to identify the process that sent it): the
 * invoking packet's IPv6 header into @p inner, its extension headers
 * (Hop-by-Hop, Routing, Fragment, Destination Options, AH...; at most
 * TERN_ICMPV6_QUOTE_EXT_MAX) skipped.
 * @param[out] err        the error message (invoking points into @p buf)
 * @param[out] inner      the invoking packet's fixed header
 * @param[out] upper_off  where its upper-layer header starts in err->invoking
 *                        (may equal err->invoking_len: none of it quoted)
 * @return the upper-layer protocol (Next Header value, >= 0); -EBADMSG when
 *         the message or the quoted IPv6 header is malformed or truncated, the
 *         quote ends inside an extension header, the chain is longer than
 *         TERN_ICMPV6_QUOTE_EXT_MAX, or the packet is a non-first fragment.
 */
int tern_icmpv6_error_quote(const uint8_t *buf, size_t len, tern_icmpv6_error_repr_t *err,
                            tern_ipv6_repr_t *inner, size_t *upper_off);

/** Length tern_icmpv6_error_emit() writes: 8 + invoking_len. */
size_t tern_icmpv6_error_len(const tern_icmpv6_error_repr_t *repr);

/**
 * Write an error message (checksum 0) followed by the invoking packet, which
 * either lies apart from @p buf or already where it goes (at @p buf + 8, left
 * as it is); any other overlap is not allowed. The caller bounds invoking_len with
 * tern_icmpv6_error_invoking_fit() first; this function does not truncate.
 * @return bytes written; -EINVAL for a type >= 128 or NULL invoking with a
 *         nonzero invoking_len; -ENOBUFS if @p len is too small.
 */
int tern_icmpv6_error_emit(const tern_icmpv6_error_repr_t *repr, uint8_t *buf, size_t len);

/**
 * How many bytes of the invoking packet an error message may carry so that
 * the whole IPv6 packet does not exceed the minimum MTU of 1280 (RFC 4443 §2.4(c)).
 * @param[in] invoking_len  length of the invoking packet (from its IPv6 header on)
 * @param[in] ip_overhead   bytes the error message's IPv6 packet adds in front
 *                          of the ICMPv6 message: 40, plus any extension headers
 * @return min(@p invoking_len, 1280 - @p ip_overhead - 8); 0 if nothing fits.
 */
size_t tern_icmpv6_error_invoking_fit(size_t invoking_len, size_t ip_overhead);

/**
 * Checksum of a message scattered over @p count spans (e.g. packet snips,
 * tern_checksum_span_t of tern/wire/checksum.h), with the IPv6
 * pseudo-header (source, destination, total length of the spans, next header 58).
 * @pre the checksum field (message bytes 2 and 3) is zero.
 * @return the value to store in the checksum field (host order).
 * @see RFC 4443 §2.3, RFC 8200 §8.1
 */
uint16_t tern_icmpv6_checksum_compute(const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                                      const tern_checksum_span_t *spans, size_t count);

/**
 * Verify the checksum of a message scattered over @p count spans.
 * @return true if it is correct.
 * @see RFC 4443 §2.3
 */
bool tern_icmpv6_checksum_verify(const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                                 const tern_checksum_span_t *spans, size_t count);

/**
 * Compute and store the checksum of the contiguous message @p buf.
 * @return 0; -EBADMSG if @p len is shorter than TERN_ICMPV6_HDR_LEN.
 */
int tern_icmpv6_checksum_fill(uint8_t *buf, size_t len, const tern_ipv6_addr_t *src,
                              const tern_ipv6_addr_t *dst);

#endif /* TERN_WIRE_ICMPV6_H */
