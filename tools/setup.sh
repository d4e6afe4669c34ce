#!/usr/bin/env bash
# Installs the Debian packages OhmVP needs (when missing), then configures and builds it in
# build/ (or $OHMVP_BUILD_DIR). Safe to rerun: it skips what is already done.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${OHMVP_BUILD_DIR:-$root/build}"

packages=(cmake ninja-build g++ pkg-config libsystemc-dev catch2 nlohmann-json3-dev
          libboost-program-options-dev python3-matplotlib gtkwave)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  echo "[setup] installing: ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >&2
fi

if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S "$root" -B "$build_dir" -G Ninja ${OHMVP_CMAKE_ARGS:-} >&2
fi
cmake --build "$build_dir" >&2
