import { assertInput } from '../contract/input-limits.js';
import { type RegisteredIntegration, type Registry, requireIntegration } from '../contract/registry.js';
import { compilerReady, problemList } from '../contract/validation.js';
import { GatewayError } from '../errors.js';
import { cacheKey, SETTINGS_CACHE_MS } from '../store/changes.js';
import { DatabaseOutage } from '../store/outage.js';
import {
  CONNECTION_POLICIES,
  type ConnectionPolicy,
  DEFAULT_CONNECTION_POLICY,
  type IntegrationSettingsRecord,
  type Store,
} from '../store/types.js';
import { EgressPolicy } from '../upstream/egress.js';
import { storeSpan } from '../upstream/spans.js';
import { WorkspaceBaseUrls } from '../upstream/workspace-base-urls.js';

/** An integration as a workspace has configured it, defaults applied. */
export interface IntegrationState {
  service: string;
  mcpEnabled: boolean;
  restEnabled: boolean;
  baseUrl: string | null;
  settings: Record<string, unknown>;
  /** Whose upstream account a member's call acts as (docs/workspaces.md, "Whose account a call acts as"). */
  connectionPolicy: ConnectionPolicy;
}

export type IntegrationChange = {
  mcpEnabled?: boolean;
  restEnabled?: boolean;
  baseUrl?: string | null;
  settings?: Record<string, unknown>;
  connectionPolicy?: ConnectionPolicy;
};

/** Per-workspace integration settings: protocol toggles, base URL and the plugin's settings, cached. */
export class IntegrationSettings {
  private readonly cache = new Map<string, { state: IntegrationState; expires: number }>();

  constructor(
    private readonly registry: Registry,
    private readonly store: Store,
    private readonly baseUrls: WorkspaceBaseUrls = new WorkspaceBaseUrls(new EgressPolicy(), undefined),
    private readonly outage: DatabaseOutage = new DatabaseOutage(),
  ) {}

  /** The state when the cache holds it fresh, else undefined: a call reads it without a promise or a turn of the loop. */
  cached(workspaceId: string, service: string): IntegrationState | undefined {
    const cached = this.cache.get(cacheKey(workspaceId, service));
    return cached && cached.expires > Date.now() ? cached.state : undefined;
  }

  async state(workspaceId: string, service: string): Promise<IntegrationState> {
    const key = cacheKey(workspaceId, service);
    const cached = this.cache.get(key);
    if (cached && cached.expires > Date.now()) return cached.state;
    // The database down: settings read before still serve (degraded mode); never read ones get 503 unavailable.
    return this.outage.read(
      'integration settings lookup',
      () => this.load(workspaceId, service),
      () => (cached ? { value: cached.state } : undefined),
    );
  }

  private async load(workspaceId: string, service: string): Promise<IntegrationState> {
    const key = cacheKey(workspaceId, service);
    const integration = requireIntegration(this.registry, service);
    const stored = await storeSpan('integration settings lookup', () => this.store.getIntegration(workspaceId, service));
    const state: IntegrationState = {
      service,
      // A new integration starts with MCP on and REST off (Core Specification, protocol toggles).
      mcpEnabled: stored?.mcpEnabled ?? true,
      restEnabled: stored?.restEnabled ?? false,
      baseUrl: stored?.baseUrl ?? null,
      settings: await settingsWithDefaults(integration, stored?.settings ?? {}),
      connectionPolicy: stored?.connectionPolicy ?? DEFAULT_CONNECTION_POLICY,
    };
    this.cache.set(key, { state, expires: Date.now() + SETTINGS_CACHE_MS });
    return state;
  }

  async configure(workspaceId: string, service: string, change: IntegrationChange): Promise<IntegrationState> {
    const integration = requireIntegration(this.registry, service);
    const current = await this.state(workspaceId, service);
    // http(s) only, on the plugin's own hosts or ones the operator approves (upstream/workspace-base-urls.ts)
    if (change.baseUrl) this.baseUrls.assert(integration.plugin, change.baseUrl, 'The base URL', 'bad_request');
    if (change.connectionPolicy !== undefined && !CONNECTION_POLICIES.includes(change.connectionPolicy)) {
      throw new GatewayError(
        'bad_request',
        `Invalid connection policy: ${JSON.stringify(String(change.connectionPolicy).slice(0, 40))} is not one of ${CONNECTION_POLICIES.join(', ')}`,
      );
    }
    // The input caps before anything looks at the settings: a deep object would otherwise fail in the store.
    assertInput(change.settings, 'settings');
    // Only the settings the plugin declares: an unknown key would be stored and shown, never used.
    const declared = Object.keys((integration.plugin.settings?.properties ?? {}) as Record<string, unknown>);
    const unknown = Object.keys(change.settings ?? {}).filter((name) => !declared.includes(name));
    if (unknown.length > 0) {
      const names = unknown.slice(0, 5).map((name) => JSON.stringify(name.slice(0, 40)));
      throw new GatewayError(
        'bad_request',
        `Invalid settings: ${names.join(', ')}${unknown.length > 5 ? '…' : ''} ${unknown.length === 1 ? 'is' : 'are'} not a setting of ${integration.plugin.displayName} (${declared.join(', ') || 'it has none'})`,
      );
    }
    const settings = { ...current.settings, ...change.settings };
    if (integration.settingsValidator) await compilerReady();
    if (integration.settingsValidator && !integration.settingsValidator.check(settings)) {
      const problems = integration.settingsValidator.problems(settings).map((line) => line.replace(/^params\b/, 'settings'));
      throw new GatewayError('bad_request', `Invalid settings: ${problemList(problems)}`);
    }
    const record: IntegrationSettingsRecord = {
      workspaceId,
      service,
      mcpEnabled: change.mcpEnabled ?? current.mcpEnabled,
      restEnabled: change.restEnabled ?? current.restEnabled,
      baseUrl: change.baseUrl === undefined ? current.baseUrl : change.baseUrl,
      settings,
      connectionPolicy: change.connectionPolicy ?? current.connectionPolicy,
      updatedAt: new Date().toISOString(),
    };
    await this.store.putIntegration(record);
    this.cache.delete(cacheKey(workspaceId, service));
    return this.state(workspaceId, service);
  }

  /** Drops the cached state of one integration, or of all (`'*'`), after a change notification. */
  forget(workspaceId: string, service: string): void {
    if (service === '*') this.cache.clear();
    else this.cache.delete(cacheKey(workspaceId, service));
  }
}

/** typebox's value module, imported when a plugin with settings is first used rather than at start-up. */
let valueModule: Promise<typeof import('typebox/value')> | undefined;

async function settingsWithDefaults(integration: RegisteredIntegration, stored: Record<string, unknown>): Promise<Record<string, unknown>> {
  const schema = integration.plugin.settings;
  if (!schema) return { ...stored };
  valueModule ??= import('typebox/value');
  const { Value } = await valueModule;
  return Value.Default(schema, structuredClone(stored)) as Record<string, unknown>;
}
