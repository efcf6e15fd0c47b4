/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief UDP sockets over the UDP module: the UDP part (ports, the UDP
 *        header); the rest is sock_common.c's (see sock_internal.h).
 */
#include <errno.h>
#include <string.h>

#include "sock_internal.h"
#include "tern/sock_udp.h"
#include "tern/wire/udp.h"

static tern_sock_udp_t *udp_sock(tern_sock_t *base)
{
    return (tern_sock_udp_t *)base; /* base is the first member */
}

/*
 * The sender of a received [datagram (UDP), IPV6_EXT?, IPV6, NETIF], and
 * where it went, read in place: the UDP and IPv6 modules checked both
 * headers (udp.h), so only the fields wanted are read.
 */
static int datagram_endpoints(tern_pkt_t *pkt, tern_sock_udp_ep_t *remote, tern_ipv6_addr_t *dst,
                              uint16_t *dst_port)
{
    const uint8_t *ip;
    if (pkt->type != TERN_NETTYPE_UDP || pkt->size < TERN_UDP_HDR_LEN ||
        (ip = sock_received_ipv6_hdr(pkt->next, &remote->netif)) == NULL) {
        return -EINVAL;
    }
    tern_udp_ports_get(pkt->data, &remote->port, dst_port);
    tern_ipv6_addrs_get(ip, &remote->addr, dst);
    return 0;
}

static unsigned udp_verdict(const tern_sock_t *base, tern_pkt_t *pkt, sock_ep_t *ep)
{
    const tern_sock_udp_t *sock = (const tern_sock_udp_t *)base;
    tern_sock_udp_ep_t *from = &ep->udp;
    tern_ipv6_addr_t dst;
    uint16_t dst_port = 0;
    if (datagram_endpoints(pkt, from, &dst, &dst_port) < 0 || dst_port != sock->local.port) {
        return TERN_SOCK_DROP_CLOSED; /* also a stale one for a previous binding */
    }
    const tern_sock_udp_ep_t *connected = &sock->remote;
    if (!sock_addresses_wanted(&sock->local.addr, sock->local.netif,
                               (connected->port != 0) ? &connected->addr : NULL, &from->addr, &dst, from->netif) ||
        (connected->port != 0 && connected->port != from->port)) {
        return TERN_SOCK_DROP_FILTERED;
    }
    return TERN_SOCK_DROP_NUMOF;
}

static int udp_error(const tern_sock_t *base, tern_pkt_t *pkt, sock_ep_t *ep)
{
    const tern_sock_udp_t *sock = (const tern_sock_udp_t *)base;
    tern_udp_icmp_error_t e;
    if (tern_udp_icmp_error_parse(pkt->data, pkt->size, &e) < 0 || e.local_port != sock->local.port ||
        (!tern_ipv6_addr_is_unspecified(&sock->local.addr) &&
         !tern_ipv6_addr_equal(&sock->local.addr, &e.local_addr))) {
        return 0;
    }
    /* A connected socket hears only of datagrams to its remote (as Linux). */
    const tern_sock_udp_ep_t *connected = &sock->remote;
    if (connected->port != 0 &&
        (connected->port != e.remote_port || !tern_ipv6_addr_equal(&connected->addr, &e.remote_addr))) {
        return 0;
    }
    ep->udp.addr = e.remote_addr;
    ep->udp.port = e.remote_port;
    ep->udp.netif = 0;
    (void)sock_received_ipv6_hdr(pkt->next, &ep->udp.netif);
    return e.error;
}

static void udp_remote(tern_pkt_t *pkt, void *remote)
{
    tern_sock_udp_ep_t from;
    tern_ipv6_addr_t dst;
    uint16_t dst_port;
    if (datagram_endpoints(pkt, &from, &dst, &dst_port) == 0) {
        *(tern_sock_udp_ep_t *)remote = from;
    }
}

static void udp_call(tern_sock_t *base, tern_pkt_t *pkt, tern_sock_cb_fn_t cb, void *arg, const sock_ep_t *from)
{
    if (pkt == NULL) {
        /* An ICMPv6 error is pending (udp_error): data NULL, recv returns it. */
        ((tern_sock_udp_cb_t)cb)(udp_sock(base), NULL, 0, &from->udp, arg);
        return;
    }
    /* The payload follows the header in the same snip (verdict checked its 8 bytes). */
    const uint8_t *data = (const uint8_t *)pkt->data + TERN_UDP_HDR_LEN;
    ((tern_sock_udp_cb_t)cb)(udp_sock(base), data, pkt->size - (size_t)TERN_UDP_HDR_LEN, &from->udp, arg);
}

static const tern_sock_ops_t udp_ops = {
    .name = "sock_udp",
    .priority = TERN_CONF_SOCK_UDP_PRIORITY,
    .nettype = TERN_NETTYPE_UDP,
    .header_len = TERN_UDP_HDR_LEN,
    .verdict = udp_verdict,
    .call = udp_call,
    .error = udp_error,
    .remote = udp_remote,
};

int tern_sock_udp_create(tern_sock_udp_t *sock, tern_stack_t *stack, tern_ipv6_t *ipv6, tern_udp_t *udp,
                         const tern_sock_udp_ep_t *local, const tern_sock_udp_ep_t *remote, uint16_t flags)
{
    if (sock == NULL || stack == NULL || udp == NULL || flags != 0 || sock->base.open ||
        (remote != NULL && (remote->port == 0 || tern_ipv6_addr_is_unspecified(&remote->addr)))) {
        return -EINVAL;
    }
    static const tern_sock_udp_ep_t none;
    tern_sock_udp_ep_t l = (local != NULL) ? *local : none;
    const tern_sock_storage_t storage = { sock->queue, TERN_CONF_SOCK_UDP_QUEUE_LEN, sock->ring,
                                          TERN_CONF_SOCK_UDP_RING, sock->drops, TERN_SOCK_UDP_DROP_NUMOF };
    int res = sock_attach(&sock->base, stack, ipv6, &l.addr, l.netif, &udp_ops, &storage);
    if (res < 0) {
        return res;
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
    sock->remote = (remote != NULL) ? *remote : none;
    tern_lock_release(tern_stack_lock(stack));
    return sock_open(&sock->base, l.port);
}

void tern_sock_udp_close(tern_sock_udp_t *sock)
{
    sock_close((sock != NULL) ? &sock->base : NULL);
}

int tern_sock_udp_send(tern_sock_udp_t *sock, const void *data, size_t len, const tern_sock_udp_ep_t *remote)
{
    const tern_sock_udp_ep_t *to = remote;
    if (to == NULL && sock != NULL && sock->remote.port != 0) {
        to = &sock->remote;
    }
    int res = sock_send_usable((sock != NULL) ? &sock->base : NULL, data, len, to);
    if (res < 0) {
        return res;
    }
    if (to->port == 0 || tern_ipv6_addr_is_unspecified(&to->addr)) {
        return -EINVAL;
    }
    if (len > 0xFFFFu - TERN_UDP_HDR_LEN) {
        return -EMSGSIZE;
    }
    /* [UDP, payload] from one allocation; an empty payload has no snip.
     * Both are written whole below (the payload copied in, every header
     * byte by tern_udp_emit()) before anyone sees them: not zeroed first. */
    tern_pktbuf_t *pb = &sock->base.module.stack->pktbuf;
    tern_pkt_t *hdr = (len > 0) ? tern_pktbuf_add_pair_to_fill(pb, TERN_UDP_HDR_LEN, TERN_NETTYPE_UDP, len,
                                                               TERN_NETTYPE_UNDEF)
                                : tern_pktbuf_add(pb, NULL, NULL, TERN_UDP_HDR_LEN, TERN_NETTYPE_UDP);
    if (hdr == NULL) {
        return -ENOMEM;
    }
    if (len > 0) {
        memcpy(hdr->next->data, data, len);
    }
    tern_udp_repr_t u = { .src_port = sock->local.port, .dst_port = to->port,
                          .length = (uint16_t)(TERN_UDP_HDR_LEN + len), .checksum = 0 };
    (void)tern_udp_emit(&u, hdr->data, hdr->size);
    uint16_t netif = (to->netif != 0) ? to->netif : sock->local.netif;
    res = sock_send_ipv6(&sock->base, &sock->udp->module, hdr, TERN_UDP_HDR_LEN + len, TERN_IPV6_NH_UDP,
                         &sock->local.addr, &to->addr, netif);
    return (res < 0) ? res : (int)len;
}

int tern_sock_udp_recv(tern_sock_udp_t *sock, void *buf, size_t max, uint32_t timeout_us,
                       tern_sock_udp_ep_t *remote_out)
{
    return sock_recv((sock != NULL) ? &sock->base : NULL, buf, max, timeout_us, remote_out);
}

int tern_sock_udp_set_cb(tern_sock_udp_t *sock, tern_sock_udp_cb_t cb, void *arg)
{
    return sock_set_cb((sock != NULL) ? &sock->base : NULL, (tern_sock_cb_fn_t)cb, arg);
}

int tern_sock_udp_get_local(const tern_sock_udp_t *sock, tern_sock_udp_ep_t *ep)
{
    int res = (ep == NULL) ? -EINVAL : sock_usable((sock != NULL) ? &sock->base : NULL);
    if (res == 0) {
        *ep = sock->local;
    }
    return res;
}
