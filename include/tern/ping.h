/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief A ping client: ICMPv6 Echo Requests (RFC 4443 §4.1) at an interval,
 *        replies (§4.2) matched by identifier and sequence, round-trip times
 *        and loss, as iputils' ping counts them.
 *
 * A ping instance is a module of the stack. While it runs it is registered in
 * netreg for (ICMPV6, its identifier): the IPv6 module hands it echo replies,
 * and errors quoting one of its requests, as [ICMPV6, IPV6, NETIF]. Requests
 * go to the IPv6 module as [NETIF?, IPV6 template (dst, next header 58,
 * src ::, hop limit 0), ICMPV6 echo]; IPv6 chooses the source and fills the
 * checksum. Sequence numbers start at 1. The run ends once every request got
 * its answer, or @ref tern_ping_config_t::wait_us after the last request.
 *
 * The data of request number N is the byte pattern (i & 0xff), i = 0..size-1.
 * A reply must return it unchanged (RFC 4443 §4.2): one that does not is
 * still counted as received (as iputils does) and also as corrupted, and its
 * callback reports the first difference.
 *
 * A size sweep (BSD ping's -g/-G/-h) sends @ref tern_ping_config_t::count
 * requests of each size from @ref tern_ping_config_t::size up to
 * @ref tern_ping_config_t::sweep_max in steps of
 * @ref tern_ping_config_t::sweep_incr, in one run. In adaptive mode (as
 * iputils' -A) the next request goes as soon as the newest one is answered,
 * and at the latest after the interval, so that at most one request is
 * unanswered while the peer keeps up.
 *
 * Threads: callbacks run on the instance's handler (its thread under the
 * threaded executor); start, stop and the statistics are safe from any
 * thread (under the stack's lock).
 */
#ifndef TERN_PING_H
#define TERN_PING_H

#include <stdbool.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/stats.h"
#include "tern/wire/ipv6_addr.h"
#include "tern/module.h"
#include "tern/netreg.h"
#include "tern/stack.h"
#include "tern/timer.h"

struct tern_ipv6;

/** What to ping and how. */
typedef struct {
    tern_ipv6_addr_t dst; /**< destination */
    uint16_t netif;       /**< interface index (needed for link-local and multicast); 0: by route */
    uint32_t count;       /**< requests to send (>= 1); in a sweep, requests of each size (65535 in all at most) */
    uint16_t size;        /**< data bytes after the 8-byte echo header (<= 65527); a sweep's first size */
    uint16_t sweep_max;   /**< a sweep's last size (>= @ref size, <= 65527); ignored without a sweep */
    uint16_t sweep_incr;  /**< 0: every request has @ref size data bytes; else a size sweep in steps of this */
    bool adaptive;        /**< send the next request once the newest is answered (the interval is the longest wait) */
    uint32_t interval_us; /**< between requests */
    uint32_t wait_us;     /**< after the last request, for its answers */
} tern_ping_config_t;

/** One answer: a reply, or an ICMPv6 error about one of our requests. */
typedef struct {
    tern_ipv6_addr_t from; /**< its source */
    uint32_t rtt_us;       /**< round trip (replies) */
    uint16_t sequence;     /**< of the request answered */
    uint16_t size;         /**< ICMPv6 message bytes (replies: data + 8) */
    uint8_t hop_limit;     /**< of the answer as received */
    uint8_t type;          /**< TERN_ICMPV6_ECHO_REPLY or the error type (RFC 4443 §3) */
    uint8_t code;          /**< error code */
    bool duplicate;        /**< a second reply to the same request */
    bool data_wrong;       /**< replies: the data is not the request's (RFC 4443 §4.2) */
    uint16_t data_sent;    /**< replies: data bytes of the request answered */
    uint16_t wrong_at;     /**< when @ref data_wrong: the first wrong data byte; == the shorter length
                                when only the lengths differ */
    uint8_t wrong_expected; /**< when @ref data_wrong within both lengths: the byte sent at @ref wrong_at */
    uint8_t wrong_got;     /**< ... and the byte received there */
} tern_ping_reply_t;

/** Called for every answer, on the instance's handler. */
typedef void (*tern_ping_reply_cb_t)(void *arg, const tern_ping_reply_t *reply);

/** Statistics of one run. */
typedef struct {
    uint32_t transmitted; /**< requests handed to IPv6 */
    uint32_t received;    /**< distinct requests answered with a reply */
    uint32_t duplicates;  /**< further replies to answered requests */
    uint32_t errors;      /**< ICMPv6 errors about our requests */
    uint32_t corrupted;   /**< received replies whose data was not the request's (also in received) */
    uint32_t rtt_min_us;  /**< smallest round trip (valid when received > 0) */
    uint32_t rtt_max_us;  /**< largest round trip */
    uint64_t rtt_sum_us;  /**< sum over the received ones, for the average */
} tern_ping_stats_t;

/** Drops of a ping instance, indices into tern_ping_t::drops. */
enum {
    TERN_PING_DROP_MALFORMED = 0, /**< not an echo reply / error we can read */
    TERN_PING_DROP_UNKNOWN,       /**< sequence never sent, or out of the window (late) */
    TERN_PING_DROP_IDLE,          /**< arrived while no run is active */
    TERN_PING_DROP_NOMEM,         /**< no packet buffer (or IPv6 queue full) for a request */
    TERN_PING_DROP_NUMOF
};

/** A ping instance. Allocate statically (zeroed), set up with tern_ping_init(). */
typedef struct tern_ping {
    tern_module_t module;                       /**< its module */
    tern_msg_t queue[TERN_CONF_PING_QUEUE_LEN]; /**< queue storage */
    tern_netreg_entry_t entry;                  /**< (ICMPV6, identifier) while running */
    tern_timer_t timer;                         /**< next request, or the end of the wait */
    struct tern_ipv6 *ipv6;                     /**< the IPv6 module requests go to */
    tern_ping_config_t cfg;                     /**< the current run */
    uint32_t total;                             /**< requests in the run (count x sweep sizes) */
    tern_ping_stats_t stats;                    /**< its statistics */
    uint64_t sent_at[TERN_CONF_PING_WINDOW];    /**< send time per sequence % window */
    uint16_t slot_seq[TERN_CONF_PING_WINDOW];   /**< sequence in each slot */
    bool slot_answered[TERN_CONF_PING_WINDOW];  /**< a reply came for it */
    tern_ping_reply_cb_t cb;                    /**< answers */
    void *cb_arg;                               /**< its argument */
    tern_counter_t drops[TERN_PING_DROP_NUMOF];       /**< see TERN_PING_DROP_... */
    uint16_t identifier;                        /**< echo identifier of the current run */
    uint16_t runs;                              /**< runs started (varies the identifier) */
    bool running;                               /**< a run is active */
    bool registered;                            /**< @ref entry is in netreg */
    bool started;                               /**< the run's start message was handled (older timer messages are stale) */
} tern_ping_t;

/**
 * Set up @p ping as a module of @p stack sending through @p ipv6.
 * @pre @p ping zeroed
 * @return 0; -EINVAL for NULL; the negative errno of module setup.
 */
int tern_ping_init(tern_ping_t *ping, tern_stack_t *stack, struct tern_ipv6 *ipv6);

/**
 * Number of requests a run of @p cfg sends: count per size, times the sizes
 * of a sweep.
 * @return that number (may exceed 65535, which tern_ping_start() refuses);
 *         0 for NULL, count 0 or a sweep whose last size is below its first.
 */
uint32_t tern_ping_requests(const tern_ping_config_t *cfg);

/**
 * Start a run (asynchronous: the first request goes out on the instance's
 * handler). Statistics are reset.
 * @param[in] cb   called for every answer (may be NULL)
 * @return 0; -EINVAL for a bad configuration (count 0, unspecified or
 *         multicast-without-interface destination, size too large, a sweep
 *         whose last size is below its first or above 65527, more than 65535
 *         requests in all: sequence numbers are 16 bits); -EBUSY while a run
 *         is active; -ENOBUFS if the start could not be queued.
 * @see RFC 4443 §4.1, §4.2
 */
int tern_ping_start(tern_ping_t *ping, const tern_ping_config_t *cfg, tern_ping_reply_cb_t cb, void *arg);

/** Is a run active? */
bool tern_ping_running(tern_ping_t *ping);

/**
 * Let the stack work until the run started on @p ping ends (the event loop
 * runs the stack; the threaded executor's modules run by themselves while
 * this sleeps in run_until).
 * @return 0; -EDEADLK from a handler; -ECANCELED if the executor stopped.
 */
int tern_ping_wait(tern_ping_t *ping);

/** A copy of the statistics of the current or last run. */
void tern_ping_get_stats(tern_ping_t *ping, tern_ping_stats_t *out);

#endif /* TERN_PING_H */
