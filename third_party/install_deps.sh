#!/usr/bin/env bash
# Installs the Debian 12 packages rigview needs, only those that are missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -euo pipefail
PKGS=(build-essential cmake pkg-config libglfw3-dev libglm-dev libimgui-dev
      libtinygltf-dev libmeshoptimizer-dev nlohmann-json3-dev
      libstb-dev python3-glad libgtest-dev libbenchmark-dev
      libegl-dev libgl-dev libgl1-mesa-dri libegl-mesa0 xvfb xauth)
# Node.js + npm run the Khronos glTF validator in the tests. A machine may already have them
# from another source (whose nodejs bundles npm and conflicts with Debian's npm package).
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  PKGS+=(nodejs npm)
fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "rigview: missing packages; run:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "rigview: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
