/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Link ETX estimator: expected transmissions per acknowledged frame,
 *        per neighbor, from the outcome of every unicast frame sent.
 *
 * Read first: RFC 6551 §4.3.5 (the ETX metric and its encoding, ETX x 128
 * in 16 bits), RFC 6719 §3.1 and §5 (MRHOF's use of it: MAX_LINK_METRIC),
 * and netif.h (tern_netif_tx_status_fn_t: status and transmissions of each
 * frame).
 *
 * Estimate: an exponentially weighted moving average of one sample per
 * frame. A frame that was acknowledged gives the number of times it went on
 * the air; a frame that never was (no acknowledgment after every retry)
 * gives a penalty, TERN_CONF_RPL_ETX_NOACK_PENALTY, or its transmissions if
 * more; a frame that found the channel busy or that the device refused says
 * nothing about the link and is ignored. The new estimate is
 * ETX + (sample - ETX) / d with d = TERN_CONF_RPL_ETX_SMOOTHING (0.9 of the
 * old value and 0.1 of the sample for d = 10; the step rounded away from
 * zero so a steady link is reached exactly), except that the first samples
 * of a neighbor are averaged with the initial guess (d = samples + 1 while
 * that is below the smoothing), so a new neighbor's estimate reaches its
 * measured value after a few frames instead of tens.
 *
 * The table holds TERN_CONF_RPL_ETX_NEIGHBORS neighbors keyed by link
 * address; when it is full, the neighbor updated least recently is replaced.
 * A neighbor without an entry has the initial estimate
 * TERN_CONF_RPL_ETX_INITIAL. One table serves one interface (link addresses
 * are per link). Pure logic: no time, no I/O.
 */
#ifndef TERN_RPL_ETX_H
#define TERN_RPL_ETX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/netif_hdr.h"
#include "tern/stats.h"

/** Fixed-point divisor of ETX values (RFC 6551 §4.3.5: 1/128 precision). */
#define TERN_RPL_ETX_DIVISOR 128u
/** Lowest estimate: one transmission per frame. */
#define TERN_RPL_ETX_MIN TERN_RPL_ETX_DIVISOR
/** Highest estimate: samples are capped at 255 transmissions. */
#define TERN_RPL_ETX_MAX (255u * TERN_RPL_ETX_DIVISOR)

/** One neighbor. Read-only for the owner. */
typedef struct {
    uint8_t l2addr[TERN_CONF_L2ADDR_MAX]; /**< its link address */
    uint8_t l2addr_len;                   /**< length of @ref l2addr; 0: free slot */
    uint8_t samples;                      /**< frames counted so far (saturates at 255) */
    uint16_t etx;                         /**< estimate, ETX x 128, in [ETX_MIN, ETX_MAX] */
    uint32_t updated;                     /**< table stamp of the last update (LRU) */
} tern_rpl_etx_entry_t;

/** Counters of a table, indices into tern_rpl_etx_t::counters. */
enum {
    TERN_RPL_ETX_SAMPLES = 0, /**< frame outcomes used */
    TERN_RPL_ETX_NOACK,       /**< of which failures (penalty samples) */
    TERN_RPL_ETX_IGNORED,     /**< outcomes without link information: channel busy, refused, not unicast */
    TERN_RPL_ETX_EVICTED,     /**< neighbors replaced in a full table */
    TERN_RPL_ETX_STAT_NUMOF
};

/** The estimates of one interface's neighbors. */
typedef struct {
    tern_rpl_etx_entry_t entries[TERN_CONF_RPL_ETX_NEIGHBORS]; /**< the table */
    uint32_t stamp;                                           /**< update counter, for LRU */
    tern_counter_t counters[TERN_RPL_ETX_STAT_NUMOF];               /**< see TERN_RPL_ETX_... */
} tern_rpl_etx_t;

/** Set up an empty table. */
void tern_rpl_etx_init(tern_rpl_etx_t *etx);

/**
 * Account the outcome of one unicast frame to @p l2addr (arguments as
 * tern_netif_tx_status_fn_t gives them).
 * @param[in,out] etx            the table
 * @param[in]     l2addr         the neighbor's link address
 * @param[in]     l2addr_len     its length, 1..TERN_CONF_L2ADDR_MAX
 * @param[in]     status         0: acknowledged; -EHOSTUNREACH: no acknowledgment
 *                               after every retry; anything else is ignored
 * @param[in]     transmissions  times the frame went on the air (0 counts as 1)
 * @return the neighbor's new estimate (> 0); 0 if the outcome was ignored
 *         (counted); -EINVAL for an empty or too long address
 */
int tern_rpl_etx_update(tern_rpl_etx_t *etx, const uint8_t *l2addr, size_t l2addr_len, int status,
                        unsigned transmissions);

/**
 * tern_rpl_etx_update() for a frame described by its interface header, as
 * the TX status hook receives it: broadcast and multicast frames, and
 * frames without a destination, carry no acknowledgment and are ignored.
 * @return as tern_rpl_etx_update(); 0 for an ignored frame
 */
int tern_rpl_etx_report(tern_rpl_etx_t *etx, const tern_netif_hdr_t *hdr, int status, unsigned transmissions);

/**
 * The estimate for @p l2addr: its entry's, or TERN_CONF_RPL_ETX_INITIAL
 * when it has none. Does not count as use for replacement.
 * @return ETX x 128
 */
uint16_t tern_rpl_etx_get(const tern_rpl_etx_t *etx, const uint8_t *l2addr, size_t l2addr_len);

/** The entry of @p l2addr, or NULL. */
const tern_rpl_etx_entry_t *tern_rpl_etx_lookup(const tern_rpl_etx_t *etx, const uint8_t *l2addr,
                                                size_t l2addr_len);

/** Forget @p l2addr (its estimate goes back to the initial one). */
void tern_rpl_etx_remove(tern_rpl_etx_t *etx, const uint8_t *l2addr, size_t l2addr_len);

#endif /* TERN_RPL_ETX_H */
