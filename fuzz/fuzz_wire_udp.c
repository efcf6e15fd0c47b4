/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the UDP wire format: parse, checksum verify over a scatter list,
 *        emit + parse round trip, checksum computed then verified.
 *
 * Input: byte 0 = where to split the datagram into spans, bytes 1..32 =
 * source and destination addresses, the rest = the UDP datagram.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/udp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)       \
    do {                  \
        if (!(cond)) {    \
            abort();      \
        }                 \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 33) {
        tern_udp_repr_t udp;
        int res = tern_udp_parse(&udp, data, size);
        CHECK(res == -EBADMSG || res == TERN_UDP_HDR_LEN);
        return 0;
    }
    size_t cut = data[0];
    tern_ipv6_addr_t src, dst;
    memcpy(src.u8, data + 1, 16);
    memcpy(dst.u8, data + 17, 16);
    const uint8_t *dgram = data + 33;
    size_t len = size - 33;

    tern_udp_repr_t udp, again;
    if (tern_udp_parse(&udp, dgram, len) != TERN_UDP_HDR_LEN) {
        return 0;
    }
    CHECK(udp.length >= TERN_UDP_HDR_LEN && udp.length <= len);

    /* verify over [0, cut) [cut, length) must equal verify over one span */
    if (cut > udp.length) {
        cut = udp.length;
    }
    const tern_checksum_span_t one[] = { { dgram, udp.length } };
    const tern_checksum_span_t two[] = { { dgram, cut }, { dgram + cut, udp.length - cut } };
    int verdict = tern_udp_checksum_verify(&udp, &src, &dst, one, 1);
    CHECK(verdict == 0 || verdict == -EBADMSG);
    CHECK(tern_udp_checksum_verify(&udp, &src, &dst, two, 2) == verdict);

    /* emit + parse: same header */
    uint8_t hdr[TERN_UDP_HDR_LEN];
    CHECK(tern_udp_emit(&udp, hdr, sizeof(hdr)) == TERN_UDP_HDR_LEN);
    CHECK(memcmp(hdr, dgram, TERN_UDP_HDR_LEN) == 0);
    CHECK(tern_udp_parse(&again, dgram, udp.length) == TERN_UDP_HDR_LEN);
    CHECK(again.src_port == udp.src_port && again.dst_port == udp.dst_port &&
          again.length == udp.length && again.checksum == udp.checksum);

    /* compute the checksum over [header with 0 checksum, payload], store, verify */
    hdr[6] = hdr[7] = 0;
    const tern_checksum_span_t tx[] = { { hdr, sizeof(hdr) },
                                        { dgram + TERN_UDP_HDR_LEN, udp.length - TERN_UDP_HDR_LEN } };
    uint16_t checksum = tern_udp_checksum(&src, &dst, tx, 2);
    CHECK(checksum != 0);
    CHECK(tern_udp_set_checksum(hdr, sizeof(hdr), checksum) == 0);
    udp.checksum = checksum;
    CHECK(tern_udp_checksum_verify(&udp, &src, &dst, tx, 2) == 0);
    return 0;
}
