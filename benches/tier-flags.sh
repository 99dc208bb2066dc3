# Sourced by benches/tiers.sh and benches/experiments/ab-generic.sh: the
# RUSTFLAGS each benchmark tier is built with, so that both build alike. The SIMD tiers take this
# CPU's full feature set (AVX-512BW/VL, BMI2, ...), as a datapath built with
# `-C target-cpu=native` would; ci/tiers.sh's flags enable one feature each,
# for testing.

# bench_tier_flags TIER: the tier's RUSTFLAGS.
bench_tier_flags() {
    case $1 in
        avx512) echo "-C target-cpu=native" ;;
        avx2) echo "-C target-cpu=native --cfg fastmem_no_avx512" ;;
        sse) echo "" ;;
        sse4.2) echo "-C target-feature=+sse4.2" ;;
        portable) echo "--cfg fastmem_portable" ;;
        *) echo "unknown tier $1" >&2; return 2 ;;
    esac
}

# Flags every tier gets on top (FUNC_ALIGN and EXTRA_RUSTFLAGS: see
# benches/tiers.sh). Every function on a 2^FUNC_ALIGN-byte boundary by
# default, as glibc's memcpy/memset are.
FUNC_ALIGN=${FUNC_ALIGN-6}
BENCH_COMMON_FLAGS="${EXTRA_RUSTFLAGS:-}${FUNC_ALIGN:+ -C llvm-args=-align-all-functions=$FUNC_ALIGN}"
