//! `memcmp`, `bcmp`, `eq` and `compare` against a byte-loop oracle:
//! exhaustive over sizes, offsets and the position and sign of a single
//! difference; quickcheck over random contents, lengths and offsets.
//!
//! The oracles read every byte through `black_box`, so LLVM cannot turn
//! them into a call of `memcmp` or `bcmp`: a build that links fastmem's
//! own C symbols into this binary would otherwise check the code under
//! test against itself. For the same reason no check here compares slices
//! with `==` or `<[u8]>::cmp`.
//!
//! Around each operand the bytes differ from the other operand's (0xAA
//! before and after `a`, 0x55 around `b`, and the byte just past the end
//! set so for every `n`): a compare that read outside `[p, p + n)` and
//! used what it read would see a difference that is not there. The guard
//! pages (`guard::compares_against_guard_pages`) catch reads that are not
//! used.

use crate::harness::{pattern, quickcheck_tests as tests, report, AlignedBuf, CANARY};
use quickcheck::{QuickCheck, TestResult};
use std::cmp::Ordering;
use std::hint::black_box;

/// Every length the exhaustive sweep tries: the no-loop sizes of every
/// kernel and the first iterations of every block loop.
const MAX_N: usize = 1024;

/// The `memcmp` oracle: the difference of the first differing bytes, one
/// byte at a time.
pub fn oracle_memcmp(a: &[u8], b: &[u8]) -> i32 {
    assert_eq!(a.len(), b.len());
    for i in 0..a.len() {
        let (x, y) = (black_box(a[i]), black_box(b[i]));
        if x != y {
            return i32::from(x) - i32::from(y);
        }
    }
    0
}

/// The `<[u8]>::cmp` oracle: the first differing byte, else the lengths.
pub fn oracle_cmp(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    oracle_memcmp(&a[..n], &b[..n])
        .cmp(&0)
        .then(a.len().cmp(&b.len()))
}

/// The four functions on one pair of windows, against the expected
/// `memcmp` result (its sign for `compare`, zero or not for the others).
///
/// # Safety
///
/// `a` and `b` are readable for `n` bytes.
pub unsafe fn check_all(a: *const u8, b: *const u8, n: usize, want: i32) -> Result<(), String> {
    // SAFETY: the caller's contract.
    let (sa, sb) = unsafe {
        (
            std::slice::from_raw_parts(a, n),
            std::slice::from_raw_parts(b, n),
        )
    };
    // SAFETY: as above.
    let (m, bc) = unsafe { (fastmem::memcmp(a, b, n), fastmem::bcmp(a, b, n)) };
    let (e, c) = (fastmem::eq(sa, sb), fastmem::compare(sa, sb));
    if m != want {
        return Err(format!("memcmp = {m}, want {want}"));
    }
    if (bc == 0) != (want == 0) {
        return Err(format!(
            "bcmp = {bc}, want {}",
            if want == 0 { "0" } else { "non-zero" }
        ));
    }
    if e != (want == 0) {
        return Err(format!("eq = {e}, want {}", want == 0));
    }
    if c != want.cmp(&0) {
        return Err(format!("compare = {c:?}, want {:?}", want.cmp(&0)));
    }
    Ok(())
}

/// Two operands at offsets from page-aligned bases, equal over `0..max_n`
/// and different everywhere around.
struct CmpRig {
    a: AlignedBuf,
    b: AlignedBuf,
    wa: usize,
    wb: usize,
}

impl CmpRig {
    fn new(aoff: usize, boff: usize, max_n: usize, seed: u64) -> Self {
        let len = CANARY + aoff.max(boff) + max_n + 1 + CANARY;
        let (mut a, mut b) = (AlignedBuf::new(len), AlignedBuf::new(len));
        a.fill(0xAA);
        b.fill(0x55);
        let (wa, wb) = (CANARY + aoff, CANARY + boff);
        pattern(&mut a[wa..wa + max_n], seed);
        let (a_ptr, b_ptr) = (a.ptr(), b.ptr());
        // SAFETY: both windows lie inside their buffers; distinct buffers.
        unsafe { std::ptr::copy_nonoverlapping(a_ptr.add(wa), b_ptr.add(wb), max_n) };
        CmpRig { a, b, wa, wb }
    }

    /// Runs `check_all` on the windows of `n` bytes, with the byte after
    /// them made to differ.
    fn case(&mut self, n: usize, want: i32) -> Result<(), String> {
        let (wa, wb) = (self.wa, self.wb);
        let saved = (self.a[wa + n], self.b[wb + n]);
        (self.a[wa + n], self.b[wb + n]) = (0xAA, 0x55);
        // SAFETY: both windows are in their buffers.
        let r = unsafe { check_all(self.a.ptr().add(wa), self.b.ptr().add(wb), n, want) };
        (self.a[wa + n], self.b[wb + n]) = saved;
        r
    }

    /// Sets byte `p` of the windows to `x` and `y`; returns what was there.
    fn set(&mut self, p: usize, (x, y): (u8, u8)) -> (u8, u8) {
        let (wa, wb) = (self.wa, self.wb);
        let old = (self.a[wa + p], self.b[wb + p]);
        (self.a[wa + p], self.b[wb + p]) = (x, y);
        old
    }
}

/// The bytes a single difference is made of: 0x00 against 0xFF, and 0x7F
/// against 0x80, which a compare of signed bytes orders backwards.
const PAIRS: [[(u8, u8); 2]; 2] = [[(0x00, 0xFF), (0xFF, 0x00)], [(0x7F, 0x80), (0x80, 0x7F)]];

/// Offsets of `a` and `b`: aligned, each misaligned, both, and (in release
/// builds) more residues.
fn offsets() -> Vec<(usize, usize)> {
    let mut v = vec![(0, 0), (1, 33), (63, 17)];
    if !cfg!(debug_assertions) {
        v.extend([(1, 0), (0, 33), (5, 5), (32, 0), (7, 61), (48, 16)]);
    }
    v
}

#[test]
fn compare_all_sizes_and_positions() {
    let mut cases = 0u64;
    for (k, (aoff, boff)) in offsets().into_iter().enumerate() {
        let mut rig = CmpRig::new(aoff, boff, MAX_N, k as u64 + 1);
        for n in 0..=MAX_N {
            let fail = |what: &str, e: String| -> ! {
                panic!("n = {n}, aoff = {aoff}, boff = {boff}, {what}: {e}")
            };
            if let Err(e) = rig.case(n, 0) {
                fail("equal", e);
            }
            cases += 1;
            for p in 0..n {
                // Both signs at every position; which pair of bytes turns
                // with `n`, so each position meets both pairs.
                for (x, y) in PAIRS[(p + n) % 2] {
                    let old = rig.set(p, (x, y));
                    if let Err(e) = rig.case(n, i32::from(x) - i32::from(y)) {
                        fail(&format!("{x:#04x} vs {y:#04x} at {p}"), e);
                    }
                    rig.set(p, old);
                    cases += 1;
                }
            }
        }
    }
    report("compare_all_sizes_and_positions", cases);
}

/// Slices of different lengths, one a prefix of the other or not:
/// `compare` orders by the first difference, then by length, and `eq`
/// needs equal lengths.
#[test]
fn compare_prefixes_and_lengths() {
    let mut buf = vec![0u8; 600];
    pattern(&mut buf, 5);
    let mut other = vec![0u8; 600];
    pattern(&mut other, 5);
    let mut cases = 0u64;
    for n in 0..=520usize {
        for m in n.saturating_sub(3)..=n + 3 {
            let (a, b) = (&buf[..n], &other[..m]);
            let want = oracle_cmp(a, b);
            assert_eq!(fastmem::compare(a, b), want, "compare(len {n}, len {m})");
            assert_eq!(
                fastmem::compare(b, a),
                want.reverse(),
                "compare(len {m}, len {n})"
            );
            assert_eq!(
                fastmem::eq(a, b),
                want == Ordering::Equal,
                "eq(len {n}, len {m})"
            );
            cases += 3;
        }
        // A difference inside the shorter slice decides over the lengths.
        if n > 0 {
            other[n / 2] ^= 0x80;
            let (a, b) = (&buf[..n], &other[..n + 1]);
            assert_eq!(
                fastmem::compare(a, b),
                oracle_cmp(a, b),
                "len {n} vs {}",
                n + 1
            );
            other[n / 2] ^= 0x80;
            cases += 1;
        }
    }
    report("compare_prefixes_and_lengths", cases);
}

/// `n == 0` reads nothing: dangling pointers are fine.
#[test]
fn compare_zero_length_reads_nothing() {
    let p = std::ptr::NonNull::<u8>::dangling().as_ptr();
    // SAFETY: n == 0 touches no memory.
    unsafe {
        assert_eq!(fastmem::memcmp(p, p.wrapping_add(3), 0), 0);
        assert_eq!(fastmem::bcmp(p.wrapping_add(1), p, 0), 0);
    }
    assert!(fastmem::eq(&[], &[]));
    assert_eq!(fastmem::compare(&[], &[]), Ordering::Equal);
    assert_eq!(fastmem::compare(&[], &[0]), Ordering::Less);
}

/// Random contents, lengths (half up to 1 KiB, half up to 64 KiB) and
/// offsets; `b` is `a` with `flips` random bytes changed (none: equal).
#[test]
fn compare_random() {
    fn prop(
        raw: u32,
        small: bool,
        aoff: u8,
        boff: u8,
        seed: u64,
        flips: Vec<(u16, u8)>,
    ) -> TestResult {
        let n = raw as usize % if small { 1025 } else { (64 << 10) + 1 };
        let (aoff, boff) = (aoff as usize % 64, boff as usize % 64);
        let mut rig = CmpRig::new(aoff, boff, n, seed);
        for &(at, v) in flips.iter().take(3) {
            if n > 0 {
                let p = at as usize * 7919 % n;
                let x = rig.a[rig.wa + p];
                rig.set(p, (x, v));
            }
        }
        let want = oracle_memcmp(&rig.a[rig.wa..rig.wa + n], &rig.b[rig.wb..rig.wb + n]);
        match rig.case(n, want) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(format!("n = {n}, aoff = {aoff}, boff = {boff}: {e}")),
        }
    }
    QuickCheck::new()
        .tests(tests())
        .max_tests(10 * tests())
        .quickcheck(prop as fn(u32, bool, u8, u8, u64, Vec<(u16, u8)>) -> TestResult);
    report("compare_random", tests());
}

/// `eq` and `compare` on random slices of random, often different, lengths
/// against the oracle.
#[test]
fn compare_random_slices() {
    fn prop(a: Vec<u8>, b: Vec<u8>, share: u8) -> TestResult {
        // Often a common prefix, so the lengths and late bytes decide.
        let k = (share as usize).min(a.len());
        let b: Vec<u8> = a[..k].iter().chain(&b).copied().collect();
        let want = oracle_cmp(&a, &b);
        let (c, e) = (fastmem::compare(&a, &b), fastmem::eq(&a, &b));
        if c != want || e != (want == Ordering::Equal) {
            return TestResult::error(format!(
                "compare = {c:?}, eq = {e}, want {want:?} (lengths {} and {})",
                a.len(),
                b.len()
            ));
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(tests())
        .max_tests(10 * tests())
        .quickcheck(prop as fn(Vec<u8>, Vec<u8>, u8) -> TestResult);
    report("compare_random_slices", tests());
}
