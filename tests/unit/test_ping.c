/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The ping client end to end through the IPv6 module and the test
 *        device, under virtual time: requests (sequence, identifier,
 *        checksum), replies matched and timed, duplicates, loss, timeouts,
 *        errors about our requests, replies nobody asked for, size sweeps,
 *        adaptive pacing, replies whose data is not the request's.
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
#include "tern/ping.h"
#include "tern/port/loop.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ndp.h"

#define MS 1000u
#define SEC 1000000u

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_stack_t stack;
static tern_ipv6_t ip;
static tern_netdev_test_t dev;
static tern_netif_t netif;
static tern_ping_t ping;

static const uint8_t NODE_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 };
static const uint8_t PEER_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x99 };
static const char *NODE_LL = "fe80::5eff:fe00:5301";
static const char *PEER_LL = "fe80::1";

/* Echo requests the node sent (whole IPv6 packets); other frames are ignored. */
#define MAX_SENT 16
static uint8_t sent[MAX_SENT][1500];
static size_t sent_len[MAX_SENT];
static unsigned nsent;
static uint8_t rx[1500];

/* Answers the ping client reported. */
#define MAX_REPLIES 8
static tern_ping_reply_t replies[MAX_REPLIES];
static unsigned nreplies;

static int capture(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    uint8_t frame[1500];
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        assert_true(len + iol[i].len <= sizeof(frame));
        memcpy(&frame[len], iol[i].base, iol[i].len);
        len += iol[i].len;
    }
    if (len > 40 && frame[6] == 58 && frame[40] == TERN_ICMPV6_ECHO_REQUEST) {
        assert_true(nsent < MAX_SENT);
        memcpy(sent[nsent], frame, len);
        sent_len[nsent++] = len;
    }
    return (int)len;
}

static void on_reply(void *arg, const tern_ping_reply_t *r)
{
    assert_ptr_equal(arg, &ping);
    assert_true(nreplies < MAX_REPLIES);
    replies[nreplies++] = *r;
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

static void receive(const uint8_t *pkt, size_t len)
{
    memcpy(rx, pkt, len);
    assert_int_equal(tern_netdev_test_inject(&dev, rx, len), 0);
    run_for(1);
}

static size_t build_icmp(uint8_t *out, const char *src, const char *dst, uint8_t hop, const uint8_t *msg,
                         size_t msg_len)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)msg_len, .next_header = 58, .hop_limit = hop,
                           .src = A(src), .dst = A(dst) };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    memcpy(out + 40, msg, msg_len);
    assert_int_equal(tern_icmpv6_checksum_fill(out + 40, msg_len, &h.src, &h.dst), 0);
    return 40 + msg_len;
}

/* The peer's answer to sent request @p i: the same message as an Echo Reply. */
static size_t build_reply(uint8_t *out, unsigned i, uint8_t hop)
{
    assert_true(i < nsent);
    uint8_t msg[1500];
    size_t len = sent_len[i] - 40;
    memcpy(msg, sent[i] + 40, len);
    msg[0] = TERN_ICMPV6_ECHO_REPLY;
    return build_icmp(out, PEER_LL, NODE_LL, hop, msg, len);
}

/* A peer that knows the node (its NS puts it in the cache, so requests go at once). */
static void know_peer(void)
{
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = PEER_MAC, .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_ns_repr_t ns = { .target = A(NODE_LL), .options = opt, .options_len = (size_t)olen };
    uint8_t msg[64];
    int n = tern_ndp_ns_emit(&ns, msg, sizeof(msg));
    assert_true(n > 0);
    uint8_t pkt[128];
    receive(pkt, build_icmp(pkt, PEER_LL, "ff02::1:ff00:5301", 255, msg, (size_t)n));
}

static int setup(void **state)
{
    (void)state;
    tern_vclock_init(&clock_v, 0);
    tern_loop_init(&loop, &clock_v.base);
    assert_int_equal(tern_stack_init(&stack, "t", &loop.base), 0);
    assert_int_equal(tern_ipv6_init(&ip, &stack), 0);
    memset(&ping, 0, sizeof(ping));
    assert_int_equal(tern_ping_init(&ping, &stack, &ip), 0);
    tern_netdev_test_init(&dev);
    memcpy(dev.addr, NODE_MAC, 6);
    dev.addr_len = 6;
    dev.send_cb = capture;
    assert_int_equal(tern_netif_add(&stack, &netif, "test0", &dev.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_IPV6), 0);
    assert_int_equal(tern_ipv6_netif_enable(&ip, &netif), 0);
    run_for(2100 * MS); /* DAD of the link-local address */
    know_peer();
    nsent = 0;
    nreplies = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    tern_executor_stop(&loop.base);
    for (size_t k = 0; k < TERN_CONF_NC_SIZE; k++) {
        tern_nc_entry_t *e = &ip.ifs[0].nc.entries[k];
        for (size_t q = 0; q < e->queued; q++) {
            tern_pktbuf_release(&stack.pktbuf, e->queue[q]);
        }
        e->queued = 0;
    }
    harness_assert_pktbuf_clean(&stack.pktbuf);
    return 0;
}

static tern_ping_config_t config(uint32_t count, uint16_t size)
{
    tern_ping_config_t cfg = { .dst = A(PEER_LL), .netif = netif.index, .count = count, .size = size,
                               .interval_us = 1 * SEC, .wait_us = 1 * SEC };
    return cfg;
}

/* Sent request @p i: checksum valid, to the peer from our link-local; its echo fields. */
static tern_icmpv6_echo_repr_t sent_echo(unsigned i)
{
    assert_true(i < nsent);
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
    tern_ipv6_addr_t peer = A(PEER_LL), node = A(NODE_LL);
    assert_true(tern_ipv6_addr_equal(&h.dst, &peer));
    assert_true(tern_ipv6_addr_equal(&h.src, &node));
    const tern_checksum_span_t span = { .data = sent[i] + 40, .len = sent_len[i] - 40 };
    assert_true(tern_icmpv6_checksum_verify(&h.src, &h.dst, &span, 1));
    tern_icmpv6_echo_repr_t e;
    assert_true(tern_icmpv6_echo_parse(&e, sent[i] + 40, sent_len[i] - 40) > 0);
    return e;
}

static void test_ping_start__bad_config_rejected(void **state)
{
    (void)state;
    tern_ping_config_t cfg = config(0, 8);
    assert_int_equal(tern_ping_start(&ping, &cfg, NULL, NULL), -EINVAL);
    cfg = config(1, 8);
    cfg.netif = 0; /* link-local without an interface */
    assert_int_equal(tern_ping_start(&ping, &cfg, NULL, NULL), -EINVAL);
    cfg = config(1, 8);
    assert_int_equal(tern_ping_start(&ping, &cfg, NULL, NULL), 0);
    assert_int_equal(tern_ping_start(&ping, &cfg, NULL, NULL), -EBUSY);
    assert_int_equal(tern_ping_wait(&ping), 0);
}

static void test_ping_run__requests_matched_replies_timed(void **state)
{
    (void)state;
    tern_ping_config_t cfg = config(3, 16);
    assert_int_equal(tern_ping_start(&ping, &cfg, on_reply, &ping), 0);
    uint8_t pkt[256];
    for (unsigned i = 0; i < 3; i++) {
        run_for(1);
        assert_int_equal(nsent, i + 1);
        tern_icmpv6_echo_repr_t e = sent_echo(i);
        assert_int_equal(e.type, TERN_ICMPV6_ECHO_REQUEST);
        assert_int_equal(e.identifier, ping.identifier);
        assert_int_equal(e.sequence, i + 1); /* from 1, increasing */
        assert_int_equal(e.data_len, 16);
        run_for((i + 1) * 10 * MS);
        receive(pkt, build_reply(pkt, i, 64));
        assert_int_equal(nreplies, i + 1);
        assert_int_equal(replies[i].sequence, i + 1);
        assert_int_equal(replies[i].size, 24);
        assert_int_equal(replies[i].hop_limit, 64);
        assert_int_equal(replies[i].type, TERN_ICMPV6_ECHO_REPLY);
        assert_false(replies[i].duplicate);
        assert_true(replies[i].rtt_us >= (i + 1) * 10 * MS && replies[i].rtt_us <= (i + 1) * 10 * MS + 10);
        tern_ipv6_addr_t peer = A(PEER_LL);
        assert_true(tern_ipv6_addr_equal(&replies[i].from, &peer));
        if (i < 2) {
            assert_true(tern_ping_running(&ping));
            run_for(1 * SEC - (i + 1) * 10 * MS - 2);
        }
    }
    /* Every request answered: done at once, without waiting -W. */
    assert_false(tern_ping_running(&ping));
    tern_ping_stats_t s;
    tern_ping_get_stats(&ping, &s);
    assert_int_equal(s.transmitted, 3);
    assert_int_equal(s.received, 3);
    assert_int_equal(s.duplicates, 0);
    assert_true(s.rtt_min_us >= 10 * MS && s.rtt_min_us < 11 * MS);
    assert_true(s.rtt_max_us >= 30 * MS && s.rtt_max_us < 31 * MS);
    assert_true(s.rtt_sum_us / s.received >= 20 * MS && s.rtt_sum_us / s.received < 21 * MS);
    /* A late reply after the end: nobody listens to that identifier any more. */
    receive(pkt, build_reply(pkt, 2, 64));
    assert_int_equal(ip.counters[TERN_IPV6_ICMP_NO_LISTENER], 1);
    assert_int_equal(nreplies, 3);
}

static void test_ping_run__timeouts_counted_as_loss(void **state)
{
    (void)state;
    tern_ping_config_t cfg = config(4, 0);
    cfg.interval_us = 200 * MS;
    cfg.wait_us = 500 * MS;
    assert_int_equal(tern_ping_start(&ping, &cfg, on_reply, &ping), 0);
    uint8_t pkt[256];
    run_for(1);
    receive(pkt, build_reply(pkt, 0, 64)); /* only the first is answered */
    uint64_t start = clock_v.now;
    assert_int_equal(tern_ping_wait(&ping), 0);
    /* 3 more intervals, then the wait after the last (within one run slice). */
    assert_true(clock_v.now - start >= 3 * 200 * MS + 500 * MS - 10);
    assert_true(clock_v.now - start <= 3 * 200 * MS + 500 * MS + TERN_CONF_PING_RUN_SLICE_US);
    assert_int_equal(nsent, 4);
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(sent_echo(i).sequence, i + 1);
        assert_int_equal(sent_echo(i).data_len, 0);
    }
    tern_ping_stats_t s;
    tern_ping_get_stats(&ping, &s);
    assert_int_equal(s.transmitted, 4);
    assert_int_equal(s.received, 1);
    assert_int_equal(nreplies, 1);
}

static void test_ping_receive__duplicates_and_unknown_sequences(void **state)
{
    (void)state;
    tern_ping_config_t cfg = config(2, 8);
    assert_int_equal(tern_ping_start(&ping, &cfg, on_reply, &ping), 0);
    uint8_t pkt[256];
    run_for(1);
    receive(pkt, build_reply(pkt, 0, 64));
    receive(pkt, build_reply(pkt, 0, 64));
    assert_int_equal(nreplies, 2);
    assert_true(replies[1].duplicate);
    /* Sequence 2 is not sent yet: unknown, dropped and counted. */
    size_t len = build_reply(pkt, 0, 64);
    pkt[40 + 7] = 2;
    tern_ipv6_addr_t from = A(PEER_LL), to = A(NODE_LL);
    assert_int_equal(tern_icmpv6_checksum_fill(pkt + 40, len - 40, &from, &to), 0);
    receive(pkt, len);
    assert_int_equal(ping.drops[TERN_PING_DROP_UNKNOWN], 1);
    assert_int_equal(nreplies, 2);
    assert_int_equal(tern_ping_wait(&ping), 0);
    tern_ping_stats_t s;
    tern_ping_get_stats(&ping, &s);
    assert_int_equal(s.transmitted, 2);
    assert_int_equal(s.received, 1);
    assert_int_equal(s.duplicates, 1);
}

static void test_ping_receive__error_about_our_request(void **state)
{
    (void)state;
    tern_ping_config_t cfg = config(1, 8);
    assert_int_equal(tern_ping_start(&ping, &cfg, on_reply, &ping), 0);
    run_for(1);
    assert_int_equal(nsent, 1);
    /* A router says: address unreachable, quoting our request (RFC 4443 §3.1). */
    uint8_t msg[256];
    tern_icmpv6_error_repr_t err = { .type = TERN_ICMPV6_DST_UNREACH, .code = TERN_ICMPV6_DST_UNREACH_ADDR,
                                     .param = 0, .invoking = sent[0], .invoking_len = sent_len[0] };
    int n = tern_icmpv6_error_emit(&err, msg, sizeof(msg));
    assert_true(n > 0);
    uint8_t pkt[300];
    receive(pkt, build_icmp(pkt, PEER_LL, NODE_LL, 64, msg, (size_t)n));
    assert_int_equal(nreplies, 1);
    assert_int_equal(replies[0].type, TERN_ICMPV6_DST_UNREACH);
    assert_int_equal(replies[0].code, TERN_ICMPV6_DST_UNREACH_ADDR);
    assert_int_equal(replies[0].sequence, 1);
    assert_int_equal(tern_ping_wait(&ping), 0);
    tern_ping_stats_t s;
    tern_ping_get_stats(&ping, &s);
    assert_int_equal(s.errors, 1);
    assert_int_equal(s.received, 0);
}

static void test_ping_start__sweep_config_checked(void **state)
{
    (void)state;
    tern_ping_config_t cfg = config(2, 3);
    cfg.sweep_incr = 2;
    cfg.sweep_max = 8; /* sizes 3, 5, 7: the last step stops below the maximum */
    assert_int_equal(tern_ping_requests(&cfg), 6);
    cfg.sweep_max = 2; /* below the first size */
    assert_int_equal(tern_ping_requests(&cfg), 0);
    assert_int_equal(tern_ping_start(&ping, &cfg, NULL, NULL), -EINVAL);
    cfg.sweep_max = 65528; /* beyond one IPv6 payload */
    assert_int_equal(tern_ping_start(&ping, &cfg, NULL, NULL), -EINVAL);
    cfg = config(2, 0);
    cfg.sweep_incr = 1;
    cfg.sweep_max = 32767; /* 2 x 32768 requests: more than 16-bit sequence numbers count */
    assert_int_equal(tern_ping_requests(&cfg), 65536);
    assert_int_equal(tern_ping_start(&ping, &cfg, NULL, NULL), -EINVAL);
    cfg.sweep_incr = 0; /* no sweep: sweep_max is ignored */
    assert_int_equal(tern_ping_requests(&cfg), 2);
    assert_false(tern_ping_running(&ping));
}

static void test_ping_run__sweep_sizes_follow_sequence(void **state)
{
    (void)state;
    tern_ping_config_t cfg = config(2, 3);
    cfg.sweep_incr = 2;
    cfg.sweep_max = 7;
    cfg.interval_us = 10 * MS;
    cfg.wait_us = 10 * MS;
    assert_int_equal(tern_ping_start(&ping, &cfg, on_reply, &ping), 0);
    assert_int_equal(tern_ping_wait(&ping), 0);
    static const uint16_t sizes[] = { 3, 3, 5, 5, 7, 7 };
    assert_int_equal(nsent, 6);
    for (unsigned i = 0; i < nsent; i++) {
        tern_icmpv6_echo_repr_t e = sent_echo(i);
        assert_int_equal(e.sequence, i + 1);
        assert_int_equal(e.data_len, sizes[i]);
        for (size_t k = 0; k < e.data_len; k++) {
            assert_int_equal(e.data[k], (uint8_t)k);
        }
    }
    /* Answers are checked against the size of their own request. */
    uint8_t pkt[256];
    assert_int_equal(tern_ping_start(&ping, &cfg, on_reply, &ping), 0);
    nsent = 0;
    run_for(1);
    run_for(10 * MS);
    run_for(10 * MS); /* requests 1..3 out */
    assert_int_equal(nsent, 3);
    receive(pkt, build_reply(pkt, 2, 64));
    assert_int_equal(nreplies, 1);
    assert_int_equal(replies[0].sequence, 3);
    assert_int_equal(replies[0].size, 8 + 5);
    assert_int_equal(replies[0].data_sent, 5);
    assert_false(replies[0].data_wrong);
    assert_int_equal(tern_ping_wait(&ping), 0);
    tern_ping_stats_t s;
    tern_ping_get_stats(&ping, &s);
    assert_int_equal(s.transmitted, 6);
    assert_int_equal(s.received, 1);
    assert_int_equal(s.corrupted, 0);
}

static void test_ping_run__adaptive_sends_next_once_answered(void **state)
{
    (void)state;
    tern_ping_config_t cfg = config(3, 8);
    cfg.adaptive = true;
    cfg.interval_us = 1 * SEC;
    cfg.wait_us = 500 * MS;
    assert_int_equal(tern_ping_start(&ping, &cfg, on_reply, &ping), 0);
    uint8_t pkt[256];
    run_for(1);
    assert_int_equal(nsent, 1);
    run_for(10 * MS);
    receive(pkt, build_reply(pkt, 0, 64));
    /* Answered: the next goes at once, not a second after the first. */
    assert_int_equal(nsent, 2);
    assert_int_equal(sent_echo(1).sequence, 2);
    /* Unanswered: the interval is the longest wait for it. */
    run_for(1 * SEC - 10 * MS);
    assert_int_equal(nsent, 2);
    run_for(20 * MS);
    assert_int_equal(nsent, 3);
    receive(pkt, build_reply(pkt, 2, 64));
    /* Request 2 may still be answered: the run waits -W after the last request. */
    assert_true(tern_ping_running(&ping));
    run_for(500 * MS);
    assert_false(tern_ping_running(&ping));
    run_for(2 * SEC);
    assert_int_equal(nsent, 3); /* no timer sends a fourth */
    tern_ping_stats_t s;
    tern_ping_get_stats(&ping, &s);
    assert_int_equal(s.transmitted, 3);
    assert_int_equal(s.received, 2);
}

static void test_ping_receive__wrong_data_reported_and_counted(void **state)
{
    (void)state;
    tern_ping_config_t cfg = config(2, 16);
    cfg.interval_us = 10 * MS;
    assert_int_equal(tern_ping_start(&ping, &cfg, on_reply, &ping), 0);
    run_for(1);
    run_for(10 * MS);
    assert_int_equal(nsent, 2);
    tern_ipv6_addr_t from = A(PEER_LL), to = A(NODE_LL);
    /* Reply 1 with data byte #5 changed. */
    uint8_t pkt[256];
    size_t len = build_reply(pkt, 0, 64);
    pkt[40 + 8 + 5] = 0xAA;
    assert_int_equal(tern_icmpv6_checksum_fill(pkt + 40, len - 40, &from, &to), 0);
    receive(pkt, len);
    assert_int_equal(nreplies, 1);
    assert_true(replies[0].data_wrong);
    assert_int_equal(replies[0].wrong_at, 5);
    assert_int_equal(replies[0].wrong_expected, 5);
    assert_int_equal(replies[0].wrong_got, 0xAA);
    /* Reply 2 with 4 data bytes missing (the payload length says so). */
    len = build_reply(pkt, 1, 64) - 4;
    pkt[4] = 0;
    pkt[5] = (uint8_t)(len - 40);
    assert_int_equal(tern_icmpv6_checksum_fill(pkt + 40, len - 40, &from, &to), 0);
    receive(pkt, len);
    assert_int_equal(nreplies, 2);
    assert_true(replies[1].data_wrong);
    assert_int_equal(replies[1].size, 8 + 12);
    assert_int_equal(replies[1].data_sent, 16);
    assert_int_equal(replies[1].wrong_at, 12);
    /* Both count as received (as iputils counts them) and as corrupted. */
    assert_false(tern_ping_running(&ping));
    tern_ping_stats_t s;
    tern_ping_get_stats(&ping, &s);
    assert_int_equal(s.received, 2);
    assert_int_equal(s.corrupted, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_ping_start__bad_config_rejected),
        T(test_ping_run__requests_matched_replies_timed),
        T(test_ping_run__timeouts_counted_as_loss),
        T(test_ping_receive__duplicates_and_unknown_sequences),
        T(test_ping_receive__error_about_our_request),
        T(test_ping_start__sweep_config_checked),
        T(test_ping_run__sweep_sizes_follow_sequence),
        T(test_ping_run__adaptive_sends_next_once_answered),
        T(test_ping_receive__wrong_data_reported_and_counted),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
