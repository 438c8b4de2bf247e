import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { errorResponses, ref } from '../../schemas/common.js';
import { ExportDocumentSchema, ExportQuery, IMPORT_BODY_LIMIT, ImportResultSchema } from './transfer.schemas.js';

export const transferRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'transfer'>> = async (app, { transfer }) => {
  // Only this scope reads text/csv (Todoist's export); the JSON parser of the app reads the rest.
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => {
    done(null, typeof body === 'string' ? body : body.toString('utf8'));
  });
  // An export zip is streamed to disk by the import (no body limit here: the user's storage bounds it).
  app.addContentTypeParser('application/zip', (_request, payload, done) => {
    done(null, payload);
  });

  app.get(
    '/export',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['account'],
        operationId: 'exportData',
        summary: "Download the user's whole data",
        description:
          'Streams every project, tag and item (archived included; subtasks by parent_id). `format=json` (default) is the export document ' +
          'POST /import reads back; `format=markdown` is one GFM document: a heading per project, task lines for todos, notes as paragraphs; ' +
          '`format=zip` is a zip of `export.json` (the document) and every attachment at `files/<sha256>`, each content once. ' +
          'Counts as one request against the limits, whatever its size.',
        querystring: ExportQuery,
        response: {
          // A stream is sent as it is (no serializer); the schema documents its two shapes.
          200: Type.Unsafe<Readable>({
            description: 'the export, streamed, with Content-Disposition: attachment',
            content: {
              'application/json': { schema: ref(ExportDocumentSchema) },
              'text/markdown': { schema: Type.String() },
              'application/zip': { schema: Type.String({ format: 'binary' }) },
            },
          }),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const download = transfer.exportData(authUser(request).id, request.query.format);
      return reply.type(download.contentType).header('content-disposition', `attachment; filename="${download.fileName}"`).send(download.body);
    },
  );

  app.post(
    '/import',
    {
      config: { scope: 'write', idempotent: true },
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags: ['account'],
        operationId: 'importData',
        summary: 'Import an export document or a Todoist CSV',
        description:
          "application/json: an export document (GET /export). text/csv: Todoist's CSV export (INDENT makes subtasks, `@label` words become tags, " +
          'sections become projects, DATE is read like the organizer reads dates). All or nothing: a malformed document is 400 and imports nothing. ' +
          'Items keep their ids and timestamps; an id the account already holds is skipped (`exists`), so a second import creates no duplicates. ' +
          'Emits item.created per created item. Body up to 20 MiB; counts as one request. ' +
          "application/zip: a zip made by GET /export?format=zip, whose files become the items' attachments; an entry with an absolute or `..` name, " +
          'an entry inflating past 25 MiB, or a file that is not what the document names is 400 and imports nothing; files past the plan limits are 413.',
        body: { content: { 'application/json': { schema: ExportDocumentSchema }, 'text/csv': { schema: Type.String() } } },
        response: { 200: ref(ImportResultSchema, 'what was imported and what was skipped'), ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => {
      const body: unknown = request.body;
      if (body instanceof Readable) return transfer.importZip(authUser(request), body);
      return transfer.importData(authUser(request), typeof body === 'string' ? { kind: 'csv', text: body } : { kind: 'json', body });
    },
  );
};
