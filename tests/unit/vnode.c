/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test fixture: one IPv6 node on the test device under virtual time (see vnode.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "harness.h"
#include "vnode.h"
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
tern_netdev_test_t dev;
tern_netif_t netif;

const uint8_t NODE_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 };
const uint8_t PEER_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x99 };

uint8_t sent[MAX_SENT][1500];
uint64_t sent_at[MAX_SENT];
size_t sent_len[MAX_SENT];
unsigned nsent;
/* Frame offered for reception (kept until read). */
uint8_t rx[1500];

static int capture(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    size_t len = 0;
    assert_true(nsent < MAX_SENT);
    for (size_t i = 0; i < count; i++) {
        memcpy(&sent[nsent][len], iol[i].base, iol[i].len);
        len += iol[i].len;
    }
    if (len > 48 && sent[nsent][6] == 0 && sent[nsent][48] == 143) {
        return (int)len; /* MLDv2 reports (RFC 3810, test_mld.c) are not this test's business */
    }
    sent_at[nsent] = clock_v.now;
    sent_len[nsent++] = len;
    return (int)len;
}

tern_ipv6_addr_t A(const char *text)
{
    tern_ipv6_addr_t a;
    assert_int_equal(tern_ipv6_addr_from_str(&a, text, strlen(text)), 0);
    return a;
}

const char *const NODE_LL = "fe80::5eff:fe00:5301";
const char *const PEER_LL = "fe80::1";

void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

/* Hand @p len bytes of IPv6 packet to the node and let it work. */
void receive(const uint8_t *pkt, size_t len)
{
    memcpy(rx, pkt, len);
    assert_int_equal(tern_netdev_test_inject(&dev, rx, len), 0);
    run_for(1);
}

/* Build an IPv6 packet carrying the ICMPv6 message @p msg (checksum filled). */
size_t build_icmp(uint8_t *out, const char *src, const char *dst, uint8_t hop, const uint8_t *msg,
                         size_t msg_len)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)msg_len, .next_header = 58, .hop_limit = hop,
                           .src = A(src), .dst = A(dst) };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    memcpy(out + 40, msg, msg_len);
    assert_int_equal(tern_icmpv6_checksum_fill(out + 40, msg_len, &h.src, &h.dst), 0);
    return 40 + msg_len;
}

size_t build_echo(uint8_t *out, const char *src, const char *dst, uint16_t seq)
{
    uint8_t msg[64];
    static const uint8_t data[12] = "tern-echo-12";
    tern_icmpv6_echo_repr_t e = { .type = TERN_ICMPV6_ECHO_REQUEST, .identifier = 0x1234, .sequence = seq,
                                  .data = data, .data_len = sizeof(data) };
    int n = tern_icmpv6_echo_emit(&e, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, src, dst, 64, msg, (size_t)n);
}

/* An NS for @p target (with our peer's SLLA unless @p src is ::). */
size_t build_ns(uint8_t *out, const char *src, const char *dst, const char *target, uint8_t hop)
{
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_SLLA, .addr = PEER_MAC, .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    bool from_unspecified = strcmp(src, "::") == 0;
    tern_ndp_ns_repr_t ns = { .target = A(target), .options = opt, .options_len = from_unspecified ? 0u : (size_t)olen };
    uint8_t msg[64];
    int n = tern_ndp_ns_emit(&ns, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, src, dst, hop, msg, (size_t)n);
}

size_t build_na(uint8_t *out, const char *src, const char *dst, const char *target, uint8_t flags)
{
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_TLLA, .addr = PEER_MAC, .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_na_repr_t na = { .flags = flags, .target = A(target), .options = opt, .options_len = (size_t)olen };
    uint8_t msg[64];
    int n = tern_ndp_na_emit(&na, msg, sizeof(msg));
    assert_true(n > 0);
    return build_icmp(out, src, dst, 255, msg, (size_t)n);
}

/* Parse sent frame @p i: IPv6 header into @p h; return the ICMPv6 type (checksum checked). */
uint8_t sent_icmp(unsigned i, tern_ipv6_repr_t *h)
{
    assert_true(i < nsent);
    assert_int_equal(tern_ipv6_parse(h, sent[i], sent_len[i]), 40);
    assert_int_equal(tern_ipv6_check_len(h, sent_len[i]), (int)sent_len[i] - 40);
    assert_int_equal(h->next_header, 58);
    const tern_checksum_span_t span = { .data = sent[i] + 40, .len = sent_len[i] - 40 };
    assert_true(tern_icmpv6_checksum_verify(&h->src, &h->dst, &span, 1));
    return sent[i][40];
}

uint32_t counter(unsigned c)
{
    return ip.counters[c];
}

tern_ipv6_addr_state_t addr_state(const char *text)
{
    tern_ipv6_addr_list_t list;
    assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_ADDRS, netif.index, &list, sizeof(list)),
                     (int)sizeof(list));
    tern_ipv6_addr_t a = A(text);
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        if (list.addrs[i].used && tern_ipv6_addr_equal(&list.addrs[i].addr, &a)) {
            return (tern_ipv6_addr_state_t)list.addrs[i].state;
        }
    }
    fail_msg("%s is not an address of the node", text);
    return TERN_IPV6_ADDR_DUPLICATE;
}

void vnode_setup(uint16_t mtu)
{
    tern_vclock_init(&clock_v, 0);
    tern_loop_init(&loop, &clock_v.base);
    assert_int_equal(tern_stack_init(&stack, "t", &loop.base), 0);
    assert_int_equal(tern_ipv6_init(&ip, &stack), 0);
    tern_netdev_test_init(&dev);
    memcpy(dev.addr, NODE_MAC, 6);
    dev.addr_len = 6;
    dev.mtu = mtu;
    dev.send_cb = capture;
    assert_int_equal(tern_netif_add(&stack, &netif, "test0", &dev.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_IPV6), 0);
    nsent = 0;
    assert_int_equal(tern_ipv6_netif_enable(&ip, &netif), 0);
    run_for(1);
}

void vnode_teardown(void)
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

/* Let DAD of the link-local address finish (random delay < 1 s, then RetransTimer 1 s). */
void settle(void)
{
    run_for(2100 * MS);
    assert_int_equal(addr_state(NODE_LL), TERN_IPV6_ADDR_PREFERRED);
    nsent = 0;
}


