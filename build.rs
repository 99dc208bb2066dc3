//! With `--features c-symbols` in an unoptimised build of fastmem, sets
//! `--cfg fastmem_symbols_o0`, which gives the exported symbols a body
//! that needs no inlining (`src/symbols.rs`).
//!
//! At opt-level 0 nothing is inlined but `#[inline(always)]` functions:
//! the kernel's vector loads are calls to `core::ptr::read_unaligned`,
//! which moves its 64 bytes with a call to `memcpy`, and the exported
//! `memcpy` would call itself until the stack overflows. (compiler_builtins,
//! which defines these symbols elsewhere, is always built optimised.)
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=OPT_LEVEL");
    let unoptimised = std::env::var("OPT_LEVEL").is_ok_and(|o| o == "0");
    if std::env::var_os("CARGO_FEATURE_C_SYMBOLS").is_some() && unoptimised {
        println!("cargo:rustc-cfg=fastmem_symbols_o0");
    }
}
