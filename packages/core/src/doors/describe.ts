import type { HttpMethod } from '../contract/operation.js';
import type { RegisteredIntegration, RegisteredOperation } from '../contract/registry.js';
import type { TSchema } from '../contract/schema.js';
import { restCallFor } from './rest.js';

/** A schema as plain JSON Schema (TypeBox keeps modifiers in symbol keys; those never leave the process). */
export function jsonSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

export interface OperationDescription {
  service: string;
  method: string;
  summary: string;
  description: string;
  /** read, write or delete. */
  access: string;
  http: { method: HttpMethod; path: string };
  params: Record<string, unknown>;
  response?: Record<string, unknown>;
  example: { tool: string; arguments: { method: string; params: Record<string, unknown> } };
  rest_example: { method: HttpMethod; url: string; query?: Record<string, string | string[]>; body?: Record<string, unknown> };
}

/** Everything a caller needs to call one operation, over either protocol. The source of `describe_method`. */
export function describeOperation(integration: RegisteredIntegration, operation: RegisteredOperation): OperationDescription {
  const definition = operation.definition;
  const params = exampleParams(operation);
  const rest = restCallFor(operation, params);
  return {
    service: integration.service,
    method: operation.name,
    summary: definition.summary,
    description: definition.description,
    access: operation.access,
    http: { method: definition.method, path: `/api/v1/${integration.service}${definition.path}` },
    params: jsonSchema(definition.params),
    ...(definition.response ? { response: jsonSchema(definition.response) } : {}),
    example: { tool: `call_${integration.service}`, arguments: { method: operation.name, params } },
    rest_example: {
      method: rest.method,
      url: `/api/v1/${integration.service}${rest.path}`,
      ...(Object.keys(rest.query).length > 0 ? { query: rest.query } : {}),
      ...(rest.body ? { body: rest.body } : {}),
    },
  };
}

/** The operation's declared example, else one made from the schema: required params and params that carry examples. */
export function exampleParams(operation: RegisteredOperation): Record<string, unknown> {
  if (operation.definition.example) return { ...operation.definition.example } as Record<string, unknown>;
  const schema = jsonSchema(operation.definition.params);
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const examples = property.examples as unknown[] | undefined;
    if (required.has(name) || (examples && examples.length > 0)) out[name] = sampleValue(name, property);
  }
  return out;
}

function sampleValue(name: string, schema: Record<string, unknown>): unknown {
  const examples = schema.examples as unknown[] | undefined;
  if (examples && examples.length > 0) return examples[0];
  if (schema.default !== undefined) return schema.default;
  const enumValues = schema.enum as unknown[] | undefined;
  if (enumValues && enumValues.length > 0) return enumValues[0];
  switch (schema.type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return `<${name}>`;
  }
}
