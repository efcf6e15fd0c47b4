/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief RPL's side of the RPL Packet Information (RFC 6553): the
 *        data-plane state it pushes to the IPv6 module, and the reports it
 *        gets back (tern/ipv6/rpi.h).
 *
 * Read first: RFC 6550 §11.2.2.2 (a rank error resets the DIO Trickle
 * timer), §11.2.2.3 (a Forwarding-Error removes the downward route).
 *
 * Threads: rpl_rpi_sync() runs on the module's turn, GETs
 * TERN_NETOPT_IPV6_RPL_STATE from the IPv6 module and SETs it when it
 * changed (RPL may wait on IPv6, never the reverse). The IPv6 module reports through rpi_event() on its own
 * turn: the report is recorded under the stack's lock and a message posted,
 * as the TX status hook does (rpl.c); rpl_rpi_drain() acts on it.
 */
#include <errno.h>
#include <string.h>

#include "rpl_internal.h"
#include "tern/netapi.h"
#include "tern/wire/rpl_hbh.h"

/* The IPv6 module's report (its turn, its thread): record, post, never block. */
static void rpi_event(void *ctx, tern_ipv6_rpi_event_t event, const tern_ipv6_addr_t *target)
{
    tern_rpl_t *rpl = ctx;
    const tern_lock_t *lock = tern_stack_lock(rpl->module.stack);
    bool lost = false;
    tern_lock_acquire(lock);
    if (event == TERN_IPV6_RPI_EVENT_RANK_ERROR) {
        rpl->rpi_rank_error = true;
#if RPL_JOINS /* else no parent: the IPv6 module never reports one */
    } else if (event == TERN_IPV6_RPI_EVENT_PARENT_LOOP && target != NULL) {
        rpl->rpi_parent_loop = true;
        rpl->rpi_loop_parent = *target;
#endif
    } else if (target != NULL && rpl->rpi_failed_count < TERN_CONF_RPL_RPI_EVENTS) {
        rpl->rpi_failed[rpl->rpi_failed_count++] = *target;
    } else {
        lost = true;
    }
    bool post = !rpl->rpi_posted && !lost;
    rpl->rpi_posted = rpl->rpi_posted || post;
    tern_lock_release(lock);
    if (lost) {
        rpl_count(rpl, TERN_RPL_RPI_EVENTS_LOST);
    }
    if (post) {
        tern_msg_t msg = { .type = RPL_MSG_RPI_EVENT };
        if (tern_netapi_post(&rpl->module, &msg) < 0) {
            /* Queue full: the next timer turn drains it (rpl.c). */
            tern_lock_acquire(lock);
            rpl->rpi_posted = false;
            tern_lock_release(lock);
        }
    }
}

void rpl_rpi_drain(tern_rpl_t *rpl)
{
    const tern_lock_t *lock = tern_stack_lock(rpl->module.stack);
    tern_ipv6_addr_t failed[TERN_CONF_RPL_RPI_EVENTS];
    /* The preferred parent is the module's (this turn's); the report is compared with it under the lock. */
    tern_rpl_parent_t *pref = rpl_dodag_preferred(rpl);
    tern_lock_acquire(lock);
    bool rank_error = rpl->rpi_rank_error;
#if RPL_JOINS
    bool parent_loop = rpl->rpi_parent_loop && pref != NULL && tern_ipv6_addr_equal(&pref->addr, &rpl->rpi_loop_parent);
    rpl->rpi_parent_loop = false;
#else
    bool parent_loop = false;
#endif
    size_t n = rpl->rpi_failed_count;
    memcpy(failed, rpl->rpi_failed, n * sizeof(failed[0]));
    rpl->rpi_rank_error = false;
    rpl->rpi_failed_count = 0;
    rpl->rpi_posted = false;
    tern_lock_release(lock);
    /* §11.2.2.2: "the Trickle timer MUST be reset" on a rank inconsistency;
     * as an inconsistency (RFC 6206 §4.2 rule 6, RFC 6550 §8.3): an
     * interval already at Imin is not restarted, or the drops of a loop,
     * one per packet, would postpone the DIO that repairs it for as long
     * as the traffic lasts (seen in bench/rpl: a 5x5 grid with a loop kept
     * for minutes). */
    if (rank_error && rpl->joined && rpl->role != TERN_RPL_ROLE_LEAF && rpl->role != TERN_RPL_ROLE_NONE) {
        (void)tern_trickle_inconsistent(&rpl->trickle, rpl_now(rpl));
        rpl_count(rpl, TERN_RPL_RPI_TRICKLE_RESETS);
    }
    /* §8.2.1: a node in our sub-DODAG must not be our parent. The one that
     * sent us a packet going up while it is our preferred parent routes
     * through us: drop it from the parent set and choose again (a parent
     * switch, or local repair when it was the only one, §8.2.2.5). Its next
     * DIO tells its real rank. Without this the two count their ranks up
     * DIO by DIO to the MaxRankIncrease limit while the loop lasts. */
    if (parent_loop) {
        rpl_count(rpl, TERN_RPL_RPI_PARENT_LOOPS);
        rpl_dodag_parent_lost(rpl, pref);
    }
    for (size_t i = 0; i < n; i++) {
        rpl_dao_route_failed(rpl, &failed[i]);
    }
}

/* noinline: its two copies of the state (80 B) stay out of handle()'s frame (rpl.c calls it last). */
__attribute__((noinline)) void rpl_rpi_sync(tern_rpl_t *rpl)
{
    tern_ipv6_rpl_state_t st;
    memset(&st, 0, sizeof(st)); /* compared with memcmp: padding too */
    const tern_rpl_parent_t *p = rpl_dodag_preferred(rpl);
    bool root = rpl->role == TERN_RPL_ROLE_ROOT;
    st.running = rpl->role != TERN_RPL_ROLE_NONE;
    st.joined = st.running && rpl->joined && (root || p != NULL) && !rpl_poisoning(rpl) &&
                rpl->rank != TERN_RPL_INFINITE_RANK;
    st.root = root;
    st.storing = !rpl_non_storing(rpl);
    st.instance_id = rpl->instance_id;
    st.rank = rpl->rank;
    st.min_hop_rank_increase = (rpl->min_hop_rank_increase != 0) ? rpl->min_hop_rank_increase : 1u;
    /* RFC 9008 §4.3: the root chooses the type; the others follow its DODAG Configuration. */
    if (root) {
        st.option_type = TERN_CONF_RPL_RPI_TYPE_RFC9008 ? TERN_RPL_HBH_OPT_TYPE_RFC9008 : TERN_RPL_HBH_OPT_TYPE;
    } else {
        st.option_type = (rpl->rpi_option_type == TERN_RPL_HBH_OPT_TYPE_RFC9008) ? TERN_RPL_HBH_OPT_TYPE_RFC9008
                                                                                 : TERN_RPL_HBH_OPT_TYPE;
    }
    if (p != NULL) {
        st.parent = p->addr;
        st.parent_if = p->if_index;
    }
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        st.if_index[i] = (rpl->ifs[i] != NULL) ? rpl->ifs[i]->index : 0u;
    }
    st.event = rpi_event;
    st.ctx = rpl;
    /* Unchanged since the last SET: the IPv6 module's copy is the same bytes
     * (GET: no copy of our own kept here, 40 B less). */
    tern_ipv6_rpl_state_t have;
    if (tern_netapi_get(&rpl->ip->module, TERN_NETOPT_IPV6_RPL_STATE, 0, &have, sizeof(have)) ==
            (int)sizeof(have) &&
        memcmp(&st, &have, sizeof(st)) == 0) {
        return;
    }
    (void)tern_netapi_set(&rpl->ip->module, TERN_NETOPT_IPV6_RPL_STATE, 0, &st, sizeof(st));
}
