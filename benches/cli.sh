#!/bin/sh
# CLI throughput and peak memory of every subcommand, against `wc -l` on the
# same file. Run from the repository root:
#
#     sh benches/cli.sh [DIR] [MB]
#
# Builds the release binary, writes the inputs with `boardbase gen` into
# DIR (default ${TMPDIR:-/tmp}/boardbase-bench; kept between runs, about
# 3 x MB megabytes), then for each subcommand:
#
# - hyperfine (-N, 3 warm-ups, RUNS runs, default 10): `wc -l FILE` and
#   `boardbase SUBCOMMAND FILE`, each median wall time as MB/s (10^6 bytes
#   a second), with the mean CPU time (user + system) beside it;
# - peak RSS (max resident set size, GNU time) of boardbase on this input
#   and on one a tenth its size, median of 3 runs.
#
# MB is the input size in megabytes: 200 (default) or any other; the case
# counts scale with it (flip 50,000 boards a MB, euler 47,500 cases a MB,
# carcassonne 1,375 cases of 12x12 a MB): random Flip boards, random open
# Euler positions, random 12x12 Carcassonne boards, seed 4064. Needs
# python3, hyperfine and GNU time (/usr/bin/time).
set -eu

dir=${1:-${TMPDIR:-/tmp}/boardbase-bench}
mb=${2:-200}
runs=${RUNS:-10}
bin=target/release/boardbase
mkdir -p "$dir"
cargo build --release --quiet

cases() { # SUBCOMMAND MB
    case $1 in
    flip) echo $(($2 * 50000)) ;;
    euler) echo $(($2 * 47500)) ;;
    carcassonne) echo $(($2 * 1375)) ;;
    esac
}

input() { # SUBCOMMAND MB -> path, generated once
    path="$dir/$1-$2mb-seed4064.txt"
    if [ ! -s "$path" ]; then
        "$bin" gen "$1" --cases "$(cases "$1" "$2")" --seed 4064 >"$path.part"
        mv "$path.part" "$path"
    fi
    echo "$path"
}

peak_rss_kib() { # SUBCOMMAND FILE: median of 3 runs
    for _ in 1 2 3; do
        /usr/bin/time -f %M "$bin" "$1" "$2" 2>&1 >/dev/null | tail -n 1
    done | sort -n | sed -n 2p
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
echo "binary: $bin, $(wc -c <"$bin") bytes"
small=$((mb / 10))
[ "$small" -ge 1 ] || small=1
for sub in flip euler carcassonne; do
    file=$(input "$sub" "$mb")
    small_file=$(input "$sub" "$small")
    json="$dir/$sub-$mb.json"
    echo
    echo "== $sub: $file ($(wc -c <"$file") bytes)"
    hyperfine -N --warmup 3 --runs "$runs" --style basic --export-json "$json" \
        "wc -l $file" "$bin $sub $file" >/dev/null
    python3 - "$json" "$(wc -c <"$file")" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
size = int(sys.argv[2])
base = results[0]["median"]
for r in results:
    cpu = r["user"] + r["system"]
    print(f"  {r['command']}")
    print(f"    median {r['median'] * 1e3:9.1f} ms wall ({size / r['median'] / 1e6:7.0f} MB/s, "
          f"{r['median'] / base:4.2f}x wc -l); mean CPU {cpu * 1e3:.1f} ms; "
          f"min {r['min'] * 1e3:.1f} ms, max {r['max'] * 1e3:.1f} ms")
EOF
    echo "  peak RSS: $(peak_rss_kib "$sub" "$small_file") KiB at ${small} MB," \
        "$(peak_rss_kib "$sub" "$file") KiB at ${mb} MB"
done
