/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Non-storing mode (MOP 1): the root's parent graph from DAOs, the
 *        source routes computed from it for the IPv6 module (RFC 6554), and
 *        the parent address a node announces.
 *
 * Read first: RFC 6550 §9.7 (non-storing mode: DAOs unicast to the root,
 * Transit Information with the Parent Address, the root builds the
 * downward routes), §6.7.8 (Transit Information), §9.8 (No-Path);
 * RFC 6554 §4.1 (the root inserts the Source Routing Header).
 *
 * Choices:
 * - The root keeps one (target -> parent) link per /128 target, the one of
 *   the latest DAO for it (a node announces its preferred parent only),
 *   with the Transit Information's lifetime, in a bounded table
 *   (TERN_CONF_RPL_NS_LINKS; full: counted as route_table_full).
 * - A parent "is the root" when it is the DODAGID or carries the interface
 *   identifier of one of the root's RPL interfaces: nodes name their parent
 *   by the DODAG prefix and the parent's link-local interface identifier
 *   (rpl_ns_parent_address()), which for the root need not be the DODAGID.
 * - Source routes are walked from the destination up to the root, at most
 *   TERN_CONF_IPV6_SRH_HOPS links; an address met twice is a loop in the
 *   graph (stale links during a repair) and gives no route, counted.
 * - The links are written on the module's turn and read by the provider on
 *   the IPv6 module's turn: both under the stack's lock.
 */
#include <errno.h>
#include <string.h>

#include "rpl_internal.h"
#include "tern/netapi.h"

_Static_assert(TERN_CONF_RPL_NS_LINKS > 0,
               "nonstoring.c is left out of the build when TERN_CONF_RPL_NS_LINKS is 0 (set it through CMake)");

static bool is_root_address(const tern_rpl_t *rpl, const tern_ipv6_addr_t *addr)
{
    if (tern_ipv6_addr_equal(addr, &rpl->dodag_id)) {
        return true;
    }
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        const tern_ipv6_addr_t *ll = &rpl->ns_root_ll[i];
        if (!tern_ipv6_addr_is_unspecified(ll) && memcmp(&ll->u8[8], &addr->u8[8], 8) == 0) {
            return true;
        }
    }
    return false;
}

static tern_rpl_ns_link_t *link_find(tern_rpl_t *rpl, const tern_ipv6_addr_t *target)
{
    for (size_t i = 0; i < TERN_CONF_RPL_NS_LINKS; i++) {
        tern_rpl_ns_link_t *l = &rpl->ns_links[i];
        if (l->used && tern_ipv6_addr_equal(&l->target, target)) {
            return l;
        }
    }
    return NULL;
}

void rpl_ns_update(tern_rpl_t *rpl, const tern_ipv6_addr_t *target, const tern_ipv6_addr_t *parent,
                   uint16_t if_index, uint32_t lifetime_s, bool infinite, uint8_t seq)
{
    const tern_lock_t *lock = tern_stack_lock(rpl->module.stack);
    tern_lock_acquire(lock);
    tern_rpl_ns_link_t *l = link_find(rpl, target);
    if (lifetime_s == 0 && !infinite) {
        /* §9.8 / §6.7.8: a No-Path withdraws the target. */
        if (l != NULL) {
            memset(l, 0, sizeof(*l));
        }
        tern_lock_release(lock);
        return;
    }
    for (size_t i = 0; i < TERN_CONF_RPL_NS_LINKS && l == NULL; i++) {
        l = rpl->ns_links[i].used ? NULL : &rpl->ns_links[i];
    }
    if (l == NULL) {
        tern_lock_release(lock);
        rpl_count(rpl, TERN_RPL_ROUTE_TABLE_FULL);
        return;
    }
    l->used = true;
    l->target = *target;
    l->parent = *parent;
    l->if_index = if_index;
    l->path_sequence = seq;
    /* Kept to the tick of 1.05 s after its end (tern/expiry.h): Path Lifetimes are whole Lifetime Units of seconds. */
    l->expires = tern_expiry_from_us(infinite ? RPL_NEVER : rpl_now(rpl) + (uint64_t)lifetime_s * RPL_US_PER_S);
    tern_lock_release(lock);
}

void rpl_ns_flush(tern_rpl_t *rpl)
{
    if (rpl->module.stack == NULL) {
        return; /* tern_rpl_init(), before the module joins its stack: nothing kept yet */
    }
    const tern_lock_t *lock = tern_stack_lock(rpl->module.stack);
    tern_lock_acquire(lock);
    memset(rpl->ns_links, 0, sizeof(rpl->ns_links));
    tern_lock_release(lock);
}

uint64_t rpl_ns_next_deadline(const tern_rpl_t *rpl)
{
    uint64_t next = RPL_NEVER;
    for (size_t i = 0; i < TERN_CONF_RPL_NS_LINKS; i++) {
        uint64_t end = tern_expiry_to_us(rpl->ns_links[i].expires);
        if (rpl->ns_links[i].used && end < next) {
            next = end;
        }
    }
    return next;
}

void rpl_ns_tick(tern_rpl_t *rpl, uint64_t now)
{
    const tern_lock_t *lock = tern_stack_lock(rpl->module.stack);
    for (size_t i = 0; i < TERN_CONF_RPL_NS_LINKS; i++) {
        tern_rpl_ns_link_t *l = &rpl->ns_links[i];
        if (l->used && tern_expiry_passed(l->expires, tern_expiry_now(now))) {
            tern_lock_acquire(lock);
            memset(l, 0, sizeof(*l));
            tern_lock_release(lock);
            rpl_count(rpl, TERN_RPL_ROUTES_EXPIRED);
        }
    }
}

static int provider(void *ctx, const tern_ipv6_addr_t *dst, tern_ipv6_source_route_t *route)
{
    return tern_rpl_source_route(ctx, dst, route);
}

void rpl_ns_provider(tern_rpl_t *rpl, bool install)
{
    if (!install && !rpl->ns_provider) {
        return;
    }
    memset(rpl->ns_root_ll, 0, sizeof(rpl->ns_root_ll));
    for (size_t i = 0; install && i < TERN_CONF_RPL_IFS; i++) {
        if (rpl->ifs[i] != NULL) {
            (void)rpl_link_local(rpl, rpl->ifs[i]->index, &rpl->ns_root_ll[i]);
        }
    }
    tern_ipv6_source_router_t cfg = { .fn = install ? provider : NULL, .ctx = install ? rpl : NULL };
    rpl->ns_provider = tern_netapi_set(&rpl->ip->module, TERN_NETOPT_IPV6_SOURCE_ROUTER, 0, &cfg, sizeof(cfg)) >= 0 &&
                       install;
}

/* rpl_ns_parent_address(): nonstoring_node.c (built without the root's part too). */

int tern_rpl_source_route(tern_rpl_t *rpl, const tern_ipv6_addr_t *dst, tern_ipv6_source_route_t *route)
{
    if (rpl == NULL || dst == NULL || route == NULL) {
        return 0;
    }
    const tern_lock_t *lock = tern_stack_lock(rpl->module.stack);
    tern_lock_acquire(lock);
    if (rpl->role != TERN_RPL_ROLE_ROOT || !rpl_non_storing(rpl)) {
        tern_lock_release(lock);
        return 0;
    }
    const tern_rpl_ns_link_t *l = link_find(rpl, dst);
    if (l == NULL) {
        tern_lock_release(lock);
        return 0; /* not in the DODAG (or not known yet): the forwarding table's */
    }
    /* Walk up from @p dst: hops in reverse, the destination first. */
    size_t n = 0;
    unsigned outcome = TERN_RPL_STAT_NUMOF; /* none: a route */
    route->hops[n++] = *dst;
    for (;;) {
        if (is_root_address(rpl, &l->parent)) {
            break;
        }
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++) {
            seen = tern_ipv6_addr_equal(&route->hops[k], &l->parent);
        }
        if (seen) {
            outcome = TERN_RPL_NS_LOOP;
            break;
        }
        const tern_rpl_ns_link_t *up = link_find(rpl, &l->parent);
        if (up == NULL || n == TERN_CONF_IPV6_SRH_HOPS) {
            outcome = TERN_RPL_NS_NO_ROUTE;
            break;
        }
        route->hops[n++] = l->parent;
        l = up;
    }
    uint16_t if_index = l->if_index; /* the link of the root's child */
    tern_lock_release(lock);
    if (outcome != TERN_RPL_STAT_NUMOF) {
        rpl_count(rpl, outcome);
        return 0;
    }
    for (size_t i = 0; i < n / 2u; i++) {
        tern_ipv6_addr_t t = route->hops[i];
        route->hops[i] = route->hops[n - 1u - i];
        route->hops[n - 1u - i] = t;
    }
    route->count = n;
    route->if_index = if_index;
    return 1;
}
