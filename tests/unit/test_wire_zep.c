/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief ZEP v2 (and v1 parse): golden bytes, parse, emit, round trip,
 *        truncations, every rejection.
 *
 * Vectors derived by hand from the layout Wireshark's packet-zep.c dissects
 * (tern/wire/zep.h draws it): big-endian fields at fixed offsets.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tern/wire/ieee802154.h"
#include "tern/wire/zep.h"

/* Version 2 data packet carrying the Imm-Ack of 802.15.4-2006 §7.2.1.9. */
static const uint8_t zep_data[] = {
    0x45, 0x58,                                     /* "EX" */
    0x02,                                           /* version 2 */
    0x01,                                           /* type 1: data */
    0x1a,                                           /* channel 26 */
    0x12, 0x34,                                     /* device id 0x1234 */
    0x01,                                           /* LQI/CRC mode 1: the frame ends with its FCS */
    0xff,                                           /* LQI 255 */
    0xe6, 0xd5, 0xa3, 0xb4, 0x80, 0x00, 0x00, 0x00, /* NTP: seconds 0xe6d5a3b4, fraction 0.5 */
    0x00, 0x00, 0x01, 0x02,                         /* sequence number 258 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                   /* 10 reserved bytes */
    0x05,                                           /* frame length, FCS included */
    0x02, 0x00, 0x6a, 0xe4, 0x79,                   /* the 802.15.4 frame */
};

/* Version 2 ack of the packet above: "EX", 2, type 2, sequence number 258. */
static const uint8_t zep_ack[] = { 0x45, 0x58, 0x02, 0x02, 0x00, 0x00, 0x01, 0x02 };

/* Version 1: "EX", 1, channel 11, device 0xabcd, LQI mode 0, LQI 0x80, 7
 * reserved, length 5, then the frame. */
static const uint8_t zep_v1[] = {
    0x45, 0x58, 0x01, 0x0b, 0xab, 0xcd, 0x00, 0x80,
    0, 0, 0, 0, 0, 0, 0,
    0x05,
    0x02, 0x00, 0x6a, 0xe4, 0x79,
};

static tern_zep_repr_t data_repr(void)
{
    tern_zep_repr_t r;
    memset(&r, 0, sizeof(r));
    r.version = 2;
    r.type = TERN_ZEP_TYPE_DATA;
    r.channel = 26;
    r.device_id = 0x1234;
    r.crc_mode = true;
    r.lqi = 0xff;
    r.timestamp = 0xe6d5a3b480000000ull;
    r.seq = 258;
    r.frame_len = 5;
    return r;
}

static void assert_zep_equal(const tern_zep_repr_t *a, const tern_zep_repr_t *b)
{
    assert_int_equal(a->version, b->version);
    assert_int_equal(a->type, b->type);
    assert_int_equal(a->channel, b->channel);
    assert_int_equal(a->device_id, b->device_id);
    assert_int_equal(a->crc_mode, b->crc_mode);
    assert_int_equal(a->lqi, b->lqi);
    assert_true(a->timestamp == b->timestamp);
    assert_int_equal(a->seq, b->seq);
    assert_int_equal(a->frame_len, b->frame_len);
}

static void test_tern_zep_parse__v2_data(void **state)
{
    (void)state;
    tern_zep_repr_t r;
    assert_int_equal(tern_zep_parse(&r, zep_data, sizeof(zep_data)), TERN_ZEP_V2_HDR_LEN);
    tern_zep_repr_t expected = data_repr();
    assert_zep_equal(&r, &expected);
    /* the frame that follows is an 802.15.4 PSDU with a good FCS */
    tern_ieee802154_repr_t mac;
    assert_int_equal(tern_ieee802154_parse_fcs(&mac, &zep_data[32], r.frame_len), 3);
    assert_int_equal(mac.frame_type, TERN_IEEE802154_FRAME_TYPE_ACK);
    assert_int_equal(mac.seq, 0x6a);
}

static void test_tern_zep_emit__v2_data_golden(void **state)
{
    (void)state;
    tern_zep_repr_t r = data_repr();
    uint8_t buf[40];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_zep_hdr_len(&r), 32);
    assert_int_equal(tern_zep_emit(&r, buf, sizeof(buf)), 32);
    assert_memory_equal(buf, zep_data, 32);
    assert_int_equal(buf[32], 0xaa); /* the frame is the caller's */
    /* reserved bytes are written as 0 whatever the buffer held */
    memset(buf, 0xff, sizeof(buf));
    assert_int_equal(tern_zep_emit(&r, buf, 32), 32);
    assert_memory_equal(buf, zep_data, 32);
}

static void test_tern_zep_parse__v2_ack(void **state)
{
    (void)state;
    tern_zep_repr_t r;
    assert_int_equal(tern_zep_parse(&r, zep_ack, sizeof(zep_ack)), TERN_ZEP_V2_ACK_LEN);
    assert_int_equal(r.version, 2);
    assert_int_equal(r.type, TERN_ZEP_TYPE_ACK);
    assert_int_equal(r.seq, 258);
    assert_int_equal(r.frame_len, 0);
    assert_int_equal(r.channel, 0);

    uint8_t buf[8];
    assert_int_equal(tern_zep_hdr_len(&r), 8);
    assert_int_equal(tern_zep_emit(&r, buf, sizeof(buf)), 8);
    assert_memory_equal(buf, zep_ack, sizeof(zep_ack));
}

static void test_tern_zep_parse__v1(void **state)
{
    (void)state;
    tern_zep_repr_t r;
    assert_int_equal(tern_zep_parse(&r, zep_v1, sizeof(zep_v1)), TERN_ZEP_V1_HDR_LEN);
    assert_int_equal(r.version, 1);
    assert_int_equal(r.type, TERN_ZEP_TYPE_DATA);
    assert_int_equal(r.channel, 11);
    assert_int_equal(r.device_id, 0xabcd);
    assert_false(r.crc_mode);
    assert_int_equal(r.lqi, 0x80);
    assert_int_equal(r.frame_len, 5);
    assert_int_equal(r.seq, 0);
    assert_true(r.timestamp == 0);
    assert_int_equal(tern_zep_hdr_len(&r), 16);
    /* version 1 is parse-only */
    uint8_t buf[32];
    assert_int_equal(tern_zep_emit(&r, buf, sizeof(buf)), -EINVAL);
}

static void test_tern_zep_emit__round_trip(void **state)
{
    (void)state;
    const tern_zep_repr_t cases[] = {
        { 2, TERN_ZEP_TYPE_DATA, 11, 0xffff, false, 0, 0xffffffffffffffffull, 0xffffffffu, 127 },
        { 2, TERN_ZEP_TYPE_DATA, 26, 0, true, 200, 1, 0, 0 },
        { 2, TERN_ZEP_TYPE_ACK, 0, 0, false, 0, 0, 0x89abcdefu, 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t buf[TERN_ZEP_MAX_LEN];
        memset(buf, 0x3c, sizeof(buf)); /* frame bytes */
        int hdr = tern_zep_emit(&cases[i], buf, sizeof(buf));
        assert_int_equal(hdr, tern_zep_hdr_len(&cases[i]));
        tern_zep_repr_t out;
        assert_int_equal(tern_zep_parse(&out, buf, (size_t)hdr + cases[i].frame_len), hdr);
        assert_zep_equal(&out, &cases[i]);
    }
}

static void test_tern_zep_parse__truncated(void **state)
{
    (void)state;
    const struct {
        const uint8_t *buf;
        size_t len;
    } packets[] = {
        { zep_data, sizeof(zep_data) },
        { zep_ack, sizeof(zep_ack) },
        { zep_v1, sizeof(zep_v1) },
    };
    for (size_t p = 0; p < sizeof(packets) / sizeof(packets[0]); p++) {
        for (size_t len = 0; len < packets[p].len; len++) {
            tern_zep_repr_t r;
            memset(&r, 0x77, sizeof(r));
            tern_zep_repr_t untouched = r;
            assert_int_equal(tern_zep_parse(&r, packets[p].buf, len), -EBADMSG);
            assert_memory_equal(&r, &untouched, sizeof(r));
        }
    }
}

static void test_tern_zep_parse__length_mismatch(void **state)
{
    (void)state;
    uint8_t buf[TERN_ZEP_MAX_LEN + 1];
    tern_zep_repr_t r;
    /* a byte after the frame */
    memcpy(buf, zep_data, sizeof(zep_data));
    buf[sizeof(zep_data)] = 0;
    assert_int_equal(tern_zep_parse(&r, buf, sizeof(zep_data) + 1), -EBADMSG);
    /* after an ack */
    memcpy(buf, zep_ack, sizeof(zep_ack));
    assert_int_equal(tern_zep_parse(&r, buf, sizeof(zep_ack) + 1), -EBADMSG);
    /* a length above 127, even with that many bytes present */
    memset(buf, 0, sizeof(buf));
    memcpy(buf, zep_data, 32);
    buf[31] = 128;
    assert_int_equal(tern_zep_parse(&r, buf, 32 + 128), -EBADMSG);
    buf[31] = 0x85; /* Wireshark would mask this to 5 */
    assert_int_equal(tern_zep_parse(&r, buf, 32 + 5), -EBADMSG);
    /* 127 is the longest */
    buf[31] = 127;
    assert_int_equal(tern_zep_parse(&r, buf, 32 + 127), 32);
    assert_int_equal(r.frame_len, 127);
    /* an empty frame is a valid ZEP packet (802.15.4 rejects it later) */
    buf[31] = 0;
    assert_int_equal(tern_zep_parse(&r, buf, 32), 32);
}

static void test_tern_zep_parse__bad_preamble(void **state)
{
    (void)state;
    uint8_t buf[sizeof(zep_data)];
    tern_zep_repr_t r;
    memcpy(buf, zep_data, sizeof(buf));
    buf[0] = 'e';
    assert_int_equal(tern_zep_parse(&r, buf, sizeof(buf)), -EBADMSG);
    memcpy(buf, zep_data, sizeof(buf));
    buf[1] = 'Y';
    assert_int_equal(tern_zep_parse(&r, buf, sizeof(buf)), -EBADMSG);
}

static void test_tern_zep_parse__unknown_version(void **state)
{
    (void)state;
    uint8_t buf[sizeof(zep_data)];
    tern_zep_repr_t r;
    const uint8_t versions[] = { 0, 3, 255 };
    for (size_t i = 0; i < sizeof(versions); i++) {
        memcpy(buf, zep_data, sizeof(buf));
        buf[2] = versions[i];
        assert_int_equal(tern_zep_parse(&r, buf, sizeof(buf)), -EPROTONOSUPPORT);
    }
}

static void test_tern_zep_parse__unknown_type(void **state)
{
    (void)state;
    uint8_t buf[sizeof(zep_data)];
    tern_zep_repr_t r;
    const uint8_t types[] = { 0, 3, 255 };
    for (size_t i = 0; i < sizeof(types); i++) {
        memcpy(buf, zep_data, sizeof(buf));
        buf[3] = types[i];
        assert_int_equal(tern_zep_parse(&r, buf, sizeof(buf)), -ENOMSG);
    }
}

static void test_tern_zep_parse__lqi_mode_nonzero_is_crc(void **state)
{
    (void)state;
    uint8_t buf[sizeof(zep_data)];
    tern_zep_repr_t r;
    memcpy(buf, zep_data, sizeof(buf));
    buf[7] = 0x02;
    assert_int_equal(tern_zep_parse(&r, buf, sizeof(buf)), 32);
    assert_true(r.crc_mode);
    buf[7] = 0x00;
    assert_int_equal(tern_zep_parse(&r, buf, sizeof(buf)), 32);
    assert_false(r.crc_mode);
}

static void test_tern_zep_emit__errors(void **state)
{
    (void)state;
    uint8_t buf[32];
    tern_zep_repr_t r = data_repr();
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_zep_emit(&r, buf, 31), -ENOBUFS);
    assert_int_equal(buf[0], 0xaa);
    r.frame_len = 128;
    assert_int_equal(tern_zep_emit(&r, buf, sizeof(buf)), -EINVAL);
    r = data_repr();
    r.type = 3;
    assert_int_equal(tern_zep_emit(&r, buf, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_zep_hdr_len(&r), -EINVAL);
    r = data_repr();
    r.version = 3;
    assert_int_equal(tern_zep_emit(&r, buf, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_zep_hdr_len(&r), -EINVAL);
    r = data_repr();
    r.type = TERN_ZEP_TYPE_ACK;
    assert_int_equal(tern_zep_emit(&r, buf, 7), -ENOBUFS);
    assert_int_equal(tern_zep_emit(&r, NULL, 8), -EINVAL);
    assert_int_equal(tern_zep_emit(NULL, buf, 8), -EINVAL);
    assert_int_equal(tern_zep_hdr_len(NULL), -EINVAL);
    tern_zep_repr_t out;
    assert_int_equal(tern_zep_parse(NULL, zep_ack, 8), -EINVAL);
    assert_int_equal(tern_zep_parse(&out, NULL, 8), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_zep_parse__v2_data),
        cmocka_unit_test(test_tern_zep_emit__v2_data_golden),
        cmocka_unit_test(test_tern_zep_parse__v2_ack),
        cmocka_unit_test(test_tern_zep_parse__v1),
        cmocka_unit_test(test_tern_zep_emit__round_trip),
        cmocka_unit_test(test_tern_zep_parse__truncated),
        cmocka_unit_test(test_tern_zep_parse__length_mismatch),
        cmocka_unit_test(test_tern_zep_parse__bad_preamble),
        cmocka_unit_test(test_tern_zep_parse__unknown_version),
        cmocka_unit_test(test_tern_zep_parse__unknown_type),
        cmocka_unit_test(test_tern_zep_parse__lqi_mode_nonzero_is_crc),
        cmocka_unit_test(test_tern_zep_emit__errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
