/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Footprint application (issue 6 item 3; thesis 5.3.3, seed 001
 *        Table 3): a 6LoWPAN node on a Cortex-M3 with a stub radio driver
 *        and the event-loop executor.
 *
 * Configuration (a), the default: 6LoWPAN host: IPv6, ICMPv6, 6Lo-ND host
 * (RFC 6775/8505), 6LoWPAN (IPHC, NHC, fragmentation, reassembly), UDP,
 * sock_udp. With -DBENCH_ROUTER=1, configuration (b): (a) plus the RPL
 * module (RFC 6550, storing mode), started as root of a grounded DODAG
 * named by the node's global address 2001:db8::IID/64; the RPL root makes
 * the node an IPv6 router (RFC 4861 router NDP, 6Lo-ND router: RFC 6775
 * §6), so both are linked and running. The application echoes every UDP
 * datagram (so the send and receive paths are both reachable) and closes
 * and re-opens its socket on a request, so that every sock_udp function is
 * kept by --gc-sections, as the thesis's application did.
 *
 * The radio driver is a stub: it keeps the 802.15.4 attributes (the shared
 * PIB code every radio driver uses), does CSMA-CA and retransmissions "in
 * hardware" (TERN_NETOPT_HW_CSMA_RETRIES), takes frames and reports their
 * completion, and hands up frames a real driver would find in its FIFO
 * (rx_fifo, filled by the radio interrupt). The loop is bound to a
 * bare-metal platform (PRIMASK as its queue lock, wfi to idle), so that the
 * radio interrupt may post to it. SysTick advances the clock by 1 ms.
 * Vector table and reset handler at the end: enough to link a complete
 * image, not to run on a board.
 */
#ifndef BENCH_ROUTER
#define BENCH_ROUTER 0
#endif

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/clock.h"
#include "tern/ipv6/ipv6.h"
#include "tern/link/ieee802154.h"
#include "tern/netdev/ieee802154_pib.h"
#include "tern/netapi.h"
#include "tern/port/loop.h"
#if BENCH_ROUTER
#include "tern/rpl/rpl.h"
#endif
#include "tern/sixlowpan/sixlowpan.h"
#include "tern/sock_udp.h"
#include "tern/udp.h"

#define ECHO_PORT 0xF0B1u

/* ------------------------------------------------------------ stub radio */

typedef struct {
    tern_netdev_t netdev;
    tern_ieee802154_pib_t pib;
    volatile bool tx_done;        /* the frame in flight went out */
    volatile uint8_t rx_len;      /* bytes in the receive FIFO; 0: empty */
    uint8_t rx_fifo[127];         /* the transceiver's frame buffer */
} stub_radio_t;

static int stub_send(tern_netdev_t *dev, const tern_iolist_t *iolist, size_t count)
{
    stub_radio_t *r = (stub_radio_t *)dev;
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iolist[i].len;
    }
    r->tx_done = true;
    tern_netdev_report(dev, TERN_NETDEV_EVENT_ISR);
    return (int)len;
}

static int stub_recv(tern_netdev_t *dev, void *buf, size_t len, tern_netdev_rx_info_t *info)
{
    stub_radio_t *r = (stub_radio_t *)dev;
    size_t pending = r->rx_len;
    if (buf == NULL && len == 0) {
        return (int)pending;
    }
    if (buf != NULL && len >= pending) {
        memcpy(buf, r->rx_fifo, pending);
        if (info != NULL) {
            info->rssi = 0;
            info->lqi = 0xff;
        }
    }
    r->rx_len = 0;
    return (buf != NULL && len < pending) ? -ENOBUFS : (int)pending;
}

static int stub_init(tern_netdev_t *dev)
{
    (void)dev;
    return 0;
}

static void stub_isr(tern_netdev_t *dev)
{
    stub_radio_t *r = (stub_radio_t *)dev;
    if (r->tx_done) {
        r->tx_done = false;
        tern_netdev_report(dev, TERN_NETDEV_EVENT_TX_COMPLETE);
    }
    if (r->rx_len > 0) {
        tern_netdev_report(dev, TERN_NETDEV_EVENT_RX_COMPLETE);
    }
}

static int stub_get(tern_netdev_t *dev, tern_netopt_t opt, void *value, size_t max_len)
{
    if (opt == TERN_NETOPT_HW_CSMA_RETRIES) {
        /* The transceiver does CSMA-CA and retransmissions (tern_conf_host.h:
         * TERN_CONF_NETIF_SW_CSMA 0), as an AT86RF2xx in extended operating mode. */
        if (max_len < 1u) {
            return -EOVERFLOW;
        }
        *(uint8_t *)value = 1u;
        return 1;
    }
    return tern_ieee802154_pib_get(&((stub_radio_t *)dev)->pib, opt, value, max_len);
}

static int stub_set(tern_netdev_t *dev, tern_netopt_t opt, const void *value, size_t len)
{
    return tern_ieee802154_pib_set(&((stub_radio_t *)dev)->pib, opt, value, len);
}

static const tern_netdev_driver_t stub_driver = {
    .send = stub_send, .recv = stub_recv, .init = stub_init, .isr = stub_isr, .get = stub_get, .set = stub_set,
};

/* ------------------------------------------------------------ the node */

static struct {
    tern_vclock_t clock;
    tern_loop_t loop;
    tern_stack_t stack;
    tern_ipv6_t ipv6;
    tern_udp_t udp;
    tern_sixlowpan_t lowpan;
#if BENCH_ROUTER
    tern_rpl_t rpl;
#endif
    stub_radio_t radio;
    tern_ieee802154_link_t mac;
    tern_netif_t netif;
    tern_sock_udp_t sock;
    uint32_t primask; /* PRIMASK saved by the queue lock (irq_lock()) */
} node;

/* ------------------------------------------------------------ bare-metal loop platform */

/* The radio interrupt posts to the loop (tern_netdev_report() from
 * radio_irq_handler()): the loop's queues need a lock that keeps the interrupt
 * out while thread mode changes them (port/loop/include/tern/port/loop.h).
 * On a single-core ARMv7-M that is PRIMASK: saved and set on acquire,
 * restored on release. One save slot is enough: while it is held, no other
 * holder can run (the interrupt is masked, and thread mode does not run
 * while the interrupt holds it). */
static void irq_lock(void *ctx)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
    *(uint32_t *)ctx = primask;
}

static void irq_unlock(void *ctx)
{
    __asm__ volatile("msr primask, %0" ::"r"(*(uint32_t *)ctx) : "memory");
}

/* Idle until an interrupt: a post comes from one, and SysTick wakes every ms. */
static void irq_wait(void *ctx, uint64_t deadline_us)
{
    (void)ctx;
    (void)deadline_us;
    __asm__ volatile("wfi" ::: "memory");
}

/* Thread mode (IPSR 0) runs the handlers; an interrupt handler is another context. */
static uintptr_t irq_context(void *ctx)
{
    (void)ctx;
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    return ipsr;
}

static const tern_loop_platform_t irq_platform = {
    .queue_lock = { .acquire = irq_lock, .release = irq_unlock, .ctx = &node.primask },
    .wait = irq_wait,
    .wake = NULL, /* the interrupt that posts ends any wfi itself */
    .context = irq_context,
    .ctx = NULL,
};

static void echo(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote, void *arg);

static int open_socket(void)
{
    tern_sock_udp_ep_t local = { .port = ECHO_PORT };
    int res = tern_sock_udp_create(&node.sock, &node.stack, &node.ipv6, &node.udp, &local, NULL, 0);
    return res < 0 ? res : tern_sock_udp_set_cb(&node.sock, echo, NULL);
}

/* Echo every datagram; "close" re-opens the socket; "addr" answers with its local endpoint. */
static void echo(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote, void *arg)
{
    (void)arg;
    if (len == 5 && memcmp(data, "close", 5) == 0) {
        tern_sock_udp_close(sock);
        (void)open_socket();
        return;
    }
    if (len == 4 && memcmp(data, "addr", 4) == 0) {
        tern_sock_udp_ep_t local;
        if (tern_sock_udp_get_local(sock, &local) == 0) {
            (void)tern_sock_udp_send(sock, &local, sizeof(local), remote);
        }
        return;
    }
    (void)tern_sock_udp_send(sock, data, len, remote);
}

#if BENCH_ROUTER
/* Configuration (b): RPL on the radio, the node the root of a DODAG named by
 * its global address (RFC 6550 §8.2.2.2); the IPv6 module becomes a router.
 * noinline: its address configuration is not kept in the frame of main(),
 * under everything the loop runs. */
__attribute__((noinline)) static int rpl_root_start(const uint8_t *eui64)
{
    int res = tern_rpl_init(&node.rpl, &node.stack, &node.ipv6);
    if (res == 0) {
        res = tern_rpl_netif_enable(&node.rpl, &node.netif);
    }
    tern_ipv6_addr_config_t own = { .addr = { { 0x20, 0x01, 0x0d, 0xb8 } }, .prefix_len = 64 };
    if (res == 0) {
        res = tern_ipv6_iid_from_l2addr(&own.addr, eui64, 8);
    }
    if (res == 0) {
        res = tern_netapi_set(&node.ipv6.module, TERN_NETOPT_IPV6_ADDR_ADD, node.netif.index, &own, sizeof(own));
        res = res < 0 ? res : 0;
    }
    if (res == 0) {
        (void)tern_executor_run_until_idle(&node.loop.base); /* the RPL module takes the interface on its turn */
        res = tern_rpl_set_root(&node.rpl, 1u, &own.addr);
    }
    return res;
}
#endif

static int node_setup(void)
{
    static const uint8_t eui64[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x01 };
    tern_vclock_init(&node.clock, 0);
    tern_loop_init(&node.loop, &node.clock.base);
    tern_loop_bind_platform(&node.loop, &irq_platform);
    int res = tern_stack_init(&node.stack, "m3", &node.loop.base);
    if (res == 0) {
        res = tern_ipv6_init(&node.ipv6, &node.stack);
    }
    if (res == 0) {
        res = tern_udp_init(&node.udp, &node.stack, &node.ipv6);
    }
    if (res == 0) {
        res = tern_sixlowpan_init(&node.lowpan, &node.stack);
    }
    if (res == 0) {
        node.radio.netdev.driver = &stub_driver;
        tern_ieee802154_pib_init(&node.radio.pib, eui64, 0x0023u, 26u);
        res = tern_ieee802154_netif_add(&node.stack, &node.netif, &node.mac, "wpan0", &node.radio.netdev);
    }
    if (res == 0) {
        res = tern_sixlowpan_netif_attach(&node.lowpan, &node.netif);
    }
    if (res == 0) {
        res = tern_ipv6_netif_enable(&node.ipv6, &node.netif);
    }
#if BENCH_ROUTER
    if (res == 0) {
        res = rpl_root_start(eui64);
    }
#endif
    if (res == 0) {
        res = open_socket();
    }
    return res;
}

int main(void);

int main(void)
{
    if (node_setup() < 0) {
        for (;;) {
        }
    }
    for (;;) {
        /* Sleep only if nothing came since the step found nothing: with the
         * interrupt masked, a post after the check still ends the wfi (a
         * pending interrupt wakes it), and runs when the mask is lifted. */
        if (tern_loop_step(&node.loop) == 0) {
            __asm__ volatile("cpsid i" ::: "memory");
            if (node.loop.pending == 0u) {
                __asm__ volatile("wfi" ::: "memory");
            }
            __asm__ volatile("cpsie i" ::: "memory");
        }
    }
}

/* ------------------------------------------------------------ interrupts, reset */

void SysTick_Handler(void);
void radio_irq_handler(void);
void Reset_Handler(void);
void Default_Handler(void);

void SysTick_Handler(void)
{
    tern_vclock_advance_to(&node.clock, node.clock.now + 1000u);
}

/* The transceiver's interrupt: a frame is in its FIFO, or a transmission ended. */
void radio_irq_handler(void)
{
    tern_netdev_report(&node.radio.netdev, TERN_NETDEV_EVENT_ISR);
}

void Default_Handler(void)
{
    for (;;) {
    }
}

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;

void Reset_Handler(void)
{
    memcpy(&_sdata, &_sidata, (size_t)((uintptr_t)&_edata - (uintptr_t)&_sdata));
    memset(&_sbss, 0, (size_t)((uintptr_t)&_ebss - (uintptr_t)&_sbss));
    (void)main();
    for (;;) {
    }
}

typedef void (*vector_t)(void);

/* ARMv7-M vector table (Cortex-M3 TRM §2.3, ARMv7-M ARM B1.5.3): initial SP,
 * reset, 14 exceptions, then the device interrupts (here one: the radio). */
__attribute__((section(".isr_vector"), used)) static const vector_t vectors[17] = {
    (vector_t)(uintptr_t)&_estack, Reset_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, 0, 0, 0, 0, Default_Handler, Default_Handler, 0, Default_Handler,
    SysTick_Handler, radio_irq_handler,
};
