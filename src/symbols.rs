//! The C memory functions, exported under their C names: the feature
//! `c-symbols` (off by default).
//!
//! In a `no_std` binary most copies are not written by hand: the compiler
//! emits calls to `memcpy` and `memset` for struct moves, array
//! initialisation, `copy_from_slice` and `fill`, to `memmove` for
//! `ptr::copy` and `copy_within`, and to `bcmp`/`memcmp` for `==` and
//! `cmp` on byte slices. With this feature those
//! calls land here, on the build's kernel, instead of on
//! compiler_builtins' weak definitions (`rep movsb`/`rep movsq` on x86,
//! byte and word loops elsewhere). On Linux, a binary's own definitions
//! take precedence over libc's for every call the binary makes, std's
//! included (libc's internal calls keep libc's own).
//!
//! | symbol | C signature | body |
//! |---|---|---|
//! | `memcpy` | `void *memcpy(void *dst, const void *src, size_t n)` | [`crate::memcpy`], returns `dst` |
//! | `memset` | `void *memset(void *dst, int c, size_t n)` | [`crate::memset`] with `c as u8`, returns `dst` |
//! | `memmove` | `void *memmove(void *dst, const void *src, size_t n)` | [`crate::memmove`], returns `dst` |
//! | `memcmp` | `int memcmp(const void *a, const void *b, size_t n)` | [`crate::memcmp`] |
//! | `bcmp` | `int bcmp(const void *a, const void *b, size_t n)` | [`crate::bcmp`] |
//!
//! Only one crate in a binary may define a symbol: a second crate that
//! exports `memcpy` (a hand-written one, or another crate's feature) is a
//! link error, "multiple definition of `memcpy`". compiler_builtins' are
//! weak, and libc's are in a shared library, so neither clashes.
//!
//! # No symbol calls itself
//!
//! LLVM recognises some loops as `memcpy`, `memmove` or `memset` and
//! emits calls to them; inside one of these symbols that can be infinite
//! recursion. The crate is `#![no_builtins]` when this feature is on,
//! which stops that recognition in the functions compiled in fastmem:
//! these symbols (fastmem's other functions are generic or
//! `#[inline(always)]` and compile in their callers' crates, where the
//! attribute does not reach and is not needed). It holds in a `-C lto=fat`
//! binary too, where rustc carries it on each function. Two things it does
//! not do: LLVM already leaves loops alone inside functions named `memcpy`
//! and `memset` (the attribute is for the others, and for code they
//! inline), and a move of a large block by value is lowered to a `memcpy`
//! call with or without it. Hence the proof is not a passing test but
//! the disassembly: `ci/codegen.sh` disassembles every symbol in
//! [`EXPORTED`], on every kernel and in `-C lto=fat` binaries, and fails
//! on any call, any jump out of the symbol and any indirect jump.
//!
//! In a build of fastmem at opt-level 0 the kernel is not inlined, and its
//! vector loads call `memcpy`; there the symbols are `rep movsb`/`rep
//! stosb` (x86) or byte loops instead, correct but slow. A debug build
//! that wants the kernel gives fastmem `opt-level = 1` or more.
//!
//! # Where the symbols start
//!
//! A call of one of these symbols costs what its first few cache lines
//! cost to fetch and decode, and that depends on where the linker puts
//! it: on an AVX-512 build the same `memcpy` took 4.6 TSC ticks at
//! 1-32 B in one binary and 3.1 in another, against glibc's 6.2-7.7
//! (benches/NOTEBOOK.md, "The symbols on 64-byte boundaries"). glibc starts
//! its functions on 64-byte boundaries; Rust has no stable per-function
//! alignment (`#[repr(align)]` on a function is an error in 1.95, and
//! `-C llvm-args=-align-all-functions=6` is a flag for the whole binary,
//! which a library cannot pass). So on x86 ELF targets (`build.rs` sets
//! `fastmem_symbol_sections`) each symbol goes in a section of its own,
//! `.text.fastmem.memcpy` and so on, and a `global_asm!` in this module
//! raises each of those sections' alignment to 64: the assembler gives a
//! section the largest alignment any directive in the object file asks
//! for, and the linker keeps it. Both are in this module's codegen unit,
//! in every profile and with `-C lto=fat`; the suite
//! (`symbols_start_on_their_alignment`) and `ci/codegen.sh` check the
//! address of each symbol in [`EXPORTED`] against [`ALIGNMENT`]. A
//! linker script that collects `.text.*` into `.text`, as kernels' do,
//! keeps the sections' alignment. The symbols' code is then placed the
//! same in every binary; what that placement gains and costs per kernel
//! is measured there.
//!
//! # Adding a symbol
//!
//! Define it below with `#[no_mangle] pub unsafe extern "C"` over a
//! function of `body` (the kernel's, and an unoptimised one), give it
//! `#[cfg_attr(fastmem_symbol_sections, link_section = section!(name))]`,
//! and add its name to the `exported!` list at the end, which aligns its
//! section: the tests and `ci/codegen.sh` read [`EXPORTED`] and check it
//! from then on.

use core::ffi::{c_int, c_void};

/// The name of the section that holds the symbol `$name` alone:
/// `.text.fastmem.memcpy` (see "Where the symbols start"). Only where the
/// sections are used: elsewhere it would be an unused macro.
#[cfg(fastmem_symbol_sections)]
macro_rules! section {
    ($name:ident) => {
        concat!(".text.fastmem.", stringify!($name))
    };
}

/// C's `memcpy`: copies `n` bytes from `src` to `dst` with the build's
/// kernel and returns `dst`.
///
/// # Safety
///
/// As [`crate::memcpy`]: `src..src + n` readable, `dst..dst + n` writable,
/// the two not overlapping; with `n == 0` the pointers may dangle.
#[no_mangle]
#[cfg_attr(fastmem_symbol_sections, link_section = section!(memcpy))]
pub unsafe extern "C" fn memcpy(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void {
    // SAFETY: C's contract is `crate::memcpy`'s, and `body::copy`'s.
    unsafe { body::copy(dst.cast(), src.cast(), n) }.cast()
}

/// C's `memset`: sets `n` bytes at `dst` to `c as u8` (C passes the byte
/// as an `int` and uses its low 8 bits) and returns `dst`.
///
/// # Safety
///
/// As [`crate::memset`]: `dst..dst + n` writable; with `n == 0` the pointer
/// may dangle.
#[no_mangle]
#[cfg_attr(fastmem_symbol_sections, link_section = section!(memset))]
pub unsafe extern "C" fn memset(dst: *mut c_void, c: c_int, n: usize) -> *mut c_void {
    // SAFETY: C's contract is `crate::memset`'s, and `body::fill`'s.
    unsafe { body::fill(dst.cast(), c as u8, n) }.cast()
}

/// C's `memmove`: copies `n` bytes from `src` to `dst`, which may
/// overlap, with the build's kernel and returns `dst`.
///
/// # Safety
///
/// As [`crate::memmove`]: `src..src + n` readable, `dst..dst + n`
/// writable; with `n == 0` the pointers may dangle.
#[no_mangle]
#[cfg_attr(fastmem_symbol_sections, link_section = section!(memmove))]
pub unsafe extern "C" fn memmove(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void {
    // SAFETY: C's contract is `crate::memmove`'s, and `body::memmove`'s.
    unsafe { body::memmove(dst.cast(), src.cast(), n) }.cast()
}

/// C's `memcmp`: the difference of the first differing bytes of `a` and
/// `b` (as unsigned bytes), 0 when the `n` bytes are equal.
///
/// # Safety
///
/// As [`crate::memcmp`]: `a..a + n` and `b..b + n` readable; with `n == 0`
/// the pointers may dangle.
#[no_mangle]
#[cfg_attr(fastmem_symbol_sections, link_section = section!(memcmp))]
pub unsafe extern "C" fn memcmp(a: *const c_void, b: *const c_void, n: usize) -> c_int {
    // SAFETY: C's contract is `crate::memcmp`'s, and `body::memcmp`'s.
    unsafe { body::memcmp(a.cast(), b.cast(), n) }
}

/// C's (and LLVM's) `bcmp`: 0 when the `n` bytes at `a` and `b` are equal,
/// non-zero otherwise.
///
/// # Safety
///
/// As [`memcmp`].
#[no_mangle]
#[cfg_attr(fastmem_symbol_sections, link_section = section!(bcmp))]
pub unsafe extern "C" fn bcmp(a: *const c_void, b: *const c_void, n: usize) -> c_int {
    // SAFETY: C's contract is `crate::bcmp`'s, and `body::bcmp`'s.
    unsafe { body::bcmp(a.cast(), b.cast(), n) }
}

/// The symbols' bodies: the kernel.
#[cfg(not(fastmem_symbols_o0))]
mod body {
    pub(super) use crate::{
        bcmp, memcmp, memcpy_c as copy, memmove_c as memmove, memset_c as fill,
    };
}

/// The symbols' bodies in a build of fastmem at opt-level 0 (`build.rs`
/// sets the cfg), where the kernel, not inlined, would call `memcpy`: on
/// x86 one `rep movsb` or `rep stosb` (inline assembly is always inlined),
/// elsewhere a volatile byte loop, which LLVM does not turn into a call.
/// Slow, and meant only for debug builds; give fastmem `opt-level = 1` or
/// more (`[profile.dev.package.fastmem]`) to get the kernel.
#[cfg(fastmem_symbols_o0)]
mod body {
    pub(super) use raw::{bcmp, memcmp};

    /// # Safety
    ///
    /// As [`crate::memcpy`].
    pub(super) unsafe fn copy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        // SAFETY: forwarded contract.
        unsafe { raw::copy(dst, src, n) };
        dst
    }

    /// # Safety
    ///
    /// As [`crate::memset`].
    pub(super) unsafe fn fill(dst: *mut u8, c: u8, n: usize) -> *mut u8 {
        // SAFETY: forwarded contract.
        unsafe { raw::fill(dst, c, n) };
        dst
    }

    /// # Safety
    ///
    /// As [`crate::memmove`].
    pub(super) unsafe fn memmove(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        // SAFETY: forwarded contract.
        unsafe { raw::memmove(dst, src, n) };
        dst
    }

    /// The bodies, each returning nothing.
    mod raw {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        pub(in crate::symbols) use crate::kernels::string::{rep_movsb as copy, rep_stosb as fill};

        /// # Safety
        ///
        /// As [`crate::memcpy`].
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        pub(in crate::symbols) unsafe fn copy(dst: *mut u8, src: *const u8, n: usize) {
            for i in 0..n {
                // SAFETY: `i < n`, inside both ranges.
                unsafe { dst.add(i).write_volatile(src.add(i).read_volatile()) }
            }
        }

        /// # Safety
        ///
        /// As [`crate::memset`].
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        pub(in crate::symbols) unsafe fn fill(dst: *mut u8, c: u8, n: usize) {
            for i in 0..n {
                // SAFETY: `i < n`, inside the range.
                unsafe { dst.add(i).write_volatile(c) }
            }
        }

        /// A volatile byte loop, upwards when `dst` is at or below `src`,
        /// else downwards, so that no byte is read after it was overwritten.
        ///
        /// # Safety
        ///
        /// As [`crate::memmove`].
        pub(in crate::symbols) unsafe fn memmove(dst: *mut u8, src: *const u8, n: usize) {
            let one = |i: usize| {
                // SAFETY: `i < n`, inside both ranges.
                unsafe { dst.add(i).write_volatile(src.add(i).read_volatile()) }
            };
            if dst as usize <= src as usize {
                (0..n).for_each(one);
            } else {
                (0..n).rev().for_each(one);
            }
        }

        /// A volatile byte loop up to the first difference.
        ///
        /// # Safety
        ///
        /// As [`crate::memcmp`].
        pub(in crate::symbols) unsafe fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
            for i in 0..n {
                // SAFETY: `i < n`, inside both ranges.
                let (x, y) = unsafe { (a.add(i).read_volatile(), b.add(i).read_volatile()) };
                if x != y {
                    return i32::from(x) - i32::from(y);
                }
            }
            0
        }

        pub(in crate::symbols) use memcmp as bcmp;
    }
}

/// Every symbol's address in the final binary is a multiple of this: 64
/// on x86 ELF targets (see "Where the symbols start"), 1 (no promise)
/// elsewhere. The resolution test and `ci/codegen.sh` check it.
pub const ALIGNMENT: usize = if cfg!(fastmem_symbol_sections) { 64 } else { 1 };

/// One entry of [`EXPORTED`]: a symbol's C name and its address in this
/// binary.
#[derive(Clone, Copy, Debug)]
pub struct Symbol {
    /// The unmangled name, `"memcpy"`.
    pub name: &'static str,
    /// The function's address, as `fastmem::symbols::memcpy as *const ()`.
    pub address: *const (),
}

macro_rules! exported {
    ($($name:ident),* $(,)?) => {
        /// Every symbol this module exports, in one list: the resolution
        /// test (`tests/suite/symbols.rs`) checks that the binary's
        /// `memcpy` and the rest resolve to these addresses, and
        /// `ci/codegen.sh` disassembles each.
        pub const EXPORTED: &[Symbol] = &[$(Symbol {
            name: stringify!($name),
            address: $name as *const (),
        }),*];

        // Each symbol's section starts on an ALIGNMENT-byte boundary: the
        // assembler gives a section the largest alignment asked of it
        // anywhere in the object file, and this is the same object file as
        // the function (one module, one codegen unit). It emits no bytes:
        // the function stays at the section's offset 0.
        #[cfg(fastmem_symbol_sections)]
        core::arch::global_asm!(
            $(concat!(".pushsection ", section!($name), ",\"ax\",@progbits\n",
                ".p2align 6\n",
                ".popsection\n"),)*
            options(att_syntax)
        );
        #[cfg(fastmem_symbol_sections)]
        const _: () = assert!(ALIGNMENT == 1 << 6);
    };
}

exported!(memcpy, memset, memmove, memcmp, bcmp);
