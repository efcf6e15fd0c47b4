/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The RPL module in the shell: `rpl` (instance, DODAG, version, role,
 *        rank, MOP, OCP, parents with ranks and ETX, Trickle, DAO state,
 *        downward routes, counters), `rpl root INSTANCE DODAGID`,
 *        `rpl router`, `rpl leaf`, `rpl global-repair`, `rpl stop`.
 *
 * The state is read with tern_rpl_get_state() (netapi GET on the module's
 * own turn), so it is consistent under the threaded executor.
 */
#ifndef TERN_SHELL_RPL_H
#define TERN_SHELL_RPL_H

#include "tern/rpl/rpl.h"
#include "tern/shell.h"

/** Storage of the RPL shell command. Allocate statically. */
typedef struct {
    tern_shell_cmd_t cmd;   /**< `rpl` */
    tern_rpl_t *rpl;        /**< the module */
    tern_rpl_state_t state; /**< snapshot for printing (too large for small stacks) */
} tern_shell_rpl_t;

/**
 * Add the `rpl` command to @p sh for the RPL module @p rpl of @p sh's stack.
 * @return 0 or the negative errno of tern_shell_add().
 */
int tern_shell_add_rpl(tern_shell_t *sh, tern_shell_rpl_t *storage, tern_rpl_t *rpl);

#endif /* TERN_SHELL_RPL_H */
