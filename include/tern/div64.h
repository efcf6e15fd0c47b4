/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 64-bit unsigned division for the control plane, without the C
 *        library's 64-bit division routine.
 *
 * On a 32-bit MCU, `a / b` and `a % b` with a 64-bit operand call the
 * compiler's runtime (__aeabi_uldivmod → __udivmoddi4: 0.7 KiB of Cortex-M3
 * code, measured in bench/footprint). The stack divides 64-bit microsecond
 * times only on rare control-plane events (timer set-up, lifetimes in
 * seconds, protocol randomness), where a short shift-and-subtract loop is
 * fast enough (64 steps) and much smaller. Results equal C's `/` and `%`.
 * The data path must not use it (nor 64-bit division at all).
 */
#ifndef TERN_DIV64_H
#define TERN_DIV64_H

#include <stdint.h>

/**
 * @p n / @p d, and @p n % @p d in *@p rem when @p rem is not NULL.
 * @pre @p d != 0 (a zero divisor returns UINT64_MAX and *@p rem = @p n).
 * @return the quotient
 */
uint64_t tern_udiv64(uint64_t n, uint64_t d, uint64_t *rem);

/** @p n % @p d, as tern_udiv64(). @pre @p d != 0 */
static inline uint64_t tern_umod64(uint64_t n, uint64_t d)
{
    uint64_t rem;
    (void)tern_udiv64(n, d, &rem);
    return rem;
}

#endif /* TERN_DIV64_H */
