#!/usr/bin/env bash
# Set up and build if needed, then run the whole test suite through CTest.
# Exits non-zero if any test fails. Extra arguments go to ctest (e.g. -R cli).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${OHMVP_BUILD_DIR:-$root/build}"
"$root/tools/setup.sh"
cd "$build_dir"
exec ctest --output-on-failure -j "$(nproc)" "$@"
