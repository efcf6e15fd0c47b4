/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Ethernet link layer (RFC 894, RFC 2464; receive as thesis 3.4.1).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/link/ethernet.h"
#include "tern/netapi.h"

static const uint8_t broadcast_addr[TERN_ETHERNET_ADDR_LEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* ------------------------------------------------------------ filter */

void tern_ethernet_link_init(tern_ethernet_link_t *eth)
{
    if (eth != NULL) {
        memset(eth, 0, sizeof(*eth));
    }
}

/** Index of @p group in the table, or -1. */
static int group_find(const tern_ethernet_link_t *eth, const uint8_t group[TERN_ETHERNET_ADDR_LEN])
{
    for (int i = 0; i < TERN_CONF_ETHERNET_MCAST_MAX; i++) {
        if (eth->users[i] != 0 && memcmp(eth->groups[i], group, TERN_ETHERNET_ADDR_LEN) == 0) {
            return i;
        }
    }
    return -1;
}

bool tern_ethernet_link_is_joined(const tern_ethernet_link_t *eth,
                                  const uint8_t group[TERN_ETHERNET_ADDR_LEN])
{
    return eth != NULL && group != NULL && group_find(eth, group) >= 0;
}

int tern_ethernet_link_join(tern_ethernet_link_t *eth, const uint8_t group[TERN_ETHERNET_ADDR_LEN])
{
    if (eth == NULL || group == NULL || !tern_ethernet_addr_is_multicast(group) ||
        tern_ethernet_addr_is_broadcast(group)) {
        return -EINVAL;
    }
    int i = group_find(eth, group);
    if (i >= 0) {
        if (eth->users[i] == UINT8_MAX) {
            return -EOVERFLOW;
        }
        eth->users[i]++;
        return 0;
    }
    for (i = 0; i < TERN_CONF_ETHERNET_MCAST_MAX; i++) {
        if (eth->users[i] == 0) {
            memcpy(eth->groups[i], group, TERN_ETHERNET_ADDR_LEN);
            eth->users[i] = 1;
            return 0;
        }
    }
    return -ENOSPC;
}

int tern_ethernet_link_leave(tern_ethernet_link_t *eth, const uint8_t group[TERN_ETHERNET_ADDR_LEN])
{
    if (eth == NULL || group == NULL) {
        return -EINVAL;
    }
    int i = group_find(eth, group);
    if (i < 0) {
        return -ENOENT;
    }
    eth->users[i]--;
    return 0;
}

/** MAC group of IPv6 multicast @p group. @return 0; -EINVAL if not ff00::/8. */
static int ipv6_group_mac(const tern_ipv6_addr_t *group, uint8_t mac[TERN_ETHERNET_ADDR_LEN])
{
    if (group == NULL || group->u8[0] != 0xff) {
        return -EINVAL;
    }
    tern_ethernet_addr_from_ipv6_multicast(mac, group);
    return 0;
}

int tern_ethernet_link_join_ipv6(tern_ethernet_link_t *eth, const tern_ipv6_addr_t *group)
{
    uint8_t mac[TERN_ETHERNET_ADDR_LEN];
    int res = ipv6_group_mac(group, mac);
    return (res < 0) ? res : tern_ethernet_link_join(eth, mac);
}

int tern_ethernet_link_leave_ipv6(tern_ethernet_link_t *eth, const tern_ipv6_addr_t *group)
{
    uint8_t mac[TERN_ETHERNET_ADDR_LEN];
    int res = ipv6_group_mac(group, mac);
    return (res < 0) ? res : tern_ethernet_link_leave(eth, mac);
}

/**
 * Is a frame to @p dst for @p netif? Broadcast always; a group when joined;
 * unicast when it is the interface's MAC; anything when promiscuous.
 */
static bool frame_is_for_us(const tern_netif_t *netif, const uint8_t dst[TERN_ETHERNET_ADDR_LEN])
{
    const tern_ethernet_link_t *eth = netif->link_ctx;
    if (eth != NULL && eth->promiscuous) {
        return true;
    }
    if (tern_ethernet_addr_is_broadcast(dst)) {
        return true;
    }
    if (tern_ethernet_addr_is_multicast(dst)) {
        return eth != NULL && group_find(eth, dst) >= 0;
    }
    return netif->l2addr_len == TERN_ETHERNET_ADDR_LEN &&
           memcmp(netif->l2addr, dst, TERN_ETHERNET_ADDR_LEN) == 0;
}

/* ------------------------------------------------------------ receive */

static int ethernet_recv(tern_netif_t *netif, tern_pkt_t **pkt, tern_nettype_t *type, uint32_t *demux)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    tern_pkt_t *frame = *pkt;
    tern_ethernet_repr_t repr;
    if (tern_ethernet_parse(&repr, frame->data, frame->size) < 0 ||
        tern_ethernet_addr_is_multicast(repr.src)) {
        return -EBADMSG; /* runt, 802.3 length frame, or a group as source */
    }
    if (!frame_is_for_us(netif, repr.dst)) {
        return -EADDRNOTAVAIL;
    }
    if (repr.ethertype != TERN_ETHERTYPE_IPV6) {
        return -EPROTONOSUPPORT;
    }
    if (frame->size <= TERN_ETHERNET_HDR_LEN) {
        return -EBADMSG; /* a header and nothing to hand up */
    }
    tern_netif_hdr_t *nh = tern_netif_hdr_get(frame);
    if (nh == NULL) {
        return -EINVAL;
    }
    /* Thesis 3.4.1: mark the link header off the frame ([payload, ETHERNET,
     * NETIF]), then drop it: everything it said is in the interface header. */
    tern_pkt_t *hdr = tern_pktbuf_mark(pb, frame, TERN_ETHERNET_HDR_LEN, TERN_NETTYPE_ETHERNET);
    if (hdr == NULL) {
        return -ENOMEM;
    }
    frame = tern_pktbuf_remove_snip(pb, frame, hdr);

    memcpy(nh->src, repr.src, TERN_ETHERNET_ADDR_LEN);
    nh->src_len = TERN_ETHERNET_ADDR_LEN;
    memcpy(nh->dst, repr.dst, TERN_ETHERNET_ADDR_LEN);
    nh->dst_len = TERN_ETHERNET_ADDR_LEN;
    if (tern_ethernet_addr_is_broadcast(repr.dst)) {
        nh->flags |= TERN_NETIF_HDR_FLAG_BROADCAST;
    } else if (tern_ethernet_addr_is_multicast(repr.dst)) {
        nh->flags |= TERN_NETIF_HDR_FLAG_MULTICAST;
    }
    frame->type = TERN_NETTYPE_IPV6;
    *pkt = frame;
    *type = TERN_NETTYPE_IPV6;
    *demux = TERN_NETREG_DEMUX_CTX_ALL;
    return 0;
}

/* ------------------------------------------------------------ send */

/**
 * Append zeros to @p pkt so that it is TERN_ETHERNET_MIN_FRAME long. The last
 * snip's next changes, so the path to it is made private first (copies only
 * snips that are shared, of a frame shorter than 60 bytes).
 */
static int pad_frame(tern_pktbuf_t *pb, tern_pkt_t *pkt, size_t len)
{
    tern_pkt_t *last = pkt; /* the header: private */
    while (last->next != NULL) {
        tern_pkt_t *own = tern_pktbuf_start_write(pb, last->next);
        if (own == NULL) {
            return -ENOMEM;
        }
        last->next = own;
        last = own;
    }
    tern_pkt_t *pad = tern_pktbuf_add(pb, NULL, NULL, TERN_ETHERNET_MIN_FRAME - len, TERN_NETTYPE_UNDEF);
    if (pad == NULL) {
        return -ENOMEM;
    }
    last->next = pad;
    return 0;
}

static int ethernet_send(tern_netif_t *netif, tern_pkt_t **pkt)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    tern_pkt_t *netif_snip = *pkt;
    const tern_netif_hdr_t *nh = netif_snip->data;
    if (nh == NULL || netif_snip->size < sizeof(*nh) ||
        netif->l2addr_len != TERN_ETHERNET_ADDR_LEN) {
        return -EINVAL;
    }
    tern_ethernet_repr_t repr;
    if ((nh->flags & TERN_NETIF_HDR_FLAG_BROADCAST) != 0) {
        memcpy(repr.dst, broadcast_addr, TERN_ETHERNET_ADDR_LEN);
    } else if (nh->dst_len == TERN_ETHERNET_ADDR_LEN) {
        bool group = tern_ethernet_addr_is_multicast(nh->dst);
        if (((nh->flags & TERN_NETIF_HDR_FLAG_MULTICAST) != 0) != group) {
            return -EINVAL; /* the flag and the address disagree */
        }
        memcpy(repr.dst, nh->dst, TERN_ETHERNET_ADDR_LEN);
    } else {
        return -EINVAL; /* no destination */
    }
    memcpy(repr.src, netif->l2addr, TERN_ETHERNET_ADDR_LEN);
    const tern_pkt_t *payload = netif_snip->next;
    repr.ethertype = (payload != NULL && payload->type == TERN_NETTYPE_IPV6)
                         ? (uint16_t)TERN_ETHERTYPE_IPV6
                         : (uint16_t)TERN_ETHERTYPE_LOCAL_EXPERIMENTAL;

    tern_pkt_t *hdr = tern_pktbuf_add(pb, NULL, NULL, TERN_ETHERNET_HDR_LEN, TERN_NETTYPE_ETHERNET);
    if (hdr == NULL) {
        return -ENOMEM;
    }
    (void)tern_ethernet_emit(&repr, hdr->data, hdr->size);
    *pkt = tern_pktbuf_replace_snip(pb, *pkt, netif_snip, hdr);

    size_t len = tern_pkt_len(*pkt);
    if (len < TERN_ETHERNET_MIN_FRAME) {
        return pad_frame(pb, *pkt, len);
    }
    return 0;
}

/* ------------------------------------------------------------ options */

/** The MAC group named by an option value: 6 bytes as is, 16 an IPv6 group. */
static int option_group(const tern_netapi_opt_t *opt, uint8_t mac[TERN_ETHERNET_ADDR_LEN])
{
    if (opt->data_len == TERN_ETHERNET_ADDR_LEN) {
        memcpy(mac, opt->data, TERN_ETHERNET_ADDR_LEN);
        return 0;
    }
    if (opt->data_len == sizeof(tern_ipv6_addr_t)) {
        tern_ipv6_addr_t group;
        memcpy(&group, opt->data, sizeof(group));
        return ipv6_group_mac(&group, mac);
    }
    return -EINVAL;
}

static int ethernet_get(tern_netif_t *netif, tern_netapi_opt_t *opt)
{
    tern_ethernet_link_t *eth = netif->link_ctx;
    switch (opt->opt) {
    case TERN_NETOPT_MCAST_GROUPS: {
        size_t n = 0;
        for (int i = 0; eth != NULL && i < TERN_CONF_ETHERNET_MCAST_MAX; i++) {
            if (eth->users[i] == 0) {
                continue;
            }
            if (opt->data_len < (n + 1u) * TERN_ETHERNET_ADDR_LEN) {
                return -EOVERFLOW;
            }
            memcpy((uint8_t *)opt->data + n * TERN_ETHERNET_ADDR_LEN, eth->groups[i],
                   TERN_ETHERNET_ADDR_LEN);
            n++;
        }
        return (int)(n * TERN_ETHERNET_ADDR_LEN);
    }
    case TERN_NETOPT_PROMISCUOUS:
        if (opt->data_len < 1) {
            return -EOVERFLOW;
        }
        *(uint8_t *)opt->data = (eth != NULL && eth->promiscuous) ? 1u : 0u;
        return 1;
    default:
        return -ENOTSUP;
    }
}

static int ethernet_set(tern_netif_t *netif, tern_netapi_opt_t *opt)
{
    tern_ethernet_link_t *eth = netif->link_ctx;
    switch (opt->opt) {
    case TERN_NETOPT_MCAST_JOIN:
    case TERN_NETOPT_MCAST_LEAVE: {
        uint8_t mac[TERN_ETHERNET_ADDR_LEN];
        int res = option_group(opt, mac);
        if (res < 0) {
            return res;
        }
        if (eth == NULL) {
            return -ENOTSUP; /* added without link state: no filter table */
        }
        res = (opt->opt == TERN_NETOPT_MCAST_JOIN) ? tern_ethernet_link_join(eth, mac)
                                                   : tern_ethernet_link_leave(eth, mac);
        return (res < 0) ? res : (int)opt->data_len;
    }
    case TERN_NETOPT_PROMISCUOUS: {
        if (opt->data_len != 1 || eth == NULL) {
            return (eth == NULL) ? -ENOTSUP : -EINVAL;
        }
        /* The filter is ours; a device that filters too is told as well. */
        int res = netif->dev->driver->set(netif->dev, opt->opt, opt->data, opt->data_len);
        if (res < 0 && res != -ENOTSUP) {
            return res;
        }
        eth->promiscuous = (*(const uint8_t *)opt->data != 0);
        return 1;
    }
    default:
        return -ENOTSUP;
    }
}

const tern_netif_link_t tern_netif_link_ethernet = {
    .name = "ethernet",
    .recv = ethernet_recv,
    .send = ethernet_send,
    .get = ethernet_get,
    .set = ethernet_set,
};

int tern_ethernet_netif_add(tern_stack_t *stack, tern_netif_t *netif, tern_ethernet_link_t *eth,
                            const char *name, tern_netdev_t *dev)
{
    if (eth == NULL) {
        return -EINVAL;
    }
    tern_ethernet_link_init(eth);
    return tern_netif_add_ctx(stack, netif, name, dev, &tern_netif_link_ethernet, eth,
                              TERN_NETTYPE_IPV6);
}
