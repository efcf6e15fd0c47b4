/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief netdev: the device driver API (thesis 2.3, seed 001 3.1).
 *
 * A driver is a const table of functions; a device is a tern_netdev_t whose
 * first member the driver's own device struct embeds. Events flow as in the
 * thesis's Figure 2.2: the driver's interrupt handler calls the event callback
 * with TERN_NETDEV_EVENT_ISR (in interrupt context, or on a driver thread on
 * POSIX); the interface module then calls isr() from its own context, and the
 * driver reports what happened (RX_COMPLETE, TX_COMPLETE, ...) through the
 * same callback, now in the module's context, where recv() may be called.
 */
#ifndef TERN_NETDEV_H
#define TERN_NETDEV_H

#include <stddef.h>
#include <stdint.h>

#include "tern/netopt.h"
#include "tern/pkt.h"

/** Events a driver reports through the event callback. */
typedef enum {
    TERN_NETDEV_EVENT_ISR = 0,          /**< interrupt: call isr() from thread context */
    TERN_NETDEV_EVENT_RX_COMPLETE,      /**< a frame can be read with recv() */
    TERN_NETDEV_EVENT_TX_COMPLETE,      /**< a frame was sent (and acknowledged, if asked) */
    TERN_NETDEV_EVENT_TX_NOACK,         /**< a frame was sent but not acknowledged */
    TERN_NETDEV_EVENT_TX_MEDIUM_BUSY,   /**< a frame could not be sent: channel busy */
    TERN_NETDEV_EVENT_LINK_UP,          /**< link came up */
    TERN_NETDEV_EVENT_LINK_DOWN,        /**< link went down */
} tern_netdev_event_t;

/** Kinds of device (value of TERN_NETOPT_DEVICE_TYPE). */
typedef enum {
    TERN_NETDEV_TYPE_UNKNOWN = 0,
    TERN_NETDEV_TYPE_TEST,
    TERN_NETDEV_TYPE_LOOPBACK,
    TERN_NETDEV_TYPE_ETHERNET,
    TERN_NETDEV_TYPE_IEEE802154,
} tern_netdev_type_t;

/** Link metrics of a received frame. */
typedef struct {
    int16_t rssi; /**< received signal strength, dBm (0 when unknown) */
    uint8_t lqi;  /**< link quality indicator (0 when unknown) */
} tern_netdev_rx_info_t;

typedef struct tern_netdev tern_netdev_t;

/** Event callback: set by the owner of the device (the interface). */
typedef void (*tern_netdev_event_cb_t)(tern_netdev_t *dev, tern_netdev_event_t event);

/** The driver's functions. All return negative errno on failure. */
typedef struct {
    /**
     * Send one frame given as a scatter list (concatenated in order).
     * @return bytes sent (>= 0); -ENOBUFS if the device cannot take it now;
     *         -EMSGSIZE if longer than the device's maximum; -EIO.
     */
    int (*send)(tern_netdev_t *dev, const tern_iolist_t *iolist, size_t count);

    /**
     * Read the pending frame.
     * - @p buf NULL, @p len 0: return the pending frame's length (0: none), keep it;
     * - @p buf NULL, @p len > 0: drop the pending frame, return its length;
     * - otherwise copy it into @p buf and return its length; -ENOBUFS when
     *   @p len is too short (the frame is dropped).
     * @p info may be NULL.
     */
    int (*recv)(tern_netdev_t *dev, void *buf, size_t len, tern_netdev_rx_info_t *info);

    /** Bring the device up. @return 0 or negative errno. */
    int (*init)(tern_netdev_t *dev);

    /** Handle a pending interrupt in thread context; reports events via the callback. */
    void (*isr)(tern_netdev_t *dev);

    /**
     * Read option @p opt into @p value (capacity @p max_len).
     * @return value length; -ENOTSUP; -EOVERFLOW if @p max_len is too short.
     */
    int (*get)(tern_netdev_t *dev, tern_netopt_t opt, void *value, size_t max_len);

    /** Write option @p opt. @return bytes used; -ENOTSUP; -EINVAL for a bad value. */
    int (*set)(tern_netdev_t *dev, tern_netopt_t opt, const void *value, size_t len);
} tern_netdev_driver_t;

/** A device. Drivers embed it as the first member of their device struct. */
struct tern_netdev {
    const tern_netdev_driver_t *driver; /**< the driver */
    tern_netdev_event_cb_t event_cb;    /**< set by the interface */
    void *context;                      /**< the interface owning the device */
};

/** Report @p event to the device's owner, if any (for drivers). */
static inline void tern_netdev_report(tern_netdev_t *dev, tern_netdev_event_t event)
{
    if (dev->event_cb != NULL) {
        dev->event_cb(dev, event);
    }
}

/** Store a uint16_t option value: a helper for drivers' get(). @return 2 or -EOVERFLOW. */
int tern_netopt_put_u16(void *value, size_t max_len, uint16_t v);

/** Read a uint16_t option value: a helper for set(). @return 0 or -EINVAL on a bad length. */
int tern_netopt_take_u16(const void *value, size_t len, uint16_t *v);

#endif /* TERN_NETDEV_H */
