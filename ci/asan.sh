#!/usr/bin/env bash
# The unit and integration tests under AddressSanitizer, for every SIMD tier
# this CPU can run: `cargo +nightly test -Zsanitizer=address` with the tier's
# target features. Debug builds by default (debug_assert!s on; quicker to
# build than release with this suite's inlining); ASAN_PROFILE=release for an
# optimised build that keeps debug assertions. Exits non-zero on any failure.
#
#   bash ci/asan.sh
#   TIERS=avx2 ASAN_PROFILE=release bash ci/asan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source ci/tiers.sh

TIERS=${TIERS:-$HARDENING_SIMD_TIERS}
TARGET_BASE=${CARGO_TARGET_DIR:-$ROOT/target}
ASAN_PROFILE=${ASAN_PROFILE:-debug}
HOST=x86_64-unknown-linux-gnu

profile_args=()
extra_flags=""
if [ "$ASAN_PROFILE" = release ]; then
    profile_args=(--release)
    extra_flags="-C debug-assertions"
fi

# tests/suite/guard.rs proves its PROT_NONE pages work by letting a child
# process die of SIGSEGV; ASan's own SEGV handler would make the child exit 1
# instead. So that one test runs in a second pass with handle_segv=0, and the
# first pass keeps ASan's handler, which prints a stack trace for any fault.
GUARD_CHILD_TEST=guard::guard_page_faults
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

# The sanitizer and tier flags reach fastmem's own crates only, through
# ci/tier-rustc: the dev-dependencies (quickcheck, criterion, ...) are built
# once, uninstrumented, and shared by every tier; ASan still intercepts every
# allocation. Cargo does not fingerprint those flags, so fastmem is cleaned
# before each tier, and FASTMEM_EXPECT_KERNEL makes the suite check that the
# kernel it runs is the tier's.
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
export RUSTC_WRAPPER=$ROOT/ci/tier-rustc
export CARGO_TARGET_DIR=$TARGET_BASE/asan-$ASAN_PROFILE

failed=()
for tier in $TIERS; do
    tier_runnable "$tier" || continue
    echo "=== asan $tier ($ASAN_PROFILE)"
    start=$(now_s)
    cargo +nightly clean --quiet -p fastmem "${profile_args[@]}" --target "$HOST"
    export FASTMEM_TIER_RUSTFLAGS="-Zsanitizer=address $extra_flags $(tier_rustflags "$tier")"
    export FASTMEM_EXPECT_KERNEL=$tier
    # --target: the sanitizer flags then reach only target code, not build
    # scripts or proc-macros.
    if cargo +nightly test "${profile_args[@]}" --target "$HOST" --tests --no-fail-fast -- --skip "$GUARD_CHILD_TEST" &&
        ASAN_OPTIONS="$ASAN_OPTIONS:handle_segv=0:handle_sigbus=0" \
            cargo +nightly test "${profile_args[@]}" --target "$HOST" --test suite -- --exact "$GUARD_CHILD_TEST"; then
        echo "asan $tier: passed in $(($(now_s) - start)) s"
    else
        echo "FAIL asan $tier after $(($(now_s) - start)) s"
        failed+=("$tier")
    fi
done

if [ ${#failed[@]} -ne 0 ]; then
    echo "FAIL asan: ${failed[*]}"
    exit 1
fi
echo "asan: all tiers passed"
