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
    sizes = sorted({s for s, i in t if i == fm}, key=int)
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


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "benches/results/intel-6-207")
