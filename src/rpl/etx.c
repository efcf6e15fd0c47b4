/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Link ETX estimator (RFC 6551 §4.3.5 encoding; EWMA of per-frame samples).
 */
#include <errno.h>
#include <string.h>

#include "tern/rpl/etx.h"

void tern_rpl_etx_init(tern_rpl_etx_t *etx)
{
    memset(etx, 0, sizeof(*etx));
}

static bool address_valid(const uint8_t *l2addr, size_t l2addr_len)
{
    return l2addr != NULL && l2addr_len >= 1 && l2addr_len <= TERN_CONF_L2ADDR_MAX;
}

/* Index of the entry of @p l2addr, or -1. */
static int find(const tern_rpl_etx_t *etx, const uint8_t *l2addr, size_t l2addr_len)
{
    for (size_t i = 0; i < TERN_CONF_RPL_ETX_NEIGHBORS; i++) {
        const tern_rpl_etx_entry_t *e = &etx->entries[i];
        if (e->l2addr_len == l2addr_len && memcmp(e->l2addr, l2addr, l2addr_len) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* A free slot, or the least recently updated entry (counted as evicted). */
static tern_rpl_etx_entry_t *alloc(tern_rpl_etx_t *etx, const uint8_t *l2addr, size_t l2addr_len)
{
    tern_rpl_etx_entry_t *victim = NULL;
    for (size_t i = 0; i < TERN_CONF_RPL_ETX_NEIGHBORS; i++) {
        tern_rpl_etx_entry_t *e = &etx->entries[i];
        if (e->l2addr_len == 0) {
            victim = e;
            break;
        }
        /* Ages as differences from the stamp, so that its wrap-around is harmless. */
        if (victim == NULL || (uint32_t)(etx->stamp - e->updated) > (uint32_t)(etx->stamp - victim->updated)) {
            victim = e;
        }
    }
    if (victim->l2addr_len != 0) {
        tern_count(&etx->counters[TERN_RPL_ETX_EVICTED]);
    }
    memset(victim, 0, sizeof(*victim));
    memcpy(victim->l2addr, l2addr, l2addr_len);
    victim->l2addr_len = (uint8_t)l2addr_len;
    victim->etx = TERN_CONF_RPL_ETX_INITIAL;
    return victim;
}

int tern_rpl_etx_update(tern_rpl_etx_t *etx, const uint8_t *l2addr, size_t l2addr_len, int status,
                        unsigned transmissions)
{
    if (!address_valid(l2addr, l2addr_len)) {
        return -EINVAL;
    }
    unsigned sample;
    if (status == 0) {
        sample = (transmissions == 0) ? 1u : transmissions;
    } else if (status == -EHOSTUNREACH) {
        sample = (transmissions > TERN_CONF_RPL_ETX_NOACK_PENALTY) ? transmissions : TERN_CONF_RPL_ETX_NOACK_PENALTY;
    } else {
        /* Channel access failure or a refusal: the link was never tried. */
        tern_count(&etx->counters[TERN_RPL_ETX_IGNORED]);
        return 0;
    }
    if (sample > TERN_RPL_ETX_MAX / TERN_RPL_ETX_DIVISOR) {
        sample = TERN_RPL_ETX_MAX / TERN_RPL_ETX_DIVISOR;
    }
    tern_count(&etx->counters[TERN_RPL_ETX_SAMPLES]);
    if (status != 0) {
        tern_count(&etx->counters[TERN_RPL_ETX_NOACK]);
    }

    int index = find(etx, l2addr, l2addr_len);
    tern_rpl_etx_entry_t *e = (index >= 0) ? &etx->entries[index] : alloc(etx, l2addr, l2addr_len);
    if (e->samples < UINT8_MAX) {
        e->samples++;
    }
    /* EWMA with weight 1/d for the sample; the first samples average with
     * the initial guess. The step is rounded away from zero, so that the
     * estimate reaches a steady sample exactly instead of stalling up to
     * d/2 units short of it (integer EWMA bias). */
    uint32_t d = (uint32_t)e->samples + 1u;
    if (d > TERN_CONF_RPL_ETX_SMOOTHING) {
        d = TERN_CONF_RPL_ETX_SMOOTHING;
    }
    uint32_t target = sample * TERN_RPL_ETX_DIVISOR;
    uint32_t value = e->etx;
    if (target > value) {
        value += (target - value + d - 1u) / d;
    } else {
        value -= (value - target + d - 1u) / d;
    }
    if (value < TERN_RPL_ETX_MIN) {
        value = TERN_RPL_ETX_MIN;
    }
    if (value > TERN_RPL_ETX_MAX) {
        value = TERN_RPL_ETX_MAX;
    }
    e->etx = (uint16_t)value;
    e->updated = ++etx->stamp;
    return (int)value;
}

int tern_rpl_etx_report(tern_rpl_etx_t *etx, const tern_netif_hdr_t *hdr, int status, unsigned transmissions)
{
    if (hdr->dst_len == 0 || (hdr->flags & (TERN_NETIF_HDR_FLAG_BROADCAST | TERN_NETIF_HDR_FLAG_MULTICAST)) != 0) {
        tern_count(&etx->counters[TERN_RPL_ETX_IGNORED]);
        return 0;
    }
    return tern_rpl_etx_update(etx, hdr->dst, hdr->dst_len, status, transmissions);
}

uint16_t tern_rpl_etx_get(const tern_rpl_etx_t *etx, const uint8_t *l2addr, size_t l2addr_len)
{
    const tern_rpl_etx_entry_t *e = tern_rpl_etx_lookup(etx, l2addr, l2addr_len);
    return (e != NULL) ? e->etx : (uint16_t)TERN_CONF_RPL_ETX_INITIAL;
}

const tern_rpl_etx_entry_t *tern_rpl_etx_lookup(const tern_rpl_etx_t *etx, const uint8_t *l2addr,
                                                size_t l2addr_len)
{
    if (!address_valid(l2addr, l2addr_len)) {
        return NULL;
    }
    int index = find(etx, l2addr, l2addr_len);
    return (index >= 0) ? &etx->entries[index] : NULL;
}

void tern_rpl_etx_remove(tern_rpl_etx_t *etx, const uint8_t *l2addr, size_t l2addr_len)
{
    if (!address_valid(l2addr, l2addr_len)) {
        return;
    }
    int index = find(etx, l2addr, l2addr_len);
    if (index >= 0) {
        memset(&etx->entries[index], 0, sizeof(etx->entries[index]));
    }
}
