/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Argument parsing shared by shell commands.
 */
#include <errno.h>
#include <string.h>

#include "tern/netif.h"
#include "tern/shell.h"

int tern_shell_parse_number(const char *text, uint32_t min, uint32_t max, uint32_t *out)
{
    uint64_t v = 0;
    if (text == NULL || *text == '\0') {
        return -EINVAL;
    }
    for (const char *p = text; *p != '\0'; p++) {
        if (*p < '0' || *p > '9' || (v = v * 10u + (uint64_t)(*p - '0')) > max) {
            return -EINVAL;
        }
    }
    if (v < min) {
        return -EINVAL;
    }
    *out = (uint32_t)v;
    return 0;
}

int tern_shell_parse_ipv6_dest(tern_shell_t *sh, const char *text, tern_ipv6_addr_t *addr, uint16_t *netif)
{
    const char *pct = strchr(text, '%');
    size_t alen = (pct != NULL) ? (size_t)(pct - text) : strlen(text);
    if (tern_ipv6_addr_from_str(addr, text, alen) < 0) {
        return -EINVAL;
    }
    *netif = 0;
    if (pct == NULL) {
        return 0;
    }
    uint32_t index = 0;
    bool numeric = tern_shell_parse_number(pct + 1, 1, 0xFFFFu, &index) == 0;
    for (tern_netif_t *n = sh->stack->netifs; n != NULL; n = n->next) {
        if (strcmp(n->name, pct + 1) == 0 || (numeric && n->index == index)) {
            *netif = n->index;
            return 0;
        }
    }
    return -ENODEV;
}
