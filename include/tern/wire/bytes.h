/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Big-endian (network order) loads and stores.
 *
 * Wire code never casts a byte pointer to a wider type: these copy the value
 * through memcpy, which works at any alignment (Cortex-M3 faults on some
 * unaligned accesses), and swap its bytes on a little-endian host. The
 * compiler makes that one load or store and a byte reverse where the target
 * allows unaligned halfword and word accesses (ARMv7-M's LDRH/LDR/STRH/STR,
 * x86), byte accesses where it does not: about 110 B less code than
 * assembling the bytes with shifts in the 6LoWPAN host footprint image.
 */
#ifndef TERN_WIRE_BYTES_H
#define TERN_WIRE_BYTES_H

#include <stdint.h>

/** The 16-bit big-endian value at @p p. */
static inline uint16_t tern_load16(const uint8_t *p)
{
    uint16_t v;
    __builtin_memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap16(v);
#endif
    return v;
}

/** The 32-bit big-endian value at @p p. */
static inline uint32_t tern_load32(const uint8_t *p)
{
    uint32_t v;
    __builtin_memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

/** Store @p v big-endian at @p p. */
static inline void tern_store16(uint8_t *p, uint16_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap16(v);
#endif
    __builtin_memcpy(p, &v, sizeof(v));
}

/** Store @p v big-endian at @p p. */
static inline void tern_store32(uint8_t *p, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    __builtin_memcpy(p, &v, sizeof(v));
}

#endif /* TERN_WIRE_BYTES_H */
