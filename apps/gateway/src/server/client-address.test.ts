import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { createLogger } from '../observability/logger.js';
import { ClientAddress } from './client-address.js';
import { type RunningGateway, startGateway } from './start.js';

/** The client address in the access log: the peer's, or from X-Forwarded-For only behind a proxy the operator trusts. */
const dir = mkdtempSync(join(tmpdir(), 'portico-client-address-'));
const gateways: RunningGateway[] = [];
afterAll(async () => {
  for (const gateway of gateways) await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>) {
  const lines: Array<{ msg: string; [field: string]: unknown }> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({ PORTICO_DATA_DIR: mkdtempSync(join(dir, 'data-')), PORTICO_PORT: '0', ...env });
  const gateway = await startGateway({ config, logger: createLogger('info', destination), plugins: [examplePlugin] });
  gateways.push(gateway);
  /** The access-log client of one request sent with this X-Forwarded-For. */
  const clientOf = async (forwardedFor?: string) => {
    const requestId = `ca-${Math.random().toString(36).slice(2)}`;
    await fetch(`${gateway.url}/healthz`, {
      headers: { 'x-request-id': requestId, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    });
    for (let i = 0; i < 100 && !lines.some((l) => l.requestId === requestId); i++) await new Promise((r) => setTimeout(r, 10));
    return lines.find((l) => l.msg === 'request' && l.requestId === requestId)?.client;
  };
  return { clientOf };
}

describe('the client address behind a trusted proxy (PORTICO_TRUST_PROXY)', () => {
  it('behind a trusted proxy: the rightmost address of X-Forwarded-For that is not a trusted proxy', async () => {
    const { clientOf } = await start({ PORTICO_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
    expect(await clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(await clientOf('198.51.100.1, 203.0.113.7, 10.1.2.3')).toBe('203.0.113.7'); // the caller's own claim is left of it
    expect(await clientOf()).toBe('127.0.0.1');
    expect(await clientOf('not-an-address')).toBe('127.0.0.1');
  });

  it('without PORTICO_TRUST_PROXY a caller cannot choose its address: X-Forwarded-For is ignored', async () => {
    const { clientOf } = await start({});
    expect(await clientOf('203.0.113.7')).toBe('127.0.0.1');
  });

  it('an untrusted peer is the client whatever it forwards; IPv4 on a dual-stack socket is shown as IPv4', () => {
    const clients = new ClientAddress(['10.0.0.0/8', '::1']);
    expect(clients.of('192.0.2.1', '203.0.113.7')).toBe('192.0.2.1');
    expect(clients.of('::ffff:10.0.0.5', '203.0.113.7')).toBe('203.0.113.7');
    expect(clients.of('::1', '2001:db8::1, 10.0.0.9')).toBe('2001:db8::1');
  });

  it('a value that is no address or range stops the gateway with a message naming it', () => {
    expect(() => loadConfig({ PORTICO_DATA_DIR: dir, PORTICO_TRUST_PROXY: '127.0.0.1,proxy.internal' })).toThrow(
      'PORTICO_TRUST_PROXY: "proxy.internal" is not an IP address or CIDR range',
    );
    expect(() => loadConfig({ PORTICO_DATA_DIR: dir, PORTICO_TRUST_PROXY: '10.0.0.0/33' })).toThrow('"10.0.0.0/33"');
  });
});
