//! Inlined SIMD `memcpy`, `memmove`, `memset` and `memcmp`/`bcmp` kernels
//! for code that cannot or will not call libc: packet datapaths, firmware,
//! unikernels, kernel modules, and
//! `-C target-cpu=native` builds that want copies which compile to a handful
//! of vector moves at the call site.
//!
//! The design follows DPDK's `rte_memcpy`: no loop below a per-kernel size,
//! overlapping head and tail moves instead of byte loops, and a dedicated
//! path when both pointers are aligned to the vector width. Unlike
//! `rte_memcpy` the algorithm is written once, generic over the vector type,
//! and the kernel is chosen at compile time from the target features.
//!
//! # Kernels
//!
//! | tier | selected when | vector | RUSTFLAGS |
//! |---|---|---|---|
//! | `avx512` | `target_feature = "avx512f"`, unless `--cfg fastmem_no_avx512` | 64 B | `-C target-feature=+avx512f` |
//! | `avx2` | `target_feature = "avx2"` | 32 B | `-C target-feature=+avx2` |
//! | `sse` | x86 / x86_64 with SSE2 | 16 B | none (x86_64 default), or `+sse4.2` |
//! | `portable` | any other target, or `--cfg fastmem_portable` | 8 B words | `--cfg fastmem_portable` |
//!
//! `-C target-cpu=native` picks the widest tier the build machine has.
//! [`KERNEL`] tells which one a build got.
//!
//! # The size-class ladder
//!
//! Every copy and fill walks one ladder; `W` is the kernel's vector width.
//! No step touches a byte outside `[p, p + n)`.
//!
//! | `n` | moves | AVX-512 example |
//! |---|---|---|
//! | 0 | nothing, no memory touched | |
//! | 0..=32 with AVX-512BW/VL | one byte-masked 32-byte load and store (not for [`memcpy_const`] and [`memset_const`], whose sizes take the plain rows below); a copy's in `ymm16` on x86-64, so that a call returns without `vzeroupper` | 12 B: one `vmovdqu8` each way |
//! | 1..=3 | first, middle and last byte | |
//! | 4..=7 | two `u32`, overlapping | |
//! | 8..=16 | two `u64`, overlapping | 12 B: bytes 0..8 and 4..12 |
//! | 17..2W | head and tail at the narrowest vector that covers `n`; with `--cfg fastmem_narrow_stores` ([`NARROW_STORES`]), a copy's 33..=64 two 16-byte vectors at each end | 40 B: two 32-byte moves (narrow: four 16-byte) |
//! | W..=2W, ..=4W, ..=8W | head and tail of 1, 2 or 4 vectors, up to `NOLOOP_MAX`; on AVX-512, 4 and 2 for 257..=384 | 300 B: 4 + 2 zmm moves; 400 B: 4 + 4 |
//! | above `NOLOOP_MAX` | one unaligned vector, blocks with aligned stores, one overlapping tail block (with both pointers aligned: no head vector, and a fill writes its first block before the loop, except on SSE, whose loops take two blocks a turn) | 1518 B: 1 + 5 × 256 + 320 |
//! | from the string threshold | `rep movsb` / `rep stosb` (SSE copies from 1536 B, fills from 2 KiB, behind one out-of-line call; the portable kernel on x86, copies from 768 B, fills from 512 B; AVX2 copies from 4 KiB, fills from 16 KiB, neither in a build for Zen 1-3 (`sse4a` without `avx512f`), in one for Zen 4/5 (`sse4a` and `avx512f`) copies from 26 KiB, fills from 1 MiB; AVX-512 from 16 KiB, and as AVX2 in a build for Zen 4/5, behind one out-of-line call) | |
//! | from [`NONTEMPORAL_MIN`] (32 MiB; fills from 64 MiB; by default 8 MiB in a build for Zen 1-3, and in one for Zen 4/5 copies of 8-32 MiB only) | out of line: the first 64 B, then 64-byte-aligned blocks of non-temporal stores, four pages side by side, `sfence`, then the last block (SIMD kernels) | 256 MiB: 4 × 256 B per turn |
//! | 65..=256, only with `--cfg fastmem_mixed_sizes` ([`MIXED_SIZES`]; AVX-512, AVX2) | 256 / W vectors at clamped offsets, no branch on `n`, instead of the rungs | 100 B: zmm moves at 0, 0, 0 and 36 |
//! | 129..=256, only with `--cfg fastmem_mixed_sizes` (SSE) | head and tail of 8 vectors: the SSE ladder ends at 256 B instead of 128 B | 200 B: 8 + 8 xmm moves |
//!
//! [`memmove`] and [`copy_within`] walk the same ladder, with one
//! difference in how each step moves its vectors: every vector of a step
//! is loaded before the first store. Up to `NOLOOP_MAX` a step is the whole
//! copy, so any overlap is harmless and no direction test is made (the
//! masked move gives way to the rungs when the pointers are under 32 B
//! apart, where its load would wait on the last call's store). Above it,
//! disjoint ranges take `memcpy`'s loops; overlapping ones a loop that goes
//! up when `dst` is before `src` and down from the end otherwise, its
//! blocks aligned on the destination, its first vector and tail loaded
//! before the loop and stored after it. `rep movsb` takes no move going
//! down, nor one with `dst` 1-63 B before `src`.
//!
//! ```text
//!  n in [W, 2W]:   |head====|          |====tail|      (may overlap)
//!  n > NOLOOP_MAX: |v===|                                first vector, any alignment
//!                     |block===|block===|block===|       W-aligned destination
//!                                          |tail=======| last block + 1 vector
//! ```
//!
//! The constants per kernel, and the measurements that chose them, are in
//! `src/kernels/` and `BENCHMARKS.md`.
//!
//! # Example
//!
//! ```
//! let src = [7u8; 1518];
//! let mut dst = [0u8; 1518];
//! fastmem::copy(&mut dst, &src);
//! assert_eq!(dst, src);
//!
//! let mut header = [0xAAu8; 12];
//! fastmem::fill(&mut header, 0);
//! assert_eq!(header, [0; 12]);
//! ```
//!
//! Moving bytes within one buffer, the ranges overlapping:
//!
//! ```
//! let mut line = *b"..payload";
//! fastmem::copy_within(&mut line, 2.., 0);
//! assert_eq!(&line, b"payloadad");
//! ```
//!
//! Writing a frame into a buffer that is not initialised yet (from a pool,
//! or a `Vec`'s spare capacity), with no zeroing first:
//!
//! ```
//! use core::mem::MaybeUninit;
//! let mut frame = [MaybeUninit::<u8>::uninit(); 2048];
//! let header = fastmem::fill_uninit(&mut frame[..12], 0);
//! assert_eq!(header, &[0u8; 12]);
//! let payload = fastmem::copy_uninit(&mut frame[12..12 + 64], &[0x5Au8; 64]);
//! assert_eq!(payload, &[0x5Au8; 64]);
//! ```
//!
//! The raw API takes pointers, as `rte_memcpy` does:
//!
//! ```
//! let src = *b"virtio-net header";
//! let mut dst = [0u8; 17];
//! // SAFETY: both regions are 17 bytes, valid, and do not overlap.
//! unsafe { fastmem::memcpy(dst.as_mut_ptr(), src.as_ptr(), src.len()) };
//! assert_eq!(&dst, b"virtio-net header");
//! ```
//!
//! Compares take the same ladder with loads for moves ([`memcmp`],
//! [`bcmp`], and the safe [`eq`] and [`compare()`]):
//!
//! ```
//! use core::cmp::Ordering;
//! assert!(fastmem::eq(b"virtio", b"virtio"));
//! assert_eq!(fastmem::compare(b"abc", b"abd"), Ordering::Less);
//! assert_eq!(fastmem::compare(b"ab", b"abc"), Ordering::Less);
//! // SAFETY: both ranges are 3 readable bytes.
//! let d = unsafe { fastmem::memcmp([0x80u8, 0, 0].as_ptr(), [0x7Fu8, 0, 0].as_ptr(), 3) };
//! assert!(d > 0, "bytes compare as unsigned");
//! ```
//!
//! # The C symbols
//!
//! With the feature `c-symbols`, `fastmem::symbols` exports `memcpy`,
//! `memmove`, `memset`, `memcmp` and `bcmp` under their C names, so that the copies and fills the
//! compiler emits (struct moves, array initialisation, `copy_from_slice`)
//! run on this crate's kernel instead of compiler_builtins' in a `no_std`
//! binary. Only one crate in a binary may export them. See the module for
//! details.
//!
//! # Large copies
//!
//! From [`NONTEMPORAL_MIN`] (32 MiB by default, 8 MiB in a build for AMD's
//! Zen 1-3, and in one for Zen 4/5 only copies of 8-32 MiB, set at build time with
//! `FASTMEM_NONTEMPORAL_MIN`; fills from twice it), `memcpy` and `memset`
//! call an out-of-line
//! loop of non-temporal stores, so an inlined call site grows by one
//! compare and one call. [`memcpy_nontemporal`] and [`memset_nontemporal`]
//! stream at every size above the no-loop ladder, for a destination the
//! caller knows will not be read soon; both end with `sfence`.
//!
//! # Safety contract of the raw functions
//!
//! For `memcpy*(dst, src, n)`: `src..src + n` is readable, `dst..dst + n` is
//! writable, and the two ranges do not overlap. `memcpy_aligned` also needs
//! both pointers aligned to [`Kernel::vector_bytes`] of [`KERNEL`]. For
//! `memmove(dst, src, n)`: `src..src + n` is readable and `dst..dst + n`
//! writable; they may overlap. For `memset*(dst, c, n)`: `dst..dst + n` is
//! writable. For `memcmp(a, b, n)` and `bcmp(a, b, n)`: `a..a + n` and
//! `b..b + n` are readable (they may overlap). With `n == 0` no memory is
//! touched. Debug builds check overlap and alignment with `debug_assert!`.
#![no_std]
// With the C symbols exported, LLVM must not turn code compiled here into
// calls to them (see `symbols`).
#![cfg_attr(feature = "c-symbols", no_builtins)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]

#[cfg(test)]
extern crate std;

mod barrier;
mod compare;
mod generic;
mod kernels;
mod large;
mod vector;

#[cfg(test)]
mod tests;

#[cfg(feature = "c-symbols")]
pub mod symbols;

use core::mem::MaybeUninit;

// The kernel choice: one place, widest first. Each arm only names a type;
// its tuning constants live beside its `Vector` impl in `kernels/`.
cfg_if::cfg_if! {
    if #[cfg(fastmem_portable)] {
        // Forced: for checking the portable kernel on any machine.
        type Selected = u64;
    } else if #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "avx512f",
        not(fastmem_no_avx512),
    ))] {
        // Opt-out, not opt-in as in DPDK: a build that enables avx512f asked
        // for it; `fastmem_no_avx512` serves CPUs that down-clock on zmm.
        type Selected = kernels::arch::__m512i;
    } else if #[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "avx2"))] {
        type Selected = kernels::arch::__m256i;
    } else if #[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse2"))] {
        type Selected = kernels::arch::__m128i;
    } else {
        // No SIMD tier: other architectures, and targets such as
        // `x86_64-unknown-none` where SIMD registers are off.
        type Selected = u64;
    }
}

/// A kernel tier: which vector registers the copies and fills use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// 8-byte general-purpose-register words; any target.
    Portable,
    /// 16-byte SSE2 registers.
    Sse,
    /// 32-byte AVX2 registers.
    Avx2,
    /// 64-byte AVX-512F registers.
    Avx512,
}

impl Kernel {
    /// The tier's name: `"portable"`, `"sse"`, `"avx2"` or `"avx512"`.
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Sse => "sse",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
        }
    }

    /// Width of the tier's vector in bytes: 8, 16, 32 or 64. It is also the
    /// alignment [`memcpy_aligned`] needs.
    pub const fn vector_bytes(self) -> usize {
        match self {
            Kernel::Portable => 8,
            Kernel::Sse => 16,
            Kernel::Avx2 => 32,
            Kernel::Avx512 => 64,
        }
    }
}

impl core::fmt::Display for Kernel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The kernel this build compiled in.
pub const KERNEL: Kernel = <Selected as vector::Tuning>::KERNEL;

/// Whether this build asked for the mixed-sizes class (`--cfg
/// fastmem_mixed_sizes`): on the AVX-512 and AVX2 kernels, each size from
/// 65 B to 256 B is one class of 4 AVX-512 or 8 AVX2 vector moves, with
/// no branch on the size, instead of two or three rungs of the ladder; on
/// the SSE kernel the no-loop ladder goes on to 256 B (129-256 B as 8
/// vectors from each end) where the block loop took over at 129 B (the
/// portable kernel is unchanged). For sizes that vary unpredictably from
/// call to call it saves the branch mispredictions: uniform random
/// 1-256 B on AVX-512, copies 2.0x glibc instead of 1.16x, fills 1.6x
/// instead of 0.95x; on SSE (Zen 5) 23.9 ticks to 16.6, and 256-B ring
/// packets 0.84x DPDK to 1.00-1.04x. A size repeated call after call pays
/// up to 3 ticks more from 65 to 128 B on AVX-512 and AVX2, 2-4 ticks from
/// 129 to 224 B on SSE (benches/NOTEBOOK.md, "The mixed-sizes class",
/// "`amd-26-2`: the SSE ladder to 256 B").
pub const MIXED_SIZES: bool = generic::MIXED_SIZES;

/// Whether this build was made with `--cfg fastmem_paired_blocks`: the
/// block loop above `NOLOOP_MAX` moves two blocks a turn (512 B on
/// AVX-512), then the odd block, instead of one block a turn. The same
/// stores in the same order, with half the loop's turns and twice its
/// body: on a Zen 5 EPYC, packets of 1-1.5 KiB copied into a ring beyond
/// the L2 (`examples/vhost_enqueue`) ran 10-20% faster, hot copies within
/// 0-4% of the default; a runtime-length AVX-512 `memcpy` call site takes
/// 904 B instead of 583 (benches/NOTEBOOK.md, "`amd-26-2`: two blocks a turn").
/// The SSE kernel's unaligned loop of a copy or fill takes two blocks a
/// turn in every build (`Tuning::UNALIGNED_TURN`, `src/kernels/sse.rs`).
pub const PAIRED_BLOCKS: bool = cfg!(fastmem_paired_blocks);

/// Whether this build was made with `--cfg fastmem_narrow_stores`: copies
/// and moves of 33-64 B on the AVX2 and AVX-512 kernels store four 16-byte
/// vectors, two from each end, instead of two 32-byte ones (fills, and the
/// SSE and portable kernels, are unchanged). It is for destinations that
/// are not in the L1 cache, as a packet ring's are: on `intel-6-167`,
/// 48- and 64-byte packets copied into a 16 MiB ring
/// (`examples/vhost_enqueue`) went from 0.93-1.00x DPDK's `rte_memcpy` to
/// 1.02-1.13x, with either kernel. With the destination in L1 the extra
/// stores cost: a 33-64 B copy repeated call after call takes 17-32%
/// longer, which is why it is not the default (benches/NOTEBOOK.md,
/// "`intel-6-167`: 16-byte stores for 33-64 B packets").
pub const NARROW_STORES: bool = generic::NARROW_STORES;

/// The first size at which [`memcpy`] (and `memcpy_generic`,
/// `memcpy_aligned`) switches to non-temporal stores, on the kernels that
/// have them (the x86 SIMD ones; `usize::MAX`, never, on the portable
/// kernel); [`memset`] switches at twice this size, the same footprint in
/// the caches. 32 MiB (8 MiB in a build for AMD's Zen 1-3: `sse4a` and
/// `avx2` without `avx512f`; 8 MiB also in one for Zen 4/5, `sse4a` and
/// `avx512f`, where only copies below 32 MiB stream, and larger copies and
/// all fills take `rep movsb`/`rep stosb`) unless the build sets
/// `FASTMEM_NONTEMPORAL_MIN`
/// (bytes, with an optional `K`, `M` or `G` suffix, or `none` for never),
/// e.g. `FASTMEM_NONTEMPORAL_MIN=64M cargo build --release`. Cargo
/// rebuilds the crate when the variable changes.
///
/// A copy that fits in the caches is faster with ordinary stores (the
/// destination stays cached); one much larger than them is faster with
/// streaming stores, which skip reading each destination line first and
/// evict nothing. glibc decides at run time from the cache sizes; here the
/// build decides. The default was measured on an Emerald Rapids-class Xeon
/// (benches/NOTEBOOK.md, "Large copies"); on a Zen 5 EPYC `rep movsb` beat
/// streaming stores at every size from 32 MiB and lost to them at 4-16 MiB
/// ("`amd-26-2`: large copies"), as on a Zen 4 at 8-24 MiB ("`amd-25-17`
/// with AVX-512: the string and streaming thresholds"),
/// and on a Zen 3 EPYC streaming stores beat both it and glibc from 8 MiB
/// ("`amd-25-1`: large copies").
/// A CPU whose last-level cache serves a
/// thread more may want a larger value, about three quarters of one
/// thread's share of it, as glibc uses.
///
/// Where the build's target features cannot tell AMD's cores from other
/// CPUs (no `sse4a`: the x86_64 baseline, or features named one by one),
/// or name a Zen 1-3, which a Zen 4 whose hypervisor hides AVX-512 also
/// fits, and the build sets neither `FASTMEM_NONTEMPORAL_MIN` nor `--cfg
/// fastmem_no_cpuid`, an out-of-line hand-over from 8 MiB (fills from
/// 16 MiB) asks CPUID once which core it runs on (vendor, family, model):
/// a Zen 1-3 streams from there, as a build for it would; a Zen 4 or
/// later streams copies below 32 MiB on the AVX2 and AVX-512 kernels and
/// takes the kernel's `rep movsb`/`rep stosb` for everything else; any
/// other CPU streams from this size, which then holds for it.
pub const NONTEMPORAL_MIN: usize =
    large::handover_min::<Selected>(<*const u8 as generic::Source>::TRAFFIC);

const W: usize = <Selected as vector::Vector>::BYTES;
static_assertions::const_assert_eq!(W, KERNEL.vector_bytes());

#[inline(always)]
fn debug_assert_disjoint(what: &str, dst: *mut u8, src: *const u8, n: usize) {
    debug_assert!(
        (dst as usize).abs_diff(src as usize) >= n,
        "fastmem::{what}: source {src:p} and destination {dst:p} overlap for {n} bytes"
    );
}

/// Copies `n` bytes from `src` to `dst`.
///
/// Sizes up to the kernel's no-loop threshold are settled by overlapping
/// head and tail moves; above it, one test of `(dst | src) & (W - 1)` picks
/// [`memcpy_aligned`]'s loop or [`memcpy_generic`]'s.
///
/// # Safety
///
/// - `src..src + n` must be valid for reads and `dst..dst + n` for writes.
/// - The two ranges must not overlap (checked in debug builds).
/// - With `n == 0` nothing is read or written, and the pointers may dangle.
#[inline(always)]
pub unsafe fn memcpy(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: the caller's contract is `memcpy_c`'s.
    unsafe { memcpy_c(dst, src, n) };
}

/// [`memcpy`], returning `dst` as C's `memcpy` does: the body of the C
/// symbol (`symbols`). The kernel's out-of-line large path returns `dst`
/// too, so the symbol holds nothing across that call and jumps to it, and
/// saves no register at its entry (benches/NOTEBOOK.md, "`intel-6-167`:
/// the symbols' large path returns `dst`").
///
/// # Safety
///
/// As [`memcpy`].
#[inline(always)]
pub(crate) unsafe fn memcpy_c(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    debug_assert_disjoint("memcpy", dst, src, n);
    // SAFETY: the caller's contract is `generic::memcpy`'s.
    unsafe { generic::memcpy::<Selected>(dst, src, n) }
}

/// Copies `n` bytes between two pointers aligned to the vector width: aligned
/// loads and stores, no alignment fix-up.
///
/// # Safety
///
/// - As [`memcpy`].
/// - `dst` and `src` must both be aligned to `KERNEL.vector_bytes()` bytes
///   (checked in debug builds).
#[inline(always)]
pub unsafe fn memcpy_aligned(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert!(
        (dst as usize | src as usize).is_multiple_of(W),
        "fastmem::memcpy_aligned: dst {dst:p} and src {src:p} must both be aligned to {W} bytes"
    );
    debug_assert_disjoint("memcpy_aligned", dst, src, n);
    // SAFETY: the caller's contract is `generic::memcpy_aligned`'s.
    unsafe { generic::memcpy_aligned::<Selected>(dst, src, n) }
}

/// Copies `n` bytes between pointers of any alignment.
///
/// # Safety
///
/// As [`memcpy`].
#[inline(always)]
pub unsafe fn memcpy_generic(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert_disjoint("memcpy_generic", dst, src, n);
    // SAFETY: the caller's contract is `generic::memcpy_generic`'s.
    unsafe { generic::memcpy_generic::<Selected>(dst, src, n) }
}

/// Copies `n` bytes from `src` to `dst`; the two ranges may overlap, as C's
/// `memmove` and [`core::ptr::copy`] allow.
///
/// The ladder of [`memcpy`], with every vector of a no-loop class (up to
/// `NOLOOP_MAX`, masked moves included) loaded before the first store, so
/// no direction test is made there. Above it, disjoint ranges take
/// [`memcpy`]'s loops; overlapping ones a loop that goes up when `dst` is
/// before `src` and down from the end otherwise, with its first vector and
/// its tail loaded before the loop and stored after it. `rep movsb` takes
/// no move going down, nor one with `dst` 1-63 B before `src`.
///
/// # Safety
///
/// - `src..src + n` must be valid for reads and `dst..dst + n` for writes.
/// - With `n == 0` nothing is read or written, and the pointers may dangle.
#[inline(always)]
pub unsafe fn memmove(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: the caller's contract is `memmove_c`'s.
    unsafe { memmove_c(dst, src, n) };
}

/// [`memmove`], returning `dst`: the C symbol's body, as [`memcpy_c`].
///
/// # Safety
///
/// As [`memmove`].
#[inline(always)]
pub(crate) unsafe fn memmove_c(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    // SAFETY: the caller's contract is `generic::memmove`'s.
    unsafe { generic::memmove::<Selected>(dst, src, n) }
}

/// Sets `n` bytes at `dst` to `c`. On the SIMD kernels, above the no-loop
/// threshold, a destination aligned to the vector width takes the aligned
/// loop, as in [`memcpy`]. For a size known while compiling, such as a
/// virtio-net header, see [`memset_const`].
///
/// # Safety
///
/// - `dst..dst + n` must be valid for writes.
/// - With `n == 0` nothing is written, and the pointer may dangle.
#[inline(always)]
pub unsafe fn memset(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: the caller's contract is `memset_c`'s.
    unsafe { memset_c(dst, c, n) };
}

/// [`memset`], returning `dst`: the C symbol's body, as [`memcpy_c`].
///
/// # Safety
///
/// As [`memset`].
#[inline(always)]
pub(crate) unsafe fn memset_c(dst: *mut u8, c: u8, n: usize) -> *mut u8 {
    // SAFETY: the caller's contract is `generic::memset`'s.
    unsafe { generic::memset::<Selected>(dst, c, n) }
}

/// Copies `N` bytes, a size known while compiling: [`memcpy`] with the size
/// class picked by the compiler, so up to the no-loop threshold the call
/// site is straight-line moves.
///
/// From one vector to the no-loop threshold (`W..=8W`) it moves `N / W`
/// whole vectors and then the `N % W` bytes left with the narrower rungs
/// (one move where that is a power of two), where [`memcpy`]'s classes
/// move a whole class's count of overlapping vectors to keep their
/// branches few: 160 B on AVX-512 are two zmm and one ymm move, not four
/// zmm moves (on `intel-6-167` 4.1 -> 2.1 TSC ticks, 5.5 -> 3.3 at dst+1;
/// DPDK's `rte_memcpy` of a constant 160 took 2.8 and 4.1). Above the
/// no-loop threshold, to 16 vectors (256 B on SSE, 512 B on AVX2, 1 KiB
/// on AVX-512), it moves whole vectors straight-line when both pointers
/// are aligned to the vector width, and takes the loop, which aligns the
/// destination, when they are not (AVX2 320 B aligned 4.4 -> 3.7 ticks;
/// DPDK 3.7).
///
/// Up to 32 bytes it takes plain moves (a 12-byte copy is two 8-byte loads
/// and stores) where [`memcpy`] with AVX-512BW takes one masked move at
/// any size, constant or not. The masked store is as fast while the
/// destination is in L1, and slower when it is not: zeroing the 12-byte
/// header of each packet in `examples/vhost_enqueue` (64-byte packets, a
/// ring beyond L2) took 28.2 TSC ticks a packet with it and 27.0 with
/// two 8-byte stores, as DPDK's C compiler makes of `memset(d, 0, 12)`.
///
/// # Safety
///
/// As [`memcpy`], for `n == N`.
#[inline(always)]
pub unsafe fn memcpy_const<const N: usize>(dst: *mut u8, src: *const u8) {
    debug_assert_disjoint("memcpy_const", dst, src, N);
    // SAFETY: the caller's contract, for `N` bytes.
    unsafe { generic::write_const::<Selected, _, N>(dst, src) }
}

/// Sets `N` bytes at `dst` to `c`, a size known while compiling: the
/// plain-store small class and the whole vectors of [`memcpy_const`], and
/// [`memset`] above them. A 10- or 12-byte fill, such as a virtio-net
/// header, is two 8-byte stores.
///
/// # Safety
///
/// As [`memset`], for `n == N`.
#[inline(always)]
pub unsafe fn memset_const<const N: usize>(dst: *mut u8, c: u8) {
    // SAFETY: the caller's contract, for `N` bytes.
    unsafe { generic::write_const::<Selected, _, N>(dst, generic::Splat(c)) }
}

/// Copies `n` bytes from `src` to `dst` with non-temporal (streaming)
/// stores, for a destination that will not be read again soon: the copy
/// does not evict the caches' contents for it, and skips reading each
/// destination line first.
///
/// Above the kernel's no-loop size, the vector-aligned body of the
/// destination is written with non-temporal stores and the unaligned first
/// and last pieces with ordinary ones; a copy up to that size has no
/// aligned body and is [`memcpy`]'s. Ends with the fence the streaming
/// stores need (`sfence`), so the bytes are ordered before any later store,
/// as an ordinary copy's are. On the portable kernel, which has no
/// non-temporal stores, it is an ordinary copy.
///
/// # Safety
///
/// As [`memcpy`].
#[inline(always)]
pub unsafe fn memcpy_nontemporal(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert_disjoint("memcpy_nontemporal", dst, src, n);
    // SAFETY: the caller's contract is `large::write_any`'s.
    unsafe { large::write_any::<Selected, _>(dst, src, n) }
}

/// Sets `n` bytes at `dst` to `c` with non-temporal (streaming) stores; see
/// [`memcpy_nontemporal`] for which bytes, the fence, and the portable
/// kernel.
///
/// # Safety
///
/// As [`memset`].
#[inline(always)]
pub unsafe fn memset_nontemporal(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: the caller's contract is `large::write_any`'s.
    unsafe { large::write_any::<Selected, _>(dst, generic::Splat(c), n) }
}

macro_rules! mov_fns {
    ($($name:ident = $n:literal),*) => {$(
        #[doc = concat!("Copies exactly ", $n, " bytes from `src` to `dst`, any alignment.")]
        ///
        /// # Safety
        ///
        #[doc = concat!("- `src..src + ", $n, "` must be valid for reads and `dst..dst + ", $n, "` for writes.")]
        /// - The two ranges must not overlap (checked in debug builds).
        #[inline(always)]
        pub unsafe fn $name(dst: *mut u8, src: *const u8) {
            debug_assert_disjoint(stringify!($name), dst, src, $n);
            // SAFETY: the caller's contract, for exactly this many bytes.
            unsafe { generic::mov::<Selected, $n>(dst, src) }
        }
    )*};
}

mov_fns!(
    mov16 = 16,
    mov32 = 32,
    mov64 = 64,
    mov128 = 128,
    mov256 = 256
);

/// Copies `src` into `dst`.
///
/// # Panics
///
/// When the lengths differ; the message names both, and the panic's
/// location is the caller's line.
#[inline(always)]
#[track_caller]
pub fn copy(dst: &mut [u8], src: &[u8]) {
    same_lengths("copy", dst.len(), src.len());
    // SAFETY: both slices are valid for `len` bytes, and a `&mut` cannot
    // overlap a `&`.
    unsafe { memcpy(dst.as_mut_ptr(), src.as_ptr(), src.len()) }
}

/// Copies `src` into `dst`, whose bytes need not be initialised, and
/// returns `dst` as the initialised copy: for writing a packet into a
/// fresh buffer (a pool's, or `Vec::spare_capacity_mut`) without zeroing
/// it first.
///
/// # Panics
///
/// When the lengths differ; the message names both, and the panic's
/// location is the caller's line.
///
/// ```
/// use core::mem::MaybeUninit;
/// let mut frame = [MaybeUninit::<u8>::uninit(); 64];
/// let bytes = fastmem::copy_uninit(&mut frame[..5], b"hello");
/// assert_eq!(bytes, b"hello");
/// ```
#[inline(always)]
#[track_caller]
pub fn copy_uninit<'a>(dst: &'a mut [MaybeUninit<u8>], src: &[u8]) -> &'a mut [u8] {
    same_lengths("copy_uninit", dst.len(), src.len());
    let (p, n) = (dst.as_mut_ptr().cast::<u8>(), src.len());
    // SAFETY: both slices are valid for `n` bytes, and a `&mut` cannot
    // overlap a `&`; the copy initialises all `n` bytes of `dst`, which
    // the returned slice borrows in its place.
    unsafe {
        memcpy(p, src.as_ptr(), n);
        core::slice::from_raw_parts_mut(p, n)
    }
}

/// The length check of [`copy`] and [`copy_uninit`]: panics, naming both
/// lengths, where they differ.
#[inline(always)]
#[track_caller]
fn same_lengths(name: &str, dst: usize, src: usize) {
    #[cold]
    #[inline(never)]
    #[track_caller]
    fn mismatch(name: &str, dst: usize, src: usize) -> ! {
        panic!("fastmem::{name}: destination length {dst} does not match source length {src}")
    }
    if dst != src {
        mismatch(name, dst, src)
    }
}

/// Copies the bytes of `buf` in the range `src` to `buf[dest..]`, which may
/// overlap it: [`slice::copy_within`] for bytes, through [`memmove`].
///
/// # Panics
///
/// When `src` ends before it starts or past the end of `buf`, or when
/// `dest + src.len()` is past the end of `buf`; the message names the
/// bounds, e.g. `fastmem::copy_within: source range end 40 is past the
/// buffer length 32`, and the panic's location is the caller's line.
///
/// ```
/// let mut b = *b"abcdefgh";
/// fastmem::copy_within(&mut b, 0..6, 2);
/// assert_eq!(&b, b"ababcdef");
/// ```
#[inline(always)]
#[track_caller]
pub fn copy_within<R: core::ops::RangeBounds<usize>>(buf: &mut [u8], src: R, dest: usize) {
    use core::ops::Bound;
    let len = buf.len();
    let start = match src.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => match s.checked_add(1) {
            Some(start) => start,
            None => panic!("fastmem::copy_within: source range start {s} + 1 overflows usize"),
        },
        Bound::Unbounded => 0,
    };
    let end = match src.end_bound() {
        Bound::Included(&e) => match e.checked_add(1) {
            Some(end) => end,
            None => panic!("fastmem::copy_within: source range end {e} + 1 overflows usize"),
        },
        Bound::Excluded(&e) => e,
        Bound::Unbounded => len,
    };
    assert!(
        start <= end,
        "fastmem::copy_within: source range start {start} is past its end {end}"
    );
    assert!(
        end <= len,
        "fastmem::copy_within: source range end {end} is past the buffer length {len}"
    );
    let count = end - start;
    assert!(
        dest <= len - count,
        "fastmem::copy_within: destination {dest} plus {count} bytes is past the buffer length {len}"
    );
    let p = buf.as_mut_ptr();
    // SAFETY: `start + count <= len` and `dest + count <= len` (checked),
    // both inside `buf`; `memmove` allows the overlap.
    unsafe { memmove(p.add(dest), p.add(start), count) }
}

/// Sets every byte of `dst` to `c`.
#[inline(always)]
pub fn fill(dst: &mut [u8], c: u8) {
    // SAFETY: the slice is valid for writes of its length.
    unsafe { memset(dst.as_mut_ptr(), c, dst.len()) }
}

/// Sets every byte of `dst`, whose bytes need not be initialised, to `c`,
/// and returns `dst` as the initialised bytes: a buffer (or a header in
/// it) zeroed in place, with no initialised copy built first.
///
/// ```
/// use core::mem::MaybeUninit;
/// let mut header = [MaybeUninit::<u8>::uninit(); 12];
/// assert_eq!(fastmem::fill_uninit(&mut header, 0), &[0u8; 12]);
/// ```
#[inline(always)]
pub fn fill_uninit(dst: &mut [MaybeUninit<u8>], c: u8) -> &mut [u8] {
    let (p, n) = (dst.as_mut_ptr().cast::<u8>(), dst.len());
    // SAFETY: the slice is valid for writes of `n` bytes; the fill
    // initialises all of them, and the returned slice borrows `dst` in
    // its place.
    unsafe {
        memset(p, c, n);
        core::slice::from_raw_parts_mut(p, n)
    }
}

/// Compares `n` bytes at `a` and `b` as unsigned bytes, as C's `memcmp`:
/// the difference `a[i] - b[i]` at the first byte `i` where they differ
/// (so its sign orders the ranges), or 0 when they are equal.
///
/// The ladder is the copy's, with loads for moves: overlapping head and
/// tail vectors up to the no-loop threshold, blocks above it, each step
/// tested once; the first differing byte comes from a trailing-zero count
/// of a compare mask, then one subtraction. No byte outside `a..a + n` or
/// `b..b + n` is read, at any size.
///
/// # Safety
///
/// - `a..a + n` and `b..b + n` must be valid for reads; they may overlap.
/// - With `n == 0` nothing is read, and the pointers may dangle.
#[inline(always)]
pub unsafe fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's contract is `compare::memcmp`'s.
    unsafe { compare::memcmp::<Selected>(a, b, n) }
}

/// Compares `n` bytes at `a` and `b` for equality, as the BSD `bcmp` that
/// LLVM calls for `==` on slices: 0 when equal, non-zero (1) otherwise.
/// Cheaper than [`memcmp`] where the ranges differ: it does not look for
/// the first difference.
///
/// # Safety
///
/// As [`memcmp`].
#[inline(always)]
pub unsafe fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's contract is `compare::bcmp`'s.
    unsafe { compare::bcmp::<Selected>(a, b, n) }
}

/// Whether `a` and `b` have the same length and bytes.
#[inline(always)]
pub fn eq(a: &[u8], b: &[u8]) -> bool {
    // SAFETY: both slices are readable for `a.len()` bytes when the
    // lengths are equal, which is tested first.
    a.len() == b.len() && unsafe { bcmp(a.as_ptr(), b.as_ptr(), a.len()) } == 0
}

/// Orders `a` and `b` lexicographically, as `<[u8]>::cmp` does: by the
/// first differing byte, and when one is a prefix of the other, the
/// shorter first.
#[inline(always)]
pub fn compare(a: &[u8], b: &[u8]) -> core::cmp::Ordering {
    let n = a.len().min(b.len());
    // SAFETY: both slices are readable for `n` bytes.
    let c = unsafe { memcmp(a.as_ptr(), b.as_ptr(), n) };
    c.cmp(&0).then(a.len().cmp(&b.len()))
}
