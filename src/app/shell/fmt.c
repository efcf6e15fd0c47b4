/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Freestanding snprintf subset (see fmt.h).
 */
#include <stdbool.h>
#include <stdint.h>

#include "tern/fmt.h"

typedef struct {
    char *buf;
    size_t size;
    size_t len; /* length of the full output so far */
} out_t;

static void put(out_t *o, char c)
{
    if (o->len + 1u < o->size) {
        o->buf[o->len] = c;
    }
    o->len++;
}

static void pad(out_t *o, char c, int n)
{
    while (n-- > 0) {
        put(o, c);
    }
}

typedef struct {
    bool left;
    bool zero;
    int width;
    int precision; /* -1: none */
} spec_t;

static void put_str(out_t *o, const spec_t *sp, const char *s)
{
    if (s == NULL) {
        s = "(null)";
    }
    size_t n = 0;
    while (s[n] != '\0' && (sp->precision < 0 || n < (size_t)sp->precision)) {
        n++;
    }
    int fill = sp->width - (int)n;
    if (!sp->left) {
        pad(o, ' ', fill);
    }
    for (size_t i = 0; i < n; i++) {
        put(o, s[i]);
    }
    if (sp->left) {
        pad(o, ' ', fill);
    }
}

static void put_num(out_t *o, const spec_t *sp, unsigned long long v, bool negative,
                    unsigned base, bool upper)
{
    char digits[24];
    int n = 0;
    const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
        digits[n++] = set[v % base];
        v /= base;
    } while (v != 0);
    int len = n + (negative ? 1 : 0);
    int fill = sp->width - len;
    if (!sp->left && !sp->zero) {
        pad(o, ' ', fill);
    }
    if (negative) {
        put(o, '-');
    }
    if (!sp->left && sp->zero) {
        pad(o, '0', fill);
    }
    while (n > 0) {
        put(o, digits[--n]);
    }
    if (sp->left) {
        pad(o, ' ', fill);
    }
}

int tern_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    out_t o = { buf, size, 0 };
    for (const char *p = fmt; *p != '\0'; p++) {
        if (*p != '%') {
            put(&o, *p);
            continue;
        }
        const char *start = p++;
        spec_t sp = { false, false, 0, -1 };
        for (;; p++) {
            if (*p == '-') {
                sp.left = true;
            } else if (*p == '0') {
                sp.zero = true;
            } else {
                break;
            }
        }
        if (*p == '*') {
            sp.width = va_arg(ap, int);
            if (sp.width < 0) {
                sp.left = true;
                sp.width = -sp.width;
            }
            p++;
        } else {
            while (*p >= '0' && *p <= '9') {
                sp.width = sp.width * 10 + (*p++ - '0');
            }
        }
        if (*p == '.') {
            p++;
            sp.precision = 0;
            if (*p == '*') {
                sp.precision = va_arg(ap, int);
                p++;
            } else {
                while (*p >= '0' && *p <= '9') {
                    sp.precision = sp.precision * 10 + (*p++ - '0');
                }
            }
        }
        int lng = 0; /* 0: int, 1: long, 2: long long, 3: size_t */
        if (*p == 'l') {
            lng = 1;
            if (*++p == 'l') {
                lng = 2;
                p++;
            }
        } else if (*p == 'z') {
            lng = 3;
            p++;
        }
        switch (*p) {
        case '%':
            put(&o, '%');
            break;
        case 'c':
            put(&o, (char)va_arg(ap, int));
            break;
        case 's':
            put_str(&o, &sp, va_arg(ap, const char *));
            break;
        case 'd':
        case 'i': {
            long long v = (lng == 2)   ? va_arg(ap, long long)
                          : (lng == 1) ? va_arg(ap, long)
                          : (lng == 3) ? (long long)va_arg(ap, size_t)
                                       : va_arg(ap, int);
            unsigned long long mag = (v < 0) ? 0ull - (unsigned long long)v : (unsigned long long)v;
            put_num(&o, &sp, mag, v < 0, 10, false);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            unsigned long long v = (lng == 2)   ? va_arg(ap, unsigned long long)
                                   : (lng == 1) ? va_arg(ap, unsigned long)
                                   : (lng == 3) ? va_arg(ap, size_t)
                                                : va_arg(ap, unsigned int);
            put_num(&o, &sp, v, false, (*p == 'u') ? 10u : 16u, *p == 'X');
            break;
        }
        case 'p':
            put(&o, '0');
            put(&o, 'x');
            put_num(&o, &sp, (uintptr_t)va_arg(ap, void *), false, 16, false);
            break;
        default:
            /* Unknown conversion: print it as written, so the mistake shows. */
            for (const char *q = start; q <= p && *q != '\0'; q++) {
                put(&o, *q);
            }
            if (*p == '\0') {
                p--;
            }
            break;
        }
    }
    if (size > 0) {
        o.buf[(o.len < size) ? o.len : size - 1u] = '\0';
    }
    return (int)o.len;
}

int tern_snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int res = tern_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return res;
}
