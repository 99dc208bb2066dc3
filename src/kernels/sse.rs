//! The SSE kernel: 16-byte `__m128i` registers, SSE2 only (the x86_64
//! baseline). `+sse4.2` builds select it too: SSE4.2 adds nothing a copy
//! can use.

use super::arch::*;

use crate::vector::Tuning;
use crate::Kernel;

simd_vector!(
    __m128i,
    half = u64,
    splat = _mm_set1_epi8,
    load = (_mm_loadu_si128, _mm_load_si128),
    store = (_mm_storeu_si128, _mm_store_si128),
    xor = _mm_xor_si128,
    or = _mm_or_si128,
    ne_mask = ne_mask,
    eq_mask = eq_mask,
    is_zero = is_zero,
    stream = _mm_stream_si128
);

/// Compare and movemask: bit `i` set where byte `i` differs.
#[inline(always)]
fn ne_mask(a: __m128i, b: __m128i) -> u64 {
    // SAFETY: register-only SSE2, the x86_64 baseline this kernel needs.
    let eq = unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) } as u32;
    u64::from(eq ^ 0xFFFF)
}

/// Compare and movemask: bit `i` set where byte `i` is equal.
#[inline(always)]
fn eq_mask(a: __m128i, b: __m128i) -> u64 {
    // SAFETY: register-only SSE2, the x86_64 baseline this kernel needs.
    u64::from(unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) } as u32)
}

/// `ptest` where SSE4.1 is on; else compare with zero and movemask.
#[inline(always)]
fn is_zero(x: __m128i) -> bool {
    cfg_if::cfg_if! {
        if #[cfg(target_feature = "sse4.1")] {
            // SAFETY: register-only; SSE4.1 is enabled.
            unsafe { _mm_testz_si128(x, x) != 0 }
        } else {
            // SAFETY: register-only SSE2.
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())) == 0xFFFF }
        }
    }
}
static_assertions::assert_eq_size!(__m128i, [u8; 16]);

impl Tuning for __m128i {
    const KERNEL: Kernel = Kernel::Sse;
    /// 128 B; 256 with `--cfg fastmem_mixed_sizes` (129-256 B as eight
    /// vectors from each end, no loop). On the Zen 5 the 256-B form took
    /// uniform random sizes of 1-256 B from 23.9 to 16.6 ticks and 256-B
    /// ring packets from 0.84-0.88x DPDK to 0.99-1.02x, but hot 129-224 B
    /// copies and fills 15-45% slower, as on `intel-6-207` (40%): the
    /// trade the mixed-sizes class makes on the wider kernels, so it is
    /// that cfg's form here (benches/NOTEBOOK.md, "`amd-26-2`: the SSE ladder to
    /// 256 B").
    const NOLOOP_MAX: usize = if crate::generic::MIXED_SIZES {
        256
    } else {
        128
    };
    const LOOP_BLOCK: usize = 64;

    /// Two 64-byte blocks a turn in the unaligned loop of a copy or fill
    /// (the vhost ring's: its destination is 12 bytes past a line). On the
    /// Zen 4 (`amd-25-17`), in `vhost_enqueue`, the builds in turn, three
    /// rounds each, two code layouts, DPDK's ticks over fastmem's: 256-B
    /// packets into a 512 MiB ring 0.62-0.82x -> 0.93-0.98x (into a 16 MiB
    /// one 0.96-0.97x -> 0.94x), 512 B into the 16 MiB ring 0.81-0.92x ->
    /// 0.94-0.95x (into DRAM it moved with the layout, -0.04 to +0.05),
    /// 1 KiB 0.98-0.99x -> 0.99-1.01x; hot copies and fills within the
    /// placement noise. The same stores in the same order, half the turns,
    /// as on the Zen 5's AVX-512 ring ("`amd-26-2`: two blocks a turn").
    /// The call site has the room: `memcpy` 543 B, `memset` 519 B (415
    /// and 439 with one block), where pairing the aligned loop too
    /// (`fastmem_paired_blocks`) takes `memcpy` to 661 B, past 600
    /// (benches/NOTEBOOK.md, "`amd-25-17`: the SSE ring's loop, two blocks
    /// a turn"). Not measured on the other CPUs.
    const UNALIGNED_TURN: usize = 2;

    /// An aligned destination fills with the aligned loop: 192 B-1 KiB
    /// went from 0.71-0.82x glibc's SSE2 `memset` to 0.84-1.02x
    /// (benches/NOTEBOOK.md, "The aligned-destination fill").
    const FILL_ALIGNED_LOOP: bool = true;

    /// `rep movsb` takes over from 1518 B (fills: below): 16-byte stores
    /// cap the loop near 40 B/tick, and the string instructions cost a
    /// near-flat 37-51 ticks from 1280 B to 2 KiB. The loop wins by 13-22%
    /// at 1280-1408 B and by 4-8% at 1518-1600 B; from 1664 B the string
    /// instructions win or tie, and at 2-8 KiB they take half the time to
    /// two thirds (benches/NOTEBOOK.md, "`rep movsb` cut-over, re-measured").
    /// The threshold sits at 1518 rather than 1664 so that a constant
    /// 1518-byte copy (a full Ethernet frame) is one `rep movsb`, where the
    /// 23-turn loop would not unroll (issue 3: straight-line code for
    /// constant sizes). On `amd-25-1` too it beat the loop from 1518 B,
    /// by 1.1-1.8x at 1518 B-8 KiB.
    const STRING_COPY_MIN: usize = super::string::cut_over(1518);
    /// `rep stosb` takes over from 2 KiB: at 1518 B it lost on every CPU
    /// measured (0.91-0.92x glibc's 16-byte loop on `intel-6-207`,
    /// 0.58-0.64x on `amd-25-1`, 0.96x the loop on `amd-26-2`); at exactly
    /// 2 KiB it won by 1.22-1.47x on `intel-6-207` (its recorded `rep_stosb`
    /// column against glibc's loop; not re-measured) and by 1.21-1.48x on the
    /// Zen 5 (`amd-26-2`: 33.3 against 40.2 ticks aligned, 37.4 against
    /// 55.2 at dst+1), and lost by 0.83-0.99x on the Zen 3, where the loop
    /// wins up to 2 KiB and the string instruction from 2.5 KiB. The SSE
    /// tier is a baseline build and cannot tell them apart: 2 KiB loses at
    /// most 17% on one CPU, where 2 KiB + 1 (glibc's threshold, kept
    /// before `amd-26-2`) lost up to 48% on two.
    const STRING_FILL_MIN: usize = super::string::cut_over(2048);

    /// Compares test 128 bytes (8 vectors) at a time, not 64: against
    /// glibc's SSE2 `memcmp`, equal ranges from 384 B went from 0.92-1.07x
    /// to 1.01-1.21x, and `bcmp` with a difference at a random place from
    /// 0.94-0.99x to 0.96-1.39x; `memcmp` with one went from 0.90-0.93x to
    /// 0.84-0.97x, its search of the block being twice as long
    /// (benches/NOTEBOOK.md, "memcmp and bcmp"). Locating the difference from
    /// the block's OR tree (`compare::Fields`) instead of loading it again
    /// took memcmp diff to 0.92-1.13x from 192 B (27.4-196.8 ticks against
    /// glibc's 31.0-194.8; before, 0.84-0.97x, 32.2-201.2 ticks; "memcmp
    /// and bcmp", "After (2026-12-01)").
    const COMPARE_BLOCK: usize = 128;

    super::string::rep_string_fns!();
}
