#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Worst-case stack depth of a linked ELF from -fstack-usage and its call graph.

Method: every function's own frame comes from the .su files gcc writes with
-fstack-usage; where several functions share a name (static ones of
different files: the modules' `handle`), the entry of the function's own
file and line, which addr2line gives for its start address (the largest
frame of that name only when that fails); the call
edges from `objdump -d` of the ELF (bl, and b/b.w to another function's
start: tail calls). An indirect call (blx rN: a module handler, a driver
operation, a callback) may reach any function whose address is taken; as
those cannot be told apart in the disassembly, a function with an indirect
call is charged the deepest of all "indirect targets" (functions that no
direct call reaches, other than the roots). A call that closes a cycle
(recursion, or a handler calling netapi synchronously which calls a
handler) is cut and reported. depth(f) = frame(f) + max over callees; two figures: an upper bound (every indirect call may reach every indirect
target, nested) and a lower estimate (direct calls, then the deepest single
indirect target once), each plus the radio interrupt (its handler, the
interface's event callback, and the 32-byte exception frame on the same MSP). Frames of functions without .su data (the C library)
count 0 and are listed. This is an estimate of the kind the thesis's
measurement gives, not a proof: data-dependent recursion is not bounded here,
and the upper figure's search memoises depths found with the cycles of its
first path cut, so a change of one frame can move it by more than that frame.

With link-time optimisation the frames are those of the LTRANS units: link
with -fstack-usage, which writes ELF.ltrans*.ltrans.su next to the ELF, and
name those files (an SU argument may be a .su file or a directory searched
for them).

usage: stack_depth.py ELF OBJDUMP SU_DIR_OR_FILE... > report
"""
import glob
import os
import re
import subprocess
import sys


def base_name(sym):
    """A function's name without GCC's suffixes: the ELF of an LTO build says
    foo.lto_priv.0 or foo.constprop.0 where the .su file says foo or
    foo.constprop (two static functions of one name: the larger frame counts)."""
    name = re.sub(r"\.lto_priv\.\d+", "", sym)
    return re.sub(r"\.\d+(?=\.|$)", "", name)


def main():
    elf, objdump, su_dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    entries = {}  # base name -> [(file, line, frame)] of every .su entry of that name
    for d in su_dirs:
        sus = [d] if os.path.isfile(d) else glob.glob(os.path.join(d, "**", "*.su"), recursive=True)
        for su in sus:
            for line in open(su):
                parts = line.rstrip("\n").split("\t")
                if len(parts) < 2:
                    continue
                loc = parts[0].rsplit(":", 3)
                name = base_name(loc[-1])
                src_line = int(loc[1]) if len(loc) == 4 and loc[1].isdigit() else 0
                entries.setdefault(name, []).append((loc[0] if len(loc) == 4 else "", src_line, int(parts[1])))
    dis = subprocess.run([objdump, "-d", elf], capture_output=True, text=True, check=True).stdout
    # Functions are told apart by their start address: two of one name (which
    # an LTO link may leave, or a non-LTO one always does for static functions)
    # get "name@address" labels, and calls are resolved by the target address.
    funcs = re.findall(r"^([0-9a-f]+) <([^>]+)>:$", dis, re.M)
    seen = {}
    for _, sym in funcs:
        seen[sym] = seen.get(sym, 0) + 1
    label_at = {int(a, 16): (sym if seen[sym] == 1 else f"{sym}@{a}") for a, sym in funcs}
    frame = {}
    ambiguous = [(a, lab) for a, lab in label_at.items()
                 if len(entries.get(base_name(lab.split("@")[0]), ())) > 1]
    located = {}
    if ambiguous:
        addr2line = re.sub(r"objdump$", "addr2line", objdump)
        try:
            out = subprocess.run([addr2line, "-e", elf] + [hex(a) for a, _ in ambiguous],
                                 capture_output=True, text=True, check=True).stdout.split("\n")
        except (OSError, subprocess.CalledProcessError):
            out = []
        for (a, lab), loc in zip(ambiguous, out):
            m = re.match(r"^(.*):(\d+|\?)", loc)  # "?": no line table (no -g), the file from the symbols
            if m and m.group(1) != "??":
                located[lab] = (m.group(1), int(m.group(2)) if m.group(2) != "?" else None)
    for a, lab in label_at.items():
        cands = entries.get(base_name(lab.split("@")[0]), [])
        if not cands:
            continue
        best = max(c[2] for c in cands)
        if lab in located:
            path, ln = located[lab]
            # The .su entry of that file whose line is the last at or before the
            # function's first instruction (its declaration); without a line,
            # the largest of that file.
            same = [c for c in cands if c[0] and os.path.basename(c[0]) == os.path.basename(path)
                    and (ln is None or c[1] <= ln)]
            if same:
                best = max(same, key=lambda c: c[2] if ln is None else c[1])[2]
        frame[lab] = best
    calls, indirect, starts = {}, set(), {}
    cur = None
    for line in dis.split("\n"):
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            cur = label_at[int(m.group(1), 16)]
            starts[int(m.group(1), 16)] = cur
            calls.setdefault(cur, set())
            continue
        if cur is None:
            continue
        m = re.search(r"\t(bl|blx|b|b\.w|b\.n)\s+([0-9a-f]+) <([^>+]+)>", line)
        if m and label_at.get(int(m.group(2), 16), m.group(3)) != cur:
            if m.group(1) in ("bl", "blx") or "+" not in line.split("<", 1)[1]:
                calls[cur].add(label_at.get(int(m.group(2), 16), m.group(3)))
            continue
        if re.search(r"\tblx\s+r\d+", line) or re.search(r"\tbx\s+r([0-9]|1[0-2])\b", line):
            indirect.add(cur)
    roots = ["Reset_Handler"]
    # Interrupt handlers: not the reset handler, which is the thread's root (main runs in it).
    handlers = [f for f in calls if (f.endswith("_Handler") or f.endswith("_irq_handler")) and f not in roots]
    called = set(c for cs in calls.values() for c in cs)
    targets = [f for f in calls if f not in called and f not in roots and f not in handlers
               and not f.startswith("$")]
    cut, memo = set(), {}
    use_indirect = [True]

    def depth(f, path):
        if f in memo:
            return memo[f]
        best, via = 0, None
        nexts = set(calls.get(f, ()))
        if f in indirect and use_indirect[0]:
            nexts |= set(targets)
        for c in sorted(nexts):
            if c in path:
                cut.add((f, c))
                continue
            path.add(c)
            d, _ = depth(c, path)
            path.discard(c)
            if d > best:
                best, via = d, c
        memo[f] = (frame.get(f, 0) + best, via)
        return memo[f]

    # Lower estimate: direct calls only, then one indirect hop: the deepest
    # indirect target on top of the deepest direct chain.
    use_indirect[0] = False
    direct_main, _ = depth("Reset_Handler", {"Reset_Handler"})
    deepest_target = max(sorted(targets), key=lambda t: depth(t, {t})[0]) if targets else None
    one_hop = direct_main + (depth(deepest_target, {deepest_target})[0] if deepest_target else 0)
    irq_direct = max((depth(h, {h})[0] for h in handlers), default=0)
    # In the interrupt the interface's event callback only posts (netif.c, ISR case).
    post = next((f for f in calls if base_name(f) == "loop_post"), None)
    event_cb = max((frame.get(f, 0) for f in calls if base_name(f) == "netif_event_cb"), default=0)
    irq_hop = irq_direct + event_cb + (depth(post, {post})[0] if post else 0)
    print(f"stack_depth_lower_bytes={one_hop + irq_hop + 32} (thread: direct calls + the deepest indirect "
          f"target, {deepest_target}: {one_hop}; radio interrupt: {irq_hop} + 32 exception frame)")
    use_indirect[0] = True
    memo.clear()
    cut.clear()
    total, _ = depth("Reset_Handler", {"Reset_Handler"})
    chain, f = [], "Reset_Handler"
    while f is not None:
        chain.append(f"{f} ({frame.get(f, 0)})")
        f = memo.get(f, (0, None))[1]
    print(f"stack_depth_upper_bytes={total + irq_hop + 32} (thread, any indirect call reaching any target: "
          f"{total}; radio interrupt: {irq_hop} + 32)")
    print("deepest chain (bytes of own frame): " + " -> ".join(chain))
    print(f"indirect-call targets assumed: {len(targets)}; functions with indirect calls: {len(indirect)}")
    print(f"cycles cut: {len(cut)}")
    nosu = sorted(f for f in calls if f not in frame and not f.startswith("$"))
    print("functions without .su data (counted 0): " + " ".join(nosu))


if __name__ == "__main__":
    main()
