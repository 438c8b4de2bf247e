import type { Readable } from 'node:stream';
import { Readable as ReadableStream } from 'node:stream';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuthUser } from '../users/auth-user.js';
import type { ExportFormat, ExportService } from './export.service.js';
import { readExportDocument } from './export-reader.js';
import type { ImportService } from './import.service.js';
import type { ImportResult } from './transfer.schemas.js';

export interface ExportDownload {
  contentType: string;
  fileName: string;
  body: Readable;
}

export interface TransferService {
  /** The user's data as a stream (contract "Export and import"); nothing is held whole in memory. */
  exportData(userId: string, format?: ExportFormat): ExportDownload;
  /** An export document (parsed JSON) or Todoist CSV text; all or nothing. */
  importData(user: Pick<AuthUser, 'id' | 'timezone'>, source: { kind: 'json'; body: unknown } | { kind: 'csv'; text: string }): Promise<ImportResult>;
}

export function createTransferService(deps: { clock: Clock; exporter: ExportService; importer: ImportService }): TransferService {
  return {
    exportData(userId, format = 'json') {
      const day = deps.clock.now().toISOString().slice(0, 10);
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
      const plan =
        source.kind === 'json'
          ? readExportDocument(source.body, user.timezone)
          : // The CSV reader (and its parser) loads with the first CSV import, not at start.
            (await import('./todoist-csv.js')).readTodoistCsv(source.text, { userId: user.id, now: deps.clock.now(), timezone: user.timezone });
      const result = await deps.importer.apply(user.id, plan);
      // What the reader left out is reported beside what the import found already there.
      const skipped = [...(plan.skipped ?? []), ...result.skipped].sort((a, b) => a.line_or_index - b.line_or_index);
      // A row skipped whole lost everything: a note on one of its fields would only confuse.
      const skippedRows = new Set(skipped.map((s) => s.line_or_index));
      return { ...result, skipped, dropped: (plan.dropped ?? []).filter((d) => !skippedRows.has(d.line_or_index)) };
    },
  };
}
