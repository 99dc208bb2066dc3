//! With `--features c-symbols`: the binary's C memory symbols are
//! fastmem's, and behave as C says.
//!
//! The symbols checked are those in `fastmem::symbols::EXPORTED`, so a
//! symbol added there is checked here with no change to this file, as
//! long as it is one of the five C memory functions declared below. The
//! C-semantics tests call whatever the binary links for each of the five
//! (glibc's for those fastmem does not export yet).

use crate::harness::{
    all_offsets, bytes_copy, bytes_eq, bytes_to_vec, report, sweep_copy, sweep_fill,
};
use core::ffi::{c_int, c_void};
use core::ptr::NonNull;
use fastmem::symbols::EXPORTED;
use std::hint::black_box;

// What the compiler's own calls and this binary's code link to: the
// test's declarations, resolved by the linker like any C call.
extern "C" {
    fn memcpy(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void;
    fn memmove(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void;
    fn memset(dst: *mut c_void, c: c_int, n: usize) -> *mut c_void;
    fn memcmp(a: *const c_void, b: *const c_void, n: usize) -> c_int;
    fn bcmp(a: *const c_void, b: *const c_void, n: usize) -> c_int;
}

type Memcpy = unsafe extern "C" fn(*mut c_void, *const c_void, usize) -> *mut c_void;
type Memset = unsafe extern "C" fn(*mut c_void, c_int, usize) -> *mut c_void;

/// The binary's `memcpy`, through an opaque pointer: called directly,
/// LLVM knows what `memcpy` does and may inline a constant-size one, or
/// fold its return value, so the symbol would never run.
fn c_memcpy() -> Memcpy {
    black_box(memcpy as Memcpy)
}

/// The binary's `memset`, as [`c_memcpy`].
fn c_memset() -> Memset {
    black_box(memset as Memset)
}

type Memmove = Memcpy;
type Memcmp = unsafe extern "C" fn(*const c_void, *const c_void, usize) -> c_int;

/// The binary's `memmove`, as [`c_memcpy`].
fn c_memmove() -> Memmove {
    black_box(memmove as Memmove)
}

/// The binary's `memcmp` and `bcmp`, as [`c_memcpy`].
fn c_compare(name: &str) -> Memcmp {
    black_box(match name {
        "memcmp" => memcmp as Memcmp,
        "bcmp" => bcmp as Memcmp,
        _ => unreachable!(),
    })
}

/// The address the binary's `name` resolves to.
fn linked(name: &str) -> *const () {
    match name {
        "memcpy" => memcpy as *const (),
        "memmove" => memmove as *const (),
        "memset" => memset as *const (),
        "memcmp" => memcmp as *const (),
        "bcmp" => bcmp as *const (),
        other => panic!("fastmem::symbols exports {other}, which this test does not know"),
    }
}

#[test]
fn exports_memcpy_and_memset() {
    let names: Vec<&str> = EXPORTED.iter().map(|s| s.name).collect();
    assert!(
        names.contains(&"memcpy") && names.contains(&"memset"),
        "{names:?}"
    );
}

#[test]
fn binary_symbols_resolve_to_fastmem() {
    for s in EXPORTED {
        println!("{} at {:p}", s.name, s.address);
        assert_eq!(
            linked(s.name),
            s.address,
            "the binary's {} is not fastmem::symbols::{}",
            s.name,
            s.name
        );
    }
}

/// Each symbol starts on a `symbols::ALIGNMENT`-byte boundary (64 on x86
/// ELF): the section trick of `src/symbols.rs` held in this binary, in
/// this profile's codegen units (one per module in a debug build, 16 in a
/// release one).
#[test]
fn symbols_start_on_their_alignment() {
    for s in EXPORTED {
        assert_eq!(
            s.address as usize % fastmem::symbols::ALIGNMENT,
            0,
            "{} at {:p} is not {}-byte aligned",
            s.name,
            s.address,
            fastmem::symbols::ALIGNMENT
        );
    }
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    assert_eq!(fastmem::symbols::ALIGNMENT, 64, "x86_64 Linux is ELF");
}

/// The dynamic linker's view: the executable exports the symbols, so a
/// shared library that calls `memcpy` through its PLT gets fastmem's too.
#[test]
fn dynamic_lookup_finds_fastmem() {
    for s in EXPORTED {
        let name = std::ffi::CString::new(s.name).unwrap();
        // SAFETY: a NUL-terminated name; RTLD_DEFAULT searches the global
        // scope, the executable first.
        let found = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
        assert_eq!(found.cast_const().cast(), s.address, "dlsym({})", s.name);
    }
}

#[test]
fn memcpy_returns_dst_and_copies() {
    let src: Vec<u8> = (0..=255).collect();
    for n in [0, 1, 17, 256] {
        let mut dst = [0u8; 256];
        // SAFETY: both buffers hold 256 bytes; distinct allocations.
        let r = unsafe { c_memcpy()(dst.as_mut_ptr().cast(), src.as_ptr().cast(), n) };
        assert_eq!(r, dst.as_mut_ptr().cast(), "memcpy(n = {n}) returned {r:p}");
        assert!(dst[..n].iter().zip(&src).all(|(a, b)| a == b), "n = {n}");
        assert!(dst[n..].iter().all(|&b| b == 0), "n = {n}: wrote past n");
    }
}

#[test]
fn memset_stores_c_as_u8_and_returns_dst() {
    for (c, want) in [
        (0x1FF, 0xFF),
        (-1, 0xFF),
        (0x100, 0x00),
        (0x5A, 0x5A),
        (-0x80, 0x80),
    ] {
        let mut dst = [0x11u8; 100];
        // SAFETY: 99 of the buffer's 100 bytes.
        let r = unsafe { c_memset()(dst.as_mut_ptr().cast(), c, 99) };
        assert_eq!(
            r,
            dst.as_mut_ptr().cast(),
            "memset(c = {c:#x}) returned {r:p}"
        );
        assert!(dst[..99].iter().all(|&b| b == want), "c = {c:#x}");
        assert_eq!(dst[99], 0x11, "c = {c:#x}: wrote past n");
    }
}

#[test]
fn zero_length_touches_nothing_and_returns_dst() {
    // Dangling, never dereferenced: C allows any pointer with n == 0 in
    // practice, and fastmem's contract does.
    let d = NonNull::<u8>::dangling().as_ptr().cast::<c_void>();
    let s = NonNull::<u8>::dangling().as_ptr().cast::<c_void>();
    // SAFETY: n == 0: nothing is read or written.
    unsafe {
        assert_eq!(c_memcpy()(d, s, 0), d);
        assert_eq!(c_memset()(d, 0x5A, 0), d);
    }
}

/// The return value from the large path: from the string and non-temporal
/// thresholds the kernel calls out of line, and that call returns `dst`
/// for the symbol to pass on, so that the symbol keeps nothing across it
/// (`src/symbols.rs`). Sizes: 64 KiB and 1 MiB (the string instruction
/// where the kernel has it), and past both hand-overs where the build
/// streams at all (from 8 MiB when it asks the CPU). Bytes are sampled:
/// the exhaustive suite checks them all at these thresholds.
#[test]
fn large_calls_return_dst() {
    let t = fastmem::NONTEMPORAL_MIN;
    let mut sizes = vec![64 << 10, 1 << 20];
    if t <= 64 << 20 {
        sizes.push(2 * t.max(8 << 20) + 4096 + 3);
    }
    let (cpy, set, mov) = (c_memcpy(), c_memset(), c_memmove());
    for &n in &sizes {
        let src: Vec<u8> = (0..n + 64).map(|i| (i % 251) as u8).collect();
        let mut dst = vec![0u8; n + 64];
        let sample = |d: &[u8], what: &str, want: &dyn Fn(usize) -> u8| {
            for i in (0..n).step_by(4093).chain([n - 1]) {
                assert_eq!(d[i], want(i), "{what}(n = {n}): byte {i}");
            }
            assert_eq!(d[n], 0, "{what}(n = {n}): wrote past n");
        };
        let (d, s) = (
            dst.as_mut_ptr().cast::<c_void>(),
            src.as_ptr().cast::<c_void>(),
        );
        // SAFETY (all three): both buffers hold n + 64 bytes, distinct
        // allocations; the move's ranges lie in `dst`.
        let r = unsafe { cpy(d, s, n) };
        assert_eq!(r, d, "memcpy(n = {n}) returned {r:p}");
        sample(&dst, "memcpy", &|i| (i % 251) as u8);
        let r = unsafe { mov(d.cast::<u8>().add(1).cast(), d, n - 1) };
        assert_eq!(r, d.wrapping_byte_add(1), "memmove(n = {n}) returned {r:p}");
        // Byte 0 stays what the copy left there, 0; byte i holds byte i - 1.
        sample(&dst, "memmove", &|i| (i.saturating_sub(1) % 251) as u8);
        let r = unsafe { set(d, 0x1C5, n) };
        assert_eq!(r, d, "memset(n = {n}) returned {r:p}");
        sample(&dst, "memset", &|_| 0xC5);
    }
}

/// The sweeps of the exhaustive tests, through the C symbols: every size
/// to 300 B at every offset, canaries each side.
#[test]
fn sweep_through_the_symbols() {
    let offs = all_offsets();
    let (memcpy, memset) = (c_memcpy(), c_memset());
    // SAFETY (both closures): the rigs pass valid, disjoint buffers.
    let mut cases = sweep_copy(
        "symbol memcpy",
        0..=300,
        &offs,
        &offs,
        41,
        |d, s, n| unsafe {
            memcpy(d.cast(), s.cast(), n);
        },
    );
    cases += sweep_fill(
        "symbol memset",
        0..=300,
        &offs,
        &[0x00, 0xA5],
        |d, c, n| unsafe {
            memset(d.cast(), c_int::from(c) | 0x700, n);
        },
    );
    report("sweep_through_the_symbols", cases);
}

/// The compiler's own calls: a copy and a fill of runtime length that LLVM
/// emits as calls to `memcpy` and `memset`, which must land on fastmem and
/// give the right bytes.
#[test]
fn compiler_emitted_calls() {
    let n = black_box(1000);
    let src: Vec<u8> = (0..n).map(|i| (i * 7) as u8).collect();
    let copy = src.clone();
    let mut filled = vec![1u8; n];
    filled[..n - 1].fill(black_box(0xEE));
    for i in 0..n {
        assert_eq!(copy[i], (i * 7) as u8, "clone byte {i}");
        let want = if i < n - 1 { 0xEE } else { 1 };
        assert_eq!(filled[i], want, "fill byte {i}");
    }
}

/// C's `memmove`, whichever the binary links (glibc's until fastmem
/// exports one): overlap in both directions, return value.
#[test]
fn memmove_overlapping_returns_dst() {
    let f = c_memmove();
    for n in [0usize, 1, 7, 64, 300] {
        for delta in [-33isize, -1, 1, 33] {
            let mut buf: Vec<u8> = (0..400).map(|i| (i * 13 + 1) as u8).collect();
            // The oracle, without the symbols under test.
            let (s, d) = (40, (40 + delta) as usize);
            let mut want = bytes_to_vec(&buf);
            bytes_copy(&mut want[d..d + n], &bytes_to_vec(&buf[s..s + n]));
            let p = buf.as_mut_ptr();
            // SAFETY: both ranges lie inside the 400-byte buffer.
            let r = unsafe { f(p.add(d).cast(), p.add(s).cast(), n) };
            assert_eq!(
                r,
                p.wrapping_add(d).cast(),
                "memmove(n = {n}, delta = {delta})"
            );
            assert!(
                bytes_eq(&buf, &want),
                "memmove(n = {n}, delta = {delta}): wrong bytes"
            );
        }
    }
}

/// C's `memcmp` and `bcmp`, whichever the binary links: equal ranges give
/// 0; `memcmp` gives the sign of the first difference as unsigned bytes.
#[test]
fn memcmp_and_bcmp_semantics() {
    for name in ["memcmp", "bcmp"] {
        let f = c_compare(name);
        for n in [0usize, 1, 15, 16, 33, 200] {
            let a: Vec<u8> = (0..n).map(|i| (i * 7) as u8).collect();
            for at in (0..n).step_by(7) {
                let mut b = bytes_to_vec(&a);
                b[at] = a[at] ^ 0x80; // bytes above 0x7F: an unsigned compare
                                      // SAFETY: both vectors hold `n` bytes.
                let (eq, ab, ba) = unsafe {
                    (
                        f(a.as_ptr().cast(), a.as_ptr().cast(), n),
                        f(a.as_ptr().cast(), b.as_ptr().cast(), n),
                        f(b.as_ptr().cast(), a.as_ptr().cast(), n),
                    )
                };
                assert_eq!(eq, 0, "{name}(n = {n}) of equal ranges");
                assert!(ab != 0 && ba != 0, "{name}(n = {n}, difference at {at})");
                if name == "memcmp" {
                    let want = a[at].cmp(&b[at]);
                    assert_eq!(ab.cmp(&0), want, "memcmp(n = {n}, difference at {at})");
                    assert_eq!(ba.cmp(&0), want.reverse(), "memcmp(n = {n}, at {at})");
                }
            }
        }
    }
}
