"""Building one tt-llk Blackhole test variant the way tt-llk's test harness does.

The harness (tests/python_tests/helpers/test_config.py) compiles, per TRISC, one translation
unit made of the test source and helpers/src/trisc.cpp with -DLLK_TRISC_UNPACK/_MATH/_PACK,
links it with memory.blackhole.ld + unpack.ld/math.ld/pack.ld + sections.ld, and builds
helpers/src/brisc.cpp once with brisc.ld. A generated build.h carries the variant's formats and
template parameters and the layout of the runtime-argument struct the host writes at 0x20000.

Two toolchains:
  * SFPI's riscv-tt-elf-g++ (--sfpi DIR): the harness's exact commands.
  * Debian's stock riscv64-unknown-elf-g++ 12 (the default): the same flags, except what that
    compiler lacks, supplied by the shims in shim/ (see shim/README):
      - no -mcpu=tt-bh[-tensix]: -march=rv32im_zicsr_zba_zbb -mabi=ilp32 instead; compile and
        link are two steps because gcc picks picolibc's multilib only for the plain rv32im
        spelling at link time;
      - no '.ttinsn' directive: shim/ttinsn.h defines it as an assembler macro;
      - no sfpi/include: shim/include/lltt.h gives the replay-buffer helpers; SFPI's vector
        code cannot be built, so ckernel_sfpu.h is replaced (in a symlink overlay of the user's
        tree, never the tree itself) by a stub with just its non-SFPU includes, or, for SFPU
        variants, by one that includes the SFPU headers written with TTI_ macros alone
        (llk_sfpu.py), with shim/include/sfpi.h for the little they take from SFPI;
      - no C++ library for riscv64-unknown-elf: the headers of Debian's
        libstdc++-12-dev-riscv64-cross (header-only use) over picolibc, with shim/sys/features.h
        standing in for the one glibc header they include;
      - SFPI's rvtt_l1_ptr/rvtt_reg_ptr attributes are unknown: -Wno-attributes.
"""

import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import llk_sfpu
from llk_formats import FORMAT_FIELDS, FORMAT_CODE

HERE = Path(__file__).resolve().parent
SHIM = HERE / "shim"

STOCK_CXX = "riscv64-unknown-elf-g++"
STOCK_ARCH = "-march=rv32im_zicsr_zba_zbb -mabi=ilp32"
STOCK_LINK_ARCH = "-march=rv32im -mabi=ilp32"
CXX_HEADERS = Path("/usr/riscv64-linux-gnu/include/c++/12")
PICOLIBC = Path("/usr/lib/picolibc/riscv64-unknown-elf")

# The harness's options (test_config.py setup_compilation_options), in its order.
OPTIONS_ALL = "-g -O3 -std=c++17 -ffast-math"
OPTIONS_LINK = "-Wl,-z,max-page-size=16 -Wl,-z,common-page-size=16 -nostartfiles"
INITIAL_OPTIONS_COMPILE = (
    "-nostdlib -fno-use-cxa-atexit -Werror -Wall -fno-asynchronous-unwind-tables -fno-exceptions "
    "-fno-rtti -Wunused-parameter -Wfloat-equal -Wpointer-arith -Wnull-dereference "
    "-Wredundant-decls -Wuninitialized -Wmaybe-uninitialized "
    "-DTENSIX_FIRMWARE -DENV_LLK_INFRA -DENABLE_LLK_ASSERT -DARCH_BLACKHOLE")
# The harness always builds Blackhole kernels for BRISC boot; a TRISC boot needs TRISC0 to do
# the device set-up and release the other TRISCs, which trisc.cpp does under this define.
BOOT_DEFINE = {"brisc": "-DLLK_BOOT_MODE_BRISC", "host": "-DLLK_BOOT_MODE_BRISC",
               "trisc": "-DLLK_BOOT_MODE_TRISC"}
KERNELS = ["unpack", "math", "pack"]

# The six tt-metal headers the harness downloads, by their place in a tt-metal tree.
METAL_HEADERS = {
    "core_config.h": "tt_metal/hw/inc/internal/tt-1xx/blackhole/core_config.h",
    "cfg_defines.h": "tt_metal/hw/inc/internal/tt-1xx/blackhole/cfg_defines.h",
    "dev_mem_map.h": "tt_metal/hw/inc/internal/tt-1xx/blackhole/dev_mem_map.h",
    "tensix.h": "tt_metal/hw/inc/internal/tt-1xx/blackhole/tensix.h",
    "tensix_types.h": "tt_metal/hw/inc/internal/tt-1xx/blackhole/tensix_types.h",
    "internal/risc_attribs.h": "tt_metal/hw/inc/internal/risc_attribs.h",
}


class BuildError(Exception):
    pass


def run(cmd, cwd=None, stdin=None):
    """Run a shell command; raise BuildError with its stderr on failure."""
    res = subprocess.run(cmd, shell=True, cwd=cwd, input=stdin, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if res.returncode != 0:
        raise BuildError(f"command failed:\n{cmd}\n{res.stderr.strip()}")
    return res


# ---------------------------------------------------------------------------------------------
# Where things are.

class Toolchain:
    def __init__(self, sfpi=None):
        self.sfpi = Path(sfpi).resolve() if sfpi else None
        if self.sfpi:
            bindir = self.sfpi / "compiler" / "bin"
            if not bindir.is_dir():
                bindir = self.sfpi / "bin"
            self.cxx = str(bindir / "riscv-tt-elf-g++")
            self.objcopy = str(bindir / "riscv-tt-elf-objcopy")
            self.size = str(bindir / "riscv-tt-elf-size")
            if not Path(self.cxx).exists():
                raise BuildError(f"no riscv-tt-elf-g++ under {self.sfpi}")
        else:
            self.cxx = STOCK_CXX
            self.objcopy = "riscv64-unknown-elf-objcopy"
            self.size = "riscv64-unknown-elf-size"
            self.check_stock()

    @staticmethod
    def check_stock():
        missing = []
        if not shutil.which(STOCK_CXX):
            missing.append("gcc-riscv64-unknown-elf")
        if not (PICOLIBC / "include").is_dir():
            missing.append("picolibc-riscv64-unknown-elf")
        if not (CXX_HEADERS / "array").is_file():
            missing.append("libstdc++-12-dev-riscv64-cross")
        if missing:
            raise BuildError("missing Debian packages; install with:\n"
                             "  apt-get install -y " + " ".join(missing))


class Tree:
    """The user's tt-llk checkout and tt-metal headers, and our output directory."""

    def __init__(self, llk, metal, out):
        self.llk = Path(llk).resolve()
        self.tests = self.llk / "tests"
        self.metal = Path(metal).resolve()
        self.out = Path(out).resolve()
        for p in (self.tests / "helpers" / "src" / "trisc.cpp",
                  self.llk / "tt_llk_blackhole" / "llk_lib"):
            if not p.exists():
                raise BuildError(f"{p} not found: is --llk a tt-llk checkout?")
        for rel in METAL_HEADERS.values():
            if not (self.metal / rel).is_file():
                raise BuildError(f"{self.metal / rel} not found (--metal-headers)")

    def header_dir(self):
        """The harness's tests/hw_specific/blackhole/inc, as symlinks in our output."""
        d = self.out / ".hw_specific" / "blackhole" / "inc"
        for name, rel in METAL_HEADERS.items():
            link = d / name
            link.parent.mkdir(parents=True, exist_ok=True)
            _symlink(self.metal / rel, link)
        return d

    def llk_root(self, stock, tti=False):
        """The tt-llk root the includes name: the checkout itself for SFPI; for the stock
        compiler a symlink overlay whose common/inc has our ckernel_sfpu.h stub (cmath_common.h
        includes it by a quoted name, which finds the including file's own directory first, so
        only a file in that directory can stand in for it). `tti`: the stub for SFPU builds,
        generated from the tree's own SFPU headers (llk_sfpu.py), which includes those written
        with TTI_ macros alone."""
        if not stock:
            return self.llk
        root = self.out / (".llk-overlay-tti" if tti else ".llk-overlay")
        bh = root / "tt_llk_blackhole"
        inc = bh / "common" / "inc"
        inc.mkdir(parents=True, exist_ok=True)
        _symlink(self.llk / "common", root / "common")
        _symlink(self.tests, root / "tests")
        _symlink(self.llk / "tt_llk_blackhole" / "llk_lib", bh / "llk_lib")
        real_inc = self.llk / "tt_llk_blackhole" / "common" / "inc"
        for entry in real_inc.iterdir():
            if entry.name != "ckernel_sfpu.h":
                _symlink(entry, inc / entry.name)
        if tti:
            stub = inc / "ckernel_sfpu.h"
            if stub.is_symlink():
                stub.unlink()
            text = llk_sfpu.tti_stub(llk_sfpu.Survey(self.llk))
            if not stub.exists() or stub.read_text() != text:
                stub.write_text(text)
        else:
            _symlink(SHIM / "nosfpu" / "ckernel_sfpu.h", inc / "ckernel_sfpu.h")
        return root


def _symlink(target, link):
    link = Path(link)
    if link.is_symlink() or link.exists():
        if link.is_symlink() and os.readlink(link) == str(target):
            return
        link.unlink()
    link.symlink_to(target)


# ---------------------------------------------------------------------------------------------
# build.h, mirroring TestConfig.generate_build_header (runtime formats, not speed-of-light).

FORMATS_STRUCT = """
struct FormatConfig
{
    std::uint32_t unpack_A_src = 0;
    std::uint32_t unpack_B_src = 0;
    std::uint32_t unpack_S_src = 0;
    std::uint32_t unpack_A_dst = 0;
    std::uint32_t unpack_B_dst = 0;
    std::uint32_t unpack_S_dst = 0;
    std::uint32_t math = 0;
    std::uint32_t pack_src = 0;
    std::uint32_t pack_dst = 0;
    std::uint32_t pack_S_src = 0;
    std::uint32_t pack_S_dst = 0;
};
"""


def format_configs(spec):
    """The variant's FormatConfig values: one dict, or one per L1-to-L1 iteration."""
    return spec.formats if isinstance(spec.formats, list) else [spec.formats]


def runtime_struct(spec):
    """(struct lines, struct.pack format, values) of the runtime arguments, field for field as
    generate_runtime_args_struct and write_runtimes_to_L1 lay them out (the formats are left
    out when they are compile-time constants)."""
    lines = ["// Struct containing runtime parameter layout", "struct RuntimeParams {",
             "std::uint32_t TILE_SIZE_PACK;", "std::uint32_t TILE_SIZE_UNPACK_A;",
             "std::uint32_t TILE_SIZE_UNPACK_B;"]
    fmt = "@III"
    values = list(spec.tile_sizes)
    if not spec.compile_time_formats:
        configs = format_configs(spec)
        lines.append("FormatConfig formats;" if len(configs) == 1
                     else f"FormatConfig formats[{len(configs)}];")
        for cfg in configs:
            fmt += "I" * 11
            values += [FORMAT_CODE[cfg[f]] if cfg else 0 for f in FORMAT_FIELDS]
    if spec.stimuli is not None:
        names = ["buffer_A", "buffer_B", "buffer_Res"] + (["buffer_C"] if spec.stimuli.has_c else [])
        lines += [f"Operand {n};" for n in names]
        fmt += "II" * len(names)
        values += spec.stimuli.operand_values()
    for r in spec.runtimes:
        lines += r.decls
        fmt += r.fmt
        values += r.values
    lines.append("};")
    return lines, fmt, values


FORMATS_STRUCT_CONST = """
struct FormatConfig
{
    const std::uint32_t unpack_A_src, unpack_B_src, unpack_S_src;
    const std::uint32_t unpack_A_dst, unpack_B_dst, unpack_S_dst;
    const std::uint32_t math;
    const std::uint32_t pack_src, pack_dst, pack_S_src, pack_S_dst;

    constexpr FormatConfig(std::uint32_t ua_src, std::uint32_t ub_src, std::uint32_t us_src,
                           std::uint32_t ua_dst, std::uint32_t ub_dst, std::uint32_t us_dst,
                           std::uint32_t m, std::uint32_t p_src, std::uint32_t p_dst,
                           std::uint32_t ps_src, std::uint32_t ps_dst) :
        unpack_A_src(ua_src), unpack_B_src(ub_src), unpack_S_src(us_src),
        unpack_A_dst(ua_dst), unpack_B_dst(ub_dst), unpack_S_dst(us_dst), math(m),
        pack_src(p_src), pack_dst(p_dst), pack_S_src(ps_src), pack_S_dst(ps_dst)
    {
    }
};
"""


# The names the harness gives each format constant of a compile-time-formats build (some
# sources, ttnn_where_test.cpp for one, read them directly), in FORMAT_FIELDS order.
FORMAT_CONSTANTS = ["UNPACK_A_IN", "UNPACK_B_IN", "UNPACK_S_IN", "UNPACK_A_OUT", "UNPACK_B_OUT",
                    "UNPACK_S_OUT", "MATH_FORMAT", "PACK_IN", "PACK_OUT", "PACK_S_IN", "PACK_S_OUT"]


def compile_time_formats(spec):
    """The formats as constants (the harness's compile-time-formats build; one iteration)."""
    cfg = format_configs(spec)[0]
    lines = ["// Data formats (compile-time)"]
    lines += [f"constexpr auto {n} = ckernel::to_underlying(DataFormat::{cfg[f]});"
              for n, f in zip(FORMAT_CONSTANTS, FORMAT_FIELDS)]
    lines.append(f"constexpr FormatConfig formats = FormatConfig({', '.join(FORMAT_CONSTANTS)});")
    return lines


def build_header(spec):
    lines = [
        "// Generated by tensim-llk from the variant's parameters (the layout tt-llk's test",
        "// harness generates: formats, template parameters, runtime-argument struct).",
        "",
        "#pragma once",
        "",
        "#include <array>",
        "#include <type_traits>",
        "",
        '#include "operand.h"',
        '#include "llk_defs.h"',
        '#include "llk_sfpu_types.h"',
        '#include "perf.h"',
        '#include "tensix_types.h"',
        "#define RUNTIME_PARAMETERS  [[maybe_unused]] const struct RuntimeParams&",
        f"constexpr bool l1_acc_en = {1 if spec.l1_acc else 0};",
        f"constexpr bool unpack_to_dest = {'true' if spec.unpack_to_dest else 'false'};",
        FORMATS_STRUCT_CONST if spec.compile_time_formats else FORMATS_STRUCT,
        f"constexpr bool is_fp32_dest_acc_en = {'true' if spec.dest_acc else 'false'};",
    ]
    if spec.header_operands and spec.stimuli is not None:
        # StimuliConfig.generate_stimuli_header_addresses: the operands as constants too
        vals = spec.stimuli.operand_values()
        names = ["buffer_A", "buffer_B", "buffer_Res", "buffer_C"]
        lines += [f"constexpr Operand {n}({hex(vals[2 * i])}, {vals[2 * i + 1]});"
                  for i, n in enumerate(names[:len(vals) // 2])]
    lines += [t.cpp for t in spec.templates]
    if spec.compile_time_formats:
        lines += compile_time_formats(spec)
    lines += runtime_struct(spec)[0]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Compile and link.

class Builder:
    def __init__(self, tree, toolchain, boot="brisc"):
        self.boot = boot
        self.tree = tree
        self.tc = toolchain
        self.stock = toolchain.sfpi is None
        self.commands = []  # every command run, for the report

    def includes(self, tti=False):
        root = self.tree.llk_root(self.stock, tti)
        tests = self.tree.tests
        sfpi_inc = (self.tc.sfpi / "include") if self.tc.sfpi else (SHIM / "include")
        inc = [
            f"-I{sfpi_inc}",
            f"-I{root}/tt_llk_blackhole/llk_lib",
            f"-I{root}/tt_llk_blackhole/common/inc",
            f"-I{root}/tt_llk_blackhole/common/inc/sfpu",
            f"-I{root}/common",
            f"-I{self.tree.header_dir()}",
            f"-I{tests}/hw_specific/blackhole",
            f"-I{tests}/hw_specific/blackhole/metal_sfpu",
            f"-I{tests}/firmware/riscv/common",
            f"-I{tests}/helpers/include",
        ]
        return " ".join(inc)

    def stock_prefix(self):
        """What the stock compiler needs before the harness's flags."""
        sysinc = [SHIM / "sys", CXX_HEADERS, CXX_HEADERS / "riscv64-linux-gnu", PICOLIBC / "include"]
        return (f"{STOCK_ARCH} " + " ".join(f"-isystem {p}" for p in sysinc) +
                f" -include {SHIM / 'ttinsn.h'} -Wno-attributes")

    def link_command(self, obj, ld, elf):
        lds = self.tree.tests / "helpers" / "ld"
        libdir = PICOLIBC / "lib" / "rv32im" / "ilp32"
        return (f"{STOCK_CXX} {STOCK_LINK_ARCH} -nostdlib {OPTIONS_LINK} "
                f"-T{lds}/memory.blackhole.ld -T{lds}/{ld}.ld -T{lds}/sections.ld "
                f"{obj} -L{libdir} -lc -lgcc -o {elf}")

    def link_stock(self, obj, ld, elf):
        cmd = self.link_command(obj, ld, elf)
        self.commands.append(cmd)
        run(cmd)

    def options_compile(self, profiler, tti=False):
        opts = f"{self.includes(tti)} {INITIAL_OPTIONS_COMPILE} {BOOT_DEFINE[self.boot]}"
        if profiler:
            opts += " -DLLK_PROFILER"
        return opts

    def build_brisc(self, outdir):
        """brisc.elf (shared by every variant in the harness; built once per output dir)."""
        elf = outdir / "brisc.elf"
        if elf.exists():
            return elf
        lds = self.tree.tests / "helpers" / "ld"
        src = self.tree.tests / "helpers" / "src" / "brisc.cpp"
        opts = self.options_compile(profiler=False)
        if self.stock:
            obj = outdir / "brisc.o"
            cmd = f"{STOCK_CXX} {self.stock_prefix()} {OPTIONS_ALL} {opts} -c {src} -o {obj}"
            self.commands.append(cmd)
            run(cmd)
            self.link_stock(obj, "brisc", elf)
        else:
            cmd = (f"{self.tc.cxx} -mcpu=tt-bh {OPTIONS_ALL} {OPTIONS_LINK} -Wl,--trace {opts} "
                   f"-T{lds}/memory.blackhole.ld -T{lds}/brisc.ld -T{lds}/sections.ld "
                   f"-o {elf} {src}")
            self.commands.append(cmd)
            run(cmd, cwd=self.tree.tests)
        return elf

    def build_kernels(self, spec, vdir):
        """unpack.elf, math.elf, pack.elf for the variant in vdir (which holds build.h)."""
        vdir.mkdir(parents=True, exist_ok=True)
        (vdir / "build.h").write_text(build_header(spec))
        tests = self.tree.tests
        lds = tests / "helpers" / "ld"
        tu = f"#include  <{spec.source}>\n#include  <trisc.cpp>\n"
        (vdir / "kernel.cpp").write_text(tu)
        opts = self.options_compile(spec.profiler, spec.sfpu_tti)

        formats_flag = "" if spec.compile_time_formats else "-DRUNTIME_FORMATS "

        def one(i, name):
            """Compile and link one TRISC's ELF; returns its commands (run in order)."""
            flags = (f"-I{tests} -I{tests}/helpers/src -I{vdir} {opts} "
                     f"-DCOMPILE_FOR_TRISC={i} {formats_flag}-DLLK_TRISC_{name.upper()}")
            elf = vdir / f"{name}.elf"
            if self.stock:
                obj = vdir / f"{name}.o"
                cmds = [f"{STOCK_CXX} {self.stock_prefix()} {OPTIONS_ALL} {flags} "
                        f"-c -x c++ {vdir / 'kernel.cpp'} -o {obj}",
                        self.link_command(obj, name, elf)]
                for cmd in cmds:
                    run(cmd, cwd=tests)
            else:
                cmds = [f"{self.tc.cxx} -mcpu=tt-bh-tensix {OPTIONS_ALL} {flags} {OPTIONS_LINK} "
                        f"-Wl,--trace -T{lds}/memory.blackhole.ld -T{lds}/{name}.ld "
                        f"-T{lds}/sections.ld -x c++ - -lc -o {elf}"]
                run(cmds[0], cwd=tests, stdin=tu)
            return elf, cmds

        # The three TRISCs build in parallel, as the harness builds them.
        with ThreadPoolExecutor(max_workers=len(KERNELS)) as pool:
            futures = [pool.submit(one, i, name) for i, name in enumerate(KERNELS)]
            done = [f.result() for f in futures]
        elfs = {}
        for name, (elf, cmds) in zip(KERNELS, done):
            self.commands += cmds
            elfs[name] = elf
        return elfs

    def text_size(self, elf):
        """The 'text' column of size(1), which the perf report's TEXT_SIZE columns sum."""
        out = run(f"{self.tc.size} {elf}").stdout.strip().splitlines()
        return int(out[1].split()[0])
