/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Neighbor Discovery messages and options (RFC 4861 §4, RFC 8106, RFC 4191).
 *
 * Read first: RFC 4861 §4.1-§4.5 (message formats), §4.6 (option format and
 * the rule that a zero-length option invalidates the whole message), the
 * validity checks of §6.1.1, §6.1.2, §7.1.1, §7.1.2 and §8.1.
 *
 * Split of the validity checks: the parse functions here check what the bytes
 * alone decide (ICMP code 0, ICMP length at least the fixed part, every option
 * of nonzero length and inside the message). The checks that need the IPv6
 * header (hop limit 255, source and destination address rules) belong to the
 * protocol layer; tern_ndp_check_ip() implements them for it.
 *
 * Options: a message's option area is walked with tern_ndp_opt_iter_init() /
 * tern_ndp_opt_next(), which yields every option as a generic tern_ndp_opt_t
 * (type + span). The caller hands a known option to its parse function
 * (tern_ndp_opt_lladdr_parse(), ...) and skips unknown ones (§4.6: "ignore
 * any options they do not recognize"). New options (e.g. the Address
 * Registration Option of RFC 6775 / RFC 8505, type 33) plug in the same way:
 * a repr, a parse function taking a tern_ndp_opt_t, an emit function.
 *
 * Emit functions write the fixed part followed by the repr's option bytes
 * (copied; they lie apart from the output or already where they go, no
 * other overlap) and a zero checksum; option emit functions append
 * one option and return its length. Fill the checksum last with
 * tern_icmpv6_checksum_fill().
 *
 * Errors are negative errno values: -EBADMSG malformed input, -ENOBUFS output
 * buffer too small, -EINVAL bad argument.
 */
#ifndef TERN_WIRE_NDP_H
#define TERN_WIRE_NDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"

/** @name Fixed lengths of the messages, ICMP header included (RFC 4861 §4.1-§4.5) */
/** @{ */
#define TERN_NDP_RS_LEN 8u
#define TERN_NDP_RA_LEN 16u
#define TERN_NDP_NS_LEN 24u
#define TERN_NDP_NA_LEN 24u
#define TERN_NDP_REDIRECT_LEN 40u
/** @} */

/** Hop limit every ND message is sent with and must arrive with (RFC 4861 §6.1.1 etc.). */
#define TERN_NDP_HOP_LIMIT 255u

/** @name Router Advertisement flags, the raw flags octet (RFC 4861 §4.2, RFC 3775, RFC 4191 §2.2, RFC 4389) */
/** @{ */
#define TERN_NDP_RA_FLAG_MANAGED 0x80u   /**< M: addresses via DHCPv6 */
#define TERN_NDP_RA_FLAG_OTHER 0x40u     /**< O: other configuration via DHCPv6 */
#define TERN_NDP_RA_FLAG_HOME_AGENT 0x20u /**< H (RFC 6275 §7.1) */
#define TERN_NDP_RA_PRF_MASK 0x18u       /**< Default Router Preference (RFC 4191 §2.2) */
#define TERN_NDP_RA_PRF_SHIFT 3u
#define TERN_NDP_RA_FLAG_PROXY 0x04u     /**< P (RFC 4389 §4.1) */
/** @} */

/** @name Neighbor Advertisement flags, the first octet of the flags word (RFC 4861 §4.4) */
/** @{ */
#define TERN_NDP_NA_FLAG_ROUTER 0x80u
#define TERN_NDP_NA_FLAG_SOLICITED 0x40u
#define TERN_NDP_NA_FLAG_OVERRIDE 0x20u
/** @} */

/** @name Option types (RFC 4861 §4.6, RFC 3971, RFC 4191, RFC 8106, RFC 6775) */
/** @{ */
#define TERN_NDP_OPT_SLLA 1u
#define TERN_NDP_OPT_TLLA 2u
#define TERN_NDP_OPT_PREFIX_INFO 3u
#define TERN_NDP_OPT_REDIRECTED_HDR 4u
#define TERN_NDP_OPT_MTU 5u
#define TERN_NDP_OPT_NONCE 14u   /**< RFC 3971 §5.3.2; Linux sends it in DAD probes (RFC 7527) */
#define TERN_NDP_OPT_ROUTE_INFO 24u /**< RFC 4191 §2.3 */
#define TERN_NDP_OPT_RDNSS 25u   /**< RFC 8106 §5.1 */
#define TERN_NDP_OPT_DNSSL 31u   /**< RFC 8106 §5.2 */
#define TERN_NDP_OPT_ARO 33u     /**< RFC 6775 §4.1, EARO in RFC 8505 §4.1 (not parsed yet) */
#define TERN_NDP_OPT_6CO 34u     /**< RFC 6775 §4.2 */
#define TERN_NDP_OPT_ABRO 35u    /**< RFC 6775 §4.3 */
/** @} */

/** @name Prefix Information flags (RFC 4861 §4.6.2, RFC 6275 §7.2) */
/** @{ */
#define TERN_NDP_PIO_FLAG_ONLINK 0x80u     /**< L */
#define TERN_NDP_PIO_FLAG_AUTONOMOUS 0x40u /**< A */
#define TERN_NDP_PIO_FLAG_ROUTER_ADDR 0x20u /**< R (RFC 6275 §7.2) */
/** @} */

/** Option lengths are counted in units of 8 octets (RFC 4861 §4.6). */
#define TERN_NDP_OPT_UNIT 8u
/** Longest option: 255 units. */
#define TERN_NDP_OPT_MAX_LEN (255u * TERN_NDP_OPT_UNIT)
#define TERN_NDP_OPT_PREFIX_INFO_LEN 32u
#define TERN_NDP_OPT_MTU_LEN 8u
/** Redirected Header: type, length, 6 reserved octets before the packet (§4.6.3). */
#define TERN_NDP_OPT_REDIRECTED_HDR_FIXED 8u
/** RDNSS: type, length, reserved, lifetime before the addresses (RFC 8106 §5.1). */
#define TERN_NDP_OPT_RDNSS_FIXED 8u
/** Most addresses an RDNSS option can carry ((255 - 1) / 2). */
#define TERN_NDP_OPT_RDNSS_MAX_ADDRS 127u
/** Route Information: type, length, prefix length, flags, lifetime before the prefix (RFC 4191 §2.3). */
#define TERN_NDP_OPT_ROUTE_INFO_FIXED 8u
/** Longest Route Information option: 3 units, the whole prefix (RFC 4191 §2.3). */
#define TERN_NDP_OPT_ROUTE_INFO_MAX_LEN 24u
/** Lifetime value meaning "infinity" (RFC 4861 §4.6.2, RFC 8106 §5.1). */
#define TERN_NDP_LIFETIME_INFINITE 0xffffffffu

/** Router Solicitation (RFC 4861 §4.1). */
typedef struct {
    const uint8_t *options; /**< option area (may be NULL when options_len is 0) */
    size_t options_len;
} tern_ndp_rs_repr_t;

/** Router Advertisement (RFC 4861 §4.2). */
typedef struct {
    uint8_t cur_hop_limit;    /**< 0: unspecified */
    uint8_t flags;            /**< raw octet: TERN_NDP_RA_FLAG_*, TERN_NDP_RA_PRF_MASK */
    uint16_t router_lifetime; /**< seconds; 0: not a default router */
    uint32_t reachable_time;  /**< milliseconds; 0: unspecified */
    uint32_t retrans_timer;   /**< milliseconds; 0: unspecified */
    const uint8_t *options;
    size_t options_len;
} tern_ndp_ra_repr_t;

/** Neighbor Solicitation (RFC 4861 §4.3). */
typedef struct {
    tern_ipv6_addr_t target;
    const uint8_t *options;
    size_t options_len;
} tern_ndp_ns_repr_t;

/** Neighbor Advertisement (RFC 4861 §4.4). */
typedef struct {
    uint8_t flags; /**< TERN_NDP_NA_FLAG_*; the 29 reserved bits are 0 on emit, ignored on parse */
    tern_ipv6_addr_t target;
    const uint8_t *options;
    size_t options_len;
} tern_ndp_na_repr_t;

/** Redirect (RFC 4861 §4.5). */
typedef struct {
    tern_ipv6_addr_t target;      /**< better first hop */
    tern_ipv6_addr_t destination; /**< redirected destination */
    const uint8_t *options;
    size_t options_len;
} tern_ndp_redirect_repr_t;

/** One option as found in an option area: any type, known or not. */
typedef struct {
    uint8_t type;
    const uint8_t *data; /**< the whole option, from its type octet */
    size_t len;          /**< its length in octets (a multiple of 8, at least 8) */
} tern_ndp_opt_t;

/** Walks an option area. Fields are private; initialise with tern_ndp_opt_iter_init(). */
typedef struct {
    const uint8_t *buf;
    size_t len;
    size_t offset;
} tern_ndp_opt_iter_t;

/**
 * Source/Target Link-Layer Address (RFC 4861 §4.6.1). The option does not say
 * how long the address is: parse reports the whole option body (address plus
 * padding, e.g. 6 for Ethernet, 14 for an IEEE 802.15.4 EUI-64 per RFC 4944
 * §8); the caller takes the first bytes its link uses.
 */
typedef struct {
    uint8_t type; /**< TERN_NDP_OPT_SLLA or TERN_NDP_OPT_TLLA */
    const uint8_t *addr;
    size_t addr_len;
} tern_ndp_opt_lladdr_t;

/** Prefix Information (RFC 4861 §4.6.2). */
typedef struct {
    uint8_t prefix_len;           /**< 0..128 */
    uint8_t flags;                /**< raw octet: TERN_NDP_PIO_FLAG_* */
    uint32_t valid_lifetime;      /**< seconds, TERN_NDP_LIFETIME_INFINITE */
    uint32_t preferred_lifetime;  /**< seconds, TERN_NDP_LIFETIME_INFINITE */
    tern_ipv6_addr_t prefix;      /**< as sent: bits past prefix_len are not cleared */
} tern_ndp_opt_prefix_info_t;

/** Redirected Header (RFC 4861 §4.6.3). */
typedef struct {
    const uint8_t *packet; /**< the original packet from its IPv6 header (parse: with padding) */
    size_t packet_len;
} tern_ndp_opt_redirected_hdr_t;

/** Recursive DNS Server (RFC 8106 §5.1). */
typedef struct {
    uint32_t lifetime;      /**< seconds, TERN_NDP_LIFETIME_INFINITE */
    const uint8_t *addrs;   /**< count addresses of 16 octets each, network order */
    size_t count;           /**< 1..TERN_NDP_OPT_RDNSS_MAX_ADDRS */
} tern_ndp_opt_rdnss_t;

/** Route Information (RFC 4191 §2.3): a route to a prefix through the advertising router. */
typedef struct {
    uint8_t prefix_len;      /**< 0..128 */
    int8_t preference;       /**< Route Preference (RFC 4191 §2.1): 1 high, 0 medium, -1 low */
    uint32_t lifetime;       /**< Route Lifetime, seconds; TERN_NDP_LIFETIME_INFINITE */
    tern_ipv6_addr_t prefix; /**< parse: bits past prefix_len cleared (§2.3: "ignored by the receiver") */
} tern_ndp_opt_route_info_t;

/**
 * Check an option area: every option has a nonzero length and ends inside
 * the area.
 * @return the number of options; -EBADMSG otherwise (RFC 4861 §4.6: the
 *         whole message is then discarded).
 */
int tern_ndp_options_check(const uint8_t *options, size_t len);

/** Start walking the option area @p options of @p len octets (NULL with 0 is allowed). */
void tern_ndp_opt_iter_init(tern_ndp_opt_iter_t *it, const uint8_t *options, size_t len);

/**
 * Next option of the area.
 * @param[out] opt  the option (unchanged at the end or on error)
 * @return 1 with @p opt filled; 0 at the end; -EBADMSG for a zero length, an
 *         option that runs past the end, or fewer than 2 octets left.
 * @see RFC 4861 §4.6
 */
int tern_ndp_opt_next(tern_ndp_opt_iter_t *it, tern_ndp_opt_t *opt);

/**
 * Find the first option of @p type in a checked option area.
 * @return 1 with @p opt filled; 0 if there is none; -EBADMSG if the area is malformed.
 */
int tern_ndp_opt_find(const uint8_t *options, size_t len, uint8_t type, tern_ndp_opt_t *opt);

/**
 * Parse a Router Solicitation (type 133).
 * @return TERN_NDP_RS_LEN (the options' offset); -EBADMSG for another type, a
 *         code other than 0, fewer than 8 octets, or malformed options.
 * @see RFC 4861 §4.1, §6.1.1
 */
int tern_ndp_rs_parse(tern_ndp_rs_repr_t *repr, const uint8_t *buf, size_t len);
/** Length tern_ndp_rs_emit() writes. */
size_t tern_ndp_rs_len(const tern_ndp_rs_repr_t *repr);
/**
 * Write a Router Solicitation, its options copied after the fixed part.
 * @return bytes written; -EINVAL for NULL options with a nonzero length;
 *         -ENOBUFS if @p len is too small.
 */
int tern_ndp_rs_emit(const tern_ndp_rs_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a Router Advertisement (type 134).
 * @return TERN_NDP_RA_LEN; -EBADMSG for another type, a code other than 0,
 *         fewer than 16 octets, or malformed options.
 * @see RFC 4861 §4.2, §6.1.2
 */
int tern_ndp_ra_parse(tern_ndp_ra_repr_t *repr, const uint8_t *buf, size_t len);
size_t tern_ndp_ra_len(const tern_ndp_ra_repr_t *repr);
/** Write a Router Advertisement. @return as tern_ndp_rs_emit(). */
int tern_ndp_ra_emit(const tern_ndp_ra_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Default Router Preference of @p flags (RFC 4191 §2.2): 1 high, 0 medium,
 * -1 low; the reserved value 10 is treated as medium ("MUST treat ... as (00)").
 */
int tern_ndp_ra_preference(uint8_t flags);

/**
 * Parse a Neighbor Solicitation (type 135).
 * @return TERN_NDP_NS_LEN; -EBADMSG for another type, a code other than 0,
 *         fewer than 24 octets, or malformed options.
 * @see RFC 4861 §4.3, §7.1.1
 */
int tern_ndp_ns_parse(tern_ndp_ns_repr_t *repr, const uint8_t *buf, size_t len);
size_t tern_ndp_ns_len(const tern_ndp_ns_repr_t *repr);
/** Write a Neighbor Solicitation. @return as tern_ndp_rs_emit(). */
int tern_ndp_ns_emit(const tern_ndp_ns_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a Neighbor Advertisement (type 136).
 * @return TERN_NDP_NA_LEN; -EBADMSG for another type, a code other than 0,
 *         fewer than 24 octets, or malformed options.
 * @see RFC 4861 §4.4, §7.1.2
 */
int tern_ndp_na_parse(tern_ndp_na_repr_t *repr, const uint8_t *buf, size_t len);
size_t tern_ndp_na_len(const tern_ndp_na_repr_t *repr);
/** Write a Neighbor Advertisement (reserved bits 0). @return as tern_ndp_rs_emit(). */
int tern_ndp_na_emit(const tern_ndp_na_repr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a Redirect (type 137).
 * @return TERN_NDP_REDIRECT_LEN; -EBADMSG for another type, a code other than
 *         0, fewer than 40 octets, or malformed options.
 * @see RFC 4861 §4.5, §8.1
 */
int tern_ndp_redirect_parse(tern_ndp_redirect_repr_t *repr, const uint8_t *buf, size_t len);
size_t tern_ndp_redirect_len(const tern_ndp_redirect_repr_t *repr);
/** Write a Redirect. @return as tern_ndp_rs_emit(). */
int tern_ndp_redirect_emit(const tern_ndp_redirect_repr_t *repr, uint8_t *buf, size_t len);

/**
 * The validity checks of an ND message that need its IPv6 header, for the
 * protocol layer (the byte-level ones are in the parse functions):
 * - every type: IP Hop Limit 255 (§6.1.1, §6.1.2, §7.1.1, §7.1.2, §8.1);
 * - RS: unspecified source ⇒ no Source Link-Layer Address option (§6.1.1);
 * - RA: link-local source (§6.1.2);
 * - NS: target not multicast; unspecified source ⇒ solicited-node
 *   destination and no SLLA option (§7.1.1);
 * - NA: target not multicast; multicast destination ⇒ Solicited flag 0 (§7.1.2);
 * - Redirect: link-local source; destination not multicast; target
 *   link-local or equal to the destination (§8.1). That the source is the
 *   current first hop for the destination needs state: the caller's check.
 * @param[in] msg        the ND message (parsed again here: a malformed one fails)
 * @param[in] len        its length
 * @param[in] src        IPv6 source address of the packet
 * @param[in] dst        IPv6 destination address of the packet
 * @param[in] hop_limit  IPv6 Hop Limit of the packet as received
 * @return 0 if the checks pass; -EBADMSG if one fails, the message is
 *         malformed or its type is not an ND type (133..137).
 */
int tern_ndp_check_ip(const uint8_t *msg, size_t len, const tern_ipv6_addr_t *src,
                      const tern_ipv6_addr_t *dst, uint8_t hop_limit);

/**
 * Parse a Source or Target Link-Layer Address option.
 * @return 0; -EBADMSG if @p opt is of another type.
 */
int tern_ndp_opt_lladdr_parse(tern_ndp_opt_lladdr_t *repr, const tern_ndp_opt_t *opt);
/** Option length for a link address of @p addr_len octets: 2 + addr_len rounded up to 8; 0 if too long. */
size_t tern_ndp_opt_lladdr_len(size_t addr_len);
/**
 * Append a Source or Target Link-Layer Address option, zero-padded to a
 * multiple of 8 octets. The address must not overlap @p buf.
 * @return bytes written; -EINVAL for another type, an empty or too long
 *         address; -ENOBUFS if @p len is too small.
 */
int tern_ndp_opt_lladdr_emit(const tern_ndp_opt_lladdr_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a Prefix Information option.
 * @return 0; -EBADMSG for another type, a length other than 4 units (§4.6.2)
 *         or a prefix length above 128. The caller skips such an option.
 */
int tern_ndp_opt_prefix_info_parse(tern_ndp_opt_prefix_info_t *repr, const tern_ndp_opt_t *opt);
/**
 * Append a Prefix Information option (reserved fields 0).
 * @return TERN_NDP_OPT_PREFIX_INFO_LEN; -EINVAL for a prefix length above
 *         128; -ENOBUFS if @p len is too small.
 */
int tern_ndp_opt_prefix_info_emit(const tern_ndp_opt_prefix_info_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a Redirected Header option: the packet span is the option after its
 * 8-octet fixed part (including any zero padding the sender added).
 * @return 0; -EBADMSG for another type.
 */
int tern_ndp_opt_redirected_hdr_parse(tern_ndp_opt_redirected_hdr_t *repr,
                                      const tern_ndp_opt_t *opt);
/**
 * Append a Redirected Header option with as much of the packet as fits in
 * @p len octets (and in one option), zero-padded to a multiple of 8.
 * To keep the Redirect within the minimum MTU (§8.2), pass
 * @p len = min(buffer room, 1280 - 40 - bytes of the Redirect before this option).
 * @return bytes written; -EINVAL for NULL packet with a nonzero length;
 *         -ENOBUFS if @p len is below 8.
 * @see RFC 4861 §4.6.3, §8.2
 */
int tern_ndp_opt_redirected_hdr_emit(const tern_ndp_opt_redirected_hdr_t *repr, uint8_t *buf,
                                     size_t len);

/**
 * Parse an MTU option.
 * @param[out] mtu  the MTU field
 * @return 0; -EBADMSG for another type or a length other than 1 unit (§4.6.4).
 */
int tern_ndp_opt_mtu_parse(uint32_t *mtu, const tern_ndp_opt_t *opt);
/** Append an MTU option. @return TERN_NDP_OPT_MTU_LEN; -ENOBUFS if @p len is too small. */
int tern_ndp_opt_mtu_emit(uint32_t mtu, uint8_t *buf, size_t len);

/**
 * Parse an RDNSS option.
 * @return 0; -EBADMSG for another type, or a length below 3 or even
 *         (RFC 8106 §5.1: 1 + 2 per address; the option is then invalid).
 */
int tern_ndp_opt_rdnss_parse(tern_ndp_opt_rdnss_t *repr, const tern_ndp_opt_t *opt);
/** Copy address @p index (< repr->count) of a parsed RDNSS option. @return 0; -EINVAL if out of range. */
int tern_ndp_opt_rdnss_addr(const tern_ndp_opt_rdnss_t *repr, size_t index, tern_ipv6_addr_t *out);
/** Option length for @p count addresses: 8 + 16 * count. */
size_t tern_ndp_opt_rdnss_len(size_t count);
/**
 * Append an RDNSS option.
 * @return bytes written; -EINVAL for 0 or more than TERN_NDP_OPT_RDNSS_MAX_ADDRS
 *         addresses or NULL addrs; -ENOBUFS if @p len is too small.
 */
int tern_ndp_opt_rdnss_emit(const tern_ndp_opt_rdnss_t *repr, uint8_t *buf, size_t len);

/**
 * Parse a Route Information option (RFC 4191 §2.3).
 * @return 0; -EBADMSG for another type, a length other than 1, 2 or 3 units,
 *         a prefix length above 128 or longer than the option carries
 *         (Length 1: 0 bits; 2: up to 64; 3: up to 128), or the reserved
 *         preference 10 (§2.3: the option "MUST be ignored"). The caller
 *         skips such an option.
 */
int tern_ndp_opt_route_info_parse(tern_ndp_opt_route_info_t *repr, const tern_ndp_opt_t *opt);
/** Length of the shortest Route Information option for @p prefix_len bits: 8, 16 or 24 (0 above 128). */
size_t tern_ndp_opt_route_info_len(uint8_t prefix_len);
/**
 * Append a Route Information option of the shortest length for its prefix,
 * the prefix bits past prefix_len and the reserved fields 0 (RFC 4191 §2.3).
 * @return bytes written (8, 16 or 24); -EINVAL for a prefix length above 128
 *         or a preference other than -1, 0, 1; -ENOBUFS if @p len is too small.
 */
int tern_ndp_opt_route_info_emit(const tern_ndp_opt_route_info_t *repr, uint8_t *buf, size_t len);

#endif /* TERN_WIRE_NDP_H */
