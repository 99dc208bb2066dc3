//! Shared benchmark support for `benches/*.rs` and `examples/{sizes,vhost_enqueue}.rs`.
//!
//! One copy of everything the benchmarks compare, so the criterion suite and the
//! fast rdtsc tools measure exactly the same functions:
//!
//! | name          | copy                                   | fill                                   |
//! |---------------|----------------------------------------|----------------------------------------|
//! | `fastmem`     | `fastmem::memcpy`                      | `fastmem::memset`                      |
//! | `fm_aligned`  | `fastmem::memcpy_aligned`              | —                                      |
//! | `glibc`       | `core::ptr::copy_nonoverlapping`       | `core::ptr::write_bytes`               |
//! | `rep_movsb`   | one `rep movsb` (compiler_builtins with `ermsb`) | one `rep stosb`              |
//! | `fm_nontemporal` | `fastmem::memcpy_nontemporal` (the `large` suite) | `fastmem::memset_nontemporal` |
//! | `cb_movsq`    | compiler_builtins' default scheme: `rep movsb` until the destination is 8-aligned, `rep movsq`, `rep movsb` for the tail | the same with `stosb`/`stosq` |
//!
//! Every entry is an `#[inline(never)]` function, so each is measured as one
//! call with a runtime length, the way the reference figures in issue 3 were
//! taken. With a runtime `n`, `copy_nonoverlapping`/`write_bytes` compile to a
//! call of the platform `memcpy`/`memset` (glibc's ifunc-selected variant here).
//!
//! The module is `#[path]`-included by several targets and each uses a
//! different subset, hence the `dead_code` allowance at the include sites.

use std::alloc::{alloc, dealloc, Layout};
use std::hint::black_box;

/// A copy implementation: `(dst, src, n)`, regions do not overlap. The C
/// calling convention, so that the `asm!` timing loop may call it.
pub type CopyFn = unsafe extern "C" fn(*mut u8, *const u8, usize);
/// A fill implementation: `(dst, byte, n)`.
pub type SetFn = unsafe extern "C" fn(*mut u8, u8, usize);

// ---------------------------------------------------------------------------
// The implementations.
// ---------------------------------------------------------------------------

/// `fastmem::memcpy` behind a call.
///
/// # Safety
/// As `fastmem::memcpy`: both regions valid for `n` bytes, not overlapping.
#[inline(never)]
pub unsafe extern "C" fn fastmem_memcpy(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { fastmem::memcpy(dst, src, n) }
}

/// `fastmem::memcpy_aligned` behind a call.
///
/// # Safety
/// As `fastmem::memcpy_aligned`: additionally both pointers vector-aligned.
#[inline(never)]
pub unsafe extern "C" fn fastmem_memcpy_aligned(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { fastmem::memcpy_aligned(dst, src, n) }
}

/// The platform `memcpy` (glibc here) through `copy_nonoverlapping`.
///
/// # Safety
/// Both regions valid for `n` bytes, not overlapping.
#[inline(never)]
pub unsafe extern "C" fn glibc_memcpy(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { core::ptr::copy_nonoverlapping(src, dst, n) }
}

/// `fastmem::memset` behind a call.
///
/// # Safety
/// `dst` valid for `n` bytes of writes.
#[inline(never)]
pub unsafe extern "C" fn fastmem_memset(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { fastmem::memset(dst, c, n) }
}

/// `fastmem::memcpy_nontemporal` behind a call.
///
/// # Safety
/// As `fastmem::memcpy`: both regions valid for `n` bytes, not overlapping.
#[inline(never)]
pub unsafe extern "C" fn fastmem_memcpy_nontemporal(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { fastmem::memcpy_nontemporal(dst, src, n) }
}

/// `fastmem::memset_nontemporal` behind a call.
///
/// # Safety
/// `dst` valid for `n` bytes of writes.
#[inline(never)]
pub unsafe extern "C" fn fastmem_memset_nontemporal(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { fastmem::memset_nontemporal(dst, c, n) }
}

/// The platform `memset` (glibc here) through `write_bytes`.
///
/// # Safety
/// `dst` valid for `n` bytes of writes.
#[inline(never)]
pub unsafe extern "C" fn glibc_memset(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { core::ptr::write_bytes(dst, c, n) }
}

#[cfg(target_arch = "x86_64")]
mod rep {
    use core::arch::asm;

    /// One `rep movsb`: what compiler_builtins' `memcpy` is on a target with `ermsb`.
    ///
    /// # Safety
    /// Both regions valid for `n` bytes, not overlapping.
    #[inline(never)]
    pub unsafe extern "C" fn rep_movsb(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: the caller guarantees both ranges; the direction flag is clear
        // by the ABI, so the copy runs forward over exactly n bytes.
        unsafe {
            asm!(
                "rep movsb",
                inout("rcx") n => _,
                inout("rdi") dst => _,
                inout("rsi") src => _,
                options(nostack, preserves_flags)
            );
        }
    }

    /// compiler_builtins' default x86_64 copy, rewritten: bytes until `dst` is
    /// 8-aligned, then quadwords, then the remaining 0..=7 bytes.
    ///
    /// # Safety
    /// Both regions valid for `n` bytes, not overlapping.
    #[inline(never)]
    pub unsafe extern "C" fn cb_movsq(dst: *mut u8, src: *const u8, n: usize) {
        let head = (dst as usize).wrapping_neg() & 7;
        let head = if head < n { head } else { n };
        let body = n - head;
        // SAFETY: head + 8 * (body / 8) + body % 8 == n bytes, forward, inside
        // the caller's ranges.
        unsafe {
            asm!(
                "rep movsb",
                "mov rcx, {q}",
                "rep movsq",
                "mov rcx, {t}",
                "rep movsb",
                q = in(reg) body >> 3,
                t = in(reg) body & 7,
                inout("rcx") head => _,
                inout("rdi") dst => _,
                inout("rsi") src => _,
                options(nostack, preserves_flags)
            );
        }
    }

    /// One `rep stosb`.
    ///
    /// # Safety
    /// `dst` valid for `n` bytes of writes.
    #[inline(never)]
    pub unsafe extern "C" fn rep_stosb(dst: *mut u8, c: u8, n: usize) {
        // SAFETY: writes exactly n bytes forward from dst.
        unsafe {
            asm!(
                "rep stosb",
                inout("rcx") n => _,
                inout("rdi") dst => _,
                in("al") c,
                options(nostack, preserves_flags)
            );
        }
    }

    /// compiler_builtins' default x86_64 fill, rewritten: `stosb` to 8-align
    /// `dst`, `stosq` with the byte broadcast to a quadword, `stosb` tail.
    ///
    /// # Safety
    /// `dst` valid for `n` bytes of writes.
    #[inline(never)]
    pub unsafe extern "C" fn cb_stosq(dst: *mut u8, c: u8, n: usize) {
        let head = (dst as usize).wrapping_neg() & 7;
        let head = if head < n { head } else { n };
        let body = n - head;
        let pattern = u64::from(c) * 0x0101_0101_0101_0101;
        // SAFETY: head + 8 * (body / 8) + body % 8 == n bytes, forward.
        unsafe {
            asm!(
                "rep stosb",
                "mov rcx, {q}",
                "rep stosq",
                "mov rcx, {t}",
                "rep stosb",
                q = in(reg) body >> 3,
                t = in(reg) body & 7,
                inout("rcx") head => _,
                inout("rdi") dst => _,
                in("rax") pattern,
                options(nostack, preserves_flags)
            );
        }
    }
}
#[cfg(target_arch = "x86_64")]
pub use rep::{cb_movsq, cb_stosq, rep_movsb, rep_stosb};

/// Ticks per call of `iters` calls with the same arguments: `(dst, src, n, iters)`.
pub type HotCopy = fn(*mut u8, *const u8, usize, usize) -> f64;
/// Ticks per call of one call per length in the list: `(dst, src, lengths)`.
pub type SeqCopy = fn(*mut u8, *const u8, &[usize]) -> f64;
/// As [`HotCopy`] for fills: `(dst, byte, n, iters)`.
pub type HotSet = fn(*mut u8, u8, usize, usize) -> f64;
/// As [`SeqCopy`] for fills: `(dst, byte, lengths)`.
pub type SeqSet = fn(*mut u8, u8, &[usize]) -> f64;

/// A copy implementation and its timing loops. The loops are instantiated
/// per implementation, so the implementation is a direct call inside them:
/// an indirect call would add about one cycle to every measurement, which at
/// 1-64 bytes is a third of the whole.
pub struct CopyImpl {
    /// Column name in the reports.
    pub name: &'static str,
    /// The function itself.
    pub f: CopyFn,
    /// Its hot loop.
    pub hot: HotCopy,
    /// Its mixed-length loop.
    pub seq: SeqCopy,
}

/// A fill implementation and its timing loops; see [`CopyImpl`].
pub struct SetImpl {
    /// Column name in the reports.
    pub name: &'static str,
    /// The function itself.
    pub f: SetFn,
    /// Its hot loop.
    pub hot: HotSet,
    /// Its mixed-length loop.
    pub seq: SeqSet,
}

/// `$count` calls of `$f(a, b, n)`, the lengths read from `$lens`, which
/// advances by the constant `$stride` bytes per call (0: the same length
/// every time); ticks per call. An `asm!` loop that starts on a 64-byte
/// boundary, so every implementation is timed by the same instructions at
/// the same alignment: a compiled loop lands wherever the linker puts it,
/// and that placement alone moved a column by up to 1.7x at 512 B on this
/// machine, glibc's included (BENCHMARKS.md, "Method"). `$f` must be an
/// `extern "C"` function of `(pointer, pointer or byte, usize)`.
#[cfg(target_arch = "x86_64")]
macro_rules! timed_asm {
    ($f:path, $a:expr, $b:expr, $lens:expr, $stride:expr, $count:expr) => {{
        // Opaque arguments, widened to registers (a byte argument
        // zero-extended, as the C convention expects).
        let (a, b) = (black_box($a) as usize, black_box($b) as usize);
        let (lens, count): (*const usize, usize) = ($lens, $count);
        let t0 = ticks();
        if count > 0 {
            // SAFETY: `$f` is an `extern "C"` function whose arguments the
            // caller vouches for; `lens` is readable for every step; the
            // loop keeps its state in callee-saved registers,
            // `clobber_abi("C")` declares what the calls may clobber, and
            // the stack is call-aligned on entry to `asm!`.
            unsafe {
                core::arch::asm!(
                    ".p2align 6",
                    "2:",
                    "mov rdi, r12",
                    "mov rsi, r13",
                    "mov rdx, qword ptr [r14]",
                    "call {f}",
                    "add r14, {stride}",
                    "dec r15",
                    "jnz 2b",
                    f = sym $f,
                    in("r12") a,
                    in("r13") b,
                    inout("r14") lens => _,
                    stride = const $stride,
                    inout("r15") count => _,
                    clobber_abi("C"),
                );
            }
        }
        (ticks() - t0) as f64 / count.max(1) as f64
    }};
}

/// `$iters` calls of `$f(a, b, n)` with a runtime `n`; ticks per call.
macro_rules! timed_calls {
    ($f:path, $a:expr, $b:expr, $n:expr, $iters:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            let n: usize = black_box($n);
            timed_asm!($f, $a, $b, &n, 0, $iters)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            // SAFETY: the timing callers hand in buffers valid for `n`.
            hot_loop(|a, b, n| unsafe { $f(a, b, n) }, $a, $b, $n, $iters)
        }
    }};
}

/// One call of `$f(a, b, n)` per `n` in `$ns`; ticks per call.
macro_rules! timed_seq {
    ($f:path, $a:expr, $b:expr, $ns:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            let ns: &[usize] = black_box($ns);
            timed_asm!($f, $a, $b, ns.as_ptr(), 8, ns.len())
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            // SAFETY: the timing callers hand in buffers valid for every `n`.
            seq_loop(|a, b, n| unsafe { $f(a, b, n) }, $a, $b, $ns)
        }
    }};
}

/// A [`CopyImpl`] or [`SetImpl`] for the function `$f`, with its loops.
macro_rules! entry {
    ($ty:ident, $name:literal, $f:path) => {
        $ty {
            name: $name,
            f: $f,
            // SAFETY (both loops): the timing callers hand in buffers valid
            // for every length they pass.
            hot: |a, b, n, it| timed_calls!($f, a, b, n, it),
            seq: |a, b, ns| timed_seq!($f, a, b, ns),
        }
    };
}

/// The copy implementations to compare. `aligned` adds
/// `fastmem::memcpy_aligned` (only valid when both pointers are vector-aligned).
pub fn copy_impls(aligned: bool) -> Vec<CopyImpl> {
    let mut v = vec![entry!(CopyImpl, "fastmem", fastmem_memcpy)];
    if aligned {
        v.push(entry!(CopyImpl, "fm_aligned", fastmem_memcpy_aligned));
    }
    v.push(entry!(CopyImpl, "glibc", glibc_memcpy));
    #[cfg(target_arch = "x86_64")]
    {
        v.push(entry!(CopyImpl, "rep_movsb", rep_movsb));
        v.push(entry!(CopyImpl, "cb_movsq", cb_movsq));
    }
    v
}

/// The copy implementations of the large-copy suite: fastmem, glibc,
/// `rep movsb` and `fastmem::memcpy_nontemporal`.
pub fn large_copy_impls() -> Vec<CopyImpl> {
    let mut v = vec![
        entry!(CopyImpl, "fastmem", fastmem_memcpy),
        entry!(CopyImpl, "glibc", glibc_memcpy),
    ];
    #[cfg(target_arch = "x86_64")]
    v.push(entry!(CopyImpl, "rep_movsb", rep_movsb));
    v.push(entry!(
        CopyImpl,
        "fm_nontemporal",
        fastmem_memcpy_nontemporal
    ));
    v
}

/// The fill implementations of the large-copy suite, as [`large_copy_impls`].
pub fn large_set_impls() -> Vec<SetImpl> {
    let mut v = vec![
        entry!(SetImpl, "fastmem", fastmem_memset),
        entry!(SetImpl, "glibc", glibc_memset),
    ];
    #[cfg(target_arch = "x86_64")]
    v.push(entry!(SetImpl, "rep_stosb", rep_stosb));
    v.push(entry!(
        SetImpl,
        "fm_nontemporal",
        fastmem_memset_nontemporal
    ));
    v
}

/// The fill implementations to compare.
pub fn set_impls() -> Vec<SetImpl> {
    let mut v = vec![
        entry!(SetImpl, "fastmem", fastmem_memset),
        entry!(SetImpl, "glibc", glibc_memset),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        v.push(entry!(SetImpl, "rep_stosb", rep_stosb));
        v.push(entry!(SetImpl, "cb_stosq", cb_stosq));
    }
    v
}

/// A compiler barrier that emits no instruction: an empty `asm!` may read
/// any memory, so a call that only writes its arguments' memory (a fill) is
/// not hoisted out of a timing loop as loop-invariant.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn clobber() {
    // SAFETY: an empty asm block does nothing.
    unsafe { core::arch::asm!("", options(nostack, preserves_flags)) }
}

/// `iters` calls of `f(a, b, n)` with a runtime `n`; ticks per call.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn hot_loop<A: Copy, B: Copy>(f: impl Fn(A, B, usize), a: A, b: B, n: usize, iters: usize) -> f64 {
    // Opaque pointers: the optimiser cannot prove the stores dead (the
    // buffers are never read back) nor the calls repeated with equal results.
    let (a, b, n) = (black_box(a), black_box(b), black_box(n));
    let t0 = ticks();
    for _ in 0..iters {
        f(a, b, n);
        clobber();
    }
    (ticks() - t0) as f64 / iters as f64
}

/// One call of `f(a, b, n)` per `n` in `ns`; ticks per call.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn seq_loop<A: Copy, B: Copy>(f: impl Fn(A, B, usize), a: A, b: B, ns: &[usize]) -> f64 {
    let (a, b, ns) = (black_box(a), black_box(b), black_box(ns));
    let t0 = ticks();
    for &n in ns {
        f(a, b, n);
        clobber();
    }
    (ticks() - t0) as f64 / ns.len() as f64
}

// ---------------------------------------------------------------------------
// Clocks, buffers, statistics.
// ---------------------------------------------------------------------------

/// The time-stamp counter, fenced so earlier instructions retire first.
/// On other architectures: nanoseconds since the first call.
#[inline(always)]
pub fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: lfence and rdtsc have no preconditions on x86_64.
        unsafe {
            core::arch::x86_64::_mm_lfence();
            let t = core::arch::x86_64::_rdtsc();
            core::arch::x86_64::_mm_lfence();
            t
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        use std::time::Instant;
        static T0: OnceLock<Instant> = OnceLock::new();
        T0.get_or_init(Instant::now).elapsed().as_nanos() as u64
    }
}

/// What one `ticks()` unit is, for the reports.
pub const TICK_UNIT: &str = if cfg!(target_arch = "x86_64") {
    "TSC ticks"
} else {
    "ns"
};

/// TSC ticks per second, estimated against the OS clock over ~50 ms.
pub fn ticks_per_second() -> f64 {
    let t0 = std::time::Instant::now();
    let c0 = ticks();
    while t0.elapsed().as_millis() < 50 {}
    let c1 = ticks();
    (c1 - c0) as f64 / t0.elapsed().as_secs_f64()
}

/// A zero-filled heap buffer with a chosen alignment, every page touched.
/// Buffers of 2 MiB and more ask for transparent huge pages, as DPDK's
/// hugepage-backed mempools would have.
pub struct Buf {
    ptr: *mut u8,
    layout: Layout,
}

impl Buf {
    /// `len` bytes aligned to `align` (a power of two).
    pub fn new(len: usize, align: usize) -> Buf {
        let huge = len >= 2 << 20;
        let align = if huge { align.max(2 << 20) } else { align };
        let layout = Layout::from_size_align(len.max(1), align).expect("layout");
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc(layout) };
        assert!(!ptr.is_null(), "out of memory allocating {len} bytes");
        #[cfg(target_os = "linux")]
        if huge {
            // SAFETY: the range is our own allocation; the advice is only a hint.
            unsafe { libc::madvise(ptr.cast(), layout.size(), libc::MADV_HUGEPAGE) };
        }
        // SAFETY: ptr is valid for layout.size() bytes.
        unsafe { core::ptr::write_bytes(ptr, 0, layout.size()) };
        Buf { ptr, layout }
    }

    /// The first byte.
    pub fn ptr(&self) -> *mut u8 {
        self.ptr
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.layout.size()
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.ptr, self.layout) }
    }
}

/// The median of a sample (sorts it).
pub fn median(v: &mut [f64]) -> f64 {
    assert!(!v.is_empty());
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// xorshift64*: a fixed-seed generator, so every run draws the same sizes.
pub struct Rng(u64);

impl Rng {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
}

/// The classic simple IMIX: 64, 594 and 1518 bytes at 7:4:1.
pub fn imix_sizes(count: usize, seed: u64) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| match rng.range(0, 11) {
            0..=6 => 64,
            7..=10 => 594,
            _ => 1518,
        })
        .collect()
}

/// What the tools print after the kernel's name when the build has the
/// mixed-sizes class (`--cfg fastmem_mixed_sizes`).
pub const MIXED_NOTE: &str = if fastmem::MIXED_SIZES {
    ", mixed-sizes class"
} else {
    ""
};

/// How many sizes a mixed-size sequence holds: long enough that the branch
/// predictor cannot learn the sequence as it repeats (4,096 was partly
/// learnt, see `examples/sizes.rs`), short enough (512 KiB of lengths) to
/// stay in L2 beside the buffers.
pub const MIXED_LEN: usize = 65_536;

/// Uniform sizes in `lo..=hi`.
pub fn uniform_sizes(count: usize, lo: usize, hi: usize, seed: u64) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    (0..count).map(|_| rng.range(lo, hi)).collect()
}

/// The hot-cache size list of issue 3 §2.
pub const HOT_SIZES: &[usize] = &[
    1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1518, 2048, 4096,
    8192,
];

/// Hot-cache buffers: `src` and `dst` inside one 64 KiB block, 18 KiB apart,
/// so `dst - src` is 4.5 pages away from a multiple of 4096 (no 4K aliasing)
/// and both stay in L1 for copies up to 8 KiB.
pub struct HotBufs {
    buf: Buf,
}

/// Distance from `src` to `dst` in [`HotBufs`]: 4.5 pages.
pub const HOT_GAP: usize = 18 * 1024;

impl HotBufs {
    /// A fresh pair.
    pub fn new() -> HotBufs {
        HotBufs {
            buf: Buf::new(64 * 1024, 4096),
        }
    }
    /// `(dst, src)`; the unaligned variant is `(dst + 1, src + 3)`.
    pub fn ptrs(&self, unaligned: bool) -> (*mut u8, *const u8) {
        let base = self.buf.ptr();
        let (d, s) = if unaligned { (1, 3) } else { (0, 0) };
        // SAFETY: both offsets lie inside the 64 KiB buffer with room for 8 KiB + 64.
        unsafe { (base.add(HOT_GAP + d), base.add(s).cast_const()) }
    }
}

impl Default for HotBufs {
    fn default() -> Self {
        Self::new()
    }
}

/// Iterations for one hot timing of an `n`-byte call: about 64 KiB moved, at
/// least 64 calls, so one timing is a few thousand ticks or more.
pub fn hot_iters(n: usize) -> usize {
    (64 * 1024 / n.max(16)).clamp(64, 4096)
}

/// The criterion settings of the suites: hundreds of points, so each is
/// kept short; `examples/sizes.rs` is the precise, interleaved tool.
pub fn criterion_config(warm_up_ms: u64, measure_ms: u64) -> criterion::Criterion {
    criterion::Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(warm_up_ms))
        .measurement_time(std::time::Duration::from_millis(measure_ms))
        .sample_size(20)
}
