/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IEEE 802.15.4 MAC frames: MHR parse/emit, Imm-Ack, FCS (CRC-16).
 *
 * Read first: IEEE 802.15.4-2006 §7.2.1 (Figure 35: frame control subfields),
 * §7.2.1.1.5 (PAN ID Compression), §7.2.1.9 (FCS), §7.2.2.3 (Imm-Ack);
 * IEEE 802.15.4-2015 §7.2.1 (frame control of version 2) and Table 7-2.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/config.h"
#include "tern/wire/bytes.h"
#include "tern/wire/ieee802154.h"

/* Frame control subfields (802.15.4-2006 Figure 35, 802.15.4-2015 Figure 7-2).
 * Bit 7 is reserved in every version; bits 8 and 9 are reserved in versions 0
 * and 1 and mean sequence number suppression and IE present in version 2. */
#define FC_TYPE_MASK 0x0007u
#define FC_SECURITY 0x0008u
#define FC_FRAME_PENDING 0x0010u
#define FC_ACK_REQUEST 0x0020u
#define FC_PAN_ID_COMPRESSION 0x0040u
#define FC_SEQ_SUPPRESSION 0x0100u
#define FC_IE_PRESENT 0x0200u
#define FC_DST_MODE_SHIFT 10u
#define FC_VERSION_SHIFT 12u
#define FC_SRC_MODE_SHIFT 14u
#define FC_FIELD_MASK 0x3u

/* The ITU-T CRC-16 polynomial x^16 + x^12 + x^5 + 1 (0x1021), bit-reversed
 * because 802.15.4 feeds every octet least significant bit first (§7.2.1.9). */
#define CRC16_POLY_REFLECTED 0x8408u

/* Frame control of an Imm-Ack as transceivers send it: type ACK, frame
 * version 0, no addressing fields (§7.2.2.3); the pending bit is added. */
#define ACK_FRAME_CONTROL TERN_IEEE802154_FRAME_TYPE_ACK

/* --- addresses ------------------------------------------------------------ */

bool tern_ieee802154_addr_is_broadcast(const tern_ieee802154_addr_t *addr)
{
    return addr != NULL && addr->len == TERN_IEEE802154_SHORT_ADDR_LEN &&
           tern_ieee802154_addr_short(addr) == TERN_IEEE802154_SHORT_ADDR_BROADCAST;
}

tern_ieee802154_rx_verdict_t tern_ieee802154_rx_filter(const tern_ieee802154_repr_t *repr, uint16_t pan_id,
                                                       const uint8_t short_addr[TERN_IEEE802154_SHORT_ADDR_LEN],
                                                       const uint8_t long_addr[TERN_IEEE802154_EXT_ADDR_LEN])
{
    if (repr->frame_type == TERN_IEEE802154_FRAME_TYPE_BEACON) {
        return (pan_id == TERN_IEEE802154_PAN_ID_BROADCAST || repr->src_pan == pan_id) ? TERN_IEEE802154_RX_ACCEPT
                                                                                      : TERN_IEEE802154_RX_REJECT;
    }
    if (repr->dst.len == 0u) {
        return TERN_IEEE802154_RX_REJECT; /* only a PAN coordinator takes frames without one */
    }
    if (repr->dst_pan != TERN_IEEE802154_PAN_ID_BROADCAST && repr->dst_pan != pan_id) {
        return TERN_IEEE802154_RX_REJECT;
    }
    if (repr->dst.len == TERN_IEEE802154_SHORT_ADDR_LEN) {
        if (tern_ieee802154_addr_is_broadcast(&repr->dst)) {
            return TERN_IEEE802154_RX_ACCEPT;
        }
        uint16_t own = (uint16_t)(((unsigned)short_addr[0] << 8) | short_addr[1]);
        bool has_short = own != TERN_IEEE802154_SHORT_ADDR_BROADCAST && own != TERN_IEEE802154_SHORT_ADDR_NONE;
        return (has_short && tern_ieee802154_addr_short(&repr->dst) == own) ? TERN_IEEE802154_RX_UNICAST
                                                                            : TERN_IEEE802154_RX_REJECT;
    }
    return (memcmp(repr->dst.u8, long_addr, TERN_IEEE802154_EXT_ADDR_LEN) == 0) ? TERN_IEEE802154_RX_UNICAST
                                                                                 : TERN_IEEE802154_RX_REJECT;
}

bool tern_ieee802154_addr_equal(const tern_ieee802154_addr_t *a, const tern_ieee802154_addr_t *b)
{
    if (a == NULL || b == NULL || a->len != b->len || a->len > TERN_IEEE802154_EXT_ADDR_LEN) {
        return false;
    }
    return memcmp(a->u8, b->u8, a->len) == 0;
}

int tern_ieee802154_addr_mode(uint8_t len)
{
    switch (len) {
    case 0:
        return TERN_IEEE802154_ADDR_MODE_NONE;
    case TERN_IEEE802154_SHORT_ADDR_LEN:
        return TERN_IEEE802154_ADDR_MODE_SHORT;
    case TERN_IEEE802154_EXT_ADDR_LEN:
        return TERN_IEEE802154_ADDR_MODE_EXT;
    default:
        return -EINVAL;
    }
}

/** Address length of addressing mode @p mode; 0xff for the reserved mode 1. */
static uint8_t mode_addr_len(unsigned mode)
{
    switch (mode) {
    case TERN_IEEE802154_ADDR_MODE_NONE:
        return 0;
    case TERN_IEEE802154_ADDR_MODE_SHORT:
        return TERN_IEEE802154_SHORT_ADDR_LEN;
    case TERN_IEEE802154_ADDR_MODE_EXT:
        return TERN_IEEE802154_EXT_ADDR_LEN;
    default:
        return 0xff;
    }
}

/* --- PAN ID fields ----------------------------------------------------------- */

/**
 * tern_ieee802154_pan_ids_present() for address lengths known to be 0, 2 or 8
 * (the parser's come from the addressing modes).
 */
static inline int pan_ids_of(uint8_t frame_version, uint8_t dst_len, uint8_t src_len, bool pan_id_compression,
                      bool *dst_pan, bool *src_pan)
{
    bool dst = dst_len != 0;
    bool src = src_len != 0;
    switch (frame_version) {
    case TERN_IEEE802154_FRAME_VERSION_2003:
    case TERN_IEEE802154_FRAME_VERSION_2006:
        /* 2006 §7.2.1.1.5: compression elides the source PAN ID when both
         * addresses are present; "if only either ... is present, the PAN ID
         * Compression subfield shall be set to 0" (also without any address). */
        if (pan_id_compression && !(dst && src)) {
            return -EINVAL;
        }
        *dst_pan = dst;
        *src_pan = src && !pan_id_compression;
        return 0;
    case TERN_IEEE802154_FRAME_VERSION_2015:
        /* 2015 Table 7-2, row by row (the header documents the table). */
        if (dst && src) {
            if (dst_len == TERN_IEEE802154_EXT_ADDR_LEN && src_len == TERN_IEEE802154_EXT_ADDR_LEN) {
                /* ext/ext: one PAN ID at most, the destination's */
                *dst_pan = !pan_id_compression;
                *src_pan = false;
            } else {
                /* a short address on either side: as in 2006 */
                *dst_pan = true;
                *src_pan = !pan_id_compression;
            }
        } else if (dst) {
            *dst_pan = !pan_id_compression;
            *src_pan = false;
        } else if (src) {
            *dst_pan = false;
            *src_pan = !pan_id_compression;
        } else {
            /* no address: compression set means a lone destination PAN ID */
            *dst_pan = pan_id_compression;
            *src_pan = false;
        }
        return 0;
    default:
        return -EINVAL;
    }
}

int tern_ieee802154_pan_ids_present(uint8_t frame_version, uint8_t dst_len, uint8_t src_len,
                                    bool pan_id_compression, bool *dst_pan, bool *src_pan)
{
    if (dst_pan == NULL || src_pan == NULL || tern_ieee802154_addr_mode(dst_len) < 0 ||
        tern_ieee802154_addr_mode(src_len) < 0) {
        return -EINVAL;
    }
    return pan_ids_of(frame_version, dst_len, src_len, pan_id_compression, dst_pan, src_pan);
}

/* --- header --------------------------------------------------------------- */

/**
 * Check that @p repr can be emitted and say which PAN ID fields it has.
 * @return the MHR length; -EINVAL (see tern_ieee802154_emit()).
 */
static int repr_layout(const tern_ieee802154_repr_t *repr, bool *dst_pan, bool *src_pan)
{
    if (repr == NULL || repr->frame_type > TERN_IEEE802154_FRAME_TYPE_MAC_CMD ||
        repr->frame_version > TERN_IEEE802154_FRAME_VERSION_2015) {
        return -EINVAL;
    }
    /* 2015 frames only as data frames whose fields mean what 2006's mean. */
    if (repr->frame_version == TERN_IEEE802154_FRAME_VERSION_2015 &&
        repr->frame_type != TERN_IEEE802154_FRAME_TYPE_DATA) {
        return -EINVAL;
    }
    if (tern_ieee802154_pan_ids_present(repr->frame_version, repr->dst.len, repr->src.len,
                                        repr->pan_id_compression, dst_pan, src_pan) < 0) {
        return -EINVAL;
    }
    /* Imm-Ack: frame control and sequence number only (2006 §7.2.2.3). */
    if (repr->frame_type == TERN_IEEE802154_FRAME_TYPE_ACK && (repr->dst.len != 0 || repr->src.len != 0)) {
        return -EINVAL;
    }
    /* A source PAN ID elided next to a destination PAN ID is that PAN ID
     * (2006 §7.2.1.1.5; 2015 Table 7-2): a different one cannot be sent. */
    if (repr->src.len != 0 && !*src_pan && *dst_pan && repr->src_pan != repr->dst_pan) {
        return -EINVAL;
    }
    return (int)(TERN_IEEE802154_MHR_MIN_LEN + (*dst_pan ? 2u : 0u) + repr->dst.len +
                 (*src_pan ? 2u : 0u) + repr->src.len);
}

int tern_ieee802154_hdr_len(const tern_ieee802154_repr_t *repr)
{
    bool dst_pan, src_pan;
    return repr_layout(repr, &dst_pan, &src_pan);
}

int tern_ieee802154_max_payload(const tern_ieee802154_repr_t *repr)
{
    int hdr_len = tern_ieee802154_hdr_len(repr);
    if (hdr_len < 0) {
        return hdr_len;
    }
    return (int)TERN_IEEE802154_MAX_FRAME_LEN - hdr_len;
}

/* Little-endian values (IEEE 802.15.4 sends fields least significant octet
 * first, 2006 §7.2) through memcpy, swapped on a big-endian host: one
 * halfword or word access where the target allows it (tern/wire/bytes.h). */

/** Store the little-endian @p value at @p p. */
static void store_le16(uint8_t *p, uint16_t value)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    value = __builtin_bswap16(value);
#endif
    memcpy(p, &value, sizeof(value));
}

/** The little-endian 16-bit value at @p p. */
static uint16_t load_le16(const uint8_t *p)
{
    uint16_t value;
    memcpy(&value, p, sizeof(value));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    value = __builtin_bswap16(value);
#endif
    return value;
}

/** Store the little-endian @p value at @p p. */
static void store_le32(uint8_t *p, uint32_t value)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    value = __builtin_bswap32(value);
#endif
    memcpy(p, &value, sizeof(value));
}

/**
 * @p len bytes of @p src into @p dst in reverse order: addresses are kept in
 * canonical order and sent least significant octet first (2006 §7.2). An
 * extended address, the common case on a 6LoWPAN link, goes as two
 * byte-swapped words (a load and a REV/BSWAP each, where the compiler has them).
 */
static inline void reverse_copy(uint8_t *dst, const uint8_t *src, size_t len)
{
    if (TERN_CONF_FAST_PATHS && len == TERN_IEEE802154_EXT_ADDR_LEN) {
        store_le32(dst, tern_load32(src + 4));
        store_le32(dst + 4, tern_load32(src));
        return;
    }
    for (size_t i = 0; i < len; i++) {
        dst[i] = src[len - 1u - i];
    }
}

/** Write @p addr (canonical order) at @p p in air order: reversed. */
static void store_addr(uint8_t *p, const tern_ieee802154_addr_t *addr)
{
    reverse_copy(p, addr->u8, addr->len);
}

/**
 * Read an address of @p len bytes in air order at @p p into canonical order;
 * the bytes of u8 past @p len are zero (an extended address fills them all).
 */
static void load_addr(tern_ieee802154_addr_t *addr, const uint8_t *p, uint8_t len)
{
    addr->len = len;
    if (len != TERN_IEEE802154_EXT_ADDR_LEN) {
        memset(addr->u8, 0, sizeof(addr->u8));
    }
    reverse_copy(addr->u8, p, len);
}

int tern_ieee802154_emit(const tern_ieee802154_repr_t *repr, size_t payload_len, uint8_t *buf,
                         size_t len)
{
    if (buf == NULL && len != 0) {
        return -EINVAL;
    }
    bool dst_pan, src_pan;
    int hdr_len = repr_layout(repr, &dst_pan, &src_pan);
    if (hdr_len < 0) {
        return hdr_len;
    }
    if (repr->frame_type == TERN_IEEE802154_FRAME_TYPE_ACK && payload_len != 0) {
        return -EINVAL;
    }
    if (payload_len > TERN_IEEE802154_MAX_FRAME_LEN - (size_t)hdr_len) {
        return -EMSGSIZE;
    }
    if (len < (size_t)hdr_len) {
        return -ENOBUFS;
    }
    unsigned fc = repr->frame_type;
    fc |= repr->frame_pending ? FC_FRAME_PENDING : 0u;
    fc |= repr->ack_request ? FC_ACK_REQUEST : 0u;
    fc |= repr->pan_id_compression ? FC_PAN_ID_COMPRESSION : 0u;
    fc |= (unsigned)tern_ieee802154_addr_mode(repr->dst.len) << FC_DST_MODE_SHIFT;
    fc |= (unsigned)repr->frame_version << FC_VERSION_SHIFT;
    fc |= (unsigned)tern_ieee802154_addr_mode(repr->src.len) << FC_SRC_MODE_SHIFT;
    store_le16(&buf[0], (uint16_t)fc);
    buf[2] = repr->seq;
    size_t off = TERN_IEEE802154_MHR_MIN_LEN;
    if (dst_pan) {
        store_le16(&buf[off], repr->dst_pan);
        off += 2;
    }
    store_addr(&buf[off], &repr->dst);
    off += repr->dst.len;
    if (src_pan) {
        store_le16(&buf[off], repr->src_pan);
        off += 2;
    }
    store_addr(&buf[off], &repr->src);
    return hdr_len;
}

int tern_ieee802154_seq_set(uint8_t *mhr, size_t len, uint8_t seq)
{
    if (mhr == NULL || len < TERN_IEEE802154_MHR_MIN_LEN) {
        return -EINVAL;
    }
    mhr[2] = seq; /* frame control (2 octets), then the sequence number */
    return 0;
}

int tern_ieee802154_parse(tern_ieee802154_repr_t *repr, const uint8_t *frame, size_t len)
{
    if (repr == NULL || (frame == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len > TERN_IEEE802154_MAX_FRAME_LEN) {
        return -EMSGSIZE;
    }
    if (len < 2) {
        return -EBADMSG;
    }
    unsigned fc = load_le16(frame);
    unsigned type = fc & FC_TYPE_MASK;
    unsigned version = (fc >> FC_VERSION_SHIFT) & FC_FIELD_MASK;
    /* Types 4-7 first: 2015's multipurpose frames have another frame control
     * layout, so no other subfield can be judged. */
    if (type > TERN_IEEE802154_FRAME_TYPE_MAC_CMD) {
        return -EPROTONOSUPPORT;
    }
    if (version > TERN_IEEE802154_FRAME_VERSION_2015) {
        return -EBADMSG; /* reserved */
    }
    if ((fc & FC_SECURITY) != 0) {
        return -ENOTSUP; /* no 802.15.4 security: the auxiliary header is not even delimited */
    }
    if (version == TERN_IEEE802154_FRAME_VERSION_2015 &&
        (type != TERN_IEEE802154_FRAME_TYPE_DATA || (fc & (FC_SEQ_SUPPRESSION | FC_IE_PRESENT)) != 0)) {
        return -EPROTONOSUPPORT;
    }
    uint8_t dst_len = mode_addr_len((fc >> FC_DST_MODE_SHIFT) & FC_FIELD_MASK);
    uint8_t src_len = mode_addr_len((fc >> FC_SRC_MODE_SHIFT) & FC_FIELD_MASK);
    if (dst_len == 0xff || src_len == 0xff) {
        return -EBADMSG; /* reserved addressing mode 1 */
    }
    bool panc = (fc & FC_PAN_ID_COMPRESSION) != 0;
    bool dst_pan, src_pan;
    if (pan_ids_of((uint8_t)version, dst_len, src_len, panc, &dst_pan, &src_pan) < 0) {
        return -EBADMSG;
    }
    if (type == TERN_IEEE802154_FRAME_TYPE_ACK && (dst_len != 0 || src_len != 0)) {
        return -EBADMSG; /* an Imm-Ack has no addressing fields (2006 §7.2.2.3) */
    }
    size_t hdr_len =
        TERN_IEEE802154_MHR_MIN_LEN + (dst_pan ? 2u : 0u) + dst_len + (src_pan ? 2u : 0u) + src_len;
    if (len < hdr_len) {
        return -EBADMSG;
    }
    if (type == TERN_IEEE802154_FRAME_TYPE_ACK && len != hdr_len) {
        return -EBADMSG; /* nor a payload */
    }

    /* Every check is done: the fields go straight into *repr, every one of
     * them written (the address bytes past their length zeroed). */
    repr->frame_type = (uint8_t)type;
    repr->frame_version = (uint8_t)version;
    repr->frame_pending = (fc & FC_FRAME_PENDING) != 0;
    repr->ack_request = (fc & FC_ACK_REQUEST) != 0;
    repr->pan_id_compression = panc;
    repr->seq = frame[2];
    size_t off = TERN_IEEE802154_MHR_MIN_LEN;
    uint16_t pan = TERN_IEEE802154_PAN_ID_BROADCAST;
    if (dst_pan) {
        pan = load_le16(&frame[off]);
        off += 2;
    }
    repr->dst_pan = pan;
    load_addr(&repr->dst, &frame[off], dst_len);
    off += dst_len;
    if (src_pan) {
        pan = load_le16(&frame[off]);
        off += 2;
    }
    repr->src_pan = pan;
    load_addr(&repr->src, &frame[off], src_len);
    return (int)hdr_len;
}

int tern_ieee802154_parse_fcs(tern_ieee802154_repr_t *repr, const uint8_t *psdu, size_t len)
{
    if (repr == NULL || (psdu == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len > TERN_IEEE802154_MAX_PHY_PACKET_SIZE) {
        return -EMSGSIZE;
    }
    int res = tern_ieee802154_fcs_check(psdu, len);
    if (res < 0) {
        return res;
    }
    return tern_ieee802154_parse(repr, psdu, len - TERN_IEEE802154_FCS_LEN);
}

int tern_ieee802154_ack_emit(uint8_t seq, bool frame_pending, uint8_t *buf, size_t len)
{
    if (buf == NULL) {
        return -EINVAL;
    }
    if (len < TERN_IEEE802154_ACK_PSDU_LEN) {
        return -ENOBUFS;
    }
    store_le16(&buf[0], (uint16_t)(ACK_FRAME_CONTROL | (frame_pending ? FC_FRAME_PENDING : 0u)));
    buf[2] = seq;
    tern_ieee802154_fcs_store(&buf[TERN_IEEE802154_ACK_LEN],
                              tern_ieee802154_crc16(0, buf, TERN_IEEE802154_ACK_LEN));
    return TERN_IEEE802154_ACK_PSDU_LEN;
}

/* --- frame check sequence -------------------------------------------------- */

uint16_t tern_ieee802154_crc16(uint16_t crc, const void *data, size_t len)
{
    /* Bitwise, least significant bit first: each input bit enters at bit 0
     * (the coefficient of x^15 after reflection); small rather than fast. */
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        for (unsigned bit = 0; bit < 8; bit++) {
            crc = (crc & 1u) != 0 ? (uint16_t)((crc >> 1) ^ CRC16_POLY_REFLECTED) : (uint16_t)(crc >> 1);
        }
    }
    return crc;
}

uint16_t tern_ieee802154_fcs(const tern_checksum_span_t *spans, size_t count)
{
    uint16_t crc = 0;
    for (size_t i = 0; i < count; i++) {
        crc = tern_ieee802154_crc16(crc, spans[i].data, spans[i].len);
    }
    return crc;
}

int tern_ieee802154_fcs_append(uint8_t *frame, size_t len, size_t cap)
{
    if (frame == NULL) {
        return -EINVAL;
    }
    if (len > TERN_IEEE802154_MAX_FRAME_LEN) {
        return -EMSGSIZE;
    }
    if (cap < len + TERN_IEEE802154_FCS_LEN) {
        return -ENOBUFS;
    }
    tern_ieee802154_fcs_store(&frame[len], tern_ieee802154_crc16(0, frame, len));
    return (int)(len + TERN_IEEE802154_FCS_LEN);
}

int tern_ieee802154_fcs_check(const uint8_t *psdu, size_t len)
{
    if (psdu == NULL && len != 0) {
        return -EINVAL;
    }
    if (len < TERN_IEEE802154_FCS_LEN) {
        return -EBADMSG;
    }
    /* A CRC without final XOR run over the data followed by its own value
     * (low byte first, matching the bit order) leaves remainder 0. */
    return tern_ieee802154_crc16(0, psdu, len) == 0 ? 0 : -EILSEQ;
}
