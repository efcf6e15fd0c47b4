/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief UDP and sock_udp end to end through the test device, under virtual
 *        time: delivery to a bound socket (recv and callback), the drops RFC
 *        768 / RFC 8200 §8.1 ask for, port unreachable, sending, ephemeral
 *        ports, close, ICMPv6 errors about our datagrams (RFC 4443 §2.4 (e)).
 *
 * Like test_ipv6_module.c: the test device carries bare IPv6 packets with a
 * 48-bit address; frames the node sends are captured and parsed back with
 * the wire functions, frames it receives are built with them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "sink.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/sock_udp.h"
#include "tern/udp.h"
#include "tern/wire/checksum.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ndp.h"
#include "tern/wire/udp.h"

#define MS 1000u
#define SEC 1000000u

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_stack_t stack;
static tern_ipv6_t ip;
static tern_udp_t udp;
static tern_netdev_test_t dev;
static tern_netif_t netif;
static tern_sock_udp_t sock;
static tern_sock_udp_t sock2;

static const uint8_t NODE_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 };
static const uint8_t PEER_MAC[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x99 };
static const char *NODE_LL = "fe80::5eff:fe00:5301";
static const char *PEER_LL = "fe80::1";

#define MAX_SENT 16
static uint8_t sent[MAX_SENT][1500];
static size_t sent_len[MAX_SENT];
static unsigned nsent;
static uint8_t rx[1500];

static int capture(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    size_t len = 0;
    assert_true(nsent < MAX_SENT);
    for (size_t i = 0; i < count; i++) {
        memcpy(&sent[nsent][len], iol[i].base, iol[i].len);
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

static void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

static void inject(const uint8_t *pkt, size_t len)
{
    memcpy(rx, pkt, len);
    assert_int_equal(tern_netdev_test_inject(&dev, rx, len), 0);
}

static void receive(const uint8_t *pkt, size_t len)
{
    inject(pkt, len);
    run_for(1);
}

/* Datagram options for build_udp(). */
enum { CSUM_OK, CSUM_BAD, CSUM_ZERO };

/*
 * An IPv6 packet from PEER_LL:@p sport to NODE_LL:@p dport carrying @p data.
 * @p length_field: the UDP Length to write (0: the right one); @p extra:
 * bytes after the datagram inside the IPv6 payload.
 */
static size_t build_udp(uint8_t *out, uint16_t sport, uint16_t dport, const void *data, size_t len, int csum,
                        uint16_t length_field, size_t extra)
{
    tern_ipv6_addr_t src = A(PEER_LL), dst = A(NODE_LL);
    uint16_t ulen = (uint16_t)(TERN_UDP_HDR_LEN + len);
    tern_udp_repr_t u = { .src_port = sport, .dst_port = dport, .length = ulen, .checksum = 0 };
    assert_int_equal(tern_udp_emit(&u, out + 40, 8), 8);
    memcpy(out + 48, data, len);
    memset(out + 48 + len, 0xEE, extra);
    const tern_checksum_span_t span = { .data = out + 40, .len = ulen };
    uint16_t sum = tern_udp_checksum(&src, &dst, &span, 1);
    if (csum == CSUM_BAD) {
        sum ^= 0x0101u;
    } else if (csum == CSUM_ZERO) {
        sum = 0;
    }
    assert_int_equal(tern_udp_set_checksum(out + 40, 8, sum), 0);
    if (length_field != 0) {
        out[44] = (uint8_t)(length_field >> 8);
        out[45] = (uint8_t)length_field;
    }
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)(ulen + extra), .next_header = 17, .hop_limit = 64,
                           .src = src, .dst = dst };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    return 40 + ulen + extra;
}

static size_t build_na(uint8_t *out)
{
    uint8_t opt[8];
    tern_ndp_opt_lladdr_t ll = { .type = TERN_NDP_OPT_TLLA, .addr = PEER_MAC, .addr_len = 6 };
    int olen = tern_ndp_opt_lladdr_emit(&ll, opt, sizeof(opt));
    tern_ndp_na_repr_t na = { .flags = TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE, .target = A(PEER_LL),
                              .options = opt, .options_len = (size_t)olen };
    uint8_t msg[64];
    int n = tern_ndp_na_emit(&na, msg, sizeof(msg));
    assert_true(n > 0);
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)n, .next_header = 58, .hop_limit = 255, .src = A(PEER_LL),
                           .dst = A(NODE_LL) };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    memcpy(out + 40, msg, (size_t)n);
    assert_int_equal(tern_icmpv6_checksum_fill(out + 40, (size_t)n, &h.src, &h.dst), 0);
    return 40 + (size_t)n;
}

/* Index of the first sent frame with next header @p nh (and ICMPv6 type @p icmp_type
 * unless 0): other frames (router solicitations...) may come in between. */
static unsigned find_sent(uint8_t nh, uint8_t icmp_type)
{
    for (unsigned i = 0; i < nsent; i++) {
        if (sent_len[i] > 40 && sent[i][6] == nh && (icmp_type == 0 || sent[i][40] == icmp_type)) {
            return i;
        }
    }
    fail_msg("no frame with next header %u (type %u) sent", nh, icmp_type);
    return 0;
}

static uint32_t ucount(unsigned c)
{
    return udp.counters[c];
}

static tern_sock_udp_ep_t ep(const char *addr, uint16_t port, uint16_t netif_index)
{
    tern_sock_udp_ep_t e = { .addr = A(addr), .netif = netif_index, .port = port };
    return e;
}

static void bind_port(tern_sock_udp_t *s, uint16_t port)
{
    tern_sock_udp_ep_t local = ep("::", port, 0);
    assert_int_equal(tern_sock_udp_create(s, &stack, &ip, &udp, &local, NULL, 0), 0);
}

static int setup(void **state)
{
    (void)state;
    memset(&sock, 0, sizeof(sock));
    memset(&sock2, 0, sizeof(sock2));
    tern_vclock_init(&clock_v, 0);
    tern_loop_init(&loop, &clock_v.base);
    assert_int_equal(tern_stack_init(&stack, "t", &loop.base), 0);
    assert_int_equal(tern_ipv6_init(&ip, &stack), 0);
    assert_int_equal(tern_udp_init(&udp, &stack, &ip), 0);
    tern_netdev_test_init(&dev);
    memcpy(dev.addr, NODE_MAC, 6);
    dev.addr_len = 6;
    dev.send_cb = capture;
    dev.mtu = 1500; /* a Packet Too Big of 1280 then lowers the path MTU */
    assert_int_equal(tern_netif_add(&stack, &netif, "test0", &dev.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_IPV6), 0);
    assert_int_equal(tern_ipv6_netif_enable(&ip, &netif), 0);
    run_for(2100 * MS); /* DAD of the link-local address */
    nsent = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tern_sock_udp_close(&sock);
    tern_sock_udp_close(&sock2);
    assert_int_equal(tern_executor_run_until_idle(&loop.base), 0);
    tern_executor_stop(&loop.base);
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
    return 0;
}

static void test_udp_receive__bound_socket_gets_payload_and_sender(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    uint8_t pkt[256];
    receive(pkt, build_udp(pkt, 40000, 5683, "hello", 5, CSUM_OK, 0, 0));
    assert_int_equal(ucount(TERN_UDP_RX_DATAGRAMS), 1);
    char buf[32];
    tern_sock_udp_ep_t from;
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, &from), 5);
    assert_memory_equal(buf, "hello", 5);
    tern_ipv6_addr_t peer = A(PEER_LL);
    assert_true(tern_ipv6_addr_equal(&from.addr, &peer));
    assert_int_equal(from.port, 40000);
    assert_int_equal(from.netif, netif.index);
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, &from), -EAGAIN);
    /* An empty datagram is a datagram of 0 bytes. */
    receive(pkt, build_udp(pkt, 40000, 5683, "", 0, CSUM_OK, 0, 0));
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), 0);
}

static void test_sock_udp_recv__timeout_runs_the_stack(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    char buf[32];
    uint64_t t0 = clock_v.now;
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 5 * MS, NULL), -ETIMEDOUT);
    assert_true(clock_v.now >= t0 + 5 * MS);
    /* Offered to the device, not yet handled: the waiting recv lets the loop run. */
    uint8_t pkt[256];
    inject(pkt, build_udp(pkt, 40000, 5683, "later", 5, CSUM_OK, 0, 0));
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 1 * SEC, NULL), 5);
    assert_memory_equal(buf, "later", 5);
}

static void test_sock_udp_recv__short_buffer_truncates_and_says_so(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    uint8_t pkt[256];
    receive(pkt, build_udp(pkt, 40000, 5683, "0123456789", 10, CSUM_OK, 0, 0));
    char buf[4];
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -ENOBUFS);
    assert_memory_equal(buf, "0123", 4);
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
}

static void test_sock_udp_receive__ring_overflow_counted(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    uint8_t pkt[256];
    for (unsigned i = 0; i < TERN_CONF_SOCK_UDP_RING + 1u; i++) {
        receive(pkt, build_udp(pkt, 40000, 5683, "x", 1, CSUM_OK, 0, 0));
    }
    assert_int_equal(sock.drops[TERN_SOCK_UDP_DROP_RING_FULL], 1);
}

static int cb_calls;
static char cb_data[64];
static size_t cb_len;
static tern_sock_udp_ep_t cb_from;

static void on_datagram(tern_sock_udp_t *s, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                        void *arg)
{
    assert_ptr_equal(s, &sock);
    assert_ptr_equal(arg, &cb_calls);
    cb_calls++;
    cb_len = len;
    memcpy(cb_data, data, len);
    cb_from = *remote;
    /* A callback runs in a handler: it may not wait. */
    char buf[8];
    assert_int_equal(tern_sock_udp_recv(s, buf, sizeof(buf), 10 * MS, NULL), -EDEADLK);
}

static void test_sock_udp_set_cb__callback_gets_datagram(void **state)
{
    (void)state;
    cb_calls = 0;
    bind_port(&sock, 7);
    assert_int_equal(tern_sock_udp_set_cb(&sock, on_datagram, &cb_calls), 0);
    uint8_t pkt[256];
    receive(pkt, build_udp(pkt, 1234, 7, "callback", 8, CSUM_OK, 0, 0));
    assert_int_equal(cb_calls, 1);
    assert_int_equal(cb_len, 8);
    assert_memory_equal(cb_data, "callback", 8);
    /* the sender as the filter read it (one read of the headers per datagram) */
    tern_ipv6_addr_t peer = A(PEER_LL);
    assert_true(tern_ipv6_addr_equal(&cb_from.addr, &peer));
    assert_int_equal(cb_from.port, 1234);
    assert_int_equal(cb_from.netif, netif.index);
    char buf[8];
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
}

static void test_udp_receive__bad_checksum_zero_checksum_bad_length_dropped(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    uint8_t pkt[256];
    receive(pkt, build_udp(pkt, 40000, 5683, "hello", 5, CSUM_BAD, 0, 0));
    receive(pkt, build_udp(pkt, 40000, 5683, "hello", 5, CSUM_ZERO, 0, 0));
    assert_int_equal(ucount(TERN_UDP_RX_BAD_CHECKSUM), 2);
    /* Length beyond the packet, and below the header's 8 bytes. */
    receive(pkt, build_udp(pkt, 40000, 5683, "hello", 5, CSUM_OK, 14, 0));
    receive(pkt, build_udp(pkt, 40000, 5683, "hello", 5, CSUM_OK, 7, 0));
    assert_int_equal(ucount(TERN_UDP_RX_BAD_LENGTH), 2);
    assert_int_equal(ucount(TERN_UDP_RX_DATAGRAMS), 0);
    char buf[32];
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
    for (unsigned i = 0; i < nsent; i++) {
        assert_false(sent[i][6] == 58 && sent[i][40] == TERN_ICMPV6_DST_UNREACH); /* no error for corrupt data */
    }
}

static void test_udp_receive__bytes_beyond_length_trimmed(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    uint8_t pkt[256];
    receive(pkt, build_udp(pkt, 40000, 5683, "hello", 5, CSUM_OK, 0, 3));
    char buf[32];
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), 5);
    assert_memory_equal(buf, "hello", 5);
}

static void test_udp_receive__closed_port_reported_to_ipv6(void **state)
{
    (void)state;
    uint8_t pkt[256];
    size_t len = build_udp(pkt, 40000, 9999, "anyone?", 7, CSUM_OK, 0, 0);
    receive(pkt, len);
    assert_int_equal(ucount(TERN_UDP_RX_NO_PORT), 1);
    assert_int_equal(ucount(TERN_UDP_RX_NO_PORT_LOST), 0);
    /* The IPv6 module answers with Destination Unreachable, port (after resolving the peer). */
    assert_int_equal(ip.counters[TERN_IPV6_ICMP_ERRORS_OUT], 1);
    uint8_t na[128];
    receive(na, build_na(na));
    unsigned i = find_sent(58, TERN_ICMPV6_DST_UNREACH); /* after the NS */
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
    assert_int_equal(sent[i][41], TERN_ICMPV6_DST_UNREACH_PORT);
    /* It quotes the invoking packet from its IPv6 header on. */
    assert_true(sent_len[i] >= 48 + len);
    assert_memory_equal(sent[i] + 48, pkt, len);
}

static void test_sock_udp_send__builds_checksummed_datagram(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    tern_sock_udp_ep_t remote = ep(PEER_LL, 40000, netif.index);
    assert_int_equal(tern_sock_udp_send(&sock, "reply", 5, &remote), 5);
    run_for(1);
    uint8_t na[128];
    receive(na, build_na(na));
    unsigned i = find_sent(17, 0); /* after the NS */
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
    assert_int_equal(h.payload_len, 13);
    tern_ipv6_addr_t node = A(NODE_LL), peer = A(PEER_LL);
    assert_true(tern_ipv6_addr_equal(&h.src, &node));
    assert_true(tern_ipv6_addr_equal(&h.dst, &peer));
    tern_udp_repr_t u;
    assert_int_equal(tern_udp_parse(&u, sent[i] + 40, sent_len[i] - 40), 8);
    assert_int_equal(u.src_port, 5683);
    assert_int_equal(u.dst_port, 40000);
    assert_int_equal(u.length, 13);
    assert_memory_equal(sent[i] + 48, "reply", 5);
    const tern_checksum_span_t span = { .data = sent[i] + 40, .len = 13 };
    assert_int_equal(tern_udp_checksum_verify(&u, &h.src, &h.dst, &span, 1), 0);
    assert_int_equal(ucount(TERN_UDP_TX_DATAGRAMS), 1);
    /* Errors found before anything is queued. */
    assert_int_equal(tern_sock_udp_send(&sock, "x", 1, NULL), -ENOTCONN);
    tern_sock_udp_ep_t no_port = ep(PEER_LL, 0, netif.index);
    assert_int_equal(tern_sock_udp_send(&sock, "x", 1, &no_port), -EINVAL);
}

/* The socket's snips (interface header, IPv6 template, UDP header,
 * payload) are not zeroed when allocated: every byte that matters is
 * written. Sent from an arena whose free bytes were all 0xA5 first, the
 * datagram is exact and its checksum holds. */
static void test_sock_udp_send__every_byte_written_over_a_dirty_arena(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    tern_sock_udp_ep_t remote = ep(PEER_LL, 40000, netif.index);
    /* Resolve the peer first, so that the datagram goes at once. */
    assert_int_equal(tern_sock_udp_send(&sock, "x", 1, &remote), 1);
    run_for(1);
    uint8_t na[128];
    receive(na, build_na(na));
    /* Every free byte dirtied: snips taken until none fits, filled, freed. */
    tern_pktbuf_t *pb = &stack.pktbuf;
    tern_pkt_t *dirt = NULL;
    for (size_t size = 256; size >= 8; size /= 2) {
        tern_pkt_t *more;
        while ((more = tern_pktbuf_add(pb, dirt, NULL, size, TERN_NETTYPE_UNDEF)) != NULL) {
            memset(more->data, 0xA5, size);
            dirt = more;
        }
    }
    assert_non_null(dirt);
    tern_pktbuf_release(pb, dirt);
    nsent = 0;
    static const uint8_t payload[5] = { 0, 1, 2, 3, 4 };
    assert_int_equal(tern_sock_udp_send(&sock, payload, sizeof(payload), &remote), 5);
    run_for(1);
    unsigned i = find_sent(17, 0);
    tern_ipv6_repr_t h;
    assert_int_equal(tern_ipv6_parse(&h, sent[i], sent_len[i]), 40);
    assert_int_equal(sent_len[i], 40u + 13u);
    static const uint8_t udp_hdr[6] = { 0x16, 0x33, 0x9c, 0x40, 0x00, 13 }; /* 5683 -> 40000, length 13 */
    assert_memory_equal(sent[i] + 40, udp_hdr, sizeof(udp_hdr));
    assert_memory_equal(sent[i] + 48, payload, sizeof(payload));
    tern_udp_repr_t u;
    assert_int_equal(tern_udp_parse(&u, sent[i] + 40, sent_len[i] - 40), 8);
    const tern_checksum_span_t span = { .data = sent[i] + 40, .len = 13 };
    assert_int_equal(tern_udp_checksum_verify(&u, &h.src, &h.dst, &span, 1), 0);
}

/* What the UDP module refuses to send down: no IPv6 header with the
 * datagram (none in front of the UDP header: one after it is none of its
 * headers), or a UDP snip that is not exactly the 8-byte header. */
static void test_udp_send__without_ipv6_or_with_a_bad_header_counted(void **state)
{
    (void)state;
    tern_pktbuf_t *pb = &stack.pktbuf;
    uint8_t hdr[TERN_UDP_HDR_LEN] = { 0 };
    tern_pkt_t *pkt = tern_pktbuf_add(pb, tern_pktbuf_add(pb, NULL, "ab", 2, TERN_NETTYPE_UNDEF), hdr, sizeof(hdr),
                                      TERN_NETTYPE_UDP);
    assert_non_null(pkt);
    assert_true(tern_netapi_send(&udp.module, pkt) >= 0);
    run_for(1);
    assert_int_equal(ucount(TERN_UDP_TX_ERRORS), 1);
    pkt = tern_pktbuf_add(pb, NULL, hdr, sizeof(hdr) - 1u, TERN_NETTYPE_UDP);
    pkt = tern_pktbuf_add(pb, pkt, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6);
    assert_non_null(pkt);
    assert_true(tern_netapi_send(&udp.module, pkt) >= 0);
    run_for(1);
    assert_int_equal(ucount(TERN_UDP_TX_ERRORS), 2);
    pkt = tern_pktbuf_add(pb, NULL, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6);
    pkt = tern_pktbuf_add(pb, pkt, hdr, sizeof(hdr), TERN_NETTYPE_UDP); /* [UDP, IPv6] */
    assert_non_null(pkt);
    assert_true(tern_netapi_send(&udp.module, pkt) >= 0);
    run_for(1);
    assert_int_equal(ucount(TERN_UDP_TX_ERRORS), 3);
    assert_int_equal(ucount(TERN_UDP_TX_DATAGRAMS), 0);
    assert_int_equal(nsent, 0);
}

static void test_sock_udp_create__connected_socket_filters_and_sends_by_default(void **state)
{
    (void)state;
    tern_sock_udp_ep_t local = ep("::", 5683, 0);
    tern_sock_udp_ep_t remote = ep(PEER_LL, 40000, netif.index);
    assert_int_equal(tern_sock_udp_create(&sock, &stack, &ip, &udp, &local, &remote, 0), 0);
    uint8_t pkt[256];
    receive(pkt, build_udp(pkt, 40001, 5683, "other", 5, CSUM_OK, 0, 0));
    assert_int_equal(sock.drops[TERN_SOCK_UDP_DROP_FILTERED], 1);
    receive(pkt, build_udp(pkt, 40000, 5683, "peer", 4, CSUM_OK, 0, 0));
    char buf[8];
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), 4);
    assert_int_equal(tern_sock_udp_send(&sock, "x", 1, NULL), 1);
    run_for(1);
    assert_int_equal(ucount(TERN_UDP_TX_DATAGRAMS), 1);
}

static void test_sock_udp_create__ephemeral_ports_and_port_in_use(void **state)
{
    (void)state;
    assert_int_equal(tern_sock_udp_create(&sock, &stack, &ip, &udp, NULL, NULL, 0), 0);
    assert_int_equal(tern_sock_udp_create(&sock2, &stack, &ip, &udp, NULL, NULL, 0), 0);
    tern_sock_udp_ep_t a, b;
    assert_int_equal(tern_sock_udp_get_local(&sock, &a), 0);
    assert_int_equal(tern_sock_udp_get_local(&sock2, &b), 0);
    assert_true(a.port >= TERN_UDP_EPHEMERAL_MIN);
    assert_true(b.port >= TERN_UDP_EPHEMERAL_MIN);
    assert_int_not_equal(a.port, b.port);
    tern_sock_udp_close(&sock2);
    /* Explicit ports: one socket each; an open socket cannot be created again. */
    tern_sock_udp_ep_t taken = ep("::", a.port, 0);
    assert_int_equal(tern_sock_udp_create(&sock2, &stack, &ip, &udp, &taken, NULL, 0), -EADDRINUSE);
    assert_int_equal(tern_sock_udp_create(&sock, &stack, &ip, &udp, &taken, NULL, 0), -EINVAL);
    /* Local addresses must be the node's. */
    tern_sock_udp_ep_t foreign = ep("2001:db8::99", 1000, 0);
    assert_int_equal(tern_sock_udp_create(&sock2, &stack, &ip, &udp, &foreign, NULL, 0), -EADDRNOTAVAIL);
    tern_sock_udp_ep_t mine = ep(NODE_LL, 1000, netif.index);
    assert_int_equal(tern_sock_udp_create(&sock2, &stack, &ip, &udp, &mine, NULL, 0), 0);
}

static void test_sock_udp_close__unregisters_and_releases(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    uint8_t pkt[256];
    receive(pkt, build_udp(pkt, 40000, 5683, "kept", 4, CSUM_OK, 0, 0));
    tern_sock_udp_close(&sock); /* releases the kept datagram */
    harness_assert_pktbuf_clean(&stack.pktbuf);
    char buf[8];
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EBADF);
    assert_int_equal(tern_sock_udp_send(&sock, "x", 1, NULL), -EBADF);
    receive(pkt, build_udp(pkt, 40000, 5683, "gone", 4, CSUM_OK, 0, 0));
    assert_int_equal(ucount(TERN_UDP_RX_NO_PORT), 1);
    /* The same struct opens again. */
    bind_port(&sock, 5683);
    receive(pkt, build_udp(pkt, 40000, 5683, "again", 5, CSUM_OK, 0, 0));
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), 5);
}

static void test_udp_receive__two_sockets_on_different_ports(void **state)
{
    (void)state;
    bind_port(&sock, 1000);
    bind_port(&sock2, 2000);
    uint8_t pkt[256];
    receive(pkt, build_udp(pkt, 40000, 2000, "two", 3, CSUM_OK, 0, 0));
    char buf[8];
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
    assert_int_equal(tern_sock_udp_recv(&sock2, buf, sizeof(buf), 0, NULL), 3);
}

/*
 * udp.h: a receiver of (UDP, port) gets the checked datagram whole, header
 * in place ([UDP datagram, IPV6, NETIF], no header snip split off), trimmed
 * to Length in a private copy; a receiver of (UDP, ALL), which had the
 * packet from IPv6, keeps its bytes as they came.
 */
static void test_udp_receive__datagram_delivered_whole_trimmed_in_a_private_copy(void **state)
{
    (void)state;
    static sink_t port_sink;
    static sink_t all_sink;
    sink_add(&stack, &port_sink, "port", 6, 8, true);
    sink_add(&stack, &all_sink, "all", 6, 8, true);
    tern_netreg_entry_t port_entry;
    tern_netreg_entry_t all_entry;
    tern_netreg_entry_init(&port_entry, 5683, &port_sink.module);
    tern_netreg_entry_init(&all_entry, TERN_NETREG_DEMUX_CTX_ALL, &all_sink.module);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &port_entry), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &all_entry), 0);
    uint8_t pkt[256];
    receive(pkt, build_udp(pkt, 40000, 5683, "hello", 5, CSUM_OK, 0, 3));
    assert_int_equal(ucount(TERN_UDP_RX_DATAGRAMS), 1);
    assert_int_equal(port_sink.nkept, 1);
    const tern_pkt_t *d = port_sink.kept[0];
    assert_int_equal(d->type, TERN_NETTYPE_UDP);
    assert_int_equal(d->size, TERN_UDP_HDR_LEN + 5);
    assert_memory_equal(d->data, pkt + 40, TERN_UDP_HDR_LEN + 5); /* header, then payload */
    assert_non_null(d->next);
    assert_int_equal(d->next->type, TERN_NETTYPE_IPV6);
    assert_int_equal(d->next->size, TERN_IPV6_HDR_LEN);
    assert_int_equal(all_sink.nkept, 1);
    const tern_pkt_t *a = all_sink.kept[0];
    assert_ptr_not_equal(a, d);
    assert_int_equal(a->type, TERN_NETTYPE_UDP);
    assert_int_equal(a->size, TERN_UDP_HDR_LEN + 5 + 3); /* the shared snip was not trimmed */
    assert_ptr_equal(a->next, d->next);                  /* the headers stay shared */
    assert_int_equal(tern_netreg_unregister(&stack.netreg, TERN_NETTYPE_UDP, &port_entry), 0);
    assert_int_equal(tern_netreg_unregister(&stack.netreg, TERN_NETTYPE_UDP, &all_entry), 0);
    sink_release_kept(&stack, &port_sink);
    sink_release_kept(&stack, &all_sink);
}

/*
 * More receivers of (UDP, port) than tern_netapi_deliver() takes
 * (TERN_CONF_NETAPI_MAX_RECEIVERS): the first ones get the datagram, the
 * rest are counted as netapi too_many, and the datagram counts once.
 */
static void test_udp_receive__receivers_beyond_the_limit_counted_too_many(void **state)
{
    (void)state;
    enum { N = TERN_CONF_NETAPI_MAX_RECEIVERS + 1 };
    static sink_t sinks[N];
    static tern_netreg_entry_t entries[N];
    for (unsigned i = 0; i < N; i++) {
        sink_add(&stack, &sinks[i], "many", 6, 8, true);
        tern_netreg_entry_init(&entries[i], 5683, &sinks[i].module);
        assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &entries[i]), 0);
    }
    uint8_t pkt[256];
    receive(pkt, build_udp(pkt, 40000, 5683, "many", 4, CSUM_OK, 0, 0));
    assert_int_equal(ucount(TERN_UDP_RX_DATAGRAMS), 1);
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_TOO_MANY], 1);
    uint32_t got = 0;
    for (unsigned i = 0; i < N; i++) {
        got += sinks[i].nkept;
        assert_int_equal(tern_netreg_unregister(&stack.netreg, TERN_NETTYPE_UDP, &entries[i]), 0);
        sink_release_kept(&stack, &sinks[i]);
    }
    assert_int_equal(got, TERN_CONF_NETAPI_MAX_RECEIVERS);
}

/* ------------------------------------------------------------ ICMPv6 errors about our datagrams (RFC 4443 §2.4 (e)) */

/*
 * Golden bytes: fe80::1 tells us (fe80::5eff:fe00:5301) Destination
 * Unreachable, code 4 port unreachable, quoting our datagram
 * [fe80::5eff:fe00:5301]:5683 -> [fe80::1]:9999 "ping" whole, as Linux does.
 */
static const uint8_t PORT_UNREACH_GOLDEN[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x3c, 0x3a, 0x40, 0xfe, 0x80, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5e, 0xff,
    0xfe, 0x00, 0x53, 0x01, 0x01, 0x04, 0xe0, 0x51, 0x00, 0x00, 0x00, 0x00,
    0x60, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x11, 0x40, 0xfe, 0x80, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5e, 0xff, 0xfe, 0x00, 0x53, 0x01,
    0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0x16, 0x33, 0x27, 0x0f, 0x00, 0x0c, 0x36, 0xbf,
    0x70, 0x69, 0x6e, 0x67,
};

/*
 * The quote of a datagram we sent: [@p src]:@p sport -> [PEER_LL]:@p dport
 * "ping", with an 8-byte Destination Options header first when @p dest_opts.
 */
static size_t build_quote(uint8_t *out, const char *src, uint16_t sport, uint16_t dport, bool dest_opts)
{
    size_t ext = dest_opts ? 8u : 0u;
    uint8_t *u = out + 40 + ext;
    tern_udp_repr_t r = { .src_port = sport, .dst_port = dport, .length = 12, .checksum = 0 };
    assert_int_equal(tern_udp_emit(&r, u, 8), 8);
    memcpy(u + 8, "ping", 4);
    tern_ipv6_addr_t s = A(src), d = A(PEER_LL);
    const tern_checksum_span_t span = { .data = u, .len = 12 };
    assert_int_equal(tern_udp_set_checksum(u, 8, tern_udp_checksum(&s, &d, &span, 1)), 0);
    if (dest_opts) {
        const uint8_t opts[8] = { 17, 0, 1, 4, 0, 0, 0, 0 }; /* next UDP, PadN of 4 */
        memcpy(out + 40, opts, 8);
    }
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)(12 + ext), .next_header = dest_opts ? 60 : 17,
                           .hop_limit = 64, .src = s, .dst = d };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    return 40 + ext + 12;
}

/* An ICMPv6 error from PEER_LL to NODE_LL quoting @p quote_len bytes of @p quote. */
static size_t build_error(uint8_t *out, uint8_t type, uint8_t code, uint32_t param, const uint8_t *quote,
                          size_t quote_len)
{
    tern_icmpv6_error_repr_t e = { .type = type, .code = code, .param = param, .invoking = quote,
                                   .invoking_len = quote_len };
    int n = tern_icmpv6_error_emit(&e, out + 40, 1200);
    assert_int_equal(n, 8 + (int)quote_len);
    tern_ipv6_repr_t h = { .payload_len = (uint16_t)n, .next_header = 58, .hop_limit = 64, .src = A(PEER_LL),
                           .dst = A(NODE_LL) };
    assert_int_equal(tern_ipv6_emit(&h, out, 40), 40);
    assert_int_equal(tern_icmpv6_checksum_fill(out + 40, (size_t)n, &h.src, &h.dst), 0);
    return 40 + (size_t)n;
}

static void test_udp_icmp_error__port_unreachable_reported_once_then_data(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    /* The builders make the golden bytes. */
    uint8_t quote[128], pkt[256];
    size_t qlen = build_quote(quote, NODE_LL, 5683, 9999, false);
    size_t len = build_error(pkt, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0, quote, qlen);
    assert_int_equal(len, sizeof(PORT_UNREACH_GOLDEN));
    assert_memory_equal(pkt, PORT_UNREACH_GOLDEN, len);
    receive(PORT_UNREACH_GOLDEN, sizeof(PORT_UNREACH_GOLDEN));
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_ERRORS), 1);
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_NO_SOCKET), 0);
    assert_int_equal(ip.counters[TERN_IPV6_ICMP_UNHANDLED], 0);
    char buf[32];
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -ECONNREFUSED);
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN); /* once */
    receive(pkt, build_udp(pkt, 9999, 5683, "data", 4, CSUM_OK, 0, 0));
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), 4);
    assert_memory_equal(buf, "data", 4);
    /* A later error overwrites an unread one; it comes before queued data. */
    receive(pkt, build_udp(pkt, 9999, 5683, "more", 4, CSUM_OK, 0, 0));
    receive(PORT_UNREACH_GOLDEN, sizeof(PORT_UNREACH_GOLDEN));
    receive(pkt, build_error(pkt, TERN_ICMPV6_PARAM_PROBLEM, 0, 40, quote, qlen));
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EPROTO);
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), 4);
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_ERRORS), 3);
}

static void test_udp_icmp_error__errno_per_type_and_code(void **state)
{
    (void)state;
    static const struct {
        uint8_t type, code;
        int err;
    } cases[] = {
        { TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_NO_ROUTE, -EHOSTUNREACH },
        { TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_ADMIN, -EHOSTUNREACH },
        { TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_BEYOND_SCOPE, -EHOSTUNREACH },
        { TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_ADDR, -EHOSTUNREACH },
        { TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, -ECONNREFUSED },
        { TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_POLICY, -EHOSTUNREACH },
        { TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_REJECT_ROUTE, -EHOSTUNREACH },
        { TERN_ICMPV6_TIME_EXCEEDED, TERN_ICMPV6_TIME_EXCEEDED_HOP_LIMIT, -EHOSTUNREACH },
        { TERN_ICMPV6_TIME_EXCEEDED, TERN_ICMPV6_TIME_EXCEEDED_REASSEMBLY, -EHOSTUNREACH },
        { TERN_ICMPV6_PARAM_PROBLEM, TERN_ICMPV6_PARAM_PROBLEM_NEXT_HEADER, -EPROTO },
    };
    bind_port(&sock, 5683);
    uint8_t quote[128], pkt[256];
    /* With a Destination Options header in the quote, skipped. */
    size_t qlen = build_quote(quote, NODE_LL, 5683, 9999, true);
    char buf[8];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        receive(pkt, build_error(pkt, cases[i].type, cases[i].code, 0, quote, qlen));
        assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), cases[i].err);
    }
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_ERRORS), sizeof(cases) / sizeof(cases[0]));
}

static void test_udp_icmp_error__packet_too_big_reported_and_pmtu_lowered(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    uint8_t quote[128], pkt[256];
    size_t qlen = build_quote(quote, NODE_LL, 5683, 9999, false);
    receive(pkt, build_error(pkt, TERN_ICMPV6_PACKET_TOO_BIG, 0, 1280, quote, qlen));
#if TERN_CONF_IPV6_DCACHE
    assert_int_equal(ip.counters[TERN_IPV6_PMTU_LOWERED], 1); /* as before: RFC 8201 */
    tern_ipv6_addr_t peer = A(PEER_LL);
    const tern_dcache_entry_t *d = tern_dcache_lookup(&ip.dcache, &peer, clock_v.now);
    assert_non_null(d);
    assert_int_equal(d->pmtu, 1280);
#endif
    char buf[8];
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EMSGSIZE);
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_ERRORS), 1);
}

static void test_udp_icmp_error__no_socket_truncated_not_ours_counted(void **state)
{
    (void)state;
    bind_port(&sock, 5683);
    uint8_t quote[128], pkt[256];
    char buf[8];
    /* Another source port: nobody bound to it. */
    size_t qlen = build_quote(quote, NODE_LL, 5684, 9999, false);
    receive(pkt, build_error(pkt, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0, quote, qlen));
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_ERRORS), 1);
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_NO_SOCKET), 1);
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
    /* The quote ends inside the UDP header. */
    qlen = build_quote(quote, NODE_LL, 5683, 9999, false);
    receive(pkt, build_error(pkt, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0, quote, 44));
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_ERRORS), 2);
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_TRUNCATED), 1);
    /* ... or inside an extension header: not identified, left to IPv6 (unhandled). */
    qlen = build_quote(quote, NODE_LL, 5683, 9999, true);
    receive(pkt, build_error(pkt, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0, quote, 44));
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_ERRORS), 2);
    assert_int_equal(ip.counters[TERN_IPV6_ICMP_UNHANDLED], 1);
    /* A datagram some other node sent. */
    qlen = build_quote(quote, "fe80::77", 5683, 9999, false);
    receive(pkt, build_error(pkt, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0, quote, qlen));
    assert_int_equal(ip.counters[TERN_IPV6_ICMP_ERR_NOT_OURS], 1);
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_ERRORS), 2);
    /* An error about an error message (not UDP): not for UDP. */
    qlen = build_quote(quote, NODE_LL, 5683, 9999, false);
    quote[6] = 58;
    quote[40] = TERN_ICMPV6_DST_UNREACH;
    receive(pkt, build_error(pkt, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0, quote, qlen));
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_ERRORS), 2);
    assert_int_equal(ip.counters[TERN_IPV6_ICMP_UNHANDLED], 2);
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
}

static void test_udp_icmp_error__connected_socket_only_about_its_remote(void **state)
{
    (void)state;
    tern_sock_udp_ep_t local = ep("::", 5683, 0), remote = ep(PEER_LL, 9998, 0);
    assert_int_equal(tern_sock_udp_create(&sock, &stack, &ip, &udp, &local, &remote, 0), 0);
    uint8_t quote[128], pkt[256];
    char buf[8];
    size_t qlen = build_quote(quote, NODE_LL, 5683, 9999, false); /* to another port than the connected one */
    receive(pkt, build_error(pkt, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0, quote, qlen));
    assert_int_equal(ucount(TERN_UDP_RX_ICMP_ERRORS), 1);
    assert_int_equal(sock.drops[TERN_SOCK_UDP_DROP_FILTERED], 1);
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
    qlen = build_quote(quote, NODE_LL, 5683, 9998, false);
    receive(pkt, build_error(pkt, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0, quote, qlen));
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -ECONNREFUSED);
}

static int err_cb_calls;
static bool err_cb_null;
static int err_cb_recv;
static tern_sock_udp_ep_t err_cb_about;

static void on_error(tern_sock_udp_t *s, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote, void *arg)
{
    (void)arg;
    err_cb_calls++;
    err_cb_null = (data == NULL && len == 0);
    err_cb_about = *remote;
    char buf[8];
    err_cb_recv = tern_sock_udp_recv(s, buf, sizeof(buf), 0, NULL); /* takes the pending error */
}

static void test_udp_icmp_error__callback_told_with_null_data(void **state)
{
    (void)state;
    err_cb_calls = 0;
    bind_port(&sock, 5683);
    assert_int_equal(tern_sock_udp_set_cb(&sock, on_error, NULL), 0);
    receive(PORT_UNREACH_GOLDEN, sizeof(PORT_UNREACH_GOLDEN));
    assert_int_equal(err_cb_calls, 1);
    assert_true(err_cb_null);
    assert_int_equal(err_cb_recv, -ECONNREFUSED);
    tern_ipv6_addr_t peer = A(PEER_LL);
    assert_true(tern_ipv6_addr_equal(&err_cb_about.addr, &peer));
    assert_int_equal(err_cb_about.port, 9999);
    assert_int_equal(err_cb_about.netif, netif.index);
    char buf[8];
    assert_int_equal(tern_sock_udp_recv(&sock, buf, sizeof(buf), 0, NULL), -EAGAIN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_udp_receive__bound_socket_gets_payload_and_sender),
        T(test_sock_udp_recv__timeout_runs_the_stack),
        T(test_sock_udp_recv__short_buffer_truncates_and_says_so),
        T(test_sock_udp_receive__ring_overflow_counted),
        T(test_sock_udp_set_cb__callback_gets_datagram),
        T(test_udp_receive__bad_checksum_zero_checksum_bad_length_dropped),
        T(test_udp_receive__bytes_beyond_length_trimmed),
        T(test_udp_receive__closed_port_reported_to_ipv6),
        T(test_sock_udp_send__builds_checksummed_datagram),
        T(test_udp_send__without_ipv6_or_with_a_bad_header_counted),
        T(test_sock_udp_send__every_byte_written_over_a_dirty_arena),
        T(test_sock_udp_create__connected_socket_filters_and_sends_by_default),
        T(test_sock_udp_create__ephemeral_ports_and_port_in_use),
        T(test_sock_udp_close__unregisters_and_releases),
        T(test_udp_receive__two_sockets_on_different_ports),
        T(test_udp_receive__datagram_delivered_whole_trimmed_in_a_private_copy),
        T(test_udp_receive__receivers_beyond_the_limit_counted_too_many),
        T(test_udp_icmp_error__port_unreachable_reported_once_then_data),
        T(test_udp_icmp_error__errno_per_type_and_code),
        T(test_udp_icmp_error__packet_too_big_reported_and_pmtu_lowered),
        T(test_udp_icmp_error__no_socket_truncated_not_ours_counted),
        T(test_udp_icmp_error__connected_socket_only_about_its_remote),
        T(test_udp_icmp_error__callback_told_with_null_data),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
