/* What a taken branch costs a called compare: one block of eight 16-byte
 * vector pairs XOR-ed and OR-ed into one test (SSE2, as the SSE `bcmp`'s
 * first loop block), then nothing more (`f0`), four taken `jmp`s each to
 * a 64-byte-aligned label (`jmp4`), four taken conditional branches
 * (`jcc4`), or four conditional branches not taken (`nt4`); each called
 * 2000 times in a row on the same two 4 KiB-aligned buffers (benches/NOTEBOOK.md,
 * "`amd-25-17`: the compare tail's arms behind one taken jump each").
 * Written for this study.
 *
 *   gcc -O2 -o /tmp/taken-branches taken-branches.c
 *   taskset -c 1 /tmp/taken-branches
 *
 * Prints the median of 31 timings, in TSC ticks per call, three times. */
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>
#define PAIR(o) "movdqu " #o "(%rdi),%xmm2\n movdqu " #o "(%rsi),%xmm3\n pxor %xmm3,%xmm2\n por %xmm2,%xmm0\n"
#define BLOCK "pxor %xmm0,%xmm0\n" PAIR(0) PAIR(16) PAIR(32) PAIR(48) PAIR(64) PAIR(80) PAIR(96) PAIR(112)
#define TEST "pxor %xmm1,%xmm1\n pcmpeqb %xmm1,%xmm0\n pmovmskb %xmm0,%eax\n xor $0xffff,%eax\n ret\n"
#define FN(name, mid) ".p2align 6\n" name ":\n" BLOCK mid TEST
asm(".text\n"
    FN("f0", "")
    FN("jmp4", "jmp 1f\n .p2align 6\n1: jmp 2f\n .p2align 6\n2: jmp 3f\n .p2align 6\n3: jmp 4f\n .p2align 6\n4:\n")
    FN("jcc4", "cmp $1,%rdx\n jae 1f\n ud2\n .p2align 6\n1: cmp $2,%rdx\n jae 2f\n ud2\n .p2align 6\n"
               "2: cmp $3,%rdx\n jae 3f\n ud2\n .p2align 6\n3: cmp $4,%rdx\n jae 4f\n ud2\n .p2align 6\n4:\n")
    FN("nt4", "cmp $1,%rdx\n jb 9f\n cmp $2,%rdx\n jb 9f\n cmp $3,%rdx\n jb 9f\n cmp $4,%rdx\n jb 9f\n")
    "9: ud2\n");
int f0(const void *, const void *, size_t), jmp4(const void *, const void *, size_t),
    jcc4(const void *, const void *, size_t), nt4(const void *, const void *, size_t);
typedef int (*fn)(const void *, const void *, size_t);
static int cmpd(const void *x, const void *y) { double a = *(double *)x, b = *(double *)y; return (a > b) - (a < b); }
static double time1(fn f, const char *a, const char *b) {
    double t[31];
    for (int r = 0; r < 31; r++) {
        unsigned long long t0 = __rdtsc();
        for (int i = 0; i < 2000; i++) {
            int v = ((volatile fn)f)(a, b, 8);
            asm volatile("" ::"r"(v));
        }
        t[r] = (double)(__rdtsc() - t0) / 2000;
    }
    qsort(t, 31, sizeof t[0], cmpd);
    return t[15];
}
int main(void) {
    char *buf = aligned_alloc(4096, 1 << 17);
    for (int i = 0; i < (1 << 17); i++) buf[i] = 0;
    const char *a = buf, *b = buf + 65536;
    for (int k = 0; k < 3; k++)
        printf("f0 %.1f  jmp4 %.1f  jcc4 %.1f  nt4 %.1f\n", time1(f0, a, b), time1(jmp4, a, b),
               time1(jcc4, a, b), time1(nt4, a, b));
    return 0;
}
