/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the RPL Source Routing Header codec (RFC 6554).
 *
 * Input: octet 0 a mask of which addresses are "ours", octets 1..16 the IPv6
 * destination, the rest a Routing header. Whatever parses is checked
 * (tern_srh_check()), advanced to its end (tern_srh_advance()) and
 * re-emitted from its expanded addresses (tern_srh_path_emit()), which must
 * give back the same addresses.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ipv6_srh.h"

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static uint8_t hdr[TERN_SRH_MAX_LEN];
static uint8_t out[TERN_SRH_MAX_LEN];
static tern_ipv6_addr_t hops[TERN_SRH_MAX_LEN];

/* An address is "ours" when its last octet's low bits match the mask. */
static bool is_own(void *ctx, const tern_ipv6_addr_t *a)
{
    uint8_t mask = *(const uint8_t *)ctx;
    return ((a->u8[15] & 0x07u) == (mask & 0x07u)) && (mask & 0x80u) != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 17 || size - 17 > sizeof(hdr)) {
        return 0;
    }
    uint8_t mask = data[0];
    tern_ipv6_addr_t dst;
    memcpy(dst.u8, data + 1, 16);
    size_t len = size - 17;
    memcpy(hdr, data + 17, len);

    tern_srh_repr_t r;
    int rc = tern_srh_parse(&r, hdr, len);
    if (rc < 0) {
        require(rc == -EBADMSG);
        require(tern_srh_advance(hdr, len, &dst) == -EBADMSG);
        return 0;
    }
    require((size_t)rc == r.len && r.len <= len && r.len % 8 == 0 && r.count >= 1);
    require(TERN_SRH_FIXED_LEN + (r.count - 1u) * (16u - r.cmpr_i) + (16u - r.cmpr_e) + r.pad == r.len);
    tern_ipv6_addr_t a;
    require(tern_srh_addr(&r, 0, &dst, &a) == -EINVAL && tern_srh_addr(&r, r.count + 1u, &dst, &a) == -EINVAL);

    tern_srh_verdict_t v = tern_srh_check(&r, &dst, is_own, &mask);
    tern_srh_verdict_t v_plain = tern_srh_check(&r, &dst, NULL, NULL);
    require(v == v_plain || (v == TERN_SRH_LOOP && v_plain == TERN_SRH_FORWARD));
    if (v_plain == TERN_SRH_DONE || v_plain == TERN_SRH_BAD_SEGMENTS_LEFT) {
        tern_ipv6_addr_t before = dst;
        require(tern_srh_advance(hdr, len, &dst) == -ERANGE);
        require(memcmp(before.u8, dst.u8, 16) == 0);
        return 0;
    }

    /* The addresses as the route sees them now, then the route walked to
     * its end: each advance yields the next of them. */
    size_t n = r.count;
    size_t first = n - r.segments_left + 1u;
    for (size_t i = 1; i <= n; i++) {
        require(tern_srh_addr(&r, i, &dst, &hops[i - 1u]) == 0);
    }
    tern_ipv6_addr_t cur = dst;
    for (size_t i = first; i <= n; i++) {
        int step = tern_srh_advance(hdr, len, &cur);
        require(step == (int)i);
        if (i < n) {
            require(memcmp(cur.u8, hops[i - 1u].u8, 16) == 0);
        } else {
            /* Address[n] expands with the destination before it. */
            require(memcmp(cur.u8 + r.cmpr_e, hops[n - 1u].u8 + r.cmpr_e, 16u - r.cmpr_e) == 0);
        }
    }
    tern_srh_repr_t end;
    require(tern_srh_parse(&end, hdr, len) == rc && end.segments_left == 0);
    require(tern_srh_check(&end, &cur, NULL, NULL) == TERN_SRH_DONE);
    require(tern_srh_advance(hdr, len, &cur) == -ERANGE);

    /* Emit the remaining route from where it stood; parse gives it back. */
    tern_srh_path_t path = { .next_header = r.next_header, .dst = &dst, .hops = &hops[first - 1u],
                             .count = n - first + 1u };
    int m = tern_srh_path_emit(&path, out, sizeof(out));
    if (m < 0) {
        require(m == -EINVAL); /* multicast, repeated addresses or too many */
        return 0;
    }
    require((size_t)m == tern_srh_path_len(&path) && m % 8 == 0);
    tern_srh_repr_t e;
    require(tern_srh_parse(&e, out, (size_t)m) == m && e.count == path.count && e.segments_left == path.count);
    require(e.pad <= 7);
    tern_ipv6_addr_t walk = dst;
    for (size_t i = 1; i <= e.count; i++) {
        require(tern_srh_check(&e, &walk, NULL, NULL) == TERN_SRH_FORWARD);
        require(tern_srh_advance(out, (size_t)m, &walk) == (int)i);
        require(memcmp(walk.u8, path.hops[i - 1u].u8, 16) == 0);
    }
    return 0;
}
