#!/usr/bin/env bash
# The tensor-core figures of docs/results.md: wmma.mma latencies measured by the timing benches
# on the titanv and turing presets, and throughput (TFLOPS, utilization, HMMA steps, cycles) and
# per-instruction latencies (gpu.wmma_*_latency) of the repeated-wmma.mma kernel and the 1024^3
# GEMM on the titanv platform. Deterministic.
#   tools/tensor_figures.sh [BUILD_DIR]      (default: build; needs ohmvp and the benches built)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

"$build/tests/test_gpu_tensor_titanv" | grep "latency"
"$build/tests/test_gpu_tensor_turing" | grep "latency"

summary() {  # platform workload-file
  local dir="$out/$1_$(basename "$2" .json)"
  local start=$SECONDS
  "$build/ohmvp" run -q --platform "$1" --workload "$2" --out "$dir" >/dev/null
  python3 - "$dir/report.json" "$1" "$(basename "$2" .json)" "$((SECONDS - start))" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
s = report["summary"]
print(f"{sys.argv[2]} {sys.argv[3]}: cycles {s['cycles']}, hmma {s['hmma']}, "
      f"tensor_tflops {s['tensor_tflops']:.2f}, tensor_utilization {s['tensor_utilization']:.3f}, "
      f"ipc {s['ipc']:.2f} ({sys.argv[4]} s host)")
for name in ("wmma_load_latency", "wmma_store_latency", "wmma_mma_latency"):
    h = report["stats"]["gpu"][name]
    if h["count"]:
        print(f"  {name}: min {h['min']}, p50 {h['p50']}, mean {h['mean']:.1f}, "
              f"max {h['max']} cycles (n={h['count']})")
PY
}
summary titanv "$root/testbenches/workloads/large/wmma_peak_titanv.json"
summary titanv "$root/testbenches/workloads/large/wmma_gemm_1024.json"
