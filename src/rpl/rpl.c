/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL module: roles, interfaces, I/O through the IPv6 module,
 *        the TX status hook, one timer (RFC 6550; see tern/rpl/rpl.h).
 */
#include <errno.h>
#include <string.h>

#include "rpl_internal.h"
#include "tern/netapi.h"
#include "tern/netif_hdr.h"
#include "tern/wire/icmpv6.h"

_Static_assert(TERN_CONF_ICMPV6_DELIVER, "RPL's messages come through the IPv6 module's ICMPv6 delivery "
                                         "(TERN_CONF_ICMPV6_DELIVER 1, config.h)");

/** Module messages beyond netapi's. */
#define MSG_ENABLE (TERN_MSG_USER + 1)
#define MSG_TX_STATUS (TERN_MSG_USER + 2)

/** Less urgent than IPv6 (4): a control plane. */
#define RPL_PRIORITY 5u

static const char *const rpl_counter_names[TERN_RPL_STAT_NUMOF] = {
    [TERN_RPL_DIO_IN] = "dio_in",
    [TERN_RPL_DIO_OUT] = "dio_out",
    [TERN_RPL_DIS_IN] = "dis_in",
    [TERN_RPL_DIS_OUT] = "dis_out",
    [TERN_RPL_DAO_IN] = "dao_in",
    [TERN_RPL_DAO_OUT] = "dao_out",
    [TERN_RPL_DAO_FORWARDED] = "dao_forwarded",
    [TERN_RPL_DAO_ACK_IN] = "dao_ack_in",
    [TERN_RPL_DAO_ACK_OUT] = "dao_ack_out",
    [TERN_RPL_DAO_RETRIES] = "dao_retries",
    [TERN_RPL_DAO_GAVE_UP] = "dao_gave_up",
    [TERN_RPL_MALFORMED] = "malformed",
    [TERN_RPL_UNKNOWN_CODE] = "unknown_code",
    [TERN_RPL_UNKNOWN_INSTANCE] = "unknown_instance",
    [TERN_RPL_BAD_RANK] = "bad_rank",
    [TERN_RPL_BAD_SOURCE] = "bad_source",
    [TERN_RPL_MOP_UNSUPPORTED] = "mop_unsupported",
    [TERN_RPL_OCP_UNSUPPORTED] = "ocp_unsupported",
    [TERN_RPL_NOT_GROUNDED] = "not_grounded",
    [TERN_RPL_DIO_OLD_VERSION] = "dio_old_version",
    [TERN_RPL_DIO_RANK_RULE] = "dio_rank_rule",
#if RPL_JOINS
    [TERN_RPL_PARENT_TABLE_FULL] = "parent_table_full",
#endif
    [TERN_RPL_DAO_NOT_CHILD] = "dao_not_child",
    [TERN_RPL_DAO_BAD_TARGET] = "dao_bad_target",
    [TERN_RPL_ROUTE_TABLE_FULL] = "route_table_full",
    [TERN_RPL_DAO_ACK_UNEXPECTED] = "dao_ack_unexpected",
    [TERN_RPL_DAO_ACK_REJECTED] = "dao_ack_rejected",
    [TERN_RPL_ROUTES_EXPIRED] = "routes_expired",
#if RPL_JOINS
    [TERN_RPL_PARENT_LOST] = "parent_lost",
#endif
#if RPL_JOINS
    [TERN_RPL_LOCAL_REPAIRS] = "local_repairs",
#endif
    [TERN_RPL_GLOBAL_REPAIRS] = "global_repairs",
#if RPL_JOINS
    [TERN_RPL_ETX_RESET] = "etx_reset",
#endif
#if RPL_JOINS
    [TERN_RPL_PARENT_SWITCHES] = "parent_switches",
#endif
    [TERN_RPL_JOINS] = "joins",
    [TERN_RPL_TX_NOMEM] = "tx_nomem",
    [TERN_RPL_TX_FAILED] = "tx_failed",
    [TERN_RPL_NO_IF] = "no_if",
#if TERN_CONF_RPL_NS_LINKS > 0
    [TERN_RPL_NS_NO_ROUTE] = "ns_no_route",
#endif
#if TERN_CONF_RPL_NS_LINKS > 0
    [TERN_RPL_NS_LOOP] = "ns_loop",
#endif
    [TERN_RPL_DAO_NO_PATH_OUT] = "dao_no_path_out",
    [TERN_RPL_DAO_NOT_FORWARDED] = "dao_not_forwarded",
    [TERN_RPL_DAO_STALE_TARGET] = "dao_stale_target",
    [TERN_RPL_RPI_TRICKLE_RESETS] = "rpi_trickle_resets",
    [TERN_RPL_RPI_ROUTES_FAILED] = "rpi_routes_failed",
    [TERN_RPL_RPI_PARENT_LOOPS] = "rpi_parent_loops",
#if RPL_JOINS
    [TERN_RPL_PARENT_BECAME_CHILD] = "parent_became_child",
#endif
    [TERN_RPL_RPI_EVENTS_LOST] = "rpi_events_lost",
};

const char *tern_rpl_role_name(uint8_t role)
{
    switch (role) {
    case TERN_RPL_ROLE_ROUTER:
        return "router";
    case TERN_RPL_ROLE_LEAF:
        return "leaf";
    case TERN_RPL_ROLE_ROOT:
        return "root";
    default:
        return "none";
    }
}

void rpl_count(tern_rpl_t *rpl, unsigned c)
{
    tern_count(&rpl->counters[c]);
}

bool rpl_seq_newer(uint8_t a, uint8_t b)
{
    const unsigned window = 16u;
    if (a == b) {
        return false;
    }
    if (a >= 128u && b < 128u) {
        return (256u + b - a) > window;
    }
    if (a < 128u && b >= 128u) {
        return (256u + a - b) <= window;
    }
    if (a < 128u) {
        unsigned d = (unsigned)((a - b) & 0x7Fu); /* circular region, mod 128 */
        return d != 0 && d < 64u;
    }
    return a > b;
}

uint64_t rpl_now(const tern_rpl_t *rpl)
{
    return tern_executor_now(rpl->module.exec);
}

uint32_t rpl_random(tern_rpl_t *rpl)
{
    uint32_t x = rpl->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rpl->rng = x;
    return x;
}

static uint32_t trickle_random(void *ctx)
{
    return rpl_random(ctx);
}

bool rpl_has_if(const tern_rpl_t *rpl, uint16_t if_index)
{
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        if (rpl->ifs[i] != NULL && rpl->ifs[i]->index == if_index) {
            return true;
        }
    }
    return false;
}

int rpl_link_local(tern_rpl_t *rpl, uint16_t if_index, tern_ipv6_addr_t *out)
{
    /* A copy of the interface's addresses, on the stack: the paths that ask (sending an RPL
     * message) stay below the deepest ones of the receive path (bench/footprint/stack_depth.py). */
    tern_ipv6_addr_list_t addrs;
    if (tern_netapi_get(&rpl->ip->module, TERN_NETOPT_IPV6_ADDRS, if_index, &addrs, sizeof(addrs)) < 0) {
        return -EADDRNOTAVAIL;
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        const tern_ipv6_if_addr_t *a = &addrs.addrs[i];
        if (a->used && a->state == TERN_IPV6_ADDR_PREFERRED && tern_ipv6_addr_is_link_local(&a->addr)) {
            *out = a->addr;
            return 0;
        }
    }
    return -EADDRNOTAVAIL;
}

tern_pkt_t *rpl_msg_alloc(tern_rpl_t *rpl, size_t len)
{
    tern_pkt_t *msg = tern_pktbuf_add(&rpl->module.stack->pktbuf, NULL, NULL, len, TERN_NETTYPE_ICMPV6);
    if (msg == NULL) {
        rpl_count(rpl, TERN_RPL_TX_NOMEM);
    }
    return msg;
}

int rpl_send(tern_rpl_t *rpl, tern_pkt_t *msg, uint16_t if_index, const tern_ipv6_addr_t *dst,
             bool link_local_src, uint8_t hop_limit)
{
    tern_pktbuf_t *pb = &rpl->module.stack->pktbuf;
    tern_ipv6_repr_t t = { .payload_len = (uint16_t)msg->size, .next_header = TERN_ICMPV6_NEXT_HEADER,
                           .hop_limit = hop_limit, .dst = *dst }; /* src :: unless set below */
    /* RFC 6550 §6: DIS, DIO and storing-mode DAO/DAO-ACK use link-local sources. */
    if (link_local_src && rpl_link_local(rpl, if_index, &t.src) < 0) {
        rpl_count(rpl, TERN_RPL_TX_FAILED);
        tern_pktbuf_release(pb, msg);
        return -EADDRNOTAVAIL;
    }
    tern_pkt_t *ip = tern_pktbuf_add(pb, msg, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6);
    tern_pkt_t *pkt = ip;
    if (ip != NULL && if_index != 0) {
        pkt = tern_netif_hdr_build(pb, ip, NULL, 0, NULL, 0);
        if (pkt != NULL) {
            tern_netif_hdr_get(pkt)->if_index = if_index;
        }
    }
    if (pkt == NULL) {
        rpl_count(rpl, TERN_RPL_TX_NOMEM);
        tern_pktbuf_release(pb, (ip != NULL) ? ip : msg);
        return -ENOMEM;
    }
    (void)tern_ipv6_emit(&t, ip->data, ip->size);
    int res = tern_netapi_send(&rpl->ip->module, pkt);
    if (res < 0) {
        rpl_count(rpl, TERN_RPL_TX_FAILED);
        if (res == -EINVAL) {
            tern_pktbuf_release(pb, pkt); /* left to us; else netapi released it */
        }
        return -ENOBUFS;
    }
    return 0;
}

/* ------------------------------------------------------------ timer */

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return (a < b) ? a : b;
}

/*
 * Arm the timer for the earliest deadline. The route tables (storing-mode
 * routes, the non-storing root's links: 96 entries at the defaults) are
 * scanned only when @p tables: entries are added or refreshed by messages
 * (DAOs, options, ticks) but never by a TX status report, which comes for
 * every unicast frame and at most removes routes (parent loss, §8.2.2.5) or
 * moves the DAO timer (read live here). Between scans tables_at_us is a lower
 * bound of the tables' next expiry, so the timer may fire early, never late;
 * a tick rescans.
 */
static void reschedule(tern_rpl_t *rpl, bool tables)
{
    if (tables) {
        rpl->tables_at_us = rpl_dao_next_deadline(rpl);
    }
    uint64_t next = min_u64(rpl_dio_next_deadline(rpl), min_u64(rpl->tables_at_us, rpl_dao_at(rpl)));
    next = min_u64(next, rpl_dodag_next_deadline(rpl));
#if RPL_JOINS /* reports to drain (none without RPL_JOINS: enable()) */
    if (rpl->tx_count > 0) {
        next = min_u64(next, rpl_now(rpl));
    }
#endif
    if (next == rpl->timer_at) {
        return;
    }
    rpl->timer_at = next;
    if (next == RPL_NEVER) {
        tern_timer_cancel(&rpl->timer);
    } else {
        (void)tern_timer_set_absolute(&rpl->timer, next);
    }
}

/* noinline, like enable() and set_option(): out of handle()'s frame, under every message's path. */
__attribute__((noinline)) static void tick(tern_rpl_t *rpl)
{
    uint64_t now = rpl_now(rpl);
    rpl_dodag_tick(rpl, now);
    rpl_dio_tick(rpl, now);
    rpl_dao_tick(rpl, now);
}

/* ------------------------------------------------------------ TX status */

#if RPL_JOINS /* only for parents: a root-only image installs no hook (tx_hook()) */

/*
 * The interface's hook (its own thread under the threaded executor): the
 * report waits in a ring under the stack's lock for the module's turn.
 */
static void tx_status_hook(void *ctx, const tern_netif_t *netif, const tern_netif_hdr_t *hdr, int status,
                           unsigned transmissions)
{
    (void)netif;
    tern_rpl_t *rpl = ctx;
    if (hdr == NULL || (hdr->flags & TERN_NETIF_HDR_FLAG_MULTICAST) || hdr->dst_len == 0 ||
        hdr->dst_len > TERN_CONF_L2ADDR_MAX) {
        return; /* broadcast frames are never acknowledged: nothing to learn */
    }
    const tern_lock_t *lock = tern_stack_lock(rpl->module.stack);
    tern_lock_acquire(lock);
    bool post = false;
    if (rpl->tx_count >= TERN_CONF_RPL_TX_REPORTS) {
        rpl->tx_lost++;
    } else {
        size_t slot = ((size_t)rpl->tx_head + rpl->tx_count) % TERN_CONF_RPL_TX_REPORTS;
        memcpy(rpl->tx_reports[slot].l2addr, hdr->dst, hdr->dst_len);
        rpl->tx_reports[slot].l2addr_len = hdr->dst_len;
        rpl->tx_reports[slot].transmissions = (uint8_t)((transmissions > 255u) ? 255u : transmissions);
        rpl->tx_reports[slot].status = (int16_t)((status < INT16_MIN) ? INT16_MIN : status);
        post = (rpl->tx_count == 0);
        rpl->tx_count++;
    }
    tern_lock_release(lock);
    if (post) {
        tern_msg_t msg = { .type = MSG_TX_STATUS };
        (void)tern_netapi_post(&rpl->module, &msg);
    }
}

static void drain_tx_reports(tern_rpl_t *rpl)
{
    const tern_lock_t *lock = tern_stack_lock(rpl->module.stack);
    for (;;) {
        tern_lock_acquire(lock);
        if (rpl->tx_count == 0) {
            tern_lock_release(lock);
            return;
        }
        tern_rpl_tx_report_t r = rpl->tx_reports[rpl->tx_head];
        rpl->tx_head = (uint8_t)((rpl->tx_head + 1u) % TERN_CONF_RPL_TX_REPORTS);
        rpl->tx_count--;
        tern_lock_release(lock);
        rpl_dodag_tx_status(rpl, r.l2addr, r.l2addr_len, r.status, r.transmissions);
    }
}
#else
static void drain_tx_reports(tern_rpl_t *rpl)
{
    (void)rpl; /* no hook installed (tx_hook()) */
}
#endif

/* ------------------------------------------------------------ receive */

static void receive(tern_rpl_t *rpl, tern_pkt_t *pkt)
{
    tern_pktbuf_t *pb = &rpl->module.stack->pktbuf;
    tern_pkt_t *ip_snip = tern_pkt_search_type(pkt, TERN_NETTYPE_IPV6);
    tern_pkt_t *netif = tern_pkt_search_type(pkt, TERN_NETTYPE_NETIF);
    tern_ipv6_repr_t hdr;
    if (pkt->type != TERN_NETTYPE_ICMPV6 || ip_snip == NULL || netif == NULL ||
        tern_ipv6_parse(&hdr, ip_snip->data, ip_snip->size) < 0) {
        rpl_count(rpl, TERN_RPL_MALFORMED);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    uint16_t if_index = tern_netif_hdr_get(netif)->if_index;
    if (!rpl_has_if(rpl, if_index) || rpl->role == TERN_RPL_ROLE_NONE) {
        rpl_count(rpl, TERN_RPL_NO_IF);
        tern_pktbuf_release(pb, pkt);
        return;
    }
    const uint8_t *b = pkt->data;
    size_t len = pkt->size;
    int code = tern_rpl_code(b, len);
    switch (code) {
    case TERN_RPL_CODE_DIS:
        rpl_dis_receive(rpl, &hdr, if_index, b, len);
        break;
    case TERN_RPL_CODE_DIO:
        rpl_dio_receive(rpl, &hdr, tern_netif_hdr_get(netif), b, len);
        break;
    case TERN_RPL_CODE_DAO:
        rpl_dao_receive(rpl, &hdr, if_index, b, len);
        break;
    case TERN_RPL_CODE_DAO_ACK:
        rpl_dao_ack_receive(rpl, &hdr, if_index, b, len);
        break;
    default:
        /* §6: unknown Codes MUST be discarded; secured messages: no RPL security here (§10). */
        rpl_count(rpl, (code == -EBADMSG) ? TERN_RPL_MALFORMED : TERN_RPL_UNKNOWN_CODE);
        break;
    }
    tern_pktbuf_release(pb, pkt);
}

/* ------------------------------------------------------------ roles */

/* RFC 6550 §6.3.1 / §20.19: DIOs and DISs go to all-RPL-nodes, ff02::1a; listened to while RPL runs. */
static void all_rpl_nodes(tern_rpl_t *rpl, const tern_netif_t *netif, bool join)
{
    static const tern_ipv6_addr_t group = { { 0xff, 0x02, [15] = 0x1a } };
    (void)tern_netapi_set(&rpl->ip->module, join ? TERN_NETOPT_IPV6_GROUP_JOIN : TERN_NETOPT_IPV6_GROUP_LEAVE,
                          netif->index, group.u8, sizeof(group.u8));
}

/*
 * The link's per-frame outcome feeds ETX and parent-loss detection (RFC 6719
 * §3.1.1, RFC 6550 §8.2.2.5): both only for parents. Only a router or leaf
 * has any: a root's rank is ROOT_RANK whatever its links (§8.2.2.2), and a
 * node outside RPL selects none. So the hook is on an interface only while
 * the role can have parents (never in an image without them, RPL_JOINS), and
 * a root's frames cost no report and no message each.
 */
static void tx_hook(tern_rpl_t *rpl, tern_netif_t *netif)
{
#if RPL_JOINS
    bool on = rpl->role == TERN_RPL_ROLE_ROUTER || rpl->role == TERN_RPL_ROLE_LEAF;
    tern_netif_tx_status_t hook = { .fn = on ? tx_status_hook : NULL, .ctx = on ? rpl : NULL };
    (void)tern_netapi_set(&netif->module, TERN_NETOPT_TX_STATUS, 0, &hook, sizeof(hook));
#else
    (void)rpl, (void)netif;
#endif
}

__attribute__((noinline)) static void enable(tern_rpl_t *rpl, tern_netif_t *netif)
{
    size_t free_slot = TERN_CONF_RPL_IFS;
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        if (rpl->ifs[i] == netif) {
            return;
        }
        if (rpl->ifs[i] == NULL && free_slot == TERN_CONF_RPL_IFS) {
            free_slot = i;
        }
    }
    if (free_slot == TERN_CONF_RPL_IFS) {
        return;
    }
    rpl->ifs[free_slot] = netif;
    if (rpl->role != TERN_RPL_ROLE_NONE) {
        all_rpl_nodes(rpl, netif, true);
    }
    tx_hook(rpl, netif);
}

static void reset_dodag(tern_rpl_t *rpl)
{
    rpl_dodag_leave(rpl);
    rpl_dao_flush_routes(rpl);
    rpl_ns_flush(rpl);
    rpl_ns_provider(rpl, false);
    rpl_trickle_stop(rpl);
    rpl->joined = false;
    rpl->dis_at_us = RPL_NEVER;
#if RPL_JOINS
    rpl->probe_at_us = RPL_NEVER;
#endif
    rpl_dao_at_set(rpl, RPL_NEVER);
    rpl->dao_pending = false;
    rpl_poison_until_set(rpl, 0);
    memset(&rpl->prefix, 0, sizeof(rpl->prefix));
    rpl->prefix_len = 0;
    rpl->rank = TERN_RPL_INFINITE_RANK;
    rpl->lowest_rank = TERN_RPL_INFINITE_RANK;
    rpl->min_hop_rank_increase = TERN_CONF_RPL_MIN_HOP_RANK_INCREASE;
    rpl->max_rank_increase = TERN_CONF_RPL_MAX_RANK_INCREASE;
    rpl->dio_interval_min = TERN_CONF_RPL_DIO_INTERVAL_MIN;
    rpl->dio_interval_doublings = TERN_CONF_RPL_DIO_INTERVAL_DOUBLINGS;
    rpl->dio_redundancy = TERN_CONF_RPL_DIO_REDUNDANCY;
    rpl_trickle_configure(rpl); /* the timer too (stopped above): the last DODAG's may differ */
    rpl->default_lifetime = TERN_CONF_RPL_DEFAULT_LIFETIME;
    rpl->lifetime_unit = TERN_CONF_RPL_LIFETIME_UNIT;
    rpl->ocp = TERN_CONF_RPL_OCP;
    rpl->mop = TERN_CONF_RPL_MOP;
}

/* noinline: its copy of the address list stays out of handle()'s frame (set_option() is inlined there). */
__attribute__((noinline)) static bool own_address(tern_rpl_t *rpl, const tern_ipv6_addr_t *addr)
{
    tern_ipv6_addr_list_t addrs;
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        if (rpl->ifs[i] == NULL ||
            tern_netapi_get(&rpl->ip->module, TERN_NETOPT_IPV6_ADDRS, rpl->ifs[i]->index, &addrs, sizeof(addrs)) < 0) {
            continue;
        }
        for (size_t k = 0; k < TERN_CONF_IPV6_ADDRS; k++) {
            const tern_ipv6_if_addr_t *a = &addrs.addrs[k];
            if (a->used && tern_ipv6_addr_equal(&a->addr, addr)) {
                return true;
            }
        }
    }
    return false;
}

/* The role to take: value byte 0 role, then for a root the instance, the mode of operation and the DODAGID. */
typedef struct {
    uint8_t role;
    uint8_t instance_id;
    uint8_t mop;
    tern_ipv6_addr_t dodag_id;
} role_config_t;

static int set_role(tern_rpl_t *rpl, const role_config_t *cfg)
{
    if (cfg->role == TERN_RPL_ROLE_ROOT) {
        if (cfg->instance_id >= TERN_RPL_INSTANCE_LOCAL ||
            (cfg->mop != TERN_RPL_MOP_STORING && cfg->mop != TERN_RPL_MOP_NON_STORING)) {
            return -EINVAL; /* §5.1: a DODAG root of a global instance; MOPs 1 and 2 only */
        }
        if (tern_ipv6_addr_is_link_local(&cfg->dodag_id) || tern_ipv6_addr_is_multicast(&cfg->dodag_id) ||
            !own_address(rpl, &cfg->dodag_id)) {
            return -EADDRNOTAVAIL; /* §6.3.1: the DODAGID is a routable IPv6 address of the root */
        }
    }
    reset_dodag(rpl);
    bool was_running = rpl->role != TERN_RPL_ROLE_NONE;
    bool running = cfg->role != TERN_RPL_ROLE_NONE;
    for (size_t i = 0; i < TERN_CONF_RPL_IFS && was_running != running; i++) {
        if (rpl->ifs[i] != NULL) {
            all_rpl_nodes(rpl, rpl->ifs[i], running);
        }
    }
    rpl->role = cfg->role;
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        if (rpl->ifs[i] != NULL) {
            tx_hook(rpl, rpl->ifs[i]);
        }
    }
    if (cfg->role != TERN_RPL_ROLE_NONE) {
        /* A root or router forwards (RFC 6550 §3.2.8); a leaf is a host (§8.5). */
        uint8_t router = (cfg->role == TERN_RPL_ROLE_LEAF) ? 0u : 1u;
        (void)tern_netapi_set(&rpl->ip->module, TERN_NETOPT_IPV6_ROUTER, 0, &router, sizeof(router));
    }
    uint64_t now = rpl_now(rpl);
    if (cfg->role == TERN_RPL_ROLE_ROOT) {
        rpl->instance_id = cfg->instance_id;
        rpl->dodag_id = cfg->dodag_id;
        rpl->mop = cfg->mop;
        if (rpl_non_storing(rpl)) {
            rpl_ns_provider(rpl, true); /* §9.7, RFC 6554 §4.1: the root source-routes (nonstoring.c) */
        }
        /* §7.2: sequence counters start at 240 (lollipop). */
        rpl->version = 240u;
        rpl->dtsn = 240u;
        rpl->dao_sequence = 240u;
        rpl->preference = 0;
        rpl->rank = rpl_root_rank(rpl); /* §8.2.2.2 */
        rpl->lowest_rank = rpl->rank;
        rpl->joined = true;
        rpl->prefix = cfg->dodag_id;
        memset(&rpl->prefix.u8[8], 0, 8);
        rpl->prefix_len = 64;
        rpl->prefix_valid_s = UINT32_MAX;
        rpl->prefix_preferred_s = UINT32_MAX;
        rpl_count(rpl, TERN_RPL_JOINS);
        rpl_trickle_reset(rpl);
    } else if (cfg->role != TERN_RPL_ROLE_NONE) {
        /* §8.3: a node without a DODAG may solicit one (DIS), after a random delay. */
        rpl->dis_at_us = now + 1u + rpl_random(rpl) % RPL_US_PER_S;
        rpl->path_sequence = 240u; /* §7.2: lollipop start; dao.c increments it per new DAO */
    }
    return 0;
}

/* ------------------------------------------------------------ options */

__attribute__((noinline)) static int set_option(tern_rpl_t *rpl, tern_netapi_opt_t *opt)
{
    switch (opt->opt) {
    case TERN_NETOPT_RPL_ROLE: {
        role_config_t cfg;
        if (opt->data_len != sizeof(cfg)) {
            return -EINVAL;
        }
        memcpy(&cfg, opt->data, sizeof(cfg));
        int res = set_role(rpl, &cfg);
        return (res < 0) ? res : (int)sizeof(cfg);
    }
    case TERN_NETOPT_RPL_GLOBAL_REPAIR:
        if (rpl->role != TERN_RPL_ROLE_ROOT) {
            return -EPERM;
        }
        /* §8.2.2.1: only the root increments the version; the DODAG rebuilds under it. */
        rpl->version++;
        rpl->dtsn++;
        rpl->lowest_rank = rpl->rank;
        rpl_count(rpl, TERN_RPL_GLOBAL_REPAIRS);
        rpl_trickle_reset(rpl);
        return 0;
    default:
        return -ENOTSUP;
    }
}

static int get_option(tern_rpl_t *rpl, tern_netapi_opt_t *opt)
{
    if (!TERN_CONF_RPL_INSPECT || opt->opt != TERN_NETOPT_RPL_STATE) {
        return -ENOTSUP; /* (without inspection, config.h: no option at all) */
    }
    tern_rpl_state_t *s = opt->data;
    if (opt->data_len != sizeof(*s)) {
        return -EINVAL;
    }
    memset(s, 0, sizeof(*s));
#if RPL_JOINS /* else no parents: the snapshot's stay empty */
    memcpy(s->parents, rpl->parents, sizeof(s->parents));
    s->preferred = (rpl->preferred != NULL) ? (int8_t)(rpl->preferred - rpl->parents) : -1;
#else
    s->preferred = -1;
#endif
    memcpy(s->routes, rpl->routes, sizeof(s->routes));
#if TERN_CONF_RPL_NS_LINKS > 0
    memcpy(s->ns_links, rpl->ns_links, sizeof(s->ns_links));
#endif
    s->trickle = rpl->trickle;
    s->dodag_id = rpl->dodag_id;
    s->now_us = rpl_now(rpl);
    s->dao_at_us = rpl_dao_at(rpl);
    s->role = rpl->role;
    s->joined = rpl->joined;
    s->dao_pending = rpl->dao_pending;
    s->dao_retries = rpl->dao_retries;
    s->dao_sequence = rpl->dao_sequence;
    s->instance_id = rpl->instance_id;
    s->version = rpl->version;
    s->mop = rpl->mop;
    s->dtsn = rpl->dtsn;
    s->rank = rpl->rank;
    s->ocp = rpl->ocp;
    return (int)sizeof(*s);
}

/* ------------------------------------------------------------ module */

static int handle(tern_module_t *self, tern_msg_t *msg)
{
    tern_rpl_t *rpl = self->context;
    int res = 0;
    switch (msg->type) {
    case TERN_MSG_RCV:
        receive(rpl, msg->content.pkt);
        break;
    case TERN_MSG_SND:
        tern_pktbuf_release(&rpl->module.stack->pktbuf, msg->content.pkt);
        res = -ENOTSUP;
        break;
    case TERN_MSG_TIMER:
        rpl->timer_at = RPL_NEVER; /* it fired */
        drain_tx_reports(rpl);
        rpl_rpi_drain(rpl);
        tick(rpl);
        break;
    case MSG_TX_STATUS:
        drain_tx_reports(rpl);
        break;
    case RPL_MSG_RPI_EVENT:
        rpl_rpi_drain(rpl); /* rpi_state.c */
        break;
    case MSG_ENABLE:
        enable(rpl, msg->content.ptr);
        break;
    case TERN_MSG_GET:
        res = get_option(rpl, msg->content.opt);
        break;
    case TERN_MSG_SET:
        res = set_option(rpl, msg->content.opt);
        break;
    default:
        res = -ENOTSUP;
        break;
    }
    rpl_rpi_sync(rpl); /* the IPv6 module's copy of the data-plane state (rpi_state.c) */
    reschedule(rpl, msg->type != MSG_TX_STATUS);
    return res;
}

int tern_rpl_init(tern_rpl_t *rpl, tern_stack_t *stack, tern_ipv6_t *ip)
{
    if (rpl == NULL || stack == NULL || ip == NULL) {
        return -EINVAL;
    }
    memset(rpl, 0, sizeof(*rpl));
    rpl->ip = ip;
#if RPL_JOINS
    tern_rpl_etx_init(&rpl->etx);
#endif
    rpl->timer_at = RPL_NEVER;
    rpl->tables_at_us = RPL_NEVER;
    tern_rpl_seed(rpl, 0x2545F491u ^ (uint32_t)(uintptr_t)stack);
    int res = tern_module_init(&rpl->module, "rpl", RPL_PRIORITY, handle, rpl, rpl->queue,
                               TERN_CONF_MODULE_QUEUE_LEN);
    if (res < 0) {
        return res;
    }
    _Static_assert(TERN_CONF_RPL_DIO_INTERVAL_MIN <= TERN_TRICKLE_DIO_INTERVAL_MIN_MAX,
                   "the default DIOIntervalMin must be one the Trickle timer takes");
    tern_trickle_config_t tc;
    res = tern_trickle_config_from_dio(&tc, TERN_CONF_RPL_DIO_INTERVAL_MIN, TERN_CONF_RPL_DIO_INTERVAL_DOUBLINGS,
                                       TERN_CONF_RPL_DIO_REDUNDANCY);
    if (res == 0) {
        res = tern_trickle_init(&rpl->trickle, &tc, trickle_random, rpl);
    }
    if (res < 0) {
        return res;
    }
    reset_dodag(rpl);
    res = tern_stack_add_module(stack, &rpl->module);
    if (res < 0) {
        return res;
    }
    tern_timer_init(&rpl->timer, &rpl->module, TERN_MSG_TIMER, 0);
    tern_netreg_entry_init(&rpl->entry, TERN_IPV6_ICMPV6_TYPE_DEMUX(TERN_RPL_ICMPV6_TYPE), &rpl->module);
    res = tern_netreg_register(&stack->netreg, TERN_NETTYPE_ICMPV6, &rpl->entry);
    if (res < 0) {
        return res;
    }
    rpl->stats.name = "rpl";
    rpl->stats.names = TERN_STATS_NAMES(rpl_counter_names);
    rpl->stats.values = rpl->counters;
    rpl->stats.count = TERN_RPL_STAT_NUMOF;
    tern_stack_add_stats(stack, &rpl->stats);
    return 0;
}

void tern_rpl_seed(tern_rpl_t *rpl, uint32_t seed)
{
    rpl->rng = (seed != 0) ? seed : 0x2545F491u;
}

int tern_rpl_netif_enable(tern_rpl_t *rpl, tern_netif_t *netif)
{
    if (rpl == NULL || netif == NULL) {
        return -EINVAL;
    }
    tern_msg_t msg = { .type = MSG_ENABLE, .content.ptr = netif };
    return tern_netapi_post(&rpl->module, &msg);
}

static int set_role_sync(tern_rpl_t *rpl, uint8_t role, uint8_t instance_id, const tern_ipv6_addr_t *dodag_id,
                         uint8_t mop)
{
    if (rpl == NULL) {
        return -EINVAL;
    }
    role_config_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.role = role;
    cfg.instance_id = instance_id;
    cfg.mop = mop;
    if (dodag_id != NULL) {
        cfg.dodag_id = *dodag_id;
    }
    int res = tern_netapi_set(&rpl->module, TERN_NETOPT_RPL_ROLE, 0, &cfg, sizeof(cfg));
    return (res < 0) ? res : 0;
}

int tern_rpl_set_router(tern_rpl_t *rpl)
{
    return set_role_sync(rpl, TERN_RPL_ROLE_ROUTER, 0, NULL, 0);
}

int tern_rpl_set_leaf(tern_rpl_t *rpl)
{
    return set_role_sync(rpl, TERN_RPL_ROLE_LEAF, 0, NULL, 0);
}

int tern_rpl_set_root(tern_rpl_t *rpl, uint8_t instance_id, const tern_ipv6_addr_t *dodag_id)
{
    return tern_rpl_set_root_mop(rpl, instance_id, dodag_id, TERN_CONF_RPL_MOP);
}

int tern_rpl_set_root_mop(tern_rpl_t *rpl, uint8_t instance_id, const tern_ipv6_addr_t *dodag_id, uint8_t mop)
{
    if (dodag_id == NULL) {
        return -EINVAL;
    }
    return set_role_sync(rpl, TERN_RPL_ROLE_ROOT, instance_id, dodag_id, mop);
}

int tern_rpl_stop(tern_rpl_t *rpl)
{
    return set_role_sync(rpl, TERN_RPL_ROLE_NONE, 0, NULL, 0);
}

int tern_rpl_global_repair(tern_rpl_t *rpl)
{
    if (rpl == NULL) {
        return -EINVAL;
    }
    int res = tern_netapi_set(&rpl->module, TERN_NETOPT_RPL_GLOBAL_REPAIR, 0, NULL, 0);
    return (res < 0) ? res : 0;
}

int tern_rpl_get_state(tern_rpl_t *rpl, tern_rpl_state_t *out)
{
    if (rpl == NULL || out == NULL) {
        return -EINVAL;
    }
    int res = tern_netapi_get(&rpl->module, TERN_NETOPT_RPL_STATE, 0, out, sizeof(*out));
    return (res < 0) ? res : 0;
}
