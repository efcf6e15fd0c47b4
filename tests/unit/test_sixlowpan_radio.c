/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief 6LoWPAN over the IEEE 802.15.4 link: two nodes with the whole stack
 *        (IPv6, UDP, sock_udp, 6LoWPAN, the 802.15.4 MAC) on the simulated
 *        radio medium, under virtual time.
 *
 * What test_sixlowpan.c proves over a test link, here end to end through
 * the MAC (frames of at most 127 bytes, link ACKs, CSMA-CA) and the set-up
 * order of a real node (contract item 7): UDP round trips of sizes around
 * every frame boundary and up to 1232 bytes, byte-exact, and the same with
 * frame loss on the air (the MAC retries; what arrives is exact).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/ipv6/ipv6.h"
#include "tern/link/ieee802154.h"
#include "tern/netapi.h"
#include "tern/netdev/radio_medium.h"
#include "tern/netdev/sim_radio.h"
#include "tern/port/loop.h"
#include "tern/sixlowpan/sixlowpan.h"
#include "tern/sock_udp.h"
#include "tern/udp.h"

#define MS 1000u
#define SEC 1000000u
#define PAN 0xabcdu
#define PORT0 1000u
#define PORT1 2000u

typedef struct {
    tern_stack_t stack;
    tern_ipv6_t ip;
    tern_udp_t udp;
    tern_sixlowpan_t lowpan;
    tern_sim_radio_t radio;
    tern_ieee802154_link_t mac;
    tern_netif_t netif;
    tern_sock_udp_t sock;
    uint8_t eui[8];
} node_t;

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_radio_medium_t medium;
static node_t nodes[2];

static uint8_t got[1500];
static size_t got_len;
static unsigned got_count;

static void run_for(uint64_t us)
{
    assert_int_equal(tern_executor_run_until(&loop.base, clock_v.now + us), 0);
}

static void fill_pattern(uint8_t *buf, size_t len, unsigned seed)
{
    for (size_t i = 0; i < len; i++) {
        buf[i] = (uint8_t)(i * 13u + seed * 5u + (i >> 7));
    }
}

static void sock0_cb(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                     void *arg)
{
    (void)sock;
    (void)remote;
    (void)arg;
    assert_true(len <= sizeof(got));
    memcpy(got, data, len);
    got_len = len;
    got_count++;
}

/* Node 1 echoes every datagram back. */
static void sock1_cb(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                     void *arg)
{
    (void)arg;
    assert_int_equal(tern_sock_udp_send(sock, data, len, remote), (int)len);
}

/* True while a datagram is in a fragmentation slot. */
static bool sixlowpan_slots_busy(const tern_sixlowpan_t *lowpan)
{
    for (size_t i = 0; i < TERN_CONF_SIXLOWPAN_FRAG_SLOTS; i++) {
        if (lowpan->frags[i].pkt != NULL) {
            return true;
        }
    }
    return false;
}

static tern_ipv6_addr_t link_local(const node_t *n)
{
    tern_ipv6_addr_t a = { { 0xfe, 0x80 } };
    assert_int_equal(tern_ipv6_iid_from_l2addr(&a, n->eui, 8), 0);
    return a;
}

static void node_setup(unsigned i)
{
    node_t *n = &nodes[i];
    memset(n, 0, sizeof(*n));
    static const uint8_t base[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x00 };
    memcpy(n->eui, base, 8);
    n->eui[7] = (uint8_t)(i + 1u);
    /* The order of contract item 7. */
    assert_int_equal(tern_stack_init(&n->stack, i == 0 ? "n0" : "n1", &loop.base), 0);
    assert_int_equal(tern_ipv6_init(&n->ip, &n->stack), 0);
    assert_int_equal(tern_udp_init(&n->udp, &n->stack, &n->ip), 0);
    assert_int_equal(tern_sixlowpan_init(&n->lowpan, &n->stack), 0);
    assert_int_equal(tern_sim_radio_init(&n->radio, &medium, n->eui), (int)i);
    uint16_t pan = PAN;
    assert_int_equal(n->radio.netdev.driver->set(&n->radio.netdev, TERN_NETOPT_NID, &pan, 2), 2);
    assert_int_equal(tern_ieee802154_netif_add(&n->stack, &n->netif, &n->mac, "wpan0", &n->radio.netdev), 0);
    assert_int_equal(tern_sixlowpan_netif_attach(&n->lowpan, &n->netif), 0);
    assert_int_equal(tern_ipv6_netif_enable(&n->ip, &n->netif), 0);
    tern_sock_udp_ep_t local = { .port = (i == 0) ? PORT0 : PORT1 };
    assert_int_equal(tern_sock_udp_create(&n->sock, &n->stack, NULL, &n->udp, &local, NULL, 0), 0);
    assert_int_equal(tern_sock_udp_set_cb(&n->sock, (i == 0) ? sock0_cb : sock1_cb, NULL), 0);
}

static int setup(void **state)
{
    (void)state;
    tern_vclock_init(&clock_v, SEC);
    tern_loop_init(&loop, &clock_v.base);
    assert_int_equal(tern_radio_medium_init(&medium, &loop.base, 42), 0);
    node_setup(0);
    node_setup(1);
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE, -60), 0);
    got_count = 0;
    run_for(20 * SEC); /* DAD, router solicitations, MLD reports */
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 2; i++) {
        tern_sock_udp_close(&nodes[i].sock);
    }
    run_for((uint64_t)TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS * MS + 5 * SEC);
    tern_executor_stop(&loop.base);
    for (unsigned i = 0; i < 2; i++) {
        assert_int_equal(tern_sixlowpan_reass_count(&nodes[i].lowpan.reass), 0);
        for (size_t k = 0; k < TERN_CONF_NC_SIZE; k++) {
            tern_nc_entry_t *e = &nodes[i].ip.ifs[0].nc.entries[k];
            for (size_t q = 0; q < e->queued; q++) {
                tern_pktbuf_release(&nodes[i].stack.pktbuf, e->queue[q]);
            }
            e->queued = 0;
        }
        harness_assert_pktbuf_clean(&nodes[i].stack.pktbuf);
    }
    return 0;
}

/** Node 0 sends @p len bytes to node 1, which echoes them; wait up to @p wait_us. */
static bool round_trip(size_t len, unsigned seed, uint64_t wait_us)
{
    static uint8_t data[1232];
    fill_pattern(data, len, seed);
    got_count = 0;
    tern_sock_udp_ep_t remote = { .addr = link_local(&nodes[1]), .netif = nodes[0].netif.index, .port = PORT1 };
    assert_int_equal(tern_sock_udp_send(&nodes[0].sock, data, len, &remote), (int)len);
    for (uint64_t waited = 0; waited < wait_us && got_count == 0; waited += 10 * MS) {
        run_for(10 * MS);
    }
    if (got_count == 0) {
        return false;
    }
    assert_int_equal(got_count, 1);
    assert_int_equal(got_len, len);
    assert_memory_equal(got, data, len);
    return true;
}

/* Sizes around every frame boundary (one frame; FRAG1 + FRAGN; each further
 * FRAGN) and the largest, over a perfect link: every one comes back exact. */
static void test_udp_round_trip__over_802154(void **state)
{
    (void)state;
    for (size_t len = 0; len <= 1232u; len += (len < 120u || len > 1200u) ? 1u : 11u) {
        if (!round_trip(len, (unsigned)len, 2 * SEC)) {
            fail_msg("no echo for %zu bytes", len);
        }
    }
    assert_true(nodes[0].lowpan.counters[TERN_SIXLOWPAN_TX_FRAGMENTED] > 100u);
    assert_int_equal(nodes[1].lowpan.reass.counters[TERN_SIXLOWPAN_REASS_COMPLETE],
                     nodes[0].lowpan.counters[TERN_SIXLOWPAN_TX_FRAGMENTED]);
}

/* 20 % of the frames lost on the air (each way): the MAC's retries recover
 * most, and whatever comes back is byte-exact (round_trip() compares). */
static void test_udp_round_trip__lossy_air(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, TERN_RADIO_PRR_ONE / 10u * 8u, -80), 0);
    unsigned back = 0;
    for (unsigned k = 0; k < 60; k++) {
        back += round_trip(50u + k * 19u, k, 3 * SEC) ? 1u : 0u;
    }
    print_message("lossy air: %u of 60 round trips, %u + %u MAC retransmissions\n", back,
                  (unsigned)nodes[0].netif.counters[TERN_NETIF_TX_RETRIES],
                  (unsigned)nodes[1].netif.counters[TERN_NETIF_TX_RETRIES]);
    assert_true(back > 30u);
    /* The loss was real: the MACs retransmitted. */
    assert_true(nodes[0].netif.counters[TERN_NETIF_TX_RETRIES] + nodes[1].netif.counters[TERN_NETIF_TX_RETRIES] > 20u);
}

/* A burst of datagrams of ten fragments each, one more than there are
 * fragmentation slots: each next fragment goes once the MAC has reported the
 * last one, so the interface's queue (TERN_CONF_NETIF_TX_QUEUE, 16) never
 * overflows (before this pacing, two datagrams' 20 fragments at once filled
 * it), the datagram beyond the slots waits for one, and every datagram and
 * its echo arrives. */
static void test_burst__paced_by_the_mac(void **state)
{
    (void)state;
    static uint8_t data[900];
    const unsigned burst = TERN_CONF_SIXLOWPAN_FRAG_SLOTS + 1u;
    tern_sock_udp_ep_t remote = { .addr = link_local(&nodes[1]), .netif = nodes[0].netif.index, .port = PORT1 };
    got_count = 0;
    for (unsigned k = 0; k < burst; k++) {
        fill_pattern(data, sizeof(data), k);
        assert_int_equal(tern_sock_udp_send(&nodes[0].sock, data, sizeof(data), &remote), (int)sizeof(data));
    }
    run_for(5 * SEC);
    assert_int_equal(got_count, burst);
    for (unsigned i = 0; i < 2; i++) {
        assert_int_equal(nodes[i].netif.counters[TERN_NETIF_TX_QUEUE_FULL], 0);
        assert_int_equal(nodes[i].lowpan.counters[TERN_SIXLOWPAN_TX_BUSY], 0);
        assert_int_equal(nodes[i].lowpan.counters[TERN_SIXLOWPAN_TX_FRAG_ABORTED], 0);
    }
    assert_int_equal(nodes[0].lowpan.counters[TERN_SIXLOWPAN_TX_WAITED], 1);
}

/* No acknowledgment ever (PRR 0): every fragment is tried (it may have
 * arrived with only its ACKs lost), each after the last one's outcome, and
 * each reported as not acknowledged after the MAC's retries. */
static void test_send__unacknowledged_fragments_go_on(void **state)
{
    (void)state;
    assert_int_equal(tern_radio_medium_link_set_both(&medium, 0, 1, 0, -80), 0);
    static uint8_t data[1000];
    fill_pattern(data, sizeof(data), 3);
    tern_sock_udp_ep_t remote = { .addr = link_local(&nodes[1]), .netif = nodes[0].netif.index, .port = PORT1 };
    uint32_t noack_before = nodes[0].netif.counters[TERN_NETIF_TX_NOACK];
    assert_int_equal(tern_sock_udp_send(&nodes[0].sock, data, sizeof(data), &remote), (int)sizeof(data));
    run_for(5 * SEC);
    /* 1008 bytes of UDP datagram: a FRAG1 and FRAGNs of 96 bytes (ext -> ext, 104-byte payloads). */
    uint32_t frames = nodes[0].netif.counters[TERN_NETIF_TX_NOACK] - noack_before;
    assert_true(frames >= 10u);
    assert_int_equal(nodes[0].netif.counters[TERN_NETIF_TX_QUEUE_FULL], 0);
    assert_int_equal(nodes[0].lowpan.counters[TERN_SIXLOWPAN_TX_FRAG_ABORTED], 0);
    assert_false(sixlowpan_slots_busy(&nodes[0].lowpan));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_udp_round_trip__over_802154, setup, teardown),
        cmocka_unit_test_setup_teardown(test_udp_round_trip__lossy_air, setup, teardown),
        cmocka_unit_test_setup_teardown(test_burst__paced_by_the_mac, setup, teardown),
        cmocka_unit_test_setup_teardown(test_send__unacknowledged_fragments_go_on, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
