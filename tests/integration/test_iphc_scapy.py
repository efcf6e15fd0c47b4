# SPDX-License-Identifier: BSD-3-Clause
"""Tern's 6LoWPAN IPHC/NHC codec against scapy's independent implementation (RFC 6282).

A generated set of IPv6 packets (UDP, ICMPv6, extension headers) whose addresses, traffic
class, flow label, hop limit and ports are chosen so that every IPHC/NHC mode is used:

(a) Tern compresses (tests/tools/iphc_codec); the result, inside an 802.15.4 frame with the
    link-layer addresses the elided IIDs come from, is dissected by scapy, whose IPv6 packet
    must be the original byte for byte. The IPHC modes Tern chose are checked too.
(b) scapy compresses with those same modes; Tern decompresses to the original bytes, and
    both compressors' bytes are equal.

Cases where scapy is known to be wrong or incomplete stay in the set, marked xfail (strict)
with the reason observed; each reason was checked against RFC 6282 (see docs/SIXLOWPAN.md).
No root needed; skipped when scapy is not installed (requirements.txt) or the codec is not built.
"""
import os
import pathlib
import subprocess

import pytest

scapy_config = pytest.importorskip("scapy.config", reason="scapy is not installed (pip install -r requirements.txt)")
scapy_config.conf.dot15d4_protocol = "sixlowpan"

from scapy.compat import raw  # noqa: E402
from scapy.layers.dot15d4 import Dot15d4, Dot15d4Data  # noqa: E402
from scapy.layers.inet6 import (IPv6, IPv6ExtHdrDestOpt, IPv6ExtHdrFragment,  # noqa: E402
                                IPv6ExtHdrHopByHop, ICMPv6EchoRequest, PadN, RouterAlert, UDP)
from scapy.layers.sixlowpan import LoWPAN_IPHC, LoWPAN_NHC  # noqa: E402
from scapy.packet import Raw  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]

EUI_A = 0x00124B0000000001  # IID 0212:4b00:0000:0001
EUI_B = 0x00124B0000000002
SHORT_A = 0x0001            # IID 0000:00ff:fe00:0001
SHORT_B = 0x0002
PAN = 0x23

# Context table of the codec: ID=PREFIX/LEN (valid for compression and decompression).
CONTEXTS = "0=2001:db8::/64,1=2001:db8:abcd::/48,2=2001:db8:1::/64"

# Why scapy 2.8.0 fails some cases (read in scapy/layers/sixlowpan.py, checked against the RFC):
TC_NOT_ROTATED = ("scapy maps the IPv6 Traffic Class byte straight onto the in-line ECN|DSCP bits "
                  "(tc_ecn = tc >> 6); RFC 6282 §3.2.1 rotates it right by 2 (ECN = tc & 3)")
NO_CONTEXTS = ("scapy has no compression contexts: SAC/DAC=1 addresses decompress without the "
               "context prefix (RFC 6282 §3.1.1, 'should use context ... unimplemented')")
ESC_0X7F = ("scapy's SixLoWPAN dispatcher takes a first byte 0x7F for RFC 4944's ESC; RFC 6282 changed "
            "ESC's value (RFC 8066, abstract), 0x7F is LOWPAN_IPHC (011xxxxx) with TF=11 NH=1 HLIM=11")
NO_EXT_NHC = ("scapy does not decompress or build LOWPAN_NHC extension headers or IPv6-in-IPv6 "
              "(RFC 6282 §4.2; LoWPAN_NHC.post_dissect: 'XXX todo')")


@pytest.fixture(scope="module")
def codec():
    """The iphc_codec process: $TERN_IPHC_CODEC, else $TERN_BUILD_DIR/tests/tools/iphc_codec,
    else the gcc-debug build of scripts/test."""
    build = pathlib.Path(os.environ.get("TERN_BUILD_DIR", ROOT / "build/gcc-debug"))
    path = pathlib.Path(os.environ.get("TERN_IPHC_CODEC", build / "tests/tools/iphc_codec"))
    if not path.is_file():
        pytest.skip(f"iphc_codec not built at {path} (run ./scripts/test or set TERN_IPHC_CODEC)")
    proc = subprocess.Popen([str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        answer = proc.stdout.readline().split()
        assert answer and answer[0] == "ok", f"iphc_codec: {line!r} -> {answer}"
        return int(answer[1]), bytes.fromhex(answer[2])

    yield ask
    proc.stdin.close()
    proc.wait(timeout=10)


# ---------------------------------------------------------------- the cases

def link_hex(kind, which):
    if kind == "eui":
        return f"{EUI_A if which == 'src' else EUI_B:016x}"
    return f"{SHORT_A if which == 'src' else SHORT_B:04x}"


def dot15d4_header(kind):
    mode = 3 if kind == "eui" else 2
    src, dst = (EUI_A, EUI_B) if kind == "eui" else (SHORT_A, SHORT_B)
    return raw(Dot15d4(fcf_frametype=1, fcf_srcaddrmode=mode, fcf_destaddrmode=mode, fcf_panidcompress=1,
                       seqnum=7) / Dot15d4Data(dest_panid=PAN, dest_addr=dst, src_addr=src))


def udp(sport=5683, dport=5684, data=b"coap"):
    return UDP(sport=sport, dport=dport) / Raw(data)


def echo():
    return ICMPv6EchoRequest(id=0x1234, seq=1, data=b"ping")


LL_A, LL_B = "fe80::212:4b00:0:1", "fe80::212:4b00:0:2"


class Case:
    def __init__(self, name, pkt, modes, link="eui", xfail_a=None, xfail_b=None):
        self.name = name
        self.bytes = raw(pkt)          # the original datagram, checksums and lengths filled in
        self.pkt = IPv6(self.bytes)
        self.modes = modes             # IPHC fields Tern must choose (only those given are checked)
        self.link = link
        self.xfail_a = xfail_a
        self.xfail_b = xfail_b

    def param(self, direction):
        reason = self.xfail_a if direction == "a" else self.xfail_b
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        return pytest.param(self, id=self.name, marks=marks)


def ip(src=LL_A, dst=LL_B, **kw):
    return IPv6(src=src, dst=dst, **kw)


CASES = [
    # Addresses, stateless: SAM/DAM 11 from EUI-64 and from short addresses, 10, 01, 00.
    Case("ll-eui64-udp-f0b", ip(hlim=64) / udp(0xF0B1, 0xF0B2, b"abcd"),
         dict(tf=3, nh=1, hlim=2, sac=0, sam=3, m=0, dac=0, dam=3, udp_p=3)),
    Case("ll-short-icmp", ip("fe80::ff:fe00:1", "fe80::ff:fe00:2", hlim=255) / echo(),
         dict(tf=3, nh=0, hlim=3, sam=3, dam=3), link="short"),
    Case("ll-16bit", ip("fe80::ff:fe00:1234", "fe80::ff:fe00:5678") / echo(), dict(sam=2, dam=2)),
    Case("ll-16bit-short-link", ip("fe80::ff:fe00:1234", "fe80::ff:fe00:5678") / echo(),
         dict(sam=2, dam=2), link="short"),
    Case("ll-64bit", ip("fe80::1", "fe80::a:b:c:d") / udp(), dict(sam=1, dam=1, udp_p=0)),
    Case("global-inline", ip("2001:db9::1", "2001:db9::2", hlim=100) / echo(),
         dict(hlim=0, sac=0, sam=0, dac=0, dam=0)),
    Case("unspecified-src", ip("::", "ff02::1:ff00:1", hlim=255) / echo(), dict(sac=1, sam=0, m=1, dam=1)),
    # Multicast, stateless: DAM 11, 10, 01, 00.
    Case("mcast-8", ip(dst="ff02::1") / udp(), dict(m=1, dac=0, dam=3)),
    Case("mcast-32", ip(dst="ff05::1:3") / udp(), dict(m=1, dac=0, dam=2)),
    Case("mcast-48", ip(dst="ff02::1:ff00:1234") / echo(), dict(m=1, dac=0, dam=1)),
    Case("mcast-128", ip(dst="ff0e:1234::1") / udp(), dict(m=1, dac=0, dam=0)),
    # Stateful: context 0 (no CID byte), other contexts (CID), unicast-prefix-based multicast.
    Case("ctx0-0-and-16", ip("2001:db8::212:4b00:0:1", "2001:db8::ff:fe00:9") / udp(),
         dict(cid=0, sac=1, sam=3, dac=1, dam=2), xfail_a=NO_CONTEXTS),
    Case("ctx0-64", ip("2001:db8::1:2:3:4", "2001:db8::5:6:7:8") / udp(),
         dict(cid=0, sac=1, sam=1, dac=1, dam=1), xfail_a=NO_CONTEXTS),
    Case("ctx0-dst-from-link", ip("2001:db8::ff:fe00:77", "2001:db8::212:4b00:0:2") / echo(),
         dict(cid=0, sac=1, sam=2, dac=1, dam=3), xfail_a=NO_CONTEXTS),
    Case("ctx2-cid", ip("2001:db8:1::5", "2001:db8::ff:fe00:9") / echo(),
         dict(cid=1, sci=2, dci=0, sac=1, sam=1, dac=1, dam=2), xfail_a=NO_CONTEXTS),
    Case("mcast-ctx-rfc3306", ip(dst="ff3e:30:2001:db8:abcd::1234") / udp(),
         dict(cid=1, dci=1, m=1, dac=1, dam=0), xfail_a=NO_CONTEXTS),
    # Traffic class and flow label: TF 00, 01, 10, 11 (values that need the rotation, and not).
    Case("tf00-dscp-ecn", ip(tc=0xB9, fl=0x12345) / udp(), dict(tf=0),
         xfail_a=TC_NOT_ROTATED, xfail_b=TC_NOT_ROTATED),
    Case("tf01-ecn", ip(tc=0x02, fl=0xABCDE) / udp(), dict(tf=1), xfail_a=TC_NOT_ROTATED, xfail_b=TC_NOT_ROTATED),
    Case("tf01-flow-only", ip(tc=0, fl=0x12345) / udp(), dict(tf=1)),
    Case("tf10-dscp-ecn", ip(tc=0xB9) / udp(), dict(tf=2), xfail_a=TC_NOT_ROTATED, xfail_b=TC_NOT_ROTATED),
    Case("tf10-symmetric", ip(tc=0xFF) / udp(), dict(tf=2)),
    Case("tf00-symmetric", ip(tc=0x55, fl=1) / udp(), dict(tf=0)),
    Case("tf11", ip(tc=0, fl=0) / udp(), dict(tf=3)),
    # Hop limit: elided 1, 64, 255; in-line otherwise.
    Case("hlim-1", ip(hlim=1) / udp(), dict(hlim=1)),
    Case("hlim-255-nhc", ip(hlim=255) / udp(), dict(tf=3, nh=1, hlim=3), xfail_a=ESC_0X7F),
    Case("hlim-255-inline-nh", ip(hlim=255) / echo(), dict(tf=3, nh=0, hlim=3)),
    Case("hlim-inline", ip(hlim=17) / udp(), dict(hlim=0)),
    # UDP ports: P 00, 01, 10, 11.
    Case("udp-p00", ip() / udp(5683, 5684), dict(nh=1, udp_p=0)),
    Case("udp-p01", ip() / udp(5683, 0xF00A), dict(nh=1, udp_p=1)),
    Case("udp-p10", ip() / udp(0xF0AB, 5683), dict(nh=1, udp_p=2)),
    Case("udp-p11", ip() / udp(0xF0BF, 0xF0B0), dict(nh=1, udp_p=3)),
    Case("udp-empty", ip() / UDP(sport=1, dport=2), dict(nh=1, udp_p=0)),
    # Extension headers through LOWPAN_NHC (§4.2).
    Case("hbh-udp", ip(dst="ff02::16", hlim=1) / IPv6ExtHdrHopByHop(options=[RouterAlert(), PadN(optdata=b"")]) /
         udp(), dict(nh=1), xfail_a=NO_EXT_NHC, xfail_b=NO_EXT_NHC),
    Case("destopt-frag-udp", ip() / IPv6ExtHdrDestOpt(options=[PadN(optdata=b"\0\0\0\0")]) /
         IPv6ExtHdrFragment(id=0x01020304) / udp(), dict(nh=1), xfail_a=NO_EXT_NHC, xfail_b=NO_EXT_NHC),
    Case("ipv6-in-ipv6", ip(nh=41) / IPv6(src="2001:db8::212:4b00:0:1", dst="2001:db8::2") / udp(),
         dict(nh=1), xfail_a=NO_EXT_NHC, xfail_b=NO_EXT_NHC),
]


def iphc_fields(data):
    """The IPHC modes of compressed bytes (RFC 6282 §3.1.1), and the NHC UDP P bits if any."""
    b0, b1 = data[0], data[1]
    f = dict(tf=(b0 >> 3) & 3, nh=(b0 >> 2) & 1, hlim=b0 & 3, cid=b1 >> 7, sac=(b1 >> 6) & 1,
             sam=(b1 >> 4) & 3, m=(b1 >> 3) & 1, dac=(b1 >> 2) & 1, dam=b1 & 3)
    if f["cid"]:
        f["sci"], f["dci"] = data[2] >> 4, data[2] & 15
    return f


def iphc_len(f):
    """Bytes of the IPHC header with these modes: base, CID, in-line fields (RFC 6282 §3.2)."""
    src = ([16, 8, 2, 0] if not f["sac"] else [0, 8, 2, 0])[f["sam"]]
    if f["m"]:
        dst = [16, 6, 4, 1][f["dam"]] if not f["dac"] else 6
    else:
        dst = [16, 8, 2, 0][f["dam"]]
    tf = [4, 3, 1, 0][f["tf"]]
    return 2 + f["cid"] + tf + (1 - f["nh"]) + (1 if f["hlim"] == 0 else 0) + src + dst


def tern_compress(codec, case):
    return codec(f"compress {link_hex(case.link, 'src')} {link_hex(case.link, 'dst')} {CONTEXTS} {case.bytes.hex()}")


def tern_decompress(codec, case, frame):
    return codec(f"decompress {link_hex(case.link, 'src')} {link_hex(case.link, 'dst')} {CONTEXTS} 0 {frame.hex()}")


def test_modes_cover_every_iphc_mode():
    """The set uses every SAM, DAM (multicast and not), TF, HLIM and UDP P value at least once."""
    seen = {}
    for case in CASES:
        for key, value in case.modes.items():
            seen.setdefault(key, set()).add(value)
    for key in ("tf", "hlim", "sam", "dam", "udp_p"):
        assert seen[key] == {0, 1, 2, 3}, key
    assert seen["sac"] == {0, 1} and seen["dac"] == {0, 1} and seen["m"] == {0, 1} and seen["nh"] == {0, 1}


@pytest.mark.parametrize("case", [c.param("a") for c in CASES])
def test_tern_compresses_scapy_decompresses(codec, case):
    _, frame = tern_compress(codec, case)
    fields = iphc_fields(frame)
    for key, value in case.modes.items():
        if key == "udp_p":
            continue
        assert fields[key] == value, f"{key}: Tern chose {fields[key]}, the case wants {value}"
    if "udp_p" in case.modes:
        nhc = frame[iphc_len(fields)]
        assert nhc & 0xF8 == 0xF0 and nhc & 3 == case.modes["udp_p"], f"NHC UDP byte {nhc:#04x}"
    dissected = Dot15d4(dot15d4_header(case.link) + frame)
    assert dissected.haslayer(LoWPAN_IPHC)
    got = raw(dissected[IPv6])
    assert got.hex() == case.bytes.hex()


@pytest.mark.parametrize("case", [c.param("b") for c in CASES])
def test_scapy_compresses_tern_decompresses(codec, case):
    fields = {k: v for k, v in case.modes.items() if k not in ("udp_p",)}
    # Tern's own choice for the fields the case does not pin down, so both compress alike.
    _, tern_frame = tern_compress(codec, case)
    chosen = iphc_fields(tern_frame)
    chosen.update(fields)
    sci, dci = chosen.pop("sci", 0), chosen.pop("dci", 0)
    iphc = LoWPAN_IPHC(**chosen)
    if chosen["cid"]:
        iphc.sci, iphc.dci = sci, dci
    if chosen["nh"]:
        frame = raw(iphc / LoWPAN_NHC() / case.pkt.copy())
    else:
        frame = raw(iphc / case.pkt.copy())
    _, datagram = tern_decompress(codec, case, frame)
    assert datagram.hex() == case.bytes.hex()
    assert frame.hex() == tern_frame.hex(), "both compressors should write the same bytes for the same modes"
