/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IPv6 fixed header and extension headers (RFC 8200 §3, §4).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/bytes.h"
#include "tern/wire/checksum.h"
#include "tern/wire/ipv6.h"

/* --- fixed header -------------------------------------------------------- */

int tern_ipv6_parse(tern_ipv6_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < TERN_IPV6_HDR_LEN) {
        return -EBADMSG;
    }
    /* Version (4 bits) | Traffic Class (8) | Flow Label (20) (RFC 8200 §3). */
    uint32_t word = tern_load32(&buf[0]);
    if ((word >> 28) != 6) {
        return -EBADMSG;
    }
    repr->traffic_class = (uint8_t)(word >> 20);
    repr->flow_label = word & TERN_IPV6_FLOW_LABEL_MAX;
    repr->payload_len = tern_load16(&buf[4]);
    repr->next_header = buf[6];
    repr->hop_limit = buf[7];
    memcpy(repr->src.u8, &buf[8], 16);
    memcpy(repr->dst.u8, &buf[24], 16);
    return TERN_IPV6_HDR_LEN;
}

int tern_ipv6_check_len(const tern_ipv6_repr_t *repr, size_t len)
{
    if (repr == NULL) {
        return -EINVAL;
    }
    if (len < TERN_IPV6_HDR_LEN || len - TERN_IPV6_HDR_LEN < repr->payload_len) {
        return -EBADMSG;
    }
    return repr->payload_len;
}

void tern_ipv6_addrs_get(const uint8_t *buf, tern_ipv6_addr_t *src, tern_ipv6_addr_t *dst)
{
    memcpy(src->u8, &buf[8], 16);
    memcpy(dst->u8, &buf[24], 16);
}

int tern_ipv6_upper_sum(const uint8_t *buf, size_t len, const void *upper, size_t upper_len, uint8_t next_header,
                        uint32_t *sum)
{
    if (buf == NULL || sum == NULL || (upper == NULL && upper_len != 0)) {
        return -EINVAL;
    }
    if (len < TERN_IPV6_HDR_LEN) {
        return -EBADMSG;
    }
    /* Source and destination are adjacent in the header (§3), as in the
     * pseudo-header. */
    *sum = tern_checksum_ipv6_upper(&buf[8], upper, upper_len, next_header);
    return 0;
}

size_t tern_ipv6_len(const tern_ipv6_repr_t *repr)
{
    (void)repr;
    return TERN_IPV6_HDR_LEN;
}

int tern_ipv6_emit(const tern_ipv6_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0) || repr->flow_label > TERN_IPV6_FLOW_LABEL_MAX) {
        return -EINVAL;
    }
    if (len < TERN_IPV6_HDR_LEN) {
        return -ENOBUFS;
    }
    tern_store32(&buf[0], (UINT32_C(6) << 28) | ((uint32_t)repr->traffic_class << 20) | repr->flow_label);
    tern_store16(&buf[4], repr->payload_len);
    buf[6] = repr->next_header;
    buf[7] = repr->hop_limit;
    memcpy(&buf[8], repr->src.u8, 16);
    memcpy(&buf[24], repr->dst.u8, 16);
    return TERN_IPV6_HDR_LEN;
}

/* --- extension headers --------------------------------------------------- */

/* Headers in the RFC 8200 §4 / §4.8 format: Next Header, Hdr Ext Len in
 * 8-octet units not counting the first 8. */
static bool is_generic_format(uint8_t type)
{
    switch (type) {
    case TERN_IPV6_NH_HOP_BY_HOP:
    case TERN_IPV6_NH_ROUTING:
    case TERN_IPV6_NH_DEST_OPTS:
    case TERN_IPV6_NH_MOBILITY:    /* RFC 6275 §6.1.1 */
    case TERN_IPV6_NH_HIP:         /* RFC 7401 §5.1 */
    case TERN_IPV6_NH_SHIM6:       /* RFC 5533 §5.1 */
    case TERN_IPV6_NH_EXPERIMENT1: /* RFC 3692, format of RFC 8200 §4.8 */
    case TERN_IPV6_NH_EXPERIMENT2:
        return true;
    default:
        return false;
    }
}

bool tern_ipv6_is_ext_header(uint8_t next_header)
{
    /* The IANA "IPv6 Extension Header Types" registry (RFC 7045 §2). */
    return is_generic_format(next_header) || next_header == TERN_IPV6_NH_FRAGMENT ||
           next_header == TERN_IPV6_NH_ESP || next_header == TERN_IPV6_NH_AH;
}

int tern_ipv6_ext_parse(tern_ipv6_ext_t *ext, uint8_t type, const uint8_t *buf, size_t len)
{
    if (ext == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    size_t hdr_len;
    if (is_generic_format(type)) {
        if (len < 2) {
            return -EBADMSG;
        }
        hdr_len = ((size_t)buf[1] + 1) * 8;
    } else if (type == TERN_IPV6_NH_FRAGMENT) {
        /* Fixed size; its second byte is reserved (RFC 8200 §4.5). */
        hdr_len = TERN_IPV6_FRAG_HDR_LEN;
    } else if (type == TERN_IPV6_NH_AH) {
        if (len < 2) {
            return -EBADMSG;
        }
        /* Payload Len: 4-octet units minus 2 (RFC 4302 §2.2). */
        hdr_len = ((size_t)buf[1] + 2) * 4;
    } else {
        return -EINVAL;
    }
    if (len < hdr_len) {
        return -EBADMSG;
    }
    ext->type = type;
    ext->next_header = buf[0];
    ext->len = (uint16_t)hdr_len;
    ext->offset = 0;
    return (int)hdr_len;
}

int tern_ipv6_ext_emit(const tern_ipv6_ext_t *ext, uint8_t *buf, size_t len)
{
    if (ext == NULL || (buf == NULL && len != 0) || !is_generic_format(ext->type) ||
        ext->len < 8 || ext->len > 2048 || ext->len % 8 != 0) {
        return -EINVAL;
    }
    if (len < ext->len) {
        return -ENOBUFS;
    }
    buf[0] = ext->next_header;
    buf[1] = (uint8_t)(ext->len / 8 - 1);
    return ext->len;
}

void tern_ipv6_ext_walk_init(tern_ipv6_ext_walk_t *walk, const uint8_t *buf, size_t len,
                             uint8_t next_header)
{
    walk->buf = buf;
    walk->len = buf == NULL ? 0 : len;
    walk->offset = 0;
    walk->next_header = next_header;
    walk->done = false;
}

int tern_ipv6_ext_walk_next(tern_ipv6_ext_walk_t *walk, tern_ipv6_ext_t *ext)
{
    if (walk == NULL || ext == NULL || walk->offset > walk->len) {
        return -EINVAL;
    }
    if (walk->done) {
        return 0;
    }
    uint8_t type = walk->next_header;
    /* ESP (50) and No Next Header (59) end the chain as any upper layer does
     * (RFC 8200 §4.7: nothing follows 59 that is to be processed). */
    if (!tern_ipv6_is_ext_header(type) || type == TERN_IPV6_NH_ESP) {
        walk->done = true;
        return 0;
    }
    tern_ipv6_ext_t found;
    const uint8_t *at = walk->buf == NULL ? NULL : walk->buf + walk->offset;
    int res = tern_ipv6_ext_parse(&found, type, at, walk->len - walk->offset);
    if (res < 0) {
        return -EBADMSG;
    }
    found.offset = walk->offset;
    walk->offset += (size_t)res;
    walk->next_header = found.next_header;
    if (type == TERN_IPV6_NH_FRAGMENT) {
        /* A non-first fragment carries fragment data, not headers (§4.5). */
        uint16_t frag_offset = tern_load16(&walk->buf[found.offset + 2]) >> 3;
        if (frag_offset != 0) {
            walk->done = true;
        }
    }
    *ext = found;
    return 1;
}

/* --- options ------------------------------------------------------------- */

tern_ipv6_opt_action_t tern_ipv6_opt_action(uint8_t type)
{
    return (tern_ipv6_opt_action_t)(type >> 6);
}

bool tern_ipv6_opt_may_change(uint8_t type)
{
    return (type & 0x20u) != 0;
}

void tern_ipv6_opt_iter_init(tern_ipv6_opt_iter_t *it, const uint8_t *hdr, size_t len)
{
    it->hdr = hdr;
    it->len = hdr == NULL ? 0 : len;
    /* Options start after Next Header and Hdr Ext Len (RFC 8200 §4.3, §4.6). */
    it->offset = 2;
}

int tern_ipv6_opt_next(tern_ipv6_opt_iter_t *it, tern_ipv6_opt_t *opt)
{
    if (it == NULL || opt == NULL) {
        return -EINVAL;
    }
    while (it->offset < it->len) {
        size_t at = it->offset;
        uint8_t type = it->hdr[at];
        if (type == TERN_IPV6_OPT_PAD1) {
            /* Pad1 has no length or data field (RFC 8200 §4.2). */
            it->offset = at + 1;
            continue;
        }
        if (it->len - at < 2 || it->len - at - 2 < it->hdr[at + 1]) {
            return -EBADMSG; /* the option runs past the end of the header */
        }
        uint8_t data_len = it->hdr[at + 1];
        it->offset = at + 2 + data_len;
        if (type == TERN_IPV6_OPT_PADN) {
            continue;
        }
        opt->type = type;
        opt->data_len = data_len;
        opt->data = &it->hdr[at + 2];
        opt->offset = at;
        return 1;
    }
    return 0;
}

int tern_ipv6_opt_emit(uint8_t *buf, size_t len, uint8_t type, const uint8_t *data,
                       uint8_t data_len)
{
    if ((buf == NULL && len != 0) || (data == NULL && data_len != 0) ||
        type == TERN_IPV6_OPT_PAD1) {
        return -EINVAL;
    }
    if (len < 2u + data_len) {
        return -ENOBUFS;
    }
    buf[0] = type;
    buf[1] = data_len;
    if (data_len != 0) {
        memmove(&buf[2], data, data_len);
    }
    return 2 + data_len;
}

int tern_ipv6_opt_emit_padding(uint8_t *buf, size_t len, size_t n)
{
    if ((buf == NULL && len != 0) || n > 257) {
        return -EINVAL;
    }
    if (len < n) {
        return -ENOBUFS;
    }
    if (n == 1) {
        buf[0] = TERN_IPV6_OPT_PAD1;
    } else if (n >= 2) {
        buf[0] = TERN_IPV6_OPT_PADN;
        buf[1] = (uint8_t)(n - 2);
        memset(&buf[2], 0, n - 2);
    }
    return (int)n;
}

/* --- Fragment header ----------------------------------------------------- */

int tern_ipv6_frag_parse(tern_ipv6_frag_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < TERN_IPV6_FRAG_HDR_LEN) {
        return -EBADMSG;
    }
    /* Next Header | Reserved | Fragment Offset (13) Res (2) M (1) | Identification */
    uint16_t word = tern_load16(&buf[2]);
    repr->next_header = buf[0];
    repr->offset = (uint16_t)(word >> 3);
    repr->more = (word & 1u) != 0;
    repr->identification = tern_load32(&buf[4]);
    return TERN_IPV6_FRAG_HDR_LEN;
}

int tern_ipv6_frag_emit(const tern_ipv6_frag_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0) || repr->offset > TERN_IPV6_FRAG_OFFSET_MAX) {
        return -EINVAL;
    }
    if (len < TERN_IPV6_FRAG_HDR_LEN) {
        return -ENOBUFS;
    }
    buf[0] = repr->next_header;
    buf[1] = 0;
    tern_store16(&buf[2], (uint16_t)((repr->offset << 3) | (repr->more ? 1u : 0u)));
    tern_store32(&buf[4], repr->identification);
    return TERN_IPV6_FRAG_HDR_LEN;
}

/* --- Routing header ------------------------------------------------------ */

int tern_ipv6_routing_parse(tern_ipv6_routing_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < 8) {
        return -EBADMSG;
    }
    size_t hdr_len = ((size_t)buf[1] + 1) * 8;
    if (len < hdr_len) {
        return -EBADMSG;
    }
    repr->next_header = buf[0];
    repr->hdr_ext_len = buf[1];
    repr->routing_type = buf[2];
    repr->segments_left = buf[3];
    repr->data = &buf[4];
    repr->data_len = hdr_len - 4;
    return (int)hdr_len;
}

size_t tern_ipv6_routing_len(const tern_ipv6_routing_repr_t *repr)
{
    return 4 + repr->data_len;
}

int tern_ipv6_routing_emit(const tern_ipv6_routing_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0) || repr->data_len > 2044 ||
        (4 + repr->data_len) % 8 != 0) {
        return -EINVAL;
    }
    size_t hdr_len = tern_ipv6_routing_len(repr);
    if (len < hdr_len) {
        return -ENOBUFS;
    }
    /* Copy the data first: it may overlap the fixed part (re-emitting in place). */
    if (repr->data != NULL) {
        memmove(&buf[4], repr->data, repr->data_len);
    }
    buf[0] = repr->next_header;
    buf[1] = (uint8_t)(hdr_len / 8 - 1);
    buf[2] = repr->routing_type;
    buf[3] = repr->segments_left;
    return (int)hdr_len;
}
