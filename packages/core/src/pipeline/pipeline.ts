import { type Principal, principalNoun } from '../access/api-keys.js';
import type { IntegrationSettings, IntegrationState } from '../access/integration-settings.js';
import type { AllowedOperations, ToolSets } from '../access/tool-sets.js';
import type { Connections } from '../connections/credentials.js';
import { assertInput, pathSegmentProblem } from '../contract/input-limits.js';
import type { DeclarativeUpstream, UpstreamRequest, UpstreamResponse } from '../contract/operation.js';
import { type RegisteredIntegration, type RegisteredOperation, type Registry, requireIntegration } from '../contract/registry.js';
import { coerceParams, compilerReady, problemList, queryParams } from '../contract/validation.js';
import { GatewayError, toGatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import { mayWrite } from '../store/scopes.js';
import type { Store } from '../store/types.js';
import { upstreamJsonBytes } from '../upstream/client.js';
import { buildDeclarative } from '../upstream/declarative.js';
import { assertIdempotencyKey, CallKeys } from '../upstream/idempotency.js';
import type { ConnectionCall } from '../upstream/limits.js';
import type { UpstreamSender } from '../upstream/send.js';
import { annotateRequestSpan } from '../upstream/spans.js';
import type { TraceContext } from '../upstream/trace-context.js';
import type { WorkspaceBaseUrls } from '../upstream/workspace-base-urls.js';
import { assertToolSetService, beyondScopes, type Checked, checkState } from './access-checks.js';
import { type Acted, actingMember } from './acting-connection.js';
import type { AuditLog } from './audit-log.js';
import type { RateLimiter } from './rate-limit.js';
import { afterRejection, sendRefreshing, type UpstreamCall } from './upstream-call.js';

/** The door a call came through: an MCP or REST client, or an admin trying an operation in the dashboard. */
export type Protocol = 'mcp' | 'rest' | 'dashboard';

export interface InvokeRequest {
  principal: Principal;
  protocol: Protocol;
  service: string;
  operation: string;
  /** Typed params (JSON body, MCP arguments, path segments). Coerced by the one rule (`coerceParams`). */
  params?: Record<string, unknown>;
  /** Params from a query string (repeated keys as arrays); `params` wins over them. Coerced by the same rule. */
  stringParams?: Record<string, string | string[]>;
  /** True once the caller has gone away (REST: its connection closed): a call still waiting for an upstream slot is dropped. */
  callerGone?: () => boolean;
  /** The caller's address (the socket's, or the one a trusted proxy forwarded), kept in the call's audit record. */
  clientAddress?: string | null;
  /**
   * The trace of the request the call answers (W3C Trace Context): its upstream requests carry it and its log lines name
   * it. Default: the current trace (`runInTrace`), if any.
   */
  trace?: TraceContext | undefined;
  /**
   * The caller's idempotency key (REST `Idempotency-Key`, MCP `_meta`): the call's writes carry keys derived from it
   * where the application honours one (`upstream.idempotencyKey`), so that the call sent again does its work once.
   */
  idempotencyKey?: string | undefined;
}

export interface InvokeResult {
  /** The upstream's JSON (or the operation's transform of it). `undefined` when the upstream sent no body. */
  body: unknown;
}

interface PipelineOptions {
  registry: Registry;
  store: Store;
  logger: Logger;
  settings: IntegrationSettings;
  toolSets: ToolSets;
  connections: Pick<Connections, 'credentialsFor' | 'refreshRejected'> &
    Partial<Pick<Connections, 'cachedCredentials' | 'hasPersonal' | 'cachedHasPersonal'>>;
  upstream: UpstreamSender;
  audit: AuditLog;
  /** Base URLs set by the operator's configuration (environment); they win over stored ones. */
  baseUrlOverrides: Readonly<Record<string, string>>;
  /** The rule a workspace's stored base URL meets, checked again before it is used (upstream/workspace-base-urls.ts). */
  workspaceBaseUrls?: WorkspaceBaseUrls;
  /** Per-key rate limit; undefined when it is off. */
  rateLimiter?: RateLimiter | undefined;
}

/** The upstream JSON a result's body was parsed from and is unchanged from (see {@link invokeResultJson}). */
const resultJson = new WeakMap<InvokeResult, Buffer>();

/**
 * The JSON text of `result.body` as the upstream sent it, when the body is an object or array passed on unchanged
 * (no transform, no `run`): a door answering with JSON sends these bytes instead of serialising the body again.
 */
export function invokeResultJson(result: InvokeResult): Buffer | undefined {
  return resultJson.get(result);
}

/**
 * The invoke pipeline: may this principal call this, are the params valid, which credentials, which request,
 * what came back. Every invocation is audited, whatever its outcome.
 */
export class Pipeline {
  private readonly registry: Registry;
  private readonly store: Store;
  private readonly logger: Logger;
  private readonly settings: IntegrationSettings;
  private readonly toolSets: ToolSets;
  private readonly connections: PipelineOptions['connections'];
  private readonly upstream: UpstreamSender;
  private readonly audit: AuditLog;
  private readonly baseUrlOverrides: Readonly<Record<string, string>>;
  private readonly rateLimiter: RateLimiter | undefined;
  private readonly workspaceBaseUrls: WorkspaceBaseUrls | undefined;

  constructor(options: PipelineOptions) {
    this.registry = options.registry;
    this.store = options.store;
    this.logger = options.logger;
    this.settings = options.settings;
    this.toolSets = options.toolSets;
    this.connections = options.connections;
    this.upstream = options.upstream;
    this.audit = options.audit;
    this.baseUrlOverrides = options.baseUrlOverrides;
    this.rateLimiter = options.rateLimiter;
    this.workspaceBaseUrls = options.workspaceBaseUrls;
  }

  /** May this principal use this service over this protocol? Throws not_found / forbidden. */
  async authorize(principal: Principal, service: string, protocol: Protocol): Promise<RegisteredIntegration> {
    return (await this.check(principal, service, protocol)).integration;
  }

  /** The operations the principal's tool set allows (resolved once per version, cached); undefined: no tool set. */
  allowedOperations(principal: Principal): Promise<AllowedOperations | undefined> | AllowedOperations | undefined {
    const id = principal.scopes.toolSet;
    if (!id) return undefined;
    return this.toolSets.cached(principal.workspaceId, id) ?? this.toolSets.allowed(principal.workspaceId, id);
  }

  /**
   * The checks of a call. Synchronous when the key's tool set and the integration's state are cached (the common case:
   * a REST call makes it twice, an invoke once), so that it costs no promise; else a promise.
   */
  private check(principal: Principal, service: string, protocol: Protocol): Checked | Promise<Checked> {
    const integration = requireIntegration(this.registry, service);
    const { services } = principal.scopes;
    if (services !== '*' && !services.includes(service)) {
      throw beyondScopes(principal, `${principalNoun(principal)} may not call ${service}`, service, 'read', this.registry);
    }
    // No await unless the set must be read: a key without a set, or with its set cached, costs no extra turn.
    const pending = this.allowedOperations(principal);
    const state = pending instanceof Promise ? undefined : this.settings.cached(principal.workspaceId, service);
    if (pending instanceof Promise || !state) return this.checkReading(principal, integration, protocol, pending);
    return checkState(principal, integration, protocol, pending, state);
  }

  private async checkReading(
    principal: Principal,
    integration: RegisteredIntegration,
    protocol: Protocol,
    pending: Promise<AllowedOperations | undefined> | AllowedOperations | undefined,
  ): Promise<Checked> {
    const allowed = pending instanceof Promise ? await pending : pending;
    assertToolSetService(principal, integration.service, allowed);
    return checkState(principal, integration, protocol, allowed, await this.settings.state(principal.workspaceId, integration.service));
  }

  /** Integrations this principal may call over `protocol` and that have a connection, in registration order. */
  async visibleIntegrations(principal: Principal, protocol: Protocol): Promise<RegisteredIntegration[]> {
    const connected = new Set((await this.store.listConnections(principal.workspaceId)).map((c) => c.service));
    if (principal.memberId) {
      for (const own of await this.store.listMemberConnections(principal.workspaceId, principal.memberId)) connected.add(own.service);
    }
    const allowed = await this.allowedOperations(principal);
    const out: RegisteredIntegration[] = [];
    for (const integration of this.registry.list()) {
      const { services } = principal.scopes;
      if (services !== '*' && !services.includes(integration.service)) continue;
      if (allowed && !allowed.hasService(integration.service)) continue;
      if (!connected.has(integration.service)) continue;
      const state = await this.settings.state(principal.workspaceId, integration.service);
      if (protocol === 'mcp' ? state.mcpEnabled : state.restEnabled) out.push(integration);
    }
    return out;
  }

  async invoke(request: InvokeRequest): Promise<InvokeResult> {
    const started = performance.now();
    let status = 200;
    let code: string | null = null;
    let upstreamStatus: number | undefined;
    /** Which connection acted upstream: set once it is chosen (audited below). */
    const acted: Acted = { connection: null };
    annotateRequestSpan(request.service, request.operation, request.protocol);
    try {
      // The key's rate limit first, for every door: a refused call costs no look-up (rate-limit.ts); audited below.
      const keyId = request.principal.keyId;
      const limited = keyId === null ? undefined : this.rateLimiter?.admit(keyId);
      if (limited) await limited;
      const checked = this.check(request.principal, request.service, request.protocol);
      const { integration, allowed } = checked instanceof Promise ? await checked : checked;
      const operation = integration.operations.get(request.operation);
      if (!operation) throw new GatewayError('not_found', `${request.service} has no operation "${request.operation}"`);
      // The key's tool set, before anything else is done for the call: refused here, it never reaches the upstream.
      if (allowed && !allowed.has(request.service, request.operation)) {
        throw new GatewayError(
          'forbidden',
          `${principalNoun(request.principal)}'s tool set (${request.principal.scopes.toolSet}) does not include ${request.service}:${request.operation}`,
        );
      }
      if (operation.access !== 'read' && !mayWrite(request.principal.scopes, request.service)) {
        const what = request.principal.scopes.readOnly ? 'is read-only' : `may not write to ${request.service}`;
        const verb = operation.access === 'delete' ? 'deletes' : 'writes';
        const message = `${principalNoun(request.principal)} ${what}; ${request.operation} ${verb} data`;
        throw beyondScopes(request.principal, message, request.service, 'write', this.registry);
      }
      const compiling = compilerReady(); // the first validation of the process loads typebox's compiler
      if (compiling) await compiling;
      const params = this.validate(operation, request);
      const call = { workspaceId: request.principal.workspaceId, callerGone: request.callerGone, trace: request.trace };
      const declared = integration.plugin.upstream.idempotencyKey;
      const keys = declared && new CallKeys(declared, scopeOf(request), request.idempotencyKey);
      const result = await this.execute(integration, operation, params, call, request.principal.memberId ?? null, acted, keys);
      return result;
    } catch (error) {
      const failure = toGatewayError(error);
      status = failure.status;
      code = failure.code;
      upstreamStatus = failure.upstreamStatus;
      if (failure.code === 'internal_error') {
        this.logger.error(
          {
            err: error,
            service: request.service,
            operation: request.operation,
            ...(request.trace ? { traceId: request.trace.traceId } : {}),
          },
          'operation failed',
        );
      }
      throw failure;
    } finally {
      this.audit.request(
        {
          at: new Date().toISOString(),
          workspaceId: request.principal.workspaceId,
          keyId: request.principal.keyId,
          service: request.service,
          operation: request.operation,
          protocol: request.protocol,
          status,
          code,
          durationMs: performance.now() - started,
          clientAddress: request.clientAddress ?? null,
          memberId: request.principal.memberId ?? null,
          ...(acted.connection ? { connection: acted.connection } : {}),
        },
        upstreamStatus === undefined ? undefined : { upstreamStatus },
      );
    }
  }

  baseUrlFor(integration: RegisteredIntegration, state: IntegrationState, meta: Readonly<Record<string, unknown>>): string {
    const operator = this.baseUrlOverrides[integration.service];
    if (operator) return operator;
    if (state.baseUrl) {
      // stored by a workspace: held to the workspace rule again (a value stored before it, or into the database)
      this.workspaceBaseUrls?.assert(
        integration.plugin,
        state.baseUrl,
        `The base URL of ${integration.plugin.displayName}`,
        'upstream_error',
      );
      return state.baseUrl;
    }
    const base = integration.plugin.upstream.baseUrl;
    return typeof base === 'function' ? base(meta) : base;
  }

  private validate(operation: RegisteredOperation, request: InvokeRequest): Record<string, unknown> {
    // The input caps and forbidden key names first, for every door: they cost microseconds, and all that follows
    // (spreading, coercion, validation, its message) grows with the input.
    assertInput(request.params);
    assertInput(request.stringParams);
    if (request.idempotencyKey !== undefined) assertIdempotencyKey(request.idempotencyKey);
    // One coercion rule for every door (contract/validation.ts): query values and typed values meet the same schema.
    const schema = operation.definition.params;
    // typed params win over query values; assigned rather than spread (a spread's added keys are slow on Node 20), which
    // is safe here: assertInput refused __proto__ and the other forbidden keys above
    const merged = request.stringParams ? queryParams(schema, request.stringParams) : {};
    if (request.params) Object.assign(merged, request.params);
    const params = coerceParams(schema, merged);
    const valid = operation.validator.check(params);
    const problems = valid ? [] : operation.validator.problems(params);
    // One path-parameter rule for every plugin, whatever its schema says, before any upstream call. Where the schema
    // itself refuses that value (a Slack channel id, to be taken from list_channels), its words serve the caller better
    // than the rule's character list, so the schema's message is given instead.
    for (const name of operation.pathParams) {
      const value = params[name];
      const problem = typeof value === 'string' ? pathSegmentProblem(value) : undefined;
      const schemaSays = problems.some((p) => p.startsWith(`params.${name}:`) || p.startsWith(`params.${name} `));
      if (problem && !schemaSays) throw new GatewayError('bad_request', `Invalid params for ${operation.name}: params.${name}: ${problem}`);
    }
    if (!valid) throw new GatewayError('bad_request', `Invalid params for ${operation.name}: ${problemList(problems)}`);
    const problem = operation.definition.check?.(params as never);
    if (problem) throw new GatewayError('bad_request', `Invalid params for ${operation.name}: ${problem}`);
    return params;
  }

  private async execute(
    integration: RegisteredIntegration,
    operation: RegisteredOperation,
    params: Record<string, unknown>,
    /** Whose connection, the caller's state and trace: each upstream request of the call takes its slots (upstream/limits.ts). */
    connection: ConnectionCall,
    /** The person behind the call (their own connection acts where the policy says so); null: an API key's call. */
    memberId: string | null,
    acted: Acted,
    /** The keys of the call's writes, where the application honours one (upstream/idempotency.ts). */
    keys: CallKeys | undefined,
  ): Promise<InvokeResult> {
    const { workspaceId } = connection;
    const state = this.settings.cached(workspaceId, integration.service) ?? (await this.settings.state(workspaceId, integration.service));
    const personal = memberId ? await actingMember(this.connections, integration, workspaceId, memberId, state.connectionPolicy) : null;
    acted.connection = personal ? 'personal' : 'shared';
    if (personal) connection.memberId = personal; // its own limits: the application counts each person's token apart
    // Cached (the common call): read without a promise.
    const loaded =
      this.connections.cachedCredentials?.(integration, workspaceId, personal) ??
      (await this.connections.credentialsFor(integration, workspaceId, connection.trace, personal));
    const baseUrl = this.baseUrlFor(integration, state, loaded.record.meta);
    const definition = operation.definition;
    // What a second request of the call needs (an operation's run, a refresh): made only then.
    const call = (): UpstreamCall => ({
      sender: this.upstream,
      connections: this.connections,
      integration,
      operation,
      baseUrl,
      settings: state.settings,
      connection,
      loaded,
      refresh: undefined,
    });
    let body: unknown;
    if (definition.run) {
      const shared = call();
      const send = (upstream: UpstreamRequest) => sendRefreshing(shared, keys ? keys.apply(upstream) : upstream);
      body = await definition.run(params as never, { settings: state.settings, connection: loaded.record.meta, send });
    } else {
      const built =
        typeof definition.upstream === 'function'
          ? definition.upstream(params as never, { settings: state.settings, connection: loaded.record.meta })
          : buildDeclarative(definition.upstream as DeclarativeUpstream, params);
      const upstream = keys ? keys.apply(built) : built;
      // The common call sends once, without a closure or another async layer; a rejection of our credentials takes
      // the refresh path (sendRefreshing).
      let response: UpstreamResponse;
      try {
        response = await this.upstream.send(integration, operation, upstream, baseUrl, loaded.credentials, state.settings, connection);
      } catch (error) {
        response = await afterRejection(call(), upstream, error, loaded);
      }
      body = response.body;
      // Nothing reads or changes the body on its way out: the door may send the upstream's bytes as they came.
      const bytes = definition.transform ? undefined : upstreamJsonBytes(response);
      if (bytes) {
        const result = { body };
        resultJson.set(result, bytes);
        return result;
      }
    }
    return { body: definition.transform ? definition.transform(body, params as never) : body };
  }
}

/** Whose call it is, for its upstream keys: one caller's key never replays another caller's request. */
function scopeOf(request: InvokeRequest) {
  const { principal } = request;
  return {
    workspaceId: principal.workspaceId,
    caller: principal.keyId ?? principal.memberId ?? '',
    service: request.service,
    operation: request.operation,
  };
}
