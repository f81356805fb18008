#!/bin/sh
# Two builds of the boardbase binary side by side, on the figures a change
# of the code's layout must not make worse:
#
#   sh benches/compare.sh OLD_BINARY NEW_BINARY [DIR]
#
# 1. one CLI query as a whole process, against /bin/true (hyperfine -N,
#    interleaved: the two builds and the control alternate, 300 runs each);
# 2. 1,000,000 Flip boards (`boardbase gen flip --cases 1000000 --seed
#    4064`), against `wc -l` on the same file (hyperfine -N, 20 runs);
# 3. the same two as instruction counts (valgrind --tool=callgrind), which
#    do not depend on the machine's load: one query, and 100,000 boards;
# 4. the server's lookups against its own health endpoint (benches/serve_ab.sh);
# 5. `generate euler 6x6` (8 GiB of memory and of disk in DIR, default
#    ${TMPDIR:-/tmp}/boardbase-compare): the generator's own seconds, twice
#    each, when SIX=1.
#
# ONLY=N runs part N alone. Needs hyperfine, valgrind and wrk (Debian's
# packages). Prints raw numbers;
# docs/performance.md keeps the dated runs.
set -eu
[ $# -ge 2 ] || { echo "usage: sh benches/compare.sh OLD_BINARY NEW_BINARY [DIR]" >&2; exit 2; }
old=$1
new=$2
dir=${3:-${TMPDIR:-/tmp}/boardbase-compare}
mkdir -p "$dir"
here=$(dirname "$0")

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "old: $old, $(wc -c <"$old") bytes"
echo "new: $new, $(wc -c <"$new") bytes"

part() { [ -z "${ONLY:-}" ] || [ "$ONLY" = "$1" ]; }

if part 1; then
echo
echo "== 1. one query as a whole process"
hyperfine -N --warmup 20 --runs 300 --style basic \
    /bin/true \
    "$old flip --board bwwb/bbwb/bwwb/bwww" \
    "$new flip --board bwwb/bbwb/bwwb/bwww" 2>&1 | grep -E 'Benchmark|Time|Range'

fi

boards="$dir/flip-1000000.txt"
[ -s "$boards" ] || "$new" gen flip --cases 1000000 --seed 4064 >"$boards"
if part 2; then
echo
echo "== 2. 1,000,000 Flip boards ($(wc -c <"$boards") bytes)"
hyperfine -N --warmup 3 --runs 20 --style basic \
    "wc -l $boards" "$old flip $boards" "$new flip $boards" 2>&1 | grep -E 'Benchmark|Time|Range'
fi

if part 3; then
echo
echo "== 3. instructions (callgrind)"
small="$dir/flip-100000.txt"
[ -s "$small" ] || "$new" gen flip --cases 100000 --seed 4064 >"$small"
e45="$dir/euler-4x5-empty.txt"
printf '1\n....\n....\n....\n....\n....\n' >"$e45"
count() { # label, command...
    label=$1
    shift
    n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : //p')
    echo "  $label: $n instructions"
}
for bin in "$old" "$new"; do
    count "$bin flip --board (one query)" "$bin" flip --board bwwb/bbwb/bwwb/bwww
    count "$bin flip (100,000 boards)" "$bin" flip "$small"
    count "$bin euler --size 4x5 (a table made in memory)" "$bin" euler --size 4x5 "$e45"
done
fi

if part 4; then
echo
echo "== 4. server lookups against health"
sh "$here/serve_ab.sh" "$old" "$new" 5 2
fi

if [ "${SIX:-0}" = 1 ] && part 5; then
    echo
    echo "== 5. generate euler 6x6 (generate_seconds, write_seconds, peak_memory)"
    for round in 1 2; do
        for bin in "$old" "$new"; do
            "$bin" generate euler 6x6 --dir "$dir" --format json 2>/dev/null |
                python3 -c 'import json,sys; j=json.load(sys.stdin); print("  %s round %s: generate %.2f s, write %.2f s, peak %.2f GiB" % (sys.argv[1], sys.argv[2], j["generate_seconds"], j["write_seconds"], j["peak_memory"] / 2**30))' "$bin" "$round"
            rm -f "$dir/euler-6x6.bin"
        done
    done
fi
