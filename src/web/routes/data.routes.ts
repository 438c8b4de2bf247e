import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { ImportResult } from '../../modules/transfer/transfer.schemas.js';
import { IMPORT_BODY_LIMIT } from '../../modules/transfer/transfer.schemas.js';
import { webContext } from '../session.js';
import { installUploadParser, type UploadBody } from '../upload-form.js';
import { field } from './forms.js';

const ExportQuery = Type.Object({ format: field(20) });

/** Renders the settings page with a result or an error of the import (the settings routes own that page). */
export type SettingsRenderer = (
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  extra: { notice?: string; error?: string },
) => Promise<FastifyReply>;

const summary = (r: ImportResult): string => {
  const skipped = r.skipped.length > 0 ? ` ${r.skipped.length} skipped (already in your inbox).` : '';
  return `Imported ${r.imported.items} items, ${r.imported.projects} new projects and ${r.imported.tags} new tags.${skipped}`;
};

/** Our export starts with `{`; anything else is read as Todoist's CSV. */
function sourceOf(file: Buffer): { kind: 'json'; body: unknown } | { kind: 'csv'; text: string } {
  const text = file.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\u0000')) throw new AppError('bad_request', 'the file contains NUL characters; it is neither an export nor a CSV');
  if (!text.trimStart().startsWith('{')) return { kind: 'csv', text };
  try {
    return { kind: 'json', body: JSON.parse(text) as unknown };
  } catch {
    throw new AppError('bad_request', 'the file starts like JSON but does not parse');
  }
}

/** Imports an uploaded file for the user: the page's message and status either way. */
export async function importUpload(
  transfer: Services['transfer'],
  user: SessionUser,
  body: UploadBody | undefined,
): Promise<{ status: number; notice?: string; error?: string }> {
  if (!Buffer.isBuffer(body?.file) || body.file.length === 0)
    return { status: 400, error: 'Choose a file to import: an export of Capture Inbox (.json) or a Todoist CSV.' };
  try {
    const result = await transfer.importData(user, sourceOf(body.file));
    return { status: 200, notice: summary(result) };
  } catch (error) {
    if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
    return { status: error.statusCode, error: `Nothing was imported: ${error.message}` };
  }
}

/**
 * The "Your data" links of the settings page: the same export and import as GET /api/v1/export and
 * POST /api/v1/import, for the signed-in browser.
 */
export const dataRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'transfer'> & { render: SettingsRenderer }> = async (app, { transfer, render }) => {
  installUploadParser(app, IMPORT_BODY_LIMIT);

  app.get('/settings/export', { schema: { querystring: ExportQuery } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return reply.redirect(`/login?next=${encodeURIComponent('/settings/keys')}`, 303);
    const download = transfer.exportData(user.id, request.query.format === 'markdown' ? 'markdown' : 'json');
    return reply.type(download.contentType).header('content-disposition', `attachment; filename="${download.fileName}"`).send(download.body);
  });

  app.post('/settings/import', async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return reply.redirect(`/login?next=${encodeURIComponent('/settings/keys')}`, 303);
    const outcome = await importUpload(transfer, user, request.body as UploadBody | undefined);
    return render(request, reply, outcome.status, outcome);
  });
};
