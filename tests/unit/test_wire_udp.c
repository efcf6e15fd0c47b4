/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief UDP header and checksum over IPv6: golden bytes (checksums
 *        cross-checked with scapy 2.8), parse, emit, round trip, errors.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tern/wire/ipv6.h"
#include "tern/wire/udp.h"

static const tern_ipv6_addr_t ll1 = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } };
static const tern_ipv6_addr_t ll2 = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } };
static const tern_ipv6_addr_t doc1 = { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } };
static const tern_ipv6_addr_t doc2 = { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } };

/* fe80::1.49152 -> fe80::2.5683, a 9-byte CoAP GET as payload, checksum 0x4c76. */
static const uint8_t coap_datagram[] = {
    0xc0, 0x00, 0x16, 0x33, 0x00, 0x11, 0x4c, 0x76,
    0x40, 0x01, 0x12, 0x34, 0xb4, 't', 'e', 's', 't',
};

/* 2001:db8::1.7 -> 2001:db8::2.7 "abc" (odd length), checksum 0xdff2. */
static const uint8_t echo_datagram[] = {
    0x00, 0x07, 0x00, 0x07, 0x00, 0x0b, 0xdf, 0xf2, 'a', 'b', 'c',
};

/* 2001:db8::1.7 -> 2001:db8::2.7, payload a4 57: the sum is 0, sent as 0xffff. */
static const uint8_t zero_sum_datagram[] = {
    0x00, 0x07, 0x00, 0x07, 0x00, 0x0a, 0xff, 0xff, 0xa4, 0x57,
};

static void test_tern_udp_parse__golden(void **state)
{
    (void)state;
    tern_udp_repr_t udp;
    assert_int_equal(tern_udp_parse(&udp, coap_datagram, sizeof(coap_datagram)), TERN_UDP_HDR_LEN);
    assert_int_equal(udp.src_port, 49152);
    assert_int_equal(udp.dst_port, 5683);
    assert_int_equal(udp.length, 17);
    assert_int_equal(udp.checksum, 0x4c76);
    /* trailing bytes beyond the Length field are allowed */
    uint8_t padded[20];
    memcpy(padded, coap_datagram, sizeof(coap_datagram));
    assert_int_equal(tern_udp_parse(&udp, padded, sizeof(padded)), 8);
    assert_int_equal(udp.length, 17);
}

static void test_tern_udp_ports_get__golden(void **state)
{
    (void)state;
    uint16_t src = 0;
    uint16_t dst = 0;
    tern_udp_ports_get(coap_datagram, &src, &dst);
    assert_int_equal(src, 49152);
    assert_int_equal(dst, 5683);
}

static void test_tern_udp_parse__too_short(void **state)
{
    (void)state;
    tern_udp_repr_t udp;
    for (size_t len = 0; len < 8; len++) {
        assert_int_equal(tern_udp_parse(&udp, coap_datagram, len), -EBADMSG);
    }
}

static void test_tern_udp_parse__length_field_out_of_range(void **state)
{
    (void)state;
    tern_udp_repr_t udp = { .src_port = 0xaaaa };
    uint8_t buf[17];
    memcpy(buf, coap_datagram, sizeof(buf));
    /* larger than the buffer */
    assert_int_equal(tern_udp_parse(&udp, buf, 16), -EBADMSG);
    buf[4] = 0xff;
    assert_int_equal(tern_udp_parse(&udp, buf, sizeof(buf)), -EBADMSG);
    /* smaller than the header */
    for (uint8_t l = 0; l < 8; l++) {
        buf[4] = 0;
        buf[5] = l;
        assert_int_equal(tern_udp_parse(&udp, buf, sizeof(buf)), -EBADMSG);
    }
    assert_int_equal(udp.src_port, 0xaaaa); /* unchanged */
    /* exactly a header */
    buf[5] = 8;
    assert_int_equal(tern_udp_parse(&udp, buf, 8), 8);
    assert_int_equal(udp.length, 8);
}

static void test_tern_udp_parse__null(void **state)
{
    (void)state;
    tern_udp_repr_t udp;
    assert_int_equal(tern_udp_parse(NULL, coap_datagram, 17), -EINVAL);
    assert_int_equal(tern_udp_parse(&udp, NULL, 17), -EINVAL);
}

static void test_tern_udp_emit__golden(void **state)
{
    (void)state;
    const tern_udp_repr_t udp = { .src_port = 49152, .dst_port = 5683, .length = 17,
                                  .checksum = 0x4c76 };
    assert_int_equal(tern_udp_len(&udp), 8);
    uint8_t buf[9];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_udp_emit(&udp, buf, sizeof(buf)), 8);
    assert_memory_equal(buf, coap_datagram, 8);
    assert_int_equal(buf[8], 0xaa);
}

static void test_tern_udp_emit__errors(void **state)
{
    (void)state;
    tern_udp_repr_t udp = { .length = 8 };
    uint8_t buf[8];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_udp_emit(&udp, buf, 7), -ENOBUFS);
    assert_int_equal(buf[0], 0xaa);
    udp.length = 7;
    assert_int_equal(tern_udp_emit(&udp, buf, 8), -EINVAL);
    assert_int_equal(tern_udp_emit(NULL, buf, 8), -EINVAL);
    udp.length = 8;
    assert_int_equal(tern_udp_emit(&udp, NULL, 8), -EINVAL);
}

static void test_tern_udp_emit__round_trip(void **state)
{
    (void)state;
    const tern_udp_repr_t in = { .src_port = 0xffff, .dst_port = 1, .length = 0xffff,
                                 .checksum = 0x8001 };
    static uint8_t buf[0xffff];
    assert_int_equal(tern_udp_emit(&in, buf, sizeof(buf)), 8);
    tern_udp_repr_t out;
    assert_int_equal(tern_udp_parse(&out, buf, sizeof(buf)), 8);
    assert_memory_equal(&in, &out, sizeof(in));
}

static void test_tern_udp_set_checksum__writes_field(void **state)
{
    (void)state;
    uint8_t buf[8] = { 0 };
    assert_int_equal(tern_udp_set_checksum(buf, 8, 0xbeef), 0);
    assert_int_equal(buf[6], 0xbe);
    assert_int_equal(buf[7], 0xef);
    assert_int_equal(tern_udp_set_checksum(buf, 7, 0), -ENOBUFS);
    assert_int_equal(tern_udp_set_checksum(NULL, 8, 0), -EINVAL);
}

static void test_tern_udp_checksum__golden_contiguous(void **state)
{
    (void)state;
    uint8_t buf[sizeof(coap_datagram)];
    memcpy(buf, coap_datagram, sizeof(buf));
    buf[6] = buf[7] = 0;
    const tern_checksum_span_t one[] = { { buf, sizeof(buf) } };
    assert_int_equal(tern_udp_checksum(&ll1, &ll2, one, 1), 0x4c76);

    uint8_t echo[sizeof(echo_datagram)];
    memcpy(echo, echo_datagram, sizeof(echo));
    echo[6] = echo[7] = 0;
    const tern_checksum_span_t e[] = { { echo, sizeof(echo) } };
    assert_int_equal(tern_udp_checksum(&doc1, &doc2, e, 1), 0xdff2);
}

static void test_tern_udp_checksum__scatter_list_of_snips(void **state)
{
    (void)state;
    /* header snip, then the payload split at odd boundaries */
    uint8_t hdr[8];
    const tern_udp_repr_t udp = { .src_port = 49152, .dst_port = 5683, .length = 17 };
    assert_int_equal(tern_udp_emit(&udp, hdr, sizeof(hdr)), 8);
    const uint8_t *payload = coap_datagram + 8;
    const tern_checksum_span_t spans[] = {
        { hdr, 8 }, { payload, 1 }, { payload + 1, 0 }, { payload + 1, 5 }, { payload + 6, 3 },
    };
    uint16_t checksum = tern_udp_checksum(&ll1, &ll2, spans, 5);
    assert_int_equal(checksum, 0x4c76);
    assert_int_equal(tern_udp_set_checksum(hdr, sizeof(hdr), checksum), 0);
    tern_udp_repr_t parsed = udp;
    parsed.checksum = checksum;
    assert_int_equal(tern_udp_checksum_verify(&parsed, &ll1, &ll2, spans, 5), 0);
}

static void test_tern_udp_checksum__zero_is_sent_as_ffff(void **state)
{
    (void)state;
    uint8_t buf[sizeof(zero_sum_datagram)];
    memcpy(buf, zero_sum_datagram, sizeof(buf));
    buf[6] = buf[7] = 0;
    const tern_checksum_span_t spans[] = { { buf, sizeof(buf) } };
    assert_int_equal(tern_udp_checksum(&doc1, &doc2, spans, 1), 0xffff);
    /* and 0xffff verifies */
    tern_udp_repr_t udp;
    assert_int_equal(tern_udp_parse(&udp, zero_sum_datagram, sizeof(zero_sum_datagram)), 8);
    const tern_checksum_span_t rx[] = { { zero_sum_datagram, sizeof(zero_sum_datagram) } };
    assert_int_equal(tern_udp_checksum_verify(&udp, &doc1, &doc2, rx, 1), 0);
}

static void test_tern_udp_checksum_verify__golden(void **state)
{
    (void)state;
    tern_udp_repr_t udp;
    assert_int_equal(tern_udp_parse(&udp, coap_datagram, sizeof(coap_datagram)), 8);
    const tern_checksum_span_t spans[] = { { coap_datagram, sizeof(coap_datagram) } };
    assert_int_equal(tern_udp_checksum_verify(&udp, &ll1, &ll2, spans, 1), 0);
    assert_int_equal(tern_udp_parse(&udp, echo_datagram, sizeof(echo_datagram)), 8);
    const tern_checksum_span_t e[] = { { echo_datagram, 3 }, { echo_datagram + 3, 8 } };
    assert_int_equal(tern_udp_checksum_verify(&udp, &doc1, &doc2, e, 2), 0);
}

static void test_tern_udp_checksum_verify__wrong_sum(void **state)
{
    (void)state;
    uint8_t buf[sizeof(coap_datagram)];
    memcpy(buf, coap_datagram, sizeof(buf));
    buf[16] ^= 0x01; /* one payload bit */
    tern_udp_repr_t udp;
    assert_int_equal(tern_udp_parse(&udp, buf, sizeof(buf)), 8);
    const tern_checksum_span_t spans[] = { { buf, sizeof(buf) } };
    assert_int_equal(tern_udp_checksum_verify(&udp, &ll1, &ll2, spans, 1), -EBADMSG);
    /* right bytes, wrong pseudo-header */
    const tern_checksum_span_t good[] = { { coap_datagram, sizeof(coap_datagram) } };
    assert_int_equal(tern_udp_parse(&udp, coap_datagram, sizeof(coap_datagram)), 8);
    assert_int_equal(tern_udp_checksum_verify(&udp, &ll2, &ll2, good, 1), -EBADMSG);
}

static void test_tern_udp_checksum_verify__zero_checksum_rejected(void **state)
{
    (void)state;
    /* RFC 8200 §8.1: a zero UDP checksum over IPv6 is discarded. */
    uint8_t buf[sizeof(coap_datagram)];
    memcpy(buf, coap_datagram, sizeof(buf));
    buf[6] = buf[7] = 0;
    tern_udp_repr_t udp;
    assert_int_equal(tern_udp_parse(&udp, buf, sizeof(buf)), 8);
    const tern_checksum_span_t spans[] = { { buf, sizeof(buf) } };
    assert_int_equal(tern_udp_checksum_verify(&udp, &ll1, &ll2, spans, 1), -EBADMSG);
}

static void test_tern_udp_checksum_verify__spans_not_matching_length(void **state)
{
    (void)state;
    tern_udp_repr_t udp;
    assert_int_equal(tern_udp_parse(&udp, coap_datagram, sizeof(coap_datagram)), 8);
    const tern_checksum_span_t short_spans[] = { { coap_datagram, 16 } };
    assert_int_equal(tern_udp_checksum_verify(&udp, &ll1, &ll2, short_spans, 1), -EBADMSG);
    uint8_t padded[18];
    memcpy(padded, coap_datagram, 17);
    padded[17] = 0;
    const tern_checksum_span_t long_spans[] = { { padded, 18 } };
    assert_int_equal(tern_udp_checksum_verify(&udp, &ll1, &ll2, long_spans, 1), -EBADMSG);
    assert_int_equal(tern_udp_checksum_verify(&udp, &ll1, &ll2, NULL, 0), -EBADMSG);
}

static void test_tern_udp_checksum_verify__null(void **state)
{
    (void)state;
    tern_udp_repr_t udp;
    assert_int_equal(tern_udp_parse(&udp, coap_datagram, sizeof(coap_datagram)), 8);
    const tern_checksum_span_t spans[] = { { coap_datagram, sizeof(coap_datagram) } };
    assert_int_equal(tern_udp_checksum_verify(NULL, &ll1, &ll2, spans, 1), -EINVAL);
    assert_int_equal(tern_udp_checksum_verify(&udp, NULL, &ll2, spans, 1), -EINVAL);
    assert_int_equal(tern_udp_checksum_verify(&udp, &ll1, NULL, spans, 1), -EINVAL);
    assert_int_equal(tern_udp_checksum_verify(&udp, &ll1, &ll2, NULL, 1), -EINVAL);
}

/* The IPv6 header of a datagram of @p length bytes from @p src to @p dst, into @p hdr. */
static const uint8_t *ip_of(uint8_t hdr[TERN_IPV6_HDR_LEN], const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                            uint16_t length)
{
    const tern_ipv6_repr_t ip = { .payload_len = length, .next_header = TERN_IPV6_NH_UDP, .hop_limit = 64,
                                  .src = *src, .dst = *dst };
    assert_int_equal(tern_ipv6_emit(&ip, hdr, TERN_IPV6_HDR_LEN), TERN_IPV6_HDR_LEN);
    return hdr;
}

static void test_tern_udp_checksum_verify_bytes__golden(void **state)
{
    (void)state;
    tern_udp_repr_t udp;
    uint8_t ip[TERN_IPV6_HDR_LEN];
    assert_int_equal(tern_udp_parse(&udp, coap_datagram, sizeof(coap_datagram)), 8);
    assert_int_equal(tern_udp_checksum_verify_bytes(&udp, ip_of(ip, &ll1, &ll2, udp.length), TERN_IPV6_HDR_LEN,
                                                    coap_datagram, sizeof(coap_datagram)), 0);
    assert_int_equal(tern_udp_parse(&udp, echo_datagram, sizeof(echo_datagram)), 8);
    assert_int_equal(tern_udp_checksum_verify_bytes(&udp, ip_of(ip, &doc1, &doc2, udp.length), TERN_IPV6_HDR_LEN,
                                                    echo_datagram, sizeof(echo_datagram)), 0);
    assert_int_equal(tern_udp_parse(&udp, zero_sum_datagram, sizeof(zero_sum_datagram)), 8);
    assert_int_equal(tern_udp_checksum_verify_bytes(&udp, ip_of(ip, &doc1, &doc2, udp.length), TERN_IPV6_HDR_LEN,
                                                    zero_sum_datagram, sizeof(zero_sum_datagram)), 0);
}

static void test_tern_udp_checksum_verify_bytes__rejects(void **state)
{
    (void)state;
    tern_udp_repr_t udp;
    uint8_t ip[TERN_IPV6_HDR_LEN];
    assert_int_equal(tern_udp_parse(&udp, coap_datagram, sizeof(coap_datagram)), 8);
    /* the pseudo-header of other addresses */
    assert_int_equal(tern_udp_checksum_verify_bytes(&udp, ip_of(ip, &ll2, &ll2, udp.length), TERN_IPV6_HDR_LEN,
                                                    coap_datagram, sizeof(coap_datagram)), -EBADMSG);
    (void)ip_of(ip, &ll1, &ll2, udp.length);
    /* one payload bit */
    uint8_t buf[sizeof(coap_datagram)];
    memcpy(buf, coap_datagram, sizeof(buf));
    buf[16] ^= 0x01;
    assert_int_equal(tern_udp_checksum_verify_bytes(&udp, ip, sizeof(ip), buf, sizeof(buf)), -EBADMSG);
    /* not exactly Length bytes */
    assert_int_equal(tern_udp_checksum_verify_bytes(&udp, ip, sizeof(ip), coap_datagram, 16), -EBADMSG);
    /* an IPv6 header too short */
    assert_int_equal(tern_udp_checksum_verify_bytes(&udp, ip, sizeof(ip) - 1, coap_datagram, sizeof(coap_datagram)),
                     -EBADMSG);
    /* RFC 8200 §8.1: checksum 0 */
    memcpy(buf, coap_datagram, sizeof(buf));
    buf[6] = buf[7] = 0;
    assert_int_equal(tern_udp_parse(&udp, buf, sizeof(buf)), 8);
    assert_int_equal(tern_udp_checksum_verify_bytes(&udp, ip, sizeof(ip), buf, sizeof(buf)), -EBADMSG);
    assert_int_equal(tern_udp_checksum_verify_bytes(NULL, ip, sizeof(ip), buf, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_udp_checksum_verify_bytes(&udp, NULL, sizeof(ip), buf, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_udp_checksum_verify_bytes(&udp, ip, sizeof(ip), NULL, 17), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_udp_parse__golden),
        cmocka_unit_test(test_tern_udp_ports_get__golden),
        cmocka_unit_test(test_tern_udp_parse__too_short),
        cmocka_unit_test(test_tern_udp_parse__length_field_out_of_range),
        cmocka_unit_test(test_tern_udp_parse__null),
        cmocka_unit_test(test_tern_udp_emit__golden),
        cmocka_unit_test(test_tern_udp_emit__errors),
        cmocka_unit_test(test_tern_udp_emit__round_trip),
        cmocka_unit_test(test_tern_udp_set_checksum__writes_field),
        cmocka_unit_test(test_tern_udp_checksum__golden_contiguous),
        cmocka_unit_test(test_tern_udp_checksum__scatter_list_of_snips),
        cmocka_unit_test(test_tern_udp_checksum__zero_is_sent_as_ffff),
        cmocka_unit_test(test_tern_udp_checksum_verify__golden),
        cmocka_unit_test(test_tern_udp_checksum_verify__wrong_sum),
        cmocka_unit_test(test_tern_udp_checksum_verify__zero_checksum_rejected),
        cmocka_unit_test(test_tern_udp_checksum_verify__spans_not_matching_length),
        cmocka_unit_test(test_tern_udp_checksum_verify__null),
        cmocka_unit_test(test_tern_udp_checksum_verify_bytes__golden),
        cmocka_unit_test(test_tern_udp_checksum_verify_bytes__rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
