//! The kernels: one [`Vector`](crate::vector::Vector) impl per tier, each
//! beside the [`Tuning`](crate::vector::Tuning) constants chosen for it.
//!
//! Each impl is gated on its own target feature, not on being selected, so
//! an AVX-512 build also compiles, and unit-tests, the SSE and AVX2 kernels.

/// Implements `Vector` for an x86 SIMD register type from its four memory
/// intrinsics, which touch exactly `size_of::<$t>()` bytes, its two bitwise
/// intrinsics, and the kernel file's `ne_mask`, `eq_mask` and `is_zero`
/// functions.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
macro_rules! simd_vector {
    ($t:ty, half = $half:ty, splat = $splat:ident,
     load = ($loadu:ident, $loada:ident), store = ($storeu:ident, $storea:ident),
     xor = $xor:ident, or = $or:ident, ne_mask = $ne_mask:path, eq_mask = $eq_mask:path, is_zero = $is_zero:path,
     stream = $stream:ident) => {
        // SAFETY: the intrinsics load and store exactly `size_of::<$t>()`
        // bytes (asserted below to be `BYTES`); the target feature they need
        // is enabled at compile time wherever this impl is compiled.
        unsafe impl $crate::vector::Vector for $t {
            const BYTES: usize = core::mem::size_of::<$t>();
            type Half = $half;

            #[inline(always)]
            fn splat(byte: u8) -> Self {
                // SAFETY: the intrinsic only needs its target feature, which
                // is enabled for the whole build wherever this impl compiles.
                unsafe { $splat(byte as i8) }
            }
            #[inline(always)]
            unsafe fn load_unaligned(src: *const u8) -> Self {
                // SAFETY: the caller guarantees `src..src + BYTES` is readable.
                unsafe { $loadu(src.cast()) }
            }
            #[inline(always)]
            unsafe fn store_unaligned(self, dst: *mut u8) {
                // SAFETY: the caller guarantees `dst..dst + BYTES` is writable.
                unsafe { $storeu(dst.cast(), self) }
            }
            #[inline(always)]
            unsafe fn load_aligned(src: *const u8) -> Self {
                $crate::vector::debug_assert_aligned::<Self>(src);
                // SAFETY: readable (caller) and aligned (caller, checked above).
                unsafe { $loada(src.cast()) }
            }
            #[inline(always)]
            unsafe fn store_aligned(self, dst: *mut u8) {
                $crate::vector::debug_assert_aligned::<Self>(dst);
                // SAFETY: writable (caller) and aligned (caller, checked above).
                unsafe { $storea(dst.cast(), self) }
            }

            const MASK_BITS: u32 = 1;
            #[inline(always)]
            fn ne_mask(self, other: Self) -> u64 {
                $ne_mask(self, other)
            }
            #[inline(always)]
            fn eq_mask(self, other: Self) -> u64 {
                $eq_mask(self, other)
            }
            #[inline(always)]
            fn xor(self, other: Self) -> Self {
                // SAFETY: register-only; its target feature is enabled.
                unsafe { $xor(self, other) }
            }
            #[inline(always)]
            fn or(self, other: Self) -> Self {
                // SAFETY: register-only; its target feature is enabled.
                unsafe { $or(self, other) }
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                $is_zero(self)
            }
            const NONTEMPORAL: bool = true;

            #[inline(always)]
            unsafe fn store_nontemporal(self, dst: *mut u8) {
                $crate::vector::debug_assert_aligned::<Self>(dst);
                // SAFETY: writable (caller) and aligned (caller, checked
                // above), as the streaming store requires.
                unsafe { $stream(dst.cast(), self) }
            }
            #[inline(always)]
            fn nontemporal_fence() {
                // SAFETY: `sfence` (SSE, part of every x86 SIMD tier) has no
                // precondition.
                unsafe { _mm_sfence() }
            }
        }
    };
}

/// The x86 intrinsics and register types, for either width of x86.
#[cfg(target_arch = "x86")]
pub(crate) use core::arch::x86 as arch;
#[cfg(target_arch = "x86_64")]
pub(crate) use core::arch::x86_64 as arch;

pub(crate) mod portable;

/// x86's string instructions, which some kernels hand large sizes to.
///
/// Every CPU with AVX2 has ERMS (fast `rep movsb`/`rep stosb`), but not
/// every one runs them fast: on AMD's Zen 3 the 32-byte loop beat them at
/// every size measured (see `string::AMD_CORES`). `--cfg
/// fastmem_no_rep_movsb` turns the hand-over off on any build, so the
/// block loop runs at every size.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) mod string {
    /// Whether the build is for AMD cores: `sse4a` is an AMD extension
    /// that no Intel CPU has, so `-C target-cpu=native` on an AMD machine
    /// (or `target-cpu=znver3`) sets it, and a build for an Intel CPU
    /// never does. A build that names features one by one (`-C
    /// target-feature=+avx2`) does not say, and gets the Intel choices.
    ///
    /// Measured on an AMD EPYC (Zen 3, CPUID family 25 model 1;
    /// BENCHMARKS.md, "`amd-25-1`: the string instructions"), AVX2 tier:
    /// hot copies of 4-8 KiB took 121-217 ticks aligned and 170-314 with
    /// dst+1/src+3 under `rep movsb`, 98-195 and 103-200 in the 32-byte
    /// loop; single copies of 16 KiB-4 MiB ran 0.98-1.11x `rep movsb`'s
    /// speed in the loop, and fills of 16 KiB-4 MiB 1.01-1.08x `rep
    /// stosb`'s. On the Intel CPU measured the string instructions win
    /// there (the kernels' thresholds say by how much).
    #[cfg(target_feature = "avx2")] // the kernels that ask: AVX2
    pub(crate) const AMD_CORES: bool = cfg!(target_feature = "sse4a");

    /// The first size handed to `rep movsb`/`rep stosb` when the cut-over is
    /// on; `usize::MAX` when `fastmem_no_rep_movsb` turns it off.
    pub(crate) const fn cut_over(min: usize) -> usize {
        if cfg!(fastmem_no_rep_movsb) {
            usize::MAX
        } else {
            min
        }
    }

    /// Copies `n` bytes with `rep movsb`.
    ///
    /// # Safety
    ///
    /// `src..src + n` readable, `dst..dst + n` writable, not overlapping.
    #[inline(always)]
    pub(crate) unsafe fn rep_movsb(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: `rep movsb` copies exactly `n` bytes forwards (the ABI
        // guarantees the direction flag is clear) within the ranges the
        // caller vouches for; the three registers it consumes are declared.
        unsafe {
            core::arch::asm!(
                "rep movsb",
                inout("ecx") n => _,
                inout("edi") dst => _,
                inout("esi") src => _,
                options(nostack, preserves_flags),
            )
        }
    }

    /// The `Tuning::string_copy` and `string_fill` of a kernel that hands
    /// large sizes to `rep movsb` and `rep stosb`, from its thresholds.
    macro_rules! rep_string_fns {
        () => {
            #[inline(always)]
            unsafe fn string_copy(dst: *mut u8, src: *const u8, n: usize) {
                // SAFETY: forwarded contract.
                unsafe { $crate::kernels::string::rep_movsb(dst, src, n) }
            }

            #[inline(always)]
            unsafe fn string_fill(dst: *mut u8, c: u8, n: usize) {
                // SAFETY: forwarded contract.
                unsafe { $crate::kernels::string::rep_stosb(dst, c, n) }
            }
        };
    }
    pub(crate) use rep_string_fns;

    /// Sets `n` bytes at `dst` to `c` with `rep stosb`.
    ///
    /// # Safety
    ///
    /// `dst..dst + n` writable.
    #[inline(always)]
    pub(crate) unsafe fn rep_stosb(dst: *mut u8, c: u8, n: usize) {
        // SAFETY: `rep stosb` writes exactly `n` bytes forwards within the
        // range the caller vouches for; its registers are declared.
        unsafe {
            core::arch::asm!(
                "rep stosb",
                inout("ecx") n => _,
                inout("edi") dst => _,
                in("al") c,
                options(nostack, preserves_flags),
            )
        }
    }
}

#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
pub(crate) mod sse;

#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "avx2"
))]
pub(crate) mod avx2;

#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "avx512f"
))]
pub(crate) mod avx512;
