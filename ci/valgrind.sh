#!/usr/bin/env bash
# valgrind memcheck over the release test binaries of the SSE and AVX2 tiers.
# valgrind cannot decode AVX-512 instructions, so that tier is not run here
# (ci/asan.sh and ci/fuzz.sh cover it). Exits non-zero when memcheck reports
# an error or a test fails.
#
# By default the two 64 x 64-offset memcpy sweeps are skipped (about 200 s
# under valgrind; copy_all_sizes still runs every length through memcpy) and
# quickcheck runs 100 cases per property. VALGRIND_FULL=1 runs everything.
#
#   bash ci/valgrind.sh
#   TIERS=avx2 VALGRIND_FULL=1 bash ci/valgrind.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source ci/tiers.sh

TIERS=${TIERS:-$HARDENING_SIMD_TIERS}
TARGET_BASE=${CARGO_TARGET_DIR:-$ROOT/target}
export QUICKCHECK_TESTS=${QUICKCHECK_TESTS:-100}

skips=()
if [ "${VALGRIND_FULL:-0}" != 1 ]; then
    skips=(--skip exhaustive::memcpy_all_sizes_and_offsets
        --skip exhaustive::memcpy_generic_all_sizes_and_offsets)
fi

if ! command -v valgrind >/dev/null; then
    echo "FAIL valgrind: not installed (apt-get install valgrind)"
    exit 1
fi

# The tier flags reach fastmem's own crates only, through ci/tier-rustc, so
# the dev-dependencies are built once for both tiers; cargo does not
# fingerprint those flags, so fastmem is cleaned before each tier, and
# FASTMEM_EXPECT_KERNEL makes the suite check the kernel it runs.
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
export RUSTC_WRAPPER=$ROOT/ci/tier-rustc
export CARGO_TARGET_DIR=$TARGET_BASE/valgrind

# executables TIER: build the tier's release test binaries, print their paths.
executables() {
    cargo clean --quiet -p fastmem --release
    FASTMEM_TIER_RUSTFLAGS="$(tier_rustflags "$1")" cargo test --release --tests --no-run \
        --message-format=json-render-diagnostics |
        python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["profile"]["test"] and m.get("executable"):
        print(m["executable"])'
}

failed=()
for tier in $TIERS; do
    if [ "$tier" = avx512 ]; then
        echo "SKIP avx512: valgrind cannot decode AVX-512 instructions; ci/asan.sh and ci/fuzz.sh cover this tier"
        continue
    fi
    tier_runnable "$tier" || continue
    echo "=== valgrind $tier"
    start=$(now_s)
    bins=$(executables "$tier") ||
        { failed+=("$tier: build"); continue; }
    echo "built in $(($(now_s) - start)) s"
    for bin in $bins; do
        t0=$(now_s)
        if FASTMEM_EXPECT_KERNEL=$tier valgrind --tool=memcheck --error-exitcode=1 -q \
            "$bin" -q "${skips[@]}"; then
            echo "valgrind $tier $(basename "$bin"): clean in $(($(now_s) - t0)) s"
        else
            echo "FAIL valgrind $tier $(basename "$bin")"
            failed+=("$tier: $(basename "$bin")")
        fi
    done
    echo "valgrind $tier: $(($(now_s) - start)) s"
done

if [ ${#failed[@]} -ne 0 ]; then
    printf 'FAIL valgrind: %s\n' "${failed[@]}"
    exit 1
fi
echo "valgrind: all tiers passed"
