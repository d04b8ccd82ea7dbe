// Runs the Khronos glTF validator (the gltf-validator npm package) on each file given.
// usage: node validate_gltf.cjs <path-to-node_modules/gltf-validator> <file.glb>...
// Exits 1 unless every file has 0 errors and 0 warnings; prints every reported issue.
'use strict';
const fs = require('fs');

async function main() {
  const [modulePath, ...files] = process.argv.slice(2);
  if (!modulePath || files.length === 0) {
    console.error('usage: node validate_gltf.cjs <gltf-validator module> <file>...');
    return 1;
  }
  const validator = require(modulePath);
  console.log(`gltf-validator ${validator.version()}`);
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
