/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim --tap: one simulated node gets an Ethernet interface over a
 *        Linux TAP device, so the host reaches the whole mesh through it.
 *
 * A TAP device carries real traffic that does not wait for virtual time, so
 * with --tap the simulation runs on the wall clock:
 *
 * - the loop's clock is real (microseconds since the start of the run, not
 *   virtual): the loop sleeps in the POSIX wait (port/posix/loop_sync.c)
 *   until the next timer or a wake-up. The radio medium runs every air event
 *   in the order of the times it planned them, so a late timer delays air
 *   events but does not reorder them (src/netdev/radio_medium.c);
 * - the TAP reader thread posts to the node's interface, which wakes the
 *   loop (a post from another thread needs the platform's queue lock, which
 *   the binding provides);
 * - standard input is read by its own thread, which hands each line to the
 *   loop's thread and wakes it, as in tern-node: while the simulation waits
 *   for a command the mesh keeps running (DIOs, DAOs, forwarding). `run
 *   DURATION` then simply lets DURATION of real time pass.
 *
 * The TAP interface is set up like tern-node's --tap (docs/TAP.md): an
 * Ethernet link over the device, IPv6 enabled on it. RPL stays on wpan0.
 */
#ifndef TERN_SIM_TAP_H
#define TERN_SIM_TAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim_cmd.h"
#include "tern/clock.h"
#include "tern/ipv6/ipv6.h"
#include "tern/link/ethernet.h"
#include "tern/netif.h"
#include "tern/port/loop.h"
#include "tern/port/posix.h"
#include "tern/port/tap.h"
#include "tern/stack.h"

/** The real-time side of a simulation with a TAP device. Allocate statically. */
typedef struct {
    tern_clock_t clock;            /**< first: wall clock since @ref origin_us, real (not virtual) */
    uint64_t origin_us;            /**< tern_posix_clock() at the start of the run */
    tern_posix_loop_sync_t sync;   /**< the POSIX wait and wake */
    tern_loop_platform_t platform; /**< @ref sync's hooks, deadlines shifted by @ref origin_us */

    char ifname[TERN_NETDEV_TAP_NAME_LEN]; /**< the TAP device, also the interface's name */
    unsigned node;                 /**< 1-based number of the node that gets it */
    tern_netdev_tap_t dev;
    tern_ethernet_link_t eth;
    tern_netif_t netif;
    bool attached;                 /**< @ref dev is open (stop it at exit) */

    /* Standard input, read by its own thread. */
    pthread_mutex_t mutex;
    pthread_cond_t cond;           /**< signalled when the loop's thread took the line */
    pthread_t thread;
    char line[SIM_CMD_LINE_MAX];
    bool ready;                    /**< @ref line waits for the loop's thread */
    bool too_long;                 /**< the waiting line was cut */
    bool eof;                      /**< no more lines */
    bool reading;                  /**< the thread runs (join it) */
} sim_tap_t;

/**
 * Parse the argument of --tap: IFNAME or IFNAME@NODE (NODE 1-based, default 1).
 * @return 0 with @p tap's ifname and node set; -EINVAL for an empty or too
 *         long name or a NODE that is not a positive number.
 */
int sim_tap_parse(sim_tap_t *tap, const char *arg);

/**
 * Initialise @p loop over @p tap's real clock and bind the POSIX wait and wake
 * to it, so that other threads may post and the loop sleeps between events.
 * @return 0, or a negative errno from the mutex or condition variable.
 */
int sim_tap_loop_init(sim_tap_t *tap, tern_loop_t *loop);

/**
 * Add the Ethernet interface over the TAP device to @p stack (the node
 * tap->node) and enable IPv6 on it (link-local address, DAD, groups).
 * @return 0; -ENODEV when the TAP device does not exist (message printed);
 *         another negative errno from the interface or IPv6.
 */
int sim_tap_attach(sim_tap_t *tap, tern_stack_t *stack, tern_ipv6_t *ipv6);

/** Start the thread that reads standard input. @return 0 or -EAGAIN. */
int sim_tap_input_start(sim_tap_t *tap);

/**
 * Run the loop until the input thread has a line or the input ended,
 * sleeping while there is nothing to do.
 * @return 1 with the line (NUL-terminated, newline kept) in @p line and
 *         @p too_long set when it was cut; 0 at the end of input.
 */
int sim_tap_next_line(sim_tap_t *tap, tern_loop_t *loop, char *line, size_t size, bool *too_long);

/** Join the input thread (after the end of input) and close the TAP device. */
void sim_tap_stop(sim_tap_t *tap);

#endif /* TERN_SIM_TAP_H */
