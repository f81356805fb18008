#!/bin/sh
# Requests a second, latency and server CPU time per request of boardbase
# serve's lookups against its own health endpoint, with wrk (Debian's
# package) on loopback:
#   sh benches/serve.sh [RUNS] [SECONDS]
#   BIN=/path/to/boardbase sh benches/serve.sh ...   (that binary, no build:
#   to compare two builds, run the script for each, close together)
#   PIN=0 sh benches/serve.sh ...   (client and server not pinned)
# Each URL is run RUNS times (default 3) for SECONDS (default 15) with 32
# keep-alive connections, the URLs in turn round after round; the run with
# the median requests a second is reported, with its 50th and 99th
# percentile latency and the server's CPU time (user + system, from /proc)
# per request.
# By default (PIN=1, with taskset and at least 2 CPUs) the server runs on
# the last CPU (so one runtime worker) and wrk on the others, one thread
# each: client and server as on two machines, the server's CPU the limit.
# With PIN=0 wrk (2 threads) and the server (a worker per CPU) share every
# CPU and the scheduler's juggling of the four busy threads is measured too.
set -eu
runs=${1:-3}
secs=${2:-15}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl is missing: apt-get install -y curl" >&2; exit 1; }
cd "$(dirname "$0")/.."
cpus=$(getconf _NPROCESSORS_ONLN)
pin=${PIN:-1}
if [ "$pin" = 1 ] && { [ "$cpus" -lt 2 ] || ! command -v taskset >/dev/null; }; then
  echo "not pinned: taskset is missing or there is one CPU" >&2
  pin=0
fi
if [ "$pin" = 1 ]; then
  last=$((cpus - 1))
  server_cpus="taskset -c $last"
  client="taskset -c 0-$((last - 1)) wrk -t$last -c32"
  echo "pinned: server on CPU $last, wrk -t$last -c32 on CPUs 0-$((last - 1))"
else
  server_cpus=
  client="wrk -t2 -c32"
  echo "not pinned: server and wrk -t2 -c32 share all $cpus CPUs"
fi
bin=${BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=./target/release/boardbase
fi
out=$(mktemp)
$server_cpus "$bin" serve --bind 127.0.0.1:0 >"$out" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$out"' EXIT
while ! grep -q listening "$out"; do sleep 0.1; done
base=$(sed -n 's/.*listening on //p' "$out")
ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
paths='/api/v1/health
/api/v1/flip?board=bwwb/bbwb/bwwb/bwww
/api/v1/flip?board=bwbw/wwww/bbwb/bwwb
/api/v1/euler?board=XXX./XXX./.XXX/.XXX
/api/v1/euler?board=..../..../..../....
/api/v1/flip?board=bwwwb/bwwbb/bbwwb/bwbwb/wwbbw
/api/v1/euler?board=X..X./.X..X/..X../X...X'
# The last two are other sizes: Flip 5x5 by GF(2) (no table file), Euler
# 4x5 from a table made in memory by the first request (made here, before
# the runs, so that every run measures lookups).
echo "$paths" | while read -r path; do
  curl -sf -o /dev/null "$base$path" || { echo "no answer: $path" >&2; exit 1; }
done
# Rounds of every URL in turn, so that each URL meets the same changes of
# the machine's load; one line per run: index, req/s, p50, p99, CPU.
results=$(mktemp)
trap 'kill $server 2>/dev/null; rm -f "$out" "$results"' EXIT
for round in $(seq "$runs"); do
  i=0
  echo "$paths" | while read -r path; do
    i=$((i + 1))
    before=$(cpu)
    line=$($client -d"${secs}s" --latency "$base$path" |
      awk '/requests in/ {n=$1} /Requests\/sec/ {r=$2} / 50%/ {p50=$2} / 99%/ {p99=$2} END {print r, p50, p99, n}')
    after=$(cpu)
    echo "$i $line $before $after" | awk -v t="$ticks" '{printf "%s %s %s %s %.1fus\n", $1, $2, $3, $4, ($7 - $6) / t * 1e6 / $5}'
  done >>"$results"
done
printf '%-48s %9s %8s %8s %9s %6s\n' path req/s p50 p99 "cpu/req" ratio
health=
i=0
echo "$paths" | while read -r path; do
  i=$((i + 1))
  median=$(awk -v i="$i" '$1 == i' "$results" | sort -k2 -n | sed -n "$(( (runs + 1) / 2 ))p")
  set -- $median
  [ -n "$health" ] || health=$2
  printf '%-48s %9s %8s %8s %9s %6s\n' "$path" "$2" "$3" "$4" "$5" "$(echo "$2 $health" | awk '{printf "%.2f", $1 / $2}')"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
