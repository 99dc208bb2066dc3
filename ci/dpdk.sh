#!/usr/bin/env bash
# ci/dpdk.sh: the DPDK comparator (benches/dpdk) cannot rot. Fetches DPDK's
# headers (failing loudly when it cannot: no network is a failure here, not
# a skip), builds the comparator with FASTMEM_REQUIRE_DPDK=1, runs its
# differential tests (rte_memcpy of each tier this CPU runs against a byte
# oracle, with canaries; the inlined loops and the vhost enqueue step too),
# then builds the vhost demo and the sizes tool for the native tier and
# checks, in a short run, that both print the DPDK column of the right tier
# and that the demo's own check of every descriptor passes. Under a minute
# once the dependencies are built (from ci/test.sh's base-release, or kept
# in target-ci/dpdk from the last run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
CI_OUT=${CI_TARGET:-$ROOT/target-ci}
OUT=$CI_OUT/dpdk
source ci/tiers.sh

root=$(bash benches/dpdk/fetch-headers.sh | tail -n 1)
export DPDK_ROOT=$root FASTMEM_REQUIRE_DPDK=1
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS

echo "--- differential tests of the comparator"
CARGO_TARGET_DIR=$OUT/comparator cargo test --release --manifest-path benches/dpdk/Cargo.toml

echo "--- the tools with the DPDK column, native tier"
kernel=$(tier_kernel native)
export CARGO_TARGET_DIR=$OUT/native RUSTC_WRAPPER=$ROOT/ci/tier-rustc
FASTMEM_TIER_RUSTFLAGS=$(tier_rustflags native)
export FASTMEM_TIER_RUSTFLAGS
# Start from ci/test.sh's release dependencies when they are there: built
# from scratch they take minutes.
if [[ ! -d $CARGO_TARGET_DIR && -d $CI_OUT/base-release ]]; then
    cp -a "$CI_OUT/base-release" "$CARGO_TARGET_DIR"
fi
# The target folder is this tier's only: the wrapper's flags are not in
# cargo's fingerprints, so fastmem is rebuilt whenever they could differ.
cargo clean --release -p fastmem 2>/dev/null || true
cargo build --release --example vhost_enqueue --example sizes
bin=$CARGO_TARGET_DIR/release/examples
vhost=$("$bin/vhost_enqueue" --packets 20000 --mib 2 --sizes 64,imix,mrg)
echo "$vhost"
grep -q "its $kernel build" <<<"$vhost" || { echo "vhost_enqueue printed no DPDK $kernel column" >&2; exit 1; }
grep -q "dpdk/fm" <<<"$vhost"
sizes=$("$bin/sizes" --suite copy-unaligned --sizes 1,64,4096 --reps 1 --warm-ticks 0 --out "$OUT/sizes")
echo "$sizes"
grep -q "its $kernel build" <<<"$sizes"
grep -q "dpdk_inl/fm_inl" <<<"$sizes" || { echo "sizes printed no DPDK columns" >&2; exit 1; }
echo "ci/dpdk.sh: comparator built and checked ($kernel tier)"
