/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-node: one Tern node with real interfaces and a shell on stdin.
 *
 * Reads one shell command per line from standard input, runs it, lets the
 * stack finish what the command started (run until idle), and prints the
 * output before reading the next line. Exits at end of input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tern/netdev/loopback.h"
#include "tern/netdev/test.h"
#include "tern/netif.h"
#include "tern/port/posix.h"
#include "tern/shell.h"
#include "tern/stack.h"

/** Everything the node owns, in one static object (no heap). */
typedef struct {
    tern_loop_t loop;
    tern_posix_loop_sync_t loop_sync;
    tern_threaded_t threaded;
    tern_executor_t *exec;
    tern_stack_t stack;
    tern_netdev_loopback_t lo_dev;
    tern_netif_t lo;
    tern_netdev_test_t test_dev;
    tern_netif_t test;
    tern_shell_t shell;
    tern_shell_core_cmds_t core_cmds;
    tern_shell_netif_cmds_t netif_cmds;
} node_t;

static void write_stdout(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    fwrite(text, 1, len, stdout);
}

static void usage(FILE *out, const char *prog)
{
    fprintf(out,
            "usage: %s [options]\n"
            "  -l, --loopback            add a loopback interface 'lo' (IPv6 on top)\n"
            "  -t, --test                add a test-device interface 'test0'\n"
            "  -e, --executor loop|threaded\n"
            "                            event loop in one thread (default) or one thread per module\n"
            "  -n, --name NAME           node name (default 'tern')\n"
            "  -h, --help                this text\n"
            "Without interface options, --loopback is assumed.\n"
            "Commands are read from standard input, one per line; type 'help'.\n",
            prog);
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
    static const struct option options[] = {
        { "loopback", no_argument, NULL, 'l' },  { "test", no_argument, NULL, 't' },
        { "executor", required_argument, NULL, 'e' }, { "name", required_argument, NULL, 'n' },
        { "help", no_argument, NULL, 'h' },      { NULL, 0, NULL, 0 },
    };
    bool want_lo = false, want_test = false;
    const char *executor = "loop";
    const char *name = "tern";
    int opt;
    while ((opt = getopt_long(argc, argv, "lte:n:h", options, NULL)) != -1) {
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
    if (!want_lo && !want_test) {
        want_lo = true;
    }
    if (start_executor(&node, executor) < 0) {
        return 1;
    }
    int res = tern_stack_init(&node.stack, name, node.exec);
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
    if (res < 0) {
        fprintf(stderr, "tern-node: setting up the node failed: %s\n", strerror(-res));
        tern_executor_stop(node.exec);
        return 1;
    }
    tern_shell_init(&node.shell, &node.stack, write_stdout, NULL);
    tern_shell_add_core(&node.shell, &node.core_cmds);
    tern_shell_add_netif(&node.shell, &node.netif_cmds);

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
        if (fgets(line, sizeof(line), stdin) == NULL) {
            break;
        }
        size_t len = strlen(line);
        if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
            int c;
            while ((c = getchar()) != '\n' && c != EOF) {
            }
            fprintf(stdout, "shell: line too long (at most %d characters)\n",
                    TERN_CONF_SHELL_LINE_MAX - 2);
            continue;
        }
        (void)tern_shell_run(&node.shell, line);
        /* Each command finishes before the next: let the stack settle. */
        tern_executor_run_until_idle(node.exec);
    }
    fflush(stdout);
    tern_executor_stop(node.exec);
    if (tern_pktbuf_check(&node.stack.pktbuf) != 0) {
        fprintf(stderr, "tern-node: packet buffer inconsistent at exit\n");
        status = 1;
    }
    return status;
}
