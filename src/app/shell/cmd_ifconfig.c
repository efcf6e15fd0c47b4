/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Interface shell commands: ifconfig and txtsnd (as RIOT users know them).
 *
 * Everything is read through netapi GET/SET, so these commands are safe under
 * the threaded executor too: the interface's own thread answers.
 */
#include <errno.h>
#include <string.h>

#include "tern/fmt.h"
#include "tern/netapi.h"
#include "tern/netif.h"
#include "tern/shell.h"

static const char *device_type_name(uint16_t type)
{
    switch (type) {
    case TERN_NETDEV_TYPE_TEST:
        return "test";
    case TERN_NETDEV_TYPE_LOOPBACK:
        return "loopback";
    case TERN_NETDEV_TYPE_ETHERNET:
        return "ethernet";
    case TERN_NETDEV_TYPE_IEEE802154:
        return "ieee802154";
    default:
        return "unknown";
    }
}

/* Print @p len bytes as aa:bb:cc; "none" for no address. */
static void format_l2addr(char *out, size_t size, const uint8_t *addr, size_t len)
{
    if (len == 0) {
        (void)tern_snprintf(out, size, "none");
        return;
    }
    size_t pos = 0;
    out[0] = '\0';
    for (size_t i = 0; i < len && pos + 4 <= size; i++) {
        pos += (size_t)tern_snprintf(&out[pos], size - pos, (i == 0) ? "%02x" : ":%02x", addr[i]);
    }
}

/* Parse aa:bb:cc into @p out. @return length or -EINVAL. */
static int parse_l2addr(const char *text, uint8_t *out, size_t max)
{
    size_t n = 0;
    const char *p = text;
    while (*p != '\0') {
        unsigned v = 0;
        int digits = 0;
        while (digits < 2) {
            char c = *p;
            unsigned d;
            if (c >= '0' && c <= '9') {
                d = (unsigned)(c - '0');
            } else if (c >= 'a' && c <= 'f') {
                d = (unsigned)(c - 'a' + 10);
            } else if (c >= 'A' && c <= 'F') {
                d = (unsigned)(c - 'A' + 10);
            } else {
                break;
            }
            v = v * 16u + d;
            digits++;
            p++;
        }
        if (digits == 0 || n == max) {
            return -EINVAL;
        }
        out[n++] = (uint8_t)v;
        if (*p == ':') {
            p++;
            if (*p == '\0') {
                return -EINVAL;
            }
        } else if (*p != '\0') {
            return -EINVAL;
        }
    }
    return (n == 0) ? -EINVAL : (int)n;
}

static void print_netif(tern_shell_t *sh, tern_netif_t *netif)
{
    tern_module_t *m = &netif->module;
    uint16_t mtu = 0, proto = 0, devtype = 0;
    uint8_t state = 0;
    uint8_t addr[TERN_CONF_L2ADDR_MAX];
    char addr_text[3 * TERN_CONF_L2ADDR_MAX + 8];
    tern_netif_stats_t st;

    /* The interface's MTU is the IP layer's (6LoWPAN: 1280, RFC 4944 §4);
     * the device's frame size shows on the radio line below. */
    mtu = netif->mtu;
    (void)tern_netapi_get(m, TERN_NETOPT_PROTO, 0, &proto, sizeof(proto));
    (void)tern_netapi_get(m, TERN_NETOPT_STATE, 0, &state, sizeof(state));
    if (tern_netapi_get(m, TERN_NETOPT_DEVICE_TYPE, 0, &devtype, sizeof(devtype)) < 0) {
        devtype = TERN_NETDEV_TYPE_UNKNOWN;
    }
    /* The link address IPv6 uses (802.15.4: the extended address). */
    format_l2addr(addr_text, sizeof(addr_text), netif->l2addr, netif->l2addr_len);
    if (tern_netapi_get(m, TERN_NETOPT_STATS, 0, &st, sizeof(st)) < 0) {
        memset(&st, 0, sizeof(st));
    }
    const tern_counter_t *c = st.counters;
    tern_shell_printf(sh, "Iface %2u  %s\n", (unsigned)netif->index, netif->name);
    tern_shell_printf(sh, "          link: %s  device: %s  MTU: %u  state: %s  proto: %s\n",
                      netif->link->name, device_type_name(devtype), (unsigned)mtu,
                      state ? "up" : "down", tern_nettype_name((tern_nettype_t)proto));
    tern_shell_printf(sh, "          L2 address: %s\n", addr_text);
    uint16_t pan = 0, channel = 0, frame = 0;
    if (tern_netapi_get(m, TERN_NETOPT_NID, 0, &pan, sizeof(pan)) >= 0 &&
        tern_netapi_get(m, TERN_NETOPT_CHANNEL, 0, &channel, sizeof(channel)) >= 0) {
        /* A radio (IEEE 802.15.4): PAN, channel, short address, frame size. */
        int alen = tern_netapi_get(m, TERN_NETOPT_ADDRESS, 0, addr, sizeof(addr));
        if (alen == 2 && addr[0] == 0xffu && addr[1] == 0xffu) {
            alen = 0; /* 0xffff: no short address (IEEE 802.15.4-2006 §7.4.2, macShortAddress) */
        }
        format_l2addr(addr_text, sizeof(addr_text), addr, (alen > 0) ? (size_t)alen : 0u);
        (void)tern_netapi_get(m, TERN_NETOPT_MAX_PDU_SIZE, 0, &frame, sizeof(frame));
        tern_shell_printf(sh, "          PAN: 0x%04x  channel: %u  short address: %s  max frame: %u\n",
                          (unsigned)pan, (unsigned)channel, addr_text, (unsigned)frame);
    }
    for (tern_shell_netif_hook_t *h = sh->netif_hooks; h != NULL; h = h->next) {
        h->print(sh, netif, h->ctx);
    }
    tern_shell_printf(sh, "          RX packets %lu  bytes %lu  nomem %lu  errors %lu\n",
                      (unsigned long)c[TERN_NETIF_RX_PACKETS], (unsigned long)c[TERN_NETIF_RX_BYTES],
                      (unsigned long)c[TERN_NETIF_RX_NOMEM], (unsigned long)c[TERN_NETIF_RX_ERRORS]);
    tern_shell_printf(sh, "          TX packets %lu  bytes %lu  errors %lu  invalid %lu  down %lu\n",
                      (unsigned long)c[TERN_NETIF_TX_PACKETS], (unsigned long)c[TERN_NETIF_TX_BYTES],
                      (unsigned long)c[TERN_NETIF_TX_ERRORS], (unsigned long)c[TERN_NETIF_TX_INVALID],
                      (unsigned long)c[TERN_NETIF_TX_DOWN]);
}

static tern_netif_t *find_netif(tern_shell_t *sh, const char *name)
{
    tern_netif_t *netif = tern_netif_by_name(sh->stack, name);
    if (netif == NULL) {
        tern_shell_printf(sh, "no interface '%s'\n", name);
    }
    return netif;
}

static int cmd_ifconfig(tern_shell_t *sh, int argc, char **argv)
{
    if (argc == 1) {
        if (sh->stack->netifs == NULL) {
            tern_shell_printf(sh, "no interfaces\n");
        }
        for (tern_netif_t *n = sh->stack->netifs; n != NULL; n = n->next) {
            print_netif(sh, n);
        }
        return 0;
    }
    tern_netif_t *netif = find_netif(sh, argv[1]);
    if (netif == NULL) {
        return -ENODEV;
    }
    if (argc == 2) {
        print_netif(sh, netif);
        return 0;
    }
    if (argc == 3 && (strcmp(argv[2], "up") == 0 || strcmp(argv[2], "down") == 0)) {
        uint8_t state = (strcmp(argv[2], "up") == 0) ? 1u : 0u;
        int res = tern_netapi_set(&netif->module, TERN_NETOPT_STATE, 0, &state, sizeof(state));
        return (res < 0) ? res : 0;
    }
    for (tern_shell_netif_hook_t *h = sh->netif_hooks; h != NULL; h = h->next) {
        int res = (h->command != NULL) ? h->command(sh, netif, argc, argv, h->ctx) : -ENOTSUP;
        if (res != -ENOTSUP) {
            return res;
        }
    }
    tern_shell_printf(sh, "usage: ifconfig [IF [up|down|add ADDR/LEN|del ADDR]]\n");
    return -EINVAL;
}

static int cmd_txtsnd(tern_shell_t *sh, int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        tern_shell_printf(sh, "usage: txtsnd IF [ADDR|bcast] DATA\n");
        return -EINVAL;
    }
    tern_netif_t *netif = find_netif(sh, argv[1]);
    if (netif == NULL) {
        return -ENODEV;
    }
    uint8_t dst[TERN_CONF_L2ADDR_MAX];
    int dst_len = 0;
    uint8_t flags = 0;
    if (argc == 4) {
        if (strcmp(argv[2], "bcast") == 0) {
            flags = TERN_NETIF_HDR_FLAG_BROADCAST;
        } else {
            dst_len = parse_l2addr(argv[2], dst, sizeof(dst));
            if (dst_len < 0) {
                tern_shell_printf(sh, "txtsnd: bad link address '%s' (want aa:bb:...)\n", argv[2]);
                return -EINVAL;
            }
        }
    } else {
        flags = TERN_NETIF_HDR_FLAG_BROADCAST;
    }
    const char *data = argv[argc - 1];
    tern_pktbuf_t *pb = &sh->stack->pktbuf;
    tern_pkt_t *payload = tern_pktbuf_add(pb, NULL, data, strlen(data), TERN_NETTYPE_UNDEF);
    tern_pkt_t *pkt = (payload != NULL)
                          ? tern_netif_hdr_build(pb, payload, netif->l2addr, netif->l2addr_len, dst,
                                                 (size_t)dst_len)
                          : NULL;
    if (pkt == NULL) {
        tern_pktbuf_release(pb, payload);
        return -ENOMEM;
    }
    tern_netif_hdr_t *hdr = pkt->data;
    hdr->if_index = netif->index;
    hdr->flags = flags;
    int res = tern_netif_send(sh->stack, pkt);
    return (res < 0) ? res : 0;
}

void tern_shell_add_netif(tern_shell_t *sh, tern_shell_netif_cmds_t *storage)
{
    storage->cmds[0] = (tern_shell_cmd_t){ NULL, "ifconfig", "[IF [up|down|add ADDR/LEN|del ADDR]] - show, configure interfaces",
                                           cmd_ifconfig, NULL };
    storage->cmds[1] = (tern_shell_cmd_t){ NULL, "txtsnd",
                                           "IF [ADDR|bcast] DATA - send a raw link frame",
                                           cmd_txtsnd, NULL };
    (void)tern_shell_add(sh, &storage->cmds[0]);
    (void)tern_shell_add(sh, &storage->cmds[1]);
}
