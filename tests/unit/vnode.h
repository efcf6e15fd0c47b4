/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test fixture: one node with IPv6 on the test device, under virtual time.
 *
 * The test device carries bare IPv6 packets (raw link) and has a 48-bit
 * address (NODE_MAC), so the IPv6 module behaves as on Ethernet (RFC 2464
 * identifiers and multicast mapping). Frames the node sends are captured in
 * sent[] (MLDv2 reports left out: test_mld.c checks those); frames for it are
 * built with the wire functions and handed over with receive(). Globals are
 * fine here: this is test code, one node per test program.
 */
#ifndef VNODE_H
#define VNODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/ipv6/ipv6.h"
#include "tern/netdev/test.h"
#include "tern/port/loop.h"
#include "tern/wire/ipv6.h"

#define MS 1000u
#define SEC 1000000u
/** Frames kept of what the node sent. */
#define MAX_SENT 32

extern tern_vclock_t clock_v;
extern tern_loop_t loop;
extern tern_stack_t stack;
extern tern_ipv6_t ip;
extern tern_netdev_test_t dev;
extern tern_netif_t netif;
extern const uint8_t NODE_MAC[6];
extern const uint8_t PEER_MAC[6];
/** The node's link-local address (modified EUI-64 of NODE_MAC) and the peer's. */
extern const char *const NODE_LL;
extern const char *const PEER_LL;
extern uint8_t sent[MAX_SENT][1500];
extern uint64_t sent_at[MAX_SENT];
extern size_t sent_len[MAX_SENT];
extern unsigned nsent;
extern uint8_t rx[1500];

/** A fresh node (stack, IPv6, test device with MTU @p mtu, IPv6 enabled) at virtual time 0. */
void vnode_setup(uint16_t mtu);
/** Stop the node; assert its packet buffer is consistent and empty. */
void vnode_teardown(void);
/** Run @p us of virtual time. */
void run_for(uint64_t us);
/** Hand @p len bytes of IPv6 packet to the node and let it work. */
void receive(const uint8_t *pkt, size_t len);
/** Let DAD of the link-local address finish, then forget the frames sent so far. */
void settle(void);
/** @p text as an address (asserts it parses). */
tern_ipv6_addr_t A(const char *text);
/** An IPv6 packet carrying the ICMPv6 message @p msg (checksum filled). @return its length. */
size_t build_icmp(uint8_t *out, const char *src, const char *dst, uint8_t hop, const uint8_t *msg, size_t msg_len);
/** An echo request with identifier 0x1234, @p seq and 12 bytes "tern-echo-12". */
size_t build_echo(uint8_t *out, const char *src, const char *dst, uint16_t seq);
/** An NS for @p target (with the peer's SLLA unless @p src is ::). */
size_t build_ns(uint8_t *out, const char *src, const char *dst, const char *target, uint8_t hop);
/** An NA for @p target with @p flags and the peer's TLLA. */
size_t build_na(uint8_t *out, const char *src, const char *dst, const char *target, uint8_t flags);
/** Parse sent frame @p i into @p h; return its ICMPv6 type (checksum asserted). */
uint8_t sent_icmp(unsigned i, tern_ipv6_repr_t *h);
/** IPv6 module counter @p c. */
uint32_t counter(unsigned c);
/** State of the node's address @p text (fails the test if it has none such). */
tern_ipv6_addr_state_t addr_state(const char *text);

#endif /* VNODE_H */
