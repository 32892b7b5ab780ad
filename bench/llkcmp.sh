#!/usr/bin/env bash
# bench/llkcmp.sh BASE_TENSIM NEW_TENSIM [DIR...]   (make llkcmp; docs/testing.md "make llkcmp")
#
# Regression check of two tensim builds on real kernels: every run.json under the DIRs (default:
# build/llk-bench, which `make bench-llk` makes, or $LLKCMP_DIRS; a `tensim-llk --out DIR` folder
# holds one per tt-llk variant) runs under both binaries as `tensim run -q --run=FILE
# --stats=OUT.json`; the exit status, the stats JSON, every output file the description names
# (read, zones, dram_read), stdout and stderr must be byte-identical.
#
# Each description is copied into one scratch folder with its inputs made absolute and its
# outputs made local, and both binaries run it from that same folder one after the other, so the
# paths tensim records in the stats (run.description, dumps[].file) are the same for both.
#
# Prints one line per run description and "N run descriptions, M differ"; exits 0 when none
# differ, 1 when some do, 2 on a usage error. Keeps the differing runs' outputs under
# $LLKCMP_KEEP (default build/llkcmp-diffs) for inspection.
set -u

if [ $# -lt 2 ]; then
  echo "usage: $0 BASE_TENSIM NEW_TENSIM [DIR...]" >&2
  exit 2
fi
BASE=$(readlink -f "$1"); NEW=$(readlink -f "$2"); shift 2
for b in "$BASE" "$NEW"; do
  [ -x "$b" ] || { echo "llkcmp: $b is not an executable" >&2; exit 2; }
done
if [ $# -gt 0 ]; then DIRS=("$@"); else read -r -a DIRS <<< "${LLKCMP_DIRS:-build/llk-bench}"; fi
KEEP=$(readlink -f "${LLKCMP_KEEP:-build/llkcmp-diffs}")
NICE=${LLKCMP_NICE:-nice -n 10}
PY=/usr/bin/python3

S=$(mktemp -d /tmp/llkcmp.XXXXXX)
trap 'rm -rf "$S"' EXIT
rm -rf "$KEEP"

# Rewrite a run description: inputs absolute (relative to the description's folder), outputs
# (read / dram_read / chip tiles' read files, zones) local to the scratch folder, numbered so
# that no two collide. Prints the local output names, one a line.
REWRITE='
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
d = json.load(open(src))
base = os.path.dirname(os.path.abspath(src))
outs = []
def absin(p): return p if os.path.isabs(p) else os.path.normpath(os.path.join(base, p))
def out(p):
    name = "out%d_%s" % (len(outs), os.path.basename(p))
    outs.append(name)
    return name
def fix_tile(t):
    for k, v in list(t.get("programs", {}).items()):
        t["programs"][k] = absin(v)
    for e in t.get("l1", []):
        if "file" in e: e["file"] = absin(e["file"])
    for e in t.get("read", []):
        e["file"] = out(e["file"])
fix_tile(d)
for h in d.get("host", []):
    w = h.get("write", {})
    if "file" in w: w["file"] = absin(w["file"])
if "zones" in d: d["zones"] = out(d["zones"])
chip = d.get("chip")
if chip:
    for t in chip.get("tiles", []): fix_tile(t)
    for e in chip.get("dram", []):
        if "file" in e: e["file"] = absin(e["file"])
    for e in chip.get("dram_read", []):
        e["file"] = out(e["file"])
json.dump(d, open(dst, "w"), indent=1)
print("\n".join(outs))
'

CYCLES='
import json, sys
try: print(json.load(open(sys.argv[1])).get("cycles", "?"))
except Exception: print("-")
'

mapfile -t RUNS < <(for d in "${DIRS[@]}"; do [ -d "$d" ] && find -H "$d" -name run.json -type f; done | sort)
if [ ${#RUNS[@]} -eq 0 ]; then
  echo "llkcmp: no run.json under ${DIRS[*]} (make bench-llk, or tensim-llk --out DIR, makes them)" >&2
  exit 2
fi
n=0; ndiff=0
for run in "${RUNS[@]}"; do
  n=$((n + 1))
  rm -rf "$S/w" "$S/base" "$S/new"; mkdir -p "$S/w" "$S/base" "$S/new"
  if ! outs=$($PY -c "$REWRITE" "$run" "$S/w/run.json" 2>"$S/rewrite.err"); then
    echo "DIFF  cannot read $run: $(head -1 "$S/rewrite.err")"; ndiff=$((ndiff + 1)); continue
  fi
  for side in base new; do
    if [ $side = base ]; then bin=$BASE; else bin=$NEW; fi
    (cd "$S/w" && $NICE "$bin" run -q --run="$S/w/run.json" --stats="$S/w/stats.json" \
        >"$S/$side/stdout" 2>"$S/$side/stderr"; echo $? >"$S/$side/rc")
    for f in stats.json $outs; do
      [ -e "$S/w/$f" ] && mv "$S/w/$f" "$S/$side/$f"
    done
  done
  what=()
  rb=$(cat "$S/base/rc"); rn=$(cat "$S/new/rc")
  [ "$rb" = "$rn" ] || what+=("exit $rb/$rn")
  for f in stats.json $outs stdout stderr; do
    if [ -e "$S/base/$f" ] || [ -e "$S/new/$f" ]; then
      cmp -s "$S/base/$f" "$S/new/$f" || what+=("${f#out[0-9]*_}")
    fi
  done
  cb=$($PY -c "$CYCLES" "$S/base/stats.json"); cn=$($PY -c "$CYCLES" "$S/new/stats.json")
  if [ ${#what[@]} -eq 0 ]; then
    printf 'same  exit %-3s cycles %-8s %s\n' "$rn" "$cn" "$run"
  else
    ndiff=$((ndiff + 1))
    [ "$cb" = "$cn" ] && cyc="cycles $cn" || cyc="cycles $cb/$cn"
    printf 'DIFF  exit %s/%s %s  %s: %s\n' "$rb" "$rn" "$cyc" "$run" "$(IFS=,; echo "${what[*]}")"
    k="$KEEP/$(echo "${run#/}" | tr / _)"; mkdir -p "$k"; cp -a "$S/base" "$S/new" "$S/w/run.json" "$k/"
  fi
done
echo "$n run descriptions, $ndiff differ"
[ "$ndiff" -eq 0 ]
