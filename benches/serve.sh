#!/bin/sh
# Requests a second and latency of boardbase serve's lookups against its own
# health endpoint, with wrk (Debian's package) on loopback:
#   sh benches/serve.sh [RUNS] [SECONDS]
# Each URL is run RUNS times (default 3) for SECONDS (default 15) with 2
# threads and 32 keep-alive connections; the run with the median requests a
# second is reported. Client and server share the machine's cores.
set -eu
runs=${1:-3}
secs=${2:-15}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=$(mktemp)
./target/release/boardbase serve --bind 127.0.0.1:0 >"$out" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$out"' EXIT
while ! grep -q listening "$out"; do sleep 0.1; done
base=$(sed -n 's/.*listening on //p' "$out")
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-45s %10s %9s %9s %7s\n' path req/s p50 p99 ratio
health=
for path in /api/v1/health \
  '/api/v1/flip?board=bwwb/bbwb/bwwb/bwww' \
  '/api/v1/flip?board=bwbw/wwww/bbwb/bwwb' \
  '/api/v1/euler?board=XXX./XXX./.XXX/.XXX' \
  '/api/v1/euler?board=..../..../..../....'; do
  results=$(for i in $(seq "$runs"); do
    wrk -t2 -c32 -d"${secs}s" --latency "$base$path" |
      awk '/Requests\/sec/ {r=$2} / 50%/ {p50=$2} / 99%/ {p99=$2} END {print r, p50, p99}'
  done | sort -n)
  median=$(echo "$results" | sed -n "$(( (runs + 1) / 2 ))p")
  set -- $median
  [ -n "$health" ] || health=$1
  printf '%-45s %10s %9s %9s %7s\n' "$path" "$1" "$2" "$3" "$(echo "$1 $health" | awk '{printf "%.2f", $1 / $2}')"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
