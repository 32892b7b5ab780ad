"""The tt-llk Blackhole test variants tensim-llk knows: one table, one builder per family.

Each builder turns a variant's parameters into a Spec the way the matching pytest test of
tt-llk (tests/python_tests/test_*.py, perf_*.py) configures its TestConfig: the same template
parameters (build.h lines), runtime parameters (struct fields and values), stimuli layout in
L1, and golden. Stimuli come from a seeded numpy generator with the harness's value ranges.
"""

import math
from dataclasses import dataclass, field

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
        lines.append(f"constexpr auto POOL_TYPE = ckernel::PoolType::{pool.upper()};")
        cols = [("mathop", f"MathOperation.Reduce{reduce_dim.capitalize()}"),
                ("pool_type", f"ReducePool.{pool.capitalize()}")]
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
    has_c: bool = False

    def __post_init__(self):
        self.size_a = F.tile_size_bytes(self.fmt_a, self.tile_dims)
        self.size_b = F.tile_size_bytes(self.fmt_b, self.tile_dims)
        self.size_res = F.tile_size_bytes(self.fmt_res, self.tile_dims)
        self.addr_a = STIMULI_ADDR
        self.addr_b = self.addr_a + self.size_a * self.tiles_a
        self.addr_res = self.addr_b + self.size_b * self.tiles_b

    def operand_values(self):
        return [self.addr_a, self.size_a, self.addr_b, self.size_b, self.addr_res, self.size_res]

    def _elements_per_tile(self):
        return self.num_faces * self.face_r_dim * F.FACE_C_DIM

    def _write(self, values, fmt, tiles, tile_bytes):
        """Bytes of one operand: each tile packed alone at its slot (the dense layout strides
        the values by the tile's datums, the other by a whole 32x32 tile)."""
        out = bytearray(tile_bytes * tiles)
        per_tile = self.tile_dims[0] * self.tile_dims[1] if self.dense else self._elements_per_tile()
        stride = per_tile if self.dense else 1024
        for t in range(tiles):
            chunk = values[t * stride:t * stride + per_tile]
            data = F.pack(chunk, fmt)
            out[t * tile_bytes:t * tile_bytes + len(data)] = data
        return bytes(out)

    def image(self):
        """The bytes from addr_a to addr_res (None when the variant writes no stimuli)."""
        if self.a is None:
            return None
        return (self._write(self.a, self.fmt_a, self.tiles_a, self.size_a) +
                self._write(self.b, self.fmt_b, self.tiles_b, self.size_b))

    def result_length(self):
        return self.size_res * self.tiles_res

    def read_result(self, data):
        """Result values from the bytes read at addr_res, as collect_results unpacks them."""
        vals = []
        needed = self._elements_per_tile()
        for t in range(self.tiles_res):
            tile = data[t * self.size_res:(t + 1) * self.size_res]
            if self.dense:
                needed = self.tile_dims[0] * self.tile_dims[1]
            vals.append(F.unpack(tile, self.fmt_res, needed))
        return np.concatenate(vals)


@dataclass
class Spec:
    name: str
    source: str                  # test source, relative to tests/
    formats: dict                # the eleven FormatConfig fields
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

    @property
    def tile_sizes(self):
        return [F.runtime_tile_size(self.formats["pack_dst"]),
                F.runtime_tile_size(self.formats["unpack_A_src"]),
                F.runtime_tile_size(self.formats["unpack_B_src"])]


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
        return F.bfp_round_trip(values, fmt)
    return F.as_format(values, fmt)


def quantize_output(values, fmt):
    if fmt in ("Bfp8_b", "Bfp4_b"):
        return F.bfp_round_trip(F.to_bf16(values), fmt)
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
# Families.

def eltwise_binary(name, p, rng):
    """test_zzz_eltwise_binary.py: A op B on tilized tiles, no broadcast or transpose."""
    rows, cols = p["rows"], p["cols"]
    dest_acc, formats = formats_for(p)
    tiles = (rows // 32) * (cols // 32)
    a = random_values(rng, p["in"], rows * cols)
    b = random_values(rng, p["in"], rows * cols)
    a_t, b_t = F.tilize(a.reshape(rows, cols)), F.tilize(b.reshape(rows, cols))
    eff_acc = True if p["out"] == "Float32" else p["dest_acc"]
    nb, tib = blocks_for(tiles, eff_acc, p["in"], p["out"])
    ga, gb = quantize_input(a_t, p["in"]), quantize_input(b_t, p["in"])
    op = p["op"]
    if op == "elwmul":
        ffmt = "Float16_b" if p["in"] in ("Bfp8_b", "Bfp4_b") else p["out"]
        # As EltwiseBinaryGolden does: each phase masks the previous phase's masked operands
        # (so phases after the first add next to nothing; the tolerance absorbs the rest).
        res, ma, mb = 0, ga, gb
        for ph in range(FIDELITY_PHASES[p["fidelity"]] + 1):
            ma, mb = fidelity_mask(ma, ffmt, ph, "a"), fidelity_mask(mb, ffmt, ph, "b")
            res = res + ma.astype(np.float64) * mb.astype(np.float64)
        golden = res
    else:
        golden = ga.astype(np.float64) + (gb if op == "elwadd" else -gb.astype(np.float64))
    golden = quantize_output(np.asarray(golden, dtype=np.float32), p["out"])
    return Spec(
        name, "sources/eltwise_binary_test.cpp", formats,
        [MATH_FIDELITY(p["fidelity"]), BROADCAST_TYPE("NONE"), MATH_OP(op=op), DEST_SYNC()],
        [UNPACK_TRANS_FACES(False), UNPACK_TRANS_WITHIN_FACE(False), NUM_TILES_IN_BLOCK(tib),
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


def matmul(name, p, rng):
    """test_matmul.py: A[rt x kt tiles] x B[kt x ct tiles], result tilized."""
    rt, ct, kt = p["rt"], p["ct"], p["kt"]
    m, k, n = rt * 32, kt * 32, ct * 32
    dest_acc, formats = formats_for(p)
    a = random_values(rng, p["in"], m * k, sfpu=False).reshape(m, k)
    b = random_values(rng, p["in"], k * n, sfpu=False).reshape(k, n)
    a_t, b_t = F.tilize(a), F.tilize(b)
    if p["in"] == "Bfp8_b":  # the harness writes Bfp8_b operands untilized; quantise as laid out
        a_t, b_t = a.ravel(), b.ravel()
    qa = F.untilize(quantize_input(a_t, p["in"]), m, k) if p["in"] != "Bfp8_b" else quantize_input(a_t, p["in"]).reshape(m, k)
    qb = F.untilize(quantize_input(b_t, p["in"]), k, n) if p["in"] != "Bfp8_b" else quantize_input(b_t, p["in"]).reshape(k, n)
    phases = FIDELITY_PHASES[p["fidelity"]]
    ffmt = p["out"]
    if phases == 3:
        res = qa.astype(np.float64) @ qb.astype(np.float64)
    else:
        res = 0
        for ph in range(phases + 1):
            ma = fidelity_mask(qa, ffmt, ph, "a").astype(np.float64)
            mb = fidelity_mask(qb, ffmt, ph, "b").astype(np.float64)
            res = res + F.as_format((ma @ mb).astype(np.float32), p["out"])
    golden = F.tilize(quantize_output(np.asarray(res, dtype=np.float32), p["out"]).reshape(m, n))
    tiles_out = rt * ct
    return Spec(
        name, "sources/matmul_test.cpp", formats,
        [MATH_FIDELITY(p["fidelity"])],
        [NUM_FACES(), TILE_COUNT(tiles_out), CRK_TILE_DIMM(ct, rt, kt)],
        Stimuli(a_t, p["in"], b_t, p["in"], p["out"], rt * kt, kt * ct, tiles_out),
        golden, p["out"], dest_acc)


def reduce(name, p, rng):
    """test_reduce.py (32x32 tiles, not reduced to one): per tile, pool rows or columns."""
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
        if p["dim"] == "row":
            vals = pool(mat, axis=1)
            out = np.zeros((32, 32))
            out[:, 0] = vals
        else:
            vals = pool(mat, axis=0)
            out = np.zeros((32, 32))
            out[0, :] = vals
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


# ---------------------------------------------------------------------------------------------
# The table: variant name -> (family, default parameters, what it stands for).

BF16 = {"in": "Float16_b", "out": "Float16_b", "dest_acc": False}

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
    "eltwise_unary_datacopy_test": (unary_datacopy, dict(BF16, rows=64, cols=64),
                                    "BF16 datacopy A2D, 4 tiles"),
    "eltwise_unary_datacopy_test_fp32": (unary_datacopy, dict({"in": "Float32", "out": "Float32", "dest_acc": True},
                                                              rows=32, cols=64),
                                         "FP32 datacopy, unpack to Dst, 2 tiles"),
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
    "eltwise_binary_fpu_perf": (eltwise_binary_perf, dict(BF16, op="elwadd", fidelity="LoFi", tiles=16),
                                "perf: BF16 elwadd, 16 tiles, five run types"),
    "unpack_tilize_perf": (unpack_tilize_perf, dict(BF16, rows=32, cols=128, loop_factor=4),
                           "perf: BF16 unpack tilize 32x128, loop factor 4"),
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
