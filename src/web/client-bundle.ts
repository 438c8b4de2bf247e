import { fileURLToPath } from 'node:url';
import { buildClient, type BuiltClient } from './client-build.js';

/*
 * The browser code, bundled. Run from source (the tests) it is built here, at first import, from
 * src/web/client, so a change there is what the next test serves. scripts/bundle.mjs replaces this
 * module in the build with the code it bundled, so the server never runs esbuild (decision 0068).
 */
export const CLIENT: BuiltClient = buildClient(fileURLToPath(new URL('./client/', import.meta.url)));
