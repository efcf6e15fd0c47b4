#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The tables of docs/PERFORMANCE.md, as Markdown, from a bench/run results directory.

    bench/tables.py bench/results        # every table
    bench/tables.py bench/results time   # one group: traversal, instructions, time, goodput, footprint

The figures in the document are these tables of the published run; the text around them is
written by hand. Standard library only.
"""
import csv
import os
import re
import sys
from collections import OrderedDict

# lwIP 2.2, send + receive, ns (issue 6): the comparison of every traversal table.
LWIP = OrderedDict([(8, 159), (96, 218), (504, 518), (1000, 885), (1232, 1002)])
SIZES = list(LWIP)


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def num(v):
    """A number with thin groups of three, as the document writes them (12 055)."""
    if isinstance(v, float):
        return f"{v:,.1f}".replace(",", " ")
    return f"{v:,}".replace(",", " ")


def traversal(d):
    data = rows(os.path.join(d, "traversal.csv"))
    for ex, rpl, title in (("loop", "0", "event loop, without RPL"), ("loop", "1", "event loop, node as RPL root"),
                           ("loop-posix", "0", "event loop bound to the POSIX platform (as tern-node), without RPL"),
                           ("threaded", "0", "threaded executor, without RPL")):
        sel = {int(r["payload"]): r for r in data if r["executor"] == ex and r.get("rpl", "0") == rpl}
        if not sel:
            continue
        print(f"\nTraversal time, {title} (`traversal.csv`, median ns):\n")
        print("| payload [B] | frames | send [ns] | receive [ns] | send + receive [ns] | lwIP 2.2 [ns] | Tern / lwIP "
              "| over the target (0.7 × lwIP) |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for p in SIZES:
            r = sel.get(p)
            if r is None:
                continue
            total = int(r["total_median_ns"])
            lw = LWIP[p]
            print(f"| {p} | {r['frames']} | {num(int(r['send_median_ns']))} | {num(int(r['recv_median_ns']))} | "
                  f"{num(total)} | {lw} | {total / lw:.1f} | × {total / (0.7 * lw):.1f} |")


def instructions(d):
    data = rows(os.path.join(d, "traversal_instructions.csv"))
    print("\nInstructions per datagram (`traversal_instructions.csv`, callgrind):\n")
    print("| executor | RPL | payload [B] | send | receive | total |")
    print("|---|---|---:|---:|---:|---:|")
    for ex in ("loop", "loop-posix"):
        for rpl in ("0", "1"):
            sel = {int(r["payload"]): r for r in data
                   if r.get("executor", "loop") == ex and r.get("rpl", "0") == rpl}
            for p in SIZES:
                r = sel.get(p)
                if r is not None:
                    print(f"| {ex} | {'root' if rpl == '1' else 'no'} | {p} | {num(int(r['send_instructions']))} | "
                          f"{num(int(r['recv_instructions']))} | {num(int(r['total_instructions']))} |")


# Parts of the stack, by source file (the first pattern that matches a function's file wins).
PARTS = [
    ("packet buffer (pktbuf.c, pkt.c)", r"src/core/(pktbuf|pkt)\.c|include/tern/lock\.h:tern_pktbuf"),
    ("hop machinery (netapi.c, netreg.c, loop.c, module queues, timers)",
     r"src/core/(netapi|netreg|module|timer|executor)\.c|port/loop/|include/tern/(lock|executor|netapi)\.h"),
    ("trace ring (trace.c, trace_internal.h)", r"src/core/trace(\.c|_internal\.h)"),
    ("Internet checksum (checksum.c)", r"src/wire/checksum\.c"),
    ("802.15.4 MAC, interface, test device", r"ieee802154|src/core/netif|netdev"),
    ("6LoWPAN (module, IPHC/NHC, fragmentation, reassembly)", r"sixlowpan"),
    ("IPv6, ND, UDP, sock", r"src/(ipv6|udp|sock)/|src/wire/(ipv6|udp|icmpv6|ndp)"),
    ("C library (memcpy, memset, memcmp)", r"libc|sysdeps|string/"),
]


def top_file(d, direction, size):
    path = os.path.join(d, f"callgrind_top_{direction}_{size}.txt")
    if not os.path.exists(path):
        return None, None
    text = open(path).read()
    runs = 10
    m = re.search(r"--runs (\d+)", text)
    if m:
        runs = int(m.group(1))
    total = re.search(r"^\s*([\d,]+) .*PROGRAM TOTALS", text, re.M)
    funcs = []
    for line in text.splitlines():
        fm = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S+?):(\S+)", line)
        if fm:
            funcs.append((fm.group(2) + ":" + fm.group(3), int(fm.group(1).replace(",", "")) / runs))
    return (int(total.group(1).replace(",", "")) / runs if total else None), funcs


def time(d):
    cols = [("send", 8), ("recv", 8), ("send", 1232), ("recv", 1232)]
    sums = OrderedDict((name, [0.0] * len(cols)) for name, _ in PARTS)
    sums["other listed functions"] = [0.0] * len(cols)
    totals = []
    for i, (direction, size) in enumerate(cols):
        total, funcs = top_file(d, direction, size)
        totals.append(total)
        for fn, v in funcs or []:
            for name, pat in PARTS:
                if re.search(pat, fn):
                    sums[name][i] += v
                    break
            else:
                sums["other listed functions"][i] += v
    print("\nWhere the instructions go (`callgrind_top_*.txt`: the 25 largest functions by self cost, "
          "per datagram, grouped by source file):\n")
    print("| part | send 8 B | receive 8 B | send 1232 B | receive 1232 B |")
    print("|---|---:|---:|---:|---:|")
    listed = [0.0] * len(cols)
    for name, vals in sums.items():
        cells = []
        for i, v in enumerate(vals):
            listed[i] += v
            t = totals[i]
            cells.append(f"{num(round(v))} ({100 * v / t:.0f} %)" if t else num(round(v)))
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("| **listed** | " + " | ".join(
        f"{num(round(v))} ({100 * v / t:.0f} %)" if t else num(round(v)) for v, t in zip(listed, totals)) + " |")
    print("| **total per datagram** | " + " | ".join(num(round(t)) if t else "–" for t in totals) + " |")


def goodput(d):
    data = rows(os.path.join(d, "goodput.csv"))
    print("\nGoodput (`goodput.csv`): Mbit/s; datagrams/s:\n")
    print("| device | executor | 8 B | 504 B | 1000 B | 1232 B |")
    print("|---|---|---|---|---|---|")
    keys = OrderedDict()
    for r in data:
        keys.setdefault((r["device"], r["executor"]), {})[int(r["payload"])] = r
    for (dev, ex), by in keys.items():
        cells = []
        for p in (8, 504, 1000, 1232):
            r = by.get(p)
            cells.append(f"{num(float(r['goodput_mbit_s']))}; {num(int(r['packets_s']))}" if r else "–")
        print(f"| {dev} | {ex} | " + " | ".join(cells) + " |")


def footprint(d):
    data = rows(os.path.join(d, "footprint.csv"))
    print("\nFootprint (`footprint.csv`, Cortex-M3, bytes):\n")
    print("| configuration | text (flash) | static RAM (data + bss) | stack: lower – upper | static RAM + stack |")
    print("|---|---:|---:|---:|---:|")
    for r in data:
        ram = int(r["ram_static"])
        lo, hi = int(r["stack_lower"]), int(r["stack_upper"])
        print(f"| {r['config']} | {num(int(r['text']))} | {num(ram)} | {num(lo)} – {num(hi)} | "
              f"{num(ram + lo)} – {num(ram + hi)} |")
    for image in ("host", "router"):
        path = os.path.join(d, f"footprint_{image}_nolto.csv")
        if not os.path.exists(path):
            continue
        per = OrderedDict()
        for r in rows(path):
            per[r["module"]] = per.get(r["module"], 0) + int(r["text"])
        print(f"\nCode per module, {image} image, constrained, without LTO (`footprint_{image}_nolto.csv`):\n")
        print("| module | text [B] |")
        print("|---|---:|")
        for m, v in sorted(per.items(), key=lambda kv: -kv[1]):
            if v:
                print(f"| {m} | {num(v)} |")
        print(f"| **sum** | {num(sum(per.values()))} |")


GROUPS = OrderedDict([("traversal", traversal), ("instructions", instructions), ("time", time),
                      ("goodput", goodput), ("footprint", footprint)])


def main():
    if len(sys.argv) < 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: bench/tables.py RESULTS_DIR [" + "|".join(GROUPS) + "]")
    wanted = sys.argv[2:] or list(GROUPS)
    for name in wanted:
        if name not in GROUPS:
            sys.exit(f"bench/tables.py: unknown group '{name}'")
        GROUPS[name](sys.argv[1])


if __name__ == "__main__":
    main()
