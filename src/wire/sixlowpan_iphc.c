/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief LOWPAN_IPHC (RFC 6282 §3) and the loops that chain LOWPAN_NHC
 *        headers after it (§4).
 *
 * Read first: RFC 6282 §3.1.1 (base format), §3.2 (in-line fields, IIDs from
 * the encapsulating header, multicast), then sixlowpan_nhc.c for §4.
 *
 * Every address mode is described once, as a "kind" with the positions of its
 * in-line bytes and an expansion (addr_expand()). The decompressor expands;
 * the compressor picks the shortest kind of each address directly from the
 * address, the IIDs of the encapsulating header and the contexts
 * (addr_stateless(), addr_stateful(): the conditions under which each kind's
 * expansion gives the address back). The unit test
 * test_tern_iphc_compress__direct_choice_matches_exhaustive_search checks the
 * choice against a search over every encoding, decoded by the decompressor.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/config.h"
#include "tern/wire/bytes.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/sixlowpan_iphc.h"
#include "tern/wire/udp.h"

#include "sixlowpan_iphc_internal.h"

/* --- address modes (RFC 6282 §3.1.1, §3.2.2-§3.2.4) ---------------------- */

typedef enum {
    ADDR_FULL,      /* 128 bits in-line (SAC/DAC=0 mode 00; M=1 DAC=0 DAM=00) */
    ADDR_LL64,      /* fe80::/64 + 64-bit IID in-line (SAC/DAC=0, mode 01) */
    ADDR_LL16,      /* fe80::ff:fe00:XXXX (mode 10) */
    ADDR_LL0,       /* fe80:: + IID from the encapsulating header (mode 11) */
    ADDR_UNSPEC,    /* :: (SAC=1 SAM=00) */
    ADDR_CTX64,     /* context + 64-bit IID (SAC/DAC=1 mode 01) */
    ADDR_CTX16,     /* context + 0000:00ff:fe00:XXXX (mode 10) */
    ADDR_CTX0,      /* context + IID from the encapsulating header (mode 11) */
    ADDR_MC48,      /* ffXX::00XX:XXXX:XXXX (M=1 DAC=0 DAM=01) */
    ADDR_MC32,      /* ffXX::00XX:XXXX (DAM=10) */
    ADDR_MC8,       /* ff02::00XX (DAM=11) */
    ADDR_MC_CTX48,  /* ffXX:XXLL:PPPP:PPPP:PPPP:PPPP:XXXX:XXXX (M=1 DAC=1 DAM=00, RFC 3306) */
    ADDR_RESERVED,
} addr_kind_t;

/* In-line bytes per kind. */
static const uint8_t addr_inline_len[ADDR_RESERVED] = {
    [ADDR_FULL] = 16, [ADDR_LL64] = 8, [ADDR_LL16] = 2, [ADDR_LL0] = 0,
    [ADDR_UNSPEC] = 0, [ADDR_CTX64] = 8, [ADDR_CTX16] = 2, [ADDR_CTX0] = 0,
    [ADDR_MC48] = 6, [ADDR_MC32] = 4, [ADDR_MC8] = 1, [ADDR_MC_CTX48] = 6,
};

static bool addr_kind_uses_context(addr_kind_t kind)
{
    static const uint32_t kinds = (1u << ADDR_CTX64) | (1u << ADDR_CTX16) | (1u << ADDR_CTX0) | (1u << ADDR_MC_CTX48);
    return ((kinds >> kind) & 1u) != 0;
}

/* The source address kind of SAC/SAM. */
static addr_kind_t src_kind(unsigned sac, unsigned sam)
{
    static const addr_kind_t stateless[4] = { ADDR_FULL, ADDR_LL64, ADDR_LL16, ADDR_LL0 };
    static const addr_kind_t stateful[4] = { ADDR_UNSPEC, ADDR_CTX64, ADDR_CTX16, ADDR_CTX0 };
    return sac ? stateful[sam & 3] : stateless[sam & 3];
}

/* The destination address kind of M/DAC/DAM; ADDR_RESERVED for M=0 DAC=1
 * DAM=00 and M=1 DAC=1 DAM!=00 (§3.1.1). */
static addr_kind_t dst_kind(unsigned m, unsigned dac, unsigned dam)
{
    static const addr_kind_t table[2][2][4] = {
        { { ADDR_FULL, ADDR_LL64, ADDR_LL16, ADDR_LL0 },
          { ADDR_RESERVED, ADDR_CTX64, ADDR_CTX16, ADDR_CTX0 } },
        { { ADDR_FULL, ADDR_MC48, ADDR_MC32, ADDR_MC8 },
          { ADDR_MC_CTX48, ADDR_RESERVED, ADDR_RESERVED, ADDR_RESERVED } },
    };
    return table[m & 1][dac & 1][dam & 3];
}

/* The SAC/DAC bit and the 2-bit mode of @p kind, as AC << 2 | mode (the
 * inverse of the tables above; for a destination the AC bit is DAC). */
static const uint8_t kind_bits[ADDR_RESERVED] = {
    [ADDR_FULL] = 0, [ADDR_LL64] = 1,      [ADDR_LL16] = 2,      [ADDR_LL0] = 3,
    [ADDR_UNSPEC] = 4, [ADDR_CTX64] = 4 | 1, [ADDR_CTX16] = 4 | 2, [ADDR_CTX0] = 4 | 3,
    [ADDR_MC48] = 1, [ADDR_MC32] = 2,      [ADDR_MC8] = 3,       [ADDR_MC_CTX48] = 4 | 0,
};

/* fe80::/64, the link-local prefix (RFC 4291 §2.5.6). */
static const uint8_t link_local[8] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0 };

/* Copy the first @p bits bits of @p prefix over @p addr (the context "always
 * used" for the bits it covers, §3.1.1). */
static void overlay_prefix(uint8_t *addr, const uint8_t *prefix, unsigned bits)
{
    unsigned full = bits / 8;
    memcpy(addr, prefix, full);
    if (bits % 8 != 0) {
        uint8_t mask = (uint8_t)(0xFFu << (8 - bits % 8));
        addr[full] = (uint8_t)((prefix[full] & mask) | (addr[full] & (uint8_t)~mask));
    }
}

/*
 * Expand an address of @p kind from its in-line bytes @p inl.
 * @p ctx: the context (kinds that use one), else NULL; @p iid: the IID the encapsulating
 * header gives, NULL when unknown.
 * Returns 0, -EADDRNOTAVAIL (IID needed but unknown) or -EPROTO (an RFC 3306
 * context longer than 64 bits).
 */
static int addr_expand(uint8_t *addr, addr_kind_t kind, const uint8_t *inl,
                       const tern_iphc_context_t *ctx, const uint8_t *iid)
{
    memset(addr, 0, 16);
    switch (kind) {
    case ADDR_FULL:
        memcpy(addr, inl, 16);
        return 0;
    case ADDR_UNSPEC:
        return 0;
    case ADDR_LL64:
    case ADDR_CTX64:
        memcpy(&addr[8], inl, 8);
        break;
    case ADDR_LL16:
    case ADDR_CTX16:
        (void)tern_ipv6_iid_put(&addr[8], inl, 2); /* 0000:00ff:fe00:XXXX, §3.2.2 */
        break;
    case ADDR_LL0:
    case ADDR_CTX0:
        if (iid == NULL) {
            return -EADDRNOTAVAIL;
        }
        memcpy(&addr[8], iid, 8);
        break;
    case ADDR_MC48:
        addr[0] = 0xff;
        addr[1] = inl[0];
        memcpy(&addr[11], &inl[1], 5);
        return 0;
    case ADDR_MC32:
        addr[0] = 0xff;
        addr[1] = inl[0];
        memcpy(&addr[13], &inl[1], 3);
        return 0;
    case ADDR_MC8:
        addr[0] = 0xff;
        addr[1] = 0x02;
        addr[15] = inl[0];
        return 0;
    case ADDR_MC_CTX48:
        /* RFC 3306 §4: plen at most 64; the network prefix field holds the
         * first plen bits of the prefix, the rest zero. */
        if (ctx->prefix_len > 64) {
            return -EPROTO;
        }
        addr[0] = 0xff;
        addr[1] = inl[0];
        addr[2] = inl[1];
        addr[3] = ctx->prefix_len;
        overlay_prefix(&addr[4], ctx->prefix.u8, ctx->prefix_len);
        memcpy(&addr[12], &inl[2], 4);
        return 0;
    default:
        return -EPROTO;
    }
    if (ctx != NULL) {
        overlay_prefix(addr, ctx->prefix.u8, ctx->prefix_len);
    } else {
        memcpy(addr, link_local, sizeof(link_local));
    }
    return 0;
}

/* Write the in-line bytes of @p addr for @p kind at @p inl (the inverse of
 * addr_expand()); returns the end of what was written. */
static uint8_t *addr_put(addr_kind_t kind, const uint8_t *addr, uint8_t *inl)
{
    switch (kind) {
    case ADDR_FULL:
        memcpy(inl, addr, 16);
        break;
    case ADDR_LL64:
    case ADDR_CTX64:
        memcpy(inl, &addr[8], 8);
        break;
    case ADDR_LL16:
    case ADDR_CTX16:
        memcpy(inl, &addr[14], 2);
        break;
    case ADDR_MC48:
        inl[0] = addr[1];
        memcpy(&inl[1], &addr[11], 5);
        break;
    case ADDR_MC32:
        inl[0] = addr[1];
        memcpy(&inl[1], &addr[13], 3);
        break;
    case ADDR_MC8:
        inl[0] = addr[15];
        break;
    case ADDR_MC_CTX48:
        inl[0] = addr[1];
        inl[1] = addr[2];
        memcpy(&inl[2], &addr[12], 4);
        break;
    default:
        break;
    }
    return inl + addr_inline_len[kind];
}

/* IIDs the encapsulating header gives (§3.2.2): [0] source, [1] destination. */
typedef struct {
    bool known[2];
    uint8_t iid[2][8];
} iphc_encap_t;

/* The first 48 bits of the IID 0000:00ff:fe00:XXXX of a 16-bit short address (§3.2.2). */
static const uint8_t short_iid[8] = { 0x00, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x00, 0x00 };

/* From the link-layer addresses: an EUI-64 with the U/L bit inverted (RFC
 * 4944 §6), a short address as 0000:00ff:fe00:XXXX (RFC 6282 §3.2.2). */
static void encap_from_link(iphc_encap_t *encap, const tern_iphc_link_t *link)
{
    encap->known[0] = tern_ipv6_iid_put(encap->iid[0], link->src.u8, link->src.len) == 0;
    encap->known[1] = tern_ipv6_iid_put(encap->iid[1], link->dst.u8, link->dst.len) == 0;
}

/* From an encapsulating IPv6 header (§3.2.2: "bits ... are copied from the
 * source and destination addresses of the encapsulating IPv6 header"). */
static void encap_from_ipv6(iphc_encap_t *encap, const uint8_t *ip)
{
    encap->known[0] = true;
    encap->known[1] = true;
    memcpy(encap->iid[0], &ip[16], 8);
    memcpy(encap->iid[1], &ip[32], 8);
}

static bool link_valid(const tern_iphc_link_t *link)
{
    if (link == NULL || link->context_count > TERN_IPHC_CONTEXT_MAX ||
        (link->contexts == NULL && link->context_count != 0)) {
        return false;
    }
    /* Address lengths 0, 2 and 8: bits 0, 2 and 8 of 0x105. */
    if (link->src.len > 8 || link->dst.len > 8 || ((0x105u >> link->src.len) & (0x105u >> link->dst.len) & 1u) == 0) {
        return false;
    }
    uint32_t ids = 0; /* identifiers of the entries in use: each at most once */
    for (size_t i = 0; i < link->context_count; i++) {
        const tern_iphc_context_t *c = &link->contexts[i];
        if (c->prefix_len > 128 || (c->flags != 0 && (c->id >= TERN_IPHC_CONTEXT_MAX || (ids >> c->id) & 1u))) {
            return false;
        }
        ids |= (c->flags != 0) ? 1u << c->id : 0u;
    }
    return true;
}

/* --- compression: choosing the address modes ----------------------------- */

/* Slot 0: no context; slot 1 + c: the context with identifier c. */
#define ADDR_SLOTS (1 + TERN_IPHC_CONTEXT_MAX)
#define ADDR_NONE 0xFFu

typedef struct {
    addr_kind_t kind;
    uint8_t len;  /* in-line bytes; ADDR_NONE: no exact encoding in this slot */
} addr_option_t;

/* True if bits [@p from, @p to) of @p a and @p b are equal (bit 0: the most
 * significant bit of byte 0); true for an empty range. Compares the 32-bit
 * words the range touches, and reads no other. */
static bool bits_equal(const uint8_t *a, const uint8_t *b, unsigned from, unsigned to)
{
    if (TERN_CONF_FAST_PATHS && ((from | to) & 7u) == 0) {
        /* Whole bytes (a /64 context, an IID): the common case, and 8 of
         * them the most common, compared as two 64-bit words (the same
         * bytes memcmp() would read, without the library call). */
        size_t n = (from < to) ? (to - from) / 8u : 0u;
        const uint8_t *pa = &a[from / 8];
        const uint8_t *pb = &b[from / 8];
        if (n == 8u) {
            uint64_t wa;
            uint64_t wb;
            memcpy(&wa, pa, sizeof(wa));
            memcpy(&wb, pb, sizeof(wb));
            return wa == wb;
        }
        return n == 0 || memcmp(pa, pb, n) == 0;
    }
    for (unsigned word = from / 32; word * 32 < to; word++) {
        unsigned first = word * 32;
        uint32_t mask = UINT32_MAX;
        if (from > first) {
            mask >>= from - first;
        }
        if (to < first + 32) {
            mask &= ~(UINT32_MAX >> (to - first));
        }
        if (((tern_load32(&a[word * 4]) ^ tern_load32(&b[word * 4])) & mask) != 0) {
            return false;
        }
    }
    return true;
}

static const uint8_t zero16[16];

static addr_option_t option(addr_kind_t kind)
{
    addr_option_t o = { kind, addr_inline_len[kind] };
    return o;
}

/*
 * The shortest stateless encoding of @p addr (SAC/DAC = 0; M = 1 for a
 * multicast destination), read directly off the address: each test below is
 * the condition under which that kind's expansion (addr_expand()) gives
 * @p addr back, and the kinds are tested shortest first.
 * RFC 6282 §3.1.1 (SAM/DAM with SAC/DAC = 0, DAM with M = 1, and "::" as
 * SAC = 1 SAM = 00), §3.2.2 (link-local: IID elided when the encapsulating
 * header gives it, 16 bits for 0000:00ff:fe00:XXXX, else 64 bits), §3.2.3
 * (stateless multicast).
 */
static addr_option_t addr_stateless(const uint8_t *addr, bool multicast, bool dst, const uint8_t *iid)
{
    if (multicast) {
        /* ff02::00XX, ffXX::00XX:XXXX, ffXX::00XX:XXXX:XXXX (bytes 2.. zero). */
        if (addr[1] == 0x02 && memcmp(&addr[2], zero16, 13) == 0) {
            return option(ADDR_MC8);
        }
        if (memcmp(&addr[2], zero16, 11) == 0) {
            return option(ADDR_MC32);
        }
        if (memcmp(&addr[2], zero16, 9) == 0) {
            return option(ADDR_MC48);
        }
        return option(ADDR_FULL);
    }
    if (memcmp(addr, link_local, 8) == 0) {
        if (iid != NULL && memcmp(&addr[8], iid, 8) == 0) {
            return option(ADDR_LL0);
        }
        if (memcmp(&addr[8], short_iid, 6) == 0) {
            return option(ADDR_LL16);
        }
        return option(ADDR_LL64);
    }
    if (!dst && memcmp(addr, zero16, 16) == 0) {
        return option(ADDR_UNSPEC);
    }
    return option(ADDR_FULL);
}

/*
 * The shortest encoding of @p addr against context @p ctx, len ADDR_NONE if
 * it has none. The context supplies the first prefix_len bits "always"
 * (§3.1.1: also bits of the IID when it is longer than 64); the in-line bits
 * or the IID from the encapsulating header supply the rest, the bits between
 * a prefix shorter than 64 and the IID are zero (§3.2.2). A multicast
 * destination uses the RFC 3306 form (DAC = 1 DAM = 00, §3.2.4), prefix
 * length at most 64 (RFC 3306 §4).
 */
static addr_option_t addr_stateful(const uint8_t *addr, bool multicast, const tern_iphc_context_t *ctx,
                                   const uint8_t *iid)
{
    addr_option_t none = { ADDR_FULL, ADDR_NONE };
    unsigned plen = ctx->prefix_len;
    if (multicast) {
        if (plen <= 64 && addr[3] == plen && bits_equal(&addr[4], ctx->prefix.u8, 0, plen) &&
            bits_equal(&addr[4], zero16, plen, 64)) {
            return option(ADDR_MC_CTX48);
        }
        return none;
    }
    if (!bits_equal(addr, ctx->prefix.u8, 0, plen) || !bits_equal(addr, zero16, plen, 64)) {
        return none;
    }
    /* The IID bits the context does not cover. */
    unsigned from = plen > 64 ? plen - 64 : 0;
    if (iid != NULL && bits_equal(&addr[8], iid, from, 64)) {
        return option(ADDR_CTX0);
    }
    if (bits_equal(&addr[8], short_iid, from, 48)) {
        return option(ADDR_CTX16);
    }
    return option(ADDR_CTX64);
}

/* The contexts the compressor may use (TERN_IPHC_CONTEXT_COMPRESS): their
 * entries in @p ids, by ascending identifier; returns how many. */
static size_t compress_contexts(const tern_iphc_link_t *link, uint8_t *ids)
{
    size_t count = 0;
    for (size_t c = 0; c < link->context_count; c++) {
        if ((link->contexts[c].flags & TERN_IPHC_CONTEXT_COMPRESS) != 0) {
            size_t at = count++; /* insertion sort: a table holds few */
            for (; at > 0 && link->contexts[ids[at - 1]].id > link->contexts[c].id; at--) {
                ids[at] = ids[at - 1];
            }
            ids[at] = (uint8_t)c;
        }
    }
    return count;
}

/* The shortest exact encoding of @p addr in every slot (contexts @p ids;
 * slot 0, the stateless one, filled in by the caller); returns how many
 * slots have one, their numbers in @p numbers (ascending). */
static size_t addr_options(addr_option_t *slots, uint8_t *numbers, const tern_iphc_link_t *link,
                           const uint8_t *ids, size_t id_count, const uint8_t *addr, bool dst,
                           const uint8_t *iid)
{
    bool multicast = dst && addr[0] == 0xff;
    numbers[0] = 0;
    size_t count = 1;
    for (size_t i = 0; i < id_count; i++) {
        const tern_iphc_context_t *ctx = &link->contexts[ids[i]];
        addr_option_t o = addr_stateful(addr, multicast, ctx, iid);
        if (o.len != ADDR_NONE) {
            slots[1 + ctx->id] = o;
            numbers[count++] = (uint8_t)(1 + ctx->id);
        }
    }
    return count;
}

/* --- compression: one IPHC header ---------------------------------------- */

/* The longest IPHC header: base, CID, TF, Next Header, Hop Limit and both
 * addresses in full (§3.1). */
#define IPHC_HDR_MAX (2u + 1u + 4u + 1u + 1u + 16u + 16u)

/*
 * The (source, destination) slots with the fewest bytes when contexts may be
 * used; a context other than 0 costs the CID byte (§3.1.2). Ties go to the
 * first found: stateless before contexts, lower identifiers first. @p src and
 * @p dst: the stateless encodings (slot 0) in, the chosen ones out.
 */
static void addr_pair_choose(const tern_iphc_link_t *link, const uint8_t *ids, size_t id_count, const uint8_t *ip,
                             const iphc_encap_t *encap, addr_option_t *src_best, addr_option_t *dst_best,
                             size_t *best_s, size_t *best_d)
{
    *best_s = 0;
    *best_d = 0;
    if (TERN_CONF_FAST_PATHS && id_count == 1 && link->contexts[ids[0]].id == 0) {
        /* Context 0 alone (the usual case, RFC 6775 §4.2): no choice costs
         * the CID byte, so each address takes its shortest encoding on its
         * own, a tie to the stateless one (what the search below finds). */
        const tern_iphc_context_t *ctx = &link->contexts[ids[0]];
        addr_option_t o = addr_stateful(&ip[8], false, ctx, encap->known[0] ? encap->iid[0] : NULL);
        if (o.len < src_best->len) { /* ADDR_NONE: never */
            *src_best = o;
            *best_s = 1;
        }
        o = addr_stateful(&ip[24], ip[24] == 0xff, ctx, encap->known[1] ? encap->iid[1] : NULL);
        if (o.len < dst_best->len) {
            *dst_best = o;
            *best_d = 1;
        }
        return;
    }
    addr_option_t src[ADDR_SLOTS];
    addr_option_t dst[ADDR_SLOTS];
    uint8_t src_n[ADDR_SLOTS];
    uint8_t dst_n[ADDR_SLOTS];
    src[0] = *src_best;
    dst[0] = *dst_best;
    size_t src_count = addr_options(src, src_n, link, ids, id_count, &ip[8], false,
                                    encap->known[0] ? encap->iid[0] : NULL);
    size_t dst_count = addr_options(dst, dst_n, link, ids, id_count, &ip[24], true,
                                    encap->known[1] ? encap->iid[1] : NULL);
    unsigned best = ~0u;
    for (size_t i = 0; i < src_count; i++) {
        size_t s = src_n[i];
        for (size_t j = 0; j < dst_count; j++) {
            size_t d = dst_n[j];
            unsigned cost = (unsigned)src[s].len + dst[d].len + ((s > 1 || d > 1) ? 1u : 0u);
            if (cost < best) {
                best = cost;
                *best_s = s;
                *best_d = d;
            }
        }
    }
    *src_best = src[*best_s];
    *dst_best = dst[*best_d];
}

/* Emit the IPHC header for the IPv6 header at @p ip_off, with NH=1 when
 * @p nh_compressed. */
static void iphc_emit(iphc_writer_t *w, size_t ip_off, const iphc_encap_t *encap, bool nh_compressed)
{
    const uint8_t *ip = &w->pkt[ip_off];
    uint8_t tmp[IPHC_HDR_MAX];
    uint8_t *start = iphc_begin(w, tmp, sizeof(tmp));
    uint8_t *p = start + 2;

    /* Addresses: the stateless encodings, then contexts only when the link
     * has some for compression. M=1 for every multicast destination, carried
     * in full (DAM=00) too. */
    bool multicast = ip[24] == 0xff;
    addr_option_t so = addr_stateless(&ip[8], false, false, encap->known[0] ? encap->iid[0] : NULL);
    addr_option_t dopt = addr_stateless(&ip[24], multicast, true, encap->known[1] ? encap->iid[1] : NULL);
    size_t best_s = 0;
    size_t best_d = 0;
    uint8_t ids[TERN_IPHC_CONTEXT_MAX];
    size_t id_count = compress_contexts(w->link, ids);
    if (id_count > 0) {
        addr_pair_choose(w->link, ids, id_count, ip, encap, &so, &dopt, &best_s, &best_d);
    }
    addr_kind_t sk = so.kind;
    addr_kind_t dk = dopt.kind;
    bool cid = best_s > 1 || best_d > 1;
    if (cid) {
        unsigned sci = best_s > 0 ? (unsigned)best_s - 1 : 0;
        unsigned dci = best_d > 0 ? (unsigned)best_d - 1 : 0;
        *p++ = (uint8_t)((sci << 4) | dci);
    }

    /* Traffic class rotated to ECN|DSCP and flow label (§3.2.1). */
    uint32_t word = tern_load32(ip);
    uint8_t tc = (uint8_t)(word >> 20);
    uint32_t flow = word & TERN_IPV6_FLOW_LABEL_MAX;
    uint8_t ecn = tc & 0x03u;
    uint8_t dscp = (uint8_t)(tc >> 2);
    unsigned tf;
    if (flow == 0) {
        tf = 3;
        if (tc != 0) {
            tf = 2;
            *p++ = (uint8_t)((ecn << 6) | dscp);
        }
    } else if (dscp == 0) {
        tf = 1;
        *p++ = (uint8_t)((ecn << 6) | (flow >> 16));
        *p++ = (uint8_t)(flow >> 8);
        *p++ = (uint8_t)flow;
    } else {
        tf = 0;
        *p++ = (uint8_t)((ecn << 6) | dscp);
        *p++ = (uint8_t)(flow >> 16);
        *p++ = (uint8_t)(flow >> 8);
        *p++ = (uint8_t)flow;
    }
    if (!nh_compressed) {
        *p++ = ip[6];
    }
    unsigned hlim;
    switch (ip[7]) {
    case 1:
        hlim = 1;
        break;
    case 64:
        hlim = 2;
        break;
    case 255:
        hlim = 3;
        break;
    default:
        hlim = 0;
        *p++ = ip[7];
        break;
    }
    p = addr_put(sk, &ip[8], p);
    p = addr_put(dk, &ip[24], p);

    start[0] = (uint8_t)(TERN_IPHC_DISPATCH | (tf << 3) | ((nh_compressed ? 1u : 0u) << 2) | hlim);
    start[1] = (uint8_t)(((cid ? 1u : 0u) << 7) | ((unsigned)kind_bits[sk] << 4) | ((multicast ? 1u : 0u) << 3) |
                         kind_bits[dk]);
    iphc_commit(w, tmp, start, p);
}

/* --- compression: the chain ---------------------------------------------- */

/* One run of the compressor (counting when w->out is NULL). */
static void compress_run(iphc_writer_t *w, size_t *consumed)
{
    iphc_encap_t encap;
    encap_from_link(&encap, w->link);
    size_t ip = 0;  /* the innermost IPv6 header so far */
    uint8_t type = w->pkt[6];
    size_t off = TERN_IPV6_HDR_LEN;
    bool nhc = tern_nhc_encodable(w, type, off, true);
    iphc_emit(w, ip, &encap, nhc);

    while (nhc) {
        w->nhc++;
        if (!TERN_CONF_SIXLOWPAN_NHC_EXT || type == TERN_IPV6_NH_UDP) { /* (only UDP is encodable then) */
            tern_nhc_udp_emit(w, off);
            off += TERN_UDP_HDR_LEN;
            break;
        }
        if (type == NHC_NH_IPV6) {
            /* §4.2: EID 7 with NH=0, then the inner header as LOWPAN_IPHC,
             * its elided IIDs copied from this (the encapsulating) header. */
            iphc_put8(w, (uint8_t)(NHC_EXT_ID | (NHC_EID_IPV6 << 1)));
            encap_from_ipv6(&encap, &w->pkt[ip]);
            ip = off;
            type = w->pkt[ip + 6];
            off = ip + TERN_IPV6_HDR_LEN;
            nhc = tern_nhc_encodable(w, type, off, true);
            iphc_emit(w, ip, &encap, nhc);
            continue;
        }
        const uint8_t *hdr = &w->pkt[off];
        uint8_t next = hdr[0];
        size_t len = type == TERN_IPV6_NH_FRAGMENT ? TERN_IPV6_FRAG_HDR_LEN : ((size_t)hdr[1] + 1) * 8;
        /* After a Fragment header that is not an atomic fragment, what
         * follows is not the rest of the datagram: the chain ends. */
        bool next_nhc = !(type == TERN_IPV6_NH_FRAGMENT && tern_nhc_fragment_ends_chain(tern_load16(&hdr[2]))) &&
                        tern_nhc_encodable(w, next, off + len, false);
        (void)tern_nhc_ext_emit(w, type, off, next_nhc);
        off += len;
        type = next;
        nhc = next_nhc;
    }
    *consumed = off;
}

static int compress_check(const tern_iphc_link_t *link, const uint8_t *pkt, size_t pkt_len,
                          const size_t *consumed)
{
    if (!link_valid(link) || pkt == NULL || consumed == NULL) {
        return -EINVAL;
    }
    if (pkt_len < TERN_IPV6_HDR_LEN || (pkt[0] >> 4) != 6) {
        return -EBADMSG;
    }
    return 0;
}

/* Both entry points: one run of the compressor, writing to @p out (at most
 * @p out_len bytes) or, with @p out NULL, only counting. */
static int compress(const tern_iphc_link_t *link, const uint8_t *pkt, size_t pkt_len, uint8_t *out, size_t out_len,
                    size_t *consumed)
{
    int res = compress_check(link, pkt, pkt_len, consumed);
    if (res < 0) {
        return res;
    }
    iphc_writer_t w;
    w.link = link;
    w.pkt = pkt;
    w.datagram = TERN_IPV6_HDR_LEN + (size_t)tern_load16(&pkt[4]);
    w.end = pkt_len < w.datagram ? pkt_len : w.datagram;
    w.out = out;
    w.out_len = out_len;
    w.pos = 0;
    w.nhc = 0;
    compress_run(&w, consumed);
    return (out != NULL && w.pos > out_len) ? -ENOBUFS : (int)w.pos;
}

int tern_iphc_compressed_len(const tern_iphc_link_t *link, const uint8_t *pkt, size_t pkt_len,
                             size_t *consumed)
{
    return compress(link, pkt, pkt_len, NULL, 0, consumed);
}

int tern_iphc_compress(const tern_iphc_link_t *link, const uint8_t *pkt, size_t pkt_len,
                       uint8_t *out, size_t out_len, size_t *consumed)
{
    if (out == NULL) {
        int res = compress_check(link, pkt, pkt_len, consumed);
        return (res < 0) ? res : -EINVAL;
    }
    /* One run, writing what fits: the caller sized @p out first with
     * tern_iphc_compressed_len() (STYLE 1), so the choices are made once more
     * here, not twice (each run tries every address encoding). */
    return compress(link, pkt, pkt_len, out, out_len, consumed);
}

/* --- decompression --------------------------------------------------------- */

/* The context @p id if it may be used for decompression (§3.1.1: a packet
 * naming any other must be dropped). */
static const tern_iphc_context_t *context_for_decompression(const tern_iphc_link_t *link, unsigned id)
{
    for (size_t i = 0; i < link->context_count; i++) {
        const tern_iphc_context_t *c = &link->contexts[i];
        if (c->flags != 0 && c->id == id) {
            return (c->flags & TERN_IPHC_CONTEXT_DECOMPRESS) != 0 ? c : NULL;
        }
    }
    return NULL;
}

/* Expand one address of @p kind, reading its in-line bytes. */
static int addr_decode(iphc_reader_t *r, uint8_t *addr, addr_kind_t kind,
                       const tern_iphc_context_t *ctx, const uint8_t *iid)
{
    const uint8_t *inl = iphc_take(r, addr_inline_len[kind]);
    if (inl == NULL) {
        return -EBADMSG;
    }
    return addr_expand(addr, kind, inl, ctx, iid);
}

/* §3.1.1 HLIM 01, 10, 11: the hop limit elided (00: in-line). */
static const uint8_t hop_limits[4] = { 0, 1, 64, 255 };

/* The base bytes of the encoding nearly every datagram within one network
 * has (§3.1.1): 011 TF=11 NH=1 HLIM=xx, CID=0 SAC=x SAM=11 M=0 DAC=x DAM=11
 * (HLIM, SAC and DAC masked off). */
#define IPHC_IIDS_ELIDED_BASE0 0x7Cu
#define IPHC_IIDS_ELIDED_MASK1 0xBBu
#define IPHC_IIDS_ELIDED_BASE1 0x33u
#define IPHC_SAC 0x40u
#define IPHC_DAC 0x04u

/* The context's prefix in place of fe80::/64 in front of an IID: what
 * addr_expand() gives for ADDR_CTX0 (the prefix over the IID bits it covers). */
static void addr_context_over(uint8_t *addr, const tern_iphc_context_t *ctx)
{
    memset(addr, 0, 8);
    overlay_prefix(addr, ctx->prefix.u8, ctx->prefix_len);
}

/*
 * The first IPHC header (r->ip_count 0) when it has that encoding: traffic
 * class and flow label zero (TF=11), next header compressed (NH=1), both
 * IIDs derived from the frame's link-layer addresses (§3.2.2), each address
 * link-local or under context 0 (CID=0: §3.1.1). Written as iphc_decode() writes
 * it (what it would read and check, this checks too); false, nothing read
 * or written, for any other header, where iphc_decode() would fail
 * (truncated, too little room, a link-layer address or the context unknown)
 * and for fewer than three bytes (an NHC header must follow): iphc_decode()
 * then decides.
 */
static bool iphc_decode_iids_elided(iphc_reader_t *r, size_t *nh_pos)
{
    const tern_iphc_link_t *link = r->link;
    const uint8_t *in = &r->in[r->in_pos];
    size_t avail = r->in_len - r->in_pos;
    if (avail < 3 || (in[0] & 0xFCu) != IPHC_IIDS_ELIDED_BASE0 ||
        (in[1] & IPHC_IIDS_ELIDED_MASK1) != IPHC_IIDS_ELIDED_BASE1 || link->src.len == 0 || link->dst.len == 0 ||
        r->out_len - r->out_pos < TERN_IPV6_HDR_LEN) {
        return false;
    }
    /* SAC=1 / DAC=1 with CID=0: context 0 (§3.1.1). */
    const tern_iphc_context_t *ctx = NULL;
    if ((in[1] & (IPHC_SAC | IPHC_DAC)) != 0 && (ctx = context_for_decompression(link, 0)) == NULL) {
        return false;
    }
    unsigned hlim = in[0] & 3u;
    size_t start = r->out_pos;
    uint8_t *ip = &r->out[start];
    memset(ip, 0, 8); /* traffic class, flow label, lengths, the NHC header's type once known */
    ip[0] = 0x60;     /* version 6 */
    ip[7] = (hlim == 0) ? in[2] : hop_limits[hlim];
    /* Mode 11 (§3.2.2): fe80::/64 (ADDR_LL0) or the context's prefix
     * (ADDR_CTX0) and the IID (link address lengths 2 and 8: link_valid()). */
    for (unsigned i = 0; i < 2; i++) {
        uint8_t *addr = &ip[8 + 16 * i];
        const tern_iphc_l2addr_t *l2 = (i == 0) ? &link->src : &link->dst;
        memcpy(addr, link_local, sizeof(link_local));
        (void)tern_ipv6_iid_put(&addr[8], l2->u8, l2->len);
        if ((in[1] & ((i == 0) ? IPHC_SAC : IPHC_DAC)) != 0) {
            addr_context_over(addr, ctx);
        }
    }
    r->in_pos += (hlim == 0) ? 3u : 2u;
    r->out_pos += TERN_IPV6_HDR_LEN;
    r->ip_off[r->ip_count++] = start;
    *nh_pos = start + 6;
    return true;
}

/*
 * Decode one IPHC header into a 40-byte IPv6 header at r->out_pos (Payload
 * Length left 0 for the caller). @p nh_compressed: NH=1, the next header's
 * type goes to out[*nh_pos] once known.
 */
static int iphc_decode(iphc_reader_t *r, const iphc_encap_t *encap, bool *nh_compressed, size_t *nh_pos)
{
    const uint8_t *base = iphc_take(r, 2);
    if (base == NULL) {
        return -EBADMSG;
    }
    if (!tern_iphc_is_dispatch(base[0])) {
        return -EPROTO;
    }
    unsigned tf = (base[0] >> 3) & 3u;
    bool nh = (base[0] & 0x04u) != 0;
    unsigned hlim = base[0] & 3u;
    bool cid = (base[1] & 0x80u) != 0;
    addr_kind_t sk = src_kind((base[1] >> 6) & 1u, (base[1] >> 4) & 3u);
    addr_kind_t dk = dst_kind((base[1] >> 3) & 1u, (base[1] >> 2) & 1u, base[1] & 3u);
    if (dk == ADDR_RESERVED) {
        return -EPROTO;
    }
    unsigned sci = 0;
    unsigned dci = 0;
    if (cid) {
        const uint8_t *ids = iphc_take(r, 1);
        if (ids == NULL) {
            return -EBADMSG;
        }
        sci = ids[0] >> 4;
        dci = ids[0] & 0x0Fu;
    }
    const tern_iphc_context_t *sctx = NULL;
    const tern_iphc_context_t *dctx = NULL;
    if (addr_kind_uses_context(sk) && (sctx = context_for_decompression(r->link, sci)) == NULL) {
        return -ENOENT;
    }
    if (addr_kind_uses_context(dk) && (dctx = context_for_decompression(r->link, dci)) == NULL) {
        return -ENOENT;
    }
    if (r->ip_count >= sizeof(r->ip_off) / sizeof(r->ip_off[0])) {
        return -EPROTO;
    }
    size_t start = r->out_pos;
    uint8_t *ip = iphc_reserve(r, TERN_IPV6_HDR_LEN);
    if (ip == NULL) {
        return -ENOBUFS;
    }

    /* §3.2.1: the in-line traffic class is ECN|DSCP; rsv bits are ignored. */
    static const uint8_t tf_len[4] = { 4, 3, 1, 0 };
    const uint8_t *t = iphc_take(r, tf_len[tf]);
    if (t == NULL) {
        return -EBADMSG;
    }
    uint8_t tc = 0;
    uint32_t flow = 0;
    switch (tf) {
    case 0:
        tc = (uint8_t)((t[0] << 2) | (t[0] >> 6));
        flow = ((uint32_t)(t[1] & 0x0Fu) << 16) | ((uint32_t)t[2] << 8) | t[3];
        break;
    case 1:
        tc = (uint8_t)(t[0] >> 6);
        flow = ((uint32_t)(t[0] & 0x0Fu) << 16) | ((uint32_t)t[1] << 8) | t[2];
        break;
    case 2:
        tc = (uint8_t)((t[0] << 2) | (t[0] >> 6));
        break;
    default:
        break;
    }
    tern_store32(&ip[0], (UINT32_C(6) << 28) | ((uint32_t)tc << 20) | flow);
    tern_store16(&ip[4], 0);
    if (nh) {
        ip[6] = 0;
        *nh_pos = start + 6;
    } else {
        const uint8_t *next = iphc_take(r, 1);
        if (next == NULL) {
            return -EBADMSG;
        }
        ip[6] = next[0];
    }
    if (hlim == 0) {
        const uint8_t *h = iphc_take(r, 1);
        if (h == NULL) {
            return -EBADMSG;
        }
        ip[7] = h[0];
    } else {
        ip[7] = hop_limits[hlim];
    }
    int res = addr_decode(r, &ip[8], sk, sctx, encap->known[0] ? encap->iid[0] : NULL);
    if (res < 0) {
        return res;
    }
    res = addr_decode(r, &ip[24], dk, dctx, encap->known[1] ? encap->iid[1] : NULL);
    if (res < 0) {
        return res;
    }
    r->ip_off[r->ip_count++] = start;
    *nh_compressed = nh;
    return 0;
}

/* Decode the IPHC header and its NHC chain. */
static int decompress_run(iphc_reader_t *r)
{
    iphc_encap_t encap;
    bool nhc = true;
    size_t nh_pos = 0;
    int res = 0;
    if (!TERN_CONF_FAST_PATHS || !iphc_decode_iids_elided(r, &nh_pos)) {
        encap_from_link(&encap, r->link);
        res = iphc_decode(r, &encap, &nhc, &nh_pos);
    }
    bool after_ip = true;
    while (res == 0 && nhc) {
        if (r->nhc >= TERN_IPHC_NHC_MAX) {
            return -EPROTO;
        }
        r->nhc++;
        const uint8_t *idp = iphc_take(r, 1);
        if (idp == NULL) {
            return -EBADMSG;
        }
        uint8_t id = idp[0];
        if ((id & NHC_UDP_MASK) == NHC_UDP_ID) {
            r->out[nh_pos] = TERN_IPV6_NH_UDP;
            return tern_nhc_udp_decode(r, id);
        }
        if ((id & NHC_EXT_MASK) != NHC_EXT_ID) {
            return -ENOTSUP;
        }
        if (((id >> 1) & 7u) == NHC_EID_IPV6) {
            /* §4.2: "the NH bit ... MUST be set to zero"; an IPHC header follows. */
            if ((id & 1u) != 0) {
                return -EPROTO;
            }
            r->out[nh_pos] = NHC_NH_IPV6;
            encap_from_ipv6(&encap, &r->out[r->ip_off[r->ip_count - 1]]);
            res = iphc_decode(r, &encap, &nhc, &nh_pos);
            after_ip = true;
            continue;
        }
        uint8_t type = 0;
        size_t next_pos = 0;
        res = tern_nhc_ext_decode(r, id, after_ip, &type, &nhc, &next_pos);
        if (res == 0) {
            r->out[nh_pos] = type;
            nh_pos = next_pos;
            after_ip = false;
        }
    }
    return res;
}

int tern_iphc_decompress(const tern_iphc_link_t *link, const uint8_t *in, size_t in_len,
                         size_t datagram_size, uint8_t *out, size_t out_len, size_t *consumed)
{
    if (!link_valid(link) || in == NULL || out == NULL || consumed == NULL) {
        return -EINVAL;
    }
    if (in_len == 0) {
        return -EBADMSG;
    }
    if (!tern_iphc_is_dispatch(in[0])) {
        return -EINVAL;
    }
    iphc_reader_t r;
    r.link = link;
    r.in = in;
    r.in_len = in_len;
    r.in_pos = 0;
    r.out = out;
    r.out_len = out_len;
    r.out_pos = 0;
    r.nhc = 0;
    r.ip_count = 0;   /* ip_off[] is written before it is read */
    r.udp = false;
    r.udp_off = 0;
    int res = decompress_run(&r);
    if (res < 0) {
        return res;
    }

    /* §3.2 / §4.3.3: Payload Length and UDP Length from the datagram's size. */
    size_t payload = in_len - r.in_pos;
    size_t total = r.out_pos + payload;
    if (datagram_size != 0) {
        if (datagram_size < total) {
            return -EMSGSIZE;
        }
        total = datagram_size;
    }
    for (unsigned i = 0; i < r.ip_count; i++) {
        size_t plen = total - r.ip_off[i] - TERN_IPV6_HDR_LEN;
        if (plen > UINT16_MAX) {
            return -EMSGSIZE;
        }
        tern_store16(&out[r.ip_off[i] + 4], (uint16_t)plen);
    }
    if (r.udp) {
        size_t ulen = total - r.udp_off;
        if (ulen > UINT16_MAX) {
            return -EMSGSIZE;
        }
        tern_store16(&out[r.udp_off + 4], (uint16_t)ulen);
    }
    *consumed = r.in_pos;
    return (int)r.out_pos;
}
