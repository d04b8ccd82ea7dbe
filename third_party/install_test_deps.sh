#!/usr/bin/env bash
# Installs the Debian 12 packages only the tests need (`make test` runs this; `make run` does
# not): Chromium, in which the fidelity suite runs three.js headless on SwiftShader
# (tests/fidelity). Quick (a dpkg-query per package) when nothing is missing. As root it runs
# apt-get; otherwise it prints the command, and the tests that need the package skip visibly
# (under CI=true they fail instead).
set -euo pipefail
PKGS=(chromium)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "rigview: the fidelity tests need packages that are missing; run:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 0
fi
echo "rigview: installing ${missing[*]} for the tests"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
