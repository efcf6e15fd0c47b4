/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The simulated radio medium: topology, PRNG, the air's timeline.
 *
 * Read first: IEEE 802.15.4-2006 §6.5.3.1 (250 kbit/s O-QPSK), §7.5.6.4.2
 * (an acknowledgment starts aTurnaroundTime after the frame), §7.4.2
 * (macAckWaitDuration = aUnitBackoffPeriod + aTurnaroundTime +
 * phySHRDuration + 6 * phySymbolsPerOctet = 20 + 12 + 10 + 12 = 54 symbols).
 *
 * Every transmission lives in an air record of its sender (one for the frame
 * given to send(), one for an acknowledgment). The medium's timer is armed
 * for the earliest of: the end of a record on the air, the start of a
 * scheduled acknowledgment, the end of an acknowledgment wait. The handler
 * runs every event due, in (time, kind, radio index) order, then raises the
 * interrupts the events produced, so that a driver user reacting at once
 * (calling send() from its event callback) sees a settled medium.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tern/netdev/radio_medium.h"
#include "tern/netdev/sim_radio.h"

/** Air events are due at exact instants: run them before interfaces' work of the same instant. */
#define MEDIUM_PRIORITY 1u

static const char *const medium_counter_names[TERN_RADIO_MEDIUM_STAT_NUMOF] = {
    [TERN_RADIO_MEDIUM_TX_FRAMES] = "tx_frames",
    [TERN_RADIO_MEDIUM_TX_ACKS] = "tx_acks",
    [TERN_RADIO_MEDIUM_RX_ARRIVED] = "rx_arrived",
    [TERN_RADIO_MEDIUM_LOST_PRR] = "lost_prr",
    [TERN_RADIO_MEDIUM_LOST_COLLISION] = "lost_collision",
    [TERN_RADIO_MEDIUM_LOST_CHANNEL] = "lost_channel",
    [TERN_RADIO_MEDIUM_LOST_RADIO_OFF] = "lost_radio_off",
    [TERN_RADIO_MEDIUM_CCA_BUSY] = "cca_busy",
};

/** Kinds of air event; at equal times, ends go first (a frame starting as another ends does not overlap it). */
typedef enum {
    EVENT_DATA_END = 0, /**< a radio's frame ends: deliver it */
    EVENT_ACK_END,      /**< an acknowledgment ends: deliver it */
    EVENT_ACK_TIMEOUT,  /**< macAckWaitDuration passed without the acknowledgment */
    EVENT_ACK_START,    /**< a scheduled acknowledgment starts */
} event_kind_t;

/** One pending air event. */
typedef struct {
    uint64_t time_us;
    uint16_t radio;
    event_kind_t kind;
} event_t;

/* ------------------------------------------------------------ helpers */

static void bit_set(uint32_t *set, uint16_t i)
{
    set[i / 32u] |= 1u << (i % 32u);
}

static bool bit_test(const uint32_t *set, uint16_t i)
{
    return (set[i / 32u] & (1u << (i % 32u))) != 0u;
}

static bool medium_has(const tern_radio_medium_t *medium, uint16_t index)
{
    return index < medium->count;
}

/** LQI of a link: its PRR scaled to 0..255 (real radios derive LQI from the chip error rate). */
static uint8_t link_lqi(const tern_radio_link_t *link)
{
    return (uint8_t)(((uint64_t)link->prr_ppm * 255u + TERN_RADIO_PRR_ONE / 2u) / TERN_RADIO_PRR_ONE);
}

/* ------------------------------------------------------------ PRNG */

/* splitmix64 (Steele, Lea, Flood 2014): spreads any seed, 0 included, over the state space. */
static uint64_t seed_mix(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* xorshift64* (Vigna 2016): the upper 32 bits of the product are the output. */
uint32_t tern_radio_medium_random(tern_radio_medium_t *medium)
{
    uint64_t x = medium->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    medium->rng = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

/** One Bernoulli draw: true with probability @p prr_ppm / 10^6. */
static bool medium_draw(tern_radio_medium_t *medium, uint32_t prr_ppm)
{
    uint64_t scaled = ((uint64_t)tern_radio_medium_random(medium) * TERN_RADIO_PRR_ONE) >> 32;
    return scaled < prr_ppm;
}

/* ------------------------------------------------------------ events */

static void event_consider(event_t *best, bool *found, uint64_t t, uint16_t radio, event_kind_t kind)
{
    /* Order: time, then kind (every end at an instant before any start),
     * then radio index; radios are scanned in index order, so a tie in time
     * and kind keeps the lower index found first. */
    if (!*found || t < best->time_us || (t == best->time_us && kind < best->kind)) {
        *best = (event_t){ .time_us = t, .radio = radio, .kind = kind };
        *found = true;
    }
}

/** Earliest pending event; false when the air is quiet. */
static bool medium_earliest(const tern_radio_medium_t *medium, event_t *out)
{
    bool found = false;
    *out = (event_t){ .time_us = UINT64_MAX };
    for (uint16_t i = 0; i < medium->count; i++) {
        const tern_sim_radio_t *r = medium->radios[i];
        const tern_radio_air_t *data = &r->air[TERN_SIM_RADIO_AIR_DATA];
        const tern_radio_air_t *ack = &r->air[TERN_SIM_RADIO_AIR_ACK];
        if (data->state == TERN_RADIO_AIR_ON_AIR) {
            event_consider(out, &found, data->end_us, i, EVENT_DATA_END);
        }
        if (ack->state == TERN_RADIO_AIR_ON_AIR) {
            event_consider(out, &found, ack->end_us, i, EVENT_ACK_END);
        }
        if (r->ack_waiting) {
            event_consider(out, &found, r->ack_deadline_us, i, EVENT_ACK_TIMEOUT);
        }
        if (ack->state == TERN_RADIO_AIR_SCHEDULED) {
            event_consider(out, &found, ack->start_us, i, EVENT_ACK_START);
        }
    }
    return found;
}

uint64_t tern_radio_medium_next_event(const tern_radio_medium_t *medium)
{
    event_t ev;
    return medium_earliest(medium, &ev) ? ev.time_us : UINT64_MAX;
}

/** Arm the timer for the earliest event (or disarm it). */
static void medium_reschedule(tern_radio_medium_t *medium)
{
    if (medium->module.exec == NULL) {
        return; /* executor stopped: its timers are gone */
    }
    uint64_t next = tern_radio_medium_next_event(medium);
    if (next == UINT64_MAX) {
        tern_timer_cancel(&medium->timer);
    } else if (!tern_timer_is_armed(&medium->timer) || medium->timer.deadline_us != next) {
        (void)tern_timer_set_absolute(&medium->timer, next);
    }
}

/* ------------------------------------------------------------ the air */

/** Does @p other overlap a transmission starting at @p now on @p channel? */
static bool air_overlaps(const tern_radio_air_t *other, uint64_t now, uint16_t channel)
{
    return other->state == TERN_RADIO_AIR_ON_AIR && other->end_us > now && other->channel == channel;
}

/**
 * Collision model: @p rec of radio @p s starts at @p now; mark, in both
 * records, the radios where it and each overlapping transmission meet
 * (a link from both senders), and the senders themselves (half duplex).
 */
static void air_mark_collisions(tern_radio_medium_t *medium, uint16_t s, tern_radio_air_t *rec, uint64_t now)
{
    for (uint16_t o = 0; o < medium->count; o++) {
        for (unsigned k = 0; k < TERN_SIM_RADIO_AIR_NUMOF; k++) {
            tern_radio_air_t *other = &medium->radios[o]->air[k];
            if (other == rec || !air_overlaps(other, now, rec->channel)) {
                continue;
            }
            for (uint16_t x = 0; x < medium->count; x++) {
                if (x == s || x == o) {
                    continue;
                }
                if (medium->links[s][x].prr_ppm > 0u && medium->links[o][x].prr_ppm > 0u) {
                    bit_set(rec->lost, x);
                    bit_set(other->lost, x);
                }
            }
            if (o != s) {
                bit_set(rec->lost, o);   /* o is transmitting: it cannot hear rec */
                bit_set(other->lost, s); /* nor can s hear other from now on */
            }
        }
    }
}

/** Put @p rec of radio @p s on the air from @p now (its psdu, len and channel set). */
static void air_start(tern_radio_medium_t *medium, uint16_t s, tern_radio_air_t *rec, uint64_t now, bool ack)
{
    rec->start_us = now;
    rec->end_us = now + tern_radio_airtime_us(rec->len);
    rec->state = TERN_RADIO_AIR_ON_AIR;
    memset(rec->lost, 0, sizeof(rec->lost));
    if (medium->collisions) {
        air_mark_collisions(medium, s, rec, now);
    }
    tern_count(&medium->counters[ack ? TERN_RADIO_MEDIUM_TX_ACKS : TERN_RADIO_MEDIUM_TX_FRAMES]);
    if (medium->capture != NULL) {
        const tern_radio_medium_tx_t tx = {
            .start_us = rec->start_us, .end_us = rec->end_us, .sender = s, .channel = rec->channel,
            .ack = ack, .psdu = rec->psdu, .len = rec->len,
        };
        medium->capture(medium->capture_ctx, &tx);
    }
}

/**
 * Would CCA at radio @p s find the channel busy now? Energy detection: any
 * sender with a link to @p s (whatever its PRR) that started before now and
 * is still on the air. A transmission starting at this very instant is not
 * sensed yet, so two radios whose CSMA-CA backoffs end in the same slot both
 * transmit and collide, as on real radios.
 */
static bool air_cca_busy(const tern_radio_medium_t *medium, uint16_t s, uint64_t now)
{
    uint16_t channel = medium->radios[s]->pib.channel;
    for (uint16_t o = 0; o < medium->count; o++) {
        if (o == s || medium->links[o][s].prr_ppm == 0u) {
            continue;
        }
        for (unsigned k = 0; k < TERN_SIM_RADIO_AIR_NUMOF; k++) {
            const tern_radio_air_t *other = &medium->radios[o]->air[k];
            if (air_overlaps(other, now, channel) && other->start_us < now) {
                return true;
            }
        }
    }
    return false;
}

/**
 * Schedule radio @p r's acknowledgment aTurnaroundTime after @p frame_end
 * (ack_psdu is ready; the radio asks only while its ACK record is idle).
 */
static void air_schedule_ack(tern_sim_radio_t *r, uint64_t frame_end, uint16_t channel)
{
    tern_radio_air_t *rec = &r->air[TERN_SIM_RADIO_AIR_ACK];
    rec->state = TERN_RADIO_AIR_SCHEDULED;
    rec->start_us = frame_end + TERN_RADIO_TURNAROUND_US;
    rec->end_us = rec->start_us + tern_radio_airtime_us(TERN_RADIO_ACK_PSDU_LEN);
    rec->psdu = r->ack_psdu;
    rec->len = TERN_RADIO_ACK_PSDU_LEN;
    rec->channel = channel;
}

/**
 * Hand the transmission @p rec of radio @p s, ending now, to every radio with
 * a link from @p s: one PRR draw per radio that is on and on the channel, in
 * index order; then collisions; then the receiver's own filter.
 */
static void air_deliver(tern_radio_medium_t *medium, uint16_t s, const tern_radio_air_t *rec)
{
    for (uint16_t i = 0; i < medium->count; i++) {
        const tern_radio_link_t *link = &medium->links[s][i];
        if (i == s || link->prr_ppm == 0u) {
            continue;
        }
        tern_sim_radio_t *r = medium->radios[i];
        if (!r->pib.on) {
            tern_count(&medium->counters[TERN_RADIO_MEDIUM_LOST_RADIO_OFF]);
            continue;
        }
        if (r->pib.channel != rec->channel) {
            tern_count(&medium->counters[TERN_RADIO_MEDIUM_LOST_CHANNEL]);
            continue;
        }
        if (!medium_draw(medium, link->prr_ppm)) {
            tern_count(&medium->counters[TERN_RADIO_MEDIUM_LOST_PRR]);
            continue;
        }
        if (bit_test(rec->lost, i)) {
            tern_count(&medium->counters[TERN_RADIO_MEDIUM_LOST_COLLISION]);
            continue;
        }
        tern_count(&medium->counters[TERN_RADIO_MEDIUM_RX_ARRIVED]);
        unsigned flags = tern_sim_radio_medium_receive(r, rec->psdu, rec->len, link->rssi_dbm, link_lqi(link));
        if ((flags & TERN_SIM_RADIO_RX_SEND_ACK) != 0u) {
            air_schedule_ack(r, rec->end_us, rec->channel);
        }
    }
}

/** Run event @p ev. */
static void medium_run_event(tern_radio_medium_t *medium, const event_t *ev)
{
    tern_sim_radio_t *r = medium->radios[ev->radio];
    switch (ev->kind) {
    case EVENT_DATA_END: {
        tern_radio_air_t *rec = &r->air[TERN_SIM_RADIO_AIR_DATA];
        rec->state = TERN_RADIO_AIR_IDLE;
        if (r->tx_ack_request) {
            r->ack_waiting = true;
            r->ack_deadline_us = rec->end_us + TERN_RADIO_ACK_WAIT_US;
        }
        air_deliver(medium, ev->radio, rec);
        if (!r->tx_ack_request) {
            tern_sim_radio_medium_tx_done(r, TERN_NETDEV_EVENT_TX_COMPLETE);
        }
        break;
    }
    case EVENT_ACK_START: {
        tern_radio_air_t *rec = &r->air[TERN_SIM_RADIO_AIR_ACK];
        const tern_radio_air_t *data = &r->air[TERN_SIM_RADIO_AIR_DATA];
        if (!r->pib.on || air_overlaps(data, ev->time_us, data->channel)) {
            /* Switched off, or sending its own frame since: a radio sends one thing at a time. */
            rec->state = TERN_RADIO_AIR_IDLE;
            tern_count(&r->counters[TERN_SIM_RADIO_ACKS_SKIPPED]);
            break;
        }
        tern_count(&r->counters[TERN_SIM_RADIO_ACKS_SENT]);
        air_start(medium, ev->radio, rec, ev->time_us, true);
        break;
    }
    case EVENT_ACK_END: {
        tern_radio_air_t *rec = &r->air[TERN_SIM_RADIO_AIR_ACK];
        rec->state = TERN_RADIO_AIR_IDLE;
        air_deliver(medium, ev->radio, rec);
        break;
    }
    case EVENT_ACK_TIMEOUT:
        r->ack_waiting = false;
        tern_sim_radio_medium_tx_done(r, TERN_NETDEV_EVENT_TX_NOACK);
        break;
    }
}

/** Raise the interrupts the events asked for. */
static void medium_raise_interrupts(tern_radio_medium_t *medium)
{
    for (uint16_t i = 0; i < medium->count; i++) {
        tern_sim_radio_t *r = medium->radios[i];
        if (r->irq) {
            r->irq = false;
            tern_netdev_report(&r->netdev, TERN_NETDEV_EVENT_ISR);
        }
    }
}

/** Run every event due by the clock, raise interrupts, re-arm the timer. */
static void medium_run(tern_radio_medium_t *medium)
{
    uint64_t now = tern_executor_now(medium->module.exec);
    event_t ev;
    while (medium_earliest(medium, &ev) && ev.time_us <= now) {
        medium_run_event(medium, &ev);
        if (medium->module.exec == NULL) {
            return;
        }
    }
    medium_raise_interrupts(medium);
    medium_reschedule(medium);
}

static int medium_handle(tern_module_t *self, tern_msg_t *msg)
{
    tern_radio_medium_t *medium = self->context;
    if (msg->type != TERN_MSG_TIMER) {
        return -ENOTSUP;
    }
    /* Also right for a stale expiry: only events due now run. */
    medium_run(medium);
    return 0;
}

/* ------------------------------------------------------------ radio side */

int tern_radio_medium_attach(tern_radio_medium_t *medium, struct tern_sim_radio *radio)
{
    if (medium->count >= TERN_CONF_RADIO_MEDIUM_MAX_RADIOS) {
        return -ENOSPC;
    }
    uint16_t index = medium->count;
    medium->radios[index] = radio;
    medium->positions[index] = (tern_radio_position_t){ 0, 0 };
    medium->count++;
    if (medium->range_model) {
        (void)tern_radio_medium_set_position(medium, index, 0, 0);
    }
    return index;
}

int tern_radio_medium_transmit(tern_radio_medium_t *medium, struct tern_sim_radio *radio, size_t psdu_len)
{
    if (medium->module.exec == NULL) {
        return -ECANCELED;
    }
    uint64_t now = tern_executor_now(medium->module.exec);
    if (medium->collisions && air_cca_busy(medium, radio->index, now)) {
        tern_count(&medium->counters[TERN_RADIO_MEDIUM_CCA_BUSY]);
        return -EBUSY;
    }
    tern_radio_air_t *rec = &radio->air[TERN_SIM_RADIO_AIR_DATA];
    rec->psdu = radio->tx_psdu;
    rec->len = (uint8_t)psdu_len;
    rec->channel = radio->pib.channel;
    air_start(medium, radio->index, rec, now, false);
    medium_reschedule(medium);
    return 0;
}

/* ------------------------------------------------------------ topology */

int tern_radio_medium_link_set(tern_radio_medium_t *medium, uint16_t from, uint16_t to, uint32_t prr_ppm,
                               int16_t rssi_dbm)
{
    if (medium == NULL) {
        return -EINVAL;
    }
    if (!medium_has(medium, from) || !medium_has(medium, to)) {
        return -ENOENT;
    }
    if (from == to || prr_ppm > TERN_RADIO_PRR_ONE || rssi_dbm < -128 || rssi_dbm > 0) {
        return -EINVAL;
    }
    medium->links[from][to] = (tern_radio_link_t){ .prr_ppm = prr_ppm, .rssi_dbm = rssi_dbm };
    return 0;
}

int tern_radio_medium_link_set_both(tern_radio_medium_t *medium, uint16_t a, uint16_t b, uint32_t prr_ppm,
                                    int16_t rssi_dbm)
{
    int res = tern_radio_medium_link_set(medium, a, b, prr_ppm, rssi_dbm);
    return (res < 0) ? res : tern_radio_medium_link_set(medium, b, a, prr_ppm, rssi_dbm);
}

int tern_radio_medium_link_get(const tern_radio_medium_t *medium, uint16_t from, uint16_t to,
                               tern_radio_link_t *link)
{
    if (medium == NULL || link == NULL) {
        return -EINVAL;
    }
    if (!medium_has(medium, from) || !medium_has(medium, to)) {
        return -ENOENT;
    }
    if (from == to) {
        return -EINVAL;
    }
    *link = medium->links[from][to];
    return 0;
}

int tern_radio_medium_isolate(tern_radio_medium_t *medium, uint16_t index)
{
    if (!medium_has(medium, index)) {
        return -ENOENT;
    }
    for (uint16_t i = 0; i < medium->count; i++) {
        medium->links[index][i] = (tern_radio_link_t){ 0 };
        medium->links[i][index] = (tern_radio_link_t){ 0 };
    }
    return 0;
}

/** floor(sqrt(v)), bit by bit. */
static uint64_t isqrt64(uint64_t v)
{
    uint64_t root = 0;
    uint64_t bit = 1ull << 62;
    while (bit > v) {
        bit >>= 2;
    }
    while (bit != 0u) {
        if (v >= root + bit) {
            v -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    return root;
}

tern_radio_link_t tern_radio_range_link(const tern_radio_range_t *range, uint64_t distance)
{
    tern_radio_link_t link = { 0 };
    if (distance <= range->full_range) {
        link.prr_ppm = TERN_RADIO_PRR_ONE;
    } else if (distance < range->max_range) {
        uint64_t span = range->max_range - range->full_range;
        link.prr_ppm = (uint32_t)(((uint64_t)TERN_RADIO_PRR_ONE * (range->max_range - distance)) / span);
    } else {
        return link; /* out of range: no link */
    }
    int64_t fall = (int64_t)(TERN_RADIO_RANGE_RSSI_NEAR_DBM - TERN_RADIO_RANGE_RSSI_EDGE_DBM);
    link.rssi_dbm = (int16_t)(TERN_RADIO_RANGE_RSSI_NEAR_DBM - (fall * (int64_t)distance) / range->max_range);
    return link;
}

/** Recompute the links of radio @p index in both directions from the positions. */
static void medium_range_update(tern_radio_medium_t *medium, uint16_t index)
{
    const tern_radio_position_t *p = &medium->positions[index];
    for (uint16_t j = 0; j < medium->count; j++) {
        if (j == index) {
            continue;
        }
        const tern_radio_position_t *q = &medium->positions[j];
        int64_t dx = (int64_t)p->x - q->x;
        int64_t dy = (int64_t)p->y - q->y;
        uint64_t d = isqrt64((uint64_t)(dx * dx) + (uint64_t)(dy * dy));
        tern_radio_link_t link = tern_radio_range_link(&medium->range, d);
        medium->links[index][j] = link;
        medium->links[j][index] = link;
    }
}

int tern_radio_medium_set_range(tern_radio_medium_t *medium, const tern_radio_range_t *range)
{
    if (range == NULL) {
        medium->range_model = false;
        return 0;
    }
    if (range->max_range == 0u || range->full_range > range->max_range) {
        return -EINVAL;
    }
    medium->range = *range;
    medium->range_model = true;
    for (uint16_t i = 0; i < medium->count; i++) {
        medium_range_update(medium, i);
    }
    return 0;
}

int tern_radio_medium_set_position(tern_radio_medium_t *medium, uint16_t index, int32_t x, int32_t y)
{
    if (!medium_has(medium, index)) {
        return -ENOENT;
    }
    if (x > TERN_RADIO_POSITION_MAX || x < -TERN_RADIO_POSITION_MAX || y > TERN_RADIO_POSITION_MAX ||
        y < -TERN_RADIO_POSITION_MAX) {
        return -EINVAL;
    }
    medium->positions[index] = (tern_radio_position_t){ .x = x, .y = y };
    if (medium->range_model) {
        medium_range_update(medium, index);
    }
    return 0;
}

/* ------------------------------------------------------------ medium */

struct tern_sim_radio *tern_radio_medium_radio(const tern_radio_medium_t *medium, uint16_t index)
{
    return medium_has(medium, index) ? medium->radios[index] : NULL;
}

void tern_radio_medium_set_collisions(tern_radio_medium_t *medium, bool on)
{
    medium->collisions = on;
}

void tern_radio_medium_set_capture(tern_radio_medium_t *medium, tern_radio_medium_capture_fn_t fn, void *ctx)
{
    medium->capture = fn;
    medium->capture_ctx = (fn != NULL) ? ctx : NULL;
}

int tern_radio_medium_init(tern_radio_medium_t *medium, tern_executor_t *exec, uint64_t seed)
{
    if (medium == NULL || exec == NULL) {
        return -EINVAL;
    }
    memset(medium, 0, sizeof(*medium));
    medium->rng = seed_mix(seed);
    if (medium->rng == 0u) {
        medium->rng = 0x9E3779B97F4A7C15ull; /* xorshift's one forbidden state */
    }
    medium->stats_group.name = "medium";
    medium->stats_group.names = medium_counter_names;
    medium->stats_group.values = medium->counters;
    medium->stats_group.count = TERN_RADIO_MEDIUM_STAT_NUMOF;
    int res = tern_module_init(&medium->module, "medium", MEDIUM_PRIORITY, medium_handle, medium, medium->queue,
                               sizeof(medium->queue) / sizeof(medium->queue[0]));
    if (res < 0) {
        return res;
    }
    tern_timer_init(&medium->timer, &medium->module, TERN_MSG_TIMER, 0);
    return tern_executor_attach(exec, &medium->module);
}
