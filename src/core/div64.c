/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 64-bit unsigned division by shift and subtract (tern/div64.h).
 */
#include <stddef.h>

#include "tern/div64.h"

/* Out of line: LTO would copy the loop into every caller (host image +112 B). */
__attribute__((noinline)) uint64_t tern_udiv64(uint64_t n, uint64_t d, uint64_t *rem)
{
    uint64_t q;
    uint64_t r = 0;
    if (d > (UINT64_MAX >> 1)) {
        /* r << 1 below could overflow: the quotient is 0 or 1. */
        q = (n >= d) ? 1u : 0u;
        r = n - q * d;
    } else {
        /* Long division, one bit at a time: r < d before each shift, so r < 2d
         * fits. n's bits leave at the top as the quotient's enter at the
         * bottom: shifts by one only (no shift by a variable count, which
         * costs a dozen instructions on a 32-bit core). d == 0 needs no
         * case of its own: nothing is subtracted and every quotient bit is
         * set, q = UINT64_MAX and r = n (tern/div64.h). */
        for (int i = 0; i < 64; i++) {
            r = (r << 1) | (n >> 63);
            n <<= 1;
            if (r >= d) {
                r -= d;
                n |= 1u;
            }
        }
        q = n;
    }
    if (rem != NULL) {
        *rem = r;
    }
    return q;
}
