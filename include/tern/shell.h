/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The shell: a table of commands that modules contribute.
 *
 * A shell reads one line at a time (the caller's job), splits it into words
 * (whitespace; double quotes group words) and runs the command named by the
 * first word. Commands are caller-allocated tern_shell_cmd_t entries kept in
 * name order; each module offers a function that adds its own. Output goes
 * through a write function, so the same shell serves stdin/stdout, a UART or a
 * simulator script.
 */
#ifndef TERN_SHELL_H
#define TERN_SHELL_H

#include <stddef.h>

#include "tern/stack.h"
#include "tern/wire/ipv6_addr.h"

struct tern_netif;

typedef struct tern_shell tern_shell_t;

/** A command: return 0 on success or a negative errno (the shell reports it). */
typedef int (*tern_shell_fn_t)(tern_shell_t *sh, int argc, char **argv);

/** One command table entry. */
typedef struct tern_shell_cmd {
    struct tern_shell_cmd *next; /**< table, in name order */
    const char *name;            /**< the word that runs it */
    const char *help;            /**< one line: "ARGS - what it does" */
    tern_shell_fn_t fn;          /**< the command */
    void *ctx;                   /**< the contributing module's state (tern_shell_t::current) */
} tern_shell_cmd_t;

/** A hook that adds lines to `ifconfig`'s output for each interface (e.g. IPv6 addresses). */
typedef struct tern_shell_netif_hook {
    struct tern_shell_netif_hook *next; /**< the shell's list */
    void (*print)(tern_shell_t *sh, struct tern_netif *netif, void *ctx); /**< prints the lines */
    /** `ifconfig IF WORD ...` for words ifconfig itself does not know (e.g. add, del):
     *  the result, or -ENOTSUP if the word is not this hook's. May be NULL. */
    int (*command)(tern_shell_t *sh, struct tern_netif *netif, int argc, char **argv, void *ctx);
    void *ctx;                          /**< argument of both */
} tern_shell_netif_hook_t;

/** A shell bound to one stack. */
struct tern_shell {
    tern_stack_t *stack;                                  /**< the node the commands act on */
    void (*write)(void *ctx, const char *text, size_t len); /**< output */
    void *write_ctx;                                      /**< argument of write */
    tern_shell_cmd_t *cmds;                               /**< command table */
    const tern_shell_cmd_t *current;                      /**< command running now (for its ctx) */
    tern_shell_netif_hook_t *netif_hooks;                 /**< ifconfig extensions */
};

/** Add an ifconfig hook (kept by reference; printed in the order added). */
void tern_shell_add_netif_hook(tern_shell_t *sh, tern_shell_netif_hook_t *hook);

/** Set up @p sh for @p stack, writing through @p write. */
void tern_shell_init(tern_shell_t *sh, tern_stack_t *stack,
                     void (*write)(void *ctx, const char *text, size_t len), void *write_ctx);

/** Add @p cmd (kept by reference). @return 0; -EEXIST for a duplicate name; -EINVAL. */
int tern_shell_add(tern_shell_t *sh, tern_shell_cmd_t *cmd);

/**
 * Run one line (modified in place). Empty lines and lines starting with '#'
 * do nothing.
 * @return the command's result; 0 for nothing to do; -ENOENT for an unknown
 *         command; -E2BIG for too many words; -EINVAL for an unterminated quote
 *         (each also printed as a message).
 */
int tern_shell_run(tern_shell_t *sh, char *line);

/** Print formatted output (see fmt.h); output longer than one line buffer is cut. */
void tern_shell_printf(tern_shell_t *sh, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Storage of the core commands (help, pktbuf, stats, trace). */
typedef struct {
    tern_shell_cmd_t cmds[4]; /**< the entries */
} tern_shell_core_cmds_t;

/** Add help, pktbuf, stats and trace. */
void tern_shell_add_core(tern_shell_t *sh, tern_shell_core_cmds_t *storage);

/** Storage of the interface commands (ifconfig, txtsnd). */
typedef struct {
    tern_shell_cmd_t cmds[2]; /**< the entries */
} tern_shell_netif_cmds_t;

/** Add ifconfig and txtsnd. */
void tern_shell_add_netif(tern_shell_t *sh, tern_shell_netif_cmds_t *storage);

struct tern_ipv6;

/** Storage of the IPv6 shell parts: addresses in ifconfig, the `nib` command. */
typedef struct {
    tern_shell_netif_hook_t hook; /**< ifconfig lines */
    tern_shell_cmd_t nib;         /**< `nib neigh` */
    tern_shell_cmd_t route;       /**< `route add` / `route del` (static routes) */
} tern_shell_ipv6_t;

/** Show @p ip's addresses in ifconfig and add `nib`. */
void tern_shell_add_ipv6(tern_shell_t *sh, tern_shell_ipv6_t *storage, struct tern_ipv6 *ip);

/**
 * Parse a decimal number in [@p min, @p max] (for command arguments).
 * @return 0; -EINVAL for anything else (nothing written).
 */
int tern_shell_parse_number(const char *text, uint32_t min, uint32_t max, uint32_t *out);

/**
 * Parse an IPv6 destination ADDR[%IF], IF an interface name or index.
 * @param[out] netif the interface index; 0 without %IF
 * @return 0; -EINVAL for a bad address; -ENODEV for an unknown interface.
 */
int tern_shell_parse_ipv6_dest(tern_shell_t *sh, const char *text, tern_ipv6_addr_t *addr, uint16_t *netif);

/** Text for a negative errno ("no buffer space" ...), or "error" when unknown. */
const char *tern_strerror(int err);

#endif /* TERN_SHELL_H */
