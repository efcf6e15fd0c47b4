/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Neighbor cache state machine (RFC 4861 §7.2, §7.3, Appendix C; the
 *        Redirect target of §8.3).
 *
 * Re-entrancy: callbacks may call back into the cache (an unreachable packet
 * makes the owner send an ICMPv6 error, which resolves another neighbor).
 * Every function therefore finishes changing an entry before it calls out,
 * and hands out packets from a local copy of a queue, never from the entry.
 */
#include <errno.h>
#include <string.h>

#include "tern/ipv6/nc.h"

#define NO_DEADLINE UINT64_MAX

void tern_nc_init(tern_nc_t *nc, const tern_nc_ops_t *ops, void *ctx, uint32_t reachable_time_us,
                  uint32_t retrans_timer_us)
{
    memset(nc, 0, sizeof(*nc));
    nc->ops = ops;
    nc->ctx = ctx;
    nc->reachable_time_us = reachable_time_us;
    nc->retrans_timer_us = retrans_timer_us;
}

/* tern_nc_t::top, the bound of lookups: one past the highest slot in use,
 * raised when slot @p i becomes used, lowered when a slot becomes FREE. A
 * fast path (config.h): without, lookups scan the whole table. */
#if TERN_CONF_FAST_PATHS
static size_t scan_end(const tern_nc_t *nc)
{
    return nc->top;
}

static void raise_top(tern_nc_t *nc, size_t i)
{
    if (i >= nc->top) {
        nc->top = (uint8_t)(i + 1u);
    }
}

static void lower_top(tern_nc_t *nc)
{
    while (nc->top > 0 && nc->entries[nc->top - 1u].state == TERN_NC_FREE) {
        nc->top--;
    }
}
#else
static inline size_t scan_end(const tern_nc_t *nc)
{
    (void)nc;
    return TERN_CONF_NC_SIZE;
}

static inline void raise_top(tern_nc_t *nc, size_t i)
{
    (void)nc;
    (void)i;
}

static inline void lower_top(tern_nc_t *nc)
{
    (void)nc;
}
#endif

tern_nc_entry_t *tern_nc_lookup(tern_nc_t *nc, const tern_ipv6_addr_t *addr)
{
    for (size_t i = 0; i < scan_end(nc); i++) {
        tern_nc_entry_t *e = &nc->entries[i];
        if (e->state != TERN_NC_FREE && tern_ipv6_addr_equal(&e->addr, addr)) {
            return e;
        }
    }
    return NULL;
}

/* noinline: every state change calls it; inlined, each copy carried its
 * 64-bit deadline arithmetic (64 B less in the host image). */
__attribute__((noinline)) static void set_state(tern_nc_t *nc, tern_nc_entry_t *e, tern_nc_state_t state, uint64_t now_us)
{
    e->state = (uint8_t)state;
    switch (state) {
    case TERN_NC_REACHABLE:
        e->probes = 0;
        e->deadline_us = now_us + nc->reachable_time_us;
        break;
    case TERN_NC_DELAY:
        e->deadline_us = now_us + TERN_NC_DELAY_FIRST_PROBE_TIME_US;
        break;
    case TERN_NC_INCOMPLETE:
    case TERN_NC_PROBE:
        e->probes = 1;
        e->deadline_us = now_us + nc->retrans_timer_us;
        break;
    default: /* STALE has no timer (§7.3.2); FREE none either */
        e->probes = 0;
        e->deadline_us = NO_DEADLINE;
        return;
    }
    nc->deadline_gen++; /* the owner's cached next deadline may be late now */
}

static bool set_l2addr(tern_nc_entry_t *e, const uint8_t *l2addr, size_t l2_len)
{
    bool differs = (l2_len != e->l2addr_len) || memcmp(e->l2addr, l2addr, l2_len) != 0;
    memcpy(e->l2addr, l2addr, l2_len);
    e->l2addr_len = (uint8_t)l2_len;
    return differs;
}

/* Take the queue of @p e out of the entry (so callbacks may change the entry). */
static size_t take_queue(tern_nc_entry_t *e, tern_pkt_t **out)
{
    size_t n = e->queued;
    memcpy(out, e->queue, n * sizeof(out[0]));
    memset(e->queue, 0, sizeof(e->queue));
    e->queued = 0;
    return n;
}

/* Free @p e; its queued packets go to unreachable(). */
static void release_entry(tern_nc_t *nc, tern_nc_entry_t *e)
{
    tern_pkt_t *pending[TERN_CONF_NC_QUEUE_LEN];
    tern_ipv6_addr_t addr = e->addr;
    size_t n = take_queue(e, pending);
    memset(e, 0, sizeof(*e));
    lower_top(nc);
    for (size_t i = 0; i < n; i++) {
        nc->ops->unreachable(nc->ctx, &addr, pending[i]);
    }
}

/** Packets of an entry that was reused, to hand to unreachable() afterwards. */
typedef struct {
    tern_ipv6_addr_t addr;
    tern_pkt_t *pkts[TERN_CONF_NC_QUEUE_LEN];
    size_t count;
} evicted_t;

/*
 * A free slot, or the entry to reuse when the table is full: the least
 * recently used one, preferring entries that are not routers and not being
 * resolved (an INCOMPLETE entry holds packets; a router's is needed for
 * every off-link packet). Does not call out: the packets of a reused entry
 * are left in @p evicted for report_evicted(), called once the new entry is
 * complete.
 */
static tern_nc_entry_t *alloc_entry(tern_nc_t *nc, const tern_ipv6_addr_t *addr, evicted_t *evicted)
{
    tern_nc_entry_t *victim = NULL;
    unsigned victim_rank = 0;
    evicted->count = 0;
    for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        tern_nc_entry_t *e = &nc->entries[i];
        if (e->state == TERN_NC_FREE) {
            victim = e;
            raise_top(nc, i); /* the caller makes it used */
            break;
        }
        unsigned rank = (e->state == TERN_NC_INCOMPLETE ? 2u : 0u) + (e->is_router ? 1u : 0u);
        if (victim == NULL || rank < victim_rank ||
            (rank == victim_rank && nc->uses - e->last_use > nc->uses - victim->last_use)) {
            victim = e;
            victim_rank = rank;
        }
    }
    if (victim->state != TERN_NC_FREE) {
        tern_count(&nc->counters[TERN_NC_EVICTED]);
        evicted->addr = victim->addr;
        evicted->count = take_queue(victim, evicted->pkts);
    }
    memset(victim, 0, sizeof(*victim));
    victim->addr = *addr;
    victim->deadline_us = NO_DEADLINE;
    return victim;
}

static void report_evicted(tern_nc_t *nc, const evicted_t *evicted)
{
    for (size_t i = 0; i < evicted->count; i++) {
        nc->ops->unreachable(nc->ctx, &evicted->addr, evicted->pkts[i]);
    }
}

/* Transmit every packet queued on @p e, oldest first. */
static void flush_queue(tern_nc_t *nc, tern_nc_entry_t *e)
{
    tern_pkt_t *pending[TERN_CONF_NC_QUEUE_LEN];
    size_t n = take_queue(e, pending);
    for (size_t i = 0; i < n; i++) {
        nc->ops->transmit(nc->ctx, e, pending[i]);
    }
}

int tern_nc_send(tern_nc_t *nc, const tern_ipv6_addr_t *addr, tern_pkt_t *pkt, uint64_t now_us)
{
    tern_nc_entry_t *e = tern_nc_lookup(nc, addr);
    if (e == NULL) {
        /* §7.2.2: create an INCOMPLETE entry, queue, solicit by multicast. */
        evicted_t evicted;
        e = alloc_entry(nc, addr, &evicted);
        e->last_use = ++nc->uses;
        set_state(nc, e, TERN_NC_INCOMPLETE, now_us);
        e->queue[0] = pkt;
        e->queued = 1;
        nc->ops->send_ns(nc->ctx, e, false);
        report_evicted(nc, &evicted);
        return 0;
    }
    e->last_use = ++nc->uses;
    switch ((tern_nc_state_t)e->state) {
    case TERN_NC_INCOMPLETE:
        if (e->queued == TERN_CONF_NC_QUEUE_LEN) {
            /* §7.2.2: "the new arrival SHOULD replace the oldest entry". */
            tern_pkt_t *oldest = e->queue[0];
            memmove(&e->queue[0], &e->queue[1], (TERN_CONF_NC_QUEUE_LEN - 1u) * sizeof(e->queue[0]));
            e->queue[TERN_CONF_NC_QUEUE_LEN - 1u] = pkt;
            tern_count(&nc->counters[TERN_NC_QUEUE_OVERFLOW]);
            nc->ops->dropped(nc->ctx, oldest);
        } else {
            e->queue[e->queued++] = pkt;
        }
        return 0;
    case TERN_NC_STALE:
        /* §7.3.3: the first packet to a STALE neighbor starts the delay. */
        set_state(nc, e, TERN_NC_DELAY, now_us);
        nc->ops->transmit(nc->ctx, e, pkt);
        return 0;
    default: /* REACHABLE, DELAY, PROBE: the address is usable. */
        nc->ops->transmit(nc->ctx, e, pkt);
        return 0;
    }
}

bool tern_nc_na_received(tern_nc_t *nc, const tern_ipv6_addr_t *target, const uint8_t *l2addr,
                         size_t l2_len, tern_nc_na_flags_t flags, uint64_t now_us)
{
    tern_nc_entry_t *e = tern_nc_lookup(nc, target);
    if (e == NULL || l2_len > TERN_CONF_L2ADDR_MAX) {
        return false; /* §7.2.5: no entry, silently discard */
    }
    if (e->state == TERN_NC_INCOMPLETE) {
        if (l2_len == 0) {
            return false; /* §7.2.5: no target link-layer address: discard */
        }
        (void)set_l2addr(e, l2addr, l2_len);
        e->is_router = flags.router;
        set_state(nc, e, flags.solicited ? TERN_NC_REACHABLE : TERN_NC_STALE, now_us);
        flush_queue(nc, e);
        return false;
    }
    bool differs = l2_len > 0 && (l2_len != e->l2addr_len || memcmp(e->l2addr, l2addr, l2_len) != 0);
    if (!flags.override && differs) {
        /* §7.2.5 (a)/(b): only a REACHABLE entry is touched, and only its state. */
        if (e->state == TERN_NC_REACHABLE) {
            set_state(nc, e, TERN_NC_STALE, now_us);
        }
        return false;
    }
    if (differs) {
        (void)set_l2addr(e, l2addr, l2_len);
    }
    if (flags.solicited) {
        set_state(nc, e, TERN_NC_REACHABLE, now_us);
    } else if (differs) {
        set_state(nc, e, TERN_NC_STALE, now_us);
    }
    bool was_router = e->is_router;
    e->is_router = flags.router;
    return was_router && !flags.router;
}

int tern_nc_lladdr_seen(tern_nc_t *nc, const tern_ipv6_addr_t *source, const uint8_t *l2addr,
                        size_t l2_len, bool from_router, uint64_t now_us)
{
    if (l2_len == 0 || l2_len > TERN_CONF_L2ADDR_MAX) {
        return -EINVAL;
    }
    tern_nc_entry_t *e = tern_nc_lookup(nc, source);
    if (e == NULL) {
        /* §7.2.3 / §6.3.4: a new entry is STALE. */
        evicted_t evicted;
        e = alloc_entry(nc, source, &evicted);
        e->last_use = ++nc->uses;
        (void)set_l2addr(e, l2addr, l2_len);
        set_state(nc, e, TERN_NC_STALE, now_us);
        e->is_router = from_router;
        report_evicted(nc, &evicted);
        return 0;
    }
    if (from_router) {
        e->is_router = true; /* §6.3.4 */
    }
    if (e->state == TERN_NC_INCOMPLETE) {
        /* §7.2.3: record, STALE, send what waited; sending to a STALE
         * neighbor then moves it to DELAY (§7.3.3). */
        (void)set_l2addr(e, l2addr, l2_len);
        set_state(nc, e, e->queued > 0 ? TERN_NC_DELAY : TERN_NC_STALE, now_us);
        flush_queue(nc, e);
        return 0;
    }
    if (set_l2addr(e, l2addr, l2_len)) {
        set_state(nc, e, TERN_NC_STALE, now_us);
    }
    return 0;
}

int tern_nc_redirect_received(tern_nc_t *nc, const tern_ipv6_addr_t *target, const uint8_t *l2addr,
                              size_t l2_len, bool router, uint64_t now_us)
{
    if (l2_len > TERN_CONF_L2ADDR_MAX) {
        return -EINVAL;
    }
    if (l2_len > 0) {
        /* §8.3: "its reachability state MUST be set to STALE as specified in
         * Section 7.3.3"; same address: "the cache entry's state remains
         * unchanged"; IsRouter TRUE when the target is a router, a new entry
         * for an on-link target FALSE: what tern_nc_lladdr_seen() does. */
        return tern_nc_lladdr_seen(nc, target, l2addr, l2_len, router, now_us);
    }
    tern_nc_entry_t *e = tern_nc_lookup(nc, target);
    if (e != NULL && router) {
        e->is_router = true; /* §8.3: "the host MUST set IsRouter to TRUE for the target" */
    }
    return 0;
}

void tern_nc_confirm(tern_nc_t *nc, const tern_ipv6_addr_t *addr, uint64_t now_us)
{
    tern_nc_entry_t *e = tern_nc_lookup(nc, addr);
    if (e != NULL && e->state != TERN_NC_INCOMPLETE) {
        set_state(nc, e, TERN_NC_REACHABLE, now_us);
    }
}

void tern_nc_remove(tern_nc_t *nc, const tern_ipv6_addr_t *addr)
{
    tern_nc_entry_t *e = tern_nc_lookup(nc, addr);
    if (e != NULL) {
        release_entry(nc, e);
    }
}

uint64_t tern_nc_next_deadline(const tern_nc_t *nc)
{
    uint64_t next = NO_DEADLINE;
    for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        const tern_nc_entry_t *e = &nc->entries[i];
        if (e->state != TERN_NC_FREE && e->deadline_us < next) {
            next = e->deadline_us;
        }
    }
    return next;
}

/* One expired timer of @p e (Appendix C, the "timeout" rows). */
static void expire(tern_nc_t *nc, tern_nc_entry_t *e, uint64_t now_us)
{
    switch ((tern_nc_state_t)e->state) {
    case TERN_NC_INCOMPLETE:
    case TERN_NC_PROBE: {
        /* Another solicitation RetransTimer later: multicast while resolving
         * (§7.2.2), unicast while probing (§7.3.3), up to MAX_*_SOLICIT. */
        bool probe = e->state == TERN_NC_PROBE;
        if (e->probes < (probe ? TERN_NC_MAX_UNICAST_SOLICIT : TERN_NC_MAX_MULTICAST_SOLICIT)) {
            e->probes++;
            e->deadline_us = now_us + nc->retrans_timer_us;
            nc->deadline_gen++;
            nc->ops->send_ns(nc->ctx, e, probe);
        } else {
            /* §7.2.2: ICMP address unreachable for each queued packet; §7.3.3: the
             * entry SHOULD be deleted. */
            tern_count(&nc->counters[probe ? TERN_NC_PROBE_FAILED : TERN_NC_RESOLVE_FAILED]);
            release_entry(nc, e);
        }
        break;
    }
    case TERN_NC_REACHABLE:
        set_state(nc, e, TERN_NC_STALE, now_us);
        break;
    case TERN_NC_DELAY:
        set_state(nc, e, TERN_NC_PROBE, now_us);
        nc->ops->send_ns(nc->ctx, e, true);
        break;
    default:
        e->deadline_us = NO_DEADLINE;
        break;
    }
}

void tern_nc_tick(tern_nc_t *nc, uint64_t now_us)
{
    /* Callbacks may add or remove entries: rescan until nothing is due. */
    bool again = true;
    while (again) {
        again = false;
        for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
            tern_nc_entry_t *e = &nc->entries[i];
            if (e->state != TERN_NC_FREE && e->deadline_us <= now_us) {
                expire(nc, e, now_us);
                again = true;
            }
        }
    }
}

const char *tern_nc_state_name(tern_nc_state_t state)
{
    switch (state) {
    case TERN_NC_INCOMPLETE:
        return "INCOMPLETE";
    case TERN_NC_REACHABLE:
        return "REACHABLE";
    case TERN_NC_STALE:
        return "STALE";
    case TERN_NC_DELAY:
        return "DELAY";
    case TERN_NC_PROBE:
        return "PROBE";
    default:
        return "FREE";
    }
}
