// One self-contained file, dist/cin.js: the CLI with the SDK and openapi-fetch inside, so the packed
// package installs with no dependencies at all (and before the SDK is on any registry).
import { build } from 'esbuild';
import { join } from 'node:path';

const here = join(import.meta.dirname, '..');
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  outfile: join(here, 'dist', 'cin.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
  sourcemap: 'linked',
  logLevel: 'warning',
});
