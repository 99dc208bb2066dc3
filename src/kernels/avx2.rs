//! The AVX2 kernel: 32-byte `__m256i` registers.
//!
//! The loop moves 128-byte blocks (4 × 32 B): DPDK found that a 256-byte
//! unrolled loop filled the store buffer and stalled vhost enqueue on
//! Haswell/Broadwell, a loss only a streaming, packet-like workload shows.

use super::arch::*;

use crate::vector::Tuning;
use crate::Kernel;

simd_vector!(
    __m256i,
    half = __m128i,
    splat = _mm256_set1_epi8,
    load = (_mm256_loadu_si256, _mm256_load_si256),
    store = (_mm256_storeu_si256, _mm256_store_si256),
    xor = _mm256_xor_si256,
    or = _mm256_or_si256,
    ne_mask = ne_mask,
    eq_mask = eq_mask,
    is_zero = is_zero,
    stream = _mm256_stream_si256,
    joinable = JOINABLE
);

/// Whether LLVM might join two of this kernel's 32-byte vectors into one
/// 64-byte move ([`Vector::JOINABLE`](crate::vector::Vector::JOINABLE)):
/// where the build enables AVX-512F and takes this kernel all the same
/// (`--cfg fastmem_no_avx512`), and in a build for Zen 4
/// ([`AMD_ZEN4`](super::cores::AMD_ZEN4)), whose AVX-512 kernel moves
/// overlapping ranges with this kernel's loop (`Tuning::MoveLoop`).
/// Elsewhere the AVX-512 kernel's 32-byte halves keep LLVM's choice.
///
/// In a build for Zen 4 (where LLVM does not prefer 256-bit vectors) the
/// overlapping `memmove` loop loaded and stored its 128-byte blocks as two
/// zmm vectors, the 65-256 B moves two of their vectors as one, and fills
/// of a constant byte stored zmm constants: 512-bit code in a build that
/// asked for none, and a zmm store splits a cache line wherever the
/// destination is 32- but not 64-byte aligned. Kept to ymm on
/// `amd-25-17`: overlapping moves of 192 B-2 KiB 0.4-3.7 TSC ticks a call
/// faster (320 B 28.9-30.3 -> 25.2-27.9, glibc's 23.6-26.6), but down by
/// 1-17 B at 4 and 8 KiB 5-8% slower; fills of a constant byte at dst+1 of
/// 48-256 B 1.3-2.1 faster (benches/NOTEBOOK.md, "`amd-25-17`: the AVX2
/// kernel kept to ymm where AVX-512 is enabled"). The copies showed none
/// (their loop stores each vector as it loads it). `memcmp` may still test
/// two 32-byte compares' masks as one zmm where it looks for the first
/// difference: left to LLVM (a barrier on the masks cost equal compares
/// of 48-256 B 0.6-0.7 ticks).
///
/// Not where LLVM keeps adjacent ymm moves apart itself (`--cfg
/// fastmem_ymm_kept`, from build.rs's probe: its tunings for Intel's
/// AVX-512 server cores, `native` on them included, and `x86-64-v4`).
/// There the second source pointer only cost time: on `intel-6-167`
/// (`-C target-cpu=native`, Rocket Lake's tuning) moves without overlap
/// of 96-128 B took 4.0-4.2 ticks with it and 3.2-3.4 without (fastmem's
/// `memcpy` 3.3); fills, and overlapping moves below 4 KiB, came out
/// within the runs' noise either way, and at 4 KiB overlapping moves
/// going up were 7-10% faster with it and going down 6-8% slower
/// (benches/NOTEBOOK.md, "`intel-6-167`: the AVX2 kernel's moves apart
/// where LLVM keeps ymm").
const JOINABLE: bool = cfg!(target_feature = "avx512f")
    && (cfg!(fastmem_no_avx512) || super::cores::AMD_ZEN4)
    && !cfg!(fastmem_ymm_kept);

/// Compare and movemask: bit `i` set where byte `i` differs.
#[inline(always)]
pub(super) fn ne_mask(a: __m256i, b: __m256i) -> u64 {
    // SAFETY: register-only; AVX2 is enabled wherever this file compiles.
    let eq = unsafe { _mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b)) } as u32;
    u64::from(!eq)
}

/// Compare and movemask: bit `i` set where byte `i` is equal.
#[inline(always)]
pub(super) fn eq_mask(a: __m256i, b: __m256i) -> u64 {
    // SAFETY: register-only; AVX2 is enabled wherever this file compiles.
    u64::from(unsafe { _mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b)) } as u32)
}

/// `vptest`.
#[inline(always)]
fn is_zero(x: __m256i) -> bool {
    // SAFETY: register-only; AVX (implied by AVX2) is enabled.
    unsafe { _mm256_testz_si256(x, x) != 0 }
}
static_assertions::assert_eq_size!(__m256i, [u8; 32]);

impl Tuning for __m256i {
    const KERNEL: Kernel = Kernel::Avx2;
    type MoveLoop = Self;
    type CompareLoop = Self;
    type UnalignedCopyLoop = Self;
    const NOLOOP_MAX: usize = 256;
    const LOOP_BLOCK: usize = 128;

    /// An aligned destination fills with the aligned loop: 384 B-4 KiB went
    /// from 0.86-1.05x glibc's AVX2 `memset` to 0.79-1.26x, a loss only at
    /// 768 B (12.4 against 12.5-13.4 ticks), gains of 1.3-1.7 ticks at
    /// 384 B and 1-4 KiB (benches/NOTEBOOK.md, "The aligned-destination fill").
    const FILL_ALIGNED_LOOP: bool = true;

    /// The short loop tail (benches/NOTEBOOK.md, "`amd-26-2`: the loop's short
    /// tail"): on the Zen 5, dst+1/src+3 copies and fills at sizes it
    /// shortens ran 1.1-1.3x faster; on the SSE kernel, whose tail vectors
    /// are 16 B, called copies of 576-1400 B lost 7-13% with it. Graded (2,
    /// 4 or 5 vectors) since 2026-12-03: on the Zen 4, dst+1/src+3 copies
    /// and fills of 576-1024 B 1.05-1.19x faster, none slower beyond
    /// run-to-run noise ("`amd-25-17`: the loop's graded tail"). The
    /// aligned loop keeps its whole last block
    /// ([`SHORT_TAIL_ALIGNED`](Tuning::SHORT_TAIL_ALIGNED) off): with the
    /// graded tail there, aligned copies of 513-1024 B took 0.79-1.18x
    /// the time from run to run, and in the machine's slow state ran at
    /// 0.79-1.02x the speed of the whole block.
    const SHORT_TAIL: bool = true;

    /// In a build for Zen 4 ([`AMD_ZEN4`](super::cores::AMD_ZEN4): this
    /// kernel there with `--cfg fastmem_no_avx512`), copies of 65-128 B
    /// load all four vectors before the first store. On `amd-25-17`, both
    /// forms in one binary, in the machine's slow state: aligned, 8.9-9.2
    /// ticks a call instead of 11.6-11.7 (glibc 8.0-8.8, DPDK 11.2-12.0),
    /// inlined 6.1-6.5 instead of 8.7; dst+1/src+3 8.2-8.7 instead of
    /// 11.1-11.6, inlined 5.6-6.3 instead of 8.3-8.6. In its fast state,
    /// aligned 5.0-5.6 instead of 5.7-6.4 (inlined 2.9-3.6 instead of
    /// 4.3), dst+1/src+3 5.6-5.7 instead of 6.4, but inlined 4.9-5.0
    /// instead of 4.3. Mixed sizes unchanged (benches/NOTEBOOK.md, "`amd-25-17`:
    /// copies of 2 vectors that load first"). Zen 3, and a Zen 4 whose
    /// hypervisor hides AVX-512 (the same features), are not measured and
    /// keep the default.
    const LOAD_FIRST: bool = super::cores::AMD_ZEN4;

    /// On Intel (`intel-6-207`), `rep movsb` ties from 4 KiB with aligned
    /// pointers and wins by 15-24% with a misaligned source at 4-8 KiB,
    /// and loses at 2 KiB (benches/NOTEBOOK.md, "`rep movsb` cut-over,
    /// re-measured" and the section before it). In a build for Zen 1-3
    /// ([`AMD_ZEN3`](super::cores::AMD_ZEN3)) the loop runs at every size:
    /// there `rep movsb` took 1.2-1.6x the loop's time at 4-8 KiB (0.59x
    /// DPDK's AVX2 `rte_memcpy` with dst+1/src+3) and never won above. In
    /// one for Zen 4 and 5 ([`AMD_AVX512`](super::cores::AMD_AVX512)) it
    /// takes over from 26 KiB
    /// ([`AMD_AVX512_COPY_MIN`](super::string::AMD_AVX512_COPY_MIN)), as on
    /// the AVX-512 kernel: it lost 1.5x at 4-8 KiB hot, and won from
    /// 26 KiB by 1.3-1.8x on the Zen 5.
    const STRING_COPY_MIN: usize = if super::cores::AMD_ZEN3 {
        usize::MAX
    } else if super::cores::AMD_AVX512 {
        super::string::AMD_AVX512_COPY_MIN
    } else {
        super::string::cut_over(4096)
    };
    /// `rep stosb` takes over from 16 KiB on Intel: single warm fills of
    /// 16-32 KiB ran 0.71-0.79x its speed in the 32-byte loop, and
    /// 1-2 MiB 0.91x; hot in L1, to 8 KiB, the loop still wins
    /// (benches/NOTEBOOK.md, "Large copies"). Never on Zen 1-3, where the loop
    /// filled 16 KiB-4 MiB 1.01-1.08x faster; from 1 MiB on Zen 4 and 5,
    /// where the loop won up to the L2's size (1 MiB) and lost beyond.
    const STRING_FILL_MIN: usize = if super::cores::AMD_ZEN3 {
        usize::MAX
    } else if super::cores::AMD_AVX512 {
        super::string::AMD_AVX512_FILL_MIN
    } else {
        super::string::cut_over(16 << 10)
    };

    super::string::rep_string_fns!();
}
