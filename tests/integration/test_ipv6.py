# SPDX-License-Identifier: BSD-3-Clause
"""IPv6 of tern-node against the Linux kernel over TAP: ping, Neighbor Discovery, DAD.

Each test runs in its own network namespace with the node on tap0 (see conftest.py). Routers and
SLAAC are in test_ipv6_router.py, UDP in test_udp.py; fragmentation at the end of this file.
"""
import re
import shutil
import subprocess
import sys

import pytest

from tapnode import EXECUTORS, NODE_MAC, TAP, _skip_reason, run

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")

# Modified EUI-64 of NODE_MAC 02:00:5e:00:53:01 (RFC 4291 App. A: U/L bit flipped, ff:fe inserted):
# 00:00:5e:ff:fe:00:53:01.
NODE_LL = "fe80::5eff:fe00:5301"


def wait_address(node, state, timeout=6.0):
    """Wait until ifconfig shows the node's link-local address in STATE."""
    pattern = rf"inet6 {re.escape(NODE_LL)}/64  scope: link  {state}"
    for _ in range(int(timeout / 0.2)):
        if re.search(pattern, node.run(f"ifconfig {TAP}")):
            return
        subprocess.run(["sleep", "0.2"], check=True)
    raise AssertionError(f"{NODE_LL} never became {state}:\n{node.run(f'ifconfig {TAP}')}")


def linux_link_local(ns):
    out = run("ip", "netns", "exec", ns, "ip", "-6", "addr", "show", "dev", TAP, "scope", "link").stdout
    return re.search(r"inet6 (fe80::[0-9a-f:]+)/64", out).group(1)


def ping(ns, size, count=3):
    return run("ip", "netns", "exec", ns, "ping", "-6", "-n", "-c", str(count), "-i", "0.2", "-W", "2",
               "-s", str(size), f"{NODE_LL}%{TAP}", check=False, timeout=60)


@pytest.mark.skipif(shutil.which("ping") is None, reason="needs ping (iputils-ping)")
@pytest.mark.parametrize("executor", EXECUTORS)
def test_linux_pings_the_node_link_local(start_node, netns, executor, tmp_path):
    capture = tmp_path / "ipv6.pcap"
    node = start_node("--mac", NODE_MAC, "--tap", TAP, "--executor", executor)
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    wait_address(node, "preferred")

    # Sizes up to the Ethernet MTU (1452 + 8 + 40 = 1500); larger ones need fragmentation.
    for size in (0, 1, 56, 1000, 1452):
        result = ping(netns, size)
        assert " 3 received" in result.stdout, f"size {size}:\n{result.stdout}{result.stderr}"

    # Linux resolved the node by NDP and holds it as a confirmed neighbor.
    neigh = run("ip", "netns", "exec", netns, "ip", "-6", "neigh", "show", "dev", TAP).stdout
    assert re.search(rf"{re.escape(NODE_LL)} lladdr {NODE_MAC} .*REACHABLE", neigh), neigh
    # The node learnt Linux from its solicitation.
    linux_ll = linux_link_local(netns)
    linux_mac = run("ip", "netns", "exec", netns, "cat", f"/sys/class/net/{TAP}/address").stdout.strip()
    assert re.search(rf"^{re.escape(linux_ll)}\s+dev {TAP}\s+lladdr {linux_mac}", node.run("nib neigh"), re.M)
    assert node.counter("stats ipv6", r"^ipv6\s+icmp_echo_in\s+(\d+)") >= 15
    assert node.counter("stats ipv6", r"^ipv6\s+icmp_bad_checksum\s+(\d+)") == 0
    assert node.counter("pktbuf", r"used (\d+) B") == 0

    assert "stopped" in node.run(f"pcap stop {TAP}")
    assert node.finish() == 0, node.proc.stderr.read()
    tshark = shutil.which("tshark")
    if tshark is None:
        pytest.skip("tshark not installed: capture not checked")
    bad = run(tshark, "-n", "-r", str(capture), "-Y",
              "_ws.malformed || _ws.expert.severity >= error || icmpv6.checksum.status == 2").stdout
    assert bad.strip() == "", bad
    replies = run(tshark, "-n", "-r", str(capture), "-Y", f"icmpv6.type == 129 && ipv6.src == {NODE_LL}").stdout
    assert len(replies.strip().splitlines()) >= 15, replies
    adverts = run(tshark, "-n", "-r", str(capture), "-Y", "icmpv6.type == 136 && icmpv6.nd.na.flag.s == 1").stdout
    assert adverts.strip(), "no solicited neighbor advertisement from the node"


def wait_for(node, pattern, timeout=6.0):
    """Repeat ifconfig until PATTERN shows; return the output."""
    for _ in range(int(timeout / 0.2)):
        out = node.run(f"ifconfig {TAP}")
        if re.search(pattern, out):
            return out
        subprocess.run(["sleep", "0.2"], check=True)
    raise AssertionError(f"{pattern!r} never showed:\n{node.run(f'ifconfig {TAP}')}")


@pytest.mark.skipif(shutil.which("ping") is None, reason="needs ping (iputils-ping)")
@pytest.mark.parametrize("executor", EXECUTORS)
def test_dad_detects_duplicate_and_global_addresses_work(start_node, netns, executor):
    node = start_node("--mac", NODE_MAC, "--tap", TAP, "--executor", executor)
    wait_address(node, "preferred")
    # Linux holds 2001:db8::7 (without DAD on its side); the node tries to take it too.
    run("ip", "netns", "exec", netns, "ip", "-6", "addr", "add", "2001:db8::7/64", "dev", TAP, "nodad")
    assert node.run(f"ifconfig {TAP} add 2001:db8::7/64").strip() == ""
    wait_for(node, r"inet6 2001:db8::7/64  scope: global  duplicate")
    assert node.counter("stats ipv6", r"^ipv6\s+dad_duplicates\s+(\d+)") == 1

    # An address nobody else has becomes preferred, and Linux reaches it over the on-link prefix.
    assert node.run(f"ifconfig {TAP} add 2001:db8::6/64").strip() == ""
    wait_for(node, r"inet6 2001:db8::6/64  scope: global  preferred")
    result = run("ip", "netns", "exec", netns, "ping", "-6", "-n", "-c", "3", "-i", "0.2", "-W", "2",
                 "2001:db8::6", check=False, timeout=60)
    assert " 3 received" in result.stdout, result.stdout + result.stderr
    # The duplicate is never used: echo requests to it would be Linux's own.
    out = node.run(f"ifconfig {TAP} del 2001:db8::7")
    assert out.strip() == "", out
    assert "2001:db8::7" not in node.run(f"ifconfig {TAP}")
    assert "already an address" in node.run(f"ifconfig {TAP} add 2001:db8::6/64")
    assert node.finish() == 0, node.proc.stderr.read()


PORT_UNREACHABLE_PROBE = r"""
import socket, sys
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.settimeout(5)
s.connect((sys.argv[1], 9, 0, socket.if_nametoindex(sys.argv[2])))
s.send(b"anyone?")
try:
    s.recv(100)
    print("answered")
except ConnectionRefusedError:
    print("refused")
except socket.timeout:
    print("timeout")
"""


@pytest.mark.parametrize("executor", EXECUTORS)
def test_udp_to_a_closed_port_is_refused_at_linux(start_node, netns, executor, tmp_path):
    capture = tmp_path / "unreach.pcap"
    node = start_node("--mac", NODE_MAC, "--tap", TAP, "--executor", executor)
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    wait_address(node, "preferred")
    result = run("ip", "netns", "exec", netns, "python3", "-c", PORT_UNREACHABLE_PROBE, NODE_LL, TAP,
                 check=False, timeout=30)
    # ICMPv6 destination unreachable, port unreachable (RFC 4443 §3.1) turns into ECONNREFUSED.
    assert result.stdout.strip() == "refused", result.stdout + result.stderr
    assert node.counter("stats ipv6", r"^ipv6\s+icmp_errors_out\s+(\d+)") >= 1
    assert "stopped" in node.run(f"pcap stop {TAP}")
    assert node.finish() == 0, node.proc.stderr.read()
    tshark = shutil.which("tshark")
    if tshark is None:
        pytest.skip("tshark not installed: capture not checked")
    out = run(tshark, "-n", "-r", str(capture), "-Y", "icmpv6.type == 1 && icmpv6.code == 4").stdout
    assert out.strip(), "no port unreachable in the capture"
    bad = run(tshark, "-n", "-r", str(capture), "-Y",
              "_ws.malformed || _ws.expert.severity >= error || icmpv6.checksum.status == 2").stdout
    assert bad.strip() == "", bad


def node_ping(node, target, extra="-c 3 -i 200"):
    """The node's `ping EXTRA TARGET`: its whole output (it ends with the statistics)."""
    return node.run(f"ping {extra} {target}", timeout=30)


def check_replies(out, target, source, count=3, size=56):
    assert f"PING {target}: {size} data bytes" in out, out
    seqs = [int(m.group(1)) for m in re.finditer(
        rf"^{size + 8} bytes from {re.escape(source)}: icmp_seq=(\d+) ttl=64 time=\d+\.\d{{3}} ms$", out, re.M)]
    assert seqs == list(range(1, count + 1)), out
    assert f"--- {target} ping statistics ---" in out, out
    assert f"{count} packets transmitted, {count} received, 0% packet loss" in out, out
    assert re.search(r"^rtt min/avg/max = \d+\.\d{3}/\d+\.\d{3}/\d+\.\d{3} ms$", out, re.M), out


@pytest.mark.parametrize("executor", EXECUTORS)
def test_node_pings_linux(start_node, netns, executor, tmp_path):
    capture = tmp_path / "ping.pcap"
    node = start_node("--mac", NODE_MAC, "--tap", TAP, "--executor", executor)
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    wait_address(node, "preferred")
    linux_ll = linux_link_local(netns)

    # Link-local: needs the interface; the node resolves Linux first (solicited NA).
    out = node_ping(node, f"{linux_ll}%{TAP}")
    check_replies(out, f"{linux_ll}%{TAP}", linux_ll)
    neigh = node.run("nib neigh")
    assert re.search(rf"^{re.escape(linux_ll)}\s+dev {TAP}\s+lladdr \S+\s+REACHABLE", neigh, re.M), neigh
    assert "needs an interface" in node.run(f"ping {linux_ll}")

    # Global, over the on-link prefix; other sizes.
    run("ip", "netns", "exec", netns, "ip", "-6", "addr", "add", "2001:db8::1/64", "dev", TAP, "nodad")
    assert node.run(f"ifconfig {TAP} add 2001:db8::6/64").strip() == ""
    wait_for(node, r"inet6 2001:db8::6/64  scope: global  preferred")
    check_replies(node_ping(node, "2001:db8::1"), "2001:db8::1", "2001:db8::1")
    check_replies(node_ping(node, "2001:db8::1", "-c 2 -i 100 -s 1000"), "2001:db8::1", "2001:db8::1",
                  count=2, size=1000)

    # Nobody there: every request lost, after the wait (-W) following the last one.
    out = node_ping(node, "2001:db8::99", "-c 2 -i 100 -W 300")
    assert "2 packets transmitted, 0 received, 100% packet loss" in out, out
    assert "rtt" not in out, out
    # Its requests wait for address resolution until that fails (3 NS, 1 s apart): then none is left.
    for _ in range(40):
        if node.counter("pktbuf", r"used (\d+) B") == 0:
            break
        subprocess.run(["sleep", "0.2"], check=True)
    assert node.counter("pktbuf", r"used (\d+) B") == 0

    assert "stopped" in node.run(f"pcap stop {TAP}")
    assert node.finish() == 0, node.proc.stderr.read()
    tshark = shutil.which("tshark")
    if tshark is None:
        pytest.skip("tshark not installed: capture not checked")
    bad = run(tshark, "-n", "-r", str(capture), "-Y",
              "_ws.malformed || _ws.expert.severity >= error || icmpv6.checksum.status == 2").stdout
    assert bad.strip() == "", bad
    requests = run(tshark, "-n", "-r", str(capture), "-Y", "icmpv6.type == 128 && icmpv6.echo.sequence_number == 1").stdout
    assert len(requests.strip().splitlines()) >= 3, requests


@pytest.mark.parametrize("executor", EXECUTORS)
def test_node_sends_mldv2_reports(start_node, netns, executor, tmp_path):
    """RFC 3810 §6.1: joining its solicited-node group, the node reports it (twice) to ff02::16,
    hop limit 1, with a Router Alert; it answers Linux's queries (Linux as host sends none,
    so only the unsolicited ones are checked here)."""
    capture = tmp_path / "mld.pcap"
    node = start_node("--mac", NODE_MAC, "--tap", TAP, "--executor", executor)
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    wait_address(node, "preferred")
    assert node.wait_counter("stats ipv6", r"^ipv6\s+mld_reports_sent\s+(\d+)", 2) >= 2
    assert "stopped" in node.run(f"pcap stop {TAP}")
    assert node.finish() == 0, node.proc.stderr.read()
    tshark = shutil.which("tshark")
    if tshark is None:
        pytest.skip("tshark not installed: capture not checked")
    bad = run(tshark, "-n", "-r", str(capture), "-Y",
              "_ws.malformed || _ws.expert.severity >= error || icmpv6.checksum.status == 2").stdout
    assert bad.strip() == "", bad
    reports = run(tshark, "-n", "-r", str(capture), "-T", "fields", "-e", "ipv6.src", "-e", "ipv6.hlim",
                  "-e", "ipv6.opt.router_alert", "-e", "icmpv6.mldr.mar.record_type",
                  "-e", "icmpv6.mldr.mar.multicast_address",
                  "-Y", "icmpv6.type == 143 && ipv6.dst == ff02::16").stdout.strip().splitlines()
    # Linux's own reports show too: keep the node's (from ::, during DAD, or its link-local).
    ours = [r.split("\t") for r in reports if r.split("\t")[0] in ("::", NODE_LL)]
    # The first report may leave before the capture starts: the counter above saw both.
    joins = [r for r in ours if r[4] == "ff02::1:ff00:5301"]
    assert joins, reports
    for src, hlim, alert, record, _ in joins:
        assert hlim == "1" and alert == "0" and record == "4", reports  # 4: CHANGE_TO_EXCLUDE_MODE
    assert not [r for r in ours if "ff02::1" in r[4].split(",")], reports  # never all-nodes (§6)


# ---------------------------------------------------------------- fragmentation (RFC 8200 §4.5)

@pytest.mark.skipif(shutil.which("ping") is None, reason="needs ping (iputils-ping)")
@pytest.mark.parametrize("executor", EXECUTORS)
def test_linux_pings_the_node_with_fragments(start_node, netns, executor, tmp_path):
    """Echo requests of 3000 and 4000 bytes arrive in fragments (Ethernet MTU 1500): the node
    reassembles them and sends the replies in fragments, which Linux reassembles. The default
    pktbuf (6144 B) cannot hold a 4000-byte datagram with the frames that arrive behind it."""
    capture = tmp_path / "frag.pcap"
    node = start_node("--mac", NODE_MAC, "--tap", TAP, "--executor", executor, "--pktbuf", "16384")
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    wait_address(node, "preferred")
    for size in (3000, 4000):
        result = ping(netns, size)
        assert " 3 received" in result.stdout, f"size {size}:\n{result.stdout}{result.stderr}"
    assert node.counter("stats ipv6", r"^ipv6\s+reass_ok\s+(\d+)") >= 6
    assert node.counter("stats ipv6", r"^ipv6\s+frag_ok\s+(\d+)") >= 6
    assert node.counter("stats ipv6", r"^ipv6\s+frag_fail\s+(\d+)") == 0
    assert node.counter("stats ipv6", r"^ipv6\s+reass_nomem\s+(\d+)") == 0
    assert node.counter("pktbuf", r"used (\d+) B") == 0
    assert "stopped" in node.run(f"pcap stop {TAP}")
    assert node.finish() == 0, node.proc.stderr.read()
    tshark = shutil.which("tshark")
    if tshark is None:
        pytest.skip("tshark not installed: capture not checked")
    bad = run(tshark, "-n", "-r", str(capture), "-Y",
              "_ws.malformed || _ws.expert.severity >= error || icmpv6.checksum.status == 2").stdout
    assert bad.strip() == "", bad
    # The node's fragments: none larger than the link MTU (1500 + 14 bytes of Ethernet header).
    frames = run(tshark, "-n", "-r", str(capture), "-T", "fields", "-e", "frame.len",
                 "-Y", f"ipv6.src == {NODE_LL} && ipv6.fragment").stdout.split()
    assert frames and max(int(f) for f in frames) <= 1514, frames


UDP_BIG = """
import socket
addr = socket.getaddrinfo(%r, 5683, socket.AF_INET6, socket.SOCK_DGRAM)[0][4]
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.sendto(bytes(ord("a") + i %% 26 for i in range(8000)), addr)
"""


@pytest.mark.parametrize("executor", EXECUTORS)
def test_linux_sends_an_8000_byte_udp_datagram(start_node, netns, executor):
    """Six fragments from Linux's UDP socket make one datagram the node's UDP server prints whole."""
    node = start_node("--mac", NODE_MAC, "--tap", TAP, "--executor", executor, "--pktbuf", "32768")
    assert node.counter("pktbuf", r"size (\d+) B") == 32768
    wait_address(node, "preferred")
    assert "listening on port 5683" in node.run("udp server start 5683")
    result = run("ip", "netns", "exec", netns, sys.executable, "-c", UDP_BIG % f"{NODE_LL}%{TAP}",
                 check=False, timeout=30)
    assert result.returncode == 0, result.stderr
    text = "".join(chr(ord("a") + i % 26) for i in range(8000))
    node.expect(rf"^udp: 8000 bytes from \[fe80::[0-9a-f:]+\]:\d+: {text}$", timeout=5)
    assert node.counter("stats ipv6", r"^ipv6\s+reass_ok\s+(\d+)") == 1
    assert "stopped" in node.run("udp server stop")
    assert node.counter("pktbuf", r"used (\d+) B") == 0
    assert node.finish() == 0, node.proc.stderr.read()
