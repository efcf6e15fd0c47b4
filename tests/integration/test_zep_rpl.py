# SPDX-License-Identifier: BSD-3-Clause
"""RPL between two tern-node processes over ZEP, under each executor, with the RPL Option.

Node a roots a DODAG under 2001:db8::1 on its 802.15.4 interface, node b joins as a router and
takes 2001:db8::b from the root's prefix. a pings b's global address: the echo request and the
reply carry the RPL Option in a Hop-by-Hop header (RFC 6553), added by each node's IPv6 module
from the data-plane state its RPL module pushed (docs/RPL.md, "Loop detection"). Under the
threaded executor IPv6 and RPL run on different threads: the test also shows that the push
(RPL -> IPv6, synchronous) and the reports (IPv6 -> RPL, posted) do not deadlock.
"""
import re
import socket
import time

from test_zep_nodes import B_EUI64, endpoint, free_udp_port, start_node, wait_link_local


def ask(node, command):
    """Send COMMAND to NODE, then `ifconfig wpan0` (most commands print nothing when they
    succeed); return what it printed up to the end of the interface listing."""
    node.stdin.write(command + "\nifconfig wpan0\n")
    node.stdin.flush()
    seen = ""
    while True:
        line = node.stdout.readline()
        assert line, f"node ended: {node.stderr.read()}"
        seen += line
        if "TX packets" in line:  # the last line of ifconfig
            return seen


def test_rpl_over_zep_carries_the_rpl_option(tern_node, executor):
    pa, pb = free_udp_port(socket.AF_INET6), free_udp_port(socket.AF_INET6)
    a_local, b_local = endpoint(socket.AF_INET6, pa), endpoint(socket.AF_INET6, pb)
    node_b = start_node(tern_node, "-n", "b", "--executor", executor, "--eui64", B_EUI64, "--zep",
                        f"{b_local},{a_local}")
    node_a = None
    try:
        wait_link_local(node_b)
        node_a = start_node(tern_node, "-n", "a", "--executor", executor, "--zep", f"{a_local},{b_local}")
        wait_link_local(node_a)
        ask(node_a, "ifconfig wpan0 add 2001:db8::1/64")
        time.sleep(1.5)  # DAD of the root's address
        ask(node_a, "rpl root 1 2001:db8::1")
        ask(node_b, "rpl router")
        deadline = time.monotonic() + 60
        joined = ""
        while time.monotonic() < deadline:
            joined = ask(node_b, "")
            if re.search(r"inet6 2001:db8::b/64\s+scope: global\s+preferred", joined):
                break
            time.sleep(0.5)
        else:
            raise AssertionError(f"node b has no global address: {joined}")
        # b registers its new address with a (6LoWPAN-ND, RFC 6775 §5.5) before a can send to it.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if "1 received" in ask(node_a, "ping -c 1 -W 1000 2001:db8::b"):
                break
        else:
            raise AssertionError("2001:db8::b never answered")
        out_a, err_a = node_a.communicate("ping -c 3 -i 300 -W 3000 2001:db8::b\nstats ipv6\n", timeout=60)
        out_b, err_b = node_b.communicate("stats ipv6\nstats rpl\n", timeout=30)
    finally:
        for node in (node_a, node_b):
            if node is not None and node.poll() is None:
                node.kill()
    assert node_a.returncode == 0, err_a
    assert node_b.returncode == 0, err_b
    assert re.search(r"3 packets transmitted, [1-3] received", out_a), out_a
    added_a = int(re.search(r"^ipv6\s+rpi_added\s+(\d+)$", out_a, re.M).group(1))
    added_b = int(re.search(r"^ipv6\s+rpi_added\s+(\d+)$", out_b, re.M).group(1))
    assert added_a >= 3 and added_b >= 1, (out_a, out_b)
    for out in (out_a, out_b):
        for counter in ("rpi_unknown_instance", "rpi_dropped_rank", "rx_ext_dropped"):
            assert re.search(rf"^ipv6\s+{counter}\s+0$", out, re.M), (counter, out)
