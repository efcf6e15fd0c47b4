/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim --tap: the real clock, the loop's wait and wake, the TAP
 *        interface and the standard-input thread (sim_tap.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_tap.h"

/* ------------------------------------------------------------ clock and wait */

static uint64_t tap_clock_now(const tern_clock_t *clock)
{
    const sim_tap_t *tap = (const sim_tap_t *)(const void *)clock;
    const tern_clock_t *wall = tern_posix_clock();
    return tern_clock_now(wall) - tap->origin_us;
}

/* The loop's deadlines are run time; the POSIX wait wants tern_posix_clock() time. */
static void tap_wait(void *ctx, uint64_t deadline_us)
{
    sim_tap_t *tap = ctx;
    uint64_t wall = (deadline_us > UINT64_MAX - tap->origin_us) ? UINT64_MAX : deadline_us + tap->origin_us;
    tap->sync.platform.wait(tap->sync.platform.ctx, wall);
}

static void tap_wake(void *ctx)
{
    sim_tap_t *tap = ctx;
    tap->sync.platform.wake(tap->sync.platform.ctx);
}

int sim_tap_loop_init(sim_tap_t *tap, tern_loop_t *loop)
{
    tap->clock.now_us = tap_clock_now;
    tap->clock.is_virtual = 0;
    tap->origin_us = tern_clock_now(tern_posix_clock());
    tern_loop_init(loop, &tap->clock);
    int res = tern_posix_loop_bind(loop, &tap->sync);
    if (res < 0) {
        return res;
    }
    /* The binding gave the loop the sync's own hooks; shift its deadlines instead. */
    tap->platform = tap->sync.platform;
    tap->platform.wait = tap_wait;
    tap->platform.wake = tap_wake;
    tap->platform.ctx = tap;
    tern_loop_bind_platform(loop, &tap->platform);
    return 0;
}

/* ------------------------------------------------------------ the TAP interface */

int sim_tap_parse(sim_tap_t *tap, const char *arg)
{
    const char *at = strchr(arg, '@');
    size_t len = (at != NULL) ? (size_t)(at - arg) : strlen(arg);
    if (len == 0 || len >= sizeof(tap->ifname)) {
        return -EINVAL;
    }
    unsigned long node = 1;
    if (at != NULL) {
        char *end = NULL;
        errno = 0;
        node = strtoul(at + 1, &end, 10);
        if (end == at + 1 || *end != '\0' || errno != 0 || node == 0 || node > 0xffffu || at[1] == '-') {
            return -EINVAL;
        }
    }
    memcpy(tap->ifname, arg, len);
    tap->ifname[len] = '\0';
    tap->node = (unsigned)node;
    return 0;
}

int sim_tap_attach(sim_tap_t *tap, tern_stack_t *stack, tern_ipv6_t *ipv6)
{
    /* The MAC is derived from the device name (tern_netdev_tap_default_mac), as tern-node's. */
    int res = tern_netdev_tap_setup(&tap->dev, tap->ifname, NULL);
    if (res < 0) {
        fprintf(stderr, "tern-sim: bad TAP interface name '%s'\n", tap->ifname);
        return res;
    }
    res = tern_ethernet_netif_add(stack, &tap->netif, &tap->eth, tap->ifname, &tap->dev.netdev);
    if (res < 0) {
        fprintf(stderr, "tern-sim: cannot attach to TAP device '%s': %s%s\n", tap->ifname, strerror(-res),
                (res == -ENODEV) ? " (create it first: ip tuntap add dev NAME mode tap)" : "");
        tern_netdev_tap_stop(&tap->dev);
        return res;
    }
    tap->attached = true;
    return tern_ipv6_netif_enable(ipv6, &tap->netif);
}

/* ------------------------------------------------------------ standard input */

/* The input thread: read lines, hand each over, wake the loop. */
static void *input_thread(void *arg)
{
    sim_tap_t *tap = arg;
    char buf[SIM_CMD_LINE_MAX];
    for (;;) {
        bool eof = (fgets(buf, sizeof(buf), stdin) == NULL);
        bool too_long = false;
        if (!eof) {
            size_t len = strlen(buf);
            if (len == sizeof(buf) - 1u && buf[len - 1u] != '\n') {
                int c;
                while ((c = getchar()) != '\n' && c != EOF) {
                }
                too_long = true;
            }
        }
        (void)pthread_mutex_lock(&tap->mutex);
        while (tap->ready) {
            (void)pthread_cond_wait(&tap->cond, &tap->mutex);
        }
        if (eof) {
            tap->eof = true;
        } else {
            memcpy(tap->line, buf, sizeof(buf));
            tap->too_long = too_long;
            tap->ready = true;
        }
        (void)pthread_mutex_unlock(&tap->mutex);
        tap_wake(tap);
        if (eof) {
            return NULL;
        }
    }
}

int sim_tap_input_start(sim_tap_t *tap)
{
    if (pthread_mutex_init(&tap->mutex, NULL) != 0) {
        return -EAGAIN;
    }
    if (pthread_cond_init(&tap->cond, NULL) != 0) {
        (void)pthread_mutex_destroy(&tap->mutex);
        return -EAGAIN;
    }
    if (pthread_create(&tap->thread, NULL, input_thread, tap) != 0) {
        (void)pthread_cond_destroy(&tap->cond);
        (void)pthread_mutex_destroy(&tap->mutex);
        return -EAGAIN;
    }
    tap->reading = true;
    return 0;
}

int sim_tap_next_line(sim_tap_t *tap, tern_loop_t *loop, char *line, size_t size, bool *too_long)
{
    tern_executor_t *ex = &loop->base;
    for (;;) {
        while (tern_loop_step(loop) != 0) {
        }
        (void)pthread_mutex_lock(&tap->mutex);
        if (tap->ready) {
            size_t n = (size < sizeof(tap->line)) ? size : sizeof(tap->line);
            memcpy(line, tap->line, n);
            line[n - 1u] = '\0';
            *too_long = tap->too_long;
            tap->ready = false;
            (void)pthread_cond_signal(&tap->cond);
            (void)pthread_mutex_unlock(&tap->mutex);
            return 1;
        }
        bool eof = tap->eof;
        (void)pthread_mutex_unlock(&tap->mutex);
        if (eof) {
            return 0;
        }
        /* Until a post (TAP frame, timer re-plan), a line or the next timer. A
         * wake between the check above and this wait stays pending (loop_sync.c). */
        tern_lock_acquire(&ex->lock);
        uint64_t next = tern_timerq_next(&ex->timers);
        tern_lock_release(&ex->lock);
        tap_wait(tap, next);
    }
}

void sim_tap_stop(sim_tap_t *tap)
{
    if (tap->reading) {
        (void)pthread_join(tap->thread, NULL);
        (void)pthread_cond_destroy(&tap->cond);
        (void)pthread_mutex_destroy(&tap->mutex);
        tap->reading = false;
    }
    if (tap->attached) {
        tern_netdev_tap_stop(&tap->dev);
        tap->attached = false;
    }
}
