#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Per-module text/data/bss of a linked ELF, from its GNU ld map (-Wl,-Map).

Only the input sections the linker kept (after --gc-sections: the part of the
map after "Linker script and memory map") count. Each is attributed to its
object file (archive member), each object file to a module of the stack
(MODULES below, by library and file name, like the thesis's per-layer
breakdown, Figure 5.3). Output section .text (code and .rodata) and
.isr_vector count as text, .data as data (flash and RAM), .bss as bss.

usage: attribute.py MAP > CSV    (columns: module,object,text,data,bss)
"""
import re
import sys

# (library or "", object file) -> module; first match wins, "*" any object.
MODULES = [
    ("libtern_ipv6.a", "ndp_6lo.c", "6Lo-ND (RFC 6775/8505)"),
    ("libtern_ipv6.a", "ndp_router.c", "router NDP"),
    ("libtern_ipv6.a", "icmpv6_ndp.c", "NDP (ND + NUD)"),
    ("libtern_ipv6.a", "nc.c", "NDP (ND + NUD)"),
    ("libtern_ipv6.a", "mld.c", "MLD"),
    ("libtern_ipv6.a", "icmpv6_app.c", "ICMPv6"),
    ("libtern_ipv6.a", "icmpv6_error.c", "ICMPv6"),
    ("libtern_ipv6.a", "*", "IPv6"),
    ("libtern_wire.a", "ndp_6lo.c", "6Lo-ND (RFC 6775/8505)"),
    ("libtern_wire.a", "ndp.c", "NDP (ND + NUD)"),
    ("libtern_wire.a", "mld.c", "MLD"),
    ("libtern_wire.a", "icmpv6.c", "ICMPv6"),
    ("libtern_wire.a", "udp.c", "UDP + sock_udp"),
    ("libtern_wire.a", "sixlowpan.c", "6LoWPAN"),
    ("libtern_wire.a", "sixlowpan_iphc.c", "6LoWPAN"),
    ("libtern_wire.a", "sixlowpan_nhc.c", "6LoWPAN"),
    ("libtern_wire.a", "ieee802154.c", "IEEE 802.15.4 MAC + driver"),
    ("libtern_wire.a", "rpl.c", "RPL"),
    ("libtern_wire.a", "rpl_hbh.c", "RPL"),
    ("libtern_wire.a", "*", "IPv6"),
    ("libtern_sixlowpan.a", "*", "6LoWPAN"),
    ("libtern_rpl.a", "*", "RPL"),
    ("libtern_udp.a", "*", "UDP + sock_udp"),
    ("libtern_sock.a", "*", "UDP + sock_udp"),
    ("libtern_link.a", "*", "IEEE 802.15.4 MAC + driver"),
    ("libtern_netdev.a", "*", "IEEE 802.15.4 MAC + driver"),
    ("libtern_core.a", "netif.c", "netif (interface + TX engine)"),
    ("libtern_core.a", "netif_hdr.c", "netif (interface + TX engine)"),
    ("libtern_core.a", "*", "core (netreg netapi netopt trace stack)"),
    ("libtern_exec.a", "*", "executor (event loop + timers + clock)"),
    ("libtern_loop.a", "*", "executor (event loop + timers + clock)"),
    ("libtern_pktbuf.a", "*", "pktbuf"),
    ("", "host_app.c.obj", "application + stub radio driver"),
    ("", "*", "C library + compiler runtime"),
]

SECTION_KIND = {".text": "text", ".isr_vector": "text", ".ARM.exidx": "text", ".data": "data", ".bss": "bss"}


def module_of(obj):
    m = re.search(r"(lib[\w]+\.a)\(([^)]+)\)", obj)
    lib, member = (m.group(1), m.group(2)) if m else ("", obj.rsplit("/", 1)[-1])
    member = member.replace(".obj", "").replace(".o", "") if member.endswith((".c.obj", ".c.o")) else member
    for l, o, mod in MODULES:
        if l and l != lib:
            continue
        if not l and lib.startswith("libtern"):
            continue
        if o == "*" or o == member or o == member + ".obj":
            return mod, (lib + "(" + member + ")") if lib else member
    return obj, obj


def main():
    lines = open(sys.argv[1]).read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("Linker script and memory map"))
    out_sec = None
    rows = {}
    pending = None
    for l in lines[start + 1:]:
        m = re.match(r"^(\.[\w.]+)\s", l)
        if m and not l.startswith(" "):
            out_sec = m.group(1)
            continue
        if pending is not None:
            m = re.match(r"^\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S.*)$", l)
            if m:
                add(rows, out_sec, int(m.group(1), 16), m.group(2))
            pending = None
            continue
        m = re.match(r"^ (\.[\w.$]+|COMMON)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S.*)$", l)
        if m:
            add(rows, out_sec, int(m.group(2), 16), m.group(3))
            continue
        m = re.match(r"^ (\.[\w.$]+|COMMON)$", l)
        if m:
            pending = m.group(1)
    print("module,object,text,data,bss")
    for (mod, obj), v in sorted(rows.items()):
        print(f"{mod},{obj},{v['text']},{v['data']},{v['bss']}")


def add(rows, out_sec, size, obj):
    kind = SECTION_KIND.get(out_sec)
    if kind is None or size == 0:
        return
    key = module_of(obj.strip())
    rows.setdefault(key, {"text": 0, "data": 0, "bss": 0})[kind] += size


if __name__ == "__main__":
    main()
