/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim's traffic generator: periodic UDP from every node to one
 *        address and back, with per-node delivery counters (the end-to-end
 *        delivery ratio of docs/RPL.md, "Experiments").
 *
 *     traffic ADDR COUNT INTERVAL [SIZE]
 *
 * Every node except the one that owns ADDR sends COUNT datagrams of SIZE
 * bytes (default 32) to ADDR, UDP port 7, one every INTERVAL, the senders
 * spread evenly over each interval (sender k of S sends at k * INTERVAL / S
 * into it), so they do not all transmit at once. Every node answers on port 7
 * like an echo server (RFC 862) from the first `traffic` on. After the last
 * datagram the command runs max(INTERVAL, 5 s) more for late answers, then
 * prints one line per sender and a total:
 *
 *     traffic node 2 sent 10 arrived 10 returned 9
 *     traffic total sent 240 arrived 238 returned 231
 *
 * `arrived` counts distinct datagrams that reached ADDR's node, `returned`
 * distinct answers back at the sender (duplicates are not counted twice).
 * Each run has its own number in the payload, so late answers of an earlier
 * run are not counted. `traffic` alone prints the last run's counters again.
 * Time passes only inside the command (virtual time, as `run`).
 */
#ifndef TERN_SIM_TRAFFIC_H
#define TERN_SIM_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include "sim_cmd.h"
#include "topology.h"
#include "tern/sock_udp.h"

/** UDP port every node answers on (RFC 862 echo). */
#define SIM_TRAFFIC_ECHO_PORT 7u

/** UDP port the senders send from. */
#define SIM_TRAFFIC_CLIENT_PORT 50007u

/** Most datagrams per sender and run (the counters keep a bit per datagram). */
#define SIM_TRAFFIC_COUNT_MAX 1024u

/** Smallest payload: the 10-byte header (magic, run, node, sequence). */
#define SIM_TRAFFIC_SIZE_MIN 10u

/** Largest payload (a datagram within the IPv6 minimum MTU, RFC 8200 §5). */
#define SIM_TRAFFIC_SIZE_MAX 1232u

/** Time after the last datagram for late answers, us (or INTERVAL when longer). */
#define SIM_TRAFFIC_DRAIN_US 5000000u

struct tern_stack;
struct tern_ipv6;
struct tern_udp;
struct sim_traffic;

/** One node's generator state. */
typedef struct {
    struct sim_traffic *owner;
    unsigned number;                                 /**< node number, 1-based */
    struct tern_stack *stack;
    struct tern_ipv6 *ipv6;
    struct tern_udp *udp;
    bool open;                                       /**< the sockets are open */
    tern_sock_udp_t echo;                            /**< port SIM_TRAFFIC_ECHO_PORT */
    tern_sock_udp_t client;                          /**< port SIM_TRAFFIC_CLIENT_PORT */
    tern_sock_udp_t probe;                           /**< bound for a moment: does ADDR belong to the node? */
    bool sender;                                     /**< sent in the last run */
    uint32_t sent;                                   /**< datagrams handed to UDP in the last run */
    uint32_t send_errors;                            /**< sends UDP refused (counted in sent too) */
    uint32_t arrived;                                /**< distinct datagrams at the destination */
    uint32_t returned;                               /**< distinct answers back here */
    uint8_t arrived_map[SIM_TRAFFIC_COUNT_MAX / 8u];
    uint8_t returned_map[SIM_TRAFFIC_COUNT_MAX / 8u];
} sim_traffic_node_t;

/** The generator of a whole simulation. Zero it with sim_traffic_init(). */
typedef struct sim_traffic {
    unsigned nodes;                          /**< nodes added */
    uint16_t run;                            /**< number of the current run (in the payload) */
    uint32_t count;                          /**< datagrams per sender in the current run */
    bool ran;                                /**< a run happened */
    sim_traffic_node_t node[SIM_MAX_NODES];
} sim_traffic_t;

/** Empty generator. */
void sim_traffic_init(sim_traffic_t *traffic);

/**
 * Add the next node (numbered in the order of the calls, from 1).
 * @return 0; -ENOSPC beyond SIM_MAX_NODES; -EINVAL for NULL arguments.
 */
int sim_traffic_add_node(sim_traffic_t *traffic, struct tern_stack *stack, struct tern_ipv6 *ipv6,
                         struct tern_udp *udp);

/**
 * The `traffic` command with its arguments @p args (modified), advancing time
 * through @p sim's run_until() and printing through its write().
 * @return 0; -EINVAL for bad arguments (usage printed); -ENOENT before the
 *         first run for `traffic` alone; the errno of opening a socket or of
 *         run_until().
 */
int sim_traffic_cmd(sim_traffic_t *traffic, const sim_cmd_t *sim, char *args);

/** Close every socket (before the simulation checks its packet buffers). */
void sim_traffic_close(sim_traffic_t *traffic);

#endif /* TERN_SIM_TRAFFIC_H */
