/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The one options header: every compile-time size and switch of Tern.
 *
 * A user's overrides come first: define TERN_CONF_USER_HEADER (e.g. from CMake,
 * `-DTERN_CONF_USER_HEADER=\"my_tern_conf.h\"`) or define single options with `-D`.
 * Every option then gets its documented default here. Each default states its
 * unit, its reason and what it costs in RAM; ranges are enforced at compile time.
 */
#ifndef TERN_CONFIG_H
#define TERN_CONFIG_H

#ifdef TERN_CONF_USER_HEADER
#include TERN_CONF_USER_HEADER
#endif

/* ---------------------------------------------------------------- pktbuf */

/**
 * Packet buffer arena size in bytes (per stack instance).
 * Default: room for four full 1280-byte IPv6 datagrams plus snip descriptors
 * and headers, as GNRC's default reasons. Cost: exactly this many bytes of RAM.
 * The thesis's minimal configuration (one datagram + one fragment) is 1676.
 */
#ifndef TERN_CONF_PKTBUF_SIZE
#define TERN_CONF_PKTBUF_SIZE 6144
#endif
_Static_assert(TERN_CONF_PKTBUF_SIZE >= 256 && TERN_CONF_PKTBUF_SIZE <= 0x7FFFFFF8,
               "TERN_CONF_PKTBUF_SIZE out of range [256, 2^31)");

/* ---------------------------------------------------------------- netapi */

/**
 * Most receivers one netapi dispatch can reach for one (nettype, context) pair,
 * counting ALL-context entries. Receivers beyond this are skipped and counted.
 * Cost: this many pointers of stack (C stack) per dispatch.
 */
#ifndef TERN_CONF_NETAPI_MAX_RECEIVERS
#define TERN_CONF_NETAPI_MAX_RECEIVERS 8
#endif
_Static_assert(TERN_CONF_NETAPI_MAX_RECEIVERS >= 1 && TERN_CONF_NETAPI_MAX_RECEIVERS <= 64,
               "TERN_CONF_NETAPI_MAX_RECEIVERS out of range [1, 64]");

/**
 * Default message queue length of a module, in messages (a power of two).
 * GNRC uses 8 for its protocol threads. Cost: 12 (32-bit) / 24 (64-bit) bytes each.
 */
#ifndef TERN_CONF_MODULE_QUEUE_LEN
#define TERN_CONF_MODULE_QUEUE_LEN 8
#endif
_Static_assert((TERN_CONF_MODULE_QUEUE_LEN & (TERN_CONF_MODULE_QUEUE_LEN - 1)) == 0 &&
               TERN_CONF_MODULE_QUEUE_LEN >= 2 && TERN_CONF_MODULE_QUEUE_LEN <= 1024,
               "TERN_CONF_MODULE_QUEUE_LEN must be a power of two in [2, 1024]");

/* ---------------------------------------------------------------- trace */

/**
 * Record every netapi hop in a ring buffer (1) or compile tracing out (0).
 * Cost when on: TERN_CONF_TRACE_LEN entries of 32 bytes per stack instance,
 * and one ring write per hop.
 */
#ifndef TERN_CONF_TRACE
#define TERN_CONF_TRACE 1
#endif

/** Entries kept in the trace ring (the oldest is overwritten). */
#ifndef TERN_CONF_TRACE_LEN
#define TERN_CONF_TRACE_LEN 64
#endif
_Static_assert(TERN_CONF_TRACE_LEN >= 1 && TERN_CONF_TRACE_LEN <= 65535,
               "TERN_CONF_TRACE_LEN out of range [1, 65535]");

/* ---------------------------------------------------------------- netif */

/** Longest link-layer address an interface can have, in bytes (EUI-64). */
#ifndef TERN_CONF_L2ADDR_MAX
#define TERN_CONF_L2ADDR_MAX 8
#endif
_Static_assert(TERN_CONF_L2ADDR_MAX >= 6 && TERN_CONF_L2ADDR_MAX <= 16,
               "TERN_CONF_L2ADDR_MAX out of range [6, 16]");

/**
 * Most scatter-list entries a netif hands to its driver for one frame. A frame
 * with more snips is merged into one contiguous snip first (and counted).
 * Cost: 2 pointers of C stack each, while sending.
 */
#ifndef TERN_CONF_NETIF_IOLIST_MAX
#define TERN_CONF_NETIF_IOLIST_MAX 8
#endif

/** Longest interface name, including the terminating NUL. */
#ifndef TERN_CONF_NETIF_NAME_LEN
#define TERN_CONF_NETIF_NAME_LEN 8
#endif

/* ---------------------------------------------------------------- devices */

/**
 * Bytes a loopback device can hold for frames sent but not yet read back
 * (2 bytes of length prefix per frame). Default: two 1280-byte frames.
 * Cost: this many bytes per loopback device.
 */
#ifndef TERN_CONF_LOOPBACK_BUF_SIZE
#define TERN_CONF_LOOPBACK_BUF_SIZE 2600
#endif

/** MTU reported by a loopback device, in bytes (IPv6 minimum link MTU). */
#ifndef TERN_CONF_LOOPBACK_MTU
#define TERN_CONF_LOOPBACK_MTU 1280
#endif
_Static_assert(TERN_CONF_LOOPBACK_MTU >= 1 && TERN_CONF_LOOPBACK_MTU <= 65535 &&
               TERN_CONF_LOOPBACK_BUF_SIZE >= TERN_CONF_LOOPBACK_MTU + 2,
               "loopback: MTU must fit 16 bits and one frame must fit the buffer");

/* ---------------------------------------------------------------- neighbor cache */

/**
 * Neighbor cache entries per interface. Default 8: a constrained host talks
 * to its routers and a handful of peers. Cost: about 72 B each (32-bit) plus
 * the queue pointers.
 */
#ifndef TERN_CONF_NC_SIZE
#define TERN_CONF_NC_SIZE 8
#endif
_Static_assert(TERN_CONF_NC_SIZE >= 1 && TERN_CONF_NC_SIZE <= 255, "TERN_CONF_NC_SIZE out of range [1, 255]");

/**
 * Packets queued per neighbor while its address is being resolved (RFC 4861
 * §7.2.2: at least one; "SHOULD be limited to some small value"; on overflow
 * the newest replaces the oldest). Cost: one pointer per slot per entry.
 */
#ifndef TERN_CONF_NC_QUEUE_LEN
#define TERN_CONF_NC_QUEUE_LEN 2
#endif
_Static_assert(TERN_CONF_NC_QUEUE_LEN >= 1 && TERN_CONF_NC_QUEUE_LEN <= 16,
               "TERN_CONF_NC_QUEUE_LEN out of range [1, 16]");

/**
 * Routes in the forwarding table (per stack): on-link prefixes, default
 * routers, static and routing-protocol routes. Cost: about 44 B each.
 */
#ifndef TERN_CONF_FIB_SIZE
#define TERN_CONF_FIB_SIZE 16
#endif
_Static_assert(TERN_CONF_FIB_SIZE >= 1 && TERN_CONF_FIB_SIZE <= 1024,
               "TERN_CONF_FIB_SIZE out of range [1, 1024]");

/** Interfaces the IPv6 module can run on. Cost: one address table and one neighbor cache each. */
#ifndef TERN_CONF_IPV6_IFS
#define TERN_CONF_IPV6_IFS 2
#endif
_Static_assert(TERN_CONF_IPV6_IFS >= 1 && TERN_CONF_IPV6_IFS <= 16,
               "TERN_CONF_IPV6_IFS out of range [1, 16]");

/**
 * IPv6 addresses per interface: a link-local, a few global ones from SLAAC
 * or by hand. Cost: about 48 B each.
 */
#ifndef TERN_CONF_IPV6_ADDRS
#define TERN_CONF_IPV6_ADDRS 4
#endif
_Static_assert(TERN_CONF_IPV6_ADDRS >= 1 && TERN_CONF_IPV6_ADDRS <= 64,
               "TERN_CONF_IPV6_ADDRS out of range [1, 64]");

/**
 * ICMPv6 error rate limit (RFC 4443 §2.4 (f)): a token bucket of this many
 * errors a second (RATE) holding at most BURST. Defaults: 10/s, burst 10.
 */
#ifndef TERN_CONF_ICMPV6_ERROR_RATE
#define TERN_CONF_ICMPV6_ERROR_RATE 10u
#endif
#ifndef TERN_CONF_ICMPV6_ERROR_BURST
#define TERN_CONF_ICMPV6_ERROR_BURST 10u
#endif
_Static_assert(TERN_CONF_ICMPV6_ERROR_RATE >= 1 && TERN_CONF_ICMPV6_ERROR_BURST >= 1,
               "ICMPv6 error rate and burst must be at least 1");

/**
 * Router mode (RFC 4861 §6.2.1): MaxRtrAdvInterval and MinRtrAdvInterval,
 * seconds. Unsolicited Router Advertisements go at random intervals
 * between the two (the first MAX_INITIAL_RTR_ADVERTISEMENTS at most 16 s
 * apart). Defaults 600 s and 200 s (§6.2.1: Max 600, Min 0.33 x Max); the
 * advertised Router Lifetime is 3 x Max, at most 9000 s. Ranges of §6.2.1:
 * Max 4..1800, Min 3..0.75 x Max. No memory cost.
 */
#ifndef TERN_CONF_IPV6_MAX_RTR_ADV_INTERVAL
#define TERN_CONF_IPV6_MAX_RTR_ADV_INTERVAL 600u
#endif
#ifndef TERN_CONF_IPV6_MIN_RTR_ADV_INTERVAL
#define TERN_CONF_IPV6_MIN_RTR_ADV_INTERVAL 200u
#endif
_Static_assert(TERN_CONF_IPV6_MAX_RTR_ADV_INTERVAL >= 4 && TERN_CONF_IPV6_MAX_RTR_ADV_INTERVAL <= 1800,
               "TERN_CONF_IPV6_MAX_RTR_ADV_INTERVAL out of range [4, 1800] (RFC 4861 §6.2.1)");
_Static_assert(TERN_CONF_IPV6_MIN_RTR_ADV_INTERVAL >= 3 &&
                   TERN_CONF_IPV6_MIN_RTR_ADV_INTERVAL * 4 <= TERN_CONF_IPV6_MAX_RTR_ADV_INTERVAL * 3,
               "TERN_CONF_IPV6_MIN_RTR_ADV_INTERVAL out of range [3, 0.75 x Max] (RFC 4861 §6.2.1)");

/**
 * IPv6 datagrams reassembled at the same time (RFC 8200 §4.5), keyed by
 * source, destination and Identification. Default 2: a constrained node
 * rarely receives more than one fragmented datagram at once, and each one
 * in progress holds its bytes in the pktbuf. When every slot is busy, the
 * first fragment of a new datagram evicts the oldest one (earliest deadline,
 * counted as reass_evicted, no ICMPv6 error): new traffic wins over a
 * datagram that may never complete. Cost: about 72 B each (32-bit) plus
 * 4 B per TERN_CONF_IPV6_REASS_RANGES and, while in use, the datagram and
 * its unfragmentable part in the pktbuf.
 */
#ifndef TERN_CONF_IPV6_REASS_SLOTS
#define TERN_CONF_IPV6_REASS_SLOTS 2
#endif
_Static_assert(TERN_CONF_IPV6_REASS_SLOTS >= 1 && TERN_CONF_IPV6_REASS_SLOTS <= 64,
               "TERN_CONF_IPV6_REASS_SLOTS out of range [1, 64]");

/**
 * Disjoint byte ranges one reassembly tracks (adjacent fragments merge into
 * one range, so in-order or reverse-order arrival needs one). A datagram
 * needing more (fragments arriving scattered) is dropped and counted
 * (reass_nomem). Default 8. Cost: 4 B each per slot.
 */
#ifndef TERN_CONF_IPV6_REASS_RANGES
#define TERN_CONF_IPV6_REASS_RANGES 8
#endif
_Static_assert(TERN_CONF_IPV6_REASS_RANGES >= 1 && TERN_CONF_IPV6_REASS_RANGES <= 64,
               "TERN_CONF_IPV6_REASS_RANGES out of range [1, 64]");

/**
 * Reassembly timeout in seconds, from the first-arriving fragment
 * (RFC 8200 §4.5: 60 s). On expiry the datagram is freed and, if its first
 * fragment had arrived, ICMPv6 Time Exceeded code 1 goes to the source.
 * No memory cost.
 */
#ifndef TERN_CONF_IPV6_REASS_TIMEOUT_S
#define TERN_CONF_IPV6_REASS_TIMEOUT_S 60u
#endif
_Static_assert(TERN_CONF_IPV6_REASS_TIMEOUT_S >= 1 && TERN_CONF_IPV6_REASS_TIMEOUT_S <= 600,
               "TERN_CONF_IPV6_REASS_TIMEOUT_S out of range [1, 600]");

/**
 * Destination cache entries (RFC 4861 §5.1, tern/ipv6/dcache.h), per stack:
 * destinations with a next hop learnt from a Redirect or a Path MTU learnt
 * from a Packet Too Big (others need no entry). Default 8: a constrained
 * host talks to few destinations beyond its link. When full, the least
 * recently used entry is reused (harmless: the router redirects again, or
 * a new Packet Too Big comes). Cost: 72 B each.
 */
#ifndef TERN_CONF_IPV6_DCACHE_SIZE
#define TERN_CONF_IPV6_DCACHE_SIZE 8
#endif
_Static_assert(TERN_CONF_IPV6_DCACHE_SIZE >= 1 && TERN_CONF_IPV6_DCACHE_SIZE <= 1024,
               "TERN_CONF_IPV6_DCACHE_SIZE out of range [1, 1024]");

/**
 * Seconds a Path MTU learnt from a Packet Too Big is kept; then the estimate
 * goes back to the link MTU and a router on the path reports again if it
 * must (RFC 8201 §4: no increase sooner than 5 minutes, 10 recommended).
 * Default 600. No memory cost.
 */
#ifndef TERN_CONF_IPV6_PMTU_TIMEOUT_S
#define TERN_CONF_IPV6_PMTU_TIMEOUT_S 600u
#endif
_Static_assert(TERN_CONF_IPV6_PMTU_TIMEOUT_S >= 300 && TERN_CONF_IPV6_PMTU_TIMEOUT_S <= 86400,
               "TERN_CONF_IPV6_PMTU_TIMEOUT_S out of range [300, 86400] (RFC 8201 §4: at least 5 minutes)");

/**
 * Seconds a next hop learnt from a Redirect (RFC 4861 §8.3) is kept. RFC
 * 4861 sets no lifetime; afterwards the next packet goes to the router the
 * forwarding table names, which redirects again if the better hop still
 * is, so a stale redirect lasts at most this long. Default 600. No memory cost.
 */
#ifndef TERN_CONF_IPV6_REDIRECT_TIMEOUT_S
#define TERN_CONF_IPV6_REDIRECT_TIMEOUT_S 600u
#endif
_Static_assert(TERN_CONF_IPV6_REDIRECT_TIMEOUT_S >= 1 && TERN_CONF_IPV6_REDIRECT_TIMEOUT_S <= 86400,
               "TERN_CONF_IPV6_REDIRECT_TIMEOUT_S out of range [1, 86400]");

/**
 * Seconds between re-randomisations of each interface's ReachableTime from
 * BaseReachableTime (RFC 4861 §6.3.4: "at least every few hours"; it is
 * also recomputed whenever an RA changes BaseReachableTime). Default 7200
 * (2 hours). No memory cost.
 */
#ifndef TERN_CONF_IPV6_REACHABLE_RENEW_S
#define TERN_CONF_IPV6_REACHABLE_RENEW_S 7200u
#endif
_Static_assert(TERN_CONF_IPV6_REACHABLE_RENEW_S >= 60 && TERN_CONF_IPV6_REACHABLE_RENEW_S <= 86400,
               "TERN_CONF_IPV6_REACHABLE_RENEW_S out of range [60, 86400]");

/* ---------------------------------------------------------------- shell */

/** Longest shell line in bytes, including the terminating NUL. */
#ifndef TERN_CONF_SHELL_LINE_MAX
#define TERN_CONF_SHELL_LINE_MAX 256
#endif

/** Most words (command + arguments) on one shell line. */
#ifndef TERN_CONF_SHELL_ARGS_MAX
#define TERN_CONF_SHELL_ARGS_MAX 16
#endif

/* ---------------------------------------------------------------- ethernet link */

/**
 * Link multicast groups (MAC addresses) one Ethernet interface can join
 * (tern_ethernet_link_t). Frames to other groups are dropped unless the
 * interface is promiscuous; broadcast is always received. Default 8: an IPv6
 * host joins all-nodes plus one solicited-node group per address (RFC 4291
 * §2.7.1), a router all-routers too, leaving room for MLD/RPL groups.
 * Cost: 7 bytes per entry per Ethernet interface.
 */
#ifndef TERN_CONF_ETHERNET_MCAST_MAX
#define TERN_CONF_ETHERNET_MCAST_MAX 8
#endif
_Static_assert(TERN_CONF_ETHERNET_MCAST_MAX >= 1 && TERN_CONF_ETHERNET_MCAST_MAX <= 64,
               "TERN_CONF_ETHERNET_MCAST_MAX out of range [1, 64]");

/* ---------------------------------------------------------------- ping */

/**
 * Echo requests `ping` (tern_ping_t) remembers the send time of, to measure
 * round trips and spot duplicates; a reply to an older one is dropped and
 * counted as late. Default 16: 16 s of requests at the default 1 s interval.
 * Cost: 16 bytes per slot per ping instance.
 */
#ifndef TERN_CONF_PING_WINDOW
#define TERN_CONF_PING_WINDOW 16
#endif
_Static_assert(TERN_CONF_PING_WINDOW >= 1 && TERN_CONF_PING_WINDOW <= 1024,
               "TERN_CONF_PING_WINDOW out of range [1, 1024]");

/** Queue length of a ping instance's module (replies, timer, start). Cost: one message each. */
#ifndef TERN_CONF_PING_QUEUE_LEN
#define TERN_CONF_PING_QUEUE_LEN 8
#endif
_Static_assert(TERN_CONF_PING_QUEUE_LEN >= 2, "TERN_CONF_PING_QUEUE_LEN: at least 2");

/** Priority of a ping module: an application, after the stack's modules (as sockets). */
#ifndef TERN_CONF_PING_PRIORITY
#define TERN_CONF_PING_PRIORITY 6
#endif

/** How long tern_ping_run() lets the stack run between checks (us); bounds its reaction to stop. */
#ifndef TERN_CONF_PING_RUN_SLICE_US
#define TERN_CONF_PING_RUN_SLICE_US 100000u
#endif

/* ---------------------------------------------------------------- MLD */

/**
 * Multicast groups one IPv6 interface reports with MLDv2 (RFC 3810): the
 * solicited-node group of each address (TERN_CONF_IPV6_ADDRS) plus
 * all-routers on a router, and room for a left group whose reports are
 * still being sent. Cost: 20 bytes per group per interface.
 */
#ifndef TERN_CONF_MLD_GROUPS
#define TERN_CONF_MLD_GROUPS (TERN_CONF_IPV6_ADDRS + 2)
#endif
_Static_assert(TERN_CONF_MLD_GROUPS >= 1 && TERN_CONF_MLD_GROUPS <= 64, "TERN_CONF_MLD_GROUPS out of range [1, 64]");

/* ---------------------------------------------------------------- simulated radio medium */

/**
 * Radios one simulated radio medium (tern_radio_medium_t) can hold. Default
 * 16: the unit tests' and small simulations' meshes; tern-sim raises it for
 * large ones. Cost per medium: 8 bytes per ordered pair of radios (the link
 * matrix, N * N * 8: 2 KiB for 16) plus 16 bytes per radio, and N / 8 bytes
 * of collision bits in each of a radio's two air records.
 */
#ifndef TERN_CONF_RADIO_MEDIUM_MAX_RADIOS
#define TERN_CONF_RADIO_MEDIUM_MAX_RADIOS 16
#endif
_Static_assert(TERN_CONF_RADIO_MEDIUM_MAX_RADIOS >= 2 && TERN_CONF_RADIO_MEDIUM_MAX_RADIOS <= 1024,
               "TERN_CONF_RADIO_MEDIUM_MAX_RADIOS out of range [2, 1024]");

/**
 * Frames a simulated radio (tern_sim_radio_t) holds until its driver's user
 * reads them; one more is dropped and counted (rx_queue_full) and not
 * acknowledged. Default 4: real transceivers buffer one frame, but the
 * interface reads on its own turn, after up to a few frames' worth of other
 * work. Cost: 130 bytes per frame per radio.
 */
#ifndef TERN_CONF_SIM_RADIO_RX_QUEUE
#define TERN_CONF_SIM_RADIO_RX_QUEUE 4
#endif
_Static_assert(TERN_CONF_SIM_RADIO_RX_QUEUE >= 1 && TERN_CONF_SIM_RADIO_RX_QUEUE <= 64,
               "TERN_CONF_SIM_RADIO_RX_QUEUE out of range [1, 64]");

/* ---------------------------------------------------------------- 6LoWPAN */

/**
 * Datagrams the 6LoWPAN layer reassembles at the same time (RFC 4944 §5.3,
 * tern/sixlowpan/reass.h), keyed by link source, link destination and
 * datagram_tag. Default 4: over IEEE 802.15.4 every datagram above about
 * 100 bytes arrives in fragments, and a router receives from several
 * neighbours at once. When every slot is busy, the first fragment of a new
 * datagram evicts the oldest one (earliest started, counted as evicted): a
 * datagram that lost a fragment would otherwise block the slot for the whole
 * timeout, and new traffic is the likelier to complete. Cost: 104 B each
 * (32- and 64-bit; two 32-byte bitmaps of received 8-octet units) plus,
 * while in use, datagram_size bytes of pktbuf.
 */
#ifndef TERN_CONF_SIXLOWPAN_REASS_SLOTS
#define TERN_CONF_SIXLOWPAN_REASS_SLOTS 4
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_REASS_SLOTS >= 1 && TERN_CONF_SIXLOWPAN_REASS_SLOTS <= 64,
               "TERN_CONF_SIXLOWPAN_REASS_SLOTS out of range [1, 64]");

/**
 * 6LoWPAN reassembly timeout in milliseconds, from the first fragment of a
 * datagram (RFC 4944 §5.3: "MUST be set to a maximum of 60 seconds"). Default
 * 60000. A shorter timeout frees buffers sooner on lossy links. No memory cost.
 */
#ifndef TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS
#define TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS 60000u
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS >= 1 && TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS <= 60000,
               "TERN_CONF_SIXLOWPAN_REASS_TIMEOUT_MS out of range [1, 60000] (RFC 4944 §5.3: at most 60 s)");

#endif /* TERN_CONFIG_H */
