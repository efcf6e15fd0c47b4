/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL Source Routing Header (RFC 6554).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ipv6_srh.h"

#define ADDR_LEN 16u

int tern_srh_parse(tern_srh_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (len < TERN_SRH_FIXED_LEN || buf[2] != TERN_SRH_ROUTING_TYPE) {
        return -EBADMSG;
    }
    size_t hdr_len = ((size_t)buf[1] + 1u) * 8u;
    if (hdr_len > len) {
        return -EBADMSG;
    }
    uint8_t cmpr_i = (uint8_t)(buf[4] >> 4);
    uint8_t cmpr_e = (uint8_t)(buf[4] & 0x0Fu);
    uint8_t pad = (uint8_t)(buf[5] >> 4);
    /* §3: n = (((Hdr Ext Len * 8) - Pad - (16 - CmprE)) / (16 - CmprI)) + 1.
     * The address area is Hdr Ext Len * 8 octets; it must hold Address[n]
     * and the padding, and the rest must be whole Address[1..n-1]. */
    size_t area = hdr_len - TERN_SRH_FIXED_LEN;
    size_t last = ADDR_LEN - cmpr_e;
    size_t unit = ADDR_LEN - cmpr_i;
    if (area < (size_t)pad + last || (area - pad - last) % unit != 0) {
        return -EBADMSG;
    }
    repr->next_header = buf[0];
    repr->segments_left = buf[3];
    repr->cmpr_i = cmpr_i;
    repr->cmpr_e = cmpr_e;
    repr->pad = pad;
    repr->count = (area - pad - last) / unit + 1u;
    repr->addrs = buf + TERN_SRH_FIXED_LEN;
    repr->len = hdr_len;
    return (int)hdr_len;
}

/* Where Address[i] (1-based) is in the vector and how many octets it has. */
static size_t addr_offset(const tern_srh_repr_t *repr, size_t i)
{
    return (i - 1u) * (ADDR_LEN - repr->cmpr_i);
}

static size_t addr_size(const tern_srh_repr_t *repr, size_t i)
{
    return ADDR_LEN - (i < repr->count ? repr->cmpr_i : repr->cmpr_e);
}

int tern_srh_addr(const tern_srh_repr_t *repr, size_t i, const tern_ipv6_addr_t *dst, tern_ipv6_addr_t *out)
{
    if (i < 1u || i > repr->count) {
        return -EINVAL;
    }
    size_t size = addr_size(repr, i);
    if (out != dst) {
        *out = *dst; /* the elided octets; the same address: they are there already */
    }
    memcpy(out->u8 + (ADDR_LEN - size), repr->addrs + addr_offset(repr, i), size);
    return 0;
}

tern_srh_verdict_t tern_srh_check(const tern_srh_repr_t *repr, const tern_ipv6_addr_t *dst,
                                  tern_srh_is_own_fn is_own, void *ctx)
{
    if (repr->segments_left == 0) {
        return TERN_SRH_DONE;
    }
    if (repr->segments_left > repr->count) {
        return TERN_SRH_BAD_SEGMENTS_LEFT;
    }
    /* §4.2: "decrement Segments Left by 1; compute i ... by subtracting
     * Segments Left from n". */
    size_t i = repr->count - (repr->segments_left - 1u);
    tern_ipv6_addr_t next;
    (void)tern_srh_addr(repr, i, dst, &next);
    if (tern_ipv6_addr_is_multicast(&next) || tern_ipv6_addr_is_multicast(dst)) {
        return TERN_SRH_MULTICAST;
    }
    if (is_own == NULL) {
        return TERN_SRH_FORWARD;
    }
    /* §4.2: "2 or more entries in Address[1..n] are assigned to local
     * interface and are separated by at least one address not assigned to
     * local interface". */
    bool seen_own = false;
    bool gap = false;
    for (size_t k = 1; k <= repr->count; k++) {
        tern_ipv6_addr_t a;
        (void)tern_srh_addr(repr, k, dst, &a);
        if (is_own(ctx, &a)) {
            if (seen_own && gap) {
                return TERN_SRH_LOOP;
            }
            seen_own = true;
            gap = false;
        } else if (seen_own) {
            gap = true;
        }
    }
    return TERN_SRH_FORWARD;
}

int tern_srh_advance(uint8_t *buf, size_t len, tern_ipv6_addr_t *dst)
{
    tern_srh_repr_t repr;
    if (tern_srh_parse(&repr, buf, len) < 0) {
        return -EBADMSG;
    }
    if (repr.segments_left == 0 || repr.segments_left > repr.count) {
        return -ERANGE;
    }
    uint8_t segments_left = (uint8_t)(repr.segments_left - 1u);
    size_t i = repr.count - segments_left;
    tern_ipv6_addr_t next;
    (void)tern_srh_addr(&repr, i, dst, &next);
    /* Store the old destination in Address[i]'s place with the same
     * compression: its elided octets are next's, which came from it. */
    size_t size = addr_size(&repr, i);
    memcpy(buf + TERN_SRH_FIXED_LEN + addr_offset(&repr, i), dst->u8 + (ADDR_LEN - size), size);
    buf[3] = segments_left;
    *dst = next;
    return (int)i;
}

/* Leading octets @p a and @p b share, at most 15 (a 4-bit field). */
static uint8_t shared_octets(const tern_ipv6_addr_t *a, const tern_ipv6_addr_t *b)
{
    unsigned octets = tern_ipv6_addr_common_prefix(a, b) / 8u;
    return (uint8_t)(octets > TERN_SRH_FIELD4_MAX ? TERN_SRH_FIELD4_MAX : octets);
}

int tern_srh_layout(tern_srh_layout_t *layout, const tern_srh_path_t *path)
{
    if (path == NULL || path->dst == NULL || path->hops == NULL || path->count == 0) {
        return -EINVAL;
    }
    size_t n = path->count;
    /* Segments Left, which starts at n (§4.1), is one octet. */
    if (n > TERN_SRH_MAX_HOPS) {
        return -EINVAL;
    }
    const tern_ipv6_addr_t *last = &path->hops[n - 1u];
    uint8_t cmpr_i = TERN_SRH_FIELD4_MAX;
    uint8_t cmpr_e = shared_octets(last, path->dst);
    if (tern_ipv6_addr_is_multicast(path->dst)) {
        return -EINVAL;
    }
    for (size_t k = 0; k < n; k++) {
        const tern_ipv6_addr_t *a = &path->hops[k];
        if (tern_ipv6_addr_is_multicast(a) || tern_ipv6_addr_equal(a, path->dst)) {
            return -EINVAL;
        }
        for (size_t m = 0; m < k; m++) {
            if (tern_ipv6_addr_equal(a, &path->hops[m])) {
                return -EINVAL;
            }
        }
        if (k + 1u < n) {
            uint8_t with_dst = shared_octets(a, path->dst);
            uint8_t with_last = shared_octets(last, a);
            cmpr_i = with_dst < cmpr_i ? with_dst : cmpr_i;
            cmpr_e = with_last < cmpr_e ? with_last : cmpr_e;
        }
    }
    if (n == 1u) {
        cmpr_i = cmpr_e; /* no Address[1..n-1]: any value gives n = 1 */
    }
    size_t octets = (n - 1u) * (ADDR_LEN - cmpr_i) + (ADDR_LEN - cmpr_e);
    size_t pad = (8u - octets % 8u) % 8u;
    size_t total = TERN_SRH_FIXED_LEN + octets + pad;
    if (total > TERN_SRH_MAX_LEN) {
        return -EINVAL;
    }
    layout->cmpr_i = cmpr_i;
    layout->cmpr_e = cmpr_e;
    layout->pad = (uint8_t)pad;
    layout->len = total;
    return 0;
}

size_t tern_srh_path_len(const tern_srh_path_t *path)
{
    tern_srh_layout_t layout;
    return tern_srh_layout(&layout, path) < 0 ? 0 : layout.len;
}

int tern_srh_path_emit(const tern_srh_path_t *path, uint8_t *buf, size_t len)
{
    tern_srh_layout_t layout;
    int rc = tern_srh_layout(&layout, path);
    if (rc < 0) {
        return rc;
    }
    if (len < layout.len) {
        return -ENOBUFS;
    }
    size_t n = path->count;
    buf[0] = path->next_header;
    buf[1] = (uint8_t)(layout.len / 8u - 1u);
    buf[2] = TERN_SRH_ROUTING_TYPE;
    buf[3] = (uint8_t)n; /* §4.1: the route starts with every address to visit */
    buf[4] = (uint8_t)((layout.cmpr_i << 4) | layout.cmpr_e);
    buf[5] = (uint8_t)(layout.pad << 4);
    buf[6] = 0;
    buf[7] = 0;
    uint8_t *p = buf + TERN_SRH_FIXED_LEN;
    for (size_t k = 0; k < n; k++) {
        size_t elided = k + 1u < n ? layout.cmpr_i : layout.cmpr_e;
        memcpy(p, path->hops[k].u8 + elided, ADDR_LEN - elided);
        p += ADDR_LEN - elided;
    }
    memset(p, 0, layout.pad);
    return (int)layout.len;
}
