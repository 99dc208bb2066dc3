#!/usr/bin/env bash
# Code size and straight-line checks (issue 3 §4), per tier.
#
# Builds ci/codegen (one #[inline(never)] wrapper per call shape) for each
# tier, then, from the symbol table and `objdump -d`:
#   - reports the bytes of every wrapper; the runtime-length memcpy and memset
#     wrappers are the cost of one call site, with a target of at most
#     $CODEGEN_SIZE_TARGET bytes (600); CODEGEN_ENFORCE_SIZE=1 makes a miss fail;
#   - FAILS if a constant-length wrapper (memcpy/memset of 12, 64, 1518 bytes)
#     contains any jump (j*) or call instruction, or is missing;
#   - FAILS if a wrapper computes the wrong bytes (the binary checks itself
#     when this CPU can run the tier).
# Exempt: the portable tier's 1518-byte wrappers. With 8-byte registers a
# straight-line 1518-byte copy is ~380 instructions, so the block loop is
# kept; their branches are reported, not failed.
#
#   bash ci/codegen.sh                      # sse avx2 avx512 avx512bw portable
#   TIERS="avx512" bash ci/codegen.sh
#   SHOW=codegen_memcpy_64 bash ci/codegen.sh   # also print that disassembly
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source ci/hardening-tiers.sh

# avx512bw: the AVX-512 kernel as `-C target-cpu=native` builds it on
# Ice Lake and later (byte masks available), next to the avx512f-only build.
TIERS=${TIERS:-"$HARDENING_SIMD_TIERS avx512bw portable"}
codegen_flags() {
    case $1 in
        avx512bw) echo "-C target-feature=+avx512f,+avx512bw,+avx512vl,+bmi2" ;;
        *) tier_rustflags "$1" ;;
    esac
}
codegen_runnable() {
    case $1 in
        avx512bw) grep -qw avx512bw /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo ;;
        *) tier_runnable "$1" >/dev/null ;;
    esac
}
TARGET_BASE=${CARGO_TARGET_DIR:-$ROOT/target}
SIZE_TARGET=${CODEGEN_SIZE_TARGET:-600}
EXEMPT="portable:codegen_memcpy_1518 portable:codegen_memset_1518"
CONSTANT="codegen_memcpy_12 codegen_memset_12 codegen_memcpy_64 codegen_memset_64 codegen_memcpy_1518 codegen_memset_1518"
RUNTIME="codegen_memcpy_n codegen_memset_n"
INFO="codegen_memcpy_aligned_n codegen_memcpy_generic_n"

command -v objdump >/dev/null || { echo "FAIL codegen: objdump (binutils) not installed"; exit 1; }

failed=()
summary=()
for tier in $TIERS; do
    echo "=== codegen: $tier"
    target_dir=$TARGET_BASE/codegen-$tier
    bin=$target_dir/release/fastmem-codegen
    flags=$(codegen_flags "$tier")
    if ! (cd ci/codegen && RUSTFLAGS="$flags" CARGO_TARGET_DIR=$target_dir cargo build --release --quiet); then
        failed+=("$tier: build"); continue
    fi
    if codegen_runnable "$tier"; then
        "$bin" || failed+=("$tier: wrapper self-check")
    else
        echo "(CPU cannot run $tier: self-check skipped, disassembly still checked)"
    fi

    syms=$(nm -S --defined-only "$bin")
    size_of() {
        local hex
        hex=$(awk -v s="$1" '$4 == s { print $2 }' <<<"$syms")
        if [ -n "$hex" ]; then echo $((16#$hex)); fi
    }
    line="$tier:"
    for sym in $RUNTIME $INFO $CONSTANT; do
        bytes=$(size_of "$sym")
        if [ -z "$bytes" ]; then
            failed+=("$tier: $sym missing from the binary"); continue
        fi
        note=""
        if [[ " $RUNTIME " == *" $sym "* ]]; then
            if [ "$bytes" -gt "$SIZE_TARGET" ]; then
                note=" (over the $SIZE_TARGET B target)"
                [ "${CODEGEN_ENFORCE_SIZE:-0}" = 1 ] && failed+=("$tier: $sym is $bytes B > $SIZE_TARGET")
            fi
            line="$line ${sym#codegen_}=$bytes"
        fi
        asm=$(objdump -d --no-show-raw-insn -M intel --disassemble="$sym" "$bin" |
            awk '/^[[:space:]]+[0-9a-f]+:/')
        if [[ " $CONSTANT " == *" $sym "* ]]; then
            branches=$(grep -cE ':[[:space:]]+(j[a-z]+|call|loop[a-z]*)[[:space:]]' <<<"$asm" || true)
            insns=$(wc -l <<<"$asm")
            if [ "$branches" -ne 0 ]; then
                if [[ " $EXEMPT " == *" $tier:$sym "* ]]; then
                    note=" ($branches jumps/calls: exempt, see the header)"
                else
                    note=" FAIL: $branches jumps/calls"
                    failed+=("$tier: $sym has $branches jumps/calls")
                    grep -E ':[[:space:]]+(j[a-z]+|call|loop[a-z]*)[[:space:]]' <<<"$asm" | sed 's/^/      /'
                fi
            else
                note=" straight-line, $insns instructions"
            fi
        fi
        printf '  %-26s %5d B%s\n' "$sym" "$bytes" "$note"
        if [ "${SHOW:-}" = "$sym" ]; then sed 's/^/      /' <<<"$asm"; fi
    done
    summary+=("$line")
done

echo "=== codegen summary (one runtime-n call site, bytes; target <= $SIZE_TARGET)"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
    printf 'FAIL codegen: %s\n' "${failed[@]}"
    exit 1
fi
echo "codegen: all tiers passed"
