/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the shell: any line, against a node with loopback and test interfaces.
 *
 * The line goes through word splitting, command lookup and the commands'
 * argument parsing (addresses, interface names). Afterwards the node must
 * settle with its packet buffer consistent and empty.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/netdev/loopback.h"
#include "tern/netdev/test.h"
#include "tern/netif.h"
#include "tern/port/loop.h"
#include "tern/shell.h"

typedef struct {
    tern_vclock_t clock;
    tern_loop_t loop;
    tern_stack_t stack;
    tern_netdev_loopback_t lo_dev;
    tern_netif_t lo;
    tern_netdev_test_t test_dev;
    tern_netif_t test;
    tern_shell_t shell;
    tern_shell_core_cmds_t core;
    tern_shell_netif_cmds_t netif;
} node_t;

static void discard(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    (void)text;
    (void)len;
}

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static node_t n;
    tern_vclock_init(&n.clock, 0);
    tern_loop_init(&n.loop, &n.clock.base);
    require(tern_stack_init(&n.stack, "fuzz", &n.loop.base) == 0);
    tern_netdev_loopback_init(&n.lo_dev);
    require(tern_netif_add(&n.stack, &n.lo, "lo", &n.lo_dev.netdev, &tern_netif_link_raw, TERN_NETTYPE_IPV6) == 0);
    tern_netdev_test_init(&n.test_dev);
    require(tern_netif_add(&n.stack, &n.test, "test0", &n.test_dev.netdev, &tern_netif_link_raw, TERN_NETTYPE_IPV6) == 0);
    tern_shell_init(&n.shell, &n.stack, discard, NULL);
    tern_shell_add_core(&n.shell, &n.core);
    tern_shell_add_netif(&n.shell, &n.netif);

    char line[TERN_CONF_SHELL_LINE_MAX];
    size_t len = (size < sizeof(line) - 1) ? size : sizeof(line) - 1;
    memcpy(line, data, len);
    line[len] = '\0';
    (void)tern_shell_run(&n.shell, line);
    require(tern_executor_run_until_idle(&n.loop.base) == 0);
    tern_executor_stop(&n.loop.base);
    require(tern_pktbuf_check(&n.stack.pktbuf) == 0);
    require(tern_pktbuf_is_empty(&n.stack.pktbuf));
    return 0;
}
