/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz the ZEP codec: the input is a whole UDP payload.
 *
 * Checks: every result is a documented one; a parsed version 2 header emits
 * back to the same bytes (reserved bytes 0, LQI/CRC mode normalised to 0/1)
 * and re-parses to the same repr; the carried frame goes through the 802.15.4
 * parser (with its FCS in CRC mode) without reading outside it.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/ieee802154.h"
#include "tern/wire/zep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

static bool repr_equal(const tern_zep_repr_t *a, const tern_zep_repr_t *b)
{
    return a->version == b->version && a->type == b->type && a->channel == b->channel &&
           a->device_id == b->device_id && a->crc_mode == b->crc_mode && a->lqi == b->lqi &&
           a->timestamp == b->timestamp && a->seq == b->seq && a->frame_len == b->frame_len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tern_zep_repr_t repr, again;
    int res = tern_zep_parse(&repr, data, size);
    if (res < 0) {
        require(res == -EBADMSG || res == -EPROTONOSUPPORT || res == -ENOMSG);
        return 0;
    }
    require(res == tern_zep_hdr_len(&repr));
    require((size_t)res + repr.frame_len == size && repr.frame_len <= TERN_ZEP_MAX_FRAME_LEN);
    if (repr.type == TERN_ZEP_TYPE_ACK) {
        require(res == TERN_ZEP_V2_ACK_LEN && repr.version == 2 && repr.frame_len == 0);
    }

    if (repr.version == 2) {
        uint8_t out[TERN_ZEP_MAX_LEN];
        require(tern_zep_emit(&repr, out, sizeof(out)) == res);
        uint8_t expected[TERN_ZEP_V2_HDR_LEN];
        memcpy(expected, data, (size_t)res);
        if (repr.type == TERN_ZEP_TYPE_DATA) {
            expected[7] = expected[7] != 0 ? 1 : 0; /* LQI/CRC mode */
            memset(&expected[21], 0, 10);           /* reserved */
        }
        require(memcmp(out, expected, (size_t)res) == 0);
        memcpy(&out[res], &data[res], repr.frame_len);
        require(tern_zep_parse(&again, out, size) == res && repr_equal(&again, &repr));
        require(tern_zep_emit(&repr, out, (size_t)res - 1) == -ENOBUFS);
    } else {
        uint8_t out[TERN_ZEP_MAX_LEN];
        require(tern_zep_emit(&repr, out, sizeof(out)) == -EINVAL);
    }

    /* the frame: exactly the bytes after the header */
    if (repr.type == TERN_ZEP_TYPE_DATA && repr.crc_mode) {
        tern_ieee802154_repr_t mac;
        int mhr = tern_ieee802154_parse_fcs(&mac, &data[res], repr.frame_len);
        require(mhr == -EBADMSG || mhr == -EILSEQ || mhr == -ENOTSUP || mhr == -EPROTONOSUPPORT ||
                (mhr >= (int)TERN_IEEE802154_MHR_MIN_LEN && (size_t)mhr + 2 <= repr.frame_len));
    }
    return 0;
}
