/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the ICMPv6 codec: the input is a whole ICMPv6 message.
 *
 * Parses the header, then the echo or error repr; on success emits it again
 * and re-parses (round trip: same repr, same bytes after the checksum). The
 * checksum over the message split into spans at positions taken from the
 * input must equal the checksum over the contiguous message.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/icmpv6.h"

#define BUF_SIZE 2048

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static const tern_ipv6_addr_t src = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x54, 0, 0xff, 0xfe, 0x12, 0x34, 0x56 } };
static const tern_ipv6_addr_t dst = { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01 } };

static void check_checksum(const uint8_t *data, size_t size)
{
    tern_checksum_span_t one = { data, size };
    uint16_t whole = tern_icmpv6_checksum_compute(&src, &dst, &one, 1);
    /* Split at up to three positions chosen by the input. */
    size_t a = size == 0 ? 0 : data[0] % (size + 1);
    size_t b = size < 2 ? a : a + (data[1] % (size - a + 1));
    tern_checksum_span_t parts[4] = {
        { data, a }, { data + a, b - a }, { NULL, 0 }, { data + b, size - b },
    };
    require(tern_icmpv6_checksum_compute(&src, &dst, parts, 4) == whole);
    require(tern_icmpv6_checksum_verify(&src, &dst, parts, 4) ==
            tern_icmpv6_checksum_verify(&src, &dst, &one, 1));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t out[BUF_SIZE];
    check_checksum(data, size);
    require(tern_icmpv6_error_invoking_fit(size, 40) <= 1232);

    tern_icmpv6_hdr_t hdr;
    if (tern_icmpv6_hdr_parse(&hdr, data, size) < 0) {
        require(size < TERN_ICMPV6_HDR_LEN);
        return 0;
    }
    require(tern_icmpv6_hdr_emit(&hdr, out, sizeof(out)) == 4 && memcmp(out, data, 4) == 0);

    tern_icmpv6_echo_repr_t echo;
    if (tern_icmpv6_echo_parse(&echo, data, size) >= 0) {
        require(echo.data + echo.data_len == data + size);
        int rc = tern_icmpv6_echo_emit(&echo, out, sizeof(out));
        if (size > sizeof(out)) {
            require(rc == -ENOBUFS);
        } else {
            require(rc == (int)size);
            tern_icmpv6_echo_repr_t back;
            require(tern_icmpv6_echo_parse(&back, out, size) == (int)size);
            require(back.type == echo.type && back.identifier == echo.identifier &&
                    back.sequence == echo.sequence && back.data_len == echo.data_len);
            require(memcmp(out + 4, data + 4, size - 4) == 0);
            require(tern_icmpv6_checksum_fill(out, size, &src, &dst) == 0);
            tern_checksum_span_t span = { out, size };
            require(tern_icmpv6_checksum_verify(&src, &dst, &span, 1));
        }
    }

    tern_icmpv6_error_repr_t err;
    if (tern_icmpv6_error_parse(&err, data, size) >= 0) {
        require(tern_icmpv6_is_error(err.type));
        size_t fit = tern_icmpv6_error_invoking_fit(err.invoking_len, 40);
        require(fit <= err.invoking_len && fit <= 1232);
        int rc = tern_icmpv6_error_emit(&err, out, sizeof(out));
        if (size > sizeof(out)) {
            require(rc == -ENOBUFS);
        } else {
            require(rc == (int)size);
            require(out[0] == data[0] && out[1] == data[1]);
            require(memcmp(out + 4, data + 4, size - 4) == 0);
        }
        /* The quoted packet's upper layer (RFC 4443 §2.4 (e)). */
        tern_icmpv6_error_repr_t e2;
        tern_ipv6_repr_t inner;
        size_t off = 0;
        int nh = tern_icmpv6_error_quote(data, size, &e2, &inner, &off);
        if (nh >= 0) {
            require(nh <= 255 && off >= 40 && off <= e2.invoking_len && e2.invoking == err.invoking);
            require(!tern_ipv6_is_ext_header((uint8_t)nh) || nh == TERN_IPV6_NH_ESP);
        }
    }
    return 0;
}
