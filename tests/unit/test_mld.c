/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief MLDv2 reports of the IPv6 module (RFC 3810) through the test device,
 *        under virtual time: State Change Reports on join and leave (§6.1),
 *        their format (ff02::16, hop limit 1, Router Alert, §5.2.13 source),
 *        answers to General and Group-Specific Queries (§6.2), ff02::1
 *        never reported (§6).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/mld.h"

#define MS 1000u
#define SEC 1000000u

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_stack_t stack;
static tern_ipv6_t ip;
static tern_netdev_test_t dev;
static tern_netif_t netif;

static const uint8_t NODE_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 };
static const char *NODE_LL = "fe80::5eff:fe00:5301";
static const char *NODE_SNM = "ff02::1:ff00:5301";

/* MLD reports the node sent (whole IPv6 packets), with their times. */
#define MAX_SENT 16
static uint8_t sent[MAX_SENT][1500];
static size_t sent_len[MAX_SENT];
static uint64_t sent_at[MAX_SENT];
static unsigned nsent;
static uint8_t rx[1500];

static int capture(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    uint8_t frame[1500];
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        memcpy(&frame[len], iol[i].base, iol[i].len);
        len += iol[i].len;
    }
    if (len > 48 && frame[6] == TERN_IPV6_NH_HOP_BY_HOP) {
        assert_true(nsent < MAX_SENT);
        memcpy(sent[nsent], frame, len);
        sent_at[nsent] = clock_v.now;
        sent_len[nsent++] = len;
    }
    return (int)len;
}

static tern_ipv6_addr_t A(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

static void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

static int setup(void **state)
{
    (void)state;
    tern_vclock_init(&clock_v, 0);
    tern_loop_init(&loop, &clock_v.base);
    assert_int_equal(tern_stack_init(&stack, "t", &loop.base), 0);
    assert_int_equal(tern_ipv6_init(&ip, &stack), 0);
    tern_netdev_test_init(&dev);
    memcpy(dev.addr, NODE_MAC, 6);
    dev.addr_len = 6;
    dev.send_cb = capture;
    assert_int_equal(tern_netif_add(&stack, &netif, "test0", &dev.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_IPV6), 0);
    nsent = 0;
    assert_int_equal(tern_ipv6_netif_enable(&ip, &netif), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    tern_executor_stop(&loop.base);
    harness_assert_pktbuf_clean(&stack.pktbuf);
    return 0;
}

/*
 * Check sent report @p i: [IPv6 to ff02::16, hop limit 1, from @p src;
 * Hop-by-Hop with Router Alert 0; MLDv2 Report, checksum valid] with
 * records of @p type for exactly the groups @p groups. @p src NULL: :: or our link-local.
 */
static void expect_report(unsigned i, const char *src, uint8_t type, const char *const *groups, size_t count)
{
    assert_true(i < nsent);
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
    assert_int_equal(tern_ipv6_check_len(&h, sent_len[i]), (int)sent_len[i] - 40);
    tern_ipv6_addr_t mld_routers = A("ff02::16"), unspecified = A("::"), ll = A(NODE_LL);
    assert_true(tern_ipv6_addr_equal(&h.dst, &mld_routers));
    if (src != NULL) {
        tern_ipv6_addr_t s = A(src);
        assert_true(tern_ipv6_addr_equal(&h.src, &s));
    } else {
        assert_true(tern_ipv6_addr_equal(&h.src, &unspecified) || tern_ipv6_addr_equal(&h.src, &ll));
    }
    assert_int_equal(h.hop_limit, 1);
    assert_int_equal(h.next_header, TERN_IPV6_NH_HOP_BY_HOP);
    const uint8_t *hbh = sent[i] + 40;
    tern_ipv6_ext_t ext;
    assert_int_equal(tern_ipv6_ext_parse(&ext, TERN_IPV6_NH_HOP_BY_HOP, hbh, sent_len[i] - 40), 8);
    assert_int_equal(ext.next_header, 58);
    tern_ipv6_opt_iter_t it;
    tern_ipv6_opt_t opt;
    tern_ipv6_opt_iter_init(&it, hbh, ext.len);
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 1);
    assert_int_equal(opt.type, TERN_IPV6_OPT_ROUTER_ALERT);
    assert_int_equal(opt.data_len, 2);
    assert_int_equal(opt.data[0], 0);
    assert_int_equal(opt.data[1], 0); /* RFC 2711: MLD */
    assert_int_equal(tern_ipv6_opt_next(&it, &opt), 0);
    const uint8_t *m = hbh + 8;
    size_t mlen = sent_len[i] - 48;
    const tern_checksum_span_t span = { .data = m, .len = mlen };
    assert_true(tern_icmpv6_checksum_verify(&h.src, &h.dst, &span, 1));
    tern_mld_report_repr_t rep;
    assert_true(tern_mld_report_parse(&rep, m, mlen) > 0);
    assert_int_equal(rep.record_count, count);
    tern_mld_record_iter_t ri;
    tern_mld_record_t rec;
    tern_mld_record_iter_init(&ri, &rep);
    for (size_t k = 0; k < count; k++) {
        assert_int_equal(tern_mld_record_next(&ri, &rec), 1);
        assert_int_equal(rec.type, type);
        assert_int_equal(rec.source_count, 0);
        bool listed = false;
        for (size_t j = 0; j < count; j++) {
            tern_ipv6_addr_t g = A(groups[j]);
            listed = listed || tern_ipv6_addr_equal(&rec.group, &g);
        }
        assert_true(listed);
    }
}

/* Hand the node a Query from @p src (hop limit @p hop) for @p group ("::": general). */
static void query(const char *src, uint8_t hop, const char *group, uint16_t max_resp_ms)
{
    tern_mld_query_repr_t q;
    memset(&q, 0, sizeof(q));
    q.version = 2;
    q.max_resp_code = max_resp_ms;
    q.group = A(group);
    q.qrv = 2;
    q.qqic = 125;
    uint8_t msg[64];
    int n = tern_mld_query_emit(&q, msg, sizeof(msg));
    assert_true(n > 0);
    const char *dst = (strcmp(group, "::") == 0) ? "ff02::1" : group;
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)n, .next_header = 58, .hop_limit = hop,
                           .src = A(src), .dst = A(dst) };
    assert_int_equal(tern_ipv6_emit(&h, rx, 40), 40);
    memcpy(rx + 40, msg, (size_t)n);
    assert_int_equal(tern_icmpv6_checksum_fill(rx + 40, (size_t)n, &h.src, &h.dst), 0);
    assert_int_equal(tern_netdev_test_inject(&dev, rx, 40 + (size_t)n), 0);
    run_for(1);
}

static void test_mld_join__two_state_change_reports_from_unspecified(void **state)
{
    (void)state;
    const char *snm[] = { NODE_SNM };
    /* Interface initialisation: within MAX_RTR_SOLICITATION_DELAY (RFC 4862
     * §5.4.2), while the link-local address is tentative: from :: (§5.2.13). */
    while (nsent == 0) {
        assert_true(clock_v.now <= 1 * SEC + 1);
        run_for(1 * MS);
    }
    uint64_t first = sent_at[0];
    expect_report(0, "::", TERN_MLD_RECORD_CHANGE_TO_EXCLUDE, snm, 1);
    /* Robustness Variable 2: once more within the Unsolicited Report Interval (§6.1). */
    run_for(1 * SEC + 1 * MS);
    assert_int_equal(nsent, 2);
    assert_true(sent_at[1] > first && sent_at[1] <= first + 1 * SEC + 1);
    expect_report(1, NULL, TERN_MLD_RECORD_CHANGE_TO_EXCLUDE, snm, 1); /* :: or link-local: DAD may be over */
    run_for(5 * SEC);
    assert_int_equal(nsent, 2); /* no more; ff02::1 never reported (§6) */
    assert_int_equal(ip.counters[TERN_IPV6_MLD_REPORTS_SENT], 2);
}

static void test_mld_query__general_answered_with_all_groups(void **state)
{
    (void)state;
    run_for(3 * SEC); /* DAD done, state changes reported */
    nsent = 0;
    query("fe80::1", 1, "::", 500);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_QUERIES_RECEIVED], 1);
    run_for(500 * MS + 1);
    assert_int_equal(nsent, 1); /* one report, within Max Resp Delay (§6.2) */
    const char *snm[] = { NODE_SNM };
    expect_report(0, NODE_LL, TERN_MLD_RECORD_MODE_IS_EXCLUDE, snm, 1);
    /* Group-specific for a group we are in: answered; for another: not. */
    query("fe80::1", 1, NODE_SNM, 200);
    query("fe80::1", 1, "ff02::1:ff00:9999", 200);
    run_for(200 * MS + 1);
    assert_int_equal(nsent, 2);
    expect_report(1, NODE_LL, TERN_MLD_RECORD_MODE_IS_EXCLUDE, snm, 1);
    /* Not link-local, or hop limit not 1: dropped and counted (§5.1.14). */
    query("2001:db8::1", 1, "::", 100);
    query("fe80::1", 64, "::", 100);
    run_for(200 * MS);
    assert_int_equal(nsent, 2);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_INVALID], 2);
}

static void test_mld_address__join_and_leave_of_its_solicited_node_group(void **state)
{
    (void)state;
    run_for(3 * SEC);
    nsent = 0;
    tern_ipv6_addr_config_t cfg = { .addr = A("2001:db8::77"), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_ADD, netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
    run_for(1 * MS);
    const char *g[] = { "ff02::1:ff00:77" };
    assert_int_equal(nsent, 1); /* at once: the interface is up (§6.1) */
    expect_report(0, NODE_LL, TERN_MLD_RECORD_CHANGE_TO_EXCLUDE, g, 1);
    run_for(3 * SEC);
    assert_int_equal(nsent, 2);
    nsent = 0;
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_DEL, netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
    run_for(3 * SEC);
    assert_int_equal(nsent, 2);
    expect_report(0, NODE_LL, TERN_MLD_RECORD_CHANGE_TO_INCLUDE, g, 1);
    expect_report(1, NODE_LL, TERN_MLD_RECORD_CHANGE_TO_INCLUDE, g, 1);
    /* Left: a general query no longer names it. */
    nsent = 0;
    query("fe80::1", 1, "::", 100);
    run_for(200 * MS);
    const char *snm[] = { NODE_SNM };
    assert_int_equal(nsent, 1);
    expect_report(0, NODE_LL, TERN_MLD_RECORD_MODE_IS_EXCLUDE, snm, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_mld_join__two_state_change_reports_from_unspecified),
        T(test_mld_query__general_answered_with_all_groups),
        T(test_mld_address__join_and_leave_of_its_solicited_node_group),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
