import { chmodSync, mkdtempSync, statSync } from 'node:fs';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { examplePlugin } from '@portico/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../config/load.js';
import { createLogger } from '../observability/logger.js';
import { type StartOptions, startGateway } from './start.js';

/**
 * The HTTP edge: what a client gets when its request never reaches the app (Node's parser or timers refuse it), what
 * the log says when a client goes away, the modes of the files the gateway creates, and which Host names it accepts.
 */

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A gateway on a fresh data directory, its log lines captured (debug and up). */
async function start(env: Record<string, string> = {}, extra: Partial<StartOptions> = {}) {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const dataDir = env.PORTICO_DATA_DIR ?? join(mkdtempSync(join(tmpdir(), 'portico-edge-')), 'data');
  const config = loadConfig({ PORTICO_DATA_DIR: dataDir, PORTICO_PORT: '0', ...env });
  const gateway = await startGateway({ config, logger: createLogger('debug', destination), plugins: [examplePlugin], ...extra });
  return { gateway, lines, dataDir, port: (gateway.server.address() as AddressInfo).port };
}

/** Writes raw bytes on a fresh connection; resolves with everything the server sent until it closed (bounded). */
function exchange(port: number, bytes: string | Buffer, options: { endAfter?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within 5 s; received: ${JSON.stringify(received)}`));
    }, 5_000);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.write(bytes);
    if (options.endAfter) socket.end();
  });
}

function parseResponse(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), statusLine, headers, body };
}

const stopped = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('answers Node refuses before the app sees them', () => {
  let running: Awaited<ReturnType<typeof start>>;
  let stderr: ReturnType<typeof vi.spyOn>;
  let consoleError: ReturnType<typeof vi.spyOn>;
  beforeEach(async () => {
    running = await start();
    stderr = vi.spyOn(process.stderr, 'write');
    consoleError = vi.spyOn(console, 'error');
  });
  afterEach(async () => {
    stderr.mockRestore();
    consoleError.mockRestore();
    await running.gateway.close();
  });

  function expectErrorBody(raw: string, status: number, code: string) {
    const response = parseResponse(raw);
    expect(response.status, raw.slice(0, 200)).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers.connection).toBe('close');
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.body));
    const body = JSON.parse(response.body) as { error: boolean; code: string; message: string };
    expect(body).toEqual({ error: true, code, message: expect.any(String) });
    expect(body.message.length).toBeGreaterThan(0);
  }

  it('headers over 16 KB: 431 with the error body, one debug line, nothing on stderr', async () => {
    const raw = await exchange(running.port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectErrorBody(raw, 431, 'headers_too_large');
    const refused = running.lines.filter((l) => l.msg === 'refused a malformed request');
    expect(refused).toHaveLength(1);
    expect(refused[0]?.level).toBe(20);
    expect(JSON.stringify(refused[0])).not.toContain('aaaa'); // no raw bytes
    expect(refused[0]).not.toHaveProperty('err.stack');
    expect(stderr).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('a URL over 16 KB: 431 with the error body', async () => {
    const raw = await exchange(running.port, `GET /healthz?q=${'b'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expectErrorBody(raw, 431, 'headers_too_large');
  });

  it('a garbage request line: 400 with the error body', async () => {
    const raw = await exchange(running.port, '\x00\x01 GARBAGE \xff\r\n\r\n');
    expectErrorBody(raw, 400, 'bad_request');
    expect(stderr).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('a malformed header: 400 with the error body', async () => {
    const raw = await exchange(running.port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Name: x\r\n\r\n');
    expectErrorBody(raw, 400, 'bad_request');
  });

  it('a client that aborts mid-body is logged as such: no `unhandled error`, no 500, no stack', async () => {
    const key = running.gateway.createdKey?.key as string;
    const socket = connect(running.port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0",`,
    );
    await stopped(150); // the app is now reading the body
    socket.destroy();
    let request: LogLine | undefined;
    for (let i = 0; i < 50 && !request; i++) {
      await stopped(20);
      request = running.lines.find((l) => l.msg === 'request' && l.path === '/api/mcp');
    }
    expect(request, JSON.stringify(running.lines)).toBeDefined();
    expect(request?.status, JSON.stringify(running.lines)).toBe(499);
    expect(running.lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(running.lines.some((l) => l.msg === 'unhandled error')).toBe(false);
    expect(JSON.stringify(running.lines)).not.toContain('"stack"');
    const gone = running.lines.find((l) => l.msg === 'client closed the connection');
    expect(gone?.level).toBeLessThanOrEqual(30);
    expect(stderr).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
  });
});

describe('request timeouts', () => {
  it('a request whose headers never finish: 408 with the error body', async () => {
    const running = await start({}, { http: { requestTimeoutMs: 300, headersTimeoutMs: 300, checkIntervalMs: 50 } });
    try {
      const raw = await exchange(running.port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const response = parseResponse(raw);
      expect(response.status, raw).toBe(408);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.body)).toEqual({ error: true, code: 'request_timeout', message: expect.any(String) });
      expect(running.lines.some((l) => l.level >= 50)).toBe(false);
    } finally {
      await running.gateway.close();
    }
  });

  it('a body that never finishes: 408 with the error body, logged as 408 without an error line', async () => {
    const running = await start({}, { http: { requestTimeoutMs: 300, headersTimeoutMs: 300, checkIntervalMs: 50 } });
    try {
      const key = running.gateway.createdKey?.key as string;
      const raw = await exchange(
        running.port,
        `POST /api/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":`,
      );
      const response = parseResponse(raw);
      expect(response.status, raw).toBe(408);
      expect(JSON.parse(response.body)).toMatchObject({ error: true, code: 'request_timeout' });
      let request: LogLine | undefined;
      for (let i = 0; i < 50 && !request; i++) {
        await stopped(20);
        request = running.lines.find((l) => l.msg === 'request' && l.path === '/api/mcp');
      }
      expect(request?.status, JSON.stringify(running.lines)).toBe(408);
      expect(running.lines.filter((l) => l.level >= 50)).toEqual([]);
      expect(JSON.stringify(running.lines)).not.toContain('"stack"');
    } finally {
      await running.gateway.close();
    }
  });
});

describe('file modes of the data directory', () => {
  it.skipIf(process.platform === 'win32')('creates the directory 0700 and the database, its WAL files and the key file 0600', async () => {
    const running = await start();
    try {
      // a write, so the WAL and shared-memory files exist
      expect((await fetch(`${running.gateway.url}/healthz`)).status).toBe(200);
      const mode = (path: string) => statSync(path).mode & 0o777;
      expect(mode(running.dataDir).toString(8)).toBe('700');
      for (const file of ['portico.db', 'portico.db-wal', 'portico.db-shm', 'encryption.key']) {
        expect(mode(join(running.dataDir, file)).toString(8), file).toBe('600');
      }
    } finally {
      await running.gateway.close();
    }
  });

  it.skipIf(process.platform === 'win32')('makes existing files others could read owner-only at start, and says so', async () => {
    const first = await start();
    await first.gateway.close();
    const files = ['portico.db', 'encryption.key'].map((f) => join(first.dataDir, f));
    for (const file of files) chmodSync(file, 0o644);
    chmodSync(first.dataDir, 0o755);
    const again = await start({ PORTICO_DATA_DIR: first.dataDir });
    try {
      expect((statSync(first.dataDir).mode & 0o777).toString(8)).toBe('700');
      for (const file of files) expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
      const warning = again.lines.find((l) => l.msg.startsWith('other users could read these files'));
      expect(warning?.level).toBe(40);
      expect(warning?.files).toEqual(expect.arrayContaining([first.dataDir, ...files]));
    } finally {
      await again.gateway.close();
    }
  });
});

describe('Host names accepted on a non-loopback interface', () => {
  it('refuses to start on 0.0.0.0 without PORTICO_PUBLIC_URL or PORTICO_ALLOWED_HOSTS', async () => {
    await expect(start({ PORTICO_HOST: '0.0.0.0' })).rejects.toThrow(ConfigError);
    await expect(start({ PORTICO_HOST: '0.0.0.0' })).rejects.toThrow(/PORTICO_PUBLIC_URL or PORTICO_ALLOWED_HOSTS/);
  });

  it('with PORTICO_PUBLIC_URL, accepts its host and loopback names only', async () => {
    const running = await start({ PORTICO_HOST: '0.0.0.0', PORTICO_PUBLIC_URL: 'https://gateway.example.com' });
    try {
      const send = async (host: string) =>
        parseResponse(await exchange(running.port, `GET /api/admin/keys HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
      const refused = await send('evil.example.net');
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ error: true, code: 'forbidden' });
      // allowed names get as far as authentication
      expect((await send('gateway.example.com')).status).toBe(401);
      expect((await send(`localhost:${running.port}`)).status).toBe(401);
    } finally {
      await running.gateway.close();
    }
  });

  it('with PORTICO_ALLOWED_HOSTS, accepts exactly those (and * still accepts any)', async () => {
    const running = await start({ PORTICO_HOST: '0.0.0.0', PORTICO_ALLOWED_HOSTS: 'api.internal' });
    try {
      const send = async (host: string) =>
        parseResponse(await exchange(running.port, `GET /api/admin/keys HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
      expect((await send('evil.example.net')).status).toBe(403);
      expect((await send('api.internal:8787')).status).toBe(401);
    } finally {
      await running.gateway.close();
    }
    const any = await start({ PORTICO_HOST: '0.0.0.0', PORTICO_ALLOWED_HOSTS: '*' });
    try {
      const raw = await exchange(any.port, 'GET /api/admin/keys HTTP/1.1\r\nHost: evil.example.net\r\nConnection: close\r\n\r\n');
      expect(parseResponse(raw).status).toBe(401);
    } finally {
      await any.gateway.close();
    }
  });

  it('still starts on loopback with neither set', async () => {
    const running = await start({ PORTICO_HOST: '127.0.0.1' });
    await running.gateway.close();
  });
});
