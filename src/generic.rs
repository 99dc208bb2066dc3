//! The copy and fill algorithm, written once over a [`Tuning`] kernel.
//!
//! # The plan
//!
//! A copy and a fill are the same algorithm with a different [`Source`] of
//! vectors: a copy reads them from `src + off`, a fill returns the splatted
//! byte. Everything below is generic over the kernel's vector `V` (width `W`)
//! and the source; no `cfg` appears in this module.
//!
//! ```text
//! n <= NOLOOP_MAX, the smallest class (`small_max`) tested first:
//!   n <= MASKED_MAX one masked move, where the kernel has them (AVX-512BW/VL: 32)
//!   n in [0, 16]    elsewhere, in general-purpose registers:
//!                     [ 8, 16] two u64 moves          (12 B = bytes 0..8 and 4..12)
//!                     [ 4,  8) two u32 moves
//!                     [ 1,  4) first, middle and last byte
//!                     0        nothing; no memory is touched
//! then:
//! n in (16, W)      the narrower vector rungs (V::Half, its Half, ...),
//!                   each an overlapping head and tail pair:
//!                     [32, 64) two 32-byte moves      (AVX-512 only)
//!                     (16, 32) two 16-byte moves      (AVX2 and wider)
//! n in [W, 2W]      head_tail, 1 vector each side:   |H===|    |===T|
//! n in (2W, 4W]     head_tail, 2 vectors each side   (overlap in the middle)
//! n in (4W, 8W]     head_tail, 4 vectors each side   (if NOLOOP_MAX >= 8W)
//! n in (8W, 16W]    head_tail, 8 vectors each side   (if NOLOOP_MAX = 16W)
//! n > NOLOOP_MAX    loop_and_tail:
//!                     |V===|                            first vector, unaligned
//!                        |B=======|B=======|B=======|   W-aligned dst blocks
//!                                          |T==========| last block + 1 vector
//! n >= STRING_*_MIN `rep movsb` / `rep stosb`, where the kernel has a threshold
//! n >= NONTEMPORAL_MIN  the non-temporal loop, out of line (`large.rs`), on
//!                   kernels with non-temporal stores; both in one arm
//!                   (`large::write_large`), out of line as a whole where
//!                   the kernel asks (AVX-512)
//!
//! with --cfg fastmem_mixed_sizes, before the vector rungs (AVX-512, AVX2):
//! n in (64, 256]    clamped_run, 256 / W vectors whatever n: one class
//!                   where the rungs make two or three
//! ```
//!
//! The loop's trip count, `(n - W) / LOOP_BLOCK`, depends on `n` alone:
//! after a skip of 1..=W bytes it is the most blocks that fit, and what it
//! leaves before the last block is under `W`, hence the extra tail vector.
//! A constant `n` therefore unrolls to straight-line code.
//!
//! Why each threshold: measured hot and streaming on an AVX-512 Xeon
//! (BENCHMARKS.md). `NOLOOP_MAX` is 8 vectors on every SIMD kernel: 16
//! (1 KiB on AVX-512) lost 40% at 768 B with a misaligned destination, and
//! 4 lost 50% at 512 B aligned. Blocks of 4 vectors tie with 8 hot and in
//! streaming on AVX-512 (within 1-4%; AVX2 hands sizes from 4 KiB, where
//! 8-vector blocks start to pay, to `rep movsb`), and cost less code;
//! 128-byte AVX2 blocks also keep DPDK's Haswell/Broadwell lesson. Testing
//! 1-16 B before the vector rungs took those sizes from 5-9 ticks towards
//! 3-4; testing them right after `NOLOOP_MAX`, with no `n == 0` test on
//! the way, took 8-16 B to 2.3-2.7 ticks on SSE and AVX2 (see [`write()`]
//! for the order).
//!
//! No size is handled by a byte loop or a bit-test chain, and no step reads
//! or writes a byte outside `[p, p + n)`: a head starts at `p`, a tail ends
//! at `p + n`, and each rung is only taken when `n` covers it.
//!
//! The loop aligns the destination, not the source: a store that splits a
//! cache line costs more than a load that does. [`memcpy`] takes the
//! aligned loop, which skips the alignment step and uses aligned loads, when
//! one test shows both pointers aligned, as DPDK's `rte_memcpy` does for
//! vhost enqueue; [`memset`] takes it when the destination is aligned, on
//! the SIMD kernels, where that measured faster: it saves the unaligned
//! loop's extra head and tail vector (the portable kernel keeps the
//! unaligned loop; it was not measured).
//!
//! The mixed-sizes class trades the rungs' fewer moves for no size test:
//! with sizes drawn at random from 1-256 B, a call of the default ladder
//! spends most of its 16-17 ticks on a mispredicted size-class branch, and
//! the class takes that to 10-13; a size repeated call after call pays the
//! extra moves instead, up to 3 ticks at 65-128 B (BENCHMARKS.md, "The
//! mixed-sizes class"). Hence a cfg, off by default.
//!
//! Every routine is `#[inline(always)]`: with a constant `n`, the ladder folds
//! to the few moves that size needs, straight-line, at the call site.

use crate::vector::{Access, Aligned, Tuning, Unaligned, Vector};

/// Where the bytes written come from.
pub(crate) trait Source: Copy {
    /// Bytes of memory each byte written moves through the caches: 2 for a
    /// copy, which reads as much as it writes, 1 for a fill. Scales the
    /// non-temporal threshold (`crate::large`): a fill streams from twice a
    /// copy's size, the same footprint.
    const TRAFFIC: usize;

    /// The vector that belongs at byte offset `off` of the destination.
    ///
    /// # Safety
    ///
    /// For a memory source, `off..off + V::BYTES` must be readable, and
    /// aligned when `L` is [`Aligned`].
    unsafe fn read<V: Vector, L: Access>(self, off: usize) -> V;

    /// The source seen from `by` bytes further on.
    fn skip(self, by: usize) -> Self;

    /// The address bits that must be vector-aligned, with the destination's,
    /// for the aligned loop: a copy's source pointer; 0 for a fill, where
    /// only the destination counts.
    fn addr(self) -> usize;

    /// Whether this source may take the aligned loop on kernel `V`.
    fn aligned_loop<V: Tuning>() -> bool;

    /// Writes `0..n` with the kernel's masked moves.
    ///
    /// # Safety
    ///
    /// `n <= V::MASKED_MAX` and `0..n` is in range.
    unsafe fn write_masked<V: Tuning>(self, dst: *mut u8, n: usize);

    /// The first size this source hands to the kernel's string instruction.
    fn string_min<V: Tuning>() -> usize;

    /// Writes `0..n` with the kernel's string instruction.
    ///
    /// # Safety
    ///
    /// `n >= Self::string_min::<V>()` and `0..n` is in range.
    unsafe fn write_string<V: Tuning>(self, dst: *mut u8, n: usize);
}

impl Source for *const u8 {
    const TRAFFIC: usize = 2;

    #[inline(always)]
    unsafe fn read<V: Vector, L: Access>(self, off: usize) -> V {
        // SAFETY: forwarded contract.
        unsafe { L::load::<V>(self.add(off)) }
    }
    #[inline(always)]
    fn skip(self, by: usize) -> Self {
        self.wrapping_add(by)
    }
    #[inline(always)]
    fn addr(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn aligned_loop<V: Tuning>() -> bool {
        true
    }
    #[inline(always)]
    unsafe fn write_masked<V: Tuning>(self, dst: *mut u8, n: usize) {
        // SAFETY: forwarded contract.
        unsafe { V::copy_masked(dst, self, n) }
    }
    #[inline(always)]
    fn string_min<V: Tuning>() -> usize {
        V::STRING_COPY_MIN
    }
    #[inline(always)]
    unsafe fn write_string<V: Tuning>(self, dst: *mut u8, n: usize) {
        // SAFETY: forwarded contract.
        unsafe { V::string_copy(dst, self, n) }
    }
}

/// A fill: every byte is the same.
#[derive(Clone, Copy)]
pub(crate) struct Splat(pub(crate) u8);

impl Source for Splat {
    const TRAFFIC: usize = 1;

    #[inline(always)]
    unsafe fn read<V: Vector, L: Access>(self, _off: usize) -> V {
        V::splat(self.0)
    }
    #[inline(always)]
    fn skip(self, _by: usize) -> Self {
        self
    }
    #[inline(always)]
    fn addr(self) -> usize {
        0
    }
    #[inline(always)]
    fn aligned_loop<V: Tuning>() -> bool {
        V::FILL_ALIGNED_LOOP
    }
    #[inline(always)]
    unsafe fn write_masked<V: Tuning>(self, dst: *mut u8, n: usize) {
        // SAFETY: forwarded contract.
        unsafe { V::fill_masked(dst, self.0, n) }
    }
    #[inline(always)]
    fn string_min<V: Tuning>() -> usize {
        V::STRING_FILL_MIN
    }
    #[inline(always)]
    unsafe fn write_string<V: Tuning>(self, dst: *mut u8, n: usize) {
        // SAFETY: forwarded contract.
        unsafe { V::string_fill(dst, self.0, n) }
    }
}

/// block: writes `count` vectors at `dst + off`.
///
/// # Safety
///
/// `off..off + count * V::BYTES` is in range for `dst` and `src`, aligned for
/// the accesses `L` (source) and `S` (destination) claim.
#[inline(always)]
pub(crate) unsafe fn block<V: Vector, L: Access, S: Access, R: Source>(
    dst: *mut u8,
    src: R,
    off: usize,
    count: usize,
) {
    for i in 0..count {
        let at = off + i * V::BYTES;
        // SAFETY: `at..at + V::BYTES` lies inside the caller's range.
        unsafe { S::store(src.read::<V, L>(at), dst.add(at)) }
    }
}

/// tail: writes the last `count` vectors before `dst + n`.
///
/// # Safety
///
/// `n >= count * V::BYTES` and `0..n` is in range for `dst` and `src`.
#[inline(always)]
unsafe fn tail<V: Vector, R: Source>(dst: *mut u8, src: R, n: usize, count: usize) {
    // SAFETY: the block ends at `n` and starts at or after 0.
    unsafe { block::<V, Unaligned, Unaligned, R>(dst, src, n - count * V::BYTES, count) }
}

/// head_tail: two possibly overlapping runs of `count` vectors, the first
/// starting at 0 and the second ending at `n`.
///
/// # Safety
///
/// `count * W <= n <= 2 * count * W` and `0..n` is in range.
#[inline(always)]
pub(crate) unsafe fn head_tail<V: Vector, R: Source>(dst: *mut u8, src: R, n: usize, count: usize) {
    debug_assert!(count * V::BYTES <= n && n <= 2 * count * V::BYTES);
    // SAFETY: both runs lie in `0..n` by the precondition.
    unsafe {
        block::<V, Unaligned, Unaligned, R>(dst, src, 0, count);
        tail::<V, R>(dst, src, n, count);
    }
}

/// clamped_run: `k` vectors that cover any `n` in `[W, kW]` with no
/// branch on `n`: vector `i < k - 1` at `i * W` where it fits (else at 0,
/// again), the last at `n - W`.
///
/// ```text
/// n = 3.5W, k = 4:  |0===|1===|2===|       vectors 0..=k-2, each that fits
///                             |last===|    ends at n
/// n = 1.5W, k = 4:  |0===|                 vectors 1 and 2 repeat vector 0
///                      |last===|
/// ```
///
/// The `fastmem_mixed_sizes` class: where sizes vary unpredictably from
/// call to call, one class instead of two or three rungs saves the branch
/// mispredictions, at the price of `k` moves for every `n` in the range.
///
/// # Safety
///
/// `W <= n <= k * W` and `0..n` is in range.
#[inline(always)]
pub(crate) unsafe fn clamped_run<V: Vector, R: Source>(dst: *mut u8, src: R, n: usize, k: usize) {
    let w = V::BYTES;
    debug_assert!(w <= n && n <= k * w);
    for i in 0..k - 1 {
        // A select, not a branch: a repeated vector 0 costs one move.
        let at = if (i + 1) * w <= n { i * w } else { 0 };
        // SAFETY: `at + W <= n` in either arm (`W <= n`).
        unsafe { block::<V, Unaligned, Unaligned, R>(dst, src, at, 1) }
    }
    // SAFETY: `n >= W`. The vectors before it cover `0..m * W`, with `m`
    // the least of `n / W` and `k - 1`; both give `m * W >= n - W` (`n <=
    // k * W`), so with this one nothing is left out.
    unsafe { tail::<V, R>(dst, src, n, 1) }
}

/// Writes any `n <= 2 * V::BYTES`, `n == 0` included: 1-16 B, then the
/// vector rungs. Not on the ladder's path, which tests the small class
/// itself ([`write()`]); it is the masked moves' stand-in for kernels
/// without them ([`Tuning::copy_masked`]), and the unit tests sweep it.
///
/// # Safety
///
/// `0..n` is in range for `dst` and `src`.
#[inline(always)]
pub(crate) unsafe fn write_le_2w<V: Vector, R: Source>(dst: *mut u8, src: R, n: usize) {
    debug_assert!(n <= 2 * V::BYTES);
    // SAFETY: each callee's size precondition is the test that selects it.
    unsafe {
        if n <= 16 {
            write_le16(dst, src, n)
        } else {
            write_gt16::<V, R>(dst, src, n)
        }
    }
}

/// Writes any `n <= 16` with general-purpose registers:
///
/// ```text
/// [8, 16]  two u64, overlapping:  |0......7|        12 B = bytes 0..8 and 4..12
///                                     |n-8..n-1|
/// [4, 8)   two u32, overlapping
/// [1, 4)   the first, middle and last byte (1 B: the same byte three times)
/// 0        nothing
/// ```
///
/// # Safety
///
/// `n <= 16` and `0..n` is in range.
#[inline(always)]
pub(crate) unsafe fn write_le16<R: Source>(dst: *mut u8, src: R, n: usize) {
    debug_assert!(n <= 16);
    // SAFETY: every move lies in `0..n`: the u64 pair needs n >= 8, the u32
    // pair n >= 4, and `0 <= n / 2 <= n - 1` for n >= 1.
    unsafe {
        if n >= 8 {
            head_tail::<u64, R>(dst, src, n, 1)
        } else if n >= 4 {
            head_tail::<u32, R>(dst, src, n, 1)
        } else if n != 0 {
            block::<u8, Unaligned, Unaligned, R>(dst, src, 0, 1);
            block::<u8, Unaligned, Unaligned, R>(dst, src, n / 2, 1);
            block::<u8, Unaligned, Unaligned, R>(dst, src, n - 1, 1);
        }
    }
}

/// Writes `16 < n <= 2 * V::BYTES` with one head_tail at the narrowest
/// vector rung that covers `n`.
///
/// # Safety
///
/// `16 < n <= 2 * V::BYTES` and `0..n` is in range.
#[inline(always)]
unsafe fn write_gt16<V: Vector, R: Source>(dst: *mut u8, src: R, n: usize) {
    debug_assert!(16 < n && n <= 2 * V::BYTES);
    // SAFETY: a 16-byte rung covers (16, 32]; a wider one takes [W, 2W] and
    // hands (16, W) to its half, whose 2 * Half::BYTES is W.
    unsafe {
        if V::BYTES <= 16 || n >= V::BYTES {
            head_tail::<V, R>(dst, src, n, 1)
        } else {
            write_gt16::<V::Half, R>(dst, src, n)
        }
    }
}

/// Whether sizes in (64, [`mixed_max`]] take one [`clamped_run`] class
/// instead of the vector rungs: `--cfg fastmem_mixed_sizes`.
pub(crate) const MIXED_SIZES: bool = cfg!(fastmem_mixed_sizes);

/// The last size of the [`clamped_run`] class: 256 B, 4 vectors on
/// AVX-512 and 8 on AVX2; 0 (no class) on kernels whose no-loop ladder
/// stops below 256 B. On SSE (to 128 B, 8 vectors) the class measured
/// 1-2 ticks a call slower on mixed sizes, not faster: half of 1-256 B
/// takes its loop there, whose trip count mispredicts all the same.
#[inline(always)]
const fn mixed_max<V: Tuning>() -> usize {
    if V::NOLOOP_MAX >= 256 {
        256
    } else {
        0
    }
}

/// The last size of the first class tested: one masked move where the
/// kernel has them, else the 1-16 B general-purpose moves.
#[inline(always)]
const fn small_max<V: Tuning>() -> usize {
    if V::MASKED_MAX > 0 {
        V::MASKED_MAX
    } else {
        16
    }
}

/// Writes any `n <= small_max::<V>()`, `n == 0` included.
///
/// # Safety
///
/// `n <= small_max::<V>()` and `0..n` is in range.
#[inline(always)]
unsafe fn write_small<V: Tuning, R: Source>(dst: *mut u8, src: R, n: usize) {
    debug_assert!(n <= small_max::<V>());
    // SAFETY: the caller's contract; a constant picks the arm, and each arm
    // takes every `n` up to its `small_max`.
    unsafe {
        if V::MASKED_MAX > 0 {
            src.write_masked::<V>(dst, n)
        } else {
            write_le16(dst, src, n)
        }
    }
}

/// Writes `small_max::<V>() < n <= V::NOLOOP_MAX` with no loop.
///
/// # Safety
///
/// `small_max::<V>() < n <= V::NOLOOP_MAX` and `0..n` is in range.
#[inline(always)]
unsafe fn write_noloop<V: Tuning, R: Source>(dst: *mut u8, src: R, n: usize) {
    let w = V::BYTES;
    debug_assert!(small_max::<V>() < n && n <= V::NOLOOP_MAX);
    // SAFETY (all arms): `write_gt16` gets `16 < n <= 2W` (`small_max` is at
    // least 16); each head_tail gets `count * W <= n <= 2 * count * W`; the
    // `NOLOOP_MAX <= ...` terms are constants that cut the ladder at the
    // kernel's threshold, and `n <= NOLOOP_MAX` makes the cut arm cover `n`.
    unsafe {
        if n <= 2 * w {
            write_gt16::<V, R>(dst, src, n)
        } else if n <= 4 * w || V::NOLOOP_MAX <= 4 * w {
            head_tail::<V, R>(dst, src, n, 2)
        } else if n <= 8 * w || V::NOLOOP_MAX <= 8 * w {
            head_tail::<V, R>(dst, src, n, 4)
        } else {
            head_tail::<V, R>(dst, src, n, 8)
        }
    }
}

/// loop_and_tail: `blocks` blocks of `LOOP_BLOCK` bytes from offset
/// `start`, with aligned stores (and loads of kind `L`), then the last
/// `tail_vectors` vectors before `n`, unaligned.
///
/// Callers derive `blocks` from `n` alone, never from an address, so that a
/// constant `n` gives a constant trip count and the loop unrolls to
/// straight-line code. The tail is addressed from `dst`, `src` and `n`, not
/// from the aligned start, so that its last vectors are the same
/// instructions as the no-loop ladder's largest tail and LLVM emits them
/// once: that saved 80-96 bytes a runtime-`n` `memcpy` call site.
///
/// # Safety
///
/// `dst + start` is `W`-aligned (and the source there too when `L` is
/// [`Aligned`]), `start + blocks * LOOP_BLOCK <= n`, `tail_vectors * W <= n`,
/// the blocks and the tail together cover `start..n`, and `0..n` is in
/// range.
#[inline(always)]
pub(crate) unsafe fn loop_and_tail<V: Tuning, L: Access, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
    start: usize,
    blocks: usize,
    tail_vectors: usize,
) {
    let count = V::LOOP_BLOCK / V::BYTES;
    debug_assert!(start + blocks * V::LOOP_BLOCK <= n && tail_vectors * V::BYTES <= n);
    debug_assert!(start + blocks * V::LOOP_BLOCK + tail_vectors * V::BYTES >= n);
    // The blocks are addressed from the aligned start, so that each access
    // is one base register plus a constant once a constant `n` unrolls.
    // SAFETY: `start <= n`, in range.
    let (at, from) = (unsafe { dst.add(start) }, src.skip(start));
    for i in 0..blocks {
        // SAFETY: the block ends at or before `start + blocks * LOOP_BLOCK
        // <= n`, and starts at a multiple of W from an aligned start.
        unsafe { block::<V, L, Aligned, R>(at, from, i * V::LOOP_BLOCK, count) };
        crate::barrier::no_partial_unroll();
    }
    // SAFETY: `tail_vectors * W <= n`.
    unsafe { tail::<V, R>(dst, src, n, tail_vectors) }
}

/// Writes `n > NOLOOP_MAX` bytes to a destination of any alignment:
/// align_to_next_boundary (one unaligned vector, then skip 1..=W bytes to the
/// next aligned destination address), then loop_and_tail.
///
/// The number of blocks, `(n - W) / LOOP_BLOCK`, is the most that fits after
/// any skip; what it leaves before the last block is under `W` bytes, so the
/// tail is one block plus one vector.
///
/// # Safety
///
/// `n > V::NOLOOP_MAX` and `0..n` is in range.
#[inline(always)]
pub(crate) unsafe fn write_loop<V: Tuning, R: Source>(dst: *mut u8, src: R, n: usize) {
    let skip = V::BYTES - (dst as usize & (V::BYTES - 1));
    let blocks = (n - V::BYTES) / V::LOOP_BLOCK;
    let tail_vectors = V::LOOP_BLOCK / V::BYTES + 1;
    // SAFETY: n > NOLOOP_MAX >= LOOP_BLOCK + W (const-asserted), so the first
    // vector and the tail are in range; `dst + skip` is aligned; with
    // 1 <= skip <= W the blocks end at most at `W + (n - W) = n`, and they
    // reach past `n - LOOP_BLOCK - W`, where the tail starts.
    unsafe {
        block::<V, Unaligned, Unaligned, R>(dst, src, 0, 1);
        loop_and_tail::<V, Unaligned, _>(dst, src, n, skip, blocks, tail_vectors);
    }
}

/// Writes `n > NOLOOP_MAX` bytes to a `W`-aligned destination from a
/// `W`-aligned source (a fill's is any): the blocks that start before
/// `n - LOOP_BLOCK`, then one overlapping block.
///
/// # Safety
///
/// `n > V::NOLOOP_MAX`, `dst` and `src.addr()` are `W`-aligned, and `0..n`
/// is in range.
#[inline(always)]
unsafe fn write_loop_aligned<V: Tuning, R: Source>(dst: *mut u8, src: R, n: usize) {
    // SAFETY: `(n - 1) / LOOP_BLOCK` blocks end before `n` and reach
    // `n - LOOP_BLOCK`, where the one-block tail starts.
    unsafe {
        loop_and_tail::<V, Aligned, R>(
            dst,
            src,
            n,
            0,
            (n - 1) / V::LOOP_BLOCK,
            V::LOOP_BLOCK / V::BYTES,
        )
    }
}

/// Whether `n` goes to a string instruction whose threshold is `min`;
/// `usize::MAX` means none, and folds the test away (`n >= usize::MAX`
/// alone would stay in the code).
#[inline(always)]
const fn takes_string(n: usize, min: usize) -> bool {
    min != usize::MAX && n >= min
}

/// The invariants the ladder and the loops rely on.
#[inline(always)]
const fn check_tuning<V: Tuning>() {
    const {
        let w = V::BYTES;
        assert!(w.is_power_of_two(), "vector width must be a power of two");
        assert!(
            V::NOLOOP_MAX == 4 * w || V::NOLOOP_MAX == 8 * w || V::NOLOOP_MAX == 16 * w,
            "NOLOOP_MAX must be 4, 8 or 16 vectors"
        );
        assert!(
            V::LOOP_BLOCK % w == 0 && V::LOOP_BLOCK >= w,
            "LOOP_BLOCK must be a whole number of vectors"
        );
        assert!(
            V::LOOP_BLOCK + w <= V::NOLOOP_MAX,
            "the loop needs NOLOOP_MAX >= LOOP_BLOCK + W"
        );
        assert!(
            V::MASKED_MAX <= 2 * w,
            "masked moves cover at most the first rung"
        );
        assert!(
            V::MASKED_MAX == 0 || V::MASKED_MAX >= 16,
            "masked moves, where a kernel has them, replace the 1-16 B moves"
        );
        assert!(
            w <= 64 && mixed_max::<V>().is_multiple_of(w),
            "the mixed-sizes class needs W <= 64 < n and whole vectors"
        );
        assert!(
            V::STRING_COPY_MIN > V::NOLOOP_MAX && V::STRING_FILL_MIN > V::NOLOOP_MAX,
            "string instructions only take over above the no-loop sizes"
        );
    }
}

/// The whole ladder: no loop up to `NOLOOP_MAX`, the smallest class
/// tested first inside it; above it, the block loop, the aligned one when
/// `aligned` says the pointers allow it, or the kernel's string
/// instruction from its threshold, or, from the non-temporal threshold,
/// the out-of-line streaming loop (`crate::large`). With `mixed` ([`MIXED_SIZES`]), sizes
/// in (64, [`mixed_max`]] take [`clamped_run`] instead of the rungs.
///
/// The order of the tests was measured (BENCHMARKS.md, "The order of the
/// size tests"): an 8-16 B call now makes three tests before its moves
/// where it made five, and took 2.3-2.7 ticks instead of 3.1-3.9 on the
/// SSE and AVX2 kernels. Testing the small class before `NOLOOP_MAX` was
/// 5-6% slower over the whole sweep, and the string threshold before the
/// alignment 7-8% slower for AVX2 copies (even elsewhere): the order moves
/// where LLVM places the tail stores several classes share, and a taken
/// jump to them cost 1-3 ticks at 24-256 B.
///
/// # Safety
///
/// `0..n` is in range for `dst` and `src`; if `aligned`, `dst` and
/// `src.addr()` are `W`-aligned.
#[inline(always)]
pub(crate) unsafe fn write<V: Tuning, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
    aligned: bool,
    mixed: bool,
) {
    check_tuning::<V>();
    // From the smaller of the string and non-temporal thresholds: one arm,
    // which both loops' dispatch shares (`large::write_large`).
    let large = takes_string(n, crate::large::large_min::<V, R>());
    // SAFETY (all arms): each arm's size precondition is the test that
    // selects it (`small_max < NOLOOP_MAX < string_min`, const-asserted;
    // `clamped_run` gets `W <= 64 < n <= mixed_max`, a whole number of
    // vectors); the aligned loop gets the caller's aligned pointers.
    unsafe {
        if n <= V::NOLOOP_MAX {
            if n <= small_max::<V>() {
                write_small::<V, R>(dst, src, n)
            } else if mixed && mixed_max::<V>() > 0 && n > 64 && n <= mixed_max::<V>() {
                // `mixed_max > 0` is implied by the size tests, but as a
                // constant it drops this arm before codegen: without it the
                // SSE call site grew 16 B with the cfg, the arm being dead.
                clamped_run::<V, R>(dst, src, n, mixed_max::<V>() / V::BYTES)
            } else {
                write_noloop::<V, R>(dst, src, n)
            }
        } else if aligned && !large {
            write_loop_aligned::<V, R>(dst, src, n)
        } else if large {
            crate::large::write_large::<V, R>(dst, src, n)
        } else {
            write_loop::<V, R>(dst, src, n)
        }
    }
}

/// Whether the aligned loop may write `n > NOLOOP_MAX` bytes from `src` to
/// `dst`: one test of `(dst | src) & (W - 1)`, as DPDK's `rte_memcpy` makes
/// for vhost enqueue. A fill takes it where the kernel sets
/// [`Tuning::FILL_ALIGNED_LOOP`]: with `dst` aligned, the unaligned loop's
/// skip is a whole vector and its tail one more, 14 stores at 768 B on
/// AVX-512 against 12 (BENCHMARKS.md, "The aligned-destination fill").
/// Only the loop arm of [`write()`] reads it, so the test is not made for
/// smaller sizes.
#[inline(always)]
pub(crate) fn takes_aligned_loop<V: Tuning, R: Source>(dst: *mut u8, src: R) -> bool {
    R::aligned_loop::<V>() && (dst as usize | src.addr()) & (V::BYTES - 1) == 0
}

/// See [`crate::memcpy`]: [`memcpy_generic`], except that a pair of aligned
/// pointers takes the aligned loop.
///
/// # Safety
///
/// As [`crate::memcpy`].
#[inline(always)]
pub(crate) unsafe fn memcpy<V: Tuning>(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: the caller's contract; `takes_aligned_loop` vouches for alignment.
    unsafe {
        write::<V, _>(
            dst,
            src,
            n,
            takes_aligned_loop::<V, _>(dst, src),
            MIXED_SIZES,
        )
    }
}

/// See [`crate::memcpy_aligned`]: the aligned loop wherever a loop runs.
///
/// # Safety
///
/// As [`crate::memcpy_aligned`].
#[inline(always)]
pub(crate) unsafe fn memcpy_aligned<V: Tuning>(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: the caller's contract: both pointers are W-aligned.
    unsafe { write::<V, _>(dst, src, n, true, MIXED_SIZES) }
}

/// See [`crate::memcpy_generic`].
///
/// # Safety
///
/// As [`crate::memcpy_generic`].
#[inline(always)]
pub(crate) unsafe fn memcpy_generic<V: Tuning>(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: the caller's contract.
    unsafe { write::<V, _>(dst, src, n, false, MIXED_SIZES) }
}

/// See [`crate::memset`].
///
/// # Safety
///
/// As [`crate::memset`].
#[inline(always)]
pub(crate) unsafe fn memset<V: Tuning>(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: the caller's contract; `takes_aligned_loop` vouches for alignment.
    unsafe {
        write::<V, _>(
            dst,
            Splat(c),
            n,
            takes_aligned_loop::<V, _>(dst, Splat(c)),
            MIXED_SIZES,
        )
    }
}

/// Copies exactly `N` bytes: `N / W` vectors, or, below the width, the rung
/// whose width is `N`.
///
/// # Safety
///
/// As [`crate::mov16`], for `N` bytes.
#[inline(always)]
pub(crate) unsafe fn mov<V: Vector, const N: usize>(dst: *mut u8, src: *const u8) {
    const { assert!(N.is_power_of_two(), "mov sizes are powers of two") };
    // SAFETY: `0..N` is in range by the caller; N is a multiple of W in the
    // first arm and narrower rungs halve down to N in the second.
    unsafe {
        if N >= V::BYTES {
            block::<V, Unaligned, Unaligned, _>(dst, src, 0, N / V::BYTES)
        } else {
            mov::<V::Half, N>(dst, src)
        }
    }
}
