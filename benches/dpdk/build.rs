//! Compiles `side.c` against DPDK's `rte_memcpy.h`, once per tier, when the
//! headers are there (`bash benches/dpdk/fetch-headers.sh` puts them in
//! `benches/dpdk/headers/`; `DPDK_ROOT` points elsewhere). Without them it
//! compiles nothing, and the crate says so through `AVAILABLE`; with
//! `FASTMEM_REQUIRE_DPDK=1` (CI) their absence is an error instead.

use std::path::PathBuf;

/// Tier suffix and the C flags of that tier. DPDK's x86 build needs SSE4.2
/// at least, so the `sse` variant is DPDK's SSE4.2 build. `RTE_MEMCPY_AVX512`
/// selects rte_memcpy's AVX-512 path, off by default in DPDK.
const TIERS: &[(&str, &[&str])] = &[
    ("sse", &["-msse4.2"]),
    ("avx2", &["-mavx2"]),
    (
        "avx512",
        &[
            "-mavx512f",
            "-mavx512bw",
            "-mavx512vl",
            "-DRTE_MEMCPY_AVX512",
        ],
    ),
];

fn main() {
    println!("cargo:rustc-check-cfg=cfg(fastmem_dpdk)");
    println!("cargo:rerun-if-changed=side.c");
    println!("cargo:rerun-if-env-changed=DPDK_ROOT");
    println!("cargo:rerun-if-env-changed=FASTMEM_REQUIRE_DPDK");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = std::env::var_os("DPDK_ROOT").map_or_else(|| dir.join("headers"), PathBuf::from);
    let arch_inc = root.join("usr/include/x86_64-linux-gnu/dpdk");
    let header = arch_inc.join("rte_memcpy.h");
    let x86_64 = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");
    if !(x86_64 && header.is_file()) {
        // Rerun once the headers appear: the folder that will hold them
        // changes when they do.
        println!(
            "cargo:rerun-if-changed={}",
            root.parent().unwrap_or(&dir).display()
        );
        if std::env::var_os("FASTMEM_REQUIRE_DPDK").is_some_and(|v| v == "1") {
            panic!(
                "FASTMEM_REQUIRE_DPDK=1 but {} is missing (x86_64: {x86_64}); \
                 run `bash benches/dpdk/fetch-headers.sh`",
                header.display()
            );
        }
        return;
    }
    println!("cargo:rerun-if-changed={}", header.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    for (tier, flags) in TIERS {
        let mut b = cc::Build::new();
        // One object folder per tier: the three builds compile one file.
        b.out_dir(out.join(tier))
            .file(dir.join("side.c"))
            .include(&arch_inc)
            .include(root.join("usr/include/dpdk"))
            .define("FM_TIER", *tier)
            // DPDK's own release builds are -O3; debug builds of the
            // benches still compare against an optimised rte_memcpy.
            .opt_level(3)
            // As the Rust side of the benches (benches/tier-flags.sh).
            .flag("-falign-functions=64")
            .warnings(false);
        for f in *flags {
            b.flag(f);
        }
        b.compile(&format!("fm_dpdk_{tier}"));
    }
    println!("cargo:rustc-cfg=fastmem_dpdk");
}
