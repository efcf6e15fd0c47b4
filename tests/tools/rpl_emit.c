/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test helper for tests/integration/test_tshark_rpl.py: IPv6 packets
 *        carrying RPL messages (RFC 6550), the RPL Option (RFC 6553) and the
 *        Source Routing Header (RFC 6554) built by Tern's codecs, and Tern's
 *        view of such packets.
 *
 *   tern_rpl_emit packets   one line per packet: "NAME HEX", a whole IPv6
 *                           packet (pcap link type 229, raw IPv6)
 *   tern_rpl_emit parse     for every "NAME HEX" line on stdin (an IPv6
 *                           packet), print "NAME ok KEY=VALUE..." with what
 *                           Tern parses in it, or "NAME err ERRNO"
 *
 * The values each packet is built with are repeated in the Python test,
 * which asks Wireshark for the same fields.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/wire/ipv6_srh.h"
#include "tern/wire/ndp.h"
#include "tern/wire/rpl.h"
#include "tern/wire/rpl_hbh.h"

static void fail(const char *what, int res)
{
    fprintf(stderr, "tern_rpl_emit: %s failed: %d\n", what, res);
    exit(1);
}

static tern_ipv6_addr_t addr(const char *text)
{
    tern_ipv6_addr_t a;
    if (tern_ipv6_addr_from_str(&a, text, strlen(text)) < 0) {
        fail(text, -EINVAL);
    }
    return a;
}

static void print_hex(const char *name, const uint8_t *buf, size_t len)
{
    printf("%s ", name);
    for (size_t i = 0; i < len; i++) {
        printf("%02x", buf[i]);
    }
    printf("\n");
}

/* An IPv6 packet src -> dst whose payload (next header @p nh) is @p payload. */
static void emit_packet(const char *name, const char *src, const char *dst, uint8_t nh, uint8_t hop_limit,
                        const uint8_t *payload, size_t payload_len)
{
    uint8_t pkt[1024];
    tern_ipv6_repr_t ip = { .payload_len = (uint16_t)payload_len, .next_header = nh, .hop_limit = hop_limit,
                            .src = addr(src), .dst = addr(dst) };
    int rc = tern_ipv6_emit(&ip, pkt, sizeof(pkt));
    if (rc < 0 || payload_len > sizeof(pkt) - TERN_IPV6_HDR_LEN) {
        fail(name, rc);
    }
    memcpy(pkt + TERN_IPV6_HDR_LEN, payload, payload_len);
    print_hex(name, pkt, TERN_IPV6_HDR_LEN + payload_len);
}

/* An RPL message in @p msg (checksum 0) sent src -> dst: checksum, packet. */
static void emit_rpl(const char *name, const char *src, const char *dst, uint8_t *msg, int len)
{
    if (len < 0) {
        fail(name, len);
    }
    tern_ipv6_addr_t s = addr(src);
    tern_ipv6_addr_t d = addr(dst);
    int rc = tern_icmpv6_checksum_fill(msg, (size_t)len, &s, &d);
    if (rc < 0) {
        fail(name, rc);
    }
    emit_packet(name, src, dst, TERN_IPV6_NH_ICMPV6, 255, msg, (size_t)len);
}

static int append(int at, int res, const char *what)
{
    if (res < 0) {
        fail(what, res);
    }
    return at + res;
}

static int emit_packets(void)
{
    uint8_t opts[512];
    uint8_t msg[600];
    int n;

    /* DIS with a Solicited Information option. */
    tern_rpl_opt_solicited_t sol = { .instance_id = 0x1e, .match_version = true, .match_instance = true,
                                     .match_dodag_id = true, .dodag_id = addr("2001:db8::1"), .version = 0xf0 };
    n = append(0, tern_rpl_opt_solicited_emit(&sol, opts, sizeof(opts)), "solicited");
    tern_rpl_dis_repr_t dis = { .options = opts, .options_len = (size_t)n };
    emit_rpl("dis", "fe80::2", "ff02::1a", msg, tern_rpl_dis_emit(&dis, msg, sizeof(msg)));

    /* DIO: grounded, storing mode with multicast, preference 5, with a
     * DODAG Configuration, Prefix Information, Route Information, an ETX
     * metric container and padding. */
    tern_rpl_opt_dodag_conf_t conf = { .authentication = false, .path_control_size = 3, .dio_int_doublings = 20,
                                       .dio_int_min = 3, .dio_redundancy = 10, .max_rank_increase = 1792,
                                       .min_hop_rank_increase = 256, .ocp = 1, .default_lifetime = 0xff,
                                       .lifetime_unit = 0xffff };
    tern_ndp_opt_prefix_info_t pio = { .prefix_len = 64, .flags = TERN_NDP_PIO_FLAG_AUTONOMOUS |
                                                                  TERN_NDP_PIO_FLAG_ROUTER_ADDR,
                                       .valid_lifetime = 86400, .preferred_lifetime = 14400,
                                       .prefix = addr("2001:db8::1") };
    tern_rpl_opt_route_info_t rio = { .prefix_len = 48, .preference = 1, .lifetime = 3600,
                                      .prefix = addr("2001:db8:1::") };
    static const uint8_t etx[] = { 0x07, 0x00, 0x00, 0x02, 0x00, 0x80 }; /* RFC 6551 ETX object, ETX 1.0 */
    tern_rpl_opt_metric_t mc = { .data = etx, .len = sizeof(etx) };
    n = append(0, tern_rpl_opt_dodag_conf_emit(&conf, opts, sizeof(opts)), "conf");
    n = append(n, tern_rpl_opt_prefix_info_emit(&pio, opts + n, sizeof(opts) - (size_t)n), "pio");
    n = append(n, tern_rpl_opt_route_info_emit(&rio, opts + n, sizeof(opts) - (size_t)n), "rio");
    n = append(n, tern_rpl_opt_metric_emit(&mc, opts + n, sizeof(opts) - (size_t)n), "mc");
    n = append(n, tern_rpl_opt_pad_emit(opts + n, sizeof(opts) - (size_t)n, 4), "pad");
    tern_rpl_dio_repr_t dio = { .instance_id = 0x1e, .version = 0xf0, .rank = 256, .grounded = true,
                                .mop = TERN_RPL_MOP_STORING_MULTICAST, .preference = 5, .dtsn = 0x42,
                                .dodag_id = addr("2001:db8::1"), .options = opts, .options_len = (size_t)n };
    emit_rpl("dio", "fe80::1", "ff02::1a", msg, tern_rpl_dio_emit(&dio, msg, sizeof(msg)));

    /* Non-storing DAO to the root: Target, Transit with parent, Target Descriptor. */
    tern_rpl_opt_target_t target = { .prefix_len = 128, .prefix = addr("2001:db8::2:a") };
    tern_rpl_opt_transit_t transit = { .external = true, .path_control = 0x80, .path_sequence = 7,
                                       .path_lifetime = 0xff, .has_parent = true, .parent = addr("2001:db8::1:5") };
    n = append(0, tern_rpl_opt_target_emit(&target, opts, sizeof(opts)), "target");
    n = append(n, tern_rpl_opt_transit_emit(&transit, opts + n, sizeof(opts) - (size_t)n), "transit");
    n = append(n, tern_rpl_opt_target_desc_emit(0xdeadbeefu, opts + n, sizeof(opts) - (size_t)n), "desc");
    tern_rpl_dao_repr_t dao = { .instance_id = 0x1e, .ack_requested = true, .has_dodag_id = true, .sequence = 0x07,
                                .dodag_id = addr("2001:db8::1"), .options = opts, .options_len = (size_t)n };
    emit_rpl("dao", "2001:db8::2:a", "2001:db8::1", msg, tern_rpl_dao_emit(&dao, msg, sizeof(msg)));

    /* Storing-mode No-Path DAO to a parent: no DODAGID, a /64 target, Transit
     * without parent, lifetime 0. */
    tern_rpl_opt_target_t target64 = { .prefix_len = 64, .prefix = addr("2001:db8:0:5::") };
    tern_rpl_opt_transit_t nopath = { .path_sequence = 8, .path_lifetime = 0 };
    n = append(0, tern_rpl_opt_target_emit(&target64, opts, sizeof(opts)), "target64");
    n = append(n, tern_rpl_opt_transit_emit(&nopath, opts + n, sizeof(opts) - (size_t)n), "nopath");
    tern_rpl_dao_repr_t dao_np = { .instance_id = 0x00, .sequence = 0x08, .options = opts, .options_len = (size_t)n };
    emit_rpl("dao_nopath", "fe80::2", "fe80::1", msg, tern_rpl_dao_emit(&dao_np, msg, sizeof(msg)));

    tern_rpl_dao_ack_repr_t ack = { .instance_id = 0x1e, .has_dodag_id = true, .sequence = 0x07, .status = 0,
                                    .dodag_id = addr("2001:db8::1") };
    emit_rpl("dao_ack", "2001:db8::1", "2001:db8::2:a", msg, tern_rpl_dao_ack_emit(&ack, msg, sizeof(msg)));
    tern_rpl_dao_ack_repr_t nack = { .instance_id = 0x00, .sequence = 0x08, .status = 128 };
    emit_rpl("dao_ack_reject", "fe80::1", "fe80::2", msg, tern_rpl_dao_ack_emit(&nack, msg, sizeof(msg)));

    /* A Hop-by-Hop header with only the RPL Option, then no next header. */
    tern_rpl_hbh_opt_t hbh = { .type = TERN_RPL_HBH_OPT_TYPE, .down = true, .rank_error = false,
                               .forwarding_error = true, .instance_id = 0x1e, .sender_rank = 0x0200 };
    n = append(0, tern_rpl_hbh_emit(&hbh, TERN_IPV6_NH_NONE, msg, sizeof(msg)), "hbh");
    emit_packet("hbh", "2001:db8::2:a", "2001:db8::1", TERN_IPV6_NH_HOP_BY_HOP, 64, msg, (size_t)n);

    /* Source routes from the root: CmprI 13 / CmprE 7, and 15 / 15. */
    tern_ipv6_addr_t hops[3] = { addr("2001:db8::1:3"), addr("2001:db8:0:1::4") };
    tern_ipv6_addr_t first = addr("2001:db8::2");
    tern_srh_path_t path = { .next_header = TERN_IPV6_NH_NONE, .dst = &first, .hops = hops, .count = 2 };
    n = append(0, tern_srh_path_emit(&path, msg, sizeof(msg)), "srh");
    emit_packet("srh", "2001:db8::1", "2001:db8::2", TERN_IPV6_NH_ROUTING, 64, msg, (size_t)n);
    tern_ipv6_addr_t near[3] = { addr("2001:db8::3"), addr("2001:db8::4"), addr("2001:db8::5") };
    path = (tern_srh_path_t){ .next_header = TERN_IPV6_NH_NONE, .dst = &first, .hops = near, .count = 3 };
    n = append(0, tern_srh_path_emit(&path, msg, sizeof(msg)), "srh_near");
    emit_packet("srh_near", "2001:db8::1", "2001:db8::2", TERN_IPV6_NH_ROUTING, 64, msg, (size_t)n);
    return 0;
}

/* ---- parse ----------------------------------------------------------------------- */

static void print_addr(FILE *f, const char *key, const tern_ipv6_addr_t *a)
{
    char text[TERN_IPV6_ADDR_STRLEN];
    (void)tern_ipv6_addr_to_str(a, text, sizeof(text));
    fprintf(f, " %s=%s", key, text);
}

static int print_options(FILE *f, const uint8_t *options, size_t len)
{
    tern_rpl_opt_iter_t it;
    tern_rpl_opt_t opt;
    int rc;
    tern_rpl_opt_iter_init(&it, options, len);
    while ((rc = tern_rpl_opt_next(&it, &opt)) == 1) {
        switch (opt.type) {
        case TERN_RPL_OPT_DAG_METRIC: {
            tern_rpl_opt_metric_t m;
            (void)tern_rpl_opt_metric_parse(&m, &opt);
            fprintf(f, " metric.len=%zu", m.len);
            break;
        }
        case TERN_RPL_OPT_ROUTE_INFO: {
            tern_rpl_opt_route_info_t r;
            (void)tern_rpl_opt_route_info_parse(&r, &opt);
            fprintf(f, " route.prefix_length=%u route.pref=%u route.lifetime=%lu", r.prefix_len, r.preference,
                   (unsigned long)r.lifetime);
            print_addr(f, "route.prefix", &r.prefix);
            break;
        }
        case TERN_RPL_OPT_DODAG_CONF: {
            tern_rpl_opt_dodag_conf_t c;
            (void)tern_rpl_opt_dodag_conf_parse(&c, &opt);
            fprintf(f, " config.auth=%d config.pcs=%u config.interval_double=%u config.interval_min=%u"
                   " config.redundancy=%u config.max_rank_inc=%u config.min_hop_rank_inc=%u config.ocp=%u"
                   " config.def_lifetime=%u config.lifetime_unit=%u",
                   c.authentication, c.path_control_size, c.dio_int_doublings, c.dio_int_min, c.dio_redundancy,
                   c.max_rank_increase, c.min_hop_rank_increase, c.ocp, c.default_lifetime, c.lifetime_unit);
            break;
        }
        case TERN_RPL_OPT_TARGET: {
            tern_rpl_opt_target_t t;
            (void)tern_rpl_opt_target_parse(&t, &opt);
            fprintf(f, " target.prefix_length=%u", t.prefix_len);
            print_addr(f, "target.prefix", &t.prefix);
            break;
        }
        case TERN_RPL_OPT_TRANSIT: {
            tern_rpl_opt_transit_t t;
            (void)tern_rpl_opt_transit_parse(&t, &opt);
            fprintf(f, " transit.flag.e=%d transit.pathctl=%u transit.pathseq=%u transit.pathlifetime=%u", t.external,
                   t.path_control, t.path_sequence, t.path_lifetime);
            if (t.has_parent) {
                print_addr(f, "transit.parent", &t.parent);
            }
            break;
        }
        case TERN_RPL_OPT_SOLICITED: {
            tern_rpl_opt_solicited_t s;
            (void)tern_rpl_opt_solicited_parse(&s, &opt);
            fprintf(f, " solicited.instance=%u solicited.flag.v=%d solicited.flag.i=%d solicited.flag.d=%d"
                   " solicited.version=%u",
                   s.instance_id, s.match_version, s.match_instance, s.match_dodag_id, s.version);
            print_addr(f, "solicited.dodagid", &s.dodag_id);
            break;
        }
        case TERN_RPL_OPT_PREFIX_INFO: {
            tern_ndp_opt_prefix_info_t p;
            (void)tern_rpl_opt_prefix_info_parse(&p, &opt);
            fprintf(f, " prefix.length=%u prefix.flag=%u prefix.valid_lifetime=%lu prefix.preferred_lifetime=%lu",
                   p.prefix_len, p.flags, (unsigned long)p.valid_lifetime, (unsigned long)p.preferred_lifetime);
            print_addr(f, "prefix", &p.prefix);
            break;
        }
        case TERN_RPL_OPT_TARGET_DESC: {
            uint32_t d;
            (void)tern_rpl_opt_target_desc_parse(&d, &opt);
            fprintf(f, " targetdesc.descriptor=%lu", (unsigned long)d);
            break;
        }
        default:
            fprintf(f, " opt%u.len=%zu", opt.type, opt.len);
            break;
        }
    }
    return rc;
}

static int parse_rpl(FILE *f, const uint8_t *msg, size_t len)
{
    int code = tern_rpl_code(msg, len);
    int rc;
    if (code < 0) {
        return code;
    }
    fprintf(f, " code=%d", code);
    switch (code) {
    case TERN_RPL_CODE_DIS: {
        tern_rpl_dis_repr_t r;
        if ((rc = tern_rpl_dis_parse(&r, msg, len)) < 0) {
            return rc;
        }
        return print_options(f, r.options, r.options_len);
    }
    case TERN_RPL_CODE_DIO: {
        tern_rpl_dio_repr_t r;
        if ((rc = tern_rpl_dio_parse(&r, msg, len)) < 0) {
            return rc;
        }
        fprintf(f, " dio.instance=%u dio.version=%u dio.rank=%u dio.flag.g=%d dio.flag.mop=%u"
               " dio.flag.preference=%u dio.dtsn=%u",
               r.instance_id, r.version, r.rank, r.grounded, r.mop, r.preference, r.dtsn);
        print_addr(f, "dio.dagid", &r.dodag_id);
        return print_options(f, r.options, r.options_len);
    }
    case TERN_RPL_CODE_DAO: {
        tern_rpl_dao_repr_t r;
        if ((rc = tern_rpl_dao_parse(&r, msg, len)) < 0) {
            return rc;
        }
        fprintf(f, " dao.instance=%u dao.flag.k=%d dao.flag.d=%d dao.sequence=%u", r.instance_id, r.ack_requested,
               r.has_dodag_id, r.sequence);
        if (r.has_dodag_id) {
            print_addr(f, "dao.dodagid", &r.dodag_id);
        }
        return print_options(f, r.options, r.options_len);
    }
    default: {
        tern_rpl_dao_ack_repr_t r;
        if ((rc = tern_rpl_dao_ack_parse(&r, msg, len)) < 0) {
            return rc;
        }
        fprintf(f, " daoack.instance=%u daoack.flag.d=%d daoack.sequence=%u daoack.status=%u", r.instance_id,
               r.has_dodag_id, r.sequence, r.status);
        if (r.has_dodag_id) {
            print_addr(f, "daoack.dodagid", &r.dodag_id);
        }
        return print_options(f, r.options, r.options_len);
    }
    }
}

static int parse_packet(FILE *f, const uint8_t *pkt, size_t len)
{
    tern_ipv6_repr_t ip;
    int rc = tern_ipv6_parse(&ip, pkt, len);
    if (rc < 0 || (rc = tern_ipv6_check_len(&ip, len)) < 0) {
        return rc;
    }
    const uint8_t *payload = pkt + TERN_IPV6_HDR_LEN;
    tern_ipv6_ext_walk_t walk;
    tern_ipv6_ext_t ext;
    tern_ipv6_ext_walk_init(&walk, payload, ip.payload_len, ip.next_header);
    while ((rc = tern_ipv6_ext_walk_next(&walk, &ext)) == 1) {
        const uint8_t *hdr = payload + ext.offset;
        if (ext.type == TERN_IPV6_NH_HOP_BY_HOP) {
            tern_rpl_hbh_opt_t o;
            rc = tern_rpl_hbh_find(&o, NULL, hdr, ext.len);
            if (rc < 0) {
                return rc;
            }
            if (rc == 1) {
                fprintf(f, " rpl.type=%u rpl.flag.o=%d rpl.flag.r=%d rpl.flag.f=%d rpl.instance_id=%u"
                       " rpl.sender_rank=%u",
                       o.type, o.down, o.rank_error, o.forwarding_error, o.instance_id, o.sender_rank);
            }
        } else if (ext.type == TERN_IPV6_NH_ROUTING) {
            tern_srh_repr_t srh;
            rc = tern_srh_parse(&srh, hdr, ext.len);
            if (rc < 0) {
                return rc;
            }
            fprintf(f, " srh.segleft=%u srh.cmprI=%u srh.cmprE=%u srh.pad=%u srh.addr_count=%zu", srh.segments_left,
                   srh.cmpr_i, srh.cmpr_e, srh.pad, srh.count);
            for (size_t i = 1; i <= srh.count; i++) {
                tern_ipv6_addr_t a;
                (void)tern_srh_addr(&srh, i, &ip.dst, &a);
                print_addr(f, "srh.full_address", &a);
            }
        }
    }
    if (rc < 0) {
        return rc;
    }
    if (walk.next_header == TERN_IPV6_NH_ICMPV6) {
        tern_checksum_span_t span = { .data = payload + walk.offset, .len = walk.len - walk.offset };
        fprintf(f, " checksum=%s", tern_icmpv6_checksum_verify(&ip.src, &ip.dst, &span, 1) ? "good" : "bad");
        return parse_rpl(f, payload + walk.offset, walk.len - walk.offset);
    }
    return 0;
}

static const char *errno_name(int err)
{
    switch (err) {
    case EBADMSG:
        return "EBADMSG";
    case ENOTSUP:
        return "ENOTSUP";
    case EPROTONOSUPPORT:
        return "EPROTONOSUPPORT";
    case EINVAL:
        return "EINVAL";
    default:
        return "E?";
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

static int parse_lines(void)
{
    char line[8192];
    while (fgets(line, sizeof(line), stdin) != NULL) {
        char *space = strchr(line, ' ');
        if (space == NULL) {
            continue;
        }
        *space = '\0';
        const char *hex = space + 1;
        uint8_t pkt[2048];
        size_t len = 0;
        while (hexval(hex[0]) >= 0 && hexval(hex[1]) >= 0 && len < sizeof(pkt)) {
            pkt[len++] = (uint8_t)(hexval(hex[0]) * 16 + hexval(hex[1]));
            hex += 2;
        }
        /* The fields go to a buffer first: an error replaces them. */
        char out[4096];
        FILE *mem = fmemopen(out, sizeof(out), "w");
        if (mem == NULL) {
            fail("fmemopen", -errno);
        }
        int rc = parse_packet(mem, pkt, len);
        fclose(mem);
        if (rc < 0) {
            printf("%s err %s\n", line, errno_name(-rc));
        } else {
            printf("%s ok%s\n", line, out);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "packets") == 0) {
        return emit_packets();
    }
    if (argc == 2 && strcmp(argv[1], "parse") == 0) {
        return parse_lines();
    }
    fprintf(stderr, "usage: %s packets | parse < lines\n", argv[0]);
    return 2;
}
