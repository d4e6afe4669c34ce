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
# An installed copy may be moved: it finds its data where it lies, not where it was installed
# and not in the source tree.
mv "$scratch/prefix" "$scratch/moved"
data="$scratch/moved/share/ohmvp"
cmake -S "$source_dir/examples/host_program" -B "$scratch/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$scratch/moved" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$scratch/build" >/dev/null
if ! grep -qF "OHMVP_PACKAGE_DATADIR=\\\"$data\\\"" "$scratch/build/build.ninja"; then
  echo "the example is not told the package's data folder, $data" >&2
  exit 1
fi
listed=$(env -u OHMVP_HOME "$scratch/moved/bin/ohmvp" list | head -1)
if [[ "$listed" != "Platforms ($data/configs/platforms):" ]]; then
  echo "the installed ohmvp lists $listed, not its own $data" >&2
  exit 1
fi
env -u OHMVP_HOME SC_COPYRIGHT_MESSAGE=DISABLE "$scratch/build/vecadd_host"
