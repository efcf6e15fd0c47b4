/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Link MTU and Path MTU of packets we originate (RFC 4861 §6.3.4,
 *        RFC 8201 §4, §5.2): used by the send path and the Packet Too Big
 *        check whether or not IPv6 fragmentation (frag.c) is built
 *        (TERN_CONF_IPV6_FRAG).
 */
#include <stdint.h>

#include "ipv6_internal.h"

uint16_t ipv6_link_mtu(const tern_ipv6_if_t *ipif)
{
    /* RFC 4861 §6.3.4: an RA's MTU option (already checked <= the interface's). */
    uint16_t mtu = (ipif->rd.link_mtu != 0) ? ipif->rd.link_mtu : ipif->netif->mtu;
    return (mtu != 0) ? mtu : UINT16_MAX; /* a device that does not tell: no limit known */
}

uint16_t ipv6_path_mtu(tern_ipv6_t *ip, const tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *dst)
{
    uint16_t mtu = ipv6_link_mtu(ipif);
    /* RFC 8201 §1: a node not implementing Path MTU Discovery MUST use the
     * IPv6 minimum link MTU as the maximum packet size. RFC 8201 §4: no
     * estimate is below that minimum (tern_dcache_set_pmtu() refuses one),
     * so on a link whose MTU is at most the minimum (6LoWPAN: 1280, RFC 4944
     * §4) the link MTU is the path's too, without a destination cache lookup. */
    if (!TERN_CONF_IPV6_DCACHE || mtu <= TERN_DCACHE_MIN_PMTU) {
        return (mtu < TERN_DCACHE_MIN_PMTU) ? mtu : (uint16_t)TERN_DCACHE_MIN_PMTU;
    }
    const tern_dcache_entry_t *d = tern_dcache_lookup(&ip->dcache, dst, ipv6_now(ip));
    if (d != NULL && d->pmtu != 0 && d->pmtu < mtu) {
        mtu = d->pmtu; /* RFC 8201 §5.2: the estimate kept per destination */
    }
    return mtu;
}
