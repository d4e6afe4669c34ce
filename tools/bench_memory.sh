#!/usr/bin/env bash
# Memory-path benchmark (not a test): DDR4-2400, one x64 channel, one rank of x8 devices,
# FR-FCFS, open page, row:bank:column, driven by two traces of 1,000,000 64-byte requests
# (sequential reads; uniformly random over 1 GiB with 70% reads). The same traces then run on
# the heterogeneous path of that channel: planar (DRAM 128 MiB + XPoint 1 GiB, 1:8) and
# two-level (DRAM 16 MiB caching XPoint 1 GiB, 1:64), XPoint as in xpoint_ohm_gpu. Prints
# simulated bandwidth and read latency, simulated requests per host second, peak memory, and host
# instructions per request from callgrind on the first 100,000 requests (deterministic, unlike
# wall time).
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
hetero_platform() {  # name mode dram_rows extra-memory-keys
  printf '{"extends": ["memory/controller_default", "channels/ddr4_x64", "memory/ddr4_2400_x8", "memory/xpoint_ohm_gpu", "memory/hetero_%s"],\n "platform": {"name": "%s", "description": "benchmark: DDR4-2400 x64 + XPoint 1 GiB, %s", "default_workload": "stream_read"},\n "memory": {"channels": 1, "mode": "%s", "dram": {"geometry": {"rows": %s}}, "xpoint": {"capacity_kib": 1048576}%s}}\n' \
    "$2" "$1" "$2" "$2" "$3" "$4" > "$work/$1.json"
}
# Contiguous page groups, so that 8 of every 9 pages of the stream start in XPoint: with the
# interleaved default the stream's first 128 MiB would all be DRAM's and never reach XPoint.
hetero_platform bench_planar planar 1024 ', "hetero": {"page_groups": "contiguous"}'
hetero_platform bench_two_level two_level 128 ""
printf '%-16s %-8s %10s %12s %14s %12s %12s %14s %11s\n' platform trace "GB/s" "lat_ns" \
  "req/host_s" "peak_MiB" "instr/req" "instr/req_sim" "migrations"
for platform in ddr4_2400 "$work/bench_planar.json" "$work/bench_two_level.json"; do
  label=$(basename "$platform" .json)
  ohmvp=("$build_dir/ohmvp" run --quiet --platform "$platform")
  for kind in stream random; do
    workload "${kind}_full" "$work/${kind}_$requests.trace"
    workload "${kind}_profiled" "$work/${kind}_$profiled.trace"
    run="$work/${label}_$kind"
    /usr/bin/time -f "%e %M" -o "$run.time" "${ohmvp[@]}" --workload "$work/${kind}_full.json" \
      --out "$run.out" > /dev/null
    read -r wall peak_kib < "$run.time"
    valgrind --tool=callgrind --callgrind-out-file="$run.callgrind" \
      "${ohmvp[@]}" --workload "$work/${kind}_profiled.json" --out "$run.profiled_out" \
      > /dev/null 2> "$run.callgrind.log"
    total=$(grep -oP 'Collected : \K[0-9]+' "$run.callgrind.log")
    # Instructions spent inside sc_start (the simulation itself, without start-up and parsing).
    inside=$(callgrind_annotate --inclusive=yes "$run.callgrind" 2>/dev/null |
             awk '/sc_core::sc_start\(\)/ && !found { found = 1; gsub(",", "", $1); print $1 }')
    python3 - "$run.out/report.json" "$wall" "$peak_kib" "$total" "${inside:-0}" "$profiled" \
      "$kind" "$label" <<'PY'
import json, sys
report, wall, peak_kib, total, inside, profiled, kind, label = sys.argv[1:]
s = json.load(open(report))["summary"]
print("%-16s %-8s %10.2f %12.1f %14.0f %12.1f %12.0f %14.0f %11s" % (
    label, kind, s["bandwidth_gbps"], s["avg_latency_ns"], s["requests"] / max(float(wall), 1e-9),
    int(peak_kib) / 1024, int(total) / int(profiled), int(inside) / int(profiled),
    s.get("migrations", "-")))
PY
  done
done
