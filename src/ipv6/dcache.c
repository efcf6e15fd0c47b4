/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Destination cache (RFC 4861 §5.1, §8.3; RFC 8201 §4, §5.2).
 */
#include <errno.h>
#include <string.h>

#include "tern/ipv6/dcache.h"

_Static_assert(TERN_CONF_IPV6_DCACHE, "dcache.c is left out of the build when TERN_CONF_IPV6_DCACHE is 0 (set it through CMake)");

#define NO_DEADLINE UINT64_MAX

void tern_dcache_init(tern_dcache_t *dc)
{
    memset(dc, 0, sizeof(*dc));
}

/* Remove the redirect part of @p e. */
static void clear_redirect(tern_dcache_entry_t *e)
{
    e->redirected = false;
    e->if_index = 0;
    e->redirect_expires_us = 0;
    memset(&e->next_hop, 0, sizeof(e->next_hop));
}

/* Free @p e (an entry of @p dc) when it has no part left. */
static void free_if_empty(tern_dcache_t *dc, tern_dcache_entry_t *e)
{
    if (!e->redirected && e->pmtu == 0) {
        memset(e, 0, sizeof(*e));
        dc->in_use--;
    }
}

/* Remove the parts of @p e that expired by @p now_us; free it when none is left. */
static void age(tern_dcache_t *dc, tern_dcache_entry_t *e, uint64_t now_us)
{
    if (e->redirected && e->redirect_expires_us <= now_us) {
        clear_redirect(e);
    }
    if (e->pmtu != 0 && e->pmtu_expires_us <= now_us) {
        e->pmtu = 0;
        e->pmtu_expires_us = 0;
    }
    free_if_empty(dc, e);
}

static tern_dcache_entry_t *find(tern_dcache_t *dc, const tern_ipv6_addr_t *dst, uint64_t now_us)
{
    if (dc->in_use == 0u) {
        return NULL; /* nothing to find, nothing to age */
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        tern_dcache_entry_t *e = &dc->entries[i];
        if (e->used && tern_ipv6_addr_equal(&e->dst, dst)) {
            age(dc, e, now_us);
            return e->used ? e : NULL;
        }
    }
    return NULL;
}

tern_dcache_entry_t *tern_dcache_lookup(tern_dcache_t *dc, const tern_ipv6_addr_t *dst, uint64_t now_us)
{
    if (dc == NULL || dst == NULL) {
        return NULL;
    }
    tern_dcache_entry_t *e = find(dc, dst, now_us);
    if (e != NULL) {
        e->last_used_us = now_us;
    }
    return e;
}

/*
 * The entry for @p dst, created if needed: a free slot (expired entries are
 * freed first), else the least recently used one (ties: the lowest slot).
 * *@p evicted: another destination's entry was reused.
 */
static tern_dcache_entry_t *obtain(tern_dcache_t *dc, const tern_ipv6_addr_t *dst, uint64_t now_us, bool *evicted)
{
    *evicted = false;
    tern_dcache_entry_t *e = find(dc, dst, now_us);
    if (e != NULL) {
        return e;
    }
    (void)tern_dcache_expire(dc, now_us);
    tern_dcache_entry_t *victim = NULL;
    for (size_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        tern_dcache_entry_t *c = &dc->entries[i];
        if (!c->used) {
            victim = c;
            break;
        }
        if (victim == NULL || c->last_used_us < victim->last_used_us) {
            victim = c;
        }
    }
    *evicted = victim->used;
    dc->in_use = (uint16_t)(dc->in_use + (victim->used ? 0u : 1u));
    memset(victim, 0, sizeof(*victim));
    victim->dst = *dst;
    victim->used = true;
    return victim;
}

int tern_dcache_set_redirect(tern_dcache_t *dc, const tern_ipv6_addr_t *dst, const tern_ipv6_addr_t *next_hop,
                             uint16_t if_index, uint64_t now_us, uint64_t expires_us)
{
    if (dc == NULL || dst == NULL || next_hop == NULL || if_index == 0 || tern_ipv6_addr_is_multicast(dst) ||
        tern_ipv6_addr_is_unspecified(dst) || tern_ipv6_addr_is_multicast(next_hop) ||
        tern_ipv6_addr_is_unspecified(next_hop)) {
        return -EINVAL;
    }
    bool evicted;
    tern_dcache_entry_t *e = obtain(dc, dst, now_us, &evicted);
    e->next_hop = *next_hop;
    e->if_index = if_index;
    e->redirect_expires_us = expires_us;
    dc->deadline_gen++; /* the owner's cached next deadline may be late now */
    e->redirected = true;
    e->updated_us = now_us;
    e->last_used_us = now_us;
    return evicted ? 1 : 0;
}

int tern_dcache_set_pmtu(tern_dcache_t *dc, const tern_ipv6_addr_t *dst, uint16_t pmtu, uint64_t now_us,
                         uint64_t expires_us)
{
    if (dc == NULL || dst == NULL || tern_ipv6_addr_is_unspecified(dst) || pmtu < TERN_DCACHE_MIN_PMTU) {
        return -EINVAL;
    }
    bool evicted;
    tern_dcache_entry_t *e = obtain(dc, dst, now_us, &evicted);
    e->pmtu = pmtu;
    e->pmtu_expires_us = expires_us;
    dc->deadline_gen++;
    e->updated_us = now_us;
    e->last_used_us = now_us;
    return evicted ? 1 : 0;
}

unsigned tern_dcache_forget_next_hop(tern_dcache_t *dc, uint16_t if_index, const tern_ipv6_addr_t *next_hop)
{
    unsigned dropped = 0;
    for (size_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        tern_dcache_entry_t *e = &dc->entries[i];
        if (e->used && e->redirected && e->if_index == if_index && tern_ipv6_addr_equal(&e->next_hop, next_hop)) {
            clear_redirect(e);
            free_if_empty(dc, e);
            dropped++;
        }
    }
    return dropped;
}

unsigned tern_dcache_expire(tern_dcache_t *dc, uint64_t now_us)
{
    unsigned freed = 0;
    for (size_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        tern_dcache_entry_t *e = &dc->entries[i];
        if (e->used) {
            age(dc, e, now_us);
            freed += e->used ? 0u : 1u;
        }
    }
    return freed;
}

uint64_t tern_dcache_next_deadline(const tern_dcache_t *dc)
{
    uint64_t next = NO_DEADLINE;
    for (size_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        const tern_dcache_entry_t *e = &dc->entries[i];
        if (e->used && e->redirected && e->redirect_expires_us < next) {
            next = e->redirect_expires_us;
        }
        if (e->used && e->pmtu != 0 && e->pmtu_expires_us < next) {
            next = e->pmtu_expires_us;
        }
    }
    return next;
}
