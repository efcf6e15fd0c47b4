/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim's topology parser (every statement, every error with its
 *        line number) and its command dispatch (durations, node addressing,
 *        `all` prefixes, `run`, `time`), without a stack.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sim_cmd.h"
#include "topology.h"

static sim_topology_t topo;
static sim_topology_error_t err;

static int parse(const char *text)
{
    sim_topology_init(&topo);
    return sim_topology_parse(&topo, text, strlen(text), &err);
}

/* The text must fail on @p line with a message containing @p part. */
static void expect_error(const char *text, unsigned line, const char *part)
{
    assert_int_equal(parse(text), -EINVAL);
    if (err.line != line || strstr(err.message, part) == NULL) {
        fail_msg("'%s': got line %u '%s', want line %u with '%s'", text, err.line, err.message, line, part);
    }
}

static void assert_link(unsigned a, unsigned b, uint32_t ppm)
{
    assert_true(topo.link_set[a - 1u][b - 1u]);
    assert_int_equal(topo.prr_ppm[a - 1u][b - 1u], ppm);
}

static unsigned count_links(void)
{
    unsigned n = 0;
    for (unsigned a = 0; a < SIM_MAX_NODES; a++) {
        for (unsigned b = 0; b < SIM_MAX_NODES; b++) {
            n += topo.link_set[a][b] ? 1u : 0u;
        }
    }
    return n;
}

/* ------------------------------------------------------------ PRR */

static void test_sim_parse_prr__values(void **state)
{
    (void)state;
    uint32_t ppm = 7;
    assert_int_equal(sim_parse_prr("1", &ppm), 0);
    assert_int_equal(ppm, SIM_PRR_ONE);
    assert_int_equal(sim_parse_prr("0", &ppm), 0);
    assert_int_equal(ppm, 0);
    assert_int_equal(sim_parse_prr("0.95", &ppm), 0);
    assert_int_equal(ppm, 950000u);
    assert_int_equal(sim_parse_prr("1.000000", &ppm), 0);
    assert_int_equal(ppm, SIM_PRR_ONE);
    assert_int_equal(sim_parse_prr("0.000001", &ppm), 0);
    assert_int_equal(ppm, 1u);
    const char *bad[] = { "", "-0.5", "1.5", "1.0000001", "0.0000001", "2", "0.", ".5", "0.5x", "10", "0,5", NULL };
    for (unsigned i = 0; bad[i] != NULL; i++) {
        ppm = 7;
        if (sim_parse_prr(bad[i], &ppm) != -EINVAL || ppm != 7) {
            fail_msg("PRR '%s' accepted", bad[i]);
        }
    }
    assert_int_equal(sim_parse_prr(NULL, &ppm), -EINVAL);
}

/* ------------------------------------------------------------ statements */

static void test_sim_topology_parse__line_of_two(void **state)
{
    (void)state;
    assert_int_equal(parse("# two nodes\nline 2\n"), 0);
    assert_int_equal(topo.nodes, 2);
    assert_link(1, 2, SIM_PRR_ONE);
    assert_link(2, 1, SIM_PRR_ONE);
    assert_int_equal(count_links(), 2);
    assert_false(topo.collisions);
    assert_false(topo.has_range);
}

static void test_sim_topology_parse__grid_has_four_neighbour_links(void **state)
{
    (void)state;
    assert_int_equal(parse("grid 3 3 0.9"), 0); /* no newline at the end */
    assert_int_equal(topo.nodes, 9);
    /* 1 2 3 / 4 5 6 / 7 8 9: 12 undirected links, 24 directed. */
    assert_int_equal(count_links(), 24);
    assert_link(1, 2, 900000u);
    assert_link(2, 1, 900000u);
    assert_link(1, 4, 900000u);
    assert_link(5, 6, 900000u);
    assert_link(5, 8, 900000u);
    assert_link(9, 6, 900000u);
    assert_false(topo.link_set[2][3]); /* 3 and 4: a row ends, no wrap-around */
    assert_false(topo.link_set[0][4]); /* 1 and 5: no diagonals */
}

static void test_sim_topology_parse__grid_rectangle(void **state)
{
    (void)state;
    assert_int_equal(parse("grid 4 2\n"), 0);
    assert_int_equal(topo.nodes, 8);
    assert_link(4, 8, SIM_PRR_ONE);
    assert_link(1, 5, SIM_PRR_ONE);
    assert_false(topo.link_set[3][4]); /* 4 and 5 */
    assert_int_equal(count_links(), 2 * (3 * 2 + 4));
}

static void test_sim_topology_parse__explicit_links_override(void **state)
{
    (void)state;
    assert_int_equal(parse("nodes 4\n"
                           "line 3 0.5   # nodes 1..3 of the 4\n"
                           "link 1 2 1 0.25\n"
                           "link 3 4 0.75\n"
                           "link 2 3 0\n"),
                     0);
    assert_int_equal(topo.nodes, 4);
    assert_link(1, 2, SIM_PRR_ONE);
    assert_link(2, 1, 250000u);
    assert_link(3, 4, 750000u);
    assert_link(4, 3, 750000u);
    assert_link(2, 3, 0);
    assert_link(3, 2, 0);
}

static void test_sim_topology_parse__range_positions_routers_collisions(void **state)
{
    (void)state;
    assert_int_equal(parse("\tnodes 3\r\n"
                           "range 10 20\n"
                           "position 1 0 0\n"
                           "position 2 15 -5\n"
                           "position 3 -1073741824 1073741824\n"
                           "router 2\n"
                           "collisions on\n"
                           "\n   \n# done\n"),
                     0);
    assert_true(topo.has_range);
    assert_int_equal(topo.range_full, 10);
    assert_int_equal(topo.range_max, 20);
    assert_int_equal(topo.x[1], 15);
    assert_int_equal(topo.y[1], -5);
    assert_int_equal(topo.x[2], -1073741824);
    assert_int_equal(topo.y[2], 1073741824);
    assert_false(topo.router[0]);
    assert_true(topo.router[1]);
    assert_true(topo.collisions);
    assert_int_equal(parse("line 2\ncollisions on\ncollisions off\n"), 0);
    assert_false(topo.collisions);
}

static void test_sim_topology_parse__largest(void **state)
{
    (void)state;
    assert_int_equal(parse("grid 8 8\n"), 0);
    assert_int_equal(topo.nodes, SIM_MAX_NODES);
    assert_link(64, 56, SIM_PRR_ONE);
    assert_int_equal(parse("nodes 64\nlink 64 1 1\n"), 0);
    assert_link(64, 1, SIM_PRR_ONE);
}

/* ------------------------------------------------------------ errors */

static void test_sim_topology_parse__errors_name_line_and_cause(void **state)
{
    (void)state;
    expect_error("", 0, "no nodes");
    expect_error("# only a comment\n\n", 0, "no nodes");
    expect_error("frobnicate 3\n", 1, "unknown statement 'frobnicate'");
    expect_error("line 2\nlink 1 2 1 1 1\n", 2, "usage: link A B PRR [PRR_BACK]");
    expect_error("line 2\nlink 1 2 1 1 1 1 1\n", 2, "too many words");
    /* nodes */
    expect_error("nodes\n", 1, "usage: nodes N");
    expect_error("nodes 0\n", 1, "bad node count '0'");
    expect_error("nodes 65\n", 1, "bad node count '65' (want 1..64)");
    expect_error("nodes x\n", 1, "bad node count 'x'");
    expect_error("nodes 3\nnodes 3\n", 2, "node count already set to 3");
    expect_error("line 3\nnodes 4\n", 2, "node count already set to 3");
    /* line, grid */
    expect_error("line\n", 1, "usage: line N [PRR [PRR_MAX]]");
    expect_error("line 0\n", 1, "bad node count '0'");
    expect_error("line 2 1.5\n", 1, "bad PRR '1.5'");
    expect_error("nodes 2\nline 3\n", 2, "line of 3 nodes does not fit into the 2 nodes declared");
    expect_error("grid 3\n", 1, "usage: grid W H [PRR [PRR_MAX]]");
    expect_error("grid 0 3\n", 1, "bad grid width '0'");
    expect_error("grid 3 -1\n", 1, "bad grid height '-1'");
    expect_error("grid 9 8\n", 1, "grid 9 x 8 has 72 nodes, at most 64");
    expect_error("grid 2 2 x\n", 1, "bad PRR 'x'");
    expect_error("nodes 3\ngrid 2 2\n", 2, "grid of 4 nodes does not fit");
    /* link */
    expect_error("link 1 2 1\n", 1, "no nodes yet");
    expect_error("nodes 2\nlink 1 2\n", 2, "usage: link A B PRR [PRR_BACK]");
    expect_error("nodes 2\nlink 1 3 1\n", 2, "bad node '3' (want 1..2)");
    expect_error("nodes 2\nlink 0 1 1\n", 2, "bad node '0'");
    expect_error("nodes 2\nlink a 1 1\n", 2, "bad node 'a'");
    expect_error("nodes 2\nlink 1 1 1\n", 2, "link from node 1 to itself");
    expect_error("nodes 2\nlink 1 2 2\n", 2, "bad PRR '2'");
    expect_error("nodes 2\nlink 1 2 1 -1\n", 2, "bad PRR '-1'");
    /* range, position */
    expect_error("nodes 2\nrange 10\n", 2, "usage: range FULL MAX");
    expect_error("nodes 2\nrange x 10\n", 2, "bad distance 'x'");
    expect_error("nodes 2\nrange 1 1073741825\n", 2, "bad distance '1073741825'");
    expect_error("nodes 2\nrange 0 0\n", 2, "range MAX must be greater than 0");
    expect_error("nodes 2\nrange 20 10\n", 2, "range FULL 20 exceeds MAX 10");
    expect_error("position 1 0 0\n", 1, "no nodes yet");
    expect_error("nodes 2\nposition 1 0\n", 2, "usage: position A X Y");
    expect_error("nodes 2\nposition 3 0 0\n", 2, "bad node '3'");
    expect_error("nodes 2\nposition 1 1.5 0\n", 2, "bad coordinate '1.5'");
    expect_error("nodes 2\nposition 1 0 -1073741825\n", 2, "bad coordinate '-1073741825'");
    expect_error("nodes 2\nposition 1 0 -\n", 2, "bad coordinate '-'");
    expect_error("nodes 2\nposition 1 0 0\nposition 2 5 5\n", 0,
                 "node 1 has a position but there is no range model");
    expect_error("nodes 2\nrange 5 10\nposition 1 0 0\n", 0, "node 2 has no position");
    /* router, collisions */
    expect_error("router 1\n", 1, "no nodes yet");
    expect_error("line 2\nrouter\n", 2, "usage: router A");
    expect_error("line 2\nrouter 9\n", 2, "bad node '9'");
    expect_error("line 2\ncollisions\n", 2, "usage: collisions on|off");
    expect_error("line 2\ncollisions yes\n", 2, "usage: collisions on|off");
    /* the text itself */
    char long_line[SIM_TOPOLOGY_LINE_MAX + 20u];
    memset(long_line, ' ', sizeof(long_line));
    memcpy(long_line, "line 2\n", 7);
    long_line[sizeof(long_line) - 1u] = '\0';
    expect_error(long_line, 2, "line too long");
    static const char with_nul[] = "line 2\nline\0 2\n";
    sim_topology_init(&topo);
    assert_int_equal(sim_topology_parse(&topo, with_nul, sizeof(with_nul) - 1u, &err), -EINVAL);
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "NUL byte"));
    assert_int_equal(sim_topology_parse(NULL, "", 0, &err), -EINVAL);
    assert_int_equal(sim_topology_parse(&topo, NULL, 1, &err), -EINVAL);
}

static void test_sim_topology_parse__longest_line_is_accepted(void **state)
{
    (void)state;
    char text[SIM_TOPOLOGY_LINE_MAX + 2u];
    memset(text, ' ', sizeof(text));
    memcpy(text, "line 2", 6);
    text[SIM_TOPOLOGY_LINE_MAX] = '\n';
    text[SIM_TOPOLOGY_LINE_MAX + 1u] = '\0';
    assert_int_equal(parse(text), 0);
    assert_int_equal(topo.nodes, 2);
}

/* ------------------------------------------------------------ durations */

/* ------------------------------------------------------------ PRR ranges, random topologies */

/* Parse @p text with @p seed. */
static int parse_seeded(const char *text, uint64_t seed)
{
    sim_topology_init(&topo);
    topo.seed = seed;
    return sim_topology_parse(&topo, text, strlen(text), &err);
}

static void test_sim_topology_parse__prr_range_draws_each_direction(void **state)
{
    (void)state;
    assert_int_equal(parse_seeded("grid 5 5 0.7 1\n", 3), 0);
    assert_int_equal(topo.nodes, 25);
    assert_int_equal(count_links(), 2u * 40u);
    bool differ = false, asymmetric = false;
    uint32_t first = topo.prr_ppm[0][1];
    for (unsigned a = 0; a < 25; a++) {
        for (unsigned b = 0; b < 25; b++) {
            if (topo.link_set[a][b]) {
                assert_in_range(topo.prr_ppm[a][b], 700000u, SIM_PRR_ONE);
                assert_true(topo.link_set[b][a]);
                differ = differ || topo.prr_ppm[a][b] != first;
                asymmetric = asymmetric || topo.prr_ppm[a][b] != topo.prr_ppm[b][a];
            }
        }
    }
    assert_true(differ);
    assert_true(asymmetric);
    /* The same seed gives the same PRRs, another seed others. */
    uint32_t saved[2] = { topo.prr_ppm[0][1], topo.prr_ppm[12][13] };
    assert_int_equal(parse_seeded("grid 5 5 0.7 1\n", 3), 0);
    assert_int_equal(topo.prr_ppm[0][1], saved[0]);
    assert_int_equal(topo.prr_ppm[12][13], saved[1]);
    assert_int_equal(parse_seeded("grid 5 5 0.7 1\n", 4), 0);
    assert_true(topo.prr_ppm[0][1] != saved[0] || topo.prr_ppm[12][13] != saved[1]);
    /* One PRR, or two equal ones: fixed. */
    assert_int_equal(parse("line 3 0.5\nline 3 0.25 0.25\ngrid 1 2 0.5\n"), 0);
    assert_link(2, 3, 250000u);
    assert_link(3, 2, 250000u);
    assert_link(1, 2, 500000u);
    assert_link(2, 1, 500000u);
}

/* Links of the parsed topology connect every node with node 1 (breadth-first). */
static bool topo_connected(void)
{
    bool seen[SIM_MAX_NODES] = { false };
    unsigned queue[SIM_MAX_NODES], head = 0, tail = 0;
    seen[0] = true;
    queue[tail++] = 0;
    while (head < tail) {
        unsigned a = queue[head++];
        for (unsigned b = 0; b < topo.nodes; b++) {
            if (!seen[b] && topo.link_set[a][b] && topo.prr_ppm[a][b] > 0) {
                seen[b] = true;
                queue[tail++] = b;
            }
        }
    }
    return tail == topo.nodes;
}

static void test_sim_topology_parse__random_is_connected_and_seeded(void **state)
{
    (void)state;
    static sim_topology_t first;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        assert_int_equal(parse_seeded("random 50 100 25 0.7 1.0\n", seed), 0);
        assert_int_equal(topo.nodes, 50);
        assert_true(topo.drawn);
        assert_int_equal(topo.side, 100);
        assert_false(topo.has_range);
        assert_int_equal(topo.x[0], 50); /* node 1 in the middle */
        assert_int_equal(topo.y[0], 50);
        assert_true(topo_connected());
        for (unsigned a = 0; a < 50; a++) {
            assert_in_range(topo.x[a], 0, 100);
            assert_in_range(topo.y[a], 0, 100);
            assert_false(topo.link_set[a][a]);
            for (unsigned b = 0; b < 50; b++) {
                int64_t dx = topo.x[a] - topo.x[b], dy = topo.y[a] - topo.y[b];
                bool near = a != b && dx * dx + dy * dy <= 25 * 25;
                assert_int_equal(topo.link_set[a][b], near);
                if (near) {
                    assert_in_range(topo.prr_ppm[a][b], 700000u, SIM_PRR_ONE);
                }
            }
        }
        if (seed == 1) {
            first = topo;
        } else {
            assert_true(memcmp(first.x, topo.x, sizeof(topo.x)) != 0);
        }
    }
    /* The same seed, the same topology, frame for frame. */
    assert_int_equal(parse_seeded("random 50 100 25 0.7 1.0\n", 1), 0);
    assert_memory_equal(&first, &topo, sizeof(topo));
    /* Statements after it override single links. */
    assert_int_equal(parse_seeded("random 4 10 20 0.8 0.8\nlink 1 2 0\nrouter 3\n", 1), 0);
    assert_link(1, 2, 0);
    assert_link(3, 4, 800000u);
    assert_true(topo.router[2]);
}

static void test_sim_topology_parse__random_and_range_errors(void **state)
{
    (void)state;
    expect_error("random 5 100 30 0.7\n", 1, "usage: random N SIDE RANGE PRR_MIN PRR_MAX");
    expect_error("random 65 100 30 0.7 1\n", 1, "bad node count '65' (want 1..64)");
    expect_error("random 5 0 30 0.7 1\n", 1, "bad side '0'");
    expect_error("random 5 100 0 0.7 1\n", 1, "bad range '0'");
    expect_error("random 5 100 x 0.7 1\n", 1, "bad range 'x'");
    expect_error("random 5 100 30 0.9 0.8\n", 1, "PRR range 0.9..0.8 is empty");
    expect_error("random 5 100 30 0 1\n", 1, "PRR_MIN must be above 0");
    expect_error("random 5 100 30 0.5 1.5\n", 1, "bad PRR '1.5'");
    expect_error("nodes 3\nrandom 5 100 30 0.7 1\n", 2, "random topology of 5 nodes does not fit");
    expect_error("random 10 1000000 1 0.9 1\n", 1, "no connected topology in 1000 draws");
    expect_error("grid 2 2 0.9 0.8\n", 1, "PRR range 0.9..0.8 is empty");
    expect_error("line 2 0.9 x\n", 1, "bad PRR 'x'");
    expect_error("line 2 0.1 0.2 0.3\n", 1, "usage: line N [PRR [PRR_MAX]]");
}

static void test_sim_parse_duration__units(void **state)
{
    (void)state;
    uint64_t us = 0;
    assert_int_equal(sim_parse_duration("250us", &us), 0);
    assert_int_equal(us, 250u);
    assert_int_equal(sim_parse_duration("500ms", &us), 0);
    assert_int_equal(us, 500000u);
    assert_int_equal(sim_parse_duration("10s", &us), 0);
    assert_int_equal(us, 10000000u);
    assert_int_equal(sim_parse_duration("2m", &us), 0);
    assert_int_equal(us, 120000000u);
    assert_int_equal(sim_parse_duration("1h", &us), 0);
    assert_int_equal(us, 3600000000u);
    assert_int_equal(sim_parse_duration("0s", &us), 0);
    assert_int_equal(us, 0u);
    assert_int_equal(sim_parse_duration("1000h", &us), 0);
    assert_int_equal(us, 3600000000000ull);
    const char *bad[] = { "", "10", "s", "-1s", "1.5s", "10 s", "10sec", "1001h", "99999999999999999999us", NULL };
    for (unsigned i = 0; bad[i] != NULL; i++) {
        us = 7;
        if (sim_parse_duration(bad[i], &us) != -EINVAL || us != 7) {
            fail_msg("duration '%s' accepted", bad[i]);
        }
    }
}

/* ------------------------------------------------------------ dispatch */

/** A fake simulation that records what the dispatch asked of it. */
static struct {
    char out[2048];
    size_t out_len;
    unsigned calls;
    unsigned index[8];
    char lines[8][64];
    bool prefixed[8];
    int result[8];      /* what node_run answers, by call */
    uint64_t now;
    uint64_t deadline;
    int run_result;
} fake;

static int fake_node_run(void *ctx, unsigned index, char *line, bool prefixed)
{
    (void)ctx;
    assert_true(fake.calls < 8);
    fake.index[fake.calls] = index;
    (void)snprintf(fake.lines[fake.calls], sizeof(fake.lines[0]), "%s", line);
    fake.prefixed[fake.calls] = prefixed;
    line[0] = 'X'; /* the shell cuts its line: `all` must hand each node a fresh copy */
    return fake.result[fake.calls++];
}

static int fake_run_until(void *ctx, uint64_t deadline_us)
{
    (void)ctx;
    fake.deadline = deadline_us;
    if (fake.run_result == 0) {
        fake.now = deadline_us;
    }
    return fake.run_result;
}

static uint64_t fake_now(void *ctx)
{
    (void)ctx;
    return fake.now;
}

static void fake_write(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    assert_true(fake.out_len + len < sizeof(fake.out));
    memcpy(&fake.out[fake.out_len], text, len);
    fake.out_len += len;
    fake.out[fake.out_len] = '\0';
}

static const sim_cmd_t fake_sim = { .ctx = NULL, .nodes = 3, .node_run = fake_node_run,
                                    .run_until = fake_run_until, .now = fake_now, .write = fake_write };

static int dispatch(const char *text)
{
    char line[SIM_CMD_LINE_MAX];
    (void)snprintf(line, sizeof(line), "%s", text);
    return sim_cmd_run(&fake_sim, line);
}

static int setup_fake(void **state)
{
    (void)state;
    memset(&fake, 0, sizeof(fake));
    return 0;
}

static void test_sim_cmd_run__node_command(void **state)
{
    (void)state;
    fake.result[0] = -EHOSTUNREACH;
    assert_int_equal(dispatch("  2   ping -c 1 fe80::1%wpan0"), -EHOSTUNREACH);
    assert_int_equal(fake.calls, 1);
    assert_int_equal(fake.index[0], 1);
    assert_string_equal(fake.lines[0], "ping -c 1 fe80::1%wpan0");
    assert_false(fake.prefixed[0]);
    assert_int_equal(fake.out_len, 0);
}

static void test_sim_cmd_run__all_runs_each_node_prefixed(void **state)
{
    (void)state;
    fake.result[1] = -ENOENT;
    fake.result[2] = -EINVAL;
    assert_int_equal(dispatch("all ifconfig wpan0"), -ENOENT); /* the first failure */
    assert_int_equal(fake.calls, 3);
    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(fake.index[i], i);
        assert_string_equal(fake.lines[i], "ifconfig wpan0");
        assert_true(fake.prefixed[i]);
    }
}

static void test_sim_cmd_run__run_and_time(void **state)
{
    (void)state;
    fake.now = 1500000u;
    assert_int_equal(dispatch("run 500ms"), 0);
    assert_int_equal(fake.deadline, 2000000u);
    assert_int_equal(dispatch("time"), 0);
    assert_string_equal(fake.out, "time 2.000000 s\n");
    fake.run_result = -ECANCELED;
    fake.out_len = 0;
    assert_int_equal(dispatch("run 1s"), -ECANCELED);
    assert_non_null(strstr(fake.out, "stopped"));
    assert_int_equal(fake.calls, 0);
}

static void test_sim_cmd_run__help_lists_simulator_then_node_commands(void **state)
{
    (void)state;
    assert_int_equal(dispatch("help"), 0);
    assert_non_null(strstr(fake.out, "run DURATION"));
    assert_non_null(strstr(fake.out, "N CMD...        run CMD on node N (1..3)"));
    assert_int_equal(fake.calls, 1);
    assert_int_equal(fake.index[0], 0);
    assert_string_equal(fake.lines[0], "help");
}

static void test_sim_cmd_run__nothing_to_do(void **state)
{
    (void)state;
    assert_int_equal(dispatch(""), 0);
    assert_int_equal(dispatch("   "), 0);
    assert_int_equal(dispatch("# a comment"), 0);
    assert_int_equal(fake.calls, 0);
    assert_int_equal(fake.out_len, 0);
}

static void test_sim_cmd_run__errors(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        int res;
        const char *message;
    } cases[] = {
        { "4 ifconfig", -ENOENT, "no node 4 (nodes are 1..3)" },
        { "0 ifconfig", -ENOENT, "no node 0" },
        { "99999999999 ifconfig", -ENOENT, "no node 99999999999" },
        { "2", -EINVAL, "usage: 2 CMD..." },
        { "all", -EINVAL, "usage: all CMD..." },
        { "run", -EINVAL, "usage: run DURATION" },
        { "run 10", -EINVAL, "usage: run DURATION" },
        { "run 1s 2s", -EINVAL, "usage: run DURATION" },
        { "time now", -EINVAL, "usage: time" },
        { "help me", -EINVAL, "usage: help" },
        { "ping fe80::1", -ENOENT, "unknown command 'ping'" },
        { "2x ifconfig", -ENOENT, "unknown command '2x'" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fake.out_len = 0;
        fake.out[0] = '\0';
        int res = dispatch(cases[i].line);
        if (res != cases[i].res || strstr(fake.out, cases[i].message) == NULL) {
            fail_msg("'%s': got %d '%s', want %d '%s'", cases[i].line, res, fake.out, cases[i].res,
                     cases[i].message);
        }
    }
    assert_int_equal(fake.calls, 0);
    assert_int_equal(fake.deadline, 0);
}

/* ------------------------------------------------------------ isolate, links, traffic */

static struct {
    unsigned isolated[4];
    unsigned isolate_calls;
    int isolate_result;
    char traffic_args[64];
    const sim_cmd_t *traffic_sim;
    unsigned traffic_calls;
} extra;

static int fake_isolate(void *ctx, unsigned index)
{
    (void)ctx;
    assert_true(extra.isolate_calls < 4);
    extra.isolated[extra.isolate_calls++] = index;
    return extra.isolate_result;
}

static int fake_traffic(void *ctx, const sim_cmd_t *sim, char *args)
{
    (void)ctx;
    extra.traffic_calls++;
    extra.traffic_sim = sim;
    (void)snprintf(extra.traffic_args, sizeof(extra.traffic_args), "%s", args);
    return -E2BIG;
}

static sim_cmd_t full_sim;

static int dispatch_full(const char *text)
{
    char line[SIM_CMD_LINE_MAX];
    (void)snprintf(line, sizeof(line), "%s", text);
    fake.out_len = 0;
    fake.out[0] = '\0';
    return sim_cmd_run(&full_sim, line);
}

static int setup_full(void **state)
{
    (void)setup_fake(state);
    memset(&extra, 0, sizeof(extra));
    full_sim = fake_sim;
    full_sim.isolate = fake_isolate;
    full_sim.traffic = fake_traffic;
    full_sim.topo = &topo;
    return parse_seeded("nodes 3\nlink 1 2 0.5 0.25\nlink 2 3 1\nlink 1 3 0 0\n", 1);
}

static void test_sim_cmd_run__isolate(void **state)
{
    (void)state;
    assert_int_equal(dispatch_full("isolate 2"), 0);
    assert_string_equal(fake.out, "isolated node 2\n");
    assert_int_equal(extra.isolate_calls, 1);
    assert_int_equal(extra.isolated[0], 1);
    extra.isolate_result = -EINVAL;
    assert_int_equal(dispatch_full("isolate 3"), -EINVAL);
    assert_non_null(strstr(fake.out, "node 3 cannot be isolated"));
    const char *bad[] = { "isolate", "isolate 0", "isolate 4", "isolate 1 2", "isolate x", NULL };
    for (unsigned i = 0; bad[i] != NULL; i++) {
        assert_int_equal(dispatch_full(bad[i]), -EINVAL);
        assert_non_null(strstr(fake.out, "usage: isolate N (a node 1..3)"));
    }
    assert_int_equal(extra.isolate_calls, 2);
    /* Without the callbacks, the commands do not exist. */
    fake.out_len = 0;
    assert_int_equal(dispatch("isolate 2"), -ENOENT);
    assert_non_null(strstr(fake.out, "unknown command 'isolate'"));
    assert_int_equal(dispatch("links"), -ENOENT);
    assert_int_equal(dispatch("traffic"), -ENOENT);
    assert_int_equal(fake.calls, 0);
}

static void test_sim_cmd_run__links_in_topology_format(void **state)
{
    (void)state;
    assert_int_equal(dispatch_full("links"), 0);
    assert_string_equal(fake.out, "nodes 3\nlink 1 2 0.500000 0.250000\nlink 2 3 1.000000 1.000000\n");
    assert_int_equal(dispatch_full("links now"), -EINVAL);
    assert_string_equal(fake.out, "usage: links\n");
    /* Positions of a drawn topology come first; the output parses back into the same links. */
    assert_int_equal(parse_seeded("random 5 40 30 0.5 1\n", 9), 0);
    assert_int_equal(dispatch_full("links"), 0);
    assert_non_null(strstr(fake.out, "nodes 5\nposition 1 20 20\nposition 2 "));
    static sim_topology_t drawn;
    drawn = topo;
    char copy[sizeof(fake.out)];
    memcpy(copy, fake.out, sizeof(copy));
    sim_topology_init(&topo);
    assert_int_equal(sim_topology_parse(&topo, copy, strlen(copy), &err), -EINVAL); /* positions need a range */
    assert_int_equal(err.line, 0);
    assert_int_equal(parse(strstr(copy, "link")), -EINVAL); /* no node count without the first line */
    char *links = strstr(copy, "link");
    char text[sizeof(copy) + 16];
    (void)snprintf(text, sizeof(text), "nodes 5\n%s", links);
    assert_int_equal(parse(text), 0);
    assert_memory_equal(topo.prr_ppm, drawn.prr_ppm, sizeof(topo.prr_ppm));
}

static void test_sim_cmd_run__traffic_goes_to_its_callback(void **state)
{
    (void)state;
    assert_int_equal(dispatch_full("traffic   2001:db8::1 10 5s"), -E2BIG);
    assert_int_equal(extra.traffic_calls, 1);
    assert_string_equal(extra.traffic_args, "2001:db8::1 10 5s");
    assert_ptr_equal(extra.traffic_sim, &full_sim);
    assert_int_equal(dispatch_full("traffic"), -E2BIG);
    assert_string_equal(extra.traffic_args, "");
    assert_int_equal(dispatch_full("help"), 0);
    assert_non_null(strstr(fake.out, "isolate N"));
    assert_non_null(strstr(fake.out, "links"));
    assert_non_null(strstr(fake.out, "traffic ADDR COUNT INTERVAL [SIZE]"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sim_parse_prr__values),
        cmocka_unit_test(test_sim_topology_parse__line_of_two),
        cmocka_unit_test(test_sim_topology_parse__grid_has_four_neighbour_links),
        cmocka_unit_test(test_sim_topology_parse__grid_rectangle),
        cmocka_unit_test(test_sim_topology_parse__explicit_links_override),
        cmocka_unit_test(test_sim_topology_parse__range_positions_routers_collisions),
        cmocka_unit_test(test_sim_topology_parse__largest),
        cmocka_unit_test(test_sim_topology_parse__errors_name_line_and_cause),
        cmocka_unit_test(test_sim_topology_parse__longest_line_is_accepted),
        cmocka_unit_test(test_sim_topology_parse__prr_range_draws_each_direction),
        cmocka_unit_test(test_sim_topology_parse__random_is_connected_and_seeded),
        cmocka_unit_test(test_sim_topology_parse__random_and_range_errors),
        cmocka_unit_test(test_sim_parse_duration__units),
        cmocka_unit_test_setup(test_sim_cmd_run__node_command, setup_fake),
        cmocka_unit_test_setup(test_sim_cmd_run__all_runs_each_node_prefixed, setup_fake),
        cmocka_unit_test_setup(test_sim_cmd_run__run_and_time, setup_fake),
        cmocka_unit_test_setup(test_sim_cmd_run__help_lists_simulator_then_node_commands, setup_fake),
        cmocka_unit_test_setup(test_sim_cmd_run__nothing_to_do, setup_fake),
        cmocka_unit_test_setup(test_sim_cmd_run__errors, setup_fake),
        cmocka_unit_test_setup(test_sim_cmd_run__isolate, setup_full),
        cmocka_unit_test_setup(test_sim_cmd_run__links_in_topology_format, setup_full),
        cmocka_unit_test_setup(test_sim_cmd_run__traffic_goes_to_its_callback, setup_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
