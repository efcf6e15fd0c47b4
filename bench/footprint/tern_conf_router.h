/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Options of footprint configuration (b), the 6LoWPAN router with
 *        RPL (issue 6): (a)'s options (tern_conf_host.h) plus the router's
 *        tables; passed as TERN_CONF_USER_HEADER by bench/run (step 4),
 *        together with the CMake feature switches of
 *        bench/footprint/router.cmake (router functions on; MLD, IPv6
 *        fragmentation, the non-storing root's link table and both
 *        objective functions of a root-only image off).
 *
 * A storing-mode RPL root (RFC 6550 §9.8) and 6LoWPAN router (RFC 6775 §6)
 * of a small DODAG: up to 8 nodes below it.
 */
#ifndef TERN_CONF_ROUTER_H
#define TERN_CONF_ROUTER_H

#include "tern_conf_host.h"

/* A 6LR's registration table (RFC 6775 §6.5.2): its host neighbours. */
#undef TERN_CONF_IPV6_6LO_REG_TABLE_SIZE
#define TERN_CONF_IPV6_6LO_REG_TABLE_SIZE 4

/* Its own registrations are a host's (RFC 6775 §5.3; ipv6_6lo_sync() makes
 * none on a router): config.h's minimum of 1, as (a)'s registration table. */
#undef TERN_CONF_IPV6_6LO_BINDINGS
#define TERN_CONF_IPV6_6LO_BINDINGS 1

/* Neighbors: registered hosts and RPL children/parents on one radio. */
#undef TERN_CONF_NC_SIZE
#define TERN_CONF_NC_SIZE 6

/* Storing mode: a /128 route per node below (8), the prefix, defaults. */
#define TERN_CONF_RPL_ROUTES 8
#undef TERN_CONF_FIB_SIZE
#define TERN_CONF_FIB_SIZE 12

/* RPL on one radio. Parents, link ETX and the TX status reports that feed
 * it serve a node that joins a DODAG; this image is a root only: it builds
 * no objective function (router.cmake), so it never joins one (RPL_JOINS 0,
 * src/rpl/rpl_internal.h: no parent, no TX status hook). Each table keeps
 * config.h's minimum of 1. */
#define TERN_CONF_RPL_IFS 1
#define TERN_CONF_RPL_PARENTS 1
#define TERN_CONF_RPL_ETX_NEIGHBORS 1
#define TERN_CONF_RPL_TX_REPORTS 1

/* Forwarding errors (RFC 6550 §11.2.2.3) reported by the IPv6 module between
 * two turns of RPL: one. The first report of a turn makes the root remove its
 * copy of the failed route and increment the DTSN, which asks the whole
 * sub-DODAG for new DAOs (§9.6); a further report in the same turn (counted
 * as rpi_events_lost) would only have removed another copy of a route the
 * FIB has already dropped, which those DAOs replace or its lifetime ends. */
#define TERN_CONF_RPL_RPI_EVENTS 1

/* No shell: no copy of the RPL module's state for one (config.h). */
#define TERN_CONF_RPL_INSPECT 0

/* (TERN_CONF_FAST_PATHS and TERN_CONF_IPV6_INSPECT 0 come with (a)'s options.)
 * The root's packets carry the RPL Option in a Hop-by-Hop header (RFC 6553,
 * RFC 6550 §11.2) and it may tunnel them (RFC 9008): its 6LoWPAN layer
 * compresses extension headers and IPv6-in-IPv6 (RFC 6282 §4.2), which (a)
 * leaves out. */
#undef TERN_CONF_SIXLOWPAN_NHC_EXT
#define TERN_CONF_SIXLOWPAN_NHC_EXT 1

/* RPL's messages (ICMPv6 type 155) come to it through the IPv6 module. */
#undef TERN_CONF_ICMPV6_DELIVER
#define TERN_CONF_ICMPV6_DELIVER 1

#endif /* TERN_CONF_ROUTER_H */
