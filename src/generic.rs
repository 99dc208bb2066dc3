//! The copy and fill algorithm, written once over a [`Tuning`] kernel.
//!
//! # The plan
//!
//! A copy, a move and a fill are the same algorithm with a different
//! [`Source`] of vectors: a copy reads them from `src + off`, a move
//! ([`Move`]) too, from a source that may overlap the destination, and a
//! fill returns the splatted byte. Everything below is generic over the
//! kernel's vector `V` (width `W`) and the source; no `cfg` appears in this
//! module.
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
//! n in (4W, 8W]     head_tail, 4 vectors each side   (if NOLOOP_MAX >= 8W;
//!                   where 4W >= 256 B, i.e. on AVX-512 (`SPLIT_MIN`):
//!                   (4W, 6W] 4 at the head and 2 at the tail, (6W, 8W]
//!                   6 at the head and 2 at the tail; a fill's middle
//!                   vectors from the destination's line boundary at or
//!                   below 2W: `bridge_at`)
//! n in (8W, 16W]    head_tail, 8 vectors each side   (if NOLOOP_MAX = 16W)
//! n > NOLOOP_MAX    loop_and_tail:
//!                     |V===|                            first vector, unaligned
//!                        |B=======|B=======|B=======|   W-aligned dst blocks
//!                                          |T==========| last block + 1 vector
//!                                          (`SHORT_TAIL` kernels, both loops:
//!                                          the last 2, 4 or 5 vectors, by
//!                                          `(n - W) % LOOP_BLOCK`; an
//!                                          AVX-512 copy's, with one at
//!                                          `n`: 1 to 5)
//!                   a copy the unaligned loop takes, from
//!                   UNALIGNED_COPY_OUT_MIN (AVX-512 on Zen 4: 2 KiB):
//!                   the AVX2 kernel's unaligned loop, out of line
//! n >= STRING_*_MIN `rep movsb` / `rep stosb`, where the kernel has a threshold
//! n >= NONTEMPORAL_MIN  the non-temporal loop, out of line (`large.rs`), on
//!                   kernels with non-temporal stores; both in one arm
//!                   (`large::write_large`), out of line as a whole where
//!                   the kernel asks (AVX-512, SSE)
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
//! extra moves instead, up to 3 ticks at 65-128 B (benches/NOTEBOOK.md, "The
//! mixed-sizes class"). Hence a cfg, off by default.
//!
//! # Moves: load before store
//!
//! [`memmove`] walks the same ladder with a [`Move`] source, and each step
//! is an [`Ahead`]: a copy loads and stores one vector at a time, a move
//! loads all the vectors of a step into registers before its first store.
//!
//! ```text
//! n <= NOLOOP_MAX   every vector of the class loaded, then stored: no
//!                   direction test, any overlap is harmless
//!                     head_tail:  load |H0|H1|..   |..|T1|T0|   store all
//!                     masked:     one masked load, one masked store (the
//!                                 ladder instead when dst and src are
//!                                 under 32 B apart, see `masks_apart`)
//! n > NOLOOP_MAX, disjoint ranges (one add and compare, `disjoint`):
//!                   the copy's loops and string instruction, unchanged
//! n > NOLOOP_MAX, overlapping, dst before src: going up
//!                     load |V===|                 and |T=======|       first (T: the
//!                                                                      last block)
//!                          |B=======|B=======|...                      blocks up, each
//!                                                                      loaded whole,
//!                                                                      until they reach T
//!                     store |T=======|, then |V===|                    last
//!                   `rep movsb` from the kernel's threshold, unless dst is
//!                   1-63 B before src (`string_apart`)
//! n > NOLOOP_MAX, overlapping, dst after src: the mirror image, going down
//!                     load |T=======|  and  |===V|      first (T at 0)
//!                          ...|B=======|B=======|       blocks down from the
//!                                                       last aligned dst address
//!                     store |T=======|, then |===V|     last
//! ```
//!
//! A copy's code is unchanged by moves: `Source::OVERLAP` and
//! `Source::Regs` are constants of the source type, so the read-ahead,
//! the direction test and the mirrored offsets fold away for it.
//!
//! Every routine is `#[inline(always)]`: with a constant `n`, the ladder folds
//! to the few moves that size needs, straight-line, at the call site.

use crate::vector::{Access, Aligned, Tuning, Unaligned, Vector};
use core::marker::PhantomData;
use core::mem::MaybeUninit;

/// Where the bytes written come from.
pub(crate) trait Source: Copy {
    /// Whether the source may overlap the destination: a move ([`Move`]).
    /// Then every [`Ahead`] loads its vectors before the stores that could
    /// overwrite their source bytes, and the loop above `NOLOOP_MAX` goes
    /// down when going up is not safe. A constant: copies and fills compile
    /// exactly as without it.
    const OVERLAP: bool = false;

    /// Where an [`Ahead`] keeps its vectors: [`NoRegs`] for a copy or a
    /// fill, which read each vector as they store it; an array of
    /// registers for a move. A type rather than a test of `OVERLAP`, so
    /// that a copy's code holds no unused array.
    type Regs<V: Vector>: Regs<V>;

    /// The source as a copy reads it, for a move whose ranges turn out
    /// disjoint: it takes the copy's loops. Itself for a copy or a fill.
    type Disjoint: Source;

    /// This source as [`Source::Disjoint`].
    fn disjoint(self) -> Self::Disjoint;

    /// The source as a move reads it, every vector of an [`Ahead`] loaded
    /// before the first store: [`Move`] for a copy
    /// ([`Tuning::LOAD_FIRST`]); itself for a move, and for a fill, which
    /// loads nothing.
    type LoadsFirst: Source;

    /// This source as [`Source::LoadsFirst`].
    fn loads_first(self) -> Self::LoadsFirst;

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

    /// This source, from a pointer LLVM cannot see through: a move
    /// ([`Move`]) loads every other vector of a run from it where
    /// [`Vector::JOINABLE`], so that no two adjacent loads are known to be
    /// adjacent, and LLVM joins none of them (nor their stores) into a
    /// wider move ([`Ahead::read`]). Itself for the other sources, which
    /// load nothing ahead.
    #[inline(always)]
    fn apart(self) -> Self {
        self
    }

    /// This source as the unaligned block loop reads it: itself, but for
    /// a fill, whose byte goes through a barrier ([`Splat`]).
    #[inline(always)]
    fn for_unaligned_loop(self) -> Self {
        self
    }

    /// The address bits that must be vector-aligned, with the destination's,
    /// for the aligned loop: a copy's source pointer; 0 for a fill, where
    /// only the destination counts.
    fn addr(self) -> usize;

    /// Whether this source may take the aligned loop on kernel `V`.
    fn aligned_loop<V: Tuning>() -> bool;

    /// Whether the aligned loop writes its first block before the loop
    /// starts: a fill's does, a copy's does not (see `write_loop_aligned`).
    const PEEL: bool = false;

    /// Writes `0..n` with the kernel's masked moves.
    ///
    /// # Safety
    ///
    /// `n <= V::MASKED_MAX` and `0..n` is in range.
    unsafe fn write_masked<V: Tuning>(self, dst: *mut u8, n: usize);

    /// Writes `0..n`, `w <= n <= 2w` with `w` 32 or 64, as one vector of
    /// `w` bytes at each end in registers 16-31, both read before either
    /// is written ([`crate::kernels::high`]): `write_gt16`'s 33-128-byte
    /// ends where `high::ON`. Fills too, since their large path returns
    /// `dst` and no symbol saves a register: when a fill's broadcast first
    /// went into `asm!`, LLVM saved `rbx` on entry to every path of the
    /// exported `memset`, and fills kept the intrinsics (benches/NOTEBOOK.md,
    /// "`intel-6-167`: the early returns in registers 16-31", "`intel-6-167`:
    /// fills in registers 16-31").
    ///
    /// # Safety
    ///
    /// `w` is 32 or 64, `w <= n <= 2 * w`, and `0..n` is in range.
    unsafe fn write_ends_high(self, dst: *mut u8, n: usize, w: usize);

    /// The first size this source hands to the kernel's string instruction.
    fn string_min<V: Tuning>() -> usize;

    /// Writes `0..n` with the kernel's string instruction (the block loop
    /// where it has none), at any size above `NOLOOP_MAX`: the threshold
    /// says where it pays, not where it works.
    ///
    /// # Safety
    ///
    /// `n > V::NOLOOP_MAX` and `0..n` is in range.
    unsafe fn write_string<V: Tuning>(self, dst: *mut u8, n: usize);
}

impl Source for *const u8 {
    const TRAFFIC: usize = 2;

    type Regs<V: Vector> = NoRegs;
    type Disjoint = Self;
    type LoadsFirst = Move<false>;

    #[inline(always)]
    fn disjoint(self) -> Self {
        self
    }
    #[inline(always)]
    fn loads_first(self) -> Move<false> {
        Move(self)
    }
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
    unsafe fn write_ends_high(self, dst: *mut u8, n: usize, w: usize) {
        // SAFETY: forwarded contract.
        unsafe { crate::kernels::high::copy_ends(dst, self, n, w) }
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

/// A move: a copy whose source may overlap the destination. It reads and
/// writes as a copy does; only [`Source::OVERLAP`] differs. With `APART`
/// (`memmove`) it loads every other vector of a run from a pointer LLVM
/// cannot see through where [`Vector::JOINABLE`] ([`Source::apart`]);
/// without, as a copy's classes that load first ([`Source::LoadsFirst`]),
/// it does not: the copies showed no joined vectors, and there the barrier
/// took the AVX2 `memcpy` call site of a build for Zen 4 from 591 to 607 B,
/// over its 600.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Move<const APART: bool = true>(pub(crate) *const u8);

impl<const APART: bool> Source for Move<APART> {
    const OVERLAP: bool = true;
    const TRAFFIC: usize = 2;
    type Regs<V: Vector> = [MaybeUninit<V>; AHEAD_MAX];
    type Disjoint = *const u8;
    type LoadsFirst = Self;

    #[inline(always)]
    fn disjoint(self) -> *const u8 {
        self.0
    }
    #[inline(always)]
    fn loads_first(self) -> Self {
        self
    }
    #[inline(always)]
    unsafe fn read<V: Vector, L: Access>(self, off: usize) -> V {
        // SAFETY: forwarded contract.
        unsafe { Source::read::<V, L>(self.0, off) }
    }
    #[inline(always)]
    fn skip(self, by: usize) -> Self {
        Self(Source::skip(self.0, by))
    }
    #[inline(always)]
    fn apart(self) -> Self {
        if APART {
            Self(crate::barrier::opaque_ptr(self.0.cast_mut()).cast_const())
        } else {
            self
        }
    }
    #[inline(always)]
    fn addr(self) -> usize {
        Source::addr(self.0)
    }
    #[inline(always)]
    fn aligned_loop<V: Tuning>() -> bool {
        <*const u8>::aligned_loop::<V>()
    }
    #[inline(always)]
    unsafe fn write_masked<V: Tuning>(self, dst: *mut u8, n: usize) {
        // SAFETY: forwarded contract; `Tuning::copy_masked` loads every
        // byte before it stores one, so overlap is harmless.
        unsafe { self.0.write_masked::<V>(dst, n) }
    }
    #[inline(always)]
    unsafe fn write_ends_high(self, dst: *mut u8, n: usize, w: usize) {
        // SAFETY: forwarded contract; both ends are loaded before either is
        // stored, so overlap is harmless.
        unsafe { self.0.write_ends_high(dst, n, w) }
    }
    #[inline(always)]
    fn string_min<V: Tuning>() -> usize {
        <*const u8>::string_min::<V>()
    }
    #[inline(always)]
    unsafe fn write_string<V: Tuning>(self, dst: *mut u8, n: usize) {
        // SAFETY: forwarded contract; [`write()`] hands a move to the
        // string instruction only when going up is safe, which
        // `Tuning::string_copy` must handle.
        unsafe { self.0.write_string::<V>(dst, n) }
    }
}

/// A fill: every byte is the same.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Splat(pub(crate) u8);

impl Source for Splat {
    const TRAFFIC: usize = 1;
    const PEEL: bool = true;

    type Regs<V: Vector> = NoRegs;
    type Disjoint = Self;
    type LoadsFirst = Self;

    #[inline(always)]
    fn disjoint(self) -> Self {
        self
    }
    #[inline(always)]
    fn loads_first(self) -> Self {
        self
    }
    #[inline(always)]
    unsafe fn read<V: Vector, L: Access>(self, _off: usize) -> V {
        // A 64-byte vector splats a byte LLVM cannot see: of a constant
        // byte (`memset(p, 0, n)`, `memset_const`) LLVM stores a constant
        // vector, which it splits into two 32-byte stores on x86-64 with
        // AVX-512, and each half that crosses a line costs as a whole
        // store does (benches/NOTEBOOK.md, "`intel-6-167`: a constant fill
        // byte"). The barrier is pure, so LLVM still broadcasts once for
        // all the vectors of a fill. Narrower vectors keep the constant,
        // which spares them the broadcast (`xorps` for a zero), but in the
        // unaligned loop (`for_unaligned_loop`).
        // Of a constant byte LLVM also joins the stores of a vector the
        // build does not prefer into wider ones (`Vector::JOINABLE`).
        if V::BYTES == 64 || V::JOINABLE {
            V::splat(crate::barrier::opaque_byte(self.0))
        } else {
            V::splat(self.0)
        }
    }
    #[inline(always)]
    fn skip(self, _by: usize) -> Self {
        self
    }
    /// Of a constant byte LLVM lays out the loops' stores in another
    /// order (each block's stores falling, on SSE and AVX2), which took
    /// unaligned fills of 384 B-8 KiB 12-31% longer than of a byte it
    /// cannot see; the aligned loop ran as fast either way, and keeps the
    /// constant (benches/NOTEBOOK.md, "`intel-6-167`: a constant fill
    /// byte").
    #[inline(always)]
    fn for_unaligned_loop(self) -> Self {
        Splat(crate::barrier::opaque_byte(self.0))
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
    unsafe fn write_ends_high(self, dst: *mut u8, n: usize, w: usize) {
        // SAFETY: forwarded contract.
        unsafe { crate::kernels::high::fill_ends(dst, self.0, n, w) }
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

/// The most vectors one [`Ahead`] holds: a head or tail run of up to 8
/// vectors ([`head_tail`] with `NOLOOP_MAX` = 16W), or the loop's tail,
/// `LOOP_BLOCK / W + 1 <= NOLOOP_MAX / W` vectors (const-asserted).
pub(crate) const AHEAD_MAX: usize = 16;

/// Storage for the vectors an [`Ahead`] reads before it writes them.
pub(crate) trait Regs<V>: Sized {
    /// Storage with no vector in it yet.
    fn empty() -> Self;
    /// Whether [`Regs::put`] keeps anything: false for [`NoRegs`].
    const KEEPS: bool;
    /// Keeps `v` as vector `i` (`i < AHEAD_MAX`).
    fn put(&mut self, i: usize, v: V);
    /// Vector `i`.
    ///
    /// # Safety
    ///
    /// [`Regs::put`] kept vector `i`.
    unsafe fn get(&self, i: usize) -> V;
}

/// No storage: a copy or a fill reads each vector as it stores it.
pub(crate) struct NoRegs;

impl<V> Regs<V> for NoRegs {
    #[inline(always)]
    fn empty() -> Self {
        NoRegs
    }
    const KEEPS: bool = false;
    #[inline(always)]
    fn put(&mut self, _: usize, _: V) {}
    #[inline(always)]
    unsafe fn get(&self, _: usize) -> V {
        unreachable!("NoRegs keeps no vector")
    }
}

/// Runs `$body` with `$k` bound to `$i` as a literal, `$i < AHEAD_MAX`:
/// array indices that are constants from the start, not only once the
/// loops around them unroll. With `self[i]`, LLVM kept a move's registers
/// in a stack array (a 1 KiB frame, aligned and set up on every call,
/// and a store and reload of every saved vector): its SROA pass, which
/// puts array elements in registers, runs before full unrolling.
macro_rules! const_index {
    ($i:expr, $k:ident => $body:expr) => {
        match $i {
            0 => {
                let $k = 0;
                $body
            }
            1 => {
                let $k = 1;
                $body
            }
            2 => {
                let $k = 2;
                $body
            }
            3 => {
                let $k = 3;
                $body
            }
            4 => {
                let $k = 4;
                $body
            }
            5 => {
                let $k = 5;
                $body
            }
            6 => {
                let $k = 6;
                $body
            }
            7 => {
                let $k = 7;
                $body
            }
            8 => {
                let $k = 8;
                $body
            }
            9 => {
                let $k = 9;
                $body
            }
            10 => {
                let $k = 10;
                $body
            }
            11 => {
                let $k = 11;
                $body
            }
            12 => {
                let $k = 12;
                $body
            }
            13 => {
                let $k = 13;
                $body
            }
            14 => {
                let $k = 14;
                $body
            }
            _ => {
                let $k = 15;
                $body
            }
        }
    };
}

impl<V: Copy> Regs<V> for [MaybeUninit<V>; AHEAD_MAX] {
    #[inline(always)]
    fn empty() -> Self {
        [const { MaybeUninit::uninit() }; AHEAD_MAX]
    }
    const KEEPS: bool = true;
    #[inline(always)]
    fn put(&mut self, i: usize, v: V) {
        debug_assert!(i < AHEAD_MAX);
        const_index!(i, k => self[k].write(v));
    }
    #[inline(always)]
    unsafe fn get(&self, i: usize) -> V {
        debug_assert!(i < AHEAD_MAX);
        // SAFETY: `put` wrote it (the caller).
        const_index!(i, k => unsafe { self[k].assume_init() })
    }
}

/// `count` vectors, vector `i` at offset `at(i)` of both pointers, read
/// ahead of their stores when the source may overlap the destination.
///
/// Every `at` closure handed to it is `#[inline(always)]`, as every
/// function here is. With the feature `c-symbols` the crate is
/// `#![no_builtins]`, and rustc marks this crate's code, generics
/// instantiated in a caller included, "no-builtins": LLVM does not inline
/// such a function into a caller without the mark unless it must, so a
/// plain closure stayed a call in every consumer (`ci/codegen.sh` failed
/// the constant sizes' straight-line check and the 600-byte budget).
///
/// For a copy or a fill, [`Ahead::read`] reads nothing and
/// [`Ahead::write`] moves one vector at a time, load then store: the code
/// the copy had before moves existed. For a move ([`Source::OVERLAP`]),
/// `read` loads every vector into registers ([`Source::Regs`]), and
/// `write` stores them: no store made between the two can change what
/// they write.
///
/// ```text
/// a move of n in [W, 2W]:   load |H===|  load |===T|   then store both
/// ```
pub(crate) struct Ahead<V: Vector, L, R: Source, F> {
    regs: R::Regs<V>,
    count: usize,
    at: F,
    src: R,
    access: PhantomData<L>,
}

impl<V: Vector, L: Access, R: Source, F: Fn(usize) -> usize> Ahead<V, L, R, F> {
    /// Loads the vectors now if `R` may overlap the destination.
    ///
    /// # Safety
    ///
    /// `count <= AHEAD_MAX` where the storage keeps vectors (a move), and
    /// `at(i)..at(i) + W` is readable from `src`
    /// for every `i < count`, aligned when `L` is [`Aligned`].
    #[inline(always)]
    pub(crate) unsafe fn read(src: R, count: usize, at: F) -> Self {
        debug_assert!(!R::Regs::<V>::KEEPS || count <= AHEAD_MAX);
        let mut regs = R::Regs::<V>::empty();
        if R::Regs::<V>::KEEPS {
            // Every other vector from a pointer LLVM cannot relate to
            // `src` where it would join adjacent ones (`Source::apart`):
            // one barrier a run.
            let odd = if V::JOINABLE { src.apart() } else { src };
            for i in 0..count {
                let from = if i % 2 == 1 { odd } else { src };
                // SAFETY: the caller's contract; `odd` is `src`.
                regs.put(i, unsafe { from.read::<V, L>(at(i)) });
            }
        }
        Ahead {
            regs,
            count,
            at,
            src,
            access: PhantomData,
        }
    }

    /// Writes the vectors at `dst`: those loaded by [`Ahead::read`] for a
    /// move; for a copy, each loaded now and stored.
    ///
    /// # Safety
    ///
    /// As [`Ahead::read`], and `at(i)..at(i) + W` is writable at `dst`,
    /// aligned when `S` is [`Aligned`].
    #[inline(always)]
    pub(crate) unsafe fn write<S: Access>(&self, dst: *mut u8) {
        for i in 0..self.count {
            let at = (self.at)(i);
            // SAFETY: where the storage keeps vectors, `read` kept all
            // `count`; the ranges are the caller's.
            unsafe {
                let v = if R::Regs::<V>::KEEPS {
                    self.regs.get(i)
                } else {
                    self.src.read::<V, L>(at)
                };
                S::store(v, dst.add(at))
            }
        }
    }
}

/// `count` consecutive vectors from offset `off`, as an [`Ahead`].
///
/// # Safety
///
/// As [`Ahead::read`] for `off..off + count * W`.
#[inline(always)]
unsafe fn run<V: Vector, L: Access, R: Source>(
    src: R,
    off: usize,
    count: usize,
) -> Ahead<V, L, R, impl Fn(usize) -> usize + Copy> {
    // SAFETY: vector `i` is `off + i * W`, inside the caller's range.
    unsafe {
        Ahead::read(
            src,
            count,
            #[inline(always)]
            move |i| off + i * V::BYTES,
        )
    }
}

/// block: writes `count` vectors at `dst + off`; a move loads them all
/// before its first store.
///
/// # Safety
///
/// `off..off + count * V::BYTES` is in range for `dst` and `src`, aligned for
/// the accesses `L` (source) and `S` (destination) claim; for a move,
/// `count <= AHEAD_MAX`.
#[inline(always)]
pub(crate) unsafe fn block<V: Vector, L: Access, S: Access, R: Source>(
    dst: *mut u8,
    src: R,
    off: usize,
    count: usize,
) {
    // SAFETY: the caller's contract.
    unsafe { run::<V, L, R>(src, off, count).write::<S>(dst) }
}

/// head_tail: two possibly overlapping runs of `count` vectors, the first
/// starting at 0 and the second ending at `n`. A move loads both runs
/// before it stores either.
///
/// # Safety
///
/// `count * W <= n <= 2 * count * W`, `count <= 8`, and `0..n` is in range.
#[inline(always)]
pub(crate) unsafe fn head_tail<V: Vector, R: Source>(dst: *mut u8, src: R, n: usize, count: usize) {
    // SAFETY: the caller's contract is `head_tail_runs`' with both counts
    // `count`.
    unsafe { head_tail_runs::<V, R>(dst, src, n, count, count) }
}

/// head_tail_runs: [`head_tail`] with a head of `head` vectors and a tail
/// of `tail`, which may differ.
///
/// # Safety
///
/// `max(head, tail) * W <= n <= (head + tail) * W`, `head + tail <=
/// AHEAD_MAX`, and `0..n` is in range.
#[inline(always)]
pub(crate) unsafe fn head_tail_runs<V: Vector, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
    head: usize,
    tail: usize,
) {
    let w = V::BYTES;
    debug_assert!(head.max(tail) * w <= n && n <= (head + tail) * w);
    // SAFETY: both runs lie in `0..n` by the precondition.
    unsafe {
        let first = run::<V, Unaligned, R>(src, 0, head);
        // The tail in rising order, as a copy's. Walking it down from `n`
        // was tried: repeated overlapping AVX2 moves of 96-128 B went from
        // 0.94x glibc's speed to 1.10x, but figures at 192-256 B moved as
        // much with code placement alone (benches/NOTEBOOK.md, "memmove").
        // Addressed from `n` (`run` from `n - tail * W` is the same
        // vectors, but made LLVM lay out the SSE `memcpy` call site 16 B
        // larger).
        let last = Ahead::<V, Unaligned, R, _>::read(
            src,
            tail,
            #[inline(always)]
            |i| n - (tail - i) * w,
        );
        first.write::<Unaligned>(dst);
        last.write::<Unaligned>(dst);
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
    debug_assert!(w <= n && n <= k * w && k <= AHEAD_MAX);
    // Vector `i < k - 1` at `i * W` if it fits, else at 0 (a select, not a
    // branch: a repeated vector 0 costs one move); the last at `n - W`.
    // SAFETY: `at(i) + W <= n` in every arm (`W <= n`). The vectors before
    // the last cover `0..m * W`, with `m` the least of `n / W` and `k - 1`;
    // both give `m * W >= n - W` (`n <= k * W`), so with the last one
    // nothing is left out.
    unsafe {
        Ahead::<V, Unaligned, R, _>::read(
            src,
            k,
            #[inline(always)]
            |i: usize| {
                if i + 1 == k {
                    n - w
                } else if (i + 1) * w <= n {
                    i * w
                } else {
                    0
                }
            },
        )
        .write::<Unaligned>(dst)
    }
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
            write_gt16::<V, R>(dst, src, n, false)
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
            // A move loads all three before it stores one.
            let first = run::<u8, Unaligned, R>(src, 0, 1);
            let middle = run::<u8, Unaligned, R>(src, n / 2, 1);
            let last = run::<u8, Unaligned, R>(src, n - 1, 1);
            first.write::<Unaligned>(dst);
            middle.write::<Unaligned>(dst);
            last.write::<Unaligned>(dst);
        }
    }
}

/// Writes `16 < n <= 2 * V::BYTES` with one head_tail at the narrowest
/// vector rung that covers `n`; with `halves_at_w`, `n == V::BYTES` takes
/// the half rung too ([`Tuning::HALVES_AT_WIDTH`]). With [`NARROW_STORES`],
/// a copy's or a move's `32 < n <= 64` on the 32-byte rung takes two
/// 16-byte vectors from each end instead of one 32-byte vector.
///
/// # Safety
///
/// `16 < n <= 2 * V::BYTES` and `0..n` is in range.
#[inline(always)]
pub(crate) unsafe fn write_gt16<V: Vector, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
    halves_at_w: bool,
) {
    debug_assert!(16 < n && n <= 2 * V::BYTES);
    // SAFETY: a 16-byte rung covers (16, 32]; a wider one takes [W, 2W]
    // (or (W, 2W]) and hands (16, W) (or (16, W]) to its half, whose
    // 2 * Half::BYTES is W; the narrow form's (32, 64] is `write_narrow`'s
    // range, with the 16-byte half.
    unsafe {
        // A lower bound either way (`n >= W`, or `W + 1` with the halves),
        // so that the full rung stays on the branch's fall-through, where
        // LLVM puts it: testing `n <= W` first for the halves gave 65-128 B
        // a second taken branch, 6.6-7.2 -> 7.4-8.5 ticks a call.
        if V::BYTES <= 16 || n >= V::BYTES + usize::from(halves_at_w) {
            if NARROW_STORES && V::BYTES == 32 && R::TRAFFIC == 2 && n > 32 {
                // Four 16-byte vectors, two from each end. Tested inside
                // the rung, so that 17-31 B meet no extra test: in front of
                // it, inlined AVX2 copies of 24 B took 2.1 ticks instead of
                // 1.7 on `intel-6-167`.
                write_narrow::<V::Half, R::LoadsFirst>(dst, src.loads_first(), n)
            } else if crate::kernels::high::ON
                && (V::BYTES == 64
                    || (V::BYTES == 32 && (R::TRAFFIC != 2 || crate::kernels::high::YMM_COPIES)))
            {
                src.write_ends_high(dst, n, V::BYTES)
            } else {
                head_tail::<V, R>(dst, src, n, 1)
            }
            // The rung's tail move is also the last move of every wider
            // class; shared, it costs this rung a taken jump. Not on the
            // 16-byte rung, where SSE only lost, nor with the mixed-sizes
            // class, whose AVX2 call site it took to 609 B (BENCHMARKS.md,
            // "The 1-vector rung's own tail").
            if V::BYTES > 16 && !MIXED_SIZES {
                crate::barrier::no_tail_merge();
            }
        } else {
            write_gt16::<V::Half, R>(dst, src, n, false)
        }
    }
}

/// Writes `32 < n <= 64` as four 16-byte vectors, two from each end
/// ([`NARROW_STORES`]), all four loaded before the first store (so a move
/// may overlap), each its own store. The second of each pair is
/// addressed from a copy of `dst` that LLVM cannot see through
/// ([`crate::barrier::opaque_ptr`]): addressed from `dst` itself, LLVM
/// merged the head pair back into one 32-byte store.
///
/// # Safety
///
/// `V` is 16 bytes wide, `32 < n <= 64`, and `0..n` is in range.
#[inline(always)]
unsafe fn write_narrow<V: Vector, R: Source>(dst: *mut u8, src: R, n: usize) {
    debug_assert!(V::BYTES == 16 && 32 < n && n <= 64);
    // SAFETY: the four vectors lie at 0, 16, n - 32 and n - 16, inside
    // `0..n` for `32 < n <= 64`; `apart` is `dst`.
    unsafe {
        let head = [
            run::<V, Unaligned, R>(src, 0, 1),
            run::<V, Unaligned, R>(src, 16, 1),
        ];
        let tail = [
            run::<V, Unaligned, R>(src, n - 32, 1),
            run::<V, Unaligned, R>(src, n - 16, 1),
        ];
        let apart = crate::barrier::opaque_ptr(dst);
        head[0].write::<Unaligned>(dst);
        head[1].write::<Unaligned>(apart);
        tail[0].write::<Unaligned>(dst);
        tail[1].write::<Unaligned>(apart);
    }
}

/// Whether copies and moves of 33-64 B store four 16-byte vectors instead
/// of two 32-byte ones: `--cfg fastmem_narrow_stores` ([`crate::NARROW_STORES`]).
pub(crate) const NARROW_STORES: bool = cfg!(fastmem_narrow_stores);

/// Whether sizes in (64, [`mixed_max`]] take one [`clamped_run`] class
/// instead of the vector rungs: `--cfg fastmem_mixed_sizes`.
pub(crate) const MIXED_SIZES: bool = cfg!(fastmem_mixed_sizes);

/// The last size of the [`clamped_run`] class: 256 B, 4 vectors on
/// AVX-512 and 8 on AVX2; 0 (no class) on the 16-byte and narrower
/// kernels. On SSE, whose ladder then stopped at 128 B, the class measured
/// 1-2 ticks a call slower on mixed sizes, not faster: half of 1-256 B
/// took its loop there, whose trip count mispredicts all the same. With
/// the cfg, SSE instead extends its ladder to 256 B (`NOLOOP_MAX`,
/// `kernels/sse.rs`), which leaves no loop below 257 B.
#[inline(always)]
const fn mixed_max<V: Tuning>() -> usize {
    if V::NOLOOP_MAX >= 256 && V::BYTES >= 32 {
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
        if V::MASKED_MAX > 0 && masks_apart::<V, R>(dst, src) {
            src.write_masked::<V>(dst, n)
        } else if V::MASKED_MAX > 0 {
            write_le_2w::<V, R>(dst, src, n)
        } else {
            write_le16(dst, src, n)
        }
    }
}

/// Whether a move may take the masked moves: the `MASKED_MAX`-byte ranges
/// that its masked load and store span do not overlap; always for a copy
/// or a fill (a constant). Where the ranges overlap, even with no byte
/// moved in common, the masked load waits for the masked store of the
/// call before to leave the core: a move repeated on one window, as
/// `Vec::remove(0)` in a loop makes, took 17 ticks a call at 1-32 B
/// against glibc's 7-15 (benches/NOTEBOOK.md, "memmove"). Those go to the
/// ladder, whose smaller moves do not overlap for nothing.
///
/// Issue 11 asked for a cheaper form; none was. In a tight loop of calls
/// a disjoint 8-byte move took 3.88 ticks with this test and 3.11 without
/// (`memcpy` 3.11), but a `bzhi` mask, one branch on the size or-ed with
/// the test's flag, and the distance in 32 bits all took 3.86-3.88; and
/// the masked move alone, shifted by 8 bytes of `nop`s, costs the same
/// cycle (`benches/experiments/placement.c`): the cost is where the
/// instructions fall, not what they are (benches/NOTEBOOK.md, "memmove",
/// "After (2026-12-01)").
#[inline(always)]
fn masks_apart<V: Tuning, R: Source>(dst: *mut u8, src: R) -> bool {
    let m = V::MASKED_MAX;
    // `dst - src` is in `-(m - 1)..=m - 1` exactly when this is below
    // `2m - 1`.
    !R::OVERLAP || (dst as usize).wrapping_sub(src.addr()).wrapping_add(m - 1) >= 2 * m - 1
}

/// The smallest start of the 4-vector class (`4W`) at which its sizes up
/// to `6W` take 4 vectors and 2 ([`head_tail_runs`]) instead of 4 and 4,
/// and the sizes above `6W` 6 and 2: AVX-512, whose class starts at 256 B.
/// There, 257-384 B took 10.1-10.2 TSC ticks instead of 13.3 with
/// dst+1/src+3 (DPDK's `rte_memcpy` 8.6-11.3), 6.5-7.1 instead of 7.2-9.9
/// aligned, and fills 5.6-6.9 instead of 7.9-9.9 (benches/NOTEBOOK.md,
/// "Six vectors for 257-384 B"). On AVX2 the class is 129-256 B, where
/// random sizes up to 256 B mispredict the extra branch half the time:
/// uniform 1-256 B copies went from 22.3 to 27.6 ticks.
///
/// Above `6W` the split takes no test of its own (the `6W` test is
/// made either way), and the head's six vectors are where an aligned
/// destination's stores are aligned: of the eight stores, two cross a
/// line where four and four crossed four. On `intel-6-167` aligned copies
/// and disjoint moves of 385-511 B took 7.3 ticks instead of 8.5 (DPDK's
/// `rte_memcpy` 7.1-7.9, glibc 8.6), fills 6.8 instead of 7.9 (glibc
/// 8.0), overlapping moves 2-6% less. At a destination at +1 every store
/// crosses a line either way, and where `dst + n` is a line boundary (511
/// B at dst+1) the four tail vectors were aligned: copies 8.6 -> 9.8 there
/// (fills, which take [`bridge_at`], 7.9 -> 6.8). A
/// destination's start is aligned far more often than its end (the aligned
/// loop's premise); at a random alignment the two forms cross as many
/// lines (benches/NOTEBOOK.md, "`intel-6-167`: aligned copies of 385-511 B
/// as 6 + 2 vectors").
const SPLIT_MIN: usize = 256;

/// Whether `n`, in the 4-vector class `(4W, 8W]`, takes 4 vectors and 2
/// ([`SPLIT_MIN`]). The copy's ladder and the compare ladder
/// (`compare::diff_noloop`) both ask.
#[inline(always)]
pub(crate) const fn splits_4_2<V: Vector>(n: usize) -> bool {
    splits_class::<V>() && n <= 6 * V::BYTES
}

/// Whether kernel `V`'s 4-vector class `(4W, 8W]` is split at `6W`
/// ([`SPLIT_MIN`]): 4 + 2 below, 6 + 2 above.
#[inline(always)]
const fn splits_class<V: Vector>() -> bool {
    4 * V::BYTES >= SPLIT_MIN
}

/// bridge_at: where `count` vectors go between a head that ends at `lo`
/// and a tail of `tail` vectors that ends at `n`: at the destination's
/// last `W`-aligned offset at or below `lo`, or, where that would leave a
/// gap before the tail, as much later as the gap needs.
///
/// ```text
/// dst + 1, n = 300, W = 64:  |H0==|H1==|                  head at 0
///                                  |B0==|B1==|             at 127: dst + 128
///                                          |T0==|T1==|     tail ends at n
/// ```
///
/// At a misaligned destination each head and tail vector crosses a line,
/// the bridge's do not. The AVX-512 kernel's fills of 257-512 B take it:
/// on `intel-6-167` at dst+1, 257-320 B 7.8-7.9 -> 6.7 TSC ticks and
/// 385-511 B 9.0-10.2 -> 6.8-7.9 (glibc 8.0-10.4); aligned fills the same
/// (benches/NOTEBOOK.md, "`intel-6-167`: fills of 257-511 B with a
/// destination-aligned bridge"). Copies would gain as much (dst+1/src+3
/// 385-511 B 9.3-11.1 -> 8.2-8.6) but the offset's instructions and the
/// vectors addressed from it took the AVX-512 `memcpy` call site to
/// 643-661 B, past its 600.
///
/// The class makes `lo + count * W <= n <= lo + (count + tail) * W`, so
/// the offset lies in `n - (count + tail) * W..=lo` and the vectors in
/// `0..n`.
///
/// The destination passes through [`crate::barrier::opaque_ptr`]: without
/// it LLVM computed `dst & (W - 1)` once at the entry, for this and the
/// unaligned loop's skip, and every fill paid for it (8-32 B 1.7 -> 1.9
/// ticks).
#[inline(always)]
fn bridge_at<V: Vector>(dst: *mut u8, n: usize, lo: usize, count: usize, tail: usize) -> usize {
    let w = V::BYTES;
    debug_assert!(lo + count * w <= n && n <= lo + (count + tail) * w);
    let dst = crate::barrier::opaque_ptr(dst);
    (lo - (dst as usize & (w - 1))).max(n - (count + tail) * w)
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
    // least 16); each head_tail gets `count * W <= n <= 2 * count * W`, the
    // 4 + 2 split `4W < n <= 6W` and the 6 + 2 split `6W < n <= 8W`
    // (`head_tail_runs`: `6W <= n <= 8W`; a copy's blocks `0..4W`, `4W..6W`
    // only when `n > 6W`, and `n - W..n` with `n - 2W` before it unless
    // that head leaves at most `W` bytes; a fill's bridge lies in `0..n`
    // and reaches the tail, `bridge_at`'s bounds, with `lo + count * W` =
    // `4W < n` or `6W < n`); the `NOLOOP_MAX <= ...` terms are
    // constants that cut the ladder at the kernel's threshold, and `n <=
    // NOLOOP_MAX` makes the cut arm cover `n`.
    unsafe {
        if n <= 2 * w {
            write_gt16::<V, R>(dst, src, n, V::HALVES_AT_WIDTH && R::TRAFFIC == 2)
        } else if n <= 4 * w || V::NOLOOP_MAX <= 4 * w {
            if V::LOAD_FIRST {
                head_tail::<V, R::LoadsFirst>(dst, src.loads_first(), n, 2)
            } else {
                head_tail::<V, R>(dst, src, n, 2)
            }
        } else if n <= 8 * w || V::NOLOOP_MAX <= 8 * w {
            if splits_class::<V>() && !R::OVERLAP && R::TRAFFIC == 2 {
                // A copy's 4 + 2 and 6 + 2 in one arm, the head's vectors
                // 4 and 5 behind the `6W` test and the tail last, which
                // LLVM then shares with the 2-vector class's: the AVX-512
                // `memcpy` call site 583 B, where the two arms took 614
                // (benches/NOTEBOOK.md, "`intel-6-167`: aligned copies of
                // 385-511 B as 6 + 2 vectors"). The fill's bridge below
                // would take this call site past its 600 B. Where the
                // kernel's tail ends with one vector at `n`
                // (`Tuning::TAIL_ENDS`), the tail here is one vector too
                // when the head leaves at most `W` bytes (257-320 and
                // 385-448 B on AVX-512: 5 or 7 stores, as DPDK's), one
                // more test of `n` on each side of the `6W` one: aligned
                // copies of 257-320 B 6.1 -> 4.8 TSC ticks on
                // `intel-6-167` (DPDK 6.1), dst+1/src+3 8.7 -> 7.4 (DPDK
                // 7.3) ("`intel-6-167`: the 4-vector class's tail, one
                // vector where one covers it").
                block::<V, Unaligned, Unaligned, R>(dst, src, 0, 4);
                let two = if splits_4_2::<V>(n) {
                    n > 5 * w
                } else {
                    block::<V, Unaligned, Unaligned, R>(dst, src, 4 * w, 2);
                    n > 7 * w
                };
                if V::TAIL_ENDS == 2 || two {
                    block::<V, Unaligned, Unaligned, R>(dst, src, n - 2 * w, 1)
                }
                block::<V, Unaligned, Unaligned, R>(dst, src, n - w, 1)
            } else if splits_class::<V>() && !R::OVERLAP {
                // A fill: two vectors ending at `n`, two from 0, then two
                // or four from the destination's line boundary at or below
                // `2W` (`bridge_at`). In this order, with `no_tail_merge`
                // at the end, LLVM shares none of the 2-vector class's
                // stores (reached behind a taken jump, they took uniform
                // random 1-256 B fills from 12.6 to 13.3 ticks) and keeps
                // the smaller classes' code as it was (benches/NOTEBOOK.md,
                // "`intel-6-167`: fills of 257-511 B with a
                // destination-aligned bridge").
                block::<V, Unaligned, Unaligned, R>(dst, src, n - 2 * w, 2);
                block::<V, Unaligned, Unaligned, R>(dst, src, 0, 2);
                if splits_4_2::<V>(n) {
                    let at = bridge_at::<V>(dst, n, 2 * w, 2, 2);
                    block::<V, Unaligned, Unaligned, R>(dst, src, at, 2)
                } else {
                    let at = bridge_at::<V>(dst, n, 2 * w, 4, 2);
                    block::<V, Unaligned, Unaligned, R>(dst, src, at, 4)
                }
                crate::barrier::no_tail_merge()
            } else if splits_4_2::<V>(n) {
                head_tail_runs::<V, R>(dst, src, n, 4, 2)
            } else if splits_class::<V>() {
                head_tail_runs::<V, R>(dst, src, n, 6, 2)
            } else {
                head_tail::<V, R>(dst, src, n, 4)
            }
        } else {
            head_tail::<V, R>(dst, src, n, 8)
        }
    }
}

/// The offset of a run of `len` bytes that starts `off` bytes from the end
/// a walk starts at: `off` itself walking up, its mirror `n - off - len`
/// walking down. With a constant `down` (every copy, and each arm of a
/// move), it folds away.
#[inline(always)]
fn place(down: bool, n: usize, off: usize, len: usize) -> usize {
    if down {
        n - off - len
    } else {
        off
    }
}

/// loop_and_tail: `blocks` blocks of `LOOP_BLOCK` bytes from offset
/// `start`, with aligned stores (and loads of kind `L`), then the last
/// `tail_vectors` vectors before `n`, unaligned (none: the caller writes
/// what the blocks leave, as [`short_tail`] does). With `down`, the mirror
/// image: offsets are counted from `n` downwards, the blocks walk down
/// from `n - start`, and the tail is the first `tail_vectors` vectors.
///
/// ```text
/// up:    |B=======|B=======|B=======|          -> blocks walk up from start
///                               |T==========|     tail ends at n
/// down:  |T==========|                           tail starts at 0
///           |B=======|B=======|B=======|       <- blocks walk down from n - start
/// ```
///
/// A move ([`Source::OVERLAP`]) reads the tail before the first block,
/// whose stores may overwrite its source, and loads each block whole
/// before storing it ([`block`]); a copy reads the tail after the loop.
///
/// `turn` is the blocks a turn of the loop, 1 or 2 ([`Tuning::LOOP_TURN`],
/// [`Tuning::UNALIGNED_TURN`]): a constant, so that only one form is
/// emitted.
///
/// Callers derive `blocks` from `n` alone, never from an address, so that a
/// constant `n` gives a constant trip count and the loop unrolls to
/// straight-line code (all but an overlapping move: see [`write_loop`]).
/// The tail is addressed from `dst`, `src` and `n`, not
/// from the aligned start, so that its last vectors are the same
/// instructions as the no-loop ladder's largest tail and LLVM emits them
/// once: that saved 80-96 bytes a runtime-`n` `memcpy` call site.
///
/// # Safety
///
/// `dst + place(start)` is `W`-aligned (and the source there too when `L`
/// is [`Aligned`]), `start + blocks * LOOP_BLOCK <= n`, `tail_vectors * W
/// <= n`, the blocks and the tail together cover `0..n` less `start`
/// bytes at the walk's starting end, `tail_vectors <= AHEAD_MAX`, `turn`
/// is 1 or 2, and `0..n` is in range.
#[allow(clippy::too_many_arguments)] // each is one constant or one size of the walk
#[inline(always)]
pub(crate) unsafe fn loop_and_tail<V: Tuning, L: Access, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
    start: usize,
    blocks: usize,
    tail_vectors: usize,
    down: bool,
    turn: usize,
) {
    let (w, lb) = (V::BYTES, V::LOOP_BLOCK);
    debug_assert!(turn == 1 || turn == 2);
    debug_assert!(start + blocks * lb <= n && tail_vectors * w <= n);
    debug_assert!(tail_vectors == 0 || start + blocks * lb + tail_vectors * w >= n);
    let tail_at = place(down, n, n - tail_vectors * w, tail_vectors * w);
    // SAFETY: `tail_vectors * W <= n`, so the tail lies in `0..n`.
    let tail = unsafe { run::<V, Unaligned, R>(src, tail_at, tail_vectors) };
    // The blocks are addressed from the aligned end of their run nearest
    // 0, so that each access is one base register plus a constant once a
    // constant `n` unrolls.
    let run = blocks * lb;
    let base = place(down, n, start, run);
    // SAFETY: `base <= n`, in range.
    let (at, from) = (unsafe { dst.add(base) }, src.skip(base));
    // `turn` blocks a turn, then the odd one (the same blocks in the
    // same order either way). The odd one is numbered from the turns'
    // end, `blocks / 2 * 2`, not as `blocks - 1`: that form addressed its
    // vectors from `LOOP_BLOCK * blocks` with negative displacements (the
    // same addresses), and ran
    // 1 KiB-1518 B `vhost_enqueue` packets on the Zen 5 at 0.55-0.89x
    // DPDK where this one ran 0.67-0.98x in the same runs
    // (benches/NOTEBOOK.md, "`amd-26-2`: two blocks a turn").
    if V::LOOP_POINTERS && !down && (L::ALIGNED || R::OVERLAP) {
        // Going up in the aligned loop or an overlapping move's, where the
        // kernel asks for it (`Tuning::LOOP_POINTERS`), the walk moves two
        // pointers on, the destination's and the source's, and each vector
        // is one of them plus a constant; `opaque_ptr` keeps LLVM from
        // folding the two walks back into one index (`[rdi+rcx-0x30]`)
        // and, as `no_partial_unroll` does, from unrolling the loop.
        let (mut d, mut f) = (at, from);
        for _ in 0..blocks / turn {
            for u in 0..turn {
                // SAFETY: `d` and `f` are `at` and `from` moved on by the
                // turns before, so the turn's blocks lie in the run,
                // aligned as it.
                unsafe { walk_block::<V, L, R>(d, f, turn * lb, u, false) };
            }
            d = crate::barrier::opaque_ptr(d.wrapping_add(turn * lb));
            f = f.skip(turn * lb);
        }
        if turn == 2 && blocks % 2 == 1 {
            // SAFETY: as above; the odd block is the run's last.
            unsafe { walk_block::<V, L, R>(d, f, lb, 0, false) };
        }
    } else {
        for t in 0..blocks / turn {
            for u in 0..turn {
                // SAFETY: `t * turn + u < blocks`.
                unsafe { walk_block::<V, L, R>(at, from, run, t * turn + u, down) };
            }
            crate::barrier::no_partial_unroll();
        }
        if turn == 2 && blocks % 2 == 1 {
            // SAFETY: `blocks` is odd, so `blocks / 2 * 2 == blocks - 1`.
            unsafe { walk_block::<V, L, R>(at, from, run, blocks / 2 * 2, down) };
        }
    }
    // SAFETY: as for `read`.
    unsafe { tail.write::<Unaligned>(dst) }
}

/// Block `i` of [`loop_and_tail`]'s walk over the run of `run` bytes at
/// `at` (from `from`): `LOOP_BLOCK` bytes at `i * LOOP_BLOCK` from the
/// run's start going up, from its end going down.
///
/// # Safety
///
/// As [`loop_and_tail`], for its run: `(i + 1) * LOOP_BLOCK <= run`, the
/// run `W`-aligned at `at` (and at `from` when `L` is [`Aligned`]).
#[inline(always)]
unsafe fn walk_block<V: Tuning, L: Access, R: Source>(
    at: *mut u8,
    from: R,
    run: usize,
    i: usize,
    down: bool,
) {
    let (w, lb) = (V::BYTES, V::LOOP_BLOCK);
    // Walking down, the vectors of each block go down too, so that the
    // stores make one falling stream of addresses, as glibc's backward
    // loop does (no difference measured on this machine).
    let off = place(down, run, i * lb, lb);
    // SAFETY: the block lies in the run, at a multiple of `LOOP_BLOCK`
    // from its aligned base; its vectors are the `LOOP_BLOCK / W` at
    // multiples of `W` in it.
    unsafe {
        Ahead::<V, L, R, _>::read(
            from,
            lb / w,
            #[inline(always)]
            move |j: usize| off + place(down, lb, j * w, w),
        )
        .write::<Aligned>(at)
    };
}

/// Writes `n > NOLOOP_MAX` bytes to a destination of any alignment:
/// align_to_next_boundary (one unaligned vector, then skip 1..=W bytes to the
/// next aligned destination address), then loop_and_tail. With `down`, the
/// mirror image: the last vector, then blocks walking down from the last
/// aligned destination address before `dst + n`.
///
/// The number of blocks, `(n - W) / LOOP_BLOCK`, is the most that fits after
/// any skip; what it leaves before the last block is under `W` bytes, so the
/// tail is one block plus one vector. That count depends on `n` alone, so a
/// constant `n` unrolls. A move whose ranges overlap counts its blocks from
/// the skip instead, `(n - skip - 1) / LOOP_BLOCK`: they then reach `n -
/// LOOP_BLOCK` or past it, and its tail, read ahead of the loop, is one
/// block, a store fewer, as glibc's `memmove` has it. On `amd-25-17`, hot
/// moves in place (up and down by 1, 17 and `W` + 3 bytes), 14 rounds:
/// AVX2 at 320 B-1 KiB 0.88-0.97x glibc -> 0.94-1.00x, SSE up by 1 at
/// 192-640 B 0.94-0.98x -> 0.99-1.03x, the Zen 4 AVX-512 build's (the
/// AVX2 loop) 640 B-2 KiB 0-8% faster; each direction and distance's
/// geomean up or level (benches/NOTEBOOK.md, "`amd-25-17`: overlapping
/// moves with a one-block tail"). A constant-size move, rare (`ptr::copy`
/// of a constant is a call to the `memmove` symbol), keeps a loop there.
///
/// A copy writes its first vector before the loop. A move reads it then
/// and writes it after the loop: going up with `dst < src < dst + W`, the
/// first block reads source bytes that vector's store would overwrite.
///
/// # Safety
///
/// `n > V::NOLOOP_MAX` and `0..n` is in range.
#[inline(always)]
pub(crate) unsafe fn write_loop<V: Tuning, R: Source>(dst: *mut u8, src: R, n: usize, down: bool) {
    // SAFETY: forwarded contract.
    unsafe { write_loop_from::<V, R>(dst, src, n, down, false) }
}

/// [`write_loop`], or with `aligned` a copy's aligned path
/// ([`Tuning::ONE_COPY_LOOP`]): the same loop and tail from offset 0,
/// with no head vector, for pointers that are both `W`-aligned. The
/// dispatch picks `skip` (0 or the unaligned loop's) and the one loop
/// follows, so that the call site holds one copy loop, not two.
///
/// # Safety
///
/// As [`write_loop`]; with `aligned`, also `!down`, a source that does
/// not overlap (`!R::OVERLAP`), and `dst` and `src.addr()` `W`-aligned.
#[inline(always)]
unsafe fn write_loop_from<V: Tuning, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
    down: bool,
    aligned: bool,
) {
    let w = V::BYTES;
    // The skip counts from the destination's edge where the walk starts:
    // `dst` going up, `dst + n` going down (its negation's low bits).
    let edge = if down {
        (dst as usize).wrapping_add(n).wrapping_neg()
    } else {
        dst as usize
    };
    debug_assert!(!aligned || (!down && !R::OVERLAP && (dst as usize | src.addr()) & (w - 1) == 0));
    let skip = if aligned { 0 } else { w - (edge & (w - 1)) };
    let (blocks, tail_vectors) = if R::OVERLAP {
        ((n - skip - 1) / V::LOOP_BLOCK, V::LOOP_BLOCK / w)
    } else {
        ((n - w) / V::LOOP_BLOCK, V::LOOP_BLOCK / w + 1)
    };
    let first = place(down, n, 0, w);
    // SAFETY: n > NOLOOP_MAX >= LOOP_BLOCK + W (const-asserted), so the first
    // vector and the tail are in range; `dst + place(skip)` is aligned; with
    // 1 <= skip <= W the blocks end at most at `W + (n - W) = n`, and they
    // reach past `n - LOOP_BLOCK - W`, where the tail starts. A move's
    // count from the skip: `blocks * LOOP_BLOCK <= n - skip - 1`, so they
    // end before `n`, and `blocks * LOOP_BLOCK > n - skip - 1 - LOOP_BLOCK`,
    // so they reach `n - LOOP_BLOCK`, where its one-block tail starts
    // (`n - skip - 1 >= 0`: `n > LOOP_BLOCK + W`). With `aligned`, `skip`
    // is 0, `dst` aligned, and the blocks from 0 end at `n - W - rest`,
    // leaving `W + rest` bytes, as the aligned loop's (`short_tail`'s
    // precondition, or the last block and vector of the other tail).
    unsafe {
        let head = run::<V, Unaligned, R>(src, first, 1);
        if !R::OVERLAP && !aligned {
            head.write::<Unaligned>(dst);
        }
        if !R::OVERLAP && V::SHORT_TAIL && (V::SHORT_TAIL_COPIES || R::TRAFFIC == 1) {
            // Going up (a copy, a fill, a disjoint move): after a skip of
            // 1..=W the blocks leave at most `W - 1 + (n - W) % LOOP_BLOCK`
            // bytes before `n`, which `short_tail` covers with as few
            // vectors as `n` allows.
            loop_and_tail::<V, Unaligned, _>(
                dst,
                src,
                n,
                skip,
                blocks,
                0,
                false,
                V::UNALIGNED_TURN,
            );
            short_tail::<V, R>(dst, src, n, (n - w) % V::LOOP_BLOCK, tail_vectors);
        } else {
            let turn = if R::OVERLAP {
                V::LOOP_TURN
            } else {
                V::UNALIGNED_TURN
            };
            loop_and_tail::<V, Unaligned, _>(dst, src, n, skip, blocks, tail_vectors, down, turn);
        }
        if R::OVERLAP {
            head.write::<Unaligned>(dst);
        }
    }
}

/// The tail of the loops going up, where the kernel sets
/// [`Tuning::SHORT_TAIL`]: the last vectors before `n`, about as many as
/// the blocks may leave bytes for. `rest` is `(n - W) % LOOP_BLOCK`: both
/// loops run `(n - W) / LOOP_BLOCK` blocks, which leave at most `W + rest`
/// bytes before `n` (the aligned loop exactly that; the unaligned one,
/// after its skip of 1..=W, at most `W - 1 + rest`). Three arms, on `n`
/// alone, so that a constant `n` keeps one and stays straight-line:
///
/// ```text
/// rest <= W                 the last 2 vectors            |n-2W|n-W|
/// rest <= (full - 2) * W    the last full - 1 (4 of 5)    ...
/// else                      the last full (LOOP_BLOCK / W + 1)
/// ```
///
/// Below [`Tuning::SHORT_TAIL_MIN`] (SSE: 257 B) every size takes the
/// last `full` (`whole`: both tests pass on one test of `n`, which random
/// sizes predict, where they mispredicted the arms on `rest`).
///
/// Where the kernel sets [`Tuning::TAIL_ON_LINES`] the middle vectors
/// (all but the last two) end at the destination's first line boundary
/// at or above `n - 2W`, not at `n - 2W`: they then cross no line, and
/// at most the last two of the tail do, where all of them did unless
/// `dst + n` was a boundary. On `intel-6-167` AVX-512 aligned copies of
/// 520-568 B 9.8 -> 8.0 TSC ticks (DPDK's `rte_memcpy` 7.9), 784 B 12.5
/// -> 10.7 (DPDK 10.5), dst+1 fills of 520 B 10.3 -> 8.6, AVX2 dst+1
/// fills of 257 B 7.5 -> 5.1 (benches/NOTEBOOK.md, "`intel-6-167`: the
/// loop tail's middle vectors on the destination's lines"). With
/// [`Tuning::TAIL_ENDS`] 1 (AVX-512, whose aligned copies share the
/// unaligned loop, [`Tuning::ONE_COPY_LOOP`], which makes the room) the
/// middle vectors reach the first boundary at or above `n - W` and one
/// vector ends at `n`: one split store. There aligned copies of 664 B
/// 10.0 -> 9.4 ticks (DPDK 9.5) ("`intel-6-167`: one copy loop, and one
/// vector of the tail at `n`"). With two loops that form took the
/// AVX-512 call site to 616-624 B: the tail's last two stores are the
/// ones LLVM shares with the 4-vector class.
///
/// A copy (or a disjoint move) there, with `LOOP_BLOCK = 4W`, takes as
/// many middle vectors as `rest` needs, 0 to 4, one nested test each:
/// the three arms stored one more than the bytes need where `rest` is 0
/// or in `(W, 2W]` (576 B, 641-704 B, 832 B, 897-960 B on AVX-512, aligned
/// or not). There, on `intel-6-167`, 5-10% faster: aligned 576 B 8.3 ->
/// 7.7 TSC ticks (DPDK's `rte_memcpy` 8.6), 664-704 B 9.8-10.1 -> 9.3-9.5
/// (DPDK 10.0-10.1), inlined 664 B 9.2 -> 8.7 (DPDK's inlined 8.7)
/// (benches/NOTEBOOK.md, "`intel-6-167`: the copy tail's exact count").
/// Fills keep the three arms: there the same tail took IMIX fills 4-5%
/// slower, and `memset`'s two loops each got a copy of it (the AVX-512
/// `memset` call site 686 B).
///
/// With `LOOP_BLOCK = 4W`, sizes that are a multiple of 256 B on AVX-512
/// (768 B, 1 KiB, 2 KiB; `rest = 3W`) take 4 vectors, and 1518 B too.
/// A tail for every count (2, 3, 4 or 5) took the AVX-512 call site to
/// 617 B, past its 600 (`ci/codegen.sh`); this one, shared by the two
/// loops, 586 B (582 with the block count computed once,
/// [`write_loop_aligned`]).
///
/// The unaligned loop once had two arms, two vectors or all `full`: up to
/// `full - 2` stores more than the bytes need, 14 at 640-767 B on AVX-512
/// where 11-13 cover them, and the aligned loop always ended with a whole
/// block. On the Zen 4 (`amd-25-17`) dst+1/src+3 copies went from 26.5
/// ticks at 639 B to 34.7 at 640, where DPDK's `rte_memcpy` took 25-26 at
/// both (benches/NOTEBOOK.md, "`amd-25-17`: the loop's graded tail"). The
/// two-arm form itself had taken hot dst+1/src+3 copies of 576-639 B on
/// the Zen 5 from 12.0 to 10.3 ticks ("`amd-26-2`: the loop's short
/// tail").
///
/// # Safety
///
/// `full * W <= n`, `3 <= full`, `rest < (full - 1) * W`, `0..n` is in
/// range, and the blocks leave at most `W + rest` bytes before `n`
/// unwritten, from a `W`-aligned destination address.
#[inline(always)]
unsafe fn short_tail<V: Tuning, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
    rest: usize,
    full: usize,
) {
    let w = V::BYTES;
    debug_assert!(3 <= full && rest < (full - 1) * w && full * w <= n);
    // SAFETY: the last `ends` (`TAIL_ENDS`, 1 or 2) vectors lie in `n -
    // ends * W..n`. The middle ones end at `end`, which is `n - ends * W`
    // or the first line boundary at or above it, so below `n - (ends - 1)
    // * W`, and start at `end - (full - ends) * W >= n - full * W >= 0`:
    // all in `0..n`. They leave no gap: the blocks leave unwritten the
    // bytes from a `W`-aligned destination offset `e` with `n - e <= W +
    // rest`; `k` middle vectors reach down to `e` when `e + k * W >= n -
    // ends * W` (then the boundary `end` is at most `e + k * W`, itself a
    // boundary at or above `n - ends * W`), that is when `rest <= (k +
    // ends - 1) * W`: each arm stores `k + ends` = 2, `full - 1` or
    // `full` vectors, and its test (or `rest < (full - 1) * W`) gives
    // that; a copy's graded arms (`ends` 1, `full` 5) store `k + 1` with
    // `rest <= k * W` by their tests (`rest < 4W` for `k` = 4).
    let whole = n < V::SHORT_TAIL_MIN;
    // Where the middle vectors end: at `n - ends * W`, or at the
    // destination's first line boundary at or above it.
    let ends = V::TAIL_ENDS;
    let end = if V::TAIL_ON_LINES {
        let edge = (dst as usize).wrapping_add(n - (ends - 1) * w - 1);
        (edge & !(w - 1)).wrapping_sub(dst as usize)
    } else {
        n - ends * w
    };
    unsafe {
        if ends == 1 && R::TRAFFIC == 2 && !whole && full == 5 {
            // A copy's tail with one vector at `n`: the middle vectors
            // `rest` needs and no more, `k` of them where `(k - 1) * W <
            // rest <= k * W` (0 where `rest` is 0), one nested test each.
            if rest > 0 {
                if rest > w {
                    if rest > 2 * w {
                        if rest > 3 * w {
                            block::<V, Unaligned, Unaligned, R>(dst, src, end - 4 * w, 1)
                        }
                        block::<V, Unaligned, Unaligned, R>(dst, src, end - 3 * w, 1)
                    }
                    block::<V, Unaligned, Unaligned, R>(dst, src, end - 2 * w, 1)
                }
                block::<V, Unaligned, Unaligned, R>(dst, src, end - w, 1)
            }
            return block::<V, Unaligned, Unaligned, R>(dst, src, n - w, 1);
        }
        if whole || rest > w {
            if whole || rest > (full - 2) * w {
                block::<V, Unaligned, Unaligned, R>(dst, src, end - (full - ends) * w, 1)
            }
            block::<V, Unaligned, Unaligned, R>(dst, src, end - (full - 1 - ends) * w, full - 3)
        }
        block::<V, Unaligned, Unaligned, R>(dst, src, end - (2 - ends) * w, 2 - ends);
        block::<V, Unaligned, Unaligned, R>(dst, src, n - ends * w, ends)
    }
}

/// Writes `n > NOLOOP_MAX` bytes to a `W`-aligned destination from a
/// `W`-aligned source (a fill's is any; a copy's only where the kernel
/// does not set [`Tuning::ONE_COPY_LOOP`]): the blocks that start before
/// `n - LOOP_BLOCK`, then one overlapping block. Up only. Where the kernel
/// sets [`Tuning::SHORT_TAIL_ALIGNED`], the unaligned loop's count of
/// blocks instead, `blocks = (n - W) / LOOP_BLOCK`, and its tail
/// ([`short_tail`], with `rest = (n - W) % LOOP_BLOCK`): 10 stores at
/// 576-640 B on AVX-512 where the whole block made 12, and the two loops
/// share the tail's code.
///
/// [`write()`] computes `blocks` and `rest` once, above its dispatch to
/// the two loops, and hands them in here; the unaligned loop's own are
/// then the same values. Computed in each arm, LLVM kept one copy in the
/// crate's `panic = "abort"` profile but two in a `panic = "unwind"`
/// build, which is what most dependents make: the AVX-512 `memcpy` call
/// site took 602 B there, past its 600 (`ci/codegen.sh`, `avx512bw-unwind`).
/// Computed once, it takes 582 B in both, and `memset`'s 475 B where it
/// took 511 (benches/NOTEBOOK.md, "`amd-25-17`: the loops' block count computed
/// once"). (Through a `const fn` returning the pair, the same arithmetic
/// moved the AVX2 kernel's code, which does not use it, by a few bytes.)
///
/// A fill ([`Source::PEEL`]), where the kernel sets [`Tuning::FILL_PEEL`]
/// (all but SSE), writes the first block before the loop, which
/// then starts at the second, as the unaligned loop's head vector and
/// glibc's first vectors come before theirs. That took hot AVX2 fills of
/// 288-512 B from 9.4-12.5 TSC ticks to 8.0-9.2 (glibc 7.2-8.4) and SSE
/// fills of 192-384 B from 7.8-13.3 to 6.4-11.0 (glibc 6.5-10.5), the
/// AVX-512 ones unchanged (benches/NOTEBOOK.md, "The aligned loop's first
/// block"); the SSE kernel's loop has since taken two blocks a turn, and
/// there the peel cost random fills of 1-256 B 7% (`kernels/sse.rs`).
/// Copies do not peel: their figures moved no more than with code
/// placement alone, and each call site grew by 32-64 B, the default
/// AVX-512 `memcpy` past its 600-B budget.
///
/// # Safety
///
/// `n > V::NOLOOP_MAX`, `dst` and `src.addr()` are `W`-aligned, `0..n` is
/// in range, and `(blocks, rest)` is `((n - W) / LOOP_BLOCK, (n - W) %
/// LOOP_BLOCK)`.
#[inline(always)]
unsafe fn write_loop_aligned<V: Tuning, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
    (blocks, rest): (usize, usize),
) {
    let (lb, w) = (V::LOOP_BLOCK, V::BYTES);
    debug_assert!((blocks, rest) == ((n - w) / lb, (n - w) % lb));
    let peel = R::PEEL && V::FILL_PEEL;
    let first = usize::from(peel);
    // SAFETY: `(n - 1) / LOOP_BLOCK` blocks end before `n` and reach
    // `n - LOOP_BLOCK`, where the one-block tail starts; `(n - W) /
    // LOOP_BLOCK` blocks end at `n - W - rest`, and leave the `W + rest`
    // bytes `short_tail` covers. There is at least one either way (`n >
    // NOLOOP_MAX >= LOOP_BLOCK + W`, const-asserted), which may be the
    // peeled one, written here: the loop starts after it.
    unsafe {
        if peel {
            block::<V, Aligned, Aligned, R>(dst, src, 0, lb / w);
        }
        if V::SHORT_TAIL_ALIGNED {
            let blocks = blocks - first;
            loop_and_tail::<V, Aligned, R>(dst, src, n, first * lb, blocks, 0, false, V::LOOP_TURN);
            short_tail::<V, R>(dst, src, n, rest, lb / w + 1);
        } else {
            let blocks = (n - 1) / lb - first;
            loop_and_tail::<V, Aligned, R>(
                dst,
                src,
                n,
                first * lb,
                blocks,
                lb / w,
                false,
                V::LOOP_TURN,
            )
        }
    }
}

/// Whether `n` goes to a string instruction whose threshold is `min`;
/// `usize::MAX` means none, and folds the test away (`n >= usize::MAX`
/// alone would stay in the code).
#[inline(always)]
const fn takes_string(n: usize, min: usize) -> bool {
    min != usize::MAX && n >= min
}

/// Whether the ranges of `n >= 1` bytes at `dst` and `src` are disjoint:
/// always for a copy or a fill (a constant: their code is unchanged). A
/// move whose ranges overlap goes down when `dst` is after `src`, and up,
/// with its head and tail read ahead, when it is before.
///
/// One add and one compare: `dst - src` lies in `-(n - 1)..=n - 1`
/// exactly when `dst - src + n - 1`, unsigned, is below `2n - 1` (`n`
/// cannot exceed `isize::MAX`, so that does not overflow). Tested first in
/// the loop arm of [`write()`], so that a disjoint move reaches the copy's
/// loops with one test more than a copy. With the read-ahead loop for
/// disjoint moves too, AVX2 moves of 384 B-1 KiB took 4-10% longer than
/// `memcpy` (benches/NOTEBOOK.md, "memmove").
#[inline(always)]
fn disjoint<R: Source>(dst: *mut u8, src: R, n: usize) -> bool {
    !R::OVERLAP || (dst as usize).wrapping_sub(src.addr()).wrapping_add(n - 1) >= 2 * n - 1
}

/// Whether a move going up may take the string instruction: its
/// destination is not 1-63 bytes before its source; always for a copy or
/// a fill (a constant). `rep movsb` copies such a move a byte at a time:
/// 3,138 ticks for 4 KiB with the destination 1, 17 or 35 bytes before
/// the source, against 79 for glibc (benches/NOTEBOOK.md, "memmove"), which
/// makes the same test. Those moves take the block loop.
#[inline(always)]
fn string_apart<R: Source>(dst: *mut u8, src: R) -> bool {
    !R::OVERLAP || src.addr().wrapping_sub(dst as usize) >= 64
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
            V::LOOP_TURN == 1 || V::LOOP_TURN == 2,
            "the loop takes one or two blocks a turn"
        );
        assert!(
            V::UNALIGNED_TURN == 1 || V::UNALIGNED_TURN == 2,
            "the unaligned loop takes one or two blocks a turn"
        );
        assert!(
            V::LOOP_BLOCK + w <= V::NOLOOP_MAX,
            "the loop needs NOLOOP_MAX >= LOOP_BLOCK + W"
        );
        assert!(
            V::MoveLoop::NOLOOP_MAX <= V::NOLOOP_MAX,
            "the move loop's kernel must loop from this kernel's NOLOOP_MAX on"
        );
        assert!(
            V::UNALIGNED_COPY_OUT_MIN > V::NOLOOP_MAX
                && V::UnalignedCopyLoop::NOLOOP_MAX <= V::NOLOOP_MAX,
            "the out-of-line unaligned copy loops from this kernel's NOLOOP_MAX on"
        );
        assert!(
            !V::SHORT_TAIL || V::LOOP_BLOCK >= 2 * w,
            "the short tail needs LOOP_BLOCK >= 2W"
        );
        assert!(
            !V::SHORT_TAIL_ALIGNED || V::SHORT_TAIL,
            "SHORT_TAIL_ALIGNED takes the unaligned loop's tail: set SHORT_TAIL too"
        );
        assert!(
            !V::SHORT_TAIL_ALIGNED || V::SHORT_TAIL_COPIES,
            "SHORT_TAIL_ALIGNED gives aligned copies the short tail: keep SHORT_TAIL_COPIES"
        );
        assert!(
            V::TAIL_ENDS == 1 || V::TAIL_ENDS == 2,
            "the short tail ends with 1 or 2 vectors at n"
        );
        assert!(
            V::TAIL_ENDS == 2 || (V::TAIL_ON_LINES && V::SHORT_TAIL),
            "one vector at n needs the middle ones on lines (TAIL_ON_LINES)"
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
            V::NOLOOP_MAX / w <= AHEAD_MAX,
            "a move holds a no-loop class, or the loop's tail, in registers"
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
/// the out-of-line streaming loop (`crate::large`); from
/// [`Tuning::UNALIGNED_COPY_OUT_MIN`], an unaligned copy's loop out of
/// line ([`write_unaligned_out_of_line`]). With `mixed` ([`MIXED_SIZES`]), sizes
/// in (64, [`mixed_max`]] take [`clamped_run`] instead of the rungs.
///
/// The order of the tests was measured (benches/NOTEBOOK.md, "The order of the
/// size tests"): an 8-16 B call now makes three tests before its moves
/// where it made five, and took 2.3-2.7 ticks instead of 3.1-3.9 on the
/// SSE and AVX2 kernels. Testing the small class before `NOLOOP_MAX` was
/// 5-6% slower over the whole sweep, and the string threshold before the
/// alignment 7-8% slower for AVX2 copies (even elsewhere): the order moves
/// where LLVM places the tail stores several classes share, and a taken
/// jump to them cost 1-3 ticks at 24-256 B.
///
/// Kept against five other layouts (benches/NOTEBOOK.md, "Small and mixed sizes
/// against DPDK: five ladder layouts, none kept"). On AVX2 the 17-31 B
/// class takes two taken branches here (4.6 ticks a call against DPDK's
/// 3.1-3.9); testing `n < W` before the small class gives it one, but then
/// either the 1-16 B class makes a fourth test (8-16 B 2.3-3.1 -> 3.1
/// ticks) or, with that test first of all, every size from `W` starts with
/// a taken branch (fills of 96-256 B 4.7-4.9 -> 6.2-7.8 ticks). Ending the
/// 2-vector class with `no_tail_merge` closed SSE's 33-64 B gap (4.6 ->
/// 3.9 ticks, DPDK 3.9) and lost 7-20% at the sizes above it on every
/// kernel. On the Zen 5 (`amd-26-2`), testing the small class and then
/// the 2-vector class before `NOLOOP_MAX`, as glibc orders them, ran hot
/// repeated 1-128 B up to 30% faster but IMIX copies through a call 5-9%
/// slower, and the vhost ring no faster (benches/NOTEBOOK.md, "`amd-26-2`: the
/// smallest classes tested first"; `benches/experiments/small-first.patch`).
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
) -> *mut u8 {
    check_tuning::<V>();
    // The string instruction, for an overlapping move going up.
    let string = takes_string(n, R::string_min::<V>());
    // From the smaller of the string and non-temporal thresholds: one arm,
    // which both loops' dispatch shares (`large::write_large`), for ranges
    // that do not overlap.
    let large = takes_string(n, crate::large::large_min::<V, R::Disjoint>());
    // SAFETY (all arms): each arm's size precondition is the test that
    // selects it (`small_max < NOLOOP_MAX < string_min`, const-asserted;
    // `clamped_run` gets `W <= 64 < n <= mixed_max`, a whole number of
    // vectors); the aligned loop gets the caller's aligned pointers; a
    // move reaches the copy's loops (no read-ahead) only when the ranges
    // are disjoint, and the string instruction or the loop going up only
    // when `dst` is before `src`.
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
        } else if !disjoint(dst, src, n) {
            if dst as usize > src.addr() {
                // The destination starts inside the source.
                write_loop::<V::MoveLoop, R>(dst, src, n, true)
            } else if string && string_apart(dst, src) {
                src.write_string::<V>(dst, n)
            } else {
                write_loop::<V::MoveLoop, R>(dst, src, n, false)
            }
        } else {
            // A copy or a fill, or a move whose ranges are disjoint: the
            // copy's loops, with nothing read ahead, or from the string or
            // non-temporal threshold `large::write_large`.
            let src = src.disjoint();
            // A copy's aligned path through the unaligned loop, from 0
            // (`Tuning::ONE_COPY_LOOP`); a fill keeps the aligned loop,
            // whose first block it peels.
            let one_loop = V::ONE_COPY_LOOP && R::TRAFFIC == 2;
            // Both loops' count of blocks and its rest, computed once,
            // above the dispatch (see `write_loop_aligned`).
            let up = (
                (n - V::BYTES) / V::LOOP_BLOCK,
                (n - V::BYTES) % V::LOOP_BLOCK,
            );
            if V::LARGE_OUT_OF_LINE && large {
                // First on the kernels whose large path is one call: one
                // test for both loops (the AVX-512 `memcpy` call site
                // 16 B smaller, which the short tail needed).
                return crate::large::write_large::<V, R::Disjoint>(dst, src, n);
            } else if aligned && !large && !one_loop {
                write_loop_aligned::<V, R::Disjoint>(dst, src, n, up)
            } else if large {
                return crate::large::write_large::<V, R::Disjoint>(dst, src, n);
            } else if V::UNALIGNED_COPY_OUT_MIN != usize::MAX
                && R::TRAFFIC == 2
                && n >= V::UNALIGNED_COPY_OUT_MIN
                && !(one_loop && aligned)
            {
                // The first two terms are constants: no test where the
                // kernel never hands over, nor for a fill (`TRAFFIC` 1).
                return write_unaligned_out_of_line::<V::UnalignedCopyLoop, R::Disjoint>(
                    dst, src, n,
                );
            } else {
                write_loop_from::<V, R::Disjoint>(
                    dst,
                    src.for_unaligned_loop(),
                    n,
                    false,
                    one_loop && aligned,
                )
            }
        }
    }
    dst
}

/// The unaligned loop of kernel `V` behind a call, for the copies of
/// [`Tuning::UNALIGNED_COPY_OUT_MIN`] bytes and more (`V` is the caller's
/// [`Tuning::UnalignedCopyLoop`]). `#[cold]` and `extern "C"` as
/// `large::write_large_out_of_line`, for the same layout of the call
/// site, and it returns `dst` the same way.
///
/// # Safety
///
/// As the unaligned loop: `n > V::NOLOOP_MAX`, `0..n` in range for `dst`
/// and `src`, which do not overlap.
#[cold]
#[inline(never)]
unsafe extern "C" fn write_unaligned_out_of_line<V: Tuning, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
) -> *mut u8 {
    // SAFETY: forwarded contract.
    unsafe { write_loop::<V, R>(dst, src.for_unaligned_loop(), n, false) };
    crate::barrier::opaque_ptr(dst)
}

/// Whether the aligned loop may write `n > NOLOOP_MAX` bytes from `src` to
/// `dst`: one test of `(dst | src) & (W - 1)`, as DPDK's `rte_memcpy` makes
/// for vhost enqueue. A fill takes it where the kernel sets
/// [`Tuning::FILL_ALIGNED_LOOP`]: with `dst` aligned, the unaligned loop's
/// skip is a whole vector and its tail one more, 14 stores at 768 B on
/// AVX-512 against 12 (benches/NOTEBOOK.md, "The aligned-destination fill").
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
pub(crate) unsafe fn memcpy<V: Tuning>(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
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
    unsafe { write::<V, _>(dst, src, n, true, MIXED_SIZES) };
}

/// See [`crate::memcpy_generic`].
///
/// # Safety
///
/// As [`crate::memcpy_generic`].
#[inline(always)]
pub(crate) unsafe fn memcpy_generic<V: Tuning>(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: the caller's contract.
    unsafe { write::<V, _>(dst, src, n, false, MIXED_SIZES) };
}

/// See [`crate::memmove`]: the ladder of [`memcpy`] with a [`Move`]
/// source, whose no-loop classes load before they store, and whose loop
/// goes down when the destination starts inside the source.
///
/// # Safety
///
/// As [`crate::memmove`].
#[inline(always)]
pub(crate) unsafe fn memmove<V: Tuning>(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    let src = Move::<true>(src);
    // SAFETY: the caller's contract; `takes_aligned_loop` vouches for
    // alignment, and `write` takes that loop only going up.
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

/// See [`crate::memset`].
///
/// # Safety
///
/// As [`crate::memset`].
#[inline(always)]
pub(crate) unsafe fn memset<V: Tuning>(dst: *mut u8, c: u8, n: usize) -> *mut u8 {
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

/// See [`crate::memcpy_const`] and [`crate::memset_const`]: [`write()`]
/// for a size known while compiling (a copy or a fill), except in these
/// classes:
///
/// - a power of two under `W` takes one move of its width ([`one_move`]),
///   where the first class would store two overlapping halves (two `u64`
///   at 16 B, two ymm at 32 B on AVX-512): on `amd-25-17` 16-B copies 1.1
///   -> 0.7 ticks, 32-B copies and fills 1.4 -> 0.7 (benches/NOTEBOOK.md,
///   "`amd-25-17`: constant sizes re-measured, and a power of two as one
///   move"); on `intel-6-167` AVX-512 32-B copies 0.8 -> 0.7, the rest
///   equal ("`intel-6-167`: the Zen 4 build's loops, and a power of two
///   as one move, measured here");
/// - the rest of the first class takes the plain 1-16 B moves and vector
///   rungs ([`write_le_2w`]) where a run-time size would take one masked
///   move. Both fold to a few plain stores, which a destination line not
///   in L1 takes faster than a masked store (the virtio-net header in
///   `examples/vhost_enqueue`: benches/NOTEBOOK.md, "Sizes known while
///   compiling");
/// - from `W` to `NOLOOP_MAX`, [`whole_then_rest`]: `N / W` whole vectors,
///   then the rest with the small rungs, where the ladder's classes store
///   a whole class's count of vectors (two, four or eight, six on
///   AVX-512), overlapping, to keep their branches few. A constant `N`
///   has no branch to save, and an overlapping vector costs a store, and
///   a second one when it crosses a line (benches/NOTEBOOK.md,
///   "`intel-6-167`: sizes known while compiling, whole vectors then the
///   rest"). A copy of exactly `W` keeps the ladder's halves where the
///   kernel takes them ([`Tuning::HALVES_AT_WIDTH`], measured in a ring);
/// - above `NOLOOP_MAX`, to [`CONST_ALIGNED_MAX`] vectors, the same
///   [`whole_then_rest`] where the aligned loop would run (the one test of
///   `(dst | src) & (W - 1)`); other pointers keep the unaligned loop,
///   which aligns the destination.
///
/// # Safety
///
/// As [`write()`], for `N` bytes.
#[inline(always)]
pub(crate) unsafe fn write_const<V: Tuning, R: Source, const N: usize>(dst: *mut u8, src: R) {
    let aligned = takes_aligned_loop::<V, R>(dst, src);
    // SAFETY: the caller's contract; `one_move` takes a power of two under
    // `W`; `whole_then_rest` takes `W <= N`, the only sizes
    // `takes_whole_then_rest` answers for, and no move (the callers copy
    // and fill); `small_max` is at most 32, within `write_le_2w`'s `2 * W`;
    // `aligned` is the test `write` takes for its aligned loop.
    unsafe {
        if N.is_power_of_two() && N < V::BYTES {
            one_move::<V, R>(dst, src, N)
        } else if takes_whole_then_rest::<V, R>(N, aligned) {
            whole_then_rest::<V, R>(dst, src, N)
        } else if N <= small_max::<V>() {
            write_le_2w::<V, R>(dst, src, N)
        } else {
            write::<V, R>(dst, src, N, aligned, MIXED_SIZES);
        }
    }
}

/// Whether [`write_const`] writes `n` bytes, a constant, as
/// [`whole_then_rest`]: from `W` to `NOLOOP_MAX` (but a copy of exactly `W`
/// where the kernel takes halves), and beyond it to [`CONST_ALIGNED_MAX`]
/// vectors where the aligned loop would run (`aligned`).
#[inline(always)]
fn takes_whole_then_rest<V: Tuning, R: Source>(n: usize, aligned: bool) -> bool {
    let w = V::BYTES;
    if n <= V::NOLOOP_MAX {
        n > w || (n == w && !(V::HALVES_AT_WIDTH && R::TRAFFIC == 2))
    } else {
        n <= CONST_ALIGNED_MAX * w && w >= 16 && !R::OVERLAP && aligned
    }
}

/// The most whole vectors [`write_const`] writes straight-line above
/// `NOLOOP_MAX`, for pointers the aligned loop would take: 16, so 256 B on
/// SSE, 512 B on AVX2 and 1 KiB on AVX-512 (the portable kernel, not
/// measured, keeps its loop). On `intel-6-167`, nine rounds,
/// TSC ticks, the loop before -> this (DPDK's `rte_memcpy` of the
/// constant): SSE copies of 136, 160 and 200 B 5.2, 4.0, 6.5 -> 3.3, 3.3,
/// 4.6 (5.1, 3.9, 6.4) and a 200-B fill 6.5 -> 4.6 (LLVM's own 4.6); AVX2
/// copies of 320 and 448 B 4.4, 6.0 -> 3.7, 5.3 (3.7, 5.2); AVX-512
/// 448-768 B 2-4% faster; misaligned pointers and every other length
/// within 3%. At 32 vectors no length was faster, and SSE aligned fills of
/// 320-512 B were 6-12% slower (benches/NOTEBOOK.md, "`intel-6-167`:
/// aligned constant sizes straight-line above the no-loop sizes").
pub(crate) const CONST_ALIGNED_MAX: usize = 16;

/// whole_then_rest: `n / W` whole vectors from 0, then the `n % W` bytes
/// left: one move where that is a power of two ([`one_move`]), else as
/// [`write_le_2w`] writes them (two moves of the widest rung under it,
/// overlapping, or three single bytes), for a size known while compiling
/// ([`write_const`]): every offset folds to a constant, and no whole
/// vector overlaps another.
///
/// ```text
/// n = 2W + 12:  |0===|1===|        two whole vectors
///                         |8|      the 12 bytes left: two 8-byte moves
///                           |8|
/// n = 2W + 16:  |0===|1===|16|     16 left: one 16-byte move
/// ```
///
/// # Safety
///
/// `W <= n`, `R` is not a move (each part is written as it is read), and
/// `0..n` is in range.
#[inline(always)]
unsafe fn whole_then_rest<V: Vector, R: Source>(dst: *mut u8, src: R, n: usize) {
    let w = V::BYTES;
    let (whole, rest) = (n / w * w, n % w);
    debug_assert!(w <= n && !R::OVERLAP);
    // SAFETY: the whole vectors cover `0..whole`, the rest `whole..n`:
    // `rest < W`, a power of two for `one_move`, within `write_le_2w`'s
    // `2W` otherwise (0 included: nothing).
    unsafe {
        run::<V, Unaligned, R>(src, 0, n / w).write::<Unaligned>(dst);
        if rest.is_power_of_two() {
            one_move::<V, R>(dst.add(whole), src.skip(whole), rest)
        } else {
            write_le_2w::<V, R>(dst.add(whole), src.skip(whole), rest)
        }
    }
}

/// Writes `n` bytes with one move of the rung `n` wide: `V` or a half of
/// it (down to one byte), for a power of two `n <= W` known while
/// compiling.
///
/// # Safety
///
/// `n` is a power of two, `n <= W`, and `0..n` is in range.
#[inline(always)]
unsafe fn one_move<V: Vector, R: Source>(dst: *mut u8, src: R, n: usize) {
    debug_assert!(n.is_power_of_two() && n <= V::BYTES);
    // SAFETY: the move is `n` bytes wide at 0; the halves end at one byte,
    // whose half is itself, and `n >= 1` stops there.
    unsafe {
        if n == V::BYTES {
            run::<V, Unaligned, R>(src, 0, 1).write::<Unaligned>(dst)
        } else {
            one_move::<V::Half, R>(dst, src, n)
        }
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
    // first arm, and a power of two under W, `one_move`'s, in the second.
    unsafe {
        if N >= V::BYTES {
            block::<V, Unaligned, Unaligned, _>(dst, src, 0, N / V::BYTES)
        } else {
            one_move::<V, _>(dst, src, N)
        }
    }
}
