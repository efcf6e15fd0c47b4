/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Packet snips and pure helpers over snip lists (no allocation, no locking).
 *
 * A packet is a singly linked list of snips. Packets in transmission are ordered
 * header first ([NETIF, IPV6, UDP, payload]); packets in reception payload first
 * ([payload, IPV6, NETIF]), so that copy-on-write duplicates form a tree
 * (thesis 3.3.2). Snips live in a tern_pktbuf_t; see pktbuf.h for their lifetime.
 *
 * Snips of type TERN_NETTYPE_NETERR carry metadata (an error report hook), not
 * packet bytes: tern_pkt_len(), tern_pkt_to_iolist() and tern_pkt_copy_out()
 * skip them, so they never reach a wire.
 */
#ifndef TERN_PKT_H
#define TERN_PKT_H

#include <stddef.h>
#include <stdint.h>

#include "tern/nettype.h"

/** One packet snip. Fields are read freely; change them only as pktbuf.h allows. */
typedef struct tern_pkt {
    struct tern_pkt *next; /**< next snip of the packet, or NULL */
    void *data;            /**< the snip's bytes (NULL when size is 0) */
    uint16_t size;         /**< length of @ref data in bytes */
    uint8_t users;         /**< reference count (holders of this snip) */
    uint8_t type;          /**< a tern_nettype_t */
    uint16_t lead;         /**< pktbuf's: bytes trimmed off the front that the snip still owns (0 outside pktbuf) */
} tern_pkt_t;

/** One entry of a scatter list handed to a device driver. */
typedef struct {
    const void *base; /**< start of the bytes */
    size_t len;       /**< number of bytes */
} tern_iolist_t;

/** Total number of packet bytes (sum of the snip sizes, NETERR snips excluded); 0 for NULL. */
size_t tern_pkt_len(const tern_pkt_t *pkt);

/** Number of snips in the packet; 0 for NULL. */
size_t tern_pkt_count(const tern_pkt_t *pkt);

/** First snip of type @p type in the packet, or NULL. */
tern_pkt_t *tern_pkt_search_type(tern_pkt_t *pkt, tern_nettype_t type);

/**
 * Fill @p vec with one entry per non-empty snip (NETERR snips skipped), in list order.
 *
 * @param[in]  pkt   packet to export (may be NULL: 0 entries)
 * @param[out] vec   array of at least @p max entries
 * @param[in]  max   capacity of @p vec
 * @return number of entries written (>= 0);
 *         -ENOBUFS if the packet has more than @p max non-empty snips (the
 *         first @p max entries of @p vec are written then);
 *         -EINVAL if @p vec is NULL while entries are needed.
 */
int tern_pkt_to_iolist(const tern_pkt_t *pkt, tern_iolist_t *vec, size_t max);

/**
 * Copy the packet's bytes, in list order, into @p buf.
 * @return bytes copied (>= 0), or -ENOBUFS if @p len is shorter than the packet;
 *         -EINVAL if @p buf is NULL while there are bytes to copy.
 */
int tern_pkt_copy_out(const tern_pkt_t *pkt, void *buf, size_t len);

#endif /* TERN_PKT_H */
