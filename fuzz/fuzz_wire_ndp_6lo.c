/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the 6LoWPAN-ND codec (RFC 6775 §4, RFC 8505 §4): the input is
 *        read both as a DAR/DAC message and as an ND option area.
 *
 * Whatever parses is emitted and parsed again: the same repr, and the same
 * bytes except the fields the format reserves (written as 0, ignored on
 * receipt) and the checksum (filled by the caller).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/ndp.h"
#include "tern/wire/ndp_6lo.h"

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static uint8_t out[128];

static void dar_round_trip(const uint8_t *data, size_t size)
{
    tern_ndp_6lo_dar_repr_t d;
    int rc = tern_ndp_6lo_dar_parse(&d, data, size);
    if (rc < 0) {
        require(rc == -EBADMSG);
        return;
    }
    require((size_t)rc <= size && (size_t)rc == tern_ndp_6lo_dar_len(&d));
    require(d.rovr_len >= 8 && d.rovr_len <= 32 && d.rovr_len % 8 == 0);
    require(d.extended ? data[1] == d.rovr_len / 8 : (data[1] == 0 && d.rovr_len == 8 && d.tid == 0));
    int n = tern_ndp_6lo_dar_emit(&d, out, sizeof(out));
    if (d.type == TERN_NDP_6LO_DAR && d.status != 0) {
        require(n == -EINVAL); /* RFC 6775 §4.4: a DAR's Status is 0; we do not send otherwise */
        return;
    }
    require(n == rc);
    require(out[0] == data[0] && out[1] == data[1] && out[4] == data[4]);
    require(out[5] == (d.extended ? data[5] : 0u)); /* Reserved without the TID */
    require(memcmp(out + 6, data + 6, (size_t)rc - 6u) == 0);
    tern_ndp_6lo_dar_repr_t back;
    require(tern_ndp_6lo_dar_parse(&back, out, (size_t)n) == n);
    require(memcmp(&back, &d, sizeof(d)) == 0);
    require(tern_ndp_6lo_dar_emit(&d, out, (size_t)n - 1u) == -ENOBUFS);
}

static void aro_round_trip(const tern_ndp_opt_t *opt)
{
    tern_ndp_6lo_aro_t a;
    if (tern_ndp_6lo_aro_parse(&a, opt) < 0) {
        return;
    }
    require(a.i == 0 && (size_t)a.rovr_len + 8u == opt->len);
    int n = tern_ndp_6lo_aro_emit(&a, out, sizeof(out));
    require(n == (int)opt->len);
    require(memcmp(out, opt->data, 3) == 0 && memcmp(out + 6, opt->data + 6, opt->len - 6u) == 0);
    if (a.extended) {
        /* Opaque and TID as received; of the flags only I (0), R and T. */
        require(out[3] == opt->data[3] && out[5] == opt->data[5] && out[4] == (opt->data[4] & 0x0Fu));
    } else {
        require(out[3] == 0 && out[4] == 0 && out[5] == 0);
    }
    tern_ndp_opt_t again = { .type = out[0], .data = out, .len = (size_t)n };
    tern_ndp_6lo_aro_t back;
    require(tern_ndp_6lo_aro_parse(&back, &again) == 0 && memcmp(&back, &a, sizeof(a)) == 0);
}

static void co_round_trip(const tern_ndp_opt_t *opt)
{
    tern_ndp_6lo_6co_t c;
    if (tern_ndp_6lo_6co_parse(&c, opt) < 0) {
        return;
    }
    require(c.context_len <= 128 && c.cid <= 15);
    int n = tern_ndp_6lo_6co_emit(&c, out, sizeof(out));
    /* A short context may come in 3 units; we send 2 then. */
    require(n == (c.context_len > 64 ? 24 : 16) && (size_t)n <= opt->len);
    require(memcmp(out, opt->data, 1) == 0 && out[2] == opt->data[2] && out[3] == (opt->data[3] & 0x1Fu));
    require(memcmp(out + 6, opt->data + 6, (size_t)n - 6u) == 0);
    tern_ndp_opt_t again = { .type = out[0], .data = out, .len = (size_t)n };
    tern_ndp_6lo_6co_t back;
    require(tern_ndp_6lo_6co_parse(&back, &again) == 0);
    require(back.context_len == c.context_len && back.compression == c.compression && back.cid == c.cid &&
            back.lifetime == c.lifetime && memcmp(back.prefix.u8, c.prefix.u8, (size_t)n - 8u) == 0);
}

static void abro_round_trip(const tern_ndp_opt_t *opt)
{
    tern_ndp_6lo_abro_t a;
    if (tern_ndp_6lo_abro_parse(&a, opt) < 0) {
        return;
    }
    require(tern_ndp_6lo_abro_emit(&a, out, sizeof(out)) == 24);
    require(memcmp(out, opt->data, 24) == 0); /* no reserved field: byte for byte */
}

static void option_walk(const uint8_t *data, size_t size)
{
    tern_ndp_opt_iter_t it;
    tern_ndp_opt_t opt;
    tern_ndp_opt_iter_init(&it, data, size);
    while (tern_ndp_opt_next(&it, &opt) == 1) {
        switch (opt.type) {
        case TERN_NDP_OPT_ARO:
            aro_round_trip(&opt);
            break;
        case TERN_NDP_OPT_6CO:
            co_round_trip(&opt);
            break;
        case TERN_NDP_OPT_ABRO:
            abro_round_trip(&opt);
            break;
        default:
            /* Each parser refuses the others' options. */
            require(tern_ndp_6lo_abro_parse(&(tern_ndp_6lo_abro_t){ 0 }, &opt) == -EBADMSG);
            break;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) {
        return 0;
    }
    dar_round_trip(data, size);
    option_walk(data, size);
    return 0;
}
