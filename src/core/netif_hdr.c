/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Generic interface header helpers, and the netopt value helpers drivers share.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "tern/netdev.h"
#include "tern/netif_hdr.h"

static bool addrs_valid(const uint8_t *src, size_t src_len, const uint8_t *dst, size_t dst_len)
{
    return src_len <= TERN_CONF_L2ADDR_MAX && dst_len <= TERN_CONF_L2ADDR_MAX && (src_len == 0 || src != NULL) &&
           (dst_len == 0 || dst != NULL);
}

/* The addresses into a zeroed @p hdr. */
static void put_addrs(tern_netif_hdr_t *hdr, const uint8_t *src, size_t src_len, const uint8_t *dst, size_t dst_len)
{
    hdr->src_len = (uint8_t)src_len;
    hdr->dst_len = (uint8_t)dst_len;
    if (src_len > 0) {
        memcpy(hdr->src, src, src_len);
    }
    if (dst_len > 0) {
        memcpy(hdr->dst, dst, dst_len);
    }
}

int tern_netif_hdr_fill(tern_netif_hdr_t *hdr, const uint8_t *src, size_t src_len, const uint8_t *dst,
                        size_t dst_len)
{
    if (!addrs_valid(src, src_len, dst, dst_len)) {
        return -EINVAL;
    }
    memset(hdr, 0, sizeof(*hdr));
    put_addrs(hdr, src, src_len, dst, dst_len);
    return 0;
}

tern_pkt_t *tern_netif_hdr_build(tern_pktbuf_t *pb, tern_pkt_t *next, const uint8_t *src,
                                 size_t src_len, const uint8_t *dst, size_t dst_len)
{
    if (!addrs_valid(src, src_len, dst, dst_len)) {
        return NULL;
    }
    /* Zeroed by pktbuf (no data given); its data is aligned to
     * TERN_PKTBUF_ALIGN, enough for this struct. */
    tern_pkt_t *snip = tern_pktbuf_add(pb, next, NULL, sizeof(tern_netif_hdr_t), TERN_NETTYPE_NETIF);
    if (snip != NULL) {
        put_addrs(snip->data, src, src_len, dst, dst_len);
    }
    return snip;
}

tern_netif_hdr_t *tern_netif_hdr_get(tern_pkt_t *pkt)
{
    /* Where it nearly always is, at the head; else searched for. */
    tern_pkt_t *snip =
        (pkt != NULL && pkt->type == TERN_NETTYPE_NETIF) ? pkt : tern_pkt_search_type(pkt, TERN_NETTYPE_NETIF);
    if (snip == NULL || snip->size != sizeof(tern_netif_hdr_t)) {
        return NULL;
    }
    return snip->data;
}

int tern_netopt_put_u16(void *value, size_t max_len, uint16_t v)
{
    if (value == NULL || max_len < sizeof(v)) {
        return -EOVERFLOW;
    }
    memcpy(value, &v, sizeof(v));
    return (int)sizeof(v);
}

int tern_netopt_take_u16(const void *value, size_t len, uint16_t *v)
{
    if (value == NULL || len != sizeof(*v)) {
        return -EINVAL;
    }
    memcpy(v, value, sizeof(*v));
    return 0;
}
