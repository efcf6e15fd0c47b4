/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Source address selection (RFC 6724 §4, §5), the rules that apply to a
 *        node without Mobile IPv6 and temporary addresses.
 *
 * Applied rules, in order: 1 prefer the destination itself; 2 prefer the
 * appropriate scope; 3 avoid deprecated addresses; 5 prefer the outgoing
 * interface; 6 prefer a matching label (default policy table, §2.1);
 * 8 longest matching prefix (up to the source's prefix length). Rules 4
 * (home addresses) and 7 (temporary addresses) do not apply: Tern has
 * neither. Tentative and duplicate addresses are never candidates
 * (RFC 4862 §5.4); for link-local and multicast link-scope destinations only
 * addresses of the outgoing interface are (§4).
 */
#ifndef TERN_IPV6_SRCSEL_H
#define TERN_IPV6_SRCSEL_H

#include <stddef.h>
#include <stdint.h>

#include "tern/wire/ipv6_addr.h"

/** State of an interface address (RFC 4862 §2). */
typedef enum {
    TERN_IPV6_ADDR_TENTATIVE = 0, /**< DAD in progress: not usable */
    TERN_IPV6_ADDR_PREFERRED,     /**< usable */
    TERN_IPV6_ADDR_DEPRECATED,    /**< usable, but avoided for new communication */
    TERN_IPV6_ADDR_DUPLICATE,     /**< DAD failed: never used */
} tern_ipv6_addr_state_t;

/** One address a source can be chosen from. */
typedef struct {
    tern_ipv6_addr_t addr; /**< the address */
    uint16_t if_index;     /**< its interface */
    uint8_t prefix_len;    /**< its prefix length (for rule 8) */
    uint8_t state;         /**< tern_ipv6_addr_state_t */
} tern_srcsel_candidate_t;

/**
 * Choose the source for @p dst leaving through @p out_if.
 * @return index into @p cands; -EADDRNOTAVAIL when no candidate is eligible.
 */
int tern_srcsel_choose(const tern_srcsel_candidate_t *cands, size_t n, const tern_ipv6_addr_t *dst,
                       uint16_t out_if);

/** Label of @p a in the default policy table (RFC 6724 §2.1). */
unsigned tern_srcsel_label(const tern_ipv6_addr_t *a);

#endif /* TERN_IPV6_SRCSEL_H */
