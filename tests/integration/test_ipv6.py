# SPDX-License-Identifier: BSD-3-Clause
"""IPv6 of tern-node against the Linux kernel over TAP: ping both ways, Neighbor Discovery, DAD,
MLD, fragmentation.

Each test runs in its own network namespace with the node on tap0 (see conftest.py). Routers and
SLAAC are in test_ipv6_router.py, UDP in test_udp.py.

Echo sizes: every data size of one Ethernet frame, 0..1452 (1452 + 8 + 40 = 1500), to and from
the node's link-local and global addresses, plus 4000 bytes, which travel in fragments both ways.
Linux sends the sweep from a raw ICMPv6 socket (one request at a time, random data checked in
each reply), the node with its `ping -A -G 1452` (each reply's data checked by the node); iputils'
ping adds a few sizes.
"""
import random
import re
import socket
import struct
import subprocess
import time


from tapnode import (FRAME_DATA_MAX, LINUX_GLOBAL, NODE_GLOBAL, NODE_LL, NODE_MAC, TAP,
                     add_global_addresses, assert_capture_clean, closed_port_probe, ifindex, linux_link_local, linux_mac,
                     linux_ping, needs_ping, needs_tap, ns_run, ns_socket, tshark, wait_address,
                     wait_ifconfig)

pytestmark = needs_tap

FRAGMENTED_SIZE = 4000  # three fragments each way on a 1500-byte link


@needs_ping
def test_linux_pings_the_node_link_local(tap_node, netns, tmp_path):
    capture = tmp_path / "ipv6.pcap"
    node = tap_node(ready=False)
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    wait_address(node)

    # Sizes up to the Ethernet MTU (1452 + 8 + 40 = 1500); every size is in the sweep below.
    for size in (0, 1, 56, 1000, FRAME_DATA_MAX):
        result = linux_ping(netns, f"{NODE_LL}%{TAP}", size)
        assert " 3 received" in result.stdout, f"size {size}:\n{result.stdout}{result.stderr}"
        assert "wrong data" not in result.stdout, result.stdout  # iputils checks the echoed data

    # Linux resolved the node by NDP and holds it as a confirmed neighbor.
    neigh = ns_run(netns, "ip", "-6", "neigh", "show", "dev", TAP).stdout
    assert re.search(rf"{re.escape(NODE_LL)} lladdr {NODE_MAC} .*REACHABLE", neigh), neigh
    # The node learnt Linux from its solicitation.
    linux_ll = linux_link_local(netns)
    assert re.search(rf"^{re.escape(linux_ll)}\s+dev {TAP}\s+lladdr {linux_mac(netns)}", node.run("nib neigh"), re.M)
    assert node.stat("ipv6", "icmp_echo_in") >= 15
    assert node.stat("ipv6", "icmp_bad_checksum") == 0
    assert node.pktbuf_used() == 0

    assert "stopped" in node.run(f"pcap stop {TAP}")
    node.finish_clean()
    assert_capture_clean(capture)
    replies = tshark(capture, "-Y", f"icmpv6.type == 129 && ipv6.src == {NODE_LL}")
    assert len(replies.strip().splitlines()) >= 15, replies
    adverts = tshark(capture, "-Y", "icmpv6.type == 136 && icmpv6.nd.na.flag.s == 1")
    assert adverts.strip(), "no solicited neighbor advertisement from the node"


ICMP6_FILTER = 1  # <netinet/icmp6.h>: socket option (level IPPROTO_ICMPV6) of raw ICMPv6 sockets


def echo_sweep(ns, dst, scope, sizes, timeout=5.0):
    """From namespace NS, one Echo Request to DST (interface index SCOPE, 0 for a global
    address) per data size in SIZES, each with its own random data, one at a time: the next
    goes when the reply came. Return the sizes that failed, with what went wrong."""
    sock = ns_socket(ns, socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
    # Let only Echo Replies (type 129) through: Linux's struct icmp6_filter blocks the types
    # whose bit is set. The kernel fills the ICMPv6 checksum of what we send (RFC 3542 §3.1).
    blocked = [0xFFFFFFFF] * 8
    blocked[129 >> 5] &= ~(1 << (129 & 31))
    sock.setsockopt(socket.IPPROTO_ICMPV6, ICMP6_FILTER, struct.pack("=8I", *blocked))
    ident = random.getrandbits(16)
    failures = []
    with sock:
        for seq, size in enumerate(sizes, 1):
            seq &= 0xFFFF
            data = random.Random(size).randbytes(size)
            sock.sendto(struct.pack("!BBHHH", 128, 0, 0, ident, seq) + data, (dst, 0, 0, scope))
            end = time.monotonic() + timeout
            while True:
                left = end - time.monotonic()
                if left <= 0:
                    failures.append((size, "no reply"))
                    break
                sock.settimeout(left)
                try:
                    reply, src = sock.recvfrom(65535)
                except socket.timeout:
                    continue
                if len(reply) < 8 or struct.unpack("!BBHHH", reply[:8])[3:] != (ident, seq):
                    continue  # a late reply to an earlier request, or someone else's
                if src[0].split("%")[0] != dst:
                    failures.append((size, f"reply from {src[0]}"))
                elif reply[8:] != data:
                    got = reply[8:]
                    first = next((i for i, (a, b) in enumerate(zip(got, data)) if a != b), min(len(got), size))
                    failures.append((size, f"{len(got)} data bytes back, first difference at {first}"))
                break
    return failures


@needs_ping
def test_linux_pings_the_node_every_size(tap_node, netns):
    """Every echo data size 0..1452 and 4000 to the node's link-local and global addresses: each
    reply carries exactly the request's data (RFC 4443 §4.2)."""
    node = tap_node()
    add_global_addresses(node, netns)
    sizes = list(range(FRAME_DATA_MAX + 1)) + [FRAGMENTED_SIZE]
    for dst, scope in ((NODE_LL, ifindex(netns)), (NODE_GLOBAL, 0)):
        failures = echo_sweep(netns, dst, scope, sizes)
        assert not failures, f"to {dst}: {len(failures)} sizes failed, e.g. {failures[:20]}"
    assert node.stat("ipv6", "icmp_echo_in") >= 2 * len(sizes)
    assert node.stat("ipv6", "reass_ok") >= 2
    assert node.stat("ipv6", "frag_ok") >= 2

    # And iputils' ping, the named peer, at the edges (it checks the echoed data itself).
    for size in (0, FRAME_DATA_MAX, FRAGMENTED_SIZE):
        result = linux_ping(netns, NODE_GLOBAL, size, 2)
        assert " 2 received" in result.stdout, f"size {size}:\n{result.stdout}{result.stderr}"
        assert "wrong data" not in result.stdout, result.stdout
    assert node.stat("ipv6", "icmp_bad_checksum") == 0
    assert node.stat("ipv6", "reass_nomem") == 0
    assert node.stat("ipv6", "frag_fail") == 0
    assert node.pktbuf_used() == 0
    node.finish_clean()


@needs_ping
def test_dad_detects_duplicate_and_global_addresses_work(tap_node, netns):
    node = tap_node()
    # Linux holds 2001:db8::7 (without DAD on its side); the node tries to take it too.
    ns_run(netns, "ip", "-6", "addr", "add", "2001:db8::7/64", "dev", TAP, "nodad")
    assert node.run(f"ifconfig {TAP} add 2001:db8::7/64").strip() == ""
    wait_ifconfig(node, r"inet6 2001:db8::7/64  scope: global  duplicate")
    assert node.stat("ipv6", "dad_duplicates") == 1

    # An address nobody else has becomes preferred, and Linux reaches it over the on-link prefix.
    assert node.run(f"ifconfig {TAP} add 2001:db8::6/64").strip() == ""
    wait_address(node, "2001:db8::6")
    result = linux_ping(netns, "2001:db8::6")
    assert " 3 received" in result.stdout, result.stdout + result.stderr
    # The duplicate is never used: echo requests to it would be Linux's own.
    out = node.run(f"ifconfig {TAP} del 2001:db8::7")
    assert out.strip() == "", out
    assert "2001:db8::7" not in node.run(f"ifconfig {TAP}")
    assert "already an address" in node.run(f"ifconfig {TAP} add 2001:db8::6/64")
    node.finish_clean()


def test_udp_to_a_closed_port_is_refused_at_linux(tap_node, netns, tmp_path):
    capture = tmp_path / "unreach.pcap"
    node = tap_node(ready=False)
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    wait_address(node)
    assert closed_port_probe(netns, NODE_LL, ifindex(netns)) == "refused"
    assert node.stat("ipv6", "icmp_errors_out") >= 1
    assert "stopped" in node.run(f"pcap stop {TAP}")
    node.finish_clean()
    assert tshark(capture, "-Y", "icmpv6.type == 1 && icmpv6.code == 4").strip(), "no port unreachable"
    assert_capture_clean(capture)


def node_ping(node, target, extra="-c 3 -i 200", timeout=30):
    """The node's `ping EXTRA TARGET`: its whole output (it ends with the statistics)."""
    return node.run(f"ping {extra} {target}", timeout=timeout)


def check_replies(out, target, source, count=3, size=56):
    assert f"PING {target}: {size} data bytes" in out, out
    seqs = [int(m.group(1)) for m in re.finditer(
        rf"^{size + 8} bytes from {re.escape(source)}: icmp_seq=(\d+) ttl=64 time=\d+\.\d{{3}} ms$", out, re.M)]
    assert seqs == list(range(1, count + 1)), out
    assert "wrong data" not in out, out
    assert f"--- {target} ping statistics ---" in out, out
    assert f"{count} packets transmitted, {count} received, 0% packet loss" in out, out
    assert re.search(r"^rtt min/avg/max = \d+\.\d{3}/\d+\.\d{3}/\d+\.\d{3} ms$", out, re.M), out


def test_node_pings_linux(tap_node, netns, tmp_path):
    capture = tmp_path / "ping.pcap"
    node = tap_node(ready=False)
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    wait_address(node)
    linux_ll = linux_link_local(netns)

    # Link-local: needs the interface; the node resolves Linux first (solicited NA).
    out = node_ping(node, f"{linux_ll}%{TAP}")
    check_replies(out, f"{linux_ll}%{TAP}", linux_ll)
    neigh = node.run("nib neigh")
    assert re.search(rf"^{re.escape(linux_ll)}\s+dev {TAP}\s+lladdr \S+\s+REACHABLE", neigh, re.M), neigh
    assert "needs an interface" in node.run(f"ping {linux_ll}")

    # Global, over the on-link prefix; other sizes.
    add_global_addresses(node, netns, NODE_GLOBAL, "2001:db8::1")
    check_replies(node_ping(node, "2001:db8::1"), "2001:db8::1", "2001:db8::1")
    check_replies(node_ping(node, "2001:db8::1", "-c 2 -i 100 -s 1000"), "2001:db8::1", "2001:db8::1",
                  count=2, size=1000)

    # Nobody there: every request lost, after the wait (-W) following the last one.
    out = node_ping(node, "2001:db8::99", "-c 2 -i 100 -W 300")
    assert "2 packets transmitted, 0 received, 100% packet loss" in out, out
    assert "rtt" not in out, out
    # Its requests wait for address resolution until that fails (3 NS, 1 s apart): then none is left.
    for _ in range(40):
        if node.pktbuf_used() == 0:
            break
        subprocess.run(["sleep", "0.2"], check=True)
    assert node.pktbuf_used() == 0

    assert "stopped" in node.run(f"pcap stop {TAP}")
    node.finish_clean()
    assert_capture_clean(capture)
    requests = tshark(capture, "-Y", "icmpv6.type == 128 && icmpv6.echo.sequence_number == 1")
    assert len(requests.strip().splitlines()) >= 3, requests


def check_sweep(out, target, source, largest=FRAME_DATA_MAX):
    """The output of the node's `ping -A -G LARGEST TARGET`: one reply per size 0..LARGEST from
    SOURCE, each the size of its request (icmp_seq N carried N - 1 data bytes), data intact."""
    count = largest + 1
    assert f"PING {target}: (0 ... {largest}) data bytes" in out, out[:2000]
    replies = re.findall(rf"^(\d+) bytes from {re.escape(source)}: icmp_seq=(\d+) ttl=64 time=\d+\.\d{{3}} ms$",
                         out, re.M)
    sizes = {int(seq): int(length) - 8 for length, seq in replies}
    missing = [seq - 1 for seq in range(1, count + 1) if seq not in sizes]
    assert not missing, f"no reply for sizes {missing[:50]} ({len(missing)} in all)"
    wrong = [(seq, size) for seq, size in sizes.items() if size != seq - 1]
    assert not wrong, f"(icmp_seq, size) of replies the wrong size: {wrong[:20]}"
    assert len(replies) == count, "duplicates"
    bad = re.findall(r"^wrong data .*$", out, re.M)
    assert not bad, bad[:20]
    assert f"{count} packets transmitted, {count} received, 0% packet loss" in out, out[-2000:]


def test_node_pings_linux_every_size(tap_node, netns):
    """The node's echo requests of every data size 0..1452 (a sweep) and of 4000 bytes (sent in
    fragments; Linux's replies come back in fragments) to Linux's link-local and global address."""
    node = tap_node()
    add_global_addresses(node, netns)
    linux_ll = linux_link_local(netns)
    for target, source in ((f"{linux_ll}%{TAP}", linux_ll), (LINUX_GLOBAL, LINUX_GLOBAL)):
        # -A: the next request goes when the reply is in (at most one unanswered, whatever the
        # machine's speed); -i: how long to wait for a lost one.
        out = node_ping(node, target, f"-A -G {FRAME_DATA_MAX} -i 1000 -W 2000", timeout=300)
        check_sweep(out, target, source)
        out = node_ping(node, target, f"-c 3 -i 200 -s {FRAGMENTED_SIZE}")
        check_replies(out, target, source, size=FRAGMENTED_SIZE)
    assert node.stat("ipv6", "frag_ok") >= 6   # our requests
    assert node.stat("ipv6", "reass_ok") >= 6  # Linux's replies
    assert node.stat("ipv6", "frag_fail") == 0
    assert node.stat("ipv6", "reass_nomem") == 0
    assert node.stat("ipv6", "icmp_bad_checksum") == 0
    assert node.pktbuf_used() == 0
    node.finish_clean()


def test_node_sends_mldv2_reports(tap_node, tmp_path):
    """RFC 3810 §6.1: joining its solicited-node group, the node reports it (twice) to ff02::16,
    hop limit 1, with a Router Alert; it answers Linux's queries (Linux as host sends none,
    so only the unsolicited ones are checked here)."""
    capture = tmp_path / "mld.pcap"
    node = tap_node(ready=False)
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    wait_address(node)
    assert node.wait_counter("stats ipv6", r"^ipv6\s+mld_reports_sent\s+(\d+)", 2) >= 2
    assert "stopped" in node.run(f"pcap stop {TAP}")
    node.finish_clean()
    assert_capture_clean(capture)
    reports = tshark(capture, "-T", "fields", "-e", "ipv6.src", "-e", "ipv6.hlim",
                     "-e", "ipv6.opt.router_alert", "-e", "icmpv6.mldr.mar.record_type",
                     "-e", "icmpv6.mldr.mar.multicast_address",
                     "-Y", "icmpv6.type == 143 && ipv6.dst == ff02::16").strip().splitlines()
    # Linux's own reports show too: keep the node's (from ::, during DAD, or its link-local).
    ours = [r.split("\t") for r in reports if r.split("\t")[0] in ("::", NODE_LL)]
    # The first report may leave before the capture starts: the counter above saw both.
    joins = [r for r in ours if r[4] == "ff02::1:ff00:5301"]
    assert joins, reports
    for src, hlim, alert, record, _ in joins:
        assert hlim == "1" and alert == "0" and record == "4", reports  # 4: CHANGE_TO_EXCLUDE_MODE
    assert not [r for r in ours if "ff02::1" in r[4].split(",")], reports  # never all-nodes (§6)


# ---------------------------------------------------------------- fragmentation (RFC 8200 §4.5)

@needs_ping
def test_linux_pings_the_node_with_fragments(tap_node, netns, tmp_path):
    """Echo requests of 3000 and 4000 bytes arrive in fragments (Ethernet MTU 1500): the node
    reassembles them and sends the replies in fragments, which Linux reassembles. tern-node's
    default packet buffer (32 KiB) holds them with the frames that arrive behind them."""
    capture = tmp_path / "frag.pcap"
    node = tap_node(ready=False)
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    wait_address(node)
    for size in (3000, FRAGMENTED_SIZE):
        result = linux_ping(netns, f"{NODE_LL}%{TAP}", size)
        assert " 3 received" in result.stdout, f"size {size}:\n{result.stdout}{result.stderr}"
        assert "wrong data" not in result.stdout, result.stdout
    assert node.stat("ipv6", "reass_ok") >= 6
    assert node.stat("ipv6", "frag_ok") >= 6
    assert node.stat("ipv6", "frag_fail") == 0
    assert node.stat("ipv6", "reass_nomem") == 0
    assert node.pktbuf_used() == 0
    assert "stopped" in node.run(f"pcap stop {TAP}")
    node.finish_clean()
    assert_capture_clean(capture)
    # The node's fragments: none larger than the link MTU (1500 + 14 bytes of Ethernet header).
    frames = tshark(capture, "-T", "fields", "-e", "frame.len",
                    "-Y", f"ipv6.src == {NODE_LL} && ipv6.fragment").split()
    assert frames and max(int(f) for f in frames) <= 1514, frames
