/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief DIO and DIS: joining a DODAG, following its versions, advertising
 *        it on Trickle, soliciting it.
 *
 * Read first: RFC 6550 §8.2.2 (joining, versions, §8.2.2.1 global repair),
 * §8.2.3 (DIO base rules), §8.3 (Trickle: what resets it, DIS answers),
 * §6.3 (DIO, link-local source), §6.7.6 (DODAG Configuration), §6.7.10
 * (Prefix Information), §7.2 (lollipop sequence counters).
 *
 * Choices: the node joins grounded DODAGs in storing (MOP 2) or non-storing
 * mode (MOP 1, §9.7) only, and
 * one DODAG of one instance: while joined, DIOs of other DODAGs or
 * instances are counted and ignored (no DODAG preference switching yet). A
 * router puts a DODAG Configuration option in every DIO (so late joiners
 * need no DIS) and the root's prefix as it received it (§6.7.10: a node
 * passes the PIO on).
 */
#include <errno.h>
#include <string.h>

#include "rpl_internal.h"
#include "tern/netapi.h"
#include "tern/wire/icmpv6.h"

/** DIS period while not joined (RFC 6550 §8.3 leaves it open; Contiki-NG: 60 s). */
#define DIS_INTERVAL_US (10u * RPL_US_PER_S)
/** Room for a DIO's options: DODAG Configuration and Prefix Information. */
#define DIO_OPTIONS_MAX (TERN_RPL_OPT_DODAG_CONF_LEN + TERN_RPL_OPT_PREFIX_INFO_LEN)

static const tern_ipv6_addr_t all_rpl_nodes = { { 0xff, 0x02, [15] = 0x1a } };

/* ------------------------------------------------------------ Trickle */

void rpl_trickle_reset(tern_rpl_t *rpl)
{
    if (rpl->role == TERN_RPL_ROLE_LEAF) {
        return; /* §8.5: a leaf does not advertise the DODAG */
    }
    tern_trickle_reset(&rpl->trickle, rpl_now(rpl));
}

void rpl_trickle_stop(tern_rpl_t *rpl)
{
    tern_trickle_stop(&rpl->trickle);
}

void rpl_trickle_consistent(tern_rpl_t *rpl)
{
    tern_trickle_consistent(&rpl->trickle);
}

/*
 * Take new Trickle parameters (a DODAG Configuration that changed them).
 * tern_trickle_init() leaves the timer stopped: a running one starts over
 * with them at Imin, as a reset does (RFC 6206 §4.2 rule 6), or the node
 * would send no DIO until some later reset. A stopped one (a leaf, §8.5)
 * stays stopped.
 */
void rpl_trickle_configure(tern_rpl_t *rpl)
{
    tern_trickle_config_t tc;
    if (tern_trickle_config_from_dio(&tc, rpl->dio_interval_min, rpl->dio_interval_doublings,
                                     rpl->dio_redundancy) == 0) {
        bool running = rpl->trickle.running;
        (void)tern_trickle_init(&rpl->trickle, &tc, rpl->trickle.random, rpl->trickle.random_ctx);
        if (running) {
            tern_trickle_reset(&rpl->trickle, rpl_now(rpl));
        }
    }
}

uint64_t rpl_dio_next_deadline(const tern_rpl_t *rpl)
{
    uint64_t t = tern_trickle_next_deadline(&rpl->trickle);
    return (rpl->dis_at_us < t) ? rpl->dis_at_us : t;
}

void rpl_dio_tick(tern_rpl_t *rpl, uint64_t now)
{
    if (tern_trickle_run(&rpl->trickle, now)) { /* before its deadline: no change, false (tern/rpl/trickle.h) */
        rpl_dio_send(rpl, 0, &all_rpl_nodes);
    }
    if (rpl->dis_at_us <= now) {
        if (!rpl->joined && rpl->role != TERN_RPL_ROLE_ROOT && rpl->role != TERN_RPL_ROLE_NONE) {
            rpl_dis_send(rpl);
            rpl->dis_at_us = now + DIS_INTERVAL_US / 2u + rpl_random(rpl) % DIS_INTERVAL_US;
        } else {
            rpl->dis_at_us = RPL_NEVER;
        }
    }
}

/* ------------------------------------------------------------ send */

static void dio_send_on(tern_rpl_t *rpl, uint16_t if_index, const tern_ipv6_addr_t *dst)
{
    uint8_t options[DIO_OPTIONS_MAX];
    size_t n = 0;
    tern_rpl_opt_dodag_conf_t conf = {
        .authentication = false, .path_control_size = 0, .dio_int_doublings = rpl->dio_interval_doublings,
        .dio_int_min = rpl->dio_interval_min, .dio_redundancy = rpl->dio_redundancy,
        .max_rank_increase = rpl->max_rank_increase, .min_hop_rank_increase = rpl->min_hop_rank_increase,
        .ocp = rpl->ocp, .default_lifetime = rpl->default_lifetime, .lifetime_unit = rpl->lifetime_unit,
    };
    int r = tern_rpl_opt_dodag_conf_emit(&conf, options, sizeof(options));
    n += (r > 0) ? (size_t)r : 0u;
    if (rpl->prefix_len != 0) {
        /* §6.7.10: A for SLAAC; L off: on a 6LoWPAN mesh nothing but link-local is on-link. */
        tern_ndp_opt_prefix_info_t pio = { .prefix_len = rpl->prefix_len, .flags = TERN_NDP_PIO_FLAG_AUTONOMOUS,
                                           .valid_lifetime = rpl->prefix_valid_s,
                                           .preferred_lifetime = rpl->prefix_preferred_s, .prefix = rpl->prefix };
        r = tern_rpl_opt_prefix_info_emit(&pio, options + n, sizeof(options) - n);
        n += (r > 0) ? (size_t)r : 0u;
    }
    tern_rpl_dio_repr_t dio = {
        .instance_id = rpl->instance_id, .version = rpl->version, .rank = rpl_dodag_advertised_rank(rpl),
        .grounded = true, .mop = rpl->mop, .preference = rpl->preference, .dtsn = rpl->dtsn,
        .dodag_id = rpl->dodag_id, .options = options, .options_len = n,
    };
    size_t len = tern_rpl_dio_len(&dio);
    tern_pkt_t *msg = rpl_msg_alloc(rpl, len);
    if (msg == NULL) {
        return;
    }
    (void)tern_rpl_dio_emit(&dio, msg->data, msg->size);
    if (rpl_send(rpl, msg, if_index, dst, true, RPL_HOP_LIMIT) == 0) {
        rpl_count(rpl, TERN_RPL_DIO_OUT);
    }
}

void rpl_dio_send(tern_rpl_t *rpl, uint16_t if_index, const tern_ipv6_addr_t *dst)
{
    if (!rpl->joined || rpl->role == TERN_RPL_ROLE_LEAF || rpl->role == TERN_RPL_ROLE_NONE) {
        return;
    }
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        if (rpl->ifs[i] != NULL && (if_index == 0 || rpl->ifs[i]->index == if_index)) {
            dio_send_on(rpl, rpl->ifs[i]->index, dst);
        }
    }
}

void rpl_dis_send_to(tern_rpl_t *rpl, uint16_t if_index, const tern_ipv6_addr_t *dst)
{
    tern_rpl_dis_repr_t dis = { .options = NULL, .options_len = 0 };
    tern_pkt_t *msg = rpl_msg_alloc(rpl, tern_rpl_dis_len(&dis));
    if (msg == NULL) {
        return;
    }
    (void)tern_rpl_dis_emit(&dis, msg->data, msg->size);
    if (rpl_send(rpl, msg, if_index, dst, true, RPL_HOP_LIMIT) == 0) {
        rpl_count(rpl, TERN_RPL_DIS_OUT);
    }
}

void rpl_dis_send(tern_rpl_t *rpl)
{
    for (size_t i = 0; i < TERN_CONF_RPL_IFS; i++) {
        if (rpl->ifs[i] != NULL) {
            rpl_dis_send_to(rpl, rpl->ifs[i]->index, &all_rpl_nodes);
        }
    }
}

/* ------------------------------------------------------------ receive */

/* The options of a DIO we act on. */
typedef struct {
    tern_rpl_opt_dodag_conf_t conf;
    tern_ndp_opt_prefix_info_t pio;
    bool has_conf;
    bool has_pio;
} dio_options_t;

static int dio_options(const tern_rpl_dio_repr_t *dio, dio_options_t *out)
{
    out->has_conf = false; /* conf and pio are read only when present */
    out->has_pio = false;
    tern_rpl_opt_iter_t it;
    tern_rpl_opt_t opt;
    int r;
    tern_rpl_opt_iter_init(&it, dio->options, dio->options_len);
    while ((r = tern_rpl_opt_next(&it, &opt)) == 1) {
        if (!tern_rpl_opt_allowed(TERN_RPL_CODE_DIO, opt.type)) {
            continue; /* §6.3.3: not a DIO option: ignored */
        }
        if (opt.type == TERN_RPL_OPT_DODAG_CONF) {
            /* §6.7.6: MinHopRankIncrease and Lifetime Unit are divisors of the
             * rank and of every route lifetime (DAO Path Lifetime, §6.7.8):
             * 0 cannot be meant, and is refused rather than divided by. */
            if (tern_rpl_opt_dodag_conf_parse(&out->conf, &opt) < 0 || out->conf.min_hop_rank_increase == 0 ||
                out->conf.lifetime_unit == 0) {
                return -EBADMSG;
            }
            out->has_conf = true;
        } else if (opt.type == TERN_RPL_OPT_PREFIX_INFO) {
            if (tern_rpl_opt_prefix_info_parse(&out->pio, &opt) < 0) {
                return -EBADMSG;
            }
            out->has_pio = true;
        }
    }
    return r;
}

/* Take the DODAG's parameters from its Configuration option (§6.7.6). */
static void apply_conf(tern_rpl_t *rpl, const tern_rpl_opt_dodag_conf_t *conf)
{
    bool trickle_changed = conf->dio_int_min != rpl->dio_interval_min ||
                           conf->dio_int_doublings != rpl->dio_interval_doublings ||
                           conf->dio_redundancy != rpl->dio_redundancy;
    rpl->min_hop_rank_increase = conf->min_hop_rank_increase;
    rpl->max_rank_increase = conf->max_rank_increase;
    rpl->ocp = conf->ocp;
    rpl->default_lifetime = conf->default_lifetime;
    rpl->lifetime_unit = conf->lifetime_unit;
    rpl->dio_interval_min = (conf->dio_int_min > TERN_TRICKLE_DIO_INTERVAL_MIN_MAX) ? TERN_TRICKLE_DIO_INTERVAL_MIN_MAX
                                                                                   : conf->dio_int_min;
    rpl->dio_interval_doublings = conf->dio_int_doublings;
    rpl->dio_redundancy = conf->dio_redundancy;
    if (trickle_changed) {
        rpl_trickle_configure(rpl);
    }
}

/* The root's prefix reaches the IPv6 module (SLAAC, §6.7.10) and our own DIOs. */
static void apply_prefix(tern_rpl_t *rpl, uint16_t if_index, const tern_ndp_opt_prefix_info_t *pio)
{
    if (pio->prefix_len == 0 || pio->prefix_len > 128u || tern_ipv6_addr_is_link_local(&pio->prefix)) {
        return;
    }
    rpl->prefix = pio->prefix;
    rpl->prefix_len = pio->prefix_len;
    rpl->prefix_valid_s = pio->valid_lifetime;
    rpl->prefix_preferred_s = pio->preferred_lifetime;
    if (!(pio->flags & TERN_NDP_PIO_FLAG_AUTONOMOUS)) {
        return;
    }
    tern_ipv6_prefix_config_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.prefix = pio->prefix;
    cfg.prefix_len = pio->prefix_len;
    cfg.valid_lifetime = pio->valid_lifetime;
    cfg.preferred_lifetime = pio->preferred_lifetime;
    cfg.autonomous = true;
    cfg.onlink = (pio->flags & TERN_NDP_PIO_FLAG_ONLINK) != 0;
    (void)tern_netapi_set(&rpl->ip->module, TERN_NETOPT_IPV6_PREFIX, if_index, &cfg, sizeof(cfg));
}

/* Join the DODAG of @p dio (§8.2.2: grounded, storing or non-storing, an OF we have). */
static bool join(tern_rpl_t *rpl, const tern_rpl_dio_repr_t *dio, const dio_options_t *o)
{
    if (!dio->grounded) {
        rpl_count(rpl, TERN_RPL_NOT_GROUNDED);
        return false;
    }
    if (dio->mop != TERN_RPL_MOP_STORING && dio->mop != TERN_RPL_MOP_NON_STORING) {
        rpl_count(rpl, TERN_RPL_MOP_UNSUPPORTED);
        return false;
    }
    uint16_t ocp = o->has_conf ? o->conf.ocp : TERN_RPL_OCP_OF0; /* §18.5 default OF0 */
    if (!RPL_JOINS || tern_rpl_of_get(ocp) == NULL) {
        rpl_count(rpl, TERN_RPL_OCP_UNSUPPORTED);
        return false;
    }
    rpl->instance_id = dio->instance_id;
    rpl->dodag_id = dio->dodag_id;
    rpl->version = dio->version;
    rpl->mop = dio->mop;
    rpl->preference = dio->preference;
    rpl->dtsn = 240u;
    rpl->dao_sequence = 240u;
    rpl->ocp = ocp;
    rpl->joined = true;
    rpl->dis_at_us = RPL_NEVER;
    rpl_count(rpl, TERN_RPL_JOINS);
    return true;
}

/* §8.2.2.1: the root started a new version; follow it from scratch. */
static void new_version(tern_rpl_t *rpl, uint8_t version)
{
    rpl_dodag_leave(rpl);
    rpl->version = version;
    rpl_poison_until_set(rpl, 0);
    rpl->dtsn++; /* §9.6: our children refresh their DAOs under the new version */
    rpl_count(rpl, TERN_RPL_GLOBAL_REPAIRS);
}

void rpl_dio_receive(tern_rpl_t *rpl, const tern_ipv6_repr_t *hdr, const tern_netif_hdr_t *nhdr, const uint8_t *b,
                     size_t len)
{
    tern_rpl_dio_repr_t dio;
    dio_options_t o;
    if (tern_rpl_dio_parse(&dio, b, len) < 0 || dio_options(&dio, &o) < 0) {
        rpl_count(rpl, TERN_RPL_MALFORMED);
        return;
    }
    /* §6.3: DIOs come from link-local addresses. */
    if (!tern_ipv6_addr_is_link_local(&hdr->src)) {
        rpl_count(rpl, TERN_RPL_BAD_SOURCE);
        return;
    }
    rpl_count(rpl, TERN_RPL_DIO_IN);
    if (rpl->role == TERN_RPL_ROLE_ROOT) {
        /* The root's DODAG: a DIO of it is consistent (§8.3); others are not joined. */
        if (dio.instance_id == rpl->instance_id && tern_ipv6_addr_equal(&dio.dodag_id, &rpl->dodag_id) &&
            dio.version == rpl->version) {
            rpl_trickle_consistent(rpl);
        } else if (dio.instance_id != rpl->instance_id) {
            rpl_count(rpl, TERN_RPL_UNKNOWN_INSTANCE);
        }
        return;
    }
    /* Not a root: joined only through join() below, which needs an objective function (RPL_JOINS). */
    bool joined = RPL_JOINS && rpl->joined;
    bool ours = joined && dio.instance_id == rpl->instance_id && tern_ipv6_addr_equal(&dio.dodag_id, &rpl->dodag_id);
    /* §8.2.2.5: ranks below ROOT_RANK are impossible; INFINITE_RANK only matters from a parent. */
    /* (A Configuration's MinHopRankIncrease is not 0: dio_options() refused that.) */
    uint16_t root_rank = o.has_conf ? o.conf.min_hop_rank_increase : rpl->min_hop_rank_increase;
    if (dio.rank < root_rank) {
        rpl_count(rpl, TERN_RPL_BAD_RANK);
        return;
    }
    if (joined && !ours) {
        rpl_count(rpl, (dio.instance_id != rpl->instance_id) ? TERN_RPL_UNKNOWN_INSTANCE : TERN_RPL_DIO_RANK_RULE);
        return;
    }
    /* A DODAG to join, or a new version of ours: we start without a rank. */
    bool fresh = !joined || rpl_seq_newer(dio.version, rpl->version);
    if (fresh && dio.rank == TERN_RPL_INFINITE_RANK) {
        rpl_count(rpl, TERN_RPL_BAD_RANK); /* a detached node's poison: nothing to join */
        return;
    }
    if (!joined) {
        if (!join(rpl, &dio, &o)) {
            return;
        }
    } else if (fresh) {
        new_version(rpl, dio.version);
    } else if (dio.version != rpl->version) {
        rpl_count(rpl, TERN_RPL_DIO_OLD_VERSION);
        return;
    } else if (rpl_poisoning(rpl)) {
        return; /* §8.2.2.5: poisoning; our old sub-DODAG may still advertise stale ranks */
    }
    if (fresh) {
        rpl->rank = TERN_RPL_INFINITE_RANK;
        rpl->lowest_rank = TERN_RPL_INFINITE_RANK;
        if (o.has_conf) {
            apply_conf(rpl, &o.conf);
        }
    }
    tern_rpl_parent_t *before = rpl_dodag_preferred(rpl);
    tern_ipv6_addr_t before_addr = *((before != NULL) ? &before->addr : &hdr->dst); /* one copy, not two */
    bool had_parent = before != NULL;
    bool consistent = rpl_dodag_dio_from(rpl, &hdr->src, nhdr, dio.rank, dio.dtsn);
    if (consistent && dio.rank != TERN_RPL_INFINITE_RANK) {
        rpl_trickle_consistent(rpl); /* §8.3: same version, a valid rank */
    }
    tern_rpl_parent_t *pref = rpl_dodag_preferred(rpl);
    if (pref != NULL && tern_ipv6_addr_equal(&pref->addr, &hdr->src)) {
        /* The preferred parent's DIO carries the DODAG's state: configuration and prefix. */
        if (o.has_conf) {
            apply_conf(rpl, &o.conf);
        }
        if (o.has_pio) {
            apply_prefix(rpl, nhdr->if_index, &o.pio);
        }
        if (!had_parent || !tern_ipv6_addr_equal(&before_addr, &pref->addr)) {
            rpl_trickle_reset(rpl); /* §8.3: new parent (joined, or switched) */
        }
    }
}

void rpl_dis_receive(tern_rpl_t *rpl, const tern_ipv6_repr_t *hdr, uint16_t if_index, const uint8_t *b, size_t len)
{
    tern_rpl_dis_repr_t dis;
    if (tern_rpl_dis_parse(&dis, b, len) < 0) { /* options checked too (tern/wire/rpl.h) */
        rpl_count(rpl, TERN_RPL_MALFORMED);
        return;
    }
    rpl_count(rpl, TERN_RPL_DIS_IN);
    if (!rpl->joined || rpl->role == TERN_RPL_ROLE_LEAF) {
        return; /* nothing to advertise */
    }
    /* §6.7.9: a Solicited Information option names who should answer. */
    tern_rpl_opt_t opt;
    tern_rpl_opt_solicited_t sol;
    if (tern_rpl_opt_find(dis.options, dis.options_len, TERN_RPL_OPT_SOLICITED, &opt) == 1 &&
        tern_rpl_opt_solicited_parse(&sol, &opt) == 0) {
        if ((sol.match_instance && sol.instance_id != rpl->instance_id) ||
            (sol.match_dodag_id && !tern_ipv6_addr_equal(&sol.dodag_id, &rpl->dodag_id)) ||
            (sol.match_version && sol.version != rpl->version)) {
            return;
        }
    }
    if (tern_ipv6_addr_is_multicast(&hdr->dst)) {
        /* §8.3: a multicast DIS is an inconsistency: Trickle back to Imin (not again when already there). */
        (void)tern_trickle_inconsistent(&rpl->trickle, rpl_now(rpl));
    } else {
        /* §8.3: a unicast DIS gets a unicast DIO, Trickle untouched. */
        rpl_dio_send(rpl, if_index, &hdr->src);
    }
}
