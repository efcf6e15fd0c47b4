# SPDX-License-Identifier: BSD-3-Clause
"""The RPL Packet Information (RFC 6553) in a simulated mesh, as Wireshark decodes it.

tern-sim runs a line of 3 (node 1 the root under 2001:db8::1, nodes 2 and 3 routers), in each
mode of operation, and writes the medium into a pcap (`--pcap`). The root pings node 3 and node 3
pings the root. tshark, told the mesh prefix as 6LoWPAN context 0 (the root's 6CO), must find in
every echo request and reply on the air a Hop-by-Hop RPL Option (type 0x63) with RPLInstanceID 1,
R and F clear, O set going down and clear going up, and SenderRank the rank of the node that sent
the frame (the root 256, node 2 512, node 3 768 on this line of perfect links); in non-storing
mode the root's packets also carry a Source Routing Header after it. No frame is malformed.
"""
import shutil
import subprocess

import pytest

from test_sim_rpl import ROOT_ADDR, root_mode, run_sim, setup_lines

TSHARK = shutil.which("tshark")
pytestmark = pytest.mark.skipif(TSHARK is None, reason="tshark not installed (apt-get install tshark)")

FIELDS = ["wpan.src64", "ipv6.src", "ipv6.dst", "icmpv6.type", "ipv6.opt.type", "ipv6.opt.rpl.flag.o",
          "ipv6.opt.rpl.flag.r", "ipv6.opt.rpl.flag.f", "ipv6.opt.rpl.instance_id", "ipv6.opt.rpl.sender_rank",
          "ipv6.routing.type"]
RANK = {1: 0x100, 2: 0x200, 3: 0x300}  # MRHOF over PRR-1 links: MinHopRankIncrease per hop


def tshark(pcap, *args):
    return subprocess.run([TSHARK, "-r", str(pcap), "-o", "6lowpan.context0:2001:db8::/64", *args],
                          capture_output=True, text=True, timeout=300, check=True).stdout


@pytest.mark.parametrize("mode", ["storing", "non-storing"])
def test_mesh_data_packets_carry_a_decodable_rpl_option(tern_sim, tmp_path, mode):
    arg = root_mode(tern_sim, tmp_path, mode)
    if arg is None:
        pytest.skip("this tern-sim has no `rpl root ... non-storing`")
    topo = tmp_path / "line3.topo"
    topo.write_text("line 3\n")
    pcap = tmp_path / "line3.pcap"
    lines = setup_lines(3, arg) + ["run 60s", "1 ping -c 3 -i 500 -W 2000 2001:db8::3",
                                   f"3 ping -c 3 -i 500 -W 2000 {ROOT_ADDR}", "all stats ipv6"]
    out = run_sim(tern_sim, topo, lines, "--pcap", str(pcap), "--seed", "3")
    assert "3 packets transmitted, 0 received" not in out, out[-3000:]
    assert tshark(pcap, "-Y", "_ws.malformed || _ws.expert.severity >= error") == ""
    rows = [line.split("\t") for line in tshark(pcap, "-Y", "icmpv6.type == 128 || icmpv6.type == 129",
                                                "-T", "fields", *[a for f in FIELDS for a in ("-e", f)]).splitlines()]
    assert len(rows) >= 8, rows  # both pings, two hops each way, at least one answer each
    for row in rows:
        f = dict(zip(FIELDS, row))
        sender = int(f["wpan.src64"].split(":")[-1], 16)
        down = f["ipv6.src"] == ROOT_ADDR
        assert f["ipv6.opt.type"] == "0x63", f
        assert f["ipv6.opt.rpl.instance_id"] == "0x01", f
        assert (f["ipv6.opt.rpl.flag.o"], f["ipv6.opt.rpl.flag.r"], f["ipv6.opt.rpl.flag.f"]) == \
            ("1" if down else "0", "0", "0"), f
        assert int(f["ipv6.opt.rpl.sender_rank"], 16) == RANK[sender], f
        if mode == "non-storing" and down and sender == 1:
            assert f["ipv6.routing.type"] == "3", f  # RFC 6554 after the Hop-by-Hop header
    # The counters agree: every node added the option to what it sent, the router checked it.
    assert "rpi_forwarded" in out and "rpi_added" in out, out[-3000:]
