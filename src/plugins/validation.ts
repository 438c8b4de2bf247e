import type { Ajv, Options } from 'ajv';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { createAjv } from '../lib/ajv.js';
import type { DeferredCompilers } from './deferred-compilers.js';

const shared: Options = { allErrors: true, useDefaults: true, strict: false, removeAdditional: false };

/**
 * Bodies are JSON, so their types are checked exactly ("123" is not a number, "true" not a
 * boolean). Query strings, params and headers only ever arrive as text, so they are coerced.
 */
export function installValidators(app: FastifyInstance, compilers: Pick<DeferredCompilers, 'defer'>): void {
  let ajvs: { body: Ajv; text: Ajv } | undefined;
  const ajvFor = (httpPart: string | undefined): Ajv => {
    ajvs ??= { body: createAjv({ ...shared, coerceTypes: false }), text: createAjv({ ...shared, coerceTypes: 'array' }) };
    return httpPart === 'body' ? ajvs.body : ajvs.text;
  };
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) => compilers.defer(() => ajvFor(httpPart).compile(schema as object)));
}
