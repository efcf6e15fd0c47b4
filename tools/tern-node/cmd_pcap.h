/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-node's `pcap` command: capture an interface into a pcap file.
 */
#ifndef TERN_NODE_CMD_PCAP_H
#define TERN_NODE_CMD_PCAP_H

#include "tern/port/pcap.h"
#include "tern/shell.h"

/** Most interfaces captured at once (by interface index 1..N). */
#define NODE_PCAP_MAX 8

/** Storage of the pcap command: one writer per interface index. */
typedef struct {
    tern_shell_cmd_t cmd;             /**< the entry */
    tern_pcap_t writers[NODE_PCAP_MAX]; /**< writers[index - 1] */
} node_pcap_cmds_t;

/** Add `pcap` to @p sh. @return 0 or a negative errno. */
int node_pcap_add(tern_shell_t *sh, node_pcap_cmds_t *storage);

/** Stop every capture (while the executor still runs) and release the writers. */
void node_pcap_stop_all(node_pcap_cmds_t *storage);

#endif /* TERN_NODE_CMD_PCAP_H */
