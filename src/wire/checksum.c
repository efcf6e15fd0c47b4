/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Internet checksum (RFC 1071) and the IPv6 pseudo-header (RFC 8200 §8.1).
 */
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/bytes.h"
#include "tern/wire/checksum.h"

/* End-around carry: fold a 32-bit partial sum to 16 bits (RFC 1071 §2 (C)). */
static uint32_t fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffffu) + (sum >> 16);
    }
    return sum;
}

uint32_t tern_checksum_add(uint32_t sum, const void *data, size_t len)
{
    const uint8_t *p = data;
    /* 32-bit big-endian words into a 64-bit accumulator, folded once at the
     * end: the one's complement sum does not depend on the word size, as
     * 2^16 = 1 modulo 2^16 - 1 (RFC 1071 §2 (B), (C): deferred carries,
     * "parallel summation"). 2^32 additions of words below 2^32 cannot
     * overflow 64 bits. Bytes are assembled, so any alignment will do. */
    uint64_t acc = fold(sum);
    while (len >= 8) {
        acc += (uint64_t)tern_load32(p) + tern_load32(p + 4);
        p += 8;
        len -= 8;
    }
    if (len >= 4) {
        acc += tern_load32(p);
        p += 4;
        len -= 4;
    }
    if (len >= 2) {
        acc += tern_load16(p);
        p += 2;
        len -= 2;
    }
    if (len == 1) {
        /* An odd trailing byte is padded with a zero byte (RFC 1071 §4.1). */
        acc += (uint32_t)p[0] << 8;
    }
    acc = (acc & 0xffffffffu) + (acc >> 32);
    acc = (acc & 0xffffffffu) + (acc >> 32);
    return fold((uint32_t)acc);
}

uint32_t tern_checksum_add_at(uint32_t sum, const void *data, size_t len, size_t offset)
{
    uint32_t part = tern_checksum_add(0, data, len);
    if (offset & 1u) {
        /* Byte-order independence (RFC 1071 §2 (B)): a span starting at an odd
         * offset sums to the byte swap of its sum taken from an even offset. */
        part = ((part & 0xffu) << 8) | (part >> 8);
    }
    return fold(fold(sum) + part);
}

uint32_t tern_checksum_ipv6_pseudo(uint32_t sum, const tern_ipv6_addr_t *src,
                                   const tern_ipv6_addr_t *dst, uint32_t len, uint8_t next_header)
{
    /* RFC 8200 §8.1: source, destination, 32-bit upper-layer packet length,
     * three zero bytes, next header. */
    sum = tern_checksum_add(sum, src->u8, sizeof(src->u8));
    sum = tern_checksum_add(sum, dst->u8, sizeof(dst->u8));
    sum += (len >> 16) + (len & 0xffffu) + next_header;
    return fold(sum);
}

uint16_t tern_checksum_finish(uint32_t sum)
{
    return (uint16_t)~fold(sum);
}

uint32_t tern_checksum_add_spans(uint32_t sum, const tern_checksum_span_t *spans, size_t count)
{
    size_t offset = 0;
    for (size_t i = 0; i < count; i++) {
        sum = tern_checksum_add_at(sum, spans[i].data, spans[i].len, offset);
        offset += spans[i].len;
    }
    return sum;
}
