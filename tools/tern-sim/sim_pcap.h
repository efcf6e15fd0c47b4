/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim's --pcap: every transmission on the simulated medium in one
 *        pcap file (link type 195, IEEE 802.15.4 with FCS), stamped with the
 *        virtual time.
 *
 * The medium's capture hook sees each transmission once, at its start, with
 * the PSDU as on the air (FCS included): data frames of every node and the
 * acknowledgments their radios generate, also frames that a collision or the
 * PRR draw will destroy at some receiver (a sniffer next to the sender would
 * have seen them). The record's timestamp is the start of the frame's
 * preamble in virtual time, counted from the Unix epoch (virtual time 0 is
 * 1970-01-01 00:00:00 UTC).
 */
#ifndef TERN_SIM_PCAP_H
#define TERN_SIM_PCAP_H

#include "tern/netdev/radio_medium.h"
#include "tern/port/pcap.h"

/**
 * Open @p path (truncated) with link type 195 and capture every transmission
 * of @p medium into it (tern_radio_medium_set_capture).
 * @return 0 or tern_pcap_open()'s negative errno.
 */
int sim_pcap_start(tern_pcap_t *pc, tern_radio_medium_t *medium, const char *path);

/** Remove the hook from @p medium and close the file. @return 0 or -EIO. */
int sim_pcap_stop(tern_pcap_t *pc, tern_radio_medium_t *medium);

#endif /* TERN_SIM_PCAP_H */
