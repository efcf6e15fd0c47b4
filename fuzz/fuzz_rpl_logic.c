/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz RPL's pure logic with event sequences: a Trickle timer (time
 *        passing, consistent and inconsistent transmissions, resets,
 *        start/stop), a link ETX table (frame outcomes to more neighbors than
 *        it holds) and parent selections by OF0 and MRHOF over candidates
 *        whose link ETX comes from that table.
 *
 * Invariants checked after every event:
 * - Trickle: Imin <= I <= Imax; the transmission point lies in
 *   [start + I/2, start + I); after a run the next deadline is in the future.
 * - ETX: every estimate within [ETX_MIN, ETX_MAX]; no neighbor twice.
 * - OF: the parents are distinct usable candidates, each with a DAGRank
 *   below this node's (RFC 6550 §8.2.1); the Rank is within the limit; OF0's
 *   preferred parent gives the lowest Rank; MRHOF's is the cheapest or the
 *   current one within PARENT_SWITCH_THRESHOLD of the cheapest.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/rpl/etx.h"
#include "tern/rpl/of.h"
#include "tern/rpl/trickle.h"

#define CANDIDATES 8
#define NEIGHBORS (TERN_CONF_RPL_ETX_NEIGHBORS + 4) /* more than the table holds */

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
} input_t;

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static uint8_t take8(input_t *in)
{
    return (in->pos < in->size) ? in->data[in->pos++] : 0;
}

static uint16_t take16(input_t *in)
{
    uint16_t hi = take8(in);
    return (uint16_t)((hi << 8) | take8(in));
}

static uint32_t xorshift(void *ctx)
{
    uint32_t *s = ctx;
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void check_trickle(const tern_trickle_t *t)
{
    if (!t->running) {
        require(tern_trickle_next_deadline(t) == UINT64_MAX);
        return;
    }
    uint64_t imin = t->config.imin_us;
    require(t->interval_us >= imin && t->interval_us <= tern_trickle_imax_us(&t->config));
    require(t->t_us >= t->start_us + t->interval_us / 2 && t->t_us < t->start_us + t->interval_us);
    require(t->start_us <= t->t_us);
}

static void check_etx(const tern_rpl_etx_t *etx)
{
    for (size_t i = 0; i < TERN_CONF_RPL_ETX_NEIGHBORS; i++) {
        const tern_rpl_etx_entry_t *e = &etx->entries[i];
        if (e->l2addr_len == 0) {
            continue;
        }
        require(e->etx >= TERN_RPL_ETX_MIN && e->etx <= TERN_RPL_ETX_MAX);
        require(e->samples >= 1);
        for (size_t j = i + 1; j < TERN_CONF_RPL_ETX_NEIGHBORS; j++) {
            const tern_rpl_etx_entry_t *f = &etx->entries[j];
            require(!(f->l2addr_len == e->l2addr_len && memcmp(f->l2addr, e->l2addr, e->l2addr_len) == 0));
        }
    }
}

static void check_selection(const tern_rpl_of_t *of, const tern_rpl_of_params_t *p, const tern_rpl_candidate_t *c,
                            size_t n, int current, const tern_rpl_of_selection_t *sel)
{
    require(sel->count <= TERN_RPL_OF_PARENTS_MAX);
    if (sel->count == 0) {
        require(sel->rank == TERN_RPL_INFINITE_RANK);
        for (size_t i = 0; i < n; i++) {
            uint16_t r = of->rank_via(p, &c[i]);
            require(r == TERN_RPL_INFINITE_RANK || r > p->rank_limit);
        }
        return;
    }
    require(sel->rank != TERN_RPL_INFINITE_RANK && sel->rank <= p->rank_limit);
    uint16_t own_dag_rank = tern_rpl_dag_rank(sel->rank, p->min_hop_rank_increase);
    for (size_t i = 0; i < sel->count; i++) {
        uint16_t k = sel->parents[i];
        require(k < n);
        require(c[k].reachable);
        uint16_t via = of->rank_via(p, &c[k]);
        require(via != TERN_RPL_INFINITE_RANK && via <= p->rank_limit);
        require(tern_rpl_dag_rank(c[k].rank, p->min_hop_rank_increase) < own_dag_rank);
        for (size_t j = 0; j < i; j++) {
            require(sel->parents[j] != k);
        }
    }
    const tern_rpl_candidate_t *pref = &c[sel->parents[0]];
    require(of->rank_via(p, pref) == sel->rank);
    for (size_t i = 0; i < n; i++) {
        uint16_t via = of->rank_via(p, &c[i]);
        if (via == TERN_RPL_INFINITE_RANK || via > p->rank_limit) {
            continue;
        }
        if (of == &tern_rpl_of0) {
            require(sel->rank <= via);
        } else {
            uint32_t pref_cost = tern_rpl_mrhof_path_cost(p, pref);
            uint32_t cost = tern_rpl_mrhof_path_cost(p, &c[i]);
            require(pref_cost <= cost ||
                    ((int)sel->parents[0] == current && pref_cost < cost + p->mrhof_switch_threshold));
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input_t in = { data, size, 0 };
    static tern_trickle_t trickle;
    static tern_rpl_etx_t etx;
    tern_rpl_candidate_t cand[CANDIDATES];
    uint8_t cand_neighbor[CANDIDATES];
    uint32_t seed = ((uint32_t)take16(&in) << 16) | take16(&in);
    if (seed == 0) {
        seed = 1;
    }

    /* Small Imin and few doublings keep intervals short enough for the input to cross many. */
    tern_trickle_config_t config = { .imin_us = 1u + take16(&in), .doublings = (uint8_t)(take8(&in) % 17u),
                                     .k = (uint8_t)(take8(&in) % 6u) };
    require(tern_trickle_init(&trickle, &config, xorshift, &seed) == 0);
    tern_rpl_etx_init(&etx);
    memset(cand, 0, sizeof(cand));
    memset(cand_neighbor, 0, sizeof(cand_neighbor));
    uint64_t now = 0;
    int current = -1;

    while (in.pos < in.size) {
        uint8_t op = take8(&in);
        switch (op % 8u) {
        case 0: { /* time passes; the owner runs at or after the deadline */
            uint64_t step = (uint64_t)take16(&in) << (take8(&in) % 24u);
            uint64_t before = tern_trickle_next_deadline(&trickle);
            now += step;
            uint32_t sent = trickle.counters[TERN_TRICKLE_TRANSMITTED];
            bool tx = tern_trickle_run(&trickle, now);
            require(tx == (trickle.counters[TERN_TRICKLE_TRANSMITTED] == sent + 1));
            require(!tx || before <= now);
            require(tern_trickle_next_deadline(&trickle) > now);
            require(!trickle.running || (trickle.start_us <= now && trickle.t_passed == (now >= trickle.t_us)));
            break;
        }
        case 1:
            tern_trickle_consistent(&trickle);
            break;
        case 2: {
            bool was_min = trickle.running && trickle.interval_us == trickle.config.imin_us;
            bool reset = tern_trickle_inconsistent(&trickle, now);
            require(reset == !was_min);
            require(trickle.interval_us == trickle.config.imin_us);
            break;
        }
        case 3:
            tern_trickle_reset(&trickle, now);
            require(trickle.start_us == now && trickle.counter == 0);
            break;
        case 4:
            if (op & 0x80u) {
                tern_trickle_stop(&trickle);
            } else {
                tern_trickle_start(&trickle, now);
            }
            break;
        case 5: { /* a frame's outcome */
            uint8_t addr[2] = { 0xAA, (uint8_t)(take8(&in) % NEIGHBORS) };
            uint8_t kind = take8(&in);
            int status = (kind % 3u == 0) ? 0 : (kind % 3u == 1) ? -EHOSTUNREACH : -EBUSY;
            int res = tern_rpl_etx_update(&etx, addr, sizeof(addr), status, take8(&in));
            require(status == -EBUSY ? res == 0 : (res >= (int)TERN_RPL_ETX_MIN && res <= (int)TERN_RPL_ETX_MAX));
            require(status == -EBUSY || tern_rpl_etx_get(&etx, addr, sizeof(addr)) == (uint16_t)res);
            break;
        }
        case 6: { /* a candidate's DIO */
            uint8_t i = (uint8_t)(take8(&in) % CANDIDATES);
            cand[i].rank = take16(&in);
            uint8_t flags = take8(&in);
            cand[i].reachable = (flags & 1u) == 0;
            cand_neighbor[i] = (uint8_t)((flags >> 1) % (NEIGHBORS + 1)); /* NEIGHBORS: no metric */
            break;
        }
        default: { /* a parent selection */
            uint8_t flags = take8(&in);
            tern_rpl_of_params_t p;
            tern_rpl_of_params_init(&p, (uint16_t)(1u + (take16(&in) % 1024u)), take16(&in));
            p.rank_limit = (flags & 1u) ? take16(&in) : TERN_RPL_INFINITE_RANK;
            p.of0_step_of_rank = (uint8_t)(take8(&in) % 10u);
            p.of0_rank_factor = (uint8_t)(1u + take8(&in) % 4u);
            p.of0_stretch_of_rank = (uint8_t)(take8(&in) % 6u);
            p.mrhof_parent_set_size = (uint8_t)(1u + take8(&in) % TERN_RPL_OF_PARENTS_MAX);
            if (flags & 2u) {
                p.mrhof_switch_threshold = take16(&in);
                p.mrhof_max_link_metric = take16(&in);
                p.mrhof_max_path_cost = take16(&in);
            }
            require(tern_rpl_of_params_check(&p) == 0);
            size_t n = (size_t)(take8(&in) % (CANDIDATES + 1u));
            for (size_t i = 0; i < n; i++) {
                uint8_t addr[2] = { 0xAA, cand_neighbor[i] };
                cand[i].link_etx = (cand_neighbor[i] == NEIGHBORS) ? TERN_RPL_LINK_ETX_UNKNOWN
                                                                   : tern_rpl_etx_get(&etx, addr, sizeof(addr));
            }
            const tern_rpl_of_t *of = tern_rpl_of_get((flags & 4u) ? TERN_RPL_OCP_MRHOF : TERN_RPL_OCP_OF0);
            require(of != NULL);
            tern_rpl_of_selection_t sel;
            int cur = (current < (int)n) ? current : -1;
            require(of->select(&p, cand, n, cur, &sel) == 0);
            check_selection(of, &p, cand, n, cur, &sel);
            current = (sel.count > 0) ? sel.parents[0] : -1;
            /* Invalid parameters are refused. */
            p.of0_rank_factor = 0;
            require(of->select(&p, cand, n, cur, &sel) == -EINVAL && sel.count == 0);
            break;
        }
        }
        check_trickle(&trickle);
        check_etx(&etx);
    }
    return 0;
}
