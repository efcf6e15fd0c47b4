/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Neighbor Discovery messages and options (RFC 4861 §4, RFC 8106, RFC 4191).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/bytes.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ndp.h"

/* ---- Options (RFC 4861 §4.6) ------------------------------------------------ */

void tern_ndp_opt_iter_init(tern_ndp_opt_iter_t *it, const uint8_t *options, size_t len)
{
    it->buf = options;
    it->len = options == NULL ? 0 : len;
    it->offset = 0;
}

int tern_ndp_opt_next(tern_ndp_opt_iter_t *it, tern_ndp_opt_t *opt)
{
    if (it->offset >= it->len) {
        return 0;
    }
    size_t left = it->len - it->offset;
    if (left < 2) {
        return -EBADMSG;
    }
    const uint8_t *p = it->buf + it->offset;
    size_t opt_len = (size_t)p[1] * TERN_NDP_OPT_UNIT;
    /* §4.6: "Nodes MUST silently discard an ND packet that contains an option
     * with length zero." An option running past the message is malformed too. */
    if (opt_len == 0 || opt_len > left) {
        return -EBADMSG;
    }
    opt->type = p[0];
    opt->data = p;
    opt->len = opt_len;
    it->offset += opt_len;
    return 1;
}

int tern_ndp_options_check(const uint8_t *options, size_t len)
{
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t opt;
    int count = 0;
    int rc;
    tern_ndp_opt_iter_init(&it, options, len);
    while ((rc = tern_ndp_opt_next(&it, &opt)) > 0) {
        count++;
    }
    return rc < 0 ? rc : count;
}

int tern_ndp_opt_find(const uint8_t *options, size_t len, uint8_t type, tern_ndp_opt_t *opt)
{
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t cur;
    int rc;
    tern_ndp_opt_iter_init(&it, options, len);
    while ((rc = tern_ndp_opt_next(&it, &cur)) > 0) {
        if (cur.type == type) {
            *opt = cur;
            return 1;
        }
    }
    return rc;
}

/* ---- Messages ---------------------------------------------------------------- */

/* Checks shared by all ND messages: type, code 0, ICMP length at least the
 * fixed part, well-formed options (§6.1.1, §6.1.2, §7.1.1, §7.1.2, §8.1). */
static int parse_fixed(const uint8_t *buf, size_t len, uint8_t type, size_t fixed,
                       const uint8_t **options, size_t *options_len)
{
    if (len < fixed || buf[0] != type || buf[1] != 0) {
        return -EBADMSG;
    }
    int rc = tern_ndp_options_check(buf + fixed, len - fixed);
    if (rc < 0) {
        return rc;
    }
    *options = buf + fixed;
    *options_len = len - fixed;
    return (int)fixed;
}

/* Size check, option copy and the ICMP header; the caller writes the rest of
 * the fixed part afterwards. The options lie apart from the output or already
 * in place (the contract in ndp.h): a plain copy, none in place. */
static int emit_fixed(uint8_t *buf, size_t len, uint8_t type, size_t fixed, const uint8_t *options,
                      size_t options_len)
{
    if (options == NULL && options_len != 0) {
        return -EINVAL;
    }
    if (options_len > (size_t)INT32_MAX - fixed) {
        return -EINVAL;
    }
    size_t need = fixed + options_len;
    if (len < need) {
        return -ENOBUFS;
    }
    if (options_len != 0 && options != buf + fixed) {
        memcpy(buf + fixed, options, options_len);
    }
    memset(buf, 0, fixed);
    buf[0] = type;
    return (int)need;
}

int tern_ndp_rs_parse(tern_ndp_rs_repr_t *repr, const uint8_t *buf, size_t len)
{
    /* Octets 4..7 are reserved: ignored on receive (§4.1). */
    return parse_fixed(buf, len, TERN_ICMPV6_ROUTER_SOLICIT, TERN_NDP_RS_LEN, &repr->options,
                       &repr->options_len);
}

size_t tern_ndp_rs_len(const tern_ndp_rs_repr_t *repr)
{
    return TERN_NDP_RS_LEN + repr->options_len;
}

int tern_ndp_rs_emit(const tern_ndp_rs_repr_t *repr, uint8_t *buf, size_t len)
{
    return emit_fixed(buf, len, TERN_ICMPV6_ROUTER_SOLICIT, TERN_NDP_RS_LEN, repr->options,
                      repr->options_len);
}

int tern_ndp_ra_parse(tern_ndp_ra_repr_t *repr, const uint8_t *buf, size_t len)
{
    int rc = parse_fixed(buf, len, TERN_ICMPV6_ROUTER_ADVERT, TERN_NDP_RA_LEN, &repr->options,
                         &repr->options_len);
    if (rc < 0) {
        return rc;
    }
    repr->cur_hop_limit = buf[4];
    repr->flags = buf[5];
    repr->router_lifetime = tern_load16(buf + 6);
    repr->reachable_time = tern_load32(buf + 8);
    repr->retrans_timer = tern_load32(buf + 12);
    return rc;
}

size_t tern_ndp_ra_len(const tern_ndp_ra_repr_t *repr)
{
    return TERN_NDP_RA_LEN + repr->options_len;
}

int tern_ndp_ra_emit(const tern_ndp_ra_repr_t *repr, uint8_t *buf, size_t len)
{
    int rc = emit_fixed(buf, len, TERN_ICMPV6_ROUTER_ADVERT, TERN_NDP_RA_LEN, repr->options,
                        repr->options_len);
    if (rc < 0) {
        return rc;
    }
    buf[4] = repr->cur_hop_limit;
    buf[5] = repr->flags;
    tern_store16(buf + 6, repr->router_lifetime);
    tern_store32(buf + 8, repr->reachable_time);
    tern_store32(buf + 12, repr->retrans_timer);
    return rc;
}

int tern_ndp_ra_preference(uint8_t flags)
{
    switch ((flags & TERN_NDP_RA_PRF_MASK) >> TERN_NDP_RA_PRF_SHIFT) {
    case 1u:
        return 1;
    case 3u:
        return -1;
    default:
        /* 00 medium; 10 reserved: "MUST treat the value as if it were (00)" (RFC 4191 §2.2). */
        return 0;
    }
}

/* parse_fixed() of an NS or NA (the same fixed part, §4.3, §4.4) and its Target Address. */
static int parse_target(const uint8_t *buf, size_t len, uint8_t type, tern_ipv6_addr_t *target,
                        const uint8_t **options, size_t *options_len)
{
    int rc = parse_fixed(buf, len, type, TERN_NDP_NS_LEN, options, options_len);
    if (rc >= 0) {
        memcpy(target->u8, buf + 8, 16);
    }
    return rc;
}

int tern_ndp_ns_parse(tern_ndp_ns_repr_t *repr, const uint8_t *buf, size_t len)
{
    return parse_target(buf, len, TERN_ICMPV6_NEIGHBOR_SOLICIT, &repr->target, &repr->options, &repr->options_len);
}

size_t tern_ndp_ns_len(const tern_ndp_ns_repr_t *repr)
{
    return TERN_NDP_NS_LEN + repr->options_len;
}

int tern_ndp_ns_emit(const tern_ndp_ns_repr_t *repr, uint8_t *buf, size_t len)
{
    int rc = emit_fixed(buf, len, TERN_ICMPV6_NEIGHBOR_SOLICIT, TERN_NDP_NS_LEN, repr->options,
                        repr->options_len);
    if (rc < 0) {
        return rc;
    }
    memcpy(buf + 8, repr->target.u8, 16);
    return rc;
}

int tern_ndp_na_parse(tern_ndp_na_repr_t *repr, const uint8_t *buf, size_t len)
{
    int rc = parse_target(buf, len, TERN_ICMPV6_NEIGHBOR_ADVERT, &repr->target, &repr->options, &repr->options_len);
    if (rc < 0) {
        return rc;
    }
    /* R, S, O are the top three bits; the other 29 are reserved (§4.4). */
    repr->flags = (uint8_t)(buf[4] & (TERN_NDP_NA_FLAG_ROUTER | TERN_NDP_NA_FLAG_SOLICITED |
                                      TERN_NDP_NA_FLAG_OVERRIDE));
    return rc;
}

size_t tern_ndp_na_len(const tern_ndp_na_repr_t *repr)
{
    return TERN_NDP_NA_LEN + repr->options_len;
}

int tern_ndp_na_emit(const tern_ndp_na_repr_t *repr, uint8_t *buf, size_t len)
{
    int rc = emit_fixed(buf, len, TERN_ICMPV6_NEIGHBOR_ADVERT, TERN_NDP_NA_LEN, repr->options,
                        repr->options_len);
    if (rc < 0) {
        return rc;
    }
    buf[4] = (uint8_t)(repr->flags & (TERN_NDP_NA_FLAG_ROUTER | TERN_NDP_NA_FLAG_SOLICITED |
                                      TERN_NDP_NA_FLAG_OVERRIDE));
    memcpy(buf + 8, repr->target.u8, 16);
    return rc;
}

int tern_ndp_redirect_parse(tern_ndp_redirect_repr_t *repr, const uint8_t *buf, size_t len)
{
    int rc = parse_fixed(buf, len, TERN_ICMPV6_REDIRECT, TERN_NDP_REDIRECT_LEN, &repr->options,
                         &repr->options_len);
    if (rc < 0) {
        return rc;
    }
    memcpy(repr->target.u8, buf + 8, 16);
    memcpy(repr->destination.u8, buf + 24, 16);
    return rc;
}

size_t tern_ndp_redirect_len(const tern_ndp_redirect_repr_t *repr)
{
    return TERN_NDP_REDIRECT_LEN + repr->options_len;
}

int tern_ndp_redirect_emit(const tern_ndp_redirect_repr_t *repr, uint8_t *buf, size_t len)
{
    int rc = emit_fixed(buf, len, TERN_ICMPV6_REDIRECT, TERN_NDP_REDIRECT_LEN, repr->options,
                        repr->options_len);
    if (rc < 0) {
        return rc;
    }
    memcpy(buf + 8, repr->target.u8, 16);
    memcpy(buf + 24, repr->destination.u8, 16);
    return rc;
}

/* ---- IPv6-header validity checks for the protocol layer ----------------------- */

static bool has_option(const uint8_t *options, size_t len, uint8_t type)
{
    tern_ndp_opt_t opt;
    return tern_ndp_opt_find(options, len, type, &opt) == 1;
}

/* Fixed part of each ND message, indexed by type - 133: RS, RA, NS, NA, Redirect (§4.1-§4.5). */
static const uint8_t fixed_len[] = { TERN_NDP_RS_LEN, TERN_NDP_RA_LEN, TERN_NDP_NS_LEN, TERN_NDP_NA_LEN,
                                     TERN_NDP_REDIRECT_LEN };

int tern_ndp_check_ip(const uint8_t *msg, size_t len, const tern_ipv6_addr_t *src,
                      const tern_ipv6_addr_t *dst, uint8_t hop_limit)
{
    if (hop_limit != TERN_NDP_HOP_LIMIT || len < TERN_ICMPV6_HDR_LEN ||
        msg[0] < TERN_ICMPV6_ROUTER_SOLICIT || msg[0] > TERN_ICMPV6_REDIRECT) {
        return -EBADMSG;
    }
    uint8_t type = msg[0];
    const uint8_t *options;
    size_t options_len;
    /* The checks of the message's own parse function (type, code, length, options). */
    if (parse_fixed(msg, len, type, fixed_len[type - TERN_ICMPV6_ROUTER_SOLICIT], &options, &options_len) < 0) {
        return -EBADMSG;
    }
    /* NS, NA and Redirect carry the Target Address at octet 8, a Redirect its
     * Destination Address at 24 (§4.3-§4.5): read only once the fixed part is there. */
    tern_ipv6_addr_t target;
    tern_ipv6_addr_t destination;
    if (type >= TERN_ICMPV6_NEIGHBOR_SOLICIT) {
        memcpy(target.u8, msg + 8, 16);
    }
    bool from_unspecified = tern_ipv6_addr_is_unspecified(src);
    bool ok;
    switch (type) {
    case TERN_ICMPV6_ROUTER_SOLICIT:
        /* §6.1.1 */
        ok = !from_unspecified || !has_option(options, options_len, TERN_NDP_OPT_SLLA);
        break;
    case TERN_ICMPV6_ROUTER_ADVERT:
        /* §6.1.2 */
        ok = tern_ipv6_addr_is_link_local(src);
        break;
    case TERN_ICMPV6_NEIGHBOR_SOLICIT:
        /* §7.1.1: a DAD probe goes to a solicited-node address and has no SLLA. */
        ok = !tern_ipv6_addr_is_multicast(&target) &&
             (!from_unspecified || (tern_ipv6_addr_is_solicited_node(dst) &&
                                    !has_option(options, options_len, TERN_NDP_OPT_SLLA)));
        break;
    case TERN_ICMPV6_NEIGHBOR_ADVERT:
        /* §7.1.2 */
        ok = !tern_ipv6_addr_is_multicast(&target) &&
             (!tern_ipv6_addr_is_multicast(dst) || (msg[4] & TERN_NDP_NA_FLAG_SOLICITED) == 0);
        break;
    default: /* Redirect */
        memcpy(destination.u8, msg + 24, 16);
        /* §8.1 */
        ok = tern_ipv6_addr_is_link_local(src) && !tern_ipv6_addr_is_multicast(&destination) &&
             (tern_ipv6_addr_is_link_local(&target) || tern_ipv6_addr_equal(&target, &destination));
        break;
    }
    return ok ? 0 : -EBADMSG;
}

/* ---- Option reprs --------------------------------------------------------------- */

int tern_ndp_opt_lladdr_parse(tern_ndp_opt_lladdr_t *repr, const tern_ndp_opt_t *opt)
{
    if ((opt->type != TERN_NDP_OPT_SLLA && opt->type != TERN_NDP_OPT_TLLA) || opt->len < 8) {
        return -EBADMSG;
    }
    repr->type = opt->type;
    repr->addr = opt->data + 2;
    repr->addr_len = opt->len - 2;
    return 0;
}

size_t tern_ndp_opt_lladdr_len(size_t addr_len)
{
    if (addr_len > TERN_NDP_OPT_MAX_LEN - 2) {
        return 0;
    }
    return (2 + addr_len + TERN_NDP_OPT_UNIT - 1) / TERN_NDP_OPT_UNIT * TERN_NDP_OPT_UNIT;
}

int tern_ndp_opt_lladdr_emit(const tern_ndp_opt_lladdr_t *repr, uint8_t *buf, size_t len)
{
    if ((repr->type != TERN_NDP_OPT_SLLA && repr->type != TERN_NDP_OPT_TLLA) ||
        repr->addr == NULL || repr->addr_len == 0) {
        return -EINVAL;
    }
    size_t need = tern_ndp_opt_lladdr_len(repr->addr_len);
    if (need == 0) {
        return -EINVAL;
    }
    if (len < need) {
        return -ENOBUFS;
    }
    memcpy(buf + 2, repr->addr, repr->addr_len); /* apart from @p buf (ndp.h) */
    /* §4.6.1: the option is padded to the next 8-octet boundary (with zeros). */
    memset(buf + 2 + repr->addr_len, 0, need - 2 - repr->addr_len);
    buf[0] = repr->type;
    buf[1] = (uint8_t)(need / TERN_NDP_OPT_UNIT);
    return (int)need;
}

int tern_ndp_opt_prefix_info_parse(tern_ndp_opt_prefix_info_t *repr, const tern_ndp_opt_t *opt)
{
    /* §4.6.2: "Length 4". A prefix longer than 128 bits cannot be. */
    if (opt->type != TERN_NDP_OPT_PREFIX_INFO || opt->len != TERN_NDP_OPT_PREFIX_INFO_LEN ||
        opt->data[2] > 128u) {
        return -EBADMSG;
    }
    const uint8_t *p = opt->data;
    repr->prefix_len = p[2];
    repr->flags = p[3]; /* L, A, R and reserved bits, as sent */
    repr->valid_lifetime = tern_load32(p + 4);
    repr->preferred_lifetime = tern_load32(p + 8);
    /* p[12..15]: Reserved2, ignored. */
    memcpy(repr->prefix.u8, p + 16, 16);
    return 0;
}

int tern_ndp_opt_prefix_info_emit(const tern_ndp_opt_prefix_info_t *repr, uint8_t *buf, size_t len)
{
    if (repr->prefix_len > 128u) {
        return -EINVAL;
    }
    if (len < TERN_NDP_OPT_PREFIX_INFO_LEN) {
        return -ENOBUFS;
    }
    buf[0] = TERN_NDP_OPT_PREFIX_INFO;
    buf[1] = TERN_NDP_OPT_PREFIX_INFO_LEN / TERN_NDP_OPT_UNIT;
    buf[2] = repr->prefix_len;
    buf[3] = repr->flags;
    tern_store32(buf + 4, repr->valid_lifetime);
    tern_store32(buf + 8, repr->preferred_lifetime);
    tern_store32(buf + 12, 0);
    memcpy(buf + 16, repr->prefix.u8, 16);
    return (int)TERN_NDP_OPT_PREFIX_INFO_LEN;
}

int tern_ndp_opt_redirected_hdr_parse(tern_ndp_opt_redirected_hdr_t *repr,
                                      const tern_ndp_opt_t *opt)
{
    if (opt->type != TERN_NDP_OPT_REDIRECTED_HDR || opt->len < TERN_NDP_OPT_REDIRECTED_HDR_FIXED) {
        return -EBADMSG;
    }
    repr->packet = opt->data + TERN_NDP_OPT_REDIRECTED_HDR_FIXED;
    repr->packet_len = opt->len - TERN_NDP_OPT_REDIRECTED_HDR_FIXED;
    return 0;
}

int tern_ndp_opt_redirected_hdr_emit(const tern_ndp_opt_redirected_hdr_t *repr, uint8_t *buf,
                                     size_t len)
{
    if (repr->packet == NULL && repr->packet_len != 0) {
        return -EINVAL;
    }
    if (len < TERN_NDP_OPT_REDIRECTED_HDR_FIXED) {
        return -ENOBUFS;
    }
    /* §4.6.3 / §8.2: as much of the packet as fits, the option a multiple of
     * 8 octets and at most 255 units long. */
    size_t room = len < TERN_NDP_OPT_MAX_LEN ? len : TERN_NDP_OPT_MAX_LEN;
    room = (room - TERN_NDP_OPT_REDIRECTED_HDR_FIXED) / TERN_NDP_OPT_UNIT * TERN_NDP_OPT_UNIT;
    size_t copy = repr->packet_len < room ? repr->packet_len : room;
    size_t padded = (copy + TERN_NDP_OPT_UNIT - 1) / TERN_NDP_OPT_UNIT * TERN_NDP_OPT_UNIT;
    size_t need = TERN_NDP_OPT_REDIRECTED_HDR_FIXED + padded;
    if (copy != 0) {
        memmove(buf + TERN_NDP_OPT_REDIRECTED_HDR_FIXED, repr->packet, copy);
    }
    memset(buf + TERN_NDP_OPT_REDIRECTED_HDR_FIXED + copy, 0, padded - copy);
    memset(buf, 0, TERN_NDP_OPT_REDIRECTED_HDR_FIXED);
    buf[0] = TERN_NDP_OPT_REDIRECTED_HDR;
    buf[1] = (uint8_t)(need / TERN_NDP_OPT_UNIT);
    return (int)need;
}

int tern_ndp_opt_mtu_parse(uint32_t *mtu, const tern_ndp_opt_t *opt)
{
    /* §4.6.4: "Length 1". */
    if (opt->type != TERN_NDP_OPT_MTU || opt->len != TERN_NDP_OPT_MTU_LEN) {
        return -EBADMSG;
    }
    *mtu = tern_load32(opt->data + 4);
    return 0;
}

int tern_ndp_opt_mtu_emit(uint32_t mtu, uint8_t *buf, size_t len)
{
    if (len < TERN_NDP_OPT_MTU_LEN) {
        return -ENOBUFS;
    }
    buf[0] = TERN_NDP_OPT_MTU;
    buf[1] = TERN_NDP_OPT_MTU_LEN / TERN_NDP_OPT_UNIT;
    tern_store16(buf + 2, 0);
    tern_store32(buf + 4, mtu);
    return (int)TERN_NDP_OPT_MTU_LEN;
}

int tern_ndp_opt_rdnss_parse(tern_ndp_opt_rdnss_t *repr, const tern_ndp_opt_t *opt)
{
    /* RFC 8106 §5.1: Length = 1 + 2 * addresses, at least 3; "if the Length
     * ... is not at least 3 ..., the option is invalid" — and an even length
     * cannot hold whole addresses. */
    size_t units = opt->len / TERN_NDP_OPT_UNIT;
    if (opt->type != TERN_NDP_OPT_RDNSS || units < 3 || units % 2 == 0) {
        return -EBADMSG;
    }
    repr->lifetime = tern_load32(opt->data + 4);
    repr->addrs = opt->data + TERN_NDP_OPT_RDNSS_FIXED;
    repr->count = (units - 1) / 2;
    return 0;
}

int tern_ndp_opt_rdnss_addr(const tern_ndp_opt_rdnss_t *repr, size_t index, tern_ipv6_addr_t *out)
{
    if (index >= repr->count || repr->addrs == NULL) {
        return -EINVAL;
    }
    memcpy(out->u8, repr->addrs + index * 16, 16);
    return 0;
}

size_t tern_ndp_opt_rdnss_len(size_t count)
{
    return TERN_NDP_OPT_RDNSS_FIXED + 16 * count;
}

int tern_ndp_opt_rdnss_emit(const tern_ndp_opt_rdnss_t *repr, uint8_t *buf, size_t len)
{
    if (repr->addrs == NULL || repr->count == 0 || repr->count > TERN_NDP_OPT_RDNSS_MAX_ADDRS) {
        return -EINVAL;
    }
    size_t need = tern_ndp_opt_rdnss_len(repr->count);
    if (len < need) {
        return -ENOBUFS;
    }
    memmove(buf + TERN_NDP_OPT_RDNSS_FIXED, repr->addrs, 16 * repr->count);
    buf[0] = TERN_NDP_OPT_RDNSS;
    buf[1] = (uint8_t)(need / TERN_NDP_OPT_UNIT);
    tern_store16(buf + 2, 0);
    tern_store32(buf + 4, repr->lifetime);
    return (int)need;
}

/* ------------------------------------------------------------ Route Information (RFC 4191 §2.3) */

size_t tern_ndp_opt_route_info_len(uint8_t prefix_len)
{
    /* §2.3: Length 1 for /0, 2 when the prefix fits 64 bits, else 3. */
    if (prefix_len > 128u) {
        return 0;
    }
    return (prefix_len == 0u) ? 8u : (prefix_len <= 64u) ? 16u : 24u;
}

int tern_ndp_opt_route_info_parse(tern_ndp_opt_route_info_t *repr, const tern_ndp_opt_t *opt)
{
    if (opt->type != TERN_NDP_OPT_ROUTE_INFO || opt->len < TERN_NDP_OPT_ROUTE_INFO_FIXED ||
        opt->len > TERN_NDP_OPT_ROUTE_INFO_MAX_LEN) {
        return -EBADMSG;
    }
    const uint8_t *p = opt->data;
    uint8_t plen = p[2];
    size_t carried = opt->len - TERN_NDP_OPT_ROUTE_INFO_FIXED; /* prefix octets present: 0, 8 or 16 */
    /* §2.3: "If the Prefix Length is greater than 64, then Length must be 3. If
     * the Prefix Length is greater than 0, then Length must be 2 or 3." */
    if (plen > 128u || (size_t)plen > carried * 8u) {
        return -EBADMSG;
    }
    if ((p[3] & TERN_NDP_RA_PRF_MASK) == (2u << TERN_NDP_RA_PRF_SHIFT)) {
        return -EBADMSG; /* §2.3: reserved (10): the option MUST be ignored */
    }
    repr->prefix_len = plen;
    repr->preference = (int8_t)tern_ndp_ra_preference(p[3]); /* the same two bits as an RA's (§2.1) */
    repr->lifetime = tern_load32(p + 4);
    memset(repr->prefix.u8, 0, sizeof(repr->prefix.u8));
    memcpy(repr->prefix.u8, p + TERN_NDP_OPT_ROUTE_INFO_FIXED, carried);
    /* Bits past the prefix length are reserved: ignored (cleared here). */
    tern_ipv6_addr_mask(&repr->prefix, plen);
    return 0;
}

int tern_ndp_opt_route_info_emit(const tern_ndp_opt_route_info_t *repr, uint8_t *buf, size_t len)
{
    size_t need = tern_ndp_opt_route_info_len(repr->prefix_len);
    if (need == 0 || repr->preference < -1 || repr->preference > 1) {
        return -EINVAL;
    }
    if (len < need) {
        return -ENOBUFS;
    }
    uint8_t prf = (repr->preference > 0) ? 1u : (repr->preference < 0) ? 3u : 0u;
    buf[0] = TERN_NDP_OPT_ROUTE_INFO;
    buf[1] = (uint8_t)(need / TERN_NDP_OPT_UNIT);
    buf[2] = repr->prefix_len;
    buf[3] = (uint8_t)(prf << TERN_NDP_RA_PRF_SHIFT);
    tern_store32(buf + 4, repr->lifetime);
    /* §2.3: bits past the prefix length "MUST be initialized to zero by the sender";
     * the option carries the octets the length needs (0, 8 or 16). */
    tern_ipv6_addr_t prefix = repr->prefix;
    tern_ipv6_addr_mask(&prefix, repr->prefix_len);
    memcpy(buf + TERN_NDP_OPT_ROUTE_INFO_FIXED, prefix.u8, need - TERN_NDP_OPT_ROUTE_INFO_FIXED);
    return (int)need;
}
