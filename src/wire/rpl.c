/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief RPL control messages and options (RFC 6550 §6).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/bytes.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ndp.h"
#include "tern/wire/rpl.h"

/* The longest message an IPv6 payload can carry: a bound for the emit checks. */
#define RPL_MSG_MAX 65535u

/* ---- Options (RFC 6550 §6.7) ----------------------------------------------------- */

/* Octets that hold a prefix of @p prefix_len bits. */
static size_t prefix_octets(uint8_t prefix_len)
{
    return ((size_t)prefix_len + 7u) / 8u;
}

/* Octets of Option Data before the prefix of Route Information (Prefix Length,
 * flags, Route Lifetime: §6.7.5) and RPL Target (Flags, Prefix Length: §6.7.7). */
#define ROUTE_INFO_BODY_FIXED (TERN_RPL_OPT_ROUTE_INFO_FIXED - TERN_RPL_OPT_HDR_LEN)
#define TARGET_BODY_FIXED (TERN_RPL_OPT_TARGET_FIXED - TERN_RPL_OPT_HDR_LEN)

/* Whether the option at @p p of @p size octets (2 + Option Length) obeys its
 * type's length rule. Unknown types and the DAG Metric Container (whose
 * objects RFC 6551 delimits) take any length. */
static bool opt_len_ok(const uint8_t *p, size_t size)
{
    size_t body = size - TERN_RPL_OPT_HDR_LEN;
    switch (p[0]) {
    case TERN_RPL_OPT_PADN:
        /* §6.7.3: "An Option Length of 5 indicates ... the maximum padding size". */
        return size <= TERN_RPL_OPT_PADN_MAX_LEN;
    case TERN_RPL_OPT_ROUTE_INFO:
        /* §6.7.5: a variable-length prefix holding Prefix Length bits, at
         * most an address. */
        return body >= ROUTE_INFO_BODY_FIXED && p[2] <= 128u &&
               body >= ROUTE_INFO_BODY_FIXED + prefix_octets(p[2]) && body <= ROUTE_INFO_BODY_FIXED + 16u;
    case TERN_RPL_OPT_DODAG_CONF:
        return size == TERN_RPL_OPT_DODAG_CONF_LEN; /* §6.7.6: "Opt Length = 14" */
    case TERN_RPL_OPT_TARGET:
        /* §6.7.7: Flags, Prefix Length, then the prefix. */
        return body >= TARGET_BODY_FIXED && p[3] <= 128u && body >= TARGET_BODY_FIXED + prefix_octets(p[3]) &&
               body <= TARGET_BODY_FIXED + 16u;
    case TERN_RPL_OPT_TRANSIT:
        /* §6.7.8: 4 without the Parent Address, 20 with it. */
        return size == TERN_RPL_OPT_TRANSIT_LEN || size == TERN_RPL_OPT_TRANSIT_PARENT_LEN;
    case TERN_RPL_OPT_SOLICITED:
        return size == TERN_RPL_OPT_SOLICITED_LEN; /* §6.7.9: "Opt Length = 19" */
    case TERN_RPL_OPT_PREFIX_INFO:
        return size == TERN_RPL_OPT_PREFIX_INFO_LEN && p[2] <= 128u; /* §6.7.10: 30 */
    case TERN_RPL_OPT_TARGET_DESC:
        return size == TERN_RPL_OPT_TARGET_DESC_LEN; /* §6.7.11: 4 */
    default:
        return true;
    }
}

void tern_rpl_opt_iter_init(tern_rpl_opt_iter_t *it, const uint8_t *options, size_t len)
{
    it->buf = options;
    it->len = options == NULL ? 0 : len;
    it->offset = 0;
}

int tern_rpl_opt_next(tern_rpl_opt_iter_t *it, tern_rpl_opt_t *opt)
{
    size_t offset = it->offset;
    while (offset < it->len) {
        const uint8_t *p = it->buf + offset;
        size_t left = it->len - offset;
        /* §6.7.2: Pad1 is a lone Type octet. */
        if (p[0] == TERN_RPL_OPT_PAD1) {
            offset++;
            continue;
        }
        if (left < TERN_RPL_OPT_HDR_LEN) {
            return -EBADMSG;
        }
        size_t size = TERN_RPL_OPT_HDR_LEN + (size_t)p[1];
        if (size > left || !opt_len_ok(p, size)) {
            return -EBADMSG; /* offset not stored: the next call fails again */
        }
        offset += size;
        if (p[0] == TERN_RPL_OPT_PADN) {
            it->offset = offset;
            continue;
        }
        it->offset = offset;
        opt->type = p[0];
        opt->data = p;
        opt->len = size;
        return 1;
    }
    it->offset = offset;
    return 0;
}

int tern_rpl_options_check(const uint8_t *options, size_t len)
{
    tern_rpl_opt_iter_t it;
    tern_rpl_opt_t opt;
    int count = 0;
    int rc;
    tern_rpl_opt_iter_init(&it, options, len);
    while ((rc = tern_rpl_opt_next(&it, &opt)) > 0) {
        count++;
    }
    return rc < 0 ? rc : count;
}

int tern_rpl_opt_find(const uint8_t *options, size_t len, uint8_t type, tern_rpl_opt_t *opt)
{
    tern_rpl_opt_iter_t it;
    tern_rpl_opt_t cur;
    int rc;
    tern_rpl_opt_iter_init(&it, options, len);
    while ((rc = tern_rpl_opt_next(&it, &cur)) > 0) {
        if (cur.type == type) {
            *opt = cur;
            return 1;
        }
    }
    return rc;
}

bool tern_rpl_opt_allowed(uint8_t code, uint8_t type)
{
    if (type == TERN_RPL_OPT_PAD1 || type == TERN_RPL_OPT_PADN) {
        return code <= TERN_RPL_CODE_DAO_ACK;
    }
    switch (code) {
    case TERN_RPL_CODE_DIS: /* §6.2.3 */
        return type == TERN_RPL_OPT_SOLICITED;
    case TERN_RPL_CODE_DIO: /* §6.3.3 */
        return type == TERN_RPL_OPT_DAG_METRIC || type == TERN_RPL_OPT_ROUTE_INFO ||
               type == TERN_RPL_OPT_DODAG_CONF || type == TERN_RPL_OPT_PREFIX_INFO;
    case TERN_RPL_CODE_DAO: /* §6.4.3 */
        return type == TERN_RPL_OPT_TARGET || type == TERN_RPL_OPT_TRANSIT ||
               type == TERN_RPL_OPT_TARGET_DESC;
    default: /* DAO-ACK: padding only (§6.5.3) */
        return false;
    }
}

int tern_rpl_opt_pad_emit(uint8_t *buf, size_t len, size_t n)
{
    if (len < n) {
        return -ENOBUFS;
    }
    if (n > (size_t)INT32_MAX) {
        return -EINVAL;
    }
    size_t off = 0;
    while (off < n) {
        size_t left = n - off;
        if (left == 1u) {
            buf[off++] = TERN_RPL_OPT_PAD1;
            continue;
        }
        size_t chunk = left < TERN_RPL_OPT_PADN_MAX_LEN ? left : TERN_RPL_OPT_PADN_MAX_LEN;
        buf[off] = TERN_RPL_OPT_PADN;
        buf[off + 1u] = (uint8_t)(chunk - TERN_RPL_OPT_HDR_LEN);
        memset(buf + off + 2u, 0, chunk - TERN_RPL_OPT_HDR_LEN);
        off += chunk;
    }
    return (int)n;
}

/* Start an option of @p size octets of type @p type: room check, zeroed body. */
static int opt_begin(uint8_t *buf, size_t len, uint8_t type, size_t size)
{
    if (len < size) {
        return -ENOBUFS;
    }
    memset(buf, 0, size);
    buf[0] = type;
    buf[1] = (uint8_t)(size - TERN_RPL_OPT_HDR_LEN);
    return (int)size;
}

/* Clear the bits past a prefix of @p prefix_len bits (at most 128) in the
 * last of its ceil(prefix_len / 8) octets at @p p. */
static void prefix_clear_tail(uint8_t *p, uint8_t prefix_len)
{
    if (prefix_len % 8u != 0) {
        p[prefix_len / 8u] &= (uint8_t)(0xFFu << (8u - prefix_len % 8u));
    }
}

/* The prefix of @p prefix_len bits (at most 128) at @p p, whose option holds
 * its ceil(prefix_len / 8) octets (opt_len_ok()): bits past the prefix are
 * "ignored by the receiver" (§6.7.5, §6.7.7), and read as 0. */
static void prefix_read(tern_ipv6_addr_t *out, const uint8_t *p, uint8_t prefix_len)
{
    memset(out->u8, 0, sizeof(out->u8));
    memcpy(out->u8, p, prefix_octets(prefix_len));
    prefix_clear_tail(out->u8, prefix_len);
}

/* Write the ceil(prefix_len / 8) octets of @p prefix, bits past prefix_len 0
 * ("MUST be initialized to zero by the sender"). */
static void prefix_write(uint8_t *p, const tern_ipv6_addr_t *prefix, uint8_t prefix_len)
{
    memcpy(p, prefix->u8, prefix_octets(prefix_len));
    prefix_clear_tail(p, prefix_len);
}

int tern_rpl_opt_metric_parse(tern_rpl_opt_metric_t *repr, const tern_rpl_opt_t *opt)
{
    if (opt->type != TERN_RPL_OPT_DAG_METRIC || opt->len < TERN_RPL_OPT_HDR_LEN) {
        return -EBADMSG;
    }
    repr->data = opt->data + TERN_RPL_OPT_HDR_LEN;
    repr->len = opt->len - TERN_RPL_OPT_HDR_LEN;
    return 0;
}

size_t tern_rpl_opt_metric_len(const tern_rpl_opt_metric_t *repr)
{
    return TERN_RPL_OPT_HDR_LEN + repr->len;
}

int tern_rpl_opt_metric_emit(const tern_rpl_opt_metric_t *repr, uint8_t *buf, size_t len)
{
    if (repr->len > 255u || (repr->data == NULL && repr->len != 0)) {
        return -EINVAL;
    }
    size_t size = tern_rpl_opt_metric_len(repr);
    if (len < size) {
        return -ENOBUFS;
    }
    if (repr->len != 0) {
        memmove(buf + TERN_RPL_OPT_HDR_LEN, repr->data, repr->len);
    }
    buf[0] = TERN_RPL_OPT_DAG_METRIC;
    buf[1] = (uint8_t)repr->len;
    return (int)size;
}

int tern_rpl_opt_route_info_parse(tern_rpl_opt_route_info_t *repr, const tern_rpl_opt_t *opt)
{
    if (opt->type != TERN_RPL_OPT_ROUTE_INFO || opt->len < TERN_RPL_OPT_HDR_LEN ||
        !opt_len_ok(opt->data, opt->len)) {
        return -EBADMSG;
    }
    const uint8_t *p = opt->data;
    repr->prefix_len = p[2];
    /* Resvd (3) | Prf (2) | Resvd (3): only Prf is kept. */
    repr->preference = (uint8_t)((p[3] & TERN_RPL_ROUTE_INFO_PRF_MASK) >> TERN_RPL_ROUTE_INFO_PRF_SHIFT);
    repr->lifetime = tern_load32(p + 4);
    prefix_read(&repr->prefix, p + TERN_RPL_OPT_ROUTE_INFO_FIXED, repr->prefix_len);
    return 0;
}

/* Prefix octets a Route Information option is sent with: 0, 8 or 16, the
 * sizes of RFC 4191 §2.3 (Length 1, 2, 3), whose option RFC 6550 §6.7.5
 * mirrors. RFC 6550 lets the prefix field be of any length that holds the
 * prefix and Tern accepts any; it sends these because receivers that follow
 * RFC 4191's sizes (Wireshark 4.0 among them) refuse others. */
static size_t route_info_prefix_octets(uint8_t prefix_len)
{
    return prefix_len == 0 ? 0u : (prefix_len <= 64u ? 8u : 16u);
}

size_t tern_rpl_opt_route_info_len(const tern_rpl_opt_route_info_t *repr)
{
    if (repr->prefix_len > 128u) {
        return 0;
    }
    return TERN_RPL_OPT_ROUTE_INFO_FIXED + route_info_prefix_octets(repr->prefix_len);
}

int tern_rpl_opt_route_info_emit(const tern_rpl_opt_route_info_t *repr, uint8_t *buf, size_t len)
{
    if (repr->prefix_len > 128u || repr->preference > 3u) {
        return -EINVAL;
    }
    int rc = opt_begin(buf, len, TERN_RPL_OPT_ROUTE_INFO, tern_rpl_opt_route_info_len(repr));
    if (rc < 0) {
        return rc;
    }
    buf[2] = repr->prefix_len;
    buf[3] = (uint8_t)(repr->preference << TERN_RPL_ROUTE_INFO_PRF_SHIFT);
    tern_store32(buf + 4, repr->lifetime);
    /* the octets past ceil(prefix_len / 8) stay 0 (opt_begin) */
    prefix_write(buf + TERN_RPL_OPT_ROUTE_INFO_FIXED, &repr->prefix, repr->prefix_len);
    return rc;
}

int tern_rpl_opt_dodag_conf_parse(tern_rpl_opt_dodag_conf_t *repr, const tern_rpl_opt_t *opt)
{
    if (opt->type != TERN_RPL_OPT_DODAG_CONF || opt->len != TERN_RPL_OPT_DODAG_CONF_LEN) {
        return -EBADMSG;
    }
    const uint8_t *p = opt->data;
    /* Flags (4, reserved) | A | PCS (3) */
    repr->authentication = (p[2] & TERN_RPL_DODAG_CONF_FLAG_A) != 0;
    repr->path_control_size = (uint8_t)(p[2] & TERN_RPL_DODAG_CONF_PCS_MASK);
    repr->dio_int_doublings = p[3];
    repr->dio_int_min = p[4];
    repr->dio_redundancy = p[5];
    repr->max_rank_increase = tern_load16(p + 6);
    repr->min_hop_rank_increase = tern_load16(p + 8);
    repr->ocp = tern_load16(p + 10);
    /* p[12]: Reserved, ignored. */
    repr->default_lifetime = p[13];
    repr->lifetime_unit = tern_load16(p + 14);
    return 0;
}

int tern_rpl_opt_dodag_conf_emit(const tern_rpl_opt_dodag_conf_t *repr, uint8_t *buf, size_t len)
{
    if (repr->path_control_size > TERN_RPL_DODAG_CONF_PCS_MASK) {
        return -EINVAL;
    }
    int rc = opt_begin(buf, len, TERN_RPL_OPT_DODAG_CONF, TERN_RPL_OPT_DODAG_CONF_LEN);
    if (rc < 0) {
        return rc;
    }
    buf[2] = (uint8_t)((repr->authentication ? TERN_RPL_DODAG_CONF_FLAG_A : 0u) | repr->path_control_size);
    buf[3] = repr->dio_int_doublings;
    buf[4] = repr->dio_int_min;
    buf[5] = repr->dio_redundancy;
    tern_store16(buf + 6, repr->max_rank_increase);
    tern_store16(buf + 8, repr->min_hop_rank_increase);
    tern_store16(buf + 10, repr->ocp);
    buf[13] = repr->default_lifetime;
    tern_store16(buf + 14, repr->lifetime_unit);
    return rc;
}

int tern_rpl_opt_target_parse(tern_rpl_opt_target_t *repr, const tern_rpl_opt_t *opt)
{
    if (opt->type != TERN_RPL_OPT_TARGET || opt->len < TERN_RPL_OPT_HDR_LEN || !opt_len_ok(opt->data, opt->len)) {
        return -EBADMSG;
    }
    /* p[2]: Flags, reserved by RFC 6550 (RFC 9010 assigns some): ignored. */
    repr->prefix_len = opt->data[3];
    prefix_read(&repr->prefix, opt->data + TERN_RPL_OPT_TARGET_FIXED, repr->prefix_len);
    return 0;
}

size_t tern_rpl_opt_target_len(const tern_rpl_opt_target_t *repr)
{
    if (repr->prefix_len > 128u) {
        return 0;
    }
    return TERN_RPL_OPT_TARGET_FIXED + prefix_octets(repr->prefix_len);
}

int tern_rpl_opt_target_emit(const tern_rpl_opt_target_t *repr, uint8_t *buf, size_t len)
{
    if (repr->prefix_len > 128u) {
        return -EINVAL;
    }
    int rc = opt_begin(buf, len, TERN_RPL_OPT_TARGET, tern_rpl_opt_target_len(repr));
    if (rc < 0) {
        return rc;
    }
    buf[3] = repr->prefix_len;
    prefix_write(buf + TERN_RPL_OPT_TARGET_FIXED, &repr->prefix, repr->prefix_len);
    return rc;
}

int tern_rpl_opt_transit_parse(tern_rpl_opt_transit_t *repr, const tern_rpl_opt_t *opt)
{
    if (opt->type != TERN_RPL_OPT_TRANSIT ||
        (opt->len != TERN_RPL_OPT_TRANSIT_LEN && opt->len != TERN_RPL_OPT_TRANSIT_PARENT_LEN)) {
        return -EBADMSG;
    }
    const uint8_t *p = opt->data;
    repr->external = (p[2] & TERN_RPL_TRANSIT_FLAG_E) != 0; /* the other 7 flags: reserved */
    repr->path_control = p[3];
    repr->path_sequence = p[4];
    repr->path_lifetime = p[5];
    repr->has_parent = opt->len == TERN_RPL_OPT_TRANSIT_PARENT_LEN;
    if (repr->has_parent) {
        memcpy(repr->parent.u8, p + TERN_RPL_OPT_TRANSIT_LEN, 16);
    } else {
        memset(repr->parent.u8, 0, 16);
    }
    return 0;
}

size_t tern_rpl_opt_transit_len(const tern_rpl_opt_transit_t *repr)
{
    return repr->has_parent ? TERN_RPL_OPT_TRANSIT_PARENT_LEN : TERN_RPL_OPT_TRANSIT_LEN;
}

int tern_rpl_opt_transit_emit(const tern_rpl_opt_transit_t *repr, uint8_t *buf, size_t len)
{
    int rc = opt_begin(buf, len, TERN_RPL_OPT_TRANSIT, tern_rpl_opt_transit_len(repr));
    if (rc < 0) {
        return rc;
    }
    buf[2] = repr->external ? TERN_RPL_TRANSIT_FLAG_E : 0u;
    buf[3] = repr->path_control;
    buf[4] = repr->path_sequence;
    buf[5] = repr->path_lifetime;
    if (repr->has_parent) {
        memcpy(buf + TERN_RPL_OPT_TRANSIT_LEN, repr->parent.u8, 16);
    }
    return rc;
}

int tern_rpl_opt_solicited_parse(tern_rpl_opt_solicited_t *repr, const tern_rpl_opt_t *opt)
{
    if (opt->type != TERN_RPL_OPT_SOLICITED || opt->len != TERN_RPL_OPT_SOLICITED_LEN) {
        return -EBADMSG;
    }
    const uint8_t *p = opt->data;
    repr->instance_id = p[2];
    repr->match_version = (p[3] & TERN_RPL_SOLICITED_FLAG_V) != 0;
    repr->match_instance = (p[3] & TERN_RPL_SOLICITED_FLAG_I) != 0;
    repr->match_dodag_id = (p[3] & TERN_RPL_SOLICITED_FLAG_D) != 0;
    memcpy(repr->dodag_id.u8, p + 4, 16);
    repr->version = p[20];
    return 0;
}

int tern_rpl_opt_solicited_emit(const tern_rpl_opt_solicited_t *repr, uint8_t *buf, size_t len)
{
    int rc = opt_begin(buf, len, TERN_RPL_OPT_SOLICITED, TERN_RPL_OPT_SOLICITED_LEN);
    if (rc < 0) {
        return rc;
    }
    buf[2] = repr->instance_id;
    buf[3] = (uint8_t)((repr->match_version ? TERN_RPL_SOLICITED_FLAG_V : 0u) |
                       (repr->match_instance ? TERN_RPL_SOLICITED_FLAG_I : 0u) |
                       (repr->match_dodag_id ? TERN_RPL_SOLICITED_FLAG_D : 0u));
    memcpy(buf + 4, repr->dodag_id.u8, 16);
    buf[20] = repr->version;
    return rc;
}

int tern_rpl_opt_prefix_info_parse(tern_ndp_opt_prefix_info_t *repr, const tern_rpl_opt_t *opt)
{
    if (opt->type != TERN_RPL_OPT_PREFIX_INFO || opt->len != TERN_RPL_OPT_PREFIX_INFO_LEN ||
        opt->data[2] > 128u) {
        return -EBADMSG;
    }
    const uint8_t *p = opt->data;
    repr->prefix_len = p[2];
    repr->flags = p[3];
    repr->valid_lifetime = tern_load32(p + 4);
    repr->preferred_lifetime = tern_load32(p + 8);
    /* p[12..15]: Reserved2, ignored. */
    memcpy(repr->prefix.u8, p + 16, 16);
    return 0;
}

int tern_rpl_opt_prefix_info_emit(const tern_ndp_opt_prefix_info_t *repr, uint8_t *buf, size_t len)
{
    if (repr->prefix_len > 128u) {
        return -EINVAL;
    }
    int rc = opt_begin(buf, len, TERN_RPL_OPT_PREFIX_INFO, TERN_RPL_OPT_PREFIX_INFO_LEN);
    if (rc < 0) {
        return rc;
    }
    buf[2] = repr->prefix_len;
    buf[3] = repr->flags;
    tern_store32(buf + 4, repr->valid_lifetime);
    tern_store32(buf + 8, repr->preferred_lifetime);
    memcpy(buf + 16, repr->prefix.u8, 16);
    return rc;
}

int tern_rpl_opt_target_desc_parse(uint32_t *descriptor, const tern_rpl_opt_t *opt)
{
    if (opt->type != TERN_RPL_OPT_TARGET_DESC || opt->len != TERN_RPL_OPT_TARGET_DESC_LEN) {
        return -EBADMSG;
    }
    *descriptor = tern_load32(opt->data + 2);
    return 0;
}

int tern_rpl_opt_target_desc_emit(uint32_t descriptor, uint8_t *buf, size_t len)
{
    int rc = opt_begin(buf, len, TERN_RPL_OPT_TARGET_DESC, TERN_RPL_OPT_TARGET_DESC_LEN);
    if (rc < 0) {
        return rc;
    }
    tern_store32(buf + 2, descriptor);
    return rc;
}

/* ---- Messages (RFC 6550 §6.2-§6.5) --------------------------------------------------- */

int tern_rpl_code(const uint8_t *buf, size_t len)
{
    if (len < 4u || buf[0] != TERN_RPL_ICMPV6_TYPE) {
        return -EBADMSG;
    }
    uint8_t code = buf[1];
    /* §6: "The high order bit (0x80) of the code denotes whether the RPL
     * message has security enabled." Without RPL security (§10) the
     * Security section cannot be read, let alone checked. */
    if ((code & TERN_RPL_CODE_SECURE_BIT) != 0) {
        return -ENOTSUP;
    }
    if (code > TERN_RPL_CODE_DAO_ACK) {
        return -EPROTONOSUPPORT;
    }
    return code;
}

/* The Code check and the base length of a message of Code @p code whose
 * options start at @p fixed; then the option area. */
static int parse_common(const uint8_t *buf, size_t len, uint8_t code, size_t fixed, const uint8_t **options,
                        size_t *options_len)
{
    int rc = tern_rpl_code(buf, len);
    if (rc < 0) {
        return rc;
    }
    if (rc != code || len < fixed) {
        return -EBADMSG;
    }
    rc = tern_rpl_options_check(buf + fixed, len - fixed);
    if (rc < 0) {
        return rc;
    }
    *options = buf + fixed;
    *options_len = len - fixed;
    return (int)fixed;
}

/* Size check, option copy (the options lie apart from the output or already
 * in place, the contract in rpl.h: a plain copy, none in place) and the
 * ICMPv6 header with a zero checksum; the caller writes the base object
 * afterwards. */
static int emit_common(uint8_t *buf, size_t len, uint8_t code, size_t fixed, const uint8_t *options,
                       size_t options_len)
{
    if ((options == NULL && options_len != 0) || options_len > RPL_MSG_MAX - fixed) {
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
    buf[0] = TERN_RPL_ICMPV6_TYPE;
    buf[1] = code;
    return (int)need;
}

static bool instance_is_local(uint8_t instance_id)
{
    return (instance_id & TERN_RPL_INSTANCE_LOCAL) != 0;
}

int tern_rpl_dis_parse(tern_rpl_dis_repr_t *repr, const uint8_t *buf, size_t len)
{
    /* Octets 4 (Flags) and 5 (Reserved): ignored on receipt (§6.2.1). */
    return parse_common(buf, len, TERN_RPL_CODE_DIS, TERN_RPL_DIS_LEN, &repr->options, &repr->options_len);
}

size_t tern_rpl_dis_len(const tern_rpl_dis_repr_t *repr)
{
    return TERN_RPL_DIS_LEN + repr->options_len;
}

int tern_rpl_dis_emit(const tern_rpl_dis_repr_t *repr, uint8_t *buf, size_t len)
{
    return emit_common(buf, len, TERN_RPL_CODE_DIS, TERN_RPL_DIS_LEN, repr->options, repr->options_len);
}

int tern_rpl_dio_parse(tern_rpl_dio_repr_t *repr, const uint8_t *buf, size_t len)
{
    const uint8_t *options;
    size_t options_len;
    int rc = parse_common(buf, len, TERN_RPL_CODE_DIO, TERN_RPL_DIO_LEN, &options, &options_len);
    if (rc < 0) {
        return rc;
    }
    repr->instance_id = buf[4];
    repr->version = buf[5];
    repr->rank = tern_load16(buf + 6);
    /* G | 0 | MOP (3) | Prf (3); the bit after G is reserved. */
    repr->grounded = (buf[8] & TERN_RPL_DIO_FLAG_GROUNDED) != 0;
    repr->mop = (uint8_t)((buf[8] & TERN_RPL_DIO_MOP_MASK) >> TERN_RPL_DIO_MOP_SHIFT);
    repr->preference = (uint8_t)(buf[8] & TERN_RPL_DIO_PRF_MASK);
    repr->dtsn = buf[9];
    /* buf[10] Flags, buf[11] Reserved: ignored. */
    memcpy(repr->dodag_id.u8, buf + 12, 16);
    repr->options = options;
    repr->options_len = options_len;
    return rc;
}

size_t tern_rpl_dio_len(const tern_rpl_dio_repr_t *repr)
{
    return TERN_RPL_DIO_LEN + repr->options_len;
}

int tern_rpl_dio_emit(const tern_rpl_dio_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr->mop > 7u || repr->preference > TERN_RPL_DIO_PRF_MASK) {
        return -EINVAL;
    }
    int rc = emit_common(buf, len, TERN_RPL_CODE_DIO, TERN_RPL_DIO_LEN, repr->options, repr->options_len);
    if (rc < 0) {
        return rc;
    }
    buf[4] = repr->instance_id;
    buf[5] = repr->version;
    tern_store16(buf + 6, repr->rank);
    buf[8] = (uint8_t)((repr->grounded ? TERN_RPL_DIO_FLAG_GROUNDED : 0u) |
                       (unsigned)(repr->mop << TERN_RPL_DIO_MOP_SHIFT) | repr->preference);
    buf[9] = repr->dtsn;
    memcpy(buf + 12, repr->dodag_id.u8, 16);
    return rc;
}

/*
 * DAO and DAO-ACK share their layout (RFC 6550 §6.4.1, §6.5.1): the
 * RPLInstanceID in octet 4, a D flag in octet 5, the DODAGID in octets 8..23
 * when D is set, options after. @p base_len: the fixed part without DODAGID.
 */
static int dao_base_parse(const uint8_t *buf, size_t len, uint8_t code, size_t base_len, uint8_t d_flag,
                          bool *has_dodag_id, tern_ipv6_addr_t *dodag_id, const uint8_t **options,
                          size_t *options_len)
{
    /* D is read only when the base object is there; parse_common() refuses
     * a shorter message, and one too short for the DODAGID D announces. */
    bool has = len >= base_len && (buf[5] & d_flag) != 0;
    int rc = parse_common(buf, len, code, base_len + (has ? TERN_RPL_DODAGID_LEN : 0u), options, options_len);
    if (rc < 0) {
        return rc;
    }
    /* §6.4.1, §6.5.1: D "MUST be set when a local RPLInstanceID is used". */
    if (!has && instance_is_local(buf[4])) {
        return -EBADMSG;
    }
    *has_dodag_id = has;
    if (has) {
        memcpy(dodag_id->u8, buf + 8, 16);
    } else {
        memset(dodag_id->u8, 0, 16);
    }
    return rc;
}

/* The common part of a DAO or DAO-ACK (see dao_base_parse()); the caller writes octets 5..7. */
static int dao_base_emit(uint8_t *buf, size_t len, uint8_t code, size_t base_len, uint8_t instance_id,
                         bool has_dodag_id, const tern_ipv6_addr_t *dodag_id, const uint8_t *options,
                         size_t options_len)
{
    if (!has_dodag_id && instance_is_local(instance_id)) {
        return -EINVAL;
    }
    size_t fixed = base_len + (has_dodag_id ? TERN_RPL_DODAGID_LEN : 0u);
    int rc = emit_common(buf, len, code, fixed, options, options_len);
    if (rc < 0) {
        return rc;
    }
    buf[4] = instance_id;
    if (has_dodag_id) {
        memcpy(buf + 8, dodag_id->u8, 16);
    }
    return rc;
}

int tern_rpl_dao_parse(tern_rpl_dao_repr_t *repr, const uint8_t *buf, size_t len)
{
    int rc = dao_base_parse(buf, len, TERN_RPL_CODE_DAO, TERN_RPL_DAO_LEN, TERN_RPL_DAO_FLAG_D, &repr->has_dodag_id,
                            &repr->dodag_id, &repr->options, &repr->options_len);
    if (rc < 0) {
        return rc;
    }
    repr->instance_id = buf[4];
    repr->ack_requested = (buf[5] & TERN_RPL_DAO_FLAG_K) != 0; /* the other 6 flags: reserved */
    /* buf[6]: Reserved. */
    repr->sequence = buf[7];
    return rc;
}

size_t tern_rpl_dao_len(const tern_rpl_dao_repr_t *repr)
{
    return TERN_RPL_DAO_LEN + (repr->has_dodag_id ? TERN_RPL_DODAGID_LEN : 0u) + repr->options_len;
}

int tern_rpl_dao_emit(const tern_rpl_dao_repr_t *repr, uint8_t *buf, size_t len)
{
    int rc = dao_base_emit(buf, len, TERN_RPL_CODE_DAO, TERN_RPL_DAO_LEN, repr->instance_id, repr->has_dodag_id,
                           &repr->dodag_id, repr->options, repr->options_len);
    if (rc < 0) {
        return rc;
    }
    buf[5] = (uint8_t)((repr->ack_requested ? TERN_RPL_DAO_FLAG_K : 0u) |
                       (repr->has_dodag_id ? TERN_RPL_DAO_FLAG_D : 0u));
    buf[7] = repr->sequence;
    return rc;
}

int tern_rpl_dao_ack_parse(tern_rpl_dao_ack_repr_t *repr, const uint8_t *buf, size_t len)
{
    int rc = dao_base_parse(buf, len, TERN_RPL_CODE_DAO_ACK, TERN_RPL_DAO_ACK_LEN, TERN_RPL_DAO_ACK_FLAG_D,
                            &repr->has_dodag_id, &repr->dodag_id, &repr->options, &repr->options_len);
    if (rc < 0) {
        return rc;
    }
    repr->instance_id = buf[4]; /* buf[5]: D and 7 reserved bits */
    repr->sequence = buf[6];
    repr->status = buf[7];
    return rc;
}

size_t tern_rpl_dao_ack_len(const tern_rpl_dao_ack_repr_t *repr)
{
    return TERN_RPL_DAO_ACK_LEN + (repr->has_dodag_id ? TERN_RPL_DODAGID_LEN : 0u) + repr->options_len;
}

int tern_rpl_dao_ack_emit(const tern_rpl_dao_ack_repr_t *repr, uint8_t *buf, size_t len)
{
    int rc = dao_base_emit(buf, len, TERN_RPL_CODE_DAO_ACK, TERN_RPL_DAO_ACK_LEN, repr->instance_id,
                           repr->has_dodag_id, &repr->dodag_id, repr->options, repr->options_len);
    if (rc < 0) {
        return rc;
    }
    buf[5] = repr->has_dodag_id ? TERN_RPL_DAO_ACK_FLAG_D : 0u;
    buf[6] = repr->sequence;
    buf[7] = repr->status;
    return rc;
}
