/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief A netdev over a Linux TAP device: Ethernet frames to and from the kernel.
 *
 * The TAP interface must exist (`ip tuntap add dev tap0 mode tap`, as root or
 * with `user`/`group` set): the driver attaches to it (IFF_TAP | IFF_NO_PI) and
 * never creates one. The node is a host of its own behind the TAP: it has its
 * own MAC, not the Linux interface's. Unless one is given, the MAC is derived
 * from the interface name: 02:xx:xx:xx:xx:xx (locally administered, unicast),
 * the x bytes an FNV-1a hash of "tern:" + name, so a node keeps its address
 * (and its IPv6 link-local address) across restarts; nodes on TAPs of the same
 * name in different namespaces get the same MAC unless one is given.
 *
 * Threads: init starts a reader thread that poll()s the TAP descriptor and a
 * stop pipe, once the interface has called isr() for the first time (the
 * interface does so on its first turn, after it is attached to its executor:
 * the reader never posts into a half-added interface). When a frame is readable it raises TERN_NETDEV_EVENT_ISR (the
 * interface only posts itself a message, see netif.c) and waits until the
 * interface has drained the descriptor (isr() reads non-blocking until
 * EAGAIN, at most TERN_NETDEV_TAP_RX_BATCH frames per turn, then re-raises),
 * so it never spins on a level-triggered poll. The reader never reads frames:
 * isr()/recv() do, on the interface's turn, into the device's one-frame
 * buffer. If the interrupt was lost (queue full, or it came before the
 * interface was attached) the reader raises it again after
 * TERN_NETDEV_TAP_REARM_MS. A mutex + condition variable guard only that
 * handshake. tern_netdev_tap_stop() joins the thread and closes everything.
 */
#ifndef TERN_PORT_TAP_H
#define TERN_PORT_TAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "tern/netdev.h"

/** Longest frame read or written: 1500 payload + 14 header + a VLAN tag, rounded up. */
#define TERN_NETDEV_TAP_FRAME_MAX 1536
/** Payload MTU reported (TERN_NETOPT_MAX_PDU_SIZE). */
#define TERN_NETDEV_TAP_MTU 1500
/** Frames read per interface turn before letting other modules run. */
#define TERN_NETDEV_TAP_RX_BATCH 8
/** Milliseconds after which an unanswered interrupt is raised again. */
#define TERN_NETDEV_TAP_REARM_MS 200
/** Longest interface name, with the NUL (Linux IFNAMSIZ). */
#define TERN_NETDEV_TAP_NAME_LEN 16

/** A TAP device. Set up with tern_netdev_tap_setup(); embed or allocate statically. */
typedef struct {
    tern_netdev_t netdev;                 /**< the device; pass &tap.netdev */
    char ifname[TERN_NETDEV_TAP_NAME_LEN]; /**< the Linux TAP interface */
    uint8_t addr[6];                      /**< the node's MAC */
    bool promiscuous;                     /**< TERN_NETOPT_PROMISCUOUS (the link filters) */
    int fd;                               /**< /dev/net/tun descriptor, -1 when closed */
    int stop_pipe[2];                     /**< wakes the reader to stop */
    pthread_t reader;                     /**< the reader thread */
    bool reader_running;                  /**< reader created, not joined */
    pthread_mutex_t mutex;                /**< guards @ref armed and @ref stopping */
    pthread_cond_t cond;                  /**< signalled when @ref armed clears */
    bool armed;                           /**< ISR raised, descriptor not drained yet */
    bool started;                         /**< the interface called isr() once: it is attached */
    bool stopping;                        /**< stop() in progress */
    uint8_t frame[TERN_NETDEV_TAP_FRAME_MAX]; /**< frame read but not yet taken by recv */
    uint16_t frame_len;                   /**< its length, 0: none */
    uint32_t rx_oversize;                 /**< frames longer than the buffer, dropped */
} tern_netdev_tap_t;

/**
 * Prepare @p tap for interface @p ifname (nothing is opened yet: the
 * interface's init does that, from tern_netif_add()).
 * @param[in] mac  the node's MAC, or NULL to derive one from @p ifname
 * @return 0; -EINVAL for a NULL or too long name, or a group MAC.
 */
int tern_netdev_tap_setup(tern_netdev_tap_t *tap, const char *ifname, const uint8_t mac[6]);

/** The MAC tern_netdev_tap_setup() derives from @p ifname. */
void tern_netdev_tap_default_mac(const char *ifname, uint8_t mac[6]);

/** Stop the reader thread (joined) and close the descriptors. Safe to call twice. */
void tern_netdev_tap_stop(tern_netdev_tap_t *tap);

#endif /* TERN_PORT_TAP_H */
