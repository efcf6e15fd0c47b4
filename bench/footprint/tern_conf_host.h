/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Options of footprint configuration (a), the 6LoWPAN host (issue 6):
 *        passed as TERN_CONF_USER_HEADER by bench/run (step 4), together with
 *        the CMake feature switches of bench/footprint/host.cmake (files left
 *        out of the libraries: router functions, MLD, IPv6 fragmentation, RPL).
 *
 * One IEEE 802.15.4 radio, a host with a link-local and one global address
 * registered with its 6LoWPAN router (RFC 6775). Table sizes for that node,
 * each with its reason; everything not named keeps config.h's default.
 * TERN_CONF_PKTBUF_SIZE comes from bench/run (-D, the traversal run's high
 * water mark: one 1280-byte datagram plus one fragment, the thesis's
 * configuration); the default below is that figure for a plain build.
 */
#ifndef TERN_CONF_HOST_H
#define TERN_CONF_HOST_H

#ifndef TERN_CONF_PKTBUF_SIZE
#define TERN_CONF_PKTBUF_SIZE 1664
#endif

/* No trace ring (2 KiB of RAM at 64 entries, and a string table). */
#ifndef TERN_CONF_TRACE
#define TERN_CONF_TRACE 0
#endif

/* Drop counters count, `stats` names them by number: no name strings
 * (about 4 KiB of flash). */
#ifndef TERN_CONF_STATS_NAMES
#define TERN_CONF_STATS_NAMES 0
#endif

/* 16-bit counters, stopping at 65535 (lwIP's default width): half the RAM of
 * the drop counters. */
#ifndef TERN_CONF_STATS_COUNTER_BITS
#define TERN_CONF_STATS_COUNTER_BITS 16
#endif

/* No packet hand-off in the event loop (TERN_CONF_LOOP_HANDOFF_DEPTH 0):
 * every hop is queued and taken by the next step, as the threaded executor
 * does, instead of a direct call when the loop would run that module next
 * anyway. The hand-off is a speed optimisation only (a queue, a list walk and
 * a timer check less per hop); leaving it out saves about 390 B of code
 * (Cortex-M3, LTO) and nests no handlers on the stack. The host
 * benchmarks (bench/traversal, default configuration) keep it.
 */
#define TERN_CONF_LOOP_HANDOFF_DEPTH 0

/* Module message queues. Every hop is queued (above), one message at a time
 * along the chain, and the sources are few on this node: one radio (its
 * interrupt posts at most one message at a time, netif.c event_pending), one
 * timer per module, 6LoWPAN's one "next fragment" message
 * (frag_kick_pending) and one datagram fragmented at a time. bench/traversal
 * (loop executor without hand-off, UDP over 6LoWPAN of 8 to 1232 bytes in
 * steps of 102, with and without RPL, queues of these sizes) has at most one
 * message in any queue (two in 6LoWPAN's with RPL) and none refused. 4 per module (8 for
 * 6LoWPAN, which takes the frames, IPv6's datagrams, its timer and its own
 * message) instead of 8 and 16; a full queue refuses and counts
 * (queue_full), which the protocols here recover from (ND and RPL repeat). */
#define TERN_CONF_MODULE_QUEUE_LEN 4
#define TERN_CONF_SIXLOWPAN_QUEUE_LEN 8

/* Packets the radio interface holds behind the frame in flight (config.h's
 * 16 fits every fragment of a 1280-byte datagram at once; here 6LoWPAN sends
 * a datagram's next fragment only after the last one's outcome, and one
 * datagram is fragmented at a time): that next fragment and the few control
 * packets made while one frame is on the air (an NS or NA, a DIO or DAO, an
 * ICMPv6 error). A half-duplex radio receives nothing to forward while it
 * sends. bench/traversal (8 to 1232 bytes, with and without RPL) never has
 * more than one packet queued. One more is refused and counted
 * (tx_queue_full); its sender's protocol repeats it. */
#define TERN_CONF_NETIF_TX_QUEUE 4

/* The application's socket hands every datagram to its callback
 * (host_app.c): the ring tern_sock_udp_recv() reads is for a socket without
 * one, so 1; its module queue, like the others above (bench/traversal:
 * never used), config's minimum of 2. */
#define TERN_CONF_SOCK_UDP_RING 1
#define TERN_CONF_SOCK_UDP_QUEUE_LEN 2

/* One radio: one IPv6 interface, one 6LoWPAN interface. */
#define TERN_CONF_IPV6_IFS 1
#define TERN_CONF_SIXLOWPAN_NETIFS 1

/* Link-local (from the EUI-64) and one global address (SLAAC from the RA's
 * prefix, RFC 6775 §5.4). They share one solicited-node group (same IID),
 * all-nodes needs no entry: 2 groups. */
#define TERN_CONF_IPV6_ADDRS 2
#define TERN_CONF_MLD_GROUPS 2

/* Neighbor cache: on a 6LoWPAN link a host sends everything that is not
 * link-local to its router (RFC 6775 §5.6) and resolves nothing by
 * multicast; entries are its routers and the link-local peers it answers.
 * One packet waits per neighbor (RFC 4861 §7.2.2's minimum): there is no
 * resolution on the link to wait for. */
#define TERN_CONF_NC_SIZE 4
#define TERN_CONF_NC_QUEUE_LEN 1

/* Forwarding table: ::/0 via up to two default routers and the RA's
 * prefixes (a 6LoWPAN host takes none as on-link, RFC 6775 §5.6, but the
 * table holds what the RA says). */
#define TERN_CONF_FIB_SIZE 4

/* Destination cache: not built (TERN_CONF_IPV6_DCACHE 0 in host.cmake): a
 * host on one 6LoWPAN link sends everything off-link to its router (RFC 6775
 * §5.6) and its packets are at most 1280 bytes, the link's MTU, so Redirects
 * and Packet Too Big teach it nothing it needs; the cache keeps no table (1:
 * the one empty entry TERN_NETOPT_IPV6_DESTINATIONS answers). */
#define TERN_CONF_IPV6_DCACHE_SIZE 1

/* Route Information options a router's RAs carry (RFC 4191): routes it
 * reaches over another interface. A host image advertises none
 * (route_info_set() refuses); router (b) has one radio and no other
 * interface behind it: config.h's minimum of 1 (the application sets none). */
#define TERN_CONF_IPV6_ROUTE_INFO 1u

/* IPv6 reassembly (RFC 8200 §5: a node must accept 1500-byte reassembled
 * packets): one datagram at a time; fragments arrive in order from one
 * sender, so few ranges. */
#define TERN_CONF_IPV6_REASS_SLOTS 1
#define TERN_CONF_IPV6_REASS_RANGES 2

/* 6LoWPAN-ND: a registration per (address, router): the global address and
 * the link-local one with one router, or the global one with two. Contexts:
 * one (the mesh's prefix, RFC 6775 §4.2). The registration table is a
 * router's (min 1). */
#define TERN_CONF_IPV6_6LO_BINDINGS 2
#define TERN_CONF_IPV6_6LO_CONTEXTS 1
#define TERN_CONF_IPV6_6LO_REG_TABLE_SIZE 1

/* No source routes are inserted by a host (TERN_CONF_IPV6_ROUTER 0). */
#define TERN_CONF_IPV6_SRH_HOPS 1

/* IPHC contexts of the 6LoWPAN layer: they come from 6Lo-ND (the RA's 6CO,
 * RFC 6775 §4.2; a router's own), whose table holds
 * TERN_CONF_IPV6_6LO_CONTEXTS, with whatever identifier (0..15) each has. */
#define TERN_CONF_SIXLOWPAN_CONTEXTS TERN_CONF_IPV6_6LO_CONTEXTS

/* 6LoWPAN: one datagram reassembled and one fragmented at a time (the
 * packet buffer holds one 1280-byte datagram anyway), one more waiting. */
#define TERN_CONF_SIXLOWPAN_REASS_SLOTS 1
#define TERN_CONF_SIXLOWPAN_FRAG_SLOTS 1
#define TERN_CONF_SIXLOWPAN_FRAG_WAIT 1
/* Reassembly up to the 6LoWPAN link's IPv6 MTU (RFC 4944 §4: 1280), not the
 * 11-bit field's 2047: the slot's unit bitmaps 2 x 20 B instead of 2 x 32 B. */
#define TERN_CONF_SIXLOWPAN_REASS_SIZE_MAX 1280u
/* IPv6 + UDP headers and an RPL option: 48 + a few; room for a Hop-by-Hop
 * header with the RPL Option (RFC 6553) and a short source route. */
#define TERN_CONF_SIXLOWPAN_HEADERS_MAX 128

/* The radio does CSMA-CA and retransmissions itself (IEEE 802.15.4-2006
 * §7.5.1.4, §7.5.6.4.3; the stub driver answers TERN_NETOPT_HW_CSMA_RETRIES
 * with 1, as the AT86RF2xx, CC2538 and nRF52840 drivers of a real node do):
 * the interface's software CSMA-CA is left out. */
#define TERN_CONF_NETIF_SW_CSMA 0

/* No capture hook (packet captures are a host-side debugging aid, no
 * protocol needs one): TERN_NETOPT_CAPTURE answers -ENOTSUP. */
#define TERN_CONF_NETIF_CAPTURE 0

/* No TX status hook: its one user is RPL's parent selection (ETX, parent
 * loss), which neither image has (TERN_CONF_RPL_OF0, _MRHOF 0 in host.cmake
 * and router.cmake: the router is a DODAG root, RFC 6550 §8.2.2.2). Senders
 * still get every outcome through their NETERR reports. */
#define TERN_CONF_NETIF_TX_STATUS 0

/* Only IEEE 802.15.4 interfaces, which confirm every frame: no send path for
 * devices whose send() is the outcome (raw link, Ethernet); tern_netif_add()
 * refuses such a link (-ENOTSUP). */
#define TERN_CONF_NETIF_UNCONFIRMED 0

/* 802.15.4 duplicate detection: the router and a few neighbours. */
#define TERN_CONF_IEEE802154_DUP_SOURCES 4

/* The host sends no extension headers of its own (no RPL, no IPv6
 * fragmentation, no router functions): the compressor encodes IPv6 and UDP
 * only (RFC 6282 §3.1.1, §4.3); received NHC extension headers are still
 * decompressed. */
#define TERN_CONF_SIXLOWPAN_NHC_EXT 0

/* No ICMPv6 application (no ping) and no RPL: ICMPv6 messages are not handed
 * to other modules (echo replies and other types counted as icmp_unhandled;
 * echo requests are still answered, RFC 4443 §4.2). */
#define TERN_CONF_ICMPV6_DELIVER 0

/* No shell: the IPv6 module's tables are not copied out for inspection
 * (NEIGHBORS, ROUTES, ... answer -ENOTSUP; ADDRS and RPL_STATE, which
 * sockets and RPL read, stay). */
#define TERN_CONF_IPV6_INSPECT 0

/* Code size before speed: the datagram path's shortcuts (config.h) are
 * left out, every case takes the general code (same bytes on the wire). */
#define TERN_CONF_FAST_PATHS 0

#endif /* TERN_CONF_HOST_H */
