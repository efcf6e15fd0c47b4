/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief `rpl` in the shell (tern/shell_rpl.h).
 */
#include <errno.h>
#include <string.h>

#include "tern/shell_rpl.h"

static void print_addr(tern_shell_t *sh, const char *before, const tern_ipv6_addr_t *a, const char *after)
{
    char text[TERN_IPV6_ADDR_STRLEN];
    (void)tern_ipv6_addr_to_str(a, text, sizeof(text));
    tern_shell_printf(sh, "%s%s%s", before, text, after);
}

/* Seconds from @p now_us until @p at_us ("-" for never). */
static void print_in(tern_shell_t *sh, const char *label, uint64_t at_us, uint64_t now_us)
{
    if (at_us == UINT64_MAX) {
        tern_shell_printf(sh, "%s -", label);
    } else {
        uint64_t ms = (at_us > now_us) ? (at_us - now_us) / 1000u : 0u;
        tern_shell_printf(sh, "%s %lu.%03lu s", label, (unsigned long)(ms / 1000u), (unsigned long)(ms % 1000u));
    }
}

static void show(tern_shell_t *sh, tern_shell_rpl_t *s)
{
    tern_rpl_state_t *st = &s->state;
    const tern_rpl_t *rpl = s->rpl;
    tern_shell_printf(sh, "role %s  %s\n", tern_rpl_role_name(st->role), st->joined ? "joined" : "not joined");
    if (st->joined) {
        const tern_rpl_of_t *of = tern_rpl_of_get(st->ocp);
        tern_shell_printf(sh, "instance %u  dodag ", (unsigned)st->instance_id);
        print_addr(sh, "", &st->dodag_id, "");
        tern_shell_printf(sh, "  version %u  mop %u  ocp %u (%s)  dtsn %u\n", (unsigned)st->version,
                          (unsigned)st->mop, (unsigned)st->ocp, (of != NULL) ? of->name : "?", (unsigned)st->dtsn);
        tern_shell_printf(sh, "rank %u (DAGRank %u)\n", (unsigned)st->rank,
                          (unsigned)tern_rpl_dag_rank(st->rank, rpl->min_hop_rank_increase));
    }
    tern_shell_printf(sh, "parents:\n");
    for (size_t i = 0; i < TERN_CONF_RPL_PARENTS; i++) {
        const tern_rpl_parent_t *p = &st->parents[i];
        if (!p->used) {
            continue;
        }
        print_addr(sh, (st->preferred == (int8_t)i) ? "  * " : "    ", &p->addr, "");
        tern_shell_printf(sh, "  rank %u  etx %u.%02u  failures %u  if %u", (unsigned)p->rank,
                          (unsigned)(p->etx / TERN_RPL_ETX_DIVISOR),
                          (unsigned)((p->etx % TERN_RPL_ETX_DIVISOR) * 100u / TERN_RPL_ETX_DIVISOR),
                          (unsigned)p->failures, (unsigned)p->if_index);
        uint64_t ago_ms = (st->now_us > p->heard_us) ? (st->now_us - p->heard_us) / 1000u : 0u;
        tern_shell_printf(sh, "  heard %lu.%03lu s ago\n", (unsigned long)(ago_ms / 1000u),
                          (unsigned long)(ago_ms % 1000u));
    }
    tern_shell_printf(sh, "trickle: %s  I %lu ms  c %lu", st->trickle.running ? "running" : "stopped",
                      (unsigned long)(st->trickle.interval_us / 1000u), (unsigned long)st->trickle.counter);
    print_in(sh, "  next", tern_trickle_next_deadline(&st->trickle), st->now_us);
    tern_shell_printf(sh, "  sent %lu  suppressed %lu\n",
                      (unsigned long)st->trickle.counters[TERN_TRICKLE_TRANSMITTED],
                      (unsigned long)st->trickle.counters[TERN_TRICKLE_SUPPRESSED]);
    tern_shell_printf(sh, "dao: sequence %u  %s  retries %u", (unsigned)st->dao_sequence,
                      st->dao_pending ? "waiting for ack" : "idle", (unsigned)st->dao_retries);
    print_in(sh, "  next", st->dao_at_us, st->now_us);
    tern_shell_printf(sh, "\nroutes:\n");
    for (size_t i = 0; i < TERN_CONF_RPL_ROUTES; i++) {
        const tern_rpl_route_t *r = &st->routes[i];
        if (!r->used) {
            continue;
        }
        print_addr(sh, "    ", &r->target, "");
        tern_shell_printf(sh, "/%u", (unsigned)r->prefix_len);
        print_addr(sh, " via ", &r->next_hop, "");
        print_in(sh, "  expires in", tern_expiry_to_us(r->expires), st->now_us);
        tern_shell_printf(sh, "\n");
    }
#if TERN_CONF_RPL_NS_LINKS > 0 /* 0: no non-storing root (config.h), no table */
    bool links = false;
    for (const tern_rpl_ns_link_t *l = st->ns_links; l < st->ns_links + TERN_CONF_RPL_NS_LINKS; l++) {
        if (!l->used) {
            continue;
        }
        if (!links) {
            tern_shell_printf(sh, "non-storing links (target -> parent):\n");
            links = true;
        }
        print_addr(sh, "    ", &l->target, "");
        print_addr(sh, " -> ", &l->parent, "");
        print_in(sh, "  expires in", tern_expiry_to_us(l->expires), st->now_us);
        tern_shell_printf(sh, "\n");
    }
#endif
    tern_shell_printf(sh, "counters:");
    unsigned shown = 0;
    for (size_t i = 0; i < rpl->stats.count; i++) {
        uint32_t v = tern_count_read(&rpl->counters[i]);
        if (v != 0 && rpl->stats.names == NULL) { /* names compiled out (TERN_CONF_STATS_NAMES 0) */
            tern_shell_printf(sh, "%s #%u %lu", (shown % 4u == 0) ? "\n " : "", (unsigned)i, (unsigned long)v);
            shown++;
        } else if (v != 0) {
            tern_shell_printf(sh, "%s %s %lu", (shown % 4u == 0) ? "\n " : "", rpl->stats.names[i], (unsigned long)v);
            shown++;
        }
    }
    tern_shell_printf(sh, "%s\n", shown == 0 ? " none" : "");
}

static int usage(tern_shell_t *sh)
{
    tern_shell_printf(sh, "usage: rpl [root INSTANCE DODAGID [storing|non-storing] | router | leaf | global-repair | "
                          "stop]\n");
    return -EINVAL;
}

static int cmd_rpl(tern_shell_t *sh, int argc, char **argv)
{
    tern_shell_rpl_t *s = sh->current->ctx;
    if (argc == 1) {
        int res = tern_rpl_get_state(s->rpl, &s->state);
        if (res < 0) {
            return res;
        }
        show(sh, s);
        return 0;
    }
    int res;
    if (strcmp(argv[1], "root") == 0) {
        uint32_t instance;
        tern_ipv6_addr_t dodag_id;
        uint8_t mop = TERN_CONF_RPL_MOP;
        if (argc == 5 && strcmp(argv[4], "storing") == 0) {
            mop = TERN_RPL_MOP_STORING;
        } else if (argc == 5 && strcmp(argv[4], "non-storing") == 0) {
            mop = TERN_RPL_MOP_NON_STORING; /* RFC 6550 §9.7 */
        } else if (argc != 4) {
            return usage(sh);
        }
        if (tern_shell_parse_number(argv[2], 0, 127, &instance) < 0 ||
            tern_ipv6_addr_from_str(&dodag_id, argv[3], strlen(argv[3])) < 0) {
            return usage(sh);
        }
        res = tern_rpl_set_root_mop(s->rpl, (uint8_t)instance, &dodag_id, mop);
        if (res == -EADDRNOTAVAIL) {
            tern_shell_printf(sh, "rpl: %s is not a global address of an RPL interface\n", argv[3]);
        }
    } else if (argc == 2 && strcmp(argv[1], "router") == 0) {
        res = tern_rpl_set_router(s->rpl);
    } else if (argc == 2 && strcmp(argv[1], "leaf") == 0) {
        res = tern_rpl_set_leaf(s->rpl);
    } else if (argc == 2 && strcmp(argv[1], "global-repair") == 0) {
        res = tern_rpl_global_repair(s->rpl);
        if (res == -EPERM) {
            tern_shell_printf(sh, "rpl: only the root starts a global repair\n");
        }
    } else if (argc == 2 && strcmp(argv[1], "stop") == 0) {
        res = tern_rpl_stop(s->rpl);
    } else {
        return usage(sh);
    }
    return res;
}

int tern_shell_add_rpl(tern_shell_t *sh, tern_shell_rpl_t *storage, tern_rpl_t *rpl)
{
    storage->rpl = rpl;
    storage->cmd = (tern_shell_cmd_t){ NULL, "rpl",
                                       "[root INSTANCE DODAGID [storing|non-storing] | router | leaf | global-repair "
                                       "| stop] - RPL DODAG, "
                                       "parents, routes, counters",
                                       cmd_rpl, storage };
    return tern_shell_add(sh, &storage->cmd);
}
