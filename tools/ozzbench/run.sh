#!/usr/bin/env bash
# rigview vs ozz-animation on the same data, in one run: CPU skinning (100k vertices, 64 joints, 4 and 8
# influences), the per-frame update ending with the skinning palette (Fox Walk, Fox Walk+Run 50/50, KayKit
# Knight Walking_A), and the size of ozz's optimized Fox clips.
# Usage: OZZ_MIRROR=<ozz-animation git repo> [RIGVIEW_SRC=<checkout>] run.sh [extra benchmark args]
#   RIGVIEW_SRC     rigview checkout (default: current directory)
#   OZZ_MIRROR      a git repository (bare or not) of guillaumeblanc/ozz-animation (required)
#   OZZBENCH_WORK   build/output root (default: $TMPDIR or /tmp, + /ozzbench-work); ozz goes to
#                   $OZZBENCH_WORK/ozz, the harness to $OZZBENCH_WORK/ozzbench
#   OZZBENCH_CORPUS corpus folder with Fox/Fox.glb and KayKit_Knight/Knight.glb (default: ../corpus from here)
#   OZZ_NATIVE=1    also build ozz with -march=native and add an ozz -march=native column
#   OZZBENCH_REPS   repetitions (default 5)
# rig_side.cpp calls the engine's public API (import, the method table's kernels over a SkinMesh, Character and the
# pose jobs); when that API moves, copy this
# folder and adapt rig_side.cpp.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RIGVIEW_SRC=$(cd "${RIGVIEW_SRC:-$PWD}" && pwd)
OZZ_MIRROR=${OZZ_MIRROR:?set OZZ_MIRROR to a git repository of ozz-animation}
WORK=${OZZBENCH_WORK:-${TMPDIR:-/tmp}/ozzbench-work}
CORPUS=${OZZBENCH_CORPUS:-$(cd "$here/../corpus" && pwd)}
REPS=${OZZBENCH_REPS:-5}
out=$WORK/ozzbench
[[ -f $RIGVIEW_SRC/engine/CMakeLists.txt ]] || { echo "RIGVIEW_SRC=$RIGVIEW_SRC is not a rigview checkout" >&2; exit 2; }
[[ -d $OZZ_MIRROR ]] || { echo "OZZ_MIRROR=$OZZ_MIRROR not found" >&2; exit 2; }
for f in Fox/Fox.glb KayKit_Knight/Knight.glb; do
  [[ -f $CORPUS/$f ]] || { echo "missing $CORPUS/$f" >&2; exit 2; }
done
mkdir -p "$out"
jobs=$(nproc)

# build_ozz DEST [extra CXX flags]: ozz runtime libs + gltf2ozz from the mirror, Release,
# default options otherwise (samples/howtos/tests/fbx off). DEST/src tree, DEST/build build.
build_ozz() {
  local dest=$1 extra=${2:-}
  if [[ -x $dest/build/src/animation/offline/gltf/gltf2ozz && -f $dest/build/.ozzbench-done ]]; then
    echo "ozz already built in $dest/build"; return 0
  fi
  mkdir -p "$dest"
  if [[ ! -f $dest/src/CMakeLists.txt ]]; then
    rm -rf "$dest/src" && mkdir -p "$dest/src"
    # media/ is left out: the mirror lacks some of its large blobs and nothing here needs it.
    git -C "$OZZ_MIRROR" archive HEAD -- . ':(exclude)media' | tar -x -C "$dest/src"
    git -C "$OZZ_MIRROR" rev-parse HEAD >"$dest/src/.commit"
  fi
  cmake -S "$dest/src" -B "$dest/build" -DCMAKE_BUILD_TYPE=Release \
    -Dozz_build_tools=ON -Dozz_build_gltf=ON -Dozz_build_fbx=OFF \
    -Dozz_build_samples=OFF -Dozz_build_howtos=OFF -Dozz_build_tests=OFF \
    ${extra:+"-DCMAKE_CXX_FLAGS=$extra"} >"$dest/configure.log" 2>&1
  cmake --build "$dest/build" -j"$jobs" --target gltf2ozz ozz_animation ozz_geometry ozz_base \
    >"$dest/build.log" 2>&1 || { tail -30 "$dest/build.log" >&2; return 1; }
  touch "$dest/build/.ozzbench-done"
  echo "ozz built in $dest/build (commit $(cat "$dest/src/.commit"))"
}

echo "== ozz (Release, default options) -> $WORK/ozz"
build_ozz "$WORK/ozz"
if [[ ${OZZ_NATIVE:-0} == 1 ]]; then
  echo "== ozz (Release, -march=native) -> $WORK/ozz-native"
  build_ozz "$WORK/ozz-native" -march=native
fi

echo "== converting corpus clips with gltf2ozz (default optimization; plus optimize=false for sizes)"
gltf2ozz=$WORK/ozz/build/src/animation/offline/gltf/gltf2ozz
data=$out/data
mkdir -p "$data/fox" "$data/knight"
knight_clip=${OZZBENCH_KNIGHT_CLIP:-Walking_A}
(cd "$data/fox" && "$gltf2ozz" --file="$CORPUS/Fox/Fox.glb" --log_level=silent \
  --config='{"skeleton":{"filename":"skeleton.ozz"},"animations":[{"clip":"*","filename":"*.ozz"},{"clip":"*","filename":"noopt_*.ozz","optimize":false}]}')
(cd "$data/knight" && "$gltf2ozz" --file="$CORPUS/KayKit_Knight/Knight.glb" --log_level=silent \
  --config="{\"skeleton\":{\"filename\":\"skeleton.ozz\"},\"animations\":[{\"clip\":\"$knight_clip\",\"filename\":\"*.ozz\"}]}")

build_harness() {  # build_dir ozz_root ozz_flags
  cmake -S "$here" -B "$1" -DCMAKE_BUILD_TYPE=Release -DRIGVIEW_SRC="$RIGVIEW_SRC" \
    -DOZZ_ROOT="$2" -DOZZ_CXX_FLAGS="$3" >"$1.configure.log"
  cmake --build "$1" -j"$jobs" --target ozzbench >"$1.build.log" 2>&1 || { tail -30 "$1.build.log" >&2; exit 1; }
}
echo "== building the harness -> $out/build"
mkdir -p "$out/build"
build_harness "$out/build" "$WORK/ozz" ""
if [[ ${OZZ_NATIVE:-0} == 1 ]]; then
  mkdir -p "$out/build-native"
  build_harness "$out/build-native" "$WORK/ozz-native" "-march=native"
fi

export OZZBENCH_CORPUS=$CORPUS OZZBENCH_DATA=$data OZZBENCH_KNIGHT_CLIP=$knight_clip
common=(--benchmark_repetitions="$REPS" --benchmark_report_aggregates_only=true
        --benchmark_out_format=json)
echo "== running (repetitions $REPS)"
OZZBENCH_SIDE_OUT=$out/side.json "$out/build/ozzbench" "${common[@]}" \
  --benchmark_out="$out/results.json" "$@"
native_args=()
if [[ ${OZZ_NATIVE:-0} == 1 ]]; then
  echo "== running ozz -march=native build (ozz benchmarks only)"
  "$out/build-native/ozzbench" "${common[@]}" --benchmark_filter='/ozz' \
    --benchmark_out="$out/results-native.json" "$@" 2>"$out/native.stderr"
  grep -h 'SIMD' "$out/native.stderr" | sed 's/^/-march=native build: /'
  native_args=(--native "$out/results-native.json")
fi

flags_rig=$(grep -E '^CMAKE_CXX_FLAGS_RELEASE:' "$out/build/CMakeCache.txt" | cut -d= -f2)
flags_ozz=$(grep -E '^CMAKE_CXX_FLAGS_RELEASE:' "$WORK/ozz/build/CMakeCache.txt" | cut -d= -f2)
echo
echo "rigview (rig_engine): $flags_rig -std=c++20 (project Release config, no -march)"
echo "ozz ($(cat "$WORK/ozz/src/.commit" | cut -c1-12)): $flags_ozz -std=c++17 (default options)"
python3 "$here/report.py" "$out/results.json" "$out/side.json" "${native_args[@]}"
