/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Lifetimes' ends in 32-bit ticks of 2^20 us (tern/expiry.h).
 */
#include <stddef.h>

#include "tern/div64.h"
#include "tern/expiry.h"

tern_expiry_t tern_expiry_from_us(uint64_t end_us)
{
    if (end_us > ((uint64_t)TERN_EXPIRY_LAST << TERN_EXPIRY_SHIFT)) {
        return (end_us == UINT64_MAX) ? TERN_EXPIRY_NEVER : TERN_EXPIRY_LAST;
    }
    return (tern_expiry_t)((end_us + (1u << TERN_EXPIRY_SHIFT) - 1u) >> TERN_EXPIRY_SHIFT);
}

tern_expiry_t tern_expiry_now(uint64_t now_us)
{
    if (now_us > ((uint64_t)TERN_EXPIRY_LAST << TERN_EXPIRY_SHIFT)) {
        return TERN_EXPIRY_LAST;
    }
    return (tern_expiry_t)(now_us >> TERN_EXPIRY_SHIFT);
}

uint64_t tern_expiry_units_left(tern_expiry_t expiry, uint64_t now_us, uint64_t unit_us)
{
    if (expiry == TERN_EXPIRY_NEVER) {
        return UINT64_MAX;
    }
    uint64_t end = (expiry > 0u) ? tern_expiry_to_us(expiry - 1u) : 0u;
    if (end <= now_us) {
        return 1u;
    }
    /* Control plane only (tern/div64.h): announcing a lifetime is rare. */
    return tern_udiv64(end - now_us + unit_us - 1u, unit_us, NULL);
}
