/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The attributes an IEEE 802.15.4 transceiver keeps for its hardware
 *        address filter and automatic acknowledgments, and their netopt
 *        get/set: one implementation for every radio driver (the simulated
 *        radio, the ZEP device), so they answer the interface alike.
 *
 * Read first: IEEE 802.15.4-2006 §7.4.2 (macPANId, macShortAddress,
 * aExtendedAddress), §6.1.2 (channels of page 0), §7.5.6.2 (filtering).
 *
 * Options: TERN_NETOPT_ADDRESS (short address, uint8_t[2] canonical order;
 * ff:ff = none), TERN_NETOPT_ADDRESS_LONG (uint8_t[8], canonical order),
 * TERN_NETOPT_NID (PAN ID, uint16_t), TERN_NETOPT_CHANNEL (uint16_t, 11..26),
 * TERN_NETOPT_PROMISCUOUS and TERN_NETOPT_STATE (uint8_t, 0 or 1); get only:
 * TERN_NETOPT_ADDR_LEN (2), TERN_NETOPT_MAX_PDU_SIZE (125: a 127-byte PSDU
 * less the FCS the radio adds), TERN_NETOPT_DEVICE_TYPE (IEEE802154).
 */
#ifndef TERN_NETDEV_IEEE802154_PIB_H
#define TERN_NETDEV_IEEE802154_PIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/netopt.h"
#include "tern/wire/ieee802154.h"

/** Lowest and highest 2.4 GHz O-QPSK channel (channel page 0, 2006 §6.1.2). */
#define TERN_IEEE802154_CHANNEL_MIN 11u
#define TERN_IEEE802154_CHANNEL_MAX 26u

/** The transceiver's attributes. */
typedef struct {
    uint8_t long_addr[TERN_IEEE802154_EXT_ADDR_LEN];    /**< extended address, canonical order */
    uint8_t short_addr[TERN_IEEE802154_SHORT_ADDR_LEN]; /**< short address, canonical order; ff:ff none */
    uint16_t pan_id;                                    /**< PAN ID */
    uint16_t channel;                                   /**< channel, 11..26 */
    bool promiscuous;                                   /**< deliver every frame heard */
    bool on;                                            /**< switched on */
} tern_ieee802154_pib_t;

/**
 * Switched on, not promiscuous, no short address, the given extended
 * address, PAN ID and channel.
 */
void tern_ieee802154_pib_init(tern_ieee802154_pib_t *pib, const uint8_t long_addr[TERN_IEEE802154_EXT_ADDR_LEN],
                              uint16_t pan_id, uint16_t channel);

/**
 * A driver's get() for the options above.
 * @return the value's length; -EOVERFLOW when @p max_len is too small;
 *         -ENOTSUP for another option.
 */
int tern_ieee802154_pib_get(const tern_ieee802154_pib_t *pib, tern_netopt_t opt, void *value, size_t max_len);

/**
 * A driver's set() for the options above.
 * @return the length taken; -EINVAL for a wrong length or value (a channel
 *         outside 11..26); -ENOTSUP for another option or a get-only one.
 */
int tern_ieee802154_pib_set(tern_ieee802154_pib_t *pib, tern_netopt_t opt, const void *value, size_t len);

/** The third-level filter (tern_ieee802154_rx_filter()) with these attributes. */
static inline tern_ieee802154_rx_verdict_t tern_ieee802154_pib_filter(const tern_ieee802154_pib_t *pib,
                                                                      const tern_ieee802154_repr_t *repr)
{
    return tern_ieee802154_rx_filter(repr, pib->pan_id, pib->short_addr, pib->long_addr);
}

#endif /* TERN_NETDEV_IEEE802154_PIB_H */
