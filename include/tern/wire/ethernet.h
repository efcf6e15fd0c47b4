/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Ethernet II header (IEEE 802.3 framing with an EtherType; RFC 2464 for IPv6).
 */
#ifndef TERN_WIRE_ETHERNET_H
#define TERN_WIRE_ETHERNET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"

#define TERN_ETHERNET_ADDR_LEN 6
#define TERN_ETHERNET_HDR_LEN 14
#define TERN_ETHERNET_MTU 1500
/** Shortest frame without FCS (60 bytes: payload padded to 46). */
#define TERN_ETHERNET_MIN_FRAME 60
#define TERN_ETHERTYPE_IPV6 0x86DDu

/** The parsed header. */
typedef struct {
    uint8_t dst[TERN_ETHERNET_ADDR_LEN];
    uint8_t src[TERN_ETHERNET_ADDR_LEN];
    uint16_t ethertype; /**< host order; values < 0x0600 are 802.3 lengths */
} tern_ethernet_repr_t;

/**
 * Parse the header at the start of @p buf (no FCS expected; the payload
 * starts at the returned offset and may include padding up to the minimum frame).
 * @param[out] repr  the header; unchanged on error
 * @param[in]  buf   received frame
 * @param[in]  len   bytes available at @p buf
 * @return TERN_ETHERNET_HDR_LEN; -EBADMSG if @p len is shorter, or the
 *         EtherType field is an 802.3 length (< 0x0600: not Ethernet II);
 *         -EINVAL for a NULL pointer.
 * @see RFC 894, RFC 2464 §3
 */
int tern_ethernet_parse(tern_ethernet_repr_t *repr, const uint8_t *buf, size_t len);

/**
 * Write @p repr into @p buf (the EtherType as given, big-endian).
 * @return TERN_ETHERNET_HDR_LEN; -ENOBUFS if @p len is shorter (nothing
 *         written); -EINVAL for a NULL pointer.
 */
int tern_ethernet_emit(const tern_ethernet_repr_t *repr, uint8_t *buf, size_t len);

/** Group bit set (multicast or broadcast). */
bool tern_ethernet_addr_is_multicast(const uint8_t addr[TERN_ETHERNET_ADDR_LEN]);
/** All ones (ff:ff:ff:ff:ff:ff). */
bool tern_ethernet_addr_is_broadcast(const uint8_t addr[TERN_ETHERNET_ADDR_LEN]);

/** MAC address of IPv6 multicast @p group: 33:33 + its last 32 bits (RFC 2464 §7). */
void tern_ethernet_addr_from_ipv6_multicast(uint8_t out[TERN_ETHERNET_ADDR_LEN],
                                            const tern_ipv6_addr_t *group);

#endif /* TERN_WIRE_ETHERNET_H */
