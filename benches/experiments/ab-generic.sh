#!/usr/bin/env bash
# A/B of whole variants of src/generic.rs, timed side by side in one
# benchmark binary: how "The order of the size tests" and "A 64-byte masked
# move" in benches/NOTEBOOK.md were measured.
#
#   bash benches/experiments/ab-generic.sh FILE[+LARGE]=NAME [...] [-- SIZES_ARGS]
#
# Each FILE (absolute, or relative to the repository root) is a copy of
# src/generic.rs, edited (e.g. `git show 9a5c3c6:src/generic.rs >
# /tmp/old.rs`); LARGE, where given, a copy of src/large.rs to pair with
# it (default: the tree's own). NAME is letters, digits and `_`. The script copies the tracked tree
# to $WORK/tree, adds each FILE there as a module with its own `memcpy` and
# `memset` entry points (inlined into an `extern "C"` wrapper, as
# `fastmem_memcpy` is), lists them in the benchmark tool as NAME beside
# `fastmem` and glibc, and its `memcpy` inlined in the timing loops as
# NAME_inl beside `fm_inline` (issue 10: the copy inlined at its call site),
# builds the tool per tier and runs it, pinned.
# Compare the columns of one run; a variant's ratio to glibc is the figure of
# merit, since the builds differ in code placement.
#
# Environment: TIERS (default "avx512 avx2 sse"), CPU (default 1),
# FUNC_ALIGN and EXTRA_RUSTFLAGS (as in benches/tiers.sh), WORK
# (default target/ab-generic), BUILD_ONLY=1 (`cargo check` the tree, run
# nothing: the check ci/test.sh makes so that the script does not rot).
# The rest of the command line after `--` goes to examples/sizes.rs
# (default: --suite copy,copy-unaligned,set,set-unaligned,mixed).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source benches/tier-flags.sh
TIERS=${TIERS:-"avx512 avx2 sse"}
CPU=${CPU:-1}
WORK=${WORK:-$ROOT/target/ab-generic}

variants=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    variants+=("$1")
    shift
done
[ "${1:-}" = -- ] && shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--suite copy,copy-unaligned,set,set-unaligned,mixed)
if [ ${#variants[@]} -eq 0 ]; then
    echo "usage: $0 FILE[+LARGE]=NAME [...] [-- SIZES_ARGS]" >&2
    exit 2
fi

tree=$WORK/tree
rm -rf "$tree"
mkdir -p "$tree"
git ls-files -z | tar --null -cf - -T - | tar -xf - -C "$tree"

i=0
for spec in "${variants[@]}"; do
    i=$((i + 1))
    file=${spec%%=*}
    name=${spec#*=}
    large=src/large.rs
    if [[ $file == *+* ]]; then
        large=${file#*+}
        file=${file%%+*}
    fi
    if [ "$file" = "$spec" ] || [ ! -f "$file" ] || [ ! -f "$large" ] || ! [[ $name =~ ^[A-Za-z0-9_]+$ ]]; then
        echo "ab-generic: '$spec' is not FILE[+LARGE]=NAME (existing files; NAME letters, digits, _)" >&2
        exit 2
    fi
    # The variant takes a copy of src/large.rs (the out-of-line large
    # path; LARGE instead where the spec names one), which names the
    # variant's own Source and block.
    sed "s/crate::large::/crate::ab_large_v$i::/g" "$file" >"$tree/src/ab_v$i.rs"
    sed "s/crate::generic::/crate::ab_v$i::/g" "$large" >"$tree/src/ab_large_v$i.rs"
    cat >>"$tree/src/lib.rs" <<EOF

#[allow(dead_code, missing_docs, clippy::all)]
mod ab_v$i;
#[allow(dead_code, missing_docs, clippy::all)]
mod ab_large_v$i;
/// A/B variant $name: its \`memcpy\`.
#[doc(hidden)]
#[inline(always)]
#[allow(clippy::missing_safety_doc)]
pub unsafe fn ab_memcpy_v$i(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { ab_v$i::memcpy::<Selected>(dst, src, n) };
}
/// A/B variant $name: its \`memset\`.
#[doc(hidden)]
#[inline(always)]
#[allow(clippy::missing_safety_doc)]
pub unsafe fn ab_memset_v$i(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { ab_v$i::memset::<Selected>(dst, c, n) };
}
EOF
    cat >>"$tree/benches/support/mod.rs" <<EOF

/// A/B variant $name.
///
/// # Safety
/// As \`fastmem::memcpy\`.
#[inline(never)]
pub unsafe extern "C" fn ab_v${i}_memcpy(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::ab_memcpy_v$i(dst, src, n) }
}
/// A/B variant $name.
///
/// # Safety
/// As \`fastmem::memset\`.
#[inline(never)]
pub unsafe extern "C" fn ab_v${i}_memset(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::ab_memset_v$i(dst, c, n) }
}
EOF
    # Its copy inlined in the timing loops too, listed as NAME_inl after
    # fm_inline, so that the inlined figures compare within one run.
    echo "inline_loops!(ab_v${i}_hot_inline, ab_v${i}_seq_inline, fastmem::ab_memcpy_v$i);" \
        >>"$tree/benches/support/mod.rs"
    sed -i \
        -e "s/^    }\];\$/&\n    v.push(CopyImpl { name: \"${name}_inl\", f: ab_v${i}_memcpy, hot: |a, b, n, it| unsafe { ab_v${i}_hot_inline(a, b, n, it) }, seq: |a, b, ns| unsafe { ab_v${i}_seq_inline(a, b, ns) } });/" \
        "$tree/benches/support/mod.rs"
    # List the variant right before glibc in both implementation lists.
    sed -i \
        -e "s|^    v.push(entry!(CopyImpl, \"glibc\", glibc_memcpy));|    v.push(entry!(CopyImpl, \"$name\", ab_v${i}_memcpy));\n&|" \
        -e "s|^    v.push(entry!(SetImpl, \"glibc\", glibc_memset));|    v.push(entry!(SetImpl, \"$name\", ab_v${i}_memset));\n&|" \
        "$tree/benches/support/mod.rs"
    if ! grep -q "ab_v${i}_memcpy));" "$tree/benches/support/mod.rs" ||
        ! grep -q "ab_v${i}_memset));" "$tree/benches/support/mod.rs" ||
        ! grep -q "ab_v${i}_hot_inline(a, b, n, it)" "$tree/benches/support/mod.rs"; then
        echo "ab-generic: could not list $name in benches/support/mod.rs (its glibc entries moved?)" >&2
        exit 1
    fi
done

for tier in $TIERS; do
    flags="$(bench_tier_flags "$tier") $BENCH_COMMON_FLAGS"
    echo "=== $tier: RUSTFLAGS=\"$flags\""
    if [ "${BUILD_ONLY:-0}" = 1 ]; then
        (cd "$tree" && RUSTFLAGS=$flags CARGO_TARGET_DIR=$WORK/target-$tier \
            cargo check --release --quiet --example sizes)
        continue
    fi
    bench_tier_skipped "$tier" && continue
    (cd "$tree" && RUSTFLAGS=$flags CARGO_TARGET_DIR=$WORK/target-$tier \
        cargo build --release --quiet --example sizes)
    taskset -c "$CPU" "$WORK/target-$tier/release/examples/sizes" --out "$WORK/out" "${args[@]}"
done
