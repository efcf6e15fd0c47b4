# SPDX-License-Identifier: BSD-3-Clause
"""tern-node end to end: options, the shell on stdin, both executors."""
import re
import subprocess


from conftest import ROOT


def run_node(binary, lines, *args, timeout=30):
    """Run tern-node with LINES on stdin; return the completed process."""
    return subprocess.run(
        [str(binary), *args],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_help_lists_every_command_and_exits_at_end_of_input(tern_node, executor):
    proc = run_node(tern_node, ["help"], "--executor", executor)
    assert proc.returncode == 0, proc.stderr
    for command in ["help", "ifconfig", "nib", "pcap", "ping", "pktbuf", "route", "stats", "trace", "txtsnd",
                    "udp"]:
        assert re.search(rf"^{command}\s", proc.stdout, re.M), proc.stdout


def test_loopback_frame_is_counted_traced_and_released(tern_node, executor):
    proc = run_node(
        tern_node,
        ["txtsnd lo hello", "ifconfig lo", "stats ipv6", "trace", "pktbuf"],
        "--loopback",
        "--executor",
        executor,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "RX packets 1  bytes 5" in out
    assert "TX packets 1  bytes 5" in out
    # "hello" is no IPv6 packet: IPv6 drops it, counted, and it is freed.
    assert re.search(r"^ipv6\s+rx_hdr_errors\s+1$", out, re.M), out
    assert re.search(r"-> lo\s+SND\s+ok\s+5 B \[netif,undef\]", out), out
    assert "used 0 B" in out and "consistent" in out


def test_two_interfaces_with_addresses(tern_node):
    proc = run_node(tern_node, ["ifconfig", "txtsnd test0 bcast x", "ifconfig test0"], "-l", "-t")
    assert proc.returncode == 0, proc.stderr
    assert "Iface  1  lo" in proc.stdout
    assert "Iface  2  test0" in proc.stdout
    assert "L2 address: 02:00:00:ff:fe:00:00:01" in proc.stdout
    # The 1-byte frame went out; IPv6's own start-up frames (DAD, router
    # solicitation, MLD, each after a random delay of up to 1 s) may have too.
    tx = [(int(p), int(b)) for p, b in re.findall(r"TX packets (\d+)  bytes (\d+)", proc.stdout)]
    packets, octets = tx[-1]
    assert packets >= 1 and (packets > 1 or octets == 1), proc.stdout
    assert "fe80::ff:fe00:1/64" in proc.stdout  # test0's link-local (modified EUI-64)


def test_errors_are_reported_and_the_node_goes_on(tern_node):
    proc = run_node(tern_node, ["frobnicate", "txtsnd nope x", "txtsnd lo zz:1 x", "help"])
    assert proc.returncode == 0, proc.stderr
    assert "unknown command 'frobnicate'" in proc.stdout
    assert "no interface 'nope'" in proc.stdout
    assert "bad link address 'zz:1'" in proc.stdout
    assert re.search(r"^trace\s", proc.stdout, re.M)


def test_overlong_line_is_refused(tern_node):
    proc = run_node(tern_node, ["x" * 1000, "pktbuf"])
    assert proc.returncode == 0
    assert "line too long" in proc.stdout
    assert "used 0 B" in proc.stdout


def test_pktbuf_default_fits_big_datagrams_and_option_sets_it(tern_node):
    """Without --pktbuf the node has 32 KiB (an 8000-byte datagram in reassembly or in fragments,
    with the frames behind it); --pktbuf sets 256..262144 bytes."""
    proc = run_node(tern_node, ["pktbuf"])
    assert re.search(r"^pktbuf: size 32768 B, used 0 B", proc.stdout, re.M), proc.stdout
    proc = run_node(tern_node, ["pktbuf"], "--pktbuf", "4096")
    assert re.search(r"^pktbuf: size 4096 B, used 0 B", proc.stdout, re.M), proc.stdout
    for bad in ("255", "262145", "4k", ""):
        proc = run_node(tern_node, [], "--pktbuf", bad)
        assert proc.returncode == 2 and f"bad --pktbuf '{bad}'" in proc.stderr, proc.stderr
    proc = run_node(tern_node, [], "--help")
    assert "default 32768" in proc.stdout, proc.stdout


def test_bad_options(tern_node):
    proc = run_node(tern_node, [], "--bogus")
    assert proc.returncode == 2
    assert "usage:" in proc.stderr
    proc = run_node(tern_node, [], "--executor", "fibers")
    assert proc.returncode == 1
    assert "unknown executor 'fibers'" in proc.stderr


def test_readme_node_command_builds_and_starts():
    """The README's first command, as a newcomer runs it."""
    proc = subprocess.run(
        [str(ROOT / "scripts/node")],
        input="ifconfig\n",
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Iface  1  lo" in proc.stdout
