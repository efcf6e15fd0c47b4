/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL Option of the Hop-by-Hop Options header (RFC 6553 §3).
 *
 * Read first: RFC 6553 §3 (format and flags), §4 (how routers use and
 * update it), §6 (option type 0x63); RFC 9008 §4.3 (the new type 0x23, whose
 * action bits tell routers outside RPL to skip the option); RFC 8200 §4.2
 * (option format inside the header).
 *
 * The option travels in a Hop-by-Hop header walked with tern/wire/ipv6.h
 * (tern_ipv6_opt_iter_init() / tern_ipv6_opt_next()); tern_rpl_hbh_find()
 * does that walk for the caller. A forwarding router updates the flags and
 * SenderRank in place with tern_rpl_hbh_opt_update(). tern_rpl_hbh_emit()
 * builds the 8-octet Hop-by-Hop header that holds just this option, which is
 * what an RPL node adds to a packet it sources (no padding is needed:
 * 2 + 6 = 8).
 *
 * Errors are negative errno values: -EBADMSG malformed input, -ENOBUFS
 * output buffer too small, -EINVAL bad argument.
 */
#ifndef TERN_WIRE_RPL_HBH_H
#define TERN_WIRE_RPL_HBH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6.h"

/** @name Option types */
/** @{ */
#define TERN_RPL_HBH_OPT_TYPE 0x63u         /**< RFC 6553 §6: act 01 (discard if unknown), chg 1 */
#define TERN_RPL_HBH_OPT_TYPE_RFC9008 0x23u /**< RFC 9008 §4.3: act 00 (skip if unknown), chg 1 */
/** @} */

/** Opt Data Len of the option without sub-TLVs (RFC 6553 §3). */
#define TERN_RPL_HBH_OPT_DATA_LEN 4u
/** Octets tern_rpl_hbh_opt_emit() writes: Type, Opt Data Len and 4 octets. */
#define TERN_RPL_HBH_OPT_LEN 6u
/** Octets tern_rpl_hbh_emit() writes: the Hop-by-Hop header with only this option. */
#define TERN_RPL_HBH_HDR_LEN 8u

/** @name Flags (RFC 6553 §3) */
/** @{ */
#define TERN_RPL_HBH_FLAG_DOWN 0x80u             /**< O: the packet goes down the DODAG */
#define TERN_RPL_HBH_FLAG_RANK_ERROR 0x40u       /**< R */
#define TERN_RPL_HBH_FLAG_FORWARDING_ERROR 0x20u /**< F */
/** @} */

/** The RPL Option. The 5 reserved flags are 0 on emit and ignored on parse. */
typedef struct {
    uint8_t type;             /**< TERN_RPL_HBH_OPT_TYPE or TERN_RPL_HBH_OPT_TYPE_RFC9008 */
    bool down;                /**< O */
    bool rank_error;          /**< R */
    bool forwarding_error;    /**< F */
    uint8_t instance_id;      /**< RPLInstanceID */
    uint16_t sender_rank;     /**< SenderRank (RFC 6553 §3; Tern writes the sender's rank, docs/RPL.md "Loop detection") */
} tern_rpl_hbh_opt_t;

/**
 * Parse an RPL Option found by the IPv6 option iterator. Sub-TLVs (Opt Data
 * Len above 4; RFC 6553 defines none) are ignored.
 * @return 0; -EBADMSG for another option type or an Opt Data Len below 4.
 * @see RFC 6553 §3
 */
int tern_rpl_hbh_opt_parse(tern_rpl_hbh_opt_t *repr, const tern_ipv6_opt_t *opt);

/**
 * Write the RPL Option (Opt Data Len 4).
 * @return TERN_RPL_HBH_OPT_LEN; -EINVAL for a type other than the two RPL
 *         Option types; -ENOBUFS if @p len is too small.
 */
int tern_rpl_hbh_opt_emit(const tern_rpl_hbh_opt_t *repr, uint8_t *buf, size_t len);

/**
 * Find the first RPL Option (either type) in the Hop-by-Hop header @p hdr of
 * @p len octets (the whole header, as delimited by the extension header walk).
 * @param[out] repr    the option, when found
 * @param[out] offset  where its Type octet is, from the start of @p hdr (may be NULL)
 * @return 1 when found; 0 if the header has none; -EBADMSG if the header's
 *         options run past its end or the RPL Option is malformed.
 */
int tern_rpl_hbh_find(tern_rpl_hbh_opt_t *repr, size_t *offset, const uint8_t *hdr, size_t len);

/**
 * Rewrite the flags, RPLInstanceID and SenderRank of the RPL Option at
 * @p offset of the header @p hdr in place (Type, Opt Data Len and any
 * sub-TLVs stay), as a forwarding router does (RFC 6553 §4).
 * @return 0; -EBADMSG if no RPL Option of Opt Data Len 4 or more lies at
 *         @p offset inside @p len octets.
 */
int tern_rpl_hbh_opt_update(const tern_rpl_hbh_opt_t *repr, uint8_t *hdr, size_t len, size_t offset);

/**
 * Write a Hop-by-Hop Options header holding only the RPL Option:
 * Next Header @p next_header, Hdr Ext Len 0, the option.
 * @return TERN_RPL_HBH_HDR_LEN; errors as tern_rpl_hbh_opt_emit().
 * @see RFC 8200 §4.3, RFC 6553 §3
 */
int tern_rpl_hbh_emit(const tern_rpl_hbh_opt_t *repr, uint8_t next_header, uint8_t *buf, size_t len);

#endif /* TERN_WIRE_RPL_HBH_H */
