/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test fixture: a router with two interfaces on test devices under virtual time (see vrouter.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "harness.h"
#include "vrouter.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ndp.h"

tern_vclock_t clock_v;
tern_loop_t loop;
tern_stack_t stack;
tern_ipv6_t ip;
link_t links[2];

const uint8_t NODE_MAC[2][6] = { { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 }, { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x02 } };
const uint8_t PEER_MAC[2][6] = { { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x91 }, { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x92 } };

static int capture(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    link_t *l = d->state;
    size_t len = 0;
    assert_true(l->nsent < MAX_SENT);
    for (size_t i = 0; i < count; i++) {
        memcpy(&l->sent[l->nsent][len], iol[i].base, iol[i].len);
        len += iol[i].len;
    }
    l->sent_len[l->nsent++] = len;
    return (int)len;
}

tern_ipv6_addr_t A(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

void clear_sent(void)
{
    links[0].nsent = 0;
    links[1].nsent = 0;
}

void receive(unsigned k, const uint8_t *pkt, size_t len)
{
    memcpy(links[k].rx, pkt, len);
    assert_int_equal(tern_netdev_test_inject(&links[k].dev, links[k].rx, len), 0);
    run_for(1);
}

size_t build_icmp(uint8_t *out, const char *src, const char *dst, uint8_t hop, const uint8_t *msg, size_t msg_len)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)msg_len, .next_header = 58, .hop_limit = hop,
                           .src = A(src), .dst = A(dst) };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    memcpy(out + 40, msg, msg_len);
    assert_int_equal(tern_icmpv6_checksum_fill(out + 40, msg_len, &h.src, &h.dst), 0);
    return 40 + msg_len;
}

size_t build_echo(uint8_t *out, const char *src, const char *dst, uint8_t hop, size_t data_len)
{
    static uint8_t msg[1600];
    static uint8_t data[1500];
    memset(data, 0xa5, sizeof(data));
    tern_icmpv6_echo_repr_t e = { .type = TERN_ICMPV6_ECHO_REQUEST, .identifier = 0x1234, .sequence = 1,
                                  .data = data, .data_len = data_len };
    int n = tern_icmpv6_echo_emit(&e, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, src, dst, hop, msg, (size_t)n);
}

/* An NS from @p src on link @p k (with its SLLA) for @p target. */
static size_t build_ns(uint8_t *out, unsigned k, const char *src, const char *dst, const char *target)
{
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = PEER_MAC[k], .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_ns_repr_t ns = { .target = A(target), .options = opt, .options_len = (size_t)olen };
    uint8_t msg[64];
    int n = tern_ndp_ns_emit(&ns, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, src, dst, 255, msg, (size_t)n);
}

void solicit_from(unsigned k, const char *src)
{
    static const char *const own[2] = { "2001:db8:1::1", "2001:db8:2::1" };
    uint8_t pkt[128];
    receive(k, pkt, build_ns(pkt, k, src, "ff02::1:ff00:1", own[k]));
}

uint8_t sent_icmp(unsigned k, unsigned i, tern_ipv6_repr_t *h)
{
    link_t *l = &links[k];
    assert_true(i < l->nsent);
    assert_int_equal(tern_ipv6_parse(h, l->sent[i], l->sent_len[i]), 40);
    assert_int_equal(tern_ipv6_check_len(h, l->sent_len[i]), (int)l->sent_len[i] - 40);
    assert_int_equal(h->next_header, 58);
    const tern_checksum_span_t span = { .data = l->sent[i] + 40, .len = l->sent_len[i] - 40 };
    assert_true(tern_icmpv6_checksum_verify(&h->src, &h->dst, &span, 1));
    return l->sent[i][40];
}

static void add_addr(unsigned k, const char *addr)
{
    tern_ipv6_addr_config_t cfg = { .addr = A(addr), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_ADD, links[k].netif.index, &cfg,
                                     sizeof(cfg)), (int)sizeof(cfg));
}

void vrouter_init(void)
{
    tern_vclock_init(&clock_v, 0);
    tern_loop_init(&loop, &clock_v.base);
    assert_int_equal(tern_stack_init(&stack, "t", &loop.base), 0);
    assert_int_equal(tern_ipv6_init(&ip, &stack), 0);
}

void vrouter_start(void)
{
    static const char *const names[2] = { "test0", "test1" };
    for (unsigned k = 0; k < 2; k++) {
        link_t *l = &links[k];
        memset(l, 0, sizeof(*l));
        tern_netdev_test_init(&l->dev);
        memcpy(l->dev.addr, NODE_MAC[k], 6);
        l->dev.addr_len = 6;
        l->dev.mtu = (k == 0) ? 1500u : 1280u;
        l->dev.send_cb = capture;
        l->dev.state = l;
        assert_int_equal(tern_netif_add(&stack, &l->netif, names[k], &l->dev.netdev, &tern_netif_link_raw,
                                        TERN_NETTYPE_IPV6), 0);
        assert_int_equal(tern_ipv6_netif_enable(&ip, &l->netif), 0);
    }
    assert_int_equal(tern_ipv6_set_router(&ip, true), 0);
    run_for(1);
    add_addr(0, "2001:db8:1::1");
    add_addr(1, "2001:db8:2::1");
    run_for(3 * SEC); /* DAD of every address */
    solicit_from(0, "2001:db8:1::100");
}

void vrouter_teardown(void)
{
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    tern_executor_stop(&loop.base);
    /* Neighbor-cache queues may hold packets: drop them with the entries. */
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        for (size_t k = 0; k < TERN_CONF_NC_SIZE && ip.ifs[i].netif != NULL; k++) {
            tern_nc_entry_t *e = &ip.ifs[i].nc.entries[k];
            for (size_t q = 0; q < e->queued; q++) {
                tern_pktbuf_release(&stack.pktbuf, e->queue[q]);
            }
            e->queued = 0;
        }
    }
    harness_assert_pktbuf_clean(&stack.pktbuf);
}
