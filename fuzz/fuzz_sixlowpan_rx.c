/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief libFuzzer harness: sequences of frames into the 6LoWPAN module's
 *        receive path (dispatch, IPHC/NHC, reassembly), under virtual time.
 *
 * The input is a list of events, each starting with an opcode byte:
 * - 0, 1: a frame: one address byte (bits 0-1 the link source: two short,
 *   two extended; bits 2-3 the destination: ours extended, ours short,
 *   broadcast, another station), one length byte, then that many bytes (or
 *   what is left) as the frame's payload;
 * - 2: time passes: one byte, in units of 500 ms;
 * - 3: a well-formed fragment: tag (1 byte), datagram_size (2 bytes, 1..2047),
 *   offset in units of 8 (1 byte), length (1 byte), first (bit 0 of one
 *   byte; a FRAG1 carries an uncompressed-IPv6 dispatch), its bytes a
 *   function of those values;
 * - 4: an IPHC context: cid (1 byte), a prefix length (1 byte), lifetime in
 *   seconds (1 byte, 0 removes), 8 prefix bytes;
 * - 5: a datagram to send (the send path): length (2 bytes) of bytes from
 *   the input, behind a fixed IPv6 header, to a unicast or multicast destination;
 * - anything else: nothing.
 * Whatever comes up to IPv6 must be [IPV6, NETIF] and at most 2047 bytes.
 * After the last event the harness runs past the reassembly timeout: the
 * packet buffer must then be consistent and empty.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/netapi.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/sixlowpan/sixlowpan.h"
#include "tern/wire/sixlowpan.h"

static tern_vclock_t clock_v;
static tern_loop_t loop;
static tern_stack_t stack;
static tern_sixlowpan_t lowpan;
static tern_netdev_test_t dev;
static tern_netif_t netif;

typedef struct {
    tern_module_t module;
    tern_msg_t queue[16];
    tern_netreg_entry_t entry;
} sink_t;
static sink_t sink;

static const uint8_t OURS[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t ADDRS[4][8] = {
    { 0x00, 0x01 }, { 0x12, 0x34 },
    { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x02 }, { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x11 },
};

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static int sink_handle(tern_module_t *self, tern_msg_t *msg)
{
    if (msg->type == TERN_MSG_RCV) {
        tern_pkt_t *pkt = msg->content.pkt;
        require(pkt->type == TERN_NETTYPE_IPV6 && pkt->size <= TERN_SIXLOWPAN_FRAG_SIZE_MAX);
        require(pkt->next != NULL && pkt->next->type == TERN_NETTYPE_NETIF && pkt->next->next == NULL);
        tern_pktbuf_release(&self->stack->pktbuf, pkt);
    }
    return 0;
}

static int discard(tern_netdev_test_t *d, const tern_iolist_t *iol, size_t count)
{
    (void)d;
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iol[i].len;
    }
    return (int)len;
}

/* A link for the send path: no header, frames of an 802.15.4 size. The
 * receive path gets its frames straight from the harness. */
static int flink_recv(tern_netif_t *n, tern_pkt_t **pkt, tern_nettype_t *type, uint32_t *demux)
{
    (void)n;
    (void)pkt;
    (void)type;
    (void)demux;
    return -EBADMSG;
}

static int flink_send(tern_netif_t *n, tern_pkt_t **pkt)
{
    *pkt = tern_pktbuf_remove_snip(&n->module.stack->pktbuf, *pkt, *pkt);
    return 0;
}

static int flink_payload_max(const tern_netif_t *n, const tern_netif_hdr_t *hdr)
{
    (void)n;
    return (hdr->dst_len == 8u) ? 102 : 108;
}

static const tern_netif_link_t flink = {
    .name = "fuzz",
    .recv = flink_recv,
    .send = flink_send,
    .payload_max = flink_payload_max,
};

static void start(void)
{
    tern_vclock_init(&clock_v, 0);
    tern_loop_init(&loop, &clock_v.base);
    require(tern_stack_init(&stack, "fuzz", &loop.base) == 0);
    require(tern_sixlowpan_init(&lowpan, &stack) == 0);
    tern_netdev_test_init(&dev);
    memcpy(dev.addr, OURS, 8);
    dev.addr_len = 8;
    dev.send_cb = discard;
    require(tern_netif_add(&stack, &netif, "wpan0", &dev.netdev, &flink, TERN_NETTYPE_SIXLOWPAN) == 0);
    require(tern_sixlowpan_netif_attach(&lowpan, &netif) == 0);
    memset(&sink, 0, sizeof(sink));
    require(tern_module_init(&sink.module, "sink", 5, sink_handle, &sink, sink.queue, 16) == 0);
    require(tern_stack_add_module(&stack, &sink.module) == 0);
    tern_netreg_entry_init(&sink.entry, TERN_NETREG_DEMUX_CTX_ALL, &sink.module);
    require(tern_netreg_register(&stack.netreg, TERN_NETTYPE_IPV6, &sink.entry) == 0);
}

static void run(uint64_t us)
{
    require(tern_executor_run_until(&loop.base, clock_v.now + us) == 0);
}

/** Hand the module [payload, NETIF] as a link would. */
static void frame_in(uint8_t addr, const uint8_t *bytes, size_t len)
{
    if (len == 0) {
        return;
    }
    size_t src = addr & 3u, dst = (addr >> 2) & 3u;
    size_t src_len = (src < 2) ? 2u : 8u;
    static const uint8_t ours_short[2] = { 0x00, 0x07 };
    static const uint8_t bcast[2] = { 0xff, 0xff };
    const uint8_t *dst_addr = (dst == 0) ? OURS : (dst == 1) ? ours_short : (dst == 2) ? bcast : ADDRS[3];
    size_t dst_len = (dst == 0 || dst == 3) ? 8u : 2u;
    tern_pkt_t *nif = tern_netif_hdr_build(&stack.pktbuf, NULL, ADDRS[src], src_len, dst_addr, dst_len);
    tern_pkt_t *pkt = (nif != NULL) ? tern_pktbuf_add(&stack.pktbuf, nif, bytes, len, TERN_NETTYPE_SIXLOWPAN) : NULL;
    if (pkt == NULL) {
        tern_pktbuf_release(&stack.pktbuf, nif);
        return;
    }
    tern_netif_hdr_t *nh = nif->data;
    nh->if_index = netif.index;
    if (dst == 2) {
        nh->flags = TERN_NETIF_HDR_FLAG_BROADCAST;
    }
    if (tern_netapi_receive(&lowpan.module, pkt) < 0) {
        tern_pktbuf_release(&stack.pktbuf, pkt);
    }
    run(1000);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    start();
    size_t pos = 0;
    while (pos < size) {
        uint8_t op = data[pos++];
        size_t left = size - pos;
        switch (op % 8u) {
        case 0:
        case 1: {
            if (left < 2) {
                pos = size;
                break;
            }
            uint8_t addr = data[pos];
            size_t len = data[pos + 1];
            pos += 2;
            if (len > size - pos) {
                len = size - pos;
            }
            frame_in(addr, data + pos, len);
            pos += len;
            break;
        }
        case 2:
            if (left < 1) {
                pos = size;
                break;
            }
            run((uint64_t)data[pos++] * 500000u);
            break;
        case 3: {
            if (left < 6) {
                pos = size;
                break;
            }
            uint8_t b[128];
            tern_sixlowpan_frag_repr_t f = {
                .first = (data[pos + 5] & 1u) != 0,
                .datagram_tag = data[pos],
                .datagram_size = (uint16_t)(1u + ((data[pos + 1] << 8 | data[pos + 2]) % 2047u)),
                .datagram_offset = data[pos + 3],
            };
            size_t len = data[pos + 4] % 100u;
            pos += 6;
            if (f.first) {
                f.datagram_offset = 0;
            } else if ((size_t)f.datagram_offset * 8u >= f.datagram_size) {
                f.datagram_offset = (uint8_t)((f.datagram_size - 1u) / 8u);
            }
            int hl = tern_sixlowpan_frag_emit(&f, b, sizeof(b));
            require(hl > 0);
            size_t n = (size_t)hl;
            if (f.first) {
                b[n++] = TERN_SIXLOWPAN_DISPATCH_IPV6_VALUE;
            }
            for (size_t i = 0; i < len; i++) {
                b[n + i] = (uint8_t)(f.datagram_tag + f.datagram_size + f.datagram_offset * 8u + i);
            }
            frame_in(0x02, b, n + len);
            break;
        }
        case 4: {
            if (left < 11) {
                pos = size;
                break;
            }
            tern_ipv6_addr_t prefix = { { 0 } };
            memcpy(prefix.u8, data + pos + 3, 8);
            (void)tern_sixlowpan_context_set(&lowpan, netif.index, (uint8_t)(data[pos] % 16u), &prefix,
                                             (uint8_t)(data[pos + 1] % 129u), (data[pos] & 0x80u) != 0,
                                             data[pos + 2]);
            pos += 11;
            break;
        }
        case 5: {
            if (left < 3) {
                pos = size;
                break;
            }
            size_t len = (size_t)(data[pos] << 8 | data[pos + 1]) % 2100u;
            bool multicast = (data[pos + 2] & 1u) != 0;
            pos += 3;
            /* The datagram: an IPv6 header to a link-local or multicast
             * destination, then bytes from the input, repeated. */
            tern_pkt_t *ip = tern_pktbuf_add(&stack.pktbuf, NULL, NULL, 40u + len, TERN_NETTYPE_IPV6);
            tern_pkt_t *pkt = (ip != NULL) ? tern_netif_hdr_build(&stack.pktbuf, ip, OURS, 8, ADDRS[2], 8) : NULL;
            if (pkt == NULL) {
                tern_pktbuf_release(&stack.pktbuf, ip);
                break;
            }
            uint8_t *d = ip->data;
            d[0] = 0x60;
            d[4] = (uint8_t)(len >> 8);
            d[5] = (uint8_t)len;
            d[6] = (left > 3) ? data[pos] : 17u; /* next header from the input */
            d[7] = 64;
            d[8] = 0xfe;
            d[9] = 0x80;
            memcpy(d + 16, OURS, 8);
            d[16] ^= 0x02u;
            if (multicast) {
                d[24] = 0xff;
                d[25] = 0x02;
                d[39] = 0x01;
            } else {
                d[24] = 0xfe;
                d[25] = 0x80;
                memcpy(d + 32, ADDRS[2], 8);
                d[32] ^= 0x02u;
            }
            for (size_t i = 0; i < len && pos < size; i++) {
                d[40 + i] = data[pos + i % (size - pos)];
            }
            tern_netif_hdr_t *nh = pkt->data;
            nh->if_index = netif.index;
            if (tern_netif_send(&stack, pkt) < 0) {
                break; /* released by netapi (queue full) */
            }
            run(1000);
            break;
        }
        default:
            break;
        }
    }
    /* Past every reassembly timeout and every fragment: nothing may stay. */
    run((uint64_t)TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS * 1000u + 1000000u);
    require(tern_executor_run_until_idle(&loop.base) == 0);
    require(tern_sixlowpan_reass_count(&lowpan.reass) == 0);
    tern_executor_stop(&loop.base);
    require(tern_pktbuf_check(&stack.pktbuf) == 0);
    require(tern_pktbuf_is_empty(&stack.pktbuf));
    return 0;
}
