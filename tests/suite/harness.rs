//! Test machinery shared by the modules: the oracle, patterned aligned
//! buffers, and the canary rigs that run one copy or fill and check every
//! byte around it.
//!
//! A copy case looks like this (the fill rig is the same without a source):
//!
//! ```text
//!  src:  [ pattern ........................................... ]
//!          ^ base (4096-aligned)   ^ base + src_off, n bytes read
//!
//!  dst:  [ canary × CANARY | canary … | n bytes written | canary … ]
//!          ^ base (4096-aligned)      ^ base + CANARY + dst_off
//! ```
//!
//! After the call the whole destination buffer is compared: canary before
//! the window, the oracle's bytes inside it, canary after it (at least
//! `CANARY` bytes each side, usually more), and the whole source buffer
//! against a pristine copy. The canary byte is chosen so it never equals a
//! byte that the operation could legitimately write there.
//!
//! The harness's own copies, fills and comparisons ([`bytes_copy`],
//! [`bytes_fill`], [`bytes_eq`]) call the C library's `memcpy`, `memset`
//! and `memcmp` through pointers that `dlsym(RTLD_NEXT)` finds past this
//! binary's own definitions, which with the `c-symbols` feature are
//! fastmem's, the functions under test. Slice `==`, `copy_from_slice`,
//! `fill` and `to_vec` would call the binary's, and so would a byte loop
//! LLVM recognises. libc's functions keep the checks as fast in debug
//! builds as in release.

use core::ffi::{c_int, c_void};
use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ffi::CStr;
use std::fmt::Write as _;
use std::io::Write as _;
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::OnceLock;

/// The compiled kernel's vector width: the alignment `memcpy_aligned` needs.
pub const W: usize = fastmem::KERNEL.vector_bytes();

/// Canary bytes checked on each side of every destination window.
pub const CANARY: usize = 64;

/// Source and destination offsets swept by the exhaustive tests: every
/// residue modulo the widest vector (64 bytes).
pub const OFFSETS: usize = 64;

/// Canary byte around copy destinations; `pattern` never produces it.
pub const COPY_CANARY: u8 = 0xCC;

/// The C library's `memcpy`, `memset` and `memcmp`, found past this
/// binary's own definitions: with `c-symbols` those are fastmem's, the
/// functions under test. Called through pointers, which LLVM cannot
/// replace by its own idea of the function.
struct Libc {
    memcpy: CMemcpy,
    memset: CMemset,
    memcmp: CMemcmp,
}

type CMemcpy = unsafe extern "C" fn(*mut c_void, *const c_void, usize) -> *mut c_void;
type CMemset = unsafe extern "C" fn(*mut c_void, c_int, usize) -> *mut c_void;
type CMemcmp = unsafe extern "C" fn(*const c_void, *const c_void, usize) -> c_int;

fn libc_fns() -> &'static Libc {
    static LIBC: OnceLock<Libc> = OnceLock::new();
    LIBC.get_or_init(|| {
        let find = |name: &CStr| {
            // SAFETY: a NUL-terminated name; RTLD_NEXT searches the objects
            // loaded after this executable, so it skips its definitions.
            let p = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) };
            assert!(!p.is_null(), "dlsym(RTLD_NEXT, {name:?}) found nothing");
            #[cfg(feature = "c-symbols")]
            assert!(
                !fastmem::symbols::EXPORTED
                    .iter()
                    .any(|s| std::ptr::eq(s.address, p.cast())),
                "dlsym(RTLD_NEXT, {name:?}) found fastmem's"
            );
            p
        };
        // SAFETY: each symbol is the C function of that name, whose
        // signature the field's type is.
        unsafe {
            Libc {
                memcpy: std::mem::transmute::<*mut c_void, CMemcpy>(find(c"memcpy")),
                memset: std::mem::transmute::<*mut c_void, CMemset>(find(c"memset")),
                memcmp: std::mem::transmute::<*mut c_void, CMemcmp>(find(c"memcmp")),
            }
        }
    })
}

/// Copies `src` to `dst` with the C library's `memcpy` (not the symbols
/// under test; see [`libc_fns`]).
pub fn bytes_copy(dst: &mut [u8], src: &[u8]) {
    assert!(dst.len() == src.len(), "bytes_copy: lengths differ");
    if !src.is_empty() {
        // SAFETY: two distinct slices of `len` bytes.
        unsafe { (libc_fns().memcpy)(dst.as_mut_ptr().cast(), src.as_ptr().cast(), src.len()) };
    }
}

/// The move oracle: `n` bytes from `buf[src..]` to `buf[dst..]` one at a
/// time, in place, walking down when the destination starts inside the
/// source. Each byte passes through `black_box`, so LLVM cannot turn the
/// loop into a call of `memmove` or `memcpy`, which may be fastmem's own
/// (the `c-symbols` run); nothing else in it can go wrong.
pub fn oracle_move(buf: &mut [u8], dst: usize, src: usize, n: usize) {
    let mut one = |i: usize| buf[dst + i] = std::hint::black_box(buf[src + i]);
    if dst <= src {
        (0..n).for_each(&mut one);
    } else {
        (0..n).rev().for_each(&mut one);
    }
}

/// Sets every byte of `dst` to `c` with the C library's `memset`.
pub fn bytes_fill(dst: &mut [u8], c: u8) {
    if !dst.is_empty() {
        // SAFETY: a slice of `len` bytes.
        unsafe { (libc_fns().memset)(dst.as_mut_ptr().cast(), c_int::from(c), dst.len()) };
    }
}

/// Whether `a` and `b` hold the same bytes, by the C library's `memcmp`.
pub fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    // SAFETY: two slices of `len` bytes.
    a.len() == b.len()
        && (a.is_empty()
            || unsafe { (libc_fns().memcmp)(a.as_ptr().cast(), b.as_ptr().cast(), a.len()) } == 0)
}

/// `src`'s bytes in a new vector, by [`bytes_copy`] (`vec![0; n]` is a
/// zeroed allocation, no `memset`).
pub fn bytes_to_vec(src: &[u8]) -> Vec<u8> {
    let mut v = vec![0; src.len()];
    bytes_copy(&mut v, src);
    v
}

/// The copy oracle: one byte at a time, nothing clever to get wrong.
/// Volatile, so that LLVM cannot make it a call to `memcpy`, which with
/// `c-symbols` is fastmem's.
pub fn oracle_copy(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len());
    for (d, s) in dst.iter_mut().zip(src) {
        // SAFETY: both are references to live bytes.
        unsafe { std::ptr::write_volatile(d, std::ptr::read_volatile(s)) };
    }
}

/// The fill oracle: one byte at a time, volatile as [`oracle_copy`].
pub fn oracle_fill(dst: &mut [u8], c: u8) {
    for d in dst.iter_mut() {
        // SAFETY: a reference to a live byte.
        unsafe { std::ptr::write_volatile(d, c) };
    }
}

/// Pseudo-random bytes (xorshift64*), never equal to the copy canary, so a
/// misplaced or missing byte shows up as a difference almost surely.
pub fn pattern(buf: &mut [u8], seed: u64) {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for b in buf.iter_mut() {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let v = (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8;
        *b = if v == COPY_CANARY { v ^ 0x5A } else { v };
    }
}

/// A zeroed heap buffer aligned to a page, so `base + k·W` is W-aligned for
/// every kernel and an offset sweep covers every residue.
pub struct AlignedBuf {
    ptr: NonNull<u8>,
    layout: Layout,
}

impl AlignedBuf {
    pub fn new(len: usize) -> Self {
        let layout = Layout::from_size_align(len.max(1), 4096).unwrap();
        // SAFETY: the layout has a non-zero size.
        let ptr = NonNull::new(unsafe { alloc_zeroed(layout) }).expect("out of memory");
        AlignedBuf { ptr, layout }
    }

    /// The base pointer, valid for reads and writes of the whole buffer.
    pub fn ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

impl Deref for AlignedBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `layout.size()` initialised bytes, owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.layout.size()) }
    }
}

impl DerefMut for AlignedBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.layout.size()) }
    }
}

/// Checks that `dst` is `pristine` except for `expected` at `window`.
pub fn check_window(
    dst: &[u8],
    pristine: &[u8],
    window: usize,
    expected: &[u8],
) -> Result<(), String> {
    let end = window + expected.len();
    if bytes_eq(&dst[..window], &pristine[..window])
        && bytes_eq(&dst[window..end], expected)
        && bytes_eq(&dst[end..], &pristine[end..])
    {
        return Ok(());
    }
    let mut want = bytes_to_vec(pristine);
    bytes_copy(&mut want[window..end], expected);
    Err(first_difference(dst, &want, window, expected.len()))
}

/// Explains the first difference between `got` and `want`, which are the
/// whole destination buffer and what it should hold; `window` is where the
/// written bytes start.
fn first_difference(got: &[u8], want: &[u8], window: usize, n: usize) -> String {
    let i = got.iter().zip(want).position(|(g, w)| g != w).unwrap();
    let place = if i < window {
        format!("{} byte(s) before the window (canary)", window - i)
    } else if i < window + n {
        format!("window byte {}", i - window)
    } else {
        format!("{} byte(s) past the window (canary)", i - window - n + 1)
    };
    let mut s = format!("{place}: got {:#04x}, want {:#04x}", got[i], want[i]);
    let wrong = got.iter().zip(want).filter(|(g, w)| g != w).count();
    let _ = write!(s, "; {wrong} byte(s) differ in all");
    s
}

/// A source and a canaried destination for copies of up to `max_n` bytes at
/// offsets below `max_off`.
pub struct CopyRig {
    src: AlignedBuf,
    src_pristine: Vec<u8>,
    dst: AlignedBuf,
    /// What `dst` holds between cases: all canary.
    dst_pristine: Vec<u8>,
    /// The oracle's output for the current (n, src_off).
    expected: Vec<u8>,
    n: usize,
    src_off: usize,
}

impl CopyRig {
    pub fn new(max_off: usize, max_n: usize, seed: u64) -> Self {
        let mut src = AlignedBuf::new(max_off + max_n);
        pattern(&mut src, seed);
        let mut dst = AlignedBuf::new(CANARY + max_off + max_n + CANARY);
        bytes_fill(&mut dst, COPY_CANARY);
        CopyRig {
            src_pristine: bytes_to_vec(&src),
            dst_pristine: bytes_to_vec(&dst),
            src,
            dst,
            expected: vec![0; max_n],
            n: 0,
            src_off: 0,
        }
    }

    /// Runs the oracle for the next cases: `n` bytes from `src_off`.
    pub fn set_source(&mut self, n: usize, src_off: usize) {
        oracle_copy(
            &mut self.expected[..n],
            &self.src_pristine[src_off..src_off + n],
        );
        self.n = n;
        self.src_off = src_off;
    }

    /// Calls `f(dst, src, n)` with the destination window at `dst_off` and
    /// checks everything; restores the window afterwards.
    ///
    /// `f` gets pointers valid for `n` bytes, in disjoint allocations, with
    /// the alignment of the page-aligned bases plus the offsets.
    pub fn case(
        &mut self,
        dst_off: usize,
        f: &mut impl FnMut(*mut u8, *const u8, usize),
    ) -> Result<(), String> {
        let (n, w) = (self.n, CANARY + dst_off);
        // SAFETY: `w + n` and `src_off + n` are within the buffers (`new`).
        let (d, s) = unsafe { (self.dst.ptr().add(w), self.src.ptr().add(self.src_off)) };
        f(d, s, n);
        check_window(&self.dst, &self.dst_pristine, w, &self.expected[..n])?;
        if !bytes_eq(&self.src, &self.src_pristine) {
            let i = self
                .src
                .iter()
                .zip(&self.src_pristine)
                .position(|(a, b)| a != b);
            return Err(format!("source modified at byte {}", i.unwrap()));
        }
        bytes_copy(&mut self.dst[w..w + n], &self.dst_pristine[w..w + n]);
        Ok(())
    }
}

/// Checks `f` for every `n` in `ns` × every source offset × every
/// destination offset; panics naming the first failing case. Returns the
/// number of cases checked.
pub fn sweep_copy(
    name: &str,
    ns: impl IntoIterator<Item = usize> + Clone,
    src_offs: &[usize],
    dst_offs: &[usize],
    seed: u64,
    mut f: impl FnMut(*mut u8, *const u8, usize),
) -> u64 {
    let max_n = ns.clone().into_iter().max().unwrap_or(0);
    let max_off = 1 + src_offs.iter().chain(dst_offs).max().copied().unwrap_or(0);
    let mut rig = CopyRig::new(max_off, max_n, seed);
    let mut cases = 0u64;
    for n in ns {
        for &so in src_offs {
            rig.set_source(n, so);
            for &d in dst_offs {
                if let Err(e) = rig.case(d, &mut f) {
                    panic!("{name}(n = {n}, src_off = {so}, dst_off = {d}): {e}");
                }
                cases += 1;
            }
        }
    }
    cases
}

/// A canaried destination for fills of up to `max_n` bytes at offsets below
/// `max_off`, with the byte `c`. The canary is `!c`, so no canary byte can be
/// mistaken for a filled one.
pub struct FillRig {
    dst: AlignedBuf,
    dst_pristine: Vec<u8>,
    expected: Vec<u8>,
    c: u8,
}

impl FillRig {
    pub fn new(max_off: usize, max_n: usize, c: u8) -> Self {
        let mut dst = AlignedBuf::new(CANARY + max_off + max_n + CANARY);
        bytes_fill(&mut dst, !c);
        let mut expected = vec![0; max_n];
        oracle_fill(&mut expected, c);
        FillRig {
            dst_pristine: bytes_to_vec(&dst),
            dst,
            expected,
            c,
        }
    }

    /// Calls `f(dst, c, n)` with the window at `dst_off` and checks every
    /// byte of the buffer; restores the window afterwards.
    pub fn case(
        &mut self,
        n: usize,
        dst_off: usize,
        f: &mut impl FnMut(*mut u8, u8, usize),
    ) -> Result<(), String> {
        let w = CANARY + dst_off;
        // SAFETY: `w + n` is within the buffer (`new`).
        f(unsafe { self.dst.ptr().add(w) }, self.c, n);
        check_window(&self.dst, &self.dst_pristine, w, &self.expected[..n])?;
        bytes_copy(&mut self.dst[w..w + n], &self.dst_pristine[w..w + n]);
        Ok(())
    }
}

/// Checks `f` for every `n` in `ns` × every destination offset × every byte
/// in `bytes`; panics naming the first failing case. Returns the number of
/// cases checked.
pub fn sweep_fill(
    name: &str,
    ns: impl IntoIterator<Item = usize> + Clone,
    dst_offs: &[usize],
    bytes: &[u8],
    mut f: impl FnMut(*mut u8, u8, usize),
) -> u64 {
    let max_n = ns.clone().into_iter().max().unwrap_or(0);
    let max_off = 1 + dst_offs.iter().max().copied().unwrap_or(0);
    let mut cases = 0u64;
    for &c in bytes {
        let mut rig = FillRig::new(max_off, max_n, c);
        for n in ns.clone() {
            for &d in dst_offs {
                if let Err(e) = rig.case(n, d, &mut f) {
                    panic!("{name}(n = {n}, c = {c:#04x}, dst_off = {d}): {e}");
                }
                cases += 1;
            }
        }
    }
    cases
}

/// Powers of two ±1 from `2^min_log2` up to 1 MiB, and 8 MiB + 3, beyond
/// any cache; from 1 KiB on, also two Ethernet frame sizes: 1518 bytes, and
/// 1522 with a VLAN tag.
pub fn large_sizes(min_log2: u32) -> Vec<usize> {
    let mut v: Vec<usize> = (min_log2..=20)
        .flat_map(|k| [(1usize << k) - 1, 1 << k, (1 << k) + 1])
        .chain([(8 << 20) + 3])
        .collect();
    if min_log2 <= 10 {
        v.extend([1518, 1522]);
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// The fixed-size moves, with their sizes.
pub type Mov = unsafe fn(*mut u8, *const u8);
pub const MOVS: [(&str, usize, Mov); 5] = [
    ("mov16", 16, fastmem::mov16),
    ("mov32", 32, fastmem::mov32),
    ("mov64", 64, fastmem::mov64),
    ("mov128", 128, fastmem::mov128),
    ("mov256", 256, fastmem::mov256),
];

/// `memcpy_const::<N>` and `memset_const::<N>` for one `N`.
pub struct ConstOps {
    pub n: usize,
    pub copy: Mov,
    pub fill: unsafe fn(*mut u8, u8),
}

macro_rules! const_ops {
    ($($n:literal),* $(,)?) => {
        &[$(ConstOps {
            n: $n,
            copy: fastmem::memcpy_const::<$n>,
            fill: fastmem::memset_const::<$n>,
        }),*]
    };
}

/// The compile-time sizes tested: every size through 66 (the plain small
/// class, every vector rung of every kernel, and both sides of 32, 64),
/// then both sides of each larger class edge, of the whole-vector counts
/// of `generic::whole_then_rest` (a multiple of 16, 32 or 64 and one
/// more; above the no-loop sizes too, to `CONST_ALIGNED_MAX` vectors and
/// one byte past, where aligned pointers take it: 257 on SSE, 513 on AVX2,
/// 1025 on AVX-512), lengths whose rest is no power of two (136, 200,
/// 1023) and of the loop thresholds, and two frame sizes.
pub const CONSTS: &[ConstOps] = const_ops!(
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49,
    50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 80, 81, 95, 96, 97, 127,
    128, 129, 136, 150, 160, 161, 191, 192, 193, 200, 224, 225, 255, 256, 257, 320, 321, 383, 384,
    385, 448, 449, 511, 512, 513, 640, 641, 767, 768, 769, 1023, 1024, 1025, 1518, 4095, 4096,
    4097,
);

/// `fastmem::copy` on raw parts, for the rigs that hand out pointers.
///
/// # Safety
/// `d` and `s` valid for `n` bytes and disjoint.
pub unsafe fn safe_copy(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: forwarded from the caller.
    let (d, s) = unsafe {
        (
            std::slice::from_raw_parts_mut(d, n),
            std::slice::from_raw_parts(s, n),
        )
    };
    fastmem::copy(d, s);
}

/// `fastmem::fill` on raw parts.
///
/// # Safety
/// `d` valid for `n` bytes.
pub unsafe fn safe_fill(d: *mut u8, c: u8, n: usize) {
    // SAFETY: forwarded from the caller.
    fastmem::fill(unsafe { std::slice::from_raw_parts_mut(d, n) }, c);
}

/// `fastmem::copy_uninit` on raw parts; the slice it returns must be the
/// destination itself.
///
/// # Safety
/// `d` and `s` valid for `n` bytes and disjoint.
pub unsafe fn safe_copy_uninit(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: forwarded from the caller; any byte is a valid
    // `MaybeUninit<u8>`.
    let (dst, src) = unsafe {
        (
            std::slice::from_raw_parts_mut(d.cast::<MaybeUninit<u8>>(), n),
            std::slice::from_raw_parts(s, n),
        )
    };
    let out = fastmem::copy_uninit(dst, src);
    returned_in_place("copy_uninit", out, d, n);
}

/// `fastmem::fill_uninit` on raw parts; the slice it returns must be the
/// destination itself.
///
/// # Safety
/// `d` valid for `n` bytes.
pub unsafe fn safe_fill_uninit(d: *mut u8, c: u8, n: usize) {
    // SAFETY: forwarded from the caller; any byte is a valid
    // `MaybeUninit<u8>`.
    let dst = unsafe { std::slice::from_raw_parts_mut(d.cast::<MaybeUninit<u8>>(), n) };
    let out = fastmem::fill_uninit(dst, c);
    returned_in_place("fill_uninit", out, d, n);
}

/// Panics unless `out` is the `n` bytes at `d`.
fn returned_in_place(name: &str, out: &[u8], d: *mut u8, n: usize) {
    assert!(
        std::ptr::eq(out.as_ptr(), d) && out.len() == n,
        "{name} returned {} bytes at {:p}, not its destination's {n} at {d:p}",
        out.len(),
        out.as_ptr()
    );
}

/// `0..OFFSETS` as a vector, for the sweeps.
pub fn all_offsets() -> Vec<usize> {
    (0..OFFSETS).collect()
}

/// Prints a case count, and appends it to the file named by
/// `FASTMEM_CASES_LOG` when set (`ci/test.sh` adds those up per tier).
pub fn report(test: &str, cases: u64) {
    let line = format!("CASES {test} {cases}\n");
    print!("{line}");
    if let Some(path) = std::env::var_os("FASTMEM_CASES_LOG") {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("FASTMEM_CASES_LOG");
        // One write of one short line to an O_APPEND file: lines from tests
        // running in parallel do not interleave.
        f.write_all(line.as_bytes()).expect("FASTMEM_CASES_LOG");
    }
}

/// Cases per quickcheck property: `QUICKCHECK_TESTS`, default 500.
pub fn quickcheck_tests() -> u64 {
    std::env::var("QUICKCHECK_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500)
}
