# SPDX-License-Identifier: BSD-3-Clause
"""tern-node on a Linux TAP device, against the kernel, each test in its own network namespace.

Needs root and /dev/net/tun (skipped otherwise). Frames: the Ethernet link's filtering and
counting of what Linux sends (router solicitations, MLD reports to 33:33:..), and frames the node
sends; IPv6 itself is tested in test_ipv6.py.
Linux-side frames are seen and sent with AF_PACKET sockets by a small helper run inside the
namespace. Nothing is sent outside the namespaces created here.
"""
import re
import struct
import subprocess
import sys
import time

from tapnode import NODE_MAC, TAP, linux_mac, needs_tap, run, tshark

pytestmark = needs_tap

# Runs inside the namespace. "sniff IF ETHERTYPE SRC SECONDS": print the first frame of that
# EtherType from SRC that arrives on IF (not one Linux sends), as hex. "send IF HEX...": send
# each frame on IF, print the time.
HELPER = r"""
import binascii, socket, sys, time
mode, ifname = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
s.bind((ifname, 0))
if mode == "sniff":
    ethertype, src, limit = int(sys.argv[3], 16), bytes.fromhex(sys.argv[4].replace(":", "")), float(sys.argv[5])
    print("ready", flush=True)
    end = time.monotonic() + limit
    while time.monotonic() < end:
        s.settimeout(max(0.01, end - time.monotonic()))
        try:
            data, addr = s.recvfrom(65535)
        except socket.timeout:
            break
        if addr[2] == socket.PACKET_OUTGOING:
            continue
        if len(data) >= 14 and data[6:12] == src and int.from_bytes(data[12:14], "big") == ethertype:
            print("frame " + binascii.hexlify(data).decode(), flush=True)
            sys.exit(0)
    print("timeout", flush=True)
    sys.exit(1)
else:
    for frame in sys.argv[3:]:
        s.send(bytes.fromhex(frame))
    print("sent %.6f" % time.time(), flush=True)
"""


def helper(ns, *args, timeout=15):
    return subprocess.Popen(
        ["ip", "netns", "exec", ns, sys.executable, "-c", HELPER, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def mac_bytes(mac):
    return bytes.fromhex(mac.replace(":", ""))


def ipv6_frame(dst_mac, src_mac, payload=b""):
    """An Ethernet frame with a well-formed IPv6 packet (next header 59: nothing follows)."""
    src_ip = bytes.fromhex("fe800000000000000000000000000001")
    dst_ip = bytes.fromhex("fe80000000000000") + bytes([0x00, 0x00, 0x5E, 0xFF, 0xFE, 0x00, 0x53, 0x01])
    ip = struct.pack("!IHBB", 0x60000000, len(payload), 59, 64) + src_ip + dst_ip + payload
    return mac_bytes(dst_mac) + mac_bytes(src_mac) + b"\x86\xdd" + ip


def send_frames(ns, *frames):
    proc = helper(ns, "send", TAP, *(f.hex() for f in frames))
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    return float(out.split()[1])


def test_broadcast_from_node_reaches_linux(start_node, netns, executor):
    node = start_node("--tap", TAP, "--executor", executor)
    out = node.run(f"ifconfig {TAP}")
    assert "device: ethernet" in out, out
    mac = re.search(r"L2 address: ([0-9a-f:]{17})", out).group(1)
    assert mac_bytes(mac)[0] & 0x03 == 0x02  # locally administered unicast

    sniffer = helper(netns, "sniff", TAP, "88b5", mac, "10")
    assert sniffer.stdout.readline().strip() == "ready"
    node.send(f"txtsnd {TAP} bcast hello")
    out, err = sniffer.communicate(timeout=20)
    assert sniffer.returncode == 0, out + err
    frame = bytes.fromhex(out.split()[1])
    assert frame[0:6] == b"\xff" * 6
    assert frame[6:12] == mac_bytes(mac)
    assert frame[12:14] == b"\x88\xb5"
    assert frame[14:19] == b"hello"
    assert len(frame) == 60  # padded to the Ethernet minimum
    assert frame[19:] == bytes(41)

    # The broadcast, and IPv6's own frames (DAD) besides.
    assert node.counter(f"ifconfig {TAP}", r"TX packets (\d+)") >= 1
    node.finish_clean()


def test_frames_from_linux_are_filtered_and_counted(tap_node, netns):
    node = tap_node(ready=False)
    assert f"L2 address: {NODE_MAC}" in node.run(f"ifconfig {TAP}")
    src = linux_mac(netns)
    send_frames(
        netns,
        ipv6_frame(NODE_MAC, src),                        # for the node: up to IPv6
        ipv6_frame("02:00:5e:00:53:99", src),             # another station
        ipv6_frame("33:33:00:00:00:fb", src),             # a group the node did not join
        mac_bytes(NODE_MAC) + mac_bytes(src) + b"\x88\xb5" + b"not ipv6".ljust(46, b"\0"),
    )
    # Linux's own traffic (RS, MLD) arrives too: only lower bounds are exact.
    assert node.wait_counter(f"ifconfig {TAP}", r"RX packets (\d+)", 1) >= 1
    # The frame for the node went up to IPv6 (to its link-local address, with
    # No Next Header): well-formed, so no header error.
    assert node.counter("stats ipv6", r"^ipv6\s+rx_packets\s+(\d+)") >= 1
    assert node.counter("stats ipv6", r"^ipv6\s+rx_hdr_errors\s+(\d+)") == 0
    assert node.counter(f"stats {TAP}", r"rx_not_for_us\s+(\d+)") >= 2
    assert node.counter(f"stats {TAP}", r"rx_unknown_proto\s+(\d+)") == 1
    assert node.counter(f"stats {TAP}", r"rx_errors\s+(\d+)") == 0
    node.finish_clean()


def _pcap_records(data):
    magic, major, minor, _, _, snaplen, linktype = struct.unpack("<IHHiIII", data[:24])
    assert (magic, major, minor, linktype) == (0xA1B2C3D4, 2, 4, 1)
    records, pos = [], 24
    while pos < len(data):
        sec, usec, incl, orig = struct.unpack("<IIII", data[pos : pos + 16])
        assert incl == orig <= snaplen and usec < 1_000_000
        records.append((sec + usec / 1e6, data[pos + 16 : pos + 16 + incl]))
        pos += 16 + incl
    assert pos == len(data)
    return records


def test_pcap_capture_decodes_and_frames_are_served_while_waiting(tap_node, netns, tmp_path):
    capture = tmp_path / "tap0.pcap"
    node = tap_node(ready=False)
    assert "pcap: capturing" in node.run(f"pcap {TAP} {capture}")
    node.send(f"txtsnd {TAP} bcast hello")
    marker = b"tern-marker"
    sent_at = send_frames(netns, ipv6_frame(NODE_MAC, linux_mac(netns), marker))
    # The node sits waiting for input meanwhile: the frame must be handled now, not at the
    # next command.
    time.sleep(1.0)
    assert "pcap: tap0 stopped" in node.run("pcap stop")
    node.finish_clean()

    records = _pcap_records(capture.read_bytes())
    tx = [r for r in records if r[1][12:14] == b"\x88\xb5" and r[1][14:19] == b"hello"]
    assert len(tx) == 1 and len(tx[0][1]) == 60
    rx = [r for r in records if marker in r[1]]
    assert len(rx) == 1
    assert abs(rx[0][0] - sent_at) < 0.5, (rx[0][0], sent_at)

    bad = tshark(capture, "-Y", "_ws.malformed || _ws.expert.severity >= error")
    assert bad.strip() == "", bad
    summary = tshark(capture)
    assert "Local Experimental Ethertype" in summary or "0x88b5" in summary, summary
    assert "IPv6" in summary or "ICMPv6" in summary, summary


def test_missing_tap_device_is_refused(tern_node, netns):
    proc = run("ip", "netns", "exec", netns, str(tern_node), "--tap", "nosuch0", check=False)
    assert proc.returncode == 1
    assert "ip tuntap add" in proc.stderr
    # The library never creates interfaces.
    assert "nosuch0" not in run("ip", "netns", "exec", netns, "ip", "link").stdout
