import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type CallToolResult, type Tool, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** A read says only that; destructiveHint and idempotentHint mean something only when readOnlyHint is false (MCP spec). */
type Hints = { readOnlyHint: true } | { readOnlyHint: false; destructiveHint: boolean; idempotentHint: boolean };

export interface ToolSpec<I extends z.ZodObject> {
  description: string;
  input: I;
  /** What structuredContent holds; the call's answer is read through it and the SDK checks it. */
  output: z.ZodObject;
  hints: Hints;
}

type ObjectSchema = Tool['inputSchema'];

/**
 * Schemas listed as a bare `{ "type": "object" }` in tools/list: the item, which every item tool
 * answers, would otherwise be spelled out in full once per tool (a kilobyte each). The server
 * instructions and get_item's description name its fields once; the answers still go through the
 * full schema.
 */
const opaqueInList = new WeakSet<object>();

export function listedAsObject<T extends z.ZodType>(schema: T): T {
  opaqueInList.add(schema);
  return schema;
}

/**
 * Fields listed as `{}` (any value): a tool that takes another tool's fields (update_items takes
 * update_item's) says so in its description instead of spelling each schema out a second time. The
 * call is still validated against the full schema.
 */
const anyInList = new WeakSet<object>();

export function listedAsAny<T extends z.ZodType>(schema: T): T {
  const copy = schema.clone();
  anyInList.add(copy);
  return copy;
}

const listed = { input: new WeakMap<z.ZodType, ObjectSchema>(), output: new WeakMap<z.ZodType, ObjectSchema>() };

/**
 * A tool's schema as tools/list shows it: JSON Schema 2020-12 (the MCP default dialect, so no
 * `$schema` is needed), opaque objects collapsed, and no `additionalProperties: false` on answers
 * (a field the API adds later is dropped by the answer's schema anyway). Computed once per schema.
 */
function listedSchema(schema: z.ZodObject, io: 'input' | 'output'): ObjectSchema {
  const known = listed[io].get(schema);
  if (known) return known;
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    override: ({ zodSchema, jsonSchema }) => {
      if (anyInList.has(zodSchema)) {
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[key];
      }
      if (opaqueInList.has(zodSchema)) {
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[key];
        jsonSchema.type = 'object';
      }
      if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
      // "not empty" is checked when called; a model never means to send an empty id or text, so the list does not say it.
      if (jsonSchema.minLength === 1) delete jsonSchema.minLength;
    },
  });
  if (json.type !== 'object') throw new Error(`a tool schema must be an object, not ${String(json.type)}`);
  const merged = dropStringTypeOfEnums(mergeNullables(json)) as Json;
  const result = (io === 'output' ? answerFields(merged) : { ...merged, type: 'object' }) as ObjectSchema;
  listed[io].set(schema, result);
  return result;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `{ anyOf: [{ type: 'string', format }, { type: 'null' }] }` as `{ type: ['string', 'null'], format }`:
 * the same JSON Schema (format, properties and the like apply only to values of their own type),
 * in half the bytes. Zod writes every nullable field the long way.
 */
function mergeNullables(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mergeNullables);
  if (!isObject(node)) return node;
  const out: Json = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, mergeNullables(value)]));
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullAt = anyOf.findIndex((branch) => isObject(branch) && branch.type === 'null' && Object.keys(branch).length === 1);
    const other: unknown = anyOf[1 - nullAt];
    if (nullAt >= 0 && isObject(other) && typeof other.type === 'string' && !('anyOf' in other)) {
      const { anyOf: _branches, ...rest } = out;
      return { ...other, ...rest, type: [other.type, 'null'] };
    }
  }
  return out;
}

/** `{ type: 'string', enum: [...] }` as `{ enum: [...] }`: every value of the enum is a string already, so it is the same schema. */
function dropStringTypeOfEnums(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropStringTypeOfEnums);
  if (!isObject(node)) return node;
  const out: Json = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, dropStringTypeOfEnums(value)]));
  if (out.type === 'string' && Array.isArray(out.enum) && out.enum.every((v) => typeof v === 'string')) delete out.type;
  return out;
}

/**
 * An answer's schema as listed: an object and the names of the fields it always has. What is in
 * an item or a project is said once in the server's instructions and get_item, not in every tool
 * that answers one; the answer itself is still read through the full schema (results.ts), so it
 * never holds more than the tool's own schema says.
 */
function answerFields(schema: Json): Json {
  const required = Array.isArray(schema.required) ? schema.required : [];
  return required.length === 0 ? { type: 'object' } : { type: 'object', required };
}

/**
 * The tools of one server, registered with the SDK (which validates arguments and answers) and
 * listed by this catalog: the SDK's own tools/list repeats `$schema` in every schema, adds an
 * `execution` block that says what the protocol's default already says, and spells each nested
 * schema out, which made the list 30 KB for 14 tools. An agent reads the list on every session, so
 * it is kept small (under 10 KB, checked by a test). See decision 0055.
 */
export class ToolCatalog {
  private readonly specs: Array<ToolSpec<z.ZodObject> & { name: string }> = [];

  /** With readOnly, only the tools whose hints say readOnlyHint are served; any other name is a tool error ("not found"). */
  constructor(
    private readonly server: McpServer,
    private readonly readOnly = false,
  ) {}

  add<I extends z.ZodObject>(name: string, spec: ToolSpec<I>, run: (args: z.output<I>) => Promise<CallToolResult>): void {
    if (this.readOnly && !spec.hints.readOnlyHint) return;
    this.specs.push({ name, ...spec });
    // The SDK types the callback by a conditional over I, which a generic I cannot resolve; it calls it with the parsed z.output<I>.
    const callback = ((args: z.output<I>) => run(args)) as unknown as ToolCallback<I>;
    this.server.registerTool(
      name,
      { description: spec.description, inputSchema: spec.input, outputSchema: spec.output, annotations: this.annotations(spec) },
      callback,
    );
  }

  /** The tools as tools/list answers them. */
  list(): Tool[] {
    return this.specs.map((spec) => ({
      name: spec.name,
      description: spec.description,
      inputSchema: listedSchema(spec.input, 'input'),
      outputSchema: listedSchema(spec.output, 'output'),
      annotations: this.annotations(spec),
    }));
  }

  /** Replaces the SDK's tools/list with this catalog's. Call after every tool is added (the SDK installs its own on the first). */
  install(): void {
    this.server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.list() }));
  }

  /** idempotentHint false is the protocol's default, so it is left out (bytes, decision 0078). */
  private annotations(spec: ToolSpec<z.ZodObject>): ToolAnnotations {
    const { idempotentHint, ...hints } = spec.hints as ToolAnnotations;
    return { ...hints, ...(idempotentHint ? { idempotentHint } : {}), openWorldHint: false };
  }
}
