# tensim build. `make demo` and `make test` install missing Debian packages first (see deps).
#   make            build/tensim and the generated SDK headers (installs what it needs)
#   make demo       run the example kernels, check their results and print the reports
#   make test       Criterion tests, plain and under ASan+UBSan (with the fuzzing corpus);
#                   TTSIM_BH=.../libttsim.so adds kernel_speed's replay on ttsim
#   make bench      simulator speed benchmarks, then the regression bench and its HTML report
#   make calibrate  RISC-V and push figures measured on tensim next to silicon's (bench/calib)
#   make kernels    the SDK examples and test programs (RISC-V)
#   make fuzz       random inputs against the sanitizer build (FUZZ_SECONDS, default 60)
#   make difftest   the matrix unit, unpackers, packer and vector unit against ttsim (see below)
#   make llkcmp     tt-llk's run descriptions on LLKCMP_BASE's tensim and this tree's, byte for byte

CC      ?= gcc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror
CPPFLAGS := -D_DEFAULT_SOURCE -MMD -MP
ASAN    := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The sanitizer build's objects also check, every cycle, that no backend unit whose tick sleeps
# has work (TENSIM_TICK_CHECK, sync/gate.c).

B       := build
LIBSRC  := $(wildcard core/*.c riscv/*.c mem/*.c sync/*.c units/*.c trace/*.c)
LIBSRC  := $(filter-out core/main.c core/libttsim.c,$(LIBSRC))
TESTSRC := $(wildcard test/*.c) test/fuzz/oracle.c test/diff/cases.c test/diff/sfpu.c

OBJ      := $(LIBSRC:%.c=$(B)/obj/%.o)
ASAN_OBJ := $(LIBSRC:%.c=$(B)/asan/%.o)
PIC_OBJ  := $(LIBSRC:%.c=$(B)/pic/%.o) $(B)/pic/core/libttsim.o
TEST_OBJ := $(TESTSRC:%.c=$(B)/obj/%.o)
TEST_ASAN_OBJ := $(TESTSRC:%.c=$(B)/asan/%.o)

# ---- Debian packages ------------------------------------------------------------------------
PKGS := gcc make libcriterion-dev libhwloc-dev libjemalloc-dev libjansson-dev libdw-dev \
        gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf python3-numpy
# libtensim's own libraries (jansson reads run descriptions and bench manifests; libdw gives
# profiles source lines; hwloc pins the bench's worker threads)
LIBS := -ljansson -ldw -lhwloc -pthread -lm
# jemalloc linked in (its PIC archive): the shared library brings libstdc++ and libgcc_s (its
# C++ operators, which tensim does not call), whose loading and relocations cost every run
# about 3 ms of its start (tensim --version: 13.4 -> 9.9 ms of CPU, perf stat, loaded machine).
JEMALLOC := -Wl,-Bstatic -ljemalloc_pic -Wl,-Bdynamic -lm -ldl -pthread
# The command's own link: jansson and libdw (with libelf, zlib and liblzma, whose archives
# libdw-dev's dependencies install) linked in too, five shared libraries the loader no longer
# maps and relocates at every start: `tensim run -q hello.elf` 9.4 -> 8.1 ms (perf stat -r 30,
# three interleaved sets, 2026-11-27). hwloc stays shared: its archive wants libudev's, which
# Debian does not ship.
TENSIM_LIBS := -Wl,-Bstatic -ljansson -ldw -lelf -lz -llzma -Wl,-Bdynamic -lhwloc -pthread -lm

.PHONY: all sdk libttsim deps demo test test-plain test-asan bench bench-compare bench-llk llkcmp calibrate kernels fuzz difftest clean FORCE
all: $(B)/.deps $(B)/tensim sdk libttsim
libttsim: $(B)/libtensim_bh.so $(B)/soc_descriptor.yaml
sdk: $(B)/sdk/tensix_ops.h $(B)/sdk/tensix_cfg.h

deps: $(B)/.deps
$(B)/.deps: Makefile
	@missing=""; for p in $(PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo"; \
	  else echo "tensim: missing packages; run: sudo apt-get install -y$$missing" >&2; exit 1; fi; \
	  echo "tensim: installing$$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null \
	    || { echo "tensim: apt-get install failed; run: sudo apt-get install -y$$missing" >&2; exit 1; }; \
	fi
	@mkdir -p $(B) && touch $@

# ---- host side ------------------------------------------------------------------------------
GENERATED := $(B)/sdk/tensix_ops.h $(B)/sdk/version.h
$(B)/obj/%.o: %.c | $(GENERATED)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -I$(B)/sdk -c $< -o $@

$(B)/asan/%.o: %.c | $(GENERATED)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(ASAN) -DTENSIM_TICK_CHECK $(CPPFLAGS) -I$(B)/sdk -c $< -o $@

# `tensim --version`: the release and the git commit it was built from; rewritten only when
# that changes, so nothing rebuilds needlessly.
VERSION := 0.1
GIT_REV := $(shell git describe --always --dirty --abbrev=10 2>/dev/null || echo unknown)
$(B)/sdk/version.h: FORCE
	@mkdir -p $(@D)
	@echo '#define TENSIM_VERSION "$(VERSION) (git $(GIT_REV))"' > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

$(B)/libtensim.a: $(OBJ)
	rm -f $@ && ar rcs $@ $^
$(B)/libtensim-asan.a: $(ASAN_OBJ)
	rm -f $@ && ar rcs $@ $^

# The libttsim interface (core/libttsim.c, docs/libttsim.md): the library UMD loads in place of
# ttsim, with the SoC descriptor UMD reads from the library's folder. Only the nine libttsim_
# names are exported (core/libttsim.map).
$(B)/pic/%.o: %.c | $(GENERATED)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden $(CPPFLAGS) -I$(B)/sdk -c $< -o $@
$(B)/libtensim_bh.so: $(PIC_OBJ) core/libttsim.map | $(B)/.deps
	$(CC) $(CFLAGS) -shared -o $@ $(PIC_OBJ) -Wl,--version-script=core/libttsim.map -Wl,-z,defs $(LIBS)
$(B)/soc_descriptor.yaml: core/soc_descriptor_bh.yaml
	cp $< $@
# Our UMD-shaped host driver (test/umd/umd_host.c), used by test/test_libttsim.c.
$(B)/umd_host: $(B)/obj/test/umd/umd_host.o $(B)/libtensim.a
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS) -ldl

$(B)/tensim: $(B)/obj/core/main.o $(B)/libtensim.a | $(B)/.deps
	$(CC) $(CFLAGS) -o $@ $^ $(TENSIM_LIBS) $(JEMALLOC)
$(B)/tensim-asan: $(B)/asan/core/main.o $(B)/libtensim-asan.a
	$(CC) $(ASAN) -o $@ $^ $(LIBS)

# The kernel-side encoders are generated from the one Tensix instruction table.
$(B)/gen_tensix_ops: riscv/sdk/gen_tensix_ops.c units/tensix.def units/tensix_isa.h
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -Iunits $< -o $@
$(B)/sdk/tensix_ops.h: $(B)/gen_tensix_ops
	@mkdir -p $(@D)
	$< > $@.tmp && mv $@.tmp $@

# The kernel-side configuration field constants come from the two configuration-register tables.
$(B)/gen_cfg_defines: riscv/sdk/gen_cfg_defines.c units/cfg_bh.def units/cfg_wh.def units/cfg.h
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -Iunits $< -o $@
$(B)/sdk/tensix_cfg.h: $(B)/gen_cfg_defines
	@mkdir -p $(@D)
	$< > $@.tmp && mv $@.tmp $@

# ---- kernels (RISC-V) -----------------------------------------------------------------------
RVCC    := riscv64-unknown-elf-gcc
# Code is compiled for the cores' ISA; the link names plain rv32im so that gcc picks the rv32im
# multilib of libgcc and picolibc (it has none for the Zba/Zbb spelling).
RVARCH  := -march=rv32im_zicsr_zba_zbb -mabi=ilp32
RVCFLAGS := $(RVARCH) -O2 -g -Wall -Wextra -Werror -MMD -MP --specs=picolibc.specs -DTENSIM -Iriscv/sdk -I$(B)/sdk
RVLDFLAGS := -march=rv32im -mabi=ilp32 --specs=picolibc.specs -nostartfiles -Wl,--gc-sections \
             -Wl,--no-warn-rwx-segments -Lriscv/sdk
SDK_OBJ := $(B)/rv/riscv/sdk/crt0.o $(B)/rv/riscv/sdk/tensim_stdio.o

$(B)/rv/%.o: %.c riscv/sdk/tensim.h $(B)/sdk/tensix_ops.h $(B)/sdk/tensix_cfg.h | $(B)/.deps
	@mkdir -p $(@D)
	$(RVCC) $(RVCFLAGS) -c $< -o $@
$(B)/rv/%.o: %.S | $(B)/.deps
	@mkdir -p $(@D)
	$(RVCC) $(RVARCH) -c $< -o $@

# $(call kernel,name,core,sources): build/kernels/name.elf linked for core's L1 window
define kernel
KERNELS += $(B)/kernels/$(1).elf
$(B)/kernels/$(1).elf: $(3:%.c=$(B)/rv/%.o) $(SDK_OBJ) riscv/sdk/$(2).ld riscv/sdk/common.ld
	@mkdir -p $$(@D)
	$(RVCC) $(RVLDFLAGS) -T riscv/sdk/$(2).ld -o $$@ $(SDK_OBJ) $(3:%.c=$(B)/rv/%.o)
endef

EX := riscv/sdk/examples
KERNELS :=
$(eval $(call kernel,hello,trisc0,$(EX)/hello.c))
$(eval $(call kernel,pipeline-unpack,trisc0,$(EX)/pipeline/unpack.c))
$(eval $(call kernel,pipeline-math,trisc1,$(EX)/pipeline/math.c))
$(eval $(call kernel,pipeline-pack,trisc2,$(EX)/pipeline/pack.c))
$(eval $(call kernel,tokens-t0,trisc0,$(EX)/tokens/t0.c))
$(eval $(call kernel,tokens-t1,trisc1,$(EX)/tokens/t1.c))
$(eval $(call kernel,tokens-t2,trisc2,$(EX)/tokens/t2.c))
$(eval $(call kernel,unpack-t0,trisc0,$(EX)/unpack/t0.c))
$(eval $(call kernel,unpack-t1,trisc1,$(EX)/unpack/t1.c))
$(eval $(call kernel,matmul-t0,trisc0,$(EX)/matmul/t0.c))
$(eval $(call kernel,matmul-t1,trisc1,$(EX)/matmul/t1.c))
$(eval $(call kernel,matmul-t2,trisc2,$(EX)/matmul/t2.c))
# matmul with region marks (-DMATMUL_REGIONS; docs/user-guide.md "Regions")
define matmul_regions
$(B)/rv/regions/matmul-$(1).o: $(EX)/matmul/$(1).c $(EX)/matmul/matmul_data.h riscv/sdk/tensim.h $(B)/sdk/tensix_ops.h $(B)/sdk/tensix_cfg.h | $(B)/.deps
	@mkdir -p $$(@D)
	$(RVCC) $(RVCFLAGS) -DMATMUL_REGIONS -c $$< -o $$@
KERNELS += $(B)/kernels/matmul-regions-$(1).elf
$(B)/kernels/matmul-regions-$(1).elf: $(B)/rv/regions/matmul-$(1).o $(SDK_OBJ) riscv/sdk/$(2).ld riscv/sdk/common.ld
	@mkdir -p $$(@D)
	$(RVCC) $(RVLDFLAGS) -T riscv/sdk/$(2).ld -o $$@ $(SDK_OBJ) $$<
endef
$(eval $(call matmul_regions,t0,trisc0))
$(eval $(call matmul_regions,t1,trisc1))
$(eval $(call matmul_regions,t2,trisc2))
# ... and TRISC1 with a planted slowdown (docs/user-guide.md "Finding a slowdown")
$(B)/rv/regions/matmul-planted-t1.o: $(EX)/matmul/t1.c $(EX)/matmul/matmul_data.h riscv/sdk/tensim.h $(B)/sdk/tensix_ops.h $(B)/sdk/tensix_cfg.h | $(B)/.deps
	@mkdir -p $(@D)
	$(RVCC) $(RVCFLAGS) -DMATMUL_REGIONS -DMATMUL_PLANTED_WAIT -c $< -o $@
KERNELS += $(B)/kernels/matmul-planted-t1.elf
$(B)/kernels/matmul-planted-t1.elf: $(B)/rv/regions/matmul-planted-t1.o $(SDK_OBJ) riscv/sdk/trisc1.ld riscv/sdk/common.ld
	@mkdir -p $(@D)
	$(RVCC) $(RVLDFLAGS) -T riscv/sdk/trisc1.ld -o $@ $(SDK_OBJ) $<
# ... and with a planted STALLWAIT instead (the same section, "Tensix stalls by push")
$(B)/rv/regions/matmul-planted-stallwait-t1.o: $(EX)/matmul/t1.c $(EX)/matmul/matmul_data.h riscv/sdk/tensim.h $(B)/sdk/tensix_ops.h $(B)/sdk/tensix_cfg.h | $(B)/.deps
	@mkdir -p $(@D)
	$(RVCC) $(RVCFLAGS) -DMATMUL_REGIONS -DMATMUL_PLANTED_STALLWAIT -c $< -o $@
KERNELS += $(B)/kernels/matmul-planted-stallwait-t1.elf
$(B)/kernels/matmul-planted-stallwait-t1.elf: $(B)/rv/regions/matmul-planted-stallwait-t1.o $(SDK_OBJ) riscv/sdk/trisc1.ld riscv/sdk/common.ld
	@mkdir -p $(@D)
	$(RVCC) $(RVLDFLAGS) -T riscv/sdk/trisc1.ld -o $@ $(SDK_OBJ) $<
$(eval $(call kernel,eltwise-t0,trisc0,$(EX)/eltwise/t0.c))
$(eval $(call kernel,eltwise-t1,trisc1,$(EX)/eltwise/t1.c))
$(eval $(call kernel,eltwise-t2,trisc2,$(EX)/eltwise/t2.c))
# ... and a TRISC2 with a bug to find (docs/user-guide.md "Debugging a wrong kernel")
$(B)/rv/bug/eltwise-bug-t2.o: $(EX)/eltwise/t2.c $(EX)/eltwise/eltwise_data.h riscv/sdk/tensim.h $(B)/sdk/tensix_ops.h $(B)/sdk/tensix_cfg.h | $(B)/.deps
	@mkdir -p $(@D)
	$(RVCC) $(RVCFLAGS) -DELTWISE_BUG_NO_SEMWAIT -c $< -o $@
KERNELS += $(B)/kernels/eltwise-bug-t2.elf
$(B)/kernels/eltwise-bug-t2.elf: $(B)/rv/bug/eltwise-bug-t2.o $(SDK_OBJ) riscv/sdk/trisc2.ld riscv/sdk/common.ld
	@mkdir -p $(@D)
	$(RVCC) $(RVLDFLAGS) -T riscv/sdk/trisc2.ld -o $@ $(SDK_OBJ) $<
# tt-llk's matmul MOP with its throttle levels, unpacker-fed (bench/suite mm-throttle, mm-fidelity)
$(eval $(call kernel,mmthrottle-t0,trisc0,$(EX)/mmthrottle/t0.c))
$(eval $(call kernel,mmthrottle-t1,trisc1,$(EX)/mmthrottle/t1.c))
$(eval $(call kernel,mmthrottle-t2,trisc2,$(EX)/mmthrottle/t2.c))
MT_DATA := $(addprefix $(B)/kernels/mmthrottle-,a.bin b.bin c.bin)
KERNELS += $(MT_DATA)
$(B)/mmthrottle_gen: $(EX)/mmthrottle/gen_data.c $(EX)/mmthrottle/mmthrottle.h
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -o $@ $<
$(MT_DATA) &: $(B)/mmthrottle_gen
	@mkdir -p $(@D)
	$(B)/mmthrottle_gen $(@D)
$(eval $(call kernel,tt-push,trisc0,test/kernels/tt_push.c))
$(eval $(call kernel,perf-counters,trisc1,test/kernels/perf_counters.c))
$(eval $(call kernel,lint-rules,trisc0,test/kernels/lint_rules.c))
# The calibration kernel of `make calibrate` (bench/calib).
$(eval $(call kernel,calib,trisc0,bench/calib/calib.c))
# The whole-kernel figures of `make calibrate` (issue 16 item 3): pack on TRISC2 alone, unpack
# on TRISC0 with a TRISC1 companion that hands the source banks back, math on TRISC1 alone.
$(eval $(call kernel,calib-pack,trisc2,bench/calib/pack.c))
$(eval $(call kernel,calib-unpack-t0,trisc0,bench/calib/unpack.c))
$(eval $(call kernel,calib-unpack-t1,trisc1,bench/calib/unpack_t1.c))
$(eval $(call kernel,calib-math,trisc1,bench/calib/math.c))
WK_ELF := $(addprefix $(B)/kernels/calib-,pack.elf unpack-t0.elf unpack-t1.elf math.elf)
# Wormhole's documented L1 figures: assembly without a stack (Wormhole's local RAM is smaller).
$(B)/kernels/calib-wh.elf: bench/calib/calib_wh.S bench/calib/calib.h test/guest/guest.h riscv/sdk/trisc0.ld \
                           riscv/sdk/common.ld | $(B)/.deps
	@mkdir -p $(@D)
	$(RVCC) -march=rv32ima_zicsr_zifencei_zba_zbb -mabi=ilp32 -nostdlib -nostartfiles \
	  -Wl,--no-warn-rwx-segments -Lriscv/sdk -T riscv/sdk/trisc0.ld -o $@ $<
KERNELS += $(B)/kernels/calib-wh.elf
# The vector-unit examples (riscv/sdk/examples/sfpu): one unpacker and one packer program, and
# one SFPU kernel for TRISC1 each.
SFPU_KERNELS := exp recip sqrt silu gelu sort scale2 arecip recip3 recip5 where aexp
$(eval $(call kernel,sfpu-unpack,trisc0,$(EX)/sfpu/unpack.c))
$(eval $(call kernel,sfpu-pack,trisc2,$(EX)/sfpu/pack.c))
$(foreach k,$(SFPU_KERNELS),$(eval $(call kernel,sfpu-$(k),trisc1,$(EX)/sfpu/$(k).c)))
# The multi-tile examples (riscv/sdk/examples/chip; docs/sdk.md "Dataflow between tiles"): each
# one's ELFs, run description and DRAM files together in build/kernels/chip/<example>/, for
# `tensim run --run build/kernels/chip/<example>/run.json` on a chip. BRISC programs (and one
# TRISC0 program in pipeline3).
CX := $(EX)/chip
$(eval $(call kernel,chip/pipeline3/reader,brisc,$(CX)/pipeline3_reader.c))
$(eval $(call kernel,chip/pipeline3/mover,brisc,$(CX)/pipeline3_mover.c))
$(eval $(call kernel,chip/pipeline3/compute,trisc0,$(CX)/pipeline3_compute.c))
$(eval $(call kernel,chip/pipeline3/writer,brisc,$(CX)/pipeline3_writer.c))
$(eval $(call kernel,chip/matmul16/matmul16,brisc,$(CX)/matmul16.c))
$(eval $(call kernel,chip/alltoall/alltoall,brisc,$(CX)/alltoall.c))
# alltoall-2noc: the same source built twice (-DA2A_SPLIT), BRISC sending on NoC 0, NCRISC on NoC 1
define alltoall_split
$(B)/rv/a2a/alltoall-$(1).o: $(CX)/alltoall.c $(CX)/alltoall.h $(CX)/chip.h riscv/sdk/dataflow.h riscv/sdk/tensim.h | $(B)/.deps
	@mkdir -p $$(@D)
	$(RVCC) $(RVCFLAGS) -DA2A_SPLIT -DA2A_NOC=$(2) -c $$< -o $$@
KERNELS += $(B)/kernels/chip/alltoall-2noc/$(1).elf
$(B)/kernels/chip/alltoall-2noc/$(1).elf: $(B)/rv/a2a/alltoall-$(1).o $(SDK_OBJ) riscv/sdk/$(1).ld riscv/sdk/common.ld
	@mkdir -p $$(@D)
	$(RVCC) $(RVLDFLAGS) -T riscv/sdk/$(1).ld -o $$@ $(SDK_OBJ) $$<
endef
$(eval $(call alltoall_split,brisc,0))
$(eval $(call alltoall_split,ncrisc,1))
CHIP_DATA := $(addprefix $(B)/kernels/chip/,pipeline3/run.json pipeline3/input.bin \
               pipeline3/expected-output.bin matmul16/run.json matmul16/a.bin matmul16/b.bin \
               matmul16/expected-c.bin alltoall/run.json alltoall-2noc/run.json \
               mmfpu/run.json mmfpu/expected-c.bin mmfpu/a0.bin mmfpu/b0.bin)
KERNELS += $(CHIP_DATA)
$(B)/chip_gen: $(CX)/gen.c $(CX)/chip.h $(CX)/pipeline3.h $(CX)/matmul16.h $(CX)/alltoall.h \
               $(CX)/mmfpu.h $(EX)/mmthrottle/mmthrottle.h
	@mkdir -p $(@D)
	$(CC) $(WARN) -D_DEFAULT_SOURCE -O2 -o $@ $<
$(CHIP_DATA) &: $(B)/chip_gen
	@mkdir -p $(B)/kernels/chip
	$(B)/chip_gen $(B)/kernels/chip
# mmfpu: the throttled matmul's kernels on 16 tiles with their operands multicast (mmfpu.h);
# TRISC0 and TRISC2 built with -DMT_CHIP (they wait for the operands, and say C is packed).
$(eval $(call kernel,chip/mmfpu/mmfpu,brisc,$(CX)/mmfpu.c))
define mmfpu_trisc
$(B)/rv/mmfpu/$(1).o: $(EX)/mmthrottle/$(1).c $(EX)/mmthrottle/mmthrottle.h $(CX)/mmfpu.h riscv/sdk/tensim.h $(B)/sdk/tensix_ops.h $(B)/sdk/tensix_cfg.h | $(B)/.deps
	@mkdir -p $$(@D)
	$(RVCC) $(RVCFLAGS) -DMT_CHIP -c $$< -o $$@
KERNELS += $(B)/kernels/chip/mmfpu/$(1).elf
$(B)/kernels/chip/mmfpu/$(1).elf: $(B)/rv/mmfpu/$(1).o $(SDK_OBJ) riscv/sdk/$(2).ld riscv/sdk/common.ld
	@mkdir -p $$(@D)
	$(RVCC) $(RVLDFLAGS) -T riscv/sdk/$(2).ld -o $$@ $(SDK_OBJ) $$<
endef
$(eval $(call mmfpu_trisc,t0,trisc0))
$(eval $(call mmfpu_trisc,t2,trisc2))
# dataflow.h on one tile: NOC_NODE_ID, counters and requests into the NIU's outbox (test/test_dataflow.c)
$(eval $(call kernel,dataflow-node,brisc,test/kernels/dataflow_node.c))
$(eval $(call kernel,dataflow-node-ncrisc,ncrisc,test/kernels/dataflow_node.c))

# Bare-metal test programs: assembly only, linked at TRISC0's window (BRISC's for brisc_*).
GUEST_S   := $(wildcard test/guest/*.S)
GUEST_ELF := $(GUEST_S:test/guest/%.S=$(B)/guest/%.elf)
$(B)/guest/%.elf: test/guest/%.S test/guest/guest.h riscv/sdk/trisc0.ld riscv/sdk/common.ld | $(B)/.deps
	@mkdir -p $(@D)
	$(RVCC) -march=rv32ima_zicsr_zifencei_zba_zbb -mabi=ilp32 -nostdlib -nostartfiles -Itest/guest \
	  -Wl,--no-warn-rwx-segments -Lriscv/sdk -T riscv/sdk/$(if $(findstring brisc,$*),brisc,trisc0).ld -o $@ $<

# The differential test's kernel (test/diff): one ELF per architecture, the same bytes run on
# tensim and ttsim, so plain RV32IM (no Zba/Zbb), no C library, and a 2 KiB stack (Wormhole).
DIFF_RVFLAGS := -march=rv32im -mabi=ilp32 -O2 -g -Wall -Wextra -Werror -ffreestanding -nostdlib \
                -nostartfiles -Itest/diff -I$(B)/sdk -Wl,--no-warn-rwx-segments -Lriscv/sdk \
                -T test/diff/kernel.ld
DIFF_KSRC := riscv/sdk/crt0.S test/diff/kernel.c test/diff/llk.c
$(B)/kernels/difftest-bh.elf $(B)/kernels/difftest-wh.elf: $(B)/kernels/difftest-%.elf: $(DIFF_KSRC) \
    test/diff/params.h test/diff/kernel.h test/diff/kernel.ld riscv/sdk/common.ld $(B)/sdk/tensix_ops.h $(B)/sdk/tensix_cfg.h | $(B)/.deps
	@mkdir -p $(@D)
	$(RVCC) $(DIFF_RVFLAGS) $(if $(filter wh,$*),-DTENSIM_ARCH_WH) -o $@ $(DIFF_KSRC) -lgcc
KERNELS += $(B)/kernels/difftest-bh.elf $(B)/kernels/difftest-wh.elf

# Programs shaped like tt-llk's test kernels (test/llk, test/test_llk_boot.c): tt-exalens's section
# layout, one build per core it runs on. $(1) name, $(2) core (b t0 t1 t2), $(3) code base,
# $(4) .loader_init, $(5) extra flags, $(6) source (default: $(1)).
define llk_prog
$(B)/llk/$(1)-$(2).elf: test/llk/$(or $(6),$(1)).S test/llk/llk.ld | $(B)/.deps
	@mkdir -p $$(@D)
	$(RVCC) -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments -Itest/llk \
	  -DID=$(if $(filter b,$(2)),0,$(subst t,,$(2))) $(5) -Wl,--defsym=CODE_BASE=$(3) \
	  -Wl,--defsym=LOADER_INIT=$(4) -T test/llk/llk.ld -o $$@ $$<
LLK_ELF += $(B)/llk/$(1)-$(2).elf
endef
LLK_ELF :=
$(eval $(call llk_prog,brisc,b,0x0,0x4000,))
$(foreach n,trisc mailbox,$(eval $(call llk_prog,$(n),t0,0x6000,0xA000,)) \
  $(eval $(call llk_prog,$(n),t1,0xB000,0xF000,)) $(eval $(call llk_prog,$(n),t2,0x10000,0x14000,)))
$(eval $(call llk_prog,trisc-boot,t0,0x6000,0xA000,))
$(B)/llk/trisc-boot-t0.elf: test/llk/trisc.S
# the harness's words moved elsewhere, as a newer tt-llk might (BRISC's symbols say where)
MOVED := -DMAILBOX_BASE=0x1FF00 -DPROFILER_BARRIER=0x150FF4
$(eval $(call llk_prog,brisc-moved,b,0x0,0x4000,$(MOVED),brisc))
$(eval $(call llk_prog,trisc-moved,t0,0x6000,0xA000,$(MOVED),trisc))
$(eval $(call llk_prog,trisc-moved,t1,0xB000,0xF000,$(MOVED),trisc))
$(eval $(call llk_prog,trisc-moved,t2,0x10000,0x14000,$(MOVED),trisc))
# TRISC0 variants for kernel_speed's replay on ttsim (test/test_kernel_speed.c)
$(eval $(call llk_prog,trisc-refuse,t0,0x6000,0xA000,-DCFG_REFUSED,trisc))
$(eval $(call llk_prog,trisc-clock,t0,0x6000,0xA000,-DSTORE_CLOCK,trisc))
kernels: $(KERNELS) $(GUEST_ELF) $(LLK_ELF)

# ---- run ------------------------------------------------------------------------------------
# Each example says what it computed and how it was checked, ending in PASS or FAIL (the kernels
# check themselves, except eltwise and matmul, whose L1 output demo_check compares with exact
# results); then tensim's report. A FAIL stops the demo with an error.
$(B)/demo_check: riscv/sdk/examples/demo_check.c riscv/sdk/examples/eltwise/eltwise_data.h \
                 riscv/sdk/examples/matmul/matmul_data.h units/fpu_datapath.c units/fpu_datapath.h
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -o $@ $< units/fpu_datapath.c -lm

K := $(B)/kernels
demo: $(B)/.deps $(B)/tensim $(KERNELS) $(LLK_ELF) $(B)/demo_check libttsim $(B)/umd_host
	@mkdir -p $(B)/demo
	@echo; echo "== hello: one TRISC, plain RV32 code (CRC-32 and printf)"
	$(B)/tensim run $(K)/hello.elf
	@echo; echo "== pipeline: three TRISCs hand blocks of words on through L1 mailboxes"
	$(B)/tensim run --trisc0=$(K)/pipeline-unpack.elf --trisc1=$(K)/pipeline-math.elf \
	  --trisc2=$(K)/pipeline-pack.elf
	@echo; echo "== tokens: three Tensix threads pass a token through semaphores"
	$(B)/tensim run --trisc0=$(K)/tokens-t0.elf --trisc1=$(K)/tokens-t1.elf --trisc2=$(K)/tokens-t2.elf
	@echo; echo "== unpack: the unpackers move a BF16 and a BFP8 tile from L1 into Dst"
	$(B)/tensim run --trisc0=$(K)/unpack-t0.elf --trisc1=$(K)/unpack-t1.elf
	@echo; echo "== eltwise: L1 -> unpack -> ELWADD -> pack -> L1 on three TRISCs"
	$(B)/tensim run --trisc0=$(K)/eltwise-t0.elf --trisc1=$(K)/eltwise-t1.elf \
	  --trisc2=$(K)/eltwise-t2.elf --dump=0x40000:8192:$(B)/demo/eltwise.bin
	$(B)/demo_check eltwise $(B)/demo/eltwise.bin
	@echo; echo "== matmul: four 32x32x32 BF16 products at HiFi4, the tt-llk way (replay, MOP, ADDR_MOD)"
	$(B)/tensim run --trisc0=$(K)/matmul-t0.elf --trisc1=$(K)/matmul-t1.elf \
	  --trisc2=$(K)/matmul-t2.elf --dump=0x40000:16384:$(B)/demo/matmul.bin
	$(B)/demo_check matmul $(B)/demo/matmul.bin 4
	@echo; echo "== llk boot: programs shaped like tt-llk's, booted as its harness does (run description)"
	$(B)/tensim run --run test/llk/boot.json
	@od -An -tx4 $(B)/demo/llk-boot.bin | grep -q "00001064 000010c9 0000112e" \
	  || { echo "llk boot: wrong results in $(B)/demo/llk-boot.bin" >&2; exit 1; }
	@echo; echo "== chip: 16 tiles, tt-llk's matmul on each matrix unit, operands multicast over the NoC from DRAM"
	$(B)/tensim run --run $(K)/chip/mmfpu/run.json -j 2
	cmp $(K)/chip/mmfpu/c.bin $(K)/chip/mmfpu/expected-c.bin && echo "mmfpu: C matches the exact product on all 16 tiles"
	@echo; echo "== libttsim: the same chip loaded as Tenstorrent's UMD loads a simulator (docs/libttsim.md), driven by our UMD-shaped host"
	@mkdir -p $(B)/demo/libttsim
	TENSIM_REPORT=1 $(B)/umd_host $(B)/libtensim_bh.so $(K)/chip/mmfpu/run.json $(B)/demo/libttsim 2>&1 | grep -v "^  tile ([0-9]*, [0-9]*): [0-9]* cycles, NoC packets sent 0 "
	cmp $(B)/demo/libttsim/c.bin $(K)/chip/mmfpu/expected-c.bin && echo "libttsim: C read back through the library matches"

TEST_DEFS = -DTENSIM_BIN='"$(1)"'

$(B)/tests: $(TEST_OBJ) $(B)/libtensim.a
	$(CC) $(CFLAGS) -o $@ $^ -lcriterion $(LIBS) -lm
$(B)/tests-asan: $(TEST_ASAN_OBJ) $(B)/libtensim-asan.a
	$(CC) $(ASAN) -o $@ $^ -lcriterion $(LIBS) -lm

test: $(B)/.deps
	$(MAKE) --no-print-directory test-plain test-asan

# TTSIM_BH (below) also runs test/test_kernel_speed.c's cases on ttsim
test-plain: $(B)/tests $(B)/tensim $(B)/bench/kernel_speed kernels libttsim $(B)/umd_host
	@mkdir -p $(B)/demo # test/llk/boot.json's "read" writes there
	TTSIM=$(TTSIM_BH) TENSIM_BIN=$(B)/tensim $(B)/tests -j2

test-asan: $(B)/tests-asan $(B)/tensim-asan $(B)/tensim $(B)/bench/kernel_speed kernels libttsim $(B)/umd_host
	@mkdir -p $(B)/demo
	TTSIM=$(TTSIM_BH) TENSIM_BIN=$(B)/tensim-asan ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=test/lsan.supp:malloc_context_size=3 $(B)/tests-asan -j2

# Random inputs against the sanitizer build for FUZZ_SECONDS (test/fuzz/fuzz.c); findings go to
# build/fuzz-out/findings. FUZZ_SEED repeats a session.
FUZZ_SECONDS ?= 60
FUZZ_SEED ?=
$(B)/fuzz: $(B)/obj/test/fuzz/fuzz.o $(B)/obj/test/fuzz/oracle.o $(B)/obj/test/elfgen.o $(B)/libtensim.a
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)
fuzz: $(B)/.deps $(B)/fuzz $(B)/tensim-asan kernels
	$(B)/fuzz --seconds $(FUZZ_SECONDS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) --bin $(B)/tensim-asan --out $(B)/fuzz-out

# The differential test against ttsim (test/diff, docs/numerics.md "Checking against ttsim"):
#   make difftest TTSIM_BH=.../libttsim.so TTSIM_WH=.../libttsim.so   tensim and ttsim compared
#   make difftest                                                     tensim against the recorded
#                                                                     hashes in test/diff/expected.txt
# DIFFTEST_ARGS adds options (build/difftest --help), e.g. to record a new ttsim's outcome:
#   --record test/diff/expected.txt --tiles test/diff/tiles.txt --label "which ttsim".
TTSIM_BH ?=
TTSIM_WH ?=
DIFFTEST_ARGS ?=
$(B)/difftest: $(B)/obj/test/diff/main.o $(B)/obj/test/diff/cases.o $(B)/obj/test/diff/sfpu.o \
               $(B)/obj/test/diff/ttsim.o $(B)/libtensim.a
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS) -ldl -lm
difftest: $(B)/.deps $(B)/difftest $(B)/kernels/difftest-bh.elf $(B)/kernels/difftest-wh.elf
	$(B)/difftest $(if $(TTSIM_BH)$(TTSIM_WH),$(if $(TTSIM_BH),--ttsim-bh $(TTSIM_BH)) \
	  $(if $(TTSIM_WH),--ttsim-wh $(TTSIM_WH)),--check test/diff/expected.txt --tiles test/diff/tiles.txt) \
	  $(DIFFTEST_ARGS)

BENCHSRC := $(wildcard bench/*.c)
$(B)/bench/%: bench/%.c bench/bench.h $(B)/libtensim.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -I$(B)/sdk -o $@ $< $(B)/libtensim.a $(LIBS) $(JEMALLOC)

bench: $(B)/.deps $(BENCHSRC:bench/%.c=$(B)/bench/%) $(B)/tensim kernels libttsim
	@for b in $(BENCHSRC:bench/%.c=$(B)/bench/%); do $$b || exit 1; done
	@echo; echo "== speed targets (issue 19) against $(BENCH_BASE), built side by side, interleaved"
	@sh bench/speed_compare.sh $(BENCH_BASE) $(or $(BENCH_RUNS),5)
	@echo; echo "== the regression bench (bench/suite): cycles against the committed baseline"
	@mkdir -p $(B)/bench
	@s=0; $(B)/tensim bench run bench/suite/suite.json --baseline bench/suite/baseline.json \
	    --out $(B)/bench/results.json || s=$$?; \
	if [ -f $(B)/bench/results.json ] && [ $$s -ne 2 ]; then \
	  $(B)/tensim bench report $(B)/bench/results.json --baseline bench/suite/baseline.json \
	    -o $(B)/bench/report.html && echo "report: $(B)/bench/report.html" || s=2; \
	fi; exit $$s

# issue 19's speed targets against the commit before it, built side by side, run interleaved
# (bench/speed_compare.sh; docs/bench.md "Speed against a base commit")
BENCH_BASE ?= d4d6e1d
bench-compare: $(B)/.deps $(BENCHSRC:bench/%.c=$(B)/bench/%)
	@sh bench/speed_compare.sh $(BENCH_BASE) $(or $(BENCH_RUNS),5)

# tt-llk's own perf tests swept (bench/llk/throttle.json; docs/bench.md "A real tt-llk sweep"):
# needs a tt-llk checkout and tt-metal's headers, as riscv/sdk/llk/tensim-llk does.
bench-llk: $(B)/.deps $(B)/tensim
	@if [ -z "$(TT_LLK)" ] || [ -z "$(TT_METAL_HEADERS)" ]; then \
	  echo "make bench-llk needs TT_LLK=<tt-llk checkout> TT_METAL_HEADERS=<tt-metal headers>"; exit 2; fi
	@mkdir -p $(B)/bench
	@TT_LLK="$(TT_LLK)" TT_METAL_HEADERS="$(TT_METAL_HEADERS)" $(B)/tensim bench run bench/llk/throttle.json \
	    --out $(B)/bench/llk-results.json && \
	  $(B)/tensim bench report $(B)/bench/llk-results.json -o $(B)/bench/llk-report.html && \
	  echo "report: $(B)/bench/llk-report.html"

# Real kernels against a base commit (bench/llkcmp.sh; docs/testing.md "make llkcmp"): every run
# description under LLKCMP_DIRS (default build/llk-bench, from make bench-llk) run by the base's
# tensim (LLKCMP_BASE, default HEAD, built in build/llkcmp-base) and this tree's, byte for byte.
LLKCMP_BASE ?= HEAD
llkcmp: $(B)/.deps $(B)/tensim
	@c=$$(git rev-parse --verify "$(LLKCMP_BASE)^{commit}") || exit 2; d=$(B)/llkcmp-base; \
	if [ "$$(cat $$d/COMMIT 2>/dev/null)" != "$$c" ]; then rm -rf $$d && mkdir -p $$d/src && \
	  git archive $$c | tar -x -C $$d/src && echo $$c > $$d/COMMIT; fi; \
	$(MAKE) -s -C $$d/src build/tensim >/dev/null || exit 2; \
	bash bench/llkcmp.sh $$d/src/build/tensim $(B)/tensim $(LLKCMP_DIRS)

# The calibration report (issue 16): the kernel times each figure, the runner prints the table.
$(B)/calibrate: bench/calib/calibrate.c | $(B)/.deps
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -o $@ $<
calibrate: $(B)/.deps $(B)/calibrate $(B)/tensim $(B)/kernels/calib.elf $(WK_ELF) $(B)/kernels/calib-wh.elf
	@$(B)/calibrate $(B)/tensim $(B)/kernels/calib.elf

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
