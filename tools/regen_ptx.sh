#!/usr/bin/env bash
# Regenerates testbenches/kernels/*.ptx from the .cu next to them with nvcc -arch=sm_75 -ptx
# (CUDA 13 dropped sm_70; sm_75 is the oldest target it keeps).
#   tools/regen_ptx.sh           rewrite every .ptx
#   tools/regen_ptx.sh --check   fail if a committed .ptx differs from what nvcc emits now
# NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc) picks the compiler.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
kernels="$root/testbenches/kernels"
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

nvcc="${NVCC:-$(command -v nvcc || true)}"
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then
  echo "regen_ptx: nvcc not found; skipping (the committed .ptx files are used as they are)"
  exit 0
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
status=0
for source in "$kernels"/*.cu; do
  name="$(basename "$source" .cu)"
  "$nvcc" -arch=sm_75 -ptx "$source" -o "$scratch/$name.ptx"
  if [[ $check -eq 1 ]]; then
    if ! cmp -s "$scratch/$name.ptx" "$kernels/$name.ptx"; then
      echo "regen_ptx: $name.ptx is out of date with $name.cu (run tools/regen_ptx.sh)" >&2
      status=1
    fi
  else
    cp "$scratch/$name.ptx" "$kernels/$name.ptx"
  fi
done
if [[ $check -eq 1 && $status -eq 0 ]]; then echo "regen_ptx: all .ptx files match $("$nvcc" --version | tail -1)"; fi
exit $status
