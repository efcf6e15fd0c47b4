/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the IEEE 802.15.4 frame codec.
 *
 * The input is a MAC frame without FCS, and also, as is, a PSDU whose last two
 * bytes are its FCS. Checks: every result is a documented one; a parsed
 * header emits back to the same bytes (reserved frame control bits 0) and
 * re-parses to the same repr; the same frame with a computed FCS parses to
 * the same result through tern_ieee802154_parse_fcs(); the FCS over a
 * scatter list equals the FCS over the contiguous frame.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/ieee802154.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static bool repr_equal(const tern_ieee802154_repr_t *a, const tern_ieee802154_repr_t *b)
{
    return a->frame_type == b->frame_type && a->frame_version == b->frame_version &&
           a->frame_pending == b->frame_pending && a->ack_request == b->ack_request &&
           a->pan_id_compression == b->pan_id_compression && a->seq == b->seq &&
           a->dst_pan == b->dst_pan && a->src_pan == b->src_pan &&
           tern_ieee802154_addr_equal(&a->dst, &b->dst) && tern_ieee802154_addr_equal(&a->src, &b->src);
}

static bool parse_error_ok(int res)
{
    return res == -EBADMSG || res == -EMSGSIZE || res == -ENOTSUP || res == -EPROTONOSUPPORT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t empty[1];
    if (data == NULL) {
        data = empty; /* so that data + 0 below is defined */
    }
    tern_ieee802154_repr_t repr, again;
    int res = tern_ieee802154_parse(&repr, data, size);

    /* the input as a PSDU: FCS errors are one more outcome */
    tern_ieee802154_repr_t with_fcs;
    int res_fcs = tern_ieee802154_parse_fcs(&with_fcs, data, size);
    require(res_fcs >= 0 || parse_error_ok(res_fcs) || res_fcs == -EILSEQ);
    if (res_fcs >= 0) {
        require(tern_ieee802154_fcs_check(data, size) == 0);
        require(tern_ieee802154_parse(&again, data, size - 2) == res_fcs && repr_equal(&again, &with_fcs));
    }

    if (res < 0) {
        require(parse_error_ok(res));
    } else {
        require(res >= (int)TERN_IEEE802154_MHR_MIN_LEN && res <= (int)TERN_IEEE802154_MHR_MAX_LEN &&
                (size_t)res <= size);
        require(tern_ieee802154_hdr_len(&repr) == res);
        require(tern_ieee802154_max_payload(&repr) == (int)TERN_IEEE802154_MAX_FRAME_LEN - res);

        /* emit: the same MHR, reserved frame control bits cleared */
        uint8_t mhr[TERN_IEEE802154_MHR_MAX_LEN];
        size_t payload_len = size - (size_t)res;
        require(tern_ieee802154_emit(&repr, payload_len, mhr, sizeof(mhr)) == res);
        uint8_t fc_mask_hi = repr.frame_version < TERN_IEEE802154_FRAME_VERSION_2015 ? 0xfc : 0xff;
        require(mhr[0] == (data[0] & 0x7f) && mhr[1] == (data[1] & fc_mask_hi));
        require(memcmp(&mhr[2], &data[2], (size_t)res - 2) == 0);
        require(tern_ieee802154_parse(&again, mhr, (size_t)res) == res && repr_equal(&again, &repr));
        require(tern_ieee802154_emit(&repr, payload_len, mhr, (size_t)res - 1) == -ENOBUFS);
    }

    /* append the FCS: the PSDU parses as the frame did */
    if (size <= TERN_IEEE802154_MAX_FRAME_LEN) {
        uint8_t psdu[TERN_IEEE802154_MAX_PHY_PACKET_SIZE];
        memcpy(psdu, data, size);
        require(tern_ieee802154_fcs_append(psdu, size, sizeof(psdu)) == (int)size + 2);
        require(tern_ieee802154_fcs_check(psdu, size + 2) == 0);
        require(tern_ieee802154_parse_fcs(&again, psdu, size + 2) == res);
        if (res >= 0) {
            require(repr_equal(&again, &repr));
        }
        size_t cut = size == 0 ? 0 : data[0] % (size + 1);
        const tern_checksum_span_t spans[] = { { data, cut }, { data + cut, size - cut } };
        uint16_t fcs = tern_ieee802154_fcs(spans, 2);
        require(psdu[size] == (uint8_t)fcs && psdu[size + 1] == (uint8_t)(fcs >> 8));
        /* any single flipped bit is caught */
        psdu[cut] ^= (uint8_t)(1u << (size % 8));
        require(tern_ieee802154_parse_fcs(&again, psdu, size + 2) == -EILSEQ);
    } else {
        require(res == -EMSGSIZE);
    }
    return 0;
}
