/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test helper for tests/integration/test_tshark_wire.py: frames built
 *        by Tern's IEEE 802.15.4 and ZEP codecs, and Tern's view of frames.
 *
 *   tern_wire_emit frames   one line per frame: "NAME HEX". NAME "zep:X" is a
 *                           ZEP datagram, every other line an 802.15.4 PSDU
 *                           with its FCS (pcap link type 195).
 *   tern_wire_emit parse    for every "NAME HEX" line on stdin (a PSDU with
 *                           FCS, or a ZEP datagram for "zep:" names), print
 *                           "NAME ok FIELD=VALUE..." or "NAME err ERRNO".
 *
 * The frames are the cases docs/IEEE802154.md lists; the Python test knows
 * what each should decode to and asks Wireshark.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/ieee802154.h"
#include "tern/wire/zep.h"

static const uint8_t eui_a[8] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77 };
static const uint8_t eui_b[8] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01 };

/** One frame to build: a header, and the payload length. The payload is
 * 00 01 02 ...: it starts with 6LoWPAN's "not a LoWPAN frame" dispatch
 * (00xxxxxx, RFC 4944 §5.1), and no heuristic dissector of Wireshark claims
 * it, so it shows as plain data. */
typedef struct {
    const char *name;
    uint8_t version;
    uint8_t type;
    bool ack_request;
    bool panc;
    uint8_t seq;
    uint16_t dst_pan, src_pan;
    uint8_t dst_len, src_len;
    uint16_t dst_short, src_short;
    size_t payload_len;
} frame_spec_t;

#define V2003 TERN_IEEE802154_FRAME_VERSION_2003
#define V2006 TERN_IEEE802154_FRAME_VERSION_2006
#define V2015 TERN_IEEE802154_FRAME_VERSION_2015
#define DATA TERN_IEEE802154_FRAME_TYPE_DATA
#define BEACON TERN_IEEE802154_FRAME_TYPE_BEACON

/* Extended addresses are always eui_a (dst) and eui_b (src). */
static const frame_spec_t specs[] = {
    { "short_short_panc", V2006, DATA, true, true, 0x42, 0x0023, 0x0023, 2, 2, 0x1234, 0x5678, 3 },
    { "ext_ext_panc", V2006, DATA, true, true, 0x05, 0x0023, 0x0023, 8, 8, 0, 0, 3 },
    { "bcast_ext", V2006, DATA, false, true, 0xff, 0x0023, 0x0023, 2, 8, 0xffff, 0, 3 },
    { "both_pans", V2006, DATA, true, false, 0x10, 0x0023, 0xabcd, 2, 8, 0xbeef, 0, 3 },
    { "v2003_ext_short", V2003, DATA, true, true, 0x11, 0x0023, 0x0023, 8, 2, 0, 0x0001, 3 },
    { "v2015_ext_ext", V2015, DATA, true, false, 0x07, 0x0023, 0x0023, 8, 8, 0, 0, 3 },
    { "v2015_ext_ext_no_pan", V2015, DATA, true, true, 0x08, 0xffff, 0xffff, 8, 8, 0, 0, 3 },
    { "v2015_short_short", V2015, DATA, true, false, 0x09, 0x0023, 0x0024, 2, 2, 0x1234, 0x5678, 3 },
    { "v2015_short_ext_panc", V2015, DATA, false, true, 0x0a, 0x0023, 0x0023, 2, 8, 0x1234, 0, 3 },
    { "v2015_dst_only", V2015, DATA, false, false, 0x0b, 0x0023, 0x0023, 2, 0, 0xffff, 0, 3 },
    { "beacon", V2003, BEACON, false, false, 0x33, 0xffff, 0x0023, 0, 2, 0, 0x0000, 4 },
    { "max_len", V2006, DATA, true, true, 0x0c, 0x0023, 0x0023, 8, 8, 0, 0, 104 },
};

static void print_hex(const char *name, const uint8_t *buf, size_t len)
{
    printf("%s ", name);
    for (size_t i = 0; i < len; i++) {
        printf("%02x", buf[i]);
    }
    printf("\n");
}

static void fail(const char *what, int res)
{
    fprintf(stderr, "tern_wire_emit: %s failed: %d\n", what, res);
    exit(1);
}

/** Build the PSDU of @p spec into @p psdu. @return its length. */
static size_t build(const frame_spec_t *spec, uint8_t *psdu, size_t cap)
{
    tern_ieee802154_repr_t r;
    memset(&r, 0, sizeof(r));
    r.frame_type = spec->type;
    r.frame_version = spec->version;
    r.ack_request = spec->ack_request;
    r.pan_id_compression = spec->panc;
    r.seq = spec->seq;
    r.dst_pan = spec->dst_pan;
    r.src_pan = spec->src_pan;
    if (spec->dst_len == 2) {
        tern_ieee802154_addr_set_short(&r.dst, spec->dst_short);
    } else if (spec->dst_len == 8) {
        tern_ieee802154_addr_set_ext(&r.dst, eui_a);
    }
    if (spec->src_len == 2) {
        tern_ieee802154_addr_set_short(&r.src, spec->src_short);
    } else if (spec->src_len == 8) {
        tern_ieee802154_addr_set_ext(&r.src, eui_b);
    }
    int mhr = tern_ieee802154_emit(&r, spec->payload_len, psdu, cap);
    if (mhr < 0) {
        fail(spec->name, mhr);
    }
    if (spec->type == BEACON) {
        /* superframe specification 0xcfff, no GTS, no pending addresses */
        const uint8_t beacon_payload[] = { 0xff, 0xcf, 0x00, 0x00 };
        memcpy(&psdu[mhr], beacon_payload, sizeof(beacon_payload));
    } else {
        for (size_t i = 0; i < spec->payload_len; i++) {
            psdu[(size_t)mhr + i] = (uint8_t)i;
        }
    }
    /* the FCS over a scatter list [MHR][payload], as a driver would */
    const tern_checksum_span_t spans[] = { { psdu, (size_t)mhr }, { &psdu[mhr], spec->payload_len } };
    size_t len = (size_t)mhr + spec->payload_len;
    tern_ieee802154_fcs_store(&psdu[len], tern_ieee802154_fcs(spans, 2));
    return len + TERN_IEEE802154_FCS_LEN;
}

/** Wrap @p psdu in a ZEP v2 data packet into @p out. @return its length. */
static size_t zep_wrap(const uint8_t *psdu, size_t len, uint32_t seq, uint8_t *out, size_t cap)
{
    tern_zep_repr_t z;
    memset(&z, 0, sizeof(z));
    z.version = 2;
    z.type = TERN_ZEP_TYPE_DATA;
    z.channel = 26;
    z.device_id = 0x1234;
    z.crc_mode = true;
    z.lqi = 0xff;
    z.timestamp = 0xe6d5a3b480000000ull; /* NTP: 2022-09-21 14:52:36.5 UTC */
    z.seq = seq;
    z.frame_len = (uint8_t)len;
    int hdr = tern_zep_emit(&z, out, cap);
    if (hdr < 0 || (size_t)hdr + len > cap) {
        fail("zep", hdr);
    }
    memcpy(&out[hdr], psdu, len);
    return (size_t)hdr + len;
}

static int emit_frames(void)
{
    uint8_t psdu[TERN_IEEE802154_MAX_PHY_PACKET_SIZE];
    uint8_t zep[TERN_ZEP_MAX_LEN];
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
        size_t len = build(&specs[i], psdu, sizeof(psdu));
        print_hex(specs[i].name, psdu, len);
    }
    int res = tern_ieee802154_ack_emit(0x6a, false, psdu, sizeof(psdu));
    if (res < 0) {
        fail("ack", res);
    }
    print_hex("ack", psdu, (size_t)res);
    res = tern_ieee802154_ack_emit(0x6b, true, psdu, sizeof(psdu));
    if (res < 0) {
        fail("ack_pending", res);
    }
    print_hex("ack_pending", psdu, (size_t)res);

    /* ZEP: a data frame, an Imm-Ack, and a ZEP-level ack */
    size_t len = build(&specs[1], psdu, sizeof(psdu));
    print_hex("zep:ext_ext_panc", zep, zep_wrap(psdu, len, 258, zep, sizeof(zep)));
    res = tern_ieee802154_ack_emit(0x05, false, psdu, sizeof(psdu));
    print_hex("zep:ack", zep, zep_wrap(psdu, (size_t)res, 259, zep, sizeof(zep)));
    tern_zep_repr_t ack;
    memset(&ack, 0, sizeof(ack));
    ack.version = 2;
    ack.type = TERN_ZEP_TYPE_ACK;
    ack.seq = 258;
    res = tern_zep_emit(&ack, zep, sizeof(zep));
    if (res < 0) {
        fail("zep ack", res);
    }
    print_hex("zep:zep_ack", zep, (size_t)res);
    return 0;
}

static const char *errno_name(int err)
{
    switch (err) {
    case EBADMSG:
        return "EBADMSG";
    case EMSGSIZE:
        return "EMSGSIZE";
    case EILSEQ:
        return "EILSEQ";
    case ENOTSUP:
        return "ENOTSUP";
    case EPROTONOSUPPORT:
        return "EPROTONOSUPPORT";
    case ENOMSG:
        return "ENOMSG";
    case EINVAL:
        return "EINVAL";
    default:
        return "E?";
    }
}

/** "-", "0x1234" or "00:11:22:33:44:55:66:77" (tshark's spellings). */
static void print_addr(const char *key, const tern_ieee802154_addr_t *addr)
{
    printf(" %s=", key);
    if (addr->len == 0) {
        printf("-");
    } else if (addr->len == 2) {
        printf("0x%04x", tern_ieee802154_addr_short(addr));
    } else {
        for (size_t i = 0; i < addr->len; i++) {
            printf("%s%02x", i == 0 ? "" : ":", addr->u8[i]);
        }
    }
}

static void print_frame(const char *name, const uint8_t *psdu, size_t len)
{
    tern_ieee802154_repr_t r;
    int res = tern_ieee802154_parse_fcs(&r, psdu, len);
    if (res < 0) {
        printf("%s err %s\n", name, errno_name(-res));
        return;
    }
    printf("%s ok mhr=%d type=%u version=%u pending=%d ar=%d panc=%d seq=%u dst_pan=0x%04x", name, res,
           r.frame_type, r.frame_version, r.frame_pending, r.ack_request, r.pan_id_compression, r.seq,
           r.dst_pan);
    print_addr("dst", &r.dst);
    printf(" src_pan=0x%04x", r.src_pan);
    print_addr("src", &r.src);
    printf(" payload=%zu\n", len - (size_t)res - TERN_IEEE802154_FCS_LEN);
}

static int parse_lines(void)
{
    char line[1024];
    while (fgets(line, sizeof(line), stdin) != NULL) {
        char name[128];
        char hex[600];
        if (sscanf(line, "%127s %599s", name, hex) != 2) {
            continue;
        }
        uint8_t buf[300];
        size_t len = 0;
        for (size_t i = 0; hex[2 * i] != '\0' && hex[2 * i + 1] != '\0' && len < sizeof(buf); i++) {
            unsigned byte;
            if (sscanf(&hex[2 * i], "%2x", &byte) != 1) {
                break;
            }
            buf[len++] = (uint8_t)byte;
        }
        if (strncmp(name, "zep:", 4) != 0) {
            print_frame(name, buf, len);
            continue;
        }
        tern_zep_repr_t z;
        int hdr = tern_zep_parse(&z, buf, len);
        if (hdr < 0) {
            printf("%s err %s\n", name, errno_name(-hdr));
            continue;
        }
        printf("%s zep version=%u type=%u channel=%u device=0x%04x crc=%d lqi=%u seq=%lu length=%u\n",
               name, z.version, z.type, z.channel, z.device_id, z.crc_mode, z.lqi, (unsigned long)z.seq,
               z.frame_len);
        if (z.type == TERN_ZEP_TYPE_DATA) {
            print_frame(name, &buf[hdr], z.frame_len);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "frames") == 0) {
        return emit_frames();
    }
    if (argc == 2 && strcmp(argv[1], "parse") == 0) {
        return parse_lines();
    }
    fprintf(stderr, "usage: %s frames | parse < lines\n", argv[0]);
    return 2;
}
