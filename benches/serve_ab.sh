#!/bin/sh
# Two builds of boardbase serve side by side: both servers run at the same
# time, each under its own wrk (one thread, 16 keep-alive connections), on
# the same URL for the same seconds, so that both meet the same load of the
# machine; prints each one's requests a second and B/A. For comparing a
# change, not for absolute figures (see benches/serve.sh):
#   sh benches/serve_ab.sh OLD_BINARY NEW_BINARY [SECONDS] [ROUNDS]
# The health endpoint is the control: its B/A shows the noise.
set -eu
[ $# -ge 2 ] || { echo "usage: sh benches/serve_ab.sh OLD_BINARY NEW_BINARY [SECONDS] [ROUNDS]" >&2; exit 2; }
a=$1
b=$2
secs=${3:-5}
rounds=${4:-2}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
outa=$(mktemp)
outb=$(mktemp)
"$a" serve --bind 127.0.0.1:0 >"$outa" 2>&1 &
pa=$!
"$b" serve --bind 127.0.0.1:0 >"$outb" 2>&1 &
pb=$!
trap 'kill $pa $pb 2>/dev/null; rm -f "$outa" "$outb" "$outa.wrk" "$outb.wrk"' EXIT
while ! grep -q listening "$outa" || ! grep -q listening "$outb"; do sleep 0.1; done
base_a=$(sed -n 's/.*listening on //p' "$outa")
base_b=$(sed -n 's/.*listening on //p' "$outb")
printf '%-48s %9s %9s %6s\n' path A B B/A
for round in $(seq "$rounds"); do
  for path in /api/v1/health \
    '/api/v1/flip?board=bwwb/bbwb/bwwb/bwww' \
    '/api/v1/euler?board=XXX./XXX./.XXX/.XXX' \
    '/api/v1/euler?board=..../..../..../....' \
    '/api/v1/flip?board=bwwwb/bwwbb/bbwwb/bwbwb/wwbbw'; do
    curl -sf -o /dev/null "$base_a$path" && curl -sf -o /dev/null "$base_b$path" ||
      { echo "no answer: $path" >&2; exit 1; }
    wrk -t1 -c16 -d"${secs}s" "$base_a$path" >"$outa.wrk" &
    client=$!
    wrk -t1 -c16 -d"${secs}s" "$base_b$path" >"$outb.wrk"
    wait $client
    ra=$(awk '/Requests\/sec/ {print $2}' "$outa.wrk")
    rb=$(awk '/Requests\/sec/ {print $2}' "$outb.wrk")
    printf '%-48s %9.0f %9.0f %6.3f\n' "$path" "$ra" "$rb" "$(echo "$ra $rb" | awk '{print $2 / $1}')"
  done
done
