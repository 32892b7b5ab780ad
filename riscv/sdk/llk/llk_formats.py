"""Number formats of tt-llk's Blackhole tests, in numpy.

What the test harness does with torch and ml_dtypes (stimuli bytes in L1, results read back,
format inference for the unpack/math/pack stages, tile sizes), done here with numpy alone so
that a stock Debian python3-numpy is enough. Everything follows the harness's rules; the
comments say which rule and why.
"""

import numpy as np

# DataFormat codes Blackhole's hardware uses (the values the kernel's FormatConfig carries).
FORMAT_CODE = {
    "Float32": 0, "Float16": 1, "Bfp8": 2, "Tf32": 4, "Float16_b": 5, "Bfp8_b": 6,
    "Bfp4_b": 7, "Int32": 8, "UInt16": 9, "Int8": 14, "UInt32": 24, "Fp8_e4m3": 26,
    "UInt8": 30,
}

# Bytes of one 32x32 tile in L1 (BFP formats carry one exponent byte per 16 datums).
TILE_BYTES = {
    "Bfp8_b": 1088, "Bfp4_b": 576, "Float16": 2048, "Float16_b": 2048, "Float32": 4096,
    "Int32": 4096, "Tf32": 3072, "UInt32": 4096, "UInt16": 2048, "Int8": 1024,
    "UInt8": 1024, "Fp8_e4m3": 1024,
}

# The harness's comparison tolerances per output format (atol, rtol).
TOLERANCE = {
    "Float16": (0.05, 0.05), "Float16_b": (0.05, 0.05), "Float32": (0.05, 0.05),
    "Int32": (0, 0), "UInt32": (0, 0), "UInt16": (0, 0), "Int8": (0, 0), "UInt8": (0, 0),
    "Bfp8_b": (0.1, 0.2), "Bfp4_b": (0.25, 0.3), "Fp8_e4m3": (0.2, 0.2),
}

MIN_BFP_EXPONENTS = 16  # the unpacker and packer want at least 16 exponent bytes
FACE_C_DIM = 16

EXPONENT_B = {"Float16_b", "Bfp8_b", "Bfp4_b", "Tf32", "Float32"}
INTEGER = {"Int32", "UInt32", "UInt16", "Int8", "UInt8"}
THIRTY_TWO_BIT = {"Float32", "Int32", "UInt32"}


def is_exponent_b(fmt):
    return fmt in EXPONENT_B


def tile_size_bytes(fmt, tile_dims=(32, 32)):
    """Bytes of one tile in L1, as the harness's calculate_tile_size_bytes."""
    elements = tile_dims[0] * tile_dims[1]
    if elements == 1024:
        return TILE_BYTES[fmt]
    exps = max(elements // 16, MIN_BFP_EXPONENTS)
    if fmt in ("Bfp8", "Bfp8_b"):
        return exps + elements
    if fmt == "Bfp4_b":
        return exps + elements // 2
    return elements * {"Float32": 4, "Int32": 4, "UInt32": 4, "Float16": 2, "Float16_b": 2,
                       "UInt16": 2}.get(fmt, 1)


def runtime_tile_size(fmt):
    """TILE_SIZE_PACK/UNPACK_A/B of the runtime arguments: 16-byte words; the harness knows
    only Bfp8_b and Float32 and uses 128 for every other format."""
    return {"Bfp8_b": 68, "Float32": 256}.get(fmt, 128)


# ---------------------------------------------------------------------------------------------
# Format inference (the harness's data_format_inference for Blackhole).

def is_outlier(in_fmt, out_fmt, dest_acc):
    """An 8-bit-exponent input to Float16 output needs a 32-bit Dst: the harness turns dest_acc
    on for it."""
    return is_exponent_b(in_fmt) and in_fmt != "Float32" and out_fmt == "Float16" and not dest_acc


def infer_unpack_out(in_fmt, out_fmt, dest_acc, to_dest=False):
    if in_fmt == "Bfp4_b":
        return "Bfp8_b"
    if in_fmt == "Float32" and not to_dest:
        if dest_acc:
            return "Tf32"
        return "Float16_b" if is_exponent_b(out_fmt) else "Float16"
    return in_fmt


def infer_pack_in(out_fmt, unpack_out, dest_acc, to_dest=False):
    if unpack_out == "Float32" and not to_dest:
        if dest_acc or (is_exponent_b(out_fmt) and out_fmt != "Float32"):
            return out_fmt
        return unpack_out
    if unpack_out == "Float16" and out_fmt == "Bfp8_b" and not dest_acc:
        return "Bfp8"
    if is_outlier(unpack_out, out_fmt, dest_acc):
        return out_fmt  # Blackhole's gasket converts
    if out_fmt == "Bfp4_b":
        return "Float32" if dest_acc else "Float16_b"
    return out_fmt if dest_acc else unpack_out


def infer_formats(in_a, out_fmt, dest_acc, to_dest=False, in_b=None):
    """The eleven formats of FormatConfig, in the kernel's field order."""
    in_b = in_b or in_a
    ua = infer_unpack_out(in_a, out_fmt, dest_acc, to_dest)
    ub = infer_unpack_out(in_b, out_fmt, dest_acc, to_dest)
    us = infer_unpack_out(in_a, out_fmt, dest_acc, to_dest)
    math = ua
    if math == "Fp8_e4m3":
        math = "Float16"
    pack_in = infer_pack_in(out_fmt, math, dest_acc, to_dest)
    if out_fmt == "Fp8_e4m3":
        pack_in = "Float16_b" if is_exponent_b(math) else "Float16"
    pack_in_s = infer_pack_in(out_fmt, us, dest_acc, to_dest)
    return {
        "unpack_A_src": in_a, "unpack_B_src": in_b, "unpack_S_src": in_a,
        "unpack_A_dst": ua, "unpack_B_dst": ub, "unpack_S_dst": us,
        "math": math, "pack_src": pack_in, "pack_dst": out_fmt,
        "pack_S_src": pack_in_s, "pack_S_dst": out_fmt,
    }


FORMAT_FIELDS = ["unpack_A_src", "unpack_B_src", "unpack_S_src", "unpack_A_dst", "unpack_B_dst",
                 "unpack_S_dst", "math", "pack_src", "pack_dst", "pack_S_src", "pack_S_dst"]


# ---------------------------------------------------------------------------------------------
# Rounding to the narrow float formats.

def to_bf16(x):
    """Round float32 values to bfloat16 (nearest, ties to even), returned as float32."""
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16 << 16
    return (b & 0xFFFFFFFF).astype(np.uint32).view(np.float32)


def as_format(x, fmt):
    """Values as the given format holds them (float32 array, or int64 for integers)."""
    x = np.asarray(x)
    if fmt in ("Float16_b", "Bfp8_b", "Bfp4_b"):
        return to_bf16(x.astype(np.float32))
    if fmt == "Float16":
        return x.astype(np.float16).astype(np.float32)
    if fmt in ("Float32", "Tf32"):
        return x.astype(np.float32)
    if fmt in INTEGER:
        return x.astype(np.int64)
    raise ValueError(f"format {fmt} not supported")


# ---------------------------------------------------------------------------------------------
# Block floating point, as the harness packs it: per 16 datums one shared exponent (the largest
# bfloat16 exponent), the mantissas with their hidden bit shifted right (truncating) by the
# difference; exponents first (at least 16), then mantissas.

def _bf16_fields(block):
    bits = to_bf16(block).view(np.uint32) >> 16
    sign = (bits >> 15) & 1
    exp = (bits >> 7) & 0xFF
    mant = (bits & 0x7F) | 0x80  # the hidden bit, as the harness adds it (zero included)
    return sign.astype(np.int64), exp.astype(np.int64), mant.astype(np.int64)


def pack_bfp8_b(values):
    v = np.asarray(values, dtype=np.float32).reshape(-1, 16)
    sign, exp, mant = _bf16_fields(v)
    shared = exp.max(axis=1)
    shift = np.minimum(shared[:, None] - exp, 63)
    m = (mant >> shift) >> 1  # 7 mantissa bits: the harness drops the last bfloat16 bit
    m = (sign << 7) | m
    exps = list(shared.astype(np.uint8))
    exps += [0] * max(0, MIN_BFP_EXPONENTS - len(exps))
    return bytes(np.array(exps, dtype=np.uint8)) + bytes(m.astype(np.uint8).ravel())


def unpack_bfp8_b(data, n):
    blocks = n // 16
    nexp = max(blocks, MIN_BFP_EXPONENTS)
    raw = np.frombuffer(bytes(data), dtype=np.uint8)
    exps = raw[:blocks].astype(np.int64) - 127
    mant = raw[nexp:nexp + n].astype(np.int64).reshape(blocks, 16)
    sign = np.where(mant & 0x80, -1.0, 1.0)
    frac = (mant & 0x7F) / 64.0
    return (sign * frac * np.exp2(exps[:, None].astype(np.float64))).astype(np.float32).ravel()


def pack_bfp4_b(values):
    v = np.asarray(values, dtype=np.float32).reshape(-1, 16)
    bits = v.view(np.uint32).astype(np.int64)
    nonzero = (bits & 0x7FFFFFFF) != 0
    sign = np.where(nonzero, bits >> 31, 0)
    exp = np.where(nonzero, (bits >> 23) & 0xFF, 0)
    mant = np.where(nonzero, 0x800000 | (bits & 0x7FFFFF), 0)
    shared = exp.max(axis=1)
    shifted = mant >> np.minimum(shared[:, None] - exp, 63)
    m = np.where(mant != 0, (sign << 3) | ((shifted >> 21) & 0x7), 0).ravel()
    exps = list(shared.astype(np.uint8))
    exps += [0] * max(0, MIN_BFP_EXPONENTS - len(exps))
    packed = (m[0::2] | (m[1::2] << 4)).astype(np.uint8)
    return bytes(np.array(exps, dtype=np.uint8)) + bytes(packed)


def unpack_bfp4_b(data, n):
    blocks = n // 16
    nexp = max(blocks, MIN_BFP_EXPONENTS)
    raw = np.frombuffer(bytes(data), dtype=np.uint8)
    exps = raw[:blocks].astype(np.int64) - 127
    packed = raw[nexp:nexp + n // 2].astype(np.int64)
    m = np.empty(n, dtype=np.int64)
    m[0::2] = packed & 0xF
    m[1::2] = packed >> 4
    m = m.reshape(blocks, 16)
    sign = np.where(m & 0x8, -1.0, 1.0)
    frac = (m & 0x7) / 4.0
    return (sign * frac * np.exp2(exps[:, None].astype(np.float64))).astype(np.float32).ravel()


def bfp_round_trip(values, fmt):
    """What a BFP format keeps of the values (the golden's quantisation)."""
    v = np.asarray(values, dtype=np.float32).ravel()
    if fmt == "Bfp8_b":
        return unpack_bfp8_b(pack_bfp8_b(v), v.size)
    if fmt == "Bfp4_b":
        return unpack_bfp4_b(pack_bfp4_b(v), v.size)
    return v


# ---------------------------------------------------------------------------------------------
# One tile's bytes in L1, and back.

def _sign_magnitude(v, bits):
    v = np.asarray(v, dtype=np.int64)
    lim = (1 << (bits - 1)) - 1
    v = np.clip(v, -lim, lim)
    return np.where(v < 0, (1 << (bits - 1)) | -v, v)


def pack(values, fmt):
    """Bytes of the values in an L1 format (integers in sign-magnitude, as the hardware)."""
    v = np.asarray(values)
    if fmt == "Float16_b":
        return (to_bf16(v.astype(np.float32)).view(np.uint32) >> 16).astype("<u2").tobytes()
    if fmt == "Float16":
        return v.astype("<f2").tobytes()
    if fmt == "Float32":
        return v.astype("<f4").tobytes()
    if fmt == "Bfp8_b":
        return pack_bfp8_b(v)
    if fmt == "Bfp4_b":
        return pack_bfp4_b(v)
    if fmt == "Int8":
        return _sign_magnitude(v, 8).astype(np.uint8).tobytes()
    if fmt == "Int32":
        return _sign_magnitude(v, 32).astype("<u4").tobytes()
    if fmt == "UInt8":
        return v.astype(np.uint8).tobytes()
    if fmt == "UInt16":
        return v.astype("<u2").tobytes()
    if fmt == "UInt32":
        return v.astype("<u4").tobytes()
    raise ValueError(f"cannot pack {fmt}")


def unpack(data, fmt, n):
    """n values of an L1 format from bytes (float32, or int64 for integers)."""
    data = bytes(data)
    if fmt == "Float16_b":
        return (np.frombuffer(data, "<u2", n).astype(np.uint32) << 16).view(np.float32)
    if fmt == "Float16":
        return np.frombuffer(data, "<f2", n).astype(np.float32)
    if fmt == "Float32":
        return np.frombuffer(data, "<f4", n).copy()
    if fmt == "Bfp8_b":
        return unpack_bfp8_b(data, n)
    if fmt == "Bfp4_b":
        return unpack_bfp4_b(data, n)
    if fmt == "Int8":
        raw = np.frombuffer(data, np.uint8, n).astype(np.int64)
        return np.where(raw & 0x80, -(raw & 0x7F), raw)
    if fmt == "Int32":
        raw = np.frombuffer(data, "<u4", n).astype(np.int64)
        return np.where(raw & 0x80000000, -(raw & 0x7FFFFFFF), raw)
    if fmt in ("UInt8", "UInt16", "UInt32"):
        dt = {"UInt8": np.uint8, "UInt16": "<u2", "UInt32": "<u4"}[fmt]
        return np.frombuffer(data, dt, n).astype(np.int64)
    raise ValueError(f"cannot unpack {fmt}")


# ---------------------------------------------------------------------------------------------
# Tile layout: a 32x32 tile is four 16x16 faces (top-left, top-right, bottom-left,
# bottom-right), each row-major.

def tilize(matrix, tile_r=32, tile_c=32, face_r=16):
    """Row-major matrix -> tiles in row-major tile order, each tile face after face."""
    m = np.asarray(matrix)
    rows, cols = m.shape
    tiles = m.reshape(rows // tile_r, tile_r, cols // tile_c, tile_c).swapaxes(1, 2)
    tiles = tiles.reshape(-1, tile_r, tile_c)
    fr, fc = tile_r // face_r, tile_c // FACE_C_DIM
    faces = tiles.reshape(-1, fr, face_r, fc, FACE_C_DIM).swapaxes(2, 3)
    return faces.reshape(-1)


def untilize(flat, rows, cols, tile_r=32, tile_c=32, face_r=16):
    fr, fc = tile_r // face_r, tile_c // FACE_C_DIM
    faces = np.asarray(flat).reshape(rows // tile_r, cols // tile_c, fr, fc, face_r, FACE_C_DIM)
    return faces.transpose(0, 2, 4, 1, 3, 5).reshape(rows, cols)


# ---------------------------------------------------------------------------------------------
# The harness's verdict: every datum within isclose(atol, rtol) (or both NaN), and the Pearson
# correlation above 0.99 (0.98 for Bfp4_b).

def pcc(golden, result):
    g = np.asarray(golden, dtype=np.float64).ravel()
    r = np.asarray(result, dtype=np.float64).ravel()
    if np.all(np.isnan(g)) and np.all(np.isnan(r)):
        return 1.0
    if np.all(np.isnan(g)) or np.all(np.isnan(r)):
        return 0.0
    if np.any(g != 0) != np.any(r != 0):
        return 0.0
    if np.array_equal(g, r):
        return 1.0
    g = np.where(np.isfinite(g), g, 0.0)
    r = np.where(np.isfinite(r), r, 0.0)
    if g.std() == 0 or r.std() == 0:
        return 1.0 if np.array_equal(g, r) else 0.0
    return float(np.corrcoef(g, r)[0, 1])


def compare(golden, result, fmt, atol=None, rtol=None, pcc_target=None):
    """(passed, reason) the harness's way (a test may pass its own tolerances or PCC target)."""
    g = as_format(golden, fmt).astype(np.float64)
    r = as_format(result, fmt).astype(np.float64)
    if g.shape != r.shape:
        return False, f"length {r.size} != golden {g.size}"
    d_atol, d_rtol = TOLERANCE[fmt]
    atol = d_atol if atol is None else atol
    rtol = d_rtol if rtol is None else rtol
    ok = np.isclose(r, g, rtol=rtol, atol=atol) | (np.isnan(g) & np.isnan(r))
    p = pcc(g, r)
    target = pcc_target if pcc_target is not None else (0.98 if fmt == "Bfp4_b" else 0.99)
    bad = np.flatnonzero(~ok)
    if bad.size:
        i = bad[0]
        return False, (f"{bad.size}/{g.size} datums outside atol={atol} rtol={rtol} "
                       f"(first at {i}: got {r[i]:g}, want {g[i]:g}); pcc={p:.4f}")
    if not p > target:
        return False, f"pcc {p:.4f} <= {target}"
    return True, f"pcc={p:.5f}"
