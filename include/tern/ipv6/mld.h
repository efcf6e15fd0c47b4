/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief MLDv2 listener state of one interface (RFC 3810 §6), kept by the
 *        IPv6 module (src/ipv6/mld.c): the groups the node listens to and
 *        the reports it owes.
 *
 * All-zero is the initial state (no group, nothing due): deadlines are 0
 * when nothing is scheduled.
 */
#ifndef TERN_IPV6_MLD_H
#define TERN_IPV6_MLD_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/wire/ipv6_addr.h"

/** One group of the interface. */
typedef struct {
    tern_ipv6_addr_t group; /**< the group */
    uint8_t refs;           /**< joins not yet left (addresses sharing a solicited-node group); 0: leaving */
    uint8_t pending;        /**< State Change Reports still to send for the last change (§6.1) */
    bool query_pending;     /**< named by a Group-Specific Query waiting for its answer (§6.2) */
    bool used;              /**< slot in use */
} tern_mld_group_t;

/** MLDv2 state of one interface. */
typedef struct {
    tern_mld_group_t groups[TERN_CONF_MLD_GROUPS]; /**< joined groups, and left ones still reported */
    uint64_t change_at_us;  /**< next State Change Report (§6.1); 0: none */
    uint64_t query_at_us;   /**< answer to a Query (§6.2); 0: none */
    bool general_pending;   /**< that answer is to a General Query: every group */
} tern_ipv6_mld_t;

#endif /* TERN_IPV6_MLD_H */
