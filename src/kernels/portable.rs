//! The portable kernel: 8-byte general-purpose-register words (`u64`, whose
//! `Vector` impl is with the other scalar rungs in `vector.rs`).
//!
//! It is the kernel for every target without a SIMD tier, and for kernel and
//! firmware targets such as `x86_64-unknown-none`, where SIMD registers are
//! off. Blocks of 4 words keep the loop body to four load/store pairs, which
//! every 64-bit core can keep in flight.

use crate::vector::Tuning;
use crate::Kernel;

impl Tuning for u64 {
    const KERNEL: Kernel = Kernel::Portable;
    const NOLOOP_MAX: usize = 64;
    const LOOP_BLOCK: usize = 32;
}
