#!/usr/bin/env bash
# Build and run ci/freestanding (no std, no C runtime, its own _start) for
# every tier this CPU can run; print its code size. Exits non-zero when a
# build fails, the self-check fails, the binary links anything dynamic,
# memcpy or memset is not fastmem's (its c-symbols feature), or the
# deliberately sabotaged run does not fail.
#
#   bash ci/freestanding.sh            # all tiers
#   TIERS="sse portable" bash ci/freestanding.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source ci/tiers.sh

TIERS=${TIERS:-"$HARDENING_SIMD_TIERS portable"}
TARGET_BASE=${CARGO_TARGET_DIR:-$ROOT/target}
failed=()

for tier in $TIERS; do
    tier_runnable "$tier" || continue
    echo "=== freestanding: $tier"
    target_dir=$TARGET_BASE/freestanding-$tier
    bin=$target_dir/release/fastmem-freestanding
    # relocation-model=static: nothing would apply PIE relocations at start.
    if ! (cd ci/freestanding &&
        RUSTFLAGS="-C relocation-model=static $(tier_rustflags "$tier")" \
            CARGO_TARGET_DIR=$target_dir cargo build --release --quiet); then
        failed+=("$tier: build"); continue
    fi

    # The binary must be static, with no interpreter and no undefined symbol.
    if readelf -lW "$bin" | grep -q INTERP || readelf -SW "$bin" | grep -q '\.dynamic' ||
        [ -n "$(nm -u "$bin")" ]; then
        echo "FAIL $tier: binary is not freestanding:"; file "$bin"; nm -u "$bin"
        failed+=("$tier: linkage"); continue
    fi

    # memcpy and memset come from fastmem's c-symbols feature: strong
    # definitions (T), where compiler_builtins' would be weak (W); there is
    # no libc to provide them.
    for sym in memcpy memset; do
        if ! nm --defined-only "$bin" | grep -q " T $sym\$"; then
            echo "FAIL $tier: $sym is not defined by fastmem:"; nm "$bin" | grep -w "$sym" || true
            failed+=("$tier: $sym"); continue 2
        fi
    done

    set +e
    out=$("$bin"); rc=$?
    bad_out=$("$bin" sabotage); bad_rc=$?
    set -e
    echo "$out (exit $rc)"
    echo "$bad_out (exit $bad_rc)"
    if [ "$rc" -ne 0 ]; then
        failed+=("$tier: self-check exit $rc")
    elif ! grep -q "kernel $tier:" <<<"$out"; then
        failed+=("$tier: wrong kernel compiled")
    elif [ "$bad_rc" -eq 0 ]; then
        failed+=("$tier: sabotaged run exited 0")
    fi
    text=$(size -A "$bin" | awk '$1 == ".text" { print $2 }')
    echo "size $tier: .text $text bytes; $(size "$bin" | tail -1 | awk '{ print "text+rodata " $1 ", data " $2 ", bss " $3 }')"
done

if [ ${#failed[@]} -ne 0 ]; then
    printf 'FAIL freestanding: %s\n' "${failed[@]}"
    exit 1
fi
echo "freestanding: all tiers passed"
