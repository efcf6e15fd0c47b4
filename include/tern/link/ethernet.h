/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Ethernet link layer: Ethernet II frames <-> the interface header.
 *
 * Read first: RFC 894 (Ethernet II framing), RFC 2464 §3 and §7 (IPv6 over
 * Ethernet, multicast mapping), thesis 3.4.1 (receive walk-through).
 *
 * Receive: the header is parsed with tern_ethernet_parse(); the frame is
 * dropped (and counted by the interface) when it is not for this interface
 * (unicast to another MAC, or a multicast group not joined, unless the
 * interface is promiscuous: rx_not_for_us), when its EtherType is not IPv6
 * (rx_unknown_proto), or when it is malformed (rx_errors). Otherwise the
 * interface header gets both MAC addresses and the BROADCAST/MULTICAST flags,
 * the link header is marked off and dropped, and the payload goes up as IPv6.
 *
 * Send: the interface header ([NETIF, ...]) is replaced by the Ethernet
 * header: destination ff:ff:ff:ff:ff:ff with TERN_NETIF_HDR_FLAG_BROADCAST,
 * otherwise the header's 6-byte dst (a group address with
 * TERN_NETIF_HDR_FLAG_MULTICAST); source the interface's MAC; EtherType
 * 0x86DD when the payload is IPv6, otherwise 0x88B5 (IEEE 802 local
 * experimental, so raw `txtsnd` frames never pass for IPv6). Frames shorter
 * than 60 bytes are padded with zeros (RFC 894; the FCS is the device's).
 *
 * Per-interface state (the multicast filter, promiscuous mode) lives in a
 * tern_ethernet_link_t the application allocates; add the interface with
 * tern_ethernet_netif_add(). Groups are joined through netapi SET
 * (TERN_NETOPT_MCAST_JOIN / _LEAVE with a MAC or an IPv6 group; GET
 * TERN_NETOPT_MCAST_GROUPS lists them; TERN_NETOPT_PROMISCUOUS is kept here
 * and passed on to the device).
 */
#ifndef TERN_LINK_ETHERNET_H
#define TERN_LINK_ETHERNET_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/netif.h"
#include "tern/wire/ethernet.h"

/** EtherType of frames whose payload is not a protocol Tern knows (IEEE 802 local experimental 1). */
#define TERN_ETHERTYPE_LOCAL_EXPERIMENTAL 0x88B5u

/** Per-interface state of the Ethernet link. Treat as private; use the functions below. */
typedef struct {
    uint8_t groups[TERN_CONF_ETHERNET_MCAST_MAX][TERN_ETHERNET_ADDR_LEN]; /**< joined MAC groups */
    uint8_t users[TERN_CONF_ETHERNET_MCAST_MAX]; /**< joins of each entry; 0: free */
    bool promiscuous;                            /**< accept every frame */
} tern_ethernet_link_t;

/** The Ethernet link layer (netif->link_ctx: a tern_ethernet_link_t, or NULL: broadcast only). */
extern const tern_netif_link_t tern_netif_link_ethernet;

/** Empty filter, not promiscuous. */
void tern_ethernet_link_init(tern_ethernet_link_t *eth);

/**
 * Initialise @p eth and add an Ethernet interface over @p dev (received frames
 * go to IPv6), with @p eth as its link state.
 * @pre the device reports a 6-byte TERN_NETOPT_ADDRESS (its MAC)
 * @return as tern_netif_add(); -EINVAL for NULL @p eth.
 */
int tern_ethernet_netif_add(tern_stack_t *stack, tern_netif_t *netif, tern_ethernet_link_t *eth,
                            const char *name, tern_netdev_t *dev);

/**
 * Join link multicast group @p group (joins are counted).
 * Call from the interface's context, or before it runs; otherwise use
 * netapi SET TERN_NETOPT_MCAST_JOIN.
 * @return 0; -EINVAL if @p group is not a multicast address (or is broadcast,
 *         which is always received); -ENOSPC if the table is full;
 *         -EOVERFLOW if the group was joined 255 times.
 */
int tern_ethernet_link_join(tern_ethernet_link_t *eth, const uint8_t group[TERN_ETHERNET_ADDR_LEN]);

/** Undo one join of @p group. @return 0; -ENOENT if it is not joined; -EINVAL for NULL. */
int tern_ethernet_link_leave(tern_ethernet_link_t *eth, const uint8_t group[TERN_ETHERNET_ADDR_LEN]);

/** Join the MAC group of IPv6 multicast @p group (RFC 2464 §7). @return as join; -EINVAL if not ff00::/8. */
int tern_ethernet_link_join_ipv6(tern_ethernet_link_t *eth, const tern_ipv6_addr_t *group);

/** Leave the MAC group of IPv6 multicast @p group. @return as leave; -EINVAL if not ff00::/8. */
int tern_ethernet_link_leave_ipv6(tern_ethernet_link_t *eth, const tern_ipv6_addr_t *group);

/** True when @p group is joined. */
bool tern_ethernet_link_is_joined(const tern_ethernet_link_t *eth,
                                  const uint8_t group[TERN_ETHERNET_ADDR_LEN]);

#endif /* TERN_LINK_ETHERNET_H */
