/*
 * What `npm start`, the Docker image and the systemd unit run: turns on Node's on-disk compile cache,
 * then loads the server. V8 compiling the 3.3 MB bundle and its chunks was the largest single cost of
 * a start; from the second start on, the cache hands back the compiled code (decision 0063). It has
 * to be turned on before the server's modules are loaded, which static imports would do before this
 * module's body runs: hence a module of its own and a dynamic import.
 *
 * The cache lives in dist/.cache/ (next to the code it is for; the build empties it), unless
 * NODE_COMPILE_CACHE names another directory (the systemd unit: its install directory is read-only
 * to the service), which Node has already used then. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 * Node 20 has no compile cache: there this only loads the server. A directory that cannot be
 * written leaves the cache off, and a cache entry whose file has changed is recompiled and rewritten
 * (Node compares the source's size and hash), so neither a read-only install nor an upgrade breaks a start.
 */
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const { enableCompileCache } = module as { enableCompileCache?: (directory?: string) => unknown };
enableCompileCache?.(fileURLToPath(new URL('.cache/', import.meta.url)));

await import('./server.js');
