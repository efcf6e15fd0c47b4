/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief LOWPAN_NHC: IPv6 extension headers (RFC 6282 §4.2) and UDP (§4.3).
 *
 * Read first: RFC 6282 §4.1 (NHC identifiers), §4.2 (extension headers: the
 * Length field counts octets after it; trailing Pad1/PadN may be elided; no
 * more than 255 octets), §4.3 (UDP ports, checksum, Length always elided).
 * The IPv6-in-IPv6 encoding (EID 7) is driven from sixlowpan_iphc.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/config.h"
#include "tern/wire/bytes.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/sixlowpan_iphc.h"
#include "tern/wire/udp.h"

#include "sixlowpan_iphc_internal.h"

/* The Length field holds one octet (§4.2: "MUST NOT be used to encode IPv6
 * Extension Headers that have more than 255 octets following the Length
 * field after compression"). */
#define NHC_EXT_DATA_MAX 255u

bool tern_nhc_fragment_ends_chain(uint16_t offset_flags)
{
    /* Fragment Offset (13 bits) | Res (2) | M (1) (RFC 8200 §4.5). */
    return (offset_flags >> 3) != 0 || (offset_flags & 1u) != 0;
}

/* The EID of an extension header type, or -1. */
static int ext_eid(uint8_t type)
{
    switch (type) {
    case TERN_IPV6_NH_HOP_BY_HOP:
        return NHC_EID_HOP_BY_HOP;
    case TERN_IPV6_NH_ROUTING:
        return NHC_EID_ROUTING;
    case TERN_IPV6_NH_FRAGMENT:
        return NHC_EID_FRAGMENT;
    case TERN_IPV6_NH_DEST_OPTS:
        return NHC_EID_DEST_OPTS;
    case TERN_IPV6_NH_MOBILITY:
        return NHC_EID_MOBILITY;
    default:
        return -1;
    }
}

/*
 * Bytes of trailing padding the compressor may leave out of the options
 * header @p hdr of @p len bytes (a multiple of 8): a single trailing Pad1 or
 * PadN of at most 7 octets (§4.2), and only when the decompressor's padding
 * (Pad1 for one byte, else PadN with zero data) re-creates it byte for byte.
 * 0 when there is none or the options are malformed (then the header is
 * carried whole, which is always exact).
 */
static size_t elidable_padding(const uint8_t *hdr, size_t len)
{
    size_t off = 2;
    size_t last = 0;
    while (off < len) {
        last = off;
        if (hdr[off] == TERN_IPV6_OPT_PAD1) {
            off++;
            continue;
        }
        if (len - off < 2 || (size_t)hdr[off + 1] + 2 > len - off) {
            return 0;
        }
        off += (size_t)hdr[off + 1] + 2;
    }
    if (last == 0) {
        return 0;
    }
    size_t n = len - last;
    if (hdr[last] == TERN_IPV6_OPT_PAD1) {
        return n;  /* a Pad1 is one byte: n == 1 */
    }
    if (hdr[last] != TERN_IPV6_OPT_PADN || n > 7) {
        return 0;
    }
    for (size_t i = last + 2; i < len; i++) {
        if (hdr[i] != 0) {
            return 0;
        }
    }
    return n;
}

/* The Length field value for the extension header @p hdr of @p len bytes. */
static size_t ext_data_len(uint8_t type, const uint8_t *hdr, size_t len)
{
    size_t data = len - 2;
    if (type == TERN_IPV6_NH_HOP_BY_HOP || type == TERN_IPV6_NH_DEST_OPTS) {
        data -= elidable_padding(hdr, len);
    }
    return data;
}

bool tern_nhc_encodable(const iphc_writer_t *w, uint8_t type, size_t off, bool after_ip)
{
    if (w->nhc >= TERN_IPHC_NHC_MAX || off > w->end || (!TERN_CONF_SIXLOWPAN_NHC_EXT && type != TERN_IPV6_NH_UDP)) {
        return false; /* (no NHC for extension headers: config.h, RFC 6282 §3.1.1 NH=0) */
    }
    size_t avail = w->end - off;
    const uint8_t *hdr = &w->pkt[off];
    switch (type) {
    case TERN_IPV6_NH_UDP:
        /* The UDP Length is elided (§4.3.3): only when it is the rest of the datagram. */
        return avail >= TERN_UDP_HDR_LEN && tern_load16(&hdr[4]) == w->datagram - off;
    case NHC_NH_IPV6:
        /* The inner Payload Length is elided too. */
        return avail >= TERN_IPV6_HDR_LEN && (hdr[0] >> 4) == 6 &&
               tern_load16(&hdr[4]) == w->datagram - off - TERN_IPV6_HDR_LEN;
    case TERN_IPV6_NH_FRAGMENT:
        /* Its Reserved byte is where the Length goes: elided, so it must be 0. */
        return avail >= TERN_IPV6_FRAG_HDR_LEN && hdr[1] == 0;
    case TERN_IPV6_NH_HOP_BY_HOP:
        /* RFC 8200 §4.1: only right after the IPv6 header. */
        if (!after_ip) {
            return false;
        }
        /* fall through */
    case TERN_IPV6_NH_ROUTING:
    case TERN_IPV6_NH_DEST_OPTS:
    case TERN_IPV6_NH_MOBILITY: {
        tern_ipv6_ext_t ext;
        if (tern_ipv6_ext_parse(&ext, type, hdr, avail) < 0) {
            return false;
        }
        return ext_data_len(type, hdr, ext.len) <= NHC_EXT_DATA_MAX;
    }
    default:
        return false;
    }
}

size_t tern_nhc_ext_emit(iphc_writer_t *w, uint8_t type, size_t off, bool next_compressed)
{
    const uint8_t *hdr = &w->pkt[off];
    size_t len = type == TERN_IPV6_NH_FRAGMENT ? TERN_IPV6_FRAG_HDR_LEN : ((size_t)hdr[1] + 1) * 8;
    size_t data = ext_data_len(type, hdr, len);
    /* 1110 EID NH, the Next Header unless NH=1, Length in octets, then the
     * header from its third byte on (§4.2). */
    iphc_put8(w, (uint8_t)(NHC_EXT_ID | ((unsigned)ext_eid(type) << 1) | (next_compressed ? 1u : 0u)));
    if (!next_compressed) {
        iphc_put8(w, hdr[0]);
    }
    iphc_put8(w, (uint8_t)data);
    iphc_put(w, &hdr[2], data);
    return len;
}

void tern_nhc_udp_emit(iphc_writer_t *w, size_t off)
{
    const uint8_t *udp = &w->pkt[off];
    uint16_t src = tern_load16(&udp[0]);
    uint16_t dst = tern_load16(&udp[2]);
    uint8_t tmp[1 + 4 + 2]; /* identifier, ports in full, checksum */
    uint8_t *start = iphc_begin(w, tmp, sizeof(tmp));
    uint8_t *p = start;
    /* §4.3.3: P=11 when both ports are 0xF0Bx, else 8 bits of a 0xF0xx port.
     * C=0: the checksum is always carried (§4.3.2 allows eliding it only
     * with the upper layer's authorization, which Tern never gives). */
    if ((src & 0xFFF0u) == 0xF0B0u && (dst & 0xFFF0u) == 0xF0B0u) {
        *p++ = NHC_UDP_ID | 3u;
        *p++ = (uint8_t)(((src & 0x0Fu) << 4) | (dst & 0x0Fu));
    } else if ((dst & 0xFF00u) == 0xF000u) {
        *p++ = NHC_UDP_ID | 1u;
        *p++ = udp[0];
        *p++ = udp[1];
        *p++ = udp[3];
    } else if ((src & 0xFF00u) == 0xF000u) {
        *p++ = NHC_UDP_ID | 2u;
        *p++ = udp[1];
        *p++ = udp[2];
        *p++ = udp[3];
    } else {
        *p++ = NHC_UDP_ID;
        memcpy(p, &udp[0], 4);
        p += 4;
    }
    *p++ = udp[6];
    *p++ = udp[7];
    iphc_commit(w, tmp, start, p);
}

int tern_nhc_udp_decode(iphc_reader_t *r, uint8_t id)
{
    if ((id & 0x04u) != 0) {
        /* C=1: recomputing the checksum needs the whole datagram, which a
         * decompressor of one frame does not have (§4.3.2). */
        return -ENOTSUP;
    }
    static const uint8_t ports_len[4] = { 4, 3, 3, 1 };
    unsigned p = id & 3u;
    const uint8_t *b = iphc_take(r, (size_t)ports_len[p] + 2);
    if (b == NULL) {
        return -EBADMSG;
    }
    uint16_t src;
    uint16_t dst;
    switch (p) {
    case 0:
        src = tern_load16(&b[0]);
        dst = tern_load16(&b[2]);
        break;
    case 1:
        src = tern_load16(&b[0]);
        dst = (uint16_t)(0xF000u | b[2]);
        break;
    case 2:
        src = (uint16_t)(0xF000u | b[0]);
        dst = tern_load16(&b[1]);
        break;
    default:
        src = (uint16_t)(0xF0B0u | (b[0] >> 4));
        dst = (uint16_t)(0xF0B0u | (b[0] & 0x0Fu));
        break;
    }
    size_t start = r->out_pos;
    uint8_t *udp = iphc_reserve(r, TERN_UDP_HDR_LEN);
    if (udp == NULL) {
        return -ENOBUFS;
    }
    tern_store16(&udp[0], src);
    tern_store16(&udp[2], dst);
    tern_store16(&udp[4], 0);  /* Length: filled in once the datagram size is known */
    memcpy(&udp[6], &b[ports_len[p]], 2);
    r->udp = true;
    r->udp_off = start;
    return 0;
}

int tern_nhc_ext_decode(iphc_reader_t *r, uint8_t id, bool after_ip, uint8_t *type,
                        bool *next_nhc, size_t *next_pos)
{
    static const uint8_t types[5] = { TERN_IPV6_NH_HOP_BY_HOP, TERN_IPV6_NH_ROUTING,
                                      TERN_IPV6_NH_FRAGMENT, TERN_IPV6_NH_DEST_OPTS,
                                      TERN_IPV6_NH_MOBILITY };
    unsigned eid = (id >> 1) & 7u;
    bool nh = (id & 1u) != 0;
    if (eid >= sizeof(types)) {
        return -EPROTO;  /* 5, 6: reserved; 7 is handled by the caller */
    }
    if (eid == NHC_EID_HOP_BY_HOP && !after_ip) {
        return -EPROTO;  /* RFC 8200 §4.1: Hop-by-Hop only right after IPv6 */
    }
    const uint8_t *fields = iphc_take(r, nh ? 1 : 2);
    if (fields == NULL) {
        return -EBADMSG;
    }
    uint8_t inline_next = nh ? 0 : fields[0];
    size_t length = fields[nh ? 0 : 1];
    const uint8_t *data = iphc_take(r, length);
    if (data == NULL) {
        return -EBADMSG;
    }
    size_t total;
    switch (eid) {
    case NHC_EID_FRAGMENT:
        if (length != TERN_IPV6_FRAG_HDR_LEN - 2) {
            return -EPROTO;
        }
        /* A non-first or non-last fragment: what follows is fragment data,
         * no NHC header can follow. */
        if (nh && tern_nhc_fragment_ends_chain(tern_load16(data))) {
            return -EPROTO;
        }
        total = TERN_IPV6_FRAG_HDR_LEN;
        break;
    case NHC_EID_HOP_BY_HOP:
    case NHC_EID_DEST_OPTS:
        /* §4.2: the decompressor pads the header out to a multiple of 8. */
        total = (2 + length + 7) & ~(size_t)7;
        break;
    default:
        /* Routing and Mobility carry no padding that could be re-created. */
        if ((2 + length) % 8 != 0) {
            return -EPROTO;
        }
        total = 2 + length;
        break;
    }
    size_t start = r->out_pos;
    uint8_t *hdr = iphc_reserve(r, total);
    if (hdr == NULL) {
        return -ENOBUFS;
    }
    hdr[0] = inline_next;
    /* Hdr Ext Len in 8-octet units beyond the first 8; Reserved (0) for Fragment. */
    hdr[1] = eid == NHC_EID_FRAGMENT ? 0 : (uint8_t)(total / 8 - 1);
    memcpy(&hdr[2], data, length);
    size_t pad = total - 2 - length;
    if (pad == 1) {
        hdr[2 + length] = TERN_IPV6_OPT_PAD1;
    } else if (pad > 1) {
        hdr[2 + length] = TERN_IPV6_OPT_PADN;
        hdr[3 + length] = (uint8_t)(pad - 2);
        memset(&hdr[4 + length], 0, pad - 2);
    }
    *type = types[eid];
    *next_nhc = nh;
    *next_pos = start;
    return 0;
}
