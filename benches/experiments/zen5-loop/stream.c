/*
 * The vhost-like streaming model of benches/NOTEBOOK.md, "`amd-26-2`: the
 * AVX-512 loop against DPDK's at 1-1.5 KiB": a 16 MiB ring of 2 KiB
 * descriptors, an 18 MiB pool of 2304-byte buffers, a 12-byte header
 * zeroed and the payload copied after it, by loop variants written in C
 * beside DPDK's rte_memcpy and glibc. TSC ticks per packet, medians.
 *
 *   D=benches/dpdk/headers; gcc -O2 -march=native -DRTE_MEMCPY_AVX512 \
 *     -I$D/usr/include/x86_64-linux-gnu/dpdk -I$D/usr/include/dpdk \
 *     benches/experiments/zen5-loop/stream.c -o /tmp/stream && taskset -c 1 /tmp/stream
 *
 * cur256 is fastmem's loop shape (but GCC keeps its inner loop rolled);
 * g4cur the same with each block's four loads before its four stores and
 * unrolled; vtail and g4 end with aligned single vectors instead of the
 * overlapping five-vector tail; g8 uses 512-byte blocks.
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#include <rte_memcpy.h>
#define W 64
static inline void ld_st(uint8_t *d, const uint8_t *s) { _mm512_storeu_si512(d, _mm512_loadu_si512(s)); }
static inline void ld_sta(uint8_t *d, const uint8_t *s) { _mm512_store_si512(d, _mm512_loadu_si512(s)); }
#define CUR(NAME, LB) __attribute__((noinline)) void NAME(uint8_t *d, const uint8_t *s, size_t n) { \
  size_t skip = W - ((uintptr_t)d & (W-1)); size_t blocks = (n - W) / LB; ld_st(d, s); \
  uint8_t *at = d + skip; const uint8_t *fr = s + skip; \
  for (size_t i = 0; i < blocks; i++) { for (int j=0;j<LB/W;j++) ld_sta(at + i*LB + j*W, fr + i*LB + j*W); __asm__ volatile(""); } \
  for (int j=0;j<LB/W+1;j++) ld_st(d + n - (LB+W) + j*W, s + n - (LB+W) + j*W); }
CUR(cur256, 256)
CUR(cur512, 512)
CUR(cur128, 128)
__attribute__((noinline)) void atail(uint8_t *d, const uint8_t *s, size_t n) {
  size_t LB=256; size_t skip = W - ((uintptr_t)d & (W-1)); size_t blocks = (n - W) / LB; ld_st(d, s);
  uint8_t *at = d + skip; const uint8_t *fr = s + skip;
  for (size_t i = 0; i < blocks; i++) { for (int j=0;j<4;j++) ld_sta(at + i*LB + j*W, fr + i*LB + j*W); __asm__ volatile(""); }
  size_t bend = skip + blocks*LB; size_t aend = n - (((uintptr_t)d + n) & (W-1));
  size_t t = aend - LB < bend ? aend - LB : bend;
  for (int j=0;j<4;j++) ld_sta(d + t + j*W, s + t + j*W);
  ld_st(d + n - W, s + n - W); }
__attribute__((noinline)) void vtail(uint8_t *d, const uint8_t *s, size_t n) {
  size_t LB=256; size_t skip = W - ((uintptr_t)d & (W-1)); ld_st(d, s);
  size_t off = skip;
  while (off + LB <= n) { for (int j=0;j<4;j++) ld_sta(d + off + j*W, s + off + j*W); off += LB; __asm__ volatile(""); }
  while (off + W <= n) { ld_sta(d + off, s + off); off += W; }
  ld_st(d + n - W, s + n - W); }
__attribute__((noinline)) void g8(uint8_t *d, const uint8_t *s, size_t n) {
  size_t skip = W - ((uintptr_t)d & (W-1)); ld_st(d, s);
  size_t off = skip;
  while (off + 512 <= n) { const uint8_t *p = s + off; uint8_t *q = d + off;
    __m512i a0=_mm512_loadu_si512(p),a1=_mm512_loadu_si512(p+64),a2=_mm512_loadu_si512(p+128),a3=_mm512_loadu_si512(p+192),a4=_mm512_loadu_si512(p+256),a5=_mm512_loadu_si512(p+320),a6=_mm512_loadu_si512(p+384),a7=_mm512_loadu_si512(p+448);
    _mm512_store_si512(q,a0);_mm512_store_si512(q+64,a1);_mm512_store_si512(q+128,a2);_mm512_store_si512(q+192,a3);_mm512_store_si512(q+256,a4);_mm512_store_si512(q+320,a5);_mm512_store_si512(q+384,a6);_mm512_store_si512(q+448,a7); off += 512; }
  while (off + W <= n) { ld_sta(d + off, s + off); off += W; }
  ld_st(d + n - W, s + n - W); }
__attribute__((noinline)) void g4(uint8_t *d, const uint8_t *s, size_t n) {
  size_t skip = W - ((uintptr_t)d & (W-1)); ld_st(d, s);
  size_t off = skip;
  while (off + 256 <= n) { const uint8_t *p = s + off; uint8_t *q = d + off;
    __m512i a0=_mm512_loadu_si512(p),a1=_mm512_loadu_si512(p+64),a2=_mm512_loadu_si512(p+128),a3=_mm512_loadu_si512(p+192);
    _mm512_store_si512(q,a0);_mm512_store_si512(q+64,a1);_mm512_store_si512(q+128,a2);_mm512_store_si512(q+192,a3); off += 256; }
  while (off + W <= n) { ld_sta(d + off, s + off); off += W; }
  ld_st(d + n - W, s + n - W); }
__attribute__((noinline)) void g4cur(uint8_t *d, const uint8_t *s, size_t n) {
  size_t skip = W - ((uintptr_t)d & (W-1)); ld_st(d, s);
  size_t blocks = (n - W) / 256; size_t off = skip;
  for (size_t i = 0; i < blocks; i++) { const uint8_t *p = s + off; uint8_t *q = d + off;
    __m512i a0=_mm512_loadu_si512(p),a1=_mm512_loadu_si512(p+64),a2=_mm512_loadu_si512(p+128),a3=_mm512_loadu_si512(p+192);
    _mm512_store_si512(q,a0);_mm512_store_si512(q+64,a1);_mm512_store_si512(q+128,a2);_mm512_store_si512(q+192,a3); off += 256; }
  const uint8_t *p = s + n - 320; uint8_t *q = d + n - 320;
  __m512i a0=_mm512_loadu_si512(p),a1=_mm512_loadu_si512(p+64),a2=_mm512_loadu_si512(p+128),a3=_mm512_loadu_si512(p+192),a4=_mm512_loadu_si512(p+256);
  _mm512_storeu_si512(q,a0);_mm512_storeu_si512(q+64,a1);_mm512_storeu_si512(q+128,a2);_mm512_storeu_si512(q+192,a3);_mm512_storeu_si512(q+256,a4); }
__attribute__((noinline)) void dpdk(uint8_t *d, const uint8_t *s, size_t n) { rte_memcpy(d, s, n); }
__attribute__((noinline)) void libc(uint8_t *d, const uint8_t *s, size_t n) { memcpy(d, s, n); }
typedef void (*fn)(uint8_t*, const uint8_t*, size_t);
int main(int argc, char **argv) {
  size_t NDESC = 8192, DESC = 2048, NMB = 8192, MB = 2304;
  uint8_t *ring = aligned_alloc(4096, NDESC*DESC), *pool = aligned_alloc(4096, NMB*MB);
  memset(ring, 0, NDESC*DESC); memset(pool, 7, NMB*MB);
  fn fs[] = {cur256, g4cur, vtail, g4, dpdk, libc}; const char *nm[] = {"cur256","g4cur","vtail","g4", "dpdk","libc"};
  size_t lens[] = {768, 1024, 1518};
  for (int li = 0; li < 3; li++) { size_t n = lens[li]; double med[6];
    uint64_t ts[6][15];
    for (int r = 0; r < 15; r++) for (int f = 0; f < 6; f++) {
      uint64_t t0 = __rdtsc();
      for (size_t k = 0; k < 2*NDESC; k++) { size_t i = k % NDESC; size_t m = (k * 7) % NMB;
        uint8_t *d = ring + i*DESC; memset(d, 0, 12); fs[f](d + 12, pool + m*MB + 256, n); }
      ts[f][r] = __rdtsc() - t0;
    }
    for (int f = 0; f < 6; f++) { for (int a=0;a<15;a++) for(int b=a+1;b<15;b++) if (ts[f][b]<ts[f][a]) {uint64_t x=ts[f][a];ts[f][a]=ts[f][b];ts[f][b]=x;} med[f] = ts[f][7]/(2.0*NDESC); }
    printf("n=%5zu", n); for (int f=0;f<6;f++) printf("  %s %6.1f", nm[f], med[f]); printf("\n");
  }
}
