/* SPDX-License-Identifier: BSD-3-Clause */
#include "tern/netopt.h"

const char *tern_netopt_name(tern_netopt_t opt)
{
    static const char *const names[TERN_NETOPT_NUMOF] = {
        [TERN_NETOPT_ADDRESS] = "address",
        [TERN_NETOPT_ADDR_LEN] = "addr_len",
        [TERN_NETOPT_ADDRESS_LONG] = "address_long",
        [TERN_NETOPT_MAX_PDU_SIZE] = "max_pdu_size",
        [TERN_NETOPT_PROTO] = "proto",
        [TERN_NETOPT_STATE] = "state",
        [TERN_NETOPT_DEVICE_TYPE] = "device_type",
        [TERN_NETOPT_HW_CSMA_RETRIES] = "hw_csma_retries",
        [TERN_NETOPT_PROMISCUOUS] = "promiscuous",
        [TERN_NETOPT_CHANNEL] = "channel",
        [TERN_NETOPT_NID] = "nid",
        [TERN_NETOPT_STATS] = "stats",
        [TERN_NETOPT_IPV6_ADDRS] = "ipv6_addrs",
        [TERN_NETOPT_IPV6_NEIGHBORS] = "ipv6_neighbors",
        [TERN_NETOPT_IPV6_ADDR_ADD] = "ipv6_addr_add",
        [TERN_NETOPT_IPV6_ADDR_DEL] = "ipv6_addr_del",
        [TERN_NETOPT_IPV6_ROUTER] = "ipv6_router",
        [TERN_NETOPT_IPV6_ROUTES] = "ipv6_routes",
        [TERN_NETOPT_IPV6_LINK_PARAMS] = "ipv6_link_params",
        [TERN_NETOPT_IPV6_ROUTE_ADD] = "ipv6_route_add",
        [TERN_NETOPT_IPV6_ROUTE_DEL] = "ipv6_route_del",
        [TERN_NETOPT_IPV6_DESTINATIONS] = "ipv6_destinations",
        [TERN_NETOPT_IPV6_6LO] = "ipv6_6lo",
        [TERN_NETOPT_SIXLOWPAN_CONTEXT] = "sixlowpan_context",
        [TERN_NETOPT_RPL_ROLE] = "rpl_role",
        [TERN_NETOPT_RPL_GLOBAL_REPAIR] = "rpl_global_repair",
        [TERN_NETOPT_RPL_STATE] = "rpl_state",
        [TERN_NETOPT_IPV6_SOURCE_ROUTER] = "ipv6_source_router",
        [TERN_NETOPT_IPV6_RPL_STATE] = "ipv6_rpl_state",
        [TERN_NETOPT_IPV6_ROUTE_INFO_ADD] = "ipv6_route_info_add",
        [TERN_NETOPT_IPV6_ROUTE_INFO_DEL] = "ipv6_route_info_del",
        [TERN_NETOPT_IPV6_ROUTE_INFO] = "ipv6_route_info",
        [TERN_NETOPT_MCAST_JOIN] = "mcast_join",
        [TERN_NETOPT_MCAST_LEAVE] = "mcast_leave",
        [TERN_NETOPT_MCAST_GROUPS] = "mcast_groups",
        [TERN_NETOPT_CAPTURE] = "capture",
        [TERN_NETOPT_TX_STATUS] = "tx_status",
        [TERN_NETOPT_IPV6_PREFIX] = "ipv6_prefix",
        [TERN_NETOPT_IPV6_GROUP_JOIN] = "ipv6_group_join",
        [TERN_NETOPT_IPV6_GROUP_LEAVE] = "ipv6_group_leave",
    };
    if ((unsigned)opt >= TERN_NETOPT_NUMOF) {
        return "?";
    }
    return names[opt];
}
