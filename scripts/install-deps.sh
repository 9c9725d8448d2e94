#!/usr/bin/env bash
# Installs what HydraScore needs on Debian (12 "bookworm" or newer). Run as
# root, or with sudo available.
#
#   bash scripts/install-deps.sh              everything: build, run, test, demo
#   bash scripts/install-deps.sh build tools  only the named lists
#
# The packages come from scripts/packages/<list>.txt, the one list the CI
# templates (templates/ci/) and the .deb's dependencies read too:
#   build  build hydra-score and package it as a .deb
#   tools  the programs a capture drives (cmake, git, clang-tidy, bubblewrap, ...)
#   dev    HydraScore's own tests, fuzz targets and demo; also installs the npm
#          tools the tests use (SARIF Multitool, the CI-template validators,
#          jest and ESLint for the js-node profile)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lists=("$@")
if [ "${#lists[@]}" -eq 0 ]; then lists=(build tools dev); fi

packages=()
with_dev=0
for list in "${lists[@]}"; do
  file="$here/packages/$list.txt"
  if [ ! -f "$file" ]; then
    echo "install-deps.sh: no package list $file (lists: build, tools, dev)" >&2
    exit 2
  fi
  # Names separated by white space; '#' starts a comment.
  read -r -a names <<< "$(sed 's/#.*//' "$file" | tr '\n' ' ')"
  packages+=("${names[@]}")
  if [ "$list" = dev ]; then with_dev=1; fi
done
# Node.js and npm run Microsoft's SARIF Multitool, the CI-template validators
# and the js-node profile; a machine that already has them keeps its own.
if [ "$with_dev" -eq 1 ] && ! command -v npm > /dev/null 2>&1; then packages+=(nodejs npm); fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y "${packages[@]}"
if [ "$with_dev" -eq 0 ]; then exit 0; fi

sarif_multitool_version=5.7.0
# (It prints its version on stderr.)
if ! sarif-multitool --version 2>&1 | grep -q "^SARIF Multitool $sarif_multitool_version"; then
  "${as_root[@]}" npm install --global --no-audit --no-fund "@microsoft/sarif-multitool@$sarif_multitool_version"
fi

# The CI templates' validators: action-validator (GitHub Actions workflow
# schema) and gitlab-ci-local, whose package carries GitLab's JSON schema of
# .gitlab-ci.yml with the Ajv and js-yaml that read it (tests/ci/).
action_validator_version=0.6.0
gitlab_ci_local_version=4.64.1
npm_root=$(npm root --global)
if ! { grep -q "\"version\": \"$action_validator_version\"" "$npm_root/@action-validator/cli/package.json" &&
       grep -q "\"version\": \"$gitlab_ci_local_version\"" "$npm_root/gitlab-ci-local/package.json"; } 2>/dev/null; then
  "${as_root[@]}" npm install --global --no-audit --no-fund \
    "@action-validator/cli@$action_validator_version" "gitlab-ci-local@$gitlab_ci_local_version"
fi

# The js-node profile's tools, as a project would have them: jest with
# jest-junit (its JUnit reporter) and ESLint. (ESLint 9 and jest 29 run on
# Debian 12's Node.js 18.)
npm_tools=(jest@29 jest-junit@16 eslint@9)
if ! { jest --version 2>/dev/null | grep -q "^29\." && eslint --version 2>/dev/null | grep -q "^v9\." &&
       [ -d "$(npm root --global)/jest-junit" ]; }; then
  "${as_root[@]}" npm install --global --no-audit --no-fund "${npm_tools[@]}"
fi
