/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief UDP header (RFC 768) and its checksum over IPv6 (RFC 8200 §8.1).
 *
 * Checksum rules over IPv6 (RFC 8200 §8.1, RFC 768):
 * - the checksum covers the IPv6 pseudo-header, the UDP header and the payload;
 * - a computed checksum of 0 is sent as 0xFFFF (tern_udp_checksum() does it);
 * - a received checksum of 0 is invalid: the packet is discarded
 *   (tern_udp_checksum_verify() says so). RFC 6935/6936 zero-checksum
 *   tunnels are not supported.
 */
#ifndef TERN_WIRE_UDP_H
#define TERN_WIRE_UDP_H

#include <stddef.h>
#include <stdint.h>

#include "tern/wire/checksum.h"
#include "tern/wire/ipv6_addr.h"

/** Length of the UDP header. */
#define TERN_UDP_HDR_LEN 8

/** The header, fields in host order. */
typedef struct {
    uint16_t src_port;
    uint16_t dst_port;
    uint16_t length;    /**< header + payload, in bytes (>= 8) */
    uint16_t checksum;  /**< as on the wire */
} tern_udp_repr_t;

/**
 * Parse the header at the start of @p buf, where @p len is the upper-layer
 * length (the bytes after the IPv6 extension headers).
 *
 * The Length field must lie in 8..@p len; bytes beyond it are not UDP's
 * (the caller trims them). The checksum is not verified here.
 * @param[out] repr  the header; unchanged on error
 * @return TERN_UDP_HDR_LEN; -EBADMSG if @p len < 8 or the Length field is
 *         < 8 or > @p len; -EINVAL for a NULL pointer.
 * @see RFC 768
 */
int tern_udp_parse(tern_udp_repr_t *repr, const uint8_t *buf, size_t len);

/**
 * The source and destination ports of the header at @p buf, reading no other
 * field: for a datagram the UDP module checked already (one it delivered).
 * @pre @p buf holds at least TERN_UDP_HDR_LEN bytes; @p src, @p dst non-NULL
 * @see RFC 768
 */
void tern_udp_ports_get(const uint8_t *buf, uint16_t *src, uint16_t *dst);

/** Bytes tern_udp_emit() writes: always TERN_UDP_HDR_LEN. */
size_t tern_udp_len(const tern_udp_repr_t *repr);

/**
 * Write the header, every field as given in @p repr (compute the checksum
 * afterwards with tern_udp_checksum() and store it with tern_udp_set_checksum()).
 * @return TERN_UDP_HDR_LEN; -ENOBUFS if @p len < 8 (nothing written);
 *         -EINVAL for a Length field < 8 or a NULL pointer.
 */
int tern_udp_emit(const tern_udp_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Store @p checksum (host order) into the header at @p buf.
 * @return 0; -ENOBUFS if @p len < 8; -EINVAL for a NULL pointer.
 */
int tern_udp_set_checksum(uint8_t *buf, size_t len, uint16_t checksum);

/**
 * The checksum to send: over the pseudo-header (with the total length of
 * @p spans as upper-layer length) and @p spans, which hold the UDP header
 * with its checksum field 0, then the payload, in order.
 * @pre @p src, @p dst non-NULL; @p spans non-NULL unless @p count is 0
 * @return the checksum in host order, never 0 (a computed 0 is 0xFFFF, RFC 768).
 * @see RFC 8200 §8.1
 */
uint16_t tern_udp_checksum(const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                           const tern_checksum_span_t *spans, size_t count);

/**
 * Verify the checksum of a received datagram: @p repr is its parsed header,
 * @p spans hold exactly repr->length bytes (header, checksum field as
 * received, payload).
 * @return 0 when valid; -EBADMSG when the checksum is 0 (invalid over IPv6,
 *         RFC 8200 §8.1), the spans do not add up to repr->length, or the sum
 *         does not verify; -EINVAL for a NULL pointer.
 */
int tern_udp_checksum_verify(const tern_udp_repr_t *repr, const tern_ipv6_addr_t *src,
                             const tern_ipv6_addr_t *dst, const tern_checksum_span_t *spans,
                             size_t count);

/**
 * Verify the checksum of a received datagram of @p len bytes at @p data
 * (header, checksum field as received, payload; exactly repr->length bytes)
 * that came in the IPv6 packet whose fixed header is the @p ip_len bytes at
 * @p ip (tern_ipv6_upper_sum(): its pseudo-header and the datagram in one
 * accumulation): tern_udp_checksum_verify() for a datagram in one buffer
 * whose IPv6 header is at hand in bytes.
 * @return 0 when valid; -EBADMSG when the checksum is 0 (invalid over IPv6,
 *         RFC 8200 §8.1), @p len is not repr->length, @p ip_len < 40, or the
 *         sum does not verify; -EINVAL for a NULL pointer.
 */
int tern_udp_checksum_verify_bytes(const tern_udp_repr_t *repr, const uint8_t *ip, size_t ip_len, const void *data,
                                   size_t len);

#endif /* TERN_WIRE_UDP_H */
