/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test fixture: a mesh of up to NODES_MAX whole nodes (RPL, IPv6, UDP,
 *        6LoWPAN, the 802.15.4 MAC) on the simulated radio medium, under
 *        virtual time (one event loop). Shared by test_rpl_dodag.c (storing
 *        mode) and test_rpl_nonstoring.c (non-storing mode).
 *
 * network_setup() builds the nodes (node i has EUI-64 02:12:4b:00:00:00:00:i+1,
 * a UDP socket on PORT that echoes, node 0's counts the echoes); the test sets
 * the links (tern_radio_medium_link_set_both()) and calls start_rpl_mop():
 * node 0 becomes the root under 2001:db8::1, the others routers (or one leaf).
 * teardown() stops RPL, runs past every timeout and asserts every node's
 * packet buffer empty. Globals are fine here: this is test code, one mesh per
 * test program.
 */
#ifndef RPL_MESH_H
#define RPL_MESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/ipv6/ipv6.h"
#include "tern/link/ieee802154.h"
#include "tern/netdev/radio_medium.h"
#include "tern/netdev/sim_radio.h"
#include "tern/port/loop.h"
#include "tern/rpl/rpl.h"
#include "tern/sixlowpan/sixlowpan.h"
#include "tern/sock_udp.h"
#include "tern/udp.h"

#define MS 1000u
#define SEC 1000000u
#define PAN 0xabcdu
#define PORT 7000u
#define NODES_MAX 9u
#define INSTANCE 1u

typedef struct {
    tern_stack_t stack;
    tern_ipv6_t ip;
    tern_udp_t udp;
    tern_sixlowpan_t lowpan;
    tern_rpl_t rpl;
    tern_sim_radio_t radio;
    tern_ieee802154_link_t mac;
    tern_netif_t netif;
    tern_sock_udp_t sock;
    uint8_t eui[8];
    char name[8];
} node_t;

extern tern_vclock_t clock_v;
extern tern_loop_t loop;
extern tern_radio_medium_t medium;
extern node_t nodes[NODES_MAX];
extern unsigned node_count;      /**< nodes in use */
extern unsigned echoes;          /**< UDP echoes node 0 received */
extern tern_rpl_state_t st;      /**< scratch for tern_rpl_get_state() */

/** Run the loop for @p us of virtual time. */
void run_for(uint64_t us);

/** 2001:db8::@p last. */
tern_ipv6_addr_t prefix_addr(uint8_t last);

/** @p count nodes (at most NODES_MAX), no links yet. */
void network_setup(unsigned count);

/** network_setup(@p count), then a line: node i linked to node i + 1, both ways, PRR 1. */
void network_line(unsigned count);

/**
 * network_setup(9), then a 3x3 grid: node y * 3 + x linked to its right and
 * lower neighbours, both ways, PRR 1; node 4 is the middle.
 */
void network_grid3x3(void);

/**
 * Every node of the 3x3 grid but the middle one (node 4) joined, with a
 * preferred parent other than the middle node.
 */
bool all_but_middle_joined(void);

/**
 * Node 0 gets 2001:db8::1/64 and roots a DODAG of mode of operation @p mop
 * (TERN_RPL_MOP_STORING or TERN_RPL_MOP_NON_STORING); the others are routers
 * but node @p leaf (0: none), a leaf.
 */
void start_rpl_mop(unsigned leaf, uint8_t mop);

/** cmocka teardown: stop RPL, run past every timeout, every pktbuf empty. */
int teardown(void **state);

/** Has node @p i a preferred address in 2001:db8::/64? Copied to @p out (may be NULL). */
bool has_global(unsigned i, tern_ipv6_addr_t *out);

/** Rank of the node whose link-local address is @p ll, or 0. */
uint16_t rank_of(const tern_ipv6_addr_t *ll);

/** Every node joined with a parent of lower rank, and has a global address. */
bool all_joined(void);

/** Every node's rank above its preferred parent's (RFC 6550 §8.2.1), all in the root's version. */
void assert_loop_free(void);

/** Wait up to @p limit_us for @p cond, in steps of 1 s. @return the time it took, or UINT64_MAX. */
uint64_t wait_for(bool (*cond)(void), uint64_t limit_us);

/** UDP from the root to node @p i and its echo back, within 5 s. */
bool udp_round_trip(unsigned i);

/**
 * udp_round_trip() until it succeeds, at most @p tries times (the 6LoWPAN
 * contexts of the root's prefix reach the mesh with the routers' RAs,
 * RFC 6775 §8.1; until then compressed packets can not be read).
 */
bool reach(unsigned i, unsigned tries);

/** Node @p i's link-local address (from its EUI-64). */
tern_ipv6_addr_t ll_of(unsigned i);

/**
 * An ICMPv6 message @p msg (@p len bytes; its checksum is filled in when it
 * has one, @p len >= 4) handed to node @p to's IPv6 module as if node @p from
 * had sent it from its link-local address to @p dst (NULL: node @p to's
 * link-local address), hop limit 255; then 10 ms run.
 */
void mesh_inject_icmpv6(unsigned from, unsigned to, const tern_ipv6_addr_t *dst, const uint8_t *msg, size_t len);

/** Is node @p i's preferred parent node @p parent? */
bool parent_is(unsigned i, unsigned parent);

/** Storing root: a /128 route to every node's global address in RPL's table. */
bool root_routes_all(void);

#if TERN_CONF_RPL_NS_LINKS > 0
/** Non-storing root: a link for every node's global address. */
bool root_links_all(void);
#endif

#endif /* RPL_MESH_H */
