//! Which kernel was compiled in. The rest of the suite tests whatever
//! `KERNEL` is; this test makes sure it is the one the build asked for, so a
//! tier whose flags silently fell back to a narrower kernel fails.

use fastmem::{Kernel, KERNEL};

/// The kernel that issue 2's selection table names for this build's cfgs
/// and target features, worked out independently of the library.
fn selected_by_build_flags() -> &'static str {
    if cfg!(fastmem_portable) || !cfg!(any(target_arch = "x86", target_arch = "x86_64")) {
        "portable"
    } else if cfg!(all(target_feature = "avx512f", not(fastmem_no_avx512))) {
        "avx512"
    } else if cfg!(target_feature = "avx2") {
        "avx2"
    } else if cfg!(target_feature = "sse2") {
        "sse"
    } else {
        "portable"
    }
}

#[test]
fn compiled_kernel() {
    println!(
        "KERNEL {} ({} bytes per vector)",
        KERNEL.name(),
        KERNEL.vector_bytes()
    );
    let all = [Kernel::Portable, Kernel::Sse, Kernel::Avx2, Kernel::Avx512];
    let table: Vec<_> = all.iter().map(|k| (k.name(), k.vector_bytes())).collect();
    assert_eq!(
        table,
        [("portable", 8), ("sse", 16), ("avx2", 32), ("avx512", 64)]
    );
    assert_eq!(KERNEL.name(), selected_by_build_flags());
    match std::env::var("FASTMEM_EXPECT_KERNEL") {
        Ok(want) => assert_eq!(KERNEL.name(), want, "FASTMEM_EXPECT_KERNEL"),
        Err(_) => println!("FASTMEM_EXPECT_KERNEL not set; only the cfg check ran"),
    }
}

/// `name` and `vector_bytes` are `const fn`, usable in constant contexts.
#[test]
fn kernel_facts_are_const() {
    const NAME: &str = KERNEL.name();
    const WIDTH: usize = KERNEL.vector_bytes();
    assert!(WIDTH.is_power_of_two() && (8..=64).contains(&WIDTH));
    assert!(!NAME.is_empty());
}

/// A build-time switch's constant, `value`, against its cfg (`by_cfg`) and
/// against the environment variable `env`, which CI's tiers set to 1 where
/// the tier sets the cfg, and to 0 elsewhere.
fn follows_cfg(name: &str, value: bool, by_cfg: bool, env: &str) {
    println!("{name} {value}");
    assert_eq!(value, by_cfg, "{name} against its cfg");
    match std::env::var(env) {
        Ok(want) => assert_eq!(value, want == "1", "{env}"),
        Err(_) => println!("{env} not set; only the cfg check ran"),
    }
}

/// `MIXED_SIZES` follows `--cfg fastmem_mixed_sizes`, and CI's tier that
/// sets it says so.
#[test]
fn mixed_sizes_follows_cfg() {
    follows_cfg(
        "MIXED_SIZES",
        fastmem::MIXED_SIZES,
        cfg!(fastmem_mixed_sizes),
        "FASTMEM_EXPECT_MIXED",
    );
}

/// `NARROW_STORES` follows `--cfg fastmem_narrow_stores`, and CI's tier
/// that sets it says so.
#[test]
fn narrow_stores_follows_cfg() {
    follows_cfg(
        "NARROW_STORES",
        fastmem::NARROW_STORES,
        cfg!(fastmem_narrow_stores),
        "FASTMEM_EXPECT_NARROW",
    );
}
