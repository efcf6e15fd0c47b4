/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the IPv6 address text form: anything that parses formats to at
 *        most 45 characters, and the formatted text parses back to the same
 *        address and formats identically (RFC 5952 form is a fixed point).
 *        The first 16 input bytes, taken as an address, must round trip too.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/ipv6_addr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)       \
    do {                  \
        if (!(cond)) {    \
            abort();      \
        }                 \
    } while (0)

static void check_round_trip(const tern_ipv6_addr_t *a)
{
    char text[TERN_IPV6_ADDR_STRLEN];
    int n = tern_ipv6_addr_to_str(a, text, sizeof(text));
    CHECK(n >= 2 && n <= TERN_IPV6_ADDR_STRLEN - 1 && text[n] == '\0' && strlen(text) == (size_t)n);
    /* one byte too small must fail without writing past it */
    char small[TERN_IPV6_ADDR_STRLEN];
    CHECK(tern_ipv6_addr_to_str(a, small, (size_t)n) == -ENOBUFS);
    tern_ipv6_addr_t back;
    CHECK(tern_ipv6_addr_from_str(&back, text, (size_t)n) == 0);
    CHECK(tern_ipv6_addr_equal(a, &back));
    char text2[TERN_IPV6_ADDR_STRLEN];
    CHECK(tern_ipv6_addr_to_str(&back, text2, sizeof(text2)) == n);
    CHECK(memcmp(text, text2, (size_t)n + 1) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tern_ipv6_addr_t a;
    /* exact length: copy so that ASan catches any read past the text */
    char *text = malloc(size == 0 ? 1 : size);
    if (text == NULL) {
        return 0;
    }
    memcpy(text, data, size);
    if (tern_ipv6_addr_from_str(&a, text, size) == 0) {
        CHECK(size >= 2 && size <= 45);
        check_round_trip(&a);
    }
    free(text);
    if (size >= 16) {
        memcpy(a.u8, data, 16);
        check_round_trip(&a);
    }
    return 0;
}
