// libsystemc.so carries a main() that calls sc_main(), so the shared library
// has an undefined reference to sc_main. Programs with their own main()
// (cosim, googletest) link this definition to satisfy it; it never runs.
#include <cstdio>

extern "C" int sc_main(int argc, char** argv) {
  (void)argc;
  (void)argv;
  std::fprintf(stderr, "sc_main: unused entry point; this program has its own main()\n");
  return 1;
}
