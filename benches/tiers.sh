#!/usr/bin/env bash
# Builds the benchmark tools once per kernel tier and runs them side by side,
# pinned to one core: the tables in benches/NOTEBOOK.md come from this script
# (the per-CPU results of BENCHMARKS.md from benches/record.sh).
#
#   bash benches/tiers.sh                       # avx512 avx2 sse, default suites
#   TIERS="avx2" SUITES="copy,stream-l3" bash benches/tiers.sh
#   VHOST_ARGS="--mib 512" bash benches/tiers.sh
#
# Environment: TIERS, SUITES (examples/sizes.rs --suite), SIZES_ARGS and
# VHOST_ARGS (extra options), CPU (core to pin, default 1), OUT (results,
# default target/fastmem-bench), BENCH_TARGET (build directories, one per
# tier, default target/bench-tiers), EXTRA_RUSTFLAGS (appended to every
# tier's flags, e.g. "-C llvm-args=-align-loops=64" to see how much code
# placement moves the small-call figures; use another BENCH_TARGET),
# FUNC_ALIGN (default 6: every function starts on a 2^6 = 64-byte
# boundary, as glibc's own memcpy/memset do; the benchmark wrappers
# otherwise start wherever the linker puts them, and that alone moved
# fastmem's 1-64 B figures by up to 1.6 ticks between builds of the same
# kernel code; empty: the linker's default 16 bytes),
# GLIBC_WIDTH (`ifunc`, the default: the glibc variant this CPU's ifuncs
# pick, AVX-512 here; `tier`: glibc held to the tier's vector width through
# GLIBC_TUNABLES, as on a CPU of that tier: __memmove_avx_unaligned_erms and
# __memset_avx2_unaligned_erms for avx2, the sse2 variants for sse).
#
# Each tier is its own binary (the kernel is chosen at compile time), so
# compare tiers through their ratios to glibc, which every run measures in
# the same process, interleaved with fastmem.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TIERS=${TIERS:-"avx512 avx2 sse"}
SUITES=${SUITES:-copy,copy-unaligned,set,set-unaligned,mixed,stream-l3,stream-dram}
CPU=${CPU:-1}
OUT=${OUT:-$ROOT/target/fastmem-bench}
BENCH_TARGET=${BENCH_TARGET:-$ROOT/target/bench-tiers}
source benches/tier-flags.sh

grep -m1 "model name" /proc/cpuinfo
for tier in $TIERS; do
    bench_tier_skipped "$tier" && continue
    flags="$(bench_tier_flags "$tier") $BENCH_COMMON_FLAGS"
    echo "=== $tier: RUSTFLAGS=\"$flags\""
    RUSTFLAGS="$flags" CARGO_TARGET_DIR=$BENCH_TARGET/$tier \
        cargo build --release --quiet --example sizes --example vhost_enqueue
    bin=$BENCH_TARGET/$tier/release/examples
    mkdir -p "$OUT"
    tun=$(glibc_tunables "$tier")
    echo "GLIBC_TUNABLES=$tun"
    # shellcheck disable=SC2086  # the extra arguments are word lists
    GLIBC_TUNABLES=$tun taskset -c "$CPU" "$bin/sizes" --suite "$SUITES" --out "$OUT" ${SIZES_ARGS:-} | tee "$OUT/$tier-sizes.md"
    # shellcheck disable=SC2086
    GLIBC_TUNABLES=$tun taskset -c "$CPU" "$bin/vhost_enqueue" ${VHOST_ARGS:-} | tee "$OUT/$tier-vhost.txt"
done
echo "results: $OUT"
