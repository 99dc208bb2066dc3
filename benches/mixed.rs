//! Mixed-size criterion benchmarks (issue 3 §2): sizes uniform in 1..=256 and
//! IMIX (64/594/1518 at 7:4:1) in a fixed pseudo-random order, so the
//! size-class branches are not perfectly predicted. One iteration walks the
//! whole `MIXED_LEN`-entry (65,536) size list; the reported time is per list.
//! The copies include DPDK's `rte_memcpy` when its headers are there
//! (`bash benches/dpdk/fetch-headers.sh`); DPDK has no `rte_memset`.

// criterion_group! defines an undocumented `pub fn`.
#![allow(missing_docs)]

#[allow(dead_code)] // shared with the other benches and examples
mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use support::*;

fn mixed(c: &mut Criterion) {
    let bufs = HotBufs::new();
    let (dst, src) = bufs.ptrs(false);
    let mixes = [
        ("uniform-1-256", uniform_sizes(MIXED_LEN, 1, 256, 7)),
        ("imix", imix_sizes(MIXED_LEN, 11)),
    ];
    for (mix, sizes) in &mixes {
        let bytes: usize = sizes.iter().sum();
        let mut g = c.benchmark_group(format!("mixed-copy/{}", fastmem::KERNEL.name()));
        g.throughput(Throughput::Bytes(bytes as u64));
        for CopyImpl { name: imp, seq, .. } in copy_impls(false) {
            // `seq` calls the implementation once per size, directly.
            g.bench_function(BenchmarkId::new(imp, mix), |b| {
                b.iter(|| seq(dst, src, black_box(sizes)))
            });
        }
        g.finish();
        let mut g = c.benchmark_group(format!("mixed-set/{}", fastmem::KERNEL.name()));
        g.throughput(Throughput::Bytes(bytes as u64));
        for SetImpl { name: imp, seq, .. } in set_impls() {
            g.bench_function(BenchmarkId::new(imp, mix), |b| {
                b.iter(|| seq(dst, 0, black_box(sizes)))
            });
        }
        g.finish();
    }
}

criterion_group! { name = benches; config = criterion_config(200, 500); targets = mixed }
criterion_main!(benches);
