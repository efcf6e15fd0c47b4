/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Private to src/sock/: the socket part every type shares (sock_common.c).
 *
 * A socket type (sock_udp.c, sock_ip.c) embeds a tern_sock_t first and gives
 * a tern_sock_ops_t: its module name and priority, the netreg type it
 * registers under, its filter, how to call its callback and how to read the
 * sender out of a received packet. sock_common.c does the rest: the module
 * and its handler, the ring, open/close, the blocking recv, the callback,
 * and building [NETIF?, IPV6 template, ...] for sending.
 *
 * Threads: the socket's handler (its module thread under the threaded
 * executor) and the application (create/close/send/recv) share the ring, the
 * open flag, the callback and the type's endpoints; they are touched under the
 * stack's lock. pktbuf calls take that same (non-recursive) lock themselves,
 * so packets are released only after it is given back.
 */
#ifndef TERN_SOCK_INTERNAL_H
#define TERN_SOCK_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/ipv6/ipv6.h"
#include "tern/sock.h"
#include "tern/sock_ip.h"
#include "tern/sock_udp.h"
#include "tern/stack.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ipv6_addr.h"

/** Most entries a socket's ring may have (the types assert it with TERN_SOCK_POW2_IN). */
#define SOCK_RING_MAX 64u

/** Room for the sender of a received packet, as any type's endpoint. */
typedef union {
    tern_sock_udp_ep_t udp; /**< sock_udp.c */
    tern_sock_ip_ep_t ip;   /**< sock_ip.c */
} sock_ep_t;

/** The part of a socket its type gives. */
typedef struct tern_sock_ops {
    const char *name;        /**< module name, for trace and shell */
    uint8_t priority;        /**< module priority */
    tern_nettype_t nettype;  /**< netreg type the socket registers under */
    /**
     * Bytes at the head snip of a received packet before its payload: the
     * type's header, read in place (UDP: 8, the UDP module delivers the
     * datagram whole; raw: 0). verdict takes no packet shorter than this.
     */
    uint8_t header_len;
    /**
     * With the stack's lock held, for an open socket: TERN_SOCK_DROP_NUMOF to
     * take @p pkt (a received packet, payload first), and then its sender in
     * @p from (the type's endpoint), so that the packet's headers are read
     * once; else the drop counter to count it in. Reads the packet and the
     * socket only (no pktbuf calls).
     */
    unsigned (*verdict)(const tern_sock_t *sock, tern_pkt_t *pkt, sock_ep_t *from);
    /**
     * Without the lock: call @p cb (stored by set_cb, of the type's signature)
     * with @p pkt and its sender @p from, as verdict gave it.
     */
    void (*call)(tern_sock_t *sock, tern_pkt_t *pkt, tern_sock_cb_fn_t cb, void *arg, const sock_ep_t *from);
    /**
     * With the stack's lock held, for an open socket: whether the ICMPv6
     * error @p pkt ([ICMPV6, IPV6, NETIF], RFC 4443 §2.4 (e)) is about a
     * packet this socket sent (bound and connected endpoints match the
     * quote): the negative errno to keep as pending, and the quoted
     * destination in @p about; else 0. NULL: the type takes no errors (an
     * ICMPV6 packet is then received as any other).
     * call() is then made with a NULL packet to tell the callback.
     */
    int (*error)(const tern_sock_t *sock, tern_pkt_t *pkt, sock_ep_t *about);
    /** The sender of @p pkt, as the type's endpoint, into @p remote. */
    void (*remote)(tern_pkt_t *pkt, void *remote);
} tern_sock_ops_t;

/** Where a socket type keeps the storage of its tern_sock_t. */
typedef struct {
    tern_msg_t *queue;  /**< the module's queue */
    uint16_t queue_len; /**< its length */
    tern_pkt_t **ring;  /**< the receive ring */
    uint8_t ring_len;   /**< its length, a power of two <= SOCK_RING_MAX */
    tern_counter_t *drops; /**< drop counters, TERN_SOCK_DROP_... first */
    size_t ndrops;      /**< how many */
} tern_sock_storage_t;

/**
 * Check the local endpoint (sock_check_local()), then make @p sock a module
 * of @p stack, once: a struct attached to @p stack before (created and
 * closed) keeps its module and counters. The first time, the tern_sock_t and
 * the type's drop counters are zeroed.
 * @pre @p sock is not open.
 * @return 0; the errors of sock_check_local(); the negative errno of module
 *         setup or of the executor.
 */
int sock_attach(tern_sock_t *sock, tern_stack_t *stack, tern_ipv6_t *ipv6, const tern_ipv6_addr_t *addr,
                uint16_t netif, const tern_sock_ops_t *ops, const tern_sock_storage_t *storage);

/**
 * Open an attached @p sock (empty ring, no callback) and register it under
 * (ops->nettype, @p demux_ctx). The type sets its endpoints before.
 * @return 0; the negative errno of netreg (then the socket stays closed).
 */
int sock_open(tern_sock_t *sock, uint32_t demux_ctx);

/** Close @p sock: unregister it, release what its ring kept. NULL, closed or never attached: nothing. */
void sock_close(tern_sock_t *sock);

/**
 * Take the oldest packet kept for @p sock, waiting up to @p timeout_us; copy
 * its payload (the head snip after ops->header_len bytes) into @p buf and its sender into @p remote_out
 * (when not NULL) with ops->remote. The return values of tern_sock_udp_recv()
 * (-EINVAL for a NULL @p sock too).
 */
int sock_recv(tern_sock_t *sock, void *buf, size_t max, uint32_t timeout_us, void *remote_out);

/** Whether @p sock may be used. @return 0; -EINVAL for NULL; -EBADF when not open. */
int sock_usable(const tern_sock_t *sock);

/**
 * Whether a send of @p len bytes from @p data to @p to (the caller's remote,
 * else the connected one, else NULL) may go on.
 * @return 0; -EINVAL for NULL @p sock, NULL @p data with @p len > 0; -EBADF
 *         when not open; -ENOTCONN when @p to is NULL.
 */
int sock_send_usable(const tern_sock_t *sock, const void *data, size_t len, const void *to);

/** Set or clear the callback. @return 0; -EINVAL when @p sock was never attached. */
int sock_set_cb(tern_sock_t *sock, tern_sock_cb_fn_t cb, void *arg);

/**
 * Check a local endpoint at create: @p addr (:: for any) not multicast, @p
 * netif (0 for any) an interface of @p stack, @p addr one of the node's (on
 * @p netif when given; checked only when @p ipv6 is not NULL).
 * @return 0; -EINVAL (multicast); -ENODEV; -EADDRNOTAVAIL.
 */
int sock_check_local(tern_stack_t *stack, tern_ipv6_t *ipv6, const tern_ipv6_addr_t *addr, uint16_t netif);

/**
 * The address filters of a received packet from @p src on interface @p in
 * to @p dst: bound to @p bound (:: any) on @p bound_netif (0 any), and, when
 * @p connected is not NULL, from @p connected (:: any address). Inline:
 * every received datagram asks.
 */
static inline bool sock_addresses_wanted(const tern_ipv6_addr_t *bound, uint16_t bound_netif,
                                         const tern_ipv6_addr_t *connected, const tern_ipv6_addr_t *src,
                                         const tern_ipv6_addr_t *dst, uint16_t in)
{
    if (!tern_ipv6_addr_is_unspecified(bound) && !tern_ipv6_addr_equal(bound, dst)) {
        return false;
    }
    if (bound_netif != 0 && bound_netif != in) {
        return false;
    }
    return connected == NULL || tern_ipv6_addr_is_unspecified(connected) || tern_ipv6_addr_equal(connected, src);
}

/**
 * The IPv6 header bytes of a received packet (its IPV6 snip, at least
 * TERN_IPV6_HDR_LEN bytes: the IPv6 module checked them), and the interface
 * it came in on (0 if it has no interface header), for reading fields in
 * place. @p pkt may be any snip of the packet before its IPV6 snip: the list
 * is walked from there, once.
 * @return the header; NULL when there is no IPV6 snip of 40 bytes or more.
 */
const uint8_t *sock_received_ipv6_hdr(tern_pkt_t *pkt, uint16_t *in);

/**
 * The IPv6 header of a received packet, and the interface it came in on (0
 * if it has no interface header). @p pkt may be any snip of the packet before
 * its IPV6 snip: the list is walked from there, once (a received packet has
 * its interface header after the IPv6 header, see pktbuf.h).
 * @return 0; -EINVAL when there is no valid IPV6 snip.
 */
int sock_received_ipv6(tern_pkt_t *pkt, tern_ipv6_repr_t *ip, uint16_t *in);

/**
 * Copy @p len bytes of @p data into a payload snip: NULL for 0 bytes unless
 * @p always (then an empty snip).
 * @return 0 and *@p out; -ENOMEM.
 */
int sock_payload(tern_sock_t *sock, const void *data, size_t len, bool always, tern_pkt_t **out);

/**
 * Send @p upper (the caller's reference; @p len bytes, the IPv6 payload
 * length) as [NETIF (when @p netif != 0), IPV6 template (next header @p nh,
 * source @p src or :: to let IPv6 choose, hop limit 0: the interface's
 * default, destination @p dst), upper...] to @p to (SND).
 * @return 0; -ENOMEM (@p upper released); -ENOBUFS when @p to's queue is full
 *         (released and counted by netapi); -EINVAL from netapi (released).
 */
int sock_send_ipv6(tern_sock_t *sock, tern_module_t *to, tern_pkt_t *upper, size_t len, uint8_t nh,
                   const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst, uint16_t netif);

#endif /* TERN_SOCK_INTERNAL_H */
