//! The AVX-512 kernel: 64-byte `__m512i` registers, AVX-512F only.
//!
//! Opt out with `--cfg fastmem_no_avx512` on CPUs where 512-bit instructions
//! lower the clock; the build then selects the AVX2 kernel.

use super::arch::*;

use crate::vector::Tuning;
use crate::Kernel;

simd_vector!(
    __m512i,
    half = __m256i,
    splat = _mm512_set1_epi8,
    load = (_mm512_loadu_si512, _mm512_load_si512),
    store = (_mm512_storeu_si512, _mm512_store_si512)
);
static_assertions::assert_eq_size!(__m512i, [u8; 64]);

impl Tuning for __m512i {
    const KERNEL: Kernel = Kernel::Avx512;
    const NOLOOP_MAX: usize = 512;
    const LOOP_BLOCK: usize = 256;
}
