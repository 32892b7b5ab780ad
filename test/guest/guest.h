/* Macros for the bare-metal test programs (assembled by riscv64-unknown-elf-gcc). */
#define EXIT(code) li a0, code; li a7, 93; ecall
#define WRITE(fd, addr, len) li a0, fd; la a1, addr; li a2, len; li a7, 64; ecall
/* tensim's region marks (riscv/sdk/tensim.h, docs/sdk.md "Regions") */
#define REGION_BEGIN(id) slti zero, zero, 0x580 + (id)
#define REGION_END(id) slti zero, zero, 0x5C0 + (id)
