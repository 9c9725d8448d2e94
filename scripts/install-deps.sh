#!/usr/bin/env bash
# Installs what HydraScore needs to build, test and run its demo on Debian
# (12 "bookworm" or newer). Run as root, or with sudo available.
set -euo pipefail
packages=(
  cmake ninja-build g++ git pkg-config   # build, and the tools HydraScore drives
  clang-tidy                              # the lint dimension
  clang libclang-rt-dev                   # the Clang build and the fuzz targets (libFuzzer, ASan, UBSan)
  nlohmann-json3-dev libtomlplusplus-dev catch2 libpugixml-dev libcli11-dev
  libssl-dev libxxhash-dev               # SHA-256 (libcrypto) and XXH64
  libre2-dev                              # regular expressions (linear time, no recursion)
  libgmp-dev                              # exact rationals (ties and thresholds)
  libsqlite3-dev                          # the results store (record-results, leaderboard)
  libhiredis-dev libcurl4-openssl-dev    # shared caches in Redis and over HTTP
  redis-server nginx-core                 # the tests start a real Redis and a WebDAV server for the shared caches
  python3 python3-yaml                    # CI-template checks in the tests
  chromium                                # renders the HTML report in the tests
  bubblewrap                              # the sandbox of candidate steps (no network, hidden home and runs)
  ccache                                  # capture trees share compiled objects
  cargo rustc rust-clippy                 # the rust profile (tests capture a small crate)
  libgtest-dev doctest-dev               # test programs of known frameworks (with catch2: cases per program)
  python3-pytest flake8                   # the python profile
)
# Node.js and npm run Microsoft's SARIF Multitool (the tests validate SARIF
# with it) and the js-node profile; a machine that already has them keeps its own.
command -v npm > /dev/null 2>&1 || packages+=(nodejs npm)

as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y "${packages[@]}"

sarif_multitool_version=5.7.0
# (It prints its version on stderr.)
if ! sarif-multitool --version 2>&1 | grep -q "^SARIF Multitool $sarif_multitool_version"; then
  "${as_root[@]}" npm install --global --no-audit --no-fund "@microsoft/sarif-multitool@$sarif_multitool_version"
fi

# The js-node profile's tools, as a project would have them: jest with
# jest-junit (its JUnit reporter) and ESLint. (ESLint 9 and jest 29 run on
# Debian 12's Node.js 18.)
npm_tools=(jest@29 jest-junit@16 eslint@9)
if ! { jest --version 2>/dev/null | grep -q "^29\." && eslint --version 2>/dev/null | grep -q "^v9\." &&
       [ -d "$(npm root --global)/jest-junit" ]; }; then
  "${as_root[@]}" npm install --global --no-audit --no-fund "${npm_tools[@]}"
fi
