import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_WORKSPACE, Encryptor } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/index.js';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true });
});
afterAll(() => gateway?.close());

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    argv,
    { PORTICO_DATA_DIR: gateway.runtime.config.dataDir, PORTICO_LOG_LEVEL: 'silent' },
    {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      stdin: () => '',
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const dataDirHolds = (text: string) =>
  readdirSync(gateway.runtime.config.dataDir).some((name) =>
    readFileSync(join(gateway.runtime.config.dataDir, name)).includes(Buffer.from(text)),
  );

const everyServiceAnswers = async () => {
  const paths = { notion: '/api/v1/notion/users', slack: '/api/v1/slack/users', callrail: '/api/v1/callrail/accounts' } as const;
  for (const [service, path] of Object.entries(paths)) {
    if (!gateway.sandboxes[service]) continue;
    expect((await gateway.rest('GET', path)).status, service).toBe(200);
  }
};

describe('rotating the encryption key while the gateway serves', () => {
  it('re-encrypts every connection, keeps them usable, and leaves no plaintext token in the database', async () => {
    await everyServiceAnswers();
    const tokens = Object.values(gateway.sandboxes).map((s) => s.token);
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    for (const token of tokens) expect(dataDirHolds(token)).toBe(false);
    expect(dataDirHolds('enc1:')).toBe(true); // the grep can see the stored ciphertexts

    // an event subscription's signing secret (docs/events.md), of a type no sandbox sends: nothing is delivered
    const subscription = await gateway.runtime.engine.events.outbound.subscribe(DEFAULT_WORKSPACE, {
      url: 'https://hooks.example.com/portico',
      types: ['nothing.sent'],
    });
    expect(dataDirHolds(subscription.secret)).toBe(false);
    const before = new Set((await gateway.runtime.store.allConnections()).map((c) => Encryptor.keyIdOf(c.secret)));
    expect(before.size).toBe(1);
    const rotated = await cli('encryption', 'rotate');
    expect(rotated.code).toBe(0);
    // the connections, the webhook signing secrets sandbox mode saved, those of the webhooks the gateway registered
    // with an application (Clio's), and the subscription's (docs/events.md)
    const registered = (await gateway.runtime.store.registrations.all()).filter((r) => r.secret !== null).length;
    expect(registered).toBeGreaterThanOrEqual(1);
    const signed = Object.values(gateway.sandboxes).filter((s) => s.webhooks).length + registered + 1;
    expect(rotated.out).toMatch(new RegExp(`${tokens.length + signed} re-encrypted, 0 already current, 0 failed`));
    const after = new Set((await gateway.runtime.store.allConnections()).map((c) => Encryptor.keyIdOf(c.secret)));
    expect(after.size).toBe(1);
    expect([...after][0]).not.toBe([...before][0]);
    const [stored] = await gateway.runtime.store.subscriptions.list(DEFAULT_WORKSPACE);
    expect(Encryptor.keyIdOf(stored?.secret ?? '')).toBe([...after][0]);

    // the running gateway still holds the old ring: it must pick the new key up by itself
    await everyServiceAnswers();
    for (const token of tokens) expect(dataDirHolds(token)).toBe(false);

    const status = await cli('encryption', 'status');
    expect(status.out).toContain(`${[...after][0]}: ${tokens.length} connection(s), ${signed} webhook signing secret(s)`);
    const pruned = await cli('encryption', 'prune');
    expect(pruned.out).toContain(`Dropped 1 unused key(s): ${[...before][0]}`);
    const keyLines = readFileSync(join(gateway.runtime.config.dataDir, 'encryption.key'), 'utf8').trim().split('\n');
    expect(keyLines).toHaveLength(1);
    await everyServiceAnswers();
    // a webhook is still checked with its secret, now sealed under the new key only
    const emitted = await fetch(`${(gateway.sandboxes.slack as { url: string }).url}/__sandbox/emit`, { method: 'POST', body: '{}' });
    expect(((await emitted.json()) as { delivery: { status: number } }).delivery.status).toBe(200);
    expect((await cli('encryption', 'rotate')).out).toMatch(/re-encrypted/); // and again, from the pruned ring
    await everyServiceAnswers();
  });
});
