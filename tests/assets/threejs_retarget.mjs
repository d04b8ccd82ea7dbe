// Baseline for rigview's retargeting: three.js SkeletonUtils.retargetClip on the same source →
// target pairs, given the same bone map, measured with the same direction error as rigview's
// report, next to rigview's own numbers (reported, and measured here from --export-pose).
//
// usage: node threejs_retarget.mjs <three dir> <rigview> <out.json> [options] <target> <source>...
//   options: --three-only <map dir>  measure three.js alone, with hand-written maps (below)
//            --ours-clips N          measure ours on at most N clips per pair (default 6)
//
// Per pair:
// - The map: `rigview TARGET --clips SOURCE --retarget-report R.json` (feet off) gives the map
//   and our measures; a second report with --retarget-feet gives our foot slide. With
//   --three-only (or when rigview cannot retarget: it prints "rigview retargeting unavailable"
//   and fails) the map is read from <map dir>/<target stem>_from_<source stem>.json, else from
//   <source stem>_from_<target stem>.json with the sides swapped, in the report's "map" form.
// - three.js: GLTFLoader opens both files; the first SkinnedMesh of each (its skeleton) goes to
//   retargetClip(targetMesh, sourceMesh, clip, {names, hip}) with names = {target bone: source
//   bone} from the map (three.js's own, sanitized node names) and hip = the SOURCE's hips name:
//   SkeletonUtils compares `hip` with the mapped (source) name of each target bone, and documents
//   it as "the name of the source's hip bone". Every other option is three.js's default (no hip
//   scale, no rest-pose correction, fps from the clip's densest track).
// - Joints: by the node indices the report gives (source_node, target_node): node names are not
//   unique (RobotExpressive has two nodes named Torso). A hand-written map resolves names.
// - Frames: rigview's grid, the report's frame_duration apart from the clip's start, the end
//   included (30 Hz with --three-only).
// - Direction error (rigview's definition): for each mapped target joint with a mapped child,
//   the angle between the target's model-space direction joint → child and G·(the source's
//   direction between the mapped joints) at the same time. Mapped child: among the nearest
//   mapped descendants (no mapped joint between) the next in the role's chain (spine → chest →
//   upper chest → neck → head for hips and the spine; shoulder → upper arm → lower arm → hand;
//   upper leg → lower leg → foot → toes); otherwise, and for joints without a chain role, the
//   first nearest mapped descendant in depth-first order; spine-chain joints never take a leg
//   or a shoulder. G takes the source's character frame (left, up, forward) onto the target's,
//   both from the rest poses (node TRS): up = the model axis nearest hips → head (first mapped
//   of head, neck, upper chest, chest, spine); left = right upper leg → left upper leg (upper
//   arms, then shoulders without legs) with its up part removed; forward = left × up.
// - Foot slide (three.js's result): a source foot (leftFoot / rightFoot) is in contact on a frame
//   when its height along up is within 2% of the source's height above its minimum over the clip
//   and it moves less than 1% of the source's height since the previous frame (the next one on
//   the first frame). Slide: on consecutive frames that are both in contact, how far the mapped
//   target foot moves in model space, as a fraction of the target's height; the maximum is
//   reported. Height: the highest mapped joint above the lowest foot or toe, along up, at rest.
// - Ours measured: the target's poses from `rigview TARGET --clips SOURCE --animation-index N
//   --animation-time T --export-pose`, the source's from `rigview SOURCE --animation-index K ...`
//   at up to 10 evenly spaced frames of up to --ours-clips clips evenly spaced over the file.
//
// Writes out.json (per pair and clip: three.js's max/mean direction error and foot slide, ours
// reported and measured) and prints a markdown table. Exits 1 when rigview fails on a pair, our
// measured direction error exceeds 1°, or exceeds the report's maximum by more than 0.05°.
// three.js's numbers are reported, never asserted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {execFileSync} from 'node:child_process';
import {pathToFileURL} from 'node:url';

const args = process.argv.slice(2);
const [threeDir, rigview, outPath] = args.splice(0, 3);
let mapDir = null, oursClips = 6;
while (args.length && args[0].startsWith('--')) {
  const flag = args.shift();
  if (flag === '--three-only') mapDir = args.shift();
  else if (flag === '--ours-clips') oursClips = Number(args.shift());
  else {
    console.error(`unknown option ${flag}`);
    process.exit(2);
  }
}
if (!threeDir || !rigview || !outPath || args.length === 0 || args.length % 2 !== 0 ||
    !(oursClips >= 0)) {
  console.error('usage: node threejs_retarget.mjs <three> <rigview> <out.json> ' +
                '[--three-only <map dir>] [--ours-clips N] <target> <source>...');
  process.exit(2);
}
const three = await import(pathToFileURL(path.join(threeDir, 'build/three.module.js')).href);
const {GLTFLoader} = await import(
    pathToFileURL(path.join(threeDir, 'examples/jsm/loaders/GLTFLoader.js')).href);
const SkeletonUtils =
    await import(pathToFileURL(path.join(threeDir, 'examples/jsm/utils/SkeletonUtils.js')).href);
// Node has no image decoding: textures load as blank ones (only the skeletons matter here).
three.TextureLoader.prototype.load = function(url, onLoad) {
  const texture = new three.Texture();
  if (onLoad) setTimeout(() => onLoad(texture), 0);
  return texture;
};
// GLTFLoader reads URL from `self` (a browser global); Node has it on globalThis.
globalThis.self = globalThis;

const FPS = 30;
const DIRECTION_LIMIT = 1.0, REPORT_SLACK = 0.05;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-three-retarget-'));
const V = (a) => new three.Vector3().fromArray(a);
const deg = (a, b) => Math.atan2(a.clone().cross(b).length(), a.dot(b)) * 180 / Math.PI;
const stem = (f) => path.basename(f).replace(/\.[^.]*$/, '');

async function load(file) {
  let bytes = fs.readFileSync(file);
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      path.dirname(path.resolve(file)) + '/', resolve, reject));
  const json = gltf.parser.json;
  const nodes = [];
  for (let i = 0; i < (json.nodes || []).length; ++i)
    nodes.push(await gltf.parser.getDependency('node', i));
  let mesh = null;
  gltf.scene.traverse((o) => { if (!mesh && o.isSkinnedMesh) mesh = o; });
  if (!mesh) throw new Error(`${file}: no skinned mesh`);
  const index = new Map();  // glTF node name → first node index
  json.nodes.forEach((n, i) => { if (n.name !== undefined && !index.has(n.name)) index.set(n.name, i); });
  const parent = new Array(nodes.length).fill(-1);
  json.nodes.forEach((n, i) => (n.children || []).forEach((c) => { parent[c] = i; }));
  const rest = nodes.map((n) => [n.position.clone(), n.quaternion.clone(), n.scale.clone()]);
  return {file, gltf, json, nodes, mesh, index, parent, rest};
}

function reset(f) {
  f.nodes.forEach((n, i) => {
    n.position.copy(f.rest[i][0]);
    n.quaternion.copy(f.rest[i][1]);
    n.scale.copy(f.rest[i][2]);
  });
}

// Model-space joint positions of `f` with `clip` (a three.js clip on `root`) at time t, or at rest.
function positions(f, clip, root, t) {
  reset(f);
  if (clip) {
    const mixer = new three.AnimationMixer(root);
    const action = mixer.clipAction(clip);
    action.setLoop(three.LoopOnce);  // t = the clip's end stays there, not wrapped to 0
    action.clampWhenFinished = true;
    action.play();
    mixer.setTime(t);
  }
  f.gltf.scene.updateMatrixWorld(true);
  return f.nodes.map((n) => new three.Vector3().setFromMatrixPosition(n.matrixWorld));
}

const SPINE = ['spine', 'chest', 'upperChest', 'neck', 'head'];
const CHAINS = [['hips', ...SPINE]];
for (const side of ['left', 'right']) {
  CHAINS.push([`${side}Shoulder`, `${side}UpperArm`, `${side}LowerArm`, `${side}Hand`]);
  CHAINS.push([`${side}UpperLeg`, `${side}LowerLeg`, `${side}Foot`, `${side}Toes`]);
}

// The mapped pairs as node indices, each with its mapped child (definition in the header).
function rig(map, target, source) {
  const pairs = [];
  for (const m of map) {
    // Node indices from the report: names are not unique (RobotExpressive has two nodes named
    // Torso, a mesh node and a joint). A hand-written map has names only.
    const t = Number.isInteger(m.target_node) ? m.target_node : target.index.get(m.target);
    const s = Number.isInteger(m.source_node) ? m.source_node : source.index.get(m.source);
    if (t === undefined || s === undefined)
      throw new Error(`map names a joint the files lack: ${m.source} → ${m.target}`);
    pairs.push({t, s, role: m.role || '', child: -1});
  }
  const byTarget = new Map(pairs.map((p, i) => [p.t, i]));
  for (const p of pairs) {
    const nearest = [];
    const walk = (n) => {
      for (const c of target.json.nodes[n].children || []) {
        if (byTarget.has(c)) nearest.push(byTarget.get(c));
        else walk(c);
      }
    };
    walk(p.t);
    const chain = CHAINS.find((c) => c.includes(p.role) && c.indexOf(p.role) < c.length - 1);
    let best = -1;
    if (chain) {
      let rank = Infinity;
      for (const q of nearest) {
        const r = chain.indexOf(pairs[q].role);
        if (r > chain.indexOf(p.role) && r < rank) { rank = r; best = q; }
      }
    }
    const spineChain = CHAINS[0].includes(p.role) && p.role !== 'head';
    if (best < 0 && !spineChain && nearest.length) best = nearest[0];
    p.child = best;
  }
  return pairs;
}

function roleNode(pairs, role, side) {
  const p = pairs.find((q) => q.role === role);
  return p ? p[side] : -1;
}

// Character frame and height of one side (definition in the header), from rest positions.
function frame(pairs, side, rest) {
  const hips = roleNode(pairs, 'hips', side);
  let up = new three.Vector3(0, 1, 0);
  const top = ['head', 'neck', 'upperChest', 'chest', 'spine'].map((r) => roleNode(pairs, r, side))
                  .find((n) => n >= 0);
  if (hips >= 0 && top !== undefined) {
    const d = rest[top].clone().sub(rest[hips]).toArray();
    const a = [0, 1, 2].reduce((b, i) => (Math.abs(d[i]) > Math.abs(d[b]) ? i : b), 0);
    up = new three.Vector3();
    up.setComponent(a, Math.sign(d[a]) || 1);
  }
  let left = new three.Vector3();
  for (const [l, r] of [['leftUpperLeg', 'rightUpperLeg'], ['leftUpperArm', 'rightUpperArm'],
                        ['leftShoulder', 'rightShoulder']]) {
    const ln = roleNode(pairs, l, side), rn = roleNode(pairs, r, side);
    if (ln < 0 || rn < 0) continue;
    left = rest[ln].clone().sub(rest[rn]);
    left.addScaledVector(up, -left.dot(up));
    if (left.length() > 0) break;
  }
  if (!(left.length() > 0)) {
    left = new three.Vector3(1, 0, 0).addScaledVector(up, -up.x);
    if (!(left.length() > 0)) left.set(0, 0, 1);
  }
  left.normalize();
  const forward = left.clone().cross(up);
  const basis = new three.Matrix4().makeBasis(left, up, forward);
  let lowest = null, highest = null;
  for (const r of ['leftFoot', 'rightFoot', 'leftToes', 'rightToes']) {
    const n = roleNode(pairs, r, side);
    if (n >= 0) lowest = Math.min(lowest ?? Infinity, rest[n].dot(up));
  }
  for (const p of pairs) {
    const h = rest[p[side]].dot(up);
    highest = Math.max(highest ?? -Infinity, h);
    if (lowest === null || !['leftFoot', 'rightFoot', 'leftToes', 'rightToes'].some(
                               (r) => roleNode(pairs, r, side) >= 0))
      lowest = Math.min(lowest ?? Infinity, h);
  }
  return {up, basis, height: highest - lowest};
}

// Direction errors (degrees) of one frame: target positions pt, source positions ps.
function directionErrors(pairs, g, pt, ps) {
  const errors = [];
  for (const p of pairs) {
    if (p.child < 0) continue;
    const c = pairs[p.child];
    const ds = ps[c.s].clone().sub(ps[p.s]).applyMatrix4(g);
    const dt = pt[c.t].clone().sub(pt[p.t]);
    errors.push(deg(ds, dt));
  }
  return errors;
}

function clipSpan(json, index) {
  let start = Infinity, end = -Infinity;
  for (const s of json.animations[index].samplers) {
    const a = json.accessors[s.input];
    start = Math.min(start, a.min[0]);
    end = Math.max(end, a.max[0]);
  }
  return [start, end];
}

// rigview's frame grid (README "Retargeting: the retarget"): `frame` apart from start, the last
// frame exactly at end.
function frameTimes(start, end, frame) {
  const length = Math.max(end - start, 0);
  const count = length > 0 ? Math.max(1, Math.ceil(length / frame - 0.05)) + 1 : 1;
  const times = [];
  for (let i = 0; i < count; ++i) times.push(start + i * frame);
  times[count - 1] = Math.max(end, start);
  return times;
}

function pose(file, extra, index, t) {
  const out = path.join(tmp, 'pose.json');
  execFileSync(rigview, [file, ...extra, '--animation-index', String(index), '--animation-time',
                         String(t), '--export-pose', out], {stdio: ['ignore', 'ignore', 'inherit']});
  return JSON.parse(fs.readFileSync(out, 'utf8')).nodes.map((n) => V(n.world.slice(12, 15)));
}

function report(target, source, feet) {
  const out = path.join(tmp, feet ? 'report_feet.json' : 'report.json');
  execFileSync(rigview, [target, '--clips', source, '--retarget-report', out,
                         ...(feet ? ['--retarget-feet'] : [])],
               {stdio: ['ignore', 'ignore', 'inherit']});
  const r = JSON.parse(fs.readFileSync(out, 'utf8'));
  const entry = r.files.find((f) => path.resolve(f.file) === path.resolve(source)) || r.files[0];
  if (!entry || !entry.retargeted) throw new Error(`${source} was not retargeted onto ${target}`);
  return entry;
}

function handMap(target, source) {
  const direct = path.join(mapDir, `${stem(target)}_from_${stem(source)}.json`);
  if (fs.existsSync(direct)) return JSON.parse(fs.readFileSync(direct, 'utf8')).map;
  const reverse = path.join(mapDir, `${stem(source)}_from_${stem(target)}.json`);
  if (fs.existsSync(reverse))
    return JSON.parse(fs.readFileSync(reverse, 'utf8'))
        .map.map((m) => ({source: m.target, target: m.source, role: m.role}));
  throw new Error(`no hand-written map ${direct} (or its reverse)`);
}

const results = [];
let failed = false;

async function runPair(targetFile, sourceFile) {
  const label = `${stem(targetFile)} ← ${stem(sourceFile)}`;
  let ours = null, oursFeet = null, map;
  if (mapDir === null) {
    try {
      ours = report(targetFile, sourceFile, false);
      oursFeet = report(targetFile, sourceFile, true);
    } catch (err) {
      console.error(`${label}: rigview retargeting unavailable: ${err.message.split('\n')[0]}`);
      failed = true;
      return;
    }
    map = ours.map;
  } else {
    map = handMap(targetFile, sourceFile);
  }
  const target = await load(targetFile), source = await load(sourceFile);
  const pairs = rig(map, target, source);
  const restT = positions(target, null), restS = positions(source, null);
  const ft = frame(pairs, 't', restT), fs_ = frame(pairs, 's', restS);
  const g = ft.basis.clone().multiply(fs_.basis.clone().transpose());
  const names = {};
  for (const p of pairs) names[target.nodes[p.t].name] = source.nodes[p.s].name;
  const hips = roleNode(pairs, 'hips', 's');
  const hip = hips >= 0 ? source.nodes[hips].name : undefined;
  const feet = ['leftFoot', 'rightFoot'].map((r) => [roleNode(pairs, r, 's'), roleNode(pairs, r, 't')])
                   .filter(([s, t]) => s >= 0 && t >= 0);
  const pairResult = {target: targetFile, source: sourceFile, map, clips: []};
  results.push(pairResult);
  console.log(`${label}: ${pairs.length} mapped joints, ` +
              `${pairs.filter((p) => p.child >= 0).length} with a mapped child`);

  const oursByClip = new Map((ours ? ours.clips : []).map((c) => [c.source_clip, c]));
  const feetByClip = new Map((oursFeet ? oursFeet.clips : []).map((c) => [c.source_clip, c]));
  const measured = new Set();
  const n = source.gltf.animations.length;
  for (let k = 0; k < Math.min(oursClips, n); ++k)
    measured.add(oursClips >= n ? k : Math.round(k * (n - 1) / Math.max(oursClips - 1, 1)));

  for (let c = 0; c < n; ++c) {
    const clip = source.gltf.animations[c];
    const sourceName = source.json.animations[c].name;
    // The report lists the source's clips in order; unnamed clips match by that order.
    const inOrder = (r) => r && r.clips.length === n &&
                           (sourceName === undefined || r.clips[c].source_clip === sourceName);
    const reported = (inOrder(ours) ? ours.clips[c] : oursByClip.get(sourceName)) || null;
    const reportedFeet = inOrder(oursFeet) ? oursFeet.clips[c] : feetByClip.get(sourceName);
    const [start, end] = reported ? [reported.start, reported.end] : clipSpan(source.json, c);
    const times = frameTimes(start, end, (reported && reported.frame_duration) || 1 / FPS);
    // retargetClip writes its progress to the target's bones and warns about tracks the
    // skeleton does not bind (other nodes' animation): quiet, as its result is what counts.
    // Its source mixer sets only the animated nodes: the others start from rest.
    positions(source, null);
    const warn = console.warn;
    console.warn = () => {};
    const result = SkeletonUtils.retargetClip(target.mesh, source.mesh, clip, {names, hip});
    console.warn = warn;
    let max = 0, sum = 0, count = 0, slide = 0;
    const sourceFeet = [], targetFeet = [];
    for (const t of times) {
      const ps = positions(source, clip, source.gltf.scene, t);
      const pt = positions(target, result, target.mesh, t);
      for (const e of directionErrors(pairs, g, pt, ps)) {
        max = Math.max(max, e);
        sum += e;
        ++count;
      }
      sourceFeet.push(feet.map(([s]) => ps[s]));
      targetFeet.push(feet.map(([, tn]) => pt[tn]));
    }
    for (let f = 0; f < feet.length; ++f) {
      const h = sourceFeet.map((p) => p[f].dot(fs_.up));
      const low = Math.min(...h);
      const contact = h.map((hi, i) => {
        const j = i > 0 ? i - 1 : Math.min(1, h.length - 1);
        return hi - low <= 0.02 * fs_.height &&
               sourceFeet[i][f].distanceTo(sourceFeet[j][f]) <= 0.01 * fs_.height;
      });
      for (let i = 1; i < times.length; ++i)
        if (contact[i] && contact[i - 1])
          slide = Math.max(slide, targetFeet[i][f].distanceTo(targetFeet[i - 1][f]) / ft.height);
    }
    const row = {
      clip: sourceName ?? `#${c}`, frames: times.length,
      three: {direction_error_max_deg: max, direction_error_mean_deg: count ? sum / count : 0,
              foot_slide_max: slide},
      ours: reported && {
        direction_error_max_deg: reported.direction_error_max_deg,
        direction_error_mean_deg: reported.direction_error_mean_deg, hip_ratio: reported.hip_ratio,
        foot_slide_max: (reportedFeet || {}).foot_slide_max ?? null,
        measured_direction_error_max_deg: null, measured_frames: 0},
    };
    if (ours && !reported) {
      console.error(`${label}: clip ${sourceName ?? c} is missing from rigview's report`);
      failed = true;
    }
    if (reported && measured.has(c)) {
      const picks = new Set();
      const m = Math.min(10, times.length);
      for (let i = 0; i < m; ++i) picks.add(Math.round(i * (times.length - 1) / Math.max(m - 1, 1)));
      let worst = 0;
      for (const i of picks) {
        const pt = pose(targetFile, ['--clips', sourceFile], reported.index, times[i]);
        const ps = pose(sourceFile, [], c, times[i]);
        for (const e of directionErrors(pairs, g, pt, ps)) worst = Math.max(worst, e);
      }
      row.ours.measured_direction_error_max_deg = worst;
      row.ours.measured_frames = picks.size;
      if (!(worst <= DIRECTION_LIMIT)) {
        console.error(`${label} ${row.clip}: our direction error ${worst.toFixed(3)}° > 1°`);
        failed = true;
      }
      if (!(worst <= reported.direction_error_max_deg + REPORT_SLACK)) {
        console.error(`${label} ${row.clip}: measured ${worst.toFixed(3)}° exceeds the ` +
                      `report's ${reported.direction_error_max_deg.toFixed(3)}° by > 0.05°`);
        failed = true;
      }
    }
    pairResult.clips.push(row);
  }
}

try {
  for (let i = 0; i < args.length; i += 2) await runPair(args[i], args[i + 1]);
} catch (err) {
  console.error(`threejs_retarget: ${err && err.stack ? err.stack : err}`);
  failed = true;
}
fs.rmSync(tmp, {recursive: true, force: true});
fs.writeFileSync(outPath, JSON.stringify({three_revision: three.REVISION, pairs: results}, null, 1));

const f = (x, d = 2) => (x === null || x === undefined ? '–' : x.toFixed(d));
console.log(`\nthree.js r${three.REVISION} SkeletonUtils.retargetClip against rigview ` +
            '(direction error in degrees, foot slide in % of the target height per frame)\n');
console.log('| target ← source | clips | three.js dir max | three.js dir mean | three.js foot slide ' +
            '| ours dir max (report) | ours dir max (measured) | ours foot slide (feet on) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const p of results) {
  const max = (sel) => {
    const v = p.clips.map(sel).filter((x) => x !== null && x !== undefined);
    return v.length ? Math.max(...v) : null;
  };
  const mean = p.clips.length ?
      p.clips.reduce((a, c) => a + c.three.direction_error_mean_deg, 0) / p.clips.length : null;
  const pct = (x) => (x === null ? null : 100 * x);
  console.log(`| ${stem(p.target)} ← ${stem(p.source)} | ${p.clips.length} | ` +
              `${f(max((c) => c.three.direction_error_max_deg))} | ${f(mean)} | ` +
              `${f(pct(max((c) => c.three.foot_slide_max)), 3)} | ` +
              `${f(max((c) => c.ours && c.ours.direction_error_max_deg), 3)} | ` +
              `${f(max((c) => c.ours && c.ours.measured_direction_error_max_deg), 3)} | ` +
              `${f(pct(max((c) => c.ours && c.ours.foot_slide_max)), 3)} |`);
}
process.exit(failed ? 1 : 0);
