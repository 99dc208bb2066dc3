//! Copies and fills larger than the caches: the non-temporal loop, out of
//! line, and the threshold at which `memcpy` and `memset` hand over to it.
//!
//! # The plan
//!
//! ```text
//! n > NOLOOP_MAX, non-temporal (write_nontemporal):
//!   |V=|V=|V=|V=|                             first 64 bytes, unaligned, ordinary stores
//!             |B=======|B=======|B=======|... 64-aligned destination blocks of
//!                                             LOOP_BLOCK bytes, non-temporal stores,
//!                                             four pages side by side (STRIPES), then
//!                                             one block at a time for the rest (< 16 KiB)
//!   sfence                                    the streaming stores are weakly ordered
//!                              |T=========|   the last LOOP_BLOCK bytes, ordinary stores
//! ```
//!
//! A non-temporal store writes its line to memory through a write-combining
//! buffer: the line is not read into the cache first (no read-for-ownership)
//! and evicts nothing the program still needs. For a copy larger than the
//! last-level cache that saves a third of the memory traffic (no reading
//! of the destination: two passes over memory instead of three); for one that
//! fits, it is slower, since the data must then come back from memory. glibc
//! (`memmove-vec-unaligned-erms`, its `large_memcpy` path) switches at about
//! three quarters of a thread's share of the L3, a value it computes at run
//! time; here the threshold is a build-time constant, [`NONTEMPORAL_MIN`].
//!
//! Who uses the loop:
//! - [`crate::memcpy`] and [`crate::memset`] (and `memcpy_generic`,
//!   `memcpy_aligned`), from [`NONTEMPORAL_MIN`] bytes (fills from twice
//!   that, [`handover_min`]), on the kernels whose
//!   vector has non-temporal stores (the x86 SIMD ones). The hand-over is a
//!   call of [`write_nontemporal`], which is `#[cold]` and never inlined, so
//!   an inlined call site grows by one compare and one call, not by a loop;
//!   a constant size below the threshold folds the test away. The test sits
//!   in one arm with the kernel's string instruction ([`write_large`]), so
//!   the aligned and unaligned dispatch share it; a kernel may put that
//!   whole arm out of line (`Tuning::LARGE_OUT_OF_LINE`, AVX-512 and SSE), leaving
//!   one compare and one call for everything from its string threshold.
//! - [`crate::memcpy_nontemporal`] and [`crate::memset_nontemporal`], at
//!   every size above `NOLOOP_MAX` (below it there is no aligned body, and
//!   the ladder's ordinary moves write everything).
//!
//! On the portable kernel `store_nontemporal` is an ordinary store and
//! there is no fence: the explicit entry points still work, through the
//! same loop, and `memcpy`/`memset` never hand over.
//!
//! # The out-of-line functions are `extern "C"`
//!
//! [`write_large_out_of_line`], [`write_handover`] and [`write_nontemporal`]
//! are called from inlined code, so their ABI is the call site's business.
//! With the Rust ABI a call may unwind, and a caller built with
//! `panic=unwind` that cannot let it (an `extern "C"` wrapper, which must
//! abort instead; a function holding a value to drop) wraps the call in a
//! landing pad. Then the call cannot be a tail jump, and LLVM pushed a
//! register at the caller's entry to align the stack for it: one store
//! and one load on every call of every size. The C ABI cannot unwind
//! (a panic inside aborts), so the call site needs no landing pad: the
//! wrapper jumps to the cold function, and the push is gone. On the Zen 5
//! measured (`amd-26-2`), the sse and avx512 tiers' `extern "C"` wrappers
//! of `memcpy` went from 4.6-4.8 to 3.9-4.3 ticks at 48-64 B (sse) and from
//! 5.6-7.1 to 4.9-6.4 at 192-256 B (benches/NOTEBOOK.md, "`amd-26-2`: the cold
//! calls that cannot unwind"). `Move` and `Splat` are `repr(transparent)`,
//! so that they cross that ABI as the pointer and the byte they hold.

use crate::generic::{block, Source};
use crate::kernels::cores::{self, Core};
use crate::vector::{NonTemporal, Tuning, Unaligned};

/// The default of [`NONTEMPORAL_MIN`] for a build for `core`: 32 MiB;
/// 8 MiB for AMD's Zen 4 and 5 ([`Core::AmdZen4`]), where the hand-over
/// streams only copies below [`ZEN4_STREAM_BELOW`] ([`streams_on`]) and
/// takes `rep movsb` and `rep stosb` for the rest: from 32 MiB `rep
/// movsb` copied 1.3-1.6x faster than streaming stores on the Zen 5, and
/// `rep stosb` filled as fast as they did; 8 MiB for Zen 1-3
/// ([`Core::AmdZen3`], [`ZEN3_NONTEMPORAL_MIN`]), where, on the
/// Zen 3 measured (`amd-25-1`, AVX2 kernel, two runs of 21 rounds),
/// streaming copies of 8-32 MiB ran 1.64-2.15x the better of glibc and
/// `rep movsb` while the 32-byte loop ran 0.81-0.96x at 8-16 MiB, and
/// streaming fills won from 16 MiB (1.86x) and lost at 8 MiB (0.50-0.60x),
/// which the fills' doubled threshold leaves alone (BENCHMARKS.md,
/// "`amd-25-1`: large copies").
///
/// One table for both questions: the build's own default, for the core
/// its features name ([`cores::BUILT_FOR`]), and, in a build that asks
/// the CPU ([`asks_cpu`]), the threshold for the core it finds
/// ([`streams_on`]).
const fn nontemporal_min_default(core: Core) -> usize {
    match core {
        // Without the string instruction (`fastmem_no_rep_movsb`) Zen 4/5
        // have nothing to take outside the window: no hand-over at all.
        Core::AmdZen4 if cfg!(fastmem_no_rep_movsb) => usize::MAX,
        Core::AmdZen4 | Core::AmdZen3 => ZEN3_NONTEMPORAL_MIN,
        Core::Other => 32 << 20,
    }
}

/// [`nontemporal_min_default`] for Zen 1-3: 8 MiB. Also where a build
/// that asks the CPU ([`asks_cpu`]) streams on one: on the Zen 3 measured,
/// the baseline (SSE) build's streaming copies of 8-24 MiB ran 1.29-1.63x
/// the better of glibc and `rep movsb`, where its `rep movsb` ran
/// 0.84-1.00x, and streaming fills of 16 MiB 0.92-1.11x, of 24 MiB
/// 1.36-1.56x (three runs; benches/NOTEBOOK.md, "`amd-25-1`: the baseline build
/// streams from 8 MiB").
const ZEN3_NONTEMPORAL_MIN: usize = 8 << 20;

/// Where a Zen 4 or later ([`Core::AmdZen4`]: a build for it by its
/// features, or one that asks the CPU, [`asks_cpu`], and finds one) stops
/// streaming copies: 32 MiB. From the hand-over (8 MiB) to here, copies
/// with 32- or 64-byte vectors stream, and from here on take `rep movsb`;
/// fills, and copies with 16-byte vectors, take the string instruction
/// throughout. On the Zen 4 measured with AVX-512 hidden (`amd-25-17`,
/// AVX2, three runs each) streaming copies of 8-24 MiB ran 1.05-1.47x the
/// better of glibc and `rep movsb`, where `rep movsb` ran 0.89-1.02x
/// (glibc's vector loop beat it at 8 MiB), and tied it at 32 MiB; from
/// 64 MiB it ran 0.73-0.93x `rep movsb`. With AVX-512 visible (AVX-512
/// kernel, two runs) streaming copies ran 1.27-1.62x the best at 8 MiB,
/// 1.00-1.02x at 16 MiB, 1.09-1.12x at 24 MiB, and 0.87-0.88x at 32 MiB
/// (benches/NOTEBOOK.md, "`amd-25-17` with AVX-512: the string and streaming
/// thresholds"). On the Zen 5 (`amd-26-2`), streaming won 4-16 MiB by
/// 1.02-1.14x and lost from 32 MiB (0.73-0.81x). SSE streaming copies of
/// 8-32 MiB ran 0.77-1.04x `rep movsb` on the Zen 4, and streaming fills
/// of 16 MiB 0.54-0.71x `rep stosb` (benches/NOTEBOOK.md, "`amd-25-17`: a Zen 4
/// that looks like a Zen 3").
const ZEN4_STREAM_BELOW: usize = 32 << 20;

/// The first size at which `memcpy` takes the non-temporal loop (on
/// kernels with non-temporal stores; `memset` from twice it, see
/// [`handover_min`]): `FASTMEM_NONTEMPORAL_MIN` in the environment of the
/// build, else 32 MiB (8 MiB in a build for Zen 1-3, and in one for Zen 4
/// and 5, which streams only copies below 32 MiB there; see
/// [`nontemporal_min_default`]).
///
/// The variable takes a number of bytes, optionally with a `K`, `M` or `G`
/// suffix (powers of 1024), or `none` to turn the hand-over off; anything
/// else fails the build. Cargo rebuilds fastmem when the variable changes
/// (`option_env!` is tracked).
///
/// Why 32 MiB (benches/NOTEBOOK.md, "Large copies"): on the test machine (an
/// Emerald Rapids-class Xeon, CPUID model 207, a 2-vCPU VM), single copies
/// ran 1.1-1.45x faster with streaming stores than with `rep movsb` from
/// 2 MiB up, and fills won from 32-64 MiB; below 1 MiB, where the buffers
/// stay in L2, the streaming loop ran half as fast. Any value from 4 MiB
/// met the target there; 32 MiB keeps more sizes in the caches' reach on
/// CPUs whose L3 serves a thread more, and is below the 64 MiB at which
/// glibc already streamed on an Ice Lake-SP (issue 10; not measurable
/// here). glibc picks about three quarters of a thread's share of the L3
/// at run time (`ld.so --list-diagnostics` prints `non_temporal_threshold`;
/// 99 MiB on the test machine): a build for a known machine can pass that.
///
/// A build that keeps the default and whose features do not name its core
/// for certain ([`cores::BUILT_FOR_CERTAIN`]) calls the hand-over from
/// Zen 1-3's threshold ([`handover_from`]) and asks the CPU there, once
/// ([`streams`]).
pub(crate) const NONTEMPORAL_MIN: usize = parse_size(
    option_env!("FASTMEM_NONTEMPORAL_MIN"),
    nontemporal_min_default(cores::BUILT_FOR),
);

/// Parses `FASTMEM_NONTEMPORAL_MIN`: decimal digits with an optional `K`,
/// `M` or `G` suffix, or `none` (`usize::MAX`); `default` when unset. A bad
/// value is a panic, which in a constant is a compile error.
pub(crate) const fn parse_size(var: Option<&str>, default: usize) -> usize {
    let s = match var {
        None => return default,
        Some(s) => s.as_bytes(),
    };
    if matches!(s, b"none") {
        return usize::MAX;
    }
    let (mut i, mut v) = (0, 0usize);
    while i < s.len() && s[i].is_ascii_digit() {
        v = match v.checked_mul(10) {
            Some(x) => match x.checked_add((s[i] - b'0') as usize) {
                Some(y) => y,
                None => panic!("FASTMEM_NONTEMPORAL_MIN is too large"),
            },
            None => panic!("FASTMEM_NONTEMPORAL_MIN is too large"),
        };
        i += 1;
    }
    let shift = match (s.len() - i, if i < s.len() { s[i] } else { 0 }) {
        (0, _) => 0,
        (1, b'K' | b'k') => 10,
        (1, b'M' | b'm') => 20,
        (1, b'G' | b'g') => 30,
        _ => panic!("FASTMEM_NONTEMPORAL_MIN must be bytes, optionally with K, M or G, or `none`"),
    };
    if i == 0 {
        panic!("FASTMEM_NONTEMPORAL_MIN must start with a number");
    }
    match v.checked_mul(1 << shift) {
        Some(x) => x,
        None => panic!("FASTMEM_NONTEMPORAL_MIN is too large"),
    }
}

/// Pages the streaming loop writes side by side: each turn of its inner
/// loop writes one block in each of `STRIPES` consecutive pages, so the
/// loads run as four streams a page apart. At 256 MiB that ran 0.98-1.15x
/// the better of glibc and `rep movsb` in three runs, where one stream ran
/// 0.87-1.05x; software prefetching, 1 or 4 KiB ahead, did not help
/// (benches/NOTEBOOK.md, "Large copies"). glibc's `large_memcpy` interleaves
/// pages in the same way.
const STRIPES: usize = 4;
/// The cache line: the streaming body starts at a multiple of it, so that
/// every non-temporal line is written whole, in one go.
const LINE: usize = 64;
/// The page size the stripes are spaced by.
const PAGE: usize = 4096;
/// Bytes written per group of stripes.
pub(crate) const STRIPE_BYTES: usize = STRIPES * PAGE;

/// The first size [`crate::generic::write`] hands to [`write_nontemporal`]
/// on kernel `V`, for a source that moves `traffic` bytes per byte written
/// ([`Source::TRAFFIC`]): [`NONTEMPORAL_MIN`] for a copy, twice it for a
/// fill, whose footprint in the caches is half a copy's of the same size;
/// `usize::MAX` (never) where the kernel has no non-temporal stores or the
/// build turned the hand-over off. Always above `NOLOOP_MAX`.
///
/// Fills measured the need: at 16 MiB they ran 0.87-0.97x `rep stosb`
/// with streaming stores, where copies ran 1.17-1.45x `rep movsb`; from
/// 64 MiB streaming fills ran 2.1-4.5x (benches/NOTEBOOK.md, "Large copies").
///
/// A build that asks the CPU ([`asks_cpu`]) calls the hand-over from a
/// lower size, [`handover_from`], and decides there.
#[inline(always)]
pub(crate) const fn handover_min<V: Tuning>(traffic: usize) -> usize {
    handover_min_of::<V>(NONTEMPORAL_MIN, traffic)
}

/// [`handover_min`] for a copy threshold of `copy_min` bytes.
#[inline(always)]
const fn handover_min_of<V: Tuning>(copy_min: usize, traffic: usize) -> usize {
    let min = match copy_min.checked_mul(2) {
        Some(x) => x / traffic,
        None => usize::MAX,
    };
    if !V::NONTEMPORAL || copy_min == usize::MAX {
        usize::MAX
    } else if min > V::NOLOOP_MAX {
        min
    } else {
        V::NOLOOP_MAX + 1
    }
}

/// The first size the call site hands to [`write_handover`]: where the
/// build asks the CPU ([`asks_cpu`]), the lowest threshold any answer
/// streams from ([`ZEN3_NONTEMPORAL_MIN`]'s, for source `R`), else
/// [`handover_min`].
#[inline(always)]
pub(crate) fn handover_from<V: Tuning, R: Source>() -> usize {
    let min = handover_min::<V>(R::TRAFFIC);
    if asks_cpu() {
        let zen3 = handover_min_of::<V>(ZEN3_NONTEMPORAL_MIN, R::TRAFFIC);
        if zen3 < min {
            return zen3;
        }
    }
    min
}

/// The first size [`crate::generic::write`] hands to [`write_large`]: the
/// kernel's string threshold for source `R`, or the hand-over's if that
/// is smaller; `usize::MAX` if neither applies.
#[inline(always)]
pub(crate) fn large_min<V: Tuning, R: Source>() -> usize {
    let (string, stream) = (R::string_min::<V>(), handover_from::<V, R>());
    if string < stream {
        string
    } else {
        stream
    }
}

/// Writes `n >= large_min::<V, R>()` bytes: from the non-temporal
/// threshold the out-of-line [`write_nontemporal`], below it the kernel's
/// string instruction (`rep movsb` / `rep stosb`), inline. One arm for
/// the aligned and unaligned dispatch alike, so the call site tests each
/// threshold once.
///
/// Returns `dst`, from the out-of-line call where there is one: a caller
/// that returns `dst` itself, as the C symbols do (`crate::memcpy_c`),
/// then keeps nothing across the call and jumps to it. Keeping `dst`
/// took a callee-saved register, and LLVM saved that register at the
/// symbol's entry, on every size, as soon as a loop in the symbol walked a
/// pointer (`Tuning::LOOP_POINTERS`; benches/NOTEBOOK.md, "`intel-6-167`:
/// the symbols' large path returns `dst`"). The out-of-line functions
/// return it through [`opaque_ptr`](crate::barrier::opaque_ptr): LLVM
/// otherwise sees that they return their argument and has the caller
/// keep its own copy again.
///
/// # Safety
///
/// `n >= large_min::<V, R>()`, `0..n` is in range for `dst` and `src`,
/// and the two do not overlap.
#[inline(always)]
pub(crate) unsafe fn write_large<V: Tuning, R: Source>(dst: *mut u8, src: R, n: usize) -> *mut u8 {
    // SAFETY: forwarded contract.
    unsafe {
        if V::LARGE_OUT_OF_LINE {
            write_large_out_of_line::<V, R>(dst, src, n)
        } else {
            write_large_inline::<V, R>(dst, src, n)
        }
    }
}

/// [`write_large`] behind a call, for kernels that set
/// [`Tuning::LARGE_OUT_OF_LINE`].
///
/// `#[cold]` for the layout it gives the call site, not because such
/// sizes are rare: without it LLVM placed the call between the 4-vector
/// rung and the tail stores it shares with the loops, and a 512-byte
/// AVX-512 fill took a jump there, 8.1 ticks instead of 7.3 (0.90x glibc).
/// `extern "C"`: see the module docs.
///
/// # Safety
///
/// As [`write_large`].
#[cold]
#[inline(never)]
unsafe extern "C" fn write_large_out_of_line<V: Tuning, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
) -> *mut u8 {
    // SAFETY: forwarded contract.
    crate::barrier::opaque_ptr(unsafe { write_large_inline::<V, R>(dst, src, n) })
}

/// The body of [`write_large`].
///
/// # Safety
///
/// As [`write_large`].
#[inline(always)]
unsafe fn write_large_inline<V: Tuning, R: Source>(dst: *mut u8, src: R, n: usize) -> *mut u8 {
    let stream = handover_from::<V, R>();
    // SAFETY: forwarded contract. Below `stream`, `n >= large_min` means
    // `n >= string_min`; `stream > NOLOOP_MAX`, and so is `string_min`
    // (const-asserted in `generic`). Where the kernel has no string
    // threshold, `large_min` is `stream` and the first arm is the only one.
    unsafe {
        if stream != usize::MAX && n >= stream {
            write_handover::<V, R>(dst, src, n)
        } else {
            src.write_string::<V>(dst, n);
            dst
        }
    }
}

/// Whether the hand-over decides by the core ([`streams_on`]): the build
/// kept the default [`NONTEMPORAL_MIN`] (a `FASTMEM_NONTEMPORAL_MIN` the
/// build set is obeyed as it is) and has the string instruction to fall
/// back on (not turned off by `fastmem_no_rep_movsb`). x86 only. The core
/// is the one the build's features name for certain, else the one CPUID
/// names where the build asks ([`asks_cpu`]).
#[inline(always)]
fn decides_by_core() -> bool {
    cfg!(any(target_arch = "x86", target_arch = "x86_64"))
        && option_env!("FASTMEM_NONTEMPORAL_MIN").is_none()
        && !cfg!(fastmem_no_rep_movsb)
}

/// Whether a build asks the CPU, at run time, if streaming pays
/// ([`streams`]): one that decides by the core ([`decides_by_core`]),
/// whose target features do not name its core for certain
/// ([`cores::BUILT_FOR_CERTAIN`]: the x86_64 baseline, features named one
/// by one, or a build for Zen 1-3, whose features a Zen 4 with AVX-512
/// hidden shares), and that was not built with `--cfg fastmem_no_cpuid`
/// (for an SGX enclave, say, where CPUID faults). A constant: every other
/// build keeps its one path. x86 only, as CPUID is.
#[inline(always)]
fn asks_cpu() -> bool {
    decides_by_core() && !cores::BUILT_FOR_CERTAIN && !cfg!(fastmem_no_cpuid)
}

/// Whether a copy or fill of `n >= handover_from::<V, R>()` bytes streams:
/// yes, unless the build decides by the core ([`decides_by_core`]) and
/// knows it: by its features where they name it for certain (a build for
/// Zen 4/5, which streams Zen 4's window of copies, [`ZEN4_STREAM_BELOW`]),
/// else by asking the CPU ([`asks_cpu`]), which then decides as a build
/// for it would have ([`nontemporal_min_default`], and the same window):
/// - an AMD Zen 4 or later streams only copies with 32- or 64-byte
///   vectors below [`ZEN4_STREAM_BELOW`], and takes `rep movsb`/`rep
///   stosb` otherwise: on the Zen 5 measured, a baseline build copied
///   64-256 MiB at 0.60-0.61x `rep movsb` with streaming stores
///   (benches/NOTEBOOK.md, "`amd-26-2`: large copies"); on the Zen 4 measured,
///   whose hypervisor hides AVX-512 (`amd-25-17`), so that a build for its
///   features is one for Zen 1-3, at 0.73-0.93x;
/// - a Zen 1-3 streams from [`ZEN3_NONTEMPORAL_MIN`], where the call
///   site hands over;
/// - any other CPU from [`handover_min`].
#[inline(always)]
pub(crate) fn streams<V: Tuning, R: Source>(n: usize) -> bool {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if cores::BUILT_FOR_CERTAIN && decides_by_core() {
        return streams_on::<V, R>(cores::BUILT_FOR, n);
    } else if asks_cpu() {
        return streams_on::<V, R>(cores::at_run_time(), n);
    }
    let _ = n;
    true
}

/// [`streams`]' answer for a build that asks, on `core`, for `n >=
/// handover_from::<V, R>()`: on a Zen 4 or later, a copy with vectors of
/// 32 bytes or more below [`ZEN4_STREAM_BELOW`], nothing else; on other
/// cores from the threshold a build for `core` would have.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn streams_on<V: Tuning, R: Source>(core: Core, n: usize) -> bool {
    if core == Core::AmdZen4 {
        return R::TRAFFIC == 2 && V::BYTES >= 32 && n < ZEN4_STREAM_BELOW;
    }
    n >= handover_min_of::<V>(nontemporal_min_default(core), R::TRAFFIC)
}

/// The hand-over from the non-temporal threshold: [`write_nontemporal`]
/// where [`streams`] says so, else the kernel's string instruction. Out
/// of line and cold, as `write_nontemporal` is: the call site holds one
/// compare and one call, whatever is decided here. Returns `dst`, as
/// [`write_large`] says why.
///
/// # Safety
///
/// As [`write_large`], with `n >= handover_from::<V, R>()`.
#[cold]
#[inline(never)]
unsafe extern "C" fn write_handover<V: Tuning, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
) -> *mut u8 {
    // SAFETY: forwarded contract.
    unsafe { handover::<V, R>(dst, src, n, streams::<V, R>(n)) };
    crate::barrier::opaque_ptr(dst)
}

/// The body of [`write_handover`], with the decision as an argument, so
/// that the tests take both arms on any CPU.
///
/// # Safety
///
/// As [`write_handover`], whose `n >= handover_from > NOLOOP_MAX` both
/// arms need.
#[inline(always)]
pub(crate) unsafe fn handover<V: Tuning, R: Source>(dst: *mut u8, src: R, n: usize, stream: bool) {
    // SAFETY: forwarded contract; `n > NOLOOP_MAX` is all either arm needs.
    unsafe {
        if stream {
            write_nontemporal::<V, R>(dst, src, n)
        } else {
            src.write_string::<V>(dst, n)
        }
    }
}

/// Writes `n > NOLOOP_MAX` bytes with non-temporal stores for the
/// line-aligned body, ordinary ones for the first line and the last block,
/// then the fence the streaming stores need (see the module docs).
///
/// Out of line and cold: it serves sizes where a call costs nothing, and
/// keeps the inlined call sites small; `extern "C"`, as the module docs
/// say why.
///
/// # Safety
///
/// `n > V::NOLOOP_MAX`, `0..n` is in range for `dst` and `src`, and the
/// two do not overlap.
#[cold]
#[inline(never)]
pub(crate) unsafe extern "C" fn write_nontemporal<V: Tuning, R: Source>(
    dst: *mut u8,
    src: R,
    n: usize,
) {
    const {
        assert!(
            PAGE.is_multiple_of(V::LOOP_BLOCK),
            "a page is a whole number of blocks"
        );
        assert!(
            V::BYTES <= LINE && V::NOLOOP_MAX >= LINE,
            "the first line is whole vectors, inside the smallest size"
        );
    };
    let (w, lb) = (V::BYTES, V::LOOP_BLOCK);
    debug_assert!(n > V::NOLOOP_MAX);
    // 1..=64 bytes to the next line-aligned destination address; the first
    // line's worth of vectors covers them. Aligning to the vector alone
    // left the AVX2 and SSE blocks straddling lines, which the stripes
    // then wrote in halves far apart in time: 2-3.5 B/tick where whole
    // lines ran 7-10.
    let skip = LINE - (dst as usize & (LINE - 1));
    let body = n - skip;
    let groups = body / STRIPE_BYTES;
    // SAFETY: `n > NOLOOP_MAX >= LOOP_BLOCK + W` (const-asserted in
    // `generic`) and `NOLOOP_MAX >= LINE` (above), so the first line and
    // the last block are in range. `dst + skip` is line-aligned, hence
    // W-aligned, and every block starts a multiple of
    // LOOP_BLOCK after it: the groups cover `skip..skip + groups *
    // STRIPE_BYTES`, the single blocks go on to `skip + (body / lb) * lb
    // <= n`, and the last block, from `n - lb` to `n`, starts before
    // them (`body / lb` blocks leave less than `lb`): nothing is left out.
    unsafe {
        block::<V, Unaligned, Unaligned, R>(dst, src, 0, LINE / w);
        let (at, from) = (dst.add(skip), src.skip(skip));
        for g in 0..groups {
            let mut off = g * STRIPE_BYTES;
            while off < g * STRIPE_BYTES + PAGE {
                for p in 0..STRIPES {
                    block::<V, Unaligned, NonTemporal, R>(at, from, off + p * PAGE, lb / w);
                }
                off += lb;
            }
        }
        for i in groups * STRIPE_BYTES / lb..body / lb {
            block::<V, Unaligned, NonTemporal, R>(at, from, i * lb, lb / w);
            crate::barrier::no_partial_unroll();
        }
        V::nontemporal_fence();
        block::<V, Unaligned, Unaligned, R>(dst, src, n - lb, lb / w);
    }
}

/// Writes any `n`: the ladder's ordinary moves up to `NOLOOP_MAX`, where
/// there is no aligned body to stream, [`write_nontemporal`] above.
///
/// # Safety
///
/// `0..n` is in range for `dst` and `src`, and the two do not overlap.
#[inline(always)]
pub(crate) unsafe fn write_any<V: Tuning, R: Source>(dst: *mut u8, src: R, n: usize) {
    // SAFETY: forwarded contract; each arm's size precondition is its test.
    unsafe {
        if n <= V::NOLOOP_MAX {
            crate::generic::write::<V, R>(dst, src, n, false, crate::generic::MIXED_SIZES);
        } else {
            write_nontemporal::<V, R>(dst, src, n)
        }
    }
}
