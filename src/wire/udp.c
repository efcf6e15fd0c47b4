/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief UDP header (RFC 768) and its checksum over IPv6 (RFC 8200 §8.1).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/bytes.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/udp.h"

/* IANA protocol number of UDP, the pseudo-header's Next Header. */
#define NEXT_HEADER_UDP 17u

int tern_udp_parse(tern_udp_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < TERN_UDP_HDR_LEN) {
        return -EBADMSG;
    }
    uint16_t length = tern_load16(&buf[4]);
    /* RFC 768: Length counts header and data, so at least 8. */
    if (length < TERN_UDP_HDR_LEN || length > len) {
        return -EBADMSG;
    }
    repr->src_port = tern_load16(&buf[0]);
    repr->dst_port = tern_load16(&buf[2]);
    repr->length = length;
    repr->checksum = tern_load16(&buf[6]);
    return TERN_UDP_HDR_LEN;
}

void tern_udp_ports_get(const uint8_t *buf, uint16_t *src, uint16_t *dst)
{
    *src = tern_load16(&buf[0]);
    *dst = tern_load16(&buf[2]);
}

size_t tern_udp_len(const tern_udp_repr_t *repr)
{
    (void)repr;
    return TERN_UDP_HDR_LEN;
}

int tern_udp_emit(const tern_udp_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0) || repr->length < TERN_UDP_HDR_LEN) {
        return -EINVAL;
    }
    if (len < TERN_UDP_HDR_LEN) {
        return -ENOBUFS;
    }
    tern_store16(&buf[0], repr->src_port);
    tern_store16(&buf[2], repr->dst_port);
    tern_store16(&buf[4], repr->length);
    tern_store16(&buf[6], repr->checksum);
    return TERN_UDP_HDR_LEN;
}

int tern_udp_set_checksum(uint8_t *buf, size_t len, uint16_t checksum)
{
    if (buf == NULL && len != 0) {
        return -EINVAL;
    }
    if (len < TERN_UDP_HDR_LEN) {
        return -ENOBUFS;
    }
    tern_store16(&buf[6], checksum);
    return 0;
}

static size_t spans_len(const tern_checksum_span_t *spans, size_t count)
{
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        total += spans[i].len;
    }
    return total;
}

uint16_t tern_udp_checksum(const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                           const tern_checksum_span_t *spans, size_t count)
{
    size_t total = spans_len(spans, count);
    uint32_t sum = tern_checksum_ipv6_pseudo(0, src, dst, (uint32_t)total, NEXT_HEADER_UDP);
    sum = tern_checksum_add_spans(sum, spans, count);
    uint16_t checksum = tern_checksum_finish(sum);
    /* RFC 768: a computed 0 is transmitted as all ones (0 means "none"). */
    return checksum == 0 ? 0xFFFFu : checksum;
}

int tern_udp_checksum_verify(const tern_udp_repr_t *repr, const tern_ipv6_addr_t *src,
                             const tern_ipv6_addr_t *dst, const tern_checksum_span_t *spans,
                             size_t count)
{
    if (repr == NULL || src == NULL || dst == NULL || (spans == NULL && count != 0)) {
        return -EINVAL;
    }
    /* RFC 8200 §8.1: over IPv6 the UDP checksum is mandatory; 0 is discarded. */
    if (repr->checksum == 0 || spans_len(spans, count) != repr->length) {
        return -EBADMSG;
    }
    uint32_t sum = tern_checksum_ipv6_pseudo(0, src, dst, repr->length, NEXT_HEADER_UDP);
    sum = tern_checksum_add_spans(sum, spans, count);
    return tern_checksum_finish(sum) == 0 ? 0 : -EBADMSG;
}

int tern_udp_checksum_verify_bytes(const tern_udp_repr_t *repr, const uint8_t *ip, size_t ip_len, const void *data,
                                   size_t len)
{
    if (repr == NULL || ip == NULL || (data == NULL && len != 0)) {
        return -EINVAL;
    }
    /* RFC 8200 §8.1: over IPv6 the UDP checksum is mandatory; 0 is discarded. */
    if (repr->checksum == 0 || len != repr->length) {
        return -EBADMSG;
    }
    uint32_t sum = 0;
    if (tern_ipv6_upper_sum(ip, ip_len, data, len, NEXT_HEADER_UDP, &sum) < 0) {
        return -EBADMSG;
    }
    return tern_checksum_finish(sum) == 0 ? 0 : -EBADMSG;
}
