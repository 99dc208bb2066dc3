//! `memcmp` and `bcmp`: one compare ladder, written once over a [`Tuning`]
//! kernel, in two [`Mode`]s.
//!
//! # The plan
//!
//! The ladder is the copy's (`generic.rs`), with loads where the copy has
//! moves. A step loads the same vectors from `a` and `b`, XORs each pair
//! and ORs the XORs together: one test of that vector says whether the
//! whole step is equal. Only when it is not does the mode matter:
//!
//! - [`Equality`] (`bcmp`) is done: the ranges differ.
//! - [`Order`] (`memcmp`) walks the step's vectors again in address order,
//!   takes the first one whose [`Vector::ne_mask`] is not zero, and its
//!   lowest set bit (a trailing-zero count) is the first differing byte;
//!   one subtraction of the two bytes there is the result. The loop's
//!   blocks (`n > NOLOOP_MAX`) do not load again: the nodes of their OR
//!   tree ([`Fields`]) locate the difference from registers. The 1-16 B
//!   rungs neither: of the head's and the tail's words, the first pair
//!   that differs is selected, and its first differing byte subtracted in
//!   registers ([`Word::order`]; at 2-3 B one `u32` of bytes 0, 1 and
//!   `n - 1` per operand); or, from 4 bytes (2 on SSE) on the SIMD
//!   kernels, both words of each operand go side by side in one 16-byte
//!   vector, compared once ([`Tuning::COMPARE_LANES_MIN`]).
//!
//! Every rung answers an `i32`, 0 exactly when its bytes are equal, which
//! is the entry point's result as it stands (the loop's blocks answer
//! `None` when equal: [`check_block`]).
//!
//! So equal ranges, the common case of `==`, cost both the same, and the
//! search for the first difference runs once, outside any loop.
//!
//! ```text
//! n <= COMPARE_MASKED_MAX one masked load per operand (AVX-512BW: 64; a
//!                  ymm one to 32 where registers 16-31 are used)
//! n in [0, 16]     elsewhere, two words per operand (side by side in a
//!                  16-byte vector from COMPARE_LANES_MIN, else in
//!                  general-purpose registers):
//!                    [8, 16] two u64 per operand, overlapping
//!                    [4,  8) two u32
//!                    [2,  4) two u16 (in registers: one u32 of
//!                            bytes 0, 1 and n - 1)
//!                    1       one byte
//!                    0       nothing; no memory touched
//! n in (16, W]     the narrower vector rungs, each a head and a tail
//!                  (n == W too: two half vectors, not one loaded twice)
//! n in (W, 2W]     head_tail, 1 vector each side:   |H===|    |===T|
//! n in (2W, 4W]    head_tail, 2 vectors each side
//! n in (4W, 8W]    head_tail, 4 vectors each side (to NOLOOP_MAX); 4 and 2
//!                  where n <= 6W on AVX-512 (`splits_4_2`), as the copy
//! n > NOLOOP_MAX   loop_and_tail:
//!                    |B=======|                        first block, unaligned
//!                          |B=======|B=======|         W-aligned `a` blocks
//!                                     |T=======|       last block, ends at n
//! ```
//!
//! A block is `COMPARE_BLOCK / W` vectors (8 on SSE, 4 elsewhere), tested
//! once.
//! A head and a tail may overlap: the overlapping bytes are compared twice,
//! which cannot change the answer, and [`Order`] looks at the head first,
//! so the first difference it reports is the first in the range. The same
//! holds for the loop's blocks, which overlap the first block and the last.
//!
//! No size is compared by a byte loop, and no step reads a byte outside
//! `[p, p + n)`: as in the copy, a head starts at `p`, a tail ends at
//! `p + n`, and each rung is only taken when `n` covers it.
//!
//! The loop aligns `a`, not `b`: of two unaligned loads per vector, one at
//! least then never splits a cache line.
//!
//! The threshold is the copy's (`NOLOOP_MAX`); the block is
//! [`Tuning::COMPARE_BLOCK`], the copy's `LOOP_BLOCK` except on SSE. The
//! loop is the [`Tuning::CompareLoop`] kernel's: the AVX2 kernel's (ymm,
//! 128-byte blocks) for the AVX-512 kernel in a build for Zen 4, the
//! kernel's own elsewhere. The measurements are in benches/NOTEBOOK.md,
//! "memcmp and bcmp".

use crate::generic::{splits_4_2, Regs, AHEAD_MAX};
use crate::vector::{Access, Aligned, Tuning, Unaligned, Vector};
use core::mem::MaybeUninit;

/// What a comparison reports once a step is known to differ. Every rung
/// answers an `i32` that is 0 exactly when its bytes are equal: the
/// mode's [`Mode::at`] of a differing byte otherwise.
pub(crate) trait Mode: Sized {
    /// Whether the answer depends on where the first difference is
    /// (`memcmp`), not only on whether there is one (`bcmp`).
    #[allow(dead_code)] // only the AVX-512BW kernel's masked compare asks
    const FIRST: bool;

    /// The answer for a difference at byte `i`, never 0: `memcmp`'s
    /// `a[i] - b[i]` (`i` the first difference), or `bcmp`'s 1.
    ///
    /// # Safety
    ///
    /// `i` is readable at `a` and `b`, and the bytes there differ.
    unsafe fn at(a: *const u8, b: *const u8, i: usize) -> i32;

    /// A differing byte's index, given that the vectors of `spans` (runs of
    /// `(offset, count)` vectors, in address order) differ somewhere and
    /// every byte before the first run is equal.
    ///
    /// # Safety
    ///
    /// Every run lies in `0..n`, which is readable at `a` and at `b`.
    unsafe fn locate<V: Vector>(a: *const u8, b: *const u8, spans: &[(usize, usize)]) -> usize;

    /// A differing byte's offset in a block that differs, from its
    /// [`Fields`], with no load: what the loop's blocks use.
    fn locate_fields<V: Vector>(fields: &Fields<V>) -> usize;

    /// head_tail of one word each side, for the 1-16 B rungs of kernel `V`
    /// when it has no masked compare.
    ///
    /// # Safety
    ///
    /// `W::BYTES <= n <= 2 * W::BYTES` and `0..n` is readable at `a` and
    /// `b`.
    #[inline(always)]
    unsafe fn word_pair<V: Tuning, W: Word>(a: *const u8, b: *const u8, n: usize) -> i32 {
        // SAFETY: forwarded contract.
        unsafe { head_tail::<W, Self>(a, b, n, 1) }
    }

    /// head_tail of one vector each side, from the two vectors' masks of
    /// equal bytes where both fit one `u64` (SSE's 16 bits, AVX2's 32):
    /// the range is equal when every byte of both is. Where it is not,
    /// the two masks of differing bytes side by side, the tail's shifted
    /// to its offset, make one mask whose lowest set bit is the first
    /// difference (the overlap's bits agree): one trailing-zero count from
    /// registers (`Order`; `Equality` answers 1 and computes none of it).
    /// Where `head_tail` tested the XORs' OR and [`Order::locate`] loaded
    /// the vectors again, a difference at a random place took 6.2-7.0 ticks
    /// at 17-32 B on the AVX2 and SSE kernels against 3.2-5.5 for glibc's
    /// `memcmp` of their width (benches/NOTEBOOK.md, "`intel-6-167`:
    /// memcmp's one-vector pairs from their masks"). Wider masks
    /// (AVX-512's 64 bits) take `head_tail`.
    ///
    /// # Safety
    ///
    /// `V::BYTES <= n <= 2 * V::BYTES` and `0..n` is readable at `a` and
    /// `b`.
    #[inline(always)]
    unsafe fn vector_pair<V: Vector>(a: *const u8, b: *const u8, n: usize) -> i32 {
        let w = V::BYTES;
        debug_assert!(w <= n && n <= 2 * w);
        if 2 * w * V::MASK_BITS as usize > 64 {
            // SAFETY: forwarded contract.
            return unsafe { head_tail::<V, Self>(a, b, n, 1) };
        }
        // SAFETY: both vectors lie in `0..n`.
        let ((ha, hb), (ta, tb)) = unsafe {
            (
                load_pair::<V, Unaligned, Unaligned>(a, b, 0),
                load_pair::<V, Unaligned, Unaligned>(a, b, n - w),
            )
        };
        let bits = w * V::MASK_BITS as usize;
        let (eh, et) = (ha.eq_mask(hb), ta.eq_mask(tb));
        let full = u64::MAX >> (64 - bits);
        if eh & et == full {
            own_return::<V>();
            return 0;
        }
        let m = (eh ^ full) | (et ^ full) << ((n - w) * V::MASK_BITS as usize);
        // SAFETY: the bytes differ there, the first difference in `0..n`.
        let r = unsafe { Self::at(a, b, (m.trailing_zeros() / V::MASK_BITS) as usize) };
        own_return::<V>();
        r
    }
}

/// `memcmp`: the first differing byte (see [`diff`] for equal ranges).
pub(crate) enum Order {}

/// `bcmp`: whether any byte differs; the index reported is meaningless.
pub(crate) enum Equality {}

impl Mode for Order {
    const FIRST: bool = true;

    #[inline(always)]
    unsafe fn locate<V: Vector>(a: *const u8, b: *const u8, spans: &[(usize, usize)]) -> usize {
        // Every vector's mask, and the first difference as the least of
        // the groups' first differences: no branch on where it is, which
        // is as random as the data. (An early exit
        // at the first non-zero mask mispredicted: 20 ticks a call at
        // 96 B on AVX-512 where `bcmp` took 5; BENCHMARKS.md.)
        //
        // The fence makes LLVM load the vectors again rather than keep
        // the test's registers alive for this rarer path: without it the
        // SSE block loop spent a register copy per vector on them (no
        // three-operand forms there), 56.6 ticks against `bcmp`'s 46.1 on
        // equal 1 KiB; it emits no instruction.
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
        //
        // The masks of as many vectors as fit in 64 bits (4 on SSE, 2 on
        // AVX2, 1 on AVX-512) are one mask: their bytes follow each other
        // in the run, so one trailing-zero count finds the first of them.
        let width = V::BYTES * V::MASK_BITS as usize;
        let per = (64 / width).max(1);
        let mut first = usize::MAX;
        for &(off, count) in spans {
            for group in 0..count.div_ceil(per) {
                let lo = group * per;
                let hi = count.min(lo + per);
                let mut m = 0u64;
                for i in lo..hi {
                    // SAFETY: the vector lies in its run, in range.
                    let (x, y) =
                        unsafe { load_pair::<V, Unaligned, Unaligned>(a, b, off + i * V::BYTES) };
                    m |= if per >= 4 { x.eq_mask(y) } else { x.ne_mask(y) } << ((i - lo) * width);
                }
                // Four SSE masks to a group: the equal bytes' masks and
                // one inversion, not four (memcmp diff 48-128 B, 11.2-17.8
                // ticks to 10.7-17.3). Two AVX2 masks: each inverted, which
                // measured 0.7-1.2 ticks faster at 96-256 B (12.0-21.6
                // against 12.8-22.8).
                if per >= 4 {
                    m = !m & (u64::MAX >> (64 - (hi - lo) * width));
                }
                // `usize::MAX` where the group is equal, as arithmetic:
                // written as a select, LLVM made some of these branches.
                let none = usize::from(m == 0).wrapping_neg();
                let at = off + lo * V::BYTES + (m.trailing_zeros() / V::MASK_BITS) as usize;
                first = first.min(at | none);
            }
        }
        debug_assert!(first != usize::MAX, "compare: locate on equal runs");
        first
    }

    #[inline(always)]
    fn locate_fields<V: Vector>(fields: &Fields<V>) -> usize {
        // As `locate`, on the fields: field `i` is non-zero at byte `j`
        // when vector `i` or one before it in its subtree differs there,
        // so the first non-zero byte over the fields in order is the
        // first difference.
        let width = V::BYTES * V::MASK_BITS as usize;
        let zero = V::splat(0);
        if fields.count * width <= 128 {
            // Every field's mask in one u128 (a 128-byte block on SSE
            // and AVX2): one inversion and one trailing-zero count, with
            // no select between groups. memcmp diff, side by side with
            // the two-group form: SSE 768 B 54.8-55.4 to 52.6-52.9 ticks,
            // 4 KiB 118.5-122.8 to 116.5-117.0 (glibc SSE2 48.6, 111.6-
            // 116.4); AVX2 768 B 46.4-46.5 to 45.2-45.4 (glibc 55.7).
            let mut eq = 0u128;
            for i in 0..fields.count {
                // SAFETY: `block_fields` kept all `count` fields.
                eq |= u128::from(unsafe { fields.regs.get(i) }.eq_mask(zero)) << (i * width);
            }
            let m = !eq & (u128::MAX >> (128 - fields.count * width));
            return (m.trailing_zeros() / V::MASK_BITS) as usize;
        }
        let per = (64 / width).max(1);
        let mut first = usize::MAX;
        for group in 0..fields.count.div_ceil(per) {
            let lo = group * per;
            let hi = fields.count.min(lo + per);
            let mut eq = 0u64;
            for i in lo..hi {
                // SAFETY: `block_fields` kept all `count` fields.
                eq |= unsafe { fields.regs.get(i) }.eq_mask(zero) << ((i - lo) * width);
            }
            let m = !eq & (u64::MAX >> (64 - (hi - lo) * width));
            let none = usize::from(m == 0).wrapping_neg();
            let at = lo * V::BYTES + (m.trailing_zeros() / V::MASK_BITS) as usize;
            first = first.min(at | none);
        }
        debug_assert!(
            first != usize::MAX,
            "compare: locate_fields on an equal block"
        );
        first
    }

    /// With no branch on the data, and no load after the words: the
    /// head's words where they differ, else the tail's (a select), and
    /// [`Word::order`] of that pair. Where the head differs the tail cannot
    /// differ earlier (their overlap is shared); where it is equal the
    /// tail's first difference is the range's.
    ///
    /// The form before, on the Zen 4 (`amd-25-17`; memcmp, AVX2 build,
    /// three runs side by side, ticks per call): the least of the head's
    /// and the tail's first-difference indices and the last byte's, then
    /// the two bytes loaded again at that index, took 11.9-13.3 at 8-16 B
    /// equal and 11.6-13.3 with a difference, where this takes 8.7-10.8
    /// and 8.8-10.4 (glibc 9.9-10.8 and 12.4-13.2); for 1-2 B it read the
    /// first, middle and last byte: 13.8-15.4 equal, this 11.0-13.8
    /// (benches/NOTEBOOK.md, "`amd-25-17`: memcmp's 1-16 B words answer from
    /// registers").
    /// (Before that, a branch on which word differs mispredicted half the
    /// time: 16-18 ticks at 12-16 B, glibc 7.7.)
    #[inline(always)]
    unsafe fn word_pair<V: Tuning, W: Word>(a: *const u8, b: *const u8, n: usize) -> i32 {
        debug_assert!(W::BYTES <= n && n <= 2 * W::BYTES);
        if W::BYTES >= V::COMPARE_LANES_MIN {
            // SAFETY: forwarded contract.
            if let Some(r) = unsafe { word_lanes::<V, W>(a, b, n) } {
                return r;
            }
        }
        if W::BYTES == 2 && n <= 3 {
            // SAFETY: forwarded contract, `2 <= n <= 3`. (diff_le16 calls
            // the u16 rung below 4 B only: the test folds away.)
            return unsafe { three_bytes(a, b, n) };
        }
        // SAFETY: both words lie in `0..n`.
        let ((ha, hb), (ta, tb)) = unsafe {
            (
                load_pair::<W, Unaligned, Unaligned>(a, b, 0),
                load_pair::<W, Unaligned, Unaligned>(a, b, n - W::BYTES),
            )
        };
        let head = !ha.xor(hb).is_zero();
        // As likely one way as the other: a select, not a branch.
        let pick = core::hint::select_unpredictable::<W>;
        pick(head, ha, ta).order(pick(head, hb, tb))
    }

    #[inline(always)]
    unsafe fn at(a: *const u8, b: *const u8, i: usize) -> i32 {
        // SAFETY: the caller's contract.
        unsafe { i32::from(*a.add(i)) - i32::from(*b.add(i)) }
    }
}

impl Mode for Equality {
    const FIRST: bool = false;

    #[inline(always)]
    unsafe fn at(_: *const u8, _: *const u8, _: usize) -> i32 {
        1
    }
    #[inline(always)]
    unsafe fn locate<V: Vector>(_: *const u8, _: *const u8, _: &[(usize, usize)]) -> usize {
        0
    }
    #[inline(always)]
    fn locate_fields<V: Vector>(_: &Fields<V>) -> usize {
        0
    }
}

/// `memcmp` of a head and a tail word (`W::BYTES <= n <= 2 * W::BYTES`)
/// in the lanes of `V`'s 16-byte rung ([`Tuning::COMPARE_LANES_MIN`]): each
/// operand's two words side by side, one compare of the two vectors, equal
/// when every byte is (the zero bytes above a word narrower than 8 compare
/// equal too); else the lowest unequal byte, in the head's lane (`0..8`) or
/// the tail's (`8..16`, at `n - W::BYTES` in the range), is the first
/// difference. `None` where `V` has no 16-byte rung.
///
/// # Safety
///
/// `W::BYTES <= n <= 2 * W::BYTES` and `0..n` is readable at `a` and `b`.
#[inline(always)]
unsafe fn word_lanes<V: Vector, W: Word>(a: *const u8, b: *const u8, n: usize) -> Option<i32> {
    debug_assert!(W::BYTES <= n && n <= 2 * W::BYTES && W::BYTES <= 8);
    if V::BYTES > 16 {
        // SAFETY: forwarded contract.
        return unsafe { word_lanes::<V::Half, W>(a, b, n) };
    }
    let t = n - W::BYTES;
    // SAFETY: both words lie in `0..n`.
    let ((ha, hb), (ta, tb)) = unsafe {
        (
            load_pair::<W, Unaligned, Unaligned>(a, b, 0),
            load_pair::<W, Unaligned, Unaligned>(a, b, t),
        )
    };
    let x = V::from_words(ha.widen(), ta.widen())?;
    let y = V::from_words(hb.widen(), tb.widen())?;
    let eq = x.eq_mask(y);
    if eq == 0xFFFF {
        own_return::<V>();
        return Some(0);
    }
    let i = (!eq).trailing_zeros() as usize;
    let at = if i < 8 { i } else { t + (i - 8) };
    // SAFETY: a differing byte of a word, so in `0..n`; every byte before
    // it in the range is in an equal lane position or the overlap.
    let r = unsafe { Order::at(a, b, at) };
    own_return::<V>();
    Some(r)
}

/// `memcmp` of 2-3 bytes as one `u32` per operand: bytes 0 and 1 and byte
/// `n - 1`, in address order, then [`Word::order`] of the pair: the `u16`
/// rung of [`Order::word_pair`]. One order instead of a head word, a tail
/// word and a select between them, on the kernels that compare 2-3 B in
/// registers (`COMPARE_LANES_MIN` > 2). AVX2 memcmp with a difference
/// 4.4-4.7 -> 4.1-4.4 TSC ticks on `intel-6-167` in two runs (glibc
/// 4.0-4.2), equal 4.1 either way; portable 2-3 B 6.2 -> 5.4
/// (benches/NOTEBOOK.md, "`intel-6-167`: memcmp's 2-3 B as one word, and
/// the loop's answer as an `Option`").
///
/// # Safety
///
/// `2 <= n <= 3` and `0..n` is readable at `a` and `b`.
#[inline(always)]
unsafe fn three_bytes(a: *const u8, b: *const u8, n: usize) -> i32 {
    debug_assert!((2..=3).contains(&n));
    // SAFETY: bytes 0, 1 and n - 1 lie in `0..n`.
    let ((ha, hb), (la, lb)) = unsafe {
        (
            load_pair::<u16, Unaligned, Unaligned>(a, b, 0),
            load_pair::<u8, Unaligned, Unaligned>(a, b, n - 1),
        )
    };
    // The bytes in address order from the low end (`from_le` is the
    // identity here, a swap on a big-endian target), as `order` expects of
    // a word read from memory (it swaps back).
    let word =
        |head: u16, last: u8| u32::from_le(u32::from(u16::from_le(head)) | u32::from(last) << 16);
    word(ha, la).order(word(hb, lb))
}

/// Ends a 16-byte compare's answer with its own return: measured on the
/// AVX2 kernel, LLVM otherwise merged its `return 0` and its byte
/// subtraction with the wider rungs', which end with `vzeroupper`, and
/// the 4-16 B and 17-31 B compares paid the jump and the instruction
/// (benches/NOTEBOOK.md, "`intel-6-167`: memcmp's 2-16 B words in a
/// vector"). Nothing for other widths.
#[inline(always)]
fn own_return<V: Vector>() {
    if V::BYTES == 16 {
        crate::barrier::no_tail_merge();
    }
}

/// The general-purpose words of the 1-16 B rungs.
pub(crate) trait Word: Vector {
    /// `memcmp` of the bytes of two words as they were read from memory:
    /// `a[i] - b[i]` at the first byte `i` where they differ, in address
    /// order, or 0.
    fn order(self, other: Self) -> i32;

    /// The word zero-extended: its bytes first in memory order, then zeros.
    fn widen(self) -> u64;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            #[inline(always)]
            fn order(self, other: Self) -> i32 {
                // Address order is bit order once little-endian (`to_le`
                // swaps on a big-endian target). The top bit stands in for
                // a difference in the last byte, so that equal words pick
                // it: equal there, it answers 0 with no branch.
                let (x, y) = (self.to_le(), other.to_le());
                let s = ((x ^ y) | 1 << (<$t>::BITS - 1)).trailing_zeros() & !7;
                i32::from((x >> s) as u8) - i32::from((y >> s) as u8)
            }
            #[inline(always)]
            fn widen(self) -> u64 {
                u64::from(self)
            }
        }
    )*};
}

word!(u8, u16, u32, u64);

/// The vectors at `off` in `a` and in `b`.
///
/// # Safety
///
/// `off..off + V::BYTES` is readable at `a` and `b`, aligned as `La` and
/// `Lb` claim.
#[inline(always)]
unsafe fn load_pair<V: Vector, La: Access, Lb: Access>(
    a: *const u8,
    b: *const u8,
    off: usize,
) -> (V, V) {
    // SAFETY: forwarded contract.
    unsafe { (La::load::<V>(a.add(off)), Lb::load::<V>(b.add(off))) }
}

/// block: the OR of the XORs of `count` vectors from `off`; zero exactly
/// when those bytes are equal.
///
/// # Safety
///
/// `off..off + count * V::BYTES` is readable at `a` and `b`, aligned as
/// `La` and `Lb` claim.
#[inline(always)]
pub(crate) unsafe fn block<V: Vector, La: Access, Lb: Access>(
    a: *const u8,
    b: *const u8,
    off: usize,
    count: usize,
) -> V {
    let mut acc = V::splat(0);
    for i in 0..count {
        // SAFETY: the vector lies inside the caller's range.
        let (x, y) = unsafe { load_pair::<V, La, Lb>(a, b, off + i * V::BYTES) };
        acc = acc.or(x.xor(y));
    }
    acc
}

/// A block's XORs kept as the nodes of the OR tree that tests it: field
/// `i` is the OR of the XORs of vectors `i + 1 - l..=i`, `l` the lowest set
/// bit of `i + 1` (a Fenwick tree), so the last field is the whole block's
/// OR and every field is a value the tree computes anyway.
///
/// ```text
/// 8 vectors:  x0  x0|x1  x2  x0|..|x3  x4  x4|x5  x6  x0|..|x7 (the test)
/// ```
///
/// Field `i` differs from zero at a byte exactly when one of its vectors
/// differs there; the vectors before `i` that it takes in are earlier in
/// the block, so the first non-zero byte over the fields, in order, is the
/// block's first difference. [`Order::locate_fields`] finds it from these
/// registers, where [`Order::locate`] loads the vectors again: on the
/// SSE kernel, where a two-operand OR keeps one input and overwrites the
/// other, the tree leaves every field in a register of its own with no
/// copy, and the search after a block differs starts without a load.
/// SSE memcmp with a difference at a random place, against glibc's SSE2
/// `memcmp` in one run: 31.4 to 28.5 ticks at 192 B, 57.6 to 55.1 at
/// 768 B, 124.4 to 120.5 at 4 KiB (glibc 31.3, 48.6, 114.6); AVX2 and
/// AVX-512 within noise (benches/NOTEBOOK.md, "memcmp and bcmp", "After
/// (2026-12-01)").
pub(crate) struct Fields<V: Vector> {
    regs: [MaybeUninit<V>; AHEAD_MAX],
    count: usize,
}

impl<V: Vector> Fields<V> {
    /// The OR of the whole block: zero exactly when it is equal.
    #[inline(always)]
    fn all(&self) -> V {
        // SAFETY: `block_fields` kept all `count >= 1` fields.
        unsafe { self.regs.get(self.count - 1) }
    }
}

/// The [`Fields`] of `count` vectors from `off`, a power of two.
///
/// # Safety
///
/// As [`block`], and `count <= AHEAD_MAX`.
#[inline(always)]
unsafe fn block_fields<V: Vector, La: Access, Lb: Access>(
    a: *const u8,
    b: *const u8,
    off: usize,
    count: usize,
) -> Fields<V> {
    debug_assert!(count.is_power_of_two() && count <= AHEAD_MAX);
    let mut regs = <[MaybeUninit<V>; AHEAD_MAX] as Regs<V>>::empty();
    for i in 0..count {
        // SAFETY: the vector lies inside the caller's range.
        let (x, y) = unsafe { load_pair::<V, La, Lb>(a, b, off + i * V::BYTES) };
        let mut v = x.xor(y);
        // Fold in the subtrees that end right before `i`: of 1, 2, 4, ...
        // vectors while `i + 1` is a multiple of twice their length (a
        // fixed trip count, so that every index is a constant).
        for k in 0..AHEAD_MAX.trailing_zeros() {
            let len = 1 << k;
            if (i + 1).is_multiple_of(2 * len) {
                // SAFETY: field `i - len` was kept on an earlier turn.
                v = unsafe { regs.get(i - len) }.or(v);
            }
        }
        regs.put(i, v);
    }
    Fields { regs, count }
}

/// Tests one block of `count` vectors at `off` (a power of two), and
/// locates a difference from its [`Fields`] when it differs: `None` when the
/// block is equal, else the mode's answer.
///
/// An `Option`, not the `0` that a block answers when equal: with the `i32`,
/// LLVM tested the located answer against 0 again before leaving the loop,
/// a branch that cannot be taken. memcmp with a difference at a random
/// place, side by side on `intel-6-167`: AVX-512 768 B-8 KiB 44.8-114.8 ->
/// 40.6-110.8 TSC ticks (glibc 53.2-141.7); AVX2 512 B-2 KiB 0.4-0.7
/// faster, 4-8 KiB 1.7-1.8 slower; the rest within the spread of two builds
/// of identical code (benches/NOTEBOOK.md, "`intel-6-167`: memcmp's 2-3 B
/// as one word, and the loop's answer as an `Option`").
///
/// # Safety
///
/// As [`block_fields`]; everything before `off` is equal.
#[inline(always)]
unsafe fn check_block<V: Vector, La: Access, M: Mode>(
    a: *const u8,
    b: *const u8,
    off: usize,
    count: usize,
) -> Option<i32> {
    // SAFETY: forwarded contract.
    let fields = unsafe { block_fields::<V, La, Unaligned>(a, b, off, count) };
    if fields.all().is_zero() {
        None
    } else {
        // SAFETY: the block differs at the located byte, in range.
        Some(unsafe { M::at(a, b, off + M::locate_fields(&fields)) })
    }
}

/// Tests the runs of `spans` with one test, and locates a difference with
/// `M` when they differ.
///
/// # Safety
///
/// As [`Mode::locate`].
#[inline(always)]
unsafe fn check<V: Vector, M: Mode>(a: *const u8, b: *const u8, spans: &[(usize, usize)]) -> i32 {
    let mut acc = V::splat(0);
    for &(off, count) in spans {
        // SAFETY: each run is in range.
        acc = acc.or(unsafe { block::<V, Unaligned, Unaligned>(a, b, off, count) });
    }
    if acc.is_zero() {
        0
    } else {
        // SAFETY: forwarded contract; the runs differ at the located byte.
        unsafe { M::at(a, b, M::locate::<V>(a, b, spans)) }
    }
}

/// head_tail: two possibly overlapping runs of `count` vectors, the first
/// starting at 0 and the second ending at `n`, tested once.
///
/// # Safety
///
/// `count * W <= n <= 2 * count * W` and `0..n` is readable at `a` and `b`.
#[inline(always)]
pub(crate) unsafe fn head_tail<V: Vector, M: Mode>(
    a: *const u8,
    b: *const u8,
    n: usize,
    count: usize,
) -> i32 {
    debug_assert!(count * V::BYTES <= n && n <= 2 * count * V::BYTES);
    // SAFETY: both runs lie in `0..n` by the precondition.
    unsafe { check::<V, M>(a, b, &[(0, count), (n - count * V::BYTES, count)]) }
}

/// Compares any `n <= 16` in general-purpose registers: a pair of
/// overlapping words of the widest width that fits (u64, u32, u16, or one
/// byte read twice).
///
/// # Safety
///
/// `n <= 16` and `0..n` is readable at `a` and `b`.
#[inline(always)]
pub(crate) unsafe fn diff_le16<V: Tuning, M: Mode>(a: *const u8, b: *const u8, n: usize) -> i32 {
    debug_assert!(n <= 16);
    // SAFETY: each pair needs `n` at least its width, which its test gives,
    // and at most twice it, which the test before gives.
    unsafe {
        if n >= 8 {
            M::word_pair::<V, u64>(a, b, n)
        } else if n >= 4 {
            M::word_pair::<V, u32>(a, b, n)
        } else if n >= 2 {
            M::word_pair::<V, u16>(a, b, n)
        } else if n != 0 {
            M::word_pair::<V, u8>(a, b, n)
        } else {
            0
        }
    }
}

/// Compares `16 < n <= 2 * V::BYTES` with one head_tail at the narrowest
/// vector rung that covers `n`. At `n == V::BYTES` that is the half rung:
/// its two vectors meet exactly, where the full rung's head and tail are the
/// same vector loaded twice. On `intel-6-167`, AVX2 build, 32 B: memcmp
/// 4.4 -> 4.1 TSC ticks with a difference and 2.7 -> 2.5 equal, bcmp
/// 2.9 -> 2.7 and 2.7 -> 2.3 (benches/NOTEBOOK.md, "`intel-6-167`: memcmp's
/// 32 B on AVX2 as two halves").
///
/// # Safety
///
/// `16 < n <= 2 * V::BYTES` and `0..n` is readable at `a` and `b`.
#[inline(always)]
unsafe fn diff_gt16<V: Vector, M: Mode>(a: *const u8, b: *const u8, n: usize) -> i32 {
    debug_assert!(16 < n && n <= 2 * V::BYTES);
    // SAFETY: as `generic::write_gt16`: a 16-byte rung covers (16, 32]; a
    // wider one takes (W, 2W] and hands (16, W] to its half, whose
    // 2 * Half::BYTES is W.
    unsafe {
        if V::BYTES <= 16 || n > V::BYTES {
            M::vector_pair::<V>(a, b, n)
        } else {
            diff_gt16::<V::Half, M>(a, b, n)
        }
    }
}

/// Compares any `n <= 2 * V::BYTES`, `n == 0` included, with no masked
/// load: [`Tuning::diff_masked`]'s default, swept by the unit tests.
///
/// # Safety
///
/// `n <= 2 * V::BYTES` and `0..n` is readable at `a` and `b`.
#[inline(always)]
pub(crate) unsafe fn diff_le_2w<V: Tuning, M: Mode>(a: *const u8, b: *const u8, n: usize) -> i32 {
    debug_assert!(n <= 2 * V::BYTES);
    // SAFETY: each callee's size precondition is the test that selects it.
    unsafe {
        if n <= 16 {
            diff_le16::<V, M>(a, b, n)
        } else {
            diff_gt16::<V, M>(a, b, n)
        }
    }
}

/// The last size of the first class tested: one masked compare where the
/// kernel has them, else the 1-16 B general-purpose compares.
#[inline(always)]
const fn small_max<V: Tuning>() -> usize {
    if V::COMPARE_MASKED_MAX > 0 {
        V::COMPARE_MASKED_MAX
    } else {
        16
    }
}

/// Compares `2 * V::BYTES < n <= V::NOLOOP_MAX` with no loop.
///
/// # Safety
///
/// `2 * V::BYTES < n <= V::NOLOOP_MAX` and `0..n` is readable at `a` and
/// `b`.
#[inline(always)]
unsafe fn diff_noloop<V: Tuning, M: Mode>(a: *const u8, b: *const u8, n: usize) -> i32 {
    let w = V::BYTES;
    debug_assert!(2 * w < n && n <= V::NOLOOP_MAX);
    // SAFETY: as `generic::write_noloop`: each arm's size precondition is
    // its test (the 4 + 2 runs: `4W < n <= 6W`, both inside `0..n`), and
    // the constant `NOLOOP_MAX` terms cut the ladder at the kernel's
    // threshold, which `n` does not pass.
    unsafe {
        if n <= 4 * w || V::NOLOOP_MAX <= 4 * w {
            head_tail::<V, M>(a, b, n, 2)
        } else if n <= 8 * w || V::NOLOOP_MAX <= 8 * w {
            if splits_4_2::<V>(n) {
                // As the copy's 4 + 2 (`generic::splits_4_2`): 12 loads
                // instead of 16 at 257-384 B on AVX-512, where equal
                // 384-B ranges took 14.2 ticks against glibc's 11.6
                // (benches/NOTEBOOK.md, "`amd-25-17`: memcmp's 257-384 B as
                // 4 + 2 vectors").
                check::<V, M>(a, b, &[(0, 4), (n - 2 * w, 2)])
            } else {
                head_tail::<V, M>(a, b, n, 4)
            }
        } else {
            head_tail::<V, M>(a, b, n, 8)
        }
    }
}

/// loop_and_tail for `n > NOLOOP_MAX`: the first block at 0, then blocks
/// from the first `W`-aligned address of `a` past `COMPARE_BLOCK - W`, then
/// the last vectors, ending at `n`; each tested once, in address order.
///
/// The last vectors are as few as cover what the blocks left, `n - off`
/// bytes: one vector, two, four (where a block is eight: SSE's), or a
/// whole block. A whole block every time compared up to a block's worth
/// twice: equal 513 B on the Zen 4 AVX-512 build (128-byte ymm blocks)
/// took 17.6 TSC ticks against glibc's 14.3, now 14.5; equal 257 B and
/// 400 B on AVX2 0.82x and 0.80x glibc -> 0.98x and 1.00x, on SSE 0.74x
/// and 0.82x -> 1.07x and 1.04x. A difference at a random place moved
/// within 2% either way, 2-3% slower on the AVX-512 build. The
/// four-vector arm took SSE's equal 300, 320 and 700 B from 0.79-0.89x to
/// 0.97-0.99x (benches/NOTEBOOK.md, "`amd-25-17`: the compare loop's short
/// tail, and Zen 4 compares from 257 B in the AVX2 loop").
///
/// # Safety
///
/// `n > V::NOLOOP_MAX` and `0..n` is readable at `a` and `b`.
#[inline(always)]
unsafe fn diff_loop<V: Tuning, M: Mode>(a: *const u8, b: *const u8, n: usize) -> i32 {
    let (w, size) = (V::BYTES, V::COMPARE_BLOCK);
    let count = size / w;
    debug_assert!(n > V::NOLOOP_MAX && V::NOLOOP_MAX >= size);
    // SAFETY: `n > size`, so the first block is in range.
    if let Some(r) = unsafe { check_block::<V, Unaligned, M>(a, b, 0, count) } {
        return r;
    }
    // 1..=W bytes before the first block's end: `a + off` is aligned, and
    // everything before `off` has been found equal.
    let mut off = size - (a as usize & (w - 1));
    while off < n - size {
        // SAFETY: `off + size < n`, and `a + off` is W-aligned; all
        // before it was equal.
        if let Some(r) = unsafe { check_block::<V, Aligned, M>(a, b, off, count) } {
            return r;
        }
        crate::barrier::no_partial_unroll();
        off += size;
    }
    // SAFETY (all arms): `n > size`; the loop stopped at `off >= n -
    // size`, so everything before `off` has been found equal, and the last
    // vectors before `n` that cover `off..n` lie in `0..n`.
    let rest = n - off;
    // The whole block first: one test where it is needed; tested last,
    // equal 384 B on AVX2 and 256 B on SSE, which need it, took 1.2-1.8
    // ticks more than before the short tail. It is needed above half a
    // block, and above the four vectors of the widest arm below. Each arm
    // but the last is a `line_arm` ([`TAIL_IN_LINE`]).
    unsafe {
        if rest > count / 2 * w || rest > 4 * w {
            line_arm();
            return arm_result(check_block::<V, Unaligned, M>(a, b, n - size, count));
        }
        if rest > 2 * w {
            line_arm();
            return arm_result(check_block::<V, Unaligned, M>(a, b, n - 4 * w, 4));
        }
        if rest > w {
            line_arm();
            return arm_result(check_block::<V, Unaligned, M>(a, b, n - 2 * w, 2));
        }
        check_block::<V, Unaligned, M>(a, b, n - w, 1).unwrap_or(0)
    }
}

/// Whether the loop tail's tests run in one line, falling through to the
/// one-vector arm, with each other arm behind one taken jump and its own
/// return ([`line_arm`], [`arm_result`]). The return of a block that
/// differs is not marked: on the `Option` that [`check_block`] answers,
/// the hint left the code byte for byte the same, and written on the
/// first block's fields, where it made the equal path the fall-through,
/// it lost 7% on SSE `bcmp` with a difference at 176 B and won only where
/// fastmem was already ahead (benches/NOTEBOOK.md, "`amd-25-17`: a
/// differing block's return behind a jump"). Laid out test, arm, test,
/// arm, the one-vector arm took three taken jumps and the others a jump
/// back to a shared test. Measured on `amd-25-17` against the ladder as
/// LLVM laid it out, glibc's ticks over fastmem's:
/// SSE equal 129-192 B 0.73-0.93x -> 0.87-1.00x (`bcmp` of 129 B 12.9 ->
/// 10.1 ticks, glibc 9.6); the Zen 4 AVX-512 build (the AVX2 loop) equal
/// 257-400 B 0.91-1.08x -> 1.02-1.22x; but the AVX2 build's equal
/// `memcmp` of 300-400 B 0.94-1.00x -> 0.88-0.93x (5-6% with loops
/// 64-byte aligned too), so not where AVX2 is the build's kernel
/// (benches/NOTEBOOK.md, "`amd-25-17`: the compare tail's arms behind one
/// taken jump each").
const TAIL_IN_LINE: bool = !matches!(crate::KERNEL, crate::Kernel::Avx2);

/// The start of one of the loop tail's arms but the last: with
/// [`TAIL_IN_LINE`], behind a taken jump ([`crate::barrier::cold_arm`]).
#[inline(always)]
fn line_arm() {
    if TAIL_IN_LINE {
        crate::barrier::cold_arm();
    }
}

/// The answer of one of the loop tail's arms: with [`TAIL_IN_LINE`],
/// returned from that arm (`no_tail_merge`), where merged the arms jumped
/// back to one shared test.
#[inline(always)]
fn arm_result(r: Option<i32>) -> i32 {
    let r = r.unwrap_or(0);
    if TAIL_IN_LINE {
        crate::barrier::no_tail_merge();
    }
    r
}

/// The invariants the ladder relies on, beyond the copy's.
#[inline(always)]
const fn check_tuning<V: Tuning>() {
    const {
        let w = V::BYTES;
        assert!(
            V::COMPARE_MASKED_MAX <= 2 * w,
            "masked compares cover at most the first rung"
        );
        assert!(
            V::COMPARE_MASKED_MAX == 0 || V::COMPARE_MASKED_MAX >= 16,
            "masked compares, where a kernel has them, replace the 1-16 B compares"
        );
        assert!(
            V::COMPARE_BLOCK.is_multiple_of(w) && V::COMPARE_BLOCK <= V::NOLOOP_MAX,
            "the compare loop needs whole vectors and NOLOOP_MAX >= COMPARE_BLOCK"
        );
        assert!(
            (V::COMPARE_BLOCK / w).is_power_of_two() && V::COMPARE_BLOCK / w <= AHEAD_MAX,
            "a compare block's fields are a power of two of vectors, in registers"
        );
        assert!(
            V::CompareLoop::NOLOOP_MAX <= V::NOLOOP_MAX,
            "the compare loop's kernel must loop from this kernel's NOLOOP_MAX on"
        );
    }
}

/// The whole ladder: 0 when the ranges are equal, else the mode's answer,
/// [`Mode::at`] of the first differing byte (with [`Order`]; with
/// [`Equality`], of any).
///
/// # Safety
///
/// `0..n` is readable at `a` and at `b`.
#[inline(always)]
pub(crate) unsafe fn diff<V: Tuning, M: Mode>(a: *const u8, b: *const u8, n: usize) -> i32 {
    check_tuning::<V>();
    check_tuning::<V::CompareLoop>();
    // The first class is tested first: one branch before it, where testing
    // `NOLOOP_MAX` first took two; 1-16 B compares 0.3-0.5 TSC ticks
    // faster on every tier (benches/NOTEBOOK.md, "`intel-6-167`: memcmp's
    // equal return in registers 16-31"). Then the first vector rung, so
    // that 17-64 B on AVX2 take three compares of `n`, not four, and
    // AVX-512's 65-128 B two (equal 32-64 B on AVX2 3.9-4.1 -> 3.3-3.4
    // ticks, AVX-512 65-128 B 4.3-4.5 -> 3.6-3.9: "`intel-6-167`:
    // memcmp's one-vector pairs from their masks").
    //
    // SAFETY (all arms): each arm's size precondition is the test that
    // selects it and those before it (`small_max` is at least 16 and below
    // `NOLOOP_MAX`, const-asserted; `diff_gt16` takes any `16 < n <= 2W`).
    unsafe {
        if n <= small_max::<V>() {
            if V::COMPARE_MASKED_MAX > 0 {
                V::diff_masked::<M>(a, b, n)
            } else {
                diff_le16::<V, M>(a, b, n)
            }
        } else if n <= 2 * V::BYTES {
            diff_gt16::<V, M>(a, b, n)
        } else if n <= V::CompareLoop::NOLOOP_MAX {
            diff_noloop::<V, M>(a, b, n)
        } else {
            diff_loop::<V::CompareLoop, M>(a, b, n)
        }
    }
}

/// See [`crate::memcmp`].
///
/// # Safety
///
/// As [`crate::memcmp`].
#[inline(always)]
pub(crate) unsafe fn memcmp<V: Tuning>(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's contract.
    unsafe { diff::<V, Order>(a, b, n) }
}

/// See [`crate::bcmp`].
///
/// # Safety
///
/// As [`crate::bcmp`].
#[inline(always)]
pub(crate) unsafe fn bcmp<V: Tuning>(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's contract.
    unsafe { diff::<V, Equality>(a, b, n) }
}
