/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IPv6 fragmentation and reassembly (RFC 8200 §4.5, RFC 5722,
 *        RFC 6946) end to end through the test device, under virtual time.
 *
 * The test device has an MTU of 1280: an echo request of 3000 data bytes
 * (a 3008-byte ICMPv6 message) travels as fragments of 1232 + 1232 + 544
 * bytes, and so does the reply (last fragment first), which the tests parse
 * and put back together.
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
#include "tern/wire/ndp.h"

#define MS 1000u
#define SEC 1000000u
#define MTU 1280u
#define PER 1232u /* (MTU - 40 - 8) rounded down to 8 */

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_stack_t stack;
static tern_ipv6_t ip;
static tern_netdev_test_t dev;
static tern_netif_t netif;

static const uint8_t NODE_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 };
static const uint8_t PEER_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x99 };
static const char *NODE_LL = "fe80::5eff:fe00:5301";
static const char *PEER_LL = "fe80::1";

/* Frames the node sent (whole IPv6 packets). */
#define MAX_SENT 64
static uint8_t sent[MAX_SENT][MTU];
static size_t sent_len[MAX_SENT];
static unsigned nsent;
static uint8_t rx[MTU];

static int capture(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    size_t len = 0;
    assert_true(nsent < MAX_SENT);
    for (size_t i = 0; i < count; i++) {
        assert_true(len + iol[i].len <= MTU);
        memcpy(&sent[nsent][len], iol[i].base, iol[i].len);
        len += iol[i].len;
    }
    if (len > 48 && sent[nsent][6] == 0 && sent[nsent][48] == 143) {
        return (int)len; /* MLDv2 reports (RFC 3810, test_mld.c) are not this test's business */
    }
    sent_len[nsent++] = len;
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

static void receive(const uint8_t *pkt, size_t len)
{
    memcpy(rx, pkt, len);
    assert_int_equal(tern_netdev_test_inject(&dev, rx, len), 0);
    run_for(1);
}

static uint32_t counter(unsigned c)
{
    return ip.counters[c];
}

/* An echo request message of @p data_len bytes (pattern by @p seed), checksum filled. */
static uint8_t msg[4096];
static size_t build_echo_msg(size_t data_len, uint16_t seq, uint8_t seed)
{
    static uint8_t data[4096];
    for (size_t i = 0; i < data_len; i++) {
        data[i] = (uint8_t)(i * 7u + seed);
    }
    tern_icmpv6_echo_repr_t e = { .type = TERN_ICMPV6_ECHO_REQUEST, .identifier = 0x4242, .sequence = seq,
                                  .data = data, .data_len = data_len };
    int n = tern_icmpv6_echo_emit(&e, msg, sizeof(msg));
    assert_true(n > 0);
    tern_ipv6_addr_t src = A(PEER_LL), dst = A(NODE_LL);
    assert_int_equal(tern_icmpv6_checksum_fill(msg, (size_t)n, &src, &dst), 0);
    return (size_t)n;
}

/* A fragment from the peer: [IPv6][Fragment][@p len bytes of msg from @p off]. */
static size_t build_frag(uint8_t *out, uint32_t id, size_t off, size_t len, bool more)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)(8u + len), .next_header = 44, .hop_limit = 64,
                           .src = A(PEER_LL), .dst = A(NODE_LL) };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    tern_ipv6_frag_repr_t f = { .next_header = 58, .offset = (uint16_t)(off / 8u), .more = more,
                                .identification = id };
    assert_int_equal(tern_ipv6_frag_emit(&f, out + 40, 8), 8);
    if (off + len <= sizeof(msg)) {
        memcpy(out + 48, msg + off, len);
    } else {
        memset(out + 48, 0xa5, len); /* beyond any real message (the 65535 test) */
    }
    return 48u + len;
}

static void send_frag(uint32_t id, size_t off, size_t len, bool more)
{
    uint8_t pkt[MTU];
    receive(pkt, build_frag(pkt, id, off, len, more));
}

/* The peer announces itself (NS with its link address): replies need no resolution. */
static void introduce_peer(void)
{
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = PEER_MAC, .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_ns_repr_t ns = { .target = A(NODE_LL), .options = opt, .options_len = (size_t)olen };
    uint8_t m[64];
    int n = tern_ndp_ns_emit(&ns, m, sizeof(m));
    assert_true(n > 0);
    uint8_t pkt[128];
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)n, .next_header = 58, .hop_limit = 255,
                           .src = A(PEER_LL), .dst = A("ff02::1:ff00:5301") };
    assert_int_equal(tern_ipv6_emit(&h, pkt, 40), 40);
    memcpy(pkt + 40, m, (size_t)n);
    assert_int_equal(tern_icmpv6_checksum_fill(pkt + 40, (size_t)n, &h.src, &h.dst), 0);
    receive(pkt, 40u + (size_t)n);
    nsent = 0;
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
    dev.mtu = MTU;
    dev.send_cb = capture;
    assert_int_equal(tern_netif_add(&stack, &netif, "test0", &dev.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_IPV6), 0);
    assert_int_equal(tern_ipv6_netif_enable(&ip, &netif), 0);
    run_for(2100 * MS); /* DAD of the link-local address */
    introduce_peer();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    /* Let every reassembly expire: nothing may stay in the pktbuf. */
    nsent = 0;
    run_for((TERN_CONF_IPV6_REASS_TIMEOUT_S + 1u) * SEC);
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

/*
 * Put the fragments the node sent since frame @p first back together
 * (checking RFC 8200 §4.5 on the way): one Identification, sizes within the
 * MTU, multiples of 8 but the last, M on all but the last, no gap and no
 * overlap (Tern sends the last first: any order is accepted here).
 * @return the reassembled length; @p out gets the bytes.
 */
static size_t reassemble_sent(unsigned first, uint8_t *out, size_t out_len, unsigned *fragments)
{
    static bool covered[65536 / 8];
    memset(covered, 0, sizeof(covered));
    bool have_id = false;
    uint32_t id = 0;
    size_t total = 0, bytes = 0;
    *fragments = 0;
    for (unsigned i = first; i < nsent; i++) {
        tern_ipv6_repr_t h;
        assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
        if (h.next_header != 44) {
            continue; /* NUD probes and the like */
        }
        assert_true(sent_len[i] <= MTU);
        assert_int_equal(tern_ipv6_check_len(&h, sent_len[i]), (int)sent_len[i] - 40);
        tern_ipv6_frag_repr_t f;
        assert_int_equal(tern_ipv6_frag_parse(&f, sent[i] + 40, sent_len[i] - 40), 8);
        size_t len = sent_len[i] - 48u;
        size_t off = (size_t)f.offset * 8u;
        assert_int_equal(f.next_header, 58);
        if (!have_id) {
            id = f.identification;
            have_id = true;
        }
        assert_int_equal(f.identification, id);
        if (f.more) {
            assert_int_equal(len % 8u, 0);
        } else {
            assert_int_equal(total, 0); /* one last fragment */
            total = off + len;
        }
        assert_true(off + len <= out_len);
        for (size_t u = off / 8u; u < (off + len + 7u) / 8u; u++) {
            assert_false(covered[u]);
            covered[u] = true;
        }
        memcpy(out + off, sent[i] + 48, len);
        bytes += len;
        (*fragments)++;
    }
    assert_true(total > 0);
    assert_int_equal(bytes, total); /* no gap */
    return total;
}

/* The reassembled reply in @p b (@p len bytes) answers msg (request of @p req_len bytes). */
static void assert_echo_reply(const uint8_t *b, size_t len, size_t req_len)
{
    assert_int_equal(len, req_len);
    assert_int_equal(b[0], TERN_ICMPV6_ECHO_REPLY);
    tern_ipv6_addr_t src = A(NODE_LL), dst = A(PEER_LL);
    const tern_checksum_span_t span = { .data = b, .len = len };
    assert_true(tern_icmpv6_checksum_verify(&src, &dst, &span, 1));
    assert_memory_equal(b + 4, msg + 4, len - 4); /* identifier, sequence, data */
}

static void check_reply(unsigned first, size_t req_len, unsigned expect_fragments)
{
    static uint8_t back[4096];
    unsigned fragments;
    size_t len = reassemble_sent(first, back, sizeof(back), &fragments);
    assert_int_equal(fragments, expect_fragments);
    assert_echo_reply(back, len, req_len);
}

static void test_ipv6_reass__in_order_echo_reassembled_and_reply_fragmented(void **state)
{
    (void)state;
    size_t n = build_echo_msg(3000, 1, 0);
    assert_int_equal(n, 3008);
    send_frag(7, 0, PER, true);
    send_frag(7, PER, PER, true);
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 0);
    send_frag(7, 2 * PER, n - 2 * PER, false);
    assert_int_equal(counter(TERN_IPV6_REASS_OK), 1);
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 1);
    check_reply(0, n, 3);
    assert_int_equal(counter(TERN_IPV6_FRAG_OK), 1);
    assert_int_equal(counter(TERN_IPV6_FRAG_SENT), 3);
    /* The next datagram gets the next Identification. */
    tern_ipv6_frag_repr_t f1, f2;
    unsigned first = nsent;
    send_frag(8, 0, PER, true);
    send_frag(8, PER, PER, true);
    send_frag(8, 2 * PER, n - 2 * PER, false);
    assert_int_equal(tern_ipv6_frag_parse(&f1, sent[0] + 40, 8), 8);
    assert_int_equal(tern_ipv6_frag_parse(&f2, sent[first] + 40, 8), 8);
    assert_int_equal(f2.identification, f1.identification + 1u);
}

static void test_ipv6_reass__out_of_order_with_exact_duplicate(void **state)
{
    (void)state;
    size_t n = build_echo_msg(3000, 2, 3);
    send_frag(9, 2 * PER, n - 2 * PER, false);
    send_frag(9, 0, PER, true);
    send_frag(9, 0, PER, true); /* exact duplicate: dropped alone (RFC 8200 §4.5) */
    assert_int_equal(counter(TERN_IPV6_REASS_DUPLICATE), 1);
    send_frag(9, PER, PER, true);
    assert_int_equal(counter(TERN_IPV6_REASS_OK), 1);
    assert_int_equal(counter(TERN_IPV6_REASS_OVERLAP), 0);
    check_reply(0, n, 3);
}

static void test_ipv6_reass__overlap_discards_datagram(void **state)
{
    (void)state;
    size_t n = build_echo_msg(3000, 3, 5);
    send_frag(10, 0, PER, true);
    send_frag(10, PER - 8u, PER, true); /* overlaps the first by one unit (RFC 5722) */
    assert_int_equal(counter(TERN_IPV6_REASS_OVERLAP), 1);
    /* The rest of the datagram is dropped too (RFC 5722 §4). */
    send_frag(10, PER, PER, true);
    send_frag(10, 2 * PER, n - 2 * PER, false);
    assert_int_equal(counter(TERN_IPV6_REASS_OVERLAP), 3);
    assert_int_equal(counter(TERN_IPV6_REASS_OK), 0);
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 0);
    /* Silently: no Time Exceeded when its deadline passes. */
    run_for((TERN_CONF_IPV6_REASS_TIMEOUT_S + 1u) * SEC);
    assert_int_equal(counter(TERN_IPV6_REASS_TIMEOUT), 0);
    assert_int_equal(counter(TERN_IPV6_ICMP_ERRORS_OUT), 0);
}

static void test_ipv6_reass__timeout_sends_time_exceeded_quoting_first_fragment(void **state)
{
    (void)state;
    size_t n = build_echo_msg(3000, 4, 9);
    (void)n;
    uint8_t first[MTU];
    size_t first_len = build_frag(first, 11, 0, PER, true);
    receive(first, first_len);
    send_frag(11, PER, PER, true);
    run_for((TERN_CONF_IPV6_REASS_TIMEOUT_S - 1u) * SEC);
    assert_int_equal(counter(TERN_IPV6_REASS_TIMEOUT), 0);
    introduce_peer(); /* NUD gave up on the silent peer meanwhile: known again */
    run_for(2 * SEC);
    assert_int_equal(counter(TERN_IPV6_REASS_TIMEOUT), 1);
    unsigned found = 0;
    for (unsigned i = 0; i < nsent; i++) {
        tern_ipv6_repr_t h;
        assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
        if (h.next_header != 58 || sent[i][40] != TERN_ICMPV6_TIME_EXCEEDED) {
            continue;
        }
        found++;
        tern_icmpv6_error_repr_t e;
        assert_true(tern_icmpv6_error_parse(&e, sent[i] + 40, sent_len[i] - 40) >= 0);
        assert_int_equal(e.code, TERN_ICMPV6_TIME_EXCEEDED_REASSEMBLY);
        /* RFC 4443 §2.4 (c): as much of the first fragment as fits in 1280 bytes. */
        assert_int_equal(e.invoking_len, MTU - 48u);
        assert_memory_equal(e.invoking, first, e.invoking_len);
    }
    assert_int_equal(found, 1);
    /* Without the first fragment: freed, counted, no error (RFC 8200 §4.5). */
    send_frag(12, PER, PER, true);
    run_for((TERN_CONF_IPV6_REASS_TIMEOUT_S + 1u) * SEC);
    assert_int_equal(counter(TERN_IPV6_REASS_TIMEOUT), 2);
    assert_int_equal(counter(TERN_IPV6_ICMP_ERRORS_OUT), 1);
}

/* The one ICMPv6 error sent since frame @p first: Parameter Problem code 0 with @p pointer. */
static void assert_param_problem(unsigned first, uint32_t pointer)
{
    unsigned found = 0;
    for (unsigned i = first; i < nsent; i++) {
        tern_ipv6_repr_t h;
        assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
        if (h.next_header != 58 || sent[i][40] != TERN_ICMPV6_PARAM_PROBLEM) {
            continue;
        }
        tern_icmpv6_error_repr_t e;
        assert_true(tern_icmpv6_error_parse(&e, sent[i] + 40, sent_len[i] - 40) >= 0);
        assert_int_equal(e.code, TERN_ICMPV6_PARAM_PROBLEM_HEADER_FIELD);
        assert_int_equal(e.param, pointer);
        found++;
    }
    assert_int_equal(found, 1);
}

static void test_ipv6_reass__bad_length_and_offset_param_problem(void **state)
{
    (void)state;
    (void)build_echo_msg(3000, 5, 1);
    send_frag(13, PER, 1001, true); /* M = 1, 1001 bytes: not a multiple of 8 */
    assert_param_problem(0, 4);     /* Payload Length */
    assert_int_equal(counter(TERN_IPV6_REASS_INVALID), 1);
    unsigned first = nsent;
    send_frag(14, 65528u - 8u, 24, false); /* would end past 65535 */
    assert_param_problem(first, 40u + 2u); /* Fragment Offset */
    assert_int_equal(counter(TERN_IPV6_REASS_INVALID), 2);
    for (size_t i = 0; i < TERN_CONF_IPV6_REASS_SLOTS; i++) {
        assert_false(ip.frag.slots[i].used); /* no state for either */
    }
}

static void test_ipv6_reass__atomic_fragment_processed_alone(void **state)
{
    (void)state;
    size_t n = build_echo_msg(100, 6, 2);
    send_frag(15, 0, PER, true); /* a reassembly of the same Identification in progress... */
    (void)build_echo_msg(100, 6, 2);
    send_frag(15, 0, n, false);  /* ...is not touched by the atomic fragment (RFC 6946 §4) */
    assert_int_equal(counter(TERN_IPV6_REASS_ATOMIC), 1);
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 1);
    assert_int_equal(counter(TERN_IPV6_REASS_OVERLAP), 0);
    assert_true(ip.frag.slots[0].used || ip.frag.slots[1].used);
    /* The reply is small: not fragmented. */
    unsigned replies = 0;
    for (unsigned i = 0; i < nsent; i++) {
        tern_ipv6_repr_t h;
        assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
        if (h.next_header == 58 && sent[i][40] == TERN_ICMPV6_ECHO_REPLY) {
            assert_int_equal(sent_len[i], 40u + n);
            assert_memory_equal(sent[i] + 44, msg + 4, n - 4);
            replies++;
        }
    }
    assert_int_equal(replies, 1);
}

static void test_ipv6_reass__two_datagrams_interleaved(void **state)
{
    (void)state;
    size_t n = build_echo_msg(1500, 7, 4); /* 1508 bytes: 1232 + 276 */
    send_frag(20, 0, PER, true);
    send_frag(21, PER, n - PER, false);
    send_frag(21, 0, PER, true);
    assert_int_equal(counter(TERN_IPV6_REASS_OK), 1);
    check_reply(0, n, 2);
    unsigned first = nsent;
    send_frag(20, PER, n - PER, false);
    assert_int_equal(counter(TERN_IPV6_REASS_OK), 2);
    check_reply(first, n, 2);
}

static void test_ipv6_reass__full_table_evicts_oldest(void **state)
{
    (void)state;
    size_t n = build_echo_msg(1500, 8, 6);
    for (uint32_t id = 30; id < 30u + TERN_CONF_IPV6_REASS_SLOTS; id++) {
        send_frag(id, 0, PER, true);
        run_for(10 * MS);
    }
    assert_int_equal(counter(TERN_IPV6_REASS_EVICTED), 0);
    send_frag(99, 0, PER, true); /* evicts id 30, the oldest */
    assert_int_equal(counter(TERN_IPV6_REASS_EVICTED), 1);
    send_frag(99, PER, n - PER, false);
    assert_int_equal(counter(TERN_IPV6_REASS_OK), 1);
    check_reply(0, n, 2);
    /* id 30 is gone: its last fragment starts a new datagram (in the slot 99 freed). */
    send_frag(30, PER, n - PER, false);
    assert_int_equal(counter(TERN_IPV6_REASS_OK), 1);
    assert_int_equal(counter(TERN_IPV6_REASS_EVICTED), 1);
    if (TERN_CONF_IPV6_REASS_SLOTS >= 2) {
        send_frag(31, PER, n - PER, false); /* id 31 survived */
        assert_int_equal(counter(TERN_IPV6_REASS_OK), 2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_ipv6_reass__in_order_echo_reassembled_and_reply_fragmented),
        T(test_ipv6_reass__out_of_order_with_exact_duplicate),
        T(test_ipv6_reass__overlap_discards_datagram),
        T(test_ipv6_reass__timeout_sends_time_exceeded_quoting_first_fragment),
        T(test_ipv6_reass__bad_length_and_offset_param_problem),
        T(test_ipv6_reass__atomic_fragment_processed_alone),
        T(test_ipv6_reass__two_datagrams_interleaved),
        T(test_ipv6_reass__full_table_evicts_oldest),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
