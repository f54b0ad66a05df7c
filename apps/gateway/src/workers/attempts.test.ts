import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry, silentLogger, UpstreamLimiter } from '@portico/core';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { type RunningGateway, startGateway } from '../server/start.js';
import { CoordinationHost } from './host.js';
import { WorkerLink } from './link.js';

/**
 * Gateways started as workers are (their per-address limits counted by a primary over a channel), in this process:
 * the sign-in and registration limits hold across them, and a worker that cannot ask its primary refuses. The real
 * `serve --workers 2` processes are tested in e2e/workers.e2e.test.ts.
 */
const started: RunningGateway[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((gateway) => gateway.close(0, 0)));
});

async function worker(dataDir: string, link: WorkerLink): Promise<RunningGateway> {
  const gateway = await startGateway({
    config: loadConfig({ PORTICO_DATA_DIR: dataDir, PORTICO_PORT: '0', PORTICO_PLUGINS: '' }),
    logger: silentLogger,
    plugins: [],
    worker: { wrapStore: (store) => store, upstreamSlots: (options) => new UpstreamLimiter(options), attempts: link },
  });
  started.push(gateway);
  return gateway;
}

/** A primary's coordination host and links to it, over a channel that serialises each message as IPC does. */
function primary() {
  const host = new CoordinationHost(new UpstreamLimiter({}), new Registry(), silentLogger);
  let nextId = 1;
  return function link(): WorkerLink {
    const id = nextId++;
    let deliver: (message: unknown) => void = () => {};
    host.attach({ id, send: (message) => queueMicrotask(() => deliver(JSON.parse(JSON.stringify(message)))) });
    return new WorkerLink({
      send: (message) => queueMicrotask(() => host.receive(id, JSON.parse(JSON.stringify(message)))),
      onMessage: (listener) => {
        deliver = listener;
      },
    });
  };
}

const signIn = (url: string, key: string) =>
  fetch(`${url}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
    body: new URLSearchParams({ key }).toString(),
  });

const register = (url: string) =>
  fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Assistant', redirect_uris: ['https://assistant.example/callback'] }),
  });

describe('per-address limits of gateways that are workers of one primary', () => {
  it('ten failed sign-ins spread over two workers: the 11th is refused (429), on either', async () => {
    const link = primary();
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-attempts-'));
    const one = await worker(dataDir, link());
    const two = await worker(dataDir, link());
    for (let i = 0; i < 10; i++) expect((await signIn((i % 2 ? two : one).url, 'portico_wrong')).status).toBe(401);
    for (const gateway of [one, two]) {
      const refused = await signIn(gateway.url, 'portico_wrong');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    }
  });

  it('ten registrations spread over two workers: the 11th is refused (429 too_many_registrations)', async () => {
    const link = primary();
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-attempts-'));
    const one = await worker(dataDir, link());
    const two = await worker(dataDir, link());
    for (let i = 0; i < 10; i++) expect((await register((i % 2 ? two : one).url)).status).toBe(201);
    const refused = await register(one.url);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toBe('too_many_registrations');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
  });

  it('a worker cut off from its primary refuses sign-ins and registrations (503 with Retry-After) and checks no key', async () => {
    const link = primary()();
    const gateway = await worker(mkdtempSync(join(tmpdir(), 'portico-attempts-')), link);
    link.disconnected();
    const refused = await signIn(gateway.url, 'portico_wrong');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.text()).toContain('Sign-in is unavailable for a moment');
    const registration = await register(gateway.url);
    expect(registration.status).toBe(503);
    expect(registration.headers.get('retry-after')).toBe('1');
    expect(await registration.json()).toMatchObject({ error: true, code: 'unavailable' });
  });
});
