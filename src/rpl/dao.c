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
 * refreshed at half the lifetime), each new one with the next Path Sequence
 * (§7.2). In storing mode the same DAO (and further ones without K) carries
 * every target of our route table (§9.2.2), so a parent switch, a refresh
 * or a DTSN increment re-announces the whole sub-DODAG along the current
 * path; a switch also sends No-Path DAOs to the old parent (§9.8). A router
 * answers a child's DAO with a DAO-ACK when asked, installs its targets, and
 * passes the targets it accepted up in a DAO of its own without K (a lost one
 * is repaired by the next refresh). Routes move between children only for a
 * newer Path Sequence (route_update()).
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
/**
 * Room for the targets of our sub-DODAG in one DAO (storing mode, §9.2.2):
 * 240 bytes, ten /128 Targets with their Transits. With our own Targets the
 * DAO stays under about 350 bytes: 3 to 4 IEEE 802.15.4 fragments, far below
 * the IPv6 minimum MTU (RFC 8200 §5), so a lost fragment costs little; a
 * larger sub-DODAG takes several DAOs.
 */
#define DAO_ROUTES_MAX 240u
/** At most this many Targets before one Transit Information (what rpl_dao_receive() keeps). */
#define DAO_GROUP_MAX 8u

uint32_t rpl_dao_lifetime_s(const tern_rpl_t *rpl)
{
    return (uint32_t)rpl->default_lifetime * rpl->lifetime_unit;
}

void rpl_dao_schedule(tern_rpl_t *rpl)
{
    if (rpl->role == TERN_RPL_ROLE_ROOT || !rpl->joined || rpl_dodag_preferred(rpl) == NULL) {
        return;
    }
    rpl->dao_pending = false;
    rpl->dao_retries = 0;
    /* §9.5: wait a little, so that a burst of changes makes one DAO. */
    rpl_dao_at_set(rpl, rpl_now(rpl) + DAO_DELAY_US / 2u + rpl_random(rpl) % DAO_DELAY_US);
}

/* ------------------------------------------------------------ routes */

/* @return the IPv6 module's answer (< 0: the FIB refused, e.g. full). */
static int fib_route(tern_rpl_t *rpl, bool add, const tern_rpl_route_t *r, uint32_t lifetime_s)
{
    tern_ipv6_route_config_t cfg = { .prefix = r->target, .next_hop = r->next_hop, .prefix_len = r->prefix_len,
                                     .origin = TERN_FIB_ROUTING, .lifetime_s = lifetime_s };
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

/*
 * §9.8: a target reachable via @p child for @p lifetime_s (0: No-Path), path sequence @p seq.
 * §7.2, §9.2.2: the Path Sequence orders a target's DAOs: its owner counts up
 * with each new DAO, routers keep and pass on the value. A route moves to
 * another child only for a newer Path Sequence, so the targets a router
 * re-announces from its table (own_dao_send()) fill gaps but never undo a
 * newer path; information older than the route's from the same child is
 * ignored too, and the route runs out unless refreshed.
 * @return whether to pass it on towards the root: installed, or a No-Path
 *         for a target we do not reach through another child (§9.8: the
 *         routes of the old path go, those of a new path that got here first stay).
 */
static bool route_update(tern_rpl_t *rpl, const tern_rpl_opt_target_t *t, const tern_ipv6_addr_t *child,
                         uint16_t if_index, uint32_t lifetime_s, bool infinite, uint8_t seq)
{
    tern_rpl_route_t *r = route_find(rpl, &t->prefix, t->prefix_len);
    bool same_child = r != NULL && tern_ipv6_addr_equal(&r->next_hop, child);
    bool older = same_child && rpl_seq_newer(r->path_sequence, seq); /* than the route's, from its child */
    if (lifetime_s == 0 && !infinite) {
        /* No-Path: only the child that owns the route withdraws it. */
        if (same_child && !older) {
            route_remove(rpl, r);
            return true;
        }
        return r == NULL;
    }
    if (older || (r != NULL && !same_child && !rpl_seq_newer(seq, r->path_sequence))) {
        rpl_count(rpl, TERN_RPL_DAO_STALE_TARGET);
        return false;
    }
    if (r != NULL && !same_child) {
        route_remove(rpl, r); /* the target moved to another child: a newer path */
        r = NULL;
    }
    if (r == NULL) {
        for (size_t i = 0; i < TERN_CONF_RPL_ROUTES && r == NULL; i++) {
            r = rpl->routes[i].used ? NULL : &rpl->routes[i];
        }
        if (r == NULL) {
            rpl_count(rpl, TERN_RPL_ROUTE_TABLE_FULL);
            return false;
        }
        memset(r, 0, sizeof(*r));
        r->used = true;
        r->target = t->prefix;
        r->prefix_len = t->prefix_len;
        r->next_hop = *child;
        r->if_index = if_index;
    }
    r->path_sequence = seq;
    /* Kept to the tick of 1.05 s after its end (tern/expiry.h): Path Lifetimes are whole Lifetime Units of seconds. */
    r->expires = tern_expiry_from_us(infinite ? RPL_NEVER : rpl_now(rpl) + (uint64_t)lifetime_s * RPL_US_PER_S);
    if (fib_route(rpl, true, r, infinite ? 0u : lifetime_s) < 0) {
        rpl_count(rpl, TERN_RPL_ROUTE_TABLE_FULL);
        memset(r, 0, sizeof(*r)); /* not in the FIB: not a route */
        return false;
    }
    return true;
}

/* ------------------------------------------------------------ send */

/*
 * A DAO is built in place: the options are written into a message snip after
 * the base object (TERN_RPL_DAO_LEN, no DODAGID), then the base is emitted in
 * front of them and the snip shrunk to its length.
 */

/** A new DAO message with room for @p options_max bytes of options, or NULL (counted). */
static tern_pkt_t *dao_alloc(tern_rpl_t *rpl, size_t options_max)
{
    return rpl_msg_alloc(rpl, TERN_RPL_DAO_LEN + options_max);
}

/** The options area of a message from dao_alloc(). */
static uint8_t *dao_options(tern_pkt_t *msg)
{
    return (uint8_t *)msg->data + TERN_RPL_DAO_LEN;
}

/*
 * Finish the DAO @p msg with @p options_len bytes of options and send it to
 * @p to (storing mode: the parent's link-local address, §9.8 / §6.4; non-storing
 * mode: the DODAGID, from a global address, routed, §9.7). Consumes @p msg.
 * @return 0 or a negative errno.
 */
static int dao_finish_send(tern_rpl_t *rpl, tern_pkt_t *msg, size_t options_len, bool ack, uint8_t sequence,
                           const tern_rpl_parent_t *to)
{
    tern_pktbuf_t *pb = &rpl->module.stack->pktbuf;
    /* No DODAGID (D clear): a global instance (§6.4.1); the DODAG is the only one joined. */
    tern_rpl_dao_repr_t dao = { .instance_id = rpl->instance_id, .ack_requested = ack, .has_dodag_id = false,
                                .sequence = sequence, .options = dao_options(msg), .options_len = options_len };
    if (to == NULL || tern_rpl_dao_emit(&dao, msg->data, msg->size) < 0 ||
        tern_pktbuf_realloc_data(pb, msg, tern_rpl_dao_len(&dao)) < 0) {
        tern_pktbuf_release(pb, msg);
        return (to == NULL) ? -ENETUNREACH : -EINVAL;
    }
    int res = rpl_non_storing(rpl) ? rpl_send(rpl, msg, 0, &rpl->dodag_id, false, 0)
                                   : rpl_send(rpl, msg, to->if_index, &to->addr, true, 0);
    if (res == 0) {
        rpl_count(rpl, TERN_RPL_DAO_OUT);
    }
    return res;
}

/*
 * A Target for each global address of our RPL interfaces into @p out
 * (at most @p cap bytes). @return the bytes written.
 */
static size_t own_targets_emit(tern_rpl_t *rpl, uint8_t *out, size_t cap)
{
    size_t n = 0;
    tern_ipv6_addr_list_t addrs;
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        if (rpl->ifs[i] == NULL || tern_netapi_get(&rpl->ip->module, TERN_NETOPT_IPV6_ADDRS, rpl->ifs[i]->index,
                                                   &addrs, sizeof(addrs)) < 0) {
            continue;
        }
        for (size_t k = 0; k < TERN_CONF_IPV6_ADDRS; k++) {
            const tern_ipv6_if_addr_t *a = &addrs.addrs[k];
            if (!a->used || a->state != TERN_IPV6_ADDR_PREFERRED || tern_ipv6_addr_is_link_local(&a->addr)) {
                continue;
            }
            tern_rpl_opt_target_t t = { .prefix_len = 128, .prefix = a->addr };
            int r = tern_rpl_opt_target_emit(&t, out + n, cap - n);
            n += (r > 0) ? (size_t)r : 0u;
        }
    }
    return n;
}

/*
 * Path Lifetime (lifetime units, rounded up, at least 1, at most 254; 0xFF
 * infinite) left to route @p r at @p now: never more than the child gave
 * (tern_expiry_units_left()).
 */
static uint8_t route_units_left(const tern_rpl_t *rpl, const tern_rpl_route_t *r, uint64_t now)
{
    if (r->expires == TERN_EXPIRY_NEVER) {
        return 0xFFu;
    }
    uint64_t units = tern_expiry_units_left(r->expires, now, (uint64_t)rpl->lifetime_unit * RPL_US_PER_S);
    return (uint8_t)((units > 0xFEu) ? 0xFEu : units);
}

/*
 * The targets of our sub-DODAG (RFC 6550 §9.2.2: in storing mode a node
 * advertises the targets it has routes for): Targets for the downward routes
 * from routes[*cursor] on, each group followed by its Transit Information
 * (§6.7.8). Consecutive routes with the same Path Lifetime left and Path
 * Sequence share one Transit, at most DAO_GROUP_MAX Targets each (what a
 * receiver keeps before a Transit). @p no_path: Path Lifetime 0 (§6.7.8,
 * No-Path, §9.8). Routes via @p skip (our parent: it can not be below us)
 * are left out. Stops when the next group would not fit in @p cap bytes;
 * @p cursor is left on the first route not written.
 * @return the bytes written.
 */
static size_t routes_emit(tern_rpl_t *rpl, size_t *cursor, const tern_rpl_parent_t *skip, bool no_path, uint8_t *out,
                          size_t cap)
{
    uint64_t now = rpl_now(rpl);
    tern_rpl_opt_transit_t tr; /* E, Path Control and Parent Address stay 0; sequence and lifetime per group */
    memset(&tr, 0, sizeof(tr));
    size_t n = 0;
    size_t group = 0;
    size_t i = *cursor;
    for (; i < TERN_CONF_RPL_ROUTES; i++) {
        const tern_rpl_route_t *r = &rpl->routes[i];
        if (!r->used || tern_expiry_passed(r->expires, tern_expiry_now(now)) ||
            (skip != NULL && r->if_index == skip->if_index && tern_ipv6_addr_equal(&r->next_hop, &skip->addr))) {
            continue;
        }
        uint8_t units = no_path ? 0u : route_units_left(rpl, r, now);
        bool same = group > 0 && group < DAO_GROUP_MAX && tr.path_lifetime == units &&
                    tr.path_sequence == r->path_sequence;
        if (group > 0 && !same) {
            int w = tern_rpl_opt_transit_emit(&tr, out + n, cap - n);
            n += (w > 0) ? (size_t)w : 0u;
            group = 0;
        }
        size_t tlen = TERN_RPL_OPT_TARGET_FIXED + ((size_t)r->prefix_len + 7u) / 8u;
        if (n + tlen + TERN_RPL_OPT_TRANSIT_LEN > cap) {
            break; /* the Transit of this group must fit too */
        }
        if (group == 0) {
            tr.path_sequence = r->path_sequence;
            tr.path_lifetime = units;
        }
        tern_rpl_opt_target_t t = { .prefix_len = r->prefix_len, .prefix = r->target };
        int w = tern_rpl_opt_target_emit(&t, out + n, cap - n);
        if (w <= 0) {
            continue;
        }
        n += (size_t)w;
        group++;
    }
    *cursor = i;
    if (group > 0) {
        int w = tern_rpl_opt_transit_emit(&tr, out + n, cap - n);
        n += (w > 0) ? (size_t)w : 0u;
    }
    return n;
}

/*
 * Storing mode: DAOs without K carrying the routes from routes[*cursor] on
 * (routes_emit()) to @p to, until every route is sent or a message can not
 * be had. @return the DAOs sent.
 */
static unsigned routes_send(tern_rpl_t *rpl, size_t *cursor, const tern_rpl_parent_t *to, bool no_path)
{
    unsigned sent = 0;
    while (*cursor < TERN_CONF_RPL_ROUTES) {
        tern_pkt_t *msg = dao_alloc(rpl, DAO_ROUTES_MAX);
        if (msg == NULL) {
            break;
        }
        size_t n = routes_emit(rpl, cursor, to, no_path, dao_options(msg), DAO_ROUTES_MAX);
        if (n == 0) {
            tern_pktbuf_release(&rpl->module.stack->pktbuf, msg);
            break;
        }
        rpl->dao_sequence++;
        if (dao_finish_send(rpl, msg, n, false, rpl->dao_sequence, to) == 0) {
            sent++;
        }
    }
    return sent;
}

/*
 * Send @p msg, a DAO to @p to whose options hold @p n bytes (our own Targets
 * and their Transit, if any) of the @p cap it has room for, K set when @p ack;
 * in storing mode the targets of our sub-DODAG follow (§9.2.2), in the same
 * DAO as far as @p cap allows and in further DAOs without K. A DAO without K
 * from here is a No-Path (rpl_dao_no_path()): its routes go with Path
 * Lifetime 0 too. Nothing to send: @p msg is released. Consumes @p msg.
 * @return the DAOs sent.
 */
static unsigned dao_send_all(tern_rpl_t *rpl, tern_pkt_t *msg, size_t n, size_t cap, const tern_rpl_parent_t *to,
                             bool ack)
{
    size_t cursor = rpl_non_storing(rpl) ? TERN_CONF_RPL_ROUTES : 0u; /* §9.7: no routes of our own to announce */
    n += routes_emit(rpl, &cursor, to, !ack, dao_options(msg) + n, cap - n);
    if (n == 0) {
        tern_pktbuf_release(&rpl->module.stack->pktbuf, msg);
        return 0;
    }
    rpl->dao_sequence++;
    if (ack) {
        rpl->dao_ack_sequence = rpl->dao_sequence;
        rpl->dao_pending = true;
    }
    unsigned sent = (dao_finish_send(rpl, msg, n, ack, rpl->dao_sequence, to) == 0) ? 1u : 0u;
    return sent + routes_send(rpl, &cursor, to, !ack);
}

/*
 * Our own DAO: a Target for each global address of our RPL interfaces, one
 * Transit Information, K set. In storing mode, the targets of our
 * sub-DODAG follow (dao_send_all()): a new parent, a refresh and a DTSN
 * increment of the parent all re-announce the whole sub-DODAG, so routes two
 * or more hops below a node that changed parent move to the new path too.
 */
static void own_dao_send(tern_rpl_t *rpl)
{
    const tern_rpl_parent_t *p = rpl_dodag_preferred(rpl);
    bool storing = !rpl_non_storing(rpl);
    size_t cap = DAO_OPTIONS_MAX + (storing ? DAO_ROUTES_MAX : 0u);
    tern_pkt_t *msg = (p != NULL) ? dao_alloc(rpl, cap) : NULL;
    if (msg == NULL) {
        rpl_dao_at_set(rpl, rpl_now(rpl) + DAO_DELAY_US);
        return;
    }
    uint8_t *options = dao_options(msg);
    size_t n = own_targets_emit(rpl, options, DAO_OPTIONS_MAX - TERN_RPL_OPT_TRANSIT_PARENT_LEN);
    tern_rpl_opt_transit_t transit = { .external = false, .path_control = 0, .path_sequence = rpl->path_sequence,
                                       .path_lifetime = rpl->default_lifetime, .has_parent = false };
    /* §9.7, §6.7.8: in non-storing mode the Parent Address names our preferred parent. */
    if (n != 0 && !storing) {
        transit.has_parent = rpl_ns_parent_address(rpl, &transit.parent) == 0;
        n = transit.has_parent ? n : 0u;
    }
    if (n == 0) {
        /* No global address yet (the prefix comes with the parent's DIO): try again later. */
        tern_pktbuf_release(&rpl->module.stack->pktbuf, msg);
        rpl_dao_at_set(rpl, rpl_now(rpl) + DAO_DELAY_US);
        return;
    }
    if (!rpl->dao_pending) {
        /* §7.2: a new DAO (not a retry) of ours: the next Path Sequence. */
        rpl->path_sequence = rpl_seq_next(rpl->path_sequence);
        transit.path_sequence = rpl->path_sequence;
    }
    int r = tern_rpl_opt_transit_emit(&transit, options + n, cap - n);
    n += (r > 0) ? (size_t)r : 0u;
    (void)dao_send_all(rpl, msg, n, cap, p, true);
    rpl_dao_at_set(rpl, rpl_now(rpl) + (uint64_t)TERN_CONF_RPL_DAO_ACK_TIMEOUT_MS * RPL_US_PER_MS);
}

void rpl_dao_no_path(tern_rpl_t *rpl, const tern_rpl_parent_t *old)
{
    if (old == NULL || !old->used || rpl_non_storing(rpl) || rpl->role == TERN_RPL_ROLE_ROOT || !rpl->joined) {
        return;
    }
    /* §9.8 (storing mode): a node that drops a parent from its DAO parent set
     * SHOULD tell it with a No-Path DAO, so that the routes through the old path
     * go at once instead of when their lifetimes end. The withdrawal covers us
     * and our sub-DODAG; a router only withdraws routes that go via the sender
     * (route_update()), so one that the new path reached first keeps it. */
    size_t cap = DAO_OPTIONS_MAX + DAO_ROUTES_MAX;
    tern_pkt_t *msg = dao_alloc(rpl, cap);
    if (msg == NULL) {
        return;
    }
    uint8_t *options = dao_options(msg);
    size_t n = own_targets_emit(rpl, options, DAO_OPTIONS_MAX - TERN_RPL_OPT_TRANSIT_PARENT_LEN);
    if (n != 0) {
        tern_rpl_opt_transit_t transit = { .path_sequence = rpl->path_sequence, .path_lifetime = 0 };
        int r = tern_rpl_opt_transit_emit(&transit, options + n, cap - n);
        n += (r > 0) ? (size_t)r : 0u;
    }
    for (unsigned sent = dao_send_all(rpl, msg, n, cap, old, false); sent > 0; sent--) {
        rpl_count(rpl, TERN_RPL_DAO_NO_PATH_OUT);
    }
}

static void dao_ack_send(tern_rpl_t *rpl, const tern_ipv6_addr_t *dst, uint16_t if_index, uint8_t sequence,
                         uint8_t status)
{
    tern_rpl_dao_ack_repr_t ack = { .instance_id = rpl->instance_id, .has_dodag_id = false, .sequence = sequence,
                                    .status = status, .options = NULL, .options_len = 0 };
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

void rpl_dao_receive(tern_rpl_t *rpl, const tern_ipv6_repr_t *hdr, uint16_t if_index, const uint8_t *b, size_t len)
{
    tern_rpl_dao_repr_t dao;
    if (tern_rpl_dao_parse(&dao, b, len) < 0) { /* options checked too (tern/wire/rpl.h) */
        rpl_count(rpl, TERN_RPL_MALFORMED);
        return;
    }
    /* §9.8: storing mode, from the child's link-local address; §9.7: non-storing
     * mode, from the node's global address, end to end. */
    bool ns = rpl_non_storing(rpl);
    bool link_local = tern_ipv6_addr_is_link_local(&hdr->src);
    if (ns ? (link_local || tern_ipv6_addr_is_multicast(&hdr->src)) : !link_local) {
        rpl_count(rpl, TERN_RPL_BAD_SOURCE);
        return;
    }
    if (!rpl->joined || dao.instance_id != rpl->instance_id ||
        (dao.has_dodag_id && !tern_ipv6_addr_equal(&dao.dodag_id, &rpl->dodag_id))) {
        rpl_count(rpl, TERN_RPL_UNKNOWN_INSTANCE);
        return;
    }
    /* §9.8: DAOs come from children; our preferred parent's (or a leaf's own)
     * would make a loop. A parent candidate's is taken, and that candidate
     * leaves the parent set (rpl_dodag_dao_from()): it chose us, its rank is
     * above ours now. Dropping its DAOs instead left its whole sub-DODAG
     * without downward routes until it switched again (bench/rpl, storing
     * mode: dao_not_child by the dozen). §9.7: in non-storing mode only the
     * root takes DAOs. */
    if (rpl->role == TERN_RPL_ROLE_LEAF || (ns && rpl->role != TERN_RPL_ROLE_ROOT) || rpl_poisoning(rpl) ||
        (!ns && !rpl_dodag_dao_from(rpl, &hdr->src, if_index))) {
        rpl_count(rpl, TERN_RPL_DAO_NOT_CHILD);
        return;
    }
    rpl_count(rpl, TERN_RPL_DAO_IN);
    /* §9.2: a storing router passes the targets on towards the root, in a DAO
     * of its own with the Targets it accepted (fwd_n bytes of options). */
    tern_pkt_t *fwd = NULL;
    size_t fwd_n = 0;
    if (RPL_JOINS && !ns && rpl->role == TERN_RPL_ROLE_ROUTER) { /* joined: only a root without RPL_JOINS */
        fwd = dao_alloc(rpl, dao.options_len);
    }
    /* §6.7.8: each Transit Information applies to the Targets before it (since the last Transit). */
    tern_rpl_opt_target_t targets[DAO_GROUP_MAX];
    size_t count = 0;
    tern_rpl_opt_iter_t it;
    tern_rpl_opt_t opt;
    tern_rpl_opt_iter_init(&it, dao.options, dao.options_len);
    while (tern_rpl_opt_next(&it, &opt) == 1) {
        if (opt.type == TERN_RPL_OPT_TARGET) {
            /* Parsed into the next free slot, kept only if good; more Targets
             * before one Transit than we keep are bad targets too. */
            tern_rpl_opt_target_t *t = &targets[count];
            if (count == DAO_GROUP_MAX || tern_rpl_opt_target_parse(t, &opt) < 0 ||
                tern_ipv6_addr_is_link_local(&t->prefix) || tern_ipv6_addr_is_multicast(&t->prefix)) {
                rpl_count(rpl, TERN_RPL_DAO_BAD_TARGET);
                continue;
            }
            count++;
        } else if (opt.type == TERN_RPL_OPT_TRANSIT) {
            tern_rpl_opt_transit_t tr;
            if (tern_rpl_opt_transit_parse(&tr, &opt) < 0) {
                continue;
            }
            bool infinite = tr.path_lifetime == 0xFFu;
            uint32_t lifetime = (uint32_t)tr.path_lifetime * rpl->lifetime_unit;
            if (ns) {
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
                count = 0;
                continue;
            }
            size_t passed = 0;
            for (size_t i = 0; i < count; i++) {
                if (!route_update(rpl, &targets[i], &hdr->src, if_index, lifetime, infinite, tr.path_sequence)) {
                    rpl_count(rpl, TERN_RPL_DAO_NOT_FORWARDED);
                    continue;
                }
                int w = (fwd != NULL) ? tern_rpl_opt_target_emit(&targets[i], dao_options(fwd) + fwd_n,
                                                                 dao.options_len - fwd_n)
                                      : -ENOBUFS;
                if (w > 0) {
                    fwd_n += (size_t)w;
                    passed++;
                }
            }
            if (passed > 0) {
                /* Re-emitted options are no longer than the ones received: this fits. */
                int w = tern_rpl_opt_transit_emit(&tr, dao_options(fwd) + fwd_n, dao.options_len - fwd_n);
                fwd_n += (w > 0) ? (size_t)w : 0u;
            }
            count = 0;
        }
    }
    if (count > 0) {
        rpl_count(rpl, TERN_RPL_DAO_BAD_TARGET); /* Targets with no Transit Information after them */
    }
    if (dao.ack_requested) {
        dao_ack_send(rpl, &hdr->src, if_index, dao.sequence, TERN_RPL_DAO_ACK_ACCEPT);
    }
    if (fwd != NULL && fwd_n > 0) {
        rpl->dao_sequence++;
        if (dao_finish_send(rpl, fwd, fwd_n, false, rpl->dao_sequence, rpl_dodag_preferred(rpl)) == 0) {
            rpl_count(rpl, TERN_RPL_DAO_FORWARDED);
        }
    } else if (fwd != NULL) {
        tern_pktbuf_release(&rpl->module.stack->pktbuf, fwd);
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
    if (!RPL_JOINS || !rpl->dao_pending || ack.sequence != rpl->dao_ack_sequence) { /* own DAOs: RPL_JOINS */
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
    rpl_dao_at_set(rpl, (rpl->default_lifetime == 0xFFu)
                            ? RPL_NEVER
                            : rpl_now(rpl) + (uint64_t)rpl_dao_lifetime_s(rpl) * (RPL_US_PER_S / 2u));
}

/* ------------------------------------------------------------ time */

uint64_t rpl_dao_next_deadline(const tern_rpl_t *rpl)
{
    uint64_t next = rpl_dao_at(rpl);
    uint64_t ns = rpl_ns_next_deadline(rpl);
    next = (ns < next) ? ns : next;
    for (size_t i = 0; i < TERN_CONF_RPL_ROUTES; i++) {
        uint64_t end = tern_expiry_to_us(rpl->routes[i].expires);
        if (rpl->routes[i].used && end < next) {
            next = end;
        }
    }
    return next;
}

void rpl_dao_tick(tern_rpl_t *rpl, uint64_t now)
{
    rpl_ns_tick(rpl, now);
    for (size_t i = 0; i < TERN_CONF_RPL_ROUTES; i++) {
        tern_rpl_route_t *r = &rpl->routes[i];
        if (r->used && tern_expiry_passed(r->expires, tern_expiry_now(now))) {
            rpl_count(rpl, TERN_RPL_ROUTES_EXPIRED);
            memset(r, 0, sizeof(*r)); /* the FIB expires its copy on its own */
        }
    }
    if (!RPL_JOINS || rpl_dao_at(rpl) > now) {
        return; /* own DAOs: only a node with a parent (RPL_JOINS) schedules them */
    }
    rpl_dao_at_set(rpl, RPL_NEVER);
    if (!rpl->joined || rpl->role == TERN_RPL_ROLE_ROOT || rpl_dodag_preferred(rpl) == NULL ||
        rpl_poisoning(rpl)) {
        rpl->dao_pending = false;
        return;
    }
    if (rpl->dao_pending) {
        /* No DAO-ACK in time (§9.3). */
        if (rpl->dao_retries >= TERN_CONF_RPL_DAO_RETRIES) {
            rpl_count(rpl, TERN_RPL_DAO_GAVE_UP);
            rpl->dao_pending = false;
            rpl->dao_retries = 0;
            rpl_dao_at_set(rpl, now + (uint64_t)rpl_dao_lifetime_s(rpl) * (RPL_US_PER_S / 2u));
            return;
        }
        rpl->dao_retries++;
        rpl_count(rpl, TERN_RPL_DAO_RETRIES);
    }
    own_dao_send(rpl);
}

/* ------------------------------------------------------------ forwarding errors */

void rpl_dao_route_failed(tern_rpl_t *rpl, const tern_ipv6_addr_t *target)
{
    /* §11.2.2.3: "remove the routing states that caused forwarding to that
     * neighbor"; the IPv6 module already took the route out of the FIB. */
    for (size_t i = 0; i < TERN_CONF_RPL_ROUTES; i++) {
        tern_rpl_route_t *r = &rpl->routes[i];
        if (r->used && tern_ipv6_addr_match_prefix(target, &r->target, r->prefix_len)) {
            route_remove(rpl, r);
            rpl_count(rpl, TERN_RPL_RPI_ROUTES_FAILED);
            break;
        }
    }
    /* §9.6: a DTSN increment asks the sub-DODAG for its DAOs again, so a
     * target still below us gets its route back along the path it really
     * takes (each DAO carries the sender's sub-DODAG, see own_dao_send()). */
    if (rpl->joined && !rpl_non_storing(rpl) && rpl->role != TERN_RPL_ROLE_LEAF) {
        rpl->dtsn++;
        rpl_trickle_reset(rpl);
    }
}
