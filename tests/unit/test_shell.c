/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The shell and the node's commands, under both executors.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "tern/netdev/loopback.h"
#include "tern/netdev/test.h"
#include "tern/netif.h"
#include "tern/shell.h"

static tern_stack_t stack;
static tern_netdev_loopback_t lo_dev;
static tern_netif_t lo_if;
static tern_netdev_test_t test_dev;
static tern_netif_t test_if;
static tern_shell_t shell;
static tern_shell_core_cmds_t core_cmds;
static tern_shell_netif_cmds_t netif_cmds;
static char out[16384];
static size_t out_len;

static void capture(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    assert_true(out_len + len < sizeof(out));
    memcpy(&out[out_len], text, len);
    out_len += len;
    out[out_len] = '\0';
}

/* Run one line (copied: the shell edits it) and let the stack settle. */
static int run(const char *line)
{
    char buf[TERN_CONF_SHELL_LINE_MAX];
    strncpy(buf, line, sizeof(buf) - 1);
    buf[sizeof(buf) - 1] = '\0';
    out_len = 0;
    out[0] = '\0';
    int res = tern_shell_run(&shell, buf);
    harness_run_until_idle();
    return res;
}

static int setup(void **state)
{
    (void)state;
    assert_int_equal(tern_stack_init(&stack, "t", harness_exec_start()), 0);
    tern_netdev_loopback_init(&lo_dev);
    assert_int_equal(tern_netif_add(&stack, &lo_if, "lo", &lo_dev.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_IPV6),
                     0);
    tern_netdev_test_init(&test_dev);
    const uint8_t addr[8] = { 0x02, 0, 0, 0xff, 0xfe, 0, 0, 1 };
    memcpy(test_dev.addr, addr, 8);
    test_dev.addr_len = 8;
    assert_int_equal(tern_netif_add(&stack, &test_if, "test0", &test_dev.netdev,
                                    &tern_netif_link_raw, TERN_NETTYPE_IPV6),
                     0);
    tern_shell_init(&shell, &stack, capture, NULL);
    tern_shell_add_core(&shell, &core_cmds);
    tern_shell_add_netif(&shell, &netif_cmds);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    harness_run_until_idle();
    harness_exec_stop();
    harness_assert_pktbuf_clean(&stack.pktbuf);
    return 0;
}

static void test_tern_shell_run__help_lists_commands_in_order(void **state)
{
    (void)state;
    assert_int_equal(run("help"), 0);
    const char *names[] = { "help", "ifconfig", "pktbuf", "stats", "trace", "txtsnd" };
    const char *prev = out;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *at = strstr(prev, names[i]);
        assert_non_null(at);
        prev = at;
    }
}

static void test_tern_shell_run__unknown_command(void **state)
{
    (void)state;
    assert_int_equal(run("frobnicate now"), -ENOENT);
    assert_non_null(strstr(out, "unknown command 'frobnicate'"));
}

static void test_tern_shell_run__empty_comment_quotes_and_limits(void **state)
{
    (void)state;
    assert_int_equal(run(""), 0);
    assert_int_equal(run("   # a comment"), 0);
    assert_int_equal(out_len, 0);
    assert_int_equal(run("txtsnd lo \"two words"), -EINVAL);
    assert_non_null(strstr(out, "unterminated quote"));
    assert_int_equal(run("a b c d e f g h i j k l m n o p q r"), -E2BIG);
    assert_non_null(strstr(out, "too many words"));
}

static void test_tern_shell_add__duplicate_refused(void **state)
{
    (void)state;
    static tern_shell_cmd_t dup = { NULL, "help", "", NULL, NULL };
    assert_int_equal(tern_shell_add(&shell, &dup), -EINVAL); /* no function */
    dup.fn = core_cmds.cmds[0].fn;
    assert_int_equal(tern_shell_add(&shell, &dup), -EEXIST);
}

static void test_cmd_pktbuf__shows_usage_and_consistency(void **state)
{
    (void)state;
    assert_int_equal(run("pktbuf"), 0);
    assert_non_null(strstr(out, "used 0 B"));
    assert_non_null(strstr(out, "consistent"));
    assert_non_null(strstr(out, "alloc failures 0"));
    assert_int_equal(run("pktbuf extra"), -EINVAL);
}

static void test_cmd_ifconfig__lists_interfaces(void **state)
{
    (void)state;
    assert_int_equal(run("ifconfig"), 0);
    assert_non_null(strstr(out, "Iface  1  lo"));
    assert_non_null(strstr(out, "Iface  2  test0"));
    assert_non_null(strstr(out, "device: loopback  MTU: 1280  state: up  proto: ipv6"));
    assert_non_null(strstr(out, "L2 address: 02:00:00:ff:fe:00:00:01"));
    assert_non_null(strstr(out, "L2 address: none"));
    assert_int_equal(run("ifconfig nope"), -ENODEV);
    assert_non_null(strstr(out, "no interface 'nope'"));
    assert_int_equal(run("ifconfig lo sideways"), -EINVAL);
}

static void test_cmd_txtsnd__loopback_frame_counted_and_traced(void **state)
{
    (void)state;
    assert_int_equal(run("txtsnd lo hello"), 0);
    assert_int_equal(run("ifconfig lo"), 0);
    assert_non_null(strstr(out, "RX packets 1  bytes 5"));
    assert_non_null(strstr(out, "TX packets 1  bytes 5"));
    /* Nobody is registered for IPv6 yet: the frame is a counted drop. */
    assert_int_equal(run("stats netapi"), 0);
    assert_non_null(strstr(out, "no_receiver"));
    assert_non_null(strstr(out, "         1"));
    if (TERN_CONF_TRACE) {
        assert_int_equal(run("trace"), 0);
        assert_non_null(strstr(out, "-> lo         SND"));
        assert_non_null(strstr(out, "[netif,undef]"));
        /* The loopback device's interrupt, recorded when the interface handles it. */
        assert_non_null(strstr(out, "device     -> lo         NETDEV ok"));
        assert_int_equal(run("trace clear"), 0);
        assert_int_equal(run("trace"), 0);
        assert_non_null(strstr(out, "0 hops recorded"));
    }
}

static void test_cmd_txtsnd__addresses_and_errors(void **state)
{
    (void)state;
    assert_int_equal(run("txtsnd test0 02:00:00:01 data"), 0);
    assert_int_equal(test_dev.frames_sent, 1);
    assert_int_equal(run("txtsnd test0 bcast data"), 0);
    assert_int_equal(test_dev.frames_sent, 2);
    assert_int_equal(run("txtsnd test0 zz:1 data"), -EINVAL);
    assert_int_equal(run("txtsnd test0 01: data"), -EINVAL);
    assert_int_equal(run("txtsnd nope data"), -ENODEV);
    assert_int_equal(run("txtsnd"), -EINVAL);
    assert_int_equal(run("ifconfig test0 down"), 0);
    assert_int_equal(run("txtsnd test0 data"), 0);
    assert_int_equal(run("stats test0"), 0);
    assert_non_null(strstr(out, "tx_down"));
    assert_int_equal(test_if.counters[TERN_NETIF_TX_DOWN], 1);
    assert_int_equal(run("ifconfig test0 up"), 0);
}

static void test_cmd_stats__groups_and_unknown(void **state)
{
    (void)state;
    assert_int_equal(run("stats"), 0);
    assert_non_null(strstr(out, "pktbuf       alloc_fail"));
    assert_non_null(strstr(out, "netapi       queue_full"));
    assert_non_null(strstr(out, "lo           rx_packets"));
    assert_non_null(strstr(out, "test0        event_lost"));
    assert_int_equal(run("stats nothing"), -ENOENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tern_shell_run__help_lists_commands_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_shell_run__unknown_command, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_shell_run__empty_comment_quotes_and_limits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_shell_add__duplicate_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cmd_pktbuf__shows_usage_and_consistency, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cmd_ifconfig__lists_interfaces, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cmd_txtsnd__loopback_frame_counted_and_traced, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cmd_txtsnd__addresses_and_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cmd_stats__groups_and_unknown, setup, teardown),
    };
    cmocka_set_message_output(CM_OUTPUT_STDOUT);
    return cmocka_run_group_tests_name(harness_executor_name(), tests, NULL, NULL);
}
