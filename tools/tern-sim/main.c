/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim: many Tern nodes in one process, under virtual time, over
 *        the simulated IEEE 802.15.4 radio medium.
 *
 *     tern-sim TOPOLOGY [--seed N] [--script FILE] [--pcap FILE] [--realtime]
 *              [--tap IFNAME[@NODE]]
 *
 * One event loop with a virtual clock serves every node's stack and the
 * medium (an executor may serve several stacks, stack.h). Each node is set up
 * as docs/IEEE802154.md's node order says: stack, its own packet buffer, IPv6,
 * UDP, 6LoWPAN, a simulated radio, the IEEE 802.15.4 interface `wpan0`, the
 * 6LoWPAN adaptation on it, IPv6 on it (and router mode when the topology
 * says so). Each node has a shell with tern-node's commands.
 *
 * Commands (sim_cmd.h) come from --script, then from standard input until
 * its end. Time moves only when a command lets it: `run DURATION`, or a
 * node's command that waits for the stack (ping runs the loop until its last
 * answer or timeout: the virtual clock jumps from event to event, so a
 * 10-second ping takes milliseconds). After every line the loop runs until
 * idle without advancing time, as tern-node does.
 *
 * --realtime paces virtual time to the wall clock while a command runs: the
 * clock read sleeps until the wall clock has caught up with the virtual
 * time it returns, so events happen no earlier than their wall-clock time.
 * Between commands (waiting for input) virtual time stands still.
 *
 * --tap gives node NODE (default 1) an Ethernet interface over the Linux TAP
 * device IFNAME; the simulation then runs on the wall clock and serves the
 * TAP device and the mesh while it waits for commands (sim_tap.h). A border
 * router is that node as RPL root (docs/RPL.md, "Border router").
 *
 * docs/TERN-SIM.md describes the topology format, the node addresses and the
 * memory each node gets.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tern-node/cmd_pcap.h"
#include "sim_cmd.h"
#include "sim_pcap.h"
#include "sim_traffic.h"
#include "sim_tap.h"
#include "topology.h"
#include "tern/ipv6/ipv6.h"
#include "tern/link/ieee802154.h"
#include "tern/netapi.h"
#include "tern/netdev/radio_medium.h"
#include "tern/netdev/sim_radio.h"
#include "tern/netif.h"
#include "tern/port/loop.h"
#include "tern/rpl/rpl.h"
#include "tern/shell_rpl.h"
#include "tern/shell.h"
#include "tern/shell_ping.h"
#include "tern/shell_udp.h"
#include "tern/sixlowpan/sixlowpan.h"
#include "tern/stack.h"
#include "tern/udp.h"

_Static_assert(SIM_MAX_NODES <= TERN_CONF_RADIO_MEDIUM_MAX_RADIOS,
               "tern-sim's medium must hold SIM_MAX_NODES radios (TERN_CONF_RADIO_MEDIUM_MAX_RADIOS)");

/**
 * Packet buffer of each node, bytes. A 1232-byte echo (the largest that fits
 * the IPv6 minimum MTU, RFC 8200 §5) is a 1280-byte datagram: the receiver
 * holds it while reassembling (RFC 4944 §5.3) and then its reply while that is
 * fragmented, the sender its request while sending it in 14 fragments and the
 * reply while reassembling it; a router or a sweep may have one datagram in
 * each direction at once, plus the frames queued on the interface. 16 KiB
 * covers that several times over (the largest high-water mark seen in the
 * tests is below 8 KiB); the packet buffers of 64 nodes take 1 MiB.
 */
#define SIM_PKTBUF_SIZE 16384u

/** PAN ID every node uses (IEEE 802.15.4-2006 §7.5.2: any value but the broadcast 0xffff). */
#define SIM_PAN_ID 0x7e57u

/** RSSI of frames over explicit (`link`, `line`, `grid`) links, dBm: a good, unsaturated signal. */
#define SIM_LINK_RSSI_DBM (-60)

/** Interface name of every node's radio. */
#define SIM_IFNAME "wpan0"

/** A clock that is virtual but, with --realtime, not ahead of the wall clock. */
typedef struct {
    tern_vclock_t vclock;    /**< first: the loop advances it as a tern_vclock_t */
    bool realtime;           /**< pace reads to the wall clock */
    uint64_t wall_origin_us; /**< wall clock at the start of the running command */
    uint64_t virt_origin_us; /**< virtual time then */
} sim_clock_t;

struct sim;

/** One node: its stack and everything the stack's modules keep. */
typedef struct {
    struct sim *sim;
    unsigned number;                 /**< 1-based */
    char name[12];                   /**< "node1" ... */
    bool at_line_start;              /**< the node's output is at the start of a line */
    tern_stack_t stack;
    TERN_PKTBUF_STORAGE(arena, SIM_PKTBUF_SIZE);
    tern_ipv6_t ipv6;
    tern_udp_t udp;
    tern_sixlowpan_t lowpan;
    tern_rpl_t rpl;                  /**< RPL on wpan0: idle until `rpl root` / `rpl router` / `rpl leaf` */
    tern_sim_radio_t radio;
    tern_ieee802154_link_t mac;
    tern_netif_t netif;
    tern_shell_t shell;
    tern_shell_core_cmds_t core_cmds;
    tern_shell_netif_cmds_t netif_cmds;
    tern_shell_ipv6_t ipv6_cmds;
    tern_shell_udp_t udp_cmds;
    tern_shell_ping_t ping_cmds;
    tern_shell_rpl_t rpl_cmds;
    node_pcap_cmds_t pcap_cmds;
} sim_node_t;

/** The whole simulation, in one static object (no heap). */
typedef struct sim {
    sim_clock_t clock;
    tern_loop_t loop;
    tern_radio_medium_t medium;
    sim_topology_t topo;
    tern_pcap_t pcap;
    bool pcap_on;
    uint64_t seed;         /**< --seed: the medium's and every node's randomness */
    unsigned count;        /**< nodes set up */
    int running;           /**< index of the node whose `N CMD` runs (output unprefixed), or -1 */
    sim_node_t nodes[SIM_MAX_NODES];
    sim_traffic_t traffic; /**< `traffic`: periodic UDP to one address and back */
    bool has_tap;          /**< --tap: real time, one node on a TAP device */
    sim_tap_t tap;
} sim_t;

/* ------------------------------------------------------------ clock */

static uint64_t wall_us(void)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t sim_clock_now(const tern_clock_t *clock)
{
    const sim_clock_t *c = (const sim_clock_t *)(const void *)clock;
    uint64_t now = c->vclock.now;
    if (c->realtime && now > c->virt_origin_us) {
        uint64_t due = c->wall_origin_us + (now - c->virt_origin_us);
        uint64_t wall = wall_us();
        if (wall < due) {
            struct timespec ts = { .tv_sec = (time_t)((due - wall) / 1000000u),
                                   .tv_nsec = (long)(((due - wall) % 1000000u) * 1000u) };
            (void)nanosleep(&ts, NULL);
        }
    }
    return now;
}

static void sim_clock_init(sim_clock_t *c, bool realtime)
{
    tern_vclock_init(&c->vclock, 0);
    c->vclock.base.now_us = sim_clock_now;
    c->realtime = realtime;
}

/** A command starts: pace from here (virtual time stood still while waiting for input). */
static void sim_clock_restart(sim_clock_t *c)
{
    c->wall_origin_us = wall_us();
    c->virt_origin_us = c->vclock.now;
}

/* ------------------------------------------------------------ output */

/* Node output: "N: " at each line start unless the node runs its own `N CMD`. */
static void node_write(void *ctx, const char *text, size_t len)
{
    sim_node_t *node = ctx;
    bool prefix = node->sim->running != (int)(node->number - 1u);
    while (len > 0) {
        if (prefix && node->at_line_start) {
            printf("%u: ", node->number);
        }
        const char *nl = memchr(text, '\n', len);
        size_t n = (nl != NULL) ? (size_t)(nl - text) + 1u : len;
        fwrite(text, 1, n, stdout);
        node->at_line_start = (nl != NULL);
        text += n;
        len -= n;
    }
    fflush(stdout);
}

static void sim_write(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    fwrite(text, 1, len, stdout);
    fflush(stdout);
}

/* ------------------------------------------------------------ command callbacks */

static int cb_node_run(void *ctx, unsigned index, char *line, bool prefixed)
{
    sim_t *sim = ctx;
    sim_node_t *node = &sim->nodes[index];
    sim->running = prefixed ? -1 : (int)index;
    node->at_line_start = true;
    sim_clock_restart(&sim->clock);
    int res = tern_shell_run(&node->shell, line);
    /* The command finishes before the next line: let the stacks settle (no time passes). */
    (void)tern_executor_run_until_idle(&sim->loop.base);
    if (!node->at_line_start) {
        node_write(node, "\n", 1);
    }
    sim->running = -1;
    return res;
}

static int cb_run_until(void *ctx, uint64_t deadline_us)
{
    sim_t *sim = ctx;
    sim_clock_restart(&sim->clock);
    return tern_executor_run_until(&sim->loop.base, deadline_us);
}

/* isolate N: the node's radio leaves the medium's links (it keeps running). */
static int cb_isolate(void *ctx, unsigned index)
{
    sim_t *sim = ctx;
    return tern_radio_medium_isolate(&sim->medium, (uint16_t)index);
}

static int cb_traffic(void *ctx, const sim_cmd_t *cmd, char *args)
{
    sim_t *sim = ctx;
    return sim_traffic_cmd(&sim->traffic, cmd, args);
}

static uint64_t cb_now(void *ctx)
{
    sim_t *sim = ctx;
    if (sim->has_tap) {
        return tern_executor_now(&sim->loop.base);
    }
    return sim->clock.vclock.now;
}

/* ------------------------------------------------------------ setup */

/**
 * Extended address of node @p number: 02:00:00:00:00:00:HH:LL with the node
 * number in the last two bytes. The locally administered bit (0x02) is set,
 * as for any address that is not a registered EUI-64; the IPv6 identifier
 * inverts it (RFC 4291 appendix A, RFC 4944 §6), so node N's link-local
 * address is fe80::N (hexadecimal: node 10 is fe80::a).
 */
static void node_eui64(unsigned number, uint8_t eui[8])
{
    memset(eui, 0, 8);
    eui[0] = 0x02;
    eui[6] = (uint8_t)(number >> 8);
    eui[7] = (uint8_t)number;
}

/** A non-zero 32-bit seed for node @p number from the run's @p seed (splitmix64 finaliser). */
static uint32_t node_seed(uint64_t seed, unsigned number)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ull * (uint64_t)number;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    uint32_t v = (uint32_t)(z ^ (z >> 32));
    return (v != 0u) ? v : 1u;
}

static int node_setup(sim_t *sim, unsigned index)
{
    sim_node_t *n = &sim->nodes[index];
    n->sim = sim;
    n->number = index + 1u;
    n->at_line_start = true;
    (void)snprintf(n->name, sizeof(n->name), "node%u", n->number);
    tern_executor_t *ex = &sim->loop.base;
    int res = tern_stack_init(&n->stack, n->name, ex);
    if (res == 0) {
        res = tern_pktbuf_init(&n->stack.pktbuf, n->arena, sizeof(n->arena), &ex->lock);
    }
    if (res == 0) {
        res = tern_ipv6_init(&n->ipv6, &n->stack);
    }
    if (res == 0) {
        /* Reproducible runs: IPv6 and UDP seed their randomness (DAD, solicitation and
         * MLD delays, ReachableTime; ephemeral ports) from their addresses, which change
         * from run to run with address space randomisation. Seed them from --seed and
         * the node number instead. */
        tern_ipv6_seed(&n->ipv6, node_seed(sim->seed, n->number));
        res = tern_udp_init(&n->udp, &n->stack, &n->ipv6);
    }
    if (res == 0) {
        tern_udp_seed(&n->udp, node_seed(sim->seed, n->number) ^ 0x5bd1e995u);
    }
    if (res == 0) {
        res = tern_sixlowpan_init(&n->lowpan, &n->stack);
    }
    if (res == 0) {
        res = tern_rpl_init(&n->rpl, &n->stack, &n->ipv6);
    }
    if (res == 0) {
        tern_rpl_seed(&n->rpl, node_seed(sim->seed, n->number) ^ 0x27d4eb2fu);
        uint8_t eui[8];
        node_eui64(n->number, eui);
        res = tern_sim_radio_init(&n->radio, &sim->medium, eui);
        if (res >= 0 && (unsigned)res != index) {
            res = -EINVAL; /* the medium numbers radios in attach order: links use node indexes */
        }
    }
    if (res >= 0) {
        tern_stack_add_stats(&n->stack, &n->radio.stats_group);
        const uint16_t pan = SIM_PAN_ID;
        res = n->radio.netdev.driver->set(&n->radio.netdev, TERN_NETOPT_NID, &pan, sizeof(pan));
    }
    if (res >= 0) {
        res = tern_ieee802154_netif_add(&n->stack, &n->netif, &n->mac, SIM_IFNAME, &n->radio.netdev);
    }
    if (res == 0) {
        res = tern_sixlowpan_netif_attach(&n->lowpan, &n->netif);
    }
    if (res == 0) {
        res = tern_ipv6_netif_enable(&n->ipv6, &n->netif);
    }
    if (res == 0) {
        res = tern_rpl_netif_enable(&n->rpl, &n->netif);
    }
    if (res == 0 && sim->topo.router[index]) {
        res = tern_ipv6_set_router(&n->ipv6, true);
    }
    if (res < 0) {
        return res;
    }
    tern_shell_init(&n->shell, &n->stack, node_write, n);
    tern_shell_add_core(&n->shell, &n->core_cmds);
    tern_shell_add_netif(&n->shell, &n->netif_cmds);
    tern_shell_add_ipv6(&n->shell, &n->ipv6_cmds, &n->ipv6);
    res = tern_shell_add_udp(&n->shell, &n->udp_cmds, &n->ipv6, &n->udp);
    if (res == 0) {
        res = tern_shell_add_ping(&n->shell, &n->ping_cmds, &n->ipv6);
    }
    if (res == 0) {
        res = tern_shell_add_rpl(&n->shell, &n->rpl_cmds, &n->rpl);
    }
    if (res == 0) {
        res = node_pcap_add(&n->shell, &n->pcap_cmds);
    }
    if (res == 0) {
        res = sim_traffic_add_node(&sim->traffic, &n->stack, &n->ipv6, &n->udp);
    }
    return res;
}

/* The topology's links into the medium (radios attached). */
static int medium_setup(sim_t *sim)
{
    const sim_topology_t *t = &sim->topo;
    tern_radio_medium_set_collisions(&sim->medium, t->collisions);
    if (t->has_range) {
        const tern_radio_range_t range = { .full_range = t->range_full, .max_range = t->range_max };
        int res = tern_radio_medium_set_range(&sim->medium, &range);
        for (unsigned i = 0; res == 0 && i < t->nodes; i++) {
            res = tern_radio_medium_set_position(&sim->medium, (uint16_t)i, t->x[i], t->y[i]);
        }
        if (res < 0) {
            return res;
        }
    }
    /* Explicit and generated links override what the range model gave. */
    for (unsigned from = 0; from < t->nodes; from++) {
        for (unsigned to = 0; to < t->nodes; to++) {
            if (t->link_set[from][to]) {
                int res = tern_radio_medium_link_set(&sim->medium, (uint16_t)from, (uint16_t)to,
                                                     t->prr_ppm[from][to], SIM_LINK_RSSI_DBM);
                if (res < 0) {
                    return res;
                }
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------ main */

static void usage(FILE *out, const char *prog)
{
    fprintf(out,
            "usage: %s TOPOLOGY [options]\n"
            "  -s, --seed N          seed of the medium's random numbers (default 1): same seed, same run\n"
            "  -x, --script FILE     run the commands in FILE first, then those on standard input\n"
            "  -p, --pcap FILE       write every frame on the medium to FILE (pcap, IEEE 802.15.4 with FCS)\n"
            "  -r, --realtime        pace virtual time to the wall clock while commands run\n"
            "  -T, --tap IFNAME[@NODE]\n"
            "                        give node NODE (default 1) an Ethernet interface over the existing\n"
            "                        TAP device IFNAME; the simulation then runs in real time\n"
            "  -h, --help            this text\n"
            "TOPOLOGY is a text file (docs/TERN-SIM.md), e.g. tools/tern-sim/examples/line2.topo.\n"
            "Commands: N CMD (on node N), all CMD, run DURATION, time, help.\n",
            prog);
}

/* Read all of @p path into @p buf. @return its length, or -1 (message printed). */
static long read_topology(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "tern-sim: cannot open topology '%s': %s\n", path, strerror(errno));
        return -1;
    }
    size_t len = fread(buf, 1, size, f);
    bool error = ferror(f) != 0;
    bool more = !error && len == size && fgetc(f) != EOF;
    (void)fclose(f);
    if (error) {
        fprintf(stderr, "tern-sim: cannot read topology '%s'\n", path);
        return -1;
    }
    if (more) {
        fprintf(stderr, "tern-sim: %s: file too large (at most %zu bytes)\n", path, size);
        return -1;
    }
    return (long)len;
}

/* Run every line of @p in. @return 0, or -1 on a read error. */
static int run_lines(sim_t *sim, const sim_cmd_t *cmd, FILE *in)
{
    char line[SIM_CMD_LINE_MAX];
    while (fgets(line, sizeof(line), in) != NULL) {
        size_t len = strlen(line);
        if (len == sizeof(line) - 1u && line[len - 1u] != '\n') {
            int c;
            while ((c = fgetc(in)) != '\n' && c != EOF) {
            }
            printf("tern-sim: line too long (at most %u characters)\n", SIM_CMD_LINE_MAX - 2u);
            continue;
        }
        while (len > 0 && (line[len - 1u] == '\n' || line[len - 1u] == '\r')) {
            line[--len] = '\0';
        }
        (void)sim_cmd_run(cmd, line);
        (void)tern_executor_run_until_idle(&sim->loop.base);
    }
    return ferror(in) ? -1 : 0;
}

/*
 * --tap: standard input through the input thread, the loop serving the mesh
 * and the TAP device while no line is there. @return 0, or 1 when the input
 * thread cannot start.
 */
static int run_input_realtime(sim_t *sim, const sim_cmd_t *cmd)
{
    if (sim_tap_input_start(&sim->tap) < 0) {
        fprintf(stderr, "tern-sim: cannot start the input thread\n");
        return 1;
    }
    char line[SIM_CMD_LINE_MAX];
    bool too_long = false;
    while (sim_tap_next_line(&sim->tap, &sim->loop, line, sizeof(line), &too_long) == 1) {
        if (too_long) {
            printf("tern-sim: line too long (at most %u characters)\n", SIM_CMD_LINE_MAX - 2u);
            continue;
        }
        size_t len = strlen(line);
        while (len > 0 && (line[len - 1u] == '\n' || line[len - 1u] == '\r')) {
            line[--len] = '\0';
        }
        (void)sim_cmd_run(cmd, line);
        (void)tern_executor_run_until_idle(&sim->loop.base);
    }
    return 0;
}

int main(int argc, char **argv)
{
    static sim_t sim;
    static char topo_text[64 * 1024];
    static const struct option options[] = {
        { "seed", required_argument, NULL, 's' },   { "script", required_argument, NULL, 'x' },
        { "pcap", required_argument, NULL, 'p' },   { "realtime", no_argument, NULL, 'r' },
        { "help", no_argument, NULL, 'h' },         { "tap", required_argument, NULL, 'T' },
        { NULL, 0, NULL, 0 },
    };
    uint64_t seed = 1;
    const char *script = NULL, *pcap_path = NULL;
    bool realtime = false;
    int opt;
    while ((opt = getopt_long(argc, argv, "s:x:p:rhT:", options, NULL)) != -1) {
        switch (opt) {
        case 's': {
            char *end = NULL;
            errno = 0;
            unsigned long long v = strtoull(optarg, &end, 0);
            if (end == optarg || *end != '\0' || errno != 0 || optarg[0] == '-') {
                fprintf(stderr, "tern-sim: bad --seed '%s' (want a number)\n", optarg);
                return 2;
            }
            seed = (uint64_t)v;
            break;
        }
        case 'x':
            script = optarg;
            break;
        case 'p':
            pcap_path = optarg;
            break;
        case 'r':
            realtime = true;
            break;
        case 'T':
            if (sim.has_tap || sim_tap_parse(&sim.tap, optarg) < 0) {
                fprintf(stderr, "tern-sim: bad --tap '%s' (want one IFNAME[@NODE])\n", optarg);
                return 2;
            }
            sim.has_tap = true;
            break;
        case 'h':
            usage(stdout, argv[0]);
            return 0;
        default:
            usage(stderr, argv[0]);
            return 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "tern-sim: %s\n", (optind == argc) ? "no TOPOLOGY file" : "more than one TOPOLOGY file");
        usage(stderr, argv[0]);
        return 2;
    }
    const char *topo_path = argv[optind];
    long topo_len = read_topology(topo_path, topo_text, sizeof(topo_text));
    if (topo_len < 0) {
        return 2;
    }
    sim_topology_init(&sim.topo);
    sim.topo.seed = seed; /* `random` and PRR ranges: the same seed, the same topology */
    sim_topology_error_t err;
    if (sim_topology_parse(&sim.topo, topo_text, (size_t)topo_len, &err) < 0) {
        if (err.line > 0) {
            fprintf(stderr, "tern-sim: %s:%u: %s\n", topo_path, err.line, err.message);
        } else {
            fprintf(stderr, "tern-sim: %s: %s\n", topo_path, err.message);
        }
        return 2;
    }
    if (sim.has_tap && sim.tap.node > sim.topo.nodes) {
        fprintf(stderr, "tern-sim: --tap: no node %u (the topology has %u)\n", sim.tap.node, sim.topo.nodes);
        return 2;
    }
    FILE *script_file = NULL;
    if (script != NULL) {
        script_file = fopen(script, "r");
        if (script_file == NULL) {
            fprintf(stderr, "tern-sim: cannot open script '%s': %s\n", script, strerror(errno));
            return 2;
        }
    }

    sim.running = -1;
    sim_traffic_init(&sim.traffic);
    sim.seed = seed;
    sim_clock_init(&sim.clock, realtime);
    int res = 0;
    if (sim.has_tap) {
        res = sim_tap_loop_init(&sim.tap, &sim.loop);
    } else {
        tern_loop_init(&sim.loop, &sim.clock.vclock.base);
    }
    if (res == 0) {
        res = tern_radio_medium_init(&sim.medium, &sim.loop.base, seed);
    }
    for (unsigned i = 0; res == 0 && i < sim.topo.nodes; i++) {
        res = node_setup(&sim, i);
        sim.count = i + 1u;
        if (res == 0 && sim.has_tap && sim.tap.node == i + 1u) {
            res = sim_tap_attach(&sim.tap, &sim.nodes[i].stack, &sim.nodes[i].ipv6);
        }
    }
    if (res == 0) {
        res = medium_setup(&sim);
    }
    if (res == 0) {
        res = tern_pcap_init(&sim.pcap);
    }
    if (res == 0 && pcap_path != NULL) {
        res = sim_pcap_start(&sim.pcap, &sim.medium, pcap_path);
        if (res < 0) {
            fprintf(stderr, "tern-sim: cannot write pcap '%s': %s\n", pcap_path, strerror(-res));
            return 2;
        }
        sim.pcap_on = true;
    }
    if (res < 0) {
        fprintf(stderr, "tern-sim: setting up node %u failed: %s\n", sim.count, strerror(-res));
        if (sim.has_tap) {
            sim_tap_stop(&sim.tap);
        }
        return 1;
    }
    (void)tern_executor_run_until_idle(&sim.loop.base);

    const sim_cmd_t cmd = { .ctx = &sim, .nodes = sim.count, .node_run = cb_node_run,
                            .run_until = cb_run_until, .now = cb_now, .write = sim_write,
                            .isolate = cb_isolate, .traffic = cb_traffic, .topo = &sim.topo };
    int status = 0;
    if (script_file != NULL) {
        if (run_lines(&sim, &cmd, script_file) < 0) {
            fprintf(stderr, "tern-sim: error reading script '%s'\n", script);
            status = 1;
        }
        (void)fclose(script_file);
    }
    if (status == 0 && sim.has_tap) {
        status = run_input_realtime(&sim, &cmd);
    } else if (status == 0 && run_lines(&sim, &cmd, stdin) < 0) {
        fprintf(stderr, "tern-sim: error reading standard input\n");
        status = 1;
    }
    fflush(stdout);

    /* Captures end while the interfaces still answer; then check every node's buffer. */
    for (unsigned i = 0; i < sim.count; i++) {
        node_pcap_stop_all(&sim.nodes[i].pcap_cmds);
    }
    sim_traffic_close(&sim.traffic);
    if (sim.pcap_on && sim_pcap_stop(&sim.pcap, &sim.medium) < 0) {
        fprintf(stderr, "tern-sim: error writing pcap '%s'\n", pcap_path);
        status = 1;
    }
    tern_pcap_destroy(&sim.pcap);
    if (sim.has_tap) {
        sim_tap_stop(&sim.tap); /* no more posts from the TAP reader */
    }
    (void)tern_executor_run_until_idle(&sim.loop.base);
    tern_executor_stop(&sim.loop.base);
    for (unsigned i = 0; i < sim.count; i++) {
        if (tern_pktbuf_check(&sim.nodes[i].stack.pktbuf) != 0) {
            fprintf(stderr, "tern-sim: node %u: packet buffer inconsistent at exit\n", i + 1u);
            status = 1;
        }
    }
    return status;
}
