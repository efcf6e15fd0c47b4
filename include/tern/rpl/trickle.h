/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Trickle algorithm (RFC 6206) as a state machine without I/O.
 *
 * Read first: RFC 6206 §4.1 (parameters Imin, Imax, k and variables I, t, c),
 * §4.2 (the six rules), §6 (considerations: mismatched parameters, timer
 * resolution), and RFC 6550 §8.3.1 (how RPL maps its DODAG Configuration
 * onto Trickle for DIOs).
 *
 * The timer is shaped for a module with one timer: the owner calls
 * tern_trickle_run() at tern_trickle_next_deadline() and transmits when it
 * returns true. Time is passed in (microseconds, never decreasing);
 * randomness comes from a caller-supplied source, so a run is reproducible
 * from the source's seed. What "consistent" and "inconsistent" mean, and
 * which external events reset the timer, is the owner's protocol (RFC 6206
 * §5); the owner reports them with tern_trickle_consistent(),
 * tern_trickle_inconsistent() and tern_trickle_reset().
 */
#ifndef TERN_RPL_TRICKLE_H
#define TERN_RPL_TRICKLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/stats.h"

/**
 * Redundancy constant meaning "infinity": never suppress. RFC 6206 §4.1
 * defines k as an integer greater than zero, so 0 has no meaning there; RPL
 * implementations (Contiki-NG, Wi-SUN FAN) read a DIORedundancyConstant of 0
 * as infinity, and so does Tern. Every other value, 0xFF included, is a
 * finite k.
 */
#define TERN_TRICKLE_K_INFINITE 0u

/** Most doublings of Imin (Imax = Imin x 2^32 fits 64 bits for any 32-bit Imin). */
#define TERN_TRICKLE_DOUBLINGS_MAX 32u

/** Largest DIOIntervalMin tern_trickle_config_from_dio() accepts: 2^22 ms still fits 32 bits of us. */
#define TERN_TRICKLE_DIO_INTERVAL_MIN_MAX 22u

/**
 * Source of uniformly distributed 32-bit numbers.
 * @param[in,out] ctx  the source's state
 * @return the next number
 */
typedef uint32_t (*tern_trickle_random_fn_t)(void *ctx);

/** The protocol's Trickle parameters (RFC 6206 §4.1). */
typedef struct {
    uint32_t imin_us;  /**< Imin, the minimum interval size, us (> 0) */
    uint8_t doublings; /**< Imax as doublings of Imin (<= TERN_TRICKLE_DOUBLINGS_MAX) */
    uint8_t k;         /**< redundancy constant; TERN_TRICKLE_K_INFINITE: never suppress */
} tern_trickle_config_t;

/** Counters of a timer, indices into tern_trickle_t::counters. */
enum {
    TERN_TRICKLE_TRANSMITTED = 0, /**< transmissions tern_trickle_run() asked for (c < k) */
    TERN_TRICKLE_SUPPRESSED,      /**< transmission points suppressed (c >= k, §4.2 rule 4) */
    TERN_TRICKLE_RESETS,          /**< resets to Imin (rule 6 and external events) */
    TERN_TRICKLE_SKIPPED,         /**< intervals that passed entirely between two runs (late owner) */
    TERN_TRICKLE_STAT_NUMOF
};

/** One Trickle timer. Fields are read-only for the owner. */
typedef struct {
    tern_trickle_config_t config;        /**< parameters */
    tern_trickle_random_fn_t random;     /**< random source */
    void *random_ctx;                    /**< its argument */
    uint64_t interval_us;                /**< I, the current interval size */
    uint64_t start_us;                   /**< when the current interval began */
    uint64_t t_us;                       /**< the transmission point, absolute: start + t */
    uint32_t counter;                    /**< c, consistent transmissions heard (saturating) */
    bool running;                        /**< started and not stopped */
    bool t_passed;                       /**< the transmission point of this interval has passed */
    tern_counter_t counters[TERN_TRICKLE_STAT_NUMOF]; /**< see TERN_TRICKLE_... */
} tern_trickle_t;

/**
 * The Trickle parameters of RPL's DIO timer from a DODAG Configuration
 * (RFC 6550 §8.3.1, §6.7.6): Imin = 2^DIOIntervalMin ms, Imax =
 * DIOIntervalDoublings doublings, k = DIORedundancyConstant.
 * Doublings above TERN_TRICKLE_DOUBLINGS_MAX are clamped to it (Imax is then
 * at least 2^32 ms, 49 days: no RPL deployment can tell the difference).
 * @param[out] config         the parameters
 * @param[in]  interval_min   DIOIntervalMin
 * @param[in]  doublings      DIOIntervalDoublings
 * @param[in]  redundancy     DIORedundancyConstant (0: infinity, see TERN_TRICKLE_K_INFINITE)
 * @return 0; -EINVAL if @p interval_min > TERN_TRICKLE_DIO_INTERVAL_MIN_MAX
 *         (Imin would not fit 32 bits of microseconds)
 * @see RFC 6550 §8.3.1, §17 (defaults 3, 20, 10)
 */
int tern_trickle_config_from_dio(tern_trickle_config_t *config, uint8_t interval_min, uint8_t doublings,
                                 uint8_t redundancy);

/** Imax of @p config in microseconds: Imin x 2^doublings. */
uint64_t tern_trickle_imax_us(const tern_trickle_config_t *config);

/**
 * Set up a stopped timer.
 * @param[out] trickle     the timer
 * @param[in]  config      its parameters (copied)
 * @param[in]  random      random source for the transmission points (§4.2 rule 2)
 * @param[in]  random_ctx  its argument
 * @return 0; -EINVAL if imin_us is 0, doublings exceed TERN_TRICKLE_DOUBLINGS_MAX
 *         or @p random is NULL
 */
int tern_trickle_init(tern_trickle_t *trickle, const tern_trickle_config_t *config,
                      tern_trickle_random_fn_t random, void *random_ctx);

/**
 * Start (or restart) the timer with I = Imin and begin the first interval at
 * @p now_us (RFC 6206 §4.2 rule 1 allows any I in [Imin, Imax]; RPL starts
 * its DIO timer at Imin when it joins or roots a DODAG, RFC 6550 §8.3).
 */
void tern_trickle_start(tern_trickle_t *trickle, uint64_t now_us);

/** Stop the timer: no deadline, tern_trickle_run() never asks to transmit. */
void tern_trickle_stop(tern_trickle_t *trickle);

/** A consistent transmission was heard (§4.2 rule 3): c is incremented. No effect when stopped. */
void tern_trickle_consistent(tern_trickle_t *trickle);

/**
 * An inconsistent transmission was heard (§4.2 rule 6): if I > Imin, I
 * becomes Imin and a new interval begins at @p now_us; if I == Imin nothing
 * changes (so a burst of inconsistencies cannot postpone the transmission
 * point forever). Starts a stopped timer.
 * @return true if a new interval began
 */
bool tern_trickle_inconsistent(tern_trickle_t *trickle, uint64_t now_us);

/**
 * An external event resets the timer (§4.2 rule 6, last sentence; RPL: a new
 * DODAG Version, a changed parent set, RFC 6550 §8.3): I becomes Imin and a
 * new interval begins at @p now_us, even when I already is Imin. Starts a
 * stopped timer. For events that may repeat quickly (a multicast DIS), the
 * owner may prefer tern_trickle_inconsistent(), which does not restart an
 * interval of Imin.
 */
void tern_trickle_reset(tern_trickle_t *trickle, uint64_t now_us);

/**
 * When tern_trickle_run() must run next: the transmission point of the
 * current interval until it has passed, then the end of the interval.
 * @return absolute time in us; UINT64_MAX when stopped
 */
uint64_t tern_trickle_next_deadline(const tern_trickle_t *trickle);

/**
 * Run the timer up to @p now_us (§4.2 rules 4 and 5): at the transmission
 * point it decides between transmitting (c < k, or k infinite) and
 * suppressing; when the interval ends, I doubles (at most Imax) and the next
 * interval begins where the last ended, with c = 0 and a new t in [I/2, I).
 * An owner running late passes every point due in between, in order; whole
 * intervals of Imax it missed are skipped (counted) rather than replayed, and
 * at most one transmission is reported per call. Before
 * tern_trickle_next_deadline() (or while stopped) it changes nothing and
 * returns false, so an owner may call it on every turn.
 * @pre @p now_us is not less than the time of any earlier call
 * @return true if the owner must transmit now
 */
bool tern_trickle_run(tern_trickle_t *trickle, uint64_t now_us);

#endif /* TERN_RPL_TRICKLE_H */
