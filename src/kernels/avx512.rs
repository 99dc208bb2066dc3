//! The AVX-512 kernel: 64-byte `__m512i` registers, AVX-512F only.
//!
//! Opt out with `--cfg fastmem_no_avx512` on CPUs where 512-bit instructions
//! lower the clock; the build then selects the AVX2 kernel.

use super::arch::*;

use crate::vector::Tuning;
use crate::Kernel;

simd_vector!(
    __m512i,
    half = __m256i,
    splat = _mm512_set1_epi8,
    load = (_mm512_loadu_si512, _mm512_load_si512),
    store = (_mm512_storeu_si512, _mm512_store_si512),
    xor = _mm512_xor_si512,
    or = _mm512_or_si512,
    ne_mask = ne_mask,
    eq_mask = eq_mask,
    is_zero = is_zero,
    stream = _mm512_stream_si512
);

/// Bit `i` set where byte `i` differs: one byte compare into a mask
/// register with AVX-512BW; with AVX-512F alone, which has no byte
/// compares, the two 256-bit halves through AVX2 (which rustc's `avx512f`
/// implies).
#[inline(always)]
fn ne_mask(a: __m512i, b: __m512i) -> u64 {
    cfg_if::cfg_if! {
        if #[cfg(target_feature = "avx512bw")] {
            // SAFETY: register-only; AVX-512BW is enabled.
            unsafe { _mm512_cmpneq_epi8_mask(a, b) }
        } else {
            // SAFETY: register-only AVX-512F and AVX2.
            let half = |i: i32| unsafe {
                if i == 0 {
                    (_mm512_castsi512_si256(a), _mm512_castsi512_si256(b))
                } else {
                    (_mm512_extracti64x4_epi64::<1>(a), _mm512_extracti64x4_epi64::<1>(b))
                }
            };
            let ((a0, b0), (a1, b1)) = (half(0), half(1));
            super::avx2::ne_mask(a0, b0) | super::avx2::ne_mask(a1, b1) << 32
        }
    }
}

/// Bit `i` set where byte `i` is equal; as [`ne_mask`].
#[inline(always)]
fn eq_mask(a: __m512i, b: __m512i) -> u64 {
    cfg_if::cfg_if! {
        if #[cfg(target_feature = "avx512bw")] {
            // SAFETY: register-only; AVX-512BW is enabled.
            unsafe { _mm512_cmpeq_epi8_mask(a, b) }
        } else {
            !ne_mask(a, b)
        }
    }
}

/// `vptestmq` into a mask register: zero when no bit is set.
#[inline(always)]
fn is_zero(x: __m512i) -> bool {
    // SAFETY: register-only; AVX-512F is enabled.
    unsafe { _mm512_test_epi64_mask(x, x) == 0 }
}
static_assertions::assert_eq_size!(__m512i, [u8; 64]);

/// The kernel whose loops move overlapping ranges above `NOLOOP_MAX`,
/// compare above its own `NOLOOP_MAX` (256 B on Zen 4), and copy from 2
/// KiB where the pointers are not both aligned (`Tuning::MoveLoop`,
/// `Tuning::CompareLoop`, `Tuning::UnalignedCopyLoop`): the AVX2 kernel
/// in a build for Zen 4, this one elsewhere.
#[cfg(all(target_feature = "sse4a", not(target_feature = "avxvnni")))]
type Zen4Loop = __m256i;
#[cfg(not(all(target_feature = "sse4a", not(target_feature = "avxvnni"))))]
type Zen4Loop = __m512i;
// `Zen4Loop`'s cfg names a build for Zen 4 exactly as `cores::AMD_ZEN4` does.
static_assertions::const_assert!(
    (<Zen4Loop as crate::vector::Vector>::BYTES == 32) == super::cores::AMD_ZEN4
);

impl Tuning for __m512i {
    const KERNEL: Kernel = Kernel::Avx512;
    const NOLOOP_MAX: usize = 512;
    const LOOP_BLOCK: usize = 256;

    /// Fills with an aligned destination at 768 B-2 KiB took 10.8-26.2
    /// ticks with the aligned loop against 12.2-27.8 without, where glibc
    /// took 10.7-26.5 (benches/NOTEBOOK.md, "The aligned-destination fill").
    const FILL_ALIGNED_LOOP: bool = true;

    /// The short loop tail (benches/NOTEBOOK.md, "`amd-26-2`: the loop's short
    /// tail"): on the Zen 5, dst+1/src+3 copies and fills at sizes it
    /// shortens ran 1.1-1.3x faster; on the SSE kernel, whose tail vectors
    /// are 16 B, called copies of 576-1400 B lost 7-13% with it. Graded (2,
    /// 4 or 5 vectors) since 2026-12-03 ("`amd-25-17`: the loop's graded
    /// tail").
    const SHORT_TAIL: bool = true;

    /// The aligned loop takes the graded tail too, after as many blocks as
    /// the unaligned one: on the Zen 4, aligned copies and fills of
    /// 513-640 B, 896 B and 1100 B ran 1.1-1.5x faster (513 B: 18.6-19.0
    /// ticks to 13.1-13.3, DPDK 14.5), the other sizes within 0.94-1.05x
    /// in turn; and the `memcpy` call site, whose two loops then share
    /// their tail, took 586 B, where the graded tail in the unaligned loop
    /// alone took 601 (benches/NOTEBOOK.md, "`amd-25-17`: the loop's graded
    /// tail").
    const SHORT_TAIL_ALIGNED: bool = true;

    /// One vector of the tail at `n`, and the aligned copy through the
    /// unaligned loop, which makes room for it in the call site (`memcpy_n`
    /// 598 B with two ends and two loops, 509 with one loop, 536 with
    /// both): on `intel-6-167` aligned copies, fills and disjoint moves of
    /// 520-1048 B 4-8% faster again, 664 B 10.0 -> 9.4 TSC ticks (DPDK's
    /// `rte_memcpy` 9.5) (benches/NOTEBOOK.md, "`intel-6-167`: one copy
    /// loop, and one vector of the tail at `n`"). With one vector at `n`, a
    /// copy's tail takes as many middle vectors as the bytes left need, 0
    /// to 4 ("`intel-6-167`: the copy tail's exact count"). Not in builds
    /// for AMD cores, where none of this is measured.
    const TAIL_ENDS: usize = if super::cores::AMD { 2 } else { 1 };
    const ONE_COPY_LOOP: bool = !super::cores::AMD;

    /// A 64-byte copy as two ymm moves, as DPDK's `rte_memcpy` moves 33-64
    /// B, rather than the same zmm move twice: everywhere but Zen 5.
    ///
    /// - Zen 4, whose 512-bit stores are two store operations each: the
    ///   64-byte packets of the vhost ring (`examples/vhost_enqueue --mib
    ///   16`) went from 0.82-0.97x DPDK's speed to 1.00-1.02x (three
    ///   rounds, the two builds alternating); hot 64-byte copies, both
    ///   forms in one binary, from 5.0 to 4.2 ticks a call, and inlined
    ///   with dst+1/src+3 from 4.3 to 2.9; other sizes unchanged.
    /// - Intel (`intel-6-167`, a KVM guest reporting CPUID model 167 with
    ///   AMX and AVX512-FP16): the ring's 64-byte packets from 0.95-0.97x
    ///   DPDK to 0.99-1.02x, into L3 and into DRAM (five rounds each);
    ///   hot dst+1/src+3 64-byte copies from 3.7-3.8 to 3.3-3.4 ticks,
    ///   inlined from 2.9-3.0 to 2.2-2.3 (DPDK 2.2-2.3); aligned ones
    ///   unchanged (3.3-3.4). Not measured on `intel-6-207`.
    /// - Not on Zen 5 ([`AMD_ZEN5`](super::cores::AMD_ZEN5)), whose
    ///   512-bit stores are one operation: there 64-byte copies went from
    ///   5.2 to 5.8 ticks with halves.
    ///
    /// Fills keep the full rung: their 64 B went from 7.0 to 7.4 ticks
    /// with halves on Zen 4 (benches/NOTEBOOK.md, "`amd-26-2`: a 64-byte
    /// copy as two halves", "`amd-25-17` with AVX-512: a 64-byte copy as
    /// two halves" and "`intel-6-167`: a 64-byte copy as two halves").
    const HALVES_AT_WIDTH: bool = !super::cores::AMD_ZEN5;

    /// In a build for Zen 4 ([`AMD_ZEN4`](super::cores::AMD_ZEN4)), a move
    /// whose ranges overlap takes the AVX2 kernel's loop above 512 B:
    /// ymm vectors in 128-byte blocks, kept from being joined into zmm
    /// ones ([`JOINABLE`](crate::vector::Vector::JOINABLE)). On
    /// `amd-25-17` the 512-bit loop ran those moves slower than the
    /// 256-bit one at every size it serves, up or down by 1, 17 and 67 B:
    /// 513-600 B 37-47 TSC ticks a call against 30-34, 768 B 42-45
    /// against 35-37 (glibc's `memmove` 41-43), 2 KiB 65-75 against 60-65,
    /// up by 1 at 8 KiB 219 against 199 (glibc 203). One loss: down by 1
    /// at exactly 4 and 8 KiB, 132 -> 141 and 223 -> 232 (glibc 132 and
    /// 222), where a run of the 512-bit loop also took 160 at 4 KiB; at
    /// 5 and 6 KiB it gains (benches/NOTEBOOK.md, "`amd-25-17`: overlapping
    /// AVX-512 moves through the AVX2 loop"). Disjoint moves keep the
    /// copy's loops, and every other build its own loop: on `intel-6-167`
    /// the AVX2 loop gained 3-9% at 600 B-1 KiB but lost up to 41% from 1
    /// KiB (up by 1 at 4 KiB 66.8 -> 79.8 ticks, glibc 67.1;
    /// benches/NOTEBOOK.md, "`intel-6-167`: the Zen 4 build's loops, and a
    /// power of two as one move, measured here"). Not measured on Zen 5.
    type MoveLoop = Zen4Loop;

    /// In a build for Zen 4, compares above 512 B take the AVX2 kernel's
    /// loop too: ymm vectors, 128-byte blocks. On `amd-25-17`, equal
    /// ranges of 513 B-8 KiB took 4-25% fewer TSC ticks (513 B 23.7 ->
    /// 17.6, 1100 B 36.6 -> 30.5, 8 KiB 202.3 -> 194.6, glibc's
    /// `memcmp`, whose loop is 32-byte EVEX code, 14.3, 30.5 and 194.6),
    /// and a difference at a random place 0-13% (2 KiB 73.4 -> 65.1), but
    /// 1.5-3% more at 768 B (benches/NOTEBOOK.md, "`amd-25-17`: AVX-512
    /// compares through the AVX2 loop"). From 257 B, not 513: the AVX2
    /// kernel's loop starts above its own no-loop sizes, and this kernel's
    /// 4-vector class (four zmm and two, or four and four) took equal
    /// 257-512 B at 0.69-0.92x glibc (400 B 16.7 ticks against 11.6, now
    /// 11.5), where the loop takes them at 0.96-1.14x; a difference at
    /// random 0.90-1.12x -> 1.14-1.28x, but `bcmp` with one 1.86-2.52x ->
    /// 1.33-1.47x (benches/NOTEBOOK.md, "`amd-25-17`: the compare loop's
    /// short tail, and Zen 4 compares from 257 B in the AVX2 loop"). On
    /// `intel-6-167` the AVX2 loop took equal compares of 257 B-8 KiB
    /// 1.2-1.6x longer and `bcmp` with a difference at 257-512 B 2-2.75x
    /// (benches/NOTEBOOK.md, "`intel-6-167`: the Zen 4 build's loops, and a
    /// power of two as one move, measured here"). Not measured on Zen 5.
    type CompareLoop = Zen4Loop;

    /// In a build for Zen 4, copies (and disjoint moves) of 2 KiB up to
    /// the `rep movsb` threshold whose pointers are not both aligned run
    /// the AVX2 kernel's unaligned loop, out of line: with the source off
    /// the destination's alignment every zmm load of the 512-bit loop
    /// crosses a line, every other ymm load does. On `amd-25-17`, five
    /// rounds: dst+1/src+3 copies of 3-16 KiB 8-12% faster (4 KiB 103.2
    /// -> 94.7 TSC ticks, 8 KiB 204.3 -> 185.7, where DPDK's `rte_memcpy`
    /// took 204.3 and glibc 204.8; 16 KiB 419.2 -> 370.9), 2 KiB 2%,
    /// 20-24 KiB within 1%; disjoint moves alike; aligned copies, IMIX and
    /// uniform 1-256 B mixes unchanged; the `memcpy` call site 582 -> 588
    /// B. From 2 KiB, not 513 B, where the loop wins as much: inline it
    /// took the call site to 646 B, and behind a call it lost 13% on
    /// inlined IMIX copies at dst+1/src+3, whose 594- and 1518-byte
    /// packets now stay inline. Fills through it gained 1-3% at 2-8 KiB
    /// and keep their loop (benches/NOTEBOOK.md, "`amd-25-17`: unaligned
    /// AVX-512 copies from 2 KiB through the AVX2 loop, out of line"). On
    /// `intel-6-167` the same copies of 3-8 KiB took 1.30-1.45x longer
    /// through it (4 KiB 54.9 -> 79.6 ticks, DPDK 55.7; "`intel-6-167`: the
    /// Zen 4 build's loops, and a power of two as one move, measured
    /// here"): Zen 4's alone.
    const UNALIGNED_COPY_OUT_MIN: usize = if super::cores::AMD_ZEN4 {
        2 << 10
    } else {
        usize::MAX
    };
    type UnalignedCopyLoop = Zen4Loop;

    /// `rep movsb` and `rep stosb` take over from 16 KiB: single copies
    /// and fills of 16 KiB-8 MiB, warm, ran 0.83-1.0x the string
    /// instructions' speed in the 64-byte loop (copies 0.87x at 16 KiB and
    /// 0.83x at 1 MiB; fills 0.89-0.94x at 2-8 MiB); at 8 KiB the loop was
    /// still 6% ahead. Below 16 KiB, hot in L1, the loop keeps the sizes it
    /// was tuned for (benches/NOTEBOOK.md, "Large copies"). Issue 10's Ice Lake-SP
    /// ran the loop at 0.74x `rep movsb` at 256 KiB (not measurable here).
    ///
    /// On Zen 4 and 5 ([`AMD_AVX512`](super::cores::AMD_AVX512)) copies
    /// hand over from 26 KiB
    /// ([`AMD_AVX512_COPY_MIN`](super::string::AMD_AVX512_COPY_MIN): on
    /// Zen 5 the loop won at 16-25 KiB and lost from 26 KiB; on Zen 4 it
    /// won to 17 KiB and tied beyond), and fills take `rep stosb` from
    /// 1 MiB: the loop filled 8-896 KiB faster on Zen 5, and tied or won on
    /// Zen 4.
    const STRING_COPY_MIN: usize = if super::cores::AMD_AVX512 {
        super::string::AMD_AVX512_COPY_MIN
    } else {
        super::string::cut_over(16 << 10)
    };
    const STRING_FILL_MIN: usize = if super::cores::AMD_AVX512 {
        super::string::AMD_AVX512_FILL_MIN
    } else {
        super::string::cut_over(16 << 10)
    };

    super::string::rep_string_fns!();

    /// From 16 KiB a call costs nothing measurable (a 16 KiB copy takes
    /// about 1000 ticks), and it keeps the runtime-size call site within
    /// 600 B: with `rep movsb` inline and a second test and call for the
    /// non-temporal loop, `memcpy_n` took 615 B (avx512f) and 631 B
    /// (avx512bw with `fastmem_mixed_sizes`), `ci/codegen.sh`.
    const LARGE_OUT_OF_LINE: bool = true;

    /// With AVX-512BW and VL (every AVX-512 CPU since Skylake-SP; what
    /// `-C target-cpu=native` enables), 0..=32 bytes are one byte-masked
    /// 32-byte load and store: 3.1 TSC ticks at every size and alignment,
    /// where the ladder took 4-9. A 64-byte mask was slower at 48-64 B with
    /// a misaligned destination (the masked store splits a line).
    /// Masked-off bytes are not accessed and cannot fault.
    ///
    /// `--cfg fastmem_no_masked_moves` takes the ladder's plain moves
    /// instead, for workloads whose small copies and fills mostly write
    /// lines that are not in L1, on CPUs where a masked store into such a
    /// line is slow. On the Zen 5 (`amd-26-2`), walking 16 MiB or 512 MiB
    /// (`sizes --suite stream-l3,stream-dram,stream-set-l3,stream-set-dram`),
    /// copies of 16-32 B took 13-28 ticks masked against 6.3-9.3 plain
    /// (DPDK 6.2-9.2), fills 5.8-15.0 against 4.2-6.1; but hot, the plain
    /// moves cost 0.6-1.9 ticks at 1-32 B and uniform random 1-256 B copies
    /// 16% (15.9 against 18.5 ticks, glibc 17.2), so masks stay the default
    /// (benches/NOTEBOOK.md, "`amd-26-2`: masked stores into lines not in L1").
    /// For the same reason fills do not mask up to 64 B as glibc's EVEX
    /// `memset` does: there, 33-64 B ran 4.0-4.3 ticks -> 2.7-3.2 hot but
    /// 5.7-7.8 -> 12.9-20.0 into lines not in L1 ("`amd-26-2`: fills of
    /// 33-64 B under one 64-byte mask").
    #[cfg(all(
        target_feature = "avx512bw",
        target_feature = "avx512vl",
        not(fastmem_no_masked_moves)
    ))]
    const MASKED_MAX: usize = 32;

    #[cfg(all(target_feature = "avx512bw", target_feature = "avx512vl"))]
    #[inline(always)]
    unsafe fn copy_masked(dst: *mut u8, src: *const u8, n: usize) {
        let k = low_mask(n);
        // SAFETY: the masked load and store touch only bytes `0..n`, which
        // the caller vouches for; avx512bw and avx512vl are enabled.
        unsafe {
            if super::high::ON {
                super::high::copy_masked(dst, src, k)
            } else {
                _mm256_mask_storeu_epi8(dst.cast(), k, _mm256_maskz_loadu_epi8(k, src.cast()))
            }
        }
    }

    /// With AVX-512BW, 0..=64 bytes compare with one byte-masked 64-byte
    /// load per operand (masked-off bytes are not accessed, cannot fault,
    /// and load as zero on both sides, so they compare equal).
    #[cfg(target_feature = "avx512bw")]
    const COMPARE_MASKED_MAX: usize = 64;

    #[cfg(target_feature = "avx512bw")]
    #[inline(always)]
    unsafe fn diff_masked<M: crate::compare::Mode>(a: *const u8, b: *const u8, n: usize) -> i32 {
        let k = low_mask64(n);
        if super::high::ON {
            // 0-32 B as ymm: a masked zmm load whose 64 bytes cross a
            // cache line paid for the split even where the bytes it loads
            // do not (benches/NOTEBOOK.md, "`intel-6-167`: memcmp's equal
            // return in registers 16-31"). The whole answer in one block:
            // see `high::diff_masked`.
            let w = if n <= 32 { 32 } else { 64 };
            // SAFETY: the masked loads touch only bytes `0..n`, which the
            // caller vouches for; `high::ON` says AVX-512BW/VL are enabled.
            return unsafe { super::high::diff_masked(a, b, k, w, M::FIRST) };
        }
        // SAFETY: as above; avx512bw is enabled.
        let m = unsafe {
            _mm512_cmpneq_epi8_mask(
                _mm512_maskz_loadu_epi8(k, a.cast()),
                _mm512_maskz_loadu_epi8(k, b.cast()),
            )
        };
        if m == 0 {
            0
        } else {
            // SAFETY: the bytes differ at the mask's lowest set bit, in
            // `0..n`.
            unsafe { M::at(a, b, m.trailing_zeros() as usize) }
        }
    }

    #[cfg(all(target_feature = "avx512bw", target_feature = "avx512vl"))]
    #[inline(always)]
    unsafe fn fill_masked(dst: *mut u8, c: u8, n: usize) {
        let k = low_mask(n);
        // SAFETY: as in `copy_masked`.
        unsafe {
            if super::high::ON {
                super::high::fill_masked(dst, c, k)
            } else {
                _mm256_mask_storeu_epi8(dst.cast(), k, _mm256_set1_epi8(c as i8))
            }
        }
    }
}

/// A mask of the low `n` bits, `n <= 32`.
#[cfg(all(target_feature = "avx512bw", target_feature = "avx512vl"))]
#[inline(always)]
fn low_mask(n: usize) -> u32 {
    debug_assert!(n <= 32);
    cfg_if::cfg_if! {
        if #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))] {
            // SAFETY: register-only; BMI2 is enabled. A 32-bit `bzhi`
            // (all bits at n = 32) saves the 64-bit constant's two bytes.
            unsafe { _bzhi_u32(u32::MAX, n as u32) }
        } else {
            low_mask64(n) as u32
        }
    }
}

/// A mask of the low `n` bits, `n <= 64`: one `bzhi` where BMI2 is on
/// (every AVX-512 CPU has it; `-C target-cpu=native` enables it), which
/// leaves all 64 bits set at `n = 64`.
#[cfg(target_feature = "avx512bw")]
#[inline(always)]
fn low_mask64(n: usize) -> u64 {
    debug_assert!(n <= 64);
    cfg_if::cfg_if! {
        if #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))] {
            // SAFETY: register-only; BMI2 is enabled.
            unsafe { _bzhi_u64(u64::MAX, n as u32) }
        } else {
            // `u64::MAX >> (64 - n)` would overflow at n = 0.
            ((1u128 << n) - 1) as u64
        }
    }
}
