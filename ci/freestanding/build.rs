//! Link without the C runtime: no crt1.o/crti.o (`-nostartfiles`), no libc
//! or libgcc (`-nostdlib`), no dynamic loader (`-static`). `_start` is in
//! src/main.rs. The RUSTFLAGS must also carry `-C relocation-model=static`
//! (ci/freestanding.sh sets it), since nothing would apply PIE relocations.
fn main() {
    for arg in ["-nostartfiles", "-nostdlib", "-static"] {
        println!("cargo:rustc-link-arg-bins={arg}");
    }
}
