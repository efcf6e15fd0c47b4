/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief RPL control messages and their options (RFC 6550 §6): DIS, DIO, DAO,
 *        DAO-ACK; Pad1, PadN, DAG Metric Container, Route Information, DODAG
 *        Configuration, RPL Target, Transit Information, Solicited
 *        Information, Prefix Information, RPL Target Descriptor.
 *
 * Read first: RFC 6550 §6 (ICMPv6 type 155, the Code values, the security
 * bit), §6.2.1, §6.3.1, §6.4.1, §6.5.1 (the base objects), §6.7.1 (option
 * format: the Option Length counts octets, not 8-octet units, and excludes
 * Type and Length; unrecognised options are skipped), §6.7.2-§6.7.11 (each
 * option), and §6.2.3, §6.3.3, §6.4.3, §6.5.3 (which options each message
 * may carry).
 *
 * Receive path:
 * @code
 * switch (tern_rpl_code(icmp, len)) {
 * case TERN_RPL_CODE_DIO:
 *     if (tern_rpl_dio_parse(&dio, icmp, len) < 0) drop;      // options checked too
 *     tern_rpl_opt_iter_init(&it, dio.options, dio.options_len);
 *     while (tern_rpl_opt_next(&it, &opt) == 1) {             // padding skipped
 *         if (!tern_rpl_opt_allowed(TERN_RPL_CODE_DIO, opt.type)) continue;
 *         switch (opt.type) { case TERN_RPL_OPT_DODAG_CONF: tern_rpl_opt_dodag_conf_parse(...); ... }
 *     }
 * ...
 * default: drop;  // -ENOTSUP secured, -EPROTONOSUPPORT unknown code, -EBADMSG not RPL
 * }
 * @endcode
 *
 * What the parser checks (and what it leaves to the RPL module):
 * - ICMPv6 type 155, a Code of an unsecured base message, the base object
 *   inside the message; the secured variants (the Code's high bit, §6: 0x80
 *   to 0x83 and the Consistency Check 0x8A) are recognised and refused with
 *   -ENOTSUP, since Tern implements no RPL security (§10) and cannot read
 *   past the Security section; other Codes give -EPROTONOSUPPORT (§6: "MUST
 *   discard ... an unknown Code").
 * - Every option: it lies inside the message, and its Option Length obeys its
 *   type's rule (PadN at most 5, DODAG Configuration 14, Transit Information 4
 *   or 20, Solicited Information 19, Prefix Information 30, Target Descriptor
 *   4, Route Information and RPL Target long enough for their Prefix Length
 *   of at most 128 bits and no longer than a full address). One bad option
 *   makes the message malformed (-EBADMSG). Unknown option types are walked
 *   over by their length (§6.7.1).
 * - A DAO or DAO-ACK of a local RPLInstanceID carries its DODAGID (§6.4.1,
 *   §6.5.1: the D flag "MUST be set when a local RPLInstanceID is used").
 * - Not checked here: whether an option belongs in the message it came in
 *   (tern_rpl_opt_allowed() answers it; the caller ignores the others), the
 *   checksum (tern_icmpv6_checksum_verify()), the IPv6 source/destination
 *   rules, and every value whose meaning is the protocol's (MOP, OCP,
 *   status, rank).
 *
 * Flags and fields that RFC 6550 reserves are written as 0 and ignored on
 * receipt (as it requires); reprs do not carry them.
 *
 * Message emit functions write the ICMPv6 header with a zero checksum, the
 * base object and the repr's option area (copied; it lies apart from the
 * output or already where it goes, no other overlap);
 * build the option area first with the option emit functions (each appends
 * one option and returns its length) and fill the checksum last with
 * tern_icmpv6_checksum_fill(). Every length is known before a byte is
 * written (the *_len functions), and nothing is written when an emit fails.
 *
 * Errors are negative errno values: -EBADMSG malformed input, -ENOTSUP a
 * secured RPL message, -EPROTONOSUPPORT an unknown RPL Code, -ENOBUFS output
 * buffer too small, -EINVAL bad argument.
 *
 * The RPL option carried in Hop-by-Hop headers (RFC 6553) is in
 * tern/wire/rpl_hbh.h, the Source Routing Header (RFC 6554) in
 * tern/wire/ipv6_srh.h.
 */
#ifndef TERN_WIRE_RPL_H
#define TERN_WIRE_RPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ndp.h"

/** ICMPv6 type of every RPL control message (RFC 6550 §6, IANA). */
#define TERN_RPL_ICMPV6_TYPE 155u

/** @name RPL control message Codes (RFC 6550 §6, §20.2) */
/** @{ */
#define TERN_RPL_CODE_DIS 0x00u
#define TERN_RPL_CODE_DIO 0x01u
#define TERN_RPL_CODE_DAO 0x02u
#define TERN_RPL_CODE_DAO_ACK 0x03u
#define TERN_RPL_CODE_SECURE_DIS 0x80u
#define TERN_RPL_CODE_SECURE_DIO 0x81u
#define TERN_RPL_CODE_SECURE_DAO 0x82u
#define TERN_RPL_CODE_SECURE_DAO_ACK 0x83u
#define TERN_RPL_CODE_CONSISTENCY_CHECK 0x8Au /**< always secured (§6.6) */
/** The Code's high-order bit: the message has a Security section (§6). */
#define TERN_RPL_CODE_SECURE_BIT 0x80u
/** @} */

/** @name Message lengths, ICMPv6 header (4 octets) included, before the options */
/** @{ */
#define TERN_RPL_DIS_LEN 6u       /**< Flags, Reserved (§6.2.1) */
#define TERN_RPL_DIO_LEN 28u      /**< 24-octet base (§6.3.1) */
#define TERN_RPL_DAO_LEN 8u       /**< without DODAGID (§6.4.1) */
#define TERN_RPL_DAO_ACK_LEN 8u   /**< without DODAGID (§6.5.1) */
#define TERN_RPL_DODAGID_LEN 16u  /**< the optional DODAGID of DAO and DAO-ACK */
/** @} */

/** @name RPLInstanceID (RFC 6550 §5.1) */
/** @{ */
#define TERN_RPL_INSTANCE_LOCAL 0x80u   /**< set: a local RPLInstanceID */
#define TERN_RPL_INSTANCE_LOCAL_D 0x40u /**< of a local ID: the DODAGID is the destination */
/** @} */

/** @name Mode of Operation, the DIO's MOP field (RFC 6550 §6.3.1, §20.3) */
/** @{ */
#define TERN_RPL_MOP_NO_DOWNWARD 0u
#define TERN_RPL_MOP_NON_STORING 1u
#define TERN_RPL_MOP_STORING 2u           /**< storing, no multicast support */
#define TERN_RPL_MOP_STORING_MULTICAST 3u /**< storing, with multicast support */
/** @} */

/** @name DAO-ACK Status ranges (RFC 6550 §6.5.1) */
/** @{ */
#define TERN_RPL_DAO_ACK_ACCEPT 0u       /**< unqualified acceptance */
#define TERN_RPL_DAO_ACK_REJECT_MIN 128u /**< 128..255: rejection; 1..127: not an outright rejection */
/** @} */

/** @name Protocol constants and defaults (RFC 6550 §17) */
/** @{ */
#define TERN_RPL_INFINITE_RANK 0xFFFFu
#define TERN_RPL_DEFAULT_INSTANCE 0u
#define TERN_RPL_DEFAULT_PATH_CONTROL_SIZE 0u
#define TERN_RPL_DEFAULT_DIO_INTERVAL_MIN 3u
#define TERN_RPL_DEFAULT_DIO_INTERVAL_DOUBLINGS 20u
#define TERN_RPL_DEFAULT_DIO_REDUNDANCY_CONSTANT 10u
#define TERN_RPL_DEFAULT_MIN_HOP_RANK_INCREASE 256u
/** @} */

/** @name Option types (RFC 6550 §6.7, §20.4) */
/** @{ */
#define TERN_RPL_OPT_PAD1 0x00u
#define TERN_RPL_OPT_PADN 0x01u
#define TERN_RPL_OPT_DAG_METRIC 0x02u   /**< DAG Metric Container (§6.7.4, RFC 6551) */
#define TERN_RPL_OPT_ROUTE_INFO 0x03u   /**< Route Information (§6.7.5) */
#define TERN_RPL_OPT_DODAG_CONF 0x04u   /**< DODAG Configuration (§6.7.6) */
#define TERN_RPL_OPT_TARGET 0x05u       /**< RPL Target (§6.7.7) */
#define TERN_RPL_OPT_TRANSIT 0x06u      /**< Transit Information (§6.7.8) */
#define TERN_RPL_OPT_SOLICITED 0x07u    /**< Solicited Information (§6.7.9) */
#define TERN_RPL_OPT_PREFIX_INFO 0x08u  /**< Prefix Information (§6.7.10) */
#define TERN_RPL_OPT_TARGET_DESC 0x09u  /**< RPL Target Descriptor (§6.7.11) */
/** @} */

/** @name Option lengths in octets, Type and Length included */
/** @{ */
#define TERN_RPL_OPT_HDR_LEN 2u
#define TERN_RPL_OPT_MAX_LEN 257u           /**< Option Length 255 */
#define TERN_RPL_OPT_PADN_MAX_LEN 7u        /**< §6.7.3: Option Length at most 5 */
#define TERN_RPL_OPT_ROUTE_INFO_FIXED 8u    /**< before the prefix (§6.7.5) */
#define TERN_RPL_OPT_DODAG_CONF_LEN 16u     /**< Option Length 14 (§6.7.6) */
#define TERN_RPL_OPT_TARGET_FIXED 4u        /**< before the prefix (§6.7.7) */
#define TERN_RPL_OPT_TRANSIT_LEN 6u         /**< Option Length 4, no Parent Address (§6.7.8) */
#define TERN_RPL_OPT_TRANSIT_PARENT_LEN 22u /**< Option Length 20, with Parent Address */
#define TERN_RPL_OPT_SOLICITED_LEN 21u      /**< Option Length 19 (§6.7.9) */
#define TERN_RPL_OPT_PREFIX_INFO_LEN 32u    /**< Option Length 30 (§6.7.10) */
#define TERN_RPL_OPT_TARGET_DESC_LEN 6u     /**< Option Length 4 (§6.7.11) */
/** @} */

/** @name Flag bits as they sit in their octet */
/** @{ */
#define TERN_RPL_DIO_FLAG_GROUNDED 0x80u  /**< G (§6.3.1) */
#define TERN_RPL_DIO_MOP_MASK 0x38u
#define TERN_RPL_DIO_MOP_SHIFT 3u
#define TERN_RPL_DIO_PRF_MASK 0x07u
#define TERN_RPL_DAO_FLAG_K 0x80u         /**< DAO-ACK requested (§6.4.1) */
#define TERN_RPL_DAO_FLAG_D 0x40u         /**< DODAGID present (§6.4.1) */
#define TERN_RPL_DAO_ACK_FLAG_D 0x80u     /**< DODAGID present (§6.5.1) */
#define TERN_RPL_ROUTE_INFO_PRF_MASK 0x18u /**< Route Preference (§6.7.5, RFC 4191 §2.3) */
#define TERN_RPL_ROUTE_INFO_PRF_SHIFT 3u
#define TERN_RPL_DODAG_CONF_FLAG_A 0x08u  /**< Authentication Enabled (§6.7.6) */
#define TERN_RPL_DODAG_CONF_PCS_MASK 0x07u
#define TERN_RPL_TRANSIT_FLAG_E 0x80u     /**< External (§6.7.8) */
#define TERN_RPL_SOLICITED_FLAG_V 0x80u   /**< Version predicate (§6.7.9) */
#define TERN_RPL_SOLICITED_FLAG_I 0x40u   /**< InstanceID predicate */
#define TERN_RPL_SOLICITED_FLAG_D 0x20u   /**< DODAGID predicate */
/** @} */

/** DODAG Information Solicitation (RFC 6550 §6.2). Flags and Reserved are 0 on emit. */
typedef struct {
    const uint8_t *options; /**< option area (NULL allowed when options_len is 0) */
    size_t options_len;
} tern_rpl_dis_repr_t;

/** DODAG Information Object (RFC 6550 §6.3). */
typedef struct {
    uint8_t instance_id;  /**< RPLInstanceID */
    uint8_t version;      /**< Version Number */
    uint16_t rank;
    bool grounded;        /**< G */
    uint8_t mop;          /**< Mode of Operation, 0..7 (TERN_RPL_MOP_*) */
    uint8_t preference;   /**< DODAGPreference (Prf), 0 (least) .. 7 (most preferred) */
    uint8_t dtsn;         /**< Destination Advertisement Trigger Sequence Number */
    tern_ipv6_addr_t dodag_id;
    const uint8_t *options;
    size_t options_len;
} tern_rpl_dio_repr_t;

/** Destination Advertisement Object (RFC 6550 §6.4). */
typedef struct {
    uint8_t instance_id;
    bool ack_requested;   /**< K */
    bool has_dodag_id;    /**< D: @ref dodag_id is on the wire (required for a local instance) */
    uint8_t sequence;     /**< DAOSequence */
    tern_ipv6_addr_t dodag_id;
    const uint8_t *options;
    size_t options_len;
} tern_rpl_dao_repr_t;

/** Destination Advertisement Object Acknowledgement (RFC 6550 §6.5). */
typedef struct {
    uint8_t instance_id;
    bool has_dodag_id;    /**< D (required for a local instance) */
    uint8_t sequence;     /**< the DAOSequence acknowledged */
    uint8_t status;       /**< TERN_RPL_DAO_ACK_ACCEPT, ... (passed through) */
    tern_ipv6_addr_t dodag_id;
    const uint8_t *options;
    size_t options_len;
} tern_rpl_dao_ack_repr_t;

/** One option of a checked option area (never Pad1 or PadN: the iterator skips them). */
typedef struct {
    uint8_t type;
    const uint8_t *data; /**< the whole option, from its Type octet */
    size_t len;          /**< its length in octets: 2 + Option Length */
} tern_rpl_opt_t;

/** Walks an option area. Fields are private; initialise with tern_rpl_opt_iter_init(). */
typedef struct {
    const uint8_t *buf;
    size_t len;
    size_t offset;
} tern_rpl_opt_iter_t;

/** DAG Metric Container (§6.7.4): the RFC 6551 metric objects, carried opaque. */
typedef struct {
    const uint8_t *data; /**< the Metric Data (may be NULL when len is 0) */
    size_t len;          /**< 0..255 */
} tern_rpl_opt_metric_t;

/** Route Information (§6.7.5). */
typedef struct {
    uint8_t prefix_len;    /**< 0..128 */
    uint8_t preference;    /**< Prf, 2 bits as RFC 4191 §2.3: 01 high, 00 medium, 11 low */
    uint32_t lifetime;     /**< Route Lifetime, seconds; 0xFFFFFFFF infinity */
    tern_ipv6_addr_t prefix; /**< bits past prefix_len are 0 (parse clears them) */
} tern_rpl_opt_route_info_t;

/** DODAG Configuration (§6.7.6). The 4 reserved flags and the Reserved octet are not kept. */
typedef struct {
    bool authentication;          /**< A: Authentication Enabled */
    uint8_t path_control_size;    /**< PCS, 0..7 */
    uint8_t dio_int_doublings;    /**< DIOIntervalDoublings */
    uint8_t dio_int_min;          /**< DIOIntervalMin: Imin = 2^value ms */
    uint8_t dio_redundancy;       /**< DIORedundancyConstant */
    uint16_t max_rank_increase;   /**< DAGMaxRankIncrease; 0 disables local repair */
    uint16_t min_hop_rank_increase; /**< MinHopRankIncrease */
    uint16_t ocp;                 /**< Objective Code Point (0: OF0, RFC 6552; 1: MRHOF, RFC 6719) */
    uint8_t default_lifetime;     /**< in units of lifetime_unit; 0xFF infinity */
    uint16_t lifetime_unit;       /**< seconds */
} tern_rpl_opt_dodag_conf_t;

/** RPL Target (§6.7.7). The Flags octet is not kept. */
typedef struct {
    uint8_t prefix_len;      /**< 0..128 */
    tern_ipv6_addr_t prefix; /**< bits past prefix_len are 0 (parse clears them) */
} tern_rpl_opt_target_t;

/** Transit Information (§6.7.8). */
typedef struct {
    bool external;           /**< E */
    uint8_t path_control;
    uint8_t path_sequence;
    uint8_t path_lifetime;   /**< in Lifetime Units; 0 = No-Path, 0xFF infinity */
    bool has_parent;         /**< Parent Address present (non-storing mode) */
    tern_ipv6_addr_t parent;
} tern_rpl_opt_transit_t;

/** Solicited Information (§6.7.9): the predicates a DIS asks DIO senders to match. */
typedef struct {
    uint8_t instance_id;
    bool match_version;      /**< V */
    bool match_instance;     /**< I */
    bool match_dodag_id;     /**< D */
    tern_ipv6_addr_t dodag_id;
    uint8_t version;
} tern_rpl_opt_solicited_t;

/* ---- Messages ------------------------------------------------------------------ */

/**
 * Classify an ICMPv6 message as an RPL control message.
 * @param[in] buf  the ICMPv6 message, from its Type octet
 * @return its Code (TERN_RPL_CODE_DIS .. TERN_RPL_CODE_DAO_ACK) for an
 *         unsecured base message; -ENOTSUP for a secured one (the Code's
 *         high bit, §6); -EPROTONOSUPPORT for another Code; -EBADMSG for
 *         another ICMPv6 type or fewer than 4 octets.
 * @see RFC 6550 §6
 */
int tern_rpl_code(const uint8_t *buf, size_t len);

/**
 * Parse a DIS.
 * @return TERN_RPL_DIS_LEN (the options' offset); -EBADMSG if malformed
 *         (see the file comment) or another RPL message (a DIO, DAO or
 *         DAO-ACK); -ENOTSUP / -EPROTONOSUPPORT as tern_rpl_code().
 * @see RFC 6550 §6.2
 */
int tern_rpl_dis_parse(tern_rpl_dis_repr_t *repr, const uint8_t *buf, size_t len);
/** Length tern_rpl_dis_emit() writes. */
size_t tern_rpl_dis_len(const tern_rpl_dis_repr_t *repr);
/**
 * Write a DIS (Flags and Reserved 0, checksum 0), its options after the base.
 * @return bytes written; -EINVAL for NULL options with a nonzero length or
 *         an option area longer than a message can be; -ENOBUFS if @p len is
 *         too small.
 */
int tern_rpl_dis_emit(const tern_rpl_dis_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a DIO. The reserved bit after G, Flags and Reserved are ignored.
 * @return TERN_RPL_DIO_LEN; errors as tern_rpl_dis_parse().
 * @see RFC 6550 §6.3
 */
int tern_rpl_dio_parse(tern_rpl_dio_repr_t *repr, const uint8_t *buf, size_t len);
size_t tern_rpl_dio_len(const tern_rpl_dio_repr_t *repr);
/**
 * Write a DIO.
 * @return bytes written; -EINVAL for a MOP or preference above 7, or as
 *         tern_rpl_dis_emit(); -ENOBUFS if @p len is too small.
 */
int tern_rpl_dio_emit(const tern_rpl_dio_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a DAO. The 6 reserved flags and Reserved are ignored.
 * @return the options' offset (TERN_RPL_DAO_LEN, plus 16 with a DODAGID);
 *         -EBADMSG also for a local RPLInstanceID without DODAGID (§6.4.1);
 *         otherwise errors as tern_rpl_dis_parse().
 * @see RFC 6550 §6.4
 */
int tern_rpl_dao_parse(tern_rpl_dao_repr_t *repr, const uint8_t *buf, size_t len);
size_t tern_rpl_dao_len(const tern_rpl_dao_repr_t *repr);
/**
 * Write a DAO (the DODAGID only when @p repr->has_dodag_id).
 * @return bytes written; -EINVAL for a local RPLInstanceID without DODAGID,
 *         or as tern_rpl_dis_emit(); -ENOBUFS if @p len is too small.
 */
int tern_rpl_dao_emit(const tern_rpl_dao_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a DAO-ACK. The 7 reserved bits are ignored.
 * @return the options' offset (TERN_RPL_DAO_ACK_LEN, plus 16 with a
 *         DODAGID); errors as tern_rpl_dao_parse() (§6.5.1).
 * @see RFC 6550 §6.5
 */
int tern_rpl_dao_ack_parse(tern_rpl_dao_ack_repr_t *repr, const uint8_t *buf, size_t len);
size_t tern_rpl_dao_ack_len(const tern_rpl_dao_ack_repr_t *repr);
/** Write a DAO-ACK. @return as tern_rpl_dao_emit(). */
int tern_rpl_dao_ack_emit(const tern_rpl_dao_ack_repr_t *repr, uint8_t *buf, size_t len);

/* ---- Options (RFC 6550 §6.7) ------------------------------------------------------ */

/**
 * Check an option area: every option lies inside it and obeys its type's
 * length rule (file comment).
 * @return the number of options other than padding; -EBADMSG otherwise.
 */
int tern_rpl_options_check(const uint8_t *options, size_t len);

/** Start walking the option area @p options of @p len octets (NULL with 0 is allowed). */
void tern_rpl_opt_iter_init(tern_rpl_opt_iter_t *it, const uint8_t *options, size_t len);

/**
 * Next option other than Pad1 and PadN.
 * @param[out] opt  the option (unchanged at the end or on error)
 * @return 1 with @p opt filled; 0 at the end; -EBADMSG for an option that
 *         runs past the end of the area or breaks its type's length rule
 *         (the iterator then stays failing).
 * @see RFC 6550 §6.7.1
 */
int tern_rpl_opt_next(tern_rpl_opt_iter_t *it, tern_rpl_opt_t *opt);

/**
 * Find the first option of @p type (not Pad1 or PadN) in an option area.
 * @return 1 with @p opt filled; 0 if there is none; -EBADMSG if the area is
 *         malformed before such an option.
 */
int tern_rpl_opt_find(const uint8_t *options, size_t len, uint8_t type, tern_rpl_opt_t *opt);

/**
 * Whether RFC 6550 lists option @p type for the message of Code @p code:
 * DIS: Pad1, PadN, Solicited Information (§6.2.3); DIO: Pad1, PadN, DAG
 * Metric Container, Route Information, DODAG Configuration, Prefix
 * Information (§6.3.3); DAO: Pad1, PadN, RPL Target, Transit Information,
 * RPL Target Descriptor (§6.4.3); DAO-ACK: Pad1, PadN (§6.5.3).
 * @return false for any other pair (also an unknown Code).
 */
bool tern_rpl_opt_allowed(uint8_t code, uint8_t type);

/**
 * Fill @p n octets with padding: nothing for 0, Pad1 for 1, PadN of at most
 * 7 octets otherwise (zero data), as many as needed.
 * @return @p n; -ENOBUFS if @p len < @p n; -EINVAL if @p n exceeds INT32_MAX.
 * @see RFC 6550 §6.7.2, §6.7.3
 */
int tern_rpl_opt_pad_emit(uint8_t *buf, size_t len, size_t n);

/** Parse a DAG Metric Container. @return 0; -EBADMSG for another type. */
int tern_rpl_opt_metric_parse(tern_rpl_opt_metric_t *repr, const tern_rpl_opt_t *opt);
/** Option length for @p repr: 2 + len. */
size_t tern_rpl_opt_metric_len(const tern_rpl_opt_metric_t *repr);
/**
 * Append a DAG Metric Container carrying @p repr->data.
 * @return bytes written; -EINVAL for more than 255 octets or NULL data with
 *         a nonzero length; -ENOBUFS if @p len is too small.
 */
int tern_rpl_opt_metric_emit(const tern_rpl_opt_metric_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a Route Information option: the prefix octets present are copied,
 * the rest and the bits past the Prefix Length cleared ("ignored by the
 * receiver", §6.7.5).
 * @return 0; -EBADMSG for another type or a length that breaks its rule.
 */
int tern_rpl_opt_route_info_parse(tern_rpl_opt_route_info_t *repr, const tern_rpl_opt_t *opt);
/**
 * Option length: 8 + 0, 8 or 16 prefix octets (prefix length 0, 1..64,
 * 65..128: the sizes of RFC 4191 §2.3, which receivers such as Wireshark
 * expect); 0 for a prefix length above 128.
 */
size_t tern_rpl_opt_route_info_len(const tern_rpl_opt_route_info_t *repr);
/**
 * Append a Route Information option with the prefix octets of
 * tern_rpl_opt_route_info_len() (bits past prefix_len written as 0,
 * reserved bits 0).
 * @return bytes written; -EINVAL for a prefix length above 128 or a
 *         preference above 3; -ENOBUFS if @p len is too small.
 */
int tern_rpl_opt_route_info_emit(const tern_rpl_opt_route_info_t *repr, uint8_t *buf, size_t len);

/** Parse a DODAG Configuration option. @return 0; -EBADMSG for another type or Option Length not 14. */
int tern_rpl_opt_dodag_conf_parse(tern_rpl_opt_dodag_conf_t *repr, const tern_rpl_opt_t *opt);
/**
 * Append a DODAG Configuration option.
 * @return TERN_RPL_OPT_DODAG_CONF_LEN; -EINVAL for a PCS above 7; -ENOBUFS if
 *         @p len is too small.
 */
int tern_rpl_opt_dodag_conf_emit(const tern_rpl_opt_dodag_conf_t *repr, uint8_t *buf, size_t len);

/** Parse an RPL Target option (prefix handled as tern_rpl_opt_route_info_parse()). @return 0; -EBADMSG. */
int tern_rpl_opt_target_parse(tern_rpl_opt_target_t *repr, const tern_rpl_opt_t *opt);
/** Option length: 4 + ceil(prefix_len / 8); 0 for a prefix length above 128. */
size_t tern_rpl_opt_target_len(const tern_rpl_opt_target_t *repr);
/** Append an RPL Target option. @return bytes written; -EINVAL for a prefix length above 128; -ENOBUFS. */
int tern_rpl_opt_target_emit(const tern_rpl_opt_target_t *repr, uint8_t *buf, size_t len);

/** Parse a Transit Information option. @return 0; -EBADMSG for another type or an Option Length not 4 or 20. */
int tern_rpl_opt_transit_parse(tern_rpl_opt_transit_t *repr, const tern_rpl_opt_t *opt);
/** Option length: 22 with a parent address, 6 without. */
size_t tern_rpl_opt_transit_len(const tern_rpl_opt_transit_t *repr);
/** Append a Transit Information option. @return bytes written; -ENOBUFS if @p len is too small. */
int tern_rpl_opt_transit_emit(const tern_rpl_opt_transit_t *repr, uint8_t *buf, size_t len);

/** Parse a Solicited Information option. @return 0; -EBADMSG for another type or Option Length not 19. */
int tern_rpl_opt_solicited_parse(tern_rpl_opt_solicited_t *repr, const tern_rpl_opt_t *opt);
/** Append a Solicited Information option. @return TERN_RPL_OPT_SOLICITED_LEN; -ENOBUFS. */
int tern_rpl_opt_solicited_emit(const tern_rpl_opt_solicited_t *repr, uint8_t *buf, size_t len);

/**
 * Parse an RPL Prefix Information option into NDP's repr: the layout after
 * Type and Length is that of RFC 4861 §4.6.2, with the same L, A and R flags
 * (the flags octet is kept raw and the prefix as sent, as for NDP: with R set
 * it is a whole address of the sender).
 * @return 0; -EBADMSG for another type, Option Length not 30, or a Prefix
 *         Length above 128.
 * @see RFC 6550 §6.7.10
 */
int tern_rpl_opt_prefix_info_parse(tern_ndp_opt_prefix_info_t *repr, const tern_rpl_opt_t *opt);
/**
 * Append an RPL Prefix Information option (the flags octet as given,
 * Reserved2 0).
 * @return TERN_RPL_OPT_PREFIX_INFO_LEN; -EINVAL for a Prefix Length above
 *         128; -ENOBUFS if @p len is too small.
 */
int tern_rpl_opt_prefix_info_emit(const tern_ndp_opt_prefix_info_t *repr, uint8_t *buf, size_t len);

/** Parse an RPL Target Descriptor. @return 0; -EBADMSG for another type or Option Length not 4. */
int tern_rpl_opt_target_desc_parse(uint32_t *descriptor, const tern_rpl_opt_t *opt);
/** Append an RPL Target Descriptor. @return TERN_RPL_OPT_TARGET_DESC_LEN; -ENOBUFS. */
int tern_rpl_opt_target_desc_emit(uint32_t descriptor, uint8_t *buf, size_t len);

#endif /* TERN_WIRE_RPL_H */
