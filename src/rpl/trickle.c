/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The Trickle algorithm (RFC 6206 §4).
 */
#include <errno.h>
#include <string.h>

#include "tern/div64.h"
#include "tern/rpl/trickle.h"

#define NO_DEADLINE UINT64_MAX

/* noinline: the 64-bit add and carry test were inlined at each caller. */
__attribute__((noinline)) static uint64_t add_saturating(uint64_t a, uint64_t b)
{
    uint64_t sum = a + b;
    return (sum < a) ? UINT64_MAX : sum; /* wrapped: the carry, without computing UINT64_MAX - b */
}

int tern_trickle_config_from_dio(tern_trickle_config_t *config, uint8_t interval_min, uint8_t doublings,
                                 uint8_t redundancy)
{
    if (interval_min > TERN_TRICKLE_DIO_INTERVAL_MIN_MAX) {
        return -EINVAL;
    }
    /* RFC 6550 §8.3.1: Imin = 2^DIOIntervalMin ms. */
    config->imin_us = (uint32_t)(1000u << interval_min);
    config->doublings = (uint8_t)(doublings > TERN_TRICKLE_DOUBLINGS_MAX ? TERN_TRICKLE_DOUBLINGS_MAX : doublings);
    config->k = redundancy;
    return 0;
}

uint64_t tern_trickle_imax_us(const tern_trickle_config_t *config)
{
    return (uint64_t)config->imin_us << config->doublings;
}

int tern_trickle_init(tern_trickle_t *trickle, const tern_trickle_config_t *config,
                      tern_trickle_random_fn_t random, void *random_ctx)
{
    if (config->imin_us == 0 || config->doublings > TERN_TRICKLE_DOUBLINGS_MAX || random == NULL) {
        return -EINVAL;
    }
    memset(trickle, 0, sizeof(*trickle));
    trickle->config = *config;
    trickle->random = random;
    trickle->random_ctx = random_ctx;
    trickle->interval_us = config->imin_us;
    return 0;
}

/* A uniform number in [0, span), span > 0; 64 random bits when 32 do not cover it. */
static uint64_t random_below(tern_trickle_t *trickle, uint64_t span)
{
    uint64_t r = trickle->random(trickle->random_ctx);
    if (span > UINT32_MAX) {
        r = (r << 32) | trickle->random(trickle->random_ctx);
    }
    return tern_umod64(r, span); /* tern/div64.h: no 64-bit division routine */
}

/* §4.2 rule 2: a new interval begins at @p start_us: c = 0, t in [I/2, I). */
static void begin_interval(tern_trickle_t *trickle, uint64_t start_us)
{
    uint64_t half = trickle->interval_us / 2;
    uint64_t span = trickle->interval_us - half; /* >= 1 since I >= 1 */
    trickle->start_us = start_us;
    trickle->counter = 0;
    trickle->t_passed = false;
    trickle->t_us = add_saturating(start_us, half + random_below(trickle, span));
}

/* noinline: three callers each had their own copy of begin_interval(). */
__attribute__((noinline)) static void restart_at_imin(tern_trickle_t *trickle, uint64_t now_us)
{
    trickle->running = true;
    trickle->interval_us = trickle->config.imin_us;
    begin_interval(trickle, now_us);
}

void tern_trickle_start(tern_trickle_t *trickle, uint64_t now_us)
{
    restart_at_imin(trickle, now_us);
}

void tern_trickle_stop(tern_trickle_t *trickle)
{
    trickle->running = false;
}

void tern_trickle_consistent(tern_trickle_t *trickle)
{
    if (trickle->running && trickle->counter < UINT32_MAX) {
        trickle->counter++;
    }
}

bool tern_trickle_inconsistent(tern_trickle_t *trickle, uint64_t now_us)
{
    /* §4.2 rule 6: "If I is equal to Imin ..., Trickle does nothing." */
    if (trickle->running && trickle->interval_us <= trickle->config.imin_us) {
        return false;
    }
    tern_count(&trickle->counters[TERN_TRICKLE_RESETS]);
    restart_at_imin(trickle, now_us);
    return true;
}

void tern_trickle_reset(tern_trickle_t *trickle, uint64_t now_us)
{
    tern_count(&trickle->counters[TERN_TRICKLE_RESETS]);
    restart_at_imin(trickle, now_us);
}

uint64_t tern_trickle_next_deadline(const tern_trickle_t *trickle)
{
    if (!trickle->running) {
        return NO_DEADLINE;
    }
    if (!trickle->t_passed) {
        return trickle->t_us;
    }
    return add_saturating(trickle->start_us, trickle->interval_us);
}

bool tern_trickle_run(tern_trickle_t *trickle, uint64_t now_us)
{
    bool transmit = false;
    if (!trickle->running) {
        return false;
    }
    for (;;) {
        if (!trickle->t_passed && now_us >= trickle->t_us) {
            /* §4.2 rule 4: transmit if and only if c < k (k infinite: always). */
            trickle->t_passed = true;
            if (trickle->config.k == TERN_TRICKLE_K_INFINITE || trickle->counter < trickle->config.k) {
                transmit = true;
            } else {
                tern_count(&trickle->counters[TERN_TRICKLE_SUPPRESSED]);
            }
        }
        uint64_t end = add_saturating(trickle->start_us, trickle->interval_us);
        if (now_us < end || end == UINT64_MAX) {
            break;
        }
        /* §4.2 rule 5: the interval expired: double I, at most Imax. */
        uint64_t imax = tern_trickle_imax_us(&trickle->config);
        trickle->interval_us = (trickle->interval_us >= imax / 2) ? imax : trickle->interval_us * 2;
        uint64_t next_start = end;
        if (trickle->interval_us == imax && now_us - end >= imax) {
            /* The owner slept through whole intervals of Imax: skip them. */
            uint64_t missed = tern_udiv64(now_us - end, imax, NULL);
            tern_count_add(&trickle->counters[TERN_TRICKLE_SKIPPED], (uint32_t)(missed > UINT32_MAX ? UINT32_MAX : missed));
            next_start = add_saturating(end, missed * imax);
        }
        begin_interval(trickle, next_start);
    }
    if (transmit) {
        tern_count(&trickle->counters[TERN_TRICKLE_TRANSMITTED]);
    }
    return transmit;
}
