/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 6LoWPAN Neighbor Discovery options and messages (RFC 6775 §4, RFC 8505 §4):
 *        (Extended) Address Registration Option, 6LoWPAN Context Option,
 *        Authoritative Border Router Option, (Extended) Duplicate Address
 *        Request and Confirmation.
 *
 * Read first: RFC 6775 §4.1-§4.4 (formats), §6.5 (ARO checks of a router);
 * RFC 8505 §4.1 (EARO, status values of Table 1), §4.4 (EDAR/EDAC), §5.1
 * and §6 (how an EARO relates to an ARO).
 *
 * Options plug into the option walk of tern/wire/ndp.h: the caller finds an
 * option with tern_ndp_opt_next() (type TERN_NDP_OPT_ARO, TERN_NDP_OPT_6CO,
 * TERN_NDP_OPT_ABRO) and hands the tern_ndp_opt_t to the parse function here;
 * option emit functions append one option and return its length. DAR and DAC
 * are ICMPv6 messages of their own; their emit writes a zero checksum: fill
 * it last with tern_icmpv6_checksum_fill().
 *
 * Reserved fields and bits are written as 0 and ignored on receipt, as the
 * RFCs require ("MUST be ignored by the receiver"): later RFCs give some of
 * them a meaning (e.g. RFC 9010's P field in the EARO), and a parser that
 * refused them would break against those senders. Reserved *values* of
 * defined fields (the EARO's I field, an option Length the format does not
 * allow, a DAR/DAC Code Prefix or Code Suffix no RFC assigns) are rejected.
 * Status values are passed through as received: the registry grows (RFC 8505
 * §9), and what an unknown status means is the protocol layer's decision.
 *
 * Errors are negative errno values: -EBADMSG malformed input, -ENOBUFS output
 * buffer too small, -EINVAL bad argument.
 */
#ifndef TERN_WIRE_NDP_6LO_H
#define TERN_WIRE_NDP_6LO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ndp.h"

/** @name ICMPv6 types of the multihop DAD messages (RFC 6775 §4.4) */
/** @{ */
#define TERN_NDP_6LO_DAR 157u /**< Duplicate Address Request */
#define TERN_NDP_6LO_DAC 158u /**< Duplicate Address Confirmation */
/** @} */

/** IP Hop Limit of DAR and DAC messages, MULTIHOP_HOPLIMIT (RFC 6775 §9). */
#define TERN_NDP_6LO_MULTIHOP_HOPLIMIT 64u

/** @name Address registration status values (RFC 8505 §4.1, Table 1) */
/** @{ */
#define TERN_NDP_6LO_STATUS_SUCCESS 0u
#define TERN_NDP_6LO_STATUS_DUPLICATE 1u          /**< Duplicate Address */
#define TERN_NDP_6LO_STATUS_NC_FULL 2u            /**< Neighbor Cache Full */
#define TERN_NDP_6LO_STATUS_MOVED 3u              /**< Moved */
#define TERN_NDP_6LO_STATUS_REMOVED 4u            /**< Removed */
#define TERN_NDP_6LO_STATUS_VALIDATION_REQ 5u     /**< Validation Requested */
#define TERN_NDP_6LO_STATUS_DUPLICATE_SOURCE 6u   /**< Duplicate Source Address */
#define TERN_NDP_6LO_STATUS_INVALID_SOURCE 7u     /**< Invalid Source Address */
#define TERN_NDP_6LO_STATUS_TOPO_INCORRECT 8u     /**< Registered Address Topologically Incorrect */
#define TERN_NDP_6LO_STATUS_REGISTRY_SATURATED 9u /**< 6LBR Registry Saturated */
#define TERN_NDP_6LO_STATUS_VALIDATION_FAILED 10u /**< Validation Failed */
/** @} */

/** @name ROVR sizes: 64, 128, 192 or 256 bits (RFC 8505 §4.1, §4.4) */
/** @{ */
#define TERN_NDP_6LO_ROVR_MIN 8u  /**< octets; also the EUI-64 of an RFC 6775 ARO/DAR */
#define TERN_NDP_6LO_ROVR_MAX 32u /**< octets */
/** @} */

/** @name Flags octet of the EARO: Rsvd (4) | I (2) | R | T (RFC 8505 §4.1) */
/** @{ */
#define TERN_NDP_6LO_EARO_I_MASK 0x0Cu
#define TERN_NDP_6LO_EARO_I_SHIFT 2u
#define TERN_NDP_6LO_EARO_FLAG_R 0x02u /**< the registering node asks for reachability services */
#define TERN_NDP_6LO_EARO_FLAG_T 0x01u /**< the TID field is valid: an EARO */
/** @} */

/** Option lengths in octets. */
#define TERN_NDP_6LO_ARO_LEN 16u       /**< ARO, and an EARO with a 64-bit ROVR: Length 2 */
#define TERN_NDP_6LO_ABRO_LEN 24u      /**< Length 3 (RFC 6775 §4.3) */
#define TERN_NDP_6LO_6CO_SHORT_LEN 16u /**< Length 2: context prefix up to 64 bits */
#define TERN_NDP_6LO_6CO_LONG_LEN 24u  /**< Length 3: context prefix up to 128 bits */

/** DAR/DAC length with an EUI-64 (RFC 6775 §4.4): 8 + 8 + 16. */
#define TERN_NDP_6LO_DAR_LEN 32u

/** ABRO Valid Lifetime 0 stands for this default, in units of 60 s (RFC 6775 §4.3). */
#define TERN_NDP_6LO_ABRO_DEFAULT_LIFETIME 10000u

/**
 * Address Registration Option (RFC 6775 §4.1) or Extended ARO (RFC 8505 §4.1).
 * Without the T flag it is an RFC 6775 ARO: the Opaque, I, R and TID fields
 * are reserved there (parse reports them as 0, emit requires them 0) and the
 * ROVR is the 64-bit EUI-64.
 */
typedef struct {
    uint8_t status;          /**< 0 in a request; TERN_NDP_6LO_STATUS_* in a reply */
    bool extended;           /**< T flag: an EARO, @ref tid is valid */
    bool r;                  /**< R flag (EARO) */
    uint8_t opaque;          /**< Opaque (EARO): routing topology index when I = 0 */
    uint8_t i;               /**< I field (EARO): 0 (1..3 are reserved, RFC 8505 §4.1) */
    uint8_t tid;             /**< Transaction ID (EARO) */
    uint16_t lifetime;       /**< Registration Lifetime, units of 60 s; 0 removes the registration */
    uint8_t rovr_len;        /**< 8, 16, 24 or 32 (an ARO: 8, its EUI-64) */
    uint8_t rovr[TERN_NDP_6LO_ROVR_MAX]; /**< ROVR (EARO) or EUI-64 (ARO), as on the wire */
} tern_ndp_6lo_aro_t;

/** 6LoWPAN Context Option (RFC 6775 §4.2). */
typedef struct {
    uint8_t context_len;     /**< valid leading bits of @ref prefix, 0..128 */
    bool compression;        /**< C: valid for compression (always for decompression) */
    uint8_t cid;             /**< Context Identifier, 0..15 */
    uint16_t lifetime;       /**< Valid Lifetime, units of 60 s; 0: remove the context now */
    tern_ipv6_addr_t prefix; /**< parse: the 8 or 16 octets of the option, bits past context_len as sent, rest 0 */
} tern_ndp_6lo_6co_t;

/** Authoritative Border Router Option (RFC 6775 §4.3). */
typedef struct {
    uint32_t version;          /**< Version High (high 16 bits) and Version Low (low 16 bits) */
    uint16_t lifetime;         /**< Valid Lifetime, units of 60 s; 0: TERN_NDP_6LO_ABRO_DEFAULT_LIFETIME */
    tern_ipv6_addr_t border_router; /**< 6LBR Address */
} tern_ndp_6lo_abro_t;

/**
 * Duplicate Address Request / Confirmation (RFC 6775 §4.4) or their
 * extended forms EDAR / EDAC (RFC 8505 §4.4). The Code field says which: 0
 * for the RFC 6775 message (a 64-bit EUI-64, a reserved octet instead of the
 * TID), Code Prefix 0 and Code Suffix 1..4 for the extended one (the TID, a
 * ROVR of Code Suffix x 64 bits).
 */
typedef struct {
    uint8_t type;            /**< TERN_NDP_6LO_DAR or TERN_NDP_6LO_DAC */
    uint8_t status;          /**< DAC: TERN_NDP_6LO_STATUS_*; DAR: 0 */
    bool extended;           /**< EDAR/EDAC: @ref tid valid, Code Suffix = rovr_len / 8 */
    uint8_t tid;             /**< Transaction ID (extended) */
    uint16_t lifetime;       /**< Registration Lifetime, units of 60 s */
    uint8_t rovr_len;        /**< 8 (always, when not extended), 8..32 in steps of 8 */
    uint8_t rovr[TERN_NDP_6LO_ROVR_MAX]; /**< ROVR or EUI-64, as on the wire */
    tern_ipv6_addr_t registered; /**< Registered Address */
} tern_ndp_6lo_dar_repr_t;

/**
 * Parse an ARO or EARO.
 * @return 0; -EBADMSG for another type, a Length that is neither 2 (ARO) nor
 *         2..5 with the T flag (EARO: ROVR of 64..256 bits), or a reserved I
 *         value (1..3); -EINVAL for a NULL pointer.
 * @see RFC 6775 §4.1, RFC 8505 §4.1
 */
int tern_ndp_6lo_aro_parse(tern_ndp_6lo_aro_t *repr, const tern_ndp_opt_t *opt);
/** Option length for @p repr: 8 + rovr_len (0 if rovr_len is not 8, 16, 24, 32). */
size_t tern_ndp_6lo_aro_len(const tern_ndp_6lo_aro_t *repr);
/**
 * Append an ARO (extended false) or EARO (extended true), reserved fields 0.
 * @return bytes written; -EINVAL for a ROVR length other than 8/16/24/32, an
 *         ARO with a ROVR other than 8 octets or a nonzero opaque/I/R/TID, an
 *         I value other than 0, or a NULL pointer; -ENOBUFS if @p len is too small.
 */
int tern_ndp_6lo_aro_emit(const tern_ndp_6lo_aro_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a 6LoWPAN Context Option.
 * @return 0; -EBADMSG for another type, a Length other than 2 or 3, a Context
 *         Length above 128, or above 64 with Length 2 (§4.2: "If it is more
 *         than 64, then the Length MUST be 3"); -EINVAL for a NULL pointer.
 * @see RFC 6775 §4.2
 */
int tern_ndp_6lo_6co_parse(tern_ndp_6lo_6co_t *repr, const tern_ndp_opt_t *opt);
/** Option length: 16 for a context up to 64 bits, 24 up to 128; 0 above 128. */
size_t tern_ndp_6lo_6co_len(const tern_ndp_6lo_6co_t *repr);
/**
 * Append a 6LoWPAN Context Option: the first 8 (context up to 64 bits) or 16
 * octets of the prefix, as given.
 * @return bytes written; -EINVAL for a context length above 128, a CID above
 *         15 or a NULL pointer; -ENOBUFS if @p len is too small.
 */
int tern_ndp_6lo_6co_emit(const tern_ndp_6lo_6co_t *repr, uint8_t *buf, size_t len);

/**
 * Parse an Authoritative Border Router Option.
 * @return 0; -EBADMSG for another type or a Length other than 3; -EINVAL for NULL.
 * @see RFC 6775 §4.3
 */
int tern_ndp_6lo_abro_parse(tern_ndp_6lo_abro_t *repr, const tern_ndp_opt_t *opt);
/** Append an ABRO. @return TERN_NDP_6LO_ABRO_LEN; -ENOBUFS if @p len is too small; -EINVAL for NULL. */
int tern_ndp_6lo_abro_emit(const tern_ndp_6lo_abro_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a DAR or DAC (RFC 6775) or EDAR or EDAC (RFC 8505). Octets after the
 * Registered Address are ignored (RFC 6775 §8.2.1 asks for "32 or more
 * octets"; no option is defined for these messages).
 * @return the message length used (32 for Code 0, 8 + ROVR + 16 extended);
 *         -EBADMSG for another type, a Code Prefix other than 0, a Code Suffix
 *         above 4, or a message shorter than its format; -EINVAL for NULL.
 * @see RFC 6775 §4.4, RFC 8505 §4.4
 */
int tern_ndp_6lo_dar_parse(tern_ndp_6lo_dar_repr_t *repr, const uint8_t *buf, size_t len);
/** Length tern_ndp_6lo_dar_emit() writes: 24 + rovr_len (0 for an invalid ROVR length). */
size_t tern_ndp_6lo_dar_len(const tern_ndp_6lo_dar_repr_t *repr);
/**
 * Write a DAR, DAC, EDAR or EDAC with a zero checksum.
 * @return bytes written; -EINVAL for another type, a nonzero status in a
 *         DAR, a ROVR length other than 8/16/24/32 (8 when not extended), a
 *         nonzero TID when not extended, or a NULL pointer; -ENOBUFS if @p len
 *         is too small.
 */
int tern_ndp_6lo_dar_emit(const tern_ndp_6lo_dar_repr_t *repr, uint8_t *buf, size_t len);

#endif /* TERN_WIRE_NDP_6LO_H */
