//! The copies and fills of the calls that return early (0-128 bytes), and
//! the compares of 0-64 bytes, in vector registers 16-31, which an AVX-512
//! build can name: no `vzeroupper` on their return.
//!
//! A function that writes a ymm or zmm register among 0-15 leaves upper
//! state that legacy-SSE code would pay to merge, so LLVM puts a
//! `vzeroupper` before each of its returns. Registers 16-31 exist only in
//! the EVEX encoding, which leaves no such state: glibc's AVX-512 and EVEX
//! `memcpy` use them and return without it. On `intel-6-167` the
//! `vzeroupper` cost a called AVX-512 copy 0.5-0.8 TSC ticks, most of the
//! gap to glibc at 33-128 B (benches/NOTEBOOK.md, "`intel-6-167`: called
//! AVX-512 copies of 33-128 B pay for `vzeroupper`", and "`intel-6-167`:
//! the early returns in registers 16-31"). Inlined, the `vzeroupper` is at
//! the caller's return, and nothing changes.
//!
//! LLVM's register allocator does not prefer registers 16-31, and a value
//! passed from one `asm!` block to another may land in `zmm0`; so each
//! function here is one block that loads and stores, with the registers
//! named, the mask register too: an `asm!` operand of class `kreg` failed
//! to compile where a crate without AVX-512 (a doctest built without
//! `RUSTDOCFLAGS`) instantiated it, a named `k1` does not. A fill
//! broadcasts its byte inside its block, from a general register (the
//! byte zero-extended first, one `movzx`). The vector as an operand bound
//! to `zmm16` by name, which LLVM broadcasts into directly, ran called
//! fills of 1-64 B 0.1-0.2 ticks faster, but fails to compile in a crate
//! without AVX-512 ("couldn't allocate input reg for constraint
//! '{zmm16}'"), and as a `#[target_feature]` function it was not inlined
//! in `ci/codegen.sh`'s avx512bw build (`-C
//! target-feature=+avx512f,+avx512bw,+avx512vl,+bmi2`: a call). Fills of
//! 0-128 B called through the exported `memset` took 2.8-2.9 ticks with
//! `vzeroupper` and 2.1-2.5 without on `intel-6-167` (glibc 2.4-2.8;
//! benches/NOTEBOOK.md, "`intel-6-167`: fills in registers
//! 16-31"). [`ON`] where the build has AVX-512BW and AVX-512VL (byte masks on
//! ymm16, 256-bit EVEX moves) on x86-64, and `--cfg fastmem_low_regs` is
//! not set: `-C target-cpu=native` on every AVX-512 CPU since Skylake-SP.
//! Elsewhere the callers keep the intrinsics, and these functions are
//! never reached. A build for Zen 4 keeps the intrinsics for copies and
//! moves of 33-64 B, which ran faster called with them there
//! ([`YMM_COPIES`]).

cfg_if::cfg_if! {
    if #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512bw",
        target_feature = "avx512vl",
        not(fastmem_low_regs)
    ))] {
        use core::arch::asm;

        /// Whether the early-return copies and compares use registers
        /// 16-31.
        pub(crate) const ON: bool = true;

        /// Whether copies and moves of 33-64 B (two ymm vectors, one from
        /// each end) use them too ([`copy_ends`] with `w` 32): not in a
        /// build for Zen 4 ([`AMD_ZEN4`](super::cores::AMD_ZEN4)). On
        /// `amd-25-17`, nine rounds, called copies of 33-64 B took 4.9
        /// TSC ticks through ymm16/ymm17 (loads first or not) and 4.2
        /// through the intrinsics' `ymm0` with `vzeroupper` (DPDK's
        /// `rte_memcpy` 4.2), the exported `memcpy` 6.0-6.4 against
        /// 5.1-5.8, aligned and at dst+1/src+3 alike; inlined, mixed
        /// sizes, moves, and the masked 1-32 B and zmm 65-128 B classes
        /// within 0.1 either way (benches/NOTEBOOK.md, "`amd-25-17`:
        /// copies of 33-64 B out of registers 16-31").
        pub(crate) const YMM_COPIES: bool = !super::cores::AMD_ZEN4;

        /// One vector of `$w` bytes at each end of `0..$n`, in `$r`16 and
        /// `$r`17 (`$r` is `ymm` or `zmm`), both loaded first.
        macro_rules! ends {
            ($r:literal, $w:literal, $dst:expr, $src:expr, $n:expr) => {
                asm!(
                    concat!("vmovdqu64 ", $r, "16, [{s}]"),
                    concat!("vmovdqu64 ", $r, "17, [{s} + {n} - ", $w, "]"),
                    concat!("vmovdqu64 [{d}], ", $r, "16"),
                    concat!("vmovdqu64 [{d} + {n} - ", $w, "], ", $r, "17"),
                    s = in(reg) $src,
                    d = in(reg) $dst,
                    n = in(reg) $n,
                    out("zmm16") _,
                    out("zmm17") _,
                    options(nostack, preserves_flags),
                )
            };
        }

        /// Copies `0..n`, `w <= n <= 2w` (`w` 32 or 64), as one vector of
        /// `w` bytes at each end, both loaded before either is stored (so a
        /// move may overlap).
        ///
        /// # Safety
        ///
        /// `w` is 32 or 64, `w <= n <= 2 * w`, `0..n` is readable at `src`
        /// and writable at `dst`.
        #[inline(always)]
        pub(crate) unsafe fn copy_ends(dst: *mut u8, src: *const u8, n: usize, w: usize) {
            debug_assert!((w == 32 || w == 64) && w <= n && n <= 2 * w);
            // SAFETY: the four moves touch `0..w` and `n - w..n`, inside
            // `0..n`; AVX-512F (VL for the ymm form) is enabled.
            unsafe {
                if w == 64 {
                    ends!("zmm", "64", dst, src, n)
                } else {
                    ends!("ymm", "32", dst, src, n)
                }
            }
        }

        /// Copies the bytes of `0..32` whose bit is set in `k` with one
        /// byte-masked ymm16 load and store; masked-off bytes are not
        /// accessed and cannot fault.
        ///
        /// # Safety
        ///
        /// The bytes `k` selects are readable at `src` and writable at `dst`.
        #[inline(always)]
        pub(crate) unsafe fn copy_masked(dst: *mut u8, src: *const u8, k: u32) {
            // SAFETY: the caller's contract; AVX-512BW and VL are enabled.
            unsafe {
                asm!(
                    "kmovd k1, {k:e}",
                    "vmovdqu8 ymm16 {{k1}} {{z}}, ymmword ptr [{s}]",
                    "vmovdqu8 ymmword ptr [{d}] {{k1}}, ymm16",
                    s = in(reg) src,
                    d = in(reg) dst,
                    k = in(reg) k,
                    out("k1") _,
                    out("zmm16") _,
                    options(nostack, preserves_flags),
                )
            }
        }

        /// Fills `0..n`, `w <= n <= 2w` (`w` 32 or 64), with `c`: one
        /// vector of `w` bytes at each end, broadcast into `$r`16.
        ///
        /// # Safety
        ///
        /// `w` is 32 or 64, `w <= n <= 2 * w`, `0..n` is writable at `dst`.
        #[inline(always)]
        pub(crate) unsafe fn fill_ends(dst: *mut u8, c: u8, n: usize, w: usize) {
            debug_assert!((w == 32 || w == 64) && w <= n && n <= 2 * w);
            macro_rules! fill {
                ($r:literal, $w:literal) => {
                    asm!(
                        concat!("vpbroadcastb ", $r, "16, {c:e}"),
                        concat!("vmovdqu64 [{d}], ", $r, "16"),
                        concat!("vmovdqu64 [{d} + {n} - ", $w, "], ", $r, "16"),
                        c = in(reg) u32::from(c),
                        d = in(reg) dst,
                        n = in(reg) n,
                        out("zmm16") _,
                        options(nostack, preserves_flags),
                    )
                };
            }
            // SAFETY: the two stores touch `0..w` and `n - w..n`, inside
            // `0..n`; AVX-512BW (VL for the ymm form) is enabled.
            unsafe {
                if w == 64 {
                    fill!("zmm", "64")
                } else {
                    fill!("ymm", "32")
                }
            }
        }

        /// Fills the bytes of `0..32` whose bit is set in `k` with `c`, one
        /// byte-masked ymm16 store; masked-off bytes are not accessed.
        ///
        /// # Safety
        ///
        /// The bytes `k` selects are writable at `dst`.
        #[inline(always)]
        pub(crate) unsafe fn fill_masked(dst: *mut u8, c: u8, k: u32) {
            // SAFETY: the caller's contract; AVX-512BW and VL are enabled.
            unsafe {
                asm!(
                    "kmovd k1, {k:e}",
                    "vpbroadcastb ymm16, {c:e}",
                    "vmovdqu8 ymmword ptr [{d}] {{k1}}, ymm16",
                    c = in(reg) u32::from(c),
                    d = in(reg) dst,
                    k = in(reg) k,
                    out("k1") _,
                    out("zmm16") _,
                    options(nostack, preserves_flags),
                )
            }
        }

        /// `memcmp` (`first`) or `bcmp` of the bytes of `0..w` whose bit is
        /// set in `k`: 0 when they are equal, else `a[i] - b[i]` at the
        /// first `i` where they differ (`compare::Order::at`), or 1. Two
        /// byte-masked loads into ymm16/ymm17 (`w` 32) or zmm16/zmm17 (`w`
        /// 64; masked-off bytes are not accessed, cannot fault, and load as
        /// zero on both sides), one byte compare, and the answer: for
        /// `memcmp` the trailing-zero count, the branch to the equal answer
        /// and the two byte loads; for `bcmp` a `kortestq` and a `setnz`.
        ///
        /// All in one block: with the branch or the `setne` outside it,
        /// LLVM merged the class's return with the same return of the
        /// wider classes, which carries their `vzeroupper`: 1-32 equal
        /// bytes ran 0.78-0.84x glibc on `intel-6-167` in `memcmp`, and
        /// `bcmp` of 1-64 took 3.5 ticks where its own return took 2.8
        /// (benches/NOTEBOOK.md, "`intel-6-167`: memcmp's equal return in
        /// registers 16-31", "`intel-6-167`: memcmp's one-vector pairs
        /// from their masks"). `tzcnt` sets the carry flag exactly when the
        /// mask is zero; on a CPU without BMI1 it runs as `bsf`, which
        /// leaves the carry flag undefined, but every CPU with AVX-512BW
        /// has BMI1.
        ///
        /// # Safety
        ///
        /// `w` is 32 or 64, `k` selects bytes of `0..w` only, and those
        /// are readable at `a` and at `b`.
        #[inline(always)]
        pub(crate) unsafe fn diff_masked(a: *const u8, b: *const u8, k: u64, w: usize, first: bool) -> i32 {
            debug_assert!((w == 32 && k >> 32 == 0) || w == 64);
            let r: i32;
            // One block, in `$r`16 and `$r`17 (`$r` is `ymm` or `zmm`):
            // the masked loads and the compare, then `$tail`, which
            // answers in `{r}` from the differing bytes in `k1`.
            macro_rules! answer {
                ($r:literal, $($tail:literal),+) => {
                    asm!(
                        "kmovq k1, {k}",
                        concat!("vmovdqu8 ", $r, "16 {{k1}} {{z}}, [{a}]"),
                        concat!("vmovdqu8 ", $r, "17 {{k1}} {{z}}, [{b}]"),
                        concat!("vpcmpneqb k1, ", $r, "16, ", $r, "17"),
                        "xor {r:e}, {r:e}",
                        $($tail),+,
                        a = in(reg) a,
                        b = in(reg) b,
                        k = inout(reg) k => _,
                        r = out(reg) r,
                        out("k1") _,
                        out("zmm16") _,
                        out("zmm17") _,
                        options(nostack, readonly),
                    )
                };
            }
            macro_rules! by_width {
                ($($tail:literal),+) => {
                    if w == 64 {
                        answer!("zmm", $($tail),+)
                    } else {
                        answer!("ymm", $($tail),+)
                    }
                };
            }
            // SAFETY: the caller's contract; the byte loads are at the
            // first differing index, among the bytes `k` selects (masked-
            // off bytes load as zero on both sides and never differ).
            // AVX-512BW (and VL for ymm) is enabled.
            unsafe {
                if first {
                    by_width!(
                        "kmovq {k}, k1",
                        "tzcnt {k}, {k}",
                        "jc 2f",
                        "movzx {r:e}, byte ptr [{a} + {k}]",
                        "movzx {k:e}, byte ptr [{b} + {k}]",
                        "sub {r:e}, {k:e}",
                        "2:"
                    )
                } else {
                    by_width!("kortestq k1, k1", "setnz {r:l}")
                }
            }
            r
        }
    } else {
        /// Whether the early-return copies and compares use registers
        /// 16-31.
        pub(crate) const ON: bool = false;

        /// Whether copies and moves of 33-64 B use them too.
        pub(crate) const YMM_COPIES: bool = false;

        /// Not reached: the callers test [`ON`].
        #[inline(always)]
        #[allow(dead_code)] // the AVX-512BW kernel's masked compare asks
        pub(crate) unsafe fn diff_masked(_: *const u8, _: *const u8, _: u64, _: usize, _: bool) -> i32 {
            unreachable!("high::diff_masked without high::ON")
        }

        /// Not reached: the callers test [`ON`].
        #[inline(always)]
        pub(crate) unsafe fn copy_ends(_: *mut u8, _: *const u8, _: usize, _: usize) {
            unreachable!("high::copy_ends without high::ON")
        }

        /// Not reached: the callers test [`ON`].
        #[inline(always)]
        #[allow(dead_code)] // the AVX-512BW/VL kernel's masked moves ask
        pub(crate) unsafe fn copy_masked(_: *mut u8, _: *const u8, _: u32) {
            unreachable!("high::copy_masked without high::ON")
        }

        /// Not reached: the callers test [`ON`].
        #[inline(always)]
        pub(crate) unsafe fn fill_ends(_: *mut u8, _: u8, _: usize, _: usize) {
            unreachable!("high::fill_ends without high::ON")
        }

        /// Not reached: the callers test [`ON`].
        #[inline(always)]
        #[allow(dead_code)] // the AVX-512BW/VL kernel's masked moves ask
        pub(crate) unsafe fn fill_masked(_: *mut u8, _: u8, _: u32) {
            unreachable!("high::fill_masked without high::ON")
        }
    }
}
