"""The tt-llk Blackhole test variants tensim-llk knows: one table, one builder per family.

Each builder turns a variant's parameters into a Spec the way the matching pytest test of
tt-llk (tests/python_tests/test_*.py, perf_*.py) configures its TestConfig: the same template
parameters (build.h lines), runtime parameters (struct fields and values), stimuli layout in
L1, and golden. Stimuli come from a seeded numpy generator with the harness's value ranges.

Every Blackhole source of tests/sources (and streams/) that the stock compiler can build and
the harness runs on Blackhole has at least one variant, one per format family the test sweeps;
NOT_COVERED (at the end) lists the others and why. Besides the usual result tiles a test may
judge profiler zones (zone_check), raw L1 bytes it reads itself (raw_check, with l1_writes for
the host's own writes), or a selection of the result (select); a source that reads its formats
as constants builds with compile_time_formats, and one with several L1-to-L1 runs gets one
FormatConfig per run (formats as a list).
"""

import math
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

import llk_formats as F

STIMULI_ADDR = 0x21000
DEST_TILES_HALF = 8  # DestSync::SyncHalf holds 8 16-bit tiles (4 with a 32-bit Dst)
FIDELITY_PHASES = {"LoFi": 0, "HiFi2": 1, "HiFi3": 2, "HiFi4": 3}
RUN_TYPES = ["L1_TO_L1", "UNPACK_ISOLATE", "MATH_ISOLATE", "PACK_ISOLATE", "L1_CONGESTION"]


# ---------------------------------------------------------------------------------------------
# Template and runtime parameters, text for text as the harness's parameter classes write them.
# `columns` are the (name, value) pairs the perf report takes from each parameter's fields.

@dataclass
class Template:
    cpp: str
    columns: list = field(default_factory=list)


@dataclass
class Runtime:
    decls: list
    fmt: str
    values: list
    columns: list = field(default_factory=list)

    @property
    def cpp(self):
        """The parameter as constants, for tests that pass a runtime parameter class among
        their templates (its convert_to_cpp)."""
        def val(v):
            return ("true" if v else "false") if isinstance(v, bool) else str(v)
        return "\n".join(f"constexpr {d.rstrip(';')} = {val(v)};"
                         for d, v in zip(self.decls, self.values))


def MATH_FIDELITY(f):
    return Template(f"constexpr ckernel::MathFidelity MATH_FIDELITY = ckernel::MathFidelity::{f};",
                    [("math_fidelity", f"MathFidelity.{f}")])


def BROADCAST_TYPE(b="NONE"):
    name = {"NONE": "None_", "COL": "Column", "ROW": "Row", "SCALAR": "Scalar"}[b]
    return Template(f"constexpr auto BROADCAST_TYPE = ckernel::BroadcastType::{b};",
                    [("broadcast_type", f"BroadcastType.{name}")])


def MATH_OP(op=None, reduce_dim=None, pool=None):
    lines = ["\n// Math operation configuration"]
    if op:
        lines.append(f"constexpr auto ELTWISE_BINARY_OP = ckernel::EltwiseBinaryType::{op.upper()};")
        cols = [("mathop", f"MathOperation.{op.capitalize()}")]
    else:
        lines.append(f"constexpr auto REDUCE_DIM = ckernel::ReduceDim::REDUCE_{reduce_dim.upper()};")
        cols = [("mathop", f"MathOperation.Reduce{reduce_dim.capitalize()}")]
        if pool:  # (perf_reduce.py gives the pool type as a parameter of its own)
            lines.append(f"constexpr auto POOL_TYPE = ckernel::PoolType::{pool.upper()};")
            cols.append(("pool_type", f"ReducePool.{pool.capitalize()}"))
    return Template("\n".join(lines), cols)


def DEST_SYNC(mode="Half"):
    return Template(f"constexpr auto dest_sync = ckernel::DstSync::Sync{mode};",
                    [("dest_sync", f"DestSync.{mode}")])


def TILIZE(on):
    return Template(f"constexpr bool tilize_en = {'true' if on else 'false'};",
                    [("tilize", f"Tilize.{'Yes' if on else 'No'}")])


def PERF_RUN_TYPE(rt):
    return Template(f"\nconstexpr auto PERF_RUN_TYPE = PerfRunType::{rt};")


def TILE_DST_CT_OFFSET(n=0):
    return Template(f"constexpr std::uint32_t TILE_DST_CT_OFFSET = {n};", [("offset", n)])


def INPUT_DIMENSIONS_VALUES(a_dims, b_dims, block_ct=None, block_rt=None):
    full_rt, full_ct = a_dims[0] // 32, b_dims[1] // 32
    return [full_rt, full_ct, block_ct or full_ct, block_rt or full_rt]


def INPUT_DIMENSIONS_TEMPLATE(a_dims, b_dims, block_ct=None):
    v = INPUT_DIMENSIONS_VALUES(a_dims, b_dims, block_ct)
    names = ["FULL_RT_DIM", "FULL_CT_DIM", "BLOCK_CT_DIM", "BLOCK_RT_DIM"]
    return Template("\n".join(f"constexpr std::uint32_t {n} = {x};" for n, x in zip(names, v)),
                    list(zip(["full_rt_dim", "full_ct_dim", "block_ct_dim", "block_rt_dim"], v)))


def INPUT_DIMENSIONS_RUNTIME(a_dims, b_dims, block_ct=None):
    v = INPUT_DIMENSIONS_VALUES(a_dims, b_dims, block_ct)
    return Runtime(["std::uint32_t FULL_RT_DIM;", "std::uint32_t FULL_CT_DIM;",
                    "std::uint32_t BLOCK_CT_DIM;", "std::uint32_t BLOCK_RT_DIM;"], "IIII", v,
                   list(zip(["full_rt_dim", "full_ct_dim", "block_ct_dim", "block_rt_dim"], v)))


def _rt(name, ctype, code, value, col):
    return Runtime([f"{ctype} {name};"], code, [value], [(col, value)])


def UNPACK_TRANS_FACES(on=False):
    r = _rt("UNPACK_TRANSPOSE_FACES", "bool", "?", on, "unpack_transpose_faces")
    r.columns = [("unpack_transpose_faces", f"Transpose.{'Yes' if on else 'No'}")]
    return r


def UNPACK_TRANS_WITHIN_FACE(on=False):
    r = _rt("UNPACK_TRANSPOSE_WITHIN_FACE", "bool", "?", on, "unpack_transpose_within_face")
    r.columns = [("unpack_transpose_within_face", f"Transpose.{'Yes' if on else 'No'}")]
    return r


def TILE_COUNT(n):
    return _rt("TILE_CNT", "std::uint32_t", "I", n, "tile_cnt")


def DEST_INDEX(n=0):
    return _rt("DST_INDEX", "int", "i", n, "dst_index")


def INPUT_TILE_CNT(n):
    return _rt("INPUT_TILE_CNT", "int", "i", n, "tile_cnt")


def OUTPUT_TILE_CNT(n):
    return _rt("OUTPUT_TILE_CNT", "int", "i", n, "tile_cnt")


def REDUCE_TO_ONE(on=False):
    return _rt("IS_REDUCE_TO_ONE", "bool", "?", on, "is_reduce_to_one")


def NUM_TILES_IN_BLOCK(n, inp=None, out=None):
    v = [n, inp if inp is not None else n, out if out is not None else n]
    return Runtime(["std::uint32_t NUM_TILES_IN_BLOCK;", "std::uint32_t INPUT_NUM_TILES_IN_BLOCK;",
                    "std::uint32_t OUTPUT_NUM_TILES_IN_BLOCK;"], "III", v,
                   list(zip(["num_tiles_in_block", "input_num_tiles_in_block",
                             "output_num_tiles_in_block"], v)))


def NUM_BLOCKS(n, inp=None, out=None):
    v = [n, inp if inp is not None else n, out if out is not None else n]
    return Runtime(["int NUM_BLOCKS;", "int INPUT_NUM_BLOCKS;", "int OUTPUT_NUM_BLOCKS;"], "iii", v,
                   list(zip(["num_blocks", "input_num_blocks", "output_num_blocks"], v)))


def NUM_FACES(n=4, a=4, b=4):
    v = [n, a, b]
    return Runtime(["std::uint32_t num_faces;", "std::uint32_t num_faces_A;",
                    "std::uint32_t num_faces_B;"], "III", v,
                   list(zip(["num_faces", "num_faces_A", "num_faces_B"], v)))


def NUM_FACES_R_DIM(a, b=2):
    return Runtime(["int num_faces_r_dim_A;", "int num_faces_r_dim_B;"], "ii", [a, b],
                   [("num_faces_r_dim_A", a), ("num_faces_r_dim_B", b)])


def NUM_FACES_C_DIM(a, b=2):
    return Runtime(["int num_faces_c_dim_A;", "int num_faces_c_dim_B;"], "ii", [a, b],
                   [("num_faces_c_dim_A", a), ("num_faces_c_dim_B", b)])


def TEST_FACE_DIMS(r=16, c=16):
    return Runtime(["std::uint32_t TEST_FACE_R_DIM;", "std::uint32_t TEST_FACE_C_DIM;"], "II",
                   [r, c], [("face_r_dim", r), ("face_c_dim", c)])


def IN_FACE_DIMS(r=16, c=16):
    v = [r, c, r, c]
    return Runtime(["int in0_face_r_dim;", "int in0_face_c_dim;", "int in1_face_r_dim;",
                    "int in1_face_c_dim;"], "iiii", v,
                   list(zip(["in0_face_r_dim", "in0_face_c_dim", "in1_face_r_dim",
                             "in1_face_c_dim"], v)))


def CRK_TILE_DIMM(ct, rt, kt):
    return Runtime(["std::uint32_t CT_DIM;", "std::uint32_t RT_DIM;", "std::uint32_t KT_DIM;"],
                   "III", [ct, rt, kt], [("c_dimm", ct), ("r_dimm", rt), ("k_dimm", kt)])


def STOCHASTIC_ROUNDING(mode="None"):
    return Template(f"constexpr auto STOCHASTIC_RND = ckernel::StochRndType::{mode};",
                    [("stochastic_rnd", f"StochasticRounding.{'No' if mode == 'None' else mode}")])


def THROTTLE_LEVEL(n=0):
    return Template(f"constexpr int THROTTLE_LEVEL = {n};", [("throttle_level", n)])


def MATH_TRANSPOSE_FACES(on):
    return Template(f"constexpr bool MATH_TRANSPOSE_FACES = {'true' if on else 'false'};",
                    [("math_transpose_faces", f"Transpose.{'Yes' if on else 'No'}")])


def ACC_TO_DEST(on=False):
    return Template(f"constexpr bool ACC_TO_DEST = {'true' if on else 'false'};")


def REUSE_DEST_TYPE(kind="NONE"):
    return Template(f"constexpr auto REUSE_DEST_TYPE = ckernel::EltwiseBinaryReuseDestType::{kind};")


def DISABLE_SRC_ZERO_FLAG(on=False):
    return Template(f"constexpr bool disable_src_zero_flag = {'true' if on else 'false'};")


def CT_DIM(n):
    return Template(f"constexpr std::uint32_t CT_DIM = {n};", [("ct_dim", n)])


def REDUCE_POOL_TYPE(pool):
    return Template(f"constexpr auto POOL_TYPE = ckernel::PoolType::{pool.upper()};",
                    [("reduce_pool_type", f"ReducePool.{pool.capitalize()}")])


def PARTIAL_FACE(a=False, pack=False, b=False, math=False):
    v = [a, pack, b, math]
    return Runtime(["bool PARTIAL_FACE_A;", "bool PARTIAL_FACE_PACK;", "bool PARTIAL_FACE_B;",
                    "bool PARTIAL_FACE_MATH;"], "????", v,
                   list(zip(["partial_a", "partial_face_pack", "partial_b", "partial_face_math"], v)))


def IN_TILE_DIMS(r0=32, c0=32, r1=32, c1=32):
    v = [r0, c0, r1, c1]
    return Runtime(["std::uint32_t in0_tile_r_dim;", "std::uint32_t in0_tile_c_dim;",
                    "std::uint32_t in1_tile_r_dim;", "std::uint32_t in1_tile_c_dim;"], "IIII", v,
                   list(zip(["in0_r_dim", "in0_c_dim", "in1_r_dim", "in1_c_dim"], v)))


def L1_ACC(on=False):
    return _rt("L1_ACC", "int", "i", 1 if on else 0, "l1_acc")


def RELU_CONFIG(v=0):
    return _rt("RELU_CONFIG", "int", "i", v, "relu_config")


def NUM_ROWS_TO_PACK(n):
    return _rt("NUM_ROWS_TO_PACK", "std::uint32_t", "I", n, "num_rows_to_pack")


def LOOP_FACTOR(n=1):
    return _rt("LOOP_FACTOR", "std::uint32_t", "I", n, "loop_factor")


def NARROW_TILE(on=False):
    r = _rt("NARROW_TILE", "bool", "?", on, "narrow_tile")
    r.columns = [("narrow_tile", f"NarrowTile.{'Yes' if on else 'No'}")]
    return r


def harness_tile_sizes(spec_formats, in0_r_dim, num_faces=4, num_faces_a=4, face_r_dim=16):
    """TILE_SIZE_PACK/UNPACK_A/B when a test passes IN_TILE_DIMS with in0 rows <= 16: the
    harness scales the pack and unpack-A sizes by the faces kept (integer arithmetic, so a
    row count under the stimuli's face rows gives 0)."""
    sizes = [F.runtime_tile_size(spec_formats["pack_dst"]),
             F.runtime_tile_size(spec_formats["unpack_A_src"]),
             F.runtime_tile_size(spec_formats["unpack_B_src"])]
    if in0_r_dim <= 16:
        sizes[0] = (sizes[0] // num_faces) * (in0_r_dim // face_r_dim)
        sizes[1] = (sizes[1] // (num_faces_a or num_faces)) * (in0_r_dim // face_r_dim)
    return sizes


# ---------------------------------------------------------------------------------------------
# Stimuli: operands A, B (and C) from 0x21000, tile after tile, as StimuliConfig writes them.

@dataclass
class Stimuli:
    a: np.ndarray            # values in the order they are written (None: not written)
    fmt_a: str
    b: np.ndarray
    fmt_b: str
    fmt_res: str
    tiles_a: int
    tiles_b: int
    tiles_res: int
    num_faces: int = 4
    face_r_dim: int = 16
    tile_dims: tuple = (32, 32)
    dense: bool = False      # use_dense_tile_dimensions: tiles packed back to back
    c: np.ndarray = None     # a third operand (buffer_C), written after B
    fmt_c: str = None
    tiles_c: int = 0
    full_tiles: bool = False  # write_full_tiles: all 1024 datums of each tile, whatever num_faces
    res_tile_size: int = None  # operand_res_tile_size: the result operand's tile size
    zero_result: bool = False  # the host clears the result tiles before the run

    def __post_init__(self):
        self.size_a = F.tile_size_bytes(self.fmt_a, self.tile_dims)
        self.size_b = F.tile_size_bytes(self.fmt_b, self.tile_dims)
        self.size_res = F.tile_size_bytes(self.fmt_res, self.tile_dims)
        self.addr_a = STIMULI_ADDR
        self.addr_b = self.addr_a + self.size_a * self.tiles_a
        self.addr_res = self.addr_b + self.size_b * self.tiles_b
        if self.has_c:
            self.size_c = F.tile_size_bytes(self.fmt_c, self.tile_dims)
            self.addr_c = self.addr_res
            self.addr_res = self.addr_c + self.size_c * self.tiles_c

    @property
    def has_c(self):
        return self.c is not None

    @property
    def res_operand_size(self):
        return self.res_tile_size if self.res_tile_size is not None else self.size_res

    def operand_values(self):
        v = [self.addr_a, self.size_a, self.addr_b, self.size_b, self.addr_res, self.res_operand_size]
        if self.has_c:
            v += [self.addr_c, self.size_c]
        return v

    def _elements_per_tile(self):
        return self.num_faces * self.face_r_dim * F.FACE_C_DIM

    def _write(self, values, fmt, tiles, tile_bytes):
        """Bytes of one operand: each tile packed alone at its slot (the dense layout strides
        the values by the tile's datums, the other by a whole 32x32 tile)."""
        out = bytearray(tile_bytes * tiles)
        if self.dense:
            per_tile = stride = self.tile_dims[0] * self.tile_dims[1]
        else:
            per_tile, stride = (1024 if self.full_tiles else self._elements_per_tile()), 1024
        for t in range(tiles):
            chunk = values[t * stride:t * stride + per_tile]
            data = F.pack(chunk, fmt)
            out[t * tile_bytes:t * tile_bytes + len(data)] = data
        return bytes(out)

    def image(self):
        """The bytes from addr_a on (None when the variant writes no stimuli): A, B, C, and the
        cleared result tiles when the host clears them."""
        if self.a is None:
            return None
        img = (self._write(self.a, self.fmt_a, self.tiles_a, self.size_a) +
               self._write(self.b, self.fmt_b, self.tiles_b, self.size_b))
        if self.has_c:
            img += self._write(self.c, self.fmt_c, self.tiles_c, self.size_c)
        if self.zero_result:
            zeros = np.zeros(1024 * self.tiles_res, dtype=np.float32)
            img += self._write(zeros, self.fmt_res, self.tiles_res, self.res_operand_size)
        return img

    def result_length(self):
        return self.size_res * self.tiles_res

    def read_result(self, data):
        """Result values from the bytes read at addr_res, as collect_results unpacks them."""
        vals = []
        needed = self._elements_per_tile()
        if self.dense:
            needed = self.tile_dims[0] * self.tile_dims[1]
        for t in range(self.tiles_res):
            tile = data[t * self.size_res:(t + 1) * self.size_res]
            vals.append(F.unpack(tile, self.fmt_res, needed))
        return np.concatenate(vals)


@dataclass
class Spec:
    name: str
    source: str                  # test source, relative to tests/
    formats: object              # the eleven FormatConfig fields (a list: one per L1-to-L1 run)
    templates: list
    runtimes: list
    stimuli: Stimuli
    golden: np.ndarray = None
    out_fmt: str = "Float16_b"
    dest_acc: bool = False
    unpack_to_dest: bool = False
    l1_acc: bool = False
    profiler: bool = False
    run_type: str = None
    tolerance_scale: float = 1.0
    pcc_target: float = None
    params: dict = field(default_factory=dict)
    run_types: list = field(default_factory=lambda: list(RUN_TYPES))
    compile_time_formats: bool = False
    tile_size_override: list = None  # [pack, unpack A, unpack B] when the harness adjusts them
    select: object = None        # result values -> the values the test compares
    exact: bool = False          # the test also asks for bit-exact equality
    atol: float = None           # the test's own tolerances, when it passes them
    rtol: float = None
    zone_check: object = None    # zones -> (ok, why) for tests of the profiler itself
    header_operands: bool = False  # build.h also names the operands as constants
    l1_writes: list = field(default_factory=list)  # (addr, bytes) the test writes besides stimuli
    raw_check: tuple = None      # ([(addr, length)], [bytes] -> (ok, why)): L1 read back, judged
    sfpu_tti: bool = False       # built against the TTI-only ckernel_sfpu.h (llk_sfpu.py)

    @property
    def final_formats(self):
        return self.formats[-1] if isinstance(self.formats, list) else self.formats

    @property
    def tile_sizes(self):
        if self.tile_size_override is not None:
            return list(self.tile_size_override)
        if self.formats is None:
            return [128, 128, 128]
        first = self.formats[0] if isinstance(self.formats, list) else self.formats
        return [F.runtime_tile_size(first["pack_dst"]),
                F.runtime_tile_size(first["unpack_A_src"]),
                F.runtime_tile_size(first["unpack_B_src"])]


# ---------------------------------------------------------------------------------------------
# Stimuli values (the harness's generate_random_face ranges) and golden helpers.

def random_values(rng, fmt, n, sfpu=True, negative=False):
    if fmt in ("Bfp8_b", "Bfp4_b"):
        low = -1 if negative else 0
        ints = rng.integers(low, 3, n)
        frac = rng.integers(0, 16 if fmt == "Bfp8_b" else 8, n) / (16.0 if fmt == "Bfp8_b" else 8.0)
        v = F.to_bf16((ints + frac).astype(np.float32))
        return F.bfp_round_trip(v, "Bfp4_b") if fmt == "Bfp4_b" else v
    if fmt in F.INTEGER:
        hi = {"Int8": 63, "Int32": 2**30 - 1, "UInt8": 127, "UInt16": 16383, "UInt32": 2**31}[fmt]
        lo = -hi if (negative and fmt.startswith("Int")) else 0
        return rng.integers(lo, hi, n).astype(np.int64)
    v = F.as_format(rng.random(n, dtype=np.float32), fmt)
    if negative:
        v = F.as_format(v * 2 - 1, fmt)
    if sfpu:
        v = F.as_format(v + np.float32(0.1), fmt)
    return v


def quantize_input(values, fmt):
    """What the unpacker delivers of L1 values: BFP blocks in L1 order."""
    if fmt in ("Bfp8_b", "Bfp4_b"):
        return F.bfp_round_trip(values, fmt).reshape(np.shape(values))
    return F.as_format(values, fmt)


def quantize_output(values, fmt):
    if fmt in ("Bfp8_b", "Bfp4_b"):
        return F.bfp_round_trip(F.to_bf16(values), fmt).reshape(np.shape(values))
    return F.as_format(values, fmt)


def fidelity_mask(values, fmt, phase, operand):
    """The harness's model of one fidelity phase: operand A (srcB side in the FPU's naming)
    keeps mantissa bits by phase, as TF32 with an explicit leading one."""
    masks = [(0b11111000000, 0b11111110000), (0b00000111110, 0b11111110000),
             (0b11111000000, 0b00000001111), (0b00000111110, 0b00000001111)]
    mask = masks[phase][0 if operand == "a" else 1]
    v = np.asarray(values, dtype=np.float32)
    if fmt == "Float16":
        raw = v.astype(np.float16).view(np.uint16).astype(np.int64)
        sign, exp, mant = raw >> 15, ((raw >> 10) & 0x1F) - 15, (raw & 0x3FF) | 0x400
    elif fmt == "Float32":
        raw = v.view(np.uint32).astype(np.int64)
        sign, exp = raw >> 31, ((raw >> 23) & 0xFF) - 127
        mant = ((raw & 0x7FFFFF) >> 13) | 0x400
    else:
        raw = (F.to_bf16(v).view(np.uint32) >> 16).astype(np.int64)
        sign, exp = raw >> 15, ((raw >> 7) & 0xFF) - 127
        mant = ((raw & 0x7F) << 3) | 0x400
    mant = mant & mask
    out = np.where(sign == 1, -1.0, 1.0) * np.exp2(exp.astype(np.float64)) * (mant / 1024.0)
    return F.as_format(out.astype(np.float32), "Float32" if fmt == "Float32" else fmt)


def blocks_for(n_tiles, dest_acc, in_fmt, out_fmt, sync_tiles=DEST_TILES_HALF):
    """(num_blocks, tiles per block) as get_num_blocks_and_num_tiles_in_block (Standard)."""
    div = 2 if (dest_acc or in_fmt in F.THIRTY_TWO_BIT or F.is_outlier(in_fmt, out_fmt, dest_acc)) else 1
    cap = sync_tiles // div
    if n_tiles > cap and n_tiles % cap:
        raise ValueError(f"{n_tiles} tiles do not split into blocks of {cap}")
    nb = math.ceil(n_tiles / cap)
    return nb, math.ceil(n_tiles / nb)


def formats_for(p):
    dest_acc = p["dest_acc"] or F.is_outlier(p["in"], p["out"], p["dest_acc"])
    return dest_acc, F.infer_formats(p["in"], p["out"], dest_acc, p.get("unpack_to_dest", False))


# ---------------------------------------------------------------------------------------------
# Goldens shared by the families.

def eltwise_golden(op, ga, gb, in_fmt, out_fmt, fidelity="LoFi"):
    """EltwiseBinaryGolden on unpacked operands ga, gb (values as the unpacker delivers them)."""
    if out_fmt in F.INTEGER:
        ia, ib = np.asarray(ga, dtype=np.int64), np.asarray(gb, dtype=np.int64)
        return {"elwadd": ia + ib, "elwsub": ia - ib, "elwmul": ia * ib}[op]
    if op == "elwmul":
        ffmt = "Float16_b" if in_fmt in ("Bfp8_b", "Bfp4_b") else out_fmt
        # As EltwiseBinaryGolden does: each phase masks the previous phase's masked operands
        # (so phases after the first add next to nothing; the tolerance absorbs the rest).
        res, ma, mb = 0, ga, gb
        for ph in range(FIDELITY_PHASES[fidelity] + 1):
            ma, mb = fidelity_mask(ma, ffmt, ph, "a"), fidelity_mask(mb, ffmt, ph, "b")
            res = res + ma.astype(np.float64) * mb.astype(np.float64)
        golden = res
    else:
        golden = ga.astype(np.float64) + (gb if op == "elwadd" else -gb.astype(np.float64))
    return quantize_output(np.asarray(golden, dtype=np.float32), out_fmt)


def matmul_golden(qa, qb, out_fmt, fidelity):
    """MatmulGolden: qa (M x K) times qb (K x N), row-major, operands in the output format;
    below HiFi4 the sum over the fidelity phases of the masked products."""
    qa, qb = F.as_format(qa, out_fmt), F.as_format(qb, out_fmt)
    phases = FIDELITY_PHASES[fidelity]
    if phases == 3:
        res = qa.astype(np.float64) @ qb.astype(np.float64)
    else:
        res = 0
        for ph in range(phases + 1):
            ma = fidelity_mask(qa, out_fmt, ph, "a").astype(np.float64)
            mb = fidelity_mask(qb, out_fmt, ph, "b").astype(np.float64)
            res = res + F.as_format((ma @ mb).astype(np.float32), out_fmt)
    # (cast to the output's torch type: a BFP output is compared as bfloat16)
    return F.as_format(np.asarray(res, dtype=np.float32), out_fmt)


def tile_transpose(flat):
    """Each 32x32 tile (face layout) transposed: faces f0 f2 f1 f3, each face transposed
    (TransposeGolden's transpose_faces then transpose_within_faces)."""
    faces = np.asarray(flat).reshape(-1, 4, 16, 16)[:, [0, 2, 1, 3]]
    return faces.swapaxes(2, 3).reshape(-1)


def broadcast_golden(kind, flat, tiles, num_faces=4, face_r_dim=16):
    """BroadcastGolden on tiles in face layout: COL repeats the first datum of each row of faces
    0 and 2 across the row (faces 1 and 3 copy faces 0 and 2), ROW repeats the first row of
    faces 0 and 1 down the face (faces 2 and 3 copy them), SCALAR the tile's first datum."""
    out = []
    for t in np.asarray(flat).reshape(tiles, -1)[:, :face_r_dim * 16 * num_faces]:
        f = t.reshape(num_faces, face_r_dim, 16)
        if kind == "SCALAR":
            out.append(np.full_like(t, t[0]))
            continue
        if kind == "COL":
            src = [np.repeat(f[i][:, :1], 16, axis=1) for i in ([0, 0, 2, 2] if num_faces == 4
                                                                 else [0] * num_faces)]
        else:
            src = [np.tile(f[i][0], (face_r_dim, 1)) for i in [0, 1, 0, 1][:num_faces]]
        out.append(np.concatenate([x.ravel() for x in src]))
    return np.concatenate(out)


def relu_config(kind, threshold, pack_src):
    """RELU_CONFIG as PackGolden builds it: mode in bits 0-1, threshold bits in 16-31 (as FP16
    for a Float16 packer source, else as the top half of FP32)."""
    mode = {"none": 0, "zero": 1, "min": 2, "max": 3}[kind]
    bits = 0
    if mode >= 2:
        if pack_src in ("Float16", "Bfp8"):
            bits = int(np.float16(threshold).view(np.uint16))
        else:
            bits = int(np.float32(threshold).view(np.uint32)) >> 16
    return mode | (bits << 16), bits


def apply_relu(values, kind, bits, pack_src):
    if kind == "none":
        return values
    if kind == "zero":
        return np.maximum(values, 0)
    if pack_src in ("Float16", "Bfp8"):
        thr = float(np.uint16(bits).view(np.float16))
    else:
        thr = float(np.uint32(bits << 16).view(np.float32))
    if kind == "min":
        return np.where(values <= thr, 0, values)
    return np.clip(values, 0, thr)


# ---------------------------------------------------------------------------------------------
# Families.

def eltwise_binary(name, p, rng):
    """test_zzz_eltwise_binary.py (32x32 tiles): A op B on tilized tiles; optionally B
    broadcast (bcast) and A transposed by the unpacker (transpose: faces and within faces)."""
    rows, cols = p["rows"], p["cols"]
    dest_acc, formats = formats_for(p)
    tiles = (rows // 32) * (cols // 32)
    a = random_values(rng, p["in"], rows * cols)
    b = random_values(rng, p["in"], rows * cols)
    a_t, b_t = F.tilize(a.reshape(rows, cols)), F.tilize(b.reshape(rows, cols))
    eff_acc = True if p["out"] == "Float32" else p["dest_acc"]
    nb, tib = blocks_for(tiles, eff_acc, p["in"], p["out"])
    ga, gb = quantize_input(a_t, p["in"]), quantize_input(b_t, p["in"])
    op, bcast, transpose = p["op"], p.get("bcast", "NONE"), p.get("transpose", False)
    if transpose:
        ga = tile_transpose(ga)
    if bcast != "NONE":
        gb = broadcast_golden(bcast, gb, tiles)
    golden = eltwise_golden(op, ga, gb, p["in"], p["out"], p["fidelity"])
    return Spec(
        name, "sources/eltwise_binary_test.cpp", formats,
        [MATH_FIDELITY(p["fidelity"]), BROADCAST_TYPE(bcast), MATH_OP(op=op), DEST_SYNC()],
        [UNPACK_TRANS_FACES(transpose), UNPACK_TRANS_WITHIN_FACE(transpose), NUM_TILES_IN_BLOCK(tib),
         NUM_BLOCKS(nb), NUM_FACES_R_DIM(2), NUM_FACES_C_DIM(2), TEST_FACE_DIMS(16)],
        Stimuli(a_t, p["in"], b_t, p["in"], p["out"], tiles, tiles, tiles, dense=True),
        golden, p["out"], dest_acc)


def unary_datacopy(name, p, rng):
    """test_eltwise_unary_datacopy.py (no tilize): A copied through Dst to L1."""
    rows, cols = p["rows"], p["cols"]
    tiles = (rows // 32) * (cols // 32)
    dest_acc = p["dest_acc"] or F.is_outlier(p["in"], p["out"], p["dest_acc"])
    to_dest = p["in"] in F.THIRTY_TWO_BIT and dest_acc
    formats = F.infer_formats(p["in"], p["out"], dest_acc, to_dest)
    a = random_values(rng, p["in"], rows * cols)
    b = random_values(rng, p["in"], rows * cols)
    nb, tib = blocks_for(tiles, dest_acc, p["in"], p["out"])
    golden = quantize_output(quantize_input(a, p["in"]).astype(np.float32), p["out"])
    return Spec(
        name, "sources/eltwise_unary_datacopy_test.cpp", formats,
        [INPUT_DIMENSIONS_TEMPLATE((rows, cols), (rows, cols)), TILIZE(False)],
        [DEST_INDEX(0), TILE_COUNT(tiles), NUM_FACES(4), NUM_BLOCKS(nb), NUM_TILES_IN_BLOCK(tib)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles),
        golden, p["out"], dest_acc, unpack_to_dest=to_dest)


def matmul(name, p, rng, source="sources/matmul_test.cpp"):
    """test_matmul.py (and test_matmul_custom.py, the same test of matmul_custom_test.cpp):
    A[rt x kt tiles] x B[kt x ct tiles], result tilized."""
    rt, ct, kt = p["rt"], p["ct"], p["kt"]
    m, k, n = rt * 32, kt * 32, ct * 32
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], m * k, sfpu=False).reshape(m, k)
    b = random_values(rng, p["in"], k * n, sfpu=False).reshape(k, n)
    a_t, b_t = F.tilize(a), F.tilize(b)
    if p["in"] == "Bfp8_b":
        # The harness writes Bfp8_b stimuli as generated (no tilize) and its golden reads them
        # as tiles: the matrices are the untilized L1 contents, BFP blocks as laid out.
        a_t, b_t = a.ravel(), b.ravel()
    qa = F.untilize(quantize_input(a_t, p["in"]), m, k)
    qb = F.untilize(quantize_input(b_t, p["in"]), k, n)
    golden = F.tilize(matmul_golden(qa, qb, p["out"], p["fidelity"]))
    tiles_out = rt * ct
    return Spec(
        name, source, formats,
        [MATH_FIDELITY(p["fidelity"])],
        [NUM_FACES(), TILE_COUNT(tiles_out), CRK_TILE_DIMM(ct, rt, kt)],
        Stimuli(a_t, p["in"], b_t, p["in"], p["out"], rt * kt, kt * ct, tiles_out),
        golden, p["out"], dest_acc)


def reduce(name, p, rng):
    """test_reduce.py (32x32 tiles, not reduced to one): per tile, pool rows, columns or the
    whole tile. B is the one scaler tile (1, or 1/32 for an average). The test skips LoFi for
    Float16_b and Float32 inputs and uses 256x32 inputs (8 tiles)."""
    tiles = p["tiles"]
    dest_acc = p["in"] in F.THIRTY_TWO_BIT or F.is_outlier(p["in"], p["out"], False)
    formats = F.infer_formats(p["in"], p["out"], dest_acc)
    a = random_values(rng, p["in"], tiles * 1024)
    b = np.ones(1024, dtype=np.float32)
    if p["pool"] == "avg":
        b[:] = 1.0 / 32
    _, tib = blocks_for(tiles, dest_acc, p["in"], p["out"])
    qa = quantize_input(a, p["in"]).reshape(tiles, 1024)
    golden = np.zeros((tiles, 1024), dtype=np.float64)
    pool = {"max": np.max, "sum": np.sum, "avg": np.mean}[p["pool"]]
    for t in range(tiles):
        mat = F.untilize(qa[t], 32, 32)
        out = np.zeros((32, 32))
        if p["dim"] == "row":
            out[:, 0] = pool(mat, axis=1)
        elif p["dim"] == "col":
            out[0, :] = pool(mat, axis=0)
        else:  # scalar: the whole tile into datum 0
            out[0, 0] = pool(mat)
        golden[t] = F.tilize(out)
    golden = quantize_output(golden.astype(np.float32).ravel(), p["out"])
    return Spec(
        name, "sources/reduce_test.cpp", formats,
        [MATH_OP(reduce_dim=p["dim"], pool=p["pool"]), MATH_FIDELITY(p["fidelity"])],
        [IN_FACE_DIMS(16, 16), INPUT_TILE_CNT(tiles), OUTPUT_TILE_CNT(tiles), NUM_TILES_IN_BLOCK(tib),
         REDUCE_TO_ONE(False), NUM_FACES_R_DIM(2), NUM_FACES_C_DIM(2)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, 1, tiles, dense=True),
        golden, p["out"], dest_acc)


def unpack_tilize(name, p, rng):
    """test_zzz_unpack_tilize.py: row-major A tilized by the unpacker."""
    rows, cols = p["rows"], p["cols"]
    tiles = (rows // 32) * (cols // 32)
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], rows * cols)
    b = random_values(rng, p["in"], rows * cols)
    nb, tib = blocks_for(tiles, dest_acc, p["in"], p["out"])
    golden = quantize_output(F.tilize(quantize_input(a, p["in"]).reshape(rows, cols)), p["out"])
    return Spec(
        name, "sources/unpack_tilize_test.cpp", formats, [],
        [INPUT_DIMENSIONS_RUNTIME((rows, cols), (rows, cols)), TILE_COUNT(tiles), NUM_FACES(4),
         NUM_BLOCKS(nb), NUM_TILES_IN_BLOCK(tib)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles),
        golden, p["out"], dest_acc)


def pack_untilize(name, p, rng):
    """test_zzz_pack_untilize.py: tilized A written back row-major by the packer."""
    rows, cols = p["rows"], p["cols"]
    tiles = (rows // 32) * (cols // 32)
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], rows * cols, sfpu=False)
    b = random_values(rng, p["in"], rows * cols, sfpu=False)
    # Untilize algorithm: one tile row per block, as many tiles as Dst holds.
    row_tiles = cols // 32
    div = 2 if (dest_acc or p["in"] in F.THIRTY_TWO_BIT) else 1
    cap = DEST_TILES_HALF // div
    block_ct = math.ceil(row_tiles / math.ceil(row_tiles / cap))
    golden = quantize_output(F.untilize(quantize_input(a, p["in"]), rows, cols).ravel(), p["out"])
    return Spec(
        name, "sources/pack_untilize_test.cpp", formats,
        [INPUT_DIMENSIONS_TEMPLATE((rows, cols), (rows, cols), block_ct), DEST_SYNC(),
         TILE_DST_CT_OFFSET(0)],
        [TILE_COUNT(tiles), NUM_FACES(4)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles),
        golden, p["out"], dest_acc, unpack_to_dest=p["in"] in F.THIRTY_TWO_BIT and dest_acc)


def eltwise_binary_perf(name, p, rng):
    """perf_eltwise_binary_fpu.py: TILE_CNT tiles per run type, stimuli not written."""
    tiles = p["tiles"]
    dest_acc, formats = formats_for(p)
    return Spec(
        name, "sources/eltwise_binary_fpu_perf.cpp", formats,
        [MATH_FIDELITY(p["fidelity"]), MATH_OP(op=p["op"])],
        [TILE_COUNT(tiles)],
        Stimuli(None, p["in"], None, p["in"], p["out"], tiles, tiles, tiles),
        None, p["out"], dest_acc, profiler=True)


def unpack_tilize_perf(name, p, rng):
    """perf_unpack_tilize.py: tilize rt x ct tiles LOOP_FACTOR times (no MATH_ISOLATE run)."""
    rows, cols = p["rows"], p["cols"]
    tiles = (rows // 32) * (cols // 32)
    dest_acc, formats = formats_for(p)
    spec = Spec(
        name, "sources/unpack_tilize_perf.cpp", formats, [],
        [INPUT_DIMENSIONS_RUNTIME((rows, cols), (rows, cols)), TILE_COUNT(tiles),
         Runtime(["std::uint32_t LOOP_FACTOR;"], "I", [p["loop_factor"]],
                 [("loop_factor", p["loop_factor"])])],
        Stimuli(None, p["in"], None, p["in"], p["out"], tiles, tiles, tiles),
        None, p["out"], dest_acc, profiler=True)
    spec.run_types = ["L1_TO_L1", "UNPACK_ISOLATE", "PACK_ISOLATE", "L1_CONGESTION"]
    return spec


def _tiles(rows, cols):
    return (rows // 32) * (cols // 32)


def _mm_operands(rng, p, m, k, n, sfpu=False):
    """Row-major operands of an m x k by k x n matmul and what the unpacker makes of them."""
    a = random_values(rng, p["in"], m * k, sfpu=sfpu).reshape(m, k)
    b = random_values(rng, p["in"], k * n, sfpu=sfpu).reshape(k, n)
    return a, b, quantize_input(a, p["in"]), quantize_input(b, p["in"])


def matmul_full(name, p, rng, source):
    """test_math_matmul.py and test_unpack_matmul.py (the same configuration, two sources): the
    sweep's 32x32-tile case (4 faces each, no transpose, no partial faces), tilized operands,
    tilized golden, result tiles packed from DST_INDEX on."""
    rt, ct, kt = p["rt"], p["ct"], p["kt"]
    dest_acc, formats = formats_for(p)
    a, b, qa, qb = _mm_operands(rng, p, rt * 32, kt * 32, ct * 32)
    golden = F.tilize(matmul_golden(qa, qb, p["out"], p["fidelity"]))
    return Spec(
        name, source, formats,
        [STOCHASTIC_ROUNDING(), MATH_FIDELITY(p["fidelity"]), THROTTLE_LEVEL(p["throttle"]),
         DEST_SYNC(p["sync"])],
        [TILE_COUNT(rt * ct), NUM_FACES(4, 4, 4), UNPACK_TRANS_FACES(False),
         UNPACK_TRANS_WITHIN_FACE(False), PARTIAL_FACE(), CRK_TILE_DIMM(ct, rt, kt), IN_TILE_DIMS(),
         DEST_INDEX(p["dst_index"])],
        Stimuli(F.tilize(a), p["in"], F.tilize(b), p["in"], p["out"], rt * kt, kt * ct, rt * ct),
        golden, p["out"], dest_acc)


def l1_view(tilized, tiles, rows):
    """convert_to_l1_view for rows x 32 tiles (rows <= 16): per 32x32 tile, the first rows of
    face 0 then of face 1, moved to the tile's start; the rest zero."""
    faces = np.asarray(tilized).reshape(tiles, 4, 16, 16)
    out = np.zeros((tiles, 1024), dtype=faces.dtype)
    out[:, :rows * 32] = faces[:, :2, :rows, :].reshape(tiles, -1)
    return out.ravel()


def matmul_tiny(name, p, rng, source):
    """test_math_matmul.py / test_unpack_matmul.py, the sweep's tiny-tile case: in0 one
    in0_r x 32 tile (2 faces of in0_r rows, partial faces), in1 32 x 32*ct; the result tiles
    hold in0_r x 32 datums each, and the test compares those (per tile; here all together)."""
    r, ct = p["in0_r"], p["ct"]
    dest_acc, formats = formats_for(p)
    a, b, qa, qb = _mm_operands(rng, p, 32, 32, 32 * ct)
    a[r:, :] = 0
    qa[r:, :] = 0
    golden = l1_view(F.tilize(matmul_golden(qa, qb, p["out"], p["fidelity"])), ct, r)
    golden = golden.reshape(ct, 1024)[:, :r * 32].ravel()
    spec = Spec(
        name, source, formats,
        [STOCHASTIC_ROUNDING(), MATH_FIDELITY(p["fidelity"]), THROTTLE_LEVEL(0), DEST_SYNC()],
        [TILE_COUNT(ct), NUM_FACES(2, 2, 4), UNPACK_TRANS_FACES(False),
         UNPACK_TRANS_WITHIN_FACE(False), PARTIAL_FACE(a=True, pack=True, b=False, math=r < 16),
         CRK_TILE_DIMM(ct, 1, 1), IN_TILE_DIMS(r, 32, 32, 32), DEST_INDEX(0)],
        Stimuli(l1_view(F.tilize(a), 1, r), p["in"], F.tilize(b), p["in"], p["out"], 1, ct, ct),
        golden, p["out"], dest_acc)
    spec.tile_size_override = harness_tile_sizes(formats, r, 2, 2)
    spec.select = lambda got: got.reshape(ct, 1024)[:, :r * 32].ravel()
    return spec


def matmul_pack_untilize(name, p, rng):
    """test_matmul_pack_untilize.py: one tile times one tile, the packer writes the product
    row-major (golden not tilized)."""
    dest_acc, formats = formats_for(p)
    a, b, qa, qb = _mm_operands(rng, p, 32, 32, 32, sfpu=True)
    golden = matmul_golden(qa, qb, p["out"], p["fidelity"]).ravel()
    return Spec(
        name, "sources/matmul_pack_untilize_test.cpp", formats,
        [INPUT_DIMENSIONS_TEMPLATE((32, 32), (32, 32)), MATH_FIDELITY(p["fidelity"])], [],
        Stimuli(F.tilize(a), p["in"], F.tilize(b), p["in"], p["out"], 1, 1, 1),
        golden, p["out"], dest_acc)


def matmul_unpack_tilize(name, p, rng):
    """test_matmul_unpack_tilize.py: two L1-to-L1 runs (tilize A and B to L1 scratch, then
    matmul them); row-major operands, tilized golden; formats per run (input to input, then
    input to output)."""
    dest_acc, final = formats_for(p)
    first = F.infer_formats(p["in"], p["in"], dest_acc)
    a, b, qa, qb = _mm_operands(rng, p, 32, 32, 32, sfpu=True)
    golden = F.tilize(matmul_golden(qa, qb, p["out"], p["fidelity"]))
    spec = Spec(
        name, "sources/matmul_unpack_tilize_test.cpp", [first, final],
        [INPUT_DIMENSIONS_TEMPLATE((32, 32), (32, 32)), MATH_FIDELITY(p["fidelity"])], [],
        Stimuli(a.ravel(), p["in"], b.ravel(), p["in"], p["out"], 1, 1, 1),
        golden, p["out"], dest_acc)
    if p["out"] == "Bfp8_b":
        spec.pcc_target = 0.99 ** 2
    return spec


def unpack_bcast(name, p, rng):
    """test_zzz_bcast.py (unpack_A_test.cpp; the test_unpack_A.py sweep of the same source is
    skipped on Blackhole): one 32x32 tile through unpack A with a broadcast, datacopy, pack;
    Float32/Float16_b results must also be bit-exact."""
    fmt, dest_acc = p["in"], p["dest_acc"]
    to_dest = fmt in F.THIRTY_TWO_BIT and dest_acc
    formats = F.infer_formats(fmt, fmt, dest_acc, to_dest)
    a = random_values(rng, fmt, 1024)
    b = random_values(rng, fmt, 1024)
    qa = quantize_input(a, fmt)
    golden = qa if p["bcast"] == "NONE" else broadcast_golden(p["bcast"], qa, 1)
    nb, tib = blocks_for(1, False, fmt, fmt)
    spec = Spec(
        name, "sources/unpack_A_test.cpp", formats,
        [STOCHASTIC_ROUNDING(), BROADCAST_TYPE(p["bcast"]), ACC_TO_DEST(False), REUSE_DEST_TYPE(),
         PARTIAL_FACE(), DISABLE_SRC_ZERO_FLAG(False)],
        [UNPACK_TRANS_FACES(False), UNPACK_TRANS_WITHIN_FACE(False), NUM_FACES(4), TILE_COUNT(1),
         TEST_FACE_DIMS(16), NUM_TILES_IN_BLOCK(tib), NUM_BLOCKS(nb)],
        Stimuli(a, fmt, b, fmt, fmt, 1, 1, 1, dense=True),
        quantize_output(golden, fmt), fmt, dest_acc, unpack_to_dest=to_dest)
    spec.exact = fmt in ("Float32", "Float16_b")
    return spec


def unpack_untilize(name, p, rng):
    """test_unpack_untilize.py: tiles untilized by the unpacker (32-bit Dst, as the test asks)."""
    rows, cols = p["rows"], p["cols"]
    tiles = _tiles(rows, cols)
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], rows * cols)
    b = random_values(rng, p["in"], rows * cols)
    golden = F.untilize(quantize_input(a, p["in"]), rows, cols).ravel()
    return Spec(
        name, "sources/unpack_untilize_test.cpp", formats,
        [INPUT_DIMENSIONS_TEMPLATE((rows, cols), (rows, cols))], [TILE_COUNT(tiles)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles),
        quantize_output(golden, p["out"]), p["out"], dest_acc)


def unpack_tilize_sweep(name, p, rng):
    """test_unpack_tilize_sweep.py: row-major A tilized by the unpacker, num_faces faces kept
    per tile (full tiles written to L1)."""
    rows, cols, nf = p["rows"], p["cols"], p["num_faces"]
    tiles = _tiles(rows, cols)
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], rows * cols)
    b = random_values(rng, p["in"], rows * cols)
    golden = F.tilize(quantize_input(a, p["in"]).reshape(rows, cols))
    golden = golden.reshape(tiles, 1024)[:, :nf * 256].ravel()
    return Spec(
        name, "sources/unpack_tilize_sweep_test.cpp", formats, [STOCHASTIC_ROUNDING()],
        [INPUT_DIMENSIONS_RUNTIME((rows, cols), (rows, cols)), UNPACK_TRANS_FACES(False),
         UNPACK_TRANS_WITHIN_FACE(False), NARROW_TILE(False), NUM_FACES(nf), TILE_COUNT(tiles)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles, num_faces=nf,
                full_tiles=True),
        quantize_output(golden, p["out"]), p["out"], dest_acc,
        unpack_to_dest=p["in"] in ("Int32", "UInt32"))


def pack(name, p, rng):
    """test_zzz_pack.py: tiles through Dst to L1 with the packer's ReLU (threshold: the
    golden's mean, encoded for the packer's source format as the test does)."""
    rows, cols = p["rows"], p["cols"]
    tiles = _tiles(rows, cols)
    dest_acc, _ = formats_for(p)
    to_dest = p["in"] in F.THIRTY_TWO_BIT and dest_acc
    formats = F.infer_formats(p["in"], p["out"], dest_acc, to_dest)
    a = random_values(rng, p["in"], rows * cols)
    b = random_values(rng, p["in"], rows * cols)
    golden = quantize_output(quantize_input(a, p["in"]), p["out"])
    pack_src = formats["pack_src"]
    if dest_acc and p["in"] not in F.INTEGER:
        pack_src = "Float32"  # as the test forces it on Blackhole
    cfg, bits = relu_config(p["relu"], float(np.mean(golden)), pack_src)
    golden = apply_relu(golden, p["relu"], bits, pack_src)
    nb, tib = blocks_for(tiles, dest_acc, p["in"], p["out"], 8 if p["sync"] == "Half" else 16)
    return Spec(
        name, "sources/pack_test.cpp", formats,
        [INPUT_DIMENSIONS_TEMPLATE((rows, cols), (rows, cols)), TILIZE(False), DEST_SYNC(p["sync"])],
        [TILE_COUNT(tiles), DEST_INDEX(0), RELU_CONFIG(cfg), NUM_FACES(4), NUM_BLOCKS(nb),
         NUM_TILES_IN_BLOCK(tib)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles),
        golden, p["out"], dest_acc, unpack_to_dest=to_dest)


def pack_rows(name, p, rng):
    """test_zzz_pack_rows.py: the first NUM_ROWS_TO_PACK 16-datum rows of each tile; the test
    compares those rows of each 1024-datum result tile."""
    rows, cols, n = p["rows"], p["cols"], p["rows_to_pack"]
    tiles = _tiles(rows, cols)
    dest_acc, _ = formats_for(p)
    to_dest = p["in"] in F.THIRTY_TWO_BIT
    formats = F.infer_formats(p["in"], p["out"], dest_acc, to_dest)
    nb, tib = blocks_for(tiles, dest_acc, p["in"], p["out"])
    a = random_values(rng, p["in"], rows * cols)
    b = random_values(rng, p["in"], rows * cols)
    golden = quantize_input(a, p["in"]).reshape(tiles, 1024)[:, :n * 16].ravel()
    spec = Spec(
        name, "sources/pack_rows_test.cpp", formats,
        [INPUT_DIMENSIONS_TEMPLATE((rows, cols), (rows, cols))],
        [NUM_BLOCKS(nb), NUM_TILES_IN_BLOCK(tib), NUM_ROWS_TO_PACK(n)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles),
        quantize_output(golden, p["out"]), p["out"], dest_acc, unpack_to_dest=to_dest)
    spec.select = lambda got: got.reshape(tiles, -1)[:, :n * 16].ravel()
    return spec


def pack_dest_bank(name, p, rng):
    """test_pack_dest_bank.py: tiles copied through Dst and packed by blocks, optionally
    accumulating into L1 (the host clears the result tiles first)."""
    rows, cols = p["rows"], p["cols"]
    tiles = _tiles(rows, cols)
    dest_acc, _ = formats_for(p)
    to_dest = p["in"] in F.THIRTY_TWO_BIT and dest_acc
    formats = F.infer_formats(p["in"], p["out"], dest_acc, to_dest)
    nb, tib = blocks_for(tiles, dest_acc, p["in"], p["out"])
    a = random_values(rng, p["in"], rows * cols)
    b = random_values(rng, p["in"], rows * cols)
    golden = quantize_output(quantize_input(a, p["in"]), p["out"])
    return Spec(
        name, "sources/pack_dest_bank_test.cpp", formats, [TILIZE(False)],
        [INPUT_DIMENSIONS_RUNTIME((rows, cols), (rows, cols)), DEST_INDEX(0), TILE_COUNT(tiles),
         NUM_FACES(4), L1_ACC(p["l1_acc"]), NUM_BLOCKS(nb), NUM_TILES_IN_BLOCK(tib)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles, zero_result=True),
        golden, p["out"], dest_acc, unpack_to_dest=to_dest, l1_acc=p["l1_acc"])


def dense_pack_untilize(name, p, rng):
    """test_dense_pack_untilize.py: 32 x cols of tiles packed untilized with r_dim rows per
    face; the result's first r_dim rows of 2*cols datums are face rows, face after face."""
    cols, r = p["cols"], p["r_dim"]
    tiles = _tiles(32, cols)
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], 32 * cols, sfpu=False)
    b = random_values(rng, p["in"], 32 * cols, sfpu=False)
    faces = quantize_input(a, p["in"]).reshape(-1, 16, 16)
    golden = faces[:, :r, :].swapaxes(0, 1).reshape(-1)
    spec = Spec(
        name, "sources/dense_pack_untilize_test.cpp", formats,
        [INPUT_DIMENSIONS_TEMPLATE((32, cols), (32, cols)), DEST_SYNC()],
        [NUM_FACES(4), IN_TILE_DIMS(r, 32, 32, 32)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles),
        quantize_output(golden, p["out"]), p["out"], dest_acc)
    spec.tile_size_override = harness_tile_sizes(formats, r)
    spec.select = lambda got: got[:r * cols * 2]
    return spec


def pack_tiny_tile(name, p, rng, source):
    """test_pack_tiny_tile_block.py (pack_tiny_tile_block_test.cpp and, first packing for
    32x32 then re-initialising, pack_tiny_tile_reconfig_test.cpp): n tiles of tile_r x
    tile_c datums, dense in L1, copied through Dst by blocks."""
    tr, tc, n = p["tile_r"], p["tile_c"], p["tiles"]
    face_r = min(tr, 16)
    num_faces = ((tr + 15) // 16) * (tc // 16)
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], tr * tc * n)
    b = random_values(rng, p["in"], tr * tc * n)
    cap = 8 // (2 if (dest_acc or p["in"] in F.THIRTY_TWO_BIT) else 1)
    if num_faces < 4:
        cap *= 4 // num_faces
    tib = min(n, cap)
    spec = Spec(
        name, source, formats, [],
        [DEST_INDEX(0), TILE_COUNT(n), NUM_FACES(num_faces), TEST_FACE_DIMS(face_r),
         IN_TILE_DIMS(tr, tc), L1_ACC(False), NUM_BLOCKS(n // tib), NUM_TILES_IN_BLOCK(tib)],
        Stimuli(a, p["in"], b, p["in"], p["out"], n, n, n, num_faces=num_faces, face_r_dim=face_r,
                tile_dims=(tr, tc), dense=True,
                res_tile_size=F.tile_size_bytes(p["out"], (tr, tc))),
        quantize_output(quantize_input(a, p["in"]), p["out"]), p["out"], dest_acc)
    spec.tile_size_override = harness_tile_sizes(formats, tr, num_faces, 4, face_r)
    return spec


def multiple_tiles_eltwise(name, p, rng):
    """multiple_tiles_eltwise_test.cpp (no pytest test drives it): TILE_CNT tiles of A op B in
    one Dst section, SyncHalf. At 36b092e8 the source calls _llk_unpack_AB_init_<>() with no
    arguments, which no overload takes: the build fails, as it would in the harness."""
    tiles = p["tiles"]
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], tiles * 1024)
    b = random_values(rng, p["in"], tiles * 1024)
    golden = eltwise_golden(p["op"], quantize_input(a, p["in"]), quantize_input(b, p["in"]),
                            p["in"], p["out"], p["fidelity"])
    return Spec(
        name, "sources/multiple_tiles_eltwise_test.cpp", formats,
        [MATH_FIDELITY(p["fidelity"]), MATH_OP(op=p["op"])], [TILE_COUNT(tiles)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles),
        golden, p["out"], dest_acc)


def eltwise_bcast_col_custom(name, p, rng):
    """test_eltwise_bcast_col_custom.py (multiple_tiles_eltwise_custom_test.cpp): a 32 x 32*ct
    A minus one column-broadcast B tile, compared untilized."""
    ct = p["ct"]
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], 32 * 32 * ct).reshape(32, 32 * ct)
    b = random_values(rng, p["in"], 32 * 32).reshape(32, 32)
    a_t, b_t = F.tilize(a), F.tilize(b)
    bb = F.untilize(broadcast_golden("COL", quantize_input(b_t, p["in"]), 1), 32, 32)
    golden = eltwise_golden(p["op"], quantize_input(a, p["in"]).ravel(), np.tile(bb, (1, ct)).ravel(),
                            p["in"], p["out"], p["fidelity"])
    spec = Spec(
        name, "sources/multiple_tiles_eltwise_custom_test.cpp", formats,
        [MATH_FIDELITY(p["fidelity"]), INPUT_DIMENSIONS_TEMPLATE((32, 32 * ct), (32, 32 * ct)),
         MATH_OP(op=p["op"]), BROADCAST_TYPE("COL"), CT_DIM(ct)],
        [TILE_COUNT(ct)],
        Stimuli(a_t, p["in"], b_t, p["in"], p["out"], ct, 1, ct),
        golden, p["out"], dest_acc)
    spec.select = lambda got: F.untilize(got, 32, 32 * ct).ravel()
    return spec


def eltwise_transpose_bcast(name, p, rng):
    """eltwise_binary_transpose_bcast_test.cpp (no pytest test drives it): A with its faces
    and their contents transposed by the unpacker, minus broadcast B, LoFi. The source names
    the operands as globals (buffer_A[i]), which only the harness's header-address form of
    the stimuli provides; build.h carries them here as constants besides the struct. At
    36b092e8 its _llk_unpack_AB_init_ call (face rows, faces, narrow tile, transpose) matches
    no overload: the build fails, as it would in the harness."""
    tiles = p["tiles"]
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], tiles * 1024)
    b = random_values(rng, p["in"], tiles * 1024)
    qa, qb = quantize_input(a, p["in"]), quantize_input(b, p["in"])
    ta = tile_transpose(qa) if p["transpose"] else qa
    golden = eltwise_golden("elwsub", ta, broadcast_golden(p["bcast"], qb, tiles), p["in"],
                            p["out"])
    spec = Spec(
        name, "sources/eltwise_binary_transpose_bcast_test.cpp", formats,
        [BROADCAST_TYPE(p["bcast"]), DEST_SYNC()],
        [UNPACK_TRANS_FACES(p["transpose"]), TILE_COUNT(tiles)],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles),
        golden, p["out"], dest_acc)
    spec.header_operands = True
    return spec


def unary_datacopy_custom(name, p, rng):
    """test_eltwise_unary_datacopy_custom.py: one tile copied A -> Dst -> L1."""
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], 1024)
    b = random_values(rng, p["in"], 1024)
    return Spec(
        name, "sources/eltwise_unary_datacopy_custom_test.cpp", formats,
        [INPUT_DIMENSIONS_TEMPLATE((32, 32), (32, 32))], [TILE_COUNT(1), NUM_FACES(4)],
        Stimuli(a, p["in"], b, p["in"], p["out"], 1, 1, 1),
        quantize_output(quantize_input(a, p["in"]), p["out"]), p["out"], dest_acc)


def transpose_dest(name, p, rng):
    """test_zzz_transpose_dest.py: 64x64 (4 tiles) transposed tile by tile in Dst (the faces'
    order by the math thread's face transpose, or by the unpacker's when a 32-bit Dst
    transposes only within faces)."""
    tiles = 4
    dest_acc, mt = p["dest_acc"], p["math_transpose"]
    formats = F.infer_formats(p["in"], p["out"], dest_acc, p["unpack_to_dest"])
    if p["in"] == "Int32":
        a = np.arange(tiles * 1024, dtype=np.int64) * 10000
        b = a.copy()
    else:
        a = random_values(rng, p["in"], tiles * 1024)
        b = random_values(rng, p["in"], tiles * 1024)
    golden = tile_transpose(quantize_output(quantize_input(a, p["in"]), p["out"]))
    return Spec(
        name, "sources/transpose_dest_test.cpp", formats, [MATH_TRANSPOSE_FACES(mt)],
        [UNPACK_TRANS_FACES(dest_acc and not mt), TILE_COUNT(tiles), NUM_FACES()],
        Stimuli(a, p["in"], b, p["in"], p["out"], tiles, tiles, tiles),
        golden, p["out"], dest_acc, unpack_to_dest=p["unpack_to_dest"])


def tilize_calculate_untilize(name, p, rng):
    """test_tilize_calculate_untilize_L1.py: two L1-to-L1 runs on one row-major tile of A and
    B; golden: A op B on the tilized operands."""
    dest_acc, final = formats_for(p)
    first = F.infer_formats(p["in"], p["in"], dest_acc)
    a = random_values(rng, p["in"], 1024)
    b = random_values(rng, p["in"], 1024)
    ta = F.tilize(quantize_input(a, p["in"]).reshape(32, 32))
    tb = F.tilize(quantize_input(b, p["in"]).reshape(32, 32))
    golden = eltwise_golden(p["op"], ta, tb, p["in"], p["out"], p["fidelity"])
    return Spec(
        name, "sources/tilize_calculate_untilize_L1.cpp", [first, final],
        [INPUT_DIMENSIONS_TEMPLATE((32, 32), (32, 32)), MATH_FIDELITY(p["fidelity"]),
         MATH_OP(op=p["op"])], [TILE_COUNT(1)],
        Stimuli(a, p["in"], b, p["in"], p["out"], 1, 1, 1),
        golden, p["out"], dest_acc)


def risc_compute(name, p, rng):
    """test_risc_compute.py: each TRISC adds one Int32 tile of A and B with its own RISC-V
    core (std::transform), no Tensix instructions."""
    tiles = _tiles(32, 96)
    formats = F.infer_formats("Int32", "Int32", False)
    a = random_values(rng, "Int32", tiles * 1024)
    b = random_values(rng, "Int32", tiles * 1024)
    return Spec(
        name, "sources/risc_compute_test.cpp", formats, [], [],
        Stimuli(a, "Int32", b, "Int32", "Int32", tiles, tiles, tiles),
        a + b, "Int32", False)


def _overhead_check(zones):
    """test_profiler_overhead.py: 32 OVERHEAD zones; after the first (cold i-cache) zone i
    lasts 10*(i+9) cycles plus the profiler's overhead, 30 +- 5 on Blackhole."""
    got = [int(z["end"]) - int(z["start"]) for z in zones
           if z["type"] == "zone" and z["marker"] == "OVERHEAD"]
    if len(got) != 32:
        return False, f"{len(got)} OVERHEAD zones, want 32"
    over = [d - 10 * (i + 9) for i, d in enumerate(got[1:])]
    bad = [(i, o) for i, o in enumerate(over) if abs(o - 30) > 5]
    if bad:
        return False, f"overhead {bad[0][1]} at zone {bad[0][0] + 1} (want 30+-5); all: {over}"
    return True, f"overheads {min(over)}..{max(over)} (want 30+-5)"


def _stream_empty(reads):
    data = reads[0]
    write_idx, read_idx = int.from_bytes(data[0:4], "little"), int.from_bytes(data[4:8], "little")
    if write_idx != read_idx:
        return False, f"stream not empty: write index {write_idx}, read index {read_idx}"
    return True, f"stream empty (indices {write_idx})"


def stream_integration(name, p, rng):
    """streams/test_stream_integration.py, the RISC-to-RISC case: TRISC0 pushes 10 packets
    through the stream at 0x70000 (the host zeroes its indices first), TRISC1 pops and checks
    them; afterwards the stream's write and read indices must be equal. (The host-producer and
    host-consumer cases need the host to push or pop while the kernels run.)"""
    formats = F.infer_formats("Float16_b", "Float16_b", False)
    r = _rt("HOST_IS_STREAM_PRODUCER", "bool", "?", False, "host_is_stream_producer")
    c = _rt("HOST_IS_STREAM_CONSUMER", "bool", "?", False, "host_is_stream_consumer")
    spec = Spec(name, "sources/streams/stream_integration_test.cpp", formats, [], [r, c], None)
    spec.l1_writes = [(0x70000, bytes(8))]
    spec.raw_check = ([(0x70000, 8)], _stream_empty)
    return spec


def sdpa_reinits(name, p, rng):
    """test_sdpa_reinits.py: four operations on one tile with re-initialisation between them
    (matmul A x B, row max of A, A - column-broadcast B, matmul again), B all ones; the host
    writes A and B at fixed addresses and reads the four results from fixed addresses. The
    source includes ckernel_sfpu.h but calls no SFPU code."""
    fmt, fid = p["in"], "LoFi"
    formats = F.infer_formats(fmt, fmt, False)
    a = random_values(rng, fmt, 1024).reshape(32, 32)
    b = np.ones((32, 32), dtype=np.float32)
    qa = quantize_input(a, fmt)
    mm = F.tilize(matmul_golden(qa, b, fmt, fid))
    rmax = np.zeros((32, 32), dtype=np.float32)
    rmax[:, 0] = qa.max(axis=1)
    sub = eltwise_golden("elwsub", F.tilize(qa), broadcast_golden("COL", F.tilize(b), 1), fmt, fmt)
    goldens = [("matmul", mm), ("reduce block max", F.tilize(rmax)), ("elwsub bcast col", sub),
               ("matmul after reinits", mm)]
    outs = [0x1B000, 0x1B800, 0x1C000, 0x1C800]

    def judge(reads):
        whys = []
        for (what, g), data in zip(goldens, reads):
            ok, why = F.compare(g, F.unpack(data, fmt, 1024), fmt)
            if not ok:
                return False, f"{what}: {why}"
            whys.append(why)
        return True, "; ".join(whys)

    spec = Spec(
        name, "sources/sdpa_reinits_test.cpp", formats,
        [MATH_FIDELITY(fid), INPUT_DIMENSIONS_TEMPLATE((32, 32), (32, 32)), BROADCAST_TYPE("COL"),
         MATH_OP(op="elwsub"), DEST_SYNC()],
        [NUM_FACES(), TILE_COUNT(1)], None)
    spec.l1_writes = [(0x1A000, F.pack(F.tilize(a), fmt)), (0x1A800, F.pack(F.tilize(b), fmt))]
    spec.raw_check = ([(addr, 2048) for addr in outs], judge)
    return spec


def profiler_overhead(name, p, rng):
    """test_profiler_overhead.py: a profiler build, no formats, no stimuli; judged by zones."""
    return Spec(name, "sources/profiler_overhead_test.cpp", None, [], [], None, profiler=True,
                run_types=[], zone_check=_overhead_check)


# Perf variants (the harness's PerfConfig: stimuli not written unless the test gives them).

def _perf(name, source, p, templates, runtimes, counts, run_types=None, stim=(None, None),
          **kw):
    dest_acc, formats = formats_for(p)
    to_dest = kw.pop("unpack_to_dest", False)
    if to_dest:
        formats = F.infer_formats(p["in"], p["out"], dest_acc, True)
    spec = Spec(name, source, formats, templates, runtimes,
                Stimuli(stim[0], p["in"], stim[1], p["in"], p["out"], *counts, **kw),
                None, p["out"], dest_acc, unpack_to_dest=to_dest, profiler=True)
    if run_types:
        spec.run_types = run_types
    return spec


def matmul_perf(name, p, rng):
    """perf_matmul.py: rt x kt by kt x ct tiles, LOOP_FACTOR 16, five run types."""
    rt, ct, kt = p["rt"], p["ct"], p["kt"]
    n = rt * ct * kt
    return _perf(name, "sources/matmul_perf.cpp", p,
                 [MATH_FIDELITY(p["fidelity"]), DEST_SYNC(), THROTTLE_LEVEL()],
                 [UNPACK_TRANS_FACES(False), NUM_FACES(), LOOP_FACTOR(p["loop_factor"]),
                  TILE_COUNT(n), CRK_TILE_DIMM(ct, rt, kt)], (n, n, n))


def math_matmul_perf(name, p, rng):
    """perf_math_matmul.py: the math_matmul configuration, LOOP_FACTOR 1024, five run types."""
    rt, ct, kt = p["rt"], p["ct"], p["kt"]
    return _perf(name, "sources/math_matmul_perf.cpp", p,
                 [MATH_FIDELITY(p["fidelity"]), DEST_SYNC(p["sync"]), THROTTLE_LEVEL(p["throttle"])],
                 [DEST_INDEX(0), UNPACK_TRANS_FACES(False), UNPACK_TRANS_WITHIN_FACE(False),
                  TILE_COUNT(rt * ct * kt), NUM_FACES(4, 4, 4), PARTIAL_FACE(),
                  CRK_TILE_DIMM(ct, rt, kt), IN_TILE_DIMS(), LOOP_FACTOR(p["loop_factor"])],
                 (rt * kt, kt * ct, rt * ct))


def eltwise_bcast_col_custom_perf(name, p, rng):
    """perf_eltwise_bcast_col_custom.py: ct tiles minus a column-broadcast tile, four run types."""
    ct = p["ct"]
    return _perf(name, "sources/eltwise_bcast_col_custom_perf.cpp", p,
                 [MATH_FIDELITY("LoFi"), MATH_OP(op="elwsub"), BROADCAST_TYPE("COL"), CT_DIM(ct)],
                 [TILE_COUNT(ct), LOOP_FACTOR(p["loop_factor"])], (ct, 1, ct),
                 ["L1_TO_L1", "UNPACK_ISOLATE", "MATH_ISOLATE", "PACK_ISOLATE"])


def math_transpose_perf(name, p, rng):
    """perf_math_transpose.py: 16 tiles transposed in Dst, L1_TO_L1 only."""
    wide = p["in"] in F.THIRTY_TWO_BIT
    q = dict(p, dest_acc=wide)
    return _perf(name, "sources/math_transpose_perf.cpp", q,
                 [MATH_TRANSPOSE_FACES(p["math_transpose"])],
                 [TILE_COUNT(16), UNPACK_TRANS_FACES(p["unpack_transpose"])], (16, 16, 16),
                 ["L1_TO_L1"], unpack_to_dest=wide)


def pack_dest_bank_perf(name, p, rng):
    """perf_pack_dest_bank.py: blocked packs (PACK_ISOLATE only); A all ones, B zeros, written;
    LOOP_FACTOR is a template parameter here."""
    nb, tib = p["num_blocks"], p["tiles_in_block"]
    n = nb * tib
    return _perf(name, "sources/pack_dest_bank_perf.cpp", p,
                 [TILIZE(False), LOOP_FACTOR(p["loop_factor"])],
                 [DEST_INDEX(0), TILE_COUNT(n), NUM_BLOCKS(nb), NUM_TILES_IN_BLOCK(tib),
                  NUM_FACES(4), L1_ACC(p["l1_acc"])], (n, n, n), ["PACK_ISOLATE"],
                 stim=(np.ones(n * 1024, dtype=np.float32), np.zeros(n * 1024, dtype=np.float32)))


def pack_untilize_perf(name, p, rng):
    """perf_pack_untilize.py: rt x ct tiles packed untilized by blocks of the largest divisor
    of ct up to 8 (4 for 32-bit or outlier formats)."""
    rt, ct = p["rt"], p["ct"]
    cap = 4 if (p["in"] in F.THIRTY_TWO_BIT or F.is_outlier(p["in"], p["out"], False)) else 8
    block = max(c for c in range(1, min(ct, cap) + 1) if ct % c == 0)
    dims = (rt * 32, ct * 32)
    return _perf(name, "sources/pack_untilize_perf.cpp", p,
                 [INPUT_DIMENSIONS_TEMPLATE(dims, dims, block)],
                 [TILE_COUNT(rt * ct), LOOP_FACTOR(1)], (rt * ct,) * 3,
                 ["L1_TO_L1", "PACK_ISOLATE", "L1_CONGESTION"],
                 unpack_to_dest=p["in"] in F.THIRTY_TWO_BIT)


def reduce_perf(name, p, rng):
    """perf_reduce.py: 16 tiles reduced, five run types."""
    return _perf(name, "sources/reduce_perf.cpp", p,
                 [MATH_OP(reduce_dim=p["dim"]), REDUCE_POOL_TYPE(p["pool"])],
                 [TILE_COUNT(16)], (16, 16, 16))


def unpack_transpose_perf(name, p, rng):
    """perf_unpack_transpose.py: 16 tiles transposed by the unpacker (L1_TO_L1, UNPACK_ISOLATE)."""
    return _perf(name, "sources/unpack_transpose_perf.cpp", p, [],
                 [TILE_COUNT(16), UNPACK_TRANS_FACES(p["faces"]),
                  UNPACK_TRANS_WITHIN_FACE(p["within_face"])], (16, 16, 16),
                 ["L1_TO_L1", "UNPACK_ISOLATE"])


def unpack_untilize_perf(name, p, rng):
    """perf_unpack_untilize.py: rt x ct tiles untilized by the unpacker, L1_TO_L1 only."""
    rt, ct = p["rt"], p["ct"]
    dims = (rt * 32, ct * 32)
    return _perf(name, "sources/unpack_untilize_perf.cpp", p,
                 [INPUT_DIMENSIONS_TEMPLATE(dims, dims)], [TILE_COUNT(rt * ct), LOOP_FACTOR(1)],
                 (rt * ct,) * 3, ["L1_TO_L1"])


# ---------------------------------------------------------------------------------------------
# tt-llk's SFPU kernels written with TTI_ macros alone, through tensim's own test sources
# (riscv/sdk/llk/sources), shaped like tt-llk's sfpu_binary_test and eltwise_unary_sfpu_test,
# whose own op switches also reach SFPI kernels. Built against the TTI-only ckernel_sfpu.h.

OWN_SOURCES = Path(__file__).resolve().parent / "sources"


def _u32(raw):
    return np.asarray(raw, dtype=np.int64) & 0xFFFFFFFF


def _sm_bits(values):
    """The L1 (and so Dst) bit patterns of Int32 values: sign-magnitude."""
    v = np.asarray(values, dtype=np.int64)
    return np.where(v < 0, 0x80000000 | -v, v) & 0xFFFFFFFF


def _sm_value(bits):
    """The Int32 value the host reads back from bit patterns (sign-magnitude)."""
    b = _u32(bits)
    return np.where(b & 0x80000000, -(b & 0x7FFFFFFF), b)


def _i32(bits):
    """Two's complement view of 32-bit patterns, as the SFPU's integer instructions take them."""
    b = _u32(bits)
    return np.where(b & 0x80000000, b - (1 << 32), b)


def tti_binary_golden(op, a_bits, b_bits):
    """The kernels' results as bit patterns: they load Dst with InstrModLoadStore::INT32 (no
    conversion), so they compute on the sign-magnitude patterns as if they were two's
    complement (SIGN_MAGNITUDE_FORMAT false, the mode tt-llk's own test uses)."""
    a, b = _i32(a_bits), _i32(b_bits)
    if op == "ADD_INT":
        r = a + b
    elif op == "SUB_INT":
        r = a - b
    elif op == "AND":
        r = a_bits & b_bits
    elif op == "OR":
        r = a_bits | b_bits
    elif op == "XOR":
        r = a_bits ^ b_bits
    elif op == "LEFT_SHIFT":  # 0 for an amount outside 0..31 (the kernel's comment)
        r = np.where((b >= 0) & (b < 32), a_bits << np.clip(b, 0, 31), 0)
    elif op == "LOGICAL_RIGHT_SHIFT":
        r = np.where((b >= 0) & (b < 32), a_bits >> np.clip(b, 0, 31), 0)
    elif op == "RIGHT_SHIFT":  # arithmetic; the stimuli keep the amount in 0..31
        r = a >> np.clip(b, 0, 31)
    else:
        raise ValueError(f"unknown TTI binary op {op}")
    return _u32(r)


def tti_binary(name, p, rng):
    """tti_sfpu_binary_test.cpp, as test_zzz_sfpu_binary.py configures sfpu_binary_test.cpp for
    Int32: operand A is two tiles (64x32), unpacked straight into a 32-bit Dst; tile 0 op tile 1
    goes to tile 0; both tiles come back. Values: A in -2^30..2^30 (sign-magnitude in L1, so
    negatives exercise the kernels' two's complement view of the bits); shift amounts in
    -8..39 (0..31 for the arithmetic right shift, whose kernel leaves negative amounts
    undefined)."""
    op = p["op"]
    tiles = 2
    formats = F.infer_formats("Int32", "Int32", True, True)
    a = rng.integers(-(1 << 30), 1 << 30, tiles * 1024)
    if op == "SUB_INT" or op == "ADD_INT":
        a[1024:] = rng.integers(-(1 << 29), 1 << 29, 1024)
    elif op.endswith("SHIFT"):
        lo, hi = (0, 32) if op == "RIGHT_SHIFT" else (-8, 40)
        a[1024:] = rng.integers(lo, hi, 1024)
    bits = _sm_bits(a)
    res = bits.copy()
    res[:1024] = tti_binary_golden(op, bits[:1024], bits[1024:])
    golden = _sm_value(res)
    b = np.zeros(tiles * 1024, dtype=np.int64)
    spec = Spec(
        name, str(OWN_SOURCES / "tti_sfpu_binary_test.cpp"), formats,
        [Template(f"constexpr TtiBinaryOp TTI_BINARY_OP = TtiBinaryOp::{op};", [("mathop", op)])],
        [TILE_COUNT(tiles)],
        Stimuli(a, "Int32", b, "Int32", "Int32", tiles, tiles, tiles),
        golden, "Int32", True, unpack_to_dest=True, compile_time_formats=True, exact=True)
    spec.sfpu_tti = True
    return spec


def tti_unary(name, p, rng):
    """tti_sfpu_unary_test.cpp, as test_zzz_eltwise_unary_sfpu.py configures
    eltwise_unary_sfpu_test.cpp: tiles of A copied into Dst and put through the kernel one by
    one. SQUARE: x * x. DROPOUT: each datum scaled by `scale`, or zeroed where the lane's PRNG
    draw (31 bits) is at most the probability (0: none in practice, 2^31 - 1: all)."""
    op, tiles = p["op"], p["tiles"]
    dest_acc, formats = formats_for(p)
    nb, tib = blocks_for(tiles, dest_acc, p["in"], p["out"])
    a = random_values(rng, p["in"], tiles * 1024, negative=True)
    x = quantize_input(a, p["in"]).astype(np.float64)
    prob, scale = p.get("probability", 0), p.get("scale", 1.0)
    if op == "SQUARE":
        golden = x * x
    elif op == "DROPOUT":
        golden = x * scale if prob < (1 << 31) - 1 else np.zeros_like(x)
    else:
        raise ValueError(f"unknown TTI unary op {op}")
    scale_bits = int(np.float32(scale).view(np.uint32))
    templates = [Template(f"constexpr TtiUnaryOp TTI_UNARY_OP = TtiUnaryOp::{op};", [("mathop", op)]),
                 Template(f"constexpr std::uint32_t DROPOUT_PROBABILITY = {prob}u;\n"
                          f"constexpr std::uint32_t DROPOUT_SCALE = {scale_bits:#x}u;\n"
                          f"constexpr std::uint32_t DROPOUT_SEED = {p.get('seed', 0)}u;")]
    to_dest = p["in"] in F.THIRTY_TWO_BIT and dest_acc
    spec = Spec(
        name, str(OWN_SOURCES / "tti_sfpu_unary_test.cpp"), formats, templates,
        [TILE_COUNT(tiles), NUM_BLOCKS(nb), NUM_TILES_IN_BLOCK(tib)],
        Stimuli(a, p["in"], a, p["in"], p["out"], tiles, tiles, tiles),
        quantize_output(golden.astype(np.float32), p["out"]), p["out"], dest_acc,
        unpack_to_dest=to_dest)
    spec.sfpu_tti = True
    return spec


def _tile_row0(tiles):
    """Indices of row 0 of each 32x32 tile in face layout (faces 0 and 1 hold it)."""
    return np.array([t * 1024 + (c // 16) * 256 + c % 16 for t in range(tiles) for c in range(32)])


def sfpu_reduce(name, p, rng):
    """test_zzz_sfpu_reduce.py (tt-llk's own sfpu_reduce_test.cpp, which calls only TTI_
    kernels: _init_reduce_, _calculate_reduce_): column reduction of each tile in a 32-bit Dst,
    the result in the tile's row 0, which alone is compared. Values in -1000..1000."""
    tiles, pool = p["tiles"], p["pool"]
    formats = F.infer_formats(p["in"], p["out"], True, True)
    nb, tib = blocks_for(tiles, True, p["in"], p["out"])
    a = F.as_format(rng.uniform(-1000, 1000, tiles * 1024).astype(np.float32), p["in"])
    cols = a.reshape(tiles, 4, 16, 16).transpose(0, 2, 1, 3)  # [tile][face row][face][col]
    cols = np.concatenate([np.concatenate([cols[:, :, 0], cols[:, :, 1]], axis=2),
                           np.concatenate([cols[:, :, 2], cols[:, :, 3]], axis=2)], axis=1)
    red = {"max": np.max, "min": np.min, "sum": np.sum,
           "avg": np.mean}[pool](cols.astype(np.float64), axis=1)  # [tile][col]
    golden = np.zeros(tiles * 1024, dtype=np.float32)
    golden[_tile_row0(tiles)] = red.astype(np.float32).reshape(-1)
    dims = (32, 32 * tiles)
    spec = Spec(
        name, "sources/sfpu_reduce_test.cpp", formats,
        [INPUT_DIMENSIONS_TEMPLATE(dims, dims),
         Template("constexpr bool APPROX_MODE = false;"),
         Template(f"constexpr auto REDUCE_DIM = ckernel::ReduceDim::REDUCE_COL;\n"
                  f"constexpr auto POOL_TYPE = ckernel::PoolType::{pool.upper()};")],
        [NUM_BLOCKS(nb), NUM_TILES_IN_BLOCK(tib), TILE_COUNT(tiles)],
        Stimuli(a, p["in"], np.zeros_like(a), p["in"], p["out"], tiles, 1, tiles),
        golden[_tile_row0(tiles)], p["out"], True, unpack_to_dest=True,
        compile_time_formats=True, select=lambda r, n=tiles: r[_tile_row0(n)])
    spec.sfpu_tti = True
    return spec


def sfpu_reduce_sdpa(name, p, rng):
    """test_sfpu_reduce_sdpa.py (tt-llk's own sfpu_reduce_sdpa_test.cpp, TTI_ kernels of
    ckernel_sfpu_reduce_custom.h): BF16 128x64 (4x2 tiles), the maximum of each column into row 0
    of the top tiles, which alone is compared."""
    rows, cols = 128, 64
    tiles = (rows // 32) * (cols // 32)
    a = random_values(rng, "Float16_b", rows * cols)
    a_t = F.tilize(a.reshape(rows, cols))
    col_max = np.max(F.untilize(a_t, rows, cols), axis=0)
    sel = _tile_row0(cols // 32)
    spec = Spec(
        name, "sources/sfpu_reduce_sdpa_test.cpp", F.infer_formats("Float16_b", "Float16_b", False),
        [INPUT_DIMENSIONS_TEMPLATE((rows, cols), (rows, cols)),
         Template("constexpr auto REDUCE_DIM = ckernel::ReduceDim::REDUCE_COL;\n"
                  "constexpr auto POOL_TYPE = ckernel::PoolType::MAX;")],
        [TILE_COUNT(tiles)],
        Stimuli(a_t, "Float16_b", a_t, "Float16_b", "Float16_b", tiles, tiles, tiles),
        col_max, "Float16_b", False, select=lambda r, s=sel: r[s])
    spec.sfpu_tti = True
    return spec


def ttnn_where(name, p, rng):
    """test_zzz_ttnn_where.py (tt-llk's own ttnn_where_test.cpp, TTI_ kernels of
    ckernel_sfpu_where.h): one tile each of a condition A, B and C; the result is B where A is
    not zero and C elsewhere, compared bit for bit. The condition is half zeros ("mixed")."""
    fmt = p["in"]
    dest_acc = fmt in F.THIRTY_TWO_BIT
    formats = F.infer_formats(fmt, fmt, dest_acc, dest_acc)
    a = random_values(rng, fmt, 1024, sfpu=False, negative=True)
    a[rng.random(1024) < 0.5] = 0
    b = random_values(rng, fmt, 1024, sfpu=False, negative=True)
    c = random_values(rng, fmt, 1024, sfpu=False, negative=True)
    golden = np.where(a != 0, b, c)
    spec = Spec(
        name, "sources/ttnn_where_test.cpp", formats,
        [Template("constexpr bool disable_src_zero_flag = true;")], [],
        Stimuli(a, fmt, b, fmt, fmt, 1, 1, 1, c=c, fmt_c=fmt, tiles_c=1),
        golden, fmt, dest_acc, unpack_to_dest=dest_acc, compile_time_formats=True, exact=True)
    spec.sfpu_tti = True
    return spec


# ---------------------------------------------------------------------------------------------
# The table: variant name -> (family, default parameters, what it stands for).

BF16 = {"in": "Float16_b", "out": "Float16_b", "dest_acc": False}
FP16 = {"in": "Float16", "out": "Float16", "dest_acc": False}
FP32 = {"in": "Float32", "out": "Float32", "dest_acc": True}
BFP8 = {"in": "Bfp8_b", "out": "Bfp8_b", "dest_acc": False}
INT32 = {"in": "Int32", "out": "Int32", "dest_acc": True}

VARIANTS = {
    "eltwise_binary_test": (eltwise_binary, dict(BF16, op="elwadd", fidelity="LoFi", rows=32, cols=32),
                            "BF16 elwadd, 1 tile"),
    "eltwise_binary_test_fp16": (eltwise_binary, dict(BF16, **{"in": "Float16", "out": "Float16"},
                                                      op="elwsub", fidelity="LoFi", rows=64, cols=32),
                                 "FP16 elwsub, 2 tiles"),
    "eltwise_binary_test_fp32": (eltwise_binary, dict({"in": "Float32", "out": "Float32", "dest_acc": True},
                                                      op="elwmul", fidelity="HiFi4", rows=32, cols=32),
                                 "FP32 elwmul HiFi4, 32-bit Dst, 1 tile"),
    "eltwise_binary_test_bfp8": (eltwise_binary, dict({"in": "Bfp8_b", "out": "Bfp8_b", "dest_acc": False},
                                                      op="elwadd", fidelity="LoFi", rows=64, cols=64),
                                 "BFP8_b elwadd, 4 tiles"),
    "eltwise_binary_test_bfp4": (eltwise_binary, dict({"in": "Bfp4_b", "out": "Float16_b", "dest_acc": False},
                                                      op="elwadd", fidelity="LoFi", rows=32, cols=32),
                                 "BFP4_b in, BF16 out elwadd, 1 tile"),
    "eltwise_binary_test_bcast_col_transpose": (
        eltwise_binary, dict(BF16, op="elwsub", fidelity="LoFi", rows=256, cols=32, bcast="COL",
                             transpose=True),
        "BF16 transpose(A) - column-broadcast B, 256x32"),
    "eltwise_binary_test_bcast_row": (
        eltwise_binary, dict(BF16, op="elwmul", fidelity="HiFi2", rows=256, cols=32, bcast="ROW",
                             transpose=False),
        "BF16 A * row-broadcast B HiFi2, 256x32"),
    "eltwise_binary_test_bcast_scalar_fp32": (
        eltwise_binary, dict(FP32, op="elwmul", fidelity="HiFi3", rows=256, cols=32,
                             bcast="SCALAR", transpose=False),
        "FP32 A * scalar-broadcast B HiFi3, 32-bit Dst, 256x32"),
    "eltwise_unary_datacopy_test": (unary_datacopy, dict(BF16, rows=64, cols=64),
                                    "BF16 datacopy A2D, 4 tiles"),
    "eltwise_unary_datacopy_test_fp32": (unary_datacopy, dict({"in": "Float32", "out": "Float32", "dest_acc": True},
                                                              rows=64, cols=64),
                                         "FP32 datacopy, unpack to Dst, 4 tiles"),
    "eltwise_unary_datacopy_test_bfp8": (unary_datacopy, dict({"in": "Bfp8_b", "out": "Float16_b", "dest_acc": False},
                                                              rows=64, cols=64),
                                         "BFP8_b -> BF16 datacopy, 4 tiles"),
    "matmul_test": (matmul, dict(BF16, fidelity="LoFi", rt=2, ct=2, kt=2),
                    "BF16 matmul LoFi, rt=ct=kt=2"),
    "matmul_test_hifi4": (matmul, dict(BF16, fidelity="HiFi4", rt=2, ct=2, kt=2),
                          "BF16 matmul HiFi4, rt=ct=kt=2"),
    "reduce_test": (reduce, dict(BF16, fidelity="HiFi4", dim="row", pool="max", tiles=8),
                    "BF16 row max-reduce, 8 tiles"),
    "reduce_test_col_sum": (reduce, dict(BF16, fidelity="HiFi4", dim="col", pool="sum", tiles=8),
                            "BF16 column sum-reduce, 8 tiles"),
    "unpack_tilize_test": (unpack_tilize, dict(BF16, rows=64, cols=64), "BF16 unpack tilize 64x64"),
    "pack_untilize_test": (pack_untilize, dict(BF16, rows=64, cols=64), "BF16 pack untilize 64x64"),
    "reduce_test_fp32": (reduce, dict(FP32, fidelity="HiFi4", dim="col", pool="avg", tiles=8),
                         "FP32 column average-reduce, 32-bit Dst, 8 tiles"),
    "reduce_test_scalar_max": (reduce, dict(BF16, fidelity="HiFi2", dim="scalar", pool="max",
                                            tiles=8), "BF16 scalar max-reduce HiFi2, 8 tiles"),
    "reduce_test_bfp8": (reduce, dict(BFP8, fidelity="HiFi2", dim="row", pool="sum", tiles=8),
                         "BFP8_b row sum-reduce HiFi2, 8 tiles"),
    "unpack_tilize_test_fp32": (unpack_tilize, dict(FP32, rows=64, cols=64),
                                "FP32 unpack tilize 64x64 (lossless, 32-bit Dst)"),
    "unpack_tilize_test_fp16": (unpack_tilize, dict(FP16, rows=32, cols=128),
                                "FP16 unpack tilize 32x128"),
    "pack_untilize_test_fp16": (pack_untilize, dict(FP16, rows=32, cols=128),
                                "FP16 pack untilize 32x128"),
    "pack_untilize_test_fp32": (pack_untilize, dict(FP32, rows=64, cols=64),
                                "FP32 pack untilize 64x64 (unpack to Dst)"),
    "pack_untilize_test_bfp8_in": (pack_untilize, dict(BFP8, out="Float16_b", rows=64, cols=64),
                                   "BFP8_b in, BF16 out pack untilize 64x64"),
    "eltwise_binary_fpu_perf": (eltwise_binary_perf, dict(BF16, op="elwadd", fidelity="LoFi", tiles=16),
                                "perf: BF16 elwadd, 16 tiles, five run types"),
    "unpack_tilize_perf": (unpack_tilize_perf, dict(BF16, rows=32, cols=128, loop_factor=4),
                           "perf: BF16 unpack tilize 32x128, loop factor 4"),

    # Matmul family.
    "matmul_test_fp16": (matmul, dict(FP16, fidelity="HiFi2", rt=1, ct=2, kt=3),
                         "FP16 matmul HiFi2, rt=1 ct=2 kt=3"),
    "matmul_test_bfp8": (matmul, dict(BFP8, fidelity="LoFi", rt=2, ct=1, kt=2),
                         "BFP8_b matmul LoFi, rt=2 ct=1 kt=2"),
    "matmul_custom_test": (partial(matmul, source="sources/matmul_custom_test.cpp"),
                           dict(BF16, fidelity="LoFi", rt=2, ct=2, kt=2),
                           "BF16 matmul (no MOP) LoFi, rt=ct=kt=2"),
    "matmul_custom_test_fp32": (partial(matmul, source="sources/matmul_custom_test.cpp"),
                                dict(FP32, fidelity="HiFi4", rt=1, ct=2, kt=2),
                                "FP32 matmul (no MOP) HiFi4, 32-bit Dst, rt=1 ct=2 kt=2"),
    "matmul_custom_test_bfp8": (partial(matmul, source="sources/matmul_custom_test.cpp"),
                                dict(BFP8, fidelity="HiFi2", rt=1, ct=2, kt=3),
                                "BFP8_b matmul (no MOP) HiFi2, rt=1 ct=2 kt=3"),
    "math_matmul_test": (partial(matmul_full, source="sources/math_matmul_test.cpp"),
                         dict(BF16, fidelity="HiFi2", rt=2, ct=2, kt=2, throttle=1, sync="Half",
                              dst_index=0), "BF16 matmul HiFi2, rt=ct=kt=2, throttle 1"),
    "math_matmul_test_fp32": (partial(matmul_full, source="sources/math_matmul_test.cpp"),
                              dict(FP32, fidelity="HiFi4", rt=1, ct=2, kt=2, throttle=3,
                                   sync="Full", dst_index=6),
                              "FP32 matmul HiFi4, SyncFull, Dst index 6, throttle 3"),
    "unpack_matmul_test": (partial(matmul_full, source="sources/unpack_matmul_test.cpp"),
                           dict(BF16, fidelity="LoFi", rt=2, ct=2, kt=2, throttle=0, sync="Half",
                                dst_index=0), "BF16 matmul LoFi, rt=ct=kt=2"),
    "unpack_matmul_test_fp16": (partial(matmul_full, source="sources/unpack_matmul_test.cpp"),
                                dict(FP16, fidelity="HiFi3", rt=1, ct=3, kt=2, throttle=0,
                                     sync="Half", dst_index=0), "FP16 matmul HiFi3, rt=1 ct=3 kt=2"),
    "math_matmul_test_tiny": (partial(matmul_tiny, source="sources/math_matmul_test.cpp"),
                              dict(BF16, fidelity="LoFi", in0_r=8, ct=2),
                              "BF16 matmul, in0 one 8x32 tile (partial faces), ct=2"),
    "unpack_matmul_test_tiny": (partial(matmul_tiny, source="sources/unpack_matmul_test.cpp"),
                                dict(FP16, fidelity="HiFi2", in0_r=16, ct=3),
                                "FP16 matmul HiFi2, in0 one 16x32 tile, ct=3"),
    "matmul_pack_untilize_test": (matmul_pack_untilize, dict(BF16, fidelity="HiFi4"),
                                  "BF16 matmul HiFi4, one tile, packed untilized"),
    "matmul_pack_untilize_test_fp32": (matmul_pack_untilize, dict(FP32, fidelity="HiFi4"),
                                       "FP32 matmul HiFi4, one tile, packed untilized"),
    "matmul_pack_untilize_test_bfp8_in": (matmul_pack_untilize,
                                          dict(BFP8, out="Float16_b", fidelity="LoFi"),
                                          "BFP8_b in, BF16 out matmul LoFi, packed untilized"),
    "matmul_unpack_tilize_test": (matmul_unpack_tilize, dict(BF16, fidelity="HiFi4"),
                                  "BF16: tilize A and B, then matmul HiFi4 (two runs)"),
    "matmul_unpack_tilize_test_fp16": (matmul_unpack_tilize, dict(FP16, fidelity="LoFi"),
                                       "FP16: tilize A and B, then matmul LoFi (two runs)"),
    "matmul_unpack_tilize_test_fp32": (matmul_unpack_tilize, dict(FP32, fidelity="HiFi3"),
                                       "FP32: tilize A and B, then matmul HiFi3 (two runs)"),
    "matmul_perf": (matmul_perf, dict(BF16, fidelity="LoFi", rt=2, ct=2, kt=2, loop_factor=16),
                    "perf: BF16 matmul LoFi, rt=ct=kt=2, loop factor 16"),
    "math_matmul_perf": (math_matmul_perf, dict(BF16, fidelity="LoFi", rt=1, ct=1, kt=1,
                                                throttle=1, sync="Half", loop_factor=1024),
                         "perf: BF16 matmul LoFi, one tile, throttle 1, loop factor 1024"),

    # Unpack / pack family.
    "unpack_A_test": (unpack_bcast, dict(BF16, bcast="NONE"), "BF16 unpack A, no broadcast"),
    "unpack_A_test_bcast_col": (unpack_bcast, dict(BF16, bcast="COL"),
                                "BF16 unpack A, column broadcast"),
    "unpack_A_test_bcast_row": (unpack_bcast, dict(BF16, bcast="ROW"),
                                "BF16 unpack A, row broadcast"),
    "unpack_A_test_bcast_scalar": (unpack_bcast, dict(BFP8, bcast="SCALAR"),
                                   "BFP8_b unpack A, scalar broadcast"),
    "unpack_untilize_test": (unpack_untilize, dict(BF16, dest_acc=True, rows=32, cols=64),
                             "BF16 unpack untilize 32x64 (32-bit Dst)"),
    "unpack_untilize_test_fp32": (unpack_untilize, dict(FP32, rows=32, cols=32),
                                  "FP32 unpack untilize, one tile"),
    "unpack_tilize_sweep_test": (unpack_tilize_sweep, dict(BF16, rows=64, cols=64, num_faces=4),
                                 "BF16 unpack tilize 64x64, 4 faces"),
    "unpack_tilize_sweep_test_fp16_2f": (unpack_tilize_sweep,
                                         dict(FP16, rows=32, cols=64, num_faces=2),
                                         "FP16 unpack tilize 32x64, 2 faces"),
    "unpack_tilize_sweep_test_fp32": (unpack_tilize_sweep,
                                      dict(FP32, rows=32, cols=128, num_faces=4),
                                      "FP32 unpack tilize 32x128, 32-bit Dst"),
    "unpack_tilize_sweep_test_bfp8_out": (unpack_tilize_sweep,
                                          dict(BF16, out="Bfp8_b", rows=32, cols=128, num_faces=4),
                                          "BF16 in, BFP8_b out unpack tilize 32x128"),
    "pack_test": (pack, dict(BF16, rows=64, cols=64, relu="none", sync="Half"),
                  "BF16 pack 64x64, no ReLU"),
    "pack_test_relu_min": (pack, dict(BF16, rows=32, cols=64, relu="min", sync="Full"),
                           "BF16 pack 32x64, min-threshold ReLU, SyncFull"),
    "pack_test_fp32": (pack, dict(FP32, rows=32, cols=64, relu="max", sync="Half"),
                       "FP32 pack 32x64 (unpack to Dst), max-threshold ReLU"),
    "pack_test_bfp8": (pack, dict(BFP8, rows=64, cols=32, relu="zero", sync="Half"),
                       "BFP8_b pack 64x32, zero ReLU"),
    "pack_rows_test": (pack_rows, dict(BF16, rows=32, cols=64, rows_to_pack=16),
                       "BF16 pack 16 rows of each of 2 tiles"),
    "pack_rows_test_fp32": (pack_rows, dict(FP32, rows=64, cols=32, rows_to_pack=50),
                            "FP32 pack 50 rows of each of 2 tiles (unpack to Dst)"),
    "pack_rows_test_bfp8": (pack_rows, dict(BFP8, rows=32, cols=32, rows_to_pack=64),
                            "BFP8_b pack all 64 rows of one tile"),
    "pack_dest_bank_test": (pack_dest_bank, dict(BF16, rows=32, cols=64, l1_acc=False),
                            "BF16 blocked pack 32x64"),
    "pack_dest_bank_test_l1acc": (pack_dest_bank,
                                  dict({"in": "Float16", "out": "Float16", "dest_acc": True},
                                       rows=128, cols=64, l1_acc=True),
                                  "FP16 blocked pack 128x64 with L1 accumulation, 32-bit Dst"),
    "dense_pack_untilize_test": (dense_pack_untilize, dict(BF16, cols=64, r_dim=8),
                                 "BF16 dense pack untilize 32x64, 8 rows per face"),
    "pack_tiny_tile_block_test": (partial(pack_tiny_tile, source="sources/pack_tiny_tile_block_test.cpp"),
                                  dict(BF16, tile_r=8, tile_c=32, tiles=4),
                                  "BF16 pack 4 tiles of 8x32"),
    "pack_tiny_tile_block_test_16x16": (
        partial(pack_tiny_tile, source="sources/pack_tiny_tile_block_test.cpp"),
        dict({"in": "Float16", "out": "Float16", "dest_acc": True}, tile_r=16, tile_c=16, tiles=8),
        "FP16 pack 8 tiles of 16x16, 32-bit Dst"),
    "pack_tiny_tile_reconfig_test": (
        partial(pack_tiny_tile, source="sources/pack_tiny_tile_reconfig_test.cpp"),
        dict(BF16, tile_r=4, tile_c=32, tiles=4), "BF16 pack 32x32 then 4 tiles of 4x32"),

    # Eltwise family.
    "multiple_tiles_eltwise_test": (multiple_tiles_eltwise,
                                    dict(BF16, op="elwadd", fidelity="LoFi", tiles=4),
                                    "BF16 elwadd, 4 tiles in one Dst section (the source no "
                                    "longer compiles against tt-llk's API)"),
    "multiple_tiles_eltwise_custom_test": (eltwise_bcast_col_custom,
                                           dict(BF16, op="elwsub", fidelity="LoFi", ct=4),
                                           "BF16 A(32x128) - column-broadcast B tile"),
    "eltwise_binary_transpose_bcast_test": (eltwise_transpose_bcast,
                                            dict(BF16, bcast="COL", transpose=True, tiles=2),
                                            "BF16 transpose(A) - column-broadcast B, 2 tiles (the "
                                            "source no longer compiles against tt-llk's API)"),
    "eltwise_unary_datacopy_custom_test": (unary_datacopy_custom, dict(BF16),
                                           "BF16 datacopy, one tile"),
    "transpose_dest_test": (transpose_dest, dict(BF16, math_transpose=True, unpack_to_dest=False),
                            "BF16 transpose in Dst, 4 tiles"),
    "transpose_dest_test_bfp8": (transpose_dest, dict(BFP8, math_transpose=True,
                                                      unpack_to_dest=False),
                                 "BFP8_b transpose in Dst, 4 tiles"),
    "transpose_dest_test_fp16": (transpose_dest, dict(FP16, math_transpose=True,
                                                      unpack_to_dest=False),
                                 "FP16 transpose in Dst, 4 tiles"),
    "transpose_dest_test_int32": (transpose_dest, dict(INT32, math_transpose=True,
                                                       unpack_to_dest=True),
                                  "Int32 transpose in a 32-bit Dst (unpack to Dst), 4 tiles"),
    "transpose_dest_test_int32_within": (transpose_dest, dict(INT32, math_transpose=False,
                                                              unpack_to_dest=True),
                                         "Int32: unpacker transposes faces, Dst within faces"),
    "tilize_calculate_untilize_L1": (tilize_calculate_untilize,
                                     dict(BF16, op="elwadd", fidelity="LoFi"),
                                     "BF16 tilize, elwadd, untilize (two runs)"),
    "tilize_calculate_untilize_L1_fp32": (tilize_calculate_untilize,
                                          dict(FP32, op="elwmul", fidelity="HiFi4"),
                                          "FP32 tilize, elwmul HiFi4, untilize (two runs)"),

    # The rest.
    "risc_compute_test": (risc_compute, {}, "Int32 A+B by each TRISC's RISC-V core"),
    "profiler_overhead_test": (profiler_overhead, {}, "profiler zone overhead (32 zones)"),
    "sdpa_reinits_test": (sdpa_reinits, dict(BF16), "BF16 matmul, row max, elwsub bcast, matmul"),
    "stream_integration_test": (stream_integration, {}, "TRISC0 -> TRISC1 packets through an L1 stream"),
    "eltwise_bcast_col_custom_perf": (eltwise_bcast_col_custom_perf, dict(BF16, ct=8, loop_factor=16),
                                      "perf: BF16 elwsub column broadcast, ct=8, loop factor 16"),
    "math_transpose_perf": (math_transpose_perf, dict(BF16, math_transpose=True,
                                                      unpack_transpose=False),
                            "perf: BF16 transpose in Dst, 16 tiles"),
    "math_transpose_perf_int32": (math_transpose_perf, dict(INT32, math_transpose=False,
                                                            unpack_transpose=True),
                                  "perf: Int32 transpose (unpacker faces, Dst within), 16 tiles"),
    "pack_dest_bank_perf": (pack_dest_bank_perf, dict(BF16, num_blocks=2, tiles_in_block=4,
                                                      loop_factor=16, l1_acc=False),
                            "perf: BF16 blocked pack 2x4 tiles, loop factor 16"),
    "pack_untilize_perf": (pack_untilize_perf, dict(BF16, rt=2, ct=4),
                           "perf: BF16 pack untilize 2x4 tiles"),
    "reduce_perf": (reduce_perf, dict(BF16, dim="row", pool="max"),
                    "perf: BF16 row max-reduce, 16 tiles"),
    "reduce_perf_bfp8_scalar": (reduce_perf, dict(BFP8, dim="scalar", pool="avg"),
                                "perf: BFP8_b scalar average-reduce, 16 tiles"),
    "unpack_transpose_perf": (unpack_transpose_perf, dict(FP16, faces=True, within_face=True),
                              "perf: FP16 unpack transpose (faces and within), 16 tiles"),
    "unpack_untilize_perf": (unpack_untilize_perf, dict(BF16, rt=2, ct=3),
                             "perf: BF16 unpack untilize 2x3 tiles"),

    # tt-llk's TTI_-only SFPU kernels through tensim's own sources (riscv/sdk/llk/sources).
    "tti_add_int": (tti_binary, dict(op="ADD_INT"), "Int32 _add_int_, Dst tile 0 + tile 1"),
    "tti_sub_int": (tti_binary, dict(op="SUB_INT"), "Int32 _sub_int_, Dst tile 0 - tile 1"),
    "tti_bitwise_and": (tti_binary, dict(op="AND"), "Int32 _calculate_sfpu_binary_bitwise_ AND"),
    "tti_bitwise_or": (tti_binary, dict(op="OR"), "Int32 _calculate_sfpu_binary_bitwise_ OR"),
    "tti_bitwise_xor": (tti_binary, dict(op="XOR"), "Int32 _calculate_sfpu_binary_bitwise_ XOR"),
    "tti_left_shift": (tti_binary, dict(op="LEFT_SHIFT"),
                       "Int32 _calculate_binary_left_shift_, amounts -8..39"),
    "tti_right_shift": (tti_binary, dict(op="RIGHT_SHIFT"),
                        "Int32 _calculate_binary_right_shift_ (arithmetic), amounts 0..31"),
    "tti_logical_right_shift": (tti_binary, dict(op="LOGICAL_RIGHT_SHIFT"),
                                "Int32 _calculate_logical_right_shift_, amounts -8..39"),
    "tti_square": (tti_unary, dict(BF16, op="SQUARE", tiles=4), "BF16 _calculate_square_, 4 tiles"),
    "tti_square_fp32": (tti_unary, dict(FP32, op="SQUARE", tiles=2),
                        "FP32 _calculate_square_, 32-bit Dst (unpack to Dst), 2 tiles"),
    "tti_dropout_keep": (tti_unary, dict(BF16, op="DROPOUT", tiles=2, probability=0, scale=2.0,
                                         seed=7),
                         "BF16 _calculate_dropout_, probability 0: every datum times 2"),
    "sfpu_reduce_test_col_max": (sfpu_reduce, dict(FP32, pool="max", tiles=2),
                                 "FP32 column max in Dst (SFPU), 2 tiles"),
    "sfpu_reduce_test_col_sum": (sfpu_reduce, dict(FP32, pool="sum", tiles=2),
                                 "FP32 column sum in Dst (SFPU), 2 tiles"),
    "sfpu_reduce_sdpa_test": (sfpu_reduce_sdpa, dict(BF16),
                              "BF16 column max of a 128x64 block (SFPU, SDPA sub-blocks)"),
    "ttnn_where_test": (ttnn_where, dict(FP32), "FP32 where(A != 0, B, C), one tile each"),
    "ttnn_where_test_bf16": (ttnn_where, dict(BF16), "BF16 where(A != 0, B, C), one tile each"),
    "tti_dropout_all": (tti_unary, dict(BF16, op="DROPOUT", tiles=2, probability=(1 << 31) - 1,
                                        scale=2.0, seed=7),
                        "BF16 _calculate_dropout_, probability 2^31 - 1: every datum dropped"),
}


# Blackhole test sources (tests/sources, not quasar/) with no variant, and why.
NEEDS_SFPI = "calls SFPU kernels written with SFPI vector types: needs SFPI's riscv-tt-elf-g++"
VIA_OPERATIONS = ("reaches its SFPU kernels through sfpu_operations.h, which includes SFPI kernels: "
                  "needs SFPI's riscv-tt-elf-g++; the TTI_-only kernels it can call run through "
                  "tensim's own sources instead (the tti_* variants)")
NOT_COVERED = {
    "eltwise_binary_sfpu_perf.cpp": VIA_OPERATIONS,
    "eltwise_unary_sfpu_perf.cpp": VIA_OPERATIONS,
    "eltwise_unary_sfpu_test.cpp": VIA_OPERATIONS,
    "matmul_and_unary_sfpu_test.cpp": VIA_OPERATIONS + "; its test is also skipped on Blackhole",
    "sfpu_binary_test.cpp": VIA_OPERATIONS,
    "sfpu_reduce_row_max_perf.cpp": "its kernels are TTI_-only and build, but its one run type, "
                                    "MATH_ISOLATE, has SFPLOAD read Dst rows nothing wrote: "
                                    "undefined behaviour (WH:ZEROACC.md), which stops tensim",
    "sfpu_reduce_sdpa_perf.cpp": "its test is skipped on Blackhole",
    "topk_test.cpp": "its kernels (ckernel_sfpu_topk.h) are TTI_-only, but it includes tt-metal's "
                     "llk_math_eltwise_unary_sfpu_topk.h, which the harness fetches apart from the "
                     "six headers (hw_specific/blackhole/metal_sfpu)",
    "ai_gen/*.cpp": NEEDS_SFPI + " (all four combine an SFPU op with an FPU one)",
    "fast_tilize_test.cpp": "test_fast_tilize.py, test_fast_tilize_tiny_tiles.py and "
                            "perf_fast_tilize.py are all skipped on Blackhole",
    "unpack_a_bcast_eltwise_test.cpp": "test_unpack_a_bcast_eltwise.py is skipped on Blackhole",
    "unpack_a_bcast_eltwise_perf.cpp": "perf_unpack_a_bcast_eltwise.py is skipped on Blackhole",
    "profiler_primitives_test.cpp": "test_profiler_primitives.py is skipped on Blackhole (and "
                                    "Wormhole)",
    "state/reconfig/math_reconfig_test.cpp": "test_math_reconfig.py compares Tensix register state "
                                             "read over the debug bus (TensixState.fetch) between "
                                             "two runs; a run description reads back L1 only",
}


def coerce(value, default):
    if isinstance(default, bool):
        return value.lower() in ("1", "true", "yes")
    if isinstance(default, int):
        return int(value, 0)
    return value


def make_spec(name, overrides, seed=0):
    family, defaults, _ = VARIANTS[name]
    params = dict(defaults)
    for key, value in overrides.items():
        if key not in params:
            raise ValueError(f"{name} has no parameter {key} (it has {', '.join(params)})")
        params[key] = coerce(value, defaults[key])
    rng = np.random.default_rng(seed)
    spec = family(name, params, rng)
    spec.params = params
    return spec
