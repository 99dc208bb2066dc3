//! Shared benchmark support for `benches/*.rs` and `examples/{sizes,vhost_enqueue}.rs`.
//!
//! One copy of everything the benchmarks compare, so the criterion suite and the
//! fast rdtsc tools measure exactly the same functions:
//!
//! | name          | copy                                   | fill                                   |
//! |---------------|----------------------------------------|----------------------------------------|
//! | `fastmem`     | `fastmem::memcpy`                      | `fastmem::memset`                      |
//! | `fm_zero`     | —                                      | `fastmem::memset` of the constant byte 0 (the others fill with a byte the call passes) |
//! | `fm_aligned`  | `fastmem::memcpy_aligned`              | —                                      |
//! | `dpdk`        | DPDK 22.11's `rte_memcpy`, the build of fastmem's tier (`benches/dpdk`) | — (DPDK has no `rte_memset`) |
//! | `glibc`       | `core::ptr::copy_nonoverlapping`       | `core::ptr::write_bytes`               |
//! | `rep_movsb`   | one `rep movsb` (compiler_builtins with `ermsb`) | one `rep stosb`              |
//! | `fm_nontemporal` | `fastmem::memcpy_nontemporal` (the `large` suite) | `fastmem::memset_nontemporal` |
//! | `cb_movsq`    | compiler_builtins' default scheme: `rep movsb` until the destination is 8-aligned, `rep movsq`, `rep movsb` for the tail | the same with `stosb`/`stosq` |
//! | `symbol`      | with `--features c-symbols`: `copy_nonoverlapping`, a call to the binary's `memcpy`, which is fastmem's exported one | `write_bytes`, a call to fastmem's `memset` |
//!
//! With `--features c-symbols` the binary's `memcpy`, `memset`, `memmove`,
//! `memcmp` and `bcmp` are fastmem's, so the `glibc` column calls glibc's
//! through pointers that `dlsym(RTLD_NEXT, ...)` found past the binary's
//! own: one load and one indirect jump, as a call through the PLT would
//! be. The `symbol` column is what code the compiler emits gets: a call to
//! `memcpy` (`memmove`, ...) that lands on fastmem's exported function,
//! not on the inlined kernel.
//!
//! The moves (`move_impls`): `fastmem` is `fastmem::memmove`, `fm_memcpy`
//! `fastmem::memcpy` beside it, `glibc` the C library's `memmove` (through
//! `core::ptr::copy`), and with `c-symbols` `symbol`, `core::ptr::copy`
//! landing on fastmem's exported `memmove`. The compares (`cmp_impls`):
//! `fastmem` is `fastmem::memcmp` (`fastmem::bcmp`), `glibc` the C
//! library's, and with `c-symbols` `symbol`, a call to the binary's
//! `memcmp` (`bcmp`), which is fastmem's.
//!
//! Every entry is an `#[inline(never)]` function, so each is measured as one
//! call with a runtime length, the way the reference figures in issue 3 were
//! taken. [`inline_copy_impls`] adds the other shape, the copy inlined in the
//! timing loop as at a datapath's call site: `fm_inline` (`fastmem::memcpy`)
//! and `dpdk_inline` (`rte_memcpy`, the same loops in C, `benches/dpdk/side.c`). With a runtime `n`, `copy_nonoverlapping`/`write_bytes` compile to a
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

/// The platform `memcpy` (glibc here) through `copy_nonoverlapping`; with
/// `c-symbols` that would be fastmem's, and [`symbol_memcpy`] is this.
///
/// # Safety
/// Both regions valid for `n` bytes, not overlapping.
#[inline(never)]
pub unsafe extern "C" fn compiler_memcpy(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { core::ptr::copy_nonoverlapping(src, dst, n) }
}

/// `fastmem::memmove` behind a call.
///
/// # Safety
/// As `fastmem::memmove`: both regions valid for `n` bytes; they may overlap.
#[inline(never)]
pub unsafe extern "C" fn fastmem_memmove(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { fastmem::memmove(dst, src, n) }
}

/// The platform `memmove` (glibc here) through `core::ptr::copy`; with
/// `c-symbols` that would be fastmem's, and [`symbol_memmove`] is this.
///
/// # Safety
/// Both regions valid for `n` bytes; they may overlap.
#[inline(never)]
pub unsafe extern "C" fn compiler_memmove(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { core::ptr::copy(src, dst, n) }
}

// The binary's C functions behind a call: glibc's in a plain build,
// fastmem's exported ones (`symbol_*`) with `c-symbols`, where glibc's are
// reached through `libc_fns` instead.
#[cfg(not(feature = "c-symbols"))]
pub use {
    compiler_bcmp as glibc_bcmp, compiler_memcmp as glibc_memcmp, compiler_memcpy as glibc_memcpy,
    compiler_memmove as glibc_memmove, compiler_memset as glibc_memset,
};
#[cfg(feature = "c-symbols")]
pub use {
    compiler_bcmp as symbol_bcmp, compiler_memcmp as symbol_memcmp,
    compiler_memcpy as symbol_memcpy, compiler_memmove as symbol_memmove,
    compiler_memset as symbol_memset,
};

/// glibc's memory functions when the binary's own are fastmem's (the
/// `c-symbols` build): found with `dlsym(RTLD_NEXT)` by [`libc_fns::init`],
/// called through the pointers it stores.
#[cfg(feature = "c-symbols")]
mod libc_fns {
    use std::ffi::CStr;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    const NAMES: [&CStr; 5] = [c"memcpy", c"memset", c"memmove", c"memcmp", c"bcmp"];
    static SLOTS: [AtomicUsize; 5] = [const { AtomicUsize::new(0) }; 5];

    /// Finds glibc's functions: `RTLD_NEXT` searches the objects loaded
    /// after this executable, so it skips fastmem's definitions.
    pub fn init() {
        for (slot, name) in SLOTS.iter().zip(NAMES) {
            // SAFETY: a NUL-terminated name.
            let p = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) };
            assert!(!p.is_null(), "dlsym(RTLD_NEXT, {name:?}) found nothing");
            let exported = fastmem::symbols::EXPORTED;
            assert!(
                !exported.iter().any(|s| std::ptr::eq(s.address, p.cast())),
                "dlsym(RTLD_NEXT, {name:?}) found fastmem's"
            );
            slot.store(p as usize, Relaxed);
        }
    }

    /// The address [`init`] found for `NAMES[i]`.
    fn slot(i: usize) -> usize {
        let p = SLOTS[i].load(Relaxed);
        assert!(p != 0, "libc_fns::init has not run");
        p
    }

    /// glibc's `memcpy`.
    ///
    /// # Safety
    /// Both regions valid for `n` bytes, not overlapping.
    #[inline(never)]
    pub unsafe extern "C" fn glibc_memcpy(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: `init` stored glibc's `memcpy`, whose contract the
        // caller meets.
        unsafe { copy(slot(0), dst, src, n) }
    }

    /// glibc's `memset`.
    ///
    /// # Safety
    /// `dst` valid for `n` bytes of writes.
    #[inline(never)]
    pub unsafe extern "C" fn glibc_memset(dst: *mut u8, c: u8, n: usize) {
        // SAFETY: as in `glibc_memcpy`.
        unsafe {
            let f: unsafe extern "C" fn(*mut u8, i32, usize) -> *mut u8 =
                core::mem::transmute(slot(1));
            f(dst, i32::from(c), n);
        }
    }

    /// glibc's `memmove`.
    ///
    /// # Safety
    /// Both regions valid for `n` bytes; they may overlap.
    #[inline(never)]
    pub unsafe extern "C" fn glibc_memmove(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: as in `glibc_memcpy`.
        unsafe { copy(slot(2), dst, src, n) }
    }

    /// Calls the copy function at `f`.
    ///
    /// # Safety
    /// `f` is `memcpy` or `memmove`, and the regions meet its contract.
    unsafe fn copy(f: usize, dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: the caller's.
        unsafe {
            let f: unsafe extern "C" fn(*mut u8, *const u8, usize) -> *mut u8 =
                core::mem::transmute(f);
            f(dst, src, n);
        }
    }

    /// glibc's `memcmp`.
    ///
    /// # Safety
    /// Both regions valid for `n` bytes of reads.
    #[inline(never)]
    pub unsafe extern "C" fn glibc_memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
        // SAFETY: as in `glibc_memcpy`.
        unsafe { compare(slot(3), a, b, n) }
    }

    /// glibc's `bcmp`.
    ///
    /// # Safety
    /// Both regions valid for `n` bytes of reads.
    #[inline(never)]
    pub unsafe extern "C" fn glibc_bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
        // SAFETY: as in `glibc_memcpy`.
        unsafe { compare(slot(4), a, b, n) }
    }

    /// Calls the compare function at `f`.
    ///
    /// # Safety
    /// `f` is `memcmp` or `bcmp`; both regions valid for `n` bytes of reads.
    unsafe fn compare(f: usize, a: *const u8, b: *const u8, n: usize) -> i32 {
        // SAFETY: the caller's.
        unsafe {
            let f: unsafe extern "C" fn(*const u8, *const u8, usize) -> i32 =
                core::mem::transmute(f);
            f(a, b, n)
        }
    }
}
#[cfg(feature = "c-symbols")]
pub use libc_fns::{glibc_bcmp, glibc_memcmp, glibc_memcpy, glibc_memmove, glibc_memset};

/// `fastmem::memset` behind a call.
///
/// # Safety
/// `dst` valid for `n` bytes of writes.
#[inline(never)]
pub unsafe extern "C" fn fastmem_memset(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { fastmem::memset(dst, c, n) }
}

/// `fastmem::memset` of the byte 0 behind a call (`c` unused): the fill
/// most code asks for, whose byte LLVM sees.
///
/// # Safety
/// `dst` valid for `n` bytes of writes.
#[inline(never)]
pub unsafe extern "C" fn fastmem_memset_zero(dst: *mut u8, _c: u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { fastmem::memset(dst, 0, n) }
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

/// The platform `memset` through `write_bytes`, as [`compiler_memcpy`].
///
/// # Safety
/// `dst` valid for `n` bytes of writes.
#[inline(never)]
pub unsafe extern "C" fn compiler_memset(dst: *mut u8, c: u8, n: usize) {
    // SAFETY: forwarded precondition.
    unsafe { core::ptr::write_bytes(dst, c, n) }
}

/// A compare implementation: `(a, b, n)`, C `memcmp`'s result.
pub type CmpFn = unsafe extern "C" fn(*const u8, *const u8, usize) -> i32;

/// `fastmem::memcmp` behind a call.
///
/// # Safety
/// Both regions valid for `n` bytes of reads.
#[inline(never)]
pub unsafe extern "C" fn fastmem_memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: forwarded precondition.
    unsafe { fastmem::memcmp(a, b, n) }
}

/// `fastmem::bcmp` behind a call.
///
/// # Safety
/// Both regions valid for `n` bytes of reads.
#[inline(never)]
pub unsafe extern "C" fn fastmem_bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: forwarded precondition.
    unsafe { fastmem::bcmp(a, b, n) }
}

/// The binary's `memcmp`: glibc's ifunc-selected variant in a plain build,
/// fastmem's exported one with `c-symbols` ([`symbol_memcmp`]).
///
/// # Safety
/// Both regions valid for `n` bytes of reads.
#[inline(never)]
pub unsafe extern "C" fn compiler_memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: forwarded precondition.
    unsafe { libc::memcmp(a.cast(), b.cast(), n) }
}

extern "C" {
    /// The binary's `bcmp`, which the `libc` crate does not declare.
    #[link_name = "bcmp"]
    fn libc_bcmp(a: *const core::ffi::c_void, b: *const core::ffi::c_void, n: usize) -> i32;
}

/// The binary's `bcmp` (in glibc, an alias of its `memcmp`), as
/// [`compiler_memcmp`].
///
/// # Safety
/// Both regions valid for `n` bytes of reads.
#[inline(never)]
pub unsafe extern "C" fn compiler_bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: forwarded precondition.
    unsafe { libc_bcmp(a.cast(), b.cast(), n) }
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

/// `$body` with `$m` naming the `fastmem_dpdk` module of this build's
/// kernel: `Some($body)`, or `None` when there is no DPDK column (no
/// headers, or the portable kernel).
#[cfg(target_arch = "x86_64")]
macro_rules! dpdk_tier {
    (|$m:ident| $body:expr) => {
        match fastmem_dpdk::tier_for_kernel(fastmem::KERNEL.name()) {
            Some("avx512") => {
                use fastmem_dpdk::avx512 as $m;
                Some($body)
            }
            Some("avx2") => {
                use fastmem_dpdk::avx2 as $m;
                Some($body)
            }
            Some("sse") => {
                use fastmem_dpdk::sse as $m;
                Some($body)
            }
            _ => None,
        }
    };
}
#[cfg(target_arch = "x86_64")]
#[allow(unused_imports)] // for examples/vhost_enqueue.rs; the other tools use the lists
pub(crate) use dpdk_tier;
/// Ticks per call of one call per `(offset, n)` in the list, both
/// pointers advanced by `offset`: `(a, b, steps)`.
pub type SlideCmp = fn(*const u8, *const u8, &[(usize, usize)]) -> f64;

/// A compare implementation and its timing loops; see [`CopyImpl`].
pub struct CmpImpl {
    /// Column name in the reports.
    pub name: &'static str,
    /// The function itself.
    pub f: CmpFn,
    /// Its hot loop: the same arguments every call.
    pub hot: HotCmp,
    /// Its sliding loop: both pointers moved by a per-call offset.
    pub slide: SlideCmp,
}

/// As [`HotCopy`] for compares: `(a, b, n, iters)`.
pub type HotCmp = fn(*const u8, *const u8, usize, usize) -> f64;

/// One call of `$f(a + off, b + off, n)` per `(off, n)` in `$steps`;
/// ticks per call. The loop of [`timed_asm`], with both pointers moved.
#[cfg(target_arch = "x86_64")]
macro_rules! timed_slide {
    ($f:path, $a:expr, $b:expr, $steps:expr) => {{
        let (a, b) = (black_box($a) as usize, black_box($b) as usize);
        let steps: &[(usize, usize)] = black_box($steps);
        let (ptr, count) = (steps.as_ptr(), steps.len());
        let t0 = ticks();
        if count > 0 {
            // SAFETY: as in `timed_asm`; each step's offset and length keep
            // both operands inside the caller's buffers.
            unsafe {
                core::arch::asm!(
                    ".p2align 6",
                    "2:",
                    "mov rdi, r12",
                    "mov rsi, r13",
                    "add rdi, qword ptr [r14]",
                    "add rsi, qword ptr [r14]",
                    "mov rdx, qword ptr [r14 + 8]",
                    "call {f}",
                    "add r14, 16",
                    "dec r15",
                    "jnz 2b",
                    f = sym $f,
                    in("r12") a,
                    in("r13") b,
                    inout("r14") ptr => _,
                    inout("r15") count => _,
                    clobber_abi("C"),
                );
            }
        }
        (ticks() - t0) as f64 / count.max(1) as f64
    }};
}

/// A [`CmpImpl`] for the function `$f`, with its loops.
macro_rules! cmp_entry {
    ($name:literal, $f:path) => {
        CmpImpl {
            name: $name,
            f: $f,
            // SAFETY (both loops): the timing callers hand in buffers valid
            // for every length and offset they pass.
            hot: |a, b, n, it| timed_calls!($f, a, b, n, it),
            slide: |a, b, steps| {
                #[cfg(target_arch = "x86_64")]
                {
                    timed_slide!($f, a, b, steps)
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    let (a, b, steps) = (black_box(a), black_box(b), black_box(steps));
                    let t0 = ticks();
                    for &(off, n) in steps {
                        // SAFETY: as above.
                        black_box(unsafe { $f(a.add(off), b.add(off), n) });
                    }
                    (ticks() - t0) as f64 / steps.len().max(1) as f64
                }
            },
        }
    };
}

/// The compare implementations: fastmem's `memcmp`, with `c-symbols` its
/// exported symbol, and the platform's; then the same for `bcmp`. The
/// first half of the list is `memcmp`'s.
pub fn cmp_impls() -> Vec<CmpImpl> {
    #[cfg(feature = "c-symbols")]
    libc_fns::init();
    let mut v = vec![cmp_entry!("fastmem", fastmem_memcmp)];
    #[cfg(feature = "c-symbols")]
    v.push(cmp_entry!("symbol", symbol_memcmp));
    v.push(cmp_entry!("glibc", glibc_memcmp));
    v.push(cmp_entry!("fastmem", fastmem_bcmp));
    #[cfg(feature = "c-symbols")]
    v.push(cmp_entry!("symbol", symbol_bcmp));
    v.push(cmp_entry!("glibc", glibc_bcmp));
    v
}

/// The copy implementations to compare. `aligned` adds
/// `fastmem::memcpy_aligned` (only valid when both pointers are vector-aligned).
pub fn copy_impls(aligned: bool) -> Vec<CopyImpl> {
    let mut v = vec![entry!(CopyImpl, "fastmem", fastmem_memcpy)];
    if aligned {
        v.push(entry!(CopyImpl, "fm_aligned", fastmem_memcpy_aligned));
    }
    #[cfg(target_arch = "x86_64")]
    v.extend(dpdk_tier!(|m| entry!(CopyImpl, "dpdk", m::memcpy)));
    #[cfg(feature = "c-symbols")]
    {
        libc_fns::init();
        v.push(entry!(CopyImpl, "symbol", symbol_memcpy));
    }
    v.push(entry!(CopyImpl, "glibc", glibc_memcpy));
    #[cfg(target_arch = "x86_64")]
    {
        v.push(entry!(CopyImpl, "rep_movsb", rep_movsb));
        v.push(entry!(CopyImpl, "cb_movsq", cb_movsq));
    }
    v
}

/// The copies inlined in their timing loops: `fm_inline` (fastmem) and,
/// with the DPDK headers, `dpdk_inline` (`rte_memcpy` in the same loops,
/// written in C). Their `f` is the same copy behind a call, for checks.
pub fn inline_copy_impls() -> Vec<CopyImpl> {
    let mut v = vec![CopyImpl {
        name: "fm_inline",
        f: fastmem_memcpy,
        // SAFETY (both loops): the timing callers hand in buffers valid
        // for every length they pass.
        hot: |a, b, n, it| unsafe { fastmem_hot_inline(a, b, n, it) },
        seq: |a, b, ns| unsafe { fastmem_seq_inline(a, b, ns) },
    }];
    #[cfg(target_arch = "x86_64")]
    v.extend(dpdk_tier!(|m| CopyImpl {
        name: "dpdk_inline",
        f: m::memcpy,
        // SAFETY (both loops): as above; the build has the tier's features,
        // so the CPU running it has them too.
        hot: |a, b, n, it| unsafe { m::hot(a, b, n, it) },
        seq: |a, b, ns| unsafe { m::seq(a, b, ns.as_ptr(), ns.len()) },
    }));
    v
}

/// What the tools print about the DPDK column.
pub fn dpdk_note() -> String {
    let k = fastmem::KERNEL.name();
    match fastmem_dpdk::tier_for_kernel(k) {
        Some(t) => format!("dpdk: DPDK 22.11 rte_memcpy, its {t} build (benches/dpdk); DPDK has no rte_memset, so the fill suites have no DPDK column"),
        None if fastmem_dpdk::AVAILABLE && cfg!(target_arch = "x86_64") => {
            format!("no DPDK column for the {k} kernel: DPDK has no rte_memcpy of that kind")
        }
        None if !cfg!(target_arch = "x86_64") => "no DPDK column: the comparator is x86_64 only".into(),
        None => fastmem_dpdk::HOW_TO_GET.into(),
    }
}

/// The move implementations to compare; `with_memcpy` adds
/// `fastmem::memcpy` (only valid when the regions do not overlap).
pub fn move_impls(with_memcpy: bool) -> Vec<CopyImpl> {
    let mut v = vec![entry!(CopyImpl, "fastmem", fastmem_memmove)];
    if with_memcpy {
        v.push(entry!(CopyImpl, "fm_memcpy", fastmem_memcpy));
    }
    #[cfg(feature = "c-symbols")]
    {
        libc_fns::init();
        v.push(entry!(CopyImpl, "symbol", symbol_memmove));
    }
    v.push(entry!(CopyImpl, "glibc", glibc_memmove));
    v
}

/// The copy implementations of the large-copy suite: fastmem, glibc,
/// `rep movsb` and `fastmem::memcpy_nontemporal`.
pub fn large_copy_impls() -> Vec<CopyImpl> {
    #[cfg(feature = "c-symbols")]
    libc_fns::init();
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
    #[cfg(feature = "c-symbols")]
    libc_fns::init();
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
        entry!(SetImpl, "fm_zero", fastmem_memset_zero),
    ];
    #[cfg(feature = "c-symbols")]
    {
        libc_fns::init();
        v.push(entry!(SetImpl, "symbol", symbol_memset));
    }
    v.push(entry!(SetImpl, "glibc", glibc_memset));
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
#[inline(always)]
fn clobber() {
    // SAFETY: an empty asm block does nothing.
    unsafe { core::arch::asm!("", options(nostack, preserves_flags)) }
}

/// `x`, from a register the optimiser cannot see into (no instruction, no
/// memory round trip, unlike `black_box`): the C side's `FM_OPAQUE`.
#[inline(always)]
fn opaque(mut x: usize) -> usize {
    // SAFETY: an empty asm block that leaves the register as it is.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) x, options(nomem, nostack, preserves_flags))
    };
    x
}

/// Defines the two timing loops of a copy inlined at its call site:
/// `$hot(dst, src, n, iters)`, `iters` copies of `n` bytes, the length
/// opaque anew each time, so the size dispatch runs on every copy as at a
/// call site with a runtime length; and `$seq(dst, src, ns)`, one copy per
/// length in `ns`. Both return ticks per copy. `fastmem_hot_inline` and
/// `fastmem_seq_inline` are the twins of `fm_dpdk_hot` and `fm_dpdk_seq`
/// in `benches/dpdk/side.c`; `benches/experiments/ab-generic.sh` defines
/// one pair per variant with this macro too.
macro_rules! inline_loops {
    ($hot:ident, $seq:ident, $copy:path) => {
        /// `iters` copies of `n` bytes, inlined; ticks per copy (see
        /// `inline_loops!`).
        ///
        /// # Safety
        /// Both regions valid for `n` bytes, not overlapping.
        #[inline(never)]
        pub unsafe fn $hot(dst: *mut u8, src: *const u8, n: usize, iters: usize) -> f64 {
            let dst = opaque(dst as usize) as *mut u8;
            let src = opaque(src as usize) as *const u8;
            let t0 = ticks();
            for _ in 0..iters {
                // SAFETY: the caller's ranges.
                unsafe { $copy(dst, src, opaque(n)) };
                clobber();
            }
            (ticks() - t0) as f64 / iters.max(1) as f64
        }

        /// One copy per length in `ns`, inlined; ticks per copy.
        ///
        /// # Safety
        /// Both regions valid for every length in `ns`, not overlapping.
        #[inline(never)]
        pub unsafe fn $seq(dst: *mut u8, src: *const u8, ns: &[usize]) -> f64 {
            let dst = opaque(dst as usize) as *mut u8;
            let src = opaque(src as usize) as *const u8;
            let t0 = ticks();
            for &n in ns {
                // SAFETY: the caller's ranges.
                unsafe { $copy(dst, src, n) };
                clobber();
            }
            (ticks() - t0) as f64 / ns.len().max(1) as f64
        }
    };
}

inline_loops!(fastmem_hot_inline, fastmem_seq_inline, fastmem::memcpy);

/// Defines `$name(dst, src, n, iters)`: `iters` runs of `$body` inlined
/// with `$d`, `$s` the pointers and `$c` a constant, `n`, for each `n` in
/// the list: `n` picks the loop once, outside it, so each is the code of
/// a call site whose length is known while compiling. Ticks per run, or
/// -1.0 for a length with no loop. The twin of `fm_dpdk_hot_const` in
/// `benches/dpdk/side.c`.
macro_rules! const_loop {
    ($name:ident, $doc:literal, |$d:ident, $s:ident, $c:ident| $body:expr; $($n:literal),*) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// Both regions valid for `n` bytes, not overlapping.
        #[inline(never)]
        pub unsafe fn $name(dst: *mut u8, src: *const u8, n: usize, iters: usize) -> f64 {
            let $d = opaque(dst as usize) as *mut u8;
            let $s = opaque(src as usize) as *const u8;
            let t0 = ticks();
            match n {
                $($n => {
                    const $c: usize = $n;
                    for _ in 0..iters {
                        // SAFETY: the caller's ranges.
                        unsafe { $body };
                        clobber();
                    }
                })*
                _ => return -1.0,
            }
            (ticks() - t0) as f64 / iters.max(1) as f64
        }
    };
}

/// The loops of the `const` suites, one per length in `$n`.
macro_rules! const_loops {
    ($($n:literal),* $(,)?) => {
        /// The lengths of the `const` suites (`fastmem_dpdk::CONST_SIZES`
        /// lists the same for DPDK's loop).
        pub const CONST_SIZES: &[usize] = &[$($n),*];
        const_loop!(fastmem_hot_const, "`fastmem::memcpy_const::<N>` inlined.",
            |d, s, N| fastmem::memcpy_const::<N>(d, s); $($n),*);
        const_loop!(std_hot_const, "`core::ptr::copy_nonoverlapping` of a constant `N`, inlined: LLVM's own expansion.",
            |d, s, N| core::ptr::copy_nonoverlapping(s, d, N); $($n),*);
        const_loop!(fastmem_hot_const_set, "`fastmem::memset_const::<N>` inlined (`src` unused).",
            |d, s, N| { let _ = s; fastmem::memset_const::<N>(d, 0x5A) }; $($n),*);
        const_loop!(std_hot_const_set, "`core::ptr::write_bytes` of a constant `N`, inlined (`src` unused).",
            |d, s, N| { let _ = s; core::ptr::write_bytes(d, 0x5A, N) }; $($n),*);
    };
}

const_loops!(
    12, 16, 24, 32, 48, 64, 96, 100, 128, 136, 160, 192, 200, 256, 320, 384, 448, 512, 640, 768,
    1024
);

/// One implementation of the `const` suites: its column name and its
/// loop, `(dst, src, n, iters)` (see `const_loop!`).
pub struct ConstImpl {
    /// Column name in the reports.
    pub name: &'static str,
    /// Its loop.
    pub hot: HotCopy,
}

/// The copies of the `const` suites: `fm_const` (`fastmem::memcpy_const`),
/// `std_const` (LLVM's expansion of a constant-length copy) and, with the
/// DPDK headers, `dpdk_const` (`rte_memcpy` of a constant length, in C);
/// then `fm_inline` and `dpdk_inline`, the same copies with the length
/// opaque (see [`inline_copy_impls`]).
pub fn const_copy_impls() -> Vec<ConstImpl> {
    assert_eq!(
        CONST_SIZES,
        fastmem_dpdk::CONST_SIZES,
        "benches/support/mod.rs and benches/dpdk list the same constant lengths"
    );
    // SAFETY (every loop): the timing callers hand in buffers valid for
    // every length they pass.
    let mut v = const_pair(
        |a, b, n, it| unsafe { fastmem_hot_const(a, b, n, it) },
        |a, b, n, it| unsafe { std_hot_const(a, b, n, it) },
    );
    #[cfg(target_arch = "x86_64")]
    v.extend(dpdk_tier!(|m| ConstImpl {
        name: "dpdk_const",
        // SAFETY: as above; the build has the tier's features, so the CPU
        // running it has them too.
        hot: |a, b, n, it| unsafe { m::hot_const(a, b, n, it) },
    }));
    v.extend(inline_copy_impls().into_iter().map(|i| ConstImpl {
        name: i.name,
        hot: i.hot,
    }));
    v
}

/// The fills of the `const` suites: `fm_const` (`fastmem::memset_const`)
/// and `std_const` (LLVM's expansion of a constant-length fill).
pub fn const_set_impls() -> Vec<ConstImpl> {
    // SAFETY (both loops): as in `const_copy_impls`.
    const_pair(
        |a, b, n, it| unsafe { fastmem_hot_const_set(a, b, n, it) },
        |a, b, n, it| unsafe { std_hot_const_set(a, b, n, it) },
    )
}

/// The `fm_const` and `std_const` columns, from their loops.
fn const_pair(fm: HotCopy, std: HotCopy) -> Vec<ConstImpl> {
    vec![
        ConstImpl {
            name: "fm_const",
            hot: fm,
        },
        ConstImpl {
            name: "std_const",
            hot: std,
        },
    ]
}

/// `iters` calls of `f(a, b, n)` with a runtime `n`; ticks per call.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn hot_loop<A: Copy, B: Copy, R>(
    f: impl Fn(A, B, usize) -> R,
    a: A,
    b: B,
    n: usize,
    iters: usize,
) -> f64 {
    // Opaque pointers: the optimiser cannot prove the stores dead (the
    // buffers are never read back) nor the calls repeated with equal results.
    let (a, b, n) = (black_box(a), black_box(b), black_box(n));
    let t0 = ticks();
    for _ in 0..iters {
        black_box(f(a, b, n));
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

/// What the tools print after the kernel's name: the opt-in cfgs the build
/// has (`--cfg fastmem_mixed_sizes`, `fastmem_paired_blocks`,
/// `fastmem_narrow_stores`), each as ", name".
pub fn cfg_note() -> String {
    [
        (fastmem::MIXED_SIZES, ", mixed-sizes class"),
        (fastmem::PAIRED_BLOCKS, ", paired blocks"),
        (fastmem::NARROW_STORES, ", narrow stores"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, name)| *name)
    .collect()
}

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
