// The mutant a schemata build runs (cmake/mutants.cmake): COSIM_MUTANT=N
// turns on mutant N of rtl/*/mutants.yaml (numbered by
// scripts/mutant_schemata.py); 0, unset or empty = the unmutated RTL. The RTL
// calls this once per model, at time 0 (cosim_mutant_pkg).
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" unsigned int cosim_mutant_select() {
  const char* s = std::getenv("COSIM_MUTANT");
  if (s == nullptr || *s == '\0') return 0;
  char* end = nullptr;
  const unsigned long v = std::strtoul(s, &end, 10);
  if (*end != '\0' || v > 0xffffffffUL) {
    // A typo must not silently run the unmutated RTL and call the mutant survived.
    std::fprintf(stderr, "COSIM_MUTANT=%s: expected a mutant number\n", s);
    std::abort();
  }
  return static_cast<unsigned int>(v);
}
