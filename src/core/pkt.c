/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Pure helpers over snip lists: no allocation, no locking (see pkt.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/pkt.h"

/* Snips that carry packet bytes: all but the NETERR metadata (see pkt.h). */
static bool carries_bytes(const tern_pkt_t *snip)
{
    return (snip->size != 0) & (snip->type != TERN_NETTYPE_NETERR); /* one branch, not two */
}

size_t tern_pkt_len(const tern_pkt_t *pkt)
{
    /* A select, not a branch per snip (an empty snip adds nothing anyway). */
    size_t len = 0;
    for (const tern_pkt_t *snip = pkt; snip != NULL; snip = snip->next) {
        len += (snip->type != TERN_NETTYPE_NETERR) ? snip->size : 0u;
    }
    return len;
}

size_t tern_pkt_count(const tern_pkt_t *pkt)
{
    size_t count = 0;
    for (const tern_pkt_t *snip = pkt; snip != NULL; snip = snip->next) {
        count++;
    }
    return count;
}

tern_pkt_t *tern_pkt_search_type(tern_pkt_t *pkt, tern_nettype_t type)
{
    for (tern_pkt_t *snip = pkt; snip != NULL; snip = snip->next) {
        if (snip->type == (unsigned)type) {
            return snip;
        }
    }
    return NULL;
}

/**
 * One walk: entries are written as the snips come, so on -ENOBUFS the first
 * @p max entries have been written. When both errors apply (@p vec NULL
 * and too small a @p max), the argument error -EINVAL wins.
 */
int tern_pkt_to_iolist(const tern_pkt_t *pkt, tern_iolist_t *vec, size_t max)
{
    size_t n = 0;
    for (const tern_pkt_t *snip = pkt; snip != NULL; snip = snip->next) {
        if (!carries_bytes(snip)) {
            continue;
        }
        if (vec == NULL) {
            return -EINVAL;
        }
        if (n == max) {
            return -ENOBUFS;
        }
        vec[n].base = snip->data;
        vec[n].len = snip->size;
        n++;
    }
    return (int)n;
}

int tern_pkt_copy_out(const tern_pkt_t *pkt, void *buf, size_t len)
{
    size_t total = tern_pkt_len(pkt);
    if (total == 0) {
        return 0;
    }
    if (buf == NULL) {
        return -EINVAL;
    }
    if (len < total) {
        return -ENOBUFS;
    }
    uint8_t *out = buf;
    for (const tern_pkt_t *snip = pkt; snip != NULL; snip = snip->next) {
        if (carries_bytes(snip)) {
            memcpy(out, snip->data, snip->size);
            out += snip->size;
        }
    }
    return (int)total;
}
