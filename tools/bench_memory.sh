#!/usr/bin/env bash
# Memory-path benchmark (not a test): DDR4-2400, one x64 channel, one rank of x8 devices,
# FR-FCFS, open page, row:bank:column, driven by two traces of 1,000,000 64-byte requests
# (sequential reads; uniformly random over 1 GiB with 70% reads). Prints simulated bandwidth and
# read latency, simulated requests per host second, peak memory, and host instructions per
# request from callgrind on the first 100,000 requests (deterministic, unlike wall time).
# Usage: tools/bench_memory.sh [REQUESTS]   (default 1000000)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${OHMVP_BUILD_DIR:-$root/build}"
requests="${1:-1000000}"
profiled=100000
work="$build_dir/bench_memory"
"$root/tools/setup.sh"
command -v valgrind >/dev/null || { echo "bench_memory: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
mkdir -p "$work"
for n in "$requests" "$profiled"; do
  [ -f "$work/random_$n.trace" ] || python3 "$root/tools/make_bench_traces.py" "$work" "$n"
done
workload() {  # name trace
  printf '{"description": "benchmark trace %s", "type": "trace", "trace": {"file": "%s", "max_outstanding": 64}}\n' "$2" "$2" > "$work/$1.json"
}
ohmvp=("$build_dir/ohmvp" run --quiet --platform ddr4_2400)
printf '%-8s %10s %12s %14s %12s %12s %14s\n' trace "GB/s" "lat_ns" "req/host_s" "peak_MiB" "instr/req" "instr/req_sim"
for kind in stream random; do
  workload "${kind}_full" "$work/${kind}_$requests.trace"
  workload "${kind}_profiled" "$work/${kind}_$profiled.trace"
  /usr/bin/time -f "%e %M" -o "$work/time_$kind" "${ohmvp[@]}" --workload "$work/${kind}_full.json" \
    --out "$work/out_$kind" > /dev/null
  read -r wall peak_kib < "$work/time_$kind"
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind_$kind" \
    "${ohmvp[@]}" --workload "$work/${kind}_profiled.json" --out "$work/out_${kind}_profiled" \
    > /dev/null 2> "$work/callgrind_$kind.log"
  total=$(grep -oP 'Collected : \K[0-9]+' "$work/callgrind_$kind.log")
  # Instructions spent inside sc_start (the simulation itself, without start-up and parsing).
  inside=$(callgrind_annotate --inclusive=yes "$work/callgrind_$kind" 2>/dev/null |
           awk '/sc_core::sc_start\(\)/ && !found { found = 1; gsub(",", "", $1); print $1 }')
  python3 - "$work/out_$kind/report.json" "$wall" "$peak_kib" "$total" "${inside:-0}" "$profiled" "$kind" <<'PY'
import json, sys
report, wall, peak_kib, total, inside, profiled, kind = sys.argv[1:]
s = json.load(open(report))["summary"]
print("%-8s %10.2f %12.1f %14.0f %12.1f %12.0f %14.0f" % (
    kind, s["bandwidth_gbps"], s["avg_latency_ns"], s["requests"] / max(float(wall), 1e-9),
    int(peak_kib) / 1024, int(total) / int(profiled), int(inside) / int(profiled)))
PY
done
