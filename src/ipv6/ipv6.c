/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IPv6 module: receive path (RFC 8200 §4), send path with next-hop
 *        determination and address resolution (RFC 4861 §5.2, §7.2), the
 *        interfaces' link-local addresses (RFC 4862 §5.3), one timer.
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/div64.h"
#include "tern/netapi.h"
#include "tern/wire/bytes.h"
#include "tern/wire/checksum.h"
#include "tern/wire/ethernet.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/rpl_hbh.h"

/** Module messages beyond netapi's. */
#define MSG_ENABLE (TERN_MSG_USER + 1)

/** The IPv6 module is less urgent than interfaces, more than applications. */
#define IPV6_PRIORITY 4u

/** RFC 4861 §10: BaseReachableTime 30 s, RetransTimer 1 s; RFC 4862 §5.4.2 /
 *  RFC 4861 §10: MAX_RTR_SOLICITATION_DELAY 1 s (first DAD probe delay). */
#define BASE_REACHABLE_TIME_US 30000000u
#define RETRANS_TIMER_US 1000000u
#define MAX_DAD_DELAY_US 1000000u

static const char *const ipv6_counter_names[TERN_IPV6_STAT_NUMOF] = {
    [TERN_IPV6_RX_PACKETS] = "rx_packets",
    [TERN_IPV6_RX_DELIVERED] = "rx_delivered",
    [TERN_IPV6_RX_HDR_ERRORS] = "rx_hdr_errors",
    [TERN_IPV6_RX_NOT_FOR_US] = "rx_not_for_us",
    [TERN_IPV6_RX_NO_IF] = "rx_no_if",
    [TERN_IPV6_RX_EXT_DROPPED] = "rx_ext_dropped",
    [TERN_IPV6_RX_NOMEM] = "rx_nomem",
    [TERN_IPV6_ICMP_BAD_CHECKSUM] = "icmp_bad_checksum",
    [TERN_IPV6_ICMP_ECHO_IN] = "icmp_echo_in",
    [TERN_IPV6_ICMP_UNHANDLED] = "icmp_unhandled",
    [TERN_IPV6_NDP_INVALID] = "ndp_invalid",
    [TERN_IPV6_TX_PACKETS] = "tx_packets",
    [TERN_IPV6_TX_NO_ROUTE] = "tx_no_route",
    [TERN_IPV6_TX_NOMEM] = "tx_nomem",
    [TERN_IPV6_TX_INVALID] = "tx_invalid",
    [TERN_IPV6_DAD_DUPLICATES] = "dad_duplicates",
    [TERN_IPV6_ICMP_ERRORS_OUT] = "icmp_errors_out",
    [TERN_IPV6_ICMP_ERRORS_SUPPRESSED] = "icmp_errors_suppressed",
    [TERN_IPV6_ICMP_RATE_LIMITED] = "icmp_rate_limited",
    [TERN_IPV6_RX_NO_PROTO] = "rx_no_proto",
    [TERN_IPV6_RS_SENT] = "rs_sent",
    [TERN_IPV6_RA_SENT] = "ra_sent",
    [TERN_IPV6_RA_RECEIVED] = "ra_received",
    [TERN_IPV6_RD_IGNORED] = "rd_ignored",
    [TERN_IPV6_RA_OPT_IGNORED] = "ra_opt_ignored",
    [TERN_IPV6_REASS_OK] = "reass_ok",
    [TERN_IPV6_REASS_ATOMIC] = "reass_atomic",
    [TERN_IPV6_REASS_DUPLICATE] = "reass_duplicate",
    [TERN_IPV6_REASS_OVERLAP] = "reass_overlap",
    [TERN_IPV6_REASS_TIMEOUT] = "reass_timeout",
    [TERN_IPV6_REASS_EVICTED] = "reass_evicted",
    [TERN_IPV6_REASS_NOMEM] = "reass_nomem",
    [TERN_IPV6_REASS_INVALID] = "reass_invalid",
    [TERN_IPV6_FRAG_FAIL] = "frag_fail",
#if TERN_CONF_IPV6_FRAG
    [TERN_IPV6_FRAG_OK] = "frag_ok",
    [TERN_IPV6_FRAG_SENT] = "frag_sent",
#endif
#if TERN_CONF_IPV6_DCACHE
    [TERN_IPV6_REDIRECT_ACCEPTED] = "redirect_accepted",
    [TERN_IPV6_REDIRECT_ON_ROUTER] = "redirect_on_router",
    [TERN_IPV6_REDIRECT_BAD_SOURCE] = "redirect_bad_source",
    [TERN_IPV6_REDIRECT_BAD_HOP_LIMIT] = "redirect_bad_hop_limit",
    [TERN_IPV6_REDIRECT_BAD_CODE] = "redirect_bad_code",
    [TERN_IPV6_REDIRECT_TOO_SHORT] = "redirect_too_short",
    [TERN_IPV6_REDIRECT_NOT_FIRST_HOP] = "redirect_not_first_hop",
    [TERN_IPV6_REDIRECT_MULTICAST_DST] = "redirect_multicast_dst",
    [TERN_IPV6_REDIRECT_BAD_TARGET] = "redirect_bad_target",
    [TERN_IPV6_REDIRECT_BAD_OPTIONS] = "redirect_bad_options",
    [TERN_IPV6_PMTU_LOWERED] = "pmtu_lowered",
    [TERN_IPV6_PTB_INVALID] = "ptb_invalid",
    [TERN_IPV6_PTB_BELOW_MIN] = "ptb_below_min",
    [TERN_IPV6_PTB_NOT_LOWER] = "ptb_not_lower",
    [TERN_IPV6_DCACHE_EVICTED] = "dcache_evicted",
#endif
    [TERN_IPV6_TX_UNRESOLVED] = "tx_unresolved",
    [TERN_IPV6_NC_QUEUE_DROPPED] = "nc_queue_dropped",
    [TERN_IPV6_FWD_ADDR_UNREACH] = "fwd_addr_unreach",
    [TERN_IPV6_FWD_HBH_DROPPED] = "fwd_hbh_dropped",
    [TERN_IPV6_REACHABLE_RENEWED] = "reachable_renewed",
    [TERN_IPV6_FWD_PACKETS] = "fwd_packets",
    [TERN_IPV6_FWD_HOP_LIMIT] = "fwd_hop_limit",
    [TERN_IPV6_FWD_NO_ROUTE] = "fwd_no_route",
    [TERN_IPV6_FWD_TOO_BIG] = "fwd_too_big",
    [TERN_IPV6_FWD_SCOPE] = "fwd_scope",
    [TERN_IPV6_ICMP_NO_LISTENER] = "icmp_no_listener",
    [TERN_IPV6_ICMP_ERR_NOT_OURS] = "icmp_err_not_ours",
    [TERN_IPV6_MLD_NO_ROOM] = "mld_no_room",
#if TERN_CONF_IPV6_MLD
    [TERN_IPV6_MLD_REPORTS_SENT] = "mld_reports_sent",
    [TERN_IPV6_MLD_QUERIES_RECEIVED] = "mld_queries_received",
    [TERN_IPV6_MLD_INVALID] = "mld_invalid",
    [TERN_IPV6_MLD_V1_QUERIES_RECEIVED] = "mld_v1_queries_received",
    [TERN_IPV6_MLD_V1_MODE_ENTERED] = "mld_v1_mode_entered",
    [TERN_IPV6_MLD_V1_REPORTS_SENT] = "mld_v1_reports_sent",
    [TERN_IPV6_MLD_V1_DONES_SENT] = "mld_v1_dones_sent",
    [TERN_IPV6_MLD_V1_REPORTS_RECEIVED] = "mld_v1_reports_received",
    [TERN_IPV6_MLD_V1_SUPPRESSED] = "mld_v1_suppressed",
#endif
    [TERN_IPV6_6LO_REG_SENT] = "6lo_reg_sent",
    [TERN_IPV6_6LO_REG_OK] = "6lo_reg_ok",
    [TERN_IPV6_6LO_REG_DUPLICATE] = "6lo_reg_duplicate",
    [TERN_IPV6_6LO_REG_REJECTED] = "6lo_reg_rejected",
    [TERN_IPV6_6LO_REG_TIMEOUT] = "6lo_reg_timeout",
    [TERN_IPV6_6LO_NO_BINDING] = "6lo_no_binding",
    [TERN_IPV6_6LO_REG_ACCEPTED] = "6lo_reg_accepted",
    [TERN_IPV6_6LO_REG_REFUSED_DUP] = "6lo_reg_refused_dup",
    [TERN_IPV6_6LO_REG_REFUSED_FULL] = "6lo_reg_refused_full",
    [TERN_IPV6_6LO_REG_REFUSED_STALE] = "6lo_reg_refused_stale",
    [TERN_IPV6_6LO_REG_REMOVED] = "6lo_reg_removed",
    [TERN_IPV6_6LO_REG_EXPIRED] = "6lo_reg_expired",
    [TERN_IPV6_6LO_BAD_HOP_LIMIT] = "6lo_bad_hop_limit",
    [TERN_IPV6_6LO_MALFORMED] = "6lo_malformed",
    [TERN_IPV6_6LO_BAD_ARO] = "6lo_bad_aro",
    [TERN_IPV6_6LO_BAD_SOURCE] = "6lo_bad_source",
    [TERN_IPV6_6LO_NO_SLLAO] = "6lo_no_sllao",
    [TERN_IPV6_6LO_MULTICAST_DST] = "6lo_multicast_dst",
    [TERN_IPV6_6LO_ARO_ON_HOST] = "6lo_aro_on_host",
    [TERN_IPV6_6LO_NA_UNEXPECTED] = "6lo_na_unexpected",
    [TERN_IPV6_6LO_NA_TID_MISMATCH] = "6lo_na_tid_mismatch",
    [TERN_IPV6_6LO_BAD_6CO] = "6lo_bad_6co",
    [TERN_IPV6_6LO_BAD_ABRO] = "6lo_bad_abro",
    [TERN_IPV6_6LO_ABRO_OLD] = "6lo_abro_old",
    [TERN_IPV6_6LO_CONTEXT_NO_ROOM] = "6lo_context_no_room",
    [TERN_IPV6_6LO_CONTEXT_REFUSED] = "6lo_context_refused",
    [TERN_IPV6_6LO_TX_UNRESOLVED] = "6lo_tx_unresolved",
    [TERN_IPV6_6LO_RA_UNICAST] = "6lo_ra_unicast",
    [TERN_IPV6_SRH_INSERTED] = "srh_inserted",
    [TERN_IPV6_SRH_TOO_BIG] = "srh_too_big",
    [TERN_IPV6_SRH_FORWARDED] = "srh_forwarded",
    [TERN_IPV6_SRH_MALFORMED] = "srh_malformed",
    [TERN_IPV6_SRH_BAD_SEGMENTS_LEFT] = "srh_bad_segments_left",
    [TERN_IPV6_SRH_MULTICAST] = "srh_multicast",
    [TERN_IPV6_SRH_LOOP] = "srh_loop",
    [TERN_IPV6_RPI_ADDED] = "rpi_added",
    [TERN_IPV6_RPI_FORWARDED] = "rpi_forwarded",
    [TERN_IPV6_RPI_REMOVED] = "rpi_removed",
    [TERN_IPV6_RPI_RANK_ERROR] = "rpi_rank_error",
    [TERN_IPV6_RPI_DROPPED_RANK] = "rpi_dropped_rank",
    [TERN_IPV6_RPI_DROPPED_LOOP] = "rpi_dropped_loop",
    [TERN_IPV6_RPI_UNKNOWN_INSTANCE] = "rpi_unknown_instance",
    [TERN_IPV6_RPI_FORWARDING_ERROR] = "rpi_forwarding_error",
    [TERN_IPV6_RPI_ROUTE_REMOVED] = "rpi_route_removed",
    [TERN_IPV6_RPI_DROPPED_FWD_ERROR] = "rpi_dropped_fwd_error",
    [TERN_IPV6_RPI_MALFORMED] = "rpi_malformed",
    [TERN_IPV6_RPI_TOO_BIG] = "rpi_too_big",
    [TERN_IPV6_TUN_ENCAP] = "tun_encap",
    [TERN_IPV6_TUN_DECAP] = "tun_decap",
    [TERN_IPV6_TUN_MALFORMED] = "tun_malformed",
    [TERN_IPV6_TUN_NESTED] = "tun_nested",
    [TERN_IPV6_TUN_TOO_BIG] = "tun_too_big",
    [TERN_IPV6_TUN_FRAG] = "tun_frag",
    [TERN_IPV6_TUN_ERROR_RELAYED] = "tun_error_relayed",
    [TERN_IPV6_RX_OTHER_IF] = "rx_other_if",
};

const tern_ipv6_addr_t ipv6_all_nodes = TERN_IPV6_ADDR_ALL_NODES_LINK;
const tern_ipv6_addr_t ipv6_all_routers = TERN_IPV6_ADDR_ALL_ROUTERS_LINK;
const tern_ipv6_addr_t ipv6_unspecified = TERN_IPV6_ADDR_UNSPECIFIED;

uint64_t ipv6_now(const tern_ipv6_t *ip)
{
    return tern_executor_now(ip->module.exec);
}

tern_pktbuf_t *ipv6_pktbuf(tern_ipv6_t *ip)
{
    return &ip->module.stack->pktbuf;
}

/* xorshift32: protocol randomness (RFC 4861 §6.3.2, RFC 4862 §5.4.2); not cryptographic. */
uint32_t ipv6_random(tern_ipv6_t *ip)
{
    uint32_t x = ip->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    ip->rng = x;
    return x;
}

static tern_ipv6_if_t *find_if(tern_ipv6_t *ip, uint16_t if_index)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        if (ip->ifs[i].netif != NULL && ip->ifs[i].netif->index == if_index) {
            return &ip->ifs[i];
        }
    }
    return NULL;
}

tern_ipv6_if_t *ipv6_find_if(tern_ipv6_t *ip, uint16_t if_index)
{
    return find_if(ip, if_index);
}

bool ipv6_is_own_address(tern_ipv6_t *ip, const tern_ipv6_addr_t *addr)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        if (ip->ifs[i].netif != NULL && tern_ipv6_addrs_find(&ip->ifs[i].addrs, addr) != NULL) {
            return true;
        }
    }
    return false;
}

tern_ipv6_if_t *ipv6_route(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst,
                           tern_ipv6_addr_t *next_hop)
{
    uint64_t now = ipv6_now(ip);
    *next_hop = *dst;
    /* RFC 4861 §8.3: a Redirect overrides the table for its destination;
     * §8.2: a router's next hops come from its routing table only. */
    const tern_dcache_entry_t *d = ipv6_is_router(ip) ? NULL : tern_dcache_lookup(&ip->dcache, dst, now);
    if (d != NULL && d->redirected && (ipif == NULL || d->if_index == ipif->netif->index)) {
        tern_ipv6_if_t *out = find_if(ip, d->if_index);
        if (out != NULL) {
            *next_hop = d->next_hop;
            return out;
        }
    }
    /* §5.2: longest prefix match (on the given interface, if any: a reply to
     * an off-link peer goes via its router). */
    const tern_fib_route_t *r = tern_fib_lookup(&ip->fib, dst, now);
    if (r != NULL && (ipif == NULL || r->if_index == ipif->netif->index)) {
        ipif = find_if(ip, r->if_index);
        if (!tern_ipv6_addr_is_unspecified(&r->next_hop)) {
            *next_hop = r->next_hop;
        }
    }
    return ipif;
}

/* ------------------------------------------------------------ timer */

/* The sum of the tables' deadline_gen: it changes whenever one of them gave
 * an entry a timer (the counters only grow). */
static uint32_t tables_gen(const tern_ipv6_t *ip)
{
    uint32_t gen = ip->fib.deadline_gen + ip->dcache.deadline_gen;
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        const tern_ipv6_if_t *ipif = &ip->ifs[i];
        if (ipif->netif != NULL) {
            gen += ipif->nc.deadline_gen + ipif->addrs.deadline_gen + ipif->lowpan.deadline_gen;
        }
    }
    return gen;
}

/* The earliest expiry in the tables: FIB, destination cache, and per
 * interface the neighbour cache, addresses and 6LoWPAN-ND state. */
static uint64_t tables_scan(const tern_ipv6_t *ip)
{
    uint64_t next = tern_fib_next_deadline(&ip->fib);
    uint64_t dest = tern_dcache_next_deadline(&ip->dcache);
    next = (dest < next) ? dest : next;
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        const tern_ipv6_if_t *ipif = &ip->ifs[i];
        if (ipif->netif == NULL) {
            continue;
        }
        uint64_t n = tern_nc_next_deadline(&ipif->nc);
        uint64_t a = tern_ipv6_addrs_next_deadline(&ipif->addrs);
        next = (n < next) ? n : next;
        next = (a < next) ? a : next;
        uint64_t l = ipv6_6lo_next_deadline(ipif);
        next = (l < next) ? l : next;
    }
    return next;
}

/*
 * Arm the timer for the earliest deadline. The tables (tables_scan(): about
 * 400 instructions at the defaults) are scanned when @p rescan or when one of
 * them gave an entry a timer since the last scan (tables_gen()); a packet
 * sent or received mostly does neither. Between scans tables_at_us is a lower
 * bound of the tables' next expiry (entries removed since only make the true
 * one later), so the timer may fire early, never late; a tick rescans. The
 * small state (reassembly, router discovery, MLD, ReachableTime renewal) is
 * read every time.
 */
static void reschedule(tern_ipv6_t *ip, bool rescan)
{
    /* (Without the fast paths, config.h: every call scans.) */
    uint32_t gen = TERN_CONF_FAST_PATHS ? tables_gen(ip) : 0u;
    if (!TERN_CONF_FAST_PATHS || rescan || gen != ip->tables_gen) {
        ip->tables_gen = gen;
        ip->tables_at_us = tables_scan(ip);
    }
    uint64_t next = ip->tables_at_us;
    uint64_t reass = ipv6_reass_next_deadline(ip); /* reass.c */
    next = (reass < next) ? reass : next;
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        tern_ipv6_if_t *ipif = &ip->ifs[i];
        if (ipif->netif == NULL) {
            continue;
        }
        uint64_t r = ipv6_rd_next_deadline(ipif);
        next = (r < next) ? r : next;
        uint64_t m = ipv6_mld_next_deadline(ipif);
        next = (m < next) ? m : next;
        next = (ipif->reachable_renew_us < next) ? ipif->reachable_renew_us : next;
    }
    if (next == ip->timer_at) {
        return;
    }
    ip->timer_at = next;
    if (next == UINT64_MAX) {
        tern_timer_cancel(&ip->timer);
    } else {
        (void)tern_timer_set_absolute(&ip->timer, next);
    }
}

/* RFC 4861 §6.3.2: ReachableTime uniformly in [0.5, 1.5] x BaseReachableTime. */
static uint32_t random_reachable_time(tern_ipv6_t *ip, uint32_t base_ms)
{
    uint64_t base_us = (uint64_t)base_ms * 1000u;
    uint64_t reachable = base_us / 2u + tern_umod64(ipv6_random(ip), base_us + 1u); /* tern/div64.h */
    return (reachable > UINT32_MAX) ? UINT32_MAX : (uint32_t)reachable;
}

/* RFC 4861 §6.3.4: "the random component SHOULD be re-computed ... at least
 * every few hours": every TERN_CONF_IPV6_REACHABLE_RENEW_S from enable, on
 * the module's clock (so a virtual clock makes it deterministic). */
static void renew_reachable_time(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, uint64_t now)
{
    if (ipif->reachable_renew_us > now) {
        return;
    }
    ipif->nc.reachable_time_us = random_reachable_time(ip, ipif->rd.base_reachable_ms);
    ipif->reachable_renew_us = now + (uint64_t)TERN_CONF_IPV6_REACHABLE_RENEW_S * 1000000u;
    ipv6_count(ip, TERN_IPV6_REACHABLE_RENEWED);
}

/* noinline: out of handle()'s frame, which every packet's path starts with (stack_depth.py). */
__attribute__((noinline)) static void tick(tern_ipv6_t *ip)
{
    uint64_t now = ipv6_now(ip);
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        tern_ipv6_if_t *ipif = &ip->ifs[i];
        if (ipif->netif != NULL) {
            tern_ipv6_addrs_tick(&ipif->addrs, now);
            tern_nc_tick(&ipif->nc, now);
            ipv6_rd_tick(ipif, now);
            ipv6_mld_tick(ipif, now);
            renew_reachable_time(ip, ipif, now);
        }
    }
    (void)tern_fib_expire(&ip->fib, now);
    (void)tern_dcache_expire(&ip->dcache, now);
    ipv6_reass_tick(ip, now);
    /* After the table expired routes: registrations follow the routers left (ndp_6lo.c). */
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        if (ip->ifs[i].netif != NULL) {
            ipv6_6lo_tick(&ip->ifs[i], now);
        }
    }
}

/* ------------------------------------------------------------ send */

/* RFC 6724 source for @p dst out of @p ipif. @return 0 or -EADDRNOTAVAIL. */
static int choose_source(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst, tern_ipv6_addr_t *out)
{
    tern_srcsel_candidate_t cands[TERN_CONF_IPV6_ADDRS];
    size_t n = 0;
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        const tern_ipv6_if_addr_t *a = &ipif->addrs.addrs[i];
        if (a->used) {
            cands[n].addr = a->addr;
            cands[n].if_index = ipif->netif->index;
            cands[n].prefix_len = a->prefix_len;
            cands[n].state = a->state;
            n++;
        }
    }
    /* A single candidate is the source if it is eligible at all, preferred
     * or deprecated (§4: a link-scope destination's source must be on the
     * outgoing interface, as it is): the rules of §5 have nothing to order. */
    int k = (!TERN_CONF_FAST_PATHS || n != 1u) ? tern_srcsel_choose(cands, n, dst, ipif->netif->index)
            : (cands[0].state == TERN_IPV6_ADDR_PREFERRED || cands[0].state == TERN_IPV6_ADDR_DEPRECATED)
                ? 0
                : -EADDRNOTAVAIL;
    if (k < 0) {
        return k;
    }
    *out = cands[k].addr;
    return 0;
}

int ipv6_choose_source(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst, tern_ipv6_addr_t *out)
{
    return choose_source(ipif, dst, out);
}

/* Spans of the checksummed snips; at most this many, else the payload is merged. */
#define CHECKSUM_SPANS 4

/*
 * Fill the upper-layer checksum (RFC 8200 §8.1) of @p payload for next
 * header @p nh: ICMPv6 (field at bytes 2-3) and UDP (bytes 6-7, a computed 0
 * sent as 0xFFFF, RFC 768 / RFC 8200 §8.1). Other protocols fill their own.
 * @return 0 or -ENOMEM (the payload could not be made contiguous enough).
 */
static int fill_checksum(tern_pktbuf_t *pb, tern_pkt_t *payload, uint8_t nh, const tern_ipv6_addr_t *src,
                         const tern_ipv6_addr_t *dst)
{
    size_t field = (nh == TERN_ICMPV6_NEXT_HEADER) ? 2u : (nh == TERN_IPV6_NH_UDP) ? 6u : 0u;
    if (field == 0) {
        return 0;
    }
    /* The spans taken as the snips come; more snips than spans (or the
     * field not in the first one): merged into one. */
    tern_checksum_span_t spans[CHECKSUM_SPANS];
    size_t n = 0;
    uint32_t len = 0;
    const tern_pkt_t *s = payload;
    for (; s != NULL && n < CHECKSUM_SPANS; s = s->next, n++) {
        spans[n].data = s->data;
        spans[n].len = s->size;
        len += s->size;
    }
    if (s != NULL || payload->size < field + 2u) {
        if (tern_pktbuf_merge(pb, payload) < 0 || payload->size < field + 2u) {
            return -ENOMEM;
        }
        spans[0].data = payload->data;
        spans[0].len = payload->size;
        len = payload->size;
        n = 1;
    }
    uint8_t *b = payload->data;
    tern_store16(&b[field], 0);
    uint16_t value = tern_checksum_finish(tern_checksum_ipv6_spans(src, dst, len, nh, spans, n));
    if (value == 0 && nh == TERN_IPV6_NH_UDP) {
        value = 0xFFFFu;
    }
    tern_store16(&b[field], value);
    return 0;
}

/* The IPv6 header snip of a packet in front of @p payload: the upper layer's
 * template snip when send_upper() kept one (exclusively ours, 40 bytes; every
 * byte is written by tern_ipv6_emit()), else a new one. */
static tern_pkt_t *header_snip(tern_ipv6_t *ip, tern_pkt_t *payload)
{
    tern_pkt_t *hdr = ip->spare_hdr;
    if (hdr != NULL && hdr->size == TERN_IPV6_HDR_LEN) {
        ip->spare_hdr = NULL;
        hdr->next = payload;
        return hdr;
    }
    return tern_pktbuf_add(ipv6_pktbuf(ip), payload, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6);
}

/* The interface header in front of @p hdr, source @p netif's link address:
 * the kept one (send_upper()) or a new one. */
static tern_pkt_t *netif_snip(tern_ipv6_t *ip, tern_pkt_t *hdr, const tern_netif_t *netif)
{
    tern_pkt_t *snip = ip->spare_netif;
    if (snip != NULL && tern_netif_hdr_fill(snip->data, netif->l2addr, netif->l2addr_len, NULL, 0) == 0) {
        ip->spare_netif = NULL;
        snip->next = hdr;
        return snip;
    }
    return tern_netif_hdr_build(ipv6_pktbuf(ip), hdr, netif->l2addr, netif->l2addr_len, NULL, 0);
}

static void transmit_now(tern_ipv6_t *ip, tern_pkt_t *pkt)
{
    if (tern_netif_send(ip->module.stack, pkt) == 0) {
        ipv6_count(ip, TERN_IPV6_TX_PACKETS);
    }
}

void ipv6_transmit(tern_ipv6_t *ip, tern_pkt_t *pkt)
{
    transmit_now(ip, pkt);
}

void ipv6_resolve_send(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *next_hop, tern_pkt_t *pkt)
{
    if (ipif->lowpan.enabled) {
        ipv6_6lo_send(ip, ipif, next_hop, pkt); /* RFC 6775 §5.6, §6.5.2: no multicast resolution */
        return;
    }
    (void)tern_nc_send(&ipif->nc, next_hop, pkt, ipv6_now(ip));
}

/* ipv6_output(), with the link destination given (@p l2dst, @p l2len) or resolved (NULL). */
static int output(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                  uint8_t nh, uint8_t hop_limit, tern_pkt_t *payload, const uint8_t *l2dst, size_t l2len)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tern_ipv6_addr_t next_hop = *dst;
    bool link_scope = tern_ipv6_addr_is_multicast(dst) || tern_ipv6_addr_is_link_local(dst) || l2dst != NULL;
    /* RFC 6554 §4.1: a source route provider (RPL's non-storing root) first (srh.c). */
    bool source_routed = !link_scope && ipv6_srh_route(ip, dst, &ipif, &next_hop) == 1;
    size_t srh_len = source_routed ? ipv6_srh_len(ip) : 0u;
    if (!link_scope && !source_routed) {
        ipif = ipv6_route(ip, ipif, dst, &next_hop); /* RFC 4861 §5.2: destination cache, then table */
    }
    tern_ipv6_addr_t source;
    if (ipif == NULL || (src == NULL && choose_source(ipif, dst, &source) < 0)) {
        ipv6_count(ip, TERN_IPV6_TX_NO_ROUTE);
        tern_pktbuf_release(pb, payload);
        return -ENETUNREACH;
    }
    if (src != NULL) {
        source = *src;
    }
    size_t len = tern_pkt_len(payload);
    if (len > 0xFFFFu || fill_checksum(pb, payload, nh, &source, dst) < 0) {
        ipv6_count(ip, TERN_IPV6_TX_NOMEM);
        tern_pktbuf_release(pb, payload);
        return -ENOMEM;
    }
    /* RFC 6550 §11.2, RFC 6553 §4: the RPL Option in a Hop-by-Hop header (rpi.c). */
    size_t rpi_len = link_scope ? 0u : ipv6_rpi_len(ip, ipif, dst);
    if (srh_len > 0 && TERN_IPV6_HDR_LEN + rpi_len + srh_len + len > ipv6_path_mtu(ip, ipif, dst)) {
        /* The header would have to go in every fragment's unfragmentable part (srh.h). */
        ipv6_count(ip, TERN_IPV6_SRH_TOO_BIG);
        tern_pktbuf_release(pb, payload);
        return -EMSGSIZE;
    }
    if (TERN_IPV6_HDR_LEN + rpi_len + len > ipv6_path_mtu(ip, ipif, dst)) {
        if (nh == TERN_IPV6_NH_FRAGMENT) {
            /* A fragment that does not fit with the RPI: frag.c sized it without (never expected). */
            ipv6_count(ip, TERN_IPV6_RPI_TOO_BIG);
            tern_pktbuf_release(pb, payload);
            return -EMSGSIZE;
        }
        /* RFC 8200 §4.5: too big for the path (RFC 8201 §4: its MTU estimate,
         * at most the link's); frag.c sends the fragments through here. */
        return ipv6_frag_output(ip, ipif, &source, dst, nh, hop_limit, payload);
    }
    /* The checksum above used the final destination (RFC 8200 §8.1); the
     * header now takes the first hop (RFC 6554 §4.1). */
    tern_ipv6_addr_t wire_dst = *dst;
    if (srh_len > 0) {
        tern_pkt_t *srh = ipv6_srh_prepend(ip, payload, nh, &wire_dst);
        if (srh == NULL) {
            ipv6_count(ip, TERN_IPV6_TX_NOMEM);
            tern_pktbuf_release(pb, payload);
            return -ENOMEM;
        }
        payload = srh;
        nh = TERN_IPV6_NH_ROUTING;
        len += srh_len;
    }
    if (rpi_len > 0) {
        /* RFC 8200 §4.1: the Hop-by-Hop header comes first. */
        tern_pkt_t *hbh = ipv6_rpi_prepend(ip, payload, nh, &next_hop, source_routed);
        if (hbh == NULL) {
            ipv6_count(ip, TERN_IPV6_TX_NOMEM);
            tern_pktbuf_release(pb, payload);
            return -ENOMEM;
        }
        payload = hbh;
        nh = TERN_IPV6_NH_HOP_BY_HOP;
        len += rpi_len;
    }
    tern_pkt_t *hdr = header_snip(ip, payload);
    tern_netif_t *netif = ipif->netif;
    tern_pkt_t *pkt = (hdr != NULL) ? netif_snip(ip, hdr, netif) : NULL;
    if (pkt == NULL) {
        ipv6_count(ip, TERN_IPV6_TX_NOMEM);
        tern_pktbuf_release(pb, (hdr != NULL) ? hdr : payload);
        return -ENOMEM;
    }
    tern_ipv6_repr_t repr = {
        .traffic_class = 0, .flow_label = 0, .payload_len = (uint16_t)len,
        .next_header = nh, .hop_limit = hop_limit, .src = source, .dst = wire_dst,
    };
    (void)tern_ipv6_emit(&repr, hdr->data, hdr->size);
    tern_netif_hdr_t *nhdr = pkt->data;
    nhdr->if_index = netif->index;
    if (tern_ipv6_addr_is_multicast(dst)) {
        /* RFC 2464 §7: 33:33 and the group's last 32 bits; no resolution. */
        nhdr->flags = TERN_NETIF_HDR_FLAG_MULTICAST;
        if (netif->l2addr_len == TERN_ETHERNET_ADDR_LEN) {
            tern_ethernet_addr_from_ipv6_multicast(nhdr->dst, dst);
            nhdr->dst_len = TERN_ETHERNET_ADDR_LEN;
        }
        transmit_now(ip, pkt);
        return 0;
    }
    if (netif->l2addr_len == 0) {
        /* No link addresses (loopback): nothing to resolve. */
        transmit_now(ip, pkt);
        return 0;
    }
    if (l2dst != NULL) {
        memcpy(nhdr->dst, l2dst, l2len);
        nhdr->dst_len = (uint8_t)l2len;
        transmit_now(ip, pkt);
        return 0;
    }
    ipv6_resolve_send(ip, ipif, &next_hop, pkt);
    return 0;
}

int ipv6_output(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *src,
                const tern_ipv6_addr_t *dst, uint8_t nh, uint8_t hop_limit, tern_pkt_t *payload)
{
    return output(ip, ipif, src, dst, nh, hop_limit, payload, NULL, 0);
}

int ipv6_output_l2(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *src, const tern_ipv6_addr_t *dst,
                   uint8_t nh, uint8_t hop_limit, tern_pkt_t *payload, const uint8_t *l2dst, size_t l2len)
{
    if (l2dst == NULL || l2len == 0 || l2len > TERN_CONF_L2ADDR_MAX || ipif == NULL) {
        tern_pktbuf_release(ipv6_pktbuf(ip), payload);
        return -EINVAL;
    }
    return output(ip, ipif, src, dst, nh, hop_limit, payload, l2dst, l2len);
}

/* Neighbor-cache callbacks. */

static void nc_transmit(void *ctx, const tern_nc_entry_t *e, tern_pkt_t *pkt)
{
    tern_ipv6_if_t *ipif = ctx;
    tern_netif_hdr_t *nhdr = pkt->data;
    memcpy(nhdr->dst, e->l2addr, e->l2addr_len);
    nhdr->dst_len = e->l2addr_len;
    transmit_now(ipif->ip, pkt);
}

static void nc_unreachable(void *ctx, const tern_ipv6_addr_t *addr, tern_pkt_t *pkt)
{
    tern_ipv6_if_t *ipif = ctx;
    /* RFC 4861 §7.3.3: a redirect to a neighbor we cannot reach is forgotten,
     * the next packets go by the table again. */
    (void)tern_dcache_forget_next_hop(&ipif->ip->dcache, ipif->netif->index, addr);
    /* §7.2.2: address unreachable for each queued packet (icmpv6_error.c). */
    ipv6_icmpv6_error_unresolved(ipif->ip, pkt);
}

static void nc_dropped(void *ctx, tern_pkt_t *pkt)
{
    tern_ipv6_if_t *ipif = ctx;
    ipv6_count(ipif->ip, TERN_IPV6_NC_QUEUE_DROPPED);
    tern_pktbuf_release_error(ipv6_pktbuf(ipif->ip), pkt, -ENOBUFS);
}

static const tern_nc_ops_t nc_ops = { ipv6_ndp_send_ns, nc_transmit, nc_unreachable, nc_dropped };

/* Address-table callbacks. */

static void addrs_group(void *ctx, const tern_ipv6_addr_t *addr, bool join)
{
    tern_ipv6_if_t *ipif = ctx;
    tern_ipv6_addr_t group;
    tern_ipv6_addr_solicited_node(&group, addr);
    /* Links without a multicast filter answer -ENOTSUP: nothing to do there. */
    (void)tern_netapi_set(&ipif->netif->module, join ? TERN_NETOPT_MCAST_JOIN : TERN_NETOPT_MCAST_LEAVE,
                          0, group.u8, sizeof(group.u8));
    ipv6_mld_change(ipif, &group, join); /* RFC 3810 §6.1, mld.c */
}

static void addrs_duplicate(void *ctx, const tern_ipv6_addr_t *addr)
{
    (void)addr;
    tern_ipv6_if_t *ipif = ctx;
    ipv6_count(ipif->ip, TERN_IPV6_DAD_DUPLICATES);
}

static const tern_ipv6_addrs_ops_t addrs_ops = { ipv6_ndp_send_dad_ns, addrs_group, addrs_duplicate,
                                                  ipv6_rd_addr_ready };

/* ------------------------------------------------------------ enable */

/* noinline: its locals (112 B) stay out of handle()'s frame, which every packet's path starts with. */
__attribute__((noinline)) static void enable(tern_ipv6_t *ip, tern_netif_t *netif)
{
    if (find_if(ip, netif->index) != NULL) {
        return;
    }
    tern_ipv6_if_t *ipif = NULL;
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS && ipif == NULL; i++) {
        if (ip->ifs[i].netif == NULL) {
            ipif = &ip->ifs[i];
        }
    }
    if (ipif == NULL) {
        return;
    }
    memset(ipif, 0, sizeof(*ipif));
    ipif->netif = netif;
    ipif->ip = ip;
    ipif->cur_hop_limit = TERN_IPV6_DEFAULT_HOP_LIMIT;
    /* RFC 4861 §6.3.2: ReachableTime uniformly in [0.5, 1.5] x BaseReachableTime. */
    uint32_t reachable = BASE_REACHABLE_TIME_US / 2u + ipv6_random(ip) % BASE_REACHABLE_TIME_US;
    tern_nc_init(&ipif->nc, &nc_ops, ipif, reachable, RETRANS_TIMER_US);
    ipif->reachable_renew_us = ipv6_now(ip) + (uint64_t)TERN_CONF_IPV6_REACHABLE_RENEW_S * 1000000u;
    /* Contract: an IEEE 802.15.4 device makes a 6LoWPAN link (RFC 6775 rules). */
    uint16_t devtype = 0;
    bool lowpan = tern_netapi_get(&netif->module, TERN_NETOPT_DEVICE_TYPE, 0, &devtype, sizeof(devtype)) ==
                      (int)sizeof(devtype) &&
                  devtype == TERN_NETDEV_TYPE_IEEE802154;
    /* DAD on links with addresses; a link without any (loopback) would hear
     * its own solicitations and find every address duplicate. 6LoWPAN links
     * replace multicast DAD by registration (RFC 6775 §5.1, §5.5; ndp_6lo.c). */
    tern_ipv6_addrs_init(&ipif->addrs, &addrs_ops, ipif, (netif->l2addr_len > 0 && !lowpan) ? 1u : 0u,
                         RETRANS_TIMER_US);
    if (lowpan) {
        ipv6_6lo_enable(ipif);
    }
    (void)tern_netapi_set(&netif->module, TERN_NETOPT_MCAST_JOIN, 0, ipv6_all_nodes.u8, sizeof(ipv6_all_nodes.u8));
    /* RFC 4862 §5.3: fe80::/64 and the interface identifier (RFC 4291 App. A). */
    tern_ipv6_addr_t ll = { { 0xfe, 0x80 } };
    if (tern_ipv6_iid_from_l2addr(&ll, netif->l2addr, netif->l2addr_len) == 0) {
        /* RFC 6775 §5.2: a link-local address from the EUI-64 is unique: no delay, no DAD. */
        (void)tern_ipv6_addrs_add(&ipif->addrs, &ll, 64, 0, TERN_IPV6_LIFETIME_INFINITE,
                                  TERN_IPV6_LIFETIME_INFINITE, lowpan ? 0u : ipv6_random(ip) % MAX_DAD_DELAY_US,
                                  ipv6_now(ip));
    }
    ipv6_rd_enable(ipif); /* RFC 4861 §6.3.7 solicit (host), §6.2.4 advertise (router) */
}

void tern_ipv6_seed(tern_ipv6_t *ip, uint32_t seed)
{
    ip->rng = (seed != 0) ? seed : 0x9E3779B9u; /* xorshift32 stays at 0 forever */
}

int tern_ipv6_netif_enable(tern_ipv6_t *ip, tern_netif_t *netif)
{
    if (ip == NULL || netif == NULL) {
        return -EINVAL;
    }
    tern_msg_t msg = { .type = MSG_ENABLE, .content.ptr = netif };
    return tern_netapi_post(&ip->module, &msg);
}

/* ------------------------------------------------------------ receive */

/* Is @p dst ours on @p ipif? *@p tentative: it is a tentative address. */
static bool for_us(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst, bool *tentative)
{
    *tentative = false;
    if (tern_ipv6_addr_is_multicast(dst)) {
        if (tern_ipv6_addr_equal(dst, &ipv6_all_nodes) || ipv6_rd_all_routers(ipif, dst) ||
            ipv6_mld_listening(ipif, dst)) {
            return true; /* groups joined with TERN_NETOPT_IPV6_GROUP_JOIN too (prefix.c) */
        }
        if (!tern_ipv6_addr_is_solicited_node(dst)) {
            return false;
        }
        for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
            const tern_ipv6_if_addr_t *a = &ipif->addrs.addrs[i];
            if (a->used && memcmp(&a->addr.u8[13], &dst->u8[13], 3) == 0) {
                return true;
            }
        }
        return false;
    }
    tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(&ipif->addrs, dst);
    if (a == NULL || a->state == TERN_IPV6_ADDR_DUPLICATE) {
        return false;
    }
    *tentative = (a->state == TERN_IPV6_ADDR_TENTATIVE);
    return true;
}

/** What the extension headers of a received packet ask for. */
typedef struct {
    int ext_len;       /**< bytes of extension headers; -1: discard the packet */
    uint8_t upper;     /**< the next header after them */
    uint16_t nh_field; /**< offset (from the IPv6 header) of the field naming @ref upper */
    bool icmp;         /**< with the discard: send Parameter Problem ... */
    uint8_t code;      /**< ... of this code ... */
    uint16_t pointer;  /**< ... pointing here (from the IPv6 header) */
    bool fragment;     /**< stopped at a Fragment header (RFC 8200 §4.5), at ... */
    uint16_t frag_offset; /**< ... this offset after the fixed header; nh_field names it */
} ext_verdict_t;

int ipv6_options_check(const uint8_t *hdr, size_t len, bool dst_multicast, size_t *offset)
{
    tern_ipv6_opt_iter_t it;
    tern_ipv6_opt_t opt;
    int r;
    tern_ipv6_opt_iter_init(&it, hdr, len);
    while ((r = tern_ipv6_opt_next(&it, &opt)) > 0) {
        if (opt.type == TERN_IPV6_OPT_ROUTER_ALERT || opt.type == TERN_RPL_HBH_OPT_TYPE ||
            opt.type == TERN_RPL_HBH_OPT_TYPE_RFC9008) {
            continue; /* known: the RPL Option (RFC 6553 §3, RFC 9008 §4.3) is checked by forwarding routers (rpi.c) */
        }
        tern_ipv6_opt_action_t action = tern_ipv6_opt_action(opt.type);
        if (action == TERN_IPV6_OPT_ACTION_SKIP) {
            continue;
        }
        *offset = opt.offset;
        bool icmp = action == TERN_IPV6_OPT_ACTION_DISCARD_ICMP ||
                    (action == TERN_IPV6_OPT_ACTION_DISCARD_ICMP_UNICAST && !dst_multicast);
        return icmp ? -EPROTO : -EBADMSG;
    }
    return (r == 0) ? 0 : -EBADMSG;
}

/*
 * Hop-by-Hop / Destination options (RFC 8200 §4.2), ipv6_options_check().
 * @p base: offset of the header from the IPv6 header, for the pointer.
 * @return true to go on; false to discard (@p v says whether with an error).
 */
static bool options_acceptable(const uint8_t *hdr, size_t len, size_t base, bool dst_multicast,
                               ext_verdict_t *v)
{
    size_t offset = 0;
    int r = ipv6_options_check(hdr, len, dst_multicast, &offset);
    v->icmp = (r == -EPROTO);
    v->pointer = (uint16_t)(base + offset);
    return r == 0;
}

/* RFC 3692 experimental numbers: IANA lists them as extension header types
 * too (RFC 8200 §4.8 format), but they mean nothing to the stack itself, so
 * the walk ends there and they go up like any upper-layer protocol: to a raw
 * socket registered for them (sock_ip.h), else Parameter Problem code 1. */
static bool is_experimental(uint8_t next_header)
{
    return next_header == TERN_IPV6_NH_EXPERIMENT1 || next_header == TERN_IPV6_NH_EXPERIMENT2;
}

/* The extension headers at the start of @p pkt, into @p v as walk_extensions() set it up. */
static void walk_extension_headers(const tern_pkt_t *pkt, const tern_ipv6_repr_t *hdr, ext_verdict_t *v)
{
    bool dst_multicast = tern_ipv6_addr_is_multicast(&hdr->dst);
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    int r = 0;
    tern_ipv6_ext_walk_init(&walk, pkt->data, pkt->size, hdr->next_header);
    while (!is_experimental(walk.next_header) && (r = tern_ipv6_ext_walk_next(&walk, &ext)) > 0) {
        const uint8_t *h = (const uint8_t *)pkt->data + ext.offset;
        size_t base = TERN_IPV6_HDR_LEN + ext.offset;
        switch (ext.type) {
        case TERN_IPV6_NH_HOP_BY_HOP:
            /* §4.1, §4.3: only immediately after the fixed header; anywhere
             * else the Next Header naming it is unrecognized (code 1). */
            if (ext.offset != 0) {
                v->icmp = true;
                v->code = TERN_ICMPV6_PARAM_PROBLEM_NEXT_HEADER;
                v->pointer = v->nh_field;
                return;
            }
            if (!options_acceptable(h, ext.len, base, dst_multicast, v)) {
                return;
            }
            break;
        case TERN_IPV6_NH_DEST_OPTS:
            if (!options_acceptable(h, ext.len, base, dst_multicast, v)) {
                return;
            }
            break;
        case TERN_IPV6_NH_ROUTING: {
            /* §4.4: with Segments Left 0 the header is ignored; otherwise we
             * would have to process it, and no routing type is supported. */
            tern_ipv6_routing_repr_t rt;
            if (tern_ipv6_routing_parse(&rt, h, ext.len) < 0 || rt.segments_left != 0) {
                return;
            }
            break;
        }
        case TERN_IPV6_NH_FRAGMENT:
            /* §4.5: the caller reassembles (reass.c), then walks what follows. */
            v->fragment = true;
            v->frag_offset = (uint16_t)ext.offset;
            return;
        default:
            /* AH, mobility...: discard. */
            return;
        }
        v->nh_field = (uint16_t)base; /* this header's first byte names the next */
    }
    if (r < 0 || (tern_ipv6_is_ext_header(walk.next_header) && !is_experimental(walk.next_header))) {
        return;
    }
    v->upper = walk.next_header;
    v->ext_len = (int)walk.offset;
}

/* Step over the extension headers at the start of @p pkt (RFC 8200 §4). The
 * usual case, an upper-layer header right after the fixed one, inline (UDP
 * without even the look-up in the list of extension header types). */
static inline ext_verdict_t walk_extensions(const tern_pkt_t *pkt, const tern_ipv6_repr_t *hdr)
{
    ext_verdict_t v = { .ext_len = -1, .upper = 0, .nh_field = 6, .icmp = false,
                        .code = TERN_ICMPV6_PARAM_PROBLEM_OPTION, .pointer = 0 };
    if (TERN_CONF_FAST_PATHS &&
        (hdr->next_header == TERN_IPV6_NH_UDP || !tern_ipv6_is_ext_header(hdr->next_header))) {
        v.upper = hdr->next_header;
        v.ext_len = 0;
        return v;
    }
    walk_extension_headers(pkt, hdr, &v);
    return v;
}

/*
 * Router: is the unicast, not link-local @p dst a usable address of another
 * of our interfaces than @p ipif? RFC 1122 §3.3.4.2 (a multihomed node may
 * accept a packet for any of its addresses on any interface) and RFC 8200
 * §3: the packet is for us, not forwarded. Link-local addresses stay on
 * their link (RFC 4291 §2.5.6).
 */
static bool for_other_if(tern_ipv6_t *ip, const tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst)
{
    if (!ipv6_is_router(ip) || tern_ipv6_addr_is_multicast(dst) || tern_ipv6_addr_is_link_local(dst) ||
        tern_ipv6_addr_is_unspecified(dst)) {
        return false;
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        tern_ipv6_if_t *other = &ip->ifs[i];
        if (other == ipif || other->netif == NULL) {
            continue;
        }
        const tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(&other->addrs, dst);
        if (a != NULL && (a->state == TERN_IPV6_ADDR_PREFERRED || a->state == TERN_IPV6_ADDR_DEPRECATED)) {
            return true;
        }
    }
    return false;
}

/* The receive path; @p depth: decapsulations the packet went through (tunnel.c). */
static void receive_depth(tern_ipv6_t *ip, tern_pkt_t *pkt, unsigned depth)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    if (depth == 0) {
        ipv6_count(ip, TERN_IPV6_RX_PACKETS); /* an inner packet is not counted twice */
    }
    tern_netif_hdr_t *nhdr = tern_netif_hdr_received(pkt);
    tern_ipv6_if_t *ipif = (nhdr != NULL) ? find_if(ip, nhdr->if_index) : NULL;
    if (ipif == NULL) {
        ipv6_count(ip, TERN_IPV6_RX_NO_IF);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    tern_pkt_t *own = tern_pktbuf_start_write(pb, pkt);
    if (own == NULL) {
        ipv6_count(ip, TERN_IPV6_RX_NOMEM);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    pkt = own;
    tern_ipv6_repr_t hdr;
    int plen;
    if (tern_ipv6_parse(&hdr, pkt->data, pkt->size) < 0 ||
        (plen = tern_ipv6_check_len(&hdr, pkt->size)) < 0 ||
        tern_ipv6_addr_is_multicast(&hdr.src) || tern_ipv6_addr_is_loopback(&hdr.src) ||
        tern_ipv6_addr_is_loopback(&hdr.dst)) {
        /* RFC 4291 §2.7: no multicast source; §2.5.3: ::1 never arrives from a link. */
        ipv6_count(ip, TERN_IPV6_RX_HDR_ERRORS);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    bool tentative;
    bool ours = for_us(ipif, &hdr.dst, &tentative);
    if (!ours && for_other_if(ip, ipif, &hdr.dst)) {
        ours = true; /* tentative stays false: only usable addresses count there */
        ipv6_count(ip, TERN_IPV6_RX_OTHER_IF);
    }
    if (!ours) {
        if (ipv6_is_router(ip) && !tern_ipv6_addr_is_multicast(&hdr.dst)) {
            ipv6_forward(ip, &hdr, (size_t)plen, pkt); /* forward.c (RFC 8200 §3) */
            return;
        }
        ipv6_count(ip, TERN_IPV6_RX_NOT_FOR_US);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    /* RFC 6554 §4.2: a router source-routes the packet on (srh.c). A Routing
     * header follows the fixed header or Hop-by-Hop / Destination Options
     * ones (RFC 8200 §4.1): a packet starting with another has none. */
    bool may_route = hdr.next_header == TERN_IPV6_NH_ROUTING || hdr.next_header == TERN_IPV6_NH_HOP_BY_HOP ||
                     hdr.next_header == TERN_IPV6_NH_DEST_OPTS;
    if (!tentative && may_route && ipv6_srh_receive(ip, ipif, &hdr, (size_t)plen, pkt)) {
        return;
    }
    if (plen == 0) {
        /* Nothing after the fixed header: fine with No Next Header (RFC 8200 §4.7). */
        ipv6_count(ip, (hdr.next_header == TERN_IPV6_NH_NONE) ? TERN_IPV6_RX_DELIVERED
                                                                  : TERN_IPV6_RX_HDR_ERRORS);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    /* Split the header off (thesis 3.4.1: mark), then drop link padding. */
    if (tern_pktbuf_mark(pb, pkt, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6) == NULL) {
        ipv6_count(ip, TERN_IPV6_RX_NOMEM);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    if (pkt->size > (size_t)plen) {
        (void)tern_pktbuf_realloc_data(pb, pkt, (size_t)plen);
    }
    ext_verdict_t v = walk_extensions(pkt, &hdr);
    if (v.fragment) {
        /* RFC 8200 §4.5: to reassembly (reass.c); a whole datagram comes back. A
         * Fragment header inside it (second walk) is dropped below. */
        pkt = ipv6_reass_receive(ip, pkt, &hdr, v.frag_offset, v.nh_field, tentative);
        if (pkt == NULL) {
            return;
        }
        v = walk_extensions(pkt, &hdr);
    }
    uint8_t upper = v.upper;
    int ext_len = v.ext_len;
    if (ext_len < 0 || (ext_len > 0 && (size_t)ext_len == pkt->size) ||
        (ext_len > 0 && tern_pktbuf_mark(pb, pkt, (size_t)ext_len, TERN_NETTYPE_IPV6_EXT) == NULL)) {
        ipv6_count(ip, TERN_IPV6_RX_EXT_DROPPED);
        if (v.icmp && !tentative) {
            ipv6_icmpv6_error(ip, pkt, TERN_ICMPV6_PARAM_PROBLEM, v.code, v.pointer);
        } else {
            tern_pktbuf_release(pb, pkt);
        }
        return;
    }
    /* RFC 4862 §5.4: a tentative address takes NS and NA only. */
    const uint8_t *first = pkt->data;
    if (tentative && (upper != TERN_ICMPV6_NEXT_HEADER || pkt->size < 1 ||
                      (first[0] != TERN_ICMPV6_NEIGHBOR_SOLICIT && first[0] != TERN_ICMPV6_NEIGHBOR_ADVERT))) {
        ipv6_count(ip, TERN_IPV6_RX_NOT_FOR_US);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    if (upper == TERN_IPV6_NH_IPV6) {
        /* RFC 2473 §3.3: the tunnel exit; the inner packet goes through
         * this path again, from the same interface (tunnel.c). */
        tern_pkt_t *inner = ipv6_tunnel_decap(ip, pkt, depth);
        if (inner != NULL) {
            receive_depth(ip, inner, depth + 1u);
        }
        return;
    }
    ipv6_count(ip, TERN_IPV6_RX_DELIVERED);
    if (upper == TERN_ICMPV6_NEXT_HEADER) {
        /* ICMPv6 is handled here: keep the message snip, let the headers go. */
        tern_pkt_t *rest = pkt->next;
        pkt->next = NULL;
        tern_pktbuf_release(pb, rest);
        ipv6_icmpv6_receive(ip, ipif, &hdr, pkt);
        return;
    }
    if (upper == TERN_IPV6_NH_NONE) {
        tern_pktbuf_release(pb, pkt); /* §4.7: nothing follows */
        return;
    }
    /* UDP and TCP go to their modules; any other protocol to whoever
     * registered for its number (raw sockets). */
    tern_nettype_t type = (upper == TERN_IPV6_NH_UDP)   ? TERN_NETTYPE_UDP
                          : (upper == TERN_IPV6_NH_TCP) ? TERN_NETTYPE_TCP
                                                        : TERN_NETTYPE_UNDEF;
    uint32_t demux = (type == TERN_NETTYPE_UNDEF) ? upper : TERN_NETREG_DEMUX_CTX_ALL;
    pkt->type = (uint8_t)type;
    tern_stack_t *stack = ip->module.stack;
    tern_module_t *to[TERN_CONF_NETAPI_MAX_RECEIVERS];
    unsigned n = tern_netreg_collect(&stack->netreg, type, demux, to, TERN_CONF_NETAPI_MAX_RECEIVERS);
    if (n == 0) {
        /* Nobody takes it: a UDP datagram has no listener (RFC 4443 §3.1,
         * port unreachable); another protocol is unrecognized (RFC 8200 §4,
         * Parameter Problem code 1 at the Next Header field naming it). */
        ipv6_count(ip, TERN_IPV6_RX_NO_PROTO);
        if (upper == TERN_IPV6_NH_UDP) {
            ipv6_icmpv6_error(ip, pkt, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0);
        } else {
            ipv6_icmpv6_error(ip, pkt, TERN_ICMPV6_PARAM_PROBLEM, TERN_ICMPV6_PARAM_PROBLEM_NEXT_HEADER,
                              v.nh_field);
        }
        return;
    }
    (void)tern_netapi_deliver(stack, to, n, TERN_MSG_RCV, pkt); /* counts receivers beyond the array */
}

static void receive(tern_ipv6_t *ip, tern_pkt_t *pkt)
{
    receive_depth(ip, pkt, 0);
}

/* ------------------------------------------------------------ upper layers */

/*
 * A packet from an upper layer: [NETIF (optional: the interface, for
 * link-local and multicast destinations), IPV6 (a header template: dst,
 * next header; src :: to let source selection choose; hop limit 0 for the
 * interface's default), payload...]. The checksum of UDP and ICMPv6 is
 * filled here, when the addresses are known (thesis 3.4.2).
 */
static void send_upper(tern_ipv6_t *ip, tern_pkt_t *pkt)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    uint16_t if_index = 0;
    tern_pkt_t *spare_netif = NULL;
    if (pkt->type == TERN_NETTYPE_NETIF) {
        const tern_netif_hdr_t *nh = tern_netif_hdr_get(pkt);
        if_index = (nh != NULL) ? nh->if_index : 0u;
        if (nh != NULL && pkt->users == 1u) {
            /* Ours alone: kept for the outgoing packet's interface header. */
            spare_netif = pkt;
            pkt = pkt->next;
            spare_netif->next = NULL;
        } else {
            pkt = tern_pktbuf_remove_snip(pb, pkt, pkt);
        }
    }
    tern_ipv6_repr_t repr;
    if (pkt == NULL || pkt->type != TERN_NETTYPE_IPV6 || pkt->next == NULL ||
        tern_ipv6_parse(&repr, pkt->data, pkt->size) < 0) {
        ipv6_count(ip, TERN_IPV6_TX_INVALID);
        tern_pktbuf_release(pb, pkt);
        tern_pktbuf_release(pb, spare_netif);
        return;
    }
    tern_pkt_t *payload = pkt->next;
    tern_pkt_t *own = tern_pktbuf_start_write(pb, pkt);
    if (own == NULL) {
        ipv6_count(ip, TERN_IPV6_TX_NOMEM);
        tern_pktbuf_release(pb, pkt);
        tern_pktbuf_release(pb, spare_netif);
        return;
    }
    /* The template goes (the payload keeps our reference): its snip, and the
     * interface header's, become the outgoing packet's headers, instead of
     * being freed here and allocated again in ipv6_output(). */
    own->next = NULL;
    ip->spare_hdr = own;
    ip->spare_netif = spare_netif;
    tern_ipv6_if_t *ipif = (if_index != 0) ? find_if(ip, if_index) : NULL;
    if (if_index != 0 && ipif == NULL) {
        ipv6_count(ip, TERN_IPV6_TX_NO_ROUTE);
        tern_pktbuf_release(pb, payload);
    } else {
        uint8_t hop = repr.hop_limit;
        if (hop == 0) {
            hop = (ipif != NULL) ? ipif->cur_hop_limit : TERN_IPV6_DEFAULT_HOP_LIMIT;
        }
        const tern_ipv6_addr_t *src = tern_ipv6_addr_is_unspecified(&repr.src) ? NULL : &repr.src;
        (void)ipv6_output(ip, ipif, src, &repr.dst, repr.next_header, hop, payload);
    }
    /* Not taken (an error, fragments, a packet queued for resolution...): freed. */
    tern_pktbuf_release(pb, ip->spare_hdr);
    tern_pktbuf_release(pb, ip->spare_netif);
    ip->spare_hdr = NULL;
    ip->spare_netif = NULL;
}

/* ------------------------------------------------------------ options */

__attribute__((noinline)) static int get_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    if (!TERN_CONF_IPV6_INSPECT && opt->opt != TERN_NETOPT_IPV6_ADDRS && opt->opt != TERN_NETOPT_IPV6_RPL_STATE) {
        return -ENOTSUP; /* no inspection of the tables (config.h): only what other modules read */
    }
    tern_ipv6_if_t *ipif = find_if(ip, opt->context);
    switch (opt->opt) {
    case TERN_NETOPT_IPV6_ADDRS:
        if (ipif == NULL) {
            return -ENODEV;
        }
        if (opt->data_len < sizeof(tern_ipv6_addr_list_t)) {
            return -EOVERFLOW;
        }
        memcpy(opt->data, ipif->addrs.addrs, sizeof(tern_ipv6_addr_list_t));
        return (int)sizeof(tern_ipv6_addr_list_t);
    case TERN_NETOPT_IPV6_NEIGHBORS:
        if (ipif == NULL) {
            return -ENODEV;
        }
        if (opt->data_len < sizeof(tern_ipv6_neighbor_list_t)) {
            return -EOVERFLOW;
        }
        memcpy(opt->data, ipif->nc.entries, sizeof(tern_ipv6_neighbor_list_t));
        return (int)sizeof(tern_ipv6_neighbor_list_t);
    case TERN_NETOPT_IPV6_6LO:
        return ipv6_6lo_get_option(ip, ipif, opt);
    case TERN_NETOPT_IPV6_RPL_STATE:
        return ipv6_rpi_get_option(ip, opt); /* rpi.c */
    case TERN_NETOPT_IPV6_DESTINATIONS: {
        tern_ipv6_dest_list_t *list = opt->data;
        if (opt->data_len < sizeof(*list)) {
            return -EOVERFLOW;
        }
        list->now_us = ipv6_now(ip);
        (void)tern_dcache_expire(&ip->dcache, list->now_us);
        tern_dcache_copy(&ip->dcache, list->entries);
        return (int)sizeof(*list);
    }
    default:
        return ipv6_rd_get_option(ip, ipif, opt);
    }
}

/* Addresses configured by hand: the address (DAD first) and its on-link prefix. */
__attribute__((noinline)) static int set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    tern_ipv6_if_t *ipif = find_if(ip, opt->context);
    if (opt->opt != TERN_NETOPT_IPV6_ADDR_ADD && opt->opt != TERN_NETOPT_IPV6_ADDR_DEL) {
        if (opt->opt == TERN_NETOPT_IPV6_RPL_STATE) {
            return ipv6_rpi_set_option(ip, opt); /* rpi.c */
        }
        if (opt->opt == TERN_NETOPT_IPV6_SOURCE_ROUTER) {
            return ipv6_srh_set_option(ip, opt); /* srh.c */
        }
        if (opt->opt == TERN_NETOPT_IPV6_PREFIX || opt->opt == TERN_NETOPT_IPV6_GROUP_JOIN ||
            opt->opt == TERN_NETOPT_IPV6_GROUP_LEAVE) {
            return ipv6_prefix_set_option(ip, opt); /* prefix.c */
        }
        return (opt->opt == TERN_NETOPT_IPV6_ROUTE_ADD || opt->opt == TERN_NETOPT_IPV6_ROUTE_DEL)
                   ? ipv6_forward_set_option(ip, opt)
                   : ipv6_rd_set_option(ip, opt);
    }
    if (ipif == NULL) {
        return -ENODEV;
    }
    tern_ipv6_addr_config_t cfg;
    if (opt->data_len != sizeof(cfg)) {
        return -EINVAL;
    }
    memcpy(&cfg, opt->data, sizeof(cfg));
    uint16_t if_index = ipif->netif->index;
    if (opt->opt == TERN_NETOPT_IPV6_ADDR_DEL) {
        tern_ipv6_if_addr_t *a = tern_ipv6_addrs_find(&ipif->addrs, &cfg.addr);
        if (a == NULL) {
            return -ENOENT;
        }
        (void)tern_fib_remove(&ip->fib, &a->addr, a->prefix_len, if_index, NULL);
        (void)tern_ipv6_addrs_remove(&ipif->addrs, &cfg.addr);
        ipv6_6lo_sync(ipif); /* its registrations go (ndp_6lo.c) */
        return (int)sizeof(cfg);
    }
    int res = tern_ipv6_addrs_add(&ipif->addrs, &cfg.addr, cfg.prefix_len, TERN_IPV6_ADDR_FLAG_MANUAL,
                                  TERN_IPV6_LIFETIME_INFINITE, TERN_IPV6_LIFETIME_INFINITE, 0,
                                  ipv6_now(ip));
    if (res < 0) {
        return res;
    }
    /* The prefix is on-link (RFC 4861 §5.2: a connected route); link-local
     * destinations need no route. */
    if (!tern_ipv6_addr_is_link_local(&cfg.addr) && cfg.prefix_len > 0) {
        (void)tern_fib_add(&ip->fib, &cfg.addr, cfg.prefix_len, NULL, if_index, TERN_FIB_INFINITE,
                           TERN_FIB_CONNECTED, 0);
    }
    ipv6_6lo_sync(ipif); /* a 6LoWPAN host registers it (RFC 6775 §5.5) */
    return (int)sizeof(cfg);
}

/* ------------------------------------------------------------ module */

static int handle(tern_module_t *self, tern_msg_t *msg)
{
    tern_ipv6_t *ip = self->context;
    int res = 0;
    switch (msg->type) {
    case TERN_MSG_RCV:
        receive(ip, msg->content.pkt);
        break;
    case TERN_MSG_SND:
        send_upper(ip, msg->content.pkt);
        break;
    case TERN_MSG_TIMER:
        ip->timer_at = UINT64_MAX; /* it fired */
        tick(ip);
        break;
    case MSG_ENABLE:
        enable(ip, msg->content.ptr);
        break;
    case TERN_IPV6_MSG_PORT_UNREACHABLE:
        ipv6_icmpv6_error(ip, msg->content.pkt, TERN_ICMPV6_DST_UNREACH, TERN_ICMPV6_DST_UNREACH_PORT, 0);
        break;
    case TERN_MSG_GET:
        res = get_option(ip, msg->content.opt);
        break;
    case TERN_MSG_SET:
        res = set_option(ip, msg->content.opt);
        break;
    default:
        res = -ENOTSUP;
        break;
    }
    /* Packets going up or down leave the tables' scan to tables_gen();
     * timers, options and enabling rescan. */
    reschedule(ip, msg->type != TERN_MSG_RCV && msg->type != TERN_MSG_SND);
    return res;
}

int tern_ipv6_init(tern_ipv6_t *ip, tern_stack_t *stack)
{
    if (ip == NULL || stack == NULL) {
        return -EINVAL;
    }
    memset(ip, 0, sizeof(*ip));
    ip->router = (TERN_CONF_IPV6_ROUTER == 2); /* a router-only build is one from the start (config.h) */
    ip->timer_at = UINT64_MAX;
    ip->tables_at_us = UINT64_MAX;
    tern_ipv6_seed(ip, 0x9E3779B9u ^ (uint32_t)(uintptr_t)stack);
    ip->icmp_error_tokens = TERN_CONF_ICMPV6_ERROR_BURST;
    int res = tern_module_init(&ip->module, "ipv6", IPV6_PRIORITY, handle, ip, ip->queue,
                               TERN_CONF_MODULE_QUEUE_LEN);
    if (res < 0) {
        return res;
    }
    /* ip->fib: zeroed with *ip above, and an all-zero table is the empty one
     * tern_fib_init() makes (tern/ipv6/fib.h): no second pass over it. */
    tern_dcache_init(&ip->dcache);
    res = tern_stack_add_module(stack, &ip->module);
    if (res < 0) {
        return res;
    }
    tern_timer_init(&ip->timer, &ip->module, TERN_MSG_TIMER, 0);
    tern_netreg_entry_init(&ip->entry, TERN_NETREG_DEMUX_CTX_ALL, &ip->module);
    res = tern_netreg_register(&stack->netreg, TERN_NETTYPE_IPV6, &ip->entry);
    if (res < 0) {
        return res;
    }
    ip->stats.name = "ipv6";
    ip->stats.names = TERN_STATS_NAMES(ipv6_counter_names);
    ip->stats.values = ip->counters;
    ip->stats.count = TERN_IPV6_STAT_NUMOF;
    tern_stack_add_stats(stack, &ip->stats);
    return 0;
}
