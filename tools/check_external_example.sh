#!/usr/bin/env bash
# Installs the built OhmVP into a scratch prefix, builds examples/host_program against the
# installed CMake package (as another project would) and runs it.
# Usage: tools/check_external_example.sh BUILD_DIR [SCRATCH_DIR]
set -euo pipefail
build_dir=$(cd "$1" && pwd)
scratch=${2:-$build_dir/external_example}
source_dir=$(cd "$(dirname "$0")/.." && pwd)

rm -rf "$scratch"
mkdir -p "$scratch"
cmake --install "$build_dir" --prefix "$scratch/prefix" >/dev/null
cmake -S "$source_dir/examples/host_program" -B "$scratch/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$scratch/build" >/dev/null
# The installed copy must find its configs without the source tree.
OHMVP_HOME="$scratch/prefix/share/ohmvp" SC_COPYRIGHT_MESSAGE=DISABLE "$scratch/build/vecadd_host"
