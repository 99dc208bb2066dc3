//! The vocabulary the algorithm is written in: a [`Vector`] is a register of
//! `BYTES` bytes that can be splatted, loaded and stored; [`Tuning`] adds the
//! constants that make a `Vector` a kernel.
//!
//! Every vector names a narrower [`Vector::Half`], so a kernel brings its own
//! ladder for sizes below its width: `__m512i → __m256i → __m128i → u64 → u32
//! → u16 → u8`. The scalar rungs live here; the kernel vectors live in
//! `kernels/`, one file each, beside their tuning constants.

use crate::Kernel;

/// A register the copy and fill algorithms move memory through.
///
/// # Safety
///
/// Implementors guarantee that `BYTES == size_of::<Self>()`, that `BYTES` is a
/// power of two, that every load reads exactly the `BYTES` bytes at its
/// address and every store writes exactly the `BYTES` bytes at its address,
/// and that `Half::BYTES == BYTES / 2` (except for the one-byte rung, whose
/// `Half` is itself).
pub(crate) unsafe trait Vector: Copy {
    /// Width in bytes.
    const BYTES: usize;
    /// The next narrower rung of the size ladder.
    type Half: Vector;

    /// A vector with every byte equal to `byte`.
    fn splat(byte: u8) -> Self;

    /// Reads `BYTES` bytes from `src`.
    ///
    /// # Safety
    ///
    /// `src..src + BYTES` must be readable.
    unsafe fn load_unaligned(src: *const u8) -> Self;

    /// Bits of [`Vector::ne_mask`] per byte: 1 for a SIMD compare mask, 8
    /// for a scalar word's XOR.
    const MASK_BITS: u32;

    /// The bytes where `self` and `other` differ, in address order: byte
    /// `i` owns bits `i * MASK_BITS..(i + 1) * MASK_BITS`, all zero where
    /// the bytes are equal. The lowest set bit, over `MASK_BITS`, is the
    /// first differing byte.
    fn ne_mask(self, other: Self) -> u64;

    /// The complement of [`Vector::ne_mask`] within its `BYTES * MASK_BITS`
    /// bits (the bits above are zero): set where the bytes are equal. The
    /// masks of several vectors combine with shifts and ORs and are
    /// inverted once, where `ne_mask`'s would each pay the inversion
    /// (`compare::Order::locate`).
    fn eq_mask(self, other: Self) -> u64;

    /// Bitwise exclusive or: zero exactly where the two are equal.
    fn xor(self, other: Self) -> Self;

    /// Bitwise or: gathers the differences of several [`Vector::xor`]s.
    fn or(self, other: Self) -> Self;

    /// Whether every bit is zero.
    fn is_zero(self) -> bool;

    /// Whether LLVM might join two adjacent vectors of this type into one
    /// wider move the build did not ask for: the AVX2 kernel in a build
    /// that enables AVX-512F (`--cfg fastmem_no_avx512`; `kernels::avx2`).
    /// Then a move loads every other vector of a run from a second source
    /// pointer LLVM cannot see through ([`crate::generic::Source::apart`],
    /// in [`crate::generic::Ahead`]), and a fill splats a byte it cannot
    /// see ([`crate::generic::Splat`]). False by default.
    const JOINABLE: bool = false;

    /// The vector whose bytes `0..8` are `lo`'s and `8..16` are `hi`'s, in
    /// memory order (x86 is little-endian): the 16-byte SIMD vectors have
    /// it, every other type answers `None` (the default). `memcmp` tests
    /// the head and tail words of its 4-16 B rungs (2-16 B on SSE) with one
    /// compare of two such vectors ([`Tuning::COMPARE_LANES_MIN`]).
    #[inline(always)]
    fn from_words(lo: u64, hi: u64) -> Option<Self> {
        let _ = (lo, hi);
        None
    }

    /// Writes the vector to `dst..dst + BYTES`.
    ///
    /// # Safety
    ///
    /// `dst..dst + BYTES` must be writable.
    unsafe fn store_unaligned(self, dst: *mut u8);

    /// Reads `BYTES` bytes from `src`, which is `BYTES`-aligned.
    ///
    /// # Safety
    ///
    /// As [`Vector::load_unaligned`], and `src` must be `BYTES`-aligned.
    #[inline(always)]
    unsafe fn load_aligned(src: *const u8) -> Self {
        debug_assert_aligned::<Self>(src);
        // SAFETY: the caller upholds `load_unaligned`'s contract.
        unsafe { Self::load_unaligned(src) }
    }

    /// Writes the vector to `dst..dst + BYTES`; `dst` is `BYTES`-aligned.
    ///
    /// # Safety
    ///
    /// As [`Vector::store_unaligned`], and `dst` must be `BYTES`-aligned.
    #[inline(always)]
    unsafe fn store_aligned(self, dst: *mut u8) {
        debug_assert_aligned::<Self>(dst);
        // SAFETY: the caller upholds `store_unaligned`'s contract.
        unsafe { self.store_unaligned(dst) }
    }

    /// Whether [`Vector::store_nontemporal`] bypasses the caches (the x86
    /// SIMD registers: `movntdq` and its wider forms). False by default:
    /// the store is then an ordinary one and needs no fence.
    const NONTEMPORAL: bool = false;

    /// Writes the vector to `dst..dst + BYTES`, `BYTES`-aligned, with a
    /// non-temporal hint where the type has one ([`Vector::NONTEMPORAL`]):
    /// the line goes to memory through a write-combining buffer instead of
    /// being read into the cache first. Such stores are weakly ordered:
    /// [`Vector::nontemporal_fence`] must follow them before the writes are
    /// published. The default is [`Vector::store_aligned`].
    ///
    /// # Safety
    ///
    /// As [`Vector::store_aligned`].
    #[inline(always)]
    unsafe fn store_nontemporal(self, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { self.store_aligned(dst) }
    }

    /// Orders every earlier non-temporal store before every later store
    /// (`sfence`); nothing where [`Vector::NONTEMPORAL`] is false.
    #[inline(always)]
    fn nontemporal_fence() {}
}

/// A kernel: the widest [`Vector`] of a tier and the constants the size
/// ladder and loops are tuned with. The values, and the measurements that
/// chose them, are documented beside each impl.
pub(crate) trait Tuning: Vector {
    /// The tier this kernel implements.
    const KERNEL: Kernel;
    /// Largest `n` copied or filled with no loop: overlapping head and tail
    /// blocks of 1, 2, 4 or 8 vectors. One of `4 * BYTES`, `8 * BYTES` or
    /// `16 * BYTES`.
    const NOLOOP_MAX: usize;
    /// Bytes moved per loop iteration: a multiple of `BYTES`, at most
    /// `NOLOOP_MAX`.
    const LOOP_BLOCK: usize;
    /// Blocks moved per turn of the block loop, 1 or 2 (then the odd
    /// block after the turns): the same blocks in the same order, with
    /// half the loop's branches and twice its body. 1 unless the build
    /// sets `--cfg fastmem_paired_blocks` ([`crate::PAIRED_BLOCKS`]); the
    /// SSE kernel sets 2 in every build.
    const LOOP_TURN: usize = if cfg!(fastmem_paired_blocks) { 2 } else { 1 };
    /// Blocks a turn, 1 or 2, of the unaligned loop when it copies or
    /// fills going up (a copy, a fill, a move whose ranges are disjoint);
    /// an overlapping move's loops and the aligned loop take
    /// [`LOOP_TURN`](Self::LOOP_TURN). By default `LOOP_TURN`; the SSE
    /// kernel sets 2 (as its `LOOP_TURN`).
    const UNALIGNED_TURN: usize = Self::LOOP_TURN;

    /// Copies of at least this many bytes go to [`Tuning::string_copy`];
    /// `usize::MAX` (the default): none do. Above `NOLOOP_MAX`.
    const STRING_COPY_MIN: usize = usize::MAX;
    /// Fills of at least this many bytes go to [`Tuning::string_fill`];
    /// `usize::MAX` (the default): none do. Above `NOLOOP_MAX`.
    const STRING_FILL_MIN: usize = usize::MAX;

    /// Whether sizes from the string threshold on (the string instruction,
    /// and the non-temporal loop from its threshold) are one call of an
    /// out-of-line function, rather than `rep movsb` inline and a call of
    /// the non-temporal loop: one compare and one call at the call site
    /// instead of two of each. False by default; the AVX-512 and SSE
    /// kernels set it.
    const LARGE_OUT_OF_LINE: bool = false;

    /// Whether the unaligned loop going up (a copy, a fill, a disjoint
    /// move) ends with about as few vectors as the size needs, 2,
    /// `LOOP_BLOCK / W` or `LOOP_BLOCK / W + 1` (`generic::short_tail`),
    /// rather than always one block and one vector. False by default; the
    /// AVX2, AVX-512 and SSE kernels set it (SSE for fills only, from
    /// `SHORT_TAIL_MIN`).
    const SHORT_TAIL: bool = false;

    /// Whether [`SHORT_TAIL`](Self::SHORT_TAIL) is also the tail of copies
    /// and disjoint moves, not only of fills. True by default; the SSE
    /// kernel clears it.
    const SHORT_TAIL_COPIES: bool = true;

    /// The smallest `n` whose short tail has arms; below it the tail is
    /// one block and one vector, whatever `(n - W) % LOOP_BLOCK`. 0 by
    /// default; the SSE kernel sets 257.
    const SHORT_TAIL_MIN: usize = 0;

    /// Whether the block loops going up of the aligned loop and an
    /// overlapping move walk two pointers, the destination's and the
    /// source's, each moved on by a turn's blocks, rather than one index
    /// added to both bases (`generic::loop_and_tail`). The unaligned loop
    /// of a copy or fill and loops going down keep the index. False by
    /// default; the SSE kernel sets it.
    const LOOP_POINTERS: bool = false;

    /// Whether the aligned loop of a fill writes its first block before
    /// the loop (`generic::write_loop_aligned`). True by default; the SSE
    /// kernel, whose aligned loop takes two blocks a turn, clears it.
    const FILL_PEEL: bool = true;

    /// Whether the aligned loop ends with the same tail as the unaligned
    /// one (`generic::short_tail`, after as many blocks), rather than one
    /// overlapping block. Needs [`SHORT_TAIL`](Self::SHORT_TAIL)
    /// (const-asserted). False by default; the AVX-512 kernel sets it.
    const SHORT_TAIL_ALIGNED: bool = false;

    /// Whether the short tail's middle vectors (all but the last
    /// [`TAIL_ENDS`](Self::TAIL_ENDS)) end at the destination's first line
    /// boundary at or above `n - TAIL_ENDS * W` rather than there itself,
    /// so that they store whole lines (`generic::short_tail`): at any
    /// alignment only the vectors that end at `n` cross a line. True
    /// except in builds for AMD cores
    /// ([`cores::AMD`](crate::kernels::cores::AMD)), where it is not
    /// measured; it matters only where `SHORT_TAIL` is set (AVX2,
    /// AVX-512, SSE fills) (benches/NOTEBOOK.md, "`intel-6-167`: the loop
    /// tail's middle vectors on the destination's lines").
    const TAIL_ON_LINES: bool = !crate::kernels::cores::AMD;

    /// How many of the short tail's vectors end at `n`, 1 or 2: with
    /// [`TAIL_ON_LINES`](Self::TAIL_ON_LINES) and 1, the middle vectors
    /// end at the first line boundary at or above `n - W` and one store of
    /// the tail crosses a line (`generic::short_tail`); and a copy's
    /// no-loop 4-vector class ends with one vector where its head (4 or 6
    /// vectors) leaves at most `W` bytes (`generic::write_noloop`). 2 by
    /// default; the AVX-512 kernel sets 1 except in builds for AMD cores.
    const TAIL_ENDS: usize = 2;

    /// Whether a copy whose pointers are both `W`-aligned runs the
    /// unaligned loop and its tail from offset 0, with no head vector
    /// (`generic::write_loop_from`), rather than a loop of its own
    /// (`generic::write_loop_aligned`): one copy loop per call site. The
    /// aligned path keeps its one test of `(dst | src) & (W - 1)` and
    /// needs no skip or head store. Fills keep the aligned loop. False by
    /// default; the AVX-512 kernel sets it except in builds for AMD cores.
    const ONE_COPY_LOOP: bool = false;

    /// Whether a copy or move of exactly `BYTES` takes the half-width rung
    /// (two half vectors) instead of the full rung, whose head and tail
    /// are then the same vector moved twice. False by default; the AVX-512
    /// kernel sets it in every build but one for Zen 5 (`cores::AMD_ZEN5`):
    /// on Zen 4 each 512-bit store is two store operations, so the full
    /// rung's 64 bytes cost four, and on Intel (`intel-6-167`) the halves
    /// ran unaligned 64-byte copies faster (benches/NOTEBOOK.md,
    /// "`amd-25-17` with AVX-512: a 64-byte copy as two halves",
    /// "`intel-6-167`: a 64-byte copy as two halves").
    const HALVES_AT_WIDTH: bool = false;

    /// Whether a copy of more than `2 * BYTES` and at most `4 * BYTES`
    /// bytes (the 2-vector class) loads all four of its vectors before its
    /// first store, as a move does, rather than each just before its
    /// store. Fills are unaffected (they load nothing), and so are the
    /// other classes and the loops. False by default; the AVX2 kernel sets
    /// it in a build for Zen 4 (`cores::AMD_ZEN4`). On the AVX-512 kernel
    /// there it was neutral, and up to 7% slower in the 4-vector classes
    /// (dst+1/src+3 320-512 B) (benches/NOTEBOOK.md, "`amd-25-17`: copies of 2
    /// vectors that load first").
    const LOAD_FIRST: bool = false;

    /// Whether a fill whose destination is aligned to `BYTES` takes the
    /// aligned loop above `NOLOOP_MAX`, as a copy between aligned pointers
    /// always does. It saves the unaligned loop's head vector and one tail
    /// vector, but adds a second straight-line arm to a constant-`n` fill.
    /// False by default, which only the portable kernel keeps: it was not
    /// measured there.
    const FILL_ALIGNED_LOOP: bool = false;

    /// Largest `n` that [`Tuning::copy_masked`] and [`Tuning::fill_masked`]
    /// write with one masked access, tested first among the no-loop sizes in
    /// place of the 1-16 B moves; 0 (the default): the kernel has no masked
    /// moves. At least 16 where it is not 0 (const-asserted).
    const MASKED_MAX: usize = 0;

    /// Copies `n <= MASKED_MAX` bytes with masked moves. It also serves
    /// [`crate::memmove`], so it must load every byte before it stores one
    /// (one masked load and one masked store do). The default is the
    /// ladder, as a move, for kernels without them.
    ///
    /// # Safety
    ///
    /// As [`crate::memmove`], and `n <= MASKED_MAX`.
    #[inline(always)]
    unsafe fn copy_masked(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: forwarded contract; MASKED_MAX <= 2W is const-asserted.
        unsafe { crate::generic::write_le_2w::<Self, _>(dst, crate::generic::Move::<true>(src), n) }
    }

    /// Fills `n <= MASKED_MAX` bytes with masked moves. The default is the
    /// ladder, for kernels without them.
    ///
    /// # Safety
    ///
    /// As [`crate::memset`], and `n <= MASKED_MAX`.
    #[inline(always)]
    unsafe fn fill_masked(dst: *mut u8, c: u8, n: usize) {
        // SAFETY: forwarded contract; MASKED_MAX <= 2W is const-asserted.
        unsafe { crate::generic::write_le_2w::<Self, _>(dst, crate::generic::Splat(c), n) }
    }

    /// Bytes a compare's block loop tests at a time: a multiple of `BYTES`,
    /// at most `NOLOOP_MAX` (const-asserted in `compare`). The copy's
    /// `LOOP_BLOCK` by default: a compare has no stores to crowd the store
    /// buffer, but a larger block costs `memcmp` more to search when it
    /// differs.
    const COMPARE_BLOCK: usize = Self::LOOP_BLOCK;

    /// Largest `n` that [`Tuning::diff_masked`] compares with one masked
    /// load per operand, tested first in place of the 1-16 B compares; 0
    /// (the default): the kernel has no masked loads. At least 16 where it
    /// is not 0, at most `2 * BYTES` (const-asserted in `compare`).
    const COMPARE_MASKED_MAX: usize = 0;

    /// The narrowest word that `memcmp`'s 1-16 B rungs compare in the
    /// lanes of a 16-byte vector ([`Vector::from_words`]) rather than in
    /// general-purpose registers: the head and tail words of each operand
    /// side by side, one compare, a branch on the mask to the equal answer,
    /// else one trailing-zero count and the two bytes there. Where the
    /// kernel has no 16-byte vector (the portable one) every width stays in
    /// registers ([`Word::order`](crate::compare::Word)). Against the
    /// branch-free register form, on `intel-6-167` (benches/NOTEBOOK.md,
    /// "`intel-6-167`: memcmp's 2-16 B words in a vector"): SSE equal 2-16 B
    /// 3.1-4.7 -> 2.2-3.2 TSC ticks (glibc's SSE2 `memcmp` 2.2-3.3), with a
    /// difference within 0.2; AVX2 equal 4-16 B 3.1-4.0 -> 2.2-2.8 (glibc
    /// 2.7-3.2), with a difference 0.1-0.4 slower; but AVX2 builds at 2-3 B
    /// gained nothing equal and lost 0.6 with a difference, so they start
    /// at 4 bytes and SSE at 2.
    const COMPARE_LANES_MIN: usize = 4;

    /// Compares `n <= COMPARE_MASKED_MAX` bytes with masked loads; the
    /// answer is as `compare::diff`'s (0 when equal, else `M::at` of a
    /// differing byte, the first one when `M` asks for it). The default is
    /// the compare ladder, for kernels without them.
    ///
    /// # Safety
    ///
    /// As [`crate::memcmp`], and `n <= COMPARE_MASKED_MAX`.
    #[inline(always)]
    unsafe fn diff_masked<M: crate::compare::Mode>(a: *const u8, b: *const u8, n: usize) -> i32 {
        // SAFETY: forwarded contract; COMPARE_MASKED_MAX <= 2W is
        // const-asserted.
        unsafe { crate::compare::diff_le_2w::<Self, M>(a, b, n) }
    }

    /// The kernel whose loop moves overlapping ranges above `NOLOOP_MAX`
    /// (going down when the destination starts inside the source, else
    /// up: `generic::write_loop`): this kernel itself, but for the AVX-512
    /// kernel in a build for Zen 4, which takes the AVX2 kernel's. A type,
    /// not a function taking the source, so that copies of
    /// `src/generic.rs` with their own `Source` (benches/experiments/
    /// ab-generic.sh) call it alike. Its `NOLOOP_MAX` must not exceed this
    /// kernel's (const-asserted in `generic`).
    type MoveLoop: Tuning;

    /// The kernel whose block loop compares above its own `NOLOOP_MAX`
    /// (`compare::diff_loop`, for `memcmp` and `bcmp`): this kernel
    /// itself, but for the AVX-512 kernel in a build for Zen 4, which takes
    /// the AVX2 kernel's, as [`MoveLoop`](Self::MoveLoop), from 256 B:
    /// there this kernel's no-loop classes compare up to 256 B, and the
    /// AVX2 loop above. Its `NOLOOP_MAX` must not exceed this kernel's
    /// (const-asserted in `compare`).
    type CompareLoop: Tuning;

    /// From this size on, a copy the unaligned loop would take below the
    /// string threshold (`memcpy` and a disjoint `memmove` whose pointers
    /// are not both aligned, `memcpy_generic` at any alignment) runs the
    /// unaligned loop of [`UnalignedCopyLoop`](Self::UnalignedCopyLoop)
    /// behind a call (`generic::write_unaligned_out_of_line`), so that the
    /// call site keeps its own loops. `usize::MAX` (the default): never;
    /// the AVX-512 kernel sets 2 KiB in a build for Zen 4. Above
    /// `NOLOOP_MAX` (const-asserted in `generic`). Fills keep their loops.
    const UNALIGNED_COPY_OUT_MIN: usize = usize::MAX;

    /// The kernel whose unaligned loop copies from
    /// [`UNALIGNED_COPY_OUT_MIN`](Self::UNALIGNED_COPY_OUT_MIN) on: this
    /// kernel itself, but for the AVX-512 kernel in a build for Zen 4,
    /// which takes the AVX2 kernel's. Its `NOLOOP_MAX` must not exceed
    /// this kernel's (const-asserted in `generic`).
    type UnalignedCopyLoop: Tuning;

    /// A copy for large `n` that beats the block loop: on x86, `rep movsb`.
    /// It also serves [`crate::memmove`] when `dst` is before `src`, so it
    /// must copy correctly going up over an overlap (`rep movsb` with the
    /// direction flag clear does). The default is the block loop itself,
    /// as a move going up.
    ///
    /// # Safety
    ///
    /// As [`crate::memmove`], with `n > NOLOOP_MAX`, and `dst` before
    /// `src` or the ranges disjoint.
    #[inline(always)]
    unsafe fn string_copy(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: forwarded contract; going up is safe by the caller.
        unsafe {
            crate::generic::write_loop::<Self, _>(dst, crate::generic::Move::<true>(src), n, false)
        }
    }

    /// A fill for large `n` that beats the block loop: on x86, `rep stosb`.
    /// The default is the block loop itself.
    ///
    /// # Safety
    ///
    /// As [`crate::memset`], with `n > NOLOOP_MAX`.
    #[inline(always)]
    unsafe fn string_fill(dst: *mut u8, c: u8, n: usize) {
        // SAFETY: forwarded contract.
        unsafe { crate::generic::write_loop::<Self, _>(dst, crate::generic::Splat(c), n, false) }
    }
}

#[inline(always)]
pub(crate) fn debug_assert_aligned<V: Vector>(p: *const u8) {
    debug_assert!(
        (p as usize).is_multiple_of(V::BYTES),
        "fastmem: aligned access to {p:p} is not aligned to {} bytes",
        V::BYTES
    );
}

/// How one side of a block is accessed; lets one block routine serve the
/// aligned and unaligned paths.
pub(crate) trait Access {
    /// Whether the addresses are aligned to the vector width.
    const ALIGNED: bool;
    /// Loads a `V` at `src`.
    ///
    /// # Safety
    ///
    /// As the matching [`Vector`] load.
    unsafe fn load<V: Vector>(src: *const u8) -> V;
    /// Stores `v` at `dst`.
    ///
    /// # Safety
    ///
    /// As the matching [`Vector`] store.
    unsafe fn store<V: Vector>(v: V, dst: *mut u8);
}

/// Any address.
pub(crate) enum Unaligned {}
/// Addresses aligned to the vector width.
pub(crate) enum Aligned {}
/// Addresses aligned to the vector width; stores are non-temporal
/// ([`Vector::store_nontemporal`]), loads are aligned ones.
pub(crate) enum NonTemporal {}

impl Access for Unaligned {
    const ALIGNED: bool = false;
    #[inline(always)]
    unsafe fn load<V: Vector>(src: *const u8) -> V {
        // SAFETY: forwarded contract.
        unsafe { V::load_unaligned(src) }
    }
    #[inline(always)]
    unsafe fn store<V: Vector>(v: V, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { v.store_unaligned(dst) }
    }
}

impl Access for Aligned {
    const ALIGNED: bool = true;
    #[inline(always)]
    unsafe fn load<V: Vector>(src: *const u8) -> V {
        // SAFETY: forwarded contract.
        unsafe { V::load_aligned(src) }
    }
    #[inline(always)]
    unsafe fn store<V: Vector>(v: V, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { v.store_aligned(dst) }
    }
}

impl Access for NonTemporal {
    const ALIGNED: bool = true;
    #[inline(always)]
    unsafe fn load<V: Vector>(src: *const u8) -> V {
        // SAFETY: forwarded contract.
        unsafe { V::load_aligned(src) }
    }
    #[inline(always)]
    unsafe fn store<V: Vector>(v: V, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { v.store_nontemporal(dst) }
    }
}

/// The scalar rungs. `u64` is also the portable kernel's vector (its tuning
/// is in `kernels/portable.rs`).
macro_rules! scalar_vector {
    ($($t:ty => $half:ty),* $(,)?) => {$(
        // SAFETY: an integer's size is its width; `read_unaligned` and
        // `write_unaligned` touch exactly `size_of::<$t>()` bytes.
        unsafe impl Vector for $t {
            const BYTES: usize = core::mem::size_of::<$t>();
            type Half = $half;

            #[inline(always)]
            fn splat(byte: u8) -> Self {
                <$t>::from_ne_bytes([byte; core::mem::size_of::<$t>()])
            }
            #[inline(always)]
            unsafe fn load_unaligned(src: *const u8) -> Self {
                // SAFETY: the caller guarantees `src..src + BYTES` is readable.
                unsafe { src.cast::<$t>().read_unaligned() }
            }
            #[inline(always)]
            unsafe fn store_unaligned(self, dst: *mut u8) {
                // SAFETY: the caller guarantees `dst..dst + BYTES` is writable.
                unsafe { dst.cast::<$t>().write_unaligned(self) }
            }

            const MASK_BITS: u32 = 8;
            #[inline(always)]
            fn ne_mask(self, other: Self) -> u64 {
                // A native load puts the byte at the lowest address in the
                // low bits only on little-endian targets; `to_le` swaps the
                // bytes on big-endian ones, so address order is bit order.
                (self ^ other).to_le() as u64
            }
            #[inline(always)]
            fn eq_mask(self, other: Self) -> u64 {
                (!(self ^ other)).to_le() as u64
            }
            #[inline(always)]
            fn xor(self, other: Self) -> Self {
                self ^ other
            }
            #[inline(always)]
            fn or(self, other: Self) -> Self {
                self | other
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
        }
    )*};
}

scalar_vector!(u64 => u32, u32 => u16, u16 => u8, u8 => u8);

static_assertions::assert_eq_size!(u64, [u8; 8]);
static_assertions::assert_eq_size!(u32, [u8; 4]);
static_assertions::assert_eq_size!(u16, [u8; 2]);
