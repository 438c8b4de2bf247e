import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const SDK = join(ROOT, 'packages/sdk');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

describe('the @capture-inbox/sdk and @capture-inbox/cli packages', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cin-packages-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('the checked-in types are what openapi-typescript makes of docs/openapi.json (npm run sdk:types regenerates them)', async () => {
    const fresh = join(temp, 'openapi.ts');
    await run(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), join(ROOT, 'docs/openapi.json'), '-o', fresh], { cwd: SDK });
    const checkedIn = readFileSync(join(SDK, 'src/generated/openapi.ts'), 'utf8');
    expect(checkedIn === readFileSync(fresh, 'utf8'), 'packages/sdk/src/generated/openapi.ts is stale: run npm run sdk:types').toBe(true);
  }, 60_000);

  it('types every operation: tsc --noEmit over an example that calls each one (and whose deliberate mistakes it refuses)', async () => {
    const operationIds = Object.values(
      JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')).paths as Record<string, Record<string, { operationId: string }>>,
    ).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    const example = readFileSync(join(SDK, 'examples/every-operation.ts'), 'utf8');
    for (const id of operationIds) expect(example, `the example does not call ${id}`).toContain(`// ${id}`);
    await run(process.execPath, [TSC, '-p', join(SDK, 'examples/tsconfig.json')], { cwd: ROOT });
  }, 120_000);

  it('bundles for a browser: no Node built-in is reached from the SDK', async () => {
    const out = await build({ entryPoints: [join(SDK, 'dist/index.js')], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });
    const code = out.outputFiles[0]!.text;
    expect(code).toContain('idempotency-key');
    expect(code).not.toMatch(/from ["']node:|require\(["']node:/);
  });

  it("packs, and installs alone (npm install -g of the tarball): cin runs with none of the server's dependencies", async () => {
    const packs = join(temp, 'packs');
    mkdirSync(packs);
    await run('npm', ['pack', '-w', 'packages/cli', '-w', 'packages/sdk', '--pack-destination', packs, '--silent'], { cwd: ROOT });
    const tarballs = readdirSync(packs);
    expect(tarballs.sort()).toEqual(['capture-inbox-cli-0.1.0.tgz', 'capture-inbox-sdk-0.1.0.tgz']);

    const prefix = join(temp, 'global');
    await run('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', join(packs, 'capture-inbox-cli-0.1.0.tgz')], { cwd: temp });
    const help = await run(join(prefix, 'bin/cin'), ['--help'], { env: { PATH: process.env.PATH ?? '', HOME: temp } });
    expect(help.stdout).toMatch(/^cin: your Capture Inbox from a terminal/);
    const installed = join(prefix, 'lib/node_modules/@capture-inbox/cli');
    expect(existsSync(join(installed, 'node_modules')), 'cin has no runtime dependencies').toBe(false);
    expect(readdirSync(installed).sort()).toEqual(['LICENSE', 'README.md', 'dist', 'package.json']);

    const app = join(temp, 'app');
    mkdirSync(app);
    await run('npm', ['install', '--prefix', app, '--prefer-offline', '--no-audit', '--no-fund', join(packs, 'capture-inbox-sdk-0.1.0.tgz')], { cwd: temp });
    const modules = readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'));
    for (const server of ['better-sqlite3', 'fastify', 'kysely', 'pg']) expect(modules).not.toContain(server);
    const loaded = await run(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('@capture-inbox/sdk'); console.log(Object.keys(m).sort().join(','))"],
      { cwd: app },
    );
    expect(loaded.stdout.trim()).toBe('ApiError,MAX_BATCH_IDS,NetworkError,createClient,etagOf,outcomesOf,paginate,pair,serverRoot');
    // CommonJS: Node 20.19+ and 22.12+ load the ES module with require() through the default condition.
    const required = await run(process.execPath, ['-e', "const m = require('@capture-inbox/sdk'); console.log(typeof m.createClient)"], { cwd: app });
    expect(required.stdout.trim()).toBe('function');
  }, 180_000);
});
