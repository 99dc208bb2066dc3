//! Guard-page tests: operands placed flush against `PROT_NONE` pages, so a
//! read or write of even one byte outside `[p, p + n)` kills the process
//! with SIGSEGV, which fails the test run.
//!
//! ```text
//!  [ PROT_NONE | data pages .......................... | PROT_NONE ]
//!              ^ Start: p = data                  p + n ^ End: p = end - n
//! ```
//!
//! Every copy runs with source and destination at each of the four
//! (Start, End) placements, so each pointer meets a guard page before its
//! first byte and after its last. `guard_page_faults` checks that the
//! guards really fault, in a child process.

use crate::harness::{
    bytes_eq, bytes_fill, large_sizes, pattern, report, safe_copy, safe_copy_uninit, safe_fill,
    safe_fill_uninit, CONSTS, MOVS, W,
};
use std::ptr::NonNull;

/// Every `n` in `0..=GUARD_MAX` is placed against the guards.
const GUARD_MAX: usize = 4096 + 64;

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let ps = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(ps).expect("sysconf(_SC_PAGESIZE)")
}

/// `pages` of read-write memory between two `PROT_NONE` pages.
pub struct Guarded {
    map: NonNull<u8>,
    map_len: usize,
    page: usize,
    len: usize,
}

impl Guarded {
    pub fn new(bytes: usize) -> Self {
        let page = page_size();
        let len = bytes.div_ceil(page).max(1) * page;
        let map_len = len + 2 * page;
        // SAFETY: a fresh anonymous mapping; no existing memory is affected.
        let map = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(map, libc::MAP_FAILED, "mmap failed");
        // SAFETY: the data pages lie inside the mapping just made.
        let rc = unsafe {
            libc::mprotect(
                map.cast::<u8>().add(page).cast(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
            )
        };
        assert_eq!(rc, 0, "mprotect failed");
        Guarded {
            map: NonNull::new(map.cast()).unwrap(),
            map_len,
            page,
            len,
        }
    }

    /// The first data byte; the byte before it is a guard page.
    pub fn start(&self) -> *mut u8 {
        // SAFETY: the first guard page is inside the mapping.
        unsafe { self.map.as_ptr().add(self.page) }
    }

    /// One past the last data byte: the first byte of the second guard page.
    pub fn end(&self) -> *mut u8 {
        // SAFETY: within the mapping.
        unsafe { self.start().add(self.len) }
    }

    /// The whole data area.
    pub fn data(&mut self) -> &mut [u8] {
        // SAFETY: `len` read-write bytes, borrowed through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut(self.start(), self.len) }
    }

    /// Where an `n`-byte operand goes for a placement.
    pub fn at(&self, place: Place, n: usize) -> *mut u8 {
        assert!(n <= self.len);
        match place {
            Place::Start => self.start(),
            // SAFETY: `n <= len`, so this is within the data area.
            Place::End => unsafe { self.end().sub(n) },
        }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `new`.
        unsafe { libc::munmap(self.map.as_ptr().cast(), self.map_len) };
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    /// Flush against the guard page before.
    Start,
    /// Flush against the guard page after.
    End,
}

const PLACEMENTS: [(Place, Place); 4] = [
    (Place::Start, Place::Start),
    (Place::End, Place::End),
    (Place::Start, Place::End),
    (Place::End, Place::Start),
];

/// Source and destination arenas, each between guard pages.
struct CopyArena {
    src: Guarded,
    dst: Guarded,
}

impl CopyArena {
    fn new(bytes: usize, seed: u64) -> Self {
        let mut src = Guarded::new(bytes);
        pattern(src.data(), seed);
        CopyArena {
            src,
            dst: Guarded::new(bytes),
        }
    }

    /// Copies `n` bytes with `f` at every placement allowed by `ok` and
    /// checks the destination window; returns the cases run.
    fn run(
        &mut self,
        name: &str,
        n: usize,
        ok: impl Fn(*const u8, *const u8) -> bool,
        mut f: impl FnMut(*mut u8, *const u8, usize),
    ) -> u64 {
        let mut cases = 0;
        for (sp, dp) in PLACEMENTS {
            let (s, d) = (self.src.at(sp, n), self.dst.at(dp, n));
            if !ok(d, s) {
                continue;
            }
            // SAFETY: both windows lie in their arenas' data areas.
            let (sw, dw) = unsafe {
                (
                    std::slice::from_raw_parts(s, n),
                    std::slice::from_raw_parts_mut(d, n),
                )
            };
            bytes_fill(dw, 0xCC);
            f(d, s, n);
            // SAFETY: as above; the call has returned, so nothing else
            // holds the destination.
            let dw = unsafe { std::slice::from_raw_parts(d, n) };
            assert!(
                bytes_eq(dw, sw),
                "{name}(n = {n}) src at {sp:?}, dst at {dp:?}: wrong bytes"
            );
            cases += 1;
        }
        cases
    }
}

fn any(_: *const u8, _: *const u8) -> bool {
    true
}

fn both_aligned(d: *const u8, s: *const u8) -> bool {
    (d as usize | s as usize).is_multiple_of(W)
}

/// Runs every copy function on `n` bytes against the guards.
fn guard_copies(arena: &mut CopyArena, n: usize) -> u64 {
    // SAFETY (all closures below): the arena passes disjoint windows valid
    // for `n` bytes, W-aligned where `both_aligned` is required.
    let mut cases = 0;
    cases += arena.run("memcpy", n, any, |d, s, n| unsafe {
        fastmem::memcpy(d, s, n)
    });
    cases += arena.run("memcpy_generic", n, any, |d, s, n| unsafe {
        fastmem::memcpy_generic(d, s, n)
    });
    cases += arena.run("memcpy_aligned", n, both_aligned, |d, s, n| unsafe {
        fastmem::memcpy_aligned(d, s, n)
    });
    cases += arena.run("memcpy_nontemporal", n, any, |d, s, n| unsafe {
        fastmem::memcpy_nontemporal(d, s, n)
    });
    cases += arena.run("copy", n, any, |d, s, n| unsafe { safe_copy(d, s, n) });
    cases += arena.run("copy_uninit", n, any, |d, s, n| unsafe {
        safe_copy_uninit(d, s, n)
    });
    cases
}

/// Runs both fill functions on `n` bytes at each end of `dst`.
fn guard_fills(dst: &mut Guarded, n: usize, c: u8) -> u64 {
    type Fill = unsafe fn(*mut u8, u8, usize);
    let fills: [(&str, Fill); 4] = [
        ("memset", fastmem::memset),
        ("memset_nontemporal", fastmem::memset_nontemporal),
        ("fill", safe_fill),
        ("fill_uninit", safe_fill_uninit),
    ];
    fills
        .iter()
        // SAFETY: `guard_fill` passes a pointer valid for `n` bytes.
        .map(|&(name, fill)| guard_fill(dst, n, c, name, |p, c| unsafe { fill(p, c, n) }))
        .sum()
}

/// One fill function on `n` bytes at both ends of the data area, against
/// the guards: `fill(p, c)` must set `p..p + n`.
fn guard_fill(dst: &mut Guarded, n: usize, c: u8, name: &str, fill: impl Fn(*mut u8, u8)) -> u64 {
    let mut want = vec![0; n];
    bytes_fill(&mut want, !c);
    let mut cases = 0;
    for place in [Place::Start, Place::End] {
        let p = dst.at(place, n);
        // SAFETY: the window lies in the data area, and nothing else
        // refers to it.
        let w = unsafe { std::slice::from_raw_parts_mut(p, n) };
        bytes_fill(w, c);
        fill(p, !c);
        assert!(
            bytes_eq(w, &want),
            "{name}(n = {n}, c = {:#04x}) at {place:?}: wrong bytes",
            !c
        );
        cases += 1;
    }
    cases
}

#[test]
fn copies_against_guard_pages() {
    let mut arena = CopyArena::new(GUARD_MAX, 11);
    let cases: u64 = (0..=GUARD_MAX).map(|n| guard_copies(&mut arena, n)).sum();
    report("copies_against_guard_pages", cases);
}

#[test]
fn fills_against_guard_pages() {
    let mut dst = Guarded::new(GUARD_MAX);
    let cases: u64 = (0..=GUARD_MAX)
        .map(|n| guard_fills(&mut dst, n, n as u8 | 1))
        .sum();
    report("fills_against_guard_pages", cases);
}

#[test]
fn movs_against_guard_pages() {
    let mut arena = CopyArena::new(256, 12);
    let mut cases = 0;
    for (name, size, mov) in MOVS {
        cases += arena.run(name, size, any, |d, s, _| {
            // SAFETY: the arena passes disjoint windows valid for `size` bytes.
            unsafe { mov(d, s) }
        });
    }
    report("movs_against_guard_pages", cases);
}

#[test]
fn const_sizes_against_guard_pages() {
    let max = CONSTS.iter().map(|op| op.n).max().unwrap_or(0);
    let mut arena = CopyArena::new(max, 13);
    let mut cases = 0;
    for op in CONSTS {
        let name = format!("memcpy_const::<{}>", op.n);
        cases += arena.run(&name, op.n, any, |d, s, _| {
            // SAFETY: the arena passes disjoint windows valid for `n` bytes.
            unsafe { (op.copy)(d, s) }
        });
        let name = format!("memset_const::<{}>", op.n);
        // SAFETY: `guard_fill` passes a pointer valid for `n` bytes.
        cases += guard_fill(&mut arena.dst, op.n, 0x3C, &name, |p, c| unsafe {
            (op.fill)(p, c)
        });
    }
    report("const_sizes_against_guard_pages", cases);
}

/// The large sizes of the exhaustive module, each in an arena of its own
/// size so both ends of the operand meet a guard page.
#[test]
fn large_sizes_against_guard_pages() {
    let mut cases = 0;
    for n in large_sizes(12) {
        let mut arena = CopyArena::new(n, n as u64);
        cases += guard_copies(&mut arena, n);
        cases += guard_fills(&mut arena.dst, n, 0x3C);
    }
    report("large_sizes_against_guard_pages", cases);
}

/// Every compare function on `n` bytes with both operands at each of the
/// four placements: equal, and with one difference at the last byte and
/// at the first (both read the whole range before they can answer, or
/// stop at once). The data areas hold the same byte throughout, so any
/// two windows are equal.
#[test]
fn compares_against_guard_pages() {
    let (mut ga, mut gb) = (Guarded::new(GUARD_MAX), Guarded::new(GUARD_MAX));
    ga.data().fill(0x5A);
    gb.data().fill(0x5A);
    let mut cases = 0u64;
    for n in 0..=GUARD_MAX {
        for (pa, pb) in PLACEMENTS {
            let (a, b) = (ga.at(pa, n), gb.at(pb, n));
            let mut one = |at: Option<usize>, want: i32| {
                if let Some(p) = at {
                    // SAFETY: `p < n`, inside the window.
                    unsafe { *a.add(p) = 0x5A + 1 };
                }
                // SAFETY: both windows lie in their arenas' data areas.
                let r = unsafe { crate::compare::check_all(a, b, n, want) };
                if let Some(p) = at {
                    // SAFETY: as above.
                    unsafe { *a.add(p) = 0x5A };
                }
                if let Err(e) = r {
                    panic!("n = {n}, a at {pa:?}, b at {pb:?}, difference at {at:?}: {e}");
                }
                cases += 1;
            };
            one(None, 0);
            if n > 0 {
                one(Some(n - 1), 1);
                one(Some(0), 1);
            }
        }
    }
    report("compares_against_guard_pages", cases);
}

/// Proves the guards work: a child process reads one byte past an arena,
/// or writes one byte before it, and must die of SIGSEGV (or SIGBUS).
#[test]
fn guard_page_faults() {
    use std::os::unix::process::ExitStatusExt;
    for how in ["read_after", "write_before"] {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "guard::overrun_child",
                "--ignored",
                "--test-threads=1",
            ])
            .env("FASTMEM_GUARD_CHILD", how)
            .output()
            .unwrap();
        let sig = out.status.signal();
        assert!(
            sig == Some(libc::SIGSEGV) || sig == Some(libc::SIGBUS),
            "{how}: child should die of a fault, got {:?}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

/// The child of `guard_page_faults`; does nothing unless it asks.
#[test]
#[ignore = "run by guard_page_faults in a child process"]
fn overrun_child() {
    let Ok(how) = std::env::var("FASTMEM_GUARD_CHILD") else {
        return;
    };
    let g = Guarded::new(64);
    // SAFETY: none: these accesses are meant to fault.
    unsafe {
        match how.as_str() {
            "read_after" => {
                std::ptr::read_volatile(g.end());
            }
            "write_before" => std::ptr::write_volatile(g.start().sub(1), 0),
            _ => panic!("unknown FASTMEM_GUARD_CHILD={how}"),
        }
    }
    // Reaching here means the guard did not fault: exit normally, which the
    // parent reports as a failure.
}
