import { join } from 'node:path';
import { buildSync } from 'esbuild';

/** The browser code as served: the page script and the service worker, each one self-contained script. */
export interface BuiltClient {
  app: string;
  serviceWorker: string;
}

/*
 * Bundles the browser code under `clientDir` (src/web/client) with esbuild, in memory: each entry
 * and what it imports becomes one classic script (an IIFE: a service worker registered as a classic
 * script, and a page script loaded with a plain <script src>). Not minified, so what the browser
 * runs reads like the source; esbuild drops the comments and writes non-ASCII characters as escapes.
 * esbuild only strips the types: `npm run typecheck` checks them (decision 0068).
 */
export function buildClient(clientDir: string): BuiltClient {
  const result = buildSync({
    entryPoints: { app: join(clientDir, 'main.ts'), sw: join(clientDir, 'sw', 'main.ts') },
    outdir: 'client-out',
    bundle: true,
    format: 'iife',
    platform: 'browser',
    // What the page script asked of browsers before (Promise.prototype.finally, fetch, IndexedDB).
    target: 'es2018',
    charset: 'ascii',
    legalComments: 'none',
    logLevel: 'silent',
    write: false,
  });
  const text = (name: string): string => {
    const file = result.outputFiles.find((output) => output.path.endsWith(`${name}.js`));
    if (!file) throw new Error(`esbuild wrote no ${name}.js`);
    return file.text;
  };
  return { app: text('app'), serviceWorker: text('sw') };
}
