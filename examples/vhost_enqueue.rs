//! A vhost-user RX enqueue, reduced to its memory traffic: the copy loop that
//! DPDK's `rte_memcpy` was written for.
//!
//! ```text
//! RUSTFLAGS="-C target-cpu=native" cargo run --release --example vhost_enqueue [-- options]
//!   --packets N   packets timed per size and implementation (default 2000000)
//!   --sizes LIST  comma-separated from 64,128,256,512,1024,1518,imix,mrg (default: all)
//!   --reps N      at least this many interleaved repetitions (default 9); each
//!                 lasts about 1e6 ticks, so there are usually many more
//!   --mib N       working set per side in MiB (default 16: beyond L2, inside L3;
//!                 use 512 or more for a DRAM-resident ring)
//! ```
//!
//! The model, per packet:
//!
//! ```text
//!  source pool (mbuf-like, 2304-B elements, >= 16 MiB)      guest ring (2 KiB descriptor buffers, >= 16 MiB)
//!  +--------+----------+---------------------+               +------------+---------------------+
//!  | 128 B  | 128 B    | payload (64-B       |   memcpy      | 12-B       | payload             |
//!  | mbuf   | headroom | aligned)            | ------------> | virtio-net | (dst misaligned     |
//!  | header |          |                     |               | header = 0 |  by 12)             |
//!  +--------+----------+---------------------+   memset 0    +------------+---------------------+
//! ```
//!
//! The pool and the ring are walked in order, one element and one descriptor
//! per packet, so the source and destination addresses drift against each
//! other through every offset modulo 4 KiB, as they do in a real ring.
//!
//! - fixed sizes 64..1518: every packet has that length;
//! - `imix`: 64, 594 and 1518 bytes at 7:4:1 in a fixed pseudo-random order;
//! - `mrg`: mergeable RX buffers: a 1518-B packet spans two descriptors. The
//!   guest posted 1 KiB buffers (one per 2 KiB slot), so the first descriptor
//!   gets the header (with `num_buffers = 2`) and 1012 payload bytes, the
//!   second the remaining 506 bytes at offset 0.
//!
//! Each enqueue is one non-inlined function per implementation: fastmem
//! (`memset_const::<12>` + `memcpy`, inlined in it) against DPDK's `rte_memcpy`, inlined
//! in the same function written in C (`benches/dpdk/side.c`; DPDK has no
//! `rte_memset`, so the header is zeroed by a 12-byte `memset`, two stores),
//! and the standard library's `write_bytes` + `copy_nonoverlapping`, which
//! call glibc's `memcpy` for a runtime length. The DPDK column needs DPDK's
//! headers (`bash benches/dpdk/fetch-headers.sh`, then rebuild); without them
//! the demo says so and prints the other two. Repetitions rotate the order
//! of the implementations so that noise from other processes falls on all;
//! cycles are TSC ticks read with `rdtsc`.

#[allow(dead_code)] // each tool uses a different part of the shared module
#[path = "../benches/support/mod.rs"]
mod support;

use std::hint::black_box;
use support::{cfg_note, dpdk_note, imix_sizes, median, ticks, ticks_per_second, Buf, TICK_UNIT};

/// Size of the virtio-net header with mergeable RX buffers.
const HDR: usize = 12;
/// One guest descriptor buffer.
const DESC: usize = 2048;
/// One mbuf-like pool element: 128 B of metadata, 128 B headroom, 2 KiB data room.
const MBUF: usize = 2304;
/// Where the payload starts inside an element: 64-byte aligned.
const PAYLOAD: usize = 256;
/// Guest buffer size in the mergeable variant.
const MRG_BUF: usize = 1024;
/// Where `num_buffers` sits in the 12-byte header.
const NUM_BUFFERS: usize = 10;

/// `(descriptor, next descriptor, payload, len)`; the C convention, as the
/// DPDK side is C.
type EnqFn = unsafe extern "C" fn(*mut u8, *mut u8, *const u8, usize);

/// The DPDK enqueue functions of this build's tier, `(plain, mergeable)`.
#[cfg(target_arch = "x86_64")]
fn dpdk_enqueue() -> Option<(EnqFn, EnqFn)> {
    support::dpdk_tier!(|m| (m::enqueue as EnqFn, m::enqueue_mrg as EnqFn))
}

#[cfg(not(target_arch = "x86_64"))]
fn dpdk_enqueue() -> Option<(EnqFn, EnqFn)> {
    None
}

/// # Safety
/// `d` valid for `HDR + len` bytes, `p` for `len`, no overlap.
#[inline(never)]
unsafe extern "C" fn enqueue_fastmem(d: *mut u8, _next: *mut u8, p: *const u8, len: usize) {
    // SAFETY: the caller's ranges.
    unsafe {
        fastmem::memset_const::<HDR>(d, 0);
        fastmem::memcpy(d.add(HDR), p, len);
    }
}

/// # Safety
/// As [`enqueue_fastmem`].
#[inline(never)]
unsafe extern "C" fn enqueue_std(d: *mut u8, _next: *mut u8, p: *const u8, len: usize) {
    // SAFETY: the caller's ranges.
    unsafe {
        core::ptr::write_bytes(d, 0, HDR);
        core::ptr::copy_nonoverlapping(p, d.add(HDR), len);
    }
}

/// # Safety
/// `d` valid for `MRG_BUF` bytes, `next` for `len - (MRG_BUF - HDR)`, `p` for
/// `len`, `len > MRG_BUF - HDR`, no overlap.
#[inline(never)]
unsafe extern "C" fn enqueue_mrg_fastmem(d: *mut u8, next: *mut u8, p: *const u8, len: usize) {
    let first = MRG_BUF - HDR;
    // SAFETY: the caller's ranges.
    unsafe {
        fastmem::memset_const::<HDR>(d, 0);
        d.add(NUM_BUFFERS)
            .cast::<u16>()
            .write_unaligned(2u16.to_le());
        fastmem::memcpy(d.add(HDR), p, first);
        fastmem::memcpy(next, p.add(first), len - first);
    }
}

/// # Safety
/// As [`enqueue_mrg_fastmem`].
#[inline(never)]
unsafe extern "C" fn enqueue_mrg_std(d: *mut u8, next: *mut u8, p: *const u8, len: usize) {
    let first = MRG_BUF - HDR;
    // SAFETY: the caller's ranges.
    unsafe {
        core::ptr::write_bytes(d, 0, HDR);
        d.add(NUM_BUFFERS)
            .cast::<u16>()
            .write_unaligned(2u16.to_le());
        core::ptr::copy_nonoverlapping(p, d.add(HDR), first);
        core::ptr::copy_nonoverlapping(p.add(first), next, len - first);
    }
}

struct Opts {
    packets: usize,
    sizes: Vec<String>,
    reps: usize,
    mib: usize,
}

fn usage(msg: &str) -> ! {
    eprintln!("vhost_enqueue: {msg}\noptions: --packets N  --sizes 64,128,256,512,1024,1518,imix,mrg  --reps N  --mib N");
    std::process::exit(2)
}

fn parse_args() -> Opts {
    let mut o = Opts {
        packets: 2_000_000,
        sizes: "64,128,256,512,1024,1518,imix,mrg"
            .split(',')
            .map(String::from)
            .collect(),
        reps: 9,
        mib: 16,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{a} needs a value")))
        };
        let mut num = |what: &str| {
            val()
                .parse::<usize>()
                .ok()
                .filter(|&v| v > 0)
                .unwrap_or_else(|| usage(&format!("bad {what}")))
        };
        match a.as_str() {
            "--packets" => o.packets = num("--packets"),
            "--reps" => o.reps = num("--reps"),
            "--mib" => o.mib = num("--mib"),
            "--sizes" => o.sizes = val().split(',').map(|s| s.trim().to_string()).collect(),
            "--bench" => {}
            "-h" | "--help" => usage("help"),
            _ => usage(&format!("unknown option {a}")),
        }
    }
    for s in &o.sizes {
        match s.as_str() {
            "imix" | "mrg" => {}
            n => match n.parse::<usize>() {
                Ok(v) if (1..=DESC - HDR).contains(&v) => {}
                _ => usage(&format!(
                    "size {n:?}: expected 1..={} or imix or mrg",
                    DESC - HDR
                )),
            },
        }
    }
    o
}

/// The pool, the ring, and the cursors that walk them.
struct Rig {
    pool: Buf,
    ring: Buf,
    slots: usize,
    next: usize,
}

impl Rig {
    fn new(mib: usize) -> Rig {
        let slots = (mib << 20) / DESC;
        let pool = Buf::new(slots * MBUF, 4096);
        let ring = Buf::new(slots * DESC, 4096);
        // A recognisable payload, and every page of both sides touched.
        // SAFETY: pool is valid for pool.len() bytes.
        let bytes = unsafe { std::slice::from_raw_parts_mut(pool.ptr(), pool.len()) };
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i % 251) as u8;
        }
        Rig {
            pool,
            ring,
            slots,
            next: 0,
        }
    }

    fn desc(&self, i: usize) -> *mut u8 {
        // SAFETY: i < slots, so the descriptor lies inside the ring.
        unsafe { self.ring.ptr().add(i * DESC) }
    }

    fn payload(&self, i: usize) -> *const u8 {
        // SAFETY: i < slots, so the element lies inside the pool.
        unsafe { self.pool.ptr().add(i * MBUF + PAYLOAD) }
    }

    /// Enqueues `count` packets with lengths from `lens` (cycled) and returns
    /// ticks per packet. `mrg` packets take two descriptors.
    #[inline(never)]
    fn run(&mut self, f: EnqFn, lens: &[usize], count: usize, mrg: bool) -> f64 {
        let f = black_box(f);
        let lens = black_box(lens);
        let step = if mrg { 2 } else { 1 };
        let mut slot = self.next;
        let t0 = ticks();
        for i in 0..count {
            if slot + step > self.slots {
                slot = 0;
            }
            // SAFETY: slot + step <= slots: both descriptors and the element are
            // in bounds; every length fits one (or, for mrg, two) descriptors.
            unsafe {
                f(
                    self.desc(slot),
                    self.desc(slot + step - 1),
                    self.payload(slot),
                    lens[i % lens.len()],
                )
            };
            slot += step;
        }
        let t1 = ticks();
        self.next = slot;
        (t1 - t0) as f64 / count as f64
    }

    /// Enqueues a few packets with `f` into a scribbled ring and checks every
    /// byte that should have been written, and the bytes around them.
    fn verify(&mut self, f: EnqFn, lens: &[usize], mrg: bool) -> Result<(), String> {
        let count = 64.min(self.slots / 2);
        let step = if mrg { 2 } else { 1 };
        // SAFETY: the ring is valid for its length.
        unsafe { core::ptr::write_bytes(self.ring.ptr(), 0xEE, count * step * DESC) };
        self.next = 0;
        self.run(f, lens, count, mrg);
        // SAFETY: as above, and nothing writes the ring while this slice lives.
        let ring = unsafe { std::slice::from_raw_parts(self.ring.ptr(), count * step * DESC) };
        for i in 0..count {
            let slot = i * step;
            let len = lens[i % lens.len()];
            // SAFETY: the element lies inside the pool.
            let src = unsafe { std::slice::from_raw_parts(self.payload(slot), len) };
            let d = &ring[slot * DESC..(slot + step) * DESC];
            let mut want = vec![0u8; HDR];
            let expect = |at: usize, bytes: &[u8]| {
                if d[at..at + bytes.len()] != *bytes {
                    return Err(format!(
                        "packet {i} (len {len}): wrong bytes at descriptor offset {at}"
                    ));
                }
                Ok(())
            };
            if mrg {
                want[NUM_BUFFERS] = 2;
                let first = MRG_BUF - HDR;
                expect(0, &want)?;
                expect(HDR, &src[..first])?;
                expect(DESC, &src[first..])?;
                expect(MRG_BUF, &[0xEE])?;
                expect(DESC + len - first, &[0xEE])?;
            } else {
                expect(0, &want)?;
                expect(HDR, src)?;
                expect(HDR + len, &[0xEE])?;
            }
        }
        Ok(())
    }
}

fn main() {
    let o = parse_args();
    let hz = ticks_per_second();
    let mut rig = Rig::new(o.mib);
    println!(
        "fastmem kernel: {} ({}-byte vectors){}",
        fastmem::KERNEL.name(),
        fastmem::KERNEL.vector_bytes(),
        cfg_note()
    );
    println!(
        "ring: {} x {} B descriptors ({} MiB); pool: {} x {} B mbufs ({} MiB); {} packets per point and implementation, median of interleaved ~1e6-tick repetitions (at least {}); TSC {:.2} GHz",
        rig.slots,
        DESC,
        rig.ring.len() >> 20,
        rig.slots,
        MBUF,
        rig.pool.len() >> 20,
        o.packets,
        o.reps,
        hz / 1e9
    );
    println!("{}", dpdk_note());
    let dpdk = dpdk_enqueue();
    let mut names = vec!["fastmem"];
    if dpdk.is_some() {
        names.push("dpdk");
    }
    names.push("std");
    print!("\n{:>7} |", "size");
    for n in &names {
        print!(" {:>15} {:>8} |", format!("{n} cyc/pkt"), "Mpps");
    }
    print!(" {:>9}", "std/fm");
    if dpdk.is_some() {
        print!(" | {:>9}", "dpdk/fm");
    }
    println!(
        "\n{}",
        "-".repeat(10 + 27 * names.len() + 12 * (names.len() - 1))
    );
    for size in &o.sizes {
        let (lens, mrg): (Vec<usize>, bool) = match size.as_str() {
            "imix" => (imix_sizes(rig.slots, 3), false),
            "mrg" => (vec![1518], true),
            n => (vec![n.parse().unwrap()], false),
        };
        // In the order of `names`.
        let mut fns: Vec<EnqFn> = vec![if mrg {
            enqueue_mrg_fastmem
        } else {
            enqueue_fastmem
        }];
        if let Some((plain, merge)) = dpdk {
            fns.push(if mrg { merge } else { plain });
        }
        fns.push(if mrg { enqueue_mrg_std } else { enqueue_std });
        for (name, &f) in names.iter().zip(&fns) {
            if let Err(e) = rig.verify(f, &lens, mrg) {
                eprintln!("vhost_enqueue: {name} wrote a wrong descriptor: {e}");
                std::process::exit(1);
            }
        }
        // A warm-up lap for each, which also sizes the repetitions: about a
        // million ticks each, short enough that most of them run without being
        // preempted on a busy machine, so the median rejects the ones that are.
        let warm = fns
            .iter()
            .map(|&f| rig.run(f, &lens, rig.slots, mrg))
            .fold(f64::INFINITY, f64::min);
        let per_rep = ((1e6 / warm) as usize).clamp(64, o.packets);
        let reps = (o.packets / per_rep).max(o.reps) | 1;
        let mut samples = vec![Vec::new(); fns.len()];
        for r in 0..reps {
            // The order rotates each repetition: none always runs first.
            for k in 0..fns.len() {
                let j = (k + r) % fns.len();
                samples[j].push(rig.run(fns[j], &lens, per_rep, mrg));
            }
        }
        let t: Vec<f64> = samples.iter_mut().map(|v| median(v)).collect();
        let label = if mrg {
            "mrg1518".to_string()
        } else {
            size.clone()
        };
        print!("{label:>7} |");
        for &x in &t {
            print!(" {:>15.1} {:>8.2} |", x, hz / x / 1e6);
        }
        // std is last, fastmem first, DPDK (when present) between.
        print!(" {:>8.2}x", t[t.len() - 1] / t[0]);
        if dpdk.is_some() {
            print!(" | {:>8.2}x", t[1] / t[0]);
        }
        println!();
    }
    let ratios = if dpdk.is_some() {
        "std/fm and dpdk/fm: speed-ups"
    } else {
        "std/fm: speed-up"
    };
    println!("\ncyc/pkt are {TICK_UNIT} per packet (header zeroing + payload copy); {ratios} of fastmem (above 1: fastmem is faster).");
    if !fastmem::NARROW_STORES && fastmem::KERNEL.vector_bytes() >= 32 {
        println!("Packets of 33-64 B: a build with --cfg fastmem_narrow_stores stores them as 16-byte vectors, faster into a ring beyond L1 on the Intel CPU measured, slower into L1 (README, \"cfg flags\").");
    }
}
