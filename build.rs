//! With `--features c-symbols` in an unoptimised build of fastmem, sets
//! `--cfg fastmem_symbols_o0`, which gives the exported symbols a body
//! that needs no inlining (`src/symbols.rs`).
//!
//! At opt-level 0 nothing is inlined but `#[inline(always)]` functions:
//! the kernel's vector loads are calls to `core::ptr::read_unaligned`,
//! which moves its 64 bytes with a call to `memcpy`, and the exported
//! `memcpy` would call itself until the stack overflows. (compiler_builtins,
//! which defines these symbols elsewhere, is always built optimised.)
//!
//! With `c-symbols` on an x86 ELF target, also sets `--cfg
//! fastmem_symbol_sections`: each symbol goes in a section of its own that
//! starts on a 64-byte boundary (`src/symbols.rs`, "Where the symbols
//! start"). The object format has no `cfg` of its own; the targets that are
//! not ELF are told apart by OS and vendor.
//!
//! With a rustc that has `core::hint::cold_path` (1.95 and later), sets
//! `--cfg fastmem_cold_path`: the compare loop's tail lays its arms out
//! with it (`barrier::cold_arm`); older compilers, down to the crate's
//! `rust-version`, build the same code without the hint.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=OPT_LEVEL");
    let unoptimised = std::env::var("OPT_LEVEL").is_ok_and(|o| o == "0");
    if std::env::var_os("CARGO_FEATURE_C_SYMBOLS").is_some() && unoptimised {
        println!("cargo:rustc-cfg=fastmem_symbols_o0");
    }
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let x86 = matches!(var("CARGO_CFG_TARGET_ARCH").as_str(), "x86" | "x86_64");
    // COFF (Windows, UEFI, Cygwin) and Mach-O (Apple) have other section
    // directives; every other x86 target rustc knows is ELF.
    let elf = !matches!(
        var("CARGO_CFG_TARGET_OS").as_str(),
        "windows" | "uefi" | "cygwin"
    ) && var("CARGO_CFG_TARGET_VENDOR") != "apple";
    if std::env::var_os("CARGO_FEATURE_C_SYMBOLS").is_some() && x86 && elf {
        println!("cargo:rustc-cfg=fastmem_symbol_sections");
    }
    if rustc_minor().is_some_and(|m| m >= 95) {
        println!("cargo:rustc-cfg=fastmem_cold_path");
    }
}

/// The minor version of the rustc cargo builds with (`1.95.0 ...` -> 95),
/// or `None` where it cannot be run or read.
fn rustc_minor() -> Option<u32> {
    let rustc = std::env::var_os("RUSTC")?;
    let out = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let version = text.strip_prefix("rustc ")?;
    version.split('.').nth(1)?.parse().ok()
}
