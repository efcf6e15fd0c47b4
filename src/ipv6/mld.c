/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief MLD listener in the IPv6 module: MLDv2 (RFC 3810) reports of the
 *        groups the node joins and leaves and answers to Queries, and the
 *        MLDv1 compatibility mode (RFC 3810 §8.2.1, RFC 2710).
 *
 * Read first: RFC 3810 §5.2 (report format, §5.2.13 source address), §6
 * (which groups: never ff02::1 nor interface-local ones), §6.1 (State
 * Change Reports, Robustness Variable, Unsolicited Report Interval), §6.2
 * (answering Queries), §7.4 and RFC 2711 (Hop-by-Hop Router Alert); for
 * MLDv1: RFC 3810 §8.1 (versions told apart by length), §8.2.1 (Host
 * Compatibility Mode), §9.12 (Older Version Querier Present Timeout), and
 * RFC 2710 §3-§5 (messages, listener state machine, ff02::1 never reported).
 *
 * The node's groups are in EXCLUDE mode with no sources (it listens to every
 * source): a join is a CHANGE_TO_EXCLUDE_MODE record, a leave a
 * CHANGE_TO_INCLUDE_MODE one (§6.1), answers are MODE_IS_EXCLUDE (§6.3).
 *
 * MLDv1 compatibility mode, per interface (§8.2.1): entered when an MLDv1
 * Query (24 octets, §8.1) arrives; the Older Version Querier Present timer is
 * (re)started by every MLDv1 Query and set to Robustness * Query Interval +
 * Query Response Interval (§9.12): QRV and QQI of the last MLDv2 Query heard
 * (defaults 2 and 125 s), plus the Maximum Response Delay of the MLDv1 Query
 * (its querier's Query Response Interval, as RFC 3376 erratum 4375 reads the
 * same rule). Entering and leaving the mode cancel every pending report and
 * retransmission (§8.2.1). In the mode the interface speaks only MLDv1
 * (RFC 2710 §4), group by group: a join sends a Report to the group at once
 * and repeats it once within the MLDv1 Unsolicited Report Interval (10 s,
 * RFC 2710 §7.10); a Query starts each named group's delay timer at random
 * within its Maximum Response Delay (or shortens a longer running one); when
 * the timer fires the Report goes and the node is the last reporter; another
 * listener's Report for a group whose timer runs stops it (suppression) and
 * clears that flag; leaving sends a Done to ff02::2 only if the flag is set.
 * An MLDv2 Query heard in the mode is answered the MLDv1 way, as an MLDv1
 * host reads it, and does not restart the timer. Not here: merging a pending
 * MLDv2 change with a query answer (§6.2 rules 2-3 beyond keeping the earlier
 * deadline); MLDv2 reports are not suppressed by MLDv1 ones (a MAY, §8.2.2).
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/mld.h"

_Static_assert(TERN_CONF_IPV6_MLD, "mld.c is left out of the build when TERN_CONF_IPV6_MLD is 0 (set it through CMake)");

/** RFC 3810 §9.1: Robustness Variable 2; §9.11: Unsolicited Report Interval 1 s. */
#define MLD_ROBUSTNESS 2u
#define MLD_UNSOLICITED_REPORT_INTERVAL_US 1000000u
/** RFC 3810 §9.2: Query Interval 125 s (when no MLDv2 Query told another). */
#define MLD_QUERY_INTERVAL_S 125u
/** RFC 2710 §7.10: MLDv1 Unsolicited Report Interval 10 s. */
#define MLD_V1_UNSOLICITED_REPORT_INTERVAL_US 10000000u
/** RFC 4861 §10: MAX_RTR_SOLICITATION_DELAY 1 s (delay of the first report, see ipv6_mld_change()). */
#define MAX_RTR_SOLICITATION_DELAY_US 1000000u
/** Hop-by-Hop header with Router Alert (2 + 4 bytes) and a 2-byte PadN: 8 bytes. */
#define HBH_LEN 8u
/** RFC 2711 §2.1: Router Alert value 0, "Datagram contains a Multicast Listener Discovery message". */
#define ROUTER_ALERT_MLD 0u

static bool mld_capable(const tern_ipv6_if_t *ipif)
{
    /* Links without link addresses (loopback) have no multicast routers to tell. */
    return ipif->netif->l2addr_len > 0;
}

/* §6, RFC 2710 §5: no reports for ff02::1 nor for groups of interface-local (or reserved) scope. */
static bool reportable(const tern_ipv6_addr_t *group)
{
    uint8_t scope = group->u8[1] & 0x0fu;
    return !tern_ipv6_addr_equal(group, &ipv6_all_nodes) && scope > 1u;
}

/* A deadline at a random time in [now + 1 us, now + @p range_us] (never 0: "none"). */
static uint64_t random_deadline(tern_ipv6_if_t *ipif, uint64_t now, uint32_t range_us)
{
    uint32_t r = (range_us > 0) ? ipv6_random(ipif->ip) % range_us : 0u;
    return now + 1u + r;
}

/* A Maximum Response Delay in microseconds, saturated (MLDv2 codes reach 8387584 ms, §5.1.3). */
static uint32_t delay_us(uint32_t ms)
{
    return (ms > UINT32_MAX / 1000u) ? UINT32_MAX : ms * 1000u;
}

static tern_mld_group_t *find_group(tern_ipv6_mld_t *mld, const tern_ipv6_addr_t *group)
{
    for (size_t i = 0; i < TERN_CONF_MLD_GROUPS; i++) {
        if (mld->groups[i].used && tern_ipv6_addr_equal(&mld->groups[i].group, group)) {
            return &mld->groups[i];
        }
    }
    return NULL;
}

/* §5.2.13: from a valid link-local address, or :: while none is (during DAD). */
static tern_ipv6_addr_t report_source(tern_ipv6_if_t *ipif)
{
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        const tern_ipv6_if_addr_t *a = &ipif->addrs.addrs[i];
        if (a->used && tern_ipv6_addr_is_link_local(&a->addr) &&
            (a->state == TERN_IPV6_ADDR_PREFERRED || a->state == TERN_IPV6_ADDR_DEPRECATED)) {
            return a->addr;
        }
    }
    return ipv6_unspecified;
}

/* ------------------------------------------------------------ compatibility mode */

/* §8.2.1: "Whenever a host changes its compatibility mode, it cancels all its
 * pending responses and retransmission timers." Left groups still owing
 * reports (or a Done) are forgotten with them. */
static void cancel_pending(tern_ipv6_mld_t *mld)
{
    mld->change_at_us = 0;
    mld->query_at_us = 0;
    mld->general_pending = false;
    for (size_t i = 0; i < TERN_CONF_MLD_GROUPS; i++) {
        tern_mld_group_t *g = &mld->groups[i];
        g->pending = 0;
        g->query_pending = false;
        g->v1_at_us = 0;
        g->v1_last_reporter = false;
        if (g->refs == 0) {
            g->used = false;
        }
    }
}

/* In MLDv1 compatibility mode at @p now? Leaves the mode when its timer expired. */
static bool v1_mode(tern_ipv6_if_t *ipif, uint64_t now)
{
    tern_ipv6_mld_t *mld = &ipif->mld;
    if (mld->v1_until_us != 0 && mld->v1_until_us <= now) {
        mld->v1_until_us = 0; /* §8.2.1: back to MLDv2 */
        cancel_pending(mld);
    }
    return mld->v1_until_us != 0;
}

/* An MLDv1 Query with @p max_resp_delay_ms arrived: (re)start the Older
 * Version Querier Present timer (§8.2.1) for the §9.12 timeout. */
static void enter_v1(tern_ipv6_if_t *ipif, uint64_t now, uint32_t max_resp_delay_ms)
{
    tern_ipv6_mld_t *mld = &ipif->mld;
    uint64_t robustness = (mld->qrv != 0) ? mld->qrv : MLD_ROBUSTNESS;
    uint64_t interval_s = (mld->qqi_s != 0) ? mld->qqi_s : MLD_QUERY_INTERVAL_S;
    uint64_t timeout_us = robustness * interval_s * 1000000u + (uint64_t)max_resp_delay_ms * 1000u;
    if (!v1_mode(ipif, now)) {
        cancel_pending(mld);
        ipv6_count(ipif->ip, TERN_IPV6_MLD_V1_MODE_ENTERED);
    }
    mld->v1_until_us = now + timeout_us;
}

/* ------------------------------------------------------------ joins and leaves */

bool ipv6_mld_listening(const tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *group)
{
    for (size_t i = 0; i < TERN_CONF_MLD_GROUPS; i++) {
        const tern_mld_group_t *g = &ipif->mld.groups[i];
        if (g->used && g->refs > 0 && tern_ipv6_addr_equal(&g->group, group)) {
            return true;
        }
    }
    return false;
}

void ipv6_mld_change(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *group, bool join)
{
    tern_ipv6_mld_t *mld = &ipif->mld;
    if (!mld_capable(ipif) || !reportable(group)) {
        return;
    }
    tern_mld_group_t *g = find_group(mld, group);
    if (join) {
        if (g == NULL) {
            for (size_t i = 0; i < TERN_CONF_MLD_GROUPS && g == NULL; i++) {
                g = mld->groups[i].used ? NULL : &mld->groups[i];
            }
            if (g == NULL) {
                ipv6_count(ipif->ip, TERN_IPV6_MLD_NO_ROOM);
                return;
            }
            memset(g, 0, sizeof(*g));
            g->group = *group;
            g->used = true;
        }
        if (g->refs++ > 0) {
            return; /* already listening: nothing changes on the link */
        }
    } else {
        if (g == NULL || g->refs == 0 || --g->refs > 0) {
            return;
        }
    }
    /* §6.1: the State Change Report goes at once, then Robustness - 1 more
     * times. While the interface initialises (no valid link-local address
     * yet), RFC 4862 §5.4.2 / RFC 4861 §7.2.1 ask for a random delay of up to
     * MAX_RTR_SOLICITATION_DELAY (1 s) first, so that nodes starting together
     * do not collide. */
    tern_ipv6_addr_t src = report_source(ipif);
    uint64_t now = ipv6_now(ipif->ip);
    uint64_t at = tern_ipv6_addr_is_unspecified(&src) ? random_deadline(ipif, now, MAX_RTR_SOLICITATION_DELAY_US)
                                                      : now + 1u;
    g->query_pending = false;
    if (v1_mode(ipif, now)) {
        /* RFC 2710 §4 "start listening": a Report at once, repeated once
         * more; "stop listening": a Done if we were the last reporter. */
        if (join) {
            g->pending = MLD_ROBUSTNESS - 1u;
            g->v1_at_us = at;
            g->v1_last_reporter = false;
        } else if (g->v1_last_reporter) {
            g->pending = 0;
            g->v1_at_us = now + 1u;
        } else {
            g->used = false; /* someone else reported last: the router keeps the group for them */
        }
        return;
    }
    g->pending = MLD_ROBUSTNESS;
    if (mld->change_at_us == 0 || at < mld->change_at_us) {
        mld->change_at_us = at;
    }
}

uint64_t ipv6_mld_next_deadline(const tern_ipv6_if_t *ipif)
{
    const tern_ipv6_mld_t *mld = &ipif->mld;
    uint64_t next = UINT64_MAX;
    if (mld->v1_until_us == 0) {
        if (mld->change_at_us != 0) {
            next = mld->change_at_us;
        }
        if (mld->query_at_us != 0 && mld->query_at_us < next) {
            next = mld->query_at_us;
        }
        return next;
    }
    /* MLDv1 mode: the mode's own timer and the groups' (§8.2.1, RFC 2710 §4). */
    next = mld->v1_until_us;
    for (size_t i = 0; i < TERN_CONF_MLD_GROUPS; i++) {
        const tern_mld_group_t *g = &mld->groups[i];
        if (g->used && g->v1_at_us != 0 && g->v1_at_us < next) {
            next = g->v1_at_us;
        }
    }
    return next;
}

/* ------------------------------------------------------------ sending */

/*
 * A packet for an MLD message of @p len bytes: [Hop-by-Hop (Router Alert),
 * message]; the message bytes in *@p m. NULL (counted) without a buffer.
 */
static tern_pkt_t *mld_packet(tern_ipv6_t *ip, size_t len, uint8_t **m)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    tern_pkt_t *msg = tern_pktbuf_add(pb, NULL, NULL, len, TERN_NETTYPE_ICMPV6);
    tern_pkt_t *hbh = (msg != NULL) ? tern_pktbuf_add(pb, msg, NULL, HBH_LEN, TERN_NETTYPE_IPV6_EXT) : NULL;
    if (hbh == NULL) {
        ipv6_count(ip, TERN_IPV6_TX_NOMEM);
        tern_pktbuf_release(pb, msg);
        return NULL;
    }
    /* RFC 2711 §2.1 / RFC 3810 §5 / RFC 2710 §3: Router Alert in a Hop-by-Hop header, padded to 8 bytes. */
    uint8_t *h = hbh->data;
    const tern_ipv6_ext_t ext = { .type = TERN_IPV6_NH_HOP_BY_HOP, .next_header = TERN_ICMPV6_NEXT_HEADER,
                                  .len = HBH_LEN, .offset = 0 };
    const uint8_t alert[2] = { 0, ROUTER_ALERT_MLD };
    (void)tern_ipv6_ext_emit(&ext, h, HBH_LEN);
    h[0] = TERN_ICMPV6_NEXT_HEADER;
    (void)tern_ipv6_opt_emit(h + 2, HBH_LEN - 2u, TERN_IPV6_OPT_ROUTER_ALERT, alert, sizeof(alert));
    (void)tern_ipv6_opt_emit_padding(h + 6, HBH_LEN - 6u, 2);
    *m = msg->data;
    return hbh;
}

/* Send @p hbh (from mld_packet(), message @p m of @p len bytes) to @p dst; count @p counter once sent. */
static void mld_send(tern_ipv6_if_t *ipif, tern_pkt_t *hbh, uint8_t *m, size_t len, const tern_ipv6_addr_t *dst,
                     unsigned counter)
{
    tern_ipv6_t *ip = ipif->ip;
    /* The checksum covers the ICMPv6 message only (RFC 8200 §8.1): filled here,
     * since ipv6_output() fills it only when ICMPv6 follows the fixed header. */
    const tern_ipv6_addr_t src = report_source(ipif);
    (void)tern_icmpv6_checksum_fill(m, len, &src, dst);
    /* RFC 3810 §5, RFC 2710 §3: hop limit 1. */
    if (ipv6_output(ip, ipif, &src, dst, TERN_IPV6_NH_HOP_BY_HOP, 1, hbh) == 0) {
        ipv6_count(ip, counter);
    }
}

/*
 * Send one report of the @p count records in @p types / @p groups:
 * [IPv6 (hop limit 1, to ff02::16), Hop-by-Hop (Router Alert, §5), MLDv2 Report].
 */
static void send_report(tern_ipv6_if_t *ipif, const uint8_t *types, const tern_ipv6_addr_t *groups, size_t count)
{
    size_t len = tern_mld_report_len(count);
    uint8_t *m;
    tern_pkt_t *hbh = mld_packet(ipif->ip, len, &m);
    if (hbh == NULL) {
        return;
    }
    size_t pos = (size_t)tern_mld_report_hdr_emit((uint16_t)count, m, len);
    for (size_t i = 0; i < count; i++) {
        tern_mld_record_t rec = { .type = types[i], .group = groups[i], .sources = NULL, .source_count = 0,
                                  .aux = NULL, .aux_len = 0 };
        pos += (size_t)tern_mld_record_emit(&rec, m + pos, len - pos);
    }
    static const tern_ipv6_addr_t dst = TERN_IPV6_ADDR_ALL_MLDV2_ROUTERS;
    mld_send(ipif, hbh, m, len, &dst, TERN_IPV6_MLD_REPORTS_SENT);
}

/*
 * Send an MLDv1 Report of @p group to the group itself, or a Done to
 * ff02::2 (RFC 2710 §3, §4): [IPv6 (hop limit 1), Hop-by-Hop, message].
 */
static void send_v1(tern_ipv6_if_t *ipif, uint8_t type, const tern_ipv6_addr_t *group)
{
    uint8_t *m;
    tern_pkt_t *hbh = mld_packet(ipif->ip, TERN_MLD_V1_LEN, &m);
    if (hbh == NULL) {
        return;
    }
    const tern_mld_v1_repr_t v1 = { .type = type, .max_resp_delay = 0, .group = *group }; /* §3.4: 0 when sent */
    (void)tern_mld_v1_emit(&v1, m, TERN_MLD_V1_LEN);
    bool done = type == TERN_ICMPV6_MLD_DONE;
    mld_send(ipif, hbh, m, TERN_MLD_V1_LEN, done ? &ipv6_all_routers : group,
             done ? TERN_IPV6_MLD_V1_DONES_SENT : TERN_IPV6_MLD_V1_REPORTS_SENT);
}

/* MLDv1 mode: the Reports and Dones due at @p now_us (RFC 2710 §4 "timer expired"). */
static void v1_tick(tern_ipv6_if_t *ipif, uint64_t now_us)
{
    for (size_t i = 0; i < TERN_CONF_MLD_GROUPS; i++) {
        tern_mld_group_t *g = &ipif->mld.groups[i];
        if (!g->used || g->v1_at_us == 0 || g->v1_at_us > now_us) {
            continue;
        }
        if (g->refs == 0) {
            g->used = false; /* the Done: then forgotten */
            g->v1_at_us = 0;
            send_v1(ipif, TERN_ICMPV6_MLD_DONE, &g->group);
            continue;
        }
        g->v1_last_reporter = true;
        if (g->pending > 0) {
            g->pending--; /* the unsolicited repeat, RFC 2710 §4 */
            g->v1_at_us = random_deadline(ipif, now_us, MLD_V1_UNSOLICITED_REPORT_INTERVAL_US);
        } else {
            g->v1_at_us = 0;
        }
        send_v1(ipif, TERN_ICMPV6_MLD_REPORT, &g->group);
    }
}

void ipv6_mld_tick(tern_ipv6_if_t *ipif, uint64_t now_us)
{
    if (v1_mode(ipif, now_us)) {
        v1_tick(ipif, now_us);
        return;
    }
    tern_ipv6_mld_t *mld = &ipif->mld;
    uint8_t types[TERN_CONF_MLD_GROUPS];
    tern_ipv6_addr_t groups[TERN_CONF_MLD_GROUPS];
    if (mld->change_at_us != 0 && mld->change_at_us <= now_us) {
        size_t n = 0;
        bool more = false;
        for (size_t i = 0; i < TERN_CONF_MLD_GROUPS; i++) {
            tern_mld_group_t *g = &mld->groups[i];
            if (!g->used || g->pending == 0) {
                continue;
            }
            types[n] = (g->refs > 0) ? TERN_MLD_RECORD_CHANGE_TO_EXCLUDE : TERN_MLD_RECORD_CHANGE_TO_INCLUDE;
            groups[n++] = g->group;
            g->pending--;
            more = more || g->pending > 0;
            if (g->pending == 0 && g->refs == 0) {
                g->used = false; /* left, and told often enough */
            }
        }
        /* §6.1: retransmissions at random in (0, Unsolicited Report Interval). */
        mld->change_at_us = more ? random_deadline(ipif, now_us, MLD_UNSOLICITED_REPORT_INTERVAL_US) : 0u;
        if (n > 0) {
            send_report(ipif, types, groups, n);
        }
    }
    if (mld->query_at_us != 0 && mld->query_at_us <= now_us) {
        size_t n = 0;
        for (size_t i = 0; i < TERN_CONF_MLD_GROUPS; i++) {
            tern_mld_group_t *g = &mld->groups[i];
            if (g->used && g->refs > 0 && (mld->general_pending || g->query_pending)) {
                types[n] = TERN_MLD_RECORD_MODE_IS_EXCLUDE; /* §6.3: EXCLUDE {} */
                groups[n++] = g->group;
            }
            g->query_pending = false;
        }
        mld->query_at_us = 0;
        mld->general_pending = false;
        if (n > 0) {
            send_report(ipif, types, groups, n);
        }
    }
}

/* ------------------------------------------------------------ receiving */

/*
 * MLDv1 mode: a Query for @p q->group (:: for all groups) (RFC 2710 §4
 * "query received"): an idle group's timer starts at random within the
 * Maximum Response Delay; a running one is reset so only if the delay is
 * shorter than what remains of it.
 */
static void v1_query(tern_ipv6_if_t *ipif, const tern_mld_query_repr_t *q, uint64_t now)
{
    bool general = tern_ipv6_addr_is_unspecified(&q->group);
    uint32_t max_us = delay_us(q->max_resp_delay_ms);
    for (size_t i = 0; i < TERN_CONF_MLD_GROUPS; i++) {
        tern_mld_group_t *g = &ipif->mld.groups[i];
        if (!g->used || g->refs == 0 || (!general && !tern_ipv6_addr_equal(&g->group, &q->group))) {
            continue;
        }
        if (g->v1_at_us == 0 || now + max_us < g->v1_at_us) {
            g->v1_at_us = random_deadline(ipif, now, max_us);
        }
    }
}

void ipv6_mld_query_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                            size_t len)
{
    tern_mld_query_repr_t q;
    /* §5.1.14 / §6.2, RFC 2710 §5: Queries come from a link-local source (else
     * silently discarded), with hop limit 1 (RFC 3810 §5: sent so; checked as Linux does). */
    if (tern_mld_query_parse(&q, b, len) < 0 || !tern_ipv6_addr_is_link_local(&hdr->src) || hdr->hop_limit != 1) {
        ipv6_count(ip, TERN_IPV6_MLD_INVALID);
        return;
    }
    ipv6_count(ip, TERN_IPV6_MLD_QUERIES_RECEIVED);
    if (q.version == 1) {
        ipv6_count(ip, TERN_IPV6_MLD_V1_QUERIES_RECEIVED);
    }
    if (!mld_capable(ipif)) {
        return;
    }
    tern_ipv6_mld_t *mld = &ipif->mld;
    uint64_t now = ipv6_now(ip);
    if (q.version == 2) {
        /* §5.1.8, §5.1.9: the querier's Robustness and Query Interval (0: keep the default). */
        mld->qrv = q.qrv;
        mld->qqi_s = q.qqi_s;
    } else {
        enter_v1(ipif, now, q.max_resp_delay_ms);
    }
    if (v1_mode(ipif, now)) {
        v1_query(ipif, &q, now); /* an MLDv2 Query too: MLDv1 only, §8.2.1 */
        return;
    }
    bool general = tern_ipv6_addr_is_unspecified(&q.group);
    tern_mld_group_t *g = general ? NULL : find_group(mld, &q.group);
    if (!general && (g == NULL || g->refs == 0)) {
        return; /* §6.2: not a group we listen to */
    }
    uint64_t at = random_deadline(ipif, now, delay_us(q.max_resp_delay_ms));
    /* §6.2 rule 1: an answer already due earlier covers this query. */
    if (mld->query_at_us == 0 || at < mld->query_at_us) {
        mld->query_at_us = at;
    }
    if (general) {
        mld->general_pending = true;
    } else {
        g->query_pending = true;
    }
}

void ipv6_mld_report_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                             size_t len)
{
    tern_mld_v1_repr_t r;
    /* RFC 2710 §5, RFC 3810 §5.2.13: from a link-local source with hop limit
     * 1. A Report from :: (a listener during DAD) may be discarded by the
     * routers, so it does not silence ours. */
    if (tern_mld_v1_parse(&r, b, len) < 0 || !tern_ipv6_addr_is_link_local(&hdr->src) || hdr->hop_limit != 1) {
        ipv6_count(ip, TERN_IPV6_MLD_INVALID);
        return;
    }
    ipv6_count(ip, TERN_IPV6_MLD_V1_REPORTS_RECEIVED);
    if (!mld_capable(ipif) || !v1_mode(ipif, ipv6_now(ip))) {
        return; /* MLDv2 mode: reports are not suppressed (§8.2.2 leaves it a MAY) */
    }
    /* RFC 2710 §4 "report received" while Delaying: stop the timer, clear the flag. */
    tern_mld_group_t *g = find_group(&ipif->mld, &r.group);
    if (g != NULL && g->refs > 0 && g->v1_at_us != 0) {
        g->v1_at_us = 0;
        g->pending = 0;
        g->v1_last_reporter = false;
        ipv6_count(ip, TERN_IPV6_MLD_V1_SUPPRESSED);
    }
}
