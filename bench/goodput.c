/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Goodput and packets per second (issue 6 item 2; seed 001 §5.1,
 *        Figure 4): UDP datagrams through the whole stack and back, in a
 *        loop, one at a time.
 *
 * Devices: "loopback", IPv6 over the loopback device (no 6LoWPAN; the
 * datagram goes from the socket down to the device's ring and back up to
 * the same socket, to a unique local address of the interface, since ::1
 * never arrives from a link); "reflector", the IEEE 802.15.4 link with
 * 6LoWPAN (IPHC, NHC, fragmentation) on a device that sends every frame
 * straight back with the addresses swapped (a layer-2 loopback: the
 * datagram is fragmented on the way down and reassembled on the way up).
 * For each payload size, @c --count datagrams are sent one after another,
 * each after the previous one has reached the socket's callback; goodput
 * is payload bits delivered per second of wall time, packets per second
 * datagrams delivered per second. CSV on stdout.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_node.h"

static bench_node_t node;
static unsigned got;
static size_t got_bytes;

static void on_datagram(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                        void *arg)
{
    static uint8_t app[1280];
    (void)sock;
    (void)remote;
    (void)arg;
    if (len <= sizeof(app)) {
        memcpy(app, data, len);
    }
    got_bytes += len;
    got++;
}

static int one_round_trip(const uint8_t *payload, size_t len)
{
    unsigned before = got;
    int res = tern_sock_udp_send(&node.sock, payload, len, &node.remote);
    if (res < 0) {
        return res;
    }
    res = 0;
    if (node.kind == BENCH_DEV_LOOPBACK) {
        res = tern_executor_run_until_idle(node.exec);
    } else {
        /* CSMA-CA backoffs are timers: let the virtual clock move. */
        for (unsigned i = 0; i < 200u && got == before && res == 0; i++) {
            res = bench_node_run_for(&node, 1000u);
        }
    }
    if (res < 0) {
        return res;
    }
    return got == before + 1u ? 0 : -EIO;
}

int main(int argc, char **argv)
{
    bench_exec_t exec = BENCH_EXEC_LOOP;
    bool bad = false;
    bench_dev_kind_t kind = BENCH_DEV_LOOPBACK;
    unsigned count = 1000, min = 8, max = 1232, step = 8;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (strcmp(a, "--executor") == 0) {
            bad = bad || bench_exec_parse(v, &exec) < 0;
        } else if (strcmp(a, "--device") == 0) {
            kind = strcmp(v, "reflector") == 0 ? BENCH_DEV_REFLECTOR : BENCH_DEV_LOOPBACK;
        } else if (strcmp(a, "--count") == 0) {
            count = (unsigned)strtoul(v, NULL, 10);
        } else if (strcmp(a, "--min") == 0) {
            min = (unsigned)strtoul(v, NULL, 10);
        } else if (strcmp(a, "--max") == 0) {
            max = (unsigned)strtoul(v, NULL, 10);
        } else if (strcmp(a, "--step") == 0) {
            step = (unsigned)strtoul(v, NULL, 10);
        } else {
            break;
        }
    }
    if (bad || (argc - 1) % 2 != 0 || count == 0 || step == 0 || min < 1 || max > 1232 || min > max) {
        fprintf(stderr, "usage: goodput [--device loopback|reflector] [--executor loop|loop-posix|threaded]\n"
                        "               [--count N] [--min B] [--max B] [--step B]\n");
        return 2;
    }
    int res = bench_node_setup(&node, kind, exec, false, on_datagram, NULL);
    if (res < 0) {
        fprintf(stderr, "goodput: set-up failed: %s\n", strerror(-res));
        return 1;
    }
    const char *dev = kind == BENCH_DEV_LOOPBACK ? "loopback" : "reflector";
    const char *ex = bench_exec_name(exec);
    static uint8_t payload[1232];
    printf("device,executor,payload,datagrams,seconds,goodput_mbit_s,packets_s\n");
    for (unsigned size = min; size <= max && res == 0; size += step) {
        memset(payload, (int)(size & 0xffu), size);
        got = 0;
        got_bytes = 0;
        uint64_t t0 = bench_now_ns();
        for (unsigned r = 0; r < count && res == 0; r++) {
            res = one_round_trip(payload, size);
        }
        uint64_t t = bench_now_ns() - t0;
        if (res < 0) {
            fprintf(stderr, "goodput: %s, %s, %u bytes: %s\n", dev, ex, size, strerror(-res));
            break;
        }
        double s = (double)t / 1e9;
        printf("%s,%s,%u,%u,%.6f,%.3f,%.0f\n", dev, ex, size, got, s, (double)got_bytes * 8.0 / s / 1e6,
               (double)got / s);
        fflush(stdout);
    }
    if (node.kind == BENCH_DEV_REFLECTOR) {
        fprintf(stderr, "goodput: reflector, %s: %" PRIu32 " frames lost (ring full), %" PRIu32
                        " broadcast frames not turned round\n", ex, node.refl_dropped, node.refl_ignored);
    }
    int td = bench_node_teardown(&node);
    if (td < 0) {
        fprintf(stderr, "goodput: the packet buffer is not empty at the end\n");
    }
    return (res < 0 || td < 0) ? 1 : 0;
}
