//! One call site per wrapper, for `ci/codegen.sh`: each `codegen_*` symbol is
//! exactly what a user's `#[inline(never)]` function around one fastmem call
//! compiles to. The script reads their sizes with `nm` and disassembles the
//! constant-length ones to prove they are straight-line (memset,
//! memcpy_generic, memcpy_aligned: no jump, no call; memcpy: no call, no
//! loop, at most one conditional jump, the aligned-pointer dispatch).
//!
//! `main` calls every wrapper through an opaque pointer, so none is removed,
//! and checks the bytes, so a wrapper that compiled to nothing would fail.
//!
//! With fastmem's `c-symbols` feature the binary also holds fastmem's
//! exported `memcpy`, `memset` (the list is `fastmem::symbols::EXPORTED`;
//! `--list-symbols` prints it), which the script disassembles: no call,
//! no jump out. `codegen_control_libcall` is the script's control: a copy
//! the compiler turns into a call to `memcpy`, which the same check must
//! catch.

use core::hint::black_box;

macro_rules! wrappers {
    ($($copy:ident, $set:ident, $generic:ident, $aligned:ident = $n:literal;)*) => {
        $(
            /// Copies a constant number of bytes.
            ///
            /// # Safety
            /// `dst` and `src` valid for that many bytes, not overlapping.
            #[no_mangle]
            #[inline(never)]
            pub unsafe extern "C" fn $copy(dst: *mut u8, src: *const u8) {
                // SAFETY: forwarded contract.
                unsafe { fastmem::memcpy(dst, src, $n) }
            }

            /// Fills a constant number of bytes.
            ///
            /// # Safety
            /// `dst` valid for that many bytes.
            #[no_mangle]
            #[inline(never)]
            pub unsafe extern "C" fn $set(dst: *mut u8, c: u8) {
                // SAFETY: forwarded contract.
                unsafe { fastmem::memset(dst, c, $n) }
            }

            /// `memcpy_generic` of a constant number of bytes.
            ///
            /// # Safety
            /// As the `memcpy` wrapper.
            #[no_mangle]
            #[inline(never)]
            pub unsafe extern "C" fn $generic(dst: *mut u8, src: *const u8) {
                // SAFETY: forwarded contract.
                unsafe { fastmem::memcpy_generic(dst, src, $n) }
            }

            /// `memcpy_aligned` of a constant number of bytes.
            ///
            /// # Safety
            /// As the `memcpy` wrapper, and both pointers aligned to
            /// `fastmem::KERNEL.vector_bytes()`.
            #[no_mangle]
            #[inline(never)]
            pub unsafe extern "C" fn $aligned(dst: *mut u8, src: *const u8) {
                // SAFETY: forwarded contract.
                unsafe { fastmem::memcpy_aligned(dst, src, $n) }
            }
        )*
        /// The constant-length wrappers and their lengths.
        const CONSTANT: &[(CopyK, SetK, CopyK, CopyK, usize)] =
            &[$(($copy, $set, $generic, $aligned, $n)),*];
    };
}

type CopyK = unsafe extern "C" fn(*mut u8, *const u8);
type SetK = unsafe extern "C" fn(*mut u8, u8);

wrappers! {
    codegen_memcpy_12, codegen_memset_12, codegen_memcpy_generic_12, codegen_memcpy_aligned_12 = 12;
    codegen_memcpy_64, codegen_memset_64, codegen_memcpy_generic_64, codegen_memcpy_aligned_64 = 64;
    codegen_memcpy_1518, codegen_memset_1518, codegen_memcpy_generic_1518, codegen_memcpy_aligned_1518 = 1518;
}

/// `memcpy_const::<12>`: plain moves, no masked one (a virtio-net header).
///
/// # Safety
/// As `fastmem::memcpy_const`.
#[no_mangle]
#[inline(never)]
pub unsafe extern "C" fn codegen_memcpy_const_12(dst: *mut u8, src: *const u8) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::memcpy_const::<12>(dst, src) }
}

/// `memset_const::<12>`: two 8-byte stores.
///
/// # Safety
/// As `fastmem::memset_const`.
#[no_mangle]
#[inline(never)]
pub unsafe extern "C" fn codegen_memset_const_12(dst: *mut u8, c: u8) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::memset_const::<12>(dst, c) }
}

/// `memcpy` with a runtime length: the size of one call site.
///
/// # Safety
/// As `fastmem::memcpy`.
#[no_mangle]
#[inline(never)]
pub unsafe extern "C" fn codegen_memcpy_n(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::memcpy(dst, src, n) }
}

/// `memset` with a runtime length.
///
/// # Safety
/// As `fastmem::memset`.
#[no_mangle]
#[inline(never)]
pub unsafe extern "C" fn codegen_memset_n(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::memset(dst, c, n) }
}

/// `memcpy_aligned` with a runtime length (reported, not limited).
///
/// # Safety
/// As `fastmem::memcpy_aligned`.
#[no_mangle]
#[inline(never)]
pub unsafe extern "C" fn codegen_memcpy_aligned_n(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::memcpy_aligned(dst, src, n) }
}

/// `memcpy_generic` with a runtime length (reported, not limited).
///
/// # Safety
/// As `fastmem::memcpy_generic`.
#[no_mangle]
#[inline(never)]
pub unsafe extern "C" fn codegen_memcpy_generic_n(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::memcpy_generic(dst, src, n) }
}

/// `memmove` with a runtime length (reported, not limited): the cost of one
/// `ptr::copy`-style call site, both loop directions included.
///
/// # Safety
/// As `fastmem::memmove`.
#[no_mangle]
#[inline(never)]
pub unsafe extern "C" fn codegen_memmove_n(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::memmove(dst, src, n) }
}

/// The control for the symbol check: a runtime-length copy, which LLVM
/// emits as a call (or tail jump) to `memcpy`.
///
/// # Safety
/// As `core::ptr::copy_nonoverlapping`.
#[no_mangle]
#[inline(never)]
pub unsafe extern "C" fn codegen_control_libcall(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { core::ptr::copy_nonoverlapping(src, dst, n) }
}

#[repr(align(64))]
struct Block([u8; 4096]);

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--list-symbols") {
        for s in fastmem::symbols::EXPORTED {
            println!("{}", s.name);
        }
        return;
    }
    // Kept in the binary for the script's control check.
    black_box(codegen_control_libcall as unsafe extern "C" fn(*mut u8, *const u8, usize));
    let src = Box::new(Block(core::array::from_fn(|i| (i % 251) as u8 + 1)));
    let mut dst = Box::new(Block([0; 4096]));
    let (d, s) = (dst.0.as_mut_ptr(), src.0.as_ptr());
    let runtime: [(&str, unsafe extern "C" fn(*mut u8, *const u8, usize)); 4] = [
        ("memcpy_n", codegen_memcpy_n),
        ("memcpy_aligned_n", codegen_memcpy_aligned_n),
        ("memcpy_generic_n", codegen_memcpy_generic_n),
        ("memmove_n", codegen_memmove_n),
    ];
    let mut bad = 0;
    for (name, f) in runtime {
        for n in [0usize, 1, 12, 64, 100, 1518, 4000] {
            dst.0.fill(0);
            // SAFETY: both blocks hold 4096 bytes, 64-aligned, disjoint.
            unsafe { black_box(f)(d, s, black_box(n)) };
            if dst.0[..n] != src.0[..n] || dst.0[n..].iter().any(|&b| b != 0) {
                println!("{name}({n}) copied wrong bytes");
                bad += 1;
            }
        }
    }
    // memmove within one block, the destination before and after the source.
    for n in [1usize, 12, 64, 100, 1518, 3000] {
        for delta in [1usize, 37] {
            for up in [false, true] {
                let (from, to) = if up { (delta, 0) } else { (0, delta) };
                let mut want = src.0;
                want.copy_within(from..from + n, to);
                dst.0 = src.0;
                // SAFETY: both ranges lie in the 4096-byte block.
                unsafe { black_box(codegen_memmove_n)(d.add(to), d.add(from), black_box(n)) };
                if dst.0 != want {
                    println!("memmove_n({n}, from {from} to {to}) moved wrong bytes");
                    bad += 1;
                }
            }
        }
    }
    for &(copy, set, generic, aligned, n) in CONSTANT {
        let mut copied = true;
        for f in [copy, generic, aligned] {
            dst.0.fill(0);
            // SAFETY: as above, n <= 1518; both blocks are 64-aligned.
            unsafe { black_box(f)(d, s) };
            copied &= dst.0[..n] == src.0[..n] && dst.0[n..].iter().all(|&b| b == 0);
        }
        // `memcpy` again through its other side of the aligned-pointer test.
        dst.0.fill(0);
        // SAFETY: as above; 1 + n and 3 + n are within the 4096-byte blocks.
        unsafe { black_box(copy)(d.add(1), s.add(3)) };
        copied &= dst.0[1..1 + n] == src.0[3..3 + n]
            && dst.0[0] == 0
            && dst.0[1 + n..].iter().all(|&b| b == 0);
        dst.0.fill(0);
        // SAFETY: as above.
        unsafe { black_box(set)(d, 0xA5) };
        let set_ok = dst.0[..n].iter().all(|&b| b == 0xA5) && dst.0[n..].iter().all(|&b| b == 0);
        // SAFETY: as above.
        unsafe { black_box(codegen_memset_n)(d, 0x5A, black_box(n)) };
        let set_n_ok = dst.0[..n].iter().all(|&b| b == 0x5A);
        if !(copied && set_ok && set_n_ok) {
            println!("constant {n}: copy {copied}, set {set_ok}, set_n {set_n_ok}");
            bad += 1;
        }
    }
    // The compile-time-size pair, at an odd offset.
    dst.0.fill(0);
    // SAFETY: 1 + 12 and 3 + 12 bytes are within the 4096-byte blocks.
    unsafe { black_box(codegen_memcpy_const_12 as CopyK)(d.add(1), s.add(3)) };
    let copied =
        dst.0[1..13] == src.0[3..15] && dst.0[0] == 0 && dst.0[13..].iter().all(|&b| b == 0);
    dst.0.fill(0);
    // SAFETY: as above.
    unsafe { black_box(codegen_memset_const_12 as SetK)(d.add(1), 0xA5) };
    let set = dst.0[1..13].iter().all(|&b| b == 0xA5)
        && dst.0[0] == 0
        && dst.0[13..].iter().all(|&b| b == 0);
    if !(copied && set) {
        println!("constant 12 (const API): copy {copied}, set {set}");
        bad += 1;
    }
    println!(
        "kernel {}: {} wrapper checks failed",
        fastmem::KERNEL.name(),
        bad
    );
    std::process::exit(if bad == 0 { 0 } else { 1 });
}
