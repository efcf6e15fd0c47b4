/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief iphc_codec: Tern's 6LoWPAN IPHC/NHC codec on stdin/stdout, for
 *        cross-checks against independent implementations
 *        (tests/integration/test_iphc_scapy.py).
 *
 * One request per line, one answer per line:
 *
 *   compress   SRC DST CONTEXTS IPV6_HEX
 *   decompress SRC DST CONTEXTS DATAGRAM_SIZE FRAME_HEX
 *
 * SRC, DST: the link-layer addresses in hex (4 digits: short address, 16:
 * EUI-64), or "-" for none. CONTEXTS: "-" or a comma-separated list of
 * ID=PREFIX/LEN[@FLAGS], e.g. "0=2001:db8::/64,3=2001:db8:1::/48@d"; FLAGS
 * is any of "c" (valid for compression) and "d" (for decompression), default
 * "cd". DATAGRAM_SIZE: 0 for "the frame holds the whole datagram", else the
 * FRAG1 datagram_size.
 *
 * Answers: "ok CONSUMED HEX", where for compress HEX is the compressed frame
 * payload (compressed headers, then the rest of the datagram) and CONSUMED
 * the datagram bytes the compressed headers stand for; for decompress HEX is
 * the datagram (uncompressed headers, then the frame's payload) and CONSUMED
 * the compressed header bytes. On error: "err -ERRNO"; for a malformed
 * request: "usage ...".
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tern/wire/sixlowpan_iphc.h"

#define LINE_MAX_LEN 16384
#define BYTES_MAX 4096

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Parse @p text as hex into @p out; returns the byte count or -1. */
static long parse_hex(const char *text, uint8_t *out, size_t max)
{
    size_t len = strlen(text);
    if (len % 2 != 0 || len / 2 > max) {
        return -1;
    }
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hex_digit(text[2 * i]);
        int lo = hex_digit(text[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            return -1;
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(len / 2);
}

static bool parse_l2addr(const char *text, tern_iphc_l2addr_t *addr)
{
    memset(addr, 0, sizeof(*addr));
    if (strcmp(text, "-") == 0) {
        return true;
    }
    long n = parse_hex(text, addr->u8, sizeof(addr->u8));
    if (n != 2 && n != 8) {
        return false;
    }
    addr->len = (uint8_t)n;
    return true;
}

/* "-" or ID=PREFIX/LEN[@FLAGS],... into @p table (count = highest ID + 1). */
static bool parse_contexts(char *text, tern_iphc_context_t *table, uint8_t *count)
{
    memset(table, 0, sizeof(tern_iphc_context_t) * TERN_IPHC_CONTEXT_MAX);
    *count = 0;
    if (strcmp(text, "-") == 0) {
        return true;
    }
    char *save = NULL;
    for (char *item = strtok_r(text, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        char *slash = eq != NULL ? strchr(eq, '/') : NULL;
        if (eq == NULL || slash == NULL) {
            return false;
        }
        char *end = NULL;
        unsigned long id = strtoul(item, &end, 10);
        if (end != eq || id >= TERN_IPHC_CONTEXT_MAX) {
            return false;
        }
        tern_iphc_context_t *ctx = &table[id];
        if (tern_ipv6_addr_from_str(&ctx->prefix, eq + 1, (size_t)(slash - eq - 1)) < 0) {
            return false;
        }
        unsigned long plen = strtoul(slash + 1, &end, 10);
        if (end == slash + 1 || plen > 128) {
            return false;
        }
        ctx->prefix_len = (uint8_t)plen;
        ctx->flags = TERN_IPHC_CONTEXT_COMPRESS | TERN_IPHC_CONTEXT_DECOMPRESS;
        ctx->id = (uint8_t)id;
        if (*end == '@') {
            ctx->flags = 0;
            for (const char *f = end + 1; *f != '\0'; f++) {
                if (*f == 'c') {
                    ctx->flags |= TERN_IPHC_CONTEXT_COMPRESS;
                } else if (*f == 'd') {
                    ctx->flags |= TERN_IPHC_CONTEXT_DECOMPRESS;
                } else {
                    return false;
                }
            }
        } else if (*end != '\0') {
            return false;
        }
        if (id + 1 > *count) {
            *count = (uint8_t)(id + 1);
        }
    }
    return true;
}

static void print_hex(const uint8_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        printf("%02x", a[i]);
    }
}

static void handle(char *line)
{
    char *fields[6];
    size_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \t\r\n", &save); tok != NULL && n < 6;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        fields[n++] = tok;
    }
    if (n == 0) {
        return;
    }
    bool compress = strcmp(fields[0], "compress") == 0;
    bool decompress = strcmp(fields[0], "decompress") == 0;
    if ((!compress && !decompress) || n != (compress ? 5u : 6u)) {
        printf("usage: compress SRC DST CONTEXTS HEX | decompress SRC DST CONTEXTS SIZE HEX\n");
        return;
    }
    tern_iphc_context_t contexts[TERN_IPHC_CONTEXT_MAX];
    tern_iphc_link_t link = { .contexts = contexts };
    if (!parse_l2addr(fields[1], &link.src) || !parse_l2addr(fields[2], &link.dst) ||
        !parse_contexts(fields[3], contexts, &link.context_count)) {
        printf("usage: bad address or context\n");
        return;
    }
    static uint8_t in[BYTES_MAX];
    static uint8_t out[BYTES_MAX + TERN_IPHC_DECOMPRESSED_MAX];
    long len = parse_hex(fields[compress ? 4 : 5], in, sizeof(in));
    if (len < 0) {
        printf("usage: bad hex\n");
        return;
    }
    size_t consumed = 0;
    int res;
    if (compress) {
        res = tern_iphc_compress(&link, in, (size_t)len, out, sizeof(out), &consumed);
        if (res >= 0) {
            printf("ok %zu ", consumed);
            print_hex(out, (size_t)res);
            print_hex(in + consumed, (size_t)len - consumed);
            printf("\n");
        }
    } else {
        char *end = NULL;
        unsigned long size = strtoul(fields[4], &end, 10);
        if (*end != '\0') {
            printf("usage: bad datagram size\n");
            return;
        }
        res = tern_iphc_decompress(&link, in, (size_t)len, size, out, sizeof(out), &consumed);
        if (res >= 0) {
            printf("ok %zu ", consumed);
            print_hex(out, (size_t)res);
            print_hex(in + consumed, (size_t)len - consumed);
            printf("\n");
        }
    }
    if (res < 0) {
        printf("err %d\n", res);
    }
}

int main(void)
{
    static char line[LINE_MAX_LEN];
    while (fgets(line, sizeof(line), stdin) != NULL) {
        handle(line);
        fflush(stdout);
    }
    return 0;
}
