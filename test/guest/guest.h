/* Macros for the bare-metal test programs (assembled by riscv64-unknown-elf-gcc). */
#define EXIT(code) li a0, code; li a7, 93; ecall
#define WRITE(fd, addr, len) li a0, fd; la a1, addr; li a2, len; li a7, 64; ecall
