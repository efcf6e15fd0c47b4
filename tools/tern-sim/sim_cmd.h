/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim's command dispatch: one input line to a node's shell, to
 *        every node's, or to the simulator itself.
 *
 *     N CMD...        run CMD on node N (1-based) through its shell
 *     all CMD...      run CMD on node 1, 2, ... in turn, each output line
 *                     prefixed with "N: "
 *     run DURATION    advance virtual time by DURATION (250us, 500ms, 10s, 2m, 1h),
 *                     running every event on the way
 *     time            print the virtual time
 *     help            the simulator's commands, then node 1's shell commands
 *     isolate N       cut node N off the medium (it hears nobody, nobody hears
 *                     it): a node removed from the network, still running
 *     links           the topology's nodes (positions of `random`) and links
 *     traffic ...     periodic UDP to one address and back (sim_traffic.h)
 *
 * Empty lines and lines starting with '#' do nothing. The dispatch knows the
 * simulation only through sim_cmd_t's functions, so it is tested without a
 * stack (tests/unit/test_sim_topology.c).
 */
#ifndef TERN_SIM_CMD_H
#define TERN_SIM_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology.h"

/** What the dispatch needs of a simulation. */
typedef struct sim_cmd {
    void *ctx;       /**< argument of every function */
    unsigned nodes;  /**< node count (nodes 1..nodes) */
    /** Run the shell line @p line (modified) on node @p index (0-based);
     *  @p prefixed: its output lines get the "N: " prefix. @return the shell's result. */
    int (*node_run)(void *ctx, unsigned index, char *line, bool prefixed);
    /** Advance virtual time to @p deadline_us running every event. @return 0 or a negative errno. */
    int (*run_until)(void *ctx, uint64_t deadline_us);
    /** Current virtual time, us. */
    uint64_t (*now)(void *ctx);
    /** Simulator output (not a node's). */
    void (*write)(void *ctx, const char *text, size_t len);
    /** Cut node @p index (0-based) off the medium. @return 0 or a negative errno.
     *  NULL: `isolate` is not offered. */
    int (*isolate)(void *ctx, unsigned index);
    /** The `traffic` command with its arguments @p args (sim_traffic_cmd()).
     *  NULL: `traffic` is not offered. */
    int (*traffic)(void *ctx, const struct sim_cmd *sim, char *args);
    /** The topology `links` prints; NULL: `links` is not offered. */
    const sim_topology_t *topo;
} sim_cmd_t;

/** Longest input line, bytes (as a node's shell line). */
#define SIM_CMD_LINE_MAX 256u

/**
 * Run one input line (modified in place).
 * @return 0 (also for empty lines and comments); the node's shell result for
 *         `N CMD` (the first failure for `all`); -EINVAL for a malformed
 *         simulator command (a message was written); -ENOENT for an unknown
 *         command or node; run_until()'s error.
 */
int sim_cmd_run(const sim_cmd_t *sim, char *line);

/**
 * Write a formatted message through @p sim's write callback (at most
 * SIM_CMD_LINE_MAX + 127 characters; longer ones are cut).
 */
void sim_say(const sim_cmd_t *sim, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * Parse a duration: a decimal number followed by a unit, us, ms, s, m or h
 * ("500ms", "10s", "2m"), at most 1000 hours.
 * @return 0 with microseconds in @p us; -EINVAL otherwise.
 */
int sim_parse_duration(const char *text, uint64_t *us);

#endif /* TERN_SIM_CMD_H */
