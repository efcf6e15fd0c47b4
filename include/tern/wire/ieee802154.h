/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IEEE 802.15.4 MAC frames: header (MHR), Imm-Ack, frame check sequence.
 *
 * Read first: IEEE 802.15.4-2006 §7.2.1 (general MAC frame format: frame
 * control, sequence number, addressing fields, FCS), §7.2.2.3 (acknowledgment
 * frame), §6.4.1 (aMaxPHYPacketSize); IEEE 802.15.4-2015 §7.2.1.5 and
 * Table 7-2 (PAN ID Compression for frame version 2). docs/IEEE802154.md
 * says what is accepted and rejected, and why.
 *
 * Frame layout (every multi-octet field little-endian on the wire):
 * @code
 * | Frame Control | Seq | Dst PAN | Dst addr | Src PAN | Src addr | payload | FCS |
 * |       2       |  1  |  0/2    |  0/2/8   |  0/2    |  0/2/8   |   n     |  2  |
 * @endcode
 *
 * What this module decodes:
 * - frame versions 0 (2003) and 1 (2006): beacon, data, acknowledgment and MAC
 *   command frames. Data and Imm-Ack frames are parsed fully; for beacon and
 *   command frames only the MHR is parsed (the caller counts and drops them).
 * - frame version 2 (2015): data frames whose header means what a 2006
 *   header means (no Information Elements, sequence number present), with the
 *   PAN ID fields of 802.15.4-2015 Table 7-2 (every row, see
 *   tern_ieee802154_pan_ids_present()).
 * - no security: a frame with the Security Enabled bit is refused with its own
 *   error (-ENOTSUP): Tern implements no 802.15.4 security, so it can neither
 *   delimit the auxiliary security header nor authenticate such a frame.
 *
 * Byte order of addresses: see tern_ieee802154_addr_t.
 *
 * FCS: frames come with the FCS (ZEP, pcap link type 195, a radio that hands
 * it over) or without it (a radio that checked and stripped it). Parse the
 * first with tern_ieee802154_parse_fcs(), the second with
 * tern_ieee802154_parse(). On send, tern_ieee802154_emit() writes the MHR
 * only (the payload usually lives in other snips); a driver that must supply
 * the FCS computes it over the scatter list with tern_ieee802154_fcs() and
 * appends it with tern_ieee802154_fcs_store(), or over a contiguous frame with
 * tern_ieee802154_fcs_append().
 *
 * Errors are negative errno values, one per kind of drop so that the caller
 * can count each: -EBADMSG malformed, -EMSGSIZE longer than aMaxPHYPacketSize,
 * -EILSEQ bad FCS, -ENOTSUP security enabled, -EPROTONOSUPPORT a well-formed
 * frame of a kind this module does not decode; -ENOBUFS output buffer too
 * small; -EINVAL bad argument.
 */
#ifndef TERN_WIRE_IEEE802154_H
#define TERN_WIRE_IEEE802154_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/checksum.h"

/** @name Sizes (IEEE 802.15.4-2006 §6.4.1, §7.2)
 * @{ */
/** aMaxPHYPacketSize: the longest PSDU (MAC frame with its FCS), bytes. */
#define TERN_IEEE802154_MAX_PHY_PACKET_SIZE 127u
/** Length of the frame check sequence (CRC-16), bytes. */
#define TERN_IEEE802154_FCS_LEN 2u
/** The longest MAC frame without its FCS (MHR + payload), bytes. */
#define TERN_IEEE802154_MAX_FRAME_LEN (TERN_IEEE802154_MAX_PHY_PACKET_SIZE - TERN_IEEE802154_FCS_LEN)
/** Shortest MHR: frame control and sequence number. */
#define TERN_IEEE802154_MHR_MIN_LEN 3u
/** Longest MHR without security: 2 + 1 + (2 + 8) + (2 + 8). */
#define TERN_IEEE802154_MHR_MAX_LEN 23u
/** Imm-Ack frame without FCS (frame control, sequence number). */
#define TERN_IEEE802154_ACK_LEN 3u
/** Imm-Ack PSDU: frame control, sequence number, FCS (§7.2.2.3). */
#define TERN_IEEE802154_ACK_PSDU_LEN 5u
/** @} */

/** @name Addresses
 * @{ */
#define TERN_IEEE802154_SHORT_ADDR_LEN 2u
#define TERN_IEEE802154_EXT_ADDR_LEN 8u
/** Broadcast short address: every device accepts it (2006 §7.5.6.2). */
#define TERN_IEEE802154_SHORT_ADDR_BROADCAST 0xFFFFu
/** macShortAddress value of a device that has no short address and uses its extended one. */
#define TERN_IEEE802154_SHORT_ADDR_NONE 0xFFFEu
/** Broadcast PAN identifier: accepted by every PAN (§7.5.6.2). */
#define TERN_IEEE802154_PAN_ID_BROADCAST 0xFFFFu
/** @} */

/** Default of macMaxFrameRetries (802.15.4-2006 Table 86: 0..7, default 3), for the MAC layer. */
#define TERN_IEEE802154_MAX_FRAME_RETRIES_DEFAULT 3u

/** @name Frame types (frame control bits 0-2)
 * @{ */
#define TERN_IEEE802154_FRAME_TYPE_BEACON 0u
#define TERN_IEEE802154_FRAME_TYPE_DATA 1u
#define TERN_IEEE802154_FRAME_TYPE_ACK 2u
#define TERN_IEEE802154_FRAME_TYPE_MAC_CMD 3u
/** @} */

/** @name Frame versions (frame control bits 12-13)
 * @{ */
#define TERN_IEEE802154_FRAME_VERSION_2003 0u
#define TERN_IEEE802154_FRAME_VERSION_2006 1u
#define TERN_IEEE802154_FRAME_VERSION_2015 2u
/** @} */

/** @name Addressing modes (frame control bits 10-11 and 14-15); 1 is reserved
 * @{ */
#define TERN_IEEE802154_ADDR_MODE_NONE 0u
#define TERN_IEEE802154_ADDR_MODE_SHORT 2u
#define TERN_IEEE802154_ADDR_MODE_EXT 3u
/** @} */

/**
 * A link address: none, short (16-bit) or extended (64-bit).
 *
 * Byte order contract: @ref u8 holds the address in canonical order, the
 * order in which it is written and printed, most significant byte first —
 * NOT the order on the air, where both kinds are little-endian (the parse
 * and emit functions reverse them):
 * - extended: the EUI-64 "00:11:22:33:44:55:66:77" is u8 = {0x00, 0x11, ..., 0x77}
 *   (u8[0] holds the OUI's first octet; RFC 4944 §6 / RFC 6282 derive the
 *   IPv6 interface identifier from exactly these 8 bytes);
 * - short: 0x1234 is u8 = {0x12, 0x34} (use tern_ieee802154_addr_short() for
 *   the uint16_t value).
 * The same bytes with @ref len are what a netif header carries as link address.
 */
typedef struct {
    uint8_t len;    /**< 0 (no address), 2 (short) or 8 (extended) */
    uint8_t u8[8];  /**< the address, canonical order; bytes from @ref len on are unused */
} tern_ieee802154_addr_t;

/**
 * The MAC header of a frame, fields in host order.
 *
 * PAN IDs: which of the two PAN ID fields is on the wire follows from the
 * frame version, the addressing modes and @ref pan_id_compression
 * (tern_ieee802154_pan_ids_present()). @ref dst_pan and @ref src_pan hold the
 * PAN IDs the frame means:
 * - parse: a field on the wire is copied. An absent source PAN ID equals the
 *   destination PAN ID (intra-PAN, §7.2.1.1.5); an absent destination PAN ID
 *   reads TERN_IEEE802154_PAN_ID_BROADCAST, which third-level filtering
 *   (§7.5.6.2) treats exactly like an absent one.
 * - emit: the fields on the wire are written from these values; when the
 *   source PAN ID is elided because both addresses share the destination's
 *   PAN, @ref src_pan must equal @ref dst_pan (-EINVAL otherwise).
 */
typedef struct {
    uint8_t frame_type;       /**< TERN_IEEE802154_FRAME_TYPE_* */
    uint8_t frame_version;    /**< TERN_IEEE802154_FRAME_VERSION_* */
    bool frame_pending;
    bool ack_request;
    bool pan_id_compression;  /**< the frame control bit */
    uint8_t seq;              /**< sequence number */
    uint16_t dst_pan;
    uint16_t src_pan;
    tern_ieee802154_addr_t dst;
    tern_ieee802154_addr_t src;
} tern_ieee802154_repr_t;

/* --- addresses ------------------------------------------------------------ */

/** Make @p addr the short address @p short_addr (host order value). */
static inline void tern_ieee802154_addr_set_short(tern_ieee802154_addr_t *addr, uint16_t short_addr)
{
    addr->len = TERN_IEEE802154_SHORT_ADDR_LEN;
    addr->u8[0] = (uint8_t)(short_addr >> 8);
    addr->u8[1] = (uint8_t)short_addr;
}

/** Make @p addr the extended address @p eui64 (canonical order, see tern_ieee802154_addr_t). */
static inline void tern_ieee802154_addr_set_ext(tern_ieee802154_addr_t *addr,
                                                const uint8_t eui64[TERN_IEEE802154_EXT_ADDR_LEN])
{
    addr->len = TERN_IEEE802154_EXT_ADDR_LEN;
    memcpy(addr->u8, eui64, TERN_IEEE802154_EXT_ADDR_LEN);
}

/** The value of short address @p addr. @pre addr->len == 2 */
static inline uint16_t tern_ieee802154_addr_short(const tern_ieee802154_addr_t *addr)
{
    return (uint16_t)(((unsigned)addr->u8[0] << 8) | addr->u8[1]);
}

/** True when @p addr is the broadcast short address 0xffff. */
bool tern_ieee802154_addr_is_broadcast(const tern_ieee802154_addr_t *addr);

/** True when @p a and @p b have the same length and bytes (two "none" are equal). */
bool tern_ieee802154_addr_equal(const tern_ieee802154_addr_t *a, const tern_ieee802154_addr_t *b);

/** Verdicts of tern_ieee802154_rx_filter(). */
typedef enum {
    TERN_IEEE802154_RX_REJECT = 0, /**< not for this station */
    TERN_IEEE802154_RX_ACCEPT,     /**< for this station, not by its own address (broadcast, beacon) */
    TERN_IEEE802154_RX_UNICAST,    /**< addressed to this station's own short or extended address */
} tern_ieee802154_rx_verdict_t;

/**
 * Third-level receive filter of a station that is not a PAN coordinator
 * (IEEE 802.15.4-2006 §7.5.6.2): a beacon is accepted when the station has
 * no PAN (macPANId 0xffff) or it is from its PAN; another frame needs a
 * destination address, a destination PAN ID that is the station's or
 * broadcast, and a destination address that is the broadcast short address
 * or the station's own short or extended address. Only RX_UNICAST frames
 * are acknowledged (§7.5.6.4.2). One function for every radio and link that
 * filters, so they cannot disagree.
 * @param[in] repr        the parsed frame
 * @param[in] pan_id      the station's PAN ID (macPANId)
 * @param[in] short_addr  its short address (macShortAddress, canonical order);
 *                        0xffff and 0xfffe mean it has none (§7.4.2)
 * @param[in] long_addr   its extended address (canonical order)
 * @return the verdict.
 */
tern_ieee802154_rx_verdict_t tern_ieee802154_rx_filter(const tern_ieee802154_repr_t *repr, uint16_t pan_id,
                                                       const uint8_t short_addr[TERN_IEEE802154_SHORT_ADDR_LEN],
                                                       const uint8_t long_addr[TERN_IEEE802154_EXT_ADDR_LEN]);

/**
 * The addressing mode of an address of @p len bytes.
 * @return TERN_IEEE802154_ADDR_MODE_NONE, _SHORT or _EXT; -EINVAL for another length.
 */
int tern_ieee802154_addr_mode(uint8_t len);

/* --- header --------------------------------------------------------------- */

/**
 * Which PAN ID fields a frame carries.
 *
 * Frame versions 0 and 1 (802.15.4-2006 §7.2.1.1.5): the destination PAN ID
 * accompanies a destination address; the source PAN ID accompanies a source
 * address unless PAN ID Compression is set, which is only allowed when both
 * addresses are present.
 *
 * Frame version 2 (802.15.4-2015 Table 7-2), every row (s/e: short or extended):
 * | dst   | src   | PANC 0: dst PAN, src PAN | PANC 1: dst PAN, src PAN |
 * |-------|-------|--------------------------|--------------------------|
 * | none  | none  | -, -                     | yes, -                   |
 * | s/e   | none  | yes, -                   | -, -                     |
 * | none  | s/e   | -, yes                   | -, -                     |
 * | ext   | ext   | yes, -                   | -, -                     |
 * | short | short | yes, yes                 | yes, -                   |
 * | short | ext   | yes, yes                 | yes, -                   |
 * | ext   | short | yes, yes                 | yes, -                   |
 * @param[in]  frame_version       0, 1 or 2
 * @param[in]  dst_len, src_len    address lengths: 0, 2 or 8
 * @param[in]  pan_id_compression  the frame control bit
 * @param[out] dst_pan, src_pan    whether each field is present
 * @return 0; -EINVAL for a combination the standard does not allow (version
 *         0/1 with PAN ID Compression and a missing address), another frame
 *         version or address length, or a NULL pointer.
 * @see IEEE 802.15.4-2006 §7.2.1.1.5, IEEE 802.15.4-2015 §7.2.1.5 Table 7-2
 */
int tern_ieee802154_pan_ids_present(uint8_t frame_version, uint8_t dst_len, uint8_t src_len,
                                    bool pan_id_compression, bool *dst_pan, bool *src_pan);

/**
 * Length of the MHR tern_ieee802154_emit() writes for @p repr.
 * @return TERN_IEEE802154_MHR_MIN_LEN..TERN_IEEE802154_MHR_MAX_LEN; -EINVAL
 *         when @p repr cannot be emitted (see tern_ieee802154_emit()).
 */
int tern_ieee802154_hdr_len(const tern_ieee802154_repr_t *repr);

/**
 * The largest payload a frame with header @p repr can carry
 * (TERN_IEEE802154_MAX_FRAME_LEN minus the MHR; the FCS is not counted).
 * @return 102..122; -EINVAL as tern_ieee802154_hdr_len().
 */
int tern_ieee802154_max_payload(const tern_ieee802154_repr_t *repr);

/**
 * Parse a MAC frame WITHOUT its FCS (the radio has checked and removed it):
 * the MHR is the first returned bytes of @p frame, the payload the rest.
 *
 * Checks, in this order (the first failing one gives the error): @p len
 * at most TERN_IEEE802154_MAX_FRAME_LEN and at least 2; frame type 0..3
 * (first: 2015's multipurpose frames lay out their frame control differently);
 * frame version 0..2; security disabled; for version 2: a data frame with a
 * sequence number and no Information Elements; no reserved addressing mode;
 * the PAN ID Compression combination (tern_ieee802154_pan_ids_present()); an
 * Imm-Ack has no address; @p len covers the MHR; an Imm-Ack has no payload.
 * Reserved frame control bits 7-9 of versions 0 and 1 are ignored (they are
 * reserved there and written as 0 by emit).
 *
 * @param[out] repr   the header, every field written (the bytes of an
 *                    address's u8 past its length are zero); unchanged on error
 * @param[in]  frame  MHR + payload
 * @param[in]  len    bytes at @p frame
 * @return the MHR length (3..23): the payload is @p frame[ret .. len);
 *         -EBADMSG if truncated (shorter than its MHR), frame version 3,
 *         a reserved addressing mode (1), an invalid PAN ID Compression
 *         combination, or an Imm-Ack with addresses or payload;
 *         -EMSGSIZE if @p len > TERN_IEEE802154_MAX_FRAME_LEN;
 *         -ENOTSUP if security is enabled (not supported);
 *         -EPROTONOSUPPORT for frame types 4-7 (reserved in 2006; 2015's
 *         multipurpose, fragment and extended frames), or a version 2 frame
 *         that is not a data frame, carries Information Elements or
 *         suppresses its sequence number;
 *         -EINVAL for a NULL pointer.
 * @see IEEE 802.15.4-2006 §7.2.1, §7.2.2.3; IEEE 802.15.4-2015 §7.2.1
 */
int tern_ieee802154_parse(tern_ieee802154_repr_t *repr, const uint8_t *frame, size_t len);

/**
 * Parse a PSDU: a MAC frame followed by its FCS (from ZEP, pcap link type 195,
 * or a radio that delivers the FCS). The FCS is verified first, then the
 * frame without it is parsed as tern_ieee802154_parse() does.
 * @param[out] repr  the header; unchanged on error
 * @return the MHR length: the payload is @p psdu[ret .. len - 2);
 *         -EILSEQ if the FCS does not match; -EMSGSIZE if
 *         @p len > TERN_IEEE802154_MAX_PHY_PACKET_SIZE; -EBADMSG if @p len < 2
 *         (no FCS); otherwise as tern_ieee802154_parse().
 * @see IEEE 802.15.4-2006 §7.2.1.9
 */
int tern_ieee802154_parse_fcs(tern_ieee802154_repr_t *repr, const uint8_t *psdu, size_t len);

/**
 * Set the sequence number of the MHR at @p mhr (@p len bytes, as
 * tern_ieee802154_emit() wrote it or a parser accepted it): the octet after
 * the frame control field (2006 §7.2.1.2). Lets a sender reuse one emitted
 * header for frames that differ only in their sequence number.
 * @return 0; -EINVAL if @p mhr is NULL or @p len < TERN_IEEE802154_MHR_MIN_LEN.
 * @see IEEE 802.15.4-2006 §7.2.1, Figure 34
 */
int tern_ieee802154_seq_set(uint8_t *mhr, size_t len, uint8_t seq);

/**
 * Write the MHR of @p repr into @p buf (reserved bits 0, security disabled).
 * @param[in]  repr         the header
 * @param[in]  payload_len  bytes of payload that will follow the MHR (to
 *                          enforce aMaxPHYPacketSize; the FCS is not counted)
 * @param[out] buf          where the MHR goes
 * @param[in]  len          bytes available at @p buf
 * @return the MHR length (tern_ieee802154_hdr_len()); -EMSGSIZE if MHR +
 *         @p payload_len > TERN_IEEE802154_MAX_FRAME_LEN; -ENOBUFS if
 *         @p len is shorter than the MHR (nothing written); -EINVAL for a
 *         frame type above 3, a frame version above 2, a version 2 frame that
 *         is not a data frame, an address length other than 0/2/8, an invalid
 *         PAN ID Compression combination, @ref src_pan != @ref dst_pan where
 *         the source PAN ID is elided as intra-PAN, an Imm-Ack (versions 0, 1)
 *         with an address or payload, or a NULL pointer.
 * @see IEEE 802.15.4-2006 §7.2.1
 */
int tern_ieee802154_emit(const tern_ieee802154_repr_t *repr, size_t payload_len, uint8_t *buf,
                         size_t len);

/**
 * Write a complete Imm-Ack PSDU (frame version 0, as transceivers send it:
 * frame control, @p seq, FCS) into @p buf. A radio that appends the FCS
 * itself sends the first TERN_IEEE802154_ACK_LEN bytes.
 * @return TERN_IEEE802154_ACK_PSDU_LEN; -ENOBUFS if @p len is shorter
 *         (nothing written); -EINVAL for a NULL pointer.
 * @see IEEE 802.15.4-2006 §7.2.2.3
 */
int tern_ieee802154_ack_emit(uint8_t seq, bool frame_pending, uint8_t *buf, size_t len);

/* --- frame check sequence -------------------------------------------------- */

/**
 * Continue the 802.15.4 CRC-16 over @p len bytes: the ITU-T polynomial
 * x^16 + x^12 + x^5 + 1 processed least significant bit first (reflected,
 * 0x8408), initial value 0, no final XOR — the catalogued CRC-16/KERMIT
 * (check value over ASCII "123456789": 0x2189).
 * @param[in] crc   0 to start, or a previous return value
 * @param[in] data  bytes; may be NULL when @p len is 0
 * @return the running CRC; it is the FCS once every byte is in
 * @see IEEE 802.15.4-2006 §7.2.1.9
 */
uint16_t tern_ieee802154_crc16(uint16_t crc, const void *data, size_t len);

/**
 * The FCS of a frame (MHR + payload, no FCS) given as @p count spans in order,
 * e.g. the snips of a packet being sent.
 * @pre @p spans non-NULL unless @p count is 0
 */
uint16_t tern_ieee802154_fcs(const tern_checksum_span_t *spans, size_t count);

/** Store @p fcs at @p out as on the wire (little-endian: low byte first, §7.2.1.9). */
static inline void tern_ieee802154_fcs_store(uint8_t out[TERN_IEEE802154_FCS_LEN], uint16_t fcs)
{
    out[0] = (uint8_t)fcs;
    out[1] = (uint8_t)(fcs >> 8);
}

/**
 * Compute the FCS of the contiguous frame @p frame[0 .. @p len) and write it
 * at @p frame[len .. len + 2).
 * @param[in] cap  bytes available at @p frame
 * @return @p len + 2 (the PSDU length); -EMSGSIZE if that exceeds
 *         TERN_IEEE802154_MAX_PHY_PACKET_SIZE; -ENOBUFS if it exceeds @p cap
 *         (nothing written); -EINVAL for a NULL pointer.
 */
int tern_ieee802154_fcs_append(uint8_t *frame, size_t len, size_t cap);

/**
 * Verify the FCS at the end of @p psdu (the CRC over the whole PSDU, FCS
 * included, is 0 exactly when the FCS is right).
 * @return 0 when valid; -EILSEQ when not; -EBADMSG if @p len < 2;
 *         -EINVAL for a NULL pointer.
 */
int tern_ieee802154_fcs_check(const uint8_t *psdu, size_t len);

#endif /* TERN_WIRE_IEEE802154_H */
