/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Protocol types: what a packet snip holds and what netreg demultiplexes on.
 */
#ifndef TERN_NETTYPE_H
#define TERN_NETTYPE_H

#include <stdint.h>

/** Protocol type of a snip (and of the packet it heads). */
typedef enum {
    TERN_NETTYPE_UNDEF = 0,    /**< payload not yet parsed, or application data */
    TERN_NETTYPE_NETIF,        /**< generic interface header, tern_netif_hdr_t */
    TERN_NETTYPE_NETERR,       /**< error report hook, tern_neterr_report_t */
    TERN_NETTYPE_RAW,          /**< a link frame nobody has parsed yet */
    TERN_NETTYPE_ETHERNET,     /**< Ethernet II header */
    TERN_NETTYPE_IEEE802154,   /**< IEEE 802.15.4 MAC header */
    TERN_NETTYPE_SIXLOWPAN,    /**< 6LoWPAN dispatch and compressed headers */
    TERN_NETTYPE_IPV6,         /**< IPv6 fixed header */
    TERN_NETTYPE_IPV6_EXT,     /**< an IPv6 extension header */
    TERN_NETTYPE_ICMPV6,       /**< ICMPv6 message */
    TERN_NETTYPE_UDP,          /**< UDP header */
    TERN_NETTYPE_TCP,          /**< TCP header */
    TERN_NETTYPE_TEST,         /**< reserved for tests and benchmarks */
    TERN_NETTYPE_NUMOF         /**< number of types; not a type */
} tern_nettype_t;

/** Short name of a type ("ipv6", "udp", ...); "?" for values out of range. */
const char *tern_nettype_name(tern_nettype_t type);

#endif /* TERN_NETTYPE_H */
