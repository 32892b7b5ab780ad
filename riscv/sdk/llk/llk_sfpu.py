"""Which of tt-llk's SFPU kernels the stock compiler can build: a survey of the ckernel_sfpu_*.h
headers of a tt-llk tree, and the ckernel_sfpu.h that stands in for tt-llk's own in SFPU builds.

tt-llk writes its SFPU kernels either with SFPI's vector types (vFloat, v_if, dst_reg[...]),
which only SFPI's compiler understands, or with TTI_/TT_ instruction macros, which any compiler
can build. Many headers mix the two. For each function of each header the survey decides:

  sfpi   it uses an SFPI vector construct, or calls a function that does;
  tti    it issues SFPU instructions through TTI_/TT_ macros (or lltt replays) and nothing of
         SFPI but `sfpi::dst_reg++` and modifier names (shim/include/sfpi.h supplies those);
  plain  neither (helpers, constexpr checks).

A header is "pure" when none of its functions is sfpi: it then compiles with the shim and can
be included. A mixed header's tti functions cannot be reached: including the header brings its
SFPI code too. The scan is lexical (comments stripped, bodies found by brace matching), which is
enough for tt-llk's headers; the build is the final judge.
"""

import re
from pathlib import Path

# SFPI constructs: the vector types, predication macros, register files and library functions
# that take or return vectors. `sfpi::dst_reg++` and `sfpi::SFP..._MOD..` names are not listed:
# the shim has them.
SFPI_WORDS = re.compile(
    r"\b(vFloat|vInt|vUInt|vConst\w*|v_if|v_elseif|v_else|v_endif|v_and|v_block|v_endblock|"
    r"l_reg|LRegs|s2vFloat16\w*|__vCond\w*|__vCCCtrl|vCond\w*|reinterpret|"
    r"float_to_fp16\w*|float_to_int\w*|float_to_uint\w*|int32_to_float|setsgn|setexp|setman|"
    r"exexp\w*|exman\w*|addexp|approx_recip|approx_exp|vec_min_max|subvec_\w+|"
    r"__builtin_rvtt\w*)\b")
DST_INDEXED = re.compile(r"\bdst_reg\s*\[")
SFPI_OTHER = re.compile(r"\bsfpi::(?!dst_reg\b|SFP[A-Z0-9_]+\b)(\w+)")
INSTRUCTION = re.compile(r"\bTTI?_(SFP\w+|REPLAY|INCRWC|SETRWC|STALLWAIT|SETC16)\b|\bTT_OP_(SFP\w+)")
LLTT = re.compile(r"\blltt::")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "constexpr", "__attribute__",
            "defined", "static_assert", "decltype", "alignof"}
FUNCTION = re.compile(
    r"(?:template\s*<[^{};]*?>\s*)?(?:(?:inline|static|constexpr|__attribute__\(\([^)]*\)\))\s+)*"
    r"[\w:<>,\s\*&]+?\b(\w+)\s*\(([^;{}]*)\)\s*(?:const\s*)?\{", re.S)


def strip_comments(text):
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def functions(text):
    """{name: [body, ...]} of the function definitions in `text` (comments stripped)."""
    out = {}
    for m in FUNCTION.finditer(text):
        name = m.group(1)
        if name in KEYWORDS:
            continue
        i, depth = m.end(), 1
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.setdefault(name, []).append(text[m.end():i - 1])
    return out


class Survey:
    """The SFPU headers of one architecture of a tt-llk tree."""

    def __init__(self, llk, arch="tt_llk_blackhole"):
        self.arch = arch
        self.dir = Path(llk) / arch / "common" / "inc" / "sfpu"
        self.owner, self.bodies = {}, {}
        self.headers = sorted(p.name for p in self.dir.glob("ckernel_sfpu_*.h"))
        for h in self.headers:
            for name, bodies in functions(strip_comments((self.dir / h).read_text())).items():
                self.bodies.setdefault(name, []).extend(bodies)
                self.owner.setdefault(name, h)
        names = set(self.bodies)
        self.direct, self.calls = {}, {}
        for name, bodies in self.bodies.items():
            body = "\n".join(bodies)
            uses = set(SFPI_WORDS.findall(body)) | {"sfpi::" + n for n in SFPI_OTHER.findall(body)}
            if DST_INDEXED.search(body):
                uses.add("dst_reg[]")
            self.direct[name] = uses
            self.calls[name] = {c for c in re.findall(r"\b(\w+)\s*(?:<[^;()]*>)?\s*\(", body)
                                if c in names and c != name}
        self._kind = {}

    def _reach(self, name, seen=()):
        yield name
        for c in self.calls[name]:
            if c not in seen:
                yield from self._reach(c, seen + (name,))

    def kind(self, name):
        if name not in self._kind:
            reach = set(self._reach(name))
            if any(self.direct[n] for n in reach):
                self._kind[name] = "sfpi"
            elif any(INSTRUCTION.search(" ".join(self.bodies[n])) or LLTT.search(" ".join(self.bodies[n]))
                     for n in reach):
                self._kind[name] = "tti"
            else:
                self._kind[name] = "plain"
        return self._kind[name]

    def instructions(self, name):
        """The instructions a function issues, its callees' included."""
        out = set()
        for n in set(self._reach(name)):
            for a, b in INSTRUCTION.findall(" ".join(self.bodies[n])):
                out.add((a or b).replace("SFP_STOCH_RND", "SFPSTOCHRND"))
        return out

    def header_functions(self, header):
        return sorted(n for n, h in self.owner.items() if h == header)

    def pure(self, header):
        """No SFPI code anywhere in the header: it builds with the shim."""
        fs = self.header_functions(header)
        return not any(self.kind(f) == "sfpi" for f in fs)

    def entry_points(self, header):
        """The header's tti functions tt-llk's callers use: its _underscored_ names."""
        return [f for f in self.header_functions(header)
                if self.kind(f) == "tti" and (f.startswith("_") or f.startswith("calculate_"))]


def tti_stub(survey):
    """ckernel_sfpu.h for SFPU builds with the stock compiler: tt-llk's own file with its
    includes kept in their order, minus every SFPU header with SFPI code in it (sfpi.h itself is
    the shim's). Headers tt-llk's file does not include (add_top_row, reduce_custom, ...) stay
    out too; the tests that use them include them themselves."""
    real = strip_comments((survey.dir.parent / "ckernel_sfpu.h").read_text())
    listed = re.findall(r'#include\s+"sfpu/(ckernel_sfpu_\w+\.h)"', real)
    lines = [
        "/* Generated by tensim-llk (llk_sfpu.py) from the tt-llk tree's SFPU headers: stands in",
        " * for tt-llk's common/inc/ckernel_sfpu.h in SFPU builds with the stock compiler. It",
        " * includes only the headers written with TTI_ macros alone (tensim-llk --sfpu-survey);",
        " * the others need SFPI's compiler. */",
        "#pragma once",
        "",
        "#include <limits>",
        "",
        '#include "ckernel.h"',
        '#include "ckernel_defs.h"',
        '#include "ckernel_globals.h"',
        '#include "sfpi.h"',
    ]
    lines += [f'#include "sfpu/{h}"' for h in listed if h in survey.headers and survey.pure(h)]
    return "\n".join(lines) + "\n"


def report(llk):
    """The survey as text, Blackhole and Wormhole B0."""
    out = []
    for arch in ("tt_llk_blackhole", "tt_llk_wormhole_b0"):
        s = Survey(llk, arch)
        if not s.headers:
            continue
        out.append(f"{arch}: {len(s.headers)} SFPU headers")
        for h in s.headers:
            fs = s.header_functions(h)
            n_sfpi = sum(s.kind(f) == "sfpi" for f in fs)
            entries = s.entry_points(h)
            state = "pure" if s.pure(h) else ("SFPI" if not entries else "mixed")
            out.append(f"  {h:36s} {state:5s} {n_sfpi:2d} SFPI function(s)")
            for e in entries:
                out.append(f"      {e:44s} {' '.join(sorted(s.instructions(e)))}")
    return "\n".join(out)
