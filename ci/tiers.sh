# The tier table, shared by every CI script (ci/test.sh, ci/asan.sh,
# ci/valgrind.sh, ci/fuzz.sh, ci/freestanding.sh, ci/codegen.sh). Source it;
# it defines functions and the variables below, nothing else.
#
#   tier      RUSTFLAGS fragment             CPU flag needed   kernel
#   sse       (none: x86_64 baseline)        sse2              sse
#   sse4.2    -C target-feature=+sse4.2      sse4_2            sse
#   avx2      -C target-feature=+avx2        avx2              avx2
#   avx512    -C target-feature=+avx512f     avx512f           avx512
#   avx512-nomask  +avx512f,+avx512bw,+avx512vl,+bmi2 --cfg fastmem_no_masked_moves --cfg fastmem_low_regs
#                                            avx512bw          avx512, plain 0-32 B moves, and the
#                                                              33-128 B copies and 0-64 B compares
#                                                              in the intrinsics' registers, not
#                                                              in registers 16-31 (src/kernels/high.rs)
#   portable  --cfg fastmem_portable         (none)            portable
#   native    -C target-cpu=native           (none)            the widest the CPU has
#   mixed     native + --cfg fastmem_mixed_sizes  (none)       the widest, with the mixed-sizes class
#   sse-mixed --cfg fastmem_mixed_sizes  sse2              sse, its ladder to 256 B (the cfg's SSE form)
#   paired    native + --cfg fastmem_paired_blocks (none)      the widest, two loop blocks a turn
#   narrow    native + --cfg fastmem_narrow_stores (none)      the widest, 33-64 B copies as 16-byte stores
#   avx2-zen3 +avx2,+sse4a                   avx2              avx2, as a build for Zen 1-3 gets it
#   avx2-zen4 +avx2,+sse4a,+avx512f --cfg fastmem_no_avx512
#                                            avx512f           avx2, as a build for Zen 4 gets it
#   avx512-zen4 +avx512f,+avx512bw,+avx512vl,+bmi2,+sse4a
#                                            avx512bw          avx512, as a build for Zen 4 gets it
#                                                              (overlapping moves in the AVX2 loop)
#   avx512-zen5 avx512-zen4's and +avxvnni   avx512bw          avx512, as a build for Zen 5 gets it
#             (the AMD tiers are not in ci/test.sh's tier loop: their own steps
#             there, which run them on any CPU with the flag shown whose test
#             binaries hold no instruction it lacks (`foreign_instructions`),
#             an Intel one included; ci/codegen.sh has avx2-amd, avx2-zen4
#             and avx512bw-amd)
#
# CPUINFO=FILE reads CPU flags from FILE instead of /proc/cpuinfo (to test
# the SKIP path).

CPUINFO=${CPUINFO:-/proc/cpuinfo}
HARDENING_SIMD_TIERS="sse avx2 avx512"

# tier_rustflags TIER: print the RUSTFLAGS fragment that selects TIER.
tier_rustflags() {
    case "$1" in
        sse) echo "" ;;
        sse4.2) echo "-C target-feature=+sse4.2" ;;
        avx2) echo "-C target-feature=+avx2" ;;
        avx512) echo "-C target-feature=+avx512f" ;;
        avx512-nomask) echo "-C target-feature=+avx512f,+avx512bw,+avx512vl,+bmi2 --cfg fastmem_no_masked_moves --cfg fastmem_low_regs" ;;
        portable) echo "--cfg fastmem_portable" ;;
        native) echo "-C target-cpu=native" ;;
        mixed) echo "-C target-cpu=native --cfg fastmem_mixed_sizes" ;;
        sse-mixed) echo "--cfg fastmem_mixed_sizes" ;;
        paired) echo "-C target-cpu=native --cfg fastmem_paired_blocks" ;;
        narrow) echo "-C target-cpu=native --cfg fastmem_narrow_stores" ;;
        avx2-zen3) echo "-C target-feature=+avx2,+sse4a" ;;
        avx2-zen4) echo "-C target-feature=+avx2,+sse4a,+avx512f --cfg fastmem_no_avx512" ;;
        avx512-zen4) echo "-C target-feature=+avx512f,+avx512bw,+avx512vl,+bmi2,+sse4a" ;;
        avx512-zen5) echo "-C target-feature=+avx512f,+avx512bw,+avx512vl,+bmi2,+sse4a,+avxvnni" ;;
        *) echo "unknown tier: $1" >&2; return 2 ;;
    esac
}

# tier_cpu_feature TIER: the /proc/cpuinfo flag a CPU needs to run TIER's code.
tier_cpu_feature() {
    case "$1" in
        sse | sse-mixed) echo sse2 ;;
        sse4.2) echo sse4_2 ;;
        avx2) echo avx2 ;;
        avx512) echo avx512f ;;
        avx512-nomask) echo avx512bw ;;
        portable | native | mixed | paired | narrow) echo "" ;;
        avx2-zen3) echo avx2 ;;
        avx2-zen4) echo avx512f ;;
        avx512-zen4 | avx512-zen5) echo avx512bw ;;
        *) echo "unknown tier: $1" >&2; return 2 ;;
    esac
}

cpu_has() {
    grep -qw -- "$1" "$CPUINFO"
}

# tier_kernel TIER: the kernel fastmem must compile to for TIER.
tier_kernel() {
    case "$1" in
        sse | sse4.2 | sse-mixed) echo sse ;;
        avx2 | avx2-zen3 | avx2-zen4) echo avx2 ;;
        avx512 | avx512-nomask | avx512-zen4 | avx512-zen5) echo avx512 ;;
        portable) echo portable ;;
        native | mixed | paired | narrow)
            if cpu_has avx512f; then echo avx512
            elif cpu_has avx2; then echo avx2
            else echo sse
            fi ;;
        *) echo "unknown tier: $1" >&2; return 2 ;;
    esac
}

# tier_runnable TIER: succeed when this CPU can run TIER; otherwise print
# "SKIP <tier>: CPU lacks <feature>" and fail.
tier_runnable() {
    local feature
    feature=$(tier_cpu_feature "$1") || return 2
    if [ -z "$feature" ] || cpu_has "$feature"; then
        return 0
    fi
    echo "SKIP $1: CPU lacks $feature"
    return 1
}

# foreign_instructions FILE...: prints the instructions in FILE... (objects
# or executables) of the two extensions that only the builds for AMD cores
# turn on, where this CPU lacks them: SSE4a (`sse4a`: extrq, insertq,
# movntss, movntsd) and AVX-VNNI (`avx_vnni`, set for Zen 5: vpdpbusd[s],
# vpdpwssd[s]). Nothing when there are none: then those builds run here as
# they would on their AMD core, their tunings being plain AVX2 and AVX-512
# code. LLVM can emit SSE4a's for some byte shuffles, and does not for
# fastmem's tests (ci/test.sh checks each build, and this function against
# an object that holds one).
foreign_instructions() {
    local pattern="" file
    cpu_has sse4a || pattern+="|extrq|insertq|movntss|movntsd"
    cpu_has avx_vnni || pattern+="|vpdpbusds?|vpdpwssds?"
    [[ -n $pattern ]] || return 0
    for file in "$@"; do
        objdump -d --no-show-raw-insn "$file" |
            grep -E "^ +[0-9a-f]+:"$'\t'"(\{vex\} *)?(${pattern#|})( |$)" || true
    done
}

# tier_mixed TIER: 1 when TIER builds the mixed-sizes class, else 0.
tier_mixed() {
    case "$1" in
        mixed | sse-mixed) echo 1 ;;
        *) echo 0 ;;
    esac
}

# tier_narrow TIER: 1 when TIER builds the narrow stores, else 0.
tier_narrow() {
    case "$1" in
        narrow) echo 1 ;;
        *) echo 0 ;;
    esac
}

# now_s: seconds since the epoch, for timing steps.
now_s() { date +%s; }
