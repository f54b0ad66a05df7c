import type { RegisteredOperation, Registry } from '../contract/registry.js';
import { GatewayError } from '../errors.js';
import { cacheKey, SETTINGS_CACHE_MS } from '../store/changes.js';
import { DatabaseOutage } from '../store/outage.js';
import type { Store, ToolSetRecord, ToolSetRule } from '../store/types.js';

/** A tool set id: chosen by the operator, 1-63 lowercase letters, digits, `-` and `_`, starting with a letter or digit. */
export const TOOL_SET_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;
/** A rule: `service` or `service:operation`, either part a glob where `*` stands for any characters. */
export const TOOL_SET_RULE = /^[a-z0-9_*]{1,64}(?::[a-z0-9_*]{1,64})?$/;
const MAX_RULES = 200;

/** What saving a tool set takes. */
export interface ToolSetInput {
  id: string;
  /** Shown in lists; default: the id. */
  name?: string;
  rules: readonly ToolSetRule[];
}

/** A tool set and the operations it resolves to against the registry, `service:operation`, in registry order. */
export interface ResolvedToolSet {
  record: ToolSetRecord;
  operations: string[];
}

/** The operations a key bound to a tool set may call: resolved once per tool set version, one look-up per call. */
export class AllowedOperations {
  private readonly byService: ReadonlyMap<string, ReadonlySet<string>>;

  constructor(byService: ReadonlyMap<string, ReadonlySet<string>>) {
    this.byService = byService;
  }

  has(service: string, operation: string): boolean {
    return this.byService.get(service)?.has(operation) ?? false;
  }

  /** True when at least one operation of `service` is allowed. */
  hasService(service: string): boolean {
    return this.byService.has(service);
  }

  get size(): number {
    let size = 0;
    for (const operations of this.byService.values()) size += operations.size;
    return size;
  }

  /** `service:operation`, in registry order. */
  list(): string[] {
    return [...this.byService].flatMap(([service, operations]) => [...operations].map((operation) => `${service}:${operation}`));
  }
}

const NOTHING = new AllowedOperations(new Map());

function glob(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
}

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/**
 * Resolves rules against the registry: the union of what each rule matches. `matched[i]` is how many operations rule
 * `i` matched on its own (0: the rule matches nothing, which `ToolSets.save` refuses).
 */
export function resolveRules(registry: Registry, rules: readonly ToolSetRule[]): { allowed: AllowedOperations; matched: number[] } {
  const compiled = rules.map((rule) => {
    const [service = '', operation = '*'] = rule.match.split(':');
    return { service: glob(service), operation: glob(operation), readOnly: rule.readOnly };
  });
  const matched = rules.map(() => 0);
  const byService = new Map<string, Set<string>>();
  for (const integration of registry.list()) {
    for (const operation of integration.operations.values()) {
      compiled.forEach((rule, i) => {
        if (!rule.service.test(integration.service) || !rule.operation.test(operation.name)) return;
        if (rule.readOnly && operation.access !== 'read') return;
        matched[i] = (matched[i] ?? 0) + 1;
        allow(byService, integration.service, operation);
      });
    }
  }
  return { allowed: new AllowedOperations(byService), matched };
}

function allow(byService: Map<string, Set<string>>, service: string, operation: RegisteredOperation): void {
  const names = byService.get(service) ?? new Set<string>();
  names.add(operation.name);
  byService.set(service, names);
}

/**
 * The tool sets of every workspace: saved (each rule must match at least one operation of the registry), listed,
 * deleted, and resolved for the hot path. The resolved set is cached per tool set and reused while its version is
 * unchanged; a change notification (any instance: `forget`) drops it, and SETTINGS_CACHE_MS bounds staleness.
 */
export class ToolSets {
  /** Resolved sets by (workspace, id), with the version they were resolved from (`version@updatedAt`: a set deleted and
   * made again starts at version 1 again). */
  private readonly cache = new Map<string, { version: string; allowed: AllowedOperations; expires: number }>();

  constructor(
    private readonly registry: Registry,
    private readonly store: Store,
    private readonly outage: DatabaseOutage = new DatabaseOutage(),
  ) {}

  /** The resolved set when it is cached and fresh: the hot path's synchronous look-up. */
  cached(workspaceId: string, id: string): AllowedOperations | undefined {
    const entry = this.cache.get(cacheKey(workspaceId, id));
    return entry && entry.expires > Date.now() ? entry.allowed : undefined;
  }

  /** What a key bound to tool set `id` may call. A set that does not exist (any more) allows nothing. */
  async allowed(workspaceId: string, id: string): Promise<AllowedOperations> {
    const cached = this.cached(workspaceId, id);
    if (cached) return cached;
    const key = cacheKey(workspaceId, id);
    const previous = this.cache.get(key);
    // The database down: a set resolved before still serves (degraded mode); one never read gets 503 unavailable.
    const record = await this.outage.read<ToolSetRecord | undefined | 'remembered'>(
      'tool set lookup',
      () => this.store.getToolSet(workspaceId, id),
      () => (previous ? { value: 'remembered' as const } : undefined),
    );
    if (record === 'remembered') return (previous as { allowed: AllowedOperations }).allowed;
    const version = record ? `${record.version}@${record.updatedAt}` : '';
    const allowed = !record
      ? NOTHING
      : previous && previous.version === version
        ? previous.allowed
        : resolveRules(this.registry, record.rules).allowed;
    // Bounded like the key cache: a flood of keys naming sets that do not exist cannot grow it without limit.
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(key, { version, allowed, expires: Date.now() + SETTINGS_CACHE_MS });
    return allowed;
  }

  /**
   * Marks the cached set stale (`'*'`: every set), after a change notification: the next call reads the record again,
   * and resolves the rules again only if its version moved.
   */
  forget(workspaceId: string, id: string): void {
    if (id === '*' || workspaceId === '*') {
      for (const entry of this.cache.values()) entry.expires = 0;
    } else {
      const entry = this.cache.get(cacheKey(workspaceId, id));
      if (entry) entry.expires = 0;
    }
  }

  async get(workspaceId: string, id: string): Promise<ResolvedToolSet | undefined> {
    const record = await this.store.getToolSet(workspaceId, id);
    return record ? { record, operations: resolveRules(this.registry, record.rules).allowed.list() } : undefined;
  }

  async list(workspaceId: string): Promise<ResolvedToolSet[]> {
    return (await this.store.listToolSets(workspaceId)).map((record) => ({
      record,
      operations: resolveRules(this.registry, record.rules).allowed.list(),
    }));
  }

  /**
   * Creates or replaces a tool set. Every rule must match at least one operation (a rule matching nothing is a
   * mistake, not a wish for an empty set): otherwise `bad_request` naming the rules.
   */
  async save(workspaceId: string, input: ToolSetInput): Promise<ResolvedToolSet> {
    if (!TOOL_SET_ID.test(input.id)) {
      throw new GatewayError('bad_request', 'A tool set id has 1-63 lowercase letters, digits, - and _, starting with a letter or digit');
    }
    const name = (input.name ?? input.id).trim();
    if (name.length === 0 || name.length > 100) throw new GatewayError('bad_request', 'A tool set name has 1-100 characters');
    if (input.rules.length === 0) throw new GatewayError('bad_request', 'A tool set needs at least one rule');
    if (input.rules.length > MAX_RULES) throw new GatewayError('bad_request', `A tool set has at most ${MAX_RULES} rules`);
    const bad = input.rules.find((rule) => !TOOL_SET_RULE.test(rule.match));
    if (bad) {
      throw new GatewayError(
        'bad_request',
        `Rule "${bad.match.slice(0, 80)}" is not service or service:operation (lowercase, digits, _ and * as a wildcard)`,
      );
    }
    const { allowed, matched } = resolveRules(this.registry, input.rules);
    const empty = input.rules.filter((_, i) => matched[i] === 0);
    if (empty.length > 0) {
      const described = empty.map((rule) => `"${rule.match}"${rule.readOnly ? ' (read-only)' : ''}`).join(', ');
      throw new GatewayError('bad_request', `Rule ${described} matches no operation: check the service and operation names`);
    }
    const now = new Date().toISOString();
    const rules = input.rules.map((rule) => ({ match: rule.match, readOnly: rule.readOnly }));
    const record = await this.store.putToolSet({ workspaceId, id: input.id, name, rules, createdAt: now, updatedAt: now });
    this.forget(workspaceId, input.id);
    return { record, operations: allowed.list() };
  }

  /**
   * Deletes a tool set; refused (`conflict`, naming them) while active keys, grants or members are bound to it: a set
   * deleted and saved again with other rules would otherwise widen what they were allowed.
   */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    const now = Date.now();
    const live = (r: { revokedAt: string | null; expiresAt: string | null }) =>
      !r.revokedAt && !(r.expiresAt && Date.parse(r.expiresAt) <= now);
    const bound = [
      ...(await this.store.listApiKeys(workspaceId)).filter((key) => key.scopes.toolSet === id && live(key)).map((key) => key.id),
      ...(await this.store.authorization.listGrants(workspaceId)).filter((g) => g.scopes.toolSet === id && live(g)).map((g) => g.id),
      ...(await this.store.members.list(workspaceId)).filter((m) => m.narrowing.toolSet === id).map((m) => m.id),
    ];
    if (bound.length > 0 && (await this.store.getToolSet(workspaceId, id))) {
      throw new GatewayError(
        'conflict',
        `Tool set ${id} is used by ${bound.length} active key(s), grant(s) or member(s) (${bound.join(', ')}): revoke or change them first`,
      );
    }
    const deleted = await this.store.deleteToolSet(workspaceId, id);
    this.forget(workspaceId, id);
    return deleted;
  }
}
