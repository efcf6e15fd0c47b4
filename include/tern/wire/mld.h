/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Multicast Listener Discovery messages: MLDv2 (RFC 3810 §5) and MLDv1 (RFC 2710 §3).
 *
 * Read first: RFC 3810 §5.1 (Query, with the Maximum Response Code §5.1.3 and
 * QQIC §5.1.9 floating-point encodings), §5.2 (Version 2 Report and its
 * multicast address records), §8.1 (telling MLDv1 from MLDv2 queries by length).
 *
 * Pure functions over byte spans: no state, no I/O. The checks that need the
 * IPv6 header (link-local source, hop limit 1, Router Alert option, RFC 3810
 * §5.1.14 and §5.2.13) belong to the protocol layer. Emitted messages carry a
 * zero checksum: fill it last with tern_icmpv6_checksum_fill().
 *
 * Errors are negative errno values: -EBADMSG malformed input, -ENOBUFS output
 * buffer too small, -EINVAL bad argument.
 */
#ifndef TERN_WIRE_MLD_H
#define TERN_WIRE_MLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"

/** MLDv1 message length: query, report and done alike (RFC 2710 §3). */
#define TERN_MLD_V1_LEN 24u
/** MLDv2 query without sources (RFC 3810 §5.1). */
#define TERN_MLD_V2_QUERY_MIN_LEN 28u
/** MLDv2 report header, before the records (RFC 3810 §5.2). */
#define TERN_MLD_V2_REPORT_HDR_LEN 8u
/** Multicast address record without sources and auxiliary data (RFC 3810 §5.2.4). */
#define TERN_MLD_RECORD_MIN_LEN 20u

/** @name Multicast address record types (RFC 3810 §5.2.12) */
/** @{ */
#define TERN_MLD_RECORD_MODE_IS_INCLUDE 1u
#define TERN_MLD_RECORD_MODE_IS_EXCLUDE 2u
#define TERN_MLD_RECORD_CHANGE_TO_INCLUDE 3u
#define TERN_MLD_RECORD_CHANGE_TO_EXCLUDE 4u
#define TERN_MLD_RECORD_ALLOW_NEW_SOURCES 5u
#define TERN_MLD_RECORD_BLOCK_OLD_SOURCES 6u
/** @} */

/** A Multicast Listener Query, MLDv1 or MLDv2 (RFC 3810 §5.1, RFC 2710 §3). */
typedef struct {
    uint8_t version;            /**< 1 (24 octets, §8.1) or 2 */
    uint16_t max_resp_code;     /**< raw field; for MLDv1 the delay in ms */
    uint32_t max_resp_delay_ms; /**< decoded (parse only; emit uses max_resp_code) */
    tern_ipv6_addr_t group;     /**< unspecified for a general query */
    bool suppress;              /**< S flag (v2) */
    uint8_t qrv;                /**< Querier's Robustness Variable, 0..7 (v2) */
    uint8_t qqic;               /**< raw Querier's Query Interval Code (v2) */
    uint32_t qqi_s;             /**< decoded, seconds (parse only) */
    const uint8_t *sources;     /**< source_count addresses of 16 octets (v2) */
    uint16_t source_count;
} tern_mld_query_repr_t;

/** An MLDv1 Report (131) or Done (132) (RFC 2710 §3). */
typedef struct {
    uint8_t type;
    uint16_t max_resp_delay; /**< 0 when sent (§3.4) */
    tern_ipv6_addr_t group;
} tern_mld_v1_repr_t;

/** A Version 2 Multicast Listener Report (RFC 3810 §5.2). */
typedef struct {
    uint16_t record_count;
    const uint8_t *records; /**< the records, checked; walk with tern_mld_record_iter_init() */
    size_t records_len;
} tern_mld_report_repr_t;

/** One multicast address record (RFC 3810 §5.2.4-§5.2.11). */
typedef struct {
    uint8_t type;            /**< TERN_MLD_RECORD_*; other values are reported as found */
    tern_ipv6_addr_t group;
    const uint8_t *sources;  /**< source_count addresses of 16 octets */
    uint16_t source_count;
    const uint8_t *aux;      /**< auxiliary data */
    size_t aux_len;          /**< octets (a multiple of 4) */
} tern_mld_record_t;

/** Walks the records of a parsed report. Fields are private. */
typedef struct {
    const uint8_t *buf;
    size_t len;
    size_t offset;
    uint16_t left;
} tern_mld_record_iter_t;

/**
 * Decode a Maximum Response Code (RFC 3810 §5.1.3): below 32768 the value
 * itself, else (mant | 0x1000) << (exp + 3).
 * @return the Maximum Response Delay in milliseconds.
 */
uint32_t tern_mld_max_resp_code_decode(uint16_t code);

/**
 * Encode a Maximum Response Delay (RFC 3810 §5.1.3), rounding down to the
 * nearest representable value; delays above the largest (0x1fff << 10 =
 * 8387584 ms) give the largest code.
 * @return the code.
 */
uint16_t tern_mld_max_resp_code_encode(uint32_t delay_ms);

/**
 * Decode a QQIC (RFC 3810 §5.1.9): below 128 the value itself, else
 * (mant | 0x10) << (exp + 3).
 * @return the Querier's Query Interval in seconds.
 */
uint32_t tern_mld_qqic_decode(uint8_t code);

/** Encode a Querier's Query Interval (RFC 3810 §5.1.9), rounding down; above 31744 s the largest code. */
uint8_t tern_mld_qqic_encode(uint32_t interval_s);

/**
 * Parse a Multicast Listener Query (type 130). The code is ignored (RFC 3810
 * §5.1.1). Additional data after the sources is ignored (§5.1.12).
 * @return the query length used: 24 for MLDv1, 28 + 16 * sources for MLDv2;
 *         -EBADMSG for another type, a length below 24 or from 25 to 27
 *         (§8.1: neither version; silently ignored), or sources past the end.
 * @see RFC 3810 §5.1, §8.1; RFC 2710 §3
 */
int tern_mld_query_parse(tern_mld_query_repr_t *repr, const uint8_t *buf, size_t len);

/** Length tern_mld_query_emit() writes: 24 (v1) or 28 + 16 * source_count (v2); 0 for a bad version. */
size_t tern_mld_query_len(const tern_mld_query_repr_t *repr);

/**
 * Write a Query of @p repr->version from the raw codes (max_resp_code, qqic).
 * @return bytes written; -EINVAL for a version other than 1 or 2, qrv above 7,
 *         or NULL sources with a nonzero count; -ENOBUFS if @p len is too small.
 */
int tern_mld_query_emit(const tern_mld_query_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse an MLDv1 Report (131) or Done (132).
 * @return TERN_MLD_V1_LEN; -EBADMSG for another type or fewer than 24 octets.
 * @see RFC 2710 §3
 */
int tern_mld_v1_parse(tern_mld_v1_repr_t *repr, const uint8_t *buf, size_t len);

/**
 * Write an MLDv1 Report or Done.
 * @return TERN_MLD_V1_LEN; -EINVAL for another type; -ENOBUFS if @p len is too small.
 */
int tern_mld_v1_emit(const tern_mld_v1_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a Version 2 Multicast Listener Report (type 143) and check that all
 * its records lie inside the message. Octets after the last record are ignored.
 * @return the length covered by the header and records; -EBADMSG for another
 *         type, a message shorter than its header or records.
 * @see RFC 3810 §5.2
 */
int tern_mld_report_parse(tern_mld_report_repr_t *repr, const uint8_t *buf, size_t len);

/** Start walking the records of @p report (from tern_mld_report_parse()). */
void tern_mld_record_iter_init(tern_mld_record_iter_t *it, const tern_mld_report_repr_t *report);

/**
 * Next record.
 * @return 1 with @p rec filled; 0 after the last; -EBADMSG if a record runs
 *         past the end (never after a successful tern_mld_report_parse()).
 */
int tern_mld_record_next(tern_mld_record_iter_t *it, tern_mld_record_t *rec);

/** Length of @p rec on the wire: 20 + 16 * sources + aux. */
size_t tern_mld_record_len(const tern_mld_record_t *rec);

/**
 * Write the report header announcing @p record_count records; append them
 * with tern_mld_record_emit().
 * @return TERN_MLD_V2_REPORT_HDR_LEN; -ENOBUFS if @p len is too small.
 */
int tern_mld_report_hdr_emit(uint16_t record_count, uint8_t *buf, size_t len);

/**
 * Append one record.
 * @return bytes written; -EINVAL for NULL sources/aux with a nonzero count,
 *         aux_len not a multiple of 4 or above 1020; -ENOBUFS if @p len is too small.
 */
int tern_mld_record_emit(const tern_mld_record_t *rec, uint8_t *buf, size_t len);

/** Length of a report of @p count source-less records: 8 + 20 * count. */
size_t tern_mld_report_len(size_t count);

/**
 * Write a complete report of @p count records of @p record_type, one per
 * group, without sources or auxiliary data — the report a host sends for the
 * groups it joined (e.g. CHANGE_TO_EXCLUDE on join, MODE_IS_EXCLUDE in reply
 * to a query, RFC 3810 §6.1).
 * @return bytes written; -EINVAL for a record type outside 1..6, more than
 *         65535 groups or NULL groups with a nonzero count; -ENOBUFS if
 *         @p len is too small (split the groups over several reports).
 */
int tern_mld_report_emit(uint8_t record_type, const tern_ipv6_addr_t *groups, size_t count,
                         uint8_t *buf, size_t len);

#endif /* TERN_WIRE_MLD_H */
