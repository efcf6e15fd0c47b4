/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL Option of the Hop-by-Hop Options header (RFC 6553 §3).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/wire/bytes.h"
#include "tern/wire/ipv6.h"
#include "tern/wire/rpl_hbh.h"

static bool is_rpl_type(uint8_t type)
{
    return type == TERN_RPL_HBH_OPT_TYPE || type == TERN_RPL_HBH_OPT_TYPE_RFC9008;
}

/* The 4 octets after Opt Data Len: O|R|F|0|0|0|0|0, RPLInstanceID, SenderRank. */
static void data_read(tern_rpl_hbh_opt_t *repr, uint8_t type, const uint8_t *data)
{
    repr->type = type;
    repr->down = (data[0] & TERN_RPL_HBH_FLAG_DOWN) != 0;
    repr->rank_error = (data[0] & TERN_RPL_HBH_FLAG_RANK_ERROR) != 0;
    repr->forwarding_error = (data[0] & TERN_RPL_HBH_FLAG_FORWARDING_ERROR) != 0;
    repr->instance_id = data[1];
    repr->sender_rank = tern_load16(data + 2);
}

static void data_write(const tern_rpl_hbh_opt_t *repr, uint8_t *data)
{
    data[0] = (uint8_t)((repr->down ? TERN_RPL_HBH_FLAG_DOWN : 0u) |
                        (repr->rank_error ? TERN_RPL_HBH_FLAG_RANK_ERROR : 0u) |
                        (repr->forwarding_error ? TERN_RPL_HBH_FLAG_FORWARDING_ERROR : 0u));
    data[1] = repr->instance_id;
    tern_store16(data + 2, repr->sender_rank);
}

int tern_rpl_hbh_opt_parse(tern_rpl_hbh_opt_t *repr, const tern_ipv6_opt_t *opt)
{
    if (!is_rpl_type(opt->type) || opt->data_len < TERN_RPL_HBH_OPT_DATA_LEN) {
        return -EBADMSG;
    }
    data_read(repr, opt->type, opt->data);
    return 0;
}

int tern_rpl_hbh_opt_emit(const tern_rpl_hbh_opt_t *repr, uint8_t *buf, size_t len)
{
    if (!is_rpl_type(repr->type)) {
        return -EINVAL;
    }
    if (len < TERN_RPL_HBH_OPT_LEN) {
        return -ENOBUFS;
    }
    buf[0] = repr->type;
    buf[1] = TERN_RPL_HBH_OPT_DATA_LEN;
    data_write(repr, buf + 2);
    return (int)TERN_RPL_HBH_OPT_LEN;
}

int tern_rpl_hbh_find(tern_rpl_hbh_opt_t *repr, size_t *offset, const uint8_t *hdr, size_t len)
{
    tern_ipv6_opt_iter_t it;
    tern_ipv6_opt_t opt;
    int rc;
    tern_ipv6_opt_iter_init(&it, hdr, len);
    while ((rc = tern_ipv6_opt_next(&it, &opt)) == 1) {
        if (!is_rpl_type(opt.type)) {
            continue;
        }
        rc = tern_rpl_hbh_opt_parse(repr, &opt);
        if (rc < 0) {
            return rc;
        }
        if (offset != NULL) {
            *offset = opt.offset;
        }
        return 1;
    }
    return rc < 0 ? -EBADMSG : 0;
}

int tern_rpl_hbh_opt_update(const tern_rpl_hbh_opt_t *repr, uint8_t *hdr, size_t len, size_t offset)
{
    if (offset > len || len - offset < TERN_RPL_HBH_OPT_LEN || !is_rpl_type(hdr[offset]) ||
        hdr[offset + 1u] < TERN_RPL_HBH_OPT_DATA_LEN) {
        return -EBADMSG;
    }
    data_write(repr, hdr + offset + 2u);
    return 0;
}

int tern_rpl_hbh_emit(const tern_rpl_hbh_opt_t *repr, uint8_t next_header, uint8_t *buf, size_t len)
{
    if (!is_rpl_type(repr->type)) {
        return -EINVAL;
    }
    if (len < TERN_RPL_HBH_HDR_LEN) {
        return -ENOBUFS;
    }
    buf[0] = next_header;
    buf[1] = 0; /* Hdr Ext Len: 8 octets, the first 8 not counted (RFC 8200 §4.3) */
    return tern_rpl_hbh_opt_emit(repr, buf + 2, len - 2u) + 2;
}
