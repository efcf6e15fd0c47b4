/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief A small, freestanding snprintf for the shell and diagnostics.
 *
 * Portable code may not use stdio. Supported: %% %c %s %d %i %u %x %X %p,
 * flags '-' and '0', a field width (number or *), a precision for %s (number
 * or *), and the length modifiers l, ll, z. Anything else prints as is.
 */
#ifndef TERN_FMT_H
#define TERN_FMT_H

#include <stdarg.h>
#include <stddef.h>

/**
 * Format into @p buf (always NUL-terminated when @p size > 0).
 * @return the length the full output would have (as C's vsnprintf).
 */
int tern_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/** tern_vsnprintf() with variable arguments. */
int tern_snprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* TERN_FMT_H */
