# Tier table shared by ci/fuzz.sh, ci/asan.sh, ci/valgrind.sh and ci/freestanding.sh.
# Source it; it defines no side effects beyond functions and the variables below.
#
#   tier      RUSTFLAGS fragment             CPU flag needed to run it
#   sse       (none: x86_64 baseline)        sse2
#   avx2      -C target-feature=+avx2        avx2
#   avx512    -C target-feature=+avx512f     avx512f
#   portable  --cfg fastmem_portable         (none)

HARDENING_SIMD_TIERS="sse avx2 avx512"

# tier_rustflags TIER: print the RUSTFLAGS fragment that selects TIER.
tier_rustflags() {
    case "$1" in
        sse) echo "" ;;
        avx2) echo "-C target-feature=+avx2" ;;
        avx512) echo "-C target-feature=+avx512f" ;;
        portable) echo "--cfg fastmem_portable" ;;
        *) echo "unknown tier: $1" >&2; return 2 ;;
    esac
}

# tier_cpu_feature TIER: the /proc/cpuinfo flag a CPU needs to run TIER's code.
tier_cpu_feature() {
    case "$1" in
        sse) echo sse2 ;;
        avx2) echo avx2 ;;
        avx512) echo avx512f ;;
        portable) echo "" ;;
        *) echo "unknown tier: $1" >&2; return 2 ;;
    esac
}

# tier_runnable TIER: succeed when this CPU can run TIER; otherwise print
# "SKIP <tier>: CPU lacks <feature>" and fail.
tier_runnable() {
    local feature
    feature=$(tier_cpu_feature "$1") || return 2
    if [ -z "$feature" ] || grep -qw "$feature" /proc/cpuinfo; then
        return 0
    fi
    echo "SKIP $1: CPU lacks $feature"
    return 1
}

# now_s: seconds since the epoch, for timing steps.
now_s() { date +%s; }
