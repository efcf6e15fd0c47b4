/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Multicast Listener Discovery messages: MLDv2 (RFC 3810 §5) and MLDv1 (RFC 2710 §3).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/bytes.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/mld.h"

/* ---- Floating-point codes (RFC 3810 §5.1.3, §5.1.9) ---------------------------- */

uint32_t tern_mld_max_resp_code_decode(uint16_t code)
{
    if (code < 0x8000u) {
        return code;
    }
    /* 1 | exp (3) | mant (12): (mant | 0x1000) << (exp + 3) */
    uint32_t exp = (code >> 12) & 0x7u;
    uint32_t mant = code & 0x0fffu;
    return (mant | 0x1000u) << (exp + 3u);
}

uint16_t tern_mld_max_resp_code_encode(uint32_t delay_ms)
{
    if (delay_ms < 0x8000u) {
        return (uint16_t)delay_ms;
    }
    for (uint32_t exp = 0; exp < 8u; exp++) {
        uint32_t mant = delay_ms >> (exp + 3u);
        if (mant <= 0x1fffu) {
            return (uint16_t)(0x8000u | (exp << 12) | (mant & 0x0fffu));
        }
    }
    return 0xffffu;
}

uint32_t tern_mld_qqic_decode(uint8_t code)
{
    if (code < 0x80u) {
        return code;
    }
    /* 1 | exp (3) | mant (4): (mant | 0x10) << (exp + 3) */
    uint32_t exp = (code >> 4) & 0x7u;
    uint32_t mant = code & 0x0fu;
    return (mant | 0x10u) << (exp + 3u);
}

uint8_t tern_mld_qqic_encode(uint32_t interval_s)
{
    if (interval_s < 0x80u) {
        return (uint8_t)interval_s;
    }
    for (uint32_t exp = 0; exp < 8u; exp++) {
        uint32_t mant = interval_s >> (exp + 3u);
        if (mant <= 0x1fu) {
            return (uint8_t)(0x80u | (exp << 4) | (mant & 0x0fu));
        }
    }
    return 0xffu;
}

/* ---- Query (RFC 3810 §5.1, RFC 2710 §3) ---------------------------------------- */

int tern_mld_query_parse(tern_mld_query_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (len < TERN_MLD_V1_LEN || buf[0] != TERN_ICMPV6_MLD_QUERY) {
        return -EBADMSG;
    }
    /* §8.1: 24 octets is an MLDv1 query, 28 or more an MLDv2 query; other
     * lengths "MUST be silently ignored". */
    if (len > TERN_MLD_V1_LEN && len < TERN_MLD_V2_QUERY_MIN_LEN) {
        return -EBADMSG;
    }
    uint16_t sources = 0;
    size_t used = TERN_MLD_V1_LEN;
    if (len >= TERN_MLD_V2_QUERY_MIN_LEN) {
        sources = tern_load16(buf + 26);
        used = TERN_MLD_V2_QUERY_MIN_LEN + (size_t)sources * 16u;
        if (used > len) {
            return -EBADMSG;
        }
    }
    repr->max_resp_code = tern_load16(buf + 4);
    memcpy(repr->group.u8, buf + 8, 16);
    if (len == TERN_MLD_V1_LEN) {
        /* RFC 2710 §3.4: Maximum Response Delay in milliseconds. */
        repr->version = 1;
        repr->max_resp_delay_ms = repr->max_resp_code;
        repr->suppress = false;
        repr->qrv = 0;
        repr->qqic = 0;
        repr->qqi_s = 0;
        repr->sources = NULL;
        repr->source_count = 0;
        return (int)used;
    }
    repr->version = 2;
    repr->max_resp_delay_ms = tern_mld_max_resp_code_decode(repr->max_resp_code);
    /* Octet 24: Resv (4) | S (1) | QRV (3), §5.1.6, §5.1.7. */
    repr->suppress = (buf[24] & 0x08u) != 0;
    repr->qrv = buf[24] & 0x07u;
    repr->qqic = buf[25];
    repr->qqi_s = tern_mld_qqic_decode(repr->qqic);
    repr->sources = buf + TERN_MLD_V2_QUERY_MIN_LEN;
    repr->source_count = sources;
    return (int)used;
}

size_t tern_mld_query_len(const tern_mld_query_repr_t *repr)
{
    if (repr->version == 1) {
        return TERN_MLD_V1_LEN;
    }
    if (repr->version == 2) {
        return TERN_MLD_V2_QUERY_MIN_LEN + (size_t)repr->source_count * 16u;
    }
    return 0;
}

int tern_mld_query_emit(const tern_mld_query_repr_t *repr, uint8_t *buf, size_t len)
{
    size_t need = tern_mld_query_len(repr);
    if (need == 0 || repr->qrv > 7u) {
        return -EINVAL;
    }
    if (repr->version == 2 && repr->sources == NULL && repr->source_count != 0) {
        return -EINVAL;
    }
    if (len < need) {
        return -ENOBUFS;
    }
    if (repr->version == 2) {
        if (repr->source_count != 0) {
            memmove(buf + TERN_MLD_V2_QUERY_MIN_LEN, repr->sources,
                    (size_t)repr->source_count * 16u);
        }
        buf[24] = (uint8_t)((repr->suppress ? 0x08u : 0u) | repr->qrv);
        buf[25] = repr->qqic;
        tern_store16(buf + 26, repr->source_count);
    }
    buf[0] = TERN_ICMPV6_MLD_QUERY;
    buf[1] = 0;
    tern_store16(buf + 2, 0);
    tern_store16(buf + 4, repr->max_resp_code);
    tern_store16(buf + 6, 0);
    memcpy(buf + 8, repr->group.u8, 16);
    return (int)need;
}

/* ---- MLDv1 Report / Done (RFC 2710 §3) ------------------------------------------ */

int tern_mld_v1_parse(tern_mld_v1_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (len < TERN_MLD_V1_LEN ||
        (buf[0] != TERN_ICMPV6_MLD_REPORT && buf[0] != TERN_ICMPV6_MLD_DONE)) {
        return -EBADMSG;
    }
    repr->type = buf[0];
    repr->max_resp_delay = tern_load16(buf + 4);
    memcpy(repr->group.u8, buf + 8, 16);
    return (int)TERN_MLD_V1_LEN;
}

int tern_mld_v1_emit(const tern_mld_v1_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr->type != TERN_ICMPV6_MLD_REPORT && repr->type != TERN_ICMPV6_MLD_DONE) {
        return -EINVAL;
    }
    if (len < TERN_MLD_V1_LEN) {
        return -ENOBUFS;
    }
    buf[0] = repr->type;
    buf[1] = 0;
    tern_store16(buf + 2, 0);
    tern_store16(buf + 4, repr->max_resp_delay);
    tern_store16(buf + 6, 0);
    memcpy(buf + 8, repr->group.u8, 16);
    return (int)TERN_MLD_V1_LEN;
}

/* ---- Version 2 Report (RFC 3810 §5.2) -------------------------------------------- */

/* One record at @p p with @p left octets: its length, or 0 if it does not fit. */
static size_t record_size(const uint8_t *p, size_t left)
{
    if (left < TERN_MLD_RECORD_MIN_LEN) {
        return 0;
    }
    /* §5.2.5 Aux Data Len in 32-bit words, §5.2.6 Number of Sources. */
    size_t size = TERN_MLD_RECORD_MIN_LEN + (size_t)tern_load16(p + 2) * 16u + (size_t)p[1] * 4u;
    return size <= left ? size : 0;
}

int tern_mld_report_parse(tern_mld_report_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (len < TERN_MLD_V2_REPORT_HDR_LEN || buf[0] != TERN_ICMPV6_MLDV2_REPORT) {
        return -EBADMSG;
    }
    uint16_t count = tern_load16(buf + 6);
    size_t offset = TERN_MLD_V2_REPORT_HDR_LEN;
    for (uint16_t i = 0; i < count; i++) {
        size_t size = record_size(buf + offset, len - offset);
        if (size == 0) {
            return -EBADMSG;
        }
        offset += size;
    }
    if (offset > (size_t)INT32_MAX) {
        return -EBADMSG;
    }
    repr->record_count = count;
    repr->records = buf + TERN_MLD_V2_REPORT_HDR_LEN;
    repr->records_len = offset - TERN_MLD_V2_REPORT_HDR_LEN;
    return (int)offset;
}

void tern_mld_record_iter_init(tern_mld_record_iter_t *it, const tern_mld_report_repr_t *report)
{
    it->buf = report->records;
    it->len = report->records == NULL ? 0 : report->records_len;
    it->offset = 0;
    it->left = report->record_count;
}

int tern_mld_record_next(tern_mld_record_iter_t *it, tern_mld_record_t *rec)
{
    if (it->left == 0) {
        return 0;
    }
    const uint8_t *p = it->buf + it->offset;
    size_t size = record_size(p, it->len - it->offset);
    if (size == 0) {
        return -EBADMSG;
    }
    uint16_t sources = tern_load16(p + 2);
    rec->type = p[0];
    memcpy(rec->group.u8, p + 4, 16);
    rec->source_count = sources;
    rec->sources = p + TERN_MLD_RECORD_MIN_LEN;
    rec->aux = rec->sources + (size_t)sources * 16u;
    rec->aux_len = (size_t)p[1] * 4u;
    it->offset += size;
    it->left--;
    return 1;
}

size_t tern_mld_record_len(const tern_mld_record_t *rec)
{
    return TERN_MLD_RECORD_MIN_LEN + (size_t)rec->source_count * 16u + rec->aux_len;
}

int tern_mld_report_hdr_emit(uint16_t record_count, uint8_t *buf, size_t len)
{
    if (len < TERN_MLD_V2_REPORT_HDR_LEN) {
        return -ENOBUFS;
    }
    buf[0] = TERN_ICMPV6_MLDV2_REPORT;
    buf[1] = 0;
    tern_store16(buf + 2, 0);
    tern_store16(buf + 4, 0);
    tern_store16(buf + 6, record_count);
    return (int)TERN_MLD_V2_REPORT_HDR_LEN;
}

int tern_mld_record_emit(const tern_mld_record_t *rec, uint8_t *buf, size_t len)
{
    if ((rec->sources == NULL && rec->source_count != 0) ||
        (rec->aux == NULL && rec->aux_len != 0) || rec->aux_len % 4u != 0 ||
        rec->aux_len > 255u * 4u) {
        return -EINVAL;
    }
    size_t need = tern_mld_record_len(rec);
    if (len < need) {
        return -ENOBUFS;
    }
    size_t sources_len = (size_t)rec->source_count * 16u;
    /* Move the variable parts first: they may overlap the record's head. */
    if (rec->aux_len != 0) {
        memmove(buf + TERN_MLD_RECORD_MIN_LEN + sources_len, rec->aux, rec->aux_len);
    }
    if (sources_len != 0) {
        memmove(buf + TERN_MLD_RECORD_MIN_LEN, rec->sources, sources_len);
    }
    buf[0] = rec->type;
    buf[1] = (uint8_t)(rec->aux_len / 4u);
    tern_store16(buf + 2, rec->source_count);
    memcpy(buf + 4, rec->group.u8, 16);
    return (int)need;
}

size_t tern_mld_report_len(size_t count)
{
    return TERN_MLD_V2_REPORT_HDR_LEN + count * TERN_MLD_RECORD_MIN_LEN;
}

int tern_mld_report_emit(uint8_t record_type, const tern_ipv6_addr_t *groups, size_t count,
                         uint8_t *buf, size_t len)
{
    if (record_type < TERN_MLD_RECORD_MODE_IS_INCLUDE ||
        record_type > TERN_MLD_RECORD_BLOCK_OLD_SOURCES || count > 0xffffu ||
        (groups == NULL && count != 0)) {
        return -EINVAL;
    }
    size_t need = tern_mld_report_len(count);
    if (len < need) {
        return -ENOBUFS;
    }
    tern_mld_report_hdr_emit((uint16_t)count, buf, len);
    uint8_t *p = buf + TERN_MLD_V2_REPORT_HDR_LEN;
    for (size_t i = 0; i < count; i++) {
        p[0] = record_type;
        p[1] = 0;
        tern_store16(p + 2, 0);
        memcpy(p + 4, groups[i].u8, 16);
        p += TERN_MLD_RECORD_MIN_LEN;
    }
    return (int)need;
}
