/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim's traffic generator (see sim_traffic.h).
 *
 * Payload (big-endian): 'T' 'S', run (2 bytes), sender's node number (2),
 * sequence (4), then filler up to SIZE. The echo side answers with the same
 * bytes, so the sender recognises its own datagrams.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim_traffic.h"
#include "tern/wire/ipv6_addr.h"

#define MAGIC0 'T'
#define MAGIC1 'S'

void sim_traffic_init(sim_traffic_t *traffic)
{
    memset(traffic, 0, sizeof(*traffic));
}

int sim_traffic_add_node(sim_traffic_t *traffic, struct tern_stack *stack, struct tern_ipv6 *ipv6,
                         struct tern_udp *udp)
{
    if (traffic == NULL || stack == NULL || ipv6 == NULL || udp == NULL) {
        return -EINVAL;
    }
    if (traffic->nodes == SIM_MAX_NODES) {
        return -ENOSPC;
    }
    sim_traffic_node_t *n = &traffic->node[traffic->nodes];
    memset(n, 0, sizeof(*n));
    n->owner = traffic;
    n->number = ++traffic->nodes;
    n->stack = stack;
    n->ipv6 = ipv6;
    n->udp = udp;
    return 0;
}

/* ------------------------------------------------------------ payload */

typedef struct {
    uint16_t run;
    uint16_t node;
    uint32_t seq;
} payload_t;

static bool payload_parse(const uint8_t *data, size_t len, payload_t *p)
{
    if (len < SIM_TRAFFIC_SIZE_MIN || data[0] != MAGIC0 || data[1] != MAGIC1) {
        return false;
    }
    p->run = (uint16_t)((data[2] << 8) | data[3]);
    p->node = (uint16_t)((data[4] << 8) | data[5]);
    p->seq = ((uint32_t)data[6] << 24) | ((uint32_t)data[7] << 16) | ((uint32_t)data[8] << 8) | data[9];
    return true;
}

/* Mark bit @p seq of @p map. @return true when it was not set yet. */
static bool mark(uint8_t *map, uint32_t seq)
{
    uint8_t bit = (uint8_t)(1u << (seq % 8u));
    if ((map[seq / 8u] & bit) != 0) {
        return false;
    }
    map[seq / 8u] |= bit;
    return true;
}

/* The sender a payload of the current run names, or NULL. */
static sim_traffic_node_t *current_sender(sim_traffic_t *traffic, const payload_t *p)
{
    if (p->run != traffic->run || p->node == 0 || p->node > traffic->nodes || p->seq >= traffic->count) {
        return NULL;
    }
    return &traffic->node[p->node - 1u];
}

/* ------------------------------------------------------------ sockets */

/* Port 7: count the datagram for its sender, answer with the same bytes (RFC 862). */
static void on_echo(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                    void *arg)
{
    sim_traffic_node_t *self = arg;
    payload_t p;
    if (!payload_parse(data, len, &p)) {
        return;
    }
    sim_traffic_node_t *from = current_sender(self->owner, &p);
    if (from != NULL && mark(from->arrived_map, p.seq)) {
        from->arrived++;
    }
    (void)tern_sock_udp_send(sock, data, len, remote);
}

/* The client port: an answer to one of our own datagrams. */
static void on_answer(tern_sock_udp_t *sock, const uint8_t *data, size_t len, const tern_sock_udp_ep_t *remote,
                      void *arg)
{
    (void)sock;
    (void)remote;
    sim_traffic_node_t *self = arg;
    payload_t p;
    if (!payload_parse(data, len, &p)) {
        return;
    }
    sim_traffic_node_t *from = current_sender(self->owner, &p);
    if (from == self && mark(self->returned_map, p.seq)) {
        self->returned++;
    }
}

static int open_node(sim_traffic_node_t *n)
{
    if (n->open) {
        return 0;
    }
    tern_sock_udp_ep_t local = { .netif = 0, .port = SIM_TRAFFIC_ECHO_PORT };
    memset(&local.addr, 0, sizeof(local.addr));
    int res = tern_sock_udp_create(&n->echo, n->stack, n->ipv6, n->udp, &local, NULL, 0);
    if (res < 0) {
        return res;
    }
    local.port = SIM_TRAFFIC_CLIENT_PORT;
    res = tern_sock_udp_create(&n->client, n->stack, n->ipv6, n->udp, &local, NULL, 0);
    if (res < 0) {
        tern_sock_udp_close(&n->echo);
        return res;
    }
    (void)tern_sock_udp_set_cb(&n->echo, on_echo, n);
    (void)tern_sock_udp_set_cb(&n->client, on_answer, n);
    n->open = true;
    return 0;
}

void sim_traffic_close(sim_traffic_t *traffic)
{
    for (unsigned i = 0; i < traffic->nodes; i++) {
        sim_traffic_node_t *n = &traffic->node[i];
        if (n->open) {
            tern_sock_udp_close(&n->echo);
            tern_sock_udp_close(&n->client);
            n->open = false;
        }
    }
}

/*
 * @p addr is one of node @p n's addresses: a socket bound to it can be created
 * (sock_udp.h). The probe socket lives in the node's state: a closed socket
 * stays attached to the executor until its queue is drained, and may be
 * created again.
 */
static bool owns(sim_traffic_node_t *n, const tern_ipv6_addr_t *addr)
{
    tern_sock_udp_ep_t local = { .addr = *addr, .netif = 0, .port = 0 };
    if (tern_sock_udp_create(&n->probe, n->stack, n->ipv6, n->udp, &local, NULL, 0) < 0) {
        return false;
    }
    tern_sock_udp_close(&n->probe);
    return true;
}

/* ------------------------------------------------------------ command */

static void report(const sim_traffic_t *traffic, const sim_cmd_t *sim)
{
    uint32_t sent = 0, arrived = 0, returned = 0, errors = 0;
    for (unsigned i = 0; i < traffic->nodes; i++) {
        const sim_traffic_node_t *n = &traffic->node[i];
        if (!n->sender) {
            continue;
        }
        sim_say(sim, "traffic node %u sent %lu arrived %lu returned %lu", n->number, (unsigned long)n->sent,
            (unsigned long)n->arrived, (unsigned long)n->returned);
        if (n->send_errors > 0) {
            sim_say(sim, " send_errors %lu", (unsigned long)n->send_errors);
        }
        sim_say(sim, "\n");
        sent += n->sent;
        arrived += n->arrived;
        returned += n->returned;
        errors += n->send_errors;
    }
    sim_say(sim, "traffic total sent %lu arrived %lu returned %lu send_errors %lu\n", (unsigned long)sent,
        (unsigned long)arrived, (unsigned long)returned, (unsigned long)errors);
}

static int usage(const sim_cmd_t *sim)
{
    sim_say(sim, "usage: traffic [ADDR COUNT INTERVAL [SIZE]] (COUNT 1..%u, INTERVAL e.g. 10s, SIZE %u..%u, "
             "default 32)\n",
        SIM_TRAFFIC_COUNT_MAX, SIM_TRAFFIC_SIZE_MIN, SIM_TRAFFIC_SIZE_MAX);
    return -EINVAL;
}

static bool parse_number(const char *text, unsigned long min, unsigned long max, unsigned long *out)
{
    if (text == NULL || *text == '\0') {
        return false;
    }
    unsigned long v = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p < '0' || *p > '9') {
            return false;
        }
        v = v * 10u + (unsigned long)(*p - '0');
        if (v > max) {
            return false;
        }
    }
    *out = v;
    return v >= min;
}

/* Send sequence @p seq of node @p n to @p dst. */
static void send_one(sim_traffic_t *traffic, sim_traffic_node_t *n, const tern_sock_udp_ep_t *dst, uint32_t seq,
                     size_t size)
{
    uint8_t buf[SIM_TRAFFIC_SIZE_MAX];
    buf[0] = MAGIC0;
    buf[1] = MAGIC1;
    buf[2] = (uint8_t)(traffic->run >> 8);
    buf[3] = (uint8_t)traffic->run;
    buf[4] = (uint8_t)(n->number >> 8);
    buf[5] = (uint8_t)n->number;
    buf[6] = (uint8_t)(seq >> 24);
    buf[7] = (uint8_t)(seq >> 16);
    buf[8] = (uint8_t)(seq >> 8);
    buf[9] = (uint8_t)seq;
    for (size_t i = SIM_TRAFFIC_SIZE_MIN; i < size; i++) {
        buf[i] = (uint8_t)('a' + (i - SIM_TRAFFIC_SIZE_MIN) % 26u);
    }
    n->sent++;
    if (tern_sock_udp_send(&n->client, buf, size, dst) < 0) {
        n->send_errors++;
    }
}

int sim_traffic_cmd(sim_traffic_t *traffic, const sim_cmd_t *sim, char *args)
{
    char *argv[5];
    int argc = 0;
    char *save = NULL;
    for (char *p = strtok_r(args, " \t", &save); p != NULL; p = strtok_r(NULL, " \t", &save)) {
        if (argc == 5) {
            return usage(sim);
        }
        argv[argc++] = p;
    }
    if (argc == 0) {
        if (!traffic->ran) {
            sim_say(sim, "traffic: no run yet\n");
            return -ENOENT;
        }
        report(traffic, sim);
        return 0;
    }
    tern_sock_udp_ep_t dst = { .netif = 0, .port = SIM_TRAFFIC_ECHO_PORT };
    unsigned long count = 0, size = 32;
    uint64_t interval = 0;
    if (argc < 3 || argc > 4 || tern_ipv6_addr_from_str(&dst.addr, argv[0], strlen(argv[0])) < 0 ||
        !parse_number(argv[1], 1, SIM_TRAFFIC_COUNT_MAX, &count) || sim_parse_duration(argv[2], &interval) < 0 ||
        interval == 0 || (argc == 4 && !parse_number(argv[3], SIM_TRAFFIC_SIZE_MIN, SIM_TRAFFIC_SIZE_MAX, &size))) {
        return usage(sim);
    }
    for (unsigned i = 0; i < traffic->nodes; i++) {
        int res = open_node(&traffic->node[i]);
        if (res < 0) {
            sim_say(sim, "traffic: node %u: cannot open UDP ports %u and %u (error %d)\n", i + 1u,
                SIM_TRAFFIC_ECHO_PORT, SIM_TRAFFIC_CLIENT_PORT, res);
            return res;
        }
    }
    traffic->run++;
    traffic->count = (uint32_t)count;
    traffic->ran = true;
    unsigned senders = 0;
    for (unsigned i = 0; i < traffic->nodes; i++) {
        sim_traffic_node_t *n = &traffic->node[i];
        n->sender = !owns(n, &dst.addr);
        n->sent = n->send_errors = n->arrived = n->returned = 0;
        memset(n->arrived_map, 0, sizeof(n->arrived_map));
        memset(n->returned_map, 0, sizeof(n->returned_map));
        senders += n->sender ? 1u : 0u;
    }
    uint64_t start = sim->now(sim->ctx);
    for (uint32_t seq = 0; seq < count && senders > 0; seq++) {
        unsigned k = 0;
        for (unsigned i = 0; i < traffic->nodes; i++) {
            sim_traffic_node_t *n = &traffic->node[i];
            if (!n->sender) {
                continue;
            }
            uint64_t at = start + (uint64_t)seq * interval + interval * k / senders;
            k++;
            int res = sim->run_until(sim->ctx, at);
            if (res < 0) {
                return res;
            }
            send_one(traffic, n, &dst, seq, (size_t)size);
        }
    }
    uint64_t drain = (interval > SIM_TRAFFIC_DRAIN_US) ? interval : SIM_TRAFFIC_DRAIN_US;
    int res = sim->run_until(sim->ctx, start + (uint64_t)count * interval + drain);
    if (res < 0) {
        return res;
    }
    report(traffic, sim);
    return 0;
}
