#!/usr/bin/env bash
# Smoke test of tools/ohm_evaluation.sh: a 2-platform x 1-workload matrix with a 1- and 2-waveguide
# sweep, once more on input set 1 (other seeds and Start-Gap key), and one run of the suite at 16
# times its size; checks what results.json holds, that every run verified its outputs, that a docs
# block is replaced, the spread of the orderings over both input sets, the scaled platform and
# workload, that --resume keeps only the runs that finished with the same arguments, and that bad
# input is refused with exit 2 and a message naming it.
# Usage: tests/tools/ohm_evaluation_smoke.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
scratch="$build/ohm_evaluation_smoke"
tool="$root/tools/ohm_evaluation.sh"
rm -rf "$scratch"
mkdir -p "$scratch"

printf 'before\n<!-- ohm_evaluation:fig16 -->\nold table\n<!-- /ohm_evaluation -->\nafter\n' \
  > "$scratch/doc.md"
"$tool" --build "$build" --out "$scratch/out" --platforms hetero_planar,ohm_base_planar \
  --workloads bfs --waveguides 1,2 --no-plots --docs "$scratch/doc.md"

python3 - "$scratch/out/results.json" "$scratch/doc.md" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
doc = open(sys.argv[2]).read()
problems = []
def expect(ok, what):
    if not ok:
        problems.append(what)
runs = results["runs"]
expect(sorted(runs) == ["hetero_planar", "ohm_base_planar"], "runs of both platforms")
expect(all(runs[p]["bfs"]["ipc"] > 0 for p in runs), "a positive IPC per run")
out = sys.argv[1].rsplit("/", 1)[0]
for p in runs:
    report = json.load(open(out + "/runs/" + p + "/bfs/report.json"))
    expect(report.get("verification", {}).get("matches") is True,
           "the run of " + p + " verified against the C++ reference")
expect(len(results["pending_platforms"]) == 12, "12 platforms of the matrix pending")
sweep = runs["ohm_base_planar"]["bfs"]["waveguides"]
expect(sorted(sweep) == ["1", "2"], "the waveguide sweep's runs")
expect(sweep["1"]["ipc"] == runs["ohm_base_planar"]["bfs"]["ipc"],
       "1 waveguide set explicitly gives the default run's IPC")
expect(sweep["2"]["channel_light_ps"] < sweep["1"]["channel_light_ps"],
       "2 waveguides carry the data in less light time")
fig16 = results["figures"]["fig16_ipc"]["planar"]
expect(fig16["ohm_base_planar"]["geomean"] == 1.0, "Ohm-base normalised to itself is 1")
expect(fig16["hetero_planar"]["geomean"] > 0, "Hetero normalised to Ohm-base")
expect(results["figures"]["fig16_ipc"]["two_level"] is None, "no two-level reference run")
budget = results["figures"]["fig20b_ber_table3_mrr"]
expect(list(budget) == ["ohm_base_planar"], "a budget for the optical platform only")
expect(budget["ohm_base_planar"]["ber_max"] < 1e-15, "Ohm-base meets 1e-15")
expect(budget["ohm_base_planar"]["mrr_count"] > 0, "an MRR count")
energy = results["figures"]["fig19_energy"]["planar"]
expect(energy["hetero_planar"]["components_j"]["electrical_channel"] > 0,
       "the electrical channel's energy on Hetero")
expect(energy["ohm_base_planar"]["components_j"]["laser"] > 0, "the laser's on Ohm-base")
busy = results["figures"]["busy"]["planar"]
for p in runs:
    light = busy[p]["light_busy"]["per_workload"]["bfs"]
    media = busy[p]["xpoint_media_busy"]["per_workload"]["bfs"]
    expect(0 < light < 1 and 0 < media < 1, "light and XPoint media busy shares of " + p)
report = json.load(open(out + "/runs/ohm_base_planar/bfs/report.json"))
xpoints = [g for n, g in report["stats"].items() if n.startswith("memory.xpc")]
kernel_ps = report["summary"]["cycles"] * 1e6 / 1200
expect(abs(busy["ohm_base_planar"]["xpoint_media_busy"]["mean"] - sum(
    g["media_busy_ps"]["value"] for g in xpoints) / (len(xpoints) * 8 * kernel_ps)) < 1e-12,
    "the media share: partition time over six XPoints of 8 partitions over the kernels' time")
summary = report["summary"]
expect(abs(runs["ohm_base_planar"]["bfs"]["memory_apki"]
           - 1000.0 * summary["requests"] / summary["warp_instructions"]) < 1e-9,
       "APKI: the memory requests per 1000 warp instructions")
expect(0 < runs["ohm_base_planar"]["bfs"]["memory_read_ratio"] <= 1, "a read ratio")
wave = results["figures"]["fig20a_waveguides"]["planar"]["ohm_base_planar"]
expect(wave["2"]["ipc_over_hetero"] > 0, "the sweep normalised to Hetero")
claims = {(d["claim"], d["mode"]): d["holds"] for d in results["directions"]}
expect(claims[("ohm_base about equal to hetero at 1 waveguide (5%)", "planar")] is not None,
       "the Ohm-base/Hetero check decided")
expect(claims[("origin last (IPC)", "planar")] is None, "origin's check pending")
tables = open(out + "/tables.md").read()
expect("| bfs | 50.1 | %.0f | " % runs["ohm_base_planar"]["bfs"]["memory_apki"] in tables
       and "bfsdata 84 / 0.95, bfstopo 25 / 0.97 |" in tables,
       "the suite table: footprint, APKI and read ratio beside the paper's Table 2")
expect("old table" not in doc and "| hetero |" in doc and doc.startswith("before\n")
       and doc.endswith("after\n"), "the docs block replaced, the rest kept")
for p in problems:
    print("ohm_evaluation_smoke: expected " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY

# --resume keeps the runs that finished with the same arguments and sources, and makes the rest.
resumed() {  # expected-message-fragment
  "$tool" --build "$build" --out "$scratch/out" --platforms hetero_planar,ohm_base_planar \
    --workloads bfs --waveguides 1,2 --no-plots --resume 2> "$scratch/stderr.txt"
  if ! grep -q "$1" "$scratch/stderr.txt" ||
     ! cmp -s "$scratch/out/results.json" "$scratch/first.json"; then
    echo "ohm_evaluation_smoke: --resume: expected '$1' and the same results.json:" >&2
    cat "$scratch/stderr.txt" >&2
    exit 1
  fi
}
cp "$scratch/out/results.json" "$scratch/first.json"
resumed "4 runs, 4 of them kept from before"
rm "$scratch/out/runs/ohm_base_planar/bfs/waveguides_2/run.stamp"
resumed "4 runs, 3 of them kept from before"
sed -i 's/^--seed$/--SEED/' "$scratch/out/runs/hetero_planar/bfs/run.stamp"
resumed "4 runs, 3 of them kept from before"

# Input set 1: the same matrix on other inputs, and the spread of the orderings over both sets.
"$tool" --build "$build" --out "$scratch/out1" --platforms hetero_planar,ohm_base_planar \
  --workloads bfs --waveguides 1,2 --no-plots --inputs 1
printf '<!-- ohm_evaluation:spread -->\nOLD TABLE\n<!-- /ohm_evaluation -->\n' > "$scratch/spread.md"
python3 "$root/tools/ohm_evaluation_spread.py" "$scratch/out/results.json" \
  "$scratch/out1/results.json" --docs "$scratch/spread.md" > "$scratch/spread.txt"
python3 - "$scratch/out/results.json" "$scratch/out1/results.json" \
  "$scratch/out1/workloads/bfs.json" "$root/testbenches/workloads/bfs.json" \
  "$scratch/spread.md" "$scratch/out/runs/ohm_base_planar/bfs/report.json" \
  "$scratch/out1/runs/ohm_base_planar/bfs/report.json" <<'PY'
import json, os, sys
shipped, other, variant, source, spread, report0, report1 = sys.argv[1:]
problems = []
def expect(ok, what):
    if not ok:
        problems.append(what)
a, b = json.load(open(shipped)), json.load(open(other))
expect(a["inputs"] == 0 and b["inputs"] == 1, "the input sets recorded")
w, s = json.load(open(variant)), json.load(open(source))
expect(w["generators"]["graph"]["seed"] == s["generators"]["graph"]["seed"] + 1000,
       "the input set's seed moved by 1000")
def start_gap_key(report):
    return json.load(open(report))["config"]["platform"]["memory"]["xpoint"]["start_gap"]["seed"]
expect(start_gap_key(report1) == start_gap_key(report0) + 1, "the Start-Gap key moved by 1")
expect(os.path.isabs(w["ptx"]) and os.path.exists(w["ptx"]), "an absolute PTX path")
expect(a["runs"]["ohm_base_planar"]["bfs"]["ipc"] != b["runs"]["ohm_base_planar"]["bfs"]["ipc"],
       "other inputs, another run")
text = open(spread).read()
expect("OLD TABLE" not in text and "| input set 0 | input set 1 |" in text,
       "the spread block written")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(source)), "../../tools"))
import ohm_evaluation_spread as spread_tool
expect(spread_tool.mean_interval([1.0, 1.2]) == "1.100 +- 1.271",
       "the mean of two sets with t(1) = 12.706 times the standard error")
expect(spread_tool.mean_interval([0.5]) == "0.500", "a single set's value alone")
expect("| ohm_base about equal to hetero at 1 waveguide (5%) | planar |" in text,
       "the decided claim in the spread")
for p in problems:
    print("ohm_evaluation_smoke: expected " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY

# The suite at 16 times its size: the x16 workload on a platform whose capacities are 16 times the
# shipped ones, plotted beside its results, not over the committed figures.
figures_sum() { cat "$root"/docs/figures/ohm_*.png | md5sum; }
committed=$(figures_sum)
"$tool" --build "$build" --out "$scratch/x16" --platforms ohm_base_planar --workloads backprop \
  --waveguides 1 --scale 16
if [ ! -s "$scratch/x16/figures/ohm_ipc.png" ] || [ "$(figures_sum)" != "$committed" ]; then
  echo "ohm_evaluation_smoke: expected the x16 figures in $scratch/x16/figures only" >&2
  exit 1
fi
"$build/ohmvp" config --platform oracle_two_level |
  python3 "$root/tools/ohm_evaluation_scale.py" 16 > "$scratch/oracle_scaled.txt"
python3 - "$scratch/x16/results.json" "$scratch/x16/runs/ohm_base_planar/backprop/report.json" \
  "$scratch/out/results.json" "$scratch/oracle_scaled.txt" <<'PY'
import json, sys
scaled, report, shipped, oracle = sys.argv[1:]
problems = []
def expect(ok, what):
    if not ok:
        problems.append(what)
results = json.load(open(scaled))
expect(results["scale"] == 16 and json.load(open(shipped))["scale"] == 1, "the scales recorded")
r = json.load(open(report))
memory = r["config"]["platform"]["memory"]
expect(memory["xpoint"]["capacity_kib"] == 16 * 64, "16 times the XPoint")
expect(memory["xpoint"]["start_gap"]["region_lines"] == 16 * 256, "16 times the Start-Gap region")
expect(memory["dram"]["geometry"]["columns"] == 16 * 64, "DRAM rows 16 times longer")
expect(r["config"]["platform"]["gpu"]["l2"]["size_bytes"] == 16 * 24 * 1024, "16 times the L2")
expect(r.get("verification", {}).get("matches") is True, "the scaled run verified")
copied = results["runs"]["ohm_base_planar"]["backprop"]["host_to_device_bytes"]
expect(copied > 1024 * 1024, "the x16 backprop's inputs copied (%d bytes)" % copied)
expect(open(oracle).read().split() ==
       ["memory.dram.geometry.columns=1024", "gpu.l2.size_bytes=393216"],
       "only the capacities a platform has are scaled (Oracle: no XPoint, no host memory)")
for p in problems:
    print("ohm_evaluation_smoke: expected " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
# The spread refuses input sets of two scales.
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r.update(scale=1, inputs=1)
json.dump(r, open(sys.argv[2], "w"))' "$scratch/x16/results.json" "$scratch/x16_as_1.json"
status=0
python3 "$root/tools/ohm_evaluation_spread.py" "$scratch/x16/results.json" \
  "$scratch/x16_as_1.json" > /dev/null 2> "$scratch/stderr.txt" || status=$?
if [ "$status" -ne 2 ] || ! grep -q "'scale' is not the same" "$scratch/stderr.txt"; then
  echo "ohm_evaluation_smoke: the spread of two scales gave exit $status, expected 2:" >&2
  cat "$scratch/stderr.txt" >&2
  exit 1
fi

refused() {  # message-fragment tool-arguments...
  local fragment="$1"
  shift
  local status=0
  "$tool" "$@" --out "$scratch/bad" --no-plots 2> "$scratch/stderr.txt" || status=$?
  if [ "$status" -ne 2 ] || ! grep -q -- "$fragment" "$scratch/stderr.txt"; then
    echo "ohm_evaluation_smoke: '$*' gave exit $status, expected 2 and '$fragment':" >&2
    cat "$scratch/stderr.txt" >&2
    exit 1
  fi
}
refused "'foo_planar' is not an evaluation platform" --build "$build" --platforms foo_planar
refused "unknown workload 'bfss'" --build "$build" --platforms hetero_planar --workloads bfss
refused "no ohmvp executable at /nonexistent/ohmvp" --build /nonexistent
refused "'0' is not a waveguide count" --build "$build" --platforms hetero_planar --waveguides 0
refused "'x' is not an input set" --build "$build" --platforms hetero_planar --inputs x
refused "'3' is not a scale of the suite" --build "$build" --platforms hetero_planar --scale 3
refused "no workload 'vecadd' at that scale" --build "$build" --platforms hetero_planar \
  --workloads vecadd --scale 16
echo "ohm_evaluation_smoke: passed"
