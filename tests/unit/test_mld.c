/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief MLD reports of the IPv6 module (RFC 3810) through the test device,
 *        under virtual time: State Change Reports on join and leave (§6.1),
 *        their format (ff02::16, hop limit 1, Router Alert, §5.2.13 source),
 *        answers to General and Group-Specific Queries (§6.2), ff02::1
 *        never reported (§6); MLDv1 compatibility mode (§8.2.1, RFC 2710 §4):
 *        entered on an MLDv1 Query, MLDv1 Reports and Dones (golden bytes),
 *        report suppression, back to MLDv2 after the Older Version Querier
 *        Present Timeout (§9.12), malformed messages counted.
 *
 * Golden packets: built independently with scapy 2.8 (IPv6 / IPv6ExtHdrHopByHop
 * with RouterAlert(value=0) and PadN / ICMPv6MLReport, ICMPv6MLDone) from
 * the node's link-local address fe80::5eff:fe00:5301, hop limit 1.
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

/* MLDv1 Report of ff02::1:ff00:5301 (our link-local's solicited-node group), to that group; checksum 0x2c1e. */
static const uint8_t report_v1_snm[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x01, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x5e, 0xff, 0xfe, 0x00, 0x53, 0x01, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x53, 0x01, 0x3a, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00,
    0x83, 0x00, 0x2c, 0x1e, 0x00, 0x00, 0x00, 0x00, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x53, 0x01,
};

/* MLDv1 Report of ff02::1:ff00:77 (2001:db8::77's solicited-node group), to that group; checksum 0xd132. */
static const uint8_t report_v1_77[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x01, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x5e, 0xff, 0xfe, 0x00, 0x53, 0x01, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x00, 0x77, 0x3a, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00,
    0x83, 0x00, 0xd1, 0x32, 0x00, 0x00, 0x00, 0x00, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x00, 0x77,
};

/* MLDv1 Done of ff02::1:ff00:77, to ff02::2; checksum 0xcfa9. */
static const uint8_t done_v1_77[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x01, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x5e, 0xff, 0xfe, 0x00, 0x53, 0x01, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x3a, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00,
    0x84, 0x00, 0xcf, 0xa9, 0x00, 0x00, 0x00, 0x00, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x00, 0x77,
};

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

/* What goes "at once" (RFC 3810 §6.1, RFC 2710 §4): 1 µs of virtual time. A
 * repeat is drawn from [0, Unsolicited Report Interval] by the node's
 * generator, seeded per run; a longer step (1 ms) let about one run in 300
 * draw a repeat inside it and count a frame too many. */
static void run_now(void)
{
    run_for(1);
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

/* Hand the node the ICMPv6 message @p msg of @p len bytes from @p src to @p dst (hop limit @p hop). */
static void inject(const char *src, const char *dst, uint8_t hop, const uint8_t *msg, size_t len)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)len, .next_header = 58, .hop_limit = hop,
                           .src = A(src), .dst = A(dst) };
    assert_int_equal(tern_ipv6_emit(&h, rx, 40), 40);
    memcpy(rx + 40, msg, len);
    assert_int_equal(tern_icmpv6_checksum_fill(rx + 40, len, &h.src, &h.dst), 0);
    assert_int_equal(tern_netdev_test_inject(&dev, rx, 40 + len), 0);
    run_now();
}

/* A Query of @p version (MLDv2: with @p qrv and @p qqic) from @p src for @p group ("::": general, to ff02::1). */
static void query_version(uint8_t version, const char *src, uint8_t hop, const char *group, uint16_t max_resp_ms,
                          uint8_t qrv, uint8_t qqic)
{
    tern_mld_query_repr_t q;
    memset(&q, 0, sizeof(q));
    q.version = version;
    q.max_resp_code = max_resp_ms;
    q.group = A(group);
    q.qrv = (version == 2) ? qrv : 0;
    q.qqic = (version == 2) ? qqic : 0;
    uint8_t msg[64];
    int n = tern_mld_query_emit(&q, msg, sizeof(msg));
    assert_int_equal(n, (version == 1) ? 24 : 28);
    inject(src, (strcmp(group, "::") == 0) ? "ff02::1" : group, hop, msg, (size_t)n);
}

/* Hand the node an MLDv2 Query from @p src (hop limit @p hop) for @p group ("::": general). */
static void query(const char *src, uint8_t hop, const char *group, uint16_t max_resp_ms)
{
    query_version(2, src, hop, group, max_resp_ms, 2, 125);
}

/* An MLDv1 Query (24 octets, RFC 3810 §8.1) from @p src for @p group ("::": general). */
static void query_v1(const char *src, uint8_t hop, const char *group, uint16_t max_resp_ms)
{
    query_version(1, src, hop, group, max_resp_ms, 0, 0);
}

/* Another listener's MLDv1 Report of @p group, from @p src to the group (RFC 2710 §3). */
static void report_v1_from(const char *src, uint8_t hop, const char *group)
{
    const tern_mld_v1_repr_t r = { .type = TERN_ICMPV6_MLD_REPORT, .max_resp_delay = 0, .group = A(group) };
    uint8_t msg[24];
    assert_int_equal(tern_mld_v1_emit(&r, msg, sizeof(msg)), 24);
    inject(src, group, hop, msg, sizeof(msg));
}

/* The MLD state of the test interface. */
static const tern_ipv6_mld_t *mld_state(void)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        if (ip.ifs[i].netif == &netif) {
            return &ip.ifs[i].mld;
        }
    }
    fail_msg("interface not enabled");
    return NULL;
}

/* ICMPv6 type of sent packet @p i (after the 8-byte Hop-by-Hop header). */
static uint8_t sent_type(unsigned i)
{
    assert_true(i < nsent && sent_len[i] > 48);
    return sent[i][48];
}

/* Check sent packet @p i: an MLDv1 Report (to @p group) or Done (to ff02::2) of @p group, as expect_report() does. */
static void expect_v1(unsigned i, uint8_t type, const char *group)
{
    assert_true(i < nsent);
    assert_int_equal(sent_len[i], 72);
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
    assert_int_equal(tern_ipv6_check_len(&h, sent_len[i]), 32);
    tern_ipv6_addr_t g = A(group), all_routers = A("ff02::2"), ll = A(NODE_LL);
    assert_true(tern_ipv6_addr_equal(&h.dst, (type == TERN_ICMPV6_MLD_DONE) ? &all_routers : &g));
    assert_true(tern_ipv6_addr_equal(&h.src, &ll));
    assert_int_equal(h.hop_limit, 1);
    assert_int_equal(h.next_header, TERN_IPV6_NH_HOP_BY_HOP);
    const uint8_t hbh[8] = { 58, 0, TERN_IPV6_OPT_ROUTER_ALERT, 2, 0, 0, 1, 0 }; /* RFC 2711: MLD, PadN */
    assert_memory_equal(sent[i] + 40, hbh, sizeof(hbh));
    const tern_checksum_span_t span = { .data = sent[i] + 48, .len = 24 };
    assert_true(tern_icmpv6_checksum_verify(&h.src, &h.dst, &span, 1));
    tern_mld_v1_repr_t v1;
    assert_int_equal(tern_mld_v1_parse(&v1, sent[i] + 48, 24), 24);
    assert_int_equal(v1.type, type);
    assert_int_equal(v1.max_resp_delay, 0);
    assert_true(tern_ipv6_addr_equal(&v1.group, &g));
}

/* Add (@p add) or delete 2001:db8::77/64: joins or leaves ff02::1:ff00:77. */
static void address_77(bool add)
{
    tern_ipv6_addr_config_t cfg = { .addr = A("2001:db8::77"), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, add ? TERN_NETOPT_IPV6_ADDR_ADD : TERN_NETOPT_IPV6_ADDR_DEL,
                                     netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
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
    run_now();
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

/* ---- MLDv1 compatibility mode (RFC 3810 §8.2.1, RFC 2710 §4) ---------------------- */

static void test_mld_v1_query__enters_compatibility_mode_and_reports_each_group(void **state)
{
    (void)state;
    run_for(3 * SEC);
    address_77(true);
    run_for(3 * SEC); /* its MLDv2 State Change Reports */
    nsent = 0;
    uint32_t v2_reports = ip.counters[TERN_IPV6_MLD_REPORTS_SENT];
    assert_false(tern_ipv6_mld_in_v1_mode(mld_state()));
    uint64_t t0 = clock_v.now;
    query_v1("fe80::1", 1, "::", 1000);
    assert_true(tern_ipv6_mld_in_v1_mode(mld_state()));
    assert_int_equal(ip.counters[TERN_IPV6_MLD_QUERIES_RECEIVED], 1);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_QUERIES_RECEIVED], 1);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_MODE_ENTERED], 1);
    run_for(1 * SEC);
    /* One MLDv1 Report per group, each to the group, within the Maximum
     * Response Delay; none for ff02::1 (RFC 2710 §5), no MLDv2 report. */
    assert_int_equal(nsent, 2);
    bool snm = false, g77 = false;
    for (unsigned i = 0; i < nsent; i++) {
        assert_true(sent_at[i] > t0 && sent_at[i] <= t0 + 1 * SEC + 1);
        assert_int_equal(sent_len[i], 72);
        if (memcmp(sent[i], report_v1_snm, sizeof(report_v1_snm)) == 0) {
            snm = true;
        } else {
            assert_memory_equal(sent[i], report_v1_77, sizeof(report_v1_77));
            g77 = true;
        }
    }
    assert_true(snm && g77);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_REPORTS_SENT], 2);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_REPORTS_SENT], v2_reports);
    run_for(20 * SEC);
    assert_int_equal(nsent, 2); /* an answer is not repeated */
}

static void test_mld_v1_query__group_specific_answered_for_that_group_only(void **state)
{
    (void)state;
    run_for(3 * SEC);
    address_77(true);
    run_for(3 * SEC);
    nsent = 0;
    query_v1("fe80::1", 1, "ff02::1:ff00:77", 500);
    query_v1("fe80::1", 1, "ff02::1:ff00:9999", 500); /* not ours: no answer */
    query_v1("fe80::1", 1, "ff02::1", 500);           /* never reported (RFC 2710 §5) */
    run_for(1 * SEC);
    assert_int_equal(nsent, 1);
    assert_memory_equal(sent[0], report_v1_77, sizeof(report_v1_77));
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_QUERIES_RECEIVED], 2); /* ff02::1:ff00:9999 never reaches us */
}

static void test_mld_v1_query__cancels_pending_mldv2_retransmissions(void **state)
{
    (void)state;
    run_for(3 * SEC);
    nsent = 0;
    address_77(true);
    run_now();
    assert_int_equal(nsent, 1); /* the first MLDv2 State Change Report; the second would follow within 1 s */
    const char *g[] = { "ff02::1:ff00:77" };
    expect_report(0, NODE_LL, TERN_MLD_RECORD_CHANGE_TO_EXCLUDE, g, 1);
    query("fe80::1", 1, "::", 3000); /* an MLDv2 answer now pending too */
    query_v1("fe80::1", 1, "::", 2000);
    run_for(3 * SEC);
    /* §8.2.1: the mode change cancelled the retransmission and the MLDv2
     * answer; only the two MLDv1 answers follow. */
    assert_int_equal(nsent, 3);
    assert_int_equal(sent_type(1), TERN_ICMPV6_MLD_REPORT);
    assert_int_equal(sent_type(2), TERN_ICMPV6_MLD_REPORT);
    /* Nor do they come back with MLDv2 mode (§8.2.1 cancels on that change too). */
    run_for(300 * SEC);
    assert_false(tern_ipv6_mld_in_v1_mode(mld_state()));
    assert_int_equal(nsent, 3);
}

static void test_mld_v1_report__from_another_listener_suppresses_ours(void **state)
{
    (void)state;
    run_for(3 * SEC);
    nsent = 0;
    query_v1("fe80::1", 1, "::", 10000);
    report_v1_from("fe80::2", 1, NODE_SNM); /* before our delay ran out: ours is not needed */
    run_for(11 * SEC);
    assert_int_equal(nsent, 0);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_REPORTS_RECEIVED], 1);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_SUPPRESSED], 1);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_REPORTS_SENT], 0);
    /* A report heard while idle changes nothing; the next query is answered. */
    report_v1_from("fe80::2", 1, NODE_SNM);
    query_v1("fe80::1", 1, "::", 1000);
    run_for(1 * SEC);
    assert_int_equal(nsent, 1);
    expect_v1(0, TERN_ICMPV6_MLD_REPORT, NODE_SNM);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_SUPPRESSED], 1);
}

static void test_mld_v1_report__does_not_suppress_in_mldv2_mode(void **state)
{
    (void)state;
    run_for(3 * SEC);
    nsent = 0;
    query("fe80::1", 1, "::", 1000);
    report_v1_from("fe80::2", 1, NODE_SNM);
    run_for(1 * SEC);
    assert_int_equal(nsent, 1);
    const char *snm[] = { NODE_SNM };
    expect_report(0, NODE_LL, TERN_MLD_RECORD_MODE_IS_EXCLUDE, snm, 1);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_REPORTS_RECEIVED], 1);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_SUPPRESSED], 0);
    assert_false(tern_ipv6_mld_in_v1_mode(mld_state())); /* a Report does not change the mode */
}

static void test_mld_v1_join__unsolicited_reports_then_done_to_all_routers_on_leave(void **state)
{
    (void)state;
    run_for(3 * SEC);
    query_v1("fe80::1", 1, "::", 1000);
    run_for(1 * SEC);
    nsent = 0;
    uint32_t v2_reports = ip.counters[TERN_IPV6_MLD_REPORTS_SENT];
    /* RFC 2710 §4: a Report at once, repeated once within the MLDv1
     * Unsolicited Report Interval (10 s, §7.10). */
    address_77(true);
    run_now();
    assert_int_equal(nsent, 1);
    assert_memory_equal(sent[0], report_v1_77, sizeof(report_v1_77));
    run_for(10 * SEC);
    assert_int_equal(nsent, 2);
    assert_true(sent_at[1] > sent_at[0] && sent_at[1] <= sent_at[0] + 10 * SEC + 1);
    assert_memory_equal(sent[1], report_v1_77, sizeof(report_v1_77));
    /* We reported last: leaving sends a Done to ff02::2, once. */
    nsent = 0;
    address_77(false);
    run_now();
    assert_int_equal(nsent, 1);
    assert_memory_equal(sent[0], done_v1_77, sizeof(done_v1_77));
    expect_v1(0, TERN_ICMPV6_MLD_DONE, "ff02::1:ff00:77");
    run_for(10 * SEC);
    assert_int_equal(nsent, 1);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_DONES_SENT], 1);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_REPORTS_SENT], v2_reports);
    /* Left: a general query no longer names it. */
    query_v1("fe80::1", 1, "::", 1000);
    run_for(1 * SEC);
    assert_int_equal(nsent, 2);
    expect_v1(1, TERN_ICMPV6_MLD_REPORT, NODE_SNM);
}

static void test_mld_v1_leave__no_done_when_another_listener_reported_last(void **state)
{
    (void)state;
    run_for(3 * SEC);
    query_v1("fe80::1", 1, "::", 1000);
    run_for(1 * SEC);
    nsent = 0;
    address_77(true);
    run_now();
    assert_int_equal(nsent, 1); /* ours, the repeat still pending */
    report_v1_from("fe80::2", 1, "ff02::1:ff00:77");
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_SUPPRESSED], 1);
    address_77(false);
    run_for(20 * SEC);
    assert_int_equal(nsent, 1); /* neither the repeat nor a Done (RFC 2710 §4: flag cleared) */
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_DONES_SENT], 0);
}

static void test_mld_v1_mode__back_to_mldv2_after_older_version_querier_present_timeout(void **state)
{
    (void)state;
    run_for(3 * SEC);
    uint64_t t0 = clock_v.now;
    /* §9.12 with the defaults: 2 * 125 s + the query's 10 s = 260 s. */
    query_v1("fe80::1", 1, "::", 10000);
    assert_int_equal(tern_executor_run_until(&loop.base, t0 + 260 * SEC - 1), 0);
    assert_true(tern_ipv6_mld_in_v1_mode(mld_state()));
    run_for(2);
    assert_false(tern_ipv6_mld_in_v1_mode(mld_state()));
    nsent = 0;
    /* MLDv2 again: answers and State Change Reports are MLDv2 Reports. */
    query("fe80::1", 1, "::", 500);
    run_for(500 * MS);
    assert_int_equal(nsent, 1);
    const char *snm[] = { NODE_SNM };
    expect_report(0, NODE_LL, TERN_MLD_RECORD_MODE_IS_EXCLUDE, snm, 1);
    address_77(true);
    run_now();
    assert_int_equal(nsent, 2);
    const char *g[] = { "ff02::1:ff00:77" };
    expect_report(1, NODE_LL, TERN_MLD_RECORD_CHANGE_TO_EXCLUDE, g, 1);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_MODE_ENTERED], 1);
}

static void test_mld_v1_mode__expiry_cancels_pending_v1_reports(void **state)
{
    (void)state;
    run_for(3 * SEC);
    uint64_t t0 = clock_v.now;
    query_v1("fe80::1", 1, "::", 1000);
    run_for(1 * SEC);
    nsent = 0;
    /* Just before the timeout (t0 + 251 s), a query starts an MLDv1 delay of up to 30 s. */
    assert_int_equal(tern_executor_run_until(&loop.base, t0 + 251 * SEC - 10 * MS), 0);
    query("fe80::1", 1, "::", 30000);
    bool delaying = false;
    for (size_t i = 0; i < TERN_CONF_MLD_GROUPS; i++) {
        delaying = delaying || mld_state()->groups[i].v1_at_us > t0 + 251 * SEC;
    }
    assert_true(delaying); /* due after the mode ends */
    assert_int_equal(tern_executor_run_until(&loop.base, t0 + 251 * SEC + 40 * SEC), 0);
    /* §8.2.1: back in MLDv2 mode, the pending MLDv1 Report was cancelled. */
    assert_false(tern_ipv6_mld_in_v1_mode(mld_state()));
    assert_int_equal(nsent, 0);
}

static void test_mld_v1_mode__each_mldv1_query_restarts_the_timer(void **state)
{
    (void)state;
    run_for(3 * SEC);
    uint64_t t0 = clock_v.now;
    query_v1("fe80::1", 1, "::", 10000);
    assert_int_equal(tern_executor_run_until(&loop.base, t0 + 200 * SEC), 0);
    query_v1("fe80::1", 1, "::", 10000); /* until t0 + 460 s */
    assert_int_equal(tern_executor_run_until(&loop.base, t0 + 459 * SEC), 0);
    assert_true(tern_ipv6_mld_in_v1_mode(mld_state()));
    assert_int_equal(tern_executor_run_until(&loop.base, t0 + 461 * SEC), 0);
    assert_false(tern_ipv6_mld_in_v1_mode(mld_state()));
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_MODE_ENTERED], 1);
}

static void test_mld_v1_mode__timeout_from_last_mldv2_robustness_and_interval(void **state)
{
    (void)state;
    run_for(3 * SEC);
    query_version(2, "fe80::1", 1, "::", 100, 3, 20); /* QRV 3, QQI 20 s */
    run_for(1 * SEC);
    uint64_t t0 = clock_v.now;
    query_v1("fe80::1", 1, "::", 1000); /* 3 * 20 s + 1 s = 61 s */
    assert_int_equal(tern_executor_run_until(&loop.base, t0 + 61 * SEC - 1), 0);
    assert_true(tern_ipv6_mld_in_v1_mode(mld_state()));
    run_for(2);
    assert_false(tern_ipv6_mld_in_v1_mode(mld_state()));
}

static void test_mld_v1_mode__mldv2_query_answered_with_v1_report_without_restarting_timer(void **state)
{
    (void)state;
    run_for(3 * SEC);
    uint64_t t0 = clock_v.now;
    query_v1("fe80::1", 1, "::", 1000);
    run_for(1 * SEC);
    assert_int_equal(tern_executor_run_until(&loop.base, t0 + 100 * SEC), 0);
    nsent = 0;
    /* §8.2.1: in MLDv1 mode the host uses only MLDv1. */
    query("fe80::1", 1, "::", 1000);
    run_for(1 * SEC);
    assert_int_equal(nsent, 1);
    expect_v1(0, TERN_ICMPV6_MLD_REPORT, NODE_SNM);
    assert_int_equal(tern_executor_run_until(&loop.base, t0 + 252 * SEC), 0); /* 2 * 125 s + 1 s after t0 */
    assert_false(tern_ipv6_mld_in_v1_mode(mld_state()));
}

static void test_mld_v1__malformed_messages_dropped_and_counted(void **state)
{
    (void)state;
    run_for(3 * SEC);
    nsent = 0;
    uint32_t invalid = ip.counters[TERN_IPV6_MLD_INVALID];
    query_v1("fe80::1", 64, "::", 1000);      /* hop limit not 1 */
    query_v1("2001:db8::1", 1, "::", 1000);   /* not link-local (§5.1.14) */
    uint8_t msg[28];
    const tern_mld_query_repr_t q = { .version = 2, .max_resp_code = 1000, .qrv = 2, .qqic = 125 };
    assert_int_equal(tern_mld_query_emit(&q, msg, sizeof(msg)), 28);
    inject("fe80::1", "ff02::1", 1, msg, 26); /* 25-27 octets: neither version (§8.1) */
    const tern_mld_v1_repr_t r = { .type = TERN_ICMPV6_MLD_REPORT, .group = A(NODE_SNM) };
    assert_int_equal(tern_mld_v1_emit(&r, msg, sizeof(msg)), 24);
    inject("fe80::2", NODE_SNM, 1, msg, 23);  /* truncated Report */
    report_v1_from("fe80::2", 255, NODE_SNM);  /* hop limit not 1 */
    report_v1_from("2001:db8::2", 1, NODE_SNM); /* not link-local */
    assert_int_equal(ip.counters[TERN_IPV6_MLD_INVALID], invalid + 6);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_QUERIES_RECEIVED], 0);
    assert_int_equal(ip.counters[TERN_IPV6_MLD_V1_REPORTS_RECEIVED], 0);
    assert_false(tern_ipv6_mld_in_v1_mode(mld_state()));
    run_for(2 * SEC);
    assert_int_equal(nsent, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_mld_join__two_state_change_reports_from_unspecified),
        T(test_mld_query__general_answered_with_all_groups),
        T(test_mld_address__join_and_leave_of_its_solicited_node_group),
        T(test_mld_v1_query__enters_compatibility_mode_and_reports_each_group),
        T(test_mld_v1_query__group_specific_answered_for_that_group_only),
        T(test_mld_v1_query__cancels_pending_mldv2_retransmissions),
        T(test_mld_v1_report__from_another_listener_suppresses_ours),
        T(test_mld_v1_report__does_not_suppress_in_mldv2_mode),
        T(test_mld_v1_join__unsolicited_reports_then_done_to_all_routers_on_leave),
        T(test_mld_v1_leave__no_done_when_another_listener_reported_last),
        T(test_mld_v1_mode__back_to_mldv2_after_older_version_querier_present_timeout),
        T(test_mld_v1_mode__expiry_cancels_pending_v1_reports),
        T(test_mld_v1_mode__each_mldv1_query_restarts_the_timer),
        T(test_mld_v1_mode__timeout_from_last_mldv2_robustness_and_interval),
        T(test_mld_v1_mode__mldv2_query_answered_with_v1_report_without_restarting_timer),
        T(test_mld_v1__malformed_messages_dropped_and_counted),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
