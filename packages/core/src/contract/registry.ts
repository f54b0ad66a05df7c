import { GatewayError } from '../errors.js';
import { egressHostsProblem } from './egress-hosts.js';
import { type Access, accessOf, type HttpMethod, type OperationDefinition, type ParamLocation, pathTokens } from './operation.js';
import { isPlugin, PLUGIN_BRAND, type Plugin, SUPPORTED_CONTRACT_VERSIONS } from './plugin.js';
import type { TObject, TSchema } from './schema.js';
import { upstreamLimitsProblem } from './upstream-limits.js';
import { type CompiledParams, compileParams } from './validation.js';
import { vocabularyProblems } from './vocabulary.js';

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const SERVICE_KEY = /^[a-z][a-z0-9]{1,31}$/;

export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** An operation as the engine uses it: the declaration plus what is derived from it once, at registration. */
export interface RegisteredOperation {
  readonly service: string;
  readonly definition: OperationDefinition;
  readonly name: string;
  readonly access: Access;
  readonly validator: CompiledParams;
  readonly pathParams: readonly string[];
  /** Where each parameter travels over REST (path, query or body), from the path, the method and `locations`. */
  readonly locations: Readonly<Record<string, ParamLocation>>;
}

export interface RegisteredIntegration {
  /** Service key in use (the plugin's default unless an operator renamed it). */
  readonly service: string;
  readonly plugin: Plugin;
  readonly operations: ReadonlyMap<string, RegisteredOperation>;
  /** Operation names in declaration order. */
  readonly operationNames: readonly string[];
  readonly settingsValidator: CompiledParams | undefined;
  match(method: string, path: string): RouteMatch | RouteMiss;
}

export interface RouteMatch {
  found: true;
  operation: RegisteredOperation;
  pathParams: Record<string, string>;
}

export interface RouteMiss {
  found: false;
  /** Methods the path would accept (for 405 + Allow), empty when the path matches nothing. */
  allowed: HttpMethod[];
}

interface RegisterOptions {
  /** Operator rename of the service key. */
  service?: string;
}

export class Registry {
  private readonly integrations = new Map<string, RegisteredIntegration>();

  register(plugin: unknown, options: RegisterOptions = {}): RegisteredIntegration {
    if (!isPlugin(plugin)) {
      throw new RegistryError(`not a Portico plugin (expected an object made by definePlugin, brand "${PLUGIN_BRAND}")`);
    }
    if (!SUPPORTED_CONTRACT_VERSIONS.includes(plugin.contract)) {
      throw new RegistryError(
        `plugin ${plugin.service} was written for contract version ${plugin.contract}; this core supports ${SUPPORTED_CONTRACT_VERSIONS.join(', ')}`,
      );
    }
    const service = options.service ?? plugin.service;
    if (!SERVICE_KEY.test(service)) {
      throw new RegistryError(`service key "${service}" must be 2-32 lowercase letters or digits, starting with a letter`);
    }
    if (this.integrations.has(service)) throw new RegistryError(`service "${service}" is already registered`);
    const egressProblem = egressHostsProblem(plugin.upstream.egressHosts);
    if (egressProblem) throw new RegistryError(`${service}: ${egressProblem}`);
    const limitsProblem = upstreamLimitsProblem(plugin.upstream.limits);
    if (limitsProblem) throw new RegistryError(`${service}: ${limitsProblem}`);
    const [vocabularyProblem] = vocabularyProblems(plugin.vocabulary ?? {});
    if (vocabularyProblem) throw new RegistryError(`${service}: vocabulary ${vocabularyProblem}`);

    const operations = new Map<string, RegisteredOperation>();
    const router = new Router();
    for (const definition of plugin.operations) {
      const registered = registerOperation(service, definition);
      if (operations.has(definition.name)) {
        throw new RegistryError(`${service}: operation name "${definition.name}" is declared twice`);
      }
      operations.set(definition.name, registered);
      router.add(definition.method, definition.path, registered, service);
    }
    for (const { name, preferred } of plugin.operations) {
      if (preferred !== undefined && (preferred === name || !operations.has(preferred)))
        throw new RegistryError(`${service}.${name}: preferred names ${preferred}, which is no other operation of the plugin`);
    }
    const integration: RegisteredIntegration = {
      service,
      plugin,
      operations,
      operationNames: [...operations.keys()],
      settingsValidator: plugin.settings ? compileParams(plugin.settings) : undefined,
      match: (method, path) => router.match(method, path),
    };
    this.integrations.set(service, integration);
    return integration;
  }

  get(service: string): RegisteredIntegration | undefined {
    return this.integrations.get(service);
  }

  /** Integrations in registration order. */
  list(): RegisteredIntegration[] {
    return [...this.integrations.values()];
  }

  operation(service: string, name: string): RegisteredOperation | undefined {
    return this.integrations.get(service)?.operations.get(name);
  }
}

/** The registered integration of `service`, or `not_found`. */
export function requireIntegration(registry: Registry, service: string): RegisteredIntegration {
  const integration = registry.get(service);
  if (!integration) throw new GatewayError('not_found', `Unknown service "${service}"`);
  return integration;
}

function registerOperation(service: string, definition: OperationDefinition): RegisteredOperation {
  const where = `${service}.${definition.name}`;
  if (!SNAKE_CASE.test(definition.name)) throw new RegistryError(`${where}: operation names must be snake_case`);
  if (!definition.path.startsWith('/')) throw new RegistryError(`${where}: path must start with "/"`);
  const params = definition.params as TObject;
  if ((params as { type?: unknown }).type !== 'object') throw new RegistryError(`${where}: params must be an object schema`);
  const properties = (params.properties ?? {}) as Record<string, TSchema>;
  const required = new Set<string>((params.required as string[] | undefined) ?? []);
  const tokens = pathTokens(definition.path);
  for (const token of tokens) {
    const property = properties[token] as { type?: unknown } | undefined;
    if (!property || !required.has(token) || property.type !== 'string') {
      throw new RegistryError(`${where}: path token :${token} must be a required string parameter`);
    }
  }
  if (new Set(tokens).size !== tokens.length) throw new RegistryError(`${where}: path token repeated in ${definition.path}`);
  const upstream = definition.upstream;
  if (upstream && typeof upstream === 'object') {
    for (const token of pathTokens(upstream.path)) {
      const source = Object.entries(upstream.rename ?? {}).find(([, to]) => to === token)?.[0] ?? token;
      if (!required.has(source)) throw new RegistryError(`${where}: upstream path token :${token} is not a required parameter`);
    }
  }
  if (!upstream && !definition.run) throw new RegistryError(`${where}: declares neither upstream nor run`);
  const locations: Record<string, ParamLocation> = {};
  for (const name of Object.keys(properties)) {
    locations[name] = tokens.includes(name) ? 'path' : definition.method === 'GET' ? 'query' : 'body';
  }
  for (const [name, location] of Object.entries(definition.locations ?? {})) {
    if (!(name in properties)) throw new RegistryError(`${where}: locations names ${name}, which is not a parameter`);
    if (tokens.includes(name)) throw new RegistryError(`${where}: ${name} is a path parameter; its location is the path`);
    if (location === 'body' && definition.method === 'GET') throw new RegistryError(`${where}: a GET operation has no body (${name})`);
    locations[name] = location;
  }
  // A declarative upstream sends the parameters the operation takes in its query string in the upstream query too.
  const inQuery = Object.keys(definition.locations ?? {}).filter((name) => locations[name] === 'query');
  const effective: OperationDefinition =
    upstream && typeof upstream === 'object' && inQuery.length > 0
      ? { ...definition, upstream: { ...upstream, query: [...new Set([...(upstream.query ?? []), ...inQuery])] } }
      : definition;
  return {
    service,
    definition: effective,
    name: definition.name,
    access: accessOf(definition),
    validator: compileParams(params),
    pathParams: tokens,
    locations,
  };
}

interface RouteHandler {
  operation: RegisteredOperation;
  /** Names of the parameter segments of this operation's path, in order: two paths may name one position differently. */
  names: string[];
}

interface RouteNode {
  statics: Map<string, RouteNode>;
  param?: RouteNode;
  handlers: Map<HttpMethod, RouteHandler>;
}

const newNode = (): RouteNode => ({ statics: new Map(), handlers: new Map() });

/**
 * Segment trie. Static segments win over parameters (`/users/me` before `/users/:user_id`), so the order in which
 * operations are declared never changes which one a path reaches.
 */
class Router {
  private readonly root = newNode();

  add(method: HttpMethod, path: string, operation: RegisteredOperation, service: string): void {
    let node = this.root;
    const names: string[] = [];
    for (const segment of split(path)) {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        node.param ??= newNode();
        node = node.param;
      } else {
        let next = node.statics.get(segment);
        if (!next) {
          next = newNode();
          node.statics.set(segment, next);
        }
        node = next;
      }
    }
    const existing = node.handlers.get(method);
    if (existing) throw new RegistryError(`${service}.${operation.name}: ${method} ${path} is already taken by ${existing.operation.name}`);
    node.handlers.set(method, { operation, names });
  }

  match(method: string, path: string): RouteMatch | RouteMiss {
    const values: string[] = [];
    const node = walk(this.root, split(path), 0, values);
    if (!node) return { found: false, allowed: [] };
    const handler = node.handlers.get(method as HttpMethod);
    if (!handler) return { found: false, allowed: [...node.handlers.keys()] };
    const params: Record<string, string> = {};
    handler.names.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(values[i] as string);
      } catch {
        throw new GatewayError('bad_request', `Path parameter ${name} is not valid percent-encoding`);
      }
    });
    return { found: true, operation: handler.operation, pathParams: params };
  }
}

function walk(node: RouteNode, segments: string[], index: number, values: string[]): RouteNode | undefined {
  if (index === segments.length) return node.handlers.size > 0 ? node : undefined;
  const segment = segments[index] as string;
  const fixed = node.statics.get(segment);
  if (fixed) {
    const found = walk(fixed, segments, index + 1, values);
    if (found) return found;
  }
  if (node.param && segment !== '') {
    values.push(segment);
    const found = walk(node.param, segments, index + 1, values);
    if (found) return found;
    values.pop();
  }
  return undefined;
}

function split(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}
