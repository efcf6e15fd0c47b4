# SPDX-License-Identifier: BSD-3-Clause
"""Two tern-node processes sharing an IEEE 802.15.4 medium over ZEP v2 in UDP on loopback.

Node b listens on one port and sends to the other, node a the reverse; both are 802.15.4
interfaces with 6LoWPAN (wpan0). a pings b's link-local address, once with a packet that fits
one frame and once with one that 6LoWPAN fragments. The loopback traffic is captured with
dumpcap and dissected by tshark, which must decode ZEP / IEEE 802.15.4 / 6LoWPAN / IPv6 with
every FCS correct and nothing malformed. Also: the options are checked.
"""
import re
import shutil
import socket
import subprocess
import time

import pytest

DUMPCAP = shutil.which("dumpcap")
TSHARK = shutil.which("tshark")

B_EUI64 = "02:00:00:00:00:00:00:0b"  # link-local fe80::b (RFC 4944 §6: the U/L bit flipped)


def free_udp_port(family):
    """A UDP port free right now on the loopback of FAMILY."""
    with socket.socket(family, socket.SOCK_DGRAM) as s:
        s.bind(("::1" if family == socket.AF_INET6 else "127.0.0.1", 0))
        return s.getsockname()[1]


def endpoint(family, port):
    return f"[::1]:{port}" if family == socket.AF_INET6 else f"127.0.0.1:{port}"


def run_node(binary, lines, *args, timeout=30):
    return subprocess.run([str(binary), *args], input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True, timeout=timeout, check=False)


def start_node(binary, *args):
    return subprocess.Popen([str(binary), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_link_local(node):
    """Ask NODE for wpan0 until its link-local address is there (IPv6 is enabled on the
    executor's threads: the first command may come before). Returns what it printed."""
    seen = ""
    for _ in range(50):
        node.stdin.write("ifconfig wpan0\n")
        node.stdin.flush()
        while True:
            line = node.stdout.readline()
            assert line, f"node ended: {node.stderr.read()}"
            seen += line
            if "TX packets" in line:  # the last line of ifconfig
                break
        if re.search(r"inet6 fe80::\S+/64\s+scope: link\s+preferred", seen):
            return seen
        time.sleep(0.1)
    raise AssertionError(f"no link-local address: {seen}")


def start_capture(path, ports):
    """dumpcap on lo for PORTS into PATH; returns once it captures."""
    filt = " or ".join(f"udp port {p}" for p in ports)
    cap = subprocess.Popen([DUMPCAP, "-q", "-i", "lo", "-f", filt, "-w", str(path)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 10
    while not path.exists() or path.stat().st_size == 0:
        if cap.poll() is not None or time.monotonic() > deadline:
            cap.kill()
            pytest.skip(f"dumpcap cannot capture on lo: {cap.stderr.read() if cap.stderr else ''}")
        time.sleep(0.05)
    return cap


def stop_capture(cap):
    time.sleep(0.3)  # the last datagrams reach the capture
    cap.terminate()
    cap.wait(timeout=10)


@pytest.mark.parametrize("family", [socket.AF_INET6, socket.AF_INET], ids=["ipv6", "ipv4"])
def test_two_nodes_ping_over_zep_and_tshark_decodes_it(tern_node, executor, family, tmp_path):
    pa, pb = free_udp_port(family), free_udp_port(family)
    a_local, b_local = endpoint(family, pa), endpoint(family, pb)
    cap = None
    pcap = tmp_path / "zep.pcapng"
    if DUMPCAP and TSHARK:
        cap = start_capture(pcap, [pa, pb])
    node_b = start_node(tern_node, "-n", "b", "--executor", executor, "--eui64", B_EUI64, "--zep",
                        f"{b_local},{a_local}")
    node_a = None
    try:
        seen = wait_link_local(node_b)
        assert "inet6 fe80::b/64" in seen and "link: ieee802154" in seen, seen
        node_a = start_node(tern_node, "-n", "a", "--executor", executor, "--zep", f"{a_local},{b_local}")
        wait_link_local(node_a)
        out_a, err_a = node_a.communicate("ping -c 3 -i 100 -W 2000 fe80::b%wpan0\n"
                                          "ping -c 2 -s 400 -W 2000 fe80::b%wpan0\n"
                                          "stats zep\nstats wpan0\n", timeout=30)
        out_b, err_b = node_b.communicate("stats zep\nstats sixlowpan\npktbuf\n", timeout=30)
    finally:
        for node in (node_a, node_b):
            if node is not None and node.poll() is None:
                node.kill()
        if cap is not None:
            stop_capture(cap)
    a = subprocess.CompletedProcess(node_a.args, node_a.returncode, out_a, err_a)
    assert a.returncode == 0, a.stderr
    assert node_b.returncode == 0, err_b
    assert "3 packets transmitted, 3 received, 0% packet loss" in a.stdout, a.stdout
    assert "2 packets transmitted, 2 received, 0% packet loss" in a.stdout, a.stdout
    # Unicast frames were acknowledged over ZEP (each side's device answers the other's).
    acks_a = int(re.search(r"^zep\s+acks_received\s+(\d+)$", a.stdout, re.M).group(1))
    acks_b = int(re.search(r"^zep\s+acks_sent\s+(\d+)$", out_b, re.M).group(1))
    assert acks_a >= 5 and acks_b >= acks_a, (a.stdout, out_b)
    assert re.search(r"^zep\s+rx_bad_fcs\s+0$", out_b, re.M), out_b
    # The 400-byte echo needed 6LoWPAN fragments both ways.
    assert int(re.search(r"^sixlowpan\s+rx_fragments\s+(\d+)$", out_b, re.M).group(1)) >= 8, out_b
    assert "used 0 B" in out_b, out_b
    if cap is None:
        return
    dissect = [TSHARK, "-r", str(pcap), "-d", f"udp.port=={pa},zep", "-d", f"udp.port=={pb},zep"]
    problems = subprocess.run(dissect + ["-Y", "_ws.malformed || _ws.expert.severity >= error"],
                              capture_output=True, text=True, check=True).stdout
    assert problems.strip() == "", problems
    fields = subprocess.run(dissect + ["-T", "fields", "-e", "zep.version", "-e", "zep.type", "-e",
                                       "zep.channel_id", "-e", "wpan.fcs_ok", "-e", "wpan.dst_pan"],
                            capture_output=True, text=True, check=True).stdout.split("\n")
    rows = [line.split("\t") for line in fields if line]
    assert len(rows) >= 20, fields
    for version, ztype, channel, _fcs_ok, _pan in rows:
        assert (version, ztype, channel) == ("2", "1", "26"), rows
    verbose = subprocess.run(dissect + ["-V"], capture_output=True, text=True, check=True).stdout
    fcs = re.findall(r"FCS: 0x[0-9a-f]{4} \((\w+)\)", verbose)
    assert len(fcs) == len(rows) and set(fcs) == {"Correct"}, set(fcs)
    assert "Echo (ping) reply" in verbose and "6LoWPAN" in verbose
    assert re.search(r"Destination PAN: 0x0023", verbose), "PAN ID 0x23 expected"


def test_zep_options_are_checked(tern_node):
    bad = [
        ["--zep", "127.0.0.1:1"],                       # no remote
        ["--zep", "127.0.0.1:1,[::1]:2"],               # two families
        ["--zep", "::1:1,::1:2"],                       # IPv6 without brackets
        ["--eui64", "01:00:00:00:00:00:00:01", "--zep", "127.0.0.1:0,127.0.0.1:1"],  # group address
        ["--eui64", "02:00:00:00:00:00:00:01"],         # --eui64 without --zep
        ["--channel", "27", "--zep", "127.0.0.1:0,127.0.0.1:1"],
        ["--pan", "0xffff", "--zep", "127.0.0.1:0,127.0.0.1:1"],
    ]
    for args in bad:
        proc = run_node(tern_node, [], *args)
        assert proc.returncode == 2, (args, proc.stderr)
    # A plain UDP socket as the medium: what the node sends carries its channel, PAN and EUI-64.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as peer:
        peer.bind(("127.0.0.1", 0))
        peer.settimeout(10)
        port = peer.getsockname()[1]
        proc = run_node(tern_node, ["ifconfig", "ping -c 1 -W 500 ff02::1%wpan0", "stats zep"], "--channel", "15",
                        "--pan", "0x1234", "--eui64", "02:11:22:33:44:55:66:77", "--zep",
                        f"127.0.0.1:0,127.0.0.1:{port}")
        assert proc.returncode == 0, proc.stderr
        dgram = peer.recv(256)
    assert "Iface  1  wpan0" in proc.stdout
    assert "fe80::11:2233:4455:6677/64" in proc.stdout, proc.stdout
    assert re.search(r"^zep\s+tx_frames\s+[1-9]\d*$", proc.stdout, re.M), proc.stdout
    assert dgram[:4] == b"EX\x02\x01" and dgram[4] == 15, dgram.hex()
    assert dgram[5:7] == bytes.fromhex("6677"), dgram.hex()  # device id: the EUI-64's last bytes
    frame = dgram[32:]
    assert len(frame) == dgram[31]
    assert frame[3:5] == bytes.fromhex("3412"), frame.hex()  # destination PAN 0x1234, little-endian
