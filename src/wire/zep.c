/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief ZEP v2 (and v1, parse only): 802.15.4 frames in UDP datagrams.
 *
 * The layout is Wireshark's (epan/dissectors/packet-zep.c); see tern/wire/zep.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/bytes.h"
#include "tern/wire/zep.h"

/* Offsets common to every version. */
#define OFF_PREAMBLE 0u
#define OFF_VERSION 2u

/* Version 2 data packet. */
#define V2_OFF_TYPE 3u
#define V2_OFF_CHANNEL 4u
#define V2_OFF_DEVICE_ID 5u
#define V2_OFF_LQI_MODE 7u
#define V2_OFF_LQI 8u
#define V2_OFF_TIMESTAMP 9u
#define V2_OFF_SEQ 17u
#define V2_OFF_RESERVED 21u
#define V2_RESERVED_LEN 10u
#define V2_OFF_LENGTH 31u

/* Version 2 ack packet: preamble, version, type, sequence number. */
#define V2_ACK_OFF_SEQ 4u

/* Version 1 packet (no type, no timestamp, no sequence number). */
#define V1_OFF_CHANNEL 3u
#define V1_OFF_DEVICE_ID 4u
#define V1_OFF_LQI_MODE 6u
#define V1_OFF_LQI 7u
#define V1_OFF_LENGTH 15u

static const uint8_t preamble[2] = { 'E', 'X' };

/**
 * The frame length field at @p buf[off] against the @p len bytes of the
 * datagram: the frame must be exactly what follows the header.
 */
static int check_frame_len(const uint8_t *buf, size_t len, size_t hdr_len, size_t off)
{
    if (len < hdr_len) {
        return -EBADMSG;
    }
    uint8_t frame_len = buf[off];
    if (frame_len > TERN_ZEP_MAX_FRAME_LEN || len - hdr_len != frame_len) {
        return -EBADMSG;
    }
    return 0;
}

int tern_zep_parse(tern_zep_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < OFF_VERSION + 1u || memcmp(&buf[OFF_PREAMBLE], preamble, sizeof(preamble)) != 0) {
        return -EBADMSG;
    }
    tern_zep_repr_t out;
    memset(&out, 0, sizeof(out));
    out.version = buf[OFF_VERSION];
    if (out.version == 1) {
        if (check_frame_len(buf, len, TERN_ZEP_V1_HDR_LEN, V1_OFF_LENGTH) < 0) {
            return -EBADMSG;
        }
        out.type = TERN_ZEP_TYPE_DATA;
        out.channel = buf[V1_OFF_CHANNEL];
        out.device_id = tern_load16(&buf[V1_OFF_DEVICE_ID]);
        out.crc_mode = buf[V1_OFF_LQI_MODE] != 0;
        out.lqi = buf[V1_OFF_LQI];
        out.frame_len = buf[V1_OFF_LENGTH];
        *repr = out;
        return TERN_ZEP_V1_HDR_LEN;
    }
    if (out.version != 2) {
        return -EPROTONOSUPPORT;
    }
    if (len < V2_OFF_TYPE + 1u) {
        return -EBADMSG;
    }
    out.type = buf[V2_OFF_TYPE];
    if (out.type == TERN_ZEP_TYPE_ACK) {
        if (len != TERN_ZEP_V2_ACK_LEN) {
            return -EBADMSG;
        }
        out.seq = tern_load32(&buf[V2_ACK_OFF_SEQ]);
        *repr = out;
        return TERN_ZEP_V2_ACK_LEN;
    }
    if (out.type != TERN_ZEP_TYPE_DATA) {
        return -ENOMSG;
    }
    if (check_frame_len(buf, len, TERN_ZEP_V2_HDR_LEN, V2_OFF_LENGTH) < 0) {
        return -EBADMSG;
    }
    out.channel = buf[V2_OFF_CHANNEL];
    out.device_id = tern_load16(&buf[V2_OFF_DEVICE_ID]);
    out.crc_mode = buf[V2_OFF_LQI_MODE] != 0;
    out.lqi = buf[V2_OFF_LQI];
    out.timestamp = ((uint64_t)tern_load32(&buf[V2_OFF_TIMESTAMP]) << 32) |
                    tern_load32(&buf[V2_OFF_TIMESTAMP + 4u]);
    out.seq = tern_load32(&buf[V2_OFF_SEQ]);
    out.frame_len = buf[V2_OFF_LENGTH];
    *repr = out;
    return TERN_ZEP_V2_HDR_LEN;
}

int tern_zep_hdr_len(const tern_zep_repr_t *repr)
{
    if (repr == NULL) {
        return -EINVAL;
    }
    if (repr->version == 1 && repr->type == TERN_ZEP_TYPE_DATA) {
        return TERN_ZEP_V1_HDR_LEN;
    }
    if (repr->version == 2 && repr->type == TERN_ZEP_TYPE_DATA) {
        return TERN_ZEP_V2_HDR_LEN;
    }
    if (repr->version == 2 && repr->type == TERN_ZEP_TYPE_ACK) {
        return TERN_ZEP_V2_ACK_LEN;
    }
    return -EINVAL;
}

int tern_zep_emit(const tern_zep_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0) || repr->version != 2 ||
        (repr->type == TERN_ZEP_TYPE_DATA && repr->frame_len > TERN_ZEP_MAX_FRAME_LEN)) {
        return -EINVAL;
    }
    int hdr_len = tern_zep_hdr_len(repr);
    if (hdr_len < 0) {
        return hdr_len;
    }
    if (len < (size_t)hdr_len) {
        return -ENOBUFS;
    }
    memcpy(&buf[OFF_PREAMBLE], preamble, sizeof(preamble));
    buf[OFF_VERSION] = 2;
    buf[V2_OFF_TYPE] = repr->type;
    if (repr->type == TERN_ZEP_TYPE_ACK) {
        tern_store32(&buf[V2_ACK_OFF_SEQ], repr->seq);
        return hdr_len;
    }
    buf[V2_OFF_CHANNEL] = repr->channel;
    tern_store16(&buf[V2_OFF_DEVICE_ID], repr->device_id);
    buf[V2_OFF_LQI_MODE] = repr->crc_mode ? 1u : 0u;
    buf[V2_OFF_LQI] = repr->lqi;
    tern_store32(&buf[V2_OFF_TIMESTAMP], (uint32_t)(repr->timestamp >> 32));
    tern_store32(&buf[V2_OFF_TIMESTAMP + 4u], (uint32_t)repr->timestamp);
    tern_store32(&buf[V2_OFF_SEQ], repr->seq);
    memset(&buf[V2_OFF_RESERVED], 0, V2_RESERVED_LEN);
    buf[V2_OFF_LENGTH] = repr->frame_len;
    return hdr_len;
}
