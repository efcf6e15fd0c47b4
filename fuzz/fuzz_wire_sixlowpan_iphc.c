/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the 6LoWPAN IPHC/NHC codec (RFC 6282).
 *
 * Input: one configuration byte, then a frame payload starting at the IPHC
 * dispatch. Configuration bits 0-1 / 2-3: the link-layer source /
 * destination (none, short, EUI-64, EUI-64 of the other node); bit 4: a
 * context table; bit 5: the frame is a FRAG1 of a 1280-byte datagram.
 *
 * Checks: decompression never reads or writes out of bounds (ASan) and
 * returns a documented error or a well-formed IPv6 header whose lengths match
 * the datagram; a decompressed datagram compresses and decompresses back to
 * the same bytes; and the same input taken as an uncompressed IPv6 datagram
 * survives compress + decompress byte for byte.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/ipv6.h"
#include "tern/wire/sixlowpan_iphc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)       \
    do {                  \
        if (!(cond)) {    \
            abort();      \
        }                 \
    } while (0)

#define DATAGRAM_MAX 1400

static void make_link(tern_iphc_link_t *link, tern_iphc_context_t *contexts, uint8_t config)
{
    static const uint8_t eui_a[8] = { 0x00, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x01 };
    static const uint8_t eui_b[8] = { 0x00, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x02 };
    static const uint8_t short_a[2] = { 0x00, 0x01 };
    memset(link, 0, sizeof(*link));
    tern_iphc_l2addr_t *l2[2] = { &link->src, &link->dst };
    for (unsigned i = 0; i < 2; i++) {
        switch ((config >> (2 * i)) & 3u) {
        case 1:
            l2[i]->len = 2;
            memcpy(l2[i]->u8, short_a, 2);
            l2[i]->u8[1] = (uint8_t)(l2[i]->u8[1] + i);
            break;
        case 2:
            l2[i]->len = 8;
            memcpy(l2[i]->u8, i == 0 ? eui_a : eui_b, 8);
            break;
        case 3:
            l2[i]->len = 8;
            memcpy(l2[i]->u8, i == 0 ? eui_b : eui_a, 8);
            break;
        default:
            break;
        }
    }
    memset(contexts, 0, sizeof(tern_iphc_context_t) * TERN_IPHC_CONTEXT_MAX);
    if ((config & 0x10u) == 0) {
        return;
    }
    static const struct {
        uint8_t id;
        uint8_t prefix[16];
        uint8_t len;
        uint8_t flags;
    } table[] = {
        { 0, { 0x20, 0x01, 0x0d, 0xb8 }, 64, 3 },
        { 1, { 0x20, 0x01, 0x0d, 0xb8, 0xab, 0xcd }, 48, 3 },
        { 2, { 0x20, 0x01, 0x0d, 0xb8, 0, 2 }, 64, TERN_IPHC_CONTEXT_DECOMPRESS },
        { 3, { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0x11, 0x11 }, 80, 3 },
        { 5, { 0xfd, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x05 }, 128, 3 },
        { 7, { 0x20, 0x01, 0x0d, 0xb0 }, 28, 3 },
        { 15, { 0 }, 0, 3 },
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        tern_iphc_context_t *ctx = &contexts[table[i].id];
        memcpy(ctx->prefix.u8, table[i].prefix, 16);
        ctx->prefix_len = table[i].len;
        ctx->flags = table[i].flags;
        ctx->id = table[i].id;
    }
    link->contexts = contexts;
    link->context_count = TERN_IPHC_CONTEXT_MAX;
}

/* compress(datagram) then decompress must give the datagram back. */
static void check_lossless(const tern_iphc_link_t *link, const uint8_t *dgram, size_t len)
{
    static uint8_t frame[DATAGRAM_MAX + 64];
    static uint8_t again[TERN_IPHC_DECOMPRESSED_MAX + DATAGRAM_MAX];
    size_t used = 0;
    int need = tern_iphc_compressed_len(link, dgram, len, &used);
    int n = tern_iphc_compress(link, dgram, len, frame, sizeof(frame), &used);
    if (n == -EBADMSG) {
        CHECK(need == -EBADMSG);
        return;
    }
    CHECK(n >= 2 && n == need && used >= TERN_IPV6_HDR_LEN && used <= len);
    /* The datagram is 40 + Payload Length bytes; the caller sends them all. */
    size_t total = TERN_IPV6_HDR_LEN + ((size_t)dgram[4] << 8 | dgram[5]);
    if (total > len) {
        return;  /* not the whole datagram: nothing to compare with */
    }
    CHECK(used <= total);
    memcpy(&frame[n], &dgram[used], total - used);
    size_t frame_len = (size_t)n + total - used;
    size_t in_used = 0;
    int m = tern_iphc_decompress(link, frame, frame_len, 0, again, sizeof(again), &in_used);
    CHECK(m >= 0 && (size_t)m == used && in_used == (size_t)n);
    CHECK(memcmp(again, dgram, used) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    uint8_t config = data[0];
    const uint8_t *in = data + 1;
    size_t in_len = size - 1;
    tern_iphc_context_t contexts[TERN_IPHC_CONTEXT_MAX];
    tern_iphc_link_t link;
    make_link(&link, contexts, config);

    /* The input as an uncompressed datagram. */
    if (in_len <= DATAGRAM_MAX) {
        check_lossless(&link, in, in_len);
    }

    if (in_len == 0 || !tern_iphc_is_dispatch(in[0])) {
        size_t used;
        uint8_t out[64];
        CHECK(tern_iphc_decompress(&link, in, in_len, 0, out, sizeof(out), &used) ==
              (in_len == 0 ? -EBADMSG : -EINVAL));
        return 0;
    }
    size_t datagram_size = (config & 0x20u) ? 1280 : 0;
    static uint8_t out[TERN_IPHC_DECOMPRESSED_MAX + DATAGRAM_MAX];
    size_t used = 0;
    int n = tern_iphc_decompress(&link, in, in_len, datagram_size, out, TERN_IPHC_DECOMPRESSED_MAX, &used);
    if (n < 0) {
        CHECK(n == -EBADMSG || n == -EPROTO || n == -ENOTSUP || n == -ENOENT || n == -EADDRNOTAVAIL ||
              n == -EMSGSIZE);
        return 0;
    }
    CHECK(n >= TERN_IPV6_HDR_LEN && (size_t)n <= TERN_IPHC_DECOMPRESSED_MAX && used >= 2 && used <= in_len);
    size_t payload = in_len - used;
    size_t total = datagram_size != 0 ? datagram_size : (size_t)n + payload;
    tern_ipv6_repr_t ip;
    CHECK(tern_ipv6_parse(&ip, out, (size_t)n) == TERN_IPV6_HDR_LEN);
    CHECK((size_t)ip.payload_len + TERN_IPV6_HDR_LEN == total);

    /* The extension header chain that came out is well formed up to the end
     * of the headers written. */
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    tern_ipv6_ext_walk_init(&walk, out + TERN_IPV6_HDR_LEN, (size_t)n - TERN_IPV6_HDR_LEN, ip.next_header);
    while (tern_ipv6_ext_walk_next(&walk, &ext) == 1) {
    }

    /* A datagram that came out of the decompressor compresses losslessly. */
    if (datagram_size == 0 && total <= DATAGRAM_MAX) {
        memcpy(&out[n], &in[used], payload);
        check_lossless(&link, out, total);
    }
    return 0;
}
