/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 32-bit absolute expiry of a lifetime given in whole seconds, for
 *        table entries (routes), in place of a 64-bit microsecond time.
 *
 * The stack's clock counts microseconds in 64 bits (tern/clock.h). A table
 * entry whose lifetime the protocol gives in seconds (RFC 4861 §4.2 Router
 * and Prefix lifetimes, RFC 4191 Route Lifetime, RFC 6550 §6.7.8 Path
 * Lifetime in Lifetime Units of seconds) needs no microsecond resolution: it
 * keeps its end as a tern_expiry_t, the clock time in ticks of 2^20 µs
 * (1.048576 s), in 32 bits: 4 bytes instead of 8 per entry.
 *
 * Rounding and range (why an entry never expires early, nor never):
 * - tern_expiry_from_us() rounds the end UP to the next tick: an entry lives
 *   at least its lifetime and at most one tick (1.05 s) longer. A lifetime of
 *   whole seconds is thus kept to within one second; RFC 4861 §6.3.4 and RFC
 *   6550 count lifetimes in seconds.
 * - There is no wrap-around: ticks are counted from the clock's origin, not
 *   modulo 2^32, and a comparison is a plain `<=`. 2^32 - 1 ticks are 2^52 µs,
 *   142.7 years of the clock. Precondition: the clock reads below that (it
 *   counts from boot on a device, from the start value on a virtual clock).
 * - TERN_EXPIRY_NEVER (UINT32_MAX) is an infinite lifetime; the clock's
 *   "now" in ticks (tern_expiry_now()) is at most TERN_EXPIRY_NEVER - 1, so a
 *   NEVER entry is never expired. A finite end past the last representable
 *   tick is clamped to TERN_EXPIRY_NEVER - 1, so that a finite lifetime stays
 *   finite (ends after 142.7 years of the clock at the latest) and is never
 *   mistaken for an infinite one.
 */
#ifndef TERN_EXPIRY_H
#define TERN_EXPIRY_H

#include <stdbool.h>
#include <stdint.h>

/** An absolute clock time in ticks of 2^TERN_EXPIRY_SHIFT µs, or TERN_EXPIRY_NEVER. */
typedef uint32_t tern_expiry_t;

/** log2 of a tick in microseconds: 2^20 µs = 1.048576 s. */
#define TERN_EXPIRY_SHIFT 20u

/** The lifetime is infinite: never expires. */
#define TERN_EXPIRY_NEVER UINT32_MAX

/** The latest finite expiry. */
#define TERN_EXPIRY_LAST (TERN_EXPIRY_NEVER - 1u)

/**
 * The expiry for the absolute clock time @p end_us, rounded up to a tick.
 * @param end_us absolute end in microseconds; UINT64_MAX: infinite
 * @return TERN_EXPIRY_NEVER for UINT64_MAX; else the first tick at or after
 *         @p end_us, at most TERN_EXPIRY_LAST
 */
tern_expiry_t tern_expiry_from_us(uint64_t end_us);

/** The clock time @p now_us in whole ticks (rounded down), at most TERN_EXPIRY_LAST. */
tern_expiry_t tern_expiry_now(uint64_t now_us);

/**
 * Whether @p expiry has come at the clock time @p now (from tern_expiry_now()):
 * the entry's end tick lies at or before @p now's. Since @p expiry was rounded up
 * and @p now down, this holds exactly when tern_expiry_to_us(@p expiry) <= the
 * clock's microseconds. A TERN_EXPIRY_NEVER entry never expires.
 */
static inline bool tern_expiry_passed(tern_expiry_t expiry, tern_expiry_t now)
{
    return expiry <= now;
}

/**
 * The lifetime left at @p now_us in units of @p unit_us, to announce to
 * others (RFC 6550 §6.7.8 Path Lifetime, RFC 6775 §8.1 relayed 6CO and
 * ABRO): counted from one tick before @p expiry, since the end was rounded up
 * to it, so that a node never announces more than it was given; rounded up
 * to whole units, and at least 1 (an entry that has not expired is not
 * announced as gone).
 * @pre @p unit_us > 0
 * @return the units left, >= 1; UINT64_MAX for TERN_EXPIRY_NEVER
 */
uint64_t tern_expiry_units_left(tern_expiry_t expiry, uint64_t now_us, uint64_t unit_us);

/** @p expiry as an absolute clock time in microseconds; UINT64_MAX for TERN_EXPIRY_NEVER. */
static inline uint64_t tern_expiry_to_us(tern_expiry_t expiry)
{
    return (expiry == TERN_EXPIRY_NEVER) ? UINT64_MAX : (uint64_t)expiry << TERN_EXPIRY_SHIFT;
}

#endif /* TERN_EXPIRY_H */
