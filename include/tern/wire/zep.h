/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief ZEP (ZigBee Encapsulation Protocol) v2: IEEE 802.15.4 frames in UDP
 *        datagrams, as Wireshark's ZEP dissector (packet-zep.c) reads them.
 *
 * ZEP has no RFC; the format is the one Wireshark dissects and other stacks'
 * host builds send to UDP port 17754. All multi-octet fields are big-endian.
 * @code
 * version 2, type 1 (data), 32-byte header, then the 802.15.4 frame:
 * | "EX" | ver 2 | type 1 | channel | device id | LQI/CRC mode | LQI | NTP time | seq | reserved | length |
 * |  2   |   1   |   1    |    1    |     2     |      1       |  1  |    8     |  4  |    10    |   1    |
 * version 2, type 2 (ack), 8 bytes:
 * | "EX" | ver 2 | type 2 | seq |
 * |  2   |   1   |   1    |  4  |
 * version 1 (parse only), 16-byte header, then the frame:
 * | "EX" | ver 1 | channel | device id | LQI/CRC mode | LQI | reserved | length |
 * |  2   |   1   |    1    |     2     |      1       |  1  |    7     |   1    |
 * @endcode
 * The length counts the whole 802.15.4 frame that follows, including its
 * last two bytes: the FCS in CRC mode (LQI/CRC mode byte non-zero, what Tern
 * sends), or TI CC24xx metadata (RSSI, CRC-OK bit + correlation) in LQI mode.
 *
 * A datagram holds exactly one ZEP packet: the parser requires the length
 * field to account for every byte after the header. Wireshark masks the
 * length with 0x7f; here a length above 127 (aMaxPHYPacketSize) is malformed.
 *
 * Errors are negative errno values, one per kind of drop: -EBADMSG malformed
 * (no "EX" preamble, truncated, length field disagreeing with the datagram),
 * -EPROTONOSUPPORT a version other than 1 and 2, -ENOMSG a version 2 type
 * other than data and ack (e.g. the "hello" some ZEP dispatchers use);
 * -ENOBUFS output buffer too small; -EINVAL bad argument.
 */
#ifndef TERN_WIRE_ZEP_H
#define TERN_WIRE_ZEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** UDP port ZEP is sent to by default (Wireshark's default as well). */
#define TERN_ZEP_PORT 17754u
/** Header of a version 1 packet. */
#define TERN_ZEP_V1_HDR_LEN 16u
/** Header of a version 2 data packet. */
#define TERN_ZEP_V2_HDR_LEN 32u
/** A version 2 ack packet (it has no frame). */
#define TERN_ZEP_V2_ACK_LEN 8u
/** Longest frame a ZEP packet carries: aMaxPHYPacketSize, FCS included. */
#define TERN_ZEP_MAX_FRAME_LEN 127u
/** Longest ZEP datagram Tern sends or accepts. */
#define TERN_ZEP_MAX_LEN (TERN_ZEP_V2_HDR_LEN + TERN_ZEP_MAX_FRAME_LEN)

/** @name Packet types of version 2
 * @{ */
#define TERN_ZEP_TYPE_DATA 1u
#define TERN_ZEP_TYPE_ACK 2u
/** @} */

/** A ZEP header, fields in host order. Fields marked "data" are 0 in an ack. */
typedef struct {
    uint8_t version;     /**< 1 or 2 */
    uint8_t type;        /**< TERN_ZEP_TYPE_DATA or TERN_ZEP_TYPE_ACK (version 1: always data) */
    uint8_t channel;     /**< data: 802.15.4 channel the frame was sent on (11..26 at 2.4 GHz) */
    uint16_t device_id;  /**< data: sender's device id */
    bool crc_mode;       /**< data: LQI/CRC mode byte non-zero: the frame ends with its FCS;
                          *   false: with CC24xx metadata (see the file comment) */
    uint8_t lqi;         /**< data: link quality indication */
    uint64_t timestamp;  /**< data, version 2: NTP timestamp (seconds << 32 | fraction of a second) */
    uint32_t seq;        /**< version 2: sequence number (an ack echoes the acked packet's) */
    uint8_t frame_len;   /**< data: bytes of 802.15.4 frame after the header, its last 2 included (0..127) */
} tern_zep_repr_t;

/**
 * Parse the ZEP datagram @p buf of @p len bytes.
 *
 * For data packets the 802.15.4 frame is @p buf[ret .. ret + repr->frame_len),
 * which ends the datagram. Reserved bytes are ignored.
 * @param[out] repr  the header; unchanged on error
 * @return the header length (TERN_ZEP_V2_HDR_LEN, TERN_ZEP_V2_ACK_LEN or
 *         TERN_ZEP_V1_HDR_LEN); -EBADMSG if the preamble is not "EX", the
 *         datagram is shorter than its header, the length field is above 127
 *         or does not equal the bytes after the header (an ack must be exactly
 *         8 bytes); -EPROTONOSUPPORT for a version other than 1 and 2;
 *         -ENOMSG for a version 2 type other than 1 and 2; -EINVAL for a NULL pointer.
 */
int tern_zep_parse(tern_zep_repr_t *repr, const uint8_t *buf, size_t len);

/**
 * Length of the header of @p repr: TERN_ZEP_V2_HDR_LEN (version 2 data),
 * TERN_ZEP_V2_ACK_LEN (version 2 ack) or TERN_ZEP_V1_HDR_LEN (version 1).
 * @return that length; -EINVAL for another version or type, or a NULL pointer.
 */
int tern_zep_hdr_len(const tern_zep_repr_t *repr);

/**
 * Write the header of a version 2 packet (reserved bytes 0, the LQI/CRC mode
 * byte 1 or 0); for data, the caller appends the repr->frame_len bytes of
 * frame. Version 1 is parse-only.
 * @return the header length (32 for data, 8 for an ack); -ENOBUFS if @p len
 *         is shorter (nothing written); -EINVAL for a version other than 2,
 *         a type other than data and ack, a frame_len above 127, or a NULL pointer.
 */
int tern_zep_emit(const tern_zep_repr_t *repr, uint8_t *buf, size_t len);

#endif /* TERN_WIRE_ZEP_H */
