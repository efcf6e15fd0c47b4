/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The UDP module (RFC 768) over IPv6 (RFC 8200 §8.1: checksum mandatory).
 *
 * Read first: RFC 768; RFC 8200 §8.1; RFC 6335 §6 (ephemeral ports);
 * RFC 4443 §3.1 (port unreachable).
 *
 * One module per stack, registered in netreg for (UDP, ALL).
 *
 * Receive (RCV from IPv6): [UDP datagram (type UDP), IPV6_EXT?, IPV6, NETIF].
 * The module checks the Length field against the snip (shorter than 8 or
 * longer than the snip: dropped, rx_bad_length; bytes beyond it: trimmed),
 * verifies the checksum over the pseudo-header and the datagram (a zero
 * checksum is invalid over IPv6: dropped, rx_bad_checksum), then hands the
 * checked packet on as it is, [UDP datagram (type UDP: the 8-byte header,
 * then the payload, exactly Length bytes), IPV6_EXT?, IPV6, NETIF], to every
 * module registered for (UDP, destination port) with exactly that port. No
 * header snip is split off: a receiver reads the header in place (it may
 * rely on the checks above) and the payload after it (possibly empty). The
 * head snip may be shared with other receivers: read only.
 * Entries registered for (UDP, ALL) (this module; sniffers) are not served
 * again: they got the datagram from IPv6 already. With no receiver for the
 * port the datagram goes to the IPv6 module as TERN_IPV6_MSG_PORT_UNREACHABLE
 * (RFC 4443 §3.1), counted as rx_no_port.
 *
 * ICMPv6 errors (RFC 4443 §2.4 (e)): the module is also registered for
 * (ICMPV6, TERN_IPV6_ICMPV6_ERROR_DEMUX(TERN_IPV6_NH_UDP)); the IPv6 module
 * hands it each error message quoting a UDP datagram one of our addresses
 * sent, as [ICMPV6 message, IPV6, NETIF]. Counted as rx_icmp_errors; a
 * quote that ends before the 8-byte UDP header is ignored (rx_icmp_truncated);
 * otherwise it goes (RCV, the head snip of type ICMPV6) to the modules
 * registered for (UDP, quoted source port), the sockets, which read it with
 * tern_udp_icmp_error_parse(); none: rx_icmp_no_socket.
 *
 * Send (SND): [NETIF?, IPV6 template, UDP header (ports set), payload...]:
 * the module sets the Length field, zeroes the checksum (the IPv6 module
 * fills it once the source address is chosen) and passes the packet to
 * (IPV6, ALL). Applications use sock_udp.h rather than building this.
 */
#ifndef TERN_UDP_H
#define TERN_UDP_H

#include <stdint.h>

#include "tern/config.h"
#include "tern/module.h"
#include "tern/netreg.h"
#include "tern/stack.h"
#include "tern/stats.h"
#include "tern/wire/ipv6_addr.h"

struct tern_ipv6;

/** First port of the dynamic (ephemeral) range (RFC 6335 §6). */
#define TERN_UDP_EPHEMERAL_MIN 49152u
/** Last port of the dynamic (ephemeral) range (RFC 6335 §6). */
#define TERN_UDP_EPHEMERAL_MAX 65535u

/**
 * Priority of the UDP module (0 most urgent). Default 5: after interfaces (2) and
 * IPv6 (4), before application sockets.
 */
#ifndef TERN_CONF_UDP_PRIORITY
#define TERN_CONF_UDP_PRIORITY 5
#endif

/** Counters of the UDP module, indices into tern_udp_t::counters. */
enum {
    TERN_UDP_RX_DATAGRAMS = 0, /**< datagrams delivered to at least one socket */
    TERN_UDP_RX_BAD_LENGTH,    /**< Length field < 8 or beyond the packet */
    TERN_UDP_RX_BAD_CHECKSUM,  /**< checksum wrong or zero (invalid over IPv6) */
    TERN_UDP_RX_NO_PORT,       /**< nobody bound to the destination port (given to IPv6 for ICMPv6) */
    TERN_UDP_RX_NO_PORT_LOST,  /**< ... and the IPv6 module's queue was full: released */
    TERN_UDP_RX_NOMEM,         /**< no packet buffer for a private copy to trim bytes beyond Length off */
    TERN_UDP_RX_INVALID,       /**< packets without an IPV6 snip or of another type */
    TERN_UDP_TX_DATAGRAMS,     /**< datagrams passed to IPv6 */
    TERN_UDP_TX_ERRORS,        /**< datagrams dropped on the way down (malformed, too long, no memory, no IPv6) */
    TERN_UDP_RX_ICMP_ERRORS,   /**< ICMPv6 errors about a datagram we sent (RFC 4443 §2.4 (e)), all of them */
    TERN_UDP_RX_ICMP_NO_SOCKET, /**< ... of them: no socket bound to the quoted source port */
    TERN_UDP_RX_ICMP_TRUNCATED, /**< ... of them: the quote ends before the 8-byte UDP header: ignored */
    TERN_UDP_STAT_NUMOF
};

/** The UDP module of one stack. Allocate statically; set up with tern_udp_init(). */
typedef struct tern_udp {
    tern_module_t module;                         /**< the module */
    tern_msg_t queue[TERN_CONF_MODULE_QUEUE_LEN]; /**< its queue storage */
    tern_netreg_entry_t entry;                    /**< (UDP, ALL) registration */
    tern_netreg_entry_t icmp_entry;               /**< (ICMPV6, TERN_IPV6_ICMPV6_ERROR_DEMUX(UDP)) registration */
    struct tern_ipv6 *ipv6;                       /**< gets port-unreachable reports; may be NULL */
    uint32_t rng;                                 /**< xorshift state for ephemeral ports (under the stack lock) */
    tern_counter_t counters[TERN_UDP_STAT_NUMOF];       /**< see TERN_UDP_... */
    tern_stats_group_t stats;                     /**< counters, for `stats udp` */
} tern_udp_t;

/**
 * Set up the module and add it to @p stack (registered for (UDP, ALL)).
 * @param[out] udp    the module
 * @param[in]  stack  the node
 * @param[in]  ipv6   the node's IPv6 module, told about datagrams to closed
 *                    ports (ICMPv6 port unreachable); NULL: such datagrams
 *                    are only counted and released
 * @return 0; -EINVAL for NULL @p udp or @p stack; or the negative errno of
 *         module setup or registration.
 */
int tern_udp_init(tern_udp_t *udp, tern_stack_t *stack, struct tern_ipv6 *ipv6);

/**
 * Seed the choice of ephemeral ports (tern_udp_init() seeds from the
 * instance's address; a simulator seeds from its run's seed, see
 * tern_ipv6_seed()).
 * @pre after tern_udp_init(), before the stack runs (not synchronised)
 * @param[in] seed any value (0 is replaced by 1)
 */
void tern_udp_seed(tern_udp_t *udp, uint32_t seed);

/**
 * Pick a free ephemeral port (49152-65535, RFC 6335 §6), randomly, that no
 * module is registered for in netreg (UDP). Safe from any thread.
 * @return the port (> 0); -EADDRINUSE when 64 random tries and a scan found
 *         none free; -EINVAL for NULL.
 */
int tern_udp_ephemeral_port(tern_udp_t *udp);

/** An ICMPv6 error about a UDP datagram we sent, as tern_udp_icmp_error_parse() reads it. */
typedef struct {
    int error;                    /**< the negative errno it means (see tern_udp_icmp_error_parse()) */
    tern_ipv6_addr_t local_addr;  /**< the quoted datagram's source address (ours) */
    tern_ipv6_addr_t remote_addr; /**< its destination address */
    uint16_t local_port;          /**< its source port (our socket's) */
    uint16_t remote_port;         /**< its destination port */
} tern_udp_icmp_error_t;

/**
 * Read an ICMPv6 error message (@p buf, @p len: the whole message, checksum
 * verified) that quotes a UDP datagram: the quoted addresses and ports, with
 * the quote's extension headers skipped (tern_icmpv6_error_quote()), and the
 * errno the error means, as POSIX/Linux report them (RFC 4443 §3):
 * Destination Unreachable (§3.1) code 4 port unreachable: -ECONNREFUSED;
 * codes 0 no route, 1 administratively prohibited, 2 beyond scope, 3 address
 * unreachable, 5 source address failed policy, 6 reject route and any other
 * code: -EHOSTUNREACH; Packet Too Big (§3.2): -EMSGSIZE; Time Exceeded
 * (§3.3, either code): -EHOSTUNREACH (as Linux; the hop limit ran out or
 * reassembly at the peer timed out: the peer is not reached); Parameter
 * Problem (§3.4) and error types RFC 4443 does not define: -EPROTO.
 * @return 0; -EBADMSG when it is no error message, does not quote UDP, or
 *         the quote ends before the quoted UDP header's 8 bytes.
 */
int tern_udp_icmp_error_parse(const uint8_t *buf, size_t len, tern_udp_icmp_error_t *out);

/**
 * Number of netreg entries for exactly (UDP, @p port) (ALL entries are not
 * counted). Takes the registry's lock.
 */
unsigned tern_udp_port_users(tern_stack_t *stack, uint16_t port);

#endif /* TERN_UDP_H */
