/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The `udp` shell command: a printing server and a one-shot sender.
 */
#include <errno.h>
#include <string.h>

#include "tern/fmt.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netif.h"
#include "tern/shell_udp.h"

/* Parse a port 1..65535. @return it, or -EINVAL. */
/* A port 1..65535. @return it, or -EINVAL. */
static int parse_port(const char *text)
{
    uint32_t v;
    return (tern_shell_parse_number(text, 1, 65535u, &v) == 0) ? (int)v : -EINVAL;
}

/* Print one datagram: header line start, data escaped in pieces, newline. */
static void print_datagram(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                           void *arg)
{
    (void)sock;
    tern_shell_udp_t *st = arg;
    tern_shell_t *sh = st->sh;
    char addr[TERN_IPV6_ADDR_STRLEN];
    (void)tern_ipv6_addr_to_str(&remote->addr, addr, sizeof(addr));
    char out[160];
    int n = tern_snprintf(out, sizeof(out), "udp: %u bytes from [%s]:%u: ", (unsigned)len, addr,
                          (unsigned)remote->port);
    size_t pos = (n > 0) ? (size_t)n : 0u;
    if (pos >= sizeof(out)) {
        pos = sizeof(out) - 1u;
    }
    for (size_t i = 0; i < len; i++) {
        if (pos + 5u > sizeof(out)) {
            sh->write(sh->write_ctx, out, pos);
            pos = 0;
        }
        uint8_t c = data[i];
        if (c >= 0x20u && c < 0x7fu && c != '\\') {
            out[pos++] = (char)c;
        } else {
            pos += (size_t)tern_snprintf(&out[pos], sizeof(out) - pos, "\\x%02x", (unsigned)c);
        }
    }
    out[pos++] = '\n';
    sh->write(sh->write_ctx, out, pos);
}

static int server(tern_shell_t *sh, tern_shell_udp_t *st, int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[2], "start") == 0) {
        int port = parse_port(argv[3]);
        if (port < 0) {
            tern_shell_printf(sh, "udp: bad port '%s'\n", argv[3]);
            return -EINVAL;
        }
        if (st->server.open) {
            tern_shell_printf(sh, "udp: a server runs on port %u: stop it first\n", (unsigned)st->server.local.port);
            return -EBUSY;
        }
        tern_sock_udp_ep_t local = { .netif = 0, .port = (uint16_t)port };
        memset(&local.addr, 0, sizeof(local.addr));
        int res = tern_sock_udp_create(&st->server, sh->stack, st->ipv6, st->udp, &local, NULL, 0);
        if (res < 0) {
            tern_shell_printf(sh, "udp: cannot listen on port %d: %s\n", port, tern_strerror(res));
            return res;
        }
        (void)tern_sock_udp_set_cb(&st->server, print_datagram, st);
        tern_shell_printf(sh, "udp: server listening on port %d\n", port);
        return 0;
    }
    if (argc == 3 && strcmp(argv[2], "stop") == 0) {
        if (!st->server.open) {
            tern_shell_printf(sh, "udp: no server running\n");
            return -ENOENT;
        }
        unsigned port = st->server.local.port;
        tern_sock_udp_close(&st->server);
        tern_shell_printf(sh, "udp: server on port %u stopped\n", port);
        return 0;
    }
    tern_shell_printf(sh, "usage: udp server start PORT | udp server stop\n");
    return -EINVAL;
}

static int send_cmd(tern_shell_t *sh, tern_shell_udp_t *st, int argc, char **argv)
{
    if (argc != 5) {
        tern_shell_printf(sh, "usage: udp send ADDR[%%IF] PORT DATA\n");
        return -EINVAL;
    }
    tern_sock_udp_ep_t remote;
    int res = tern_shell_parse_ipv6_dest(sh, argv[2], &remote.addr, &remote.netif);
    int port = parse_port(argv[3]);
    if (res < 0 || port < 0) {
        tern_shell_printf(sh, "udp: bad %s '%s'\n", (res < 0) ? "address" : "port", (res < 0) ? argv[2] : argv[3]);
        return (res < 0) ? res : -EINVAL;
    }
    remote.port = (uint16_t)port;
    res = tern_sock_udp_create(&st->sender, sh->stack, st->ipv6, st->udp, NULL, NULL, 0);
    if (res == 0) {
        res = tern_sock_udp_send(&st->sender, argv[4], strlen(argv[4]), &remote);
        tern_sock_udp_close(&st->sender);
    }
    if (res < 0) {
        tern_shell_printf(sh, "udp: send failed: %s\n", tern_strerror(res));
        return res;
    }
    char addr[TERN_IPV6_ADDR_STRLEN];
    (void)tern_ipv6_addr_to_str(&remote.addr, addr, sizeof(addr));
    tern_shell_printf(sh, "udp: sent %d bytes to [%s]:%d\n", res, addr, port);
    return 0;
}

static int cmd_udp(tern_shell_t *sh, int argc, char **argv)
{
    tern_shell_udp_t *st = sh->current->ctx;
    if (argc >= 2 && strcmp(argv[1], "server") == 0 && argc >= 3) {
        return server(sh, st, argc, argv);
    }
    if (argc >= 2 && strcmp(argv[1], "send") == 0) {
        return send_cmd(sh, st, argc, argv);
    }
    tern_shell_printf(sh, "usage: udp server start PORT | udp server stop | udp send ADDR[%%IF] PORT DATA\n");
    return -EINVAL;
}

int tern_shell_add_udp(tern_shell_t *sh, tern_shell_udp_t *storage, tern_ipv6_t *ipv6, tern_udp_t *udp)
{
    storage->sh = sh;
    storage->ipv6 = ipv6;
    storage->udp = udp;
    storage->cmd = (tern_shell_cmd_t){ NULL, "udp",
                                       "server start PORT | server stop | send ADDR[%IF] PORT DATA - UDP",
                                       cmd_udp, storage };
    return tern_shell_add(sh, &storage->cmd);
}
