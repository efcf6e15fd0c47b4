/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-node's `pcap` command (stdio, so it lives with the tool, not in src/).
 *
 *   pcap                 list running captures
 *   pcap IF FILE         capture every frame of IF into FILE (truncated)
 *   pcap stop [IF]       stop IF's capture, or all of them
 *
 * The link type follows the device: Ethernet 1, IEEE 802.15.4 230 (no FCS),
 * anything else (loopback, test: bare IPv6 packets) 229 (LINKTYPE_IPV6).
 */
#include <errno.h>
#include <string.h>

#include "cmd_pcap.h"
#include "tern/netapi.h"
#include "tern/netif.h"

/** LINKTYPE_IPV6: raw IPv6 packets (loopback and test interfaces). */
#define LINKTYPE_IPV6 229u

static uint32_t linktype_of(tern_netif_t *netif)
{
    uint16_t type = TERN_NETDEV_TYPE_UNKNOWN;
    if (tern_netapi_get(&netif->module, TERN_NETOPT_DEVICE_TYPE, 0, &type, sizeof(type)) < 0) {
        type = TERN_NETDEV_TYPE_UNKNOWN;
    }
    switch (type) {
    case TERN_NETDEV_TYPE_ETHERNET:
        return TERN_PCAP_LINKTYPE_ETHERNET;
    case TERN_NETDEV_TYPE_IEEE802154:
        return TERN_PCAP_LINKTYPE_IEEE802_15_4_NOFCS;
    default:
        return LINKTYPE_IPV6;
    }
}

/* The writer of @p netif, in the storage the running command carries. */
static tern_pcap_t *writer_of(tern_shell_t *sh, tern_netif_t *netif)
{
    node_pcap_cmds_t *storage = sh->current->ctx;
    if (netif->index == 0 || netif->index > NODE_PCAP_MAX) {
        return NULL;
    }
    return &storage->writers[netif->index - 1u];
}

static int stop_one(tern_shell_t *sh, tern_netif_t *netif)
{
    tern_pcap_t *pc = writer_of(sh, netif);
    if (pc == NULL || pc->netif == NULL) {
        tern_shell_printf(sh, "pcap: %s is not being captured\n", netif->name);
        return -ENOENT;
    }
    int res = tern_pcap_stop(pc);
    uint32_t frames = tern_pcap_frames(pc);
    tern_shell_printf(sh, "pcap: %s stopped, %lu frames\n", netif->name, (unsigned long)frames);
    return res;
}

static int cmd_pcap(tern_shell_t *sh, int argc, char **argv)
{
    if (argc == 1) {
        bool any = false;
        for (tern_netif_t *n = sh->stack->netifs; n != NULL; n = n->next) {
            tern_pcap_t *pc = writer_of(sh, n);
            if (pc != NULL && pc->netif != NULL) {
                tern_shell_printf(sh, "pcap: %s: %lu frames (link type %lu)\n", n->name,
                                  (unsigned long)tern_pcap_frames(pc), (unsigned long)pc->linktype);
                any = true;
            }
        }
        if (!any) {
            tern_shell_printf(sh, "pcap: no capture running\n");
        }
        return 0;
    }
    if (strcmp(argv[1], "stop") == 0 && argc <= 3) {
        if (argc == 3) {
            tern_netif_t *netif = tern_netif_by_name(sh->stack, argv[2]);
            if (netif == NULL) {
                tern_shell_printf(sh, "no interface '%s'\n", argv[2]);
                return -ENODEV;
            }
            return stop_one(sh, netif);
        }
        for (tern_netif_t *n = sh->stack->netifs; n != NULL; n = n->next) {
            tern_pcap_t *pc = writer_of(sh, n);
            if (pc != NULL && pc->netif != NULL) {
                (void)stop_one(sh, n);
            }
        }
        return 0;
    }
    if (argc != 3) {
        tern_shell_printf(sh, "usage: pcap [IF FILE | stop [IF]]\n");
        return -EINVAL;
    }
    tern_netif_t *netif = tern_netif_by_name(sh->stack, argv[1]);
    if (netif == NULL) {
        tern_shell_printf(sh, "no interface '%s'\n", argv[1]);
        return -ENODEV;
    }
    tern_pcap_t *pc = writer_of(sh, netif);
    if (pc == NULL) {
        tern_shell_printf(sh, "pcap: only the first %d interfaces can be captured\n", NODE_PCAP_MAX);
        return -ENOSPC;
    }
    if (pc->netif != NULL) {
        tern_shell_printf(sh, "pcap: %s is already being captured (pcap stop %s)\n", netif->name,
                          netif->name);
        return -EBUSY;
    }
    uint32_t linktype = linktype_of(netif);
    int res = tern_pcap_start(pc, netif, argv[2], linktype);
    if (res < 0) {
        tern_shell_printf(sh, "pcap: cannot capture %s into '%s'\n", netif->name, argv[2]);
        return res;
    }
    tern_shell_printf(sh, "pcap: capturing %s into %s (link type %lu)\n", netif->name, argv[2],
                      (unsigned long)linktype);
    return 0;
}

int node_pcap_add(tern_shell_t *sh, node_pcap_cmds_t *storage)
{
    for (int i = 0; i < NODE_PCAP_MAX; i++) {
        int res = tern_pcap_init(&storage->writers[i]);
        if (res < 0) {
            return res;
        }
    }
    storage->cmd = (tern_shell_cmd_t){ NULL, "pcap", "[IF FILE | stop [IF]] - capture frames to a pcap file",
                                       cmd_pcap, storage };
    return tern_shell_add(sh, &storage->cmd);
}

void node_pcap_stop_all(node_pcap_cmds_t *storage)
{
    for (int i = 0; i < NODE_PCAP_MAX; i++) {
        if (storage->writers[i].netif != NULL) {
            (void)tern_pcap_stop(&storage->writers[i]);
        }
        tern_pcap_destroy(&storage->writers[i]);
    }
}
