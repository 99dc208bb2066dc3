//! Property tests: random lengths up to 64 KiB, offsets, contents and fill
//! bytes against the oracle, through the same canary rigs; and the safe
//! layer's length check.
//!
//! `QUICKCHECK_TESTS` sets the number of cases per property (default 500).

use crate::harness::{
    quickcheck_tests as tests, report, safe_copy, safe_fill, CopyRig, FillRig, OFFSETS, W,
};
use quickcheck::{QuickCheck, TestResult};
use std::panic::{catch_unwind, AssertUnwindSafe};

const MAX_LEN: usize = 64 << 10;

fn qc() -> QuickCheck {
    QuickCheck::new().tests(tests()).max_tests(10 * tests())
}

/// Half the lengths uniform in `0..=1024`, where the size classes are dense,
/// half uniform in `0..=64 KiB`.
fn length(raw: u32, small: bool) -> usize {
    let raw = raw as usize;
    if small {
        raw % 1025
    } else {
        raw % (MAX_LEN + 1)
    }
}

fn check_copy(
    name: &str,
    n: usize,
    so: usize,
    d: usize,
    seed: u64,
    mut f: impl FnMut(*mut u8, *const u8, usize),
) -> TestResult {
    let mut rig = CopyRig::new(so.max(d) + 1, n, seed);
    rig.set_source(n, so);
    match rig.case(d, &mut f) {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(format!(
            "{name}(n = {n}, src_off = {so}, dst_off = {d}): {e}"
        )),
    }
}

#[test]
fn memcpy_random() {
    fn prop(raw: u32, small: bool, so: u8, d: u8, seed: u64) -> TestResult {
        let (so, d) = (so as usize % OFFSETS, d as usize % OFFSETS);
        check_copy("memcpy", length(raw, small), so, d, seed, |d, s, n| {
            // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
            unsafe { fastmem::memcpy(d, s, n) }
        })
    }
    qc().quickcheck(prop as fn(u32, bool, u8, u8, u64) -> TestResult);
    report("memcpy_random", tests());
}

#[test]
fn memcpy_generic_random() {
    fn prop(raw: u32, small: bool, so: u8, d: u8, seed: u64) -> TestResult {
        let (so, d) = (so as usize % OFFSETS, d as usize % OFFSETS);
        check_copy(
            "memcpy_generic",
            length(raw, small),
            so,
            d,
            seed,
            |d, s, n| {
                // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
                unsafe { fastmem::memcpy_generic(d, s, n) }
            },
        )
    }
    qc().quickcheck(prop as fn(u32, bool, u8, u8, u64) -> TestResult);
    report("memcpy_generic_random", tests());
}

#[test]
fn memcpy_aligned_random() {
    fn prop(raw: u32, small: bool, so: u8, d: u8, seed: u64) -> TestResult {
        // Multiples of W below 256 keep both pointers W-aligned.
        let (so, d) = (so as usize % 256 / W * W, d as usize % 256 / W * W);
        check_copy(
            "memcpy_aligned",
            length(raw, small),
            so,
            d,
            seed,
            |d, s, n| {
                // SAFETY: as above, and both pointers are W-aligned.
                unsafe { fastmem::memcpy_aligned(d, s, n) }
            },
        )
    }
    qc().quickcheck(prop as fn(u32, bool, u8, u8, u64) -> TestResult);
    report("memcpy_aligned_random", tests());
}

#[test]
fn memcpy_nontemporal_random() {
    fn prop(raw: u32, small: bool, so: u8, d: u8, seed: u64) -> TestResult {
        let (so, d) = (so as usize % OFFSETS, d as usize % OFFSETS);
        check_copy(
            "memcpy_nontemporal",
            length(raw, small),
            so,
            d,
            seed,
            |d, s, n| {
                // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
                unsafe { fastmem::memcpy_nontemporal(d, s, n) }
            },
        )
    }
    qc().quickcheck(prop as fn(u32, bool, u8, u8, u64) -> TestResult);
    report("memcpy_nontemporal_random", tests());
}

#[test]
fn copy_random() {
    fn prop(raw: u32, small: bool, so: u8, d: u8, seed: u64) -> TestResult {
        let (so, d) = (so as usize % OFFSETS, d as usize % OFFSETS);
        check_copy("copy", length(raw, small), so, d, seed, |d, s, n| {
            // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
            unsafe { safe_copy(d, s, n) }
        })
    }
    qc().quickcheck(prop as fn(u32, bool, u8, u8, u64) -> TestResult);
    report("copy_random", tests());
}

fn check_fill(
    name: &str,
    n: usize,
    d: usize,
    c: u8,
    mut f: impl FnMut(*mut u8, u8, usize),
) -> TestResult {
    let mut rig = FillRig::new(d + 1, n, c);
    match rig.case(n, d, &mut f) {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(format!("{name}(n = {n}, c = {c:#04x}, dst_off = {d}): {e}")),
    }
}

#[test]
fn memset_random() {
    fn prop(raw: u32, small: bool, d: u8, c: u8) -> TestResult {
        check_fill(
            "memset",
            length(raw, small),
            d as usize % OFFSETS,
            c,
            |d, c, n| {
                // SAFETY: the rig passes a buffer valid for `n` bytes.
                unsafe { fastmem::memset(d, c, n) }
            },
        )
    }
    qc().quickcheck(prop as fn(u32, bool, u8, u8) -> TestResult);
    report("memset_random", tests());
}

#[test]
fn memset_nontemporal_random() {
    fn prop(raw: u32, small: bool, d: u8, c: u8) -> TestResult {
        check_fill(
            "memset_nontemporal",
            length(raw, small),
            d as usize % OFFSETS,
            c,
            |d, c, n| {
                // SAFETY: the rig passes a buffer valid for `n` bytes.
                unsafe { fastmem::memset_nontemporal(d, c, n) }
            },
        )
    }
    qc().quickcheck(prop as fn(u32, bool, u8, u8) -> TestResult);
    report("memset_nontemporal_random", tests());
}

#[test]
fn fill_random() {
    fn prop(raw: u32, small: bool, d: u8, c: u8) -> TestResult {
        check_fill(
            "fill",
            length(raw, small),
            d as usize % OFFSETS,
            c,
            |d, c, n| {
                // SAFETY: the rig passes a buffer valid for `n` bytes.
                unsafe { safe_fill(d, c, n) }
            },
        )
    }
    qc().quickcheck(prop as fn(u32, bool, u8, u8) -> TestResult);
    report("fill_random", tests());
}

/// The panic message of `copy` with mismatched lengths, or `None` if it did
/// not panic.
fn copy_panic_message(dst_len: usize, src_len: usize) -> Option<String> {
    let (mut dst, src) = (vec![0u8; dst_len], vec![1u8; src_len]);
    let payload = catch_unwind(AssertUnwindSafe(|| fastmem::copy(&mut dst, &src))).err()?;
    let msg = match payload.downcast::<String>() {
        Ok(s) => *s,
        Err(p) => p
            .downcast::<&str>()
            .map(|s| s.to_string())
            .unwrap_or_default(),
    };
    Some(msg)
}

/// The message must name both lengths, and the destination must be left
/// untouched.
#[test]
fn copy_length_mismatch_names_both_lengths() {
    fn prop(a: u16, b: u16) -> TestResult {
        let (a, b) = (a as usize + 1000, b as usize + 1000);
        if a == b {
            return TestResult::discard();
        }
        match copy_panic_message(a, b) {
            None => TestResult::error(format!(
                "copy(dst.len() = {a}, src.len() = {b}) did not panic"
            )),
            Some(m) if m.contains(&a.to_string()) && m.contains(&b.to_string()) => {
                TestResult::passed()
            }
            Some(m) => TestResult::error(format!("message {m:?} does not name {a} and {b}")),
        }
    }
    QuickCheck::new()
        .tests(50)
        .quickcheck(prop as fn(u16, u16) -> TestResult);
}

#[test]
#[should_panic(expected = "1234")]
fn copy_longer_source_panics() {
    fastmem::copy(&mut [0u8; 567], &[0u8; 1234]);
}

#[test]
#[should_panic(expected = "1234")]
fn copy_longer_destination_panics() {
    fastmem::copy(&mut [0u8; 1234], &[0u8; 567]);
}
