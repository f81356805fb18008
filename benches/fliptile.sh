#!/bin/sh
# Fliptile (POJ 3279), whole process: `boardbase fliptile` against the
# classical judge solution (benches/fliptile_judge.cpp: every first row,
# lights chased row by row with bitmasks) on the same input. Run from the
# repository root:
#
#     sh benches/fliptile.sh [DIR] [CASES]
#
# Builds the release binary and the C++ program (c++ -O2), writes CASES
# (default 1,000) random 15×15 cases back to back with `boardbase gen
# fliptile` (seed 3279) into DIR (default ${TMPDIR:-/tmp}/boardbase-bench),
# checks that both print the same bytes (also on 300 random cases and 300
# with tied fewest flip sets of each singular size 4, 5, 9, 11 and 14),
# then runs hyperfine (-N, 3 warm-ups, RUNS runs, default 10) on both, each
# reading the file itself, and prints the medians and their ratio. Needs a
# C++ compiler, hyperfine and python3 (for the summary).
set -eu

dir=${1:-${TMPDIR:-/tmp}/boardbase-bench}
cases=${2:-1000}
runs=${RUNS:-10}
bin=target/release/boardbase
judge="$dir/fliptile_judge"
mkdir -p "$dir"

cargo build --release --quiet
c++ -O2 -o "$judge" benches/fliptile_judge.cpp
input="$dir/fliptile-15x15-$cases.txt"
"$bin" gen fliptile --cases "$cases" --size 15x15 --seed 3279 >"$input"

for n in 4 5 9 11 14; do
    for family in random ties; do
        small="$dir/fliptile-${n}x$n-$family.txt"
        "$bin" gen fliptile --cases 300 --size "${n}x$n" --family "$family" --seed "$n" >"$small"
        "$judge" <"$small" >"$small.judge"
        "$bin" fliptile "$small" >"$small.ours"
        cmp "$small.judge" "$small.ours"
    done
done
"$judge" <"$input" >"$input.judge"
"$bin" fliptile "$input" >"$input.ours"
cmp "$input.judge" "$input.ours"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load: $(uptime | sed 's/.*load average: //')"
echo "same output on $cases cases of 15x15 and 300 random and 300 tied of each of 4x4, 5x5, 9x9, 11x11, 14x14"

json="$dir/fliptile.json"
hyperfine -N --warmup 3 --runs "$runs" --style basic --export-json "$json" \
    "$judge $input" "$bin fliptile $input" >/dev/null
python3 - "$json" "$cases" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
cases = int(sys.argv[2])
for r in results:
    print(f"  {r['command']}: median {r['median'] * 1e3:.2f} ms "
          f"({r['median'] / cases * 1e6:.2f} µs a case), "
          f"min {r['min'] * 1e3:.2f} ms, max {r['max'] * 1e3:.2f} ms")
print(f"  ratio of medians: {results[0]['median'] / results[1]['median']:.0f}x")
PY
