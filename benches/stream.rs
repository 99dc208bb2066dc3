//! Streaming criterion benchmarks (issue 3 §2): copies of one size walked in
//! order through an L3-resident buffer (16 MiB per side, beyond L2) and a
//! DRAM-sized one (512 MiB per side: more than this host's 260 MiB L3, and at
//! least the 128 MiB the issue asks for). The stride is the size rounded up to
//! 64 B; `dst - src` is 2 KiB away from a multiple of 4096. The cursor keeps
//! moving across iterations and implementations, so each copy reads lines that
//! have not been touched for a whole lap. DPDK's `rte_memcpy` is one of the
//! implementations when its headers are there (`benches/dpdk/fetch-headers.sh`).
//!
//! `FASTMEM_BENCH_DRAM_MIB` overrides the DRAM size (0 skips that group);
//! under `cargo test` (a smoke run) it defaults to 32 MiB.

// criterion_group! defines an undocumented `pub fn`.
#![allow(missing_docs)]

#[allow(dead_code)] // shared with the other benches and examples
mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Instant;
use support::*;

const SIZES: &[usize] = &[64, 128, 256, 512, 1024, 1518, 2048, 4096, 8192, 65536];

fn walk(c: &mut Criterion, group: &str, mib: usize) {
    let len = mib << 20;
    let src = Buf::new(len, 4096);
    let dst = Buf::new(len + 4096, 4096);
    // SAFETY: inside the dst allocation.
    let dbase = unsafe { dst.ptr().add(2048) };
    let mut cursor = 0usize;
    let mut g = c.benchmark_group(format!("{group}/{}", fastmem::KERNEL.name()));
    for &n in SIZES {
        let stride = n.div_ceil(64) * 64;
        g.throughput(Throughput::Bytes(n as u64));
        for CopyImpl { name: imp, f, .. } in copy_impls(true) {
            g.bench_with_input(BenchmarkId::new(imp, n), &n, |b, &n| {
                b.iter_custom(|iters| {
                    let n = black_box(n);
                    let t0 = Instant::now();
                    for _ in 0..iters {
                        if cursor + stride > len {
                            cursor = 0;
                        }
                        // SAFETY: cursor + n <= len on both sides; both
                        // pointers are 64-byte aligned (stride and bases are).
                        unsafe { f(dbase.add(cursor), src.ptr().add(cursor), n) };
                        cursor += stride;
                    }
                    t0.elapsed()
                })
            });
        }
    }
    g.finish();
}

fn stream(c: &mut Criterion) {
    walk(c, "stream-l3", 16);
    // `cargo test` runs this file once per benchmark as a smoke test (no
    // `--bench` argument): a 32 MiB "DRAM" buffer is enough for that.
    let benching = std::env::args().any(|a| a == "--bench");
    let dram = std::env::var("FASTMEM_BENCH_DRAM_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if benching { 512 } else { 32 });
    if dram > 0 {
        walk(c, "stream-dram", dram);
    }
}

criterion_group! { name = benches; config = criterion_config(200, 500); targets = stream }
criterion_main!(benches);
