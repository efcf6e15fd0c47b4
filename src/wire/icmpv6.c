/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief ICMPv6 messages (RFC 4443): common header, echo, error messages, checksum.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/bytes.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"

bool tern_icmpv6_is_error(uint8_t type)
{
    /* RFC 4443 §2.1: error messages have a zero high-order bit in the type. */
    return type < 128u;
}

int tern_icmpv6_hdr_parse(tern_icmpv6_hdr_t *hdr, const uint8_t *buf, size_t len)
{
    if (len < TERN_ICMPV6_HDR_LEN) {
        return -EBADMSG;
    }
    hdr->type = buf[0];
    hdr->code = buf[1];
    hdr->checksum = tern_load16(buf + 2);
    return (int)TERN_ICMPV6_HDR_LEN;
}

int tern_icmpv6_hdr_emit(const tern_icmpv6_hdr_t *hdr, uint8_t *buf, size_t len)
{
    if (len < TERN_ICMPV6_HDR_LEN) {
        return -ENOBUFS;
    }
    buf[0] = hdr->type;
    buf[1] = hdr->code;
    tern_store16(buf + 2, hdr->checksum);
    return (int)TERN_ICMPV6_HDR_LEN;
}

/* Messages are bounded by the IPv6 payload length (16 bits) or a jumbogram;
 * an int return value covers every buffer a constrained node holds. */
static int length_result(size_t len)
{
    return len > (size_t)INT32_MAX ? -EINVAL : (int)len;
}

int tern_icmpv6_echo_parse(tern_icmpv6_echo_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (len < TERN_ICMPV6_FIXED_LEN) {
        return -EBADMSG;
    }
    if (buf[0] != TERN_ICMPV6_ECHO_REQUEST && buf[0] != TERN_ICMPV6_ECHO_REPLY) {
        return -EBADMSG;
    }
    repr->type = buf[0];
    repr->identifier = tern_load16(buf + 4);
    repr->sequence = tern_load16(buf + 6);
    repr->data = buf + TERN_ICMPV6_FIXED_LEN;
    repr->data_len = len - TERN_ICMPV6_FIXED_LEN;
    return length_result(len);
}

size_t tern_icmpv6_echo_len(const tern_icmpv6_echo_repr_t *repr)
{
    return TERN_ICMPV6_FIXED_LEN + repr->data_len;
}

int tern_icmpv6_echo_emit(const tern_icmpv6_echo_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr->type != TERN_ICMPV6_ECHO_REQUEST && repr->type != TERN_ICMPV6_ECHO_REPLY) {
        return -EINVAL;
    }
    if (repr->data == NULL && repr->data_len != 0) {
        return -EINVAL;
    }
    if (repr->data_len > (size_t)INT32_MAX - TERN_ICMPV6_FIXED_LEN) {
        return -EINVAL;
    }
    size_t need = tern_icmpv6_echo_len(repr);
    if (len < need) {
        return -ENOBUFS;
    }
    /* Data first: it may lie where the header goes (a reply built in place). */
    if (repr->data_len != 0) {
        memmove(buf + TERN_ICMPV6_FIXED_LEN, repr->data, repr->data_len);
    }
    buf[0] = repr->type;
    buf[1] = 0;
    tern_store16(buf + 2, 0);
    tern_store16(buf + 4, repr->identifier);
    tern_store16(buf + 6, repr->sequence);
    return (int)need;
}

int tern_icmpv6_error_parse(tern_icmpv6_error_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (len < TERN_ICMPV6_FIXED_LEN || !tern_icmpv6_is_error(buf[0])) {
        return -EBADMSG;
    }
    repr->type = buf[0];
    repr->code = buf[1];
    repr->param = tern_load32(buf + 4);
    repr->invoking = buf + TERN_ICMPV6_FIXED_LEN;
    repr->invoking_len = len - TERN_ICMPV6_FIXED_LEN;
    return length_result(len);
}

size_t tern_icmpv6_error_len(const tern_icmpv6_error_repr_t *repr)
{
    return TERN_ICMPV6_FIXED_LEN + repr->invoking_len;
}

int tern_icmpv6_error_emit(const tern_icmpv6_error_repr_t *repr, uint8_t *buf, size_t len)
{
    if (!tern_icmpv6_is_error(repr->type)) {
        return -EINVAL;
    }
    if (repr->invoking == NULL && repr->invoking_len != 0) {
        return -EINVAL;
    }
    if (repr->invoking_len > (size_t)INT32_MAX - TERN_ICMPV6_FIXED_LEN) {
        return -EINVAL;
    }
    size_t need = tern_icmpv6_error_len(repr);
    if (len < need) {
        return -ENOBUFS;
    }
    /* Disjoint from the output or already in place (the contract): a plain
     * copy, and none at all in place (the stack gathers the invoking packet
     * there); no memmove in images that need none otherwise. */
    if (repr->invoking_len != 0 && repr->invoking != buf + TERN_ICMPV6_FIXED_LEN) {
        memcpy(buf + TERN_ICMPV6_FIXED_LEN, repr->invoking, repr->invoking_len);
    }
    buf[0] = repr->type;
    buf[1] = repr->code;
    tern_store16(buf + 2, 0);
    tern_store32(buf + 4, repr->param);
    return (int)need;
}

size_t tern_icmpv6_error_invoking_fit(size_t invoking_len, size_t ip_overhead)
{
    /* RFC 4443 §2.4(c): "as much of invoking packet as possible without the
     * ICMPv6 packet exceeding the minimum IPv6 MTU". */
    size_t limit = TERN_ICMPV6_IPV6_MIN_MTU;
    if (ip_overhead >= limit || limit - ip_overhead <= TERN_ICMPV6_FIXED_LEN) {
        return 0;
    }
    size_t room = limit - ip_overhead - TERN_ICMPV6_FIXED_LEN;
    return invoking_len < room ? invoking_len : room;
}

static uint32_t sum_spans(const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                          const tern_checksum_span_t *spans, size_t count)
{
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += spans[i].len;
    }
    /* RFC 4443 §2.3 / RFC 8200 §8.1: the pseudo-header's Upper-Layer Packet
     * Length is the ICMPv6 message length, Next Header is 58. */
    uint32_t sum = tern_checksum_ipv6_pseudo(0, src, dst, (uint32_t)len,
                                             (uint8_t)TERN_ICMPV6_NEXT_HEADER);
    return tern_checksum_add_spans(sum, spans, count);
}

uint16_t tern_icmpv6_checksum_compute(const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                                      const tern_checksum_span_t *spans, size_t count)
{
    return tern_checksum_finish(sum_spans(src, dst, spans, count));
}

bool tern_icmpv6_checksum_verify(const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                                 const tern_checksum_span_t *spans, size_t count)
{
    /* The sum over the message including its checksum field is all ones. */
    return tern_checksum_finish(sum_spans(src, dst, spans, count)) == 0;
}

int tern_icmpv6_checksum_fill(uint8_t *buf, size_t len, const tern_ipv6_addr_t *src,
                              const tern_ipv6_addr_t *dst)
{
    if (len < TERN_ICMPV6_HDR_LEN) {
        return -EBADMSG;
    }
    tern_store16(buf + 2, 0);
    tern_checksum_span_t span = { buf, len };
    tern_store16(buf + 2, tern_icmpv6_checksum_compute(src, dst, &span, 1));
    return 0;
}

int tern_icmpv6_error_quote(const uint8_t *buf, size_t len, tern_icmpv6_error_repr_t *err,
                            tern_ipv6_repr_t *inner, size_t *upper_off)
{
    if (tern_icmpv6_error_parse(err, buf, len) < 0 || tern_ipv6_parse(inner, err->invoking, err->invoking_len) < 0) {
        return -EBADMSG;
    }
    /* RFC 4443 §2.4 (e): the upper-layer protocol is found by skipping the
     * invoking packet's extension headers, as far as the quote holds them. */
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    tern_ipv6_ext_walk_init(&walk, err->invoking + TERN_IPV6_HDR_LEN, err->invoking_len - TERN_IPV6_HDR_LEN,
                            inner->next_header);
    for (unsigned n = 0;; n++) {
        int r = tern_ipv6_ext_walk_next(&walk, &ext);
        if (r < 0 || (r > 0 && n == TERN_ICMPV6_QUOTE_EXT_MAX)) {
            return -EBADMSG; /* truncated inside the chain, or too long a chain */
        }
        if (r == 0) {
            break;
        }
        if (ext.type == TERN_IPV6_NH_FRAGMENT && (tern_load16(&walk.buf[ext.offset + 2]) >> 3) != 0) {
            return -EBADMSG; /* a non-first fragment has no upper-layer header (RFC 8200 §4.5) */
        }
    }
    *upper_off = TERN_IPV6_HDR_LEN + walk.offset;
    return walk.next_header;
}
