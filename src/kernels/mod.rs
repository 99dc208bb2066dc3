//! The kernels: one [`Vector`](crate::vector::Vector) impl per tier, each
//! beside the [`Tuning`](crate::vector::Tuning) constants chosen for it.
//!
//! Each impl is gated on its own target feature, not on being selected, so
//! an AVX-512 build also compiles, and unit-tests, the SSE and AVX2 kernels.

/// Implements `Vector` for an x86 SIMD register type from its four memory
/// intrinsics, which touch exactly `size_of::<$t>()` bytes, its two bitwise
/// intrinsics, and the kernel file's `ne_mask`, `eq_mask` and `is_zero`
/// functions; `words`, the intrinsic that sets two 64-bit lanes, for the
/// 16-byte type (`Vector::from_words`); `joinable`, `Vector::JOINABLE`
/// (the 32-byte type).
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
macro_rules! simd_vector {
    ($t:ty, half = $half:ty, splat = $splat:ident,
     load = ($loadu:ident, $loada:ident), store = ($storeu:ident, $storea:ident),
     xor = $xor:ident, or = $or:ident, ne_mask = $ne_mask:path, eq_mask = $eq_mask:path, is_zero = $is_zero:path,
     stream = $stream:ident $(, words = $words:ident)? $(, joinable = $joinable:expr)?) => {
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
            $(
            const JOINABLE: bool = $joinable;
            )?
            $(
            #[inline(always)]
            fn from_words(lo: u64, hi: u64) -> Option<Self> {
                // SAFETY: register-only; its target feature is enabled.
                Some(unsafe { $words(hi as i64, lo as i64) })
            }
            )?
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

/// Which cores a build is for, where its target features tell. A build
/// that names features one by one (`-C target-feature=+avx2`), or the
/// x86_64 baseline, does not say, and gets the choices measured on Intel.
///
/// The AMD keys are `sse4a`, an AMD extension that no Intel CPU has (so
/// `-C target-cpu=native` on an AMD machine, or `target-cpu=znver3`, sets
/// it and a build for an Intel CPU never does), with `avx512f`, which
/// separates Zen 4 and later from Zen 1-3. The two generations disagree on
/// the string instructions and on streaming stores (BENCHMARKS.md,
/// "`amd-25-1`: the string instructions" and "`amd-26-2`: large copies").
/// A Zen 4 whose hypervisor hides AVX-512 has a Zen 3's features
/// (`amd-25-17`); the large-copy path, the one where that matters, asks
/// CPUID's model at run time ([`cores::at_run_time`]).
pub(crate) mod cores {
    /// A build for AMD cores, any generation (`sse4a`).
    pub(crate) const AMD: bool = cfg!(target_feature = "sse4a");

    /// A build for AMD cores with AVX2 and without AVX-512: Zen 1-3 (and
    /// Excavator, the one earlier AMD core with AVX2, which shares the
    /// features and is not measured). Measured on a Zen 3 EPYC
    /// (`amd-25-1`): the AVX2 kernel's 32-byte loop beat `rep movsb` and
    /// `rep stosb` hot at every size from 4 KiB, and streaming stores won
    /// from 8 MiB (`large::nontemporal_min_default`). A Zen 4 with AVX-512
    /// hidden (`amd-25-17`) has these features too: there the loop tied
    /// the string instructions from 16 KiB to 8 MiB, and the large path
    /// asks CPUID which core it is on.
    pub(crate) const AMD_ZEN3: bool = cfg!(target_feature = "sse4a")
        && cfg!(target_feature = "avx2")
        && !cfg!(target_feature = "avx512f");

    /// A build for AMD cores with AVX-512: Zen 4 and Zen 5. Measured on a
    /// Zen 5 EPYC (`amd-26-2`) and on a Zen 4 with AVX-512 visible
    /// (`amd-25-17`, AVX-512 kernel):
    /// - hot copies of 4-8 KiB took 1.5-1.8x the vector loop's time with
    ///   `rep movsb` on the Zen 5, which wins there from 26 KiB (52 KiB of
    ///   buffers, beyond the 48 KiB L1d): 57-63 against 34-57 B/tick; on
    ///   the Zen 4 the loop won to 17 KiB and tied from 18 KiB;
    /// - fills ran 1.17-1.47x faster in the vector loop than with `rep
    ///   stosb` at 8-768 KiB on the Zen 5, tied at 1 MiB (the L2), lost
    ///   from 1.5 MiB; on the Zen 4 the loop won 1.0-1.2x at 8-64 KiB and
    ///   tied at 256 KiB-2 MiB (0.92-1.05x);
    /// - streaming copies won at 4-16 MiB on the Zen 5 (1.02-1.14x) and at
    ///   8-24 MiB on the Zen 4 (1.00-1.62x), and lost from 32 MiB to `rep
    ///   movsb` (0.73-0.88x); streaming fills lost to `rep stosb` up to
    ///   24 MiB on the Zen 4 (0.29-0.76x) and tied it beyond.
    pub(crate) const AMD_AVX512: bool =
        cfg!(target_feature = "sse4a") && cfg!(target_feature = "avx512f");

    /// Of those, a build for Zen 4, whose 512-bit stores take two 256-bit
    /// store operations each: without `avxvnni`, which Zen 5 has and Zen 4
    /// does not (`-C target-cpu=znver5` sets it, `znver4` does not). See
    /// `Tuning::HALVES_AT_WIDTH` and `Tuning::LOAD_FIRST`.
    #[cfg(target_feature = "avx2")] // the kernels that ask
    pub(crate) const AMD_ZEN4: bool = AMD_AVX512 && !AMD_ZEN5;

    /// And a build for Zen 5: with `avxvnni` (`-C target-cpu=znver5`),
    /// whose 512-bit stores are one operation each. See
    /// `Tuning::HALVES_AT_WIDTH`.
    #[cfg(target_feature = "avx2")] // the kernels that ask
    pub(crate) const AMD_ZEN5: bool = AMD_AVX512 && cfg!(target_feature = "avxvnni");

    /// The cores [`at_run_time`] tells apart: the run-time form of
    /// [`AMD_ZEN3`] and [`AMD_AVX512`].
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub(crate) enum Core {
        /// Not an AMD core, or one without AVX2 (nothing measured).
        Other = 1,
        /// AMD's Zen 1-3 (and Excavator): AMD with AVX2, a family before
        /// 26, and, in family 25, a Zen 3 model without AVX-512F. What
        /// [`AMD_ZEN3`]'s features say, but those also fit a Zen 4 whose
        /// hypervisor hides AVX-512, which only the model tells apart.
        AmdZen3 = 2,
        /// AMD's Zen 4 and later ([`AMD_AVX512`]'s cores): AVX-512F, or
        /// family 26 and later, or a Zen 4 model of family 25, whatever
        /// the features say.
        AmdZen4 = 3,
    }

    /// The [`Core`] a build is for, by its target features: the
    /// compile-time form of [`at_run_time`]. Only [`Core::AmdZen4`] is
    /// certain: [`AMD_ZEN3`]'s features also fit a Zen 4 whose hypervisor
    /// hides AVX-512 (`amd-25-17`, a Genoa guest), which
    /// [`BUILT_FOR_CERTAIN`] leaves to [`at_run_time`].
    pub(crate) const BUILT_FOR: Core = if AMD_AVX512 {
        Core::AmdZen4
    } else if AMD_ZEN3 {
        Core::AmdZen3
    } else {
        Core::Other
    };

    /// Whether the build's features name its [`Core`] for certain: only a
    /// build for AVX-512 on AMD does. The x86_64 baseline, features named
    /// one by one (no `sse4a`), and [`AMD_ZEN3`]'s features (a Zen 1-3, or
    /// a Zen 4 with AVX-512 hidden) leave the question to [`at_run_time`].
    pub(crate) const BUILT_FOR_CERTAIN: bool = AMD_AVX512;

    /// Which of [`Core`] the CPU this runs on is, asked of CPUID once and
    /// remembered: for the builds whose target features do not tell
    /// ([`BUILT_FOR_CERTAIN`]). Only
    /// the out-of-line large-copy path asks (`large::streams`), so no call
    /// site pays for it.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    pub(crate) fn at_run_time() -> Core {
        use core::sync::atomic::{AtomicU8, Ordering::Relaxed};
        // 0: not asked yet; else the answer's discriminant. Relaxed: every
        // thread that asks computes the same value.
        static ANSWER: AtomicU8 = AtomicU8::new(0);
        match ANSWER.load(Relaxed) {
            1 => Core::Other,
            2 => Core::AmdZen3,
            3 => Core::AmdZen4,
            _ => {
                let core = CpuId::read().core();
                ANSWER.store(core as u8, Relaxed);
                core
            }
        }
    }

    /// The CPUID fields [`CpuId::core`] decides on.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    pub(crate) struct CpuId {
        /// Leaf 0's vendor string: ebx, edx, ecx, little-endian.
        pub(crate) vendor: [u8; 12],
        /// Leaf 1, eax: the base family (bits 8-11), plus the extended
        /// family (bits 20-27) when the base is 15.
        pub(crate) family: u32,
        /// Leaf 1, eax: the base model (bits 4-7), with the extended model
        /// (bits 16-19) above it when the base family is 6 or 15.
        pub(crate) model: u32,
        /// Leaf 7, subleaf 0, ebx bit 5, where leaf 7 exists.
        pub(crate) avx2: bool,
        /// Leaf 7, subleaf 0, ebx bit 16, where leaf 7 exists.
        pub(crate) avx512f: bool,
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    impl CpuId {
        /// Asks CPUID (leaves 0, 1 and 7).
        pub(crate) fn read() -> CpuId {
            use super::arch::{__cpuid, __cpuid_count};
            let leaf0 = __cpuid(0);
            let mut vendor = [0; 12];
            for (i, r) in [leaf0.ebx, leaf0.edx, leaf0.ecx].into_iter().enumerate() {
                vendor[4 * i..4 * i + 4].copy_from_slice(&r.to_le_bytes());
            }
            let eax = __cpuid(1).eax;
            let base = (eax >> 8) & 0xf;
            let family = base + if base == 0xf { (eax >> 20) & 0xff } else { 0 };
            let ext_model = if base == 0x6 || base == 0xf {
                (eax >> 16) & 0xf
            } else {
                0
            };
            let model = (ext_model << 4) | ((eax >> 4) & 0xf);
            let ebx7 = if leaf0.eax >= 7 {
                __cpuid_count(7, 0).ebx
            } else {
                0
            };
            CpuId {
                vendor,
                family,
                model,
                avx2: ebx7 & (1 << 5) != 0,
                avx512f: ebx7 & (1 << 16) != 0,
            }
        }

        /// The [`Core`] these fields name. Family 25 holds Zen 3 (models
        /// 0x00-0x0f and 0x20-0x5f) and Zen 4 (0x10-0x1f and 0x60-0xaf),
        /// as Linux sorts them (`bsp_init_amd`); family 26 is Zen 5, 23
        /// Zen 1 and 2. A hypervisor may hide AVX-512F, not the core's
        /// string instructions, which the choice rests on, so a Zen 4 model
        /// and any later family count as Zen 4 whatever the features say:
        /// the Genoa guest measured (`amd-25-17`, model 0x11, AVX-512
        /// hidden) copied 64-256 MiB with `rep movsb` 1.08-1.37x faster than
        /// with streaming stores, as the Zen 5 did. A family-25 model
        /// outside both ranges counts as Zen 4, the newer of the two.
        pub(crate) fn core(&self) -> Core {
            let zen3_model = matches!(self.model, 0x00..=0x0f | 0x20..=0x5f);
            if &self.vendor != b"AuthenticAMD" {
                Core::Other
            } else if self.avx512f || self.family >= 26 || (self.family == 25 && !zen3_model) {
                Core::AmdZen4
            } else if self.avx2 {
                Core::AmdZen3
            } else {
                Core::Other
            }
        }
    }
}

/// x86's string instructions, which some kernels hand large sizes to.
///
/// Every CPU with AVX2 has ERMS (fast `rep movsb`/`rep stosb`), but not
/// every one runs them fast: on AMD's Zen 3 the 32-byte loop beat them at
/// every size measured (see [`cores`]). `--cfg fastmem_no_rep_movsb` turns
/// the hand-over off on any build, so the block loop runs at every size.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) mod string {
    /// Where a build for Zen 4/5 ([`AMD_AVX512`](super::cores::AMD_AVX512))
    /// hands copies to `rep movsb`, on the AVX2 and AVX-512 kernels alike:
    /// 26 KiB. On the Zen 5 measured (48 KiB L1d) the loop ran 61-79 B/tick
    /// at 16-25 KiB against `rep movsb`'s 52-62, and 34-57 from 26 KiB
    /// against 57-63, once source and destination no longer fit the L1d
    /// (two runs of 31 rounds per tier). On the Zen 4 (`amd-25-17` with
    /// AVX-512 visible, 32 KiB L1d; AVX-512 kernel, three runs of 31
    /// rounds) the loop ran 1.07-1.17x `rep movsb` at 16 KiB and 1.03-1.06x
    /// at 17 KiB, and tied it (0.98-1.10x) from 18 KiB to 2 MiB, so Zen 5's
    /// threshold costs it nothing, where Zen 5's L1d rule (16 KiB on a
    /// 32 KiB L1d) lost up to 15% at 16-17 KiB (benches/NOTEBOOK.md, "`amd-25-17`
    /// with AVX-512: the string and streaming thresholds").
    #[cfg(target_feature = "avx2")]
    pub(crate) const AMD_AVX512_COPY_MIN: usize = cut_over(26 << 10);

    /// Where a build for Zen 4/5 hands fills to `rep stosb`, on both kernels:
    /// past the L2 (1 MiB on Zen 4 and Zen 5). On the Zen 5 measured the
    /// vector loop filled 8-768 KiB 1.17-1.47x faster, 1 MiB at 59-67
    /// B/tick against 61-62, and 1.5 MiB at 45-46 against 50-51.
    #[cfg(target_feature = "avx2")]
    pub(crate) const AMD_AVX512_FILL_MIN: usize = cut_over(1 << 20);

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

pub(crate) mod high;
