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
#   avx2-zen4 +avx2,+sse4a,+avx512f --cfg fastmem_no_avx512
#                                            avx512f, sse4a    avx2, as a build for Zen 4 gets it
#   avx512-zen4 +avx512f,+avx512bw,+avx512vl,+bmi2,+sse4a
#                                            avx512bw, sse4a   avx512, as a build for Zen 4 gets it
#                                                              (overlapping moves in the AVX2 loop)
#             (the two zen4 tiers are not in ci/test.sh's tier loop: their own steps
#             there; ci/codegen.sh has them as avx2-zen4 and avx512bw-amd)
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
        avx2-zen4) echo "-C target-feature=+avx2,+sse4a,+avx512f --cfg fastmem_no_avx512" ;;
        avx512-zen4) echo "-C target-feature=+avx512f,+avx512bw,+avx512vl,+bmi2,+sse4a" ;;
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
        avx2) echo avx2 ;;
        avx512 | avx512-nomask) echo avx512 ;;
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
