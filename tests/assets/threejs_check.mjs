// Opens rigview's --optimize-animations output in three.js (GLTFLoader, AnimationMixer) and
// measures what three.js plays against rigview playing the ORIGINAL file, with the issue's
// metric: for every skin joint, e = max_a ‖G_orig·p_a − G_three·p_a‖, p_a = (0.03 m / ‖column a
// of G_orig‖)·e_a. three.js is an independent glTF sampler (its own slerp, float32).
// usage: node threejs_check.mjs <three module dir> <rigview> <limit_m> <original> <optimized>...
// (pairs). Exits 1 when a file does not load or any error exceeds limit_m.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {execFileSync} from 'node:child_process';
import {pathToFileURL} from 'node:url';

const [threeDir, rigview, limitText, ...pairs] = process.argv.slice(2);
if (!threeDir || !rigview || !limitText || pairs.length === 0 || pairs.length % 2 !== 0) {
  console.error('usage: node threejs_check.mjs <three> <rigview> <limit_m> <original> <optimized>...');
  process.exit(2);
}
const three = await import(pathToFileURL(path.join(threeDir, 'build/three.module.js')).href);
const {GLTFLoader} = await import(
    pathToFileURL(path.join(threeDir, 'examples/jsm/loaders/GLTFLoader.js')).href);
// EXT_meshopt_compression files decode with three's own MeshoptDecoder (WebAssembly).
const {MeshoptDecoder} = await import(
    pathToFileURL(path.join(threeDir, 'examples/jsm/libs/meshopt_decoder.module.js')).href);
await MeshoptDecoder.ready;
// Node has no image decoding: textures load as blank ones (only the animation matters here).
three.TextureLoader.prototype.load = function(url, onLoad) {
  const texture = new three.Texture();
  if (onLoad) setTimeout(() => onLoad(texture), 0);
  return texture;
};
// GLTFLoader reads URL from `self` (a browser global); Node has it on globalThis.
globalThis.self = globalThis;
const limit = Number(limitText);
let worst = 0;
let failed = false;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-three-'));

async function check(original, optimized) {
  const bytes = fs.readFileSync(optimized);
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).parse(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), '', resolve,
      reject));
  const parser = gltf.parser;
  const nodeCount = (parser.json.nodes || []).length;
  const nodes = [];
  for (let i = 0; i < nodeCount; ++i) nodes.push(await parser.getDependency('node', i));
  console.log(`${path.basename(optimized)}: three.js r${three.REVISION} loaded ${nodeCount} nodes, ` +
              `${gltf.animations.length} animations`);

  // Nodes a clip does not animate stay at rest (glTF); a mixer leaves its last values behind.
  const rest = nodes.map((n) => [n.position.clone(), n.quaternion.clone(), n.scale.clone()]);
  gltf.animations.forEach((clip, c) => {
    const json = parser.json.animations[c];
    // Our clip's span from the file (three.js clips start at 0 and loop at their duration).
    let start = Infinity, end = -Infinity;
    for (const s of json.samplers) {
      const a = parser.json.accessors[s.input];
      start = Math.min(start, a.min[0]);
      end = Math.max(end, a.max[0]);
    }
    let clipWorst = 0;
    for (let k = 0; k < 7; ++k) {
      const t = start + (end - start) * (k + 0.5) / 7;  // inside the clip: no loop wrap
      // A fresh mixer per sample: a mixer writes a property only when its value changed since it
      // last wrote it, so nodes reset behind its back would keep the reset value.
      nodes.forEach((n, i) => {
        n.position.copy(rest[i][0]);
        n.quaternion.copy(rest[i][1]);
        n.scale.copy(rest[i][2]);
      });
      const mixer = new three.AnimationMixer(gltf.scene);
      mixer.clipAction(clip).play();
      mixer.setTime(t);
      gltf.scene.updateMatrixWorld(true);
      const out = path.join(tmp, 'pose.json');
      execFileSync(rigview, [original, '--animation-index', String(c), '--animation-time',
                             String(t), '--export-pose', out], {stdio: ['ignore', 'ignore', 'inherit']});
      const pose = JSON.parse(fs.readFileSync(out, 'utf8'));
      const joints = new Set();
      for (const s of pose.skins) for (const j of s.joints) joints.add(j);
      if (joints.size === 0) for (let i = 0; i < nodeCount; ++i) joints.add(i);
      for (const j of joints) {
        const g = pose.nodes[j].world, h = nodes[j].matrixWorld.elements;
        for (let a = 0; a < 3; ++a) {
          const n = Math.hypot(g[4 * a], g[4 * a + 1], g[4 * a + 2]);
          const s = n < 1e-12 ? 0.03 : 0.03 / n;
          let d2 = 0;
          for (let r = 0; r < 3; ++r) {
            const d = (g[4 * a + r] - h[4 * a + r]) * s + (g[12 + r] - h[12 + r]);
            d2 += d * d;
          }
          clipWorst = Math.max(clipWorst, Math.sqrt(d2));
        }
      }
    }
    console.log(`  clip ${c} (${clip.name || 'unnamed'}): max error ${(clipWorst * 100).toFixed(5)} cm`);
    worst = Math.max(worst, clipWorst);
    if (!(clipWorst <= limit)) failed = true;
  });
}

try {
  for (let i = 0; i < pairs.length; i += 2) await check(pairs[i], pairs[i + 1]);
} catch (err) {
  console.error(`three.js could not load or play the file: ${err && err.stack ? err.stack : err}`);
  failed = true;
}
fs.rmSync(tmp, {recursive: true, force: true});
console.log(`worst ${(worst * 100).toFixed(5)} cm, limit ${(limit * 100).toFixed(5)} cm`);
process.exit(failed ? 1 : 0);
