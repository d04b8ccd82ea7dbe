// The reference side of the fidelity suite: three.js r187 renders every scene of the suite in the
// reference scene (shared reference-scene.md) in one headless Chromium (WebGL2 on SwiftShader),
// driven by playwright-core against the system browser.
//
//   node threejs_render.mjs NODE_MODULES CHROMIUM SCENES.json CORPUS_DIR|- OUT_DIR
//
// SCENES.json lists the generated scenes ([{name, model, clip, time}], clip -1 = rest pose).
// CORPUS_DIR adds every skinned corpus character: its rest pose and, when it has a clip of
// non-zero length, two times inside its first such clip. Writes OUT_DIR/three/NAME.png and
// OUT_DIR/manifest.tsv, one line per scene: name, model, clip, time, camera. The camera is the
// reference scene's default camera computed here from three.js's posed vertices, so that both
// renderers see exactly the same camera (rigview gets it with --camera).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [modulesDir, chromiumPath, scenesPath, corpusDir, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: threejs_render.mjs NODE_MODULES CHROMIUM SCENES.json CORPUS_DIR|- OUT_DIR');
  process.exit(2);
}
const SIZE = 512;
const { chromium } = await import(path.join(modulesDir, 'playwright-core', 'index.mjs'));

// ---- The scene list -------------------------------------------------------------------------

// A glTF document's JSON, from a .gltf or a GLB's first chunk.
function gltfJson(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.readUInt32LE(0) === 0x46546c67) {
    const length = bytes.readUInt32LE(12);
    return JSON.parse(bytes.subarray(20, 20 + length).toString('utf8'));
  }
  return JSON.parse(bytes.toString('utf8'));
}

// The first clip whose keys span a non-zero time, as [index, first key, last key], from the
// input accessors' min/max (which the glTF specification requires).
function firstClip(doc) {
  for (const [index, clip] of (doc.animations || []).entries()) {
    let lo = Infinity, hi = -Infinity;
    for (const sampler of clip.samplers || []) {
      const accessor = doc.accessors[sampler.input];
      if (!accessor || !accessor.min || !accessor.max) continue;
      lo = Math.min(lo, accessor.min[0]);
      hi = Math.max(hi, accessor.max[0]);
    }
    if (hi > lo) return [index, lo, hi];
  }
  return null;
}

function corpusScenes(dir) {
  const scenes = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) {
      const file = path.join(d, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.(gltf|glb)$/i.test(entry.name)) {
        const doc = gltfJson(file);
        if (!doc.skins || doc.skins.length === 0) continue;
        const base = 'corpus_' + path.basename(file).replace(/\.(gltf|glb)$/i, '');
        scenes.push({ name: base + '_rest', model: file, clip: -1, time: 0 });
        const clip = firstClip(doc);
        if (!clip) continue;
        const [index, lo, hi] = clip;
        // Inside the keys, off the key grid of common 30 and 24 Hz clips.
        for (const [tag, f] of [['t1', 0.31], ['t2', 0.67]]) {
          const time = Number((lo + f * (hi - lo)).toFixed(4));
          scenes.push({ name: `${base}_clip${index}_${tag}`, model: file, clip: index, time });
        }
      }
    }
  };
  walk(dir);
  return scenes;
}

const scenes = JSON.parse(fs.readFileSync(scenesPath, 'utf8'));
if (corpusDir && corpusDir !== '-') scenes.push(...corpusScenes(corpusDir));

// ---- The page -------------------------------------------------------------------------------

const page_html = `<!doctype html><html><body style="margin:0">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js",
"three/addons/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
const S = ${SIZE};
const canvas = document.createElement('canvas');
canvas.width = S; canvas.height = S;
document.body.appendChild(canvas);
const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, alpha: true,
  premultipliedAlpha: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(S, S, false);
renderer.outputColorSpace = THREE.SRGBColorSpace;
renderer.toneMapping = THREE.NoToneMapping;
renderer.setClearColor(0x000000, 0);
const gl = renderer.getContext();
const loader = new GLTFLoader();

function posedBox(root) {
  const box = new THREE.Box3();
  const v = new THREE.Vector3();
  root.traverse((o) => {
    if (!o.isMesh) return;
    const count = o.geometry.attributes.position.count;
    for (let i = 0; i < count; ++i) {
      o.getVertexPosition(i, v);
      v.applyMatrix4(o.matrixWorld);
      box.expandByPoint(v);
    }
  });
  return box;
}

function dispose(root) {
  root.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    for (const m of [].concat(o.material || [])) {
      for (const value of Object.values(m)) if (value && value.isTexture) value.dispose();
      m.dispose();
    }
  });
}

window.renderScene = async (url, clip, time) => {
  const gltf = await loader.loadAsync(url);
  const root = gltf.scene;
  root.traverse((o) => { o.frustumCulled = false; });
  root.updateMatrixWorld(true);
  if (clip >= 0) {
    const mixer = new THREE.AnimationMixer(root);
    const action = mixer.clipAction(gltf.animations[clip]);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    mixer.update(time);
  }
  root.updateMatrixWorld(true);
  const box = posedBox(root);
  const target = box.getCenter(new THREE.Vector3());
  const r = 0.5 * box.getSize(new THREE.Vector3()).length();
  const d = 1.3 * r / Math.sin(THREE.MathUtils.degToRad(22.5));
  const camera = new THREE.PerspectiveCamera(45, 1, d / 100, d * 100);
  camera.position.set(target.x, target.y, target.z + d);
  camera.lookAt(target);
  const scene = new THREE.Scene();
  const light = new THREE.DirectionalLight(0xffffff, 3.0);
  light.position.set(2, 4, 5);
  scene.add(light, light.target, new THREE.AmbientLight(0xffffff, 0.3), root);
  renderer.render(scene, camera);
  const pixels = new Uint8Array(S * S * 4);
  gl.readPixels(0, 0, S, S, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  dispose(root);
  // Bottom-up and premultiplied: flip the rows, divide by alpha (rounded as rigview does).
  const out = new Uint8Array(S * S * 4);
  for (let y = 0; y < S; ++y) {
    const from = (S - 1 - y) * S * 4, to = y * S * 4;
    for (let i = 0; i < S * 4; i += 4) {
      const a = pixels[from + i + 3];
      for (let c = 0; c < 3; ++c) {
        const v = pixels[from + i + c];
        out[to + i + c] = a === 0 || a === 255 ? v : Math.min(255, Math.floor((v * 255 + (a >> 1)) / a));
      }
      out[to + i + 3] = a;
    }
  }
  let binary = '';
  for (let i = 0; i < out.length; i += 0x8000)
    binary += String.fromCharCode.apply(null, out.subarray(i, i + 0x8000));
  const f = (x) => String(x);
  return {
    camera: [target.x, target.y, target.z + d].map(f).join(',') + ';' +
      [target.x, target.y, target.z].map(f).join(',') + ';45;' + f(d / 100) + ';' + f(d * 100),
    rgba: btoa(binary),
  };
};
window.ready = true;
</script></body></html>`;

// ---- PNG output -----------------------------------------------------------------------------

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
function writePng(file, rgba, width, height) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);  // 8 bits, RGBA, deflate, no filter method, no interlace
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; ++y)
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  fs.writeFileSync(file, Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

// ---- Rendering ------------------------------------------------------------------------------

const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gltf': 'model/gltf+json' };
const threeDir = path.join(modulesDir, 'three');
// Exit status 3: no usable browser (the ctest driver skips, or fails under CI).
// The reference is WebGL2 on SwiftShader. RIGVIEW_THREEJS_GL=llvmpipe runs the same page on Mesa
// llvmpipe instead (ANGLE over EGL), by hand only: it shows which differences belong to the
// rasteriser rather than to either renderer (README "Fidelity").
const glArgs = process.env.RIGVIEW_THREEJS_GL === 'llvmpipe'
  ? ['--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist']
  : ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'];
let browser;
try {
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless=new', ...glArgs, '--no-sandbox'],
  });
} catch (e) {
  console.error(`threejs_render: ${chromiumPath} does not start: ${e.message.split('\n')[0]}`);
  process.exit(3);
}
let failed = 0;
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
  page.on('console', (m) => { if (m.type() === 'error') console.error('page:', m.text()); });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.route('http://rigview.test/**', async (route) => {
    const url = new URL(route.request().url());
    const p = decodeURIComponent(url.pathname);
    let file = null;
    if (p === '/index.html') return route.fulfill({ contentType: 'text/html', body: page_html });
    if (p.startsWith('/three/')) file = path.join(threeDir, p.slice('/three/'.length));
    else if (p.startsWith('/fs/')) file = p.slice('/fs'.length);
    if (!file || !fs.existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ body: fs.readFileSync(file),
      contentType: types[path.extname(file).toLowerCase()] || 'application/octet-stream' });
  });
  await page.goto('http://rigview.test/index.html');
  await page.waitForFunction(() => window.ready === true);
  const glInfo = await page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    const ext = gl && gl.getExtension('WEBGL_debug_renderer_info');
    return gl ? (ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : 'WebGL2') : null;
  });
  if (!glInfo) {
    console.error('threejs_render: no WebGL2 in this Chromium');
    await browser.close();
    process.exit(3);
  }
  console.log(`three.js r187 in ${await browser.version()} on ${glInfo}: ${scenes.length} scenes`);
  fs.mkdirSync(path.join(outDir, 'three'), { recursive: true });
  const lines = [];
  for (const s of scenes) {
    const start = Date.now();
    try {
      const url = 'http://rigview.test/fs' + encodeURI(path.resolve(s.model));
      const result = await page.evaluate(([u, c, t]) => window.renderScene(u, c, t),
        [url, s.clip, s.time]);
      writePng(path.join(outDir, 'three', s.name + '.png'), Buffer.from(result.rgba, 'base64'),
        SIZE, SIZE);
      lines.push([s.name, path.resolve(s.model), s.clip, s.time, result.camera].join('\t'));
      console.log(`  ${s.name}: ${Date.now() - start} ms`);
    } catch (e) {
      console.error(`threejs_render: ${s.name} (${s.model}): ${e.message.split('\n')[0]}`);
      ++failed;
    }
  }
  fs.writeFileSync(path.join(outDir, 'manifest.tsv'), lines.join('\n') + '\n');
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
