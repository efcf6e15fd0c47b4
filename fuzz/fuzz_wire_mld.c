/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the MLD codec: the input is a whole ICMPv6 message.
 *
 * The type octet picks the parser (query, MLDv1 report/done, Version 2
 * report). On success the message is emitted from its repr (reports record
 * by record) and re-parsed: same repr, same bytes apart from the checksum,
 * code and reserved fields. The float codes must round-trip through decode
 * and encode. MLDv1 (RFC 2710 §3, RFC 3810 §8.1): a query is exactly 24
 * octets with a linear delay; a report or done is accepted from 24 octets
 * on, and emits as 24 octets with zero code, checksum and reserved fields.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/icmpv6.h"
#include "tern/wire/mld.h"

#define BUF_SIZE 4096

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static uint8_t out[BUF_SIZE];

static void fuzz_query(const uint8_t *data, size_t size)
{
    tern_mld_query_repr_t q;
    tern_mld_query_repr_t back;
    int used = tern_mld_query_parse(&q, data, size);
    if (used < 0) {
        return;
    }
    require((size_t)used <= size && (size_t)used == tern_mld_query_len(&q));
    require(tern_mld_max_resp_code_encode(q.max_resp_delay_ms) == q.max_resp_code ||
            q.version == 1);
    require(q.version == 1 || tern_mld_qqic_encode(q.qqi_s) == q.qqic);
    int rc = tern_mld_query_emit(&q, out, sizeof(out));
    if ((size_t)used > sizeof(out)) {
        require(rc == -ENOBUFS);
        return;
    }
    require(rc == used);
    require(tern_mld_query_parse(&back, out, (size_t)rc) == used);
    require(back.version == q.version && back.max_resp_code == q.max_resp_code &&
            back.suppress == q.suppress && back.qrv == q.qrv && back.qqic == q.qqic &&
            back.source_count == q.source_count && memcmp(back.group.u8, q.group.u8, 16) == 0);
    require(memcmp(out + 8, data + 8, 16) == 0);
    require(out[0] == data[0] && memcmp(out + 4, data + 4, 2) == 0);
    if (q.version == 1) {
        require(size == TERN_MLD_V1_LEN && used == (int)TERN_MLD_V1_LEN);
        require(q.max_resp_delay_ms == q.max_resp_code && q.sources == NULL && q.source_count == 0);
        require(out[1] == 0 && out[2] == 0 && out[3] == 0 && out[6] == 0 && out[7] == 0);
    } else {
        require(size >= TERN_MLD_V2_QUERY_MIN_LEN);
    }
    if (q.version == 2) {
        require(memcmp(out + 25, data + 25, (size_t)used - 25) == 0);
    }
}

static void fuzz_v1(const uint8_t *data, size_t size)
{
    tern_mld_v1_repr_t v1;
    tern_mld_v1_repr_t back;
    if (tern_mld_v1_parse(&v1, data, size) < 0) {
        require(size < TERN_MLD_V1_LEN);
        return;
    }
    require(v1.type == data[0]);
    require(tern_mld_v1_emit(&v1, out, TERN_MLD_V1_LEN - 1) == -ENOBUFS);
    require(tern_mld_v1_emit(&v1, out, sizeof(out)) == 24);
    require(tern_mld_v1_parse(&back, out, 24) == 24);
    require(back.type == v1.type && back.max_resp_delay == v1.max_resp_delay &&
            memcmp(back.group.u8, v1.group.u8, 16) == 0);
    require(out[0] == data[0] && memcmp(out + 4, data + 4, 2) == 0 && memcmp(out + 8, data + 8, 16) == 0);
    require(out[1] == 0 && out[2] == 0 && out[3] == 0 && out[6] == 0 && out[7] == 0);
}

static void fuzz_report(const uint8_t *data, size_t size)
{
    tern_mld_report_repr_t r;
    int used = tern_mld_report_parse(&r, data, size);
    if (used < 0) {
        return;
    }
    require((size_t)used <= size && (size_t)used == 8 + r.records_len);
    size_t off = 0;
    int rc = tern_mld_report_hdr_emit(r.record_count, out, sizeof(out));
    require(rc == 8);
    off += (size_t)rc;
    tern_mld_record_iter_t it;
    tern_mld_record_t rec;
    unsigned n = 0;
    bool fits = true;
    tern_mld_record_iter_init(&it, &r);
    while ((rc = tern_mld_record_next(&it, &rec)) == 1) {
        n++;
        require(rec.aux_len % 4 == 0);
        rc = tern_mld_record_emit(&rec, out + off, sizeof(out) - off);
        if (rc == -ENOBUFS) {
            fits = false;
            break;
        }
        require(rc > 0 && (size_t)rc == tern_mld_record_len(&rec));
        off += (size_t)rc;
    }
    if (!fits) {
        return;
    }
    require(rc == 0 && n == r.record_count);
    require(off == (size_t)used && memcmp(out + 8, data + 8, off - 8) == 0);
    tern_mld_report_repr_t back;
    require(tern_mld_report_parse(&back, out, off) == used);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 2) {
        uint16_t code = (uint16_t)((data[0] << 8) | data[1]);
        require(tern_mld_max_resp_code_encode(tern_mld_max_resp_code_decode(code)) == code);
        require(tern_mld_qqic_encode(tern_mld_qqic_decode(data[1])) == data[1]);
    }
    if (size == 0) {
        return 0;
    }
    switch (data[0]) {
    case TERN_ICMPV6_MLD_QUERY:
        fuzz_query(data, size);
        break;
    case TERN_ICMPV6_MLD_REPORT:
    case TERN_ICMPV6_MLD_DONE:
        fuzz_v1(data, size);
        break;
    case TERN_ICMPV6_MLDV2_REPORT:
        fuzz_report(data, size);
        break;
    default: {
        /* Not an MLD type: every parser refuses it. */
        tern_mld_query_repr_t q;
        tern_mld_v1_repr_t v1;
        tern_mld_report_repr_t r;
        require(tern_mld_query_parse(&q, data, size) == -EBADMSG && tern_mld_v1_parse(&v1, data, size) == -EBADMSG &&
                tern_mld_report_parse(&r, data, size) == -EBADMSG);
        break;
    }
    }
    return 0;
}
