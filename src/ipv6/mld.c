/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief MLDv2 listener in the IPv6 module (RFC 3810): reports of the groups
 *        the node joins and leaves, and answers to Queries.
 *
 * Read first: RFC 3810 §5.2 (report format, §5.2.13 source address), §6
 * (which groups: never ff02::1 nor interface-local ones), §6.1 (State
 * Change Reports, Robustness Variable, Unsolicited Report Interval), §6.2
 * (answering Queries), §7.4 and RFC 2711 (Hop-by-Hop Router Alert).
 *
 * The node's groups are in EXCLUDE mode with no sources (it listens to every
 * source): a join is a CHANGE_TO_EXCLUDE_MODE record, a leave a
 * CHANGE_TO_INCLUDE_MODE one (§6.1), answers are MODE_IS_EXCLUDE (§6.3).
 * Not here: MLDv1 compatibility mode (§8: MLDv1 Queries are answered with
 * MLDv2 reports), merging a pending change with a query answer (§6.2 rules 2-3
 * beyond keeping the earlier deadline).
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/mld.h"

/** RFC 3810 §9.1: Robustness Variable 2; §9.11: Unsolicited Report Interval 1 s. */
#define MLD_ROBUSTNESS 2u
#define MLD_UNSOLICITED_REPORT_INTERVAL_US 1000000u
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

/* §6: no reports for ff02::1 nor for groups of interface-local (or reserved) scope. */
static bool reportable(const tern_ipv6_addr_t *group)
{
    const tern_ipv6_addr_t all_nodes = TERN_IPV6_ADDR_ALL_NODES_LINK;
    uint8_t scope = group->u8[1] & 0x0fu;
    return !tern_ipv6_addr_equal(group, &all_nodes) && scope > 1u;
}

/* A deadline at a random time in [now + 1 us, now + @p range_us] (never 0: "none"). */
static uint64_t random_deadline(tern_ipv6_if_t *ipif, uint64_t now, uint32_t range_us)
{
    uint32_t r = (range_us > 0) ? ipv6_random(ipif->ip) % range_us : 0u;
    return now + 1u + r;
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
    const tern_ipv6_addr_t unspecified = TERN_IPV6_ADDR_UNSPECIFIED;
    return unspecified;
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
    g->pending = MLD_ROBUSTNESS;
    g->query_pending = false;
    tern_ipv6_addr_t src = report_source(ipif);
    uint64_t now = ipv6_now(ipif->ip);
    uint64_t at = tern_ipv6_addr_is_unspecified(&src) ? random_deadline(ipif, now, MAX_RTR_SOLICITATION_DELAY_US)
                                                      : now + 1u;
    if (mld->change_at_us == 0 || at < mld->change_at_us) {
        mld->change_at_us = at;
    }
}

uint64_t ipv6_mld_next_deadline(const tern_ipv6_if_t *ipif)
{
    const tern_ipv6_mld_t *mld = &ipif->mld;
    uint64_t next = UINT64_MAX;
    if (mld->change_at_us != 0) {
        next = mld->change_at_us;
    }
    if (mld->query_at_us != 0 && mld->query_at_us < next) {
        next = mld->query_at_us;
    }
    return next;
}

/*
 * Send one report of the @p count records in @p types / @p groups:
 * [IPv6 (hop limit 1, to ff02::16), Hop-by-Hop (Router Alert, §5), MLDv2 Report].
 */
static void send_report(tern_ipv6_if_t *ipif, const uint8_t *types, const tern_ipv6_addr_t *groups, size_t count)
{
    tern_ipv6_t *ip = ipif->ip;
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    size_t len = tern_mld_report_len(count);
    tern_pkt_t *msg = tern_pktbuf_add(pb, NULL, NULL, len, TERN_NETTYPE_ICMPV6);
    tern_pkt_t *hbh = (msg != NULL) ? tern_pktbuf_add(pb, msg, NULL, HBH_LEN, TERN_NETTYPE_IPV6_EXT) : NULL;
    if (hbh == NULL) {
        ipv6_count(ip, TERN_IPV6_TX_NOMEM);
        tern_pktbuf_release(pb, msg);
        return;
    }
    uint8_t *m = msg->data;
    size_t pos = (size_t)tern_mld_report_hdr_emit((uint16_t)count, m, len);
    for (size_t i = 0; i < count; i++) {
        tern_mld_record_t rec = { .type = types[i], .group = groups[i], .sources = NULL, .source_count = 0,
                                  .aux = NULL, .aux_len = 0 };
        pos += (size_t)tern_mld_record_emit(&rec, m + pos, len - pos);
    }
    /* RFC 2711 §2.1 / RFC 3810 §5: Router Alert in a Hop-by-Hop header, padded to 8 bytes. */
    uint8_t *h = hbh->data;
    const tern_ipv6_ext_t ext = { .type = TERN_IPV6_NH_HOP_BY_HOP, .next_header = TERN_ICMPV6_NEXT_HEADER,
                                  .len = HBH_LEN, .offset = 0 };
    const uint8_t alert[2] = { 0, ROUTER_ALERT_MLD };
    (void)tern_ipv6_ext_emit(&ext, h, HBH_LEN);
    h[0] = TERN_ICMPV6_NEXT_HEADER;
    (void)tern_ipv6_opt_emit(h + 2, HBH_LEN - 2u, TERN_IPV6_OPT_ROUTER_ALERT, alert, sizeof(alert));
    (void)tern_ipv6_opt_emit_padding(h + 6, HBH_LEN - 6u, 2);
    /* The checksum covers the ICMPv6 message only (RFC 8200 §8.1): filled here,
     * since ipv6_output() fills it only when ICMPv6 follows the fixed header. */
    const tern_ipv6_addr_t src = report_source(ipif);
    const tern_ipv6_addr_t dst = TERN_IPV6_ADDR_ALL_MLDV2_ROUTERS;
    (void)tern_icmpv6_checksum_fill(m, len, &src, &dst);
    /* §5: hop limit 1. */
    if (ipv6_output(ip, ipif, &src, &dst, TERN_IPV6_NH_HOP_BY_HOP, 1, hbh) == 0) {
        ipv6_count(ip, TERN_IPV6_MLD_REPORTS_SENT);
    }
}

void ipv6_mld_tick(tern_ipv6_if_t *ipif, uint64_t now_us)
{
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

void ipv6_mld_query_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                            size_t len)
{
    tern_mld_query_repr_t q;
    /* §5.1.14 / §6.2: Queries come from a link-local source (else silently
     * discarded), with hop limit 1 (RFC 3810 §5: sent so; checked as Linux does). */
    if (tern_mld_query_parse(&q, b, len) < 0 || !tern_ipv6_addr_is_link_local(&hdr->src) || hdr->hop_limit != 1) {
        ipv6_count(ip, TERN_IPV6_MLD_INVALID);
        return;
    }
    ipv6_count(ip, TERN_IPV6_MLD_QUERIES_RECEIVED);
    if (!mld_capable(ipif)) {
        return;
    }
    tern_ipv6_mld_t *mld = &ipif->mld;
    bool general = tern_ipv6_addr_is_unspecified(&q.group);
    tern_mld_group_t *g = general ? NULL : find_group(mld, &q.group);
    if (!general && (g == NULL || g->refs == 0)) {
        return; /* §6.2: not a group we listen to */
    }
    uint64_t now = ipv6_now(ip);
    uint64_t at = random_deadline(ipif, now, q.max_resp_delay_ms * 1000u);
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
