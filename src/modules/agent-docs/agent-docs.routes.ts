import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { AppError } from '../../errors.js';

const PAGE = /^[a-z0-9-]+\.md$/;
/** Folders looked up from this file for the project's dist/llms/: src/modules/agent-docs, dist/modules/agent-docs, dist/ (the bundle), dist/chunks. */
const LEVELS = 4;

/** The built pages, read once: their names (the manifest) and texts, or null when the build has not made them. */
let built: Promise<Map<string, string> | null> | undefined;

/**
 * What scripts/build-llms.mjs wrote at build time into <project>/dist/llms/, found from this file
 * whether it runs from source (tests), from dist/ as tsc wrote it, or inside the server bundle.
 */
async function readBuilt(): Promise<Map<string, string> | null> {
  for (let up = 1; up <= LEVELS; up += 1) {
    const dir = new URL(`${'../'.repeat(up)}dist/llms/`, import.meta.url);
    try {
      const names = JSON.parse(await readFile(new URL('manifest.json', dir), 'utf8')) as string[];
      const files = ['llms.txt', 'llms-full.txt', ...names.filter((name) => PAGE.test(name))];
      return new Map(await Promise.all(files.map(async (file) => [file, await readFile(new URL(file, dir), 'utf8')] as const)));
    } catch {
      // Not in this folder: one up.
    }
  }
  return null;
}

async function send(reply: FastifyReply, file: string, type: string): Promise<string> {
  const pages = await (built ??= readBuilt());
  if (pages === null) {
    built = undefined;
    throw new AppError('service_unavailable', 'the docs for agents are made by the build (npm run build); this server has none yet');
  }
  const text = pages.get(file);
  if (text === undefined) throw new AppError('not_found', `no page ${file}; /llms.txt lists them`);
  void reply.type(`${type}; charset=utf-8`).header('cache-control', 'public, max-age=300');
  return text;
}

/**
 * `/llms.txt` (llmstxt.org: an index of the docs an agent needs), `/llms-full.txt` (all of them in
 * one document) and each page under `/llms/`, public: no key, no rate limit (clients.md, fourth wave).
 */
export const agentDocsRoutes: FastifyPluginAsync = async (app) => {
  const route = { schema: { hide: true } };
  app.get('/llms.txt', route, async (_request, reply) => send(reply, 'llms.txt', 'text/plain'));
  app.get('/llms-full.txt', route, async (_request, reply) => send(reply, 'llms-full.txt', 'text/plain'));
  app.get<{ Params: { page: string } }>('/llms/:page', route, async (request, reply) => {
    if (!PAGE.test(request.params.page)) throw new AppError('not_found', 'no such page; /llms.txt lists them');
    return send(reply, request.params.page, 'text/markdown');
  });
};
