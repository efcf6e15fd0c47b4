/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Big-endian (network order) loads and stores, byte by byte.
 *
 * Wire code never casts a byte pointer to a wider type: these work at any
 * alignment (Cortex-M3 faults on some unaligned accesses) and in any host
 * byte order.
 */
#ifndef TERN_WIRE_BYTES_H
#define TERN_WIRE_BYTES_H

#include <stdint.h>

/** The 16-bit big-endian value at @p p. */
static inline uint16_t tern_load16(const uint8_t *p)
{
    return (uint16_t)(((unsigned)p[0] << 8) | p[1]);
}

/** The 32-bit big-endian value at @p p. */
static inline uint32_t tern_load32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/** Store @p v big-endian at @p p. */
static inline void tern_store16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

/** Store @p v big-endian at @p p. */
static inline void tern_store32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif /* TERN_WIRE_BYTES_H */
