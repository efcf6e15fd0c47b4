/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Benchmarks: the node (see bench_node.h).
 */
#include "bench_node.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tern/netapi.h"
#include "tern/wire/ieee802154.h"

const uint8_t BENCH_NODE_EUI[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x01 };
const uint8_t BENCH_PEER_EUI[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x02 };

/** PAN ID and channel of the radio (any valid ones). */
#define BENCH_PAN 0x0023u
#define BENCH_CHANNEL 26u

uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t bench_percentile_sorted(const uint64_t *v, size_t n, unsigned p)
{
    if (n == 0) {
        return 0;
    }
    size_t i = (n - 1u) * p / 100u;
    return v[i];
}

uint64_t bench_median(uint64_t *v, size_t n)
{
    if (n == 0) {
        return 0;
    }
    qsort(v, n, sizeof(*v), cmp_u64);
    return (n & 1u) ? v[n / 2u] : (v[n / 2u - 1u] + v[n / 2u]) / 2u;
}

int bench_frame_swap(const uint8_t *frame, size_t len, uint8_t seq, uint8_t *out, size_t cap)
{
    tern_ieee802154_repr_t h;
    int hl = tern_ieee802154_parse(&h, frame, len);
    if (hl < 0) {
        return hl;
    }
    if (h.src.len != TERN_IEEE802154_EXT_ADDR_LEN || h.dst.len != TERN_IEEE802154_EXT_ADDR_LEN || len > cap) {
        return -EINVAL;
    }
    tern_ieee802154_addr_t a = h.src;
    h.src = h.dst;
    h.dst = a;
    h.seq = seq;
    int ol = tern_ieee802154_emit(&h, len - (size_t)hl, out, cap);
    if (ol != hl) {
        return ol < 0 ? ol : -EINVAL;
    }
    memcpy(out + hl, frame + hl, len - (size_t)hl);
    return (int)len;
}

/* ------------------------------------------------------------ the radio */

/* The radio does CSMA-CA and retransmissions itself, as 802.15.4 transceivers
 * with an extended operating mode do (AT86RF2xx TX_ARET): the interface hands it
 * each frame at once, without its software backoff timer (netif.h). */
static int radio_get(tern_netdev_test_t *dev, tern_netopt_t opt, void *value, size_t max_len)
{
    bench_node_t *node = dev->state;
    if (opt == TERN_NETOPT_HW_CSMA_RETRIES) {
        if (max_len < 1u) {
            return -EOVERFLOW;
        }
        *(uint8_t *)value = 1;
        return 1;
    }
    return tern_ieee802154_pib_get(&node->pib, opt, value, max_len);
}

static int radio_set(tern_netdev_test_t *dev, tern_netopt_t opt, const void *value, size_t len)
{
    bench_node_t *node = dev->state;
    return tern_ieee802154_pib_set(&node->pib, opt, value, len);
}

/* A radio that transmits at once: the outcome (TX_COMPLETE, the hardware
 * having sent the frame and had it acknowledged) is reported from inside
 * send(), which the interface notes for the frame in flight (netif.c,
 * netif_tx_attempt), so the next frame can follow on the same turn. */
static int radio_send(tern_netdev_test_t *dev, const tern_iolist_t *iol, size_t count)
{
    bench_node_t *node = dev->state;
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iol[i].len;
    }
    if (len > BENCH_FRAME_MAX) {
        return -EMSGSIZE;
    }
    if (node->on_frame != NULL) {
        node->on_frame(node, iol, count);
    }
    dev->frames_sent++;
    dev->bytes_sent += (uint32_t)len;
    tern_netdev_report(&dev->netdev, TERN_NETDEV_EVENT_TX_COMPLETE);
    return (int)len;
}

/* The reflector (seed 001 §5.1): every frame sent comes straight back,
 * addressed to the sender, as if the peer had echoed it at layer 2. */
static int reflector_send(tern_netdev_test_t *dev, const tern_iolist_t *iol, size_t count)
{
    bench_node_t *node = dev->state;
    uint8_t flat[BENCH_FRAME_MAX];
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        if (len + iol[i].len > sizeof(flat)) {
            return -EMSGSIZE;
        }
        memcpy(flat + len, iol[i].base, iol[i].len);
        len += iol[i].len;
    }
    if (node->refl_count == BENCH_FRAMES_MAX * 2u) {
        node->refl_dropped++;
    } else {
        unsigned slot = (node->refl_head + node->refl_count) % (BENCH_FRAMES_MAX * 2u);
        int res = bench_frame_swap(flat, len, node->rx_seq++, node->refl[slot], BENCH_FRAME_MAX);
        if (res > 0) {
            node->refl_len[slot] = (size_t)res;
            node->refl_count++;
        } else {
            node->refl_ignored++; /* broadcast (RS, MLD report): nobody answers those */
        }
    }
    dev->frames_sent++;
    dev->bytes_sent += (uint32_t)len;
    tern_netdev_report(&dev->netdev, TERN_NETDEV_EVENT_TX_COMPLETE);
    tern_netdev_test_interrupt(dev);
    return (int)len;
}

static void reflector_isr(tern_netdev_test_t *dev)
{
    bench_node_t *node = dev->state;
    while (node->refl_count > 0) {
        unsigned before = node->refl_count;
        tern_netdev_report(&dev->netdev, TERN_NETDEV_EVENT_RX_COMPLETE);
        if (node->refl_count == before) {
            break; /* the interface did not read it (no memory): drop it */
        }
    }
    node->refl_count = 0;
}

static int reflector_recv(tern_netdev_test_t *dev, void *buf, size_t len, tern_netdev_rx_info_t *info)
{
    bench_node_t *node = dev->state;
    if (node->refl_count == 0) {
        return 0;
    }
    size_t flen = node->refl_len[node->refl_head];
    if (buf == NULL && len == 0) {
        return (int)flen;
    }
    int res = (int)flen;
    if (buf != NULL) {
        if (len < flen) {
            res = -ENOBUFS;
        } else {
            memcpy(buf, node->refl[node->refl_head], flen);
            if (info != NULL) {
                info->rssi = 0;
                info->lqi = 0xff;
            }
        }
    }
    node->refl_head = (node->refl_head + 1u) % (BENCH_FRAMES_MAX * 2u);
    node->refl_count--;
    return res;
}

/* ------------------------------------------------------------ set-up */

int bench_node_run_for(bench_node_t *node, uint64_t us)
{
    return tern_executor_run_until(node->exec, node->vclock.now + us);
}

/* The node's or the peer's address in BENCH_RPL_PREFIX/64, IID from @p eui (RFC 4944 §6). */
static int rpl_global_addr(tern_ipv6_addr_t *addr, const uint8_t *eui)
{
    static const char prefix[] = BENCH_RPL_PREFIX;
    int res = tern_ipv6_addr_from_str(addr, prefix, sizeof(prefix) - 1u);
    return res < 0 ? res : tern_ipv6_iid_from_l2addr(addr, eui, 8);
}

/* The RPL set-up (thesis 5.3.2: the node is the RPL root and has a global
 * prefix): a global address BENCH_RPL_PREFIX::IID/64 on the radio, the RPL
 * module running on it as root of a grounded DODAG named by that address
 * (RFC 6550 §8.2.2.2; the IPv6 module becomes a router, advertises the /64
 * and takes it as 6LoWPAN context 0, RFC 6775 §4.2), and the peer's global
 * address BENCH_RPL_PREFIX::IID(peer) reached through a /128 route via its
 * link-local address, origin "routing" as a DAO installs it (§9.8). */
static int rpl_root_setup(bench_node_t *node)
{
    int res = tern_rpl_netif_enable(&node->rpl, &node->netif);
    if (res == 0) {
        res = tern_executor_run_until_idle(node->exec); /* the module takes the interface on its turn */
    }
    tern_ipv6_addr_config_t own = { .prefix_len = 64 };
    if (res == 0) {
        res = rpl_global_addr(&own.addr, BENCH_NODE_EUI);
    }
    if (res == 0) {
        res = tern_netapi_set(&node->ip.module, TERN_NETOPT_IPV6_ADDR_ADD, node->netif.index, &own, sizeof(own));
        res = res < 0 ? res : 0;
    }
    if (res == 0) {
        res = tern_rpl_set_root(&node->rpl, (uint8_t)BENCH_RPL_INSTANCE, &own.addr);
    }
    tern_ipv6_route_config_t route = { .prefix_len = 128, .origin = TERN_FIB_ROUTING };
    if (res == 0) {
        res = rpl_global_addr(&route.prefix, BENCH_PEER_EUI);
    }
    if (res == 0) {
        route.next_hop = (tern_ipv6_addr_t){ { 0xfe, 0x80 } };
        res = tern_ipv6_iid_from_l2addr(&route.next_hop, BENCH_PEER_EUI, 8);
    }
    if (res == 0) {
        res = tern_netapi_set(&node->ip.module, TERN_NETOPT_IPV6_ROUTE_ADD, node->netif.index, &route,
                              sizeof(route));
        res = res < 0 ? res : 0;
    }
    node->remote.addr = route.prefix;
    return res;
}

static const char *const exec_names[] = {
    [BENCH_EXEC_LOOP] = "loop",
    [BENCH_EXEC_LOOP_POSIX] = "loop-posix",
    [BENCH_EXEC_THREADED] = "threaded",
};

int bench_exec_parse(const char *name, bench_exec_t *out)
{
    for (size_t i = 0; i < sizeof(exec_names) / sizeof(exec_names[0]); i++) {
        if (strcmp(name, exec_names[i]) == 0) {
            *out = (bench_exec_t)i;
            return 0;
        }
    }
    return -EINVAL;
}

const char *bench_exec_name(bench_exec_t exec)
{
    return exec_names[exec];
}

int bench_node_setup(bench_node_t *node, bench_dev_kind_t kind, bench_exec_t exec, bool rpl, tern_sock_udp_cb_t cb,
                     void *arg)
{
    memset(node, 0, sizeof(*node));
    if (rpl && kind != BENCH_DEV_RADIO) {
        return -EINVAL;
    }
    node->kind = kind;
    node->with_rpl = rpl;
    node->exec_kind = exec;
    tern_vclock_init(&node->vclock, 1000000u);
    if (exec == BENCH_EXEC_THREADED) {
        int r = tern_threaded_init(&node->threaded, &node->vclock.base);
        if (r < 0) {
            return r;
        }
        node->exec = &node->threaded.base;
    } else {
        tern_loop_init(&node->loop, &node->vclock.base);
        node->exec = &node->loop.base;
        if (exec == BENCH_EXEC_LOOP_POSIX) {
            /* The virtual clock still rules: an idle loop jumps to its next
             * timer and never sleeps in the platform's wait(). */
            int r = tern_posix_loop_bind(&node->loop, &node->loop_sync);
            if (r < 0) {
                return r;
            }
        }
    }
    int res = tern_stack_init(&node->stack, "bench", node->exec);
    if (res == 0) {
        res = tern_ipv6_init(&node->ip, &node->stack);
    }
    if (res == 0) {
        res = tern_udp_init(&node->udp, &node->stack, &node->ip);
    }
    if (res == 0 && kind != BENCH_DEV_LOOPBACK) {
        res = tern_sixlowpan_init(&node->lowpan, &node->stack);
    }
    if (res == 0 && rpl) {
        res = tern_rpl_init(&node->rpl, &node->stack, &node->ip);
    }
    if (res == 0 && kind == BENCH_DEV_LOOPBACK) {
        tern_netdev_loopback_init(&node->lo);
        res = tern_netif_add(&node->stack, &node->netif, "lo", &node->lo.netdev, &tern_netif_link_raw,
                             TERN_NETTYPE_IPV6);
    } else if (res == 0) {
        tern_netdev_test_init(&node->radio);
        tern_ieee802154_pib_init(&node->pib, BENCH_NODE_EUI, BENCH_PAN, BENCH_CHANNEL);
        node->radio.state = node;
        node->radio.get_cb = radio_get;
        node->radio.set_cb = radio_set;
        node->radio.device_type = TERN_NETDEV_TYPE_IEEE802154;
        if (kind == BENCH_DEV_REFLECTOR) {
            node->radio.send_cb = reflector_send;
            node->radio.recv_cb = reflector_recv;
            node->radio.isr_cb = reflector_isr;
        } else {
            node->radio.send_cb = radio_send;
        }
        res = tern_ieee802154_netif_add(&node->stack, &node->netif, &node->mac, "wpan0", &node->radio.netdev);
        if (res == 0) {
            res = tern_sixlowpan_netif_attach(&node->lowpan, &node->netif);
        }
    }
    if (res == 0) {
        res = tern_ipv6_netif_enable(&node->ip, &node->netif);
    }
    if (res == 0) {
        res = tern_executor_run_until_idle(node->exec); /* IPv6 takes the interface on its turn */
    }
    memset(&node->remote, 0, sizeof(node->remote));
    node->remote.port = BENCH_PORT;
    node->remote.netif = node->netif.index;
    if (res == 0 && kind == BENCH_DEV_LOOPBACK) {
        /* ::1 never arrives from a link (RFC 4291 §2.5.3; ipv6.c drops it): a
         * unique local address of the loopback interface stands for it. */
        tern_ipv6_addr_config_t cfg = { .prefix_len = 128 };
        static const char ula[] = "fd00::1";
        res = tern_ipv6_addr_from_str(&cfg.addr, ula, sizeof(ula) - 1u);
        if (res == 0) {
            res = tern_netapi_set(&node->ip.module, TERN_NETOPT_IPV6_ADDR_ADD, node->netif.index, &cfg,
                                  sizeof(cfg));
            res = res < 0 ? res : 0;
        }
        node->remote.addr = cfg.addr;
    } else if (res == 0) {
        /* fe80::IID(peer): fully elided by IPHC, resolved from its IID (RFC 6775 §5.6). */
        tern_ipv6_addr_t ll = { { 0xfe, 0x80 } };
        res = tern_ipv6_iid_from_l2addr(&ll, BENCH_PEER_EUI, 8);
        node->remote.addr = ll;
    }
    if (res == 0 && rpl) {
        res = rpl_root_setup(node);
    }
    if (res == 0) {
        tern_sock_udp_ep_t local = { .port = BENCH_PORT };
        res = tern_sock_udp_create(&node->sock, &node->stack, NULL, &node->udp, &local, NULL, 0);
    }
    if (res == 0) {
        res = tern_sock_udp_set_cb(&node->sock, cb, arg);
    }
    if (res == 0) {
        res = bench_node_run_for(node, 2000000u);
    }
    return res;
}

int bench_node_teardown(bench_node_t *node)
{
    tern_sock_udp_close(&node->sock);
    if (node->with_rpl) {
        (void)tern_rpl_stop(&node->rpl);
    }
    (void)bench_node_run_for(node, (uint64_t)TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS * 1000u + 1000000u);
    tern_executor_stop(node->exec);
    if (node->exec_kind == BENCH_EXEC_LOOP_POSIX) {
        tern_posix_loop_sync_destroy(&node->loop_sync);
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_IFS; i++) {
        for (size_t k = 0; k < TERN_CONF_NC_SIZE && node->ip.ifs[i].netif != NULL; k++) {
            tern_nc_entry_t *e = &node->ip.ifs[i].nc.entries[k];
            for (size_t q = 0; q < e->queued; q++) {
                tern_pktbuf_release(&node->stack.pktbuf, e->queue[q]);
            }
            e->queued = 0;
        }
    }
    return (tern_pktbuf_check(&node->stack.pktbuf) == 0 && tern_pktbuf_is_empty(&node->stack.pktbuf)) ? 0 : -EIO;
}
