#!/usr/bin/env bash
# The main job: set up and build if needed, then run the default platform on its default
# workload, writing out/report.json, out/trace.vcd and GTKWave's save file out/trace.gtkw
# (`gtkwave out/trace.gtkw` opens the VCD with its signals grouped), and printing the summary.
# Extra arguments go to 'ohmvp run' (e.g. --platform ohm_gpu_dram --workload random_mix).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${OHMVP_BUILD_DIR:-$root/build}"
"$root/tools/setup.sh"
mkdir -p "$root/out"
exec "$build_dir/ohmvp" run --out "$root/out" --vcd "$root/out/trace.vcd" \
  --gtkw "$root/out/trace.gtkw" "$@"
