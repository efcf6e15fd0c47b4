/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The `udp` shell command: a printing server and a one-shot sender.
 *
 * The server shows a datagram of up to PRINT_MAX bytes whole; a longer one
 * by its first PRINT_MAX bytes, the number of bytes not shown and a CRC-32
 * of all its data (the CRC-32 of zlib and Python's zlib.crc32), so
 * that its content can still be checked without a screenful of text.
 * `udp send -s SIZE` sends SIZE bytes of the printable pattern "abc...zabc..."
 * (byte i is 'a' + i % 26): any length, no typing, and the receiver can check
 * every byte.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tern/fmt.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netif.h"
#include "tern/pktbuf.h"
#include "tern/shell_udp.h"
#include "tern/wire/udp.h"

/** Longest datagram the server prints whole. */
#define PRINT_MAX 128u

/** Largest UDP payload (RFC 768 Length is 16 bits, header included). */
#define SEND_MAX (0xFFFFu - TERN_UDP_HDR_LEN)

/* A port 1..65535. @return it, or -EINVAL. */
static int parse_port(const char *text)
{
    uint32_t v;
    return (tern_shell_parse_number(text, 1, 65535u, &v) == 0) ? (int)v : -EINVAL;
}

/* CRC-32 of @p len bytes (IEEE 802.3 polynomial, reflected 0xEDB88320, initial
 * and final value all ones: the catalogued CRC-32/ISO-HDLC). Bitwise: the
 * shell has no use for a 1 KiB table. */
static uint32_t crc32(const uint8_t *data, size_t len)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= data[i];
        for (unsigned bit = 0; bit < 8u; bit++) {
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

/* Byte @p i of the `udp send -s` pattern. */
static uint8_t pattern_byte(size_t i)
{
    return (uint8_t)('a' + i % 26u);
}

/* Print one datagram: header line start, data escaped in pieces (at most
 * PRINT_MAX bytes), the summary of the rest, newline. */
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
    size_t shown = (len > PRINT_MAX) ? PRINT_MAX : len;
    for (size_t i = 0; i < shown; i++) {
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
    if (shown < len) {
        sh->write(sh->write_ctx, out, pos);
        n = tern_snprintf(out, sizeof(out), " ... (+%u bytes, crc32 %08x)", (unsigned)(len - shown),
                          (unsigned)crc32(data, len));
        pos = (n > 0) ? (size_t)n : 0u;
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
        tern_sock_udp_ep_t bound;
        if (tern_sock_udp_get_local(&st->server, &bound) == 0) {
            tern_shell_printf(sh, "udp: a server runs on port %u: stop it first\n", (unsigned)bound.port);
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
        tern_sock_udp_ep_t bound;
        if (tern_sock_udp_get_local(&st->server, &bound) < 0) {
            tern_shell_printf(sh, "udp: no server running\n");
            return -ENOENT;
        }
        unsigned port = bound.port;
        tern_sock_udp_close(&st->server);
        tern_shell_printf(sh, "udp: server on port %u stopped\n", port);
        return 0;
    }
    tern_shell_printf(sh, "usage: udp server start PORT | udp server stop\n");
    return -EINVAL;
}

/* Send @p len bytes of DATA, or (@p data NULL) of the pattern, to @p remote from an ephemeral port. */
static int send_datagram(tern_shell_t *sh, tern_shell_udp_t *st, const char *data, size_t len,
                         const tern_sock_udp_ep_t *remote)
{
    tern_pktbuf_t *pb = &sh->stack->pktbuf;
    tern_pkt_t *scratch = NULL;
    if (data == NULL && len > 0) {
        /* The pattern is written into the packet buffer (no static buffer of
         * the largest size), then copied into the datagram by the socket. */
        scratch = tern_pktbuf_add(pb, NULL, NULL, len, TERN_NETTYPE_UNDEF);
        if (scratch == NULL) {
            return -ENOMEM;
        }
        uint8_t *b = scratch->data;
        for (size_t i = 0; i < len; i++) {
            b[i] = pattern_byte(i);
        }
        data = scratch->data;
    }
    int res = tern_sock_udp_create(&st->sender, sh->stack, st->ipv6, st->udp, NULL, NULL, 0);
    if (res == 0) {
        res = tern_sock_udp_send(&st->sender, data, len, remote);
        tern_sock_udp_close(&st->sender);
    }
    tern_pktbuf_release(pb, scratch);
    return res;
}

static int send_usage(tern_shell_t *sh)
{
    tern_shell_printf(sh, "usage: udp send ADDR[%%IF] PORT DATA | udp send -s SIZE ADDR[%%IF] PORT\n");
    return -EINVAL;
}

static int send_cmd(tern_shell_t *sh, tern_shell_udp_t *st, int argc, char **argv)
{
    uint32_t size = 0;
    bool pattern = (argc >= 3 && strcmp(argv[2], "-s") == 0);
    if (pattern) {
        if (argc != 6) {
            return send_usage(sh);
        }
        if (tern_shell_parse_number(argv[3], 0, SEND_MAX, &size) < 0) {
            tern_shell_printf(sh, "udp: bad size '%s' (0..%u)\n", argv[3], SEND_MAX);
            return -EINVAL;
        }
        argv += 2;
    } else if (argc != 5) {
        return send_usage(sh);
    }
    tern_sock_udp_ep_t remote;
    int res = tern_shell_parse_ipv6_dest(sh, argv[2], &remote.addr, &remote.netif);
    int port = parse_port(argv[3]);
    if (res < 0 || port < 0) {
        tern_shell_printf(sh, "udp: bad %s '%s'\n", (res < 0) ? "address" : "port", (res < 0) ? argv[2] : argv[3]);
        return (res < 0) ? res : -EINVAL;
    }
    remote.port = (uint16_t)port;
    res = pattern ? send_datagram(sh, st, NULL, size, &remote)
                  : send_datagram(sh, st, argv[4], strlen(argv[4]), &remote);
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
    tern_shell_printf(sh, "usage: udp server start PORT | udp server stop | udp send ADDR[%%IF] PORT DATA |"
                          " udp send -s SIZE ADDR[%%IF] PORT\n");
    return -EINVAL;
}

int tern_shell_add_udp(tern_shell_t *sh, tern_shell_udp_t *storage, tern_ipv6_t *ipv6, tern_udp_t *udp)
{
    storage->sh = sh;
    storage->ipv6 = ipv6;
    storage->udp = udp;
    storage->cmd = (tern_shell_cmd_t){ NULL, "udp",
                                       "server start PORT | server stop | send [-s SIZE] ADDR[%IF] PORT [DATA]"
                                       " - UDP (-s: SIZE bytes abc..zabc..)",
                                       cmd_udp, storage };
    return tern_shell_add(sh, &storage->cmd);
}
