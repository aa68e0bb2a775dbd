/* Force-included into every Verilated library (cosim_verilated_hooks() in
   cmake/cosim.cmake): Verilator prints through VL_PRINTF, which it lets a
   user redefine. Ours prints the same text and remembers the last assertion
   message, so a failed assertion can be reported by name (rtl_assert.hpp).
   Plain C declarations: this header is also seen by Verilator's C sources. */
#ifndef COSIM_VL_PRINT_HOOK_H
#define COSIM_VL_PRINT_HOOK_H
#ifdef __cplusplus
extern "C" {
#endif
int cosim_vl_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
#ifdef __cplusplus
}
#endif
#define VL_PRINTF cosim_vl_printf
#endif
