/* SPDX-License-Identifier: BSD-3-Clause */
#include "tern/nettype.h"

const char *tern_nettype_name(tern_nettype_t type)
{
    static const char *const names[TERN_NETTYPE_NUMOF] = {
        [TERN_NETTYPE_UNDEF] = "undef",     [TERN_NETTYPE_NETIF] = "netif",
        [TERN_NETTYPE_NETERR] = "neterr",   [TERN_NETTYPE_RAW] = "raw",
        [TERN_NETTYPE_ETHERNET] = "eth",    [TERN_NETTYPE_IEEE802154] = "802154",
        [TERN_NETTYPE_SIXLOWPAN] = "6lo",   [TERN_NETTYPE_IPV6] = "ipv6",
        [TERN_NETTYPE_IPV6_EXT] = "ipv6ext", [TERN_NETTYPE_ICMPV6] = "icmpv6",
        [TERN_NETTYPE_UDP] = "udp",         [TERN_NETTYPE_TCP] = "tcp",
        [TERN_NETTYPE_TEST] = "test",
    };
    if ((unsigned)type >= TERN_NETTYPE_NUMOF) {
        return "?";
    }
    return names[type];
}
