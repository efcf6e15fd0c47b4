/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The test device: every driver function replaceable by a callback.
 *
 * What the thesis's traversal-time experiments (5.3, netdev_test) and Tern's
 * tests and benchmarks use. Without callbacks it behaves as a minimal device:
 * send counts frames and bytes (no FCS, like a radio with hardware CRC); recv
 * delivers a frame handed to tern_netdev_test_inject(); get/set know the link
 * address, its length, the MTU and the device type.
 */
#ifndef TERN_NETDEV_TEST_H
#define TERN_NETDEV_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/netdev.h"

typedef struct tern_netdev_test tern_netdev_test_t;

/** The test device. Initialise with tern_netdev_test_init(), then set callbacks. */
struct tern_netdev_test {
    tern_netdev_t netdev; /**< the device; pass &dev.netdev */
    /** Replaces send; NULL: count the frame. */
    int (*send_cb)(tern_netdev_test_t *dev, const tern_iolist_t *iolist, size_t count);
    /** Replaces recv; NULL: deliver the injected frame. */
    int (*recv_cb)(tern_netdev_test_t *dev, void *buf, size_t len, tern_netdev_rx_info_t *info);
    /** Replaces isr; NULL: report RX_COMPLETE when a frame is injected. */
    void (*isr_cb)(tern_netdev_test_t *dev);
    /** Replaces get; NULL: the defaults below. */
    int (*get_cb)(tern_netdev_test_t *dev, tern_netopt_t opt, void *value, size_t max_len);
    /** Replaces set; NULL: the defaults below. */
    int (*set_cb)(tern_netdev_test_t *dev, tern_netopt_t opt, const void *value, size_t len);
    void *state;                          /**< free for the callbacks */
    uint8_t addr[TERN_CONF_L2ADDR_MAX];   /**< link address (default get/set) */
    uint8_t addr_len;                     /**< its length */
    uint16_t mtu;                         /**< max PDU (default get) */
    /** Answer to TERN_NETOPT_DEVICE_TYPE (default get): TERN_NETDEV_TYPE_TEST after
     *  init; TERN_NETDEV_TYPE_IEEE802154 makes IPv6 apply the 6LoWPAN rules (RFC 6775). */
    uint16_t device_type;
    uint32_t frames_sent;                 /**< frames the default send counted */
    uint32_t bytes_sent;                  /**< bytes the default send counted */
    const uint8_t *rx_frame;              /**< injected frame (caller-owned) */
    size_t rx_len;                        /**< its length; 0: none pending */
};

/** Set up @p dev with no callbacks, no address, an MTU of 1280 and device type TEST. */
void tern_netdev_test_init(tern_netdev_test_t *dev);

/**
 * Offer @p frame (kept by reference until read) for reception and raise an
 * interrupt, as a radio would. Call it only while no frame is pending.
 * @return 0; -EBUSY if a frame is still pending; -EINVAL for an empty frame.
 */
int tern_netdev_test_inject(tern_netdev_test_t *dev, const void *frame, size_t len);

/** Raise an interrupt (the event callback with TERN_NETDEV_EVENT_ISR). */
void tern_netdev_test_interrupt(tern_netdev_test_t *dev);

#endif /* TERN_NETDEV_TEST_H */
