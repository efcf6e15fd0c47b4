/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The loopback device: every frame sent is received back.
 *
 * Frames are copied into a ring of TERN_CONF_LOOPBACK_BUF_SIZE bytes inside
 * the device (2 length bytes each), and an interrupt is raised; the interface
 * reads them back from its next turn. A full ring refuses the frame (-ENOBUFS).
 */
#ifndef TERN_NETDEV_LOOPBACK_H
#define TERN_NETDEV_LOOPBACK_H

#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/netdev.h"

/** The loopback device. */
typedef struct {
    tern_netdev_t netdev;                    /**< the device; pass &lo.netdev */
    uint8_t ring[TERN_CONF_LOOPBACK_BUF_SIZE]; /**< queued frames */
    size_t head;                             /**< offset of the oldest frame */
    size_t used;                             /**< bytes queued */
    uint32_t frames;                         /**< frames queued */
    uint32_t dropped;                        /**< frames refused: ring full */
} tern_netdev_loopback_t;

/** Set up @p dev. */
void tern_netdev_loopback_init(tern_netdev_loopback_t *dev);

#endif /* TERN_NETDEV_LOOPBACK_H */
