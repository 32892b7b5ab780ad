/* The libstdc++ headers used with the stock compiler are Debian's riscv64-linux-gnu ones
 * (libstdc++-12-dev-riscv64-cross); their os_defines.h includes glibc's <features.h> to
 * test the glibc version. Kernels use those headers for templates only (<array>,
 * <algorithm>, <type_traits>, ...) over picolibc, so "no glibc" is the right answer. */
#ifndef TENSIM_LLK_FEATURES_H
#define TENSIM_LLK_FEATURES_H
#define __GLIBC_PREREQ(maj, min) 0
#endif
