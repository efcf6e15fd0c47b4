/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief `ping [-A] [-c N] [-s SIZE | [-g MIN] -G MAX [-h STEP]] [-i MS]
 *        [-W MS] ADDR[%IF]` in the shell, with iputils-like output.
 *
 * -c -s -i -W -A as iputils' ping (-i and -W in milliseconds; -A: the next
 * request goes once the newest is answered, -i is then the longest wait).
 * -g/-G/-h: a size sweep, as BSD ping's: -c (default 1) requests of each
 * size MIN (default 0), MIN + STEP (default 1), ... up to MAX, in one run;
 * e.g. `ping -A -G 1452 ADDR` tries every size up to a full Ethernet frame.
 * Every reply's data is checked against the request's (tern_ping.h).
 *
 * The command returns when the run is over (tern_ping_wait(): the stack runs
 * meanwhile), so the next line is read only after "N packets transmitted, M
 * received". Replies are printed from the ping module's handler (its own
 * thread under the threaded executor: the write function must be
 * thread-safe, as for `udp server`).
 */
#ifndef TERN_SHELL_PING_H
#define TERN_SHELL_PING_H

#include "tern/ping.h"
#include "tern/shell.h"

struct tern_ipv6;

/** Storage of the ping command. Allocate statically (zeroed). */
typedef struct {
    tern_shell_cmd_t cmd; /**< `ping` */
    tern_shell_t *sh;     /**< where replies are printed */
    tern_ping_t ping;     /**< the ping client */
} tern_shell_ping_t;

/**
 * Add the `ping` command to @p sh, sending through @p ipv6 of @p sh's stack.
 * @pre @p storage zeroed (static storage)
 * @return 0 or the negative errno of tern_ping_init() / tern_shell_add().
 */
int tern_shell_add_ping(tern_shell_t *sh, tern_shell_ping_t *storage, struct tern_ipv6 *ipv6);

#endif /* TERN_SHELL_PING_H */
