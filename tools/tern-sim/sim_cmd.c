/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim's command dispatch (see sim_cmd.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim_cmd.h"

/** Longest duration `run` accepts, us (1000 hours). */
#define DURATION_MAX_US (1000ull * 3600ull * 1000000ull)

void sim_say(const sim_cmd_t *sim, const char *fmt, ...)
{
    char buf[SIM_CMD_LINE_MAX + 128u];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (n > 0) {
        sim->write(sim->ctx, buf, ((size_t)n < sizeof(buf)) ? (size_t)n : sizeof(buf) - 1u);
    }
}

int sim_parse_duration(const char *text, uint64_t *us)
{
    if (text == NULL || text[0] < '0' || text[0] > '9') {
        return -EINVAL;
    }
    uint64_t v = 0;
    const char *p = text;
    while (*p >= '0' && *p <= '9') {
        v = v * 10u + (uint64_t)(*p - '0');
        if (v > DURATION_MAX_US) {
            return -EINVAL;
        }
        p++;
    }
    static const struct {
        const char *unit;
        uint64_t us;
    } units[] = { { "us", 1u }, { "ms", 1000u }, { "s", 1000000u }, { "m", 60000000u }, { "h", 3600000000u } };
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(p, units[i].unit) == 0) {
            if (v > DURATION_MAX_US / units[i].us) {
                return -EINVAL;
            }
            *us = v * units[i].us;
            return 0;
        }
    }
    return -EINVAL;
}

/* The first word of @p line (cut out) and the rest after it (leading blanks skipped). */
static char *first_word(char *line, char **rest)
{
    while (*line == ' ' || *line == '\t') {
        line++;
    }
    char *word = line;
    while (*line != '\0' && *line != ' ' && *line != '\t') {
        line++;
    }
    if (*line != '\0') {
        *line++ = '\0';
    }
    while (*line == ' ' || *line == '\t') {
        line++;
    }
    *rest = line;
    return word;
}

/* A node number 1..nodes. @return its index or -1. */
static int node_index(const sim_cmd_t *sim, const char *word)
{
    unsigned v = 0;
    if (*word == '\0') {
        return -1;
    }
    for (const char *p = word; *p != '\0'; p++) {
        if (*p < '0' || *p > '9') {
            return -1;
        }
        v = v * 10u + (unsigned)(*p - '0');
        if (v > sim->nodes) {
            return -1;
        }
    }
    return (v == 0) ? -1 : (int)v - 1;
}

static bool is_number(const char *word)
{
    if (*word == '\0') {
        return false;
    }
    for (; *word != '\0'; word++) {
        if (*word < '0' || *word > '9') {
            return false;
        }
    }
    return true;
}

static int cmd_run(const sim_cmd_t *sim, char *args)
{
    char *rest;
    char *word = first_word(args, &rest);
    uint64_t us;
    if (*rest != '\0' || sim_parse_duration(word, &us) < 0) {
        sim_say(sim, "usage: run DURATION (a number and a unit: us, ms, s, m, h; e.g. 500ms, 10s, 2m)\n");
        return -EINVAL;
    }
    int res = sim->run_until(sim->ctx, sim->now(sim->ctx) + us);
    if (res < 0) {
        sim_say(sim, "run: the simulation stopped (error %d)\n", res);
    }
    return res;
}

static int cmd_time(const sim_cmd_t *sim)
{
    uint64_t now = sim->now(sim->ctx);
    sim_say(sim, "time %llu.%06llu s\n", (unsigned long long)(now / 1000000u), (unsigned long long)(now % 1000000u));
    return 0;
}

/* A PRR in parts per million as a decimal ("0.812345"). */
static void prr_text(uint32_t ppm, char *buf, size_t size)
{
    (void)snprintf(buf, size, "%u.%06u", (unsigned)(ppm / SIM_PRR_ONE), (unsigned)(ppm % SIM_PRR_ONE));
}

/*
 * links: "nodes N", the drawn positions ("position A X Y") and one line per
 * pair with a link in either direction ("link A B PRR_AB PRR_BA"), A < B: the
 * topology as loaded, in the topology format (isolate does not change it).
 */
static int cmd_links(const sim_cmd_t *sim)
{
    const sim_topology_t *t = sim->topo;
    sim_say(sim, "nodes %u\n", (unsigned)t->nodes);
    for (unsigned a = 0; a < t->nodes; a++) {
        if (t->drawn || t->has_position[a]) {
            sim_say(sim, "position %u %ld %ld\n", a + 1u, (long)t->x[a], (long)t->y[a]);
        }
    }
    for (unsigned a = 0; a < t->nodes; a++) {
        for (unsigned b = a + 1u; b < t->nodes; b++) {
            uint32_t there = t->link_set[a][b] ? t->prr_ppm[a][b] : 0u;
            uint32_t back = t->link_set[b][a] ? t->prr_ppm[b][a] : 0u;
            if (there == 0u && back == 0u) {
                continue;
            }
            char p1[16], p2[16];
            prr_text(there, p1, sizeof(p1));
            prr_text(back, p2, sizeof(p2));
            sim_say(sim, "link %u %u %s %s\n", a + 1u, b + 1u, p1, p2);
        }
    }
    return 0;
}

static int cmd_isolate(const sim_cmd_t *sim, char *args)
{
    char *rest;
    char *word = first_word(args, &rest);
    int index = node_index(sim, word);
    if (*rest != '\0' || index < 0) {
        sim_say(sim, "usage: isolate N (a node 1..%u)\n", sim->nodes);
        return -EINVAL;
    }
    int res = sim->isolate(sim->ctx, (unsigned)index);
    if (res < 0) {
        sim_say(sim, "isolate: node %d cannot be isolated (error %d)\n", index + 1, res);
        return res;
    }
    sim_say(sim, "isolated node %d\n", index + 1);
    return 0;
}

static int cmd_help(const sim_cmd_t *sim)
{
    sim_say(sim, "simulator commands:\n"
             "N CMD...        run CMD on node N (1..%u)\n"
             "all CMD...      run CMD on every node in turn (output prefixed 'N: ')\n"
             "run DURATION    advance virtual time (us, ms, s, m, h: 500ms, 10s, 2m)\n"
             "time            print the virtual time\n"
             "help            this text\n",
        sim->nodes);
    if (sim->isolate != NULL) {
        sim_say(sim, "isolate N       cut node N off the medium (removed from the network)\n");
    }
    if (sim->topo != NULL) {
        sim_say(sim, "links           the topology's positions and links (PRR each way)\n");
    }
    if (sim->traffic != NULL) {
        sim_say(sim, "traffic ADDR COUNT INTERVAL [SIZE]\n"
                 "                every other node sends COUNT UDP datagrams to ADDR port 7, one per\n"
                 "                INTERVAL, answered back; prints sent/arrived/returned per node\n");
    }
    sim_say(sim, "node commands (N CMD, all CMD):\n");
    char line[] = "help";
    return sim->node_run(sim->ctx, 0, line, false);
}

int sim_cmd_run(const sim_cmd_t *sim, char *line)
{
    char *rest;
    char *word = first_word(line, &rest);
    if (*word == '\0' || *word == '#') {
        return 0;
    }
    if (strcmp(word, "run") == 0) {
        return cmd_run(sim, rest);
    }
    if (strcmp(word, "time") == 0 || strcmp(word, "help") == 0) {
        if (*rest != '\0') {
            sim_say(sim, "usage: %s\n", word);
            return -EINVAL;
        }
        return (word[0] == 't') ? cmd_time(sim) : cmd_help(sim);
    }
    if (strcmp(word, "isolate") == 0 && sim->isolate != NULL) {
        return cmd_isolate(sim, rest);
    }
    if (strcmp(word, "links") == 0 && sim->topo != NULL) {
        if (*rest != '\0') {
            sim_say(sim, "usage: links\n");
            return -EINVAL;
        }
        return cmd_links(sim);
    }
    if (strcmp(word, "traffic") == 0 && sim->traffic != NULL) {
        return sim->traffic(sim->ctx, sim, rest);
    }
    if (strcmp(word, "all") == 0) {
        if (*rest == '\0') {
            sim_say(sim, "usage: all CMD...\n");
            return -EINVAL;
        }
        int first_error = 0;
        for (unsigned i = 0; i < sim->nodes; i++) {
            char copy[SIM_CMD_LINE_MAX];
            (void)snprintf(copy, sizeof(copy), "%s", rest);
            int res = sim->node_run(sim->ctx, i, copy, true);
            if (res < 0 && first_error == 0) {
                first_error = res;
            }
        }
        return first_error;
    }
    if (is_number(word)) {
        int index = node_index(sim, word);
        if (index < 0) {
            sim_say(sim, "no node %s (nodes are 1..%u)\n", word, sim->nodes);
            return -ENOENT;
        }
        if (*rest == '\0') {
            sim_say(sim, "usage: %s CMD...\n", word);
            return -EINVAL;
        }
        return sim->node_run(sim->ctx, (unsigned)index, rest, false);
    }
    sim_say(sim, "unknown command '%s' (want N CMD, all CMD, run DURATION, time or help)\n", word);
    return -ENOENT;
}
