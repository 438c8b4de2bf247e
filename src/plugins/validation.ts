import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

// ajv-formats ships CommonJS with a default export that NodeNext sees one level down.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const shared: Options = { allErrors: true, useDefaults: true, strict: false, removeAdditional: false };

/**
 * Bodies are JSON, so their types are checked exactly ("123" is not a number, "true" not a
 * boolean). Query strings, params and headers only ever arrive as text, so they are coerced.
 */
export function installValidators(app: FastifyInstance): void {
  const bodyAjv = addFormats(new Ajv({ ...shared, coerceTypes: false }));
  const textAjv = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }));
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object),
  );
}
