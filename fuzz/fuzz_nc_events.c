/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the neighbor cache with event sequences: sends, advertisements,
 *        link addresses seen, confirmations, removals and time passing.
 *
 * Whatever the order, every packet handed to the cache must come back exactly
 * once through a callback (the pktbuf ends empty), entries stay in valid
 * states, and deadlines never lie in the past after a tick.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/ipv6/nc.h"
#include "tern/pktbuf.h"

static TERN_PKTBUF_STORAGE(arena, 4096);
static tern_pktbuf_t pb;
static tern_nc_t nc;
static uint64_t now;

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static void on_send_ns(void *ctx, const tern_nc_entry_t *e, bool unicast)
{
    (void)ctx;
    require(e->state == TERN_NC_INCOMPLETE || e->state == TERN_NC_PROBE);
    require(!unicast || e->l2addr_len > 0);
}

static void on_release(void *ctx, const tern_nc_entry_t *e, tern_pkt_t *pkt)
{
    (void)ctx;
    require(e->l2addr_len > 0);
    tern_pktbuf_release(&pb, pkt);
}

static void on_unreachable(void *ctx, const tern_ipv6_addr_t *addr, tern_pkt_t *pkt)
{
    (void)ctx;
    (void)addr;
    tern_pktbuf_release(&pb, pkt);
}

static void on_dropped(void *ctx, tern_pkt_t *pkt)
{
    (void)ctx;
    tern_pktbuf_release(&pb, pkt);
}

static const tern_nc_ops_t ops = { on_send_ns, on_release, on_unreachable, on_dropped };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    require(tern_pktbuf_init(&pb, arena, sizeof(arena), NULL) == 0);
    tern_nc_init(&nc, &ops, NULL, 30000000u, 1000000u);
    now = 0;
    for (size_t i = 0; i + 1 < size; i += 2) {
        uint8_t op = data[i] & 7u;
        uint8_t arg = data[i + 1];
        tern_ipv6_addr_t a = { { 0xfe, 0x80 } };
        a.u8[15] = (uint8_t)(arg % 12u); /* more neighbors than entries */
        uint8_t mac[6] = { 2, 0, 0, 0, 0, (uint8_t)(arg >> 4) };
        switch (op) {
        case 0: {
            tern_pkt_t *p = tern_pktbuf_add(&pb, NULL, NULL, 8, TERN_NETTYPE_IPV6);
            if (p != NULL) {
                require(tern_nc_send(&nc, &a, p, now) == 0);
            }
            break;
        }
        case 1: {
            tern_nc_na_flags_t f = { (data[i] & 0x08u) != 0, (data[i] & 0x10u) != 0,
                                     (data[i] & 0x20u) != 0 };
            (void)tern_nc_na_received(&nc, &a, mac, (data[i] & 0x40u) ? 6u : 0u, f, now);
            break;
        }
        case 2:
            (void)tern_nc_lladdr_seen(&nc, &a, mac, 6, (data[i] & 0x08u) != 0, now);
            break;
        case 3:
            tern_nc_confirm(&nc, &a, now);
            break;
        case 4:
            tern_nc_remove(&nc, &a);
            break;
        default: /* time passes, up to ~8 s per step */
            now += (uint64_t)arg * 32768u;
            tern_nc_tick(&nc, now);
            require(tern_nc_next_deadline(&nc) > now);
            break;
        }
        for (size_t k = 0; k < TERN_CONF_NC_SIZE; k++) {
            require(nc.entries[k].state <= TERN_NC_PROBE);
            require(nc.entries[k].queued <= TERN_CONF_NC_QUEUE_LEN);
#if TERN_CONF_FAST_PATHS /* top: one past the highest used slot (lookups scan no further) */
            require((k < nc.top) || nc.entries[k].state == TERN_NC_FREE);
#endif
        }
#if TERN_CONF_FAST_PATHS
        require(nc.top == 0 || nc.entries[nc.top - 1u].state != TERN_NC_FREE);
#endif
    }
    for (uint8_t n = 0; n < 12; n++) {
        tern_ipv6_addr_t a = { { 0xfe, 0x80 } };
        a.u8[15] = n;
        tern_nc_remove(&nc, &a);
    }
    require(tern_pktbuf_check(&pb) == 0);
    require(tern_pktbuf_is_empty(&pb));
    return 0;
}
