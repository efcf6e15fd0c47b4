/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the 6LoWPAN dispatch and encapsulation headers: the input is a
 *        frame payload (what follows the IEEE 802.15.4 MAC header).
 *
 * Every single-header parser runs on the input; what parses is emitted and
 * parsed again (same repr; same bytes where the encoding is canonical). The
 * header walk runs too, and on success the headers it found are rebuilt in
 * front of the same payload and walked again: same headers, same payload. A
 * frame that starts with a FRAGN walks as the fragment header parser reads it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/sixlowpan.h"

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static uint8_t out[4096 + 64];

static bool mesh_equal(const tern_sixlowpan_mesh_repr_t *a, const tern_sixlowpan_mesh_repr_t *b)
{
    return a->hops_left == b->hops_left && a->originator_len == b->originator_len &&
           a->final_len == b->final_len && memcmp(a->originator, b->originator, a->originator_len) == 0 &&
           memcmp(a->final, b->final, a->final_len) == 0;
}

static bool frag_equal(const tern_sixlowpan_frag_repr_t *a, const tern_sixlowpan_frag_repr_t *b)
{
    return a->first == b->first && a->datagram_size == b->datagram_size &&
           a->datagram_tag == b->datagram_tag && a->datagram_offset == b->datagram_offset;
}

static void single_headers(const uint8_t *data, size_t size)
{
    tern_sixlowpan_frag_repr_t f;
    int rc = tern_sixlowpan_frag_parse(&f, data, size);
    if (rc > 0) {
        require((size_t)rc == tern_sixlowpan_frag_len(&f) && (size_t)rc <= size);
        require(f.datagram_size >= 1 && f.datagram_size <= TERN_SIXLOWPAN_FRAG_SIZE_MAX);
        require((size_t)f.datagram_offset * 8u < f.datagram_size);
        require(tern_sixlowpan_frag_emit(&f, out, (size_t)rc - 1u) == -ENOBUFS);
        require(tern_sixlowpan_frag_emit(&f, out, sizeof(out)) == rc);
        require(memcmp(out, data, (size_t)rc) == 0); /* the encoding is canonical */
    } else {
        require(rc == -EBADMSG);
    }

    tern_sixlowpan_mesh_repr_t m;
    rc = tern_sixlowpan_mesh_parse(&m, data, size);
    if (rc > 0) {
        require((size_t)rc <= size && rc >= (int)TERN_SIXLOWPAN_MESH_MIN_LEN &&
                rc <= (int)TERN_SIXLOWPAN_MESH_MAX_LEN);
        int n = tern_sixlowpan_mesh_emit(&m, out, sizeof(out));
        require(n > 0 && (size_t)n == tern_sixlowpan_mesh_len(&m));
        tern_sixlowpan_mesh_repr_t back;
        require(tern_sixlowpan_mesh_parse(&back, out, (size_t)n) == n && mesh_equal(&m, &back));
        /* A Deep Hops Left below 15 is re-encoded in the 4-bit field. */
        bool deep_small = (data[0] & 0x0Fu) == 0x0Fu && m.hops_left < 15u;
        require(deep_small ? n == rc - 1 : (n == rc && memcmp(out, data, (size_t)n) == 0));
    } else {
        require(rc == -EBADMSG);
    }

    uint8_t seq;
    rc = tern_sixlowpan_bc0_parse(&seq, data, size);
    if (rc > 0) {
        require(tern_sixlowpan_bc0_emit(seq, out, sizeof(out)) == rc && memcmp(out, data, 2) == 0);
    }
    rc = tern_sixlowpan_ipv6_dispatch_parse(data, size);
    require(rc == ((size >= 1 && data[0] == TERN_SIXLOWPAN_DISPATCH_IPV6_VALUE) ? 1 : -EBADMSG));
}

static void header_walk(const uint8_t *data, size_t size)
{
    tern_sixlowpan_hdrs_t h;
    if (tern_sixlowpan_hdrs_parse(&h, data, size) != 0) {
        return;
    }
    require(h.payload < size);
    if (h.has_frag && !h.frag.first) {
        require(h.payload >= TERN_SIXLOWPAN_FRAGN_LEN);
    } else {
        tern_sixlowpan_dispatch_t d = tern_sixlowpan_dispatch_classify(data[h.payload]);
        require(d != TERN_SIXLOWPAN_DISPATCH_NALP && d != TERN_SIXLOWPAN_DISPATCH_MESH &&
                d != TERN_SIXLOWPAN_DISPATCH_FRAG1 && d != TERN_SIXLOWPAN_DISPATCH_FRAGN);
        require(!h.has_frag || d != TERN_SIXLOWPAN_DISPATCH_BC0);
    }
    /* Rebuild the headers in front of the same payload and walk again. */
    size_t pos = 0;
    int n;
    if (h.has_mesh) {
        n = tern_sixlowpan_mesh_emit(&h.mesh, out + pos, sizeof(out) - pos);
        require(n > 0);
        pos += (size_t)n;
    }
    if (h.has_bc0) {
        n = tern_sixlowpan_bc0_emit(h.bc0_sequence, out + pos, sizeof(out) - pos);
        require(n == (int)TERN_SIXLOWPAN_BC0_LEN);
        pos += (size_t)n;
    }
    if (h.has_frag) {
        n = tern_sixlowpan_frag_emit(&h.frag, out + pos, sizeof(out) - pos);
        require(n > 0);
        pos += (size_t)n;
    }
    require(pos <= h.payload);
    size_t rest = size - h.payload;
    require(pos + rest <= sizeof(out));
    memcpy(out + pos, data + h.payload, rest);
    tern_sixlowpan_hdrs_t again;
    require(tern_sixlowpan_hdrs_parse(&again, out, pos + rest) == 0);
    require(again.payload == pos && again.has_mesh == h.has_mesh && again.has_bc0 == h.has_bc0 &&
            again.has_frag == h.has_frag);
    require(!h.has_mesh || mesh_equal(&again.mesh, &h.mesh));
    require(!h.has_bc0 || again.bc0_sequence == h.bc0_sequence);
    require(!h.has_frag || frag_equal(&again.frag, &h.frag));
}

/* A frame that starts with a FRAGN (the walk's shortcut): the walk finds
 * exactly that header, with the data after it, whenever the header parses
 * and data follows; otherwise it fails and leaves the result alone. */
static void fragn_first(const uint8_t *data, size_t size)
{
    if (size == 0 || tern_sixlowpan_dispatch_classify(data[0]) != TERN_SIXLOWPAN_DISPATCH_FRAGN) {
        return;
    }
    tern_sixlowpan_frag_repr_t f;
    bool ok = tern_sixlowpan_frag_parse(&f, data, size) == (int)TERN_SIXLOWPAN_FRAGN_LEN &&
              size > TERN_SIXLOWPAN_FRAGN_LEN;
    tern_sixlowpan_hdrs_t h;
    memset(&h, 0xA5, sizeof(h));
    int rc = tern_sixlowpan_hdrs_parse(&h, data, size);
    if (!ok) {
        uint8_t untouched[sizeof(h)];
        memset(untouched, 0xA5, sizeof(untouched));
        require(rc == -EBADMSG && memcmp(&h, untouched, sizeof(h)) == 0);
        return;
    }
    require(rc == 0 && h.has_frag && !h.has_mesh && !h.has_bc0 && frag_equal(&h.frag, &f) &&
            h.payload == TERN_SIXLOWPAN_FRAGN_LEN);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) {
        return 0;
    }
    if (size > 0) {
        tern_sixlowpan_dispatch_t d = tern_sixlowpan_dispatch_classify(data[0]);
        require(d <= TERN_SIXLOWPAN_DISPATCH_RESERVED);
        if (d == TERN_SIXLOWPAN_DISPATCH_PAGE) {
            require(tern_sixlowpan_page_number(data[0]) <= 15);
        }
    }
    single_headers(data, size);
    header_walk(data, size);
    fragn_first(data, size);
    return 0;
}
