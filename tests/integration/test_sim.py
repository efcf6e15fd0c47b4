# SPDX-License-Identifier: BSD-3-Clause
"""tern-sim end to end (no root needed): nodes on the simulated IEEE 802.15.4 medium ping each
other over 6LoWPAN under virtual time; the medium's pcap decodes in tshark; bad topologies fail.

Only one-hop neighbours are pinged (link-local addresses): multi-hop routing needs RPL, a later
issue. In the 3 x 3 grid, node 1 pings its neighbours 2 and 4 and node 5 its four neighbours;
node 1's ping to the far corner (node 9, four hops) is checked to get no answer.
"""
import re
import shutil
import subprocess

import pytest

from conftest import ROOT

EXAMPLES = ROOT / "tools/tern-sim/examples"
TSHARK = shutil.which("tshark")
SIZES = [0, 1, 100, 500, 1000, 1232]
SETTLE = "run 5s"  # DAD, router solicitations, MLD: the nodes' start-up


def run_sim(binary, topology, lines, *args, timeout=120):
    """Run tern-sim on TOPOLOGY with LINES on stdin; return the completed process."""
    return subprocess.run(
        [str(binary), str(topology), *args],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def ll(node):
    """Link-local address of node NODE on wpan0 (fe80::N, N in hexadecimal)."""
    return f"fe80::{node:x}%wpan0"


def ping_lines(src, dst):
    """Commands: SRC pings DST with each of SIZES, then a sweep over 0..1232."""
    lines = [f"{src} ping -c 2 -i 200 -s {size} {ll(dst)}" for size in SIZES]
    lines.append(f"{src} ping -A -i 2000 -g 0 -G 1232 -h 77 {ll(dst)}")
    return lines


def check_pings(out, src, dst):
    """Every ping of ping_lines(SRC, DST) got all its answers, with the data sent."""
    addr = f"fe80::{dst:x}"
    runs = re.findall(rf"^PING {re.escape(ll(dst))}: (.*)$((?:\n(?!PING ).*)*)", out, re.M)
    assert len(runs) == len(SIZES) + 1, out
    for (header, body), size in zip(runs, SIZES + ["sweep"]):
        if size == "sweep":
            assert header == "(0 ... 1232) data bytes", header
            sent = 1232 // 77 + 1
        else:
            assert header == f"{size} data bytes", header
            sent = 2
            assert len(re.findall(rf"^{size + 8} bytes from {addr}: icmp_seq=\d+ ttl=\d+", body, re.M)) == 2, body
        assert f"{sent} packets transmitted, {sent} received, 0% packet loss" in body, (src, dst, size, body)
        assert "wrong data" not in body and "corrupted" not in body, body


def check_clean_exit(proc):
    assert proc.returncode == 0, proc.stderr
    assert "inconsistent" not in proc.stderr, proc.stderr


def tshark_check(pcap):
    """The capture decodes without malformed packets or expert errors; returns its protocols."""
    bad = subprocess.run([TSHARK, "-r", str(pcap), "-Y", "_ws.malformed || _ws.expert.severity >= error"],
                         capture_output=True, text=True, timeout=120, check=True)
    assert bad.stdout == "", bad.stdout
    fields = subprocess.run([TSHARK, "-r", str(pcap), "-T", "fields", "-e", "frame.protocols", "-e", "wpan.fcs_ok"],
                            capture_output=True, text=True, timeout=120, check=True)
    rows = [line.split("\t") for line in fields.stdout.splitlines()]
    assert rows, "empty capture"
    assert all(fcs in ("1", "True") for _, fcs in rows), fields.stdout[:2000]
    return {proto for protocols, _ in rows for proto in protocols.split(":")}


def test_line_of_two_nodes_ping_each_other(tern_sim, tmp_path):
    pcap = tmp_path / "line2.pcap"
    lines = [SETTLE, *ping_lines(1, 2), *ping_lines(2, 1), "all pktbuf", "time"]
    proc = run_sim(tern_sim, EXAMPLES / "line2.topo", lines, "--pcap", str(pcap), "--seed", "7")
    check_clean_exit(proc)
    out = proc.stdout
    first, second = out.split(f"PING {ll(1)}", 1)
    check_pings(first, 1, 2)
    check_pings(f"PING {ll(1)}" + second, 2, 1)
    # `all` prefixes every line with the node number; nothing leaked after the pings.
    for node in (1, 2):
        assert re.search(rf"^{node}: .*used 0 B", out, re.M), out
    # Virtual time: the pings ran after the 5 s start-up, each one advancing the clock.
    seconds = float(re.search(r"^time (\d+\.\d+) s$", out, re.M).group(1))
    assert seconds > 6, out
    if TSHARK is not None:
        protocols = tshark_check(pcap)
        assert {"wpan", "6lowpan", "ipv6", "icmpv6"} <= protocols, protocols


def test_grid_neighbours_ping_each_other(tern_sim, tmp_path):
    pcap = tmp_path / "grid.pcap"
    lines = [SETTLE, *ping_lines(1, 2), *ping_lines(1, 4)]
    for neighbour in (2, 4, 6, 8):
        lines.append(f"5 ping -c 2 -i 200 -s 1232 {ll(neighbour)}")
    lines += [f"1 ping -c 2 -i 200 -W 2000 {ll(9)}", "all pktbuf"]
    proc = run_sim(tern_sim, EXAMPLES / "grid3x3.topo", lines, "--pcap", str(pcap))
    check_clean_exit(proc)
    out = proc.stdout
    to_4 = out.index(f"PING {ll(4)}")
    check_pings(out[:to_4], 1, 2)
    from_5 = out.index(f"PING {ll(2)}", to_4)
    check_pings(out[to_4:from_5], 1, 4)
    for neighbour in (2, 4, 6, 8):
        assert re.search(rf"^PING {re.escape(ll(neighbour))}: 1232 data bytes\n(?:1240 bytes from fe80::{neighbour}: "
                         rf".*\n){{2}}\n--- .*\n2 packets transmitted, 2 received, 0% packet loss", out, re.M), out
    # Four hops away: no neighbour cache entry can help without routing (RPL, later).
    assert re.search(r"2 packets transmitted, 0 received.*100% packet loss", out.split(f"PING {ll(9)}")[1]), out
    for node in range(1, 10):
        assert re.search(rf"^{node}: .*used 0 B", out, re.M), out
    if TSHARK is not None:
        protocols = tshark_check(pcap)
        assert {"wpan", "6lowpan", "ipv6", "icmpv6"} <= protocols, protocols


def test_same_seed_same_capture(tern_sim, tmp_path):
    """The medium's seed fixes the run: two runs write identical captures."""
    topology = tmp_path / "lossy.topo"
    topology.write_text("line 3 0.7\n")
    captures = []
    for run in range(2):
        pcap = tmp_path / f"run{run}.pcap"
        proc = run_sim(tern_sim, topology, [SETTLE, f"2 ping -c 5 -i 100 -s 300 {ll(1)}"], "--seed", "42",
                       "--pcap", str(pcap))
        check_clean_exit(proc)
        captures.append(pcap.read_bytes())
    assert len(captures[0]) > 24 and captures[0] == captures[1]


def test_commands_time_help_and_errors(tern_sim):
    lines = ["time", "run 1500ms", "time", "help", "7 ifconfig", "run 10", "bogus", "all ifconfig wpan0"]
    proc = run_sim(tern_sim, EXAMPLES / "line2.topo", lines)
    check_clean_exit(proc)
    out = proc.stdout
    assert re.search(r"^time 0\.000000 s$\n(?:.*\n)*?^time 1\.500000 s$", out, re.M), out
    assert "run DURATION" in out and re.search(r"^ping\s", out, re.M), out
    assert "no node 7 (nodes are 1..2)" in out
    assert "usage: run DURATION" in out
    assert "unknown command 'bogus'" in out
    assert re.search(r"^1: .*wpan0", out, re.M) and re.search(r"^2: .*wpan0", out, re.M), out
    assert "fe80::1" in out and "fe80::2" in out


def test_script_runs_before_stdin(tern_sim, tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("run 2s\ntime\n")
    proc = run_sim(tern_sim, EXAMPLES / "line2.topo", ["time"], "--script", str(script))
    check_clean_exit(proc)
    assert re.findall(r"^time (.*)$", proc.stdout, re.M) == ["2.000000 s", "2.000000 s"]


def test_realtime_paces_virtual_time(tern_sim):
    import time
    start = time.monotonic()
    proc = run_sim(tern_sim, EXAMPLES / "line2.topo", ["run 1s", "time"], "--realtime")
    elapsed = time.monotonic() - start
    check_clean_exit(proc)
    assert "time 1.000000 s" in proc.stdout
    assert elapsed >= 0.9, elapsed


@pytest.mark.parametrize("text, where", [
    ("", "no nodes"),
    ("nodes 2\nlink 1 3 1\n", ":2: bad node '3' (want 1..2)"),
    ("grid 3 3 1.5\n", ":1: bad PRR '1.5'"),
    ("nodes 65\n", ":1: bad node count '65' (want 1..64)"),
    ("line 2\nwarp 9\n", ":2: unknown statement 'warp'"),
])
def test_bad_topology_exits_with_status_2(tern_sim, tmp_path, text, where):
    topology = tmp_path / "bad.topo"
    topology.write_text(text)
    proc = run_sim(tern_sim, topology, [])
    assert proc.returncode == 2, proc
    assert where in proc.stderr, proc.stderr
    assert proc.stderr.startswith("tern-sim: "), proc.stderr


def test_bad_command_line_exits_with_status_2(tern_sim, tmp_path):
    proc = subprocess.run([str(tern_sim)], capture_output=True, text=True, timeout=30, check=False)
    assert proc.returncode == 2 and "no TOPOLOGY" in proc.stderr
    proc = run_sim(tern_sim, tmp_path / "missing.topo", [])
    assert proc.returncode == 2 and "cannot open topology" in proc.stderr
    proc = run_sim(tern_sim, EXAMPLES / "line2.topo", [], "--seed", "x")
    assert proc.returncode == 2 and "bad --seed" in proc.stderr
