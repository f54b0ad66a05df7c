import type { OperationDefinition } from '@portico/core/plugin';
import { EXAMPLE_IDS } from './example-ids.js';

// Ready-to-run examples for describe_method, written on the sandbox's seeded firm (example-ids.ts beside this file, generated
// from src/sandbox/seed.ts and checked against it by src/examples.test.ts): ids of records that exist there, the `fields` each
// operation suggests, and a valid value for every required parameter. The gateway's e2e test runs every example over
// MCP and REST against the sandbox.

type Json = Record<string, unknown>;
interface Ids {
  first: number;
  last: number;
  scope?: Record<string, string>;
}
const IDS = EXAMPLE_IDS as Readonly<Record<string, Ids>>;

/** The Clio collection an operation works on (`/court_rules/jurisdictions/{jurisdiction_id}/triggers`), from its upstream path. */
function collectionOf(operation: OperationDefinition): { template: string; item: boolean } | undefined {
  const tokens = [...operation.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string);
  const probe = Object.fromEntries(tokens.map((t) => [t, `{${t}}`]));
  let path: string | undefined;
  if (typeof operation.upstream === 'function') {
    try {
      path = operation.upstream(probe as never, { settings: {}, connection: {} }).path;
    } catch {
      path = undefined;
    }
  }
  path = decodeURIComponent(path ?? operation.path.replace(/:([a-z_]+)/g, '{$1}')).replace(/\.json$/, '');
  const at = path.lastIndexOf('/{id}');
  return at < 0 ? { template: path, item: false } : { template: path.slice(0, at), item: true };
}

const plural = (name: string) => (name.endsWith('y') ? `${name.slice(0, -1)}ies` : name.endsWith('s') ? `${name}es` : `${name}s`);

/** References whose collection is not their name made plural. */
const REFERS_TO: Record<string, string> = {
  client: '/contacts',
  assignee: '/users',
  assigner: '/users',
  responsible_attorney: '/users',
  originating_attorney: '/users',
  calendar_owner: '/calendars',
};

/** An id of a seeded record a body reference can point at (`matter` → a matter's id). */
const refId = (field: string) => {
  const base = field.replace(/_id$/, '');
  return IDS[REFERS_TO[base] ?? `/${plural(base)}`]?.first ?? 1;
};

/** A valid value for a parameter the caller must give. */
function sample(name: string, schema: Json): unknown {
  const values = (schema.enum as unknown[] | undefined) ?? (schema.anyOf as Json[] | undefined)?.map((s) => s.const);
  if (values && values.length > 0 && values[0] !== undefined) return values[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  // A polymorphic reference ({ id, type }): a seeded record of the first kind Clio takes there.
  const kinds = ((schema.properties as Record<string, Json> | undefined)?.type?.enum as string[] | undefined) ?? [];
  if (schema.type === 'object' && kinds[0]) {
    const kind = kinds[0].replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
    return { id: IDS[`/${plural(kind)}`]?.first ?? 1, type: kinds[0] };
  }
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : '';
  const moment = name.startsWith('end') ? '2024-02-01T10:00:00Z' : '2024-02-01T09:00:00Z';
  if (schema.format === 'date-time') return moment;
  if (schema.format === 'date' || pattern.includes('[0-9]{4}-') || pattern.includes('\\d{4}-')) {
    return pattern.includes('T') ? moment : '2024-02-01';
  }
  if (pattern.startsWith('^[0-9]+$') || pattern.startsWith('^([0-9]+')) return String(refId(name));
  switch (schema.type) {
    case 'integer':
    case 'number':
      return /_id$/.test(name) ? refId(name) : typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return { id: refId(name) };
    default:
      return `Example ${name.replace(/_/g, ' ')}`;
  }
}

/** The `fields` an operation's description suggests (`for example fields=id,name)`). */
const suggestedFields = (description: string) => /for example fields=([^\s]+?)(?:\)\.|\)\s|[.,;]?(?:\s|$)|\)$)/.exec(description)?.[1];

const TEXT_FIELDS = ['description', 'name', 'note', 'subject', 'summary'];

/** The example of one operation, on the seeded firm. */
export function exampleOf(operation: OperationDefinition): Json {
  const collection = collectionOf(operation);
  const ids = collection ? IDS[collection.template] : undefined;
  const schema = operation.params as unknown as { properties: Record<string, Json>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const example: Json = {};
  const deleting = operation.method === 'DELETE';
  for (const [name, property] of Object.entries(schema.properties)) {
    if (name === 'id') example.id = String(deleting ? (ids?.last ?? 1) : (ids?.first ?? 1));
    else if (ids?.scope?.[name] !== undefined) example[name] = ids.scope[name];
    else if (required.has(name)) example[name] = sample(name, property);
  }
  // A rule "give at least one of …" (anyOf of required lists): the first of them.
  type Rules = { anyOf?: Array<{ required?: string[] }>; allOf?: Rules[] };
  const rules = [schema as Rules, ...((schema as Rules).allOf ?? [])].flatMap((r) => r.anyOf ?? []);
  for (const rule of rules) {
    const name = rule.required?.find((n) => example[n] === undefined);
    if (name && schema.properties[name] && rule.required?.every((n) => example[n] === undefined)) {
      example[name] = sample(name, schema.properties[name]);
    }
  }
  const fields = suggestedFields(operation.description);
  if (fields && 'fields' in schema.properties && !deleting) example.fields = fields;
  if (operation.method === 'PATCH') {
    const text = TEXT_FIELDS.find((f) => (schema.properties[f] as Json | undefined)?.type === 'string' && !schema.properties[f]?.pattern);
    if (text && example[text] === undefined) example[text] = `Updated ${text} (example)`;
  }
  return example;
}

/** The operations with an example each (one an operation declares itself is kept). */
export function withExamples(operations: OperationDefinition[]): OperationDefinition[] {
  return operations.map((operation) =>
    operation.example
      ? operation
      : ({ ...operation, example: exampleOf(operation) as OperationDefinition['example'] } as OperationDefinition),
  );
}
