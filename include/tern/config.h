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

/**
 * Event loop: deepest nesting of packet hand-offs. A packet a handler sends
 * or receives (netapi SND/RCV) is handed to the next module's handler at once,
 * as a direct call, when the loop would run that module next anyway: the loop
 * has no message queued for any module, the next module is not already on the
 * call stack, and fewer than this many handlers are nested. Otherwise the
 * message is queued as usual. Saves the queue, scheduling and timer check of
 * each hop (docs/ARCHITECTURE.md "Executors"); every hop is still traced.
 * Cost: up to this many handler frames on the C stack at once. 0: every
 * message is queued (the loop behaves exactly as the threaded executor's
 * order). The threaded executor always queues.
 */
#ifndef TERN_CONF_LOOP_HANDOFF_DEPTH
#define TERN_CONF_LOOP_HANDOFF_DEPTH 6
#endif
_Static_assert(TERN_CONF_LOOP_HANDOFF_DEPTH >= 0 && TERN_CONF_LOOP_HANDOFF_DEPTH <= 32,
               "TERN_CONF_LOOP_HANDOFF_DEPTH out of range [0, 32]");

/* ---------------------------------------------------------------- trace */

/**
 * Record every netapi hop in a ring buffer (1) or compile tracing out (0).
 * Cost when on: TERN_CONF_TRACE_LEN entries of 32 bytes (40 on a 64-bit host) per stack instance,
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

/* ---------------------------------------------------------------- counter names */

/**
 * Keep the names of the drop counters (1) for the shell's `stats` and the
 * RPL status, or leave them out (0): the counters still count and `stats`
 * prints them by number (`#3`), in the order of each module's enum
 * (TERN_IPV6_..., include/tern/ipv6/ipv6.h and the others). Cost when on:
 * 3.3 KiB of read-only strings and tables in the 6LoWPAN host footprint
 * image, 4 KiB in the router one (the IPv6 module's alone are 2.4 KiB). Default 1. No #if in the modules: they pass
 * their tables through TERN_STATS_NAMES() (tern/stats.h).
 */
#ifndef TERN_CONF_STATS_NAMES
#define TERN_CONF_STATS_NAMES 1
#endif
_Static_assert(TERN_CONF_STATS_NAMES == 0 || TERN_CONF_STATS_NAMES == 1, "TERN_CONF_STATS_NAMES must be 0 or 1");

/*
 * Width of the drop and statistics counters (tern_counter_t, tern/stats.h):
 * 32 (default) or 16 bits. A 16-bit counter halves their RAM (808 bytes of
 * the constrained 6LoWPAN router image) and stops at 65535 instead of
 * wrapping, so a saturated counter reads "at least 65535", never "a few".
 */
#ifndef TERN_CONF_STATS_COUNTER_BITS
#define TERN_CONF_STATS_COUNTER_BITS 32
#endif
_Static_assert(TERN_CONF_STATS_COUNTER_BITS == 16 || TERN_CONF_STATS_COUNTER_BITS == 32,
               "TERN_CONF_STATS_COUNTER_BITS must be 16 or 32");

/* ---------------------------------------------------------------- feature switches (issue 6) */

/*
 * Compile-time feature switches: 1 builds the feature (the default, every
 * one on: the full stack the tests exercise), 0 leaves its code out of the
 * image. A switch that removes source files from the libraries MUST be set
 * through CMake (the cache variable of the same name, docs/BUILDING.md),
 * which both defines it and leaves the files out; set only with -D or in
 * TERN_CONF_USER_HEADER, the file's definitions clash with the inline
 * stubs that replace them (a compile error, not a silent mix). Disabled
 * features keep their API: the functions become inline no-ops or answer
 * -ENOTSUP (STYLE 6), so callers need no #if.
 */

/**
 * IPv6 router functions (RFC 4861 §6.2 router NDP: Router Advertisements,
 * answers to Router Solicitations, all-routers group; RFC 6775 §6/§8 the
 * 6LoWPAN router: registration table, RA options; RFC 8200 §3 forwarding;
 * RFC 6554 §4.2 Source Routing Header processing and insertion).
 * 0: a host image; tern_ipv6_set_router() and the ROUTER, ROUTE_ADD/DEL and
 * SOURCE_ROUTER options answer -ENOTSUP. Removes src/ipv6/forward.c and
 * src/ipv6/srh.c (set through CMake) and the router branches of
 * ndp_router.c, ndp_6lo.c and icmpv6_ndp.c (constant-folded). Needed by RPL
 * (a RPL router or root is an IPv6 router). Default 1. Saves about 9 KiB
 * of Cortex-M3 code in a 6LoWPAN host image (bench/footprint).
 * 2: a router only. The node is a router from tern_ipv6_init() on and stays
 * one (tern_ipv6_set_router(false) and SET ROUTER 0 answer -ENOTSUP), so the
 * host side of the IPv6 module folds away: Router Solicitations and RA
 * processing (RFC 4861 §6.3.4, §6.3.7; §6.2.7: a router does not configure
 * itself from RAs), 6LoWPAN-ND registration of our addresses (RFC 6775 §5.5,
 * RFC 8505 §5.1; a 6LoWPAN router is the registrar, §6) and the 6CO/ABRO
 * intake of hosts. Nothing a router does is left out: those paths never run
 * on a router at 1 either. For a node that is never a host, such as a 6LBR or
 * RPL root (the router footprint image: about 3.4 KiB less).
 */
#ifndef TERN_CONF_IPV6_ROUTER
#define TERN_CONF_IPV6_ROUTER 1
#endif
_Static_assert(TERN_CONF_IPV6_ROUTER >= 0 && TERN_CONF_IPV6_ROUTER <= 2, "TERN_CONF_IPV6_ROUTER must be 0, 1 or 2");

/**
 * MLDv2 listener with MLDv1 compatibility (RFC 3810, RFC 2710; src/ipv6/mld.c).
 * 0: no Multicast Listener Reports are sent and Queries are ignored (counted
 * as icmp_unhandled); the interface still receives the groups it joined
 * (the local filter stays). Leaving MLD out is fine on links without
 * multicast routers or snooping switches, which is every 6LoWPAN link: there
 * RFC 6775 replaces multicast-based ND by unicast registration and a 6LR
 * learns nothing from MLD (multicast listener registration on 6LoWPAN is
 * RFC 9685's EARO extension, not MLD). Keep it on Ethernet or Wi-Fi links
 * with MLD-snooping switches (RFC 4541), where a silent listener loses its
 * multicast. Removes src/ipv6/mld.c (set through CMake; src/ipv6/mld_none.c
 * replaces it). Default 1. Saves about 2.8 KiB of Cortex-M3 code.
 */
#ifndef TERN_CONF_IPV6_MLD
#define TERN_CONF_IPV6_MLD 1
#endif
_Static_assert(TERN_CONF_IPV6_MLD == 0 || TERN_CONF_IPV6_MLD == 1, "TERN_CONF_IPV6_MLD must be 0 or 1");

/**
 * IPv6-layer fragmentation of packets we originate (RFC 8200 §4.5, sender
 * side; src/ipv6/frag.c). 0: a packet larger than the path MTU is not sent
 * (-EMSGSIZE, counted as frag_fail). Fine when every link's MTU is at least
 * 1280 and the applications send at most 1280 - 48 bytes of UDP payload: an
 * IPv6 node need not send more than the minimum MTU (RFC 8200 §5: "a node
 * must be able to ... send packets as large as 1280 octets"; larger
 * packets are an upper layer's choice), and 6LoWPAN fragments the 1280-byte
 * datagram itself (RFC 4944 §5.3). Reassembly is NOT switched off with it:
 * RFC 8200 §5 "A node must be able to accept a fragmented packet that,
 * after reassembly, is as large as 1500 octets", so src/ipv6/reass.c stays.
 * Removes src/ipv6/frag.c (set through CMake). Default 1. Saves about 0.7 KiB.
 */
#ifndef TERN_CONF_IPV6_FRAG
#define TERN_CONF_IPV6_FRAG 1
#endif
_Static_assert(TERN_CONF_IPV6_FRAG == 0 || TERN_CONF_IPV6_FRAG == 1, "TERN_CONF_IPV6_FRAG must be 0 or 1");

/**
 * Destination cache (RFC 4861 §5.1; src/ipv6/dcache.c): next hops learnt from
 * Redirects (§8.3) and Path MTUs learnt from Packet Too Big (RFC 8201 §4).
 * 0: Redirects and Packet Too Big messages are counted as icmp_unhandled and
 * change nothing (RFC 4861 §8.3: a host SHOULD, not MUST, act on a Redirect),
 * and our packets are at most 1280 bytes on every path (RFC 8201 §1: "a node
 * not implementing Path MTU Discovery MUST use the IPv6 minimum link MTU");
 * a 6LoWPAN link's MTU is 1280 anyway (RFC 4944 §4). The cache keeps no
 * table (TERN_CONF_IPV6_DCACHE_SIZE then only sizes the empty answer of
 * TERN_NETOPT_IPV6_DESTINATIONS: set it to 1). Removes src/ipv6/dcache.c (set
 * through CMake). Default 1. Saves about 1.2 KiB of code and the table's RAM.
 */
#ifndef TERN_CONF_IPV6_DCACHE
#define TERN_CONF_IPV6_DCACHE 1
#endif
_Static_assert(TERN_CONF_IPV6_DCACHE == 0 || TERN_CONF_IPV6_DCACHE == 1, "TERN_CONF_IPV6_DCACHE must be 0 or 1");

/**
 * RPL (RFC 6550; src/rpl/) and the RPL Packet Information it needs in the
 * IPv6 module (RFC 6553, RFC 6550 §11.2; src/ipv6/rpi.c). 0: the node takes
 * no part in RPL, as a RPL-Unaware Leaf (RFC 9008 §2, §4.1: a plain 6LoWPAN
 * host registered with its router, RFC 8505; the router adds the RPI for it,
 * by encapsulation when needed, RFC 9008 §7): src/rpl/ is not built (no
 * tern_rpl library, so no `rpl` shell command, tern-node or tern-sim), our
 * packets carry no RPL Option, and SET TERN_NETOPT_IPV6_RPL_STATE and
 * TERN_NETOPT_IPV6_PREFIX (a DIO's prefix, RFC 6550 §6.7.10; RAs' prefixes are
 * not affected) answer -ENOTSUP. Received packets with the RPL Option are still accepted (the
 * option type is known, ipv6_options_check()). Removes src/ipv6/rpi.c (set
 * through CMake). Default 1. Saves about 0.57 KiB in a 6LoWPAN host image.
 */
#ifndef TERN_CONF_RPL
#define TERN_CONF_RPL 1
#endif
_Static_assert(TERN_CONF_RPL == 0 || TERN_CONF_RPL == 1, "TERN_CONF_RPL must be 0 or 1");

/**
 * 1: the IPv6 module answers the GETs that copy its tables and state out
 * for inspection: TERN_NETOPT_IPV6_NEIGHBORS, _ROUTES, _DESTINATIONS, _6LO,
 * _LINK_PARAMS and _ROUTE_INFO (what the shell's `ipv6` command prints,
 * tern/netopt.h). 0: those answer -ENOTSUP: no protocol reads them, only
 * people do, through a shell an image without one does not have. The GETs
 * other modules need still answer: TERN_NETOPT_IPV6_ADDRS (sockets check
 * their local address, RPL its DODAG's) and _RPL_STATE (RPL). A plain C
 * option (no file is left out). Default 1. Saves about 0.3 KiB of code in
 * each footprint image (Cortex-M3).
 */
#ifndef TERN_CONF_IPV6_INSPECT
#define TERN_CONF_IPV6_INSPECT 1
#endif
_Static_assert(TERN_CONF_IPV6_INSPECT == 0 || TERN_CONF_IPV6_INSPECT == 1, "TERN_CONF_IPV6_INSPECT must be 0 or 1");

/**
 * Speed-only fast paths (1), or the general code alone (0). Some hot spots
 * of the datagram path have a shortcut for their usual case next to the
 * general code that handles every case (e.g. the IPHC decoder's "both IIDs
 * elided" header, the compressor's choice with context 0 alone): each gives
 * exactly what the general code gives, only in fewer instructions. 0 leaves
 * the shortcuts out and every case takes the general code: the same bytes
 * on the wire, the same behaviour, more instructions per datagram (host,
 * bench/traversal: +0.6 to +0.9 k for 8 bytes of UDP, +5.7 k for 1232 bytes
 * in 14 frames). For images where code size matters more than speed (the
 * footprint images, bench/footprint/tern_conf_host.h). Default 1. Saves about
 * 1.1 KiB of code (Cortex-M3, each footprint image). No #if at the sites:
 * `if (TERN_CONF_FAST_PATHS && ...)` folds away; the wire codecs that have
 * shortcuts read it too (config.h holds options only, no stack state). The
 * list: docs/BUILDING.md, feature switches.
 */
#ifndef TERN_CONF_FAST_PATHS
#define TERN_CONF_FAST_PATHS 1
#endif
_Static_assert(TERN_CONF_FAST_PATHS == 0 || TERN_CONF_FAST_PATHS == 1, "TERN_CONF_FAST_PATHS must be 0 or 1");

/* ---------------------------------------------------------------- netif */

/** Longest link-layer address an interface can have, in bytes (EUI-64).
 * IEEE 802.15.4 and RPL need 8 (they refuse to build with less). */
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

/**
 * Packets an interface over a confirming device (an IEEE 802.15.4 radio, see
 * tern_netif_tx_policy_t in netif.h) holds behind the frame in flight; one
 * more is dropped and counted (tx_queue_full). Default 16: the fragments of
 * one 1280-byte IPv6 datagram over 802.15.4 (about 14) fit. The packets stay
 * in pktbuf; the queue holds pointers. Cost: one pointer per entry per
 * interface (interfaces over other devices send at once and use none).
 */
#ifndef TERN_CONF_NETIF_TX_QUEUE
#define TERN_CONF_NETIF_TX_QUEUE 16
#endif
_Static_assert(TERN_CONF_NETIF_TX_QUEUE >= 1 && TERN_CONF_NETIF_TX_QUEUE <= 255,
               "TERN_CONF_NETIF_TX_QUEUE out of range [1, 255]");

/**
 * Milliseconds an interface waits for a confirming device to report the
 * outcome of a frame before it polls the device once more and then gives the
 * frame up (-ETIMEDOUT, tx_errors): a safety net for a lost interrupt. An
 * IEEE 802.15.4 radio reports within about 6 ms (longest frame plus
 * macAckWaitDuration). Default 1000. No memory cost.
 */
#ifndef TERN_CONF_NETIF_TX_TIMEOUT_MS
#define TERN_CONF_NETIF_TX_TIMEOUT_MS 1000u
#endif
_Static_assert(TERN_CONF_NETIF_TX_TIMEOUT_MS >= 10 && TERN_CONF_NETIF_TX_TIMEOUT_MS <= 60000,
               "TERN_CONF_NETIF_TX_TIMEOUT_MS out of range [10, 60000]");

/**
 * 1: an interface runs unslotted CSMA-CA and retransmissions itself (IEEE
 * 802.15.4-2006 §7.5.1.4, §7.5.6.4.3; netif.h, tern_netif_tx_policy_t) for
 * a confirming device that does not do them (TERN_NETOPT_HW_CSMA_RETRIES).
 * 0: an image whose radios all do them in hardware (AT86RF2xx extended
 * operating mode, CC2538, nRF52840 drivers) leaves that code out: the
 * standard's channel access and retries are still done, by the radio;
 * tern_netif_add() refuses a device under such a link that does not answer
 * the option with 1 (-ENOTSUP), and a device still busy with an earlier
 * frame (send() -ENOBUFS) is asked again after 2^BE unit backoff periods
 * instead of a random draw of them. Default 1. Saves about 0.25 KiB of code
 * (Cortex-M3); no memory cost either way.
 */
/**
 * 1: an interface has a capture hook (TERN_NETOPT_CAPTURE, netif.h) that sees
 * every frame sent and received, for packet captures (port/posix/pcap.c).
 * 0: an image without one leaves the hook's calls and option out; GET and
 * SET of TERN_NETOPT_CAPTURE go to the device, which does not know it
 * (-ENOTSUP). A debugging aid: no protocol needs it. Default 1. Saves about
 * 100 B of code (Cortex-M3).
 */
#ifndef TERN_CONF_NETIF_CAPTURE
#define TERN_CONF_NETIF_CAPTURE 1
#endif
_Static_assert(TERN_CONF_NETIF_CAPTURE == 0 || TERN_CONF_NETIF_CAPTURE == 1, "TERN_CONF_NETIF_CAPTURE must be 0 or 1");

/**
 * 1: an interface has a TX status hook (TERN_NETOPT_TX_STATUS, netif.h) that
 * sees the final outcome of every frame it handed to its device: RPL's
 * parent selection takes its link feedback from it (ETX, RFC 6719 §3.1.1;
 * parent loss, RFC 6550 §8.2.2.5). 0: an image without parent selection
 * (TERN_CONF_RPL_OF0 and TERN_CONF_RPL_MRHOF 0, or no RPL) leaves the hook,
 * its option and the copy of each frame's interface header it is shown out;
 * GET and SET of TERN_NETOPT_TX_STATUS go to the device, which does not know
 * it (-ENOTSUP). Senders still learn every outcome through their NETERR
 * reports (tern_pktbuf_release_error()). Default 1. Saves about 200 B of
 * code (Cortex-M3).
 */
#ifndef TERN_CONF_NETIF_TX_STATUS
#define TERN_CONF_NETIF_TX_STATUS 1
#endif
_Static_assert(TERN_CONF_NETIF_TX_STATUS == 0 || TERN_CONF_NETIF_TX_STATUS == 1,
               "TERN_CONF_NETIF_TX_STATUS must be 0 or 1");

/**
 * 1: an interface can run over a device whose send() is itself the outcome,
 * under a link without a transmission policy (tern_netif_link_t::tx_policy
 * NULL: the raw link, Ethernet, loopback, test devices). 0: an image whose
 * interfaces all confirm their frames (IEEE 802.15.4 only) leaves that send
 * path out; tern_netif_add() refuses a link without a transmission policy
 * (-ENOTSUP). Default 1. Saves about 120 B of code (Cortex-M3).
 */
#ifndef TERN_CONF_NETIF_UNCONFIRMED
#define TERN_CONF_NETIF_UNCONFIRMED 1
#endif
_Static_assert(TERN_CONF_NETIF_UNCONFIRMED == 0 || TERN_CONF_NETIF_UNCONFIRMED == 1,
               "TERN_CONF_NETIF_UNCONFIRMED must be 0 or 1");

#ifndef TERN_CONF_NETIF_SW_CSMA
#define TERN_CONF_NETIF_SW_CSMA 1
#endif
_Static_assert(TERN_CONF_NETIF_SW_CSMA == 0 || TERN_CONF_NETIF_SW_CSMA == 1, "TERN_CONF_NETIF_SW_CSMA must be 0 or 1");

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
 * the newest replaces the oldest, counted as nc_queue_dropped). Default 6:
 * IPv6 fragments before it resolves, so the first datagram to a neighbor is
 * all its fragments at once, and an 8000-byte one over Ethernet is six.
 * Cost: one pointer per slot per entry (TERN_CONF_NC_SIZE entries).
 */
#ifndef TERN_CONF_NC_QUEUE_LEN
#define TERN_CONF_NC_QUEUE_LEN 6
#endif
_Static_assert(TERN_CONF_NC_QUEUE_LEN >= 1 && TERN_CONF_NC_QUEUE_LEN <= 16,
               "TERN_CONF_NC_QUEUE_LEN out of range [1, 16]");

/**
 * Routes in the forwarding table (per stack): on-link prefixes, default
 * routers, static and routing-protocol routes. Default 32: a storing-mode RPL
 * root holds a /128 route per node below it (a 5x5 grid: 24) next to its
 * prefixes and default routes, as many as TERN_CONF_RPL_ROUTES. Cost: about
 * 44 B each.
 */
#ifndef TERN_CONF_FIB_SIZE
#define TERN_CONF_FIB_SIZE 32
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
 * 1: the IPv6 module hands ICMPv6 messages to the modules that registered
 * for them (src/ipv6/icmpv6_app.c): echo replies, and errors about echo
 * requests, by echo identifier (the `ping` application, src/app/ping.c,
 * RFC 4443 §2.4 (b)), and other informational types by type (RPL's
 * messages, type 155). 0: none is handed over; they are counted as
 * icmp_unhandled. The module's own ICMPv6 (echo replies to requests, RFC
 * 4443 §4.2; errors; ND) is not affected. For an image without ICMPv6
 * applications and without RPL, which needs it (src/rpl/rpl.c says so at
 * compile time): the 6LoWPAN host footprint image. A plain C option.
 * Errors about our UDP datagrams go to their socket either way (RFC 4443
 * §2.4 (e) is a MUST, TERN_IPV6_ICMPV6_ERROR_DEMUX, docs/UDP.md).
 * Default 1. Saves about 0.45 KiB of code there (Cortex-M3).
 */
#ifndef TERN_CONF_ICMPV6_DELIVER
#define TERN_CONF_ICMPV6_DELIVER 1
#endif
_Static_assert(TERN_CONF_ICMPV6_DELIVER == 0 || TERN_CONF_ICMPV6_DELIVER == 1,
               "TERN_CONF_ICMPV6_DELIVER must be 0 or 1");

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
 * Router mode: routes a router advertises per interface in Route Information
 * options of its RAs (RFC 4191 §2.3; set with TERN_NETOPT_IPV6_ROUTE_INFO_ADD,
 * `ifconfig IF route-info add`). Default 2: a border router announces its
 * mesh prefix on its Ethernet side, with room for one more. Cost: 24 B each
 * per IPv6 interface (TERN_CONF_IPV6_IFS), and up to 24 B per route in each RA.
 */
#ifndef TERN_CONF_IPV6_ROUTE_INFO
#define TERN_CONF_IPV6_ROUTE_INFO 2u
#endif
_Static_assert(TERN_CONF_IPV6_ROUTE_INFO >= 1 && TERN_CONF_IPV6_ROUTE_INFO <= 32,
               "TERN_CONF_IPV6_ROUTE_INFO out of range [1, 32]");

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

/* ---------------------------------------------------------------- 6LoWPAN Neighbor Discovery */

/**
 * Registration table of a 6LoWPAN router (6LR/6LBR, RFC 6775 §6.5.2, RFC
 * 8505 §5), per IPv6 interface: one entry per address a neighbor registered
 * (address, ROVR/EUI-64, link address, TID, lifetime); registered entries are
 * the neighbor cache for forwarding on 6LoWPAN links. When full, a new
 * registration is refused with status 2 "Neighbor Cache Full" (RFC 8505 §4.3,
 * Table 1) and existing ones stay. Default 8. Cost: about 96 B each, per
 * interface (TERN_CONF_IPV6_IFS).
 */
#ifndef TERN_CONF_IPV6_6LO_REG_TABLE_SIZE
#define TERN_CONF_IPV6_6LO_REG_TABLE_SIZE 8
#endif
_Static_assert(TERN_CONF_IPV6_6LO_REG_TABLE_SIZE >= 1 && TERN_CONF_IPV6_6LO_REG_TABLE_SIZE <= 255,
               "TERN_CONF_IPV6_6LO_REG_TABLE_SIZE out of range [1, 255]");

/**
 * Registrations a 6LoWPAN host (6LN) keeps per interface: one per (own
 * address, default router) pair (RFC 6775 §5.3: register with each default
 * router). Default 4 (a global address with two routers, or two addresses
 * with one). Cost: about 56 B each, per interface.
 */
#ifndef TERN_CONF_IPV6_6LO_BINDINGS
#define TERN_CONF_IPV6_6LO_BINDINGS 4
#endif
_Static_assert(TERN_CONF_IPV6_6LO_BINDINGS >= 1 && TERN_CONF_IPV6_6LO_BINDINGS <= 64,
               "TERN_CONF_IPV6_6LO_BINDINGS out of range [1, 64]");

/**
 * 6LoWPAN contexts (RFC 6775 §4.2, 6CO; RFC 6282 §3.1.2) the IPv6 module
 * keeps per interface: learnt from Router Advertisements (host) or made from
 * the advertised prefixes (router). At most 16 (4-bit Context ID). Default
 * 4. Cost: about 40 B each, per interface.
 */
#ifndef TERN_CONF_IPV6_6LO_CONTEXTS
#define TERN_CONF_IPV6_6LO_CONTEXTS 4
#endif
_Static_assert(TERN_CONF_IPV6_6LO_CONTEXTS >= 1 && TERN_CONF_IPV6_6LO_CONTEXTS <= 16,
               "TERN_CONF_IPV6_6LO_CONTEXTS out of range [1, 16] (RFC 6775 §4.2: 4-bit CID)");

/**
 * Registration Lifetime a 6LoWPAN host asks for, in minutes (the EARO's
 * unit, RFC 8505 §4.1); the host refreshes when 90 % of it has passed.
 * Default 15 (a router failure is noticed within that time; each refresh is
 * one NS/NA exchange). No memory cost.
 */
#ifndef TERN_CONF_IPV6_6LO_REG_LIFETIME_MIN
#define TERN_CONF_IPV6_6LO_REG_LIFETIME_MIN 15u
#endif
_Static_assert(TERN_CONF_IPV6_6LO_REG_LIFETIME_MIN >= 1 && TERN_CONF_IPV6_6LO_REG_LIFETIME_MIN <= 65535,
               "TERN_CONF_IPV6_6LO_REG_LIFETIME_MIN out of range [1, 65535] (16-bit field, 0 deregisters)");

/**
 * Seconds a 6LoWPAN host waits before it tries a failed registration again
 * (no answer after MAX_UNICAST_SOLICIT NSs, or status 2 "Neighbor Cache
 * Full" / 9 "6LBR Registry Saturated": RFC 8505 §4.3, try later or
 * elsewhere). Default 60 (MAX_RTR_SOLICITATION_INTERVAL, RFC 6775 §9). No
 * memory cost.
 */
#ifndef TERN_CONF_IPV6_6LO_RETRY_S
#define TERN_CONF_IPV6_6LO_RETRY_S 60u
#endif
_Static_assert(TERN_CONF_IPV6_6LO_RETRY_S >= 1 && TERN_CONF_IPV6_6LO_RETRY_S <= 86400,
               "TERN_CONF_IPV6_6LO_RETRY_S out of range [1, 86400]");

/**
 * Valid Lifetime a 6LoWPAN router advertises in its 6LoWPAN Context Options,
 * in minutes (RFC 6775 §4.2; hosts refresh them by RS before they end,
 * §5.3). Default 60. No memory cost.
 */
#ifndef TERN_CONF_IPV6_6LO_CONTEXT_LIFETIME_MIN
#define TERN_CONF_IPV6_6LO_CONTEXT_LIFETIME_MIN 60u
#endif
_Static_assert(TERN_CONF_IPV6_6LO_CONTEXT_LIFETIME_MIN >= 1 && TERN_CONF_IPV6_6LO_CONTEXT_LIFETIME_MIN <= 65535,
               "TERN_CONF_IPV6_6LO_CONTEXT_LIFETIME_MIN out of range [1, 65535]");

/**
 * Valid Lifetime a 6LoWPAN router advertises in its Authoritative Border
 * Router Option, in minutes (RFC 6775 §4.3: 0 means the default 10000).
 * Default 10000 (about a week). No memory cost.
 */
#ifndef TERN_CONF_IPV6_6LO_ABRO_LIFETIME_MIN
#define TERN_CONF_IPV6_6LO_ABRO_LIFETIME_MIN 10000u
#endif
_Static_assert(TERN_CONF_IPV6_6LO_ABRO_LIFETIME_MIN >= 1 && TERN_CONF_IPV6_6LO_ABRO_LIFETIME_MIN <= 65535,
               "TERN_CONF_IPV6_6LO_ABRO_LIFETIME_MIN out of range [1, 65535]");

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
 * 64: tern-sim's largest mesh (its SIM_MAX_NODES), the size of the RPL
 * experiments' 50-node topologies. Simulation only: no device carries a
 * medium. Cost per medium: 8 bytes per ordered pair of radios (the link
 * matrix, N * N * 8: 32 KiB for 64) plus 16 bytes per radio, and N / 8 bytes
 * of collision bits in each of a radio's two air records.
 */
#ifndef TERN_CONF_RADIO_MEDIUM_MAX_RADIOS
#define TERN_CONF_RADIO_MEDIUM_MAX_RADIOS 64
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

/* ---------------------------------------------------------------- IEEE 802.15.4 link */

/**
 * Sources an IEEE 802.15.4 interface remembers the last sequence number of,
 * to drop retransmissions of a frame it already received (its acknowledgment
 * was lost). Only frames that request an acknowledgment are checked; when the
 * table is full the least recently heard source is forgotten. Default 8: a
 * node's neighbours in a small mesh. Cost: 24 bytes per entry per interface.
 */
#ifndef TERN_CONF_IEEE802154_DUP_SOURCES
#define TERN_CONF_IEEE802154_DUP_SOURCES 8
#endif
_Static_assert(TERN_CONF_IEEE802154_DUP_SOURCES >= 1 && TERN_CONF_IEEE802154_DUP_SOURCES <= 255,
               "TERN_CONF_IEEE802154_DUP_SOURCES out of range [1, 255]");

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
 * (32- and 64-bit; two 32-byte bitmaps of received 8-octet units; 80 B with
 * TERN_CONF_SIXLOWPAN_REASS_SIZE_MAX 1280) plus,
 * while in use, datagram_size bytes of pktbuf.
 */
#ifndef TERN_CONF_SIXLOWPAN_REASS_SLOTS
#define TERN_CONF_SIXLOWPAN_REASS_SLOTS 4
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_REASS_SLOTS >= 1 && TERN_CONF_SIXLOWPAN_REASS_SLOTS <= 64,
               "TERN_CONF_SIXLOWPAN_REASS_SLOTS out of range [1, 64]");

/**
 * Largest datagram_size the 6LoWPAN reassembly accepts, in bytes (RFC 4944
 * §5.3: 11 bits, up to 2047). A larger one is dropped as invalid (counted).
 * Default 2047: whatever a sender may announce. The IPv6 MTU of a 6LoWPAN link
 * is 1280 (RFC 4944 §4; datagram_size is the IPv6 packet's size before
 * compression, RFC 6282 §2), so 1280 takes every datagram a conforming sender
 * sends, and is the least allowed. Cost: each reassembly slot holds two
 * bitmaps of one bit per 8-octet unit up to this size (2 x 32 B at 2047, 2 x
 * 20 B at 1280).
 */
#ifndef TERN_CONF_SIXLOWPAN_REASS_SIZE_MAX
#define TERN_CONF_SIXLOWPAN_REASS_SIZE_MAX 2047u
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_REASS_SIZE_MAX >= 1280 && TERN_CONF_SIXLOWPAN_REASS_SIZE_MAX <= 2047,
               "TERN_CONF_SIXLOWPAN_REASS_SIZE_MAX out of range [1280, 2047] (RFC 4944 §4 MTU, §5.3 11 bits)");

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

/* ---------------------------------------------------------------- 6LoWPAN module */

/**
 * Priority of the 6LoWPAN module (0 most urgent). Default 3: after the
 * interfaces (2), whose frames it takes, and before IPv6 (4), which it feeds.
 */
#ifndef TERN_CONF_SIXLOWPAN_PRIORITY
#define TERN_CONF_SIXLOWPAN_PRIORITY 3
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_PRIORITY >= 0 && TERN_CONF_SIXLOWPAN_PRIORITY <= 255,
               "TERN_CONF_SIXLOWPAN_PRIORITY out of range [0, 255]");

/**
 * Message queue length of the 6LoWPAN module (a power of two). It takes the
 * frames of every 6LoWPAN interface, the datagrams IPv6 sends, its own
 * "next fragment" message and its timer. Default 16: a burst of fragments
 * from a neighbour while IPv6 sends. Cost: 12 (32-bit) / 24 (64-bit) B each.
 */
#ifndef TERN_CONF_SIXLOWPAN_QUEUE_LEN
#define TERN_CONF_SIXLOWPAN_QUEUE_LEN 16
#endif
_Static_assert((TERN_CONF_SIXLOWPAN_QUEUE_LEN & (TERN_CONF_SIXLOWPAN_QUEUE_LEN - 1)) == 0 &&
               TERN_CONF_SIXLOWPAN_QUEUE_LEN >= 2 && TERN_CONF_SIXLOWPAN_QUEUE_LEN <= 1024,
               "TERN_CONF_SIXLOWPAN_QUEUE_LEN must be a power of two in [2, 1024]");

/**
 * Interfaces one 6LoWPAN module serves. Default 2 (a node with one radio, a
 * border router with two). Cost: about 30 B plus 27 B per IPHC context
 * (TERN_CONF_SIXLOWPAN_CONTEXTS) each.
 */
#ifndef TERN_CONF_SIXLOWPAN_NETIFS
#define TERN_CONF_SIXLOWPAN_NETIFS 2
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_NETIFS >= 1 && TERN_CONF_SIXLOWPAN_NETIFS <= 64,
               "TERN_CONF_SIXLOWPAN_NETIFS out of range [1, 64]");

/**
 * IPHC compression contexts (RFC 6282 §3.1.2) one 6LoWPAN interface keeps,
 * whatever their identifiers (0..15). Default 16: one per identifier. A node
 * whose contexts come only from 6Lo-ND (RFC 6775 §4.2) never holds more than
 * TERN_CONF_IPV6_6LO_CONTEXTS of them. Cost: 27 B each (the context and its
 * expiry time), per interface.
 */
#ifndef TERN_CONF_SIXLOWPAN_CONTEXTS
#define TERN_CONF_SIXLOWPAN_CONTEXTS 16
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_CONTEXTS >= 1 && TERN_CONF_SIXLOWPAN_CONTEXTS <= 16,
               "TERN_CONF_SIXLOWPAN_CONTEXTS out of range [1, 16] (RFC 6282 §3.1.2: 4-bit CID)");

/**
 * Datagrams being sent in fragments at the same time (one fragment per turn
 * each, served in turn; each next fragment once the interface reported the
 * last one's outcome). A datagram to fragment while every slot is busy waits
 * (TERN_CONF_SIXLOWPAN_FRAG_WAIT). Default 2: each holds its whole datagram
 * in pktbuf until its last fragment is out (up to 1280 B of the 6144 B
 * default). Cost: about 56 B each plus that pktbuf.
 */
#ifndef TERN_CONF_SIXLOWPAN_FRAG_SLOTS
#define TERN_CONF_SIXLOWPAN_FRAG_SLOTS 2
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_FRAG_SLOTS >= 1 && TERN_CONF_SIXLOWPAN_FRAG_SLOTS <= 64,
               "TERN_CONF_SIXLOWPAN_FRAG_SLOTS out of range [1, 64]");

/**
 * Datagrams that wait, in order, for a fragmentation slot while all
 * TERN_CONF_SIXLOWPAN_FRAG_SLOTS are busy; one more is dropped and counted
 * (tx_busy). Default 4: a burst of large datagrams (a router forwarding
 * several, a fast ping) is sent rather than lost; they wait in pktbuf, which
 * bounds them too. Cost: a pointer each.
 */
#ifndef TERN_CONF_SIXLOWPAN_FRAG_WAIT
#define TERN_CONF_SIXLOWPAN_FRAG_WAIT 4
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_FRAG_WAIT >= 0 && TERN_CONF_SIXLOWPAN_FRAG_WAIT <= 64,
               "TERN_CONF_SIXLOWPAN_FRAG_WAIT out of range [0, 64]");

/**
 * 1: the 6LoWPAN compressor encodes IPv6 extension headers and encapsulated
 * IPv6 headers with LOWPAN_NHC (RFC 6282 §4.2) as well as UDP (§4.3).
 * 0: it compresses the IPv6 header and a UDP header right after it only;
 * a datagram with extension headers or IPv6-in-IPv6 goes with the Next
 * Header in line (NH=0, §3.1.1) and those headers uncompressed after the
 * IPHC header, which RFC 6282 allows (LOWPAN_NHC is a choice of the
 * compressor). The decompressor still takes every NHC encoding (§4.2): what
 * other nodes send is decoded as before. For a node that sends no extension
 * headers: a host without RPL (no RPL Option), IPv6 fragmentation or router
 * functions (no tunnels) sends none of its own; a raw socket's still go,
 * less compressed. Default 1. Saves about 0.6 KiB of code in the 6LoWPAN
 * host footprint image (Cortex-M3); the router one keeps it (its packets
 * carry the RPL Option).
 */
#ifndef TERN_CONF_SIXLOWPAN_NHC_EXT
#define TERN_CONF_SIXLOWPAN_NHC_EXT 1
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_NHC_EXT == 0 || TERN_CONF_SIXLOWPAN_NHC_EXT == 1,
               "TERN_CONF_SIXLOWPAN_NHC_EXT must be 0 or 1");

/**
 * Longest run of uncompressed IPv6 + extension + UDP headers the module
 * handles, in bytes: the room decompressed headers of one frame get, and
 * the datagram prefix it offers the compressor. A received frame whose
 * headers decompress to more is dropped (rx_headers_too_long); on send,
 * headers beyond it are sent uncompressed. Default 384: IPv6 (40), UDP (8)
 * and over 300 bytes of extension headers (an RPL source route of 18
 * hops); the codec's worst case is TERN_IPHC_DECOMPRESSED_MAX (2152). Cost:
 * exactly this many bytes, once per module.
 */
#ifndef TERN_CONF_SIXLOWPAN_HEADERS_MAX
#define TERN_CONF_SIXLOWPAN_HEADERS_MAX 384
#endif
_Static_assert(TERN_CONF_SIXLOWPAN_HEADERS_MAX >= 48 && TERN_CONF_SIXLOWPAN_HEADERS_MAX <= 2152,
               "TERN_CONF_SIXLOWPAN_HEADERS_MAX out of range [48, 2152]");

/* ------------------------------------------------------------------ RPL (RFC 6550) */

/**
 * Interfaces one RPL module runs on. Default 2: a border router's mesh side
 * and one more. Cost: a pointer each.
 */
#ifndef TERN_CONF_RPL_IFS
#define TERN_CONF_RPL_IFS 2
#endif
_Static_assert(TERN_CONF_RPL_IFS >= 1 && TERN_CONF_RPL_IFS <= 16, "TERN_CONF_RPL_IFS out of range [1, 16]");

/**
 * Routes that failed (RPL Option forwarding errors, RFC 6550 §11.2.2.3) the
 * IPv6 module can report to RPL between two turns of the RPL module.
 * Default 4; when full, later reports are counted as rpi_events_lost (the
 * FIB route is gone anyway; RPL's copy then runs out with its lifetime).
 * Cost: 16 B each.
 */
#ifndef TERN_CONF_RPL_RPI_EVENTS
#define TERN_CONF_RPL_RPI_EVENTS 4
#endif
_Static_assert(TERN_CONF_RPL_RPI_EVENTS >= 1 && TERN_CONF_RPL_RPI_EVENTS <= 64,
               "TERN_CONF_RPL_RPI_EVENTS out of range [1, 64]");

/**
 * RPL Option type a Tern root announces (RFC 9008 §4.3): 0 = 0x63 (RFC 6553,
 * what RFC 6553-only nodes understand), 1 = 0x23. Tern nodes follow the
 * root's DODAG Configuration option. Default 0; the root removes the option
 * from packets leaving the RPL domain either way (docs/RPL.md, "Loop detection").
 */
#ifndef TERN_CONF_RPL_RPI_TYPE_RFC9008
#define TERN_CONF_RPL_RPI_TYPE_RFC9008 0
#endif
_Static_assert(TERN_CONF_RPL_RPI_TYPE_RFC9008 == 0 || TERN_CONF_RPL_RPI_TYPE_RFC9008 == 1,
               "TERN_CONF_RPL_RPI_TYPE_RFC9008 must be 0 or 1");

/**
 * Parent candidates kept per node (RFC 6550 §8.2.1: the parent set is a
 * subset of the DODAG's candidate neighbors). Default 4: a grid node hears
 * up to four neighbors closer to the root. When full, a new candidate
 * replaces the worst one only when it is better (counted otherwise as
 * parent_table_full). Cost: about 36 B each.
 */
#ifndef TERN_CONF_RPL_PARENTS
#define TERN_CONF_RPL_PARENTS 4
#endif
_Static_assert(TERN_CONF_RPL_PARENTS >= 1 && TERN_CONF_RPL_PARENTS <= 32, "TERN_CONF_RPL_PARENTS out of range [1, 32]");

/**
 * Downward routes from DAOs (storing mode, RFC 6550 §9.8): one per target in
 * the node's sub-DODAG; the root needs one per node of the mesh. Default 32.
 * Each also takes a FIB slot (TERN_CONF_FIB_SIZE bounds them too). Cost:
 * about 48 B each.
 */
#ifndef TERN_CONF_RPL_ROUTES
#define TERN_CONF_RPL_ROUTES 32
#endif
_Static_assert(TERN_CONF_RPL_ROUTES >= 1 && TERN_CONF_RPL_ROUTES <= 1024, "TERN_CONF_RPL_ROUTES out of range [1, 1024]");

/**
 * TX status reports waiting for the module's turn (the interface reports
 * each frame's outcome, RFC 6719 ETX input). Default 8: one executor turn of
 * a busy MAC. A report with the ring full is lost (counted in tx_lost).
 * Cost: TERN_CONF_L2ADDR_MAX + 3 B each.
 */
#ifndef TERN_CONF_RPL_TX_REPORTS
#define TERN_CONF_RPL_TX_REPORTS 8
#endif
_Static_assert(TERN_CONF_RPL_TX_REPORTS >= 1 && TERN_CONF_RPL_TX_REPORTS <= 255,
               "TERN_CONF_RPL_TX_REPORTS out of range [1, 255]");

/**
 * What a root puts in its DODAG Configuration option (RFC 6550 §6.7.6),
 * and what a node uses before it heard one. DIOIntervalMin 12 (2^12 ms =
 * 4.1 s) and 8 doublings (Imax about 17 min) instead of §17's 3 and 20: the
 * values Contiki-NG and RIOT ship for 802.15.4 meshes, where 8 ms DIO
 * bursts cost more air than they save join time. Redundancy 10 (§17).
 */
#ifndef TERN_CONF_RPL_DIO_INTERVAL_MIN
#define TERN_CONF_RPL_DIO_INTERVAL_MIN 12
#endif
/* At most 22 (2^22 ms, 70 minutes): Imin in microseconds fits 32 bits, as
 * the Trickle timer keeps it (TERN_TRICKLE_DIO_INTERVAL_MIN_MAX, tern/rpl/trickle.h). */
_Static_assert(TERN_CONF_RPL_DIO_INTERVAL_MIN >= 1 && TERN_CONF_RPL_DIO_INTERVAL_MIN <= 22,
               "TERN_CONF_RPL_DIO_INTERVAL_MIN out of range [1, 22]");
#ifndef TERN_CONF_RPL_DIO_INTERVAL_DOUBLINGS
#define TERN_CONF_RPL_DIO_INTERVAL_DOUBLINGS 8
#endif
_Static_assert(TERN_CONF_RPL_DIO_INTERVAL_DOUBLINGS >= 0 && TERN_CONF_RPL_DIO_INTERVAL_DOUBLINGS <= 30,
               "TERN_CONF_RPL_DIO_INTERVAL_DOUBLINGS out of range [0, 30]");
#ifndef TERN_CONF_RPL_DIO_REDUNDANCY
#define TERN_CONF_RPL_DIO_REDUNDANCY 10
#endif
_Static_assert(TERN_CONF_RPL_DIO_REDUNDANCY >= 0 && TERN_CONF_RPL_DIO_REDUNDANCY <= 255,
               "TERN_CONF_RPL_DIO_REDUNDANCY out of range [0, 255]");

/**
 * MinHopRankIncrease (RFC 6550 §17 DEFAULT_MIN_HOP_RANK_INCREASE 256) and
 * DAGMaxRankIncrease (§8.2.2.4; 0 disables the rule): 7 hops' worth, as
 * Contiki-NG, so a node may move down a few hops during local repair.
 */
#ifndef TERN_CONF_RPL_MIN_HOP_RANK_INCREASE
#define TERN_CONF_RPL_MIN_HOP_RANK_INCREASE 256
#endif
_Static_assert(TERN_CONF_RPL_MIN_HOP_RANK_INCREASE >= 1 && TERN_CONF_RPL_MIN_HOP_RANK_INCREASE <= 4096,
               "TERN_CONF_RPL_MIN_HOP_RANK_INCREASE out of range [1, 4096]");
#ifndef TERN_CONF_RPL_MAX_RANK_INCREASE
#define TERN_CONF_RPL_MAX_RANK_INCREASE (7 * 256)
#endif
_Static_assert(TERN_CONF_RPL_MAX_RANK_INCREASE >= 0 && TERN_CONF_RPL_MAX_RANK_INCREASE <= 65535,
               "TERN_CONF_RPL_MAX_RANK_INCREASE out of range [0, 65535]");

/**
 * Objective function a root announces (OCP, RFC 6550 §6.7.6): 0 OF0
 * (RFC 6552), 1 MRHOF with ETX (RFC 6719). Default 1: the meshes
 * have lossy links, which hop count does not see.
 */
#ifndef TERN_CONF_RPL_OCP
#define TERN_CONF_RPL_OCP 1
#endif
_Static_assert(TERN_CONF_RPL_OCP == 0 || TERN_CONF_RPL_OCP == 1, "TERN_CONF_RPL_OCP must be 0 or 1");

/**
 * 1: the RPL module answers GET TERN_NETOPT_RPL_STATE (tern_rpl_get_state()):
 * a copy of its parents, routes, Trickle timer and DODAG for the shell's
 * `rpl` command. 0: it answers -ENOTSUP; no protocol reads it, only people
 * do, through a shell an image without one does not have (as
 * TERN_CONF_IPV6_INSPECT for the IPv6 module). A plain C option. Default 1.
 * Saves about 0.25 KiB of code in the router footprint image (Cortex-M3).
 */
#ifndef TERN_CONF_RPL_INSPECT
#define TERN_CONF_RPL_INSPECT 1
#endif
_Static_assert(TERN_CONF_RPL_INSPECT == 0 || TERN_CONF_RPL_INSPECT == 1, "TERN_CONF_RPL_INSPECT must be 0 or 1");

/**
 * Objective functions built (feature switches, set through CMake like the
 * others, see "feature switches" above): OF0 (RFC 6552, src/rpl/of0.c) and
 * MRHOF (RFC 6719, src/rpl/mrhof.c). A node joins only DODAGs whose OCP it
 * has (a DIO with another is counted as ocp_unsupported, RFC 6550 §18.5);
 * a root announces TERN_CONF_RPL_OCP and computes no rank from parents,
 * so a root-only image needs neither (saves 0.4 KiB of code for OF0, 0.6 KiB
 * for MRHOF). With both at 0 the node never has a preferred parent: the IPv6
 * module refuses an RPL state that names one (TERN_NETOPT_IPV6_RPL_STATE,
 * -EINVAL) and leaves the RPI's parent rules out (about 0.3 KiB more).
 * Default 1 and 1.
 */
#ifndef TERN_CONF_RPL_OF0
#define TERN_CONF_RPL_OF0 1
#endif
#ifndef TERN_CONF_RPL_MRHOF
#define TERN_CONF_RPL_MRHOF 1
#endif
_Static_assert((TERN_CONF_RPL_OF0 == 0 || TERN_CONF_RPL_OF0 == 1) && (TERN_CONF_RPL_MRHOF == 0 || TERN_CONF_RPL_MRHOF == 1),
               "TERN_CONF_RPL_OF0 and TERN_CONF_RPL_MRHOF must be 0 or 1");
/* Parent selection takes its link feedback from the interfaces' TX status hook. */
_Static_assert(TERN_CONF_NETIF_TX_STATUS || !(TERN_CONF_RPL_OF0 || TERN_CONF_RPL_MRHOF),
               "an objective function (TERN_CONF_RPL_OF0, TERN_CONF_RPL_MRHOF) needs TERN_CONF_NETIF_TX_STATUS 1");

/**
 * Route lifetimes a root announces (§6.7.6): Default Lifetime in units of
 * Lifetime Unit seconds. Default 30 x 60 s: DAOs are refreshed at half of
 * it, so a route outlives one lost refresh.
 */
#ifndef TERN_CONF_RPL_DEFAULT_LIFETIME
#define TERN_CONF_RPL_DEFAULT_LIFETIME 30
#endif
_Static_assert(TERN_CONF_RPL_DEFAULT_LIFETIME >= 1 && TERN_CONF_RPL_DEFAULT_LIFETIME <= 254,
               "TERN_CONF_RPL_DEFAULT_LIFETIME out of range [1, 254]");
#ifndef TERN_CONF_RPL_LIFETIME_UNIT
#define TERN_CONF_RPL_LIFETIME_UNIT 60
#endif
_Static_assert(TERN_CONF_RPL_LIFETIME_UNIT >= 1 && TERN_CONF_RPL_LIFETIME_UNIT <= 65535,
               "TERN_CONF_RPL_LIFETIME_UNIT out of range [1, 65535]");

/**
 * DAO-ACK wait before a DAO is sent again, in ms, and how many times
 * (RFC 6550 §9.3 leaves both to the implementation; Contiki-NG: 4 retries).
 * After the last one the DAO is given up until the next refresh or parent
 * change (counted as dao_gave_up).
 */
#ifndef TERN_CONF_RPL_DAO_ACK_TIMEOUT_MS
#define TERN_CONF_RPL_DAO_ACK_TIMEOUT_MS 2000
#endif
_Static_assert(TERN_CONF_RPL_DAO_ACK_TIMEOUT_MS >= 10 && TERN_CONF_RPL_DAO_ACK_TIMEOUT_MS <= 600000,
               "TERN_CONF_RPL_DAO_ACK_TIMEOUT_MS out of range [10, 600000]");
#ifndef TERN_CONF_RPL_DAO_RETRIES
#define TERN_CONF_RPL_DAO_RETRIES 4
#endif
_Static_assert(TERN_CONF_RPL_DAO_RETRIES >= 0 && TERN_CONF_RPL_DAO_RETRIES <= 32,
               "TERN_CONF_RPL_DAO_RETRIES out of range [0, 32]");

/**
 * Consecutive unacknowledged frames (each after the MAC's own retries)
 * after which a parent is removed (RFC 6550 §8.2.2.5: loss of connectivity
 * detected by the link layer). Default 3.
 */
#ifndef TERN_CONF_RPL_PARENT_FAILURES
#define TERN_CONF_RPL_PARENT_FAILURES 3
#endif
_Static_assert(TERN_CONF_RPL_PARENT_FAILURES >= 1 && TERN_CONF_RPL_PARENT_FAILURES <= 255,
               "TERN_CONF_RPL_PARENT_FAILURES out of range [1, 255]");

/**
 * A preferred parent not heard from (no DIO) for this many seconds is probed
 * with a unicast DIS (RFC 6550 §8.3: answered by a unicast DIO); the frame's
 * acknowledgment (TX status) or its absence is what detects a parent gone
 * silent when the node has no traffic of its own (§8.2.2.5 leaves the means
 * open; Contiki-NG probes the same way). After a failure the probe repeats
 * every 2 s until TERN_CONF_RPL_PARENT_FAILURES remove the parent.
 * Default 60 s.
 */
#ifndef TERN_CONF_RPL_PROBE_INTERVAL_S
#define TERN_CONF_RPL_PROBE_INTERVAL_S 60
#endif
_Static_assert(TERN_CONF_RPL_PROBE_INTERVAL_S >= 1 && TERN_CONF_RPL_PROBE_INTERVAL_S <= 86400,
               "TERN_CONF_RPL_PROBE_INTERVAL_S out of range [1, 86400]");

/**
 * Mode of operation a root chooses when none is given (tern_rpl_set_root()):
 * 2 storing (RFC 6550 §9.8, routes kept in every router) or 1 non-storing
 * (§9.7: the root keeps the parent graph and source-routes, RFC 6554).
 * Default 2.
 */
#ifndef TERN_CONF_RPL_MOP
#define TERN_CONF_RPL_MOP 2
#endif
_Static_assert(TERN_CONF_RPL_MOP == 1 || TERN_CONF_RPL_MOP == 2, "TERN_CONF_RPL_MOP must be 1 or 2");

/**
 * Non-storing mode: (target -> parent) links a root keeps from DAOs
 * (RFC 6550 §9.7), each with the lifetime of its Transit Information. When
 * full, new targets are refused (counted as route_table_full). Default 64:
 * tern-sim's largest mesh. Cost: 48 B each in every RPL module (and in
 * tern_rpl_state_t); only a root fills them, so nodes that never root can
 * set 1. 0 (a feature switch: set it through CMake, see "feature switches"
 * above) leaves the table and the root's non-storing code out
 * (src/rpl/nonstoring.c, about 1 KiB): a root then source-routes nothing
 * and a non-storing DODAG has no downward routes, so build it only for
 * storing-mode networks; a non-storing node (not root) still announces its
 * parent (nonstoring_node.c). Without that root the build has no source route
 * provider, so the IPv6 module leaves out the insertion of Source Routing
 * Headers (RFC 6554 §4.1) and the tunnel entry they need for forwarded
 * packets (src/ipv6/srh.c, tunnel.c; SET TERN_NETOPT_IPV6_SOURCE_ROUTER
 * answers -ENOTSUP); received Source Routing Headers are processed as before
 * (§4.2). About 1 KiB more saved in the router footprint image.
 */
#ifndef TERN_CONF_RPL_NS_LINKS
#define TERN_CONF_RPL_NS_LINKS 64
#endif
_Static_assert(TERN_CONF_RPL_NS_LINKS >= 0 && TERN_CONF_RPL_NS_LINKS <= 4096,
               "TERN_CONF_RPL_NS_LINKS out of range [0, 4096]");
_Static_assert(TERN_CONF_RPL_NS_LINKS > 0 || TERN_CONF_RPL_MOP == 2,
               "TERN_CONF_RPL_NS_LINKS 0 (no non-storing root) needs TERN_CONF_RPL_MOP 2 (storing)");

/**
 * Longest source route, in hops from the root (the first hop included), that
 * the IPv6 module inserts as a Source Routing Header (RFC 6554) for a source
 * route provider; a longer path is not source-routed (counted). Default 16:
 * the SRH of a 16-hop route in one /64 is 8 + 15 x 8 = 128 bytes, within
 * TERN_CONF_SIXLOWPAN_HEADERS_MAX. Cost: 16 B per hop, once per IPv6 module.
 */
#ifndef TERN_CONF_IPV6_SRH_HOPS
#define TERN_CONF_IPV6_SRH_HOPS 16
#endif
_Static_assert(TERN_CONF_IPV6_SRH_HOPS >= 1 && TERN_CONF_IPV6_SRH_HOPS <= 255,
               "TERN_CONF_IPV6_SRH_HOPS out of range [1, 255]");

/* ---------------------------------------------------------------- RPL logic (trickle, OF0, MRHOF, ETX) */

/**
 * Neighbors whose link ETX one estimator (tern/rpl/etx.h) tracks, per
 * interface. When full, the neighbor updated least recently is replaced
 * (counted as evicted) and starts again from TERN_CONF_RPL_ETX_INITIAL.
 * Default 16: the parent candidates of a mesh node plus its children.
 * Cost: 16 B each (TERN_CONF_L2ADDR_MAX 8).
 */
#ifndef TERN_CONF_RPL_ETX_NEIGHBORS
#define TERN_CONF_RPL_ETX_NEIGHBORS 16
#endif
_Static_assert(TERN_CONF_RPL_ETX_NEIGHBORS >= 1 && TERN_CONF_RPL_ETX_NEIGHBORS <= 1024,
               "TERN_CONF_RPL_ETX_NEIGHBORS out of range [1, 1024]");

/**
 * ETX (x 128, RFC 6551 §4.3.5) of a neighbor nothing was sent to yet.
 * Default 256 (ETX 2): neither a perfect link nor a bad one, as Contiki-NG's
 * link-stats (ETX_DEFAULT 2); below MRHOF's MAX_LINK_METRIC, so a new neighbor
 * can be chosen, but above a measured good link, so a known good parent is
 * not left for an unknown one. No memory cost.
 */
#ifndef TERN_CONF_RPL_ETX_INITIAL
#define TERN_CONF_RPL_ETX_INITIAL 256u
#endif
_Static_assert(TERN_CONF_RPL_ETX_INITIAL >= 128 && TERN_CONF_RPL_ETX_INITIAL <= 255 * 128,
               "TERN_CONF_RPL_ETX_INITIAL out of range [128, 32640]");

/**
 * Smoothing of the ETX average: each frame's sample has weight
 * 1 / TERN_CONF_RPL_ETX_SMOOTHING (10: alpha 0.9, the common practice of
 * Contiki-NG and RIOT). Larger is steadier, smaller reacts faster.
 * No memory cost.
 */
#ifndef TERN_CONF_RPL_ETX_SMOOTHING
#define TERN_CONF_RPL_ETX_SMOOTHING 10u
#endif
_Static_assert(TERN_CONF_RPL_ETX_SMOOTHING >= 1 && TERN_CONF_RPL_ETX_SMOOTHING <= 255,
               "TERN_CONF_RPL_ETX_SMOOTHING out of range [1, 255]");

/**
 * Sample (in transmissions) a frame that was never acknowledged counts as,
 * when it went on the air fewer times. Default 12 (Contiki-NG's
 * ETX_NOACK_PENALTY): about four lost frames in a row take a perfect link
 * above MAX_LINK_METRIC (ETX 4). No memory cost.
 */
#ifndef TERN_CONF_RPL_ETX_NOACK_PENALTY
#define TERN_CONF_RPL_ETX_NOACK_PENALTY 12u
#endif
_Static_assert(TERN_CONF_RPL_ETX_NOACK_PENALTY >= 1 && TERN_CONF_RPL_ETX_NOACK_PENALTY <= 255,
               "TERN_CONF_RPL_ETX_NOACK_PENALTY out of range [1, 255]");

/**
 * OF0 (RFC 6552 §4.1, §6) step_of_rank Sp, rank_factor Rf and
 * stretch_of_rank Sr: rank_increase = (Rf x Sp + Sr) x MinHopRankIncrease.
 * Defaults: the RFC's DEFAULT_STEP_OF_RANK 3, DEFAULT_RANK_FACTOR 1,
 * DEFAULT_RANK_STRETCH 0. Sp 0 derives the step from the link ETX
 * (3 x ETX - 2, see tern_rpl_of0_step_of_rank()). No memory cost.
 */
#ifndef TERN_CONF_RPL_OF0_STEP_OF_RANK
#define TERN_CONF_RPL_OF0_STEP_OF_RANK 3u
#endif
_Static_assert(TERN_CONF_RPL_OF0_STEP_OF_RANK <= 9,
               "TERN_CONF_RPL_OF0_STEP_OF_RANK out of range [0 (from ETX), 1..9] (RFC 6552 §6)");
#ifndef TERN_CONF_RPL_OF0_RANK_FACTOR
#define TERN_CONF_RPL_OF0_RANK_FACTOR 1u
#endif
_Static_assert(TERN_CONF_RPL_OF0_RANK_FACTOR >= 1 && TERN_CONF_RPL_OF0_RANK_FACTOR <= 4,
               "TERN_CONF_RPL_OF0_RANK_FACTOR out of range [1, 4] (RFC 6552 §6)");
#ifndef TERN_CONF_RPL_OF0_STRETCH_OF_RANK
#define TERN_CONF_RPL_OF0_STRETCH_OF_RANK 0u
#endif
_Static_assert(TERN_CONF_RPL_OF0_STRETCH_OF_RANK <= 5,
               "TERN_CONF_RPL_OF0_STRETCH_OF_RANK out of range [0, 5] (RFC 6552 §6)");

/**
 * Parents an objective function selects at most, the preferred one
 * included: MRHOF's PARENT_SET_SIZE (RFC 6719 §5, default 3); OF0 uses two
 * (preferred and backup, RFC 6552 §4.2). Cost: 2 B per slot of each
 * selection result.
 */
#ifndef TERN_CONF_RPL_PARENT_SET_SIZE
#define TERN_CONF_RPL_PARENT_SET_SIZE 3u
#endif
_Static_assert(TERN_CONF_RPL_PARENT_SET_SIZE >= 1 && TERN_CONF_RPL_PARENT_SET_SIZE <= 16,
               "TERN_CONF_RPL_PARENT_SET_SIZE out of range [1, 16]");

/**
 * MRHOF with ETX (RFC 6719 §5): MAX_LINK_METRIC 512 (ETX 4: worse links are
 * not used), MAX_PATH_COST 32768 (ETX 256: costlier paths are not used) and
 * PARENT_SWITCH_THRESHOLD 192 (ETX 1.5: a new preferred parent must be
 * this much cheaper than the current one). All ETX x 128. No memory cost.
 */
#ifndef TERN_CONF_RPL_MRHOF_MAX_LINK_METRIC
#define TERN_CONF_RPL_MRHOF_MAX_LINK_METRIC 512u
#endif
_Static_assert(TERN_CONF_RPL_MRHOF_MAX_LINK_METRIC >= 128 && TERN_CONF_RPL_MRHOF_MAX_LINK_METRIC <= 65535,
               "TERN_CONF_RPL_MRHOF_MAX_LINK_METRIC out of range [128, 65535]");
#ifndef TERN_CONF_RPL_MRHOF_MAX_PATH_COST
#define TERN_CONF_RPL_MRHOF_MAX_PATH_COST 32768u
#endif
_Static_assert(TERN_CONF_RPL_MRHOF_MAX_PATH_COST >= 128 && TERN_CONF_RPL_MRHOF_MAX_PATH_COST <= 65535,
               "TERN_CONF_RPL_MRHOF_MAX_PATH_COST out of range [128, 65535]");
#ifndef TERN_CONF_RPL_MRHOF_PARENT_SWITCH_THRESHOLD
#define TERN_CONF_RPL_MRHOF_PARENT_SWITCH_THRESHOLD 192u
#endif
_Static_assert(TERN_CONF_RPL_MRHOF_PARENT_SWITCH_THRESHOLD <= 65535,
               "TERN_CONF_RPL_MRHOF_PARENT_SWITCH_THRESHOLD out of range [0, 65535]");

#endif /* TERN_CONFIG_H */
