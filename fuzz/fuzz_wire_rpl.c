/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the RPL codecs (RFC 6550 §6, RFC 6553 §3): the input is read as
 *        an RPL control message, as an RPL option area and as a Hop-by-Hop
 *        header.
 *
 * Whatever parses is emitted and parsed again: the same repr, and the same
 * bytes except what the formats reserve (written as 0, ignored on receipt),
 * the checksum (the caller's) and, in options, prefix octets past the prefix
 * length (Tern sends the fewest, or RFC 4191's sizes for Route Information).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/ipv6.h"
#include "tern/wire/ndp.h"
#include "tern/wire/rpl.h"
#include "tern/wire/rpl_hbh.h"

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static uint8_t out[4200];
static uint8_t again_buf[4200];

static bool same_addr(const tern_ipv6_addr_t *a, const tern_ipv6_addr_t *b)
{
    return memcmp(a->u8, b->u8, 16) == 0;
}

static void option_round_trip(const tern_rpl_opt_t *opt)
{
    uint8_t *o = again_buf;
    tern_rpl_opt_t back = { 0 };
    int n;
    switch (opt->type) {
    case TERN_RPL_OPT_DAG_METRIC: {
        tern_rpl_opt_metric_t m, m2;
        require(tern_rpl_opt_metric_parse(&m, opt) == 0);
        n = tern_rpl_opt_metric_emit(&m, o, sizeof(again_buf));
        require(n == (int)opt->len && memcmp(o, opt->data, opt->len) == 0);
        back = (tern_rpl_opt_t){ .type = o[0], .data = o, .len = (size_t)n };
        require(tern_rpl_opt_metric_parse(&m2, &back) == 0 && m2.len == m.len);
        break;
    }
    case TERN_RPL_OPT_ROUTE_INFO: {
        tern_rpl_opt_route_info_t r, r2;
        require(tern_rpl_opt_route_info_parse(&r, opt) == 0);
        require(r.prefix_len <= 128 && r.preference <= 3);
        n = tern_rpl_opt_route_info_emit(&r, o, sizeof(again_buf));
        require(n > 0 && (size_t)n == tern_rpl_opt_route_info_len(&r));
        require(o[2] == opt->data[2] && o[3] == (opt->data[3] & 0x18u) && memcmp(o + 4, opt->data + 4, 4) == 0);
        back = (tern_rpl_opt_t){ .type = o[0], .data = o, .len = (size_t)n };
        require(tern_rpl_options_check(o, (size_t)n) == 1);
        require(tern_rpl_opt_route_info_parse(&r2, &back) == 0);
        require(r2.prefix_len == r.prefix_len && r2.preference == r.preference && r2.lifetime == r.lifetime &&
                same_addr(&r2.prefix, &r.prefix));
        break;
    }
    case TERN_RPL_OPT_DODAG_CONF: {
        tern_rpl_opt_dodag_conf_t c;
        require(tern_rpl_opt_dodag_conf_parse(&c, opt) == 0);
        n = tern_rpl_opt_dodag_conf_emit(&c, o, sizeof(again_buf));
        require(n == 16 && memcmp(o, opt->data, 2) == 0 && o[2] == (opt->data[2] & 0x0fu));
        require(memcmp(o + 3, opt->data + 3, 9) == 0 && o[12] == 0 && memcmp(o + 13, opt->data + 13, 3) == 0);
        break;
    }
    case TERN_RPL_OPT_TARGET: {
        tern_rpl_opt_target_t t, t2;
        require(tern_rpl_opt_target_parse(&t, opt) == 0 && t.prefix_len <= 128);
        n = tern_rpl_opt_target_emit(&t, o, sizeof(again_buf));
        require(n > 0 && (size_t)n <= opt->len && (size_t)n == tern_rpl_opt_target_len(&t));
        back = (tern_rpl_opt_t){ .type = o[0], .data = o, .len = (size_t)n };
        require(tern_rpl_opt_target_parse(&t2, &back) == 0);
        require(t2.prefix_len == t.prefix_len && same_addr(&t2.prefix, &t.prefix));
        break;
    }
    case TERN_RPL_OPT_TRANSIT: {
        tern_rpl_opt_transit_t t;
        require(tern_rpl_opt_transit_parse(&t, opt) == 0);
        n = tern_rpl_opt_transit_emit(&t, o, sizeof(again_buf));
        require(n == (int)opt->len && o[2] == (opt->data[2] & 0x80u));
        require(memcmp(o + 3, opt->data + 3, opt->len - 3u) == 0);
        break;
    }
    case TERN_RPL_OPT_SOLICITED: {
        tern_rpl_opt_solicited_t s;
        require(tern_rpl_opt_solicited_parse(&s, opt) == 0);
        n = tern_rpl_opt_solicited_emit(&s, o, sizeof(again_buf));
        require(n == 21 && o[2] == opt->data[2] && o[3] == (opt->data[3] & 0xe0u));
        require(memcmp(o + 4, opt->data + 4, 17) == 0);
        break;
    }
    case TERN_RPL_OPT_PREFIX_INFO: {
        tern_ndp_opt_prefix_info_t p;
        require(tern_rpl_opt_prefix_info_parse(&p, opt) == 0);
        n = tern_rpl_opt_prefix_info_emit(&p, o, sizeof(again_buf));
        require(n == 32 && memcmp(o, opt->data, 12) == 0 && memcmp(o + 16, opt->data + 16, 16) == 0);
        break;
    }
    case TERN_RPL_OPT_TARGET_DESC: {
        uint32_t d;
        require(tern_rpl_opt_target_desc_parse(&d, opt) == 0);
        n = tern_rpl_opt_target_desc_emit(d, o, sizeof(again_buf));
        require(n == 6 && memcmp(o, opt->data, 6) == 0);
        break;
    }
    default: {
        /* Unknown: every parser refuses it. */
        tern_rpl_opt_transit_t t;
        require(tern_rpl_opt_transit_parse(&t, opt) == -EBADMSG);
        break;
    }
    }
}

static void options_walk(const uint8_t *data, size_t size)
{
    int count = tern_rpl_options_check(data, size);
    tern_rpl_opt_iter_t it;
    tern_rpl_opt_t opt;
    int rc;
    int seen = 0;
    tern_rpl_opt_iter_init(&it, data, size);
    while ((rc = tern_rpl_opt_next(&it, &opt)) == 1) {
        require(opt.data >= data && opt.data + opt.len <= data + size && opt.len >= 2);
        require(opt.type != TERN_RPL_OPT_PAD1 && opt.type != TERN_RPL_OPT_PADN);
        option_round_trip(&opt);
        seen++;
    }
    require(rc == 0 ? count == seen : (rc == -EBADMSG && count == -EBADMSG));
}

static void message_round_trip(const uint8_t *data, size_t size)
{
    int code = tern_rpl_code(data, size);
    if (code < 0) {
        require(code == -EBADMSG || code == -ENOTSUP || code == -EPROTONOSUPPORT);
        return;
    }
    int rc;
    int n;
    switch (code) {
    case TERN_RPL_CODE_DIS: {
        tern_rpl_dis_repr_t r;
        if ((rc = tern_rpl_dis_parse(&r, data, size)) < 0) {
            require(rc == -EBADMSG);
            return;
        }
        n = tern_rpl_dis_emit(&r, out, sizeof(out));
        require(n == (int)size && memcmp(out, data, 2) == 0 && out[4] == 0 && out[5] == 0);
        require(memcmp(out + 6, data + 6, size - 6u) == 0);
        break;
    }
    case TERN_RPL_CODE_DIO: {
        tern_rpl_dio_repr_t r, r2;
        if ((rc = tern_rpl_dio_parse(&r, data, size)) < 0) {
            require(rc == -EBADMSG);
            return;
        }
        require(r.mop <= 7 && r.preference <= 7);
        n = tern_rpl_dio_emit(&r, out, sizeof(out));
        require(n == (int)size && (size_t)n == tern_rpl_dio_len(&r));
        require(memcmp(out + 4, data + 4, 4) == 0 && out[8] == (data[8] & 0xbfu) && out[9] == data[9]);
        require(out[10] == 0 && out[11] == 0 && memcmp(out + 12, data + 12, size - 12u) == 0);
        require(tern_rpl_dio_parse(&r2, out, (size_t)n) == rc);
        require(r2.instance_id == r.instance_id && r2.version == r.version && r2.rank == r.rank &&
                r2.grounded == r.grounded && r2.mop == r.mop && r2.preference == r.preference &&
                r2.dtsn == r.dtsn && same_addr(&r2.dodag_id, &r.dodag_id));
        require(tern_rpl_dio_emit(&r, out, (size_t)n - 1u) == -ENOBUFS);
        break;
    }
    case TERN_RPL_CODE_DAO: {
        tern_rpl_dao_repr_t r, r2;
        if ((rc = tern_rpl_dao_parse(&r, data, size)) < 0) {
            require(rc == -EBADMSG);
            return;
        }
        require(r.has_dodag_id || (r.instance_id & TERN_RPL_INSTANCE_LOCAL) == 0);
        n = tern_rpl_dao_emit(&r, out, sizeof(out));
        require(n == (int)size && out[4] == data[4] && out[5] == (data[5] & 0xc0u) && out[6] == 0);
        require(memcmp(out + 7, data + 7, size - 7u) == 0);
        require(tern_rpl_dao_parse(&r2, out, (size_t)n) == rc);
        require(r2.sequence == r.sequence && r2.ack_requested == r.ack_requested &&
                r2.has_dodag_id == r.has_dodag_id && r2.options_len == r.options_len);
        break;
    }
    default: {
        tern_rpl_dao_ack_repr_t r, r2;
        if ((rc = tern_rpl_dao_ack_parse(&r, data, size)) < 0) {
            require(rc == -EBADMSG);
            return;
        }
        n = tern_rpl_dao_ack_emit(&r, out, sizeof(out));
        require(n == (int)size && out[4] == data[4] && out[5] == (data[5] & 0x80u));
        require(memcmp(out + 6, data + 6, size - 6u) == 0);
        require(tern_rpl_dao_ack_parse(&r2, out, (size_t)n) == rc);
        require(r2.status == r.status && r2.sequence == r.sequence && r2.has_dodag_id == r.has_dodag_id);
        break;
    }
    }
    options_walk(out + rc, (size_t)n - (size_t)rc);
}

static void hbh_round_trip(const uint8_t *data, size_t size)
{
    tern_rpl_hbh_opt_t r;
    size_t offset = 0;
    int rc = tern_rpl_hbh_find(&r, &offset, data, size);
    if (rc <= 0) {
        require(rc == 0 || rc == -EBADMSG);
        return;
    }
    require(offset >= 2 && offset + 6u <= size && (data[offset] == 0x63 || data[offset] == 0x23));
    memcpy(out, data, size);
    require(tern_rpl_hbh_opt_update(&r, out, size, offset) == 0);
    require(out[offset + 2u] == (data[offset + 2u] & 0xe0u));
    require(memcmp(out + offset + 3u, data + offset + 3u, 3) == 0);
    tern_rpl_hbh_opt_t r2;
    require(tern_rpl_hbh_find(&r2, NULL, out, size) == 1);
    require(r2.type == r.type && r2.down == r.down && r2.rank_error == r.rank_error &&
            r2.forwarding_error == r.forwarding_error && r2.instance_id == r.instance_id &&
            r2.sender_rank == r.sender_rank);
    require(tern_rpl_hbh_emit(&r, data[0], out, sizeof(out)) == 8);
    require(tern_rpl_hbh_find(&r2, &offset, out, 8) == 1 && offset == 2 && r2.sender_rank == r.sender_rank);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) {
        return 0;
    }
    message_round_trip(data, size);
    options_walk(data, size);
    hbh_round_trip(data, size);
    return 0;
}
