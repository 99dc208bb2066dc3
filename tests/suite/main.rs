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
//! | `kernel`      | the compiled `KERNEL` is the one the build flags select (and the one CI asked for) |
//! | `selftest`    | the harness itself catches a deliberately broken copy or fill               |
//!
//! Every test runs in debug and release for every kernel tier (`ci/test.sh`),
//! so the checks are written to stay cheap without an optimiser: slice `==`
//! (a `memcmp` even at opt-level 0), the oracle run once per (length, source
//! offset) rather than once per case, and only the touched bytes reset.
//!
//! Tests that sweep many cases print `CASES <test> <count>` so CI can report
//! how much was checked (`cargo test -- --show-output`).

mod compare;
mod exhaustive;
mod guard;
mod harness;
mod kernel;
mod props;
mod selftest;
