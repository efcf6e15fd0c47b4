/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief netdev over a Linux TAP device (see tap.h for the thread handshake).
 */
#define _DEFAULT_SOURCE 1 /* struct ifreq */

#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "tern/port/posix.h"
#include "tern/port/tap.h"

/** Largest scatter list written with one writev (more entries are copied flat). */
#define TAP_IOV_MAX 16

static tern_netdev_tap_t *tap_of(tern_netdev_t *dev)
{
    return (tern_netdev_tap_t *)(void *)dev;
}

/* ------------------------------------------------------------ reader thread */

/** Absolute CLOCK_MONOTONIC time @p ms from now. */
static struct timespec deadline_in_ms(long ms)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

/*
 * Wait for the descriptor to become readable, raise the interrupt, and wait
 * until the interface drained it. Never reads a frame itself.
 */
static void *tap_reader(void *arg)
{
    tern_netdev_tap_t *tap = arg;
    /* Raise nothing before the interface's first isr(): only then is it
     * attached to its executor (the mutex orders that before our posts). */
    (void)pthread_mutex_lock(&tap->mutex);
    while (!tap->started && !tap->stopping) {
        (void)pthread_cond_wait(&tap->cond, &tap->mutex);
    }
    bool stop = tap->stopping;
    (void)pthread_mutex_unlock(&tap->mutex);
    while (!stop) {
        struct pollfd fds[2] = {
            { .fd = tap->fd, .events = POLLIN, .revents = 0 },
            { .fd = tap->stop_pipe[0], .events = POLLIN, .revents = 0 },
        };
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        if (fds[1].revents != 0) {
            break; /* stop() */
        }
        if ((fds[0].revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) {
            break; /* the interface went away: nothing more will come */
        }
        if ((fds[0].revents & POLLIN) == 0) {
            continue;
        }
        (void)pthread_mutex_lock(&tap->mutex);
        tap->armed = true;
        (void)pthread_mutex_unlock(&tap->mutex);
        tern_netdev_report(&tap->netdev, TERN_NETDEV_EVENT_ISR);

        (void)pthread_mutex_lock(&tap->mutex);
        while (tap->armed && !tap->stopping) {
            struct timespec ts = deadline_in_ms(TERN_NETDEV_TAP_REARM_MS);
            if (pthread_cond_timedwait(&tap->cond, &tap->mutex, &ts) == ETIMEDOUT && tap->armed &&
                !tap->stopping) {
                /* Not served: the message may have been lost. Ask again
                 * (the interface keeps at most one message outstanding). */
                (void)pthread_mutex_unlock(&tap->mutex);
                tern_netdev_report(&tap->netdev, TERN_NETDEV_EVENT_ISR);
                (void)pthread_mutex_lock(&tap->mutex);
            }
        }
        bool stopping = tap->stopping;
        (void)pthread_mutex_unlock(&tap->mutex);
        if (stopping) {
            break;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------ driver */

/** Read the next frame into the buffer. @return its length; 0: none; negative errno. */
static int tap_read_frame(tern_netdev_tap_t *tap)
{
    for (;;) {
        ssize_t n = read(tap->fd, tap->frame, sizeof(tap->frame));
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -errno;
        }
        if ((size_t)n >= sizeof(tap->frame)) {
            tap->rx_oversize++; /* may have been cut: drop it, try the next */
            continue;
        }
        tap->frame_len = (uint16_t)n;
        return (int)n;
    }
}

static int tap_send(tern_netdev_t *dev, const tern_iolist_t *iolist, size_t count)
{
    tern_netdev_tap_t *tap = tap_of(dev);
    if (tap->fd < 0) {
        return -ENETDOWN;
    }
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iolist[i].len;
    }
    if (len > TERN_NETDEV_TAP_MTU + 14u) {
        return -EMSGSIZE;
    }
    struct iovec iov[TAP_IOV_MAX];
    uint8_t flat[TERN_NETDEV_TAP_MTU + 14u];
    int iovcnt = 0;
    if (count <= TAP_IOV_MAX) {
        for (size_t i = 0; i < count; i++) {
            iov[i].iov_base = (void *)(uintptr_t)iolist[i].base;
            iov[i].iov_len = iolist[i].len;
        }
        iovcnt = (int)count;
    } else {
        size_t pos = 0;
        for (size_t i = 0; i < count; i++) {
            memcpy(&flat[pos], iolist[i].base, iolist[i].len);
            pos += iolist[i].len;
        }
        iov[0].iov_base = flat;
        iov[0].iov_len = pos;
        iovcnt = 1;
    }
    ssize_t n;
    do {
        n = writev(tap->fd, iov, iovcnt);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        return (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) ? -ENOBUFS : -EIO;
    }
    return (int)n;
}

static int tap_recv(tern_netdev_t *dev, void *buf, size_t len, tern_netdev_rx_info_t *info)
{
    tern_netdev_tap_t *tap = tap_of(dev);
    if (tap->frame_len == 0) {
        if (buf != NULL || len != 0) {
            return 0; /* nothing was announced */
        }
        int res = tap_read_frame(tap);
        if (res <= 0) {
            return res;
        }
    }
    int frame_len = tap->frame_len;
    if (buf == NULL && len == 0) {
        return frame_len;
    }
    tap->frame_len = 0;
    if (buf == NULL) {
        return frame_len; /* dropped */
    }
    if (len < (size_t)frame_len) {
        return -ENOBUFS;
    }
    memcpy(buf, tap->frame, (size_t)frame_len);
    if (info != NULL) {
        info->rssi = 0;
        info->lqi = 0;
    }
    return frame_len;
}

static void tap_isr(tern_netdev_t *dev)
{
    tern_netdev_tap_t *tap = tap_of(dev);
    int i;
    for (i = 0; i < TERN_NETDEV_TAP_RX_BATCH; i++) {
        if (tap->frame_len == 0 && tap_read_frame(tap) <= 0) {
            break;
        }
        tern_netdev_report(dev, TERN_NETDEV_EVENT_RX_COMPLETE);
        tap->frame_len = 0; /* not taken (no owner): drop it */
    }
    if (i == TERN_NETDEV_TAP_RX_BATCH && tap->started) {
        /* More may be waiting: come back on a later turn, others go first. */
        tern_netdev_report(dev, TERN_NETDEV_EVENT_ISR);
        return;
    }
    (void)pthread_mutex_lock(&tap->mutex);
    tap->started = true;
    tap->armed = false;
    (void)pthread_cond_signal(&tap->cond);
    (void)pthread_mutex_unlock(&tap->mutex);
}

static int tap_get(tern_netdev_t *dev, tern_netopt_t opt, void *value, size_t max_len)
{
    tern_netdev_tap_t *tap = tap_of(dev);
    switch (opt) {
    case TERN_NETOPT_ADDRESS:
        if (max_len < sizeof(tap->addr)) {
            return -EOVERFLOW;
        }
        memcpy(value, tap->addr, sizeof(tap->addr));
        return (int)sizeof(tap->addr);
    case TERN_NETOPT_ADDR_LEN:
        return tern_netopt_put_u16(value, max_len, sizeof(tap->addr));
    case TERN_NETOPT_MAX_PDU_SIZE:
        return tern_netopt_put_u16(value, max_len, TERN_NETDEV_TAP_MTU);
    case TERN_NETOPT_DEVICE_TYPE:
        return tern_netopt_put_u16(value, max_len, TERN_NETDEV_TYPE_ETHERNET);
    case TERN_NETOPT_PROMISCUOUS:
        if (max_len < 1) {
            return -EOVERFLOW;
        }
        *(uint8_t *)value = tap->promiscuous ? 1u : 0u;
        return 1;
    default:
        return -ENOTSUP;
    }
}

static int tap_set(tern_netdev_t *dev, tern_netopt_t opt, const void *value, size_t len)
{
    tern_netdev_tap_t *tap = tap_of(dev);
    switch (opt) {
    case TERN_NETOPT_ADDRESS:
        if (len != sizeof(tap->addr) || (((const uint8_t *)value)[0] & 0x01u) != 0) {
            return -EINVAL; /* six bytes, and not a group address */
        }
        memcpy(tap->addr, value, sizeof(tap->addr));
        return (int)len;
    case TERN_NETOPT_PROMISCUOUS:
        if (len != 1) {
            return -EINVAL;
        }
        /* The kernel hands a TAP every frame anyway; the link layer filters. */
        tap->promiscuous = (*(const uint8_t *)value != 0);
        return 1;
    default:
        return -ENOTSUP;
    }
}

/** Close whatever is open. */
static void tap_close_fds(tern_netdev_tap_t *tap)
{
    if (tap->fd >= 0) {
        (void)close(tap->fd);
        tap->fd = -1;
    }
    for (int i = 0; i < 2; i++) {
        if (tap->stop_pipe[i] >= 0) {
            (void)close(tap->stop_pipe[i]);
            tap->stop_pipe[i] = -1;
        }
    }
}

static int set_flags(int fd, int flags)
{
    int old = fcntl(fd, F_GETFL);
    if (old < 0 || fcntl(fd, F_SETFL, old | flags) < 0) {
        return -errno;
    }
    int fdflags = fcntl(fd, F_GETFD);
    if (fdflags < 0 || fcntl(fd, F_SETFD, fdflags | FD_CLOEXEC) < 0) {
        return -errno;
    }
    return 0;
}

static int tap_init(tern_netdev_t *dev)
{
    tern_netdev_tap_t *tap = tap_of(dev);
    if (tap->fd >= 0 || tap->reader_running) {
        return -EBUSY;
    }
    /* Attach to an existing interface only: TUNSETIFF would create one. */
    if (if_nametoindex(tap->ifname) == 0) {
        return -ENODEV;
    }
    int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        return -errno;
    }
    tap->fd = fd;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof(ifr));
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    memcpy(ifr.ifr_name, tap->ifname, sizeof(ifr.ifr_name) - 1u);
    int res = 0;
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        res = -errno; /* -EINVAL: a TUN, not a TAP; -EBUSY: attached elsewhere */
    } else if ((res = set_flags(fd, O_NONBLOCK)) == 0) {
        if (pipe(tap->stop_pipe) < 0) {
            res = -errno;
        } else if ((res = set_flags(tap->stop_pipe[0], O_NONBLOCK)) == 0) {
            res = set_flags(tap->stop_pipe[1], O_NONBLOCK);
        }
    }
    if (res == 0) {
        tap->armed = false;
        tap->started = false;
        tap->stopping = false;
        tap->frame_len = 0;
        res = -pthread_create(&tap->reader, NULL, tap_reader, tap);
        tap->reader_running = (res == 0);
    }
    if (res < 0) {
        tap_close_fds(tap);
    }
    return res;
}

static const tern_netdev_driver_t tap_driver = {
    .send = tap_send,
    .recv = tap_recv,
    .init = tap_init,
    .isr = tap_isr,
    .get = tap_get,
    .set = tap_set,
};

/* ------------------------------------------------------------ setup */

void tern_netdev_tap_default_mac(const char *ifname, uint8_t mac[6])
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a, 64 bit */
    const char *prefix = "tern:";
    for (const char *p = prefix; *p != '\0'; p++) {
        h = (h ^ (uint8_t)*p) * 0x100000001b3u;
    }
    for (const char *p = ifname; *p != '\0'; p++) {
        h = (h ^ (uint8_t)*p) * 0x100000001b3u;
    }
    mac[0] = 0x02; /* locally administered, unicast */
    for (int i = 1; i < 6; i++) {
        mac[i] = (uint8_t)(h >> (8 * (i - 1)));
    }
}

int tern_netdev_tap_setup(tern_netdev_tap_t *tap, const char *ifname, const uint8_t mac[6])
{
    if (tap == NULL || ifname == NULL || ifname[0] == '\0' ||
        strlen(ifname) >= TERN_NETDEV_TAP_NAME_LEN || (mac != NULL && (mac[0] & 0x01u) != 0)) {
        return -EINVAL;
    }
    memset(tap, 0, sizeof(*tap));
    tap->netdev.driver = &tap_driver;
    memcpy(tap->ifname, ifname, strlen(ifname) + 1u);
    if (mac != NULL) {
        memcpy(tap->addr, mac, sizeof(tap->addr));
    } else {
        tern_netdev_tap_default_mac(ifname, tap->addr);
    }
    tap->fd = -1;
    tap->stop_pipe[0] = -1;
    tap->stop_pipe[1] = -1;
    int rc = pthread_mutex_init(&tap->mutex, NULL);
    if (rc != 0) {
        return -rc;
    }
    rc = tern_posix_cond_init_monotonic(&tap->cond);
    if (rc != 0) {
        (void)pthread_mutex_destroy(&tap->mutex);
        return -rc;
    }
    return 0;
}

void tern_netdev_tap_stop(tern_netdev_tap_t *tap)
{
    if (tap == NULL) {
        return;
    }
    if (tap->reader_running) {
        (void)pthread_mutex_lock(&tap->mutex);
        tap->stopping = true;
        (void)pthread_cond_signal(&tap->cond);
        (void)pthread_mutex_unlock(&tap->mutex);
        const char byte = 0;
        ssize_t n;
        do {
            n = write(tap->stop_pipe[1], &byte, 1);
        } while (n < 0 && errno == EINTR);
        (void)pthread_join(tap->reader, NULL);
        tap->reader_running = false;
    }
    tap_close_fds(tap);
}
