/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 64-bit unsigned division by shift and subtract (tern/div64.h).
 */
#include <stddef.h>

#include "tern/div64.h"

uint64_t tern_udiv64(uint64_t n, uint64_t d, uint64_t *rem)
{
    uint64_t q = 0;
    uint64_t r = 0;
    if (d == 0) {
        q = UINT64_MAX;
        r = n;
    } else if (d > (UINT64_MAX >> 1)) {
        /* r << 1 below could overflow: the quotient is 0 or 1. */
        q = (n >= d) ? 1u : 0u;
        r = n - q * d;
    } else {
        /* Long division, one bit at a time: r < d before each shift, so r < 2d fits. */
        for (int i = 63; i >= 0; i--) {
            r = (r << 1) | ((n >> i) & 1u);
            if (r >= d) {
                r -= d;
                q |= (uint64_t)1 << i;
            }
        }
    }
    if (rem != NULL) {
        *rem = r;
    }
    return q;
}
