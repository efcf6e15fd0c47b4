/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Neighbor Discovery for 6LoWPAN links in the IPv6 module (RFC 6775,
 *        RFC 8505): host address registration, the router's registration
 *        table, contexts and the border router from / in RAs, next hops and
 *        link addresses without multicast address resolution.
 *
 * Read first: RFC 6775 §5.5 (host registration), §5.6-§5.7 (next hop and
 * link addresses), §6.5.1-§6.5.3 (router: checks, errors, the entry), §4.1-§4.3
 * (ARO, 6CO, ABRO); RFC 8505 §4.1 and §4.3 (EARO, status values), §5.2 (TID),
 * §5.5 (the Registered Address is the NS Target).
 *
 * Choices (see docs/6LO-ND.md):
 * - a host registers every non-link-local address with every default router
 *   on the link, by NS(EARO + SLLAO) from and for the Registered Address to
 *   the router's link-local address; link-local addresses are formed from the
 *   EUI-64 and map back to it (RFC 6775 §5.2, RFC 4944 §6), so they are not
 *   registered;
 * - the router answers with NA(EARO) to the SLLAO's link address (RFC 6775
 *   §6.5.2), to the NS source on success and to the link-local address of
 *   the EUI-64 on failure;
 * - an older TID of the same owner is refused with status 3 "Moved" (RFC 8505
 *   §5.2: a fresher registration exists), leaving the entry as it is;
 * - multihop DAD (DAR/DAC with a 6LBR, RFC 6775 §8.2) is not done: every
 *   router decides alone, as a 6LBR would.
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/sixlowpan/context.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ndp.h"
#include "tern/wire/ndp_6lo.h"

#define NEVER UINT64_MAX
#define US_PER_S 1000000ull
#define US_PER_MIN 60000000ull
/** RFC 4861 §10 MAX_UNICAST_SOLICIT: NS(EARO) sent per registration before giving up (RFC 6775 §5.5.1). */
#define MAX_UNICAST_SOLICIT 3u
/** RFC 6550 §7.2: lollipop counters start at 256 - SEQUENCE_WINDOW (RFC 8505 §5.2 uses them for the TID). */
#define SEQUENCE_WINDOW 16u
#define TID_INITIAL 240u
/** ND option type of the (E)ARO (RFC 6775 §4.1). */
#define ARO_TYPE TERN_NDP_OPT_ARO
/** Room for the options we put in an NS or NA: SLLAO + EARO with the largest ROVR (40). */
#define OPTIONS_MAX (TERN_IPV6_NDP_LLADDR_OPT_MAX + 40u)

/* ------------------------------------------------------------ public helpers */

const char *tern_ipv6_6lo_bind_state_name(tern_ipv6_6lo_bind_state_t state)
{
    switch (state) {
    case TERN_IPV6_6LO_BIND_REGISTERING:
        return "registering";
    case TERN_IPV6_6LO_BIND_REGISTERED:
        return "registered";
    case TERN_IPV6_6LO_BIND_FAILED:
        return "failed";
    default:
        return "free";
    }
}

int tern_ipv6_6lo_tid_compare(uint8_t a, uint8_t b)
{
    if (a == b) {
        return 0;
    }
    bool a_linear = a >= 128u;
    bool b_linear = b >= 128u;
    /* RFC 6550 §7.2: one in the linear part, the other in the circular part. */
    if (a_linear && !b_linear) {
        return (256u + b - a <= SEQUENCE_WINDOW) ? -1 : 1;
    }
    if (!a_linear && b_linear) {
        return (256u + a - b <= SEQUENCE_WINDOW) ? 1 : -1;
    }
    if (a_linear) {
        unsigned distance = (a > b) ? (unsigned)(a - b) : (unsigned)(b - a);
        if (distance > SEQUENCE_WINDOW) {
            return 1; /* not comparable: take the new one */
        }
        return (a > b) ? 1 : -1;
    }
    /* Circular part: serial number arithmetic with SERIAL_BITS 7 (RFC 1982). */
    unsigned d = (unsigned)(a - b) & 0x7Fu;
    unsigned distance = (d < 64u) ? d : 128u - d;
    if (distance > SEQUENCE_WINDOW) {
        return 1;
    }
    return (d < 64u) ? 1 : -1;
}

uint8_t tern_ipv6_6lo_tid_next(uint8_t tid)
{
    /* 127 and 255 wrap to 0: the two values whose successor has the low 7 bits clear. */
    uint8_t next = (uint8_t)(tid + 1u);
    return ((next & 0x7Fu) != 0u) ? next : 0u;
}

/* ------------------------------------------------------------ helpers */

/* The EUI-64 we register with (the ROVR, RFC 8505 §4.1; the ARO's EUI-64, RFC 6775 §4.1):
 * our interface identifier with the U/L bit turned back (RFC 4291 App. A), which for an
 * 8-byte link address is that address itself (RFC 4944 §6); zero without one. */
static void own_eui64(const tern_ipv6_if_t *ipif, uint8_t *out)
{
    const tern_netif_t *netif = ipif->netif;
    tern_ipv6_addr_t iid = TERN_IPV6_ADDR_UNSPECIFIED;
    memset(out, 0, 8);
    if (tern_ipv6_iid_from_l2addr(&iid, netif->l2addr, netif->l2addr_len) == 0) {
        memcpy(out, &iid.u8[8], 8);
        out[0] ^= 0x02u;
    }
}

/* Is there an option of type ARO in the option area after @p fixed bytes of @p b?
 * Walks as far as the lengths allow, so that a message with an ARO and a bad
 * option is recognised (and counted) as a 6LoWPAN-ND message. */
static bool carries_aro(const uint8_t *b, size_t len, size_t fixed)
{
    size_t off = fixed;
    while (off + 2u <= len) {
        if (b[off] == ARO_TYPE) {
            return true;
        }
        size_t opt_len = (size_t)b[off + 1u] * TERN_NDP_OPT_UNIT;
        if (opt_len == 0) {
            return false;
        }
        off += opt_len;
    }
    return false;
}

/*
 * A default router of @p ipif (RFC 4861 §6.3.4 default router list: the
 * unexpired ::/0 routes via a router), the first from table slot @p from on;
 * @p addr NULL: any, else that router. @return its slot, or TERN_CONF_FIB_SIZE.
 */
static size_t default_router(const tern_ipv6_t *ip, const tern_ipv6_if_t *ipif, size_t from,
                             const tern_ipv6_addr_t *addr, uint64_t now)
{
    for (size_t i = from; i < TERN_CONF_FIB_SIZE; i++) {
        const tern_fib_route_t *r = &ip->fib.routes[i];
        if (r->used && r->len == 0 && r->if_index == ipif->netif->index && !tern_expiry_passed(r->expires, tern_expiry_now(now)) &&
            !tern_ipv6_addr_is_unspecified(&r->next_hop) &&
            (addr == NULL || tern_ipv6_addr_equal(&r->next_hop, addr))) {
            return i;
        }
    }
    return TERN_CONF_FIB_SIZE;
}

/* ------------------------------------------------------------ contexts */

/* Hand a context change to the interface's adaptation layer (6LoWPAN), the
 * module that compresses with it: netapi SET, so it is applied on that
 * module's own turn. An interface without one (a test link) has nobody to
 * tell. */
static void context_report(tern_ipv6_if_t *ipif, const tern_ipv6_6lo_context_t *c, uint32_t lifetime_s)
{
    tern_module_t *adaptation = ipif->netif->adaptation;
    if (adaptation == NULL) {
        return;
    }
    const tern_sixlowpan_context_config_t cfg = {
        .prefix = c->prefix, .lifetime_s = lifetime_s, .cid = c->cid,
        .prefix_len = c->prefix_len, .compress = c->compress,
    };
    if (tern_netapi_set(adaptation, TERN_NETOPT_SIXLOWPAN_CONTEXT, ipif->netif->index, &cfg, sizeof(cfg)) < 0) {
        ipv6_count(ipif->ip, TERN_IPV6_6LO_CONTEXT_REFUSED);
    }
}

static void context_remove(tern_ipv6_if_t *ipif, tern_ipv6_6lo_context_t *c)
{
    tern_ipv6_6lo_context_t old = *c;
    memset(c, 0, sizeof(*c));
    context_report(ipif, &old, 0);
}

/* Set context @p cid. @return true when it is new or its prefix or C flag changed. */
static bool context_set(tern_ipv6_if_t *ipif, uint8_t cid, const tern_ipv6_addr_t *prefix, uint8_t prefix_len,
                        bool compress, uint32_t lifetime_s, uint64_t now)
{
    tern_ipv6_6lo_t *lp = &ipif->lowpan;
    tern_ipv6_6lo_context_t *c = NULL; /* the one of @p cid, else the first free one */
    for (size_t i = 0; i < TERN_CONF_IPV6_6LO_CONTEXTS; i++) {
        tern_ipv6_6lo_context_t *x = &lp->contexts[i];
        if (x->used && x->cid == cid) {
            c = x;
            break;
        }
        if (!x->used && c == NULL) {
            c = x;
        }
    }
    if (c == NULL) {
        ipv6_count(ipif->ip, TERN_IPV6_6LO_CONTEXT_NO_ROOM);
        return false;
    }
    tern_ipv6_addr_t masked = *prefix;
    tern_ipv6_addr_mask(&masked, prefix_len);
    bool changed = !c->used || c->prefix_len != prefix_len || c->compress != compress ||
                   !tern_ipv6_addr_equal(&c->prefix, &masked);
    c->used = true;
    c->cid = cid;
    c->prefix = masked;
    c->prefix_len = prefix_len;
    c->compress = compress;
    c->expires = tern_expiry_from_us(now + (uint64_t)lifetime_s * US_PER_S);
    lp->deadline_gen++; /* the IPv6 module's cached next deadline may be late now */
    context_report(ipif, c, lifetime_s);
    return changed;
}

/* ------------------------------------------------------------ host: registration */

static tern_ipv6_6lo_binding_t *binding_find(tern_ipv6_6lo_t *lp, const tern_ipv6_addr_t *addr,
                                             const tern_ipv6_addr_t *router)
{
    for (size_t i = 0; TERN_CONF_IPV6_ROUTER != 2 && i < TERN_CONF_IPV6_6LO_BINDINGS; i++) {
        tern_ipv6_6lo_binding_t *b = tern_ipv6_6lo_binding(lp, i);
        if (b->state != TERN_IPV6_6LO_BIND_FREE && tern_ipv6_addr_equal(&b->addr, addr) &&
            tern_ipv6_addr_equal(&b->router, router)) {
            return b;
        }
    }
    return NULL;
}

/* A new registration (RFC 8505 §5.2: a new TID; retransmissions keep it).
 * noinline: three callers each had their own copy, TID step included (80 B
 * less in the host image). */
__attribute__((noinline)) static void binding_restart(tern_ipv6_6lo_t *lp, tern_ipv6_6lo_binding_t *b, uint64_t now)
{
    b->state = TERN_IPV6_6LO_BIND_REGISTERING;
    b->tid = lp->next_tid;
    lp->next_tid = tern_ipv6_6lo_tid_next(lp->next_tid);
    b->tries = 0;
    b->deadline_us = now;
    lp->deadline_gen++;
}

/*
 * RFC 6775 §5.5.1, RFC 8505 §5.1/§5.5: a unicast NS to the router, Target
 * and source the Registered Address, with our SLLAO and an EARO (T set, the
 * TID, the EUI-64 as ROVR, @p lifetime_min; 0 deregisters).
 */
/* Its options into @p options (OPTIONS_MAX bytes). @return their length.
 * noinline: the EARO's repr (its 32-byte ROVR) is dead before the NS is
 * sent, so it is not on the stack below ipv6_ndp_send_nsna(). */
__attribute__((noinline)) static size_t registration_options(tern_ipv6_if_t *ipif, const tern_ipv6_6lo_binding_t *b,
                                                              uint16_t lifetime_min, uint8_t *options)
{
    size_t n = ipv6_ndp_own_lladdr(ipif, TERN_NDP_OPT_SLLA, options);
    tern_ndp_6lo_aro_t aro = { .status = 0, .extended = true, .tid = b->tid, .lifetime = lifetime_min,
                               .rovr_len = 8 };
    own_eui64(ipif, aro.rovr);
    int r = tern_ndp_6lo_aro_emit(&aro, options + n, OPTIONS_MAX - n);
    return n + ((r > 0) ? (size_t)r : 0u);
}

static void send_registration(tern_ipv6_if_t *ipif, const tern_ipv6_6lo_binding_t *b, uint16_t lifetime_min)
{
    uint8_t options[OPTIONS_MAX];
    size_t n = registration_options(ipif, b, lifetime_min, options);
    if (ipv6_ndp_send_nsna(ipif, TERN_ICMPV6_NEIGHBOR_SOLICIT, 0, &b->addr, options, n, &b->addr, &b->router, NULL,
                           0) == 0) {
        ipv6_count(ipif->ip, TERN_IPV6_6LO_REG_SENT);
    }
}

void ipv6_6lo_sync(tern_ipv6_if_t *ipif)
{
    tern_ipv6_t *ip = ipif->ip;
    tern_ipv6_6lo_t *lp = &ipif->lowpan;
    if (!lp->enabled || ipv6_is_router(ip)) {
        return;
    }
    uint64_t now = ipv6_now(ip);
    /* Registrations whose address or router went. A removed address that was
     * registered is deregistered (lifetime 0, RFC 8505 §5.1). */
    for (size_t i = 0; TERN_CONF_IPV6_ROUTER != 2 && i < TERN_CONF_IPV6_6LO_BINDINGS; i++) {
        tern_ipv6_6lo_binding_t *b = tern_ipv6_6lo_binding(lp, i);
        if (b->state == TERN_IPV6_6LO_BIND_FREE) {
            continue;
        }
        const tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(&ipif->addrs, &b->addr);
        bool router_ok = default_router(ip, ipif, 0, &b->router, now) < TERN_CONF_FIB_SIZE;
        if (a != NULL && a->state != TERN_IPV6_ADDR_DUPLICATE && router_ok) {
            continue;
        }
        if (a == NULL && router_ok && b->state == TERN_IPV6_6LO_BIND_REGISTERED) {
            tern_ipv6_6lo_binding_t last = *b;
            last.tid = lp->next_tid;
            lp->next_tid = tern_ipv6_6lo_tid_next(lp->next_tid);
            memset(b, 0, sizeof(*b));
            send_registration(ipif, &last, 0);
            continue;
        }
        memset(b, 0, sizeof(*b));
    }
    /* RFC 6775 §5.5.1 (RFC 8505 §5.1): every address but link-local ones, with each default router. */
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        const tern_ipv6_if_addr_t *a = &ipif->addrs.addrs[i];
        if (!a->used || a->state == TERN_IPV6_ADDR_DUPLICATE || tern_ipv6_addr_is_link_local(&a->addr)) {
            continue;
        }
        for (size_t k = 0; (k = default_router(ip, ipif, k, NULL, now)) < TERN_CONF_FIB_SIZE; k++) {
            const tern_fib_route_t *r = &ip->fib.routes[k];
            if (binding_find(lp, &a->addr, &r->next_hop) != NULL) {
                continue;
            }
            tern_ipv6_6lo_binding_t *b = NULL;
            for (size_t j = 0; TERN_CONF_IPV6_ROUTER != 2 && j < TERN_CONF_IPV6_6LO_BINDINGS && b == NULL; j++) {
                if (tern_ipv6_6lo_binding(lp, j)->state == TERN_IPV6_6LO_BIND_FREE) {
                    b = tern_ipv6_6lo_binding(lp, j);
                }
            }
            if (b == NULL) {
                ipv6_count(ip, TERN_IPV6_6LO_NO_BINDING);
                continue;
            }
            memset(b, 0, sizeof(*b));
            b->addr = a->addr;
            b->router = r->next_hop;
            binding_restart(lp, b, now);
        }
    }
}

/* One due step of a host registration. */
static void binding_due(tern_ipv6_if_t *ipif, tern_ipv6_6lo_binding_t *b, uint64_t now)
{
    tern_ipv6_6lo_t *lp = &ipif->lowpan;
    if (b->state != TERN_IPV6_6LO_BIND_REGISTERING) {
        /* REGISTERED: refresh before the lifetime ends; FAILED: try again. */
        binding_restart(lp, b, now);
    }
    if (b->tries >= MAX_UNICAST_SOLICIT) {
        /* RFC 6775 §5.5.3: no answer; try again later (or another router, which has its own binding). */
        ipv6_count(ipif->ip, TERN_IPV6_6LO_REG_TIMEOUT);
        b->state = TERN_IPV6_6LO_BIND_FAILED;
        b->deadline_us = now + (uint64_t)TERN_CONF_IPV6_6LO_RETRY_S * US_PER_S;
        lp->deadline_gen++;
        return;
    }
    b->tries++;
    b->deadline_us = now + ipif->nc.retrans_timer_us; /* RFC 6775 §5.5.1: RetransTimer apart */
    lp->deadline_gen++;
    send_registration(ipif, b, (uint16_t)TERN_CONF_IPV6_6LO_REG_LIFETIME_MIN);
}

/* RFC 6775 §5.5.2, RFC 8505 §4.3 (Table 1): what the router's status means for us. */
static void registration_answered(tern_ipv6_if_t *ipif, tern_ipv6_6lo_binding_t *b, const tern_ndp_6lo_aro_t *aro,
                                  uint64_t now)
{
    tern_ipv6_t *ip = ipif->ip;
    b->status = aro->status;
    ipif->lowpan.deadline_gen++; /* every case below may give @p b a timer */
    switch (aro->status) {
    case TERN_NDP_6LO_STATUS_SUCCESS: {
        ipv6_count(ip, TERN_IPV6_6LO_REG_OK);
        uint64_t lifetime = (uint64_t)aro->lifetime * US_PER_MIN;
        b->state = TERN_IPV6_6LO_BIND_REGISTERED;
        b->expires = tern_expiry_from_us(now + lifetime);
        b->deadline_us = now + lifetime - (uint64_t)aro->lifetime * (US_PER_MIN / 10u); /* refresh at 90 % */
        if (aro->lifetime == 0) {
            b->deadline_us = NEVER; /* a router that granted nothing: retried by the next sync */
            b->state = TERN_IPV6_6LO_BIND_FAILED;
        }
        /* RFC 8505 §5.1: the address is usable once registered. */
        (void)tern_ipv6_addrs_registered(&ipif->addrs, &b->addr, false, now);
        return;
    }
    case TERN_NDP_6LO_STATUS_DUPLICATE: {
        /* RFC 6775 §5.5.2: another node has it: not to be used (reported, counted). */
        ipv6_count(ip, TERN_IPV6_6LO_REG_DUPLICATE);
        tern_ipv6_addr_t addr = b->addr;
        (void)tern_ipv6_addrs_registered(&ipif->addrs, &addr, true, now);
        ipv6_6lo_sync(ipif); /* its registrations go */
        return;
    }
    case TERN_NDP_6LO_STATUS_NC_FULL:
    case TERN_NDP_6LO_STATUS_REGISTRY_SATURATED:
        /* RFC 8505 §4.3: the router (or 6LBR) has no room now: later, or another router. */
        ipv6_count(ip, TERN_IPV6_6LO_REG_REJECTED);
        b->state = TERN_IPV6_6LO_BIND_FAILED;
        b->deadline_us = now + (uint64_t)TERN_CONF_IPV6_6LO_RETRY_S * US_PER_S;
        return;
    case TERN_NDP_6LO_STATUS_REMOVED:
        /* RFC 8505 §4.3: the router dropped the binding: register afresh. */
        ipv6_count(ip, TERN_IPV6_6LO_REG_REJECTED);
        binding_restart(&ipif->lowpan, b, now);
        return;
    default:
        /* Moved, validation, source and topology errors, unknown values: not
         * with this router; the address stays as it is (tentative until
         * another router takes it). */
        ipv6_count(ip, TERN_IPV6_6LO_REG_REJECTED);
        b->state = TERN_IPV6_6LO_BIND_FAILED;
        b->deadline_us = NEVER;
        return;
    }
}

/* ------------------------------------------------------------ router: registration table */

static tern_ipv6_6lo_reg_t *reg_find(tern_ipv6_6lo_t *lp, const tern_ipv6_addr_t *addr, uint64_t now)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_6LO_REG_TABLE_SIZE; i++) {
        tern_ipv6_6lo_reg_t *e = &lp->regs[i];
        if (e->used && !tern_expiry_passed(e->expires, tern_expiry_now(now)) && tern_ipv6_addr_equal(&e->addr, addr)) {
            return e;
        }
    }
    return NULL;
}

/*
 * RFC 6775 §6.5.2-§6.5.3, RFC 8505 §5.2: the registration of @p addr by the
 * owner @p aro (ROVR), reachable at @p l2addr. @return the status to answer.
 */
static uint8_t registration(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *addr, const tern_ndp_6lo_aro_t *aro,
                            const uint8_t *l2addr, size_t l2_len, uint64_t now)
{
    tern_ipv6_t *ip = ipif->ip;
    tern_ipv6_6lo_t *lp = &ipif->lowpan;
    tern_ipv6_6lo_reg_t *e = reg_find(lp, addr, now);
    bool same_owner = e != NULL && e->rovr_len == aro->rovr_len && memcmp(e->rovr, aro->rovr, aro->rovr_len) == 0;
    if ((e != NULL && !same_owner) || ipv6_is_own_address(ip, addr)) {
        ipv6_count(ip, TERN_IPV6_6LO_REG_REFUSED_DUP); /* §6.5.2: another EUI-64 holds it */
        return TERN_NDP_6LO_STATUS_DUPLICATE;
    }
    if (e != NULL && aro->extended && e->extended && tern_ipv6_6lo_tid_compare(aro->tid, e->tid) < 0) {
        ipv6_count(ip, TERN_IPV6_6LO_REG_REFUSED_STALE); /* RFC 8505 §5.2: stale, a fresher one exists */
        return TERN_NDP_6LO_STATUS_MOVED;
    }
    if (aro->lifetime == 0) {
        /* RFC 6775 §6.5.3, RFC 8505 §5.1: lifetime 0 removes the registration. */
        if (e != NULL) {
            memset(e, 0, sizeof(*e));
            ipv6_count(ip, TERN_IPV6_6LO_REG_REMOVED);
        }
        return TERN_NDP_6LO_STATUS_SUCCESS;
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_6LO_REG_TABLE_SIZE && e == NULL; i++) {
        if (!lp->regs[i].used || tern_expiry_passed(lp->regs[i].expires, tern_expiry_now(now))) {
            e = &lp->regs[i];
        }
    }
    if (e == NULL) {
        ipv6_count(ip, TERN_IPV6_6LO_REG_REFUSED_FULL); /* policy when full: refuse, keep the others */
        return TERN_NDP_6LO_STATUS_NC_FULL;
    }
    memset(e, 0, sizeof(*e));
    e->used = true;
    e->addr = *addr;
    memcpy(e->rovr, aro->rovr, aro->rovr_len);
    e->rovr_len = aro->rovr_len;
    memcpy(e->l2addr, l2addr, l2_len);
    e->l2addr_len = (uint8_t)l2_len;
    e->tid = aro->tid;
    e->extended = aro->extended;
    e->expires = tern_expiry_from_us(now + (uint64_t)aro->lifetime * US_PER_MIN);
    lp->deadline_gen++;
    ipv6_count(ip, TERN_IPV6_6LO_REG_ACCEPTED);
    return TERN_NDP_6LO_STATUS_SUCCESS;
}

/*
 * RFC 6775 §6.5.2: the NA with the (E)ARO and @p status, unicast to the
 * registering node's link address @p l2addr: to the NS source on success,
 * to the link-local address of the EUI-64 (the ARO's, or an 8-byte ROVR)
 * otherwise, since the address itself may belong to someone else. The
 * request's @p aro becomes the answer's (its status set): no copy of its
 * ROVR on the stack of the receive path.
 */
static void send_registration_answer(tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const tern_ipv6_addr_t *target,
                                     tern_ndp_6lo_aro_t *aro, uint8_t status, const uint8_t *l2addr, size_t l2_len)
{
    aro->status = status;
    uint8_t options[OPTIONS_MAX];
    int r = tern_ndp_6lo_aro_emit(aro, options, sizeof(options));
    if (r < 0) {
        return; /* parsed above: cannot fail */
    }
    tern_ipv6_addr_t dst = hdr->src;
    if (status != TERN_NDP_6LO_STATUS_SUCCESS && aro->rovr_len == 8) {
        dst = (tern_ipv6_addr_t){ { 0xfe, 0x80 } };
        memcpy(&dst.u8[8], aro->rovr, 8);
        dst.u8[8] ^= 0x02u; /* RFC 4291 App. A: modified EUI-64 */
    }
    const tern_ipv6_addr_t *src = ipv6_ndp_link_local(ipif);
    (void)ipv6_ndp_send_nsna(ipif, TERN_ICMPV6_NEIGHBOR_ADVERT, TERN_NDP_NA_FLAG_ROUTER | TERN_NDP_NA_FLAG_SOLICITED,
                             target, options, (size_t)r, (src != NULL) ? src : &hdr->dst, &dst, l2addr, l2_len);
}

/* ------------------------------------------------------------ receive */

bool ipv6_6lo_ns_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                         size_t len)
{
    if (!carries_aro(b, len, TERN_NDP_NS_LEN)) {
        return false;
    }
    tern_ndp_ns_repr_t ns;
    tern_ndp_opt_t opt;
    tern_ndp_6lo_aro_t aro;
    const uint8_t *l2 = NULL;
    size_t l2_len = 0;
    unsigned reject = TERN_IPV6_STAT_NUMOF;
    if (hdr->hop_limit != TERN_IPV6_ND_HOP_LIMIT) {
        reject = TERN_IPV6_6LO_BAD_HOP_LIMIT; /* RFC 4861 §7.1.1: it may come from off-link */
    } else if (tern_ndp_check_ip(b, len, &hdr->src, &hdr->dst, hdr->hop_limit) < 0 ||
               tern_ndp_ns_parse(&ns, b, len) < 0) {
        reject = TERN_IPV6_6LO_MALFORMED;
    } else if (tern_ndp_opt_find(ns.options, ns.options_len, ARO_TYPE, &opt) != 1 ||
               tern_ndp_6lo_aro_parse(&aro, &opt) < 0) {
        reject = TERN_IPV6_6LO_BAD_ARO;
    } else if (!ipv6_is_router(ip)) {
        reject = TERN_IPV6_6LO_ARO_ON_HOST; /* RFC 6775 §5: hosts do not keep registrations */
    } else if (tern_ipv6_addr_is_unspecified(&hdr->src)) {
        reject = TERN_IPV6_6LO_BAD_SOURCE; /* RFC 6775 §6.5.1: ARO from :: is ignored */
    } else if (tern_ipv6_addr_is_multicast(&hdr->dst)) {
        reject = TERN_IPV6_6LO_MULTICAST_DST; /* RFC 6775 §5.5.1: registrations are unicast */
    } else if ((l2_len = ipv6_ndp_find_lladdr(ipif, ns.options, ns.options_len, TERN_NDP_OPT_SLLA, &l2)) == 0) {
        reject = TERN_IPV6_6LO_NO_SLLAO; /* RFC 6775 §6.5.1: no SLLAO, no entry */
    }
    if (reject != TERN_IPV6_STAT_NUMOF) {
        ipv6_count(ip, reject);
        return true;
    }
    /* RFC 8505 §5.5: an EARO registers the Target; an RFC 6775 ARO the source (§5.5.1). */
    const tern_ipv6_addr_t *registered = aro.extended ? &ns.target : &hdr->src;
    uint8_t status = registration(ipif, registered, &aro, l2, l2_len, ipv6_now(ip));
    send_registration_answer(ipif, hdr, &ns.target, &aro, status, l2, l2_len);
    return true;
}

bool ipv6_6lo_na_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                         size_t len)
{
    if (!carries_aro(b, len, TERN_NDP_NA_LEN)) {
        return false;
    }
    tern_ndp_na_repr_t na;
    tern_ndp_opt_t opt;
    tern_ndp_6lo_aro_t aro;
    unsigned reject = TERN_IPV6_STAT_NUMOF;
    tern_ipv6_6lo_binding_t *bind = NULL;
    if (hdr->hop_limit != TERN_IPV6_ND_HOP_LIMIT) {
        reject = TERN_IPV6_6LO_BAD_HOP_LIMIT;
    } else if (tern_ndp_check_ip(b, len, &hdr->src, &hdr->dst, hdr->hop_limit) < 0 ||
               tern_ndp_na_parse(&na, b, len) < 0) {
        reject = TERN_IPV6_6LO_MALFORMED;
    } else if (tern_ndp_opt_find(na.options, na.options_len, ARO_TYPE, &opt) != 1 ||
               tern_ndp_6lo_aro_parse(&aro, &opt) < 0) {
        reject = TERN_IPV6_6LO_BAD_ARO;
    } else if (ipv6_is_router(ip) || (bind = binding_find(&ipif->lowpan, &na.target, &hdr->src)) == NULL ||
               bind->state != TERN_IPV6_6LO_BIND_REGISTERING) {
        if (bind == NULL && !ipv6_is_router(ip) && aro.lifetime == 0 && aro.status == TERN_NDP_6LO_STATUS_SUCCESS) {
            return true; /* the answer to a deregistration of ours (ipv6_6lo_sync()): nothing left to do */
        }
        reject = TERN_IPV6_6LO_NA_UNEXPECTED; /* not an answer to an NS of ours */
    } else if (aro.extended && aro.tid != bind->tid) {
        reject = TERN_IPV6_6LO_NA_TID_MISMATCH; /* an answer to an earlier registration */
    }
    if (reject != TERN_IPV6_STAT_NUMOF) {
        ipv6_count(ip, reject);
        return true;
    }
    registration_answered(ipif, bind, &aro, ipv6_now(ip));
    return true;
}

bool ipv6_6lo_ra_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const uint8_t *options, size_t len)
{
    tern_ipv6_6lo_t *lp = &ipif->lowpan;
    uint64_t now = ipv6_now(ip);
    tern_ndp_opt_t opt;
    if (tern_ndp_opt_find(options, len, TERN_NDP_OPT_ABRO, &opt) == 1) {
        tern_ndp_6lo_abro_t abro;
        if (tern_ndp_6lo_abro_parse(&abro, &opt) < 0) {
            ipv6_count(ip, TERN_IPV6_6LO_BAD_ABRO);
            return false;
        }
        /* RFC 6775 §4.3: information of an older version of the same border router is stale. */
        if (lp->border.valid && !tern_expiry_passed(lp->border.expires, tern_expiry_now(now)) &&
            tern_ipv6_addr_equal(&lp->border.border_router, &abro.border_router) && abro.version < lp->border.version) {
            ipv6_count(ip, TERN_IPV6_6LO_ABRO_OLD);
            return false;
        }
        uint16_t minutes = (abro.lifetime != 0) ? abro.lifetime : (uint16_t)TERN_NDP_6LO_ABRO_DEFAULT_LIFETIME;
        lp->border.valid = true;
        lp->border.border_router = abro.border_router;
        lp->border.version = abro.version;
        lp->border.expires = tern_expiry_from_us(now + (uint64_t)minutes * US_PER_MIN);
        lp->deadline_gen++;
    }
    /* RFC 6775 §5.4.2: keep the contexts; lifetime 0 removes one at once. */
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_iter_init(&it, options, len);
    while (tern_ndp_opt_next(&it, &opt) > 0) {
        tern_ndp_6lo_6co_t co;
        if (opt.type != TERN_NDP_OPT_6CO) {
            continue;
        }
        if (tern_ndp_6lo_6co_parse(&co, &opt) < 0) {
            ipv6_count(ip, TERN_IPV6_6LO_BAD_6CO);
            continue;
        }
        if (co.lifetime == 0) {
            for (size_t i = 0; i < TERN_CONF_IPV6_6LO_CONTEXTS; i++) {
                if (lp->contexts[i].used && lp->contexts[i].cid == co.cid) {
                    context_remove(ipif, &lp->contexts[i]);
                }
            }
            continue;
        }
        (void)context_set(ipif, co.cid, &co.prefix, co.context_len, co.compression, (uint32_t)co.lifetime * 60u,
                          now);
    }
    return true;
}

/* ------------------------------------------------------------ router: RA options */

/* Minutes left until @p expires, to relay: never more than received, at least 1, at most 65535 (tern/expiry.h). */
static uint16_t minutes_left(tern_expiry_t expires, uint64_t now)
{
    uint64_t m = tern_expiry_units_left(expires, now, US_PER_MIN);
    return (uint16_t)((m > 0xFFFFu) ? 0xFFFFu : m);
}

/*
 * RFC 6775 §8.1: a 6LR relays what the 6LBR disseminates: the contexts and
 * the ABRO it learnt from RAs of the routers towards the 6LBR (a router
 * without prefixes of its own, e.g. an RPL router of a mesh), with their
 * remaining lifetimes. @return the options' length.
 */
static size_t relay_options(tern_ipv6_if_t *ipif, uint8_t *buf, size_t len, uint64_t now)
{
    tern_ipv6_6lo_t *lp = &ipif->lowpan;
    size_t n = 0;
    for (size_t i = 0; i < TERN_CONF_IPV6_6LO_CONTEXTS; i++) {
        const tern_ipv6_6lo_context_t *c = &lp->contexts[i];
        if (!c->used || tern_expiry_passed(c->expires, tern_expiry_now(now))) {
            continue;
        }
        tern_ndp_6lo_6co_t co = { .context_len = c->prefix_len, .compression = c->compress, .cid = c->cid,
                                  .lifetime = minutes_left(c->expires, now), .prefix = c->prefix };
        size_t co_len = tern_ndp_6lo_6co_len(&co);
        if (buf != NULL && tern_ndp_6lo_6co_emit(&co, buf + n, len - n) < 0) {
            return n;
        }
        n += co_len;
    }
    if (buf != NULL) {
        tern_ndp_6lo_abro_t abro = { .version = lp->border.version,
                                     .lifetime = minutes_left(lp->border.expires, now),
                                     .border_router = lp->border.border_router };
        if (tern_ndp_6lo_abro_emit(&abro, buf + n, len - n) < 0) {
            return n;
        }
    }
    return n + TERN_NDP_6LO_ABRO_LEN;
}

/* Does @p ipif advertise a prefix of its own (a 6LBR)? */
static bool own_prefixes(const tern_ipv6_if_t *ipif)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        if (ipv6_rd_advertised_prefix(ipif, i)) {
            return true;
        }
    }
    return false;
}

size_t ipv6_6lo_ra_options(tern_ipv6_if_t *ipif, uint8_t *buf, size_t len)
{
    tern_ipv6_6lo_t *lp = &ipif->lowpan;
    if (!lp->enabled || !ipv6_is_router(ipif->ip)) {
        return 0;
    }
    uint64_t now = ipv6_now(ipif->ip);
    if (!own_prefixes(ipif) && lp->border.valid && !tern_expiry_passed(lp->border.expires, tern_expiry_now(now))) {
        return relay_options(ipif, buf, len, now);
    }
    size_t n = 0;
    uint8_t cid = 0;
    bool changed = false;
    const tern_ipv6_addr_t *border = ipv6_ndp_link_local(ipif);
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS && cid < TERN_CONF_IPV6_6LO_CONTEXTS; i++) {
        if (!ipv6_rd_advertised_prefix(ipif, i)) {
            continue;
        }
        const tern_ipv6_if_addr_t *a = &ipif->addrs.addrs[i];
        if (cid == 0) {
            border = &a->addr; /* RFC 6775 §4.3: the 6LBR's (global) address */
        }
        /* RFC 6775 §4.2, RFC 6282 §3.1.2: context 0 is the first prefix, compression on. */
        tern_ndp_6lo_6co_t co = { .context_len = a->prefix_len, .compression = true, .cid = cid,
                                  .lifetime = (uint16_t)TERN_CONF_IPV6_6LO_CONTEXT_LIFETIME_MIN, .prefix = a->addr };
        tern_ipv6_addr_mask(&co.prefix, a->prefix_len);
        size_t co_len = tern_ndp_6lo_6co_len(&co);
        if (buf != NULL) {
            int r = tern_ndp_6lo_6co_emit(&co, buf + n, len - n);
            if (r < 0) {
                return n;
            }
            changed |= context_set(ipif, cid, &co.prefix, co.context_len, true,
                                   (uint32_t)TERN_CONF_IPV6_6LO_CONTEXT_LIFETIME_MIN * 60u, now);
        }
        n += co_len;
        cid++;
    }
    if (border == NULL) {
        return n;
    }
    if (buf != NULL) {
        if (changed || !lp->border.valid) {
            /* RFC 6775 §4.3: a new version whenever prefixes or contexts change. */
            lp->border.version = lp->border.valid ? lp->border.version + 1u : 1u;
        }
        lp->border.valid = true;
        lp->border.border_router = *border;
        lp->border.expires = tern_expiry_from_us(now + (uint64_t)TERN_CONF_IPV6_6LO_ABRO_LIFETIME_MIN * US_PER_MIN);
        lp->deadline_gen++;
        tern_ndp_6lo_abro_t abro = { .version = lp->border.version,
                                     .lifetime = (uint16_t)TERN_CONF_IPV6_6LO_ABRO_LIFETIME_MIN,
                                     .border_router = *border };
        if (tern_ndp_6lo_abro_emit(&abro, buf + n, len - n) < 0) {
            return n;
        }
    }
    return n + TERN_NDP_6LO_ABRO_LEN;
}

/* ------------------------------------------------------------ send */

void ipv6_6lo_send(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *next_hop, tern_pkt_t *pkt)
{
    tern_ipv6_addr_t hop = *next_hop;
    tern_netif_hdr_t *nhdr = pkt->data;
    size_t l2_len = 0;
    /* RFC 6775 §5.6: a host sends everything but link-local traffic to a default router. */
    bool routed = ipv6_is_router(ip) || tern_ipv6_addr_is_link_local(&hop);
    if (!routed) {
        size_t k = default_router(ip, ipif, 0, NULL, ipv6_now(ip));
        routed = k < TERN_CONF_FIB_SIZE;
        if (routed) {
            hop = ip->fib.routes[k].next_hop;
        }
    }
    if (routed) {
        const tern_ipv6_6lo_reg_t *e = ipv6_is_router(ip) ? reg_find(&ipif->lowpan, &hop, ipv6_now(ip)) : NULL;
        const tern_nc_entry_t *n;
        if (e != NULL) {
            /* RFC 6775 §6.5.3: registered entries are the neighbor cache of a router. */
            memcpy(nhdr->dst, e->l2addr, e->l2addr_len);
            l2_len = e->l2addr_len;
        } else if ((n = tern_nc_lookup(&ipif->nc, &hop)) != NULL && n->state != TERN_NC_INCOMPLETE &&
                   n->l2addr_len > 0) {
            memcpy(nhdr->dst, n->l2addr, n->l2addr_len); /* learnt from an SLLAO (RA, RS, NS) */
            l2_len = n->l2addr_len;
        } else if (tern_ipv6_addr_is_link_local(&hop)) {
            l2_len = tern_ipv6_l2addr_from_iid(&hop, nhdr->dst); /* RFC 6775 §5.7, RFC 4944 §6 */
        }
    }
    if (l2_len == 0) {
        /* No registration, no router: RFC 6775 §5.1/§6 forbid asking by multicast. */
        ipv6_count(ip, TERN_IPV6_6LO_TX_UNRESOLVED);
        ipv6_icmpv6_error_unresolved(ip, pkt);
        return;
    }
    nhdr->dst_len = (uint8_t)l2_len;
    ipv6_transmit(ip, pkt);
}

/* ------------------------------------------------------------ state, time */

void ipv6_6lo_enable(tern_ipv6_if_t *ipif)
{
    tern_ipv6_6lo_t *lp = &ipif->lowpan;
    uint32_t gen = lp->deadline_gen;
    memset(lp, 0, sizeof(*lp));
    lp->deadline_gen = gen + 1u; /* never goes back: the IPv6 module compares it */
    lp->enabled = true;
    lp->next_tid = TID_INITIAL;
    ipif->addrs.register_first = !ipv6_is_router(ipif->ip);
}

void ipv6_6lo_mode_changed(tern_ipv6_if_t *ipif)
{
    tern_ipv6_6lo_t *lp = &ipif->lowpan;
    if (!lp->enabled) {
        return;
    }
    uint64_t now = ipv6_now(ipif->ip);
    /* What one role kept means nothing to the other. */
    for (size_t i = 0; TERN_CONF_IPV6_ROUTER != 2 && i < TERN_CONF_IPV6_6LO_BINDINGS; i++) {
        memset(tern_ipv6_6lo_binding(lp, i), 0, sizeof(tern_ipv6_6lo_binding_t));
    }
    memset(lp->regs, 0, sizeof(lp->regs));
    memset(&lp->border, 0, sizeof(lp->border));
    for (size_t i = 0; i < TERN_CONF_IPV6_6LO_CONTEXTS; i++) {
        if (lp->contexts[i].used) {
            context_remove(ipif, &lp->contexts[i]);
        }
    }
    /* A router's own addresses need no registration (it is the registrar, RFC 6775 §6). */
    tern_ipv6_addrs_set_register_first(&ipif->addrs, !ipv6_is_router(ipif->ip), now);
}

uint64_t ipv6_6lo_next_deadline(const tern_ipv6_if_t *ipif)
{
    const tern_ipv6_6lo_t *lp = &ipif->lowpan;
    uint64_t next = NEVER;
    if (!lp->enabled) {
        return next;
    }
    /* Our registrations are a host's (RFC 6775 §5.5): none in a router-only image. */
    for (size_t i = 0; TERN_CONF_IPV6_ROUTER != 2 && i < TERN_CONF_IPV6_6LO_BINDINGS; i++) {
        const tern_ipv6_6lo_binding_t *b = tern_ipv6_6lo_binding_const(lp, i);
        if (b->state != TERN_IPV6_6LO_BIND_FREE && b->deadline_us < next) {
            next = b->deadline_us;
        }
    }
    /* The registration table is a router's (RFC 6775 §6.5): empty in a host image. */
    for (size_t i = 0; TERN_CONF_IPV6_ROUTER && i < TERN_CONF_IPV6_6LO_REG_TABLE_SIZE; i++) {
        if (lp->regs[i].used && tern_expiry_to_us(lp->regs[i].expires) < next) {
            next = tern_expiry_to_us(lp->regs[i].expires);
        }
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_6LO_CONTEXTS; i++) {
        if (lp->contexts[i].used && tern_expiry_to_us(lp->contexts[i].expires) < next) {
            next = tern_expiry_to_us(lp->contexts[i].expires);
        }
    }
    if (lp->border.valid && tern_expiry_to_us(lp->border.expires) < next) {
        next = tern_expiry_to_us(lp->border.expires);
    }
    return next;
}

void ipv6_6lo_tick(tern_ipv6_if_t *ipif, uint64_t now_us)
{
    tern_ipv6_6lo_t *lp = &ipif->lowpan;
    if (!lp->enabled) {
        return;
    }
    tern_expiry_t now = tern_expiry_now(now_us);
    for (size_t i = 0; TERN_CONF_IPV6_ROUTER && i < TERN_CONF_IPV6_6LO_REG_TABLE_SIZE; i++) {
        tern_ipv6_6lo_reg_t *e = &lp->regs[i];
        if (e->used && tern_expiry_passed(e->expires, now)) {
            memset(e, 0, sizeof(*e)); /* RFC 6775 §6.5.3: the lifetime ran out */
            ipv6_count(ipif->ip, TERN_IPV6_6LO_REG_EXPIRED);
        }
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_6LO_CONTEXTS; i++) {
        if (lp->contexts[i].used && tern_expiry_passed(lp->contexts[i].expires, now)) {
            context_remove(ipif, &lp->contexts[i]); /* RFC 6775 §5.4.3 */
        }
    }
    if (lp->border.valid && tern_expiry_passed(lp->border.expires, now)) {
        lp->border.valid = false;
    }
    ipv6_6lo_sync(ipif);
    for (size_t i = 0; TERN_CONF_IPV6_ROUTER != 2 && i < TERN_CONF_IPV6_6LO_BINDINGS; i++) {
        tern_ipv6_6lo_binding_t *b = tern_ipv6_6lo_binding(lp, i);
        if (b->state != TERN_IPV6_6LO_BIND_FREE && b->deadline_us <= now_us) {
            binding_due(ipif, b, now_us);
        }
    }
}

int ipv6_6lo_get_option(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, tern_netapi_opt_t *opt)
{
    if (ipif == NULL) {
        return -ENODEV;
    }
    tern_ipv6_6lo_state_t *out = opt->data;
    if (opt->data_len < sizeof(*out)) {
        return -EOVERFLOW;
    }
    out->now_us = ipv6_now(ip);
    out->router = ipv6_is_router(ip);
    memcpy(&out->state, &ipif->lowpan, sizeof(out->state));
    return (int)sizeof(*out);
}
