/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Interfaces over the test device and loopback, under both executors.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "sink.h"
#include "tern/netapi.h"
#include "tern/netdev/loopback.h"
#include "tern/netdev/test.h"
#include "tern/netif.h"
#include "tern/stack.h"

static tern_stack_t stack;
static tern_netdev_test_t test_dev;
static tern_netif_t test_if;
static tern_netdev_loopback_t lo_dev;
static tern_netif_t lo_if;
static sink_t upper;          /* registered for IPV6, keeps packets */
static tern_netreg_entry_t upper_entry;

/* What the capturing send callback saw. */
static uint8_t captured[2048];
static size_t captured_len;
static size_t captured_iolist;

static int capture_send(tern_netdev_test_t *dev, const tern_iolist_t *iol, size_t count)
{
    (void)dev;
    captured_len = 0;
    captured_iolist = count;
    for (size_t i = 0; i < count; i++) {
        memcpy(&captured[captured_len], iol[i].base, iol[i].len);
        captured_len += iol[i].len;
    }
    return (int)captured_len;
}

static int failing_send(tern_netdev_test_t *dev, const tern_iolist_t *iol, size_t count)
{
    (void)dev;
    (void)iol;
    (void)count;
    return -EIO;
}

static int setup(void **state)
{
    (void)state;
    assert_int_equal(tern_stack_init(&stack, "t", harness_exec_start()), 0);
    tern_netdev_test_init(&test_dev);
    const uint8_t addr[2] = { 0xbe, 0xef };
    memcpy(test_dev.addr, addr, 2);
    test_dev.addr_len = 2;
    assert_int_equal(tern_netif_add(&stack, &test_if, "test0", &test_dev.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_IPV6),
                     0);
    tern_netdev_loopback_init(&lo_dev);
    assert_int_equal(tern_netif_add(&stack, &lo_if, "lo", &lo_dev.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_IPV6),
                     0);
    sink_add(&stack, &upper, "upper", 5, 8, true);
    tern_netreg_entry_init(&upper_entry, TERN_NETREG_DEMUX_CTX_ALL, &upper.module);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_IPV6, &upper_entry), 0);
    captured_len = 0;
    captured_iolist = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    harness_run_until_idle();
    sink_release_kept(&stack, &upper);
    harness_exec_stop();
    harness_assert_pktbuf_clean(&stack.pktbuf);
    return 0;
}

/* [NETIF(if_index), header snip, payload] as IPv6 would build it. */
static tern_pkt_t *make_outgoing(uint16_t if_index, const char *hdr, const char *payload)
{
    tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, payload, strlen(payload), TERN_NETTYPE_UNDEF);
    assert_non_null(pkt);
    pkt = tern_pktbuf_add(&stack.pktbuf, pkt, hdr, strlen(hdr), TERN_NETTYPE_IPV6);
    assert_non_null(pkt);
    pkt = tern_netif_hdr_build(&stack.pktbuf, pkt, NULL, 0, NULL, 0);
    assert_non_null(pkt);
    ((tern_netif_hdr_t *)pkt->data)->if_index = if_index;
    return pkt;
}

static void test_tern_netif_add__numbers_and_reads_device(void **state)
{
    (void)state;
    assert_int_equal(test_if.index, 1);
    assert_int_equal(lo_if.index, 2);
    assert_ptr_equal(tern_netif_by_name(&stack, "lo"), &lo_if);
    assert_ptr_equal(tern_netif_by_index(&stack, 1), &test_if);
    assert_null(tern_netif_by_index(&stack, 3));
    assert_null(tern_netif_by_name(&stack, "eth0"));
    assert_int_equal(test_if.mtu, 1280);
    assert_int_equal(test_if.l2addr_len, 2);
    assert_int_equal(lo_if.l2addr_len, 0);
}

static void test_tern_netif_add__invalid_arguments(void **state)
{
    (void)state;
    static tern_netif_t extra;
    assert_int_equal(tern_netif_add(&stack, &extra, "x", NULL, &tern_netif_link_raw, TERN_NETTYPE_IPV6),
                     -EINVAL);
    assert_int_equal(tern_netif_add(&stack, &extra, "x", &test_dev.netdev, NULL, TERN_NETTYPE_IPV6),
                     -EINVAL);
    assert_int_equal(tern_netif_add(&stack, &extra, "x", &test_dev.netdev, &tern_netif_link_raw,
                                    TERN_NETTYPE_NUMOF),
                     -EINVAL);
}

static void test_tern_netif_send__loopback_comes_back_up(void **state)
{
    (void)state;
    assert_int_equal(tern_netif_send(&stack, make_outgoing(lo_if.index, "HDR", "payload")), 0);
    harness_run_until_idle();
    assert_int_equal(upper.rcv, 1);
    tern_pkt_t *pkt = upper.kept[0];
    /* Reception order: [frame as IPV6, NETIF]. */
    assert_int_equal(pkt->type, TERN_NETTYPE_IPV6);
    assert_int_equal(pkt->size, 10);
    assert_memory_equal(pkt->data, "HDRpayload", 10);
    tern_netif_hdr_t *hdr = tern_netif_hdr_get(pkt);
    assert_non_null(hdr);
    assert_int_equal(hdr->if_index, lo_if.index);
    assert_int_equal(lo_if.counters[TERN_NETIF_TX_PACKETS], 1);
    assert_int_equal(lo_if.counters[TERN_NETIF_TX_BYTES], 10);
    assert_int_equal(lo_if.counters[TERN_NETIF_RX_PACKETS], 1);
    assert_int_equal(lo_if.counters[TERN_NETIF_RX_BYTES], 10);
}

static void test_tern_netif_send__scatter_list_to_driver(void **state)
{
    (void)state;
    test_dev.send_cb = capture_send;
    assert_int_equal(tern_netif_send(&stack, make_outgoing(test_if.index, "H", "data")), 0);
    harness_run_until_idle();
    /* The interface header is not sent; the other two snips are. */
    assert_int_equal(captured_iolist, 2);
    assert_int_equal(captured_len, 5);
    assert_memory_equal(captured, "Hdata", 5);
}

static void test_tern_netif_send__too_many_snips_are_flattened(void **state)
{
    (void)state;
    test_dev.send_cb = capture_send;
    tern_pkt_t *pkt = NULL;
    char expect[TERN_CONF_NETIF_IOLIST_MAX + 4];
    for (int i = TERN_CONF_NETIF_IOLIST_MAX + 3; i >= 0; i--) {
        char c = (char)('a' + i);
        expect[i] = c;
        pkt = tern_pktbuf_add(&stack.pktbuf, pkt, &c, 1, TERN_NETTYPE_UNDEF);
        assert_non_null(pkt);
    }
    pkt = tern_netif_hdr_build(&stack.pktbuf, pkt, NULL, 0, NULL, 0);
    assert_non_null(pkt);
    ((tern_netif_hdr_t *)pkt->data)->if_index = test_if.index;
    assert_int_equal(tern_netif_send(&stack, pkt), 0);
    harness_run_until_idle();
    assert_int_equal(test_if.counters[TERN_NETIF_TX_MERGED], 1);
    assert_int_equal(captured_iolist, 1);
    assert_int_equal(captured_len, sizeof(expect));
    assert_memory_equal(captured, expect, sizeof(expect));
}

static void test_tern_netif_send__device_error_counted(void **state)
{
    (void)state;
    test_dev.send_cb = failing_send;
    assert_int_equal(tern_netif_send(&stack, make_outgoing(test_if.index, "H", "x")), 0);
    harness_run_until_idle();
    assert_int_equal(test_if.counters[TERN_NETIF_TX_ERRORS], 1);
    assert_int_equal(test_if.counters[TERN_NETIF_TX_PACKETS], 0);
    assert_int_equal(tern_pktbuf_stats(&stack.pktbuf).released_err, 1);
}

static void test_tern_netif_send__down_interface_drops(void **state)
{
    (void)state;
    uint8_t down = 0;
    assert_int_equal(tern_netapi_set(&test_if.module, TERN_NETOPT_STATE, 0, &down, 1), 1);
    assert_int_equal(tern_netif_send(&stack, make_outgoing(test_if.index, "H", "x")), 0);
    harness_run_until_idle();
    assert_int_equal(test_if.counters[TERN_NETIF_TX_DOWN], 1);
    assert_int_equal(test_dev.frames_sent, 0);
}

static void test_tern_netif_hdr_fill__addresses_and_zeroes(void **state)
{
    (void)state;
    tern_netif_hdr_t hdr;
    memset(&hdr, 0xA5, sizeof(hdr));
    const uint8_t src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    const uint8_t dst[2] = { 0xBE, 0xEF };
    assert_int_equal(tern_netif_hdr_fill(&hdr, src, sizeof(src), dst, sizeof(dst)), 0);
    assert_int_equal(hdr.src_len, 8);
    assert_memory_equal(hdr.src, src, sizeof(src));
    assert_int_equal(hdr.dst_len, 2);
    assert_memory_equal(hdr.dst, dst, sizeof(dst));
    /* Everything else as a new snip's: 0. */
    assert_int_equal(hdr.if_index, 0);
    assert_int_equal(hdr.flags, 0);
    assert_int_equal(hdr.lqi, 0);
    assert_int_equal(hdr.rssi, 0);
    /* Too long, or an address missing: refused, the header unchanged. */
    tern_netif_hdr_t before = hdr;
    assert_int_equal(tern_netif_hdr_fill(&hdr, src, TERN_CONF_L2ADDR_MAX + 1u, NULL, 0), -EINVAL);
    assert_int_equal(tern_netif_hdr_fill(&hdr, NULL, 2, NULL, 0), -EINVAL);
    assert_memory_equal(&hdr, &before, sizeof(hdr));
    /* The same contents as tern_netif_hdr_build() gives a new snip. */
    tern_pkt_t *snip = tern_netif_hdr_build(&stack.pktbuf, NULL, src, sizeof(src), dst, sizeof(dst));
    assert_non_null(snip);
    assert_int_equal(snip->type, TERN_NETTYPE_NETIF);
    assert_memory_equal(snip->data, &hdr, sizeof(hdr));
    tern_pktbuf_release(&stack.pktbuf, snip);
}

static void test_tern_netif_hdr_get__head_later_or_wrong_size(void **state)
{
    (void)state;
    tern_pktbuf_t *pb = &stack.pktbuf;
    const uint8_t src[2] = { 0xBE, 0xEF };
    /* At the head (the usual place). */
    tern_pkt_t *pkt = tern_netif_hdr_build(pb, tern_pktbuf_add(pb, NULL, "x", 1, TERN_NETTYPE_IPV6), src, 2, NULL, 0);
    assert_non_null(pkt);
    assert_ptr_equal(tern_netif_hdr_get(pkt), pkt->data);
    /* Behind another snip: found there. */
    tern_pkt_t *front = tern_pktbuf_add(pb, pkt, "y", 1, TERN_NETTYPE_UNDEF);
    assert_non_null(front);
    assert_ptr_equal(tern_netif_hdr_get(front), pkt->data);
    tern_pktbuf_release(pb, front);
    /* A NETIF snip of another size, at the head or behind: none. */
    pkt = tern_pktbuf_add(pb, NULL, NULL, sizeof(tern_netif_hdr_t) - 1u, TERN_NETTYPE_NETIF);
    assert_non_null(pkt);
    assert_null(tern_netif_hdr_get(pkt));
    front = tern_pktbuf_add(pb, pkt, "y", 1, TERN_NETTYPE_UNDEF);
    assert_non_null(front);
    assert_null(tern_netif_hdr_get(front));
    tern_pktbuf_release(pb, front);
    /* No packet, or no NETIF snip: none. */
    assert_null(tern_netif_hdr_get(NULL));
    pkt = tern_pktbuf_add(pb, NULL, "x", 1, TERN_NETTYPE_IPV6);
    assert_null(tern_netif_hdr_get(pkt));
    tern_pktbuf_release(pb, pkt);
}

static void test_tern_netif_send__no_interface_header(void **state)
{
    (void)state;
    tern_pkt_t *pkt = tern_pktbuf_add(&stack.pktbuf, NULL, "x", 1, TERN_NETTYPE_IPV6);
    assert_int_equal(tern_netif_send(&stack, pkt), -ENODEV);
    pkt = tern_pktbuf_add(&stack.pktbuf, NULL, "x", 1, TERN_NETTYPE_IPV6);
    /* Straight to the module, without a header: counted as invalid. */
    assert_int_equal(tern_netapi_send(&test_if.module, pkt), 0);
    harness_run_until_idle();
    assert_int_equal(test_if.counters[TERN_NETIF_TX_INVALID], 1);
    /* An unknown interface index. */
    assert_int_equal(tern_netif_send(&stack, make_outgoing(9, "H", "x")), -ENODEV);
}

static void test_tern_netdev_test_inject__received_frame_goes_up(void **state)
{
    (void)state;
    static const uint8_t frame[] = { 0x60, 1, 2, 3, 4, 5 };
    assert_int_equal(tern_netdev_test_inject(&test_dev, frame, sizeof(frame)), 0);
    harness_run_until_idle();
    assert_int_equal(upper.rcv, 1);
    assert_int_equal(upper.kept[0]->size, sizeof(frame));
    assert_memory_equal(upper.kept[0]->data, frame, sizeof(frame));
    assert_int_equal(tern_netif_hdr_get(upper.kept[0])->if_index, test_if.index);
    assert_int_equal(tern_netif_hdr_get(upper.kept[0])->lqi, 0xFF);
    assert_int_equal(test_dev.rx_len, 0);
    assert_int_equal(tern_netdev_test_inject(&test_dev, frame, 0), -EINVAL);
}

static void test_tern_netif_receive__pktbuf_full_drops_frame(void **state)
{
    (void)state;
    /* Fill the packet buffer. */
    tern_pkt_t *hog = NULL;
    for (;;) {
        tern_pkt_t *more = tern_pktbuf_add(&stack.pktbuf, hog, NULL, 64, TERN_NETTYPE_TEST);
        if (more == NULL) {
            break;
        }
        hog = more;
    }
    static const uint8_t frame[200] = { 0x60 };
    assert_int_equal(tern_netdev_test_inject(&test_dev, frame, sizeof(frame)), 0);
    harness_run_until_idle();
    assert_int_equal(test_if.counters[TERN_NETIF_RX_NOMEM], 1);
    assert_int_equal(upper.rcv, 0);
    assert_int_equal(test_dev.rx_len, 0); /* the device was emptied anyway */
    tern_pktbuf_release(&stack.pktbuf, hog);
}

static void test_tern_netif_receive__no_upper_layer_counted(void **state)
{
    (void)state;
    uint16_t proto = TERN_NETTYPE_UDP;
    assert_int_equal(tern_netapi_set(&test_if.module, TERN_NETOPT_PROTO, 0, &proto, 2), 2);
    static const uint8_t frame[] = { 1, 2, 3 };
    assert_int_equal(tern_netdev_test_inject(&test_dev, frame, sizeof(frame)), 0);
    harness_run_until_idle();
    assert_int_equal(stack.netapi_drops[TERN_NETAPI_DROP_NO_RECEIVER], 1);
    assert_int_equal(test_if.counters[TERN_NETIF_RX_PACKETS], 1);
}

static void test_tern_netif_get__options_through_netapi(void **state)
{
    (void)state;
    uint16_t u16 = 0;
    uint8_t addr[8];
    uint8_t state8 = 0;
    assert_int_equal(tern_netapi_get(&test_if.module, TERN_NETOPT_MAX_PDU_SIZE, 0, &u16, 2), 2);
    assert_int_equal(u16, 1280);
    assert_int_equal(tern_netapi_get(&test_if.module, TERN_NETOPT_ADDRESS, 0, addr, sizeof(addr)), 2);
    assert_int_equal(addr[0], 0xbe);
    assert_int_equal(tern_netapi_get(&test_if.module, TERN_NETOPT_ADDRESS, 0, addr, 1), -EOVERFLOW);
    assert_int_equal(tern_netapi_get(&test_if.module, TERN_NETOPT_STATE, 0, &state8, 1), 1);
    assert_int_equal(state8, 1);
    assert_int_equal(tern_netapi_get(&test_if.module, TERN_NETOPT_DEVICE_TYPE, 0, &u16, 2), 2);
    assert_int_equal(u16, TERN_NETDEV_TYPE_TEST);
    assert_int_equal(tern_netapi_get(&lo_if.module, TERN_NETOPT_DEVICE_TYPE, 0, &u16, 2), 2);
    assert_int_equal(u16, TERN_NETDEV_TYPE_LOOPBACK);
    assert_int_equal(tern_netapi_get(&test_if.module, TERN_NETOPT_CHANNEL, 0, &u16, 2), -ENOTSUP);
    tern_netif_stats_t st;
    assert_int_equal(tern_netapi_get(&test_if.module, TERN_NETOPT_STATS, 0, &st, sizeof(st)),
                     (int)sizeof(st));
    assert_int_equal(tern_netapi_get(&test_if.module, TERN_NETOPT_STATS, 0, &st, 4), -EOVERFLOW);
}

static void test_tern_netif_set__options_through_netapi(void **state)
{
    (void)state;
    const uint8_t addr[4] = { 1, 2, 3, 4 };
    assert_int_equal(tern_netapi_set(&test_if.module, TERN_NETOPT_ADDRESS, 0, addr, 4), 4);
    assert_int_equal(test_if.l2addr_len, 4);
    assert_int_equal(test_dev.addr_len, 4);
    uint16_t bad = TERN_NETTYPE_NUMOF;
    assert_int_equal(tern_netapi_set(&test_if.module, TERN_NETOPT_PROTO, 0, &bad, 2), -EINVAL);
    assert_int_equal(tern_netapi_set(&test_if.module, TERN_NETOPT_PROTO, 0, &bad, 1), -EINVAL);
    assert_int_equal(tern_netapi_set(&test_if.module, TERN_NETOPT_STATS, 0, &bad, 2), -ENOTSUP);
    assert_int_equal(tern_netapi_set(&lo_if.module, TERN_NETOPT_ADDRESS, 0, addr, 4), -ENOTSUP);
    assert_int_equal(lo_if.l2addr_len, 0);
}

static void test_tern_netif_send__loopback_ring_full_counted(void **state)
{
    (void)state;
    /* More frames than the loopback ring holds (two of ~1000 B), queued at once. */
    static char big[1000 + 1];
    memset(big, 'x', 1000);
    const uint32_t n = 4;
    uint32_t queued = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (tern_netif_send(&stack, make_outgoing(lo_if.index, "H", big)) == 0) {
            queued++;
        }
    }
    harness_run_until_idle();
    const tern_counter_t *c = lo_if.counters;
    /* Every packet is accounted for: refused by a queue, refused by the
     * device, or sent and received back. */
    assert_int_equal(queued + stack.netapi_drops[TERN_NETAPI_DROP_QUEUE_FULL], n);
    assert_int_equal(c[TERN_NETIF_TX_PACKETS] + c[TERN_NETIF_TX_ERRORS], queued);
    assert_int_equal(c[TERN_NETIF_RX_PACKETS] + c[TERN_NETIF_RX_NOMEM], c[TERN_NETIF_TX_PACKETS]);
    assert_int_equal(upper.rcv, c[TERN_NETIF_RX_PACKETS]);
#if !HARNESS_THREADED
    /* In the loop all four sends run before the interrupt is served. */
    assert_int_equal(c[TERN_NETIF_TX_PACKETS], 2);
    assert_int_equal(c[TERN_NETIF_TX_ERRORS], 2);
    assert_int_equal(lo_dev.dropped, 2);
#endif
}

/* ------------------------------------------------------------ a link that writes the header snip */

static tern_netdev_test_t stamp_dev;
static tern_netif_t stamp_if;
static const tern_pkt_t *stamp_head; /* the head the link got */

static int stamp_recv(tern_netif_t *netif, tern_pkt_t **pkt, tern_nettype_t *type, uint32_t *demux)
{
    (void)netif;
    (void)pkt;
    (void)type;
    (void)demux;
    return -EPROTONOSUPPORT;
}

/* As IEEE 802.15.4: the link header is written into the interface header's snip. */
static int stamp_send(tern_netif_t *netif, tern_pkt_t **pkt)
{
    tern_pkt_t *head = *pkt;
    stamp_head = head;
    assert_int_equal(head->users, 1); /* the interface made it private */
    assert_int_equal(tern_pktbuf_realloc_data(&netif->module.stack->pktbuf, head, 4), 0);
    memcpy(head->data, "LINK", 4);
    head->type = TERN_NETTYPE_RAW;
    return 0;
}

static const tern_netif_link_t stamp_link = { .name = "stamp", .recv = stamp_recv, .send = stamp_send };

static void add_stamp_if(void)
{
    tern_netdev_test_init(&stamp_dev);
    stamp_dev.send_cb = capture_send;
    assert_int_equal(tern_netif_add(&stack, &stamp_if, "stamp0", &stamp_dev.netdev, &stamp_link, TERN_NETTYPE_IPV6),
                     0);
    stamp_head = NULL;
}

/* A packet held once goes to the link as it is; one whose head another
 * holder shares too gets a private copy of the head, and the holder's
 * interface header is not written. */
static void test_tern_netif_send__shared_head_copied_private_head_as_is(void **state)
{
    (void)state;
    add_stamp_if();
    tern_pkt_t *pkt = make_outgoing(stamp_if.index, "H", "data");
    assert_int_equal(tern_netif_send(&stack, pkt), 0);
    harness_run_until_idle();
    assert_ptr_equal(stamp_head, pkt);
    assert_int_equal(captured_len, 9);
    assert_memory_equal(captured, "LINKHdata", 9);

    pkt = make_outgoing(stamp_if.index, "H", "more");
    assert_int_equal(tern_pktbuf_hold(&stack.pktbuf, pkt, 1), 0);
    assert_int_equal(tern_netif_send(&stack, pkt), 0);
    harness_run_until_idle();
    assert_ptr_not_equal(stamp_head, pkt);
    assert_int_equal(captured_len, 9);
    assert_memory_equal(captured, "LINKHmore", 9);
    assert_int_equal(pkt->users, 1);
    assert_int_equal(pkt->type, TERN_NETTYPE_NETIF);
    assert_int_equal(pkt->size, sizeof(tern_netif_hdr_t));
    assert_int_equal(((const tern_netif_hdr_t *)pkt->data)->if_index, stamp_if.index);
    tern_pktbuf_release(&stack.pktbuf, pkt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tern_netif_add__numbers_and_reads_device, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_hdr_get__head_later_or_wrong_size, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_add__invalid_arguments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_send__loopback_comes_back_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_send__scatter_list_to_driver, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_send__too_many_snips_are_flattened, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_send__device_error_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_send__down_interface_drops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_send__no_interface_header, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_hdr_fill__addresses_and_zeroes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netdev_test_inject__received_frame_goes_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_receive__pktbuf_full_drops_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_receive__no_upper_layer_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_get__options_through_netapi, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_set__options_through_netapi, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_send__loopback_ring_full_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netif_send__shared_head_copied_private_head_as_is, setup,
                                        teardown),
    };
    cmocka_set_message_output(CM_OUTPUT_STDOUT);
    return cmocka_run_group_tests_name(harness_executor_name(), tests, NULL, NULL);
}
