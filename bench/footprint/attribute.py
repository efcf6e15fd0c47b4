#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Per-module text/data/bss of a linked ELF, from its GNU ld map (-Wl,-Map).

Only the input sections the linker kept (after --gc-sections: the part of the
map after "Linker script and memory map") count. Each is attributed to its
object file (archive member), each object file to a module of the stack
(MODULES below, by library and file name, like the thesis's per-layer
breakdown, Figure 5.3). Output section .text (code and .rodata) and
.isr_vector count as text, .data as data (flash and RAM), .bss as bss.

With link-time optimisation (-flto) the map names only the linker's
temporary LTRANS objects, so with a second argument, the ELF, the figures come
from its symbols instead: each function or variable (arm-none-eabi-nm -S) is
attributed to the source file its debug information names (`nm -l`: build
with -g, which does not change the code), or, for a variable without a line,
to the object file of the build that defines a symbol of that name (fat LTO
objects: -ffat-lto-objects); that source file to its object file of the build
tree (BUILD/<dir>/CMakeFiles/<target>.dir/<file>.c.obj) and so to its module.
Code is attributed to the function it ended up in: what LTO inlined into a
caller counts for the caller's file. An out-of-line copy of a header's static
inline function counts for the header (module "header inline functions");
a name defined in several modules' objects, and what no symbol covers
(alignment padding, unnamed constants), is listed as such, so that the rows
still add up to the ELF's sections.

usage: attribute.py MAP [ELF] > CSV    (columns: module,object,text,data,bss)
       (ELF: runs arm-none-eabi-nm, -readelf, -objdump, or $NM, $READELF, $OBJDUMP)
"""
import glob
import os
import re
import subprocess
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
    if len(sys.argv) > 2:
        rows = from_elf(sys.argv[2])
    else:
        rows = from_map(sys.argv[1])
    print("module,object,text,data,bss")
    for (mod, obj), v in sorted(rows.items()):
        print(f"{mod},{obj},{v['text']},{v['data']},{v['bss']}")


def from_map(path):
    lines = open(path).read().split("\n")
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
    return rows


def base_name(sym):
    """A symbol's name without what GCC appends to local and cloned symbols
    (foo.lto_priv.0, foo.constprop.0, foo.isra.0, a function's static: x.3)."""
    name = re.sub(r"\.lto_priv\.\d+", "", sym)
    return re.sub(r"\.\d+(?=\.|$)", "", name)


def build_objects(elf):
    """(source file -> object label, symbol base name -> set of labels) of the
    build tree holding @p elf."""
    build = os.path.dirname(os.path.abspath(elf))
    while not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        if os.path.dirname(build) == build:
            sys.exit("attribute.py: no CMakeCache.txt above " + elf)
        build = os.path.dirname(build)
    source = None
    for line in open(os.path.join(build, "CMakeCache.txt")):
        if line.startswith("CMAKE_HOME_DIRECTORY:INTERNAL="):
            source = line.split("=", 1)[1].strip()
    readelf = os.environ.get("READELF", "arm-none-eabi-readelf")
    by_file, by_name = {}, {}
    for obj in sorted(glob.glob(os.path.join(build, "**", "CMakeFiles", "*.dir", "**", "*.c.obj"), recursive=True)):
        rel = os.path.relpath(obj, build)
        m = re.match(r"^(.*?)/?CMakeFiles/([\w.-]+)\.dir/(.*)\.obj$", rel)
        if not m:
            continue
        sub, target, file = m.groups()
        member = os.path.basename(file) + ".obj"
        label = f"lib{target}.a({member})" if target.startswith("tern_") else member
        by_file[os.path.normpath(os.path.join(source, sub, file))] = label
        # readelf, not nm: nm reads a fat LTO object's IR symbols (no statics).
        out = subprocess.run([readelf, "-sW", obj], capture_output=True, text=True).stdout
        for line in out.split("\n"):
            parts = line.split()
            if len(parts) == 8 and parts[3] in ("FUNC", "OBJECT") and parts[6] != "UND":
                by_name.setdefault(base_name(parts[7]), set()).add(label)
    return by_file, by_name


def from_elf(elf):
    nm = os.environ.get("NM", "arm-none-eabi-nm")
    by_file, by_name = build_objects(elf)
    rows = {}
    out = subprocess.run([nm, "-l", "-S", "--defined-only", elf], capture_output=True, text=True, check=True).stdout
    sections = section_sizes(elf)
    counted = {"text": 0, "data": 0, "bss": 0}
    seen = set()
    for line in out.split("\n"):
        m = re.match(r"^([0-9a-f]+) ([0-9a-f]+) ([tTrRdDbB]) (\S+)(?:\t(.*):\d+)?$", line)
        if not m or m.group(1) in seen:  # an alias (memcpy, __aeabi_memcpy): counted once
            continue
        addr, size, kind, sym, file = m.group(1), int(m.group(2), 16), m.group(3).lower(), m.group(4), m.group(5)
        seen.add(addr)
        kind = {"t": "text", "r": "text", "d": "data", "b": "bss"}[kind]
        label = by_file.get(os.path.normpath(file)) if file else None
        if label is not None:
            key = module_of(label)
        elif file and (("/include/tern/" in file and file.endswith(".h")) or file.endswith("_internal.h")):
            key = ("header inline functions", re.sub(r"^.*?/(include/tern/|src/)", r"\1", file))
        elif file:
            key = ("C library + compiler runtime", os.path.basename(file))
        else:
            labels = by_name.get(base_name(sym), set())
            mods = {module_of(lab) for lab in labels}
            if len(mods) == 1:
                key = mods.pop()
            elif labels:
                key = ("(name defined in several modules)", base_name(sym))
            else:
                key = ("C library + compiler runtime", "(no debug information)")
        rows.setdefault(key, {"text": 0, "data": 0, "bss": 0})[kind] += size
        counted[kind] += size
    rest = {k: sections[k] - counted[k] for k in counted}
    if any(rest.values()):
        rows[("(not in a symbol: padding or unnamed constants)", "-")] = rest
    return rows


def section_sizes(elf):
    """text, data, bss of @p elf as SECTION_KIND counts them (arm-none-eabi-objdump -h)."""
    objdump = os.environ.get("OBJDUMP", "arm-none-eabi-objdump")
    out = subprocess.run([objdump, "-h", elf], capture_output=True, text=True, check=True).stdout
    sizes = {"text": 0, "data": 0, "bss": 0}
    for line in out.split("\n"):
        m = re.match(r"^\s*\d+\s+(\S+)\s+([0-9a-f]+)\s", line)
        if m and m.group(1) in SECTION_KIND:
            sizes[SECTION_KIND[m.group(1)]] += int(m.group(2), 16)
    return sizes


def add(rows, out_sec, size, obj):
    kind = SECTION_KIND.get(out_sec)
    if kind is None or size == 0:
        return
    key = module_of(obj.strip())
    rows.setdefault(key, {"text": 0, "data": 0, "bss": 0})[kind] += size


if __name__ == "__main__":
    main()
