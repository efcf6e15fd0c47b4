/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the Neighbor Discovery codec: the input is a whole ICMPv6 message.
 *
 * The type octet picks the message parser. On success every option is taken
 * through its parser; each parsed option is emitted and re-parsed (same
 * repr), and the message is emitted from its repr and re-parsed (same repr,
 * same option bytes). The IPv6-header checks run with fixed addresses.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ndp.h"

#define BUF_SIZE 4096

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static uint8_t out[BUF_SIZE];
static uint8_t opt_out[BUF_SIZE];

static void round_trip_option(const tern_ndp_opt_t *opt)
{
    require(opt->len >= 8 && opt->len % 8 == 0 && opt->data[0] == opt->type);
    switch (opt->type) {
    case TERN_NDP_OPT_SLLA:
    case TERN_NDP_OPT_TLLA: {
        tern_ndp_opt_lladdr_t ll;
        require(tern_ndp_opt_lladdr_parse(&ll, opt) == 0);
        require(tern_ndp_opt_lladdr_emit(&ll, opt_out, sizeof(opt_out)) == (int)opt->len);
        require(memcmp(opt_out, opt->data, opt->len) == 0);
        break;
    }
    case TERN_NDP_OPT_PREFIX_INFO: {
        tern_ndp_opt_prefix_info_t pio;
        tern_ndp_opt_prefix_info_t back;
        if (tern_ndp_opt_prefix_info_parse(&pio, opt) < 0) {
            require(opt->len != 32 || opt->data[2] > 128);
            break;
        }
        require(tern_ndp_opt_prefix_info_emit(&pio, opt_out, sizeof(opt_out)) == 32);
        tern_ndp_opt_t again = { .type = opt_out[0], .data = opt_out, .len = 32 };
        require(tern_ndp_opt_prefix_info_parse(&back, &again) == 0);
        require(pio.prefix_len == back.prefix_len && pio.flags == back.flags &&
                pio.valid_lifetime == back.valid_lifetime &&
                pio.preferred_lifetime == back.preferred_lifetime &&
                memcmp(pio.prefix.u8, back.prefix.u8, 16) == 0);
        require(memcmp(opt_out, opt->data, 12) == 0 && memcmp(opt_out + 16, opt->data + 16, 16) == 0);
        break;
    }
    case TERN_NDP_OPT_REDIRECTED_HDR: {
        tern_ndp_opt_redirected_hdr_t rh;
        require(tern_ndp_opt_redirected_hdr_parse(&rh, opt) == 0);
        require(tern_ndp_opt_redirected_hdr_emit(&rh, opt_out, opt->len) == (int)opt->len);
        require(memcmp(opt_out + 8, opt->data + 8, opt->len - 8) == 0);
        /* Truncation: never more than asked for, always a multiple of 8. */
        size_t room = opt->len / 2 + 3;
        int rc = tern_ndp_opt_redirected_hdr_emit(&rh, opt_out, room);
        if (room < 8) {
            require(rc == -ENOBUFS);
        } else {
            require(rc >= 8 && rc % 8 == 0 && (size_t)rc <= room);
        }
        break;
    }
    case TERN_NDP_OPT_MTU: {
        uint32_t mtu;
        uint32_t back;
        if (tern_ndp_opt_mtu_parse(&mtu, opt) < 0) {
            require(opt->len != 8);
            break;
        }
        require(tern_ndp_opt_mtu_emit(mtu, opt_out, sizeof(opt_out)) == 8);
        tern_ndp_opt_t again = { .type = opt_out[0], .data = opt_out, .len = 8 };
        require(tern_ndp_opt_mtu_parse(&back, &again) == 0 && back == mtu);
        break;
    }
    case TERN_NDP_OPT_RDNSS: {
        tern_ndp_opt_rdnss_t rdnss;
        if (tern_ndp_opt_rdnss_parse(&rdnss, opt) < 0) {
            break;
        }
        require(rdnss.count >= 1 && rdnss.count <= TERN_NDP_OPT_RDNSS_MAX_ADDRS);
        require(tern_ndp_opt_rdnss_emit(&rdnss, opt_out, sizeof(opt_out)) == (int)opt->len);
        require(memcmp(opt_out, opt->data, 2) == 0 && memcmp(opt_out + 4, opt->data + 4, opt->len - 4) == 0);
        tern_ipv6_addr_t a;
        require(tern_ndp_opt_rdnss_addr(&rdnss, rdnss.count - 1, &a) == 0);
        require(tern_ndp_opt_rdnss_addr(&rdnss, rdnss.count, &a) == -EINVAL);
        break;
    }
    case TERN_NDP_OPT_ROUTE_INFO: {
        tern_ndp_opt_route_info_t rio;
        tern_ndp_opt_route_info_t back;
        if (tern_ndp_opt_route_info_parse(&rio, opt) < 0) {
            break;
        }
        /* RFC 4191 §2.3: emitted at the shortest length, which is never longer than the one parsed. */
        int n = tern_ndp_opt_route_info_emit(&rio, opt_out, sizeof(opt_out));
        require(n >= 8 && (size_t)n <= opt->len && (size_t)n == tern_ndp_opt_route_info_len(rio.prefix_len));
        tern_ndp_opt_t again = { .type = opt_out[0], .data = opt_out, .len = (size_t)n };
        require(tern_ndp_opt_route_info_parse(&back, &again) == 0);
        require(rio.prefix_len == back.prefix_len && rio.preference == back.preference &&
                rio.lifetime == back.lifetime && memcmp(rio.prefix.u8, back.prefix.u8, 16) == 0);
        break;
    }
    default:
        /* Unknown (or not yet parsed, e.g. ARO): skipped, §4.6. */
        break;
    }
}

static void walk_options(const uint8_t *options, size_t len)
{
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t opt;
    int count = 0;
    int rc;
    tern_ndp_opt_iter_init(&it, options, len);
    while ((rc = tern_ndp_opt_next(&it, &opt)) == 1) {
        require(opt.data >= options && opt.data + opt.len <= options + len);
        round_trip_option(&opt);
        count++;
    }
    /* The message parse already checked the options. */
    require(rc == 0 && tern_ndp_options_check(options, len) == count);
}

/* Emit a parsed message into @c out and require the same total length and the
 * same option bytes. */
static void check_emitted(int rc, size_t size, size_t fixed, const uint8_t *data)
{
    if (size > sizeof(out)) {
        require(rc == -ENOBUFS);
        return;
    }
    require(rc == (int)size);
    require(out[0] == data[0] && out[1] == 0 && out[2] == 0 && out[3] == 0);
    require(memcmp(out + fixed, data + fixed, size - fixed) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const tern_ipv6_addr_t link_local = { { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } };
    static const tern_ipv6_addr_t all_nodes = TERN_IPV6_ADDR_ALL_NODES_LINK;
    if (size == 0) {
        return 0;
    }
    /* Also exercise the option iterator on the raw input. */
    (void)tern_ndp_options_check(data, size);

    int rc;
    switch (data[0]) {
    case TERN_ICMPV6_ROUTER_SOLICIT: {
        tern_ndp_rs_repr_t m;
        tern_ndp_rs_repr_t back;
        if (tern_ndp_rs_parse(&m, data, size) < 0) {
            break;
        }
        walk_options(m.options, m.options_len);
        rc = tern_ndp_rs_emit(&m, out, sizeof(out));
        check_emitted(rc, size, TERN_NDP_RS_LEN, data);
        require(rc < 0 || tern_ndp_rs_parse(&back, out, (size_t)rc) == (int)TERN_NDP_RS_LEN);
        break;
    }
    case TERN_ICMPV6_ROUTER_ADVERT: {
        tern_ndp_ra_repr_t m;
        tern_ndp_ra_repr_t back;
        if (tern_ndp_ra_parse(&m, data, size) < 0) {
            break;
        }
        walk_options(m.options, m.options_len);
        int prf = tern_ndp_ra_preference(m.flags);
        require(prf >= -1 && prf <= 1);
        rc = tern_ndp_ra_emit(&m, out, sizeof(out));
        check_emitted(rc, size, TERN_NDP_RA_LEN, data);
        if (rc > 0) {
            require(memcmp(out + 4, data + 4, 12) == 0);
            require(tern_ndp_ra_parse(&back, out, (size_t)rc) == (int)TERN_NDP_RA_LEN);
            require(back.flags == m.flags && back.router_lifetime == m.router_lifetime &&
                    back.reachable_time == m.reachable_time && back.retrans_timer == m.retrans_timer &&
                    back.cur_hop_limit == m.cur_hop_limit);
        }
        break;
    }
    case TERN_ICMPV6_NEIGHBOR_SOLICIT: {
        tern_ndp_ns_repr_t m;
        tern_ndp_ns_repr_t back;
        if (tern_ndp_ns_parse(&m, data, size) < 0) {
            break;
        }
        walk_options(m.options, m.options_len);
        rc = tern_ndp_ns_emit(&m, out, sizeof(out));
        check_emitted(rc, size, TERN_NDP_NS_LEN, data);
        if (rc > 0) {
            require(tern_ndp_ns_parse(&back, out, (size_t)rc) == (int)TERN_NDP_NS_LEN);
            require(memcmp(back.target.u8, m.target.u8, 16) == 0);
        }
        break;
    }
    case TERN_ICMPV6_NEIGHBOR_ADVERT: {
        tern_ndp_na_repr_t m;
        tern_ndp_na_repr_t back;
        if (tern_ndp_na_parse(&m, data, size) < 0) {
            break;
        }
        walk_options(m.options, m.options_len);
        rc = tern_ndp_na_emit(&m, out, sizeof(out));
        check_emitted(rc, size, TERN_NDP_NA_LEN, data);
        if (rc > 0) {
            require(tern_ndp_na_parse(&back, out, (size_t)rc) == (int)TERN_NDP_NA_LEN);
            require(back.flags == m.flags && memcmp(back.target.u8, m.target.u8, 16) == 0);
        }
        break;
    }
    case TERN_ICMPV6_REDIRECT: {
        tern_ndp_redirect_repr_t m;
        tern_ndp_redirect_repr_t back;
        if (tern_ndp_redirect_parse(&m, data, size) < 0) {
            break;
        }
        walk_options(m.options, m.options_len);
        rc = tern_ndp_redirect_emit(&m, out, sizeof(out));
        check_emitted(rc, size, TERN_NDP_REDIRECT_LEN, data);
        if (rc > 0) {
            require(memcmp(out + 8, data + 8, 32) == 0);
            require(tern_ndp_redirect_parse(&back, out, (size_t)rc) == (int)TERN_NDP_REDIRECT_LEN);
        }
        break;
    }
    default:
        break;
    }
    (void)tern_ndp_check_ip(data, size, &link_local, &all_nodes, 255);
    return 0;
}
