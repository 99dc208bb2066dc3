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
    stream = _mm_stream_si128,
    words = _mm_set_epi64x
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
    type MoveLoop = Self;
    type CompareLoop = Self;
    type UnalignedCopyLoop = Self;
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
    /// Two 64-byte blocks a turn in the aligned loop too (and in an
    /// overlapping move's loops), the aligned loop still walking its two
    /// pointers (`LOOP_POINTERS`), then the odd block. On `intel-6-167`,
    /// the tree before against this one (with `FILL_PEEL` and
    /// `LARGE_OUT_OF_LINE` below), five rounds in turn, TSC ticks: hot
    /// aligned copies of 448 B / 512 B / 768 B / 1 KiB 12.4 / 13.7 / 18.6
    /// / 26.4 -> 10.0 / 11.1 / 16.4 / 21.7 called (DPDK's SSE
    /// `rte_memcpy` 11.8 / 12.5 / 17.9 / 24.1), IMIX random sizes with
    /// both pointers aligned 20.5 -> 17.5 (DPDK 18.4), aligned fills of
    /// 448-768 B 6-17% faster (to glibc's SSE2 `memset`, 9.8-16.4), IMIX
    /// fills 19.8 -> 16.2 (glibc 17.0), moves down by 1-19 bytes of 2 KiB
    /// 10-14% faster; uniform 1-256 B and dst+1/src+3 copies and fills,
    /// and moves up, within 4% (benches/NOTEBOOK.md, "`intel-6-167`: the
    /// SSE aligned loop, two blocks a turn with the pointer walk"). Not
    /// measured on the other CPUs. The same pairing in the index form,
    /// before the walk, had cost uniform 1-256 B fills 10% ("`intel-6-167`:
    /// the SSE kernel's aligned loop, two blocks a turn").
    const LOOP_TURN: usize = 2;
    /// A fill's aligned loop does not peel its first block: with two
    /// blocks a turn the peel cost uniform random fills of 1-256 B 7%
    /// (19.9 -> 21.3 ticks; 129-256 B take the peel, at most one turn and
    /// the odd block) and gained 4% on IMIX fills (17.3 -> 16.6); hot
    /// fills of 129 B-1518 B ran the same either way.
    const FILL_PEEL: bool = false;
    /// From the string threshold (1536 B) on, one call: `rep movsb` and
    /// the non-temporal hand-over inline took the 19 bytes of the call
    /// site that the paired aligned loop needs (`memcpy_n` 623 B with
    /// them, 584 B without; `memset_n` 516 B). The call costs inlined
    /// copies of 1536 B-8 KiB 2-4% (4 KiB 44.9 -> 46.8 ticks), and the
    /// exported `memcpy` symbol, which no longer keeps `dst` in `rax` from
    /// its entry, 0.2 ticks at 40-64 B (2.6 -> 2.8, glibc 3.5); the called
    /// wrapper runs 1536 B and up as before.
    const LARGE_OUT_OF_LINE: bool = true;

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
    /// The call site had the room: `memcpy` 543 B, `memset` 519 B (415
    /// and 439 with one block), where pairing the aligned loop too in the
    /// index form (`fastmem_paired_blocks`) took `memcpy` to 661 B, past
    /// 600 (benches/NOTEBOOK.md, "`amd-25-17`: the SSE ring's loop, two
    /// blocks a turn"); the aligned loop's pairs now walk pointers, and the
    /// large path is a call (`LOOP_TURN`, `LARGE_OUT_OF_LINE`). Not
    /// measured on the other CPUs.
    const UNALIGNED_TURN: usize = 2;

    /// The aligned loop (and an overlapping move's loop going up) walks
    /// two pointers, as DPDK's SSE loop does, not one index from both
    /// bases (`movaps [rdi+rcx-0x30],xmm0`; the likely cause, not
    /// verified: on Intel cores an indexed store's address cannot take the
    /// store-only address unit, and competes with the loads'). On
    /// `intel-6-167`, with every loop on a 64-byte boundary in both
    /// builds so that placement does not decide, hot aligned copies of
    /// 448 B-1518 B took 5-17% less time called (1 KiB 28.8 -> 25.6 TSC
    /// ticks, 1518 B 45.4 -> 37.7; DPDK 27.5, 39.8) and 13-21% less
    /// inlined (1 KiB 30.8 -> 25.4, DPDK 26.4), and IMIX random sizes ran
    /// at DPDK's speed (in the default layout 23.7 -> 23.3 ticks called,
    /// 22.6 -> 20.2 inlined; DPDK 21.0 and 20.0). The memcpy call site's
    /// code outside the loop is at the same offsets either way. On the
    /// Zen 3 (`amd-25-1`) the same walk took aligned copies of 288 B-1.4 KiB
    /// 10-25% faster, but a layout of that time put a small class across a
    /// 64-byte line; the unaligned loop, two blocks a turn, kept the index:
    /// there the walk's set-up cost dst+1/src+3 copies of 384-512 B 5-7%
    /// (benches/NOTEBOOK.md, "`intel-6-167`: the SSE aligned loop walks
    /// pointers"). Taken first in 555488f and reverted, because the walk
    /// moved a `push rbx` to the entry of the C symbols `memcpy` and
    /// `memmove` (8-16 B 2.4 -> 2.7 ticks); back since the large path
    /// returns `dst` (`large::write_large`), which leaves the symbols no
    /// register to save. Measured again then, five rounds in turn, default
    /// layout: aligned 1518 B 38.2 -> 33.3 ticks called (DPDK 33.9),
    /// 192 B-1518 B 8-18% faster inlined (1 KiB 26.8 -> 22.0, DPDK 22.5),
    /// disjoint aligned `memmove` of 384 B-1518 B 10-27% faster, the
    /// symbols at 1-64 B as before (benches/NOTEBOOK.md, "`intel-6-167`:
    /// the symbols' large path returns `dst`").
    const LOOP_POINTERS: bool = true;

    /// The unaligned loop's graded tail (`generic::short_tail`) for fills
    /// from 257 B. On `amd-25-17`, eight rounds against the whole tail,
    /// dst+1 fills of 288 B and 600 B went from 0.91x and 0.96x glibc's
    /// SSE2 `memset` to 1.05x and 1.02x (288 B 15.8 -> 13.6 TSC ticks,
    /// glibc 14.3), 320 B-1500 B 0.01-0.04 faster, the rest as before.
    /// Below 257 B the whole tail, with one test of `n` first: the graded
    /// tail took 144-240 B from 0.86-0.89x to 0.92-1.07x but uniform random
    /// 1-256 B fills at dst+1 from 21.9 to 24.4 ticks (glibc 18.5), its
    /// arms mispredicted. Copies keep the whole tail: the graded one took
    /// dst+1/src+3 copies of 288-600 B from 0.82-0.94x DPDK's SSE
    /// `rte_memcpy` to 0.94-1.00x, but the `memcpy` call site from 584 B to
    /// 616-637 B, past its 600 (benches/NOTEBOOK.md, "`amd-25-17`: the SSE
    /// unaligned loop's graded tail, for fills from 257 B").
    const SHORT_TAIL: bool = true;
    const SHORT_TAIL_COPIES: bool = false;
    const SHORT_TAIL_MIN: usize = 257;

    /// An aligned destination fills with the aligned loop: 192 B-1 KiB
    /// went from 0.71-0.82x glibc's SSE2 `memset` to 0.84-1.02x
    /// (benches/NOTEBOOK.md, "The aligned-destination fill").
    const FILL_ALIGNED_LOOP: bool = true;

    /// `rep movsb` takes over from 1536 B (fills: below), so that every
    /// Ethernet frame (1518 B, 1522 B with a VLAN tag) takes the loop.
    /// - Into a ring that is not in L1 the string instruction loses: on the
    ///   Zen 4 (`amd-25-17`) `vhost_enqueue` ran 1518-B packets at 0.80x
    ///   DPDK's speed into a 512 MiB ring and 0.88-0.92x into a 16 MiB one
    ///   with it, 0.98-1.00x with the loop (the builds in turn, three
    ///   rounds each); the SSE records of `intel-6-207`, `amd-25-1` and the
    ///   Zen 4 with AVX-512 hidden have it at 0.83-0.93x there too
    ///   (`intel-6-207`'s 16 MiB ring at 0.99x, the Zen 5's rings at
    ///   1.15-1.20x).
    /// - Hot at 1518 B it wins on the Zen 3 and Zen 4 (54 ticks against the
    ///   loop's 69 here, where DPDK's loop takes 69 too) and loses on
    ///   `intel-6-207` (the loop 4-8% faster up to 1600 B) and the Zen 5
    ///   (43.5 ticks against DPDK's loop's 38.6). Here the loop runs at
    ///   DPDK's speed at 1518 B, hot and into either ring; the cold rings
    ///   of the other CPUs have not been run with it.
    /// - From 1536 B to 8 KiB the string instruction keeps its hot lead:
    ///   1.3-1.8x here, 1.1-1.8x on the Zen 3, a tie at 1664 B and up to
    ///   2x at 4-8 KiB on `intel-6-207`.
    ///
    /// Before, the threshold was 1518 so that a constant 1518-byte copy was
    /// one `rep movsb`; it is now the loop's 23 blocks, which LLVM does not
    /// unroll, and `ci/codegen.sh` lets the SSE builds' 1518-B copy
    /// wrappers loop and nothing else (benches/NOTEBOOK.md, "`amd-25-17`:
    /// the SSE kernel's 1518-B frames take the loop").
    const STRING_COPY_MIN: usize = super::string::cut_over(1536);
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

    /// From 2 bytes: the SSE build's register form took 4.4-4.7 ticks on
    /// equal 2-3 B, the vector one 3.0-3.2 (glibc 3.0-3.3), with a
    /// difference within 0.2 (see [`Tuning::COMPARE_LANES_MIN`]).
    const COMPARE_LANES_MIN: usize = 2;

    super::string::rep_string_fns!();
}
