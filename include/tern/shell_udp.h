/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief UDP in the shell: `udp server start PORT`, `udp server stop`,
 *        `udp send ADDR[%IF] PORT DATA`, `udp send -s SIZE ADDR[%IF] PORT`.
 *
 * The server prints every datagram it gets ("udp: N bytes from [ADDR]:PORT:
 * DATA", non-printable bytes and '\' as \xNN; beyond 128 bytes only the
 * first 128, followed by " ... (+M bytes, crc32 XXXXXXXX)": M bytes not
 * shown, the CRC-32 of all N as zlib computes it) from its socket's receive callback,
 * i.e. from the socket module's handler. Under the event loop that is the
 * loop's thread, as every other shell output; under the threaded executor it
 * is the socket's thread, so its lines may interleave with a command's
 * output (accepted for now: the write function must be thread-safe, as
 * stdio's is).
 *
 * `udp send -s SIZE` sends SIZE (0..65527) bytes of the pattern
 * "abcdefghijklmnopqrstuvwxyzabc..." (byte i is 'a' + i % 26). The pattern
 * is built in the packet buffer and copied into the datagram, so it needs
 * twice SIZE free there for a moment (-ENOMEM otherwise).
 */
#ifndef TERN_SHELL_UDP_H
#define TERN_SHELL_UDP_H

#include "tern/shell.h"
#include "tern/sock_udp.h"
#include "tern/udp.h"

struct tern_ipv6;

/** Storage of the udp command. Allocate statically (zeroed): it holds two sockets. */
typedef struct {
    tern_shell_cmd_t cmd;      /**< `udp` */
    tern_shell_t *sh;          /**< where received datagrams are printed */
    struct tern_ipv6 *ipv6;    /**< the node's IPv6 module */
    tern_udp_t *udp;           /**< the node's UDP module */
    tern_sock_udp_t server;    /**< `udp server start` */
    tern_sock_udp_t sender;    /**< `udp send` (opened per command, ephemeral port) */
} tern_shell_udp_t;

/**
 * Add the `udp` command to @p sh, using @p udp and @p ipv6 of @p sh's stack.
 * @pre @p storage zeroed (static storage)
 * @return 0 or the negative errno of tern_shell_add().
 */
int tern_shell_add_udp(tern_shell_t *sh, tern_shell_udp_t *storage, struct tern_ipv6 *ipv6, tern_udp_t *udp);

#endif /* TERN_SHELL_UDP_H */
