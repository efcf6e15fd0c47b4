/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Objective functions: OF0 ranks worked out by hand from RFC 6552
 *        §4.1, its parent and backup choice (§4.2); MRHOF path cost, rank,
 *        hysteresis, metric limits and parent set (RFC 6719 §3, §5).
 *
 * The objective functions use no packet buffer; there is nothing to check
 * in teardown.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/rpl/of.h"

#define MHRI 256u
#define UNKNOWN TERN_RPL_LINK_ETX_UNKNOWN

static tern_rpl_of_params_t params;
static tern_rpl_of_selection_t sel;

static int setup(void **state)
{
    (void)state;
    tern_rpl_of_params_init(&params, MHRI, 7 * MHRI);
    memset(&sel, 0xA5, sizeof(sel));
    return 0;
}

static tern_rpl_candidate_t cand(uint16_t rank, uint16_t etx)
{
    tern_rpl_candidate_t c = { .rank = rank, .link_etx = etx, .reachable = true };
    return c;
}

/* RFC 6550 §8.2.1: every parent's DAGRank is below this node's. */
static void assert_parents_below(const tern_rpl_candidate_t *c)
{
    for (size_t i = 0; i < sel.count; i++) {
        assert_true(tern_rpl_dag_rank(c[sel.parents[i]].rank, MHRI) < tern_rpl_dag_rank(sel.rank, MHRI));
    }
}

static void test_tern_rpl_of_get__by_ocp(void **state)
{
    (void)state;
    assert_ptr_equal(tern_rpl_of_get(TERN_RPL_OCP_OF0), &tern_rpl_of0);
    assert_ptr_equal(tern_rpl_of_get(TERN_RPL_OCP_MRHOF), &tern_rpl_mrhof);
    assert_null(tern_rpl_of_get(2));
    assert_null(tern_rpl_of_get(0xFFFF));
    assert_int_equal(tern_rpl_of0.ocp, 0);
    assert_int_equal(tern_rpl_mrhof.ocp, 1);
    assert_string_equal(tern_rpl_of0.name, "OF0");
    assert_string_equal(tern_rpl_mrhof.name, "MRHOF");
}

static void test_tern_rpl_of_params_init__defaults_and_ranges(void **state)
{
    (void)state;
    assert_int_equal(params.min_hop_rank_increase, MHRI);
    assert_int_equal(params.max_rank_increase, 7 * MHRI);
    assert_int_equal(params.rank_limit, TERN_RPL_INFINITE_RANK);
    assert_int_equal(params.of0_step_of_rank, 3);
    assert_int_equal(params.of0_rank_factor, 1);
    assert_int_equal(params.of0_stretch_of_rank, 0);
    assert_int_equal(params.mrhof_max_link_metric, 512);
    assert_int_equal(params.mrhof_max_path_cost, 32768);
    assert_int_equal(params.mrhof_switch_threshold, 192);
    assert_int_equal(params.mrhof_parent_set_size, 3);
    assert_int_equal(tern_rpl_of_params_check(&params), 0);

    tern_rpl_candidate_t c = cand(MHRI, 128);
    static const struct {
        size_t offset;
        uint8_t value;
    } bad[] = {
        { offsetof(tern_rpl_of_params_t, of0_step_of_rank), 10 },
        { offsetof(tern_rpl_of_params_t, of0_rank_factor), 0 },
        { offsetof(tern_rpl_of_params_t, of0_rank_factor), 5 },
        { offsetof(tern_rpl_of_params_t, of0_stretch_of_rank), 6 },
        { offsetof(tern_rpl_of_params_t, mrhof_parent_set_size), 0 },
        { offsetof(tern_rpl_of_params_t, mrhof_parent_set_size), TERN_RPL_OF_PARENTS_MAX + 1 },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        tern_rpl_of_params_t p = params;
        ((uint8_t *)&p)[bad[i].offset] = bad[i].value;
        assert_int_equal(tern_rpl_of_params_check(&p), -EINVAL);
        assert_int_equal(tern_rpl_of0.select(&p, &c, 1, -1, &sel), -EINVAL);
        assert_int_equal(sel.count, 0);
        assert_int_equal(tern_rpl_mrhof.select(&p, &c, 1, -1, &sel), -EINVAL);
    }
    tern_rpl_of_params_t p = params;
    p.min_hop_rank_increase = 0;
    assert_int_equal(tern_rpl_of_params_check(&p), -EINVAL);
    p = params;
    p.of0_step_of_rank = 0; /* from ETX: valid */
    assert_int_equal(tern_rpl_of_params_check(&p), 0);
}

static void test_tern_rpl_of0_rank_via__rfc6552_worked_values(void **state)
{
    (void)state;
    /* Defaults: rank_increase = (1 x 3 + 0) x 256 = 768. Under the root
     * (ROOT_RANK = MinHopRankIncrease = 256) a node has 1024, DAGRank 4. */
    tern_rpl_candidate_t root = cand(MHRI, UNKNOWN);
    assert_int_equal(tern_rpl_of0.rank_via(&params, &root), 1024);
    tern_rpl_candidate_t hop1 = cand(1024, 128);
    assert_int_equal(tern_rpl_of0.rank_via(&params, &hop1), 1792);
    /* Rf 2, Sp 3, Sr 1: (2 x 3 + 1) x 256 = 1792. */
    params.of0_rank_factor = 2;
    params.of0_stretch_of_rank = 1;
    assert_int_equal(tern_rpl_of0.rank_via(&params, &root), 256 + 1792);
    /* The maxima: (4 x 9 + 5) x 256 = 10496. */
    params.of0_rank_factor = 4;
    params.of0_step_of_rank = 9;
    params.of0_stretch_of_rank = 5;
    assert_int_equal(tern_rpl_of0.rank_via(&params, &root), 256 + 10496);
    /* Saturation, infinite and unreachable parents. */
    tern_rpl_candidate_t deep = cand(60000, 128);
    assert_int_equal(tern_rpl_of0.rank_via(&params, &deep), TERN_RPL_INFINITE_RANK);
    tern_rpl_candidate_t poisoned = cand(TERN_RPL_INFINITE_RANK, 128);
    assert_int_equal(tern_rpl_of0.rank_via(&params, &poisoned), TERN_RPL_INFINITE_RANK);
    tern_rpl_candidate_t lost = cand(MHRI, 128);
    lost.reachable = false;
    assert_int_equal(tern_rpl_of0.rank_via(&params, &lost), TERN_RPL_INFINITE_RANK);
    /* MinHopRankIncrease 128 (Contiki-NG's choice): 128 + 3 x 128. */
    tern_rpl_of_params_init(&params, 128, 0);
    tern_rpl_candidate_t root128 = cand(128, UNKNOWN);
    assert_int_equal(tern_rpl_of0.rank_via(&params, &root128), 512);
}

static void test_tern_rpl_of0_step_of_rank__fixed_or_from_etx(void **state)
{
    (void)state;
    assert_int_equal(tern_rpl_of0_step_of_rank(&params, 1000), 3);
    params.of0_step_of_rank = 0;
    /* Sp = 3 x ETX - 2 within [1, 9]. */
    assert_int_equal(tern_rpl_of0_step_of_rank(&params, 128), 1); /* ETX 1 */
    assert_int_equal(tern_rpl_of0_step_of_rank(&params, 213), 3); /* ETX 5/3 */
    assert_int_equal(tern_rpl_of0_step_of_rank(&params, 256), 4); /* ETX 2 */
    assert_int_equal(tern_rpl_of0_step_of_rank(&params, 384), 7); /* ETX 3 */
    assert_int_equal(tern_rpl_of0_step_of_rank(&params, 512), 9); /* ETX 4: 10, clamped */
    assert_int_equal(tern_rpl_of0_step_of_rank(&params, 1), 1);
    assert_int_equal(tern_rpl_of0_step_of_rank(&params, UNKNOWN), 3);
    tern_rpl_candidate_t root = cand(MHRI, 384);
    assert_int_equal(tern_rpl_of0.rank_via(&params, &root), 256 + 7 * 256);
}

static void test_tern_rpl_of0_select__lowest_rank_then_backup(void **state)
{
    (void)state;
    tern_rpl_candidate_t c[] = { cand(1024, 128), cand(256, 128), cand(512, 128), cand(256, 128) };
    c[3].reachable = false;
    assert_int_equal(tern_rpl_of0.select(&params, c, 4, -1, &sel), 0);
    /* Through the root: 1024 (DAGRank 4). The unreachable root is ignored.
     * Backup: 512 (DAGRank 2 < 4, resulting 1280); 1024 has DAGRank 4,
     * not below this node's, so it cannot be a parent. */
    assert_int_equal(sel.rank, 1024);
    assert_int_equal(sel.count, 2);
    assert_int_equal(sel.parents[0], 1);
    assert_int_equal(sel.parents[1], 2);
    assert_parents_below(c);

    /* Only candidates at the same DAGRank as the result: no backup. */
    tern_rpl_candidate_t same[] = { cand(256, 128), cand(1024, 128) };
    assert_int_equal(tern_rpl_of0.select(&params, same, 2, -1, &sel), 0);
    assert_int_equal(sel.count, 1);
    assert_int_equal(sel.parents[0], 0);

    /* Nothing usable. */
    assert_int_equal(tern_rpl_of0.select(&params, c + 3, 1, -1, &sel), 0);
    assert_int_equal(sel.count, 0);
    assert_int_equal(sel.rank, TERN_RPL_INFINITE_RANK);
    assert_int_equal(tern_rpl_of0.select(&params, NULL, 0, -1, &sel), 0);
    assert_int_equal(sel.count, 0);
}

static void test_tern_rpl_of0_select__tie_keeps_current(void **state)
{
    (void)state;
    tern_rpl_candidate_t c[] = { cand(512, 128), cand(512, 384), cand(768, 128) };
    assert_int_equal(tern_rpl_of0.select(&params, c, 3, -1, &sel), 0);
    assert_int_equal(sel.parents[0], 0); /* first listed */
    assert_int_equal(tern_rpl_of0.select(&params, c, 3, 1, &sel), 0);
    assert_int_equal(sel.parents[0], 1); /* the current one */
    assert_int_equal(sel.parents[1], 0);
    assert_int_equal(sel.rank, 1280);
    /* A strictly better candidate wins over the current one. */
    c[2].rank = 256;
    assert_int_equal(tern_rpl_of0.select(&params, c, 3, 1, &sel), 0);
    assert_int_equal(sel.parents[0], 2);
    assert_int_equal(sel.rank, 1024);
    assert_parents_below(c);
}

static void test_tern_rpl_of0_select__rank_limit(void **state)
{
    (void)state;
    tern_rpl_candidate_t c[] = { cand(256, 128), cand(512, 128) };
    params.rank_limit = 1023; /* RFC 6550 §8.2.2.4: L + DAGMaxRankIncrease */
    assert_int_equal(tern_rpl_of0.select(&params, c, 2, -1, &sel), 0);
    assert_int_equal(sel.count, 0);
    params.rank_limit = 1024;
    assert_int_equal(tern_rpl_of0.select(&params, c, 2, -1, &sel), 0);
    assert_int_equal(sel.count, 1); /* the backup would have 1280 > limit */
    assert_int_equal(sel.parents[0], 0);
}

static void test_tern_rpl_mrhof_path_cost__etx_plus_rank(void **state)
{
    (void)state;
    tern_rpl_candidate_t root = cand(256, 192); /* ETX 1.5 */
    assert_int_equal(tern_rpl_mrhof_path_cost(&params, &root), 448);
    /* §3.3: Rank = Cost, but at least Rank(parent) + MinHopRankIncrease. */
    assert_int_equal(tern_rpl_mrhof.rank_via(&params, &root), 512);
    root.link_etx = 384; /* ETX 3 */
    assert_int_equal(tern_rpl_mrhof_path_cost(&params, &root), 640);
    assert_int_equal(tern_rpl_mrhof.rank_via(&params, &root), 640);
    /* §3.1: an unknown link metric costs MAX_PATH_COST. */
    root.link_etx = UNKNOWN;
    assert_int_equal(tern_rpl_mrhof_path_cost(&params, &root), 32768);
    assert_int_equal(tern_rpl_mrhof.rank_via(&params, &root), 32768);
    /* Saturation. */
    tern_rpl_candidate_t far = cand(65000, 1000);
    assert_int_equal(tern_rpl_mrhof_path_cost(&params, &far), 65535);
    assert_int_equal(tern_rpl_mrhof.rank_via(&params, &far), TERN_RPL_INFINITE_RANK);
}

static void test_tern_rpl_mrhof_select__switches_only_past_threshold(void **state)
{
    (void)state;
    /* Current parent costs 512 + 256 = 768; the other 449 + 128 = 577,
     * cheaper by 191 < PARENT_SWITCH_THRESHOLD (192): keep. */
    tern_rpl_candidate_t c[] = { cand(512, 256), cand(449, 128) };
    assert_int_equal(tern_rpl_mrhof.select(&params, c, 2, 0, &sel), 0);
    assert_int_equal(sel.parents[0], 0);
    assert_int_equal(sel.rank, 768);
    /* Cheaper by exactly 192: switch (§3.2.2). */
    c[1].rank = 448;
    assert_int_equal(tern_rpl_mrhof.select(&params, c, 2, 0, &sel), 0);
    assert_int_equal(sel.parents[0], 1);
    assert_int_equal(sel.rank, 704); /* max(576, 448 + 256) */
    /* Without a current parent, the cheapest. */
    c[1].rank = 449;
    assert_int_equal(tern_rpl_mrhof.select(&params, c, 2, -1, &sel), 0);
    assert_int_equal(sel.parents[0], 1);
    /* A current parent that became unusable is left at once. */
    c[0].reachable = false;
    c[1].rank = 600;
    assert_int_equal(tern_rpl_mrhof.select(&params, c, 2, 0, &sel), 0);
    assert_int_equal(sel.parents[0], 1);
    assert_int_equal(sel.count, 1);
    /* Equal costs: the current parent stays, otherwise the first listed. */
    tern_rpl_candidate_t tie[] = { cand(256, 256), cand(384, 128) };
    assert_int_equal(tern_rpl_mrhof.select(&params, tie, 2, 1, &sel), 0);
    assert_int_equal(sel.parents[0], 1);
    params.mrhof_switch_threshold = 0;
    assert_int_equal(tern_rpl_mrhof.select(&params, tie, 2, -1, &sel), 0);
    assert_int_equal(sel.parents[0], 0);
    assert_int_equal(tern_rpl_mrhof.select(&params, tie, 2, 1, &sel), 0);
    assert_int_equal(sel.parents[0], 1);
}

static void test_tern_rpl_mrhof_select__metric_limits(void **state)
{
    (void)state;
    /* §3.2.2: a link above MAX_LINK_METRIC is excluded, even to the root. */
    tern_rpl_candidate_t c[] = { cand(256, 513), cand(1024, 512) };
    assert_int_equal(tern_rpl_mrhof.select(&params, c, 2, -1, &sel), 0);
    assert_int_equal(sel.count, 1);
    assert_int_equal(sel.parents[0], 1);
    assert_int_equal(sel.rank, 1536);
    /* A path above MAX_PATH_COST is excluded; at it, allowed. */
    tern_rpl_candidate_t far[] = { cand(32641, 128) };
    assert_int_equal(tern_rpl_mrhof.select(&params, far, 1, -1, &sel), 0);
    assert_int_equal(sel.count, 0);
    assert_int_equal(sel.rank, TERN_RPL_INFINITE_RANK);
    far[0].rank = 32640;
    assert_int_equal(tern_rpl_mrhof.select(&params, far, 1, -1, &sel), 0);
    assert_int_equal(sel.count, 1);
    assert_int_equal(sel.rank, 32896); /* 32640 + MinHopRankIncrease */
    /* An unknown link metric is the last resort (cost MAX_PATH_COST). */
    tern_rpl_candidate_t unknown[] = { cand(256, UNKNOWN), cand(4000, 256) };
    assert_int_equal(tern_rpl_mrhof.select(&params, unknown, 2, -1, &sel), 0);
    assert_int_equal(sel.parents[0], 1);
    assert_int_equal(tern_rpl_mrhof.select(&params, unknown, 1, -1, &sel), 0);
    assert_int_equal(sel.parents[0], 0);
    assert_int_equal(sel.rank, 32768);
    /* The Rank limit (RFC 6550 §8.2.2.4). */
    params.rank_limit = 1535;
    assert_int_equal(tern_rpl_mrhof.select(&params, c, 2, -1, &sel), 0);
    assert_int_equal(sel.count, 0);
}

static void test_tern_rpl_mrhof_select__parent_set_never_raises_rank(void **state)
{
    (void)state;
    /* Costs: A 384, B 556, D 640, E 656. Rank through A: 512 (DAGRank 2).
     * B (rank 256) keeps it; D (rank 512) would raise it to 768 (§3.3 rule
     * 2), so the set ends there and E, although harmless, is not taken:
     * members never cost more than non-members (§3.2.2). */
    tern_rpl_candidate_t c[] = { cand(512, 128), cand(256, 400), cand(256, 300), cand(256, 128) };
    assert_int_equal(tern_rpl_mrhof.select(&params, c, 4, -1, &sel), 0);
    assert_int_equal(sel.rank, 512);
    assert_int_equal(sel.count, 2);
    assert_int_equal(sel.parents[0], 3);
    assert_int_equal(sel.parents[1], 2);
    assert_parents_below(c);

    /* DAGMaxRankIncrease 0: rule 3 makes the Rank at least that of the
     * costliest path in the set, so B (556 > 512) is left out too. */
    params.max_rank_increase = 0;
    assert_int_equal(tern_rpl_mrhof.select(&params, c, 4, -1, &sel), 0);
    assert_int_equal(sel.count, 1);
    assert_int_equal(sel.rank, 512);

    /* Three equally good parents fill PARENT_SET_SIZE; a fourth stays out. */
    params.max_rank_increase = 7 * MHRI;
    tern_rpl_candidate_t many[] = { cand(256, 128), cand(256, 130), cand(256, 129), cand(256, 131) };
    assert_int_equal(tern_rpl_mrhof.select(&params, many, 4, -1, &sel), 0);
    assert_int_equal(sel.count, TERN_RPL_OF_PARENTS_MAX);
    assert_int_equal(sel.parents[0], 0);
    assert_int_equal(sel.parents[1], 2);
    assert_int_equal(sel.parents[2], 1);
    params.mrhof_parent_set_size = 1;
    assert_int_equal(tern_rpl_mrhof.select(&params, many, 4, -1, &sel), 0);
    assert_int_equal(sel.count, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_tern_rpl_of_get__by_ocp, setup),
        cmocka_unit_test_setup(test_tern_rpl_of_params_init__defaults_and_ranges, setup),
        cmocka_unit_test_setup(test_tern_rpl_of0_rank_via__rfc6552_worked_values, setup),
        cmocka_unit_test_setup(test_tern_rpl_of0_step_of_rank__fixed_or_from_etx, setup),
        cmocka_unit_test_setup(test_tern_rpl_of0_select__lowest_rank_then_backup, setup),
        cmocka_unit_test_setup(test_tern_rpl_of0_select__tie_keeps_current, setup),
        cmocka_unit_test_setup(test_tern_rpl_of0_select__rank_limit, setup),
        cmocka_unit_test_setup(test_tern_rpl_mrhof_path_cost__etx_plus_rank, setup),
        cmocka_unit_test_setup(test_tern_rpl_mrhof_select__switches_only_past_threshold, setup),
        cmocka_unit_test_setup(test_tern_rpl_mrhof_select__metric_limits, setup),
        cmocka_unit_test_setup(test_tern_rpl_mrhof_select__parent_set_never_raises_rank, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
