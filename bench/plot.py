#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plots of bench/run's CSV files (matplotlib, Agg): usage: plot.py RESULTS_DIR"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# lwIP 2.2 on the same kind of machine, send + receive together (issue 6).
LWIP = {8: 159, 96: 218, 500: 518, 1000: 885, 1232: 1002}


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def traversal(d):
    data = rows(os.path.join(d, "traversal.csv"))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    colors = {"send": "C0", "recv": "C1", "total": "C2"}
    for ax, ex in zip(axes, ("loop", "threaded")):
        for rpl, ls, tag in (("0", "-", ""), ("1", "--", ", RPL root")):
            # The RPL variant (node as RPL root, global prefix) dashed, without error bars.
            sel = [r for r in data if r["executor"] == ex and r.get("rpl", "0") == rpl]
            if not sel:
                continue
            x = [int(r["payload"]) for r in sel]
            for key, label in (("send", "send"), ("recv", "receive")):
                med = [int(r[f"{key}_median_ns"]) / 1000 for r in sel]
                if rpl == "0":
                    lo = [m - int(r[f"{key}_p10_ns"]) / 1000 for m, r in zip(med, sel)]
                    hi = [int(r[f"{key}_p90_ns"]) / 1000 - m for m, r in zip(med, sel)]
                    ax.errorbar(x, med, yerr=[lo, hi], label=label, capsize=1.5, elinewidth=0.6, lw=1,
                                color=colors[key])
                else:
                    ax.plot(x, med, ls, label=label + tag, lw=1, color=colors[key])
            ax.plot(x, [int(r["total_median_ns"]) / 1000 for r in sel], ls, label="send + receive" + tag, lw=1,
                    color=colors["total"])
        if ex == "loop":
            sel = [r for r in data if r["executor"] == "loop-posix" and r.get("rpl", "0") == "0"]
            if sel:
                ax.plot([int(r["payload"]) for r in sel], [int(r["total_median_ns"]) / 1000 for r in sel], "-.",
                        label="send + receive, POSIX platform bound (as tern-node)", lw=1, color="C4")
            ax.plot(list(LWIP), [v / 1000 for v in LWIP.values()], "kx--", label="lwIP 2.2 send + receive")
            ax.plot(list(LWIP), [0.7 * v / 1000 for v in LWIP.values()], "k:", label="target: 0.7 x lwIP")
        ax.set_title(f"Tern, {ex} executor (dashed: node as RPL root, global prefix)")
        ax.set_xlabel("UDP payload [bytes]")
        ax.set_ylabel("traversal time [µs] (median, 10th-90th percentile)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Stack traversal time, UDP over 6LoWPAN (IPHC, NHC, fragmentation) over IEEE 802.15.4")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "traversal.png"), dpi=110)
    plt.close(fig)


def instructions(d):
    p = os.path.join(d, "traversal_instructions.csv")
    if not os.path.exists(p):
        return
    data = rows(p)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for rpl, ls, tag in (("0", "-", ""), ("1", "--", ", RPL root")):
        sel = [r for r in data if r.get("rpl", "0") == rpl and r.get("executor", "loop") == "loop"]
        x = [int(r["payload"]) for r in sel]
        for i, key in enumerate(("send", "recv", "total")):
            ax.plot(x, [int(r[f"{key}_instructions"]) for r in sel], ls, label=key + tag, lw=1, color=f"C{i}",
                    marker="." if len(x) < 20 else None)
    sel = [r for r in data if r.get("executor", "loop") == "loop-posix" and r.get("rpl", "0") == "0"]
    if sel:
        x = [int(r["payload"]) for r in sel]
        ax.plot(x, [int(r["total_instructions"]) for r in sel], "-.", label="total, POSIX platform bound", lw=1,
                color="C4", marker="." if len(x) < 20 else None)
    ax.set_xlabel("UDP payload [bytes]")
    ax.set_ylabel("instructions per datagram (callgrind)")
    ax.set_title("Instructions per datagram, event loop")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(d, "traversal_instructions.png"), dpi=110)
    plt.close(fig)


def goodput(d):
    data = rows(os.path.join(d, "goodput.csv"))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for dev in ("loopback", "reflector"):
        for ex in ("loop", "threaded"):
            sel = [r for r in data if r["device"] == dev and r["executor"] == ex]
            if not sel:
                continue
            x = [int(r["payload"]) for r in sel]
            axes[0].plot(x, [float(r["goodput_mbit_s"]) for r in sel], label=f"{dev}, {ex}", lw=1)
            axes[1].plot(x, [float(r["packets_s"]) for r in sel], label=f"{dev}, {ex}", lw=1)
    axes[0].set_ylabel("goodput [Mbit/s]")
    axes[1].set_ylabel("datagrams per second")
    for ax in axes:
        ax.set_xlabel("UDP payload [bytes]")
        ax.set_yscale("log")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=8)
    fig.suptitle("Goodput through the whole stack and back (IPv6 loopback; 6LoWPAN over an L2 reflector)")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "goodput.png"), dpi=110)
    plt.close(fig)


def footprint(d):
    configs = [("host", "a: 6LoWPAN host"), ("router", "b: router, RPL root")]
    # The split per module of the images without LTO (per object file, from the
    # map: with LTO, code inlined across files counts for its caller's file),
    # and the total of the published images, with LTO, marked on each bar.
    nolto = all(os.path.exists(os.path.join(d, f"footprint_{key}_nolto.csv")) for key, _ in configs)
    mods, lto_total = {}, {}
    for key, _ in configs:
        p = os.path.join(d, f"footprint_{key}.csv")
        if not os.path.exists(p):
            return
        lto_total[key] = sum(int(r["text"]) + int(r["data"]) for r in rows(p))
        for r in rows(os.path.join(d, f"footprint_{key}_nolto.csv") if nolto else p):
            mods.setdefault(r["module"], {}).setdefault(key, 0)
            mods[r["module"]][key] += int(r["text"]) + int(r["data"])
    order = sorted(mods, key=lambda m: -max(mods[m].values()))
    fig, ax = plt.subplots(figsize=(12, 5))
    left = [0, 0]
    cmap = plt.get_cmap("tab20")
    for i, m in enumerate(order):
        vals = [mods[m].get(k, 0) / 1024 for k, _ in configs]
        ax.barh([c for _, c in configs], vals, left=left, label=m, color=cmap(i % 20))
        left = [a + b for a, b in zip(left, vals)]
    if nolto:
        for i, (key, _) in enumerate(configs):
            ax.plot([lto_total[key] / 1024] * 2, [i - 0.4, i + 0.4], color="k", lw=2)
            ax.text(lto_total[key] / 1024, i + 0.42, " with LTO", fontsize=8)
    ax.axvline(16, color="k", ls=":", lw=1)
    ax.axvline(24, color="k", ls="--", lw=1)
    ax.text(16, 0.56, " target (a) 16 KiB", fontsize=8)
    ax.text(24, 0.44, " target (b) 24 KiB", fontsize=8)
    ax.set_xlabel("flash (text + data) [KiB], Cortex-M3, -Os -mthumb, --gc-sections"
                  + (": modules without LTO, black mark: total with -flto" if nolto else ""))
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title("Code size per module")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "footprint.png"), dpi=110)
    plt.close(fig)


def main():
    d = sys.argv[1]
    traversal(d)
    instructions(d)
    goodput(d)
    footprint(d)
    print("plots: " + " ".join(sorted(f for f in os.listdir(d) if f.endswith(".png"))))


if __name__ == "__main__":
    main()
