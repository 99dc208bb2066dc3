//! `memmove` and `copy_within`: source and destination in one buffer, at
//! every overlap.
//!
//! ```text
//!  [ canary | pattern ..................................................... | canary ]
//!                    ^ src - SPAN          ^ src, n bytes          ^ src + n + SPAN
//!                              dst = src + delta, delta in -SPAN..=SPAN
//! ```
//!
//! `SPAN` is `2W * 8`, sixteen vectors: a delta of up to a whole no-loop
//! class or loop block on each side, so the destination starts before,
//! inside and after the source at every distance and alignment a class or
//! the loop can care about, and every `|delta| >= n` is the disjoint case.
//! After each call the whole buffer is compared with its pristine image: the
//! window must hold the source's bytes as they were before the call, every
//! other byte (the rest of the pattern and the canaries) must be unchanged.
//! The expected window comes from a byte loop (`oracle_move`'s, through
//! `black_box`), never from a `memmove` or `memcpy`.

use crate::guard::{Guarded, Place};
use crate::harness::{
    all_offsets, bytes_eq, bytes_to_vec, check_window, oracle_move, pattern,
    quickcheck_tests as tests, report, sweep_copy, AlignedBuf, CANARY, COPY_CANARY, W,
};
use quickcheck::{QuickCheck, TestResult};
use std::hint::black_box;

/// Every length the exhaustive sweep tries.
const MAX_N: usize = 1024;
/// The largest distance between source and destination: 2W * 8.
const SPAN: usize = 16 * W;

/// What any correct move of `n` bytes from `src` writes to its destination,
/// whatever the overlap: the source bytes as they were before the call, read
/// one at a time.
fn moved_bytes(pristine: &[u8], src: usize, n: usize) -> Vec<u8> {
    (0..n).map(|i| black_box(pristine[src + i])).collect()
}

/// One patterned buffer, canaried at both ends, with room for a source of
/// up to `max_n` bytes at `base + src_off` (`src_off < max_off`) and a
/// destination up to `SPAN` bytes either side of it.
struct MoveRig {
    buf: AlignedBuf,
    pristine: Vec<u8>,
    base: usize,
}

impl MoveRig {
    fn new(max_off: usize, max_n: usize, seed: u64) -> Self {
        let region = SPAN + max_off + max_n + SPAN;
        let mut buf = AlignedBuf::new(CANARY + region + CANARY);
        buf.fill(COPY_CANARY);
        pattern(&mut buf[CANARY..CANARY + region], seed);
        MoveRig {
            pristine: bytes_to_vec(&buf),
            buf,
            base: CANARY + SPAN,
        }
    }

    /// Calls `f(dst, src, n)` with the source at `base + src_off` and the
    /// destination `delta` bytes from it; checks every byte of the buffer
    /// against the pristine image with `expected` in the window, then puts
    /// the window back.
    fn case(
        &mut self,
        src_off: usize,
        n: usize,
        delta: isize,
        expected: &[u8],
        f: &mut impl FnMut(*mut u8, *const u8, usize),
    ) -> Result<(), String> {
        let src = self.base + src_off;
        let dst = src.checked_add_signed(delta).unwrap();
        let p = self.buf.ptr();
        // SAFETY: both windows lie inside the buffer (`new`).
        f(unsafe { p.add(dst) }, unsafe { p.add(src) }, n);
        check_window(&self.buf, &self.pristine, dst, expected)?;
        self.buf[dst..dst + n].copy_from_slice(&self.pristine[dst..dst + n]);
        Ok(())
    }
}

/// Runs `f` at every `n` in `ns` × every delta in `deltas` × every source
/// offset; panics naming the first failing case. Returns the cases run.
fn sweep_move(
    name: &str,
    ns: impl IntoIterator<Item = usize> + Clone,
    deltas: impl IntoIterator<Item = isize> + Clone,
    src_offs: &[usize],
    seed: u64,
    mut f: impl FnMut(*mut u8, *const u8, usize),
) -> u64 {
    let max_n = ns.clone().into_iter().max().unwrap_or(0);
    let max_off = 1 + src_offs.iter().max().copied().unwrap_or(0);
    let mut rig = MoveRig::new(max_off, max_n, seed);
    let mut cases = 0;
    for &so in src_offs {
        for n in ns.clone() {
            let expected = moved_bytes(&rig.pristine, rig.base + so, n);
            for delta in deltas.clone() {
                if let Err(e) = rig.case(so, n, delta, &expected, &mut f) {
                    panic!("{name}(n = {n}, src_off = {so}, delta = {delta}): {e}");
                }
                cases += 1;
            }
        }
    }
    cases
}

/// The exhaustive sweep on one side: every `n` × every delta in `deltas`,
/// from a W-aligned source (every destination alignment comes from the
/// deltas), and from a source misaligned by 3 at every 7th delta (7 is
/// prime to W, so those still meet every destination alignment).
fn memmove_sweep(test: &str, deltas: std::ops::RangeInclusive<isize>, seed: u64) {
    let f = |d, s, n| {
        // SAFETY: the rig passes windows valid for `n` bytes.
        unsafe { fastmem::memmove(d, s, n) }
    };
    let mut cases = sweep_move("memmove", 0..=MAX_N, deltas.clone(), &[0], seed, f);
    cases += sweep_move("memmove", 0..=MAX_N, deltas.step_by(7), &[3], seed, f);
    report(test, cases);
}

/// The destination before the source (and at it): deltas `-SPAN..=0`.
#[test]
fn memmove_dst_before_src() {
    memmove_sweep("memmove_dst_before_src", -(SPAN as isize)..=0, 21);
}

/// The destination after the source: deltas `1..=SPAN`.
#[test]
fn memmove_dst_after_src() {
    memmove_sweep("memmove_dst_after_src", 1..=SPAN as isize, 22);
}

/// `memmove` between two buffers, as `memcpy` is tested.
#[test]
fn memmove_disjoint() {
    let (offs, dst_offs) = (all_offsets(), [0, 1, 15, 33, 63]);
    let cases = sweep_copy("memmove", 0..=MAX_N, &offs, &dst_offs, 23, |d, s, n| {
        // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
        unsafe { fastmem::memmove(d, s, n) }
    });
    report("memmove_disjoint", cases);
}

/// Sizes past the no-loop classes, up to past the loop's string threshold
/// on every kernel, at deltas around vectors and blocks.
#[test]
fn memmove_large_sizes() {
    let ns = [
        1025,
        1518,
        2047,
        2048,
        2049,
        4095,
        4096,
        4097,
        8192 + 33,
        65536 + 7,
    ];
    let deltas: Vec<isize> = [1, 2, 17, W - 1, W, W + 3, 4 * W + 1, 1000, 5000]
        .into_iter()
        .flat_map(|d| [d as isize, -(d as isize)])
        .chain([0])
        .collect();
    let mut cases = 0;
    for n in ns {
        let mut buf = AlignedBuf::new(2 * 5000 + n + 64);
        pattern(&mut buf, n as u64);
        let pristine = bytes_to_vec(&buf);
        for &delta in &deltas {
            for so in [0, 5] {
                let src: usize = 5000 + so;
                let dst = src.checked_add_signed(delta).unwrap();
                // SAFETY: both windows lie inside `buf`.
                unsafe { fastmem::memmove(buf.ptr().add(dst), buf.ptr().add(src), n) };
                let expected = moved_bytes(&pristine, src, n);
                if let Err(e) = check_window(&buf, &pristine, dst, &expected) {
                    panic!("memmove(n = {n}, src_off = {so}, delta = {delta}): {e}");
                }
                buf[dst..dst + n].copy_from_slice(&pristine[dst..dst + n]);
                cases += 1;
            }
        }
    }
    report("memmove_large_sizes", cases);
}

/// `copy_within` over the same rig, at fewer deltas: it adds only the
/// bounds checks to `memmove`.
#[test]
fn copy_within_results() {
    let deltas = [
        -(SPAN as isize),
        -(W as isize) - 1,
        -1,
        0,
        1,
        3,
        W as isize,
        SPAN as isize,
    ];
    let cases = sweep_move("copy_within", 0..=MAX_N, deltas, &[0], 24, |d, s, n| {
        // SAFETY: the rig passes windows valid for `n` bytes, in one
        // buffer; the slice spans both.
        let (lo, hi) = (
            (d as usize).min(s as usize),
            (d as usize).max(s as usize) + n,
        );
        let buf = unsafe { std::slice::from_raw_parts_mut(lo as *mut u8, hi - lo) };
        let (from, to) = (s as usize - lo, d as usize - lo);
        fastmem::copy_within(buf, from..from + n, to);
    });
    report("copy_within_results", cases);
}

/// Every form of range `copy_within` takes, against the oracle on the
/// bounds the range means.
#[test]
fn copy_within_range_forms() {
    use std::ops::Bound::{Excluded, Included};
    let check = |what: &str, f: &dyn Fn(&mut [u8]), start: usize, end: usize, dest: usize| {
        let mut ours: Vec<u8> = (0..=255u8).collect();
        let mut want = bytes_to_vec(&ours);
        f(&mut ours);
        oracle_move(&mut want, dest, start, end - start);
        assert!(bytes_eq(&ours, &want), "copy_within {what}");
    };
    check("a..b", &|b| fastmem::copy_within(b, 3..100, 50), 3, 100, 50);
    check(
        "a..=b",
        &|b| fastmem::copy_within(b, 60..=200, 1),
        60,
        201,
        1,
    );
    check("a..", &|b| fastmem::copy_within(b, 200.., 0), 200, 256, 0);
    check("..b", &|b| fastmem::copy_within(b, ..56, 200), 0, 56, 200);
    check("..=b", &|b| fastmem::copy_within(b, ..=9, 246), 0, 10, 246);
    check("..", &|b| fastmem::copy_within(b, .., 0), 0, 256, 0);
    check(
        "empty at the end",
        &|b| fastmem::copy_within(b, 256..256, 256),
        0,
        0,
        0,
    );
    let excl = (Excluded(4), Included(90));
    check(
        "(Excluded, Included)",
        &|b| fastmem::copy_within(b, excl, 7),
        5,
        91,
        7,
    );
}

#[test]
#[should_panic(expected = "fastmem::copy_within: source range end 40 is past the buffer length 32")]
fn copy_within_source_past_end() {
    fastmem::copy_within(&mut [0u8; 32], 8..40, 0);
}

#[test]
#[should_panic(expected = "fastmem::copy_within: source range end 33 is past the buffer length 32")]
fn copy_within_inclusive_source_past_end() {
    fastmem::copy_within(&mut [0u8; 32], 0..=32, 0);
}

#[test]
#[should_panic(expected = "fastmem::copy_within: source range start 20 is past its end 10")]
fn copy_within_source_reversed() {
    #[allow(clippy::reversed_empty_ranges)]
    fastmem::copy_within(&mut [0u8; 32], 20..10, 0);
}

#[test]
#[should_panic(
    expected = "fastmem::copy_within: destination 25 plus 8 bytes is past the buffer length 32"
)]
fn copy_within_destination_past_end() {
    fastmem::copy_within(&mut [0u8; 32], 0..8, 25);
}

#[test]
#[should_panic(
    expected = "fastmem::copy_within: source range end 18446744073709551615 + 1 overflows usize"
)]
fn copy_within_inclusive_end_overflows() {
    fastmem::copy_within(&mut [0u8; 32], 0..=usize::MAX, 0);
}

/// A failed `copy_within` writes nothing.
#[test]
fn copy_within_panic_leaves_buffer() {
    let mut b: Vec<u8> = (0..64).collect();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        fastmem::copy_within(&mut b, 0..10, 60)
    }));
    assert!(r.is_err());
    assert!(b.iter().enumerate().all(|(i, &x)| x == i as u8));
}

/// Distances the guard-page test moves at: around a byte, a vector and a
/// no-loop class, `n` itself (adjacent windows) and `n / 2`.
fn guard_deltas(n: usize) -> Vec<usize> {
    let mut v = vec![1, 3, W - 1, W, W + 1, 8 * W + 5, n, n / 2 + 1];
    v.retain(|&d| d > 0);
    v.sort_unstable();
    v.dedup();
    v
}

/// Source and destination in one guarded arena, the pair flush against
/// the guard page before it and against the one after it, each way round:
/// every edge of either window meets a guard in some case.
#[test]
fn memmove_against_guard_pages() {
    let top = 1100;
    let mut g = Guarded::new(top + 8 * W + 5 + top);
    pattern(g.data(), 24);
    let pristine = bytes_to_vec(g.data());
    let mut cases = 0;
    for n in 0..=top {
        for d in guard_deltas(n) {
            for place in [Place::Start, Place::End] {
                for dst_after in [false, true] {
                    // The pair spans `n + d` bytes from `lo`.
                    let lo = g.at(place, n + d) as usize - g.start() as usize;
                    let (src, dst) = if dst_after {
                        (lo, lo + d)
                    } else {
                        (lo + d, lo)
                    };
                    let p = g.start();
                    // SAFETY: both windows lie in the data area.
                    unsafe { fastmem::memmove(p.add(dst), p.add(src), n) };
                    let expected = moved_bytes(&pristine, src, n);
                    if let Err(e) = check_window(g.data(), &pristine, dst, &expected) {
                        panic!(
                            "memmove(n = {n}, delta = {}{d}) at {place:?}: {e}",
                            if dst_after { "+" } else { "-" }
                        );
                    }
                    g.data()[dst..dst + n].copy_from_slice(&pristine[dst..dst + n]);
                    cases += 1;
                }
            }
        }
    }
    report("memmove_against_guard_pages", cases);
}

/// Disjoint windows in two arenas, each flush against a guard page.
#[test]
fn memmove_disjoint_against_guard_pages() {
    let top = 1100;
    let mut src = Guarded::new(top);
    pattern(src.data(), 25);
    let dst = Guarded::new(top);
    let mut cases = 0;
    for n in 0..=top {
        for (sp, dp) in [
            (Place::Start, Place::Start),
            (Place::End, Place::End),
            (Place::Start, Place::End),
            (Place::End, Place::Start),
        ] {
            let (s, d) = (src.at(sp, n), dst.at(dp, n));
            // SAFETY: both windows lie in their arenas' data areas.
            unsafe { fastmem::memmove(d, s, n) };
            // SAFETY: as above; nothing else refers to them now.
            let ok = unsafe {
                bytes_eq(
                    std::slice::from_raw_parts(d, n),
                    std::slice::from_raw_parts(s, n),
                )
            };
            assert!(
                ok,
                "memmove(n = {n}) src at {sp:?}, dst at {dp:?}: wrong bytes"
            );
            cases += 1;
        }
    }
    report("memmove_disjoint_against_guard_pages", cases);
}

/// Random lengths up to 64 KiB (half of them up to 1 KiB), random deltas
/// within `n + 64` either way, random alignment and contents; the oracle
/// moves a copy of the whole buffer in place, one byte at a time.
#[test]
fn memmove_random() {
    fn prop(raw: u32, small: bool, raw_delta: u32, so: u8, seed: u64) -> TestResult {
        let n = raw as usize % if small { 1025 } else { (64 << 10) + 1 };
        let reach = n + 64;
        let delta = (raw_delta as usize % (2 * reach + 1)) as isize - reach as isize;
        let mut buf = AlignedBuf::new(CANARY + reach + 64 + n + reach + CANARY);
        buf.fill(COPY_CANARY);
        let region = buf.len() - 2 * CANARY;
        pattern(&mut buf[CANARY..CANARY + region], seed);
        let src = CANARY + reach + so as usize % 64;
        let dst = src.checked_add_signed(delta).unwrap();
        let pristine = bytes_to_vec(&buf);
        let mut want = bytes_to_vec(&pristine);
        oracle_move(&mut want, dst, src, n);
        // SAFETY: both windows lie inside `buf`.
        unsafe { fastmem::memmove(buf.ptr().add(dst), buf.ptr().add(src), n) };
        if bytes_eq(&buf, &want) {
            TestResult::passed()
        } else {
            let i = buf.iter().zip(&want).position(|(a, b)| a != b).unwrap();
            TestResult::error(format!(
                "memmove(n = {n}, delta = {delta}, src_off = {}): byte {} from the destination differs",
                so % 64,
                i as isize - dst as isize
            ))
        }
    }
    QuickCheck::new()
        .tests(tests())
        .max_tests(10 * tests())
        .quickcheck(prop as fn(u32, bool, u32, u8, u64) -> TestResult);
    report("memmove_random", tests());
}

/// `copy_within` against the oracle on random in-bounds ranges
/// (the out-of-bounds ones are the `should_panic` tests': a panic here
/// would print under `--show-output`, where CI reads the case counts).
#[test]
fn copy_within_random() {
    fn prop(len: u16, a: u16, b: u16, dest: u16, seed: u64) -> TestResult {
        let len = len as usize % 4097;
        let (a, b) = (a as usize % (len + 1), b as usize % (len + 1));
        let (start, end) = (a.min(b), a.max(b));
        let dest = dest as usize % (len - (end - start) + 1);
        let mut ours = vec![0u8; len];
        pattern(&mut ours, seed);
        let mut theirs = bytes_to_vec(&ours);
        fastmem::copy_within(&mut ours, start..end, dest);
        oracle_move(&mut theirs, dest, start, end - start);
        if bytes_eq(&ours, &theirs) {
            TestResult::passed()
        } else {
            TestResult::error(format!(
                "copy_within(len {len}, {start}..{end}, {dest}) differs from std's"
            ))
        }
    }
    QuickCheck::new()
        .tests(tests())
        .max_tests(10 * tests())
        .quickcheck(prop as fn(u16, u16, u16, u16, u64) -> TestResult);
    report("copy_within_random", tests());
}
