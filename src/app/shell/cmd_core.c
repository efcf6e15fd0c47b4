/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Core shell commands: help, pktbuf, stats, trace.
 */
#include <errno.h>
#include <string.h>

#include "tern/shell.h"

static int cmd_help(tern_shell_t *sh, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    tern_shell_printf(sh, "%-10s %s\n", "command", "arguments - description");
    for (const tern_shell_cmd_t *c = sh->cmds; c != NULL; c = c->next) {
        tern_shell_printf(sh, "%-10s %s\n", c->name, (c->help != NULL) ? c->help : "");
    }
    return 0;
}

static int cmd_pktbuf(tern_shell_t *sh, int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        tern_shell_printf(sh, "usage: pktbuf\n");
        return -EINVAL;
    }
    tern_pktbuf_t *pb = &sh->stack->pktbuf;
    tern_pktbuf_stats_t st = tern_pktbuf_stats(pb);
    int check = tern_pktbuf_check(pb);
    tern_shell_printf(sh, "pktbuf: size %zu B, used %zu B, free %zu B, high-water %zu B\n",
                      st.size, st.used, st.size - st.used, st.high_water);
    tern_shell_printf(sh, "        alloc failures %lu, released with error %lu, %s\n",
                      (unsigned long)st.alloc_fail, (unsigned long)st.released_err,
                      (check == 0) ? "consistent" : "INCONSISTENT");
    return 0;
}

static int cmd_stats(tern_shell_t *sh, int argc, char **argv)
{
    const char *only = (argc > 1) ? argv[1] : NULL;
    bool found = false;
    tern_pktbuf_stats_t st = tern_pktbuf_stats(&sh->stack->pktbuf);
    if (only == NULL || strcmp(only, "pktbuf") == 0) {
        tern_shell_printf(sh, "%-12s %-20s %10lu\n", "pktbuf", "alloc_fail",
                          (unsigned long)st.alloc_fail);
        found = true;
    }
    for (const tern_stats_group_t *g = sh->stack->stats_groups; g != NULL; g = g->next) {
        if (only != NULL && strcmp(only, g->name) != 0) {
            continue;
        }
        found = true;
        for (unsigned i = 0; i < g->count; i++) {
            unsigned long v = (unsigned long)tern_count_read(&g->values[i]);
            if (g->names == NULL) { /* names compiled out (TERN_CONF_STATS_NAMES 0): by number */
                tern_shell_printf(sh, "%-12s #%-19u %10lu\n", g->name, i, v);
                continue;
            }
            tern_shell_printf(sh, "%-12s %-20s %10lu\n", g->name, g->names[i], v);
        }
    }
    if (!found) {
        tern_shell_printf(sh, "stats: no counter group '%s'\n", only);
        return -ENOENT;
    }
    return 0;
}

/* Times are shown relative to the stack's start, in seconds. */
static void print_entry(tern_shell_t *sh, const tern_trace_entry_t *e)
{
    char types[TERN_TRACE_TYPES * 10 + 8];
    size_t pos = 0;
    types[0] = '\0';
    unsigned shown = (e->nsnips < TERN_TRACE_TYPES) ? e->nsnips : TERN_TRACE_TYPES;
    for (unsigned i = 0; i < shown; i++) {
        const char *name = tern_nettype_name((tern_nettype_t)e->types[i]);
        size_t n = strlen(name);
        if (pos + n + 2 >= sizeof(types)) {
            break;
        }
        if (i > 0) {
            types[pos++] = ',';
        }
        memcpy(&types[pos], name, n);
        pos += n;
        types[pos] = '\0';
    }
    const char *more = (e->nsnips > TERN_TRACE_TYPES) ? ",..." : "";
    uint64_t t = (e->time_us >= sh->stack->start_us) ? e->time_us - sh->stack->start_us : 0u;
    unsigned long secs = (unsigned long)(t / 1000000u);
    unsigned long usecs = (unsigned long)(t % 1000000u);
    const char *result = (e->result == 0) ? "ok" : tern_strerror(e->result);
    if (e->msg_type == TERN_MSG_SND || e->msg_type == TERN_MSG_RCV) {
        tern_shell_printf(sh, "%5lu.%06lu  %-10s -> %-10s %-6s %-12s %u B [%s%s]\n", secs, usecs,
                          e->from, e->to, tern_msg_type_name(e->msg_type), result,
                          (unsigned)e->pkt_len, types, more);
    } else {
        tern_shell_printf(sh, "%5lu.%06lu  %-10s -> %-10s %-6s %s\n", secs, usecs, e->from, e->to,
                          tern_msg_type_name(e->msg_type), result);
    }
}

static int cmd_trace(tern_shell_t *sh, int argc, char **argv)
{
    tern_trace_t *trace = &sh->stack->trace;
    if (!TERN_CONF_TRACE) {
        tern_shell_printf(sh, "trace: compiled out (build with TERN_CONF_TRACE=1)\n");
        return -ENOTSUP;
    }
    const tern_lock_t *lock = tern_stack_lock(sh->stack);
    if (argc == 2 && strcmp(argv[1], "clear") == 0) {
        tern_lock_acquire(lock);
        tern_trace_clear(trace);
        tern_lock_release(lock);
        return 0;
    }
    if (argc == 2 && (strcmp(argv[1], "on") == 0 || strcmp(argv[1], "off") == 0)) {
        trace->enabled = (strcmp(argv[1], "on") == 0);
        return 0;
    }
    if (argc != 1) {
        tern_shell_printf(sh, "usage: trace [clear|on|off]\n");
        return -EINVAL;
    }
    tern_lock_acquire(lock);
    size_t count = tern_trace_count(trace);
    uint64_t total = trace->total;
    tern_lock_release(lock);
    tern_shell_printf(sh, "trace: %llu hops recorded, last %lu shown%s\n", (unsigned long long)total,
                      (unsigned long)count, trace->enabled ? "" : " (recording off)");
    tern_shell_printf(sh, "%12s  %-10s    %-10s %-6s %-12s %s\n", "time/s", "from", "to", "msg",
                      "result", "packet");
    for (size_t i = 0; i < count; i++) {
        tern_trace_entry_t e;
        tern_lock_acquire(lock);
        int res = tern_trace_get(trace, i, &e);
        tern_lock_release(lock);
        if (res == 0) {
            print_entry(sh, &e);
        }
    }
    return 0;
}

void tern_shell_add_core(tern_shell_t *sh, tern_shell_core_cmds_t *storage)
{
    static const struct {
        const char *name;
        const char *help;
        tern_shell_fn_t fn;
    } table[4] = {
        { "help", "- list the commands", cmd_help },
        { "pktbuf", "- packet buffer usage and consistency", cmd_pktbuf },
        { "stats", "[GROUP] - drop and traffic counters", cmd_stats },
        { "trace", "[clear|on|off] - netapi hops, oldest first", cmd_trace },
    };
    for (unsigned i = 0; i < 4; i++) {
        storage->cmds[i] = (tern_shell_cmd_t){ NULL, table[i].name, table[i].help, table[i].fn, NULL };
        (void)tern_shell_add(sh, &storage->cmds[i]);
    }
}
