/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The test device (thesis 5.3: netdev_test, methods exchangeable).
 */
#include <errno.h>
#include <string.h>

#include "tern/netdev/test.h"

static int test_send(tern_netdev_t *netdev, const tern_iolist_t *iolist, size_t count)
{
    tern_netdev_test_t *dev = (tern_netdev_test_t *)netdev;
    if (dev->send_cb != NULL) {
        return dev->send_cb(dev, iolist, count);
    }
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iolist[i].len;
    }
    if (len > dev->mtu) {
        return -EMSGSIZE;
    }
    dev->frames_sent++;
    dev->bytes_sent += (uint32_t)len;
    return (int)len;
}

static int test_recv(tern_netdev_t *netdev, void *buf, size_t len, tern_netdev_rx_info_t *info)
{
    tern_netdev_test_t *dev = (tern_netdev_test_t *)netdev;
    if (dev->recv_cb != NULL) {
        return dev->recv_cb(dev, buf, len, info);
    }
    size_t pending = __atomic_load_n(&dev->rx_len, __ATOMIC_ACQUIRE);
    if (buf == NULL && len == 0) {
        return (int)pending;
    }
    if (pending == 0) {
        return 0;
    }
    int res = (int)pending;
    if (buf != NULL) {
        if (len < pending) {
            res = -ENOBUFS;
        } else {
            memcpy(buf, dev->rx_frame, pending);
            if (info != NULL) {
                info->rssi = 0;
                info->lqi = 0xFF;
            }
        }
    }
    dev->rx_frame = NULL;
    __atomic_store_n(&dev->rx_len, 0, __ATOMIC_RELEASE);
    return res;
}

static int test_init(tern_netdev_t *netdev)
{
    (void)netdev;
    return 0;
}

static void test_isr(tern_netdev_t *netdev)
{
    tern_netdev_test_t *dev = (tern_netdev_test_t *)netdev;
    if (dev->isr_cb != NULL) {
        dev->isr_cb(dev);
        return;
    }
    if (__atomic_load_n(&dev->rx_len, __ATOMIC_ACQUIRE) > 0) {
        tern_netdev_report(netdev, TERN_NETDEV_EVENT_RX_COMPLETE);
    }
}

static int test_get(tern_netdev_t *netdev, tern_netopt_t opt, void *value, size_t max_len)
{
    tern_netdev_test_t *dev = (tern_netdev_test_t *)netdev;
    if (dev->get_cb != NULL) {
        return dev->get_cb(dev, opt, value, max_len);
    }
    switch (opt) {
    case TERN_NETOPT_ADDRESS:
        if (max_len < dev->addr_len) {
            return -EOVERFLOW;
        }
        memcpy(value, dev->addr, dev->addr_len);
        return dev->addr_len;
    case TERN_NETOPT_ADDR_LEN:
        return tern_netopt_put_u16(value, max_len, dev->addr_len);
    case TERN_NETOPT_MAX_PDU_SIZE:
        return tern_netopt_put_u16(value, max_len, dev->mtu);
    case TERN_NETOPT_DEVICE_TYPE:
        return tern_netopt_put_u16(value, max_len, dev->device_type);
    default:
        return -ENOTSUP;
    }
}

static int test_set(tern_netdev_t *netdev, tern_netopt_t opt, const void *value, size_t len)
{
    tern_netdev_test_t *dev = (tern_netdev_test_t *)netdev;
    if (dev->set_cb != NULL) {
        return dev->set_cb(dev, opt, value, len);
    }
    switch (opt) {
    case TERN_NETOPT_ADDRESS:
        if (len > sizeof(dev->addr)) {
            return -EINVAL;
        }
        memcpy(dev->addr, value, len);
        dev->addr_len = (uint8_t)len;
        return (int)len;
    case TERN_NETOPT_MAX_PDU_SIZE: {
        uint16_t mtu;
        if (tern_netopt_take_u16(value, len, &mtu) < 0) {
            return -EINVAL;
        }
        dev->mtu = mtu;
        return 2;
    }
    default:
        return -ENOTSUP;
    }
}

static const tern_netdev_driver_t test_driver = {
    .send = test_send,
    .recv = test_recv,
    .init = test_init,
    .isr = test_isr,
    .get = test_get,
    .set = test_set,
};

void tern_netdev_test_init(tern_netdev_test_t *dev)
{
    memset(dev, 0, sizeof(*dev));
    dev->netdev.driver = &test_driver;
    dev->mtu = 1280;
    dev->device_type = TERN_NETDEV_TYPE_TEST;
}

int tern_netdev_test_inject(tern_netdev_test_t *dev, const void *frame, size_t len)
{
    if (frame == NULL || len == 0) {
        return -EINVAL;
    }
    if (__atomic_load_n(&dev->rx_len, __ATOMIC_ACQUIRE) != 0) {
        return -EBUSY;
    }
    dev->rx_frame = frame;
    __atomic_store_n(&dev->rx_len, len, __ATOMIC_RELEASE);
    tern_netdev_test_interrupt(dev);
    return 0;
}

void tern_netdev_test_interrupt(tern_netdev_test_t *dev)
{
    tern_netdev_report(&dev->netdev, TERN_NETDEV_EVENT_ISR);
}
