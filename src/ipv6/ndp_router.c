/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Router discovery in the IPv6 module: Router Solicitation and
 *        Router Advertisement for hosts and routers (RFC 4861 §6), the
 *        default router list and the prefix list kept in the forwarding
 *        table, and SLAAC from Prefix Information (RFC 4862 §5.5.3).
 *
 * Read first: RFC 4861 §6.2.1 (router variables), §6.2.4-§6.2.6 (when a
 * router advertises), §6.3.4 (what a host does with an RA), §6.3.7 (when a
 * host solicits), §10 (protocol constants).
 *
 * Both sides share one deadline per interface (tern_ipv6_rd_t): a host's
 * next Router Solicitation, or a router's next multicast Router
 * Advertisement (unsolicited or in answer to an RS). The default router
 * list is the forwarding table's ::/0 routes via each router (origin RA,
 * expiring with the Router Lifetime); the prefix list its on-link routes of
 * origin RA (expiring with the Valid Lifetime).
 *
 * A router adds a Route Information option (RFC 4191 §2.3) for each route
 * configured on the interface (TERN_NETOPT_IPV6_ROUTE_INFO_ADD): RFC 4191 §1,
 * the routes advertised "require administrative configuration; they are not
 * automatically derived from routing tables". A border router announces its
 * mesh prefix so on its Ethernet side.
 *
 * Not done: the Default Router Preference (RFC 4191 §2.2, sent as medium),
 * a host's use of received Route Information options (RFC 4191 §3 type C
 * host: Tern hosts ignore them, as a type A host), a final RA with Route
 * Lifetime 0 when a route is deleted, RDNSS, the M/O flags (no DHCPv6), re-randomising ReachableTime
 * every few hours (§6.3.4 "at least every few hours"), a final RA with
 * zero lifetimes when a prefix is deleted, RAs with unicast destination.
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/div64.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ndp.h"

/** @name RFC 4861 §10 constants (host and router), in microseconds or counts */
/** @{ */
#define MAX_RTR_SOLICITATION_DELAY_US 1000000u
#define RTR_SOLICITATION_INTERVAL_US 4000000u
#define MAX_RTR_SOLICITATIONS 3u
#define MAX_INITIAL_RTR_ADVERT_INTERVAL_US 16000000u
#define MAX_INITIAL_RTR_ADVERTISEMENTS 3u
#define MIN_DELAY_BETWEEN_RAS_US 3000000u
#define MAX_RA_DELAY_TIME_US 500000u
/** RFC 6775 §9 (6LoWPAN hosts): RTR_SOLICITATION_INTERVAL 10 s, then binary
 *  backoff up to MAX_RTR_SOLICITATION_INTERVAL 60 s (§5.3). */
#define LOWPAN_RTR_SOLICITATION_INTERVAL_US 10000000u
#define LOWPAN_MAX_RTR_SOLICITATION_INTERVAL_US 60000000u
/** Largest Reachable Time a router may advertise (§6.2.1), ms: bounds the arithmetic. */
#define MAX_REACHABLE_TIME_MS 3600000u
_Static_assert(MAX_REACHABLE_TIME_MS * 1000ull < UINT32_MAX, "a Reachable Time in us fits random_us()");
/** @} */

/** Default BaseReachableTime (§10), ms. */
#define REACHABLE_TIME_MS 30000u
/** Minimum IPv6 link MTU (RFC 8200 §5). */
#define IPV6_MIN_MTU 1280u

/** AdvDefaultLifetime (§6.2.1): 3 x MaxRtrAdvInterval, at most 9000 s. */
#define ADV_DEFAULT_LIFETIME_S                                                                         \
    ((3u * TERN_CONF_IPV6_MAX_RTR_ADV_INTERVAL > 9000u) ? 9000u : 3u * TERN_CONF_IPV6_MAX_RTR_ADV_INTERVAL)
/** AdvValidLifetime and AdvPreferredLifetime (§6.2.1 defaults: 30 days and 7 days are the RFC's;
 *  we advertise 1 day / 4 hours so that a stale prefix goes within a day). */
#define ADV_VALID_LIFETIME_S 86400u
#define ADV_PREFERRED_LIFETIME_S 14400u

#define NEVER UINT64_MAX
#define US_PER_S 1000000u

/* ------------------------------------------------------------ helpers */

/* The SLLA option's address in @p options, cut to the link's length, into the cache (§6.2.6, §6.3.4). */
static void learn_slla(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *src, const uint8_t *options,
                       size_t len, bool from_router)
{
    const uint8_t *l2 = NULL;
    size_t l2_len = ipv6_ndp_find_lladdr(ipif, options, len, TERN_NDP_OPT_SLLA, &l2);
    if (l2_len == 0 || tern_ipv6_addr_is_unspecified(src)) {
        return;
    }
    (void)tern_nc_lladdr_seen(&ipif->nc, src, l2, l2_len, from_router, ipv6_now(ipif->ip));
}

/* A uniformly random time in [0, @p max_us]: 32 bits suffice (the largest
 * range is a Reachable Time of MAX_REACHABLE_TIME_MS, 3.6e9 us), so the
 * modulo is one hardware division, not a 64-bit one (tern/div64.h). */
static uint32_t random_us(tern_ipv6_t *ip, uint32_t max_us)
{
    return ipv6_random(ip) % (max_us + 1u);
}

static bool rd_capable(const tern_ipv6_if_t *ipif)
{
    /* Links without link addresses (loopback) have no link-local address and no routers. */
    return ipif->netif->l2addr_len > 0;
}

static void join_all_routers(tern_ipv6_if_t *ipif, bool join)
{
    if (ipif->rd.all_routers == join) {
        return;
    }
    /* Links without a multicast filter answer -ENOTSUP: nothing to do there. */
    (void)tern_netapi_set(&ipif->netif->module, join ? TERN_NETOPT_MCAST_JOIN : TERN_NETOPT_MCAST_LEAVE, 0,
                          ipv6_all_routers.u8, sizeof(ipv6_all_routers.u8));
    ipif->rd.all_routers = join;
    ipv6_mld_change(ipif, &ipv6_all_routers, join); /* RFC 3810 §6.1, mld.c */
}

/* ------------------------------------------------------------ host: solicit */

#if TERN_CONF_IPV6_ROUTER != 2
/* §6.3.7: the first RS after a random delay of up to MAX_RTR_SOLICITATION_DELAY. */
static void start_soliciting(tern_ipv6_if_t *ipif)
{
    ipif->rd.sent = 0;
    ipif->rd.rs_dst = (tern_ipv6_addr_t)TERN_IPV6_ADDR_UNSPECIFIED;
    ipif->rd.rs_interval_us = LOWPAN_RTR_SOLICITATION_INTERVAL_US;
    ipif->rd.deadline_us = ipv6_now(ipif->ip) + random_us(ipif->ip, MAX_RTR_SOLICITATION_DELAY_US);
}

/* §6.3.7: from a preferred link-local address with our SLLA, else from :: without it (§4.1).
 * To ff02::2, or (6LoWPAN host refreshing, RFC 6775 §5.3) to the router in rd.rs_dst. */
static void send_rs(tern_ipv6_if_t *ipif)
{
    tern_ipv6_t *ip = ipif->ip;
    const tern_ipv6_addr_t *src = ipv6_ndp_link_local(ipif);
    const tern_ipv6_addr_t *dst = &ipv6_all_routers;
    if (src != NULL && !tern_ipv6_addr_is_unspecified(&ipif->rd.rs_dst)) {
        dst = &ipif->rd.rs_dst;
    }
    uint8_t opt[TERN_IPV6_NDP_LLADDR_OPT_MAX];
    size_t opt_len = (src != NULL) ? ipv6_ndp_own_lladdr(ipif, TERN_NDP_OPT_SLLA, opt) : 0u;
    tern_ndp_rs_repr_t rs = { .options = opt, .options_len = opt_len };
    tern_pkt_t *msg = ipv6_ndp_alloc(ip, tern_ndp_rs_len(&rs));
    if (msg == NULL) {
        return;
    }
    (void)tern_ndp_rs_emit(&rs, msg->data, msg->size);
    ipv6_count(ip, TERN_IPV6_RS_SENT);
    (void)ipv6_output(ip, ipif, (src != NULL) ? src : &ipv6_unspecified, dst, TERN_ICMPV6_NEXT_HEADER,
                      TERN_IPV6_ND_HOP_LIMIT, msg);
}

/* A host's RS is due (§6.3.7). */
static void solicit_tick(tern_ipv6_if_t *ipif, uint64_t now_us)
{
    tern_ipv6_rd_t *rd = &ipif->rd;
    send_rs(ipif);
    if (rd->sent < UINT8_MAX) {
        rd->sent++;
    }
    if (ipif->lowpan.enabled) {
        /* RFC 6775 §5.3: keep soliciting until an RA comes, the interval
         * doubling after the first MAX_RTR_SOLICITATIONS up to 60 s; a
         * unicast refresh that stays unanswered falls back to ff02::2. */
        if (rd->sent >= MAX_RTR_SOLICITATIONS) {
            rd->rs_dst = (tern_ipv6_addr_t)TERN_IPV6_ADDR_UNSPECIFIED;
            rd->rs_interval_us = (rd->rs_interval_us >= LOWPAN_MAX_RTR_SOLICITATION_INTERVAL_US / 2u)
                                     ? LOWPAN_MAX_RTR_SOLICITATION_INTERVAL_US
                                     : rd->rs_interval_us * 2u;
        }
        rd->deadline_us = now_us + rd->rs_interval_us;
        return;
    }
    if (rd->sent < MAX_RTR_SOLICITATIONS) {
        rd->deadline_us = now_us + RTR_SOLICITATION_INTERVAL_US;
    }
}

/*
 * RFC 6775 §5.3: a 6LoWPAN host refreshes by unicast RS to @p router before
 * the Router Lifetime (or the earliest context lifetime) runs out: at 90 %
 * of the shorter one.
 */
static void schedule_refresh_rs(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *router, uint16_t lifetime_s,
                                uint64_t now)
{
    uint64_t shortest = (uint64_t)lifetime_s * US_PER_S;
    for (size_t i = 0; i < TERN_CONF_IPV6_6LO_CONTEXTS; i++) {
        const tern_ipv6_6lo_context_t *c = &ipif->lowpan.contexts[i];
        uint64_t end = tern_expiry_to_us(c->expires);
        if (c->used && end > now && end - now < shortest) {
            shortest = end - now;
        }
    }
    ipif->rd.rs_dst = *router;
    ipif->rd.sent = 0;
    ipif->rd.rs_interval_us = LOWPAN_RTR_SOLICITATION_INTERVAL_US;
    ipif->rd.deadline_us = now + shortest - tern_udiv64(shortest, 10u, NULL);
}
#else
/* A router-only build (TERN_CONF_IPV6_ROUTER 2, config.h) is never a host:
 * it sends no RS, so tern_ipv6_rd_t has no room for their state. */
static inline void start_soliciting(tern_ipv6_if_t *ipif)
{
    (void)ipif;
}

static inline void solicit_tick(tern_ipv6_if_t *ipif, uint64_t now_us)
{
    (void)ipif;
    (void)now_us;
}

static inline void schedule_refresh_rs(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *router, uint16_t lifetime_s,
                                       uint64_t now)
{
    (void)ipif;
    (void)router;
    (void)lifetime_s;
    (void)now;
}
#endif /* TERN_CONF_IPV6_ROUTER != 2 */

/* ------------------------------------------------------------ router: advertise */

/* Does address slot @p i carry a prefix to advertise? §6.2.1 AdvPrefixList: "the prefixes
 * configured on the interface": ours are those of the manually added addresses; link-local
 * ones are never advertised. */
static bool prefix_slot(const tern_ipv6_if_t *ipif, size_t i)
{
    const tern_ipv6_if_addr_t *a = &ipif->addrs.addrs[i];
    return a->used && (a->flags & TERN_IPV6_ADDR_FLAG_MANUAL) && a->state != TERN_IPV6_ADDR_DUPLICATE &&
           !tern_ipv6_addr_is_link_local(&a->addr) && a->prefix_len > 0;
}

/* Slot @p i carries a prefix no earlier slot does (one option per prefix). */
static bool advertised_prefix(const tern_ipv6_if_t *ipif, size_t i)
{
    return ipv6_rd_advertised_prefix(ipif, i);
}

bool ipv6_rd_advertised_prefix(const tern_ipv6_if_t *ipif, size_t i)
{
    if (!prefix_slot(ipif, i)) {
        return false;
    }
    const tern_ipv6_if_addr_t *a = &ipif->addrs.addrs[i];
    for (size_t k = 0; k < i; k++) {
        const tern_ipv6_if_addr_t *b = &ipif->addrs.addrs[k];
        if (prefix_slot(ipif, k) && b->prefix_len == a->prefix_len &&
            tern_ipv6_addr_match_prefix(&b->addr, &a->addr, a->prefix_len)) {
            return false;
        }
    }
    return true;
}

/*
 * An RA from @p src (§6.2.3) to @p dst (NULL: all nodes): CurHopLimit 64,
 * M = O = 0, Reachable Time and Retrans Timer 0 (unspecified), our SLLA,
 * the link MTU, one Prefix Information option per prefix and, on a 6LoWPAN
 * link, a 6CO per prefix and the ABRO (RFC 6775 §4.2, §4.3; ndp_6lo.c).
 */
static void send_ra(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *src, uint16_t router_lifetime_s,
                    const tern_ipv6_addr_t *dst)
{
    tern_ipv6_t *ip = ipif->ip;
    uint8_t slla[TERN_IPV6_NDP_LLADDR_OPT_MAX];
    size_t slla_len = ipv6_ndp_own_lladdr(ipif, TERN_NDP_OPT_SLLA, slla);
    size_t options_len = slla_len + TERN_NDP_OPT_MTU_LEN;
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        options_len += advertised_prefix(ipif, i) ? TERN_NDP_OPT_PREFIX_INFO_LEN : 0u;
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_ROUTE_INFO; i++) {
        const tern_ipv6_route_info_t *r = &ipif->rd.route_info[i];
        options_len += r->used ? tern_ndp_opt_route_info_len(r->prefix_len) : 0u;
    }
    size_t lowpan_len = ipv6_6lo_ra_options(ipif, NULL, 0);
    options_len += lowpan_len;
    tern_pkt_t *msg = ipv6_ndp_alloc(ip, TERN_NDP_RA_LEN + options_len);
    if (msg == NULL) {
        return;
    }
    /* Options written in place after the fixed part; emit then copies them onto themselves. */
    uint8_t *b = msg->data;
    uint8_t *options = b + TERN_NDP_RA_LEN;
    size_t pos = 0;
    memcpy(options, slla, slla_len);
    pos += slla_len;
    pos += (size_t)tern_ndp_opt_mtu_emit(ipif->netif->mtu, options + pos, options_len - pos);
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        if (!advertised_prefix(ipif, i)) {
            continue;
        }
        const tern_ipv6_if_addr_t *a = &ipif->addrs.addrs[i];
        /* RFC 6775 §5.6 (with §3.2: a 6LoWPAN link is not one broadcast domain):
         * hosts treat the prefix as not on-link, so it goes with L = 0 there. */
        uint8_t onlink = ipif->lowpan.enabled ? 0u : TERN_NDP_PIO_FLAG_ONLINK;
        tern_ndp_opt_prefix_info_t pio = {
            .prefix_len = a->prefix_len,
            /* A only for /64: RFC 4862 §5.5.3 (d) hosts form addresses from 64-bit prefixes only. */
            .flags = (uint8_t)(onlink | ((a->prefix_len == 64) ? TERN_NDP_PIO_FLAG_AUTONOMOUS : 0u)),
            .valid_lifetime = ADV_VALID_LIFETIME_S,
            .preferred_lifetime = ADV_PREFERRED_LIFETIME_S,
            .prefix = a->addr,
        };
        tern_ipv6_addr_mask(&pio.prefix, a->prefix_len); /* §4.6.2: bits past the length are 0 */
        pos += (size_t)tern_ndp_opt_prefix_info_emit(&pio, options + pos, options_len - pos);
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_ROUTE_INFO; i++) {
        const tern_ipv6_route_info_t *r = &ipif->rd.route_info[i];
        if (!r->used) {
            continue;
        }
        /* RFC 4191 §2.3; a lifetime of 0 configured means the Router Lifetime we advertise. */
        tern_ndp_opt_route_info_t rio = { .prefix_len = r->prefix_len, .preference = r->preference,
                                          .lifetime = (r->lifetime_s != 0) ? r->lifetime_s : ADV_DEFAULT_LIFETIME_S,
                                          .prefix = r->prefix };
        int w = tern_ndp_opt_route_info_emit(&rio, options + pos, options_len - pos);
        pos += (w > 0) ? (size_t)w : 0u;
    }
    pos += ipv6_6lo_ra_options(ipif, options + pos, options_len - pos);
    tern_ndp_ra_repr_t ra = {
        .cur_hop_limit = TERN_IPV6_DEFAULT_HOP_LIMIT,
        .flags = 0,
        .router_lifetime = router_lifetime_s,
        .reachable_time = 0,
        .retrans_timer = 0,
        .options = options,
        .options_len = pos,
    };
    (void)tern_ndp_ra_emit(&ra, b, msg->size);
    ipv6_count(ip, TERN_IPV6_RA_SENT);
    if (dst == NULL) {
        ipif->rd.last_ra_us = ipv6_now(ip); /* §6.2.4 rate limit: multicast RAs only */
    }
    (void)ipv6_output(ip, ipif, src, (dst != NULL) ? dst : &ipv6_all_nodes, TERN_ICMPV6_NEXT_HEADER,
                      TERN_IPV6_ND_HOP_LIMIT, msg);
}

/*
 * Have a multicast RA go at @p at_us or earlier if one is already due
 * sooner; never within MIN_DELAY_BETWEEN_RAS of the previous one (§6.2.4,
 * §6.2.6): then at that bound plus the random part @p jitter_us.
 */
static void schedule_ra(tern_ipv6_if_t *ipif, uint64_t at_us, uint64_t jitter_us)
{
    uint64_t last = ipif->rd.last_ra_us;
    if (last != NEVER && at_us < last + MIN_DELAY_BETWEEN_RAS_US) {
        at_us = last + MIN_DELAY_BETWEEN_RAS_US + jitter_us;
    }
    if (at_us < ipif->rd.deadline_us) {
        ipif->rd.deadline_us = at_us;
    }
}

/* §6.2.4: a router interface becomes advertising: the first RA at once (once the
 * link-local address is preferred), then the initial ones at most 16 s apart. */
static void start_advertising(tern_ipv6_if_t *ipif)
{
    join_all_routers(ipif, true);
    ipif->rd.sent = 0;
    ipif->rd.deadline_us = ipv6_now(ipif->ip);
}

/* §6.2.4: the next unsolicited RA, uniformly in [MinRtrAdvInterval, MaxRtrAdvInterval],
 * at most MAX_INITIAL_RTR_ADVERT_INTERVAL while the first few go. */
static uint64_t next_unsolicited_interval(tern_ipv6_if_t *ipif)
{
    /* At most 1800 s (config.h, RFC 4861 §6.2.1): 1.8e9 us fit 32 bits. */
    const uint32_t min = TERN_CONF_IPV6_MIN_RTR_ADV_INTERVAL * US_PER_S;
    const uint32_t max = TERN_CONF_IPV6_MAX_RTR_ADV_INTERVAL * US_PER_S;
    uint64_t interval = min + random_us(ipif->ip, max - min);
    if (ipif->rd.sent < MAX_INITIAL_RTR_ADVERTISEMENTS && interval > MAX_INITIAL_RTR_ADVERT_INTERVAL_US) {
        interval = MAX_INITIAL_RTR_ADVERT_INTERVAL_US;
    }
    return interval;
}

/* ------------------------------------------------------------ module hooks */

void ipv6_rd_enable(tern_ipv6_if_t *ipif)
{
    ipif->rd.deadline_us = NEVER;
    ipif->rd.last_ra_us = NEVER;
    ipif->rd.base_reachable_ms = REACHABLE_TIME_MS;
    ipif->rd.link_mtu = 0;
    ipif->rd.all_routers = false;
    if (!rd_capable(ipif)) {
        return;
    }
    if (ipv6_is_router(ipif->ip)) {
        start_advertising(ipif);
    } else {
        start_soliciting(ipif);
    }
}

uint64_t ipv6_rd_next_deadline(const tern_ipv6_if_t *ipif)
{
    return ipif->rd.deadline_us;
}

void ipv6_rd_tick(tern_ipv6_if_t *ipif, uint64_t now_us)
{
    tern_ipv6_rd_t *rd = &ipif->rd;
    if (rd->deadline_us > now_us) {
        return;
    }
    rd->deadline_us = NEVER;
    if (!ipv6_is_router(ipif->ip)) {
        solicit_tick(ipif, now_us);
        return;
    }
    const tern_ipv6_addr_t *src = ipv6_ndp_link_local(ipif);
    if (src == NULL) {
        return; /* §6.2.2: no RA before the link-local address is usable; ipv6_rd_addr_ready() resumes */
    }
    send_ra(ipif, src, (uint16_t)ADV_DEFAULT_LIFETIME_S, NULL);
    if (rd->sent < UINT8_MAX) {
        rd->sent++;
    }
    rd->deadline_us = now_us + next_unsolicited_interval(ipif);
}

void ipv6_rd_addr_ready(void *ctx, const tern_ipv6_addr_t *addr)
{
    tern_ipv6_if_t *ipif = ctx;
    if (!ipv6_is_router(ipif->ip) || !rd_capable(ipif)) {
        return;
    }
    uint64_t now = ipv6_now(ipif->ip);
    if (!tern_ipv6_addr_is_link_local(addr)) {
        /* §6.2.4: the advertised information changed: the initial schedule again. */
        ipif->rd.sent = 0;
    }
    schedule_ra(ipif, now, 0);
}

bool ipv6_rd_all_routers(const tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst)
{
    return ipv6_is_router(ipif->ip) && tern_ipv6_addr_equal(dst, &ipv6_all_routers);
}

/* ------------------------------------------------------------ receive */

void ipv6_ndp_rs_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr,
                         const uint8_t *b, size_t len)
{
    tern_ndp_rs_repr_t rs;
    if (tern_ndp_check_ip(b, len, &hdr->src, &hdr->dst, hdr->hop_limit) < 0 ||
        tern_ndp_rs_parse(&rs, b, len) < 0) {
        ipv6_count(ip, TERN_IPV6_NDP_INVALID);
        return;
    }
    if (!ipv6_is_router(ip) || !rd_capable(ipif)) {
        ipv6_count(ip, TERN_IPV6_RD_IGNORED); /* §6.2.6: "Hosts MUST silently discard" RSs */
        return;
    }
    /* §6.2.6: the solicitor's SLLA updates the cache (STALE), IsRouter left alone. */
    learn_slla(ipif, &hdr->src, rs.options, rs.options_len, false);
    const tern_ipv6_addr_t *own = ipv6_ndp_link_local(ipif);
    if (ipif->lowpan.enabled && own != NULL && !tern_ipv6_addr_is_unspecified(&hdr->src)) {
        /* RFC 6775 §6.3: a 6LR answers an RS with a unicast RA (the
         * solicitor's link address: its SLLAO, or its IID, RFC 4944 §6). */
        ipv6_count(ip, TERN_IPV6_6LO_RA_UNICAST);
        send_ra(ipif, own, (uint16_t)ADV_DEFAULT_LIFETIME_S, &hdr->src);
        return;
    }
    /* §6.2.6: a multicast answer after a random delay of up to MAX_RA_DELAY_TIME,
     * folded into an RA already due sooner, rate limited. */
    uint64_t jitter = random_us(ip, MAX_RA_DELAY_TIME_US);
    schedule_ra(ipif, ipv6_now(ip) + jitter, jitter);
}

/* Does the table hold a connected route for @p prefix/@p len on @p if_index? (It stays as it is.) */
static bool connected_route(const tern_fib_t *fib, const tern_ipv6_addr_t *prefix, uint8_t len,
                            uint16_t if_index)
{
    for (size_t i = 0; i < TERN_CONF_FIB_SIZE; i++) {
        const tern_fib_route_t *r = &fib->routes[i];
        if (r->used && r->origin == TERN_FIB_CONNECTED && r->len == len && r->if_index == if_index &&
            tern_ipv6_addr_match_prefix(prefix, &r->prefix, len)) {
            return true;
        }
    }
    return false;
}

/* §6.3.4 Prefix Information: on-link (L) and autonomous (A, RFC 4862 §5.5.3). */
static void prefix_info(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ndp_opt_t *opt, uint64_t now)
{
    tern_ndp_opt_prefix_info_t pio;
    if (tern_ndp_opt_prefix_info_parse(&pio, opt) < 0 || tern_ipv6_addr_is_link_local(&pio.prefix)) {
        ipv6_count(ip, TERN_IPV6_RA_OPT_IGNORED); /* §6.3.4: "silently ignore" the link-local prefix */
        return;
    }
    /* RFC 6775 §5.6: on a 6LoWPAN link a host takes no prefix as on-link
     * (everything but link-local goes to a default router), whatever L says. */
    bool onlink = (pio.flags & TERN_NDP_PIO_FLAG_ONLINK) && !ipif->lowpan.enabled;
    if (onlink && !connected_route(&ip->fib, &pio.prefix, pio.prefix_len, ipif->netif->index) &&
        ipv6_prefix_onlink(ip, ipif, &pio.prefix, pio.prefix_len, pio.valid_lifetime, now) < 0) {
        ipv6_count(ip, TERN_IPV6_RA_OPT_IGNORED);
    }
    if ((pio.flags & TERN_NDP_PIO_FLAG_AUTONOMOUS) &&
        ipv6_prefix_slaac(ipif, &pio.prefix, pio.prefix_len, pio.preferred_lifetime, pio.valid_lifetime, now) < 0) {
        ipv6_count(ip, TERN_IPV6_RA_OPT_IGNORED); /* RFC 4862 §5.5.3 (b)-(d), or no room */
    }
}

/* §6.3.4 MTU option: kept when 1280 <= MTU <= the link's maximum. */
static void mtu_option(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ndp_opt_t *opt)
{
    uint32_t mtu;
    if (tern_ndp_opt_mtu_parse(&mtu, opt) < 0 || mtu < IPV6_MIN_MTU || mtu > ipif->netif->mtu) {
        ipv6_count(ip, TERN_IPV6_RA_OPT_IGNORED);
        return;
    }
    ipif->rd.link_mtu = (uint16_t)mtu;
}

/* §6.3.4: a new BaseReachableTime gives a new random ReachableTime in [0.5, 1.5] x Base (§6.3.2). */
static void set_base_reachable(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, uint32_t ms)
{
    if (ms > MAX_REACHABLE_TIME_MS) {
        ms = MAX_REACHABLE_TIME_MS;
    }
    if (ms == ipif->rd.base_reachable_ms) {
        return;
    }
    ipif->rd.base_reachable_ms = ms;
    uint32_t base_us = ms * 1000u; /* at most 3.6e9 */
    uint32_t half = base_us / 2u;
    uint32_t r = random_us(ip, base_us);
    ipif->nc.reachable_time_us = (r > UINT32_MAX - half) ? UINT32_MAX : half + r;
}

void ipv6_ndp_ra_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr,
                         const uint8_t *b, size_t len)
{
    tern_ndp_ra_repr_t ra;
    if (tern_ndp_check_ip(b, len, &hdr->src, &hdr->dst, hdr->hop_limit) < 0 ||
        tern_ndp_ra_parse(&ra, b, len) < 0) {
        ipv6_count(ip, TERN_IPV6_NDP_INVALID); /* §6.1.2 */
        return;
    }
    if (ipv6_is_router(ip) && rd_capable(ipif) && ipif->lowpan.enabled) {
        /* RFC 6775 §8.1: a 6LR takes the 6LBR's contexts and ABRO from the
         * routers' RAs to relay them in its own (ndp_6lo.c); news are told
         * at once, as after a configuration change (RFC 4861 §6.2.4). */
        tern_ipv6_6lo_border_t before = ipif->lowpan.border;
        if (ipv6_6lo_ra_receive(ip, ipif, ra.options, ra.options_len) &&
            (!before.valid || before.version != ipif->lowpan.border.version ||
             !tern_ipv6_addr_equal(&before.border_router, &ipif->lowpan.border.border_router))) {
            ipif->rd.sent = 0;
            uint64_t jitter = random_us(ip, MAX_RA_DELAY_TIME_US);
            schedule_ra(ipif, ipv6_now(ip) + jitter, jitter);
        }
    }
    if (ipv6_is_router(ip) || !rd_capable(ipif)) {
        /* §6.2.7: routers do not configure themselves from RAs (consistency checks not done). */
        ipv6_count(ip, TERN_IPV6_RD_IGNORED);
        return;
    }
    if (ipif->lowpan.enabled && !ipv6_6lo_ra_receive(ip, ipif, ra.options, ra.options_len)) {
        return; /* RFC 6775 §4.3: an older ABRO version, or a malformed one (counted) */
    }
    ipv6_count(ip, TERN_IPV6_RA_RECEIVED);
    uint64_t now = ipv6_now(ip);
    uint16_t if_index = ipif->netif->index;
    /* §6.3.4 default router list: ::/0 via the router, for Router Lifetime; 0 removes it. */
    if (ra.router_lifetime == 0) {
        (void)tern_fib_remove(&ip->fib, &ipv6_unspecified, 0, if_index, &hdr->src);
    } else {
        (void)tern_fib_add(&ip->fib, &ipv6_unspecified, 0, &hdr->src, if_index,
                           now + (uint64_t)ra.router_lifetime * US_PER_S, TERN_FIB_RA, 0);
        /* §6.3.7: a valid RA with a nonzero Router Lifetime ends the solicitations. */
        ipif->rd.deadline_us = NEVER;
        ipif->rd.sent = MAX_RTR_SOLICITATIONS;
        if (ipif->lowpan.enabled) {
            schedule_refresh_rs(ipif, &hdr->src, ra.router_lifetime, now);
        }
    }
    /* §6.3.4: nonzero Cur Hop Limit, Reachable Time, Retrans Timer replace ours. */
    if (ra.cur_hop_limit != 0) {
        ipif->cur_hop_limit = ra.cur_hop_limit;
    }
    if (ra.reachable_time != 0) {
        set_base_reachable(ip, ipif, ra.reachable_time);
    }
    if (ra.retrans_timer != 0) {
        uint32_t ms = (ra.retrans_timer > UINT32_MAX / 1000u) ? UINT32_MAX / 1000u : ra.retrans_timer;
        ipif->nc.retrans_timer_us = ms * 1000u;
        ipif->addrs.retrans_timer_us = ms * 1000u;
    }
    /* §6.3.4: the SLLA option updates the cache and marks the sender a router. */
    learn_slla(ipif, &hdr->src, ra.options, ra.options_len, true);
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t opt;
    tern_ndp_opt_iter_init(&it, ra.options, ra.options_len);
    while (tern_ndp_opt_next(&it, &opt) > 0) {
        if (opt.type == TERN_NDP_OPT_PREFIX_INFO) {
            prefix_info(ip, ipif, &opt, now);
        } else if (opt.type == TERN_NDP_OPT_MTU) {
            mtu_option(ip, ipif, &opt);
        } /* §4.6: other options are ignored; 6CO and ABRO: ipv6_6lo_ra_receive() */
    }
    /* RFC 6775 §5.5: register the addresses (new SLAAC ones too) with the router. */
    ipv6_6lo_sync(ipif);
}

/* ------------------------------------------------------------ mode and options */

static void set_router(tern_ipv6_t *ip, bool router)
{
    if (ip->router == router) {
        return;
    }
    ip->router = router;
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        tern_ipv6_if_t *ipif = &ip->ifs[i];
        if (ipif->netif == NULL || !rd_capable(ipif)) {
            continue;
        }
        ipif->rd.deadline_us = NEVER;
        ipv6_6lo_mode_changed(ipif); /* RFC 6775 §5 host / §6 router rules (ndp_6lo.c) */
        if (router) {
            /* §6.2.7: what hosts learnt from RAs is not a router's configuration. */
            (void)tern_fib_flush(&ip->fib, ipif->netif->index, TERN_FIB_RA);
            ipif->rd.link_mtu = 0;
            start_advertising(ipif);
            continue;
        }
        /* §6.2.5: a final RA with Router Lifetime 0 (one of up to MAX_FINAL_RTR_ADVERTISEMENTS). */
        const tern_ipv6_addr_t *src = ipv6_ndp_link_local(ipif);
        if (src != NULL && ipif->rd.last_ra_us != NEVER) {
            send_ra(ipif, src, 0, NULL);
        }
        join_all_routers(ipif, false);
        ipif->rd.last_ra_us = NEVER;
        start_soliciting(ipif);
    }
}

int tern_ipv6_set_router(tern_ipv6_t *ip, bool router)
{
    if (ip == NULL) {
        return -EINVAL;
    }
    uint8_t value = router ? 1u : 0u;
    int res = tern_netapi_set(&ip->module, TERN_NETOPT_IPV6_ROUTER, 0, &value, sizeof(value));
    return (res < 0) ? res : 0;
}

/* TERN_NETOPT_IPV6_ROUTE_INFO_ADD / _DEL: the routes the RAs of an interface advertise (RFC 4191 §2.3). */
static int route_info_set(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    tern_ipv6_if_t *ipif = ipv6_find_if(ip, (uint16_t)opt->context);
    tern_ipv6_route_info_t cfg;
    if (ipif == NULL) {
        return -ENODEV;
    }
    if (opt->data_len != sizeof(cfg)) {
        return -EINVAL;
    }
    memcpy(&cfg, opt->data, sizeof(cfg));
    if (cfg.prefix_len > 128u || cfg.preference < -1 || cfg.preference > 1) {
        return -EINVAL;
    }
    tern_ipv6_addr_mask(&cfg.prefix, cfg.prefix_len);
    tern_ipv6_route_info_t *slot = NULL;
    tern_ipv6_route_info_t *free_slot = NULL;
    for (size_t i = 0; i < TERN_CONF_IPV6_ROUTE_INFO; i++) {
        tern_ipv6_route_info_t *r = &ipif->rd.route_info[i];
        if (r->used && r->prefix_len == cfg.prefix_len && tern_ipv6_addr_equal(&r->prefix, &cfg.prefix)) {
            slot = r;
        } else if (!r->used && free_slot == NULL) {
            free_slot = r;
        }
    }
    if (opt->opt == TERN_NETOPT_IPV6_ROUTE_INFO_DEL) {
        if (slot == NULL) {
            return -ENOENT;
        }
        memset(slot, 0, sizeof(*slot));
        return (int)sizeof(cfg);
    }
    slot = (slot != NULL) ? slot : free_slot;
    if (slot == NULL) {
        return -ENOSPC;
    }
    cfg.used = true;
    *slot = cfg;
    if (ipv6_is_router(ip) && rd_capable(ipif)) {
        /* RFC 4861 §6.2.4: the advertised information changed: the initial schedule again. */
        ipif->rd.sent = 0;
        schedule_ra(ipif, ipv6_now(ip), 0);
    }
    return (int)sizeof(cfg);
}

int ipv6_rd_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    if (opt->opt == TERN_NETOPT_IPV6_ROUTE_INFO_ADD || opt->opt == TERN_NETOPT_IPV6_ROUTE_INFO_DEL) {
        /* RFC 4191 §2.3: routers advertise Route Information; a host image has nothing to send them in. */
        return TERN_CONF_IPV6_ROUTER ? route_info_set(ip, opt) : -ENOTSUP;
    }
    if (opt->opt != TERN_NETOPT_IPV6_ROUTER) {
        return -ENOTSUP;
    }
    if (opt->data_len != sizeof(uint8_t)) {
        return -EINVAL;
    }
    const uint8_t *value = opt->data;
    if (*value > 1u) {
        return -EINVAL;
    }
    if (!TERN_CONF_IPV6_ROUTER) {
        /* A host image (config.h): no router functions to switch on; a host stays one. */
        return (*value == 1u) ? -ENOTSUP : (int)sizeof(uint8_t);
    }
    if (TERN_CONF_IPV6_ROUTER == 2) {
        /* A router-only image (config.h): no host side to switch to; a router stays one. */
        return (*value == 0u) ? -ENOTSUP : (int)sizeof(uint8_t);
    }
    set_router(ip, *value == 1u);
    return (int)sizeof(uint8_t);
}

int ipv6_rd_get_option(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, tern_netapi_opt_t *opt)
{
    switch (opt->opt) {
    case TERN_NETOPT_IPV6_ROUTES: {
        tern_ipv6_route_list_t *list = opt->data;
        if (opt->data_len < sizeof(*list)) {
            return -EOVERFLOW;
        }
        memcpy(list->routes, ip->fib.routes, sizeof(list->routes));
        list->now_us = ipv6_now(ip);
        return (int)sizeof(*list);
    }
    case TERN_NETOPT_IPV6_ROUTE_INFO: {
        if (!TERN_CONF_IPV6_ROUTER) {
            return -ENOTSUP; /* a host image advertises no routes (route_info_set()) */
        }
        if (ipif == NULL) {
            return -ENODEV;
        }
        if (opt->data_len < sizeof(tern_ipv6_route_info_list_t)) {
            return -EOVERFLOW;
        }
        memcpy(opt->data, ipif->rd.route_info, sizeof(tern_ipv6_route_info_list_t));
        return (int)sizeof(tern_ipv6_route_info_list_t);
    }
    case TERN_NETOPT_IPV6_LINK_PARAMS: {
        if (ipif == NULL) {
            return -ENODEV;
        }
        if (opt->data_len < sizeof(tern_ipv6_link_params_t)) {
            return -EOVERFLOW;
        }
        tern_ipv6_link_params_t p = {
            .reachable_time_us = ipif->nc.reachable_time_us,
            .retrans_timer_us = ipif->nc.retrans_timer_us,
            .base_reachable_ms = ipif->rd.base_reachable_ms,
            .link_mtu = (ipif->rd.link_mtu != 0) ? ipif->rd.link_mtu : ipif->netif->mtu,
            .cur_hop_limit = ipif->cur_hop_limit,
            .mtu_from_ra = ipif->rd.link_mtu != 0,
            .router = ipv6_is_router(ip),
        };
        memcpy(opt->data, &p, sizeof(p));
        return (int)sizeof(p);
    }
    default:
        return -ENOTSUP;
    }
}
