#!/usr/bin/env bash
# The unified-memory figures of docs/results.md, as markdown tables: spmv with every buffer managed
# on gpu_small as GPU memory shrinks (16 KiB chunks), with its inputs read-mostly, and used in host
# memory over PCIe (cudaMemAdvise); the managed workloads on multi_gpu_huvm with and without
# memHarvester's harvesting, and with each of its other parts added; and the yielding GPUs' own
# kernels (x16 lu on GPUs 1 to 3) while GPU 0 harvests their memory or not.
# Every run is checked with --verify. Deterministic.
#   tools/uvm_figures.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
managed="$root/testbenches/workloads/managed"

run() {  # name platform workload-file [--set ...]
  local name="$1" platform="$2" workload="$3"
  shift 3
  "$build/ohmvp" run -q --verify --platform "$platform" --workload "$workload" \
    --out "$out/$name" "$@" >/dev/null
}

for bytes in 0 131072 65536 32768; do
  run "spmv_$bytes" gpu_small "$managed/spmv.json" \
    --set "uvm={\"chunk_bytes\": 16384, \"gpu_memory_bytes\": $bytes}"
done
# The same spmv advised (cudaMemAdvise) before its kernel: its four inputs read-mostly, its inputs
# preferred in host memory, every buffer accessed by the GPU (used in host memory over PCIe).
inputs='["row_offsets", "column_indices", "values", "x"]'
advised() {  # name advice buffers-json
  python3 - "$managed/spmv.json" "$out/$1/spmv.json" "$2" "$3" <<'PY'
import json, os, sys
source, target, advice, buffers = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
workload = json.load(open(source))
workload["ptx"] = os.path.normpath(os.path.join(os.path.dirname(source), workload["ptx"]))
steps = [{"advise": {"buffer": b, "advice": advice}} for b in buffers]
workload["launches"] = steps + workload["launches"]
os.makedirs(os.path.dirname(target), exist_ok=True)
json.dump(workload, open(target, "w"))
PY
}
advised read_mostly read_mostly "$inputs"
advised preferred_host preferred_location_host "$inputs"
advised accessed_by accessed_by '["row_offsets", "column_indices", "values", "x", "y"]'
run_advised() {  # advice bytes
  run "${1}_$2" gpu_small "$out/$1/spmv.json" \
    --set "uvm={\"chunk_bytes\": 16384, \"gpu_memory_bytes\": $2}"
}
for bytes in 131072 65536 32768; do run_advised read_mostly "$bytes"; done
for bytes in 0 65536; do
  run_advised preferred_host "$bytes"
  run_advised accessed_by "$bytes"
done
for workload in vecadd spmv bfs pagerank; do
  file="$managed/$workload.json"
  run "on_$workload" multi_gpu_huvm "$file"
  run "off_$workload" multi_gpu_huvm "$file" --set uvm.harvest=false
  run "reserve_$workload" multi_gpu_huvm "$file" --set uvm.reserve_chunks=1
  run "multi_path_$workload" multi_gpu_huvm "$file" --set uvm.multi_path_chunks=16
  run "block_$workload" multi_gpu_huvm "$file" --set uvm.replay_policy=block
  run "parallel_$workload" multi_gpu_huvm "$file" --set uvm.parallel_fetch=true
done

# The yielding GPUs each run the x16 lu (some 560 us) from 2 ms on, while GPU 0's managed run
# evicts.
lu="$root/testbenches/workloads/x16/lu.json@2ms"
yielding=(--gpu-workload "1=$lu" --gpu-workload "2=$lu" --gpu-workload "3=$lu")
run yield_idle multi_gpu_huvm "$root/testbenches/workloads/vecadd.json" "${yielding[@]}"
for workload in spmv pagerank; do
  file="$managed/$workload.json"
  run "yield_on_$workload" multi_gpu_huvm "$file" "${yielding[@]}"
  run "yield_off_$workload" multi_gpu_huvm "$file" "${yielding[@]}" --set uvm.harvest=false
done

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]

def load(name):
    stats = json.load(open(f"{out}/{name}/report.json"))["stats"]
    uvm = {k: v.get("value") for k, v in stats["host.uvm"].items()}
    uvm["latency_us"] = stats["host.uvm"]["fault_latency"]["mean"] / 1e6
    return stats["host"]["kernel_time"]["value"] / 1e6, uvm

print("| GPU memory for managed pages | kernel time (us) | far faults | batches | pages to GPU "
      "(prefetched, of them used) | chunks evicted | pages to host | mean fault latency (us) |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for bytes in (0, 131072, 65536, 32768):
    time, u = load(f"spmv_{bytes}")
    memory = "unlimited" if bytes == 0 else f"{bytes // 1024} KiB"
    print(f"| {memory} | {time:.1f} | {u['far_faults']} | {u['fault_batches']} | "
          f"{u['pages_to_gpu']} ({u['pages_prefetched']}, {u['pages_prefetched_used']}) | "
          f"{u['chunks_evicted']} | "
          f"{u['pages_to_host']} | {u['latency_us']:.1f} |")
print()
print("| GPU memory for managed pages | kernel time (us) | with read-mostly inputs (us) | batches | "
      "pages to host | pages dropped (duplicates) |")
print("| ---: | ---: | ---: | ---: | ---: | ---: |")
for bytes in (131072, 65536, 32768):
    plain, p = load(f"spmv_{bytes}")
    advised, a = load(f"read_mostly_{bytes}")
    print(f"| {bytes // 1024} KiB | {plain:.1f} | {advised:.1f} | {p['fault_batches']} / "
          f"{a['fault_batches']} | {p['pages_to_host']} / {a['pages_to_host']} | "
          f"{a['pages_dropped']} |")
print()
print("| GPU memory for managed pages | migrated on faults (us) | inputs preferred in host memory "
      "(us) | every buffer accessed by the GPU (us) | requests served in host memory | "
      "their bytes |")
print("| ---: | ---: | ---: | ---: | ---: | ---: |")
for bytes in (0, 65536):
    migrated, _ = load(f"spmv_{bytes}")
    preferred, _ = load(f"preferred_host_{bytes}")
    remote, r = load(f"accessed_by_{bytes}")
    memory = "unlimited" if bytes == 0 else f"{bytes // 1024} KiB"
    print(f"| {memory} | {migrated:.1f} | {preferred:.1f} | {remote:.1f} | "
          f"{r['remote_accesses']} | {r['remote_bytes']} |")
print()
print("| workload | kernel time without harvesting (us) | with (us) | speed-up | chunks evicted "
      "(harvested) | pages fetched from neighbours | bytes to host without / with | "
      "bytes over NVLink |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for workload in ("vecadd", "spmv", "bfs", "pagerank"):
    off, uo = load(f"off_{workload}")
    on, un = load(f"on_{workload}")
    print(f"| {workload} | {off:.1f} | {on:.1f} | {off / on:.2f} | {un['chunks_evicted']} "
          f"({un['chunks_harvested']}) | {un['pages_from_peer']} | {uo['bytes_to_host']} / "
          f"{un['bytes_to_host']} | {un['bytes_over_nvlink']} |")
print()
print("| workload | harvesting (us) | + one chunk kept free (us) | + multi-path prefetcher, "
      "16 chunks (us) | + block-by-block replay (us) | + parallel fetch (us) |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for workload in ("vecadd", "spmv", "bfs", "pagerank"):
    times = [load(f"{kind}_{workload}")[0]
             for kind in ("on", "reserve", "multi_path", "block", "parallel")]
    print(f"| {workload} | " + " | ".join(f"{t:.1f}" for t in times) + " |")
print()
print("| GPU 0 runs | chunks harvested | GPUs 1, 2, 3: x16 lu time with harvesting (us) | "
      "without (us) | change |")
print("| --- | ---: | ---: | ---: | ---: |")

def yielding(name):
    report = json.load(open(f"{out}/{name}/report.json"))
    times = [(gpu["end_ns"] - gpu["start_ns"]) / 1000 for gpu in report["other_gpus"]]
    return times, report["stats"]["host.uvm"]["chunks_harvested"]["value"]

idle, _ = yielding("yield_idle")
print("| plain vecadd (no managed memory) | 0 | | " + ", ".join(f"{t:.2f}" for t in idle) + " | |")
for workload in ("spmv", "pagerank"):
    on, harvested = yielding(f"yield_on_{workload}")
    off, _ = yielding(f"yield_off_{workload}")
    change = (sum(on) / sum(off) - 1) * 100
    print(f"| managed {workload} | {harvested} | " + ", ".join(f"{t:.2f}" for t in on) + " | " +
          ", ".join(f"{t:.2f}" for t in off) + f" | {change:+.2f}% |")
PY
