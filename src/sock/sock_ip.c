/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Raw IPv6 sockets over the IPv6 module: the raw part (protocol
 *        numbers, filters); the rest is sock_common.c's (see sock_internal.h).
 *
 * Read first: RFC 8200 §4 (extension headers, unrecognized Next Header),
 * RFC 7045 §2 (which numbers are extension headers), RFC 3692 (253, 254).
 */
#include <errno.h>
#include <string.h>

#include "sock_internal.h"
#include "tern/sock_ip.h"

/** Extension header snips a received packet may have (after reassembly: two). */
#define EXT_SNIPS_MAX 4u

static tern_sock_ip_t *ip_sock(tern_sock_t *base)
{
    return (tern_sock_ip_t *)base; /* base is the first member */
}

/*
 * Can a packet of @p protocol reach a raw socket? Not when another part of
 * the stack takes it (see sock_ip.h): the extension headers IPv6 walks
 * (RFC 7045 §2) except the experimental 253 and 254 (RFC 3692), which it
 * hands up; ICMPv6 and No Next Header, which it consumes; UDP and TCP,
 * which go to their modules.
 */
static bool protocol_for_raw_sockets(uint8_t protocol)
{
    if (protocol == TERN_IPV6_NH_EXPERIMENT1 || protocol == TERN_IPV6_NH_EXPERIMENT2) {
        return true;
    }
    return !tern_ipv6_is_ext_header(protocol) && protocol != TERN_IPV6_NH_ICMPV6 &&
           protocol != TERN_IPV6_NH_NONE && protocol != TERN_IPV6_NH_UDP && protocol != TERN_IPV6_NH_TCP;
}

/*
 * The Next Header naming the payload of a received [payload, IPV6_EXT...,
 * IPV6, NETIF]: the extension header snips walked in wire order (the list's
 * reverse). @return it, or -1 when the snips do not end on a header boundary.
 */
static int received_protocol(const tern_pkt_t *pkt, const tern_ipv6_repr_t *ip)
{
    const tern_pkt_t *ext[EXT_SNIPS_MAX];
    size_t n = 0;
    for (const tern_pkt_t *s = pkt->next; s != NULL && s->type == TERN_NETTYPE_IPV6_EXT; s = s->next) {
        if (n == EXT_SNIPS_MAX) {
            return -1;
        }
        ext[n++] = s;
    }
    uint8_t nh = ip->next_header;
    while (n-- > 0) {
        tern_ipv6_ext_walk_t walk;
        tern_ipv6_ext_t header;
        tern_ipv6_ext_walk_init(&walk, ext[n]->data, ext[n]->size, nh);
        while (walk.offset < ext[n]->size && tern_ipv6_ext_walk_next(&walk, &header) > 0) {
        }
        if (walk.offset != ext[n]->size) {
            return -1;
        }
        nh = walk.next_header;
    }
    return nh;
}

static unsigned ip_verdict(const tern_sock_t *base, tern_pkt_t *pkt, sock_ep_t *from)
{
    const tern_sock_ip_t *sock = (const tern_sock_ip_t *)base;
    tern_ipv6_repr_t ip;
    uint16_t in;
    if (sock_received_ipv6(pkt, &ip, &in) < 0 || received_protocol(pkt, &ip) != (int)sock->protocol) {
        return TERN_SOCK_DROP_CLOSED; /* also a stale one for an earlier protocol */
    }
    bool connected = !tern_ipv6_addr_is_unspecified(&sock->remote.addr);
    if (!sock_addresses_wanted(&sock->local.addr, sock->local.netif, connected ? &sock->remote.addr : NULL,
                               &ip.src, &ip.dst, in) ||
        (connected && sock->remote.netif != 0 && sock->remote.netif != in)) {
        return TERN_SOCK_DROP_FILTERED;
    }
    memset(&from->ip, 0, sizeof(from->ip));
    from->ip.addr = ip.src;
    from->ip.netif = in;
    return TERN_SOCK_DROP_NUMOF;
}

static void ip_remote(tern_pkt_t *pkt, void *remote)
{
    tern_sock_ip_ep_t *from = remote;
    tern_ipv6_repr_t ip;
    uint16_t in;
    if (sock_received_ipv6(pkt, &ip, &in) == 0) {
        from->addr = ip.src;
        from->netif = in;
    }
}

static void ip_call(tern_sock_t *base, tern_pkt_t *pkt, tern_sock_cb_fn_t cb, void *arg, const sock_ep_t *from)
{
    ((tern_sock_ip_cb_t)cb)(ip_sock(base), pkt->data, pkt->size, &from->ip, arg);
}

static const tern_sock_ops_t ip_ops = {
    .name = "sock_ip",
    .priority = TERN_CONF_SOCK_IP_PRIORITY,
    .nettype = TERN_NETTYPE_UNDEF,
    .header_len = 0, /* the payload is the head snip (sock_ip.h) */
    .verdict = ip_verdict,
    .call = ip_call,
    .remote = ip_remote,
};

int tern_sock_ip_create(tern_sock_ip_t *sock, tern_stack_t *stack, tern_ipv6_t *ipv6, const tern_sock_ip_ep_t *local,
                        const tern_sock_ip_ep_t *remote, uint8_t protocol, uint16_t flags)
{
    if (sock == NULL || stack == NULL || ipv6 == NULL || flags != 0 || sock->base.open ||
        (remote != NULL && tern_ipv6_addr_is_unspecified(&remote->addr))) {
        return -EINVAL;
    }
    if (!protocol_for_raw_sockets(protocol)) {
        return -EPROTONOSUPPORT;
    }
    static const tern_sock_ip_ep_t none;
    const tern_sock_ip_ep_t *l = (local != NULL) ? local : &none;
    const tern_sock_storage_t storage = { sock->queue, TERN_CONF_SOCK_IP_QUEUE_LEN, sock->ring,
                                          TERN_CONF_SOCK_IP_RING, sock->drops, TERN_SOCK_IP_DROP_NUMOF };
    int res = sock_attach(&sock->base, stack, ipv6, &l->addr, l->netif, &ip_ops, &storage);
    if (res < 0) {
        return res;
    }
    tern_lock_acquire(tern_stack_lock(stack));
    sock->ipv6 = ipv6;
    sock->local = *l;
    sock->remote = (remote != NULL) ? *remote : none;
    sock->protocol = protocol;
    tern_lock_release(tern_stack_lock(stack));
    return sock_open(&sock->base, protocol);
}

void tern_sock_ip_close(tern_sock_ip_t *sock)
{
    sock_close((sock != NULL) ? &sock->base : NULL);
}

int tern_sock_ip_send(tern_sock_ip_t *sock, const void *data, size_t len, const tern_sock_ip_ep_t *remote)
{
    const tern_sock_ip_ep_t *to = remote;
    if (to == NULL && sock != NULL && !tern_ipv6_addr_is_unspecified(&sock->remote.addr)) {
        to = &sock->remote;
    }
    int res = sock_send_usable((sock != NULL) ? &sock->base : NULL, data, len, to);
    if (res < 0) {
        return res;
    }
    if (tern_ipv6_addr_is_unspecified(&to->addr)) {
        return -EINVAL;
    }
    if (len > 0xFFFFu) {
        return -EMSGSIZE; /* Payload Length is 16 bits; no jumbograms (RFC 2675) */
    }
    /* IPv6 wants a payload snip after the template, even an empty one. */
    tern_pkt_t *payload;
    if (sock_payload(&sock->base, data, len, true, &payload) < 0) {
        return -ENOMEM;
    }
    uint16_t netif = (to->netif != 0) ? to->netif : sock->local.netif;
    res = sock_send_ipv6(&sock->base, &sock->ipv6->module, payload, len, sock->protocol, &sock->local.addr, &to->addr,
                         netif);
    return (res < 0) ? res : (int)len;
}

int tern_sock_ip_recv(tern_sock_ip_t *sock, void *buf, size_t max, uint32_t timeout_us, tern_sock_ip_ep_t *remote_out)
{
    return sock_recv((sock != NULL) ? &sock->base : NULL, buf, max, timeout_us, remote_out);
}

int tern_sock_ip_set_cb(tern_sock_ip_t *sock, tern_sock_ip_cb_t cb, void *arg)
{
    return sock_set_cb((sock != NULL) ? &sock->base : NULL, (tern_sock_cb_fn_t)cb, arg);
}

int tern_sock_ip_get_local(const tern_sock_ip_t *sock, tern_sock_ip_ep_t *ep)
{
    int res = (ep == NULL) ? -EINVAL : sock_usable((sock != NULL) ? &sock->base : NULL);
    if (res == 0) {
        *ep = sock->local;
    }
    return res;
}
