/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The in-process simulated radio medium: IEEE 802.15.4 radios of many
 *        nodes sharing the air, under the executor's (virtual) clock.
 *
 * Read first: IEEE 802.15.4-2006 §6.5 (2450 MHz O-QPSK PHY: 250 kbit/s,
 * 62.5 ksymbol/s, 4-byte preamble + SFD + PHR), §7.5.6.2 (reception and
 * rejection: the address filter), §7.5.6.4 (acknowledgment: aTurnaroundTime,
 * macAckWaitDuration), §7.4.2 (PHY and MAC constants). docs/IEEE802154.md,
 * section "Simulated radio medium", states every modelling choice.
 *
 * A medium is a caller-allocated struct that holds pointers to at most
 * TERN_CONF_RADIO_MEDIUM_MAX_RADIOS simulated radios (sim_radio.h), a matrix
 * of directed links (packet reception ratio and RSSI per ordered pair), a
 * seeded PRNG, and one module with one timer on an executor: every event on
 * the air (end of a frame, start and end of an acknowledgment, end of an ACK
 * wait) is a deadline of that timer, so `tern_executor_run_until()` on an
 * event loop with a virtual clock jumps from air event to air event and the
 * same seed gives the same run.
 *
 * Topology: either explicit links (tern_radio_medium_link_set(), per
 * direction) or positions with a range model (tern_radio_medium_set_range(),
 * tern_radio_medium_set_position()), which fills the same matrix. Links can
 * be changed at any time; a change applies to frames ending after it (the
 * collision model decides who interferes with whom when a transmission starts).
 *
 * Timing (250 kbit/s O-QPSK): one octet is 32 us on air; a frame of n MAC
 * bytes (without FCS) occupies (n + 2 + 6) * 32 us: PSDU with the 2-byte FCS
 * plus the 6-byte synchronisation and PHY header. Receivers get the frame at
 * its end; an acknowledgment starts aTurnaroundTime (192 us) later and lasts
 * 352 us; a sender without one reports TX_NOACK macAckWaitDuration (864 us)
 * after the end of its frame.
 *
 * Threads: the medium belongs to the thread of a single-threaded executor (the
 * event loop, port/loop). Its radios' driver functions, its handler and every
 * function below must be called from that thread; it takes no lock.
 */
#ifndef TERN_NETDEV_RADIO_MEDIUM_H
#define TERN_NETDEV_RADIO_MEDIUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/config.h"
#include "tern/executor.h"
#include "tern/module.h"
#include "tern/stats.h"
#include "tern/timer.h"

struct tern_sim_radio;

/* ---------------------------------------------------------------- PHY constants */

/** Duration of one octet on air at 250 kbit/s (2 symbols of 16 us), us. */
#define TERN_RADIO_OCTET_US 32u
/** Synchronisation header (4-byte preamble, SFD) plus the PHY header (frame length), bytes. */
#define TERN_RADIO_PHY_OVERHEAD 6u
/** Length of the frame check sequence (CRC-16) at the end of every PSDU, bytes. */
#define TERN_RADIO_FCS_LEN 2u
/** aMaxPHYPacketSize: longest PSDU, FCS included, bytes. */
#define TERN_RADIO_MAX_PSDU 127u
/** Longest MAC frame a radio sends or delivers: the PSDU without FCS, bytes. */
#define TERN_RADIO_MAX_FRAME (TERN_RADIO_MAX_PSDU - TERN_RADIO_FCS_LEN)
/** Imm-Ack PSDU: frame control, sequence number, FCS, bytes. */
#define TERN_RADIO_ACK_PSDU_LEN 5u
/** aTurnaroundTime (12 symbols): end of a frame to the start of its acknowledgment, us. */
#define TERN_RADIO_TURNAROUND_US 192u
/** macAckWaitDuration (54 symbols): end of a frame to giving up on its acknowledgment, us. */
#define TERN_RADIO_ACK_WAIT_US 864u

/** Time on air of a PSDU of @p psdu_len bytes (FCS included), us. */
static inline uint32_t tern_radio_airtime_us(size_t psdu_len)
{
    return (uint32_t)(psdu_len + TERN_RADIO_PHY_OVERHEAD) * TERN_RADIO_OCTET_US;
}

/* ---------------------------------------------------------------- links */

/** Packet reception ratio 1.0: PRRs are in parts per million. */
#define TERN_RADIO_PRR_ONE 1000000u

/** A directed link. A PRR of 0 means no link: the receiver does not hear the sender at all. */
typedef struct {
    uint32_t prr_ppm; /**< probability a frame arrives, parts per million (0..TERN_RADIO_PRR_ONE) */
    int16_t rssi_dbm; /**< RSSI reported with each frame received over the link, dBm */
} tern_radio_link_t;

/**
 * The range model: PRR by distance between positions (same unit as the
 * positions, e.g. metres). PRR is 1.0 up to @ref full_range, falls linearly
 * to 0 at @ref max_range, and there is no link beyond. @ref full_range equal
 * to @ref max_range gives the unit disk. RSSI falls linearly with distance
 * from TERN_RADIO_RANGE_RSSI_NEAR_DBM at distance 0 to
 * TERN_RADIO_RANGE_RSSI_EDGE_DBM at @ref max_range.
 */
typedef struct {
    uint32_t full_range; /**< distance up to which every frame arrives */
    uint32_t max_range;  /**< distance from which none does; >= full_range, > 0 */
} tern_radio_range_t;

/** RSSI of the range model at distance 0, dBm (a strong signal, not saturating a radio). */
#define TERN_RADIO_RANGE_RSSI_NEAR_DBM (-40)
/** RSSI of the range model at the maximum range, dBm (a typical O-QPSK receiver sensitivity). */
#define TERN_RADIO_RANGE_RSSI_EDGE_DBM (-100)
/** Largest coordinate magnitude of a position: squared distances then fit in 63 bits. */
#define TERN_RADIO_POSITION_MAX (1L << 30)

/** Position of a radio for the range model. */
typedef struct {
    int32_t x; /**< |x| <= TERN_RADIO_POSITION_MAX */
    int32_t y; /**< |y| <= TERN_RADIO_POSITION_MAX */
} tern_radio_position_t;

/* ---------------------------------------------------------------- the air */

/** State of one air record (a radio's data frame or its acknowledgment). */
typedef enum {
    TERN_RADIO_AIR_IDLE = 0,  /**< nothing */
    TERN_RADIO_AIR_SCHEDULED, /**< an acknowledgment waiting for its start time */
    TERN_RADIO_AIR_ON_AIR,    /**< being transmitted, until end_us */
} tern_radio_air_state_t;

/** 32-bit words of a per-radio bit set. */
#define TERN_RADIO_MEDIUM_WORDS ((TERN_CONF_RADIO_MEDIUM_MAX_RADIOS + 31) / 32)

/** One transmission on the air. Kept in the sending radio; written by the medium only. */
typedef struct {
    uint64_t start_us;                        /**< first bit of the preamble (or scheduled start) */
    uint64_t end_us;                          /**< last bit of the FCS */
    const uint8_t *psdu;                      /**< frame with FCS */
    uint8_t len;                              /**< PSDU length, FCS included */
    uint8_t state;                            /**< tern_radio_air_state_t */
    uint16_t channel;                         /**< channel it is sent on */
    uint32_t lost[TERN_RADIO_MEDIUM_WORDS];   /**< radios at which it collided (bit per index) */
} tern_radio_air_t;

/** What the capture hook sees of one transmission, at its start. */
typedef struct {
    uint64_t start_us;   /**< first bit of the preamble, clock microseconds */
    uint64_t end_us;     /**< last bit of the FCS */
    uint16_t sender;     /**< index of the sending radio */
    uint16_t channel;    /**< channel */
    bool ack;            /**< an acknowledgment generated by the radio (not by send()) */
    const uint8_t *psdu; /**< the frame as on the air, FCS included (valid during the call) */
    size_t len;          /**< PSDU length */
} tern_radio_medium_tx_t;

/**
 * Capture hook: called once per transmission at its start (also for frames
 * that will collide or be lost; not for a send() refused by CCA). It must not
 * call back into the medium or its radios.
 */
typedef void (*tern_radio_medium_capture_fn_t)(void *ctx, const tern_radio_medium_tx_t *tx);

/* ---------------------------------------------------------------- medium */

/** Counters of a medium (stats group "medium"). */
typedef enum {
    TERN_RADIO_MEDIUM_TX_FRAMES = 0,   /**< frames put on the air by send() */
    TERN_RADIO_MEDIUM_TX_ACKS,         /**< acknowledgments put on the air */
    TERN_RADIO_MEDIUM_RX_ARRIVED,      /**< frame copies that reached a receiver's address filter */
    TERN_RADIO_MEDIUM_LOST_PRR,        /**< copies lost by the link's PRR draw */
    TERN_RADIO_MEDIUM_LOST_COLLISION,  /**< copies destroyed by an overlapping transmission */
    TERN_RADIO_MEDIUM_LOST_CHANNEL,    /**< copies not heard: the receiver was on another channel */
    TERN_RADIO_MEDIUM_LOST_RADIO_OFF,  /**< copies not heard: the receiver was switched off */
    TERN_RADIO_MEDIUM_CCA_BUSY,        /**< send()s refused by clear channel assessment */
    TERN_RADIO_MEDIUM_STAT_NUMOF
} tern_radio_medium_stat_t;

/** A medium. Allocate statically; set up with tern_radio_medium_init(). Fields are private. */
typedef struct tern_radio_medium {
    tern_module_t module;                                   /**< runs the air events */
    tern_msg_t queue[4];                                    /**< its queue (timer expiries only) */
    tern_timer_t timer;                                     /**< next air event */
    struct tern_sim_radio *radios[TERN_CONF_RADIO_MEDIUM_MAX_RADIOS]; /**< attached, by index */
    uint16_t count;                                         /**< radios attached */
    bool collisions;                                        /**< collision model and CCA on */
    bool range_model;                                       /**< links follow the positions */
    tern_radio_range_t range;                               /**< the range model, if on */
    tern_radio_position_t positions[TERN_CONF_RADIO_MEDIUM_MAX_RADIOS]; /**< by index */
    /** links[from][to] */
    tern_radio_link_t links[TERN_CONF_RADIO_MEDIUM_MAX_RADIOS][TERN_CONF_RADIO_MEDIUM_MAX_RADIOS];
    uint64_t rng;                                           /**< PRNG state (xorshift64*) */
    tern_radio_medium_capture_fn_t capture;                 /**< capture hook, or NULL */
    void *capture_ctx;                                      /**< its argument */
    tern_counter_t counters[TERN_RADIO_MEDIUM_STAT_NUMOF];        /**< tern_radio_medium_stat_t */
    tern_stats_group_t stats_group;                         /**< names the counters ("medium") */
} tern_radio_medium_t;

/**
 * Set up @p medium with no radios and no links, collisions off, and attach its
 * module to @p exec (an event loop; its clock is the medium's clock).
 * @param[out] medium  the medium
 * @param[in]  exec    executor that runs the air events
 * @param[in]  seed    PRNG seed: the same seed and the same calls give the same run
 * @return 0; -EINVAL for NULL; the executor's attach() error (-ECANCELED after stop()).
 */
int tern_radio_medium_init(tern_radio_medium_t *medium, tern_executor_t *exec, uint64_t seed);

/**
 * Model collisions (off by default). On: two transmissions that overlap in
 * time on one channel destroy each other at every radio that has a link from
 * both senders; a radio cannot receive while it transmits; and send() first
 * performs an instantaneous CCA that reports TX_MEDIUM_BUSY while a sender
 * with a link to the radio is on the air (one that started before this
 * instant: two radios sending at the same instant both go, and collide).
 * Off: the air is ideal.
 * Applies to transmissions starting after the call.
 */
void tern_radio_medium_set_collisions(tern_radio_medium_t *medium, bool on);

/** Set (or with @p fn NULL remove) the capture hook. */
void tern_radio_medium_set_capture(tern_radio_medium_t *medium, tern_radio_medium_capture_fn_t fn,
                                   void *ctx);

/**
 * Set the directed link @p from -> @p to.
 * @param[in] prr_ppm   reception ratio, parts per million; 0 removes the link
 * @param[in] rssi_dbm  RSSI of frames received over it, dBm (-128..0)
 * @return 0; -ENOENT if either index is not an attached radio; -EINVAL if
 *         @p from == @p to, @p prr_ppm > TERN_RADIO_PRR_ONE or the RSSI is out of range.
 */
int tern_radio_medium_link_set(tern_radio_medium_t *medium, uint16_t from, uint16_t to, uint32_t prr_ppm,
                               int16_t rssi_dbm);

/** tern_radio_medium_link_set() in both directions. @return as it. */
int tern_radio_medium_link_set_both(tern_radio_medium_t *medium, uint16_t a, uint16_t b, uint32_t prr_ppm,
                                    int16_t rssi_dbm);

/**
 * Read the directed link @p from -> @p to into @p link (PRR 0: none).
 * @return 0; -ENOENT if either index is not an attached radio; -EINVAL for NULL or @p from == @p to.
 */
int tern_radio_medium_link_get(const tern_radio_medium_t *medium, uint16_t from, uint16_t to,
                               tern_radio_link_t *link);

/**
 * Remove every link to and from radio @p index (a node leaving the mesh; its
 * radio stays attached). With the range model on, a later position change
 * gives it links again.
 * @return 0; -ENOENT if @p index is not an attached radio.
 */
int tern_radio_medium_isolate(tern_radio_medium_t *medium, uint16_t index);

/**
 * Switch the range model on (or off with @p range NULL: the matrix keeps its
 * current links and only explicit changes alter it). On, every link is
 * recomputed from the positions now and whenever a position changes;
 * explicit link_set() calls still override single links until then.
 * @return 0; -EINVAL if @p range has max_range 0 or full_range > max_range.
 */
int tern_radio_medium_set_range(tern_radio_medium_t *medium, const tern_radio_range_t *range);

/**
 * Place radio @p index at (@p x, @p y) (all radios start at (0, 0)). With the
 * range model on, its links in both directions are recomputed.
 * @return 0; -ENOENT if @p index is not an attached radio; -EINVAL if a
 *         coordinate exceeds TERN_RADIO_POSITION_MAX in magnitude.
 */
int tern_radio_medium_set_position(tern_radio_medium_t *medium, uint16_t index, int32_t x, int32_t y);

/**
 * Link the range model gives for distance @p distance (for tools and tests).
 * @return the link (PRR 0 beyond max_range).
 */
tern_radio_link_t tern_radio_range_link(const tern_radio_range_t *range, uint64_t distance);

/** Radio with index @p index, or NULL. */
struct tern_sim_radio *tern_radio_medium_radio(const tern_radio_medium_t *medium, uint16_t index);

/** Next pseudo-random number of the medium's generator (for simulator jitter). */
uint32_t tern_radio_medium_random(tern_radio_medium_t *medium);

/** Read counter @p stat. */
static inline uint32_t tern_radio_medium_stat(const tern_radio_medium_t *medium, tern_radio_medium_stat_t stat)
{
    return tern_count_read(&medium->counters[stat]);
}

/**
 * Earliest pending air event, or UINT64_MAX when the air is quiet (no frame
 * on the air, no acknowledgment scheduled or awaited).
 */
uint64_t tern_radio_medium_next_event(const tern_radio_medium_t *medium);

/*
 * Radio side (sim_radio.c, not for users): attach and transmit.
 */

/**
 * Attach @p radio: it gets the next index, no links, position (0, 0).
 * @return its index; -ENOSPC when TERN_CONF_RADIO_MEDIUM_MAX_RADIOS are attached.
 */
int tern_radio_medium_attach(tern_radio_medium_t *medium, struct tern_sim_radio *radio);

/**
 * Put @p radio's data frame (radio->tx_psdu, @p psdu_len bytes with FCS) on
 * the air now, after CCA when collisions are on. When the frame ends the
 * medium delivers it and then settles the radio's outcome.
 * @return 0; -EBUSY when CCA found the channel busy (nothing sent, counted);
 *         -ECANCELED when the medium's executor has stopped.
 */
int tern_radio_medium_transmit(tern_radio_medium_t *medium, struct tern_sim_radio *radio, size_t psdu_len);

#endif /* TERN_NETDEV_RADIO_MEDIUM_H */
