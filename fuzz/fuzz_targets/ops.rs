//! Differential fuzz target: every public copy, move, fill and compare
//! function against a byte-loop oracle, on guarded heap buffers.
//!
//! The input is read as a sequence of 7-byte operations (at most
//! [`MAX_OPS`]; a trailing partial record is ignored):
//!
//! ```text
//!  byte 0      bytes 1-2     byte 3    byte 4    byte 5   byte 6
//! +---------+-------------+---------+---------+--------+--------+
//! | op|size | len (LE u16)| src off | dst off | fill c | seed   |
//! +---------+-------------+---------+---------+--------+--------+
//!   op   = byte0 bits 0-3, with bit 6 as a fifth bit (`op_index`), modulo
//!          the 19 operations in `OPS`
//!   size = byte0 >> 4 & 3 picks how `len` becomes n (see `length`):
//!          0: 0..=255   1: 0..=65535   2: 65281..=65536   3: 256..=511
//! ```
//!
//! `Memmove` and `CopyWithin` move inside one arena instead: bytes 4-5, as
//! a little-endian u16, pick the signed distance from source to
//! destination in `-(n + 64)..=n + 64` (see `shift`), so the destination
//! lands before, inside, after or clear of the source; byte 3 is the
//! offset of the pair, whose union is the guarded window.
//!
//! Each operation gets fresh destination and source [`Arena`]s: a 64-byte
//! aligned heap block with [`CANARY`] bytes on both sides of the window the
//! kernel may touch (for the compares, the destination is the second
//! operand: a copy of the source window with, when `fill c` is not 0, the
//! byte at a position drawn from `seed` and `c` XORed with `c`), and the window placed at an arbitrary offset `0..64`
//! (for `memcpy_aligned`, a multiple of the kernel's vector width). Every
//! byte of both blocks starts with a position-dependent hash (different for
//! source and destination), so a block copied to the wrong place shows.
//!
//! Two independent guards watch the kernel:
//! - the canaries: after the call the whole destination block, canaries
//!   included, must equal the oracle's image, and the whole source block must
//!   be unchanged, so a one-byte over- or under-write fails at any offset;
//! - under AddressSanitizer (the `cargo fuzz` default) everything outside
//!   both windows is poisoned during the call, so a read or write outside the
//!   window aborts with a report naming the instruction. ASan tracks 8-byte
//!   granules, so the byte after a window is always poisoned, the byte before
//!   it only when the window starts on an 8-byte boundary (offsets 0, 8, ...).
#![no_main]
#![cfg_attr(fuzzing, feature(cfg_sanitize))]

use libfuzzer_sys::fuzz_target;
use std::alloc::{alloc, dealloc, Layout};
use std::mem::MaybeUninit;
use std::sync::{Once, OnceLock};

/// Guard bytes on each side of a window.
const CANARY: usize = 64;
/// Room for the window's offset from the start of the block.
const MAX_OFFSET: usize = 64;
/// Operations decoded from one input, so one input stays a few MiB of work.
const MAX_OPS: usize = 16;
/// Largest length an operation decodes to.
const MAX_N: usize = 65536;
/// Bytes per encoded operation.
const RECORD: usize = 7;

#[derive(Clone, Copy, Debug)]
enum Op {
    Memcpy,
    MemcpyGeneric,
    MemcpyAligned,
    Memset,
    Copy,
    Fill,
    Mov(usize),
    Memmove,
    CopyWithin,
    Memcmp,
    Bcmp,
    MemcpyNontemporal,
    MemsetNontemporal,
    CopyUninit,
    FillUninit,
}

const OPS: [Op; 19] = [
    Op::Memcpy,
    Op::MemcpyGeneric,
    Op::MemcpyAligned,
    Op::Memset,
    Op::Copy,
    Op::Fill,
    Op::Mov(16),
    Op::Mov(32),
    Op::Mov(64),
    Op::Mov(128),
    Op::Mov(256),
    Op::Memmove,
    Op::CopyWithin,
    Op::Memcmp,
    Op::Bcmp,
    Op::MemcpyNontemporal,
    Op::MemsetNontemporal,
    Op::CopyUninit,
    Op::FillUninit,
];

#[derive(Debug)]
struct Step {
    op: Op,
    n: usize,
    src_off: usize,
    dst_off: usize,
    c: u8,
    seed: u8,
    /// For the moves: destination minus source.
    shift: isize,
}

/// A distance in `-(n + 64)..=n + 64` from a raw u16.
fn shift(n: usize, raw: u16) -> isize {
    let reach = n + 64;
    (usize::from(raw) % (2 * reach + 1)) as isize - reach as isize
}

fn length(size_class: u8, len: u16) -> usize {
    let len = usize::from(len);
    match size_class {
        0 => len & 0xff,
        1 => len,
        2 => MAX_N - (len & 0xff),
        _ => 256 + (len & 0xff),
    }
}

/// The operation's index from byte 0: bits 0-3, and bit 6 as bit 4 (four
/// bits no longer number every operation; bit 7 stays unused).
fn op_index(b: u8) -> usize {
    usize::from(b & 0x0f | (b >> 2 & 0x10))
}

fn decode(r: &[u8]) -> Step {
    let op = OPS[op_index(r[0]) % OPS.len()];
    let w = fastmem::KERNEL.vector_bytes();
    let offset = |b: u8| match op {
        // Aligned pointers: a multiple of W inside the 64-byte offset room.
        Op::MemcpyAligned => (usize::from(b) * w) % MAX_OFFSET,
        _ => usize::from(b) % MAX_OFFSET,
    };
    let n = match op {
        Op::Mov(n) => n,
        _ => length(r[0] >> 4 & 3, u16::from_le_bytes([r[1], r[2]])),
    };
    Step {
        op,
        n,
        src_off: offset(r[3]),
        dst_off: offset(r[4]),
        c: r[5],
        seed: r[6],
        shift: shift(n, u16::from_le_bytes([r[4], r[5]])),
    }
}

#[cfg(all(fuzzing, sanitize = "address"))]
mod asan {
    extern "C" {
        fn __asan_poison_memory_region(addr: *const u8, size: usize);
        fn __asan_unpoison_memory_region(addr: *const u8, size: usize);
    }
    pub fn poison(addr: *const u8, size: usize) {
        // SAFETY: only changes ASan's shadow for memory this process owns.
        unsafe { __asan_poison_memory_region(addr, size) }
    }
    pub fn unpoison(addr: *const u8, size: usize) {
        // SAFETY: as above.
        unsafe { __asan_unpoison_memory_region(addr, size) }
    }
}

#[cfg(not(all(fuzzing, sanitize = "address")))]
mod asan {
    pub fn poison(_: *const u8, _: usize) {}
    pub fn unpoison(_: *const u8, _: usize) {}
}

/// A heap block `[canary | offset room | window of n | canary]`, 64-byte
/// aligned, filled with `pattern(i)` for every byte `i` of the block.
struct Arena {
    base: *mut u8,
    layout: Layout,
    off: usize,
    n: usize,
}

impl Arena {
    fn new(n: usize, off: usize, pattern: &[u8]) -> Arena {
        let layout = Layout::from_size_align(CANARY + MAX_OFFSET + n + CANARY, 64).unwrap();
        // SAFETY: the layout has a non-zero size.
        let base = unsafe { alloc(layout) };
        assert!(!base.is_null(), "out of memory");
        // SAFETY: `pattern` is longer than any block (see `pattern`), and a
        // fresh allocation does not overlap it.
        unsafe { std::ptr::copy_nonoverlapping(pattern.as_ptr(), base, layout.size()) };
        Arena {
            base,
            layout,
            off,
            n,
        }
    }

    fn start(&self) -> usize {
        CANARY + self.off
    }

    fn window(&self) -> *mut u8 {
        // SAFETY: start() + n <= layout.size().
        unsafe { self.base.add(self.start()) }
    }

    /// Poison everything but the window for the duration of a kernel call.
    fn guard(&self) {
        let end = self.start() + self.n;
        asan::poison(self.base, self.start());
        // SAFETY: end <= layout.size().
        asan::poison(unsafe { self.base.add(end) }, self.layout.size() - end);
    }

    fn unguard(&self) {
        asan::unpoison(self.base, self.layout.size());
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: the whole block is initialised and owned by self.
        unsafe { std::slice::from_raw_parts(self.base, self.layout.size()) }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        self.unguard();
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.base, self.layout) }
    }
}

/// Initial contents of the blocks: the top byte of a multiplicative hash of
/// the position, so neighbouring bytes, and blocks a vector apart, differ.
/// The source starts at `seed`, the destination 512 bytes further on.
/// Filling from one table with the C library's `memcpy` keeps the per-byte
/// work, which coverage instrumentation makes slow, out of every execution.
fn pattern(seed: u8, role: usize) -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        // The longest block: a move's, whose window is up to 2n + 64 bytes.
        (0..1024 + CANARY + MAX_OFFSET + 2 * MAX_N + 64 + CANARY)
            .map(|i| ((i as u32).wrapping_mul(0x9e37_79b1) >> 24) as u8)
            .collect()
    });
    &table[usize::from(seed) + 512 * role..]
}

/// Panics unless `out`, what `copy_uninit` or `fill_uninit` returned, is
/// the `n` bytes at `d`.
fn in_place(out: &[u8], d: *mut u8, n: usize) {
    assert!(
        out.as_ptr() == d.cast_const() && out.len() == n,
        "returned {} bytes at {:p}, not the destination's {n} at {d:p}",
        out.len(),
        out.as_ptr()
    );
}

/// The oracle: window byte `i` of `want` (which starts at `start`) becomes
/// `byte(i)`, one byte at a time.
fn oracle(want: &mut [u8], start: usize, n: usize, byte: impl Fn(usize) -> u8) {
    for i in 0..n {
        // black_box: a byte loop LLVM could turn into `memcpy`/`memset`.
        want[start + i] = std::hint::black_box(byte(i));
    }
}

/// First index where `got` and `want` differ, said relative to the window.
fn describe(got: &[u8], want: &[u8], start: usize, n: usize) -> String {
    let i = (0..want.len()).find(|&i| got[i] != want[i]).unwrap();
    let place = if i < start {
        format!("{} byte(s) before the window", start - i)
    } else if i >= start + n {
        format!("{} byte(s) after the window's end", i - (start + n) + 1)
    } else {
        format!("window byte {}", i - start)
    };
    format!("{place}: got {:#04x}, want {:#04x}", got[i], want[i])
}

/// The move oracle: `n` bytes from `want[src..]` to `want[dst..]`, in
/// place, one at a time, walking down when the destination starts inside
/// the source; `black_box` keeps LLVM from making it a `memmove` call.
fn oracle_move(want: &mut [u8], dst: usize, src: usize, n: usize) {
    let mut one = |i: usize| want[dst + i] = std::hint::black_box(want[src + i]);
    if dst <= src {
        (0..n).for_each(&mut one);
    } else {
        (0..n).rev().for_each(&mut one);
    }
}

/// `Memmove` and `CopyWithin`: source and destination in one arena whose
/// window is their union, `n + |shift|` bytes.
fn run_move(step: &Step) {
    let (n, d) = (step.n, step.shift.unsigned_abs());
    let arena = Arena::new(n + d, step.src_off, pattern(step.seed, 0));
    let (s_at, d_at) = if step.shift < 0 { (d, 0) } else { (0, d) };
    let start = arena.start();
    let mut want = arena.bytes().to_vec();
    oracle_move(&mut want, start + d_at, start + s_at, n);

    arena.guard();
    let w = arena.window();
    // SAFETY: both `n`-byte windows lie in the arena's `n + d`-byte window.
    unsafe {
        match step.op {
            Op::Memmove => fastmem::memmove(w.add(d_at), w.add(s_at), n),
            Op::CopyWithin => fastmem::copy_within(
                std::slice::from_raw_parts_mut(w, n + d),
                s_at..s_at + n,
                d_at,
            ),
            _ => unreachable!(),
        }
    }
    arena.unguard();

    if arena.bytes() != want {
        let why = describe(arena.bytes(), &want, start + d_at, n);
        panic!(
            "wrong bytes after {step:?} (kernel {}): {why}",
            fastmem::KERNEL.name()
        );
    }
}

/// The compare oracle: the difference of the first differing bytes, one
/// byte at a time through `black_box`, so that LLVM cannot make it a call
/// of `memcmp` or `bcmp` (which may be fastmem's own, with `c-symbols`).
fn oracle_memcmp(a: &[u8], b: &[u8]) -> i32 {
    for (&x, &y) in a.iter().zip(b) {
        let (x, y) = (std::hint::black_box(x), std::hint::black_box(y));
        if x != y {
            return i32::from(x) - i32::from(y);
        }
    }
    0
}

/// `Memcmp` and `Bcmp`: the source window against a copy of it in the
/// destination arena, with one byte changed unless `c` is 0.
fn run_compare(step: &Step) {
    let n = step.n;
    let b = Arena::new(n, step.dst_off, pattern(step.seed, 1));
    let a = Arena::new(n, step.src_off, pattern(step.seed, 0));
    let (wa, wb) = (a.window() as *const u8, b.window());
    // SAFETY: both windows hold n bytes, in distinct allocations.
    unsafe { std::ptr::copy_nonoverlapping(wa, wb, n) };
    if n > 0 && step.c != 0 {
        let pos = (usize::from(step.seed) * 8191 + usize::from(step.c) * 31) % n;
        // SAFETY: pos < n.
        unsafe { *wb.add(pos) ^= step.c };
    }
    let (a_before, b_before) = (a.bytes().to_vec(), b.bytes().to_vec());
    let want = oracle_memcmp(
        &a_before[a.start()..a.start() + n],
        &b_before[b.start()..b.start() + n],
    );
    a.guard();
    b.guard();
    // SAFETY: both windows are valid for n bytes.
    let got = unsafe {
        match step.op {
            Op::Memcmp => fastmem::memcmp(wa, wb, n),
            Op::Bcmp => fastmem::bcmp(wa, wb, n),
            _ => unreachable!(),
        }
    };
    b.unguard();
    a.unguard();
    let ok = match step.op {
        Op::Memcmp => got == want,
        _ => (got == 0) == (want == 0),
    };
    assert!(
        ok,
        "{step:?} (kernel {}): got {got}, oracle {want}",
        fastmem::KERNEL.name()
    );
    assert!(
        a.bytes() == a_before && b.bytes() == b_before,
        "{step:?} wrote to an operand"
    );
}

fn run(step: &Step) {
    if matches!(step.op, Op::Memmove | Op::CopyWithin) {
        return run_move(step);
    }
    if matches!(step.op, Op::Memcmp | Op::Bcmp) {
        return run_compare(step);
    }
    let n = step.n;
    let dst = Arena::new(n, step.dst_off, pattern(step.seed, 1));
    let src = Arena::new(n, step.src_off, pattern(step.seed, 0));

    // The expected destination: its initial image with the window replaced.
    let mut want = dst.bytes().to_vec();
    let src_before = src.bytes().to_vec();
    let (ds, ss) = (dst.start(), src.start());
    match step.op {
        Op::Memset | Op::Fill | Op::MemsetNontemporal | Op::FillUninit => {
            oracle(&mut want, ds, n, |_| step.c)
        }
        _ => oracle(&mut want, ds, n, |i| src_before[ss + i]),
    }

    dst.guard();
    src.guard();
    let (d, s) = (dst.window(), src.window() as *const u8);
    // SAFETY: d and s are valid for n bytes each, in distinct allocations;
    // for MemcpyAligned both offsets are multiples of W from a 64-aligned base.
    unsafe {
        match step.op {
            Op::Memcpy => fastmem::memcpy(d, s, n),
            Op::MemcpyGeneric => fastmem::memcpy_generic(d, s, n),
            Op::MemcpyAligned => fastmem::memcpy_aligned(d, s, n),
            Op::Memset => fastmem::memset(d, step.c, n),
            Op::Copy => fastmem::copy(
                std::slice::from_raw_parts_mut(d, n),
                std::slice::from_raw_parts(s, n),
            ),
            Op::Fill => fastmem::fill(std::slice::from_raw_parts_mut(d, n), step.c),
            Op::Mov(16) => fastmem::mov16(d, s),
            Op::Mov(32) => fastmem::mov32(d, s),
            Op::Mov(64) => fastmem::mov64(d, s),
            Op::Mov(128) => fastmem::mov128(d, s),
            Op::Mov(256) => fastmem::mov256(d, s),
            Op::Mov(_) | Op::Memmove | Op::CopyWithin | Op::Memcmp | Op::Bcmp => unreachable!(),
            Op::MemcpyNontemporal => fastmem::memcpy_nontemporal(d, s, n),
            Op::MemsetNontemporal => fastmem::memset_nontemporal(d, step.c, n),
            Op::CopyUninit => in_place(
                fastmem::copy_uninit(
                    std::slice::from_raw_parts_mut(d.cast::<MaybeUninit<u8>>(), n),
                    std::slice::from_raw_parts(s, n),
                ),
                d,
                n,
            ),
            Op::FillUninit => in_place(
                fastmem::fill_uninit(
                    std::slice::from_raw_parts_mut(d.cast::<MaybeUninit<u8>>(), n),
                    step.c,
                ),
                d,
                n,
            ),
        }
    }
    src.unguard();
    dst.unguard();

    if dst.bytes() != want {
        let why = describe(dst.bytes(), &want, ds, n);
        panic!(
            "destination wrong after {step:?} (kernel {}): {why}",
            fastmem::KERNEL.name()
        );
    }
    if src.bytes() != src_before {
        let why = describe(src.bytes(), &src_before, ss, n);
        panic!(
            "source changed by {step:?} (kernel {}): {why}",
            fastmem::KERNEL.name()
        );
    }
}

/// When `FASTMEM_EXPECT_KERNEL` is set (ci/fuzz.sh sets it per tier), a
/// build that compiled another kernel fails at once instead of fuzzing the
/// wrong tier.
fn check_kernel() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let got = fastmem::KERNEL.name();
        eprintln!("fastmem fuzz: KERNEL = {got}");
        if let Ok(want) = std::env::var("FASTMEM_EXPECT_KERNEL") {
            assert_eq!(got, want, "fuzzing the wrong kernel tier");
        }
    });
}

fuzz_target!(|data: &[u8]| {
    check_kernel();
    for record in data.chunks_exact(RECORD).take(MAX_OPS) {
        run(&decode(record));
    }
});
