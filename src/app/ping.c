/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The ping client (see ping.h): Echo Requests out (RFC 4443 §4.1),
 *        replies (§4.2) and errors about our requests (§3, §2.4 (b)) in.
 *
 * The identifier tells our replies from other applications' (§4.1: "An
 * identifier to aid in matching Echo Replies to this Echo Request"); the
 * sequence number, from 1, tells which request was answered. The data is a
 * byte pattern (i & 0xff), which §4.2 asks the reply to return unchanged
 * ("The data received in the ICMPv6 Echo Request message MUST be returned
 * entirely and unmodified in the ICMPv6 Echo Reply message"): every reply
 * is checked against it, so that a peer (or our own reassembly) that mangles
 * data shows. A sweep's request size follows from its sequence number, so no
 * per-request size needs storing.
 */
#include <errno.h>
#include <string.h>

#include "tern/executor.h"
#include "tern/ipv6/ipv6.h"
#include "tern/netapi.h"
#include "tern/netif_hdr.h"
#include "tern/ping.h"
#include "tern/pktbuf.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ipv6.h"

/** Module messages beyond netapi's. */
#define MSG_START (TERN_MSG_USER + 0x70)

/** Largest data size: the echo message must fit an IPv6 payload (RFC 8200 §3). */
#define PING_MAX_SIZE (0xFFFFu - TERN_ICMPV6_FIXED_LEN)

static const tern_lock_t *ping_lock(const tern_ping_t *ping)
{
    return tern_stack_lock(ping->module.stack);
}

static tern_pktbuf_t *ping_pktbuf(tern_ping_t *ping)
{
    return &ping->module.stack->pktbuf;
}

static uint64_t ping_now(const tern_ping_t *ping)
{
    return tern_executor_now(ping->module.exec);
}

/* ------------------------------------------------------------ sending */

/* Data bytes of request @p seq (1..total) of a run of @p cfg. */
static uint16_t request_size(const tern_ping_config_t *cfg, uint16_t seq)
{
    if (cfg->sweep_incr == 0 || seq == 0) {
        return cfg->size;
    }
    uint32_t step = ((uint32_t)seq - 1u) / cfg->count;
    return (uint16_t)(cfg->size + step * cfg->sweep_incr);
}

/* Send request number stats.transmitted + 1. */
static void send_request(tern_ping_t *ping)
{
    tern_pktbuf_t *pb = ping_pktbuf(ping);
    const tern_ping_config_t *cfg = &ping->cfg;
    uint16_t seq = (uint16_t)(ping->stats.transmitted + 1u);
    uint16_t size = request_size(cfg, seq);
    size_t len = TERN_ICMPV6_FIXED_LEN + (size_t)size;
    tern_pkt_t *msg = tern_pktbuf_add(pb, NULL, NULL, len, TERN_NETTYPE_ICMPV6);
    tern_pkt_t *ip = (msg != NULL) ? tern_pktbuf_add(pb, msg, NULL, TERN_IPV6_HDR_LEN, TERN_NETTYPE_IPV6) : NULL;
    tern_pkt_t *pkt = ip;
    if (ip != NULL && cfg->netif != 0) {
        pkt = tern_netif_hdr_build(pb, ip, NULL, 0, NULL, 0);
        if (pkt != NULL) {
            tern_netif_hdr_get(pkt)->if_index = cfg->netif;
        }
    }
    if (pkt == NULL) {
        tern_pktbuf_release(pb, (ip != NULL) ? ip : msg);
        tern_count(&ping->drops[TERN_PING_DROP_NOMEM]);
    } else {
        tern_icmpv6_echo_repr_t echo = { .type = TERN_ICMPV6_ECHO_REQUEST, .identifier = ping->identifier,
                                         .sequence = seq, .data = NULL, .data_len = 0 };
        uint8_t *b = msg->data;
        (void)tern_icmpv6_echo_emit(&echo, b, TERN_ICMPV6_FIXED_LEN);
        for (size_t i = 0; i < size; i++) {
            b[TERN_ICMPV6_FIXED_LEN + i] = (uint8_t)i;
        }
        /* A template: IPv6 chooses the source (::), the hop limit (0), and fills the checksum. */
        tern_ipv6_repr_t t = { .payload_len = (uint16_t)len, .next_header = TERN_ICMPV6_NEXT_HEADER,
                               .hop_limit = 0, .dst = cfg->dst };
        memset(&t.src, 0, sizeof(t.src));
        (void)tern_ipv6_emit(&t, ip->data, ip->size);
        int res = tern_netapi_send(&ping->ipv6->module, pkt);
        if (res < 0) {
            if (res == -EINVAL) {
                tern_pktbuf_release(pb, pkt); /* left to us; else netapi released it */
            }
            tern_count(&ping->drops[TERN_PING_DROP_NOMEM]);
        }
    }
    /* Counted as transmitted either way (iputils counts what it tried). */
    size_t slot = seq % TERN_CONF_PING_WINDOW;
    tern_lock_acquire(ping_lock(ping));
    ping->sent_at[slot] = ping_now(ping);
    ping->slot_seq[slot] = seq;
    ping->slot_answered[slot] = false;
    ping->stats.transmitted++;
    tern_lock_release(ping_lock(ping));
}

/* The run is over: no more requests, no more answers. */
static void finish(tern_ping_t *ping)
{
    tern_timer_cancel(&ping->timer);
    if (ping->registered) {
        (void)tern_netreg_unregister(&ping->module.stack->netreg, TERN_NETTYPE_ICMPV6, &ping->entry);
        ping->registered = false;
    }
    tern_lock_acquire(ping_lock(ping));
    ping->running = false;
    tern_lock_release(ping_lock(ping));
}

/* Send the next request, or end the run once the last one's wait is over. */
static void next_step(tern_ping_t *ping)
{
    if (ping->stats.transmitted >= ping->total) {
        finish(ping);
        return;
    }
    send_request(ping);
    bool last = ping->stats.transmitted >= ping->total;
    (void)tern_timer_set(&ping->timer, last ? ping->cfg.wait_us : ping->cfg.interval_us);
}

/* ------------------------------------------------------------ receiving */

/* Read an answer [ICMPV6, IPV6, NETIF]. @return 0; -EBADMSG. */
static int parse_answer(tern_pkt_t *pkt, tern_ping_reply_t *r, uint16_t *identifier)
{
    const tern_pkt_t *ip = tern_pkt_search_type(pkt, TERN_NETTYPE_IPV6);
    tern_ipv6_repr_t hdr;
    if (pkt->type != TERN_NETTYPE_ICMPV6 || pkt->size < TERN_ICMPV6_FIXED_LEN || ip == NULL ||
        tern_ipv6_parse(&hdr, ip->data, ip->size) < 0) {
        return -EBADMSG;
    }
    memset(r, 0, sizeof(*r));
    r->from = hdr.src;
    r->hop_limit = hdr.hop_limit;
    r->size = (uint16_t)pkt->size;
    const uint8_t *b = pkt->data;
    r->type = b[0];
    r->code = b[1];
    if (b[0] == TERN_ICMPV6_ECHO_REPLY) {
        tern_icmpv6_echo_repr_t echo;
        if (tern_icmpv6_echo_parse(&echo, b, pkt->size) < 0) {
            return -EBADMSG;
        }
        *identifier = echo.identifier;
        r->sequence = echo.sequence;
        return 0;
    }
    /* An error quoting [IPv6 header, echo request] (checked by IPv6, icmpv6_app.c). */
    tern_icmpv6_error_repr_t err;
    if (tern_icmpv6_error_parse(&err, b, pkt->size) < 0 ||
        err.invoking_len < TERN_IPV6_HDR_LEN + TERN_ICMPV6_FIXED_LEN) {
        return -EBADMSG;
    }
    tern_icmpv6_echo_repr_t echo;
    if (tern_icmpv6_echo_parse(&echo, err.invoking + TERN_IPV6_HDR_LEN, err.invoking_len - TERN_IPV6_HDR_LEN) < 0) {
        return -EBADMSG;
    }
    *identifier = echo.identifier;
    r->sequence = echo.sequence;
    return 0;
}

/* Compare a reply's data with the pattern of a request of @p sent bytes; note the first difference in @p r. */
static void check_data(const uint8_t *data, size_t len, uint16_t sent, tern_ping_reply_t *r)
{
    r->data_sent = sent;
    size_t common = (len < sent) ? len : sent;
    for (size_t i = 0; i < common; i++) {
        if (data[i] != (uint8_t)i) {
            r->data_wrong = true;
            r->wrong_at = (uint16_t)i;
            r->wrong_expected = (uint8_t)i;
            r->wrong_got = data[i];
            return;
        }
    }
    if (len != sent) {
        r->data_wrong = true;
        r->wrong_at = (uint16_t)common;
    }
}

static void receive(tern_ping_t *ping, tern_pkt_t *pkt)
{
    tern_ping_reply_t r;
    memset(&r, 0, sizeof(r));
    uint16_t id = 0;
    unsigned drop = TERN_PING_DROP_NUMOF;
    bool done = false;
    bool advance = false;
    if (parse_answer(pkt, &r, &id) < 0) {
        drop = TERN_PING_DROP_MALFORMED;
    }
    tern_lock_acquire(ping_lock(ping));
    size_t slot = r.sequence % TERN_CONF_PING_WINDOW;
    if (drop != TERN_PING_DROP_NUMOF) {
        /* counted below */
    } else if (!ping->running || id != ping->identifier) {
        drop = TERN_PING_DROP_IDLE;
    } else if (r.sequence == 0 || r.sequence > ping->stats.transmitted || ping->slot_seq[slot] != r.sequence) {
        drop = TERN_PING_DROP_UNKNOWN;
    } else if (r.type != TERN_ICMPV6_ECHO_REPLY) {
        ping->stats.errors++;
    } else {
        uint64_t rtt = ping_now(ping) - ping->sent_at[slot];
        r.rtt_us = (rtt > UINT32_MAX) ? UINT32_MAX : (uint32_t)rtt;
        r.duplicate = ping->slot_answered[slot];
        tern_ping_stats_t *s = &ping->stats;
        check_data((const uint8_t *)pkt->data + TERN_ICMPV6_FIXED_LEN, pkt->size - TERN_ICMPV6_FIXED_LEN,
                   request_size(&ping->cfg, r.sequence), &r);
        if (r.duplicate) {
            s->duplicates++;
        } else {
            ping->slot_answered[slot] = true;
            s->rtt_min_us = (s->received == 0 || r.rtt_us < s->rtt_min_us) ? r.rtt_us : s->rtt_min_us;
            s->rtt_max_us = (r.rtt_us > s->rtt_max_us) ? r.rtt_us : s->rtt_max_us;
            s->rtt_sum_us += r.rtt_us;
            s->received++;
            s->corrupted += r.data_wrong ? 1u : 0u;
            /* Adaptive: the newest request is answered, the next goes now. */
            advance = ping->cfg.adaptive && r.sequence == s->transmitted && s->transmitted < ping->total;
        }
        /* As iputils with -c: done once every request is answered. */
        done = s->transmitted >= ping->total && s->received >= ping->total;
    }
    tern_ping_reply_cb_t cb = ping->cb;
    void *arg = ping->cb_arg;
    tern_lock_release(ping_lock(ping));
    tern_pktbuf_release(ping_pktbuf(ping), pkt);
    if (drop != TERN_PING_DROP_NUMOF) {
        tern_count(&ping->drops[drop]);
        return;
    }
    if (cb != NULL) {
        cb(arg, &r);
    }
    if (done) {
        finish(ping);
    } else if (advance) {
        next_step(ping);
    }
}

static int handle(tern_module_t *self, tern_msg_t *msg)
{
    tern_ping_t *ping = self->context;
    switch (msg->type) {
    case TERN_MSG_RCV:
        receive(ping, msg->content.pkt);
        return 0;
    case TERN_MSG_SND:
        tern_pktbuf_release(ping_pktbuf(ping), msg->content.pkt);
        tern_count(&ping->drops[TERN_PING_DROP_MALFORMED]);
        return 0;
    case MSG_START:
    case TERN_MSG_TIMER: {
        /* An expiry posted before an adaptive step re-armed the timer is stale (timer.h). */
        if (msg->type == TERN_MSG_TIMER && tern_timer_is_armed(&ping->timer)) {
            return 0;
        }
        /* A timer message of the previous run may still be queued before this run's start. */
        tern_lock_acquire(ping_lock(ping));
        ping->started = ping->started || msg->type == MSG_START;
        bool go = ping->running && ping->started;
        tern_lock_release(ping_lock(ping));
        if (go) {
            next_step(ping);
        }
        return 0;
    }
    default:
        return -ENOTSUP;
    }
}

/* ------------------------------------------------------------ API */

/* FNV-1a over @p name (NULL: none). */
static uint32_t name_hash(const char *name)
{
    uint32_t h = 2166136261u;
    for (const char *p = name; p != NULL && *p != '\0'; p++) {
        h = (h ^ (uint8_t)*p) * 16777619u;
    }
    return h ^ (h >> 16);
}

int tern_ping_init(tern_ping_t *ping, tern_stack_t *stack, tern_ipv6_t *ipv6)
{
    if (ping == NULL || stack == NULL || ipv6 == NULL) {
        return -EINVAL;
    }
    memset(ping, 0, sizeof(*ping));
    ping->ipv6 = ipv6;
    int res = tern_module_init(&ping->module, "ping", TERN_CONF_PING_PRIORITY, handle, ping, ping->queue,
                               TERN_CONF_PING_QUEUE_LEN);
    if (res < 0) {
        return res;
    }
    res = tern_stack_add_module(stack, &ping->module);
    if (res < 0) {
        return res;
    }
    tern_timer_init(&ping->timer, &ping->module, TERN_MSG_TIMER, 0);
    return 0;
}

uint32_t tern_ping_requests(const tern_ping_config_t *cfg)
{
    if (cfg == NULL || cfg->count == 0) {
        return 0;
    }
    if (cfg->sweep_incr == 0) {
        return cfg->count;
    }
    if (cfg->sweep_max < cfg->size) {
        return 0;
    }
    uint32_t sizes = ((uint32_t)cfg->sweep_max - cfg->size) / cfg->sweep_incr + 1u;
    uint64_t total = (uint64_t)sizes * cfg->count;
    return (total > UINT32_MAX) ? UINT32_MAX : (uint32_t)total;
}

int tern_ping_start(tern_ping_t *ping, const tern_ping_config_t *cfg, tern_ping_reply_cb_t cb, void *arg)
{
    uint32_t total = tern_ping_requests(cfg);
    if (ping == NULL || ping->module.stack == NULL || cfg == NULL || total == 0 || total > 0xFFFFu ||
        cfg->size > PING_MAX_SIZE || (cfg->sweep_incr != 0 && cfg->sweep_max > PING_MAX_SIZE) ||
        tern_ipv6_addr_is_unspecified(&cfg->dst) ||
        ((tern_ipv6_addr_is_multicast(&cfg->dst) || tern_ipv6_addr_is_link_local(&cfg->dst)) && cfg->netif == 0)) {
        return -EINVAL;
    }
    tern_lock_acquire(ping_lock(ping));
    if (ping->running || ping->registered) {
        tern_lock_release(ping_lock(ping));
        return -EBUSY;
    }
    ping->cfg = *cfg;
    ping->total = total;
    memset(&ping->stats, 0, sizeof(ping->stats));
    memset(ping->slot_seq, 0, sizeof(ping->slot_seq));
    ping->cb = cb;
    ping->cb_arg = arg;
    ping->runs++;
    /* Vary the identifier per node and run, so that late replies of an
     * earlier run are not taken for this one's; from the node's name, not
     * from an address, so that a simulation is the same run after run. */
    ping->identifier = (uint16_t)(name_hash(ping->module.stack->name) ^ (ping->runs * 0x9E37u) ^
                                  (uint16_t)ping_now(ping));
    ping->running = true;
    ping->registered = true;
    ping->started = false;
    tern_lock_release(ping_lock(ping));
    tern_netreg_entry_init(&ping->entry, ping->identifier, &ping->module);
    int res = tern_netreg_register(&ping->module.stack->netreg, TERN_NETTYPE_ICMPV6, &ping->entry);
    tern_msg_t msg = { .type = MSG_START, .sender = NULL };
    if (res == 0) {
        res = tern_netapi_post(&ping->module, &msg);
        if (res < 0) {
            (void)tern_netreg_unregister(&ping->module.stack->netreg, TERN_NETTYPE_ICMPV6, &ping->entry);
        }
    }
    if (res < 0) {
        tern_lock_acquire(ping_lock(ping));
        ping->running = false;
        ping->registered = false;
        tern_lock_release(ping_lock(ping));
    }
    return res;
}

bool tern_ping_running(tern_ping_t *ping)
{
    tern_lock_acquire(ping_lock(ping));
    bool running = ping->running;
    tern_lock_release(ping_lock(ping));
    return running;
}

int tern_ping_wait(tern_ping_t *ping)
{
    tern_executor_t *ex = ping->module.stack->exec;
    while (tern_ping_running(ping)) {
        if (ex->ops->current(ex) != NULL) {
            return -EDEADLK; /* a handler cannot wait for the stack it is part of */
        }
        int rc = tern_executor_run_for(ex, TERN_CONF_PING_RUN_SLICE_US);
        if (rc < 0) {
            return rc;
        }
    }
    return 0;
}

void tern_ping_get_stats(tern_ping_t *ping, tern_ping_stats_t *out)
{
    tern_lock_acquire(ping_lock(ping));
    *out = ping->stats;
    tern_lock_release(ping_lock(ping));
}
