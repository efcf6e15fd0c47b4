/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz 6LoWPAN reassembly (RFC 4944 §5.3): the input is a sequence of
 *        fragment events for a few senders, tags and sizes.
 *
 * Input: records of 4 octets [who, shape, offset, length]:
 * - who: bits 0-1 the sender (three EUI-64s and a short address), bit 2 the
 *   destination (unicast or broadcast), bits 3-4 the tag, bits 5-6 how far
 *   the clock moves first (0, 1 ms, a quarter of the timeout, past the
 *   timeout), bit 7 runs expire() before the fragment;
 * - shape: bits 0-3 pick datagram_size (invalid sizes 0 and 2048 included),
 *   bits 4-6 are added to the length (so lengths need not be multiples of 8),
 *   bit 7 takes the offset raw instead of inside the datagram;
 * - offset: units of 8 octets (modulo the datagram's units unless raw);
 * - length: bits 0-4 units of 8, bit 5 adds the shape's extra octets, bit 6
 *   makes it a last piece (up to datagram_size).
 * A fragment's bytes are a function of (sender, destination, tag, size,
 * position), so every datagram that comes out must be exactly that function
 * of its own key: pieces of other datagrams never get mixed in. The pktbuf
 * is checked after every event; after the timeout it must be empty.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/pktbuf.h"
#include "tern/sixlowpan/reass.h"

#define ARENA 6144u
#define TIMEOUT_US ((uint64_t)TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS * 1000u)

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static const uint8_t senders[4][8] = {
    { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x01 },
    { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x02 },
    { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x03 },
    { 0x00, 0x01 }, /* a short address: 2 octets */
};
static const uint8_t me[8] = { 0x02, 0x12, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x99 };
static const uint8_t bcast[2] = { 0xff, 0xff };
static const size_t sizes[16] = { 1, 7, 8, 9, 40, 96, 100, 127, 128, 300, 640, 1000, 1280, 2047, 0, 2048 };

static uint8_t pattern(unsigned who, unsigned dst, unsigned tag, size_t size, size_t pos)
{
    return (uint8_t)(pos * 31u + who * 7u + dst * 3u + tag * 11u + size * 5u + (pos >> 8));
}

static uint8_t piece[4096];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static TERN_PKTBUF_STORAGE(arena, ARENA);
    static tern_pktbuf_t pb;
    static tern_sixlowpan_reass_t reass;
    if (size > 8192) {
        return 0;
    }
    require(tern_pktbuf_init(&pb, arena, sizeof(arena), NULL) == 0);
    require(tern_sixlowpan_reass_init(&reass, &pb) == 0);
    uint64_t now = 1000000u;

    for (size_t pos = 0; pos + 4u <= size; pos += 4u) {
        uint8_t who = data[pos], shape = data[pos + 1], off_in = data[pos + 2], len_in = data[pos + 3];
        unsigned sender = who & 3u;
        unsigned dst = (who >> 2) & 1u;
        unsigned tag = (who >> 3) & 3u;
        static const uint64_t advance[4] = { 0, 1000u, TIMEOUT_US / 4u, TIMEOUT_US + 1u };
        now += advance[(who >> 5) & 3u];
        if (who & 0x80u) {
            uint64_t next = tern_sixlowpan_reass_expire(&reass, now);
            require(next > now);
        }
        size_t dsize = sizes[shape & 0x0Fu];
        size_t extra = (shape >> 4) & 7u;
        size_t units = (dsize + 7u) / 8u + 1u;
        size_t off = (shape & 0x80u) ? (size_t)off_in * 8u : (off_in % units) * 8u;
        size_t len = (size_t)(len_in & 0x1Fu) * 8u + ((len_in & 0x20u) ? extra : 0u);
        if (len_in & 0x40u) {
            len = dsize > off ? dsize - off : 0u;
        }
        require(off + len <= sizeof(piece));
        for (size_t i = 0; i < len; i++) {
            piece[i] = pattern(sender, dst, tag, dsize, off + i);
        }
        tern_sixlowpan_reass_key_t key;
        require(tern_sixlowpan_reass_key_set(&key, senders[sender], sender == 3 ? 2u : 8u,
                                             dst ? bcast : me, dst ? 2u : 8u, (uint16_t)tag) == 0);
        tern_pkt_t *whole = tern_sixlowpan_reass_add(&reass, &key, dsize, off, piece, len, now);
        if (whole != NULL) {
            require(whole->next == NULL && whole->size == dsize && whole->users == 1);
            const uint8_t *b = whole->data;
            for (size_t i = 0; i < dsize; i++) {
                require(b[i] == pattern(sender, dst, tag, dsize, i));
            }
            tern_pktbuf_release(&pb, whole);
        }
        require(tern_pktbuf_check(&pb) == 0);
        require(tern_sixlowpan_reass_count(&reass) <= TERN_CONF_SIXLOWPAN_REASS_SLOTS);
        require((tern_sixlowpan_reass_count(&reass) == 0) == tern_pktbuf_is_empty(&pb));
    }
    /* Past every deadline nothing is held. */
    require(tern_sixlowpan_reass_expire(&reass, now + TIMEOUT_US) == UINT64_MAX);
    require(tern_sixlowpan_reass_count(&reass) == 0);
    require(tern_pktbuf_check(&pb) == 0 && tern_pktbuf_is_empty(&pb));
    return 0;
}
