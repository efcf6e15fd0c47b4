/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Interface addresses: DAD, lifetimes, SLAAC (RFC 4862 §5.4, §5.5).
 */
#include <errno.h>
#include <string.h>

#include "tern/div64.h"
#include "tern/ipv6/addrs.h"

#define NO_DEADLINE UINT64_MAX
/** RFC 4862 §5.5.3 (e): the two-hour rule, in seconds. */
#define TWO_HOURS_S 7200u

void tern_ipv6_addrs_init(tern_ipv6_addrs_t *t, const tern_ipv6_addrs_ops_t *ops, void *ctx,
                          uint8_t dad_transmits, uint32_t retrans_timer_us)
{
    memset(t, 0, sizeof(*t));
    t->ops = ops;
    t->ctx = ctx;
    t->dad_transmits = dad_transmits;
    t->retrans_timer_us = retrans_timer_us;
}

/*
 * The end of a lifetime of @p seconds from @p now_us, kept to the tick of
 * 1.05 s after it (tern/expiry.h: never early). A lifetime of 0 has passed
 * already: RFC 4862 §5.5.3 (e), a preferred lifetime of 0 deprecates the
 * address at once, not at the next tick.
 */
static tern_expiry_t lifetime_end(uint32_t seconds, uint64_t now_us)
{
    if (seconds == TERN_IPV6_LIFETIME_INFINITE) {
        return TERN_EXPIRY_NEVER;
    }
    if (seconds == 0) {
        return tern_expiry_now(now_us);
    }
    return tern_expiry_from_us(now_us + (uint64_t)seconds * 1000000u);
}

tern_ipv6_if_addr_t *tern_ipv6_addrs_find(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *addr)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        tern_ipv6_if_addr_t *a = &t->addrs[i];
        if (a->used && tern_ipv6_addr_equal(&a->addr, addr)) {
            return a;
        }
    }
    return NULL;
}

/* Another address of the table maps to the same solicited-node group. */
static bool group_shared(const tern_ipv6_addrs_t *t, const tern_ipv6_if_addr_t *self)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        const tern_ipv6_if_addr_t *a = &t->addrs[i];
        if (a != self && a->used && memcmp(&a->addr.u8[13], &self->addr.u8[13], 3) == 0) {
            return true;
        }
    }
    return false;
}

int tern_ipv6_addrs_add(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *addr, uint8_t prefix_len,
                        uint8_t flags, uint32_t preferred_s, uint32_t valid_s, uint64_t dad_delay_us,
                        uint64_t now_us)
{
    if (t == NULL || addr == NULL || prefix_len > 128 || tern_ipv6_addr_is_multicast(addr) ||
        tern_ipv6_addr_is_unspecified(addr) || tern_ipv6_addr_is_loopback(addr) || valid_s == 0) {
        return -EINVAL;
    }
    if (tern_ipv6_addrs_find(t, addr) != NULL) {
        return -EEXIST;
    }
    tern_ipv6_if_addr_t *slot = NULL;
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS && slot == NULL; i++) {
        if (!t->addrs[i].used) {
            slot = &t->addrs[i];
        }
    }
    if (slot == NULL) {
        return -ENOSPC;
    }
    memset(slot, 0, sizeof(*slot));
    slot->addr = *addr;
    slot->prefix_len = prefix_len;
    slot->flags = flags;
    slot->preferred = lifetime_end(preferred_s, now_us);
    slot->valid = lifetime_end(valid_s, now_us);
    slot->state = TERN_IPV6_ADDR_TENTATIVE;
    slot->deadline_us = now_us + dad_delay_us;
    t->deadline_gen++; /* the owner's cached next deadline may be late now */
    bool joined = group_shared(t, slot);
    slot->used = true;
    /* §5.4.2: join the solicited-node group before soliciting. */
    if (!joined) {
        t->ops->solicited_node(t->ctx, addr, true);
    }
    return 0;
}

static void release(tern_ipv6_addrs_t *t, tern_ipv6_if_addr_t *a)
{
    tern_ipv6_addr_t addr = a->addr;
    bool shared = group_shared(t, a);
    memset(a, 0, sizeof(*a));
    if (!shared) {
        t->ops->solicited_node(t->ctx, &addr, false);
    }
}

int tern_ipv6_addrs_remove(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *addr)
{
    tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(t, addr);
    if (a == NULL) {
        return -ENOENT;
    }
    release(t, a);
    return 0;
}

static void mark_duplicate(tern_ipv6_addrs_t *t, tern_ipv6_if_addr_t *a)
{
    a->state = TERN_IPV6_ADDR_DUPLICATE;
    a->deadline_us = NO_DEADLINE;
    t->ops->duplicate(t->ctx, &a->addr);
}

/* DAD (or registration) done: PREFERRED, or DEPRECATED when the preferred lifetime is over. */
static void make_usable(tern_ipv6_addrs_t *t, tern_ipv6_if_addr_t *a, uint64_t now_us)
{
    a->deadline_us = NO_DEADLINE;
    a->state = tern_expiry_passed(a->preferred, tern_expiry_now(now_us)) ? TERN_IPV6_ADDR_DEPRECATED
                                                                          : TERN_IPV6_ADDR_PREFERRED;
    t->deadline_gen++; /* the preferred lifetime's end counts from now on */
    if (t->ops->ready != NULL) {
        t->ops->ready(t->ctx, &a->addr);
    }
}

bool tern_ipv6_addrs_ns_received(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *target,
                                 const tern_ipv6_addr_t *source)
{
    tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(t, target);
    if (a == NULL || a->state != TERN_IPV6_ADDR_TENTATIVE) {
        return false;
    }
    /* §5.4.3: from the unspecified address, another node is doing DAD for the
     * same address; from a unicast source it is address resolution for an
     * address we do not own yet: not answered, not a duplicate. */
    if (tern_ipv6_addr_is_unspecified(source)) {
        mark_duplicate(t, a);
    }
    return true;
}

bool tern_ipv6_addrs_na_received(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *target)
{
    tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(t, target);
    if (a == NULL || a->state != TERN_IPV6_ADDR_TENTATIVE) {
        return false;
    }
    mark_duplicate(t, a); /* §5.4.4 */
    return true;
}

int tern_ipv6_addrs_slaac(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *prefix, uint8_t prefix_len,
                          uint32_t preferred_s, uint32_t valid_s, const tern_ipv6_addr_t *iid,
                          uint64_t now_us)
{
    /* (b) link-local prefix: ignore; (c) preferred > valid: ignore. */
    if (tern_ipv6_addr_is_link_local(prefix) || preferred_s > valid_s) {
        return -EINVAL;
    }
    /* (d): prefix length plus interface identifier length must be 128. */
    if (prefix_len != 64) {
        return -EINVAL;
    }
    tern_ipv6_addr_t addr = *prefix;
    memcpy(&addr.u8[8], &iid->u8[8], 8);
    tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(t, &addr);
    if (a == NULL || !(a->flags & TERN_IPV6_ADDR_FLAG_AUTOCONF)) {
        if (a != NULL || valid_s == 0) {
            return 0; /* configured otherwise, or nothing to form */
        }
        return tern_ipv6_addrs_add(t, &addr, prefix_len, TERN_IPV6_ADDR_FLAG_AUTOCONF, preferred_s,
                                   valid_s, 0, now_us);
    }
    /* (e): the preferred lifetime is reset; the valid one follows the two-hour rule. */
    a->preferred = lifetime_end(preferred_s, now_us);
    t->deadline_gen++;
    if (a->state == TERN_IPV6_ADDR_DEPRECATED && preferred_s != 0) {
        a->state = TERN_IPV6_ADDR_PREFERRED;
    }
    uint64_t valid_end = tern_expiry_to_us(a->valid);
    uint64_t remaining_s = (a->valid == TERN_EXPIRY_NEVER) ? UINT64_MAX
                           : (valid_end > now_us)         ? tern_udiv64(valid_end - now_us, 1000000u, NULL)
                                                          : 0u;
    if (valid_s > TWO_HOURS_S || (uint64_t)valid_s > remaining_s) {
        a->valid = lifetime_end(valid_s, now_us);
    } else if (remaining_s > TWO_HOURS_S) {
        a->valid = lifetime_end(TWO_HOURS_S, now_us);
    } /* else: remaining <= 2 h, unauthenticated RA: ignore the valid lifetime */
    return 0;
}

void tern_ipv6_addrs_set_register_first(tern_ipv6_addrs_t *t, bool on, uint64_t now_us)
{
    t->register_first = on;
    if (on) {
        return;
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        tern_ipv6_if_addr_t *a = &t->addrs[i];
        if (a->used && a->state == TERN_IPV6_ADDR_TENTATIVE && a->deadline_us == NO_DEADLINE) {
            a->deadline_us = now_us; /* waiting for a registration: finish at the next tick */
            t->deadline_gen++;
        }
    }
}

int tern_ipv6_addrs_registered(tern_ipv6_addrs_t *t, const tern_ipv6_addr_t *addr, bool duplicate,
                               uint64_t now_us)
{
    tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(t, addr);
    if (a == NULL) {
        return -ENOENT;
    }
    if (duplicate && a->state != TERN_IPV6_ADDR_DUPLICATE) {
        mark_duplicate(t, a); /* also a usable one: a refresh can find another owner */
    } else if (!duplicate && a->state == TERN_IPV6_ADDR_TENTATIVE) {
        make_usable(t, a, now_us);
    }
    return 0;
}

uint64_t tern_ipv6_addrs_next_deadline(const tern_ipv6_addrs_t *t)
{
    uint64_t next = NO_DEADLINE;
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        const tern_ipv6_if_addr_t *a = &t->addrs[i];
        if (!a->used) {
            continue;
        }
        if (a->state == TERN_IPV6_ADDR_TENTATIVE && a->deadline_us < next) {
            next = a->deadline_us;
        }
        if (a->state == TERN_IPV6_ADDR_PREFERRED && tern_expiry_to_us(a->preferred) < next) {
            next = tern_expiry_to_us(a->preferred);
        }
        if (tern_expiry_to_us(a->valid) < next) {
            next = tern_expiry_to_us(a->valid);
        }
    }
    return next;
}

void tern_ipv6_addrs_tick(tern_ipv6_addrs_t *t, uint64_t now_us)
{
    tern_expiry_t now = tern_expiry_now(now_us);
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        tern_ipv6_if_addr_t *a = &t->addrs[i];
        if (!a->used) {
            continue;
        }
        if (tern_expiry_passed(a->valid, now)) {
            release(t, a); /* §5.5.4: invalid addresses are removed */
            continue;
        }
        if (a->state == TERN_IPV6_ADDR_TENTATIVE && a->deadline_us <= now_us) {
            if (a->dad_sent < t->dad_transmits) {
                a->dad_sent++;
                a->deadline_us = now_us + t->retrans_timer_us;
                t->deadline_gen++;
                t->ops->send_dad_ns(t->ctx, &a->addr);
            } else if (t->register_first && !tern_ipv6_addr_is_link_local(&a->addr)) {
                /* RFC 6775 §5.5 / RFC 8505 §5.1: usable once a router
                 * confirmed the registration (tern_ipv6_addrs_registered()). */
                a->deadline_us = NO_DEADLINE;
            } else {
                /* §5.4: no answer within RetransTimer after the last probe. */
                make_usable(t, a, now_us);
            }
        } else if (a->state == TERN_IPV6_ADDR_PREFERRED && tern_expiry_passed(a->preferred, now)) {
            a->state = TERN_IPV6_ADDR_DEPRECATED; /* §5.5.4 */
        }
    }
}

const char *tern_ipv6_addr_state_name(tern_ipv6_addr_state_t state)
{
    switch (state) {
    case TERN_IPV6_ADDR_TENTATIVE:
        return "tentative";
    case TERN_IPV6_ADDR_PREFERRED:
        return "preferred";
    case TERN_IPV6_ADDR_DEPRECATED:
        return "deprecated";
    case TERN_IPV6_ADDR_DUPLICATE:
        return "duplicate";
    default:
        return "?";
    }
}
