/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Stack traversal time (issue 6 item 1; thesis 5.3.2, Listings 5.1
 *        and 5.2, Figure 5.2): UDP over 6LoWPAN (IPHC + NHC + fragmentation)
 *        over the IEEE 802.15.4 link, through one node's stack.
 *
 * SEND: the clock starts before tern_sock_udp_send() (which copies the
 * payload into the packet buffer) and stops when the device is handed the
 * LAST frame of the datagram (the device counts frames, computes no FCS and
 * reports TX_COMPLETE at once, as a radio with hardware CRC, CSMA and ACK
 * handling would). RECEIVE: the frames the send run produced, with source
 * and destination swapped (so the peer sends to us; the link-local
 * addresses stay fully elided, derived from the EUI-64s) and a fresh
 * sequence number each, are offered to the device one by one; the
 * interface copies each from the device (its recv()) on its turn, the next
 * follows when the stack is idle; the clock starts before the first frame
 * is offered and stops in the socket's callback once the payload has been
 * copied into the application's buffer. Per payload size (8..1232 step 8 by
 * default) and executor: the median, 10th and 90th percentile in ns, and
 * the frames per datagram, as CSV on stdout.
 *
 * --rpl: the thesis's set-up (5.3.2): the node is the RPL root of a DODAG
 * with a global prefix (bench_node_setup()) and the datagrams go to and
 * come from the peer's global address in that prefix (6LoWPAN context 0,
 * the prefix the root advertises); the CSV's rpl column says 1.
 *
 * --callgrind: the event loop only, instrumentation collected only inside
 * the measured parts (CALLGRIND_TOGGLE_COLLECT; run under
 * valgrind --tool=callgrind --collect-atstart=no), one dump per size and
 * direction ("send 8", "recv 8", ...; "send+rpl 8", ... with --rpl): instructions per datagram are a dump's
 * total divided by --runs. bench/run does the parsing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/callgrind.h>

#include "bench_node.h"

static bench_node_t node;

static struct {
    bool callgrind;
    /* send side */
    bool capture; /* keep the frames (the last run of each size) */
    bool warmup;  /* the untimed first send of a size: counts its frames, callgrind stays off */
    unsigned expect; /* frames of a datagram of this size (the warm-up's count); 0: not known yet */
    bool done;
    uint64_t stop_ns;
    unsigned frames;
    uint8_t frame[BENCH_FRAMES_MAX][BENCH_FRAME_MAX];
    size_t frame_len[BENCH_FRAMES_MAX];
    /* receive side */
    bool got;
    size_t got_len;
    uint8_t app[1280];
} xp;

/* Byte @p off of the frame given as @p iol, or -1 past its end. */
static int frame_byte(const tern_iolist_t *iol, size_t count, size_t off)
{
    for (size_t i = 0; i < count; i++) {
        if (off < iol[i].len) {
            return ((const uint8_t *)iol[i].base)[off];
        }
        off -= iol[i].len;
    }
    return -1;
}

/* Every frame handed to the device (on the interface's turn). Kept cheap:
 * its cost is inside the measured time for every frame but the last; under
 * callgrind it is excluded altogether (collection off on entry, back on at
 * the exit unless the datagram is complete). The benchmark's frames are
 * unicast data frames to the peer's extended address with PAN ID
 * compression: a 21-byte MAC header (IEEE 802.15.4-2006 §7.2.1), the
 * addresses in little-endian order on the wire. */
static void on_frame(bench_node_t *n, const tern_iolist_t *iol, size_t count)
{
    (void)n;
    bool cg = xp.callgrind && !xp.warmup;
    if (cg) {
        CALLGRIND_TOGGLE_COLLECT;
    }
    enum { MHR = 21, DST = 5 };
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iol[i].len;
    }
    bool ours = len > MHR && (frame_byte(iol, count, 1) & 0x0c) == 0x0c && xp.frames < BENCH_FRAMES_MAX;
    for (size_t i = 0; ours && i < 8; i++) {
        ours = frame_byte(iol, count, DST + i) == BENCH_PEER_EUI[7 - i];
    }
    if (!ours) {
        if (cg) {
            CALLGRIND_TOGGLE_COLLECT;
        }
        return; /* router solicitations and MLD reports go to the broadcast address */
    }
    int d0 = frame_byte(iol, count, MHR);
    bool last = true;
    if ((d0 & 0xf8) == 0xc0) {
        last = false; /* FRAG1 (RFC 4944 §5.3) is never the last */
    } else if ((d0 & 0xf8) == 0xe0 && len >= MHR + 5u) {
        unsigned size = ((unsigned)(d0 & 7) << 8) | (unsigned)frame_byte(iol, count, MHR + 1);
        unsigned offset = (unsigned)frame_byte(iol, count, MHR + 4) * 8u;
        last = offset + (len - MHR - 5u) >= size;
    }
    /* A packet above the IPv6 MTU (1280 on 6LoWPAN, RFC 4944 §4) is two
     * IPv6 fragments, each a 6LoWPAN datagram of its own (as with RPL's
     * 8-byte Hop-by-Hop option at 1232 bytes of payload): the datagram ends
     * with the warm-up's frame count, not with the first fragment's end. */
    if (xp.expect != 0) {
        last = xp.frames + 1u == xp.expect;
    }
    if (last) {
        xp.stop_ns = bench_now_ns();
        xp.done = true;
    }
    if (xp.capture) {
        size_t at = 0;
        for (size_t i = 0; i < count; i++) {
            memcpy(&xp.frame[xp.frames][at], iol[i].base, iol[i].len);
            at += iol[i].len;
        }
        xp.frame_len[xp.frames] = len;
    }
    xp.frames++;
    if (cg && !last) {
        CALLGRIND_TOGGLE_COLLECT;
    }
}

static void on_datagram(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                        void *arg)
{
    (void)sock;
    (void)remote;
    (void)arg;
    if (len <= sizeof(xp.app)) {
        memcpy(xp.app, data, len);
    }
    xp.stop_ns = bench_now_ns();
    if (xp.callgrind) {
        CALLGRIND_TOGGLE_COLLECT;
    }
    xp.got_len = len;
    xp.got = true;
}

static int send_one(const uint8_t *payload, size_t len, uint64_t *ns)
{
    xp.done = false;
    xp.frames = 0;
    if (xp.callgrind && !xp.warmup) {
        CALLGRIND_TOGGLE_COLLECT;
    }
    uint64_t t0 = bench_now_ns();
    int res = tern_sock_udp_send(&node.sock, payload, len, &node.remote);
    if (res < 0) {
        return res;
    }
    /* Whole CSMA-CA backoffs at most (7 periods of 320 us) between frames. */
    for (unsigned i = 0; i < 200u && !xp.done; i++) {
        if ((res = bench_node_run_for(&node, 1000u)) < 0) {
            return res;
        }
    }
    if (!xp.done) {
        return -ETIMEDOUT;
    }
    *ns = xp.stop_ns - t0;
    return tern_executor_run_until_idle(node.exec);
}

static int recv_one(uint8_t frames[][BENCH_FRAME_MAX], const size_t *frame_len, unsigned n, size_t want,
                    uint64_t *ns)
{
    xp.got = false;
    if (xp.callgrind) {
        CALLGRIND_TOGGLE_COLLECT;
    }
    uint64_t t0 = bench_now_ns();
    for (unsigned i = 0; i < n; i++) {
        frames[i][2] = node.rx_seq++; /* a new frame, not a retransmission (IEEE 802.15.4-2006 §7.5.6.2) */
        int res = tern_netdev_test_inject(&node.radio, frames[i], frame_len[i]);
        if (res < 0) {
            return res;
        }
        if ((res = tern_executor_run_until_idle(node.exec)) < 0) {
            return res;
        }
    }
    if (!xp.got || xp.got_len != want) {
        return -EIO;
    }
    *ns = xp.stop_ns - t0;
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: traversal [--executor loop|loop-posix|threaded] [--rpl] [--runs N] [--min B]\n"
                    "                 [--max B] [--step B] [--callgrind]\n");
}

int main(int argc, char **argv)
{
    bench_exec_t exec = BENCH_EXEC_LOOP;
    bool rpl = false;
    unsigned runs = 200, min = 8, max = 1232, step = 8;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (strcmp(a, "--callgrind") == 0) {
            xp.callgrind = true;
        } else if (strcmp(a, "--rpl") == 0) {
            rpl = true;
        } else if (v != NULL && strcmp(a, "--executor") == 0) {
            if (bench_exec_parse(v, &exec) < 0) {
                usage();
                return 2;
            }
            i++;
        } else if (v != NULL && strcmp(a, "--runs") == 0) {
            runs = (unsigned)strtoul(v, NULL, 10);
            i++;
        } else if (v != NULL && strcmp(a, "--min") == 0) {
            min = (unsigned)strtoul(v, NULL, 10);
            i++;
        } else if (v != NULL && strcmp(a, "--max") == 0) {
            max = (unsigned)strtoul(v, NULL, 10);
            i++;
        } else if (v != NULL && strcmp(a, "--step") == 0) {
            step = (unsigned)strtoul(v, NULL, 10);
            i++;
        } else {
            usage();
            return 2;
        }
    }
    if (runs == 0 || step == 0 || min < 1 || max > 1232 || min > max || (xp.callgrind && exec == BENCH_EXEC_THREADED)) {
        usage();
        return 2;
    }
    int res = bench_node_setup(&node, BENCH_DEV_RADIO, exec, rpl, on_datagram, NULL);
    if (res < 0) {
        fprintf(stderr, "traversal: set-up failed: %s\n", strerror(-res));
        return 1;
    }
    node.on_frame = on_frame;
    const char *ex = bench_exec_name(exec);
    /* Dump names: "send 8", "send+rpl 8", "send+posix 8" (loop-posix), ... */
    const char *dir_tag = (exec == BENCH_EXEC_LOOP_POSIX) ? (rpl ? "+posix+rpl" : "+posix") : (rpl ? "+rpl" : "");
    uint64_t *send_ns = calloc(runs, sizeof(uint64_t));
    uint64_t *recv_ns = calloc(runs, sizeof(uint64_t));
    static uint8_t payload[1232];
    static uint8_t rx_frames[BENCH_FRAMES_MAX][BENCH_FRAME_MAX];
    static size_t rx_len[BENCH_FRAMES_MAX];
    if (send_ns == NULL || recv_ns == NULL) {
        return 1;
    }
    printf("executor,payload,frames,send_median_ns,send_p10_ns,send_p90_ns,recv_median_ns,recv_p10_ns,recv_p90_ns,"
           "total_median_ns,rpl\n");
    for (unsigned size = min; size <= max && res == 0; size += step) {
        unsigned frames = 0;
        uint64_t warm_ns = 0;
        memset(payload, 0xa5, size);
        xp.warmup = true;
        xp.expect = 0;
        res = send_one(payload, size, &warm_ns);
        xp.warmup = false;
        xp.expect = xp.frames;
        for (unsigned r = 0; r < runs && res == 0; r++) {
            memset(payload, (int)(r & 0xffu), size);
            xp.capture = r + 1u == runs;
            res = send_one(payload, size, &send_ns[r]);
            frames = xp.frames;
        }
        if (xp.callgrind) {
            char name[32];
            snprintf(name, sizeof(name), "send%s %u", dir_tag, size);
            CALLGRIND_DUMP_STATS_AT(name);
        }
        /* The last datagram's frames, turned round. */
        for (unsigned f = 0; f < frames && res == 0; f++) {
            int n = bench_frame_swap(xp.frame[f], xp.frame_len[f], 0, rx_frames[f], BENCH_FRAME_MAX);
            res = n < 0 ? n : 0;
            rx_len[f] = (size_t)n;
        }
        for (unsigned r = 0; r < runs && res == 0; r++) {
            res = recv_one(rx_frames, rx_len, frames, size, &recv_ns[r]);
        }
        if (xp.callgrind) {
            char name[32];
            snprintf(name, sizeof(name), "recv%s %u", dir_tag, size);
            CALLGRIND_DUMP_STATS_AT(name);
        }
        if (res < 0) {
            fprintf(stderr, "traversal: %s%s, %u bytes: %s\n", ex, dir_tag, size, strerror(-res));
            break;
        }
        uint64_t sm = bench_median(send_ns, runs), rm = bench_median(recv_ns, runs);
        printf("%s,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d\n", ex,
               size, frames, sm, bench_percentile_sorted(send_ns, runs, 10), bench_percentile_sorted(send_ns, runs, 90),
               rm, bench_percentile_sorted(recv_ns, runs, 10), bench_percentile_sorted(recv_ns, runs, 90), sm + rm,
               rpl ? 1 : 0);
        fflush(stdout);
    }
    tern_pktbuf_stats_t st = node.stack.pktbuf.stats;
    fprintf(stderr, "traversal: %s%s: pktbuf high water %zu of %zu bytes, %" PRIu32 " allocation failures\n", ex,
            rpl ? "+rpl" : "", st.high_water, st.size, st.alloc_fail);
    free(send_ns);
    free(recv_ns);
    int td = bench_node_teardown(&node);
    if (td < 0) {
        fprintf(stderr, "traversal: the packet buffer is not empty at the end\n");
    }
    return (res < 0 || td < 0) ? 1 : 0;
}
