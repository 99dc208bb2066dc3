//! Hot-L1 criterion benchmarks (issue 3 §2): every size of the list, aligned
//! and unaligned (dst+1, src+3), for `memcpy`, `memcpy_aligned` and `memset`,
//! against DPDK's `rte_memcpy` (copies only: DPDK has no `rte_memset`; the
//! column needs `bash benches/dpdk/fetch-headers.sh`), glibc, `rep
//! movsb`/`rep stosb` and compiler_builtins' default scheme.
//!
//! `cargo bench --bench hot`; for the side-by-side table with interleaved
//! repetitions use `cargo run --release --example sizes` (BENCHMARKS.md).

// criterion_group! defines an undocumented `pub fn`.
#![allow(missing_docs)]

#[allow(dead_code)] // shared with the other benches and examples
mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use support::*;

fn copy(c: &mut Criterion) {
    let bufs = HotBufs::new();
    for unaligned in [false, true] {
        let (dst, src) = bufs.ptrs(unaligned);
        let name = if unaligned { "copy-unaligned" } else { "copy" };
        let mut g = c.benchmark_group(format!("{name}/{}", fastmem::KERNEL.name()));
        for &n in HOT_SIZES {
            g.throughput(Throughput::Bytes(n as u64));
            for CopyImpl { name: imp, f, .. } in copy_impls(!unaligned) {
                g.bench_with_input(BenchmarkId::new(imp, n), &n, |b, &n| {
                    // SAFETY: the hot buffers hold 8 KiB + 64 at either pointer.
                    b.iter(|| unsafe { f(black_box(dst), src, black_box(n)) })
                });
            }
        }
        g.finish();
    }
}

fn set(c: &mut Criterion) {
    let bufs = HotBufs::new();
    for unaligned in [false, true] {
        let (dst, _) = bufs.ptrs(unaligned);
        let name = if unaligned { "set-unaligned" } else { "set" };
        let mut g = c.benchmark_group(format!("{name}/{}", fastmem::KERNEL.name()));
        for &n in HOT_SIZES {
            g.throughput(Throughput::Bytes(n as u64));
            for SetImpl { name: imp, f, .. } in set_impls() {
                g.bench_with_input(BenchmarkId::new(imp, n), &n, |b, &n| {
                    // SAFETY: as above.
                    b.iter(|| unsafe { f(black_box(dst), 0x5a, black_box(n)) })
                });
            }
        }
        g.finish();
    }
}

criterion_group! { name = benches; config = criterion_config(100, 300); targets = copy, set }
criterion_main!(benches);
