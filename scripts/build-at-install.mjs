// `prepare`: builds the client packages (packages/*), compiles dist/, then bundles the server into
// dist/server.js (scripts/bundle.mjs), at install. A production install (`npm ci --omit=dev`) has no
// TypeScript; it then uses the dist/ that was built before (the tree was built, then copied or
// packed), and fails with a clear message when there is none.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  tsc = undefined;
}
if (tsc) {
  // The packages first: the server imports the MCP tools from packages/mcp.
  for (const step of [['scripts/build-packages.mjs'], [tsc, '-p', 'tsconfig.build.json'], ['scripts/bundle.mjs'], ['scripts/build-llms.mjs']]) {
    const run = spawnSync(process.execPath, step, { stdio: 'inherit' });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
  process.exit(0);
}
if (existsSync('dist/server.js')) {
  console.log('prepare: TypeScript is not installed (production install); using the dist/ built earlier');
  process.exit(0);
}
console.error('prepare: dist/ is missing and TypeScript is not installed: run `npm ci` (with dev dependencies) once to build, then `npm ci --omit=dev`');
process.exit(1);
