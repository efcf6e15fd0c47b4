/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Raw IPv6 sockets: RIOT's sock_ip in Tern's shape (seed 001, §3.2.3).
 *
 * Read first: RFC 8200 §4 (what follows the extension headers; Parameter
 * Problem for an unrecognized Next Header), RFC 3692 (numbers 253 and 254
 * for experiments), sock.h (what every socket type shares).
 *
 * A socket is a caller-allocated tern_sock_ip_t for one protocol number (the
 * Next Header value of what it sends and receives). It is a module of its
 * own, registered in netreg for (UNDEF, protocol): the IPv6 module hands
 * every packet for the node whose upper-layer protocol has no module of its
 * own to whoever registered for its number, and sends ICMPv6 Parameter
 * Problem (code 1) only when nobody did. Several sockets may have the same
 * protocol: each gets its own reference to the packet (like Linux raw
 * sockets, unlike sock_udp's one socket per port). A registered socket
 * keeps the node from answering Parameter Problem even when its filters
 * then drop the packet.
 *
 * What a socket receives is the payload after the IPv6 header and its
 * extension headers (RIOT's sock_ip and Linux raw IPv6 sockets do the same),
 * and the sender (address, interface). Filters: the bound address (the
 * packet's destination), the bound interface, the connected remote address
 * (and its interface, when given). Counters: TERN_SOCK_IP_DROP_....
 *
 * Protocols the stack handles itself never reach a raw socket, and create
 * refuses them with -EPROTONOSUPPORT instead of opening a socket that would
 * never receive: the extension headers IPv6 processes or discards (0, 43,
 * 44, 50, 51, 60, 135, 139, 140: RFC 8200 §4, RFC 7045), ICMPv6 (58, the
 * IPv6 module's own: NDP, echo, MLD and errors would need a copy of each
 * message for the socket, with its checksum checked first; not done), No
 * Next Header (59: nothing follows) and UDP and TCP (17, 6: their modules
 * take them; use sock_udp). The experimental numbers 253 and 254 (RFC 3692),
 * which IANA also lists as extension header types, are delivered as an
 * upper-layer protocol.
 *
 * Sending builds [NETIF (when an interface is named), IPV6 template (next
 * header = the socket's protocol), payload] and hands it to the IPv6 module
 * (SND), which chooses the source address (RFC 6724) when the socket is
 * bound to ::, the next hop, and resolves the neighbor. IPv6 fills no
 * checksum for these protocols: the payload goes out as given (IPv6 fills
 * the UDP and ICMPv6 checksums only, and neither can be a raw socket's).
 * Payloads longer than the link MTU are fragmented by IPv6 (RFC 8200 §4.5).
 * Sending is asynchronous: a positive return means queued.
 *
 * Limits: see sock.h (a closed socket's module stays attached). No header
 * inclusion (IPV6_HDRINCL), no per-socket hop limit or traffic class, no
 * multicast group membership (binding to a multicast address is refused).
 */
#ifndef TERN_SOCK_IP_H
#define TERN_SOCK_IP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/sock.h"
#include "tern/stack.h"
#include "tern/stats.h"
#include "tern/wire/ipv6_addr.h"

/**
 * Packets a raw socket keeps for tern_sock_ip_recv() (one pointer each).
 * Default 4: each kept packet holds its pktbuf memory (up to a full-MTU
 * packet). A power of two, 1..64.
 */
#ifndef TERN_CONF_SOCK_IP_RING
#define TERN_CONF_SOCK_IP_RING 4
#endif
_Static_assert(TERN_SOCK_POW2_IN(TERN_CONF_SOCK_IP_RING, 1, 64),
               "TERN_CONF_SOCK_IP_RING must be a power of two in [1, 64]");

/**
 * Queue length of a raw socket's module (messages: packets not yet handled).
 * Default 4 (a power of two, 2..256).
 */
#ifndef TERN_CONF_SOCK_IP_QUEUE_LEN
#define TERN_CONF_SOCK_IP_QUEUE_LEN 4
#endif
_Static_assert(TERN_SOCK_POW2_IN(TERN_CONF_SOCK_IP_QUEUE_LEN, 2, 256),
               "TERN_CONF_SOCK_IP_QUEUE_LEN must be a power of two in [2, 256]");

/** Priority of raw socket modules (0 most urgent). Default 6: after IPv6 (4), like UDP sockets. */
#ifndef TERN_CONF_SOCK_IP_PRIORITY
#define TERN_CONF_SOCK_IP_PRIORITY 6
#endif

/** An IPv6 endpoint of a raw socket. */
typedef struct {
    tern_ipv6_addr_t addr; /**< address; :: for any (local) */
    uint16_t netif;        /**< interface index; 0: any */
} tern_sock_ip_ep_t;

typedef struct tern_sock_ip tern_sock_ip_t;

/**
 * Receive callback: called from the socket module's handler (on its thread
 * under the threaded executor) with each packet's payload (what follows the
 * extension headers). @p data is valid during the call only. It may call
 * tern_sock_ip_send(), not a blocking recv.
 */
typedef void (*tern_sock_ip_cb_t)(tern_sock_ip_t *sock, const uint8_t *data, size_t len,
                                  const tern_sock_ip_ep_t *remote, void *arg);

/** Drop counters of a raw socket, indices into tern_sock_ip_t::drops (those of sock.h). */
enum {
    TERN_SOCK_IP_DROP_RING_FULL = TERN_SOCK_DROP_RING_FULL, /**< the receive ring was full */
    TERN_SOCK_IP_DROP_FILTERED = TERN_SOCK_DROP_FILTERED,   /**< not for the bound endpoint, not from the connected */
    TERN_SOCK_IP_DROP_CLOSED = TERN_SOCK_DROP_CLOSED,       /**< arrived after close, or for an earlier protocol */
    TERN_SOCK_IP_DROP_NUMOF = TERN_SOCK_DROP_NUMOF
};

struct tern_ipv6;

/** A raw IPv6 socket. Caller-allocated; zero it (TERN_SOCK_IP_INIT) before the first create. */
struct tern_sock_ip {
    tern_sock_t base;                               /**< module, registration (UNDEF, protocol), ring, callback */
    tern_msg_t queue[TERN_CONF_SOCK_IP_QUEUE_LEN];  /**< its queue storage */
    tern_pkt_t *ring[TERN_CONF_SOCK_IP_RING];       /**< received packets for recv */
    struct tern_ipv6 *ipv6;                         /**< the IPv6 module packets go to */
    tern_sock_ip_ep_t local;                        /**< bound endpoint */
    tern_sock_ip_ep_t remote;                       /**< connected remote (address :: when not connected) */
    uint8_t protocol;                               /**< Next Header value sent and received */
    tern_counter_t drops[TERN_SOCK_IP_DROP_NUMOF];        /**< see TERN_SOCK_IP_DROP_... */
};

/** Initialiser of a socket that was never created. */
#define TERN_SOCK_IP_INIT { 0 }

/**
 * Open @p sock for @p protocol: bind it to @p local (any address and
 * interface when NULL) and optionally connect it to @p remote.
 *
 * A connected socket only receives packets from @p remote's address (and
 * through its interface, when not 0), and sends there by default.
 *
 * @param[out] sock      the socket; zeroed, or created and closed before
 * @param[in]  stack     the node
 * @param[in]  ipv6      the node's IPv6 module: packets go to it, and
 *                       @p local's address must be one of its addresses
 * @param[in]  local     local endpoint, may be NULL
 * @param[in]  remote    remote endpoint, may be NULL; when given, not ::
 * @param[in]  protocol  the Next Header value (IANA protocol number), see the
 *                       file comment for the ones refused
 * @param[in]  flags     reserved, 0
 * @pre not called from two threads for the same socket at once
 * @return 0; -EINVAL for NULL @p sock/@p stack/@p ipv6, nonzero @p flags, a
 *         @p remote with address ::, a multicast local address or a socket
 *         already open; -EPROTONOSUPPORT for a protocol the stack handles
 *         itself; -EADDRNOTAVAIL when @p local's address is not the node's;
 *         -ENODEV when @p local's interface does not exist; or the
 *         executor's errno when the socket cannot be attached (e.g. -ENOSPC,
 *         threads exhausted) or netreg's.
 * @see RFC 8200 §4
 */
int tern_sock_ip_create(tern_sock_ip_t *sock, tern_stack_t *stack, struct tern_ipv6 *ipv6,
                        const tern_sock_ip_ep_t *local, const tern_sock_ip_ep_t *remote, uint8_t protocol,
                        uint16_t flags);

/**
 * Close @p sock: unregister it and release the packets it kept. Packets
 * still in its queue are released (counted in drop_closed) when its handler
 * sees them. NULL and closed sockets are ignored.
 */
void tern_sock_ip_close(tern_sock_ip_t *sock);

/**
 * Send @p len bytes from @p data as the payload of an IPv6 packet with the
 * socket's protocol to @p remote (NULL: the connected remote). The source
 * address is the bound one, or chosen by IPv6 (RFC 6724) when bound to ::.
 * The interface is @p remote's, else the bound one, else the route's
 * (link-local and multicast destinations need one: give it).
 *
 * @return @p len (queued to the IPv6 module; delivery is not confirmed);
 *         -EINVAL for NULL @p sock, NULL @p data with @p len > 0, a remote
 *         with address ::; -EBADF if @p sock is not open; -ENOTCONN with no
 *         @p remote on an unconnected socket; -EMSGSIZE if @p len > 65535
 *         (no jumbograms); -ENOMEM when the packet buffer has no room;
 *         -ENOBUFS when the IPv6 module's queue is full (the packet was
 *         released and counted by netapi).
 */
int tern_sock_ip_send(tern_sock_ip_t *sock, const void *data, size_t len, const tern_sock_ip_ep_t *remote);

/**
 * Take the oldest packet kept for @p sock, waiting up to @p timeout_us (0:
 * do not wait; TERN_SOCK_NO_TIMEOUT: forever), see sock.h for how it waits
 * under each executor.
 *
 * @param[in]  sock        an open socket without a receive callback (with one,
 *                         packets go to the callback and recv times out)
 * @param[out] buf         the payload (what follows the extension headers),
 *                         @p max bytes at most
 * @param[out] remote_out  the sender (address, interface); may be NULL
 * @return the payload length (> 0); -EAGAIN with @p timeout_us 0 and nothing
 *         kept; -ETIMEDOUT when the time passed; -ENOBUFS when the payload
 *         is longer than @p max: it is dropped (its first @p max bytes are in
 *         @p buf, the rest is lost, like RIOT's sock); -EINVAL for NULL
 *         @p sock, NULL @p buf with @p max > 0; -EBADF if @p sock is not open
 *         (or closed while waiting); -EDEADLK when a wait is asked from a
 *         module handler (a callback); -ECANCELED when the executor stopped.
 */
int tern_sock_ip_recv(tern_sock_ip_t *sock, void *buf, size_t max, uint32_t timeout_us,
                      tern_sock_ip_ep_t *remote_out);

/**
 * Set (or with NULL clear) the receive callback. From then on each packet
 * goes to @p cb, called on the socket module's turn (any executor), instead
 * of the ring. Packets already in the ring stay for recv.
 * @return 0; -EINVAL for NULL @p sock or one never created.
 */
int tern_sock_ip_set_cb(tern_sock_ip_t *sock, tern_sock_ip_cb_t cb, void *arg);

/**
 * The bound local endpoint.
 * @return 0; -EINVAL for NULL; -EBADF if not open.
 */
int tern_sock_ip_get_local(const tern_sock_ip_t *sock, tern_sock_ip_ep_t *ep);

#endif /* TERN_SOCK_IP_H */
