import { fillPath, type HttpMethod } from '../contract/operation.js';
import type { RegisteredIntegration, RegisteredOperation } from '../contract/registry.js';
import { GatewayError } from '../errors.js';

/** A REST call as a client sends it, relative to `/api/v1/<service>`. */
export interface RestCall {
  method: HttpMethod;
  /** Path below the service, percent-encoded (`/pages/abc`). */
  path: string;
  /** Query values; repeated keys are arrays. */
  query: Record<string, string | string[]>;
  /** JSON body (body methods only). */
  body?: Record<string, unknown>;
}

/** What the REST door hands to `Engine.invoke` for one call. */
export interface RestInvocation {
  operation: RegisteredOperation;
  /** Typed values: the JSON body, then the path parameters, which win. */
  params: Record<string, unknown>;
  /** The query string's values; the body wins over them. */
  stringParams: Record<string, string | string[]>;
}

/**
 * Resolves a REST call to its operation and parameters: the REST door's whole translation, shared by the gateway
 * and the fixture runner so that tests exercise what the gateway does. Throws `not_found`, or `method_not_allowed`
 * with the allowed methods in the message (the caller sets `Allow`).
 */
export function restInvocation(integration: RegisteredIntegration, call: RestCall): RestInvocation {
  const match = integration.match(call.method, call.path);
  if (!match.found) {
    if (match.allowed.length > 0) {
      throw new GatewayError('method_not_allowed', `${call.method} is not allowed here; use ${match.allowed.join(' or ')}`);
    }
    throw new GatewayError('not_found', `${integration.service} has no operation at ${call.method} ${call.path}`);
  }
  // Path parameters name the resource and win over everything; JSON body values win over query values.
  return { operation: match.operation, params: { ...call.body, ...match.pathParams }, stringParams: call.query };
}

/**
 * How a REST client sends `params` to `operation`: path parameters in the path, the others where the operation's
 * locations say (query values as strings: numbers and booleans written out, arrays as repeated keys, objects as
 * JSON). The source of `describe_method`'s REST example and of the fixture runner's REST calls.
 */
export function restCallFor(operation: RegisteredOperation, params: Readonly<Record<string, unknown>>): RestCall {
  const definition = operation.definition;
  // Without prototypes, so that a `__proto__` parameter is sent as given (and refused by the gateway) rather than lost.
  const query = Object.create(null) as Record<string, string | string[]>;
  const body = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const location = Object.hasOwn(operation.locations, name) ? operation.locations[name] : definition.method === 'GET' ? 'query' : 'body';
    if (location === 'path') continue;
    if (location === 'query') query[name] = Array.isArray(value) ? value.map(queryText) : queryText(value);
    else body[name] = value;
  }
  const bodyMethod = definition.method !== 'GET';
  return {
    method: definition.method,
    path: fillPath(definition.path, params),
    query,
    ...(bodyMethod && Object.keys(body).length > 0 ? { body } : {}),
  };
}

function queryText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * A query string → values, repeated keys as arrays. Every key is kept as given, `__proto__` and `constructor`
 * included (the object has no prototype to collide with), so that validation sees them and refuses them.
 */
export function queryValues(search: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(search)) {
    const previous = out[key];
    out[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return out;
}

/** Values → a query string (repeated keys for arrays), the inverse of `queryValues`. */
export function queryString(values: Readonly<Record<string, string | readonly string[]>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (Array.isArray(value)) for (const item of value) search.append(key, item);
    else search.append(key, value as string);
  }
  return search.toString();
}
