#!/usr/bin/env bash
# Installs what HydraScore needs to build, test and run its demo on Debian
# (12 "bookworm" or newer). Run as root, or with sudo available.
set -euo pipefail
packages=(
  cmake ninja-build g++ git          # build, and the tools HydraScore drives
  clang-tidy                         # the lint dimension
  nlohmann-json3-dev libtomlplusplus-dev catch2 libpugixml-dev libcli11-dev
  libssl-dev libxxhash-dev pkg-config   # SHA-256 (libcrypto) and XXH64
  python3 python3-jsonschema python3-yaml   # SARIF schema and CI-template checks in the tests
  chromium                           # renders the HTML report in the tests
  bubblewrap                         # read-only sandbox for candidate steps
)
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y "${packages[@]}"
