# SPDX-License-Identifier: BSD-3-Clause
"""Wireshark checks Tern's RPL wire formats (RFC 6550, 6553, 6554; no root needed).

tests/tools/rpl_emit.c prints IPv6 packets built by Tern's codecs; this test
writes them into a pcap file (link type 229: raw IPv6) and asks tshark what
it sees:

- every field of every DIS, DIO, DAO and DAO-ACK, of their options, of the RPL
  Option in a Hop-by-Hop header and of the Source Routing Header has the value
  the packet was built with, and the ICMPv6 checksums are good;
- tshark reports no malformed packet and no expert warning or error;
- Tern's parser, given the same bytes, agrees with tshark field by field, also
  for packets built here by hand (independently of Tern) and for the ones it
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

P = "icmpv6.rpl."

# What each packet of `tern_rpl_emit packets` was built as (tshark field -> value).
EXPECTED = {
    "dis": {
        "icmpv6.code": "0",
        P + "opt.solicited.instance": "30", P + "opt.solicited.flag.v": "1", P + "opt.solicited.flag.i": "1",
        P + "opt.solicited.flag.d": "1", P + "opt.solicited.dodagid": "2001:db8::1",
        P + "opt.solicited.version": "240",
    },
    "dio": {
        "icmpv6.code": "1",
        P + "dio.instance": "30", P + "dio.version": "240", P + "dio.rank": "256", P + "dio.flag.g": "1",
        P + "dio.flag.mop": "3", P + "dio.flag.preference": "5", P + "dio.dtsn": "66",
        P + "dio.dagid": "2001:db8::1",
        P + "opt.config.auth": "0", P + "opt.config.pcs": "3", P + "opt.config.interval_double": "20",
        P + "opt.config.interval_min": "3", P + "opt.config.redundancy": "10",
        P + "opt.config.max_rank_inc": "1792", P + "opt.config.min_hop_rank_inc": "256",
        P + "opt.config.ocp": "1", P + "opt.config.def_lifetime": "255", P + "opt.config.lifetime_unit": "65535",
        P + "opt.prefix.length": "64", P + "opt.prefix.flag": "0x60", P + "opt.prefix.valid_lifetime": "86400",
        P + "opt.prefix.preferred_lifetime": "14400", P + "opt.prefix": "2001:db8::1",
        P + "opt.route.prefix_length": "48", P + "opt.route.pref": "1", P + "opt.route.lifetime": "3600",
        P + "opt.route.prefix": "2001:db8:1::",
        P + "opt.metric.type": "7", P + "opt.metric.etx.object.etx": "128",
    },
    "dao": {
        "icmpv6.code": "2",
        P + "dao.instance": "30", P + "dao.flag.k": "1", P + "dao.flag.d": "1", P + "dao.sequence": "7",
        P + "dao.dodagid": "2001:db8::1",
        P + "opt.target.prefix_length": "128", P + "opt.target.prefix": "2001:db8::2:a",
        P + "opt.transit.flag.e": "1", P + "opt.transit.pathctl": "128", P + "opt.transit.pathseq": "7",
        P + "opt.transit.pathlifetime": "255", P + "opt.transit.parent": "2001:db8::1:5",
        P + "opt.targetdesc.descriptor": "0xdeadbeef",
    },
    "dao_nopath": {
        "icmpv6.code": "2",
        P + "dao.instance": "0", P + "dao.flag.k": "0", P + "dao.flag.d": "0", P + "dao.sequence": "8",
        P + "dao.dodagid": "",
        P + "opt.target.prefix_length": "64", P + "opt.target.prefix": "2001:db8:0:5::",
        P + "opt.transit.flag.e": "0", P + "opt.transit.pathseq": "8", P + "opt.transit.pathlifetime": "0",
        P + "opt.transit.parent": "",
    },
    "dao_ack": {
        "icmpv6.code": "3",
        P + "daoack.instance": "30", P + "daoack.flag.d": "1", P + "daoack.sequence": "7",
        P + "daoack.status": "0", P + "daoack.dodagid": "2001:db8::1",
    },
    "dao_ack_reject": {
        "icmpv6.code": "3",
        P + "daoack.instance": "0", P + "daoack.flag.d": "0", P + "daoack.sequence": "8",
        P + "daoack.status": "128", P + "daoack.dodagid": "",
    },
    "hbh": {
        "ipv6.opt.type": "0x63", "ipv6.opt.rpl.flag.o": "1", "ipv6.opt.rpl.flag.r": "0",
        "ipv6.opt.rpl.flag.f": "1", "ipv6.opt.rpl.instance_id": "0x1e", "ipv6.opt.rpl.sender_rank": "0x0200",
    },
    "srh": {
        "ipv6.routing.type": "3", "ipv6.routing.segleft": "2", "ipv6.routing.rpl.cmprI": "13",
        "ipv6.routing.rpl.cmprE": "7", "ipv6.routing.rpl.pad": "4", "ipv6.routing.rpl.addr_count": "2",
        "ipv6.routing.rpl.full_address": "2001:db8::1:3,2001:db8:0:1::4",
    },
    "srh_near": {
        "ipv6.routing.type": "3", "ipv6.routing.segleft": "3", "ipv6.routing.rpl.cmprI": "15",
        "ipv6.routing.rpl.cmprE": "15", "ipv6.routing.rpl.pad": "5", "ipv6.routing.rpl.addr_count": "3",
        "ipv6.routing.rpl.full_address": "2001:db8::3,2001:db8::4,2001:db8::5",
    },
}

# tshark field -> the key tern_rpl_emit's parse prints for it.
TERN_KEYS = {
    "ipv6.opt.type": "rpl.type", "ipv6.opt.rpl.flag.o": "rpl.flag.o", "ipv6.opt.rpl.flag.r": "rpl.flag.r",
    "ipv6.opt.rpl.flag.f": "rpl.flag.f", "ipv6.opt.rpl.instance_id": "rpl.instance_id",
    "ipv6.opt.rpl.sender_rank": "rpl.sender_rank", "ipv6.routing.segleft": "srh.segleft",
    "ipv6.routing.rpl.cmprI": "srh.cmprI", "ipv6.routing.rpl.cmprE": "srh.cmprE",
    "ipv6.routing.rpl.pad": "srh.pad", "ipv6.routing.rpl.addr_count": "srh.addr_count",
    "ipv6.routing.rpl.full_address": "srh.full_address", "icmpv6.code": "code",
}

# Not in Tern's reprs: the DAG Metric Container's objects (RFC 6551, carried
# opaque) and the Routing Type (tern_srh_parse() takes type 3 only).
TERN_OPAQUE = {P + "opt.metric.type", P + "opt.metric.etx.object.etx", "ipv6.routing.type"}


def tern_key(field):
    """icmpv6.rpl.dio.rank -> dio.rank, icmpv6.rpl.opt.target.prefix -> target.prefix."""
    if field in TERN_KEYS:
        return TERN_KEYS[field]
    key = field[len(P):] if field.startswith(P) else field
    return key[len("opt."):] if key.startswith("opt.") else key


# --- helpers ------------------------------------------------------------------

@pytest.fixture(scope="module")
def rpl_emit():
    """Path of tern_rpl_emit: $TERN_RPL_EMIT, else $TERN_BUILD_DIR/tests/tools/tern_rpl_emit, else
    the gcc-debug build of scripts/test."""
    build = pathlib.Path(os.environ.get("TERN_BUILD_DIR", ROOT / "build/gcc-debug"))
    path = pathlib.Path(os.environ.get("TERN_RPL_EMIT", build / "tests/tools/tern_rpl_emit"))
    if not path.is_file():
        pytest.skip(f"tern_rpl_emit not built at {path} (run ./scripts/test or set TERN_RPL_EMIT)")
    return path


@pytest.fixture(scope="module")
def packets(rpl_emit):
    out = subprocess.run([str(rpl_emit), "packets"], check=True, capture_output=True, text=True).stdout
    return {name: bytes.fromhex(data) for name, data in (line.split() for line in out.splitlines())}


def tern_parse(rpl_emit, named):
    """Tern's view of (name, packet) pairs: name -> (verdict, {key: [values]})."""
    stdin = "".join(f"{name} {data.hex()}\n" for name, data in named)
    out = subprocess.run([str(rpl_emit), "parse"], input=stdin, check=True, capture_output=True,
                         text=True).stdout
    result = {}
    for line in out.splitlines():
        name, verdict, *words = line.split()
        fields = {}
        if verdict == "err":
            result[name] = (verdict, {"errno": words})
            continue
        for word in words:
            key, value = word.split("=", 1)
            fields.setdefault(key, []).append(value)
        result[name] = (verdict, fields)
    return result


def write_pcap(path, packets):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 229))
        for i, data in enumerate(packets):
            f.write(struct.pack("<IIII", 1_700_000_000 + i, 0, len(data), len(data)) + data)


def tshark(pcap, *args):
    return subprocess.run([TSHARK, "-r", str(pcap), *args], capture_output=True, text=True, check=True).stdout


def tshark_fields(pcap, fields):
    """One dict per packet: field -> its values joined by ',' ('' when absent); booleans as '1'/'0'."""
    cmd = ["-T", "fields", "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=,"]
    for field in fields:
        cmd += ["-e", field]
    rows = []
    for line in tshark(pcap, *cmd).splitlines():
        values = line.split("\t")
        values += [""] * (len(fields) - len(values))
        norm = [",".join({"True": "1", "False": "0"}.get(v, v) for v in value.split(",")) if value else ""
                for value in values]
        rows.append(dict(zip(fields, norm)))
    return rows


def tshark_problems(pcap):
    return tshark(pcap, "-Y", "_ws.malformed || _ws.expert.severity >= warning").strip()


def same_number(a, b):
    """'0x1e' and '30' are the same value; addresses compare as text."""
    try:
        return int(a, 0) == int(b, 0)
    except ValueError:
        return a == b


def same_values(a, b):
    """Comma-separated lists of the same values ('0x03,7' and '3,7')."""
    if a == "" or b == "":
        return a == b
    left, right = a.split(","), b.split(",")
    return len(left) == len(right) and all(same_number(x, y) for x, y in zip(left, right))


def ipv6(src, dst, nh, payload, hop_limit=255):
    return struct.pack("!IHBB16s16s", 0x60000000, len(payload), nh, hop_limit, src, dst) + payload


def addr(text):
    import ipaddress
    return ipaddress.IPv6Address(text).packed


def icmpv6(src, dst, body):
    """An ICMPv6 message with its checksum, computed here (RFC 4443 §2.3) independently of Tern."""
    pseudo = src + dst + struct.pack("!IxxxB", len(body), 58)
    data = pseudo + body[:2] + b"\0\0" + body[4:]
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return body[:2] + struct.pack("!H", ~total & 0xFFFF) + body[4:]


# --- tests ------------------------------------------------------------------------

def test_emitted_packets_decode_as_built(packets, tmp_path):
    names = list(EXPECTED)
    assert set(names) <= set(packets)
    fields = sorted({f for exp in EXPECTED.values() for f in exp} | {"icmpv6.checksum.status", "icmpv6.type"})
    pcap = tmp_path / "rpl.pcap"
    write_pcap(pcap, [packets[n] for n in names])
    rows = tshark_fields(pcap, fields)
    assert len(rows) == len(names)
    for name, row in zip(names, rows):
        for field, want in EXPECTED[name].items():
            assert same_values(row[field], want), (name, field, row[field])
        if "icmpv6.code" in EXPECTED[name]:
            assert row["icmpv6.type"] == "155", name
            assert row["icmpv6.checksum.status"] == "1", name  # PROTO_CHECKSUM_E_GOOD
    assert tshark_problems(pcap) == ""


def test_tern_parse_agrees_with_tshark(rpl_emit, packets, tmp_path):
    names = list(EXPECTED)
    parsed = tern_parse(rpl_emit, [(n, packets[n]) for n in names])
    for name in names:
        verdict, got = parsed[name]
        assert verdict == "ok", (name, got)
        if "icmpv6.code" in EXPECTED[name]:
            assert got["checksum"] == ["good"], name
        for field, want in EXPECTED[name].items():
            if field in TERN_OPAQUE:
                continue
            key = tern_key(field)
            if want == "":
                assert key not in got, (name, key)
                continue
            have = got[key]
            wants = want.split(",")
            assert len(have) == len(wants), (name, key, have)
            for h, w in zip(have, wants):
                assert same_number(h, w), (name, key, h, w)


# Packets built here by hand, without Tern: (name, packet, Tern's verdict).
LL1, LL2, MC = addr("fe80::1"), addr("fe80::2"), addr("ff02::1a")
G1, G2 = addr("2001:db8::1"), addr("2001:db8::2")
HAND_BUILT = [
    # DIO with reserved bits set (the bit after G, Flags, Reserved), a DODAG
    # Configuration with A set and its reserved flags, and a Route Information
    # with a /128 in 16 octets.
    ("dio_reserved", ipv6(LL1, MC, 58, icmpv6(LL1, MC, bytes.fromhex(
        "9b010000" "01020304" "c1070000" + G1.hex() +
        "040e" "f9" "0508" "01" "0000" "0080" "0000" "00" "10" "0001" +
        "0316" "80" "18" "00000010" + G2.hex()))), "ok"),
    # DAO of a local RPLInstanceID (0x81) with its DODAGID.
    ("dao_local", ipv6(G2, G1, 58, icmpv6(G2, G1, bytes.fromhex(
        "9b020000" "81400009" + G1.hex() + "0512" "0080" + G2.hex()))), "ok"),
    # Refused: a secured DIS (Code 0x80) with a Security section, an unknown
    # Code, a DAO of a local instance without DODAGID, a DODAG Configuration of
    # Option Length 13, an SRH whose lengths do not fit RFC 6554's formula.
    ("secure_dis", ipv6(LL2, MC, 58, icmpv6(LL2, MC, bytes.fromhex(
        "9b800000" "00" "00" "00" "00" "00000001" "0000"))), "err ENOTSUP"),
    ("unknown_code", ipv6(LL2, LL1, 58, icmpv6(LL2, LL1, bytes.fromhex("9b070000" "00000000"))),
     "err EPROTONOSUPPORT"),
    ("dao_local_no_dodagid", ipv6(LL2, LL1, 58, icmpv6(LL2, LL1, bytes.fromhex("9b020000" "81000009"))),
     "err EBADMSG"),
    ("dio_conf_len13", ipv6(LL1, MC, 58, icmpv6(LL1, MC, bytes.fromhex(
        "9b010000" "01020304" "c1070000" + G1.hex() + "040d" + "00" * 13))), "err EBADMSG"),
    ("srh_bad_pad", ipv6(G1, G2, 43, bytes.fromhex("3b020302d7300000" "010003" "010000000000000004" "00000000"),
                         hop_limit=64), "err EBADMSG"),
]


def test_tern_parse_agrees_with_tshark_on_hand_built_packets(rpl_emit, tmp_path):
    fields = [P + "dio.instance", P + "dio.version", P + "dio.rank", P + "dio.flag.g", P + "dio.flag.mop",
              P + "dio.flag.preference", P + "opt.config.auth", P + "opt.config.pcs",
              P + "opt.config.interval_double", P + "opt.config.min_hop_rank_inc",
              P + "opt.route.prefix_length", P + "opt.route.pref", P + "opt.route.prefix",
              P + "dao.instance", P + "dao.dodagid", P + "opt.target.prefix", "icmpv6.code",
              "icmpv6.checksum.status", "ipv6.routing.rpl.cmprI"]
    pcap = tmp_path / "hand.pcap"
    write_pcap(pcap, [data for _, data, _ in HAND_BUILT])
    rows = tshark_fields(pcap, fields)
    parsed = tern_parse(rpl_emit, [(name, data) for name, data, _ in HAND_BUILT])
    assert len(rows) == len(HAND_BUILT)
    by_name = {}
    for (name, _, verdict), row in zip(HAND_BUILT, rows):
        by_name[name] = row
        got_verdict, got = parsed[name]
        if verdict == "ok":
            assert got_verdict == "ok", (name, got)
            assert row["icmpv6.checksum.status"] == "1", name
            assert got["checksum"] == ["good"], name
            compared = 0
            for field in fields:
                if not field.startswith(P) or row[field] == "":
                    continue
                key = tern_key(field)
                assert key in got, (name, key)
                assert same_number(got[key][0], row[field].split(",")[0]), (name, field, got[key], row[field])
                compared += 1
            assert compared >= 3, name
        else:
            assert got_verdict == "err", (name, got_verdict)
    # every field tshark shows for the DIO with reserved bits: the ones Tern reads
    dio = by_name["dio_reserved"]
    assert [int(dio[P + f], 0) for f in ("dio.flag.g", "dio.flag.mop", "dio.flag.preference")] == [1, 0, 1]
    assert dio[P + "opt.config.auth"] == "1" and int(dio[P + "opt.config.pcs"], 0) == 1
    assert dio[P + "opt.route.prefix"] == "2001:db8::2"
    assert parsed["dio_reserved"][1]["config.auth"] == ["1"]
    assert parsed["dio_reserved"][1]["config.pcs"] == ["1"]
    assert parsed["dio_reserved"][1]["route.prefix"] == ["2001:db8::2"]
    assert by_name["dao_local"][P + "dao.instance"] == "129"
    # tshark sees why Tern refuses the others
    assert by_name["secure_dis"]["icmpv6.code"] == "128"
    assert by_name["unknown_code"]["icmpv6.code"] == "7"
    # the verdicts, word for word
    refused = subprocess.run([str(rpl_emit), "parse"], check=True, capture_output=True, text=True,
                             input="".join(f"{n} {d.hex()}\n" for n, d, v in HAND_BUILT if v != "ok")).stdout
    assert [" ".join(line.split()[1:3]) for line in refused.splitlines()] == \
        [v for _, _, v in HAND_BUILT if v != "ok"]
    # the well-formed hand-built packets are well-formed for tshark too
    good = tmp_path / "good.pcap"
    write_pcap(good, [data for _, data, verdict in HAND_BUILT if verdict == "ok"])
    assert tshark_problems(good) == ""
