# Sourced by benches/tiers.sh, benches/record.sh and benches/experiments/ab-generic.sh: the
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

# bench_tier_skipped TIER: succeeds, printing a SKIP line, when this CPU
# cannot run TIER's kernel (ci/tiers.sh's table: avx512 needs avx512f,
# avx2 avx2). The avx512 tier is `-C target-cpu=native`: on a CPU without
# AVX-512F (an AMD EPYC of the Zen 3 family, say) it would build the avx2
# tier's kernel again, under a name that says otherwise.
source ci/tiers.sh
bench_tier_skipped() { ! tier_runnable "$1"; }

# Flags every tier gets on top (FUNC_ALIGN and EXTRA_RUSTFLAGS: see
# benches/tiers.sh). Every function on a 2^FUNC_ALIGN-byte boundary by
# default, as glibc's memcpy/memset are.
FUNC_ALIGN=${FUNC_ALIGN-6}
BENCH_COMMON_FLAGS="${EXTRA_RUSTFLAGS:-}${FUNC_ALIGN:+ -C llvm-args=-align-all-functions=$FUNC_ALIGN}"

# GLIBC_TUNABLES for a tier under GLIBC_WIDTH=tier (empty: leave glibc be;
# see benches/tiers.sh).
# Masking AVX-512 alone picks the RTM variant here, and masking RTM alone
# falls back to sse2 (glibc then prefers no vzeroupper), hence the list.
glibc_tunables() {
    [ "${GLIBC_WIDTH:-ifunc}" = tier ] || return 0
    local no512="-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD,-RTM,-Prefer_No_VZEROUPPER"
    case $1 in
        avx2) echo "glibc.cpu.hwcaps=$no512" ;;
        sse | sse4.2 | portable) echo "glibc.cpu.hwcaps=$no512,-AVX2,-AVX_Fast_Unaligned_Load" ;;
    esac
}
