/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 6LoWPAN Neighbor Discovery options and messages (RFC 6775 §4, RFC 8505 §4).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/bytes.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ndp.h"
#include "tern/wire/ndp_6lo.h"

/* An option as the walk in ndp.c yields it: whole units, at least one. */
static bool opt_ok(const tern_ndp_opt_t *opt, uint8_t type)
{
    return opt->data != NULL && opt->type == type && opt->len >= TERN_NDP_OPT_UNIT &&
           opt->len % TERN_NDP_OPT_UNIT == 0 && opt->data[0] == type;
}

static bool rovr_len_ok(size_t len)
{
    return len >= TERN_NDP_6LO_ROVR_MIN && len <= TERN_NDP_6LO_ROVR_MAX && len % 8u == 0;
}

/* ---- (Extended) Address Registration Option --------------------------------- */

/*
 *  |   Type = 33   |    Length     |    Status     | Opaque (Rsvd) |
 *  |Rsvd | I |R|T  |  TID (Rsvd)   |     Registration Lifetime     |
 *  |            ROVR (EARO, 64..256 bits) / EUI-64 (ARO)            |
 */
int tern_ndp_6lo_aro_parse(tern_ndp_6lo_aro_t *repr, const tern_ndp_opt_t *opt)
{
    if (repr == NULL || opt == NULL) {
        return -EINVAL;
    }
    if (!opt_ok(opt, TERN_NDP_OPT_ARO) || opt->len < TERN_NDP_6LO_ARO_LEN) {
        return -EBADMSG;
    }
    const uint8_t *p = opt->data;
    bool extended = (p[4] & TERN_NDP_6LO_EARO_FLAG_T) != 0;
    size_t rovr_len = opt->len - TERN_NDP_OPT_UNIT;
    /* RFC 6775 §6.5: an ARO whose Length is not 2 is ignored. RFC 8505
     * §4.1/§5.1: an EARO carries a ROVR of 64, 128, 192 or 256 bits. */
    if ((!extended && opt->len != TERN_NDP_6LO_ARO_LEN) || !rovr_len_ok(rovr_len)) {
        return -EBADMSG;
    }
    uint8_t i = (uint8_t)((p[4] & TERN_NDP_6LO_EARO_I_MASK) >> TERN_NDP_6LO_EARO_I_SHIFT);
    if (extended && i != 0) {
        return -EBADMSG; /* RFC 8505 §4.1: values other than 0 are reserved */
    }
    memset(repr, 0, sizeof(*repr));
    repr->status = p[2];
    repr->extended = extended;
    if (extended) {
        /* Without T these octets are RFC 6775's Reserved: ignored. */
        repr->opaque = p[3];
        repr->r = (p[4] & TERN_NDP_6LO_EARO_FLAG_R) != 0;
        repr->tid = p[5];
    }
    repr->lifetime = tern_load16(p + 6);
    repr->rovr_len = (uint8_t)rovr_len;
    memcpy(repr->rovr, p + 8, rovr_len);
    return 0;
}

size_t tern_ndp_6lo_aro_len(const tern_ndp_6lo_aro_t *repr)
{
    return rovr_len_ok(repr->rovr_len) ? TERN_NDP_OPT_UNIT + repr->rovr_len : 0u;
}

int tern_ndp_6lo_aro_emit(const tern_ndp_6lo_aro_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    size_t need = tern_ndp_6lo_aro_len(repr);
    if (need == 0 || repr->i != 0 ||
        (!repr->extended && (need != TERN_NDP_6LO_ARO_LEN || repr->opaque != 0 || repr->r || repr->tid != 0))) {
        return -EINVAL;
    }
    if (len < need) {
        return -ENOBUFS;
    }
    buf[0] = TERN_NDP_OPT_ARO;
    buf[1] = (uint8_t)(need / TERN_NDP_OPT_UNIT);
    buf[2] = repr->status;
    buf[3] = repr->opaque;
    buf[4] = (uint8_t)((repr->r ? TERN_NDP_6LO_EARO_FLAG_R : 0u) |
                       (repr->extended ? TERN_NDP_6LO_EARO_FLAG_T : 0u));
    buf[5] = repr->tid;
    tern_store16(buf + 6, repr->lifetime);
    memcpy(buf + 8, repr->rovr, repr->rovr_len);
    return (int)need;
}

/* ---- 6LoWPAN Context Option ------------------------------------------------- */

/*
 *  |   Type = 34   |  Length 2/3   |Context Length | Res |C|  CID  |
 *  |            Reserved           |         Valid Lifetime        |
 *  |              Context Prefix (8 or 16 octets)                  |
 */
#define CO_FLAG_C 0x10u
#define CO_CID_MASK 0x0Fu
#define CO_CONTEXT_MAX 128u
#define CO_SHORT_CONTEXT_MAX 64u

int tern_ndp_6lo_6co_parse(tern_ndp_6lo_6co_t *repr, const tern_ndp_opt_t *opt)
{
    if (repr == NULL || opt == NULL) {
        return -EINVAL;
    }
    if (!opt_ok(opt, TERN_NDP_OPT_6CO) ||
        (opt->len != TERN_NDP_6LO_6CO_SHORT_LEN && opt->len != TERN_NDP_6LO_6CO_LONG_LEN)) {
        return -EBADMSG;
    }
    const uint8_t *p = opt->data;
    /* §4.2: Context Length 0..128; "If it is more than 64, then the Length MUST be 3". */
    if (p[2] > CO_CONTEXT_MAX || (p[2] > CO_SHORT_CONTEXT_MAX && opt->len != TERN_NDP_6LO_6CO_LONG_LEN)) {
        return -EBADMSG;
    }
    memset(repr, 0, sizeof(*repr));
    repr->context_len = p[2];
    repr->compression = (p[3] & CO_FLAG_C) != 0;
    repr->cid = (uint8_t)(p[3] & CO_CID_MASK);
    repr->lifetime = tern_load16(p + 6);
    memcpy(repr->prefix.u8, p + 8, opt->len - 8u);
    return 0;
}

size_t tern_ndp_6lo_6co_len(const tern_ndp_6lo_6co_t *repr)
{
    if (repr->context_len > CO_CONTEXT_MAX) {
        return 0;
    }
    return repr->context_len > CO_SHORT_CONTEXT_MAX ? TERN_NDP_6LO_6CO_LONG_LEN : TERN_NDP_6LO_6CO_SHORT_LEN;
}

int tern_ndp_6lo_6co_emit(const tern_ndp_6lo_6co_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    size_t need = tern_ndp_6lo_6co_len(repr);
    if (need == 0 || repr->cid > CO_CID_MASK) {
        return -EINVAL;
    }
    if (len < need) {
        return -ENOBUFS;
    }
    buf[0] = TERN_NDP_OPT_6CO;
    buf[1] = (uint8_t)(need / TERN_NDP_OPT_UNIT);
    buf[2] = repr->context_len;
    buf[3] = (uint8_t)((repr->compression ? CO_FLAG_C : 0u) | repr->cid);
    tern_store16(buf + 4, 0);
    tern_store16(buf + 6, repr->lifetime);
    memcpy(buf + 8, repr->prefix.u8, need - 8u);
    return (int)need;
}

/* ---- Authoritative Border Router Option ------------------------------------- */

/*
 *  |   Type = 35   |  Length = 3   |          Version Low          |
 *  |          Version High         |         Valid Lifetime        |
 *  |                    6LBR Address (16 octets)                   |
 */
int tern_ndp_6lo_abro_parse(tern_ndp_6lo_abro_t *repr, const tern_ndp_opt_t *opt)
{
    if (repr == NULL || opt == NULL) {
        return -EINVAL;
    }
    if (!opt_ok(opt, TERN_NDP_OPT_ABRO) || opt->len != TERN_NDP_6LO_ABRO_LEN) {
        return -EBADMSG;
    }
    const uint8_t *p = opt->data;
    repr->version = (uint32_t)tern_load16(p + 2) | ((uint32_t)tern_load16(p + 4) << 16);
    repr->lifetime = tern_load16(p + 6);
    memcpy(repr->border_router.u8, p + 8, 16);
    return 0;
}

int tern_ndp_6lo_abro_emit(const tern_ndp_6lo_abro_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < TERN_NDP_6LO_ABRO_LEN) {
        return -ENOBUFS;
    }
    buf[0] = TERN_NDP_OPT_ABRO;
    buf[1] = TERN_NDP_6LO_ABRO_LEN / TERN_NDP_OPT_UNIT;
    tern_store16(buf + 2, (uint16_t)repr->version);
    tern_store16(buf + 4, (uint16_t)(repr->version >> 16));
    tern_store16(buf + 6, repr->lifetime);
    memcpy(buf + 8, repr->border_router.u8, 16);
    return (int)TERN_NDP_6LO_ABRO_LEN;
}

/* ---- (Extended) Duplicate Address Request / Confirmation -------------------- */

/*
 *  |     Type      |CodePfx|CodeSfx|           Checksum            |
 *  |    Status     |  TID (Rsvd)   |     Registration Lifetime     |
 *  |            ROVR (Code Suffix x 64 bits) / EUI-64 (Code 0)      |
 *  |                  Registered Address (16 octets)               |
 */
#define DAR_FIXED 8u
#define DAR_CODE_SUFFIX_MAX 4u

int tern_ndp_6lo_dar_parse(tern_ndp_6lo_dar_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < DAR_FIXED || (buf[0] != TERN_NDP_6LO_DAR && buf[0] != TERN_NDP_6LO_DAC)) {
        return -EBADMSG;
    }
    /* RFC 8505 §4.4: Code Prefix 0; Code Suffix 0 is the RFC 6775 message
     * (no TID, EUI-64), 1..4 the ROVR size in units of 64 bits. */
    uint8_t prefix = (uint8_t)(buf[1] >> 4);
    uint8_t suffix = (uint8_t)(buf[1] & 0x0Fu);
    if (prefix != 0 || suffix > DAR_CODE_SUFFIX_MAX) {
        return -EBADMSG;
    }
    bool extended = suffix != 0;
    size_t rovr_len = extended ? (size_t)suffix * 8u : TERN_NDP_6LO_ROVR_MIN;
    size_t need = DAR_FIXED + rovr_len + 16u;
    if (len < need) {
        return -EBADMSG;
    }
    memset(repr, 0, sizeof(*repr));
    repr->type = buf[0];
    repr->status = buf[4];
    repr->extended = extended;
    repr->tid = extended ? buf[5] : 0u; /* RFC 6775: Reserved, ignored */
    repr->lifetime = tern_load16(buf + 6);
    repr->rovr_len = (uint8_t)rovr_len;
    memcpy(repr->rovr, buf + DAR_FIXED, rovr_len);
    memcpy(repr->registered.u8, buf + DAR_FIXED + rovr_len, 16);
    return (int)need;
}

size_t tern_ndp_6lo_dar_len(const tern_ndp_6lo_dar_repr_t *repr)
{
    return rovr_len_ok(repr->rovr_len) ? DAR_FIXED + repr->rovr_len + 16u : 0u;
}

int tern_ndp_6lo_dar_emit(const tern_ndp_6lo_dar_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    size_t need = tern_ndp_6lo_dar_len(repr);
    /* RFC 6775 §4.4: the Status "MUST be set to 0 in DAR". */
    if (need == 0 || (repr->type != TERN_NDP_6LO_DAR && repr->type != TERN_NDP_6LO_DAC) ||
        (repr->type == TERN_NDP_6LO_DAR && repr->status != 0) ||
        (!repr->extended && (repr->rovr_len != TERN_NDP_6LO_ROVR_MIN || repr->tid != 0))) {
        return -EINVAL;
    }
    if (len < need) {
        return -ENOBUFS;
    }
    buf[0] = repr->type;
    buf[1] = repr->extended ? (uint8_t)(repr->rovr_len / 8u) : 0u;
    tern_store16(buf + 2, 0); /* checksum, filled last */
    buf[4] = repr->status;
    buf[5] = repr->tid;
    tern_store16(buf + 6, repr->lifetime);
    memcpy(buf + DAR_FIXED, repr->rovr, repr->rovr_len);
    memcpy(buf + DAR_FIXED + repr->rovr_len, repr->registered.u8, 16);
    return (int)need;
}
