/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Internet checksum (RFC 1071) and the IPv6 pseudo-header (RFC 8200 §8.1).
 *
 * Partial sums are carried as uint32_t and may be chained over several byte
 * spans (odd-length spans are handled: the next span continues at the right
 * byte position when @p offset_odd is tracked by the caller via
 * tern_checksum_add_at()).
 */
#ifndef TERN_WIRE_CHECKSUM_H
#define TERN_WIRE_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"

/** Add @p len bytes at @p data to the running sum @p sum, as if they started at an even offset. */
uint32_t tern_checksum_add(uint32_t sum, const void *data, size_t len);

/**
 * Add @p len bytes that start at byte offset @p offset of the checksummed
 * data (so that a span starting at an odd offset is summed correctly).
 */
uint32_t tern_checksum_add_at(uint32_t sum, const void *data, size_t len, size_t offset);

/** Add the IPv6 pseudo-header: source, destination, upper-layer length, next header. */
uint32_t tern_checksum_ipv6_pseudo(uint32_t sum, const tern_ipv6_addr_t *src,
                                   const tern_ipv6_addr_t *dst, uint32_t len, uint8_t next_header);

/** Fold @p sum to 16 bits and complement it: the value to put on the wire (host order). */
uint16_t tern_checksum_finish(uint32_t sum);

#endif /* TERN_WIRE_CHECKSUM_H */
