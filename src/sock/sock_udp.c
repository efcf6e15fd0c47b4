/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief UDP sockets over the UDP module (see sock_udp.h for the waiting model).
 *
 * Threads: the socket's handler (its module thread under the threaded
 * executor) and the application (create/close/send/recv) share the ring,
 * the open flag and the callback; they are touched under the stack's lock.
 * pktbuf calls take that same (non-recursive) lock themselves, so packets are
 * released only after it is given back.
 */
#include <errno.h>
#include <string.h>

#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/netif.h"
#include "tern/netif_hdr.h"
#include "tern/sock_udp.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/udp.h"

#define RING_MASK ((unsigned)TERN_CONF_SOCK_UDP_RING - 1u)

static const tern_lock_t *sock_lock(const tern_sock_udp_t *sock)
{
    return tern_stack_lock(sock->module.stack);
}

static tern_pktbuf_t *sock_pktbuf(tern_sock_udp_t *sock)
{
    return &sock->module.stack->pktbuf;
}

/* The sender of a received [payload, UDP, IPV6_EXT?, IPV6, NETIF], and where it went. */
static int datagram_endpoints(tern_pkt_t *pkt, tern_sock_udp_ep_t *remote, tern_ipv6_addr_t *dst,
                              uint16_t *dst_port)
{
    tern_pkt_t *u = tern_pkt_search_type(pkt, TERN_NETTYPE_UDP);
    tern_pkt_t *i = tern_pkt_search_type(pkt, TERN_NETTYPE_IPV6);
    tern_udp_repr_t ur;
    tern_ipv6_repr_t ir;
    if (u == NULL || i == NULL || u->size < TERN_UDP_HDR_LEN ||
        tern_udp_parse(&ur, u->data, TERN_UDP_HDR_LEN + (size_t)pkt->size) < 0 ||
        tern_ipv6_parse(&ir, i->data, i->size) < 0) {
        return -EINVAL;
    }
    const tern_netif_hdr_t *nh = tern_netif_hdr_get(pkt);
    remote->addr = ir.src;
    remote->port = ur.src_port;
    remote->netif = (nh != NULL) ? nh->if_index : 0u;
    *dst = ir.dst;
    *dst_port = ur.dst_port;
    return 0;
}

static bool wanted(const tern_sock_udp_ep_t *local, const tern_sock_udp_ep_t *connected,
                   const tern_sock_udp_ep_t *from, const tern_ipv6_addr_t *dst)
{
    if (!tern_ipv6_addr_is_unspecified(&local->addr) && !tern_ipv6_addr_equal(&local->addr, dst)) {
        return false;
    }
    if (local->netif != 0 && local->netif != from->netif) {
        return false;
    }
    if (connected->port != 0 &&
        (connected->port != from->port ||
         (!tern_ipv6_addr_is_unspecified(&connected->addr) && !tern_ipv6_addr_equal(&connected->addr, &from->addr)))) {
        return false;
    }
    return true;
}

static void sock_receive(tern_sock_udp_t *sock, tern_pkt_t *pkt)
{
    tern_sock_udp_ep_t from;
    tern_ipv6_addr_t dst;
    uint16_t dst_port = 0;
    int ok = datagram_endpoints(pkt, &from, &dst, &dst_port);
    tern_lock_acquire(sock_lock(sock));
    bool open = sock->open && ok == 0 && dst_port == sock->local.port;
    tern_sock_udp_ep_t local = sock->local;
    tern_sock_udp_ep_t connected = sock->remote;
    tern_sock_udp_cb_t cb = sock->cb;
    void *cb_arg = sock->cb_arg;
    unsigned drop = TERN_SOCK_UDP_DROP_NUMOF;
    if (!open) {
        drop = TERN_SOCK_UDP_DROP_CLOSED; /* also a stale one for a previous binding */
    } else if (!wanted(&local, &connected, &from, &dst)) {
        drop = TERN_SOCK_UDP_DROP_FILTERED;
    } else if (cb == NULL) {
        if (sock->ring_count == TERN_CONF_SOCK_UDP_RING) {
            drop = TERN_SOCK_UDP_DROP_RING_FULL;
        } else {
            sock->ring[(sock->ring_head + sock->ring_count) & RING_MASK] = pkt;
            sock->ring_count++;
            pkt = NULL; /* kept */
        }
    }
    tern_lock_release(sock_lock(sock));
    if (drop != TERN_SOCK_UDP_DROP_NUMOF) {
        tern_count(&sock->drops[drop]);
    } else if (pkt != NULL) {
        const uint8_t *data = (pkt->size > 0) ? (const uint8_t *)pkt->data : (const uint8_t *)"";
        cb(sock, data, pkt->size, &from, cb_arg);
    }
    tern_pktbuf_release(sock_pktbuf(sock), pkt);
}

static int sock_handle(tern_module_t *self, tern_msg_t *msg)
{
    tern_sock_udp_t *sock = self->context;
    if (msg->type == TERN_MSG_RCV) {
        sock_receive(sock, msg->content.pkt);
        return 0;
    }
    if (msg->type == TERN_MSG_SND) {
        /* Sockets send through the UDP module; nothing is sent through them. */
        tern_pktbuf_release(sock_pktbuf(sock), msg->content.pkt);
        tern_count(&sock->drops[TERN_SOCK_UDP_DROP_FILTERED]);
        return 0;
    }
    return -ENOTSUP;
}

/* Is @p addr one of the node's addresses (on @p netif, or any when 0)? */
static bool is_local_address(tern_stack_t *stack, tern_ipv6_t *ipv6, const tern_ipv6_addr_t *addr, uint16_t netif)
{
    for (tern_netif_t *n = stack->netifs; n != NULL; n = n->next) {
        tern_ipv6_addr_list_t list;
        if ((netif != 0 && n->index != netif) ||
            tern_netapi_get(&ipv6->module, TERN_NETOPT_IPV6_ADDRS, n->index, &list, sizeof(list)) < 0) {
            continue;
        }
        for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
            if (list.addrs[i].used && tern_ipv6_addr_equal(&list.addrs[i].addr, addr)) {
                return true;
            }
        }
    }
    return false;
}

static bool netif_exists(tern_stack_t *stack, uint16_t index)
{
    for (tern_netif_t *n = stack->netifs; n != NULL; n = n->next) {
        if (n->index == index) {
            return true;
        }
    }
    return false;
}

int tern_sock_udp_create(tern_sock_udp_t *sock, tern_stack_t *stack, tern_ipv6_t *ipv6, tern_udp_t *udp,
                         const tern_sock_udp_ep_t *local, const tern_sock_udp_ep_t *remote, uint16_t flags)
{
    if (sock == NULL || stack == NULL || udp == NULL || flags != 0 || sock->open ||
        (remote != NULL && (remote->port == 0 || tern_ipv6_addr_is_unspecified(&remote->addr)))) {
        return -EINVAL;
    }
    tern_sock_udp_ep_t l;
    memset(&l, 0, sizeof(l));
    if (local != NULL) {
        l = *local;
    }
    if (tern_ipv6_addr_is_multicast(&l.addr)) {
        return -EINVAL; /* group membership is not there yet */
    }
    if (l.netif != 0 && !netif_exists(stack, l.netif)) {
        return -ENODEV;
    }
    if (ipv6 != NULL && !tern_ipv6_addr_is_unspecified(&l.addr) && !is_local_address(stack, ipv6, &l.addr, l.netif)) {
        return -EADDRNOTAVAIL;
    }
    /* The module: set up once; a closed socket's module stays attached. */
    bool attached = sock->module.exec != NULL && sock->module.stack == stack;
    if (!attached) {
        memset(sock, 0, sizeof(*sock));
        int res = tern_module_init(&sock->module, "sock_udp", TERN_CONF_SOCK_UDP_PRIORITY, sock_handle, sock,
                                   sock->queue, TERN_CONF_SOCK_UDP_QUEUE_LEN);
        if (res < 0) {
            return res;
        }
        res = tern_stack_add_module(stack, &sock->module);
        if (res < 0) {
            return res;
        }
    }
    if (l.port == 0) {
        int port = tern_udp_ephemeral_port(udp);
        if (port < 0) {
            return port;
        }
        l.port = (uint16_t)port;
    } else if (tern_udp_port_users(stack, l.port) > 0) {
        return -EADDRINUSE;
    }
    tern_lock_acquire(tern_stack_lock(stack));
    sock->udp = udp;
    sock->local = l;
    memset(&sock->remote, 0, sizeof(sock->remote));
    if (remote != NULL) {
        sock->remote = *remote;
    }
    sock->ring_head = 0;
    sock->ring_count = 0;
    sock->cb = NULL;
    sock->cb_arg = NULL;
    sock->open = true;
    tern_lock_release(tern_stack_lock(stack));
    tern_netreg_entry_init(&sock->entry, l.port, &sock->module);
    int res = tern_netreg_register(&stack->netreg, TERN_NETTYPE_UDP, &sock->entry);
    if (res < 0) {
        tern_lock_acquire(tern_stack_lock(stack));
        sock->open = false;
        tern_lock_release(tern_stack_lock(stack));
    }
    return res;
}

void tern_sock_udp_close(tern_sock_udp_t *sock)
{
    if (sock == NULL || sock->module.stack == NULL) {
        return;
    }
    tern_stack_t *stack = sock->module.stack;
    tern_pkt_t *kept[TERN_CONF_SOCK_UDP_RING];
    unsigned n = 0;
    tern_lock_acquire(sock_lock(sock));
    bool was_open = sock->open;
    sock->open = false;
    while (sock->ring_count > 0) {
        kept[n++] = sock->ring[sock->ring_head];
        sock->ring_head = (uint8_t)((sock->ring_head + 1u) & RING_MASK);
        sock->ring_count--;
    }
    sock->cb = NULL;
    tern_lock_release(sock_lock(sock));
    if (was_open) {
        (void)tern_netreg_unregister(&stack->netreg, TERN_NETTYPE_UDP, &sock->entry);
    }
    for (unsigned i = 0; i < n; i++) {
        tern_pktbuf_release(&stack->pktbuf, kept[i]);
    }
}

int tern_sock_udp_send(tern_sock_udp_t *sock, const void *data, size_t len, const tern_sock_udp_ep_t *remote)
{
    if (sock == NULL || (data == NULL && len > 0)) {
        return -EINVAL;
    }
    if (!sock->open) {
        return -EBADF;
    }
    tern_sock_udp_ep_t to;
    if (remote != NULL) {
        to = *remote;
    } else if (sock->remote.port != 0) {
        to = sock->remote;
    } else {
        return -ENOTCONN;
    }
    if (to.port == 0 || tern_ipv6_addr_is_unspecified(&to.addr)) {
        return -EINVAL;
    }
    if (len > 0xFFFFu - TERN_UDP_HDR_LEN) {
        return -EMSGSIZE;
    }
    tern_pktbuf_t *pb = sock_pktbuf(sock);
    tern_pkt_t *payload = NULL;
    if (len > 0) {
        payload = tern_pktbuf_add(pb, NULL, data, len, TERN_NETTYPE_UNDEF);
        if (payload == NULL) {
            return -ENOMEM;
        }
    }
    tern_pkt_t *hdr = tern_pktbuf_add(pb, payload, NULL, TERN_UDP_HDR_LEN, TERN_NETTYPE_UDP);
    if (hdr == NULL) {
        tern_pktbuf_release(pb, payload);
        return -ENOMEM;
    }
    tern_udp_repr_t u = { .src_port = sock->local.port, .dst_port = to.port,
                          .length = (uint16_t)(TERN_UDP_HDR_LEN + len), .checksum = 0 };
    (void)tern_udp_emit(&u, hdr->data, hdr->size);
    tern_pkt_t *ip = tern_pktbuf_add(pb, hdr, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6);
    if (ip == NULL) {
        tern_pktbuf_release(pb, hdr);
        return -ENOMEM;
    }
    /* A template: IPv6 chooses the source when it is ::, the hop limit when 0. */
    tern_ipv6_repr_t t = { .payload_len = u.length, .next_header = TERN_IPV6_NH_UDP, .hop_limit = 0,
                           .src = sock->local.addr, .dst = to.addr };
    (void)tern_ipv6_emit(&t, ip->data, ip->size);
    tern_pkt_t *pkt = ip;
    uint16_t netif = (to.netif != 0) ? to.netif : sock->local.netif;
    if (netif != 0) {
        pkt = tern_netif_hdr_build(pb, ip, NULL, 0, NULL, 0);
        if (pkt == NULL) {
            tern_pktbuf_release(pb, ip);
            return -ENOMEM;
        }
        ((tern_netif_hdr_t *)pkt->data)->if_index = netif;
    }
    int res = tern_netapi_send(&sock->udp->module, pkt);
    if (res == -EINVAL) {
        tern_pktbuf_release(pb, pkt); /* netapi leaves it to us */
    }
    return (res < 0) ? res : (int)len;
}

/* Take the oldest kept datagram. @return it, or NULL; *@p open: the socket is open. */
static tern_pkt_t *ring_take(tern_sock_udp_t *sock, bool *open)
{
    tern_pkt_t *pkt = NULL;
    tern_lock_acquire(sock_lock(sock));
    *open = sock->open;
    if (sock->open && sock->ring_count > 0) {
        pkt = sock->ring[sock->ring_head];
        sock->ring_head = (uint8_t)((sock->ring_head + 1u) & RING_MASK);
        sock->ring_count--;
    }
    tern_lock_release(sock_lock(sock));
    return pkt;
}

int tern_sock_udp_recv(tern_sock_udp_t *sock, void *buf, size_t max, uint32_t timeout_us,
                       tern_sock_udp_ep_t *remote_out)
{
    if (sock == NULL || (buf == NULL && max > 0) || sock->module.stack == NULL) {
        return -EINVAL;
    }
    tern_executor_t *ex = sock->module.stack->exec;
    uint64_t deadline = UINT64_MAX;
    if (timeout_us != TERN_SOCK_NO_TIMEOUT) {
        deadline = tern_executor_now(ex) + timeout_us;
    }
    for (;;) {
        bool open;
        tern_pkt_t *pkt = ring_take(sock, &open);
        if (!open) {
            return -EBADF;
        }
        if (pkt != NULL) {
            tern_sock_udp_ep_t from;
            tern_ipv6_addr_t dst;
            uint16_t dst_port;
            size_t len = pkt->size;
            int res = (int)len;
            if (len > max) {
                len = max;
                res = -ENOBUFS;
            }
            if (len > 0) {
                memcpy(buf, pkt->data, len);
            }
            if (remote_out != NULL && datagram_endpoints(pkt, &from, &dst, &dst_port) == 0) {
                *remote_out = from;
            }
            tern_pktbuf_release(sock_pktbuf(sock), pkt);
            return res;
        }
        if (timeout_us == 0) {
            return -EAGAIN;
        }
        uint64_t now = tern_executor_now(ex);
        if (now >= deadline) {
            return -ETIMEDOUT;
        }
        if (ex->ops->current(ex) != NULL) {
            return -EDEADLK; /* a handler cannot wait for the stack it is part of */
        }
        uint64_t slice = deadline - now;
        if (slice > TERN_CONF_SOCK_UDP_RECV_SLICE_US) {
            slice = TERN_CONF_SOCK_UDP_RECV_SLICE_US;
        }
        int rc = tern_executor_run_for(ex, slice);
        if (rc < 0) {
            return rc;
        }
    }
}

int tern_sock_udp_set_cb(tern_sock_udp_t *sock, tern_sock_udp_cb_t cb, void *arg)
{
    if (sock == NULL || sock->module.stack == NULL) {
        return -EINVAL;
    }
    tern_lock_acquire(sock_lock(sock));
    sock->cb = cb;
    sock->cb_arg = arg;
    tern_lock_release(sock_lock(sock));
    return 0;
}

int tern_sock_udp_get_local(const tern_sock_udp_t *sock, tern_sock_udp_ep_t *ep)
{
    if (sock == NULL || ep == NULL) {
        return -EINVAL;
    }
    if (!sock->open) {
        return -EBADF;
    }
    *ep = sock->local;
    return 0;
}
