/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Forwarding table, longest prefix match (RFC 4861 §5.2).
 */
#include <errno.h>
#include <string.h>

#include "tern/ipv6/fib.h"

void tern_fib_init(tern_fib_t *fib)
{
    memset(fib, 0, sizeof(*fib));
}

static bool same_next_hop(const tern_fib_route_t *r, const tern_ipv6_addr_t *next_hop)
{
    return next_hop == NULL || tern_ipv6_addr_equal(&r->next_hop, next_hop);
}

static bool same_prefix(const tern_fib_route_t *r, const tern_ipv6_addr_t *prefix, uint8_t len)
{
    return r->len == len && tern_ipv6_addr_equal(&r->prefix, prefix);
}

int tern_fib_add(tern_fib_t *fib, const tern_ipv6_addr_t *prefix, uint8_t len,
                 const tern_ipv6_addr_t *next_hop, uint16_t if_index, uint64_t expires_us,
                 tern_fib_origin_t origin, uint8_t metric)
{
    if (fib == NULL || prefix == NULL || len > 128 || if_index == 0 ||
        (next_hop != NULL && tern_ipv6_addr_is_multicast(next_hop))) {
        return -EINVAL;
    }
    tern_ipv6_addr_t masked = *prefix;
    tern_ipv6_addr_mask(&masked, len);
    tern_ipv6_addr_t hop = TERN_IPV6_ADDR_UNSPECIFIED;
    if (next_hop != NULL) {
        hop = *next_hop;
    }
    tern_fib_route_t *slot = NULL;
    for (size_t i = 0; i < TERN_CONF_FIB_SIZE; i++) {
        tern_fib_route_t *r = &fib->routes[i];
        if (r->used && same_prefix(r, &masked, len) && r->if_index == if_index &&
            tern_ipv6_addr_equal(&r->next_hop, &hop)) {
            slot = r; /* update in place */
            break;
        }
        if (!r->used && slot == NULL) {
            slot = r;
        }
    }
    if (slot == NULL) {
        fib->full++;
        return -ENOSPC;
    }
    slot->prefix = masked;
    slot->len = len;
    slot->next_hop = hop;
    slot->if_index = if_index;
    slot->expires = tern_expiry_from_us(expires_us);
    fib->deadline_gen++; /* the owner's cached next deadline may be late now */
    slot->origin = (uint8_t)origin;
    slot->metric = metric;
    slot->used = true;
    uint16_t end = (uint16_t)(slot - fib->routes + 1);
    if (end > fib->top) {
        fib->top = end;
    }
    return 0;
}

/* After slots were emptied: @ref tern_fib_t::top back to one past the highest in use. */
static void lower_top(tern_fib_t *fib)
{
    while (fib->top > 0 && !fib->routes[fib->top - 1u].used) {
        fib->top--;
    }
}

unsigned tern_fib_remove(tern_fib_t *fib, const tern_ipv6_addr_t *prefix, uint8_t len,
                         uint16_t if_index, const tern_ipv6_addr_t *next_hop)
{
    tern_ipv6_addr_t masked = *prefix;
    tern_ipv6_addr_mask(&masked, len);
    unsigned removed = 0;
    for (size_t i = 0; i < fib->top; i++) {
        tern_fib_route_t *r = &fib->routes[i];
        if (r->used && same_prefix(r, &masked, len) && (if_index == 0 || r->if_index == if_index) &&
            same_next_hop(r, next_hop)) {
            memset(r, 0, sizeof(*r));
            removed++;
        }
    }
    lower_top(fib);
    return removed;
}

unsigned tern_fib_flush(tern_fib_t *fib, uint16_t if_index, tern_fib_origin_t origin)
{
    unsigned removed = 0;
    for (size_t i = 0; i < fib->top; i++) {
        tern_fib_route_t *r = &fib->routes[i];
        if (r->used && r->if_index == if_index && r->origin == (uint8_t)origin) {
            memset(r, 0, sizeof(*r));
            removed++;
        }
    }
    lower_top(fib);
    return removed;
}

const tern_fib_route_t *tern_fib_lookup(const tern_fib_t *fib, const tern_ipv6_addr_t *dst,
                                        uint64_t now_us)
{
    const tern_fib_route_t *best = NULL;
    tern_expiry_t now = tern_expiry_now(now_us);
    for (size_t i = 0; i < fib->top; i++) {
        const tern_fib_route_t *r = &fib->routes[i];
        if (!r->used || tern_expiry_passed(r->expires, now) ||
            !tern_ipv6_addr_match_prefix(dst, &r->prefix, r->len)) {
            continue;
        }
        if (best == NULL || r->len > best->len || (r->len == best->len && r->metric < best->metric)) {
            best = r;
        }
    }
    return best;
}

unsigned tern_fib_expire(tern_fib_t *fib, uint64_t now_us)
{
    unsigned dropped = 0;
    tern_expiry_t now = tern_expiry_now(now_us);
    for (size_t i = 0; i < fib->top; i++) {
        tern_fib_route_t *r = &fib->routes[i];
        if (r->used && tern_expiry_passed(r->expires, now)) {
            memset(r, 0, sizeof(*r));
            dropped++;
        }
    }
    lower_top(fib);
    return dropped;
}

uint64_t tern_fib_next_deadline(const tern_fib_t *fib)
{
    tern_expiry_t next = TERN_EXPIRY_NEVER;
    for (size_t i = 0; i < fib->top; i++) {
        const tern_fib_route_t *r = &fib->routes[i];
        if (r->used && r->expires < next) {
            next = r->expires;
        }
    }
    return tern_expiry_to_us(next);
}
