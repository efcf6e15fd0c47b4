/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Golden-byte tests of the 6LoWPAN dispatch and encapsulation headers
 *        (RFC 4944 §5, §5.1, §5.2, §5.3, §11.1; RFC 6282 §3.1, §5; RFC 8025 §3;
 *        RFC 8066 §3).
 *
 * Each vector is laid out by hand from the RFC figures (the derivation is
 * next to it); the fragment and mesh vectors were also cross-checked with
 * scapy 2.8's LoWPANFragmentationFirst/Subsequent and LoWPANMesh layers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tern/wire/sixlowpan.h"

/* FRAG1, datagram_size 1280 = 0x500, tag 0x1234 (RFC 4944 §5.3):
 * 11000 | 101 (size bits 10..8) = 0xC5, size bits 7..0 = 0x00, tag 0x12 0x34. */
static const uint8_t frag1_1280[] = { 0xc5, 0x00, 0x12, 0x34 };

/* FRAGN, same datagram, datagram_offset 12 (octet 96):
 * 11100 | 101 = 0xE5, 0x00, 0x12 0x34, offset 0x0C. */
static const uint8_t fragn_1280_off12[] = { 0xe5, 0x00, 0x12, 0x34, 0x0c };

/* FRAG1 with the largest size, 2047 = 0x7FF, tag 0xFFFF: 0xC7 0xFF 0xFF 0xFF. */
static const uint8_t frag1_2047[] = { 0xc7, 0xff, 0xff, 0xff };

/* Mesh header (RFC 4944 §5.2), V = 1, F = 1 (short addresses), Hops Left 5:
 * 10 1 1 0101 = 0xB5, originator 0x0001, final 0x0002. */
static const uint8_t mesh_short[] = { 0xb5, 0x00, 0x01, 0x00, 0x02 };

/* Mesh, V = 0, F = 0 (EUI-64), Hops Left 14: 10 0 0 1110 = 0x8E, then
 * 02:12:4b:00:01:02:03:04 and 02:12:4b:00:0a:0b:0c:0d. */
static const uint8_t mesh_ext[] = { 0x8e, 0x02, 0x12, 0x4b, 0x00, 0x01, 0x02, 0x03, 0x04,
                                    0x02, 0x12, 0x4b, 0x00, 0x0a, 0x0b, 0x0c, 0x0d };

/* Mesh, V = 1 (short originator 0xABCD), F = 0 (EUI-64 final), Hops Left 200:
 * 4-bit field 0xF then Deep Hops Left 0xC8: 10 1 0 1111 = 0xAF, 0xC8, ... */
static const uint8_t mesh_deep[] = { 0xaf, 0xc8, 0xab, 0xcd, 0x02, 0x12, 0x4b, 0x00,
                                     0x0a, 0x0b, 0x0c, 0x0d };

/* BC0 (RFC 4944 §11.1): 01010000 = 0x50, sequence 0x2A. */
static const uint8_t bc0[] = { 0x50, 0x2a };

/* A whole stack in RFC 4944 §5 order: mesh (short, short, Hops Left 3:
 * 0xB3), BC0 sequence 7, FRAG1 size 100 = 0x064 tag 1 (0xC0 0x64 0x00 0x01),
 * then an IPHC dispatch (011 11 0 10 = 0x7A) and its second octet. */
static const uint8_t stack_frame[] = { 0xb3, 0x00, 0x01, 0x00, 0x02, 0x50, 0x07,
                                       0xc0, 0x64, 0x00, 0x01, 0x7a, 0x33 };

/* ---- Dispatch ------------------------------------------------------------------ */

static void test_tern_sixlowpan_dispatch_classify__page0_table(void **state)
{
    (void)state;
    /* Boundaries of every pattern of RFC 4944 §5.1, RFC 6282, RFC 8066, RFC 8025, RFC 8931. */
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x00), TERN_SIXLOWPAN_DISPATCH_NALP);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x3f), TERN_SIXLOWPAN_DISPATCH_NALP);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x40), TERN_SIXLOWPAN_DISPATCH_ESC);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x41), TERN_SIXLOWPAN_DISPATCH_IPV6);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x42), TERN_SIXLOWPAN_DISPATCH_HC1);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x43), TERN_SIXLOWPAN_DISPATCH_RESERVED);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x4f), TERN_SIXLOWPAN_DISPATCH_RESERVED);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x50), TERN_SIXLOWPAN_DISPATCH_BC0);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x51), TERN_SIXLOWPAN_DISPATCH_RESERVED);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x5f), TERN_SIXLOWPAN_DISPATCH_RESERVED);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x60), TERN_SIXLOWPAN_DISPATCH_IPHC);
    /* RFC 6282 §5: 0x7F, RFC 4944's ESC, is LOWPAN_IPHC now. */
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x7f), TERN_SIXLOWPAN_DISPATCH_IPHC);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0x80), TERN_SIXLOWPAN_DISPATCH_MESH);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xbf), TERN_SIXLOWPAN_DISPATCH_MESH);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xc0), TERN_SIXLOWPAN_DISPATCH_FRAG1);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xc7), TERN_SIXLOWPAN_DISPATCH_FRAG1);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xc8), TERN_SIXLOWPAN_DISPATCH_RESERVED);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xdf), TERN_SIXLOWPAN_DISPATCH_RESERVED);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xe0), TERN_SIXLOWPAN_DISPATCH_FRAGN);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xe7), TERN_SIXLOWPAN_DISPATCH_FRAGN);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xe8), TERN_SIXLOWPAN_DISPATCH_RFRAG);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xeb), TERN_SIXLOWPAN_DISPATCH_RFRAG);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xec), TERN_SIXLOWPAN_DISPATCH_RESERVED);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xef), TERN_SIXLOWPAN_DISPATCH_RESERVED);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xf0), TERN_SIXLOWPAN_DISPATCH_PAGE);
    assert_int_equal(tern_sixlowpan_dispatch_classify(0xff), TERN_SIXLOWPAN_DISPATCH_PAGE);
}

static void test_tern_sixlowpan_dispatch_classify__counts_per_class(void **state)
{
    (void)state;
    unsigned n[TERN_SIXLOWPAN_DISPATCH_RESERVED + 1] = { 0 };
    for (unsigned b = 0; b < 256; b++) {
        n[tern_sixlowpan_dispatch_classify((uint8_t)b)]++;
    }
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_NALP], 64);
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_ESC], 1);
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_IPV6], 1);
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_HC1], 1);
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_BC0], 1);
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_IPHC], 32);
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_MESH], 64);
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_FRAG1], 8);
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_FRAGN], 8);
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_RFRAG], 4);
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_PAGE], 16);
    /* 0x43-0x4F (13) + 0x51-0x5F (15) + 0xC8-0xDF (24) + 0xEC-0xEF (4). */
    assert_int_equal(n[TERN_SIXLOWPAN_DISPATCH_RESERVED], 56);
}

static void test_tern_sixlowpan_page_number__rfc8025(void **state)
{
    (void)state;
    /* 11 11xxxx: xxxx is the page (RFC 8025 §3). */
    assert_int_equal(tern_sixlowpan_page_number(0xf0), 0);
    assert_int_equal(tern_sixlowpan_page_number(0xf1), 1);
    assert_int_equal(tern_sixlowpan_page_number(0xff), 15);
}

/* ---- Fragment headers -------------------------------------------------------- */

static void test_tern_sixlowpan_frag_parse__frag1_golden(void **state)
{
    (void)state;
    tern_sixlowpan_frag_repr_t f;
    assert_int_equal(tern_sixlowpan_frag_parse(&f, frag1_1280, sizeof(frag1_1280)), 4);
    assert_true(f.first);
    assert_int_equal(f.datagram_size, 1280);
    assert_int_equal(f.datagram_tag, 0x1234);
    assert_int_equal(f.datagram_offset, 0);
    assert_int_equal(tern_sixlowpan_frag_parse(&f, frag1_2047, sizeof(frag1_2047)), 4);
    assert_int_equal(f.datagram_size, 2047);
    assert_int_equal(f.datagram_tag, 0xffff);
}

static void test_tern_sixlowpan_frag_parse__fragn_golden(void **state)
{
    (void)state;
    tern_sixlowpan_frag_repr_t f;
    assert_int_equal(tern_sixlowpan_frag_parse(&f, fragn_1280_off12, sizeof(fragn_1280_off12)), 5);
    assert_false(f.first);
    assert_int_equal(f.datagram_size, 1280);
    assert_int_equal(f.datagram_tag, 0x1234);
    assert_int_equal(f.datagram_offset, 12);
}

static void test_tern_sixlowpan_frag_parse__every_truncation(void **state)
{
    (void)state;
    tern_sixlowpan_frag_repr_t f = { .datagram_size = 77 };
    for (size_t len = 0; len < sizeof(frag1_1280); len++) {
        assert_int_equal(tern_sixlowpan_frag_parse(&f, frag1_1280, len), -EBADMSG);
    }
    for (size_t len = 0; len < sizeof(fragn_1280_off12); len++) {
        assert_int_equal(tern_sixlowpan_frag_parse(&f, fragn_1280_off12, len), -EBADMSG);
    }
    assert_int_equal(f.datagram_size, 77); /* untouched on error */
}

static void test_tern_sixlowpan_frag_parse__bad_values(void **state)
{
    (void)state;
    tern_sixlowpan_frag_repr_t f;
    /* datagram_size 0: no datagram. */
    const uint8_t size0[] = { 0xc0, 0x00, 0x00, 0x01 };
    assert_int_equal(tern_sixlowpan_frag_parse(&f, size0, sizeof(size0)), -EBADMSG);
    /* FRAGN at octet 96 of a 96-octet datagram (0xE0 0x60 ... 0x0C): outside it. */
    const uint8_t past[] = { 0xe0, 0x60, 0x00, 0x01, 0x0c };
    assert_int_equal(tern_sixlowpan_frag_parse(&f, past, sizeof(past)), -EBADMSG);
    const uint8_t last_unit[] = { 0xe0, 0x60, 0x00, 0x01, 0x0b };
    assert_int_equal(tern_sixlowpan_frag_parse(&f, last_unit, sizeof(last_unit)), 5);
    /* Reserved 11001xxx and other dispatches are not fragment headers. */
    const uint8_t reserved[] = { 0xc8, 0x64, 0x00, 0x01, 0x00 };
    assert_int_equal(tern_sixlowpan_frag_parse(&f, reserved, sizeof(reserved)), -EBADMSG);
    assert_int_equal(tern_sixlowpan_frag_parse(&f, mesh_short, sizeof(mesh_short)), -EBADMSG);
    assert_int_equal(tern_sixlowpan_frag_parse(NULL, frag1_1280, 4), -EINVAL);
    assert_int_equal(tern_sixlowpan_frag_parse(&f, NULL, 4), -EINVAL);
}

static void test_tern_sixlowpan_frag_emit__golden(void **state)
{
    (void)state;
    uint8_t out[8];
    tern_sixlowpan_frag_repr_t f1 = { .first = true, .datagram_size = 1280, .datagram_tag = 0x1234 };
    assert_int_equal(tern_sixlowpan_frag_len(&f1), 4);
    assert_int_equal(tern_sixlowpan_frag_emit(&f1, out, sizeof(out)), 4);
    assert_memory_equal(out, frag1_1280, 4);
    tern_sixlowpan_frag_repr_t fn = { .first = false, .datagram_size = 1280, .datagram_tag = 0x1234,
                                      .datagram_offset = 12 };
    assert_int_equal(tern_sixlowpan_frag_len(&fn), 5);
    assert_int_equal(tern_sixlowpan_frag_emit(&fn, out, sizeof(out)), 5);
    assert_memory_equal(out, fragn_1280_off12, 5);
    tern_sixlowpan_frag_repr_t fmax = { .first = true, .datagram_size = 2047, .datagram_tag = 0xffff };
    assert_int_equal(tern_sixlowpan_frag_emit(&fmax, out, sizeof(out)), 4);
    assert_memory_equal(out, frag1_2047, 4);
}

static void test_tern_sixlowpan_frag_emit__invalid_and_short(void **state)
{
    (void)state;
    uint8_t out[8];
    memset(out, 0xaa, sizeof(out));
    tern_sixlowpan_frag_repr_t f = { .first = true, .datagram_size = 2048 };
    assert_int_equal(tern_sixlowpan_frag_emit(&f, out, sizeof(out)), -EINVAL);
    f.datagram_size = 0;
    assert_int_equal(tern_sixlowpan_frag_emit(&f, out, sizeof(out)), -EINVAL);
    f.datagram_size = 100;
    f.datagram_offset = 1; /* FRAG1 has no offset */
    assert_int_equal(tern_sixlowpan_frag_emit(&f, out, sizeof(out)), -EINVAL);
    f.first = false;
    f.datagram_offset = 13; /* octet 104 of a 100-octet datagram */
    assert_int_equal(tern_sixlowpan_frag_emit(&f, out, sizeof(out)), -EINVAL);
    f.datagram_offset = 12;
    assert_int_equal(tern_sixlowpan_frag_emit(&f, out, 4), -ENOBUFS);
    assert_int_equal(out[0], 0xaa); /* nothing written */
    assert_int_equal(tern_sixlowpan_frag_emit(NULL, out, sizeof(out)), -EINVAL);
}

static void test_tern_sixlowpan_frag__round_trip_all_sizes(void **state)
{
    (void)state;
    uint8_t out[8];
    for (unsigned size = 1; size <= TERN_SIXLOWPAN_FRAG_SIZE_MAX; size++) {
        tern_sixlowpan_frag_repr_t f = { .first = (size % 2) == 0, .datagram_size = (uint16_t)size,
                                         .datagram_tag = (uint16_t)(size * 31u) };
        if (!f.first) {
            f.datagram_offset = (uint8_t)((size - 1) / 8 > 255 ? 255 : (size - 1) / 8);
        }
        int n = tern_sixlowpan_frag_emit(&f, out, sizeof(out));
        assert_int_equal(n, f.first ? 4 : 5);
        tern_sixlowpan_frag_repr_t back;
        assert_int_equal(tern_sixlowpan_frag_parse(&back, out, (size_t)n), n);
        assert_int_equal(back.first, f.first);
        assert_int_equal(back.datagram_size, f.datagram_size);
        assert_int_equal(back.datagram_tag, f.datagram_tag);
        assert_int_equal(back.datagram_offset, f.datagram_offset);
    }
}

/* ---- Mesh header ------------------------------------------------------------- */

static void test_tern_sixlowpan_mesh_parse__golden(void **state)
{
    (void)state;
    tern_sixlowpan_mesh_repr_t m;
    assert_int_equal(tern_sixlowpan_mesh_parse(&m, mesh_short, sizeof(mesh_short)), 5);
    assert_int_equal(m.hops_left, 5);
    assert_int_equal(m.originator_len, 2);
    assert_int_equal(m.final_len, 2);
    assert_memory_equal(m.originator, mesh_short + 1, 2);
    assert_memory_equal(m.final, mesh_short + 3, 2);

    assert_int_equal(tern_sixlowpan_mesh_parse(&m, mesh_ext, sizeof(mesh_ext)), 17);
    assert_int_equal(m.hops_left, 14);
    assert_int_equal(m.originator_len, 8);
    assert_int_equal(m.final_len, 8);
    assert_memory_equal(m.originator, mesh_ext + 1, 8);
    assert_memory_equal(m.final, mesh_ext + 9, 8);

    assert_int_equal(tern_sixlowpan_mesh_parse(&m, mesh_deep, sizeof(mesh_deep)), 12);
    assert_int_equal(m.hops_left, 200);
    assert_int_equal(m.originator_len, 2);
    assert_int_equal(m.final_len, 8);
    const uint8_t orig[] = { 0xab, 0xcd };
    assert_memory_equal(m.originator, orig, 2);
    assert_memory_equal(m.final, mesh_deep + 4, 8);
}

static void test_tern_sixlowpan_mesh_parse__every_truncation(void **state)
{
    (void)state;
    tern_sixlowpan_mesh_repr_t m;
    for (size_t len = 0; len < sizeof(mesh_short); len++) {
        assert_int_equal(tern_sixlowpan_mesh_parse(&m, mesh_short, len), -EBADMSG);
    }
    for (size_t len = 0; len < sizeof(mesh_ext); len++) {
        assert_int_equal(tern_sixlowpan_mesh_parse(&m, mesh_ext, len), -EBADMSG);
    }
    for (size_t len = 0; len < sizeof(mesh_deep); len++) {
        assert_int_equal(tern_sixlowpan_mesh_parse(&m, mesh_deep, len), -EBADMSG);
    }
    assert_int_equal(tern_sixlowpan_mesh_parse(&m, frag1_1280, sizeof(frag1_1280)), -EBADMSG);
    assert_int_equal(tern_sixlowpan_mesh_parse(NULL, mesh_short, sizeof(mesh_short)), -EINVAL);
}

static void test_tern_sixlowpan_mesh_emit__golden(void **state)
{
    (void)state;
    uint8_t out[TERN_SIXLOWPAN_MESH_MAX_LEN];
    tern_sixlowpan_mesh_repr_t m = { .hops_left = 5, .originator_len = 2, .final_len = 2,
                                     .originator = { 0x00, 0x01 }, .final = { 0x00, 0x02 } };
    assert_int_equal(tern_sixlowpan_mesh_len(&m), 5);
    assert_int_equal(tern_sixlowpan_mesh_emit(&m, out, sizeof(out)), 5);
    assert_memory_equal(out, mesh_short, 5);

    tern_sixlowpan_mesh_repr_t e = { .hops_left = 14, .originator_len = 8, .final_len = 8 };
    memcpy(e.originator, mesh_ext + 1, 8);
    memcpy(e.final, mesh_ext + 9, 8);
    assert_int_equal(tern_sixlowpan_mesh_emit(&e, out, sizeof(out)), 17);
    assert_memory_equal(out, mesh_ext, 17);

    tern_sixlowpan_mesh_repr_t d = { .hops_left = 200, .originator_len = 2, .final_len = 8,
                                     .originator = { 0xab, 0xcd } };
    memcpy(d.final, mesh_deep + 4, 8);
    assert_int_equal(tern_sixlowpan_mesh_len(&d), 12);
    assert_int_equal(tern_sixlowpan_mesh_emit(&d, out, sizeof(out)), 12);
    assert_memory_equal(out, mesh_deep, 12);
}

static void test_tern_sixlowpan_mesh_emit__invalid_and_short(void **state)
{
    (void)state;
    uint8_t out[TERN_SIXLOWPAN_MESH_MAX_LEN];
    tern_sixlowpan_mesh_repr_t m = { .hops_left = 1, .originator_len = 4, .final_len = 2 };
    assert_int_equal(tern_sixlowpan_mesh_len(&m), 0);
    assert_int_equal(tern_sixlowpan_mesh_emit(&m, out, sizeof(out)), -EINVAL);
    m.originator_len = 2;
    m.final_len = 0;
    assert_int_equal(tern_sixlowpan_mesh_emit(&m, out, sizeof(out)), -EINVAL);
    m.final_len = 8;
    assert_int_equal(tern_sixlowpan_mesh_emit(&m, out, 10), -ENOBUFS);
    assert_int_equal(tern_sixlowpan_mesh_emit(&m, out, 11), 11);
}

static void test_tern_sixlowpan_mesh__round_trip_hops(void **state)
{
    (void)state;
    uint8_t out[TERN_SIXLOWPAN_MESH_MAX_LEN];
    for (unsigned hops = 0; hops <= 255; hops++) {
        tern_sixlowpan_mesh_repr_t m = { .hops_left = (uint8_t)hops, .originator_len = 8, .final_len = 2,
                                         .originator = { 1, 2, 3, 4, 5, 6, 7, 8 }, .final = { 9, 10 } };
        int n = tern_sixlowpan_mesh_emit(&m, out, sizeof(out));
        /* Up to 14 in the 4-bit field; 15 and above need the Deep Hops Left octet. */
        assert_int_equal(n, hops < 15 ? 11 : 12);
        tern_sixlowpan_mesh_repr_t back;
        assert_int_equal(tern_sixlowpan_mesh_parse(&back, out, (size_t)n), n);
        assert_int_equal(back.hops_left, hops);
        assert_memory_equal(back.originator, m.originator, 8);
        assert_memory_equal(back.final, m.final, 2);
    }
}

/* ---- BC0 and uncompressed IPv6 ---------------------------------------------- */

static void test_tern_sixlowpan_bc0__golden_and_errors(void **state)
{
    (void)state;
    uint8_t seq = 0;
    assert_int_equal(tern_sixlowpan_bc0_parse(&seq, bc0, sizeof(bc0)), 2);
    assert_int_equal(seq, 0x2a);
    assert_int_equal(tern_sixlowpan_bc0_parse(&seq, bc0, 1), -EBADMSG);
    assert_int_equal(tern_sixlowpan_bc0_parse(&seq, bc0, 0), -EBADMSG);
    const uint8_t reserved[] = { 0x51, 0x2a };
    assert_int_equal(tern_sixlowpan_bc0_parse(&seq, reserved, sizeof(reserved)), -EBADMSG);
    uint8_t out[2];
    assert_int_equal(tern_sixlowpan_bc0_emit(0x2a, out, sizeof(out)), 2);
    assert_memory_equal(out, bc0, 2);
    assert_int_equal(tern_sixlowpan_bc0_emit(0x2a, out, 1), -ENOBUFS);
    assert_int_equal(tern_sixlowpan_bc0_parse(NULL, bc0, 2), -EINVAL);
}

static void test_tern_sixlowpan_ipv6_dispatch__golden_and_errors(void **state)
{
    (void)state;
    /* RFC 4944 §5.1: 01 000001, then the IPv6 header as it is. */
    const uint8_t frame[] = { 0x41, 0x60, 0x00, 0x00, 0x00 };
    assert_int_equal(tern_sixlowpan_ipv6_dispatch_parse(frame, sizeof(frame)), 1);
    assert_int_equal(tern_sixlowpan_ipv6_dispatch_parse(frame, 0), -EBADMSG);
    const uint8_t hc1[] = { 0x42, 0x00 };
    assert_int_equal(tern_sixlowpan_ipv6_dispatch_parse(hc1, sizeof(hc1)), -EBADMSG);
    assert_int_equal(tern_sixlowpan_ipv6_dispatch_parse(NULL, 1), -EINVAL);
    uint8_t out[1] = { 0 };
    assert_int_equal(tern_sixlowpan_ipv6_dispatch_emit(out, 1), 1);
    assert_int_equal(out[0], 0x41);
    assert_int_equal(tern_sixlowpan_ipv6_dispatch_emit(out, 0), -ENOBUFS);
}

/* ---- The header stack -------------------------------------------------------- */

static void test_tern_sixlowpan_hdrs_parse__mesh_bc0_frag1_iphc(void **state)
{
    (void)state;
    tern_sixlowpan_hdrs_t h;
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, stack_frame, sizeof(stack_frame)), 0);
    assert_true(h.has_mesh);
    assert_int_equal(h.mesh.hops_left, 3);
    assert_true(h.has_bc0);
    assert_int_equal(h.bc0_sequence, 7);
    assert_true(h.has_frag);
    assert_true(h.frag.first);
    assert_int_equal(h.frag.datagram_size, 100);
    assert_int_equal(h.frag.datagram_tag, 1);
    assert_int_equal(h.payload, 11);
    assert_int_equal(tern_sixlowpan_dispatch_classify(stack_frame[h.payload]), TERN_SIXLOWPAN_DISPATCH_IPHC);
}

static void test_tern_sixlowpan_hdrs_parse__no_headers(void **state)
{
    (void)state;
    tern_sixlowpan_hdrs_t h;
    const uint8_t iphc[] = { 0x7a, 0x33, 0x3a };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, iphc, sizeof(iphc)), 0);
    assert_false(h.has_mesh || h.has_bc0 || h.has_frag);
    assert_int_equal(h.payload, 0);
    /* A page switch or ESC is a payload dispatch for the walk. */
    const uint8_t page1[] = { 0xf1, 0xa0 };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, page1, sizeof(page1)), 0);
    assert_int_equal(h.payload, 0);
}

static void test_tern_sixlowpan_hdrs_parse__fragn_payload_is_data(void **state)
{
    (void)state;
    tern_sixlowpan_hdrs_t h;
    /* The data after a FRAGN may look like any dispatch: here a mesh octet. */
    const uint8_t frame[] = { 0xe0, 0x64, 0x00, 0x01, 0x06, 0x80, 0x81, 0x82 };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, frame, sizeof(frame)), 0);
    assert_true(h.has_frag);
    assert_false(h.frag.first);
    assert_int_equal(h.frag.datagram_offset, 6);
    assert_int_equal(h.payload, 5);
}

/* A FRAGN first (the walk's shortcut for most frames of a datagram): every
 * field as the walk sets it, and the rules of the fragment header. */
static void test_tern_sixlowpan_hdrs_parse__fragn_first_every_field(void **state)
{
    (void)state;
    tern_sixlowpan_hdrs_t h;
    memset(&h, 0xA5, sizeof(h));
    const uint8_t frame[] = { 0xe4, 0xd0, 0x12, 0x34, 0x0c, 0x11 };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, frame, sizeof(frame)), 0);
    assert_false(h.has_mesh);
    assert_false(h.has_bc0);
    assert_true(h.has_frag);
    assert_int_equal(h.bc0_sequence, 0);
    assert_int_equal(h.mesh.hops_left, 0);
    assert_int_equal(h.mesh.originator_len, 0);
    assert_false(h.frag.first);
    assert_int_equal(h.frag.datagram_size, 0x4d0);
    assert_int_equal(h.frag.datagram_tag, 0x1234);
    assert_int_equal(h.frag.datagram_offset, 12);
    assert_int_equal(h.payload, 5);
    /* Errors leave the result alone: a header and no data, a truncated
     * header, a size of 0, an offset at the datagram's end. */
    h.payload = 99;
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, frame, 5), -EBADMSG);
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, frame, 4), -EBADMSG);
    const uint8_t size0[] = { 0xe0, 0x00, 0x12, 0x34, 0x00, 0x11 };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, size0, sizeof(size0)), -EBADMSG);
    const uint8_t at_end[] = { 0xe0, 0x60, 0x12, 0x34, 0x0c, 0x11 };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, at_end, sizeof(at_end)), -EBADMSG);
    assert_int_equal(h.payload, 99);
}

static void test_tern_sixlowpan_hdrs_parse__order_violations(void **state)
{
    (void)state;
    tern_sixlowpan_hdrs_t h = { .payload = 99 };
    /* BC0 before mesh. */
    const uint8_t bc0_mesh[] = { 0x50, 0x01, 0xb3, 0x00, 0x01, 0x00, 0x02, 0x7a, 0x33 };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, bc0_mesh, sizeof(bc0_mesh)), -EBADMSG);
    /* Fragment header before BC0. */
    const uint8_t frag_bc0[] = { 0xc0, 0x64, 0x00, 0x01, 0x50, 0x01, 0x7a, 0x33 };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, frag_bc0, sizeof(frag_bc0)), -EBADMSG);
    /* Fragment header before mesh. */
    const uint8_t frag_mesh[] = { 0xc0, 0x64, 0x00, 0x01, 0xb3, 0x00, 0x01, 0x00, 0x02, 0x7a };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, frag_mesh, sizeof(frag_mesh)), -EBADMSG);
    /* Two mesh headers, two BC0, two fragment headers. */
    const uint8_t mesh2[] = { 0xb3, 0x00, 0x01, 0x00, 0x02, 0xb3, 0x00, 0x01, 0x00, 0x02, 0x7a };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, mesh2, sizeof(mesh2)), -EBADMSG);
    const uint8_t bc02[] = { 0x50, 0x01, 0x50, 0x02, 0x7a };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, bc02, sizeof(bc02)), -EBADMSG);
    const uint8_t frag2[] = { 0xc0, 0x64, 0x00, 0x01, 0xc0, 0x64, 0x00, 0x01, 0x7a };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, frag2, sizeof(frag2)), -EBADMSG);
    assert_int_equal(h.payload, 99); /* untouched on error */
}

static void test_tern_sixlowpan_hdrs_parse__nalp_truncation_empty(void **state)
{
    (void)state;
    tern_sixlowpan_hdrs_t h;
    const uint8_t nalp[] = { 0x01, 0x02 };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, nalp, sizeof(nalp)), -EBADMSG);
    /* NALP after a mesh header (RFC 8025 §4: only defined as the first octet). */
    const uint8_t mesh_nalp[] = { 0xb3, 0x00, 0x01, 0x00, 0x02, 0x01 };
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, mesh_nalp, sizeof(mesh_nalp)), -EBADMSG);
    /* Every truncation of the stack: headers cut, or nothing after them. */
    for (size_t len = 0; len <= 11; len++) {
        assert_int_equal(tern_sixlowpan_hdrs_parse(&h, stack_frame, len), -EBADMSG);
    }
    assert_int_equal(tern_sixlowpan_hdrs_parse(&h, stack_frame, 12), 0);
    assert_int_equal(tern_sixlowpan_hdrs_parse(NULL, stack_frame, sizeof(stack_frame)), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_sixlowpan_dispatch_classify__page0_table),
        cmocka_unit_test(test_tern_sixlowpan_dispatch_classify__counts_per_class),
        cmocka_unit_test(test_tern_sixlowpan_page_number__rfc8025),
        cmocka_unit_test(test_tern_sixlowpan_frag_parse__frag1_golden),
        cmocka_unit_test(test_tern_sixlowpan_frag_parse__fragn_golden),
        cmocka_unit_test(test_tern_sixlowpan_frag_parse__every_truncation),
        cmocka_unit_test(test_tern_sixlowpan_frag_parse__bad_values),
        cmocka_unit_test(test_tern_sixlowpan_frag_emit__golden),
        cmocka_unit_test(test_tern_sixlowpan_frag_emit__invalid_and_short),
        cmocka_unit_test(test_tern_sixlowpan_frag__round_trip_all_sizes),
        cmocka_unit_test(test_tern_sixlowpan_mesh_parse__golden),
        cmocka_unit_test(test_tern_sixlowpan_mesh_parse__every_truncation),
        cmocka_unit_test(test_tern_sixlowpan_mesh_emit__golden),
        cmocka_unit_test(test_tern_sixlowpan_mesh_emit__invalid_and_short),
        cmocka_unit_test(test_tern_sixlowpan_mesh__round_trip_hops),
        cmocka_unit_test(test_tern_sixlowpan_bc0__golden_and_errors),
        cmocka_unit_test(test_tern_sixlowpan_ipv6_dispatch__golden_and_errors),
        cmocka_unit_test(test_tern_sixlowpan_hdrs_parse__mesh_bc0_frag1_iphc),
        cmocka_unit_test(test_tern_sixlowpan_hdrs_parse__no_headers),
        cmocka_unit_test(test_tern_sixlowpan_hdrs_parse__fragn_payload_is_data),
        cmocka_unit_test(test_tern_sixlowpan_hdrs_parse__fragn_first_every_field),
        cmocka_unit_test(test_tern_sixlowpan_hdrs_parse__order_violations),
        cmocka_unit_test(test_tern_sixlowpan_hdrs_parse__nalp_truncation_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
