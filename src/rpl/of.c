/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Objective functions: lookup by Objective Code Point, parameters.
 */
#include <errno.h>

#include "tern/rpl/of.h"

const tern_rpl_of_t *tern_rpl_of_get(uint16_t ocp)
{
    /* Only the objective functions built (TERN_CONF_RPL_OF0, _MRHOF; config.h):
     * another OCP is unsupported (RFC 6550 §18.5). */
    switch (ocp) {
#if TERN_CONF_RPL_OF0
    case TERN_RPL_OCP_OF0:
        return &tern_rpl_of0;
#endif
#if TERN_CONF_RPL_MRHOF
    case TERN_RPL_OCP_MRHOF:
        return &tern_rpl_mrhof;
#endif
    default:
        return NULL;
    }
}

void tern_rpl_of_params_init(tern_rpl_of_params_t *params, uint16_t min_hop_rank_increase,
                             uint16_t max_rank_increase)
{
    params->min_hop_rank_increase = min_hop_rank_increase;
    params->max_rank_increase = max_rank_increase;
    params->rank_limit = TERN_RPL_INFINITE_RANK;
    params->of0_step_of_rank = TERN_CONF_RPL_OF0_STEP_OF_RANK;
    params->of0_rank_factor = TERN_CONF_RPL_OF0_RANK_FACTOR;
    params->of0_stretch_of_rank = TERN_CONF_RPL_OF0_STRETCH_OF_RANK;
    params->mrhof_parent_set_size = TERN_CONF_RPL_PARENT_SET_SIZE;
    params->mrhof_max_link_metric = TERN_CONF_RPL_MRHOF_MAX_LINK_METRIC;
    params->mrhof_max_path_cost = TERN_CONF_RPL_MRHOF_MAX_PATH_COST;
    params->mrhof_switch_threshold = TERN_CONF_RPL_MRHOF_PARENT_SWITCH_THRESHOLD;
}

int tern_rpl_of_params_check(const tern_rpl_of_params_t *params)
{
    if (params->min_hop_rank_increase == 0) {
        return -EINVAL;
    }
    /* RFC 6552 §6: MINIMUM/MAXIMUM_STEP_OF_RANK, _RANK_FACTOR, MAXIMUM_RANK_STRETCH. */
    if (params->of0_step_of_rank != 0 && (params->of0_step_of_rank < TERN_RPL_OF0_MINIMUM_STEP_OF_RANK ||
                                          params->of0_step_of_rank > TERN_RPL_OF0_MAXIMUM_STEP_OF_RANK)) {
        return -EINVAL;
    }
    if (params->of0_rank_factor < TERN_RPL_OF0_MINIMUM_RANK_FACTOR ||
        params->of0_rank_factor > TERN_RPL_OF0_MAXIMUM_RANK_FACTOR ||
        params->of0_stretch_of_rank > TERN_RPL_OF0_MAXIMUM_RANK_STRETCH) {
        return -EINVAL;
    }
    if (params->mrhof_parent_set_size < 1 || params->mrhof_parent_set_size > TERN_RPL_OF_PARENTS_MAX) {
        return -EINVAL;
    }
    return 0;
}
