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
//!
//! On x86-64, sets `--cfg fastmem_ymm_kept` where LLVM, with the flags
//! fastmem is built with, keeps two adjacent 32-byte moves as two: a probe
//! (two `_mm256_loadu_si256` and two stores at offsets 0 and 32) compiled
//! to assembly that names a ymm register and no zmm one. LLVM's tunings for
//! Intel's AVX-512 server cores (`-C target-cpu=skylake-avx512` to
//! `graniterapids`, and `native` on them) and `x86-64-v4` keep them; the
//! generic tuning with `+avx512f`, Zen 4/5's, Knights Landing's and Nova
//! Lake's join them into one zmm move (rustc 1.95). Without AVX-512F in
//! the flags the probe has no body and the cfg is not set: nothing then
//! asks, and the probe is not compiled. The AVX2 kernel in a build with AVX-512F loads its moves' vectors
//! apart only where the cfg is not set (`kernels::avx2`'s `JOINABLE`).
//! The flags are cargo's `RUSTFLAGS` and, where ci/tier-rustc adds them to
//! fastmem's own compilations, `FASTMEM_TIER_RUSTFLAGS`; where the probe
//! cannot be compiled, the cfg is not set (the vectors stay apart).
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
    println!("cargo:rerun-if-env-changed=FASTMEM_TIER_RUSTFLAGS");
    // The probe has a body only with AVX-512F: cargo's target features say
    // whether RUSTFLAGS enable it; ci/tier-rustc's flags are not in them.
    let avx512f = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "avx512f")
        || !var("FASTMEM_TIER_RUSTFLAGS").is_empty();
    if var("CARGO_CFG_TARGET_ARCH") == "x86_64" && avx512f && ymm_kept().unwrap_or(false) {
        println!("cargo:rustc-cfg=fastmem_ymm_kept");
    }
}

/// The probe of `fastmem_ymm_kept` (see the top of this file): `Some(true)`
/// where its assembly moves the 64 bytes as ymm and never as zmm, `None`
/// where it could not be compiled or read.
fn ymm_kept() -> Option<bool> {
    const PROBE: &str = r#"#![no_std]
#[cfg(all(target_feature = "avx2", target_feature = "avx512f"))]
#[no_mangle]
pub unsafe fn fastmem_width_probe(d: *mut u8, s: *const u8) {
    use core::arch::x86_64::*;
    let a = _mm256_loadu_si256(s.cast());
    let b = _mm256_loadu_si256(s.add(32).cast());
    _mm256_storeu_si256(d.cast(), a);
    _mm256_storeu_si256(d.add(32).cast(), b);
}
"#;
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR")?);
    let src = out.join("width_probe.rs");
    let asm = out.join("width_probe.s");
    std::fs::write(&src, PROBE).ok()?;
    let mut flags: Vec<String> = std::env::var("CARGO_ENCODED_RUSTFLAGS")
        .unwrap_or_default()
        .split('\x1f')
        .filter(|f| !f.is_empty())
        .map(String::from)
        .collect();
    flags.extend(
        std::env::var("FASTMEM_TIER_RUSTFLAGS")
            .unwrap_or_default()
            .split_whitespace()
            .map(String::from),
    );
    let status = std::process::Command::new(std::env::var_os("RUSTC")?)
        .args([
            "--crate-type=lib",
            "--crate-name=fastmem_width_probe",
            "--edition=2021",
        ])
        .args(["-C", "opt-level=3", "--emit=asm", "--target"])
        .arg(std::env::var_os("TARGET")?)
        .args(&flags)
        .arg("-o")
        .arg(&asm)
        .arg(&src)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    let text = std::fs::read_to_string(&asm).ok()?;
    // A register is its name and a digit, in either syntax (`%ymm0`, `ymm0`).
    let names = |reg: &str| {
        text.match_indices(reg)
            .any(|(i, _)| text[i + reg.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    Some(text.contains("fastmem_width_probe") && names("ymm") && !names("zmm"))
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
