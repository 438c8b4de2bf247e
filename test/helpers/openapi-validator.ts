import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// ajv-formats ships CommonJS with a default export that NodeNext sees one level down.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export type JsonSchema = Record<string, unknown>;

export interface MediaType {
  schema?: JsonSchema;
}

export interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
}

export interface OperationObject {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItem = Partial<Record<HttpMethod, OperationObject>>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, PathItem>;
  components?: { schemas?: Record<string, JsonSchema>; securitySchemes?: Record<string, JsonSchema> };
  security?: Array<Record<string, string[]>>;
}

export interface FoundOperation {
  /** The templated path of the document, e.g. /api/v1/items/{id}. */
  path: string;
  method: HttpMethod;
  operation: OperationObject;
}

export interface OpenApiValidator {
  doc: OpenApiDocument;
  /** Every documented path + method, as "METHOD /path". */
  operations(): FoundOperation[];
  /** The operation a concrete request URL maps to, or undefined when the document has none. */
  findOperation(method: string, urlPath: string): FoundOperation | undefined;
  /** The statuses documented for the operation, or undefined when it is not documented. */
  documentedStatuses(method: string, urlPath: string): number[] | undefined;
  /** A readable description of what is wrong with the response, or undefined when it conforms. */
  responseProblem(method: string, urlPath: string, status: number, body: unknown, contentType?: string): string | undefined;
  /** Throws a readable error unless the response is one the document describes. */
  validateResponse(method: string, urlPath: string, status: number, body: unknown, contentType?: string): void;
}

/** Component refs move under $defs so that each compiled schema is a self-contained JSON Schema 2020-12. */
function withDefs(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const rewrite = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/$defs/')) as T;
  return { ...rewrite(schema), $defs: rewrite(components) };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => `  ${e.instancePath || '(root)'} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`)
    .join('\n');
}

function preview(body: unknown): string {
  const text = body === undefined ? 'undefined' : JSON.stringify(body);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

function createOpenApiValidator(doc: OpenApiDocument): OpenApiValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, validateFormats: true });
  addFormats(ajv);
  // OpenAPI 3.1 annotations that are not JSON Schema keywords.
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  const components = doc.components?.schemas ?? {};
  const compiled = new Map<string, ValidateFunction>();

  // A templated segment may be empty: the router hands /items//toggle to /items/{id}/toggle with id "".
  const routes = Object.entries(doc.paths).map(([path, item]) => {
    const segments = path.split('/');
    const pattern = new RegExp(`^${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]*' : escapeRegExp(s))).join('/')}$`);
    // Literal segments win over templated ones (/items/search before /items/{id}).
    const literal = segments.filter((s) => !s.startsWith('{')).length;
    return { path, item, pattern, literal };
  });

  function findOperation(method: string, urlPath: string): FoundOperation | undefined {
    const m = method.toLowerCase() as HttpMethod;
    // Resolve dot segments the way HTTP clients (and fastify.inject) do: /projects/../items is /items.
    let path = new URL(urlPath.split('?')[0] ?? '', 'http://localhost').pathname;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const candidates = routes.filter((r) => r.pattern.test(path) && r.item[m]).sort((a, b) => b.literal - a.literal);
    const hit = candidates[0];
    const operation = hit?.item[m];
    return hit && operation ? { path: hit.path, method: m, operation } : undefined;
  }

  function validatorFor(key: string, schema: JsonSchema): ValidateFunction {
    let fn = compiled.get(key);
    if (!fn) {
      fn = ajv.compile(withDefs(schema, components));
      compiled.set(key, fn);
    }
    return fn;
  }

  function responseProblem(method: string, urlPath: string, status: number, body: unknown, contentType?: string): string | undefined {
    const where = `${method.toUpperCase()} ${urlPath} → ${status}`;
    const found = findOperation(method, urlPath);
    if (!found) return `${where}: the OpenAPI document has no operation for this request`;
    const response = found.operation.responses[String(status)];
    if (!response) {
      const listed = Object.keys(found.operation.responses).join(', ');
      return `${where}: status ${status} is not documented for ${found.method.toUpperCase()} ${found.path} (documented: ${listed}); body ${preview(body)}`;
    }
    const json = response.content?.['application/json'];
    if (!response.content || Object.keys(response.content).length === 0) {
      if (body === undefined || body === null || body === '') return undefined;
      return `${where}: the document describes no body, but one was sent: ${preview(body)}`;
    }
    // A documented media type other than JSON (the Markdown export) is checked by its type only.
    const media = contentType?.split(';')[0]?.trim().toLowerCase();
    if (media !== undefined && media !== 'application/json' && response.content[media]) return undefined;
    if (!json?.schema) return `${where}: the response has no application/json schema (media types: ${Object.keys(response.content).join(', ')})`;
    if (contentType !== undefined && !contentType.toLowerCase().startsWith('application/json')) {
      return `${where}: content-type ${contentType} is not application/json`;
    }
    if (body === undefined) return `${where}: expected a JSON body, got none`;
    const validate = validatorFor(`${found.method} ${found.path} ${status}`, json.schema);
    if (validate(body)) return undefined;
    return `${where}: body does not match the documented schema of ${found.method.toUpperCase()} ${found.path} ${status}:\n${describeErrors(validate.errors)}\nbody: ${preview(body)}`;
  }

  return {
    doc,
    operations: () =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        HTTP_METHODS.flatMap((method) => {
          const operation = item[method];
          return operation ? [{ path, method, operation }] : [];
        }),
      ),
    findOperation,
    documentedStatuses(method, urlPath) {
      const found = findOperation(method, urlPath);
      return found ? Object.keys(found.operation.responses).map(Number) : undefined;
    },
    responseProblem,
    validateResponse(method, urlPath, status, body, contentType) {
      const problem = responseProblem(method, urlPath, status, body, contentType);
      if (problem) throw new Error(problem);
    },
  };
}

/** Fetches the app's own OpenAPI document (GET /api/v1/openapi.json) and builds a validator over it. */
export async function loadOpenApiValidator(app: FastifyInstance): Promise<OpenApiValidator> {
  const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  return createOpenApiValidator(JSON.parse(res.body) as OpenApiDocument);
}
