/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Non-storing mode (MOP 1), a node's part: the parent address it
 *        announces in its DAOs' Transit Information (RFC 6550 §9.7,
 *        §6.7.8). Built whether or not the root's part (nonstoring.c,
 *        TERN_CONF_RPL_NS_LINKS) is.
 */
#include <errno.h>
#include <string.h>

#include "rpl_internal.h"

int rpl_ns_parent_address(tern_rpl_t *rpl, tern_ipv6_addr_t *out)
{
    const tern_rpl_parent_t *p = rpl_dodag_preferred(rpl);
    if (p == NULL || rpl->prefix_len == 0 || tern_ipv6_addr_is_unspecified(&rpl->prefix)) {
        return -ENETUNREACH;
    }
    *out = rpl->prefix;
    memcpy(&out->u8[8], &p->addr.u8[8], 8);
    return 0;
}
