/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Multicast group membership without MLD (TERN_CONF_IPV6_MLD 0,
 *        config.h): built instead of mld.c.
 *
 * The interface keeps the groups it joined (the receive filter of
 * ipv6_mld_listening(), reference-counted as in mld.c: addresses sharing a
 * solicited-node group), but tells no multicast router: no Reports, no
 * Done, Queries and other listeners' Reports counted as icmp_unhandled.
 * RFC 3810 §6 has a listener report its groups; an image built without it
 * is for links where nobody listens to those reports, such as 6LoWPAN
 * links, where RFC 6775 replaces multicast-based Neighbor Discovery by
 * unicast registration (§5.5) and a 6LoWPAN router learns listeners by
 * registration (RFC 9685), not by MLD.
 */
#include <string.h>

#include "ipv6_internal.h"

_Static_assert(!TERN_CONF_IPV6_MLD, "mld_none.c is built when TERN_CONF_IPV6_MLD is 0 (set it through CMake)");

static tern_mld_group_t *find_group(tern_ipv6_mld_t *mld, const tern_ipv6_addr_t *group)
{
    for (size_t i = 0; i < TERN_CONF_MLD_GROUPS; i++) {
        if (mld->groups[i].used && tern_ipv6_addr_equal(&mld->groups[i].group, group)) {
            return &mld->groups[i];
        }
    }
    return NULL;
}

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
    if (tern_ipv6_addr_equal(group, &ipv6_all_nodes)) {
        return; /* always received (for_us() in ipv6.c) */
    }
    tern_mld_group_t *g = find_group(mld, group);
    if (!join) {
        if (g != NULL && g->refs > 0 && --g->refs == 0) {
            g->used = false;
        }
        return;
    }
    for (size_t i = 0; i < TERN_CONF_MLD_GROUPS && g == NULL; i++) {
        if (!mld->groups[i].used) {
            g = &mld->groups[i];
            memset(g, 0, sizeof(*g));
            g->group = *group;
            g->used = true;
        }
    }
    if (g == NULL) {
        ipv6_count(ipif->ip, TERN_IPV6_MLD_NO_ROOM);
        return;
    }
    g->refs++;
}

uint64_t ipv6_mld_next_deadline(const tern_ipv6_if_t *ipif)
{
    (void)ipif;
    return UINT64_MAX;
}

void ipv6_mld_tick(tern_ipv6_if_t *ipif, uint64_t now_us)
{
    (void)ipif;
    (void)now_us;
}

void ipv6_mld_query_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                            size_t len)
{
    (void)ipif;
    (void)hdr;
    (void)b;
    (void)len;
    ipv6_count(ip, TERN_IPV6_ICMP_UNHANDLED);
}

void ipv6_mld_report_receive(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_repr_t *hdr, const uint8_t *b,
                             size_t len)
{
    (void)ipif;
    (void)hdr;
    (void)b;
    (void)len;
    ipv6_count(ip, TERN_IPV6_ICMP_UNHANDLED);
}
