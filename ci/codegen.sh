#!/usr/bin/env bash
# Code size and straight-line checks (issue 3 §4), per tier.
#
# Builds ci/codegen (one #[inline(never)] wrapper per call shape) for each
# tier, then, from the symbol table and `objdump -d`:
#   - reports the bytes of every wrapper; the runtime-length memcpy and memset
#     wrappers are the cost of one call site, with a target of at most
#     $CODEGEN_SIZE_TARGET bytes (600). A miss FAILS on the builds a
#     dependent gets with no opt-in cfg ($CODEGEN_BUDGET_TIERS: the
#     SSE, AVX2 and AVX-512BW kernels, as Intel, Zen 1-3 and Zen 4/5 builds,
#     the portable one, and `panic = "unwind"`); elsewhere (the avx512f-only
#     build, -mixed, -paired, -narrow) it is reported, and CODEGEN_ENFORCE_SIZE=1
#     makes it fail there too;
#   - the runtime-length wrappers (`extern "C"`, as a datapath's own would
#     be) must call nothing: the out-of-line large path is a tail jump. The
#     TIER-unwind builds (`panic = "unwind"`, where a call that may unwind
#     takes a landing pad, `call panic_cannot_unwind`, and the wrapper a
#     stack frame) check that this holds there too; with the large path in
#     the Rust ABI (before 12c4814) sse-unwind failed here, at 448 B for
#     memcpy_n instead of 415;
#   - memcpy_const::<12> and memset_const::<12> must be straight-line and use
#     no AVX-512 masked move (no {kN} operand);
#   - constant-length wrappers (12, 64, 1518 bytes) must be straight-line:
#       memset 12 and 64, memcpy_generic, memcpy_aligned: FAIL on any jump
#         (j*, loop*) or call;
#       memcpy, and memset 1518: FAIL on any call, any backward jump (a
#         loop), any jump out of the wrapper (a tail call) or indirect jump,
#         or more than one conditional jump. The one conditional jump allowed
#         is the run-time aligned-pointer dispatch above NOLOOP_MAX (issue 2:
#         one test of (dst | src) & (W - 1) picks memcpy_aligned's loop;
#         memset, on the SIMD kernels, tests dst alone: two
#         stores fewer of 14 at 768 B on AVX-512, BENCHMARKS.md); it is
#         printed, and each arm is straight-line.
#     `rep movsb`/`rep stosb` is straight-line (one instruction, no jump);
#   - FAILS if a wrapper is missing or computes the wrong bytes (the binary
#     checks itself when this CPU can run the tier);
#   - a build that enables AVX-512F but takes the AVX2 kernel (`--cfg
#     fastmem_no_avx512`: avx2-zen4) asked for no 512-bit code: FAIL when
#     a wrapper, the memcpy, memmove or memset symbol or an out-of-line
#     function of fastmem's names a zmm register (LLVM joined adjacent
#     32-byte moves into zmm ones there until Vector::JOINABLE). Not the
#     compares (zmm_users). Control: the avx512bw build's wrappers must
#     name one;
#   - the AVX-512 kernel's overlapping moves take the AVX2 kernel's loop in
#     a build for Zen 4 (avx512bw-amd: Tuning::MoveLoop) and its own
#     elsewhere: of codegen_memmove_n's and the memmove symbol's loops
#     (`loop_widths`), exactly two (up and down) must name ymm and no zmm
#     registers there, and none in the other AVX-512 builds. Without
#     JOINABLE on the AVX2 kernel there, LLVM joined that loop's vectors
#     back into zmm ones and this check failed (0 ymm loops, 5 zmm). The
#     same for the compare loop (Tuning::CompareLoop): one ymm-only loop
#     in the memcmp and in the bcmp symbol there, none elsewhere; and
#     unaligned copies from 2 KiB (Tuning::UnalignedCopyLoop): there each
#     instance of write_unaligned_out_of_line has one loop, ymm-only, and
#     no other build has the function;
#   - the C symbols (issue 11 §3): the consumer enables fastmem's c-symbols
#     feature, so the binary holds fastmem's exported memcpy, memset... (the
#     list is fastmem::symbols::EXPORTED, printed by `--list-symbols`, and
#     must match what `nm` finds). Each is disassembled: FAIL on any call,
#     any jump out of its body (a tail call) and any indirect jump, which
#     covers calls to memcpy/memmove/memset/memcmp/bcmp directly, through
#     the PLT or through the GOT; except a call or jump to the start of one
#     of fastmem's own functions (the out-of-line large path), whose body
#     is then checked the same way, transitively (`reach`). FAIL also when a
#     symbol does not start on a 64-byte boundary (fastmem::symbols::ALIGNMENT
#     on x86_64 ELF). The TIER-lto builds (`-C lto=fat`) check
#     only this. Control: codegen_control_libcall, a copy the compiler
#     emits as a memcpy call, must be caught by the same check.
# Exempt: the portable tier's 1518-byte wrappers, when they loop. With 8-byte
# registers a straight-line 1518-byte copy is ~380 instructions, so the
# block loop is kept; their branches are reported, not failed.
# Allowed to loop: the SSE builds' 1518-byte copy wrappers (memcpy,
# memcpy_generic, memcpy_aligned; `rep movsb` takes over from 1536 B, so
# that Ethernet frames take the loop, which ran 1518-B packets in
# vhost_enqueue's rings 1.08-1.25x faster than `rep movsb` on the Zen 4:
# src/kernels/sse.rs, STRING_COPY_MIN). Their 23-block loop does not unroll.
# They still FAIL on any call, any jump out of the wrapper and any indirect
# jump; SSE's memset 1518 (the loop, unrolled) stays under the rule above.
#
#   bash ci/codegen.sh                      # sse avx2 avx512 avx512bw avx2-amd avx512bw-amd portable,
#                                           # and sse, avx2, avx512bw with -mixed,
#                                           # avx512bw-paired, avx2-narrow, avx512bw-narrow,
#                                           # sse-unwind, avx512bw-unwind,
#                                           # avx512bw-lto and portable-lto
#   TIERS="avx512" bash ci/codegen.sh
#   SHOW=codegen_memcpy_64 bash ci/codegen.sh   # also print that disassembly
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source ci/tiers.sh

# avx512bw: the AVX-512 kernel as `-C target-cpu=native` builds it on
# Ice Lake and later (byte masks available), next to the avx512f-only build.
# avx2-amd: the AVX2 kernel as a build for Zen 1-3 gets it (sse4a on: no
# string instructions, src/kernels/mod.rs, cores::AMD_ZEN3).
# avx512bw-amd: the AVX-512 kernel as a build for Zen 4/5 gets it (sse4a
# and avx512f: fills to rep stosb from 1 MiB, no streaming hand-over;
# cores::AMD_AVX512).
# avx2-zen4: the AVX2 kernel in a build for Zen 4 (sse4a and avx512f, with
# --cfg fastmem_no_avx512), whose 65-128 B copies load first
# (Tuning::LOAD_FIRST, cores::AMD_ZEN4).
# avx2-skx: the AVX2 kernel in a build for an Intel AVX-512 core (`-C
# target-cpu=skylake-avx512 --cfg fastmem_no_avx512`), where LLVM keeps
# adjacent ymm moves apart itself: build.rs's probe must set
# fastmem_ymm_kept there (and must not in avx2-zen4, whose generic tuning
# joins them), and without the second source pointer (kernels::avx2's
# JOINABLE) its wrappers must still name no zmm register.
# TIER-mixed: TIER with --cfg fastmem_mixed_sizes (its own call-site size).
# TIER-paired: TIER with --cfg fastmem_paired_blocks (two loop blocks a turn).
# TIER-narrow: TIER with --cfg fastmem_narrow_stores (33-64 B copies as
# four 16-byte stores).
# TIER-lto: TIER's symbols in a `-C lto=fat` binary.
# TIER-unwind: TIER with `panic = "unwind"` (the crate's profile says
# abort): its `extern "C"` wrappers must still reach the out-of-line
# large path by a jump, with no landing pad (src/large.rs, "The
# out-of-line functions are `extern "C"`").
TIERS=${TIERS:-"$HARDENING_SIMD_TIERS avx512bw avx2-amd avx2-zen4 avx2-skx avx512bw-amd portable sse-mixed avx2-mixed avx512bw-mixed avx512bw-paired avx2-narrow avx512bw-narrow sse-unwind avx512bw-unwind avx512bw-lto portable-lto"}
codegen_flags() {
    case $1 in
        *-lto) codegen_flags "${1%-lto}" ;;
        *-unwind) codegen_flags "${1%-unwind}" ;;
        *-mixed) echo "$(codegen_flags "${1%-mixed}") --cfg fastmem_mixed_sizes" ;;
        *-paired) echo "$(codegen_flags "${1%-paired}") --cfg fastmem_paired_blocks" ;;
        *-narrow) echo "$(codegen_flags "${1%-narrow}") --cfg fastmem_narrow_stores" ;;
        avx512bw) echo "-C target-feature=+avx512f,+avx512bw,+avx512vl,+bmi2" ;;
        avx2-amd) echo "-C target-feature=+avx2,+sse4a" ;;
        avx512bw-amd) echo "$(codegen_flags avx512bw),+sse4a" ;;
        avx2-skx) echo "-C target-cpu=skylake-avx512 --cfg fastmem_no_avx512" ;;
        *) tier_rustflags "$1" ;;
    esac
}
# codegen_runnable TIER BIN: whether this CPU can run TIER's BIN. The
# builds for AMD cores need their vector features, and SSE4a only where
# BIN holds one of its instructions (`foreign_instructions`): on the
# Intel CPUs seen it holds none, and their self-checks run there too.
codegen_runnable() {
    case $1 in
        *-lto) codegen_runnable "${1%-lto}" "$2" ;;
        *-unwind) codegen_runnable "${1%-unwind}" "$2" ;;
        *-mixed) codegen_runnable "${1%-mixed}" "$2" ;;
        *-paired) codegen_runnable "${1%-paired}" "$2" ;;
        *-narrow) codegen_runnable "${1%-narrow}" "$2" ;;
        avx512bw) grep -qw avx512bw /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo ;;
        avx2-amd) grep -qw avx2 /proc/cpuinfo && [ -z "$(foreign_instructions "$2")" ] ;;
        avx512bw-amd) codegen_runnable avx512bw "$2" && [ -z "$(foreign_instructions "$2")" ] ;;
        avx2-zen4) grep -qw avx512f /proc/cpuinfo && [ -z "$(foreign_instructions "$2")" ] ;;
        avx2-skx) for f in avx512f avx512bw avx512vl avx512dq avx512cd; do grep -qw $f /proc/cpuinfo || return 1; done ;;
        *) tier_runnable "$1" >/dev/null ;;
    esac
}
TARGET_BASE=${CARGO_TARGET_DIR:-$ROOT/target}
SIZE_TARGET=${CODEGEN_SIZE_TARGET:-600}
# The avx512bw-unwind build was at 602 B until the loops' block count was
# computed once (src/generic.rs, `write()` and `write_loop_aligned`); no one saw it, as this list
# did not exist.
BUDGET_TIERS=${CODEGEN_BUDGET_TIERS:-"sse avx2 avx512bw avx2-amd avx2-zen4 avx512bw-amd portable sse-unwind avx512bw-unwind"}
EXEMPT_1518="codegen_memcpy_1518 codegen_memset_1518 codegen_memcpy_generic_1518 codegen_memcpy_aligned_1518"
LOOP_1518="codegen_memcpy_1518 codegen_memcpy_generic_1518 codegen_memcpy_aligned_1518"
STRICT="codegen_memset_12 codegen_memset_64 codegen_memcpy_const_12 codegen_memset_const_12
 codegen_memcpy_generic_12 codegen_memcpy_generic_64 codegen_memcpy_generic_1518
 codegen_memcpy_aligned_12 codegen_memcpy_aligned_64 codegen_memcpy_aligned_1518"
DISPATCH="codegen_memcpy_12 codegen_memcpy_64 codegen_memcpy_1518 codegen_memset_1518"
CONSTANT="$(echo $DISPATCH $STRICT)"
STRICT=" $(echo $STRICT) "
RUNTIME="codegen_memcpy_n codegen_memset_n codegen_memcpy_aligned_n codegen_memcpy_generic_n codegen_memmove_n"
# The compile-time-size API: plain moves, FAIL on any mask-register operand
# (an AVX-512 masked move; lib.rs, memcpy_const).
PLAIN=" codegen_memcpy_const_12 codegen_memset_const_12 "
# Only these two are held to the size target; the others are reported.
LIMITED="codegen_memcpy_n codegen_memset_n"
BRANCH_RE=':[[:space:]]+(j[a-z]+|call|loop[a-z]*)[[:space:]]'

# classify START END < branch lines: prints "<kind>\t<line>" per branch, kind
# one of call, cond-fwd, cond-back, jmp-fwd, jmp-back, out (target outside
# [START, END): a tail call), indirect.
classify() {
    local addr op tgt rest kind
    while read -r addr op tgt rest; do
        addr=${addr%:}
        if [[ $op == call* ]]; then
            kind=call
        elif ! [[ $tgt =~ ^[0-9a-f]+$ ]]; then
            kind=indirect
        elif (( 16#$tgt < $1 || 16#$tgt >= $2 )); then
            kind=out
        elif [[ $op == loop* ]] || (( 16#$tgt <= 16#$addr )); then
            [ "$op" = jmp ] && kind=jmp-back || kind=cond-back
        else
            [ "$op" = jmp ] && kind=jmp-fwd || kind=cond-fwd
        fi
        printf '%s\t%s %s %s %s\n' "$kind" "$addr:" "$op" "$tgt" "$rest"
    done
}

command -v objdump >/dev/null || { echo "FAIL codegen: objdump (binutils) not installed"; exit 1; }

C_SYMBOLS="memcpy memmove memset memcmp bcmp"
# Where each symbol must start (x86_64 ELF: fastmem::symbols::ALIGNMENT,
# a section of its own per symbol, aligned by global_asm; src/symbols.rs).
SYMBOL_ALIGN=64

# got_target BIN SLOT: the symbol a GOT slot (hex address) points to: the
# relocation's symbol, or, for a relative one, the symbol at its addend.
got_target() {
    local rel
    rel=$(readelf -rW "$1" | awk -v a="$(printf '%016x' "$((16#$2))")" '$1 == a { print $3, $4, $5; exit }')
    case $rel in
        R_X86_64_RELATIVE*)
            nm --defined-only "$1" | awk -v a="$(printf '%016x' "$((16#${rel#* }))")" '$1 == a { print $3; exit }' ;;
        "") echo "?" ;;
        *) echo "${rel##* }" ;;
    esac
}

# escapes BIN START END: the calls, jumps out of [START, END) and indirect
# jumps in the code at that range, one classified line each; a jump or
# call through the GOT is followed by the symbol its slot holds.
escapes() {
    local kind insn slot
    objdump -d --no-show-raw-insn -M intel --start-address="$2" --stop-address="$3" "$1" |
        awk '/^[[:space:]]+[0-9a-f]+:/' | grep -E "$BRANCH_RE" | classify "$2" "$3" |
        grep -E '^(call|out|indirect)' | while IFS=$'\t' read -r kind insn; do
            slot=$(sed -nE 's/.*\[rip\+0x[0-9a-f]+\][[:space:]]+# ([0-9a-f]+).*/\1/p' <<<"$insn")
            [ -n "$slot" ] && insn="$insn  (GOT slot -> $(got_target "$1" "$slot"))"
            printf '%s\t%s\n' "$kind" "$insn"
        done || true
}

# callee INSN: the function a call or jump line goes to: the symbol its GOT
# slot holds, or the `<name>` objdump prints (with any `+0x..` kept, so
# that a jump into the middle of a function is never taken for a call of
# it).
callee() {
    local got=${1##*GOT slot -> }
    if [[ $got != "$1" ]]; then
        echo "${got%)}"
    else
        sed -nE 's/.*<([^>]+)>.*/\1/p' <<<"$1"
    fi
}

# reach BIN SYMS ROOT: `escapes` of ROOT and, transitively, of every
# function of fastmem's own that it calls or jumps to: the out-of-line
# large path (`fastmem::large`), which the symbols reach by a call. Such a
# call is followed, not reported; every other escape is reported, with
# the function it is in. So the check still fails on any path from a
# symbol to memcpy/memmove/memset/memcmp/bcmp, or to anything unknown.
reach() {
    local bin=$1 syms=$2 root=$3 fn start bytes kind insn target seen=" " todo=("$3")
    while ((${#todo[@]})); do
        fn=${todo[0]}
        todo=("${todo[@]:1}")
        [[ $seen == *" $fn "* ]] && continue
        seen+="$fn "
        start=$(awk -v s="$fn" '$4 == s { print $1; exit }' <<<"$syms")
        bytes=$(awk -v s="$fn" '$4 == s { print $2; exit }' <<<"$syms")
        if [ -z "$start" ] || [ -z "$bytes" ]; then
            printf 'unknown\t%s: not in the symbol table\n' "$fn"
            continue
        fi
        start=$((16#$start))
        while IFS=$'\t' read -r kind insn; do
            [ -n "$kind" ] || continue
            target=$(callee "$insn")
            if [[ $target == _ZN7fastmem* && $target != *+0x* ]]; then
                [[ $seen == *" $target "* ]] || printf 'follow\t%s\n' "$target"
                todo+=("$target")
            else
                [ "$fn" = "$root" ] || insn="$insn  (in $fn)"
                printf '%s\t%s\n' "$kind" "$insn"
            fi
        done < <(escapes "$bin" "$start" "$((start + 16#$bytes))")
    done
}

# check_symbols TIER BIN: the symbol check and its control; appends to
# `failed` and prints one line per symbol.
check_symbols() {
    local tier=$1 bin=$2 syms defined listed sym start bytes bad followed=0
    syms=$(nm -S --defined-only "$bin")
    defined=$(awk -v want=" $C_SYMBOLS " '$3 ~ /^[TtWw]$/ && index(want, " " $4 " ") { print $4 }' <<<"$syms" | sort -u)
    if codegen_runnable "$tier" "$bin"; then
        listed=$("$bin" --list-symbols | sort -u)
        if [ "$listed" != "$defined" ]; then
            failed+=("$tier: fastmem::symbols::EXPORTED ($(echo $listed)) != defined in the binary ($(echo $defined))")
        fi
    fi
    if [ -z "$defined" ]; then
        failed+=("$tier: the binary defines none of $C_SYMBOLS"); return
    fi
    for sym in $defined codegen_control_libcall; do
        start=$((16#$(awk -v s="$sym" '$4 == s { print $1; exit }' <<<"$syms")))
        bytes=$((16#$(awk -v s="$sym" '$4 == s { print $2; exit }' <<<"$syms")))
        if [ "$sym" = codegen_control_libcall ]; then
            bad=$(escapes "$bin" "$start" "$((start + bytes))")
        else
            bad=$(reach "$bin" "$syms" "$sym")
            followed=$(grep -c '^follow' <<<"$bad" || true)
            bad=$(grep -v '^follow' <<<"$bad" || true)
        fi
        if [ "$sym" = codegen_control_libcall ]; then
            if [ -z "$bad" ]; then
                failed+=("$tier: control: the check found no call in codegen_control_libcall")
            else
                printf '  %-30s control caught: %s\n' "$sym" "$(head -1 <<<"$bad" | cut -f2 | sed 's/^[[:space:]]*//')"
            fi
        elif (( start % SYMBOL_ALIGN )); then
            printf '  %-30s %5d B FAIL: at %x, not %d-byte aligned\n' "$sym" "$bytes" "$start" "$SYMBOL_ALIGN"
            failed+=("$tier: symbol $sym at $(printf %x "$start") is not $SYMBOL_ALIGN-byte aligned")
        elif [ -n "$bad" ]; then
            printf '  %-30s %5d B FAIL: calls or jumps out\n' "$sym" "$bytes"
            sed 's/^/      /' <<<"$bad"
            failed+=("$tier: symbol $sym calls or jumps out ($(wc -l <<<"$bad") places)")
        else
            printf '  %-30s %5d B %d-aligned, no call, no jump out%s\n' "$sym" "$bytes" "$SYMBOL_ALIGN" \
                "$( ((followed)) && echo " but to $followed function(s) of fastmem's, checked alike")"
        fi
        if [ "${SHOW:-}" = "$sym" ]; then
            objdump -d --no-show-raw-insn -M intel --start-address="$start" \
                --stop-address=$((start + bytes)) "$bin" | sed 's/^/      /'
        fi
    done
}

# zmm_users BIN: each codegen_* wrapper (not the control), copy, move and
# fill symbol, and function of fastmem's (the out-of-line large paths) in
# BIN whose code names a zmm register, with the number of such
# instructions. Not memcmp and bcmp: where they look for the first
# difference LLVM may test two 32-byte masks as one zmm (src/kernels/avx2.rs,
# JOINABLE).
zmm_users() {
    objdump -d --no-show-raw-insn -M intel "$1" | awk -v syms=" memcpy memmove memset " '
        /^[0-9a-f]+ <.*>:$/ {
            f = $2; sub(/^</, "", f); sub(/>:$/, "", f)
            keep = (f ~ /^codegen_/ && f !~ /^codegen_control/) || index(syms, " " f " ") || (f ~ /^_ZN7fastmem/ && f !~ /compare/)
            next
        }
        keep && /zmm[0-9]/ { n[f]++ }
        END { for (f in n) print f, n[f] }' | sort
}

# loop_widths BIN FUNC: the widest vector register each loop of FUNC
# (from a backward jump's target to the jump) names, one line per loop:
# zmm, ymm, xmm or none. A backward jump to a shared exit (a `ret` between
# its target and the jump: LLVM may place a compare's "ranges differ"
# return before the loop) is no loop.
loop_widths() {
    objdump -d --no-show-raw-insn -M intel "$1" | awk -v fn="<$2>:" '
        function hex(s,   v, i) {
            v = 0
            for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
            return v
        }
        /^[0-9a-f]+ <.*>:$/ { inside = ($2 == fn); next }
        !inside || !/^ *[0-9a-f]+:/ { next }
        {
            a = $1; sub(/:$/, "", a); addr[++n] = hex(a); text[n] = $0
            if ($2 ~ /^j/ && $3 ~ /^[0-9a-f]+$/ && hex($3) <= addr[n]) {
                t = hex($3); w = "none"; exit_jump = 0
                for (i = 1; i <= n; i++) {
                    if (addr[i] < t) continue
                    if (text[i] ~ /\tret/) exit_jump = 1
                    if (text[i] ~ /zmm[0-9]/) w = "zmm"
                    else if (text[i] ~ /ymm[0-9]/ && w != "zmm") w = "ymm"
                    else if (text[i] ~ /xmm[0-9]/ && w == "none") w = "xmm"
                }
                if (!exit_jump) print w
            }
        }'
}

failed=()
summary=()
for tier in $TIERS; do
    echo "=== codegen: $tier"
    target_dir=$TARGET_BASE/codegen-$tier
    bin=$target_dir/release/fastmem-codegen
    flags=$(codegen_flags "$tier")
    lto=false
    [[ $tier == *-lto ]] && lto=fat
    panic=abort
    [[ $tier == *-unwind ]] && panic=unwind
    if ! (cd ci/codegen && RUSTFLAGS="$flags" CARGO_PROFILE_RELEASE_LTO=$lto \
        CARGO_PROFILE_RELEASE_PANIC=$panic CARGO_TARGET_DIR=$target_dir cargo build --release --quiet); then
        failed+=("$tier: build"); continue
    fi
    check_symbols "$tier" "$bin"
    # build.rs's probe (fastmem_ymm_kept): set for an Intel tuning, not for
    # the generic one with +avx512f.
    case $tier in
        avx2-skx | avx2-zen4)
            want=yes
            [ "$tier" = avx2-zen4 ] && want=no
            got=no
            grep -qs fastmem_ymm_kept "$target_dir"/release/build/fastmem-*/output && got=yes
            if [ "$got" = "$want" ]; then
                echo "  build.rs's ymm probe: fastmem_ymm_kept $got, as expected"
            else
                failed+=("$tier: build.rs's ymm probe set fastmem_ymm_kept: $got, expected $want")
            fi
            ;;
    esac
    # shellcheck disable=SC2086  # the flags are a word list
    if [[ $flags == *fastmem_no_avx512* ]] && rustc --print cfg $flags | grep -q 'target_feature="avx512f"'; then
        zmm=$(zmm_users "$bin")
        if [ -n "$zmm" ]; then
            printf '  zmm registers in a build without the AVX-512 kernel: FAIL\n'
            sed 's/^/      /' <<<"$zmm"
            failed+=("$tier: 512-bit code in $(wc -l <<<"$zmm") wrapper(s) or symbol(s) of a fastmem_no_avx512 build")
        else
            echo "  no zmm register in any wrapper or symbol (fastmem_no_avx512)"
        fi
    elif [ "$tier" = avx512bw ]; then
        zmm=$(zmm_users "$bin")
        if [ -z "$zmm" ]; then
            failed+=("$tier: control: the zmm check found no zmm register in the AVX-512 build")
        else
            echo "  control: the zmm check finds zmm registers in $(wc -l <<<"$zmm") wrapper(s) or symbol(s)"
        fi
    fi
    # The AVX-512 kernel's overlapping moves and compares take the AVX2
    # loop (ymm) in a build for Zen 4, its own elsewhere (Tuning::MoveLoop,
    # Tuning::CompareLoop): of memmove's loops, the two of an overlapping
    # move (up and down) name ymm and no zmm registers there, and the
    # compare loop of memcmp and of bcmp; none does in the other AVX-512
    # builds.
    if [[ $flags == *avx512f* && $flags != *fastmem_no_avx512* && $flags != *fastmem_portable* ]]; then
        for f in codegen_memmove_n memmove memcmp bcmp; do
            want=0
            if [[ $flags == *sse4a* ]]; then
                case $f in *memmove*) want=2 ;; *) want=1 ;; esac
            fi
            loops=$(loop_widths "$bin" "$f")
            widths=$(sort <<<"$loops" | uniq -c | awk '$2 { printf "%s%d %s", sep, $1, $2; sep = ", " }')
            ymm=$(grep -c '^ymm$' <<<"$loops" || true)
            if [ -z "$widths" ]; then
                failed+=("$tier: $f: no loop found")
            elif [ "$ymm" -ne "$want" ]; then
                failed+=("$tier: $f has $ymm ymm-only loop(s), not $want (loops: $widths)")
            else
                echo "  $f loops: $widths ($want ymm: the overlapping move's or the compare's)"
            fi
        done
        # Unaligned copies from 2 KiB: the AVX2 loop out of line
        # (Tuning::UnalignedCopyLoop), only in the build for Zen 4.
        outs=$(nm "$bin" | awk '$3 ~ /write_unaligned_out_of_line/ { print $3 }' | sort -u)
        if [[ $flags == *sse4a* ]]; then
            if [ -z "$outs" ]; then
                failed+=("$tier: no out-of-line unaligned copy loop (write_unaligned_out_of_line)")
            fi
            for f in $outs; do
                loops=$(loop_widths "$bin" "$f")
                if [ "$(grep -c . <<<"$loops")" -ne 1 ] || [ "$loops" != ymm ]; then
                    failed+=("$tier: write_unaligned_out_of_line: loops '$(tr '\n' ' ' <<<"$loops")', not one ymm-only loop")
                else
                    echo "  write_unaligned_out_of_line: one ymm loop"
                fi
            done
        elif [ -n "$outs" ]; then
            failed+=("$tier: write_unaligned_out_of_line in a build not for Zen 4")
        fi
    fi
    if [[ $tier == *-lto ]]; then
        summary+=("$tier: symbols only"); continue
    fi
    if codegen_runnable "$tier" "$bin"; then
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
    for sym in $RUNTIME $CONSTANT; do
        bytes=$(size_of "$sym")
        if [ -z "$bytes" ]; then
            failed+=("$tier: $sym missing from the binary"); continue
        fi
        note=""
        if [[ " $RUNTIME " == *" $sym "* ]]; then
            if [[ " $LIMITED " == *" $sym "* ]] && [ "$bytes" -gt "$SIZE_TARGET" ]; then
                note=" (over the $SIZE_TARGET B target)"
                if [ "${CODEGEN_ENFORCE_SIZE:-0}" = 1 ] || [[ " $BUDGET_TIERS " == *" $tier "* ]]; then
                    failed+=("$tier: $sym is $bytes B > $SIZE_TARGET")
                fi
            fi
            line="$line ${sym#codegen_}=$bytes"
        fi
        # By address range, not --disassemble=SYM: identical wrappers are
        # folded into one address with several names, and objdump shows
        # only one of them.
        start=$((16#$(awk -v s="$sym" '$4 == s { print $1 }' <<<"$syms")))
        asm=$(objdump -d --no-show-raw-insn -M intel --start-address="$start" \
            --stop-address=$((start + bytes)) "$bin" | awk '/^[[:space:]]+[0-9a-f]+:/')
        if [ -z "$asm" ]; then
            failed+=("$tier: $sym: no instructions disassembled"); continue
        fi
        aliases=$(awk -v a="$(printf '%016x' "$start")" -v s="$sym" '$1 == a && $4 != s && $4 ~ /^codegen_/ { printf " %s", $4 }' <<<"$syms")
        branch_lines=""
        if [[ " $RUNTIME " == *" $sym "* ]]; then
            # A runtime-length wrapper calls nothing: its out-of-line
            # large path is a tail jump. A call here is a landing pad
            # (`panic_cannot_unwind`, in an unwind build) or a cold path
            # that costs the wrapper a stack frame on every call.
            calls=$(grep -E "$BRANCH_RE" <<<"$asm" | classify "$start" "$((start + bytes))" | grep '^call' || true)
            if [ -n "$calls" ]; then
                note="$note FAIL: calls"
                failed+=("$tier: $sym calls ($(wc -l <<<"$calls") places)")
                branch_lines=$calls
            fi
        fi
        if [[ " $CONSTANT " == *" $sym "* ]]; then
            insns=$(wc -l <<<"$asm")
            kinds=$(grep -E "$BRANCH_RE" <<<"$asm" | classify "$start" "$((start + bytes))" || true)
            count() { grep -c "^$1" <<<"$kinds" || true; }
            n_all=$( [ -n "$kinds" ] && wc -l <<<"$kinds" || echo 0)
            n_cond=$(count cond-)
            # Calls, tail and indirect jumps; with loops, what no constant-length wrapper may have.
            n_hard=$(( $(count call) + $(count out) + $(count indirect) ))
            n_bad=$(( n_hard + $(count cond-back) + $(count jmp-back) ))
            exempt=0
            if [ "$tier" = portable ] && [[ " $EXEMPT_1518 " == *" $sym "* ]]; then exempt=1; fi
            loops_ok=0
            if [[ $tier == sse* ]] && [[ " $LOOP_1518 " == *" $sym "* ]]; then loops_ok=1; fi
            if [[ "$PLAIN" == *" $sym "* ]] && grep -qE '\{k[0-7]\}' <<<"$asm"; then
                note=" FAIL: a masked move"
                failed+=("$tier: $sym uses a masked move")
            elif [ "$n_all" -eq 0 ]; then
                note=" straight-line, $insns instructions"
            elif [ $exempt = 1 ]; then
                note=" ($n_all jumps/calls: portable 1518 B exempt, it keeps its block loop; see the header)"
            elif [ $loops_ok = 1 ] && [ "$n_hard" -eq 0 ]; then
                note=" the block loop, $n_cond conditional jumps ($(count cond-back) back), no call: SSE 1518 B loops, see the header"
            elif [ $loops_ok = 1 ]; then
                note=" FAIL: $n_hard calls, tail or indirect jumps"
                failed+=("$tier: $sym has $n_hard calls, tail or indirect jumps")
                branch_lines=$kinds
            elif [[ "$STRICT" == *" $sym "* ]]; then
                note=" FAIL: $n_all jumps/calls"
                failed+=("$tier: $sym has $n_all jumps/calls")
                branch_lines=$kinds
            elif [ "$n_bad" -ne 0 ] || [ "$n_cond" -gt 1 ]; then
                note=" FAIL: $n_cond conditional jumps, $n_bad calls/loops/tail or indirect jumps"
                failed+=("$tier: $sym has $n_cond conditional jumps and $n_bad calls/loops")
                branch_lines=$kinds
            else
                note=" straight-line except the aligned-pointer dispatch, $insns instructions"
                branch_lines=$kinds
            fi
        fi
        [ -n "$aliases" ] && note="$note (same code as$aliases)"
        printf '  %-30s %5d B%s\n' "$sym" "$bytes" "$note"
        if [ -n "$branch_lines" ]; then
            while IFS=$'\t' read -r kind insn; do
                case $kind in
                    cond-fwd) why="the aligned-pointer dispatch: (dst | src) & (W - 1) test (memset: dst)" ;;
                    jmp-fwd) why="forward jump to the shared exit" ;;
                    *) why="$kind" ;;
                esac
                [[ "$STRICT" == *" $sym "* ]] && why="$kind"
                printf '      %s    <- %s\n' "$(sed 's/^[[:space:]]*//' <<<"$insn")" "$why"
            done <<<"$branch_lines"
        fi
        if [ "${SHOW:-}" = "$sym" ]; then sed 's/^/      /' <<<"$asm"; fi
    done
    summary+=("$line")
done

echo "=== codegen summary (one runtime-n call site, bytes; memcpy_n and memset_n target <= $SIZE_TARGET)"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
    printf 'FAIL codegen: %s\n' "${failed[@]}"
    exit 1
fi
echo "codegen: all tiers passed"
