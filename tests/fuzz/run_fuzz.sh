#!/usr/bin/env bash
# Runs the libFuzzer targets for RUNS executions each, seeded from the shared corpus.
#   run_fuzz.sh [--build] BUILD_DIR RUNS
# --build first configures and builds BUILD_DIR as the fuzz tree (clang-14, ASan + UBSan).
# Seeds: every corpus .glb up to 256 KiB as it is, and every .gltf with its external buffers and
# images inlined as data: URIs (tests/fuzz/make_seeds.py), plus tests/fuzz/regressions/.
# New inputs go to BUILD_DIR/fuzz-corpus/<target>; crashes to BUILD_DIR/fuzz-artifacts/ (then
# the script fails: copy the input to tests/fuzz/regressions/ and fix the bug).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(cd "$here/../.." && pwd)"
build=0
if [ "${1:-}" = "--build" ]; then build=1; shift; fi
build_dir="${1:?build dir}"
runs="${2:-20000}"
if [ "$build" = 1 ]; then
  cmake -S "$source_dir" -B "$build_dir" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIGVIEW_SANITIZE=ON -DRIGVIEW_FUZZ=ON \
    -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link >/dev/null
  cmake --build "$build_dir" --target rig_fuzz_import rig_fuzz_animate rig_fuzz_meshopt -j "${JOBS:-1}"
fi
seeds="$build_dir/fuzz-seeds"
mkdir -p "$seeds" "$build_dir/fuzz-artifacts"
# RIGVIEW_CORPUS as the tests take it (relative to the repository root); ../shared/corpus else.
corpus="${RIGVIEW_CORPUS:-../shared/corpus}"
case "$corpus" in /*) ;; *) corpus="$source_dir/$corpus" ;; esac
if [ -d "$corpus" ]; then python3 "$here/make_seeds.py" "$corpus" "$seeds"; fi
cp "$here"/regressions/* "$seeds"/ 2>/dev/null || true
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$source_dir/tests/lsan.supp:print_suppressions=0"
status=0
for target in import animate meshopt; do
  work="$build_dir/fuzz-corpus/$target"
  mkdir -p "$work"
  echo "fuzz: rig_fuzz_$target, $runs runs"
  "$build_dir/tests/fuzz/rig_fuzz_$target" -runs="$runs" -max_len=65536 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -timeout=20 -print_final_stats=1 \
    -artifact_prefix="$build_dir/fuzz-artifacts/$target-" "$work" "$seeds" 2>&1 |
    grep -E "^(#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" || true
  if ls "$build_dir/fuzz-artifacts/$target-"* >/dev/null 2>&1; then
    echo "fuzz: rig_fuzz_$target found crashes: $(ls "$build_dir/fuzz-artifacts/$target-"*)"
    status=1
  fi
done
exit $status
