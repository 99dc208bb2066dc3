//! DPDK's `rte_memcpy`, side by side with fastmem: a dev-only comparator for
//! fastmem's benches (`examples/sizes.rs`, `benches/*.rs`,
//! `examples/vhost_enqueue.rs`).
//!
//! `build.rs` compiles `side.c` against DPDK 22.11's `rte_memcpy.h` (Debian's
//! `libdpdk-dev`, fetched by `benches/dpdk/fetch-headers.sh`, never
//! committed) three times, with each tier's flags, because the tier flags of
//! fastmem's CI (`ci/tier-rustc`) reach fastmem only. One module per tier
//! holds that tier's functions, with the same names in every module; the
//! benches take the module of `fastmem::KERNEL` (see [`for_kernel`]):
//!
//! | function       | what it is                                                        |
//! |----------------|-------------------------------------------------------------------|
//! | `memcpy`       | `rte_memcpy` behind a call, as the harness calls `fastmem::memcpy` |
//! | `hot`          | `iters` copies with `rte_memcpy` inlined in the loop; ticks per copy |
//! | `seq`          | one inlined copy per length of a list; ticks per copy              |
//! | `enqueue`      | the vhost enqueue step: 12-B header zeroed, payload copied after it |
//! | `enqueue_mrg`  | the same with mergeable RX buffers (two descriptors)              |
//!
//! DPDK has `rte_memcpy` only: there is no `rte_memset`, so the fill suites
//! have no DPDK column.
//!
//! Without the headers the crate compiles no C, [`AVAILABLE`] is `false`, and
//! the modules hold stand-ins with the same signatures that panic with
//! [`HOW_TO_GET`] (the benches never call them: they check `AVAILABLE`).
//! The tier modules' functions exist on x86_64 only.

/// Whether the C side was built (the headers were found).
pub const AVAILABLE: bool = cfg!(fastmem_dpdk);

/// What to run to get the DPDK column.
pub const HOW_TO_GET: &str =
    "no DPDK column: run `bash benches/dpdk/fetch-headers.sh` (Debian's libdpdk-dev headers, DPDK 22.11) and rebuild";

/// Declares one tier's module: the C functions when they were built, the
/// panicking stand-ins otherwise.
macro_rules! tier {
    ($tier:ident, $doc:literal, $memcpy:ident, $hot:ident, $hot_const:ident, $seq:ident, $enq:ident, $mrg:ident) => {
        #[doc = $doc]
        #[cfg(target_arch = "x86_64")]
        pub mod $tier {
            #[cfg(fastmem_dpdk)]
            unsafe extern "C" {
                /// `rte_memcpy(dst, src, n)` behind a call.
                ///
                /// # Safety
                /// Both regions valid for `n` bytes, not overlapping; the CPU
                /// has the tier's features.
                #[link_name = stringify!($memcpy)]
                pub fn memcpy(dst: *mut u8, src: *const u8, n: usize);
                /// `iters` copies of `n` bytes, `rte_memcpy` inlined; ticks per copy.
                ///
                /// # Safety
                /// As [`memcpy`].
                #[link_name = stringify!($hot)]
                pub fn hot(dst: *mut u8, src: *const u8, n: usize, iters: usize) -> f64;
                /// `iters` copies of `n` bytes, `rte_memcpy` inlined with `n`
                /// a constant (one loop per length of [`CONST_SIZES`](crate::CONST_SIZES));
                /// ticks per copy, or -1 for a length not in the list.
                ///
                /// # Safety
                /// As [`memcpy`].
                #[link_name = stringify!($hot_const)]
                pub fn hot_const(dst: *mut u8, src: *const u8, n: usize, iters: usize) -> f64;
                /// One inlined copy per length in `lens[..count]`; ticks per copy.
                ///
                /// # Safety
                /// As [`memcpy`] for every length; `lens` valid for `count` reads.
                #[link_name = stringify!($seq)]
                pub fn seq(dst: *mut u8, src: *const u8, lens: *const usize, count: usize) -> f64;
                /// `d[..12] = 0; d[12..12 + len] = p[..len]`; `next` unused.
                ///
                /// # Safety
                /// `d` valid for `12 + len` bytes, `p` for `len`, no overlap.
                #[link_name = stringify!($enq)]
                pub fn enqueue(d: *mut u8, next: *mut u8, p: *const u8, len: usize);
                /// `d[..12] = 0` with `num_buffers = 2` at 10, `d[12..1024] =
                /// p[..1012]`, `next[..len - 1012] = p[1012..len]`.
                ///
                /// # Safety
                /// `d` valid for 1024 bytes, `next` for `len - 1012`, `p` for
                /// `len`, `len > 1012`, no overlap.
                #[link_name = stringify!($mrg)]
                pub fn enqueue_mrg(d: *mut u8, next: *mut u8, p: *const u8, len: usize);
            }

            #[cfg(not(fastmem_dpdk))]
            mod stand_ins {
                use crate::HOW_TO_GET;
                /// Stand-in: panics.
                ///
                /// # Safety
                /// None needed; it panics.
                pub unsafe extern "C" fn memcpy(_: *mut u8, _: *const u8, _: usize) {
                    panic!("{HOW_TO_GET}")
                }
                /// Stand-in: panics.
                ///
                /// # Safety
                /// None needed; it panics.
                pub unsafe extern "C" fn hot(_: *mut u8, _: *const u8, _: usize, _: usize) -> f64 {
                    panic!("{HOW_TO_GET}")
                }
                /// Stand-in: panics.
                ///
                /// # Safety
                /// None needed; it panics.
                pub unsafe extern "C" fn hot_const(
                    _: *mut u8,
                    _: *const u8,
                    _: usize,
                    _: usize,
                ) -> f64 {
                    panic!("{HOW_TO_GET}")
                }
                /// Stand-in: panics.
                ///
                /// # Safety
                /// None needed; it panics.
                pub unsafe extern "C" fn seq(
                    _: *mut u8,
                    _: *const u8,
                    _: *const usize,
                    _: usize,
                ) -> f64 {
                    panic!("{HOW_TO_GET}")
                }
                /// Stand-in: panics.
                ///
                /// # Safety
                /// None needed; it panics.
                pub unsafe extern "C" fn enqueue(_: *mut u8, _: *mut u8, _: *const u8, _: usize) {
                    panic!("{HOW_TO_GET}")
                }
                /// Stand-in: panics.
                ///
                /// # Safety
                /// None needed; it panics.
                pub unsafe extern "C" fn enqueue_mrg(
                    _: *mut u8,
                    _: *mut u8,
                    _: *const u8,
                    _: usize,
                ) {
                    panic!("{HOW_TO_GET}")
                }
            }
            #[cfg(not(fastmem_dpdk))]
            pub use stand_ins::*;
        }
    };
}

tier!(
    sse,
    "DPDK's SSE4.2 build (`-msse4.2`; DPDK needs SSE4.2 at least), for fastmem's `sse` kernel.",
    fm_dpdk_memcpy_sse,
    fm_dpdk_hot_sse,
    fm_dpdk_hot_const_sse,
    fm_dpdk_seq_sse,
    fm_dpdk_enqueue_sse,
    fm_dpdk_enqueue_mrg_sse
);
tier!(
    avx2,
    "DPDK's AVX2 build (`-mavx2`), for fastmem's `avx2` kernel.",
    fm_dpdk_memcpy_avx2,
    fm_dpdk_hot_avx2,
    fm_dpdk_hot_const_avx2,
    fm_dpdk_seq_avx2,
    fm_dpdk_enqueue_avx2,
    fm_dpdk_enqueue_mrg_avx2
);
tier!(
    avx512,
    "DPDK's AVX-512 build (`-mavx512f -mavx512bw -mavx512vl -DRTE_MEMCPY_AVX512`), for fastmem's `avx512` kernel.",
    fm_dpdk_memcpy_avx512,
    fm_dpdk_hot_avx512,
    fm_dpdk_hot_const_avx512,
    fm_dpdk_seq_avx512,
    fm_dpdk_enqueue_avx512,
    fm_dpdk_enqueue_mrg_avx512
);

/// The lengths `hot_const` has a loop for (`FM_CONST_SIZES` in
/// `side.c`; the benches' `const_loops!` lists the same).
pub const CONST_SIZES: &[usize] = &[
    12, 16, 24, 32, 48, 64, 96, 100, 128, 136, 160, 192, 200, 256, 320, 384, 448, 512, 640, 768,
    1024,
];

/// The DPDK tier to set beside a fastmem kernel, by the kernel's name
/// (`fastmem::KERNEL.name()`): `"sse"`, `"avx2"` or `"avx512"`; `None` for
/// `"portable"` (DPDK has no portable `rte_memcpy`), off x86_64, and when the
/// headers were not there ([`AVAILABLE`]).
pub fn tier_for_kernel(kernel: &str) -> Option<&'static str> {
    let tier = match kernel {
        "sse" => "sse",
        "avx2" => "avx2",
        "avx512" => "avx512",
        _ => return None,
    };
    (AVAILABLE && cfg!(target_arch = "x86_64")).then_some(tier)
}

/// The differential check CI runs, so that the comparator cannot rot: every
/// tier this CPU can run, against a byte-by-byte oracle, with canaries
/// around the destination.
#[cfg(all(test, fastmem_dpdk, target_arch = "x86_64"))]
mod tests {
    /// One tier's functions.
    struct Tier {
        name: &'static str,
        runs: bool,
        memcpy: unsafe extern "C" fn(*mut u8, *const u8, usize),
        hot: unsafe extern "C" fn(*mut u8, *const u8, usize, usize) -> f64,
        hot_const: unsafe extern "C" fn(*mut u8, *const u8, usize, usize) -> f64,
        seq: unsafe extern "C" fn(*mut u8, *const u8, *const usize, usize) -> f64,
        enqueue: unsafe extern "C" fn(*mut u8, *mut u8, *const u8, usize),
        enqueue_mrg: unsafe extern "C" fn(*mut u8, *mut u8, *const u8, usize),
    }

    macro_rules! tier {
        ($m:ident, $runs:expr) => {
            Tier {
                name: stringify!($m),
                runs: $runs,
                memcpy: crate::$m::memcpy,
                hot: crate::$m::hot,
                hot_const: crate::$m::hot_const,
                seq: crate::$m::seq,
                enqueue: crate::$m::enqueue,
                enqueue_mrg: crate::$m::enqueue_mrg,
            }
        };
    }

    fn tiers() -> Vec<Tier> {
        let avx512 = std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl");
        let v = vec![
            tier!(sse, std::arch::is_x86_feature_detected!("sse4.2")),
            tier!(avx2, std::arch::is_x86_feature_detected!("avx2")),
            tier!(avx512, avx512),
        ];
        for t in &v {
            if !t.runs {
                eprintln!("SKIP DPDK {}: this CPU lacks its features", t.name);
            }
        }
        v.into_iter().filter(|t| t.runs).collect()
    }

    const CANARY: u8 = 0xC5;
    const PAD: usize = 64;

    /// A source pattern that differs at every position of a copy.
    fn pattern(len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| (i * 7 + 1) as u8 ^ (i >> 8) as u8)
            .collect()
    }

    /// Checks `buf[PAD + off ..][..n] == src[soff..][..n]` and canaries elsewhere.
    fn check(what: &str, buf: &[u8], off: usize, src: &[u8], soff: usize, n: usize) {
        let at = PAD + off;
        assert!(
            buf[..at].iter().all(|&b| b == CANARY),
            "{what}: n {n}: write before the destination"
        );
        assert!(
            buf[at..at + n] == src[soff..soff + n],
            "{what}: n {n}: wrong bytes"
        );
        assert!(
            buf[at + n..].iter().all(|&b| b == CANARY),
            "{what}: n {n}: write past the destination"
        );
    }

    #[test]
    fn memcpy_every_size_and_offset() {
        let sizes: Vec<usize> = (0..=1100).chain([2047, 2048, 4096, 8191, 65_537]).collect();
        let max = *sizes.iter().max().unwrap();
        let src = pattern(max + PAD);
        let mut buf = vec![CANARY; max + 3 * PAD];
        for t in tiers() {
            for &n in &sizes {
                for (doff, soff) in [(0, 0), (1, 3), (3, 1), (31, 0), (0, 63), (63, 33)] {
                    buf.fill(CANARY);
                    let what = format!("{} memcpy dst+{doff} src+{soff}", t.name);
                    // SAFETY: buf holds PAD + 63 + n + PAD bytes, src 63 + n;
                    // the CPU runs the tier.
                    unsafe {
                        (t.memcpy)(buf.as_mut_ptr().add(PAD + doff), src.as_ptr().add(soff), n)
                    };
                    check(&what, &buf, doff, &src, soff, n);
                    if n <= 8192 {
                        buf.fill(CANARY);
                        // SAFETY: as above.
                        let ticks = unsafe {
                            (t.hot)(
                                buf.as_mut_ptr().add(PAD + doff),
                                src.as_ptr().add(soff),
                                n,
                                3,
                            )
                        };
                        assert!(
                            ticks.is_finite() && ticks > 0.0,
                            "{what}: hot returned {ticks}"
                        );
                        check(&format!("{what} (hot)"), &buf, doff, &src, soff, n);
                    }
                }
            }
        }
    }

    #[test]
    fn hot_const_copies_each_listed_length() {
        let max = crate::CONST_SIZES.iter().copied().max().unwrap_or(0);
        let src = pattern(max + PAD);
        let mut buf = vec![CANARY; max + 3 * PAD];
        for t in tiers() {
            for &n in crate::CONST_SIZES {
                for (doff, soff) in [(0, 0), (1, 3), (63, 33)] {
                    buf.fill(CANARY);
                    let what = format!("{} hot_const dst+{doff} src+{soff}", t.name);
                    // SAFETY: buf holds PAD + 63 + n + PAD bytes, src 33 + n;
                    // the CPU runs the tier.
                    let ticks = unsafe {
                        (t.hot_const)(
                            buf.as_mut_ptr().add(PAD + doff),
                            src.as_ptr().add(soff),
                            n,
                            3,
                        )
                    };
                    assert!(
                        ticks.is_finite() && ticks > 0.0,
                        "{what}: n {n}: returned {ticks}"
                    );
                    check(&what, &buf, doff, &src, soff, n);
                }
            }
            // A length with no loop copies nothing and says so.
            buf.fill(CANARY);
            // SAFETY: as above; nothing is written.
            let ticks = unsafe { (t.hot_const)(buf.as_mut_ptr().add(PAD), src.as_ptr(), 13, 3) };
            assert_eq!(ticks, -1.0, "{} hot_const of an unlisted length", t.name);
            check(&format!("{} hot_const 13", t.name), &buf, 0, &src, 0, 0);
        }
    }

    #[test]
    fn seq_copies_every_length() {
        // Decreasing lengths: the last copy is the shortest, so each byte
        // holds what the longest copy that reached it wrote; all copy from
        // the same source, so the result is src[..max].
        let lens: Vec<usize> = (0..=300).rev().collect();
        let src = pattern(400);
        for t in tiers() {
            let mut buf = vec![CANARY; 300 + 2 * PAD];
            // SAFETY: every length fits buf after PAD and src.
            let ticks = unsafe {
                (t.seq)(
                    buf.as_mut_ptr().add(PAD),
                    src.as_ptr(),
                    lens.as_ptr(),
                    lens.len(),
                )
            };
            assert!(ticks.is_finite() && ticks > 0.0);
            check(&format!("{} seq", t.name), &buf, 0, &src, 0, 300);
        }
    }

    #[test]
    fn enqueue_writes_header_and_payload() {
        let src = pattern(2048);
        for t in tiers() {
            for len in [1, 12, 63, 64, 594, 1024, 1518, 2036] {
                let mut buf = vec![CANARY; 2048 + 2 * PAD];
                // SAFETY: 12 + len <= 2048 bytes after PAD.
                unsafe {
                    (t.enqueue)(
                        buf.as_mut_ptr().add(PAD),
                        core::ptr::null_mut(),
                        src.as_ptr(),
                        len,
                    )
                };
                let mut want = vec![0u8; 12];
                want.extend_from_slice(&src[..len]);
                check(&format!("{} enqueue", t.name), &buf, 0, &want, 0, 12 + len);
            }
            for len in [1013, 1518, 2000] {
                let (mut d, mut next) =
                    (vec![CANARY; 1024 + 2 * PAD], vec![CANARY; 1024 + 2 * PAD]);
                // SAFETY: d holds 1024 bytes after PAD, next len - 1012.
                unsafe {
                    (t.enqueue_mrg)(
                        d.as_mut_ptr().add(PAD),
                        next.as_mut_ptr().add(PAD),
                        src.as_ptr(),
                        len,
                    )
                };
                let mut want = vec![0u8; 12];
                want[10] = 2;
                want.extend_from_slice(&src[..1012]);
                check(
                    &format!("{} enqueue_mrg first", t.name),
                    &d,
                    0,
                    &want,
                    0,
                    1024,
                );
                check(
                    &format!("{} enqueue_mrg next", t.name),
                    &next,
                    0,
                    &src,
                    1012,
                    len - 1012,
                );
            }
        }
    }
}
