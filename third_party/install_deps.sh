#!/usr/bin/env bash
# Installs the Debian 12 packages rigview needs, only those that are missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -euo pipefail
PKGS=(build-essential cmake pkg-config libglfw3-dev libglm-dev libimgui-dev
      libtinygltf-dev libstb-dev nlohmann-json3-dev python3-glad libgtest-dev
      libbenchmark-dev libegl-dev libgl-dev libgl1-mesa-dri libegl-mesa0
      libgles-dev xvfb xauth nodejs npm)
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
