/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-node: one Tern node with real interfaces and a shell on stdin.
 *
 * Reads one shell command per line from standard input, runs it, lets the
 * stack finish what the command started (run until idle), and prints the
 * output before reading the next line. Exits at end of input.
 *
 * Interfaces with real traffic (TAP, ZEP) must be served while the node waits for
 * input. Under the threaded executor the modules have their own threads and
 * the main thread may block in fgets(). Under the event loop the main thread
 * *is* the loop: a stdin thread reads lines and hands each one over (mutex +
 * condition variable), waking the loop through the loop's own POSIX wake-up
 * (tern_posix_loop_sync_t); the main thread runs the loop, sleeping in the
 * loop's wait until a post, a timer or a line arrives, and runs each line
 * on the loop's thread, followed by run-until-idle, as before.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_pcap.h"
#include "tern/link/ethernet.h"
#include "tern/link/ieee802154.h"
#include "tern/netdev/loopback.h"
#include "tern/netdev/test.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netif.h"
#include "tern/port/posix.h"
#include "tern/port/tap.h"
#include "tern/port/zep.h"
#include "tern/shell.h"
#include "tern/shell_ping.h"
#include "tern/shell_udp.h"
#include "tern/sixlowpan/sixlowpan.h"
#include "tern/rpl/rpl.h"
#include "tern/shell_rpl.h"
#include "tern/stack.h"

/** Most --tap interfaces. */
#define NODE_TAP_MAX 4

/** Most --zep interfaces. */
#define NODE_ZEP_MAX 4

/**
 * Packet buffer of the node without --pktbuf, bytes. A host can spare more
 * than TERN_CONF_PKTBUF_SIZE (sized for microcontrollers, 6144 by default):
 * 32 KiB holds an 8000-byte UDP datagram or a 4000-byte echo while it is
 * reassembled or sent in fragments, next to the frames queued behind it, so
 * that a node on a TAP device takes what Linux sends without options
 * (high-water marks seen in tests/integration: about 10 KB receiving such a
 * datagram, 18 KB sending one with `udp send -s 8000`, whose pattern is built
 * in the buffer too).
 */
#define NODE_PKTBUF_DEFAULT 32768u

/** Largest --pktbuf, bytes. */
#define NODE_PKTBUF_MAX 262144u

/** One interface over a TAP device. */
typedef struct {
    tern_netdev_tap_t dev;
    tern_ethernet_link_t eth;
    tern_netif_t netif;
    const char *ifname;
    uint8_t mac[6];
    bool has_mac;
} node_tap_t;

/**
 * One IEEE 802.15.4 interface (with 6LoWPAN) over a ZEP radio: --zep
 * LOCAL,REMOTE, named wpan0, wpan1, ... in order.
 */
typedef struct {
    tern_netdev_zep_t dev;
    tern_ieee802154_link_t mac;
    tern_netif_t netif;
    const char *spec;          /**< the --zep argument */
    char local[TERN_NETDEV_ZEP_ENDPOINT_LEN];
    char remote[TERN_NETDEV_ZEP_ENDPOINT_LEN];
    char ifname[16];           /**< "wpanN" */
    char stats_name[16];       /**< "zep", "zep1", ...: the device's counter group */
    uint8_t eui64[8];
    bool has_eui64;            /**< --eui64 given for it */
} node_zep_t;

/** A line handed from the stdin thread to the loop's thread. */
typedef struct {
    pthread_mutex_t mutex;
    pthread_cond_t cond;   /**< signalled when the main thread took the line */
    pthread_t thread;
    char line[TERN_CONF_SHELL_LINE_MAX];
    bool ready;            /**< @ref line waits for the main thread */
    bool too_long;         /**< the waiting line was cut */
    bool eof;              /**< no more lines */
    tern_posix_loop_sync_t *sync; /**< the loop's wake-up */
} stdin_feed_t;

/** Everything the node owns, in one static object (no heap). */
typedef struct {
    tern_loop_t loop;
    tern_posix_loop_sync_t loop_sync;
    tern_threaded_t threaded;
    tern_executor_t *exec;
    tern_stack_t stack;
    tern_ipv6_t ipv6;
    tern_shell_ipv6_t ipv6_cmds;
    tern_udp_t udp;
    tern_shell_udp_t udp_cmds;
    tern_shell_ping_t ping_cmds;
    tern_netdev_loopback_t lo_dev;
    tern_netif_t lo;
    tern_netdev_test_t test_dev;
    tern_netif_t test;
    tern_shell_t shell;
    tern_shell_core_cmds_t core_cmds;
    tern_shell_netif_cmds_t netif_cmds;
    node_pcap_cmds_t pcap_cmds;
    node_tap_t taps[NODE_TAP_MAX];
    unsigned tap_count;
    tern_sixlowpan_t lowpan;
    tern_rpl_t rpl;                /**< RPL on the --zep interfaces (idle until `rpl root|router|leaf`) */
    tern_shell_rpl_t rpl_cmds;
    node_zep_t zeps[NODE_ZEP_MAX];
    unsigned zep_count;
    stdin_feed_t feed;
} node_t;

static void write_stdout(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    fwrite(text, 1, len, stdout);
    fflush(stdout); /* datagrams printed by `udp server` arrive between commands */
}

static void usage(FILE *out, const char *prog)
{
    fprintf(out,
            "usage: %s [options]\n"
            "  -l, --loopback            add a loopback interface 'lo' (IPv6 on top)\n"
            "  -t, --test                add a test-device interface 'test0'\n"
            "  -T, --tap IFNAME          add an Ethernet interface over the existing TAP device\n"
            "                            IFNAME (named like it; may repeat)\n"
            "  -m, --mac aa:bb:cc:dd:ee:ff\n"
            "                            MAC of the next --tap (default: derived from IFNAME)\n"
            "  -z, --zep LOCAL_ADDR:PORT,REMOTE_ADDR:PORT\n"
            "                            add an IEEE 802.15.4 interface with 6LoWPAN over ZEP v2 in UDP:\n"
            "                            receive on LOCAL, send to REMOTE (IPv6 in brackets,\n"
            "                            e.g. [::1]:17754); named wpan0, wpan1, ... (may repeat)\n"
            "  -E, --eui64 aa:bb:cc:dd:ee:ff:00:11\n"
            "                            extended address of the next --zep (default: derived\n"
            "                            from the node name and LOCAL)\n"
            "  -c, --channel N           802.15.4 channel of the ZEP interfaces, 11..26 (default %u)\n"
            "  -P, --pan ID              PAN ID of the ZEP interfaces, 0..0xfffe (default 0x%04x)\n"
            "  -e, --executor loop|threaded\n"
            "                            event loop in one thread (default) or one thread per module\n"
            "  -n, --name NAME           node name (default 'tern')\n"
            "  -r, --router              act as an IPv6 router: send Router Advertisements (RFC 4861 §6.2)\n"
            "  -p, --pktbuf BYTES        packet buffer size, 256..%u (default %u: an 8000-byte datagram\n"
            "                            being reassembled or fragmented, plus the frames in flight)\n"
            "  -h, --help                this text\n"
            "Without interface options, --loopback is assumed.\n"
            "Commands are read from standard input, one per line; type 'help'.\n",
            prog, TERN_NETDEV_ZEP_DEFAULT_CHANNEL, TERN_NETDEV_ZEP_DEFAULT_PAN_ID, NODE_PKTBUF_MAX,
            NODE_PKTBUF_DEFAULT);
}

/* Parse aa:bb:cc:dd:ee:ff (a unicast MAC). @return 0 or -EINVAL. */
static int parse_mac(const char *text, uint8_t mac[6])
{
    unsigned v[6];
    char end;
    if (sscanf(text, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &end) !=
        6) {
        return -EINVAL;
    }
    for (int i = 0; i < 6; i++) {
        mac[i] = (uint8_t)v[i];
    }
    return ((mac[0] & 0x01u) != 0) ? -EINVAL : 0;
}

/* Parse an EUI-64 aa:bb:cc:dd:ee:ff:00:11 (unicast: I/G bit clear). @return 0 or -EINVAL. */
static int parse_eui64(const char *text, uint8_t eui64[8])
{
    unsigned v[8];
    char end;
    if (sscanf(text, "%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
               &v[7], &end) != 8) {
        return -EINVAL;
    }
    for (int i = 0; i < 8; i++) {
        eui64[i] = (uint8_t)v[i];
    }
    return ((eui64[0] & 0x01u) != 0) ? -EINVAL : 0;
}

/* Split --zep LOCAL,REMOTE into @p zep and check both endpoints. @return 0 or -EINVAL. */
static int parse_zep(const char *spec, node_zep_t *zep)
{
    const char *comma = strchr(spec, ',');
    if (comma == NULL || (size_t)(comma - spec) >= sizeof(zep->local) ||
        strlen(comma + 1) >= sizeof(zep->remote)) {
        return -EINVAL;
    }
    memcpy(zep->local, spec, (size_t)(comma - spec));
    zep->local[comma - spec] = '\0';
    memcpy(zep->remote, comma + 1, strlen(comma + 1) + 1u);
    struct sockaddr_storage local, remote;
    socklen_t local_len, remote_len;
    if (tern_netdev_zep_parse_endpoint(zep->local, &local, &local_len) < 0 ||
        tern_netdev_zep_parse_endpoint(zep->remote, &remote, &remote_len) < 0 ||
        local.ss_family != remote.ss_family) {
        return -EINVAL;
    }
    return 0;
}

/*
 * One 802.15.4 interface over ZEP, set up in the order of the contract:
 * radio, 802.15.4 interface, 6LoWPAN on it (IPv6 is enabled later, on every
 * interface). Channel and PAN ID go to the radio before the interface reads
 * them from it.
 */
static int add_zep(node_t *node, node_zep_t *zep, unsigned index, const char *name, uint16_t channel,
                   uint16_t pan_id)
{
    if (!zep->has_eui64) {
        /* Stable across restarts, distinct for each local endpoint of a host. */
        char seed[TERN_NETDEV_ZEP_ENDPOINT_LEN + 64];
        (void)snprintf(seed, sizeof(seed), "%s@%s", name, zep->local);
        tern_netdev_zep_default_eui64(seed, zep->eui64);
    }
    (void)snprintf(zep->ifname, sizeof(zep->ifname), "wpan%u", index);
    int res = tern_netdev_zep_setup(&zep->dev, zep->local, zep->remote, zep->eui64);
    if (res < 0) {
        fprintf(stderr, "tern-node: cannot open ZEP socket on %s: %s\n", zep->local, strerror(-res));
        return res;
    }
    tern_netdev_t *dev = &zep->dev.netdev;
    if (dev->driver->set(dev, TERN_NETOPT_CHANNEL, &channel, sizeof(channel)) < 0 ||
        dev->driver->set(dev, TERN_NETOPT_NID, &pan_id, sizeof(pan_id)) < 0) {
        tern_netdev_zep_stop(&zep->dev);
        return -EINVAL;
    }
    if (index == 0) {
        (void)snprintf(zep->stats_name, sizeof(zep->stats_name), "zep");
    } else {
        (void)snprintf(zep->stats_name, sizeof(zep->stats_name), "zep%u", index);
    }
    zep->dev.stats_group.name = zep->stats_name;
    res = tern_ieee802154_netif_add(&node->stack, &zep->netif, &zep->mac, zep->ifname, dev);
    if (res == 0) {
        res = tern_sixlowpan_netif_attach(&node->lowpan, &zep->netif);
    }
    if (res < 0) {
        fprintf(stderr, "tern-node: cannot add 802.15.4 interface %s over ZEP: %s\n", zep->ifname,
                strerror(-res));
        tern_netdev_zep_stop(&zep->dev);
        return res;
    }
    tern_stack_add_stats(&node->stack, &zep->dev.stats_group);
    return 0;
}

static int add_tap(node_t *node, node_tap_t *tap)
{
    int res = tern_netdev_tap_setup(&tap->dev, tap->ifname, tap->has_mac ? tap->mac : NULL);
    if (res < 0) {
        fprintf(stderr, "tern-node: bad TAP interface name '%s'\n", tap->ifname);
        return res;
    }
    if (strlen(tap->ifname) >= TERN_CONF_NETIF_NAME_LEN) {
        fprintf(stderr, "tern-node: interface name '%s' shortened to %d characters\n", tap->ifname,
                TERN_CONF_NETIF_NAME_LEN - 1);
    }
    res = tern_ethernet_netif_add(&node->stack, &tap->netif, &tap->eth, tap->ifname, &tap->dev.netdev);
    if (res < 0) {
        fprintf(stderr, "tern-node: cannot attach to TAP device '%s': %s%s\n", tap->ifname,
                strerror(-res),
                (res == -ENODEV) ? " (create it first: ip tuntap add dev NAME mode tap)" : "");
        tern_netdev_tap_stop(&tap->dev);
    }
    return res;
}

/* ------------------------------------------------------------ input */

/* The stdin thread: read lines, hand each over, wake the loop. */
static void *stdin_thread(void *arg)
{
    stdin_feed_t *feed = arg;
    char buf[TERN_CONF_SHELL_LINE_MAX];
    for (;;) {
        bool eof = (fgets(buf, sizeof(buf), stdin) == NULL);
        bool too_long = false;
        if (!eof) {
            size_t len = strlen(buf);
            if (len == sizeof(buf) - 1 && buf[len - 1] != '\n') {
                int c;
                while ((c = getchar()) != '\n' && c != EOF) {
                }
                too_long = true;
            }
        }
        (void)pthread_mutex_lock(&feed->mutex);
        while (feed->ready) {
            (void)pthread_cond_wait(&feed->cond, &feed->mutex);
        }
        if (eof) {
            feed->eof = true;
        } else {
            memcpy(feed->line, buf, sizeof(buf));
            feed->too_long = too_long;
            feed->ready = true;
        }
        (void)pthread_mutex_unlock(&feed->mutex);
        feed->sync->platform.wake(feed->sync->platform.ctx);
        if (eof) {
            return NULL;
        }
    }
}

/**
 * Under the loop: run the stack until the stdin thread has a line (or input
 * ended), sleeping in the loop's wait when there is nothing to do.
 * @return 1 with the line in @p line (@p too_long set), 0 at end of input.
 */
static int loop_next_line(node_t *node, char *line, size_t size, bool *too_long)
{
    stdin_feed_t *feed = &node->feed;
    tern_executor_t *ex = &node->loop.base;
    for (;;) {
        while (tern_loop_step(&node->loop) != 0) {
        }
        (void)pthread_mutex_lock(&feed->mutex);
        if (feed->ready) {
            memcpy(line, feed->line, size);
            *too_long = feed->too_long;
            feed->ready = false;
            (void)pthread_cond_signal(&feed->cond);
            (void)pthread_mutex_unlock(&feed->mutex);
            return 1;
        }
        bool eof = feed->eof;
        (void)pthread_mutex_unlock(&feed->mutex);
        if (eof) {
            return 0;
        }
        /* Sleep until a post (device, timer re-plan), a line (the stdin
         * thread wakes the same wait) or the next timer. A wake between the
         * check above and this wait is kept pending: nothing is lost. */
        tern_lock_acquire(&ex->lock);
        uint64_t next = tern_timerq_next(&ex->timers);
        tern_lock_release(&ex->lock);
        node->loop_sync.platform.wait(node->loop_sync.platform.ctx, next);
    }
}

/** The threaded executor serves itself: just read. Same contract as loop_next_line. */
static int blocking_next_line(char *line, size_t size, bool *too_long)
{
    if (fgets(line, (int)size, stdin) == NULL) {
        return 0;
    }
    size_t len = strlen(line);
    *too_long = false;
    if (len == size - 1 && line[len - 1] != '\n') {
        int c;
        while ((c = getchar()) != '\n' && c != EOF) {
        }
        *too_long = true;
    }
    return 1;
}

static int start_executor(node_t *node, const char *kind)
{
    const tern_clock_t *clock = tern_posix_clock();
    if (strcmp(kind, "loop") == 0) {
        tern_loop_init(&node->loop, clock);
        int res = tern_posix_loop_bind(&node->loop, &node->loop_sync);
        node->exec = &node->loop.base;
        return res;
    }
    if (strcmp(kind, "threaded") == 0) {
        node->exec = &node->threaded.base;
        return tern_threaded_init(&node->threaded, clock);
    }
    fprintf(stderr, "tern-node: unknown executor '%s' (want loop or threaded)\n", kind);
    return -EINVAL;
}

int main(int argc, char **argv)
{
    static node_t node;
    static TERN_PKTBUF_STORAGE(big_arena, NODE_PKTBUF_MAX); /* --pktbuf */
    size_t pktbuf_size = NODE_PKTBUF_DEFAULT;
    static const struct option options[] = {
        { "loopback", no_argument, NULL, 'l' },  { "test", no_argument, NULL, 't' },
        { "executor", required_argument, NULL, 'e' }, { "name", required_argument, NULL, 'n' },
        { "tap", required_argument, NULL, 'T' },  { "mac", required_argument, NULL, 'm' },
        { "router", no_argument, NULL, 'r' },    { "pktbuf", required_argument, NULL, 'p' },    { "help", no_argument, NULL, 'h' },
        { "zep", required_argument, NULL, 'z' }, { "eui64", required_argument, NULL, 'E' },
        { "channel", required_argument, NULL, 'c' }, { "pan", required_argument, NULL, 'P' },
        { NULL, 0, NULL, 0 },
    };
    bool want_lo = false, want_test = false, want_router = false;
    uint8_t next_mac[6];
    bool have_mac = false;
    uint8_t next_eui64[8];
    bool have_eui64 = false;
    uint16_t channel = TERN_NETDEV_ZEP_DEFAULT_CHANNEL;
    uint16_t pan_id = TERN_NETDEV_ZEP_DEFAULT_PAN_ID;
    const char *executor = "loop";
    const char *name = "tern";
    int opt;
    while ((opt = getopt_long(argc, argv, "lte:n:T:m:rp:hz:E:c:P:", options, NULL)) != -1) {
        switch (opt) {
        case 'l':
            want_lo = true;
            break;
        case 't':
            want_test = true;
            break;
        case 'e':
            executor = optarg;
            break;
        case 'n':
            name = optarg;
            break;
        case 'T': {
            if (node.tap_count == NODE_TAP_MAX) {
                fprintf(stderr, "tern-node: at most %d --tap interfaces\n", NODE_TAP_MAX);
                return 2;
            }
            node_tap_t *tap = &node.taps[node.tap_count++];
            tap->ifname = optarg;
            tap->has_mac = have_mac;
            memcpy(tap->mac, next_mac, sizeof(next_mac));
            have_mac = false;
            break;
        }
        case 'm':
            if (parse_mac(optarg, next_mac) < 0) {
                fprintf(stderr, "tern-node: bad MAC '%s' (want a unicast aa:bb:cc:dd:ee:ff)\n", optarg);
                return 2;
            }
            have_mac = true;
            break;
        case 'r':
            want_router = true;
            break;
        case 'z': {
            if (node.zep_count == NODE_ZEP_MAX) {
                fprintf(stderr, "tern-node: at most %d --zep interfaces\n", NODE_ZEP_MAX);
                return 2;
            }
            node_zep_t *zep = &node.zeps[node.zep_count++];
            zep->spec = optarg;
            if (parse_zep(optarg, zep) < 0) {
                fprintf(stderr,
                        "tern-node: bad --zep '%s' (want LOCAL_ADDR:PORT,REMOTE_ADDR:PORT, numeric addresses of "
                        "one family, IPv6 in brackets: [::1]:17754,[::1]:17755)\n",
                        optarg);
                return 2;
            }
            zep->has_eui64 = have_eui64;
            memcpy(zep->eui64, next_eui64, sizeof(next_eui64));
            have_eui64 = false;
            break;
        }
        case 'E':
            if (parse_eui64(optarg, next_eui64) < 0) {
                fprintf(stderr, "tern-node: bad EUI-64 '%s' (want a unicast aa:bb:cc:dd:ee:ff:00:11)\n", optarg);
                return 2;
            }
            have_eui64 = true;
            break;
        case 'c':
        case 'P': {
            char *end = NULL;
            unsigned long v = strtoul(optarg, &end, 0);
            bool bad = (end == optarg || *end != '\0');
            if (opt == 'c') {
                if (bad || v < 11 || v > 26) {
                    fprintf(stderr, "tern-node: bad --channel '%s' (want 11..26)\n", optarg);
                    return 2;
                }
                channel = (uint16_t)v;
            } else {
                /* 0xffff is the broadcast PAN ID (802.15.4-2006 §7.5.6.2), not a PAN. */
                if (bad || v > 0xfffeu) {
                    fprintf(stderr, "tern-node: bad --pan '%s' (want 0..0xfffe)\n", optarg);
                    return 2;
                }
                pan_id = (uint16_t)v;
            }
            break;
        }
        case 'p': {
            char *end = NULL;
            unsigned long v = strtoul(optarg, &end, 10);
            if (end == optarg || *end != '\0' || v < 256 || v > sizeof(big_arena)) {
                fprintf(stderr, "tern-node: bad --pktbuf '%s' (want 256..%zu bytes)\n", optarg, sizeof(big_arena));
                return 2;
            }
            pktbuf_size = (size_t)v;
            break;
        }
        case 'h':
            usage(stdout, argv[0]);
            return 0;
        default:
            usage(stderr, argv[0]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "tern-node: unexpected argument '%s'\n", argv[optind]);
        usage(stderr, argv[0]);
        return 2;
    }
    if (have_mac) {
        fprintf(stderr, "tern-node: --mac applies to the next --tap: put it before --tap IFNAME\n");
        return 2;
    }
    if (have_eui64) {
        fprintf(stderr, "tern-node: --eui64 applies to the next --zep: put it before --zep LOCAL,REMOTE\n");
        return 2;
    }
    if (!want_lo && !want_test && node.tap_count == 0 && node.zep_count == 0) {
        want_lo = true;
    }
    if (start_executor(&node, executor) < 0) {
        return 1;
    }
    int res = tern_stack_init(&node.stack, name, node.exec);
    if (res == 0) {
        /* The node's own arena instead of the compiled one, before anything is allocated. */
        res = tern_pktbuf_init(&node.stack.pktbuf, big_arena, pktbuf_size, &node.exec->lock);
    }
    if (res == 0) {
        res = tern_ipv6_init(&node.ipv6, &node.stack);
    }
    if (res == 0) {
        res = tern_udp_init(&node.udp, &node.stack, &node.ipv6);
    }
    if (res == 0 && want_lo) {
        tern_netdev_loopback_init(&node.lo_dev);
        res = tern_netif_add(&node.stack, &node.lo, "lo", &node.lo_dev.netdev, &tern_netif_link_raw,
                             TERN_NETTYPE_IPV6);
    }
    if (res == 0 && want_test) {
        tern_netdev_test_init(&node.test_dev);
        static const uint8_t test_addr[8] = { 0x02, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x00, 0x01 };
        memcpy(node.test_dev.addr, test_addr, sizeof(test_addr));
        node.test_dev.addr_len = sizeof(test_addr);
        res = tern_netif_add(&node.stack, &node.test, "test0", &node.test_dev.netdev,
                             &tern_netif_link_raw, TERN_NETTYPE_IPV6);
    }
    unsigned taps_up = 0;
    for (; res == 0 && taps_up < node.tap_count; taps_up++) {
        res = add_tap(&node, &node.taps[taps_up]);
    }
    if (res == 0 && node.zep_count > 0) {
        res = tern_sixlowpan_init(&node.lowpan, &node.stack);
    }
    if (res == 0 && node.zep_count > 0) {
        res = tern_rpl_init(&node.rpl, &node.stack, &node.ipv6);
    }
    unsigned zeps_up = 0;
    for (; res == 0 && zeps_up < node.zep_count; zeps_up++) {
        res = add_zep(&node, &node.zeps[zeps_up], zeps_up, name, channel, pan_id);
    }
    if (res < 0) {
        fprintf(stderr, "tern-node: setting up the node failed: %s\n", strerror(-res));
        for (unsigned i = 0; i < taps_up; i++) {
            tern_netdev_tap_stop(&node.taps[i].dev);
        }
        for (unsigned i = 0; i < zeps_up; i++) {
            tern_netdev_zep_stop(&node.zeps[i].dev);
        }
        tern_executor_stop(node.exec);
        return 1;
    }
    /* IPv6 on every interface: link-local address, groups, DAD. */
    for (tern_netif_t *n = node.stack.netifs; n != NULL; n = n->next) {
        (void)tern_ipv6_netif_enable(&node.ipv6, n);
    }
    /* RPL runs on the 802.15.4 interfaces (RFC 6550 over 6LoWPAN). */
    for (unsigned i = 0; i < zeps_up; i++) {
        (void)tern_rpl_netif_enable(&node.rpl, &node.zeps[i].netif);
    }
    if (want_router && tern_ipv6_set_router(&node.ipv6, true) < 0) {
        fprintf(stderr, "tern-node: cannot make the node a router\n");
        return 1;
    }
    tern_shell_init(&node.shell, &node.stack, write_stdout, NULL);
    tern_shell_add_core(&node.shell, &node.core_cmds);
    tern_shell_add_netif(&node.shell, &node.netif_cmds);
    tern_shell_add_ipv6(&node.shell, &node.ipv6_cmds, &node.ipv6);
    (void)tern_shell_add_udp(&node.shell, &node.udp_cmds, &node.ipv6, &node.udp);
    if (tern_shell_add_ping(&node.shell, &node.ping_cmds, &node.ipv6) < 0) {
        fprintf(stderr, "tern-node: setting up the ping command failed\n");
        return 1;
    }
    if (node.zep_count > 0 && tern_shell_add_rpl(&node.shell, &node.rpl_cmds, &node.rpl) < 0) {
        fprintf(stderr, "tern-node: setting up the rpl command failed\n");
        return 1;
    }
    if (node_pcap_add(&node.shell, &node.pcap_cmds) < 0) {
        fprintf(stderr, "tern-node: setting up the pcap command failed\n");
        return 1;
    }

    bool use_loop = (node.exec == &node.loop.base);
    if (use_loop) {
        node.feed.sync = &node.loop_sync;
        if (pthread_mutex_init(&node.feed.mutex, NULL) != 0 ||
            pthread_cond_init(&node.feed.cond, NULL) != 0 ||
            pthread_create(&node.feed.thread, NULL, stdin_thread, &node.feed) != 0) {
            fprintf(stderr, "tern-node: cannot start the input thread\n");
            return 1;
        }
    }

    bool interactive = isatty(STDIN_FILENO);
    if (interactive) {
        printf("tern-node '%s' (%s executor), type 'help'\n", name, node.exec->name);
    }
    char line[TERN_CONF_SHELL_LINE_MAX];
    int status = 0;
    for (;;) {
        if (interactive) {
            fputs("> ", stdout);
        }
        fflush(stdout);
        bool too_long = false;
        int got = use_loop ? loop_next_line(&node, line, sizeof(line), &too_long)
                           : blocking_next_line(line, sizeof(line), &too_long);
        if (got == 0) {
            break;
        }
        if (too_long) {
            fprintf(stdout, "shell: line too long (at most %d characters)\n",
                    TERN_CONF_SHELL_LINE_MAX - 2);
            continue;
        }
        (void)tern_shell_run(&node.shell, line);
        /* Each command finishes before the next: let the stack settle. */
        tern_executor_run_until_idle(node.exec);
    }
    fflush(stdout);
    if (use_loop) {
        (void)pthread_join(node.feed.thread, NULL);
    }
    /* Captures end while the interfaces still answer; then no device posts. */
    node_pcap_stop_all(&node.pcap_cmds);
    for (unsigned i = 0; i < node.tap_count; i++) {
        tern_netdev_tap_stop(&node.taps[i].dev);
    }
    for (unsigned i = 0; i < node.zep_count; i++) {
        tern_netdev_zep_stop(&node.zeps[i].dev);
    }
    tern_executor_run_until_idle(node.exec);
    tern_executor_stop(node.exec);
    if (tern_pktbuf_check(&node.stack.pktbuf) != 0) {
        fprintf(stderr, "tern-node: packet buffer inconsistent at exit\n");
        status = 1;
    }
    return status;
}
