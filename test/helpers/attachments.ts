import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { JsonBody, Response, TestApp } from './test-app.js';
import { encodeForm, type FormPart } from './voice.js';

/** The smallest PNG signature and header file-type reads as image/png. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

/** POST /api/v1/items/{id}/attachments through fastify.inject, with the file in the part `file`. */
export async function uploadFile(
  app: FastifyInstance,
  token: string,
  itemId: string,
  file: Buffer,
  filename: string,
  parts: FormPart[] = [],
): Promise<Response<JsonBody>> {
  const { body, contentType } = await encodeForm([...parts, { name: 'file', file, filename }]);
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/items/${itemId}/attachments`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: body,
  });
  const json = String(res.headers['content-type'] ?? '').includes('json') && res.body ? JSON.parse(res.body) : undefined;
  return { status: res.statusCode, body: json, headers: res.headers, text: res.body };
}

/** Where the app keeps a content's bytes (decision 0084), and whether they are there. */
const storedPath = (t: TestApp, sha256: string): string => join(t.services.attachments.filesDir, sha256.slice(0, 2), sha256);
export const isStored = (t: TestApp, sha256: string): boolean => existsSync(storedPath(t, sha256));
/** Files left in the store's temporary folder (an upload that failed must leave none). */
export const tempFiles = (t: TestApp): string[] => {
  const dir = join(t.services.attachments.filesDir, 'tmp');
  return existsSync(dir) ? readdirSync(dir) : [];
};
