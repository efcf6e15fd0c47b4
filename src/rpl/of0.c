/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Objective Function Zero (RFC 6552).
 *
 * Rank through a parent P (§4.1): R(N) = R(P) + rank_increase, with
 * rank_increase = (Rf * Sp + Sr) * MinHopRankIncrease. Preferred parent
 * (§4.2.1, the criteria that apply within one DODAG Version): reachable, the
 * lowest resulting Rank, the current preferred parent on a tie, then the
 * candidate the owner listed first. Backup feasible successor (§4.2.2): the
 * next best by the same order among candidates whose DAGRank is lower than
 * this node's, so that it can never be a child (RFC 6550 §8.2.1).
 */
#include <errno.h>

#include "tern/rpl/of.h"

uint8_t tern_rpl_of0_step_of_rank(const tern_rpl_of_params_t *params, uint16_t link_etx)
{
    if (params->of0_step_of_rank != 0) {
        return params->of0_step_of_rank;
    }
    if (link_etx == TERN_RPL_LINK_ETX_UNKNOWN) {
        return TERN_RPL_OF0_DEFAULT_STEP_OF_RANK;
    }
    /* Sp = 3 x ETX - 2, rounded to the nearest integer (ETX is x 128). */
    int32_t step = (int32_t)((3u * (uint32_t)link_etx + 64u) / 128u) - 2;
    if (step < (int32_t)TERN_RPL_OF0_MINIMUM_STEP_OF_RANK) {
        return TERN_RPL_OF0_MINIMUM_STEP_OF_RANK;
    }
    if (step > (int32_t)TERN_RPL_OF0_MAXIMUM_STEP_OF_RANK) {
        return TERN_RPL_OF0_MAXIMUM_STEP_OF_RANK;
    }
    return (uint8_t)step;
}

static uint16_t of0_rank_via(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidate)
{
    if (!candidate->reachable || candidate->rank == TERN_RPL_INFINITE_RANK) {
        return TERN_RPL_INFINITE_RANK;
    }
    uint32_t step = tern_rpl_of0_step_of_rank(params, candidate->link_etx);
    uint32_t increase = (params->of0_rank_factor * step + params->of0_stretch_of_rank) *
                        (uint32_t)params->min_hop_rank_increase;
    uint32_t rank = candidate->rank + increase;
    return (uint16_t)(rank >= TERN_RPL_INFINITE_RANK ? TERN_RPL_INFINITE_RANK : rank);
}

/* The resulting Rank through @p candidate if it may be a parent at all, else INFINITE. */
static uint16_t usable_rank(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidate)
{
    uint16_t rank = of0_rank_via(params, candidate);
    return (rank > params->rank_limit) ? TERN_RPL_INFINITE_RANK : rank;
}

static int of0_select(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidates, size_t count,
                      int current, tern_rpl_of_selection_t *out)
{
    out->count = 0;
    out->rank = TERN_RPL_INFINITE_RANK;
    if (tern_rpl_of_params_check(params) != 0 || count > UINT16_MAX) {
        return -EINVAL;
    }
    size_t best = count;
    uint16_t best_rank = TERN_RPL_INFINITE_RANK;
    for (size_t i = 0; i < count; i++) {
        uint16_t rank = usable_rank(params, &candidates[i]);
        if (rank == TERN_RPL_INFINITE_RANK) {
            continue;
        }
        /* §4.2.1: the lesser resulting Rank; on a tie keep the current preferred parent. */
        if (rank < best_rank || (rank == best_rank && (int)i == current)) {
            best = i;
            best_rank = rank;
        }
    }
    if (best == count) {
        return 0;
    }
    out->parents[out->count++] = (uint16_t)best;
    out->rank = best_rank;

    uint16_t own_dag_rank = tern_rpl_dag_rank(best_rank, params->min_hop_rank_increase);
    size_t backup = count;
    uint16_t backup_rank = TERN_RPL_INFINITE_RANK;
    for (size_t i = 0; i < count && out->count < TERN_RPL_OF_PARENTS_MAX; i++) {
        uint16_t rank = usable_rank(params, &candidates[i]);
        if (i == best || rank == TERN_RPL_INFINITE_RANK ||
            tern_rpl_dag_rank(candidates[i].rank, params->min_hop_rank_increase) >= own_dag_rank) {
            continue;
        }
        if (rank < backup_rank) {
            backup = i;
            backup_rank = rank;
        }
    }
    if (backup != count) {
        out->parents[out->count++] = (uint16_t)backup;
    }
    return 0;
}

const tern_rpl_of_t tern_rpl_of0 = {
    .ocp = TERN_RPL_OCP_OF0,
    .name = "OF0",
    .rank_via = of0_rank_via,
    .select = of0_select,
};
