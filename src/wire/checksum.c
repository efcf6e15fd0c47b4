/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Internet checksum (RFC 1071) and the IPv6 pseudo-header (RFC 8200 §8.1).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/config.h"
#include "tern/wire/bytes.h"
#include "tern/wire/checksum.h"

/* End-around carry: fold a 32-bit partial sum to 16 bits (RFC 1071 §2 (C)).
 * Two steps always suffice: the first leaves at most 0x1fffe, the second at
 * most 0xffff. */
static uint32_t fold(uint32_t sum)
{
    sum = (sum & 0xffffu) + (sum >> 16);
    return (sum & 0xffffu) + (sum >> 16);
}

/* Fold a 64-bit partial sum to 16 bits: the first step leaves at most
 * 2^33 - 2, the second at most 2^32 - 1. */
static uint32_t fold64(uint64_t acc)
{
    acc = (acc & 0xffffffffu) + (acc >> 32);
    acc = (acc & 0xffffffffu) + (acc >> 32);
    return fold((uint32_t)acc);
}

static uint32_t swap16(uint32_t v)
{
    return ((v & 0xffu) << 8) | (v >> 8);
}

/* The machine's byte order, when the compiler says (GCC, clang); else words
 * are assembled byte by byte. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_ORDER 1
#define NATIVE_LITTLE 1
#elif defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NATIVE_ORDER 1
#define NATIVE_LITTLE 0
#else
#define NATIVE_ORDER 0
#define NATIVE_LITTLE 0
#endif

/*
 * Partial sums are kept in "accumulator order": the machine's byte order
 * when it is known, big-endian otherwise. The sum of byte-swapped 16-bit
 * words is the byte swap of the sum (RFC 1071 §2 (B)), so a little-endian
 * machine sums words as it loads them and swaps once, entering and leaving
 * (to_acc(), from_acc()); the callers' sums are big-endian.
 */
static uint64_t to_acc(uint32_t sum)
{
    return NATIVE_LITTLE ? swap16(fold(sum)) : sum;
}

static uint32_t from_acc(uint64_t acc)
{
    return NATIVE_LITTLE ? swap16(fold64(acc)) : fold64(acc);
}

/*
 * Add the 16-bit words of @p len bytes at @p p to @p acc (accumulator
 * order). Words go into a 64-bit accumulator, folded once at the end: the
 * one's complement sum does not depend on the word size, as 2^16 = 1 modulo
 * 2^16 - 1 (RFC 1071 §2 (B), (C): deferred carries, "parallel summation");
 * 2^32 additions of words below 2^32 cannot overflow 64 bits. With the
 * machine's byte order, 16-byte blocks are added as two 64-bit words with
 * their end-around carries (2^64 = 1 modulo 2^16 - 1 as well), then the
 * accumulator is folded below 2^33 for the rest. Loads through memcpy or
 * bytes: any alignment will do.
 */
static uint64_t sum_words(uint64_t acc, const uint8_t *p, size_t len)
{
#if NATIVE_ORDER
    while (TERN_CONF_FAST_PATHS && len >= 16) {
        uint64_t w0;
        uint64_t w1;
        memcpy(&w0, p, sizeof(w0));
        memcpy(&w1, p + 8, sizeof(w1));
        /* 64-bit words with the end-around carry (RFC 1071 §2 (B), (C)):
         * 2^64 = 1 modulo 2^16 - 1 too. (acc + w wrapped: acc < w; adding
         * the carry back cannot wrap again.) */
        acc += w0;
        acc += (acc < w0) ? 1u : 0u;
        acc += w1;
        acc += (acc < w1) ? 1u : 0u;
        p += 16;
        len -= 16;
    }
    /* Below 2^33 again, so that the 32-bit words below cannot overflow it. */
    acc = (acc & 0xffffffffu) + (acc >> 32);
    while (len >= 4) {
        uint32_t w;
        memcpy(&w, p, sizeof(w));
        acc += w;
        p += 4;
        len -= 4;
    }
    if (len >= 2) {
        uint16_t w;
        memcpy(&w, p, sizeof(w));
        acc += w;
        p += 2;
        len -= 2;
    }
    if (len == 1) {
        /* An odd trailing byte is padded with a zero byte (RFC 1071 §4.1):
         * it is the high byte of its big-endian word. */
        acc += NATIVE_LITTLE ? (uint32_t)p[0] : (uint32_t)p[0] << 8;
    }
#else
    while (len >= 4) {
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
        acc += (uint32_t)p[0] << 8; /* padded with a zero byte (RFC 1071 §4.1) */
    }
#endif
    return acc;
}

uint32_t tern_checksum_add(uint32_t sum, const void *data, size_t len)
{
    return from_acc(sum_words(to_acc(sum), data, len));
}

uint32_t tern_checksum_add_at(uint32_t sum, const void *data, size_t len, size_t offset)
{
    uint32_t part = tern_checksum_add(0, data, len);
    if (offset & 1u) {
        /* Byte-order independence (RFC 1071 §2 (B)): a span starting at an odd
         * offset sums to the byte swap of its sum taken from an even offset. */
        part = swap16(part);
    }
    return fold(fold(sum) + part);
}

uint32_t tern_checksum_ipv6_pseudo(uint32_t sum, const tern_ipv6_addr_t *src,
                                   const tern_ipv6_addr_t *dst, uint32_t len, uint8_t next_header)
{
    /* RFC 8200 §8.1: source, destination, 32-bit upper-layer packet length,
     * three zero bytes, next header. */
    uint64_t acc = sum_words(to_acc(sum), src->u8, sizeof(src->u8));
    acc = sum_words(acc, dst->u8, sizeof(dst->u8));
    return fold(from_acc(acc) + (len >> 16) + (len & 0xffffu) + next_header);
}

uint32_t tern_checksum_ipv6_upper(const void *addrs, const void *upper, size_t upper_len, uint8_t next_header)
{
    /* RFC 8200 §8.1: the 32-bit length, three zero bytes and the next
     * header start the sum; the addresses (32 bytes, even length) and the
     * upper-layer bytes follow in the same accumulator, folded once. */
    uint32_t start = (uint32_t)(upper_len >> 16) + (uint32_t)(upper_len & 0xffffu) + next_header;
    uint64_t acc = sum_words(to_acc(start), addrs, 32);
    return from_acc(sum_words(acc, upper, upper_len));
}

uint16_t tern_checksum_finish(uint32_t sum)
{
    return (uint16_t)~fold(sum);
}

/* The spans of tern_checksum_add_spans() added to @p acc (accumulator order). */
static uint64_t spans_acc(uint64_t acc, const tern_checksum_span_t *spans, size_t count)
{
    /* One accumulator for the spans at even offsets, folded once at the
     * end: sum_words() takes any 64-bit accumulator (its 16-byte blocks
     * carry end-around, then it folds below 2^33 before its 32-bit words).
     * A span at an odd offset is summed alone and byte-swapped (RFC 1071
     * §2 (B)). */
    size_t offset = 0;
    for (size_t i = 0; i < count; i++) {
        if ((offset & 1u) == 0) {
            acc = sum_words(acc, spans[i].data, spans[i].len);
        } else {
            acc += to_acc(swap16(tern_checksum_add(0, spans[i].data, spans[i].len)));
        }
        offset += spans[i].len;
    }
    return acc;
}

uint32_t tern_checksum_add_spans(uint32_t sum, const tern_checksum_span_t *spans, size_t count)
{
    return from_acc(spans_acc(to_acc(sum), spans, count));
}

uint32_t tern_checksum_ipv6_spans(const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst, uint32_t len,
                                  uint8_t next_header, const tern_checksum_span_t *spans, size_t count)
{
    /* RFC 8200 §8.1: the 32-bit length, three zero bytes and the next
     * header start the sum; the addresses and the spans follow in the same
     * accumulator, folded once. */
    uint32_t start = (len >> 16) + (len & 0xffffu) + next_header;
    uint64_t acc = sum_words(to_acc(start), src->u8, sizeof(src->u8));
    acc = sum_words(acc, dst->u8, sizeof(dst->u8));
    return from_acc(spans_acc(acc, spans, count));
}
