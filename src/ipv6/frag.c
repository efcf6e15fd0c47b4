/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fragmentation of IPv6 packets we originate (RFC 8200 §4.5).
 *
 * Read first: RFC 8200 §4.5 (fragment sizes, Identification), §5 (link
 * MTU), RFC 8201 §4 (Path MTU), RFC 7739 (unpredictable Identification),
 * RFC 8021 (no atomic fragments are generated).
 *
 * Our own packets are cut to the path MTU: the destination cache's estimate
 * learnt from a Packet Too Big (never below 1280, RFC 8201 §4), else the
 * link MTU. A Packet Too Big reporting less than 1280 changes nothing
 * (RFC 8201 §4: it is discarded), so no packet gets a Fragment header
 * without being fragmented (RFC 8021 deprecated those atomic fragments).
 * Forwarded packets are never fragmented (RFC 8200 §5, forward.c); a tunnel
 * packet the root builds around one is its own (RFC 2473 §7.1, tunnel.c).
 *
 * ipv6_frag_split() cuts; its caller names the unfragmentable part's length
 * and sends each fragment. For our packets (ipv6_frag_output()) that part
 * is the IPv6 header and the RPL Option's Hop-by-Hop header; each fragment
 * is [Fragment header, slice], sent through ipv6_output() (which adds
 * them, and address resolution as any packet). For a tunnel packet it is
 * also the Source Routing Header (RFC 8200 §4.5: the headers routers on
 * the way process), which tunnel.c puts before each fragment. Fragments are
 * cut from the end of the payload and sent at once, last first (RFC 8200
 * §4.5 sets no order; the receiver learns the length from the first one it
 * gets and can size its buffer once). A contiguous payload held alone is
 * split in place with tern_pktbuf_mark(), copying nothing; otherwise each
 * slice is copied into its own snip and, if the payload is held alone, cut
 * off it, so that the pktbuf never holds the datagram twice.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "ipv6_internal.h"

_Static_assert(TERN_CONF_IPV6_FRAG, "frag.c is left out of the build when TERN_CONF_IPV6_FRAG is 0 (set it through CMake)");

/* ipv6_link_mtu() and ipv6_path_mtu(): pmtu.c (built without fragmentation too). */

/* Copy @p len bytes from offset @p off of the snip list @p pkt to @p out. */
static void copy_range(const tern_pkt_t *pkt, size_t off, uint8_t *out, size_t len)
{
    for (const tern_pkt_t *s = pkt; s != NULL && len > 0; s = s->next) {
        if (off >= s->size) {
            off -= s->size;
            continue;
        }
        size_t take = s->size - off;
        take = (take < len) ? take : len;
        memcpy(out, (const uint8_t *)s->data + off, take);
        out += take;
        len -= take;
        off = 0;
    }
}

/* Keep the first @p keep (> 0) bytes of @p pkt, every snip of it held alone. */
static void trim(tern_pktbuf_t *pb, tern_pkt_t *pkt, size_t keep)
{
    size_t pos = 0;
    for (tern_pkt_t *s = pkt; s != NULL; s = s->next) {
        if (pos + s->size >= keep) {
            tern_pkt_t *rest = s->next;
            s->next = NULL;
            tern_pktbuf_release(pb, rest);
            if (keep - pos < s->size) {
                (void)tern_pktbuf_realloc_data(pb, s, keep - pos); /* shrinking: in place */
            }
            return;
        }
        pos += s->size;
    }
}

int ipv6_frag_split(tern_ipv6_t *ip, size_t mtu, size_t unfrag_len, uint8_t nh, tern_pkt_t *payload,
                    ipv6_frag_send_t send, void *ctx)
{
    tern_pktbuf_t *pb = ipv6_pktbuf(ip);
    size_t len = tern_pkt_len(payload);
    /* §4.5: every fragment but the last carries a multiple of 8 bytes. */
    size_t per = (mtu > unfrag_len + TERN_IPV6_FRAG_HDR_LEN)
                     ? ((mtu - unfrag_len - TERN_IPV6_FRAG_HDR_LEN) & ~(size_t)7u)
                     : 0u;
    if (per == 0) {
        ipv6_count(ip, TERN_IPV6_FRAG_FAIL);
        tern_pktbuf_release(pb, payload);
        return -EMSGSIZE;
    }
    bool alone = true;
    for (const tern_pkt_t *s = payload; s != NULL; s = s->next) {
        alone = alone && s->users == 1;
    }
    /* A contiguous payload held alone on an aligned address is split in
     * place (tern_pktbuf_mark() moves no byte there): no copy at all. */
    bool in_place = alone && payload->next == NULL && ((uintptr_t)payload->data % TERN_PKTBUF_ALIGN) == 0;
    if (!ip->frag.identification_seeded) {
        /* RFC 7739 §5: an unpredictable start; then one per datagram (§4.5). */
        ip->frag.next_identification = ipv6_random(ip);
        ip->frag.identification_seeded = true;
    }
    uint32_t id = ip->frag.next_identification++;
    ipv6_count(ip, TERN_IPV6_FRAG_OK);
    int res = 0;
    size_t count = (len + per - 1u) / per;
    for (size_t k = count; k-- > 0;) {
        size_t off = k * per;
        size_t n = (len - off < per) ? (len - off) : per;
        tern_pkt_t *frag = NULL;
        if (in_place) {
            tern_pkt_t *data = payload;
            tern_pkt_t *front = (k > 0) ? tern_pktbuf_mark(pb, payload, off, TERN_NETTYPE_UNDEF) : NULL;
            if (k == 0 || front != NULL) {
                data->next = NULL;
                payload = front;
                frag = tern_pktbuf_add(pb, data, NULL, TERN_IPV6_FRAG_HDR_LEN, TERN_NETTYPE_IPV6_EXT);
                if (frag == NULL) {
                    tern_pktbuf_release(pb, data);
                }
            }
        } else {
            frag = tern_pktbuf_add(pb, NULL, NULL, TERN_IPV6_FRAG_HDR_LEN + n, TERN_NETTYPE_IPV6_EXT);
            if (frag != NULL) {
                copy_range(payload, off, (uint8_t *)frag->data + TERN_IPV6_FRAG_HDR_LEN, n);
                if (alone && off > 0) {
                    trim(pb, payload, off);
                }
            }
        }
        if (frag == NULL) {
            ipv6_count(ip, TERN_IPV6_FRAG_FAIL);
            tern_pktbuf_release(pb, payload);
            return -ENOMEM;
        }
        tern_ipv6_frag_repr_t f = { .next_header = nh, .offset = (uint16_t)(off / 8u), .more = k + 1u < count,
                                    .identification = id };
        (void)tern_ipv6_frag_emit(&f, frag->data, TERN_IPV6_FRAG_HDR_LEN);
        ipv6_count(ip, TERN_IPV6_FRAG_SENT);
        int r = send(ip, ctx, frag);
        res = (res == 0) ? r : res;
    }
    tern_pktbuf_release(pb, payload); /* what the copies left (NULL in place) */
    return res;
}

/* Where ipv6_frag_output() sends its fragments. */
typedef struct {
    tern_ipv6_if_t *ipif;
    const tern_ipv6_addr_t *src;
    const tern_ipv6_addr_t *dst;
    uint8_t hop_limit;
} output_ctx_t;

static int send_output(tern_ipv6_t *ip, void *ctx, tern_pkt_t *frag)
{
    const output_ctx_t *c = ctx;
    return ipv6_output(ip, c->ipif, c->src, c->dst, TERN_IPV6_NH_FRAGMENT, c->hop_limit, frag);
}

int ipv6_frag_output(tern_ipv6_t *ip, tern_ipv6_if_t *ipif, const tern_ipv6_addr_t *src,
                     const tern_ipv6_addr_t *dst, uint8_t nh, uint8_t hop_limit, tern_pkt_t *payload)
{
    /* The RPL Option's Hop-by-Hop header goes in every fragment's
     * unfragmentable part (RFC 8200 §4.5; ipv6_output() adds it, rpi.c). */
    output_ctx_t c = { .ipif = ipif, .src = src, .dst = dst, .hop_limit = hop_limit };
    return ipv6_frag_split(ip, ipv6_path_mtu(ip, ipif, dst), TERN_IPV6_HDR_LEN + ipv6_rpi_len(ip, ipif, dst), nh,
                           payload, send_output, &c);
}
