//! Unit tests of the building blocks, for every kernel this build compiles
//! (not only the selected one): an AVX-512 build checks all four here.
//! The public API is tested exhaustively in `tests/`.

use crate::generic::{self, Source, Splat};
use crate::vector::{Aligned, Tuning, Unaligned, Vector};
use std::format;
use std::vec;
use std::vec::Vec;

/// Canary bytes on each side of every destination.
const GUARD: usize = 64;
/// Alignment of the test buffers' bases: the widest vector.
const BASE_ALIGN: usize = 64;

/// A destination and a source, each with room for `GUARD` canary bytes and
/// offsets up to `BASE_ALIGN` on both sides.
struct Bufs {
    dst: Vec<u8>,
    src: Vec<u8>,
    n: usize,
    doff: usize,
    soff: usize,
}

fn canary(i: usize) -> u8 {
    (i as u8).wrapping_mul(31).wrapping_add(0xA5)
}

fn aligned_start(v: &[u8]) -> usize {
    v.as_ptr().align_offset(BASE_ALIGN)
}

impl Bufs {
    fn new(n: usize, doff: usize, soff: usize) -> Self {
        let len = n + 2 * GUARD + 2 * BASE_ALIGN;
        let dst = (0..len).map(canary).collect();
        let src = (0..len).map(|i| (i as u8).wrapping_mul(7) ^ 0x3C).collect();
        Bufs {
            dst,
            src,
            n,
            doff,
            soff,
        }
    }
    fn d(&mut self) -> *mut u8 {
        let at = aligned_start(&self.dst) + GUARD + self.doff;
        self.dst[at..].as_mut_ptr()
    }
    fn s(&self) -> *const u8 {
        self.src[aligned_start(&self.src) + GUARD + self.soff..].as_ptr()
    }
    /// Checks `dst` holds `expect(i)` at each of the `n` bytes and canaries
    /// everywhere else.
    fn check(&self, what: &str, expect: impl Fn(usize) -> u8) {
        let at = aligned_start(&self.dst) + GUARD + self.doff;
        for (i, &b) in self.dst.iter().enumerate() {
            let want = if (at..at + self.n).contains(&i) {
                expect(i - at)
            } else {
                canary(i)
            };
            assert_eq!(
                b,
                want,
                "{what}: n={} doff={} soff={}: byte {} of the destination buffer",
                self.n,
                self.doff,
                self.soff,
                i as isize - at as isize
            );
        }
    }
    fn check_copy(&self, what: &str) {
        let from = aligned_start(&self.src) + GUARD + self.soff;
        self.check(what, |i| self.src[from + i]);
    }
}

/// Runs `op` on a fresh pair of buffers and checks it copied `n` bytes.
fn copies(what: &str, n: usize, doff: usize, soff: usize, op: impl Fn(*mut u8, *const u8)) {
    let mut b = Bufs::new(n, doff, soff);
    let (d, s) = (b.d(), b.s());
    op(d, s);
    b.check_copy(what);
}

/// Runs `op` on a fresh destination and checks it filled `n` bytes with `c`.
fn fills(what: &str, n: usize, doff: usize, c: u8, op: impl Fn(*mut u8)) {
    let mut b = Bufs::new(n, doff, 0);
    op(b.d());
    b.check(what, |_| c);
}

/// Checks that an entry point returned its destination, as the C symbols
/// pass it on (`crate::memcpy_c`): from the string and non-temporal
/// thresholds it is the out-of-line large path's return value.
#[track_caller]
fn returns_dst(what: &str, n: usize, got: *mut u8, dst: *mut u8) {
    assert_eq!(
        got, dst,
        "{what}, n = {n}: returned {got:p}, not dst {dst:p}"
    );
}

fn blocks<V: Tuning>() {
    let w = V::BYTES;
    // A block at exactly W, at every alignment of both sides.
    for doff in 0..w {
        for soff in 0..w {
            copies("block", w, doff, soff, |d, s| unsafe {
                generic::block::<V, Unaligned, Unaligned, _>(d, s, 0, 1)
            });
        }
    }
    // Aligned loads and stores.
    copies("aligned block", 4 * w, 0, 0, |d, s| unsafe {
        generic::block::<V, Aligned, Aligned, _>(d, s, 0, 4)
    });
    // head_tail over every size in [W, 2W], copying and filling.
    for n in w..=2 * w {
        for off in [0, 1, w / 2, w - 1] {
            copies("head_tail", n, off, w - 1 - off, |d, s| unsafe {
                generic::head_tail::<V, _>(d, s, n, 1)
            });
            fills("head_tail fill", n, off, 0x5A, |d| unsafe {
                generic::head_tail::<V, _>(d, Splat(0x5A), n, 1)
            });
        }
    }
    // The 2-vector class, [2W, 4W], in both forms a copy can take whatever
    // this build's `Tuning::LOAD_FIRST`: each vector loaded as it is
    // stored, and all four loaded first (`Source::LoadsFirst`).
    for n in 2 * w..=4 * w {
        for off in [0, 1, w - 1] {
            copies("head_tail 2", n, off, w - 1 - off, |d, s| unsafe {
                generic::head_tail::<V, _>(d, s, n, 2)
            });
            copies(
                "head_tail 2 loads first",
                n,
                off,
                w - 1 - off,
                |d, s| unsafe { generic::head_tail::<V, _>(d, Source::loads_first(s), n, 2) },
            );
            fills("head_tail 2 fill", n, off, 0x5A, |d| unsafe {
                generic::head_tail::<V, _>(d, Splat(0x5A).loads_first(), n, 2)
            });
        }
    }
    // clamped_run over every size in [W, kW], for k = 1..=8 vectors.
    for k in 1..=8 {
        for n in w..=k * w {
            for off in [0, 1, w - 1] {
                copies("clamped_run", n, off, w - 1 - off, |d, s| unsafe {
                    generic::clamped_run::<V, _>(d, s, n, k)
                });
                fills("clamped_run fill", n, off, 0x5A, |d| unsafe {
                    generic::clamped_run::<V, _>(d, Splat(0x5A), n, k)
                });
            }
        }
    }
    // loop_and_tail over [LOOP_BLOCK, 3 * LOOP_BLOCK + W] on an aligned
    // destination, with unaligned and aligned sources, one block a turn and
    // two (then the odd one: 0 to 3 blocks), whichever the kernel's
    // `LOOP_TURN` and `UNALIGNED_TURN` are.
    let b = V::LOOP_BLOCK;
    for turn in [1, 2] {
        for n in b..=3 * b + w {
            let blocks = (n - 1) / b;
            for soff in [0, 1, w - 1] {
                copies("loop_and_tail", n, 0, soff, |d, s| unsafe {
                    generic::loop_and_tail::<V, Unaligned, _>(
                        d,
                        s,
                        n,
                        0,
                        blocks,
                        b / w,
                        false,
                        turn,
                    )
                });
            }
            copies("aligned loop_and_tail", n, 0, 0, |d, s| unsafe {
                generic::loop_and_tail::<V, Aligned, _>(d, s, n, 0, blocks, b / w, false, turn)
            });
        }
    }
    // write_loop as a move, at every alignment of the destination, up
    // with the destination before the source and down with it after.
    for n in V::NOLOOP_MAX + 1..=V::NOLOOP_MAX + b + w {
        for (lead, d) in [(0, 1), (1, w), (w - 1, b + 3), (3, n - 1)] {
            moves("write_loop up", n, lead + d, lead, |d, s, n| unsafe {
                generic::write_loop::<V, _>(d, generic::Move::<true>(s), n, false)
            });
            moves("write_loop down", n, lead, lead + d, |d, s, n| unsafe {
                generic::write_loop::<V, _>(d, generic::Move::<true>(s), n, true)
            });
        }
    }
    // write_loop as a copy and a fill, at every alignment of the
    // destination: with `Tuning::SHORT_TAIL`, the arms of `short_tail`
    // (`(n - W) % LOOP_BLOCK` every value) after every skip,
    // from the loop's first size and from `SHORT_TAIL_MIN` where the arms
    // start there (SSE: below it, the whole tail). The aligned loop,
    // which shares it on AVX-512, is swept through `memcpy_aligned` and
    // the aligned `memset` (`algorithm`).
    let from = V::SHORT_TAIL_MIN;
    let arms = (from > V::NOLOOP_MAX + 1)
        .then(|| from..=from + 2 * b + w)
        .into_iter()
        .flatten();
    for n in (V::NOLOOP_MAX + 1..=V::NOLOOP_MAX + 2 * b + w).chain(arms) {
        for doff in 0..w {
            copies("write_loop copy", n, doff, 3, |d, s| unsafe {
                generic::write_loop::<V, _>(d, s, n, false)
            });
            fills("write_loop fill", n, doff, 0xC3, |d| unsafe {
                generic::write_loop::<V, _>(d, Splat(0xC3), n, false)
            });
        }
    }
    // From a start past a misaligned destination's first vector: the
    // blocks begin at `start`, the tail is still addressed from `n`.
    for n in b + w..=3 * b + w {
        for doff in [1, w / 2, w - 1] {
            let start = w - doff;
            copies("loop_and_tail from start", n, doff, 3, |d, s| unsafe {
                generic::block::<V, Unaligned, Unaligned, _>(d, s, 0, 1);
                generic::loop_and_tail::<V, Unaligned, _>(
                    d,
                    s,
                    n,
                    start,
                    (n - w) / b,
                    b / w + 1,
                    false,
                    V::UNALIGNED_TURN,
                )
            });
        }
    }
}

/// Moves `n` bytes inside one buffer, from `base + soff` to `base + doff`,
/// with `op`; checks that the window holds what the source held before the
/// call, and every other byte (canaries included) is unchanged.
fn moves(what: &str, n: usize, soff: usize, doff: usize, op: impl Fn(*mut u8, *const u8, usize)) {
    let len = n + soff.max(doff) + 2 * GUARD + BASE_ALIGN;
    let mut buf: Vec<u8> = (0..len)
        .map(|i| (i as u8).wrapping_mul(13) ^ 0x5A)
        .collect();
    let base = aligned_start(&buf) + GUARD;
    let mut want = buf.clone();
    // The oracle, from a pristine copy: a byte loop, so it is no move.
    for i in 0..n {
        want[base + doff + i] = buf[base + soff + i];
    }
    let p = buf.as_mut_ptr();
    // SAFETY: both windows lie in `buf` (`len` has room for them).
    op(
        unsafe { p.add(base + doff) },
        unsafe { p.add(base + soff) },
        n,
    );
    if buf != want {
        let i = buf.iter().zip(&want).position(|(a, b)| a != b).unwrap();
        panic!(
            "{what}: n={n} src at +{soff}, dst at +{doff}: byte {} of the destination window: got {:#04x}, want {:#04x}",
            i as isize - (base + doff) as isize,
            buf[i],
            want[i]
        );
    }
}

/// Every size up to past the loop's second iteration, the destination
/// before and after the source at distances around each vector, block and
/// class boundary, at an aligned and a misaligned destination; also the
/// disjoint case and `dst == src`.
fn memmove<V: Tuning>() {
    let (w, b) = (V::BYTES, V::LOOP_BLOCK);
    let top = V::NOLOOP_MAX + 2 * b + w;
    let distances = [
        0,
        1,
        3,
        w - 1,
        w,
        w + 1,
        2 * w + 5,
        b + 1,
        V::NOLOOP_MAX / 2 + 1,
        top + 1,
    ];
    for n in 0..=top {
        for d in distances {
            for lead in [0, 5] {
                // SAFETY (both): `moves` passes windows in range.
                moves("memmove up", n, lead + d, lead, |d, s, n| unsafe {
                    generic::memmove::<V>(d, s, n);
                });
                moves("memmove down", n, lead, lead + d, |d, s, n| unsafe {
                    generic::memmove::<V>(d, s, n);
                });
                // The mixed-sizes ladder, whatever this build's cfg.
                let mixed = |d: *mut u8, s: *const u8, n: usize| unsafe {
                    let s = generic::Move::<true>(s);
                    let aligned = generic::takes_aligned_loop::<V, _>(d, s);
                    generic::write::<V, _>(d, s, n, aligned, true);
                };
                moves("mixed memmove up", n, lead + d, lead, mixed);
                moves("mixed memmove down", n, lead, lead + d, mixed);
            }
        }
    }
}

/// A copy entry point, as the sweeps call it.
type CopyFn<'a> = &'a dyn Fn(*mut u8, *const u8, usize);
/// A fill entry point, as the sweeps call it.
type FillFn<'a> = &'a dyn Fn(*mut u8, u8, usize);

/// Every size `0..=top` at every destination alignment, through the four
/// entry points given (`memcpy`, `memcpy_generic`, `memset`,
/// `memcpy_aligned`); `memcpy` is also run with both pointers aligned.
fn sweep_entry_points<V: Tuning>(
    tag: &str,
    top: usize,
    memcpy: CopyFn,
    memcpy_generic: CopyFn,
    memset: FillFn,
    memcpy_aligned: CopyFn,
) {
    let w = V::BYTES;
    let [cpy, generic_cpy, set, both, aligned] = [
        "memcpy",
        "memcpy_generic",
        "memset",
        "memcpy aligned both",
        "memcpy_aligned",
    ]
    .map(|name| format!("{tag}{name}"));
    for n in 0..=top {
        for doff in 0..w {
            let soff = (doff * 5 + 3) % w;
            copies(&cpy, n, doff, soff, |d, s| memcpy(d, s, n));
            copies(&generic_cpy, n, doff, soff, |d, s| memcpy_generic(d, s, n));
            fills(&set, n, doff, 0xC3, |d| memset(d, 0xC3, n));
        }
        copies(&both, n, 0, 0, |d, s| memcpy(d, s, n));
        copies(&aligned, n, 0, 0, |d, s| memcpy_aligned(d, s, n));
    }
}

/// The whole algorithm for one kernel, every size up to past the loop's
/// second iteration, at every destination alignment.
fn algorithm<V: Tuning>() {
    // SAFETY (all four): the sweep passes in-range, non-overlapping
    // buffers, and aligned ones to `memcpy_aligned`.
    sweep_entry_points::<V>(
        "",
        V::NOLOOP_MAX + 2 * V::LOOP_BLOCK + V::BYTES,
        &|d, s, n| returns_dst("memcpy", n, unsafe { generic::memcpy::<V>(d, s, n) }, d),
        &|d, s, n| unsafe { generic::memcpy_generic::<V>(d, s, n) },
        &|d, c, n| returns_dst("memset", n, unsafe { generic::memset::<V>(d, c, n) }, d),
        &|d, s, n| unsafe { generic::memcpy_aligned::<V>(d, s, n) },
    );
}

/// The `fastmem_mixed_sizes` ladder, whatever this build's cfg: every size
/// through the no-loop range and into the loop, at every destination
/// alignment, through the same dispatch as the entry points.
fn mixed_sizes<V: Tuning>() {
    // SAFETY: as in `algorithm`; `aligned` is what the entry points pass.
    sweep_entry_points::<V>(
        "mixed ",
        V::NOLOOP_MAX + 2 * V::BYTES,
        &|d, s, n| unsafe {
            let aligned = generic::takes_aligned_loop::<V, _>(d, s);
            generic::write::<V, _>(d, s, n, aligned, true);
        },
        &|d, s, n| unsafe {
            generic::write::<V, _>(d, s, n, false, true);
        },
        &|d, c, n| unsafe {
            let aligned = generic::takes_aligned_loop::<V, _>(d, Splat(c));
            generic::write::<V, _>(d, Splat(c), n, aligned, true);
        },
        &|d, s, n| unsafe {
            generic::write::<V, _>(d, s, n, true, true);
        },
    );
}

/// The hand-over to string instructions: sizes around each threshold, at
/// misaligned and aligned pointers (the largest, 1 MiB fills for Zen 4/5,
/// are a few milliseconds each). Kernels without one run the loop here.
fn string_cut_over<V: Tuning>() {
    let sizes = |min: usize| {
        let at = if min == usize::MAX {
            4 * V::NOLOOP_MAX
        } else {
            min
        };
        [at - 1, at, at + 1, at + 3 * V::BYTES + 5]
    };
    for n in sizes(V::STRING_COPY_MIN) {
        for (doff, soff) in [(0, 0), (1, 3), (12, 0), (V::BYTES - 1, 1)] {
            copies("memcpy", n, doff, soff, |d, s| {
                returns_dst("memcpy", n, unsafe { generic::memcpy::<V>(d, s, n) }, d)
            });
            copies("memcpy_generic", n, doff, soff, |d, s| unsafe {
                generic::memcpy_generic::<V>(d, s, n)
            });
        }
        copies("memcpy_aligned", n, 0, 0, |d, s| unsafe {
            generic::memcpy_aligned::<V>(d, s, n)
        });
    }
    // Moves: going up (the string instruction's side) and down.
    for n in sizes(V::STRING_COPY_MIN) {
        for d in [1, 17, V::BYTES + 3, n / 2] {
            for lead in [0, 1] {
                // SAFETY (both): `moves` passes windows in range.
                moves("memmove up", n, lead + d, lead, |d, s, n| {
                    returns_dst("memmove", n, unsafe { generic::memmove::<V>(d, s, n) }, d)
                });
                moves("memmove down", n, lead, lead + d, |d, s, n| {
                    returns_dst("memmove", n, unsafe { generic::memmove::<V>(d, s, n) }, d)
                });
            }
        }
    }
    for n in sizes(V::STRING_FILL_MIN) {
        for doff in [0, 1, 12, V::BYTES - 1] {
            fills("memset", n, doff, 0x7E, |d| {
                returns_dst("memset", n, unsafe { generic::memset::<V>(d, 0x7E, n) }, d)
            });
        }
    }
}

/// The non-temporal loop (called directly: the threshold that hands
/// `memcpy` over to it is megabytes) at every size from its first through
/// two of its stripe groups, at every destination alignment; and the
/// explicit entry points' dispatch through and past `NOLOOP_MAX`.
fn nontemporal<V: Tuning>() {
    let (w, lb) = (V::BYTES, V::LOOP_BLOCK);
    let mut sizes: Vec<usize> = (V::NOLOOP_MAX + 1..=V::NOLOOP_MAX + 3 * lb + w).collect();
    let group = crate::large::STRIPE_BYTES;
    for k in [1, 2] {
        let g = k * group;
        sizes.extend([g - 1, g, g + 1, g + lb + w + 1, g + w, g + 2 * w + 3]);
    }
    for &n in &sizes {
        for doff in 0..w {
            let soff = (doff * 5 + 3) % w;
            copies("write_nontemporal", n, doff, soff, |d, s| unsafe {
                crate::large::write_nontemporal::<V, _>(d, s, n)
            });
            fills("write_nontemporal fill", n, doff, 0x96, |d| unsafe {
                crate::large::write_nontemporal::<V, _>(d, Splat(0x96), n)
            });
        }
    }
    // The hand-over's two arms, whichever this CPU takes
    // (`large::streams`): streaming, or the string instruction (the block
    // loop on a kernel without one), each at any size past `NOLOOP_MAX`,
    // which a build for Zen 1-3 without a string threshold also reaches
    // on a Zen 4 whose AVX-512 is hidden.
    for stream in [true, false] {
        let lo = V::NOLOOP_MAX + 1;
        for n in [lo, lo + 1, lo + 3 * w + 5, lo + group + 7] {
            for doff in [0, 1, w / 2, w - 1] {
                fills("handover fill", n, doff, 0x5D, |d| unsafe {
                    crate::large::handover::<V, _>(d, Splat(0x5D), n, stream)
                });
                copies("handover", n, doff, (doff * 3 + 1) % w, |d, s| unsafe {
                    crate::large::handover::<V, _>(d, s, n, stream)
                });
            }
        }
    }
    for n in 0..=V::NOLOOP_MAX + 2 * lb {
        for doff in [0, 1, w / 2, w - 1] {
            copies("write_any", n, doff, 3, |d, s| unsafe {
                crate::large::write_any::<V, _>(d, s, n)
            });
            fills("write_any fill", n, doff, 0x69, |d| unsafe {
                crate::large::write_any::<V, _>(d, Splat(0x69), n)
            });
        }
    }
}

/// The ladder's hand-over to the non-temporal loop: `write` calls it from
/// `handover_from` (8 MiB for a copy in a build that asks the CPU), which
/// streams from `handover_min`, which a test build may set low with
/// `FASTMEM_NONTEMPORAL_MIN`; sizes around each when it is at most 8 MiB.
fn nontemporal_handover<V: Tuning>() {
    use crate::large::{handover_from, handover_min};
    let around = |min: usize| [min - 1, min, min + 1, min + 3 * V::BYTES + 5];
    let copy_min = handover_min::<V>(<*const u8 as Source>::TRAFFIC);
    let copy_from = handover_from::<V, *const u8>();
    // Each threshold once (they are one where the build does not ask),
    // and only the small ones.
    let thresholds = |from: usize, min: usize| {
        let mut t = std::vec![from];
        if min != from {
            t.push(min);
        }
        t.retain(|&m| m <= 8 << 20);
        t
    };
    for min in thresholds(copy_from, copy_min) {
        for n in around(min) {
            for (doff, soff) in [(0, 0), (1, 3), (V::BYTES - 1, 1)] {
                copies(
                    "memcpy at the non-temporal threshold",
                    n,
                    doff,
                    soff,
                    |d, s| returns_dst("memcpy", n, unsafe { generic::memcpy::<V>(d, s, n) }, d),
                );
            }
            copies(
                "memcpy_aligned at the non-temporal threshold",
                n,
                0,
                0,
                |d, s| unsafe { generic::memcpy_aligned::<V>(d, s, n) },
            );
        }
    }
    for min in thresholds(
        handover_from::<V, Splat>(),
        handover_min::<V>(Splat::TRAFFIC),
    ) {
        for n in around(min) {
            for doff in [0, 1, V::BYTES - 1] {
                fills("memset at the non-temporal threshold", n, doff, 0x3B, |d| {
                    returns_dst("memset", n, unsafe { generic::memset::<V>(d, 0x3B, n) }, d)
                });
            }
        }
    }
}

/// The AVX-512BW kernel moves 0-32 B with one masked move unless the build
/// asks for plain moves (`--cfg fastmem_no_masked_moves`).
#[cfg(all(target_feature = "avx512bw", target_feature = "avx512vl"))]
#[test]
fn masked_moves_follow_the_cfg() {
    type V = crate::kernels::arch::__m512i;
    let want = if cfg!(fastmem_no_masked_moves) { 0 } else { 32 };
    assert_eq!(<V as Tuning>::MASKED_MAX, want);
}

/// The AVX2 kernel keeps its moves and fills apart from LLVM's 64-byte
/// joins exactly where the build enables AVX-512F and either takes this
/// kernel (`--cfg fastmem_no_avx512`: the avx2-zen4 CI tier) or is one for
/// Zen 4 (SSE4a without AVX-VNNI: the avx512-zen4 tier, whose AVX-512
/// kernel moves overlapping ranges with this kernel's loop), unless
/// build.rs's probe found that LLVM keeps adjacent ymm moves apart with
/// these flags (`fastmem_ymm_kept`); the other vector types never.
#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "avx2"
))]
#[test]
fn joinable_follows_the_cfg() {
    use crate::kernels::arch::{__m128i, __m256i};
    let zen4 = cfg!(all(
        target_feature = "sse4a",
        not(target_feature = "avxvnni")
    ));
    let want = cfg!(target_feature = "avx512f")
        && (cfg!(fastmem_no_avx512) || zen4)
        && !cfg!(fastmem_ymm_kept);
    assert_eq!(<__m256i as crate::vector::Vector>::JOINABLE, want);
    const { assert!(!<__m128i as crate::vector::Vector>::JOINABLE) };
    const { assert!(!<u64 as crate::vector::Vector>::JOINABLE) };
}

/// An AVX-512BW/VL build on x86-64 copies and fills 0-128 B and compares
/// 0-64 B in registers 16-31 unless it asks for the intrinsics (`--cfg
/// fastmem_low_regs`, which the avx512-nomask CI tier sets); a build for
/// Zen 4 copies 33-64 B with the intrinsics all the same (the path the
/// avx512-nomask and avx512f-only tiers test on every CPU).
#[cfg(all(target_feature = "avx512bw", target_feature = "avx512vl"))]
#[test]
fn high_registers_follow_the_cfg() {
    let want = cfg!(target_arch = "x86_64") && !cfg!(fastmem_low_regs);
    assert_eq!(crate::kernels::high::ON, want);
    let zen4 = cfg!(target_feature = "sse4a") && !cfg!(target_feature = "avxvnni");
    assert_eq!(crate::kernels::high::YMM_COPIES, want && !zen4);
}

/// The core a build's target features name (`cores::BUILT_FOR`, and Zen 5
/// by `cores::AMD_ZEN5`) against `FASTMEM_EXPECT_CORE`, which ci/test.sh
/// sets for its builds for AMD cores. Those run on any x86 CPU with the
/// kernel's vector features whose test binaries hold no AMD-only
/// instruction, so the AMD tunings are tested on Intel CPUs too; this
/// test keeps such a run from testing another core's build unseen.
#[test]
fn built_for_the_expected_core() {
    use crate::kernels::cores::{self, Core};
    #[cfg(target_feature = "avx2")]
    let zen5 = cores::AMD_ZEN5;
    #[cfg(not(target_feature = "avx2"))]
    let zen5 = false;
    let name = match cores::BUILT_FOR {
        Core::Other => "other",
        Core::AmdZen3 => "zen3",
        Core::AmdZen4 if zen5 => "zen5",
        Core::AmdZen4 => "zen4",
    };
    match std::env::var("FASTMEM_EXPECT_CORE") {
        Ok(want) => assert_eq!(name, want, "FASTMEM_EXPECT_CORE"),
        Err(_) => std::println!("FASTMEM_EXPECT_CORE not set: a build for {name}"),
    }
}

/// The run-time question the large-copy hand-over asks of CPUID (which AMD
/// core, if any?): the fields it reads against the kernel's in
/// /proc/cpuinfo (vendor, family, model, the avx2 and avx512f flags), and
/// its remembered answer against those fields' (`CpuId::core`, whose
/// table `core_from_cpuid_fields` checks).
#[cfg(all(target_os = "linux", any(target_arch = "x86", target_arch = "x86_64")))]
#[test]
fn core_at_run_time_matches_cpuinfo() {
    let info = std::fs::read_to_string("/proc/cpuinfo").expect("/proc/cpuinfo");
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| std::string::String::from(v.trim()))
            .unwrap_or_default()
    };
    let family: u32 = field("cpu family").parse().expect("cpu family");
    let model: u32 = field("model").parse().expect("model");
    let flags = field("flags");
    let has = |flag: &str| flags.split_whitespace().any(|f| f == flag);
    let (avx2, avx512f) = (has("avx2"), has("avx512f"));
    let vendor = field("vendor_id");
    // A CPUID that is not the one the kernel saw (valgrind's synthetic
    // GenuineIntel, or AVX-512 turned off by the kernel) is skipped; the
    // family and model, which both decode alike, must agree.
    use crate::kernels::cores::{at_run_time, CpuId};
    let id = CpuId::read();
    if id.vendor != vendor.as_bytes() || id.avx2 != avx2 || id.avx512f != avx512f {
        std::println!(
            "SKIP core_at_run_time_matches_cpuinfo: CPUID says {} family {} avx2 {} avx512f {}, /proc/cpuinfo {vendor} family {family} avx2 {avx2} avx512f {avx512f} (a CPUID the kernel does not see, as under valgrind)",
            std::string::String::from_utf8_lossy(&id.vendor),
            id.family,
            id.avx2,
            id.avx512f
        );
        return;
    }
    assert_eq!(
        (id.family, id.model),
        (family, model),
        "CPUID's family and model decoded as in /proc/cpuinfo"
    );
    let want = CpuId {
        vendor: id.vendor,
        family,
        model,
        avx2,
        avx512f,
    }
    .core();
    // Asked twice: the second answer is the remembered one.
    assert_eq!(
        at_run_time(),
        want,
        "/proc/cpuinfo: {vendor} family {family} model {model}, avx2 {avx2}, avx512f {avx512f}"
    );
    assert_eq!(at_run_time(), want);
}

/// `CpuId::core` on the CPUs it must tell apart, and some it must not
/// take for them: the four measured here by their own fields, and the
/// edges of family 25's Zen 3 and Zen 4 model ranges.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[test]
fn core_from_cpuid_fields() {
    use crate::kernels::cores::{Core, CpuId};
    let (amd, intel) = (*b"AuthenticAMD", *b"GenuineIntel");
    let (zen3, zen4) = (Core::AmdZen3, Core::AmdZen4);
    // (what, vendor, family, model, avx2, avx512f, want)
    let cases = [
        ("amd-25-1: Milan", amd, 25, 0x01, true, false, zen3),
        (
            "amd-25-17: Genoa, AVX-512 hidden",
            amd,
            25,
            0x11,
            true,
            false,
            zen4,
        ),
        ("amd-26-2: Turin", amd, 26, 0x02, true, true, zen4),
        (
            "intel-6-207: Emerald Rapids",
            intel,
            6,
            0xcf,
            true,
            true,
            Core::Other,
        ),
        ("Zen 3: Vermeer", amd, 25, 0x21, true, false, zen3),
        (
            "Zen 3: the last Zen 3 model",
            amd,
            25,
            0x5f,
            true,
            false,
            zen3,
        ),
        ("Zen 4: Genoa", amd, 25, 0x11, true, true, zen4),
        (
            "Zen 4: Raphael, AVX-512 hidden",
            amd,
            25,
            0x61,
            true,
            false,
            zen4,
        ),
        ("Zen 4: the first model", amd, 25, 0x10, true, false, zen4),
        ("Zen 4: the last model", amd, 25, 0xaf, true, false, zen4),
        ("Zen 3 model with AVX-512F", amd, 25, 0x01, true, true, zen4),
        ("Zen 1 and 2: Rome", amd, 23, 0x31, true, false, zen3),
        (
            "Zen 1 and 2, model 0x11 of family 23",
            amd,
            23,
            0x11,
            true,
            false,
            zen3,
        ),
        ("Zen 5, AVX-512 hidden", amd, 26, 0x02, true, false, zen4),
        ("AMD without AVX2", amd, 21, 0x02, false, false, Core::Other),
        (
            "an AVX2 Intel core",
            intel,
            6,
            0x55,
            true,
            false,
            Core::Other,
        ),
        (
            "Hygon: not measured",
            *b"HygonGenuine",
            24,
            0x01,
            true,
            false,
            Core::Other,
        ),
    ];
    for (what, vendor, family, model, avx2, avx512f, want) in cases {
        let id = CpuId {
            vendor,
            family,
            model,
            avx2,
            avx512f,
        };
        assert_eq!(id.core(), want, "{what}");
    }
}

/// Every kernel's block loop takes two blocks a turn exactly when the
/// build asks for it (`--cfg fastmem_paired_blocks`), but the SSE
/// kernel's, which takes two in every build; the SSE kernel alone neither
/// peels a fill's first block nor keeps its large path inline.
#[test]
fn loop_turn_follows_the_cfg() {
    let want = if cfg!(fastmem_paired_blocks) { 2 } else { 1 };
    assert_eq!(<u64 as Tuning>::LOOP_TURN, want);
    assert_eq!(crate::PAIRED_BLOCKS, want == 2);
    assert_eq!(<u64 as Tuning>::UNALIGNED_TURN, want);
    const { assert!(<u64 as Tuning>::FILL_PEEL) };
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    ))]
    {
        type Sse = crate::kernels::arch::__m128i;
        assert_eq!(<Sse as Tuning>::LOOP_TURN, 2);
        assert_eq!(<Sse as Tuning>::UNALIGNED_TURN, 2);
        const { assert!(!<Sse as Tuning>::FILL_PEEL) };
        const { assert!(<Sse as Tuning>::LARGE_OUT_OF_LINE) };
    }
    let selected = if crate::KERNEL == crate::Kernel::Sse {
        2
    } else {
        want
    };
    assert_eq!(<crate::Selected as Tuning>::LOOP_TURN, selected);
    assert_eq!(<crate::Selected as Tuning>::UNALIGNED_TURN, selected);
}

/// A fill streams from twice a copy's threshold; both are `usize::MAX`
/// where the kernel cannot stream.
#[test]
fn nontemporal_thresholds() {
    use crate::large::{handover_min, NONTEMPORAL_MIN};
    assert_eq!(handover_min::<u64>(2), usize::MAX);
    assert_eq!(handover_min::<u64>(1), usize::MAX);
    assert_eq!(crate::NONTEMPORAL_MIN, handover_min::<crate::Selected>(2));
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    ))]
    if NONTEMPORAL_MIN != usize::MAX && NONTEMPORAL_MIN > 1 << 10 {
        type V = crate::kernels::arch::__m128i;
        assert_eq!(handover_min::<V>(2), NONTEMPORAL_MIN);
        assert_eq!(Some(handover_min::<V>(1)), NONTEMPORAL_MIN.checked_mul(2));
        // A build whose features do not name its core for certain (all
        // but one for Zen 4/5), and may ask the CPU, calls the hand-over
        // from Zen 1-3's threshold.
        use crate::large::handover_from;
        let (copy_from, fill_from) = (handover_from::<V, *const u8>(), handover_from::<V, Splat>());
        // `NONTEMPORAL_MIN` is `usize::MAX` in a build that sets
        // `FASTMEM_NONTEMPORAL_MIN=none`, which the branch's test leaves
        // out; clippy judges the constant alone.
        #[allow(clippy::absurd_extreme_comparisons)]
        let below = copy_from <= NONTEMPORAL_MIN && fill_from <= handover_min::<V>(1);
        assert!(below, "hand-over from {copy_from} / {fill_from}");
        let asks = option_env!("FASTMEM_NONTEMPORAL_MIN").is_none()
            && !cfg!(all(target_feature = "sse4a", target_feature = "avx512f"))
            && !cfg!(fastmem_no_cpuid)
            && !cfg!(fastmem_no_rep_movsb);
        if asks {
            assert_eq!((copy_from, fill_from), (8 << 20, 16 << 20));
            // What the hand-over then does on each core, from where the
            // call site hands over: other CPUs stream from the default
            // for them, 32 MiB (fills 64 MiB), whatever the build's own.
            use crate::kernels::cores::Core;
            use crate::large::streams_on;
            for (from, other_min, copy) in
                [(copy_from, 32 << 20, true), (fill_from, 64 << 20, false)]
            {
                let on = |core, n| {
                    if copy {
                        streams_on::<V, *const u8>(core, n)
                    } else {
                        streams_on::<V, Splat>(core, n)
                    }
                };
                for n in [from, from + 1, other_min - 1, other_min, 1 << 30] {
                    assert!(on(Core::AmdZen3, n), "Zen 1-3 streams from {from}: {n}");
                    assert!(!on(Core::AmdZen4, n), "Zen 4/5 never streams with SSE: {n}");
                    assert_eq!(
                        on(Core::Other, n),
                        n >= other_min,
                        "other CPUs stream from {other_min}: {n}"
                    );
                }
            }
            // With 32-byte vectors, a Zen 4 or later streams copies from
            // the hand-over up to 32 MiB, and no fill.
            #[cfg(target_feature = "avx2")]
            {
                type Y = crate::kernels::arch::__m256i;
                let copy_from = handover_from::<Y, *const u8>();
                assert_eq!(copy_from, 8 << 20);
                for (n, want) in [
                    (copy_from, true),
                    ((32 << 20) - 1, true),
                    (32 << 20, false),
                    (1 << 30, false),
                ] {
                    assert_eq!(
                        streams_on::<Y, *const u8>(Core::AmdZen4, n),
                        want,
                        "Zen 4/5 AVX2 copy of {n}"
                    );
                    assert!(
                        !streams_on::<Y, Splat>(Core::AmdZen4, 2 * n),
                        "Zen 4/5 AVX2 fill of {}",
                        2 * n
                    );
                }
            }
        } else {
            assert_eq!(
                (copy_from, fill_from),
                (NONTEMPORAL_MIN, handover_min::<V>(1))
            );
        }
    }
}

/// A build for Zen 4/5 by its features, with the default threshold,
/// hands copies over from 8 MiB and fills from 16 MiB, and streams only
/// copies below 32 MiB with its own kernel's vectors (32 or 64 bytes);
/// with 16-byte vectors, and for fills, the hand-over takes the string
/// instruction.
#[cfg(all(target_feature = "sse4a", target_feature = "avx512f"))]
#[test]
fn zen4_build_streams_a_window_of_copies() {
    use crate::large::{handover_from, streams};
    if option_env!("FASTMEM_NONTEMPORAL_MIN").is_some() {
        std::println!("SKIP zen4_build_streams_a_window_of_copies: FASTMEM_NONTEMPORAL_MIN is set");
        return;
    }
    if cfg!(fastmem_no_rep_movsb) {
        // Nothing to fall back on outside the window: no hand-over.
        assert_eq!(crate::NONTEMPORAL_MIN, usize::MAX);
        return;
    }
    type K = crate::Selected;
    type X = crate::kernels::arch::__m128i;
    assert_eq!(crate::NONTEMPORAL_MIN, 8 << 20);
    assert_eq!(handover_from::<K, *const u8>(), 8 << 20);
    assert_eq!(handover_from::<K, Splat>(), 16 << 20);
    for (n, copy) in [
        (8 << 20, true),
        ((32 << 20) - 1, true),
        (32 << 20, false),
        (1 << 30, false),
    ] {
        assert_eq!(streams::<K, *const u8>(n), copy, "copy of {n}");
        assert!(!streams::<K, Splat>(n.max(16 << 20)), "fill of {n}");
        assert!(!streams::<X, *const u8>(n), "16-byte copy of {n}");
    }
}

// Only the x86 SIMD kernels stream; the portable kernel never hands over.
static_assertions::const_assert!(!<u64 as Vector>::NONTEMPORAL);
#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
static_assertions::const_assert!(<crate::kernels::arch::__m128i as Vector>::NONTEMPORAL);

#[test]
fn nontemporal_min_parses() {
    use crate::large::parse_size;
    assert_eq!(parse_size(None, 7), 7);
    assert_eq!(parse_size(Some("4096"), 7), 4096);
    assert_eq!(parse_size(Some("64K"), 7), 64 << 10);
    assert_eq!(parse_size(Some("16m"), 7), 16 << 20);
    assert_eq!(parse_size(Some("1G"), 7), 1 << 30);
    assert_eq!(parse_size(Some("none"), 7), usize::MAX);
    for bad in ["", "M", "12Q", "1MB", "-5", "99999999999999999999"] {
        let r = std::panic::catch_unwind(|| parse_size(Some(bad), 7));
        assert!(r.is_err(), "{bad:?} should be refused");
    }
}

fn movs<V: Vector>() {
    fn one<V: Vector, const N: usize>() {
        for doff in [0, 1, 7, 31, 63] {
            copies("mov", N, doff, 63 - doff, |d, s| unsafe {
                generic::mov::<V, N>(d, s)
            });
        }
    }
    one::<V, 1>();
    one::<V, 2>();
    one::<V, 4>();
    one::<V, 8>();
    one::<V, 16>();
    one::<V, 32>();
    one::<V, 64>();
    one::<V, 128>();
    one::<V, 256>();
}

/// The ladder below a kernel's width, rung by rung; above 16 B in both
/// forms a copy of exactly `W` can take, whatever this build's
/// `Tuning::HALVES_AT_WIDTH`: the full rung and the half rung.
fn rungs<V: Vector>() {
    let w = V::BYTES;
    for n in 0..=2 * w {
        copies("write_le_2w", n, 3, 1, |d, s| unsafe {
            generic::write_le_2w::<V, _>(d, s, n)
        });
    }
    for halves in [false, true] {
        for n in 17..=2 * w {
            for (doff, soff) in [(0, 0), (1, 3), (w - 1, 0)] {
                copies("write_gt16", n, doff, soff, |d, s| unsafe {
                    generic::write_gt16::<V, _>(d, s, n, halves)
                });
                fills("write_gt16 fill", n, doff, 0xA5, |d| unsafe {
                    generic::write_gt16::<V, _>(d, Splat(0xA5), n, halves)
                });
            }
        }
    }
}

/// The compare oracle: the first differing byte's difference, one byte at
/// a time; `black_box` keeps LLVM from turning the loop into a call of
/// `memcmp` or `bcmp`, which may be the code under test.
fn oracle_memcmp(a: &[u8], b: &[u8]) -> i32 {
    for i in 0..a.len() {
        let (x, y) = (core::hint::black_box(a[i]), core::hint::black_box(b[i]));
        if x != y {
            return i32::from(x) - i32::from(y);
        }
    }
    0
}

/// A compare entry point under test: `(a, b, n) -> memcmp-style result`,
/// and whether its result is only zero/non-zero (`bcmp`).
type CmpFn<'a> = (
    &'a str,
    bool,
    &'a dyn Fn(*const u8, *const u8, usize) -> i32,
);

/// Two operands of up to `top` bytes at offsets `aoff` and `boff` from a
/// 64-aligned base, holding the same bytes; around them, different bytes
/// on each side (0xAA before and after `a`, 0x55 around `b`), so that a
/// compare reading past either end sees a difference.
struct CmpBufs {
    a: Vec<u8>,
    b: Vec<u8>,
    aoff: usize,
    boff: usize,
}

impl CmpBufs {
    fn new(top: usize, aoff: usize, boff: usize) -> Self {
        let len = top + 2 * GUARD + 2 * BASE_ALIGN;
        let (mut a, mut b) = (vec![0xAA; len], vec![0x55; len]);
        let (sa, sb) = (
            aligned_start(&a) + GUARD + aoff,
            aligned_start(&b) + GUARD + boff,
        );
        for i in 0..top {
            let v = (i as u8).wrapping_mul(7) ^ 0x3C;
            (a[sa + i], b[sb + i]) = (v, v);
        }
        CmpBufs { a, b, aoff, boff }
    }
    fn at(&mut self) -> (usize, usize) {
        (
            aligned_start(&self.a) + GUARD + self.aoff,
            aligned_start(&self.b) + GUARD + self.boff,
        )
    }
}

/// The bytes a single difference is made of: 0x00 against 0xFF, and 0x7F
/// against 0x80, which a compare of signed bytes gets backwards; each both
/// ways round.
const DIFF_PAIRS: [(u8, u8); 4] = [(0x00, 0xFF), (0xFF, 0x00), (0x7F, 0x80), (0x80, 0x7F)];

/// Every `n` in `0..=top` at each pair of offsets: equal operands, and a
/// single difference at every position, each position with a negative
/// and a positive pair (which pairs turns with `n`, so every position
/// meets all four). Checks each function in `fns`.
fn compare_sweep(top: usize, offs: &[(usize, usize)], fns: &[CmpFn]) {
    for &(aoff, boff) in offs {
        let mut bufs = CmpBufs::new(top, aoff, boff);
        let (sa, sb) = bufs.at();
        for n in 0..=top {
            let check = |bufs: &CmpBufs, want: i32, what: &str| {
                let (a, b) = (bufs.a[sa..].as_ptr(), bufs.b[sb..].as_ptr());
                for (name, boolean, f) in fns {
                    let got = f(a, b, n);
                    let ok = if *boolean {
                        (got != 0) == (want != 0)
                    } else {
                        got == want
                    };
                    assert!(
                        ok,
                        "{name}(n = {n}, aoff = {aoff}, boff = {boff}) {what}: got {got}, want {want}"
                    );
                }
            };
            check(&bufs, 0, "equal");
            for p in 0..n {
                let (ka, kb) = (bufs.a[sa + p], bufs.b[sb + p]);
                for k in [(p + n) % 2 * 2, (p + n) % 2 * 2 + 1] {
                    let (x, y) = DIFF_PAIRS[k];
                    (bufs.a[sa + p], bufs.b[sb + p]) = (x, y);
                    let want = i32::from(x) - i32::from(y);
                    // The oracle agrees; checked at small sizes only, where
                    // it does not dominate the sweep's time.
                    if n <= 64 {
                        let (a, b) = (&bufs.a[sa..sa + n], &bufs.b[sb..sb + n]);
                        assert_eq!(oracle_memcmp(a, b), want);
                    }
                    check(&bufs, want, &format!("{x:#04x} vs {y:#04x} at {p}"));
                }
                (bufs.a[sa + p], bufs.b[sb + p]) = (ka, kb);
            }
        }
    }
}

/// Offsets of the two operands: both aligned, each misaligned, both.
fn compare_offsets<V: Vector>() -> [(usize, usize); 4] {
    let w = V::BYTES;
    [(0, 0), (1, 0), (0, w - 1), (w / 2 + 1, 3)]
}

/// `memcmp` and `bcmp` of one kernel through every rung: every size up to
/// where the block loop runs twice or more.
fn compare<V: Tuning>() {
    use crate::compare;
    // SAFETY (all): the sweep passes operands readable for `n` bytes.
    compare_sweep(
        V::NOLOOP_MAX + 2 * V::COMPARE_BLOCK + V::BYTES,
        &compare_offsets::<V>(),
        &[
            ("memcmp", false, &|a, b, n| unsafe {
                compare::memcmp::<V>(a, b, n)
            }),
            ("bcmp", true, &|a, b, n| unsafe {
                compare::bcmp::<V>(a, b, n)
            }),
        ],
    );
}

/// The compare ladder below a kernel's width without masked loads, and
/// the kernel's masked compare where it has one.
fn compare_rungs<V: Tuning>() {
    use crate::compare::{self, Equality, Order};
    // SAFETY (all): the sweep passes operands readable for `n` bytes.
    compare_sweep(
        2 * V::BYTES,
        &compare_offsets::<V>(),
        &[
            ("diff_le_2w", false, &|a, b, n| unsafe {
                compare::diff_le_2w::<V, Order>(a, b, n)
            }),
            ("diff_le_2w Equality", true, &|a, b, n| unsafe {
                compare::diff_le_2w::<V, Equality>(a, b, n)
            }),
        ],
    );
    compare_sweep(
        V::COMPARE_MASKED_MAX,
        &compare_offsets::<V>(),
        &[
            ("diff_masked", false, &|a, b, n| unsafe {
                V::diff_masked::<Order>(a, b, n)
            }),
            ("diff_masked Equality", true, &|a, b, n| unsafe {
                V::diff_masked::<Equality>(a, b, n)
            }),
        ],
    );
}

#[test]
fn compare_scalar_rungs() {
    use crate::compare::{self, Equality, Order, Word};
    // SAFETY: the sweep passes operands readable for `n` bytes.
    compare_sweep(
        16,
        &[(0, 0), (1, 2), (7, 3)],
        &[
            ("diff_le16", false, &|a, b, n| unsafe {
                compare::diff_le16::<u64, Order>(a, b, n)
            }),
            ("diff_le16 Equality", true, &|a, b, n| unsafe {
                compare::diff_le16::<u64, Equality>(a, b, n)
            }),
        ],
    );
    // Each word's mask and `Word::order` find a single difference at
    // every byte, with its sign and size; equal words answer 0.
    fn one<V: Word>() {
        // SAFETY: every array loaded holds 8 bytes, at least one `V`.
        let load = |p: &[u8; 8]| unsafe { V::load_unaligned(p.as_ptr()) };
        let same = [0x11u8; 8];
        assert_eq!(load(&same).order(load(&same)), 0);
        for (x, y) in DIFF_PAIRS {
            for p in 0..V::BYTES {
                let (mut a, mut b) = (same, same);
                (a[p], b[p]) = (x, y);
                // A later difference of the other sign must not count.
                if p + 1 < V::BYTES {
                    (a[p + 1], b[p + 1]) = (y, x);
                }
                let m = load(&a).ne_mask(load(&b));
                assert_eq!(m.trailing_zeros() / V::MASK_BITS, p as u32);
                let want = i32::from(x) - i32::from(y);
                assert_eq!(
                    load(&a).order(load(&b)),
                    want,
                    "{} B word, byte {p}",
                    V::BYTES
                );
            }
        }
    }
    one::<u8>();
    one::<u16>();
    one::<u32>();
    one::<u64>();
}

#[test]
fn splat_fills_every_byte() {
    fn check<V: Vector>() {
        let mut out = vec![0u8; V::BYTES];
        // SAFETY: `out` holds exactly one vector.
        unsafe { V::splat(0x9B).store_unaligned(out.as_mut_ptr()) };
        assert!(out.iter().all(|&b| b == 0x9B));
    }
    check::<u8>();
    check::<u16>();
    check::<u32>();
    check::<u64>();
}

#[test]
fn scalar_rungs() {
    rungs::<u8>();
    rungs::<u16>();
    rungs::<u32>();
    rungs::<u64>();
}

#[test]
fn zero_length_touches_nothing() {
    // Dangling, unaligned, and null-adjacent: n == 0 must not dereference.
    let p = core::ptr::NonNull::<u8>::dangling().as_ptr();
    // SAFETY: n == 0 touches no memory.
    unsafe {
        crate::memcpy(p, p.wrapping_add(1), 0);
        crate::memcpy_generic(p, p.wrapping_add(1), 0);
        crate::memset(p, 1, 0);
        crate::memmove(p, p.wrapping_add(1), 0);
        crate::memmove(p.wrapping_add(1), p, 0);
        crate::memcpy_nontemporal(p, p.wrapping_add(1), 0);
        crate::memset_nontemporal(p, 1, 0);
    }
}

#[test]
fn selected_kernel_is_consistent() {
    assert_eq!(
        crate::KERNEL.vector_bytes(),
        <crate::Selected as Vector>::BYTES
    );
    assert_eq!(
        <crate::Selected as Tuning>::KERNEL.name(),
        std::format!("{}", crate::KERNEL)
    );
}

#[test]
fn source_splat_ignores_offset() {
    // SAFETY: a splat source reads no memory.
    let v: u32 = unsafe { Splat(0x11).read::<u32, Unaligned>(usize::MAX) };
    assert_eq!(v, 0x1111_1111);
}

macro_rules! kernel_tests {
    ($($(#[$cfg:meta])* $name:ident => $v:ty;)*) => {$(
        $(#[$cfg])*
        mod $name {
            #[test]
            fn blocks() { super::blocks::<$v>() }
            #[test]
            fn algorithm() { super::algorithm::<$v>() }
            #[test]
            fn mixed_sizes() { super::mixed_sizes::<$v>() }
            #[test]
            fn movs() { super::movs::<$v>() }
            #[test]
            fn memmove() { super::memmove::<$v>() }
            #[test]
            fn string_cut_over() { super::string_cut_over::<$v>() }
            #[test]
            fn rungs() { super::rungs::<$v>() }
            #[test]
            fn compare() { super::compare::<$v>() }
            #[test]
            fn compare_rungs() { super::compare_rungs::<$v>() }
            #[test]
            fn nontemporal() { super::nontemporal::<$v>() }
            #[test]
            fn nontemporal_handover() { super::nontemporal_handover::<$v>() }
        }
    )*};
}

kernel_tests! {
    portable => u64;
    #[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse2"))]
    sse => crate::kernels::arch::__m128i;
    #[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "avx2"))]
    avx2 => crate::kernels::arch::__m256i;
    #[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "avx512f"))]
    avx512 => crate::kernels::arch::__m512i;
}
