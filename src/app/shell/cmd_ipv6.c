/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief IPv6 in the shell: addresses and Neighbor Discovery parameters in
 *        `ifconfig`, the neighbor cache in `nib neigh`, the forwarding table in
 *        `nib route`, prefixes learnt from Router Advertisements in `nib prefix`,
 *        the destination cache (Redirects, Path MTUs) in `nib dest`, 6LoWPAN
 *        registrations in `nib reg` and contexts in `nib ctx` (RFC 6775), static
 *        routes with `route add` / `route del`.
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
    tern_ipv6_link_params_t p;
    if (tern_netapi_get(&ip->module, TERN_NETOPT_IPV6_LINK_PARAMS, netif->index, &p, sizeof(p)) >= 0) {
        tern_shell_printf(sh, "          inet6 hop limit %u  mtu %u%s  reachable %lu ms  retrans %lu ms%s\n",
                          (unsigned)p.cur_hop_limit, (unsigned)p.link_mtu, p.mtu_from_ra ? " (ra)" : "",
                          (unsigned long)(p.reachable_time_us / 1000u), (unsigned long)(p.retrans_timer_us / 1000u),
                          p.router ? "  router" : "");
    }
    tern_ipv6_route_info_list_t rio;
    if (tern_netapi_get(&ip->module, TERN_NETOPT_IPV6_ROUTE_INFO, netif->index, &rio, sizeof(rio)) >= 0) {
        for (size_t i = 0; i < TERN_CONF_IPV6_ROUTE_INFO; i++) {
            const tern_ipv6_route_info_t *r = &rio.entries[i];
            if (!r->used) {
                continue;
            }
            char text[TERN_IPV6_ADDR_STRLEN];
            char life[16];
            (void)tern_ipv6_addr_to_str(&r->prefix, text, sizeof(text));
            if (r->lifetime_s == 0xffffffffu) {
                (void)tern_snprintf(life, sizeof(life), "forever");
            } else if (r->lifetime_s == 0) {
                (void)tern_snprintf(life, sizeof(life), "router");
            } else {
                (void)tern_snprintf(life, sizeof(life), "%lus", (unsigned long)r->lifetime_s);
            }
            tern_shell_printf(sh, "          inet6 route-info %s/%u  preference %s  lifetime %s\n", text,
                              (unsigned)r->prefix_len,
                              (r->preference > 0) ? "high" : (r->preference < 0) ? "low" : "medium", life);
        }
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

/* ifconfig IF route-info add PREFIX/LEN [high|medium|low] [LIFETIME_S|forever] | route-info del PREFIX/LEN
 * (RFC 4191 §2.3: routes the interface's RAs advertise). */
static int route_info_command(tern_shell_t *sh, tern_netif_t *netif, int argc, char **argv, tern_ipv6_t *ip)
{
    static const char usage[] =
        "usage: ifconfig IF route-info add PREFIX/LEN [high|medium|low] [LIFETIME_S|forever]"
        " | ifconfig IF route-info del PREFIX/LEN\n";
    bool add = argc >= 4 && strcmp(argv[3], "add") == 0;
    bool del = argc == 5 && strcmp(argv[3], "del") == 0;
    tern_ipv6_addr_config_t a;
    if ((!add && !del) || argc < 5 || argc > 7 || strchr(argv[4], '/') == NULL || parse_addr_len(argv[4], &a) < 0) {
        tern_shell_printf(sh, "%s", usage);
        return -EINVAL;
    }
    tern_ipv6_route_info_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.prefix = a.addr;
    cfg.prefix_len = a.prefix_len;
    if (add && argc >= 6) {
        if (strcmp(argv[5], "high") == 0) {
            cfg.preference = 1;
        } else if (strcmp(argv[5], "low") == 0) {
            cfg.preference = -1;
        } else if (strcmp(argv[5], "medium") != 0) {
            tern_shell_printf(sh, "%s", usage);
            return -EINVAL;
        }
    }
    if (add && argc == 7) {
        unsigned long s = 0;
        if (strcmp(argv[6], "forever") == 0) {
            s = 0xffffffffu;
        } else {
            for (const char *p = argv[6]; *p != '\0'; p++) {
                if (*p < '0' || *p > '9' || (s = s * 10u + (unsigned long)(*p - '0')) >= 0xffffffffu) {
                    tern_shell_printf(sh, "%s", usage);
                    return -EINVAL;
                }
            }
            if (s == 0 || argv[6][0] == '\0') {
                tern_shell_printf(sh, "%s", usage);
                return -EINVAL;
            }
        }
        cfg.lifetime_s = (uint32_t)s;
    }
    int res = tern_netapi_set(&ip->module, add ? TERN_NETOPT_IPV6_ROUTE_INFO_ADD : TERN_NETOPT_IPV6_ROUTE_INFO_DEL,
                              netif->index, &cfg, sizeof(cfg));
    if (res == -ENOSPC) {
        tern_shell_printf(sh, "ifconfig: %s advertises no more routes (TERN_CONF_IPV6_ROUTE_INFO)\n", netif->name);
    } else if (res == -ENOENT) {
        tern_shell_printf(sh, "ifconfig: %s does not advertise %s\n", netif->name, argv[4]);
    } else if (res == -ENODEV) {
        tern_shell_printf(sh, "ifconfig: IPv6 does not run on %s\n", netif->name);
    }
    return (res < 0) ? res : 0;
}

/* ifconfig IF add ADDR[/LEN] | del ADDR | route-info ... */
static int ifconfig_command(tern_shell_t *sh, tern_netif_t *netif, int argc, char **argv, void *ctx)
{
    tern_ipv6_t *ip = ctx;
    if (strcmp(argv[2], "route-info") == 0) {
        return route_info_command(sh, netif, argc, argv, ip);
    }
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

static const char *origin_name(uint8_t origin)
{
    switch (origin) {
    case TERN_FIB_STATIC:
        return "static";
    case TERN_FIB_CONNECTED:
        return "connected";
    case TERN_FIB_RA:
        return "ra";
    case TERN_FIB_ROUTING:
        return "routing";
    default:
        return "?";
    }
}

static const char *netif_name(tern_shell_t *sh, uint16_t index)
{
    for (tern_netif_t *n = sh->stack->netifs; n != NULL; n = n->next) {
        if (n->index == index) {
            return n->name;
        }
    }
    return "?";
}

/* Remaining lifetime of a route as text: seconds, or "forever". */
static void lifetime_text(const tern_fib_route_t *r, uint64_t now_us, char *out, size_t len)
{
    uint64_t expires_us = tern_fib_route_expires_us(r);
    if (expires_us == TERN_FIB_INFINITE) {
        (void)tern_snprintf(out, len, "forever");
        return;
    }
    uint64_t left = (expires_us > now_us) ? (expires_us - now_us) / 1000000u : 0u;
    (void)tern_snprintf(out, len, "%lus", (unsigned long)left);
}

/* nib route: every route; nib prefix: on-link prefixes learnt from RAs (RFC 4861 §6.3.4 Prefix List). */
static int print_routes(tern_shell_t *sh, tern_ipv6_t *ip, bool prefixes_only)
{
    tern_ipv6_route_list_t list; /* about 48 B per route (TERN_CONF_FIB_SIZE) */
    int res = tern_netapi_get(&ip->module, TERN_NETOPT_IPV6_ROUTES, 0, &list, sizeof(list));
    if (res < 0) {
        return res;
    }
    for (size_t i = 0; i < TERN_CONF_FIB_SIZE; i++) {
        const tern_fib_route_t *r = &list.routes[i];
        if (!r->used || (prefixes_only && (r->origin != TERN_FIB_RA || r->len == 0 ||
                                           !tern_ipv6_addr_is_unspecified(&r->next_hop)))) {
            continue;
        }
        char prefix[TERN_IPV6_ADDR_STRLEN + 4];
        char hop[TERN_IPV6_ADDR_STRLEN + 4];
        char left[24];
        (void)tern_ipv6_addr_to_str(&r->prefix, prefix, sizeof(prefix));
        size_t n = strlen(prefix);
        (void)tern_snprintf(&prefix[n], sizeof(prefix) - n, "/%u", (unsigned)r->len);
        lifetime_text(r, list.now_us, left, sizeof(left));
        if (prefixes_only) {
            tern_shell_printf(sh, "%-28s dev %-7s valid %s\n", prefix, netif_name(sh, r->if_index), left);
            continue;
        }
        if (tern_ipv6_addr_is_unspecified(&r->next_hop)) {
            (void)tern_snprintf(hop, sizeof(hop), "on-link");
        } else {
            memcpy(hop, "via ", 4);
            (void)tern_ipv6_addr_to_str(&r->next_hop, &hop[4], sizeof(hop) - 4);
        }
        tern_shell_printf(sh, "%-28s %-30s dev %-7s %-9s expires %s\n", prefix, hop,
                          netif_name(sh, r->if_index), origin_name(r->origin), left);
    }
    return 0;
}

/*
 * nib dest: the destination cache (RFC 4861 §5.1): the next hop a Redirect
 * named ("via ROUTER", "on-link", or "-": the table decides), the Path MTU a
 * Packet Too Big reported ("-": the link MTU), and the age of what was learnt.
 */
static int print_destinations(tern_shell_t *sh, tern_ipv6_t *ip)
{
    tern_ipv6_dest_list_t list; /* about 72 B per entry (TERN_CONF_IPV6_DCACHE_SIZE) */
    int res = tern_netapi_get(&ip->module, TERN_NETOPT_IPV6_DESTINATIONS, 0, &list, sizeof(list));
    if (res < 0) {
        return res;
    }
    for (size_t i = 0; i < TERN_CONF_IPV6_DCACHE_SIZE; i++) {
        const tern_dcache_entry_t *e = &list.entries[i];
        if (!e->used) {
            continue;
        }
        char dst[TERN_IPV6_ADDR_STRLEN];
        char hop[TERN_IPV6_ADDR_STRLEN + 4];
        char pmtu[8];
        (void)tern_ipv6_addr_to_str(&e->dst, dst, sizeof(dst));
        if (!e->redirected) {
            (void)tern_snprintf(hop, sizeof(hop), "-");
        } else if (tern_ipv6_addr_equal(&e->next_hop, &e->dst)) {
            (void)tern_snprintf(hop, sizeof(hop), "on-link");
        } else {
            memcpy(hop, "via ", 4);
            (void)tern_ipv6_addr_to_str(&e->next_hop, &hop[4], sizeof(hop) - 4);
        }
        if (e->pmtu != 0) {
            (void)tern_snprintf(pmtu, sizeof(pmtu), "%u", (unsigned)e->pmtu);
        } else {
            (void)tern_snprintf(pmtu, sizeof(pmtu), "-");
        }
        uint64_t age = (list.now_us > e->updated_us) ? (list.now_us - e->updated_us) / 1000000u : 0u;
        tern_shell_printf(sh, "%-28s %-30s dev %-7s pmtu %-5s age %lus\n", dst, hop,
                          e->redirected ? netif_name(sh, e->if_index) : "-", pmtu, (unsigned long)age);
    }
    return 0;
}

/* Seconds from @p now_us to @p at_us (0 when past). */
static unsigned long seconds_until(uint64_t at_us, uint64_t now_us)
{
    return (at_us > now_us) ? (unsigned long)((at_us - now_us) / 1000000u) : 0ul;
}

/* @p len bytes of link address @p a as "aa:bb:..." into @p out. */
static void l2addr_text(const uint8_t *a, size_t len, char *out, size_t out_len)
{
    size_t pos = 0;
    out[0] = '\0';
    for (size_t k = 0; k < len && pos + 4 <= out_len; k++) {
        pos += (size_t)tern_snprintf(&out[pos], out_len - pos, (k == 0) ? "%02x" : ":%02x", a[k]);
    }
}

/*
 * nib reg (RFC 6775 §5.5, §6.5): on a router the registration table of each
 * 6LoWPAN interface (address, owner's link address, TID, remaining
 * lifetime); on a host the registration of each of its addresses with each
 * router (state, TID, last status, time to the next NS or the end).
 */
static int print_registrations(tern_shell_t *sh, tern_ipv6_t *ip)
{
    tern_ipv6_6lo_state_t s; /* about 1.2 KB with the defaults (tables of TERN_CONF_IPV6_6LO_*) */
    for (tern_netif_t *n = sh->stack->netifs; n != NULL; n = n->next) {
        if (tern_netapi_get(&ip->module, TERN_NETOPT_IPV6_6LO, n->index, &s, sizeof(s)) < 0 || !s.state.enabled) {
            continue;
        }
        char addr[TERN_IPV6_ADDR_STRLEN];
        char other[TERN_IPV6_ADDR_STRLEN];
        char l2[3 * TERN_CONF_L2ADDR_MAX + 1];
        for (size_t i = 0; s.router && i < TERN_CONF_IPV6_6LO_REG_TABLE_SIZE; i++) {
            const tern_ipv6_6lo_reg_t *e = &s.state.regs[i];
            if (!e->used) {
                continue;
            }
            (void)tern_ipv6_addr_to_str(&e->addr, addr, sizeof(addr));
            l2addr_text(e->l2addr, e->l2addr_len, l2, sizeof(l2));
            tern_shell_printf(sh, "%-28s dev %-7s lladdr %-23s tid %-3u expires %lus\n", addr, n->name, l2,
                              (unsigned)e->tid, seconds_until(tern_expiry_to_us(e->expires), s.now_us));
        }
        for (size_t i = 0; TERN_CONF_IPV6_ROUTER != 2 && !s.router && i < TERN_CONF_IPV6_6LO_BINDINGS; i++) {
            const tern_ipv6_6lo_binding_t *b = tern_ipv6_6lo_binding_const(&s.state, i);
            if (b->state == TERN_IPV6_6LO_BIND_FREE) {
                continue;
            }
            (void)tern_ipv6_addr_to_str(&b->addr, addr, sizeof(addr));
            (void)tern_ipv6_addr_to_str(&b->router, other, sizeof(other));
            char next[16];
            if (b->deadline_us == UINT64_MAX) {
                (void)tern_snprintf(next, sizeof(next), "-");
            } else {
                (void)tern_snprintf(next, sizeof(next), "%lus", seconds_until(b->deadline_us, s.now_us));
            }
            tern_shell_printf(sh, "%-28s via %-26s dev %-7s %-11s tid %-3u status %-2u next %s\n", addr, other,
                              n->name, tern_ipv6_6lo_bind_state_name((tern_ipv6_6lo_bind_state_t)b->state),
                              (unsigned)b->tid, (unsigned)b->status, next);
        }
    }
    return 0;
}

/* nib ctx: the 6LoWPAN contexts of each interface (RFC 6775 §4.2) and the border router followed (§4.3). */
static int print_contexts(tern_shell_t *sh, tern_ipv6_t *ip)
{
    tern_ipv6_6lo_state_t s;
    for (tern_netif_t *n = sh->stack->netifs; n != NULL; n = n->next) {
        if (tern_netapi_get(&ip->module, TERN_NETOPT_IPV6_6LO, n->index, &s, sizeof(s)) < 0 || !s.state.enabled) {
            continue;
        }
        char prefix[TERN_IPV6_ADDR_STRLEN + 4];
        for (size_t i = 0; i < TERN_CONF_IPV6_6LO_CONTEXTS; i++) {
            const tern_ipv6_6lo_context_t *c = &s.state.contexts[i];
            if (!c->used) {
                continue;
            }
            (void)tern_ipv6_addr_to_str(&c->prefix, prefix, sizeof(prefix));
            size_t len = strlen(prefix);
            (void)tern_snprintf(&prefix[len], sizeof(prefix) - len, "/%u", (unsigned)c->prefix_len);
            tern_shell_printf(sh, "cid %-2u %-28s dev %-7s %s valid %lus\n", (unsigned)c->cid, prefix, n->name,
                              c->compress ? "compress  " : "decompress", seconds_until(tern_expiry_to_us(c->expires), s.now_us));
        }
        if (s.state.border.valid) {
            (void)tern_ipv6_addr_to_str(&s.state.border.border_router, prefix, sizeof(prefix));
            tern_shell_printf(sh, "abro   %-28s dev %-7s version %lu valid %lus\n", prefix, n->name,
                              (unsigned long)s.state.border.version,
                              seconds_until(tern_expiry_to_us(s.state.border.expires), s.now_us));
        }
    }
    return 0;
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
    if (argc == 2 && (strcmp(argv[1], "route") == 0 || strcmp(argv[1], "prefix") == 0)) {
        return print_routes(sh, ip, strcmp(argv[1], "prefix") == 0);
    }
    if (argc == 2 && strcmp(argv[1], "dest") == 0) {
        return print_destinations(sh, ip);
    }
    if (argc == 2 && strcmp(argv[1], "reg") == 0) {
        return print_registrations(sh, ip);
    }
    if (argc == 2 && strcmp(argv[1], "ctx") == 0) {
        return print_contexts(sh, ip);
    }
    tern_shell_printf(sh, "usage: nib neigh [IF] | nib route | nib prefix | nib dest | nib reg | nib ctx\n");
    return -EINVAL;
}

static tern_netif_t *netif_by_name(tern_shell_t *sh, const char *name)
{
    for (tern_netif_t *n = sh->stack->netifs; n != NULL; n = n->next) {
        if (strcmp(n->name, name) == 0) {
            return n;
        }
    }
    return NULL;
}

/* route add PREFIX/LEN [via ADDR] dev IF | route del PREFIX/LEN [dev IF] */
static int cmd_route(tern_shell_t *sh, int argc, char **argv)
{
    tern_ipv6_t *ip = sh->current->ctx;
    bool add = argc >= 2 && strcmp(argv[1], "add") == 0;
    bool del = argc >= 2 && strcmp(argv[1], "del") == 0;
    tern_ipv6_route_config_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    tern_ipv6_addr_config_t prefix;
    const char *via = NULL, *dev = NULL;
    bool bad = !(add || del) || argc < 3 || strchr(argv[2], '/') == NULL || parse_addr_len(argv[2], &prefix) < 0;
    for (int i = 3; !bad && i < argc; i += 2) {
        if (i + 1 >= argc) {
            bad = true;
        } else if (add && strcmp(argv[i], "via") == 0 && via == NULL) {
            via = argv[i + 1];
        } else if (strcmp(argv[i], "dev") == 0 && dev == NULL) {
            dev = argv[i + 1];
        } else {
            bad = true;
        }
    }
    if (bad || (add && dev == NULL) ||
        (via != NULL && tern_ipv6_addr_from_str(&cfg.next_hop, via, strlen(via)) < 0)) {
        tern_shell_printf(sh, "usage: route add PREFIX/LEN [via ADDR] dev IF | route del PREFIX/LEN [dev IF]\n");
        return -EINVAL;
    }
    cfg.prefix = prefix.addr;
    cfg.prefix_len = prefix.prefix_len;
    tern_netif_t *netif = (dev != NULL) ? netif_by_name(sh, dev) : NULL;
    if (dev != NULL && netif == NULL) {
        return -ENODEV; /* the shell says "no such interface" */
    }
    int res = tern_netapi_set(&ip->module, add ? TERN_NETOPT_IPV6_ROUTE_ADD : TERN_NETOPT_IPV6_ROUTE_DEL,
                              (netif != NULL) ? netif->index : 0u, &cfg, sizeof(cfg));
    if (res == -ENODEV) {
        tern_shell_printf(sh, "route: IPv6 does not run on %s\n", dev);
    }
    return (res < 0) ? res : 0;
}

void tern_shell_add_ipv6(tern_shell_t *sh, tern_shell_ipv6_t *storage, tern_ipv6_t *ip)
{
    storage->hook = (tern_shell_netif_hook_t){ NULL, print_addrs, ifconfig_command, ip };
    tern_shell_add_netif_hook(sh, &storage->hook);
    storage->nib = (tern_shell_cmd_t){ NULL, "nib", "neigh [IF] | route | prefix | dest | reg | ctx - IPv6 neighbors, routes, RA prefixes, destination cache, 6LoWPAN registrations and contexts", cmd_nib, ip };
    (void)tern_shell_add(sh, &storage->nib);
    storage->route = (tern_shell_cmd_t){ NULL, "route", "add PREFIX/LEN [via ADDR] dev IF | del PREFIX/LEN [dev IF] - static routes", cmd_route, ip };
    (void)tern_shell_add(sh, &storage->route);
}
