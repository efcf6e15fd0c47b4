/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IPv6 addresses: type, classification, text form (RFC 4291, RFC 5952).
 *
 * Pure functions, no state. Addresses are 16 bytes in network order.
 */
#ifndef TERN_WIRE_IPV6_ADDR_H
#define TERN_WIRE_IPV6_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** An IPv6 address, network byte order. */
typedef struct {
    uint8_t u8[16];
} tern_ipv6_addr_t;

/** Longest text form plus NUL ("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255"). */
#define TERN_IPV6_ADDR_STRLEN 46

/** Static initialisers of well-known addresses. */
#define TERN_IPV6_ADDR_UNSPECIFIED { { 0 } }
#define TERN_IPV6_ADDR_LOOPBACK { { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } }
#define TERN_IPV6_ADDR_ALL_NODES_LINK { { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } }
#define TERN_IPV6_ADDR_ALL_ROUTERS_LINK { { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } }
#define TERN_IPV6_ADDR_ALL_MLDV2_ROUTERS { { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x16 } }

/** Address scopes (RFC 4291 §2.7, RFC 6724 §3.1), ordered as their values. */
typedef enum {
    TERN_IPV6_SCOPE_INTERFACE = 0x1,
    TERN_IPV6_SCOPE_LINK = 0x2,
    TERN_IPV6_SCOPE_REALM = 0x3,
    TERN_IPV6_SCOPE_ADMIN = 0x4,
    TERN_IPV6_SCOPE_SITE = 0x5,
    TERN_IPV6_SCOPE_ORGANIZATION = 0x8,
    TERN_IPV6_SCOPE_GLOBAL = 0xe,
} tern_ipv6_scope_t;

/** All 16 bytes equal. */
bool tern_ipv6_addr_equal(const tern_ipv6_addr_t *a, const tern_ipv6_addr_t *b);
/** :: (RFC 4291 §2.5.2) */
bool tern_ipv6_addr_is_unspecified(const tern_ipv6_addr_t *a);
/** ::1 (RFC 4291 §2.5.3) */
bool tern_ipv6_addr_is_loopback(const tern_ipv6_addr_t *a);
/** ff00::/8 (RFC 4291 §2.7) */
bool tern_ipv6_addr_is_multicast(const tern_ipv6_addr_t *a);
/** fe80::/10 */
bool tern_ipv6_addr_is_link_local(const tern_ipv6_addr_t *a);
/** ff02::1:ff00:0/104 */
bool tern_ipv6_addr_is_solicited_node(const tern_ipv6_addr_t *a);
/** ::ffff:0:0/96 */
bool tern_ipv6_addr_is_ipv4_mapped(const tern_ipv6_addr_t *a);

/**
 * Scope of @p a as RFC 6724 §3.1 defines it for address selection: a
 * multicast address's scope field; link-local for fe80::/10 and for the
 * loopback address; global for every other unicast address. A multicast
 * scope value that has no enumerator (0, 6, 7, 9-0xd, 0xf) is returned as is.
 */
tern_ipv6_scope_t tern_ipv6_addr_scope(const tern_ipv6_addr_t *a);

/** Number of leading bits @p a and @p b share (0..128). */
unsigned tern_ipv6_addr_common_prefix(const tern_ipv6_addr_t *a, const tern_ipv6_addr_t *b);

/** True when the first @p len bits (0..128) of @p a and @p prefix are equal (never for @p len > 128). */
bool tern_ipv6_addr_match_prefix(const tern_ipv6_addr_t *a, const tern_ipv6_addr_t *prefix,
                                 unsigned len);

/** Keep the first @p len bits of @p a, zero the rest (no change for @p len >= 128). */
void tern_ipv6_addr_mask(tern_ipv6_addr_t *a, unsigned len);

/** Solicited-node multicast address of @p a (RFC 4291 §2.7.1); @p out may alias @p a. */
void tern_ipv6_addr_solicited_node(tern_ipv6_addr_t *out, const tern_ipv6_addr_t *a);

/**
 * Modified EUI-64 interface identifier from a link address (RFC 4291
 * Appendix A, RFC 2464 §4 for 48-bit MACs, RFC 4944 §6 for EUI-64 and 16-bit
 * short addresses): written into the last 8 bytes of @p out.
 * The first 8 bytes of @p out are left unchanged.
 * @return 0; -EINVAL for a length other than 2, 6 or 8, or a NULL pointer.
 */
int tern_ipv6_iid_from_l2addr(tern_ipv6_addr_t *out, const uint8_t *l2addr, size_t len);

/**
 * The interface identifier of tern_ipv6_iid_from_l2addr(), written into the
 * 8 bytes at @p iid (where no whole address is at hand: 6LoWPAN's IPHC).
 * @return 0; -EINVAL for a length other than 2, 6 or 8 (nothing written).
 */
int tern_ipv6_iid_put(uint8_t *iid, const uint8_t *l2addr, size_t len);

/**
 * The 6LoWPAN link address the interface identifier of @p addr was formed
 * from (RFC 4944 §6, RFC 6282 §3.2.2): 0000:00ff:fe00:XXXX is the 16-bit
 * short address XXXX, anything else an EUI-64 with the U/L bit inverted back.
 * Written to @p out (room for 8 bytes). @return its length, 2 or 8.
 */
size_t tern_ipv6_l2addr_from_iid(const tern_ipv6_addr_t *addr, uint8_t *out);

/**
 * Parse the text form (RFC 4291 §2.2, incl. "::" and a trailing dotted quad)
 * of exactly @p len characters (no NUL needed). Accepted: 1-4 hex digits per
 * group (either case), at most one "::" standing for one or more zero groups,
 * a dotted quad (decimal 0-255, no leading zeros) only as the last 32 bits.
 * No zone index ("%eth0") and no prefix length ("/64").
 * @return 0; -EINVAL for anything malformed (including empty text or NULL
 *         pointers); @p out is unchanged on error.
 */
int tern_ipv6_addr_from_str(tern_ipv6_addr_t *out, const char *text, size_t len);

/**
 * Format @p a in the RFC 5952 canonical form (lower case, longest run of two
 * or more zero groups as "::" (the first on a tie), no leading zeros; mapped
 * IPv4 as ::ffff:a.b.c.d) into @p buf (at least TERN_IPV6_ADDR_STRLEN bytes).
 * @return string length (at most TERN_IPV6_ADDR_STRLEN - 1, NUL written
 *         after it); -ENOBUFS if @p size is too small for it and its NUL;
 *         -EINVAL for a NULL pointer.
 * @see RFC 5952 §4, §5
 */
int tern_ipv6_addr_to_str(const tern_ipv6_addr_t *a, char *buf, size_t size);

#endif /* TERN_WIRE_IPV6_ADDR_H */
