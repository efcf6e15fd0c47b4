/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Fuzz pktbuf with operation sequences: the input is a program.
 *
 * Each input byte pair picks an operation and an argument on a small arena
 * with up to 8 held packets. After every operation the arena must be
 * consistent; at the end, after releasing everything, it must be empty.
 * Any violation aborts (and libFuzzer keeps the input).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern/pktbuf.h"

#define SLOTS 8

static void require(int cond)
{
    if (!cond) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static TERN_PKTBUF_STORAGE(arena, 1024);
    tern_pktbuf_t pb;
    tern_pkt_t *held[SLOTS] = { NULL };
    require(tern_pktbuf_init(&pb, arena, sizeof(arena), NULL) == 0);

    for (size_t i = 0; i + 1 < size; i += 2) {
        uint8_t op = data[i] % 10;
        uint8_t arg = data[i + 1];
        unsigned slot = (unsigned)(data[i] / 10u) % SLOTS;
        tern_pkt_t **p = &held[slot];
        switch (op) {
        case 0: /* add a snip (arg >= 192: a header and a data snip, add_pair; >= 224 add_pair_to_fill,
                 * then filled) in front of the slot's packet */
        {
            static const uint8_t fill[97] = { 0xA5 };
            tern_pkt_t *pkt = NULL;
            if (arg < 192u) {
                pkt = tern_pktbuf_add(&pb, *p, fill, arg % 97u, (tern_nettype_t)(arg % TERN_NETTYPE_NUMOF));
            } else if (arg < 224u) {
                pkt = tern_pktbuf_add_pair(&pb, *p, 1u + arg % 30u, TERN_NETTYPE_NETIF, 1u + (arg * 7u) % 97u,
                                           TERN_NETTYPE_SIXLOWPAN);
            } else {
                pkt = tern_pktbuf_add_pair_to_fill(&pb, 1u + arg % 30u, TERN_NETTYPE_NETIF, 1u + (arg * 7u) % 97u,
                                                   TERN_NETTYPE_SIXLOWPAN);
                if (pkt != NULL) {
                    memcpy(pkt->data, fill, pkt->size);
                    memcpy(pkt->next->data, fill, pkt->next->size);
                    require(pkt->next->next == NULL);
                    pkt->next->next = *p;
                }
            }
            if (pkt != NULL) {
                *p = pkt;
            }
            break;
        }
        case 1: /* share the packet with another slot */
            if (*p != NULL && held[(slot + 1) % SLOTS] == NULL && tern_pktbuf_hold(&pb, *p, 1) == 0) {
                held[(slot + 1) % SLOTS] = *p;
            }
            break;
        case 2:
            tern_pktbuf_release(&pb, *p);
            *p = NULL;
            break;
        case 3: /* mark a header off, or (arg >= 128) drop it: trim_front */
            if (*p != NULL && (*p)->users == 1) {
                if (arg < 128u) {
                    (void)tern_pktbuf_mark(&pb, *p, arg % 40u, TERN_NETTYPE_UDP);
                } else {
                    size_t before = (*p)->size;
                    int r = tern_pktbuf_trim_front(&pb, *p, arg % 40u);
                    require(r < 0 || (*p)->size == before - arg % 40u);
                }
            }
            break;
        case 4:
            if (*p != NULL) {
                tern_pkt_t *w = tern_pktbuf_start_write(&pb, *p);
                if (w != NULL) {
                    *p = w;
                    if (w->size > 0) {
                        ((uint8_t *)w->data)[0] ^= arg;
                    }
                }
            }
            break;
        case 5:
            if (*p != NULL && (*p)->users == 1) {
                (void)tern_pktbuf_realloc_data(&pb, *p, arg);
            }
            break;
        case 6:
            if (*p != NULL) {
                bool private_list = true;
                for (tern_pkt_t *s = *p; s != NULL; s = s->next) {
                    private_list = private_list && s->users == 1;
                }
                if (private_list) {
                    (void)tern_pktbuf_merge(&pb, *p);
                }
            }
            break;
        case 7:
            if (*p != NULL) {
                tern_pkt_t *w = tern_pktbuf_start_write_upto(&pb, *p, (tern_nettype_t)(arg % TERN_NETTYPE_NUMOF));
                if (w != NULL) {
                    *p = w;
                }
            }
            break;
        case 8: /* remove the second snip when the path to it is private */
            if (*p != NULL && (*p)->users == 1 && (*p)->next != NULL) {
                *p = tern_pktbuf_remove_snip(&pb, *p, (*p)->next);
            }
            break;
        default: { /* scatter list and copy of whatever the slot holds */
            tern_iolist_t vec[4];
            uint8_t out[2048];
            (void)tern_pkt_to_iolist(*p, vec, 4);
            int n = tern_pkt_copy_out(*p, out, sizeof(out));
            require(n < 0 || (size_t)n == tern_pkt_len(*p));
            break;
        }
        }
        require(tern_pktbuf_check(&pb) == 0);
    }
    for (unsigned s = 0; s < SLOTS; s++) {
        tern_pktbuf_release(&pb, held[s]);
    }
    require(tern_pktbuf_check(&pb) == 0);
    require(tern_pktbuf_is_empty(&pb));
    return 0;
}
