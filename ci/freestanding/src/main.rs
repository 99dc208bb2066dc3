//! A program with neither `std` nor the C runtime that uses fastmem's
//! `copy`, `fill`, `memcpy` and `memset`, and its exported C `memcpy` and
//! `memset` through the C ABI, checks every result against a
//! byte-loop oracle, and exits 0 only when all checks pass.
//!
//! - `_start` is ours (below, in `global_asm!`): it aligns the stack, hands
//!   the initial stack pointer (argc, argv...) to `entry`, and never returns.
//! - Output and exit are raw Linux `syscall`s (`write`, `exit_group`).
//! - Nothing else provides `memcpy`/`memset` here (no libc, and the
//!   precompiled `compiler_builtins` of a `-linux-gnu` target leaves them to
//!   libc), yet the compiler emits calls to them for array initialisation
//!   and `slice::fill`. fastmem's `c-symbols` feature exports them, as it
//!   would for firmware or a kernel; `ci/freestanding.sh` checks that the
//!   binary's `memcpy` and `memset` are fastmem's.
//! - Run with any argument, it deliberately checks against a wrong oracle
//!   and so must exit non-zero: proof that the self-check can fail.
//!
//! Built and run for every tier by `ci/freestanding.sh`.
#![no_std]
#![no_main]

use core::arch::{asm, global_asm};
use core::hint::black_box;

/// Guard bytes on each side of the destination window.
const GUARD: usize = 64;
/// Largest window offset tried.
const MAX_OFF: usize = 64;
/// Every length up to this is tried, then `LARGE`.
const SMALL_MAX: usize = 320;
const LARGE: [usize; 4] = [1024, 1518, 2047, 4099];
const CAP: usize = 4099;
const OFFSETS: [usize; 7] = [0, 1, 7, 8, 15, 33, 63];
/// What the destination holds before each call.
const BEFORE: u8 = 0xee;

// At entry the stack pointer points at argc and is 16-byte aligned; a call
// pushes 8 bytes, so `entry` sees the alignment the ABI promises.
global_asm!(
    ".globl _start",
    "_start:",
    "xor ebp, ebp",
    "mov rdi, rsp",
    "and rsp, -16",
    "call {entry}",
    "ud2",
    entry = sym entry,
);

// The binary's C symbols, fastmem's: called through the C ABI too, via
// opaque pointers (called directly, LLVM would treat them as the builtins
// and might inline them).
extern "C" {
    fn memcpy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8;
    fn memset(dst: *mut u8, c: i32, n: usize) -> *mut u8;
}
type CMemcpy = unsafe extern "C" fn(*mut u8, *const u8, usize) -> *mut u8;
type CMemset = unsafe extern "C" fn(*mut u8, i32, usize) -> *mut u8;

fn write(fd: usize, bytes: &[u8]) {
    // SAFETY: write(2) reads `len` bytes from a live slice; syscall clobbers
    // only rax, rcx and r11.
    unsafe {
        asm!(
            "syscall",
            inlateout("rax") 1usize => _,
            in("rdi") fd,
            in("rsi") bytes.as_ptr(),
            in("rdx") bytes.len(),
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack, readonly),
        );
    }
}

fn exit(code: u8) -> ! {
    // SAFETY: exit_group(2) ends the process; it does not return.
    unsafe {
        asm!(
            "syscall",
            in("rax") 231usize,
            in("rdi") usize::from(code),
            options(noreturn, nostack),
        );
    }
}

/// Decimal digits of `v`, without `core::fmt`.
fn write_num(v: usize) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut v = v;
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    write(1, &buf[i..]);
}

fn pattern(i: usize) -> u8 {
    ((i * 131 + 1) % 251) as u8
}

struct Tally {
    checks: usize,
    failures: usize,
    /// XORed into every expected byte: 0 normally, 1 to sabotage the oracle.
    flip: u8,
}

impl Tally {
    /// Compare `dst` (with its guards) against `before`-filled guards and a
    /// window `[GUARD + off, GUARD + off + n)` whose byte `i` must be `want(i)`.
    fn check(&mut self, dst: &[u8], off: usize, n: usize, want: impl Fn(usize) -> u8) {
        let start = GUARD + off;
        let mut ok = true;
        for (i, &got) in dst.iter().enumerate() {
            let expected = if i >= start && i < start + n {
                want(i - start) ^ self.flip
            } else {
                BEFORE
            };
            ok &= got == expected;
        }
        self.checks += 1;
        self.failures += usize::from(!ok);
    }

    /// Counts one check of a condition: a symbol's return value.
    fn expect(&mut self, ok: bool) {
        self.checks += 1;
        self.failures += usize::from(!ok);
    }
}

fn lengths() -> impl Iterator<Item = usize> {
    (0..=SMALL_MAX).chain(LARGE)
}

fn self_check(tally: &mut Tally) {
    let mut src = [0u8; MAX_OFF + CAP];
    for (i, b) in src.iter_mut().enumerate() {
        *b = pattern(i);
    }
    let mut dst = [BEFORE; GUARD + MAX_OFF + CAP + GUARD];
    for n in lengths() {
        let n = black_box(n);
        let span = GUARD + MAX_OFF + n + GUARD;
        for soff in OFFSETS {
            for doff in OFFSETS {
                let s = &src[soff..soff + n];
                let want = |i: usize| pattern(soff + i);

                dst[..span].fill(BEFORE);
                // SAFETY: the window lies inside `dst`, `s` inside `src`;
                // distinct arrays never overlap.
                unsafe { fastmem::memcpy(dst.as_mut_ptr().add(GUARD + doff), s.as_ptr(), n) };
                tally.check(&dst[..span], doff, n, want);

                dst[..span].fill(BEFORE);
                fastmem::copy(&mut dst[GUARD + doff..GUARD + doff + n], s);
                tally.check(&dst[..span], doff, n, want);

                dst[..span].fill(BEFORE);
                let d = dst.as_mut_ptr().wrapping_add(GUARD + doff);
                // SAFETY: as for fastmem::memcpy above.
                let r = unsafe { black_box(memcpy as CMemcpy)(d, s.as_ptr(), n) };
                tally.check(&dst[..span], doff, n, want);
                tally.expect(r == d);
            }
        }
        for doff in OFFSETS {
            let c = black_box(0x5a);
            dst[..span].fill(BEFORE);
            // SAFETY: the window lies inside `dst`.
            unsafe { fastmem::memset(dst.as_mut_ptr().add(GUARD + doff), c, n) };
            tally.check(&dst[..span], doff, n, |_| c);

            dst[..span].fill(BEFORE);
            fastmem::fill(&mut dst[GUARD + doff..GUARD + doff + n], !c);
            tally.check(&dst[..span], doff, n, |_| !c);

            dst[..span].fill(BEFORE);
            let d = dst.as_mut_ptr().wrapping_add(GUARD + doff);
            // SAFETY: the window lies inside `dst`; C's memset stores the
            // low byte of its int, which the high bits must not change.
            let r = unsafe { black_box(memset as CMemset)(d, 0x300 | i32::from(c), n) };
            tally.check(&dst[..span], doff, n, |_| c);
            tally.expect(r == d);
        }
    }
}

/// `sp` is the initial stack pointer: `*sp` is argc.
extern "C" fn entry(sp: *const usize) -> ! {
    // SAFETY: the kernel places argc at the initial stack pointer.
    let argc = unsafe { *sp };
    let mut tally = Tally {
        checks: 0,
        failures: 0,
        flip: u8::from(argc > 1),
    };
    self_check(&mut tally);

    write(1, b"freestanding: kernel ");
    write(1, fastmem::KERNEL.name().as_bytes());
    if tally.flip != 0 {
        write(1, b" (sabotaged oracle)");
    }
    write(1, b": ");
    write_num(tally.checks);
    write(1, b" checks, ");
    write_num(tally.failures);
    write(1, b" failed\n");
    exit(if tally.failures == 0 && tally.checks > 0 {
        0
    } else {
        1
    })
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    write(2, b"freestanding: panic\n");
    exit(101)
}
