/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Option overrides of the RPL experiments' tern-sim build (bench/rpl/run
 *        passes it as TERN_CONF_USER_HEADER).
 *
 * In storing mode the root holds a /128 route for every node of the DODAG
 * (RFC 6550 §9) and a router one for every node below it; the default
 * forwarding table (TERN_CONF_FIB_SIZE 32) holds the 25-node grid's root but
 * not a 50-node DODAG's (counted as route_table_full). A simulation of up to
 * 64 nodes gets room for all of
 * them, plus the on-link prefix and the default route; in non-storing mode
 * the root's parent graph (RFC 6550 §9.7) gets one entry per node.
 */
#ifndef TERN_BENCH_RPL_CONF_H
#define TERN_BENCH_RPL_CONF_H

#define TERN_CONF_FIB_SIZE 80
#define TERN_CONF_RPL_ROUTES 72
/* Non-storing mode: the root's table of DAO parents, one per node. */
#define TERN_CONF_RPL_NS_LINKS 72

#endif /* TERN_BENCH_RPL_CONF_H */
