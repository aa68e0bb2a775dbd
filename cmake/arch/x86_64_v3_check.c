/* cmake/cosim_arch.cmake try_run()s this at configure time: exit 0 when the
 * CPU running CMake (and the OS) support every x86-64-v3 feature (AVX, AVX2,
 * BMI1, BMI2, F16C, FMA, LZCNT, MOVBE, OS-saved AVX state), 1 otherwise. Built
 * without -march, so it runs on any x86-64 host. Plain cpuid: GCC's and
 * clang's __builtin_cpu_supports know different feature names. */
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <stdio.h>

static unsigned long long xcr0(void) {
  unsigned int lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((unsigned long long)hi << 32) | lo;
}

int main(void) {
  unsigned int a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 1;
  const int fma = (c >> 12) & 1, movbe = (c >> 22) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1,
            f16c = (c >> 29) & 1;
  if (!(fma && movbe && osxsave && avx && f16c)) return 1;
  if ((xcr0() & 6) != 6) return 1; /* the OS saves SSE and AVX state */
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 1;
  const int bmi1 = (b >> 3) & 1, avx2 = (b >> 5) & 1, bmi2 = (b >> 8) & 1;
  if (!(bmi1 && avx2 && bmi2)) return 1;
  if (!__get_cpuid(0x80000001, &a, &b, &c, &d)) return 1;
  if (!((c >> 5) & 1)) return 1; /* LZCNT (ABM) */
  puts("x86-64-v3");
  return 0;
}
#else
int main(void) { return 1; }
#endif
