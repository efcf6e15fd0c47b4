/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The interface module: owns a netdev, runs its events, converts link
 *        headers (thesis 3.3.5, 3.4; event flow of thesis Figure 2.2).
 */
#include <errno.h>
#include <string.h>

#include "tern/netapi.h"
#include "tern/netif.h"

/** Interfaces are more urgent than protocols: a frame left in a device is lost. */
#define NETIF_PRIORITY 2u

static const char *const netif_counter_names[TERN_NETIF_STAT_NUMOF] = {
    [TERN_NETIF_RX_PACKETS] = "rx_packets", [TERN_NETIF_RX_BYTES] = "rx_bytes",
    [TERN_NETIF_TX_PACKETS] = "tx_packets", [TERN_NETIF_TX_BYTES] = "tx_bytes",
    [TERN_NETIF_RX_NOMEM] = "rx_nomem",     [TERN_NETIF_RX_ERRORS] = "rx_errors",
    [TERN_NETIF_TX_ERRORS] = "tx_errors",   [TERN_NETIF_TX_INVALID] = "tx_invalid",
    [TERN_NETIF_TX_DOWN] = "tx_down",       [TERN_NETIF_TX_MERGED] = "tx_merged",
    [TERN_NETIF_EVENT_LOST] = "event_lost", [TERN_NETIF_RX_NOT_FOR_US] = "rx_not_for_us",
    [TERN_NETIF_RX_UNKNOWN_PROTO] = "rx_unknown_proto",
};

/* ------------------------------------------------------------ raw link */

static int raw_recv(tern_netif_t *netif, tern_pkt_t **pkt, tern_nettype_t *type, uint32_t *demux)
{
    (*pkt)->type = (uint8_t)netif->proto;
    *type = (tern_nettype_t)netif->proto;
    *demux = TERN_NETREG_DEMUX_CTX_ALL;
    return 0;
}

static int raw_send(tern_netif_t *netif, tern_pkt_t **pkt)
{
    /* No link header: the interface header simply goes. */
    *pkt = tern_pktbuf_remove_snip(&netif->module.stack->pktbuf, *pkt, *pkt);
    return 0;
}

const tern_netif_link_t tern_netif_link_raw = {
    .name = "raw",
    .recv = raw_recv,
    .send = raw_send,
};

/* ------------------------------------------------------------ receive */

/* Read one pending frame from the device and hand it up. */
static void netif_receive_frame(tern_netif_t *netif)
{
    tern_netdev_t *dev = netif->dev;
    tern_stack_t *stack = netif->module.stack;
    int len = dev->driver->recv(dev, NULL, 0, NULL);
    if (len <= 0) {
        if (len < 0) {
            tern_count(&netif->counters[TERN_NETIF_RX_ERRORS]);
        }
        return;
    }
    tern_pkt_t *hdr = tern_netif_hdr_build(&stack->pktbuf, NULL, NULL, 0, NULL, 0);
    tern_pkt_t *frame = (hdr != NULL)
                            ? tern_pktbuf_add(&stack->pktbuf, hdr, NULL, (size_t)len, TERN_NETTYPE_RAW)
                            : NULL;
    if (frame == NULL) {
        /* No room: the frame must still leave the device, or it blocks the next. */
        tern_pktbuf_release(&stack->pktbuf, hdr);
        (void)dev->driver->recv(dev, NULL, (size_t)len, NULL);
        tern_count(&netif->counters[TERN_NETIF_RX_NOMEM]);
        return;
    }
    tern_netdev_rx_info_t info = { 0 };
    int got = dev->driver->recv(dev, frame->data, frame->size, &info);
    if (got < 0 || got > len) {
        tern_pktbuf_release(&stack->pktbuf, frame);
        tern_count(&netif->counters[TERN_NETIF_RX_ERRORS]);
        return;
    }
    if (got < len) {
        (void)tern_pktbuf_realloc_data(&stack->pktbuf, frame, (size_t)got);
    }
    tern_netif_hdr_t *nh = hdr->data;
    nh->if_index = netif->index;
    nh->rssi = info.rssi;
    nh->lqi = info.lqi;

    if (netif->capture != NULL) {
        const tern_iolist_t iol = { .base = frame->data, .len = (size_t)got };
        netif->capture(netif->capture_ctx, &iol, 1, false);
    }

    tern_nettype_t type = TERN_NETTYPE_UNDEF;
    uint32_t demux = TERN_NETREG_DEMUX_CTX_ALL;
    int verdict = netif->link->recv(netif, &frame, &type, &demux);
    if (verdict < 0) {
        tern_pktbuf_release(&stack->pktbuf, frame);
        unsigned counter = (verdict == -EADDRNOTAVAIL)     ? TERN_NETIF_RX_NOT_FOR_US
                           : (verdict == -EPROTONOSUPPORT) ? TERN_NETIF_RX_UNKNOWN_PROTO
                           : (verdict == -ENOMEM)          ? TERN_NETIF_RX_NOMEM
                                                           : TERN_NETIF_RX_ERRORS;
        tern_count(&netif->counters[counter]);
        return;
    }
    tern_count(&netif->counters[TERN_NETIF_RX_PACKETS]);
    __atomic_fetch_add(&netif->counters[TERN_NETIF_RX_BYTES], (uint32_t)got, __ATOMIC_RELAXED);
    (void)tern_netapi_dispatch_receive(stack, type, demux, frame);
}

/* Device event callback. ISR may come from interrupt context or another
 * thread: only post (once). Other events come from inside isr(), on the
 * interface's own turn. */
static void netif_event_cb(tern_netdev_t *dev, tern_netdev_event_t event)
{
    tern_netif_t *netif = dev->context;
    switch (event) {
    case TERN_NETDEV_EVENT_ISR: {
        if (__atomic_exchange_n(&netif->event_pending, 1u, __ATOMIC_ACQ_REL) != 0) {
            return; /* one message is enough: isr() handles everything pending */
        }
        /* Straight to the executor, not through netapi: this may run in an
         * interrupt or on a driver thread, where the trace must not be
         * written. The handler records the hop instead. */
        tern_module_t *m = &netif->module;
        tern_msg_t msg = { .type = TERN_MSG_NETDEV, .sender = NULL, .content.ptr = dev };
        if (m->exec == NULL || m->exec->ops->post(m->exec, m, &msg) < 0) {
            __atomic_store_n(&netif->event_pending, 0u, __ATOMIC_RELEASE);
            tern_count(&netif->counters[TERN_NETIF_EVENT_LOST]);
        }
        break;
    }
    case TERN_NETDEV_EVENT_RX_COMPLETE:
        netif_receive_frame(netif);
        break;
    case TERN_NETDEV_EVENT_TX_NOACK:
    case TERN_NETDEV_EVENT_TX_MEDIUM_BUSY:
        tern_count(&netif->counters[TERN_NETIF_TX_ERRORS]);
        break;
    case TERN_NETDEV_EVENT_LINK_UP:
        netif->up = true;
        break;
    case TERN_NETDEV_EVENT_LINK_DOWN:
        netif->up = false;
        break;
    default:
        break;
    }
}

/* ------------------------------------------------------------ send */

static void netif_send_packet(tern_netif_t *netif, tern_pkt_t *pkt)
{
    tern_pktbuf_t *pb = &netif->module.stack->pktbuf;
    if (!netif->up) {
        tern_count(&netif->counters[TERN_NETIF_TX_DOWN]);
        tern_pktbuf_release_error(pb, pkt, -ENETDOWN);
        return;
    }
    /* The header is rewritten: the packet must be ours alone. */
    tern_pkt_t *own = tern_pktbuf_start_write(pb, pkt);
    if (own == NULL) {
        tern_count(&netif->counters[TERN_NETIF_TX_ERRORS]);
        tern_pktbuf_release_error(pb, pkt, -ENOMEM);
        return;
    }
    pkt = own;
    if (pkt->type != TERN_NETTYPE_NETIF || netif->link->send(netif, &pkt) < 0) {
        tern_count(&netif->counters[TERN_NETIF_TX_INVALID]);
        tern_pktbuf_release_error(pb, pkt, -EINVAL);
        return;
    }
    tern_iolist_t iol[TERN_CONF_NETIF_IOLIST_MAX];
    tern_pkt_t *flat = NULL;
    int n = tern_pkt_to_iolist(pkt, iol, TERN_CONF_NETIF_IOLIST_MAX);
    if (n == -ENOBUFS) {
        /* Too many snips for one scatter list: send a flat copy (rare; counted).
         * The original stays held until the send is done, for its error report. */
        tern_count(&netif->counters[TERN_NETIF_TX_MERGED]);
        flat = tern_pktbuf_add(pb, NULL, NULL, tern_pkt_len(pkt), TERN_NETTYPE_RAW);
        n = (flat != NULL && tern_pkt_copy_out(pkt, flat->data, flat->size) >= 0)
                ? tern_pkt_to_iolist(flat, iol, TERN_CONF_NETIF_IOLIST_MAX)
                : -ENOMEM;
    }
    int res = (n < 0) ? n : netif->dev->driver->send(netif->dev, iol, (size_t)n);
    if (res >= 0 && netif->capture != NULL) {
        netif->capture(netif->capture_ctx, iol, (size_t)n, true);
    }
    tern_pktbuf_release(pb, flat);
    if (res < 0) {
        tern_count(&netif->counters[TERN_NETIF_TX_ERRORS]);
        tern_pktbuf_release_error(pb, pkt, res);
        return;
    }
    tern_count(&netif->counters[TERN_NETIF_TX_PACKETS]);
    __atomic_fetch_add(&netif->counters[TERN_NETIF_TX_BYTES], (uint32_t)res, __ATOMIC_RELAXED);
    tern_pktbuf_release_error(pb, pkt, 0);
}

/* ------------------------------------------------------------ options */

static int netif_get(tern_netif_t *netif, tern_netapi_opt_t *opt)
{
    switch (opt->opt) {
    case TERN_NETOPT_ADDRESS:
        if (opt->data_len < netif->l2addr_len) {
            return -EOVERFLOW;
        }
        memcpy(opt->data, netif->l2addr, netif->l2addr_len);
        return netif->l2addr_len;
    case TERN_NETOPT_ADDR_LEN:
        return tern_netopt_put_u16(opt->data, opt->data_len, netif->l2addr_len);
    case TERN_NETOPT_MAX_PDU_SIZE:
        return tern_netopt_put_u16(opt->data, opt->data_len, netif->mtu);
    case TERN_NETOPT_PROTO:
        return tern_netopt_put_u16(opt->data, opt->data_len, netif->proto);
    case TERN_NETOPT_STATE:
        if (opt->data_len < 1) {
            return -EOVERFLOW;
        }
        *(uint8_t *)opt->data = netif->up ? 1u : 0u;
        return 1;
    case TERN_NETOPT_CAPTURE: {
        if (opt->data_len < sizeof(tern_netif_capture_t)) {
            return -EOVERFLOW;
        }
        const tern_netif_capture_t cap = { .fn = netif->capture, .ctx = netif->capture_ctx };
        memcpy(opt->data, &cap, sizeof(cap));
        return (int)sizeof(cap);
    }
    case TERN_NETOPT_STATS: {
        if (opt->data_len < sizeof(tern_netif_stats_t)) {
            return -EOVERFLOW;
        }
        tern_netif_stats_t stats;
        for (unsigned i = 0; i < TERN_NETIF_STAT_NUMOF; i++) {
            stats.counters[i] = tern_count_read(&netif->counters[i]);
        }
        memcpy(opt->data, &stats, sizeof(stats));
        return (int)sizeof(stats);
    }
    default: {
        int res = (netif->link->get != NULL) ? netif->link->get(netif, opt) : -ENOTSUP;
        if (res != -ENOTSUP) {
            return res;
        }
        return netif->dev->driver->get(netif->dev, opt->opt, opt->data, opt->data_len);
    }
    }
}

static int netif_set(tern_netif_t *netif, tern_netapi_opt_t *opt)
{
    switch (opt->opt) {
    case TERN_NETOPT_PROTO: {
        uint16_t proto;
        if (tern_netopt_take_u16(opt->data, opt->data_len, &proto) < 0 ||
            proto >= TERN_NETTYPE_NUMOF) {
            return -EINVAL;
        }
        netif->proto = proto;
        return 2;
    }
    case TERN_NETOPT_STATE:
        if (opt->data_len != 1) {
            return -EINVAL;
        }
        netif->up = (*(const uint8_t *)opt->data != 0);
        return 1;
    case TERN_NETOPT_ADDRESS: {
        if (opt->data_len > TERN_CONF_L2ADDR_MAX) {
            return -EINVAL;
        }
        int res = netif->dev->driver->set(netif->dev, opt->opt, opt->data, opt->data_len);
        if (res >= 0) {
            memcpy(netif->l2addr, opt->data, opt->data_len);
            netif->l2addr_len = (uint8_t)opt->data_len;
        }
        return res;
    }
    case TERN_NETOPT_CAPTURE: {
        /* Set on the interface's own turn: no frame is being captured now, so
         * once the SET returns the old hook is never called again. */
        tern_netif_capture_t cap;
        if (opt->data_len != sizeof(cap)) {
            return -EINVAL;
        }
        memcpy(&cap, opt->data, sizeof(cap));
        netif->capture = cap.fn;
        netif->capture_ctx = cap.ctx;
        return (int)sizeof(cap);
    }
    case TERN_NETOPT_STATS:
    case TERN_NETOPT_ADDR_LEN:
        return -ENOTSUP; /* read-only here */
    default: {
        int res = (netif->link->set != NULL) ? netif->link->set(netif, opt) : -ENOTSUP;
        if (res != -ENOTSUP) {
            return res;
        }
        return netif->dev->driver->set(netif->dev, opt->opt, opt->data, opt->data_len);
    }
    }
}

/* ------------------------------------------------------------ module */

static int netif_handle(tern_module_t *self, tern_msg_t *msg)
{
    tern_netif_t *netif = self->context;
    switch (msg->type) {
    case TERN_MSG_NETDEV:
        tern_netapi_trace_hop(self, msg, 0);
        /* Clear first: an interrupt arriving during isr() posts again. */
        __atomic_store_n(&netif->event_pending, 0u, __ATOMIC_RELEASE);
        netif->dev->driver->isr(netif->dev);
        return 0;
    case TERN_MSG_SND:
        netif_send_packet(netif, msg->content.pkt);
        return 0;
    case TERN_MSG_RCV:
        /* Nothing comes up into an interface from above: drop, counted. */
        tern_count(&netif->counters[TERN_NETIF_TX_INVALID]);
        tern_pktbuf_release(&self->stack->pktbuf, msg->content.pkt);
        return 0;
    case TERN_MSG_GET:
        return netif_get(netif, msg->content.opt);
    case TERN_MSG_SET:
        return netif_set(netif, msg->content.opt);
    default:
        return -ENOTSUP;
    }
}

int tern_netif_add(tern_stack_t *stack, tern_netif_t *netif, const char *name, tern_netdev_t *dev,
                   const tern_netif_link_t *link, tern_nettype_t proto)
{
    return tern_netif_add_ctx(stack, netif, name, dev, link, NULL, proto);
}

int tern_netif_add_ctx(tern_stack_t *stack, tern_netif_t *netif, const char *name, tern_netdev_t *dev,
                       const tern_netif_link_t *link, void *link_ctx, tern_nettype_t proto)
{
    if (stack == NULL || netif == NULL || name == NULL || dev == NULL || dev->driver == NULL ||
        link == NULL || (unsigned)proto >= TERN_NETTYPE_NUMOF) {
        return -EINVAL;
    }
    memset(netif, 0, sizeof(*netif));
    size_t name_len = strlen(name);
    if (name_len >= sizeof(netif->name)) {
        name_len = sizeof(netif->name) - 1u;
    }
    memcpy(netif->name, name, name_len);
    netif->dev = dev;
    netif->link = link;
    netif->link_ctx = link_ctx;
    netif->proto = (uint16_t)proto;
    netif->up = true;
    dev->event_cb = netif_event_cb;
    dev->context = netif;

    int res = tern_module_init(&netif->module, netif->name, NETIF_PRIORITY, netif_handle, netif,
                               netif->queue, TERN_CONF_MODULE_QUEUE_LEN);
    if (res < 0) {
        return res;
    }
    res = dev->driver->init(dev);
    if (res < 0) {
        return res;
    }
    uint16_t mtu = 0;
    if (dev->driver->get(dev, TERN_NETOPT_MAX_PDU_SIZE, &mtu, sizeof(mtu)) == (int)sizeof(mtu)) {
        netif->mtu = mtu;
    }
    res = dev->driver->get(dev, TERN_NETOPT_ADDRESS, netif->l2addr, sizeof(netif->l2addr));
    netif->l2addr_len = (res > 0) ? (uint8_t)res : 0u;

    netif->index = (uint16_t)(stack->netif_count + 1u);
    res = tern_stack_add_module(stack, &netif->module);
    if (res < 0) {
        return res;
    }
    stack->netif_count++;
    tern_netif_t **link_ptr = &stack->netifs;
    while (*link_ptr != NULL) {
        link_ptr = &(*link_ptr)->next;
    }
    *link_ptr = netif;

    netif->stats_group.name = netif->name;
    netif->stats_group.names = netif_counter_names;
    netif->stats_group.values = netif->counters;
    netif->stats_group.count = TERN_NETIF_STAT_NUMOF;
    tern_stack_add_stats(stack, &netif->stats_group);
    /* Poll the device once on the interface's first turn: an interrupt raised
     * before the module was attached was lost (counted), and a driver thread
     * may wait for this first isr() before raising any (tap.c), so that its
     * posts come strictly after the attach. */
    netif_event_cb(dev, TERN_NETDEV_EVENT_ISR);
    return 0;
}

tern_netif_t *tern_netif_by_index(tern_stack_t *stack, uint16_t index)
{
    for (tern_netif_t *n = stack->netifs; n != NULL; n = n->next) {
        if (n->index == index) {
            return n;
        }
    }
    return NULL;
}

tern_netif_t *tern_netif_by_name(tern_stack_t *stack, const char *name)
{
    for (tern_netif_t *n = stack->netifs; n != NULL; n = n->next) {
        if (strcmp(n->name, name) == 0) {
            return n;
        }
    }
    return NULL;
}

int tern_netif_send(tern_stack_t *stack, tern_pkt_t *pkt)
{
    if (stack == NULL || pkt == NULL) {
        return -EINVAL;
    }
    tern_netif_hdr_t *hdr = tern_netif_hdr_get(pkt);
    tern_netif_t *netif = (hdr != NULL) ? tern_netif_by_index(stack, hdr->if_index) : NULL;
    if (netif == NULL) {
        tern_count(&stack->netapi_drops[TERN_NETAPI_DROP_INVALID]);
        tern_pktbuf_release(&stack->pktbuf, pkt);
        return -ENODEV;
    }
    return tern_netapi_send(&netif->module, pkt);
}
