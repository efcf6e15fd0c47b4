/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim's topology format: a line-oriented text naming the nodes,
 *        their links (explicit or generated) and node roles.
 *
 * The format (docs/TERN-SIM.md has the full description):
 *
 *     # comment (also after a statement)
 *     nodes N                  N nodes, numbered 1..N (1..SIM_MAX_NODES)
 *     line N [PRR [PRR_MAX]]   nodes 1..N in a line: links i <-> i+1
 *     grid W H [PRR [PRR_MAX]] W x H nodes row by row: links to the 4 neighbours
 *     random N SIDE RANGE PRR_MIN PRR_MAX
 *                              N nodes at random in a SIDE x SIDE square (node 1
 *                              in the middle), links between nodes within RANGE,
 *                              a connected graph (re-drawn until it is)
 *     link A B PRR [PRR_BACK]  A -> B with PRR, B -> A with PRR_BACK (default PRR)
 *     range FULL MAX           range model: PRR 1 up to FULL, 0 from MAX (distance units)
 *     position A X Y           node A at (X, Y) for the range model
 *     router A                 node A is an IPv6 router (RFC 4861 §6.2)
 *     collisions on|off        the medium models collisions and CCA (default off)
 *
 * A PRR is a decimal fraction in [0, 1] with at most 6 decimals ("1",
 * "0.95", "0.5"); 0 removes a link. With two PRRs (`line`, `grid`, `random`)
 * each direction of each link gets its own PRR drawn uniformly between them,
 * from the generator seeded with sim_topology_t::seed (the same seed, the same
 * topology). `line`, `grid` and `random` set the node count when
 * none is set yet, otherwise they must fit into it. Later statements override
 * earlier ones for the same link. The parser is pure (no I/O, no stack), so
 * tests/unit/test_sim_topology.c checks every error.
 */
#ifndef TERN_SIM_TOPOLOGY_H
#define TERN_SIM_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Most nodes one simulation holds (a compile-time maximum: static storage). */
#define SIM_MAX_NODES 64u

/** Longest topology line, bytes (without the newline). */
#define SIM_TOPOLOGY_LINE_MAX 255u

/** PRR 1.0 in parts per million (as the medium counts, TERN_RADIO_PRR_ONE). */
#define SIM_PRR_ONE 1000000u

/** A parsed topology. Zero it (sim_topology_init) before parsing. */
typedef struct {
    uint16_t nodes;                                  /**< node count; 0 until declared */
    uint64_t seed;                                   /**< seed of random PRRs and positions (set before parsing) */
    bool drawn;                                      /**< `random` placed the nodes (x, y) */
    uint32_t side;                                   /**< `random`: side of the square */
    bool collisions;                                 /**< `collisions on` */
    bool has_range;                                  /**< a `range` statement was given */
    uint32_t range_full;                             /**< range model: full reception up to here */
    uint32_t range_max;                              /**< range model: no reception from here */
    bool router[SIM_MAX_NODES];                      /**< by node index (node number - 1) */
    bool has_position[SIM_MAX_NODES];                /**< a `position` was given */
    int32_t x[SIM_MAX_NODES];                        /**< position, if given */
    int32_t y[SIM_MAX_NODES];                        /**< position, if given */
    bool link_set[SIM_MAX_NODES][SIM_MAX_NODES];     /**< [from][to] set by a statement */
    uint32_t prr_ppm[SIM_MAX_NODES][SIM_MAX_NODES];  /**< [from][to], parts per million; 0 none */
} sim_topology_t;

/** Where and why parsing failed. */
typedef struct {
    unsigned line;      /**< 1-based line number; 0 for the file as a whole */
    char message[160];  /**< what is wrong, one line without newline */
} sim_topology_error_t;

/** Largest coordinate magnitude of a position (as the medium's TERN_RADIO_POSITION_MAX). */
#define SIM_POSITION_MAX (1L << 30)

/** Most attempts of `random` to draw a connected topology. */
#define SIM_RANDOM_ATTEMPTS 1000u

/** Empty @p topo: no nodes, no links, collisions off, seed 1. */
void sim_topology_init(sim_topology_t *topo);

/**
 * Parse a whole topology text into @p topo (which sim_topology_init() emptied).
 * @param[in]  text  the file's contents (need not end in a newline; NUL bytes are an error)
 * @param[in]  len   its length
 * @param[out] err   the first error (line number and message), when it fails
 * @return 0; -EINVAL with @p err filled for the first bad line, or with line 0
 *         when the text as a whole is wrong (no nodes, positions without range).
 */
int sim_topology_parse(sim_topology_t *topo, const char *text, size_t len, sim_topology_error_t *err);

/**
 * Parse a PRR: a decimal fraction in [0, 1], at most 6 decimals.
 * @return 0 with parts per million in @p ppm; -EINVAL otherwise.
 */
int sim_parse_prr(const char *text, uint32_t *ppm);

#endif /* TERN_SIM_TOPOLOGY_H */
