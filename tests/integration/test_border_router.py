# SPDX-License-Identifier: BSD-3-Clause
"""A Tern border router (6LBR, RPL root) between a Linux host and a simulated mesh (docs/RPL.md,
"Border router").

tern-sim runs a line of four nodes on the simulated IEEE 802.15.4 medium inside a namespace;
`--tap tap0` gives node 1 an Ethernet interface on the namespace's TAP device:

    Linux tap0 (2001:db8::100) -- tap0 [node 1: 2001:db8::1 | wpan0 2001:db8:1::1, RPL root]
                                         -- node 2 -- node 3 -- node 4     (2001:db8:1::N)

Node 1 roots a DODAG under 2001:db8:1::1, once per mode of operation; nodes 2-4 join as routers,
take 2001:db8:1::N from the root's Prefix Information option and announce it in DAOs. Storing mode:
the DAOs give the root a /128 route to each node, and the root forwards Linux's packets for them
inside an IPv6-in-IPv6 tunnel with the RPL Option (RFC 9008 §7.2.2). Non-storing mode: they give the root each node's
parent, and the root forwards Linux's packets into the mesh inside an IPv6-in-IPv6 tunnel with a
Source Routing Header (RFC 6554 §4.1, RFC 9008), which the last node decapsulates (RFC 2473). Linux
gets its route to the mesh prefix from the root's Router Advertisements on tap0: `ifconfig tap0
route-info add 2001:db8:1::/64 high` makes them carry an RFC 4191 Route Information option, which
Linux takes with accept_ra_rt_info_max_plen 64. Linux takes nothing else from them (accept_ra_pinfo
0, accept_ra_defrtr 0), so its only global address is 2001:db8::100 and it has no default route.
The test pings a node one hop from the root (2) and one three hops away (4) from Linux (also with
1280-byte packets, which the root sends in a fragmented tunnel packet), pings Linux
from node 4, exchanges UDP both ways with nodes 2 and 4, pings the root's mesh-side address (an
address of its other interface, RFC 1122 §3.3.4.2), and checks that the captures of both sides (the
root's tap0 and the radio medium) decode in tshark without malformed packets.
"""
import re
import shutil
import socket
import subprocess
import time

import pytest

from tapnode import TAP, Node, assert_capture_clean, needs_ping, needs_tap, ns_run, ns_socket, poll, tshark

LINUX = "2001:db8::100"
ROOT_TAP = "2001:db8::1"
ROOT_MESH = "2001:db8:1::1"
MODES = ("storing", "non-storing")  # RPL modes of operation (RFC 6550 §6.3.1: MOP 2, MOP 1)
MESH_PREFIX = "2001:db8:1::/64"
NODES = 4  # a line: node 1 the root, node 4 three hops away
JOIN_TIMEOUT = 60.0  # seconds of real time for the DODAG and every DAO route
UDP_PORT = 50123  # no dissector claims it: tshark shows the text as data
LINUX_PORT = 50124


def mesh(node):
    """Global address of mesh node NODE (SLAAC from the root's /64: the IID is N, RFC 4944 §6)."""
    return f"2001:db8:1::{node:x}"


@pytest.mark.parametrize("args, message", [
    (["--tap", ""], "bad --tap"),
    (["--tap", "@2"], "bad --tap"),
    (["--tap", "tap0@0"], "bad --tap"),
    (["--tap", "tap0@x"], "bad --tap"),
    (["--tap", "a-name-longer-than-ifnamsiz"], "bad --tap"),
    (["--tap", "tap0", "--tap", "tap1"], "bad --tap"),
    (["--tap", f"tap0@{NODES + 1}"], f"no node {NODES + 1}"),
])
def test_bad_tap_argument_exits_with_2(tern_sim, tmp_path, args, message):
    """No root needed: the argument is checked before any device is opened."""
    topology = tmp_path / "line.topo"
    topology.write_text(f"line {NODES}\n")
    res = subprocess.run([str(tern_sim), str(topology), *args], input="", capture_output=True, text=True,
                         timeout=20, check=False)
    assert res.returncode == 2, res.stderr
    assert message in res.stderr, res.stderr


@pytest.fixture(params=MODES)
def border_router(request, tern_sim, netns, tmp_path):
    """tern-sim with a line of NODES, node 1 on tap0, the DODAG formed in the mode of the test's
    parameter and Linux routed to it."""
    mode = request.param
    topology = tmp_path / "line.topo"
    topology.write_text(f"# the border router test: node 1 is the RPL root and 6LBR\nline {NODES}\n")
    # Linux as a plain host with a static address that takes only the Route Information options
    # of the root's RAs (RFC 4191 §3): no SLAAC address, on-link prefix or default route from them.
    for key, value in (("accept_ra", 1), ("accept_ra_pinfo", 0), ("accept_ra_defrtr", 0),
                       ("accept_ra_rt_info_max_plen", 64)):
        ns_run(netns, "sysctl", "-qw", f"net.ipv6.conf.{TAP}.{key}={value}")
    ns_run(netns, "ip", "-6", "addr", "add", f"{LINUX}/64", "dev", TAP, "nodad")
    sim = Node(tern_sim, netns, str(topology), "--tap", TAP, "--pcap", str(tmp_path / "medium.pcap"))
    try:
        out = sim.run(f"1 ifconfig {TAP}")
        assert f"Iface  2  {TAP}" in out, out
        root_ll = re.search(r"inet6 (fe80::[0-9a-f:]+)/64  scope: link", out).group(1)
        assert "capturing" in sim.run(f"1 pcap {TAP} {tmp_path / 'tap0.pcap'}")
        for line in (f"1 ifconfig {TAP} add {ROOT_TAP}/64", f"1 ifconfig wpan0 add {ROOT_MESH}/64",
                     f"1 rpl root 1 {ROOT_MESH} {mode}"):
            assert sim.run(line).strip() == "", line
        # The mesh prefix in the RAs on tap0 (RFC 4191 §2.3): Linux's route into the mesh.
        assert sim.run(f"1 ifconfig {TAP} route-info add {MESH_PREFIX} high").strip() == ""
        for node in range(2, NODES + 1):
            assert sim.run(f"{node} rpl router").strip() == ""

        def joined():
            routes = sim.run("1 rpl")
            if mode == "storing":
                return all(f"{mesh(n)}/128 via fe80::2" in routes for n in range(2, NODES + 1))
            # Non-storing: the root's links, each node to the one before it (RFC 6550 §9.7).
            return all(f"{mesh(n)} -> {mesh(n - 1)}" in routes for n in range(2, NODES + 1))

        poll("the root's DAO route to every node", joined, timeout=JOIN_TIMEOUT, interval=1.0)
        sim.mode = mode

        def rio_route():
            route = ns_run(netns, "ip", "-6", "route", "show", MESH_PREFIX).stdout
            return f"via {root_ll} dev {TAP}" in route and "pref high" in route

        poll("Linux's route to the mesh from the root's Route Information option", rio_route, timeout=20.0)
        assert "default" not in ns_run(netns, "ip", "-6", "route", "show").stdout
        yield sim
        assert "stopped" in sim.run("1 pcap stop")
        sim.finish_clean()
    finally:
        sim.kill()
    assert_capture_clean(tmp_path / "tap0.pcap")
    assert_capture_clean(tmp_path / "medium.pcap")


def ping(ns, dst, count=5):
    return ns_run(ns, "ping", "-6", "-n", "-c", str(count), "-i", "0.2", "-W", "3", dst, check=False, timeout=60)


@needs_tap
@needs_ping
def test_linux_pings_mesh_nodes_through_the_border_router(border_router, netns):
    for node, hops in ((2, 1), (NODES, NODES - 1)):
        res = ping(netns, mesh(node))
        # Every request answered; the root and the routers on the way decrement the hop limit.
        assert "5 packets transmitted, 5 received" in res.stdout, res.stdout + res.stderr
        assert f"ttl={64 - hops}" in res.stdout, res.stdout
    # The far node reaches Linux: the default route up the DODAG, then tap0 at the root.
    out = border_router.run(f"{NODES} ping -c 3 -i 200 {LINUX}", timeout=30)
    assert "3 packets transmitted, 3 received" in out, out
    forwarded = border_router.counter("1 stats ipv6", r"^ipv6\s+fwd_packets\s+(\d+)")
    assert forwarded >= 2 * 5 * 2 + 2 * 3, border_router.run("1 stats ipv6")
    # Linux's requests to node 4 went down in a tunnel, node 4 took them out (RFC 2473): with a
    # Source Routing Header in non-storing mode, with the RPL Option alone in storing mode (RFC 9008
    # §7.2.2), which the routers on the way checked (RFC 6550 §11.2).
    tunnelled = border_router.counter("1 stats ipv6", r"^ipv6\s+tun_encap\s+(\d+)")
    assert tunnelled >= 5, border_router.run("1 stats ipv6")
    decapsulated = border_router.counter(f"{NODES} stats ipv6", r"^ipv6\s+tun_decap\s+(\d+)")
    assert decapsulated >= 5, border_router.run(f"{NODES} stats ipv6")
    if border_router.mode == "storing":
        checked = border_router.counter(f"{NODES - 1} stats ipv6", r"^ipv6\s+rpi_forwarded\s+(\d+)")
        assert checked >= 2 * 5, border_router.run(f"{NODES - 1} stats ipv6")
        assert border_router.counter("1 stats ipv6", r"^ipv6\s+srh_inserted\s+(\d+)") == 0


@needs_tap
@needs_ping
def test_linux_pings_the_root_mesh_side_address(border_router, netns):
    """The root answers for its wpan0 address on tap0: a router delivers packets for any of its
    addresses (RFC 1122 §3.3.4.2), it does not forward them to itself."""
    res = ping(netns, ROOT_MESH)
    assert "5 packets transmitted, 5 received" in res.stdout, res.stdout + res.stderr
    assert "ttl=64" in res.stdout, res.stdout  # the root's own reply: no router on the way
    other_if = border_router.counter("1 stats ipv6", r"^ipv6\s+rx_other_if\s+(\d+)")
    assert other_if >= 5, border_router.run("1 stats ipv6")


@needs_tap
def test_udp_both_ways_between_linux_and_mesh_nodes(border_router, netns):
    sim = border_router
    with ns_socket(netns, socket.AF_INET6, socket.SOCK_DGRAM) as sock:
        sock.bind((LINUX, LINUX_PORT))
        sock.settimeout(10)
        linux_port = sock.getsockname()[1]
        for node in (2, NODES):
            assert f"listening on port {UDP_PORT}" in sim.run(f"{node} udp server start {UDP_PORT}")
            # Linux to the node: the node's server prints the datagram and its source.
            data = f"from-linux-to-{node}".encode()
            sock.sendto(data, (mesh(node), UDP_PORT))
            sim.expect(rf"^{node}: udp: {len(data)} bytes from \[{re.escape(LINUX)}\]:{linux_port}: "
                       rf"{re.escape(data.decode())}$", timeout=10)
            # The node to Linux, from its global address.
            text = f"from-{node}-to-linux"
            assert "udp: sent" in sim.run(f"{node} udp send {LINUX} {linux_port} {text}")
            got, src = sock.recvfrom(2048)
            assert got == text.encode()
            assert src[0] == mesh(node) and src[1] > 0
            assert "stopped" in sim.run(f"{node} udp server stop")


@needs_tap
def test_capture_shows_forwarded_traffic(border_router, netns, tmp_path):
    """The root's tap0 capture (flushed frame by frame, read while it grows) holds the echo
    replies of the far node, forwarded by every router on the way."""
    if shutil.which("tshark") is None:
        pytest.skip("tshark not installed (scripts/deps.sh test installs it): capture not checked")
    res = ping(netns, mesh(NODES), count=2)
    assert "2 received" in res.stdout, res.stdout
    time.sleep(0.2)
    lines = tshark(tmp_path / "tap0.pcap", "-Y", f"icmpv6.type == 129 && ipv6.src == {mesh(NODES)}",
                   "-T", "fields", "-e", "ipv6.dst", "-e", "ipv6.hlim")
    replies = [line.split("\t") for line in lines.splitlines() if line.strip()]
    assert len(replies) == 2, lines
    # Sent with hop limit 64, decremented by nodes 3 and 2 and by the root (RFC 8200 §3).
    assert all(dst == LINUX and hlim == str(64 - (NODES - 1)) for dst, hlim in replies), lines


@needs_tap
@needs_ping
def test_linux_pings_a_far_mesh_node_with_1280_byte_packets(border_router, netns):
    """`ping -s 1232`: 1280-byte packets (the IPv6 minimum MTU, which Linux never goes below). They
    fit the mesh links but not the root's tunnel (1280 less the outer header, the RPL Option and,
    non-storing, the Source Routing Header): the root encapsulates each and fragments the tunnel
    packet (RFC 2473 §7.1), every fragment carrying the outer headers, node 4 reassembles
    and decapsulates. The 1280-byte replies go up in fragments of node 4 (the RPL Option makes
    them 1288 bytes), which Linux reassembles."""
    res = ns_run(netns, "ping", "-6", "-n", "-c", "3", "-i", "0.5", "-W", "5", "-s", "1232", mesh(NODES),
                 check=False, timeout=60)
    assert "3 packets transmitted, 3 received" in res.stdout, res.stdout + res.stderr
    assert "1240 bytes from" in res.stdout, res.stdout  # ICMPv6 header and data
    assert border_router.counter(f"{NODES} stats ipv6", r"^ipv6\s+frag_ok\s+(\d+)") >= 3
    # Both modes tunnel (storing: outer header and RPL Option, RFC 9008 §7.2.2).
    fragmented = border_router.counter("1 stats ipv6", r"^ipv6\s+tun_frag\s+(\d+)")
    assert fragmented >= 3, border_router.run("1 stats ipv6")
    assert border_router.counter("1 stats ipv6", r"^ipv6\s+tun_too_big\s+(\d+)") == 0
    reassembled = border_router.counter(f"{NODES} stats ipv6", r"^ipv6\s+reass_ok\s+(\d+)")
    assert reassembled >= 3, border_router.run(f"{NODES} stats ipv6")
