import { PassThrough, Readable as ReadableStream, type Readable } from 'node:stream';
import { AppError } from '../../errors.js';
import { FileTooLarge } from '../attachments/blob-store.js';
import { fileTooLarge, STORAGE_LIMITS, type AttachmentsService } from '../attachments/attachments.service.js';
import type { Clock } from '../../lib/clock.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import type { ExportFormat, ExportService } from './export.service.js';
import { readExportDocument } from './export-reader.js';
import type { ImportPlan } from './import-plan.js';
import type { ImportService } from './import.service.js';
import type { ImportResult } from './transfer.schemas.js';
import { openZipImport, zipExport } from './zip-transfer.js';

/** Room in an import zip beyond the files the user's storage may hold: the document and the zip's own bytes. */
const ZIP_SLACK = 64 * 1024 * 1024;

type ZipAttachments = Pick<AttachmentsService, 'add' | 'listForUser' | 'pathOf' | 'stage' | 'storage' | 'maxBytes'>;

interface DocumentFile {
  item: number;
  itemId: string;
  filename: string;
  sha256: string;
  size: number;
}

/** The files an export document names, item by item (anything malformed is the document reader's to refuse). */
function documentFiles(document: unknown): DocumentFile[] {
  const items = (document as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: unknown, index) => {
    const { id, attachments } = (item ?? {}) as { id?: unknown; attachments?: unknown };
    if (typeof id !== 'string' || !Array.isArray(attachments)) return [];
    return attachments.flatMap((a: unknown) => {
      const { filename, sha256, size } = (a ?? {}) as Record<string, unknown>;
      return typeof sha256 === 'string' && /^[0-9a-f]{64}$/.test(sha256) && typeof size === 'number'
        ? [{ item: index, itemId: id.toLowerCase(), filename: typeof filename === 'string' ? filename : 'file', sha256, size }]
        : [];
    });
  });
}

export interface ExportDownload {
  contentType: string;
  fileName: string;
  body: Readable;
}

export interface TransferService {
  /** The user's data as a stream (contract "Export and import"); nothing is held whole in memory. */
  exportData(userId: string, format?: ExportFormat | 'zip'): ExportDownload;
  /** An export zip (GET /export?format=zip) on its way in: checked whole before anything is imported. */
  importZip(user: Pick<AuthUser, 'id' | 'timezone' | 'plan'>, source: Readable): Promise<ImportResult>;
  /** An export document (parsed JSON) or Todoist CSV text; all or nothing. */
  importData(user: Pick<AuthUser, 'id' | 'timezone'>, source: { kind: 'json'; body: unknown } | { kind: 'csv'; text: string }): Promise<ImportResult>;
}

export function createTransferService(deps: { clock: Clock; exporter: ExportService; importer: ImportService; attachments: ZipAttachments }): TransferService {
  const service: TransferService = {
    exportData(userId, format = 'json') {
      const day = deps.clock.now().toISOString().slice(0, 10);
      if (format === 'zip') {
        const body = new PassThrough();
        deps.attachments.listForUser(userId).then(
          (files) => zipExport(ReadableStream.from(deps.exporter.stream(userId, 'json')), files, deps.attachments.pathOf).pipe(body),
          (error: unknown) => body.destroy(error as Error),
        );
        return { contentType: 'application/zip', fileName: `capture-inbox-${day}.zip`, body };
      }
      return format === 'markdown'
        ? {
            contentType: 'text/markdown; charset=utf-8',
            fileName: `capture-inbox-${day}.md`,
            body: ReadableStream.from(deps.exporter.stream(userId, 'markdown')),
          }
        : {
            contentType: 'application/json; charset=utf-8',
            fileName: `capture-inbox-${day}.json`,
            body: ReadableStream.from(deps.exporter.stream(userId, 'json')),
          };
    },

    async importData(user, source) {
      if (source.kind === 'json' && source.body === undefined) throw new AppError('bad_request', 'the body is empty: send an export document or a Todoist CSV');
      let result: ImportResult;
      let reported: Pick<ImportPlan, 'skipped' | 'dropped'>;
      if (source.kind === 'json') {
        const plan = readExportDocument(source.body, user.timezone);
        result = await deps.importer.apply(user.id, plan);
        reported = plan;
      } else {
        // The CSV reader (and its parser) loads with the first CSV import, not at start. It streams
        // into the import's batches: skipped and dropped are complete once the import has read it all.
        const { readTodoistCsv } = await import('./todoist-csv.js');
        const read = readTodoistCsv(source.text, { userId: user.id, now: deps.clock.now(), timezone: user.timezone });
        result = await deps.importer.applySteps(user.id, read.steps);
        reported = read;
      }
      // What the reader left out is reported beside what the import found already there.
      const skipped = [...(reported.skipped ?? []), ...result.skipped].sort((a, b) => a.line_or_index - b.line_or_index);
      // A row skipped whole lost everything: a note on one of its fields would only confuse.
      const skippedRows = new Set(skipped.map((s) => s.line_or_index));
      return { ...result, skipped, dropped: (reported.dropped ?? []).filter((d) => !skippedRows.has(d.line_or_index)) };
    },

    async importZip(user, source) {
      const { attachments } = deps;
      let staged;
      try {
        staged = await attachments.stage(source, STORAGE_LIMITS[user.plan] + ZIP_SLACK);
      } catch (error) {
        if (error instanceof FileTooLarge) throw fileTooLarge(error.maxBytes);
        throw error;
      }
      try {
        const zip = await openZipImport(staged.path, (document) => documentFiles(document).map((f) => f.sha256));
        try {
          const files = documentFiles(zip.document);
          // Every limit is checked before anything is imported: all or nothing.
          const max = attachments.maxBytes(user.plan);
          const tooBig = files.find((f) => f.size > max);
          if (tooBig) throw fileTooLarge(max);
          const held = new Set((await attachments.listForUser(user.id)).map((a) => a.sha256));
          const added = new Map(files.filter((f) => !held.has(f.sha256)).map((f) => [f.sha256, f.size]));
          const { used, limit } = await attachments.storage(user);
          const more = [...added.values()].reduce((sum, size) => sum + size, 0);
          if (used + more > limit) {
            throw new AppError('storage_quota_exceeded', `the zip's files would take your storage past its limit (${limit} bytes); nothing was imported`, {
              fields: { used, limit },
            });
          }
          const result = await service.importData(user, { kind: 'json', body: zip.document });
          // Items the account held already keep their own files.
          const skipped = new Set(result.skipped.map((s) => s.line_or_index));
          for (const file of files) {
            if (skipped.has(file.item)) continue;
            await attachments.add({ user: { ...user, keyId: null }, canWrite: true }, file.itemId, {
              source: await zip.open(file.sha256),
              filename: file.filename,
            });
          }
          return result;
        } finally {
          zip.close();
        }
      } finally {
        await staged.discard();
      }
    },
  };
  return service;
}
