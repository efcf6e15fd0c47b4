/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Internet checksum (RFC 1071) and the IPv6 pseudo-header (RFC 8200 §8.1).
 *
 * Partial sums are carried as uint32_t and may be chained over several byte
 * spans. tern_checksum_add() treats its span as starting at an even offset of
 * the checksummed data; when a span may start at an odd offset (after an
 * odd-length span), the caller tracks the running offset and uses
 * tern_checksum_add_at() instead.
 *
 * To compute: start from 0, add the pseudo-header and every span with the
 * checksum field zero, then tern_checksum_finish(). To verify: add everything
 * including the received checksum field; tern_checksum_finish() returns 0 when
 * it is correct. Transport rules (UDP's 0 -> 0xFFFF) are in the transport
 * modules (see tern/wire/udp.h).
 *
 * @see RFC 1071, RFC 8200 §8.1
 */
#ifndef TERN_WIRE_CHECKSUM_H
#define TERN_WIRE_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"

/**
 * Add @p len bytes at @p data to the running sum @p sum, as if they started at
 * an even offset of the checksummed data. An odd last byte is padded with a
 * zero byte (RFC 1071 §4.1).
 * @param[in] sum   running sum (0 to start; any previous return value)
 * @param[in] data  bytes to add; may be NULL when @p len is 0
 * @param[in] len   number of bytes
 * @return the new running sum, folded to 16 bits (never 0 unless all inputs were 0)
 * @see RFC 1071 §4.1
 */
uint32_t tern_checksum_add(uint32_t sum, const void *data, size_t len);

/**
 * Add @p len bytes that start at byte offset @p offset of the checksummed
 * data (so that a span starting at an odd offset is summed correctly: only
 * the parity of @p offset matters).
 * @return the new running sum, folded to 16 bits
 * @see RFC 1071 §2 (B) (byte order independence)
 */
uint32_t tern_checksum_add_at(uint32_t sum, const void *data, size_t len, size_t offset);

/**
 * Add the IPv6 pseudo-header: source, destination, 32-bit upper-layer packet
 * length, three zero bytes, next header.
 * @param[in] src          source address of the packet
 * @param[in] dst          final destination (the last Routing header address if any)
 * @param[in] len          upper-layer packet length (header + payload)
 * @param[in] next_header  upper-layer protocol number (e.g. 17 for UDP, 58 for ICMPv6)
 * @return the new running sum, folded to 16 bits
 * @see RFC 8200 §8.1
 */
uint32_t tern_checksum_ipv6_pseudo(uint32_t sum, const tern_ipv6_addr_t *src,
                                   const tern_ipv6_addr_t *dst, uint32_t len, uint8_t next_header);

/**
 * The sum of an upper-layer packet and its IPv6 pseudo-header, in one
 * accumulation (folded once): the 32 bytes at @p addrs (source then
 * destination address, as they follow each other in the IPv6 header), the
 * length @p upper_len, three zero bytes, @p next_header, then the
 * @p upper_len bytes at @p upper (as from an even offset).
 * @param[in] upper  may be NULL when @p upper_len is 0
 * @return the running sum, folded to 16 bits (tern_checksum_finish() gives 0
 *         for a received packet whose checksum is correct)
 * @see RFC 8200 §8.1
 */
uint32_t tern_checksum_ipv6_upper(const void *addrs, const void *upper, size_t upper_len, uint8_t next_header);

/** One span of a scatter list (e.g. the snips of a packet). */
typedef struct {
    const void *data; /**< may be NULL when @ref len is 0 */
    size_t len;
} tern_checksum_span_t;

/**
 * Add @p count spans, in order, as one contiguous run of bytes that starts at
 * an even offset (odd-length spans are handled with tern_checksum_add_at()).
 * @return the new running sum, folded to 16 bits
 */
uint32_t tern_checksum_add_spans(uint32_t sum, const tern_checksum_span_t *spans, size_t count);

/**
 * The IPv6 pseudo-header and @p count spans in one accumulation (folded
 * once): what tern_checksum_add_spans(tern_checksum_ipv6_pseudo(0, @p src,
 * @p dst, @p len, @p next_header), @p spans, @p count) gives.
 * @param[in] src          source address of the packet
 * @param[in] dst          final destination (the last Routing header address if any)
 * @param[in] len          upper-layer packet length (header + payload)
 * @param[in] next_header  upper-layer protocol number
 * @param[in] spans        the upper-layer packet, as for tern_checksum_add_spans()
 * @param[in] count        number of @p spans
 * @return the running sum, folded to 16 bits
 * @see RFC 8200 §8.1
 */
uint32_t tern_checksum_ipv6_spans(const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst, uint32_t len,
                                  uint8_t next_header, const tern_checksum_span_t *spans, size_t count);

/**
 * Fold @p sum to 16 bits and complement it: the value to put on the wire
 * (host order; store it big-endian).
 * @return the checksum; 0 when verifying data that includes a correct checksum
 */
uint16_t tern_checksum_finish(uint32_t sum);

#endif /* TERN_WIRE_CHECKSUM_H */
