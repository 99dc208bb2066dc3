//! The portable kernel: 8-byte general-purpose-register words (`u64`, whose
//! `Vector` impl is with the other scalar rungs in `vector.rs`).
//!
//! It is the kernel for every target without a SIMD tier, and for kernel and
//! firmware targets such as `x86_64-unknown-none`, where SIMD registers are
//! off. Blocks of 4 words keep the loop body to four load/store pairs, which
//! every 64-bit core can keep in flight.
//!
//! On x86 the words run out of speed early: the loop copies about 20 bytes
//! a tick and fills about 11, where `rep movsb`/`rep stosb` on an ERMS/FSRM
//! CPU reach 80 and more. So, as Linux's x86 `memcpy` does on FSRM CPUs,
//! large copies and fills go to the string instructions; the thresholds are
//! where they stop losing to the loop (below), and `--cfg
//! fastmem_no_rep_movsb` turns the hand-over off.

use crate::vector::Tuning;
use crate::Kernel;

impl Tuning for u64 {
    const KERNEL: Kernel = Kernel::Portable;
    type MoveLoop = Self;
    type CompareLoop = Self;
    type UnalignedCopyLoop = Self;
    const NOLOOP_MAX: usize = 64;
    const LOOP_BLOCK: usize = 32;

    /// `rep movsb` from 768 B. Measured on a Xeon with FSRM (CPUID model
    /// 207), hot in L1, TSC ticks per call, loop against `rep movsb`: 512 B
    /// 26.0 vs 31.3 aligned and 29.0 vs 40.6 unaligned (the loop wins);
    /// 768 B 38.4 vs 33.8 and 42.8 vs 43.7; 1 KiB 51.1 vs 34.9 and 55.1 vs
    /// 45.9; 8 KiB 414 vs 104 (benches/NOTEBOOK.md, "The C symbols").
    /// Below the loop, at 96-128 B, one `rep movsb` also wins on this
    /// CPU (7.8 ticks against 8.6-13.1), but only because it has FSRM:
    /// without it a short `rep movsb` starts in tens of cycles, and no
    /// stable target feature tells the two apart at compile time, so
    /// there is no such window (benches/NOTEBOOK.md, "The portable kernel
    /// against its peers").
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    const STRING_COPY_MIN: usize = super::string::cut_over(768);

    /// `rep stosb` from 512 B: 384 B 36.0 vs 34.9 aligned and 33.7 vs 33.2
    /// unaligned; 512 B 45.1 vs 40.5 and 44.3 vs 48.8 (a tie on average);
    /// 768 B 65.9 vs 43.2 and 61.6 vs 50.2; 8 KiB 695 vs 147.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    const STRING_FILL_MIN: usize = super::string::cut_over(512);

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn string_copy(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: forwarded contract.
        unsafe { super::string::rep_movsb(dst, src, n) }
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    unsafe fn string_fill(dst: *mut u8, c: u8, n: usize) {
        // SAFETY: forwarded contract.
        unsafe { super::string::rep_stosb(dst, c, n) }
    }
}
