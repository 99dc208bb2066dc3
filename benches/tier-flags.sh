# Sourced by benches/tiers.sh and benches/experiments/ab-generic.sh: the
# RUSTFLAGS each benchmark tier is built with. The SIMD tiers take this
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
