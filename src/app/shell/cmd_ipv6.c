/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IPv6 in the shell: addresses in `ifconfig`, the neighbor cache in `nib neigh`.
 *
 * The state is read with netapi GET from the IPv6 module, so that it is
 * consistent and safe under the threaded executor.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "tern/fmt.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/shell.h"

static const char *scope_name(const tern_ipv6_addr_t *a)
{
    switch (tern_ipv6_addr_scope(a)) {
    case TERN_IPV6_SCOPE_INTERFACE:
        return "host";
    case TERN_IPV6_SCOPE_LINK:
        return "link";
    case TERN_IPV6_SCOPE_SITE:
        return "site";
    default:
        return "global";
    }
}

static void print_addrs(tern_shell_t *sh, tern_netif_t *netif, void *ctx)
{
    tern_ipv6_t *ip = ctx;
    tern_ipv6_addr_list_t list;
    if (tern_netapi_get(&ip->module, TERN_NETOPT_IPV6_ADDRS, netif->index, &list, sizeof(list)) < 0) {
        return; /* IPv6 not enabled on this interface */
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_ADDRS; i++) {
        const tern_ipv6_if_addr_t *a = &list.addrs[i];
        if (!a->used) {
            continue;
        }
        char text[TERN_IPV6_ADDR_STRLEN];
        (void)tern_ipv6_addr_to_str(&a->addr, text, sizeof(text));
        tern_shell_printf(sh, "          inet6 %s/%u  scope: %s  %s%s\n", text, (unsigned)a->prefix_len,
                          scope_name(&a->addr), tern_ipv6_addr_state_name((tern_ipv6_addr_state_t)a->state),
                          (a->flags & TERN_IPV6_ADDR_FLAG_AUTOCONF) ? "  autoconf" : "");
    }
}

/* Parse ADDR[/LEN] into @p cfg (LEN defaults to 64). @return 0 or -EINVAL. */
static int parse_addr_len(const char *text, tern_ipv6_addr_config_t *cfg)
{
    const char *slash = strchr(text, '/');
    size_t alen = (slash != NULL) ? (size_t)(slash - text) : strlen(text);
    if (tern_ipv6_addr_from_str(&cfg->addr, text, alen) < 0) {
        return -EINVAL;
    }
    cfg->prefix_len = 64;
    if (slash != NULL) {
        unsigned len = 0;
        const char *p = slash + 1;
        if (*p == '\0') {
            return -EINVAL;
        }
        for (; *p != '\0'; p++) {
            if (*p < '0' || *p > '9' || (len = len * 10u + (unsigned)(*p - '0')) > 128u) {
                return -EINVAL;
            }
        }
        cfg->prefix_len = (uint8_t)len;
    }
    return 0;
}

/* ifconfig IF add ADDR[/LEN] | del ADDR */
static int ifconfig_command(tern_shell_t *sh, tern_netif_t *netif, int argc, char **argv, void *ctx)
{
    tern_ipv6_t *ip = ctx;
    bool add = (strcmp(argv[2], "add") == 0);
    if (!add && strcmp(argv[2], "del") != 0) {
        return -ENOTSUP;
    }
    tern_ipv6_addr_config_t cfg;
    if (argc != 4 || parse_addr_len(argv[3], &cfg) < 0) {
        tern_shell_printf(sh, "usage: ifconfig IF add ADDR[/LEN] | ifconfig IF del ADDR\n");
        return -EINVAL;
    }
    int res = tern_netapi_set(&ip->module, add ? TERN_NETOPT_IPV6_ADDR_ADD : TERN_NETOPT_IPV6_ADDR_DEL,
                              netif->index, &cfg, sizeof(cfg));
    if (res == -EEXIST) {
        tern_shell_printf(sh, "ifconfig: %s is already an address of %s\n", argv[3], netif->name);
    } else if (res == -ENOSPC) {
        tern_shell_printf(sh, "ifconfig: %s has no room for another address\n", netif->name);
    } else if (res == -ENODEV) {
        tern_shell_printf(sh, "ifconfig: IPv6 does not run on %s\n", netif->name);
    }
    return (res < 0) ? res : 0;
}

static void print_neighbors(tern_shell_t *sh, tern_ipv6_t *ip, tern_netif_t *netif)
{
    tern_ipv6_neighbor_list_t list;
    if (tern_netapi_get(&ip->module, TERN_NETOPT_IPV6_NEIGHBORS, netif->index, &list, sizeof(list)) < 0) {
        return;
    }
    for (size_t i = 0; i < TERN_CONF_NC_SIZE; i++) {
        const tern_nc_entry_t *e = &list.entries[i];
        if (e->state == TERN_NC_FREE) {
            continue;
        }
        char text[TERN_IPV6_ADDR_STRLEN];
        char l2[3 * TERN_CONF_L2ADDR_MAX + 1];
        size_t pos = 0;
        l2[0] = '\0';
        for (size_t k = 0; k < e->l2addr_len && pos + 4 <= sizeof(l2); k++) {
            pos += (size_t)tern_snprintf(&l2[pos], sizeof(l2) - pos, (k == 0) ? "%02x" : ":%02x", e->l2addr[k]);
        }
        (void)tern_ipv6_addr_to_str(&e->addr, text, sizeof(text));
        tern_shell_printf(sh, "%-28s dev %-7s lladdr %-23s %s%s\n", text, netif->name,
                          (e->l2addr_len > 0) ? l2 : "-", tern_nc_state_name((tern_nc_state_t)e->state),
                          e->is_router ? " router" : "");
    }
}

static int cmd_nib(tern_shell_t *sh, int argc, char **argv)
{
    tern_ipv6_t *ip = sh->current->ctx;
    if (argc >= 2 && strcmp(argv[1], "neigh") == 0 && argc <= 3) {
        for (tern_netif_t *n = sh->stack->netifs; n != NULL; n = n->next) {
            if (argc == 3 && strcmp(argv[2], n->name) != 0) {
                continue;
            }
            print_neighbors(sh, ip, n);
        }
        return 0;
    }
    tern_shell_printf(sh, "usage: nib neigh [IF]\n");
    return -EINVAL;
}

void tern_shell_add_ipv6(tern_shell_t *sh, tern_shell_ipv6_t *storage, tern_ipv6_t *ip)
{
    storage->hook = (tern_shell_netif_hook_t){ NULL, print_addrs, ifconfig_command, ip };
    tern_shell_add_netif_hook(sh, &storage->hook);
    storage->nib = (tern_shell_cmd_t){ NULL, "nib", "neigh [IF] - IPv6 neighbor cache", cmd_nib, ip };
    (void)tern_shell_add(sh, &storage->nib);
}
