# SPDX-License-Identifier: BSD-3-Clause
"""RPL meshes in tern-sim (no root needed), deterministic under virtual time.

A line of 5 nodes and a 5 x 5 grid (every link PRR 1), node 1 the DODAG root under
2001:db8::1, every other node `rpl router`, in each mode of operation the root command
offers (storing; non-storing when `rpl root ... non-storing` exists):

- every node has joined within a bounded virtual time (JOIN_BOUND);
- the DODAG is loop-free: following preferred parents from any node reaches the root, and
  every node's rank is larger than its preferred parent's (RFC 6550 §8.2.2.4);
- the root pings every node's global address and every node pings the root's (3 echoes
  each, at least one answer required per node);
- the medium's capture decodes in tshark without malformed packets or expert errors.

Repair: in the grid, after the router below the root with the largest sub-DODAG is isolated
(`isolate N`), every other node reaches the root again within REPAIR_BOUND. The simulator's
experiment commands are checked too: `traffic` over the line delivers every datagram both
ways, and `links` prints a `random` topology that is connected and the same for the same seed.
"""
import re
import shutil
import subprocess

import pytest


TSHARK = shutil.which("tshark")
ROOT_ADDR = "2001:db8::1"
JOIN_BOUND = {"line5": "60s", "grid5x5": "90s"}
REPAIR_BOUND = "300s"
TOPOLOGIES = {"line5": ("line 5\n", 5), "grid5x5": ("grid 5 5\n", 25)}


def run_sim(binary, topology, lines, *args, timeout=300):
    proc = subprocess.run([str(binary), str(topology), *args], input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True, timeout=timeout, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "inconsistent" not in proc.stderr, proc.stderr
    return proc.stdout


def mode_supported(binary, tmp_path, mode):
    topo = tmp_path / "one.topo"
    topo.write_text("line 1\n")
    out = run_sim(binary, topo, [f"1 ifconfig wpan0 add {ROOT_ADDR}/64", f"1 rpl root 1 {ROOT_ADDR} {mode}"])
    return "usage" not in out


MODE_ARG = {}


def root_mode(binary, tmp_path, mode):
    """The root command's mode argument: MODE; "" for storing on a tern-sim without the
    argument (storing only); None when MODE is not there."""
    if mode not in MODE_ARG:
        if mode_supported(binary, tmp_path, mode):
            MODE_ARG[mode] = mode
        else:
            MODE_ARG[mode] = "" if mode == "storing" else None
    return MODE_ARG[mode]


def setup_lines(count, mode):
    return ([f"1 ifconfig wpan0 add {ROOT_ADDR}/64", f"1 rpl root 1 {ROOT_ADDR} {mode}".rstrip()] +
            [f"{n} rpl router" for n in range(2, count + 1)])


def parse_rpl(out):
    """`all rpl` output: {node: (joined, rank, preferred parent)} of the last listing per node."""
    state = {}
    for n, text in re.findall(r"^(\d+): (.*)$", out, re.M):
        n = int(n)
        if text.startswith("role "):
            state[n] = {"joined": text.endswith(" joined") and "not joined" not in text, "rank": None,
                        "parent": None}
        elif n in state and text.startswith("rank "):
            state[n]["rank"] = int(text.split()[1])
        elif n in state:
            m = re.match(r"^\s+\* fe80::([0-9a-f]+)\s", text)
            if m:
                state[n]["parent"] = int(m.group(1), 16)
    return state


def check_dodag(state, count, removed=None):
    """Every node (but REMOVED) joined, ranks grow away from the root, parents lead to it."""
    assert sorted(state) == list(range(1, count + 1)), state
    assert state[1]["joined"] and state[1]["parent"] is None, state[1]
    for n in range(2, count + 1):
        if n == removed:
            continue
        st = state[n]
        assert st["joined"] and st["parent"] is not None, (n, st)
        assert st["rank"] > state[st["parent"]]["rank"], (n, st, state[st["parent"]])
        node, seen = n, set()
        while node != 1:
            assert node not in seen and node != removed, (n, node, seen)
            seen.add(node)
            node = state[node]["parent"]


def ping_results(out, dst):
    """(transmitted, received) of each ping to DST in OUT, in order."""
    return [(int(a), int(b)) for a, b in re.findall(
        rf"^PING {re.escape(dst)}: .*$(?:\n(?!PING ).*)*?^(\d+) packets transmitted, (\d+) received", out, re.M)]


def tshark_check(pcap):
    bad = subprocess.run([TSHARK, "-r", str(pcap), "-Y", "_ws.malformed || _ws.expert.severity >= error"],
                         capture_output=True, text=True, timeout=300, check=True)
    assert bad.stdout == "", bad.stdout[:2000]
    fields = subprocess.run([TSHARK, "-r", str(pcap), "-T", "fields", "-e", "frame.protocols"],
                            capture_output=True, text=True, timeout=300, check=True)
    return {proto for line in fields.stdout.splitlines() for proto in line.split(":")}


@pytest.mark.parametrize("mode", ["storing", "non-storing"])
@pytest.mark.parametrize("name", ["line5", "grid5x5"])
def test_dodag_joins_and_every_node_reaches_the_root(tern_sim, tmp_path, name, mode):
    mode = root_mode(tern_sim, tmp_path, mode)
    if mode is None:
        pytest.skip("this tern-sim has no `rpl root ... non-storing`")
    text, count = TOPOLOGIES[name]
    topo = tmp_path / f"{name}.topo"
    topo.write_text(text)
    pcap = tmp_path / f"{name}.pcap"
    lines = setup_lines(count, mode) + [f"run {JOIN_BOUND[name]}", "all rpl"]
    lines += [f"1 ping -c 3 -i 500 -W 2000 2001:db8::{n:x}" for n in range(2, count + 1)]
    lines += [f"{n} ping -c 3 -i 500 -W 2000 {ROOT_ADDR}" for n in range(2, count + 1)]
    out = run_sim(tern_sim, topo, lines, "--pcap", str(pcap), "--seed", "3")
    check_dodag(parse_rpl(out), count)
    for n in range(2, count + 1):
        down = ping_results(out, f"2001:db8::{n:x}")
        assert len(down) == 1 and down[0][0] == 3 and down[0][1] >= 1, (n, down, mode)
    up = ping_results(out, ROOT_ADDR)
    assert len(up) == count - 1, up
    assert all(sent == 3 and received >= 1 for sent, received in up), up
    if TSHARK is not None:
        protocols = tshark_check(pcap)
        assert {"wpan", "6lowpan", "ipv6", "icmpv6"} <= protocols, protocols


def test_grid_repairs_after_a_router_is_removed(tern_sim, tmp_path):
    text, count = TOPOLOGIES["grid5x5"]
    topo = tmp_path / "grid.topo"
    topo.write_text(text)
    setup = setup_lines(count, root_mode(tern_sim, tmp_path, "storing"))
    first = run_sim(tern_sim, topo, setup + [f"run {JOIN_BOUND['grid5x5']}", "all rpl"], "--seed", "3")
    state = parse_rpl(first)
    check_dodag(state, count)
    below = {n: 0 for n in range(2, count + 1)}
    for n in range(2, count + 1):
        node = state[n]["parent"]
        while node != 1:
            below[node] += 1
            node = state[node]["parent"]
    removed = max(below, key=lambda n: (below[n], -n))
    assert below[removed] >= 3, below  # a router in the middle of the mesh, not a leaf
    # The same run (same seed) again, with the router removed and time to repair. In a grid
    # every other node keeps a physical path to the root.
    lines = setup + [f"run {JOIN_BOUND['grid5x5']}", f"isolate {removed}", f"run {REPAIR_BOUND}", "all rpl"]
    lines += [f"{n} ping -c 3 -i 500 -W 2000 {ROOT_ADDR}" for n in range(2, count + 1) if n != removed]
    out = run_sim(tern_sim, topo, lines, "--seed", "3")
    assert f"isolated node {removed}" in out, out
    check_dodag(parse_rpl(out), count, removed=removed)
    up = ping_results(out, ROOT_ADDR)
    assert len(up) == count - 2, up
    assert all(sent == 3 and received >= 1 for sent, received in up), up


def test_traffic_counts_every_datagram_both_ways(tern_sim, tmp_path):
    topo = tmp_path / "line5.topo"
    topo.write_text("line 5\n")
    out = run_sim(tern_sim, topo, setup_lines(5, root_mode(tern_sim, tmp_path, "storing")) + [
        f"run {JOIN_BOUND['line5']}", f"traffic {ROOT_ADDR} 4 2s 48", "traffic", "time", "traffic 2001:db8::1 0 1s"])
    for n in range(2, 6):
        assert out.count(f"traffic node {n} sent 4 arrived 4 returned 4\n") == 2, out
    assert "traffic node 1 " not in out  # the root owns the address: it only answers
    assert out.count("traffic total sent 16 arrived 16 returned 16 send_errors 0\n") == 2, out
    # 4 rounds of 2 s and 5 s for late answers after the 60 s of joining
    assert re.search(r"^time 73\.000000 s$", out, re.M), out
    assert "usage: traffic" in out


def test_links_prints_a_connected_random_topology(tern_sim, tmp_path):
    topo = tmp_path / "random.topo"
    topo.write_text("random 30 100 25 0.7 1.0\n")
    runs = [run_sim(tern_sim, topo, ["links"], "--seed", str(seed)) for seed in (5, 5, 6)]
    assert runs[0] == runs[1] and runs[0] != runs[2]
    out = runs[0]
    assert out.startswith("nodes 30\nposition 1 50 50\n"), out
    adj = {}
    for a, b, there, back in re.findall(r"^link (\d+) (\d+) ([\d.]+) ([\d.]+)$", out, re.M):
        assert 0.7 <= float(there) <= 1.0 and 0.7 <= float(back) <= 1.0
        adj.setdefault(int(a), set()).add(int(b))
        adj.setdefault(int(b), set()).add(int(a))
    seen, todo = {1}, [1]
    while todo:
        for b in adj.get(todo.pop(), ()):
            if b not in seen:
                seen.add(b)
                todo.append(b)
    assert seen == set(range(1, 31))
