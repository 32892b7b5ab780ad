"""Running a built variant on tensim and judging it as tt-llk's harness does.

The host side of a harness run is: write the runtime-argument struct at 0x20000 and the
stimuli from 0x21000, boot (BRISC mode: BRISC runs brisc.elf and releases the TRISCs on the
START_TRISCS command), wait for the three mailboxes to read KERNEL_COMPLETE, read the result.
tensim plays the host from a run description (JSON) that this module writes.
"""

import json
import os
import struct
import subprocess
from pathlib import Path

import numpy as np

import llk_formats as F
from llk_build import runtime_struct

RUNTIME_ARGS_ADDR = 0x20000  # memory.blackhole.ld's RUNTIME_ARGS, when an ELF has no symbol


def elf_symbol(path, name):
    """The value of symbol `name` in a 32-bit little-endian ELF, or None: where the kernels'
    linker put their runtime arguments (__runtime_args_start)."""
    data = Path(path).read_bytes()
    shoff, = struct.unpack_from("<I", data, 32)
    shentsize, shnum = struct.unpack_from("<HH", data, 46)
    sections = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], 16):
            st_name, st_value = struct.unpack_from("<II", data, off)
            end = data.index(b"\0", strtab[4] + st_name)
            if data[strtab[4] + st_name:end] == name.encode():
                return st_value
    return None
LAYOUT = "tt-llk-36b092e8"


def runtime_args_bytes(spec):
    _, fmt, values = runtime_struct(spec)
    return struct.pack(fmt, *values)


def write_run(spec, vdir, elfs, brisc, max_cycles, boot="brisc", unpredictable=None):
    """runtime_args.bin, stimuli.bin and run.json in vdir; returns the run.json path.
    unpredictable="warn" lets the run go on past unpredictable behaviour (the run description
    carries it, so `tensim run --run` and `tensim bench` run the variant as this script does)."""
    vdir = Path(vdir)
    (vdir / "runtime_args.bin").write_bytes(runtime_args_bytes(spec))
    args_at = elf_symbol(elfs["unpack"], "__runtime_args_start")
    l1 = [{"addr": hex(RUNTIME_ARGS_ADDR if args_at is None else args_at), "file": "runtime_args.bin"}]
    image = spec.stimuli.image() if spec.stimuli else None
    if image is not None:
        (vdir / "stimuli.bin").write_bytes(image)
        l1.append({"addr": hex(spec.stimuli.addr_a), "file": "stimuli.bin"})
    for addr, data in spec.l1_writes:  # the test's own host writes before the run
        (vdir / f"l1_{addr:x}.bin").write_bytes(data)
        l1.append({"addr": hex(addr), "file": f"l1_{addr:x}.bin"})
    rel = lambda p: os.path.relpath(p, vdir)
    desc = {
        "tensim_run": 1,
        "arch": "blackhole",
        "layout": LAYOUT,
        "boot": boot,
        "programs": {"trisc0": rel(elfs["unpack"]), "trisc1": rel(elfs["math"]),
                     "trisc2": rel(elfs["pack"])},
        "l1": l1,
        "end": "kernel_complete",
        "read": [],
        "max_cycles": max_cycles,
    }
    if unpredictable:
        desc["unpredictable"] = unpredictable
    if boot == "brisc":
        desc["programs"] = {"brisc": rel(brisc), **desc["programs"]}
    if spec.golden is not None:
        desc["read"].append({"addr": hex(spec.stimuli.addr_res),
                             "len": spec.stimuli.result_length(), "file": "result.bin"})
    if spec.raw_check is not None:
        for addr, length in spec.raw_check[0]:
            desc["read"].append({"addr": hex(addr), "len": length, "file": f"read_{addr:x}.bin"})
    path = vdir / "run.json"
    path.write_text(json.dumps(desc, indent=2) + "\n")
    return path


class RunResult:
    def __init__(self, rc, stderr, stats, zones):
        self.rc = rc
        self.stderr = stderr
        self.stats = stats
        self.zones = zones

    @property
    def cycles(self):
        return self.stats.get("cycles") if self.stats else None

    def error_line(self):
        lines = [l for l in self.stderr.splitlines() if l.startswith("tensim:")]
        return lines[0] if lines else (self.stderr.strip().splitlines() or [f"exit {self.rc}"])[0]


def run_tensim(tensim, run_json, zones=False, extra=()):
    """Run tensim on a run description; with zones, tensim also writes the profiler zones it
    read back from L1 (--zones, one CSV row per zone or timestamp)."""
    vdir = Path(run_json).parent
    stats_path = vdir / "stats.json"
    zones_path = vdir / "zones.csv"
    stale = [stats_path, zones_path]  # never judge a run by a previous run's files
    stale += [vdir / r["file"] for r in json.loads(Path(run_json).read_text()).get("read", [])]
    for p in stale:
        if p.exists():
            p.unlink()
    cmd = [str(tensim), "run", f"--run={run_json}", f"--stats={stats_path}", "-q", *extra]
    if zones:
        cmd.append(f"--zones={zones_path}")
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    (vdir / "tensim.cmd").write_text(" ".join(cmd) + "\n")
    (vdir / "tensim.stderr").write_text(res.stderr)
    stats = json.loads(stats_path.read_text()) if stats_path.exists() else None
    zone_rows = read_zones(zones_path) if zones_path.exists() else None
    return RunResult(res.returncode, res.stderr, stats, zone_rows)


def check_raw(spec, vdir):
    """(passed, reason) of a test that judges raw L1 bytes read back (spec.raw_check)."""
    reads, judge = spec.raw_check
    data = []
    for addr, length in reads:
        path = Path(vdir) / f"read_{addr:x}.bin"
        if not path.exists():
            return False, f"no {path.name} written"
        data.append(path.read_bytes())
    return judge(data)


def check_result(spec, vdir):
    """(passed, reason): the harness's passed_test on the result read back."""
    path = Path(vdir) / "result.bin"
    if not path.exists():
        return False, "no result.bin written"
    data = path.read_bytes()
    if len(data) < spec.stimuli.result_length():
        return False, f"result.bin has {len(data)} bytes, want {spec.stimuli.result_length()}"
    got = spec.stimuli.read_result(data)
    if spec.select is not None:
        got = spec.select(got)
    ok, why = F.compare(spec.golden, got, spec.out_fmt, atol=spec.atol, rtol=spec.rtol,
                        pcc_target=spec.pcc_target)
    if ok and spec.exact:
        g = F.as_format(spec.golden, spec.out_fmt)
        r = F.as_format(got, spec.out_fmt)
        if not np.array_equal(g, r):
            i = int(np.flatnonzero(g != r)[0])
            return False, f"not bit-exact (first at {i}: got {r[i]:g}, want {g[i]:g}); {why}"
        why += ", bit-exact"
    return ok, why


# ---------------------------------------------------------------------------------------------
# Perf: the harness's per-run-type statistics (helpers/profiler.py, perf.py), from tensim's
# zone list (--zones: thread, type, marker, ..., start, end, cycles; one row per zone).

def read_zones(path):
    import csv
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _zones_of(rows, thread):
    return [(r["marker"], int(r["start"]), int(r["end"])) for r in rows
            if r["type"] == "zone" and r["thread"] == thread]


def _mean_std(values):
    v = np.asarray(values, dtype=np.float64)
    mean = float(v.mean()) if v.size else float("nan")
    std = float(v.std(ddof=1)) if v.size > 1 else float("nan")  # pandas' sample std
    return mean, std


def run_type_stats(run_type, rows):
    """{marker: {column: value}} for one run type."""
    stats = {}

    def put(marker, col, durations):
        mean, std = _mean_std(durations)
        stats.setdefault(marker, {})[f"mean({col})"] = mean
        stats[marker][f"std({col})"] = std

    def per_thread(col, thread):
        by_marker = {}
        for zone, start, end in _zones_of(rows, thread):
            by_marker.setdefault(zone, []).append(end - start)
        for marker, d in by_marker.items():
            put(marker, col, d)

    if run_type == "L1_TO_L1":
        starts, ends = {}, {}
        for zone, start, _ in _zones_of(rows, "unpack"):
            starts.setdefault(zone, []).append(start)
        for zone, _, end in _zones_of(rows, "pack"):
            ends.setdefault(zone, []).append(end)
        for marker in starts:
            if len(starts[marker]) != len(ends.get(marker, [])):
                raise ValueError(f"L1_TO_L1: zone {marker} unpaired between unpack and pack")
            put(marker, run_type, [e - s for s, e in zip(starts[marker], ends[marker])])
    elif run_type == "L1_CONGESTION":
        per_thread("L1_CONGESTION[UNPACK]", "unpack")
        per_thread("L1_CONGESTION[PACK]", "pack")
    else:
        per_thread(run_type, {"UNPACK_ISOLATE": "unpack", "MATH_ISOLATE": "math",
                              "PACK_ISOLATE": "pack"}[run_type])
    return stats


def perf_tables(spec, per_run, text_sizes):
    """(header, rows, post_rows) of the harness's perf CSV for one variant."""
    fmts = spec.final_formats or {}
    sweep = [("formats.input_A", fmts.get("unpack_A_src")),
             ("formats.input_B", fmts.get("unpack_B_src")),
             ("formats.output", fmts.get("pack_dst")),
             ("unpack_to_dest", spec.unpack_to_dest),
             ("dest_acc", f"DestAccumulation.{'Yes' if spec.dest_acc else 'No'}")]
    for p in spec.templates + spec.runtimes:
        sweep += [(n, v) for n, v in p.columns if v is not None]
    stat_cols, markers = [], []
    for rt in spec.run_types:
        if rt not in per_run:
            continue
        for marker, cols in per_run[rt].items():
            if marker not in markers:
                markers.append(marker)
            for c in cols:
                if c not in stat_cols:
                    stat_cols.append(c)
    size_cols = [(f"TEXT_SIZE({rt})", text_sizes[rt]) for rt in spec.run_types if rt in text_sizes]
    markers.sort()  # pandas' groupby and merge order the markers by name
    header = [n for n, _ in sweep] + ["marker"] + stat_cols + [n for n, _ in size_cols]
    merged = {}
    for stats in per_run.values():
        for marker, cols in stats.items():
            merged.setdefault(marker, {}).update(cols)
    rows, post = [], []
    sweep_vals = dict(sweep)
    divisor = sweep_vals.get("loop_factor", 1) * sweep_vals.get("tile_cnt", 1)
    for marker in markers:
        vals = [merged[marker].get(c, float("nan")) for c in stat_cols]
        base = [v for _, v in sweep] + [marker]
        rows.append(base + vals + [v for _, v in size_cols])
        if marker == "TILE_LOOP":
            vals = [v / divisor for v in vals]
        post.append(base + vals + [v for _, v in size_cols])
    return header, rows, post


def write_csv(path, header, rows):
    import csv

    def fmt(v):
        if isinstance(v, float):
            return "" if np.isnan(v) else repr(v)
        return str(v)

    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow([fmt(v) for v in r])
