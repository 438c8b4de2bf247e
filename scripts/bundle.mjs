// Bundles the server (src/server.ts and everything it imports, dependencies included) into
// dist/server.js, over the file tsc wrote there; code loaded with import() goes to dist/chunks/.
// One file instead of ~1,000 modules halves the CPU a start costs (docs/decisions/0030-server-bundle.md).
// Runs after tsc (type checking and the rest of dist/, which the admin CLI and tests import).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';
// tsc has just compiled it (this script runs after tsc): the one definition of how the browser code is built.
import { buildClient } from '../dist/web/client-build.js';

// Native addons; packages that find files next to their own code at run time; and CommonJS packages
// the server loads with import() only when needed. Every import of one gets its `default` export
// only (module.exports; see requireExternals), so the code takes named exports from `default`.
const EXTERNAL = [
  'better-sqlite3',
  'better-sqlite3-napi',
  '@node-rs/argon2',
  'pg-native',
  'pino',
  'pino-pretty',
  '@fastify/swagger-ui',
  'undici',
  'ioredis',
  'pg',
];

/*
 * The external packages are all CommonJS, and are loaded with require(), not import. Node's ES
 * module loader runs a lexer over a CommonJS file imported from ES code (and over every file it
 * re-exports) to find its named exports; the lexer's one large function was hot enough at start for
 * V8 to optimize it twice on a compiler thread, whose working memory stayed in that thread's malloc
 * arena: 6-12 MB of resident memory at ready for nothing (docs/decisions/0030-server-bundle.md). Each
 * import of an external becomes a one-line CommonJS module, `module.exports = require('<name>')`,
 * which esbuild wraps as it wraps any CommonJS dependency of the bundle.
 */
const requireExternals = {
  name: 'require-externals',
  setup(build) {
    const filter = new RegExp(`^(${EXTERNAL.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) =>
      args.kind === 'require-call' ? { path: args.path, external: true } : { path: args.path, namespace: 'required-external' },
    );
    build.onLoad({ filter: /.*/, namespace: 'required-external' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/*
 * The browser code (src/web/client), bundled once here. src/web/client-bundle.ts builds it at import
 * when run from source; in the server bundle, and in the dist/web/client-bundle.js tsc wrote for the
 * other entry points, that module is replaced by its result, so no build runs in production (where
 * esbuild, a dev dependency, is not installed) and the server starts no slower (decision 0068).
 */
const clientModule = `export const CLIENT = ${JSON.stringify(buildClient('src/web/client'))};\n`;
const builtClient = {
  name: 'built-client',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]web[\\/]client-bundle\.ts$/ }, () => ({ contents: clientModule, loader: 'js' }));
  },
};
writeFileSync('dist/web/client-bundle.js', clientModule);
rmSync('dist/web/client-bundle.js.map', { force: true });

// CommonJS dependencies inside an ES module bundle still expect require, __dirname and __filename.
const banner = [
  "import { createRequire as __bundleRequire } from 'node:module';",
  "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
  "import { dirname as __bundleDirname } from 'node:path';",
  'const require = __bundleRequire(import.meta.url);',
  'const __filename = __bundleFileURLToPath(import.meta.url);',
  'const __dirname = __bundleDirname(__filename);',
].join('\n');

// Chunk names carry a content hash: last build's would pile up, and so would their entries in the
// compile cache dist/start.js keeps (decision 0063), which starts afresh with each build.
rmSync('dist/chunks', { recursive: true, force: true });
rmSync('dist/.cache', { recursive: true, force: true });

const result = await build({
  entryPoints: { server: 'src/server.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  plugins: [requireExternals, builtClient],
  banner: { js: banner },
  // Not minified: stack traces keep their names and lines.
  logLevel: 'warning',
  write: false,
});

/*
 * V8 keeps a script's source for its lifetime, as one byte per character when every character is
 * Latin-1 and two otherwise. esbuild escapes non-ASCII characters in code but leaves them in tagged
 * templates (the web views' html`…` with their "…" and quotes) and in comments it keeps, and one such
 * character made the 3 MB bundle a 6 MB string in the heap. Each is written as a \u escape: the same
 * string in a string, cooked template or regular expression literal, and harmless in a comment. (A
 * template's `.raw` would differ; no bundled code reads it for these characters: asciiOnly.test.ts.)
 */
const escapeNonAscii = (text) => text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.path.endsWith('.js') ? escapeNonAscii(file.text) : file.contents);
}
// tsc wrote a map for its own dist/server.js, which the bundle has replaced.
rmSync('dist/server.js.map', { force: true });
