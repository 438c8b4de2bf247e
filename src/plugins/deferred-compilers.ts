import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles the route schemas not used yet (see deferred-compilers.ts); a test calls it so none fails at its first use. */
    compileSchemas(): Promise<void>;
  }
}

/**
 * Route validators and serializers compiled at their first use instead of at start-up. Compiling
 * every route's schemas with ajv and fast-json-stringify was 40% of the time to ready, and holding
 * them all costs about 24 MB of memory (measured on the bench database: RSS 113 MB at ready, 137 MB
 * two seconds later once the server had compiled the rest after listen, as it used to). A route's
 * first request pays its compile (a few milliseconds); routes a deployment never calls cost
 * nothing. compileAll is for the test that proves every schema compiles.
 */
export interface DeferredCompilers {
  /** For Fastify's `schemaController` option: serializers that compile when first called. */
  schemaController: NonNullable<FastifyServerOptions['schemaController']>;
  /** Wraps a validator compilation so that it runs at the validator's first call. */
  defer<F extends (...args: never[]) => unknown>(compile: () => F): F;
  /** Compiles everything still pending, yielding to the event loop between each. */
  compileAll(): Promise<void>;
}

/** Fastify's shared schemas (`addSchema`), by `$id`. */
type SharedSchemas = Record<string, unknown>;

/** The shared schemas that `schema` refers to (`{ $ref: 'Item#' }`), directly or through each other. */
export function reachable(schema: unknown, shared: SharedSchemas): SharedSchemas {
  const found: SharedSchemas = {};
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const hash = value.indexOf('#');
        const id = hash === -1 ? value : value.slice(0, hash);
        if (id !== '' && !Object.hasOwn(found, id) && Object.hasOwn(shared, id)) {
          found[id] = shared[id];
          walk(shared[id]);
        }
      } else walk(value);
    }
  };
  walk(schema);
  return found;
}

/** What Fastify reads of a validator besides calling it. */
type ValidatorShape = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

export function createDeferredCompilers(): DeferredCompilers {
  const pending = new Set<() => void>();

  function lazy<T>(compile: () => T): () => T {
    let compiled: T | undefined;
    const get = (): T => {
      if (compiled === undefined) {
        compiled = compile();
        pending.delete(get);
      }
      return compiled;
    };
    pending.add(get);
    return get;
  }

  const serializers = SerializerSelector();
  return {
    schemaController: {
      compilersFactory: {
        buildSerializer: (externalSchemas: unknown, options?: unknown) => {
          const shared = (externalSchemas ?? {}) as SharedSchemas;
          return (route: Parameters<ReturnType<typeof serializers>>[0]) => {
            // Only the shared schemas this response reaches: fast-json-stringify checks each one it
            // is given against its meta-schema, and all of them cost 15-20 ms a route (the first
            // answer of /readyz among them, so start-up).
            const serializer = lazy(() => serializers(reachable(route.schema, shared), options as Parameters<typeof serializers>[1])(route));
            return (data: unknown) => serializer()(data);
          };
        },
      },
    },
    defer<F extends (...args: never[]) => unknown>(compile: () => F): F {
      const validator = lazy(() => compile() as unknown as ValidatorShape);
      // Fastify hands an ajv validator its parent object (schemaEnv present) so defaults can be set on it.
      const deferred: ValidatorShape = (data, context) => {
        const real = validator();
        const valid = real(data, context);
        deferred.errors = real.errors;
        return valid;
      };
      deferred.schemaEnv = true;
      return deferred as unknown as F;
    },
    async compileAll() {
      for (const get of [...pending]) {
        get();
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
