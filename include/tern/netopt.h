/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Option identifiers for netapi GET/SET and netdev get/set.
 *
 * Each option states the type and length of its value. A module or driver that
 * does not know an option answers -ENOTSUP; a value of the wrong length gets
 * -EINVAL (SET) or -EOVERFLOW (GET into a too-short buffer).
 */
#ifndef TERN_NETOPT_H
#define TERN_NETOPT_H

/** Option identifiers. */
typedef enum {
    /** Link-layer address. Value: uint8_t[n], n = TERN_NETOPT_ADDR_LEN's value. */
    TERN_NETOPT_ADDRESS = 0,
    /** Length of the link-layer address in bytes. Value: uint16_t. */
    TERN_NETOPT_ADDR_LEN,
    /** Extended (EUI-64) link address. Value: uint8_t[8]. */
    TERN_NETOPT_ADDRESS_LONG,
    /** Maximum payload of one link frame (the link MTU), bytes. Value: uint16_t. */
    TERN_NETOPT_MAX_PDU_SIZE,
    /** Protocol the interface hands received frames to. Value: uint16_t (tern_nettype_t). */
    TERN_NETOPT_PROTO,
    /** Interface is up (1) or down (0). Value: uint8_t. */
    TERN_NETOPT_STATE,
    /** Device type. Value: uint16_t (tern_netdev_type_t). */
    TERN_NETOPT_DEVICE_TYPE,
    /** Promiscuous reception on (1) or off (0). Value: uint8_t. */
    TERN_NETOPT_PROMISCUOUS,
    /** Radio channel. Value: uint16_t. */
    TERN_NETOPT_CHANNEL,
    /** IEEE 802.15.4 PAN ID. Value: uint16_t. */
    TERN_NETOPT_NID,
    /** Interface statistics. Value: tern_netif_stats_t (netif.h); GET only. */
    TERN_NETOPT_STATS,
    /**
     * Receive frames sent to a link multicast group (SET). Value: uint8_t[6],
     * the group's MAC address, or uint8_t[16], an IPv6 multicast group the
     * link maps to its MAC group (RFC 2464 §7). Joins are counted: a group
     * joined twice needs two leaves. -ENOSPC when the link's table is full.
     */
    TERN_NETOPT_MCAST_JOIN,
    /** Stop receiving a group joined with TERN_NETOPT_MCAST_JOIN (SET); same values. -ENOENT if not joined. */
    TERN_NETOPT_MCAST_LEAVE,
    /** Joined link multicast groups (GET). Value: uint8_t[6 * n], n groups' MAC addresses. */
    TERN_NETOPT_MCAST_GROUPS,
    /** Capture hook of an interface (GET/SET). Value: tern_netif_capture_t (netif.h). */
    TERN_NETOPT_CAPTURE,
    /** IPv6 addresses of an interface (GET on the IPv6 module; context: interface index).
     *  Value: tern_ipv6_addr_list_t (ipv6/ipv6.h). */
    TERN_NETOPT_IPV6_ADDRS,
    /** Neighbor cache of an interface (GET on the IPv6 module; context: interface index).
     *  Value: tern_ipv6_neighbor_list_t (ipv6/ipv6.h). */
    TERN_NETOPT_IPV6_NEIGHBORS,
    /** Add an IPv6 address (SET on the IPv6 module; context: interface index). Value:
     *  tern_ipv6_addr_config_t (ipv6/ipv6.h). It starts tentative and runs DAD. */
    TERN_NETOPT_IPV6_ADDR_ADD,
    /** Remove an IPv6 address (SET on the IPv6 module; context: interface index). Value:
     *  tern_ipv6_addr_config_t; the prefix length is ignored. */
    TERN_NETOPT_IPV6_ADDR_DEL,
    /** Router (1) or host (0) (SET on the IPv6 module; context ignored). Value: uint8_t.
     *  See tern_ipv6_set_router() (ipv6/ipv6.h). */
    TERN_NETOPT_IPV6_ROUTER,
    /** Forwarding table (GET on the IPv6 module; context ignored). Value:
     *  tern_ipv6_route_list_t (ipv6/ipv6.h). */
    TERN_NETOPT_IPV6_ROUTES,
    /** Neighbor Discovery parameters of an interface (GET on the IPv6 module; context:
     *  interface index). Value: tern_ipv6_link_params_t (ipv6/ipv6.h). */
    TERN_NETOPT_IPV6_LINK_PARAMS,
    /** Add a static route (SET on the IPv6 module; context: outgoing interface index).
     *  Value: tern_ipv6_route_config_t (ipv6/ipv6.h). */
    TERN_NETOPT_IPV6_ROUTE_ADD,
    /** Remove routes (SET on the IPv6 module; context: interface index, 0 for any).
     *  Value: tern_ipv6_route_config_t; an unspecified next hop matches any. */
    TERN_NETOPT_IPV6_ROUTE_DEL,
    /** Destination cache: Redirect next hops, Path MTUs (GET on the IPv6 module; context
     *  ignored). Value: tern_ipv6_dest_list_t (ipv6/ipv6.h). */
    TERN_NETOPT_IPV6_DESTINATIONS,
    /** TX status hook of an interface (GET/SET): the final outcome of every frame sent.
     *  Value: tern_netif_tx_status_t (netif.h). */
    TERN_NETOPT_TX_STATUS,
    /** 6LoWPAN Neighbor Discovery state of an interface (GET on the IPv6 module; context:
     *  interface index): registrations, contexts, border router. Value:
     *  tern_ipv6_6lo_state_t (ipv6/ndp_6lo.h). */
    TERN_NETOPT_IPV6_6LO,
    /** An IPHC compression context of a 6LoWPAN interface (SET on its adaptation module,
     *  tern_netif_t::adaptation; context: interface index). Value:
     *  tern_sixlowpan_context_config_t (sixlowpan/context.h). */
    TERN_NETOPT_SIXLOWPAN_CONTEXT,
    /** Apply a prefix as if a Prefix Information option had carried it (SET on the IPv6
     *  module; context: interface index): SLAAC with A (RFC 4862 §5.5.3), on-link with L
     *  (not on 6LoWPAN links, RFC 6775 §5.6). RPL's DIO PIO uses it (RFC 6550 §6.7.10);
     *  -ENOTSUP in a build without RPL (TERN_CONF_RPL 0). Value: tern_ipv6_prefix_config_t
     *  (ipv6/ipv6.h). */
    TERN_NETOPT_IPV6_PREFIX,
    /** Listen to an IPv6 multicast group on an interface (SET on the IPv6 module; context:
     *  interface index): link filter, MLD, and packets to it are for us (e.g. ff02::1a,
     *  all-RPL-nodes). Joins are counted. Value: tern_ipv6_addr_t (16 bytes). */
    TERN_NETOPT_IPV6_GROUP_JOIN,
    /** Leave a group joined with TERN_NETOPT_IPV6_GROUP_JOIN (SET on the IPv6 module). Same value. */
    TERN_NETOPT_IPV6_GROUP_LEAVE,
    /** The RPL module's role (SET on the RPL module, its own API: tern_rpl_set_root() and
     *  the others). Value: private to src/rpl. */
    TERN_NETOPT_RPL_ROLE,
    /** Global repair: a new DODAG version (SET on the RPL module at the root; no value). */
    TERN_NETOPT_RPL_GLOBAL_REPAIR,
    /** The RPL module's state (GET on it). Value: tern_rpl_state_t (rpl/rpl.h). */
    TERN_NETOPT_RPL_STATE,
    /** Install (or with fn NULL remove) the source route provider of the IPv6 module (SET on it,
     *  context ignored): RPL's non-storing root (RFC 6550 §9.7, RFC 6554). -ENOTSUP in a
     *  build without it (no router functions, no RPL, or TERN_CONF_RPL_NS_LINKS 0).
     *  Value: tern_ipv6_source_router_t (ipv6/srh.h). */
    TERN_NETOPT_IPV6_SOURCE_ROUTER,
    /** RPL's data-plane state for the RPL Packet Information (SET on the IPv6 module, context
     *  ignored; RFC 6553, RFC 6550 §11.2); GET returns the bytes last SET (zero before).
     *  Value: tern_ipv6_rpl_state_t (ipv6/rpi.h). */
    TERN_NETOPT_IPV6_RPL_STATE,
    /** Advertise a route in the Route Information option of the RAs of an interface (SET on
     *  the IPv6 module; context: interface index; RFC 4191 §2.3). Value: tern_ipv6_route_info_t
     *  (ipv6/ipv6.h); the same prefix and length again replace the entry. -ENOSPC when
     *  TERN_CONF_IPV6_ROUTE_INFO are set, -EINVAL for a bad length or preference; -ENOTSUP
     *  (with _DEL and TERN_NETOPT_IPV6_ROUTE_INFO too) in a host image (TERN_CONF_IPV6_ROUTER 0). */
    TERN_NETOPT_IPV6_ROUTE_INFO_ADD,
    /** Stop advertising a route (SET on the IPv6 module; context: interface index). Value:
     *  tern_ipv6_route_info_t (prefix and length used). -ENOENT when not advertised. */
    TERN_NETOPT_IPV6_ROUTE_INFO_DEL,
    /** The routes advertised on an interface (GET on the IPv6 module; context: interface
     *  index). Value: tern_ipv6_route_info_list_t (ipv6/ipv6.h). */
    TERN_NETOPT_IPV6_ROUTE_INFO,
    /** The device does CSMA-CA and retransmissions itself (GET on a device; the interface
     *  asks once, when it is added): the outcome it reports for a frame is final, and an
     *  interface with a tx_policy skips its software backoff and retries (netif.h,
     *  tern_netif_tx_policy_t). Value: uint8_t, 1 = yes; 0 or -ENOTSUP = no. */
    TERN_NETOPT_HW_CSMA_RETRIES,
    /** Number of options; not an option. */
    TERN_NETOPT_NUMOF
} tern_netopt_t;

/** Short name of an option ("address", "mtu", ...); "?" when out of range. */
const char *tern_netopt_name(tern_netopt_t opt);

#endif /* TERN_NETOPT_H */
