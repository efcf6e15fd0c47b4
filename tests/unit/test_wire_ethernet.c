/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Ethernet II header: golden bytes, parse, emit, round trip, address helpers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tern/wire/ethernet.h"

/* Start of a captured IPv6 frame 02:00:00:00:00:01 -> 02:00:00:00:00:02, then
 * the first bytes of its IPv6 header. */
static const uint8_t frame[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, /* destination */
    0x02, 0x00, 0x00, 0x00, 0x00, 0x01, /* source */
    0x86, 0xdd,                         /* EtherType IPv6 */
    0x60, 0x01, 0x23, 0x45,
};

static void test_tern_ethernet_parse__ipv6_frame(void **state)
{
    (void)state;
    tern_ethernet_repr_t repr;
    assert_int_equal(tern_ethernet_parse(&repr, frame, sizeof(frame)), TERN_ETHERNET_HDR_LEN);
    const uint8_t dst[6] = { 0x02, 0, 0, 0, 0, 0x02 };
    const uint8_t src[6] = { 0x02, 0, 0, 0, 0, 0x01 };
    assert_memory_equal(repr.dst, dst, 6);
    assert_memory_equal(repr.src, src, 6);
    assert_int_equal(repr.ethertype, TERN_ETHERTYPE_IPV6);
    /* exactly the header is enough */
    assert_int_equal(tern_ethernet_parse(&repr, frame, 14), 14);
}

static void test_tern_ethernet_parse__too_short(void **state)
{
    (void)state;
    tern_ethernet_repr_t repr;
    for (size_t len = 0; len < TERN_ETHERNET_HDR_LEN; len++) {
        assert_int_equal(tern_ethernet_parse(&repr, frame, len), -EBADMSG);
    }
}

static void test_tern_ethernet_parse__8023_length_field(void **state)
{
    (void)state;
    uint8_t buf[14];
    memcpy(buf, frame, 14);
    tern_ethernet_repr_t repr;
    buf[12] = 0x05;
    buf[13] = 0xff; /* 1535: an 802.3 length */
    assert_int_equal(tern_ethernet_parse(&repr, buf, 14), -EBADMSG);
    buf[12] = 0x00;
    buf[13] = 0x2e;
    assert_int_equal(tern_ethernet_parse(&repr, buf, 14), -EBADMSG);
    buf[12] = 0x06;
    buf[13] = 0x00; /* smallest EtherType */
    assert_int_equal(tern_ethernet_parse(&repr, buf, 14), 14);
    assert_int_equal(repr.ethertype, 0x0600);
}

static void test_tern_ethernet_parse__null(void **state)
{
    (void)state;
    tern_ethernet_repr_t repr;
    assert_int_equal(tern_ethernet_parse(NULL, frame, sizeof(frame)), -EINVAL);
    assert_int_equal(tern_ethernet_parse(&repr, NULL, 14), -EINVAL);
}

static void test_tern_ethernet_emit__golden(void **state)
{
    (void)state;
    tern_ethernet_repr_t repr = {
        .dst = { 0x02, 0, 0, 0, 0, 0x02 },
        .src = { 0x02, 0, 0, 0, 0, 0x01 },
        .ethertype = TERN_ETHERTYPE_IPV6,
    };
    uint8_t buf[16];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_ethernet_emit(&repr, buf, sizeof(buf)), 14);
    assert_memory_equal(buf, frame, 14);
    assert_int_equal(buf[14], 0xaa);
}

static void test_tern_ethernet_emit__buffer_too_small(void **state)
{
    (void)state;
    tern_ethernet_repr_t repr = { .ethertype = TERN_ETHERTYPE_IPV6 };
    uint8_t buf[14];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_ethernet_emit(&repr, buf, 13), -ENOBUFS);
    assert_int_equal(buf[0], 0xaa);
    assert_int_equal(tern_ethernet_emit(&repr, NULL, 14), -EINVAL);
    assert_int_equal(tern_ethernet_emit(NULL, buf, 14), -EINVAL);
}

static void test_tern_ethernet_emit__round_trip(void **state)
{
    (void)state;
    tern_ethernet_repr_t in = {
        .dst = { 0x33, 0x33, 0xff, 0x12, 0x34, 0x56 },
        .src = { 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54 },
        .ethertype = 0x88b5,
    };
    uint8_t buf[14];
    assert_int_equal(tern_ethernet_emit(&in, buf, sizeof(buf)), 14);
    tern_ethernet_repr_t out;
    assert_int_equal(tern_ethernet_parse(&out, buf, sizeof(buf)), 14);
    assert_memory_equal(&in.dst, &out.dst, 6);
    assert_memory_equal(&in.src, &out.src, 6);
    assert_int_equal(in.ethertype, out.ethertype);
}

static void test_tern_ethernet_addr_is__multicast_broadcast(void **state)
{
    (void)state;
    const uint8_t unicast[6] = { 0x02, 0, 0, 0, 0, 1 };
    const uint8_t mcast[6] = { 0x33, 0x33, 0, 0, 0, 1 };
    const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    const uint8_t almost[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe };
    assert_false(tern_ethernet_addr_is_multicast(unicast));
    assert_true(tern_ethernet_addr_is_multicast(mcast));
    assert_true(tern_ethernet_addr_is_multicast(bcast));
    assert_false(tern_ethernet_addr_is_broadcast(mcast));
    assert_true(tern_ethernet_addr_is_broadcast(bcast));
    assert_false(tern_ethernet_addr_is_broadcast(almost));
}

static void test_tern_ethernet_addr_from_ipv6_multicast__rfc2464_7(void **state)
{
    (void)state;
    /* RFC 2464 §7: FF02::1:FF12:3456 -> 33:33:FF:12:34:56 (solicited-node) */
    const tern_ipv6_addr_t group = { { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xff, 0x12,
                                       0x34, 0x56 } };
    uint8_t mac[6];
    tern_ethernet_addr_from_ipv6_multicast(mac, &group);
    const uint8_t expected[6] = { 0x33, 0x33, 0xff, 0x12, 0x34, 0x56 };
    assert_memory_equal(mac, expected, 6);
    const tern_ipv6_addr_t all_nodes = TERN_IPV6_ADDR_ALL_NODES_LINK;
    tern_ethernet_addr_from_ipv6_multicast(mac, &all_nodes);
    const uint8_t expected_all[6] = { 0x33, 0x33, 0, 0, 0, 1 };
    assert_memory_equal(mac, expected_all, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_ethernet_parse__ipv6_frame),
        cmocka_unit_test(test_tern_ethernet_parse__too_short),
        cmocka_unit_test(test_tern_ethernet_parse__8023_length_field),
        cmocka_unit_test(test_tern_ethernet_parse__null),
        cmocka_unit_test(test_tern_ethernet_emit__golden),
        cmocka_unit_test(test_tern_ethernet_emit__buffer_too_small),
        cmocka_unit_test(test_tern_ethernet_emit__round_trip),
        cmocka_unit_test(test_tern_ethernet_addr_is__multicast_broadcast),
        cmocka_unit_test(test_tern_ethernet_addr_from_ipv6_multicast__rfc2464_7),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
