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
      if (opaqueInList.has(zodSchema)) {
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[key];
        jsonSchema.type = 'object';
      }
      if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  });
  if (json.type !== 'object') throw new Error(`a tool schema must be an object, not ${String(json.type)}`);
  const result = { ...json, type: 'object' as const } as ObjectSchema;
  listed[io].set(schema, result);
  return result;
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

  constructor(private readonly server: McpServer) {}

  add<I extends z.ZodObject>(name: string, spec: ToolSpec<I>, run: (args: z.output<I>) => Promise<CallToolResult>): void {
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

  private annotations(spec: ToolSpec<z.ZodObject>): ToolAnnotations {
    return { ...spec.hints, openWorldHint: false };
  }
}
