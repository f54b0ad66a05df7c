import { randomBytes } from 'node:crypto';
import { Encryptor, parseEncryptionKey } from '../connections/crypto.js';
import type { Plugin, SandboxServer } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { GatewayError } from '../errors.js';
import { Engine, type Principal } from '../pipeline/engine.js';
import { SqliteStore } from '../store/sqlite.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { FAIL_NEXT_PATH, type FaultSpec, RESET_PATH } from './emulator.js';

export interface SandboxHarness {
  sandbox: SandboxServer;
  engine: Engine;
  /** Runs an operation through the real pipeline (REST door) against the sandbox; resolves with the body. */
  call<T = Record<string, unknown>>(operation: string, params?: Record<string, unknown>): Promise<T>;
  /** The GatewayError an operation fails with; rejects when it succeeds. */
  failure(operation: string, params?: Record<string, unknown>): Promise<GatewayError>;
  /** POSTs JSON to one of the sandbox's control endpoints (`/__sandbox/fail-next`, `/__sandbox/reset`); rejects unless 200. */
  control(path: string, body?: unknown): Promise<void>;
  /** Queues an injected failure: `POST /__sandbox/fail-next` with the one shape every emulator takes. */
  failNext(fault?: FaultSpec): Promise<void>;
  /** Restores the sandbox's seeded data and drops queued failures (`POST /__sandbox/reset`). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const PRINCIPAL: Principal = { keyId: null, workspaceId: DEFAULT_WORKSPACE, scopes: { admin: true, services: '*', readOnly: false } };

/**
 * A plugin's own sandbox, started and connected to a real engine (in-memory SQLite store, encryption, got, error
 * mapping), with REST enabled: what a plugin's sandbox tests need, set up in one call.
 */
export async function startSandboxHarness(plugin: Plugin): Promise<SandboxHarness> {
  if (!plugin.sandbox) throw new Error(`${plugin.service} has no sandbox`);
  const sandbox = await (await plugin.sandbox()).startSandbox();
  const registry = new Registry();
  const { service } = registry.register(plugin);
  const store = new SqliteStore(':memory:');
  await store.migrate();
  const engine = new Engine({
    registry,
    store,
    encryptor: new Encryptor(parseEncryptionKey(randomBytes(32).toString('base64'))),
    upstream: { retryLimit: 0 },
    // The recorder/sandbox listens on loopback: approved as the operator would (PORTICO_WORKSPACE_UPSTREAM_HOSTS).
    egress: { workspaceHosts: ['127.0.0.1'] },
    // The sandbox's own limits, as in sandbox mode (it is not the application, whose limits the plugin declares).
    upstreamLimits: { services: { [service]: sandbox.limits ?? {} } },
  });
  await engine.connectToken(DEFAULT_WORKSPACE, service, sandbox.token, { ...sandbox.connection });
  await engine.configureIntegration(DEFAULT_WORKSPACE, service, { baseUrl: sandbox.url, restEnabled: true });

  const call = async <T>(operation: string, params: Record<string, unknown> = {}): Promise<T> =>
    (await engine.invoke({ principal: PRINCIPAL, protocol: 'rest', service, operation, params })).body as T;

  const control = async (path: string, body: unknown = {}): Promise<void> => {
    const response = await fetch(`${new URL(sandbox.url).origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`sandbox control ${path} answered ${response.status}: ${await response.text()}`);
  };

  return {
    sandbox,
    engine,
    call,
    control,
    failNext: (fault = {}) => control(FAIL_NEXT_PATH, fault),
    reset: () => control(RESET_PATH),
    async failure(operation, params = {}) {
      try {
        await call(operation, params);
      } catch (error) {
        if (error instanceof GatewayError) return error;
        throw error;
      }
      throw new Error(`${operation} succeeded; a failure was expected`);
    },
    async close() {
      await engine.close();
      await store.close();
      await sandbox.close();
    },
  };
}
