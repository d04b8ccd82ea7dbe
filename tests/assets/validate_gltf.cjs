// Runs the Khronos glTF validator (the gltf-validator npm package) on each file given.
// usage: node validate_gltf.cjs <path-to-node_modules/gltf-validator> <file.glb>...
// Exits 1 unless every file has 0 errors and 0 warnings; prints every reported issue.
//    or: node validate_gltf.cjs <module> --no-new-errors <original> <copy> [<original> <copy>]...
// Exits 1 when a copy has an error its original does not have (same code at the same JSON
// pointer): for copies of files by others, whose own errors (unnormalized weights) a copy keeps.
//    or: node validate_gltf.cjs <module> --same-codes <original> <copy> [<original> <copy>]...
// Exits 1 unless each copy has exactly its original's error and warning codes, each as many
// times: for unedited copies (rigview --write-copy).
//    or: node validate_gltf.cjs <module> --expect-codes <CODE,CODE...> <file>...
// Exits 1 unless each file's error and warning codes are exactly the listed ones (each at least
// once, no other): for a deliberately invalid asset (assets/raw_weights_example.glb).
'use strict';
const fs = require('fs');
const path = require('path');

// Reads a .gltf's external buffers and images from beside it.
function resourcesBeside(file) {
  return (uri) => fs.promises.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)))
                      .then((data) => new Uint8Array(data));
}

async function validate(validator, file) {
  return validator.validateBytes(new Uint8Array(fs.readFileSync(file)),
                                 {maxIssues: 0, uri: path.basename(file),
                                  externalResourceFunction: resourcesBeside(file)});
}

async function noNewErrors(validator, pairs) {
  if (pairs.length === 0 || pairs.length % 2 !== 0) {
    console.error('--no-new-errors needs <original> <copy> pairs');
    return 1;
  }
  let failed = false;
  for (let i = 0; i < pairs.length; i += 2) {
    const [original, copy] = [pairs[i], pairs[i + 1]];
    const key = (m) => `${m.code} ${m.pointer || ''}`;
    const errors = (report) => report.issues.messages.filter((m) => m.severity === 0);
    const known = new Set(errors(await validate(validator, original)).map(key));
    const added = errors(await validate(validator, copy)).filter((m) => !known.has(key(m)));
    console.log(`${copy}: ${added.length} errors beyond ${path.basename(original)}'s`);
    for (const m of added) console.log(`  error ${m.code} ${m.pointer || ''}: ${m.message}`);
    if (added.length !== 0) failed = true;
  }
  return failed ? 1 : 0;
}

// code -> count of the errors and warnings of one report.
function errorAndWarningCodes(report) {
  const counts = new Map();
  for (const m of report.issues.messages)
    if (m.severity === 0 || m.severity === 1) counts.set(m.code, (counts.get(m.code) || 0) + 1);
  return counts;
}

async function sameCodes(validator, pairs) {
  if (pairs.length === 0 || pairs.length % 2 !== 0) {
    console.error('--same-codes needs <original> <copy> pairs');
    return 1;
  }
  let failed = false;
  for (let i = 0; i < pairs.length; i += 2) {
    const [original, copy] = [pairs[i], pairs[i + 1]];
    const want = errorAndWarningCodes(await validate(validator, original));
    const got = errorAndWarningCodes(await validate(validator, copy));
    const codes = [...new Set([...want.keys(), ...got.keys()])].sort();
    const differ = codes.filter((c) => (want.get(c) || 0) !== (got.get(c) || 0));
    const listed = codes.map((c) => `${c}×${got.get(c) || 0}`).join(', ') || 'none';
    console.log(`${copy}: ${differ.length ? 'DIFFERENT' : 'same'} error and warning codes as ` +
                `${path.basename(original)} (${listed})`);
    for (const c of differ)
      console.log(`  ${c}: ${want.get(c) || 0} in the original, ${got.get(c) || 0} in the copy`);
    if (differ.length) failed = true;
  }
  return failed ? 1 : 0;
}

async function expectCodes(validator, args) {
  const [list, ...files] = args;
  if (!list || files.length === 0) {
    console.error('--expect-codes needs <CODE,...> <file>...');
    return 1;
  }
  const want = new Set(list.split(','));
  let failed = false;
  for (const file of files) {
    const got = errorAndWarningCodes(await validate(validator, file));
    const listed = [...got.keys()].sort().map((c) => `${c}×${got.get(c)}`).join(', ') || 'none';
    const same = got.size === want.size && [...want].every((c) => got.has(c));
    console.log(`${file}: ${same ? 'exactly' : 'NOT exactly'} ${[...want].join(', ')} (${listed})`);
    if (!same) failed = true;
  }
  return failed ? 1 : 0;
}

async function main() {
  const [modulePath, ...files] = process.argv.slice(2);
  if (!modulePath || files.length === 0) {
    console.error('usage: node validate_gltf.cjs <gltf-validator module> <file>...');
    return 1;
  }
  const validator = require(modulePath);
  console.log(`gltf-validator ${validator.version()}`);
  if (files[0] === '--no-new-errors') return noNewErrors(validator, files.slice(1));
  if (files[0] === '--same-codes') return sameCodes(validator, files.slice(1));
  if (files[0] === '--expect-codes') return expectCodes(validator, files.slice(1));
  let failed = false;
  for (const file of files) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)),
                                                 {maxIssues: 0});
    const {numErrors, numWarnings, numInfos, numHints} = report.issues;
    console.log(`${file}: ${numErrors} errors, ${numWarnings} warnings, ` +
                `${numInfos} infos, ${numHints} hints`);
    for (const m of report.issues.messages) {
      const severity = ['error', 'warning', 'info', 'hint'][m.severity] || m.severity;
      console.log(`  ${severity} ${m.code} ${m.pointer || ''}: ${m.message}`);
    }
    if (numErrors !== 0 || numWarnings !== 0) failed = true;
  }
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code), (err) => {
  console.error(`validator failed: ${err && err.stack ? err.stack : err}`);
  process.exit(1);
});
