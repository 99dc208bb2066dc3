//! A `#![no_std]` consumer of fastmem, for `ci/test.sh`.
//!
//! It is built as a `staticlib` with `panic = "abort"` and its own
//! `#[panic_handler]`. Two things then show that fastmem pulls in no `std`:
//!
//! - if any crate in the graph linked `std`, `std`'s panic handler would
//!   clash with the one below and the build would fail (E0152, duplicate
//!   lang item `panic_impl`); `--cfg nostd_consumer_pulls_std` adds
//!   `extern crate std` here to prove that this check can fail;
//! - the archive bundles every Rust crate it links, so `ar t` lists no
//!   `std-*` or `alloc-*` member.

#![no_std]

#[cfg(nostd_consumer_pulls_std)]
extern crate std;

/// Copies with the raw API and fills the source afterwards.
///
/// # Safety
/// `dst` and `src` valid for `n` bytes and disjoint.
#[no_mangle]
pub unsafe extern "C" fn consumer_memcpy_memset(dst: *mut u8, src: *mut u8, n: usize) {
    // SAFETY: forwarded from the caller.
    unsafe {
        fastmem::memcpy(dst, src, n);
        fastmem::memset(src, 0, n);
    }
}

/// Copies a 12-byte header (a constant size: straight-line code) with the
/// safe API and fills the rest of the frame.
#[no_mangle]
pub extern "C" fn consumer_header(frame: &mut [u8; 64], header: &[u8; 12]) {
    let (head, rest) = frame.split_at_mut(12);
    fastmem::copy(head, header);
    fastmem::fill(rest, 0);
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
