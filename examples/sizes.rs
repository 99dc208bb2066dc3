//! The fast table tool: TSC ticks per call for a size sweep, every
//! implementation side by side, medians of interleaved repetitions.
//!
//! ```text
//! RUSTFLAGS="-C target-cpu=native" cargo run --release --example sizes -- [options]
//!   --suite LIST   comma-separated, default copy,copy-unaligned,set,set-unaligned,mixed,stream-l3
//!                  copy            hot L1, dst and src 4 KiB-aligned (adds fastmem::memcpy_aligned)
//!                  copy-unaligned  hot L1, dst+1 and src+3
//!                  set, set-unaligned   the same for memset (dst+1)
//!                  mixed           hot, sizes drawn uniform 1..=256 and IMIX 64/594/1518 at 7:4:1;
//!                                  each also with dst+1/src+3, and sorted (branches predicted)
//!                  mixed-pairs     IMIX two sizes at a time (not in the default list)
//!                  move            memmove, hot L1 (not in the default list): disjoint against
//!                                  fastmem::memcpy and glibc's memmove, aligned and dst+1/src+3;
//!                                  then overlapping, src = dst + D (moves up) and dst = src + D
//!                                  (moves down), D = 1, 17 and W + 3, against glibc's memmove
//!                  stream-l3       copies walked in order through 16 MiB per side (beyond L2)
//!                  stream-dram     the same through --dram-mib per side (default 512)
//!                  stream-set-l3, stream-set-dram  the same walks for fills (not in the
//!                                  default list)
//!                  cmp             memcmp and bcmp, hot: equal buffers (4 KiB-aligned), and a
//!                                  single difference at a random position, both pointers moved
//!                                  so that it falls there (not in the default list)
//!                  const, const-unaligned  copies of lengths known while compiling, hot
//!                                  (12-1024 B, a fixed list: each length its own inlined
//!                                  loop): fastmem::memcpy_const, LLVM's own expansion of
//!                                  copy_nonoverlapping, DPDK's rte_memcpy of a constant,
//!                                  and the inlined copies with the length opaque (not in
//!                                  the default list)
//!                  const-set, const-set-unaligned  the same for fills (memset_const,
//!                                  write_bytes)
//!                  large           one copy and one fill at a time of 256 KiB to 256 MiB
//!                                  (--large-sizes), adds fastmem::memcpy_nontemporal /
//!                                  memset_nontemporal; bytes per tick (not in the default list)
//!   --sizes LIST   sizes for the hot and streaming suites (default: issue 3's list;
//!                  the hot suites take 1..=8192)
//!   --large-sizes LIST  sizes for the large suite (default 256 KiB, 1, 4, 16, 64, 256 MiB)
//!   --reps N       interleaved repetitions per point (default 101 hot, 9 streaming)
//!   --out DIR      where the CSV and SVG files go (default target/fastmem-bench)
//!   --dram-mib N   buffer size per side for stream-dram
//!   --warm-ticks N untimed run of each implementation before each timed one
//!                  in the hot suites (default 100000, ~43 us; 0: one call)
//! ```
//!
//! Each repetition walks all sizes and times every implementation once at
//! each, in turn, so a burst of noise from another process lands on all of
//! them alike and on no size in particular; the reported figure is the
//! median over repetitions. The "glibc/fastmem" column is the speed-up
//! (above 1: fastmem is faster); "dpdk/fastmem" the same against DPDK's
//! `rte_memcpy` (its headers: `bash benches/dpdk/fetch-headers.sh`), and
//! "dpdk_inl/fm_inl" the two inlined in their timing loops (the copy suites
//! and mixed add the columns `fm_inline` and `dpdk_inline`; see
//! `benches/support/mod.rs`). DPDK has no `rte_memset`: the fill suites have
//! no DPDK column. Built with `--features c-symbols`, the copy, set, move
//! and cmp suites add the `symbol` column (fastmem's exported `memcpy`,
//! `memset`, `memmove`, `memcmp` and `bcmp`, called as compiler-emitted
//! code calls them) and its "glibc/symbol" speed-up, and "cb/symbol" for
//! copies and fills. Files: `<kernel>-<suite>.csv` and, for the
//! size sweeps, `<kernel>-<suite>.svg` (ticks against size, log-log).

#[allow(dead_code)] // each tool uses a different part of the shared module
#[path = "../benches/support/mod.rs"]
mod support;

use plotters::prelude::*;
use std::fmt::Write as _;
use std::hint::black_box;
use support::*;

struct Opts {
    suites: Vec<String>,
    sizes: Vec<usize>,
    reps: Option<usize>,
    out: String,
    dram_mib: usize,
    warm: u64,
    large_sizes: Vec<usize>,
}

fn parse_list(s: &str) -> Vec<usize> {
    s.split(',')
        .map(|x| {
            x.trim()
                .parse()
                .unwrap_or_else(|_| usage(&format!("bad size {x:?}")))
        })
        .collect()
}

fn usage(msg: &str) -> ! {
    eprintln!("sizes: {msg}\nsee the doc comment at the top of examples/sizes.rs for the options");
    std::process::exit(2)
}

fn parse_args() -> Opts {
    let mut o = Opts {
        suites: "copy,copy-unaligned,set,set-unaligned,mixed,stream-l3"
            .split(',')
            .map(String::from)
            .collect(),
        sizes: HOT_SIZES.to_vec(),
        reps: None,
        out: "target/fastmem-bench".into(),
        dram_mib: 512,
        warm: 100_000,
        large_sizes: [256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20, 256 << 20].to_vec(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{a} needs a value")))
        };
        match a.as_str() {
            "--suite" => o.suites = val().split(',').map(String::from).collect(),
            "--sizes" => o.sizes = parse_list(&val()),
            "--large-sizes" => o.large_sizes = parse_list(&val()),
            "--reps" => o.reps = Some(val().parse().unwrap_or_else(|_| usage("bad --reps"))),
            "--out" => o.out = val(),
            "--warm-ticks" => o.warm = val().parse().unwrap_or_else(|_| usage("bad --warm-ticks")),
            "--dram-mib" => o.dram_mib = val().parse().unwrap_or_else(|_| usage("bad --dram-mib")),
            "--help" | "-h" => usage("help"),
            // `cargo bench` passes --bench to every target; ignore it.
            "--bench" => {}
            _ => usage(&format!("unknown option {a}")),
        }
    }
    // The hot suites work in HotBufs, which holds 8 KiB a side; a larger
    // size there would write past the buffer. (`move` leaves such sizes
    // out; the streaming suites have buffers of their own.)
    let hot = ["copy", "copy-unaligned", "set", "set-unaligned", "cmp"];
    if o.suites.iter().any(|s| hot.contains(&s.as_str())) {
        if let Some(n) = o.sizes.iter().find(|&&n| n == 0 || n > HOT_MAX) {
            usage(&format!(
                "--sizes {n}: the hot suites ({}) take sizes 1..={HOT_MAX}; \
                 for larger ones use --suite large --large-sizes",
                hot.join(", ")
            ));
        }
    }
    o
}

/// The largest size the hot suites time (HotBufs' room per side).
const HOT_MAX: usize = 8 << 10;

/// One suite's results: `rows[i]` is the label of point `i` (a size or a mix
/// name), `ticks[j][i]` the median for implementation `j` at that point.
struct Table {
    suite: String,
    x: Vec<usize>,
    labels: Vec<String>,
    impls: Vec<&'static str>,
    ticks: Vec<Vec<f64>>,
}

/// Interleaved medians. Each of `reps` rounds walks every point and, at
/// each, times every implementation once, starting with a different one each
/// round. Rounds are outermost so that a slow spell on the shared machine
/// spreads over all points instead of spoiling a few; the median of each
/// (point, implementation) is reported.
///
/// Before its timed run at a point, each implementation runs untimed for at
/// least `warm` ticks: caches and branch predictors, and, above all, the
/// upper halves of the 512-bit units, which the core powers down after some
/// microseconds without zmm instructions and brings back at reduced
/// throughput for tens of microseconds (`--warm-ticks 0` shows the cost).
fn sweep(
    points: usize,
    nimpl: usize,
    reps: usize,
    warm: u64,
    mut measure: impl FnMut(usize, usize) -> f64,
) -> Vec<Vec<f64>> {
    // samples[point][implementation]
    let mut samples = vec![vec![Vec::with_capacity(reps); nimpl]; points];
    for r in 0..reps {
        for (p, row) in samples.iter_mut().enumerate() {
            for k in 0..nimpl {
                let j = (k + r) % nimpl;
                // The warm-up sits right before the timing it serves: done
                // for all implementations up front, as it once was, the
                // first one timed followed `rep movsb`/`rep stosb` (no
                // vector registers) and paid the vector units' wake-up,
                // up to 1.8x its ticks at 256 B-2 KiB.
                let t0 = ticks();
                measure(j, p);
                while ticks() - t0 < warm {
                    measure(j, p);
                }
                let t = measure(j, p);
                row[j].push(t);
            }
        }
    }
    (0..nimpl)
        .map(|j| samples.iter_mut().map(|row| median(&mut row[j])).collect())
        .collect()
}

fn hot_copy(o: &Opts, unaligned: bool) -> Table {
    let bufs = HotBufs::new();
    let (dst, src) = bufs.ptrs(unaligned);
    let mut impls = copy_impls(!unaligned);
    impls.extend(inline_copy_impls());
    hot_table(
        o,
        if unaligned { "copy-unaligned" } else { "copy" },
        &impls,
        dst,
        src,
    )
}

/// Copies (fills with `set`) of lengths known while compiling, hot, each
/// its own inlined loop (`const_loop!` in `benches/support/mod.rs`): tables
/// `const`, `const-unaligned`, `const-set` and `const-set-unaligned`. The
/// lengths are [`CONST_SIZES`], whatever `--sizes` says: each needs its
/// own code.
fn hot_const(o: &Opts, set: bool, unaligned: bool) -> Table {
    let bufs = HotBufs::new();
    let (dst, src) = bufs.ptrs(unaligned);
    let impls = if set {
        const_set_impls()
    } else {
        const_copy_impls()
    };
    let reps = o.reps.unwrap_or(101);
    let ticks = sweep(CONST_SIZES.len(), impls.len(), reps, o.warm, |j, p| {
        let n = CONST_SIZES[p];
        let t = (impls[j].hot)(dst, src, n, hot_iters(n));
        assert!(t >= 0.0, "{}: no loop for {n} B", impls[j].name);
        t
    });
    let suite = match (set, unaligned) {
        (false, false) => "const",
        (false, true) => "const-unaligned",
        (true, false) => "const-set",
        (true, true) => "const-set-unaligned",
    };
    table(
        suite,
        CONST_SIZES,
        impls.iter().map(|i| i.name).collect(),
        ticks,
    )
}

/// The hot sweep of `impls` over the sizes, from `src` to `dst`.
fn hot_table(o: &Opts, suite: &str, impls: &[CopyImpl], dst: *mut u8, src: *const u8) -> Table {
    let reps = o.reps.unwrap_or(101);
    let ticks = sweep(o.sizes.len(), impls.len(), reps, o.warm, |j, p| {
        let n = o.sizes[p];
        (impls[j].hot)(dst, src, n, hot_iters(n))
    });
    table(
        suite,
        &o.sizes,
        impls.iter().map(|i| i.name).collect(),
        ticks,
    )
}

/// `memmove`: disjoint (as `copy` and `copy-unaligned`), with
/// `fastmem::memcpy` beside it; then overlapping in one buffer at a few
/// distances each way. Sizes above 8 KiB are left out.
fn hot_move(o: &Opts) -> Vec<Table> {
    let bufs = HotBufs::new();
    let o = Opts {
        sizes: o.sizes.iter().copied().filter(|&n| n <= HOT_MAX).collect(),
        suites: vec![],
        out: String::new(),
        large_sizes: vec![],
        ..*o
    };
    let mut tables = vec![];
    for (suite, unaligned) in [("move", false), ("move-unaligned", true)] {
        let (dst, src) = bufs.ptrs(unaligned);
        tables.push(hot_table(&o, suite, &move_impls(true), dst, src));
    }
    // The source side of the hot buffers: 4 KiB-aligned, 18 KiB before
    // the destination side, so `p + 8 KiB + D` stays inside.
    let p = bufs.ptrs(false).1.cast_mut();
    let w = fastmem::KERNEL.vector_bytes();
    for d in [1, 17, w + 3] {
        // SAFETY: `p + d + 8 KiB` lies in the 64 KiB buffer.
        let q = unsafe { p.add(d) };
        tables.push(hot_table(
            &o,
            &format!("move-up{d}"),
            &move_impls(false),
            p,
            q,
        ));
        tables.push(hot_table(
            &o,
            &format!("move-down{d}"),
            &move_impls(false),
            q,
            p,
        ));
    }
    tables
}

fn hot_set(o: &Opts, unaligned: bool) -> Table {
    let bufs = HotBufs::new();
    let (dst, _) = bufs.ptrs(unaligned);
    let impls = set_impls();
    let reps = o.reps.unwrap_or(101);
    let ticks = sweep(o.sizes.len(), impls.len(), reps, o.warm, |j, p| {
        let n = o.sizes[p];
        (impls[j].hot)(dst, 0x5a, n, hot_iters(n))
    });
    table(
        if unaligned { "set-unaligned" } else { "set" },
        &o.sizes,
        impls.iter().map(|i| i.name).collect(),
        ticks,
    )
}

fn table(suite: &str, sizes: &[usize], impls: Vec<&'static str>, ticks: Vec<Vec<f64>>) -> Table {
    Table {
        suite: suite.into(),
        x: sizes.to_vec(),
        labels: sizes.iter().map(|n| n.to_string()).collect(),
        impls,
        ticks,
    }
}

/// Hot buffers, sizes from a fixed pseudo-random sequence, so the size-class
/// branches are mispredicted about as often as in a real datapath.
///
/// The sequence is 65,536 sizes long: a 4,096-size one, timed over and
/// over, was partly learnt by the branch predictor, by how much depending
/// on the code (three builds of fastmem with the same ladder in another
/// order took 10.7, 12.7 and 14.8 ticks a call on it, 17.4-18.4 on this
/// one; BENCHMARKS.md, "Method").
///
/// Two more rows of each mix: with dst+1/src+3, and with the same sizes
/// sorted, so that every size-class branch is predicted: the difference
/// between a sorted row and its random one is what the mispredicted
/// branches cost each implementation.
fn mixed(o: &Opts) -> Vec<Table> {
    let sorted = |mut v: Vec<usize>| {
        v.sort_unstable();
        v
    };
    let uniform = uniform_sizes(MIXED_LEN, 1, 256, 7);
    let imix = imix_sizes(MIXED_LEN, 11);
    time_mixes(
        o,
        "mixed",
        vec![
            ("uniform 1-256", uniform.clone(), false),
            ("IMIX 7:4:1", imix.clone(), false),
            ("uniform, dst+1 src+3", uniform.clone(), true),
            ("IMIX, dst+1 src+3", imix.clone(), true),
            ("uniform, sorted", sorted(uniform), false),
            ("IMIX, sorted", sorted(imix), false),
        ],
    )
}

/// IMIX taken apart: two sizes at a time, each IMIX size replaced by one
/// of the two (so the shares are 7:5 or 11:1) in the IMIX sequence's
/// random order, to see which switch between size classes
/// costs what: the no-loop ladder against the loop (64/594, 64/1518),
/// within the ladder (64/256), within the loop (594/1518, 600/1200).
fn mixed_pairs(o: &Opts) -> Vec<Table> {
    let imix = imix_sizes(MIXED_LEN, 11);
    let pair = |small: usize, large: usize, big: usize| -> Vec<usize> {
        imix.iter()
            .map(|&n| match n {
                64 => small,
                594 => large,
                _ => big,
            })
            .collect()
    };
    time_mixes(
        o,
        "mixed-pairs",
        vec![
            ("64 / 594 at 7:5", pair(64, 594, 594), false),
            ("64 / 1518 at 11:1", pair(64, 64, 1518), false),
            ("64 / 256 at 7:5", pair(64, 256, 256), false),
            ("594 / 1518 at 11:1", pair(594, 594, 1518), false),
            ("600 / 1200 at 11:1", pair(600, 600, 1200), false),
        ],
    )
}

/// Times every copy and fill implementation on each mix, interleaved:
/// tables `<name>-copy` and `<name>-set`, one row per mix. A mix is (label,
/// sizes, dst+1/src+3 rather than aligned pointers).
fn time_mixes(o: &Opts, name: &str, mixes: Vec<(&str, Vec<usize>, bool)>) -> Vec<Table> {
    let bufs = HotBufs::new();
    let reps = o.reps.unwrap_or(101);
    let labels: Vec<String> = mixes.iter().map(|m| m.0.to_string()).collect();
    let mut ci = copy_impls(false);
    ci.extend(inline_copy_impls());
    let si = set_impls();
    let tc = sweep(mixes.len(), ci.len(), reps, o.warm, |j, p| {
        let (dst, src) = bufs.ptrs(mixes[p].2);
        (ci[j].seq)(dst, src, &mixes[p].1)
    });
    let ts = sweep(mixes.len(), si.len(), reps, o.warm, |j, p| {
        let (dst, _) = bufs.ptrs(mixes[p].2);
        (si[j].seq)(dst, 0, &mixes[p].1)
    });
    vec![
        Table {
            suite: format!("{name}-copy"),
            x: vec![],
            labels: labels.clone(),
            impls: ci.iter().map(|i| i.name).collect(),
            ticks: tc,
        },
        Table {
            suite: format!("{name}-set"),
            x: vec![],
            labels,
            impls: si.iter().map(|i| i.name).collect(),
            ticks: ts,
        },
    ]
}

/// How many calls one timing of the compare suite's difference case makes,
/// each at its own position: long enough that the branch predictor does
/// not learn the sequence (see [`mixed`]).
const CMP_STEPS: usize = 16_384;

/// `memcmp` and `bcmp`, fastmem's against the platform's, on hot buffers:
/// tables `cmp-memcmp-equal`, `cmp-bcmp-equal` (the same bytes on both
/// sides, 4 KiB-aligned), `cmp-memcmp-diff` and `cmp-bcmp-diff` (one
/// differing byte at a position drawn uniformly from `0..n` per call).
///
/// For the difference case `b` holds one non-zero byte, at `n - 1`, and
/// `a` none; a call whose first difference is at `p` compares `a + s` with
/// `b + s`, `s = n - 1 - p`. The positions are drawn once per size, so
/// every implementation sees the same sequence; the operands' alignment
/// moves with `s`, the same for all.
fn hot_cmp(o: &Opts) -> Vec<Table> {
    let bufs = HotBufs::new();
    // `b` in the dst half, `a` in the src half: 2 * 8 KiB fits in each.
    let (b, a) = bufs.ptrs(false);
    let impls = cmp_impls();
    let reps = o.reps.unwrap_or(101);
    let equal = sweep(o.sizes.len(), impls.len(), reps, o.warm, |j, p| {
        let n = o.sizes[p];
        (impls[j].hot)(a, b, n, hot_iters(n))
    });
    let steps: Vec<Vec<(usize, usize)>> = o
        .sizes
        .iter()
        .map(|&n| {
            let mut rng = Rng::new(n as u64 + 17);
            (0..CMP_STEPS)
                .map(|_| (n - 1 - rng.range(0, n - 1), n))
                .collect()
        })
        .collect();
    let diff = sweep(o.sizes.len(), impls.len(), reps, o.warm, |j, p| {
        let n = o.sizes[p];
        // SAFETY: `n - 1 < 8 KiB`, inside `b`'s half of the buffer.
        unsafe { b.add(n - 1).write(0xA5) };
        let t = (impls[j].slide)(a, b, &steps[p]);
        // SAFETY: as above.
        unsafe { b.add(n - 1).write(0) };
        t
    });
    let mut tables = Vec::new();
    // `memcmp`'s implementations, then `bcmp`'s, as many of each.
    let per = impls.len() / 2;
    for (case, ticks) in [("equal", equal), ("diff", diff)] {
        for (k, which) in ["memcmp", "bcmp"].into_iter().enumerate() {
            let of = per * k..per * (k + 1);
            tables.push(table(
                &format!("cmp-{which}-{case}"),
                &o.sizes,
                impls[of.clone()].iter().map(|i| i.name).collect(),
                ticks[of].to_vec(),
            ));
        }
    }
    tables
}

/// Copies of `n` bytes walked in order through `mib` MiB per side, at a
/// 64-byte-rounded stride, with one cursor shared by all implementations so
/// each timing reads data that has not been touched for a whole lap.
fn stream(o: &Opts, suite: &str, mib: usize) -> Table {
    let impls = copy_impls(true);
    let names = impls.iter().map(|i| i.name).collect();
    stream_walk(o, suite, mib, names, |j, d, s, n| {
        // SAFETY: `stream_walk` passes `n` bytes in range on both sides.
        unsafe { black_box(impls[j].f)(d, s, n) }
    })
}

/// Fills of `n` bytes walked as [`stream`] walks its copies: the
/// destination has not been touched for a whole lap, so every fill writes
/// lines that are not in L1 (nor in L2, for `stream-set-l3`).
fn stream_set(o: &Opts, suite: &str, mib: usize) -> Table {
    let impls = set_impls();
    let names = impls.iter().map(|i| i.name).collect();
    stream_walk(o, suite, mib, names, |j, d, _, n| {
        // SAFETY: as in `stream`.
        unsafe { black_box(impls[j].f)(d, 0x5A, n) }
    })
}

/// The walk of [`stream`] and [`stream_set`]: `call(j, dst, src, n)` runs
/// implementation `j` once, at the shared cursor.
fn stream_walk(
    o: &Opts,
    suite: &str,
    mib: usize,
    names: Vec<&'static str>,
    call: impl Fn(usize, *mut u8, *const u8, usize),
) -> Table {
    let len = mib << 20;
    let src = Buf::new(len, 4096);
    let dst = Buf::new(len + 4096, 4096);
    // dst - src is then 2 KiB off a multiple of 4096: no 4K aliasing.
    // SAFETY: inside the dst allocation.
    let dbase = unsafe { dst.ptr().add(2048) };
    let reps = o.reps.unwrap_or(9);
    let sizes: Vec<usize> = o.sizes.iter().copied().filter(|&n| n >= 16).collect();
    let mut cursor = 0usize;
    let ticks = sweep(sizes.len(), names.len(), reps, 0, |j, p| {
        let n = sizes[p];
        let stride = n.div_ceil(64) * 64;
        let count = ((1 << 20) / stride).max(64);
        let nn = black_box(n);
        let t0 = ticks();
        for _ in 0..count {
            if cursor + stride > len {
                cursor = 0;
            }
            // SAFETY: cursor + n <= len on both sides.
            call(
                j,
                unsafe { dbase.add(cursor) },
                unsafe { src.ptr().add(cursor) },
                nn,
            );
            cursor += stride;
        }
        (ticks() - t0) as f64 / count as f64
    });
    table(suite, &sizes, names, ticks)
}

/// The speed-up columns, `(other, fastmem variant, heading)`, each printed
/// when the table has both. The `symbol` ones are the exported C symbols'
/// targets (issue 11 §6): at least 1.0x glibc, and at least 5x
/// compiler_builtins' scheme from 64 B.
const RATIOS: &[(&str, &str, &str)] = &[
    ("glibc", "fastmem", "glibc/fastmem"),
    ("dpdk", "fastmem", "dpdk/fastmem"),
    ("dpdk_inline", "fm_inline", "dpdk_inl/fm_inl"),
    ("glibc", "symbol", "glibc/symbol"),
    ("dpdk_const", "fm_const", "dpdk_c/fm_c"),
    ("std_const", "fm_const", "std_c/fm_c"),
    ("cb_movsq", "symbol", "cb/symbol"),
    ("cb_stosq", "symbol", "cb/symbol"),
];

/// One copy and one fill of each large size, one call per timing, `reps`
/// rounds; each round walks the sizes and, at each, times every
/// implementation once in a fresh random order (the other suites rotate a
/// fixed order, which here made the implementation timed right after the
/// non-temporal one pay for the lines it had pushed out: three `rep
/// stosb` columns differed by 14% at 16 MiB). Before its timed call each
/// implementation makes [`LARGE_WARM_CALLS`] untimed calls on the same
/// buffers, so it meets them as a program that repeats the copy does:
/// within the caches when the size fits (a non-temporal copy having pushed
/// its destination out), from memory when it does not. `dst - src` is 2112
/// bytes off a multiple of 4096, as in issue 10's measurements. Printed as
/// bytes per tick (`print_rate_table`).
fn large(o: &Opts) -> Vec<Table> {
    let max = o.large_sizes.iter().copied().max().unwrap_or(0);
    let src = Buf::new(max, 4096);
    let dst = Buf::new(max + 4096, 4096);
    // SAFETY: inside the dst allocation, which has 4096 bytes to spare.
    let (d, s) = (unsafe { dst.ptr().add(2112) }, src.ptr().cast_const());
    let reps = o.reps.unwrap_or(11);
    let sizes = &o.large_sizes;
    let ci = large_copy_impls();
    let si = large_set_impls();
    // SAFETY (both): both buffers hold `max >= n` bytes, and do not overlap.
    let tc = shuffled(sizes, ci.len(), reps, 1, |j, n| unsafe {
        (ci[j].f)(d, s, n)
    });
    let ts = shuffled(sizes, si.len(), reps, 2, |j, n| unsafe {
        (si[j].f)(d, 0x5a, n)
    });
    vec![
        table("large-copy", sizes, ci.iter().map(|i| i.name).collect(), tc),
        table("large-set", sizes, si.iter().map(|i| i.name).collect(), ts),
    ]
}

/// Untimed calls before each timed one in the large suite. One was not
/// enough: with it, fastmem's fill of 16 MiB, one `rep stosb` as in the
/// `rep_stosb` column, ran at 5.9 bytes per tick against that column's
/// 9.4-11.4 in three runs, and at 11.4 against 11.6 with another seed of
/// the random order (the implementations timed before it, not the code,
/// made the difference); the recorded 4-16 MiB ratios swung by as much.
/// With two, the identical columns agreed within 7% at every size and seed
/// tried (benches/NOTEBOOK.md, "Large copies: two untimed calls").
const LARGE_WARM_CALLS: usize = 2;

/// `reps` rounds over `sizes`, every implementation once per size in a
/// random order, each timed on the call after [`LARGE_WARM_CALLS`] untimed
/// ones; medians, as `ticks[implementation][size]`.
fn shuffled(
    sizes: &[usize],
    nimpl: usize,
    reps: usize,
    seed: u64,
    call: impl Fn(usize, usize),
) -> Vec<Vec<f64>> {
    let mut rng = Rng::new(seed);
    let mut samples = vec![vec![Vec::with_capacity(reps); sizes.len()]; nimpl];
    for _ in 0..reps {
        for (p, &n) in sizes.iter().enumerate() {
            let mut order: Vec<usize> = (0..nimpl).collect();
            for i in (1..nimpl).rev() {
                order.swap(i, rng.range(0, i));
            }
            for j in order {
                let n = black_box(n);
                for _ in 0..LARGE_WARM_CALLS {
                    call(j, n);
                }
                let t0 = ticks();
                call(j, n);
                samples[j][p].push((ticks() - t0) as f64);
            }
        }
    }
    samples
        .iter_mut()
        .map(|per| per.iter_mut().map(|v| median(v)).collect())
        .collect()
}

/// Bytes per tick of every implementation (higher is better), and fastmem
/// and its non-temporal variant against the better of glibc and the string
/// instruction: the large suite's target is at least 0.95.
fn print_rate_table(t: &Table) -> String {
    let mut s = String::from("| size |");
    for i in &t.impls {
        write!(s, " {i} |").unwrap();
    }
    s.push_str(" fastmem / best | fm_nontemporal / best |\n|---:|");
    for _ in &t.impls {
        s.push_str("---:|");
    }
    s.push_str("---:|---:|\n");
    let col = |name: &str| t.impls.iter().position(|&n| n == name);
    let rivals: Vec<usize> = ["glibc", "rep_movsb", "rep_stosb"]
        .iter()
        .filter_map(|n| col(n))
        .collect();
    for (p, &n) in t.x.iter().enumerate() {
        let rate = |j: usize| n as f64 / t.ticks[j][p];
        let label = if n >= 1 << 20 {
            format!("{} MiB", n >> 20)
        } else {
            format!("{} KiB", n >> 10)
        };
        write!(s, "| {label} |").unwrap();
        for j in 0..t.impls.len() {
            write!(s, " {:.2} |", rate(j)).unwrap();
        }
        let best = rivals.iter().map(|&j| rate(j)).fold(0.0, f64::max);
        for name in ["fastmem", "fm_nontemporal"] {
            match col(name) {
                Some(j) => write!(s, " {:.2} |", rate(j) / best).unwrap(),
                None => s.push_str(" |"),
            }
        }
        s.push('\n');
    }
    s
}

fn print_table(t: &Table) -> String {
    let mut s = String::new();
    let at = |name: &str| t.impls.iter().position(|&n| n == name);
    let fm = at("fastmem");
    let ratios: Vec<(usize, usize, &str)> = RATIOS
        .iter()
        .filter_map(|&(a, b, head)| Some((at(a)?, at(b)?, head)))
        .collect();
    write!(s, "| size |").unwrap();
    for i in &t.impls {
        write!(s, " {i} |").unwrap();
    }
    for (_, _, head) in &ratios {
        write!(s, " {head} |").unwrap();
    }
    s.push_str(" fastmem B/tick |\n|---:|");
    for _ in 0..t.impls.len() + ratios.len() {
        s.push_str("---:|");
    }
    s.push_str("---:|\n");
    for (p, label) in t.labels.iter().enumerate() {
        write!(s, "| {label} |").unwrap();
        for j in 0..t.impls.len() {
            write!(s, " {:.1} |", t.ticks[j][p]).unwrap();
        }
        for &(a, b, _) in &ratios {
            write!(s, " {:.2} |", t.ticks[a][p] / t.ticks[b][p]).unwrap();
        }
        match (fm, t.x.get(p)) {
            (Some(f), Some(&n)) => write!(s, " {:.1} |", n as f64 / t.ticks[f][p]).unwrap(),
            _ => s.push_str(" |"),
        }
        s.push('\n');
    }
    // Over a size sweep, the speed-ups' geometric mean and their worst
    // point: the two figures issue 10's targets are stated in.
    if !t.x.is_empty() && !ratios.is_empty() {
        let pad = " |".repeat(t.impls.len());
        let (mut geo, mut worst) = (format!("| geomean |{pad}"), format!("| worst |{pad}"));
        for &(a, b, _) in &ratios {
            let r: Vec<f64> = (0..t.x.len())
                .map(|p| t.ticks[a][p] / t.ticks[b][p])
                .collect();
            let g = (r.iter().map(|v| v.ln()).sum::<f64>() / r.len() as f64).exp();
            write!(geo, " {g:.2} |").unwrap();
            write!(
                worst,
                " {:.2} |",
                r.iter().copied().fold(f64::INFINITY, f64::min)
            )
            .unwrap();
        }
        writeln!(s, "{geo} |\n{worst} |").unwrap();
    }
    s
}

fn write_csv(t: &Table, path: &str) -> std::io::Result<()> {
    let mut s = String::from("suite,kernel,size,impl,ticks\n");
    for (p, label) in t.labels.iter().enumerate() {
        // A mix's label may hold a comma ("IMIX, dst+1 src+3"): quoted.
        let label = if label.contains(',') {
            format!("\"{label}\"")
        } else {
            label.clone()
        };
        for (j, name) in t.impls.iter().enumerate() {
            writeln!(
                s,
                "{},{},{},{},{:.3}",
                t.suite,
                fastmem::KERNEL.name(),
                label,
                name,
                t.ticks[j][p]
            )
            .unwrap();
        }
    }
    std::fs::write(path, s)
}

/// 1-2-5 steps per decade across `lo..hi`, the labelled lines of the y axis.
fn y_keys(lo: f64, hi: f64) -> Vec<f64> {
    let mut keys = Vec::new();
    let mut decade = 10f64.powf(lo.log10().floor());
    while decade <= hi {
        for m in [1.0, 2.0, 5.0] {
            let k = m * decade;
            if (lo..=hi).contains(&k) {
                keys.push(k);
            }
        }
        decade *= 10.0;
    }
    keys
}

fn plot(t: &Table, path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let xmax = *t.x.iter().max().unwrap_or(&1) as f64;
    let xmin = *t.x.iter().min().unwrap_or(&1) as f64;
    let all = t.ticks.iter().flatten().copied();
    let ymax = all.clone().fold(0.0f64, f64::max) * 1.5;
    let ymin = all.fold(f64::INFINITY, f64::min).max(0.1) / 1.5;
    let root = SVGBackend::new(path, (900, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!(
        "{} — kernel {} — {} per call (median, lower is better)",
        t.suite,
        fastmem::KERNEL.name(),
        TICK_UNIT
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (xmin..xmax)
                .log_scale()
                .with_key_points(t.x.iter().map(|&n| n as f64).collect()),
            (ymin..ymax).log_scale().with_key_points(y_keys(ymin, ymax)),
        )?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_desc("bytes per call")
        .y_desc(TICK_UNIT)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v}"))
        .draw()?;
    for (j, name) in t.impls.iter().enumerate() {
        // One colour per implementation across every plot.
        let c = match *name {
            "fastmem" => RED,
            "fm_aligned" => RGBColor(255, 140, 0),
            "fm_inline" => RGBColor(150, 0, 0),
            "dpdk" => BLACK,
            "dpdk_inline" => RGBColor(120, 120, 120),
            "glibc" => BLUE,
            "rep_movsb" | "rep_stosb" => GREEN,
            "cb_movsq" | "cb_stosq" => MAGENTA,
            _ => [CYAN, YELLOW][j % 2],
        };
        let pts: Vec<(f64, f64)> =
            t.x.iter()
                .map(|&n| n as f64)
                .zip(t.ticks[j].iter().copied())
                .collect();
        chart
            .draw_series(LineSeries::new(
                pts.clone(),
                c.stroke_width(if j == 0 { 3 } else { 2 }),
            ))?
            .label(*name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

fn main() {
    let o = parse_args();
    std::fs::create_dir_all(&o.out).expect("create --out directory");
    let k = fastmem::KERNEL.name();
    println!(
        "fastmem kernel: {k} ({} B vectors{}); {} per call, medians of interleaved repetitions; TSC {:.2} GHz",
        fastmem::KERNEL.vector_bytes(),
        cfg_note(),
        TICK_UNIT,
        ticks_per_second() / 1e9
    );
    println!("{}", dpdk_note());
    for suite in &o.suites {
        let tables = match suite.as_str() {
            "copy" => vec![hot_copy(&o, false)],
            "copy-unaligned" => vec![hot_copy(&o, true)],
            "set" => vec![hot_set(&o, false)],
            "set-unaligned" => vec![hot_set(&o, true)],
            "mixed" => mixed(&o),
            "mixed-pairs" => mixed_pairs(&o),
            "move" => hot_move(&o),
            "const" => vec![hot_const(&o, false, false)],
            "const-unaligned" => vec![hot_const(&o, false, true)],
            "const-set" => vec![hot_const(&o, true, false)],
            "const-set-unaligned" => vec![hot_const(&o, true, true)],
            "cmp" => hot_cmp(&o),
            "stream-l3" => vec![stream(&o, "stream-l3", 16)],
            "stream-dram" => vec![stream(&o, "stream-dram", o.dram_mib)],
            "stream-set-l3" => vec![stream_set(&o, "stream-set-l3", 16)],
            "stream-set-dram" => vec![stream_set(&o, "stream-set-dram", o.dram_mib)],
            "large" => large(&o),
            other => usage(&format!("unknown suite {other}")),
        };
        for t in tables {
            let printed = if t.suite.starts_with("large") {
                print_rate_table(&t)
            } else {
                print_table(&t)
            };
            println!("\n### {} ({k})\n\n{printed}", t.suite);
            let base = format!("{}/{k}-{}", o.out, t.suite);
            write_csv(&t, &format!("{base}.csv")).expect("write csv");
            if !t.x.is_empty() {
                plot(&t, &format!("{base}.svg")).expect("plot");
            }
        }
    }
}
