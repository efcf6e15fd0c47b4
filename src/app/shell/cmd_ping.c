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
 */
#include <errno.h>
#include <string.h>

#include "tern/fmt.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netif.h"
#include "tern/shell_ping.h"
#include "tern/wire/icmpv6.h"

/** Defaults, as iputils' (except -W: how long to wait after the last request). */
#define DEFAULT_COUNT 3u
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
    tern_shell_printf(sh, "usage: ping [-c N] [-s SIZE] [-i MS] [-W MS] ADDR[%%IF]\n");
    return -EINVAL;
}

static int cmd_ping(tern_shell_t *sh, int argc, char **argv)
{
    tern_shell_ping_t *st = sh->current->ctx;
    tern_ping_config_t cfg = { .count = DEFAULT_COUNT, .size = DEFAULT_SIZE };
    uint32_t interval_ms = DEFAULT_INTERVAL_MS, wait_ms = DEFAULT_WAIT_MS, size = DEFAULT_SIZE;
    const char *dst = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        int res = 0;
        if (strcmp(a, "-c") == 0) {
            res = tern_shell_parse_number(v, 1, 0xFFFFu, &cfg.count);
        } else if (strcmp(a, "-s") == 0) {
            res = tern_shell_parse_number(v, 0, 0xFFFFu - 8u - 40u, &size); /* fits one IPv6 payload */
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
    tern_shell_printf(sh, "PING %s: %u data bytes\n", dst, (unsigned)cfg.size);
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
    storage->cmd = (tern_shell_cmd_t){ NULL, "ping", "[-c N] [-s SIZE] [-i MS] [-W MS] ADDR[%IF] - ICMPv6 echo",
                                       cmd_ping, storage };
    return tern_shell_add(sh, &storage->cmd);
}
