//! Hints to LLVM's loop unroller and code layout, each an empty `asm!`
//! (but [`cold_arm`], a branch weight).
//!
//! [`no_partial_unroll`] keeps LLVM from unrolling a loop by a runtime
//! factor.
//!
//! Measured on the AVX-512 kernel: without it LLVM unrolls the block loop
//! 2x or 4x and adds a remainder copy of the body, which roughly doubles
//! the bytes a call site with a runtime `n` costs, for no gain (the loop is
//! bound by stores, not by its one add and one branch per block).
//!
//! An empty `asm!` is opaque to LLVM's unrolling heuristics, which decline
//! to partially or runtime-unroll a loop that contains a call; a constant
//! trip count is still unrolled fully, so a constant `n` stays
//! straight-line. It emits no instruction and, with `nomem`, does not stop
//! loads and stores from being scheduled across it.

/// Marks a loop body as not to be partially unrolled.
#[inline(always)]
pub(crate) fn no_partial_unroll() {
    opaque_point()
}

/// Ends a block with an instruction no other block ends with, so that
/// LLVM's tail merging does not replace its last moves with a jump to the
/// same moves at the end of another size class.
///
/// Measured on AVX2 (benches/NOTEBOOK.md, "The 1-vector rung's own tail"): the
/// `[W, 2W]` rung's tail move is the same instruction as the last move of
/// every wider class, so LLVM emitted it once and the rung jumped to it;
/// that taken jump cost 2-3 TSC ticks a copy inlined in a loop (32-64 B:
/// 4.4-5.4 ticks against 2.4 without it).
#[inline(always)]
pub(crate) fn no_tail_merge() {
    opaque_point()
}

/// Marks the arm it is called in as rarely taken, so that LLVM lays the
/// tests that choose between arms out in one straight line and puts this
/// arm behind a taken jump: `core::hint::cold_path` where the compiler has
/// it (`--cfg fastmem_cold_path`, set by `build.rs` from rustc 1.95),
/// nothing before. A layout hint, not a statement about frequency: the
/// called compare runs at the rate of its taken branches (about a cycle
/// each), and a ladder of `k` arms laid out test, arm, test, arm costs the
/// last arm `k - 1` of them, where one line of tests costs each arm one.
///
/// Measured on the compare loop's tail (`compare::diff_loop`;
/// benches/NOTEBOOK.md, "`amd-25-17`: the compare tail's arms behind one
/// taken jump each").
#[inline(always)]
pub(crate) fn cold_arm() {
    // `build.rs` sets the cfg only where rustc is 1.95 or later, which
    // clippy cannot see from the crate's `rust-version`.
    #[cfg(fastmem_cold_path)]
    #[allow(clippy::incompatible_msrv)]
    core::hint::cold_path();
}

// Where `asm!` is stable the hints are empty templates; elsewhere they are
// nothing (a loop may then be larger, or its walk indexed).
cfg_if::cfg_if! {
    if #[cfg(any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv32",
        target_arch = "riscv64",
        target_arch = "loongarch64",
    ))] {
        /// `p`, passed through a register whose value LLVM cannot see: a
        /// loop that moves a pointer on through it keeps walking that
        /// pointer, where LLVM would otherwise rewrite the walk as one
        /// index added to several bases (`generic::loop_and_tail`,
        /// [`Tuning::LOOP_POINTERS`](crate::vector::Tuning::LOOP_POINTERS)).
        /// Inside the loop it also keeps the loop from being partially
        /// unrolled, as [`no_partial_unroll`] does.
        #[inline(always)]
        pub(crate) fn opaque_ptr(mut p: *mut u8) -> *mut u8 {
            // SAFETY: an empty template (a comment naming the register)
            // that leaves the register as it is and reads, writes and
            // clobbers nothing else.
            #[allow(clippy::pointers_in_nomem_asm_block)] // the pointer only passes through
            unsafe {
                core::arch::asm!("/* {0} */", inout(reg) p, options(nomem, nostack, preserves_flags))
            };
            p
        }

        /// `c`, passed through a register whose value LLVM cannot see, so
        /// that a splat of it is a broadcast, not a constant vector
        /// (`generic::Splat`). Pure: two of the same byte are one.
        #[inline(always)]
        pub(crate) fn opaque_byte(c: u8) -> u8 {
            let mut x = u32::from(c);
            // SAFETY: an empty template (a comment naming the register)
            // that leaves the register as it is and reads, writes and
            // clobbers nothing else.
            unsafe {
                core::arch::asm!(
                    "/* {0:e} */",
                    inout(reg) x,
                    options(pure, nomem, nostack, preserves_flags)
                )
            };
            x as u8
        }

        /// An empty `asm!`: no instruction, opaque to LLVM.
        #[inline(always)]
        fn opaque_point() {
            // SAFETY: an empty template with `nomem` and `nostack` reads,
            // writes and clobbers nothing.
            unsafe { core::arch::asm!("", options(nomem, nostack, preserves_flags)) }
        }
    } else {
        #[inline(always)]
        pub(crate) fn opaque_ptr(p: *mut u8) -> *mut u8 {
            p
        }

        #[inline(always)]
        pub(crate) fn opaque_byte(c: u8) -> u8 {
            c
        }

        #[inline(always)]
        fn opaque_point() {}
    }
}
