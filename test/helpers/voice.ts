import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { JsonBody, Response } from './test-app.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

/** Real read speech with reference transcripts, shipped in the repository (its README says whence and under what licence). */
export const LIBRIVOX_DIR = join(import.meta.dirname, '..', 'fixtures', 'librivox');

export interface Clip {
  id: string;
  path: string;
  reference: string;
}

/** The clips of the package, each with the words of its reference transcript. */
export function librivoxClips(): Clip[] {
  const lines = readFileSync(join(LIBRIVOX_DIR, 'transcription'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return lines.map((line) => {
    const match = /^<s> (.*) <\/s> \((.*)\)$/.exec(line.trim());
    if (!match?.[1] || !match[2]) throw new Error(`unexpected transcription line: ${line}`);
    return { id: match[2], path: join(LIBRIVOX_DIR, `${match[2]}.wav`), reference: match[1] };
  });
}

/** ffmpeg encoder arguments per container; stereo at 44.1/48 kHz, so the service's own resampling is exercised. */
export const CONTAINERS = {
  wav: ['-ar', '44100', '-c:a', 'pcm_s16le'],
  mp3: ['-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '64k'],
  ogg: ['-ar', '44100', '-c:a', 'libvorbis'],
  opus: ['-ar', '48000', '-c:a', 'libopus', '-b:a', '32k'],
  webm: ['-ar', '48000', '-c:a', 'libopus', '-b:a', '32k'],
  m4a: ['-ar', '44100', '-c:a', 'aac', '-b:a', '64k'],
  aac: ['-ar', '44100', '-c:a', 'aac', '-b:a', '64k'],
  flac: ['-ar', '44100', '-c:a', 'flac'],
} as const;
export type Container = keyof typeof CONTAINERS;

/** Converts an audio file into `dir` (a test's temp directory; audio is never committed). */
export async function convert(source: string, container: Container, dir: string, name = 'clip'): Promise<string> {
  const target = join(dir, `${name}.${container}`);
  await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', source, '-ac', '2', ...CONTAINERS[container], target], { timeout: 60_000 });
  return target;
}

/**
 * Waits for real I/O elsewhere (another socket, the server's temp files): polls every 10 ms, at
 * most 10 s, and answers whether the condition came true (the caller asserts on it).
 */
export async function until(condition: () => boolean): Promise<boolean> {
  return waitFor(condition, { timeoutMs: 10_000, intervalMs: 10 }).then(
    () => true,
    () => condition(),
  );
}

export function makeTempDir(prefix: string): { dir: string; entries(): string[]; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { dir, entries: () => readdirSync(dir), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export type FormPart = { name: string; value: string } | { name: string; file: Buffer | Uint8Array; filename: string; type?: string };

/** A multipart/form-data body as fetch would send it, as bytes plus its content type. */
export async function encodeForm(parts: FormPart[]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const part of parts) {
    if ('value' in part) form.append(part.name, part.value);
    else form.append(part.name, new Blob([part.file], { type: part.type ?? 'application/octet-stream' }), part.filename);
  }
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

/** POST /api/v1/voice/transcribe through fastify.inject. */
export async function transcribe(app: FastifyInstance, token: string | undefined, parts: FormPart[]): Promise<Response<JsonBody>> {
  const { body, contentType } = await encodeForm(parts);
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/voice/transcribe',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': contentType },
    payload: body,
  });
  const json = String(res.headers['content-type'] ?? '').includes('json') && res.body ? JSON.parse(res.body) : undefined;
  return { status: res.statusCode, body: json, headers: res.headers, text: res.body };
}

export const audioFile = (path: string, filename = path.split('/').pop() ?? 'audio'): FormPart => ({ name: 'file', file: readFileSync(path), filename });

/** Lowercase words without punctuation, so that only recognition errors count. */
export const words = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(' ')
    .filter(Boolean);

/** Word-level Levenshtein distance: substitutions + deletions + insertions. */
export function wordErrors(reference: string[], hypothesis: string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= hypothesis.length; j += 1) {
      const substitution = previous[j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[hypothesis.length]!;
}
