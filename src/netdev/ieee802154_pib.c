/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IEEE 802.15.4 transceiver attributes and their netopt get/set
 *        (tern/netdev/ieee802154_pib.h).
 */
#include <errno.h>
#include <string.h>

#include "tern/netdev.h"
#include "tern/netdev/ieee802154_pib.h"

void tern_ieee802154_pib_init(tern_ieee802154_pib_t *pib, const uint8_t long_addr[TERN_IEEE802154_EXT_ADDR_LEN],
                              uint16_t pan_id, uint16_t channel)
{
    memset(pib, 0, sizeof(*pib));
    memcpy(pib->long_addr, long_addr, sizeof(pib->long_addr));
    pib->short_addr[0] = 0xffu; /* macShortAddress 0xffff: none (§7.4.2) */
    pib->short_addr[1] = 0xffu;
    pib->pan_id = pan_id;
    pib->channel = channel;
    pib->on = true;
}

static int put_bytes(void *value, size_t max_len, const void *src, size_t len)
{
    if (max_len < len) {
        return -EOVERFLOW;
    }
    memcpy(value, src, len);
    return (int)len;
}

static int put_flag(void *value, size_t max_len, bool flag)
{
    const uint8_t v = flag ? 1u : 0u;
    return put_bytes(value, max_len, &v, 1u);
}

static int take_flag(const void *value, size_t len, bool *flag)
{
    if (value == NULL || len != 1u) {
        return -EINVAL;
    }
    *flag = *(const uint8_t *)value != 0u;
    return 1;
}

int tern_ieee802154_pib_get(const tern_ieee802154_pib_t *pib, tern_netopt_t opt, void *value, size_t max_len)
{
    switch (opt) {
    case TERN_NETOPT_ADDRESS:
        return put_bytes(value, max_len, pib->short_addr, sizeof(pib->short_addr));
    case TERN_NETOPT_ADDRESS_LONG:
        return put_bytes(value, max_len, pib->long_addr, sizeof(pib->long_addr));
    case TERN_NETOPT_ADDR_LEN:
        return tern_netopt_put_u16(value, max_len, (uint16_t)sizeof(pib->short_addr));
    case TERN_NETOPT_MAX_PDU_SIZE:
        return tern_netopt_put_u16(value, max_len, TERN_IEEE802154_MAX_FRAME_LEN);
    case TERN_NETOPT_DEVICE_TYPE:
        return tern_netopt_put_u16(value, max_len, TERN_NETDEV_TYPE_IEEE802154);
    case TERN_NETOPT_CHANNEL:
        return tern_netopt_put_u16(value, max_len, pib->channel);
    case TERN_NETOPT_NID:
        return tern_netopt_put_u16(value, max_len, pib->pan_id);
    case TERN_NETOPT_PROMISCUOUS:
        return put_flag(value, max_len, pib->promiscuous);
    case TERN_NETOPT_STATE:
        return put_flag(value, max_len, pib->on);
    default:
        return -ENOTSUP;
    }
}

int tern_ieee802154_pib_set(tern_ieee802154_pib_t *pib, tern_netopt_t opt, const void *value, size_t len)
{
    uint16_t v16;
    switch (opt) {
    case TERN_NETOPT_ADDRESS:
    case TERN_NETOPT_ADDRESS_LONG: {
        uint8_t *field = (opt == TERN_NETOPT_ADDRESS) ? pib->short_addr : pib->long_addr;
        size_t size = (opt == TERN_NETOPT_ADDRESS) ? sizeof(pib->short_addr) : sizeof(pib->long_addr);
        if (value == NULL || len != size) {
            return -EINVAL;
        }
        memcpy(field, value, size);
        return (int)size;
    }
    case TERN_NETOPT_CHANNEL:
        if (tern_netopt_take_u16(value, len, &v16) < 0 || v16 < TERN_IEEE802154_CHANNEL_MIN ||
            v16 > TERN_IEEE802154_CHANNEL_MAX) {
            return -EINVAL;
        }
        pib->channel = v16;
        return 2;
    case TERN_NETOPT_NID:
        if (tern_netopt_take_u16(value, len, &v16) < 0) {
            return -EINVAL;
        }
        pib->pan_id = v16;
        return 2;
    case TERN_NETOPT_PROMISCUOUS:
        return take_flag(value, len, &pib->promiscuous);
    case TERN_NETOPT_STATE:
        return take_flag(value, len, &pib->on);
    default:
        return -ENOTSUP;
    }
}
