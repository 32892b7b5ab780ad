#!/bin/sh
# The speed targets of issue 19 against the commit before it (docs/bench.md "Speed against a
# base commit"): the base is built side by side in build/bench-base (git archive of BASE, its
# own `make`), then each speed benchmark runs 5 times, base and this tree interleaved, and the
# table gives the median of each figure, the ratio now/base and the target. This machine is
# noisy (20% and more between runs), hence the interleaving and the medians.
#
# usage: bench/speed_compare.sh BASE [RUNS]     (run from the repository's top; make bench-compare)
set -eu
base=${1:?usage: bench/speed_compare.sh BASE [RUNS]}
runs=${2:-5}
top=$(pwd)
dir=$top/build/bench-base
if [ "$(cat "$dir/COMMIT" 2>/dev/null)" != "$(git rev-parse "$base")" ]; then
    rm -rf "$dir"
    mkdir -p "$dir/src"
    git archive "$base" | tar -x -C "$dir/src"
    git rev-parse "$base" > "$dir/COMMIT"
fi
benches="rv_speed pipe_speed fpu_speed kernel_speed tiles"
# The base runs this tree's benchmark where its source builds on the base (the same workload on
# both, cases the base's own source lacks included: copied in as bench/<b>_now.c, so that it
# includes the base's headers, with BENCH_ON_BASE defined, which leaves out what needs newer
# interfaces), else the base's own.
now_on_base=""
make -s -C "$dir/src" kernels >/dev/null 2>&1 || true # the programs kernel_speed and tiles load
for b in $benches; do
    { echo '#define BENCH_ON_BASE 1 /* what the base lacks is left out */'
      sed 's/"bench\.h"/"bench_now.h"/' "bench/$b.c"; } > "$dir/src/bench/${b}_now.c"
    cp bench/bench.h "$dir/src/bench/bench_now.h"
    if make -s -C "$dir/src" "build/bench/${b}_now" >/dev/null 2>&1; then
        mv "$dir/src/build/bench/${b}_now" "$dir/src/build/bench/$b"
        now_on_base="$now_on_base $b"
    elif [ -f "$dir/src/bench/$b.c" ]; then
        make -s -C "$dir/src" "build/bench/$b" >/dev/null
    fi
    rm -f "$dir/src/bench/${b}_now.c"
done
out=$top/build/bench/compare
mkdir -p "$out"
rm -f "$out"/*.txt
i=0
while [ $i -lt "$runs" ]; do
    for b in $benches; do
        if [ -x "$dir/src/build/bench/$b" ]; then
            (cd "$dir/src" && "build/bench/$b") >> "$out/base-$b.txt" 2>/dev/null || true # what the base cannot do shows -
        fi
        "build/bench/$b" >> "$out/new-$b.txt"
    done
    i=$((i + 1))
done

# median PATTERN FILE UNIT: the median of the number before "UNIT" (or before "M UNIT") on the
# lines matching PATTERN
median() {
    [ -f "$2" ] || { echo "-"; return; }
    awk -v unit="$3" -v pat="$1" '$0 ~ pat {
            for (i = 2; i < NF; i++) if ($(i + 1) == unit) { print ($i == "M" ? $(i - 1) : $i); break } }' "$2" |
        sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}

echo "base $(cut -c1-10 "$dir/COMMIT"): this tree's source of${now_on_base:- none}; the base's own of the others"
printf '%-38s %12s %12s %8s  %s\n' "figure (median of $runs)" "base" "now" "now/base" "target"
row() { # label pattern unit bench target-value target-text [below: the target is an upper bound]
    b=$(median "$2" "$out/base-$4.txt" "$3")
    n=$(median "$2" "$out/new-$4.txt" "$3")
    awk -v l="$1" -v b="$b" -v n="$n" -v t="$5" -v tt="$6" -v below="${7:-}" 'BEGIN {
        r = (b != "-" && n != "-" && b > 0) ? sprintf("%.2f", n / b) : "-"
        ok = below != "" ? n + 0 < t + 0 : n + 0 >= t + 0
        met = t == "" ? "" : (n != "-" && ok) ? " (met)" : " (not met)"
        printf "%-38s %12s %12s %8s  %s%s\n", l, b, n, r, tt, met }'
}
row "RISC-V, 1 busy TRISC, L1 (M instr/s)" '^loop1' 'instr/s' rv_speed "" "no target of its own"
row "RISC-V, 3 busy TRISCs, L1 (M instr/s)" '^loop3' 'instr/s' rv_speed "" "no target of its own"
row "RISC-V, 1 busy TRISC, local (M instr/s)" '^local1' 'instr/s' rv_speed "" "no target of its own"
row "RISC-V, 3 busy TRISCs, local (M instr/s)" '^local3' 'instr/s' rv_speed 150 ">= 150"
row "RISC-V, 2 pollers + 1 busy (M cycles/s)" '^poll2' 'cycles/s' rv_speed "" "sleeping pollers: no target of their own"
row "Tensix pipe, 1 thread (M instr/s)" '^pipe +1 thread ' 'instr/s' pipe_speed 50 ">= 50"
row "Tensix pipe, 3 streams (M instr/s)" '^pipe +3 streams' 'instr/s' pipe_speed 50 ">= 50 (three threads, none stalls)"
row "Tensix pipe, 3 on one slot (M instr/s)" '^pipe +3 threads' 'instr/s' pipe_speed "" "two of three held each cycle: no target of its own"
row "matrix unit BF16 LoFi (M MVMUL/s)" '^fpu +MVMUL loop' 'MVMUL/s' fpu_speed 10 ">= 10"
row "matrix unit BF16 HiFi4 (M MVMUL/s)" '^fpu-hifi4 +MVMUL loop' 'MVMUL/s' fpu_speed 5 ">= 5"
row "matrix unit FP16 HiFi4 (M MVMUL/s)" '^fpu-fp16 +MVMUL loop' 'MVMUL/s' fpu_speed 5 ">= 5"
row "eltwise kernel (M cycles/s)" 'kernel eltwise' 'cycles/s' kernel_speed "" "faster than ttsim: see kernel_speed --ttsim"
row "matmul kernel (M cycles/s)" 'kernel matmul' 'cycles/s' kernel_speed "" "faster than ttsim: see kernel_speed --ttsim"
row "tt-llk math_matmul_perf, throttle 0 (M c/s)" 'kernel llk throttle-0/' 'cycles/s' kernel_speed "" "make bench-llk builds it; against ttsim: kernel_speed --ttsim"
row "140 tiles running eltwise (peak MiB)" '^tiles' 'MiB' tiles 1024 "< 1024" below
row "host: most 2 threads can gain (x)" '^host' 'times' tiles "" "2.00 on two equal free cores: bounds the speed-ups below"
row "host: core-to-core round trip (ns)" '^host +a round trip' 'ns;' tiles "" "a meeting's least cost: bounds the speed-up of 10-cycle windows"
row "140 tiles on 2 host threads (speed-up)" '^threads' 'speed-up' tiles "" "independent tiles: no target of their own"
row "140 tiles on 2 threads (M tile-cycles/s)" '^threads' 'tile-cycles/s' tiles "" "no target of its own"
row "16-tile matmul on 2 threads (speed-up)" '^chip +matmul16: 16' 'speed-up' tiles 1.7 ">= 1.7 (issue 20's goal)"
row "16-tile matmul on 2 (M tile-cycles/s)" '^chip +matmul16: 16' 'tile-cycles/s' tiles "" "no target of its own"
row "start-up: run of hello.elf (ms)" '^startup' 'ms' tiles 10 "< 10" below
