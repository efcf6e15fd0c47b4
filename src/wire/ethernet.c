/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Ethernet II header (RFC 894 framing; RFC 2464 for IPv6).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/ethernet.h"

/* Smallest EtherType; smaller values of the field are IEEE 802.3 lengths. */
#define ETHERTYPE_MIN 0x0600u

int tern_ethernet_parse(tern_ethernet_repr_t *repr, const uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < TERN_ETHERNET_HDR_LEN) {
        return -EBADMSG;
    }
    uint16_t ethertype = (uint16_t)(((unsigned)buf[12] << 8) | buf[13]);
    if (ethertype < ETHERTYPE_MIN) {
        return -EBADMSG;
    }
    memcpy(repr->dst, &buf[0], TERN_ETHERNET_ADDR_LEN);
    memcpy(repr->src, &buf[6], TERN_ETHERNET_ADDR_LEN);
    repr->ethertype = ethertype;
    return TERN_ETHERNET_HDR_LEN;
}

int tern_ethernet_emit(const tern_ethernet_repr_t *repr, uint8_t *buf, size_t len)
{
    if (repr == NULL || (buf == NULL && len != 0)) {
        return -EINVAL;
    }
    if (len < TERN_ETHERNET_HDR_LEN) {
        return -ENOBUFS;
    }
    memcpy(&buf[0], repr->dst, TERN_ETHERNET_ADDR_LEN);
    memcpy(&buf[6], repr->src, TERN_ETHERNET_ADDR_LEN);
    buf[12] = (uint8_t)(repr->ethertype >> 8);
    buf[13] = (uint8_t)repr->ethertype;
    return TERN_ETHERNET_HDR_LEN;
}

bool tern_ethernet_addr_is_multicast(const uint8_t addr[TERN_ETHERNET_ADDR_LEN])
{
    /* I/G bit: the least significant bit of the first octet (IEEE 802 §8.2). */
    return (addr[0] & 0x01) != 0;
}

bool tern_ethernet_addr_is_broadcast(const uint8_t addr[TERN_ETHERNET_ADDR_LEN])
{
    for (size_t i = 0; i < TERN_ETHERNET_ADDR_LEN; i++) {
        if (addr[i] != 0xff) {
            return false;
        }
    }
    return true;
}

void tern_ethernet_addr_from_ipv6_multicast(uint8_t out[TERN_ETHERNET_ADDR_LEN],
                                            const tern_ipv6_addr_t *group)
{
    /* RFC 2464 §7: 33:33 followed by the last four octets of the group. */
    out[0] = 0x33;
    out[1] = 0x33;
    memcpy(&out[2], &group->u8[12], 4);
}
