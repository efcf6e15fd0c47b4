/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief DAO and DAO-ACK in storing mode: our own targets to the preferred
 *        parent with acknowledgment and retries, downward routes from our
 *        children's DAOs into the FIB with their lifetimes, DAOs passed up.
 *
 * Read first: RFC 6550 §9.2 (storing mode: DAOs go to parents, routes are
 * kept per hop), §9.3 (DAO-ACK, K flag), §9.5 (DelayDAO), §9.6 (DTSN:
 * when to send again), §9.8 (storing-mode rules: routes via the child's
 * link-local address, No-Path DAO), §6.4 (DAO), §6.7.7-§6.7.8 (Target and
 * Transit Information: a Transit option applies to the Targets before it).
 *
 * Choices: a node advertises its own global addresses in its own DAO (K set,
 * TERN_CONF_RPL_DAO_RETRIES retries every TERN_CONF_RPL_DAO_ACK_TIMEOUT_MS,
 * refreshed at half the lifetime). A router answers a child's DAO with a
 * DAO-ACK when asked, installs its targets, and passes the DAO's options up
 * unchanged in a DAO of its own without K (aggregation is not required,
 * §9.2; a lost one is repaired by the next refresh).
 *
 * Non-storing mode (§9.7, MOP 1): the DAO carries the preferred parent's
 * global address in its Transit Information and goes end to end from our
 * global address to the DODAGID, routed upwards by the routers' default
 * routes; routers neither receive nor store it. The root keeps the links
 * (nonstoring.c) and answers with a DAO-ACK to the node's global address,
 * which the IPv6 module source-routes.
 */
#include <errno.h>
#include <string.h>

#include "rpl_internal.h"
#include "tern/netapi.h"
#include "tern/wire/icmpv6.h"

/** RFC 6550 §17 DEFAULT_DAO_DELAY: 1 s. */
#define DAO_DELAY_US (1u * RPL_US_PER_S)
/** Room for our own DAO's options: a Target per address and one Transit (with a Parent Address in non-storing mode). */
#define DAO_OPTIONS_MAX (TERN_CONF_IPV6_ADDRS * (4u + 16u) + TERN_RPL_OPT_TRANSIT_PARENT_LEN)

uint32_t rpl_dao_lifetime_s(const tern_rpl_t *rpl)
{
    return (uint32_t)rpl->default_lifetime * rpl->lifetime_unit;
}

void rpl_dao_schedule(tern_rpl_t *rpl)
{
    if (rpl->role == TERN_RPL_ROLE_ROOT || !rpl->joined || rpl->preferred < 0) {
        return;
    }
    rpl->dao_pending = false;
    rpl->dao_retries = 0;
    /* §9.5: wait a little, so that a burst of changes makes one DAO. */
    rpl->dao_at_us = rpl_now(rpl) + DAO_DELAY_US / 2u + rpl_random(rpl) % DAO_DELAY_US;
}

/* ------------------------------------------------------------ routes */

/* @return the IPv6 module's answer (< 0: the FIB refused, e.g. full). */
static int fib_route(tern_rpl_t *rpl, bool add, const tern_rpl_route_t *r, uint32_t lifetime_s)
{
    tern_ipv6_route_config_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.prefix = r->target;
    cfg.prefix_len = r->prefix_len;
    cfg.next_hop = r->next_hop;
    cfg.origin = TERN_FIB_ROUTING;
    cfg.lifetime_s = lifetime_s;
    return tern_netapi_set(&rpl->ip->module, add ? TERN_NETOPT_IPV6_ROUTE_ADD : TERN_NETOPT_IPV6_ROUTE_DEL,
                           r->if_index, &cfg, sizeof(cfg));
}

static tern_rpl_route_t *route_find(tern_rpl_t *rpl, const tern_ipv6_addr_t *target, uint8_t len)
{
    for (size_t i = 0; i < TERN_CONF_RPL_ROUTES; i++) {
        tern_rpl_route_t *r = &rpl->routes[i];
        if (r->used && r->prefix_len == len && tern_ipv6_addr_equal(&r->target, target)) {
            return r;
        }
    }
    return NULL;
}

static void route_remove(tern_rpl_t *rpl, tern_rpl_route_t *r)
{
    (void)fib_route(rpl, false, r, 0);
    memset(r, 0, sizeof(*r));
}

void rpl_dao_flush_routes(tern_rpl_t *rpl)
{
    for (size_t i = 0; i < TERN_CONF_RPL_ROUTES; i++) {
        if (rpl->routes[i].used) {
            route_remove(rpl, &rpl->routes[i]);
        }
    }
}

/* §9.8: a target reachable via @p child for @p lifetime_s (0: No-Path), path sequence @p seq. */
static void route_update(tern_rpl_t *rpl, const tern_rpl_opt_target_t *t, const tern_ipv6_addr_t *child,
                         uint16_t if_index, uint32_t lifetime_s, bool infinite, uint8_t seq)
{
    tern_rpl_route_t *r = route_find(rpl, &t->prefix, t->prefix_len);
    if (lifetime_s == 0 && !infinite) {
        /* No-Path: only the child that owns the route withdraws it. */
        if (r != NULL && tern_ipv6_addr_equal(&r->next_hop, child)) {
            route_remove(rpl, r);
        }
        return;
    }
    if (r != NULL && !tern_ipv6_addr_equal(&r->next_hop, child)) {
        route_remove(rpl, r); /* the target moved to another child */
        r = NULL;
    }
    if (r == NULL) {
        for (size_t i = 0; i < TERN_CONF_RPL_ROUTES && r == NULL; i++) {
            r = rpl->routes[i].used ? NULL : &rpl->routes[i];
        }
        if (r == NULL) {
            rpl_count(rpl, TERN_RPL_ROUTE_TABLE_FULL);
            return;
        }
        memset(r, 0, sizeof(*r));
        r->used = true;
        r->target = t->prefix;
        r->prefix_len = t->prefix_len;
        r->next_hop = *child;
        r->if_index = if_index;
    }
    r->path_sequence = seq;
    r->expires_us = infinite ? RPL_NEVER : rpl_now(rpl) + (uint64_t)lifetime_s * RPL_US_PER_S;
    if (fib_route(rpl, true, r, infinite ? 0u : lifetime_s) < 0) {
        rpl_count(rpl, TERN_RPL_ROUTE_TABLE_FULL);
        memset(r, 0, sizeof(*r)); /* not in the FIB: not a route */
    }
}

/* ------------------------------------------------------------ send */

static int dao_send(tern_rpl_t *rpl, const uint8_t *options, size_t options_len, bool ack, uint8_t sequence)
{
    const tern_rpl_parent_t *p = rpl_dodag_preferred(rpl);
    if (p == NULL) {
        return -ENETUNREACH;
    }
    tern_rpl_dao_repr_t dao = { .instance_id = rpl->instance_id, .ack_requested = ack, .has_dodag_id = false,
                                .sequence = sequence, .dodag_id = rpl->dodag_id, .options = options,
                                .options_len = options_len };
    tern_pkt_t *msg = rpl_msg_alloc(rpl, tern_rpl_dao_len(&dao));
    if (msg == NULL) {
        return -ENOMEM;
    }
    (void)tern_rpl_dao_emit(&dao, msg->data, msg->size);
    /* §9.8 / §6.4: in storing mode the DAO goes to the parent's link-local address, from ours;
     * §9.7: in non-storing mode to the DODAGID, from a global address, routed. */
    int res = rpl_non_storing(rpl) ? rpl_send(rpl, msg, 0, &rpl->dodag_id, false, 0)
                                   : rpl_send(rpl, msg, p->if_index, &p->addr, true, 0);
    if (res == 0) {
        rpl_count(rpl, TERN_RPL_DAO_OUT);
    }
    return res;
}

/* Our own DAO: a Target for each global address of our RPL interfaces, one Transit Information. */
static void own_dao_send(tern_rpl_t *rpl)
{
    uint8_t options[DAO_OPTIONS_MAX];
    size_t n = 0;
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        if (rpl->ifs[i] == NULL || tern_netapi_get(&rpl->ip->module, TERN_NETOPT_IPV6_ADDRS, rpl->ifs[i]->index,
                                                   &rpl->scratch_addrs, sizeof(rpl->scratch_addrs)) < 0) {
            continue;
        }
        for (size_t k = 0; k < TERN_CONF_IPV6_ADDRS; k++) {
            const tern_ipv6_if_addr_t *a = &rpl->scratch_addrs.addrs[k];
            if (!a->used || a->state != TERN_IPV6_ADDR_PREFERRED || tern_ipv6_addr_is_link_local(&a->addr)) {
                continue;
            }
            tern_rpl_opt_target_t t = { .prefix_len = 128, .prefix = a->addr };
            int r = tern_rpl_opt_target_emit(&t, options + n,
                                              sizeof(options) - n - TERN_RPL_OPT_TRANSIT_PARENT_LEN);
            n += (r > 0) ? (size_t)r : 0u;
        }
    }
    if (n == 0) {
        /* No global address yet (the prefix comes with the parent's DIO): try again later. */
        rpl->dao_at_us = rpl_now(rpl) + DAO_DELAY_US;
        return;
    }
    uint8_t unit_lifetime = rpl->default_lifetime;
    tern_rpl_opt_transit_t transit = { .external = false, .path_control = 0, .path_sequence = rpl->path_sequence,
                                       .path_lifetime = unit_lifetime, .has_parent = false };
    /* §9.7, §6.7.8: in non-storing mode the Parent Address names our preferred parent. */
    if (rpl_non_storing(rpl)) {
        if (rpl_ns_parent_address(rpl, &transit.parent) < 0) {
            rpl->dao_at_us = rpl_now(rpl) + DAO_DELAY_US;
            return;
        }
        transit.has_parent = true;
    }
    int r = tern_rpl_opt_transit_emit(&transit, options + n, sizeof(options) - n);
    n += (r > 0) ? (size_t)r : 0u;
    rpl->dao_sequence++;
    rpl->dao_pending = true;
    (void)dao_send(rpl, options, n, true, rpl->dao_sequence);
    rpl->dao_at_us = rpl_now(rpl) + (uint64_t)TERN_CONF_RPL_DAO_ACK_TIMEOUT_MS * RPL_US_PER_MS;
}

static void dao_ack_send(tern_rpl_t *rpl, const tern_ipv6_addr_t *dst, uint16_t if_index, uint8_t sequence,
                         uint8_t status)
{
    tern_rpl_dao_ack_repr_t ack = { .instance_id = rpl->instance_id, .has_dodag_id = false, .sequence = sequence,
                                    .status = status, .dodag_id = rpl->dodag_id, .options = NULL, .options_len = 0 };
    tern_pkt_t *msg = rpl_msg_alloc(rpl, tern_rpl_dao_ack_len(&ack));
    if (msg == NULL) {
        return;
    }
    (void)tern_rpl_dao_ack_emit(&ack, msg->data, msg->size);
    /* §9.7: in non-storing mode the root answers the node's global address, source-routed. */
    bool ns = rpl_non_storing(rpl);
    if (rpl_send(rpl, msg, ns ? 0u : if_index, dst, !ns, 0) == 0) {
        rpl_count(rpl, TERN_RPL_DAO_ACK_OUT);
    }
}

/* ------------------------------------------------------------ receive */

static bool is_parent(const tern_rpl_t *rpl, const tern_ipv6_addr_t *addr)
{
    for (size_t i = 0; i < TERN_CONF_RPL_PARENTS; i++) {
        if (rpl->parents[i].used && tern_ipv6_addr_equal(&rpl->parents[i].addr, addr)) {
            return true;
        }
    }
    return false;
}

void rpl_dao_receive(tern_rpl_t *rpl, const tern_ipv6_repr_t *hdr, uint16_t if_index, const uint8_t *b, size_t len)
{
    tern_rpl_dao_repr_t dao;
    if (tern_rpl_dao_parse(&dao, b, len) < 0 || tern_rpl_options_check(dao.options, dao.options_len) < 0) {
        rpl_count(rpl, TERN_RPL_MALFORMED);
        return;
    }
    if (!rpl_non_storing(rpl) && !tern_ipv6_addr_is_link_local(&hdr->src)) {
        rpl_count(rpl, TERN_RPL_BAD_SOURCE); /* §9.8: storing mode, from the child's link-local address */
        return;
    }
    if (rpl_non_storing(rpl) && (tern_ipv6_addr_is_link_local(&hdr->src) || tern_ipv6_addr_is_multicast(&hdr->src))) {
        rpl_count(rpl, TERN_RPL_BAD_SOURCE); /* §9.7: from the node's global address, end to end */
        return;
    }
    if (!rpl->joined || dao.instance_id != rpl->instance_id ||
        (dao.has_dodag_id && !tern_ipv6_addr_equal(&dao.dodag_id, &rpl->dodag_id))) {
        rpl_count(rpl, TERN_RPL_UNKNOWN_INSTANCE);
        return;
    }
    /* §9.8: DAOs come from children; a parent's (or a leaf's own) would make a loop.
     * §9.7: in non-storing mode only the root takes DAOs. */
    if (rpl->role == TERN_RPL_ROLE_LEAF || (rpl_non_storing(rpl) && rpl->role != TERN_RPL_ROLE_ROOT) ||
        is_parent(rpl, &hdr->src) || rpl->poison_until_us != 0) {
        rpl_count(rpl, TERN_RPL_DAO_NOT_CHILD);
        return;
    }
    rpl_count(rpl, TERN_RPL_DAO_IN);
    /* §6.7.8: each Transit Information applies to the Targets before it (since the last Transit). */
    tern_rpl_opt_target_t targets[8];
    size_t count = 0;
    bool any = false;
    tern_rpl_opt_iter_t it;
    tern_rpl_opt_t opt;
    tern_rpl_opt_iter_init(&it, dao.options, dao.options_len);
    while (tern_rpl_opt_next(&it, &opt) == 1) {
        if (opt.type == TERN_RPL_OPT_TARGET) {
            tern_rpl_opt_target_t t;
            if (tern_rpl_opt_target_parse(&t, &opt) < 0 || tern_ipv6_addr_is_link_local(&t.prefix) ||
                tern_ipv6_addr_is_multicast(&t.prefix)) {
                rpl_count(rpl, TERN_RPL_DAO_BAD_TARGET);
                continue;
            }
            if (count == sizeof(targets) / sizeof(targets[0])) {
                rpl_count(rpl, TERN_RPL_DAO_BAD_TARGET); /* more Targets before one Transit than we keep */
                continue;
            }
            targets[count++] = t;
        } else if (opt.type == TERN_RPL_OPT_TRANSIT) {
            tern_rpl_opt_transit_t tr;
            if (tern_rpl_opt_transit_parse(&tr, &opt) < 0) {
                continue;
            }
            bool infinite = tr.path_lifetime == 0xFFu;
            uint32_t lifetime = (uint32_t)tr.path_lifetime * rpl->lifetime_unit;
            if (rpl_non_storing(rpl)) {
                /* §9.7: the root records (target -> parent); a Transit without a
                 * usable Parent Address names no link. */
                bool ok = tr.has_parent && !tern_ipv6_addr_is_link_local(&tr.parent) &&
                          !tern_ipv6_addr_is_multicast(&tr.parent) && !tern_ipv6_addr_is_unspecified(&tr.parent);
                for (size_t i = 0; i < count; i++) {
                    if (!ok || tern_ipv6_addr_equal(&targets[i].prefix, &tr.parent) || targets[i].prefix_len != 128) {
                        rpl_count(rpl, TERN_RPL_DAO_BAD_TARGET);
                        continue;
                    }
                    rpl_ns_update(rpl, &targets[i].prefix, &tr.parent, if_index, lifetime, infinite,
                                  tr.path_sequence);
                }
                any = any || count > 0;
                count = 0;
                continue;
            }
            for (size_t i = 0; i < count; i++) {
                route_update(rpl, &targets[i], &hdr->src, if_index, lifetime, infinite, tr.path_sequence);
            }
            any = any || count > 0;
            count = 0;
        }
    }
    if (count > 0) {
        rpl_count(rpl, TERN_RPL_DAO_BAD_TARGET); /* Targets with no Transit Information after them */
    }
    if (dao.ack_requested) {
        dao_ack_send(rpl, &hdr->src, if_index, dao.sequence, TERN_RPL_DAO_ACK_ACCEPT);
    }
    /* §9.2: a router passes the targets on towards the root. */
    if (any && rpl->role == TERN_RPL_ROLE_ROUTER) {
        rpl->dao_sequence++;
        if (dao_send(rpl, dao.options, dao.options_len, false, rpl->dao_sequence) == 0) {
            rpl_count(rpl, TERN_RPL_DAO_FORWARDED);
        }
    }
}

void rpl_dao_ack_receive(tern_rpl_t *rpl, const tern_ipv6_repr_t *hdr, uint16_t if_index, const uint8_t *b,
                         size_t len)
{
    (void)hdr;
    (void)if_index;
    tern_rpl_dao_ack_repr_t ack;
    if (tern_rpl_dao_ack_parse(&ack, b, len) < 0) {
        rpl_count(rpl, TERN_RPL_MALFORMED);
        return;
    }
    if (!rpl->joined || ack.instance_id != rpl->instance_id) {
        rpl_count(rpl, TERN_RPL_UNKNOWN_INSTANCE);
        return;
    }
    if (!rpl->dao_pending || ack.sequence != rpl->dao_sequence) {
        rpl_count(rpl, TERN_RPL_DAO_ACK_UNEXPECTED);
        return;
    }
    rpl_count(rpl, TERN_RPL_DAO_ACK_IN);
    rpl->dao_pending = false;
    rpl->dao_retries = 0;
    if (ack.status >= TERN_RPL_DAO_ACK_REJECT_MIN) {
        rpl_count(rpl, TERN_RPL_DAO_ACK_REJECTED);
    }
    /* Refresh before the routes run out: at half the lifetime (infinite: never). */
    rpl->dao_at_us = (rpl->default_lifetime == 0xFFu)
                         ? RPL_NEVER
                         : rpl_now(rpl) + (uint64_t)rpl_dao_lifetime_s(rpl) * RPL_US_PER_S / 2u;
}

/* ------------------------------------------------------------ time */

uint64_t rpl_dao_next_deadline(const tern_rpl_t *rpl)
{
    uint64_t next = rpl->dao_at_us;
    uint64_t ns = rpl_ns_next_deadline(rpl);
    next = (ns < next) ? ns : next;
    for (size_t i = 0; i < TERN_CONF_RPL_ROUTES; i++) {
        if (rpl->routes[i].used && rpl->routes[i].expires_us < next) {
            next = rpl->routes[i].expires_us;
        }
    }
    return next;
}

void rpl_dao_tick(tern_rpl_t *rpl, uint64_t now)
{
    rpl_ns_tick(rpl, now);
    for (size_t i = 0; i < TERN_CONF_RPL_ROUTES; i++) {
        tern_rpl_route_t *r = &rpl->routes[i];
        if (r->used && r->expires_us <= now) {
            rpl_count(rpl, TERN_RPL_ROUTES_EXPIRED);
            memset(r, 0, sizeof(*r)); /* the FIB expires its copy on its own */
        }
    }
    if (rpl->dao_at_us > now) {
        return;
    }
    rpl->dao_at_us = RPL_NEVER;
    if (!rpl->joined || rpl->role == TERN_RPL_ROLE_ROOT || rpl->preferred < 0 || rpl->poison_until_us != 0) {
        rpl->dao_pending = false;
        return;
    }
    if (rpl->dao_pending) {
        /* No DAO-ACK in time (§9.3). */
        if (rpl->dao_retries >= TERN_CONF_RPL_DAO_RETRIES) {
            rpl_count(rpl, TERN_RPL_DAO_GAVE_UP);
            rpl->dao_pending = false;
            rpl->dao_retries = 0;
            rpl->dao_at_us = now + (uint64_t)rpl_dao_lifetime_s(rpl) * RPL_US_PER_S / 2u;
            return;
        }
        rpl->dao_retries++;
        rpl_count(rpl, TERN_RPL_DAO_RETRIES);
    }
    own_dao_send(rpl);
}
