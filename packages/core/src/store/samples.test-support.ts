import { type ApiKeyRecord, type AuditRecord, type ConnectionRecord, DEFAULT_WORKSPACE, type IntegrationSettingsRecord } from './types.js';

// Records and timing helpers for the store contract and the store tests.

export const T1 = '2026-01-01T00:00:00.000Z';
export const T2 = '2026-01-02T00:00:00.000Z';
export const T3 = '2026-01-03T00:00:00.000Z';

export function key(id: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id,
    workspaceId: DEFAULT_WORKSPACE,
    name: `name of ${id}`,
    // A hash per id, so that keys made with different ids never collide by accident.
    hash: Buffer.from(id).toString('hex').padEnd(64, '0').slice(0, 64),
    prefix: 'portico_abcd',
    scopes: { admin: false, services: ['notion'], readOnly: false },
    createdAt: T1,
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  };
}

export function integration(service: string, overrides: Partial<IntegrationSettingsRecord> = {}): IntegrationSettingsRecord {
  return {
    workspaceId: DEFAULT_WORKSPACE,
    service,
    mcpEnabled: true,
    restEnabled: false,
    baseUrl: null,
    settings: {},
    connectionPolicy: null,
    updatedAt: T1,
    ...overrides,
  };
}

export function conn(service: string, overrides: Partial<Omit<ConnectionRecord, 'version'>> = {}): Omit<ConnectionRecord, 'version'> {
  return {
    workspaceId: DEFAULT_WORKSPACE,
    service,
    memberId: null,
    kind: 'token',
    secret: 'enc1:a',
    meta: {},
    status: 'active',
    expiresAt: null,
    createdAt: T1,
    updatedAt: T1,
    ...overrides,
  };
}

export function audit(operation: string, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    at: T1,
    workspaceId: DEFAULT_WORKSPACE,
    keyId: 'key_1',
    service: 'notion',
    operation,
    protocol: 'rest',
    status: 200,
    code: null,
    durationMs: 5,
    clientAddress: null,
    ...overrides,
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Rejects when `promise` has not settled after `ms`: a lock that is never released fails the test instead of hanging it. */
export function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
