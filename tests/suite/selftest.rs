//! The harness must be able to fail: each test hands the rigs a copy or fill
//! with one deliberate, small bug and checks that every case reports it.

use crate::harness::{oracle_copy, CopyRig, FillRig};

/// Sizes around the vector widths, where one-byte slips hide best.
fn sizes() -> impl Iterator<Item = usize> {
    (1..=70).chain([127, 128, 129, 255, 256, 257, 1023, 1024])
}

/// A correct byte copy for the buggy variants to build on.
///
/// # Safety
/// `d` and `s` valid for `n` bytes, disjoint.
unsafe fn byte_copy(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: forwarded from the caller.
    let (d, s) = unsafe {
        (
            std::slice::from_raw_parts_mut(d, n),
            std::slice::from_raw_parts(s, n),
        )
    };
    oracle_copy(d, s);
}

/// Asserts that the copy rig rejects `f` at every size and a spread of
/// offsets (the rig's buffers leave room for one byte of slip each side).
fn rejects_copy(what: &str, mut f: impl FnMut(*mut u8, *const u8, usize)) {
    for n in sizes() {
        for (so, d) in [(1, 1), (2, 7), (5, 62)] {
            let mut rig = CopyRig::new(64, n + 1, n as u64);
            rig.set_source(n, so);
            assert!(
                rig.case(d, &mut f).is_err(),
                "{what} not caught at n = {n}, offsets ({so}, {d})"
            );
        }
    }
}

fn rejects_fill(what: &str, mut f: impl FnMut(*mut u8, u8, usize)) {
    for n in sizes() {
        for d in [1, 7, 62] {
            for c in [0x00, 0xFF, 0x5A] {
                let mut rig = FillRig::new(64, n + 1, c);
                assert!(
                    rig.case(n, d, &mut f).is_err(),
                    "{what} not caught at n = {n}, c = {c:#x}, offset {d}"
                );
            }
        }
    }
}

// SAFETY (every closure below): the rigs pass disjoint buffers valid for `n`
// bytes with at least 64 spare bytes on each side of the destination, so one
// byte of slip stays inside the allocation; the source buffer is writable.

#[test]
fn catches_copy_one_byte_past_the_end() {
    rejects_copy("overrun", |d, s, n| unsafe { byte_copy(d, s, n + 1) });
}

#[test]
fn catches_copy_one_byte_before_the_start() {
    rejects_copy("underrun", |d, s, n| unsafe {
        byte_copy(d, s, n);
        *d.sub(1) = *s;
    });
}

#[test]
fn catches_copy_missing_last_byte() {
    rejects_copy("short copy", |d, s, n| unsafe { byte_copy(d, s, n - 1) });
}

#[test]
fn catches_copy_shifted_source() {
    rejects_copy("shifted source", |d, s, n| unsafe {
        byte_copy(d, s.add(1), n)
    });
}

#[test]
fn catches_copy_writing_the_source() {
    rejects_copy("source write", |d, s, n| unsafe {
        byte_copy(d, s, n);
        *s.cast_mut().add(n - 1) ^= 1;
    });
}

#[test]
fn catches_fill_one_byte_past_the_end() {
    rejects_fill("overrun", |d, c, n| unsafe { d.write_bytes(c, n + 1) });
}

#[test]
fn catches_fill_one_byte_before_the_start() {
    rejects_fill("underrun", |d, c, n| unsafe {
        d.sub(1).write_bytes(c, n + 1)
    });
}

#[test]
fn catches_fill_missing_last_byte() {
    rejects_fill("short fill", |d, c, n| unsafe { d.write_bytes(c, n - 1) });
}

#[test]
fn catches_fill_wrong_byte() {
    rejects_fill("wrong byte", |d, c, n| unsafe {
        d.write_bytes(c, n);
        *d.add(n / 2) = c ^ 0x10;
    });
}
