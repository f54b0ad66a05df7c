import type { SandboxServer } from '@portico/core/plugin';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everyFixture } from '../fixtures/kit.js';
import { startSandbox } from './index.js';

// Every upstream request of the plugin's fixtures, replayed against the sandbox: each is one the emulator knows
// (never 400 — but for a recorded page_token —, 401, 410 or 422), and answers a list, a record or a 204 — a 404 only where the fixture's id is not seeded.

let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox?.close());
beforeEach(async () => {
  await fetch(`${new URL(sandbox.url).origin}/__sandbox/reset`, { method: 'POST' });
});

const requests = (await everyFixture()).flatMap((fixture) =>
  fixture.exchanges.map((exchange) => ({ operation: fixture.operation, ...exchange.request })),
);

describe('the fixtures of the plugin, replayed against the sandbox', () => {
  it('are all answered', async () => {
    expect(requests.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const request of requests) {
      const url = new URL(`${new URL(sandbox.url).origin}${request.path}`);
      for (const [name, value] of Object.entries(request.query ?? {})) {
        for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
      }
      const response = await fetch(url, {
        method: request.method,
        headers: { authorization: `Bearer ${sandbox.token}`, 'x-api-version': '4.0.10', 'content-type': 'application/json' },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      });
      const text = await response.text();
      const byId = /\/[0-9]+(\/\w+)?\.json$/.test(request.path);
      // A recorded page_token was issued by Clio, not by the sandbox: refused as Clio refuses a token it did not issue.
      const foreignToken = url.searchParams.has('page_token') && response.status === 400 && text.includes('page_token');
      if (![200, 201, 204].includes(response.status) && !(byId && response.status === 404) && !foreignToken) {
        wrong.push(`${request.operation}: ${request.method} ${url.pathname}${url.search} → ${response.status} ${text.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
