//! The integration suite: fastmem's public API against a byte-loop oracle.
//!
//! One test binary (one link per build tier instead of five), in modules:
//!
//! | module        | what it establishes                                                        |
//! |---------------|----------------------------------------------------------------------------|
//! | `compare`     | `memcmp`/`bcmp`/`eq`/`compare`: every `n` in `0..=1024` at 3 (debug) or 9 offset pairs, equal and with one difference at every position, both signs; prefixes and lengths; quickcheck against a byte-loop oracle |
//! | `exhaustive`  | every `n` in `0..=1024` × every src/dst offset in `0..64`, canaries each side; `movN` at 64 × 64 offsets; sampled sizes up to 8 MiB + 3 |
//! | `guard`       | operands flush against `PROT_NONE` pages at either end: a one-byte overrun or underrun kills the process (copies, fills and compares) |
//! | `props`       | quickcheck: random lengths up to 64 KiB, offsets, contents, fill bytes; the safe layer's length check |
//! | `overlap`     | `memmove` at every `n` in `0..=1024` × every delta in `-2W*8..=2W*8` in one canaried buffer, and disjoint; against guard pages both ends; quickcheck; `copy_within`'s results and panics |
//! | `kernel`      | the compiled `KERNEL` is the one the build flags select (and the one CI asked for) |
//! | `selftest`    | the harness itself catches a deliberately broken copy or fill               |
//! | `symbols`     | with `--features c-symbols`: the binary's `memcpy`/`memset` are fastmem's, with C semantics |
//!
//! Every test runs in debug and release for every kernel tier (`ci/test.sh`),
//! and again with `--features c-symbols`, where every `memcpy` and `memset`
//! in the test binary (std's included) is fastmem's. So the oracle is a
//! volatile byte loop, which LLVM cannot turn into a call, and the checks
//! copy and compare with the C library's own functions, found past the
//! binary's (the harness's `bytes_*`); they stay cheap without an
//! optimiser: libc's `memcmp`, the oracle run once per (length, source
//! offset) rather than once per case, and only the touched bytes reset.
//!
//! Tests that sweep many cases print `CASES <test> <count>` so CI can report
//! how much was checked (`cargo test -- --show-output`).

mod compare;
mod exhaustive;
mod guard;
mod harness;
mod kernel;
mod overlap;
mod props;
mod selftest;
#[cfg(feature = "c-symbols")]
mod symbols;
