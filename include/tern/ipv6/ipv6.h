/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IPv6 module: receive and send (RFC 8200), ICMPv6 echo (RFC 4443),
 *        Neighbor Discovery for address resolution and unreachability
 *        detection (RFC 4861 §7), and link-local addresses with DAD (RFC 4862).
 *
 * Read first: RFC 8200 §3-§4, RFC 4861 §7, RFC 4862 §5.3-§5.4.
 *
 * One module per stack, registered in netreg for (IPV6, ALL): interfaces
 * hand it received packets (RCV), upper layers send through it (SND):
 * [NETIF (optional, names the interface: needed for link-local and
 * multicast destinations), IPV6 (a header template built with
 * tern_ipv6_emit(): destination, next header, source :: for source
 * selection, hop limit 0 for the default), payload...]; the UDP and ICMPv6
 * checksums are filled in here. Received upper-layer packets are dispatched
 * through netreg as [payload (type UDP/TCP), IPV6_EXT?, IPV6, NETIF]. Each interface that
 * runs IPv6 is enabled with tern_ipv6_netif_enable(); it then gets a link-local
 * address from its link address (modified EUI-64), joins the all-nodes and
 * solicited-node groups, and runs DAD. The neighbor cache, the address table
 * and the forwarding table are the state machines of nc.h, addrs.h and fib.h;
 * this module owns them and gives them one timer.
 *
 * ICMPv6 errors about received packets follow RFC 4443 §2.4 (suppression
 * rules, minimum-MTU size, token-bucket rate limit): port unreachable,
 * unrecognized next header, and unrecognized options asking for it.
 *
 * A router forwards unicast packets between its interfaces (forward.c,
 * RFC 8200 §3): hop limit, Time Exceeded, Destination Unreachable, Packet
 * Too Big; static routes are set with TERN_NETOPT_IPV6_ROUTE_ADD / _DEL.
 * In an RPL DODAG the module adds, checks and updates the RPL Option
 * (RFC 6553) from the state RPL sets (tern/ipv6/rpi.h, rpi.c).
 *
 * Fragmentation and reassembly (RFC 8200 §4.5): frag.c, reass.c, state in
 * tern/ipv6/frag.h.
 *
 * MLDv2 (RFC 3810): the groups joined are reported to ff02::16 and Queries
 * answered, with the MLDv1 compatibility mode of §8.2.1 (mld.c). Echo
 * replies and errors about echo requests go to the application registered
 * for (ICMPV6, identifier) (icmpv6_app.c, ping.h).
 *
 * The destination cache (tern/ipv6/dcache.h, RFC 4861 §5.1) holds what
 * hosts learn per destination: next hops from Redirects (RFC 4861 §8,
 * icmpv6_ndp.c) and Path MTUs from Packet Too Big (RFC 8201, icmpv6_error.c),
 * which size the fragments of the node's own packets (frag.c). Packets that
 * waited for an address resolution that failed are answered with
 * Destination Unreachable code 3 (RFC 4861 §7.2.2) when forwarded, counted
 * when our own.
 *
 * On interfaces whose device is IEEE 802.15.4 (GET TERN_NETOPT_DEVICE_TYPE
 * at enable) Neighbor Discovery follows RFC 6775 / RFC 8505 instead:
 * address registration, no multicast DAD or resolution, 6CO and ABRO in
 * RAs (tern/ipv6/ndp_6lo.h, ndp_6lo.c, docs/6LO-ND.md).
 */
#ifndef TERN_IPV6_IPV6_H
#define TERN_IPV6_IPV6_H

#include <stdint.h>

#include "tern/config.h"
#include "tern/ipv6/addrs.h"
#include "tern/ipv6/dcache.h"
#include "tern/ipv6/fib.h"
#include "tern/ipv6/mld.h"
#include "tern/ipv6/frag.h"
#include "tern/ipv6/nc.h"
#include "tern/ipv6/ndp_6lo.h"
#include "tern/ipv6/rpi.h"
#include "tern/ipv6/srh.h"
#include "tern/netif.h"
#include "tern/netreg.h"
#include "tern/stack.h"
#include "tern/stats.h"
#include "tern/timer.h"

/** Counters of the IPv6 module, indices into tern_ipv6_t::counters. */
enum {
    TERN_IPV6_RX_PACKETS = 0,   /**< packets received from interfaces */
    TERN_IPV6_RX_DELIVERED,     /**< handed to ICMPv6 or an upper layer */
    TERN_IPV6_RX_HDR_ERRORS,    /**< bad version, truncated, multicast source */
    TERN_IPV6_RX_NOT_FOR_US,    /**< destination not ours (no forwarding yet) */
    TERN_IPV6_RX_NO_IF,         /**< arrived on an interface without IPv6 */
    TERN_IPV6_RX_EXT_DROPPED,   /**< extension header asked for a discard, or unsupported (AH...) */
    TERN_IPV6_RX_NOMEM,         /**< no packet buffer for header handling */
    TERN_IPV6_ICMP_BAD_CHECKSUM, /**< ICMPv6 messages with a wrong checksum */
    TERN_IPV6_ICMP_ECHO_IN,     /**< echo requests answered */
    TERN_IPV6_ICMP_UNHANDLED,   /**< ICMPv6 types not handled yet (RA, MLD, errors...) */
    TERN_IPV6_NDP_INVALID,      /**< ND messages failing RFC 4861 validity checks */
    TERN_IPV6_TX_PACKETS,       /**< packets sent */
    TERN_IPV6_TX_NO_ROUTE,      /**< no route or no usable source address */
    TERN_IPV6_TX_NOMEM,         /**< no packet buffer to build a packet */
    TERN_IPV6_TX_INVALID,       /**< packets from upper layers without a valid IPv6 header template */
    TERN_IPV6_DAD_DUPLICATES,   /**< addresses found duplicate */
    TERN_IPV6_ICMP_ERRORS_OUT,  /**< ICMPv6 error messages sent */
    TERN_IPV6_ICMP_ERRORS_SUPPRESSED, /**< errors not sent by RFC 4443 §2.4 (e) (about errors, multicast...) */
    TERN_IPV6_ICMP_RATE_LIMITED, /**< errors not sent: rate limit (RFC 4443 §2.4 (f)) */
    TERN_IPV6_RX_NO_PROTO,      /**< packets for a protocol nobody takes (answered by ICMPv6) */
    TERN_IPV6_RS_SENT,          /**< Router Solicitations sent (RFC 4861 §6.3.7) */
    TERN_IPV6_RA_SENT,          /**< Router Advertisements sent (RFC 4861 §6.2.4-§6.2.6) */
    TERN_IPV6_RA_RECEIVED,      /**< valid Router Advertisements processed (RFC 4861 §6.3.4) */
    TERN_IPV6_RD_IGNORED,       /**< RS on a host (§6.2.6), RA on a router (§6.2.7): discarded */
    TERN_IPV6_RA_OPT_IGNORED,   /**< RA options ignored: bad prefix, MTU out of range, no room */
    TERN_IPV6_FWD_PACKETS,      /**< packets forwarded (router, RFC 8200 §3) */
    TERN_IPV6_FWD_HOP_LIMIT,    /**< not forwarded: hop limit exhausted (Time Exceeded, RFC 4443 §3.3) */
    TERN_IPV6_FWD_NO_ROUTE,     /**< not forwarded: no route (Destination Unreachable code 0) */
    TERN_IPV6_FWD_TOO_BIG,      /**< not forwarded: larger than the outgoing link MTU (Packet Too Big) */
    TERN_IPV6_FWD_SCOPE,        /**< not forwarded: link-local or unspecified address (RFC 4291 §2.5.6) */
    TERN_IPV6_ICMP_NO_LISTENER, /**< echo replies / errors about echo requests with no application (ping) */
    TERN_IPV6_ICMP_ERR_NOT_OURS, /**< errors quoting a packet (e.g. UDP) whose source is none of our addresses: ignored */
    TERN_IPV6_MLD_NO_ROOM,      /**< groups joined but not reported: TERN_CONF_MLD_GROUPS full (also without MLD: mld_none.c) */
#if TERN_CONF_IPV6_MLD /* counters of the features a switch leaves out are left out too */
    TERN_IPV6_MLD_REPORTS_SENT, /**< MLDv2 reports sent (RFC 3810 §6) */
    TERN_IPV6_MLD_QUERIES_RECEIVED, /**< valid MLD Queries received (RFC 3810 §6.2) */
    TERN_IPV6_MLD_INVALID,      /**< MLD Queries, MLDv1 Reports dropped: malformed, not link-local source, hop limit not 1 (§5.1.14) */
    TERN_IPV6_MLD_V1_QUERIES_RECEIVED, /**< valid MLDv1 Queries received (RFC 3810 §8.2.1; also in mld_queries_received) */
    TERN_IPV6_MLD_V1_MODE_ENTERED, /**< interfaces switched to MLDv1 compatibility mode (RFC 3810 §8.2.1) */
    TERN_IPV6_MLD_V1_REPORTS_SENT, /**< MLDv1 Reports sent in compatibility mode (RFC 2710 §4) */
    TERN_IPV6_MLD_V1_DONES_SENT, /**< MLDv1 Dones sent in compatibility mode (RFC 2710 §4) */
    TERN_IPV6_MLD_V1_REPORTS_RECEIVED, /**< valid MLDv1 Reports of other listeners received */
    TERN_IPV6_MLD_V1_SUPPRESSED, /**< our MLDv1 Reports not sent: another listener reported first (RFC 2710 §4) */
#endif
    TERN_IPV6_REASS_OK,         /**< datagrams reassembled from fragments (RFC 8200 §4.5) */
    TERN_IPV6_REASS_ATOMIC,     /**< atomic fragments (offset 0, M 0) processed whole (RFC 6946) */
    TERN_IPV6_REASS_DUPLICATE,  /**< fragments dropped: exact duplicates of received bytes */
    TERN_IPV6_REASS_OVERLAP,    /**< fragments dropped with their datagram: overlap (RFC 5722) */
    TERN_IPV6_REASS_TIMEOUT,    /**< datagrams dropped: not complete within the timeout */
    TERN_IPV6_REASS_EVICTED,    /**< datagrams dropped: all slots busy, oldest one evicted */
    TERN_IPV6_REASS_NOMEM,      /**< fragments dropped with their datagram: no packet buffer */
    TERN_IPV6_REASS_INVALID,    /**< fragments dropped: bad length/offset, empty, inconsistent, tentative */
    TERN_IPV6_FRAG_FAIL,        /**< datagrams not fragmented: no buffer, MTU too small (or no fragmentation built) */
#if TERN_CONF_IPV6_FRAG
    TERN_IPV6_FRAG_OK,          /**< datagrams sent in fragments */
    TERN_IPV6_FRAG_SENT,        /**< fragments created */
#endif
#if TERN_CONF_IPV6_DCACHE /* Redirects and Path MTU Discovery keep their state there */
    TERN_IPV6_REDIRECT_ACCEPTED, /**< valid Redirects applied to the destination cache (RFC 4861 §8.3) */
    TERN_IPV6_REDIRECT_ON_ROUTER, /**< Redirects ignored: the node is a router (RFC 4861 §8.2) */
    TERN_IPV6_REDIRECT_BAD_SOURCE, /**< Redirects dropped: IP source not link-local (§8.1) */
    TERN_IPV6_REDIRECT_BAD_HOP_LIMIT, /**< Redirects dropped: IP hop limit not 255 (§8.1) */
    TERN_IPV6_REDIRECT_BAD_CODE, /**< Redirects dropped: ICMP code not 0 (§8.1) */
    TERN_IPV6_REDIRECT_TOO_SHORT, /**< Redirects dropped: ICMP length below 40 (§8.1) */
    TERN_IPV6_REDIRECT_NOT_FIRST_HOP, /**< Redirects dropped: source not the current first hop for the destination (§8.1) */
    TERN_IPV6_REDIRECT_MULTICAST_DST, /**< Redirects dropped: multicast Destination Address (§8.1) */
    TERN_IPV6_REDIRECT_BAD_TARGET, /**< Redirects dropped: target neither link-local nor the destination (§8.1) */
    TERN_IPV6_REDIRECT_BAD_OPTIONS, /**< Redirects dropped: an option of length 0 or past the end (§8.1) */
    TERN_IPV6_PMTU_LOWERED,     /**< Path MTU estimates lowered by a Packet Too Big (RFC 8201 §4) */
    TERN_IPV6_PTB_INVALID,      /**< Packet Too Big dropped: malformed, or quoting a packet we did not send */
    TERN_IPV6_PTB_BELOW_MIN,    /**< Packet Too Big dropped: MTU below 1280 (RFC 8201 §4) */
    TERN_IPV6_PTB_NOT_LOWER,    /**< Packet Too Big without effect: MTU not below the estimate (RFC 8201 §4) */
    TERN_IPV6_DCACHE_EVICTED,   /**< destination cache entries reused for another destination (table full) */
#endif
    TERN_IPV6_TX_UNRESOLVED,    /**< our packets dropped: address resolution of the next hop failed (RFC 4861 §7.2.2) */
    TERN_IPV6_NC_QUEUE_DROPPED, /**< packets dropped: the queue of a neighbor being resolved was full (oldest out, §7.2.2) */
    TERN_IPV6_FWD_ADDR_UNREACH, /**< forwarded packets dropped: resolution failed (Destination Unreachable code 3) */
    TERN_IPV6_FWD_HBH_DROPPED,  /**< forwarded packets dropped by their Hop-by-Hop options (RFC 8200 §4.2, §4.3) */
    TERN_IPV6_REACHABLE_RENEWED, /**< ReachableTime re-randomised on schedule (RFC 4861 §6.3.4) */
    /* 6LoWPAN Neighbor Discovery (RFC 6775, RFC 8505; ndp_6lo.h, ndp_6lo.c) */
    TERN_IPV6_6LO_REG_SENT,     /**< host: NS with EARO sent (registrations, retries, refreshes) */
    TERN_IPV6_6LO_REG_OK,       /**< host: registrations confirmed (NA status 0) */
    TERN_IPV6_6LO_REG_DUPLICATE, /**< host: status 1 (duplicate): the address became DUPLICATE */
    TERN_IPV6_6LO_REG_REJECTED, /**< host: other non-zero statuses (RFC 8505 §4.3 Table 1) */
    TERN_IPV6_6LO_REG_TIMEOUT,  /**< host: no NA after MAX_UNICAST_SOLICIT NSs */
    TERN_IPV6_6LO_NO_BINDING,   /**< host: a registration could not start: TERN_CONF_IPV6_6LO_BINDINGS full */
    TERN_IPV6_6LO_REG_ACCEPTED, /**< router: registrations answered with status 0 */
    TERN_IPV6_6LO_REG_REFUSED_DUP, /**< router: status 1, another owner holds the address */
    TERN_IPV6_6LO_REG_REFUSED_FULL, /**< router: status 2, registration table full */
    TERN_IPV6_6LO_REG_REFUSED_STALE, /**< router: status 3, an older TID of the same owner (RFC 8505 §5.2) */
    TERN_IPV6_6LO_REG_REMOVED,  /**< router: registrations removed by lifetime 0 */
    TERN_IPV6_6LO_REG_EXPIRED,  /**< router: registrations that ran out */
    TERN_IPV6_6LO_BAD_HOP_LIMIT, /**< NS/NA with an ARO dropped: IP hop limit not 255 */
    TERN_IPV6_6LO_MALFORMED,    /**< NS/NA with an ARO dropped: fails the ND format checks */
    TERN_IPV6_6LO_BAD_ARO,      /**< NS/NA dropped: ARO/EARO with a bad length or reserved I value */
    TERN_IPV6_6LO_BAD_SOURCE,   /**< NS with an ARO dropped: unspecified source (RFC 6775 §6.5.1) */
    TERN_IPV6_6LO_NO_SLLAO,     /**< NS with an ARO dropped: no SLLAO (RFC 6775 §6.5.1) */
    TERN_IPV6_6LO_MULTICAST_DST, /**< NS with an ARO dropped: multicast destination (§5.5.1: unicast) */
    TERN_IPV6_6LO_ARO_ON_HOST,  /**< NS with an ARO dropped: the node is a host */
    TERN_IPV6_6LO_NA_UNEXPECTED, /**< NA with an ARO dropped: no registration waits for it */
    TERN_IPV6_6LO_NA_TID_MISMATCH, /**< NA with an EARO dropped: not the TID of the NS we sent */
    TERN_IPV6_6LO_BAD_6CO,      /**< 6LoWPAN Context Options ignored: malformed */
    TERN_IPV6_6LO_BAD_ABRO,     /**< RAs dropped: malformed ABRO */
    TERN_IPV6_6LO_ABRO_OLD,     /**< RAs ignored: ABRO version older than the one followed (RFC 6775 §4.3) */
    TERN_IPV6_6LO_CONTEXT_NO_ROOM, /**< contexts not kept: TERN_CONF_IPV6_6LO_CONTEXTS full */
    TERN_IPV6_6LO_CONTEXT_REFUSED, /**< context changes the interface's adaptation module refused */
    TERN_IPV6_6LO_TX_UNRESOLVED, /**< packets dropped on a 6LoWPAN link: next hop neither registered nor known */
    TERN_IPV6_6LO_RA_UNICAST,   /**< router: unicast RAs in answer to RSs (RFC 6775 §6.3) */
    /* Source routing (RFC 6554; ipv6/srh.h, srh.c) */
    TERN_IPV6_SRH_INSERTED,     /**< our packets sent with a Source Routing Header (a provider's route) */
    TERN_IPV6_SRH_TOO_BIG,      /**< our packets dropped: with the header they need IPv6 fragmentation */
    TERN_IPV6_SRH_FORWARDED,    /**< packets forwarded to the next address of their Source Routing Header (§4.2) */
    TERN_IPV6_SRH_MALFORMED,    /**< dropped: Source Routing Header that does not parse (RFC 6554 §3) */
    TERN_IPV6_SRH_BAD_SEGMENTS_LEFT, /**< dropped: Segments Left above n (§4.2, Parameter Problem) */
    TERN_IPV6_SRH_MULTICAST,    /**< dropped: multicast next address or destination (§4.2) */
    TERN_IPV6_SRH_LOOP,         /**< dropped: our addresses twice with another between them (§4.2, Parameter Problem) */
    /* RPL Packet Information (RFC 6553, RFC 6550 §11.2; ipv6/rpi.h, rpi.c) */
    TERN_IPV6_RPI_ADDED,        /**< our packets sent with the RPL Option in a Hop-by-Hop header */
    TERN_IPV6_RPI_FORWARDED,    /**< forwarded packets whose RPL Option was checked and updated */
    TERN_IPV6_RPI_REMOVED,      /**< Hop-by-Hop headers with only the RPL Option removed leaving the RPL domain (RFC 9008) */
    TERN_IPV6_RPI_RANK_ERROR,   /**< rank inconsistencies: R set, packet forwarded (§11.2.2.2) */
    TERN_IPV6_RPI_DROPPED_RANK, /**< dropped: second rank inconsistency, R already set (§11.2.2.2) */
    TERN_IPV6_RPI_DROPPED_LOOP, /**< dropped: going up, from our preferred parent (a loop, §8.2.1) */
    TERN_IPV6_RPI_UNKNOWN_INSTANCE, /**< dropped: RPLInstanceID not ours, or not in a DODAG (§11.2.2.1) */
    TERN_IPV6_RPI_FORWARDING_ERROR, /**< storing mode: no downward route, F set and sent back up (§11.2.2.3) */
    TERN_IPV6_RPI_ROUTE_REMOVED, /**< downward routes removed: a packet came back with F set (§11.2.2.3) */
    TERN_IPV6_RPI_DROPPED_FWD_ERROR, /**< dropped: a forwarding error nobody above can repair (root, no parent) */
    TERN_IPV6_RPI_MALFORMED,    /**< dropped: RPL Option with Opt Data Len below 4 */
    TERN_IPV6_RPI_TOO_BIG,      /**< our packets dropped: with the headers they need fragmentation and cannot have it */
    /* IPv6-in-IPv6 (RFC 2473; tunnel.c) and local delivery across interfaces */
    TERN_IPV6_TUN_ENCAP,        /**< forwarded packets sent inside an outer header: source-routed (RFC 6554 §4.1), or by a storing root with the RPI (RFC 9008 §7.2.2) */
    TERN_IPV6_TUN_DECAP,        /**< packets for us with next header 41 whose inner packet went on (RFC 2473 §3.3) */
    TERN_IPV6_TUN_MALFORMED,    /**< dropped: the inner packet of an IPv6-in-IPv6 packet does not parse */
    TERN_IPV6_TUN_NESTED,       /**< dropped: a decapsulated packet again IPv6-in-IPv6 for us (nesting bound) */
    TERN_IPV6_TUN_TOO_BIG,      /**< forwarded packets too big for the tunnel: Packet Too Big sent (RFC 2473 §7.1, §8.2) */
    TERN_IPV6_TUN_FRAG,         /**< forwarded packets of 1280 bytes or less whose tunnel packet went in fragments (RFC 2473 §7.1) */
    TERN_IPV6_TUN_ERROR_RELAYED, /**< ICMPv6 errors about our tunnel packets relayed to the inner source (RFC 2473 §8.2) */
    TERN_IPV6_RX_OTHER_IF,      /**< router: packets delivered for an address of another of our interfaces (RFC 1122 §3.3.4.2) */
    TERN_IPV6_STAT_NUMOF
};

/**
 * Message to the IPv6 module (post it with tern_netapi_post()): answer the
 * received packet in content.pkt, as IPv6 dispatched it ([payload (UDP...),
 * IPV6_EXT?, IPV6, NETIF]), with ICMPv6 Destination Unreachable, code 4
 * Port Unreachable (RFC 4443 §3.1): "the transport protocol has no
 * listener". The module applies the RFC 4443 §2.4 rules (no error about a
 * multicast or an error message, rate limit) and releases the packet.
 */
#define TERN_IPV6_MSG_PORT_UNREACHABLE (TERN_MSG_USER + 0x60)

/**
 * netreg demux context of ICMPv6 messages delivered by type (RPL control
 * messages, type 155, RFC 6550 §6): registrations for (ICMPV6,
 * TERN_IPV6_ICMPV6_TYPE_DEMUX(type)) receive every message of that type that
 * the module does not handle itself, checksum verified, as [ICMPV6 message,
 * IPV6 (the fixed header as received), NETIF (the interface it arrived on)]
 * (icmpv6_app.c). The context lies outside the 16-bit echo identifier space
 * that ping uses. A message of such a type with no receiver is counted as
 * icmp_unhandled.
 */
#define TERN_IPV6_ICMPV6_TYPE_DEMUX(type) (0x10000u | (uint32_t)(uint8_t)(type))

/**
 * netreg demux context of ICMPv6 error messages (RFC 4443 §3) about a packet
 * of upper-layer protocol @p nh that we sent (the UDP module registers for
 * TERN_IPV6_NH_UDP): RFC 4443 §2.4 (e), an error "MUST be passed to the
 * upper-layer process that originated the packet". The module finds @p nh
 * in the quoted packet (its extension headers skipped,
 * tern_icmpv6_error_quote()) and hands the message, checksum verified, as
 * [ICMPV6 message, IPV6 (the error's own fixed header), NETIF] when the
 * quoted source is one of its addresses (else counted icmp_err_not_ours).
 * Outside the echo identifier and TYPE_DEMUX spaces. Not switched off by
 * TERN_CONF_ICMPV6_DELIVER. Packet Too Big is still used for the path MTU
 * first (RFC 8201), errors about our echo requests go to ping.
 */
#define TERN_IPV6_ICMPV6_ERROR_DEMUX(nh) (0x20000u | (uint32_t)(uint8_t)(nh))

/**
 * A route a router advertises on an interface in the Route Information
 * option of its RAs (RFC 4191 §2.3): hosts that take it (Linux with
 * accept_ra_rt_info_max_plen at least the prefix length) route the prefix
 * through the router. Value of TERN_NETOPT_IPV6_ROUTE_INFO_ADD / _DEL.
 */
typedef struct {
    tern_ipv6_addr_t prefix; /**< the prefix; bits past prefix_len are cleared when added */
    uint32_t lifetime_s;     /**< Route Lifetime, seconds; 0: the Router Lifetime advertised (3 x MaxRtrAdvInterval; our choice, as radvd's default); 0xffffffff: infinite */
    uint8_t prefix_len;      /**< 0..128 */
    int8_t preference;       /**< Route Preference (RFC 4191 §2.1): 1 high, 0 medium, -1 low */
    bool used;               /**< slot in use (ignored by ADD / DEL) */
} tern_ipv6_route_info_t;

/** The routes advertised on an interface (TERN_NETOPT_IPV6_ROUTE_INFO, GET). */
typedef struct {
    tern_ipv6_route_info_t entries[TERN_CONF_IPV6_ROUTE_INFO]; /**< unused slots: used false */
} tern_ipv6_route_info_list_t;

/** Router discovery state of one interface (RFC 4861 §6; see ndp_router.c). */
typedef struct {
    uint64_t deadline_us;       /**< next RS (host) or multicast RA (router); UINT64_MAX: none */
    uint64_t last_ra_us;        /**< router: last multicast RA sent; UINT64_MAX: never */
    uint32_t base_reachable_ms; /**< BaseReachableTime (§6.3.2), from RAs */
    uint16_t link_mtu;          /**< LinkMTU from an RA's MTU option (§6.3.4); 0: none received */
    uint8_t sent;               /**< host: RS sent; router: RAs sent since advertising (re)started */
#if TERN_CONF_IPV6_ROUTER != 2 /* a router-only build never solicits (ndp_router.c) */
    tern_ipv6_addr_t rs_dst;    /**< 6LoWPAN host: router to refresh by unicast RS (RFC 6775 §5.3); unspecified: ff02::2 */
    uint32_t rs_interval_us;    /**< 6LoWPAN host: current RS retransmission interval (binary backoff, RFC 6775 §5.3) */
#endif
    bool all_routers;           /**< ff02::2 joined (router) */
    tern_ipv6_route_info_t route_info[TERN_CONF_IPV6_ROUTE_INFO]; /**< router: routes its RAs advertise (RFC 4191) */
} tern_ipv6_rd_t;

/** IPv6 state of one interface. */
typedef struct {
    tern_netif_t *netif;      /**< NULL: slot unused */
    struct tern_ipv6 *ip;     /**< owner (for the state machines' callbacks) */
    tern_ipv6_addrs_t addrs;  /**< its addresses */
    tern_nc_t nc;             /**< its neighbor cache */
    uint8_t cur_hop_limit;    /**< CurHopLimit (RFC 4861 §6.3.2) */
    tern_ipv6_mld_t mld;      /**< MLD listener state (RFC 3810 §6, §8.2.1, mld.c); after the byte above:
                                   without MLD its byte-aligned groups fill the padding there */
    tern_ipv6_rd_t rd;        /**< router discovery (RS/RA) */
    uint64_t reachable_renew_us; /**< next re-randomisation of ReachableTime (RFC 4861 §6.3.4) */
    tern_ipv6_6lo_t lowpan;   /**< 6LoWPAN-ND state (RFC 6775, RFC 8505; ndp_6lo.c) */
} tern_ipv6_if_t;

/** The IPv6 module of one stack. Allocate statically; set up with tern_ipv6_init(). */
typedef struct tern_ipv6 {
    tern_module_t module;                         /**< the module */
    tern_msg_t queue[TERN_CONF_MODULE_QUEUE_LEN]; /**< its queue storage */
    tern_netreg_entry_t entry;                    /**< (IPV6, ALL) registration */
    tern_ipv6_if_t ifs[TERN_CONF_IPV6_IFS];       /**< per-interface state */
    tern_fib_t fib;                               /**< forwarding table */
    tern_dcache_t dcache;                         /**< destination cache (RFC 4861 §5.1): redirects, Path MTUs */
    tern_timer_t timer;                           /**< one timer for every state machine */
    uint64_t timer_at;                            /**< when it is armed for; UINT64_MAX: not */
    uint64_t tables_at_us;                        /**< earliest expiry in the tables at their last scan */
    uint64_t icmp_error_refill_us;                /**< when tokens were last added */
    uint32_t tables_gen;                          /**< the tables' deadline_gen sum at that scan */
    uint32_t rng;                                 /**< xorshift state for protocol randomness */
    uint32_t icmp_error_tokens;                   /**< ICMPv6 error token bucket (RFC 4443 §2.4 (f)) */
    tern_pkt_t *spare_hdr;                        /**< an upper layer's IPv6 template snip, reused by the send it came with */
    tern_ipv6_frag_t frag;                        /**< fragmentation and reassembly (RFC 8200 §4.5) */
    tern_counter_t counters[TERN_IPV6_STAT_NUMOF];      /**< see TERN_IPV6_... */
    bool router;                                  /**< a router (RFC 4861 §6.2), see tern_ipv6_set_router() */
    tern_stats_group_t stats;                     /**< counters, for `stats ipv6` */
#if TERN_CONF_IPV6_ROUTER && TERN_CONF_RPL && TERN_CONF_RPL_NS_LINKS > 0 /* IPV6_SOURCE_ROUTES (src/ipv6/ipv6_internal.h) */
    tern_ipv6_source_router_t source_router;      /**< source route provider (TERN_NETOPT_IPV6_SOURCE_ROUTER); fn NULL: none */
    tern_ipv6_source_route_t source_route;        /**< its last answer (module's turn only) */
#endif
    tern_ipv6_rpl_state_t rpl;                    /**< RPL's data-plane state (TERN_NETOPT_IPV6_RPL_STATE, rpi.c) */
    tern_pkt_t *spare_netif;                      /**< its interface header snip, likewise (NULL outside that send) */
} tern_ipv6_t;

/**
 * Set up the module and add it to @p stack (registered for IPv6 packets).
 * @return 0 or the negative errno of module setup.
 */
int tern_ipv6_init(tern_ipv6_t *ip, tern_stack_t *stack);

/**
 * Seed the module's pseudo-random numbers (DAD and RS delays, ReachableTime,
 * Router Advertisement intervals, MLD report delays). tern_ipv6_init()
 * seeds from the instance's address, which differs between runs of a
 * position-independent program; a simulator seeds each node from its run's
 * seed so that the same seed gives the same run.
 * @pre after tern_ipv6_init(), before the stack runs (not synchronised)
 * @param[in] seed any value (0 is replaced by a fixed non-zero one)
 */
void tern_ipv6_seed(tern_ipv6_t *ip, uint32_t seed);

/**
 * Run IPv6 on @p netif: link-local address from its link address, groups,
 * DAD. Done on the module's own turn (safe from any thread): this posts a
 * message and returns.
 * @return 0; -EINVAL; -ENOBUFS if the module's queue is full.
 */
int tern_ipv6_netif_enable(tern_ipv6_t *ip, tern_netif_t *netif);

/**
 * Make the node a router (RFC 4861 §6.2) or a host (§6.3) on every IPv6
 * interface: a router joins ff02::2, sends unsolicited Router
 * Advertisements with a Prefix Information option for each prefix of its
 * configured (non-link-local) addresses, answers Router Solicitations and
 * ignores Router Advertisements; a host solicits and learns default
 * routers, on-link prefixes and SLAAC addresses from RAs. Interfaces
 * enabled later follow the mode. Same as SET TERN_NETOPT_IPV6_ROUTER.
 * Leaving router mode sends a final RA with Router Lifetime 0 (§6.2.5).
 * @return 0; -EINVAL for a NULL @p ip; -ENOTSUP for @p router true in a host
 *         image (TERN_CONF_IPV6_ROUTER 0, config.h), or false in a
 *         router-only one (TERN_CONF_IPV6_ROUTER 2: a router from the start).
 */
int tern_ipv6_set_router(tern_ipv6_t *ip, bool router);

/** Value of TERN_NETOPT_IPV6_ROUTES (GET on the IPv6 module, context ignored): the forwarding table. */
typedef struct {
    tern_fib_route_t routes[TERN_CONF_FIB_SIZE]; /**< slots (unused ones have used == false) */
    uint64_t now_us;                             /**< the stack's time, for remaining lifetimes */
} tern_ipv6_route_list_t;

/** Value of TERN_NETOPT_IPV6_LINK_PARAMS (GET on the IPv6 module, context = interface index). */
typedef struct {
    uint32_t reachable_time_us; /**< ReachableTime in use (randomised, §6.3.2) */
    uint32_t retrans_timer_us;  /**< RetransTimer */
    uint32_t base_reachable_ms; /**< BaseReachableTime */
    uint16_t link_mtu;          /**< LinkMTU: from an RA's MTU option, else the interface's */
    uint8_t cur_hop_limit;      /**< CurHopLimit */
    bool mtu_from_ra;           /**< link_mtu came from a Router Advertisement */
    bool router;                /**< the node is a router */
} tern_ipv6_link_params_t;

/** Value of TERN_NETOPT_IPV6_ADDRS (GET on the IPv6 module, context = interface index). */
typedef struct {
    tern_ipv6_if_addr_t addrs[TERN_CONF_IPV6_ADDRS]; /**< slots (unused ones have used == false) */
} tern_ipv6_addr_list_t;

/** Value of TERN_NETOPT_IPV6_ADDR_ADD / _DEL. */
typedef struct {
    tern_ipv6_addr_t addr; /**< the address */
    uint8_t prefix_len;    /**< its on-link prefix length (ADD) */
} tern_ipv6_addr_config_t;

/**
 * Value of TERN_NETOPT_IPV6_ROUTE_ADD / _DEL (SET on the IPv6 module): a
 * static route. ADD: context = the outgoing interface's index. DEL: context
 * = interface index or 0 for any; an unspecified @ref next_hop matches any.
 */
typedef struct {
    tern_ipv6_addr_t prefix;   /**< destination prefix (bits past @ref prefix_len ignored) */
    tern_ipv6_addr_t next_hop; /**< router to forward to; unspecified: on-link */
    uint8_t prefix_len;        /**< 0..128 (0: default route) */
    uint8_t origin;            /**< ADD: tern_fib_origin_t (0: TERN_FIB_STATIC); a routing protocol uses TERN_FIB_ROUTING */
    uint32_t lifetime_s;       /**< ADD: the route expires after this many seconds; 0: never */
} tern_ipv6_route_config_t;

/** Value of TERN_NETOPT_IPV6_PREFIX (SET on the IPv6 module, context = interface index). */
typedef struct {
    tern_ipv6_addr_t prefix;     /**< the prefix (bits past @ref prefix_len ignored) */
    uint32_t valid_lifetime;     /**< seconds, 0xFFFFFFFF infinite (RFC 4861 §4.6.2) */
    uint32_t preferred_lifetime; /**< seconds, at most @ref valid_lifetime */
    uint8_t prefix_len;          /**< its length (64 for SLAAC over the usual interface identifiers) */
    bool onlink;                 /**< L flag: the prefix is on-link (ignored on 6LoWPAN links, RFC 6775 §5.6) */
    bool autonomous;             /**< A flag: form an address by SLAAC (RFC 4862 §5.5.3) */
} tern_ipv6_prefix_config_t;

/** Value of TERN_NETOPT_IPV6_DESTINATIONS (GET on the IPv6 module, context ignored): the destination cache. */
typedef struct {
    tern_dcache_entry_t entries[TERN_CONF_IPV6_DCACHE_SIZE]; /**< slots (unused ones have used == false) */
    uint64_t now_us;                                         /**< the stack's time, for ages and lifetimes */
} tern_ipv6_dest_list_t;

/** Value of TERN_NETOPT_IPV6_NEIGHBORS (GET on the IPv6 module, context = interface index). */
typedef struct {
    tern_nc_entry_t entries[TERN_CONF_NC_SIZE]; /**< slots (FREE ones unused); queue pointers are not to be used */
} tern_ipv6_neighbor_list_t;

#endif /* TERN_IPV6_IPV6_H */
