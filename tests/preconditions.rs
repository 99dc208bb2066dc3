//! Bad input: every documented precondition fails loudly, with a message
//! that says what was wrong.
//!
//! - Debug builds `debug_assert!` that `memcpy*` and `movN` regions do not
//!   overlap ("overlap") and that `memcpy_aligned`'s pointers are aligned to
//!   the vector width ("aligned"). These tests exist only under
//!   `debug_assertions`; in release the checks are compiled out, and calling
//!   the raw functions this way would be undefined behaviour.
//! - The safe `copy` and `copy_uninit` panic on a length mismatch in every
//!   build, naming both lengths; the safe layer's panics name the caller's
//!   line as their location.
//! - Regions that merely touch (`dst == src + n`) are legal and must not trip
//!   the overlap check.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// The panic message of `f`, which must panic.
fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else {
        panic!("panic payload is not a string")
    }
}

#[cfg(debug_assertions)]
mod debug {
    use super::*;
    use fastmem::{memcpy, memcpy_aligned, memcpy_generic, mov16, mov256, KERNEL};

    /// Room for a few vectors of the widest kernel, aligned for any of them.
    #[repr(C, align(64))]
    struct Aligned([u8; 1024]);

    fn aligned() -> Box<Aligned> {
        Box::new(Aligned([0; 1024]))
    }

    fn w() -> usize {
        KERNEL.vector_bytes()
    }

    #[test]
    #[should_panic(expected = "overlap")]
    fn memcpy_overlap_small() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        // SAFETY: in bounds; the debug check panics before any access.
        unsafe { memcpy(p.add(1), p, 4) }
    }

    #[test]
    #[should_panic(expected = "overlap")]
    fn memcpy_overlap_large() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        // SAFETY: as above.
        unsafe { memcpy(p, p.add(100), 300) }
    }

    #[test]
    #[should_panic(expected = "overlap")]
    fn memcpy_same_pointer() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        // SAFETY: as above.
        unsafe { memcpy(p, p, 1) }
    }

    #[test]
    #[should_panic(expected = "overlap")]
    fn memcpy_generic_overlap() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        // SAFETY: as above.
        unsafe { memcpy_generic(p.add(3), p, 200) }
    }

    #[test]
    #[should_panic(expected = "overlap")]
    fn memcpy_aligned_overlap() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        // Both pointers aligned, so only the overlap check can fire.
        // SAFETY: as above.
        unsafe { memcpy_aligned(p.add(w()), p, 2 * w()) }
    }

    #[test]
    #[should_panic(expected = "overlap")]
    fn mov16_overlap() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        // SAFETY: as above.
        unsafe { mov16(p.add(15), p) }
    }

    #[test]
    #[should_panic(expected = "overlap")]
    fn mov256_overlap() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        // SAFETY: as above.
        unsafe { mov256(p, p.add(255)) }
    }

    #[test]
    #[should_panic(expected = "aligned")]
    fn memcpy_aligned_misaligned_dst() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        // SAFETY: disjoint and in bounds; the debug check panics first.
        unsafe { memcpy_aligned(p.add(512 + 1), p, 64) }
    }

    #[test]
    #[should_panic(expected = "aligned")]
    fn memcpy_aligned_misaligned_src() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        // SAFETY: as above.
        unsafe { memcpy_aligned(p, p.add(512 + w() - 1), 64) }
    }

    /// Half a vector off is still off, for every kernel (W/2 >= 4).
    #[test]
    #[should_panic(expected = "aligned")]
    fn memcpy_aligned_half_vector_off() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        // SAFETY: as above.
        unsafe { memcpy_aligned(p.add(512 + w() / 2), p.add(w() / 2), 16) }
    }

    /// The misalignment message says which alignment was required.
    #[test]
    fn misaligned_message_names_the_width() {
        let mut buf = aligned();
        let p = buf.0.as_mut_ptr();
        let msg = panic_message(|| {
            // SAFETY: as above.
            unsafe { memcpy_aligned(p.add(513), p, 8) }
        });
        assert!(msg.contains(&w().to_string()), "{msg}");
    }

    /// Touching but disjoint regions are legal: no debug check may fire, and
    /// the bytes arrive.
    #[test]
    fn adjacent_regions_do_not_trip_the_overlap_check() {
        let mut buf = aligned();
        for (i, b) in buf.0.iter_mut().enumerate() {
            *b = i as u8;
        }
        let p = buf.0.as_mut_ptr();
        let n = 4 * w();
        // SAFETY: [p, p+n) and [p+n, p+2n) are disjoint and in bounds, and
        // both are W-aligned; likewise the other calls below.
        unsafe {
            memcpy(p.add(n), p, n);
            memcpy_generic(p, p.add(n), n);
            memcpy_aligned(p.add(n), p, n);
            mov16(p.add(16), p);
            mov256(p.add(256), p);
        }
        let want: Vec<u8> = (0..16).map(|i| i as u8).collect();
        assert_eq!(&buf.0[16..32], &want[..]);
        assert_eq!(buf.0[256..512], buf.0[..256]);
    }
}

#[test]
#[should_panic(expected = "length")]
fn copy_length_mismatch_panics() {
    let mut dst = [0u8; 17];
    fastmem::copy(&mut dst, &[1u8; 23]);
}

thread_local! {
    /// The file of this thread's last panic, as the hook of
    /// [`panic_file`] saw it.
    static PANIC_FILE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// The source file that `f`'s panic names as its location. A hook that
/// notes it per thread is installed once, in front of the default one.
fn panic_file(f: impl FnOnce()) -> String {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let file = info.location().map(|l| l.file().to_string());
            PANIC_FILE.with(|p| *p.borrow_mut() = file);
            default(info)
        }));
    });
    PANIC_FILE.with(|p| *p.borrow_mut() = None);
    panic_message(f);
    PANIC_FILE
        .with(|p| p.borrow_mut().take())
        .expect("the panic hook saw no location")
}

/// The safe layer's panics point at the caller's line (`#[track_caller]`),
/// as `copy_from_slice`'s do, not into fastmem.
#[test]
fn safe_layer_panics_name_the_callers_line() {
    let mut buf = [0u8; 32];
    let uninit = &mut [std::mem::MaybeUninit::new(0u8); 8];
    type Case<'a> = (&'static str, Box<dyn FnOnce() + 'a>);
    let cases: [Case; 5] = [
        ("copy", Box::new(|| fastmem::copy(&mut [0u8; 3], &[1u8; 4]))),
        (
            "copy_uninit",
            Box::new(|| {
                fastmem::copy_uninit(uninit, &[1u8; 4]);
            }),
        ),
        (
            "copy_within, end past the buffer",
            Box::new(|| fastmem::copy_within(&mut buf, 0..40, 0)),
        ),
        (
            "copy_within, start + 1 overflowing",
            Box::new(|| {
                use std::ops::Bound::{Excluded, Unbounded};
                fastmem::copy_within(&mut [0u8; 4], (Excluded(usize::MAX), Unbounded), 0)
            }),
        ),
        (
            "copy_within, end + 1 overflowing",
            Box::new(|| fastmem::copy_within(&mut [0u8; 4], 0..=usize::MAX, 0)),
        ),
    ];
    for (what, f) in cases {
        let file = panic_file(f);
        assert_eq!(file, file!(), "{what}: the panic points at {file}");
    }
}

#[test]
fn copy_length_mismatch_names_both_lengths() {
    for (d, s) in [(17usize, 23usize), (23, 17), (0, 1), (4096, 4095)] {
        let src = vec![1u8; s];
        let mut dst = vec![0u8; d];
        let mut uninit = vec![std::mem::MaybeUninit::new(0u8); d];
        let messages = [
            ("copy", panic_message(|| fastmem::copy(&mut dst, &src))),
            (
                "copy_uninit",
                panic_message(|| {
                    fastmem::copy_uninit(&mut uninit, &src);
                }),
            ),
        ];
        for (name, msg) in messages {
            assert!(
                msg.starts_with(&format!("fastmem::{name}: "))
                    && msg.contains(&d.to_string())
                    && msg.contains(&s.to_string()),
                "{name}: message for {d} vs {s} does not name the function and both lengths: {msg}"
            );
        }
        // SAFETY: every byte of `uninit` was initialised above.
        assert!(
            dst.iter().all(|&b| b == 0) && uninit.iter().all(|b| unsafe { b.assume_init() } == 0),
            "a mismatched copy wrote into the destination"
        );
    }
}
