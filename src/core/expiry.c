/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Lifetimes' ends in 32-bit ticks of 2^20 us (tern/expiry.h).
 */
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
