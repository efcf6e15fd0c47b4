/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 6LoWPAN dispatch and encapsulation headers (RFC 4944 §5, RFC 6282 §2,
 *        RFC 8025 §3, RFC 8066 §3).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/config.h"
#include "tern/wire/bytes.h"
#include "tern/wire/sixlowpan.h"

/* ---- Dispatch (RFC 4944 §5.1 as updated) ----------------------------------- */

/* The classification, inline for the header walk below (every frame comes through it). */
static inline tern_sixlowpan_dispatch_t classify(uint8_t dispatch)
{
    switch (dispatch & 0xC0u) {
    case 0x00u:
        return TERN_SIXLOWPAN_DISPATCH_NALP;
    case 0x80u:
        return TERN_SIXLOWPAN_DISPATCH_MESH;
    case 0x40u:
        /* RFC 6282 §3.1: 011xxxxx is LOWPAN_IPHC; §5 takes 0x7F (RFC 4944's
         * ESC) for it and RFC 8066 §3 moves ESC to 0x40. */
        if ((dispatch & TERN_SIXLOWPAN_DISPATCH_IPHC_MASK) == TERN_SIXLOWPAN_DISPATCH_IPHC_VALUE) {
            return TERN_SIXLOWPAN_DISPATCH_IPHC;
        }
        switch (dispatch) {
        case TERN_SIXLOWPAN_DISPATCH_ESC_VALUE:
            return TERN_SIXLOWPAN_DISPATCH_ESC;
        case TERN_SIXLOWPAN_DISPATCH_IPV6_VALUE:
            return TERN_SIXLOWPAN_DISPATCH_IPV6;
        case TERN_SIXLOWPAN_DISPATCH_HC1_VALUE:
            return TERN_SIXLOWPAN_DISPATCH_HC1;
        case TERN_SIXLOWPAN_DISPATCH_BC0_VALUE:
            return TERN_SIXLOWPAN_DISPATCH_BC0;
        default:
            return TERN_SIXLOWPAN_DISPATCH_RESERVED; /* 0x43-0x4F, 0x51-0x5F */
        }
    default: /* 11xxxxxx */
        if ((dispatch & TERN_SIXLOWPAN_DISPATCH_FRAG_MASK) == TERN_SIXLOWPAN_DISPATCH_FRAG1_VALUE) {
            return TERN_SIXLOWPAN_DISPATCH_FRAG1;
        }
        if ((dispatch & TERN_SIXLOWPAN_DISPATCH_FRAG_MASK) == TERN_SIXLOWPAN_DISPATCH_FRAGN_VALUE) {
            return TERN_SIXLOWPAN_DISPATCH_FRAGN;
        }
        if ((dispatch & TERN_SIXLOWPAN_DISPATCH_RFRAG_MASK) == TERN_SIXLOWPAN_DISPATCH_RFRAG_VALUE) {
            return TERN_SIXLOWPAN_DISPATCH_RFRAG;
        }
        if ((dispatch & TERN_SIXLOWPAN_DISPATCH_PAGE_MASK) == TERN_SIXLOWPAN_DISPATCH_PAGE_VALUE) {
            return TERN_SIXLOWPAN_DISPATCH_PAGE;
        }
        return TERN_SIXLOWPAN_DISPATCH_RESERVED; /* 0xC8-0xDF, 0xEC-0xEF */
    }
}

tern_sixlowpan_dispatch_t tern_sixlowpan_dispatch_classify(uint8_t dispatch)
{
    return classify(dispatch);
}

/* ---- Fragment headers (RFC 4944 §5.3) --------------------------------------- */

/*
 *  FRAG1:  |1 1 0 0 0| datagram_size (11) | datagram_tag (16) |
 *  FRAGN:  |1 1 1 0 0| datagram_size (11) | datagram_tag (16) | datagram_offset (8) |
 */
/* tern_sixlowpan_frag_parse() for non-NULL pointers, inline for the header walk below. */
static inline int frag_parse(tern_sixlowpan_frag_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (len < TERN_SIXLOWPAN_FRAG1_LEN) {
        return -EBADMSG;
    }
    uint8_t kind = (uint8_t)(buf[0] & TERN_SIXLOWPAN_DISPATCH_FRAG_MASK);
    bool first = (kind == TERN_SIXLOWPAN_DISPATCH_FRAG1_VALUE);
    if (!first && kind != TERN_SIXLOWPAN_DISPATCH_FRAGN_VALUE) {
        return -EBADMSG;
    }
    size_t hdr_len = first ? TERN_SIXLOWPAN_FRAG1_LEN : TERN_SIXLOWPAN_FRAGN_LEN;
    if (len < hdr_len) {
        return -EBADMSG;
    }
    uint16_t size = (uint16_t)(tern_load16(buf) & TERN_SIXLOWPAN_FRAG_SIZE_MAX);
    uint8_t offset = first ? 0u : buf[4];
    /* A datagram has at least one octet, and a fragment starts inside it:
     * the header alone rules out anything else. */
    if (size == 0 || (size_t)offset * TERN_SIXLOWPAN_FRAG_UNIT >= size) {
        return -EBADMSG;
    }
    repr->first = first;
    repr->datagram_size = size;
    repr->datagram_tag = tern_load16(buf + 2);
    repr->datagram_offset = offset;
    return (int)hdr_len;
}

int tern_sixlowpan_frag_parse(tern_sixlowpan_frag_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    return frag_parse(repr, buf, len);
}

size_t tern_sixlowpan_frag_len(const tern_sixlowpan_frag_repr_t *repr)
{
    return repr->first ? TERN_SIXLOWPAN_FRAG1_LEN : TERN_SIXLOWPAN_FRAGN_LEN;
}

int tern_sixlowpan_frag_emit(const tern_sixlowpan_frag_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0) || repr->datagram_size == 0 ||
        repr->datagram_size > TERN_SIXLOWPAN_FRAG_SIZE_MAX ||
        (repr->first && repr->datagram_offset != 0) ||
        (size_t)repr->datagram_offset * TERN_SIXLOWPAN_FRAG_UNIT >= repr->datagram_size) {
        return -EINVAL;
    }
    size_t need = tern_sixlowpan_frag_len(repr);
    if (len < need) {
        return -ENOBUFS;
    }
    uint16_t dispatch = repr->first ? TERN_SIXLOWPAN_DISPATCH_FRAG1_VALUE : TERN_SIXLOWPAN_DISPATCH_FRAGN_VALUE;
    tern_store16(buf, (uint16_t)((dispatch << 8) | repr->datagram_size));
    tern_store16(buf + 2, repr->datagram_tag);
    if (!repr->first) {
        buf[4] = repr->datagram_offset;
    }
    return (int)need;
}

/* ---- Mesh Addressing header (RFC 4944 §5.2) --------------------------------- */

/*  |1 0|V|F|HopsLft| [Deep Hops Left] | originator (2 or 8) | final (2 or 8) | */
#define MESH_V 0x20u
#define MESH_F 0x10u
#define MESH_HOPS 0x0Fu

int tern_sixlowpan_mesh_parse(tern_sixlowpan_mesh_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < 1 || (buf[0] & TERN_SIXLOWPAN_DISPATCH_MESH_MASK) != TERN_SIXLOWPAN_DISPATCH_MESH_VALUE) {
        return -EBADMSG;
    }
    /* V and F: 0 for an EUI-64, 1 for a 16-bit short address. */
    size_t orig_len = (buf[0] & MESH_V) ? TERN_SIXLOWPAN_MESH_SHORT_LEN : TERN_SIXLOWPAN_MESH_EXT_LEN;
    size_t final_len = (buf[0] & MESH_F) ? TERN_SIXLOWPAN_MESH_SHORT_LEN : TERN_SIXLOWPAN_MESH_EXT_LEN;
    bool deep = (buf[0] & MESH_HOPS) == TERN_SIXLOWPAN_MESH_DEEP_HOPS;
    size_t need = 1u + (deep ? 1u : 0u) + orig_len + final_len;
    if (len < need) {
        return -EBADMSG;
    }
    size_t pos = 1;
    repr->hops_left = deep ? buf[pos++] : (uint8_t)(buf[0] & MESH_HOPS);
    repr->originator_len = (uint8_t)orig_len;
    repr->final_len = (uint8_t)final_len;
    memset(repr->originator, 0, sizeof(repr->originator));
    memset(repr->final, 0, sizeof(repr->final));
    memcpy(repr->originator, buf + pos, orig_len);
    memcpy(repr->final, buf + pos + orig_len, final_len);
    return (int)need;
}

static bool mesh_addr_len_ok(uint8_t len)
{
    return len == TERN_SIXLOWPAN_MESH_SHORT_LEN || len == TERN_SIXLOWPAN_MESH_EXT_LEN;
}

size_t tern_sixlowpan_mesh_len(const tern_sixlowpan_mesh_repr_t *repr)
{
    if (!mesh_addr_len_ok(repr->originator_len) || !mesh_addr_len_ok(repr->final_len)) {
        return 0;
    }
    size_t deep = repr->hops_left >= TERN_SIXLOWPAN_MESH_DEEP_HOPS ? 1u : 0u;
    return 1u + deep + repr->originator_len + repr->final_len;
}

int tern_sixlowpan_mesh_emit(const tern_sixlowpan_mesh_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    size_t need = tern_sixlowpan_mesh_len(repr);
    if (need == 0) {
        return -EINVAL;
    }
    if (len < need) {
        return -ENOBUFS;
    }
    bool deep = repr->hops_left >= TERN_SIXLOWPAN_MESH_DEEP_HOPS;
    uint8_t first = TERN_SIXLOWPAN_DISPATCH_MESH_VALUE;
    first |= (repr->originator_len == TERN_SIXLOWPAN_MESH_SHORT_LEN) ? MESH_V : 0u;
    first |= (repr->final_len == TERN_SIXLOWPAN_MESH_SHORT_LEN) ? MESH_F : 0u;
    first |= deep ? TERN_SIXLOWPAN_MESH_DEEP_HOPS : repr->hops_left;
    size_t pos = 0;
    buf[pos++] = first;
    if (deep) {
        buf[pos++] = repr->hops_left;
    }
    memcpy(buf + pos, repr->originator, repr->originator_len);
    pos += repr->originator_len;
    memcpy(buf + pos, repr->final, repr->final_len);
    return (int)need;
}

/* ---- Broadcast header (RFC 4944 §11.1) and uncompressed IPv6 (§5.1) -------- */

int tern_sixlowpan_bc0_parse(uint8_t *sequence, const uint8_t *buf, size_t len)
{
    if (sequence == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < TERN_SIXLOWPAN_BC0_LEN || buf[0] != TERN_SIXLOWPAN_DISPATCH_BC0_VALUE) {
        return -EBADMSG;
    }
    *sequence = buf[1];
    return (int)TERN_SIXLOWPAN_BC0_LEN;
}

int tern_sixlowpan_bc0_emit(uint8_t sequence, uint8_t *buf, size_t len)
{
    if (buf == NULL && len != 0) {
        return -EINVAL;
    }
    if (len < TERN_SIXLOWPAN_BC0_LEN) {
        return -ENOBUFS;
    }
    buf[0] = TERN_SIXLOWPAN_DISPATCH_BC0_VALUE;
    buf[1] = sequence;
    return (int)TERN_SIXLOWPAN_BC0_LEN;
}

int tern_sixlowpan_ipv6_dispatch_parse(const uint8_t *buf, size_t len)
{
    if (buf == NULL && len != 0) {
        return -EINVAL;
    }
    if (len < TERN_SIXLOWPAN_IPV6_DISPATCH_LEN || buf[0] != TERN_SIXLOWPAN_DISPATCH_IPV6_VALUE) {
        return -EBADMSG;
    }
    return (int)TERN_SIXLOWPAN_IPV6_DISPATCH_LEN;
}

int tern_sixlowpan_ipv6_dispatch_emit(uint8_t *buf, size_t len)
{
    if (buf == NULL && len != 0) {
        return -EINVAL;
    }
    if (len < TERN_SIXLOWPAN_IPV6_DISPATCH_LEN) {
        return -ENOBUFS;
    }
    buf[0] = TERN_SIXLOWPAN_DISPATCH_IPV6_VALUE;
    return (int)TERN_SIXLOWPAN_IPV6_DISPATCH_LEN;
}

/* ---- The header stack (RFC 4944 §5) ----------------------------------------- */

int tern_sixlowpan_hdrs_parse(tern_sixlowpan_hdrs_t *hdrs, const uint8_t *buf, size_t len)
{
    if (hdrs == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    /* Most frames of a fragmented datagram: a FRAGN first, its data after. */
    if (TERN_CONF_FAST_PATHS && len > TERN_SIXLOWPAN_FRAGN_LEN &&
        (buf[0] & TERN_SIXLOWPAN_DISPATCH_FRAG_MASK) == TERN_SIXLOWPAN_DISPATCH_FRAGN_VALUE) {
        tern_sixlowpan_frag_repr_t frag;
        if (frag_parse(&frag, buf, len) < 0) {
            return -EBADMSG;
        }
        hdrs->has_mesh = false;
        hdrs->has_bc0 = false;
        hdrs->has_frag = true;
        hdrs->bc0_sequence = 0;
        memset(&hdrs->mesh, 0, sizeof(hdrs->mesh));
        hdrs->frag = frag;
        hdrs->payload = TERN_SIXLOWPAN_FRAGN_LEN;
        return 0;
    }
    tern_sixlowpan_hdrs_t h;
    memset(&h, 0, sizeof(h));
    size_t pos = 0;
    /* §5: "Mesh Addressing Header, Broadcast Header, Fragmentation Header",
     * each at most once, in that order; then the payload. */
    while (pos < len) {
        int rc;
        switch (classify(buf[pos])) {
        case TERN_SIXLOWPAN_DISPATCH_NALP:
            /* Only meaningful as the first octet, and then it means "not a
             * LoWPAN frame" (§5.1, RFC 8025 §4): nothing for us either way. */
            return -EBADMSG;
        case TERN_SIXLOWPAN_DISPATCH_MESH:
            if (h.has_mesh || h.has_bc0 || h.has_frag) {
                return -EBADMSG;
            }
            rc = tern_sixlowpan_mesh_parse(&h.mesh, buf + pos, len - pos);
            h.has_mesh = true;
            break;
        case TERN_SIXLOWPAN_DISPATCH_BC0:
            if (h.has_bc0 || h.has_frag) {
                return -EBADMSG;
            }
            rc = tern_sixlowpan_bc0_parse(&h.bc0_sequence, buf + pos, len - pos);
            h.has_bc0 = true;
            break;
        case TERN_SIXLOWPAN_DISPATCH_FRAG1:
        case TERN_SIXLOWPAN_DISPATCH_FRAGN:
            if (h.has_frag) {
                return -EBADMSG;
            }
            rc = frag_parse(&h.frag, buf + pos, len - pos);
            h.has_frag = true;
            break;
        default:
            rc = 0; /* the payload dispatch */
            break;
        }
        if (rc < 0) {
            return rc;
        }
        if (rc == 0) {
            break;
        }
        pos += (size_t)rc;
        if (h.has_frag && !h.frag.first) {
            break; /* after a FRAGN come datagram bytes, not a dispatch */
        }
    }
    if (pos >= len) {
        return -EBADMSG; /* headers and nothing they could be about */
    }
    h.payload = pos;
    *hdrs = h;
    return 0;
}
