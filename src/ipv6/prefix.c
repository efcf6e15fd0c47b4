/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief What a routing protocol tells the IPv6 module without a Router
 *        Advertisement: a prefix to autoconfigure from (RPL's DIO Prefix
 *        Information option, RFC 6550 §6.7.10) and the multicast groups it
 *        listens to (all-RPL-nodes ff02::1a, RFC 6550 §20.19).
 *
 * The prefix follows the rules of an RA's Prefix Information option
 * (RFC 4861 §6.3.4, RFC 4862 §5.5.3): A makes a SLAAC address, L an on-link
 * route, except on 6LoWPAN links where nothing but link-local is on-link
 * (RFC 6775 §5.6). A group joined here is filtered in at the link, reported
 * by MLD (RFC 3810 §6) and accepted as a destination by the receive path.
 * A node without RPL (TERN_CONF_RPL 0, config.h) has no routing protocol to
 * tell it prefixes: TERN_NETOPT_IPV6_PREFIX answers -ENOTSUP there.
 */
#include <errno.h>
#include <string.h>

#include "ipv6_internal.h"

#define US_PER_S 1000000u

int ipv6_prefix_onlink(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *prefix, uint8_t len,
                       uint32_t valid_s, uint64_t now)
{
    uint16_t if_index = ipif->netif->index;
    if (valid_s == 0) {
        /* RFC 4861 §6.3.4: a zero Valid Lifetime times the prefix out at once. */
        (void)tern_fib_remove(&ip->fib, prefix, len, if_index, NULL);
        return 0;
    }
    uint64_t end = (valid_s == TERN_IPV6_LIFETIME_INFINITE) ? TERN_FIB_INFINITE : now + (uint64_t)valid_s * US_PER_S;
    return tern_fib_add(&ip->fib, prefix, len, NULL, if_index, end, TERN_FIB_RA, 0);
}

int ipv6_prefix_slaac(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *prefix, uint8_t len, uint32_t preferred_s,
                      uint32_t valid_s, uint64_t now)
{
    tern_ipv6_addr_t iid = TERN_IPV6_ADDR_UNSPECIFIED;
    int r = tern_ipv6_iid_from_l2addr(&iid, ipif->netif->l2addr, ipif->netif->l2addr_len);
    return (r < 0) ? r : tern_ipv6_addrs_slaac(&ipif->addrs, prefix, len, preferred_s, valid_s, &iid, now);
}

static int prefix_set(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_prefix_config_t *cfg)
{
    if (cfg->prefix_len > 128u || tern_ipv6_addr_is_link_local(&cfg->prefix) ||
        tern_ipv6_addr_is_multicast(&cfg->prefix) || cfg->preferred_lifetime > cfg->valid_lifetime) {
        return -EINVAL; /* RFC 4861 §6.3.4 ignores the link-local prefix; RFC 4862 §5.5.3 (c) */
    }
    uint64_t now = ipv6_now(ip);
    int r = 0;
    if (cfg->onlink && !ipif->lowpan.enabled) {
        r = ipv6_prefix_onlink(ip, ipif, &cfg->prefix, cfg->prefix_len, cfg->valid_lifetime, now);
    }
    if (r >= 0 && cfg->autonomous) {
        r = ipv6_prefix_slaac(ipif, &cfg->prefix, cfg->prefix_len, cfg->preferred_lifetime, cfg->valid_lifetime,
                              now);
        if (r >= 0) {
            ipv6_6lo_sync(ipif); /* a 6LoWPAN host registers it (RFC 6775 §5.5) */
        }
    }
    return (r < 0) ? r : (int)sizeof(*cfg);
}

static int group_set(tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *group, bool join)
{
    if (!tern_ipv6_addr_is_multicast(group)) {
        return -EINVAL;
    }
    if (!join && !ipv6_mld_listening(ipif, group)) {
        return -ENOENT;
    }
    ipv6_mld_change(ipif, group, join); /* RFC 3810 §6.1 */
    if (join && !ipv6_mld_listening(ipif, group)) {
        return -ENOSPC; /* TERN_CONF_MLD_GROUPS full (counted as mld_no_room), or a link without MLD */
    }
    /* Links without a multicast filter (802.15.4: broadcast) answer -ENOTSUP: nothing to do there. */
    (void)tern_netapi_set(&ipif->netif->module, join ? TERN_NETOPT_MCAST_JOIN : TERN_NETOPT_MCAST_LEAVE, 0,
                          group->u8, sizeof(group->u8));
    return (int)sizeof(*group);
}

int ipv6_prefix_set_option(tern_ipv6_t *ip, tern_netapi_opt_t *opt)
{
    tern_ipv6_if_t *ipif = ipv6_find_if(ip, opt->context);
    switch (opt->opt) {
    case TERN_NETOPT_IPV6_PREFIX: {
        if (!TERN_CONF_RPL) {
            return -ENOTSUP; /* only RPL's DIO PIO sets one (config.h); RAs go through ndp_router.c */
        }
        tern_ipv6_prefix_config_t cfg;
        if (opt->data_len != sizeof(cfg)) {
            return -EINVAL;
        }
        if (ipif == NULL) {
            return -ENODEV;
        }
        memcpy(&cfg, opt->data, sizeof(cfg));
        return prefix_set(ip, ipif, &cfg);
    }
    case TERN_NETOPT_IPV6_GROUP_JOIN:
    case TERN_NETOPT_IPV6_GROUP_LEAVE: {
        tern_ipv6_addr_t group;
        if (opt->data_len != sizeof(group.u8)) {
            return -EINVAL;
        }
        if (ipif == NULL) {
            return -ENODEV;
        }
        memcpy(group.u8, opt->data, sizeof(group.u8));
        return group_set(ipif, &group, opt->opt == TERN_NETOPT_IPV6_GROUP_JOIN);
    }
    default:
        return -ENOTSUP;
    }
}
