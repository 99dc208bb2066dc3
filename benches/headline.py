#!/usr/bin/env python3
"""Prints the headline table of one CPU's results (BENCHMARKS.md) from the
files benches/record.sh wrote: speed-ups of fastmem (other's ticks over
fastmem's; above 1: fastmem is faster), per tier, for issue 10's target rows.

    python3 benches/headline.py benches/results/intel-6-207

Hot rows: geometric mean over the 22-size sweep, and in brackets the worst
size. "inlined": fastmem and DPDK inlined in their timing loops (fm_inline,
dpdk_inline), glibc and rep movsb still through a call, as issue 10 measured
on Ice Lake-SP. Every ratio compares columns of one run of one binary.
"""
import csv
import math
import os
import re
import sys


def read_csv(path):
    """{(label, impl): ticks} of one sizes.rs CSV (comment lines skipped)."""
    out = {}
    with open(path) as f:
        rows = csv.reader(line for line in f if not line.startswith("#"))
        next(rows)  # suite,kernel,size,impl,ticks
        for r in rows:
            # Files before the labels were quoted split a label with a
            # comma ("IMIX, dst+1 src+3") in two: join the middle fields.
            out[",".join(r[2:-2]), r[-2]] = float(r[-1])
    return out


def sweep(t, other, fm="fastmem"):
    """'geomean (worst)' of t[other]/t[fm] over the sizes, or '—'."""
    sizes = {s for s, i in t if i == fm}
    r = [t[s, other] / t[s, fm] for s in sizes if (s, other) in t]
    if not r:
        return "—"
    g = math.exp(sum(map(math.log, r)) / len(r))
    return f"{g:.2f} ({min(r):.2f})"


def one(t, label, other, fm="fastmem"):
    if (label, other) not in t or (label, fm) not in t:
        return "—"
    return f"{t[label, other] / t[label, fm]:.2f}"


def vhost(path):
    """{size: (std/fm, dpdk/fm)} from a vhost_enqueue output."""
    out = {}
    if not os.path.exists(path):
        return out
    for line in open(path):
        m = re.match(r"\s*(\w+) \|.*?\|\s*([\d.]+)x(?: \|\s*([\d.]+)x)?\s*$", line)
        if m:
            out[m.group(1)] = (m.group(2), m.group(3) or "—")
    return out


def tier_rows(d, k):
    """{case: (vs DPDK, vs glibc, vs rep movsb)} for one tier's folder."""
    rows = {}
    for suite, name in (("copy", "hot 1-8192 B, aligned"), ("copy-unaligned", "hot 1-8192 B, dst+1 src+3")):
        p = os.path.join(d, f"{k}-{suite}.csv")
        if os.path.exists(p):
            t = read_csv(p)
            rows[name] = (sweep(t, "dpdk"), sweep(t, "glibc"), sweep(t, "rep_movsb"))
            rows[name + ", inlined"] = (sweep(t, "dpdk_inline", "fm_inline"), sweep(t, "glibc", "fm_inline"),
                                        sweep(t, "rep_movsb", "fm_inline"))
    p = os.path.join(d, f"{k}-mixed-copy.csv")
    if os.path.exists(p):
        t = read_csv(p)
        for label, name in (("uniform 1-256", "mixed uniform 1-256 B"), ("IMIX 7:4:1", "mixed IMIX")):
            rows[name] = (one(t, label, "dpdk"), one(t, label, "glibc"), one(t, label, "rep_movsb"))
            rows[name + ", inlined"] = (one(t, label, "dpdk_inline", "fm_inline"), one(t, label, "glibc", "fm_inline"),
                                        one(t, label, "rep_movsb", "fm_inline"))
    for ring in ("l3", "dram"):
        v = vhost(os.path.join(d, f"vhost-{ring}.md"))
        for size in ("64", "imix"):
            if size in v:
                std, dpdk = v[size]
                name = f"vhost_enqueue {ring.upper()}, {'64 B' if size == '64' else 'IMIX'} (glibc: std)"
                rows[name] = (dpdk, std, "")
    return rows


def sweeps(paths, other, fm="fastmem"):
    """sweep() over the rows of several tables of one tier at once."""
    t = {}
    for i, p in enumerate(paths):
        if os.path.exists(p):
            t.update({(f"{i}:{s}", m): v for (s, m), v in read_csv(p).items()})
    return sweep(t, other, fm)


def more_rows(d, k):
    """{case: ratio} for issue 11's entry points, fills, the exported symbols
    and large copies: 'geomean (worst)' of other's ticks over fastmem's."""
    f = lambda *names: [os.path.join(d, n) for n in names]
    moves = [f"move-{way}{dist}" for way in ("up", "down") for dist in ("1", "17", "19", "35", "67")]
    overlap = [f"{k}-{m}.csv" for m in moves]
    sym = lambda s: f(f"symbols/{k}-{s}.csv")
    return {
        "fill 1-8192 B, aligned and dst+1: vs glibc": sweeps(f(f"{k}-set.csv", f"{k}-set-unaligned.csv"), "glibc"),
        "fill of the byte 0 (`fm_zero`), aligned and dst+1: vs glibc":
            sweeps(f(f"{k}-set.csv", f"{k}-set-unaligned.csv"), "glibc", "fm_zero"),
        "copy of 12-1024 B known while compiling, aligned and dst+1 src+3: vs DPDK's of a constant":
            sweeps(f(f"{k}-const.csv", f"{k}-const-unaligned.csv"), "dpdk_const", "fm_const"),
        "copy known while compiling: vs `copy_nonoverlapping` of a constant (LLVM's)":
            sweeps(f(f"{k}-const.csv", f"{k}-const-unaligned.csv"), "std_const", "fm_const"),
        "fill known while compiling: vs `write_bytes` of a constant (LLVM's)":
            sweeps(f(f"{k}-const-set.csv", f"{k}-const-set-unaligned.csv"), "std_const", "fm_const"),
        "memmove disjoint, aligned and dst+1 src+3: fastmem memcpy / memmove (target >= 0.95)":
            sweeps(f(f"{k}-move.csv", f"{k}-move-unaligned.csv"), "fm_memcpy"),
        "memmove overlapping, up and down by 1, 17, W+3: vs glibc": sweeps(f(*overlap), "glibc"),
        "memcmp equal: vs glibc": sweeps(f(f"{k}-cmp-memcmp-equal.csv"), "glibc"),
        "memcmp first difference at random: vs glibc": sweeps(f(f"{k}-cmp-memcmp-diff.csv"), "glibc"),
        "bcmp equal: vs glibc": sweeps(f(f"{k}-cmp-bcmp-equal.csv"), "glibc"),
        "bcmp first difference at random: vs glibc": sweeps(f(f"{k}-cmp-bcmp-diff.csv"), "glibc"),
        "exported memcpy symbol, aligned and dst+1 src+3: vs glibc":
            sweeps(sym("copy") + sym("copy-unaligned"), "glibc", "symbol"),
        "exported memcpy symbol: vs compiler_builtins' scheme":
            sweeps(sym("copy") + sym("copy-unaligned"), "cb_movsq", "symbol"),
        "exported memset symbol, aligned and dst+1: vs glibc":
            sweeps(sym("set") + sym("set-unaligned"), "glibc", "symbol"),
        "exported memmove symbol, disjoint, aligned and dst+1 src+3: vs glibc":
            sweeps(sym("move") + sym("move-unaligned"), "glibc", "symbol"),
        "exported memmove symbol, overlapping: vs glibc":
            sweeps([p for m in moves for p in sym(m)], "glibc", "symbol"),
        "exported memcmp symbol, equal and first difference at random: vs glibc":
            sweeps(sym("cmp-memcmp-equal") + sym("cmp-memcmp-diff"), "glibc", "symbol"),
        "exported bcmp symbol, equal and first difference at random: vs glibc":
            sweeps(sym("cmp-bcmp-equal") + sym("cmp-bcmp-diff"), "glibc", "symbol"),
        "large copy 256 KiB-256 MiB: vs glibc": sweeps(f(f"{k}-large-copy.csv"), "glibc"),
        "large copy: vs `rep movsb`": sweeps(f(f"{k}-large-copy.csv"), "rep_movsb"),
        "large fill 256 KiB-256 MiB: vs glibc": sweeps(f(f"{k}-large-set.csv"), "glibc"),
        "large fill: vs `rep stosb`": sweeps(f(f"{k}-large-set.csv"), "rep_stosb"),
    }


def main(root):
    tiers = [t for t in ("avx512", "avx2", "sse") if os.path.isdir(os.path.join(root, t))]
    per = {t: tier_rows(os.path.join(root, t), t) for t in tiers}
    cases = []
    for t in tiers:
        cases += [c for c in per[t] if c not in cases]
    print("| case | " + " | ".join(f"{t}: vs DPDK | vs glibc | vs `rep movsb`" for t in tiers) + " |")
    print("|---|" + "---:|" * (3 * len(tiers)))
    for c in cases:
        cells = []
        for t in tiers:
            cells += list(per[t].get(c, ("—", "—", "—")))
        print(f"| {c} | " + " | ".join(cells) + " |")
    more = {t: more_rows(os.path.join(root, t), t) for t in tiers}
    cases = [c for c in more[tiers[0]] if any(more[t][c] != "—" for t in tiers)] if tiers else []
    if cases:
        print()
        print("| case (geomean over the sizes, worst in brackets) | " + " | ".join(tiers) + " |")
        print("|---|" + "---:|" * len(tiers))
        for c in cases:
            print(f"| {c} | " + " | ".join(more[t][c] for t in tiers) + " |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "benches/results/intel-6-207")
