/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Internet checksum (RFC 1071) and the IPv6 pseudo-header (RFC 8200 §8.1).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tern/wire/checksum.h"

/* Straightforward reference: sum of 16-bit big-endian words, 64-bit, folded at the end. */
static uint16_t reference(const uint8_t *p, size_t len)
{
    uint64_t sum = 0;
    for (size_t i = 0; i + 1 < len; i += 2) {
        sum += ((uint64_t)p[i] << 8) | p[i + 1];
    }
    if (len & 1) {
        sum += (uint64_t)p[len - 1] << 8;
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (uint16_t)~sum;
}

static void test_tern_checksum_add__rfc1071_example(void **state)
{
    (void)state;
    /* RFC 1071 §3: bytes 00 01 f2 03 f4 f5 f6 f7 sum to ddf2 (folded). */
    const uint8_t data[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
    uint32_t sum = tern_checksum_add(0, data, sizeof(data));
    assert_int_equal(sum, 0xddf2);
    assert_int_equal(tern_checksum_finish(sum), 0x220d);
}

static void test_tern_checksum_add__odd_length_pads_with_zero(void **state)
{
    (void)state;
    const uint8_t data[] = { 0x12, 0x34, 0x56 };
    assert_int_equal(tern_checksum_add(0, data, 3), 0x1234 + 0x5600);
    assert_int_equal(tern_checksum_add(0, data, 0), 0);
    assert_int_equal(tern_checksum_add(0, NULL, 0), 0);
}

static void test_tern_checksum_add__chained_equals_whole(void **state)
{
    (void)state;
    uint8_t data[301];
    for (size_t i = 0; i < sizeof(data); i++) {
        data[i] = (uint8_t)(i * 37 + 11);
    }
    uint16_t whole = reference(data, sizeof(data));
    assert_int_equal(tern_checksum_finish(tern_checksum_add(0, data, sizeof(data))), whole);
    /* every split point, the second part at its real (possibly odd) offset */
    for (size_t cut = 0; cut <= sizeof(data); cut++) {
        uint32_t sum = tern_checksum_add(0, data, cut);
        sum = tern_checksum_add_at(sum, data + cut, sizeof(data) - cut, cut);
        assert_int_equal(tern_checksum_finish(sum), whole);
    }
    /* three parts of odd lengths */
    uint32_t sum = tern_checksum_add_at(0, data, 3, 0);
    sum = tern_checksum_add_at(sum, data + 3, 5, 3);
    sum = tern_checksum_add_at(sum, data + 8, sizeof(data) - 8, 8);
    assert_int_equal(tern_checksum_finish(sum), whole);
}

static void test_tern_checksum_add__large_input_does_not_overflow(void **state)
{
    (void)state;
    static uint8_t big[300000];
    memset(big, 0xff, sizeof(big));
    big[17] = 0x01;
    assert_int_equal(tern_checksum_finish(tern_checksum_add(0, big, sizeof(big))),
                     reference(big, sizeof(big)));
    assert_int_equal(tern_checksum_finish(tern_checksum_add(0xffffffffu, big, 2)),
                     tern_checksum_finish(0xffffu + 0xffffu + 0xffffu));
}

static void test_tern_checksum_add_spans__odd_spans(void **state)
{
    (void)state;
    uint8_t data[64];
    for (size_t i = 0; i < sizeof(data); i++) {
        data[i] = (uint8_t)(0xa5 ^ (i * 13));
    }
    const tern_checksum_span_t spans[] = {
        { data, 1 }, { data + 1, 0 }, { NULL, 0 }, { data + 1, 7 }, { data + 8, 33 }, { data + 41, 23 },
    };
    assert_int_equal(tern_checksum_finish(tern_checksum_add_spans(0, spans, 6)),
                     reference(data, sizeof(data)));
    assert_int_equal(tern_checksum_add_spans(0x1234, spans, 0), 0x1234);
}

/* Spans at even offsets share one unfolded accumulator: all-ones blocks
 * (every 64-bit addition carries) across several spans sum as one buffer. */
static void test_tern_checksum_add_spans__even_spans_carry(void **state)
{
    (void)state;
    uint8_t data[200];
    memset(data, 0xff, sizeof(data));
    data[199] = 0xfe;
    const tern_checksum_span_t spans[] = {
        { data, 48 }, { data + 48, 64 }, { data + 112, 6 }, { data + 118, 81 }, { data + 199, 1 },
    };
    assert_int_equal(tern_checksum_finish(tern_checksum_add_spans(0, spans, 5)), reference(data, sizeof(data)));
}

static void test_tern_checksum_ipv6_pseudo__layout(void **state)
{
    (void)state;
    /* The pseudo-header as bytes (RFC 8200 §8.1) summed by the reference. */
    const tern_ipv6_addr_t src = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } };
    const tern_ipv6_addr_t dst = { { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x16 } };
    uint8_t pseudo[40];
    memcpy(pseudo, src.u8, 16);
    memcpy(pseudo + 16, dst.u8, 16);
    const uint8_t tail[8] = { 0x00, 0x01, 0x23, 0x45, 0, 0, 0, 58 };
    memcpy(pseudo + 32, tail, 8);
    assert_int_equal(tern_checksum_finish(tern_checksum_ipv6_pseudo(0, &src, &dst, 0x12345, 58)),
                     reference(pseudo, sizeof(pseudo)));
}

/* All-ones addresses and data: every 64-bit block of the pseudo-header and
 * of the data wraps the accumulator (end-around carries), also from one
 * sum into the next; the result is still the reference's. */
static void test_tern_checksum_ipv6_pseudo__all_ones_carries_into_the_data_sum(void **state)
{
    (void)state;
    tern_ipv6_addr_t ones;
    memset(ones.u8, 0xff, sizeof(ones.u8));
    static uint8_t bytes[40 + 1240];
    memset(bytes, 0xff, sizeof(bytes));
    const uint8_t tail[8] = { 0x00, 0x00, 0x04, 0xd8, 0, 0, 0, 17 }; /* length 1240, UDP */
    memcpy(bytes + 32, tail, 8);
    for (size_t len = 1220; len <= 1240; len++) {
        bytes[34] = (uint8_t)(len >> 8);
        bytes[35] = (uint8_t)len;
        uint32_t sum = tern_checksum_ipv6_pseudo(0, &ones, &ones, (uint32_t)len, 17);
        sum = tern_checksum_add(sum, bytes + 40, len);
        assert_int_equal(tern_checksum_finish(sum), reference(bytes, 40 + len));
    }
}

/* The pseudo-header and the upper-layer bytes in one accumulation equal the
 * reference over [addresses, length, zeros, next header, upper...] as bytes:
 * every length 0..300 (odd ones padded), odd start addresses, random bytes
 * and all ones (end-around carries from the addresses into the data). */
static void test_tern_checksum_ipv6_upper__matches_reference(void **state)
{
    (void)state;
    static uint8_t bytes[40 + 300];
    static uint8_t upper[1 + 300];
    for (unsigned pattern = 0; pattern < 2; pattern++) {
        uint32_t x = 0x9e3779b9u;
        for (size_t i = 0; i < sizeof(upper); i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            upper[i] = (pattern == 0) ? (uint8_t)x : 0xffu;
        }
        uint8_t addrs[1 + 32];
        for (size_t i = 0; i < sizeof(addrs); i++) {
            addrs[i] = (pattern == 0) ? (uint8_t)(0x20u + 7u * i) : 0xffu;
        }
        for (size_t len = 0; len <= 300; len++) {
            for (size_t off = 0; off < 2; off++) {
                memcpy(bytes, addrs + off, 32);
                const uint8_t tail[8] = { 0, 0, (uint8_t)(len >> 8), (uint8_t)len, 0, 0, 0, 17 };
                memcpy(bytes + 32, tail, 8);
                memcpy(bytes + 40, upper + off, len);
                assert_int_equal(tern_checksum_finish(tern_checksum_ipv6_upper(addrs + off, upper + off, len, 17)),
                                 reference(bytes, 40 + len));
            }
        }
    }
    /* no upper-layer bytes */
    const tern_ipv6_addr_t src = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } };
    const tern_ipv6_addr_t dst = { { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x16 } };
    uint8_t both[32];
    memcpy(both, src.u8, 16);
    memcpy(both + 16, dst.u8, 16);
    assert_int_equal(tern_checksum_finish(tern_checksum_ipv6_upper(both, NULL, 0, 58)),
                     tern_checksum_finish(tern_checksum_ipv6_pseudo(0, &src, &dst, 0, 58)));
}

/* The fused pseudo-header + spans sum equals the two-step one and the
 * reference, for every split of the data into spans (odd ones included),
 * with ordinary and all-ones addresses and data (carries everywhere). */
static void test_tern_checksum_ipv6_spans__matches_pseudo_then_spans(void **state)
{
    (void)state;
    static uint8_t data[80];
    tern_ipv6_addr_t src = { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34 } };
    tern_ipv6_addr_t dst = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 } };
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < sizeof(data); i++) {
            data[i] = (round == 0) ? (uint8_t)(i * 29 + 7) : 0xff;
        }
        if (round == 1) {
            memset(&src, 0xff, sizeof(src));
            memset(&dst, 0xff, sizeof(dst));
        }
        uint8_t flat[40 + sizeof(data)];
        memcpy(flat, src.u8, 16);
        memcpy(flat + 16, dst.u8, 16);
        for (size_t len = 0; len <= sizeof(data); len += 7) {
            flat[32] = 0;
            flat[33] = 0;
            flat[34] = (uint8_t)(len >> 8);
            flat[35] = (uint8_t)len;
            flat[36] = 0;
            flat[37] = 0;
            flat[38] = 0;
            flat[39] = 17;
            memcpy(flat + 40, data, len);
            uint16_t expected = reference(flat, 40 + len);
            for (size_t a = 0; a <= len; a++) {
                size_t b = a + (len - a) / 2;
                const tern_checksum_span_t spans[] = { { data, a }, { data + a, b - a }, { data + b, len - b } };
                uint32_t fused = tern_checksum_ipv6_spans(&src, &dst, (uint32_t)len, 17, spans, 3);
                uint32_t two_step =
                    tern_checksum_add_spans(tern_checksum_ipv6_pseudo(0, &src, &dst, (uint32_t)len, 17), spans, 3);
                assert_int_equal(tern_checksum_finish(fused), expected);
                assert_int_equal(tern_checksum_finish(two_step), expected);
                assert_true(fused <= 0xffffu);
            }
        }
    }
    /* a length beyond 16 bits goes in as two words; no spans */
    uint32_t big = tern_checksum_ipv6_spans(&src, &dst, 0x12345u, 58, NULL, 0);
    assert_int_equal(tern_checksum_finish(big),
                     tern_checksum_finish(tern_checksum_ipv6_pseudo(0, &src, &dst, 0x12345u, 58)));
}

static void test_tern_checksum_finish__golden_udp(void **state)
{
    (void)state;
    /* UDP 2001:db8::1.7 -> 2001:db8::2.7 "abc", checksum 0xdff2 (cross-checked with scapy). */
    const tern_ipv6_addr_t src = { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } };
    const tern_ipv6_addr_t dst = { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } };
    uint8_t udp[] = { 0x00, 0x07, 0x00, 0x07, 0x00, 0x0b, 0x00, 0x00, 'a', 'b', 'c' };
    uint32_t sum = tern_checksum_ipv6_pseudo(0, &src, &dst, sizeof(udp), 17);
    assert_int_equal(tern_checksum_finish(tern_checksum_add(sum, udp, sizeof(udp))), 0xdff2);
    /* verifying: everything including the checksum sums to 0 */
    udp[6] = 0xdf;
    udp[7] = 0xf2;
    assert_int_equal(tern_checksum_finish(tern_checksum_add(sum, udp, sizeof(udp))), 0);
}

static void test_tern_checksum_finish__folds(void **state)
{
    (void)state;
    assert_int_equal(tern_checksum_finish(0), 0xffff);
    assert_int_equal(tern_checksum_finish(0xffff), 0);
    assert_int_equal(tern_checksum_finish(0x1fffe), 0);
    assert_int_equal(tern_checksum_finish(0xffffffffu), 0);
    assert_int_equal(tern_checksum_finish(0x00010000u), 0xfffe);
}

/* The word-parallel sum equals the textbook one (16-bit words, a fold at the
 * end, RFC 1071 §4.1) for every length 0..300, every alignment, any start. */
static uint32_t reference_sum(uint32_t sum, const uint8_t *p, size_t len)
{
    uint64_t acc = sum;
    for (size_t i = 0; i + 1 < len; i += 2) {
        acc += ((uint32_t)p[i] << 8) | p[i + 1];
    }
    if (len % 2 != 0) {
        acc += (uint32_t)p[len - 1] << 8;
    }
    while (acc >> 16) {
        acc = (acc & 0xffffu) + (acc >> 16);
    }
    return (uint32_t)acc;
}

static void test_tern_checksum_add__matches_reference_for_every_length(void **state)
{
    (void)state;
    static uint8_t buf[320];
    uint32_t x = 0x12345678u;
    for (size_t i = 0; i < sizeof(buf); i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        buf[i] = (uint8_t)x;
    }
    for (size_t off = 0; off < 8; off++) {
        for (size_t len = 0; len <= 300; len++) {
            uint32_t start = (uint32_t)(len * 2654435761u) & 0xffffu;
            assert_int_equal(tern_checksum_add(start, buf + off, len), reference_sum(start, buf + off, len));
        }
    }
    memset(buf, 0xff, sizeof(buf)); /* the largest words: carries in every step */
    assert_int_equal(tern_checksum_add(0xffffu, buf, 300), reference_sum(0xffffu, buf, 300));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_checksum_add__rfc1071_example),
        cmocka_unit_test(test_tern_checksum_add__matches_reference_for_every_length),
        cmocka_unit_test(test_tern_checksum_add__odd_length_pads_with_zero),
        cmocka_unit_test(test_tern_checksum_add__chained_equals_whole),
        cmocka_unit_test(test_tern_checksum_add__large_input_does_not_overflow),
        cmocka_unit_test(test_tern_checksum_add_spans__odd_spans),
        cmocka_unit_test(test_tern_checksum_add_spans__even_spans_carry),
        cmocka_unit_test(test_tern_checksum_ipv6_pseudo__layout),
        cmocka_unit_test(test_tern_checksum_ipv6_pseudo__all_ones_carries_into_the_data_sum),
        cmocka_unit_test(test_tern_checksum_ipv6_upper__matches_reference),
        cmocka_unit_test(test_tern_checksum_ipv6_spans__matches_pseudo_then_spans),
        cmocka_unit_test(test_tern_checksum_finish__golden_udp),
        cmocka_unit_test(test_tern_checksum_finish__folds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
