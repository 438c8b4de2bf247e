import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS with a default export that NodeNext sees one level down.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * An Ajv with the string formats (date-time, email, uuid…). Our schemas are TypeBox values checked
 * against the JSON Schema meta-schema once, by the OpenAPI document's test, so Ajv is told not to
 * check them again: that check compiles the whole meta-schema in every instance and was a tenth of
 * the server's start-up CPU (docs/performance.md).
 */
export function createAjv(options: Options = {}): Ajv {
  return addFormats(new Ajv({ validateSchema: false, ...options }));
}
