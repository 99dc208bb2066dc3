/*
 * DPDK's rte_memcpy, side by side with fastmem (benches/dpdk/src/lib.rs).
 *
 * build.rs compiles this file once per tier, with that tier's -m flags and
 * FM_TIER set to sse, avx2 or avx512, so every function below exists three
 * times under names ending in _sse, _avx2 and _avx512. Nothing here is
 * DPDK's code: it only calls rte_memcpy from DPDK's own header.
 *
 * (a) fm_dpdk_memcpy_T: rte_memcpy behind a call, as the harness calls
 *     fastmem (benches/support/mod.rs, `fastmem_memcpy`).
 * (b) rte_memcpy inlined where fastmem is inlined:
 *     fm_dpdk_hot_T / fm_dpdk_seq_T: the timing loops of
 *     `fastmem_hot_inline` / `fastmem_seq_inline` in benches/support/mod.rs;
 *     fm_dpdk_hot_const_T: the loop of `fastmem_hot_const` there, a length
 *     known while compiling (FM_CONST_SIZES);
 *     fm_dpdk_enqueue_T / fm_dpdk_enqueue_mrg_T: the vhost enqueue step of
 *     examples/vhost_enqueue.rs (12-byte header zeroed, payload after it).
 *
 * DPDK has no rte_memset: the header is zeroed with memset of a constant
 * 12 bytes, which the compiler turns into two stores, as
 * fastmem::memset_const::<12> is.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <x86intrin.h>

#include <rte_memcpy.h>

#ifndef FM_TIER
#error "build.rs sets FM_TIER to sse, avx2 or avx512"
#endif
#define FM_CAT2(a, b) a##_##b
#define FM_CAT(a, b) FM_CAT2(a, b)
#define FM_NAME(f) FM_CAT(f, FM_TIER)

/* Keeps a value in a register the compiler cannot see into. */
#define FM_OPAQUE(x) __asm__ volatile("" : "+r"(x))
/* A compiler barrier: the stores cannot be proven dead nor the copies merged. */
#define FM_CLOBBER() __asm__ volatile("" ::: "memory")

/* The virtio-net header with mergeable RX buffers, and where num_buffers sits. */
#define FM_HDR 12
#define FM_MRG_BUF 1024
#define FM_NUM_BUFFERS 10

static inline uint64_t fm_ticks(void)
{
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
}

__attribute__((noinline)) void FM_NAME(fm_dpdk_memcpy)(void *dst, const void *src, size_t n)
{
	rte_memcpy(dst, src, n);
}

/* `iters` copies of n bytes with rte_memcpy inlined; the length is opaque
 * anew each time, so the size dispatch runs on every copy. Ticks per copy. */
__attribute__((noinline)) double FM_NAME(fm_dpdk_hot)(void *dst, const void *src, size_t n,
						      size_t iters)
{
	FM_OPAQUE(dst);
	FM_OPAQUE(src);
	uint64_t t0 = fm_ticks();
	for (size_t i = 0; i < iters; i++) {
		size_t len = n;
		FM_OPAQUE(len);
		rte_memcpy(dst, src, len);
		FM_CLOBBER();
	}
	return (double)(fm_ticks() - t0) / (double)(iters ? iters : 1);
}

/* One inlined copy per length in lens[0..count]. Ticks per copy. */
__attribute__((noinline)) double FM_NAME(fm_dpdk_seq)(void *dst, const void *src,
						      const size_t *lens, size_t count)
{
	FM_OPAQUE(dst);
	FM_OPAQUE(src);
	uint64_t t0 = fm_ticks();
	for (size_t i = 0; i < count; i++) {
		rte_memcpy(dst, src, lens[i]);
		FM_CLOBBER();
	}
	return (double)(fm_ticks() - t0) / (double)(count ? count : 1);
}

/* The lengths fm_dpdk_hot_const_T has a loop for: CONST_SIZES in
 * src/lib.rs, and `const_loops!` in benches/support/mod.rs. */
#define FM_CONST_SIZES(X)                                                      \
	X(12) X(16) X(24) X(32) X(48) X(64) X(96) X(100) X(128) X(136) X(160) \
	X(192) X(200) X(256) X(320) X(384) X(448) X(512) X(640) X(768)    \
	X(1024)

#define FM_CONST_LOOP(N)                                                       \
	case N:                                                                \
		for (size_t i = 0; i < iters; i++) {                           \
			rte_memcpy(dst, src, N);                               \
			FM_CLOBBER();                                          \
		}                                                              \
		break;

/* `iters` copies of n bytes with rte_memcpy inlined and n a constant: n
 * picks the loop, once, outside it. Ticks per copy, or -1 for an n not in
 * FM_CONST_SIZES. */
__attribute__((noinline)) double FM_NAME(fm_dpdk_hot_const)(void *dst, const void *src,
							    size_t n, size_t iters)
{
	FM_OPAQUE(dst);
	FM_OPAQUE(src);
	uint64_t t0 = fm_ticks();
	switch (n) {
		FM_CONST_SIZES(FM_CONST_LOOP)
	default:
		return -1.0;
	}
	return (double)(fm_ticks() - t0) / (double)(iters ? iters : 1);
}

/* vhost enqueue of one packet: header zeroed, payload after it. */
__attribute__((noinline)) void FM_NAME(fm_dpdk_enqueue)(uint8_t *d, uint8_t *next,
							const uint8_t *p, size_t len)
{
	(void)next;
	memset(d, 0, FM_HDR);
	rte_memcpy(d + FM_HDR, p, len);
}

/* Mergeable RX: the first 1 KiB buffer gets the header (num_buffers = 2)
 * and the start of the payload, `next` the rest. */
__attribute__((noinline)) void FM_NAME(fm_dpdk_enqueue_mrg)(uint8_t *d, uint8_t *next,
							    const uint8_t *p, size_t len)
{
	const size_t first = FM_MRG_BUF - FM_HDR;
	const uint16_t two = 2; /* little-endian on x86 */

	memset(d, 0, FM_HDR);
	memcpy(d + FM_NUM_BUFFERS, &two, sizeof(two));
	rte_memcpy(d + FM_HDR, p, first);
	rte_memcpy(next, p + first, len - first);
}
