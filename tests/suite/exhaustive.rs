//! Exhaustive differential tests over small sizes, sampled tests over large
//! ones. Each test runs its function through the canary rigs of `harness`.

use crate::harness::{
    all_offsets, large_sizes, report, safe_copy, safe_copy_uninit, safe_fill, safe_fill_uninit,
    sweep_copy, sweep_fill, CONSTS, MOVS, W,
};

/// Every length the exhaustive sweeps try: `0..=1024` crosses every size
/// class and the first iterations of every block loop.
const MAX_N: usize = 1024;

/// Bytes the fill sweeps use: both extremes and one in between.
const FILL_BYTES: [u8; 3] = [0x00, 0xFF, 0x5A];

/// W-aligned offsets, including multiples of W above it (up to 16 of them,
/// below 256), so both pointers are aligned but not only to a page.
fn aligned_offsets() -> Vec<usize> {
    (0..256).step_by(W).take(16).collect()
}

#[test]
fn memcpy_all_sizes_and_offsets() {
    let offs = all_offsets();
    let cases = sweep_copy("memcpy", 0..=MAX_N, &offs, &offs, 1, |d, s, n| {
        // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
        unsafe { fastmem::memcpy(d, s, n) }
    });
    report("memcpy_all_sizes_and_offsets", cases);
}

#[test]
fn memcpy_generic_all_sizes_and_offsets() {
    let offs = all_offsets();
    let cases = sweep_copy("memcpy_generic", 0..=MAX_N, &offs, &offs, 2, |d, s, n| {
        // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
        unsafe { fastmem::memcpy_generic(d, s, n) }
    });
    report("memcpy_generic_all_sizes_and_offsets", cases);
}

#[test]
fn memcpy_aligned_all_sizes() {
    let offs = aligned_offsets();
    let cases = sweep_copy("memcpy_aligned", 0..=MAX_N, &offs, &offs, 3, |d, s, n| {
        // SAFETY: as above, and the offsets keep both pointers W-aligned.
        unsafe { fastmem::memcpy_aligned(d, s, n) }
    });
    report("memcpy_aligned_all_sizes", cases);
}

#[test]
fn memset_all_sizes_and_offsets() {
    let cases = sweep_fill(
        "memset",
        0..=MAX_N,
        &all_offsets(),
        &FILL_BYTES,
        |d, c, n| {
            // SAFETY: the rig passes a buffer valid for `n` bytes.
            unsafe { fastmem::memset(d, c, n) }
        },
    );
    report("memset_all_sizes_and_offsets", cases);
}

#[test]
fn memcpy_nontemporal_all_sizes_and_offsets() {
    let offs = all_offsets();
    let cases = sweep_copy(
        "memcpy_nontemporal",
        0..=MAX_N,
        &offs,
        &offs,
        5,
        |d, s, n| {
            // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
            unsafe { fastmem::memcpy_nontemporal(d, s, n) }
        },
    );
    report("memcpy_nontemporal_all_sizes_and_offsets", cases);
}

#[test]
fn memset_nontemporal_all_sizes_and_offsets() {
    let cases = sweep_fill(
        "memset_nontemporal",
        0..=MAX_N,
        &all_offsets(),
        &FILL_BYTES,
        |d, c, n| {
            // SAFETY: the rig passes a buffer valid for `n` bytes.
            unsafe { fastmem::memset_nontemporal(d, c, n) }
        },
    );
    report("memset_nontemporal_all_sizes_and_offsets", cases);
}

#[test]
fn mov_all_offsets() {
    let offs = all_offsets();
    let mut cases = 0;
    for (name, size, mov) in MOVS {
        cases += sweep_copy(name, [size], &offs, &offs, size as u64, |d, s, n| {
            debug_assert_eq!(n, size);
            // SAFETY: the rig passes disjoint buffers valid for `size` bytes.
            unsafe { mov(d, s) }
        });
    }
    report("mov_all_offsets", cases);
}

#[test]
fn const_sizes_all_offsets() {
    let offs = all_offsets();
    let mut cases = 0;
    for op in CONSTS {
        let name = format!("memcpy_const::<{}>", op.n);
        cases += sweep_copy(&name, [op.n], &offs, &offs, op.n as u64, |d, s, n| {
            debug_assert_eq!(n, op.n);
            // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
            unsafe { (op.copy)(d, s) }
        });
        let name = format!("memset_const::<{}>", op.n);
        cases += sweep_fill(&name, [op.n], &offs, &FILL_BYTES, |d, c, n| {
            debug_assert_eq!(n, op.n);
            // SAFETY: the rig passes a buffer valid for `n` bytes.
            unsafe { (op.fill)(d, c) }
        });
    }
    report("const_sizes_all_offsets", cases);
}

/// The safe layer over the same sweep, at fewer destination offsets: it
/// adds only a length check to `memcpy`.
#[test]
fn copy_all_sizes() {
    let (offs, dst_offs) = (all_offsets(), [0, 1, 15, 33, 63]);
    let cases = sweep_copy("copy", 0..=MAX_N, &offs, &dst_offs, 4, |d, s, n| {
        // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
        unsafe { safe_copy(d, s, n) }
    });
    report("copy_all_sizes", cases);
}

#[test]
fn fill_all_sizes_and_offsets() {
    let cases = sweep_fill("fill", 0..=MAX_N, &all_offsets(), &[0xA5], |d, c, n| {
        // SAFETY: the rig passes a buffer valid for `n` bytes.
        unsafe { safe_fill(d, c, n) }
    });
    report("fill_all_sizes_and_offsets", cases);
}

/// The safe layer's forms for uninitialised destinations: `memcpy` and
/// `memset` behind a length check, at fewer offsets still.
#[test]
fn uninit_all_sizes() {
    let (offs, dst_offs) = ([0, 1, 3, 33, 63], [0, 1, 63]);
    let mut cases = sweep_copy("copy_uninit", 0..=MAX_N, &offs, &dst_offs, 5, |d, s, n| {
        // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
        unsafe { safe_copy_uninit(d, s, n) }
    });
    cases += sweep_fill("fill_uninit", 0..=MAX_N, &offs, &[0x5A], |d, c, n| {
        // SAFETY: the rig passes a buffer valid for `n` bytes.
        unsafe { safe_fill_uninit(d, c, n) }
    });
    report("uninit_all_sizes", cases);
}

#[test]
fn memcpy_large_sizes() {
    let (src_offs, dst_offs) = ([0, 1, 33, 63], [0, 7, 63]);
    let mut cases = 0;
    for n in large_sizes(0) {
        cases += sweep_copy("memcpy", [n], &src_offs, &dst_offs, n as u64, |d, s, n| {
            // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
            unsafe { fastmem::memcpy(d, s, n) }
        });
        cases += sweep_copy(
            "memcpy_generic",
            [n],
            &src_offs,
            &dst_offs,
            !(n as u64),
            |d, s, n| {
                // SAFETY: as above.
                unsafe { fastmem::memcpy_generic(d, s, n) }
            },
        );
        cases += sweep_copy(
            "memcpy_nontemporal",
            [n],
            &src_offs,
            &dst_offs,
            n as u64 ^ 0x5A,
            |d, s, n| {
                // SAFETY: as above.
                unsafe { fastmem::memcpy_nontemporal(d, s, n) }
            },
        );
    }
    report("memcpy_large_sizes", cases);
}

#[test]
fn memcpy_aligned_large_sizes() {
    let offs = [0, W];
    let mut cases = 0;
    for n in large_sizes(0) {
        cases += sweep_copy("memcpy_aligned", [n], &offs, &offs, n as u64, |d, s, n| {
            // SAFETY: as above, and the offsets keep both pointers W-aligned.
            unsafe { fastmem::memcpy_aligned(d, s, n) }
        });
    }
    report("memcpy_aligned_large_sizes", cases);
}

#[test]
fn memset_large_sizes() {
    let mut cases = 0;
    for n in large_sizes(0) {
        cases += sweep_fill("memset", [n], &[0, 1, 63], &[0x00, 0xA7], |d, c, n| {
            // SAFETY: the rig passes a buffer valid for `n` bytes.
            unsafe { fastmem::memset(d, c, n) }
        });
        cases += sweep_fill(
            "memset_nontemporal",
            [n],
            &[0, 1, 63],
            &[0x00, 0xA7],
            |d, c, n| {
                // SAFETY: the rig passes a buffer valid for `n` bytes.
                unsafe { fastmem::memset_nontemporal(d, c, n) }
            },
        );
    }
    report("memset_large_sizes", cases);
}

/// Sizes around `fastmem::NONTEMPORAL_MIN`, where `memcpy` hands over to
/// the non-temporal loop, and twice it, where `memset` does, with
/// misaligned pointers, through every entry point that hands over.
/// Skipped when the kernel has no hand-over or the threshold is above
/// 128 MiB; a build with `FASTMEM_NONTEMPORAL_MIN=64K` runs it at small
/// sizes (and every sampled large size above them then streams too).
#[test]
fn nontemporal_threshold() {
    let t = fastmem::NONTEMPORAL_MIN;
    if t > 128 << 20 {
        println!("nontemporal_threshold: no hand-over in this build (NONTEMPORAL_MIN = {t})");
        return;
    }
    let around = |t: usize| [t - 1, t, t + 1, t + 3 * W + 5];
    let (offs, dst_offs) = ([0, 1, 63], [0, 7]);
    let mut cases = 0;
    cases += sweep_copy("memcpy", around(t), &offs, &dst_offs, 6, |d, s, n| {
        // SAFETY: the rig passes disjoint buffers valid for `n` bytes.
        unsafe { fastmem::memcpy(d, s, n) }
    });
    cases += sweep_copy("memcpy_generic", around(t), &[3], &[5], 7, |d, s, n| {
        // SAFETY: as above.
        unsafe { fastmem::memcpy_generic(d, s, n) }
    });
    cases += sweep_copy("memcpy_aligned", around(t), &[0], &[0], 8, |d, s, n| {
        // SAFETY: as above, and offset 0 keeps both pointers aligned.
        unsafe { fastmem::memcpy_aligned(d, s, n) }
    });
    cases += sweep_fill("memset", around(2 * t), &[0, 1, 63], &[0xE1], |d, c, n| {
        // SAFETY: the rig passes a buffer valid for `n` bytes.
        unsafe { fastmem::memset(d, c, n) }
    });
    report("nontemporal_threshold", cases);
}
