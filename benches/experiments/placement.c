/* Where a branch on the pointer distance costs a cycle: the masked 1-32 B
 * move of the AVX-512 kernel, with and without the distance test that
 * keeps moves off close overlaps (`masks_apart`), in several encodings and
 * at several offsets from a 64-byte-aligned entry (BENCHMARKS.md,
 * "memmove, after (2026-12-01)"). Written for this study; needs AVX-512BW/VL.
 *
 *   gcc -O2 -mavx512f -mavx512bw -mavx512vl -o /tmp/placement placement.c
 *   taskset -c 1 /tmp/placement
 *
 * Prints the best of 200 timings of 1000 calls (8 bytes, disjoint), in TSC
 * ticks per call, for each form: none (no test), t (LLVM's form: mov, sub,
 * add -32, cmp -63, jae), s (32-bit: mov, sub, add 31, cmp 62, jbe),
 * l (lea 31, sub, cmp 62, jbe), alu3 (three ALU instructions and no
 * branch) and br (a branch on the size), each after 0-16 bytes of nops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#define PRE "cmp $0x201,%%rdx\n jae 1f\n cmp $0x20,%%rdx\n ja 1f\n"
#define POST "mov $-1,%%rax\n shlx %%rdx,%%rax,%%rax\n not %%eax\n kmovd %%eax,%%k1\n" \
    " vmovdqu8 (%%rsi),%%ymm0%{%%k1%}%{z%}\n vmovdqu8 %%ymm0,(%%rdi)%{%%k1%}\n1:\n vzeroupper\n"
#define F(name, mid) __attribute__((noinline, aligned(64))) static void name(char *d, const char *s, size_t n) \
    { asm volatile(PRE mid POST ::"D"(d), "S"(s), "d"(n) : "memory", "rax", "rcx", "xmm0", "k1"); }
#define T "mov %%rdi,%%rax\n sub %%rsi,%%rax\n add $-32,%%rax\n cmp $-63,%%rax\n jae 1f\n"
#define S "mov %%edi,%%ecx\n sub %%esi,%%ecx\n add $31,%%ecx\n cmp $62,%%ecx\n jbe 1f\n"
#define L "lea 31(%%rdi),%%rcx\n sub %%rsi,%%rcx\n cmp $62,%%rcx\n jbe 1f\n"
#define A "mov %%rdi,%%rcx\n add $1,%%rcx\n add $1,%%rcx\n"
#define B "cmp $0x77,%%rdx\n je 1f\n"
#define FORMS(k, pad) F(none##k, pad) F(t##k, pad T) F(s##k, pad S) F(l##k, pad L) F(alu3##k, pad A) F(br##k, pad B)
FORMS(0, "")
FORMS(2, ".nops 2\n")
FORMS(4, ".nops 4\n")
FORMS(8, ".nops 8\n")
FORMS(16, ".nops 16\n")
typedef void (*fn)(char *, const char *, size_t);
#define ROW(k) {#k, {none##k, t##k, s##k, l##k, alu3##k, br##k}}
int main(void) {
    char *buf = aligned_alloc(4096, 65536);
    memset(buf, 1, 65536);
    char *s = buf, *d = buf + 18 * 1024;
    struct { const char *pad; fn f[6]; } rows[] = {ROW(0), ROW(2), ROW(4), ROW(8), ROW(16)};
    printf("nops   none     t     s     l  alu3    br\n");
    for (unsigned r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        printf("%4s", rows[r].pad);
        for (int i = 0; i < 6; i++) {
            unsigned long best = ~0ul;
            for (int k = 0; k < 200; k++) {
                unsigned long a = __rdtsc();
                for (int j = 0; j < 1000; j++) rows[r].f[i](d, s, 8);
                unsigned long b = __rdtsc();
                if (b - a < best) best = b - a;
            }
            printf(" %5.2f", best / 1000.0);
        }
        printf("\n");
    }
    return 0;
}
