#!/usr/bin/env bash
# The Ohm-GPU evaluation (the paper's Section 6): runs the platform matrix over the workload suite
# with ohmvp, then writes results.json and tables.md (tools/ohm_evaluation_aggregate.py) and the
# figures docs/figures/ohm_*.png (tools/plot_ohm_evaluation.py; DIR/figures instead when --set,
# --inputs or --scale make it another evaluation than the shipped one). Deterministic: every run
# has seed 1, so the same sources give the same JSON, tables and figures.
#
#   tools/ohm_evaluation.sh [--platforms P,...] [--workloads W,...] [--waveguides N,...]
#                           [--build DIR] [--out DIR] [--figures DIR] [--docs FILE]
#                           [--set json.path=value ...] [--inputs K] [--scale 1|16] [--jobs N]
#                           [--no-plots] [--resume]
#
# Platforms: <family>_<mode>, family one of origin hetero ohm_base auto_rw ohm_wom ohm_bw oracle,
# mode planar or two_level (default: all 14). Each optical platform (ohm_base, auto_rw, ohm_wom,
# ohm_bw) also runs once per waveguide count (memory.optical.waveguides). --docs FILE replaces the
# generated blocks of FILE (<!-- ohm_evaluation:NAME --> ... <!-- /ohm_evaluation -->) with the
# new tables. --set applies one config override to every run (ohmvp run --set), for sensitivity
# studies; results.json records them. --inputs K runs every kernel on its K-th other input set
# (every seed of its workload file moved by 1000 * K, tools/ohm_evaluation_inputs.py; 0, the
# default, is the shipped inputs) with another Start-Gap key on every XPoint (its randomiser's
# seed moved by K), to tell mechanisms from noise (tools/ohm_evaluation_spread.py). --scale 16 runs
# the suite at 16 times its size (testbenches/workloads/x16) on platforms 16 times larger: every
# capacity of the platform's memory (DRAM rows 16 times longer, XPoint, host memory, Start-Gap
# regions) and its L2 (tools/ohm_evaluation_scale.py). Every run checks its outputs against the
# kernel's C++ reference (ohmvp run --verify). --resume keeps every run of an earlier, stopped
# evaluation into the same --out that finished with the same arguments, the same ohmvp executable
# and the same shipped configs and workloads (DIR/runs/.../run.stamp), and makes only the others.
# Exit 2 on bad input, 1 when a run (its outputs included) or a plot fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
me="ohm_evaluation"

families=(origin hetero ohm_base auto_rw ohm_wom ohm_bw oracle)
modes=(planar two_level)
all_platforms=()
for mode in "${modes[@]}"; do
  for family in "${families[@]}"; do all_platforms+=("${family}_${mode}"); done
done
platforms=$(IFS=,; echo "${all_platforms[*]}")
workloads="bfs,pagerank,spmv,fdtd2d,matmul,backprop,lu"
waveguides="1,2,4,8"
seed=1
build="$root/build"
out="$root/out/evaluation"
figures=""
docs=""
jobs="$(nproc 2>/dev/null || echo 2)"
plots=1
resume=0
inputs=0
scale=1
overrides=()

fail() { echo "$me: $*" >&2; exit 2; }
usage() { sed -n '2,27s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --platforms|--workloads|--waveguides|--build|--out|--figures|--docs|--jobs|--set|--inputs|\
    --scale)
      [ $# -ge 2 ] || fail "$1 needs a value (see --help)"
      case "$1" in
        --platforms) platforms="$2" ;;
        --workloads) workloads="$2" ;;
        --waveguides) waveguides="$2" ;;
        --build) build="$2" ;;
        --out) out="$2" ;;
        --figures) figures="$2" ;;
        --docs) docs="$2" ;;
        --jobs) jobs="$2" ;;
        --set) overrides+=("$2") ;;
        --inputs) inputs="$2" ;;
        --scale) scale="$2" ;;
      esac
      shift 2 ;;
    --no-plots) plots=0; shift ;;
    --resume) resume=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) fail "unknown option '$1' (see --help)" ;;
  esac
done

ohmvp="$build/ohmvp"
[ -x "$ohmvp" ] || fail "no ohmvp executable at $ohmvp: build it (ninja -C build ohmvp) or give --build DIR"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || fail "--jobs '$jobs': expected a positive whole number"
[ -z "$docs" ] || [ -f "$docs" ] || fail "--docs $docs: no such file"

# The committed figures are the shipped evaluation's; a variant's go beside its results.
if [ -z "$figures" ]; then
  figures="$root/docs/figures"
  [ ${#overrides[@]} -eq 0 ] && [ "$inputs" = 0 ] && [ "$scale" = 1 ] || figures="$out/figures"
fi

IFS=, read -r -a platform_list <<< "$platforms"
IFS=, read -r -a workload_list <<< "$workloads"
IFS=, read -r -a waveguide_list <<< "$waveguides"
[ ${#platform_list[@]} -gt 0 ] || fail "--platforms: no platform given"
[ ${#workload_list[@]} -gt 0 ] || fail "--workloads: no workload given"

listing="$("$ohmvp" list)" || fail "'$ohmvp list' failed"
shipped_platforms=" $(sed -n '/^Platforms/,/^Workloads/{/^  /s/^  \([^ ]*\).*/\1/p}' <<< "$listing" | tr '\n' ' ')"
shipped_workloads=" $(sed -n '/^Workloads/,${/^  /s/^  \([^ ]*\).*/\1/p}' <<< "$listing" | tr '\n' ' ')"

for platform in "${platform_list[@]}"; do
  [[ " ${all_platforms[*]} " == *" $platform "* ]] ||
    fail "'$platform' is not an evaluation platform; expected one of: ${all_platforms[*]}"
  [[ "$shipped_platforms" == *" $platform "* ]] ||
    fail "platform '$platform' has no config (configs/platforms/$platform.json does not exist);" \
         "choose the platforms that exist with --platforms (ohmvp list)"
done
case "$scale" in
  1) suite_dir="$root/testbenches/workloads" ;;
  16) suite_dir="$root/testbenches/workloads/x16" ;;
  *) fail "--scale: '$scale' is not a scale of the suite; expected 1 or 16" ;;
esac
for workload in "${workload_list[@]}"; do
  [[ "$shipped_workloads" == *" $workload "* ]] ||
    fail "unknown workload '$workload'; the shipped ones are:$shipped_workloads"
  [ -f "$suite_dir/$workload.json" ] ||
    fail "--scale $scale: no workload '$workload' at that scale ($suite_dir/$workload.json)"
done
for count in "${waveguide_list[@]}"; do
  [[ "$count" =~ ^[1-9][0-9]*$ ]] && [ "$count" -le 64 ] ||
    fail "--waveguides: '$count' is not a waveguide count (1 to 64)"
done
[[ "$inputs" =~ ^[0-9]+$ ]] && [ "$inputs" -le 1000 ] ||
  fail "--inputs: '$inputs' is not an input set (0 to 1000)"

if [ ${#overrides[@]} -gt 0 ]; then
  set_args=()
  for override in "${overrides[@]}"; do set_args+=(--set "$override"); done
  for platform in "${platform_list[@]}"; do
    error=$("$ohmvp" config --platform "$platform" "${set_args[@]}" 2>&1 > /dev/null) ||
      fail "--set on $platform: $error"
  done
fi

# The key matters because four kernels (fdtd2d, matmul, backprop, lu) touch the same addresses
# whatever their data: with the shipped key their runs on other inputs would be the same runs.
declare -A key_override
if [ "$inputs" -ne 0 ]; then
  for platform in "${platform_list[@]}"; do
    key=$("$ohmvp" config --platform "$platform" | python3 -c '
import json, sys
gap = json.load(sys.stdin)["memory"].get("xpoint", {}).get("start_gap", {})
print(gap["seed"] if gap.get("enabled") and gap.get("randomise") else "")') ||
      fail "'$ohmvp config --platform $platform' failed"
    [ -z "$key" ] || key_override[$platform]="memory.xpoint.start_gap.seed=$((key + inputs))"
  done
fi

# --scale: each platform's capacities multiplied, as --set overrides of its own.
declare -A scale_overrides
if [ "$scale" -ne 1 ]; then
  for platform in "${platform_list[@]}"; do
    scale_overrides[$platform]=$("$ohmvp" config --platform "$platform" |
      python3 "$root/tools/ohm_evaluation_scale.py" "$scale") ||
      fail "'$ohmvp config --platform $platform' failed"
  done
fi

is_optical() { [[ "$1" =~ ^(ohm_base|auto_rw|ohm_wom|ohm_bw)_ ]]; }

runs="$out/runs"
[ "$resume" -eq 1 ] || rm -rf "$runs"
rm -rf "$out/workloads"
mkdir -p "$runs"
# What a run's results depend on besides its arguments: the executable and the shipped configs,
# workloads and kernels it reads. A run keeps its stamp only when all of them are unchanged.
home="${OHMVP_HOME:-$root}"
sources=$( { sha256sum "$ohmvp"
             find "$home/configs" "$home/testbenches" -type f -print0 | sort -z | xargs -0 sha256sum
           } | sha256sum) || fail "could not read $ohmvp or the shipped files under $home"
sources="${sources%% *}"
# What each run's --workload names: the shipped workload, or its input set K written beside the
# runs.
declare -A workload_arg
for workload in "${workload_list[@]}"; do
  workload_arg[$workload]="$workload"
  [ "$scale" -eq 1 ] || workload_arg[$workload]="$suite_dir/$workload.json"
  if [ "$inputs" -ne 0 ]; then
    mkdir -p "$out/workloads"
    python3 "$root/tools/ohm_evaluation_inputs.py" "$suite_dir/$workload.json" \
      "$out/workloads/$workload.json" "$inputs"
    workload_arg[$workload]="$out/workloads/$workload.json"
  fi
done
job_file="$out/jobs.txt"
: > "$job_file"
for platform in "${platform_list[@]}"; do
  for workload in "${workload_list[@]}"; do
    echo "$platform $workload $runs/$platform/$workload" >> "$job_file"
    if is_optical "$platform"; then
      for count in "${waveguide_list[@]}"; do
        echo "$platform $workload $runs/$platform/$workload/waveguides_$count" \
             "memory.optical.waveguides=$count" >> "$job_file"
      done
    fi
  done
done

# Sets `job_command` (the ohmvp invocation of a job) and `stamp` (what its results depend on).
prepare_job() {  # platform workload dir [json.path=value]
  local extra=()
  [ -z "${key_override[$1]:-}" ] || extra+=(--set "${key_override[$1]}")
  local scaled
  for scaled in ${scale_overrides[$1]:-}; do extra+=(--set "$scaled"); done
  for override in "${overrides[@]}" "${@:4}"; do extra+=(--set "$override"); done
  # Every run's outputs are checked against its kernel's C++ reference.
  job_command=("$ohmvp" run --quiet --verify --seed "$seed" --platform "$1"
               --workload "${workload_arg[$2]}" --out "$3" "${extra[@]}")
  stamp=$(printf '%s\n' "sources $sources" "${job_command[@]}"
          [ ! -f "${workload_arg[$2]}" ] || sha256sum < "${workload_arg[$2]}")
}

kept() {  # dir: the run in dir finished with this job's stamp
  [ -f "$1/report.json" ] && [ "$(cat "$1/run.stamp" 2> /dev/null)" = "$stamp" ]
}

run_one() {  # dir; job_command and stamp from prepare_job
  local dir="$1"
  mkdir -p "$dir"
  rm -f "$dir/run.stamp"
  local status=0
  "${job_command[@]}" > "$dir/stdout.txt" 2> "$dir/stderr.txt" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "$me: run failed: ${job_command[*]:6} (exit $status): $(tail -n 3 "$dir/stderr.txt")" >&2
    return 1
  fi
  printf '%s\n' "$stamp" > "$dir/run.stamp"
}

total=$(wc -l < "$job_file")
declare -A kept_runs  # dir -> 1 for each run --resume keeps
kept_note=""
if [ "$resume" -eq 1 ]; then
  while read -r -a job; do
    prepare_job "${job[@]}"
    ! kept "${job[2]}" || kept_runs[${job[2]}]=1
  done < "$job_file"
  kept_note=", ${#kept_runs[@]} of them kept from before"
fi
echo "$me: $total runs$kept_note ($jobs at a time) into $runs" >&2
failed=0
running=0
while read -r -a job; do
  [ -z "${kept_runs[${job[2]}]:-}" ] || continue
  prepare_job "${job[@]}"
  run_one "${job[2]}" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
done < "$job_file"
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
[ "$failed" -eq 0 ] || { echo "$me: some runs failed (above); nothing aggregated" >&2; exit 1; }

docs_args=()
[ -z "$docs" ] || docs_args=(--docs "$docs")
python3 "$root/tools/ohm_evaluation_aggregate.py" --runs "$runs" --platforms "$platforms" \
  --all-platforms "$(IFS=,; echo "${all_platforms[*]}")" --workloads "$workloads" \
  --waveguides "$waveguides" --seed "$seed" --inputs "$inputs" --scale "$scale" \
  --version "$("$ohmvp" --version)" \
  --overrides "$(printf '%s\n' "${overrides[@]}")" \
  --json "$out/results.json" --tables "$out/tables.md" "${docs_args[@]}"
echo "$me: results $out/results.json, tables $out/tables.md"

if [ "$plots" -eq 1 ]; then
  mkdir -p "$figures"
  /usr/bin/python3 "$root/tools/plot_ohm_evaluation.py" "$out/results.json" "$figures" ||
    { echo "$me: the plots failed (above); results.json and tables.md are written" >&2; exit 1; }
  echo "$me: figures $figures/ohm_*.png"
fi
