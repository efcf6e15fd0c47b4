/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Minimum Rank with Hysteresis Objective Function (RFC 6719)
 *        with the ETX metric and no Metric Container.
 *
 * Path cost through a neighbor (§3.1): the link's ETX plus, since ETX is the
 * metric and DIOs carry no Metric Container (§3.5: without one MRHOF uses
 * ETX and adds the link's ETX to the neighbor's advertised Rank), the Rank
 * the neighbor advertises. Preferred parent (§3.2.2): the lowest path cost, leaving out
 * links whose ETX exceeds MAX_LINK_METRIC and paths costing more than
 * MAX_PATH_COST; the current preferred parent stays unless another is
 * cheaper by at least PARENT_SWITCH_THRESHOLD. Parent set (§3.2.2): up to
 * PARENT_SET_SIZE members, cheapest first, stopping before a member that
 * would raise this node's Rank. Rank (§3.3): for ETX the Rank of a path is
 * its cost, at least the neighbor's Rank + MinHopRankIncrease; this node's
 * Rank is the maximum of (1) the Rank through the preferred parent, (2) the
 * highest advertised Rank in the parent set rounded up to the next
 * integral Rank, and (3) the highest Rank through the parent set minus
 * DAGMaxRankIncrease.
 */
#include <errno.h>

#include "tern/rpl/of.h"

uint16_t tern_rpl_mrhof_path_cost(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidate)
{
    /* §3.1: "If the selected metric is a link metric and the metric of the
     * link to a neighbor is not available, the path cost for the path
     * through that neighbor SHOULD be set to MAX_PATH_COST." */
    if (candidate->link_etx == TERN_RPL_LINK_ETX_UNKNOWN) {
        return params->mrhof_max_path_cost;
    }
    uint32_t cost = (uint32_t)candidate->link_etx + candidate->rank;
    return (uint16_t)(cost > UINT16_MAX ? UINT16_MAX : cost);
}

static uint16_t mrhof_rank_via(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidate)
{
    if (!candidate->reachable || candidate->rank == TERN_RPL_INFINITE_RANK) {
        return TERN_RPL_INFINITE_RANK;
    }
    /* §3.2.2: links above MAX_LINK_METRIC are excluded from parent selection. */
    if (candidate->link_etx != TERN_RPL_LINK_ETX_UNKNOWN && candidate->link_etx > params->mrhof_max_link_metric) {
        return TERN_RPL_INFINITE_RANK;
    }
    uint16_t cost = tern_rpl_mrhof_path_cost(params, candidate);
    if (cost > params->mrhof_max_path_cost) {
        return TERN_RPL_INFINITE_RANK;
    }
    /* §3.3: Rank = Cost for ETX, and at least the neighbor's Rank + MinHopRankIncrease. */
    uint32_t rank = (uint32_t)candidate->rank + params->min_hop_rank_increase;
    if (cost > rank) {
        rank = cost;
    }
    return (uint16_t)(rank >= TERN_RPL_INFINITE_RANK ? TERN_RPL_INFINITE_RANK : rank);
}

/* §3.3: this node's Rank with parent set @p set (preferred first). */
static uint16_t set_rank(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidates,
                         const uint16_t *set, size_t count)
{
    uint32_t mhri = params->min_hop_rank_increase;
    uint32_t rank = mrhof_rank_via(params, &candidates[set[0]]);
    for (size_t i = 0; i < count; i++) {
        const tern_rpl_candidate_t *c = &candidates[set[i]];
        uint32_t rounded = mhri * (1u + c->rank / mhri);
        uint32_t via = mrhof_rank_via(params, c);
        uint32_t lowered = (via > params->max_rank_increase) ? via - params->max_rank_increase : 0;
        if (rounded > rank) {
            rank = rounded;
        }
        if (lowered > rank) {
            rank = lowered;
        }
    }
    return (uint16_t)(rank >= TERN_RPL_INFINITE_RANK ? TERN_RPL_INFINITE_RANK : rank);
}

static bool usable(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidate)
{
    uint16_t rank = mrhof_rank_via(params, candidate);
    return rank != TERN_RPL_INFINITE_RANK && rank <= params->rank_limit;
}

static bool in_set(const tern_rpl_of_selection_t *out, size_t i)
{
    for (size_t j = 0; j < out->count; j++) {
        if (out->parents[j] == i) {
            return true;
        }
    }
    return false;
}

static int mrhof_select(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidates,
                        size_t count, int current, tern_rpl_of_selection_t *out)
{
    out->count = 0;
    out->rank = TERN_RPL_INFINITE_RANK;
    if (tern_rpl_of_params_check(params) != 0 || count > UINT16_MAX) {
        return -EINVAL;
    }
    size_t best = count;
    uint16_t best_cost = 0;
    for (size_t i = 0; i < count; i++) {
        if (!usable(params, &candidates[i])) {
            continue;
        }
        uint16_t cost = tern_rpl_mrhof_path_cost(params, &candidates[i]);
        if (best == count || cost < best_cost || (cost == best_cost && (int)i == current)) {
            best = i;
            best_cost = cost;
        }
    }
    if (best == count) {
        return 0;
    }
    /* §3.2.2: "If the smallest path cost for paths through the candidate
     * neighbors is smaller than cur_min_path_cost by less than
     * PARENT_SWITCH_THRESHOLD, the node MAY continue to use the current
     * preferred parent." Tern does. */
    if (current >= 0 && (size_t)current < count && (size_t)current != best &&
        usable(params, &candidates[current])) {
        uint32_t current_cost = tern_rpl_mrhof_path_cost(params, &candidates[current]);
        if (current_cost < (uint32_t)best_cost + params->mrhof_switch_threshold) {
            best = (size_t)current;
        }
    }
    out->parents[out->count++] = (uint16_t)best;
    out->rank = set_rank(params, candidates, out->parents, out->count);

    /* §3.2.2: further members, cheapest first; a member that would raise
     * the Rank ends the set (so every member outside costs at least as
     * much as every member inside). */
    while (out->count < params->mrhof_parent_set_size) {
        size_t next = count;
        uint16_t next_cost = 0;
        for (size_t i = 0; i < count; i++) {
            if (in_set(out, i) || !usable(params, &candidates[i])) {
                continue;
            }
            uint16_t cost = tern_rpl_mrhof_path_cost(params, &candidates[i]);
            if (next == count || cost < next_cost) {
                next = i;
                next_cost = cost;
            }
        }
        if (next == count) {
            break;
        }
        out->parents[out->count] = (uint16_t)next;
        if (set_rank(params, candidates, out->parents, out->count + 1u) != out->rank) {
            break;
        }
        out->count++;
    }
    return 0;
}

const tern_rpl_of_t tern_rpl_mrhof = {
    .ocp = TERN_RPL_OCP_MRHOF,
    .name = "MRHOF",
    .rank_via = mrhof_rank_via,
    .select = mrhof_select,
};
