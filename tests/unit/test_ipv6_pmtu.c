/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Path MTU of a host (RFC 8201 §4, §5.2; RFC 4443 §3.2) through the
 *        test device, under virtual time: a Packet Too Big lowers the
 *        estimate of one destination and the node's own packets to it leave
 *        in fragments that fit (checked on the wire); the estimate ages back
 *        to the link MTU; invalid reports change nothing; forwarded packets
 *        still use the link MTU; `nib dest` shows the destination cache.
 *
 * The node has 2001:db8:1::5/64 on a 1500-byte link and a default router
 * fe80::1 (PEER_LL) from a Router Advertisement. The packets it sends to
 * D = 2001:db8:9::9 are echo replies to D's requests (1400 bytes each way
 * unless said otherwise).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "vnode.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/shell.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ndp.h"

static const char *const NODE = "2001:db8:1::5";
static const char *const D = "2001:db8:9::9";
/** The router that reports the smaller MTU (somewhere on the path). */
static const char *const PATH_ROUTER = "2001:db8:5::1";
#define BIG 1400u

/* ------------------------------------------------------------ helpers */

static size_t build_ra(uint8_t *out)
{
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = PEER_MAC, .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_ra_repr_t ra = { .router_lifetime = 9000, .options = opt, .options_len = (size_t)olen };
    uint8_t msg[64];
    int n = tern_ndp_ra_emit(&ra, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, PEER_LL, "ff02::1", 255, msg, (size_t)n);
}

/* An echo request of @p total bytes (IPv6 header included) from @p src to @p dst. */
static size_t build_big_echo(uint8_t *out, const char *src, const char *dst, uint16_t seq, size_t total)
{
    static uint8_t data[1500];
    static uint8_t msg[1500];
    for (size_t i = 0; i < sizeof(data); i++) {
        data[i] = (uint8_t)(i * 7u + 1u);
    }
    tern_icmpv6_echo_repr_t e = { .type = TERN_ICMPV6_ECHO_REQUEST, .identifier = 0x4321, .sequence = seq,
                                  .data = data, .data_len = total - 48u };
    int n = tern_icmpv6_echo_emit(&e, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, src, dst, 64, msg, (size_t)n);
}

/* A Packet Too Big from @p src reporting @p mtu, quoting @p quoted (cut to fit 1280, RFC 4443 §2.4 (c)). */
static size_t build_ptb(uint8_t *out, const char *src, uint32_t mtu, const uint8_t *quoted, size_t qlen)
{
    static uint8_t msg[1280];
    size_t fit = tern_icmpv6_error_invoking_fit(qlen, 40);
    tern_icmpv6_error_repr_t e = { .type = TERN_ICMPV6_PACKET_TOO_BIG, .code = 0, .param = mtu,
                                   .invoking = quoted, .invoking_len = fit };
    int n = tern_icmpv6_error_emit(&e, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, src, NODE, 64, msg, (size_t)n);
}

/* Keep the default router in the neighbor cache (its probes go unanswered here): an NS from it. */
static void router_known(void)
{
    uint8_t pkt[128];
    receive(pkt, build_ns(pkt, PEER_LL, "ff02::1:ff00:5301", NODE_LL, 255));
}

/* @p src pings the node with @p total bytes; forget what was sent before. */
static void ping_from(const char *src, uint16_t seq, size_t total)
{
    static uint8_t pkt[1500];
    router_known();
    nsent = 0;
    receive(pkt, build_big_echo(pkt, src, NODE, seq, total));
}

/** What the node sent of one datagram: whole, or its fragments. */
typedef struct {
    unsigned frames;       /**< frames carrying it */
    unsigned fragments;    /**< of which with a Fragment header */
    size_t max_frame;      /**< longest frame */
    size_t frame_len[4];   /**< each frame's length, in sending order */
    uint16_t offset[4];    /**< each fragment's offset (8-octet units) */
    bool more[4];          /**< each fragment's M flag */
    size_t bytes;          /**< bytes after the IPv6 header and Fragment header, summed */
} sent_datagram_t;

/* The frames sent to @p dst (all of them are one datagram in these tests). */
static sent_datagram_t sent_to(const char *dst)
{
    sent_datagram_t s;
    memset(&s, 0, sizeof(s));
    tern_ipv6_addr_t d = A(dst);
    for (unsigned i = 0; i < nsent; i++) {
        tern_ipv6_repr_t h;
        assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
        assert_int_equal(tern_ipv6_check_len(&h, sent_len[i]), (int)sent_len[i] - 40);
        if (!tern_ipv6_addr_equal(&h.dst, &d)) {
            continue;
        }
        assert_true(s.frames < 4);
        s.frame_len[s.frames] = sent_len[i];
        s.max_frame = (sent_len[i] > s.max_frame) ? sent_len[i] : s.max_frame;
        if (h.next_header == TERN_IPV6_NH_FRAGMENT) {
            tern_ipv6_frag_repr_t f;
            assert_true(tern_ipv6_frag_parse(&f, sent[i] + 40, sent_len[i] - 40) > 0);
            assert_int_equal(f.next_header, TERN_ICMPV6_NEXT_HEADER);
            s.offset[s.frames] = f.offset;
            s.more[s.frames] = f.more;
            s.fragments++;
            s.bytes += sent_len[i] - 48u;
        } else {
            assert_int_equal(h.next_header, TERN_ICMPV6_NEXT_HEADER);
            s.bytes += sent_len[i] - 40u;
        }
        s.frames++;
    }
    return s;
}

/* The last frame sent to @p dst, copied into @p out. @return its length. */
static size_t last_sent_to(const char *dst, uint8_t *out)
{
    tern_ipv6_addr_t d = A(dst);
    for (unsigned i = nsent; i-- > 0;) {
        tern_ipv6_repr_t h;
        if (tern_ipv6_parse(&h, sent[i], sent_len[i]) == 40 && tern_ipv6_addr_equal(&h.dst, &d)) {
            memcpy(out, sent[i], sent_len[i]);
            return sent_len[i];
        }
    }
    fail_msg("nothing was sent to %s", dst);
    return 0;
}

/* The Path MTU the destination cache holds for @p dst; 0 for none. */
static uint16_t cached_pmtu(const char *dst)
{
    tern_ipv6_dest_list_t list;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_DESTINATIONS, 0, &list, sizeof(list)),
                     (int)sizeof(list));
    tern_ipv6_addr_t a = A(dst);
    for (size_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        if (list.entries[i].used && tern_ipv6_addr_equal(&list.entries[i].dst, &a)) {
            return list.entries[i].pmtu;
        }
    }
    return 0;
}

/* D pings with BIG bytes, then a router on the path reports @p mtu about the
 * reply (about its first fragment, sent last, when it was fragmented). */
static void reply_then_ptb(uint32_t mtu)
{
    static uint8_t reply[1500];
    static uint8_t pkt[1500];
    ping_from(D, 1, BIG);
    size_t len = last_sent_to(D, reply);
    assert_true(len > 40 && len <= BIG);
    receive(pkt, build_ptb(pkt, PATH_ROUTER, mtu, reply, len));
}

static int setup(void **state)
{
    (void)state;
    vnode_setup(1500);
    settle();
    tern_ipv6_addr_config_t cfg = { .addr = A(NODE), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_ADD, netif.index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
    run_for(1100 * MS);
    assert_int_equal(addr_state(NODE), TERN_IPV6_ADDR_PREFERRED);
    uint8_t pkt[128];
    receive(pkt, build_ra(pkt));
    assert_int_equal(counter(TERN_IPV6_RA_RECEIVED), 1);
    nsent = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    vnode_teardown();
    return 0;
}

/* ------------------------------------------------------------ tests */

static void test_pmtu__packet_too_big_sizes_fragments_of_own_packets(void **state)
{
    (void)state;
    /* Before: 1400 bytes fit the 1500-byte link. */
    ping_from(D, 1, BIG);
    sent_datagram_t s = sent_to(D);
    assert_int_equal(s.frames, 1);
    assert_int_equal(s.fragments, 0);
    assert_int_equal(s.max_frame, BIG);
    reply_then_ptb(1300);
    assert_int_equal(counter(TERN_IPV6_PMTU_LOWERED), 1);
    assert_int_equal(cached_pmtu(D), 1300);
    /* Now the reply leaves in fragments of at most 1300 bytes (RFC 8200 §4.5:
     * 1300 - 40 - 8 = 1252, cut to a multiple of 8: 1248 data bytes), last first. */
    ping_from(D, 2, BIG);
    s = sent_to(D);
    assert_int_equal(s.frames, 2);
    assert_int_equal(s.fragments, 2);
    assert_int_equal(s.frame_len[0], 40u + 8u + (BIG - 40u - 1248u));
    assert_false(s.more[0]);
    assert_int_equal(s.offset[0], 1248u / 8u);
    assert_int_equal(s.frame_len[1], 40u + 8u + 1248u);
    assert_true(s.more[1]);
    assert_int_equal(s.offset[1], 0);
    assert_true(s.max_frame <= 1300);
    assert_int_equal(s.bytes, BIG - 40u);
    assert_int_equal(counter(TERN_IPV6_FRAG_OK), 1);
    /* The estimate belongs to D only (RFC 8201 §5.2). */
    ping_from("2001:db8:7::7", 3, BIG);
    s = sent_to("2001:db8:7::7");
    assert_int_equal(s.frames, 1);
    assert_int_equal(s.max_frame, BIG);
    /* Small packets to D need no Fragment header. */
    ping_from(D, 4, 200);
    s = sent_to(D);
    assert_int_equal(s.frames, 1);
    assert_int_equal(s.fragments, 0);
}

static void test_pmtu__below_1280_discarded_no_atomic_fragments(void **state)
{
    (void)state;
    /* RFC 8201 §4: a reported MTU below 1280 is discarded. */
    reply_then_ptb(1000);
    assert_int_equal(counter(TERN_IPV6_PTB_BELOW_MIN), 1);
    assert_int_equal(counter(TERN_IPV6_PMTU_LOWERED), 0);
    assert_int_equal(cached_pmtu(D), 0);
    ping_from(D, 2, BIG);
    sent_datagram_t s = sent_to(D);
    assert_int_equal(s.frames, 1); /* the link MTU still */
    assert_int_equal(s.fragments, 0);
    /* At 1280, a later report below 1280 leaves it at 1280. */
    reply_then_ptb(1280);
    assert_int_equal(cached_pmtu(D), 1280);
    reply_then_ptb(600);
    assert_int_equal(counter(TERN_IPV6_PTB_BELOW_MIN), 2);
    assert_int_equal(cached_pmtu(D), 1280);
    /* RFC 8021: a packet that fits 1280 goes without a Fragment header (no atomic fragment). */
    ping_from(D, 3, 1280);
    s = sent_to(D);
    assert_int_equal(s.frames, 1);
    assert_int_equal(s.fragments, 0);
    assert_int_equal(s.max_frame, 1280);
    ping_from(D, 4, 1281);
    s = sent_to(D);
    assert_int_equal(s.fragments, 2);
    assert_true(s.max_frame <= 1280);
}

static void test_pmtu__invalid_or_not_lower_reports_change_nothing(void **state)
{
    (void)state;
    static uint8_t reply[1500];
    static uint8_t pkt[1500];
    ping_from(D, 1, BIG);
    size_t len = last_sent_to(D, reply);
    /* Quoting a packet some other node sent (RFC 8201 §5.2: only our packets count). */
    uint8_t other[1500];
    memcpy(other, reply, len);
    tern_ipv6_addr_t stranger = A("2001:db8:1::99");
    memcpy(&other[8], stranger.u8, 16);
    receive(pkt, build_ptb(pkt, PATH_ROUTER, 1300, other, len));
    assert_int_equal(counter(TERN_IPV6_PTB_INVALID), 1);
    /* Quoting less than an IPv6 header. */
    receive(pkt, build_ptb(pkt, PATH_ROUTER, 1300, reply, 39));
    assert_int_equal(counter(TERN_IPV6_PTB_INVALID), 2);
    /* Quoting something that is not IPv6 (version 4). */
    memcpy(other, reply, len);
    other[0] = 0x45;
    receive(pkt, build_ptb(pkt, PATH_ROUTER, 1300, other, len));
    assert_int_equal(counter(TERN_IPV6_PTB_INVALID), 3);
    assert_int_equal(cached_pmtu(D), 0);
    /* Not below the current estimate (the link MTU): no change (RFC 8201 §4). */
    receive(pkt, build_ptb(pkt, PATH_ROUTER, 1500, reply, len));
    receive(pkt, build_ptb(pkt, PATH_ROUTER, 9000, reply, len));
    assert_int_equal(counter(TERN_IPV6_PTB_NOT_LOWER), 2);
    assert_int_equal(cached_pmtu(D), 0);
    /* Lowered to 1400, then a report of 1450 does not raise it ("MUST NOT increase"). */
    receive(pkt, build_ptb(pkt, PATH_ROUTER, 1400, reply, len));
    assert_int_equal(cached_pmtu(D), 1400);
    receive(pkt, build_ptb(pkt, PATH_ROUTER, 1450, reply, len));
    assert_int_equal(counter(TERN_IPV6_PTB_NOT_LOWER), 3);
    assert_int_equal(cached_pmtu(D), 1400);
    receive(pkt, build_ptb(pkt, PATH_ROUTER, 1290, reply, len));
    assert_int_equal(cached_pmtu(D), 1290);
    assert_int_equal(counter(TERN_IPV6_PMTU_LOWERED), 2);
    assert_int_equal(nsent, 1); /* the echo reply only: nothing answers a Packet Too Big */
}

static void test_pmtu__ages_back_to_link_mtu_after_timeout(void **state)
{
    (void)state;
    reply_then_ptb(1300);
    uint64_t learnt = clock_v.now;
    assert_int_equal(cached_pmtu(D), 1300);
    /* Just before TERN_CONF_IPV6_PMTU_TIMEOUT_S (RFC 8201 §4: 10 minutes): still fragmented. */
    run_for((uint64_t)TERN_CONF_IPV6_PMTU_TIMEOUT_S * SEC - 2u * SEC);
    ping_from(D, 2, BIG);
    assert_int_equal(sent_to(D).fragments, 2);
    assert_true(clock_v.now < learnt + (uint64_t)TERN_CONF_IPV6_PMTU_TIMEOUT_S * SEC);
    /* After it: the link MTU again, one frame. */
    run_for(2u * SEC);
    assert_int_equal(cached_pmtu(D), 0);
    ping_from(D, 3, BIG);
    sent_datagram_t s = sent_to(D);
    assert_int_equal(s.frames, 1);
    assert_int_equal(s.max_frame, BIG);
}

static void test_pmtu__forwarded_packets_keep_link_mtu(void **state)
{
    (void)state;
    static uint8_t pkt[1500];
    /* A Path MTU for D learnt as a host... */
    reply_then_ptb(1300);
    assert_int_equal(cached_pmtu(D), 1300);
    /* ... then the node routes: D's prefix via fe80::2 on the same link. */
    assert_int_equal(tern_ipv6_set_router(&ip, true), 0);
    run_for(1);
    tern_ipv6_route_config_t route = { .prefix = A("2001:db8:9::"), .next_hop = A("fe80::2"), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, netif.index, &route, sizeof(route)),
                     (int)sizeof(route));
    receive(pkt, build_ns(pkt, "fe80::2", "ff02::1:ff00:5301", NODE_LL, 255));
    nsent = 0;
    /* RFC 8200 §5: a router does not fragment; 1400 <= the link MTU 1500: forwarded whole. */
    size_t len = build_big_echo(pkt, "2001:db8:1::100", D, 9, BIG);
    receive(pkt, len);
    assert_int_equal(counter(TERN_IPV6_FWD_PACKETS), 1);
    sent_datagram_t s = sent_to(D);
    assert_int_equal(s.frames, 1);
    assert_int_equal(s.fragments, 0);
    assert_int_equal(s.max_frame, BIG);
    assert_int_equal(counter(TERN_IPV6_FWD_TOO_BIG), 0);
    /* The router's own packets to D still follow the estimate. */
    ping_from(D, 5, BIG);
    s = sent_to(D);
    assert_int_equal(s.fragments, 2);
    assert_true(s.max_frame <= 1300);
}

static void test_pmtu__full_cache_evicts_least_recently_used(void **state)
{
    (void)state;
    static uint8_t reply[1500];
    static uint8_t pkt[1500];
    char dst[TERN_CONF_IPV6_DCACHE_SIZE + 1][32];
    for (unsigned k = 0; k <= TERN_CONF_IPV6_DCACHE_SIZE; k++) {
        (void)snprintf(dst[k], sizeof(dst[k]), "2001:db8:9::%x", k + 1u);
        ping_from(dst[k], (uint16_t)k, 200);
        size_t len = last_sent_to(dst[k], reply);
        receive(pkt, build_ptb(pkt, PATH_ROUTER, 1300, reply, len));
        run_for(SEC);
    }
    /* The first destination was the least recently used: its entry went to the last one. */
    assert_int_equal(counter(TERN_IPV6_PMTU_LOWERED), TERN_CONF_IPV6_DCACHE_SIZE + 1u);
    assert_int_equal(counter(TERN_IPV6_DCACHE_EVICTED), 1);
    assert_int_equal(cached_pmtu(dst[0]), 0);
    for (unsigned k = 1; k <= TERN_CONF_IPV6_DCACHE_SIZE; k++) {
        assert_int_equal(cached_pmtu(dst[k]), 1300);
    }
}

/* ------------------------------------------------------------ nib dest */

static char out[4096];
static size_t out_len;

static void capture_out(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    assert_true(out_len + len < sizeof(out));
    memcpy(&out[out_len], text, len);
    out_len += len;
    out[out_len] = '\0';
}

static void test_nib_dest__lists_next_hop_pmtu_and_age(void **state)
{
    (void)state;
    static tern_shell_t sh;
    static tern_shell_ipv6_t cmds;
    tern_shell_init(&sh, &stack, capture_out, NULL);
    tern_shell_add_ipv6(&sh, &cmds, &ip);
    char line[TERN_CONF_SHELL_LINE_MAX];
    out_len = 0;
    strcpy(line, "nib dest");
    assert_int_equal(tern_shell_run(&sh, line), 0);
    assert_int_equal(out_len, 0); /* empty */
    reply_then_ptb(1300);
    /* A Redirect for 2001:db8:9::a to fe80::2 (RFC 4861 §8.3). */
    uint8_t msg[64];
    tern_ndp_redirect_repr_t rd = { .target = A("fe80::2"), .destination = A("2001:db8:9::a") };
    int n = tern_ndp_redirect_emit(&rd, msg, sizeof(msg));
    assert_true(n > 0);
    uint8_t pkt[128];
    receive(pkt, build_icmp(pkt, PEER_LL, NODE, 255, msg, (size_t)n));
    assert_int_equal(counter(TERN_IPV6_REDIRECT_ACCEPTED), 1);
    run_for(5 * SEC);
    out_len = 0;
    strcpy(line, "nib dest");
    assert_int_equal(tern_shell_run(&sh, line), 0);
    assert_non_null(strstr(out, "2001:db8:9::9                -                              dev -       pmtu 1300  age 5s\n"));
    assert_non_null(strstr(out, "2001:db8:9::a                via fe80::2                    dev test0   pmtu -     age 5s\n"));
    out_len = 0;
    strcpy(line, "nib bogus");
    assert_int_equal(tern_shell_run(&sh, line), -EINVAL);
    assert_non_null(strstr(out, "nib dest"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_pmtu__packet_too_big_sizes_fragments_of_own_packets),
        T(test_pmtu__below_1280_discarded_no_atomic_fragments),
        T(test_pmtu__invalid_or_not_lower_reports_change_nothing),
        T(test_pmtu__ages_back_to_link_mtu_after_timeout),
        T(test_pmtu__forwarded_packets_keep_link_mtu),
        T(test_pmtu__full_cache_evicts_least_recently_used),
        T(test_nib_dest__lists_next_hop_pmtu_and_age),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
