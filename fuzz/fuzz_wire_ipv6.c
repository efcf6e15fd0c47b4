/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the IPv6 wire format: fixed header, extension header chain,
 *        options of every Hop-by-Hop / Destination Options header, Fragment
 *        and Routing headers. Every successful parse is emitted and parsed
 *        again: the result must be the same, byte for byte.
 *
 * Input: an IPv6 packet. When it is not one (short or wrong version), the
 * first byte is taken as a Next Header value and the rest as the chain.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/ipv6.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)       \
    do {                  \
        if (!(cond)) {    \
            abort();      \
        }                 \
    } while (0)

static void check_options(const uint8_t *hdr, size_t len)
{
    tern_ipv6_opt_iter_t it;
    tern_ipv6_opt_t opt;
    tern_ipv6_opt_iter_init(&it, hdr, len);
    int res;
    size_t last = 0;
    while ((res = tern_ipv6_opt_next(&it, &opt)) == 1) {
        CHECK(opt.offset >= 2 && opt.offset >= last);
        CHECK(opt.offset + 2u + opt.data_len <= len);
        CHECK(opt.data == hdr + opt.offset + 2);
        CHECK(opt.type != TERN_IPV6_OPT_PAD1 && opt.type != TERN_IPV6_OPT_PADN);
        CHECK((unsigned)tern_ipv6_opt_action(opt.type) <= 3);
        last = opt.offset + 1;
        /* re-emit the option: same bytes */
        uint8_t out[2 + 255];
        CHECK(tern_ipv6_opt_emit(out, sizeof(out), opt.type, opt.data, opt.data_len) ==
              2 + opt.data_len);
        CHECK(memcmp(out, hdr + opt.offset, 2u + opt.data_len) == 0);
    }
    CHECK(res == 0 || res == -EBADMSG);
}

static void check_fragment(const uint8_t *hdr, size_t len)
{
    tern_ipv6_frag_repr_t frag, again;
    if (tern_ipv6_frag_parse(&frag, hdr, len) != TERN_IPV6_FRAG_HDR_LEN) {
        return;
    }
    CHECK(frag.offset <= TERN_IPV6_FRAG_OFFSET_MAX);
    uint8_t out[TERN_IPV6_FRAG_HDR_LEN];
    CHECK(tern_ipv6_frag_emit(&frag, out, sizeof(out)) == TERN_IPV6_FRAG_HDR_LEN);
    /* equal except the reserved fields, which emit zeroes */
    CHECK(out[0] == hdr[0] && out[1] == 0 && out[2] == hdr[2] &&
          out[3] == (hdr[3] & 0xf9) && memcmp(out + 4, hdr + 4, 4) == 0);
    CHECK(tern_ipv6_frag_parse(&again, out, sizeof(out)) == TERN_IPV6_FRAG_HDR_LEN);
    CHECK(again.next_header == frag.next_header && again.offset == frag.offset &&
          again.more == frag.more && again.identification == frag.identification);
}

static void check_routing(const uint8_t *hdr, size_t len)
{
    tern_ipv6_routing_repr_t rh, again;
    int res = tern_ipv6_routing_parse(&rh, hdr, len);
    if (res < 0) {
        return;
    }
    CHECK((size_t)res <= len && tern_ipv6_routing_len(&rh) == (size_t)res);
    static uint8_t out[2048];
    CHECK(tern_ipv6_routing_emit(&rh, out, sizeof(out)) == res);
    CHECK(memcmp(out, hdr, (size_t)res) == 0);
    CHECK(tern_ipv6_routing_parse(&again, out, (size_t)res) == res);
    CHECK(again.next_header == rh.next_header && again.hdr_ext_len == rh.hdr_ext_len &&
          again.routing_type == rh.routing_type && again.segments_left == rh.segments_left &&
          again.data_len == rh.data_len);
}

static void walk_chain(const uint8_t *buf, size_t len, uint8_t next_header)
{
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    tern_ipv6_ext_walk_init(&walk, buf, len, next_header);
    size_t prev_end = 0;
    int res;
    while ((res = tern_ipv6_ext_walk_next(&walk, &ext)) == 1) {
        CHECK(ext.offset == prev_end);
        CHECK(ext.len >= 8 && ext.offset + ext.len <= len);
        CHECK(tern_ipv6_is_ext_header(ext.type));
        prev_end = ext.offset + ext.len;
        CHECK(walk.offset == prev_end && walk.next_header == ext.next_header);
        const uint8_t *hdr = buf + ext.offset;

        /* the generic view agrees with the walk, and emits the same first two bytes */
        tern_ipv6_ext_t single;
        CHECK(tern_ipv6_ext_parse(&single, ext.type, hdr, ext.len) == ext.len);
        CHECK(single.next_header == ext.next_header && single.len == ext.len);
        uint8_t first[2048];
        if (tern_ipv6_ext_emit(&single, first, sizeof(first)) == ext.len) {
            CHECK(first[0] == hdr[0] && first[1] == hdr[1]);
        }

        switch (ext.type) {
        case TERN_IPV6_NH_HOP_BY_HOP:
        case TERN_IPV6_NH_DEST_OPTS:
            check_options(hdr, ext.len);
            break;
        case TERN_IPV6_NH_FRAGMENT:
            check_fragment(hdr, ext.len);
            break;
        case TERN_IPV6_NH_ROUTING:
            check_routing(hdr, ext.len);
            break;
        default:
            break;
        }
    }
    CHECK(res == 0 || res == -EBADMSG);
    if (res == 0) {
        CHECK(walk.offset <= len);
        CHECK(tern_ipv6_ext_walk_next(&walk, &ext) == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tern_ipv6_repr_t ip, again;
    if (tern_ipv6_parse(&ip, data, size) != TERN_IPV6_HDR_LEN) {
        if (size > 0) {
            walk_chain(data + 1, size - 1, data[0]);
            check_options(data, size);
            check_fragment(data, size);
            check_routing(data, size);
        }
        return 0;
    }
    uint8_t out[TERN_IPV6_HDR_LEN];
    CHECK(tern_ipv6_emit(&ip, out, sizeof(out)) == TERN_IPV6_HDR_LEN);
    CHECK(memcmp(out, data, TERN_IPV6_HDR_LEN) == 0);
    CHECK(tern_ipv6_parse(&again, out, sizeof(out)) == TERN_IPV6_HDR_LEN);
    CHECK(again.traffic_class == ip.traffic_class && again.flow_label == ip.flow_label &&
          again.payload_len == ip.payload_len && again.next_header == ip.next_header &&
          again.hop_limit == ip.hop_limit && tern_ipv6_addr_equal(&again.src, &ip.src) &&
          tern_ipv6_addr_equal(&again.dst, &ip.dst));

    int payload = tern_ipv6_check_len(&ip, size);
    size_t chain_len = payload >= 0 ? (size_t)payload : size - TERN_IPV6_HDR_LEN;
    CHECK(payload < 0 || (size_t)payload == ip.payload_len);
    walk_chain(data + TERN_IPV6_HDR_LEN, chain_len, ip.next_header);
    return 0;
}
