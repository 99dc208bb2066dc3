#!/usr/bin/env bash
# Run every cargo-fuzz target in fuzz/ for a bounded time on every SIMD tier
# this CPU can run, and on the builds for Zen 4 of the AVX2 and AVX-512
# kernels (avx2-zen4, avx512-zen4: their tunings no other build takes)
# where the fuzz binary holds no SSE4a instruction this CPU lacks
# (`foreign_instructions`, ci/tiers.sh), starting from the seed corpus in
# fuzz/corpus/<target>.
# Installs cargo-fuzz from crates.io when it is missing. Exits non-zero when a
# target crashes (a wrong result, a canary hit or an ASan report); the input
# that did it is saved under fuzz/artifacts/<target>/.
#
#   bash ci/fuzz.sh                      # 30 s per target per tier
#   FUZZ_SECONDS=300 bash ci/fuzz.sh     # longer
#   TIERS=avx2 FUZZ_TARGETS=ops bash ci/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source ci/tiers.sh

FUZZ_SECONDS=${FUZZ_SECONDS:-30}
TIERS=${TIERS:-"$HARDENING_SIMD_TIERS avx2-zen4 avx512-zen4"}
HOST=$(rustc -vV | sed -n 's/^host: //p')
TARGET_BASE=${CARGO_TARGET_DIR:-$ROOT/target}

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "FAIL fuzz: the nightly toolchain is not installed (rustup toolchain install nightly)"
    exit 1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz missing: installing it from crates.io"
    start=$(now_s)
    cargo install cargo-fuzz --locked
    echo "cargo-fuzz installed in $(($(now_s) - start)) s"
fi
cargo fuzz --version

targets=${FUZZ_TARGETS:-$(cargo +nightly fuzz list)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
summary=()

for tier in $TIERS; do
    tier_runnable "$tier" || continue
    export RUSTFLAGS="$(tier_rustflags "$tier")"
    FASTMEM_EXPECT_KERNEL=$(tier_kernel "$tier")
    export FASTMEM_EXPECT_KERNEL
    target_dir=$TARGET_BASE/fuzz-$tier
    for target in $targets; do
        echo "=== fuzz $tier/$target: ${FUZZ_SECONDS} s, RUSTFLAGS='$RUSTFLAGS'"
        start=$(now_s)
        if ! cargo +nightly fuzz build --debug-assertions --target-dir "$target_dir" "$target"; then
            failed+=("$tier/$target: build"); continue
        fi
        echo "built in $(($(now_s) - start)) s"
        if [[ ! -x $target_dir/$HOST/release/$target ]]; then
            failed+=("$tier/$target: no binary at $target_dir/$HOST/release/$target"); continue
        fi
        foreign=$(foreign_instructions "$target_dir/$HOST/release/$target")
        if [[ -n $foreign ]]; then
            line="SKIP fuzz $tier/$target: the fuzz binary holds instructions this CPU lacks: $(head -n 1 <<<"$foreign")"
            echo "$line"
            summary+=("$line")
            continue
        fi
        # New inputs go to a scratch corpus, so the repo's seeds stay as committed.
        corpus=$work/$tier-$target
        mkdir -p "$corpus"
        log=$work/$tier-$target.log
        set +e
        cargo +nightly fuzz run --debug-assertions --target-dir "$target_dir" \
            "$target" "$corpus" "fuzz/corpus/$target" -- \
            -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 >"$log" 2>&1
        rc=$?
        set -e
        runs=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$log" | tail -1)
        cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 || true)
        grep -E '^fastmem fuzz: KERNEL' "$log" | head -1 || true
        if [ "$rc" -ne 0 ]; then
            echo "FAIL $tier/$target (exit $rc):"
            # The report (ASan's, or the target's panic) and how to replay it.
            grep -E -A16 'ERROR: (AddressSanitizer|libFuzzer)|panicked at' "$log" | head -n 40 || tail -n 40 "$log"
            grep -E -A2 '^(Failing input|Reproduce with):' "$log" || true
            failed+=("$tier/$target: crashed, see above")
            continue
        fi
        line="fuzz $tier/$target: ${runs:-?} executions in ${FUZZ_SECONDS} s (${cov:-cov: ?}), corpus $(ls "$corpus" | wc -l) new inputs"
        echo "$line"
        summary+=("$line")
    done
done

printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
    printf 'FAIL fuzz: %s\n' "${failed[@]}"
    exit 1
fi
echo "fuzz: all targets passed"
