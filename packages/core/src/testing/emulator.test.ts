import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type EmulatorServer,
  jsonReply,
  parseFault,
  parseForm,
  parseJson,
  queryObject,
  queryValues,
  startEmulator,
  textReply,
} from './emulator.js';

interface Counter {
  hits: number;
  seededAt: string;
}

let emulator: EmulatorServer;
const post = (path: string, body: unknown, base = emulator.origin) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const get = (path: string) => fetch(`${emulator.origin}${path}`);

beforeAll(async () => {
  emulator = await startEmulator<Counter>({
    token: 'test-token',
    basePath: '/v1',
    maxBodyBytes: 1024,
    seed: ({ url }) => ({ hits: 0, seededAt: url }),
    handle: (request, state) => {
      if (request.path === '/v1/boom') throw new Error('boom');
      if (request.path === '/__sandbox/files/a') return textReply(200, 'file a');
      state.hits += 1;
      const body = request.mediaType() === 'application/x-www-form-urlencoded' ? request.form() : request.json();
      return jsonReply(200, { hits: state.hits, seq: request.seq, method: request.method, body: body ?? null, seededAt: state.seededAt });
    },
  });
});
afterAll(() => emulator?.close());
beforeEach(async () => {
  expect((await post('/__sandbox/reset', {})).status).toBe(200);
});

describe('startEmulator', () => {
  it('listens on loopback and hands out the base URL, token and origin', () => {
    expect(emulator.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulator.url).toBe(`${emulator.origin}/v1`);
    expect(emulator.token).toBe('test-token');
  });

  it('passes the seeded state to the routes and restores it on reset', async () => {
    await get('/v1/x');
    const second = await (await get('/v1/x')).json();
    expect(second).toMatchObject({ hits: 2, seededAt: emulator.url });
    await post('/__sandbox/reset', {});
    expect(await (await get('/v1/x')).json()).toMatchObject({ hits: 1 });
  });

  it('reads JSON and form bodies', async () => {
    expect(await (await post('/v1/x', { a: 1 })).json()).toMatchObject({ method: 'POST', body: { a: 1 } });
    const form = await fetch(`${emulator.url}/x`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=two',
    });
    expect(await form.json()).toMatchObject({ body: { a: '1', b: 'two' } });
  });

  it('refuses a body over the limit with 413', async () => {
    const response = await fetch(`${emulator.url}/x`, { method: 'POST', body: 'x'.repeat(4096) });
    expect(response.status).toBe(413);
  });

  it('answers 500 when a route throws', async () => {
    const response = await get('/v1/boom');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'internal_error' });
  });
});

describe('POST /__sandbox/fail-next', () => {
  it('fails the next request once, with status, message, Retry-After and headers, then recovers', async () => {
    const armed = await post('/__sandbox/fail-next', { status: 429, message: 'slow down', retry_after: 2, headers: { 'X-Extra': '1' } });
    expect(await armed.json()).toEqual({ ok: true, pending: 1 });
    const failed = await get('/v1/x');
    expect(failed.status).toBe(429);
    expect(failed.headers.get('retry-after')).toBe('2');
    expect(failed.headers.get('x-extra')).toBe('1');
    expect(await failed.json()).toEqual({ error: 'slow down' });
    expect((await get('/v1/x')).status).toBe(200);
  });

  it('fails `count` requests, only those that `match`, in the order the failures were queued', async () => {
    await post('/__sandbox/fail-next', { status: 503, count: 2, match: 'POST /v1/write' });
    await post('/__sandbox/fail-next', { status: 500, code: 'first' });
    await post('/__sandbox/fail-next', { status: 502, code: 'second' });
    expect((await get('/v1/write')).status).toBe(500); // a GET does not match the POST failure
    expect((await post('/v1/write', {})).status).toBe(503);
    expect((await post('/v1/write', {})).status).toBe(503);
    expect((await post('/v1/write', {})).status).toBe(502);
    expect((await post('/v1/write', {})).status).toBe(200);
  });

  it('sends a verbatim body, and never fails the control or other /__sandbox/ paths', async () => {
    await post('/__sandbox/fail-next', { status: 400, body: { custom: true } });
    expect((await get('/__sandbox/files/a')).status).toBe(200);
    const failed = await get('/v1/x');
    expect(failed.status).toBe(400);
    expect(await failed.json()).toEqual({ custom: true });
  });

  it('is served under the base path too, and reset drops queued failures', async () => {
    expect((await post('/__sandbox/fail-next', { status: 500 }, emulator.url)).status).toBe(200);
    expect((await post('/__sandbox/reset', {}, emulator.url)).status).toBe(200);
    expect((await get('/v1/x')).status).toBe(200);
  });

  it('refuses other shapes with 400 and other methods with 405, naming what is wrong', async () => {
    const old = await post('/__sandbox/fail-next', { status: 429, slack_error: 'x', times: 2 });
    expect(old.status).toBe(400);
    expect(((await old.json()) as { error: string }).error).toContain('"slack_error", "times"');
    expect((await post('/__sandbox/fail-next', { status: 99 })).status).toBe(400);
    expect((await post('/__sandbox/fail-next', [1])).status).toBe(400);
    expect((await get('/__sandbox/reset')).status).toBe(405);
    expect((await get('/v1/x')).status).toBe(200);
  });

  it('numbers the requests that are not control requests', async () => {
    const first = (await (await get('/v1/x')).json()) as { seq: number };
    await post('/__sandbox/fail-next', { status: 500 });
    await get('/v1/x');
    expect(await (await get('/v1/x')).json()).toMatchObject({ seq: first.seq + 2 });
  });
});

describe('helpers', () => {
  it('parse bodies and queries', () => {
    expect(parseJson('')).toBeUndefined();
    expect(parseJson(Buffer.from('{"a":1}'))).toEqual({ a: 1 });
    expect(() => parseJson('{')).toThrow('not valid JSON');
    expect(parseForm('a=1&a=2&b=%20x')).toEqual({ a: '2', b: ' x' });
    const query = new URLSearchParams('tags[]=1&tags[]=2&tags=3&one=x&two=a&two=b');
    expect(queryObject(query)).toEqual({ 'tags[]': ['1', '2'], tags: '3', one: 'x', two: ['a', 'b'] });
    expect(queryValues(query, 'tags')).toEqual(['1', '2', '3']);
  });

  it('read a fault spec into headers and a match', () => {
    expect(parseFault({ retry_after: 1.5, match: 'get /upload/' })).toEqual({
      headers: { 'retry-after': '1.5' },
      count: 1,
      match: { method: 'GET', pathPrefix: '/upload/' },
    });
    expect(() => parseFault({ match: 'upload' })).toThrow('match must be a path prefix');
  });
});
