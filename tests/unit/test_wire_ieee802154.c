/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IEEE 802.15.4 MAC frames: golden bytes, parse, emit, round trips,
 *        every rejection, FCS (CRC-16/KERMIT).
 *
 * How the vectors were derived (by hand, from IEEE 802.15.4-2006 §7.2.1 and
 * 802.15.4-2015 §7.2.1 / Table 7-2): the frame control is the sum of
 *   frame type (bits 0-2: data 0x0001, ack 0x0002, command 0x0003),
 *   frame pending 0x0010, ack request 0x0020, PAN ID compression 0x0040,
 *   dst mode << 10 (short 0x0800, ext 0x0c00), version << 12 (2006 0x1000,
 *   2015 0x2000), src mode << 14 (short 0x8000, ext 0xc000),
 * sent little-endian; PAN IDs and addresses are reversed (little-endian).
 * Every FCS below was computed outside Tern, with a polynomial long division
 * that follows §7.2.1.9 literally (bits in transmit order, remainder sent
 * x^15 first); tshark agrees (tests/integration/test_tshark_wire.py).
 * The division reproduces the standard's own example in §7.2.1.9:
 * Imm-Ack 02 00 6a -> FCS e4 79 (see ack_std below).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tern/wire/ieee802154.h"

/* EUI-64s used throughout, canonical order. */
static const uint8_t eui_a[8] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77 };
static const uint8_t eui_b[8] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01 };

/* Data, 2006, AR, PAN ID compression, short 0x1234 <- short 0x5678, PAN 0x0023.
 * FC = 0x0001 | 0x0020 | 0x0040 | 0x0800 | 0x1000 | 0x8000 = 0x9861 -> 61 98. */
static const uint8_t short_short_panc[] = {
    0x61, 0x98,             /* frame control */
    0x42,                   /* sequence number */
    0x23, 0x00,             /* dst PAN 0x0023 */
    0x34, 0x12,             /* dst 0x1234 */
    0x78, 0x56,             /* src 0x5678 (src PAN elided: compression) */
    0xde, 0xad, 0xbe, 0xef, /* payload */
    0xc1, 0x16,             /* FCS 0x16c1, low byte first */
};

/* The common 6LoWPAN case: data, 2006, AR, PAN ID compression, PAN 0x23,
 * ext 00:11:22:33:44:55:66:77 <- ext 02:00:00:00:00:00:00:01.
 * FC = 0x0001 | 0x0020 | 0x0040 | 0x0c00 | 0x1000 | 0xc000 = 0xdc61 -> 61 dc. */
static const uint8_t ext_ext_panc[] = {
    0x61, 0xdc, 0x05, 0x23, 0x00,
    0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00, /* dst, reversed */
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, /* src, reversed */
    0x01, 0x02, 0x03,                               /* payload */
    0x56, 0xd5,                                     /* FCS 0xd556 */
};

/* Broadcast: data, 2006, no AR, PAN ID compression, short 0xffff <- ext.
 * FC = 0x0001 | 0x0040 | 0x0800 | 0x1000 | 0xc000 = 0xd841 -> 41 d8. */
static const uint8_t bcast_ext[] = {
    0x41, 0xd8, 0xff, 0x23, 0x00, 0xff, 0xff,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
    0x7e,
    0xb6, 0xc9, /* FCS 0xc9b6 */
};

/* No compression, both PAN IDs: data, 2006, AR, PAN 0x0023 short 0xbeef <-
 * PAN 0xabcd ext 02:...:01. FC = 0x0001 | 0x0020 | 0x0800 | 0x1000 | 0xc000
 * = 0xd821 -> 21 d8. */
static const uint8_t both_pans[] = {
    0x21, 0xd8, 0x10,
    0x23, 0x00, 0xef, 0xbe,                         /* dst PAN, dst */
    0xcd, 0xab,                                     /* src PAN 0xabcd */
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, /* src */
    0xaa,
    0x4d, 0xf2, /* FCS 0xf24d */
};

/* The Imm-Ack of 802.15.4-2006 §7.2.1.9's example: MHR bits (transmit
 * order) 0100 0000 0000 0000 0101 0110 = FC 0x0002, seq 0x6a; FCS bits
 * 0010 0111 1001 1110 = e4 79. */
static const uint8_t ack_std[] = { 0x02, 0x00, 0x6a, 0xe4, 0x79 };

/* Frame version 2, ext/ext, PAN ID compression 0: Table 7-2 says destination
 * PAN ID present, source PAN ID absent. FC = 0x0001 | 0x0020 | 0x0c00 |
 * 0x2000 | 0xc000 = 0xec21 -> 21 ec. */
static const uint8_t v2_ext_ext[] = {
    0x21, 0xec, 0x07, 0x23, 0x00,
    0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
    0xc0, 0xff, 0xee,
    0x6f, 0x23, /* FCS 0x236f */
};

/* Frame version 2, ext/ext, PAN ID compression 1: no PAN ID at all.
 * FC = 0x0001 | 0x0040 | 0x0020 | 0x0c00 | 0x2000 | 0xc000 = 0xec61. */
static const uint8_t v2_ext_ext_panc[] = {
    0x61, 0xec, 0x08,
    0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
    0xc0,
    0x22, 0x7c, /* FCS 0x7c22 */
};

/* Frame version 2, short dst 0x1234, ext src, PAN ID compression 1: dst PAN
 * only, as in 2006. FC = 0x0001 | 0x0040 | 0x0800 | 0x2000 | 0xc000 = 0xe841. */
static const uint8_t v2_short_ext_panc[] = {
    0x41, 0xe8, 0x09, 0x23, 0x00, 0x34, 0x12,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
    0xc1,
    0xee, 0x64, /* FCS 0x64ee */
};

/* Frame version 0 (2003), ext/ext, AR, compression: FC 0xcc61 -> 61 cc. */
static const uint8_t v2003_ext_ext[] = {
    0x61, 0xcc, 0x05, 0x23, 0x00,
    0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
    0x00,
    0xed, 0xbb, /* FCS 0xbbed */
};

/* Beacon, 2003: FC = 0x0000 | src short 0x8000 -> 00 80; seq 0x33; src PAN
 * 0x0023, src 0x0000 (the MHR is 7 bytes); payload: superframe specification
 * 0xcfff (ff cf), GTS specification 00, pending address specification 00. */
static const uint8_t beacon[] = {
    0x00, 0x80, 0x33, 0x23, 0x00, 0x00, 0x00, 0xff, 0xcf, 0x00, 0x00,
    0xf3, 0xc5, /* FCS 0xc5f3 */
};

/* MAC command (data request), 2003: FC = 0x0003 | 0x0020 | 0x0040 | 0x0800 |
 * 0xc000 = 0xc863; dst 0x0000 in PAN 0x0023, src ext; command id 0x04. */
static const uint8_t command[] = {
    0x63, 0xc8, 0x34, 0x23, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
    0x04,
    0x78, 0xb1, /* FCS 0xb178 */
};

/* ------------------------------------------------------------ helpers */

static tern_ieee802154_addr_t addr_none(void)
{
    tern_ieee802154_addr_t a;
    memset(&a, 0, sizeof(a));
    return a;
}

static tern_ieee802154_addr_t addr_short(uint16_t value)
{
    tern_ieee802154_addr_t a = addr_none();
    tern_ieee802154_addr_set_short(&a, value);
    return a;
}

static tern_ieee802154_addr_t addr_ext(const uint8_t eui[8])
{
    tern_ieee802154_addr_t a = addr_none();
    tern_ieee802154_addr_set_ext(&a, eui);
    return a;
}

static void assert_repr_equal(const tern_ieee802154_repr_t *a, const tern_ieee802154_repr_t *b)
{
    assert_int_equal(a->frame_type, b->frame_type);
    assert_int_equal(a->frame_version, b->frame_version);
    assert_int_equal(a->frame_pending, b->frame_pending);
    assert_int_equal(a->ack_request, b->ack_request);
    assert_int_equal(a->pan_id_compression, b->pan_id_compression);
    assert_int_equal(a->seq, b->seq);
    assert_int_equal(a->dst_pan, b->dst_pan);
    assert_int_equal(a->src_pan, b->src_pan);
    assert_int_equal(a->dst.len, b->dst.len);
    assert_memory_equal(a->dst.u8, b->dst.u8, a->dst.len);
    assert_int_equal(a->src.len, b->src.len);
    assert_memory_equal(a->src.u8, b->src.u8, a->src.len);
}

/**
 * Parse @p psdu with its FCS and without it, expect @p expected and an MHR of
 * @p mhr_len; then emit @p expected with the same payload, append the FCS
 * and expect the very same bytes.
 */
static void check_golden(const uint8_t *psdu, size_t len, size_t mhr_len,
                         const tern_ieee802154_repr_t *expected)
{
    tern_ieee802154_repr_t repr;
    assert_int_equal(tern_ieee802154_parse_fcs(&repr, psdu, len), (int)mhr_len);
    assert_repr_equal(&repr, expected);
    memset(&repr, 0xa5, sizeof(repr));
    assert_int_equal(tern_ieee802154_parse(&repr, psdu, len - 2), (int)mhr_len);
    assert_repr_equal(&repr, expected);
    /* parse zeroes the address bytes past an address's length (the MAC
     * compares and copies whole 8-byte fields) */
    for (size_t i = repr.dst.len; i < sizeof(repr.dst.u8); i++) {
        assert_int_equal(repr.dst.u8[i], 0);
    }
    for (size_t i = repr.src.len; i < sizeof(repr.src.u8); i++) {
        assert_int_equal(repr.src.u8[i], 0);
    }
    assert_int_equal(tern_ieee802154_hdr_len(expected), (int)mhr_len);

    uint8_t buf[TERN_IEEE802154_MAX_PHY_PACKET_SIZE + 1];
    memset(buf, 0xaa, sizeof(buf));
    size_t payload_len = len - 2 - mhr_len;
    assert_int_equal(tern_ieee802154_emit(expected, payload_len, buf, sizeof(buf)), (int)mhr_len);
    assert_int_equal(buf[mhr_len], 0xaa); /* nothing written past the MHR */
    memcpy(&buf[mhr_len], &psdu[mhr_len], payload_len);
    assert_int_equal(tern_ieee802154_fcs_append(buf, len - 2, sizeof(buf)), (int)len);
    assert_memory_equal(buf, psdu, len);
}

static tern_ieee802154_repr_t data_repr(uint8_t version, uint8_t seq)
{
    tern_ieee802154_repr_t r;
    memset(&r, 0, sizeof(r));
    r.frame_type = TERN_IEEE802154_FRAME_TYPE_DATA;
    r.frame_version = version;
    r.seq = seq;
    return r;
}

/* ------------------------------------------------------------ FCS */

static void test_tern_ieee802154_crc16__check_value(void **state)
{
    (void)state;
    /* CRC-16/KERMIT catalogue check value */
    assert_int_equal(tern_ieee802154_crc16(0, "123456789", 9), 0x2189);
    /* in pieces: the running value carries over */
    uint16_t crc = tern_ieee802154_crc16(0, "1234", 4);
    crc = tern_ieee802154_crc16(crc, "", 0);
    crc = tern_ieee802154_crc16(crc, "56789", 5);
    assert_int_equal(crc, 0x2189);
    assert_int_equal(tern_ieee802154_crc16(0, NULL, 0), 0);
}

static void test_tern_ieee802154_fcs__standard_example(void **state)
{
    (void)state;
    /* 802.15.4-2006 §7.2.1.9: the Imm-Ack 02 00 6a has FCS e4 79 */
    assert_int_equal(tern_ieee802154_crc16(0, ack_std, 3), 0x79e4);
    uint8_t out[2];
    tern_ieee802154_fcs_store(out, 0x79e4);
    assert_memory_equal(out, &ack_std[3], 2);
}

static void test_tern_ieee802154_fcs__spans_equal_contiguous(void **state)
{
    (void)state;
    size_t len = sizeof(ext_ext_panc) - 2;
    for (size_t cut = 0; cut <= len; cut++) {
        const tern_checksum_span_t spans[] = {
            { ext_ext_panc, cut }, { NULL, 0 }, { ext_ext_panc + cut, len - cut },
        };
        assert_int_equal(tern_ieee802154_fcs(spans, 3), 0xd556);
    }
    assert_int_equal(tern_ieee802154_fcs(NULL, 0), 0);
}

static void test_tern_ieee802154_fcs_append__golden_and_limits(void **state)
{
    (void)state;
    uint8_t buf[TERN_IEEE802154_MAX_PHY_PACKET_SIZE + 2];
    memcpy(buf, short_short_panc, sizeof(short_short_panc) - 2);
    assert_int_equal(tern_ieee802154_fcs_append(buf, sizeof(short_short_panc) - 2, sizeof(short_short_panc)),
                     (int)sizeof(short_short_panc));
    assert_memory_equal(buf, short_short_panc, sizeof(short_short_panc));
    /* no room for the FCS: nothing written */
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_ieee802154_fcs_append(buf, 10, 11), -ENOBUFS);
    assert_int_equal(buf[10], 0xaa);
    /* 125 + 2 = 127 is the largest PSDU; 126 + 2 is too long */
    assert_int_equal(tern_ieee802154_fcs_append(buf, 125, sizeof(buf)), 127);
    assert_int_equal(tern_ieee802154_fcs_append(buf, 126, sizeof(buf)), -EMSGSIZE);
    assert_int_equal(tern_ieee802154_fcs_append(NULL, 0, 2), -EINVAL);
}

static void test_tern_ieee802154_fcs_check__valid_bad_short(void **state)
{
    (void)state;
    assert_int_equal(tern_ieee802154_fcs_check(ack_std, sizeof(ack_std)), 0);
    assert_int_equal(tern_ieee802154_fcs_check(ext_ext_panc, sizeof(ext_ext_panc)), 0);
    /* every single-bit error is detected */
    uint8_t buf[sizeof(ext_ext_panc)];
    for (size_t bit = 0; bit < 8 * sizeof(buf); bit++) {
        memcpy(buf, ext_ext_panc, sizeof(buf));
        buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        assert_int_equal(tern_ieee802154_fcs_check(buf, sizeof(buf)), -EILSEQ);
    }
    assert_int_equal(tern_ieee802154_fcs_check(ack_std, 1), -EBADMSG);
    assert_int_equal(tern_ieee802154_fcs_check(ack_std, 0), -EBADMSG);
    assert_int_equal(tern_ieee802154_fcs_check(NULL, 5), -EINVAL);
}

/* ------------------------------------------------------------ golden frames */

static void test_tern_ieee802154_parse__short_short_panc(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2006, 0x42);
    r.ack_request = true;
    r.pan_id_compression = true;
    r.dst_pan = 0x0023;
    r.src_pan = 0x0023; /* elided: the destination's */
    r.dst = addr_short(0x1234);
    r.src = addr_short(0x5678);
    check_golden(short_short_panc, sizeof(short_short_panc), 9, &r);
}

static void test_tern_ieee802154_parse__ext_ext_panc(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2006, 0x05);
    r.ack_request = true;
    r.pan_id_compression = true;
    r.dst_pan = r.src_pan = 0x0023;
    r.dst = addr_ext(eui_a);
    r.src = addr_ext(eui_b);
    check_golden(ext_ext_panc, sizeof(ext_ext_panc), 21, &r);
    /* the canonical byte order of the parsed addresses, spelled out */
    tern_ieee802154_repr_t p;
    assert_int_equal(tern_ieee802154_parse_fcs(&p, ext_ext_panc, sizeof(ext_ext_panc)), 21);
    assert_int_equal(p.dst.u8[0], 0x00);
    assert_int_equal(p.dst.u8[7], 0x77);
    assert_int_equal(p.src.u8[0], 0x02);
    assert_int_equal(p.src.u8[7], 0x01);
}

static void test_tern_ieee802154_parse__broadcast_dst_ext_src(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2006, 0xff);
    r.pan_id_compression = true;
    r.dst_pan = r.src_pan = 0x0023;
    r.dst = addr_short(TERN_IEEE802154_SHORT_ADDR_BROADCAST);
    r.src = addr_ext(eui_b);
    check_golden(bcast_ext, sizeof(bcast_ext), 15, &r);
    tern_ieee802154_repr_t p;
    assert_int_equal(tern_ieee802154_parse_fcs(&p, bcast_ext, sizeof(bcast_ext)), 15);
    assert_true(tern_ieee802154_addr_is_broadcast(&p.dst));
    assert_false(p.ack_request);
}

static void test_tern_ieee802154_parse__both_pans(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2006, 0x10);
    r.ack_request = true;
    r.dst_pan = 0x0023;
    r.src_pan = 0xabcd;
    r.dst = addr_short(0xbeef);
    r.src = addr_ext(eui_b);
    check_golden(both_pans, sizeof(both_pans), 17, &r);
}

static void test_tern_ieee802154_parse__ack(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r;
    memset(&r, 0, sizeof(r));
    r.frame_type = TERN_IEEE802154_FRAME_TYPE_ACK;
    r.frame_version = TERN_IEEE802154_FRAME_VERSION_2003;
    r.seq = 0x6a;
    r.dst_pan = r.src_pan = TERN_IEEE802154_PAN_ID_BROADCAST; /* no PAN ID on the wire */
    check_golden(ack_std, sizeof(ack_std), 3, &r);
}

static void test_tern_ieee802154_parse__version2_ext_ext(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2015, 0x07);
    r.ack_request = true;
    r.dst_pan = r.src_pan = 0x0023; /* Table 7-2: the source PAN ID is elided */
    r.dst = addr_ext(eui_a);
    r.src = addr_ext(eui_b);
    check_golden(v2_ext_ext, sizeof(v2_ext_ext), 21, &r);
}

static void test_tern_ieee802154_parse__version2_ext_ext_no_pan(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2015, 0x08);
    r.ack_request = true;
    r.pan_id_compression = true;
    r.dst_pan = r.src_pan = TERN_IEEE802154_PAN_ID_BROADCAST; /* none on the wire */
    r.dst = addr_ext(eui_a);
    r.src = addr_ext(eui_b);
    check_golden(v2_ext_ext_panc, sizeof(v2_ext_ext_panc), 19, &r);
}

static void test_tern_ieee802154_parse__version2_short_ext_panc(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2015, 0x09);
    r.pan_id_compression = true;
    r.dst_pan = r.src_pan = 0x0023;
    r.dst = addr_short(0x1234);
    r.src = addr_ext(eui_b);
    check_golden(v2_short_ext_panc, sizeof(v2_short_ext_panc), 15, &r);
}

static void test_tern_ieee802154_parse__version2003(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2003, 0x05);
    r.ack_request = true;
    r.pan_id_compression = true;
    r.dst_pan = r.src_pan = 0x0023;
    r.dst = addr_ext(eui_a);
    r.src = addr_ext(eui_b);
    check_golden(v2003_ext_ext, sizeof(v2003_ext_ext), 21, &r);
}

static void test_tern_ieee802154_parse__beacon_and_command_mhr(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r;
    memset(&r, 0, sizeof(r));
    r.frame_type = TERN_IEEE802154_FRAME_TYPE_BEACON;
    r.seq = 0x33;
    r.dst_pan = TERN_IEEE802154_PAN_ID_BROADCAST; /* no destination */
    r.src_pan = 0x0023;
    r.src = addr_short(0x0000);
    check_golden(beacon, sizeof(beacon), 7, &r);

    memset(&r, 0, sizeof(r));
    r.frame_type = TERN_IEEE802154_FRAME_TYPE_MAC_CMD;
    r.seq = 0x34;
    r.ack_request = true;
    r.pan_id_compression = true;
    r.dst_pan = r.src_pan = 0x0023;
    r.dst = addr_short(0x0000);
    r.src = addr_ext(eui_b);
    check_golden(command, sizeof(command), 15, &r);
}

static void test_tern_ieee802154_parse__frame_pending(void **state)
{
    (void)state;
    /* 2006 data frame short/short + frame pending (0x0010): FC 0x9871 */
    uint8_t buf[sizeof(short_short_panc)];
    memcpy(buf, short_short_panc, sizeof(buf));
    buf[0] |= 0x10;
    tern_ieee802154_repr_t r;
    assert_int_equal(tern_ieee802154_parse(&r, buf, sizeof(buf) - 2), 9);
    assert_true(r.frame_pending);
    assert_true(r.ack_request);
}

static void test_tern_ieee802154_parse__reserved_fc_bits_ignored(void **state)
{
    (void)state;
    /* bits 7-9 are reserved in versions 0 and 1: ignored on receipt */
    uint8_t buf[sizeof(short_short_panc)];
    memcpy(buf, short_short_panc, sizeof(buf));
    buf[0] |= 0x80;
    buf[1] |= 0x03;
    tern_ieee802154_repr_t r, expected;
    assert_int_equal(tern_ieee802154_parse(&expected, short_short_panc, sizeof(buf) - 2), 9);
    assert_int_equal(tern_ieee802154_parse(&r, buf, sizeof(buf) - 2), 9);
    assert_repr_equal(&r, &expected);
    /* and emit writes them as 0 */
    uint8_t out[9];
    assert_int_equal(tern_ieee802154_emit(&r, 4, out, sizeof(out)), 9);
    assert_memory_equal(out, short_short_panc, 9);
}

/* ------------------------------------------------------------ rejections */

static void test_tern_ieee802154_parse__truncated_at_every_byte(void **state)
{
    (void)state;
    const struct {
        const uint8_t *psdu;
        size_t len;
        size_t mhr_len;
    } frames[] = {
        { short_short_panc, sizeof(short_short_panc), 9 },
        { ext_ext_panc, sizeof(ext_ext_panc), 21 },
        { bcast_ext, sizeof(bcast_ext), 15 },
        { both_pans, sizeof(both_pans), 17 },
        { ack_std, sizeof(ack_std), 3 },
        { v2_ext_ext, sizeof(v2_ext_ext), 21 },
        { v2_ext_ext_panc, sizeof(v2_ext_ext_panc), 19 },
        { beacon, sizeof(beacon), 7 },
    };
    for (size_t f = 0; f < sizeof(frames) / sizeof(frames[0]); f++) {
        tern_ieee802154_repr_t r;
        memset(&r, 0x5a, sizeof(r));
        tern_ieee802154_repr_t untouched = r;
        /* without FCS: shorter than the MHR is malformed, and repr stays unchanged */
        for (size_t len = 0; len < frames[f].mhr_len; len++) {
            assert_int_equal(tern_ieee802154_parse(&r, frames[f].psdu, len), -EBADMSG);
            assert_memory_equal(&r, &untouched, sizeof(r));
        }
        /* a shorter payload is still a frame (but not an Imm-Ack, see below) */
        for (size_t len = frames[f].mhr_len; len <= frames[f].len - 2; len++) {
            if (frames[f].psdu == ack_std) {
                break;
            }
            assert_int_equal(tern_ieee802154_parse(&r, frames[f].psdu, len), (int)frames[f].mhr_len);
        }
        /* with FCS: a truncated PSDU fails the FCS (or has none) */
        r = untouched;
        for (size_t len = 0; len < frames[f].len; len++) {
            int expected = len < 2 ? -EBADMSG : -EILSEQ;
            assert_int_equal(tern_ieee802154_parse_fcs(&r, frames[f].psdu, len), expected);
            assert_memory_equal(&r, &untouched, sizeof(r));
        }
    }
}

/** Parse @p frame (no FCS), and the same frame with a valid FCS appended. */
static void expect_parse_error(const uint8_t *frame, size_t len, int expected)
{
    tern_ieee802154_repr_t r;
    assert_int_equal(tern_ieee802154_parse(&r, frame, len), expected);
    uint8_t psdu[TERN_IEEE802154_MAX_PHY_PACKET_SIZE];
    assert_true(len + 2 <= sizeof(psdu));
    memcpy(psdu, frame, len);
    assert_int_equal(tern_ieee802154_fcs_append(psdu, len, sizeof(psdu)), (int)len + 2);
    assert_int_equal(tern_ieee802154_parse_fcs(&r, psdu, len + 2), expected);
}

static void test_tern_ieee802154_parse__reserved_addressing_mode(void **state)
{
    (void)state;
    uint8_t buf[sizeof(short_short_panc) - 2];
    /* dst mode 1: FC bits 10-11 = 01 */
    memcpy(buf, short_short_panc, sizeof(buf));
    buf[1] = (uint8_t)((buf[1] & ~0x0cu) | 0x04u);
    expect_parse_error(buf, sizeof(buf), -EBADMSG);
    /* src mode 1: FC bits 14-15 = 01 */
    memcpy(buf, short_short_panc, sizeof(buf));
    buf[1] = (uint8_t)((buf[1] & ~0xc0u) | 0x40u);
    expect_parse_error(buf, sizeof(buf), -EBADMSG);
}

static void test_tern_ieee802154_parse__security_enabled(void **state)
{
    (void)state;
    /* bit 3 (0x08): no security support, its own error */
    uint8_t buf[sizeof(ext_ext_panc) - 2];
    memcpy(buf, ext_ext_panc, sizeof(buf));
    buf[0] |= 0x08;
    expect_parse_error(buf, sizeof(buf), -ENOTSUP);
    /* also for a 2015 frame */
    memcpy(buf, v2_ext_ext, sizeof(buf));
    buf[0] |= 0x08;
    expect_parse_error(buf, sizeof(buf), -ENOTSUP);
}

static void test_tern_ieee802154_parse__version2_ie_present(void **state)
{
    (void)state;
    /* bit 9 (0x0200: second byte 0x02) in a 2015 frame */
    uint8_t buf[sizeof(v2_ext_ext) - 2];
    memcpy(buf, v2_ext_ext, sizeof(buf));
    buf[1] |= 0x02;
    expect_parse_error(buf, sizeof(buf), -EPROTONOSUPPORT);
}

static void test_tern_ieee802154_parse__version2_seq_suppressed(void **state)
{
    (void)state;
    /* bit 8 (0x0100: second byte 0x01) in a 2015 frame */
    uint8_t buf[sizeof(v2_ext_ext) - 2];
    memcpy(buf, v2_ext_ext, sizeof(buf));
    buf[1] |= 0x01;
    expect_parse_error(buf, sizeof(buf), -EPROTONOSUPPORT);
}

static void test_tern_ieee802154_parse__version2_not_data(void **state)
{
    (void)state;
    /* Enh-Ack (type 2, version 2, no addresses): FC 0x2002 */
    const uint8_t enh_ack[] = { 0x02, 0x20, 0x01 };
    expect_parse_error(enh_ack, sizeof(enh_ack), -EPROTONOSUPPORT);
    /* enhanced beacon (type 0, version 2, src short): FC 0xa000 */
    const uint8_t enh_beacon[] = { 0x00, 0xa0, 0x01, 0x23, 0x00, 0x00, 0x00 };
    expect_parse_error(enh_beacon, sizeof(enh_beacon), -EPROTONOSUPPORT);
}

static void test_tern_ieee802154_parse__frame_version_3(void **state)
{
    (void)state;
    uint8_t buf[sizeof(short_short_panc) - 2];
    memcpy(buf, short_short_panc, sizeof(buf));
    buf[1] |= 0x30; /* bits 12-13 = 11 */
    expect_parse_error(buf, sizeof(buf), -EBADMSG);
}

static void test_tern_ieee802154_parse__frame_types_4_to_7(void **state)
{
    (void)state;
    uint8_t buf[sizeof(short_short_panc) - 2];
    for (uint8_t type = 4; type < 8; type++) {
        memcpy(buf, short_short_panc, sizeof(buf));
        buf[0] = (uint8_t)((buf[0] & ~0x07u) | type);
        expect_parse_error(buf, sizeof(buf), -EPROTONOSUPPORT);
    }
}

static void test_tern_ieee802154_parse__panc_with_one_address(void **state)
{
    (void)state;
    /* 2006: dst short only, PAN ID compression set: FC 0x1861 */
    const uint8_t dst_only[] = { 0x61, 0x18, 0x01, 0x23, 0x00, 0x34, 0x12 };
    expect_parse_error(dst_only, sizeof(dst_only), -EBADMSG);
    /* 2006: src short only, PAN ID compression set: FC 0x9041 */
    const uint8_t src_only[] = { 0x41, 0x90, 0x01, 0x23, 0x00, 0x34, 0x12 };
    expect_parse_error(src_only, sizeof(src_only), -EBADMSG);
    /* the same without compression are fine (dst only: 7 bytes of MHR) */
    const uint8_t dst_only_ok[] = { 0x21, 0x18, 0x01, 0x23, 0x00, 0x34, 0x12 };
    tern_ieee802154_repr_t r;
    assert_int_equal(tern_ieee802154_parse(&r, dst_only_ok, sizeof(dst_only_ok)), 7);
    assert_int_equal(r.dst_pan, 0x0023);
    assert_int_equal(r.src.len, 0);
    /* version 2: src only with compression means no PAN ID (Table 7-2) */
    const uint8_t v2_src_only[] = { 0x41, 0xa0, 0x01, 0x34, 0x12 };
    assert_int_equal(tern_ieee802154_parse(&r, v2_src_only, sizeof(v2_src_only)), 5);
    assert_int_equal(tern_ieee802154_addr_short(&r.src), 0x1234);
    assert_int_equal(r.src_pan, TERN_IEEE802154_PAN_ID_BROADCAST);
}

static void test_tern_ieee802154_parse__ack_with_addresses_or_payload(void **state)
{
    (void)state;
    /* Imm-Ack with a short destination: FC 0x0802 */
    const uint8_t with_dst[] = { 0x02, 0x08, 0x6a, 0x23, 0x00, 0x34, 0x12 };
    expect_parse_error(with_dst, sizeof(with_dst), -EBADMSG);
    /* Imm-Ack followed by a payload byte */
    const uint8_t with_payload[] = { 0x02, 0x00, 0x6a, 0x00 };
    expect_parse_error(with_payload, sizeof(with_payload), -EBADMSG);
}

static void test_tern_ieee802154_parse__too_long(void **state)
{
    (void)state;
    /* the longest frame: 125 bytes + FCS = 127 (aMaxPHYPacketSize) */
    uint8_t psdu[TERN_IEEE802154_MAX_PHY_PACKET_SIZE + 1];
    memset(psdu, 0x00, sizeof(psdu));
    memcpy(psdu, ext_ext_panc, 21);
    assert_int_equal(tern_ieee802154_fcs_append(psdu, 125, sizeof(psdu)), 127);
    tern_ieee802154_repr_t r;
    assert_int_equal(tern_ieee802154_parse_fcs(&r, psdu, 127), 21);
    assert_int_equal(tern_ieee802154_parse(&r, psdu, 125), 21);
    /* one more byte is too long, with or without FCS */
    assert_int_equal(tern_ieee802154_parse(&r, psdu, 126), -EMSGSIZE);
    assert_int_equal(tern_ieee802154_parse_fcs(&r, psdu, 128), -EMSGSIZE);
}

static void test_tern_ieee802154_parse_fcs__bad_fcs(void **state)
{
    (void)state;
    uint8_t buf[sizeof(short_short_panc)];
    memcpy(buf, short_short_panc, sizeof(buf));
    buf[sizeof(buf) - 1] ^= 0x01;
    tern_ieee802154_repr_t r;
    memset(&r, 0, sizeof(r));
    assert_int_equal(tern_ieee802154_parse_fcs(&r, buf, sizeof(buf)), -EILSEQ);
    assert_int_equal(r.seq, 0); /* unchanged */
    /* a payload bit flipped */
    memcpy(buf, short_short_panc, sizeof(buf));
    buf[10] ^= 0x80;
    assert_int_equal(tern_ieee802154_parse_fcs(&r, buf, sizeof(buf)), -EILSEQ);
}

static void test_tern_ieee802154_parse__null(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r;
    assert_int_equal(tern_ieee802154_parse(NULL, ack_std, 3), -EINVAL);
    assert_int_equal(tern_ieee802154_parse(&r, NULL, 3), -EINVAL);
    assert_int_equal(tern_ieee802154_parse_fcs(NULL, ack_std, 5), -EINVAL);
    assert_int_equal(tern_ieee802154_parse_fcs(&r, NULL, 5), -EINVAL);
}

/* ------------------------------------------------------------ emit */

static void test_tern_ieee802154_ack_emit__golden(void **state)
{
    (void)state;
    uint8_t buf[6];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_ieee802154_ack_emit(0x6a, false, buf, sizeof(buf)), 5);
    assert_memory_equal(buf, ack_std, 5);
    assert_int_equal(buf[5], 0xaa);
    /* frame pending: FC 0x0012; FCS of 12 00 6a computed outside Tern: 71 fc */
    const uint8_t ack_pending[] = { 0x12, 0x00, 0x6a, 0x71, 0xfc };
    assert_int_equal(tern_ieee802154_ack_emit(0x6a, true, buf, 5), 5);
    assert_memory_equal(buf, ack_pending, 5);
    tern_ieee802154_repr_t r;
    assert_int_equal(tern_ieee802154_parse_fcs(&r, buf, 5), 3);
    assert_int_equal(r.frame_type, TERN_IEEE802154_FRAME_TYPE_ACK);
    assert_true(r.frame_pending);
    assert_int_equal(r.seq, 0x6a);
    /* too small: nothing written */
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_ieee802154_ack_emit(1, false, buf, 4), -ENOBUFS);
    assert_int_equal(buf[0], 0xaa);
    assert_int_equal(tern_ieee802154_ack_emit(1, false, NULL, 5), -EINVAL);
}

/**
 * Which PAN ID fields a header has, written out from the two tables (2006
 * §7.2.1.1.5; 2015 Table 7-2) independently of the implementation.
 * @return false when the combination is not allowed.
 */
static bool expected_pans(uint8_t version, uint8_t dst_len, uint8_t src_len, bool panc, bool *dp, bool *sp)
{
    bool d = dst_len != 0, s = src_len != 0;
    if (version < 2) {
        if (panc && !(d && s)) {
            return false;
        }
        *dp = d;
        *sp = s && !panc;
        return true;
    }
    /* rows of Table 7-2: {dst present?, src present?, ext/ext?, panc} -> {dp, sp} */
    static const struct {
        bool d, s, extext, panc, dp, sp;
    } rows[] = {
        { false, false, false, false, false, false }, { false, false, false, true, true, false },
        { true, false, false, false, true, false },   { true, false, false, true, false, false },
        { false, true, false, false, false, true },   { false, true, false, true, false, false },
        { true, true, true, false, true, false },     { true, true, true, true, false, false },
        { true, true, false, false, true, true },     { true, true, false, true, true, false },
    };
    bool extext = dst_len == 8 && src_len == 8;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (rows[i].d == d && rows[i].s == s && rows[i].extext == extext && rows[i].panc == panc) {
            *dp = rows[i].dp;
            *sp = rows[i].sp;
            return true;
        }
    }
    fail_msg("no Table 7-2 row");
    return false;
}

static void test_tern_ieee802154_pan_ids_present__tables(void **state)
{
    (void)state;
    const uint8_t lens[] = { 0, 2, 8 };
    for (uint8_t version = 0; version <= 2; version++) {
        for (size_t d = 0; d < 3; d++) {
            for (size_t s = 0; s < 3; s++) {
                for (int panc = 0; panc <= 1; panc++) {
                    bool edp = false, esp = false, dp = true, sp = true;
                    bool ok = expected_pans(version, lens[d], lens[s], panc != 0, &edp, &esp);
                    int res = tern_ieee802154_pan_ids_present(version, lens[d], lens[s], panc != 0, &dp, &sp);
                    assert_int_equal(res, ok ? 0 : -EINVAL);
                    if (ok) {
                        assert_int_equal(dp, edp);
                        assert_int_equal(sp, esp);
                    }
                }
            }
        }
    }
    bool dp, sp;
    assert_int_equal(tern_ieee802154_pan_ids_present(3, 2, 2, false, &dp, &sp), -EINVAL);
    assert_int_equal(tern_ieee802154_pan_ids_present(1, 4, 2, false, &dp, &sp), -EINVAL);
    assert_int_equal(tern_ieee802154_pan_ids_present(1, 2, 1, false, &dp, &sp), -EINVAL);
    assert_int_equal(tern_ieee802154_pan_ids_present(1, 2, 2, false, NULL, &sp), -EINVAL);
}

static void test_tern_ieee802154_emit__round_trip_all_modes(void **state)
{
    (void)state;
    const uint8_t lens[] = { 0, 2, 8 };
    const uint8_t payload[] = { 0x00, 0x01, 0x02 };
    size_t valid = 0;
    for (uint8_t version = 0; version <= 2; version++) {
        for (size_t d = 0; d < 3; d++) {
            for (size_t s = 0; s < 3; s++) {
                for (int panc = 0; panc <= 1; panc++) {
                    tern_ieee802154_repr_t in = data_repr(version, (uint8_t)(17 * d + 5 * s + panc));
                    in.ack_request = (d + s) % 2 == 0;
                    in.frame_pending = panc == 1;
                    in.pan_id_compression = panc != 0;
                    in.dst = lens[d] == 0 ? addr_none() : lens[d] == 2 ? addr_short(0xa1b2) : addr_ext(eui_a);
                    in.src = lens[s] == 0 ? addr_none() : lens[s] == 2 ? addr_short(0xc3d4) : addr_ext(eui_b);
                    bool dp = false, sp = false;
                    bool ok = expected_pans(version, lens[d], lens[s], panc != 0, &dp, &sp);
                    /* the PAN IDs parse reports: absent dst -> broadcast, absent src -> dst's */
                    in.dst_pan = dp ? 0x0023 : TERN_IEEE802154_PAN_ID_BROADCAST;
                    in.src_pan = sp ? 0xabcd : in.dst_pan;
                    size_t expected_len = 3 + (dp ? 2u : 0u) + lens[d] + (sp ? 2u : 0u) + lens[s];

                    uint8_t buf[TERN_IEEE802154_MAX_PHY_PACKET_SIZE];
                    int res = tern_ieee802154_emit(&in, sizeof(payload), buf, sizeof(buf));
                    if (!ok) {
                        assert_int_equal(res, -EINVAL);
                        assert_int_equal(tern_ieee802154_hdr_len(&in), -EINVAL);
                        continue;
                    }
                    valid++;
                    assert_int_equal(res, (int)expected_len);
                    assert_int_equal(tern_ieee802154_hdr_len(&in), (int)expected_len);
                    /* frame control as derived from the fields */
                    unsigned fc = 0x0001u | (in.frame_pending ? 0x10u : 0u) | (in.ack_request ? 0x20u : 0u) |
                                  (panc ? 0x40u : 0u) | ((d == 0 ? 0u : d == 1 ? 2u : 3u) << 10) |
                                  ((unsigned)version << 12) | ((s == 0 ? 0u : s == 1 ? 2u : 3u) << 14);
                    assert_int_equal(buf[0], fc & 0xff);
                    assert_int_equal(buf[1], fc >> 8);
                    memcpy(&buf[res], payload, sizeof(payload));
                    size_t frame_len = (size_t)res + sizeof(payload);
                    assert_int_equal(tern_ieee802154_fcs_append(buf, frame_len, sizeof(buf)),
                                     (int)frame_len + 2);
                    tern_ieee802154_repr_t out;
                    assert_int_equal(tern_ieee802154_parse_fcs(&out, buf, frame_len + 2), res);
                    assert_repr_equal(&out, &in);
                    assert_memory_equal(&buf[res], payload, sizeof(payload));
                }
            }
        }
    }
    /* 2003 and 2006: 9 mode pairs + 4 with compression; 2015: all 18 */
    assert_int_equal(valid, 13 + 13 + 18);
}

static void test_tern_ieee802154_emit__invalid_repr(void **state)
{
    (void)state;
    uint8_t buf[32];
    tern_ieee802154_repr_t good = data_repr(TERN_IEEE802154_FRAME_VERSION_2006, 1);
    good.pan_id_compression = true;
    good.dst_pan = good.src_pan = 0x23;
    good.dst = addr_short(1);
    good.src = addr_short(2);
    assert_int_equal(tern_ieee802154_emit(&good, 0, buf, sizeof(buf)), 9);

    tern_ieee802154_repr_t r = good;
    r.frame_type = 4;
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), -EINVAL);
    r = good;
    r.frame_version = 3;
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), -EINVAL);
    r = good;
    r.frame_version = TERN_IEEE802154_FRAME_VERSION_2015;
    r.frame_type = TERN_IEEE802154_FRAME_TYPE_MAC_CMD;
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), -EINVAL);
    r = good;
    r.dst.len = 4;
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), -EINVAL);
    /* compression with different PAN IDs: the source PAN ID cannot be elided */
    r = good;
    r.src_pan = 0x24;
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), -EINVAL);
    r.pan_id_compression = false; /* fine without it */
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), 11);
    /* 2015 ext/ext without compression elides the source PAN ID as well */
    r = data_repr(TERN_IEEE802154_FRAME_VERSION_2015, 1);
    r.dst = addr_ext(eui_a);
    r.src = addr_ext(eui_b);
    r.dst_pan = 0x23;
    r.src_pan = 0x24;
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), -EINVAL);
    r.src_pan = 0x23;
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), 21);
    /* Imm-Ack with an address, with a payload */
    r = good;
    r.frame_type = TERN_IEEE802154_FRAME_TYPE_ACK;
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), -EINVAL);
    memset(&r, 0, sizeof(r));
    r.frame_type = TERN_IEEE802154_FRAME_TYPE_ACK;
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), 3);
    assert_int_equal(tern_ieee802154_emit(&r, 1, buf, sizeof(buf)), -EINVAL);
    /* 2006 compression with one address */
    r = good;
    r.src = addr_none();
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_ieee802154_emit(NULL, 0, buf, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_ieee802154_emit(&good, 0, NULL, sizeof(buf)), -EINVAL);
    assert_int_equal(tern_ieee802154_hdr_len(NULL), -EINVAL);
}

static void test_tern_ieee802154_emit__too_long(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2006, 1);
    r.pan_id_compression = true;
    r.dst_pan = r.src_pan = 0x23;
    r.dst = addr_ext(eui_a);
    r.src = addr_ext(eui_b);
    uint8_t buf[32];
    /* MHR 21 + payload 104 = 125: fits with the FCS in 127 */
    assert_int_equal(tern_ieee802154_max_payload(&r), 104);
    assert_int_equal(tern_ieee802154_emit(&r, 104, buf, sizeof(buf)), 21);
    assert_int_equal(tern_ieee802154_emit(&r, 105, buf, sizeof(buf)), -EMSGSIZE);
    assert_int_equal(tern_ieee802154_emit(&r, SIZE_MAX, buf, sizeof(buf)), -EMSGSIZE);
    /* shortest and longest MHR */
    tern_ieee802154_repr_t ack;
    memset(&ack, 0, sizeof(ack));
    ack.frame_type = TERN_IEEE802154_FRAME_TYPE_ACK;
    assert_int_equal(tern_ieee802154_hdr_len(&ack), TERN_IEEE802154_MHR_MIN_LEN);
    r.pan_id_compression = false;
    assert_int_equal(tern_ieee802154_hdr_len(&r), TERN_IEEE802154_MHR_MAX_LEN);
    assert_int_equal(tern_ieee802154_max_payload(&r), 102);
    assert_int_equal(tern_ieee802154_max_payload(NULL), -EINVAL);
}

static void test_tern_ieee802154_emit__buffer_too_small(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2006, 1);
    r.pan_id_compression = true;
    r.dst_pan = r.src_pan = 0x23;
    r.dst = addr_ext(eui_a);
    r.src = addr_ext(eui_b);
    uint8_t buf[21];
    memset(buf, 0xaa, sizeof(buf));
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, 20), -ENOBUFS);
    for (size_t i = 0; i < sizeof(buf); i++) {
        assert_int_equal(buf[i], 0xaa);
    }
    assert_int_equal(tern_ieee802154_emit(&r, 0, buf, 21), 21);
}

/* An emitted header with another sequence number: the golden frame's MHR,
 * only the third octet changed; too short a header is refused untouched. */
static void test_tern_ieee802154_seq_set__golden(void **state)
{
    (void)state;
    tern_ieee802154_repr_t r = data_repr(TERN_IEEE802154_FRAME_VERSION_2006, 0x05);
    r.ack_request = true;
    r.pan_id_compression = true;
    r.dst_pan = r.src_pan = 0x0023;
    r.dst = addr_ext(eui_a);
    r.src = addr_ext(eui_b);
    uint8_t mhr[TERN_IEEE802154_MHR_MAX_LEN];
    assert_int_equal(tern_ieee802154_emit(&r, 3, mhr, sizeof(mhr)), 21);
    assert_memory_equal(mhr, ext_ext_panc, 21);
    assert_int_equal(tern_ieee802154_seq_set(mhr, 21, 0xc3), 0);
    uint8_t expected[21];
    memcpy(expected, ext_ext_panc, sizeof(expected));
    expected[2] = 0xc3;
    assert_memory_equal(mhr, expected, sizeof(expected));
    /* the frame parses as the golden one, with the new number */
    uint8_t frame[24];
    memcpy(frame, mhr, 21);
    memcpy(frame + 21, ext_ext_panc + 21, 3);
    tern_ieee802154_repr_t p;
    assert_int_equal(tern_ieee802154_parse(&p, frame, sizeof(frame)), 21);
    assert_int_equal(p.seq, 0xc3);
    r.seq = 0xc3;
    assert_int_equal(p.dst_pan, r.dst_pan);
    assert_true(tern_ieee802154_addr_equal(&p.dst, &r.dst));
    assert_true(tern_ieee802154_addr_equal(&p.src, &r.src));
    assert_int_equal(tern_ieee802154_seq_set(mhr, 2, 0x01), -EINVAL);
    assert_int_equal(mhr[2], 0xc3);
    assert_int_equal(tern_ieee802154_seq_set(NULL, 21, 0x01), -EINVAL);
}

/* ------------------------------------------------------------ addresses */

static void test_tern_ieee802154_addr__helpers(void **state)
{
    (void)state;
    tern_ieee802154_addr_t a = addr_short(0x1234);
    assert_int_equal(a.len, 2);
    assert_int_equal(a.u8[0], 0x12); /* canonical: most significant byte first */
    assert_int_equal(a.u8[1], 0x34);
    assert_int_equal(tern_ieee802154_addr_short(&a), 0x1234);
    assert_false(tern_ieee802154_addr_is_broadcast(&a));
    tern_ieee802154_addr_t bc = addr_short(0xffff);
    assert_true(tern_ieee802154_addr_is_broadcast(&bc));
    const uint8_t all_ones[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    tern_ieee802154_addr_t ext_ff = addr_ext(all_ones);
    assert_false(tern_ieee802154_addr_is_broadcast(&ext_ff));
    assert_false(tern_ieee802154_addr_is_broadcast(NULL));

    tern_ieee802154_addr_t e1 = addr_ext(eui_a), e2 = addr_ext(eui_a), e3 = addr_ext(eui_b);
    assert_true(tern_ieee802154_addr_equal(&e1, &e2));
    assert_false(tern_ieee802154_addr_equal(&e1, &e3));
    tern_ieee802154_addr_t n1 = addr_none(), n2 = addr_none();
    n2.u8[0] = 0x99; /* bytes past len do not count */
    assert_true(tern_ieee802154_addr_equal(&n1, &n2));
    /* a short address is not equal to an extended one with the same first bytes */
    tern_ieee802154_addr_t s = addr_short(0x0011);
    assert_false(tern_ieee802154_addr_equal(&s, &e1));
    assert_false(tern_ieee802154_addr_equal(&s, NULL));

    assert_int_equal(tern_ieee802154_addr_mode(0), TERN_IEEE802154_ADDR_MODE_NONE);
    assert_int_equal(tern_ieee802154_addr_mode(2), TERN_IEEE802154_ADDR_MODE_SHORT);
    assert_int_equal(tern_ieee802154_addr_mode(8), TERN_IEEE802154_ADDR_MODE_EXT);
    assert_int_equal(tern_ieee802154_addr_mode(1), -EINVAL);
    assert_int_equal(tern_ieee802154_addr_mode(6), -EINVAL);
}

/* IEEE 802.15.4-2006 §7.5.6.2, third level, for a station that is not a PAN coordinator. */
static void test_tern_ieee802154_rx_filter__each_rule(void **state)
{
    (void)state;
    static const uint8_t own_long[8] = { 0x02, 0, 0, 0, 0, 0, 0, 0x01 };
    static const uint8_t own_short[2] = { 0x12, 0x34 };
    static const uint8_t no_short[2] = { 0xff, 0xfe };
    tern_ieee802154_repr_t r = { .frame_type = TERN_IEEE802154_FRAME_TYPE_DATA, .dst_pan = 0x0023, .src_pan = 0x0023 };
    /* extended destination: ours, another */
    tern_ieee802154_addr_set_ext(&r.dst, own_long);
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, own_short, own_long), TERN_IEEE802154_RX_UNICAST);
    r.dst.u8[7] = 0x02;
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, own_short, own_long), TERN_IEEE802154_RX_REJECT);
    /* short destination: broadcast, ours, ours while we have none (0xfffe), another */
    tern_ieee802154_addr_set_short(&r.dst, 0xffff);
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, own_short, own_long), TERN_IEEE802154_RX_ACCEPT);
    tern_ieee802154_addr_set_short(&r.dst, 0x1234);
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, own_short, own_long), TERN_IEEE802154_RX_UNICAST);
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, no_short, own_long), TERN_IEEE802154_RX_REJECT);
    tern_ieee802154_addr_set_short(&r.dst, 0xfffe);
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, no_short, own_long), TERN_IEEE802154_RX_REJECT);
    /* PAN: another is refused, the broadcast PAN ID is accepted */
    tern_ieee802154_addr_set_short(&r.dst, 0x1234);
    r.dst_pan = 0x0024;
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, own_short, own_long), TERN_IEEE802154_RX_REJECT);
    r.dst_pan = 0xffff;
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, own_short, own_long), TERN_IEEE802154_RX_UNICAST);
    /* no destination address: only for a PAN coordinator */
    r.dst.len = 0;
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, own_short, own_long), TERN_IEEE802154_RX_REJECT);
    /* beacons: from our PAN, or any while we have none */
    r.frame_type = TERN_IEEE802154_FRAME_TYPE_BEACON;
    r.src_pan = 0x0023;
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, own_short, own_long), TERN_IEEE802154_RX_ACCEPT);
    r.src_pan = 0x0042;
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0x0023, own_short, own_long), TERN_IEEE802154_RX_REJECT);
    assert_int_equal(tern_ieee802154_rx_filter(&r, 0xffff, own_short, own_long), TERN_IEEE802154_RX_ACCEPT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_ieee802154_crc16__check_value),
        cmocka_unit_test(test_tern_ieee802154_fcs__standard_example),
        cmocka_unit_test(test_tern_ieee802154_fcs__spans_equal_contiguous),
        cmocka_unit_test(test_tern_ieee802154_fcs_append__golden_and_limits),
        cmocka_unit_test(test_tern_ieee802154_fcs_check__valid_bad_short),
        cmocka_unit_test(test_tern_ieee802154_parse__short_short_panc),
        cmocka_unit_test(test_tern_ieee802154_parse__ext_ext_panc),
        cmocka_unit_test(test_tern_ieee802154_parse__broadcast_dst_ext_src),
        cmocka_unit_test(test_tern_ieee802154_parse__both_pans),
        cmocka_unit_test(test_tern_ieee802154_parse__ack),
        cmocka_unit_test(test_tern_ieee802154_parse__version2_ext_ext),
        cmocka_unit_test(test_tern_ieee802154_parse__version2_ext_ext_no_pan),
        cmocka_unit_test(test_tern_ieee802154_parse__version2_short_ext_panc),
        cmocka_unit_test(test_tern_ieee802154_parse__version2003),
        cmocka_unit_test(test_tern_ieee802154_parse__beacon_and_command_mhr),
        cmocka_unit_test(test_tern_ieee802154_parse__frame_pending),
        cmocka_unit_test(test_tern_ieee802154_parse__reserved_fc_bits_ignored),
        cmocka_unit_test(test_tern_ieee802154_parse__truncated_at_every_byte),
        cmocka_unit_test(test_tern_ieee802154_parse__reserved_addressing_mode),
        cmocka_unit_test(test_tern_ieee802154_parse__security_enabled),
        cmocka_unit_test(test_tern_ieee802154_parse__version2_ie_present),
        cmocka_unit_test(test_tern_ieee802154_parse__version2_seq_suppressed),
        cmocka_unit_test(test_tern_ieee802154_parse__version2_not_data),
        cmocka_unit_test(test_tern_ieee802154_parse__frame_version_3),
        cmocka_unit_test(test_tern_ieee802154_parse__frame_types_4_to_7),
        cmocka_unit_test(test_tern_ieee802154_parse__panc_with_one_address),
        cmocka_unit_test(test_tern_ieee802154_parse__ack_with_addresses_or_payload),
        cmocka_unit_test(test_tern_ieee802154_parse__too_long),
        cmocka_unit_test(test_tern_ieee802154_parse_fcs__bad_fcs),
        cmocka_unit_test(test_tern_ieee802154_parse__null),
        cmocka_unit_test(test_tern_ieee802154_ack_emit__golden),
        cmocka_unit_test(test_tern_ieee802154_pan_ids_present__tables),
        cmocka_unit_test(test_tern_ieee802154_emit__round_trip_all_modes),
        cmocka_unit_test(test_tern_ieee802154_emit__invalid_repr),
        cmocka_unit_test(test_tern_ieee802154_emit__too_long),
        cmocka_unit_test(test_tern_ieee802154_emit__buffer_too_small),
        cmocka_unit_test(test_tern_ieee802154_seq_set__golden),
        cmocka_unit_test(test_tern_ieee802154_addr__helpers),
        cmocka_unit_test(test_tern_ieee802154_rx_filter__each_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
