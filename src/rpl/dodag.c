/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The upward part of the DODAG: candidate neighbors, parent set and
 *        preferred parent by the objective function, rank and its rules,
 *        the default route, loss of parents and local repair.
 *
 * Read first: RFC 6550 §8.2.1 (parent set: neighbors of lower rank, the
 * preferred parent among them), §8.2.2.4 (rank within a version: never
 * above L + DAGMaxRankIncrease, L the lowest rank advertised), §8.2.2.5
 * (detaching: poison with INFINITE_RANK, then rejoin), §8.2.2.6 (a
 * parent advertising INFINITE_RANK is no longer a parent), §14 (the
 * objective function picks the preferred parent and the rank; tern/rpl/of.h).
 */
#include <errno.h>
#include <string.h>

#include "rpl_internal.h"
#include "tern/netapi.h"

/** After a failed probe, the next one (TERN_CONF_RPL_PROBE_INTERVAL_S otherwise). */
#define PROBE_RETRY_US (2u * RPL_US_PER_S)

/** Local repair: how long INFINITE_RANK is advertised before the node detaches, in Imin units (§8.2.2.5). */
#define POISON_IMINS 4u

tern_rpl_parent_t *rpl_dodag_preferred(tern_rpl_t *rpl)
{
#if RPL_JOINS
    return rpl->preferred;
#else
    (void)rpl;
    return NULL;
#endif
}

uint16_t rpl_dodag_advertised_rank(const tern_rpl_t *rpl)
{
    if (rpl->role == TERN_RPL_ROLE_LEAF || !rpl->joined || rpl_poisoning(rpl)) {
        return TERN_RPL_INFINITE_RANK; /* §8.5 (leaf), §8.2.2.5 (poisoning) */
    }
    return rpl->rank;
}

/* ------------------------------------------------------------ default route */

#if RPL_JOINS
static void route_set(tern_rpl_t *rpl, bool add, const tern_ipv6_addr_t *next_hop, uint16_t if_index)
{
    tern_ipv6_route_config_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.next_hop = *next_hop;
    cfg.prefix_len = 0; /* ::/0 */
    cfg.origin = TERN_FIB_ROUTING;
    (void)tern_netapi_set(&rpl->ip->module, add ? TERN_NETOPT_IPV6_ROUTE_ADD : TERN_NETOPT_IPV6_ROUTE_DEL, if_index,
                          &cfg, sizeof(cfg));
}

/* The preferred parent is the default route (§3.2.8: "upward routes towards the root"). */
static void update_default_route(tern_rpl_t *rpl)
{
    const tern_rpl_parent_t *p = rpl_dodag_preferred(rpl);
    bool have = !tern_ipv6_addr_is_unspecified(&rpl->default_route);
    if (p != NULL && have && tern_ipv6_addr_equal(&p->addr, &rpl->default_route) &&
        p->if_index == rpl->default_route_if) {
        return;
    }
    if (have) {
        route_set(rpl, false, &rpl->default_route, rpl->default_route_if);
        memset(&rpl->default_route, 0, sizeof(rpl->default_route));
        rpl->default_route_if = 0;
    }
    if (p != NULL) {
        route_set(rpl, true, &p->addr, p->if_index);
        rpl->default_route = p->addr;
        rpl->default_route_if = p->if_index;
    }
}
#else
static void update_default_route(tern_rpl_t *rpl)
{
    (void)rpl; /* no parent: no default route through one */
}
#endif

/* ------------------------------------------------------------ parent set */

void rpl_dodag_leave(tern_rpl_t *rpl)
{
#if RPL_JOINS
    memset(rpl->parents, 0, sizeof(rpl->parents));
    rpl->preferred = NULL;
#endif
    update_default_route(rpl);
}

/* Detach: forget the DODAG, solicit a new one (§8.2.2.5 after poisoning). */
static void detach(tern_rpl_t *rpl)
{
    rpl_dodag_leave(rpl);
    rpl_trickle_stop(rpl);
    rpl->joined = false;
    rpl_poison_until_set(rpl, 0);
    rpl->rank = TERN_RPL_INFINITE_RANK;
    rpl->lowest_rank = TERN_RPL_INFINITE_RANK;
    rpl->dao_pending = false;
    rpl_dao_at_set(rpl, RPL_NEVER);
    rpl->dis_at_us = rpl_now(rpl) + 1u + rpl_random(rpl) % RPL_US_PER_S;
}

#if RPL_JOINS /* the parent set: a node that joins below a root */

static uint64_t imin_us(const tern_rpl_t *rpl)
{
    return (uint64_t)1000u << rpl->dio_interval_min;
}

static void parent_clear(tern_rpl_t *rpl, tern_rpl_parent_t *p)
{
    memset(p, 0, sizeof(*p));
    if (rpl->preferred == p) {
        rpl->preferred = NULL;
    }
}

/* No parent left while joined: a router poisons (advertises INFINITE_RANK
 * so that its sub-DODAG detaches from it rather than through it, §8.2.2.5),
 * a leaf just detaches. */
static void local_repair(tern_rpl_t *rpl)
{
    rpl_count(rpl, TERN_RPL_LOCAL_REPAIRS);
    if (rpl->role != TERN_RPL_ROLE_ROUTER) {
        detach(rpl);
        return;
    }
    rpl->rank = TERN_RPL_INFINITE_RANK;
    rpl_poison_until_set(rpl, rpl_now(rpl) + POISON_IMINS * imin_us(rpl));
    rpl->dao_pending = false;
    rpl_dao_at_set(rpl, RPL_NEVER);
    update_default_route(rpl);
    rpl_trickle_reset(rpl); /* the poisoned DIOs go out at Imin */
}

void rpl_dodag_select(tern_rpl_t *rpl)
{
    if (!RPL_JOINS || rpl->role == TERN_RPL_ROLE_ROOT || rpl->role == TERN_RPL_ROLE_NONE || !rpl->joined ||
        rpl_poisoning(rpl)) {
        return;
    }
    const tern_rpl_of_t *of = tern_rpl_of_get(rpl->ocp);
    tern_rpl_candidate_t cands[TERN_CONF_RPL_PARENTS];
    tern_rpl_parent_t *slot[TERN_CONF_RPL_PARENTS]; /* the entry of each candidate */
    size_t n = 0;
    int current = -1;
    for (size_t i = 0; i < TERN_CONF_RPL_PARENTS; i++) {
        tern_rpl_parent_t *p = &rpl->parents[i];
        if (!p->used) {
            continue;
        }
        p->etx = tern_rpl_etx_get(&rpl->etx, p->l2addr, p->l2addr_len);
        cands[n].rank = p->rank;
        cands[n].link_etx = p->etx;
        /* §8.2.1: a node of our sub-DODAG must never become our parent, and
         * its rank is above ours. So a new parent must rank below us (it
         * cannot be below us in the DODAG); only the preferred parent may be
         * followed down (§8.2.2.4, up to L + DAGMaxRankIncrease), and a node
         * with no rank (INFINITE_RANK: joining, or after local repair has
         * poisoned its sub-DODAG) may take any. Without this, a node whose
         * only good parent went away chose one of its own children, whose
         * rank still looked acceptable against the rank it computed through
         * us (seen in bench/rpl: 60 such loops in one 5x5 grid run, and
         * delivery fell to 27 %). When no candidate is left: local repair. */
        cands[n].reachable = p->failures < TERN_CONF_RPL_PARENT_FAILURES &&
                             (rpl->preferred == p || rpl->rank == TERN_RPL_INFINITE_RANK || p->rank < rpl->rank);
        if (rpl->preferred == p) {
            current = (int)n;
        }
        slot[n++] = p;
    }
    tern_rpl_of_params_t params;
    tern_rpl_of_params_init(&params, rpl->min_hop_rank_increase, rpl->max_rank_increase);
    /* §8.2.2.4: within a version, never above L + DAGMaxRankIncrease (0: no limit). */
    if (rpl->max_rank_increase != 0 && rpl->lowest_rank != TERN_RPL_INFINITE_RANK) {
        uint32_t limit = (uint32_t)rpl->lowest_rank + rpl->max_rank_increase;
        params.rank_limit = (uint16_t)((limit >= TERN_RPL_INFINITE_RANK) ? TERN_RPL_INFINITE_RANK - 1u : limit);
    }
    tern_rpl_of_selection_t sel;
    memset(&sel, 0, sizeof(sel));
    if (of == NULL || of->select(&params, cands, n, current, &sel) < 0 || sel.count == 0) {
        if (rpl->preferred != NULL || rpl->rank != TERN_RPL_INFINITE_RANK) {
            rpl->preferred = NULL;
            local_repair(rpl);
        }
        return;
    }
    tern_rpl_parent_t *best = slot[sel.parents[0]];
    bool switched = best != rpl->preferred;
    tern_rpl_parent_t *old = rpl->preferred;
    uint16_t old_rank = rpl->rank;
    rpl->preferred = best;
    rpl->rank = sel.rank;
    if (rpl->rank < rpl->lowest_rank) {
        rpl->lowest_rank = rpl->rank; /* L (§8.2.2.4) */
    }
    if (switched) {
        rpl_count(rpl, TERN_RPL_PARENT_SWITCHES);
        update_default_route(rpl);
        /* §9.6: our sub-DODAG's routes now go through the new parent: a new
         * DTSN asks our children for their DAOs again (storing mode). */
        rpl->dtsn++;
        rpl->probe_at_us = rpl_now(rpl) + (uint64_t)TERN_CONF_RPL_PROBE_INTERVAL_S * RPL_US_PER_S;
        /* §9.6: a new preferred parent needs our DAO (storing mode: routes go through it now);
         * it carries our sub-DODAG's targets too (dao.c, §9.2.2). */
        rpl_dao_schedule(rpl);
        /* §9.8: the former parent, still a neighbor, withdraws the routes through us. */
        if (old != NULL) {
            rpl_dao_no_path(rpl, old);
        }
    }
    /* RFC 6550 §8.3: a changed rank or parent is an inconsistency worth telling quickly. */
    if (switched || old_rank != rpl->rank) {
        rpl_trickle_reset(rpl);
    }
}

static tern_rpl_parent_t *parent_find(tern_rpl_t *rpl, const tern_ipv6_addr_t *addr, uint16_t if_index)
{
    for (size_t i = 0; i < TERN_CONF_RPL_PARENTS; i++) {
        tern_rpl_parent_t *p = &rpl->parents[i];
        if (p->used && p->if_index == if_index && tern_ipv6_addr_equal(&p->addr, addr)) {
            return p;
        }
    }
    return NULL;
}

/* A slot for a new candidate of @p rank: a free one, else the worst (highest
 * rank) if @p rank is better, never the preferred parent. */
static tern_rpl_parent_t *parent_slot(tern_rpl_t *rpl, uint16_t rank)
{
    tern_rpl_parent_t *worst = NULL;
    for (size_t i = 0; i < TERN_CONF_RPL_PARENTS; i++) {
        tern_rpl_parent_t *p = &rpl->parents[i];
        if (!p->used) {
            return p;
        }
        if (rpl->preferred != p && (worst == NULL || p->rank > worst->rank)) {
            worst = p;
        }
    }
    return (worst != NULL && worst->rank > rank) ? worst : NULL;
}

bool rpl_dodag_dio_from(tern_rpl_t *rpl, const tern_ipv6_addr_t *src, const tern_netif_hdr_t *nhdr, uint16_t rank,
                        uint8_t dtsn)
{
    uint16_t if_index = nhdr->if_index;
    tern_rpl_parent_t *p = parent_find(rpl, src, if_index);
    if (rank == TERN_RPL_INFINITE_RANK) {
        /* §8.2.2.5: a neighbor advertising INFINITE_RANK is no parent. */
        if (p != NULL) {
            rpl_count(rpl, TERN_RPL_PARENT_LOST);
            parent_clear(rpl, p);
            rpl_dodag_select(rpl);
        }
        return false;
    }
    bool was_preferred = p != NULL && rpl->preferred == p;
    if (p == NULL) {
        /* Only neighbors that could be parents: rank below ours (§8.2.1), or any while we have no rank. */
        if (rpl->rank != TERN_RPL_INFINITE_RANK && rank >= rpl->rank) {
            return true;
        }
        p = parent_slot(rpl, rank);
        if (p == NULL) {
            rpl_count(rpl, TERN_RPL_PARENT_TABLE_FULL);
            return true;
        }
        memset(p, 0, sizeof(*p));
        p->used = true;
        p->addr = *src;
        p->if_index = if_index;
        /* The link address frames to the parent go to (RFC 6775 §5.7: the IPv6
         * module derives it the same way), so that TX status reports name it. */
        _Static_assert(TERN_CONF_L2ADDR_MAX >= 8, "an EUI-64 must fit a link address");
        p->l2addr_len = (uint8_t)tern_ipv6_l2addr_from_iid(src, p->l2addr);
    }
    uint16_t old_rank = p->rank;
    p->rank = rank;
    p->version = rpl->version;
    p->heard_us = rpl_now(rpl);
    if (was_preferred) {
        rpl->probe_at_us = p->heard_us + (uint64_t)TERN_CONF_RPL_PROBE_INTERVAL_S * RPL_US_PER_S;
        /* §9.6: the preferred parent's DTSN going up asks for our DAO again. */
        if (dtsn != rpl->parent_dtsn) {
            rpl->parent_dtsn = dtsn;
            rpl_dao_schedule(rpl);
            /* §9.6 lets a storing node increment its DTSN to have its children
             * send DAOs again. Choice: a router does so whenever its preferred
             * parent's DTSN changes, so the request travels down the whole
             * sub-DODAG and every target below us announces itself with a new
             * Path Sequence, which a route of an older path gives way to (§7.2,
             * dao.c). The new DTSN goes out at Imin. */
            if (!rpl_non_storing(rpl) && rpl->role == TERN_RPL_ROLE_ROUTER) {
                rpl->dtsn = rpl_seq_next(rpl->dtsn);
                rpl_trickle_reset(rpl);
            }
        }
    }
    if (rpl->preferred == NULL && p->l2addr_len != 0 &&
        tern_rpl_etx_get(&rpl->etx, p->l2addr, p->l2addr_len) > TERN_CONF_RPL_MRHOF_MAX_LINK_METRIC) {
        /* Without a parent, a neighbor whose DIOs arrive gets its link
         * estimate back to the initial one: an ETX past MAX_LINK_METRIC (RFC
         * 6719 §5) would keep it out of the parent set for good, since only
         * the frames we send it could lower the estimate, and we send it none
         * while it is out. The frames to it after the join measure it again. */
        tern_rpl_etx_remove(&rpl->etx, p->l2addr, p->l2addr_len);
        rpl_count(rpl, TERN_RPL_ETX_RESET);
    }
    if (p->rank != old_rank || rpl->preferred == NULL) {
        rpl_dodag_select(rpl);
    }
    if (!was_preferred && rpl_dodag_preferred(rpl) == p) {
        rpl->parent_dtsn = dtsn;
    }
    return true;
}

bool rpl_dodag_dao_from(tern_rpl_t *rpl, const tern_ipv6_addr_t *src, uint16_t if_index)
{
    tern_rpl_parent_t *p = RPL_JOINS ? parent_find(rpl, src, if_index) : NULL; /* the parent set: RPL_JOINS */
    if (p == NULL) {
        return true;
    }
    if (rpl->preferred == p) {
        return false;
    }
    rpl_count(rpl, TERN_RPL_PARENT_BECAME_CHILD);
    parent_clear(rpl, p);
    return true;
}

void rpl_dodag_parent_lost(tern_rpl_t *rpl, tern_rpl_parent_t *p)
{
    rpl_count(rpl, TERN_RPL_PARENT_LOST);
    tern_rpl_etx_remove(&rpl->etx, p->l2addr, p->l2addr_len);
    parent_clear(rpl, p);
    rpl_dodag_select(rpl);
}

void rpl_dodag_tx_status(tern_rpl_t *rpl, const uint8_t *l2addr, size_t l2len, int status, unsigned transmissions)
{
    if (tern_rpl_etx_update(&rpl->etx, l2addr, l2len, status, transmissions) <= 0) {
        return; /* no link information (busy channel, refused) */
    }
    for (size_t i = 0; RPL_JOINS && i < TERN_CONF_RPL_PARENTS; i++) { /* the parent set: RPL_JOINS */
        tern_rpl_parent_t *p = &rpl->parents[i];
        if (!p->used || p->l2addr_len != l2len || memcmp(p->l2addr, l2addr, l2len) != 0) {
            continue;
        }
        if (status == 0) {
            p->failures = 0;
        } else if (p->failures < UINT8_MAX) {
            p->failures++;
            if (rpl->preferred == p) {
                rpl->probe_at_us = rpl_now(rpl) + PROBE_RETRY_US; /* make sure, quickly */
            }
        }
        /* §8.2.2.5: the link layer says the parent is gone. */
        if (p->failures >= TERN_CONF_RPL_PARENT_FAILURES) {
            rpl_dodag_parent_lost(rpl, p);
        } else if (rpl->preferred == p || status != 0) {
            rpl_dodag_select(rpl); /* MRHOF: the path cost moved */
        }
        return;
    }
}

#else /* !RPL_JOINS */

/* A root-only image: no parent set, no preferred parent, no link feedback
 * (RFC 6550 §8.2.2.2: a root has no parents). A root never takes a DIO as a
 * parent's (dio.c), nor a DAO from one. */
void rpl_dodag_select(tern_rpl_t *rpl)
{
    (void)rpl;
}

bool rpl_dodag_dio_from(tern_rpl_t *rpl, const tern_ipv6_addr_t *src, const tern_netif_hdr_t *nhdr, uint16_t rank,
                        uint8_t dtsn)
{
    (void)rpl, (void)src, (void)nhdr, (void)dtsn;
    return rank != TERN_RPL_INFINITE_RANK;
}

bool rpl_dodag_dao_from(tern_rpl_t *rpl, const tern_ipv6_addr_t *src, uint16_t if_index)
{
    (void)rpl, (void)src, (void)if_index;
    return true; /* no parent it could be */
}

void rpl_dodag_parent_lost(tern_rpl_t *rpl, tern_rpl_parent_t *p)
{
    (void)rpl, (void)p;
}

void rpl_dodag_tx_status(tern_rpl_t *rpl, const uint8_t *l2addr, size_t l2len, int status, unsigned transmissions)
{
    (void)rpl, (void)l2addr, (void)l2len, (void)status, (void)transmissions;
}

#endif /* RPL_JOINS */

uint64_t rpl_dodag_next_deadline(const tern_rpl_t *rpl)
{
    uint64_t next = rpl_poisoning(rpl) ? rpl_poison_until(rpl) : RPL_NEVER;
#if RPL_JOINS
    if (rpl->preferred != NULL && rpl->probe_at_us < next) {
        next = rpl->probe_at_us;
    }
#endif
    return next;
}

void rpl_dodag_tick(tern_rpl_t *rpl, uint64_t now)
{
    if (rpl_poisoning(rpl) && now >= rpl_poison_until(rpl)) {
        detach(rpl); /* §8.2.2.5: poisoned long enough; look for a DODAG again */
    }
#if RPL_JOINS
    const tern_rpl_parent_t *p = rpl_dodag_preferred(rpl);
    if (p != NULL && rpl->probe_at_us <= now) {
        /* A silent parent is asked for a DIO; the frame's link ACK tells whether it is still there. */
        rpl->probe_at_us = now + (uint64_t)TERN_CONF_RPL_PROBE_INTERVAL_S * RPL_US_PER_S;
        rpl_dis_send_to(rpl, p->if_index, &p->addr);
    }
#endif
}
