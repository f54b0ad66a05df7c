import { AUTHORIZATION_PATHS } from '../authorization/server.js';
import { openApiPath } from '../contract/operation.js';
import type { RegisteredIntegration, RegisteredOperation } from '../contract/registry.js';
import { ruleSentences, rulesWithin, type TSchema } from '../contract/schema.js';
import { ERROR_CODES } from '../errors.js';
import { jsonSchema } from './describe.js';

export interface OpenApiOptions {
  /** Public base URL of the gateway (`https://gateway.example.com`); the server URL is `<base>/api/v1/<service>`. */
  baseUrl?: string;
  /** Only the operations for which this is true (a key's tool set); default: every operation. */
  include?: (operation: RegisteredOperation) => boolean;
}

type Json = Record<string, unknown>;

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'Invalid parameters, or the upstream rejected them',
  '401': 'Missing or invalid API key or access token',
  '403': 'The key or grant may not call this operation, or REST access is disabled',
  '404': 'Unknown path, or the upstream record does not exist',
  '424': 'The integration is not connected',
  '429': 'Rate limited by the upstream; see Retry-After',
  '502': 'The upstream failed or rejected the stored credentials',
  '504': 'The upstream did not answer in time',
};

const DEFAULT_SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'A Portico API key (portico_…)' },
};

const OAUTH_DESCRIPTION =
  "Portico's own OAuth 2.1 authorization server: the authorization code flow with PKCE (S256 only; plain and requests " +
  'without PKCE are refused) for public clients, which register by Dynamic Client Registration. An admin of the ' +
  'workspace consents in the dashboard and chooses what the grant may do. Send the access token (portico_at_…) as ' +
  'Authorization: Bearer <token>.';

/**
 * The document's security schemes: the plugin's (or the default API-key scheme), every `oauth2` scheme pointing at
 * the gateway's own authorize and token endpoints whatever the plugin wrote, and an `oauth2` scheme added where the
 * plugin declared none, so that a client generated from any document can obtain a token the doors take.
 */
function securitySchemes(declared: Readonly<Record<string, Readonly<Json>>>, baseUrl: string): { schemes: Json; added: boolean } {
  const flows = {
    authorizationCode: {
      authorizationUrl: baseUrl + AUTHORIZATION_PATHS.authorize,
      tokenUrl: baseUrl + AUTHORIZATION_PATHS.token,
      refreshUrl: baseUrl + AUTHORIZATION_PATHS.token,
      scopes: {},
    },
  };
  const description = `${OAUTH_DESCRIPTION} Metadata: ${baseUrl}/.well-known/oauth-authorization-server; registration: ${baseUrl}${AUTHORIZATION_PATHS.register}.`;
  const schemes: Json = {};
  let added = true;
  for (const [name, scheme] of Object.entries(declared)) {
    if (scheme.type !== 'oauth2') schemes[name] = scheme;
    else {
      schemes[name] = { type: 'oauth2', description: scheme.description ?? description, flows };
      added = false;
    }
  }
  if (added) schemes.oauth2 = { type: 'oauth2', description, flows };
  return { schemes, added };
}

const IDEMPOTENCY_HEADER: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Send the call again with the same key (1 to 255 visible ASCII characters) and the application applies it once: its answer is the first one.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
};

/**
 * The OpenAPI 3.1 document of one integration, generated from its declarations: nobody writes an OpenAPI entry by
 * hand. Parameters are documented where they travel (the operation's `locations`): path, query string, or the JSON
 * request body.
 */
export function buildOpenApiDocument(integration: RegisteredIntegration, options: OpenApiOptions = {}): Json {
  const { plugin, service } = integration;
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const { schemes, added } = securitySchemes(plugin.openapi?.securitySchemes ?? DEFAULT_SECURITY_SCHEMES, baseUrl);
  const declared =
    plugin.openapi?.security ?? Object.keys(plugin.openapi?.securitySchemes ?? DEFAULT_SECURITY_SCHEMES).map((name) => ({ [name]: [] }));
  // alternatives: any one satisfies; Portico's OAuth is always one of them
  const security = added ? [...declared, { oauth2: [] }] : declared;
  const paths: Record<string, Json> = {};
  for (const operation of integration.operations.values()) {
    if (options.include && !options.include(operation)) continue;
    const definition = operation.definition;
    const schema = jsonSchema(definition.params);
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const parameters: Json[] = [];
    const bodyProperties: Record<string, Json> = {};
    const bodyRequired: string[] = [];
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = property;
      const location = operation.locations[name];
      if (location === 'path') {
        parameters.push({ name, in: 'path', required: true, ...(description ? { description } : {}), schema: rest });
      } else if (location === 'query') {
        const parameter: Json = { name, in: 'query', required: required.has(name), ...(description ? { description } : {}) };
        if (rest.type === 'object') parameter.content = { 'application/json': { schema: rest } };
        else {
          parameter.schema = rest;
          if (rest.type === 'array') Object.assign(parameter, { style: 'form', explode: true });
        }
        parameters.push(parameter);
      } else {
        bodyProperties[name] = property;
        if (required.has(name)) bodyRequired.push(name);
      }
    }
    // the caller's key of a write, where the application honours one (upstream/idempotency.ts)
    if (plugin.upstream.idempotencyKey && operation.access !== 'read') parameters.push(IDEMPOTENCY_HEADER);
    const rules = ruleSentences(schema);
    const entry: Json = {
      operationId: definition.name,
      summary: definition.summary,
      description: rules.length > 0 ? `${definition.description}\n\nParameter rules: ${rules.join(' ')}` : definition.description,
      tags: [plugin.displayName],
      security: definition.security ?? security,
      ...(parameters.length > 0 ? { parameters } : {}),
      responses: {
        '200': {
          description: 'The upstream answer',
          content: { 'application/json': { schema: definition.response ? jsonSchema(definition.response as TSchema) : {} } },
        },
        ...Object.fromEntries(Object.keys(ERROR_RESPONSES).map((status) => [status, { $ref: `#/components/responses/Error${status}` }])),
        default: { $ref: '#/components/responses/Error' },
      },
      'x-portico-access': operation.access,
    };
    if (Object.keys(bodyProperties).length > 0) {
      entry.requestBody = {
        required: bodyRequired.length > 0,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: bodyProperties,
              ...(bodyRequired.length > 0 ? { required: bodyRequired } : {}),
              additionalProperties: false,
              ...rulesWithin(schema, new Set(Object.keys(bodyProperties))),
            },
          },
        },
      };
    }
    const path = openApiPath(definition.path);
    paths[path] = { ...paths[path], [definition.method.toLowerCase()]: entry };
  }
  const errorResponse = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: `${plugin.displayName} (Portico)`,
      version: plugin.openapi?.version ?? plugin.version,
      description: `${plugin.description}\n\nServed by the Portico gateway under the service key \`${service}\`.`,
      // The document is generated by Portico, which is MIT-licensed (OpenAPI 3.1 takes an SPDX identifier).
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: `${baseUrl}/api/v1/${service}` }],
    security,
    paths,
    components: {
      securitySchemes: schemes,
      schemas: {
        Error: {
          type: 'object',
          required: ['error', 'code', 'message'],
          properties: {
            error: { type: 'boolean', const: true },
            code: { type: 'string', enum: ERROR_CODES },
            message: { type: 'string' },
          },
          additionalProperties: false,
        },
      },
      responses: {
        Error: errorResponse('Error'),
        ...Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([status, text]) => [`Error${status}`, errorResponse(text)])),
      },
    },
  };
}
