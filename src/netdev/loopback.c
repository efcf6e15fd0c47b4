/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The loopback device: a byte ring of length-prefixed frames.
 */
#include <errno.h>
#include <string.h>

#include "tern/netdev/loopback.h"

#define LEN_PREFIX 2u

/* Copy @p len bytes into the ring at logical offset @p off (wrapping). */
static void ring_write(tern_netdev_loopback_t *dev, size_t off, const void *src, size_t len)
{
    size_t pos = off % sizeof(dev->ring);
    size_t first = sizeof(dev->ring) - pos;
    if (first > len) {
        first = len;
    }
    memcpy(&dev->ring[pos], src, first);
    memcpy(dev->ring, (const uint8_t *)src + first, len - first);
}

/* Copy @p len bytes out of the ring from logical offset @p off (wrapping). */
static void ring_read(const tern_netdev_loopback_t *dev, size_t off, void *dst, size_t len)
{
    size_t pos = off % sizeof(dev->ring);
    size_t first = sizeof(dev->ring) - pos;
    if (first > len) {
        first = len;
    }
    memcpy(dst, &dev->ring[pos], first);
    memcpy((uint8_t *)dst + first, dev->ring, len - first);
}

static size_t pending_len(const tern_netdev_loopback_t *dev)
{
    if (dev->frames == 0) {
        return 0;
    }
    uint8_t prefix[LEN_PREFIX];
    ring_read(dev, dev->head, prefix, sizeof(prefix));
    return ((size_t)prefix[0] << 8) | prefix[1];
}

static int lo_send(tern_netdev_t *netdev, const tern_iolist_t *iolist, size_t count)
{
    tern_netdev_loopback_t *dev = (tern_netdev_loopback_t *)netdev;
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iolist[i].len;
    }
    if (len > TERN_CONF_LOOPBACK_MTU) {
        return -EMSGSIZE;
    }
    if (len + LEN_PREFIX > sizeof(dev->ring) - dev->used) {
        dev->dropped++;
        return -ENOBUFS;
    }
    size_t off = dev->head + dev->used;
    const uint8_t prefix[LEN_PREFIX] = { (uint8_t)(len >> 8), (uint8_t)len };
    ring_write(dev, off, prefix, sizeof(prefix));
    off += LEN_PREFIX;
    for (size_t i = 0; i < count; i++) {
        ring_write(dev, off, iolist[i].base, iolist[i].len);
        off += iolist[i].len;
    }
    dev->used += len + LEN_PREFIX;
    dev->frames++;
    /* As a real device would: an interrupt, so the frame is read later. */
    tern_netdev_report(netdev, TERN_NETDEV_EVENT_ISR);
    return (int)len;
}

static int lo_recv(tern_netdev_t *netdev, void *buf, size_t len, tern_netdev_rx_info_t *info)
{
    tern_netdev_loopback_t *dev = (tern_netdev_loopback_t *)netdev;
    size_t frame_len = pending_len(dev);
    if (buf == NULL && len == 0) {
        return (int)frame_len;
    }
    if (dev->frames == 0) {
        return 0;
    }
    int res = (int)frame_len;
    if (buf != NULL) {
        if (len < frame_len) {
            res = -ENOBUFS;
        } else {
            ring_read(dev, dev->head + LEN_PREFIX, buf, frame_len);
            if (info != NULL) {
                info->rssi = 0;
                info->lqi = 0xFF;
            }
        }
    }
    dev->head = (dev->head + LEN_PREFIX + frame_len) % sizeof(dev->ring);
    dev->used -= LEN_PREFIX + frame_len;
    dev->frames--;
    return res;
}

static int lo_init(tern_netdev_t *netdev)
{
    (void)netdev;
    return 0;
}

static void lo_isr(tern_netdev_t *netdev)
{
    tern_netdev_loopback_t *dev = (tern_netdev_loopback_t *)netdev;
    /* Each RX_COMPLETE is answered by one recv(): this loop ends. A handler
     * that does not read would leave the frame; stop then rather than spin. */
    while (dev->frames > 0) {
        uint32_t before = dev->frames;
        tern_netdev_report(netdev, TERN_NETDEV_EVENT_RX_COMPLETE);
        if (dev->frames == before) {
            break;
        }
    }
}

static int lo_get(tern_netdev_t *netdev, tern_netopt_t opt, void *value, size_t max_len)
{
    (void)netdev;
    switch (opt) {
    case TERN_NETOPT_ADDRESS:
        return 0; /* no link address */
    case TERN_NETOPT_ADDR_LEN:
        return tern_netopt_put_u16(value, max_len, 0);
    case TERN_NETOPT_MAX_PDU_SIZE:
        return tern_netopt_put_u16(value, max_len, TERN_CONF_LOOPBACK_MTU);
    case TERN_NETOPT_DEVICE_TYPE:
        return tern_netopt_put_u16(value, max_len, TERN_NETDEV_TYPE_LOOPBACK);
    default:
        return -ENOTSUP;
    }
}

static int lo_set(tern_netdev_t *netdev, tern_netopt_t opt, const void *value, size_t len)
{
    (void)netdev;
    (void)opt;
    (void)value;
    (void)len;
    return -ENOTSUP;
}

static const tern_netdev_driver_t loopback_driver = {
    .send = lo_send,
    .recv = lo_recv,
    .init = lo_init,
    .isr = lo_isr,
    .get = lo_get,
    .set = lo_set,
};

void tern_netdev_loopback_init(tern_netdev_loopback_t *dev)
{
    memset(dev, 0, sizeof(*dev));
    dev->netdev.driver = &loopback_driver;
}
