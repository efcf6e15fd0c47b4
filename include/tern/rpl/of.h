/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief RPL objective functions: OF0 (RFC 6552) and MRHOF with ETX (RFC
 *        6719), behind one interface selected by the Objective Code Point.
 *
 * Read first: RFC 6550 §3.5 (Rank and DAGRank), §8.2.1 (parent set),
 * §8.2.2.4 (Rank limits within a DODAG Version), §14 (what an objective
 * function does); RFC 6552 §4 (OF0 rank and parent selection), §6 (its
 * constants); RFC 6719 §3 (MRHOF path cost, parent selection, rank) and §5
 * (its constants).
 *
 * Pure logic: an objective function reads a list of candidate neighbors of
 * one DODAG Version (what each advertised, the ETX of the link to it) and
 * says which of them become the preferred parent and the rest of the parent
 * set, and the Rank this node then advertises. Choosing between DODAGs or
 * DODAG Versions (administrative preference, Grounded, version numbers) and
 * the Rank limit L + DAGMaxRankIncrease are the RPL module's: it passes the
 * candidates of the DODAG Version it is in and the limit in
 * tern_rpl_of_params_t::rank_limit.
 */
#ifndef TERN_RPL_OF_H
#define TERN_RPL_OF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"

/* RFC 6550 §17 constants; tern/wire/rpl.h defines the same (identically). */
#ifndef TERN_RPL_INFINITE_RANK
/** INFINITE_RANK (RFC 6550 §17): no path, or a poisoned one. */
#define TERN_RPL_INFINITE_RANK 0xFFFFu
#endif
#ifndef TERN_RPL_DEFAULT_MIN_HOP_RANK_INCREASE
/** DEFAULT_MIN_HOP_RANK_INCREASE (RFC 6550 §17). ROOT_RANK is MinHopRankIncrease. */
#define TERN_RPL_DEFAULT_MIN_HOP_RANK_INCREASE 256u
#endif

/** Objective Code Points (IANA "Objective Code Point" registry: RFC 6552, RFC 6719). */
#define TERN_RPL_OCP_OF0 0u
#define TERN_RPL_OCP_MRHOF 1u

/** OF0 ranges (RFC 6552 §6). */
#define TERN_RPL_OF0_DEFAULT_STEP_OF_RANK 3u
#define TERN_RPL_OF0_MINIMUM_STEP_OF_RANK 1u
#define TERN_RPL_OF0_MAXIMUM_STEP_OF_RANK 9u
#define TERN_RPL_OF0_MINIMUM_RANK_FACTOR 1u
#define TERN_RPL_OF0_MAXIMUM_RANK_FACTOR 4u
#define TERN_RPL_OF0_MAXIMUM_RANK_STRETCH 5u

/** Link ETX "not known": a candidate carrying it has no link metric (RFC 6719 §3.1). */
#define TERN_RPL_LINK_ETX_UNKNOWN 0u

/** Most parents one selection returns (preferred first). */
#define TERN_RPL_OF_PARENTS_MAX TERN_CONF_RPL_PARENT_SET_SIZE

/** DAGRank(rank) = floor(rank / MinHopRankIncrease) (RFC 6550 §3.5.1). */
static inline uint16_t tern_rpl_dag_rank(uint16_t rank, uint16_t min_hop_rank_increase)
{
    return (uint16_t)(rank / min_hop_rank_increase);
}

/** One candidate neighbor, as the RPL module knows it. */
typedef struct {
    uint16_t rank;     /**< Rank in its latest DIO of this DODAG Version */
    uint16_t link_etx; /**< ETX of the link to it x 128 (etx.h), or TERN_RPL_LINK_ETX_UNKNOWN */
    bool reachable;    /**< false: known unreachable (NUD failed, link lost); never selected */
} tern_rpl_candidate_t;

/**
 * What a selection works with: the DODAG Configuration's values, the Rank
 * limit and each objective function's own parameters. Fill with
 * tern_rpl_of_params_init() (the defaults of config.h), then change fields.
 */
typedef struct {
    uint16_t min_hop_rank_increase;   /**< MinHopRankIncrease (DODAG Configuration, RFC 6550 §6.7.6), > 0 */
    uint16_t max_rank_increase;       /**< DAGMaxRankIncrease (idem): MRHOF rank rule 3 */
    uint16_t rank_limit;              /**< highest Rank the node may take: L + DAGMaxRankIncrease
                                           (RFC 6550 §8.2.2.4), or TERN_RPL_INFINITE_RANK */
    uint8_t of0_step_of_rank;         /**< OF0 Sp, 1..9; 0: derived from the link ETX */
    uint8_t of0_rank_factor;          /**< OF0 Rf, 1..4 */
    uint8_t of0_stretch_of_rank;      /**< OF0 Sr, 0..5 */
    uint8_t mrhof_parent_set_size;    /**< MRHOF PARENT_SET_SIZE, 1..TERN_RPL_OF_PARENTS_MAX */
    uint16_t mrhof_max_link_metric;   /**< MRHOF MAX_LINK_METRIC (ETX x 128) */
    uint16_t mrhof_max_path_cost;     /**< MRHOF MAX_PATH_COST */
    uint16_t mrhof_switch_threshold;  /**< MRHOF PARENT_SWITCH_THRESHOLD */
} tern_rpl_of_params_t;

/** The outcome of a parent selection. */
typedef struct {
    uint16_t parents[TERN_RPL_OF_PARENTS_MAX]; /**< candidate indices: preferred parent first,
                                                    then the backup(s), best first */
    uint8_t count;                             /**< entries of @ref parents; 0: no parent */
    uint16_t rank;                             /**< Rank to advertise; TERN_RPL_INFINITE_RANK
                                                    when there is no parent */
} tern_rpl_of_selection_t;

/** An objective function. */
typedef struct {
    uint16_t ocp;     /**< its Objective Code Point */
    const char *name; /**< "OF0", "MRHOF" */
    /**
     * Rank this node would have with @p candidate as its preferred parent and
     * only parent: TERN_RPL_INFINITE_RANK if the candidate is unusable
     * (unreachable, infinite Rank, beyond this function's limits; the
     * rank_limit is not applied here).
     */
    uint16_t (*rank_via)(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidate);
    /**
     * Select the parent set among @p candidates (@p count of them; ties go to
     * the lower index, so the owner lists fresher candidates first, RFC 6552
     * §4.2.1's last criterion). @p current is the index of the present
     * preferred parent, or -1: it is kept on ties and, for MRHOF, while no
     * other is better by PARENT_SWITCH_THRESHOLD. Candidates whose resulting
     * Rank exceeds rank_limit are not selected. Every parent in the set has
     * a DAGRank below the DAGRank of the returned Rank (RFC 6550 §8.2.1).
     * @return 0 (out->count may be 0: no usable candidate); -EINVAL for
     *         invalid @p params or more than UINT16_MAX candidates
     */
    int (*select)(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidates, size_t count,
                  int current, tern_rpl_of_selection_t *out);
} tern_rpl_of_t;

/** OF0 (RFC 6552), OCP 0. */
extern const tern_rpl_of_t tern_rpl_of0;
/** MRHOF with the ETX metric and no Metric Container (RFC 6719), OCP 1. */
extern const tern_rpl_of_t tern_rpl_mrhof;

/**
 * The objective function of a DODAG Configuration's OCP (RFC 6550 §6.7.6).
 * @return the function; NULL for an OCP Tern does not implement (the node
 *         may join as a leaf only, RFC 6550 §8.5)
 */
const tern_rpl_of_t *tern_rpl_of_get(uint16_t ocp);

/**
 * Parameters with the defaults of config.h and @p min_hop_rank_increase,
 * DAGMaxRankIncrease @p max_rank_increase and no Rank limit.
 */
void tern_rpl_of_params_init(tern_rpl_of_params_t *params, uint16_t min_hop_rank_increase,
                             uint16_t max_rank_increase);

/**
 * Check @p params against the ranges of RFC 6552 §6 and RFC 6719 §5.
 * @return 0; -EINVAL if a field is out of range
 */
int tern_rpl_of_params_check(const tern_rpl_of_params_t *params);

/**
 * OF0 step_of_rank for a link: the configured Sp, or, when it is 0, one
 * derived from the link ETX: Sp = 3 x ETX - 2 rounded, within [1, 9] (ETX 1
 * gives the minimum 1; the RFC's default 3 is ETX 5/3). RFC 6552 §4.1 leaves
 * the mapping to the implementation. An unknown ETX gives
 * DEFAULT_STEP_OF_RANK.
 */
uint8_t tern_rpl_of0_step_of_rank(const tern_rpl_of_params_t *params, uint16_t link_etx);

/**
 * MRHOF path cost through @p candidate (RFC 6719 §3.1, §3.5): the link ETX
 * plus, with no Metric Container, the Rank the candidate advertises; MAX_PATH_COST
 * when the link metric is unknown. Saturates at 0xFFFF.
 */
uint16_t tern_rpl_mrhof_path_cost(const tern_rpl_of_params_t *params, const tern_rpl_candidate_t *candidate);

#endif /* TERN_RPL_OF_H */
