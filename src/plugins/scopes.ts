import type { FastifyInstance, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../errors.js';
import { grants, scopesAdmitting, SCOPES, type RouteScope } from '../modules/keys/scopes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scope a key needs for this route (contract, "Scopes"); `none` for routes any live key may
     * call. Every authenticated route must declare one: registering a route without it fails.
     */
    scope?: RouteScope;
  }
}

/** The OpenAPI security scheme every authenticated operation names. */
const SECURITY_SCHEME = 'bearerAuth';

const ROUTE_SCOPES: readonly string[] = [...SCOPES, 'none'];

/** The OpenAPI `security` of a route: one alternative per scope that admits it (capture: capture or write). */
function securityFor(scope: RouteScope): Array<Record<string, string[]>> {
  if (scope === 'none') return [{ [SECURITY_SCHEME]: [] }];
  return scopesAdmitting(scope).map((s) => ({ [SECURITY_SCHEME]: [s] }));
}

const insufficientScopeResponse = (scope: RouteScope) =>
  Type.Unsafe({ ...Type.Ref('InsufficientScopeError#'), description: `the key lacks the ${scope} scope (insufficient_scope)` });

type AnyRoute = RouteOptions & { config?: { public?: boolean; scope?: RouteScope } };

/**
 * The one place scopes are checked. Installed after bearer authentication and before the rate
 * limits, so a refused request changes nothing and is not counted. At registration it refuses an
 * authenticated route that declares no scope, and writes the route's scope into its OpenAPI
 * `security` and its 403 answer, so the document cannot drift from the check.
 */
export function installScopes(app: FastifyInstance): void {
  app.addHook('onRoute', (route: AnyRoute) => {
    if (route.config?.public) return;
    const scope = route.config?.scope;
    if (scope === undefined || !ROUTE_SCOPES.includes(scope)) {
      throw new Error(`route ${String(route.method)} ${route.url} declares no scope: add config: { scope: ${ROUTE_SCOPES.map((s) => `'${s}'`).join(' | ')} }`);
    }
    const schema = route.schema ?? {};
    route.schema = {
      ...schema,
      security: securityFor(scope),
      ...(scope === 'none' ? {} : { response: { ...(schema.response as Record<string, unknown> | undefined), 403: insufficientScopeResponse(scope) } }),
    };
  });

  app.addHook('onRequest', (request, _reply, done) => {
    const { config } = request.routeOptions;
    // Unknown paths reach here as the not-found route, which has no scope and answers 404 anyway.
    if (config.public || !request.authUser || config.scope === undefined || grants(request.keyScopes ?? [], config.scope)) {
      done();
      return;
    }
    const required = config.scope;
    done(
      new AppError('insufficient_scope', `this API key lacks the ${required} scope; mint a key with it (or approve it when pairing)`, {
        fields: { required_scope: required },
        headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${required}"` },
      }),
    );
  });
}
