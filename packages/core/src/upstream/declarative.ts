import { type DeclarativeUpstream, fillPath, pathTokens, type QueryValue, type UpstreamRequest } from '../contract/operation.js';

/** Declarative mapping: path tokens from params; the rest to the query (GET, DELETE) or the JSON body. */
export function buildDeclarative(upstream: DeclarativeUpstream, params: Record<string, unknown>): UpstreamRequest {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) values[upstream.rename?.[key] ?? key] = value;
  }
  const { inPath, inQuery } = namesOf(upstream);
  const bodyMethod = upstream.method === 'POST' || upstream.method === 'PATCH' || upstream.method === 'PUT';
  // assigned, not spread: keys a literal names after spreading a non-empty object are slow on Node 20
  // (docs/performance.md, "got's cache options")
  const query: Record<string, QueryValue> = Object.assign({}, upstream.fixedQuery);
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (inPath.has(key)) continue;
    if (bodyMethod && !inQuery.has(key)) body[key] = value;
    else query[key] = toQueryValue(value);
  }
  return {
    method: upstream.method,
    path: fillPath(upstream.path, values),
    ...(Object.keys(query).length > 0 ? { query } : {}),
    ...(bodyMethod ? { body } : {}),
  };
}

/** The path's tokens and the query's names of a declaration (fixed once registered): read once, not on every call. */
const names = new WeakMap<DeclarativeUpstream, { inPath: ReadonlySet<string>; inQuery: ReadonlySet<string> }>();

function namesOf(upstream: DeclarativeUpstream): { inPath: ReadonlySet<string>; inQuery: ReadonlySet<string> } {
  let known = names.get(upstream);
  if (!known) {
    known = { inPath: new Set(pathTokens(upstream.path)), inQuery: new Set(upstream.query ?? []) };
    names.set(upstream, known);
  }
  return known;
}

function toQueryValue(value: unknown): QueryValue {
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean)));
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return value as string | number | boolean;
}
