/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Benchmarks: one node (IPv6, UDP, sock_udp, 6LoWPAN over the IEEE
 *        802.15.4 link on a test device that answers like a radio, or IPv6
 *        over the loopback device) under either executor, on a virtual clock.
 *
 * The clock is virtual so that the MAC's CSMA-CA backoff (a timer of the
 * interface before every frame, IEEE 802.15.4-2006 §7.5.1.4) costs the
 * processing of its timer and no waiting: what the benchmarks time is the
 * stack's work, measured with CLOCK_MONOTONIC. Benchmark code, not stack
 * code: globals are fine, one node per program.
 */
#ifndef BENCH_NODE_H
#define BENCH_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/clock.h"
#include "tern/ipv6/ipv6.h"
#include "tern/link/ieee802154.h"
#include "tern/netdev/ieee802154_pib.h"
#include "tern/netdev/loopback.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/port/posix.h"
#include "tern/rpl/rpl.h"
#include "tern/sixlowpan/sixlowpan.h"
#include "tern/sock_udp.h"
#include "tern/udp.h"

/** UDP port of the benchmark socket, source and destination: 0xF0Bx ports
 *  compress to 4 bits each (RFC 6282 §4.3.3), as small as a header gets. */
#define BENCH_PORT 0xF0B1u
/** Longest MAC frame without FCS (aMaxPHYPacketSize 127 less the 2-byte FCS). */
#define BENCH_FRAME_MAX 125u
/** The global /64 of the RPL set-up (documentation prefix, RFC 3849), as a string. */
#define BENCH_RPL_PREFIX "2001:db8::"
/** RPLInstanceID of the DODAG the node roots in the RPL set-up (a global instance, RFC 6550 §5.1). */
#define BENCH_RPL_INSTANCE 1u
/** Most frames one datagram of 1232 bytes payload needs (13), with room. */
#define BENCH_FRAMES_MAX 24u

/** What the node's device is. */
typedef enum {
    BENCH_DEV_RADIO,     /**< test device as an 802.15.4 radio; frames go to bench_node_t::on_frame */
    BENCH_DEV_REFLECTOR, /**< test device as an 802.15.4 radio that sends every frame straight back */
    BENCH_DEV_LOOPBACK,  /**< the loopback device, raw link: IPv6 without 6LoWPAN */
} bench_dev_kind_t;

/** The executor the node runs on. */
typedef enum {
    BENCH_EXEC_LOOP,       /**< the event loop, no platform: single-threaded (the issue's configuration) */
    BENCH_EXEC_LOOP_POSIX, /**< the event loop bound to the POSIX platform, as tern-node runs it:
                                posts take the queue lock and wake the loop */
    BENCH_EXEC_THREADED,   /**< a thread per module */
} bench_exec_t;

/** The executor named @p name ("loop", "loop-posix", "threaded"). @return 0; -EINVAL for another name. */
int bench_exec_parse(const char *name, bench_exec_t *out);

/** The name of @p exec, as bench_exec_parse() takes it. */
const char *bench_exec_name(bench_exec_t exec);

typedef struct bench_node bench_node_t;

/** The node. */
struct bench_node {
    tern_vclock_t vclock;
    tern_loop_t loop;
    tern_posix_loop_sync_t loop_sync; /**< BENCH_EXEC_LOOP_POSIX */
    tern_threaded_t threaded;
    tern_executor_t *exec;
    bench_exec_t exec_kind;
    tern_stack_t stack;
    tern_ipv6_t ip;
    tern_udp_t udp;
    tern_sixlowpan_t lowpan;
    tern_rpl_t rpl;
    bool with_rpl; /**< the node is the RPL root of a DODAG with a global prefix (bench_node_setup()) */
    tern_netdev_test_t radio;
    tern_ieee802154_pib_t pib;
    tern_ieee802154_link_t mac;
    tern_netdev_loopback_t lo;
    tern_netif_t netif;
    tern_sock_udp_t sock;
    bench_dev_kind_t kind;
    /** RADIO: called for every frame handed to the device (on the interface's turn). */
    void (*on_frame)(bench_node_t *node, const tern_iolist_t *iol, size_t count);
    /** REFLECTOR: frames sent, waiting to be received back (ring). */
    uint8_t refl[BENCH_FRAMES_MAX * 2][BENCH_FRAME_MAX];
    size_t refl_len[BENCH_FRAMES_MAX * 2];
    unsigned refl_head, refl_count;
    uint32_t refl_dropped; /**< REFLECTOR: frames lost, ring full */
    uint32_t refl_ignored; /**< REFLECTOR: frames not turned round: not unicast between extended addresses */
    uint8_t rx_seq; /**< sequence number of the next frame received (duplicate rejection) */
    tern_sock_udp_ep_t remote; /**< where the benchmark sends */
};

/** EUI-64 of the node and of its (imagined) peer. */
extern const uint8_t BENCH_NODE_EUI[8];
extern const uint8_t BENCH_PEER_EUI[8];

/**
 * Set up @p node with @p kind under executor @p exec, socket on BENCH_PORT
 * with @p cb, and let it settle (2 s of virtual time).
 *
 * Without @p rpl the node sends to the peer's link-local address. With
 * @p rpl (BENCH_DEV_RADIO only; the thesis's set-up, 5.3.2) it runs the RPL
 * module as root of a grounded DODAG (BENCH_RPL_INSTANCE) named by its
 * global address BENCH_RPL_PREFIX::IID, and sends to the peer's global
 * address BENCH_RPL_PREFIX::IID(peer) over a /128 route via the peer's
 * link-local address, the route a DAO from the peer would install
 * (RFC 6550 §9.8, storing mode).
 * @return 0 or a negative errno; -EINVAL for @p rpl with another device.
 */
int bench_node_setup(bench_node_t *node, bench_dev_kind_t kind, bench_exec_t exec, bool rpl, tern_sock_udp_cb_t cb,
                     void *arg);

/** Let the node finish what it has, stop the executor and check the packet buffer. @return 0; -EIO if it leaked. */
int bench_node_teardown(bench_node_t *node);

/** Run @p us of virtual time. */
int bench_node_run_for(bench_node_t *node, uint64_t us);

/**
 * Swap source and destination of the 802.15.4 frame @p frame (@p len
 * bytes, both addresses extended) into @p out, sequence number @p seq.
 * @return the length (== @p len); negative errno if it is not such a frame.
 */
int bench_frame_swap(const uint8_t *frame, size_t len, uint8_t seq, uint8_t *out, size_t cap);

/** CLOCK_MONOTONIC in nanoseconds. */
uint64_t bench_now_ns(void);

/** Median of @p n values (sorts @p v). */
uint64_t bench_median(uint64_t *v, size_t n);

/** Percentile @p p (0..100) of @p n sorted values. */
uint64_t bench_percentile_sorted(const uint64_t *v, size_t n, unsigned p);

#endif /* BENCH_NODE_H */
