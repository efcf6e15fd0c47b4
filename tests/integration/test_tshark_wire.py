# SPDX-License-Identifier: BSD-3-Clause
"""Wireshark checks Tern's IEEE 802.15.4 and ZEP wire formats (no root needed).

tests/tools/wire_emit.c prints frames built by Tern's codecs; this test writes
them into pcap files (link type 195: IEEE 802.15.4 with FCS; link type 101:
raw IPv4 carrying UDP to port 17754, ZEP) and asks tshark what it sees:

- every field has the value the frame was built with, the PAN ID fields are
  on the wire exactly where IEEE 802.15.4 (2015: Table 7-2) puts them, and the
  FCS is good;
- tshark reports no malformed packet and no expert error;
- Tern's parser, given the same bytes, agrees with tshark field by field, also
  for frames built here by hand (independently of Tern) and for the frames it
  must refuse.
"""
import os
import pathlib
import shutil
import struct
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TSHARK = shutil.which("tshark")

pytestmark = pytest.mark.skipif(TSHARK is None, reason="tshark not installed (apt-get install tshark)")

A = "00:11:22:33:44:55:66:77"  # eui_a in wire_emit.c (destinations)
B = "02:00:00:00:00:00:00:01"  # eui_b (sources)

# What each frame of `tern_wire_emit frames` was built as. dst/src: an int is a
# short address, a str an extended one, None no address; dst_pan/src_pan: the
# PAN ID field on the wire, None when the frame does not carry it.
EXPECTED = {
    "short_short_panc": dict(type=1, version=1, ar=1, panc=1, seq=0x42, dst_pan=0x23, dst=0x1234, src_pan=None, src=0x5678),
    "ext_ext_panc": dict(type=1, version=1, ar=1, panc=1, seq=0x05, dst_pan=0x23, dst=A, src_pan=None, src=B),
    "bcast_ext": dict(type=1, version=1, ar=0, panc=1, seq=0xFF, dst_pan=0x23, dst=0xFFFF, src_pan=None, src=B),
    "both_pans": dict(type=1, version=1, ar=1, panc=0, seq=0x10, dst_pan=0x23, dst=0xBEEF, src_pan=0xABCD, src=B),
    "v2003_ext_short": dict(type=1, version=0, ar=1, panc=1, seq=0x11, dst_pan=0x23, dst=A, src_pan=None, src=0x0001),
    "v2015_ext_ext": dict(type=1, version=2, ar=1, panc=0, seq=0x07, dst_pan=0x23, dst=A, src_pan=None, src=B),
    "v2015_ext_ext_no_pan": dict(type=1, version=2, ar=1, panc=1, seq=0x08, dst_pan=None, dst=A, src_pan=None, src=B),
    "v2015_short_short": dict(type=1, version=2, ar=1, panc=0, seq=0x09, dst_pan=0x23, dst=0x1234, src_pan=0x24, src=0x5678),
    "v2015_short_ext_panc": dict(type=1, version=2, ar=0, panc=1, seq=0x0A, dst_pan=0x23, dst=0x1234, src_pan=None, src=B),
    "v2015_dst_only": dict(type=1, version=2, ar=0, panc=0, seq=0x0B, dst_pan=0x23, dst=0xFFFF, src_pan=None, src=None),
    "beacon": dict(type=0, version=0, ar=0, panc=0, seq=0x33, dst_pan=None, dst=None, src_pan=0x23, src=0x0000),
    "max_len": dict(type=1, version=1, ar=1, panc=1, seq=0x0C, dst_pan=0x23, dst=A, src_pan=None, src=B, length=127),
    "ack": dict(type=2, version=0, ar=0, panc=0, seq=0x6A, dst_pan=None, dst=None, src_pan=None, src=None, pending=0),
    "ack_pending": dict(type=2, version=0, ar=0, panc=0, seq=0x6B, dst_pan=None, dst=None, src_pan=None, src=None, pending=1),
}

WPAN_FIELDS = [
    "wpan.frame_type", "wpan.version", "wpan.ack_request", "wpan.pan_id_compression", "wpan.pending",
    "wpan.security", "wpan.ie_present", "wpan.seq_no", "wpan.dst_pan", "wpan.dst16", "wpan.dst64",
    "wpan.src_pan", "wpan.src16", "wpan.src64", "wpan.fcs_ok", "frame.len",
]

ZEP_FIELDS = ["zep.version", "zep.type", "zep.channel_id", "zep.device_id", "zep.lqi_mode", "zep.lqi",
              "zep.seqno", "zep.length"]


# --- helpers ------------------------------------------------------------------

@pytest.fixture(scope="module")
def wire_emit():
    """Path of tern_wire_emit: $TERN_WIRE_EMIT, else the gcc-debug build of scripts/test."""
    path = pathlib.Path(os.environ.get("TERN_WIRE_EMIT", ROOT / "build/gcc-debug/tests/unit/tern_wire_emit"))
    if not path.is_file():
        pytest.skip(f"tern_wire_emit not built at {path} (run ./scripts/test or set TERN_WIRE_EMIT)")
    return path


@pytest.fixture(scope="module")
def frames(wire_emit):
    """name -> bytes, in the order tern_wire_emit printed them."""
    out = subprocess.run([str(wire_emit), "frames"], check=True, capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        name, hexdata = line.split()
        result[name] = bytes.fromhex(hexdata)
    return result


def tern_parse(wire_emit, named):
    """Tern's view of (name, bytes) pairs: name -> list of reply lines' words."""
    stdin = "".join(f"{name} {data.hex()}\n" for name, data in named)
    out = subprocess.run([str(wire_emit), "parse"], input=stdin, check=True, capture_output=True,
                         text=True).stdout
    result = {}
    for line in out.splitlines():
        name, *words = line.split()
        result.setdefault(name, []).append(words)
    return result


def fields_of(words):
    """['ok', 'mhr=9', ...] -> {'mhr': '9', ...}"""
    return dict(w.split("=", 1) for w in words[1:])


def fcs16(data):
    """IEEE 802.15.4 FCS, written from §7.2.1.9 independently of Tern: LSB-first CRC-16, poly 0x1021."""
    crc = 0
    for byte in data:
        for bit in range(8):
            top = (crc & 1) ^ ((byte >> bit) & 1)
            crc >>= 1
            if top:
                crc ^= 0x8408
    return struct.pack("<H", crc)


def write_pcap(path, linktype, packets):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype))
        for i, data in enumerate(packets):
            f.write(struct.pack("<IIII", 1_700_000_000 + i, 0, len(data), len(data)) + data)


def ipv4_udp(payload, port=17754):
    """A raw IPv4 packet 127.0.0.1 -> 127.0.0.1 carrying UDP to @port (UDP checksum 0: none)."""
    udp = struct.pack("!HHHH", port, port, 8 + len(payload), 0) + payload
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                      bytes([127, 0, 0, 1]), bytes([127, 0, 0, 1]))
    total = sum(struct.unpack("!10H", hdr))
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    hdr = hdr[:10] + struct.pack("!H", ~total & 0xFFFF) + hdr[12:]
    return hdr + udp


def tshark(pcap, *args):
    proc = subprocess.run([TSHARK, "-r", str(pcap), *args], capture_output=True, text=True, check=True)
    return proc.stdout


def tshark_fields(pcap, fields, *args):
    """One dict per packet: field -> its first value ('' when absent); booleans as '1'/'0'."""
    cmd = ["-T", "fields", "-E", "separator=\t", "-E", "occurrence=f", *args]
    for field in fields:
        cmd += ["-e", field]
    rows = []
    for line in tshark(pcap, *cmd).splitlines():
        values = line.split("\t")
        values += [""] * (len(fields) - len(values))
        norm = [{"True": "1", "False": "0"}.get(v, v) for v in values]
        rows.append(dict(zip(fields, norm)))
    return rows


def tshark_problems(pcap, *args):
    return tshark(pcap, "-Y", "_ws.malformed || _ws.expert.severity >= error", *args).strip()


def num(value):
    return int(value, 0) if value != "" else None


def check_wpan_row(name, row, exp):
    """tshark's fields of one frame against what it was built as."""
    assert num(row["wpan.frame_type"]) == exp["type"], name
    assert num(row["wpan.version"]) == exp["version"], name
    assert num(row["wpan.seq_no"]) == exp["seq"], name
    assert row["wpan.security"] == "0", name
    if exp["type"] != 2:
        assert num(row["wpan.ack_request"]) == exp["ar"], name
        assert num(row["wpan.pan_id_compression"]) == exp["panc"], name
    if "pending" in exp:
        assert num(row["wpan.pending"]) == exp["pending"], name
    assert num(row["wpan.dst_pan"]) == exp["dst_pan"], name
    assert num(row["wpan.src_pan"]) == exp["src_pan"], name
    for side in ("dst", "src"):
        addr = exp[side]
        short, ext = row[f"wpan.{side}16"], row[f"wpan.{side}64"]
        if addr is None:
            assert (short, ext) == ("", ""), name
        elif isinstance(addr, int):
            assert (num(short), ext) == (addr, ""), name
        else:
            assert (short, ext.lower()) == ("", addr), name
    assert row["wpan.fcs_ok"] == "1", name
    if "length" in exp:
        assert num(row["frame.len"]) == exp["length"], name


def check_tern_agrees(name, words, row):
    """Tern's parse of a frame against tshark's view of the same bytes."""
    assert words[0] == "ok", (name, words)
    got = fields_of(words)
    assert int(got["type"]) == num(row["wpan.frame_type"]), name
    assert int(got["version"]) == num(row["wpan.version"]), name
    assert int(got["seq"]) == num(row["wpan.seq_no"]), name
    # a PAN ID absent on the wire: Tern reports 0xffff for the destination and
    # the destination's for the source (tern/wire/ieee802154.h)
    dst_pan = num(row["wpan.dst_pan"])
    src_pan = num(row["wpan.src_pan"])
    assert int(got["dst_pan"], 16) == (0xFFFF if dst_pan is None else dst_pan), name
    assert int(got["src_pan"], 16) == (int(got["dst_pan"], 16) if src_pan is None else src_pan), name
    for side in ("dst", "src"):
        short, ext = row[f"wpan.{side}16"], row[f"wpan.{side}64"]
        want = f"0x{num(short):04x}" if short else (ext.lower() if ext else "-")
        assert got[side] == want, (name, side)


# --- tests ------------------------------------------------------------------------

def test_emitted_frames_decode_as_built(frames, tmp_path):
    assert set(EXPECTED) <= set(frames)
    names = list(EXPECTED)
    pcap = tmp_path / "wpan.pcap"
    write_pcap(pcap, 195, [frames[n] for n in names])
    rows = tshark_fields(pcap, WPAN_FIELDS)
    assert len(rows) == len(names)
    for name, row in zip(names, rows):
        check_wpan_row(name, row, EXPECTED[name])
    assert tshark_problems(pcap) == ""


def test_emitted_fcs_matches_an_independent_crc(frames):
    for name in EXPECTED:
        data = frames[name]
        assert fcs16(data[:-2]) == data[-2:], name


def test_tern_parse_agrees_with_tshark_on_emitted_frames(wire_emit, frames, tmp_path):
    names = list(EXPECTED)
    pcap = tmp_path / "wpan.pcap"
    write_pcap(pcap, 195, [frames[n] for n in names])
    rows = tshark_fields(pcap, WPAN_FIELDS)
    parsed = tern_parse(wire_emit, [(n, frames[n]) for n in names])
    for name, row in zip(names, rows):
        check_tern_agrees(name, parsed[name][0], row)


def test_zep_datagrams_decode_as_built(wire_emit, frames, tmp_path):
    zep_names = ["zep:ext_ext_panc", "zep:ack", "zep:zep_ack"]
    pcap = tmp_path / "zep.pcap"
    write_pcap(pcap, 101, [ipv4_udp(frames[n]) for n in zep_names])
    rows = tshark_fields(pcap, ZEP_FIELDS + WPAN_FIELDS)
    assert len(rows) == 3
    data, ack, zep_ack = rows
    for row, seq, length in ((data, 258, 26), (ack, 259, 5)):
        assert num(row["zep.version"]) == 2
        assert num(row["zep.type"]) == 1
        assert num(row["zep.channel_id"]) == 26
        assert num(row["zep.device_id"]) == 0x1234
        assert row["zep.lqi_mode"] == "1"  # CRC mode: the frame ends with its FCS
        assert num(row["zep.seqno"]) == seq
        assert num(row["zep.length"]) == length
    check_wpan_row("zep:ext_ext_panc", data, EXPECTED["ext_ext_panc"])
    check_wpan_row("zep:ack", ack, dict(EXPECTED["ack"], seq=0x05))
    assert num(zep_ack["zep.version"]) == 2
    assert num(zep_ack["zep.type"]) == 2
    assert num(zep_ack["zep.seqno"]) == 258
    assert zep_ack["wpan.frame_type"] == ""
    assert tshark_problems(pcap) == ""

    # and Tern reads back what it wrote
    parsed = tern_parse(wire_emit, [(n, frames[n]) for n in zep_names])
    zep_hdr = fields_of(parsed["zep:ext_ext_panc"][0])
    assert (zep_hdr["version"], zep_hdr["type"], zep_hdr["channel"], zep_hdr["seq"]) == ("2", "1", "26", "258")
    check_tern_agrees("zep:ext_ext_panc", parsed["zep:ext_ext_panc"][1], data)
    assert fields_of(parsed["zep:zep_ack"][0])["type"] == "2"


def frame(fc, seq, rest):
    """A PSDU built here, by hand: frame control (little-endian), sequence number, fields, FCS."""
    body = struct.pack("<HB", fc, seq) + rest
    return body + fcs16(body)


# Frames built here, without Tern: (name, PSDU, what Tern must answer).
HAND_BUILT = [
    # 2015 Table 7-2 rows Tern's emitter tests do not send to tshark
    ("v2015_no_addr_lone_pan", frame(0x2041, 1, bytes.fromhex("2300") + b"\x00\x01"), "ok"),
    ("v2015_src_only_no_pan", frame(0xA041, 2, bytes.fromhex("3412") + b"\x00\x01"), "ok"),
    ("v2015_src_only_pan", frame(0xA001, 3, bytes.fromhex("23003412") + b"\x00\x01"), "ok"),
    ("v2015_ext_short_both_pans", frame(0xAC21, 4, bytes.fromhex("2300" "7766554433221100" "2400" "3412") + b"\x00\x01"), "ok"),
    ("v2006_dst_only", frame(0x1821, 5, bytes.fromhex("23003412") + b"\x00\x01"), "ok"),
    ("v2006_cmd_data_request", frame(0xC863, 6, bytes.fromhex("23000000" "0100000000000002") + b"\x04"), "ok"),
    # refused: security (with an auxiliary security header: level 5, key id mode 0,
    # frame counter 1, encrypted payload + 4-byte MIC), IEs (HT2), bad FCS
    ("secured", frame(0xDC69, 7, bytes.fromhex("2300" "7766554433221100" "0100000000000002"
                                              "05" "01000000" "a1a2a3" "b1b2b3b4")), "err ENOTSUP"),
    ("v2015_ie_present", frame(0xEE21, 8, bytes.fromhex("2300" "7766554433221100" "0100000000000002"
                                                       "803f") + b"\x00\x01"), "err EPROTONOSUPPORT"),
    ("bad_fcs", bytes(b ^ (0xFF if i == 11 else 0) for i, b in
                      enumerate(frame(0x9861, 9, bytes.fromhex("230034127856") + b"\x00"))), "err EILSEQ"),
]


def test_tern_parse_agrees_with_tshark_on_hand_built_frames(wire_emit, tmp_path):
    pcap = tmp_path / "hand.pcap"
    write_pcap(pcap, 195, [data for _, data, _ in HAND_BUILT])
    rows = tshark_fields(pcap, WPAN_FIELDS)
    parsed = tern_parse(wire_emit, [(name, data) for name, data, _ in HAND_BUILT])
    assert len(rows) == len(HAND_BUILT)
    for (name, _, verdict), row in zip(HAND_BUILT, rows):
        words = parsed[name][0]
        if verdict == "ok":
            assert row["wpan.fcs_ok"] == "1", name
            check_tern_agrees(name, words, row)
        else:
            assert " ".join(words[:2]) == verdict, (name, words)
    by_name = dict(zip([n for n, _, _ in HAND_BUILT], rows))
    # tshark sees why Tern refuses them
    assert by_name["secured"]["wpan.security"] == "1"
    assert by_name["v2015_ie_present"]["wpan.ie_present"] == "1"
    assert by_name["bad_fcs"]["wpan.fcs_ok"] == "0"
    # the well-formed ones are well-formed for tshark too
    good = tmp_path / "good.pcap"
    write_pcap(good, 195, [data for _, data, verdict in HAND_BUILT if verdict == "ok"])
    assert tshark_problems(good) == ""
