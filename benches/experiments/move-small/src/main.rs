//! One size, one implementation, timed alone in a tight loop: the
//! placement study of benches/NOTEBOOK.md, "After (2026-12-01): the 1-32
//! B distance test, measured apart" (under "memmove").
//!
//! ```text
//! cd benches/experiments/move-small
//! RUSTFLAGS="-C target-cpu=native -C llvm-args=-align-all-functions=6" \
//!   cargo build --release --target-dir /tmp/move-small
//! taskset -c 1 /tmp/move-small/release/move-small move 8      # disjoint, 18 KiB apart
//! taskset -c 1 /tmp/move-small/release/move-small copy 8
//! taskset -c 1 /tmp/move-small/release/move-small move 8 1    # src = dst + 1, repeated (up)
//! taskset -c 1 /tmp/move-small/release/move-small move 24 -17 # src = dst - 17 (down)
//! ```
//!
//! Prints the best of 2000 timings of 1000 calls, in TSC ticks per call.

use std::arch::x86_64::_rdtsc;
use std::hint::black_box;

/// `fastmem::memmove` behind a call.
///
/// # Safety
///
/// As `fastmem::memmove`.
#[inline(never)]
#[no_mangle]
pub unsafe extern "C" fn fm_move(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::memmove(d, s, n) }
}

/// `fastmem::memcpy` behind a call.
///
/// # Safety
///
/// As `fastmem::memcpy`.
#[inline(never)]
#[no_mangle]
pub unsafe extern "C" fn fm_copy(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { fastmem::memcpy(d, s, n) }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("move");
    let n: usize = args.get(2).map_or(8, |x| x.parse().expect("size"));
    let off: isize = args
        .get(3)
        .map_or(18 * 1024, |x| x.parse().expect("offset"));
    assert!(n <= 8192 && (-16384..=32768).contains(&off));
    let mut buf = vec![1u8; 1 << 16];
    // SAFETY: 16 KiB in; with `off` in -16..=32 KiB and `n` at most
    // 8 KiB, both ranges lie inside the 64 KiB.
    let (d, s) = unsafe {
        let base = buf.as_mut_ptr().add(16384);
        (base, base.offset(off) as *const u8)
    };
    let f: unsafe extern "C" fn(*mut u8, *const u8, usize) = match which {
        "move" => fm_move,
        "copy" => fm_copy,
        _ => panic!("move or copy"),
    };
    assert!(
        which == "move" || off.unsigned_abs() >= n,
        "copy needs disjoint ranges"
    );
    let mut best = u64::MAX;
    for _ in 0..2000 {
        // SAFETY: rdtsc has no precondition.
        let t0 = unsafe { _rdtsc() };
        for _ in 0..1000 {
            // SAFETY: both ranges lie in `buf`; a copy's are disjoint.
            unsafe { f(black_box(d), black_box(s), black_box(n)) }
        }
        // SAFETY: as above.
        let t1 = unsafe { _rdtsc() };
        best = best.min(t1 - t0);
    }
    println!("{which} {n} {off} {:.2}", best as f64 / 1000.0);
}
