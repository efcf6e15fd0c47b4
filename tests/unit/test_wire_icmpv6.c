/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Golden-byte tests of the ICMPv6 codec (RFC 4443).
 *
 * Vectors: an echo request as `ping -6` (iputils) sends it — 16 octets of
 * timestamp then the bytes 0x10..0x37 — and a port unreachable about a UDP
 * datagram. Their checksums were derived independently with scapy 2.8
 * (IPv6()/ICMPv6EchoRequest(), IPv6()/ICMPv6DestUnreach()) from the addresses
 * given here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6_addr.h"

static tern_ipv6_addr_t addr(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

/* ping -6 2001:db8::2 from 2001:db8::1: id 0x1234, seq 1, 56 data octets. */
static const uint8_t echo_request[] = {
    0x80, 0x00, 0x1c, 0xd2, 0x12, 0x34, 0x00, 0x01, 0xe2, 0xa1, 0xcf, 0x65, 0x00, 0x00, 0x00,
    0x00, 0x7b, 0x2e, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
    0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x24,
    0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f, 0x30, 0x31, 0x32, 0x33,
    0x34, 0x35, 0x36, 0x37,
};
#define ECHO_CHECKSUM 0x1cd2u

/* The invoking packet: UDP 2001:db8::2 port 40000 -> 2001:db8::1 port 9, "hi". */
static const uint8_t invoking[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x11, 0x40, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x9c, 0x40, 0x00, 0x09, 0x00,
    0x0a, 0x9f, 0xb2, 0x68, 0x69,
};
/* Port unreachable from 2001:db8::1 to 2001:db8::2 about it. */
static const uint8_t port_unreach_hdr[] = { 0x01, 0x04, 0x31, 0xe3, 0x00, 0x00, 0x00, 0x00 };
#define UNREACH_CHECKSUM 0x31e3u

static void test_tern_icmpv6_is_error__boundary(void **state)
{
    (void)state;
    assert_true(tern_icmpv6_is_error(0));
    assert_true(tern_icmpv6_is_error(TERN_ICMPV6_PARAM_PROBLEM));
    assert_true(tern_icmpv6_is_error(127));
    assert_false(tern_icmpv6_is_error(128));
    assert_false(tern_icmpv6_is_error(TERN_ICMPV6_NEIGHBOR_SOLICIT));
    assert_false(tern_icmpv6_is_error(255));
}

static void test_tern_icmpv6_hdr_parse__echo_request(void **state)
{
    (void)state;
    tern_icmpv6_hdr_t hdr;
    assert_int_equal(tern_icmpv6_hdr_parse(&hdr, echo_request, sizeof(echo_request)), 4);
    assert_int_equal(hdr.type, TERN_ICMPV6_ECHO_REQUEST);
    assert_int_equal(hdr.code, 0);
    assert_int_equal(hdr.checksum, ECHO_CHECKSUM);
}

static void test_tern_icmpv6_hdr_parse__truncated(void **state)
{
    (void)state;
    tern_icmpv6_hdr_t hdr;
    assert_int_equal(tern_icmpv6_hdr_parse(&hdr, echo_request, 3), -EBADMSG);
}

static void test_tern_icmpv6_hdr_emit__golden_and_short(void **state)
{
    (void)state;
    tern_icmpv6_hdr_t hdr = { .type = 1, .code = 4, .checksum = UNREACH_CHECKSUM };
    uint8_t buf[4];
    assert_int_equal(tern_icmpv6_hdr_emit(&hdr, buf, 3), -ENOBUFS);
    assert_int_equal(tern_icmpv6_hdr_emit(&hdr, buf, sizeof(buf)), 4);
    assert_memory_equal(buf, port_unreach_hdr, 4);
}

static void test_tern_icmpv6_echo_parse__ping6(void **state)
{
    (void)state;
    tern_icmpv6_echo_repr_t echo;
    assert_int_equal(tern_icmpv6_echo_parse(&echo, echo_request, sizeof(echo_request)), 64);
    assert_int_equal(echo.type, TERN_ICMPV6_ECHO_REQUEST);
    assert_int_equal(echo.identifier, 0x1234);
    assert_int_equal(echo.sequence, 1);
    assert_ptr_equal(echo.data, echo_request + 8);
    assert_int_equal(echo.data_len, 56);
    assert_int_equal(echo.data[16], 0x10);
}

static void test_tern_icmpv6_echo_parse__truncated(void **state)
{
    (void)state;
    tern_icmpv6_echo_repr_t echo;
    assert_int_equal(tern_icmpv6_echo_parse(&echo, echo_request, 7), -EBADMSG);
    /* Exactly the fixed part: no data. */
    assert_int_equal(tern_icmpv6_echo_parse(&echo, echo_request, 8), 8);
    assert_int_equal(echo.data_len, 0);
}

static void test_tern_icmpv6_echo_parse__not_echo(void **state)
{
    (void)state;
    tern_icmpv6_echo_repr_t echo;
    uint8_t msg[8] = { TERN_ICMPV6_NEIGHBOR_SOLICIT };
    assert_int_equal(tern_icmpv6_echo_parse(&echo, msg, sizeof(msg)), -EBADMSG);
    msg[0] = TERN_ICMPV6_DST_UNREACH;
    assert_int_equal(tern_icmpv6_echo_parse(&echo, msg, sizeof(msg)), -EBADMSG);
}

static void test_tern_icmpv6_echo_emit__golden_with_checksum(void **state)
{
    (void)state;
    tern_ipv6_addr_t src = addr("2001:db8::1");
    tern_ipv6_addr_t dst = addr("2001:db8::2");
    tern_icmpv6_echo_repr_t echo = {
        .type = TERN_ICMPV6_ECHO_REQUEST,
        .identifier = 0x1234,
        .sequence = 1,
        .data = echo_request + 8,
        .data_len = 56,
    };
    uint8_t buf[80];
    assert_int_equal(tern_icmpv6_echo_len(&echo), 64);
    assert_int_equal(tern_icmpv6_echo_emit(&echo, buf, sizeof(buf)), 64);
    assert_int_equal(buf[2], 0);
    assert_int_equal(buf[3], 0);
    assert_int_equal(tern_icmpv6_checksum_fill(buf, 64, &src, &dst), 0);
    assert_memory_equal(buf, echo_request, sizeof(echo_request));
}

static void test_tern_icmpv6_echo_emit__reply_in_place(void **state)
{
    (void)state;
    uint8_t buf[sizeof(echo_request)];
    memcpy(buf, echo_request, sizeof(buf));
    tern_icmpv6_echo_repr_t echo;
    assert_int_equal(tern_icmpv6_echo_parse(&echo, buf, sizeof(buf)), 64);
    echo.type = TERN_ICMPV6_ECHO_REPLY;
    assert_int_equal(tern_icmpv6_echo_emit(&echo, buf, sizeof(buf)), 64);
    assert_int_equal(buf[0], TERN_ICMPV6_ECHO_REPLY);
    assert_memory_equal(buf + 4, echo_request + 4, sizeof(echo_request) - 4);
    /* Swapped addresses for the reply: verify what we fill. */
    tern_ipv6_addr_t src = addr("2001:db8::2");
    tern_ipv6_addr_t dst = addr("2001:db8::1");
    assert_int_equal(tern_icmpv6_checksum_fill(buf, sizeof(buf), &src, &dst), 0);
    tern_checksum_span_t span = { buf, sizeof(buf) };
    assert_true(tern_icmpv6_checksum_verify(&src, &dst, &span, 1));
}

static void test_tern_icmpv6_echo_emit__errors(void **state)
{
    (void)state;
    uint8_t buf[64];
    tern_icmpv6_echo_repr_t echo = { .type = TERN_ICMPV6_ECHO_REQUEST, .data = NULL, .data_len = 0 };
    assert_int_equal(tern_icmpv6_echo_emit(&echo, buf, 7), -ENOBUFS);
    assert_int_equal(tern_icmpv6_echo_emit(&echo, buf, 8), 8);
    echo.data_len = 4;
    assert_int_equal(tern_icmpv6_echo_emit(&echo, buf, sizeof(buf)), -EINVAL);
    echo.data = echo_request;
    assert_int_equal(tern_icmpv6_echo_emit(&echo, buf, 11), -ENOBUFS);
    echo.type = TERN_ICMPV6_DST_UNREACH;
    assert_int_equal(tern_icmpv6_echo_emit(&echo, buf, sizeof(buf)), -EINVAL);
}

static void test_tern_icmpv6_error_parse__port_unreachable(void **state)
{
    (void)state;
    uint8_t msg[sizeof(port_unreach_hdr) + sizeof(invoking)];
    memcpy(msg, port_unreach_hdr, sizeof(port_unreach_hdr));
    memcpy(msg + 8, invoking, sizeof(invoking));
    tern_icmpv6_error_repr_t err;
    assert_int_equal(tern_icmpv6_error_parse(&err, msg, sizeof(msg)), (int)sizeof(msg));
    assert_int_equal(err.type, TERN_ICMPV6_DST_UNREACH);
    assert_int_equal(err.code, TERN_ICMPV6_DST_UNREACH_PORT);
    assert_int_equal(err.param, 0);
    assert_ptr_equal(err.invoking, msg + 8);
    assert_int_equal(err.invoking_len, sizeof(invoking));
}

static void test_tern_icmpv6_error_parse__packet_too_big_and_param_problem(void **state)
{
    (void)state;
    const uint8_t ptb[] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x60 };
    const uint8_t pp[] = { 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x28 };
    tern_icmpv6_error_repr_t err;
    assert_int_equal(tern_icmpv6_error_parse(&err, ptb, sizeof(ptb)), 9);
    assert_int_equal(err.param, 1280);
    assert_int_equal(err.invoking_len, 1);
    assert_int_equal(tern_icmpv6_error_parse(&err, pp, sizeof(pp)), 8);
    assert_int_equal(err.type, TERN_ICMPV6_PARAM_PROBLEM);
    assert_int_equal(err.code, TERN_ICMPV6_PARAM_PROBLEM_NEXT_HEADER);
    assert_int_equal(err.param, 40);
    assert_int_equal(err.invoking_len, 0);
}

static void test_tern_icmpv6_error_parse__unknown_error_type(void **state)
{
    (void)state;
    /* §2.4(b): unknown error types still reach the upper layer. */
    const uint8_t msg[] = { 0x64, 0x00, 0x00, 0x00, 0xde, 0xad, 0xbe, 0xef };
    tern_icmpv6_error_repr_t err;
    assert_int_equal(tern_icmpv6_error_parse(&err, msg, sizeof(msg)), 8);
    assert_int_equal(err.type, 100);
    assert_int_equal(err.param, 0xdeadbeefu);
}

static void test_tern_icmpv6_error_parse__truncated_or_informational(void **state)
{
    (void)state;
    tern_icmpv6_error_repr_t err;
    assert_int_equal(tern_icmpv6_error_parse(&err, port_unreach_hdr, 7), -EBADMSG);
    assert_int_equal(tern_icmpv6_error_parse(&err, echo_request, sizeof(echo_request)), -EBADMSG);
}

static void test_tern_icmpv6_error_emit__golden_with_checksum(void **state)
{
    (void)state;
    tern_ipv6_addr_t src = addr("2001:db8::1");
    tern_ipv6_addr_t dst = addr("2001:db8::2");
    tern_icmpv6_error_repr_t err = {
        .type = TERN_ICMPV6_DST_UNREACH,
        .code = TERN_ICMPV6_DST_UNREACH_PORT,
        .param = 0,
        .invoking = invoking,
        .invoking_len = sizeof(invoking),
    };
    uint8_t buf[128];
    assert_int_equal(tern_icmpv6_error_len(&err), 58);
    assert_int_equal(tern_icmpv6_error_emit(&err, buf, sizeof(buf)), 58);
    assert_int_equal(tern_icmpv6_checksum_fill(buf, 58, &src, &dst), 0);
    assert_memory_equal(buf, port_unreach_hdr, 8);
    assert_memory_equal(buf + 8, invoking, sizeof(invoking));
}

static void test_tern_icmpv6_error_emit__packet_too_big_round_trip(void **state)
{
    (void)state;
    tern_icmpv6_error_repr_t err = {
        .type = TERN_ICMPV6_PACKET_TOO_BIG, .code = 0, .param = 1280,
        .invoking = invoking, .invoking_len = sizeof(invoking),
    };
    uint8_t buf[64];
    assert_int_equal(tern_icmpv6_error_emit(&err, buf, sizeof(buf)), 58);
    const uint8_t expect[] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00 };
    assert_memory_equal(buf, expect, sizeof(expect));
    tern_icmpv6_error_repr_t back;
    assert_int_equal(tern_icmpv6_error_parse(&back, buf, 58), 58);
    assert_int_equal(back.param, 1280);
    assert_memory_equal(back.invoking, invoking, sizeof(invoking));
}

/* The stack gathers the invoking packet where it goes (buf + 8) and emits in
 * place: the bytes stay, the header is written. */
static void test_tern_icmpv6_error_emit__invoking_in_place(void **state)
{
    (void)state;
    tern_ipv6_addr_t src = addr("2001:db8::1");
    tern_ipv6_addr_t dst = addr("2001:db8::2");
    uint8_t buf[8 + sizeof(invoking)];
    memset(buf, 0xa5, 8);
    memcpy(buf + 8, invoking, sizeof(invoking));
    tern_icmpv6_error_repr_t err = { .type = TERN_ICMPV6_DST_UNREACH, .code = TERN_ICMPV6_DST_UNREACH_PORT,
                                     .param = 0, .invoking = buf + 8, .invoking_len = sizeof(invoking) };
    assert_int_equal(tern_icmpv6_error_emit(&err, buf, sizeof(buf)), 58);
    assert_int_equal(tern_icmpv6_checksum_fill(buf, 58, &src, &dst), 0);
    assert_memory_equal(buf, port_unreach_hdr, 8);
    assert_memory_equal(buf + 8, invoking, sizeof(invoking));
}

static void test_tern_icmpv6_error_emit__errors(void **state)
{
    (void)state;
    uint8_t buf[64];
    tern_icmpv6_error_repr_t err = {
        .type = TERN_ICMPV6_ECHO_REPLY, .invoking = invoking, .invoking_len = sizeof(invoking),
    };
    assert_int_equal(tern_icmpv6_error_emit(&err, buf, sizeof(buf)), -EINVAL);
    err.type = TERN_ICMPV6_TIME_EXCEEDED;
    assert_int_equal(tern_icmpv6_error_emit(&err, buf, 57), -ENOBUFS);
    err.invoking = NULL;
    assert_int_equal(tern_icmpv6_error_emit(&err, buf, sizeof(buf)), -EINVAL);
}

static void test_tern_icmpv6_error_invoking_fit__min_mtu(void **state)
{
    (void)state;
    /* 1280 - 40 - 8 = 1232 octets of invoking packet at most (§2.4(c)). */
    assert_int_equal(tern_icmpv6_error_invoking_fit(1500, 40), 1232);
    assert_int_equal(tern_icmpv6_error_invoking_fit(1232, 40), 1232);
    assert_int_equal(tern_icmpv6_error_invoking_fit(100, 40), 100);
    /* With an 8-octet extension header in front. */
    assert_int_equal(tern_icmpv6_error_invoking_fit(1500, 48), 1224);
    assert_int_equal(tern_icmpv6_error_invoking_fit(1500, 1272), 0);
    assert_int_equal(tern_icmpv6_error_invoking_fit(1500, 5000), 0);
}

static void test_tern_icmpv6_checksum_compute__scattered_odd_spans(void **state)
{
    (void)state;
    tern_ipv6_addr_t src = addr("2001:db8::1");
    tern_ipv6_addr_t dst = addr("2001:db8::2");
    uint8_t msg[sizeof(echo_request)];
    memcpy(msg, echo_request, sizeof(msg));
    msg[2] = 0;
    msg[3] = 0;
    tern_checksum_span_t one = { msg, sizeof(msg) };
    assert_int_equal(tern_icmpv6_checksum_compute(&src, &dst, &one, 1), ECHO_CHECKSUM);
    /* Snips of odd lengths, and an empty one. */
    tern_checksum_span_t spans[] = {
        { msg, 3 }, { NULL, 0 }, { msg + 3, 7 }, { msg + 10, 1 }, { msg + 11, sizeof(msg) - 11 },
    };
    assert_int_equal(tern_icmpv6_checksum_compute(&src, &dst, spans, 5), ECHO_CHECKSUM);
}

static void test_tern_icmpv6_checksum_verify__good_and_bad(void **state)
{
    (void)state;
    tern_ipv6_addr_t src = addr("2001:db8::1");
    tern_ipv6_addr_t dst = addr("2001:db8::2");
    uint8_t msg[sizeof(echo_request)];
    memcpy(msg, echo_request, sizeof(msg));
    tern_checksum_span_t spans[] = { { msg, 9 }, { msg + 9, sizeof(msg) - 9 } };
    assert_true(tern_icmpv6_checksum_verify(&src, &dst, spans, 2));
    msg[20] ^= 0x01;
    assert_false(tern_icmpv6_checksum_verify(&src, &dst, spans, 2));
    msg[20] ^= 0x01;
    /* Wrong pseudo-header: another destination. */
    tern_ipv6_addr_t other = addr("2001:db8::3");
    assert_false(tern_icmpv6_checksum_verify(&src, &other, spans, 2));
    /* Length is part of the pseudo-header: a truncated message fails. */
    spans[1].len -= 2;
    assert_false(tern_icmpv6_checksum_verify(&src, &dst, spans, 2));
}

static void test_tern_icmpv6_checksum_fill__truncated(void **state)
{
    (void)state;
    tern_ipv6_addr_t a = addr("::1");
    uint8_t buf[3] = { 0 };
    assert_int_equal(tern_icmpv6_checksum_fill(buf, sizeof(buf), &a, &a), -EBADMSG);
}

/* An error quoting a packet whose fixed header announces @p first, followed by @p chain (@p chain_len bytes). */
static size_t quote_msg(uint8_t *out, uint8_t first, const uint8_t *chain, size_t chain_len)
{
    memset(out, 0, 8 + 40);
    out[0] = TERN_ICMPV6_DST_UNREACH;
    out[1] = TERN_ICMPV6_DST_UNREACH_PORT;
    out[8] = 0x60;
    out[8 + 5] = (uint8_t)chain_len;
    out[8 + 6] = first;
    out[8 + 7] = 64;
    memcpy(out + 48, chain, chain_len);
    return 48 + chain_len;
}

static void test_tern_icmpv6_error_quote__extension_headers_skipped_and_bounded(void **state)
{
    (void)state;
    uint8_t msg[256];
    tern_icmpv6_error_repr_t err;
    tern_ipv6_repr_t inner;
    size_t off = 0;
    /* Plain UDP: the upper layer right after the fixed header. */
    static const uint8_t udp[8] = { 0x16, 0x33, 0x27, 0x0f, 0, 8, 0, 0 };
    size_t len = quote_msg(msg, 17, udp, sizeof(udp));
    assert_int_equal(tern_icmpv6_error_quote(msg, len, &err, &inner, &off), 17);
    assert_int_equal(off, 40);
    /* Hop-by-Hop, first fragment, Destination Options, then UDP. */
    static const uint8_t chain[] = { 44, 0, 1, 4, 0, 0, 0, 0,           /* HBH, PadN */
                                     60, 0, 0x00, 0x01, 0, 0, 0, 1,     /* Fragment offset 0, M */
                                     17, 0, 1, 4, 0, 0, 0, 0,           /* Destination Options */
                                     0x16, 0x33, 0x27, 0x0f, 0, 8, 0, 0 };
    len = quote_msg(msg, 0, chain, sizeof(chain));
    assert_int_equal(tern_icmpv6_error_quote(msg, len, &err, &inner, &off), 17);
    assert_int_equal(off, 64);
    /* Cut inside the Destination Options header: not identified. */
    assert_int_equal(tern_icmpv6_error_quote(msg, 48 + 20, &err, &inner, &off), -EBADMSG);
    /* A non-first fragment: no upper-layer header in it. */
    uint8_t frag[sizeof(chain)];
    memcpy(frag, chain, sizeof(chain));
    frag[10] = 0x00;
    frag[11] = 0x08; /* offset 1 */
    len = quote_msg(msg, 0, frag, sizeof(frag));
    assert_int_equal(tern_icmpv6_error_quote(msg, len, &err, &inner, &off), -EBADMSG);
    /* More than TERN_ICMPV6_QUOTE_EXT_MAX extension headers. */
    uint8_t many[8 * (TERN_ICMPV6_QUOTE_EXT_MAX + 1) + 8];
    for (unsigned i = 0; i <= TERN_ICMPV6_QUOTE_EXT_MAX; i++) {
        static const uint8_t opt[8] = { 60, 0, 1, 4, 0, 0, 0, 0 };
        memcpy(many + 8 * i, opt, 8);
    }
    many[8 * TERN_ICMPV6_QUOTE_EXT_MAX] = 17;
    memcpy(many + 8 * (TERN_ICMPV6_QUOTE_EXT_MAX + 1), udp, 8);
    len = quote_msg(msg, 60, many, sizeof(many));
    assert_int_equal(tern_icmpv6_error_quote(msg, len, &err, &inner, &off), -EBADMSG);
    /* ... exactly TERN_ICMPV6_QUOTE_EXT_MAX: fine. */
    len = quote_msg(msg, 60, many + 8, sizeof(many) - 8);
    assert_int_equal(tern_icmpv6_error_quote(msg, len, &err, &inner, &off), 17);
    assert_int_equal(off, 40 + 8 * TERN_ICMPV6_QUOTE_EXT_MAX);
    /* No error message, or no IPv6 header quoted. */
    msg[0] = TERN_ICMPV6_ECHO_REPLY;
    assert_int_equal(tern_icmpv6_error_quote(msg, len, &err, &inner, &off), -EBADMSG);
    msg[0] = TERN_ICMPV6_DST_UNREACH;
    assert_int_equal(tern_icmpv6_error_quote(msg, 8 + 39, &err, &inner, &off), -EBADMSG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_icmpv6_is_error__boundary),
        cmocka_unit_test(test_tern_icmpv6_hdr_parse__echo_request),
        cmocka_unit_test(test_tern_icmpv6_hdr_parse__truncated),
        cmocka_unit_test(test_tern_icmpv6_hdr_emit__golden_and_short),
        cmocka_unit_test(test_tern_icmpv6_echo_parse__ping6),
        cmocka_unit_test(test_tern_icmpv6_echo_parse__truncated),
        cmocka_unit_test(test_tern_icmpv6_echo_parse__not_echo),
        cmocka_unit_test(test_tern_icmpv6_echo_emit__golden_with_checksum),
        cmocka_unit_test(test_tern_icmpv6_echo_emit__reply_in_place),
        cmocka_unit_test(test_tern_icmpv6_echo_emit__errors),
        cmocka_unit_test(test_tern_icmpv6_error_parse__port_unreachable),
        cmocka_unit_test(test_tern_icmpv6_error_parse__packet_too_big_and_param_problem),
        cmocka_unit_test(test_tern_icmpv6_error_parse__unknown_error_type),
        cmocka_unit_test(test_tern_icmpv6_error_parse__truncated_or_informational),
        cmocka_unit_test(test_tern_icmpv6_error_emit__golden_with_checksum),
        cmocka_unit_test(test_tern_icmpv6_error_emit__packet_too_big_round_trip),
        cmocka_unit_test(test_tern_icmpv6_error_emit__invoking_in_place),
        cmocka_unit_test(test_tern_icmpv6_error_emit__errors),
        cmocka_unit_test(test_tern_icmpv6_error_invoking_fit__min_mtu),
        cmocka_unit_test(test_tern_icmpv6_checksum_compute__scattered_odd_spans),
        cmocka_unit_test(test_tern_icmpv6_checksum_verify__good_and_bad),
        cmocka_unit_test(test_tern_icmpv6_checksum_fill__truncated),
        cmocka_unit_test(test_tern_icmpv6_error_quote__extension_headers_skipped_and_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
