/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief UDP sockets: RIOT's sock_udp in Tern's shape (seed 001, §3.2.3).
 *
 * A socket is a caller-allocated tern_sock_udp_t: a module of its own (the
 * tern_sock_t every socket type embeds, sock.h), with its own bounded queue,
 * registered in netreg for (UDP, local port). The UDP module hands it each
 * datagram for its port; a datagram that finds the socket's queue full is
 * released and counted by netapi (queue_full). The socket's handler then
 * either calls the receive callback (set with tern_sock_udp_set_cb()) with
 * the datagram, or moves it into a small ring of TERN_CONF_SOCK_UDP_RING
 * datagrams that tern_sock_udp_recv() takes from (full ring: the datagram is
 * released and counted in drop_ring_full). How a blocking recv waits under
 * each executor: see sock.h.
 *
 * Sending builds [NETIF (when an interface is named), IPV6 template, UDP
 * header, payload] and hands it to the UDP module (SND), which completes the
 * header and passes it to IPv6 (source address selection, checksum,
 * neighbor resolution). Sending is asynchronous: a 0 return means queued.
 *
 * Limits: see sock.h (a closed socket's module stays attached). No multicast
 * group membership, no per-socket options (hop limit, traffic class) yet.
 */
#ifndef TERN_SOCK_UDP_H
#define TERN_SOCK_UDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/module.h"
#include "tern/netreg.h"
#include "tern/sock.h"
#include "tern/stack.h"
#include "tern/stats.h"
#include "tern/udp.h"
#include "tern/wire/ipv6_addr.h"

/**
 * Datagrams a socket keeps for tern_sock_udp_recv() (one pointer each).
 * Default 4: a request/response protocol rarely has more outstanding; each
 * kept datagram holds its pktbuf memory. A power of two, 1..64.
 */
#ifndef TERN_CONF_SOCK_UDP_RING
#define TERN_CONF_SOCK_UDP_RING 4
#endif
_Static_assert(TERN_SOCK_POW2_IN(TERN_CONF_SOCK_UDP_RING, 1, 64),
               "TERN_CONF_SOCK_UDP_RING must be a power of two in [1, 64]");

/**
 * Queue length of a socket's module (messages: datagrams not yet handled).
 * Default 4 (a power of two, 2..256).
 */
#ifndef TERN_CONF_SOCK_UDP_QUEUE_LEN
#define TERN_CONF_SOCK_UDP_QUEUE_LEN 4
#endif
_Static_assert(TERN_SOCK_POW2_IN(TERN_CONF_SOCK_UDP_QUEUE_LEN, 2, 256),
               "TERN_CONF_SOCK_UDP_QUEUE_LEN must be a power of two in [2, 256]");

/** Priority of socket modules (0 most urgent). Default 6: after UDP (5). */
#ifndef TERN_CONF_SOCK_UDP_PRIORITY
#define TERN_CONF_SOCK_UDP_PRIORITY 6
#endif

/** A UDP endpoint. */
typedef struct {
    tern_ipv6_addr_t addr; /**< address; :: for any (local) */
    uint16_t netif;        /**< interface index; 0: any */
    uint16_t port;         /**< port, host order; 0 (local): an ephemeral one */
} tern_sock_udp_ep_t;

typedef struct tern_sock_udp tern_sock_udp_t;

/**
 * Receive callback: called from the socket module's handler (on its thread
 * under the threaded executor) with each datagram. @p data is valid during
 * the call only. It may call tern_sock_udp_send(), not a blocking recv.
 * @p data NULL (and @p len 0): an ICMPv6 error about a datagram sent to
 * @p remote is pending; tern_sock_udp_recv() with timeout 0 returns it.
 */
typedef void (*tern_sock_udp_cb_t)(tern_sock_udp_t *sock, const uint8_t *data, size_t len,
                                   const tern_sock_udp_ep_t *remote, void *arg);

/** Drop counters of a socket, indices into tern_sock_udp_t::drops (those of sock.h). */
enum {
    TERN_SOCK_UDP_DROP_RING_FULL = TERN_SOCK_DROP_RING_FULL, /**< the receive ring was full */
    TERN_SOCK_UDP_DROP_FILTERED = TERN_SOCK_DROP_FILTERED,   /**< not for the bound endpoint, not from the connected */
    TERN_SOCK_UDP_DROP_CLOSED = TERN_SOCK_DROP_CLOSED,       /**< arrived after close */
    TERN_SOCK_UDP_DROP_NUMOF = TERN_SOCK_DROP_NUMOF
};

/** A UDP socket. Caller-allocated; zero it (TERN_SOCK_UDP_INIT) before the first create. */
struct tern_sock_udp {
    tern_sock_t base;                                 /**< module, registration (UDP, local port), ring, callback */
    tern_msg_t queue[TERN_CONF_SOCK_UDP_QUEUE_LEN];   /**< its queue storage */
    tern_pkt_t *ring[TERN_CONF_SOCK_UDP_RING];        /**< received datagrams for recv */
    tern_udp_t *udp;                                  /**< the UDP module datagrams go to */
    tern_sock_udp_ep_t local;                         /**< bound endpoint (port never 0 once created) */
    tern_sock_udp_ep_t remote;                        /**< connected remote (port 0: not connected) */
    tern_counter_t drops[TERN_SOCK_UDP_DROP_NUMOF];         /**< see TERN_SOCK_UDP_DROP_... */
};

/** Initialiser of a socket that was never created. */
#define TERN_SOCK_UDP_INIT { 0 }

/**
 * Open @p sock: bind it to @p local (any address when NULL or ::; ephemeral
 * port when NULL or port 0) and optionally connect it to @p remote.
 *
 * A connected socket only receives datagrams from @p remote (address and
 * port; any address when :: was given) and sends there by default.
 *
 * @param[out] sock    the socket; zeroed, or created and closed before
 * @param[in]  stack   the node
 * @param[in]  ipv6    the node's IPv6 module: when not NULL, @p local's
 *                     address must be one of its addresses (checked with
 *                     GET); NULL skips the check
 * @param[in]  udp     the node's UDP module
 * @param[in]  local   local endpoint, may be NULL
 * @param[in]  remote  remote endpoint, may be NULL; when given, its port must
 *                     not be 0 and its address not ::
 * @param[in]  flags   reserved, 0
 * @pre not called from two threads for the same socket at once
 * @return 0; -EINVAL for NULL @p sock/@p stack/@p udp, nonzero @p flags, a
 *         bad @p remote, a multicast local address or a socket already open;
 *         -EADDRINUSE when the port is taken by another socket or no
 *         ephemeral port is free; -EADDRNOTAVAIL when @p local's address is
 *         not the node's (checked only with @p ipv6); -ENODEV when
 *         @p local's interface does not exist; or the executor's errno when
 *         the socket cannot be attached (e.g. -ENOSPC, threads exhausted).
 */
int tern_sock_udp_create(tern_sock_udp_t *sock, tern_stack_t *stack, struct tern_ipv6 *ipv6, tern_udp_t *udp,
                         const tern_sock_udp_ep_t *local, const tern_sock_udp_ep_t *remote, uint16_t flags);

/**
 * Close @p sock: unregister its port and release the datagrams it kept.
 * Datagrams still in its queue are released (counted in drop_closed) when
 * its handler sees them. NULL and closed sockets are ignored.
 */
void tern_sock_udp_close(tern_sock_udp_t *sock);

/**
 * Send @p len bytes from @p data to @p remote (NULL: the connected remote).
 * The source address is the bound one, or chosen by IPv6 (RFC 6724) when
 * bound to ::. The interface is @p remote's, else the bound one, else the
 * route's (link-local and multicast destinations need one: give it).
 *
 * @return @p len (queued to the UDP module; delivery is not confirmed);
 *         -EINVAL for NULL @p sock, NULL @p data with @p len > 0, a remote
 *         with port 0 or address ::; -EBADF if @p sock is not open;
 *         -ENOTCONN with no @p remote on an unconnected socket; -EMSGSIZE
 *         if @p len > 65527; -ENOMEM when the packet buffer has no room;
 *         -ENOBUFS when the UDP module's queue is full (the packet was
 *         released and counted by netapi).
 */
int tern_sock_udp_send(tern_sock_udp_t *sock, const void *data, size_t len, const tern_sock_udp_ep_t *remote);

/**
 * Take the oldest datagram kept for @p sock, waiting up to @p timeout_us
 * (0: do not wait; TERN_SOCK_NO_TIMEOUT: forever), see sock.h for how it
 * waits under each executor.
 *
 * @param[in]  sock        an open socket without a receive callback (with one,
 *                         datagrams go to the callback and recv times out)
 * @param[out] buf         the payload, @p max bytes at most
 * @param[out] remote_out  the sender (address, interface, port); may be NULL
 * A pending ICMPv6 error about a datagram the socket sent (RFC 4443 §2.4 (e),
 * docs/SOCK.md) is returned first, once, and @p remote_out is then not written:
 * -ECONNREFUSED (port unreachable), -EHOSTUNREACH (other Destination
 * Unreachable codes, Time Exceeded), -EMSGSIZE (Packet Too Big), -EPROTO
 * (Parameter Problem). One is kept; a later one overwrites it.
 *
 * @return the payload length (>= 0; a 0-byte datagram returns 0);
 *         -EAGAIN with @p timeout_us 0 and nothing kept; -ETIMEDOUT when the
 *         time passed; -ENOBUFS when the datagram is longer than @p max: it is
 *         dropped (its first @p max bytes are in @p buf, the rest is lost, like
 *         RIOT's sock); -EINVAL for NULL @p sock, NULL @p buf with @p max > 0;
 *         -EBADF if @p sock is not open (or closed while waiting);
 *         -EDEADLK when a wait is asked from a module handler (a callback);
 *         -ECANCELED when the executor stopped.
 */
int tern_sock_udp_recv(tern_sock_udp_t *sock, void *buf, size_t max, uint32_t timeout_us,
                       tern_sock_udp_ep_t *remote_out);

/**
 * Set (or with NULL clear) the receive callback. From then on each datagram
 * goes to @p cb, called on the socket module's turn (any executor), instead of
 * the ring. Datagrams already in the ring stay for recv.
 * @return 0; -EINVAL for NULL @p sock.
 */
int tern_sock_udp_set_cb(tern_sock_udp_t *sock, tern_sock_udp_cb_t cb, void *arg);

/**
 * The bound local endpoint (the ephemeral port chosen at create).
 * @return 0; -EINVAL for NULL; -EBADF if not open.
 */
int tern_sock_udp_get_local(const tern_sock_udp_t *sock, tern_sock_udp_ep_t *ep);

#endif /* TERN_SOCK_UDP_H */
