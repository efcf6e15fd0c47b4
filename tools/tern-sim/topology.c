/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief tern-sim's topology parser (format in topology.h and docs/TERN-SIM.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "topology.h"

/** Most words a statement has (`random N SIDE RANGE PRR_MIN PRR_MAX`), plus one to detect extra words. */
#define WORDS_MAX 7

static const char statements[] = "nodes, line, grid, random, link, range, position, router, collisions";

/* ------------------------------------------------------------ numbers */

/* Decimal without sign, at most @p max. @return 0 or -EINVAL. */
static int parse_uint(const char *text, uint64_t max, uint64_t *out)
{
    if (text == NULL || *text == '\0') {
        return -EINVAL;
    }
    uint64_t v = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p < '0' || *p > '9') {
            return -EINVAL;
        }
        v = v * 10u + (uint64_t)(*p - '0');
        if (v > max) {
            return -EINVAL;
        }
    }
    *out = v;
    return 0;
}

/* Integer with an optional '-', magnitude at most @p max. @return 0 or -EINVAL. */
static int parse_int(const char *text, uint64_t max, int64_t *out)
{
    bool negative = (text != NULL && text[0] == '-');
    uint64_t v;
    if (parse_uint(negative ? text + 1 : text, max, &v) < 0) {
        return -EINVAL;
    }
    *out = negative ? -(int64_t)v : (int64_t)v;
    return 0;
}

int sim_parse_prr(const char *text, uint32_t *ppm)
{
    if (text == NULL || text[0] < '0' || text[0] > '9') {
        return -EINVAL;
    }
    uint32_t whole = 0;
    const char *p = text;
    while (*p >= '0' && *p <= '9') {
        whole = whole * 10u + (uint32_t)(*p - '0');
        if (whole > 1u) {
            return -EINVAL;
        }
        p++;
    }
    uint32_t fraction = 0;
    uint32_t scale = SIM_PRR_ONE;
    if (*p == '.') {
        p++;
        if (*p == '\0') {
            return -EINVAL; /* "0." */
        }
        while (*p >= '0' && *p <= '9') {
            if (scale == 1u) {
                return -EINVAL; /* more than 6 decimals */
            }
            scale /= 10u;
            fraction += (uint32_t)(*p - '0') * scale;
            p++;
        }
    }
    if (*p != '\0') {
        return -EINVAL;
    }
    uint32_t value = whole * SIM_PRR_ONE + fraction;
    if (value > SIM_PRR_ONE) {
        return -EINVAL;
    }
    *ppm = value;
    return 0;
}

/* ------------------------------------------------------------ statements */

/** Parsing state of one line. */
typedef struct {
    sim_topology_t *topo;
    sim_topology_error_t *err;
    unsigned lineno;
    uint64_t rng; /**< splitmix64 state, from sim_topology_t::seed */
} parse_ctx_t;

/* The next 64 random bits (splitmix64: one state word, every seed a full-period sequence). */
static uint64_t next_random(parse_ctx_t *ctx)
{
    uint64_t z = (ctx->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi] (hi - lo far below 2^64: the modulo bias is negligible). */
static uint64_t random_between(parse_ctx_t *ctx, uint64_t lo, uint64_t hi)
{
    return lo + next_random(ctx) % (hi - lo + 1u);
}

static int fail(parse_ctx_t *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(parse_ctx_t *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(ctx->err->message, sizeof(ctx->err->message), fmt, ap);
    va_end(ap);
    ctx->err->line = ctx->lineno;
    return -EINVAL;
}

static int need_nodes(parse_ctx_t *ctx)
{
    if (ctx->topo->nodes == 0) {
        return fail(ctx, "no nodes yet: declare them first (nodes N, line N or grid W H)");
    }
    return 0;
}

/* A node number 1..nodes into its index. */
static int parse_node(parse_ctx_t *ctx, const char *text, unsigned *index)
{
    int res = need_nodes(ctx);
    if (res < 0) {
        return res;
    }
    uint64_t v;
    if (parse_uint(text, ctx->topo->nodes, &v) < 0 || v == 0) {
        return fail(ctx, "bad node '%s' (want 1..%u)", text, (unsigned)ctx->topo->nodes);
    }
    *index = (unsigned)v - 1u;
    return 0;
}

static int parse_prr_word(parse_ctx_t *ctx, const char *text, uint32_t *ppm)
{
    if (sim_parse_prr(text, ppm) < 0) {
        return fail(ctx, "bad PRR '%s' (want 0..1 with at most 6 decimals, e.g. 0.95)", text);
    }
    return 0;
}

static void set_link(sim_topology_t *topo, unsigned from, unsigned to, uint32_t ppm)
{
    topo->link_set[from][to] = true;
    topo->prr_ppm[from][to] = ppm;
}

/** PRR of generated links: fixed (min == max) or drawn per direction in [min, max]. */
typedef struct {
    uint32_t min;
    uint32_t max;
} prr_range_t;

/* Optional PRR words argv[0] (PRR) and argv[1] (PRR_MAX): @p count of them (0..2). */
static int parse_prr_range(parse_ctx_t *ctx, int count, char **argv, prr_range_t *range)
{
    range->min = SIM_PRR_ONE;
    range->max = SIM_PRR_ONE;
    if (count >= 1 && parse_prr_word(ctx, argv[0], &range->min) < 0) {
        return -EINVAL;
    }
    range->max = range->min;
    if (count == 2 && parse_prr_word(ctx, argv[1], &range->max) < 0) {
        return -EINVAL;
    }
    if (range->min > range->max) {
        return fail(ctx, "PRR range %s..%s is empty (the first must not exceed the second)", argv[0], argv[1]);
    }
    return 0;
}

/* A generated link A <-> B: each direction with its own PRR from @p range. */
static void set_generated(parse_ctx_t *ctx, unsigned a, unsigned b, const prr_range_t *range)
{
    set_link(ctx->topo, a, b, (uint32_t)random_between(ctx, range->min, range->max));
    set_link(ctx->topo, b, a, (uint32_t)random_between(ctx, range->min, range->max));
}

/* A generator (line, grid) of @p count nodes: declares them or checks they fit. */
static int generated_nodes(parse_ctx_t *ctx, const char *what, uint64_t count)
{
    if (ctx->topo->nodes == 0) {
        ctx->topo->nodes = (uint16_t)count;
    } else if (count > ctx->topo->nodes) {
        return fail(ctx, "%s of %u nodes does not fit into the %u nodes declared", what, (unsigned)count,
                    (unsigned)ctx->topo->nodes);
    }
    return 0;
}

static int st_nodes(parse_ctx_t *ctx, int argc, char **argv)
{
    if (argc != 2) {
        return fail(ctx, "usage: nodes N");
    }
    uint64_t n;
    if (parse_uint(argv[1], SIM_MAX_NODES, &n) < 0 || n == 0) {
        return fail(ctx, "bad node count '%s' (want 1..%u)", argv[1], SIM_MAX_NODES);
    }
    if (ctx->topo->nodes != 0) {
        return fail(ctx, "node count already set to %u", (unsigned)ctx->topo->nodes);
    }
    ctx->topo->nodes = (uint16_t)n;
    return 0;
}

static int st_line(parse_ctx_t *ctx, int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        return fail(ctx, "usage: line N [PRR [PRR_MAX]]");
    }
    uint64_t n;
    if (parse_uint(argv[1], SIM_MAX_NODES, &n) < 0 || n == 0) {
        return fail(ctx, "bad node count '%s' (want 1..%u)", argv[1], SIM_MAX_NODES);
    }
    prr_range_t prr;
    if (parse_prr_range(ctx, argc - 2, &argv[2], &prr) < 0) {
        return -EINVAL;
    }
    if (generated_nodes(ctx, "line", n) < 0) {
        return -EINVAL;
    }
    for (unsigned i = 0; i + 1u < n; i++) {
        set_generated(ctx, i, i + 1u, &prr);
    }
    return 0;
}

static int st_grid(parse_ctx_t *ctx, int argc, char **argv)
{
    if (argc < 3 || argc > 5) {
        return fail(ctx, "usage: grid W H [PRR [PRR_MAX]]");
    }
    uint64_t w, h;
    if (parse_uint(argv[1], SIM_MAX_NODES, &w) < 0 || w == 0) {
        return fail(ctx, "bad grid width '%s' (want 1..%u)", argv[1], SIM_MAX_NODES);
    }
    if (parse_uint(argv[2], SIM_MAX_NODES, &h) < 0 || h == 0) {
        return fail(ctx, "bad grid height '%s' (want 1..%u)", argv[2], SIM_MAX_NODES);
    }
    if (w * h > SIM_MAX_NODES) {
        return fail(ctx, "grid %u x %u has %u nodes, at most %u", (unsigned)w, (unsigned)h, (unsigned)(w * h),
                    SIM_MAX_NODES);
    }
    prr_range_t prr;
    if (parse_prr_range(ctx, argc - 3, &argv[3], &prr) < 0) {
        return -EINVAL;
    }
    if (generated_nodes(ctx, "grid", w * h) < 0) {
        return -EINVAL;
    }
    /* Row by row: node (row * W + col) + 1; right and down neighbours, both ways. */
    for (unsigned row = 0; row < h; row++) {
        for (unsigned col = 0; col < w; col++) {
            unsigned i = row * (unsigned)w + col;
            if (col + 1u < w) {
                set_generated(ctx, i, i + 1u, &prr);
            }
            if (row + 1u < h) {
                set_generated(ctx, i, i + (unsigned)w, &prr);
            }
        }
    }
    return 0;
}

/* Nodes @p a and @p b of the drawn positions are within @p range. */
static bool within(const int64_t *x, const int64_t *y, unsigned a, unsigned b, uint64_t range)
{
    uint64_t dx = (uint64_t)((x[a] > x[b]) ? x[a] - x[b] : x[b] - x[a]);
    uint64_t dy = (uint64_t)((y[a] > y[b]) ? y[a] - y[b] : y[b] - y[a]);
    return dx * dx + dy * dy <= range * range; /* each term below 2^62 */
}

/* The unit-disk graph of the positions is connected (breadth-first from node 1). */
static bool connected(const int64_t *x, const int64_t *y, unsigned n, uint64_t range)
{
    bool seen[SIM_MAX_NODES] = { false };
    unsigned queue[SIM_MAX_NODES];
    unsigned head = 0, tail = 0;
    seen[0] = true;
    queue[tail++] = 0;
    while (head < tail) {
        unsigned a = queue[head++];
        for (unsigned b = 0; b < n; b++) {
            if (!seen[b] && within(x, y, a, b, range)) {
                seen[b] = true;
                queue[tail++] = b;
            }
        }
    }
    return tail == n;
}

/*
 * random N SIDE RANGE PRR_MIN PRR_MAX: node 1 in the middle of the square,
 * the others uniformly in it; a link (both directions, each its own PRR) for
 * every pair at most RANGE apart. A disconnected draw is thrown away whole and
 * drawn again (up to SIM_RANDOM_ATTEMPTS), so a seed always gives the same
 * connected topology.
 */
static int st_random(parse_ctx_t *ctx, int argc, char **argv)
{
    if (argc != 6) {
        return fail(ctx, "usage: random N SIDE RANGE PRR_MIN PRR_MAX");
    }
    uint64_t n, side, range;
    if (parse_uint(argv[1], SIM_MAX_NODES, &n) < 0 || n == 0) {
        return fail(ctx, "bad node count '%s' (want 1..%u)", argv[1], SIM_MAX_NODES);
    }
    if (parse_uint(argv[2], (uint64_t)SIM_POSITION_MAX, &side) < 0 || side == 0) {
        return fail(ctx, "bad side '%s' (want 1..%ld)", argv[2], SIM_POSITION_MAX);
    }
    if (parse_uint(argv[3], (uint64_t)SIM_POSITION_MAX, &range) < 0 || range == 0) {
        return fail(ctx, "bad range '%s' (want 1..%ld)", argv[3], SIM_POSITION_MAX);
    }
    prr_range_t prr;
    if (parse_prr_range(ctx, 2, &argv[4], &prr) < 0) {
        return -EINVAL;
    }
    if (prr.min == 0) {
        return fail(ctx, "PRR_MIN must be above 0 (a link of PRR 0 is no link)");
    }
    if (generated_nodes(ctx, "random topology", n) < 0) {
        return -EINVAL;
    }
    int64_t x[SIM_MAX_NODES], y[SIM_MAX_NODES];
    unsigned attempt = 0;
    do {
        if (attempt++ == SIM_RANDOM_ATTEMPTS) {
            return fail(ctx, "no connected topology in %u draws: raise RANGE or lower SIDE", SIM_RANDOM_ATTEMPTS);
        }
        x[0] = (int64_t)(side / 2u);
        y[0] = (int64_t)(side / 2u);
        for (unsigned i = 1; i < n; i++) {
            x[i] = (int64_t)random_between(ctx, 0, side);
            y[i] = (int64_t)random_between(ctx, 0, side);
        }
    } while (!connected(x, y, (unsigned)n, range));
    sim_topology_t *topo = ctx->topo;
    topo->drawn = true;
    topo->side = (uint32_t)side;
    for (unsigned a = 0; a < n; a++) {
        topo->x[a] = (int32_t)x[a];
        topo->y[a] = (int32_t)y[a];
        for (unsigned b = a + 1u; b < n; b++) {
            if (within(x, y, a, b, range)) {
                set_generated(ctx, a, b, &prr);
            }
        }
    }
    return 0;
}

static int st_link(parse_ctx_t *ctx, int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        return fail(ctx, "usage: link A B PRR [PRR_BACK]");
    }
    unsigned a, b;
    uint32_t there, back;
    if (parse_node(ctx, argv[1], &a) < 0 || parse_node(ctx, argv[2], &b) < 0 ||
        parse_prr_word(ctx, argv[3], &there) < 0) {
        return -EINVAL;
    }
    back = there;
    if (argc == 5 && parse_prr_word(ctx, argv[4], &back) < 0) {
        return -EINVAL;
    }
    if (a == b) {
        return fail(ctx, "link from node %u to itself", a + 1u);
    }
    set_link(ctx->topo, a, b, there);
    set_link(ctx->topo, b, a, back);
    return 0;
}

static int st_range(parse_ctx_t *ctx, int argc, char **argv)
{
    if (argc != 3) {
        return fail(ctx, "usage: range FULL MAX");
    }
    uint64_t full = 0, max = 0;
    if (parse_uint(argv[1], (uint64_t)SIM_POSITION_MAX, &full) < 0) {
        return fail(ctx, "bad distance '%s' (want 0..%ld)", argv[1], SIM_POSITION_MAX);
    }
    if (parse_uint(argv[2], (uint64_t)SIM_POSITION_MAX, &max) < 0) {
        return fail(ctx, "bad distance '%s' (want 0..%ld)", argv[2], SIM_POSITION_MAX);
    }
    if (max == 0) {
        return fail(ctx, "range MAX must be greater than 0");
    }
    if (full > max) {
        return fail(ctx, "range FULL %u exceeds MAX %u", (unsigned)full, (unsigned)max);
    }
    ctx->topo->has_range = true;
    ctx->topo->range_full = (uint32_t)full;
    ctx->topo->range_max = (uint32_t)max;
    return 0;
}

static int st_position(parse_ctx_t *ctx, int argc, char **argv)
{
    if (argc != 4) {
        return fail(ctx, "usage: position A X Y");
    }
    unsigned a;
    if (parse_node(ctx, argv[1], &a) < 0) {
        return -EINVAL;
    }
    int64_t xy[2];
    for (int i = 0; i < 2; i++) {
        if (parse_int(argv[2 + i], (uint64_t)SIM_POSITION_MAX, &xy[i]) < 0) {
            return fail(ctx, "bad coordinate '%s' (want an integer of magnitude at most %ld)", argv[2 + i],
                        SIM_POSITION_MAX);
        }
    }
    ctx->topo->has_position[a] = true;
    ctx->topo->x[a] = (int32_t)xy[0];
    ctx->topo->y[a] = (int32_t)xy[1];
    return 0;
}

static int st_router(parse_ctx_t *ctx, int argc, char **argv)
{
    if (argc != 2) {
        return fail(ctx, "usage: router A");
    }
    unsigned a;
    if (parse_node(ctx, argv[1], &a) < 0) {
        return -EINVAL;
    }
    ctx->topo->router[a] = true;
    return 0;
}

static int st_collisions(parse_ctx_t *ctx, int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "on") != 0 && strcmp(argv[1], "off") != 0)) {
        return fail(ctx, "usage: collisions on|off");
    }
    ctx->topo->collisions = (strcmp(argv[1], "on") == 0);
    return 0;
}

/** One statement keyword and its parser. */
typedef struct {
    const char *name;
    int (*parse)(parse_ctx_t *ctx, int argc, char **argv);
} statement_t;

static const statement_t statement_table[] = {
    { "nodes", st_nodes },       { "line", st_line },         { "grid", st_grid },
    { "random", st_random },     { "link", st_link },         { "range", st_range },
    { "position", st_position },
    { "router", st_router },     { "collisions", st_collisions },
};

/* One line (modified in place: words are cut out of it). */
static int parse_line(parse_ctx_t *ctx, char *line)
{
    char *hash = strchr(line, '#');
    if (hash != NULL) {
        *hash = '\0';
    }
    char *argv[WORDS_MAX];
    int argc = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r') {
            p++;
        }
        if (*p == '\0') {
            break;
        }
        if (argc == WORDS_MAX) {
            return fail(ctx, "too many words (a statement has at most %d)", WORDS_MAX - 1);
        }
        argv[argc++] = p;
        while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r') {
            p++;
        }
        if (*p != '\0') {
            *p++ = '\0';
        }
    }
    if (argc == 0) {
        return 0;
    }
    for (size_t i = 0; i < sizeof(statement_table) / sizeof(statement_table[0]); i++) {
        if (strcmp(argv[0], statement_table[i].name) == 0) {
            return statement_table[i].parse(ctx, argc, argv);
        }
    }
    return fail(ctx, "unknown statement '%s' (want %s)", argv[0], statements);
}

/* Checks over the whole file. */
static int finish(parse_ctx_t *ctx)
{
    const sim_topology_t *topo = ctx->topo;
    ctx->lineno = 0;
    if (topo->nodes == 0) {
        return fail(ctx, "no nodes (declare them with nodes N, line N or grid W H)");
    }
    for (unsigned i = 0; i < topo->nodes; i++) {
        if (topo->has_position[i] && !topo->has_range) {
            return fail(ctx, "node %u has a position but there is no range model (add range FULL MAX)", i + 1u);
        }
        if (topo->has_range && !topo->has_position[i]) {
            return fail(ctx, "range model on, but node %u has no position (add position %u X Y)", i + 1u,
                        i + 1u);
        }
    }
    return 0;
}

void sim_topology_init(sim_topology_t *topo)
{
    memset(topo, 0, sizeof(*topo));
    topo->seed = 1;
}

int sim_topology_parse(sim_topology_t *topo, const char *text, size_t len, sim_topology_error_t *err)
{
    if (topo == NULL || (text == NULL && len != 0) || err == NULL) {
        return -EINVAL;
    }
    memset(err, 0, sizeof(*err));
    parse_ctx_t ctx = { .topo = topo, .err = err, .lineno = 0, .rng = topo->seed };
    size_t pos = 0;
    while (pos < len) {
        ctx.lineno++;
        size_t end = pos;
        while (end < len && text[end] != '\n') {
            end++;
        }
        size_t line_len = end - pos;
        if (line_len > SIM_TOPOLOGY_LINE_MAX) {
            return fail(&ctx, "line too long (at most %u characters)", SIM_TOPOLOGY_LINE_MAX);
        }
        char line[SIM_TOPOLOGY_LINE_MAX + 1u];
        memcpy(line, &text[pos], line_len);
        line[line_len] = '\0';
        if (strlen(line) != line_len) {
            return fail(&ctx, "NUL byte in the line (not a text file?)");
        }
        int res = parse_line(&ctx, line);
        if (res < 0) {
            return res;
        }
        pos = end + 1u;
    }
    return finish(&ctx);
}
