/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief sock_ip (raw IPv6 sockets) end to end through the test device, under
 *        both executors: delivery of an unregistered protocol to a socket
 *        (recv and callback) instead of Parameter Problem (RFC 8200 §4), the
 *        payload after the extension headers, the filters, the ring, waiting,
 *        sending (golden bytes: no checksum filled), close.
 *
 * The node's link has no link-layer addresses (the test device with
 * addr_len 0), so IPv6 resolves no neighbors and runs no DAD: what the node
 * sends reaches the device at once, under the real clock of either
 * executor. Its addresses are set by hand. Frames the node sends are
 * captured (on a module thread under the threaded executor: no asserts
 * there); frames it receives are built with the wire functions.
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
#include "tern/netif_hdr.h"
#include "tern/sock_ip.h"
#include "tern/wire/bytes.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"

#define MS 1000u
#define SEC 1000000u
/** RFC 3692 experimental protocol number, and an unassigned one (IANA). */
#define PROTO_EXP 253u
#define PROTO_OTHER 150u

static tern_executor_t *ex;
static tern_stack_t stack;
static tern_ipv6_t ip;
static tern_netdev_test_t dev;
static tern_netdev_test_t dev2;
static tern_netif_t netif;
static tern_netif_t netif2;
static tern_sock_ip_t sock;
static tern_sock_ip_t sock2;

static const char *const NODE_LL = "fe80::1";
static const char *const NODE_GUA = "2001:db8::1";
static const char *const PEER_LL = "fe80::2";
static const char *const OTHER_LL = "fe80::3";
static const char *const PEER_GUA = "2001:db8::2";

#define MAX_SENT 32
static uint8_t sent[MAX_SENT][1500];
static size_t sent_len[MAX_SENT];
static unsigned nsent;
static unsigned sent_overflow;
static uint8_t rx[1500];

static int capture(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    size_t len = 0;
    if (nsent == MAX_SENT) {
        sent_overflow++;
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        if (len + iol[i].len <= sizeof(sent[0])) {
            memcpy(&sent[nsent][len], iol[i].base, iol[i].len);
        }
        len += iol[i].len;
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

static tern_sock_ip_ep_t ep(const char *addr, uint16_t netif_index)
{
    tern_sock_ip_ep_t e = { .addr = A(addr), .netif = netif_index };
    return e;
}

/* Hand @p len bytes of IPv6 packet to @p d and let the node work. */
static void receive_on(tern_netdev_test_t *d, const uint8_t *pkt, size_t len)
{
    memcpy(rx, pkt, len);
    assert_int_equal(tern_netdev_test_inject(d, rx, len), 0);
    harness_run_until_idle();
}

static void receive(const uint8_t *pkt, size_t len)
{
    receive_on(&dev, pkt, len);
}

/* An IPv6 packet from @p src to @p dst with next header @p nh and @p len bytes of @p data. */
static size_t build_raw(uint8_t *out, const char *src, const char *dst, uint8_t nh, const void *data, size_t len)
{
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)len, .next_header = nh, .hop_limit = 64, .src = A(src),
                           .dst = A(dst) };
    assert_int_equal(tern_ipv6_emit(&h, out, TERN_IPV6_HDR_LEN), TERN_IPV6_HDR_LEN);
    memcpy(out + TERN_IPV6_HDR_LEN, data, len);
    return TERN_IPV6_HDR_LEN + len;
}

/* Index of the first captured frame with next header @p nh (and ICMPv6 type
 * @p icmp_type unless 0): router solicitations and MLD reports come in between. */
static int find_sent(uint8_t nh, uint8_t icmp_type)
{
    for (unsigned i = 0; i < nsent; i++) {
        if (sent_len[i] >= TERN_IPV6_HDR_LEN && sent[i][6] == nh &&
            (icmp_type == 0 || (sent_len[i] > TERN_IPV6_HDR_LEN && sent[i][TERN_IPV6_HDR_LEN] == icmp_type))) {
            return (int)i;
        }
    }
    return -1;
}

static void add_address(tern_netif_t *n, const char *text)
{
    tern_ipv6_addr_config_t cfg = { .addr = A(text), .prefix_len = 64 };
    assert_int_equal(tern_netapi_set(&ip.module, TERN_NETOPT_IPV6_ADDR_ADD, n->index, &cfg, sizeof(cfg)),
                     (int)sizeof(cfg));
}

/* Manual addresses on a link without DAD become preferred on the module's next tick. */
static void wait_addresses_preferred(void)
{
    for (unsigned tries = 0; tries < 1000u; tries++) {
        tern_ipv6_addr_list_t list;
        assert_int_equal(tern_netapi_get(&ip.module, TERN_NETOPT_IPV6_ADDRS, netif.index, &list, sizeof(list)),
                         (int)sizeof(list));
        unsigned preferred = 0;
        for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
            preferred += (list.addrs[i].used && list.addrs[i].state == TERN_IPV6_ADDR_PREFERRED) ? 1u : 0u;
        }
        if (preferred == 2) {
            return;
        }
        assert_int_equal(tern_executor_run_for(ex, 1 * MS), 0);
    }
    fail_msg("addresses not preferred");
}

static void add_netif(tern_netdev_test_t *d, tern_netif_t *n, const char *name)
{
    tern_netdev_test_init(d);
    d->addr_len = 0;
    d->send_cb = capture;
    assert_int_equal(tern_netif_add(&stack, n, name, &d->netdev, &tern_netif_link_raw, TERN_NETTYPE_IPV6), 0);
    assert_int_equal(tern_ipv6_netif_enable(&ip, n), 0);
    harness_run_until_idle();
}

static int setup(void **state)
{
    (void)state;
    memset(&sock, 0, sizeof(sock));
    memset(&sock2, 0, sizeof(sock2));
    ex = harness_exec_start();
    assert_int_equal(tern_stack_init(&stack, "t", ex), 0);
    assert_int_equal(tern_ipv6_init(&ip, &stack), 0);
    add_netif(&dev, &netif, "test0");
    add_address(&netif, NODE_LL);
    add_address(&netif, NODE_GUA);
    wait_addresses_preferred();
    harness_run_until_idle();
    nsent = 0;
    sent_overflow = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tern_sock_ip_close(&sock);
    tern_sock_ip_close(&sock2);
    harness_run_until_idle();
    harness_exec_stop();
    assert_int_equal(sent_overflow, 0);
    harness_assert_pktbuf_clean(&stack.pktbuf);
    return 0;
}

static void open_sock(tern_sock_ip_t *s, const tern_sock_ip_ep_t *local, const tern_sock_ip_ep_t *remote, uint8_t proto)
{
    assert_int_equal(tern_sock_ip_create(s, &stack, &ip, local, remote, proto, 0), 0);
}

static void test_sock_ip_recv__unregistered_protocol_reaches_socket_with_sender(void **state)
{
    (void)state;
    open_sock(&sock, NULL, NULL, PROTO_EXP);
    uint8_t pkt[256];
    receive(pkt, build_raw(pkt, PEER_LL, NODE_LL, PROTO_EXP, "raw hello", 9));
    char buf[32];
    tern_sock_ip_ep_t from;
    memset(&from, 0xAA, sizeof(from));
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, &from), 9);
    assert_memory_equal(buf, "raw hello", 9);
    tern_ipv6_addr_t peer = A(PEER_LL);
    assert_memory_equal(from.addr.u8, peer.u8, 16);
    assert_int_equal(from.netif, netif.index);
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, &from), -EAGAIN);
    /* A registered socket: no Parameter Problem, counted as delivered. */
    assert_int_equal(find_sent(TERN_IPV6_NH_ICMPV6, TERN_ICMPV6_PARAM_PROBLEM), -1);
    assert_int_equal(ip.counters[TERN_IPV6_RX_NO_PROTO], 0);
    assert_int_equal(ip.counters[TERN_IPV6_ICMP_ERRORS_OUT], 0);
}

static void test_sock_ip_recv__payload_starts_after_extension_headers(void **state)
{
    (void)state;
    open_sock(&sock, NULL, NULL, PROTO_EXP);
    /* Destination Options (Next Header 253, Hdr Ext Len 0, PadN of 4), then the payload. */
    static const uint8_t with_ext[] = { PROTO_EXP, 0, 0x01, 0x04, 0, 0, 0, 0, 'a', 'f', 't', 'e', 'r' };
    uint8_t pkt[256];
    receive(pkt, build_raw(pkt, PEER_LL, NODE_LL, TERN_IPV6_NH_DEST_OPTS, with_ext, sizeof(with_ext)));
    char buf[32];
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), 5);
    assert_memory_equal(buf, "after", 5);
}

static void test_sock_ip_close__parameter_problem_once_nobody_listens(void **state)
{
    (void)state;
    open_sock(&sock, NULL, NULL, PROTO_EXP);
    uint8_t pkt[256];
    size_t len = build_raw(pkt, PEER_LL, NODE_LL, PROTO_EXP, "kept", 4);
    receive(pkt, len);
    tern_sock_ip_close(&sock); /* releases the kept packet */
    harness_assert_pktbuf_clean(&stack.pktbuf);
    char buf[8];
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), -EBADF);
    assert_int_equal(tern_sock_ip_send(&sock, "x", 1, NULL), -EBADF);
    assert_int_equal(find_sent(TERN_IPV6_NH_ICMPV6, TERN_ICMPV6_PARAM_PROBLEM), -1);
    receive(pkt, len);
    /* RFC 8200 §4: Parameter Problem, code 1, pointing at the Next Header field (6). */
    assert_int_equal(ip.counters[TERN_IPV6_RX_NO_PROTO], 1);
    int i = find_sent(TERN_IPV6_NH_ICMPV6, TERN_ICMPV6_PARAM_PROBLEM);
    assert_true(i >= 0);
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), TERN_IPV6_HDR_LEN);
    tern_ipv6_addr_t peer = A(PEER_LL);
    assert_memory_equal(h.dst.u8, peer.u8, 16);
    const uint8_t *icmp = sent[i] + TERN_IPV6_HDR_LEN;
    assert_int_equal(icmp[1], TERN_ICMPV6_PARAM_PROBLEM_NEXT_HEADER);
    assert_int_equal(tern_load32(icmp + 4), 6);
    assert_true(sent_len[i] >= TERN_IPV6_HDR_LEN + 8 + len);
    assert_memory_equal(icmp + 8, pkt, len); /* the invoking packet */
    /* The same struct opens again (for another protocol: the old one's packets are not its). */
    open_sock(&sock, NULL, NULL, PROTO_OTHER);
    receive(pkt, len);
    assert_int_equal(ip.counters[TERN_IPV6_RX_NO_PROTO], 2);
    receive(pkt, build_raw(pkt, PEER_LL, NODE_LL, PROTO_OTHER, "again", 5));
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), 5);
    assert_memory_equal(buf, "again", 5);
}

static void test_sock_ip_send__golden_packet_without_checksum(void **state)
{
    (void)state;
    tern_sock_ip_ep_t local = ep(NODE_GUA, 0);
    open_sock(&sock, &local, NULL, PROTO_EXP);
    tern_sock_ip_ep_t remote = ep(PEER_GUA, 0);
    assert_int_equal(tern_sock_ip_send(&sock, "raw!\0\0", 6, &remote), 6);
    harness_run_until_idle();
    static const uint8_t golden[] = {
        0x60, 0x00, 0x00, 0x00, /* version 6, traffic class 0, flow label 0 */
        0x00, 0x06, PROTO_EXP, 64, /* payload length 6, next header 253, hop limit 64 */
        0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, /* 2001:db8::1 */
        0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, /* 2001:db8::2 */
        'r', 'a', 'w', '!', 0, 0, /* as given: no checksum written into it */
    };
    int i = find_sent(PROTO_EXP, 0);
    assert_true(i >= 0);
    assert_int_equal(sent_len[i], sizeof(golden));
    assert_memory_equal(sent[i], golden, sizeof(golden));
    assert_int_equal(ip.counters[TERN_IPV6_TX_INVALID], 0);
}

static void test_sock_ip_send__source_chosen_and_empty_payload(void **state)
{
    (void)state;
    open_sock(&sock, NULL, NULL, PROTO_OTHER);
    /* Bound to ::: IPv6 chooses the link-local source for a link-local destination (RFC 6724). */
    tern_sock_ip_ep_t remote = ep(PEER_LL, netif.index);
    assert_int_equal(tern_sock_ip_send(&sock, NULL, 0, &remote), 0);
    harness_run_until_idle();
    int i = find_sent(PROTO_OTHER, 0);
    assert_true(i >= 0);
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), TERN_IPV6_HDR_LEN);
    assert_int_equal(sent_len[i], TERN_IPV6_HDR_LEN);
    assert_int_equal(h.payload_len, 0);
    tern_ipv6_addr_t node = A(NODE_LL), peer = A(PEER_LL);
    assert_memory_equal(h.src.u8, node.u8, 16);
    assert_memory_equal(h.dst.u8, peer.u8, 16);
}

static void test_sock_ip_send__errors_before_anything_is_queued(void **state)
{
    (void)state;
    open_sock(&sock, NULL, NULL, PROTO_EXP);
    assert_int_equal(tern_sock_ip_send(&sock, "x", 1, NULL), -ENOTCONN);
    tern_sock_ip_ep_t any = ep("::", netif.index);
    assert_int_equal(tern_sock_ip_send(&sock, "x", 1, &any), -EINVAL);
    tern_sock_ip_ep_t remote = ep(PEER_GUA, 0);
    assert_int_equal(tern_sock_ip_send(&sock, NULL, 1, &remote), -EINVAL);
    assert_int_equal(tern_sock_ip_send(NULL, "x", 1, &remote), -EINVAL);
    static const uint8_t big[1];
    assert_int_equal(tern_sock_ip_send(&sock, big, 65536, &remote), -EMSGSIZE); /* checked before reading */
    harness_run_until_idle();
    assert_int_equal(find_sent(PROTO_EXP, 0), -1);
}

static void test_sock_ip_create__refuses_protocols_the_stack_handles_and_bad_endpoints(void **state)
{
    (void)state;
    static const uint8_t refused[] = { 0, 6, 17, 43, 44, 50, 51, 58, 59, 60, 135, 139, 140 };
    for (size_t k = 0; k < sizeof(refused); k++) {
        assert_int_equal(tern_sock_ip_create(&sock, &stack, &ip, NULL, NULL, refused[k], 0), -EPROTONOSUPPORT);
    }
    tern_sock_ip_ep_t foreign = ep("2001:db8::99", 0);
    assert_int_equal(tern_sock_ip_create(&sock, &stack, &ip, &foreign, NULL, PROTO_EXP, 0), -EADDRNOTAVAIL);
    tern_sock_ip_ep_t group = ep("ff02::1", 0);
    assert_int_equal(tern_sock_ip_create(&sock, &stack, &ip, &group, NULL, PROTO_EXP, 0), -EINVAL);
    tern_sock_ip_ep_t no_if = ep("::", 99);
    assert_int_equal(tern_sock_ip_create(&sock, &stack, &ip, &no_if, NULL, PROTO_EXP, 0), -ENODEV);
    tern_sock_ip_ep_t unspecified = ep("::", 0);
    assert_int_equal(tern_sock_ip_create(&sock, &stack, &ip, NULL, &unspecified, PROTO_EXP, 0), -EINVAL);
    assert_int_equal(tern_sock_ip_create(&sock, &stack, NULL, NULL, NULL, PROTO_EXP, 0), -EINVAL);
    assert_int_equal(tern_sock_ip_create(&sock, &stack, &ip, NULL, NULL, PROTO_EXP, 1), -EINVAL);
    /* Accepted: the experimental and an unassigned number; an open socket cannot be created again. */
    open_sock(&sock, NULL, NULL, PROTO_EXP);
    assert_int_equal(tern_sock_ip_create(&sock, &stack, &ip, NULL, NULL, PROTO_EXP, 0), -EINVAL);
    tern_sock_ip_ep_t mine = ep(NODE_GUA, netif.index);
    open_sock(&sock2, &mine, NULL, 254);
    tern_sock_ip_ep_t got;
    assert_int_equal(tern_sock_ip_get_local(&sock2, &got), 0);
    assert_memory_equal(got.addr.u8, mine.addr.u8, 16);
    assert_int_equal(got.netif, netif.index);
}

/* Hand @p sock a packet on @p d from @p src to @p dst that its filters must drop. */
static void expect_filtered(tern_netdev_test_t *d, const char *src, const char *dst)
{
    uint32_t before = sock.drops[TERN_SOCK_IP_DROP_FILTERED];
    uint8_t pkt[256];
    receive_on(d, pkt, build_raw(pkt, src, dst, PROTO_EXP, "filtered", 8));
    assert_int_equal(sock.drops[TERN_SOCK_IP_DROP_FILTERED], before + 1u);
    char buf[16];
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
}

/* Hand @p sock a packet on @p d from @p src to @p dst that it must keep. @return its sender. */
static tern_sock_ip_ep_t expect_kept(tern_netdev_test_t *d, const char *src, const char *dst)
{
    uint8_t pkt[256];
    receive_on(d, pkt, build_raw(pkt, src, dst, PROTO_EXP, "kept", 4));
    char buf[16];
    tern_sock_ip_ep_t from;
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, &from), 4);
    assert_memory_equal(buf, "kept", 4);
    tern_ipv6_addr_t a = A(src);
    assert_memory_equal(from.addr.u8, a.u8, 16);
    return from;
}

static void test_sock_ip_receive__bound_address_filters(void **state)
{
    (void)state;
    tern_sock_ip_ep_t local = ep(NODE_GUA, 0);
    open_sock(&sock, &local, NULL, PROTO_EXP);
    expect_filtered(&dev, PEER_LL, NODE_LL);
    (void)expect_kept(&dev, PEER_GUA, NODE_GUA);
    /* Filtered by the socket, not unrecognized: no Parameter Problem. */
    assert_int_equal(find_sent(TERN_IPV6_NH_ICMPV6, TERN_ICMPV6_PARAM_PROBLEM), -1);
}

static void test_sock_ip_receive__bound_interface_filters(void **state)
{
    (void)state;
    add_netif(&dev2, &netif2, "test1");
    tern_sock_ip_ep_t local = ep("::", netif2.index);
    open_sock(&sock, &local, NULL, PROTO_EXP);
    expect_filtered(&dev, PEER_LL, "ff02::1");
    tern_sock_ip_ep_t from = expect_kept(&dev2, PEER_LL, "ff02::1");
    assert_int_equal(from.netif, netif2.index);
}

static void test_sock_ip_create__connected_socket_filters_and_sends_by_default(void **state)
{
    (void)state;
    tern_sock_ip_ep_t remote = ep(PEER_LL, netif.index);
    open_sock(&sock, NULL, &remote, PROTO_EXP);
    expect_filtered(&dev, OTHER_LL, NODE_LL);
    (void)expect_kept(&dev, PEER_LL, NODE_LL);
    assert_int_equal(tern_sock_ip_send(&sock, "back", 4, NULL), 4);
    harness_run_until_idle();
    int i = find_sent(PROTO_EXP, 0);
    assert_true(i >= 0);
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), TERN_IPV6_HDR_LEN);
    assert_memory_equal(h.dst.u8, remote.addr.u8, 16);
    assert_memory_equal(sent[i] + TERN_IPV6_HDR_LEN, "back", 4);
}

static void test_sock_ip_receive__each_socket_of_the_protocol_gets_a_copy(void **state)
{
    (void)state;
    open_sock(&sock, NULL, NULL, PROTO_EXP);
    open_sock(&sock2, NULL, NULL, PROTO_EXP);
    uint8_t pkt[256];
    receive(pkt, build_raw(pkt, PEER_LL, NODE_LL, PROTO_EXP, "both", 4));
    char buf[8];
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), 4);
    assert_int_equal(tern_sock_ip_recv(&sock2, buf, sizeof(buf), 0, NULL), 4);
    assert_memory_equal(buf, "both", 4);
    /* Another protocol goes to its own socket only. */
    tern_sock_ip_close(&sock2);
    open_sock(&sock2, NULL, NULL, PROTO_OTHER);
    receive(pkt, build_raw(pkt, PEER_LL, NODE_LL, PROTO_OTHER, "one", 3));
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
    assert_int_equal(tern_sock_ip_recv(&sock2, buf, sizeof(buf), 0, NULL), 3);
}

/*
 * [payload, IPV6_EXT (Destination Options naming @p proto; none when 0), IPV6, NETIF], as IPv6
 * hands it up, straight to the socket's module: what a socket finds in its queue from before
 * it was closed and created again for another protocol.
 */
static void post_to_socket(uint8_t proto, uint8_t ext_proto)
{
    tern_pktbuf_t *pb = &stack.pktbuf;
    uint8_t hdr[TERN_IPV6_HDR_LEN];
    (void)build_raw(hdr, PEER_LL, NODE_LL, (ext_proto != 0) ? TERN_IPV6_NH_DEST_OPTS : proto, "", 0);
    const uint8_t ext[8] = { ext_proto, 0, 0x01, 0x04, 0, 0, 0, 0 };
    tern_pkt_t *pkt = tern_netif_hdr_build(pb, NULL, NULL, 0, NULL, 0);
    assert_non_null(pkt);
    ((tern_netif_hdr_t *)pkt->data)->if_index = netif.index;
    pkt = tern_pktbuf_add(pb, pkt, hdr, sizeof(hdr), TERN_NETTYPE_IPV6);
    assert_non_null(pkt);
    if (ext_proto != 0) {
        pkt = tern_pktbuf_add(pb, pkt, ext, sizeof(ext), TERN_NETTYPE_IPV6_EXT);
        assert_non_null(pkt);
    }
    pkt = tern_pktbuf_add(pb, pkt, "stale", 5, TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    assert_int_equal(tern_netapi_receive(&sock.base.module, pkt), 0);
    harness_run_until_idle();
}

static void test_sock_ip_receive__packet_of_an_earlier_protocol_counted_closed(void **state)
{
    (void)state;
    open_sock(&sock, NULL, NULL, PROTO_EXP);
    tern_sock_ip_close(&sock);
    open_sock(&sock, NULL, NULL, PROTO_OTHER);
    post_to_socket(PROTO_EXP, 0);
    post_to_socket(0, PROTO_EXP); /* the protocol named by the last extension header */
    assert_int_equal(sock.drops[TERN_SOCK_IP_DROP_CLOSED], 2);
    char buf[8];
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
    post_to_socket(0, PROTO_OTHER);
    post_to_socket(PROTO_OTHER, 0);
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), 5);
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), 5);
    assert_memory_equal(buf, "stale", 5);
    assert_int_equal(sock.drops[TERN_SOCK_IP_DROP_CLOSED], 2);
    /* Closed: counted too, and released. */
    tern_sock_ip_close(&sock);
    post_to_socket(PROTO_OTHER, 0);
    assert_int_equal(sock.drops[TERN_SOCK_IP_DROP_CLOSED], 3);
}

static void test_sock_ip_receive__ring_full_drops_counted(void **state)
{
    (void)state;
    open_sock(&sock, NULL, NULL, PROTO_EXP);
    uint8_t pkt[256];
    for (unsigned k = 0; k < TERN_CONF_SOCK_IP_RING + 1u; k++) {
        uint8_t n = (uint8_t)('0' + k);
        receive(pkt, build_raw(pkt, PEER_LL, NODE_LL, PROTO_EXP, &n, 1));
    }
    assert_int_equal(sock.drops[TERN_SOCK_IP_DROP_RING_FULL], 1);
    char buf[4];
    for (unsigned k = 0; k < TERN_CONF_SOCK_IP_RING; k++) {
        assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), 1);
        assert_int_equal(buf[0], '0' + (int)k); /* oldest first; the last one was dropped */
    }
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
}

static void test_sock_ip_recv__timeout_waits_and_short_buffer_truncates(void **state)
{
    (void)state;
    open_sock(&sock, NULL, NULL, PROTO_EXP);
    char buf[4];
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
    uint64_t t0 = tern_executor_now(ex);
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 5 * MS, NULL), -ETIMEDOUT);
    assert_true(tern_executor_now(ex) >= t0 + 5 * MS);
    /* Offered to the device, not yet handled: the waiting recv gets it. */
    uint8_t pkt[256];
    size_t len = build_raw(pkt, PEER_LL, NODE_LL, PROTO_EXP, "0123456789", 10);
    memcpy(rx, pkt, len);
    assert_int_equal(tern_netdev_test_inject(&dev, rx, len), 0);
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 1 * SEC, NULL), -ENOBUFS);
    assert_memory_equal(buf, "0123", 4);
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
    assert_int_equal(tern_sock_ip_recv(NULL, buf, sizeof(buf), 0, NULL), -EINVAL);
    assert_int_equal(tern_sock_ip_recv(&sock, NULL, 4, 0, NULL), -EINVAL);
}

/* What the callback saw (it may run on the socket's thread: no asserts there). */
static int cb_calls;
static char cb_data[64];
static size_t cb_len;
static tern_sock_ip_ep_t cb_from;
static int cb_recv_result;
static int cb_send_result;
static tern_sock_ip_t *cb_sock;

static void on_packet(tern_sock_ip_t *s, const uint8_t *data, size_t len, const tern_sock_ip_ep_t *remote, void *arg)
{
    cb_sock = s;
    *(int *)arg += 1;
    cb_len = len;
    memcpy(cb_data, data, len < sizeof(cb_data) ? len : sizeof(cb_data));
    cb_from = *remote;
    /* A callback runs in a handler: it may not wait, it may answer. */
    char buf[8];
    cb_recv_result = tern_sock_ip_recv(s, buf, sizeof(buf), 10 * MS, NULL);
    cb_send_result = tern_sock_ip_send(s, data, len, remote);
}

static void test_sock_ip_set_cb__callback_gets_packet_and_may_answer(void **state)
{
    (void)state;
    cb_calls = 0;
    cb_sock = NULL;
    open_sock(&sock, NULL, NULL, PROTO_EXP);
    assert_int_equal(tern_sock_ip_set_cb(&sock, on_packet, &cb_calls), 0);
    uint8_t pkt[256];
    receive(pkt, build_raw(pkt, PEER_LL, NODE_LL, PROTO_EXP, "callback", 8));
    harness_run_until_idle(); /* the answer */
    assert_int_equal(cb_calls, 1);
    assert_ptr_equal(cb_sock, &sock);
    assert_int_equal(cb_len, 8);
    assert_memory_equal(cb_data, "callback", 8);
    tern_ipv6_addr_t peer = A(PEER_LL);
    assert_memory_equal(cb_from.addr.u8, peer.u8, 16);
    assert_int_equal(cb_from.netif, netif.index);
    assert_int_equal(cb_recv_result, -EDEADLK);
    assert_int_equal(cb_send_result, 8);
    int i = find_sent(PROTO_EXP, 0);
    assert_true(i >= 0);
    assert_int_equal(sent_len[i], TERN_IPV6_HDR_LEN + 8);
    assert_memory_equal(sent[i] + TERN_IPV6_HDR_LEN, "callback", 8);
    char buf[8];
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
    /* Cleared: packets go to the ring again. */
    assert_int_equal(tern_sock_ip_set_cb(&sock, NULL, NULL), 0);
    receive(pkt, build_raw(pkt, PEER_LL, NODE_LL, PROTO_EXP, "ring", 4));
    assert_int_equal(tern_sock_ip_recv(&sock, buf, sizeof(buf), 0, NULL), 4);
    assert_int_equal(cb_calls, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_sock_ip_recv__unregistered_protocol_reaches_socket_with_sender),
        T(test_sock_ip_recv__payload_starts_after_extension_headers),
        T(test_sock_ip_close__parameter_problem_once_nobody_listens),
        T(test_sock_ip_send__golden_packet_without_checksum),
        T(test_sock_ip_send__source_chosen_and_empty_payload),
        T(test_sock_ip_send__errors_before_anything_is_queued),
        T(test_sock_ip_create__refuses_protocols_the_stack_handles_and_bad_endpoints),
        T(test_sock_ip_receive__bound_address_filters),
        T(test_sock_ip_receive__bound_interface_filters),
        T(test_sock_ip_create__connected_socket_filters_and_sends_by_default),
        T(test_sock_ip_receive__each_socket_of_the_protocol_gets_a_copy),
        T(test_sock_ip_receive__packet_of_an_earlier_protocol_counted_closed),
        T(test_sock_ip_receive__ring_full_drops_counted),
        T(test_sock_ip_recv__timeout_waits_and_short_buffer_truncates),
        T(test_sock_ip_set_cb__callback_gets_packet_and_may_answer),
#undef T
    };
    return cmocka_run_group_tests_name(harness_executor_name(), tests, NULL, NULL);
}
