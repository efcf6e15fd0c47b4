/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The generic interface header (thesis 3.3.5).
 *
 * Every interface converts its link header to and from this header, so layers
 * above never parse link frames: a received packet carries it as its last snip
 * ([payload, ..., NETIF]), a packet to send as its first ([NETIF, IPV6, ...]).
 */
#ifndef TERN_NETIF_HDR_H
#define TERN_NETIF_HDR_H

#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/pktbuf.h"

/** Frame was (or is to be) sent to the link's broadcast address. */
#define TERN_NETIF_HDR_FLAG_BROADCAST 0x01u
/** Frame was (or is to be) sent to a link multicast address. */
#define TERN_NETIF_HDR_FLAG_MULTICAST 0x02u
/** More fragments of the same datagram follow (hint for the MAC). */
#define TERN_NETIF_HDR_FLAG_MORE_DATA 0x04u

/** The interface header; the data of a snip of type TERN_NETTYPE_NETIF. */
typedef struct {
    uint16_t if_index;                      /**< interface, 1-based; 0: not chosen */
    uint8_t src_len;                        /**< bytes of @ref src used (0: none) */
    uint8_t dst_len;                        /**< bytes of @ref dst used (0: none) */
    uint8_t flags;                          /**< TERN_NETIF_HDR_FLAG_... */
    uint8_t lqi;                            /**< link quality of a received frame */
    int16_t rssi;                           /**< signal strength of a received frame, dBm */
    uint8_t src[TERN_CONF_L2ADDR_MAX];      /**< source link address */
    uint8_t dst[TERN_CONF_L2ADDR_MAX];      /**< destination link address */
} tern_netif_hdr_t;

/**
 * Set @p hdr to the given addresses, every other field 0 (what
 * tern_netif_hdr_build() puts in a new snip; for a NETIF snip that is reused).
 * @return 0; -EINVAL if a length exceeds TERN_CONF_L2ADDR_MAX or an address
 *         with a length is NULL (then @p hdr is unchanged).
 */
int tern_netif_hdr_fill(tern_netif_hdr_t *hdr, const uint8_t *src, size_t src_len, const uint8_t *dst,
                        size_t dst_len);

/**
 * Allocate a NETIF snip in front of @p next with the given addresses.
 * @return the snip; NULL if a length exceeds TERN_CONF_L2ADDR_MAX or memory ran out.
 */
tern_pkt_t *tern_netif_hdr_build(tern_pktbuf_t *pb, tern_pkt_t *next, const uint8_t *src,
                                 size_t src_len, const uint8_t *dst, size_t dst_len);

/** The interface header of @p pkt (its first NETIF snip), or NULL if it has none. */
tern_netif_hdr_t *tern_netif_hdr_get(tern_pkt_t *pkt);

/**
 * The interface header of a received packet whose datagram or frame is @p pkt:
 * the snip right after it, where links and 6LoWPAN put it (looked at in place,
 * no call: every received packet asks, at every layer), else as
 * tern_netif_hdr_get(@p pkt) finds it (@p pkt not NULL). NULL if it has none.
 */
static inline tern_netif_hdr_t *tern_netif_hdr_received(tern_pkt_t *pkt)
{
    const tern_pkt_t *next = pkt->next;
    if (next != NULL && pkt->type != TERN_NETTYPE_NETIF && next->type == TERN_NETTYPE_NETIF &&
        next->size == sizeof(tern_netif_hdr_t)) {
        return next->data;
    }
    return tern_netif_hdr_get(pkt);
}

#endif /* TERN_NETIF_HDR_H */
