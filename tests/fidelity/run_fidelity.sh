#!/usr/bin/env bash
# The fidelity ctest: rigview against three.js r187 in the reference scene (README "Fidelity").
#   run_fidelity.sh RIGVIEW SCENES_EXE REPORT_EXE NODE NPM NPM_PREFIX SOURCE_DIR OUT_DIR
# 1. rig_fidelity_scenes writes the generated scenes; 2. threejs_render.mjs renders them and
# every skinned corpus character (RIGVIEW_CORPUS) in one Chromium, and lists each scene with the
# camera it used; 3. rigview renders each scene with that camera (two at a time), twice: with
# --subpixel-bits 4, SwiftShader's sub-pixel precision, which the goal is measured on, and at the
# GL's own precision (llvmpipe: 8 bits), scored for information;
# 4. rig_fidelity_report scores the pairs against the goal and tests/fidelity/pending.json.
# Without Chromium, node/npm or the npm packages it exits 77 (ctest SKIP_RETURN_CODE), except
# under CI=true, where that is a failure.
set -uo pipefail
RIGVIEW=$1 SCENES_EXE=$2 REPORT_EXE=$3 NODE=$4 NPM=$5 PREFIX=$6 SOURCE=$7 OUT=$8
THREE_VERSION=0.187.0
PLAYWRIGHT_VERSION=1.65.2
CHROMIUM=${RIGVIEW_CHROMIUM:-/usr/bin/chromium}

unavailable() {
  if [ "${CI:-}" = "true" ]; then
    echo "fidelity: $1 (CI=true: the fidelity suite must run; make test installs what it needs)" >&2
    exit 1
  fi
  echo "fidelity: SKIPPED: $1 (third_party/install_test_deps.sh installs Chromium)"
  exit 77
}

[ -x "$CHROMIUM" ] || unavailable "no Chromium at $CHROMIUM"
{ [ -x "$NODE" ] && [ -x "$NPM" ]; } || unavailable "this check needs node and npm"

installed_version() {  # the version of npm package $1 in PREFIX, empty when absent
  "$NODE" -e 'try { console.log(require(process.argv[1]).version) } catch { }' \
    "$PREFIX/node_modules/$1/package.json"
}
if [ "$(installed_version three)" != "$THREE_VERSION" ] ||
   [ "$(installed_version playwright-core)" != "$PLAYWRIGHT_VERSION" ]; then
  mkdir -p "$PREFIX"
  "$NPM" install --prefix "$PREFIX" --no-audit --no-fund --no-save \
    "three@$THREE_VERSION" "playwright-core@$PLAYWRIGHT_VERSION" ||
    unavailable "npm could not install three@$THREE_VERSION and playwright-core@$PLAYWRIGHT_VERSION"
fi

rm -rf "$OUT/scenes" "$OUT/ours" "$OUT/ours_native" "$OUT/three" "$OUT/side_by_side" "$OUT/manifest.tsv"
mkdir -p "$OUT/ours" "$OUT/ours_native"
"$SCENES_EXE" "$OUT/scenes" || exit 1

corpus=-
if [ -n "${RIGVIEW_CORPUS:-}" ] && [ -d "$RIGVIEW_CORPUS" ]; then
  corpus=$RIGVIEW_CORPUS
else
  echo "fidelity: RIGVIEW_CORPUS not set: the corpus characters are left out"
fi
start=$(date +%s)
"$NODE" "$SOURCE/threejs_render.mjs" "$PREFIX/node_modules" "$CHROMIUM" \
  "$OUT/scenes/scenes.json" "$corpus" "$OUT"
status=$?
[ $status -eq 3 ] && unavailable "Chromium could not start or has no WebGL2"
[ $status -eq 0 ] || echo "fidelity: three.js could not render some scenes (above)" >&2
three_done=$(date +%s)

# Two rigview runs per scene (4 sub-pixel bits, then the GL's own), two scenes at a time; a
# failed run leaves NAME.png.err for the report.
render_one() {
  local name=$1 model=$2 clip=$3 time=$4 camera=$5 pose dir precision
  if [ "$clip" -lt 0 ]; then pose=(--rest-pose); else
    pose=(--animation-index "$clip" --animation-time "$time"); fi
  for dir in ours ours_native; do
    precision=(--subpixel-bits 4)
    [ "$dir" = ours_native ] && precision=()
    DISPLAY= "$RIGVIEW" "$model" "${pose[@]}" --lights reference --camera "$camera" \
      --background transparent --no-grid --msaa 1 --resolution 512,512 "${precision[@]}" \
      --output "$OUT/$dir/$name.png" >/dev/null 2>"$OUT/$dir/$name.png.err" ||
      echo "fidelity: rigview failed on $name: $(head -c 300 "$OUT/$dir/$name.png.err")" >&2
  done
}
export -f render_one
export RIGVIEW OUT
tr '\t' '\n' < "$OUT/manifest.tsv" | xargs -d '\n' -n 5 -P 2 bash -c 'render_one "$@"' _
ours_done=$(date +%s)
echo "fidelity: three.js $((three_done - start)) s, rigview $((ours_done - three_done)) s"

"$NODE" -e '
  const list = require(process.argv[1]);
  for (const [name, v] of Object.entries(list.pending))
    console.log([name, v.score_db_tol1px, v.coverage_mismatch_percent].join("\t"));
  for (const name of Object.keys(list.reference_defects || {}))
    console.log([name, "reference-blank"].join("\t"));' \
  "$SOURCE/pending.json" > "$OUT/pending.tsv" || exit 1
"$REPORT_EXE" "$OUT/manifest.tsv" "$OUT/ours" "$OUT/three" "$OUT/pending.tsv" "$OUT" \
  "$OUT/ours_native"
report=$?
[ $status -eq 0 ] || exit 1
exit $report
