//! The SSE kernel: 16-byte `__m128i` registers, SSE2 only (the x86_64
//! baseline). `+sse4.2` builds select it too: SSE4.2 adds nothing a copy
//! can use.

use super::arch::*;

use crate::vector::Tuning;
use crate::Kernel;

simd_vector!(
    __m128i,
    half = u64,
    splat = _mm_set1_epi8,
    load = (_mm_loadu_si128, _mm_load_si128),
    store = (_mm_storeu_si128, _mm_store_si128)
);
static_assertions::assert_eq_size!(__m128i, [u8; 16]);

impl Tuning for __m128i {
    const KERNEL: Kernel = Kernel::Sse;
    const NOLOOP_MAX: usize = 128;
    const LOOP_BLOCK: usize = 64;
}
