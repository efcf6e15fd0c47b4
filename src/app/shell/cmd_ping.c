/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The `ping` shell command over the ping client (ping.h).
 *
 * Output as iputils' ping prints it (without its name resolution and
 * timing extras):
 *
 *     PING ADDR: SIZE data bytes
 *     SIZE+8 bytes from ADDR: icmp_seq=N ttl=HOP time=1.234 ms
 *     --- ADDR ping statistics ---
 *     N packets transmitted, M received, P% packet loss
 *     rtt min/avg/max = 1.234/2.345/3.456 ms
 *
 * A reply whose data is not the request's is followed by iputils' line
 * "wrong data byte #I should be 0xXX but was 0xYY" (or "wrong data length
 * N, sent M") and counted as "+K corrupted" in the statistics.
 *
 * Options beyond iputils' -c -s -i -W -A: a size sweep as BSD ping's (-g MIN
 * -G MAX -h STEP: -c requests of each size MIN, MIN+STEP, ... up to MAX;
 * header "PING ADDR: (MIN ... MAX) data bytes"), so that one command covers
 * every size of a range.
 */
#include <errno.h>
#include <string.h>

#include "tern/fmt.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netif.h"
#include "tern/shell_ping.h"
#include "tern/wire/icmpv6.h"

/** Defaults, as iputils' (except -W: how long to wait after the last request, and
 *  -c, which iputils leaves unlimited; in a sweep, -c is per size and defaults to 1). */
#define DEFAULT_COUNT 3u
#define DEFAULT_SWEEP_COUNT 1u
#define DEFAULT_SIZE 56u
#define DEFAULT_INTERVAL_MS 1000u
#define DEFAULT_WAIT_MS 1000u

/* @p us microseconds as milliseconds with three decimals ("1.234"). */
static int ms_text(char *buf, size_t size, uint64_t us)
{
    return tern_snprintf(buf, size, "%u.%03u", (unsigned)(us / 1000u), (unsigned)(us % 1000u));
}

static const char *error_text(uint8_t type)
{
    switch (type) {
    case TERN_ICMPV6_DST_UNREACH:
        return "Destination unreachable";
    case TERN_ICMPV6_PACKET_TOO_BIG:
        return "Packet too big";
    case TERN_ICMPV6_TIME_EXCEEDED:
        return "Time exceeded";
    case TERN_ICMPV6_PARAM_PROBLEM:
        return "Parameter problem";
    default:
        return "Error";
    }
}

/* One answer, on the ping module's handler. */
static void print_reply(void *arg, const tern_ping_reply_t *r)
{
    tern_shell_ping_t *st = arg;
    char from[TERN_IPV6_ADDR_STRLEN];
    (void)tern_ipv6_addr_to_str(&r->from, from, sizeof(from));
    if (r->type != TERN_ICMPV6_ECHO_REPLY) {
        tern_shell_printf(st->sh, "From %s icmp_seq=%u %s (code %u)\n", from, (unsigned)r->sequence,
                          error_text(r->type), (unsigned)r->code);
        return;
    }
    char time[24];
    (void)ms_text(time, sizeof(time), r->rtt_us);
    tern_shell_printf(st->sh, "%u bytes from %s: icmp_seq=%u ttl=%u time=%s ms%s\n", (unsigned)r->size, from,
                      (unsigned)r->sequence, (unsigned)r->hop_limit, time, r->duplicate ? " (DUP!)" : "");
    unsigned got = (unsigned)r->size - TERN_ICMPV6_FIXED_LEN;
    if (!r->data_wrong) {
        /* as sent */
    } else if (r->wrong_at < got && r->wrong_at < r->data_sent) {
        tern_shell_printf(st->sh, "wrong data byte #%u should be 0x%x but was 0x%x\n", (unsigned)r->wrong_at,
                          (unsigned)r->wrong_expected, (unsigned)r->wrong_got);
    } else {
        tern_shell_printf(st->sh, "wrong data length %u, sent %u\n", got, (unsigned)r->data_sent);
    }
}

static void print_summary(tern_shell_t *sh, const char *dst, const tern_ping_stats_t *s)
{
    unsigned loss = (s->transmitted == 0)
                        ? 0u
                        : (unsigned)(((uint64_t)(s->transmitted - s->received) * 100u) / s->transmitted);
    tern_shell_printf(sh, "\n--- %s ping statistics ---\n", dst);
    tern_shell_printf(sh, "%u packets transmitted, %u received, ", (unsigned)s->transmitted, (unsigned)s->received);
    if (s->duplicates > 0) {
        tern_shell_printf(sh, "+%u duplicates, ", (unsigned)s->duplicates);
    }
    if (s->errors > 0) {
        tern_shell_printf(sh, "+%u errors, ", (unsigned)s->errors);
    }
    if (s->corrupted > 0) {
        tern_shell_printf(sh, "+%u corrupted, ", (unsigned)s->corrupted);
    }
    tern_shell_printf(sh, "%u%% packet loss\n", loss);
    if (s->received > 0) {
        char min[24], avg[24], max[24];
        (void)ms_text(min, sizeof(min), s->rtt_min_us);
        (void)ms_text(avg, sizeof(avg), s->rtt_sum_us / s->received);
        (void)ms_text(max, sizeof(max), s->rtt_max_us);
        tern_shell_printf(sh, "rtt min/avg/max = %s/%s/%s ms\n", min, avg, max);
    }
}

static int usage(tern_shell_t *sh)
{
    tern_shell_printf(sh, "usage: ping [-A] [-c N] [-s SIZE | [-g MIN] -G MAX [-h STEP]] [-i MS] [-W MS] ADDR[%%IF]\n");
    return -EINVAL;
}

/** Largest data size: the echo message fits one IPv6 payload (RFC 8200 §3). */
#define MAX_SIZE (0xFFFFu - TERN_ICMPV6_FIXED_LEN)

static int cmd_ping(tern_shell_t *sh, int argc, char **argv)
{
    tern_shell_ping_t *st = sh->current->ctx;
    tern_ping_config_t cfg = { .count = 0, .size = DEFAULT_SIZE };
    uint32_t interval_ms = DEFAULT_INTERVAL_MS, wait_ms = DEFAULT_WAIT_MS, size = DEFAULT_SIZE;
    uint32_t sweep_min = 0, sweep_max = 0, sweep_incr = 1;
    bool has_size = false, has_min = false, has_max = false, has_incr = false;
    const char *dst = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        int res = 0;
        if (strcmp(a, "-A") == 0) {
            cfg.adaptive = true;
            continue;
        }
        if (strcmp(a, "-c") == 0) {
            res = tern_shell_parse_number(v, 1, 0xFFFFu, &cfg.count);
        } else if (strcmp(a, "-s") == 0) {
            res = tern_shell_parse_number(v, 0, MAX_SIZE, &size);
            has_size = true;
        } else if (strcmp(a, "-g") == 0) {
            res = tern_shell_parse_number(v, 0, MAX_SIZE, &sweep_min);
            has_min = true;
        } else if (strcmp(a, "-G") == 0) {
            res = tern_shell_parse_number(v, 0, MAX_SIZE, &sweep_max);
            has_max = true;
        } else if (strcmp(a, "-h") == 0) {
            res = tern_shell_parse_number(v, 1, MAX_SIZE, &sweep_incr);
            has_incr = true;
        } else if (strcmp(a, "-i") == 0) {
            res = tern_shell_parse_number(v, 1, 3600000u, &interval_ms);
        } else if (strcmp(a, "-W") == 0) {
            res = tern_shell_parse_number(v, 0, 3600000u, &wait_ms);
        } else if (a[0] == '-' || dst != NULL) {
            return usage(sh);
        } else {
            dst = a;
            continue;
        }
        if (res < 0) {
            tern_shell_printf(sh, "ping: bad value for %s: '%s'\n", a, (v != NULL) ? v : "");
            return res;
        }
        i++;
    }
    if (dst == NULL) {
        return usage(sh);
    }
    bool sweep = has_max;
    if ((has_min || has_incr) && !sweep) {
        tern_shell_printf(sh, "ping: a sweep needs its largest size: -G MAX\n");
        return -EINVAL;
    }
    if (sweep && has_size) {
        tern_shell_printf(sh, "ping: -s and a sweep (-g/-G/-h) exclude each other\n");
        return -EINVAL;
    }
    if (sweep && sweep_max < sweep_min) {
        tern_shell_printf(sh, "ping: sweep from %u down to %u: want -g MIN <= -G MAX\n", (unsigned)sweep_min,
                          (unsigned)sweep_max);
        return -EINVAL;
    }
    if (cfg.count == 0) {
        cfg.count = sweep ? DEFAULT_SWEEP_COUNT : DEFAULT_COUNT;
    }
    if (sweep) {
        size = sweep_min;
        cfg.sweep_max = (uint16_t)sweep_max;
        cfg.sweep_incr = (uint16_t)sweep_incr;
    }
    int res = tern_shell_parse_ipv6_dest(sh, dst, &cfg.dst, &cfg.netif);
    if (res < 0) {
        tern_shell_printf(sh, "ping: %s '%s'\n", (res == -ENODEV) ? "no such interface in" : "bad address", dst);
        return res;
    }
    if ((tern_ipv6_addr_is_link_local(&cfg.dst) || tern_ipv6_addr_is_multicast(&cfg.dst)) && cfg.netif == 0) {
        tern_shell_printf(sh, "ping: %s needs an interface: %s%%IF\n", dst, dst);
        return -EINVAL;
    }
    cfg.size = (uint16_t)size;
    cfg.interval_us = interval_ms * 1000u;
    cfg.wait_us = wait_ms * 1000u;
    uint32_t requests = tern_ping_requests(&cfg);
    if (requests > 0xFFFFu) {
        tern_shell_printf(sh, "ping: %u requests: at most 65535 in one run (16-bit sequence numbers)\n",
                          (unsigned)requests);
        return -EINVAL;
    }
    if (sweep) {
        tern_shell_printf(sh, "PING %s: (%u ... %u) data bytes\n", dst, (unsigned)sweep_min,
                          (unsigned)(sweep_min + (requests / cfg.count - 1u) * sweep_incr));
    } else {
        tern_shell_printf(sh, "PING %s: %u data bytes\n", dst, (unsigned)cfg.size);
    }
    res = tern_ping_start(&st->ping, &cfg, print_reply, st);
    if (res == 0) {
        res = tern_ping_wait(&st->ping);
    }
    if (res < 0) {
        return res;
    }
    tern_ping_stats_t stats;
    tern_ping_get_stats(&st->ping, &stats);
    print_summary(sh, dst, &stats);
    return 0;
}

int tern_shell_add_ping(tern_shell_t *sh, tern_shell_ping_t *storage, tern_ipv6_t *ipv6)
{
    storage->sh = sh;
    int res = tern_ping_init(&storage->ping, sh->stack, ipv6);
    if (res < 0) {
        return res;
    }
    storage->cmd = (tern_shell_cmd_t){ NULL, "ping",
                                       "[-A] [-c N] [-s SIZE | [-g MIN] -G MAX [-h STEP]] [-i MS] [-W MS] ADDR[%IF]"
                                       " - ICMPv6 echo (-A: next on reply; -g/-G/-h: size sweep)",
                                       cmd_ping, storage };
    return tern_shell_add(sh, &storage->cmd);
}
