# SPDX-License-Identifier: BSD-3-Clause
"""tern-node as a router between two Linux hosts (RFC 8200 §3, RFC 4443 §3.3).

Three namespaces: NODE holds tern-node with two TAP devices, tap1 and tap2; H1 and H2 are the
hosts. A TAP device has only one side (the node's file descriptor), so each host reaches its TAP
through a Linux bridge inside NODE: br1 enslaves tap1 and veth a1, whose peer b1 lives in H1
(likewise br2, tap2, a2/b2, H2). Linux in NODE does no IPv6 of its own on these devices.

    H1 b1 (2001:db8:1::100) -- a1 [br1] tap1 -- tern-node -- tap2 [br2] a2 -- b2 (2001:db8:2::100) H2
"""
import os
import re

import pytest

from tapnode import Node, _ns_counter, needs_ping, needs_tap, ns_run, run

pytestmark = needs_tap


@pytest.fixture
def topology():
    """Namespaces NODE, H1, H2 wired as in the module docstring; deleted afterwards, always."""
    base = f"tern-fwd-{os.getpid()}-{next(_ns_counter)}"
    names = {"node": f"{base}-n", "h1": f"{base}-h1", "h2": f"{base}-h2"}
    created = []
    try:
        for name in names.values():
            run("ip", "netns", "add", name)
            created.append(name)
            ns_run(name, "ip", "link", "set", "lo", "up")
        node = names["node"]
        for k in (1, 2):
            host = names[f"h{k}"]
            tap, br, a, b = f"tap{k}", f"br{k}", f"a{k}", f"b{k}"
            ns_run(node, "ip", "tuntap", "add", "dev", tap, "mode", "tap")
            ns_run(node, "ip", "link", "add", br, "type", "bridge", "stp_state", "0", "forward_delay", "0",
                   "mcast_snooping", "0")
            ns_run(node, "ip", "link", "add", a, "type", "veth", "peer", "name", b)
            ns_run(node, "ip", "link", "set", b, "netns", host)
            for dev in (tap, br, a):
                ns_run(node, "sysctl", "-qw", f"net.ipv6.conf.{dev}.disable_ipv6=1")
            ns_run(node, "ip", "link", "set", tap, "master", br)
            ns_run(node, "ip", "link", "set", a, "master", br)
            for dev in (tap, a, br):
                ns_run(node, "ip", "link", "set", dev, "up")
            # The host: a static address and a default route via the node; no RAs, no DAD wait.
            ns_run(host, "sysctl", "-qw", f"net.ipv6.conf.{b}.accept_ra=0")
            ns_run(host, "sysctl", "-qw", f"net.ipv6.conf.{b}.accept_dad=0")
            ns_run(host, "ip", "link", "set", b, "up")
            ns_run(host, "ip", "-6", "addr", "add", f"2001:db8:{k}::100/64", "dev", b, "nodad")
            ns_run(host, "ip", "-6", "route", "add", "default", "via", f"2001:db8:{k}::1", "dev", b)
        yield names
    finally:
        for name in created:
            run("ip", "netns", "del", name, check=False)


@pytest.fixture
def router(tern_node, topology):
    nodes = []

    def start(executor):
        node = Node(tern_node, topology["node"], "--tap", "tap1", "--tap", "tap2", "--router",
                    "--executor", executor)
        nodes.append(node)
        return node

    yield start
    for node in nodes:
        node.kill()


def ping(ns, dst, *extra, count=3):
    return ns_run(ns, "ping", "-6", "-n", "-c", str(count), "-i", "0.2", "-W", "2", *extra, dst,
                  check=False, timeout=30)


@needs_ping
def test_node_forwards_between_two_links(topology, router, executor):
    node = router(executor)
    assert node.run("ifconfig tap1 add 2001:db8:1::1/64").strip() == ""
    assert node.run("ifconfig tap2 add 2001:db8:2::1/64").strip() == ""
    # DAD of the link-local and the global addresses (< 2 s + 1 s): the node answers then.
    result = None
    for _ in range(10):
        result = ping(topology["h1"], "2001:db8:1::1", count=1)
        if " 1 received" in result.stdout:
            break
    assert " 1 received" in result.stdout, result.stdout + result.stderr
    for _ in range(10):
        result = ping(topology["h2"], "2001:db8:2::1", count=1)
        if " 1 received" in result.stdout:
            break
    assert " 1 received" in result.stdout, result.stdout + result.stderr

    # H1 -> H2 through the node: requests and replies are both forwarded.
    result = ping(topology["h1"], "2001:db8:2::100")
    assert " 3 received" in result.stdout, result.stdout + result.stderr + node.run("nib neigh")
    # Linux sends with hop limit 64: H2 sees 63, and its reply reaches H1 with 63.
    assert re.search(r"ttl=63", result.stdout), result.stdout
    assert node.counter("stats ipv6", r"^ipv6\s+fwd_packets\s+(\d+)") >= 6

    # Hop limit 1: the node answers with Time Exceeded (RFC 4443 §3.3).
    result = ping(topology["h1"], "2001:db8:2::100", "-t", "1", count=1)
    assert "Time exceeded" in result.stdout, result.stdout + result.stderr
    assert "From 2001:db8:1::1" in result.stdout, result.stdout
    assert node.counter("stats ipv6", r"^ipv6\s+fwd_hop_limit\s+(\d+)") == 1

    # No route: Destination Unreachable code 0 (RFC 4443 §3.1).
    result = ping(topology["h1"], "2001:db8:3::1", count=1)
    assert "Destination unreachable" in result.stdout, result.stdout + result.stderr
    assert node.counter("stats ipv6", r"^ipv6\s+fwd_no_route\s+(\d+)") == 1

    # A static route to 2001:db8:3::/48 via H2; it shows in `nib route`, then goes.
    assert node.run("route add 2001:db8:3::/48 via 2001:db8:2::100 dev tap2").strip() == ""
    assert re.search(r"2001:db8:3::/48\s+via 2001:db8:2::100\s+dev tap2\s+static", node.run("nib route"))
    assert node.run("route del 2001:db8:3::/48").strip() == ""
    assert "2001:db8:3::/48" not in node.run("nib route")
    node.finish_clean()
