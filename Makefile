# tensim build. `make demo` and `make test` install missing Debian packages first (see deps).
#   make            build/tensim
#   make demo       run the built-in three-TRISC example and print the report
#   make test       Criterion tests, plain and under ASan+UBSan
#   make bench      simulator speed benchmarks
#   make kernels    the SDK examples and test programs (RISC-V)

CC      ?= gcc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror
CPPFLAGS := -D_DEFAULT_SOURCE -MMD -MP
ASAN    := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

B       := build
LIBSRC  := $(wildcard core/*.c riscv/*.c mem/*.c sync/*.c units/*.c trace/*.c)
LIBSRC  := $(filter-out core/main.c,$(LIBSRC))
TESTSRC := $(wildcard test/*.c)

OBJ      := $(LIBSRC:%.c=$(B)/obj/%.o)
ASAN_OBJ := $(LIBSRC:%.c=$(B)/asan/%.o)
TEST_OBJ := $(TESTSRC:%.c=$(B)/obj/%.o)
TEST_ASAN_OBJ := $(TESTSRC:%.c=$(B)/asan/%.o)

# ---- Debian packages ------------------------------------------------------------------------
PKGS := gcc make libcriterion-dev libhwloc-dev libjemalloc-dev \
        gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf

.PHONY: all deps demo test test-plain test-asan bench kernels clean FORCE
all: $(B)/.deps $(B)/tensim

deps: $(B)/.deps
$(B)/.deps:
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
	$(CC) $(WARN) $(ASAN) $(CPPFLAGS) -I$(B)/sdk -c $< -o $@

# `tensim --version`: the release and the git commit it was built from; rewritten only when
# that changes, so nothing rebuilds needlessly.
VERSION := 0.1
GIT_REV := $(shell git describe --always --dirty --abbrev=10 2>/dev/null || echo unknown)
$(B)/sdk/version.h: FORCE
	@mkdir -p $(@D)
	@echo '#define TENSIM_VERSION "$(VERSION) (git $(GIT_REV))"' > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

$(B)/libtensim.a: $(OBJ)
	ar rcs $@ $^
$(B)/libtensim-asan.a: $(ASAN_OBJ)
	ar rcs $@ $^

$(B)/tensim: $(B)/obj/core/main.o $(B)/libtensim.a | $(B)/.deps
	$(CC) $(CFLAGS) -o $@ $^ -ljemalloc
$(B)/tensim-asan: $(B)/asan/core/main.o $(B)/libtensim-asan.a
	$(CC) $(ASAN) -o $@ $^

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
RVCFLAGS := $(RVARCH) -O2 -g -Wall -Wextra -Werror -MMD -MP --specs=picolibc.specs -Iriscv/sdk -I$(B)/sdk
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
$(eval $(call kernel,eltwise-t0,trisc0,$(EX)/eltwise/t0.c))
$(eval $(call kernel,eltwise-t1,trisc1,$(EX)/eltwise/t1.c))
$(eval $(call kernel,eltwise-t2,trisc2,$(EX)/eltwise/t2.c))
$(eval $(call kernel,tt-push,trisc0,test/kernels/tt_push.c))

# Bare-metal test programs: assembly only, linked at TRISC0's window (BRISC's for brisc_*).
GUEST_S   := $(wildcard test/guest/*.S)
GUEST_ELF := $(GUEST_S:test/guest/%.S=$(B)/guest/%.elf)
$(B)/guest/%.elf: test/guest/%.S test/guest/guest.h riscv/sdk/trisc0.ld riscv/sdk/common.ld | $(B)/.deps
	@mkdir -p $(@D)
	$(RVCC) -march=rv32ima_zicsr_zifencei_zba_zbb -mabi=ilp32 -nostdlib -nostartfiles -Itest/guest \
	  -Wl,--no-warn-rwx-segments -Lriscv/sdk -T riscv/sdk/$(if $(findstring brisc,$*),brisc,trisc0).ld -o $@ $<

kernels: $(KERNELS) $(GUEST_ELF)

# ---- run ------------------------------------------------------------------------------------
demo: $(B)/.deps $(B)/tensim $(KERNELS)
	$(B)/tensim run $(B)/kernels/hello.elf
	$(B)/tensim run --trisc0 $(B)/kernels/pipeline-unpack.elf \
	  --trisc1 $(B)/kernels/pipeline-math.elf --trisc2 $(B)/kernels/pipeline-pack.elf
	$(B)/tensim run --trisc0 $(B)/kernels/tokens-t0.elf \
	  --trisc1 $(B)/kernels/tokens-t1.elf --trisc2 $(B)/kernels/tokens-t2.elf
	$(B)/tensim run --trisc0 $(B)/kernels/unpack-t0.elf --trisc1 $(B)/kernels/unpack-t1.elf
	$(B)/tensim run --trisc0 $(B)/kernels/eltwise-t0.elf --trisc1 $(B)/kernels/eltwise-t1.elf \
	  --trisc2 $(B)/kernels/eltwise-t2.elf
	$(B)/tensim run --trisc0 $(B)/kernels/matmul-t0.elf --trisc1 $(B)/kernels/matmul-t1.elf \
	  --trisc2 $(B)/kernels/matmul-t2.elf

TEST_DEFS = -DTENSIM_BIN='"$(1)"'

$(B)/tests: $(TEST_OBJ) $(B)/libtensim.a
	$(CC) $(CFLAGS) -o $@ $^ -lcriterion -lm
$(B)/tests-asan: $(TEST_ASAN_OBJ) $(B)/libtensim-asan.a
	$(CC) $(ASAN) -o $@ $^ -lcriterion -lm

test: $(B)/.deps
	$(MAKE) --no-print-directory test-plain test-asan

test-plain: $(B)/tests $(B)/tensim kernels
	TENSIM_BIN=$(B)/tensim $(B)/tests -j2

test-asan: $(B)/tests-asan $(B)/tensim-asan kernels
	TENSIM_BIN=$(B)/tensim-asan ASAN_OPTIONS=detect_leaks=1 $(B)/tests-asan -j2

BENCHSRC := $(wildcard bench/*.c)
$(B)/bench/%: bench/%.c bench/bench.h $(B)/libtensim.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -I$(B)/sdk -o $@ $< $(B)/libtensim.a -ljemalloc

bench: $(B)/.deps $(BENCHSRC:bench/%.c=$(B)/bench/%) $(B)/tensim kernels
	@for b in $(BENCHSRC:bench/%.c=$(B)/bench/%); do $$b || exit 1; done

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
