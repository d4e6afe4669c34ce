#!/usr/bin/env bash
# GPU timing-model benchmark (not a test), platform gpu_small. Compute-bound: the tiled matmul
# kernel (the shipped 96x80x64 workload and tools/bench_gpu/matmul_256.json, 256^3);
# memory-bound: spmv (2048x1024 CSR, texture x). Prints simulated warp instructions per host
# second (wall clock, indicative on a shared machine) and host instructions per warp
# instruction from callgrind on the shipped (short) workloads (deterministic): whole process,
# and inside sc_start (the simulation alone).
# Usage: tools/bench_gpu.sh            (OHMVP_BUILD_DIR: the build folder, default build/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${OHMVP_BUILD_DIR:-$root/build}"
work="$build_dir/bench_gpu"
command -v valgrind >/dev/null || { echo "bench_gpu: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
mkdir -p "$work"
ohmvp=("$build_dir/ohmvp" run --quiet --platform gpu_small)

summary() {  # report.json -> "warp_instructions cycles"
  python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["summary"]; print(s["warp_instructions"], s["cycles"])' "$1"
}

printf '%-12s %12s %10s %10s %16s\n' workload warp_instr cycles host_s "warp_instr/s"
for entry in matmul:matmul matmul_256:"$root/tools/bench_gpu/matmul_256.json" spmv:spmv; do
  name="${entry%%:*}"
  workload="${entry#*:}"
  /usr/bin/time -f "%e" -o "$work/time_$name" "${ohmvp[@]}" --workload "$workload" \
    --out "$work/out_$name" > /dev/null
  wall=$(cat "$work/time_$name")
  read -r warp cycles < <(summary "$work/out_$name/report.json")
  printf '%-12s %12d %10d %10.2f %16.0f\n' "$name" "$warp" "$cycles" "$wall" \
    "$(python3 -c "print($warp / max($wall, 1e-9))")"
done

echo
printf '%-12s %12s %18s %18s\n' workload warp_instr "instr/warp_instr" "inside_sc_start"
for name in matmul spmv; do
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind_$name" \
    "${ohmvp[@]}" --workload "$name" --out "$work/out_${name}_profiled" \
    > /dev/null 2> "$work/callgrind_$name.log"
  total=$(grep -oP 'Collected : \K[0-9]+' "$work/callgrind_$name.log")
  inside=$(callgrind_annotate --inclusive=yes "$work/callgrind_$name" 2>/dev/null |
           awk '/sc_core::sc_start\(/ && !found { found = 1; gsub(",", "", $1); print $1 }')
  read -r warp _ < <(summary "$work/out_${name}_profiled/report.json")
  printf '%-12s %12d %18.0f %18.0f\n' "$name" "$warp" \
    "$(python3 -c "print($total / $warp)")" "$(python3 -c "print(${inside:-0} / $warp)")"
done
echo "callgrind profiles: $work/callgrind_{matmul,spmv} (callgrind_annotate --inclusive=yes)"
