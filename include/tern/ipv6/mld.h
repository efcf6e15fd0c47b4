/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief MLD listener state of one interface (RFC 3810 §6, with the MLDv1
 *        compatibility mode of §8.2.1 and the RFC 2710 §4 listener state
 *        machine), kept by the IPv6 module (src/ipv6/mld.c): the groups the
 *        node listens to and the reports it owes.
 *
 * All-zero is the initial state (MLDv2 mode, no group, nothing due):
 * deadlines are 0 when nothing is scheduled.
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
    bool used;              /**< slot in use */
#if TERN_CONF_IPV6_MLD /* the listener's state (mld.c); without MLD (mld_none.c) a group is its filter entry only */
    uint8_t pending;        /**< reports still to send for the last change: MLDv2 State Change Reports
                                 (RFC 3810 §6.1), or MLDv1 unsolicited Report repeats (RFC 2710 §4) */
    bool query_pending;     /**< named by a Group-Specific Query waiting for its answer (§6.2) */
    bool v1_last_reporter;  /**< MLDv1 mode: we sent the last Report heard for it, so we owe a Done
                                 when we leave (RFC 2710 §4 "flag") */
    uint64_t v1_at_us;      /**< MLDv1 mode: when its Report (refs > 0: "Delaying Listener", RFC 2710 §4)
                                 or its Done (refs 0) is due; 0: none ("Idle Listener") */
#endif
} tern_mld_group_t;

/** MLD state of one interface. */
typedef struct {
    tern_mld_group_t groups[TERN_CONF_MLD_GROUPS]; /**< joined groups, and left ones still reported */
#if TERN_CONF_IPV6_MLD /* the listener's timers and the querier's parameters (mld.c); none without MLD */
    uint64_t change_at_us;  /**< next State Change Report (MLDv2, §6.1); 0: none */
    uint64_t query_at_us;   /**< answer to a Query (MLDv2, §6.2); 0: none */
    uint64_t v1_until_us;   /**< Older Version Querier Present timer (§8.2.1): in MLDv1 compatibility
                                 mode until then; 0: MLDv2 mode */
    uint32_t qqi_s;         /**< Query Interval from the last MLDv2 Query (§5.1.9); 0: default 125 s (§9.2) */
    uint8_t qrv;            /**< Robustness Variable from the last MLDv2 Query (§5.1.8); 0: default 2 (§9.1) */
    bool general_pending;   /**< the MLDv2 answer is to a General Query: every group */
#endif
} tern_ipv6_mld_t;

#if TERN_CONF_IPV6_MLD
/**
 * Is the interface in MLDv1 compatibility mode (RFC 3810 §8.2.1: an MLDv1
 * Query was heard less than the Older Version Querier Present Timeout ago)?
 * The IPv6 module leaves the mode when that timer expires.
 * @param[in] mld the interface's MLD state (tern_ipv6_if_t::mld)
 * @return true in MLDv1 compatibility mode; false in MLDv2 mode.
 */
static inline bool tern_ipv6_mld_in_v1_mode(const tern_ipv6_mld_t *mld)
{
    return mld->v1_until_us != 0;
}
#endif

#endif /* TERN_IPV6_MLD_H */
