/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Source address selection, RFC 6724 §5 (see srcsel.h for the rules used).
 */
#include <errno.h>
#include <stdbool.h>

#include "tern/ipv6/srcsel.h"

/* Default policy table, RFC 6724 §2.1: prefix, length, label; the longest
 * matching prefix decides. ::/0 (label 1) is the fallback. */
static const struct {
    tern_ipv6_addr_t prefix; /* bytes only: no padding, and matched in place */
    uint8_t len;
    uint8_t label;
} policy[] = {
    { { { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } }, 128, 0 },      /* ::1/128 */
    { { { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0 } }, 96, 4 }, /* ::ffff:0:0/96 */
    { { { 0x20, 0x02 } }, 16, 2 },                                          /* 2002::/16 */
    { { { 0x20, 0x01, 0, 0 } }, 32, 5 },                                    /* 2001::/32 */
    { { { 0xfc } }, 7, 13 },                                                /* fc00::/7 */
    { { { 0 } }, 96, 3 },                                                   /* ::/96 */
    { { { 0xfe, 0xc0 } }, 10, 11 },                                         /* fec0::/10 */
    { { { 0x3f, 0xfe } }, 16, 12 },                                         /* 3ffe::/16 */
};

unsigned tern_srcsel_label(const tern_ipv6_addr_t *a)
{
    unsigned best_len = 0, label = 1; /* ::/0 */
    for (size_t i = 0; i < sizeof(policy) / sizeof(policy[0]); i++) {
        if (policy[i].len > best_len && tern_ipv6_addr_match_prefix(a, &policy[i].prefix, policy[i].len)) {
            best_len = policy[i].len;
            label = policy[i].label;
        }
    }
    return label;
}

/* @p sd: the destination's scope (taken once per choice). */
static bool eligible(const tern_srcsel_candidate_t *c, unsigned sd, uint16_t out_if)
{
    if (c->state != TERN_IPV6_ADDR_PREFERRED && c->state != TERN_IPV6_ADDR_DEPRECATED) {
        return false;
    }
    /* §4: link-local or link-scope multicast destinations: same link only. */
    if (sd <= TERN_IPV6_SCOPE_LINK && c->if_index != out_if) {
        return false;
    }
    return true;
}

static unsigned prefix_match(const tern_srcsel_candidate_t *c, const tern_ipv6_addr_t *dst)
{
    unsigned common = tern_ipv6_addr_common_prefix(&c->addr, dst);
    return (common < c->prefix_len) ? common : c->prefix_len;
}

/* True when @p a is better than @p b for @p dst, of scope @p sd (RFC 6724 §5). */
static bool better(const tern_srcsel_candidate_t *a, const tern_srcsel_candidate_t *b,
                   const tern_ipv6_addr_t *dst, unsigned sd, uint16_t out_if)
{
    /* Rule 1: prefer the same address. */
    bool a_same = tern_ipv6_addr_equal(&a->addr, dst), b_same = tern_ipv6_addr_equal(&b->addr, dst);
    if (a_same != b_same) {
        return a_same;
    }
    /* Rule 2: prefer the appropriate scope. */
    unsigned sa = tern_ipv6_addr_scope(&a->addr), sb = tern_ipv6_addr_scope(&b->addr);
    if (sa < sb) {
        return !(sa < sd);
    }
    if (sb < sa) {
        return sb < sd;
    }
    /* Rule 3: avoid deprecated addresses. */
    bool a_dep = a->state == TERN_IPV6_ADDR_DEPRECATED, b_dep = b->state == TERN_IPV6_ADDR_DEPRECATED;
    if (a_dep != b_dep) {
        return !a_dep;
    }
    /* Rule 5: prefer the outgoing interface. */
    bool a_out = a->if_index == out_if, b_out = b->if_index == out_if;
    if (a_out != b_out) {
        return a_out;
    }
    /* Rule 6: prefer a matching label. */
    unsigned ld = tern_srcsel_label(dst);
    bool a_lab = tern_srcsel_label(&a->addr) == ld, b_lab = tern_srcsel_label(&b->addr) == ld;
    if (a_lab != b_lab) {
        return a_lab;
    }
    /* Rule 8: longest matching prefix. */
    return prefix_match(a, dst) > prefix_match(b, dst);
}

int tern_srcsel_choose(const tern_srcsel_candidate_t *cands, size_t n, const tern_ipv6_addr_t *dst,
                       uint16_t out_if)
{
    int best = -EADDRNOTAVAIL;
    unsigned sd = tern_ipv6_addr_scope(dst);
    for (size_t i = 0; i < n; i++) {
        if (!eligible(&cands[i], sd, out_if)) {
            continue;
        }
        if (best < 0 || better(&cands[i], &cands[best], dst, sd, out_if)) {
            best = (int)i;
        }
    }
    return best;
}
