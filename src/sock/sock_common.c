/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The socket part every type shares: module, ring, open/close,
 *        blocking recv, callback, sending through IPv6 (see sock.h and
 *        sock_internal.h; the locking rules are in sock_internal.h).
 */
#include <errno.h>
#include <string.h>

#include "sock_internal.h"
#include "tern/netapi.h"
#include "tern/netif.h"
#include "tern/netif_hdr.h"
#include "tern/stats.h"

static const tern_lock_t *sock_lock(const tern_sock_t *sock)
{
    return tern_stack_lock(sock->module.stack);
}

static tern_pktbuf_t *sock_pktbuf(tern_sock_t *sock)
{
    return &sock->module.stack->pktbuf;
}

/* ------------------------------------------------------------ ring (under the lock) */

static bool ring_put(tern_sock_t *sock, tern_pkt_t *pkt)
{
    if (sock->ring_count == sock->ring_len) {
        return false;
    }
    sock->ring[(sock->ring_head + sock->ring_count) & (sock->ring_len - 1u)] = pkt;
    sock->ring_count++;
    return true;
}

static tern_pkt_t *ring_get(tern_sock_t *sock)
{
    if (sock->ring_count == 0) {
        return NULL;
    }
    tern_pkt_t *pkt = sock->ring[sock->ring_head];
    sock->ring_head = (uint8_t)((sock->ring_head + 1u) & (sock->ring_len - 1u));
    sock->ring_count--;
    return pkt;
}

/* ------------------------------------------------------------ module */

/*
 * An ICMPv6 error about a packet the socket sent (RFC 4443 §2.4 (e), from
 * the module below, head snip of type ICMPV6): kept as the pending error
 * (one; a later one overwrites it) for the next recv, and the callback told.
 */
static void sock_error(tern_sock_t *sock, tern_pkt_t *pkt)
{
    sock_ep_t from;
    tern_lock_acquire(sock_lock(sock));
    bool open = sock->open;
    int err = open ? sock->ops->error(sock, pkt, &from) : 0;
    if (err < 0) {
        sock->error = (int16_t)err;
    }
    tern_sock_cb_fn_t cb = sock->cb;
    void *cb_arg = sock->cb_arg;
    tern_lock_release(sock_lock(sock));
    if (err == 0) {
        /* not about this socket's traffic, or arrived after close */
        tern_count(&sock->drops[open ? TERN_SOCK_DROP_FILTERED : TERN_SOCK_DROP_CLOSED]);
    } else if (cb != NULL) {
        sock->ops->call(sock, NULL, cb, cb_arg, &from);
    }
    tern_pktbuf_release(sock_pktbuf(sock), pkt);
}

static void sock_receive(tern_sock_t *sock, tern_pkt_t *pkt)
{
    if (pkt->type == TERN_NETTYPE_ICMPV6 && sock->ops->error != NULL) {
        sock_error(sock, pkt);
        return;
    }
    sock_ep_t from;
    tern_lock_acquire(sock_lock(sock));
    unsigned drop = sock->open ? sock->ops->verdict(sock, pkt, &from) : TERN_SOCK_DROP_CLOSED;
    tern_sock_cb_fn_t cb = sock->cb;
    void *cb_arg = sock->cb_arg;
    if (drop == TERN_SOCK_DROP_NUMOF && cb == NULL) {
        if (ring_put(sock, pkt)) {
            pkt = NULL; /* kept */
        } else {
            drop = TERN_SOCK_DROP_RING_FULL;
        }
    }
    tern_lock_release(sock_lock(sock));
    if (drop != TERN_SOCK_DROP_NUMOF) {
        tern_count(&sock->drops[drop]);
    } else if (pkt != NULL) {
        sock->ops->call(sock, pkt, cb, cb_arg, &from);
    }
    tern_pktbuf_release(sock_pktbuf(sock), pkt);
}

static int sock_handle(tern_module_t *self, tern_msg_t *msg)
{
    tern_sock_t *sock = self->context;
    if (msg->type == TERN_MSG_RCV) {
        sock_receive(sock, msg->content.pkt);
        return 0;
    }
    if (msg->type == TERN_MSG_SND) {
        /* Sockets send through the module below; nothing is sent through them. */
        tern_pktbuf_release(sock_pktbuf(sock), msg->content.pkt);
        tern_count(&sock->drops[TERN_SOCK_DROP_FILTERED]);
        return 0;
    }
    return -ENOTSUP;
}

int sock_attach(tern_sock_t *sock, tern_stack_t *stack, tern_ipv6_t *ipv6, const tern_ipv6_addr_t *addr,
                uint16_t netif, const tern_sock_ops_t *ops, const tern_sock_storage_t *storage)
{
    int res = sock_check_local(stack, ipv6, addr, netif);
    if (res < 0 || (sock->module.exec != NULL && sock->module.stack == stack)) {
        return res; /* a closed socket's module stays attached */
    }
    memset(sock, 0, sizeof(*sock));
    memset(storage->drops, 0, storage->ndrops * sizeof(storage->drops[0]));
    sock->ops = ops;
    sock->ring = storage->ring;
    sock->ring_len = storage->ring_len;
    sock->drops = storage->drops;
    res = tern_module_init(&sock->module, ops->name, ops->priority, sock_handle, sock, storage->queue,
                           storage->queue_len);
    if (res < 0) {
        return res;
    }
    return tern_stack_add_module(stack, &sock->module);
}

int sock_open(tern_sock_t *sock, uint32_t demux_ctx)
{
    tern_stack_t *stack = sock->module.stack;
    tern_lock_acquire(sock_lock(sock));
    sock->ring_head = 0;
    sock->ring_count = 0;
    sock->cb = NULL;
    sock->cb_arg = NULL;
    sock->error = 0;
    sock->open = true;
    tern_lock_release(sock_lock(sock));
    tern_netreg_entry_init(&sock->entry, demux_ctx, &sock->module);
    int res = tern_netreg_register(&stack->netreg, sock->ops->nettype, &sock->entry);
    if (res < 0) {
        tern_lock_acquire(sock_lock(sock));
        sock->open = false;
        tern_lock_release(sock_lock(sock));
    }
    return res;
}

void sock_close(tern_sock_t *sock)
{
    if (sock == NULL || sock->module.stack == NULL) {
        return;
    }
    tern_stack_t *stack = sock->module.stack;
    tern_lock_acquire(sock_lock(sock));
    bool was_open = sock->open;
    sock->open = false;
    sock->cb = NULL;
    tern_lock_release(sock_lock(sock));
    if (was_open) {
        (void)tern_netreg_unregister(&stack->netreg, sock->ops->nettype, &sock->entry);
    }
    /* Closed: sock_receive() keeps nothing more and ring_take() takes
     * nothing, so the ring only empties; its packets are released one at a
     * time, outside the lock (no copy of up to SOCK_RING_MAX pointers on
     * the stack). */
    for (;;) {
        tern_lock_acquire(sock_lock(sock));
        tern_pkt_t *pkt = ring_get(sock);
        tern_lock_release(sock_lock(sock));
        if (pkt == NULL) {
            break;
        }
        tern_pktbuf_release(&stack->pktbuf, pkt);
    }
}

/* ------------------------------------------------------------ receive */

/*
 * Take the pending error, else the oldest kept packet. @return the packet,
 * or NULL; *@p open: the socket is open; *@p error: the error taken, or 0.
 */
static tern_pkt_t *ring_take(tern_sock_t *sock, bool *open, int *error)
{
    tern_lock_acquire(sock_lock(sock));
    *open = sock->open;
    *error = sock->open ? sock->error : 0;
    sock->error = 0; /* reported once, like SO_ERROR */
    tern_pkt_t *pkt = (sock->open && *error == 0) ? ring_get(sock) : NULL;
    tern_lock_release(sock_lock(sock));
    return pkt;
}

/* Copy the payload of @p pkt out and release it. @return as recv. */
static int take_payload(tern_sock_t *sock, tern_pkt_t *pkt, void *buf, size_t max, void *remote_out)
{
    size_t hl = sock->ops->header_len; /* verdict took no shorter packet */
    size_t len = pkt->size - hl;
    int res = (int)len;
    if (len > max) {
        len = max;
        res = -ENOBUFS; /* the rest is lost, like RIOT's sock */
    }
    if (len > 0) {
        memcpy(buf, (const uint8_t *)pkt->data + hl, len);
    }
    if (remote_out != NULL) {
        sock->ops->remote(pkt, remote_out);
    }
    tern_pktbuf_release(sock_pktbuf(sock), pkt);
    return res;
}

int sock_recv(tern_sock_t *sock, void *buf, size_t max, uint32_t timeout_us, void *remote_out)
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
        int error;
        tern_pkt_t *pkt = ring_take(sock, &open, &error);
        if (!open) {
            return -EBADF;
        }
        if (error != 0) {
            return error;
        }
        if (pkt != NULL) {
            return take_payload(sock, pkt, buf, max, remote_out);
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
        if (slice > TERN_CONF_SOCK_RECV_SLICE_US) {
            slice = TERN_CONF_SOCK_RECV_SLICE_US;
        }
        int rc = tern_executor_run_for(ex, slice);
        if (rc < 0) {
            return rc;
        }
    }
}

int sock_usable(const tern_sock_t *sock)
{
    if (sock == NULL) {
        return -EINVAL;
    }
    return sock->open ? 0 : -EBADF;
}

int sock_send_usable(const tern_sock_t *sock, const void *data, size_t len, const void *to)
{
    if (data == NULL && len > 0) {
        return -EINVAL;
    }
    int res = sock_usable(sock);
    if (res == 0 && to == NULL) {
        res = -ENOTCONN;
    }
    return res;
}

int sock_set_cb(tern_sock_t *sock, tern_sock_cb_fn_t cb, void *arg)
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

/* ------------------------------------------------------------ addresses */

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

int sock_check_local(tern_stack_t *stack, tern_ipv6_t *ipv6, const tern_ipv6_addr_t *addr, uint16_t netif)
{
    if (tern_ipv6_addr_is_multicast(addr)) {
        return -EINVAL; /* group membership is not there yet */
    }
    if (netif != 0 && tern_netif_by_index(stack, netif) == NULL) {
        return -ENODEV;
    }
    if (ipv6 != NULL && !tern_ipv6_addr_is_unspecified(addr) && !is_local_address(stack, ipv6, addr, netif)) {
        return -EADDRNOTAVAIL;
    }
    return 0;
}

const uint8_t *sock_received_ipv6_hdr(tern_pkt_t *pkt, uint16_t *in)
{
    /* As the IPv6 module hands a packet up, its header is usually @p pkt
     * (or the snip after its extension headers) and the interface header
     * the snip after it: both looked at in place, else searched for. */
    tern_pkt_t *snip = pkt;
    if (snip == NULL || snip->type != TERN_NETTYPE_IPV6) {
        snip = (snip != NULL && snip->type == TERN_NETTYPE_IPV6_EXT && snip->next != NULL &&
                snip->next->type == TERN_NETTYPE_IPV6)
                   ? snip->next
                   : tern_pkt_search_type(pkt, TERN_NETTYPE_IPV6);
    }
    if (snip == NULL || snip->size < TERN_IPV6_HDR_LEN) {
        return NULL;
    }
    const tern_netif_hdr_t *nh = tern_netif_hdr_received(snip);
    *in = (nh != NULL) ? nh->if_index : 0u;
    return snip->data;
}

int sock_received_ipv6(tern_pkt_t *pkt, tern_ipv6_repr_t *ip, uint16_t *in)
{
    const uint8_t *hdr = sock_received_ipv6_hdr(pkt, in);
    return (hdr == NULL || tern_ipv6_parse(ip, hdr, TERN_IPV6_HDR_LEN) < 0) ? -EINVAL : 0;
}

/* ------------------------------------------------------------ send */

int sock_payload(tern_sock_t *sock, const void *data, size_t len, bool always, tern_pkt_t **out)
{
    *out = NULL;
    if (len == 0 && !always) {
        return 0;
    }
    *out = tern_pktbuf_add(sock_pktbuf(sock), NULL, data, len, TERN_NETTYPE_UNDEF);
    return (*out == NULL) ? -ENOMEM : 0;
}

int sock_send_ipv6(tern_sock_t *sock, tern_module_t *to, tern_pkt_t *upper, size_t len, uint8_t nh,
                   const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst, uint16_t netif)
{
    tern_pktbuf_t *pb = sock_pktbuf(sock);
    /* With an interface: its header and the IPv6 template from one
     * allocation, unzeroed: the template is written whole below, the
     * header zeroed here (no link addresses, what tern_netif_hdr_build()
     * would give) but for the interface. */
    tern_pkt_t *pkt = (netif != 0) ? tern_pktbuf_add_pair_to_fill(pb, sizeof(tern_netif_hdr_t), TERN_NETTYPE_NETIF,
                                                                  TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6)
                                   : tern_pktbuf_add(pb, upper, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6);
    if (pkt == NULL) {
        tern_pktbuf_release(pb, upper);
        return -ENOMEM;
    }
    tern_pkt_t *ip = pkt;
    if (netif != 0) {
        tern_netif_hdr_t *h = pkt->data;
        memset(h, 0, sizeof(*h));
        h->if_index = netif;
        ip = pkt->next;
        ip->next = upper;
    }
    /* A template: IPv6 chooses the source when it is ::, the hop limit when 0. */
    tern_ipv6_repr_t t = { .payload_len = (uint16_t)len, .next_header = nh, .hop_limit = 0,
                           .src = *src, .dst = *dst };
    (void)tern_ipv6_emit(&t, ip->data, ip->size);
    int res = tern_netapi_send(to, pkt);
    if (res == -EINVAL) {
        tern_pktbuf_release(pb, pkt); /* netapi leaves it to us */
    }
    return res;
}
