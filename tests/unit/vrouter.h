/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test fixture: a router with two interfaces on test devices, under
 *        virtual time. Shared by test_ipv6_forward.c and test_ipv6_tunnel.c.
 *
 * Two test devices carry bare IPv6 packets (raw link, 48-bit addresses
 * NODE_MAC[k]): if1 (links[0]) on 2001:db8:1::/64 (MTU 1500), if2 (links[1])
 * on 2001:db8:2::/64 (MTU 1280); the router's addresses are 2001:db8:1::1
 * and 2001:db8:2::1. vrouter_start() ends with the peer on if1
 * (2001:db8:1::100) in the neighbor cache from its Neighbor Solicitation;
 * the test announces other neighbors with solicit_from(). Frames the router
 * sends are captured per link in links[k].sent; frames for it are built with
 * the wire functions and handed over with receive(). Globals are fine here:
 * this is test code, one router per test program.
 */
#ifndef VROUTER_H
#define VROUTER_H

#include <stddef.h>
#include <stdint.h>

#include "tern/ipv6/ipv6.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/wire/ipv6.h"

#define MS 1000u
#define SEC 1000000u
/** Frames kept of what the router sent on one link. */
#define MAX_SENT 16

/** One test device, its interface, and the frames the node sent through it. */
typedef struct {
    tern_netdev_test_t dev;
    tern_netif_t netif;
    uint8_t sent[MAX_SENT][1600];
    size_t sent_len[MAX_SENT];
    unsigned nsent;
    uint8_t rx[1600];
} link_t;

extern tern_vclock_t clock_v;
extern tern_loop_t loop;
extern tern_stack_t stack;
extern tern_ipv6_t ip;
extern link_t links[2];
/** The router's link address on link k, and the peers' (solicit_from()). */
extern const uint8_t NODE_MAC[2][6];
extern const uint8_t PEER_MAC[2][6];

/** A fresh stack with the IPv6 module at virtual time 0: the test may add its own modules before vrouter_start(). */
void vrouter_init(void);
/**
 * Both links up, router mode on, the router's two addresses past DAD, and the
 * peer on if1 (2001:db8:1::100) announced; what the router sent meanwhile is
 * left in links[k].sent (clear_sent()).
 */
void vrouter_start(void);
/** Run until idle, stop; drop what neighbor-cache entries hold queued; assert pktbuf consistent and empty. */
void vrouter_teardown(void);
/** Run @p us of virtual time. */
void run_for(uint64_t us);
/** Forget the frames sent so far on both links. */
void clear_sent(void);
/** Hand @p len bytes of IPv6 packet to the node on link @p k and let it work. */
void receive(unsigned k, const uint8_t *pkt, size_t len);
/** @p text as an address (asserts it parses). */
tern_ipv6_addr_t A(const char *text);
/** An IPv6 packet carrying ICMPv6 message @p msg (checksum filled). @return its length. */
size_t build_icmp(uint8_t *out, const char *src, const char *dst, uint8_t hop, const uint8_t *msg, size_t msg_len);
/** An echo request with @p data_len bytes of data (0xa5). @return its length. */
size_t build_echo(uint8_t *out, const char *src, const char *dst, uint8_t hop, size_t data_len);
/**
 * The peer @p src on link @p k sends a Neighbor Solicitation (with its SLLA,
 * PEER_MAC[k]) for the router's address there (2001:db8:k+1::1): the router
 * caches it STALE and answers.
 */
void solicit_from(unsigned k, const char *src);
/** Parse frame @p i sent on link @p k: header into @p h; return the ICMPv6 type (checksum checked). */
uint8_t sent_icmp(unsigned k, unsigned i, tern_ipv6_repr_t *h);

#endif /* VROUTER_H */
