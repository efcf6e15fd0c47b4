/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim's medium capture (see sim_pcap.h).
 */
#include "sim_pcap.h"

/* The medium's capture hook: one record per transmission, at its start. */
static void capture(void *ctx, const tern_radio_medium_tx_t *tx)
{
    const tern_iolist_t iol = { .base = tx->psdu, .len = tx->len };
    (void)tern_pcap_write_at(ctx, tx->start_us, &iol, 1); /* a failed write is counted in pc->errors */
}

int sim_pcap_start(tern_pcap_t *pc, tern_radio_medium_t *medium, const char *path)
{
    /* The PSDU carries the FCS: IEEE 802.15.4 with FCS (LINKTYPE_IEEE802_15_4_WITHFCS). */
    int res = tern_pcap_open(pc, path, TERN_PCAP_LINKTYPE_IEEE802_15_4_WITHFCS);
    if (res < 0) {
        return res;
    }
    tern_radio_medium_set_capture(medium, capture, pc);
    return 0;
}

int sim_pcap_stop(tern_pcap_t *pc, tern_radio_medium_t *medium)
{
    tern_radio_medium_set_capture(medium, NULL, NULL);
    return tern_pcap_close(pc);
}
